//! The invocation protocol (DESIGN.md §6), owned here for every caller: the
//! CLI's `args check` and `run`, the MCP server's `tools/call`, and any
//! library caller.
//!
//! Phase 1 → audit record of a rejection → argv and environment → the
//! danger level's confirmation → the sandbox resolved (with `require`,
//! nothing runs unless the kernel enforces all of it) → audit log opened
//! and `COMMAND_STARTED` durably written → spawn, the child entering the
//! sandbox before exec → `COMMAND_EXECUTED` (or the spawn failure). Every
//! record carries the sandbox.
//!
//! This is the only public way to spawn a declared command: the raw spawn
//! in `exec::process` is crate-private. Results are data ([`Invoked`]);
//! `Err` ([`InvokeError`]) is kept for what stopped the protocol before
//! anything ran.

use std::path::Path;
use std::time::Duration;

use crate::contract::Declaration;
use crate::contract::sandbox::{EffectiveSandbox, SandboxMode};
use crate::exec::audit::kept::KeptLog;
use crate::exec::audit::{AuditError, AuditLog, AuditRecord, OpenAuditLog};
use crate::exec::process::{Cancel, Output, Progress};
use crate::exec::report::ChildExit;
use crate::exec::sandbox::{self, SandboxReport, Unavailable};
use crate::exec::{self, Argv, ArgvError, Finished, RunOptions, SpawnError};
use crate::guard::{self, RawArguments, Rejection, Rule, ValidatedArguments, Violation};
use crate::report::{ErrorBody, ErrorCode};
use crate::request::{RequestIds, TRACE_VARIABLE};

/// The time limit when neither the caller nor the declaration gives one.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// How far the protocol goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Phase 1 only (`args check`).
    Check,
    /// Phase 1 and the argv; nothing is spawned and nothing is audited
    /// beyond a rejection (`run --dry-run`). Needs no confirmation.
    DryRun,
    /// The whole protocol (`run`).
    Run,
}

/// What a caller may choose. Every caller gets the same policy; these are
/// the caller's part of it.
#[derive(Clone)]
pub struct InvokeOptions<'a> {
    pub mode: Mode,
    /// The audit log; `None` means `AIGENT_AUDIT_LOG`, else the default.
    pub audit_log: Option<&'a Path>,
    /// The audit log kept open by a server, written instead of opening
    /// `audit_log` for this run.
    pub kept_log: Option<&'a KeptLog>,
    /// Overrides the declaration's `timeout_s` and [`DEFAULT_TIMEOUT`].
    pub timeout: Option<Duration>,
    /// The caller confirmed a destructive command.
    pub confirmed: bool,
    /// The ids of this request; `None` is the process's.
    pub request: Option<RequestIds>,
    pub output: Output,
    pub cancel: Option<Cancel>,
    pub progress: Option<Progress>,
    /// Hears the child's stderr as it comes ([`crate::exec::process::RunOptions::stderr_tap`]).
    pub stderr_tap: Option<crate::exec::process::StderrTap>,
    /// How strictly the sandbox is enforced (`--sandbox`, else the
    /// registry's `[sandbox] mode`, else best-effort).
    pub sandbox: SandboxMode,
    /// [`Mode::Check`] only (`args check --no-audit`): `false` writes no
    /// audit record of a rejection. Nothing runs in that mode, so nothing
    /// needs one; every other mode records every rejection regardless.
    pub audit_check: bool,
    /// `false`: the outcome record (`COMMAND_EXECUTED`, after the child
    /// ended) is written but not flushed to the disk before `invoke`
    /// returns; the caller flushes it ([`crate::exec::audit::OpenAuditLog::sync`])
    /// once its reply is on its way. `COMMAND_STARTED` is always flushed
    /// before anything is spawned. The MCP server's choice; see
    /// docs/audit.md.
    pub outcome_durable: bool,
}

impl Default for InvokeOptions<'_> {
    fn default() -> Self {
        Self {
            mode: Mode::Run,
            audit_log: None,
            kept_log: None,
            timeout: None,
            confirmed: false,
            request: None,
            output: Output::Inherit,
            cancel: None,
            progress: None,
            stderr_tap: None,
            sandbox: SandboxMode::default(),
            audit_check: true,
            outcome_durable: true,
        }
    }
}

impl InvokeOptions<'_> {
    fn request(&self) -> RequestIds {
        self.request
            .clone()
            .unwrap_or_else(|| RequestIds::current().clone())
    }

    /// The limit this run gets: the caller's, the declaration's, or the
    /// default.
    pub fn effective_timeout(&self, declaration: &Declaration) -> Duration {
        self.timeout
            .or(declaration.timeout)
            .unwrap_or(DEFAULT_TIMEOUT)
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
        timeout: Duration,
        /// The sandbox a run would get: declared, with what this kernel
        /// would enforce (nothing resolved yet).
        sandbox: serde_json::Value,
    },
    /// The command is destructive and the caller did not confirm it:
    /// nothing ran. `argv` is what would have run.
    ConfirmationRequired {
        argv: Argv,
        audit_warning: Option<String>,
    },
    /// The command ran to its end (its exit status, a signal, the timeout
    /// or a cancellation are in `finished`; how the declaration reads the
    /// status, and so aigent's own exit status, in `child_exit`).
    Finished {
        argv: Argv,
        finished: Finished,
        child_exit: ChildExit,
        timeout: Duration,
        audit_warning: Option<String>,
        /// The sandbox it ran in; its warnings say what a best-effort run
        /// could not enforce.
        sandbox: SandboxReport,
    },
    /// The program could not be started.
    SpawnFailed {
        argv: Argv,
        error: SpawnError,
        audit_warning: Option<String>,
        sandbox: SandboxReport,
    },
}

/// What stopped the protocol before anything ran.
#[derive(Debug, thiserror::Error)]
pub enum InvokeError {
    #[error("`{command}` declares no subprocess, so there is nothing to run")]
    NoSubprocess { command: String },
    #[error(transparent)]
    Argv(#[from] ArgvError),
    /// Fail closed: nothing runs unless its record is written first.
    #[error("{0}; nothing was run")]
    AuditUnwritable(AuditError),
    /// `--sandbox require`, and the kernel cannot enforce all of the
    /// command's sandbox.
    #[error("{unavailable}; nothing was run{}", audit_note(audit_warning.as_deref()))]
    SandboxUnavailable {
        unavailable: Box<Unavailable>,
        audit_warning: Option<String>,
    },
}

fn audit_note(warning: Option<&str>) -> String {
    warning.map(|why| format!(" ({why})")).unwrap_or_default()
}

impl InvokeError {
    /// The error every caller reports, with its code and a hint naming the
    /// command `name`.
    pub fn error_body(&self, name: &str) -> ErrorBody {
        let (code, hint) = match self {
            Self::NoSubprocess { .. } => (
                ErrorCode::Precondition,
                Some(format!("`aigent args check {name} ...` validates its arguments")),
            ),
            Self::Argv(_) => (ErrorCode::ArgvUnsupported, None),
            Self::AuditUnwritable(_) => (
                ErrorCode::AuditLogUnwritable,
                Some("fix the path or its permissions, or choose another with --audit-log or AIGENT_AUDIT_LOG".to_owned()),
            ),
            Self::SandboxUnavailable { .. } => (
                ErrorCode::SandboxUnavailable,
                Some("run it on a kernel that has what it needs (docs/security.md lists the versions), or choose --sandbox best-effort to run with what this kernel enforces".to_owned()),
            ),
        };
        let body = ErrorBody::new(code, self.to_string());
        match hint {
            Some(hint) => body.with_hint(hint),
            None => body,
        }
    }
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
    let request = options.request();
    let effective = EffectiveSandbox::of(declaration);
    let outline = || sandbox::outline(&effective, options.sandbox);
    let checked = guard::check(declaration, arguments)
        .and_then(|validated| confine_paths(declaration, &validated).map(|()| validated));
    let validated = match checked {
        Ok(validated) => validated,
        Err(rejection) if options.mode == Mode::Check && !options.audit_check => {
            return Ok(Invoked::Rejected {
                rejection: Box::new(rejection),
                audit_warning: None,
            });
        }
        Err(rejection) => {
            let record = AuditRecord::validation_failure(&rejection)
                .with("sandbox", outline())
                .with_request(&request);
            let audit_warning = record_now(options, &record)
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
    let mut argv = Argv::build(declaration, &validated)?;
    argv.set_env(TRACE_VARIABLE, request.child_trace_id());
    let timeout = options.effective_timeout(declaration);
    if options.mode == Mode::DryRun {
        return Ok(Invoked::Planned {
            validated,
            argv,
            timeout,
            sandbox: outline(),
        });
    }
    let name = &declaration.name;
    if declaration.requires_confirmation() && !options.confirmed {
        let record = AuditRecord::confirmation_refused(name, &argv)
            .with("sandbox", outline())
            .with_request(&request);
        let audit_warning = record_now(options, &record)
            .err()
            .map(|err| format!("the audit record was not written: {err}"));
        return Ok(Invoked::ConfirmationRequired {
            argv,
            audit_warning,
        });
    }
    let prepared = match sandbox::prepare(
        &effective,
        declaration,
        &validated,
        &mut argv,
        options.sandbox,
    ) {
        Ok(prepared) => prepared,
        Err(unavailable) => {
            let record = AuditRecord::sandbox_unavailable(name, &argv)
                .with("sandbox", unavailable.report.to_json())
                .with_request(&request);
            let audit_warning = record_now(options, &record)
                .err()
                .map(|err| format!("the audit record was not written: {err}"));
            return Err(InvokeError::SandboxUnavailable {
                unavailable: Box::new(unavailable),
                audit_warning,
            });
        }
    };
    let sandbox_json = prepared.report.to_json();
    // Opened, and so proven writable, and the start recorded before anything
    // is spawned; the outcome's record goes through this same descriptor.
    let audit = RunLog::open(options)?;
    let started = AuditRecord::command_started(name, &argv)
        .with("timeout_ms", millis(timeout))
        .with(
            "danger_level",
            declaration.danger_level.map(|level| level.as_str()),
        )
        .with("sandbox", sandbox_json.clone())
        .with_request(&request);
    let mut prepared = prepared;
    prepared.make_next_ready();
    audit
        .append(&started, true)
        .map_err(InvokeError::AuditUnwritable)?;
    let run_options = RunOptions {
        timeout: Some(timeout),
        output: options.output,
        cancel: options.cancel.clone(),
        progress: options.progress.clone(),
        interactive: prepared.interactive,
        stderr_tap: options.stderr_tap.clone(),
        ..RunOptions::default()
    };
    let mut report = prepared.report.clone();
    let spawned = exec::process::run_sandboxed(&argv, &run_options, prepared.enforcer.take());
    // The private temporary directory goes once the child has ended.
    drop(prepared);
    Ok(match spawned {
        Ok(finished) => {
            // What a best-effort child could not enter after all.
            let mut sandbox_json = sandbox_json;
            for lapse in &finished.sandbox_lapses {
                report.lapsed(sandbox::METADATA, lapse.clone());
                sandbox_json = report.to_json();
            }
            let mut record =
                AuditRecord::command_executed(name, &argv, &finished).with("sandbox", sandbox_json);
            if finished.cancelled {
                record = record.with("cancelled", true);
                if let Some(reason) = options.cancel.as_ref().and_then(Cancel::reason) {
                    record = record.with("cancel_reason", reason);
                }
            }
            let record = record.with_request(&request);
            let appended = audit.append(&record, options.outcome_durable);
            let audit_warning = appended
                .err()
                .map(|err| format!("the command ran, but its audit record was not written: {err}"));
            Invoked::Finished {
                argv,
                child_exit: ChildExit::read(declaration, &finished),
                finished,
                timeout,
                audit_warning,
                sandbox: report,
            }
        }
        Err(error) => {
            let record = AuditRecord::spawn_failure(name, &argv, &error)
                .with("sandbox", sandbox_json)
                .with_request(&request);
            let audit_warning = audit
                .append(&record, true)
                .err()
                .map(|err| format!("the audit record was not written: {err}"));
            Invoked::SpawnFailed {
                argv,
                error,
                audit_warning,
                sandbox: report,
            }
        }
    })
}

/// Phase 1's look at the file system: where each confined path points
/// (`under`, `must_exist`), from the directory the program will run in,
/// which is aigent's own. A directory that cannot be read refuses them
/// all (fail closed).
fn confine_paths(
    declaration: &Declaration,
    validated: &ValidatedArguments,
) -> Result<(), Rejection> {
    let confined = declaration.input_names().into_iter().find(|name| {
        declaration
            .confinement(name)
            .is_some_and(|confinement| confinement.needs_file_system())
    });
    let Some(first) = confined else {
        return Ok(());
    };
    match std::env::current_dir() {
        Ok(cwd) => guard::confine(declaration, validated, &cwd),
        Err(err) => Err(Rejection::bounded(
            declaration.name.clone(),
            vec![Violation::new(
                first,
                Rule::OutsideRoot,
                None,
                "a path inside the allowed directories",
                format!(
                    "the working directory cannot be read ({err}), so no confined path can be checked"
                ),
            )],
        )),
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Appends one record now, durably: to the log the caller keeps open, else
/// to the log opened for it.
fn record_now(options: &InvokeOptions<'_>, record: &AuditRecord) -> Result<(), AuditError> {
    match options.kept_log {
        Some(kept) => kept.append(record),
        None => AuditLog::from_env(options.audit_log).and_then(|log| log.append(record)),
    }
}

/// The log a run writes its start and outcome to: opened for the run, or
/// the one the caller keeps (which is opened again after a failed write).
struct RunLog<'a> {
    log: std::sync::Arc<OpenAuditLog>,
    kept: Option<&'a KeptLog>,
}

impl<'a> RunLog<'a> {
    fn open(options: &InvokeOptions<'a>) -> Result<Self, InvokeError> {
        let log = match options.kept_log {
            Some(kept) => kept.open(),
            None => AuditLog::from_env(options.audit_log)
                .and_then(|log| log.open())
                .map(std::sync::Arc::new),
        };
        Ok(Self {
            log: log.map_err(InvokeError::AuditUnwritable)?,
            kept: options.kept_log,
        })
    }

    /// `durable`: flushed to stable storage before this returns.
    fn append(&self, record: &AuditRecord, durable: bool) -> Result<(), AuditError> {
        let appended = if durable {
            self.log.append(record)
        } else {
            self.log.append_buffered(record)
        };
        if appended.is_err()
            && let Some(kept) = self.kept
        {
            kept.forget(&self.log);
        }
        appended
    }
}
