//! The output contract as seen from outside: envelope, formats, usage
//! errors and help.

use crate::common::Sandbox;
use crate::{assert_envelope, assert_session};

#[test]
fn version_prints_and_exits_zero() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--version"]);
    assert_session!(&sandbox, &run);
}

#[test]
fn usage_error_exits_2_with_an_envelope_in_json_mode() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&["no-such-subcommand"]);
    // clap's prose goes to stderr, the envelope to stdout.
    assert_envelope!(&sandbox, &run);
}

#[test]
fn usage_error_in_text_mode_leaves_stdout_empty() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--output", "text", "--bogus-flag"]);
    assert_session!(&sandbox, &run);
}

#[test]
fn aigent_output_environment_variable_selects_the_format() {
    let sandbox = Sandbox::new();
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .env("AIGENT_OUTPUT", "jsonl")
            .arg("no-such-subcommand"),
    );
    run.assert_code(2);
    assert_eq!(run.stdout.lines().count(), 1, "{run}");
    run.envelope();
}

#[test]
fn completions_are_printed_verbatim_even_when_piped() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["completions", "bash"]);
    run.assert_code(0);
    assert!(run.stdout.contains("complete"), "{run}");
    assert!(serde_json::from_str::<serde_json::Value>(&run.stdout).is_err());
}

#[test]
fn usage_errors_in_json_name_the_argument_and_keep_the_message_whole() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&["args", "check"]);
    assert_envelope!("missing_name", &sandbox, &run);
    let (run, _) = sandbox.json(&["skill", "validate", "--bogus"]);
    assert_envelope!("unknown_flag", &sandbox, &run);
}

#[test]
fn an_unsupported_format_is_refused() {
    let sandbox = Sandbox::new();
    let flag = sandbox.run(&["--output", "github", "schema", "show", "deploy"]);
    // The error names the commands that speak the format.
    assert_session!(&sandbox, &flag);
}

#[test]
fn non_utf8_arguments_are_a_usage_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let sandbox = Sandbox::new();
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .args(["--output", "json"])
            .arg(std::ffi::OsStr::from_bytes(b"\xff\xfe")),
    );
    run.assert_code(2);
    assert!(!run.stderr.contains("panicked"), "{run}");
    run.envelope();
}

#[test]
fn an_empty_aigent_commands_means_the_built_in_registry() {
    let sandbox = Sandbox::new();
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .env("AIGENT_COMMANDS", "")
            .args(["--output", "json", "schema", "show", "deploy"]),
    );
    run.assert_code(0);
}

#[test]
fn an_invalid_aigent_output_still_gets_an_envelope_in_a_pipe() {
    let sandbox = Sandbox::new();
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .env("AIGENT_OUTPUT", "yaml")
            .args(["schema", "list"]),
    );
    assert_envelope!(&sandbox, &run);
}

#[test]
fn terminal_escapes_in_what_the_caller_sent_are_shown_escaped() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--output",
        "text",
        "args",
        "check",
        "deploy",
        "--\u{1b}]0;PWNED\u{7}\u{1b}[2J",
        "x",
    ]);
    assert!(
        !run.stderr.contains('\u{1b}'),
        "raw escape reached the terminal:\n{run}"
    );
    assert_session!(&sandbox, &run);
}

#[test]
fn run_usage_errors_go_to_the_result_file_when_one_is_named() {
    let sandbox = Sandbox::new();
    let result = sandbox.join("result.json");
    let run = sandbox.run(&[
        "run",
        "--result",
        result.to_str().unwrap(),
        "--timeout",
        "0",
        "deploy",
    ]);
    // stdout is the child's: empty, as nothing ran.
    assert_session!(&sandbox, &run);
    let envelope: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&result).expect("result file written"))
            .expect("one JSON document");
    let _filters = crate::common::snapshot::settings(&sandbox).bind_to_scope();
    insta::assert_json_snapshot!(envelope);
}

/// The child removes the directory the result file was to go in: its exit
/// status still comes back, and the envelope falls back to stderr.
#[test]
fn a_result_file_that_cannot_be_written_keeps_the_childs_status() {
    let sandbox = Sandbox::new();
    let doomed = sandbox.join("doomed");
    std::fs::create_dir_all(&doomed).unwrap();
    sandbox.write(
        "registry/wipe.json",
        format!(
            r#"{{"name": "wipe", "description": "Remove a directory", "danger_level": "destructive", "parameters": {{}},
                "subprocess": {{"binary": "rm", "hardcoded_args": ["-rf", "{}"], "user_controlled_args": []}}}}"#,
            doomed.display()
        ),
    );
    let result = doomed.join("result.json");
    let run = sandbox.run(&[
        "--commands",
        "registry",
        "--output",
        "json",
        "run",
        "--confirm-destructive",
        "--result",
        result.to_str().unwrap(),
        "wipe",
    ]);
    assert!(!doomed.exists());
    let start = run.stderr.find('{').expect("envelope on stderr");
    serde_json::from_str::<serde_json::Value>(&run.stderr[start..]).expect("one envelope");
    assert_session!(&sandbox, &run);
}
