//! `aigent audit ...`: reading and checking the audit log.

pub mod export;
pub mod key;
pub mod show;
pub mod verify;

use std::path::{Path, PathBuf};

use clap::Subcommand;

use aigent::exec::audit::{AuditError, AuditLog};
use aigent::report::Outcome;

use crate::cli::spec::CommandSpec;
use crate::cli::{CliError, Context};

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Print audit records, oldest first, filtered by command, event, time or request
    Show(show::ShowArgs),
    /// Check the hash chain of the audit log and its rotated files
    Verify(verify::VerifyArgs),
    /// Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped
    Export(export::ExportArgs),
    /// Signing keys for checkpoints in the audit log
    #[command(subcommand)]
    Key(key::KeyCommand),
}

impl AuditCommand {
    pub fn spec(&self) -> &'static CommandSpec {
        match self {
            AuditCommand::Show(_) => &show::SPEC,
            AuditCommand::Verify(_) => &verify::SPEC,
            AuditCommand::Export(_) => &export::SPEC,
            AuditCommand::Key(key::KeyCommand::New(_)) => &key::SPEC,
        }
    }
}

pub const SPECS: &[&CommandSpec] = &[&show::SPEC, &verify::SPEC, &key::SPEC, &export::SPEC];

pub fn run(command: &AuditCommand, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        AuditCommand::Show(args) => show::run(args, ctx),
        AuditCommand::Verify(args) => verify::run(args, ctx),
        AuditCommand::Key(command) => key::run(command, ctx),
        AuditCommand::Export(args) => export::run(args, ctx),
    }
}

/// The help line of `--audit-log` on these commands.
pub const AUDIT_LOG_HELP: &str =
    "The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]";

/// The log that `--audit-log` or the environment names.
pub(crate) fn locate(explicit: Option<&PathBuf>) -> Result<AuditLog, CliError> {
    AuditLog::from_env(explicit.map(PathBuf::as_path)).map_err(|err| read_error(&err, None))
}

/// A log that cannot be read: missing is NOT_FOUND, anything else a
/// precondition.
pub(crate) fn read_error(err: &AuditError, path: Option<&Path>) -> CliError {
    if err.is_not_found() {
        let shown = path.map_or_else(String::new, |path| format!(" at {}", path.display()));
        let mut err = CliError::not_found(format!("no audit log{shown}"))
            .with_hint("records appear once a command wrote one: `aigent run`, `aigent args check`, the hook (`aigent hook --client ...`) or the MCP server (`aigent mcp serve`); --audit-log or AIGENT_AUDIT_LOG names another log");
        err.body.fix_required = Some(
            "name a log that exists (--audit-log or AIGENT_AUDIT_LOG), or let a command write the first record".to_owned(),
        );
        return err;
    }
    CliError::precondition(err.to_string())
}
