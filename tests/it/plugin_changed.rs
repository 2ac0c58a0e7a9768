//! `aigent plugin validate --changed` over real git repositories (libgit2
//! in temp dirs): only the plugins and marketplaces a branch touched are
//! validated, deleted ones are reported.

use serde_json::Value;

use crate::common::git::{Fixture, skill_md};

fn plugin_manifest(name: &str) -> String {
    format!(
        "{{\"name\": \"{name}\", \"version\": \"1.0.0\", \"description\": \"The {name} plugin.\"}}\n"
    )
}

/// `main`: a marketplace listing plugins `alpha`, `beta` and `doomed`,
/// each with one skill. `feature` edits alpha's skill, deletes doomed and
/// leaves beta alone.
fn marketplace_branch() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        ".claude-plugin/marketplace.json",
        r#"{"name": "team-tools", "owner": {"name": "Team"}, "plugins": [
            {"name": "alpha", "source": "./plugins/alpha"},
            {"name": "beta", "source": "./plugins/beta"},
            {"name": "doomed", "source": "./plugins/doomed"}
        ]}"#,
    );
    for name in ["alpha", "beta", "doomed"] {
        fx.write(
            &format!("plugins/{name}/.claude-plugin/plugin.json"),
            &plugin_manifest(name),
        );
        fx.write(
            &format!("plugins/{name}/skills/{name}-skill/SKILL.md"),
            &skill_md(&format!("{name}-skill")),
        );
    }
    fx.write("README.md", "# tools\n");
    fx.commit_all("base");
    fx.switch_new_branch("feature");
    fx.write(
        "plugins/alpha/skills/alpha-skill/SKILL.md",
        &format!("{}\nMore detail.\n", skill_md("alpha-skill")),
    );
    fx.remove_dir("plugins/doomed");
    fx.commit_all("edit alpha, drop doomed");
    fx
}

fn paths(envelope: &Value) -> Vec<String> {
    envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|report| report["path"].as_str().unwrap().replace('\\', "/"))
        .collect()
}

#[test]
fn only_the_touched_plugin_is_validated_and_the_deleted_one_reported() {
    let fx = marketplace_branch();
    let (run, envelope) = fx.json(&["plugin", "validate", "--changed", "--base", "main"]);
    run.assert_code(0);
    assert_eq!(
        paths(&envelope),
        [
            "plugins/alpha/.claude-plugin/plugin.json",
            "plugins/alpha/skills/alpha-skill/SKILL.md",
        ],
        "{run}"
    );
    let first = &envelope["data"]["skills"][0]["selected"];
    assert_eq!(first["path"], "plugins/alpha");
    let deleted: Vec<&str> = envelope["data"]["changed"]["deleted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|unit| unit["path"].as_str().unwrap())
        .collect();
    assert_eq!(deleted, ["plugins/doomed"]);
}

#[test]
fn a_broken_change_fails_and_an_edited_marketplace_selects_itself() {
    let fx = marketplace_branch();
    fx.write(
        "plugins/beta/skills/beta-skill/SKILL.md",
        "---\nname: Beta_Skill\ndescription: Broken on the branch.\n---\n",
    );
    let (run, envelope) = fx.json(&["plugin", "validate", "--changed", "--base", "main"]);
    run.assert_code(1);
    assert!(
        paths(&envelope).contains(&"plugins/beta/skills/beta-skill/SKILL.md".to_owned()),
        "{run}"
    );

    // The marketplace still names the deleted plugin: editing it selects
    // the whole marketplace, and the missing source is found.
    fx.write(
        ".claude-plugin/marketplace.json",
        r#"{"name": "team-tools", "owner": {"name": "Team"}, "description": "Edited.", "plugins": [
        {"name": "alpha", "source": "./plugins/alpha"},
        {"name": "doomed", "source": "./plugins/doomed"}
    ]}"#,
    );
    let (run, envelope) = fx.json(&[
        "plugin",
        "validate",
        "--changed",
        "--base",
        "main",
        "--compare-to",
        "work-tree",
    ]);
    run.assert_code(1);
    assert!(
        paths(&envelope)
            .iter()
            .any(|path| path.ends_with(".claude-plugin/marketplace.json")),
        "{run}"
    );
}

#[test]
fn nothing_changed_is_valid_and_no_repository_is_exit_4() {
    let fx = Fixture::new();
    fx.write("README.md", "# empty\n");
    fx.commit_all("base");
    let (run, envelope) = fx.json(&["plugin", "validate", "--changed", "--base", "main"]);
    run.assert_code(0);
    assert_eq!(paths(&envelope), Vec::<String>::new());

    let outside = crate::common::Sandbox::new();
    let run = outside.run(&["plugin", "validate", "--changed"]);
    run.assert_code(4);
}
