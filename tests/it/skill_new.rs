//! `aigent skill new`: flag mode through the binary, and the interactive
//! prompts in a real pseudo-terminal.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::Sandbox;
use serde_json::Value;

const DESCRIPTION: &str =
    "Drafts release notes from merged pull requests. Use when preparing a release.";

/// Every path below `root`, relative and sorted.
fn tree(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            found.push(path.strip_prefix(root).unwrap().to_owned());
            if path.is_dir() && !path.is_symlink() {
                stack.push(path);
            }
        }
    }
    found.sort();
    found
}

fn paths(list: &[&str]) -> Vec<PathBuf> {
    list.iter().map(PathBuf::from).collect()
}

fn assert_validates_strictly(sandbox: &Sandbox, skill: &str) {
    let (run, envelope) = sandbox.json(&["skill", "validate", "--strict", skill]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["warnings"], 0, "{run}");
    assert_eq!(
        envelope["data"]["skills"][0]["diagnostics"],
        Value::Array(vec![]),
        "{run}"
    );
}

// ----- flag mode -------------------------------------------------------------

#[test]
fn flags_and_yes_create_a_skill_that_validates_strictly() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "skill",
        "new",
        "skills/release-notes",
        "--description",
        DESCRIPTION,
        "--license",
        "MIT",
        "--compatibility",
        "Needs git",
        "--allowed-tools",
        "Read Bash(git:*)",
        "--with",
        "scripts,references",
        "--with",
        "assets",
        "--yes",
    ]);
    run.assert_code(0);
    let data = &envelope["data"];
    let keys: Vec<&str> = data
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "path",
            "absolute",
            "name",
            "files",
            "valid",
            "diagnostics",
            "effect"
        ]
    );
    assert_eq!(data["effect"], "created");
    assert_eq!(data["path"], "skills/release-notes");
    assert_eq!(data["name"], "release-notes");
    assert_eq!(
        data["absolute"],
        fs::canonicalize(sandbox.join("skills/release-notes"))
            .unwrap()
            .to_str()
            .unwrap()
    );
    assert_eq!(
        data["files"],
        serde_json::json!([
            "SKILL.md",
            "scripts/run.sh",
            "references/REFERENCE.md",
            "assets/template.md"
        ])
    );
    assert_eq!(data["valid"], true);
    assert_eq!(
        tree(&sandbox.join("skills")),
        paths(&[
            "release-notes",
            "release-notes/SKILL.md",
            "release-notes/assets",
            "release-notes/assets/template.md",
            "release-notes/references",
            "release-notes/references/REFERENCE.md",
            "release-notes/scripts",
            "release-notes/scripts/run.sh",
        ])
    );
    let skill = fs::read_to_string(sandbox.join("skills/release-notes/SKILL.md")).unwrap();
    assert!(skill.contains("license: MIT\n"), "{skill}");
    assert!(skill.contains("compatibility: Needs git\n"), "{skill}");
    assert_validates_strictly(&sandbox, "skills/release-notes");
}

#[test]
fn name_alone_creates_dot_slash_name_without_subdirectories() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--output",
        "text",
        "skill",
        "new",
        "--name",
        "pdf-tools",
        "--description",
        DESCRIPTION,
        "--yes",
    ]);
    run.assert_code(0);
    assert!(
        run.stdout
            .starts_with("created skill pdf-tools in pdf-tools\n  SKILL.md\n"),
        "{run}"
    );
    assert_eq!(
        tree(sandbox.path()),
        paths(&["pdf-tools", "pdf-tools/SKILL.md"])
    );
    let skill = fs::read_to_string(sandbox.join("pdf-tools/SKILL.md")).unwrap();
    assert!(!skill.contains("]("), "no links without files:\n{skill}");
    assert_validates_strictly(&sandbox, "pdf-tools");
}

#[test]
fn an_existing_skill_is_a_conflict_and_stays_byte_for_byte() {
    let sandbox = Sandbox::new();
    let original = b"---\nname: taken\ndescription: Mine.\n---\nkeep me\r\n\xff";
    sandbox.write("taken/SKILL.md", original);
    let (run, envelope) = sandbox.json(&[
        "skill",
        "new",
        "taken",
        "--description",
        DESCRIPTION,
        "--with",
        "scripts",
        "--yes",
    ]);
    run.assert_code(6);
    assert_eq!(envelope["error"]["code"], "CONFLICT");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already holds a skill"),
        "{run}"
    );
    assert_eq!(fs::read(sandbox.join("taken/SKILL.md")).unwrap(), original);
    assert_eq!(tree(sandbox.path()), paths(&["taken", "taken/SKILL.md"]));
}

#[test]
fn a_non_empty_directory_is_a_conflict() {
    let sandbox = Sandbox::new();
    sandbox.write("busy/notes.txt", "mine");
    let run = sandbox.run(&[
        "skill",
        "new",
        "busy",
        "--description",
        DESCRIPTION,
        "--yes",
    ]);
    run.assert_code(6);
    assert_eq!(tree(sandbox.path()), paths(&["busy", "busy/notes.txt"]));
}

#[test]
fn an_empty_directory_is_filled() {
    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.join("ready")).unwrap();
    sandbox
        .run(&[
            "skill",
            "new",
            "ready",
            "--description",
            DESCRIPTION,
            "--with",
            "references",
            "--yes",
        ])
        .assert_code(0);
    assert_eq!(
        tree(&sandbox.join("ready")),
        paths(&["SKILL.md", "references", "references/REFERENCE.md"])
    );
    assert_validates_strictly(&sandbox, "ready");
}

#[test]
fn a_bad_name_exits_2_and_creates_nothing() {
    let sandbox = Sandbox::new();
    for args in [
        vec!["skill", "new", "--name", "Bad_Name"],
        vec!["skill", "new", "claude-helper"],
        vec!["skill", "new", "deep/dir/a--b"],
        vec!["skill", "new", "here", "--name", "there"],
    ] {
        let mut args = args.clone();
        args.extend(["--description", DESCRIPTION, "--yes"]);
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(2);
        assert_eq!(envelope["error"]["code"], "ARG_ERROR", "{run}");
        assert_eq!(envelope["error"]["field"], "name", "{run}");
        let code = envelope["error"]["errors"][0]["code"].as_str().unwrap();
        assert!(code.starts_with('E'), "{run}");
    }
    assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
}

#[test]
fn every_bad_answer_is_reported_at_once() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "skill",
        "new",
        "--name",
        "Bad",
        "--description",
        "Has <b>tags</b>",
        "--compatibility",
        &"c".repeat(501),
        "--yes",
    ]);
    run.assert_code(2);
    let codes: Vec<&str> = envelope["error"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|error| error["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["E003", "E011", "E013"], "{run}");
    assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
}

#[test]
fn without_a_terminal_or_yes_it_fails_naming_the_flags() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--output", "text", "skill", "new", "my-skill"]);
    // INPUT_REQUIRED: a question no one can answer (REQ-F-009).
    run.assert_code(4);
    for flag in ["--yes", "--description", "--name", "--with"] {
        assert!(run.stderr.contains(flag), "{flag} not named:\n{run}");
    }
    assert!(run.stdout.is_empty(), "{run}");
    assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
}

#[test]
fn yes_without_a_name_or_description_says_which_flag_is_missing() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["skill", "new", "--description", DESCRIPTION, "--yes"]);
    run.assert_code(2);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--name"),
        "{run}"
    );
    let (run, envelope) = sandbox.json(&["skill", "new", "named", "--yes"]);
    run.assert_code(2);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--description"),
        "{run}"
    );
    assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
}

/// A control character in the description would reach every agent that
/// loads the skill: refused with the validator's code, nothing created.
#[test]
fn a_control_character_in_the_description_is_refused() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "skill",
        "new",
        "ctl",
        "--description",
        "Does \u{1}things.",
        "--yes",
    ]);
    run.assert_code(2);
    assert_eq!(envelope["error"]["errors"][0]["code"], "E026", "{run}");
    assert!(!sandbox.join("ctl").exists());
}

/// `x/../y` with no `x` creates `y` and nothing else.
#[test]
fn a_step_back_out_of_a_missing_directory_leaves_nothing_behind() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "skill",
        "new",
        "x/../y",
        "--description",
        DESCRIPTION,
        "--yes",
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["path"], "y", "{run}");
    assert!(sandbox.join("y/SKILL.md").is_file());
    assert!(!sandbox.join("x").exists(), "{run}");
}

#[test]
fn an_unknown_with_value_is_a_usage_error() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "skill",
        "new",
        "x",
        "--description",
        DESCRIPTION,
        "--with",
        "scripts,docs",
        "--yes",
    ]);
    run.assert_code(2);
    assert!(run.stderr.contains("docs"), "{run}");
    assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
}

#[test]
fn values_yaml_would_misread_are_quoted_and_read_back() {
    let sandbox = Sandbox::new();
    let description = "Use when: the user says \"yes\" # not a comment\\ really";
    sandbox
        .run(&[
            "skill",
            "new",
            "123",
            "--description",
            description,
            "--license",
            "no",
            "--yes",
        ])
        .assert_code(0);
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "123"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["name"], "123");
    assert_eq!(envelope["data"]["description"], description);
    assert_eq!(envelope["data"]["license"], "no");
    assert_validates_strictly(&sandbox, "123");
    // The file itself, as a person will read it: each value quoted only
    // as far as YAML needs.
    insta::assert_snapshot!(std::fs::read_to_string(sandbox.join("123/SKILL.md")).unwrap());
}

// ----- interactive, in a pseudo-terminal ----------------------------------------

/// Pseudo-terminals are a Unix matter here.
#[cfg(unix)]
mod interactive {
    use super::*;

    use crate::common::pty::{CTRL_C, DOWN, ENTER, Pty, SHOW_CURSOR};

    /// `aigent skill new ARGS` in a pseudo-terminal.
    fn spawn(sandbox: &Sandbox, args: &[&str]) -> Pty {
        Pty::spawn(sandbox, &[&["skill", "new"], args].concat())
    }

    #[test]
    fn a_bad_name_is_asked_again_with_the_reason() {
        let sandbox = Sandbox::new();
        let mut pty = spawn(&sandbox, &[]);
        pty.expect("Name (");
        pty.answer("");
        pty.expect("error: name is empty");
        pty.answer("Bad_Name");
        pty.expect("error: name 'Bad_Name' must be lowercase");
        pty.answer("claude-helper");
        pty.expect("error: name 'claude-helper' uses the reserved word 'claude'");
        pty.answer("a--b");
        pty.expect("must not contain '--'");
        pty.answer("good-name");
        pty.expect("Say what the skill does and when to use it");
        pty.expect("Description");
        pty.answer("  ");
        pty.expect("error: description is empty");
        pty.answer("Has <b>tags</b>");
        pty.expect("error: description contains the XML tag");
        pty.answer(DESCRIPTION);
        pty.expect("License");
        pty.send(ENTER);
        pty.expect("Compatibility");
        pty.send(ENTER);
        pty.expect("Allowed tools");
        pty.send(ENTER);
        pty.expect("Subdirectories");
        pty.send(ENTER);
        pty.expect("About to create good-name");
        pty.expect("Create good-name?");
        pty.send("y");
        let (rest, code) = pty.finish();
        assert_eq!(code, 0, "{rest}");
        assert_eq!(
            tree(sandbox.path()),
            paths(&["good-name", "good-name/SKILL.md"])
        );
        assert_validates_strictly(&sandbox, "good-name");
    }

    #[test]
    fn a_complete_run_through_the_prompts_creates_a_valid_skill() {
        let sandbox = Sandbox::new();
        let mut pty = spawn(&sandbox, &[]);
        pty.expect("Name (");
        pty.answer("release-notes");
        pty.expect("Description");
        pty.answer(DESCRIPTION);
        pty.expect("License");
        // none, MIT, Apache-2.0: two down.
        pty.send(DOWN);
        pty.send(DOWN);
        pty.send(ENTER);
        pty.expect("Compatibility");
        pty.answer("Needs git");
        pty.expect("Allowed tools");
        pty.answer("Read Bash(git:*)");
        pty.expect("Subdirectories");
        // Toggle scripts, skip references, toggle assets.
        pty.send(" ");
        pty.send(DOWN);
        pty.send(DOWN);
        pty.send(" ");
        pty.send(ENTER);
        pty.expect("About to create release-notes");
        pty.expect("scripts/run.sh");
        pty.expect("assets/template.md");
        pty.expect("license: Apache-2.0");
        pty.expect("Create release-notes?");
        pty.send("y");
        pty.expect("created skill release-notes in release-notes");
        let (rest, code) = pty.finish();
        assert_eq!(code, 0, "{rest}");

        assert_eq!(
            tree(&sandbox.join("release-notes")),
            paths(&[
                "SKILL.md",
                "assets",
                "assets/template.md",
                "scripts",
                "scripts/run.sh"
            ])
        );
        let skill = fs::read_to_string(sandbox.join("release-notes/SKILL.md")).unwrap();
        assert!(skill.contains("license: Apache-2.0\n"), "{skill}");
        assert!(skill.contains("compatibility: Needs git\n"), "{skill}");
        assert!(
            skill.contains("allowed-tools: \"Read Bash(git:*)\"\n"),
            "{skill}"
        );
        assert_validates_strictly(&sandbox, "release-notes");
    }

    #[test]
    fn flags_skip_their_prompts() {
        let sandbox = Sandbox::new();
        let mut pty = spawn(
            &sandbox,
            &[
                "tools/pdf-tools",
                "--description",
                DESCRIPTION,
                "--license",
                "MIT",
                "--with",
                "references",
            ],
        );
        // Name, description, license and subdirectories come from the flags.
        pty.expect("Compatibility");
        pty.send(ENTER);
        pty.expect("Allowed tools");
        pty.send(ENTER);
        pty.expect("About to create tools/pdf-tools");
        pty.expect("references/REFERENCE.md");
        pty.send("y");
        let (rest, code) = pty.finish();
        assert_eq!(code, 0, "{rest}");
        assert!(!rest.contains("Subdirectories"), "{rest}");
        assert_validates_strictly(&sandbox, "tools/pdf-tools");
    }

    #[test]
    fn ctrl_c_mid_way_leaves_nothing_and_restores_the_cursor() {
        let sandbox = Sandbox::new();
        let mut pty = spawn(&sandbox, &[]);
        pty.expect("Name (");
        pty.answer("half-done");
        pty.expect("Description");
        pty.answer(DESCRIPTION);
        // The license select hides the cursor; Ctrl-C must bring it back.
        pty.expect("License");
        pty.send(CTRL_C);
        let (rest, code) = pty.finish();
        assert_eq!(code, 130, "{rest}");
        assert!(rest.contains("interrupted"), "{rest}");
        assert!(rest.contains(SHOW_CURSOR), "cursor left hidden: {rest:?}");
        assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
    }

    #[test]
    fn declining_the_preview_creates_nothing() {
        let sandbox = Sandbox::new();
        let mut pty = spawn(
            &sandbox,
            &[
                "declined",
                "--description",
                DESCRIPTION,
                "--license",
                "MIT",
                "--with",
                "scripts",
            ],
        );
        pty.expect("Compatibility");
        pty.send(ENTER);
        pty.expect("Allowed tools");
        pty.send(ENTER);
        pty.expect("Create declined?");
        pty.send("n");
        let (rest, code) = pty.finish();
        assert_eq!(code, 1, "{rest}");
        assert!(rest.contains("nothing was created"), "{rest}");
        assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
    }

    #[test]
    fn in_a_terminal_a_taken_directory_fails_before_any_question() {
        let sandbox = Sandbox::new();
        sandbox.write("taken/SKILL.md", "x");
        let pty = spawn(&sandbox, &["taken"]);
        let (rest, code) = pty.finish();
        assert_eq!(code, 6, "{rest}");
        assert!(!rest.contains("Description"), "{rest}");
        assert_eq!(fs::read(sandbox.join("taken/SKILL.md")).unwrap(), b"x");
    }

    #[test]
    fn ctrl_c_between_two_prompts_also_ends_the_run() {
        let sandbox = Sandbox::new();
        let mut pty = spawn(&sandbox, &[]);
        pty.expect("Name (");
        // No wait for the next prompt: the key may arrive while the terminal
        // is between two prompts, out of raw mode.
        pty.answer("quick-exit");
        pty.send(CTRL_C);
        let (rest, code) = pty.finish();
        assert_eq!(code, 130, "{rest}");
        assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
    }

    #[test]
    fn ctrl_c_in_json_mode_prints_an_envelope() {
        let sandbox = Sandbox::new();
        let mut pty = spawn(&sandbox, &["--output", "json"]);
        pty.expect("Name (");
        pty.send(CTRL_C);
        let (rest, code) = pty.finish();
        assert_eq!(code, 130, "{rest}");
        assert!(rest.contains("\"code\": \"INTERRUPTED\""), "{rest}");
        assert_eq!(tree(sandbox.path()), Vec::<PathBuf>::new());
    }
}
