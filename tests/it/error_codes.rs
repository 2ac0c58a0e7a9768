//! `error.code`, `error.retryable` and `error.phase` as agents see them: each
//! code's envelope carries the exit code and retryable default its
//! `ErrorCode` owns.

use aigent::report::ErrorCode;
use serde_json::Value;

use crate::common::Sandbox;

/// The envelope's error, checked against the enum: its code parses, the
/// process exited with the code's exit code and `retryable` is its default.
#[track_caller]
fn typed_error(args: &[&str], sandbox: &Sandbox) -> (ErrorCode, Value) {
    let (run, envelope) = sandbox.json(args);
    let error = envelope["error"].clone();
    let code: ErrorCode = serde_json::from_value(error["code"].clone())
        .unwrap_or_else(|err| panic!("error.code is not an ErrorCode ({err}):\n{run}"));
    assert_eq!(run.code, code.exit_code(), "{args:?}:\n{run}");
    assert_eq!(error["retryable"], code.retryable(), "{args:?}:\n{run}");
    // A failure the caller can correct says what to correct.
    assert_eq!(
        error["fix_required"].as_str(),
        code.fix_required(),
        "{args:?}:\n{run}"
    );
    (code, error)
}

/// The CLI Agent Spec's `retryable`: the same call, unchanged, fails again,
/// so a rejection is not retryable; it says what to fix instead.
#[test]
fn a_guard_rejection_is_not_retryable_says_what_to_fix_and_is_in_the_validation_phase() {
    let sandbox = Sandbox::new();
    let (code, error) = typed_error(
        &[
            "args",
            "check",
            "files-get",
            "--file-id",
            "../../etc/passwd",
        ],
        &sandbox,
    );
    assert_eq!(code, ErrorCode::InvalidAgentInput);
    assert_eq!(error["retryable"], false);
    assert!(error["fix_required"].is_string(), "{error}");
    assert_eq!(error["phase"], "validation");
}

#[test]
fn an_unknown_command_is_not_found_and_not_retryable() {
    let sandbox = Sandbox::new();
    let (code, error) = typed_error(&["args", "check", "no-such-command"], &sandbox);
    assert_eq!(code, ErrorCode::NotFound);
    assert_eq!(error["retryable"], false);
    assert!(error.get("phase").is_none(), "{error}");
}

#[test]
fn an_invalid_skill_is_not_retryable() {
    let sandbox = Sandbox::new();
    sandbox.write("Bad/SKILL.md", "---\nname: bad\n---\nno description\n");
    let (code, error) = typed_error(&["skill", "validate", "Bad"], &sandbox);
    assert_eq!(code, ErrorCode::ValidationFailed);
    assert_eq!(error["retryable"], false);
}

#[test]
fn a_usage_error_is_an_arg_error() {
    let sandbox = Sandbox::new();
    let (code, _) = typed_error(&["skill", "validate", "--no-such-flag"], &sandbox);
    assert_eq!(code, ErrorCode::ArgError);
}
