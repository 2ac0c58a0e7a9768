//! `aigent completions SHELL`

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;
use clap_complete::Shell;
use clap_complete::env::Shells;

use aigent::report::Outcome;

use crate::cli::spec::{CommandSpec, Formats, READ_ONLY, Safe, leaf};
use crate::cli::{CliError, Context};

/// The variable the registration scripts set when they call back into
/// aigent for candidates.
pub const COMPLETE_VAR: &str = "COMPLETE";

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("completions", Safe, READ_ONLY, Formats::Artifact, false);

#[derive(Debug, Args)]
#[command(
    after_help = "By default the script asks aigent for candidates at each TAB, so the names of \
declared commands and their --param flags come from the active registry. --static prints a \
self-contained script instead (subcommands, flags and paths only).

bash needs the bash-completion package loaded by your shell (most distributions \
do); zsh needs `fpath+=~/.zfunc` before `compinit` in ~/.zshrc. The examples \
create the directories a fresh account lacks.

Examples:
  # a script that needs no aigent at completion time
  aigent completions --static bash > aigent.bash
  mkdir -p ~/.local/share/bash-completion/completions
  # bash, asking aigent as you type
  aigent completions bash > ~/.local/share/bash-completion/completions/aigent
  mkdir -p ~/.zfunc && aigent completions zsh > ~/.zfunc/_aigent
  mkdir -p ~/.config/fish/completions
  # fish
  aigent completions fish > ~/.config/fish/completions/aigent.fish"
)]
pub struct CompletionsArgs {
    /// The shell to generate a script for
    #[arg(value_enum)]
    pub shell: Shell,

    /// A self-contained script that never calls aigent back
    #[arg(long = "static")]
    pub static_script: bool,
}

pub fn run(args: &CompletionsArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let script = if args.static_script {
        super::generate::static_script(args.shell)
    } else {
        registration_script(args.shell)?
    };
    let script = String::from_utf8(script).map_err(|err| CliError::general(err.to_string()))?;
    // A document: the script itself, unless `--output json` asked for the
    // envelope (docs/reference/output.md).
    if ctx.format.is_json() {
        let data = serde_json::json!({
            "shell": args.shell.to_string(),
            "static": args.static_script,
            "script": script,
        });
        return Ok(Outcome::success(data, String::new()));
    }
    Ok(Outcome::verbatim(script))
}

fn registration_script(shell: Shell) -> Result<Vec<u8>, CliError> {
    let name = shell.to_string();
    let shells = Shells::builtins();
    let completer = shells
        .completer(&name)
        .ok_or_else(|| CliError::usage(format!("no dynamic completion for {name}")))?;
    let path = completer_path();
    // clap's bash template puts the (already quoted) path inside double
    // quotes, which breaks a path holding a space or a quote; write a
    // placeholder there and put the path in single quotes ourselves.
    let written = if shell == Shell::Bash {
        PLACEHOLDER
    } else {
        path.as_str()
    };
    let mut script = Vec::new();
    completer
        .write_registration(COMPLETE_VAR, "aigent", "aigent", written, &mut script)
        .map_err(|err| CliError::general(err.to_string()))?;
    if shell != Shell::Bash {
        return Ok(script);
    }
    let text = String::from_utf8_lossy(&script)
        .replace(&format!("\"{PLACEHOLDER}\""), &single_quoted(&path));
    Ok(text.into_bytes())
}

const PLACEHOLDER: &str = "__AIGENT_COMPLETER__";

/// `text` as one POSIX shell word: in single quotes, each `'` written as
/// `'\''`.
fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// How the script calls aigent back: by name when it was run from PATH, by
/// absolute path when it was run as `./target/release/aigent`.
fn completer_path() -> String {
    let invoked = PathBuf::from(
        std::env::args_os()
            .next()
            .unwrap_or_else(|| OsString::from("aigent")),
    );
    if invoked.components().count() > 1
        && let Ok(absolute) = std::path::absolute(&invoked)
    {
        return absolute.to_string_lossy().into_owned();
    }
    invoked.to_string_lossy().into_owned()
}
