//! Client profiles (`--profile codex|copilot|cursor|opencode|gemini|
//! strictest`), duplicate names and descriptions across a run, and evals
//! files: each rule on a fixture (tests/fixtures/clients) or a skill
//! written into a sandbox, through the real binary.

use std::path::Path;

use serde_json::Value;

use crate::common::Sandbox;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/clients")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The codes of every finding of the run, in report order.
fn codes(envelope: &Value) -> Vec<String> {
    envelope["data"]["skills"]
        .as_array()
        .expect("reports")
        .iter()
        .flat_map(|report| report["diagnostics"].as_array().unwrap().iter())
        .map(|diagnostic| diagnostic["code"].as_str().unwrap().to_owned())
        .collect()
}

fn messages(envelope: &Value) -> Vec<String> {
    envelope["data"]["skills"]
        .as_array()
        .expect("reports")
        .iter()
        .flat_map(|report| report["diagnostics"].as_array().unwrap().iter())
        .map(|diagnostic| diagnostic["message"].as_str().unwrap().to_owned())
        .collect()
}

fn validate(sandbox: &Sandbox, profile: &str, path: &str) -> (i32, Vec<String>, Value) {
    let (run, envelope) = sandbox.json(&["skill", "validate", "--profile", profile, path]);
    let code = run.code;
    (code, codes(&envelope), envelope)
}

/// Each client rule: silent under `standard`, a finding under its
/// client's profile and under `strictest`, nothing under the others.
#[test]
fn every_client_rule_fires_for_its_client_and_strictest_only() {
    let sandbox = Sandbox::new();
    let cases = [
        ("données", "opencode", "E027"),
        ("codex-short-description", "codex", "E028"),
        ("gemini-no-final-newline", "gemini", "E029"),
        ("gemini-bom", "gemini", "E029"),
    ];
    let profiles = [
        "standard",
        "claude-code",
        "codex",
        "copilot",
        "cursor",
        "opencode",
        "gemini",
        "permissive",
    ];
    for (name, client, code) in cases {
        let path = fixture(name);
        for profile in profiles {
            let (exit, found, envelope) = validate(&sandbox, profile, &path);
            if profile == client {
                assert_eq!(exit, 1, "{name} under {profile}: {envelope:#}");
                assert_eq!(found, [code], "{name} under {profile}");
            } else {
                assert_eq!(exit, 0, "{name} under {profile}: {envelope:#}");
                assert!(
                    !found.iter().any(|found| found.starts_with('E')),
                    "{name} under {profile}: {found:?}"
                );
            }
        }
        let (exit, found, _) = validate(&sandbox, "strictest", &path);
        assert_eq!(exit, 1, "{name} under strictest");
        assert!(found.contains(&code.to_owned()), "{name}: {found:?}");
    }
}

#[test]
fn rule_messages_name_the_client() {
    let sandbox = Sandbox::new();
    let (_, _, envelope) = validate(&sandbox, "strictest", &fixture("données"));
    assert_eq!(
        messages(&envelope),
        [
            "name 'données' has non-ASCII characters; OpenCode documents names of a-z, 0-9 and '-' only"
        ]
    );
    let (_, _, envelope) = validate(&sandbox, "codex", &fixture("codex-short-description"));
    let message = &messages(&envelope)[0];
    assert!(
        message.starts_with("metadata.short-description is 1199 characters long; the limit is 1024; OpenAI Codex does not load the skill"),
        "{message}"
    );
    let (_, _, envelope) = validate(&sandbox, "gemini", &fixture("gemini-no-final-newline"));
    assert_eq!(envelope["data"]["skills"][0]["diagnostics"][0]["line"], 4);
}

#[test]
fn a_portable_skill_passes_every_profile() {
    let sandbox = Sandbox::new();
    for profile in [
        "standard",
        "claude-code",
        "codex",
        "copilot",
        "cursor",
        "opencode",
        "gemini",
        "strictest",
        "permissive",
    ] {
        let (exit, found, _) = validate(&sandbox, profile, &fixture("portable"));
        assert_eq!((exit, found), (0, Vec::<String>::new()), "{profile}");
    }
}

#[test]
fn client_keys_are_known_and_typed() {
    let sandbox = Sandbox::new();
    let path = fixture("copilot-key-type");
    // Copilot and Claude Code read user-invocable as a boolean.
    for profile in ["copilot", "claude-code"] {
        let (exit, found, envelope) = validate(&sandbox, profile, &path);
        assert_eq!((exit, found), (0, vec!["W008".to_owned()]), "{profile}");
        assert!(
            messages(&envelope)[0].starts_with("user-invocable must be a boolean for "),
            "{envelope:#}"
        );
    }
    // Elsewhere the key is unknown; strictest knows only the spec's keys.
    for profile in [
        "standard",
        "codex",
        "cursor",
        "opencode",
        "gemini",
        "strictest",
    ] {
        let (_, found, _) = validate(&sandbox, profile, &path);
        assert_eq!(found, ["W001"], "{profile}");
    }
    let (exit, found, _) = validate(&sandbox, "permissive", &path);
    assert_eq!((exit, found), (0, Vec::<String>::new()));
    // --strict makes the type warning fail the run.
    let (run, _) = sandbox.json(&[
        "skill",
        "validate",
        "--strict",
        "--profile",
        "copilot",
        &path,
    ]);
    run.assert_code(1);
}

#[test]
fn an_unknown_profile_is_a_usage_error_listing_the_clients() {
    let run = Sandbox::new().run(&["skill", "validate", "--profile", "vim", "."]);
    run.assert_code(2);
    for client in [
        "codex",
        "copilot",
        "cursor",
        "opencode",
        "gemini",
        "strictest",
    ] {
        assert!(run.stderr.contains(client), "{run}");
    }
}

fn skill(sandbox: &Sandbox, dir: &str, name: &str, description: &str) {
    sandbox.write(
        format!("{dir}/SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n"),
    );
}

#[test]
fn one_name_twice_is_a_warning_on_the_later_naming_the_earlier() {
    let sandbox = Sandbox::new();
    skill(
        &sandbox,
        "team-a/pdf",
        "pdf",
        "Fills PDF forms for the finance team.",
    );
    skill(
        &sandbox,
        "team-b/pdf",
        "pdf",
        "Merges scanned PDF pages into one file.",
    );
    let (run, envelope) = sandbox.json(&["skill", "validate", "--recursive", "."]);
    run.assert_code(0);
    // Reported once, on the later skill, as a compiler reports a second
    // definition: the first is final when it is written.
    assert_eq!(codes(&envelope), ["W009"]);
    assert_eq!(
        envelope["data"]["skills"][0]["diagnostics"],
        serde_json::json!([])
    );
    let found = messages(&envelope);
    assert!(found[0].contains("team-a/pdf/SKILL.md"), "{found:?}");
    let (run, _) = sandbox.json(&["skill", "validate", "--recursive", "--strict", "."]);
    run.assert_code(1);
}

#[test]
fn one_name_in_two_lookup_paths_of_one_client_is_an_error() {
    let sandbox = Sandbox::new();
    skill(
        &sandbox,
        "project/.claude/skills/pdf",
        "pdf",
        "Fills PDF forms.",
    );
    skill(
        &sandbox,
        "project/.agents/skills/pdf",
        "pdf",
        "Merges PDF pages.",
    );
    // Another project's copy only shadows nothing: a warning.
    skill(
        &sandbox,
        "other/.claude/skills/pdf",
        "pdf",
        "Splits PDF files.",
    );
    let (run, envelope) = sandbox.json(&["skill", "validate", "--recursive", "."]);
    run.assert_code(1);
    let reports = envelope["data"]["skills"].as_array().unwrap();
    let by_path = |end: &str| -> Vec<(String, String)> {
        reports
            .iter()
            .filter(|report| report["path"].as_str().unwrap().ends_with(end))
            .flat_map(|report| report["diagnostics"].as_array().unwrap().iter())
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_owned(),
                    d["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let claude = by_path("project/.claude/skills/pdf/SKILL.md");
    assert_eq!(claude.len(), 1, "{claude:?}");
    assert_eq!(claude[0].0, "E030");
    assert!(
        claude[0].1.contains("project/.agents/skills/pdf/SKILL.md")
            && claude[0]
                .1
                .contains("GitHub Copilot in VS Code, Cursor, OpenCode loads both"),
        "{claude:?}"
    );
    // Discovery order: other/, then project/.agents, then project/.claude.
    // The first has nothing to point at; the second only another
    // project's copy, which shadows nothing: a warning.
    assert_eq!(by_path("other/.claude/skills/pdf/SKILL.md"), []);
    let agents = by_path("project/.agents/skills/pdf/SKILL.md");
    assert_eq!(agents.len(), 1);
    assert_eq!(agents[0].0, "W009", "{agents:?}");
    assert!(
        agents[0].1.contains("other/.claude/skills/pdf/SKILL.md"),
        "{agents:?}"
    );
}

#[test]
fn near_duplicate_descriptions_are_notes_that_never_fail() {
    let sandbox = Sandbox::new();
    skill(
        &sandbox,
        "pdf-forms",
        "pdf-forms",
        "Fills PDF forms and signs them.",
    );
    skill(
        &sandbox,
        "pdf-signer",
        "pdf-signer",
        "fills pdf forms, and SIGNS them",
    );
    skill(&sandbox, "csv", "csv", "Cleans CSV files before analysis.");
    for strict in [false, true] {
        let mut args = vec!["skill", "validate", "--recursive"];
        if strict {
            args.push("--strict");
        }
        args.push(".");
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(0);
        assert_eq!(codes(&envelope), ["N001"], "strict {strict}");
        assert_eq!(envelope["data"]["summary"]["warnings"], 0);
        // csv, pdf-forms, pdf-signer: the later of the pair has it.
        let note = &envelope["data"]["skills"][2]["diagnostics"][0];
        assert!(
            note["message"]
                .as_str()
                .unwrap()
                .contains("pdf-forms/SKILL.md"),
            "{note}"
        );
        assert_eq!(note["severity"], "note");
    }
    let run = sandbox.run(&["--output", "text", "skill", "validate", "--recursive", "."]);
    assert!(
        run.stdout
            .contains("note[N001]: description is nearly the same as that of"),
        "{run}"
    );
    let github = sandbox.run(&[
        "--output",
        "github",
        "skill",
        "validate",
        "--recursive",
        ".",
    ]);
    assert!(github.stdout.contains("::notice file="), "{github}");
}

fn evals_skill(sandbox: &Sandbox, evals: &str) {
    skill(sandbox, "pdf", "pdf", "Fills PDF forms.");
    sandbox.write("pdf/evals/evals.json", evals);
}

#[test]
fn a_well_formed_evals_file_is_silent() {
    let sandbox = Sandbox::new();
    evals_skill(
        &sandbox,
        r#"{"skill_name": "pdf", "evals": [
            {"id": 1, "prompt": "Fill form.pdf with my address", "expected_output": "A filled form", "files": ["form.pdf"]},
            {"id": 2, "prompt": "Sign it", "assertions": ["The output PDF has a signature field set"]}
        ]}"#,
    );
    sandbox.write(
        "pdf/evals/trigger-queries.json",
        r#"[{"query": "fill in this pdf", "should_trigger": true},
            {"query": "what is the weather", "should_trigger": false}]"#,
    );
    sandbox.write("pdf/evals/notes.json", "not json, and not a trigger file");
    let (run, envelope) = sandbox.json(&["skill", "validate", "pdf"]);
    run.assert_code(0);
    assert_eq!(codes(&envelope), Vec::<String>::new());
}

#[test]
fn a_malformed_evals_file_is_a_finding_of_the_skill() {
    let sandbox = Sandbox::new();
    evals_skill(
        &sandbox,
        r#"{"skill_name": "word", "evals": [{"id": 1, "expected_output": "x"}, {"id": 1, "prompt": "p"}]}"#,
    );
    let (run, envelope) = sandbox.json(&["skill", "validate", "pdf"]);
    run.assert_code(1);
    assert_eq!(
        messages(&envelope),
        [
            "evals/evals.json: `skill_name` is 'word' but the skill is named 'pdf'",
            "evals/evals.json: `evals[0].prompt` is missing",
            "evals/evals.json: `evals[1].id` 1 is also the id of an earlier eval",
            "evals/evals.json: `evals[1]` has neither `expected_output` nor `assertions`",
        ]
    );
    assert_eq!(codes(&envelope), ["E031"; 4]);
    let diagnostic = &envelope["data"]["skills"][0]["diagnostics"][0];
    assert_eq!(diagnostic["file"], "evals/evals.json");

    sandbox.write(
        "pdf/evals/evals.json",
        "{\"skill_name\": \"pdf\",\n  \"evals\": [,]}",
    );
    let (_, envelope) = sandbox.json(&["skill", "validate", "pdf"]);
    assert_eq!(codes(&envelope), ["E031"]);
    assert_eq!(envelope["data"]["skills"][0]["diagnostics"][0]["line"], 2);
}

#[test]
fn a_malformed_trigger_file_is_a_finding_of_the_skill() {
    let sandbox = Sandbox::new();
    skill(&sandbox, "pdf", "pdf", "Fills PDF forms.");
    sandbox.write(
        "pdf/evals/trigger_eval.json",
        r#"[{"query": "fill this", "should_trigger": "yes"}, {"should_trigger": false}]"#,
    );
    let (run, envelope) = sandbox.json(&["skill", "validate", "pdf"]);
    run.assert_code(1);
    assert_eq!(
        messages(&envelope),
        [
            "evals/trigger_eval.json: `[0].should_trigger` must be true or false, found a string",
            "evals/trigger_eval.json: `[1].query` is missing",
        ]
    );
    assert_eq!(codes(&envelope), ["E032", "E032"]);
}

#[test]
fn an_evals_fifo_does_not_hang() {
    let sandbox = Sandbox::new();
    skill(&sandbox, "pdf", "pdf", "Fills PDF forms.");
    std::fs::create_dir_all(sandbox.join("pdf/evals")).unwrap();
    let fifo = sandbox.join("pdf/evals/evals.json");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    let (run, envelope) = sandbox.json(&["skill", "validate", "pdf"]);
    run.assert_code(1);
    assert_eq!(codes(&envelope), ["E031"]);
}
