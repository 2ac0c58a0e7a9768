//! `aigent args check`: Phase 1 from outside, with the audit log.

use crate::common::Sandbox;
use crate::{assert_envelope, assert_session};
use serde_json::{Value, json};

fn rules(envelope: &Value) -> Vec<String> {
    envelope["error"]["errors"]
        .as_array()
        .map(|errors| {
            errors
                .iter()
                .map(|error| error["rejected_pattern"].as_str().unwrap_or("").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn audit_lines(sandbox: &Sandbox) -> Vec<Value> {
    match std::fs::read_to_string(sandbox.audit_log()) {
        Ok(text) => text
            .lines()
            .map(|line| serde_json::from_str(line).expect("JSONL"))
            .collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn valid_arguments_exit_0_with_the_typed_arguments() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&[
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "prod-east-1",
        "--version=1.2.3-rc.1+build.5",
    ]);
    assert_envelope!(&sandbox, &run);
    assert!(
        audit_lines(&sandbox).is_empty(),
        "a pass writes no audit record"
    );
}

#[test]
fn a_rejection_exits_2_naming_the_argument_and_the_expected_pattern() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&[
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "prod.east",
        "--version",
        "1.2.3",
    ]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn traversal_encoding_and_query_strings() {
    let sandbox = Sandbox::new();
    let cases: [(&str, &str, Option<&str>); 4] = [
        ("../../etc/passwd", "path_traversal", None),
        ("%2e%2e%2fetc", "path_traversal", None),
        ("f-123?foo=bar", "query_parameter", Some("f-123")),
        ("f%2D123", "percent_encoded", Some("f-123")),
    ];
    for (index, (value, rule, suggestion)) in cases.into_iter().enumerate() {
        let (run, envelope) = sandbox.json(&["args", "check", "files-get", "--file-id", value]);
        run.assert_code(2);
        assert_eq!(envelope["error"]["code"], "INVALID_AGENT_INPUT", "{run}");
        assert_eq!(envelope["error"]["rejected_pattern"], rule, "{run}");
        assert_eq!(envelope["error"]["input_value"], value);
        assert_eq!(
            envelope["error"]["suggestion"].as_str(),
            suggestion,
            "{run}"
        );
        assert_envelope!(format!("traversal_{index}"), &sandbox, &run);
    }
}

#[test]
fn every_violation_is_listed() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "null",
        "--version",
        "v1.2.3",
        "--region",
        "eu",
    ]);
    assert_eq!(
        rules(&envelope),
        ["unknown_parameter", "placeholder_literal", "semver"],
        "{run}"
    );
    assert_envelope!(&sandbox, &run);
    let (missing, _) = sandbox.json(&["args", "check", "deploy"]);
    assert_envelope!("all_required_missing", &sandbox, &missing);
}

#[test]
fn a_path_passes_unchanged() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "read_file",
        "--path",
        "/home/user/file.txt",
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["arguments"]["path"], "/home/user/file.txt");
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "run-script",
        "--script",
        "./a b/c.sh",
        "--args",
        "--verbose",
        "--args",
        "x y",
    ]);
    run.assert_code(0);
    assert_eq!(
        envelope["data"]["arguments"],
        json!({"script": "./a b/c.sh", "args": ["--verbose", "x y"]})
    );
}

#[test]
fn json_arguments_must_be_an_object_without_prototype_keys() {
    let sandbox = Sandbox::new();
    for text in ["[]", "\"x\"", "42", "{"] {
        let (run, envelope) = sandbox.json(&["args", "check", "deploy", "--json", text]);
        run.assert_code(2);
        assert_eq!(rules(&envelope), ["json"], "{text}: {run}");
    }
    let (run, envelope) = sandbox.json(&[
        "args", "check", "deploy", "--json",
        r#"{"cluster-id": "prod", "version": "1.2.3", "x": {"y": [{"constructor": {"prototype": 1}}]}}"#,
    ]);
    assert_eq!(
        rules(&envelope),
        ["prototype_key", "prototype_key"],
        "{run}"
    );
    assert_envelope!("prototype_keys", &sandbox, &run);
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "deploy",
        "--json={\"cluster-id\": \"prod\", \"version\": \"1.2.3\", \"clusterid\": \"x\"}",
    ]);
    run.assert_code(2);
    assert_eq!(rules(&envelope), ["unknown_parameter"]);
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "deploy",
        "--json",
        r#"{"cluster-id": "prod", "version": "1.2.3"}"#,
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["arguments"]["version"], "1.2.3");
}

#[test]
fn mcp_tools_are_validated_by_their_input_schema() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "shell_exec",
        "--json",
        r#"{"argv": ["git", "log", "--oneline"]}"#,
    ]);
    run.assert_code(0);
    assert_eq!(
        envelope["data"]["arguments"]["argv"],
        json!(["git", "log", "--oneline"])
    );
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "shell_exec",
        "--argv",
        "ls",
        "--argv",
        "-la",
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["arguments"]["argv"], json!(["ls", "-la"]));
    for (text, expected) in [
        (r#"{"argv": []}"#, vec!["schema"]),
        (
            r#"{"cmd": "rm -rf /"}"#,
            vec!["unknown_parameter", "required"],
        ),
        (r#"{"argv": "ls -la"}"#, vec!["type"]),
        (
            r#"{"argv": ["sh", "echo hi; rm -rf /"]}"#,
            vec!["shell_metacharacter"],
        ),
    ] {
        let (run, envelope) = sandbox.json(&["args", "check", "shell_exec", "--json", text]);
        run.assert_code(2);
        assert_eq!(rules(&envelope), expected, "{text}: {run}");
    }
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "read_file",
        "--json",
        r#"{"path": "．．／．．／etc/passwd"}"#,
    ]);
    run.assert_code(2);
    assert_eq!(rules(&envelope), ["path_traversal"], "{run}");
}

#[test]
fn unknown_commands_exit_5() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&["args", "check", "delpoy", "--x", "y"]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn text_mode_explains_on_stderr() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--output",
        "text",
        "args",
        "check",
        "files-get",
        "--file-id",
        "f-1?x=1",
    ]);
    assert_session!(&sandbox, &run);
    let ok = sandbox.run(&[
        "--output",
        "text",
        "args",
        "check",
        "files-get",
        "--file-id",
        "f-1",
    ]);
    assert_session!("text_mode_pass", &sandbox, &ok);
}

fn secret_registry(sandbox: &Sandbox) -> String {
    sandbox.write(
        "registry/login.json",
        serde_json::to_string(&json!({
            "name": "login",
            "description": "Log in",
            "danger_level": "mutating",
            "parameters": {
                "user": {"type": "string", "required": true, "pattern_type": "alphanumeric_id"},
                "token": {"type": "string", "required": true, "pattern": "^[a-z0-9]{8,64}$", "sensitive": true}
            }
        }))
        .unwrap(),
    );
    sandbox.join("registry").to_str().unwrap().to_owned()
}

#[test]
fn rejections_are_audited_privately_with_sensitive_values_redacted() {
    let sandbox = Sandbox::new();
    let dir = secret_registry(&sandbox);
    let (run, envelope) = sandbox.json(&[
        "--commands",
        &dir,
        "args",
        "check",
        "--allow-secret-argv",
        "login",
        "--user",
        "../admin",
        "--token",
        "TOPSECRET-Value",
    ]);
    run.assert_code(2);
    assert!(
        !run.stdout.contains("TOPSECRET"),
        "the envelope hides sensitive values:\n{run}"
    );
    assert_eq!(envelope["error"]["errors"][1]["input_value"], "[REDACTED]");
    sandbox
        .json(&[
            "args",
            "check",
            "deploy",
            "--cluster-id",
            "x;y",
            "--version",
            "1.2.3",
        ])
        .0
        .assert_code(2);

    let records = audit_lines(&sandbox);
    assert_eq!(records.len(), 2, "one line per rejection");
    let first = &records[0];
    assert_eq!(first["event"], "TOOL_ARG_VALIDATION_FAILURE");
    assert_eq!(first["command"], "login");
    assert!(first["pid"].as_u64().is_some());
    let timestamp = first["timestamp"].as_str().unwrap();
    assert!(
        timestamp.ends_with('Z') && timestamp.len() == 24,
        "{timestamp}"
    );
    assert_eq!(first["violations"][0]["input_value"], "../admin");
    assert_eq!(first["violations"][1]["input_value"], "[REDACTED]");
    let raw = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    assert!(!raw.contains("TOPSECRET"), "{raw}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(sandbox.audit_log())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn audit_log_flag_overrides_the_environment() {
    let sandbox = Sandbox::new();
    let custom = sandbox.join("custom/audit.jsonl");
    let (run, _) = sandbox.json(&[
        "args",
        "check",
        "--audit-log",
        custom.to_str().unwrap(),
        "files-get",
        "--file-id",
        "../x",
    ]);
    run.assert_code(2);
    assert_eq!(std::fs::read_to_string(&custom).unwrap().lines().count(), 1);
    assert!(audit_lines(&sandbox).is_empty());
}

/// `args check` runs nothing, so `--no-audit` may skip the record of a
/// rejection: no file anywhere, neither the configured log nor the
/// fallback under the state directory. The verdict is the same.
#[test]
fn no_audit_writes_no_record() {
    let sandbox = Sandbox::new();
    for env in [true, false] {
        let mut cmd = sandbox.cmd();
        if !env {
            cmd.env_remove("AIGENT_AUDIT_LOG");
        }
        let run = crate::common::Run::of(cmd.args([
            "--output",
            "json",
            "args",
            "check",
            "--no-audit",
            "files-get",
            "--file-id",
            "../x",
        ]));
        run.assert_code(2);
        assert_eq!(
            run.envelope()["error"]["rejected_pattern"],
            "path_traversal"
        );
        assert!(run.envelope()["warnings"].as_array().unwrap().is_empty());
    }
    assert!(audit_lines(&sandbox).is_empty());
    assert!(!sandbox.join("state/aigent").exists());
    // It is an args check flag: run has none, and it does not combine
    // with --audit-log.
    let run = sandbox.run(&["run", "--no-audit", "files-get", "--file-id", "f-1"]);
    run.assert_code(2);
    let run = sandbox.run(&[
        "args",
        "check",
        "--no-audit",
        "--audit-log",
        "x",
        "files-get",
    ]);
    run.assert_code(2);
}

#[test]
fn xdg_state_home_is_the_fallback_location() {
    let sandbox = Sandbox::new();
    let run = crate::common::Run::of(sandbox.cmd().env_remove("AIGENT_AUDIT_LOG").args([
        "--output",
        "json",
        "args",
        "check",
        "files-get",
        "--file-id",
        "null",
    ]));
    run.assert_code(2);
    let text = std::fs::read_to_string(sandbox.join("state/aigent/audit.jsonl")).unwrap();
    assert!(text.contains("placeholder_literal"), "{text}");
}

#[test]
fn an_unwritable_audit_log_keeps_the_result_and_warns() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.join("a-directory")).unwrap();
    let (run, envelope) = sandbox.json(&[
        "args",
        "check",
        "--audit-log",
        sandbox.join("a-directory").to_str().unwrap(),
        "files-get",
        "--file-id",
        "../x",
    ]);
    run.assert_code(2);
    assert_eq!(envelope["error"]["rejected_pattern"], "path_traversal");
    assert!(
        envelope["warnings"][0]
            .as_str()
            .unwrap()
            .contains("audit record was not written"),
        "{run}"
    );
}

#[test]
fn quiet_passes_print_nothing_and_other_formats_are_refused() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--output",
        "text",
        "--quiet",
        "args",
        "check",
        "files-get",
        "--file-id",
        "f-1",
    ]);
    run.assert_code(0);
    assert!(run.stdout.is_empty() && run.stderr.is_empty(), "{run}");
    sandbox
        .run(&[
            "--output",
            "json-schema",
            "args",
            "check",
            "files-get",
            "--file-id",
            "f-1",
        ])
        .assert_code(2);
}

/// After NAME every word belongs to the declared command, even one that
/// spells an aigent option, wherever it stands; the error says so.
#[test]
fn aigent_options_after_name_belong_to_the_declared_command() {
    let sandbox = Sandbox::new();
    for args in [
        [
            "args",
            "check",
            "deploy",
            "--quiet",
            "--cluster-id",
            "a",
            "--version",
            "1.2.3",
        ],
        [
            "args",
            "check",
            "deploy",
            "--cluster-id",
            "a",
            "--quiet",
            "--version",
            "1.2.3",
        ],
    ] {
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(2);
        assert_eq!(envelope["error"]["field"], "quiet", "{run}");
        let hints = envelope["error"]["hints"].to_string();
        assert!(hints.contains("only before NAME"), "{run}");
    }
    let (run, _) = sandbox.json(&[
        "--quiet",
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "a",
        "--version",
        "1.2.3",
    ]);
    run.assert_code(0);
}

#[test]
fn an_unknown_option_where_name_belongs_is_a_usage_error() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["args", "check", "--bogus", "deploy"]);
    run.assert_code(2);
    assert_eq!(envelope["error"]["code"], "ARG_ERROR");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--bogus"),
        "{run}"
    );
}

/// `NAME --help` shows the declaration (as `schema show` does), exits 0
/// and leaves nothing in the audit log, for `args check` and `run` alike.
#[test]
fn help_after_name_shows_the_declaration() {
    let sandbox = Sandbox::new();
    let (shown, expected) = sandbox.json(&["schema", "show", "deploy"]);
    shown.assert_code(0);
    for args in [
        vec!["args", "check", "deploy", "--help"],
        vec!["args", "check", "deploy", "-h"],
    ] {
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(0);
        assert_eq!(envelope["data"], expected["data"], "{run}");
    }
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .args(["--output", "text", "run", "deploy", "--help"]),
    );
    run.assert_code(0);
    assert!(
        run.stdout.contains("kubectl --context=<cluster-id>"),
        "{run}"
    );
    assert!(
        !sandbox.audit_log().exists(),
        "asking for help is not a rejection"
    );
}

/// Writes one declaration into `registry/` and returns the directory.
fn registry_with(sandbox: &Sandbox, declaration: &Value) -> String {
    let name = declaration["name"].as_str().unwrap();
    sandbox.write(
        format!("registry/{name}.json"),
        serde_json::to_string(declaration).unwrap(),
    );
    sandbox.join("registry").to_str().unwrap().to_owned()
}

#[test]
fn prototype_keys_are_refused_in_flags_as_in_json() {
    let sandbox = Sandbox::new();
    let dir = registry_with(
        &sandbox,
        &json!({"name": "m", "description": "x", "danger_level": "mutating", "input_schema": {"type": "object",
            "additionalProperties": true,
            "properties": {"opts": {"type": "object", "additionalProperties": true}}}}),
    );
    for words in [
        &[
            "--opts",
            r#"{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}"#,
        ][..],
        &["--__proto__", "x", "--constructor", "y"],
        &["--json", r#"{"opts":{"__proto__":{}}}"#],
    ] {
        let mut args = vec!["--commands", &dir, "args", "check", "m"];
        args.extend_from_slice(words);
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(2);
        assert_eq!(
            envelope["error"]["rejected_pattern"], "prototype_key",
            "{run}"
        );
    }
}

#[test]
fn sensitive_values_stay_out_of_the_envelope_and_the_audit_log() {
    let sandbox = Sandbox::new();
    let dir = registry_with(
        &sandbox,
        &json!({"name": "t", "description": "x", "danger_level": "mutating",
            "parameters": {"tok": {"type": "string", "sensitive": true}}}),
    );
    registry_with(
        &sandbox,
        &json!({"name": "m", "description": "x", "danger_level": "mutating", "input_schema": {"type": "object",
            "properties": {"token": {"type": "string", "x-aigent-sensitive": true}}}}),
    );
    for (command, words) in [
        ("t", &["--json", r#"{"tok":"hunter2","tok":"hunter3"}"#][..]),
        ("t", &["--json", r#"{"tok":"hunter2",}"#]),
        ("t", &["--json", r#"{"tko":"hunter2"}"#]),
        ("m", &["--token", "hunter2", "--token", "hunter3"]),
        ("m", &["--json", r#"["hunter2"]"#]),
    ] {
        let mut args = vec![
            "--commands",
            &dir,
            "args",
            "check",
            "--allow-secret-argv",
            command,
        ];
        args.extend_from_slice(words);
        let (run, _) = sandbox.json(&args);
        run.assert_code(2);
        assert!(!run.stdout.contains("hunter"), "{words:?}:\n{run}");
    }
    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    assert_eq!(log.lines().count(), 5);
    assert!(!log.contains("hunter"), "{log}");
}

#[test]
fn aigent_keywords_reached_through_refs_are_applied() {
    let sandbox = Sandbox::new();
    let dir = registry_with(
        &sandbox,
        &json!({"name": "r", "description": "x", "danger_level": "mutating", "input_schema": {"type": "object",
            "$defs": {"secret": {"type": "string", "x-aigent-sensitive": true},
                      "rid": {"type": "string", "x-aigent-pattern-type": "resource_id"}},
            "properties": {"token": {"$ref": "#/$defs/secret"}, "id": {"$ref": "#/$defs/rid"},
                "id2": {"allOf": [{"type": "string", "x-aigent-pattern-type": "resource_id"}]}}},
            "subprocess": {"binary": "echo", "hardcoded_args": [], "user_controlled_args": ["token", "id", "id2"]}}),
    );
    let (lint, _) = sandbox.json(&["--commands", &dir, "schema", "lint"]);
    lint.assert_code(0);
    let (run, envelope) = sandbox.json(&[
        "--commands",
        &dir,
        "args",
        "check",
        "--allow-secret-argv",
        "r",
        "--token",
        "hunter2",
        "--id",
        "../../etc/passwd",
        "--id2",
        "x?y=%2e%2e",
    ]);
    run.assert_code(2);
    let found = rules(&envelope);
    assert!(found.contains(&"path_traversal".to_owned()), "{run}");
    assert!(found.contains(&"query_parameter".to_owned()), "{run}");
    let (ok, envelope) = sandbox.json(&[
        "--commands",
        &dir,
        "args",
        "check",
        "--allow-secret-argv",
        "r",
        "--token",
        "hunter2",
        "--id",
        "users-42",
    ]);
    ok.assert_code(0);
    assert_eq!(envelope["data"]["arguments"]["token"], "[REDACTED]");
    assert!(!ok.stdout.contains("hunter2"), "{ok}");
}

#[test]
fn url_paths_are_split_before_decoding() {
    let sandbox = Sandbox::new();
    let dir = registry_with(
        &sandbox,
        &json!({"name": "u", "description": "x", "danger_level": "mutating",
            "parameters": {"u": {"type": "string", "pattern_type": "url"}}}),
    );
    for url in [
        "https://h/api/v1/files%3F/%2e%2e/%2e%2e/admin/users",
        "https://h/a%23/%2e%2e/admin",
        "https://h/a/..;/b",
        "https://h/a/%2e%2e;/b",
    ] {
        let (run, envelope) = sandbox.json(&["--commands", &dir, "args", "check", "u", "--u", url]);
        run.assert_code(2);
        assert_eq!(
            envelope["error"]["rejected_pattern"], "path_traversal",
            "{run}"
        );
    }
    for url in [
        "https://h/x?filter[name]=x",
        "https://h/search?next=../x",
        "https://h/a/．/b",
    ] {
        sandbox
            .json(&["--commands", &dir, "args", "check", "u", "--u", url])
            .0
            .assert_code(0);
    }
}

#[test]
fn numbers_are_refused_or_kept_as_written_never_rewritten() {
    let sandbox = Sandbox::new();
    let dir = registry_with(
        &sandbox,
        &json!({"name": "n", "description": "x", "danger_level": "mutating",
            "parameters": {"int": {"type": "integer"}, "num": {"type": "number"}},
            "subprocess": {"binary": "echo", "hardcoded_args": [], "user_controlled_args": ["int", "num"]}}),
    );
    registry_with(
        &sandbox,
        &json!({"name": "s", "description": "x", "danger_level": "mutating",
            "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}},
            "subprocess": {"binary": "echo", "hardcoded_args": [], "user_controlled_args": ["n"]}}),
    );
    for text in [
        r#"{"int":1e3}"#,
        r#"{"int":1.0}"#,
        r#"{"int":4503599627370497.5}"#,
        r#"{"num":1e-400}"#,
    ] {
        let (run, envelope) =
            sandbox.json(&["--commands", &dir, "args", "check", "n", "--json", text]);
        run.assert_code(2);
        assert_eq!(envelope["error"]["rejected_pattern"], "type", "{run}");
    }
    let dry = |args: &[&str]| {
        let mut all = vec!["--commands", &dir, "--output", "json", "run", "--dry-run"];
        all.extend_from_slice(args);
        let run = crate::common::Run::of(sandbox.cmd().args(&all));
        run.assert_code(0);
        let envelope: Value = serde_json::from_str(&run.stderr).unwrap();
        envelope["data"]["argv"].clone()
    };
    assert_eq!(
        dry(&["n", "--json", r#"{"int": 7, "num": 2.50}"#]),
        json!(["echo", "7", "2.50"])
    );
    assert_eq!(
        dry(&["n", "--num", "4503599627370497.5"]),
        json!(["echo", "4503599627370497.5"])
    );
    assert_eq!(
        dry(&["s", "--n", "18446744073709551615"]),
        json!(["echo", "18446744073709551615"])
    );
}

#[test]
fn cjk_text_passed_to_a_subprocess_is_not_a_shell_metacharacter() {
    let sandbox = Sandbox::new();
    let dir = registry_with(
        &sandbox,
        &json!({"name": "note", "description": "x", "danger_level": "mutating",
            "parameters": {"text": {"type": "string"}, "path": {"type": "string", "pattern_type": "filepath"}},
            "subprocess": {"binary": "echo", "hardcoded_args": [], "user_controlled_args": ["text", "path"]}}),
    );
    for value in [
        "テスト（仮）",
        "注意；確認",
        "Ｑ＆Ａ",
        "㈱トヨタ",
        "⑴ first",
        "写真/㈱.jpg",
    ] {
        let (run, envelope) = sandbox.json(&[
            "--commands",
            &dir,
            "args",
            "check",
            "note",
            "--text",
            value,
            "--path",
            value,
        ]);
        run.assert_code(0);
        assert_eq!(envelope["data"]["arguments"]["text"], value);
    }
    // The ASCII characters themselves, and their percent-encodings, are
    // still refused.
    for value in ["テスト(仮)", "注意%3B確認"] {
        let (run, envelope) =
            sandbox.json(&["--commands", &dir, "args", "check", "note", "--text", value]);
        run.assert_code(2);
        assert_eq!(envelope["error"]["rejected_pattern"], "shell_metacharacter");
    }
}

#[test]
fn null_for_an_optional_input_schema_property_counts_as_absent() {
    let sandbox = Sandbox::new();
    let dir = registry_with(
        &sandbox,
        &json!({"name": "nul", "description": "x", "danger_level": "mutating",
            "input_schema": {"type": "object", "properties": {
                "a": {"type": "string"}, "b": {"type": "boolean"}, "c": {"type": ["string", "null"]}},
                "required": ["a"]},
            "subprocess": {"binary": "echo", "hardcoded_args": [], "user_controlled_args": ["a", "b", "c"]}}),
    );
    let (run, envelope) = sandbox.json(&[
        "--commands",
        &dir,
        "args",
        "check",
        "nul",
        "--json",
        r#"{"a": "x", "b": null, "c": null}"#,
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["arguments"], json!({"a": "x"}));
    let dry = crate::common::Run::of(sandbox.cmd().args([
        "--commands",
        &dir,
        "--output",
        "json",
        "run",
        "--dry-run",
        "nul",
        "--json",
        r#"{"a": "x", "c": null}"#,
    ]));
    dry.assert_code(0);
}

#[test]
fn invisible_characters_and_look_alike_separators() {
    let sandbox = Sandbox::new();
    for value in ["file\u{34F}id", "\u{115F}", "\u{3164}", "id\u{2800}"] {
        let (run, envelope) = sandbox.json(&["args", "check", "files-get", "--file-id", value]);
        run.assert_code(2);
        assert_eq!(
            envelope["error"]["rejected_pattern"], "control_character",
            "{run}"
        );
    }
    for path in ["a∖..∖b", "a⧹..⧹b"] {
        let (run, envelope) = sandbox.json(&["args", "check", "read_file", "--path", path]);
        run.assert_code(2);
        assert_eq!(
            envelope["error"]["rejected_pattern"], "path_traversal",
            "{run}"
        );
    }
    sandbox
        .json(&["args", "check", "read_file", "--path", "a/．/b"])
        .0
        .assert_code(0);
}
