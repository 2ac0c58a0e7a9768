//! `tools/call`: the same steps as `aigent run` (Phase 1 with its audit
//! record, the argv template, an audit log opened before anything is
//! spawned), with the child's output captured instead of inherited, since
//! the server's stdout is the protocol channel.
//!
//! The child runs without a shell, with stdin closed, in a process group of
//! its own: cancellation and the timeout signal the whole group (SIGTERM,
//! then SIGKILL after a grace period), so nothing it started is orphaned.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::contract::{DangerLevel, Declaration};
use crate::exec::audit::{AuditLog, AuditRecord, OpenAuditLog};
use crate::exec::process::{DEFAULT_GRACE, Ending, Finished};
use crate::exec::{Argv, SpawnError};
use crate::guard::{self, RawArguments};
use crate::registry::{LoadError, Registry};
use crate::report::{ErrorBody, Outcome, exit};

/// Each of stdout and stderr is kept up to this many bytes; the rest is
/// read and dropped, and the result says it was cut.
pub const OUTPUT_LIMIT: usize = 64 * 1024;

/// The code of a destructive call that nobody confirmed.
pub const CONFIRMATION_REQUIRED: &str = "CONFIRMATION_REQUIRED";

/// How the server runs tools: where the registry and the audit log are.
#[derive(Debug, Clone)]
pub struct CallSettings {
    pub registry: Registry,
    pub audit_log: Option<PathBuf>,
    pub timeout: Option<Duration>,
    pub output_limit: usize,
}

/// What a call returns to the agent: `structured` is the envelope on
/// failure and the execution result on success.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    pub is_error: bool,
    pub structured: Value,
    pub text: String,
}

impl ToolOutcome {
    /// aigent's JSON envelope for a failure, as `args check` and `run` print it.
    fn envelope(exit_code: i32, data: Value, body: ErrorBody, warnings: Vec<String>) -> Self {
        let text = summary_text(&body);
        let outcome =
            Outcome::failure(exit_code, data, body, String::new()).with_warnings(warnings);
        let structured = serde_json::to_value(outcome.envelope(0)).unwrap_or(Value::Null);
        Self {
            is_error: true,
            structured,
            text,
        }
    }

    fn failure(exit_code: i32, command: &str, code: &str, message: String) -> Self {
        Self::envelope(
            exit_code,
            json!({"command": command}),
            ErrorBody::new(code, message),
            Vec::new(),
        )
    }
}

/// One short readable line (plus the suggestion) for the text block.
fn summary_text(body: &ErrorBody) -> String {
    let mut text = format!("{}: {}", body.code, body.message);
    for error in &body.errors {
        if let Some(suggestion) = &error.suggestion {
            let field = error.field.as_deref().unwrap_or("arguments");
            text.push_str(&format!("\nsuggestion for `{field}`: {suggestion}"));
        }
    }
    for hint in &body.hints {
        text.push_str(&format!("\nhint: {hint}"));
    }
    text
}

/// A call that passed Phase 1: what to run, and whether it needs a yes.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub command: String,
    pub argv: Argv,
    pub danger_level: Option<DangerLevel>,
    pub warnings: Vec<String>,
}

impl Prepared {
    /// Nothing destructive runs unconfirmed.
    pub fn needs_confirmation(&self) -> bool {
        self.danger_level == Some(DangerLevel::Destructive)
    }
}

/// Loads the declaration, runs Phase 1 on the agent's arguments (a
/// rejection is audited and returned as the envelope) and builds the argv.
pub fn prepare(
    settings: &CallSettings,
    name: &str,
    arguments: Option<&Map<String, Value>>,
) -> Result<Prepared, ToolOutcome> {
    let loaded = settings
        .registry
        .load(name)
        .map_err(|err| load_failure(name, err))?;
    let declaration: &Declaration = &loaded.declaration;
    if declaration.subprocess.is_none() {
        return Err(ToolOutcome::failure(
            exit::PRECONDITION,
            name,
            "PRECONDITION",
            format!("`{name}` declares no subprocess, so there is nothing to run"),
        ));
    }
    let text = serde_json::to_string(&arguments.cloned().unwrap_or_default())
        .unwrap_or_else(|_| "{}".to_owned());
    let validated = match guard::check(declaration, &RawArguments::Json(&text)) {
        Ok(validated) => validated,
        Err(rejection) => {
            let audited = AuditLog::from_env(settings.audit_log.as_deref())
                .and_then(|log| log.append(&AuditRecord::validation_failure(&rejection)));
            let warnings = match audited {
                Ok(()) => Vec::new(),
                Err(err) => vec![format!("the audit record was not written: {err}")],
            };
            return Err(ToolOutcome::envelope(
                exit::ARG_ERROR,
                json!({"command": rejection.command}),
                rejection.to_error_body(),
                warnings,
            ));
        }
    };
    let argv = Argv::build(declaration, &validated).map_err(|err| {
        ToolOutcome::failure(
            exit::PRECONDITION,
            name,
            "ARGV_UNSUPPORTED",
            err.to_string(),
        )
    })?;
    Ok(Prepared {
        command: declaration.name.clone(),
        argv,
        danger_level: declaration.danger_level,
        warnings: loaded
            .warnings
            .iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect(),
    })
}

fn load_failure(name: &str, err: LoadError) -> ToolOutcome {
    let message = err.to_string();
    let (exit_code, code, hint) = match &err {
        LoadError::NotFound { closest, .. } => (
            exit::NOT_FOUND,
            "NOT_FOUND",
            closest
                .as_ref()
                .map(|closest| format!("did you mean `{closest}`?")),
        ),
        LoadError::InvalidName { .. } | LoadError::MissingRegistry { .. } => {
            (exit::NOT_FOUND, "NOT_FOUND", None)
        }
        LoadError::Invalid { .. } => (exit::PRECONDITION, "INVALID_DECLARATION", None),
        LoadError::Duplicate { .. } => (exit::PRECONDITION, "DUPLICATE_COMMAND", None),
        LoadError::Unreadable { .. } | LoadError::RegistryUnreadable { .. } => {
            (exit::PRECONDITION, "PRECONDITION", None)
        }
    };
    let mut body = ErrorBody::new(code, message);
    if let Some(hint) = hint {
        body = body.with_hint(hint);
    }
    ToolOutcome::envelope(exit_code, json!({"command": name}), body, Vec::new())
}

/// A call when the server has no registry.
pub fn no_registry(name: &str) -> ToolOutcome {
    let body = ErrorBody::new(
        "NOT_FOUND",
        format!("no command named `{name}`: the server has no registry"),
    )
    .with_hint("start the server with --commands DIR or AIGENT_COMMANDS");
    ToolOutcome::envelope(exit::NOT_FOUND, json!({"command": name}), body, Vec::new())
}

/// The refusal of a destructive call that was not confirmed; audited.
pub fn refuse_unconfirmed(settings: &CallSettings, prepared: &Prepared, why: &str) -> ToolOutcome {
    let record = AuditRecord::new("COMMAND_CONFIRMATION_REFUSED", prepared.command.clone())
        .with("argv", prepared.argv.redacted())
        .with("reason", why);
    let mut warnings = Vec::new();
    if let Err(err) =
        AuditLog::from_env(settings.audit_log.as_deref()).and_then(|log| log.append(&record))
    {
        warnings.push(format!("the audit record was not written: {err}"));
    }
    let body = ErrorBody::new(
        CONFIRMATION_REQUIRED,
        format!(
            "`{}` is destructive and was not confirmed ({why}); nothing was run",
            prepared.command
        ),
    )
    .with_hint("a client that supports elicitation is asked first; `aigent mcp serve --confirm-destructive` pre-approves for unattended use");
    ToolOutcome::envelope(
        exit::PRECONDITION,
        json!({"command": prepared.command, "argv": prepared.argv.redacted()}),
        body,
        warnings,
    )
}

/// What the caller can do to a running call: cancel it, and hear how long
/// it has been running.
pub struct Controls<C, P> {
    /// Resolves when the request is cancelled.
    pub cancelled: C,
    /// Called about once a second while the child runs, with the seconds so far.
    pub progress: Option<P>,
}

/// Opens the audit log (fail closed), runs the argv and audits the end.
pub async fn execute<C, P>(
    settings: &CallSettings,
    prepared: Prepared,
    request_id: &str,
    controls: Controls<C, P>,
) -> ToolOutcome
where
    C: Future<Output = ()>,
    P: FnMut(u64),
{
    let command = prepared.command.as_str();
    let audit = match AuditLog::from_env(settings.audit_log.as_deref()).and_then(|log| log.open()) {
        Ok(audit) => audit,
        Err(err) => {
            let body = ErrorBody::new("AUDIT_LOG_UNWRITABLE", format!("{err}; nothing was run"))
                .with_hint("fix the path or its permissions, or choose another with AIGENT_AUDIT_LOG or --audit-log");
            return ToolOutcome::envelope(
                exit::PRECONDITION,
                json!({"command": command}),
                body,
                prepared.warnings,
            );
        }
    };
    let mut warnings = prepared.warnings.clone();
    let ran = run_captured(&prepared.argv, settings, controls).await;
    let captured = match ran {
        Ok(captured) => captured,
        Err(spawn_error) => {
            append(
                &audit,
                AuditRecord::spawn_failure(command, &prepared.argv, &spawn_error)
                    .with("mcp_request_id", request_id),
                &mut warnings,
            );
            let (exit_code, body) = crate::exec::report::spawn_error(&spawn_error);
            return ToolOutcome::envelope(
                exit_code,
                json!({"command": command, "argv": prepared.argv.redacted(), "phase": "execution"}),
                body,
                warnings,
            );
        }
    };
    let mut record = AuditRecord::command_executed(command, &prepared.argv, &captured.finished)
        .with("mcp_request_id", request_id);
    if captured.cancelled {
        record = record.with("cancelled", true);
    }
    append(&audit, record, &mut warnings);
    execution_outcome(command, &captured, warnings)
}

fn append(audit: &OpenAuditLog, record: AuditRecord, warnings: &mut Vec<String>) {
    if let Err(err) = audit.append(&record) {
        warnings.push(format!(
            "the command ran, but its audit record was not written: {err}"
        ));
    }
}

fn execution_outcome(command: &str, captured: &Captured, warnings: Vec<String>) -> ToolOutcome {
    let finished = &captured.finished;
    let structured = json!({
        "command": command,
        "exit_code": finished.exit_code(),
        "signal": finished.signal(),
        "timed_out": finished.timed_out,
        "cancelled": captured.cancelled,
        "duration_ms": u64::try_from(finished.duration.as_millis()).unwrap_or(u64::MAX),
        "stdout": String::from_utf8_lossy(&captured.stdout.bytes),
        "stderr": String::from_utf8_lossy(&captured.stderr.bytes),
        "stdout_truncated": captured.stdout.truncated,
        "stderr_truncated": captured.stderr.truncated,
        "warnings": warnings,
    });
    let ended = match finished.ending {
        Ending::Exited(code) => format!("exited with status {code}"),
        Ending::Signaled(signal) => {
            format!("was killed by {}", crate::exec::report::signal_name(signal))
        }
    };
    let why = if captured.cancelled {
        " (cancelled)"
    } else if finished.timed_out {
        " (timed out)"
    } else {
        ""
    };
    let mut text = format!("`{command}` {ended}{why}");
    for (name, stream) in [("stdout", &captured.stdout), ("stderr", &captured.stderr)] {
        if !stream.bytes.is_empty() {
            let cut = if stream.truncated { " (truncated)" } else { "" };
            text.push_str(&format!(
                "\n--- {name}{cut} ---\n{}",
                String::from_utf8_lossy(&stream.bytes)
            ));
        }
    }
    ToolOutcome {
        is_error: finished.ending != Ending::Exited(0) || finished.timed_out || captured.cancelled,
        structured,
        text,
    }
}

/// The first bytes of a stream, and whether more came.
#[derive(Debug, Default)]
struct Stream {
    bytes: Vec<u8>,
    truncated: bool,
}

#[derive(Debug)]
struct Captured {
    finished: Finished,
    stdout: Stream,
    stderr: Stream,
    cancelled: bool,
}

/// Reads a pipe to its end, keeping at most `limit` bytes.
async fn read_bounded(reader: Option<impl AsyncRead + Unpin>, limit: usize) -> Stream {
    let mut stream = Stream::default();
    let Some(mut reader) = reader else {
        return stream;
    };
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        match reader.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => {
                let room = limit.saturating_sub(stream.bytes.len());
                stream.bytes.extend_from_slice(&buffer[..read.min(room)]);
                if read > room {
                    stream.truncated = true;
                }
            }
        }
    }
    stream
}

async fn run_captured<C, P>(
    argv: &Argv,
    settings: &CallSettings,
    controls: Controls<C, P>,
) -> Result<Captured, SpawnError>
where
    C: Future<Output = ()>,
    P: FnMut(u64),
{
    let started = Instant::now();
    let mut child = tokio::process::Command::new(argv.program())
        .args(argv.args())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|err| SpawnError::from_io(argv.program(), err))?;
    let pid = child.id().unwrap_or(0);
    let group = i32::try_from(pid).unwrap_or(0);
    let limit = settings.output_limit;
    let stdout = tokio::spawn(read_bounded(child.stdout.take(), limit));
    let stderr = tokio::spawn(read_bounded(child.stderr.take(), limit));

    let Controls {
        cancelled,
        mut progress,
    } = controls;
    tokio::pin!(cancelled);
    let deadline = settings
        .timeout
        .map(|timeout| tokio::time::Instant::now() + timeout);
    let mut ticks = tokio::time::interval_at(
        tokio::time::Instant::now() + Duration::from_secs(1),
        Duration::from_secs(1),
    );
    let mut was_cancelled = false;
    let mut timed_out = false;
    let status = loop {
        tokio::select! {
            status = child.wait() => break status,
            () = &mut cancelled, if !was_cancelled && !timed_out => {
                was_cancelled = true;
                break stop_group(&mut child, group).await;
            }
            () = sleep_until(deadline), if !was_cancelled && !timed_out => {
                timed_out = true;
                break stop_group(&mut child, group).await;
            }
            _ = ticks.tick() => {
                if let Some(report) = progress.as_mut() {
                    report(started.elapsed().as_secs());
                }
            }
        }
    };
    // Whatever the child left in its group goes with it, before the pipes
    // are drained (a grandchild holding them would otherwise keep them open).
    crate::exec::sys::signal_group(group, libc::SIGKILL);
    let ending = match status {
        Ok(status) => ending_of(status),
        Err(_) => Ending::Signaled(libc::SIGKILL),
    };
    let stdout = stdout.await.unwrap_or_default();
    let stderr = stderr.await.unwrap_or_default();
    Ok(Captured {
        finished: Finished {
            pid,
            ending,
            duration: started.elapsed(),
            timed_out,
            interrupted_by: None,
        },
        stdout,
        stderr,
        cancelled: was_cancelled,
    })
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// SIGTERM (and SIGCONT) to the group, SIGKILL after the grace period if
/// the child has not ended; then the child is reaped.
async fn stop_group(
    child: &mut tokio::process::Child,
    group: i32,
) -> std::io::Result<std::process::ExitStatus> {
    crate::exec::sys::signal_group(group, libc::SIGTERM);
    crate::exec::sys::signal_group(group, libc::SIGCONT);
    match tokio::time::timeout(DEFAULT_GRACE, child.wait()).await {
        Ok(status) => status,
        Err(_) => {
            crate::exec::sys::signal_group(group, libc::SIGKILL);
            child.wait().await
        }
    }
}

fn ending_of(status: std::process::ExitStatus) -> Ending {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exited(code),
        (None, Some(signal)) => Ending::Signaled(signal),
        (None, None) => Ending::Exited(-1),
    }
}
