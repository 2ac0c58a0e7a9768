//! Hostile inputs from the issue #10 review, one test per class: non-UTF-8
//! names, FIFOs, terminal escapes, resource bounds and secrets.

#[cfg(unix)]
mod non_utf8 {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    use crate::common::git::{Fixture, skill_md};
    use crate::common::{Run, Sandbox};

    /// A skill directory named `sk<0xFF>x` (not UTF-8) inside the sandbox.
    fn non_utf8_skill(root: &std::path::Path) -> std::path::PathBuf {
        let dir = root.join(OsStr::from_bytes(b"sk\xffx"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), skill_md("skx")).unwrap();
        dir
    }

    #[test]
    fn skill_validate_and_to_prompt_never_panic() {
        let sandbox = Sandbox::new();
        let dir = non_utf8_skill(sandbox.path());
        for format in ["text", "json", "github"] {
            for target in [
                vec![dir.as_os_str()],
                vec![OsStr::new("--recursive"), OsStr::new(".")],
            ] {
                let run = Run::of(
                    sandbox
                        .cmd()
                        .args(["--format", format, "skill", "validate"])
                        .args(&target),
                );
                assert_ne!(run.code, 101, "{format} {target:?}:\n{run}");
                assert!(!run.stderr.contains("panicked"), "{run}");
                // The name mismatch is still found, with the name shown lossily.
                assert!(
                    run.stdout.contains("sk\u{FFFD}x") || run.stderr.contains("sk\u{FFFD}x"),
                    "{format}:\n{run}"
                );
            }
        }
        for format in ["text", "json"] {
            let run = Run::of(
                sandbox
                    .cmd()
                    .args(["--format", format, "skill", "to-prompt"])
                    .arg(&dir),
            );
            assert_ne!(run.code, 101, "{run}");
            assert!(!run.stderr.contains("panicked"), "{run}");
        }
    }

    #[test]
    fn skill_validate_changed_never_panics() {
        let fx = Fixture::new();
        fx.write("README.md", "x\n");
        fx.commit_all("base");
        fx.switch_new_branch("feature");
        non_utf8_skill(&fx.root());
        let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
        assert_ne!(run.code, 101, "{run}");
        assert!(envelope["data"]["skills"].is_array(), "{run}");
    }
}

/// For a command with any sensitive input, no value that might be a secret
/// reaches the envelope, the audit log or the terminal.
mod secrets {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use crate::common::Sandbox;

    /// One `input_schema` command per root-level keyword that can reject a
    /// whole call, plus a `parameters` command, each with a sensitive input.
    fn registry(sandbox: &Sandbox) -> String {
        let token = json!({"type": "string", "x-aigent-sensitive": true});
        let plain = json!({"type": "string"});
        let roots = [
            (
                "one_of",
                json!({"oneOf": [{"required": ["a"]}, {"required": ["token"]}]}),
            ),
            ("any_of", json!({"anyOf": [{"required": ["a"]}]})),
            ("not_", json!({"not": {"required": ["token"]}})),
            ("min_props", json!({"minProperties": 5})),
            ("max_props", json!({"maxProperties": 0})),
            ("prop_names", json!({"propertyNames": {"maxLength": 1}})),
            (
                "uneval",
                json!({"unevaluatedProperties": false, "additionalProperties": true}),
            ),
            (
                "open",
                json!({"additionalProperties": true, "maxProperties": 1}),
            ),
            ("closed", json!({})),
        ];
        for (name, extra) in roots {
            let mut schema = json!({"type": "object",
                "properties": {"token": token, "a": plain}});
            for (key, value) in extra.as_object().unwrap() {
                schema[key] = value.clone();
            }
            sandbox.write(
                format!("registry/{name}.json"),
                json!({"name": name, "description": "x", "input_schema": schema}).to_string(),
            );
        }
        sandbox.write(
            "registry/params.json",
            json!({"name": "params", "description": "x", "danger_level": "mutating",
                "parameters": {"tok": {"type": "string", "sensitive": true},
                    "a": {"type": "string"}}})
            .to_string(),
        );
        sandbox.join("registry").to_str().unwrap().to_owned()
    }

    const COMMANDS: [&str; 10] = [
        "one_of",
        "any_of",
        "not_",
        "min_props",
        "max_props",
        "prop_names",
        "uneval",
        "open",
        "closed",
        "params",
    ];

    /// The ways a secret can be sent where the guard does not expect it.
    fn calls(secret: &str) -> Vec<Vec<String>> {
        let json = |value: Value| vec!["--json".to_owned(), value.to_string()];
        vec![
            json(json!({"token": secret, "tok": secret})),
            json(json!({"arguments": {"token": secret}})),
            json(json!({"api_key": secret})),
            json(json!({"a": "x", "token": secret, "extra": [secret]})),
            vec!["--api-key".to_owned(), secret.to_owned()],
            vec!["--token".to_owned(), secret.to_owned(), secret.to_owned()],
            vec![secret.to_owned()],
        ]
    }

    fn assert_never_echoed(sandbox: &Sandbox, dir: &str, secret: &str, formats: &[&str]) {
        for command in COMMANDS {
            for call in calls(secret) {
                let mut args = vec!["--commands", dir, "args", "check", command];
                args.extend(call.iter().map(String::as_str));
                for format in formats {
                    let run = crate::common::Run::of(
                        sandbox.cmd().args(["--format", format]).args(&args),
                    );
                    assert!(!run.stdout.contains(secret), "{command} {call:?}:\n{run}");
                    assert!(!run.stderr.contains(secret), "{command} {call:?}:\n{run}");
                }
            }
        }
        let log = std::fs::read_to_string(sandbox.audit_log()).unwrap_or_default();
        assert!(!log.contains(secret), "audit log:\n{log}");
    }

    #[test]
    fn root_keywords_and_unknown_keys_never_echo_a_secret() {
        let sandbox = Sandbox::new();
        let dir = registry(&sandbox);
        assert_never_echoed(&sandbox, &dir, "hunter2SECRET", &["json", "text"]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2))]
        #[test]
        fn no_secret_shape_is_echoed(secret in "[A-Za-z0-9_+/=.-]{12,40}") {
            // Secrets that look like flags are a different (refused) shape.
            prop_assume!(!secret.starts_with('-'));
            let sandbox = Sandbox::new();
            let dir = registry(&sandbox);
            assert_never_echoed(&sandbox, &dir, &secret, &["json"]);
        }
    }
}
