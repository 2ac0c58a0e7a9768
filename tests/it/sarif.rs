//! `--output sarif` on `skill validate` and `schema lint`: the log is valid
//! SARIF 2.1.0 (checked against the OASIS schema in tests/fixtures/sarif),
//! located relative to the repository root, with the usual exit codes.

use std::path::Path;

use serde_json::Value;

use crate::common::git::{Fixture, skill_md};
use crate::common::{Run, Sandbox};

fn schema_validator() -> jsonschema::Validator {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sarif/sarif-schema-2.1.0.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read the SARIF schema"))
            .expect("the SARIF schema is JSON");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

/// Parses stdout as one SARIF log and checks it against the schema.
#[track_caller]
fn valid_sarif(run: &Run) -> Value {
    let log: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|err| panic!("stdout is not one JSON document ({err}):\n{run}"));
    let validator = schema_validator();
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "not valid SARIF 2.1.0: {errors:#?}\n{run}"
    );
    log
}

fn results(log: &Value) -> Vec<(String, String, String, u64)> {
    log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| {
            let location = &result["locations"][0]["physicalLocation"];
            (
                result["ruleId"].as_str().unwrap().to_owned(),
                result["level"].as_str().unwrap().to_owned(),
                location["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                location["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A repository holding a valid skill, an invalid one and a warning, run
/// from a subdirectory: locations are still relative to the repository.
fn repo_with_skills() -> Fixture {
    let fx = Fixture::new();
    fx.write("skills/good/SKILL.md", &skill_md("good"));
    fx.write(
        "skills/Bad Name/SKILL.md",
        "---\nname: Bad Name\ndescription: Upper case and a space.\n---\nBody\n",
    );
    fx.write(
        "skills/odd/SKILL.md",
        "---\nname: odd\ndescription: Links to a missing file.\nsurprise: key\n---\nSee [x](missing.md).\n",
    );
    fx.commit_all("skills");
    fx
}

#[test]
fn skill_validate_sarif_is_valid_and_located_from_the_repository_root() {
    let fx = repo_with_skills();
    let run = Run::of(
        fx.sandbox
            .cmd()
            .current_dir(fx.root().join("skills"))
            .args(["skill", "validate", "--recursive", "--output", "sarif", "."]),
    );
    run.assert_code(1);
    let log = valid_sarif(&run);
    assert_eq!(
        results(&log),
        [
            (
                "E003".into(),
                "error".into(),
                "skills/Bad%20Name/SKILL.md".into(),
                2
            ),
            (
                "W001".into(),
                "warning".into(),
                "skills/odd/SKILL.md".into(),
                4
            ),
            (
                "W005".into(),
                "warning".into(),
                "skills/odd/SKILL.md".into(),
                6
            ),
        ]
    );
    let driver = &log["runs"][0]["tool"]["driver"];
    let rule_ids: Vec<&str> = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap())
        .collect();
    assert!(rule_ids.contains(&"E001") && rule_ids.contains(&"W005"));
    for result in log["runs"][0]["results"].as_array().unwrap() {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(driver["rules"][index]["id"], result["ruleId"]);
        assert_eq!(
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"],
            "%SRCROOT%"
        );
        let print = result["partialFingerprints"]["aigentFinding/v1"]
            .as_str()
            .unwrap();
        assert_eq!(print.len(), 34, "{print}");
    }
    let root = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        root.starts_with("file:///") && root.ends_with("/repo/"),
        "{root}"
    );
    if env!("CARGO_PKG_REPOSITORY").is_empty() {
        // No address known: no placeholder link.
        assert!(driver["rules"][0].get("helpUri").is_none(), "{driver}");
        assert!(!run.stdout.contains("your-org"));
    } else {
        // The help link names a page that exists.
        let help = driver["rules"][0]["helpUri"].as_str().unwrap();
        assert!(help.ends_with("docs/reference/skill-codes.md"), "{help}");
        let page = help.split_once("/blob/main/").unwrap().1;
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(page).is_file(),
            "{help}"
        );
    }
    // Prose stays on stderr; stdout is the log alone.
    assert!(run.stderr.contains("1 of 3 skills is invalid"), "{run}");
}

#[test]
fn the_schema_check_can_fail() {
    let validator = schema_validator();
    let broken = serde_json::json!({
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}],
    });
    assert!(!validator.is_valid(&broken));
}

#[test]
fn a_valid_run_exits_0_with_no_results() {
    let sandbox = Sandbox::new();
    sandbox.write("good/SKILL.md", skill_md("good"));
    let run = sandbox.run(&["--output", "sarif", "skill", "validate", "good"]);
    run.assert_code(0);
    let log = valid_sarif(&run);
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    // Outside a repository the current directory is the source root.
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
}

#[test]
fn a_missing_path_keeps_its_exit_code() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--output", "sarif", "skill", "validate", "nowhere"]);
    run.assert_code(5);
    let log = valid_sarif(&run);
    assert_eq!(
        results(&log),
        [("E023".into(), "error".into(), "nowhere".into(), 1)]
    );
}

#[test]
fn schema_lint_sarif_is_valid_and_exits_4_on_errors() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/broken.json",
        r#"{"name": "broken", "description": "no subprocess"}"#,
    );
    let run = sandbox.run(&[
        "--commands",
        "commands",
        "--output",
        "sarif",
        "schema",
        "lint",
    ]);
    run.assert_code(4);
    let log = valid_sarif(&run);
    let found = results(&log);
    assert!(!found.is_empty(), "{run}");
    assert!(
        found
            .iter()
            .all(|(rule, _, uri, _)| rule.starts_with('E') && uri == "commands/broken.json"),
        "{found:?}"
    );
    let embedded = sandbox.run(&["--output", "sarif", "schema", "lint"]);
    embedded.assert_code(0);
    valid_sarif(&embedded);
}

#[test]
fn sarif_is_refused_where_it_does_not_apply() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&["--output", "sarif", "schema", "list"])
        .assert_code(2);
}

#[test]
fn plugin_validate_writes_a_sarif_log_with_each_finding_on_its_file() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "plugin/.claude-plugin/plugin.json",
        r#"{"name": "p", "colour": "blue"}"#,
    );
    sandbox.write("plugin/commands/unclosed.md", "---\ndescription: x\n");
    sandbox.write(
        "plugin/skills/Bad/SKILL.md",
        "---\nname: Bad\ndescription: d\n---\n",
    );
    let run = sandbox.run(&["--output", "sarif", "plugin", "validate", "plugin"]);
    run.assert_code(1);
    let log = valid_sarif(&run);
    let found = results(&log);
    let on = |code: &str| -> Vec<String> {
        found
            .iter()
            .filter(|(rule, ..)| rule == code)
            .map(|(_, _, uri, _)| uri.clone())
            .collect()
    };
    assert_eq!(
        on("P015"),
        ["plugin/.claude-plugin/plugin.json"],
        "{found:?}"
    );
    assert_eq!(on("P013"), ["plugin/commands/unclosed.md"], "{found:?}");
    assert_eq!(on("E003"), ["plugin/skills/Bad/SKILL.md"], "{found:?}");
    // Every result's rule is in the driver's table, plugin and skill codes.
    let driver = &log["runs"][0]["tool"]["driver"];
    for result in log["runs"][0]["results"].as_array().unwrap() {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(driver["rules"][index]["id"], result["ruleId"]);
    }
}
