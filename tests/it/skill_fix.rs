//! `skill fix` keeps what a skill does: client keys stay where their
//! clients read them, and the profile comes from the skill's place.

use std::fs;

use serde_json::Value;

use crate::common::Sandbox;

/// A skill its author kept away from the model, as Claude Code reads it.
const GUARDED: &str = "---\nname: merge-pr\ndescription: Merges the open pull request.\ndisable-model-invocation: true\neffort: high\nversion: 2\n---\nMerge it.\n";

fn files(envelope: &Value) -> &Vec<Value> {
    envelope["data"]["files"].as_array().unwrap()
}

#[test]
fn fix_never_moves_a_key_a_client_reads() {
    let sandbox = Sandbox::new();
    // A plain directory: nothing says which client loads it.
    let file = sandbox.write("skills/merge-pr/SKILL.md", GUARDED);
    for profile in [None, Some("standard"), Some("codex"), Some("strictest")] {
        let mut args = vec!["skill", "fix", "--recursive", "skills"];
        if let Some(profile) = profile {
            args.extend(["--profile", profile]);
        }
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(0);
        let fixed = fs::read_to_string(&file).unwrap();
        assert!(
            fixed.contains("\ndisable-model-invocation: true\neffort: high\n"),
            "{profile:?}:\n{fixed}"
        );
        let file_result = &files(&envelope)[0];
        let not_fixed = file_result["not_fixed"].to_string();
        assert!(
            not_fixed.contains("'disable-model-invocation': left in place")
                && not_fixed.contains("Claude Code (--profile claude-code)"),
            "{profile:?}: {file_result:#}"
        );
        assert_eq!(
            file_result["profile"],
            profile.unwrap_or("standard"),
            "{file_result:#}"
        );
        fs::write(&file, GUARDED).unwrap();
    }
    // The unknown key still moves: that changes nothing any client does.
    sandbox
        .json(&["skill", "fix", "skills/merge-pr"])
        .0
        .assert_code(0);
    let fixed = fs::read_to_string(&file).unwrap();
    assert!(
        fixed.ends_with(
            "metadata:\n  version: \"2\"\ndisable-model-invocation: true\neffort: high\n---\nMerge it.\n"
        ),
        "{fixed}"
    );

    // W001 says whose key it is.
    let (_, envelope) = sandbox.json(&[
        "skill",
        "validate",
        "--profile",
        "standard",
        "skills/merge-pr",
    ]);
    let messages = envelope["data"]["skills"][0]["diagnostics"].to_string();
    assert!(
        messages.contains("unknown frontmatter key 'disable-model-invocation' (profile standard); Claude Code (--profile claude-code), GitHub Copilot in VS Code (--profile copilot), Cursor (--profile cursor) read it"),
        "{messages}"
    );
}

#[test]
fn a_claude_code_plugin_or_claude_directory_gets_claude_code() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "plugin/.claude-plugin/plugin.json",
        r#"{"name": "git-tools"}"#,
    );
    let plugin_skill = sandbox.write("plugin/skills/merge-pr/SKILL.md", GUARDED);
    let project_skill = sandbox.write("project/.claude/skills/merge-pr/SKILL.md", GUARDED);
    let plain = sandbox.write("plain/merge-pr/SKILL.md", GUARDED);

    // validate: the place decides, and the report says so.
    let (run, envelope) = sandbox.json(&[
        "skill",
        "validate",
        "--recursive",
        "plugin",
        "project",
        "plain",
    ]);
    run.assert_code(0);
    let skills = envelope["data"]["skills"].as_array().unwrap();
    let profile_of = |suffix: &str| {
        let skill = skills
            .iter()
            .find(|skill| skill["path"].as_str().unwrap().starts_with(suffix))
            .unwrap();
        (
            skill["profile"].as_str().unwrap().to_owned(),
            skill["profile_source"].as_str().unwrap().to_owned(),
            skill["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|finding| finding["code"] == "W001")
                .count(),
        )
    };
    assert_eq!(
        profile_of("plugin/"),
        ("claude-code".into(), "claude-plugin".into(), 1)
    );
    assert_eq!(
        profile_of("project/"),
        ("claude-code".into(), "claude-directory".into(), 1)
    );
    // The plain skill: standard, so the two Claude Code keys warn too.
    // (The three skills share a name: W009 on the later two, not counted
    // here.)
    assert_eq!(
        profile_of("plain/"),
        ("standard".into(), "default".into(), 3)
    );
    let text = sandbox.run(&[
        "--output",
        "text",
        "--color",
        "never",
        "skill",
        "validate",
        "--recursive",
        "plugin",
    ]);
    assert!(
        text.stdout
            .contains("note: profile claude-code for 1 skill inside a Claude Code plugin"),
        "{text}"
    );
    // Run from inside the plugin, on the skill alone: the same.
    let inside = sandbox
        .cmd()
        .current_dir(sandbox.join("plugin/skills"))
        .args(["--output", "json", "skill", "validate", "merge-pr"])
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_slice(&inside.stdout).unwrap();
    assert_eq!(
        envelope["data"]["skills"][0]["profile_source"],
        "claude-plugin"
    );
    // --profile wins over the place.
    let (_, envelope) = sandbox.json(&[
        "skill",
        "validate",
        "--profile",
        "standard",
        "plugin/skills/merge-pr",
    ]);
    assert_eq!(envelope["data"]["skills"][0]["profile_source"], "given");

    // fix: under claude-code only `version` is unknown; it moves.
    let (run, envelope) = sandbox.json(&["skill", "fix", "--recursive", "plugin", "project"]);
    run.assert_code(0);
    for (file, source) in [
        (&plugin_skill, "claude-plugin"),
        (&project_skill, "claude-directory"),
    ] {
        let fixed = fs::read_to_string(file).unwrap();
        assert!(
            fixed.contains(
                "metadata:\n  version: \"2\"\ndisable-model-invocation: true\neffort: high\n"
            ),
            "{fixed}"
        );
        let result = files(&envelope)
            .iter()
            .find(|result| file.ends_with(result["path"].as_str().unwrap()))
            .unwrap();
        assert_eq!(result["profile"], "claude-code");
        assert_eq!(result["profile_source"], source);
        assert!(result.get("not_fixed").is_none(), "{result:#}");
    }
    let text = sandbox.run(&[
        "--output",
        "text",
        "--color",
        "never",
        "skill",
        "fix",
        "--dry-run",
        "plain/merge-pr",
        "project/.claude/skills/merge-pr",
    ]);
    assert!(
        text.stdout
            .contains("note: profile claude-code for 1 skill inside a .claude/ directory"),
        "{text}"
    );
    assert!(
        text.stdout.contains("not fixed: plain/merge-pr/SKILL.md"),
        "{text}"
    );
    assert_eq!(fs::read_to_string(&plain).unwrap(), GUARDED);
}

fn shell_words(line: &str) -> Vec<String> {
    // fix_command quotes with single quotes where needed; the paths here
    // need none.
    line.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn fix_names_a_skill_after_its_directory_and_keeps_the_old_name() {
    let sandbox = Sandbox::new();
    let directory = "acf-extended-advanced-custom-fields-workflows";
    let file = sandbox.write(
        format!("skills/{directory}/SKILL.md"),
        "---\nname: \"ACF Extended for Advanced Custom Fields: Workflows!\"\ndescription: Builds ACF workflows.\n---\n# Body\n\nkept: as is \n",
    );
    let (run, envelope) = sandbox.json(&["skill", "fix", "--recursive", "skills"]);
    run.assert_code(0);
    assert_eq!(
        files(&envelope)[0]["repairs"][0]["kind"],
        "name-from-directory"
    );
    let fixed = fs::read_to_string(&file).unwrap();
    assert!(
        fixed.ends_with("---\n# Body\n\nkept: as is \n"),
        "the body is byte for byte the same:\n{fixed}"
    );
    let (read, properties) =
        sandbox.json(&["skill", "read-properties", &format!("skills/{directory}")]);
    read.assert_code(0);
    assert_eq!(properties["data"]["name"], directory);
    assert_eq!(
        properties["data"]["metadata"]["original-name"],
        "ACF Extended for Advanced Custom Fields: Workflows!"
    );
    // fix, then validate, then fmt --check: clean.
    sandbox
        .json(&["skill", "validate", "--strict", "--recursive", "skills"])
        .0
        .assert_code(0);
    sandbox
        .json(&["skill", "fmt", "--check", "--recursive", "skills"])
        .0
        .assert_code(0);
}

#[test]
fn an_invalid_directory_name_is_renamed_only_on_request() {
    let sandbox = Sandbox::new();
    let text = "---\nname: PDF Tools\ndescription: Fills PDF forms.\n---\nBody\n";
    let file = sandbox.write("skills/PDF_Tools/SKILL.md", text);
    let (run, envelope) = sandbox.json(&["skill", "fix", "--recursive", "skills"]);
    run.assert_code(1);
    assert_eq!(fs::read_to_string(&file).unwrap(), text, "nothing changed");
    assert_eq!(envelope["error"]["code"], "FIX_INCOMPLETE");
    let command = envelope["error"]["fix_command"].as_str().unwrap();
    assert_eq!(command, "aigent skill fix --rename-dir skills/PDF_Tools");
    let result = &files(&envelope)[0];
    assert_eq!(result["rename"]["to"], "skills/pdf-tools");
    assert_eq!(result["rename"]["done"], false);
    assert_eq!(result["fix_command"], command);
    assert!(
        result["not_fixed"][0]
            .as_str()
            .unwrap()
            .contains("rename the directory to 'pdf-tools'"),
        "{result:#}"
    );
    // --dry-run says what it would do and does nothing.
    let (dry, envelope) = sandbox.json(&[
        "skill",
        "fix",
        "--dry-run",
        "--rename-dir",
        "skills/PDF_Tools",
    ]);
    dry.assert_code(0);
    assert_eq!(files(&envelope)[0]["status"], "would-write");
    assert!(file.exists());
    // The fix command, as given.
    let words = shell_words(command);
    let again = sandbox.run(
        &[
            &["--output", "json"][..],
            &words[1..].iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    );
    again.assert_code(0);
    let envelope = again.envelope();
    assert_eq!(files(&envelope)[0]["path"], "skills/pdf-tools/SKILL.md");
    assert_eq!(files(&envelope)[0]["rename"]["done"], true);
    assert!(!sandbox.join("skills/PDF_Tools").exists());
    let renamed = fs::read_to_string(sandbox.join("skills/pdf-tools/SKILL.md")).unwrap();
    assert_eq!(
        renamed,
        "---\nname: pdf-tools\ndescription: Fills PDF forms.\nmetadata:\n  original-name: PDF Tools\n---\nBody\n"
    );
    sandbox
        .json(&["skill", "validate", "skills/pdf-tools"])
        .0
        .assert_code(0);
}

#[test]
fn rename_dir_refuses_a_name_that_is_taken() {
    let sandbox = Sandbox::new();
    let text = "---\nname: pdf-tools\ndescription: Fills PDF forms.\n---\nBody\n";
    let file = sandbox.write("skills/PDF_Tools/SKILL.md", text);
    let other = sandbox.write("skills/pdf-tools/notes.md", "someone else's\n");
    let (run, envelope) = sandbox.json(&["skill", "fix", "--rename-dir", "skills/PDF_Tools"]);
    run.assert_code(1);
    let result = &files(&envelope)[0];
    assert_eq!(result["status"], "refused", "{result:#}");
    assert!(
        result["message"]
            .as_str()
            .unwrap()
            .contains("that name is taken"),
        "{result:#}"
    );
    assert_eq!(result["rename"]["done"], false);
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    assert_eq!(fs::read_to_string(&other).unwrap(), "someone else's\n");
    assert_eq!(
        fs::read_dir(sandbox.join("skills/pdf-tools"))
            .unwrap()
            .count(),
        1
    );
}

const MESSY: &str = "---\ndescription: 'Outside'\nname: \"x\"\nversion: 1\n---\nBody\n";

#[cfg(unix)]
#[test]
fn writes_never_follow_a_symlink_out_of_the_tree() {
    use std::os::unix::fs::symlink;
    let sandbox = Sandbox::new();
    let outside_dir = sandbox.write("outside/x/SKILL.md", MESSY);
    let outside_file = sandbox.write("outside/y/SKILL.md", MESSY.replace("\"x\"", "\"y\""));
    fs::create_dir_all(sandbox.join("tree/skills/y")).unwrap();
    symlink("../../outside/x", sandbox.join("tree/skills/x")).unwrap();
    symlink(
        "../../../outside/y/SKILL.md",
        sandbox.join("tree/skills/y/SKILL.md"),
    )
    .unwrap();
    // A link that stays in the tree is written through, and stays a link.
    let shared = sandbox.write("tree/shared/z/SKILL.md", MESSY.replace("\"x\"", "\"z\""));
    symlink("../shared/z", sandbox.join("tree/skills/z")).unwrap();

    for args in [
        &["skill", "fmt", "--recursive", "tree"][..],
        &["skill", "fix", "--recursive", "tree"][..],
        // Named one by one, as a shell glob of skills/* would.
        &["skill", "fmt", "tree/skills/x", "tree/skills/y"][..],
        &["skill", "fix", "tree/skills/x/", "tree/skills/y/SKILL.md"][..],
    ] {
        let (run, envelope) = sandbox.json(args);
        run.assert_code(0);
        let skipped: Vec<&Value> = files(&envelope)
            .iter()
            .filter(|file| file["status"] == "skipped")
            .collect();
        assert_eq!(skipped.len(), 2, "{args:?}: {envelope:#}");
        for file in &skipped {
            assert_eq!(file["code"], "W010");
            assert!(file.get("diff").is_none());
        }
        let warnings = envelope["warnings"].to_string();
        assert!(warnings.contains("W010: "), "{warnings}");
        assert_eq!(fs::read_to_string(&outside_dir).unwrap(), MESSY, "{args:?}");
        assert_eq!(
            fs::read_to_string(&outside_file).unwrap(),
            MESSY.replace("\"x\"", "\"y\""),
            "{args:?}"
        );
        assert_eq!(envelope["data"]["summary"]["skipped"], 2);
    }
    // The in-tree link was written through and is still a link.
    assert!(
        fs::read_to_string(&shared)
            .unwrap()
            .starts_with("---\nname: z\n")
    );
    assert!(
        fs::symlink_metadata(sandbox.join("tree/skills/z"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = sandbox.run(&[
        "--output",
        "text",
        "--color",
        "never",
        "skill",
        "fmt",
        "--check",
        "--recursive",
        "tree",
    ]);
    assert!(
        text.stdout
            .contains("warning[W010]: tree/skills/x/SKILL.md leads through a symlink to"),
        "{text}"
    );

    // skill new into a link to an empty directory outside: refused.
    fs::create_dir_all(sandbox.join("outside/empty")).unwrap();
    symlink("../../outside/empty", sandbox.join("tree/skills/new")).unwrap();
    let (run, envelope) = sandbox.json(&[
        "skill",
        "new",
        "tree/skills/new",
        "--description",
        "A new skill.",
        "--yes",
    ]);
    run.assert_code(6);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("(W010)"),
        "{envelope:#}"
    );
    assert_eq!(
        fs::read_dir(sandbox.join("outside/empty")).unwrap().count(),
        0
    );
    // A link to an empty directory inside the same directory is filled.
    fs::create_dir_all(sandbox.join("tree/skills/.real-empty")).unwrap();
    symlink(".real-empty", sandbox.join("tree/skills/inside")).unwrap();
    sandbox
        .json(&[
            "skill",
            "new",
            "tree/skills/inside",
            "--description",
            "A new skill.",
            "--yes",
        ])
        .0
        .assert_code(0);
    assert!(sandbox.join("tree/skills/.real-empty/SKILL.md").exists());
}

#[cfg(unix)]
#[test]
fn a_hard_link_is_refused_and_with_force_keeps_the_old_text_under_its_other_name() {
    let sandbox = Sandbox::new();
    let inside = sandbox.write("tree/skills/x/SKILL.md", MESSY);
    let other = sandbox.join("outside/x-SKILL.md");
    fs::create_dir_all(sandbox.join("outside")).unwrap();
    fs::hard_link(&inside, &other).unwrap();
    for command in ["fmt", "fix"] {
        // Refused: which name matters is not aigent's to guess.
        let (run, envelope) = sandbox.json(&["skill", command, "--recursive", "tree"]);
        run.assert_code(1);
        assert_eq!(envelope["data"]["files"][0]["status"], "refused", "{run}");
        assert_eq!(fs::read_to_string(&inside).unwrap(), MESSY, "{command}");
        let (run, _) = sandbox.json(&["skill", command, "--force", "--recursive", "tree"]);
        run.assert_code(0);
        assert_ne!(fs::read_to_string(&inside).unwrap(), MESSY, "{command}");
        // The atomic replace gave the name a new file; the other name
        // still holds the old one, unchanged.
        assert_eq!(fs::read_to_string(&other).unwrap(), MESSY, "{command}");
        fs::remove_file(&inside).unwrap();
        fs::hard_link(&other, &inside).unwrap();
    }
    // skill new never writes into an existing file, linked or not.
    let (run, _) = sandbox.json(&[
        "skill",
        "new",
        "tree/skills/x",
        "--description",
        "d.",
        "--yes",
    ]);
    run.assert_code(6);
    assert_eq!(fs::read_to_string(&other).unwrap(), MESSY);
}
