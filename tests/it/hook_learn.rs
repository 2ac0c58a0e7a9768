//! `aigent hook learn` through the binary: a real session's audit log
//! (written by real `aigent hook --client claude-code` calls) learned from,
//! the proposals written and the same events replayed; a log whose chain is
//! broken refused; destructive lines never proposed as allowed; a Claude
//! Code settings file's prefix rules held against the log.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::{Run, Sandbox};

/// Claude Code's PreToolUse event for `command`, run in `cwd`.
fn event(command: &str, cwd: &Path, session: &str) -> String {
    json!({
        "session_id": session,
        "cwd": cwd.display().to_string(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    })
    .to_string()
}

/// The hook's verdict for `command`, as Claude Code would get it.
fn hook(sandbox: &Sandbox, registry: &Path, command: &str, session: &str) -> String {
    let mut cmd = sandbox.std_cmd();
    cmd.arg("--commands")
        .arg(registry)
        .args(["hook", "--client", "claude-code"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(event(command, &sandbox.join("project"), session).as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let reply: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    match reply["hookSpecificOutput"]["permissionDecision"].as_str() {
        Some(decision) => decision.to_owned(),
        // Claude Code's deny is exit code 2 with the reason on stderr.
        None if output.status.code() == Some(2) => "deny".to_owned(),
        None => panic!("no decision for {command}: {output:?}"),
    }
}

fn project(sandbox: &Sandbox) {
    sandbox.write("project/src/a.rs", "fn a() {}\n");
    sandbox.write("project/src/b.rs", "fn b() {}\n");
    fs::create_dir_all(sandbox.join("registry")).unwrap();
}

fn learn(sandbox: &Sandbox, extra: &[&str]) -> (Run, Value) {
    let registry = sandbox.join("registry");
    let mut args = vec![
        "--commands",
        registry.to_str().unwrap(),
        "hook",
        "learn",
        "--cwd",
    ];
    let cwd = sandbox.join("project");
    args.push(cwd.to_str().unwrap());
    args.extend(extra);
    sandbox.json(&args)
}

const SESSION: [&str; 6] = [
    "mytool build --release src/a.rs",
    "mytool build --release src/b.rs",
    "git log --oneline --foo HEAD~3",
    "python3 -c 'import os'",
    "rm -rf /",
    "git status",
];

#[test]
fn a_session_learned_written_and_replayed_is_allowed() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    let registry = sandbox.join("registry");
    let before: Vec<String> = SESSION
        .iter()
        .map(|line| hook(&sandbox, &registry, line, "session-1"))
        .collect();
    assert_eq!(before, ["ask", "ask", "ask", "ask", "deny", "allow"]);

    let (run, envelope) = learn(&sandbox, &["--class", "reads", "--write"]);
    run.assert_code(0);
    let data = &envelope["data"];
    let names: Vec<&str> = data["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|proposal| proposal["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["git-log-foo-oneline", "mytool-build-release"],
        "{data:#}"
    );
    let mytool = &data["proposals"][1];
    assert_eq!(mytool["count"], 2);
    assert_eq!(mytool["sessions"], json!(["session-1"]));
    assert_eq!(mytool["form"], "mytool build --release <operand>");
    let refused: Vec<(&str, &str)> = data["not_learnable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["line"].as_str().unwrap(),
                item["rule"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(
        refused.contains(&("rm -rf /", "catastrophic")),
        "{refused:?}"
    );
    assert!(
        refused
            .iter()
            .any(|(line, _)| line.starts_with("python3 -c")),
        "{refused:?}"
    );
    assert_eq!(data["written"].as_array().unwrap().len(), 2);
    assert!(registry.join("mytool-build-release.json").is_file());
    assert_eq!(envelope["data"]["effect"], "created");

    // Every file written lints clean.
    let lint = sandbox.run(&["--commands", registry.to_str().unwrap(), "schema", "lint"]);
    lint.assert_code(0);

    let after: Vec<String> = SESSION
        .iter()
        .map(|line| hook(&sandbox, &registry, line, "session-2"))
        .collect();
    assert_eq!(after, ["allow", "allow", "allow", "ask", "deny", "allow"]);
    // Narrow: another value, or one more option, is still asked.
    assert_eq!(
        hook(&sandbox, &registry, "mytool build --release ../x", "s"),
        "deny"
    );
    assert_eq!(
        hook(
            &sandbox,
            &registry,
            "mytool build --release --force src/a.rs",
            "s"
        ),
        "ask"
    );

    // Learned again, nothing is proposed twice and nothing replaced.
    let (run, envelope) = learn(&sandbox, &["--session", "session-1", "--write"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["proposals"], json!([]));
    assert_eq!(envelope["data"]["already_allowed"], 3);
}

#[test]
fn a_forged_or_edited_log_is_refused() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    let registry = sandbox.join("registry");
    for line in ["mytool build", "mytool test"] {
        hook(&sandbox, &registry, line, "s");
    }
    let log = sandbox.audit_log();
    let text = fs::read_to_string(&log).unwrap();
    // An edited record: another command put in its place.
    fs::write(&log, text.replacen("mytool build", "mytool burn", 1)).unwrap();
    let (run, envelope) = learn(&sandbox, &["--write"]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["code"], "AUDIT_CHAIN_BROKEN");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("chain check"),
        "{envelope:#}"
    );
    assert_eq!(fs::read_dir(&registry).unwrap().count(), 0);

    // A record forged at the end, without the chain.
    fs::write(&log, &text).unwrap();
    let mut forged = fs::OpenOptions::new().append(true).open(&log).unwrap();
    writeln!(
        forged,
        "{}",
        json!({"event": "HOOK_DECISION", "command": "hook", "verdict": "ask", "segments": [{"shown": "curl evil.sh", "verdict": "ask", "rule": "unmatched"}]})
    )
    .unwrap();
    let (run, envelope) = learn(&sandbox, &[]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["code"], "AUDIT_CHAIN_BROKEN");
}

#[test]
fn destructive_lines_are_never_proposed_as_allowed() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    let registry = sandbox.join("registry");
    // Forms no declaration takes: an option the catalog leaves out, or a
    // program it does not know.
    let lines = [
        "git push --force-with-lease --no-verify origin main",
        "git branch -D --force main",
        "kubectl delete namespace prod --wait",
        "helm uninstall prod",
        "aws s3 rm s3://bucket/x --recursive",
        "dropdb prod",
    ];
    for line in lines {
        assert_ne!(hook(&sandbox, &registry, line, "s"), "allow", "{line}");
    }
    let (run, envelope) = learn(&sandbox, &["--write"]);
    run.assert_code(0);
    let proposals = envelope["data"]["proposals"].as_array().unwrap();
    assert!(proposals.len() >= 4, "{envelope:#}");
    for proposal in proposals {
        assert_eq!(proposal["class"], "discards_work", "{proposal:#}");
    }
    for line in lines {
        assert_ne!(hook(&sandbox, &registry, line, "s"), "allow", "{line}");
    }
}

/// `git config core.hooksPath DIR` makes git run DIR's scripts as hooks,
/// outside any sandbox: never learned, whatever class the person gives.
/// A bare `bash` (which runs what stdin holds) is no `bash-script` (a
/// script of the project, in the sandbox): it takes no class from it.
/// Either way the hook still asks after `--write`.
#[test]
fn a_line_no_catalog_form_takes_is_never_learned_as_allowed() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    let registry = sandbox.join("registry");
    let hooks_path = "git config core.hooksPath /tmp/evil";
    // The hook denies the first for what git would run (`code_string`),
    // and asks for the second.
    let lines = [(hooks_path, "deny"), ("bash", "ask")];
    for (line, verdict) in lines {
        assert_eq!(hook(&sandbox, &registry, line, "s"), verdict, "{line}");
    }
    let (run, envelope) = learn(&sandbox, &["--write"]);
    run.assert_code(0);
    let data = &envelope["data"];
    let proposals = data["proposals"].as_array().unwrap();
    assert!(
        proposals
            .iter()
            .all(|proposal| proposal["program"] != "git"),
        "{data:#}"
    );
    let bash = proposals
        .iter()
        .find(|proposal| proposal["program"] == "bash")
        .unwrap_or_else(|| panic!("{data:#}"));
    assert_eq!(bash["class"], "discards_work", "{bash:#}");
    assert_eq!(bash["unsure"], true);
    assert!(
        bash["class_reason"]
            .as_str()
            .unwrap()
            .contains("`bash-script`"),
        "{bash:#}"
    );
    let refused = data["not_learnable"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["line"] == hooks_path)
        .unwrap_or_else(|| panic!("{data:#}"));
    let reason = refused["reason"].as_str().unwrap();
    assert!(
        refused["rule"] == "code_string" && reason.contains("core.hooksPath"),
        "{refused}"
    );

    // The class a person gives does not get it past the lint.
    let (run, envelope) = learn(
        &sandbox,
        &["--program", "git", "--class", "reads", "--write"],
    );
    run.assert_code(0);
    assert_eq!(envelope["data"]["proposals"], json!([]), "{envelope:#}");
    let files: Vec<String> = fs::read_dir(&registry)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        files.iter().all(|file| !file.starts_with("git")),
        "{files:?}"
    );
    let lint = sandbox.run(&["--commands", registry.to_str().unwrap(), "schema", "lint"]);
    lint.assert_code(0);

    for (line, verdict) in lines {
        assert_eq!(hook(&sandbox, &registry, line, "s"), verdict, "{line}");
    }
    let (_, explained) = sandbox.json(&[
        "--commands",
        registry.to_str().unwrap(),
        "hook",
        "explain",
        hooks_path,
    ]);
    assert_eq!(explained["data"]["verdict"], "deny", "{explained:#}");
}

#[test]
fn the_hook_names_the_learn_command_and_lines_come_from_stdin() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    let run = sandbox.json(&["hook", "explain", "mytool build"]).1;
    let reason = run["data"]["reason"].as_str().unwrap();
    assert!(
        reason.ends_with("To declare it: aigent hook learn --program mytool"),
        "{reason}"
    );

    let mut cmd = sandbox.std_cmd();
    let output = cmd
        .args([
            "--output",
            "json",
            "hook",
            "learn",
            "--from-lines",
            "--program",
            "jq2",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"# a comment\njq2 -r .name a.json\nmytool x\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let envelope: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(envelope["data"]["observed"], 1, "{envelope:#}");
    assert_eq!(envelope["data"]["proposals"][0]["program"], "jq2");

    // --write with no project registry and no --commands: nowhere to write.
    let run = sandbox.run(&["hook", "learn", "--write", "--output", "json"]);
    run.assert_code(5);
}

#[test]
fn a_prefix_rule_is_shown_what_it_admits_beyond_the_log() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    let registry = sandbox.join("registry");
    for line in [
        "find . -name '*.rs' -newer src/a.rs",
        "git diff --stat",
        "git diff --foo",
    ] {
        hook(&sandbox, &registry, line, "s");
    }
    sandbox.write(
        "settings.json",
        r#"{"permissions": {"allow": ["Bash(find:*)", "Bash(git diff:*)", "Read(./src/**)"]}}"#,
    );
    let settings = sandbox.join("settings.json");
    let (run, envelope) = learn(
        &sandbox,
        &["--from-claude-settings", settings.to_str().unwrap()],
    );
    run.assert_code(0);
    let rules = envelope["data"]["prefix_rules"].as_array().unwrap();
    assert_eq!(rules.len(), 2, "{envelope:#}");
    let beyond = |index: usize| -> Vec<String> {
        rules[index]["beyond"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["line"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        beyond(0).contains(&"find . -exec rm -rf {} +".to_owned()),
        "{:?}",
        beyond(0)
    );
    assert!(
        beyond(1).contains(&"git diff --output=/tmp/x".to_owned()),
        "{:?}",
        beyond(1)
    );
    assert_eq!(rules[1]["observed"], 2);
    // The logged `git diff --foo` is proposed; `git diff --stat` was allowed.
    let names: Vec<&str> = envelope["data"]["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|proposal| proposal["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"git-diff-foo"), "{names:?}");
}

/// For each prefix rule of the real settings files that admits a
/// dangerous line, a part of the line that must be reported.
const DANGEROUS_ADMITTED: &[(&str, &str)] = &[
    ("Bash(find:*)", "find . -exec"),
    ("Bash(git diff:*)", "git diff --output"),
    ("Bash(git log:*)", "git log --output"),
    ("Bash(git log *)", "git log --output"),
    ("Bash(sed:*)", "sed -i"),
    ("Bash(awk:*)", "system("),
    ("Bash(rg:*)", "rg --pre"),
    ("Bash(rm:*)", "rm -rf"),
    ("Bash(chmod:*)", "chmod -R 777"),
    ("Bash(curl:*)", "curl -o"),
    ("Bash(cp:*)", "cp ~/.ssh"),
    ("Bash(mv:*)", "mv ~/.bashrc"),
    ("Bash(touch:*)", "touch ~/.bashrc"),
    ("Bash(mkdir:*)", "mkdir -p /etc"),
    ("Bash(head:*)", "head ~/.ssh"),
    ("Bash(tail:*)", "tail ~/.aws"),
    ("Bash(dd:*)", "dd if="),
    ("Bash(export:*)", "LD_PRELOAD"),
    ("Bash(source:*)", "source /tmp"),
    ("Bash(python:*)", "python -c"),
    ("Bash(python3:*)", "python3 -c"),
    ("Bash(node:*)", "node -e"),
    ("Bash(npx:*)", "npx some-package"),
    ("Bash(pip install:*)", "pip install"),
    ("Bash(pip3 install:*)", "pip3 install"),
    ("Bash(uv pip install:*)", "uv pip install"),
    ("Bash(uv run:*)", "uv run sh"),
    ("Bash(npm install:*)", "npm install some-package"),
    ("Bash(npm audit:*)", "npm audit fix"),
    ("Bash(brew install:*)", "brew install"),
    ("Bash(bundle exec:*)", "bundle exec sh"),
    ("Bash(cargo check *)", "rustc-wrapper"),
    ("Bash(cargo update:*)", "--manifest-path /tmp"),
    ("Bash(claude mcp *)", "claude mcp add"),
    ("Bash(open:*)", "open -a"),
    ("Bash(powershell -Command:*)", "Remove-Item"),
    ("Bash(git push:*)", "--force"),
    ("Bash(git reset:*)", "--hard"),
    ("Bash(git checkout:*)", "git checkout -- ."),
    ("Bash(git checkout *)", "git checkout -- ."),
    ("Bash(git branch:*)", "-D"),
    ("Bash(git branch *)", "-D"),
    ("Bash(git restore:*)", "git restore ."),
    ("Bash(git rm:*)", "git rm -rf"),
    ("Bash(git rm *)", "git rm -rf"),
    ("Bash(git fetch:*)", "--upload-pack"),
    ("Bash(git pull:*)", "--upload-pack"),
    ("Bash(git clone:*)", "--upload-pack"),
    ("Bash(git config:*)", "core.fsmonitor"),
    ("Bash(git grep:*)", "--open-files-in-pager"),
    ("Bash(git merge:*)", "--strategy"),
    ("Bash(git cherry-pick:*)", "--strategy"),
    ("Bash(flutter:*)", "pub global run"),
    ("Bash(flutter pub:*)", "pub global run"),
    ("Bash(pytest:*)", "pytest -p"),
    ("Bash(ruff check:*)", "--fix /"),
];

/// `hook learn --from-claude-settings FILE` in a sandbox whose audit log
/// holds one decision.
fn from_settings(sandbox: &Sandbox, file: &Path) -> (Run, Value) {
    learn(
        sandbox,
        &[
            "--from-claude-settings",
            file.to_str().unwrap(),
            "--output",
            "json",
        ],
    )
}

#[test]
fn real_settings_files_report_the_dangerous_lines_their_prefix_rules_admit() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    hook(&sandbox, &sandbox.join("registry"), "git status", "s");
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude-settings");
    let mut files: Vec<_> = fs::read_dir(&directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut checked = 0;
    for file in &files {
        let (run, envelope) = from_settings(&sandbox, file);
        run.assert_code(0);
        let settings: Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        // Every Bash rule of the allow list is a prefix rule; MCP tools,
        // Read(...), WebFetch, WebSearch and the deny list are not.
        let bash_rules: Vec<&str> = settings["permissions"]["allow"]
            .as_array()
            .map(|allow| {
                allow
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|rule| rule.starts_with("Bash("))
                    .collect()
            })
            .unwrap_or_default();
        let rules = envelope["data"]["prefix_rules"].as_array().unwrap();
        let shown: Vec<&str> = rules.iter().map(|r| r["rule"].as_str().unwrap()).collect();
        assert_eq!(shown, bash_rules, "{}", file.display());
        for rule in rules {
            let written = rule["rule"].as_str().unwrap();
            let beyond = rule["beyond"].as_array().unwrap();
            for admitted in beyond {
                assert_ne!(admitted["verdict"], "allow", "{written}: {admitted}");
                assert!(admitted["rule"].as_str().is_some_and(|r| !r.is_empty()));
            }
            if rule["exact"] == true {
                assert!(beyond.is_empty(), "{written}");
            }
            if let Some((_, needle)) = DANGEROUS_ADMITTED.iter().find(|(r, _)| *r == written) {
                checked += 1;
                assert!(
                    beyond
                        .iter()
                        .any(|admitted| admitted["line"].as_str().unwrap().contains(needle)),
                    "{}: {written} should report a line with `{needle}`: {beyond:?}",
                    file.display()
                );
            }
        }
    }
    // Most rules above appear in more than one file.
    assert!(checked >= DANGEROUS_ADMITTED.len(), "{checked}");
}

#[test]
fn odd_settings_files_get_a_clear_answer() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    hook(&sandbox, &sandbox.join("registry"), "git status", "s");
    let answer = |name: &str, text: &str| {
        sandbox.write(name, text);
        from_settings(&sandbox, &sandbox.join(name))
    };
    for (text, why) in [
        (r#"{"permissions": {"allow": ["Bash(find:*)""#, "not JSON"),
        ("[]", "not a JSON object"),
        (
            r#"{"permissions": {"allow": "Bash(find:*)"}}"#,
            "not a list",
        ),
        (r#"{"permissions": ["Bash(find:*)"]}"#, "not an object"),
    ] {
        let (run, envelope) = answer("bad.json", text);
        run.assert_code(4);
        let message = envelope["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{text}: {message}");
        assert!(message.contains("bad.json"), "{message}");
    }
    // Entries that are no Bash rule, or no string, are passed over.
    let (run, envelope) = answer(
        "odd.json",
        r#"{"permissions": {"allow": [1, null, {"tool": "Bash"}, "mcp__github__get_me",
            "Read(//etc/**)", "WebFetch(domain:example.com)", "WebSearch", "Bash(find:*)",
            "Bash()", "Bash(:*)", "Bash(\u0000:*)"], "deny": ["Bash(rm:*)"]}}"#,
    );
    run.assert_code(0);
    let rules: Vec<&str> = envelope["data"]["prefix_rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        ["Bash(find:*)", "Bash()", "Bash(:*)", "Bash(\u{0}:*)"]
    );
    // No permissions at all, or only a deny list: nothing allowed, nothing to report.
    for text in [
        r#"{"theme": "dark"}"#,
        r#"{"permissions": {"deny": ["Bash(rm:*)"]}}"#,
    ] {
        let (run, envelope) = answer("none.json", text);
        run.assert_code(0);
        assert_eq!(envelope["data"]["prefix_rules"], json!([]), "{text}");
    }
    let (run, _) = from_settings(&sandbox, &sandbox.join("missing.json"));
    run.assert_code(5);
}

// ----- the review, in a pseudo-terminal ----------------------------------------

/// Pseudo-terminals are a Unix matter here.
#[cfg(unix)]
mod review {
    use super::*;
    use crate::common::pty::{CTRL_C, ENTER, Pty, UP};

    /// A log in which two proposals are learnable: `mytool build
    /// --release <operand>` and `mytool test --fast`.
    fn session(sandbox: &Sandbox) {
        project(sandbox);
        for line in [
            "mytool build --release src/a.rs",
            "mytool build --release src/b.rs",
            "mytool test --fast",
        ] {
            hook(sandbox, &sandbox.join("registry"), line, "s");
        }
    }

    fn spawn(sandbox: &Sandbox) -> Pty {
        let registry = sandbox.join("registry");
        let cwd = sandbox.join("project");
        Pty::spawn(
            sandbox,
            &[
                "--commands",
                registry.to_str().unwrap(),
                "hook",
                "learn",
                "--cwd",
                cwd.to_str().unwrap(),
                "--review",
            ],
        )
    }

    fn written(sandbox: &Sandbox) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(sandbox.join("registry"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn each_proposal_is_accepted_skipped_or_reclassified_then_the_accepted_are_written() {
        let sandbox = Sandbox::bare();
        session(&sandbox);
        let mut pty = spawn(&sandbox);
        // The first proposal, shown with its declaration and its lines.
        pty.expect("proposal 1 of 2: mytool-build-release.json");
        pty.expect("covers: mytool build --release src/a.rs");
        pty.expect("\"binary\": \"mytool\"");
        pty.expect("mytool-build-release (class discards_work)");
        // Change class: the list starts at the current one (discards_work,
        // the last); one up is runs_project_code. Then accept.
        pty.pick(2);
        pty.expect("runs_project_code: runs the project's own code");
        pty.send(UP);
        pty.send(ENTER);
        pty.expect("mytool-build-release (class runs_project_code)");
        pty.pick(0);
        // The second is skipped.
        pty.expect("proposal 2 of 2: mytool-test-fast.json");
        pty.pick(1);
        let (rest, code) = pty.finish();
        assert_eq!(code, 0, "{rest}");
        assert!(rest.contains("accepted 1 of 2"), "{rest}");
        assert_eq!(written(&sandbox), ["mytool-build-release.json"]);
        let declaration: Value = serde_json::from_str(
            &fs::read_to_string(sandbox.join("registry/mytool-build-release.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(declaration["class"], "runs_project_code");
        assert_eq!(declaration["danger_level"], "mutating");
        // The hook now takes the accepted line, in aigent's sandbox.
        let registry = sandbox.join("registry");
        assert_eq!(
            hook(&sandbox, &registry, "mytool build --release src/b.rs", "t"),
            "allow"
        );
        assert_eq!(hook(&sandbox, &registry, "mytool test --fast", "t"), "ask");
    }

    #[test]
    fn quit_writes_nothing_and_finish_skips_the_rest() {
        let sandbox = Sandbox::bare();
        session(&sandbox);
        let mut pty = spawn(&sandbox);
        pty.expect("proposal 1 of 2");
        pty.pick(0);
        pty.expect("proposal 2 of 2");
        pty.pick(4);
        let (rest, code) = pty.finish();
        assert_eq!(code, 1, "{rest}");
        assert!(rest.contains("nothing was written"), "{rest}");
        assert!(written(&sandbox).is_empty());

        let mut pty = spawn(&sandbox);
        pty.expect("proposal 1 of 2");
        pty.pick(0);
        pty.expect("proposal 2 of 2");
        pty.pick(3);
        let (rest, code) = pty.finish();
        assert_eq!(code, 0, "{rest}");
        assert_eq!(written(&sandbox), ["mytool-build-release.json"]);
    }

    #[test]
    fn ctrl_c_in_the_review_writes_nothing() {
        let sandbox = Sandbox::bare();
        session(&sandbox);
        let mut pty = spawn(&sandbox);
        pty.expect("proposal 1 of 2");
        pty.pick(0);
        pty.expect("proposal 2 of 2");
        pty.send(CTRL_C);
        let (rest, code) = pty.finish();
        assert_eq!(code, 130, "{rest}");
        assert!(written(&sandbox).is_empty());
    }
}

#[test]
fn review_without_a_terminal_is_input_required_before_reading_anything() {
    let sandbox = Sandbox::bare();
    project(&sandbox);
    // No audit log at all: the question comes first.
    let (run, envelope) = learn(&sandbox, &["--review", "--output", "json"]);
    run.assert_code(4);
    assert_eq!(envelope["error"]["code"], "INPUT_REQUIRED", "{envelope:#}");
    let run = sandbox.run(&["hook", "learn", "--review", "--write"]);
    run.assert_code(2);
    let run = sandbox.run(&["hook", "learn", "--force"]);
    run.assert_code(2);
}
