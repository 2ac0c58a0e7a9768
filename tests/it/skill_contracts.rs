//! `aigent skill contracts`: a skill's Bash grants and dynamic-context
//! commands against the registry.

use crate::assert_envelope;
use crate::common::Sandbox;

const SKILL: &str = "---\nname: log-reader\ndescription: Reads the git log. Use when asked about recent commits.\nallowed-tools: Read Bash(git:*) Bash(git --no-pager log --oneline --no-color:*) Bash(frobnicate:*) Bash\n---\n# Log reader\n\nRecent: !`git --no-pager log --oneline --no-color -n 20 --`\n\nRefused: !`git --no-pager log --oneline --no-color -n many --`\n\nUndeclared: !`uptime`\n";

#[test]
fn grants_and_commands_get_a_standing_and_uncovered_grants_a_proposal() {
    let sandbox = Sandbox::new();
    sandbox.write("skills/log-reader/SKILL.md", SKILL);
    let dir = sandbox.join("skills/log-reader");
    let (run, envelope) = sandbox.json(&["skill", "contracts", dir.to_str().unwrap()]);
    run.assert_code(0);
    let skill = &envelope["data"]["skills"][0];
    let standings: Vec<(&str, &str)> = skill["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| {
            (
                finding["written"].as_str().unwrap(),
                finding["standing"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        standings,
        [
            ("Bash(git:*)", "wider_than_contracts"),
            ("Bash(git --no-pager log --oneline --no-color:*)", "covered"),
            ("Bash(frobnicate:*)", "no_contract"),
            ("Bash", "wider_than_contracts"),
            (
                "git --no-pager log --oneline --no-color -n 20 --",
                "covered"
            ),
            (
                "git --no-pager log --oneline --no-color -n many --",
                "fails_contract"
            ),
            ("uptime", "no_contract"),
        ]
    );
    assert_eq!(envelope["data"]["summary"]["grants"], 4);
    assert_eq!(envelope["data"]["summary"]["covered_grants"], 1);
    // The proposals load: written to a registry, they lint clean of errors.
    for proposal in skill["proposals"].as_array().unwrap() {
        let file = format!("proposed/{}", proposal["file_name"].as_str().unwrap());
        sandbox.write(
            &file,
            serde_json::to_string_pretty(&proposal["declaration"]).unwrap(),
        );
        assert!(
            proposal["lint"]
                .as_array()
                .unwrap()
                .iter()
                .all(|diagnostic| diagnostic["severity"] != "error"),
            "{proposal:#}"
        );
    }
    let proposed = sandbox.join("proposed");
    let (lint, _) = sandbox.json(&["--commands", proposed.to_str().unwrap(), "schema", "lint"]);
    lint.assert_code(0);
    assert_envelope!(&sandbox, &run);
}

/// The codes `skill validate` gives the skill's grants and commands, in
/// order: (code, line).
fn contract_codes(envelope: &serde_json::Value) -> Vec<(String, u64)> {
    envelope["data"]["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|diagnostic| {
            ["W011", "W012", "E033"].contains(&diagnostic["code"].as_str().unwrap())
        })
        .map(|diagnostic| {
            (
                diagnostic["code"].as_str().unwrap().to_owned(),
                diagnostic["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn skill_validate_holds_grants_and_commands_against_the_registry() {
    let sandbox = Sandbox::new();
    sandbox.write("repo/skills/log-reader/SKILL.md", SKILL);
    let commands = sandbox.join("repo/commands");
    std::fs::create_dir_all(&commands).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/commands/git-log.json"),
        commands.join("git-log.json"),
    )
    .unwrap();
    let skill = sandbox.join("repo/skills/log-reader");
    let skill = skill.to_str().unwrap();

    // No registry given and none beside the skills: no such finding, and
    // the skill is valid.
    let (run, envelope) = sandbox.json(&["skill", "validate", skill]);
    run.assert_code(0);
    assert!(contract_codes(&envelope).is_empty(), "{run}");

    // --commands: each grant and command that is not covered.
    let expected = [
        ("W011".to_owned(), 4), // Bash(git:*)
        ("W011".to_owned(), 4), // Bash(frobnicate:*)
        ("W011".to_owned(), 4), // Bash
        ("E033".to_owned(), 10),
        ("W012".to_owned(), 12),
    ];
    let (run, envelope) = sandbox.json(&[
        "--commands",
        commands.to_str().unwrap(),
        "skill",
        "validate",
        skill,
    ]);
    run.assert_code(1);
    assert_eq!(contract_codes(&envelope), expected, "{run}");
    assert!(
        envelope["warnings"][0]
            .as_str()
            .unwrap()
            .contains("checked against the registry"),
        "{run}"
    );

    // The same registry found beside the skills once it holds aigent.toml;
    // the text names the codes at their lines.
    std::fs::write(commands.join("aigent.toml"), "").unwrap();
    let (run, envelope) = sandbox.json(&["skill", "validate", skill]);
    run.assert_code(1);
    assert_eq!(contract_codes(&envelope), expected, "{run}");
    assert!(
        envelope["warnings"][0]
            .as_str()
            .unwrap()
            .contains("found beside")
    );
    let text = sandbox.run(&["--output", "text", "skill", "validate", skill]);
    text.assert_code(1);
    // Each code at its line (E033 at SKILL.md:10), the registry named.
    crate::assert_session!(&sandbox, &text);

    // --strict makes the warnings errors too.
    let (run, envelope) = sandbox.json(&["skill", "validate", "--strict", skill]);
    run.assert_code(1);
    let errors = envelope["data"]["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|diagnostic| diagnostic["severity"] == "error")
        .count();
    assert_eq!(errors, 5, "{run}");

    // `skill contracts` reports the same codes: one implementation.
    let (run, envelope) = sandbox.json(&["skill", "contracts", skill]);
    run.assert_code(0);
    let codes: Vec<&str> = envelope["data"]["skills"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|finding| finding["code"].as_str())
        .collect();
    assert_eq!(codes, ["W011", "W011", "W011", "E033", "W012"]);
}
