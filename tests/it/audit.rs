//! The audit log through the binary: `audit show` and `audit verify`, the
//! chain against tampering (an edited, a deleted, a reordered record and a
//! cut-off tail), 50 concurrent runs, rotation, and a file size limit that
//! must refuse the run instead of killing aigent.

use std::path::Path;

use serde_json::Value;

use crate::common::{Run, Sandbox, snapshot};

/// A declared command that runs `true`.
fn declare_noop(sandbox: &Sandbox) {
    sandbox.write(
        "commands/noop.yaml",
        "name: noop\ndescription: Does nothing\ndanger_level: safe\nparameters:\n  tag: {type: string, pattern: '^[a-z0-9]+$', required: true}\nsubprocess: {binary: 'true', argv: [{param: tag}]}\n",
    );
}

fn aigent(sandbox: &Sandbox) -> assert_cmd::Command {
    let mut cmd = sandbox.cmd();
    cmd.arg("--commands").arg(sandbox.join("commands"));
    cmd
}

/// `count` rejected calls of the built-in `deploy`, each one record.
fn write_rejections(sandbox: &Sandbox, count: usize) {
    for index in 0..count {
        Run::of(sandbox.cmd().args([
            "--output",
            "json",
            "args",
            "check",
            "deploy",
            "--cluster-id",
            &format!("../c{index}"),
            "--version",
            "1.2.3",
        ]))
        .assert_code(2);
    }
}

fn log_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn verify(sandbox: &Sandbox) -> (Run, Value) {
    sandbox.json(&["audit", "verify"])
}

#[test]
fn an_intact_log_verifies() {
    let sandbox = Sandbox::new();
    write_rejections(&sandbox, 3);
    let (run, envelope) = verify(&sandbox);
    run.assert_code(0);
    assert_eq!(envelope["data"]["intact"], true);
    assert_eq!(envelope["data"]["records"], 3);
    assert_eq!(envelope["data"]["head"]["seq"], 3);
    let text = sandbox.run(&["--output", "text", "audit", "verify"]);
    text.assert_code(0);
    assert!(
        text.stdout.contains("3 records in 1 file, chain intact"),
        "{text}"
    );
    assert!(text.stdout.contains("head: seq 3 sha256 "), "{text}");
}

#[test]
fn tampering_exits_1_naming_the_first_bad_line() {
    let sandbox = Sandbox::new();
    write_rejections(&sandbox, 5);
    let log = sandbox.audit_log();
    let original = log_lines(&log);
    type Tamper = Box<dyn Fn(&mut Vec<String>)>;
    let cases: [(&str, Tamper, u64, &str); 4] = [
        (
            "edited",
            Box::new(|lines| lines[1] = lines[1].replace("../c1", "../c7")),
            2,
            "edited",
        ),
        (
            "deleted",
            Box::new(|lines| drop(lines.remove(2))),
            3,
            "sequence",
        ),
        (
            "reordered",
            Box::new(|lines| lines.swap(3, 4)),
            4,
            "sequence",
        ),
        (
            "truncated",
            Box::new(|lines| {
                let last = lines.last_mut().unwrap();
                last.truncate(last.len() / 2);
            }),
            5,
            "truncated",
        ),
    ];
    for (name, tamper, line, problem) in cases {
        let mut lines = original.clone();
        tamper(&mut lines);
        let mut text = lines.join("\n");
        if name != "truncated" {
            text.push('\n');
        }
        std::fs::write(&log, text).unwrap();
        let (run, envelope) = verify(&sandbox);
        run.assert_code(1);
        let error = &envelope["error"];
        assert_eq!(error["code"], "AUDIT_CHAIN_BROKEN", "{name}: {run}");
        assert_eq!(error["line"], line, "{name}: {run}");
        assert_eq!(error["problem"], problem, "{name}: {run}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains(&format!("line {line} of ")),
            "{name}: {run}"
        );
        assert_eq!(envelope["data"]["intact"], false);
    }
    // The text form names the line on stderr.
    let run = sandbox.run(&["--output", "text", "audit", "verify"]);
    run.assert_code(1);
    assert!(run.stderr.contains("line 5 of"), "{run}");
    assert!(run.stderr.contains("cut short"), "{run}");
}

#[test]
fn fifty_concurrent_runs_keep_one_chain() {
    let sandbox = Sandbox::new();
    declare_noop(&sandbox);
    let children: Vec<std::process::Child> = (0..50)
        .map(|index| {
            sandbox
                .std_cmd()
                .arg("--commands")
                .arg(sandbox.join("commands"))
                .args([
                    "--output",
                    "json",
                    "run",
                    "noop",
                    "--tag",
                    &format!("t{index}"),
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let (run, envelope) = verify(&sandbox);
    run.assert_code(0);
    assert_eq!(envelope["data"]["records"], 100, "{run}");
    let lines = log_lines(&sandbox.audit_log());
    for (index, line) in lines.iter().enumerate() {
        let record: Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["seq"], index as u64 + 1);
    }
    // Each run's two records share its request id.
    let (_, shown) = sandbox.json(&[
        "audit",
        "show",
        "--event",
        "COMMAND_STARTED",
        "--limit",
        "0",
    ]);
    let started = shown["data"]["records"].as_array().unwrap();
    assert_eq!(started.len(), 50);
    let id = started[7]["request_id"].as_str().unwrap();
    let (_, same) = sandbox.json(&["audit", "show", "--request-id", id]);
    let events: Vec<&str> = same["data"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|record| record["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["COMMAND_STARTED", "COMMAND_EXECUTED"]);
}

#[test]
fn rotation_keeps_the_chain_across_files() {
    let sandbox = Sandbox::new();
    declare_noop(&sandbox);
    for index in 0..6 {
        Run::of(aigent(&sandbox).env("AIGENT_AUDIT_MAX_BYTES", "1K").args([
            "--output",
            "json",
            "run",
            "noop",
            "--tag",
            &format!("t{index}"),
        ]))
        .assert_code(0);
    }
    let (run, envelope) = verify(&sandbox);
    run.assert_code(0);
    assert_eq!(envelope["data"]["records"], 12);
    let files = envelope["data"]["files"].as_array().unwrap();
    assert!(files.len() > 2, "{run}");
    assert!(sandbox.join("state/audit.jsonl.1").exists());
    let (_, shown) = sandbox.json(&["audit", "show", "--command", "noop"]);
    assert_eq!(shown["data"]["count"], 12);
    let bad = Run::of(
        aigent(&sandbox)
            .env("AIGENT_AUDIT_MAX_BYTES", "a lot")
            .args(["--output", "json", "run", "noop", "--tag", "x"]),
    );
    bad.assert_code(4);
    assert!(bad.stderr.contains("AIGENT_AUDIT_MAX_BYTES"), "{bad}");
}

#[test]
fn show_filters_and_renders() {
    let sandbox = Sandbox::new();
    declare_noop(&sandbox);
    write_rejections(&sandbox, 2);
    Run::of(aigent(&sandbox).args(["--output", "json", "run", "noop", "--tag", "a"]))
        .assert_code(0);
    let (run, all) = sandbox.json(&["audit", "show"]);
    run.assert_code(0);
    assert_eq!(all["data"]["count"], 4);
    let (_, executed) = sandbox.json(&["audit", "show", "--event", "command_executed"]);
    let records = executed["data"]["records"].as_array().unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["argv"], serde_json::json!(["true", "a"]));
    assert_eq!(records[0]["exit_code"], 0);
    let (_, deploy) = sandbox.json(&["audit", "show", "--command", "deploy", "--last", "1"]);
    assert_eq!(deploy["data"]["count"], 1);
    assert_eq!(deploy["data"]["records"][0]["seq"], 2);
    let (_, future) = sandbox.json(&["audit", "show", "--since", "2999-01-01"]);
    assert_eq!(future["data"]["count"], 0);
    let (_, recent) = sandbox.json(&["audit", "show", "--since", "1h"]);
    assert_eq!(recent["data"]["count"], 4);
    let bad = sandbox.run(&["--output", "json", "audit", "show", "--since", "yesterday"]);
    bad.assert_code(2);
    let text = sandbox.run(&[
        "--output",
        "text",
        "audit",
        "show",
        "--event",
        "COMMAND_EXECUTED",
    ]);
    text.assert_code(0);
    assert!(
        text.stdout
            .contains("#4  COMMAND_EXECUTED  noop  exit 0 after "),
        "{text}"
    );
    assert!(text.stdout.contains(" ms  true a  request "), "{text}");
}

#[test]
fn a_missing_log_is_not_found() {
    let sandbox = Sandbox::new();
    for command in ["show", "verify"] {
        let (run, envelope) = sandbox.json(&["audit", command]);
        run.assert_code(5);
        assert_eq!(envelope["error"]["code"], "NOT_FOUND");
    }
    let _filters = snapshot::settings(&sandbox).bind_to_scope();
    insta::assert_snapshot!(snapshot::session(
        &sandbox.run(&["--output", "text", "audit", "verify"])
    ));
}

/// Under `ulimit -f`, the record that would pass the limit is refused
/// before anything is written: aigent exits 4, nothing ran, and SIGXFSZ
/// never ends aigent.
#[test]
fn a_file_size_limit_refuses_the_run_instead_of_killing_aigent() {
    let sandbox = Sandbox::new();
    let marker = sandbox.join("ran");
    sandbox.script(
        "bin/touch.sh",
        &format!("#!/bin/sh\n: > '{}'\n", marker.display()),
    );
    sandbox.write(
        "commands/mark.yaml",
        format!(
            "name: mark\ndescription: Leaves a marker\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: '{}', argv: []}}\n",
            sandbox.join("bin/touch.sh").display()
        ),
    );
    // Past 2 KiB, whatever unit the shell's ulimit counts in (512 or 1024).
    write_rejections(&sandbox, 6);
    assert!(std::fs::metadata(sandbox.audit_log()).unwrap().len() > 2048);
    let before = std::fs::read(sandbox.audit_log()).unwrap();
    let shell = Run::of(
        assert_cmd::Command::new("/bin/sh")
            .current_dir(sandbox.path())
            .env("AIGENT_AUDIT_LOG", sandbox.audit_log())
            .env("AIGENT_BIN", env!("CARGO_BIN_EXE_aigent"))
            .env("COMMANDS", sandbox.join("commands"))
            .env_remove("AIGENT_OUTPUT")
            .args([
                "-c",
                "ulimit -f 2 && exec \"$AIGENT_BIN\" --commands \"$COMMANDS\" --output json run mark",
            ]),
    );
    shell.assert_code(4);
    assert!(shell.stderr.contains("AUDIT_LOG_UNWRITABLE"), "{shell}");
    assert!(shell.stderr.contains("file size limit"), "{shell}");
    assert!(!marker.exists(), "the command must not run");
    assert_eq!(std::fs::read(sandbox.audit_log()).unwrap(), before);
}

/// Issue #29: a head stored elsewhere (`--print-head`, one line) catches a
/// tail cut off later, naming the last record still present.
#[test]
fn verify_expect_head_catches_a_cut_tail() {
    let sandbox = Sandbox::new();
    write_rejections(&sandbox, 4);
    let printed = sandbox.run(&["--output", "text", "audit", "verify", "--print-head"]);
    printed.assert_code(0);
    let head = printed.stdout.trim().to_owned();
    assert_eq!(printed.stdout.lines().count(), 1, "{printed}");
    assert!(head.starts_with("4:") && head.len() == 66, "{printed}");
    let (run, _) = sandbox.json(&["audit", "verify", "--expect-head", &head]);
    run.assert_code(0);
    // Cut the last two records: the chain alone is still intact.
    let log = sandbox.audit_log();
    let lines = log_lines(&log);
    std::fs::write(&log, lines[..2].join("\n") + "\n").unwrap();
    verify(&sandbox).0.assert_code(0);
    let (run, envelope) = sandbox.json(&["audit", "verify", "--expect-head", &head]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["problem"], "head_missing", "{run}");
    assert_eq!(envelope["error"]["line"], 2, "{run}");
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(message.contains("last record present is seq 2"), "{run}");
    let (run, envelope) = sandbox.json(&["audit", "verify", "--expect-seq", "4"]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["problem"], "head_missing", "{run}");
    let bad = sandbox.run(&[
        "--output",
        "json",
        "audit",
        "verify",
        "--expect-head",
        "nope",
    ]);
    bad.assert_code(2);
}

/// Issue #30: lines before the first chained record fail `verify` (naming
/// the line) unless `--allow-legacy-prefix`, and `show` marks them.
#[test]
fn a_forged_prefix_fails_verify_and_show_marks_it() {
    let sandbox = Sandbox::new();
    write_rejections(&sandbox, 2);
    let log = sandbox.audit_log();
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(
        &log,
        format!("{{\"event\":\"COMMAND_EXECUTED\",\"command\":\"deploy\"}}\n{text}"),
    )
    .unwrap();
    let (run, envelope) = verify(&sandbox);
    run.assert_code(1);
    assert_eq!(envelope["error"]["problem"], "unchained_prefix", "{run}");
    assert_eq!(envelope["error"]["line"], 1, "{run}");
    let (run, _) = sandbox.json(&["audit", "verify", "--allow-legacy-prefix"]);
    run.assert_code(0);
    let (run, shown) = sandbox.json(&["audit", "show"]);
    run.assert_code(0);
    assert_eq!(shown["data"]["unverified"][0]["index"], 0, "{run}");
    assert_eq!(shown["data"]["unverified"][0]["line"], 1, "{run}");
    let text = sandbox.run(&["--output", "text", "audit", "show"]);
    let first = text.stdout.lines().next().unwrap();
    assert!(first.starts_with("UNVERIFIED  "), "{text}");
    assert!(
        !text
            .stdout
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("UNVERIFIED")
    );
}

/// Issue #30: a complete forged line appended at the end is not absorbed
/// by the next run as a torn write.
#[test]
fn a_forged_line_appended_is_not_absorbed_by_the_next_write() {
    let sandbox = Sandbox::new();
    write_rejections(&sandbox, 2);
    let log = sandbox.audit_log();
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("{\"event\":\"COMMAND_EXECUTED\",\"command\":\"deploy\"}\n");
    std::fs::write(&log, text).unwrap();
    write_rejections(&sandbox, 1);
    let (run, envelope) = verify(&sandbox);
    run.assert_code(1);
    assert_eq!(envelope["error"]["problem"], "inserted", "{run}");
    assert_eq!(envelope["error"]["line"], 3, "{run}");
}
