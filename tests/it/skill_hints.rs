//! Errors that say how to fix: the YAML hint (line, column, and for a
//! `: ` inside a value, the quoted form), and `--recursive` suggested for a
//! directory that holds no skill but has skills below it.

use serde_json::Value;

use crate::common::Sandbox;

/// Stdout and stderr of a text run, with the exit code, for a snapshot.
fn session(sandbox: &Sandbox, args: &[&str]) -> String {
    let run = sandbox.run(args);
    format!(
        "exit: {}\n--- stdout\n{}\n--- stderr\n{}",
        run.code, run.stdout, run.stderr
    )
}

#[test]
fn a_colon_in_a_value_says_to_quote_it_with_line_and_column() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "pdf/SKILL.md",
        "---\nname: pdf\ndescription: Fill forms: any PDF, \"fast\"\n---\nBody\n",
    );
    insta::assert_snapshot!(session(
        &sandbox,
        &[
            "--output", "text", "--color", "never", "skill", "validate", "pdf"
        ]
    ));
    let (run, envelope) = sandbox.json(&["skill", "validate", "pdf"]);
    run.assert_code(1);
    let diagnostic = &envelope["data"]["skills"][0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "E017");
    assert_eq!(diagnostic["line"], 3);
    insta::assert_snapshot!(diagnostic["message"].as_str().unwrap());
}

#[test]
fn other_yaml_mistakes_get_a_plain_hint() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "list/SKILL.md",
        "---\nname: list\ndescription: [draft\n---\n",
    );
    sandbox.write(
        "tick/SKILL.md",
        "---\nname: tick\ndescription: `code` first\n---\n",
    );
    let message = |dir: &str| -> String {
        let (_, envelope) = sandbox.json(&["skill", "validate", dir]);
        envelope["data"]["skills"][0]["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    insta::assert_snapshot!(format!("{}\n{}", message("list"), message("tick")));
}

#[test]
fn a_directory_with_skills_below_suggests_recursive() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "skills/b-skill/SKILL.md",
        "---\nname: b-skill\ndescription: d\n---\n",
    );
    sandbox.write(
        "skills/a-group/a-skill/SKILL.md",
        "---\nname: a-skill\ndescription: d\n---\n",
    );
    insta::assert_snapshot!(session(
        &sandbox,
        &[
            "--output", "text", "--color", "never", "skill", "validate", "skills"
        ]
    ));
    let (run, envelope) = sandbox.json(&["skill", "validate", "skills"]);
    run.assert_code(1);
    assert_eq!(
        envelope["error"]["hints"],
        serde_json::json!([
            "skills holds no SKILL.md but has skills below it; to validate them: aigent skill validate --recursive skills"
        ])
    );
    // The suggestion works.
    sandbox
        .run(&["skill", "validate", "--recursive", "skills"])
        .assert_code(0);
}

#[test]
fn an_empty_directory_gets_no_recursive_hint() {
    let sandbox = Sandbox::new();
    sandbox.write("empty/notes.txt", "nothing here");
    let (run, envelope) = sandbox.json(&["skill", "validate", "empty"]);
    run.assert_code(1);
    assert_eq!(envelope["error"].get("hints"), None::<&Value>);
    let message = envelope["data"]["skills"][0]["diagnostics"][0]["message"]
        .as_str()
        .unwrap();
    assert!(!message.contains("--recursive"), "{message}");
}
