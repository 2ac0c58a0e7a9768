//! `skill validate --watch` and `schema lint --watch`: an edit on disk
//! brings one report of what changed; Ctrl-C ends the watch with 130.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use std::os::unix::process::CommandExt;

use serde_json::Value;

use crate::common::Sandbox;

const WAIT: Duration = Duration::from_secs(30);

/// A test run started as a background job inherits SIGINT ignored, and
/// so would aigent: give the child the default disposition.
fn sigint_not_ignored() {
    // SAFETY: signal(2) setting the default action; no handler runs.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

struct Watching {
    child: Child,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
}

fn lines(reader: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    receiver
}

impl Watching {
    fn start(sandbox: &Sandbox, args: &[&str]) -> Self {
        sigint_not_ignored();
        let mut child = sandbox
            .std_cmd()
            .args(args)
            // Its own group, so the test's SIGINT reaches aigent alone.
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = lines(child.stdout.take().unwrap());
        let stderr = lines(child.stderr.take().unwrap());
        let watching = Self {
            child,
            stdout,
            stderr,
        };
        let line = watching.next(&watching.stderr, |line| line.contains("watching"));
        assert!(line.contains("Ctrl-C"), "{line}");
        watching
    }

    /// Lines from `from` up to the first that `last` accepts, that one
    /// included.
    fn until(&self, from: &Receiver<String>, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = from
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("nothing more in time after {seen:?}"));
            let done = last(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn next(&self, from: &Receiver<String>, wanted: impl Fn(&str) -> bool) -> String {
        self.until(from, wanted).pop().unwrap()
    }

    /// SIGINT, then the exit code and the rest of stderr.
    fn interrupt(mut self) -> (i32, String) {
        // SAFETY: kill(2) on the pid of a process this test spawned.
        assert_eq!(
            unsafe { libc::kill(i32::try_from(self.child.id()).unwrap(), libc::SIGINT) },
            0
        );
        let status = self.child.wait().unwrap();
        let rest: Vec<String> = self.stderr.iter().collect();
        (status.code().unwrap_or(-1), rest.join("\n"))
    }
}

const SKILL: &str = "---\nname: pdf-tools\ndescription: Fill PDF forms. Use when a PDF has form fields.\n---\n# PDF tools\n";

#[test]
fn an_edited_skill_brings_one_new_report_and_ctrl_c_stops() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("skills/pdf-tools/SKILL.md", SKILL);
    sandbox.write(
        "skills/other/SKILL.md",
        "---\nname: other\ndescription: Convert spreadsheets to CSV. Use for .xlsx files.\n---\n# Other\n",
    );
    let watching = Watching::start(
        &sandbox,
        &[
            "--output",
            "text",
            "skill",
            "validate",
            "--recursive",
            "--watch",
            "skills",
        ],
    );
    // The first run, as `skill validate` prints it.
    let first = watching.until(&watching.stdout, |line| line.starts_with('└'));
    assert!(
        first
            .iter()
            .any(|line| line == "ok: skills/pdf-tools/SKILL.md"),
        "{first:?}"
    );

    // An unknown key: one new finding, nothing else.
    std::fs::write(
        &file,
        SKILL.replace("---\n# PDF", "colour: blue\n---\n# PDF"),
    )
    .unwrap();
    let report = watching.until(&watching.stdout, |line| line.contains(" new, "));
    let added: Vec<&String> = report
        .iter()
        .filter(|line| line.starts_with("+ "))
        .collect();
    assert_eq!(added.len(), 1, "{report:?}");
    assert!(
        added[0].contains("W001") && added[0].contains("colour"),
        "{report:?}"
    );
    assert_eq!(
        report.last().unwrap(),
        "1 new, 0 fixed; now 0 errors, 1 warning"
    );
    assert!(
        !report.iter().any(|line| line.starts_with("- ")),
        "{report:?}"
    );

    // Put back: the finding is fixed.
    std::fs::write(&file, SKILL).unwrap();
    let report = watching.until(&watching.stdout, |line| line.contains(" new, "));
    assert_eq!(
        report.last().unwrap(),
        "0 new, 1 fixed; now 0 errors, 0 warnings"
    );

    let (code, stderr) = watching.interrupt();
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("stopped watching"), "{stderr}");
}

#[test]
fn schema_lint_watches_the_registry_in_json() {
    let sandbox = Sandbox::new();
    let good = "name: greet\ndescription: Say hello to someone by name\ndanger_level: safe\nparameters:\n  who:\n    type: string\n    pattern_type: alphanumeric_id\nsubprocess:\n  binary: echo\n  user_controlled_args: [who]\n";
    let file = sandbox.write("commands/greet.yaml", good);
    let watching = Watching::start(
        &sandbox,
        &[
            "--commands",
            "commands",
            "--output",
            "json",
            "schema",
            "lint",
            "--watch",
        ],
    );
    // The first line: the first run, everything new (here nothing).
    let first: Value = serde_json::from_str(&watching.next(&watching.stdout, |_| true)).unwrap();
    assert_eq!(first["new"], serde_json::json!([]));
    std::fs::write(
        &file,
        good.replace("danger_level: safe\n", "danger_level: safe\ncolour: blue\n"),
    )
    .unwrap();
    let change: Value = serde_json::from_str(&watching.next(&watching.stdout, |_| true)).unwrap();
    assert_eq!(change["new"].as_array().unwrap().len(), 1, "{change}");
    assert!(
        change["new"][0]["message"]
            .as_str()
            .unwrap()
            .contains("colour"),
        "{change}"
    );
    assert_eq!(change["fixed"], serde_json::json!([]));
    assert_eq!(change["errors"], 1);
    let (code, _) = watching.interrupt();
    assert_eq!(code, 130);
}

#[test]
fn watch_refuses_what_it_cannot_do() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--output", "text", "schema", "lint", "--watch"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--commands DIR"), "{}", run.stderr);
    let run = sandbox.run(&["--output", "sarif", "skill", "validate", "--watch", "."]);
    run.assert_code(2);
    let run = sandbox.run(&["skill", "validate", "--watch", "nowhere/at/all"]);
    run.assert_code(5);
}
