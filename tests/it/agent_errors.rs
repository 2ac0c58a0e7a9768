//! Errors an agent can act on, and aigent following the spec it enforces:
//! a required danger level with a suggested value, corrections for the
//! common hallucinations of each pattern type, the corrected command
//! (`fix_command`) that runs as printed, a bare `aigent`, and the spec
//! revision in the manifest.

use serde_json::Value;

use crate::common::{Run, Sandbox};
use crate::{assert_envelope, assert_session};

/// The words a POSIX shell makes of `line`, minus the leading `aigent`.
fn shell_words(line: &str) -> Vec<String> {
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\0' {line}"))
        .output()
        .expect("sh runs");
    assert!(output.status.success());
    let mut words: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .split_terminator('\0')
        .map(str::to_owned)
        .collect();
    assert_eq!(words.remove(0), "aigent", "{line}");
    words
}

fn fix_command(envelope: &Value) -> &str {
    envelope["error"]["fix_command"]
        .as_str()
        .unwrap_or_else(|| panic!("no fix_command in {envelope:#}"))
}

#[test]
fn a_declaration_without_a_danger_level_is_refused_with_a_suggestion() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/wipe.yaml",
        "name: wipe\ndescription: Remove the scratch directory\nparameters: {}\nsubprocess: {binary: rm, hardcoded_args: ['-rf', scratch]}\n",
    );
    sandbox.write(
        "commands/pods.yaml",
        "name: pods\ndescription: List pods\nparameters: {}\nsubprocess: {binary: kubectl, hardcoded_args: [get, pods]}\n",
    );
    sandbox.write(
        "commands/sync.yaml",
        "name: sync\ndescription: Sync a bucket\nparameters: {}\nsubprocess: {binary: rclone, hardcoded_args: [copy, a, b]}\n",
    );
    std::fs::create_dir(sandbox.join("scratch")).unwrap();
    let lint = sandbox.run(&[
        "--commands",
        "commands",
        "--output",
        "text",
        "schema",
        "lint",
    ]);
    assert_session!(&sandbox, &lint);
    // Nothing runs from a declaration that does not say how dangerous it is.
    let run = sandbox.run(&["--commands", "commands", "--output", "json", "run", "wipe"]);
    run.assert_code(4);
    assert!(sandbox.join("scratch").exists());
}

#[test]
fn the_built_in_examples_carry_their_danger_levels() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["schema", "list", "--limit", "0"]);
    run.assert_code(0);
    let commands = envelope["data"]["commands"].as_array().unwrap();
    // The catalog's too, without a snapshot: it grows.
    for command in commands {
        assert!(command["danger_level"].is_string(), "{command}");
    }
    let levels: Vec<(String, String)> = commands
        .iter()
        .filter(|command| command["layer"] == "user")
        .map(|command| {
            (
                command["name"].as_str().unwrap().to_owned(),
                command["danger_level"]
                    .as_str()
                    .expect("a level")
                    .to_owned(),
            )
        })
        .collect();
    insta::assert_debug_snapshot!(levels);
}

#[test]
fn a_v_prefixed_version_gets_the_corrected_command_which_passes() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "prod-east-1",
        "--version",
        "v1.2.3",
    ]);
    run.assert_code(2);
    assert_envelope!(&sandbox, &run);
    assert_eq!(
        fix_command(&envelope),
        "aigent args check --no-audit deploy --cluster-id prod-east-1 --version 1.2.3"
    );
    let again = Run::of(sandbox.cmd().args(shell_words(fix_command(&envelope))));
    again.assert_code(0);
}

/// Each hallucination, through the binary: the suggestion, and a
/// `fix_command` that a shell reads back into a call that passes.
#[test]
fn common_hallucinations_are_corrected_per_pattern_type() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/probe.json",
        r#"{"name": "probe", "description": "Echo a few typed values", "danger_level": "safe",
            "parameters": {
                "id": {"type": "string", "pattern_type": "alphanumeric_id"},
                "uuid": {"type": "string", "pattern_type": "uuid"},
                "version": {"type": "string", "pattern_type": "semver"},
                "link": {"type": "string", "pattern_type": "url"},
                "ticket": {"type": "string", "pattern": "^[A-Z]{2,8}-[0-9]{1,6}$"},
                "count": {"type": "integer"},
                "env": {"type": "enum", "enum_values": ["dev", "prod"]}
            },
            "subprocess": {"binary": "echo", "user_controlled_args": ["id", "uuid", "version", "link", "ticket", "count", "env"]}}"#,
    );
    let mut table = Vec::new();
    for (flag, value) in [
        ("--version", " 1.2.3 "),
        ("--version", "v1.2.3"),
        ("--uuid", "{123e4567-e89b-12d3-a456-426614174000}"),
        ("--uuid", "urn:uuid:123e4567-e89b-12d3-a456-426614174000"),
        ("--uuid", "123E4567E89B12D3A456426614174000"),
        ("--id", "prod-east-1/"),
        ("--id", "'prod-east-1'"),
        ("--id", "`prod-east-1`"),
        ("--id", "prod%2Deast"),
        ("--link", "<https://example.com/a b>"),
        ("--ticket", "ops-42"),
        ("--count", "5.0"),
        ("--env", "Prod"),
        // Guesses are suggested, never put in a command to run.
        ("--env", "prd"),
        ("--id", "prod?region=1"),
    ] {
        let (run, envelope) = sandbox.json(&[
            "--commands",
            "commands",
            "args",
            "check",
            "probe",
            flag,
            value,
        ]);
        run.assert_code(2);
        let error = &envelope["error"];
        let fix = error["fix_command"].as_str().map(str::to_owned);
        if let Some(fix) = &fix {
            let again = Run::of(sandbox.cmd().args(shell_words(fix)));
            again.assert_code(0);
        }
        table.push(format!(
            "{flag} {value:?} -> {} {} | fix: {}",
            error["rejected_pattern"].as_str().unwrap(),
            error["suggestion"],
            fix.as_deref().unwrap_or("none")
        ));
    }
    insta::assert_snapshot!(table.join("\n"));
}

#[test]
fn run_gets_a_fix_command_for_run_and_text_shows_it() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--output",
        "text",
        "run",
        "--dry-run",
        "deploy",
        "--cluster-id",
        "\"prod-east-1\"",
        "--version",
        "1.2.3",
    ]);
    run.assert_code(2);
    assert_session!(&sandbox, &run);
}

#[test]
fn a_command_with_a_sensitive_input_never_gets_a_fix_command() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/login.yaml",
        "name: login\ndescription: Log in\ndanger_level: mutating\nparameters:\n  version: {type: string, pattern_type: semver}\n  token: {type: string, sensitive: true}\nsubprocess: {binary: echo, argv: [{param: version}], env: {TOKEN: {param: token}}}\n",
    );
    let (run, envelope) = sandbox.json(&[
        "--commands",
        "commands",
        "args",
        "check",
        "--allow-secret-argv",
        "login",
        "--version",
        "v1.2.3",
        "--token",
        "s3cret-value",
    ]);
    run.assert_code(2);
    let error = &envelope["error"];
    assert_eq!(error["suggestion"], "1.2.3");
    assert!(error.get("fix_command").is_none(), "{error:#}");
    assert!(error.get("fix_arguments").is_none(), "{error:#}");
    assert!(!run.stdout.contains("s3cret") && !run.stderr.contains("s3cret"));
}

#[test]
fn a_bare_aigent_prints_its_help_and_exits_0() {
    let sandbox = Sandbox::new();
    let bare = sandbox.text(&[]);
    bare.assert_code(0);
    assert!(bare.stderr.is_empty(), "{}", bare.stderr);
    // The whole top-level help: usage, every group, the examples.
    crate::assert_session!(&sandbox, &bare);
    let help = sandbox.text(&["--help"]);
    assert_eq!(bare.stdout, help.stdout);
}

#[test]
fn the_manifest_names_the_spec_revision_it_targets() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["--schema"]);
    run.assert_code(0);
    let spec = envelope["meta"]["spec"].as_str().expect("meta.spec");
    assert!(
        spec.starts_with("cli-agent-spec/cli-agent-spec@6e163a8267fcdb107bae43c7bf14fb46ac2a47f1"),
        "{spec}"
    );
}
