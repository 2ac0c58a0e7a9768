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
                        .args(["--output", format, "skill", "validate"])
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
                    .args(["--output", format, "skill", "to-prompt"])
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
                        sandbox.cmd().args(["--output", format]).args(&args),
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

/// "What an agent can make a declared program do": one declaration per
/// class from the review, each of which passed `schema lint` before.
mod declared_programs {
    use serde_json::Value;

    use crate::common::{Run, Sandbox};

    /// Writes `commands/NAME.yaml` with two string parameters `a` and `b`.
    fn declare(sandbox: &Sandbox, name: &str, binary: &str, argv: &str) {
        sandbox.write(
            format!("commands/{name}.yaml"),
            format!(
                "name: {name}\ndescription: d\ndanger_level: mutating\nparameters:\n  a: {{type: string, pattern: '^[a-z]+$'}}\n  b: {{type: array}}\nsubprocess: {{binary: '{binary}', argv: {argv}}}\n"
            ),
        );
    }

    /// (command, code, field) of every schema-lint finding.
    fn lint(sandbox: &Sandbox) -> Vec<(String, String, String)> {
        let (_, envelope) = sandbox.json(&["--commands", "commands", "schema", "lint"]);
        let mut found = Vec::new();
        for file in envelope["data"]["files"].as_array().unwrap() {
            for diagnostic in file["diagnostics"].as_array().unwrap() {
                found.push((
                    file["name"].as_str().unwrap().to_owned(),
                    diagnostic["code"].as_str().unwrap().to_owned(),
                    diagnostic["field"].as_str().unwrap_or("").to_owned(),
                ));
            }
        }
        found
    }

    /// The codes for one command, leaving out E122 (a parameter the
    /// fixture does not use).
    fn codes_for(found: &[(String, String, String)], name: &str) -> Vec<String> {
        found
            .iter()
            .filter(|(command, code, _)| command == name && code != "E122")
            .map(|(_, code, _)| code.clone())
            .collect()
    }

    /// Issue #30: a variable that names code, config that runs code or a
    /// search path, set from a parameter, fails the lint (E125). Before,
    /// `TAR_OPTIONS` from a parameter linted clean, and an agent's
    /// `--to-command=...` ran a shell command through tar.
    #[test]
    fn code_loading_variables_from_a_parameter_fail_the_lint() {
        let variables = [
            "TAR_OPTIONS",
            "GIT_DIR",
            "GIT_PROXY_COMMAND",
            "GIT_SSH_COMMAND",
            "GIT_EXEC_PATH",
            "GIT_CONFIG_GLOBAL",
            "XDG_CONFIG_HOME",
            "HOME",
            "KUBECONFIG",
            "GCONV_PATH",
            "LD_PRELOAD",
            "DYLD_INSERT_LIBRARIES",
            "PYTHONPATH",
            "PERL5LIB",
            "NODE_OPTIONS",
            "RUBYOPT",
            "BASH_ENV",
            "ENV",
            "PAGER",
            "EDITOR",
            "RSYNC_CONNECT_PROG",
            "npm_config_script_shell",
            "MAKEFLAGS",
        ];
        let sandbox = Sandbox::new();
        for (index, variable) in variables.iter().enumerate() {
            sandbox.write(
                format!("commands/v{index}.yaml"),
                format!(
                    "name: v{index}\ndescription: d\ndanger_level: mutating\nparameters:\n  a: {{type: string, pattern: '^[a-z-]+$'}}\nsubprocess: {{binary: tar, argv: [tf, archive.tar], env: {{{variable}: {{param: a}}}}}}\n"
                ),
            );
        }
        sandbox.write(
            "commands/fine.yaml",
            "name: fine\ndescription: d\ndanger_level: mutating\nparameters:\n  a: {type: string, pattern: '^[a-z-]+$'}\nsubprocess: {binary: git, argv: [commit], env: {GIT_AUTHOR_NAME: {param: a}}}\n",
        );
        let found = lint(&sandbox);
        for (index, variable) in variables.iter().enumerate() {
            let codes = codes_for(&found, &format!("v{index}"));
            assert_eq!(codes, ["E125"], "{variable}: {found:?}");
        }
        assert_eq!(codes_for(&found, "fine"), Vec::<String>::new(), "{found:?}");
    }

    #[test]
    fn each_class_from_the_review_fails_the_lint() {
        let sandbox = Sandbox::new();
        let classes = [
            // GNU sed: a script with `e`, or a script the agent writes.
            ("sed_e_command", "sed", r#"["1e id", {param: a}]"#, "E115"),
            (
                "sed_e_flag",
                "sed",
                r#"[-e, "s/x/y/e", {param: a}]"#,
                "E115",
            ),
            (
                "sed_agent_script",
                "sed",
                r#"[{param: a}, {param: b}]"#,
                "E127",
            ),
            // sqlite3: dot-commands run a shell.
            (
                "sqlite_shell",
                "sqlite3",
                r#"[db, ".shell id", {param: a}]"#,
                "E115",
            ),
            ("sqlite_agent_sql", "sqlite3", r#"[db, {param: a}]"#, "E127"),
            // vim -es FILE: a file named `+!CMD` is an Ex command.
            ("vim_file", "vim", r#"[-es, {param: a}]"#, "E127"),
            // env -- PROG ARGS: the agent chooses the program.
            (
                "env_program",
                "env",
                r#"[--, {param: a}, {param: b}]"#,
                "W105",
            ),
            // Hardcoded command strings.
            (
                "git_alias",
                "git",
                r#"[-c, "alias.x=!id", x, {param: a}]"#,
                "E115",
            ),
            (
                "git_ssh",
                "git",
                r#"[-c, "core.sshCommand=id", fetch, {param: a}]"#,
                "E115",
            ),
            (
                "tar_checkpoint",
                "tar",
                r#"["--checkpoint-action=exec=id", -cf, x.tar, {param: a}]"#,
                "E115",
            ),
            (
                "tar_to_command",
                "tar",
                r#"[-x, "--to-command=id", {param: a}]"#,
                "E115",
            ),
            ("zip_tt", "zip", r#"[-TT, id, x.zip, {param: a}]"#, "E115"),
            (
                "rsync_e",
                "rsync",
                r#"[-e, "ssh -oProxyCommand=id", {param: a}]"#,
                "E115",
            ),
            (
                "expect_c",
                "expect",
                r#"[-c, "spawn id", {param: a}]"#,
                "E115",
            ),
            ("gdb_ex", "gdb", r#"[-ex, "shell id", {param: a}]"#, "E115"),
            ("vim_c", "vim", r#"[-c, "!id", --, {param: a}]"#, "E115"),
            (
                "emacs_eval",
                "emacs",
                r#"[--eval, "(shell-command \"id\")", {param: a}]"#,
                "E115",
            ),
            ("npx_c", "npx", r#"[-c, id, {param: a}]"#, "E115"),
            ("psql_bang", "psql", r#"[-c, "\\! id", {param: a}]"#, "E115"),
            (
                "mysql_bang",
                "mysql",
                r#"[-e, "\\! id", {param: a}]"#,
                "E115",
            ),
            ("r_e", "R", r#"[-e, "system('id')", {param: a}]"#, "E115"),
            (
                "make_eval",
                "make",
                r#"["--eval=x: ; id", {param: a}]"#,
                "E115",
            ),
            (
                "env_ld_preload",
                "env",
                r#"["LD_PRELOAD=/tmp/x.so", ls, {param: a}]"#,
                "E115",
            ),
            (
                "env_bash_env",
                "env",
                r#"["BASH_ENV=/tmp/x", bash, script.sh, {param: a}]"#,
                "E115",
            ),
            ("py_c", "py", r#"[-c, "import os", {param: a}]"#, "E115"),
            (
                "pythonw_c",
                "pythonw",
                r#"[-c, "import os", {param: a}]"#,
                "E115",
            ),
        ];
        for (name, binary, argv, _) in classes {
            declare(&sandbox, name, binary, argv);
        }
        // Near misses that must stay clean.
        declare(
            &sandbox,
            "sed_plain",
            "sed",
            r#"[-n, "s/e/E/gp", {param: a}]"#,
        );
        declare(
            &sandbox,
            "sed_sandboxed",
            "sed",
            r#"[--sandbox, {param: a}, {param: b}]"#,
        );
        declare(
            &sandbox,
            "vim_after_dashes",
            "vim",
            r#"[-es, --, {param: a}]"#,
        );
        declare(
            &sandbox,
            "git_plain",
            "git",
            r#"[-c, color.ui=never, log, --, {param: a}]"#,
        );
        declare(&sandbox, "env_plain", "env", r#"[LANG=C, ls, {param: a}]"#);
        let found = lint(&sandbox);
        for (name, _, _, code) in classes {
            let codes = codes_for(&found, name);
            assert!(codes.iter().any(|c| c == code), "{name}: {codes:?}");
        }
        for name in [
            "sed_plain",
            "sed_sandboxed",
            "vim_after_dashes",
            "git_plain",
            "env_plain",
        ] {
            assert_eq!(codes_for(&found, name), Vec::<String>::new(), "{name}");
        }
    }

    /// A symlink named `grep` that is bash is read as bash.
    #[cfg(unix)]
    #[test]
    fn a_shell_under_another_name_is_identified_by_its_file() {
        let sandbox = Sandbox::new();
        let Ok(shell) = std::fs::canonicalize("/bin/sh") else {
            return;
        };
        std::fs::create_dir_all(sandbox.join("commands")).unwrap();
        std::os::unix::fs::symlink(&shell, sandbox.join("commands/grep")).unwrap();
        declare(&sandbox, "fake_grep", "./grep", r#"[-c, id, {param: a}]"#);
        declare(
            &sandbox,
            "fake_grep_abs",
            sandbox.join("commands/grep").to_str().unwrap(),
            r#"[-c, id, {param: a}]"#,
        );
        let found = lint(&sandbox);
        for name in ["fake_grep", "fake_grep_abs"] {
            assert_eq!(codes_for(&found, name), ["E115"], "{name}: {found:?}");
        }
    }

    /// The built-in `shell_exec` lets the agent choose the program: each
    /// call's words are checked, and a command string is refused before
    /// anything runs.
    #[cfg(unix)]
    #[test]
    fn shell_exec_refuses_a_command_string_and_runs_nothing() {
        let sandbox = Sandbox::new();
        let marker = sandbox.join("ran");
        let marker_text = marker.to_str().unwrap();
        let refused: Vec<Vec<&str>> = vec![
            vec!["sh", "-c", "touch ran"],
            vec!["env", "--", "bash", "-c", "touch ran"],
            vec!["nice", "python3", "-c", "import os"],
            vec!["sed", "-n", "1e touch ran", "/etc/hostname"],
            vec!["env", "BASH_ENV=x", "ls"],
            vec!["git", "-c", "alias.x=!touch ran", "x"],
        ];
        for argv in refused {
            let json = serde_json::json!({ "argv": argv }).to_string();
            for verb in ["check", "run"] {
                let args: Vec<&str> = if verb == "check" {
                    vec!["args", "check", "shell_exec", "--json", &json]
                } else {
                    vec!["run", "shell_exec", "--json", &json]
                };
                let run = Run::of(sandbox.cmd().args(["--output", "json"]).args(&args));
                // `run` keeps stdout for the child: its envelope is on stderr.
                let text = if run.stdout.is_empty() {
                    &run.stderr
                } else {
                    &run.stdout
                };
                let envelope: Value =
                    serde_json::from_str(text).unwrap_or_else(|_| panic!("{run}"));
                assert_eq!(run.code, 2, "{argv:?} {verb}:\n{run}");
                assert_eq!(
                    envelope["error"]["rejected_pattern"], "command_string",
                    "{run}"
                );
                assert!(!marker.exists(), "{argv:?} ran: {marker_text}");
            }
        }
        let (run, envelope) = sandbox.json(&[
            "args",
            "check",
            "shell_exec",
            "--json",
            r#"{"argv": ["ls", "-la"]}"#,
        ]);
        assert_eq!(envelope["ok"], Value::Bool(true), "{run}");
        // The built-in says it can do anything (`destructive`), so its lint is clean.
        let run = Run::of(sandbox.cmd().args(["--output", "json", "schema", "lint"]));
        assert!(!run.stdout.contains("W105"), "{run}");
    }
}

/// Missing-link warnings are capped per file, with a summary line.
mod link_findings {
    use crate::common::Sandbox;

    #[test]
    fn a_body_of_broken_links_gives_a_bounded_report() {
        let sandbox = Sandbox::new();
        let mut body = String::new();
        for index in 0..5000 {
            body.push_str(&format!("[l](missing-{index}.md) "));
        }
        sandbox.write(
            "links/SKILL.md",
            format!(
                "---\nname: links\ndescription: Links to files. Use when testing.\n---\n{body}\n"
            ),
        );
        let (run, envelope) = sandbox.json(&["skill", "validate", "links"]);
        let diagnostics = envelope["data"]["skills"][0]["diagnostics"]
            .as_array()
            .unwrap_or_else(|| panic!("{run}"));
        let links: Vec<&str> = diagnostics
            .iter()
            .filter(|d| d["code"] == "W005")
            .map(|d| d["message"].as_str().unwrap())
            .collect();
        assert_eq!(links.len(), 51, "{run}");
        let summaries: Vec<&&str> = links
            .iter()
            .filter(|message| message.starts_with("4950 more links to missing files"))
            .collect();
        assert_eq!(summaries.len(), 1, "{links:?}");
        assert!(run.stdout.len() < 64 * 1024, "{} bytes", run.stdout.len());
    }
}

/// Issue #30: `skill fmt` and `skill fix` replace a file only as it was
/// read, keeping its owner, and refuse a file with other hard links.
#[cfg(unix)]
mod rewrites {
    use std::fs;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use crate::common::{Run, Sandbox};

    const OUT_OF_ORDER: &str =
        "---\ndescription: Does a thing. Use when testing.\nname: a\n---\nbody\n";

    #[test]
    fn a_skill_file_with_another_hard_link_is_refused_unless_forced() {
        let sandbox = Sandbox::new();
        let file = sandbox.write("a/SKILL.md", OUT_OF_ORDER);
        fs::hard_link(&file, sandbox.join("copy.md")).unwrap();
        for command in ["fmt", "fix"] {
            let (run, envelope) = sandbox.json(&["skill", command, "a"]);
            run.assert_code(1);
            let message = envelope["data"]["files"][0]["message"]
                .as_str()
                .unwrap_or_default();
            assert_eq!(envelope["data"]["files"][0]["status"], "refused", "{run}");
            assert!(message.contains("2 hard links"), "{run}");
            assert_eq!(fs::read_to_string(&file).unwrap(), OUT_OF_ORDER);
        }
        let run = sandbox.run(&["skill", "fmt", "--force", "a"]);
        run.assert_code(0);
        assert!(
            fs::read_to_string(&file)
                .unwrap()
                .starts_with("---\nname: a\n")
        );
        assert_eq!(
            fs::read_to_string(sandbox.join("copy.md")).unwrap(),
            OUT_OF_ORDER
        );
    }

    /// Run as root (CI containers and this machine are), `fmt` keeps
    /// another user's ownership; run as that other user on root's file in a
    /// shared directory, it cannot keep the owner and refuses unless
    /// `--force`. Needs root and `setpriv`; elsewhere only the first half
    /// runs.
    #[test]
    fn the_owner_is_kept_or_the_rewrite_is_refused() {
        let sandbox = Sandbox::new();
        let file = sandbox.write("a/SKILL.md", OUT_OF_ORDER);
        let root = fs::metadata(sandbox.path()).unwrap().uid() == 0;
        if !root {
            eprintln!("not root: the ownership half of this test is skipped");
            return;
        }
        std::os::unix::fs::chown(&file, Some(4242), Some(4343)).unwrap();
        sandbox.run(&["skill", "fmt", "a"]).assert_code(0);
        let after = fs::metadata(&file).unwrap();
        assert_eq!((after.uid(), after.gid()), (4242, 4343));
        assert!(
            fs::read_to_string(&file)
                .unwrap()
                .starts_with("---\nname: a\n")
        );

        // Root's file, writable by all in a shared directory, formatted
        // by user 4242.
        fs::write(&file, OUT_OF_ORDER).unwrap();
        std::os::unix::fs::chown(&file, Some(0), Some(0)).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o666)).unwrap();
        fs::set_permissions(sandbox.path(), fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(sandbox.join("a"), fs::Permissions::from_mode(0o777)).unwrap();
        let as_user = |force: bool| {
            let mut cmd = assert_cmd::Command::new("setpriv");
            cmd.args(["--reuid=4242", "--regid=4242", "--clear-groups", "--"])
                .arg(env!("CARGO_BIN_EXE_aigent"))
                .args(["--output", "json", "skill", "fmt"])
                .args(force.then_some("--force"))
                .arg("a")
                .current_dir(sandbox.path())
                .env("HOME", sandbox.join("home"))
                .env("XDG_STATE_HOME", sandbox.join("state"))
                .env("XDG_CONFIG_HOME", sandbox.config_home())
                .env("XDG_CACHE_HOME", sandbox.join("cache"))
                .env("AIGENT_AUDIT_LOG", sandbox.audit_log())
                .env("GIT_CEILING_DIRECTORIES", sandbox.path());
            Run::of(&mut cmd)
        };
        if std::process::Command::new("setpriv")
            .arg("--help")
            .output()
            .is_err()
        {
            eprintln!("no setpriv: the other user's half of this test is skipped");
            return;
        }
        let run = as_user(false);
        run.assert_code(1);
        let envelope = run.envelope();
        assert_eq!(envelope["data"]["files"][0]["status"], "refused", "{run}");
        let message = envelope["data"]["files"][0]["message"].as_str().unwrap();
        assert!(message.contains("belongs to 0:0"), "{run}");
        assert_eq!(fs::read_to_string(&file).unwrap(), OUT_OF_ORDER);
        assert_eq!(
            fs::read_dir(sandbox.join("a")).unwrap().count(),
            1,
            "no temporary left"
        );

        let run = as_user(true);
        run.assert_code(0);
        let after = fs::metadata(&file).unwrap();
        assert_eq!(after.uid(), 4242, "{run}");
        assert_eq!(after.mode() & 0o777, 0o666);
        assert!(
            fs::read_to_string(&file)
                .unwrap()
                .starts_with("---\nname: a\n")
        );
    }
}

/// Issue #30: a marketplace entry's `source` that is a symlink out of the
/// marketplace passed P007, which refused only `..`. It is resolved first.
#[cfg(unix)]
mod marketplace_sources {
    use crate::common::Sandbox;

    #[test]
    fn a_source_symlinked_outside_the_marketplace_is_p007_and_not_read() {
        let sandbox = Sandbox::new();
        sandbox.write(
            "market/.claude-plugin/marketplace.json",
            r#"{"name": "m", "owner": {"name": "o"}, "plugins": [
                {"name": "away", "source": "./plugins/away"},
                {"name": "near", "source": "./plugins/near"}
            ]}"#,
        );
        sandbox.write(
            "elsewhere/away/.claude-plugin/plugin.json",
            r#"{"name": "away"}"#,
        );
        sandbox.write(
            "market/real/near/.claude-plugin/plugin.json",
            r#"{"name": "near"}"#,
        );
        std::fs::create_dir_all(sandbox.join("market/plugins")).unwrap();
        std::os::unix::fs::symlink(
            sandbox.join("elsewhere/away"),
            sandbox.join("market/plugins/away"),
        )
        .unwrap();
        // A link that stays inside the marketplace is fine.
        std::os::unix::fs::symlink("../real/near", sandbox.join("market/plugins/near")).unwrap();
        let (run, envelope) = sandbox.json(&["plugin", "validate", "market"]);
        run.assert_code(1);
        let reports = envelope["data"]["skills"].as_array().unwrap();
        let mut found = Vec::new();
        for report in reports {
            let path = report["path"].as_str().unwrap().to_owned();
            assert!(
                !path.contains("elsewhere"),
                "the outside plugin was read: {run}"
            );
            for diagnostic in report["diagnostics"].as_array().unwrap() {
                found.push((
                    diagnostic["code"].as_str().unwrap().to_owned(),
                    diagnostic["field"].as_str().unwrap_or("").to_owned(),
                    diagnostic["message"].as_str().unwrap_or("").to_owned(),
                ));
            }
        }
        let p007: Vec<_> = found.iter().filter(|(code, _, _)| code == "P007").collect();
        assert_eq!(p007.len(), 1, "{found:#?}");
        assert_eq!(p007[0].1, "plugins[0].source", "{found:#?}");
        assert!(p007[0].2.contains("outside the marketplace"), "{found:#?}");
    }
}
