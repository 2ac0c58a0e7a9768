//! Run-time policy through the binary: danger levels and confirmation, the
//! declared environment, secrets that stay off every command line and
//! output, declared timeouts, request and trace ids, and a child's group
//! ending with it. Real child processes record what they received.

use std::path::PathBuf;

use crate::common::{Run, Sandbox};
use serde_json::{Value, json};

/// A script that writes its arguments, a `---` line and its environment to
/// `record.out` in the sandbox.
fn recorder(sandbox: &Sandbox) -> PathBuf {
    let out = sandbox.join("record.out");
    sandbox.script(
        "bin/record.sh",
        &format!(
            "#!/bin/sh\n{{ printf '%s\\n' \"$@\"; echo ---; env; }} > '{}'\n",
            out.display()
        ),
    )
}

/// (argv lines, environment lines) the recorder saw.
fn recorded(sandbox: &Sandbox) -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(sandbox.join("record.out")).expect("the child ran");
    let (argv, env) = text.split_once("---\n").expect("separator");
    (
        argv.lines().map(str::to_owned).collect(),
        env.lines().map(str::to_owned).collect(),
    )
}

fn declare(sandbox: &Sandbox, name: &str, body: &str) {
    sandbox.write(format!("commands/{name}.yaml"), body);
}

fn aigent(sandbox: &Sandbox) -> assert_cmd::Command {
    let mut cmd = sandbox.cmd();
    cmd.arg("--commands").arg(sandbox.join("commands"));
    cmd
}

fn events(sandbox: &Sandbox) -> Vec<String> {
    std::fs::read_to_string(sandbox.audit_log())
        .unwrap_or_default()
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            record["event"].as_str().unwrap().to_owned()
        })
        .collect()
}

fn stderr_envelope(run: &Run) -> Value {
    let value = serde_json::from_str(&run.stderr)
        .unwrap_or_else(|err| panic!("stderr is not one JSON document ({err}):\n{run}"));
    crate::common::assert_valid_envelope(&value, &run.to_string());
    value
}

#[test]
fn a_destructive_command_is_refused_until_confirmed() {
    let sandbox = Sandbox::new();
    let script = recorder(&sandbox);
    declare(
        &sandbox,
        "wipe",
        &format!(
            "name: wipe\ndescription: Wipes a cache\ndanger_level: destructive\nparameters:\n  cache: {{type: string, pattern: '^[a-z]+$', required: true}}\nsubprocess: {{binary: '{}', argv: [wipe, {{param: cache}}]}}\n",
            script.display()
        ),
    );
    let refused =
        Run::of(aigent(&sandbox).args(["--output", "json", "run", "wipe", "--cache", "tmp"]));
    refused.assert_code(2);
    let envelope = stderr_envelope(&refused);
    assert_eq!(
        envelope["error"]["code"], "CONFIRMATION_REQUIRED",
        "{refused}"
    );
    // Refused before anything ran: the spec's validation phase.
    assert_eq!(envelope["error"]["phase"], "validation");
    assert_eq!(envelope["data"]["requires_confirmation"], true);
    // What would have run is shown (REQ-O-021).
    let argv = &envelope["data"]["argv"];
    assert_eq!(argv[1], "wipe");
    assert_eq!(argv[2], "tmp");
    assert!(!sandbox.join("record.out").exists(), "nothing may run");
    assert_eq!(events(&sandbox), ["COMMAND_CONFIRMATION_REFUSED"]);

    // A dry run needs no confirmation.
    Run::of(aigent(&sandbox).args(["run", "--dry-run", "wipe", "--cache", "tmp"])).assert_code(0);
    assert!(!sandbox.join("record.out").exists());

    let confirmed =
        Run::of(aigent(&sandbox).args(["run", "--confirm-destructive", "wipe", "--cache", "tmp"]));
    confirmed.assert_code(0);
    assert_eq!(recorded(&sandbox).0, ["wipe", "tmp"]);

    // The wire format says so, for agents that read declarations.
    let (_, shown) = sandbox.json(&[
        "--commands",
        sandbox.join("commands").to_str().unwrap(),
        "schema",
        "show",
        "wipe",
    ]);
    assert_eq!(shown["data"]["requires_confirmation"], true, "{shown}");
}

#[test]
fn the_child_gets_the_declared_environment_only() {
    let sandbox = Sandbox::new();
    let script = recorder(&sandbox);
    declare(
        &sandbox,
        "envy",
        &format!(
            "name: envy\ndescription: Shows its environment\ndanger_level: safe\nparameters:\n  level: {{type: enum, enum_values: [debug, info]}}\nsubprocess:\n  binary: '{}'\n  argv: [go]\n  env: {{LOG_LEVEL: {{param: level}}, PAGER: cat}}\n  env_pass: [AWS_PROFILE]\nsandbox: {{write: ['$CWD']}}\n",
            script.display()
        ),
    );
    let run = Run::of(
        aigent(&sandbox)
            .env("AIGENT_PARENT_SECRET", "do-not-leak")
            .env("BASH_ENV", "/tmp/evil.sh")
            .env("LD_LIBRARY_PATH", "/tmp/evil")
            .env("BASH_FUNC_x%%", "() { id; }")
            .env("AWS_PROFILE", "dev")
            .env("TOOL_TRACE_ID", "trace-7")
            .args(["--output", "json", "run", "envy", "--level", "info"]),
    );
    run.assert_code(0);
    let (_, env) = recorded(&sandbox);
    let has = |pair: &str| env.iter().any(|line| line == pair);
    assert!(has("LOG_LEVEL=info"), "{env:?}");
    assert!(has("PAGER=cat"), "{env:?}");
    assert!(has("AWS_PROFILE=dev"), "{env:?}");
    assert!(has("TOOL_TRACE_ID=trace-7"), "{env:?}");
    for leaked in [
        "AIGENT_PARENT_SECRET",
        "BASH_ENV",
        "LD_PRELOAD",
        "BASH_FUNC",
    ] {
        assert!(
            !env.iter().any(|line| line.starts_with(leaked)),
            "{leaked} reached the child: {env:?}"
        );
    }
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["meta"]["trace_id"], "trace-7");
    let records: Vec<Value> = std::fs::read_to_string(sandbox.audit_log())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    for record in &records {
        assert_eq!(record["trace_id"], "trace-7");
        assert_eq!(record["request_id"], envelope["meta"]["request_id"]);
    }
}

#[test]
fn a_secret_from_the_environment_or_a_file_is_never_shown() {
    let sandbox = Sandbox::new();
    let script = recorder(&sandbox);
    declare(
        &sandbox,
        "api",
        &format!(
            "name: api\ndescription: Calls an API\ndanger_level: safe\nparameters:\n  user: {{type: string, pattern: '^[a-z]+$', required: true}}\n  token: {{type: string, sensitive: true, required: true, pattern: '^[a-z0-9-]+$'}}\nsubprocess:\n  binary: '{}'\n  argv: [call, {{param: user}}]\n  env: {{API_TOKEN: {{param: token}}}}\nsandbox: {{write: ['$CWD']}}\n",
            script.display()
        ),
    );
    let secret = "s3cret-from-env";
    sandbox.write("token.txt", "s3cret-from-file\n");
    let outputs = [
        Run::of(aigent(&sandbox).env("MY_TOKEN", secret).args([
            "--output",
            "json",
            "run",
            "--value-from-env",
            "token=MY_TOKEN",
            "api",
            "--user",
            "ada",
        ])),
        Run::of(aigent(&sandbox).env("MY_TOKEN", secret).args([
            "run",
            "--dry-run",
            "--value-from-env",
            "token=MY_TOKEN",
            "api",
            "--json",
            r#"{"user": "ada"}"#,
        ])),
        Run::of(aigent(&sandbox).args([
            "--output",
            "json",
            "args",
            "check",
            "--value-from-file",
            "token=token.txt",
            "api",
            "--user",
            "ada",
        ])),
        // A value the guard refuses is still never echoed.
        Run::of(aigent(&sandbox).env("MY_TOKEN", "BAD VALUE;rm").args([
            "--output",
            "json",
            "run",
            "--value-from-env",
            "token=MY_TOKEN",
            "api",
            "--user",
            "ada",
        ])),
    ];
    assert_eq!(outputs[0].code, 0, "{}", outputs[0]);
    assert_eq!(outputs[1].code, 0, "{}", outputs[1]);
    assert_eq!(outputs[2].code, 0, "{}", outputs[2]);
    assert_eq!(outputs[3].code, 2, "{}", outputs[3]);
    let (argv, env) = recorded(&sandbox);
    assert_eq!(argv, ["call", "ada"]);
    assert!(
        env.iter()
            .any(|line| line == &format!("API_TOKEN={secret}")),
        "{env:?}"
    );
    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    for shown in outputs
        .iter()
        .flat_map(|run| [&run.stdout, &run.stderr])
        .chain([&log])
    {
        for value in [secret, "s3cret-from-file", "BAD VALUE"] {
            assert!(!shown.contains(value), "`{value}` was shown:\n{shown}");
        }
    }
}

#[test]
fn value_from_is_only_for_sensitive_parameters() {
    let sandbox = Sandbox::new();
    declare(
        &sandbox,
        "api",
        "name: api\ndescription: Calls\ndanger_level: safe\nparameters:\n  user: {type: string, pattern: '^[a-z]+$'}\n  token: {type: string, sensitive: true}\nsubprocess: {binary: 'true', argv: [{param: user}], env: {T: {param: token}}}\n",
    );
    for (args, expected) in [
        (
            vec!["--value-from-env", "user=HOME", "api"],
            "not declared sensitive",
        ),
        (
            vec!["--value-from-env", "nope=HOME", "api"],
            "declares no parameter `nope`",
        ),
        (
            vec!["--value-from-env", "token=AIGENT_UNSET_VARIABLE", "api"],
            "is not set",
        ),
        (vec!["--value-from-env", "token", "api"], "PARAM=VAR"),
        (
            vec!["--value-from-file", "token=missing.txt", "api"],
            "missing.txt",
        ),
        (
            vec![
                "--value-from-env",
                "token=HOME",
                "--allow-secret-argv",
                "api",
                "--token",
                "x",
            ],
            "give it once",
        ),
    ] {
        let run = Run::of(
            aigent(&sandbox)
                .args(["--output", "json", "run"])
                .args(&args),
        );
        run.assert_code(2);
        let envelope = stderr_envelope(&run);
        let message = envelope["error"]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{args:?}: {message}");
    }
}

#[test]
fn the_declared_timeout_applies_and_the_flag_overrides_it() {
    let sandbox = Sandbox::new();
    declare(
        &sandbox,
        "nap",
        "name: nap\ndescription: Sleeps\ndanger_level: safe\ntimeout_s: 0.5\nparameters: {}\nsubprocess: {binary: sleep, argv: ['30']}\n",
    );
    let run = Run::of(aigent(&sandbox).args(["--output", "json", "run", "nap"]));
    run.assert_code(10);
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["error"]["code"], "TIMEOUT");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("within 0.5s"),
        "{envelope}"
    );
    let run =
        Run::of(aigent(&sandbox).args(["--output", "json", "run", "--timeout", "0.2", "nap"]));
    run.assert_code(10);
    assert!(
        stderr_envelope(&run)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("within 0.2s")
    );
}

#[test]
fn background_processes_end_with_the_command() {
    let sandbox = Sandbox::new();
    let pid_file = sandbox.join("bg.pid");
    let script = sandbox.script(
        "bin/spawner.sh",
        &format!(
            "#!/bin/sh\nsleep 60 &\necho $! > '{}'\nexit 0\n",
            pid_file.display()
        ),
    );
    declare(
        &sandbox,
        "spawner",
        &format!(
            "name: spawner\ndescription: Leaves a process behind\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: '{}', argv: []}}\nsandbox: {{write: ['$CWD']}}\n",
            script.display()
        ),
    );
    Run::of(aigent(&sandbox).args(["run", "spawner"])).assert_code(0);
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let mut gone = false;
    for _ in 0..200 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        if stat.is_empty() || zombie {
            gone = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(gone, "the background process {pid} outlived the command");
}

#[test]
fn lint_flags_secrets_on_argv_and_agent_code_in_the_environment() {
    let sandbox = Sandbox::new();
    declare(
        &sandbox,
        "leaky",
        "name: leaky\ndescription: Puts a secret on the argv\ndanger_level: safe\nparameters:\n  token: {type: string, sensitive: true}\n  hook: {type: string, pattern: '^[a-z/.]+$'}\nsubprocess: {binary: tool, argv: [{param: token, flag: --token}], env: {LD_PRELOAD: {param: hook}, X: {param: nope}}}\n",
    );
    let (run, envelope) = sandbox.json(&[
        "--commands",
        sandbox.join("commands").to_str().unwrap(),
        "schema",
        "lint",
    ]);
    assert_ne!(run.code, 0, "{run}");
    let codes: Vec<&str> = envelope["data"]["files"][0]["diagnostics"]
        .as_array()
        .map(|diagnostics| {
            diagnostics
                .iter()
                .filter_map(|diagnostic| diagnostic["code"].as_str())
                .collect()
        })
        .unwrap_or_default();
    for code in ["W104", "E125", "E124"] {
        assert!(
            codes.contains(&code),
            "{code} missing from {codes:?}: {envelope}"
        );
    }
    assert_eq!(json!(codes.len()), json!(3), "{envelope}");
}

#[test]
fn the_result_file_can_never_replace_the_audit_log() {
    let sandbox = Sandbox::new();
    declare(
        &sandbox,
        "noop",
        "name: noop\ndescription: Nothing\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: 'true', argv: []}\n",
    );
    // One earlier record to lose.
    Run::of(aigent(&sandbox).args(["run", "noop"])).assert_code(0);
    let before = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    std::fs::create_dir_all(sandbox.join("link")).unwrap();
    std::os::unix::fs::symlink(sandbox.join("state"), sandbox.join("link/state")).unwrap();
    for result in [
        sandbox.audit_log(),
        sandbox.join("state/../state/audit.jsonl"),
        sandbox.join("link/state/audit.jsonl"),
    ] {
        let run = Run::of(
            aigent(&sandbox)
                .args(["--output", "json", "run", "--result"])
                .arg(&result)
                .arg("noop"),
        );
        run.assert_code(2);
        assert!(run.stderr.contains("is the audit log"), "{run}");
    }
    assert_eq!(
        std::fs::read_to_string(sandbox.audit_log()).unwrap(),
        before
    );
}
