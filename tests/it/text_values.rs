//! `pattern_type: free_text` and `regex` through the binary: `args check`,
//! `run` against real programs, the exported JSON Schema, and the lint.

use serde_json::Value;

use crate::common::{Run, Sandbox};

const ECHO_MESSAGE: &str = "name: say\ndescription: Print a message as given\ndanger_level: safe\nparameters:\n  message: {type: string, required: true, pattern_type: free_text}\nsubprocess: {binary: printf, argv: ['%s\\n', {param: message}]}\n";

const SEARCH: &str = "name: search\ndescription: Lines of notes.txt matching an extended regular expression\ndanger_level: safe\nparameters:\n  pattern: {type: string, required: true, pattern_type: regex, regex_dialect: ere}\nsubprocess: {binary: grep, argv: [--extended-regexp, {param: pattern, flag: --regexp, form: joined}, --, notes.txt]}\nsuccess_exit_codes: [0, 1]\nexit_codes:\n  0: {name: MATCH, description: At least one line matched, side_effects: none}\n  1: {name: NO_MATCH, description: No line matched, side_effects: none}\n  2: {name: GREP_ERROR, description: The file could not be read, side_effects: none}\n";

fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("commands/say.yaml", ECHO_MESSAGE);
    sandbox.write("commands/search.yaml", SEARCH);
    sandbox.write(
        "notes.txt",
        "foo one\nbar two\nbaz three\n(literal) parens\n",
    );
    sandbox
}

fn aigent(sandbox: &Sandbox, format: &str, args: &[&str]) -> Run {
    Run::of(
        sandbox
            .cmd()
            .args(["--commands", "commands", "--output", format])
            .args(args),
    )
}

fn run_envelope(run: &Run) -> Value {
    let start = run.stderr.rfind("\n{").map_or(0, |at| at + 1);
    serde_json::from_str(&run.stderr[start..])
        .unwrap_or_else(|err| panic!("no envelope on stderr ({err}):\n{run}"))
}

#[test]
fn free_text_passes_metacharacters_as_one_word() {
    let sandbox = sandbox();
    let message = "Fix parser (again) & add tests; $HOME stays `literal` | <ok>";
    let check = aigent(
        &sandbox,
        "json",
        &["args", "check", "say", "--message", message],
    );
    check.assert_code(0);
    assert_eq!(check.envelope()["data"]["arguments"]["message"], message);

    let run = aigent(&sandbox, "text", &["run", "say", "--message", message]);
    run.assert_code(0);
    assert_eq!(run.stdout, format!("{message}\n"), "{run}");

    for (bad, rule) in [
        ("null", "placeholder_literal"),
        ("{{commit_message}}", "placeholder_literal"),
        ("-n", "option_injection"),
        ("abc\u{202E}cba", "control_character"),
    ] {
        let check = aigent(
            &sandbox,
            "json",
            &["args", "check", "say", "--message", bad],
        );
        check.assert_code(2);
        assert_eq!(
            check.envelope()["error"]["rejected_pattern"],
            rule,
            "{bad:?}\n{check}"
        );
    }
}

#[test]
fn regex_values_compile_in_their_dialect_before_anything_runs() {
    let sandbox = sandbox();
    let run = aigent(
        &sandbox,
        "json",
        &["run", "search", "--pattern", "(foo|baz) (one|three)$"],
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "foo one\nbaz three\n", "{run}");
    assert_eq!(run_envelope(&run)["data"]["child_exit"]["name"], "MATCH");

    // No match is a declared success, not a failure.
    let run = aigent(
        &sandbox,
        "json",
        &["run", "search", "--pattern", "^nothing$"],
    );
    run.assert_code(0);
    let envelope = run_envelope(&run);
    assert_eq!(envelope["data"]["child_exit_code"], 1);
    assert_eq!(envelope["data"]["child_exit"]["name"], "NO_MATCH");

    // A broken expression never reaches grep.
    let started = || {
        std::fs::read_to_string(sandbox.audit_log())
            .unwrap_or_default()
            .matches("COMMAND_STARTED")
            .count()
    };
    let before = started();
    let run = aigent(
        &sandbox,
        "json",
        &["run", "search", "--pattern", "(foo|bar"],
    );
    run.assert_code(2);
    let error = &run_envelope(&run)["error"];
    assert_eq!(error["rejected_pattern"], "regex");
    assert_eq!(error["phase"], "validation");
    assert!(
        error["message"].as_str().unwrap().contains("never closed"),
        "{error}"
    );
    assert_eq!(started(), before, "nothing started");

    // Parentheses escaped as the dialect wants are data.
    let run = aigent(
        &sandbox,
        "text",
        &["run", "search", "--pattern", "\\(literal\\)"],
    );
    run.assert_code(0);
    assert_eq!(run.stdout, "(literal) parens\n", "{run}");
}

#[test]
fn the_json_schema_says_what_is_refused() {
    let sandbox = sandbox();
    let run = aigent(
        &sandbox,
        "json",
        &["schema", "show", "say", "--output", "json-schema"],
    );
    run.assert_code(0);
    let schema: Value = serde_json::from_str(&run.stdout).expect("the bare schema");
    let message = &schema["properties"]["message"];
    assert_eq!(message["x-aigent-pattern-type"], "free_text", "{schema}");
    let refused: Vec<&str> = message["not"]["anyOf"]
        .as_array()
        .expect("refusals under not.anyOf")
        .iter()
        .map(|entry| entry["description"].as_str().unwrap())
        .collect();
    assert!(refused.contains(&"refused: a placeholder"), "{refused:?}");
    assert!(
        refused.iter().any(|what| what.contains("leading '-'")),
        "{refused:?}"
    );
    assert!(
        !refused
            .iter()
            .any(|what| what.contains("shell metacharacter")),
        "free text allows them: {refused:?}"
    );
    // The same schema, validated, agrees with the guard on a value each way.
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&serde_json::json!({"message": "Fix (again) & more"})));
    assert!(!validator.is_valid(&serde_json::json!({"message": "null"})));
    assert!(!validator.is_valid(&serde_json::json!({"message": "-n"})));
}

#[test]
fn the_lint_keeps_text_away_from_code() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/pick.yaml",
        "name: pick\ndescription: Run a program the agent names\ndanger_level: mutating\nparameters:\n  program: {type: string, required: true, pattern_type: free_text}\nsubprocess: {binary: env, argv: ['--', {param: program}]}\n",
    );
    let (run, envelope) = sandbox.json(&["--commands", "commands", "schema", "lint"]);
    run.assert_code(4);
    let codes: Vec<&str> = envelope["data"]["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| diagnostic["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"E128"), "{run}");
}
