//! `aigent completions SHELL`

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;
use clap_complete::Shell;
use clap_complete::env::Shells;

use aigent::report::Outcome;

use super::{CliError, Context};

/// The variable the registration scripts set when they call back into
/// aigent for candidates.
pub const COMPLETE_VAR: &str = "COMPLETE";

#[derive(Debug, Args)]
#[command(
    after_help = "By default the script asks aigent for candidates at each TAB, so the names of \
declared commands and their --param flags come from the active registry. --static prints a \
self-contained script instead (subcommands, flags and paths only).

Examples:
  aigent completions bash > ~/.local/share/bash-completion/completions/aigent
  aigent completions zsh > ~/.zfunc/_aigent
  aigent completions fish > ~/.config/fish/completions/aigent.fish
  aigent completions --static bash > aigent.bash"
)]
pub struct CompletionsArgs {
    /// The shell to generate a script for
    #[arg(value_enum)]
    pub shell: Shell,

    /// A self-contained script that never calls aigent back
    #[arg(long = "static")]
    pub static_script: bool,
}

pub fn run(args: &CompletionsArgs, _ctx: &Context) -> Result<Outcome, CliError> {
    let script = if args.static_script {
        super::generate::static_script(args.shell)
    } else {
        registration_script(args.shell)?
    };
    let script = String::from_utf8(script).map_err(|err| CliError::general(err.to_string()))?;
    Ok(Outcome::verbatim(script))
}

fn registration_script(shell: Shell) -> Result<Vec<u8>, CliError> {
    let name = shell.to_string();
    let shells = Shells::builtins();
    let completer = shells
        .completer(&name)
        .ok_or_else(|| CliError::usage(format!("no dynamic completion for {name}")))?;
    let mut script = Vec::new();
    completer
        .write_registration(
            COMPLETE_VAR,
            "aigent",
            "aigent",
            &completer_path(),
            &mut script,
        )
        .map_err(|err| CliError::general(err.to_string()))?;
    Ok(script)
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
