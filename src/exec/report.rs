//! What `run` reports: the envelope's `data` and `error` for an execution,
//! the error for a child that could not start, and the dry-run text.

use serde_json::{Value, json};

use super::argv::Argv;
use super::process::{Ending, Finished, SpawnError};
use crate::contract::{Declaration, ExitCode};
use crate::report::{ErrorBody, ErrorCode, Phase, Style, exit};

/// The one rule for a child's exit status, which `run`, the MCP server and
/// any library caller apply alike: the child's status is reported in
/// `child_exit_code` (with its declared name and meaning in `child_exit`),
/// and aigent's own exit status never passes it through. A status the
/// declaration counts as success (`success_exit_codes`, `[0]` by default)
/// makes aigent exit 0 with `ok: true`; any other makes it exit 3,
/// `COMMAND_FAILED`. So aigent's 2 always means "rejected, nothing ran",
/// whatever the child's own 2 means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildExit {
    /// The child's own status; `None` when a signal ended it.
    pub code: Option<i32>,
    /// The child exited with a status the declaration counts as success,
    /// and nothing (a timeout, a cancellation, a signal to aigent) cut
    /// the run short.
    pub success: bool,
    /// The declaration's entry for `code`, when it has one.
    pub declared: Option<ExitCode>,
    /// The command is declared `safe` (it changes nothing), so a run cut
    /// short by its time limit may simply be run again.
    pub read_only: bool,
}

impl ChildExit {
    /// How `declaration` reads the way `finished` ended.
    pub fn read(declaration: &Declaration, finished: &Finished) -> Self {
        let code = finished.exit_code();
        let cut_short =
            finished.timed_out || finished.cancelled || finished.interrupted_by.is_some();
        Self {
            code,
            success: !cut_short && code.is_some_and(|code| declaration.is_success_exit(code)),
            declared: code.and_then(|code| declaration.exit_code(code).cloned()),
            read_only: declaration.danger_level == Some(crate::contract::DangerLevel::Safe),
        }
    }

    /// aigent's own exit status: 0 for a success status, 3
    /// (`COMMAND_FAILED`) for any other status; TIMEOUT after a timeout,
    /// 128 + the signal after an interruption or when a signal killed the
    /// child, as shells report it.
    pub fn aigent_exit_code(&self, finished: &Finished) -> i32 {
        let cut_short =
            finished.timed_out || finished.cancelled || finished.interrupted_by.is_some();
        match finished.ending {
            Ending::Exited(_) if !cut_short => {
                if self.success {
                    exit::SUCCESS
                } else {
                    exit::COMMAND_FAILED
                }
            }
            _ => finished.aigent_exit_code(),
        }
    }

    /// `child_exit`: the declared name and meaning of the child's status,
    /// or null when the declaration does not describe it (or a signal
    /// ended the child).
    pub fn to_json(&self) -> Value {
        match &self.declared {
            None => Value::Null,
            Some(entry) => json!({
                "name": entry.name,
                "description": entry.description,
                "success": self.success,
                "retryable": entry.retryable,
                "side_effects": entry.side_effects,
            }),
        }
    }
}

/// `data` for an execution: the same keys whatever the outcome, so that a
/// caller can read them without looking at `error` first. With captured
/// output also `stdout` and `stderr` (see [`captured_data`]).
pub fn execution_data(
    command: &str,
    argv: &Argv,
    finished: &Finished,
    child_exit: &ChildExit,
) -> Value {
    let mut data = json!({
        "command": command,
        "argv": argv.redacted(),
        "phase": Phase::Execution,
        "child_pid": finished.pid,
        "child_exit_code": finished.exit_code(),
        "child_exit": child_exit.to_json(),
        "child_signal": finished.signal(),
        "duration_ms": millis(finished),
        "timed_out": finished.timed_out,
        "cancelled": finished.cancelled,
        "interrupted_by": finished.interrupted_by,
    });
    if let (Some(stdout), Some(stderr), Some(object)) =
        (&finished.stdout, &finished.stderr, data.as_object_mut())
    {
        object.extend(captured_data(stdout, stderr));
    }
    data
}

/// What the child wrote, as data for an agent (CLI Agent Spec REQ-F-035,
/// REQ-F-007, REQ-F-016): `stdout` and `stderr` as text (invalid UTF-8
/// replaced, terminal codes removed), whether each was cut at the capture
/// limit, and the marks of data from outside aigent, `_source: "external"`
/// and `_trusted: false`, since a program's output may hold instructions
/// meant to steer whoever reads it.
pub fn captured_data(
    stdout: &super::process::Captured,
    stderr: &super::process::Captured,
) -> serde_json::Map<String, Value> {
    let text = |captured: &super::process::Captured| {
        let lossy = String::from_utf8_lossy(&captured.bytes);
        crate::report::escape::strip_terminal_codes(&lossy).into_owned()
    };
    let mut data = serde_json::Map::new();
    data.insert("stdout".to_owned(), text(stdout).into());
    data.insert("stderr".to_owned(), text(stderr).into());
    data.insert("stdout_truncated".to_owned(), stdout.truncated.into());
    data.insert("stderr_truncated".to_owned(), stderr.truncated.into());
    data.insert("_source".to_owned(), "external".into());
    data.insert("_trusted".to_owned(), false.into());
    data
}

/// `error` for an execution that did not end in a success status, with
/// `phase: "execution"`, the child's own status in `child_exit_code` (null
/// when a signal ended it, which `child_signal` then names) and its
/// declared name and meaning in `child_exit`.
pub fn execution_error(
    command: &str,
    finished: &Finished,
    child_exit: &ChildExit,
    timeout: Option<std::time::Duration>,
) -> Option<ErrorBody> {
    if child_exit.aigent_exit_code(finished) == exit::SUCCESS {
        return None;
    }
    let (code, message) = if finished.timed_out {
        let limit = timeout.map_or_else(String::new, |limit| {
            format!(" within {}", seconds(limit.as_secs_f64()))
        });
        (
            ErrorCode::Timeout,
            format!("`{command}` did not finish{limit}; its process group was killed"),
        )
    } else if finished.cancelled {
        (
            ErrorCode::Cancelled,
            format!("`{command}` was cancelled; its process group was killed"),
        )
    } else if let Some(signal) = finished.interrupted_by {
        (
            ErrorCode::Interrupted,
            format!(
                "interrupted by {}; it was passed on to `{command}`, which then ended",
                signal_name(signal)
            ),
        )
    } else {
        match (finished.exit_code(), finished.signal()) {
            (Some(status), _) => (
                ErrorCode::CommandFailed,
                match &child_exit.declared {
                    Some(entry) => format!(
                        "`{command}` exited with status {status}, {}{}",
                        entry.name,
                        entry
                            .description
                            .as_deref()
                            .map(|description| format!(": {description}"))
                            .unwrap_or_default()
                    ),
                    None => format!(
                        "`{command}` exited with status {status}, which its declaration does not count as success"
                    ),
                },
            ),
            (None, Some(signal)) => (
                ErrorCode::CommandKilled,
                format!("`{command}` was killed by {}", signal_name(signal)),
            ),
            (None, None) => (ErrorCode::CommandFailed, format!("`{command}` failed")),
        }
    };
    let mut body = ErrorBody::new(code, message);
    body.phase = Some(Phase::Execution);
    // The declaration knows better than the generic code whether the same
    // call may succeed (REQ-C-014): the child's declared entry for its
    // status, which can only say so where that status changed nothing; a
    // timeout of a command declared `safe` (REQ-F-012).
    match (code, &child_exit.declared) {
        (ErrorCode::CommandFailed, Some(entry)) => {
            use crate::contract::SideEffects;
            let changed_nothing = match entry.side_effects {
                SideEffects::None => true,
                SideEffects::Unknown => child_exit.read_only,
                SideEffects::Partial | SideEffects::Complete => false,
            };
            body.retryable = entry.retryable && changed_nothing;
        }
        (ErrorCode::Timeout, _) => body.retryable = child_exit.read_only,
        _ => {}
    }
    Some(
        body.with_extra("child_exit_code", finished.exit_code())
            .with_extra("child_exit", child_exit.to_json())
            .with_extra("child_signal", finished.signal())
            .with_extra("duration_ms", millis(finished)),
    )
}

/// The error for a program that could not be started, and aigent's exit
/// code for it: 5 when it does not exist, 4 when it cannot be executed,
/// 1 otherwise. Nothing ran.
pub fn spawn_error(error: &SpawnError) -> (i32, ErrorBody) {
    let (code, hint) = match error {
        SpawnError::NotFound { program } => (
            ErrorCode::BinaryNotFound,
            format!(
                "install `{program}`, or give its full path in the declaration's `subprocess.binary`"
            ),
        ),
        SpawnError::InterpreterNotFound { program } => (
            ErrorCode::InterpreterNotFound,
            format!(
                "fix the `#!` line of `{program}`, or run it through an interpreter that exists"
            ),
        ),
        SpawnError::PermissionDenied { program } => (
            ErrorCode::BinaryNotExecutable,
            format!("make `{program}` executable (chmod +x), or run it through its interpreter"),
        ),
        SpawnError::Other { .. } => (ErrorCode::SpawnFailed, "nothing was executed".to_owned()),
    };
    let mut body = ErrorBody::new(code, error.to_string()).with_hint(hint);
    body.phase = Some(Phase::Execution);
    (code.exit_code(), body)
}

/// The refusal of a destructive command that the caller did not confirm:
/// what would have run, and how to confirm it (REQ-O-021).
pub fn confirmation_required(command: &str, argv: &Argv) -> ErrorBody {
    let mut body = ErrorBody::new(
        ErrorCode::ConfirmationRequired,
        format!(
            "`{command}` is declared destructive and was not confirmed; nothing was run. It would have run: {}",
            argv.display()
        ),
    )
    .with_hint(format!(
        "confirm with `aigent run --confirm-destructive {command} ...`, or look first with `aigent run --dry-run {command} ...`"
    ));
    // Refused before anything ran, as a Phase 1 rejection is.
    body.phase = Some(Phase::Validation);
    body
}

/// `run --dry-run` as text: a label, then the argv shell-quoted on a line
/// of its own.
pub fn render_dry_run(command: &str, argv: &Argv, quiet: bool, style: Style) -> String {
    let line = argv.display();
    if quiet {
        return format!("{line}\n");
    }
    let mut text = format!(
        "{} `{command}` would run this argv (nothing was executed; quoted for display only, no shell ever reads it):\n{line}\n",
        style.emphasis("dry run:")
    );
    let env = argv.env().redacted();
    if let Some(set) = env["set"].as_object() {
        let pairs: Vec<String> = set
            .iter()
            .map(|(name, value)| {
                format!(
                    "{name}={}",
                    super::argv::shell_quote(value.as_str().unwrap_or_default())
                )
            })
            .collect();
        if !pairs.is_empty() {
            text.push_str(&format!(
                "{} {}\n",
                style.emphasis("with env:"),
                pairs.join(" ")
            ));
        }
    }
    text
}

fn millis(finished: &Finished) -> u64 {
    u64::try_from(finished.duration.as_millis()).unwrap_or(u64::MAX)
}

fn seconds(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}s")
    } else {
        format!("{value}s")
    }
}

/// `SIGINT (2)`, or `signal 42` for one without a common name.
pub fn signal_name(signal: i32) -> String {
    const NAMES: &[(i32, &str)] = &[
        (1, "SIGHUP"),
        (2, "SIGINT"),
        (3, "SIGQUIT"),
        (4, "SIGILL"),
        (5, "SIGTRAP"),
        (6, "SIGABRT"),
        (8, "SIGFPE"),
        (9, "SIGKILL"),
        (11, "SIGSEGV"),
        (13, "SIGPIPE"),
        (14, "SIGALRM"),
        (15, "SIGTERM"),
    ];
    match NAMES.iter().find(|(number, _)| *number == signal) {
        Some((_, name)) => format!("{name} ({signal})"),
        None => format!("signal {signal}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::process::Ending;
    use std::time::Duration;

    fn finished(ending: Ending) -> Finished {
        Finished {
            pid: 42,
            ending,
            duration: Duration::from_millis(1500),
            timed_out: false,
            cancelled: false,
            interrupted_by: None,
            stdout: None,
            stderr: None,
            descendants_killed: 0,
            sandbox_lapses: Vec::new(),
        }
    }

    /// grep's contract: 1 (no match) is a success, 2 is grep's own error.
    fn grep() -> Declaration {
        let parsed = crate::registry::parse_value(
            &json!({
                "name": "grep", "description": "d", "danger_level": "safe", "parameters": {},
                "success_exit_codes": [0, 1],
                "exit_codes": {
                    "0": {"name": "MATCH", "side_effects": "none"},
                    "1": {"name": "NO_MATCH", "description": "No line matched", "side_effects": "none"},
                    "2": {"name": "GREP_ERROR", "description": "A file could not be read", "retryable": true}
                }
            }),
            &crate::contract::Origin::default(),
        );
        parsed.declaration.expect("valid")
    }

    fn plain() -> Declaration {
        let parsed = crate::registry::parse_value(
            &json!({"name": "t", "description": "d", "danger_level": "safe", "parameters": {}}),
            &crate::contract::Origin::default(),
        );
        parsed.declaration.expect("valid")
    }

    fn error_of(declaration: &Declaration, done: &Finished) -> Option<ErrorBody> {
        let child = ChildExit::read(declaration, done);
        execution_error("t", done, &child, Some(Duration::from_secs(1)))
    }

    #[test]
    fn success_has_no_error_and_full_data() {
        let argv = Argv::from_words(["echo", "hi"]);
        let done = finished(Ending::Exited(0));
        let child = ChildExit::read(&plain(), &done);
        assert!(execution_error("greet", &done, &child, None).is_none());
        assert_eq!(child.aigent_exit_code(&done), exit::SUCCESS);
        let data = execution_data("greet", &argv, &done, &child);
        assert_eq!(data["argv"], json!(["echo", "hi"]));
        assert_eq!(data["phase"], "execution");
        assert_eq!(data["child_exit_code"], 0);
        assert_eq!(data["child_exit"]["name"], "SUCCESS");
        assert_eq!(data["child_exit"]["success"], true);
        assert_eq!(data["child_signal"], Value::Null);
        assert_eq!(data["duration_ms"], 1500);
    }

    #[test]
    fn declared_success_codes_are_success_and_others_exit_3() {
        let grep = grep();
        let no_match = finished(Ending::Exited(1));
        let child = ChildExit::read(&grep, &no_match);
        assert!(child.success);
        assert_eq!(child.aigent_exit_code(&no_match), exit::SUCCESS);
        assert!(error_of(&grep, &no_match).is_none());
        assert_eq!(child.to_json()["name"], "NO_MATCH");

        // The child's own 2 is never aigent's 2.
        let failed = finished(Ending::Exited(2));
        let child = ChildExit::read(&grep, &failed);
        assert!(!child.success);
        assert_eq!(child.aigent_exit_code(&failed), exit::COMMAND_FAILED);
        let body = error_of(&grep, &failed).unwrap();
        assert_eq!(body.code, "COMMAND_FAILED");
        assert_eq!(body.code.exit_code(), exit::COMMAND_FAILED);
        assert!(body.retryable, "the declared entry says so");
        assert_eq!(body.extra["child_exit_code"], 2);
        assert_eq!(body.extra["child_exit"]["name"], "GREP_ERROR");
        assert!(
            body.message
                .contains("status 2, GREP_ERROR: A file could not be read"),
            "{}",
            body.message
        );

        // An undeclared status has no name, and still exits 3.
        let odd = finished(Ending::Exited(7));
        let child = ChildExit::read(&grep, &odd);
        assert_eq!(child.to_json(), Value::Null);
        assert_eq!(child.aigent_exit_code(&odd), exit::COMMAND_FAILED);
        // A success status cut short by a timeout is a timeout.
        let mut late = finished(Ending::Exited(1));
        late.timed_out = true;
        let child = ChildExit::read(&grep, &late);
        assert!(!child.success);
        assert_eq!(child.aigent_exit_code(&late), exit::TIMEOUT);
    }

    #[test]
    fn failures_name_their_cause() {
        let plain = plain();
        let body = error_of(&plain, &finished(Ending::Exited(3))).unwrap();
        assert_eq!(body.code, "COMMAND_FAILED");
        assert_eq!(body.phase, Some(Phase::Execution));
        assert_eq!(body.extra["child_exit_code"], 3);
        assert_eq!(body.extra["child_exit"], Value::Null);

        let body = error_of(&plain, &finished(Ending::Signaled(9))).unwrap();
        assert_eq!(body.code, "COMMAND_KILLED");
        assert!(body.message.contains("SIGKILL (9)"), "{}", body.message);
        assert_eq!(body.extra["child_exit_code"], Value::Null);

        let mut timed_out = finished(Ending::Signaled(15));
        timed_out.timed_out = true;
        let body = error_of(&plain, &timed_out).unwrap();
        assert_eq!(body.code, "TIMEOUT");
        assert!(body.message.contains("within 1s"), "{}", body.message);

        let mut interrupted = finished(Ending::Exited(0));
        interrupted.interrupted_by = Some(2);
        let body = error_of(&plain, &interrupted).unwrap();
        assert_eq!(body.code, "INTERRUPTED");
        assert_eq!(body.extra["child_exit_code"], 0);
    }

    #[test]
    fn spawn_errors_map_to_exit_codes() {
        let (code, body) = spawn_error(&SpawnError::NotFound {
            program: "nope".into(),
        });
        assert_eq!(code, exit::NOT_FOUND);
        assert_eq!(body.code, "BINARY_NOT_FOUND");
        assert!(body.message.contains("`nope` was not found on PATH"));
        let (code, _) = spawn_error(&SpawnError::PermissionDenied {
            program: "./x".into(),
        });
        assert_eq!(code, exit::PRECONDITION);
    }

    #[test]
    fn dry_run_text_is_labelled() {
        let argv = Argv::from_words(["echo", "a b"]);
        let text = render_dry_run("greet", &argv, false, Style::PLAIN);
        assert!(text.contains("nothing was executed"));
        assert!(text.ends_with("\necho 'a b'\n"), "{text}");
        assert_eq!(
            render_dry_run("greet", &argv, true, Style::PLAIN),
            "echo 'a b'\n"
        );
    }
}
