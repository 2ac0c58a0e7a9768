//! The invocation protocol (DESIGN.md §6), owned here for every caller (the
//! CLI's `args check` and `run`, and any library caller such as an MCP
//! server): Phase 1 → audit record of a rejection → argv → audit log opened
//! and proven writable → spawn → audit record of the outcome.
//!
//! This is the only public way to spawn a declared command: the raw spawn in
//! `exec::process` is crate-private. Results are data ([`Invoked`]); `Err`
//! ([`InvokeError`]) is kept for what stopped the protocol before anything
//! ran.

use std::path::Path;
use std::time::Duration;

use crate::contract::Declaration;
use crate::exec::audit::{AuditError, AuditLog, AuditRecord, OpenAuditLog};
use crate::exec::{self, Argv, ArgvError, Finished, RunOptions, SpawnError};
use crate::guard::{self, RawArguments, Rejection, ValidatedArguments};

/// How far the protocol goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Phase 1 only (`args check`).
    Check,
    /// Phase 1 and the argv; nothing is spawned and nothing is audited
    /// beyond a rejection (`run --dry-run`).
    DryRun,
    /// The whole protocol (`run`).
    Run,
}

/// What a caller may choose. New policy (confirmation, declared timeouts
/// and environment, request ids) belongs here, so callers keep one shape.
#[derive(Debug, Clone, Copy)]
pub struct InvokeOptions<'a> {
    pub mode: Mode,
    /// The audit log; `None` means `AIGENT_AUDIT_LOG`, else the default.
    pub audit_log: Option<&'a Path>,
    /// Kill the child's whole process group after this long.
    pub timeout: Option<Duration>,
}

impl Default for InvokeOptions<'_> {
    fn default() -> Self {
        Self {
            mode: Mode::Run,
            audit_log: None,
            timeout: None,
        }
    }
}

/// How an invocation ended, once it got past the preconditions.
#[derive(Debug)]
pub enum Invoked {
    /// Phase 1 refused the arguments. A record was appended to the audit
    /// log unless `audit_warning` says why not (a rejection still stands).
    Rejected {
        rejection: Box<Rejection>,
        audit_warning: Option<String>,
    },
    /// Phase 1 passed ([`Mode::Check`]).
    Accepted(ValidatedArguments),
    /// Phase 1 passed and this argv would run ([`Mode::DryRun`]).
    Planned {
        validated: ValidatedArguments,
        argv: Argv,
    },
    /// The command ran to its end (its exit status, a signal or the
    /// timeout are in `finished`).
    Finished {
        argv: Argv,
        finished: Finished,
        audit_warning: Option<String>,
    },
    /// The program could not be started.
    SpawnFailed {
        argv: Argv,
        error: SpawnError,
        audit_warning: Option<String>,
    },
}

/// What stopped the protocol before anything ran.
#[derive(Debug, thiserror::Error)]
pub enum InvokeError {
    #[error("`{command}` declares no subprocess, so there is nothing to run")]
    NoSubprocess { command: String },
    #[error(transparent)]
    Argv(#[from] ArgvError),
    /// Fail closed: nothing runs unless its record can be written.
    #[error("{0}; nothing was run")]
    AuditUnwritable(AuditError),
}

/// Runs the protocol for `declaration` with the agent's `arguments`.
pub fn invoke(
    declaration: &Declaration,
    arguments: &RawArguments,
    options: &InvokeOptions<'_>,
) -> Result<Invoked, InvokeError> {
    if options.mode != Mode::Check && declaration.subprocess.is_none() {
        return Err(InvokeError::NoSubprocess {
            command: declaration.name.clone(),
        });
    }
    let validated = match guard::check(declaration, arguments) {
        Ok(validated) => validated,
        Err(rejection) => {
            let audit_warning = AuditLog::from_env(options.audit_log)
                .and_then(|log| log.append(&AuditRecord::validation_failure(&rejection)))
                .err()
                .map(|err| format!("the audit record was not written: {err}"));
            return Ok(Invoked::Rejected {
                rejection: Box::new(rejection),
                audit_warning,
            });
        }
    };
    if options.mode == Mode::Check {
        return Ok(Invoked::Accepted(validated));
    }
    let argv = Argv::build(declaration, &validated)?;
    if options.mode == Mode::DryRun {
        return Ok(Invoked::Planned { validated, argv });
    }
    // Opened, and so proven writable, before anything is spawned; the
    // outcome's record goes through this same descriptor.
    let audit = open_audit_log(options.audit_log)?;
    let run_options = RunOptions {
        timeout: options.timeout,
        ..RunOptions::default()
    };
    let name = &declaration.name;
    Ok(match exec::process::run(&argv, &run_options) {
        Ok(finished) => {
            let audit_warning = audit
                .append(&AuditRecord::command_executed(name, &argv, &finished))
                .err()
                .map(|err| format!("the command ran, but its audit record was not written: {err}"));
            Invoked::Finished {
                argv,
                finished,
                audit_warning,
            }
        }
        Err(error) => {
            let audit_warning = audit
                .append(&AuditRecord::spawn_failure(name, &argv, &error))
                .err()
                .map(|err| format!("the audit record was not written: {err}"));
            Invoked::SpawnFailed {
                argv,
                error,
                audit_warning,
            }
        }
    })
}

fn open_audit_log(explicit: Option<&Path>) -> Result<OpenAuditLog, InvokeError> {
    AuditLog::from_env(explicit)
        .and_then(|log| log.open())
        .map_err(InvokeError::AuditUnwritable)
}
