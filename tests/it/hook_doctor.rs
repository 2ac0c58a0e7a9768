//! `aigent hook doctor`, install's warning about a missing program, and
//! `hook --headless`, through the binary (the real clients show the same in
//! `real_clients/`, when they are installed): an installed entry that runs
//! is healthy; one whose program is missing, not executable or not aigent
//! is broken (exit 1), with what the client does meanwhile; a headless
//! entry answers an ask as a deny that says how to approve.

use std::fs;
use std::io::Write;
use std::process::Stdio;

use serde_json::Value;

use crate::common::{Run, Sandbox};

const CLIENTS: [&str; 4] = ["claude-code", "codex", "gemini", "cursor"];

/// The binary in the sandbox's project directory `proj/`, with the
/// clients' own home overrides removed so nothing reaches the real home.
fn json(sandbox: &Sandbox, args: &[&str]) -> (Run, Value) {
    fs::create_dir_all(sandbox.join("proj")).unwrap();
    fs::create_dir_all(sandbox.join("home")).unwrap();
    let mut cmd = sandbox.cmd();
    cmd.current_dir(sandbox.join("proj"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .args(["--output", "json"])
        .args(args);
    let run = Run::of(&mut cmd);
    let envelope = run.envelope();
    (run, envelope)
}

fn install(sandbox: &Sandbox, client: &str, extra: &[&str]) -> (Run, Value) {
    let mut args = vec!["hook", "install", "--client", client];
    args.extend_from_slice(extra);
    let (run, envelope) = json(sandbox, &args);
    run.assert_code(0);
    (run, envelope)
}

fn doctor(sandbox: &Sandbox, client: &str) -> (Run, Value) {
    json(sandbox, &["hook", "doctor", "--client", client])
}

#[test]
fn an_installed_entry_that_runs_is_healthy_for_every_client() {
    let sandbox = Sandbox::new();
    for client in CLIENTS {
        install(&sandbox, client, &[]);
        let (run, envelope) = doctor(&sandbox, client);
        run.assert_code(0);
        assert_eq!(envelope["data"]["broken"], 0, "{run}");
        assert_eq!(envelope["data"]["entries"][0]["health"], "works", "{run}");
    }
    // Each probe is one decision in the audit log, told apart by its
    // session.
    let audit = fs::read_to_string(sandbox.audit_log()).unwrap();
    let probes = audit
        .lines()
        .filter(|line| line.contains("aigent-hook-doctor"))
        .count();
    assert_eq!(probes, CLIENTS.len(), "{audit}");
}

#[test]
fn a_missing_program_is_broken_and_install_warns_what_the_client_then_does() {
    for (client, consequence) in [
        ("claude-code", "runs every shell command unguarded"),
        ("codex", "runs every shell command unguarded"),
        ("cursor", "runs every shell command unguarded"),
        ("gemini", "blocks every shell command"),
    ] {
        let sandbox = Sandbox::new();
        let missing = sandbox.join("gone/aigent");
        let (run, envelope) = install(&sandbox, client, &["--program", missing.to_str().unwrap()]);
        // Only where a missing program leaves commands unguarded.
        assert_eq!(
            envelope.to_string().contains("goes missing"),
            client != "gemini",
            "{client}: {run}"
        );
        let (run, envelope) = doctor(&sandbox, client);
        run.assert_code(1);
        assert_eq!(envelope["error"]["code"], "VALIDATION_FAILED", "{run}");
        assert!(
            envelope["error"]["hints"][0]
                .as_str()
                .is_some_and(|hint| hint.contains("--replace")),
            "{run}"
        );
        let entry = &envelope["data"]["entries"][0];
        assert_eq!(entry["health"], "broken", "{run}");
        let detail = entry["checks"][0]["detail"].as_str().unwrap_or("");
        assert!(
            detail.contains("gone/aigent does not exist") && detail.contains(consequence),
            "{client}: {run}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_program_that_is_not_executable_or_not_the_hook_is_broken() {
    let sandbox = Sandbox::new();
    // Exists but cannot run.
    let plain = sandbox.write("bin/plain/aigent", "#!/bin/sh\nexit 0\n");
    install(
        &sandbox,
        "claude-code",
        &["--program", plain.to_str().unwrap()],
    );
    let (run, envelope) = doctor(&sandbox, "claude-code");
    run.assert_code(1);
    assert_eq!(envelope["data"]["entries"][0]["health"], "broken", "{run}");

    // Runs, but answers nothing: Claude Code would run every command.
    let silent = sandbox.script("bin/silent/aigent", "#!/bin/sh\ncat >/dev/null\nexit 0\n");
    install(
        &sandbox,
        "claude-code",
        &["--program", silent.to_str().unwrap(), "--replace"],
    );
    let (run, envelope) = doctor(&sandbox, "claude-code");
    run.assert_code(1);
    let entry = &envelope["data"]["entries"][0];
    assert_eq!(entry["health"], "broken", "{run}");
    assert!(
        entry["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|check| check["ok"] == false && check["name"] != "program"),
        "the probe's answer is what failed: {run}"
    );
}

#[test]
fn no_entry_is_not_found() {
    let sandbox = Sandbox::new();
    let (run, envelope) = doctor(&sandbox, "gemini");
    run.assert_code(5);
    assert!(
        envelope["error"]["hints"][0]
            .as_str()
            .is_some_and(|hint| hint.contains("aigent hook install --client gemini")),
        "{run}"
    );
}

/// A destructive declaration of a made-up program: the hook asks.
fn asking_registry(sandbox: &Sandbox) {
    sandbox.write(
        "registry/release-tool.json",
        r#"{"name": "release-tool", "description": "Publish a release", "danger_level": "destructive",
            "parameters": {"tag": {"type": "string", "required": true, "pattern": "^v[0-9]+$"}},
            "subprocess": {"binary": "release-tool", "argv": ["publish", {"param": "tag"}]}}"#,
    );
}

fn event(sandbox: &Sandbox, client: &str, command: &str) -> String {
    let cwd = sandbox.path();
    match client {
        "claude-code" => serde_json::json!({
            "session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_use_id": "t", "tool_input": {"command": command},
        }),
        "gemini" => serde_json::json!({
            "session_id": "s", "cwd": cwd, "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command", "tool_input": {"command": command},
        }),
        _ => unreachable!(),
    }
    .to_string()
}

fn hook(sandbox: &Sandbox, client: &str, command: &str, extra: &[&str]) -> Run {
    let mut cmd = sandbox.std_cmd();
    cmd.arg("--commands")
        .arg(sandbox.join("registry"))
        .args(["hook", "--client", client])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(event(sandbox, client, command).as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn last_decision(sandbox: &Sandbox) -> Value {
    let audit = fs::read_to_string(sandbox.audit_log()).unwrap();
    audit
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .rfind(|record| record["event"] == "HOOK_DECISION")
        .expect("a decision")
}

#[test]
fn a_headless_hook_sends_an_ask_as_a_deny_that_says_how_to_approve() {
    let sandbox = Sandbox::new();
    asking_registry(&sandbox);
    let line = "release-tool publish v1";

    // Gemini CLI: without --headless, its own confirmation (which hangs
    // `gemini -p`); with it, a deny the model reads.
    let run = hook(&sandbox, "gemini", line, &[]);
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(reply["decision"], "ask", "{run}");
    assert!(last_decision(&sandbox).get("sent_as").is_none());

    let run = hook(&sandbox, "gemini", line, &["--headless"]);
    run.assert_code(0);
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(reply["decision"], "deny", "{run}");
    let reason = reply["reason"].as_str().unwrap();
    assert!(
        reason.contains("aigent: ask `release-tool publish v1`")
            && reason.contains("no person can answer")
            && reason.contains("approve it in an interactive session"),
        "{reason}"
    );
    let record = last_decision(&sandbox);
    assert_eq!(record["verdict"], "ask", "{record}");
    assert_eq!(record["sent_as"], "deny", "{record}");

    // Claude Code: the deny is the JSON and exit 2.
    let run = hook(&sandbox, "claude-code", line, &["--headless"]);
    run.assert_code(2);
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"], "deny",
        "{run}"
    );
    assert!(run.stderr.contains("no person can answer"), "{run}");

    // An allow and a deny are unchanged.
    let run = hook(
        &sandbox,
        "gemini",
        "release-tool publish $(id)",
        &["--headless"],
    );
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(reply["decision"], "deny", "{run}");
    assert!(
        !reply["reason"]
            .as_str()
            .unwrap()
            .contains("no person can answer"),
        "{run}"
    );
}

#[test]
fn install_headless_writes_an_entry_that_runs_the_hook_headless() {
    let sandbox = Sandbox::new();
    let (run, envelope) = install(&sandbox, "gemini", &["--headless"]);
    let command = envelope["data"]["command"].as_str().unwrap();
    assert!(
        command.ends_with("hook --client gemini --headless"),
        "{run}"
    );
    let settings = fs::read_to_string(sandbox.join("proj/.gemini/settings.json")).unwrap();
    assert!(settings.contains("--headless"), "{settings}");
    // The doctor's probe goes through the headless entry as well.
    let (run, envelope) = doctor(&sandbox, "gemini");
    run.assert_code(0);
    assert_eq!(envelope["data"]["entries"][0]["health"], "works", "{run}");
}
