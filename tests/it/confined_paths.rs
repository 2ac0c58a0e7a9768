//! `relative_only`, `under` and `must_exist` through the binary: `args
//! check` and `run` refuse a path that would land outside the allowed
//! directories, symbolic links followed, before anything runs.

use serde_json::Value;

use crate::common::{Run, Sandbox};

const SAVE: &str = "name: save\ndescription: Create an empty file in the working directory\ndanger_level: mutating\nparameters:\n  output: {type: string, required: true, pattern_type: filepath, relative_only: true, under: [$CWD]}\nsubprocess: {binary: touch, argv: ['--', {param: output}]}\n";

const SHOW: &str = "name: show\ndescription: Print a file of the working directory\ndanger_level: safe\nparameters:\n  file: {type: string, required: true, pattern_type: filepath, under: [$CWD], must_exist: true}\nsubprocess: {binary: cat, argv: ['--', {param: file}]}\n";

fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("registry/save.yaml", SAVE);
    sandbox.write("registry/show.yaml", SHOW);
    sandbox.write("work/notes/today.txt", "today\n");
    std::fs::create_dir_all(sandbox.join("elsewhere")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(sandbox.join("elsewhere"), sandbox.join("work/escape")).unwrap();
    sandbox
}

/// Runs aigent in `work/`, the directory the programs run in.
fn aigent(sandbox: &Sandbox, args: &[&str]) -> Run {
    let registry = sandbox.join("registry");
    Run::of(
        sandbox
            .cmd()
            .current_dir(sandbox.join("work"))
            .arg("--commands")
            .arg(&registry)
            .args(["--output", "json"])
            .args(args),
    )
}

fn error(run: &Run) -> Value {
    let text = if run.stdout.trim().is_empty() {
        let start = run.stderr.rfind("\n{").map_or(0, |at| at + 1);
        run.stderr[start..].to_owned()
    } else {
        run.stdout.clone()
    };
    let envelope: Value = serde_json::from_str(&text).unwrap_or_else(|err| panic!("{err}\n{run}"));
    envelope["error"].clone()
}

#[test]
fn a_relative_path_under_the_working_directory_passes_and_runs() {
    let sandbox = sandbox();
    aigent(
        &sandbox,
        &["args", "check", "save", "--output", "notes/new.txt"],
    )
    .assert_code(0);
    aigent(&sandbox, &["run", "save", "--output", "notes/new.txt"]).assert_code(0);
    assert!(sandbox.join("work/notes/new.txt").exists());
}

#[test]
fn absolute_home_and_escaping_paths_are_refused_before_anything_runs() {
    let sandbox = sandbox();
    for (value, rule) in [
        ("/tmp/aigent-should-not-exist", "absolute_path"),
        ("~/.bashrc_x", "absolute_path"),
        ("%2Ftmp%2Fx", "absolute_path"),
        ("notes/../../x", "path_traversal"),
        #[cfg(unix)]
        ("escape/planted.txt", "outside_root"),
    ] {
        for verb in ["args", "run"] {
            let args: Vec<&str> = if verb == "args" {
                vec!["args", "check", "save", "--output", value]
            } else {
                vec!["run", "save", "--output", value]
            };
            let run = aigent(&sandbox, &args);
            run.assert_code(2);
            let error = error(&run);
            assert_eq!(error["rejected_pattern"], rule, "{value}\n{run}");
            assert_eq!(error["code"], "INVALID_AGENT_INPUT", "{value}\n{run}");
        }
    }
    assert!(!sandbox.join("elsewhere/planted.txt").exists());
    assert!(!std::path::Path::new("/tmp/aigent-should-not-exist").exists());
    // Each refusal is audited as a Phase 1 rejection.
    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    assert!(log.contains("\"outside_root\"") || !cfg!(unix), "{log}");
    assert!(!log.contains("COMMAND_STARTED"));
}

#[test]
fn must_exist_refuses_a_missing_file() {
    let sandbox = sandbox();
    let run = aigent(&sandbox, &["run", "show", "--file", "notes/today.txt"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "today\n");
    let run = aigent(
        &sandbox,
        &["args", "check", "show", "--file", "notes/tomorrow.txt"],
    );
    run.assert_code(2);
    let refused = error(&run);
    assert_eq!(refused["rejected_pattern"], "path_not_found");
    assert_eq!(refused["code"], "ARG_ERROR");
    // An absolute path inside the working directory is fine here.
    let inside = sandbox.join("work/notes/today.txt");
    aigent(
        &sandbox,
        &["args", "check", "show", "--file", inside.to_str().unwrap()],
    )
    .assert_code(0);
    let run = aigent(
        &sandbox,
        &["args", "check", "show", "--file", "/etc/hostname"],
    );
    run.assert_code(2);
    assert_eq!(error(&run)["rejected_pattern"], "outside_root");
}

#[test]
fn the_declaration_and_its_schema_say_where_a_path_may_point() {
    let sandbox = sandbox();
    let run = aigent(
        &sandbox,
        &["schema", "show", "save", "--output", "json-schema"],
    );
    run.assert_code(0);
    let schema: Value = serde_json::from_str(&run.stdout).unwrap();
    let output = &schema["properties"]["output"];
    assert_eq!(output["x-aigent-relative-only"], true);
    assert_eq!(output["x-aigent-under"], serde_json::json!(["$CWD"]));
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(!validator.is_valid(&serde_json::json!({"output": "/etc/x"})));
    assert!(validator.is_valid(&serde_json::json!({"output": "notes/x"})));
    let run = aigent(&sandbox, &["schema", "show", "save", "--output", "json"]);
    let envelope: Value = serde_json::from_str(&run.stdout).unwrap();
    let wire = &envelope["data"]["parameters"]["output"];
    assert_eq!(wire["relative_only"], true);
    assert_eq!(wire["under"], serde_json::json!(["$CWD"]));
}
