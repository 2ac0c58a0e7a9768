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
        fixed.ends_with("effort: high\nmetadata:\n  version: \"2\"\n---\nMerge it.\n"),
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
    // (The three skills share a name: W009 on each, not counted here.)
    assert_eq!(
        profile_of("plain/"),
        ("standard".into(), "default".into(), 3)
    );
    let text = sandbox.run(&[
        "--format",
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
        .args(["--format", "json", "skill", "validate", "merge-pr"])
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
                "disable-model-invocation: true\neffort: high\nmetadata:\n  version: \"2\"\n"
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
        "--format",
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
