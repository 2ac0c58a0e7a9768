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
  "danger_level": "mutating",
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
        ..InvokeOptions::default()
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
fn a_run_is_audited_before_it_starts_and_after_it_ends() {
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
        ..
    } = invoked
    else {
        panic!("expected a finished run, got {invoked:?}");
    };
    assert_eq!(argv.words(), ["true", "hello"]);
    assert_eq!(finished.exit_code(), Some(0));
    assert_eq!(audit_warning, None);
    let records = audit_lines(&log);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["event"], "COMMAND_STARTED");
    assert_eq!(records[1]["event"], "COMMAND_EXECUTED");
    assert!(records[0]["request_id"].is_string());
    assert_eq!(records[0]["request_id"], records[1]["request_id"]);
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
            ..InvokeOptions::default()
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
    // A directory cannot be opened for appending. One inside the sandbox:
    // the lock file beside the log must land there too, not in /tmp.
    let log = sandbox.join("a-directory");
    std::fs::create_dir(&log).unwrap();
    let tail = words(&["--word", "hello"]);
    let options = InvokeOptions {
        audit_log: Some(&log),
        ..InvokeOptions::default()
    };
    let err = invoke(&declaration(), &RawArguments::from_tail(&tail), &options).unwrap_err();
    assert!(matches!(err, InvokeError::AuditUnwritable(_)), "{err:?}");
    assert!(err.to_string().ends_with("nothing was run"), "{err}");
}

/// A script that writes its argv and environment where the test reads them.
fn recorder(sandbox: &Sandbox) -> std::path::PathBuf {
    let out = sandbox.join("record.out");
    sandbox.script(
        "record.sh",
        &format!(
            "#!/bin/sh\n{{ printf '%s\\n' \"$@\"; echo ---; env; }} > '{}'\n",
            out.display()
        ),
    )
}

fn declared(text: &str) -> aigent::contract::Declaration {
    let parsed = parse_declaration(text, SourceFormat::Yaml, &Origin::default());
    parsed
        .declaration
        .unwrap_or_else(|| panic!("{:?}", parsed.diagnostics))
}

#[test]
fn a_destructive_command_runs_only_when_confirmed() {
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let script = recorder(&sandbox);
    let declaration = declared(&format!(
        "name: wipe\ndescription: Wipes\ndanger_level: destructive\nparameters: {{}}\nsubprocess: {{binary: '{}', argv: [now]}}\nsandbox: {{write: ['{}']}}\n",
        script.display(),
        sandbox.path().display()
    ));
    let refused = invoke(
        &declaration,
        &RawArguments::from_tail(&[]),
        &InvokeOptions {
            audit_log: Some(&log),
            ..InvokeOptions::default()
        },
    )
    .unwrap();
    let Invoked::ConfirmationRequired { argv, .. } = refused else {
        panic!("expected a refusal, got {refused:?}");
    };
    assert_eq!(argv.args(), ["now"]);
    assert!(!sandbox.join("record.out").exists(), "nothing may run");
    assert_eq!(
        audit_lines(&log)[0]["event"],
        "COMMAND_CONFIRMATION_REFUSED"
    );

    // A dry run needs no confirmation.
    let planned = invoke(
        &declaration,
        &RawArguments::from_tail(&[]),
        &InvokeOptions {
            mode: Mode::DryRun,
            audit_log: Some(&log),
            ..InvokeOptions::default()
        },
    )
    .unwrap();
    assert!(matches!(planned, Invoked::Planned { .. }), "{planned:?}");

    let confirmed = invoke(
        &declaration,
        &RawArguments::from_tail(&[]),
        &InvokeOptions {
            audit_log: Some(&log),
            confirmed: true,
            ..InvokeOptions::default()
        },
    )
    .unwrap();
    assert!(
        matches!(confirmed, Invoked::Finished { .. }),
        "{confirmed:?}"
    );
    assert!(sandbox.join("record.out").exists());
}

#[test]
fn the_child_gets_the_declared_environment_and_the_trace_id() {
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let script = recorder(&sandbox);
    let declaration = declared(&format!(
        "name: api\ndescription: Calls\ndanger_level: safe\nparameters:\n  token: {{type: string, sensitive: true, required: true}}\nsubprocess:\n  binary: '{}'\n  argv: [call]\n  env: {{API_TOKEN: {{param: token}}, PAGER: cat}}\nsandbox: {{write: ['{}']}}\n",
        script.display(),
        sandbox.path().display()
    ));
    let tail = words(&["--token", "hunter2-secret"]);
    let request = aigent::request::RequestIds::with_trace(Some("trace-42"));
    let invoked = invoke(
        &declaration,
        &RawArguments::from_tail(&tail),
        &InvokeOptions {
            audit_log: Some(&log),
            request: Some(request.clone()),
            ..InvokeOptions::default()
        },
    )
    .unwrap();
    assert!(matches!(invoked, Invoked::Finished { .. }), "{invoked:?}");
    let recorded = std::fs::read_to_string(sandbox.join("record.out")).unwrap();
    let (argv, env) = recorded.split_once("---\n").unwrap();
    assert_eq!(argv, "call\n", "the secret stays off the argv");
    let env: Vec<&str> = env.lines().collect();
    assert!(env.contains(&"API_TOKEN=hunter2-secret"), "{env:?}");
    assert!(env.contains(&"PAGER=cat"), "{env:?}");
    assert!(env.contains(&"TOOL_TRACE_ID=trace-42"), "{env:?}");
    // Only the base set, what every child gets, the declared variables
    // and the trace id.
    for line in &env {
        let name = line.split('=').next().unwrap();
        assert!(
            aigent::exec::env::BASE.contains(&name)
                || aigent::exec::env::NON_INTERACTIVE
                    .iter()
                    .any(|(set, _)| *set == name)
                || [
                    "API_TOKEN",
                    "PAGER",
                    "TOOL_TRACE_ID",
                    "PWD",
                    "SHLVL",
                    "_",
                    "OLDPWD"
                ]
                .contains(&name),
            "`{name}` leaked into the child: {env:?}"
        );
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(!log_text.contains("hunter2-secret"), "{log_text}");
    let records = audit_lines(&log);
    assert_eq!(records[0]["trace_id"], "trace-42");
    assert_eq!(records[0]["request_id"], request.request_id.as_str());
    assert_eq!(records[0]["env"]["set"]["API_TOKEN"], "[REDACTED]");
}

#[test]
fn the_declared_timeout_applies_unless_the_caller_overrides_it() {
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let declaration = declared(
        "name: nap\ndescription: Sleeps\ndanger_level: safe\ntimeout_s: 0.3\nparameters: {}\nsubprocess: {binary: sleep, argv: ['30']}\n",
    );
    let options = InvokeOptions {
        audit_log: Some(&log),
        ..InvokeOptions::default()
    };
    assert_eq!(
        options.effective_timeout(&declaration),
        std::time::Duration::from_millis(300)
    );
    let invoked = invoke(&declaration, &RawArguments::from_tail(&[]), &options).unwrap();
    let Invoked::Finished { finished, .. } = invoked else {
        panic!("{invoked:?}");
    };
    assert!(finished.timed_out);
    let overridden = InvokeOptions {
        timeout: Some(std::time::Duration::from_secs(5)),
        ..options
    };
    assert_eq!(
        overridden.effective_timeout(&declaration),
        std::time::Duration::from_secs(5)
    );
    let undeclared = declared(
        "name: nap\ndescription: Sleeps\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: sleep, argv: ['0']}\n",
    );
    assert_eq!(
        InvokeOptions::default().effective_timeout(&undeclared),
        aigent::invoke::DEFAULT_TIMEOUT
    );
}
