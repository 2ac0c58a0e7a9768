//! `aigent plugin validate`: marketplaces, plugins and their components,
//! on the fixtures in tests/fixtures/plugins.

use std::path::Path;

use serde_json::Value;

use crate::common::{Run, Sandbox};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/plugins")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Every (report path suffix, code, field) the run found.
fn findings(envelope: &Value) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for report in envelope["data"]["skills"].as_array().expect("reports") {
        let path = report["path"].as_str().unwrap().replace('\\', "/");
        for diagnostic in report["diagnostics"].as_array().unwrap() {
            found.push((
                path.clone(),
                diagnostic["code"].as_str().unwrap().to_owned(),
                diagnostic["field"].as_str().unwrap_or("").to_owned(),
            ));
        }
    }
    found
}

fn has(found: &[(String, String, String)], path_end: &str, code: &str, field: &str) -> bool {
    found
        .iter()
        .any(|(path, c, f)| path.ends_with(path_end) && c == code && f == field)
}

#[test]
fn a_good_marketplace_is_valid_with_every_plugin_and_skill_checked() {
    let (run, envelope) =
        Sandbox::new().json(&["plugin", "validate", &fixture("good-marketplace")]);
    run.assert_code(0);
    assert_eq!(findings(&envelope), Vec::new(), "{run}");
    let paths: Vec<&str> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|report| report["path"].as_str().unwrap())
        .collect();
    for expected in [
        ".claude-plugin/marketplace.json",
        "formatter/.claude-plugin/plugin.json",
        "format-code/SKILL.md",
        "write-notes/SKILL.md",
    ] {
        assert!(
            paths.iter().any(|path| path.ends_with(expected)),
            "{expected} not checked: {paths:?}"
        );
    }
}

#[test]
fn a_broken_marketplace_reports_each_problem_with_its_code() {
    let (run, envelope) =
        Sandbox::new().json(&["plugin", "validate", &fixture("broken-marketplace")]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["code"], "VALIDATION_FAILED");
    let found = findings(&envelope);
    let market = "marketplace.json";
    for (path, code, field) in [
        (market, "P005", "name"),
        (market, "P003", "owner.name"),
        (market, "P008", "plugins[0].source"),
        (market, "P010", "plugins[2].name"),
        (market, "P006", "plugins[4].version"),
        (market, "P011", "plugins[5]"),
        (market, "P009", "plugins[6]"),
        (market, "P007", "plugins[7].source"),
        (market, "P007", "plugins[8].source"),
        (market, "P003", "plugins[9].source"),
        (market, "P002", "plugins[10]"),
        ("garbled/.claude-plugin/plugin.json", "P001", ""),
        ("bad-skill/SKILL.md", "E003", "name"),
    ] {
        assert!(
            has(&found, path, code, field),
            "no {code} on {field} in {path}: {found:#?}"
        );
    }
    // The duplicate is checked once, and the good plugin's skill is fine.
    assert!(
        !found
            .iter()
            .any(|(path, _, _)| path.ends_with("good-skill/SKILL.md"))
    );
}

#[test]
fn a_broken_plugin_reports_its_manifest_and_components() {
    let (run, envelope) = Sandbox::new().json(&["plugin", "validate", &fixture("broken-plugin")]);
    run.assert_code(1);
    let found = findings(&envelope);
    let manifest = "broken-plugin/.claude-plugin/plugin.json";
    for (code, field) in [
        ("P004", "keywords"),
        ("P015", "colour"),
        ("P012", "commands"),
    ] {
        assert!(
            has(&found, manifest, code, field),
            "no {code} on {field}: {found:#?}"
        );
    }
    let broken = found.iter().filter(|(_, code, _)| code == "P013").count();
    assert_eq!(
        broken, 3,
        "unclosed command, agent without frontmatter, hooks without `hooks`: {found:#?}"
    );
}

#[test]
fn warnings_fail_only_under_strict() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "p/.claude-plugin/plugin.json",
        r#"{"name": "p", "colour": "blue"}"#,
    );
    let path = sandbox.join("p").to_string_lossy().into_owned();
    let (run, envelope) = sandbox.json(&["plugin", "validate", &path]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["warnings"], 1);
    let (run, _) = sandbox.json(&["plugin", "validate", "--strict", &path]);
    run.assert_code(1);
}

#[test]
fn a_manifest_file_path_stands_for_its_plugin() {
    let file = format!(
        "{}/.claude-plugin/marketplace.json",
        fixture("good-marketplace")
    );
    let (run, _) = Sandbox::new().json(&["plugin", "validate", &file]);
    run.assert_code(0);
}

#[test]
fn missing_paths_and_plain_directories() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["plugin", "validate", "no/such/dir"]);
    run.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NOT_FOUND");
    let (run, envelope) = sandbox.json(&["plugin", "validate", &fixture("not-a-plugin")]);
    run.assert_code(1);
    assert!(has(&findings(&envelope), "not-a-plugin", "P014", ""));
}

#[test]
fn text_and_github_formats_name_the_codes() {
    let sandbox = Sandbox::new();
    // Run beside the fixture, so the report's paths (and the width of its
    // table) do not depend on where the repository is checked out.
    let run = |format: &str| {
        Run::of(sandbox.cmd().current_dir(fixture("")).args([
            "--output",
            format,
            "plugin",
            "validate",
            "broken-plugin",
        ]))
    };
    let text = run("text");
    text.assert_code(1);
    crate::assert_session!("broken_plugin_text", &sandbox, &text);
    let github = run("github");
    github.assert_code(1);
    crate::assert_session!("broken_plugin_github", &sandbox, &github);
}

#[test]
fn a_huge_or_hostile_manifest_is_refused_not_read() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "big/.claude-plugin/plugin.json",
        vec![b' '; 2 * 1024 * 1024],
    );
    let path = sandbox.join("big").to_string_lossy().into_owned();
    let (run, envelope) = sandbox.json(&["plugin", "validate", &path]);
    run.assert_code(1);
    assert!(
        has(&findings(&envelope), "plugin.json", "E021", ""),
        "{run}"
    );
    assert!(
        run.stdout
            .contains("plugin.json is 2097152 bytes; the limit"),
        "the finding names the manifest, not a skill file: {run}"
    );
}

#[test]
fn two_entries_with_one_source_check_the_plugin_once() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "market/.claude-plugin/marketplace.json",
        r#"{"name": "m", "owner": {"name": "o"}, "plugins": [
            {"name": "p", "source": "./plugins/p"},
            {"name": "p-again", "source": "./plugins/p", "commands": ["./missing.md"]}
        ]}"#,
    );
    sandbox.write(
        "market/plugins/p/.claude-plugin/plugin.json",
        r#"{"name": "p", "colour": "blue"}"#,
    );
    sandbox.write("market/plugins/p/commands/unclosed.md", "---\nx: 1\n");
    sandbox.write(
        "market/plugins/p/skills/s/SKILL.md",
        "---\nname: s\ndescription: d\n---\n",
    );
    let (run, envelope) = sandbox.json(&["plugin", "validate", "market"]);
    run.assert_code(1);
    let found = findings(&envelope);
    let count = |code: &str| found.iter().filter(|(_, c, _)| c == code).count();
    assert_eq!(count("P015"), 1, "{found:#?}");
    assert_eq!(count("P013"), 1, "{found:#?}");
    // The second entry's own findings are the marketplace's.
    assert!(
        has(&found, "marketplace.json", "P011", "plugins[1]"),
        "{found:#?}"
    );
    assert!(
        has(&found, "marketplace.json", "P012", "plugins[1]"),
        "{found:#?}"
    );
    assert!(
        has(&found, "commands/unclosed.md", "P013", ""),
        "{found:#?}"
    );
    let paths: Vec<&str> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|report| report["path"].as_str().unwrap())
        .collect();
    let mut unique = paths.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        paths.len(),
        "a file reported twice: {paths:?}"
    );
    assert_eq!(envelope["data"]["summary"]["checked"], paths.len());
}

#[test]
fn base_dir_links_resolve_to_the_skill_directory() {
    let sandbox = Sandbox::new();
    sandbox.write("p/skills/s/scripts/run.py", "print()\n");
    sandbox.write(
        "p/skills/s/SKILL.md",
        "---\nname: s\ndescription: d\n---\nRun [it]({baseDir}/scripts/run.py), not [that]({baseDir}/scripts/gone.py).\n",
    );
    let (run, envelope) = sandbox.json(&["plugin", "validate", "p"]);
    run.assert_code(0);
    let found = findings(&envelope);
    let missing: Vec<&(String, String, String)> =
        found.iter().filter(|(_, code, _)| code == "W005").collect();
    assert_eq!(missing.len(), 1, "{found:#?}");
    let message = envelope["data"]["skills"].to_string();
    assert!(
        message.contains("linked file 'scripts/gone.py' does not exist"),
        "{message}"
    );
}
