//! `aigent hook trust [DIR]`: let the hook read a project's registry.
//!
//! A project's `commands/` is a policy the project hands its agent, and an
//! agent that can write files could write its own; so the hook reads it only
//! once a person has trusted its exact content (`aigent::registry::layers`).
//! This records that trust, for the content as it is now.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::registry::layers::{Discovery, content_digest, is_trusted, project_registry, trust};
use aigent::registry::{Registry, SETTINGS_FILE};
use aigent::report::{ErrorCode, Outcome, exit};

use crate::cli::spec::{
    CommandSpec, Complete, Mutating, NoEffects, TEXT_AND_JSON, USAGE, code_when, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "hook.trust",
    Mutating,
    &[
        code_when(
            exit::SUCCESS,
            Complete,
            "the registry's content is recorded as trusted (or already was)",
        ),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "the registry cannot be read whole, or the trust record cannot be written",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "no project registry here (a `commands/` holding aigent.toml), or DIR is not one",
        ),
    ],
    TEXT_AND_JSON,
    false,
);

#[derive(Debug, Args)]
#[command(after_help = "\
The hook reads a project's registry (the first `commands/` holding an \
aigent.toml, from the agent's directory up to the repository's root) only \
once a person has trusted its exact content: an agent that can write files \
could otherwise write its own policy. Review the declarations and aigent.toml, \
then trust them; any later change needs trusting again (the hook then asks, \
and says why). `hook install` in a project trusts its registry for you.

The record is $XDG_STATE_HOME/aigent/trusted-registries.json (else \
~/.local/state/aigent/...): the directory and a digest of its files.

Examples:
  aigent hook trust                  # the project registry found from here
  aigent hook trust ./commands
  aigent hook trust --check          # exit 0 when trusted, 1 when not")]
pub struct TrustArgs {
    /// The registry directory [default: the project's, found from the current directory]
    #[arg(value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub dir: Option<PathBuf>,

    /// Only say whether it is trusted (exit 1 when not); record nothing
    #[arg(long)]
    pub check: bool,
}

pub fn run(args: &TrustArgs, _ctx: &Context) -> Result<Outcome, CliError> {
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => {
            let cwd = std::env::current_dir().map_err(|error| {
                CliError::general(format!("cannot read the current directory: {error}"))
            })?;
            project_registry(&cwd).ok_or_else(|| {
                CliError::of(
                    ErrorCode::NotFound,
                    format!(
                        "no project registry from {} up to the repository's root (a `commands/` directory holding {SETTINGS_FILE})",
                        cwd.display()
                    ),
                )
            })?
        }
    };
    if !dir.is_dir() {
        return Err(CliError::of(
            ErrorCode::NotFound,
            format!("{} is not a directory", dir.display()),
        ));
    }
    let discovery = Discovery::for_process(None);
    let Some(trust_file) = discovery.trust_file else {
        return Err(CliError::of(
            ErrorCode::Precondition,
            "no place for the trust record: set XDG_STATE_HOME or HOME",
        ));
    };
    let count = Registry::Directory(dir.clone())
        .entries()
        .map_err(CliError::from)?
        .len();
    let was = is_trusted(&trust_file, &dir);
    if args.check {
        let digest = content_digest(&dir);
        let data = json!({
            "dir": dir.display().to_string(),
            "trusted": was,
            "declarations": count,
            "digest": digest,
            "record": trust_file.display().to_string(),
        });
        let text = if was {
            format!("{} is trusted ({count} declarations)\n", dir.display())
        } else {
            format!(
                "{} is not trusted: the hook does not read it (run `aigent hook trust {}` once you have reviewed it)\n",
                dir.display(),
                dir.display()
            )
        };
        let mut outcome = Outcome::success(data, text);
        if !was {
            outcome.exit_code = exit::GENERAL_ERROR;
        }
        return Ok(outcome);
    }
    let digest = trust(&trust_file, &dir).map_err(|error| {
        CliError::of(
            ErrorCode::Precondition,
            format!("cannot trust {}: {error}", dir.display()),
        )
    })?;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} {} ({count} declarations, digest {})",
        if was { "still trusted:" } else { "trusted:" },
        dir.display(),
        &digest[..12]
    );
    let _ = writeln!(
        text,
        "The hook reads it as the project layer until its content changes."
    );
    let data = json!({
        "dir": dir.display().to_string(),
        "trusted": true,
        "changed": !was,
        "declarations": count,
        "digest": digest,
        "record": trust_file.display().to_string(),
    });
    Ok(Outcome::success(data, text))
}
