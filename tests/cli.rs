//! The output contract as seen from outside: envelope, formats, usage
//! errors and help.

mod common;

use common::Sandbox;

#[test]
fn version_prints_and_exits_zero() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--version"]);
    run.assert_code(0);
    assert!(run.stdout.starts_with("aigent "), "{run}");
}

#[test]
fn usage_error_exits_2_with_an_envelope_in_json_mode() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["no-such-subcommand"]);
    run.assert_code(2);
    assert_eq!(envelope["error"]["code"], "ARG_ERROR");
    assert!(
        run.stderr.contains("no-such-subcommand"),
        "clap's prose goes to stderr:\n{run}"
    );
}

#[test]
fn usage_error_in_text_mode_leaves_stdout_empty() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--format", "text", "--bogus-flag"]);
    run.assert_code(2);
    assert!(run.stdout.is_empty(), "{run}");
    assert!(run.stderr.contains("--bogus-flag"), "{run}");
}

#[test]
fn aigent_format_environment_variable_selects_the_format() {
    let sandbox = Sandbox::new();
    let run = common::Run::of(
        sandbox
            .cmd()
            .env("AIGENT_FORMAT", "json")
            .arg("no-such-subcommand"),
    );
    run.assert_code(2);
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
