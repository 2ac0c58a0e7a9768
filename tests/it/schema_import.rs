//! `aigent schema import --from agent-spec|usage`: aigent's own manifest and
//! a usage spec a real clap program emits (tokei, tests/fixtures/import)
//! become declarations that lint clean and accept the documented examples;
//! bad input and existing files leave the directory as it was.

use serde_json::Value;

use crate::common::Sandbox;

const TOKEI: &str = include_str!("../fixtures/import/tokei.usage.kdl");

/// aigent's own manifest, as `aigent --schema` prints it.
fn own_manifest(sandbox: &Sandbox) -> std::path::PathBuf {
    let run = sandbox.run(&["--schema"]);
    run.assert_code(0);
    sandbox.write("aigent.json", &run.stdout)
}

fn files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The words of an example after `aigent` as `args check` arguments for
/// its imported declaration: `--flag VALUE`, `--switch`, `-s` through the
/// manifest's `short`, positionals to the command's first positional (from
/// the envelope's `meta.positionals`). `None` for an example this reading
/// cannot follow (quotes, redirections, comments, a value it cannot place).
fn example_arguments(
    example: &str,
    path: &[&str],
    entry: &Value,
    positionals: &Value,
) -> Option<Vec<String>> {
    if example.contains(['\'', '"', '>', '#', '\\', '$', '*', '|']) {
        return None;
    }
    let words: Vec<&str> = example.split_whitespace().collect();
    let words = words.strip_prefix(&["aigent"][..])?;
    let flags = entry["flags"].as_object()?;
    let mut out = Vec::new();
    let mut index = 0;
    let mut path_left: Vec<&str> = path.to_vec();
    while index < words.len() {
        let word = words[index];
        index += 1;
        if path_left.first() == Some(&word) {
            path_left.remove(0);
            continue;
        }
        let name = if let Some(long) = word.strip_prefix("--") {
            long.to_owned()
        } else if let Some(short) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            flags
                .iter()
                .find(|(_, flag)| flag["short"] == short)
                .map(|(name, _)| name.clone())?
        } else {
            let (name, _) = positionals.as_object()?.iter().next()?;
            out.push(format!("--{name}"));
            out.push(word.to_owned());
            continue;
        };
        let flag = flags.get(&name)?;
        out.push(format!("--{name}"));
        if flag["type"] != "boolean" {
            out.push((*words.get(index)?).to_owned());
            index += 1;
        }
    }
    path_left.is_empty().then_some(out)
}

#[test]
fn own_manifest_imports_lint_clean_and_accepts_its_examples() {
    let sandbox = Sandbox::new();
    let manifest = own_manifest(&sandbox);
    // `commands/` does not exist yet, as in docs/contracts.md's example.
    let (run, envelope) = sandbox.json(&[
        "schema",
        "import",
        "--from",
        "agent-spec",
        "--program",
        "aigent",
        "--out-dir",
        "commands",
        manifest.to_str().unwrap(),
    ]);
    run.assert_code(0);
    let declarations = envelope["data"]["declarations"].as_array().unwrap();
    let written = envelope["data"]["written"].as_array().unwrap();
    assert_eq!(declarations.len(), written.len());
    assert!(declarations.len() >= 20, "{run}");
    // Groups get none of their own, and say so.
    let skipped: Vec<&str> = envelope["data"]["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skipped| skipped["command"].as_str().unwrap())
        .collect();
    assert!(skipped.contains(&"aigent schema"), "{skipped:?}");
    // Levels come from the manifest, not the destructive default.
    let level = |name: &str| {
        declarations
            .iter()
            .find(|d| d["name"] == name)
            .map(|d| d["declaration"]["danger_level"].clone())
            .unwrap()
    };
    assert_eq!(level("aigent-skill-validate"), "safe");
    assert_eq!(level("aigent-run"), "destructive");
    let validate = declarations
        .iter()
        .find(|d| d["name"] == "aigent-skill-validate")
        .unwrap();
    // The positionals come from the envelope's `meta.positionals`.
    assert_eq!(
        validate["declaration"]["parameters"]["PATH"]["type"], "array",
        "{validate}"
    );
    assert_eq!(
        validate["declaration"]["parameters"]["profile"]["type"],
        "enum"
    );

    // `schema lint` on what was written: no error. Warnings only where the
    // manifest says no more (W140: no sandbox; W101: an id without a
    // pattern); its `2: ARG_ERROR` is left out rather than kept for W106.
    let (lint, report) = sandbox.json(&["--commands", "commands", "schema", "lint"]);
    lint.assert_code(0);
    assert_eq!(report["data"]["summary"]["errors"], 0, "{lint}");
    let codes: std::collections::BTreeSet<&str> = report["data"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|file| file["diagnostics"].as_array().unwrap())
        .filter_map(|diagnostic| diagnostic["code"].as_str())
        .collect();
    assert!(
        codes.iter().all(|code| ["W140", "W101"].contains(code)),
        "{codes:?}"
    );

    // Each example the manifest documents that names only flags and
    // values passes `args check` against its imported declaration.
    let document: Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let commands = document["data"]["commands"].as_object().unwrap();
    let mut checked = 0;
    for (path, entry) in commands {
        let name = format!("aigent-{}", path.replace('.', "-"));
        if !files(&sandbox.join("commands")).contains(&format!("{name}.json")) {
            continue;
        }
        let words: Vec<&str> = path.split('.').collect();
        for example in entry["examples"].as_array().into_iter().flatten() {
            let text = example["command"].as_str().unwrap();
            let positionals = &document["meta"]["positionals"][path];
            let Some(arguments) = example_arguments(text, &words, entry, positionals) else {
                continue;
            };
            let mut args = vec![
                "--commands",
                "commands",
                "args",
                "check",
                "--no-audit",
                name.as_str(),
            ];
            args.extend(arguments.iter().map(String::as_str));
            let run = sandbox.run(&args);
            assert_eq!(run.code, 0, "{text}\n{run}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} examples checked");
}

#[test]
fn a_usage_spec_from_clap_imports_with_its_choices() {
    let sandbox = Sandbox::new();
    let spec = sandbox.write("tokei.usage.kdl", TOKEI);
    std::fs::create_dir(sandbox.join("commands")).unwrap();
    let (run, envelope) = sandbox.json(&[
        "--commands",
        "commands",
        "schema",
        "import",
        "--from",
        "usage",
        spec.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert_eq!(files(&sandbox.join("commands")), ["tokei.json"]);
    let imported = &envelope["data"]["declarations"][0];
    let declaration = &imported["declaration"];
    // A usage spec never says how dangerous a command is.
    assert_eq!(declaration["danger_level"], "destructive");
    assert_eq!(declaration["subprocess"]["binary"], "tokei");
    let parameters = &declaration["parameters"];
    assert_eq!(parameters["sort"]["type"], "enum");
    assert_eq!(
        parameters["sort"]["enum_values"],
        serde_json::json!(["files", "lines", "blanks", "code", "comments"])
    );
    assert_eq!(parameters["exclude"]["type"], "array");
    assert_eq!(parameters["files"]["type"], "boolean");
    assert_eq!(parameters["input-arg"]["type"], "array");
    let unmapped: Vec<&str> = imported["unmapped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|note| note.as_str().unwrap())
        .collect();
    for expected in [
        "--verbose left out: a counted switch",
        "conflicts=--rsort",
        "var_min=1",
    ] {
        assert!(
            unmapped.iter().any(|note| note.contains(expected)),
            "{expected}: {unmapped:#?}"
        );
    }
    let (lint, report) = sandbox.json(&["--commands", "commands", "schema", "lint"]);
    lint.assert_code(0);
    assert_eq!(report["data"]["summary"]["errors"], 0, "{lint}");

    // Its documented use (tokei [OPTIONS] [input]...) passes Phase 1, and
    // a value outside the choices does not.
    let ok = sandbox.run(&[
        "--commands",
        "commands",
        "args",
        "check",
        "--no-audit",
        "tokei",
        "--files",
        "--sort",
        "code",
        "--exclude",
        "target",
        "--input-arg",
        "src",
    ]);
    ok.assert_code(0);
    let dry = sandbox.run(&[
        "--commands",
        "commands",
        "--output",
        "text",
        "run",
        "--dry-run",
        "tokei",
        "--files",
        "--sort",
        "code",
        "--input-arg",
        "src",
    ]);
    dry.assert_code(0);
    assert!(
        dry.stdout.contains("tokei --files --sort code src"),
        "{dry}"
    );
    let bad = sandbox.run(&[
        "--commands",
        "commands",
        "args",
        "check",
        "--no-audit",
        "tokei",
        "--sort",
        "size",
    ]);
    bad.assert_code(2);
}

#[test]
fn bad_specs_say_where_and_write_nothing() {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.join("commands")).unwrap();
    let cases: [(&str, &str, &str, &str); 4] = [
        (
            "bad.json",
            "agent-spec",
            "{\n  \"commands\": {,}\n}\n",
            "line 2, column 16",
        ),
        (
            "bad.kdl",
            "usage",
            "flag \"-x\"\n\nflag \"-y\" help=\"a\" }\n",
            "line 3, column 20",
        ),
        (
            "v1.kdl",
            "usage",
            "bin x\nflag \"-x\" hide=true\n",
            "KDL v1",
        ),
        (
            "shape.json",
            "agent-spec",
            "{\"tools\": []}",
            "no `commands`",
        ),
    ];
    for (file, from, text, expected) in cases {
        let path = sandbox.write(file, text);
        let (run, envelope) = sandbox.json(&[
            "--commands",
            "commands",
            "schema",
            "import",
            "--from",
            from,
            "--program",
            "x",
            path.to_str().unwrap(),
        ]);
        run.assert_code(2);
        assert_eq!(envelope["error"]["code"], "INVALID_SPEC", "{run}");
        let message = envelope["error"]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{expected}: {message}");
        assert!(message.contains("nothing written"), "{message}");
    }
    assert!(files(&sandbox.join("commands")).is_empty());
    // A manifest does not name its program.
    let manifest = sandbox.write("m.json", r#"{"commands": {"a": {"description": "A", "danger_level": "safe", "flags": {}, "exit_codes": {}}}}"#);
    let (run, envelope) = sandbox.json(&[
        "--commands",
        "commands",
        "schema",
        "import",
        "--from",
        "agent-spec",
        manifest.to_str().unwrap(),
    ]);
    run.assert_code(2);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--program")
    );
    // Nowhere to write.
    let run = sandbox.run(&["schema", "import", "--from", "usage", "m.json"]);
    run.assert_code(2);
}

#[test]
fn existing_declarations_need_force_and_links_are_never_written_through() {
    let sandbox = Sandbox::new();
    let spec = sandbox.write("tokei.usage.kdl", TOKEI);
    let spec = spec.to_str().unwrap();
    std::fs::create_dir(sandbox.join("commands")).unwrap();
    let before = "{\"name\": \"tokei\"}\n";
    sandbox.write("commands/tokei.json", before);
    let import = |extra: &[&str]| {
        let mut args = vec![
            "--commands",
            "commands",
            "schema",
            "import",
            "--from",
            "usage",
        ];
        args.extend_from_slice(extra);
        args.push(spec);
        sandbox.json(&args)
    };
    let (run, envelope) = import(&[]);
    run.assert_code(6);
    assert_eq!(envelope["error"]["code"], "CONFLICT");
    assert_eq!(
        std::fs::read_to_string(sandbox.join("commands/tokei.json")).unwrap(),
        before
    );
    // --dry-run writes nothing, whatever is there.
    let (run, envelope) = import(&["--dry-run"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["written"], Value::Null);
    assert_eq!(
        std::fs::read_to_string(sandbox.join("commands/tokei.json")).unwrap(),
        before
    );
    let (run, envelope) = import(&["--force"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["written"][0]["replaced"], true);
    assert_ne!(
        std::fs::read_to_string(sandbox.join("commands/tokei.json")).unwrap(),
        before
    );
    #[cfg(unix)]
    {
        std::fs::remove_file(sandbox.join("commands/tokei.json")).unwrap();
        let outside = sandbox.write("outside/target.json", "{}");
        std::os::unix::fs::symlink(&outside, sandbox.join("commands/tokei.json")).unwrap();
        let (run, envelope) = import(&["--force"]);
        run.assert_code(4);
        assert_eq!(envelope["error"]["code"], "UNSAFE_WRITE");
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "{}");
    }
    assert_eq!(files(&sandbox.join("commands")), ["tokei.json"]);
}

#[test]
fn reads_stdin() {
    let sandbox = Sandbox::new();
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .args([
                "--output",
                "text",
                "schema",
                "import",
                "--from",
                "usage",
                "--dry-run",
                "-",
            ])
            .write_stdin(TOKEI),
    );
    run.assert_code(0);
    assert!(run.stdout.contains("would write tokei.json"), "{run}");
    assert!(run.stdout.contains("(nothing written)"), "{run}");
}

/// REQ-F-054: stdin holds at most 64 KiB unless AIGENT_MAX_STDIN_BYTES
/// (or the spec's TOOL_MAX_STDIN_BYTES) says otherwise; past it the import
/// refuses with STDIN_TOO_LARGE (exit 2) and points at a file.
#[test]
fn stdin_is_capped_at_64_kib_unless_raised() {
    let sandbox = Sandbox::new();
    let import = |padded_to: usize, env: &[(&str, &str)]| {
        let mut spec = TOKEI.to_owned();
        spec.push_str(&" ".repeat(padded_to - spec.len()));
        let mut cmd = sandbox.cmd();
        cmd.args(["schema", "import", "--from", "usage", "--dry-run", "-"]);
        for (name, value) in env {
            cmd.env(name, value);
        }
        let run = crate::common::Run::of(cmd.write_stdin(spec));
        let envelope: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
        (run, envelope)
    };
    let (run, envelope) = import(65_536, &[]);
    run.assert_code(0);
    assert_eq!(envelope["ok"], true);
    let (run, envelope) = import(65_537, &[]);
    run.assert_code(2);
    assert_eq!(envelope["error"]["code"], "STDIN_TOO_LARGE", "{run}");
    assert_eq!(envelope["error"]["retryable"], false);
    let hints = envelope["error"]["hints"].to_string();
    assert!(hints.contains("instead of -"), "{hints}");
    let (run, _) = import(200_000, &[("TOOL_MAX_STDIN_BYTES", "300000")]);
    run.assert_code(0);
    let (run, envelope) = import(65_537, &[("AIGENT_MAX_STDIN_BYTES", "1000")]);
    run.assert_code(2);
    assert_eq!(envelope["error"]["code"], "STDIN_TOO_LARGE");
}

/// REQ-C-020: a resource id's validation is its flag's `pattern` or
/// `pattern_type` (and a string's choices its `enum`). Each is carried into
/// the declaration and enforced by `args check`; a flag whose validation
/// the declaration cannot hold is left out, never imported without it.
#[test]
fn agent_spec_flag_patterns_are_enforced() {
    let sandbox = Sandbox::new();
    let manifest = sandbox.write(
        "gh.json",
        r#"{"schema_version": "1.0", "commands": {"repo.create": {
            "description": "Create a repository", "danger_level": "mutating", "required_scopes": [],
            "flags": {
                "owner": {"type": "string", "required": true, "description": "Owner", "pattern": "^[a-z][a-z0-9-]{0,38}$"},
                "template-id": {"type": "string", "required": false, "description": "Template", "pattern_type": "uuid"},
                "visibility": {"type": "string", "required": false, "description": "Visibility", "enum": ["public", "private"]},
                "topics": {"type": "array", "required": false, "description": "Topics", "pattern": "^[a-z]{1,20}$"},
                "team": {"type": "string", "required": false, "description": "Team", "pattern": "[a-z]+"},
                "limit": {"type": "integer", "required": false, "description": "At most this many", "minimum": 1, "maximum": 50}
            },
            "exit_codes": {"0": {"name": "SUCCESS", "description": "Created", "retryable": false, "side_effects": "complete"}}
        }}}"#,
    );
    let (run, envelope) = sandbox.json(&[
        "schema",
        "import",
        "--from",
        "agent-spec",
        "--program",
        "gh",
        "--out-dir",
        "commands",
        manifest.to_str().unwrap(),
    ]);
    run.assert_code(0);
    let imported = &envelope["data"]["declarations"][0];
    let parameters = imported["declaration"]["parameters"].as_object().unwrap();
    // The unanchored pattern cannot be kept, so its flag is not imported.
    assert!(!parameters.contains_key("team"), "{imported}");
    assert!(
        imported["unmapped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|note| note.as_str().unwrap().starts_with("--team left out")),
        "{imported}"
    );
    let check = |extra: &[&str]| {
        let mut args = vec![
            "--commands",
            "commands",
            "args",
            "check",
            "gh-repo-create",
            "--owner",
        ];
        args.extend_from_slice(extra);
        sandbox.json(&args)
    };
    let (ok, _) = check(&[
        "team-a",
        "--template-id",
        "123e4567-e89b-12d3-a456-426614174000",
        "--visibility",
        "private",
        "--topics",
        "rust",
        "--limit",
        "50",
    ]);
    ok.assert_code(0);
    for (bad, field) in [
        (&["Team A!"][..], "owner"),
        (&["team-a", "--template-id", "not-a-uuid"], "template-id"),
        (&["team-a", "--visibility", "secret"], "visibility"),
        (&["team-a", "--topics", "Rust Lang"], "topics"),
        (&["team-a", "--limit", "51"], "limit"),
    ] {
        let (run, envelope) = check(bad);
        run.assert_code(2);
        let fields: Vec<&str> = envelope["error"]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|error| error["field"].as_str())
            .collect();
        assert!(
            fields.iter().any(|f| f.starts_with(field)),
            "{bad:?}: {run}"
        );
    }
}

/// A command word that starts with `-` would reach the program as an
/// option (`git --exec-path=DIR subtree` runs DIR/git-subtree): the
/// command, and those below it, are skipped, in both formats.
#[test]
fn command_words_that_are_options_are_skipped() {
    let sandbox = Sandbox::new();
    let usage = sandbox.write(
        "git.usage.kdl",
        "bin git\ncmd \"--exec-path=DIR\" {\n  cmd subtree help=\"Subtrees\" {\n    arg \"<prefix>\"\n  }\n}\ncmd log help=\"Show the log\"\n",
    );
    let manifest = sandbox.write(
        "git.json",
        r#"{"commands": {"--exec-path=DIR.subtree": {"description": "x", "danger_level": "safe"}, "log": {"description": "Show the log", "danger_level": "safe"}}}"#,
    );
    for (from, file) in [("usage", &usage), ("agent-spec", &manifest)] {
        let (run, envelope) = sandbox.json(&[
            "schema",
            "import",
            "--from",
            from,
            "--program",
            "git",
            "--dry-run",
            file.to_str().unwrap(),
        ]);
        run.assert_code(0);
        let names: Vec<&str> = envelope["data"]["declarations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"git-log"), "{from}: {run}");
        assert!(
            !names.iter().any(|name| name.contains("subtree")),
            "{from}: {run}"
        );
        assert!(!run.stdout.contains("\"--exec-path=DIR\""), "{from}: {run}");
        let skipped = envelope["data"]["skipped"].as_array().unwrap();
        assert!(
            skipped
                .iter()
                .any(|s| s["command"] == "git --exec-path=DIR subtree"),
            "{from}: {run}"
        );
    }
}
