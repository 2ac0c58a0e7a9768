//! `aigent skill contracts`: a skill's Bash grants and dynamic-context
//! commands against the registry.

use crate::assert_envelope;
use crate::common::Sandbox;

const SKILL: &str = "---\nname: log-reader\ndescription: Reads the git log. Use when asked about recent commits.\nallowed-tools: Read Bash(git:*) Bash(git --no-pager log --oneline --no-color:*) Bash(jq:*) Bash\n---\n# Log reader\n\nRecent: !`git --no-pager log --oneline --no-color -n 20 --`\n\nRefused: !`git --no-pager log --oneline --no-color -n many --`\n\nUndeclared: !`date`\n";

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
            ("Bash(jq:*)", "no_contract"),
            ("Bash", "wider_than_contracts"),
            (
                "git --no-pager log --oneline --no-color -n 20 --",
                "covered"
            ),
            (
                "git --no-pager log --oneline --no-color -n many --",
                "fails_contract"
            ),
            ("date", "no_contract"),
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
