//! `aigent run`: real processes, in temp directories, with temp registries.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{Run, Sandbox};
use serde_json::{Value, json};

/// A registry directory in the sandbox holding `files` (name, contents).
fn registry(sandbox: &Sandbox, files: &[(&str, &str)]) -> PathBuf {
    for (name, contents) in files {
        sandbox.write(Path::new("commands").join(name), contents);
    }
    sandbox.join("commands")
}

const GREET: &str = r"
name: greet
description: Print a greeting
danger_level: safe
parameters:
  who: {type: string, required: true}
subprocess: {binary: echo, hardcoded_args: [hello], user_controlled_args: [who]}
";

/// Runs `aigent --commands DIR [--output FORMAT] run ARGS...`.
fn run_in(sandbox: &Sandbox, format: Option<&str>, args: &[&str]) -> Run {
    let mut cmd = sandbox.cmd();
    cmd.arg("--commands").arg(sandbox.join("commands"));
    if let Some(format) = format {
        cmd.arg("--output").arg(format);
    }
    Run::of(cmd.arg("run").args(args))
}

/// The envelope `run` wrote to stderr (the whole of stderr, in these tests,
/// whose children write nothing there).
fn stderr_envelope(run: &Run) -> Value {
    let value: Value = serde_json::from_str(&run.stderr)
        .unwrap_or_else(|err| panic!("stderr is not one JSON document ({err}):\n{run}"));
    assert_eq!(
        value["ok"] == Value::Bool(true),
        run.code == 0,
        "ok must match the exit code:\n{run}"
    );
    crate::common::assert_valid_envelope(&value, &run.to_string());
    value
}

/// The one `COMMAND_EXECUTED` record.
fn executed_record(sandbox: &Sandbox) -> Value {
    let mut executed: Vec<Value> = audit_records(sandbox)
        .into_iter()
        .filter(|record| record["event"] == "COMMAND_EXECUTED")
        .collect();
    assert_eq!(executed.len(), 1, "{executed:?}");
    executed.remove(0)
}

fn audit_records(sandbox: &Sandbox) -> Vec<Value> {
    match std::fs::read_to_string(sandbox.audit_log()) {
        Ok(text) => text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|err| panic!("{err}: {line}")))
            .collect(),
        Err(_) => Vec::new(),
    }
}

fn events(sandbox: &Sandbox) -> Vec<String> {
    audit_records(sandbox)
        .iter()
        .map(|record| record["event"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn echo_with_a_hardcoded_prefix_prints_the_expected_line() {
    let sandbox = Sandbox::new();
    registry(&sandbox, &[("greet.yaml", GREET)]);
    let run = run_in(&sandbox, Some("text"), &["greet", "--who", "world"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "hello world\n", "{run}");
    assert_eq!(run.stderr, "", "{run}");

    let records = audit_records(&sandbox);
    assert_eq!(records.len(), 2);
    // Written, durably, before the child started; then its outcome.
    assert_eq!(records[0]["event"], "COMMAND_STARTED");
    assert_eq!(records[0]["argv"], json!(["echo", "hello", "world"]));
    assert_eq!(records[0]["request_id"], records[1]["request_id"]);
    let record = &records[1];
    assert_eq!(record["event"], "COMMAND_EXECUTED");
    assert_eq!(record["command"], "greet");
    assert_eq!(record["argv"], json!(["echo", "hello", "world"]));
    assert_eq!(record["exit_code"], 0);
    assert!(record["duration_ms"].is_u64());
    assert!(record["timestamp"].as_str().unwrap().ends_with('Z'));
    assert!(record["pid"].is_u64() && record["child_pid"].is_u64());
}

#[test]
fn json_mode_keeps_stdout_for_the_child_and_puts_the_envelope_on_stderr() {
    let sandbox = Sandbox::new();
    registry(&sandbox, &[("greet.yaml", GREET)]);
    let run = run_in(&sandbox, Some("json"), &["greet", "--who", "world"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "hello world\n", "{run}");
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["error"], Value::Null);
    let data = &envelope["data"];
    assert_eq!(data["command"], "greet");
    assert_eq!(data["phase"], "execution");
    assert_eq!(data["argv"], json!(["echo", "hello", "world"]));
    assert_eq!(data["child_exit_code"], 0);
    assert!(data["duration_ms"].is_u64());
    assert!(envelope["meta"]["duration_ms"].is_u64());
}

#[test]
fn result_file_gets_the_envelope_and_the_streams_stay_the_childs() {
    let sandbox = Sandbox::new();
    registry(&sandbox, &[("greet.yaml", GREET)]);
    let result = sandbox.join("out/result.json");
    std::fs::create_dir_all(result.parent().unwrap()).unwrap();
    let result_arg = result.display().to_string();
    for format in ["json", "text"] {
        let run = run_in(
            &sandbox,
            Some(format),
            &["--result", &result_arg, "greet", "--who", "world"],
        );
        run.assert_code(0);
        assert_eq!(run.stdout, "hello world\n", "{run}");
        assert_eq!(run.stderr, "", "{run}");
        let envelope: Value =
            serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
        assert_eq!(envelope["ok"], true);
        assert_eq!(envelope["data"]["child_exit_code"], 0);
        std::fs::remove_file(&result).unwrap();
    }
    let leftovers: Vec<_> = std::fs::read_dir(result.parent().unwrap())
        .unwrap()
        .collect();
    assert!(leftovers.is_empty(), "no temporary files are left behind");

    let nowhere = sandbox
        .join("missing-dir/result.json")
        .display()
        .to_string();
    let run = run_in(
        &sandbox,
        Some("json"),
        &["--result", &nowhere, "greet", "--who", "x"],
    );
    run.assert_code(4);
    assert_eq!(run.stdout, "", "nothing ran:\n{run}");
    assert_eq!(stderr_envelope(&run)["error"]["code"], "RESULT_UNWRITABLE");
}

#[test]
fn injection_attempts_are_rejected_and_nothing_runs() {
    let sandbox = Sandbox::new();
    registry(&sandbox, &[("greet.yaml", GREET)]);
    let attempts = [
        "x; touch FILE",
        "$(touch FILE)",
        "`touch FILE`",
        "x && touch FILE",
    ];
    for attempt in attempts {
        let run = run_in(&sandbox, Some("json"), &["greet", "--who", attempt]);
        run.assert_code(2);
        assert_eq!(run.stdout, "", "{run}");
        let envelope = stderr_envelope(&run);
        assert_eq!(envelope["error"]["code"], "INVALID_AGENT_INPUT", "{run}");
        assert_eq!(envelope["error"]["phase"], "validation");
        assert_eq!(envelope["error"]["rejected_pattern"], "shell_metacharacter");
        assert_eq!(envelope["error"]["input_value"], attempt);

        // The same envelope as `args check` (apart from the timing), given
        // the same --commands, which the hints repeat.
        let check = Run::of(
            sandbox
                .cmd()
                .arg("--commands")
                .arg(sandbox.join("commands"))
                .args(["--output", "json", "args", "check"])
                .args(["greet", "--who", attempt]),
        );
        check.assert_code(2);
        let mut checked = check.envelope();
        let mut ran = envelope.clone();
        for envelope in [&mut checked, &mut ran] {
            envelope["meta"]["duration_ms"] = json!(0);
            envelope["meta"]["request_id"] = json!("(differs per process)");
            envelope["meta"]["timestamp"] = json!("(differs per process)");
            envelope["meta"]["command"] = json!("(differs: run, args.check)");
            // `args check` runs under aigent's own limit; `run`'s is its
            // child's, and no child was started.
            if let Some(meta) = envelope["meta"].as_object_mut() {
                meta.remove("timeout_ms");
            }
        }
        assert_eq!(ran, checked);
    }
    assert!(!sandbox.join("FILE").exists());
    assert!(!sandbox.join("commands/FILE").exists());
    let events = events(&sandbox);
    assert_eq!(events.len(), attempts.len() * 2, "one record per rejection");
    assert!(
        events
            .iter()
            .all(|event| event == "TOOL_ARG_VALIDATION_FAILURE"),
        "{events:?}"
    );
}

#[test]
fn no_shell_reads_the_argv() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "literal.yaml",
            r"
name: literal
description: Metacharacters in hardcoded arguments reach the program as they are
danger_level: safe
parameters: {}
subprocess: {binary: echo, hardcoded_args: ['$(touch FILE)', '; touch FILE', '`touch FILE`', '*', '$HOME'], user_controlled_args: []}
",
        )],
    );
    sandbox.write("a.txt", "");
    let run = run_in(&sandbox, Some("text"), &["literal"]);
    run.assert_code(0);
    assert_eq!(
        run.stdout, "$(touch FILE) ; touch FILE `touch FILE` * $HOME\n",
        "{run}"
    );
    assert!(!sandbox.join("FILE").exists());
}

#[test]
fn a_leading_dash_is_option_injection_unless_allowed() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[
            ("greet.yaml", GREET),
            (
                "flagged.yaml",
                r"
name: flagged
description: Echo with a flag the caller may choose
danger_level: safe
parameters:
  flag: {type: string, required: true, allow_leading_dash: true}
  word: {type: string, required: true}
subprocess: {binary: echo, hardcoded_args: [], user_controlled_args: [flag, word]}
",
            ),
        ],
    );
    let run = run_in(&sandbox, Some("json"), &["greet", "--who", "-n"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["error"]["rejected_pattern"], "option_injection");
    assert_eq!(envelope["error"]["field"], "who");

    let run = run_in(
        &sandbox,
        Some("text"),
        &["flagged", "--flag", "-n", "--word", "hi"],
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "hi", "echo read -n as its option:\n{run}");
}

#[test]
fn a_childs_exit_status_comes_back() {
    let sandbox = Sandbox::new();
    let script = sandbox.write("commands/exit3.sh", "exit 4\n");
    registry(
        &sandbox,
        &[(
            "fail.yaml",
            &format!(
                "name: fail\ndescription: Exit 3\ndanger_level: mutating\nparameters: {{}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}\n",
                script.display()
            ),
        )],
    );
    // The child's 4 is reported, never passed through: aigent's own 4
    // means a broken declaration. Any failing status makes aigent exit 3.
    let run = run_in(&sandbox, Some("json"), &["fail"]);
    run.assert_code(3);
    let envelope = stderr_envelope(&run);
    let error = &envelope["error"];
    assert_eq!(error["code"], "COMMAND_FAILED");
    assert_eq!(error["phase"], "execution");
    assert_eq!(error["child_exit_code"], 4);
    assert_eq!(error["child_exit"], Value::Null);
    assert_eq!(envelope["data"]["child_exit_code"], 4);
    assert_eq!(executed_record(&sandbox)["exit_code"], 4);

    let run = run_in(&sandbox, Some("text"), &["fail"]);
    run.assert_code(3);
    assert!(run.stderr.contains("`fail` exited with status 4"), "{run}");
}

/// grep's contract: 1 is "no match", a success with its own name; grep's
/// own 2 is COMMAND_FAILED (exit 3), never aigent's ARG_ERROR (exit 2).
#[test]
fn declared_success_codes_and_names_reach_the_envelope() {
    let sandbox = Sandbox::new();
    let script = sandbox.write("commands/status.sh", "exit \"$1\"\n");
    registry(
        &sandbox,
        &[(
            "search.yaml",
            &format!(
                "name: search\ndescription: Exit with a status\ndanger_level: safe\nparameters:\n  status: {{type: integer, required: true}}\nsubprocess: {{binary: sh, argv: ['{}', {{param: status}}]}}\nsuccess_exit_codes: [0, 1]\nexit_codes:\n  0: {{name: MATCH, description: At least one line matched, side_effects: none}}\n  1: {{name: NO_MATCH, description: No line matched, side_effects: none}}\n  2: {{name: SEARCH_ERROR, description: A file could not be read, retryable: false, side_effects: none}}\n",
                script.display()
            ),
        )],
    );
    let _filters = crate::common::snapshot::settings(&sandbox).bind_to_scope();
    // 1 is NO_MATCH, a declared success: ok, child_exit_code 1.
    let run = run_in(&sandbox, Some("json"), &["search", "--status", "1"]);
    run.assert_code(0);
    insta::assert_json_snapshot!("declared_success_envelope", stderr_envelope(&run));

    // 2 is SEARCH_ERROR: COMMAND_FAILED, not retryable, named in the
    // message and in child_exit.
    let run = run_in(&sandbox, Some("json"), &["search", "--status", "2"]);
    run.assert_code(3);
    insta::assert_json_snapshot!("declared_failure_envelope", stderr_envelope(&run));

    // aigent's own 2 still means nothing ran.
    let run = run_in(&sandbox, Some("json"), &["search", "--status", "x"]);
    run.assert_code(2);
    assert_eq!(stderr_envelope(&run)["error"]["phase"], "validation");
}

/// A declaration `NAME` that runs `sh SCRIPT`, with SCRIPT in the registry.
fn script_command(sandbox: &Sandbox, name: &str, script: &str) {
    let path = sandbox.write(format!("commands/{name}.sh"), script);
    sandbox.write(
        format!("commands/{name}.yaml"),
        format!(
            "name: {name}\ndescription: Runs a script\ndanger_level: mutating\nparameters: {{}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}\n",
            path.display()
        ),
    );
}

/// Waits until `path` holds one pid per line, `count` of them.
fn read_pids(path: &Path, count: usize) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            let pids: Vec<i32> = text
                .lines()
                .filter_map(|line| line.trim().parse().ok())
                .collect();
            if pids.len() >= count {
                return pids;
            }
        }
        assert!(Instant::now() < deadline, "{} never filled", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether `pid` is gone. A killed process whose parent died is reaped by
/// init, which may take a moment; a zombie counts as gone.
fn gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        // SAFETY: kill(2) with signal 0 only checks for existence.
        let exists = unsafe { libc::kill(pid, 0) } == 0;
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(')')
                    .map(|(_, rest)| rest.trim_start().starts_with('Z'))
            })
            .unwrap_or(false);
        if !exists || zombie {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn timeout_kills_sleep_and_exits_10() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "nap.yaml",
            r"
name: nap
description: Sleep
danger_level: safe
parameters:
  seconds: {type: integer, required: true}
subprocess: {binary: sleep, hardcoded_args: [], user_controlled_args: [seconds]}
",
        )],
    );
    let started = Instant::now();
    let run = run_in(
        &sandbox,
        Some("json"),
        &["--timeout", "1", "nap", "--seconds", "10"],
    );
    let took = started.elapsed();
    run.assert_code(10);
    eprintln!("--timeout 1 on sleep 10 took {took:?}");
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["error"]["code"], "TIMEOUT");
    assert_eq!(envelope["error"]["phase"], "execution");
    assert_eq!(envelope["data"]["timed_out"], true);
    assert_eq!(envelope["data"]["child_signal"], 15);
    let record = &executed_record(&sandbox);
    assert_eq!(record["timed_out"], true);
    assert_eq!(record["signal"], 15);
    let child = i32::try_from(record["child_pid"].as_u64().unwrap()).unwrap();
    assert!(gone(child), "sleep ({child}) survived");
}

#[test]
fn timeout_leaves_no_orphan_in_the_group() {
    let sandbox = Sandbox::new();
    let pids = sandbox.join("pids");
    registry(&sandbox, &[]);
    // The script ignores SIGTERM, and so does its background sleep: only
    // the SIGKILL to the whole group ends them.
    script_command(
        &sandbox,
        "family",
        &format!(
            "trap '' TERM\nsleep 30 &\necho $! >> '{0}'\necho $$ >> '{0}'\nwait\n",
            pids.display()
        ),
    );
    let run = run_in(&sandbox, Some("json"), &["--timeout", "0.5", "family"]);
    run.assert_code(10);
    assert_eq!(stderr_envelope(&run)["data"]["child_signal"], 9);
    for pid in read_pids(&pids, 2) {
        assert!(gone(pid), "process {pid} of the group survived the timeout");
    }
}

/// A test run started as a background job (`cargo test &` from a script)
/// inherits SIGINT ignored, and so would aigent, which then rightly leaves
/// it ignored: give these tests' children the default disposition.
fn sigint_not_ignored() {
    // SAFETY: signal(2) setting the default action; no handler runs.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

#[test]
fn ctrl_c_is_forwarded_and_aigent_exits_130() {
    sigint_not_ignored();
    let sandbox = Sandbox::new();
    let pid_file = sandbox.join("child.pid");
    registry(&sandbox, &[]);
    script_command(
        &sandbox,
        "long",
        &format!("echo $$ > '{}'\nexec sleep 30\n", pid_file.display()),
    );
    let aigent = sandbox
        .std_cmd()
        .args(["--commands", "commands", "--output", "json", "run", "long"])
        // Its own group, so the test's SIGINT reaches aigent alone, as a
        // `kill -INT` would.
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let child = read_pids(&pid_file, 1)[0];
    let started = Instant::now();
    // SAFETY: kill(2) on the pid of a process this test spawned.
    assert_eq!(
        unsafe { libc::kill(i32::try_from(aigent.id()).unwrap(), libc::SIGINT) },
        0
    );
    let output = aigent.wait_with_output().unwrap();
    eprintln!("aigent ended {:?} after SIGINT", started.elapsed());
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    run.assert_code(130);
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["error"]["code"], "INTERRUPTED");
    assert_eq!(envelope["data"]["interrupted_by"], 2);
    assert_eq!(envelope["data"]["child_signal"], 2);
    assert!(gone(child), "the child ({child}) is still running");
    assert_eq!(executed_record(&sandbox)["interrupted_by"], 2);
}

#[test]
fn on_a_terminal_the_child_gets_it_and_ctrl_c_reaches_it() {
    use expectrl::{ControlCode, Expect, Session};
    sigint_not_ignored();

    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[
            (
                "readline.yaml",
                "name: readline\ndescription: Read one line\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: head, hardcoded_args: ['-n1'], user_controlled_args: []}\n",
            ),
            (
                "nap.yaml",
                "name: nap\ndescription: Sleep\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: sleep, hardcoded_args: ['30'], user_controlled_args: []}\n",
            ),
        ],
    );
    let session = |name: &str| {
        let mut cmd = sandbox.std_cmd();
        cmd.args([
            "--commands",
            "commands",
            "--output",
            "text",
            "--color",
            "never",
            "run",
            name,
        ]);
        let mut session = Session::spawn(cmd).unwrap();
        session.set_expect_timeout(Some(Duration::from_secs(10)));
        session
    };

    // The child reads the terminal: without the hand-over it would be
    // stopped by SIGTTIN and this would hang. (The pty does not echo, so
    // the line comes back from `head` alone.)
    let mut reading = session("readline");
    reading.send_line("typed by a person").unwrap();
    reading.expect("typed by a person").unwrap();
    let status = reading.get_process().wait().unwrap();
    assert!(format!("{status:?}").ends_with(", 0)"), "{status:?}");

    let mut napping = session("nap");
    std::thread::sleep(Duration::from_millis(300));
    napping.send(ControlCode::EndOfText).unwrap();
    // Sandboxed (the default, best-effort) the child has a session of its
    // own, so the terminal's SIGINT reaches aigent, which passes it on.
    napping
        .expect(expectrl::Regex("killed by SIGINT|interrupted by SIGINT"))
        .unwrap();
    let status = napping.get_process().wait().unwrap();
    assert!(format!("{status:?}").ends_with(", 130)"), "{status:?}");
}

#[test]
fn dry_run_prints_the_argv_and_runs_nothing() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "make.yaml",
            r"
name: make
description: Create a file
danger_level: mutating
parameters:
  path: {type: string, required: true, pattern_type: filepath}
  token: {type: string, sensitive: true}
subprocess: {binary: touch, hardcoded_args: ['--'], user_controlled_args: [path, token]}
",
        )],
    );
    let run = run_in(
        &sandbox,
        Some("text"),
        &[
            "--dry-run",
            "--allow-secret-argv",
            "make",
            "--path",
            "made by me.txt",
            "--token",
            "t0ken",
        ],
    );
    run.assert_code(0);
    assert!(
        run.stdout
            .ends_with("\ntouch -- 'made by me.txt' '[REDACTED]'\n"),
        "{run}"
    );
    assert!(run.stdout.contains("nothing was executed"), "{run}");

    let run = run_in(
        &sandbox,
        Some("json"),
        &["--dry-run", "make", "--path", "made.txt"],
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "", "{run}");
    let mut envelope = stderr_envelope(&run);
    // What is inherited depends on the machine: names only, never values.
    let inherited = envelope["data"]["env"]["inherited"].take();
    assert!(
        inherited.as_array().unwrap().contains(&json!("PATH")),
        "{inherited}"
    );
    // The sandbox a run would get; what this kernel enforces varies.
    let sandbox_plan = envelope["data"]
        .as_object_mut()
        .unwrap()
        .remove("sandbox")
        .unwrap();
    assert_eq!(sandbox_plan["mode"], "best-effort", "{sandbox_plan}");
    assert_eq!(sandbox_plan["network"], "none", "{sandbox_plan}");
    assert_eq!(
        envelope["data"],
        json!({
            "command": "make",
            "argv": ["touch", "--", "made.txt"],
            "env": {"set": {}, "inherited": null, "defaults": {
                "PAGER": "cat", "GIT_PAGER": "cat", "MANPAGER": "cat", "LESS": "-F -X -R",
                "MORE": "", "EDITOR": "false", "VISUAL": "false", "GIT_EDITOR": "false",
                "GIT_TERMINAL_PROMPT": "0", "NO_COLOR": "1", "CI": "1", "LC_ALL": "C",
            }},
            "timeout_ms": 600_000,
            "dry_run": true,
            "effect": "would_run",
            "would_affect": {"command": "make", "argv": ["touch", "--", "made.txt"]},
        })
    );
    assert!(!sandbox.join("made.txt").exists());
    assert!(!sandbox.join("made by me.txt").exists());
    assert!(
        !sandbox.audit_log().exists(),
        "a dry run writes no COMMAND_EXECUTED record"
    );
}

#[test]
fn an_unwritable_audit_log_means_exit_4_and_nothing_runs() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "make.yaml",
            "name: make\ndescription: Create a file\ndanger_level: mutating\nparameters: {}\nsubprocess: {binary: touch, hardcoded_args: [made.txt], user_controlled_args: []}\n",
        )],
    );
    // A path below a regular file cannot be created, even by root.
    sandbox.write("not-a-dir", "");
    sandbox.write("state/a-dir/x", "");
    for log in ["not-a-dir/audit.jsonl", "state/a-dir"] {
        let log = sandbox.join(log).display().to_string();
        let run = run_in(&sandbox, Some("json"), &["--audit-log", &log, "make"]);
        run.assert_code(4);
        assert_eq!(
            stderr_envelope(&run)["error"]["code"],
            "AUDIT_LOG_UNWRITABLE"
        );
        assert!(!sandbox.join("made.txt").exists(), "it ran:\n{run}");
        // The same through the environment.
        let run = Run::of(sandbox.cmd().env("AIGENT_AUDIT_LOG", &log).args([
            "--commands",
            "commands",
            "--output",
            "text",
            "run",
            "make",
        ]));
        run.assert_code(4);
        assert!(run.stderr.contains("nothing was run"), "{run}");
        assert!(!sandbox.join("made.txt").exists(), "it ran:\n{run}");
    }
    // And with a good log it does run.
    run_in(&sandbox, Some("json"), &["make"]).assert_code(0);
    assert!(sandbox.join("made.txt").exists());
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(status.success());
}

/// Runs with a bound on the wait, so that a regression (an open that
/// blocks on a FIFO) fails instead of hanging the suite.
fn bounded(cmd: &mut assert_cmd::Command) -> Run {
    Run::of(cmd.timeout(Duration::from_secs(60)))
}

#[test]
fn a_fifo_or_a_hard_linked_audit_log_is_refused_without_hanging() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "make.yaml",
            "name: make\ndescription: Create a file\ndanger_level: mutating\nparameters: {}\nsubprocess: {binary: touch, hardcoded_args: [made.txt], user_controlled_args: []}\n",
        )],
    );
    let fifo = sandbox.join("audit.fifo");
    mkfifo(&fifo);
    let other = sandbox.write("elsewhere.txt", "keep\n");
    let linked = sandbox.join("linked.jsonl");
    std::fs::hard_link(&other, &linked).unwrap();
    for log in [&fifo, &linked] {
        let log = log.display().to_string();
        let mut cmd = sandbox.cmd();
        cmd.args([
            "--commands",
            "commands",
            "--output",
            "json",
            "run",
            "--audit-log",
            &log,
            "make",
        ]);
        let run = bounded(&mut cmd);
        run.assert_code(4);
        assert_eq!(
            stderr_envelope(&run)["error"]["code"],
            "AUDIT_LOG_UNWRITABLE"
        );
        assert!(!sandbox.join("made.txt").exists(), "it ran:\n{run}");

        // `args check` keeps its result and warns.
        let mut cmd = sandbox.cmd();
        cmd.args([
            "--output",
            "json",
            "args",
            "check",
            "--audit-log",
            &log,
            "files-get",
            "--file-id",
            "../x",
        ]);
        let run = bounded(&mut cmd);
        run.assert_code(2);
        let envelope = run.envelope();
        assert!(
            envelope["warnings"][0]
                .as_str()
                .unwrap()
                .contains("audit record was not written"),
            "{run}"
        );
    }
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep\n");
}

#[test]
fn a_command_string_smuggled_through_env_split_string_never_runs() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[
            (
                "s1.json",
                r#"{"name":"s1","description":"x","danger_level":"mutating","parameters":{"cmd":{"type":"string"}},
                    "subprocess":{"binary":"/usr/bin/env","hardcoded_args":["-S","bash -c"],"user_controlled_args":["cmd"]}}"#,
            ),
            (
                "s2.json",
                r#"{"name":"s2","description":"x","danger_level":"mutating","parameters":{"cmd":{"type":"string"}},
                    "subprocess":{"binary":"env","hardcoded_args":["--split-string=sh -c"],"user_controlled_args":["cmd"]}}"#,
            ),
        ],
    );
    for name in ["s1", "s2"] {
        let run = run_in(&sandbox, Some("json"), &[name, "--cmd", "touch pwned"]);
        run.assert_code(4);
        assert_eq!(
            stderr_envelope(&run)["error"]["code"],
            "INVALID_DECLARATION"
        );
        assert!(!sandbox.join("pwned").exists(), "it ran:\n{run}");
    }
}

#[test]
fn an_input_schema_default_that_breaks_its_own_rules_never_reaches_the_argv() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "d.json",
            r#"{"name":"d","description":"x","danger_level":"mutating","input_schema":{"type":"object","properties":{
                "p":{"type":"string","x-aigent-pattern-type":"resource_id","default":"../etc;rm"},
                "q":{"type":"string","default":"-rf"},"n":{"type":"integer","default":"notanint"}}},
                "subprocess":{"binary":"echo","hardcoded_args":[],"user_controlled_args":["p","q","n"]}}"#,
        )],
    );
    let run = run_in(&sandbox, Some("json"), &["--dry-run", "d"]);
    run.assert_code(4);
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["error"]["code"], "INVALID_DECLARATION");
    assert!(!run.stderr.contains("\"argv\""), "{run}");
}

#[test]
fn a_sensitive_value_never_reaches_the_log_and_the_log_is_private() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "login.yaml",
            r"
name: login
description: Log in
danger_level: safe
parameters:
  user: {type: string, required: true, pattern_type: alphanumeric_id}
  token: {type: string, required: true, sensitive: true, pattern: '^[a-z0-9-]+$'}
subprocess: {binary: echo, hardcoded_args: [login], user_controlled_args: [user, token]}
",
        )],
    );
    let secret = "s3cr3t-t0ken-value";
    let run = run_in(
        &sandbox,
        Some("json"),
        &[
            "--allow-secret-argv",
            "login",
            "--user",
            "ada",
            "--token",
            secret,
        ],
    );
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        format!("login ada {secret}\n"),
        "the child gets it"
    );
    assert!(!run.stderr.contains(secret), "{run}");
    let envelope = stderr_envelope(&run);
    assert_eq!(
        envelope["data"]["argv"],
        json!(["echo", "login", "ada", "[REDACTED]"])
    );

    let rejected = "S3CRET-UPPER";
    run_in(
        &sandbox,
        Some("json"),
        &[
            "--allow-secret-argv",
            "login",
            "--user",
            "ada",
            "--token",
            rejected,
        ],
    )
    .assert_code(2);
    run_in(
        &sandbox,
        Some("json"),
        &[
            "--dry-run",
            "--allow-secret-argv",
            "login",
            "--user",
            "ada",
            "--token",
            secret,
        ],
    )
    .assert_code(0);

    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    assert!(!log.contains(secret), "{log}");
    assert!(!log.contains(rejected), "{log}");
    assert!(!log.contains("s3cr3t"), "{log}");
    assert_eq!(
        events(&sandbox),
        [
            "COMMAND_STARTED",
            "COMMAND_EXECUTED",
            "TOOL_ARG_VALIDATION_FAILURE"
        ]
    );
    let mode = std::fs::metadata(sandbox.audit_log())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn forty_concurrent_runs_leave_forty_whole_lines() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "bulk.yaml",
            r"
name: bulk
description: A long argv, so that records are larger than a pipe buffer
danger_level: safe
parameters:
  words: {type: array, required: true}
subprocess: {binary: 'true', hardcoded_args: [], user_controlled_args: [words]}
",
        )],
    );
    const RUNS: usize = 40;
    const REJECTIONS: usize = 10;
    let mut children = Vec::new();
    for index in 0..RUNS + REJECTIONS {
        let mut cmd = sandbox.std_cmd();
        cmd.args(["--commands", "commands", "--output", "json", "run", "bulk"]);
        for item in 0..8 {
            let word = format!("{index:02}-{item}-{}", "w".repeat(900));
            cmd.arg("--words").arg(word);
        }
        if index >= RUNS {
            cmd.arg("--words").arg("$(reject me)");
        }
        children.push(
            cmd.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
    }
    let mut codes: Vec<i32> = children
        .into_iter()
        .map(|mut child| child.wait().unwrap().code().unwrap_or(-1))
        .collect();
    codes.sort_unstable();
    assert_eq!(codes, [vec![0; RUNS], vec![2; REJECTIONS]].concat());

    let text = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Two records per run (started, executed), one per rejection.
    assert_eq!(lines.len(), 2 * RUNS + REJECTIONS);
    let mut executed = 0;
    for line in &lines {
        let record: Value = serde_json::from_str(line)
            .unwrap_or_else(|err| panic!("a torn line ({err}): {line:.200}"));
        if record["event"] == "COMMAND_EXECUTED" {
            executed += 1;
            assert_eq!(record["argv"].as_array().unwrap().len(), 9);
        }
    }
    assert_eq!(executed, RUNS);
    assert!(
        lines.iter().any(|line| line.len() > 4096),
        "records exceed PIPE_BUF"
    );
}

#[test]
fn a_binary_that_is_not_found_exits_5() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "ghost.yaml",
            "name: ghost\ndescription: Missing\ndanger_level: mutating\nparameters: {}\nsubprocess: {binary: aigent-no-such-binary, hardcoded_args: [], user_controlled_args: []}\n",
        )],
    );
    let run = run_in(&sandbox, Some("json"), &["ghost"]);
    run.assert_code(5);
    let envelope = stderr_envelope(&run);
    assert_eq!(envelope["error"]["code"], "BINARY_NOT_FOUND");
    assert_eq!(envelope["error"]["phase"], "execution");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`aigent-no-such-binary` was not found on PATH")
    );
    assert_eq!(
        events(&sandbox),
        ["COMMAND_STARTED", "COMMAND_SPAWN_FAILURE"]
    );

    let run = run_in(&sandbox, Some("text"), &["ghost"]);
    run.assert_code(5);
    assert!(run.stderr.contains("was not found on PATH"), "{run}");
}

#[test]
fn a_file_that_is_not_executable_exits_4() {
    let sandbox = Sandbox::new();
    let plain = sandbox.write("commands/plain.txt", "just text\n");
    registry(
        &sandbox,
        &[(
            "plain.yaml",
            &format!(
                "name: plain\ndescription: Not executable\ndanger_level: mutating\nparameters: {{}}\nsubprocess: {{binary: '{}', hardcoded_args: [], user_controlled_args: []}}\n",
                plain.display()
            ),
        )],
    );
    let run = run_in(&sandbox, Some("json"), &["plain"]);
    run.assert_code(4);
    assert_eq!(
        stderr_envelope(&run)["error"]["code"],
        "BINARY_NOT_EXECUTABLE"
    );
}

#[test]
fn a_shell_with_dash_c_is_refused_at_load_and_nothing_runs() {
    let sandbox = Sandbox::new();
    let cases = [
        ("sh", "-c"),
        ("bash", "-c"),
        ("/usr/bin/zsh", "-c"),
        ("dash", "-ec"),
        ("fish", "--command"),
        ("cmd.exe", "/C"),
        ("powershell", "-Command"),
        ("pwsh", "-c"),
    ];
    for (index, (shell, flag)) in cases.iter().enumerate() {
        let name = format!("shell-{index}");
        sandbox.write(
            format!("commands/{name}.yaml"),
            format!(
                "name: {name}\ndescription: A shell\ndanger_level: mutating\nparameters: {{}}\nsubprocess: {{binary: '{shell}', hardcoded_args: ['{flag}', 'touch FILE'], user_controlled_args: []}}\n"
            ),
        );
        let run = run_in(&sandbox, Some("json"), &[&name]);
        run.assert_code(4);
        let envelope = stderr_envelope(&run);
        assert_eq!(envelope["error"]["code"], "INVALID_DECLARATION", "{run}");
        assert_eq!(envelope["error"]["errors"][0]["code"], "E115", "{run}");
    }
    // `env` in front does not hide it.
    sandbox.write(
        "commands/wrapped.yaml",
        "name: wrapped\ndescription: A shell behind env\ndanger_level: mutating\nparameters: {}\nsubprocess: {binary: env, hardcoded_args: [bash, -c, 'touch FILE'], user_controlled_args: []}\n",
    );
    run_in(&sandbox, Some("json"), &["wrapped"]).assert_code(4);
    assert!(!sandbox.join("FILE").exists());
    assert!(events(&sandbox).is_empty());
}

#[test]
fn a_declaration_without_a_subprocess_has_nothing_to_run() {
    let sandbox = Sandbox::new();
    registry(
        &sandbox,
        &[(
            "bare.yaml",
            "name: bare\ndescription: Nothing to run\ndanger_level: mutating\nparameters: {}\n",
        )],
    );
    let run = run_in(&sandbox, Some("json"), &["bare"]);
    run.assert_code(4);
    assert!(
        stderr_envelope(&run)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("declares no subprocess")
    );
}

#[test]
fn json_arguments_and_an_input_schema_command() {
    let sandbox = Sandbox::new();
    sandbox.write("notes.txt", "from the file\n");
    // The built-in `read_file` example: `cat -- PATH`.
    let run = Run::of(sandbox.cmd().args([
        "--output",
        "json",
        "run",
        "read_file",
        "--json",
        r#"{"path": "notes.txt"}"#,
    ]));
    run.assert_code(0);
    assert_eq!(run.stdout, "from the file\n", "{run}");
    assert_eq!(
        stderr_envelope(&run)["data"]["argv"],
        json!(["cat", "--", "notes.txt"])
    );
}

#[test]
fn usage_errors_of_run_put_the_envelope_on_stderr() {
    let sandbox = Sandbox::new();
    let run = Run::of(
        sandbox
            .cmd()
            .args(["--output", "json", "run", "--timeout", "0", "x"]),
    );
    run.assert_code(2);
    assert_eq!(run.stdout, "", "{run}");
    let json_start = run.stderr.find("{\n").expect("an envelope on stderr");
    let envelope: Value = serde_json::from_str(&run.stderr[json_start..]).unwrap();
    assert_eq!(envelope["error"]["code"], "ARG_ERROR");
}

#[test]
fn unknown_commands_exit_5() {
    let sandbox = Sandbox::new();
    registry(&sandbox, &[("greet.yaml", GREET)]);
    let run = run_in(&sandbox, Some("json"), &["greeet", "--who", "x"]);
    run.assert_code(5);
    assert_eq!(run.stdout, "");
    assert_eq!(stderr_envelope(&run)["error"]["code"], "NOT_FOUND");
}
