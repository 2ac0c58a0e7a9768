//! `aigent schema import --from agent-spec|usage FILE|-`

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::json;

use aigent::bridge::import::write::{WriteError, write};
use aigent::bridge::import::{Format, Import, ImportError, MAX_SPEC_BYTES, import};
use aigent::fsutil::{BoundedReadError, ReadError, read_regular_file, read_within};
use aigent::report::{ErrorCode, Outcome, Phase};

use crate::cli::spec::{
    CommandSpec, Complete, Mutating, NoEffects, Partial, TEXT_AND_JSON, code_when, exit, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`). It reads
/// `--commands` as the directory to write into.
pub const SPEC: CommandSpec = leaf(
    "schema.import",
    Mutating,
    &[
        code_when(
            exit::SUCCESS,
            Complete,
            "the declarations are written (or, with --dry-run, reported)",
        ),
        code_when(
            exit::ARG_ERROR,
            NoEffects,
            "bad usage, an invalid spec (INVALID_SPEC), stdin over its cap (STDIN_TOO_LARGE), or no --program for a manifest",
        ),
        code_when(
            exit::TIMEOUT,
            Partial,
            "stdin did not finish within AIGENT_STDIN_TIMEOUT (30 s; nothing written), or AIGENT_TIMEOUT passed",
        ),
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "a target is a symlink or not a regular file (UNSAFE_WRITE)",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "the spec file or the directory does not exist",
        ),
        code_when(
            exit::CONFLICT,
            NoEffects,
            "a declaration of the same name exists (without --force)",
        ),
        code_when(exit::GENERAL_ERROR, NoEffects, "a file cannot be written"),
    ],
    TEXT_AND_JSON,
    true,
);

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FromArg {
    /// A CLI Agent Spec manifest: the JSON `tool --schema` prints (bare, or in its envelope)
    AgentSpec,
    /// A usage spec (KDL v2), as jdx/usage, clap (clap_usage) and cobra emit it
    Usage,
}

impl From<FromArg> for Format {
    fn from(from: FromArg) -> Self {
        match from {
            FromArg::AgentSpec => Format::AgentSpec,
            FromArg::Usage => Format::Usage,
        }
    }
}

#[derive(Debug, Args)]
#[command(
    after_help = "One declaration per command of the spec, named PROGRAM-WORDS (aigent-skill-validate), written as NAME.json: the program and the command's words, then each flag as a `--flag` slot and each positional in order. Types, required, enum values and choices come from the spec; `danger_level` is the spec's, else destructive (a usage spec never says). Nothing is guessed: whatever the spec says that a declaration cannot (env variables, exclusive flags, counted switches, hidden flags, scopes, output schemas) is listed under `unmapped`, and an input `schema lint` refuses is left out and listed. Command groups (commands with subcommands, or `subcommand_required`) get no declaration of their own.\n\nThe declarations go into --out-dir DIR, else the registry named by --commands (created if missing); with --dry-run nothing is written. An existing declaration of the same name is never replaced without --force, a symlink never written through, and a malformed spec is reported with its line and column, with nothing written.\n\nExamples:\n  # declarations from a CLI Agent Spec manifest\n  aigent --schema > aigent.json && aigent schema import --from agent-spec --program aigent --out-dir ./commands aigent.json\n  usage generate spec ... | aigent schema import --from usage --dry-run -\n  # declarations from a usage spec\n  aigent --commands ./commands schema import --from usage fd.usage.kdl"
)]
pub struct ImportArgs {
    /// The spec's format
    #[arg(long, value_enum)]
    pub from: FromArg,
    /// The spec file, or - for stdin (at most 64 KiB unless AIGENT_MAX_STDIN_BYTES or TOOL_MAX_STDIN_BYTES says otherwise, within 30 s unless AIGENT_STDIN_TIMEOUT does; a file may be 4 MiB)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The program the declarations run (the spec's `bin` for usage; required for agent-spec, whose manifest does not name it)
    #[arg(long, value_name = "NAME")]
    pub program: Option<String>,
    /// The directory to write into [default: the --commands registry]
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Replace existing NAME.json declarations of the same names
    #[arg(long)]
    pub force: bool,
    /// Write nothing; report what would be written
    #[arg(long)]
    pub dry_run: bool,
}

/// The most read from stdin unless the environment says otherwise (CLI
/// Agent Spec REQ-F-054): a larger payload through a pipe risks a deadlock
/// between writer and reader, and a file has no such limit.
pub const DEFAULT_MAX_STDIN_BYTES: usize = 64 * 1024;

/// The variables that raise (or lower) the stdin cap, the first one set to
/// a number winning: aigent's own, then the spec's name for it.
pub const MAX_STDIN_VARIABLES: [&str; 2] = ["AIGENT_MAX_STDIN_BYTES", "TOOL_MAX_STDIN_BYTES"];

/// The stdin cap: the first of [`MAX_STDIN_VARIABLES`] set to a number,
/// else the default; never more than the import reads from a file.
fn max_stdin_bytes(lookup: impl Fn(&str) -> Option<String>) -> usize {
    MAX_STDIN_VARIABLES
        .iter()
        .find_map(|name| lookup(name).and_then(|text| text.trim().parse::<usize>().ok()))
        .unwrap_or(DEFAULT_MAX_STDIN_BYTES)
        .min(MAX_SPEC_BYTES)
}

/// How long `schema import -` waits for its spec on stdin unless
/// [`STDIN_TIMEOUT_VARIABLE`] says otherwise (CLI Agent Spec REQ-F-011): a
/// writer that keeps the pipe open and never finishes would otherwise
/// hold the call until the caller's own limit, with no answer at all.
pub const DEFAULT_STDIN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Seconds to wait for stdin; 0 waits for as long as it takes.
pub const STDIN_TIMEOUT_VARIABLE: &str = "AIGENT_STDIN_TIMEOUT";

/// The stdin deadline: [`STDIN_TIMEOUT_VARIABLE`] in whole seconds (0: none),
/// else the default. A value that is not a number is refused, not
/// ignored: a caller who set a limit must not silently get another.
fn stdin_timeout(
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Option<std::time::Duration>, CliError> {
    let Some(text) = lookup(STDIN_TIMEOUT_VARIABLE) else {
        return Ok(Some(DEFAULT_STDIN_TIMEOUT));
    };
    match text.trim().parse::<u64>() {
        Ok(0) => Ok(None),
        Ok(seconds) => Ok(Some(std::time::Duration::from_secs(seconds))),
        Err(_) => Err(CliError::usage(format!(
            "{STDIN_TIMEOUT_VARIABLE} must be a whole number of seconds (0 for no deadline)"
        ))),
    }
}

fn read_input(path: &Path) -> Result<String, CliError> {
    let limit = MAX_SPEC_BYTES as u64;
    let bytes = if path.as_os_str() == "-" {
        let cap = max_stdin_bytes(|name| std::env::var(name).ok());
        let deadline = stdin_timeout(|name| std::env::var(name).ok())?;
        read_within(std::io::stdin(), cap, deadline).map_err(|err| match err {
            BoundedReadError::TooLarge => CliError::of(
                ErrorCode::StdinTooLarge,
                format!("stdin: the spec is over the {cap}-byte stdin cap"),
            )
            .with_hint(format!(
                "write the spec to a file and pass its path instead of - (up to {MAX_SPEC_BYTES} bytes), or raise AIGENT_MAX_STDIN_BYTES"
            )),
            BoundedReadError::TimedOut => stdin_timed_out(deadline.unwrap_or_default()),
            BoundedReadError::Io(err) => CliError::general(format!("cannot read stdin: {err}")),
        })?
    } else {
        read_regular_file(path, limit).map_err(|err| match err {
            ReadError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                CliError::not_found(format!("{} does not exist", path.display()))
            }
            other => CliError::of(
                ErrorCode::ArgError,
                format!("cannot read {}: {other}", path.display()),
            ),
        })?
    };
    String::from_utf8(bytes).map_err(|err| {
        CliError::of(
            ErrorCode::ArgError,
            format!(
                "{}: not UTF-8 (byte {})",
                path.display(),
                err.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The stdin deadline passed: nothing was imported or written, so the
/// same call with a writer that finishes in time can succeed (retryable).
fn stdin_timed_out(deadline: std::time::Duration) -> CliError {
    let seconds = deadline.as_secs();
    let mut err = CliError::of(
        ErrorCode::Timeout,
        format!(
            "stdin: the spec did not arrive within {seconds} s (the writer kept stdin open); nothing was imported"
        ),
    )
    .with_hint(format!(
        "write the spec to a file and pass its path instead of -, or give the writer longer with {STDIN_TIMEOUT_VARIABLE}=SECONDS (0: no deadline)"
    ));
    err.body.retryable = true;
    err.body.phase = Some(Phase::Validation);
    err.body.suggestion = Some(format!(
        "pass the spec as a file path instead of -, or set {STDIN_TIMEOUT_VARIABLE}"
    ));
    err.body.extra.insert(
        "timeout_ms".to_owned(),
        u64::try_from(deadline.as_millis())
            .unwrap_or(u64::MAX)
            .into(),
    );
    err
}

pub fn run(args: &ImportArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let directory = match (&args.out_dir, &ctx.commands_dir) {
        (Some(directory), _) | (None, Some(directory)) => Some(directory.clone()),
        (None, None) if args.dry_run => None,
        (None, None) => {
            return Err(CliError::usage(
                "name the directory to write into: --out-dir DIR, or --commands DIR (or --dry-run)",
            ));
        }
    };
    let text = read_input(&args.file)?;
    let imported = import(args.from.into(), &text, args.program.as_deref()).map_err(|err| {
        let code = match err {
            ImportError::NoProgram | ImportError::BadProgram(..) => ErrorCode::ArgError,
            _ => ErrorCode::InvalidSpec,
        };
        CliError::of(
            code,
            format!("{}: {err}; nothing written", args.file.display()),
        )
    })?;
    let written = match (&directory, args.dry_run) {
        (Some(directory), false) => Some(
            write(directory, &imported.declarations, args.force).map_err(|err| {
                let code = match err {
                    WriteError::Exists { .. } | WriteError::OtherFormat { .. } => {
                        ErrorCode::Conflict
                    }
                    WriteError::Unsafe { .. } => ErrorCode::UnsafeWrite,
                    WriteError::NotADirectory(_) => ErrorCode::NotFound,
                    WriteError::Io { ref source, .. }
                        if source.kind() == std::io::ErrorKind::NotFound =>
                    {
                        ErrorCode::NotFound
                    }
                    WriteError::Io { .. } => ErrorCode::GeneralError,
                };
                CliError::of(code, format!("{err}; nothing written"))
            })?,
        ),
        _ => None,
    };
    let text = render(&imported, written.is_some(), directory.as_ref());
    let mut data =
        serde_json::to_value(&imported).map_err(|err| CliError::general(err.to_string()))?;
    data["written"] = json!(written);
    data["dry_run"] = json!(args.dry_run);
    if let Some(directory) = &directory {
        data["directory"] = json!(directory.display().to_string());
    }
    let warnings: Vec<String> = imported
        .declarations
        .iter()
        .flat_map(|declaration| {
            declaration.lint.iter().map(move |diagnostic| {
                format!(
                    "{}: {} {}",
                    declaration.name, diagnostic.code, diagnostic.message
                )
            })
        })
        .collect();
    use crate::cli::spec::{Effect, with_effect};
    let any = !imported.declarations.is_empty();
    let effect = match (any, args.dry_run, args.force) {
        (false, _, _) => Effect::Noop,
        (true, true, _) => Effect::WouldCreate,
        // --force may have replaced declarations that existed.
        (true, false, true) => Effect::Updated,
        (true, false, false) => Effect::Created,
    };
    Ok(with_effect(
        Outcome::success(data, text).with_warnings(warnings),
        effect,
    ))
}

fn render(imported: &Import, written: bool, directory: Option<&PathBuf>) -> String {
    let clean = |text: &str| text.replace(char::is_control, " ");
    let mut text = String::new();
    for declaration in &imported.declarations {
        let _ = writeln!(
            text,
            "{} {}  ({})",
            if written { "wrote" } else { "would write" },
            declaration.file_name,
            clean(&declaration.command)
        );
        for note in &declaration.unmapped {
            let _ = writeln!(text, "  unmapped: {}", clean(note));
        }
    }
    for skipped in &imported.skipped {
        let _ = writeln!(
            text,
            "skipped {}: {}",
            clean(&skipped.command),
            clean(&skipped.reason)
        );
    }
    for note in &imported.unmapped {
        let _ = writeln!(text, "unmapped: {}", clean(note));
    }
    let unmapped: usize = imported
        .declarations
        .iter()
        .map(|declaration| declaration.unmapped.len())
        .sum::<usize>()
        + imported.unmapped.len();
    let _ = writeln!(
        text,
        "{} declaration{} from the {} of `{}`{}, {} command{} skipped, {unmapped} thing{} not mapped",
        imported.declarations.len(),
        if imported.declarations.len() == 1 {
            ""
        } else {
            "s"
        },
        imported.format.label(),
        clean(&imported.program),
        match (written, directory) {
            (true, Some(directory)) => format!(" written to {}", directory.display()),
            _ => " (nothing written)".to_owned(),
        },
        imported.skipped.len(),
        if imported.skipped.len() == 1 { "" } else { "s" },
        if unmapped == 1 { "" } else { "s" },
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stdin_cap_is_64_kib_unless_set_and_never_over_the_file_limit() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| (*value).to_owned())
            }
        };
        assert_eq!(max_stdin_bytes(env(&[])), 65_536);
        assert_eq!(
            max_stdin_bytes(env(&[("TOOL_MAX_STDIN_BYTES", "1000")])),
            1000
        );
        assert_eq!(
            max_stdin_bytes(env(&[
                ("AIGENT_MAX_STDIN_BYTES", "2000"),
                ("TOOL_MAX_STDIN_BYTES", "1000")
            ])),
            2000
        );
        assert_eq!(
            max_stdin_bytes(env(&[("AIGENT_MAX_STDIN_BYTES", "lots")])),
            65_536
        );
        assert_eq!(
            max_stdin_bytes(env(&[("AIGENT_MAX_STDIN_BYTES", "999999999")])),
            MAX_SPEC_BYTES
        );
    }
}
