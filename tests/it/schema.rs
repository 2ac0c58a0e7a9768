//! `aigent schema list|show|lint` and the registry, from outside.

use crate::common::Sandbox;
use crate::{assert_envelope, assert_session};
use serde_json::{Value, json};

fn write_json(sandbox: &Sandbox, relative: &str, value: &Value) {
    sandbox.write(relative, serde_json::to_string_pretty(value).unwrap());
}

fn minimal(name: &str) -> Value {
    json!({
        "name": name,
        "description": format!("The {name} command"),
        "danger_level": "safe",
        "parameters": {"item-id": {"type": "string", "required": true, "pattern_type": "alphanumeric_id"}},
        "subprocess": {"binary": "echo", "user_controlled_args": ["item-id"]}
    })
}

#[test]
fn list_shows_the_built_in_examples() {
    let sandbox = Sandbox::examples_only();
    let (run, _) = sandbox.json(&["schema", "list"]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn the_built_in_examples_lint_clean() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&["schema", "lint"]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn show_json_prints_the_wire_format_with_subprocess_and_exit_codes() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&["schema", "show", "deploy"]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn show_json_round_trips_through_a_declaration_file() {
    for name in [
        "deploy",
        "git-log",
        "run-script",
        "files-get",
        "read_file",
        "shell_exec",
    ] {
        let sandbox = Sandbox::new();
        let (_, first) = sandbox.json(&["schema", "show", name]);
        write_json(&sandbox, &format!("saved/{name}.json"), &first["data"]);
        let dir = sandbox.join("saved");
        let (run, second) =
            sandbox.json(&["--commands", dir.to_str().unwrap(), "schema", "show", name]);
        run.assert_code(0);
        assert_eq!(
            first["data"], second["data"],
            "{name} did not round-trip:\n{run}"
        );
        let (lint, _) = sandbox.json(&["--commands", dir.to_str().unwrap(), "schema", "lint"]);
        lint.assert_code(0);
    }
}

#[test]
fn show_json_schema_is_bare_and_usable_as_an_mcp_input_schema() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["schema", "show", "deploy", "--output", "json-schema"]);
    run.assert_code(0);
    let schema: Value = serde_json::from_str(&run.stdout).expect("bare JSON Schema");
    assert!(schema.get("ok").is_none(), "no envelope:\n{run}");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["required"], json!(["cluster-id", "version"]));
    assert_eq!(
        schema["properties"]["cluster-id"]["pattern"],
        "^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$"
    );
    assert!(
        schema["properties"]["version"]["pattern"]
            .as_str()
            .unwrap()
            .starts_with('^')
    );

    // As an MCP tool's input_schema it loads, lints clean, and guards the
    // same way.
    write_json(
        &sandbox,
        "mcp/deploy-tool.json",
        &json!({"name": "deploy-tool", "description": "deploy via MCP", "danger_level": "mutating", "input_schema": schema,
                "subprocess": {"binary": "kubectl", "user_controlled_args": ["cluster-id", "version"]}}),
    );
    let dir = sandbox.join("mcp");
    let dir = dir.to_str().unwrap();
    let (lint, _) = sandbox.json(&["--commands", dir, "schema", "lint"]);
    lint.assert_code(0);
    let (ok, _) = sandbox.json(&[
        "--commands",
        dir,
        "args",
        "check",
        "deploy-tool",
        "--cluster-id",
        "prod",
        "--version",
        "1.2.3",
    ]);
    ok.assert_code(0);
    let (bad, envelope) = sandbox.json(&[
        "--commands",
        dir,
        "args",
        "check",
        "deploy-tool",
        "--json",
        r#"{"cluster-id": "%2e%2e", "version": "1.2.3"}"#,
    ]);
    bad.assert_code(2);
    let rules: Vec<&str> = envelope["error"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|error| error["rejected_pattern"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"path_traversal") && rules.contains(&"percent_encoded"),
        "{bad}"
    );
}

#[test]
fn json_schema_format_is_refused_by_other_commands() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&["schema", "list", "--output", "json-schema"])
        .assert_code(2);
}

#[test]
fn show_text_is_a_table() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--output", "text", "schema", "show", "deploy"]);
    assert_session!(&sandbox, &run);
}

#[test]
fn unknown_and_hostile_names_exit_5_with_a_hint() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&["schema", "show", "deplyo"]);
    assert_envelope!(&sandbox, &run);
    for hostile in [
        "../commands/deploy",
        "/etc/passwd",
        "deploy.json",
        "a/b",
        "..",
        "",
    ] {
        sandbox.json(&["schema", "show", hostile]).0.assert_code(5);
    }
}

#[test]
fn a_broken_declaration_only_breaks_itself() {
    let sandbox = Sandbox::bare();
    write_json(&sandbox, "registry/good.json", &minimal("good"));
    sandbox.write("registry/aigent.toml", "[hook]\ncatalog = false\n");
    let mut bad = minimal("bad");
    bad["parameters"]["item-id"] = json!({"type": "string", "pattern": "[a-z]+"});
    write_json(&sandbox, "registry/bad.json", &bad);
    sandbox.write("registry/notes.md", "not a declaration");
    let dir = sandbox.join("registry");
    let dir = dir.to_str().unwrap();

    let (show_bad, _) = sandbox.json(&["--commands", dir, "schema", "show", "bad"]);
    assert_envelope!("show_bad", &sandbox, &show_bad);
    let (check_bad, _) =
        sandbox.json(&["--commands", dir, "args", "check", "bad", "--item-id", "x"]);
    check_bad.assert_code(4);

    sandbox
        .json(&["--commands", dir, "schema", "show", "good"])
        .0
        .assert_code(0);
    sandbox
        .json(&[
            "--commands",
            dir,
            "args",
            "check",
            "good",
            "--item-id",
            "x1",
        ])
        .0
        .assert_code(0);

    let (list, _) = sandbox.json(&["--commands", dir, "schema", "list"]);
    assert_envelope!("list_with_a_broken_one", &sandbox, &list);

    let (lint, _) = sandbox.json(&["--commands", dir, "schema", "lint"]);
    assert_envelope!("lint_with_a_broken_one", &sandbox, &lint);
    let text = sandbox.run(&["--output", "text", "--commands", dir, "schema", "lint"]);
    assert_session!("lint_text_with_a_broken_one", &sandbox, &text);
}

/// A registry with one broken declaration of each kind the lint knows.
#[test]
fn lint_reports_every_registration_error_with_file_and_field() {
    let sandbox = Sandbox::new();
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "bad-regex",
            json!({"parameters": {"p": {"type": "string", "pattern": "^[a-z$"}}}),
            "E106",
            "parameters.p.pattern",
        ),
        (
            "unanchored",
            json!({"parameters": {"p": {"type": "string", "pattern": "^a|b$"}}}),
            "E107",
            "parameters.p.pattern",
        ),
        (
            "regex-without-dialect",
            json!({"parameters": {"p": {"type": "string", "pattern_type": "regex"}}}),
            "E103",
            "parameters.p.regex_dialect",
        ),
        (
            "text-chooses-program",
            json!({"parameters": {"p": {"type": "string", "pattern_type": "free_text"}}, "subprocess": {"binary": "env", "argv": ["--", {"param": "p"}]}}),
            "E128",
            "subprocess.argv[1]",
        ),
        (
            "psql-meta-command",
            json!({"parameters": {"q": {"type": "string", "pattern_type": "free_text"}}, "subprocess": {"binary": "psql", "argv": [{"param": "q", "flag": "--command", "form": "joined"}]}}),
            "E127",
            "subprocess.argv[0]",
        ),
        (
            "ghost-arg",
            json!({"parameters": {"p": {"type": "integer"}}, "subprocess": {"binary": "x", "user_controlled_args": ["q"]}}),
            "E114",
            "subprocess.user_controlled_args[0]",
        ),
        (
            "bash-c",
            json!({"parameters": {}, "subprocess": {"binary": "/bin/bash", "hardcoded_args": ["-c"]}}),
            "E115",
            "subprocess.hardcoded_args[0]",
        ),
        (
            "env-sh-c",
            json!({"parameters": {}, "subprocess": {"binary": "env", "hardcoded_args": ["FOO=1", "sh", "-ec"]}}),
            "E115",
            "subprocess.hardcoded_args[2]",
        ),
        (
            "cmd-c",
            json!({"parameters": {}, "subprocess": {"binary": "cmd.exe", "hardcoded_args": ["/C"]}}),
            "E115",
            "subprocess.hardcoded_args[0]",
        ),
        (
            "pwsh-c",
            json!({"parameters": {}, "subprocess": {"binary": "pwsh", "hardcoded_args": ["-NoProfile", "-Command"]}}),
            "E115",
            "subprocess.hardcoded_args[1]",
        ),
        // `env -S` splits its string into more words: a shell `-c` in it
        // is still a shell `-c`.
        (
            "env-split",
            json!({"parameters": {"cmd": {"type": "string"}}, "subprocess": {"binary": "/usr/bin/env", "hardcoded_args": ["-S", "bash -c"], "user_controlled_args": ["cmd"]}}),
            "E115",
            "subprocess.hardcoded_args[1]",
        ),
        (
            "env-split-long",
            json!({"parameters": {}, "subprocess": {"binary": "env", "hardcoded_args": ["--split-string=sh -c"]}}),
            "E115",
            "subprocess.hardcoded_args[0]",
        ),
        (
            "python-c",
            json!({"parameters": {}, "subprocess": {"binary": "python3", "hardcoded_args": ["-c"]}}),
            "E115",
            "subprocess.hardcoded_args[0]",
        ),
        (
            "perl-e",
            json!({"parameters": {}, "subprocess": {"binary": "/usr/bin/perl", "hardcoded_args": ["-e", "system @ARGV"]}}),
            "E115",
            "subprocess.hardcoded_args[0]",
        ),
        (
            "su-c",
            json!({"parameters": {}, "subprocess": {"binary": "su", "hardcoded_args": ["root", "-c"]}}),
            "E115",
            "subprocess.hardcoded_args[1]",
        ),
        (
            "versioned-shell",
            json!({"parameters": {}, "subprocess": {"binary": "/opt/bin/bash5.2", "hardcoded_args": ["-c"]}}),
            "E115",
            "subprocess.hardcoded_args[0]",
        ),
        (
            "awk-system",
            json!({"parameters": {}, "subprocess": {"binary": "awk", "hardcoded_args": ["BEGIN { system(ARGV[1]) }"]}}),
            "E115",
            "subprocess.hardcoded_args[0]",
        ),
        (
            "dash-to-shell",
            json!({"parameters": {"args": {"type": "array", "allow_leading_dash": true}}, "subprocess": {"binary": "bash", "hardcoded_args": ["--norc"], "user_controlled_args": ["args"]}}),
            "E115",
            "subprocess.hardcoded_args",
        ),
        (
            "nested-keyword",
            json!({"input_schema": {"type": "object", "properties": {"opts": {"type": "object", "properties": {"token": {"type": "string", "x-aigent-sensitive": true}}}}}}),
            "E121",
            "input_schema.properties.opts.properties.token.x-aigent-sensitive",
        ),
        (
            "schema-default",
            json!({"input_schema": {"type": "object", "properties": {"q": {"type": "string", "default": "-rf"}}}, "subprocess": {"binary": "echo", "user_controlled_args": ["q"]}}),
            "E111",
            "input_schema.properties.q.default",
        ),
        (
            "verbose-pattern",
            json!({"parameters": {"p": {"type": "string", "pattern": "^(?x)[a-z]+ #[\n|.*$"}}}),
            "E107",
            "parameters.p.pattern",
        ),
        (
            "no-zero",
            json!({"parameters": {}, "exit_codes": {"2": {"name": "TAR_ERROR"}}}),
            "E116",
            "exit_codes",
        ),
        (
            "no-success-one",
            json!({"parameters": {}, "success_exit_codes": [0, 1], "exit_codes": {"0": {"name": "MATCH"}}}),
            "E116",
            "exit_codes",
        ),
        (
            "bad-success-code",
            json!({"parameters": {}, "success_exit_codes": [0, 256]}),
            "E117",
            "success_exit_codes[1]",
        ),
        (
            "aigent-two",
            json!({"parameters": {}, "exit_codes": {"0": {"name": "SUCCESS"}, "2": {"name": "ARG_ERROR"}}}),
            "W106",
            "exit_codes.2",
        ),
        (
            "typo",
            json!({"parameters": {"p": {"type": "string", "patern": "^a$"}}}),
            "E104",
            "parameters.p.patern",
        ),
        (
            "schema-keyword",
            json!({"input_schema": {"type": "object", "properties": {"p": {"type": "string", "minLenght": 1}}}}),
            "E119",
            "input_schema.properties.p.minLenght",
        ),
    ];
    for (name, body, _, _) in &cases {
        let mut document = json!({"name": name, "description": "a case", "danger_level": "safe"});
        for (key, value) in body.as_object().unwrap() {
            document[key] = value.clone();
        }
        write_json(&sandbox, &format!("registry/{name}.json"), &document);
    }
    // the same name twice
    write_json(&sandbox, "registry/twin.json", &minimal("twin"));
    sandbox.write(
        "registry/twin.yaml",
        "name: twin\ndescription: again\ndanger_level: mutating\nparameters: {}\n",
    );
    let dir = sandbox.join("registry");
    let dir = dir.to_str().unwrap();

    let (run, envelope) = sandbox.json(&["--commands", dir, "schema", "lint"]);
    run.assert_code(4);
    let files = envelope["data"]["files"].as_array().unwrap();
    let find = |name: &str| {
        files
            .iter()
            .filter(|file| file["name"] == name)
            .flat_map(|file| file["diagnostics"].as_array().unwrap().clone())
            .map(|diagnostic| {
                (
                    diagnostic["code"].as_str().unwrap().to_owned(),
                    diagnostic["field"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect::<Vec<_>>()
    };
    for (name, _, code, field) in &cases {
        assert!(
            find(name).contains(&((*code).to_owned(), (*field).to_owned())),
            "{name}: expected {code} at {field}, got {:?}\n{run}",
            find(name)
        );
    }
    assert_eq!(
        find("twin")
            .iter()
            .filter(|(code, _)| code == "E118")
            .count(),
        2,
        "{run}"
    );
    let (dup, envelope) = sandbox.json(&["--commands", dir, "schema", "show", "twin"]);
    dup.assert_code(4);
    assert_eq!(envelope["error"]["code"], "DUPLICATE_COMMAND");
}

#[test]
fn warnings_alone_exit_0() {
    let sandbox = Sandbox::new();
    write_json(
        &sandbox,
        "registry/lookup.json",
        &json!({"name": "lookup", "description": "look up", "danger_level": "mutating", "parameters": {"user-id": {"type": "string", "required": true}}}),
    );
    let dir = sandbox.join("registry");
    let dir = dir.to_str().unwrap();
    let (run, envelope) = sandbox.json(&["--commands", dir, "schema", "lint"]);
    run.assert_code(0);
    let diagnostic = &envelope["data"]["files"][0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "W101", "{run}");
    assert_eq!(diagnostic["severity"], "warning");
    assert_eq!(diagnostic["field"], "parameters.user-id");
    // Loading the command still works and carries the warning along.
    let (check, envelope) = sandbox.json(&[
        "--commands",
        dir,
        "args",
        "check",
        "lookup",
        "--user-id",
        "u1",
    ]);
    check.assert_code(0);
    assert!(
        envelope["warnings"][0].as_str().unwrap().contains("W101"),
        "{check}"
    );
}

#[test]
fn yaml_declarations_and_yaml_bombs() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "registry/hello.yml",
        "name: hello\ndescription: Say hello\ndanger_level: mutating\nparameters:\n  who:\n    type: enum\n    enum_values: [world, moon]\n    default: world\n",
    );
    let bomb = "name: bomb\ndescription: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d]\n";
    sandbox.write("registry/bomb.yaml", bomb);
    sandbox.write("registry/binary.json", b"{\"name\": \"\xff\"}");
    let dir = sandbox.join("registry");
    let dir = dir.to_str().unwrap();
    let (run, envelope) = sandbox.json(&["--commands", dir, "args", "check", "hello"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["arguments"], json!({"who": "world"}));
    let (bomb_run, envelope) = sandbox.json(&["--commands", dir, "schema", "show", "bomb"]);
    bomb_run.assert_code(4);
    assert_eq!(envelope["error"]["errors"][0]["code"], "E102", "{bomb_run}");
    let (binary, envelope) = sandbox.json(&["--commands", dir, "schema", "show", "binary"]);
    binary.assert_code(4);
    assert_eq!(envelope["error"]["errors"][0]["code"], "E101", "{binary}");
}

#[test]
fn a_missing_registry_directory_exits_5() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&["--commands", "no-such-dir", "schema", "show", "deploy"]);
    run.assert_code(5);
    let (run, _) = sandbox.json(&["--commands", "no-such-dir", "schema", "list"]);
    run.assert_code(5);
}

#[test]
fn the_registry_comes_from_aigent_commands_too() {
    let sandbox = Sandbox::bare();
    write_json(&sandbox, "registry/only.json", &minimal("only"));
    sandbox.write("registry/aigent.toml", "[hook]\ncatalog = false\n");
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .env("AIGENT_COMMANDS", sandbox.join("registry"))
            .args(["--output", "json", "schema", "list"]),
    );
    run.assert_code(0);
    let envelope = run.envelope();
    assert_eq!(envelope["data"]["commands"][0]["name"], "only");
}

#[test]
fn a_registry_of_a_thousand_declarations_works() {
    let sandbox = Sandbox::new();
    for index in 0..1000 {
        write_json(
            &sandbox,
            &format!("registry/cmd-{index:04}.json"),
            &minimal(&format!("cmd-{index:04}")),
        );
    }
    // one of them broken
    sandbox.write("registry/cmd-0500.json", "{ not json");
    let dir = sandbox.join("registry");
    let dir = dir.to_str().unwrap();
    let (run, envelope) = sandbox.json(&[
        "--commands",
        dir,
        "args",
        "check",
        "cmd-0999",
        "--item-id",
        "abc",
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["arguments"]["item-id"], "abc");
    sandbox
        .json(&[
            "--commands",
            dir,
            "args",
            "check",
            "cmd-0500",
            "--item-id",
            "abc",
        ])
        .0
        .assert_code(4);
    let (list, listed) = sandbox.json(&["--commands", dir, "schema", "list", "--limit", "0"]);
    list.assert_code(0);
    let given = listed["data"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|command| command["layer"] == "commands")
        .count();
    assert_eq!(given, 1000);
    let (missing, envelope) = sandbox.json(&["--commands", dir, "args", "check", "cmd-1000"]);
    missing.assert_code(5);
    assert!(
        envelope["error"]["hints"][0]
            .as_str()
            .unwrap()
            .contains("cmd-"),
        "{missing}"
    );
}

/// The JSON Schema export of a `url` parameter accepts what the declaration
/// accepts (no `format: uri`, which refuses IRIs and `[` `]` in a query).
#[test]
fn an_exported_url_accepts_what_the_declaration_accepts() {
    let sandbox = Sandbox::new();
    write_json(
        &sandbox,
        "registry/fetch.json",
        &json!({"name": "fetch", "description": "Fetch a URL", "danger_level": "mutating",
            "parameters": {"link": {"type": "string", "required": true, "pattern_type": "url"}}}),
    );
    let dir = sandbox.join("registry");
    let dir = dir.to_str().unwrap();
    let run = sandbox.run(&[
        "--commands",
        dir,
        "schema",
        "show",
        "fetch",
        "--output",
        "json-schema",
    ]);
    run.assert_code(0);
    let schema: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(schema["properties"]["link"].get("format"), None, "{run}");
    write_json(
        &sandbox,
        "exported/fetch-tool.json",
        &json!({"name": "fetch-tool", "description": "Fetch via MCP", "danger_level": "mutating", "input_schema": schema}),
    );
    let exported = sandbox.join("exported");
    let exported = exported.to_str().unwrap();
    for link in [
        "https://example.com/Straße",
        "https://example.com/items?filter[name]=x",
    ] {
        for (registry, name) in [(dir, "fetch"), (exported, "fetch-tool")] {
            let (check, _) = sandbox.json(&[
                "--commands",
                registry,
                "args",
                "check",
                name,
                "--link",
                link,
            ]);
            check.assert_code(0);
        }
    }
}

/// A long `enum_values` list is checked for duplicates in linear time (it
/// was quadratic: 100,000 values took seconds per `args check`).
#[test]
fn a_long_enum_loads_and_reports_a_duplicate_once() {
    let sandbox = Sandbox::new();
    let mut values: Vec<String> = (0..100_000).map(|index| index.to_string()).collect();
    let write = |values: &[String]| {
        sandbox.write(
            "registry/pick.json",
            serde_json::to_string(
                &json!({"name": "pick", "description": "Pick one", "danger_level": "mutating",
                "parameters": {"choice": {"type": "enum", "enum_values": values}}}),
            )
            .unwrap(),
        );
    };
    write(&values);
    let dir = sandbox.join("registry");
    let dir = dir.to_str().unwrap();
    let (ok, envelope) = sandbox.json(&[
        "--commands",
        dir,
        "args",
        "check",
        "pick",
        "--choice",
        "99999",
    ]);
    ok.assert_code(0);
    assert_eq!(envelope["data"]["arguments"]["choice"], "99999");
    values.push("7".to_owned());
    write(&values);
    let (lint, envelope) = sandbox.json(&["--commands", dir, "schema", "lint"]);
    lint.assert_code(4);
    let diagnostics = envelope["data"]["files"][0]["diagnostics"]
        .as_array()
        .unwrap();
    assert_eq!(diagnostics.len(), 1, "{lint}");
    assert_eq!(diagnostics[0]["code"], "E110");
    assert!(diagnostics[0]["message"].as_str().unwrap().contains("`7`"));
}
