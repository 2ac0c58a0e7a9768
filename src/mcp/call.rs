//! `tools/call`: the same steps as `aigent run` (Phase 1 with its audit
//! record, the argv template, an audit log opened before anything is
//! spawned), with the child's output captured instead of inherited, since
//! the server's stdout is the protocol channel.
//!
//! The child runs without a shell, with stdin closed, in a process group of
//! its own: cancellation and the timeout signal the whole group (SIGTERM,
//! then SIGKILL after a grace period), so nothing it started is orphaned.

use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::contract::Declaration;
use crate::contract::sandbox::SandboxMode;
use crate::exec::audit::kept::{FLUSH_WINDOW, KeptLog};
use crate::exec::process::{Cancel, Ending, Output};
use crate::exec::report::ChildExit;
use crate::exec::{Argv, Finished};
use crate::guard::{FIX_ARGUMENTS, RawArguments};
use crate::invoke::{InvokeError, InvokeOptions, Invoked, Mode, invoke};
use crate::outcome;
use crate::registry::{LoadError, Registry};
use crate::report::{ErrorBody, ErrorCode, Outcome, Phase, exit};
use crate::request::RequestIds;

/// Each of stdout and stderr is kept up to this many bytes; the rest is
/// read and dropped, and the result says it was cut.
pub const OUTPUT_LIMIT: usize = 64 * 1024;

/// How the server runs tools: where the registry and the audit log are.
#[derive(Debug, Clone)]
pub struct CallSettings {
    pub registry: Registry,
    /// The audit log, kept open across calls.
    pub audit: std::sync::Arc<KeptLog>,
    pub timeout: Option<Duration>,
    pub output_limit: usize,
    /// `--sandbox`; `None` reads the registry's `[sandbox] mode` at each
    /// call.
    pub sandbox: Option<SandboxMode>,
    /// Declarations loaded by earlier calls, reused while their files are
    /// unchanged (`cache.rs`).
    pub declarations: std::sync::Arc<super::cache::DeclarationCache>,
}

impl CallSettings {
    /// The sandbox mode a call runs with: the server's flag, else the
    /// registry's settings (read anew, so an edit applies to the next
    /// call), else best-effort.
    fn sandbox_mode(&self) -> Result<SandboxMode, crate::registry::SettingsError> {
        match self.sandbox {
            Some(mode) => Ok(mode),
            None => crate::registry::Settings::load(&self.registry)
                .map(|settings| settings.sandbox.mode),
        }
    }
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
    fn envelope(
        exit_code: i32,
        data: Value,
        body: ErrorBody,
        warnings: Vec<String>,
        request: &RequestIds,
    ) -> Self {
        let body = for_mcp(body);
        let text = summary_text(&body);
        let outcome = Outcome::failure_with_exit_code(exit_code, data, body, String::new())
            .with_warnings(warnings)
            .for_request(request.clone());
        let structured = serde_json::to_value(outcome.envelope(0)).unwrap_or(Value::Null);
        Self {
            is_error: true,
            structured,
            text,
        }
    }

    /// The library's outcome of a call (`crate::outcome`), told over MCP.
    fn from_outcome(outcome: Outcome, request: &RequestIds) -> Self {
        let Some(body) = outcome.error else {
            // Only failures reach here; a success has no envelope to send.
            return Self::failure(
                "",
                ErrorCode::Internal,
                "an outcome without an error was sent as one".to_owned(),
                request,
            );
        };
        Self::envelope(
            outcome.exit_code,
            outcome.data,
            body,
            outcome.warnings,
            request,
        )
    }

    /// A failure with no more than a code and a message; its exit code is
    /// the code's.
    fn failure(command: &str, code: ErrorCode, message: String, request: &RequestIds) -> Self {
        Self::envelope(
            code.exit_code(),
            json!({"command": command}),
            ErrorBody::new(code, message),
            Vec::new(),
            request,
        )
    }
}

/// A failure as a model on the other end of MCP can act on it. It has no
/// shell: a hint that names an `aigent` command line or a `--flag` is for a
/// person and is left out; the corrected call is an arguments object, not
/// CLI words; and the tool's `inputSchema` is where the parameters are.
fn for_mcp(mut body: ErrorBody) -> ErrorBody {
    body.hints.retain(|hint| !names_a_command_line(hint));
    if let Some(words) = body.extra.remove(FIX_ARGUMENTS)
        && let Some(arguments) = fix_arguments_object(&words)
    {
        body.extra.insert(FIX_ARGUMENTS.to_owned(), arguments);
        body.hints.push(format!(
            "call the tool again with `{FIX_ARGUMENTS}` as its arguments"
        ));
    } else if body.phase == Some(Phase::Validation) {
        body.hints
            .push("the tool's `inputSchema` (tools/list) declares each parameter".to_owned());
    }
    body
}

/// Whether a hint tells the reader to run something in a shell.
fn names_a_command_line(hint: &str) -> bool {
    hint.contains("aigent ") || hint.contains("`--") || hint.contains(" --")
}

/// Phase 1's corrected words for a JSON call (`["--json", TEXT]`) as the
/// object TEXT holds; anything else has no arguments-object form.
fn fix_arguments_object(words: &Value) -> Option<Value> {
    match words.as_array()?.as_slice() {
        [flag, Value::String(text)] if flag == "--json" => serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_object),
        _ => None,
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

/// A declaration found for a call, with what its load warned of.
#[derive(Debug, Clone)]
pub struct Found {
    declaration: Declaration,
    warnings: Vec<String>,
}

impl Found {
    fn new(loaded: crate::registry::Loaded) -> Self {
        Self {
            warnings: loaded
                .warnings
                .iter()
                .map(|d| format!("{} {}", d.code, d.message))
                .collect(),
            declaration: loaded.declaration,
        }
    }

    /// Nothing destructive runs unconfirmed.
    pub fn needs_confirmation(&self) -> bool {
        self.declaration.requires_confirmation()
    }

    /// Declared `long_running: true`, or with a `timeout_s` over
    /// [`TASK_THRESHOLD`].
    pub fn is_long_running(&self) -> bool {
        self.declaration.long_running
            || self
                .declaration
                .timeout
                .is_some_and(|timeout| timeout > TASK_THRESHOLD)
    }
}

/// A call that passed Phase 1 (a dry run of the protocol): what would
/// run, for the person to confirm or for a task to run later.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub command: String,
    pub argv: Argv,
    found: Found,
    /// The arguments object as the client sent it, checked again when the
    /// call runs. Never written out as text: the guard reads the object
    /// itself (`RawArguments::Object`).
    arguments: Map<String, Value>,
}

/// A declared `timeout_s` over this makes a call long enough to run as a
/// task for a client that speaks the tasks extension (as does
/// `long_running: true`).
pub const TASK_THRESHOLD: Duration = Duration::from_secs(60);

impl Prepared {
    /// The arguments the call was prepared with.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// How long the run may take: the server's `--timeout`, else the
    /// declaration's, else `run`'s default.
    pub fn time_limit(&self, settings: &CallSettings) -> Duration {
        settings
            .timeout
            .or(self.found.declaration.timeout)
            .unwrap_or(crate::invoke::DEFAULT_TIMEOUT)
    }
}

/// What [`execute`] runs: a declaration and the arguments object as the
/// client sent it. Phase 1 runs again as part of the run, whether or not a
/// dry run came first.
#[derive(Debug)]
pub struct Runnable {
    found: Found,
    arguments: Map<String, Value>,
}

impl Runnable {
    /// A call that goes straight to the run: it needs no confirmation and
    /// does not run as a task, so a dry run would only do Phase 1 twice.
    /// No arguments is an empty object.
    pub fn new(found: Found, arguments: Option<Map<String, Value>>) -> Self {
        Self {
            found,
            arguments: arguments.unwrap_or_default(),
        }
    }
}

impl From<Prepared> for Runnable {
    fn from(prepared: Prepared) -> Self {
        Self {
            found: prepared.found,
            arguments: prepared.arguments,
        }
    }
}

/// Why a call did not get as far as running.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// No tool has that name: a protocol error, not a tool result.
    UnknownTool {
        name: String,
        /// The served name closest to it, if one is close.
        closest: Option<String>,
    },
    /// Anything else, as a tool result carrying aigent's envelope.
    Outcome(ToolOutcome),
}

/// The declaration a call names, as [`find`] gives it, when it was loaded
/// recently and its file has not changed since: a few `stat`s, nothing
/// read. `None` means [`find`] must load it.
pub fn find_cached(settings: &CallSettings, name: &str) -> Option<Found> {
    settings
        .declarations
        .cached(&settings.registry, name)
        .map(Found::new)
}

/// Loads the declaration a call names (from the cache while its file is
/// unchanged). A name that is not served is [`Refusal::UnknownTool`]; a
/// declaration that cannot be run is the envelope that says why.
pub fn find(settings: &CallSettings, name: &str, request: &RequestIds) -> Result<Found, Refusal> {
    settings
        .declarations
        .load(&settings.registry, name)
        .map(Found::new)
        .map_err(|err| match err {
            LoadError::NotFound { closest, .. } => Refusal::UnknownTool {
                name: name.to_owned(),
                closest,
            },
            LoadError::InvalidName { .. } | LoadError::MissingRegistry { .. } => {
                Refusal::UnknownTool {
                    name: name.to_owned(),
                    closest: None,
                }
            }
            err => Refusal::Outcome(load_failure(name, err, request)),
        })
}

/// Runs the protocol as a dry run, for a call that waits for a person's
/// yes or runs as a task: a rejection is audited and returned as the
/// envelope; otherwise the argv to confirm. The arguments object is kept
/// as it came (no arguments is an empty object) and handed to the guard as
/// an object, never as text.
pub fn prepare(
    settings: &CallSettings,
    found: Found,
    arguments: Option<Map<String, Value>>,
    request: &RequestIds,
) -> Result<Prepared, Refusal> {
    let arguments = arguments.unwrap_or_default();
    let options = InvokeOptions {
        mode: Mode::DryRun,
        audit_log: settings.audit.explicit(),
        kept_log: Some(&settings.audit),
        timeout: settings.timeout,
        request: Some(request.clone()),
        ..InvokeOptions::default()
    };
    let name = found.declaration.name.clone();
    match invoke(
        &found.declaration,
        &RawArguments::Object(&arguments),
        &options,
    ) {
        Ok(Invoked::Planned { argv, .. }) => Ok(Prepared {
            command: name,
            argv,
            found,
            arguments,
        }),
        Ok(Invoked::Rejected {
            rejection,
            audit_warning,
        }) => Err(Refusal::Outcome(ToolOutcome::from_outcome(
            outcome::rejected(&rejection, audit_warning),
            request,
        ))),
        Ok(other) => Err(Refusal::Outcome(ToolOutcome::failure(
            &name,
            ErrorCode::Internal,
            format!("a dry run ended unexpectedly: {other:?}"),
            request,
        ))),
        Err(err) => Err(Refusal::Outcome(invoke_failure(
            &name,
            &err,
            Vec::new(),
            request,
        ))),
    }
}

fn invoke_failure(
    name: &str,
    err: &InvokeError,
    warnings: Vec<String>,
    request: &RequestIds,
) -> ToolOutcome {
    let body = outcome::invoke_error_body(name, err);
    ToolOutcome::envelope(
        body.code.exit_code(),
        json!({"command": name}),
        body,
        warnings,
        request,
    )
}

/// A declaration that exists but cannot be run (invalid, duplicated,
/// unreadable): the server's problem, told as a tool result with the same
/// error body as `run` gives (its findings, its file or files, the hints a
/// model can act on).
fn load_failure(name: &str, err: LoadError, request: &RequestIds) -> ToolOutcome {
    let body = outcome::load_error_body(&err);
    ToolOutcome::envelope(
        body.code.exit_code(),
        json!({"command": name}),
        body,
        Vec::new(),
        request,
    )
}

/// A call that was not started: the server is at its cap of calls at
/// once, or shutting down.
pub fn not_started(name: &str, message: &str) -> ToolOutcome {
    let mut body = ErrorBody::new(ErrorCode::Precondition, message.to_owned());
    body.retryable = true;
    ToolOutcome::envelope(
        exit::PRECONDITION,
        json!({"command": name}),
        body,
        Vec::new(),
        &RequestIds::new(),
    )
}

/// What the caller can do to a running call: cancel it, and hear how long
/// it has been running and what it writes to stderr.
pub struct Controls<C, P> {
    /// Resolves, with the reason, when the request is cancelled.
    pub cancelled: C,
    /// Called about once a second while the child runs, with the seconds so far.
    pub progress: Option<P>,
    /// Hears each line of the child's stderr as it comes (cut and bounded
    /// as [`super::logging::StderrLines`] says); dropped, so closed, when
    /// the call is over.
    pub stderr: Option<tokio::sync::mpsc::UnboundedSender<String>>,
}

/// Whether a destructive call was confirmed, and if not, why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// Not destructive, confirmed by the client, or pre-approved.
    Given,
    Refused(&'static str),
}

/// Runs the protocol for real on a blocking thread: the declared timeout
/// and environment, the audit records (`COMMAND_STARTED` first, fail
/// closed), output captured up to the limit. A cancelled request ends the
/// child's process group.
pub async fn execute<C, P>(
    settings: &CallSettings,
    runnable: Runnable,
    confirmation: Confirmation,
    request: &RequestIds,
    controls: Controls<C, P>,
) -> ToolOutcome
where
    C: Future<Output = &'static str>,
    P: FnMut(u64),
{
    let sandbox = match settings.sandbox_mode() {
        Ok(mode) => mode,
        Err(err) => {
            return ToolOutcome::failure(
                &runnable.found.declaration.name,
                ErrorCode::InvalidSettings,
                format!("{err}; nothing was run"),
                request,
            );
        }
    };
    let cancel = Cancel::new();
    let (ticks, mut ticked) = tokio::sync::mpsc::unbounded_channel::<Duration>();
    let wants_progress = controls.progress.is_some();
    // The child's stderr, piece by piece, from the thread that runs it;
    // what is sent is bounded (a line may be cut from the last piece).
    let (pieces, mut tapped) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    let stderr_tap = controls.stderr.is_some().then(|| {
        let budget = settings
            .output_limit
            .saturating_add(super::logging::MAX_LINE_BYTES);
        let sent = std::sync::atomic::AtomicUsize::new(0);
        let pieces = pieces.clone();
        std::sync::Arc::new(move |piece: &[u8]| {
            let before = sent.fetch_add(piece.len(), std::sync::atomic::Ordering::Relaxed);
            if before < budget {
                let _ = pieces.send(piece[..piece.len().min(budget - before)].to_vec());
            }
        }) as crate::exec::process::StderrTap
    });
    drop(pieces);
    let options = InvokeOptions {
        mode: Mode::Run,
        audit_log: None,
        kept_log: None,
        timeout: settings.timeout,
        confirmed: confirmation == Confirmation::Given,
        request: Some(request.clone()),
        output: Output::Capture {
            limit: settings.output_limit,
        },
        cancel: Some(cancel.clone()),
        progress: wants_progress.then(|| {
            let ticks = ticks.clone();
            std::sync::Arc::new(move |elapsed: Duration| {
                let _ = ticks.send(elapsed);
            }) as crate::exec::process::Progress
        }),
        stderr_tap,
        sandbox,
        audit_check: true,
        outcome_durable: false,
    };
    drop(ticks);
    let audit = settings.audit.clone();
    let Runnable {
        found: Found {
            declaration,
            warnings,
        },
        arguments,
    } = runnable;
    let command = declaration.name.clone();
    let (handed, running) = tokio::sync::oneshot::channel();
    // The outcome record is written before the result is handed back, and
    // flushed to the disk soon after, while the reply is on its way: the
    // reply does not wait for the flush (docs/audit.md).
    let kept = audit.clone();
    drop(tokio::task::spawn_blocking(move || {
        let options = InvokeOptions {
            audit_log: kept.explicit(),
            kept_log: Some(&kept),
            ..options
        };
        let invoked = invoke(&declaration, &RawArguments::Object(&arguments), &options);
        // The arguments go before the reply does.
        drop(arguments);
        let _ = handed.send(invoked);
    }));
    tokio::pin!(running);
    let Controls {
        cancelled,
        mut progress,
        stderr,
    } = controls;
    tokio::pin!(cancelled);
    let mut cancel_sent = false;
    let mut lines = super::logging::StderrLines::new(settings.output_limit);
    let tell = |told: Vec<String>| {
        if let Some(stderr) = &stderr {
            for line in told {
                let _ = stderr.send(line);
            }
        }
    };
    let joined = loop {
        tokio::select! {
            joined = &mut running => break joined,
            reason = &mut cancelled, if !cancel_sent => {
                cancel_sent = true;
                cancel.cancel_because(reason);
            }
            Some(elapsed) = ticked.recv() => {
                if let Some(report) = progress.as_mut() {
                    report(elapsed.as_secs());
                }
            }
            Some(piece) = tapped.recv() => tell(lines.push(&piece)),
        }
    };
    // What the child wrote last, before the result goes.
    while let Ok(piece) = tapped.try_recv() {
        tell(lines.push(&piece));
    }
    tell(lines.finish());
    drop(stderr);
    if matches!(joined, Ok(Ok(Invoked::Finished { .. }))) {
        flush_soon(audit);
    }
    let command = command.as_str();
    let invoked = match joined {
        Ok(Ok(invoked)) => invoked,
        Ok(Err(err)) => return invoke_failure(command, &err, warnings, request),
        Err(_) => {
            return ToolOutcome::failure(
                command,
                ErrorCode::Internal,
                "the call's thread ended without a result".to_owned(),
                request,
            );
        }
    };
    outcome_of(command, invoked, confirmation, warnings, request)
}

/// Flushes the outcome record a run wrote without waiting for the disk,
/// [`FLUSH_WINDOW`] from now: the next call's start record, flushed before
/// its spawn, usually takes it along first, and then nothing is left to do
/// (`exec::audit::kept`).
fn flush_soon(audit: std::sync::Arc<KeptLog>) {
    if !audit.flush_later() {
        return;
    }
    tokio::spawn(async move {
        tokio::time::sleep(FLUSH_WINDOW).await;
        let _ = tokio::task::spawn_blocking(move || audit.flush()).await;
    });
}

fn outcome_of(
    command: &str,
    invoked: Invoked,
    confirmation: Confirmation,
    mut warnings: Vec<String>,
    request: &RequestIds,
) -> ToolOutcome {
    match invoked {
        Invoked::Finished {
            finished,
            child_exit,
            timeout,
            audit_warning,
            sandbox,
            ..
        } => {
            warnings.extend(audit_warning);
            warnings.extend(sandbox.warnings());
            let mut outcome =
                execution_outcome(command, &finished, &child_exit, timeout, warnings, request);
            outcome.structured["sandbox"] = sandbox.to_json();
            outcome
        }
        Invoked::SpawnFailed {
            argv,
            error,
            audit_warning,
            sandbox,
        } => {
            warnings.extend(audit_warning);
            warnings.extend(sandbox.warnings());
            ToolOutcome::from_outcome(
                outcome::spawn_failed(command, &argv, &error, sandbox.to_json(), warnings),
                request,
            )
        }
        Invoked::ConfirmationRequired {
            argv,
            audit_warning,
        } => {
            warnings.extend(audit_warning);
            let why = match confirmation {
                Confirmation::Refused(why) => why,
                Confirmation::Given => "not confirmed",
            };
            not_confirmed(command, &argv, why, warnings, request)
        }
        Invoked::Rejected {
            rejection,
            audit_warning,
        } => ToolOutcome::from_outcome(outcome::rejected(&rejection, audit_warning), request),
        other @ (Invoked::Accepted(_) | Invoked::Planned { .. }) => ToolOutcome::failure(
            command,
            ErrorCode::Internal,
            format!("a run ended before it ran: {other:?}"),
            request,
        ),
    }
}

/// A destructive call that was not confirmed, and why: nothing ran. The
/// person said no, cannot be asked, or the answer was not good: the same
/// call again would ask again, or fail again, so it is not retryable.
pub fn not_confirmed(
    command: &str,
    argv: &Argv,
    why: &str,
    warnings: Vec<String>,
    request: &RequestIds,
) -> ToolOutcome {
    let mut body = ErrorBody::new(
        ErrorCode::ConfirmationRequired,
        format!("`{command}` is destructive and was not confirmed ({why}); nothing was run"),
    );
    body.retryable = false;
    ToolOutcome::envelope(
        exit::ARG_ERROR,
        json!({"command": command, "argv": argv.redacted(), "requires_confirmation": true}),
        body,
        warnings,
        request,
    )
}

/// The result of a command that ran: the child's status in
/// `child_exit_code` with its declared name in `child_exit`, and, when the
/// declaration does not count it as success, the same `error` (with its
/// `code`) that `run` reports; never a bare number to interpret.
fn execution_outcome(
    command: &str,
    finished: &Finished,
    child_exit: &ChildExit,
    timeout: Duration,
    warnings: Vec<String>,
    request: &RequestIds,
) -> ToolOutcome {
    let stdout = finished.stdout.clone().unwrap_or_default();
    let stderr = finished.stderr.clone().unwrap_or_default();
    let error = crate::exec::report::execution_error(command, finished, child_exit, Some(timeout));
    let structured = json!({
        "command": command,
        "ok": error.is_none(),
        "error": error,
        "child_exit_code": finished.exit_code(),
        "child_exit": child_exit.to_json(),
        "signal": finished.signal(),
        "timed_out": finished.timed_out,
        "cancelled": finished.cancelled,
        "duration_ms": u64::try_from(finished.duration.as_millis()).unwrap_or(u64::MAX),
        "stdout": String::from_utf8_lossy(&stdout.bytes),
        "stderr": String::from_utf8_lossy(&stderr.bytes),
        "stdout_truncated": stdout.truncated,
        "stderr_truncated": stderr.truncated,
        "request_id": request.request_id,
        "warnings": warnings,
    });
    let ended = match finished.ending {
        Ending::Exited(code) => match &child_exit.declared {
            Some(entry) => format!("exited with status {code} ({})", entry.name),
            None => format!("exited with status {code}"),
        },
        Ending::Signaled(signal) => {
            format!("was killed by {}", crate::exec::report::signal_name(signal))
        }
    };
    let why = if finished.cancelled {
        " (cancelled)"
    } else if finished.timed_out {
        " (timed out)"
    } else {
        ""
    };
    let mut text = format!("`{command}` {ended}{why}");
    for (name, stream) in [("stdout", &stdout), ("stderr", &stderr)] {
        if !stream.bytes.is_empty() {
            let cut = if stream.truncated { " (truncated)" } else { "" };
            text.push_str(&format!(
                "\n--- {name}{cut} ---\n{}",
                String::from_utf8_lossy(&stream.bytes)
            ));
        }
    }
    ToolOutcome {
        is_error: !child_exit.success,
        structured,
        text,
    }
}
