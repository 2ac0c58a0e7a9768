//! `aigent schema lint --changed` and `--output github`, over real git
//! repositories.

use crate::common::Sandbox;
use crate::common::git::Fixture;
use serde_json::Value;

fn declaration(name: &str, pattern_type: &str) -> String {
    format!(
        r#"{{"name": "{name}", "description": "Does {name}", "danger_level": "mutating", "parameters": {{
            "item-id": {{"type": "string", "required": true, "description": "Which item", "pattern_type": "{pattern_type}"}}}}}}"#
    )
}

/// `main`: four declarations, `legacy` already broken. `topic`: `alpha`
/// broken by a committed change, `gamma` added (untracked), `doomed`
/// deleted; `beta` and `legacy` untouched.
fn registry_branch() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "commands/alpha.json",
        &declaration("alpha", "alphanumeric_id"),
    );
    fx.write("commands/beta.json", &declaration("beta", "uuid"));
    fx.write("commands/doomed.json", &declaration("doomed", "uuid"));
    fx.write(
        "commands/legacy.json",
        &declaration("legacy", "no_such_type"),
    );
    fx.commit_all("base");
    fx.switch_new_branch("topic");
    fx.write("commands/alpha.json", &declaration("alpha", "not-a-type"));
    std::fs::remove_file(fx.root().join("commands/doomed.json")).unwrap();
    fx.commit_all("break alpha, drop doomed");
    fx.write("commands/gamma.json", &declaration("gamma", "semver"));
    fx
}

fn linted(envelope: &Value) -> Vec<String> {
    envelope["data"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn only_the_touched_declarations_are_linted() {
    let fx = registry_branch();
    let (run, envelope) = fx.json(&["--commands", "commands", "schema", "lint", "--changed"]);
    run.assert_code(4);
    assert_eq!(linted(&envelope), ["alpha", "gamma"], "{run}");
    let changed = &envelope["data"]["changed"];
    assert_eq!(changed["whole_registry"], false);
    assert_eq!(changed["deleted"][0]["path"], "commands/doomed.json");
    assert_eq!(changed["base"]["revision"], "main", "{run}");
    assert_eq!(envelope["error"]["code"], "INVALID_DECLARATION");

    // Without --changed the already-broken `legacy` is linted too.
    let (run, envelope) = fx.json(&["--commands", "commands", "schema", "lint"]);
    run.assert_code(4);
    assert_eq!(
        linted(&envelope),
        ["alpha", "beta", "gamma", "legacy"],
        "{run}"
    );
}

#[test]
fn a_clean_change_passes_and_compare_to_head_ignores_untracked_work() {
    let fx = Fixture::new();
    fx.write(
        "commands/alpha.json",
        &declaration("alpha", "alphanumeric_id"),
    );
    fx.write(
        "commands/legacy.json",
        &declaration("legacy", "no_such_type"),
    );
    fx.commit_all("base");
    fx.switch_new_branch("topic");
    fx.write("commands/alpha.json", &declaration("alpha", "uuid"));
    fx.commit_all("alpha takes uuids");
    fx.write("commands/gamma.json", &declaration("gamma", "semver"));
    let lint = |extra: &[&str]| {
        let mut args = vec!["--commands", "commands", "schema", "lint", "--changed"];
        args.extend_from_slice(extra);
        fx.json(&args)
    };
    let (run, envelope) = lint(&[]);
    run.assert_code(0);
    assert_eq!(linted(&envelope), ["alpha", "gamma"], "{run}");
    let (run, envelope) = lint(&["--compare-to", "head"]);
    run.assert_code(0);
    assert_eq!(
        linted(&envelope),
        ["alpha"],
        "untracked gamma is not committed work: {run}"
    );
}

#[test]
fn a_changed_script_beside_the_declarations_lints_them_all() {
    let fx = Fixture::new();
    fx.write(
        "commands/alpha.json",
        &declaration("alpha", "alphanumeric_id"),
    );
    fx.write("commands/beta.json", &declaration("beta", "uuid"));
    fx.write("commands/tool.py", "print('hi')\n");
    fx.commit_all("base");
    fx.switch_new_branch("topic");
    fx.write("commands/tool.py", "import os\nos.system('ls')\n");
    let (run, envelope) = fx.json(&["--commands", "commands", "schema", "lint", "--changed"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["changed"]["whole_registry"], true, "{run}");
    assert_eq!(linted(&envelope), ["alpha", "beta"]);
}

#[test]
fn changed_needs_a_registry_directory_inside_a_repository() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["schema", "lint", "--changed"]);
    run.assert_code(2);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--commands"),
        "{run}"
    );

    sandbox.write("loose/alpha.json", declaration("alpha", "uuid"));
    let (run, envelope) = sandbox.json(&["--commands", "loose", "schema", "lint", "--changed"]);
    run.assert_code(4);
    assert_eq!(envelope["error"]["code"], "PRECONDITION", "{run}");

    let fx = registry_branch();
    let (run, _) = fx.json(&[
        "--commands",
        "commands",
        "schema",
        "lint",
        "--changed",
        "--base",
        "no-such-rev",
    ]);
    run.assert_code(5);
}

#[test]
fn lint_speaks_github_annotations() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/alpha.json", declaration("alpha", "not-a-type"));
    let run = crate::common::Run::of(sandbox.cmd().args([
        "--output",
        "github",
        "--commands",
        "commands",
        "schema",
        "lint",
    ]));
    run.assert_code(4);
    let first = run.stdout.lines().next().unwrap();
    assert!(
        first.starts_with("::error file=commands/alpha.json,"),
        "{run}"
    );
    assert!(
        run.stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("aigent: 1 declarations"),
        "{run}"
    );
}
