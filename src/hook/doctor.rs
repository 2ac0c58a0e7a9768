//! `aigent hook doctor`: whether an installed entry really guards the
//! client's shell tool. An entry whose program is gone is worse than no
//! entry in Claude Code, Codex and Cursor: a hook that cannot start is not
//! a refusal there (only exit code 2 is), so every command runs unguarded
//! and nothing says so.
//!
//! For each aigent entry in the settings file: the command is read as a
//! shell would read it; its program is found (an absolute path, a path
//! under the project, or a bare name on `PATH`) and must be an executable
//! regular file; then the entry is run, without a shell, on a probe event
//! whose command every policy refuses (`eval …`, rule `shell_builtin`),
//! and its answer must be that client's deny, for that rule. Any other
//! deny (an unreadable `aigent.toml`, an audit log that cannot be written)
//! means the hook refuses every command, and is reported with its reason.
//!
//! The settings file is hostile input like any other: an entry that is not
//! one plain command (operators, redirections, substitutions) is not run,
//! and neither is a program inside the project (a cloned repository's own
//! `aigent`); both are reported as unchecked.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use super::install::{Client, InstalledEntry};
use crate::shell::{self, Word};

/// The command line of the probe event: a builtin the hook refuses under
/// every policy and registry.
pub const PROBE_COMMAND: &str = "eval aigent-hook-doctor-probe";

/// The rule the probe must be refused by.
const PROBE_RULE: &str = "shell_builtin";

/// The session id the probe event carries, so that its audit record is
/// told apart from real decisions.
pub const PROBE_SESSION: &str = "aigent-hook-doctor";

/// How long the probe may take (the clients allow their hooks 60 s).
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// The most of the probe's stdout and stderr kept.
const MAX_PROBE_OUTPUT: u64 = 64 * 1024;

/// What the doctor found about one entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Health {
    /// The program runs and answered the probe as aigent's hook.
    Works,
    /// It does not guard the shell tool (see the failed check).
    Broken,
    /// What could be checked passed, but the probe was not run.
    Unchecked,
}

/// One check and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
}

/// One entry's examination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryHealth {
    pub command: String,
    pub line: usize,
    pub column: usize,
    /// The program the entry runs, resolved, when it could be.
    pub program: Option<PathBuf>,
    pub health: Health,
    pub checks: Vec<Check>,
}

/// Where the entry runs.
pub struct DoctorContext<'a> {
    pub client: Client,
    /// The directory the client runs hooks in: the project root.
    pub project: &'a Path,
    /// Whether the settings file is the project's (whose programs under
    /// the project are not run).
    pub project_scope: bool,
    /// `PATH`, to find a bare program name.
    pub path_var: Option<OsString>,
    pub timeout: Duration,
}

/// Examines one installed entry.
pub fn examine(entry: &InstalledEntry, context: &DoctorContext<'_>) -> EntryHealth {
    let mut health = EntryHealth {
        command: entry.command.clone(),
        line: entry.line,
        column: entry.column,
        program: None,
        health: Health::Unchecked,
        checks: Vec::new(),
    };
    let plain = match plain_command(&entry.command, context) {
        Ok(plain) => plain,
        Err(why) => {
            health.checks.push(Check {
                name: "plain command",
                ok: false,
                detail: format!(
                    "not checked: {why}; aigent runs only an entry that is one plain command"
                ),
            });
            return health;
        }
    };
    let program = match resolve(&plain.program, context) {
        Ok(program) => program,
        Err(why) => {
            health.checks.push(Check {
                name: "program",
                ok: false,
                detail: format!("{why}; so {}", unguarded(context.client)),
            });
            health.health = Health::Broken;
            return health;
        }
    };
    health.program = Some(program.clone());
    if let Err(why) = executable(&program) {
        health.checks.push(Check {
            name: "program",
            ok: false,
            detail: format!("{why}; so {}", unguarded(context.client)),
        });
        health.health = Health::Broken;
        return health;
    }
    health.checks.push(Check {
        name: "program",
        ok: true,
        detail: format!("{} is an executable file", program.display()),
    });
    if context.project_scope && inside(&program, context.project) {
        health.checks.push(Check {
            name: "probe",
            ok: false,
            detail: format!(
                "not run: {} is inside the project, and aigent does not run a project's own program to check it",
                program.display()
            ),
        });
        return health;
    }
    let probe = probe(&program, &plain, context);
    health.health = if probe.ok {
        Health::Works
    } else {
        Health::Broken
    };
    health.checks.push(probe);
    health
}

/// What a client does with a shell command while its hook cannot start
/// (Claude Code's and Cursor's documented behaviour; Codex's and Gemini
/// CLI's as their real CLIs showed it: `tests/it/real_clients/`).
pub fn unguarded(client: Client) -> &'static str {
    match client {
        Client::ClaudeCode => {
            "Claude Code runs every shell command unguarded (a hook that cannot start is not a refusal there; only exit code 2 blocks)"
        }
        Client::Codex => "Codex marks the hook failed and runs every shell command unguarded",
        Client::Cursor => {
            "Cursor runs every shell command unguarded (a hook that cannot start is not a refusal there, unless the entry sets failClosed)"
        }
        Client::Gemini => "Gemini CLI blocks every shell command",
    }
}

/// The entry read as one simple command with static words.
struct Plain {
    /// `NAME=VALUE` before the program.
    env: Vec<(String, String)>,
    program: String,
    args: Vec<String>,
}

/// The variables each client sets for its hooks that name the project,
/// which a shared entry uses to find aigent (`"$CLAUDE_PROJECT_DIR"/…`).
fn project_variables(client: Client) -> &'static [&'static str] {
    match client {
        Client::ClaudeCode => &["CLAUDE_PROJECT_DIR"],
        Client::Gemini => &["GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"],
        Client::Codex | Client::Cursor => &[],
    }
}

fn plain_command(command: &str, context: &DoctorContext<'_>) -> Result<Plain, String> {
    let script = shell::parse(command).map_err(|error| error.to_string())?;
    let [simple] = script.commands.as_slice() else {
        return Err("the entry runs more than one command".to_owned());
    };
    if !script.constructs.is_empty() {
        return Err("the entry holds a shell construct".to_owned());
    }
    if !simple.redirects.is_empty() {
        return Err("the entry redirects the hook's input or output".to_owned());
    }
    let mut env = Vec::new();
    for assignment in &simple.assignments {
        let value = assignment
            .value
            .as_static()
            .ok_or_else(|| format!("`{}` is set from an expansion", assignment.name))?;
        env.push((assignment.name.clone(), value.to_owned()));
    }
    let (first, rest) = simple
        .words
        .split_first()
        .ok_or_else(|| "the entry names no program".to_owned())?;
    let program = match first {
        Word::Static { text } => text.clone(),
        Word::Dynamic { source, .. } => project_relative(source, context).ok_or_else(|| {
            format!("its program `{source}` is known only when the client runs it")
        })?,
    };
    let args = rest
        .iter()
        .map(|word| {
            word.as_static()
                .map(str::to_owned)
                .ok_or_else(|| format!("`{}` is known only when the client runs it", word.source()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Plain { env, program, args })
}

/// `"$CLAUDE_PROJECT_DIR"/bin/aigent` (or `${…}`, unquoted, or quoted
/// whole) as the path the client would give it, for the client's own
/// project variables and a plain rest (letters, digits, `/ . _ - +`).
fn project_relative(source: &str, context: &DoctorContext<'_>) -> Option<String> {
    let unquoted: String = source.chars().filter(|c| *c != '"').collect();
    for name in project_variables(context.client) {
        for form in [format!("${{{name}}}"), format!("${name}")] {
            let Some(rest) = unquoted.strip_prefix(&form) else {
                continue;
            };
            let plain = rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c));
            if plain && (rest.is_empty() || rest.starts_with('/')) {
                return Some(format!("{}{rest}", context.project.display()));
            }
        }
    }
    None
}

/// The program's path: absolute as written, relative to the project (where
/// the clients run hooks), or a bare name found on `PATH`.
fn resolve(program: &str, context: &DoctorContext<'_>) -> Result<PathBuf, String> {
    if program.contains('/') {
        let path = Path::new(program);
        return Ok(if path.is_absolute() {
            path.to_owned()
        } else {
            context.project.join(path)
        });
    }
    let which = super::answer::which_on(context.path_var.clone());
    which(program).ok_or_else(|| format!("`{program}` is not found on PATH"))
}

fn executable(program: &Path) -> Result<(), String> {
    let metadata = std::fs::metadata(program).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => format!("{} does not exist", program.display()),
        _ => format!("{} cannot be read: {error}", program.display()),
    })?;
    if !metadata.is_file() {
        return Err(format!("{} is not a regular file", program.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o111 == 0 {
            return Err(format!("{} is not executable", program.display()));
        }
    }
    Ok(())
}

/// Whether `program` lies under `project`, both resolved (a relative path
/// or one through a link into the project counts as inside).
fn inside(program: &Path, project: &Path) -> bool {
    let real = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    real(program).starts_with(real(project))
}

/// The client's event for the probe command.
pub fn probe_event(client: Client, cwd: &Path) -> Value {
    let cwd = cwd.display().to_string();
    match client {
        Client::ClaudeCode | Client::Codex => json!({
            "session_id": PROBE_SESSION,
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_use_id": PROBE_SESSION,
            "tool_input": {"command": PROBE_COMMAND},
        }),
        Client::Gemini => json!({
            "session_id": PROBE_SESSION,
            "cwd": cwd,
            "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command",
            "tool_input": {"command": PROBE_COMMAND},
        }),
        Client::Cursor => json!({
            "conversation_id": PROBE_SESSION,
            "hook_event_name": "beforeShellExecution",
            "command": PROBE_COMMAND,
            "cwd": cwd,
        }),
    }
}

/// Runs the entry on the probe event, as the client would (in the
/// project, with the client's project variables), and reads its answer.
fn probe(program: &Path, plain: &Plain, context: &DoctorContext<'_>) -> Check {
    let event = probe_event(context.client, context.project).to_string();
    let mut command = Command::new(program);
    command
        .args(&plain.args)
        .current_dir(context.project)
        .envs(plain.env.iter().map(|(name, value)| (name, value)))
        .envs(
            project_variables(context.client)
                .iter()
                .map(|name| (*name, context.project)),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let outcome = match run_bounded(command, event.as_bytes(), context.timeout) {
        Ok(outcome) => outcome,
        Err(error) => {
            return Check {
                name: "probe",
                ok: false,
                detail: format!(
                    "{} could not be started: {error}; so {}",
                    program.display(),
                    unguarded(context.client)
                ),
            };
        }
    };
    let Some(code) = outcome.code else {
        return Check {
            name: "probe",
            ok: false,
            detail: if outcome.timed_out {
                format!(
                    "the entry did not answer within {} s",
                    context.timeout.as_secs()
                )
            } else {
                "the entry was killed by a signal".to_owned()
            },
        };
    };
    match denial(context.client, code, &outcome.stdout) {
        Some(reason) if reason.contains(&format!("[rule {PROBE_RULE}]")) => Check {
            name: "probe",
            ok: true,
            detail: format!(
                "answered the probe `{PROBE_COMMAND}` with {}'s deny (exit {code})",
                context.client.display_name()
            ),
        },
        Some(reason) => Check {
            name: "probe",
            ok: false,
            detail: format!("the hook refuses every command: {reason}"),
        },
        None => Check {
            name: "probe",
            ok: false,
            detail: format!(
                "the entry did not answer as aigent's hook for {} (exit {code}, stdout {:?}, stderr {:?})",
                context.client.display_name(),
                excerpt(&outcome.stdout),
                excerpt(&outcome.stderr)
            ),
        },
    }
}

/// The reason of the client's deny in `stdout`, when the answer is one
/// (with the exit code the client needs for it).
fn denial(client: Client, code: i32, stdout: &str) -> Option<String> {
    let answer: Value = serde_json::from_str(stdout.trim()).ok()?;
    let text = |value: &Value| value.as_str().map(str::to_owned);
    match client {
        Client::ClaudeCode | Client::Codex => {
            let output = &answer["hookSpecificOutput"];
            (code == 2 && output["permissionDecision"] == "deny")
                .then(|| text(&output["permissionDecisionReason"]))?
        }
        Client::Gemini => {
            (code == 0 && answer["decision"] == "deny").then(|| text(&answer["reason"]))?
        }
        Client::Cursor => {
            (code == 0 && answer["permission"] == "deny").then(|| text(&answer["agent_message"]))?
        }
    }
}

fn excerpt(text: &str) -> String {
    let text = text.trim();
    let mut end = text.len().min(300);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

/// Runs `command` with `input` on stdin, its output capped, killed after
/// `limit`.
fn run_bounded(mut command: Command, input: &[u8], limit: Duration) -> std::io::Result<Outcome> {
    let mut child = command.spawn()?;
    let stdin = child.stdin.take();
    let input = input.to_vec();
    // A program that does not read its stdin must not block the doctor.
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(&input);
        }
    });
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(MAX_PROBE_OUTPUT).read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = reader(
        child
            .stdout
            .take()
            .map(|pipe| Box::new(pipe) as Box<dyn Read + Send>),
    );
    let stderr = reader(
        child
            .stderr
            .take()
            .map(|pipe| Box::new(pipe) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() > limit {
            timed_out = true;
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    Ok(Outcome {
        code: status.and_then(|status| status.code()),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        timed_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(client: Client, project: &Path) -> DoctorContext<'_> {
        DoctorContext {
            client,
            project,
            project_scope: true,
            path_var: None,
            timeout: Duration::from_secs(5),
        }
    }

    fn entry(command: &str) -> InstalledEntry {
        InstalledEntry {
            command: command.to_owned(),
            line: 1,
            column: 1,
        }
    }

    #[test]
    fn a_missing_program_is_broken_and_says_what_the_client_does() {
        let dir = tempfile::tempdir().unwrap();
        let health = examine(
            &entry("/nonexistent/aigent hook --client claude-code"),
            &context(Client::ClaudeCode, dir.path()),
        );
        assert_eq!(health.health, Health::Broken);
        let detail = &health.checks[0].detail;
        assert!(
            detail.contains("/nonexistent/aigent does not exist"),
            "{detail}"
        );
        assert!(detail.contains("unguarded"), "{detail}");
        let gemini = examine(
            &entry("/nonexistent/aigent hook --client gemini"),
            &context(Client::Gemini, dir.path()),
        );
        assert!(
            gemini.checks[0].detail.contains("so Gemini CLI blocks"),
            "{:?}",
            gemini.checks
        );
    }

    #[test]
    fn an_entry_that_is_not_one_plain_command_is_not_run() {
        let dir = tempfile::tempdir().unwrap();
        for command in [
            "/usr/bin/aigent hook --client codex; touch pwned",
            "/usr/bin/aigent hook --client codex 2>/dev/null",
            "/usr/bin/aigent hook --client codex $(touch pwned)",
            "$HOME/bin/aigent hook --client codex",
        ] {
            let health = examine(&entry(command), &context(Client::Codex, dir.path()));
            assert_eq!(health.health, Health::Unchecked, "{command}");
            assert!(health.program.is_none(), "{command}");
        }
        assert!(!dir.path().join("pwned").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_program_inside_the_project_is_not_run() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let program = bin.join("aigent");
        std::fs::write(&program, "#!/bin/sh\ntouch \"$0.ran\"\n").unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        for command in [
            "\"$CLAUDE_PROJECT_DIR\"/bin/aigent hook --client claude-code",
            "./bin/aigent hook --client claude-code",
        ] {
            let health = examine(&entry(command), &context(Client::ClaudeCode, dir.path()));
            assert_eq!(health.health, Health::Unchecked, "{command}");
            let found = health.program.expect("the program is found");
            assert_eq!(
                std::fs::canonicalize(found).unwrap(),
                std::fs::canonicalize(&program).unwrap(),
                "{command}"
            );
        }
        assert!(!bin.join("aigent.ran").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_program_that_does_not_answer_as_the_hook_is_broken() {
        use std::os::unix::fs::PermissionsExt;
        let project = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let program = elsewhere.path().join("aigent");
        std::fs::write(&program, "#!/bin/sh\ncat >/dev/null\necho '{}'\n").unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let command = format!("{} hook --client claude-code", program.display());
        let health = examine(
            &entry(&command),
            &context(Client::ClaudeCode, project.path()),
        );
        assert_eq!(health.health, Health::Broken, "{health:?}");
        assert!(
            health.checks[1]
                .detail
                .contains("did not answer as aigent's hook"),
            "{health:?}"
        );
    }

    #[test]
    fn the_probe_is_denied_for_its_rule_in_each_clients_answer() {
        assert_eq!(
            denial(
                Client::ClaudeCode,
                2,
                r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"aigent: deny [rule shell_builtin]"}}"#
            )
            .as_deref(),
            Some("aigent: deny [rule shell_builtin]")
        );
        // Claude Code and Codex need exit 2 with the deny.
        assert_eq!(
            denial(
                Client::Codex,
                0,
                r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}"#
            ),
            None
        );
        assert_eq!(
            denial(Client::Gemini, 0, r#"{"decision":"deny","reason":"r"}"#).as_deref(),
            Some("r")
        );
        assert_eq!(denial(Client::Gemini, 0, r#"{"decision":"allow"}"#), None);
        assert_eq!(
            denial(
                Client::Cursor,
                0,
                r#"{"permission":"deny","agent_message":"m"}"#
            )
            .as_deref(),
            Some("m")
        );
    }
}
