//! The invocation protocol driven through the library entry point, as an
//! MCP server or any other library caller would: no binary in between.

use aigent::contract::{Origin, SourceFormat};
use aigent::guard::RawArguments;
use aigent::invoke::{InvokeError, InvokeOptions, Invoked, Mode, invoke};
use aigent::registry::parse_declaration;

use crate::common::Sandbox;

const ECHO: &str = r#"{
  "name": "say",
  "description": "Prints a word",
  "parameters": {"word": {"type": "string", "pattern": "^[a-z]+$", "required": true}},
  "subprocess": {"binary": "true", "hardcoded_args": [], "user_controlled_args": ["word"]}
}"#;

fn declaration() -> aigent::contract::Declaration {
    parse_declaration(ECHO, SourceFormat::Json, &Origin::default())
        .declaration
        .expect("the test declaration is valid")
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|word| (*word).to_owned()).collect()
}

fn audit_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn a_rejection_is_audited_and_nothing_runs() {
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let tail = words(&["--word", "../etc"]);
    let options = InvokeOptions {
        mode: Mode::Run,
        audit_log: Some(&log),
        timeout: None,
    };
    let invoked = invoke(&declaration(), &RawArguments::from_tail(&tail), &options).unwrap();
    let Invoked::Rejected {
        rejection,
        audit_warning,
    } = invoked
    else {
        panic!("expected a rejection, got {invoked:?}");
    };
    assert_eq!(rejection.command, "say");
    assert_eq!(audit_warning, None);
    let records = audit_lines(&log);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["event"], "TOOL_ARG_VALIDATION_FAILURE");
}

#[test]
fn a_run_is_audited_after_the_child_ends() {
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let tail = words(&["--word", "hello"]);
    let options = InvokeOptions {
        audit_log: Some(&log),
        ..InvokeOptions::default()
    };
    let invoked = invoke(&declaration(), &RawArguments::from_tail(&tail), &options).unwrap();
    let Invoked::Finished {
        argv,
        finished,
        audit_warning,
    } = invoked
    else {
        panic!("expected a finished run, got {invoked:?}");
    };
    assert_eq!(argv.words(), ["true", "hello"]);
    assert_eq!(finished.exit_code(), Some(0));
    assert_eq!(audit_warning, None);
    let records = audit_lines(&log);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["event"], "COMMAND_EXECUTED");
}

#[test]
fn check_and_dry_run_spawn_nothing_and_audit_nothing() {
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let tail = words(&["--word", "hello"]);
    for mode in [Mode::Check, Mode::DryRun] {
        let options = InvokeOptions {
            mode,
            audit_log: Some(&log),
            timeout: None,
        };
        let invoked = invoke(&declaration(), &RawArguments::from_tail(&tail), &options).unwrap();
        match (mode, &invoked) {
            (Mode::Check, Invoked::Accepted(_)) => {}
            (Mode::DryRun, Invoked::Planned { argv, .. }) => {
                assert_eq!(argv.words(), ["true", "hello"]);
            }
            _ => panic!("{mode:?} gave {invoked:?}"),
        }
    }
    assert!(audit_lines(&log).is_empty());
}

#[test]
fn an_unwritable_audit_log_fails_closed() {
    let sandbox = Sandbox::new();
    // A directory cannot be opened for appending.
    let log = sandbox.path().to_path_buf();
    let tail = words(&["--word", "hello"]);
    let options = InvokeOptions {
        audit_log: Some(&log),
        ..InvokeOptions::default()
    };
    let err = invoke(&declaration(), &RawArguments::from_tail(&tail), &options).unwrap_err();
    assert!(matches!(err, InvokeError::AuditUnwritable(_)), "{err:?}");
    assert!(err.to_string().ends_with("nothing was run"), "{err}");
}
