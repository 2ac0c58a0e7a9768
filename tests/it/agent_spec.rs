//! The CLI Agent Spec as it reads at the commit named in
//! tests/fixtures/agent-spec/README.md: aigent's manifest against the
//! spec's own `manifest-response.json`, and the behaviours that
//! docs/reference/agent-spec.md marks met.

use serde_json::Value;

use crate::common::Sandbox;
use crate::common::agent_spec::{exit_code_entry_errors, manifest_errors};

/// `aigent --schema`: its `data` is a valid `ManifestResponse`.
#[test]
fn the_manifest_is_a_valid_manifest_response() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["--schema"]);
    run.assert_code(0);
    let errors = manifest_errors(&envelope["data"]);
    assert!(errors.is_empty(), "{errors:#?}");
}

/// REQ-F-014: a reader that stops early (`aigent --schema | head -c 10`)
/// is no failure: exit 0, nothing on stderr.
#[cfg(unix)]
#[test]
fn a_closed_pipe_exits_0_quietly() {
    use std::io::Read;
    let sandbox = Sandbox::new();
    // The manifest is larger than a pipe's buffer, so the write is still
    // under way when the reader goes.
    let mut child = sandbox
        .std_cmd()
        .args(["--schema"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn aigent");
    let mut first = [0u8; 10];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("read 10 bytes");
    let output = child.wait_with_output().expect("wait");
    assert_eq!(&first[..1], b"{");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// `--schema` forgives what is missing (a subcommand, NAME), never what is
/// unknown; a usage error says it was refused before anything ran.
#[test]
fn schema_refuses_unknown_arguments_and_usage_errors_carry_their_phase() {
    let sandbox = Sandbox::new();
    for args in [
        &["--schema", "--bogus-xyz"][..],
        &["skill", "validate", "--schema", "--bogus-xyz"],
        &["args", "check", "--schema", "--frobnicate"],
    ] {
        let (run, envelope) = sandbox.json(args);
        run.assert_code(2);
        assert_eq!(envelope["error"]["code"], "ARG_ERROR", "{run}");
        assert_eq!(envelope["error"]["phase"], "validation", "{run}");
        assert_eq!(envelope["error"]["retryable"], false, "{run}");
    }
    // What is missing is still forgiven.
    let (run, envelope) = sandbox.json(&["args", "check", "--schema"]);
    run.assert_code(0);
    assert!(envelope["data"]["commands"]["args.check"].is_object(), "{run}");
}

/// REQ-F-048: in json mode `--help` is prose on stderr and an envelope on
/// stdout pointing at the manifest; in text mode it is help on stdout.
#[test]
fn help_in_json_mode_goes_to_stderr_with_an_envelope_on_stdout() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["skill", "validate", "--help"]);
    run.assert_code(0);
    assert_eq!(envelope["data"], Value::Null);
    assert_eq!(envelope["meta"]["help"], true);
    assert_eq!(
        envelope["meta"]["schema_ref"],
        "aigent skill validate --schema"
    );
    assert!(run.stderr.contains("Usage: aigent skill validate"), "{run}");
    let text = sandbox.run(&["--format", "text", "skill", "validate", "--help"]);
    text.assert_code(0);
    assert!(text.stdout.contains("Usage: aigent skill validate"), "{text}");
    assert!(text.stderr.is_empty(), "{text}");
}
