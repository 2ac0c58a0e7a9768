//! The four protocols against event payloads shaped as each client's
//! documentation shows them (tests/fixtures/hook/CLIENT/, replayed through
//! the binary by the integration tests too), and `read_event` against
//! hostile input.

use proptest::prelude::*;
use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::hook::verdict::Verdict;

macro_rules! fixture {
    ($path:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/hook/",
            $path
        ))
        .as_slice()
    };
}

const CLAUDE_BASH: &[u8] = fixture!("claude-code/pre-tool-use-bash.json");
const CLAUDE_WRITE: &[u8] = fixture!("claude-code/pre-tool-use-write.json");
const CODEX_BASH: &[u8] = fixture!("codex/pre-tool-use-bash.json");
const CODEX_PATCH: &[u8] = fixture!("codex/pre-tool-use-apply-patch.json");
const GEMINI_SHELL: &[u8] = fixture!("gemini/before-tool-run-shell-command.json");
const GEMINI_READ: &[u8] = fixture!("gemini/before-tool-read-file.json");
const CURSOR_SHELL: &[u8] = fixture!("cursor/before-shell-execution.json");

const ROUTED: &str = "aigent run npm-test";

fn event(client: Client, bytes: &[u8]) -> ShellEvent {
    read_event(client, bytes).expect("the fixture is a shell event")
}

fn decision(verdict: Verdict, reason: &str) -> Decision {
    Decision::new(verdict, reason)
}

fn routed(verdict: Verdict, reason: &str) -> Decision {
    Decision {
        rewritten_command: Some(ROUTED.to_string()),
        ..Decision::new(verdict, reason)
    }
}

/// stdout as JSON: exactly one object and a newline.
fn stdout_json(reply: &Reply) -> Value {
    assert!(reply.stdout.ends_with('\n'), "{:?}", reply.stdout);
    assert_eq!(reply.stdout.matches('\n').count(), 1, "{:?}", reply.stdout);
    let value: Value = serde_json::from_str(&reply.stdout).expect("stdout is JSON");
    assert!(value.is_object());
    value
}

fn assert_silent(reply: &Reply) {
    assert_eq!(reply, &Reply::silent());
}

// ---------------------------------------------------------------- reading

#[test]
fn claude_code_bash_event_is_read_whole() {
    let event = event(Client::ClaudeCode, CLAUDE_BASH);
    assert_eq!(event.client, Client::ClaudeCode);
    assert_eq!(event.event_name.as_deref(), Some("PreToolUse"));
    assert_eq!(event.session_id.as_deref(), Some("abc123"));
    assert_eq!(event.tool_name.as_deref(), Some("Bash"));
    assert_eq!(event.tool_use_id.as_deref(), Some("toolu_01ABC123"));
    assert_eq!(event.command, "npm test");
    assert_eq!(event.cwd, Some(PathBuf::from("/home/user/my-project")));
    assert_eq!(
        event.tool_input,
        json!({
            "command": "npm test",
            "description": "Run test suite",
            "timeout": 120000,
            "run_in_background": false
        })
    );
}

#[test]
fn codex_bash_event_is_read_whole() {
    let event = event(Client::Codex, CODEX_BASH);
    assert_eq!(event.event_name.as_deref(), Some("PreToolUse"));
    assert_eq!(
        event.session_id.as_deref(),
        Some("019a3c5e-7f2b-7c11-9d4e-2b8f6a1c0d3e")
    );
    assert_eq!(event.tool_name.as_deref(), Some("Bash"));
    assert_eq!(event.tool_use_id.as_deref(), Some("call_Q2x9b7LmN4"));
    assert_eq!(event.command, "cargo test --lib");
    assert_eq!(event.tool_input, json!({ "command": "cargo test --lib" }));
}

/// `exec_command`'s `shell` and `workdir`, should Codex pass them to the
/// hook: a shell other than bash is refused, a workdir is where it runs.
#[test]
fn codex_shell_other_than_bash_is_refused_and_workdir_is_followed() {
    let with = |input: Value| {
        let event = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/home/user/p", "tool_input": input});
        read_event(Client::Codex, event.to_string().as_bytes())
    };
    for shell in ["bash", "/bin/bash", "/opt/homebrew/bin/bash"] {
        assert!(
            with(json!({"command": "ls", "shell": shell})).is_ok(),
            "{shell}"
        );
    }
    for shell in [
        "/bin/sh",
        "dash",
        "zsh",
        "/usr/bin/pwsh",
        "bash5",
        "/tmp/bash/sh",
    ] {
        let error = with(json!({"command": "ls", "shell": shell})).unwrap_err();
        assert_eq!(error.rule(), "shell_not_bash", "{shell}");
        assert!(error.to_string().contains("not bash"), "{error}");
    }
    let error = with(json!({"command": "ls", "shell": "/tmp/x y;z"})).unwrap_err();
    assert!(!error.to_string().contains("x y;z"), "{error}");
    assert_eq!(
        with(json!({"command": "ls", "shell": 3}))
            .unwrap_err()
            .rule(),
        "event_wrong_type"
    );
    let event = with(json!({"command": "ls", "workdir": "sub"})).unwrap();
    assert_eq!(event.cwd, Some(PathBuf::from("/home/user/p/sub")));
    let event = with(json!({"command": "ls", "workdir": "/srv"})).unwrap();
    assert_eq!(event.cwd, Some(PathBuf::from("/srv")));
    let event = with(json!({"command": "ls"})).unwrap();
    assert_eq!(event.cwd, Some(PathBuf::from("/home/user/p")));
}

#[test]
fn gemini_event_runs_in_its_dir_path() {
    let event = event(Client::Gemini, GEMINI_SHELL);
    assert_eq!(event.event_name.as_deref(), Some("BeforeTool"));
    assert_eq!(
        event.session_id.as_deref(),
        Some("8f14e45f-ceea-4e4c-9c1b-2f6d0a7e5b31")
    );
    assert_eq!(event.tool_name.as_deref(), Some("run_shell_command"));
    assert_eq!(event.command, "git status --short");
    assert_eq!(
        event.cwd,
        Some(PathBuf::from("/home/user/my-project/packages/core"))
    );
    assert_eq!(gemini::run_dir(None, Some("/srv")), Some("/srv".into()));
    assert_eq!(
        gemini::run_dir(Some(Path::new("/a")), None),
        Some("/a".into())
    );
    assert_eq!(gemini::run_dir(None, Some("rel")), None);
}

#[test]
fn cursor_event_is_flat() {
    let event = event(Client::Cursor, CURSOR_SHELL);
    assert_eq!(event.event_name.as_deref(), Some("beforeShellExecution"));
    assert_eq!(
        event.session_id.as_deref(),
        Some("5b0f6c1e-2d4a-4f8e-9a3b-7c1d2e3f4a5b")
    );
    assert_eq!(event.tool_name, None);
    assert_eq!(event.command, "npm install express");
    assert_eq!(event.cwd, Some(PathBuf::from("/home/user/my-project")));
    assert_eq!(
        event.tool_input,
        json!({ "command": "npm install express", "cwd": "/home/user/my-project" })
    );
}

#[test]
fn tools_that_are_not_shells_are_refused_by_name() {
    let cases = [
        (Client::ClaudeCode, CLAUDE_WRITE, "`Write`"),
        (Client::Codex, CODEX_PATCH, "`apply_patch`"),
        (Client::Gemini, GEMINI_READ, "`read_file`"),
    ];
    for (client, bytes, shown) in cases {
        let error = read_event(client, bytes).unwrap_err();
        assert_eq!(error.rule(), "tool_not_shell");
        assert!(error.to_string().contains(shown), "{error}");
    }
}

#[test]
fn powershell_is_not_judged_as_a_posix_shell() {
    let input = json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "PowerShell",
        "tool_input": { "command": "Remove-Item -Recurse -Force C:\\" }
    });
    let error = read_event(Client::ClaudeCode, input.to_string().as_bytes()).unwrap_err();
    assert!(matches!(error, EventError::NotShell { .. }), "{error}");
}

#[test]
fn an_unknown_tool_with_a_command_is_judged_as_a_shell() {
    for (client, event_name) in [
        (Client::ClaudeCode, "PreToolUse"),
        (Client::Codex, "PreToolUse"),
        (Client::Gemini, "BeforeTool"),
    ] {
        let input = json!({
            "hook_event_name": event_name,
            "tool_name": "mcp__box__exec",
            "tool_input": { "command": "rm -rf /", "cwd": "/" }
        });
        let event = read_event(client, input.to_string().as_bytes()).unwrap();
        assert_eq!(event.command, "rm -rf /");
        let without = json!({
            "hook_event_name": event_name,
            "tool_name": "mcp__box__list",
            "tool_input": { "path": "/" }
        });
        let error = read_event(client, without.to_string().as_bytes()).unwrap_err();
        assert!(matches!(error, EventError::NotShell { .. }), "{error}");
        let nameless = json!({ "tool_input": { "command": "ls" } });
        assert_eq!(
            read_event(client, nameless.to_string().as_bytes())
                .unwrap()
                .command,
            "ls"
        );
    }
}

#[test]
fn a_known_shell_tool_without_a_string_command_is_refused() {
    let cases = [
        (
            json!({ "tool_name": "Bash", "tool_input": {} }),
            EventError::MissingCommand,
        ),
        (json!({ "tool_name": "Bash" }), EventError::MissingCommand),
        (
            json!({ "tool_name": "Bash", "tool_input": { "command": ["rm", "-rf", "/"] } }),
            EventError::CommandNotString,
        ),
        (
            json!({ "tool_name": "Bash", "tool_input": { "command": "ls\u{0}; rm -rf /" } }),
            EventError::NulInCommand,
        ),
        (
            json!({ "tool_name": "Bash", "tool_input": "ls" }),
            EventError::WrongType {
                field: "tool_input",
                expected: "an object",
            },
        ),
        (
            json!({ "tool_name": 7, "tool_input": { "command": "ls" } }),
            EventError::WrongType {
                field: "tool_name",
                expected: "a string",
            },
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(
            read_event(Client::ClaudeCode, input.to_string().as_bytes()),
            Err(expected),
            "{input}"
        );
    }
    let cursor = json!({ "hook_event_name": "beforeShellExecution", "command": 12 });
    assert_eq!(
        read_event(Client::Cursor, cursor.to_string().as_bytes()),
        Err(EventError::CommandNotString)
    );
    assert_eq!(
        read_event(Client::Cursor, b"{\"cwd\": \"/tmp\"}"),
        Err(EventError::MissingCommand)
    );
}

#[test]
fn an_event_for_another_hook_is_refused() {
    let input = json!({
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": "ls" }
    });
    let error = read_event(Client::ClaudeCode, input.to_string().as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the event is `PostToolUse`, not PreToolUse, the event aigent's hook answers"
    );
    let cursor = json!({ "hook_event_name": "beforeMCPExecution", "command": "x" });
    assert!(matches!(
        read_event(Client::Cursor, cursor.to_string().as_bytes()),
        Err(EventError::UnexpectedEvent { .. })
    ));
}

#[test]
fn bad_bytes_are_errors_that_quote_nothing() {
    let secret = "hunter2-SECRET";
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "event_empty"),
        (b" \n\t".to_vec(), "event_empty"),
        (format!("{{\"command\": \"{secret}\"").into_bytes(), "event_malformed"),
        (secret.as_bytes().to_vec(), "event_malformed"),
        (format!("[\"{secret}\"]").into_bytes(), "event_not_object"),
        (format!("\"{secret}\"").into_bytes(), "event_not_object"),
        (b"{} {}".to_vec(), "event_malformed"),
        (b"{\"a\": 1} trailing".to_vec(), "event_malformed"),
        (
            [b"{\"tool_input\": {\"command\": \"".as_slice(), &[0xff, 0xfe], b"\"}}"].concat(),
            "event_not_utf8",
        ),
        (
            format!("{{\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"ls\",\"command\":\"{secret}\"}}}}")
                .into_bytes(),
            "event_malformed",
        ),
        (b"{\"a\": \"\\ud800\"}".to_vec(), "event_malformed"),
        (b"{\"a\": 1e999}".to_vec(), "event_malformed"),
    ];
    for (input, rule) in cases {
        for client in Client::ALL {
            let error = read_event(*client, &input).unwrap_err();
            assert_eq!(
                error.rule(),
                rule,
                "{client:?} {:?}",
                String::from_utf8_lossy(&input)
            );
            assert!(!error.to_string().contains(secret), "{error}");
        }
    }
    let duplicate = read_event(
        Client::ClaudeCode,
        br#"{"tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}"#,
    )
    .unwrap_err();
    assert!(
        duplicate.to_string().contains("a key appears twice"),
        "{duplicate}"
    );
}

#[test]
fn a_tool_name_that_is_not_a_name_is_not_shown() {
    let input = json!({
        "tool_name": "\u{1b}[31mEvil name with spaces",
        "tool_input": { "path": "/" }
    });
    let error = read_event(Client::ClaudeCode, input.to_string().as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the tool with an unusual name does not run a POSIX shell command line, and aigent's hook judges only those"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let depth = 10_000;
    let input = format!(
        "{{\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"ls\",\"x\":{}{}}}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let error = read_event(Client::ClaudeCode, input.as_bytes()).unwrap_err();
    assert_eq!(
        error,
        EventError::Malformed {
            problem: "nested more than 128 levels deep",
            line: 1,
            column: error_column(&error),
        }
    );
}

fn error_column(error: &EventError) -> usize {
    match error {
        EventError::Malformed { column, .. } => *column,
        _ => 0,
    }
}

#[test]
fn a_one_mebibyte_command_is_read_and_a_larger_event_refused() {
    let command = "echo ".to_string() + &"a".repeat(1024 * 1024);
    let input = json!({ "tool_name": "Bash", "tool_input": { "command": command } });
    let event = read_event(Client::ClaudeCode, input.to_string().as_bytes()).unwrap();
    assert_eq!(event.command.len(), command.len());

    let quoted = "\"".repeat(1024 * 1024);
    let input = json!({ "tool_name": "Bash", "tool_input": { "command": quoted } });
    assert!(input.to_string().len() > 2 * 1024 * 1024);
    assert!(read_event(Client::ClaudeCode, input.to_string().as_bytes()).is_ok());

    let oversize = vec![b' '; MAX_EVENT_BYTES + 1];
    assert_eq!(
        read_event(Client::Cursor, &oversize),
        Err(EventError::TooLarge {
            limit: MAX_EVENT_BYTES
        })
    );
}

#[test]
fn read_input_stops_one_byte_past_the_limit() {
    let exact = vec![b' '; MAX_EVENT_BYTES];
    assert_eq!(read_input(exact.as_slice()), Ok(exact.clone()));
    let endless = std::io::repeat(b'x');
    assert_eq!(
        read_input(endless),
        Err(EventError::TooLarge {
            limit: MAX_EVENT_BYTES
        })
    );
}

#[test]
fn an_unreadable_stdin_is_an_event_error_the_client_gets_as_a_refusal() {
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("the pipe broke"))
        }
    }
    let error = read_input(Broken).unwrap_err();
    assert_eq!(error.rule(), "event_unreadable");
    assert!(error.to_string().contains("the pipe broke"), "{error}");
}

#[test]
fn a_byte_order_mark_and_nulls_are_handled() {
    let mut input = "\u{feff}".as_bytes().to_vec();
    input.extend_from_slice(CURSOR_SHELL);
    assert_eq!(event(Client::Cursor, &input).command, "npm install express");
    let nulls =
        json!({ "tool_name": "Bash", "tool_input": { "command": "ls" }, "session_id": null });
    assert_eq!(
        event(Client::Codex, nulls.to_string().as_bytes()).session_id,
        None
    );
}

// ------------------------------------------------------------ Claude Code

#[test]
fn claude_code_replies() {
    let event = event(Client::ClaudeCode, CLAUDE_BASH);
    let allow = reply(
        Client::ClaudeCode,
        &decision(Verdict::Allow, "npm test matches `npm-test`"),
        Some(&event),
    );
    assert_eq!(allow.exit_code, 0);
    assert_eq!(allow.stderr, "");
    assert_eq!(
        stdout_json(&allow),
        json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "npm test matches `npm-test`"
        }})
    );

    let ask = reply(
        Client::ClaudeCode,
        &decision(Verdict::Ask, "`npm test` is destructive"),
        Some(&event),
    );
    assert_eq!((ask.exit_code, ask.stderr.as_str()), (0, ""));
    assert_eq!(
        stdout_json(&ask),
        json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "`npm test` is destructive"
        }})
    );

    let deny = reply(
        Client::ClaudeCode,
        &decision(Verdict::Deny, "segment 1: `curl` is not declared"),
        Some(&event),
    );
    assert_eq!(deny.exit_code, 2);
    assert_eq!(deny.stderr, "segment 1: `curl` is not declared\n");
    assert_eq!(
        stdout_json(&deny),
        json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "segment 1: `curl` is not declared"
        }})
    );

    assert_silent(&reply(
        Client::ClaudeCode,
        &decision(Verdict::Defer, "no rule"),
        Some(&event),
    ));
}

#[test]
fn claude_code_rewrite_keeps_every_other_field() {
    let event = event(Client::ClaudeCode, CLAUDE_BASH);
    let expected_input = json!({
        "command": ROUTED,
        "description": "Run test suite",
        "timeout": 120000,
        "run_in_background": false
    });
    for (verdict, name) in [(Verdict::Allow, "allow"), (Verdict::Ask, "ask")] {
        let reply = reply(Client::ClaudeCode, &routed(verdict, "routed"), Some(&event));
        assert_eq!(reply.exit_code, 0);
        assert_eq!(
            stdout_json(&reply),
            json!({ "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": name,
                "permissionDecisionReason": "routed",
                "updatedInput": expected_input
            }})
        );
    }
    let deny = reply(
        Client::ClaudeCode,
        &routed(Verdict::Deny, "no"),
        Some(&event),
    );
    assert!(!deny.stdout.contains("updatedInput"));
    assert_silent(&reply(
        Client::ClaudeCode,
        &routed(Verdict::Defer, ""),
        Some(&event),
    ));
}

#[test]
fn claude_code_allow_without_a_reason_omits_it() {
    let event = event(Client::ClaudeCode, CLAUDE_BASH);
    let allow = reply(
        Client::ClaudeCode,
        &decision(Verdict::Allow, "  "),
        Some(&event),
    );
    assert_eq!(
        stdout_json(&allow),
        json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow"
        }})
    );
}

// ------------------------------------------------------------------ Codex

#[test]
fn codex_replies() {
    let event = event(Client::Codex, CODEX_BASH);
    assert_silent(&reply(
        Client::Codex,
        &decision(Verdict::Allow, "matches `cargo-test`"),
        Some(&event),
    ));
    assert_silent(&reply(
        Client::Codex,
        &decision(Verdict::Defer, ""),
        Some(&event),
    ));

    let deny = reply(
        Client::Codex,
        &decision(Verdict::Deny, "`cargo test --lib` is not declared"),
        Some(&event),
    );
    assert_eq!(deny.exit_code, 2);
    assert_eq!(deny.stderr, "`cargo test --lib` is not declared\n");
    assert_eq!(
        stdout_json(&deny),
        json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "`cargo test --lib` is not declared"
        }})
    );

    let ask = reply(
        Client::Codex,
        &decision(Verdict::Ask, "`cargo-clean` is destructive"),
        Some(&event),
    );
    let expected = format!("`cargo-clean` is destructive\n\n{}", codex::ASK_SUFFIX);
    assert_eq!(ask.exit_code, 2);
    assert_eq!(ask.stderr, format!("{expected}\n"));
    assert_eq!(
        stdout_json(&ask),
        json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": expected
        }})
    );
    assert!(codex::ASK_SUFFIX.contains("Codex hooks cannot ask"));
}

#[test]
fn codex_rewrite_is_an_allow_with_updated_input() {
    let event = event(Client::Codex, CODEX_BASH);
    let allow = reply(
        Client::Codex,
        &routed(Verdict::Allow, "routed"),
        Some(&event),
    );
    assert_eq!((allow.exit_code, allow.stderr.as_str()), (0, ""));
    assert_eq!(
        stdout_json(&allow),
        json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": { "command": ROUTED }
        }})
    );
    // An ask cannot carry a rewrite: it is a deny.
    let ask = reply(Client::Codex, &routed(Verdict::Ask, "check"), Some(&event));
    assert_eq!(ask.exit_code, 2);
    assert!(!ask.stdout.contains("updatedInput"));
}

// ------------------------------------------------------------- Gemini CLI

#[test]
fn gemini_replies() {
    let event = event(Client::Gemini, GEMINI_SHELL);
    let allow = reply(
        Client::Gemini,
        &decision(Verdict::Allow, "ok"),
        Some(&event),
    );
    assert_eq!((allow.exit_code, allow.stderr.as_str()), (0, ""));
    assert_eq!(stdout_json(&allow), json!({ "decision": "allow" }));

    let ask = reply(
        Client::Gemini,
        &decision(Verdict::Ask, "`git push` writes to a remote"),
        Some(&event),
    );
    assert_eq!((ask.exit_code, ask.stderr.as_str()), (0, ""));
    assert_eq!(
        stdout_json(&ask),
        json!({ "decision": "ask", "systemMessage": "`git push` writes to a remote" })
    );

    let deny = reply(
        Client::Gemini,
        &decision(Verdict::Deny, "`git status --short` is not declared"),
        Some(&event),
    );
    assert_eq!((deny.exit_code, deny.stderr.as_str()), (0, ""));
    assert_eq!(
        stdout_json(&deny),
        json!({ "decision": "deny", "reason": "`git status --short` is not declared" })
    );

    assert_silent(&reply(
        Client::Gemini,
        &decision(Verdict::Defer, "x"),
        Some(&event),
    ));
}

#[test]
fn gemini_rewrite_replaces_the_tool_input_whole() {
    let event = event(Client::Gemini, GEMINI_SHELL);
    let expected_input = json!({
        "command": ROUTED,
        "description": "Show which files changed.",
        "dir_path": "packages/core"
    });
    let allow = reply(
        Client::Gemini,
        &routed(Verdict::Allow, "routed"),
        Some(&event),
    );
    assert_eq!(
        stdout_json(&allow),
        json!({
            "decision": "allow",
            "hookSpecificOutput": { "hookEventName": "BeforeTool", "tool_input": expected_input }
        })
    );
    let ask = reply(
        Client::Gemini,
        &routed(Verdict::Ask, "check it"),
        Some(&event),
    );
    assert_eq!(
        stdout_json(&ask),
        json!({
            "decision": "ask",
            "systemMessage": "check it",
            "hookSpecificOutput": { "hookEventName": "BeforeTool", "tool_input": expected_input }
        })
    );
}

// ----------------------------------------------------------------- Cursor

#[test]
fn cursor_replies() {
    let event = event(Client::Cursor, CURSOR_SHELL);
    let allow = reply(
        Client::Cursor,
        &decision(Verdict::Allow, "ok"),
        Some(&event),
    );
    assert_eq!((allow.exit_code, allow.stderr.as_str()), (0, ""));
    assert_eq!(stdout_json(&allow), json!({ "permission": "allow" }));

    for (verdict, permission, reason) in [
        (Verdict::Ask, "ask", "`npm install` is destructive"),
        (
            Verdict::Deny,
            "deny",
            "`npm install express` is not declared",
        ),
        (Verdict::Defer, "ask", "no declaration for `npm`"),
    ] {
        let reply = reply(Client::Cursor, &decision(verdict, reason), Some(&event));
        assert_eq!((reply.exit_code, reply.stderr.as_str()), (0, ""));
        assert_eq!(
            stdout_json(&reply),
            json!({ "permission": permission, "user_message": reason, "agent_message": reason })
        );
    }
    let defer = reply(Client::Cursor, &decision(Verdict::Defer, ""), Some(&event));
    assert!(
        stdout_json(&defer)["user_message"]
            .as_str()
            .unwrap()
            .contains("cannot defer")
    );
}

#[test]
fn cursor_cannot_rewrite_so_the_verdict_goes_alone() {
    let event = event(Client::Cursor, CURSOR_SHELL);
    let allow = reply(
        Client::Cursor,
        &routed(Verdict::Allow, "routed"),
        Some(&event),
    );
    assert_eq!(stdout_json(&allow), json!({ "permission": "allow" }));
    assert!(!allow.stdout.contains(ROUTED));
}

// ----------------------------------------------------------- all clients

#[test]
fn an_unreadable_event_is_denied_in_every_protocol() {
    let bad = read_event(Client::ClaudeCode, b"{").unwrap_err();
    let deny = routed(Verdict::Deny, &bad.to_string());
    let reason = "the event is not valid JSON (it ends too early, line 1, column 1)";
    assert_eq!(deny.reason, reason);

    let claude = reply(Client::ClaudeCode, &deny, None);
    let codex = reply(Client::Codex, &deny, None);
    for pre_tool_use in [&claude, &codex] {
        assert_eq!(pre_tool_use.exit_code, 2);
        assert_eq!(pre_tool_use.stderr, format!("{reason}\n"));
        assert_eq!(
            stdout_json(pre_tool_use)["hookSpecificOutput"]["permissionDecision"],
            "deny"
        );
    }
    let gemini = reply(Client::Gemini, &deny, None);
    assert_eq!(
        stdout_json(&gemini),
        json!({ "decision": "deny", "reason": reason })
    );
    let cursor = reply(Client::Cursor, &deny, None);
    assert_eq!(
        stdout_json(&cursor),
        json!({ "permission": "deny", "user_message": reason, "agent_message": reason })
    );

    // Whatever the verdict handed in, no event means no allow.
    for client in Client::ALL {
        let reply = reply(*client, &routed(Verdict::Allow, ""), None);
        assert!(!reply.stdout.contains("allow"), "{client:?} {reply:?}");
        assert!(!reply.stdout.contains(ROUTED));
        assert!(!reply.stdout.is_empty());
    }
}

#[test]
fn reasons_are_bounded_and_stderr_is_terminal_safe() {
    let event = event(Client::ClaudeCode, CLAUDE_BASH);
    let long = "é".repeat(MAX_REASON_BYTES);
    let deny = reply(
        Client::ClaudeCode,
        &decision(Verdict::Deny, &long),
        Some(&event),
    );
    let shown = stdout_json(&deny)["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.len() <= MAX_REASON_BYTES, "{}", shown.len());
    assert!(shown.ends_with("(truncated)"));

    let escape = reply(
        Client::Codex,
        &decision(Verdict::Deny, "bad \u{1b}]0;title\u{7} and\nmore"),
        Some(&event),
    );
    assert_eq!(escape.stderr, "bad \u{fffd}]0;title\u{fffd} and\nmore\n");
}

#[test]
fn an_empty_reason_gets_a_fallback_where_one_is_shown() {
    let event = event(Client::Codex, CODEX_BASH);
    let deny = reply(Client::Codex, &decision(Verdict::Deny, ""), Some(&event));
    assert_eq!(deny.stderr, format!("{DENY_FALLBACK}\n"));
    let ask = reply(Client::Codex, &decision(Verdict::Ask, ""), Some(&event));
    assert_eq!(ask.stderr, format!("{}\n", codex::ASK_SUFFIX));
}

// --------------------------------------------------------------- proptest

/// Arbitrary JSON, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| json!(n)),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("Bash"),
            Just("run_shell_command"),
            Just("PreToolUse"),
            Just("BeforeTool"),
            Just("beforeShellExecution"),
            Just("apply_patch"),
        ]
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("command".to_string()),
                        Just("tool_name".to_string()),
                        Just("tool_input".to_string()),
                        Just("hook_event_name".to_string()),
                        Just("cwd".to_string()),
                        Just("dir_path".to_string()),
                        "[a-z_]{1,8}",
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

fn verdict() -> impl Strategy<Value = Verdict> {
    prop_oneof![
        Just(Verdict::Allow),
        Just(Verdict::Defer),
        Just(Verdict::Ask),
        Just(Verdict::Deny)
    ]
}

/// Whatever `read_event` makes of the input, `reply` answers with one JSON
/// object or nothing, and a deny never exits 0 silently.
fn check_round_trip(client: Client, input: &[u8], verdict: Verdict) {
    let event = read_event(client, input);
    let decision = Decision {
        rewritten_command: Some("aigent run x".into()),
        ..Decision::new(verdict, "why")
    };
    let answer = reply(client, &decision, event.as_ref().ok());
    if !answer.stdout.is_empty() {
        let value: Value = serde_json::from_str(&answer.stdout).unwrap();
        assert!(value.is_object());
    }
    if event.is_err() || verdict == Verdict::Deny {
        assert!(!answer.stdout.is_empty() || answer.exit_code == 2);
    }
    if let Ok(event) = event {
        assert!(!event.command.contains('\0'));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn read_event_never_panics_on_bytes(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        client in prop::sample::select(Client::ALL),
        verdict in verdict(),
    ) {
        check_round_trip(client, &bytes, verdict);
    }

    #[test]
    fn read_event_never_panics_on_json(
        value in json_value(),
        client in prop::sample::select(Client::ALL),
        verdict in verdict(),
    ) {
        check_round_trip(client, value.to_string().as_bytes(), verdict);
    }

    #[test]
    fn shaped_events_round_trip(
        command in ".{0,64}",
        client in prop::sample::select(Client::ALL),
        verdict in verdict(),
        extra in json_value(),
    ) {
        let input = match client {
            Client::Cursor => json!({
                "hook_event_name": "beforeShellExecution",
                "command": command,
                "extra": extra,
            }),
            _ => json!({
                "hook_event_name": if client == Client::Gemini { "BeforeTool" } else { "PreToolUse" },
                "tool_name": if client == Client::Gemini { "run_shell_command" } else { "Bash" },
                "tool_input": { "command": command, "extra": extra },
            }),
        };
        let event = read_event(client, input.to_string().as_bytes());
        if command.contains('\0') {
            prop_assert_eq!(event, Err(EventError::NulInCommand));
        } else {
            let event = event.unwrap();
            prop_assert_eq!(&event.command, &command);
            check_round_trip(client, input.to_string().as_bytes(), verdict);
        }
    }
}
