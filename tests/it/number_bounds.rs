//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and
//! `multipleOf` on integer and number parameters, end to end: `args check`
//! from flags and `--json`, `run`, the JSON Schema export (the MCP
//! `inputSchema`), and the hook, which runs Phase 1 on the arguments it
//! reads back from a command line.

use serde_json::json;

use crate::common::Sandbox;

fn registry(sandbox: &Sandbox) -> String {
    // Only this registry: the catalog's own `head` would allow the lines.
    sandbox.write("commands/aigent.toml", "[hook]\ncatalog = false\n");
    sandbox.write(
        "commands/head-lines.json",
        r#"{"name": "head-lines", "description": "First lines of a file", "danger_level": "safe",
            "parameters": {
                "lines": {"type": "integer", "required": true, "minimum": 1, "maximum": 100},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "multipleOf": 0.05},
                "file": {"type": "string", "required": true, "pattern_type": "filepath"}
            },
            "subprocess": {"binary": "head", "argv": [{"param": "lines", "flag": "-n"}, {"param": "ratio", "flag": "--ratio"}, "--", {"param": "file"}]}}"#,
    );
    sandbox.join("commands").to_str().unwrap().to_owned()
}

#[test]
fn args_check_and_run_hold_values_to_their_bounds() {
    let sandbox = Sandbox::new();
    let commands = registry(&sandbox);
    let check = |words: &[&str]| {
        let mut args = vec!["--commands", &commands, "args", "check", "head-lines"];
        args.extend_from_slice(words);
        sandbox.json(&args)
    };
    let (run, _) = check(&["--lines", "100", "--ratio", "0.15", "--file", "a.txt"]);
    run.assert_code(0);
    let (run, envelope) = check(&["--lines", "0", "--ratio", "0.33", "--file", "a.txt"]);
    run.assert_code(2);
    let errors = envelope["error"]["errors"].as_array().unwrap();
    let pairs: Vec<(&str, &str)> = errors
        .iter()
        .map(|error| {
            (
                error["field"].as_str().unwrap(),
                error["rejected_pattern"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(pairs, [("lines", "bounds"), ("ratio", "bounds")], "{run}");
    assert_eq!(errors[0]["expected"], "an integer, at least 1, at most 100");
    let (run, _) = sandbox.json(&[
        "--commands",
        &commands,
        "args",
        "check",
        "head-lines",
        "--json",
        r#"{"lines": 101, "file": "a.txt"}"#,
    ]);
    run.assert_code(2);
    // `run` refuses before anything starts, and audits the refusal.
    let run = sandbox.run(&[
        "--commands",
        &commands,
        "--output",
        "json",
        "run",
        "head-lines",
        "--lines",
        "1000",
        "--file",
        "a.txt",
    ]);
    run.assert_code(2);
    let envelope: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(envelope["error"]["phase"], "validation", "{run}");
    let audit = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    assert!(audit.contains("\"bounds\""), "{audit}");
}

#[test]
fn the_json_schema_carries_the_bounds() {
    let sandbox = Sandbox::new();
    let commands = registry(&sandbox);
    let run = sandbox.run(&[
        "--commands",
        &commands,
        "schema",
        "show",
        "head-lines",
        "--output",
        "json-schema",
    ]);
    run.assert_code(0);
    let schema: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let properties = &schema["properties"];
    assert_eq!(
        properties["lines"],
        json!({"type": "integer", "minimum": 1, "maximum": 100}),
        "{run}"
    );
    assert_eq!(
        properties["ratio"],
        json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "multipleOf": 0.05})
    );
    // And the wire form keeps them as written.
    let (run, envelope) = sandbox.json(&["--commands", &commands, "schema", "show", "head-lines"]);
    run.assert_code(0);
    let wire = if envelope["data"].get("parameters").is_some() {
        &envelope["data"]
    } else {
        &envelope["data"]["declaration"]
    };
    assert_eq!(wire["parameters"]["lines"]["maximum"], 100, "{run}");
}

#[test]
fn the_hook_refuses_a_value_out_of_bounds() {
    let sandbox = Sandbox::new();
    let commands = registry(&sandbox);
    let explain = |line: &str| {
        let (run, envelope) = sandbox.json(&["--commands", &commands, "hook", "explain", line]);
        run.assert_code(0);
        envelope["data"]["segments"][0].clone()
    };
    let inside = explain("head -n 5 -- notes.txt");
    assert_eq!(inside["verdict"], "allow", "{inside}");
    assert_eq!(inside["declaration"], "head-lines");
    for line in [
        "head -n 500 -- notes.txt",
        "head -n 0 -- notes.txt",
        "head -n 5 --ratio 0.33 -- notes.txt",
    ] {
        let segment = explain(line);
        assert_eq!(segment["verdict"], "deny", "{line}: {segment}");
        assert_eq!(segment["rule"], "bounds", "{line}: {segment}");
    }
}
