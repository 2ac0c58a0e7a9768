//! The CLI Agent Spec as it reads at the commit named in
//! tests/fixtures/agent-spec/README.md: aigent's manifest against the
//! spec's own `manifest-response.json`, and the behaviours that
//! docs/reference/agent-spec.md marks met.

use serde_json::{Value, json};

use crate::common::agent_spec::manifest_errors;
use crate::common::{Run, Sandbox, assert_valid_envelope};

/// `aigent --schema`: its `data` is a valid `ManifestResponse`.
#[test]
fn the_manifest_is_a_valid_manifest_response() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["--schema"]);
    run.assert_code(0);
    let errors = manifest_errors(&envelope["data"]);
    assert!(errors.is_empty(), "{errors:#?}");
}

/// REQ-F-014: a reader that stops early (`aigent --schema | head -c 10`)
/// is no failure: exit 0, nothing on stderr.
#[cfg(unix)]
#[test]
fn a_closed_pipe_exits_0_quietly() {
    use std::io::Read;
    let sandbox = Sandbox::new();
    // The manifest is larger than a pipe's buffer, so the write is still
    // under way when the reader goes.
    let mut child = sandbox
        .std_cmd()
        .args(["--schema"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn aigent");
    let mut first = [0u8; 10];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("read 10 bytes");
    let output = child.wait_with_output().expect("wait");
    assert_eq!(&first[..1], b"{");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `--schema` forgives what is missing (a subcommand, NAME), never what is
/// unknown; a usage error says it was refused before anything ran.
#[test]
fn schema_refuses_unknown_arguments_and_usage_errors_carry_their_phase() {
    let sandbox = Sandbox::new();
    for args in [
        &["--schema", "--bogus-xyz"][..],
        &["skill", "validate", "--schema", "--bogus-xyz"],
        &["schema", "list", "--schema", "--frobnicate"],
    ] {
        let (run, envelope) = sandbox.json(args);
        run.assert_code(2);
        assert_eq!(envelope["error"]["code"], "ARG_ERROR", "{run}");
        assert_eq!(envelope["error"]["phase"], "validation", "{run}");
        assert_eq!(envelope["error"]["retryable"], false, "{run}");
    }
    // What is missing is still forgiven.
    let (run, envelope) = sandbox.json(&["args", "check", "--schema"]);
    run.assert_code(0);
    assert!(
        envelope["data"]["commands"]["args.check"].is_object(),
        "{run}"
    );
}

/// REQ-F-048: in json mode `--help` is prose on stderr and an envelope on
/// stdout pointing at the manifest; in text mode it is help on stdout.
#[test]
fn help_in_json_mode_goes_to_stderr_with_an_envelope_on_stdout() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["skill", "validate", "--help"]);
    run.assert_code(0);
    assert_eq!(envelope["data"], Value::Null);
    assert_eq!(envelope["meta"]["help"], true);
    assert_eq!(
        envelope["meta"]["schema_ref"],
        "aigent skill validate --schema"
    );
    assert!(run.stderr.contains("Usage: aigent skill validate"), "{run}");
    let text = sandbox.run(&["--output", "text", "skill", "validate", "--help"]);
    text.assert_code(0);
    assert!(
        text.stdout.contains("Usage: aigent skill validate"),
        "{text}"
    );
    assert!(text.stderr.is_empty(), "{text}");
}

/// `aigent --commands commands --output json run ARGS...`, the envelope
/// read from stderr (the child's stdout is its own) and checked against
/// the spec's schema.
fn run_json(sandbox: &Sandbox, args: &[&str]) -> (Run, Value) {
    let run = Run::of(
        sandbox
            .cmd()
            .args(["--commands", "commands", "--output", "json", "run"])
            .args(args),
    );
    let envelope: Value = serde_json::from_str(&run.stderr)
        .unwrap_or_else(|err| panic!("stderr is not one envelope ({err}):\n{run}"));
    assert_valid_envelope(&envelope, &run.to_string());
    (run, envelope)
}

/// REQ-C-030: a `run` rejection's `fix_command` never runs anything (it is
/// an `args check`, read-only, writing no record), runs as is, and passes;
/// the corrected run itself is `fix_arguments`.
#[test]
fn a_run_rejections_fix_command_checks_and_never_runs() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/deploy.yaml",
        "name: deploy\ndescription: Deploy a version\ndanger_level: destructive\nparameters:\n  version: {type: string, pattern_type: semver, required: true}\nsubprocess: {binary: echo, argv: [deployed, {param: version}]}\n",
    );
    let (run, envelope) = run_json(
        &sandbox,
        &["--confirm-destructive", "deploy", "--version", "v1.2.3"],
    );
    run.assert_code(2);
    let error = &envelope["error"];
    assert_eq!(error["retryable"], false, "{run}");
    assert!(error["fix_required"].is_string(), "{run}");
    assert_eq!(
        error["fix_arguments"],
        json!(["--version", "1.2.3"]),
        "{run}"
    );
    let fix = error["fix_command"].as_str().expect("fix_command");
    assert_eq!(
        fix,
        "aigent --commands commands args check --no-audit deploy --version 1.2.3"
    );
    let before = std::fs::read_to_string(sandbox.audit_log()).expect("the rejection's record");
    for _ in 0..2 {
        let words: Vec<&str> = fix.split(' ').skip(1).collect();
        sandbox.run(&words).assert_code(0);
    }
    let after = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    assert_eq!(before, after, "the fix command writes nothing");
}

/// REQ-C-014 and REQ-F-012: `retryable` says whether the same call,
/// unchanged, may succeed: from the child's declared exit entry (only
/// where that status changed nothing), and for a timeout from whether the
/// command is declared `safe`; a retryable error names nothing to fix.
#[cfg(unix)]
#[test]
fn retryable_comes_from_the_declared_exit_entry_and_the_danger_level() {
    let sandbox = Sandbox::new();
    let script = sandbox.script(
        "bin/exit-with",
        "#!/bin/sh\ncase \"$1\" in sleep) sleep 5 ;; *) exit \"$1\" ;; esac\n",
    );
    let declare = |name: &str, level: &str| {
        sandbox.write(
            format!("commands/{name}.yaml"),
            format!(
                "name: {name}\ndescription: Exit with a status\ndanger_level: {level}\nparameters:\n  status: {{type: string, pattern: '^(sleep|[0-9]+)$', required: true}}\nsubprocess: {{binary: '{}', argv: [{{param: status}}]}}\nexit_codes:\n  '0': {{name: SUCCESS, side_effects: none}}\n  '3': {{name: BUSY, description: Try again, retryable: true, side_effects: none}}\n  '4': {{name: BAD_STATE, description: Fix the state, retryable: false, side_effects: none}}\n",
                script.display()
            ),
        );
    };
    declare("probe", "safe");
    declare("change", "mutating");
    let (run, envelope) = run_json(&sandbox, &["probe", "--status", "3"]);
    run.assert_code(3);
    assert_eq!(envelope["error"]["code"], "COMMAND_FAILED");
    assert_eq!(envelope["error"]["retryable"], true, "{run}");
    assert!(envelope["error"].get("fix_required").is_none(), "{run}");
    let (run, envelope) = run_json(&sandbox, &["probe", "--status", "4"]);
    run.assert_code(3);
    assert_eq!(envelope["error"]["retryable"], false, "{run}");
    let (run, envelope) = run_json(
        &sandbox,
        &["--timeout", "0.3", "probe", "--status", "sleep"],
    );
    run.assert_code(10);
    assert_eq!(envelope["error"]["code"], "TIMEOUT");
    assert_eq!(
        envelope["error"]["retryable"], true,
        "a safe command changed nothing: {run}"
    );
    let (run, envelope) = run_json(
        &sandbox,
        &["--timeout", "0.3", "change", "--status", "sleep"],
    );
    run.assert_code(10);
    assert_eq!(envelope["error"]["retryable"], false, "{run}");
}

/// REQ-F-010, F-046, F-055, F-066, F-008: every child, and every child of
/// a child, runs without a pager, with an editor that fails at once, no
/// colour, `CI` set and the C locale, whatever the caller's environment
/// says; `preserve_locale: true` keeps the caller's locale.
#[cfg(unix)]
#[test]
fn every_child_and_its_children_run_non_interactive_in_the_c_locale() {
    let sandbox = Sandbox::new();
    // The grandchild prints what it inherited.
    let script = sandbox.script("bin/show-env", "#!/bin/sh\nsh -c env\nexit 0\n");
    for (name, preserve) in [("plain", ""), ("localized", "\n  preserve_locale: true")] {
        sandbox.write(
            format!("commands/{name}.yaml"),
            format!(
                "name: {name}\ndescription: Show the environment\ndanger_level: safe\nparameters: {{}}\nsubprocess:\n  binary: '{}'{preserve}\n",
                script.display()
            ),
        );
    }
    let run = |name: &str| {
        Run::of(
            sandbox
                .cmd()
                .env("PAGER", "less")
                .env("GIT_PAGER", "less")
                .env("EDITOR", "vim")
                .env("LANG", "de_DE.UTF-8")
                .env("LC_ALL", "de_DE.UTF-8")
                .args(["--commands", "commands", "--output", "text", "run", name]),
        )
    };
    let plain = run("plain");
    plain.assert_code(0);
    let seen: std::collections::BTreeMap<&str, &str> = plain
        .stdout
        .lines()
        .filter_map(|line| line.split_once('='))
        .collect();
    for (variable, value) in [
        ("PAGER", "cat"),
        ("GIT_PAGER", "cat"),
        ("MANPAGER", "cat"),
        ("EDITOR", "false"),
        ("VISUAL", "false"),
        ("GIT_EDITOR", "false"),
        ("NO_COLOR", "1"),
        ("CI", "1"),
        ("LC_ALL", "C"),
    ] {
        assert_eq!(seen.get(variable), Some(&value), "{variable}: {plain}");
    }
    let localized = run("localized");
    localized.assert_code(0);
    assert!(
        localized.stdout.contains("LC_ALL=de_DE.UTF-8\n"),
        "{localized}"
    );
    assert!(localized.stdout.contains("PAGER=cat\n"), "{localized}");
}

/// Follows `meta.cursor` from `first` (the arguments of the first page)
/// until the listing ends, returning each page's items under `key`.
fn every_page(sandbox: &Sandbox, first: &[&str], key: &str) -> Vec<Vec<Value>> {
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args: Vec<&str> = first.to_vec();
        if let Some(cursor) = &cursor {
            args.extend(["--cursor", cursor.as_str()]);
        }
        let (run, envelope) = sandbox.json(&args);
        assert!(run.code == 0 || run.code == 1, "{run}");
        let meta = &envelope["meta"];
        let items = envelope["data"][key].as_array().expect("a listing").clone();
        assert_eq!(meta["returned_count"], items.len(), "{run}");
        assert_eq!(meta["pagination"]["returned"], items.len(), "{run}");
        assert_eq!(meta["truncated"], meta["pagination"]["has_more"], "{run}");
        pages.push(items);
        match meta["cursor"].as_str() {
            Some(next) => {
                assert_eq!(meta["truncated"], true, "{run}");
                assert_eq!(meta["pagination"]["next_cursor"], next, "{run}");
                cursor = Some(next.to_owned());
            }
            None => {
                assert_eq!(meta["truncated"], false, "{run}");
                assert_eq!(meta["pagination"]["next_cursor"], Value::Null, "{run}");
                return pages;
            }
        }
        assert!(pages.len() < 100, "the cursors never end");
    }
}

/// REQ-F-018, F-019, O-003: `schema list`, `audit show` and `skill
/// validate` give at most 20 items in json unless `--limit` says
/// otherwise, and their cursors walk the whole listing once.
#[test]
fn the_listings_page_by_default_and_their_cursors_walk_everything() {
    let sandbox = listing_sandbox();
    for (first, key, name) in LISTINGS {
        let pages = every_page(&sandbox, first, key);
        let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
        assert_eq!(sizes, [20, 5], "{first:?}");
        let names: Vec<&str> = pages
            .iter()
            .flatten()
            .map(|item| item[name].as_str().expect("a name"))
            .collect();
        assert_eq!(names, listed_names(key), "{first:?}");
        // --limit 0 lifts the limit; --limit N sets it.
        let all = every_page(&sandbox, &[first, &["--limit", "0"]].concat(), key);
        assert_eq!(
            all.iter().map(Vec::len).collect::<Vec<_>>(),
            [25],
            "{first:?}"
        );
        let small = every_page(&sandbox, &[first, &["--limit", "10"]].concat(), key);
        assert_eq!(
            small.iter().map(Vec::len).collect::<Vec<_>>(),
            [10, 10, 5],
            "{first:?}"
        );
    }
    // The validation still covers every skill.
    let (_, envelope) = sandbox.json(&["skill", "validate", "--recursive", "skills"]);
    assert_eq!(envelope["data"]["summary"]["checked"], 25);
    assert_eq!(envelope["meta"]["total_count"], 25);
}

/// Three listings of 25 items each (arguments, the key of the items in
/// `data`, the field that names an item), in [`listing_sandbox`].
const LISTINGS: [(&[&str], &str, &str); 3] = [
    (
        &["--commands", "commands", "schema", "list"],
        "commands",
        "name",
    ),
    (&["audit", "show"], "records", "command"),
    (
        &["skill", "validate", "--recursive", "skills"],
        "skills",
        "name",
    ),
];

/// The names of the 25 items of the listing whose items are under `key`.
fn listed_names(key: &str) -> Vec<String> {
    (0..25)
        .map(|index| format!("{}{index:02}", if key == "skills" { "s" } else { "c" }))
        .collect()
}

/// A sandbox with 25 declarations (c00..c24, and no catalog), 25 skills
/// (s00..s24) and an audit log of 25 rejections, one of each command.
fn listing_sandbox() -> Sandbox {
    // Only the registry written here: no catalog, no user layer.
    let sandbox = Sandbox::bare();
    sandbox.write("commands/aigent.toml", "[hook]\ncatalog = false\n");
    for index in 0..25 {
        sandbox.write(
            format!("commands/c{index:02}.yaml"),
            format!("name: c{index:02}\ndescription: Command {index}\ndanger_level: safe\nparameters: {{}}\n"),
        );
        sandbox.write(
            format!("skills/s{index:02}/SKILL.md"),
            format!("---\nname: s{index:02}\ndescription: Skill {index}. Use when testing.\n---\nBody.\n"),
        );
    }
    // One rejection of each command in the audit log.
    for index in 0..25 {
        let name = format!("c{index:02}");
        sandbox
            .run(&[
                "--commands",
                "commands",
                "args",
                "check",
                &name,
                "--bogus",
                "x",
            ])
            .assert_code(2);
    }
    sandbox
}

/// Runs `args` with `--output FORMAT` (after them: every listing takes it
/// on its own command).
fn in_format(sandbox: &Sandbox, format: &str, args: &[&str]) -> Run {
    Run::of(sandbox.cmd().args(args).args(["--output", format]))
}

/// REQ-O-001, REQ-O-004: in jsonl a listing is one item a line, each the
/// item json gives, then a `_summary` line with the envelope's `meta`
/// (its pagination) at the top level, whose cursor continues it; 20 items
/// a page by default, as in json.
#[test]
fn jsonl_writes_a_listing_one_item_a_line_then_its_summary() {
    let sandbox = listing_sandbox();
    for (first, key, name) in LISTINGS {
        let mut names = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let mut args = first.to_vec();
            if let Some(cursor) = &cursor {
                args.extend(["--cursor", cursor.as_str()]);
            }
            let run = in_format(&sandbox, "jsonl", &args);
            assert!(run.code == 0 || run.code == 1, "{run}");
            let lines: Vec<Value> = run
                .stdout
                .lines()
                .map(|line| {
                    serde_json::from_str(line).unwrap_or_else(|err| panic!("{err}: {line}\n{run}"))
                })
                .collect();
            let (summary, items) = lines.split_last().expect("a summary line");
            assert_eq!(summary["_summary"], true, "{run}");
            assert_eq!(summary["ok"], run.code == 0, "{run}");
            assert!(summary["command"].is_string(), "{run}");
            assert_eq!(summary["returned_count"], items.len(), "{run}");
            assert!(summary["data"].get(key).is_none(), "{run}");
            // Each line is the item json gives at that place.
            let (_, envelope) = sandbox.json(&args);
            assert_eq!(
                envelope["data"][key].as_array().unwrap(),
                items,
                "{first:?}"
            );
            for item in items {
                assert!(item.get("_summary").is_none(), "{run}");
                names.push(item[name].as_str().expect("a name").to_owned());
            }
            pages += 1;
            match summary["cursor"].as_str() {
                Some(next) => {
                    assert_eq!(summary["truncated"], true, "{run}");
                    assert_eq!(items.len(), 20, "{run}");
                    cursor = Some(next.to_owned());
                }
                None => break,
            }
            assert!(pages < 10, "the cursors never end");
        }
        assert_eq!(pages, 2, "{first:?}");
        assert_eq!(names, listed_names(key), "{first:?}");
    }
}

/// REQ-O-001: tsv is a header line and one row a listed item, every row
/// as many cells as the header; plain the same rows without the header,
/// cells apart by a space. Both list everything unless --limit says
/// otherwise, as text does, and say on stderr where a page ended, so
/// that --cursor walks the listing in these formats too.
#[test]
fn tsv_and_plain_write_a_listing_one_row_an_item() {
    let sandbox = listing_sandbox();
    for (first, key, _) in LISTINGS {
        let run = in_format(&sandbox, "tsv", first);
        assert!(run.code == 0 || run.code == 1, "{run}");
        assert!(!run.stdout.contains('\u{1b}'), "{run}");
        let mut lines = run.stdout.lines();
        let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
        assert!(header.len() > 1, "{run}");
        let rows: Vec<Vec<&str>> = lines.map(|line| line.split('\t').collect()).collect();
        assert_eq!(rows.len(), 25, "{first:?}: {run}");
        for row in &rows {
            assert_eq!(row.len(), header.len(), "{run}");
        }
        // The item's name is in a column of its row.
        for (row, name) in rows.iter().zip(listed_names(key)) {
            assert!(
                row.iter().any(|cell| cell.contains(name.as_str())),
                "{name}: {row:?}"
            );
        }
        let plain = in_format(&sandbox, "plain", first);
        assert_eq!(plain.code, run.code, "{plain}");
        let plain_lines: Vec<&str> = plain.stdout.lines().collect();
        assert_eq!(plain_lines.len(), 25, "{plain}");
        assert!(!plain.stdout.contains('\t'), "{plain}");
        assert!(!plain.stdout.contains('\u{1b}'), "{plain}");
        // --limit pages them; the cursor on stderr continues.
        let mut seen = Vec::new();
        let mut args: Vec<String> = first.iter().map(|word| (*word).to_owned()).collect();
        args.extend(["--limit".to_owned(), "10".to_owned()]);
        for round in 0.. {
            assert!(round < 5, "the cursors never end");
            let words: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = in_format(&sandbox, "tsv", &words);
            let rows: Vec<String> = run.stdout.lines().skip(1).map(str::to_owned).collect();
            seen.extend(rows);
            let Some(next) = run
                .stderr
                .split_whitespace()
                .skip_while(|word| *word != "--cursor")
                .nth(1)
            else {
                break;
            };
            args.retain(|word| word != "--cursor" && !word.starts_with("v1."));
            args.extend(["--cursor".to_owned(), next.trim_end_matches(',').to_owned()]);
        }
        let whole: Vec<String> = run.stdout.lines().skip(1).map(str::to_owned).collect();
        if key != "records" {
            assert_eq!(seen, whole, "{first:?}");
        } else {
            // Each record's own durations differ run to run: compare the rows' counts.
            assert_eq!(seen.len(), whole.len(), "{first:?}");
        }
    }
    // --watch has no tsv or plain form: refused, not printed as json.
    for format in ["tsv", "plain"] {
        let run = in_format(
            &sandbox,
            format,
            &["skill", "validate", "--watch", "skills"],
        );
        run.assert_code(2);
        assert!(run.stdout.is_empty(), "{run}");
        assert!(run.stderr.contains("--watch prints"), "{run}");
    }
}

/// A value holding tabs, line breaks and an ANSI escape stays in its
/// cell: escaped, never raw.
#[test]
fn a_tsv_cell_never_breaks_its_row() {
    let sandbox = Sandbox::bare();
    sandbox.write("commands/aigent.toml", "[hook]\ncatalog = false\n");
    sandbox.write(
        "commands/odd.json",
        r#"{"name": "odd", "description": "tab\there\nnew line \u001b[31mred\\", "danger_level": "safe", "parameters": {}}"#,
    );
    let run = in_format(
        &sandbox,
        "tsv",
        &["--commands", "commands", "schema", "list"],
    );
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{run}");
    let header: Vec<&str> = lines[0].split('\t').collect();
    let row: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(row.len(), header.len(), "{run}");
    assert!(!run.stdout.contains('\u{1b}'), "{run}");
    let column = header
        .iter()
        .position(|name| *name == "description")
        .unwrap();
    assert_eq!(row[column], r"tab\there\nnew line \u{1b}[31mred\\", "{run}");
}

/// A command that lists nothing: jsonl is its envelope on one line, plain
/// its text without colour, and tsv is refused as a usage error that
/// names the commands that speak it (exit 2, phase validation in json).
#[test]
fn a_command_that_lists_nothing_has_jsonl_and_plain_and_refuses_tsv() {
    let sandbox = Sandbox::new();
    let check = [
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "prod-1",
        "--version",
        "1.2.3",
    ];
    let words = |format: &str| -> Vec<String> {
        ["--output", format]
            .iter()
            .chain(check.iter())
            .map(|word| (*word).to_owned())
            .collect()
    };
    let run = Run::of(sandbox.cmd().args(words("jsonl")));
    run.assert_code(0);
    assert_eq!(run.stdout.lines().count(), 1, "{run}");
    let envelope: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_valid_envelope(&envelope, &run.to_string());
    assert_eq!(envelope["data"]["arguments"]["version"], "1.2.3", "{run}");
    let run = Run::of(
        sandbox
            .cmd()
            .env("CLICOLOR_FORCE", "1")
            .args(words("plain")),
    );
    run.assert_code(0);
    assert!(run.stdout.contains("deploy"), "{run}");
    assert!(!run.stdout.contains('\u{1b}'), "{run}");
    assert!(serde_json::from_str::<Value>(&run.stdout).is_err(), "{run}");
    let run = Run::of(sandbox.cmd().args(words("tsv")));
    run.assert_code(2);
    assert!(run.stdout.is_empty(), "{run}");
    assert!(
        run.stderr.contains("--output tsv is not supported"),
        "{run}"
    );
    assert!(run.stderr.contains("aigent schema list"), "{run}");
    // `run` keeps stdout for the child: its one-line envelope goes to
    // stderr, and to stdout with --capture.
    let dry_run = [
        "--dry-run",
        "deploy",
        "--cluster-id",
        "prod-1",
        "--version",
        "1.2.3",
    ];
    let run = sandbox.run(&[&["run", "--output", "jsonl"][..], &dry_run].concat());
    run.assert_code(0);
    assert!(run.stdout.is_empty(), "{run}");
    assert_eq!(run.stderr.lines().count(), 1, "{run}");
    assert_valid_envelope(
        &serde_json::from_str(&run.stderr).unwrap(),
        &run.to_string(),
    );
    let run = sandbox.run(&[&["run", "--output", "jsonl", "--capture"][..], &dry_run].concat());
    run.assert_code(0);
    assert_eq!(run.stdout.lines().count(), 1, "{run}");
    assert_eq!(
        serde_json::from_str::<Value>(&run.stdout).unwrap()["data"]["dry_run"],
        true,
        "{run}"
    );
    // The manifest cannot be rows either; in jsonl it is one line.
    sandbox.run(&["--schema", "--output", "tsv"]).assert_code(2);
    let run = sandbox.run(&["--schema", "--output", "jsonl"]);
    run.assert_code(0);
    assert_eq!(run.stdout.lines().count(), 1, "{run}");
    // A usage error in jsonl: the envelope on one line.
    let run = sandbox.run(&["schema", "list", "--output", "jsonl", "--bogus"]);
    run.assert_code(2);
    assert_eq!(run.stdout.lines().count(), 1, "{run}");
    let envelope: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(envelope["error"]["phase"], "validation", "{run}");
}

/// REQ-F-052: the response cap (AIGENT_MAX_OUTPUT_BYTES, else the spec's
/// TOOL_MAX_OUTPUT_BYTES) cuts a page before the item that would pass it,
/// and says so; an invalid or foreign cursor is a usage error.
#[test]
fn the_response_cap_cuts_a_page_and_cursors_are_checked() {
    // Only the registry written here: no catalog, no user layer.
    let sandbox = Sandbox::bare();
    sandbox.write("commands/aigent.toml", "[hook]\ncatalog = false\n");
    let long = "x".repeat(900);
    for index in 0..12 {
        sandbox.write(
            format!("commands/c{index:02}.yaml"),
            format!(
                "name: c{index:02}\ndescription: {long}\ndanger_level: safe\nparameters: {{}}\n"
            ),
        );
    }
    let capped = |extra: &[&str]| {
        let run = Run::of(
            sandbox
                .cmd()
                .env("TOOL_MAX_OUTPUT_BYTES", "6000")
                .args([
                    "--output",
                    "json",
                    "--commands",
                    "commands",
                    "schema",
                    "list",
                ])
                .args(extra),
        );
        let envelope = run.envelope();
        (run, envelope)
    };
    let (run, envelope) = capped(&[]);
    run.assert_code(0);
    assert!(run.stdout.len() <= 6000, "{} bytes", run.stdout.len());
    let returned = envelope["data"]["commands"].as_array().unwrap().len();
    assert!((1..12).contains(&returned), "{run}");
    assert_eq!(envelope["meta"]["truncated"], true);
    assert!(
        envelope["meta"]["truncation_hint"]
            .as_str()
            .is_some_and(|hint| hint.contains("size cap") && hint.contains("--cursor v1.")),
        "{run}"
    );
    let (run, next) = capped(&["--cursor", envelope["meta"]["cursor"].as_str().unwrap()]);
    run.assert_code(0);
    assert_eq!(
        next["data"]["commands"][0]["name"],
        format!("c{returned:02}"),
        "{run}"
    );

    for cursor in ["garbage", "v1.3.00000000"] {
        let (run, envelope) = sandbox.json(&[
            "--commands",
            "commands",
            "schema",
            "list",
            "--cursor",
            cursor,
        ]);
        run.assert_code(2);
        assert_eq!(envelope["error"]["code"], "ARG_ERROR", "{run}");
        assert_eq!(envelope["error"]["field"], "--cursor", "{run}");
        assert_eq!(envelope["error"]["phase"], "validation", "{run}");
    }
}

/// REQ-F-004, F-006, F-035, F-007, F-052: `run --capture` puts the
/// child's output in the envelope, which goes to stdout, bounded, with
/// terminal codes removed and marked untrusted; without it stdout is the
/// child's and the envelope goes to stderr.
#[cfg(unix)]
#[test]
fn run_capture_puts_the_childs_output_in_the_envelope_on_stdout() {
    let sandbox = Sandbox::new();
    let script = sandbox.script(
        "bin/talk",
        "#!/bin/sh\nprintf '\\033[31mred\\033[0m out\\n'\nprintf 'to err\\n' >&2\nif [ \"$1\" = big ]; then head -c 20000 /dev/zero | tr '\\0' x; fi\nexit 0\n",
    );
    sandbox.write(
        "commands/talk.yaml",
        format!(
            "name: talk\ndescription: Write to both streams\ndanger_level: safe\nparameters:\n  size: {{type: enum, enum_values: [small, big]}}\nsubprocess: {{binary: '{}', argv: [{{param: size}}]}}\n",
            script.display()
        ),
    );
    let captured = Run::of(sandbox.cmd().args([
        "--commands",
        "commands",
        "--output",
        "json",
        "run",
        "--capture",
        "talk",
    ]));
    let envelope = captured.envelope();
    captured.assert_code(0);
    let data = &envelope["data"];
    assert_eq!(data["stdout"], "red out\n", "{captured}");
    assert_eq!(data["stderr"], "to err\n", "{captured}");
    assert_eq!(data["_trusted"], false);
    assert_eq!(data["_source"], "external");
    assert_eq!(data["stdout_truncated"], false);
    assert_eq!(envelope["meta"]["truncated"], false);
    assert!(
        captured.stderr.is_empty() || !captured.stderr.contains("to err"),
        "{captured}"
    );

    // Bounded: a quarter of the response cap for each stream.
    let big = Run::of(sandbox.cmd().env("AIGENT_MAX_OUTPUT_BYTES", "16384").args([
        "--commands",
        "commands",
        "--output",
        "json",
        "run",
        "--capture",
        "talk",
        "--size",
        "big",
    ]));
    let envelope = big.envelope();
    big.assert_code(0);
    assert_eq!(envelope["data"]["stdout_truncated"], true, "{big}");
    // The cut is made on the bytes read, 4096; the terminal codes in them
    // (9 bytes) are removed after it.
    let kept = envelope["data"]["stdout"].as_str().unwrap();
    assert_eq!(kept.len(), 4096 - 9, "{big}");
    assert!(
        kept.starts_with("red out\nxxx") && kept.ends_with("xxx"),
        "{big}"
    );
    assert_eq!(envelope["meta"]["truncated"], true);

    // Without --capture, stdout is the child's own.
    let inherited =
        Run::of(
            sandbox
                .cmd()
                .args(["--commands", "commands", "--output", "json", "run", "talk"]),
        );
    inherited.assert_code(0);
    assert!(inherited.stdout.contains("red"), "{inherited}");
    let envelope: Value = serde_json::from_str(inherited.stderr.trim_start_matches("to err\n"))
        .unwrap_or_else(|err| panic!("{err}: {inherited}"));
    assert_valid_envelope(&envelope, &inherited.to_string());
    assert!(envelope["data"].get("stdout").is_none());

    // The manifest says what run's stdout holds in each mode.
    let (_, manifest) = sandbox.json(&["run", "--schema"]);
    let run = &manifest["data"]["commands"]["run"];
    assert!(
        run["description"].as_str().unwrap().contains("--capture"),
        "{run}"
    );
    assert!(
        run["flags"]["capture"]["description"]
            .as_str()
            .unwrap()
            .contains("stdout"),
        "{run}"
    );
}

/// REQ-F-001: the exit codes in the manifest that the spec reserves (0 to
/// 13) carry its names for them (tests/fixtures/agent-spec/exit-code.json),
/// and no command declares a code in the range the spec forbids except
/// the 128 + signal statuses REQ-F-013 and REQ-F-069 ask for.
/// REQ-F-053 and REQ-O-038: with `--heartbeat-ms`, a command that runs
/// silently (its output captured) sends a heartbeat line on stdout every
/// interval, each `{"status": "running", "heartbeat": true, "elapsed_ms":
/// N}`, then the envelope. Without it stdout holds the envelope alone.
#[test]
fn a_long_silent_run_sends_heartbeats_before_its_envelope() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/nap.yaml",
        "name: nap\ndescription: Sleep a while\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: sleep, argv: ['2.5']}\n",
    );
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--commands",
            "commands",
            "--output",
            "json",
            "run",
            "--capture",
        ];
        args.extend_from_slice(extra);
        args.push("nap");
        Run::of(sandbox.cmd().args(&args))
    };
    let beating = run(&["--heartbeat-ms", "1000"]);
    beating.assert_code(0);
    let lines: Vec<&str> = beating.stdout.lines().collect();
    let beats: Vec<Value> = lines
        .iter()
        .map_while(|line| {
            serde_json::from_str::<Value>(line)
                .ok()
                .filter(|value| value["heartbeat"] == true)
        })
        .collect();
    assert!(beats.len() >= 2, "{beating}");
    for (index, beat) in beats.iter().enumerate() {
        assert_eq!(beat["status"], "running", "{beat}");
        assert_eq!(beat.as_object().unwrap().len(), 3, "{beat}");
        let elapsed = beat["elapsed_ms"].as_u64().unwrap();
        assert!(elapsed >= 1000 * (index as u64 + 1), "{beat}");
    }
    let rest = lines[beats.len()..].join("\n");
    let envelope: Value =
        serde_json::from_str(&rest).unwrap_or_else(|err| panic!("{err}: {beating}"));
    assert_valid_envelope(&envelope, &beating.to_string());
    assert_eq!(envelope["ok"], true);

    let quiet = run(&[]);
    quiet.assert_code(0);
    assert!(!quiet.stdout.contains("heartbeat"), "{quiet}");
    // Text output has no place for JSON lines; nor is there a stdout to
    // beat on without --capture.
    let text = Run::of(sandbox.cmd().args([
        "--commands",
        "commands",
        "--output",
        "text",
        "run",
        "--capture",
        "--heartbeat-ms",
        "1000",
        "nap",
    ]));
    text.assert_code(2);
    let uncaptured = Run::of(sandbox.cmd().args([
        "--commands",
        "commands",
        "--output",
        "json",
        "run",
        "--heartbeat-ms",
        "1000",
        "nap",
    ]));
    uncaptured.assert_code(2);
}

#[test]
fn exit_codes_carry_the_specs_names() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agent-spec/exit-code.json");
    let table: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let names: Vec<&str> = table["x-enum-varnames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    let sandbox = Sandbox::new();
    let (_, envelope) = sandbox.json(&["--schema"]);
    let mut seen = 0;
    for (path, entry) in envelope["data"]["commands"].as_object().unwrap() {
        for (code, exit) in entry["exit_codes"].as_object().unwrap() {
            let code: usize = code.parse().unwrap();
            if code < names.len() {
                assert_eq!(exit["name"], names[code], "{path} exit {code}");
                seen += 1;
            } else {
                assert!(
                    [129, 130, 131, 143].contains(&code),
                    "{path} declares exit {code}"
                );
            }
        }
    }
    assert!(seen > 50, "{seen}");
}

/// REQ-F-005, REQ-F-056: json output does not change with the locale or
/// the terminal's width.
#[test]
fn json_output_is_the_same_in_any_locale_and_width() {
    let sandbox = Sandbox::new();
    let data = |envs: &[(&str, &str)]| {
        let mut cmd = sandbox.cmd();
        for (name, value) in envs {
            cmd.env(name, value);
        }
        let run = Run::of(cmd.args(["--output", "json", "schema", "show", "deploy"]));
        run.assert_code(0);
        run.envelope()["data"].clone()
    };
    let plain = data(&[]);
    let german = data(&[
        ("LANG", "de_DE.UTF-8"),
        ("LC_ALL", "de_DE.UTF-8"),
        ("COLUMNS", "20"),
    ]);
    assert_eq!(plain, german);
}

/// REQ-F-007: no escape byte ever reaches json output, even when the
/// value a caller sent held one (it is quoted as `\u001b`).
#[test]
fn json_output_holds_no_escape_byte() {
    let sandbox = Sandbox::new();
    let run = Run::of(sandbox.cmd().args([
        "--output",
        "json",
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "\u{1b}[31mprod\u{1b}[0m",
        "--version",
        "1.2.3",
    ]));
    run.assert_code(2);
    assert!(!run.stdout.contains('\u{1b}'), "{run}");
    run.envelope();
}

/// REQ-F-009, REQ-C-005: a command that would ask, with no one to answer
/// (no terminal, or --non-interactive), exits 4 at once with
/// INPUT_REQUIRED and a suggestion, never waiting on stdin.
#[test]
fn a_question_no_one_can_answer_exits_4() {
    let sandbox = Sandbox::new();
    for extra in [&[][..], &["--non-interactive"]] {
        let mut args = vec![
            "skill",
            "new",
            "my-skill",
            "--description",
            "Does it. Use when asked.",
        ];
        args.extend_from_slice(extra);
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(4);
        assert_eq!(envelope["error"]["code"], "INPUT_REQUIRED", "{run}");
        assert!(envelope["error"]["suggestion"].is_string(), "{run}");
        assert!(envelope["error"]["fix_required"].is_string(), "{run}");
        assert!(!sandbox.join("my-skill").exists());
    }
}

/// REQ-F-013, REQ-F-069: SIGINT and SIGTERM cancel a command that is
/// still working, which answers CANCELLED and exits 130 or 143.
#[cfg(unix)]
#[test]
fn a_signal_cancels_a_command_with_an_answer() {
    use std::process::Stdio;
    let sandbox = Sandbox::new();
    for (signal, name, code) in [
        (libc::SIGTERM, "SIGTERM", 143),
        (libc::SIGINT, "SIGINT", 130),
    ] {
        // `schema import -` waits for its spec on stdin, which stays open.
        let child = sandbox
            .std_cmd()
            .args([
                "--output",
                "json",
                "schema",
                "import",
                "--from",
                "usage",
                "--dry-run",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(800));
        let pid = i32::try_from(child.id()).unwrap();
        // SAFETY: kill(2) with a pid this test spawned and a valid signal.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let output = child.wait_with_output().unwrap();
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        assert_eq!(run.code, code, "{run}");
        let envelope: Value =
            serde_json::from_str(&run.stdout).unwrap_or_else(|err| panic!("{err}: {run}"));
        assert_valid_envelope(&envelope, &run.to_string());
        assert_eq!(envelope["ok"], false);
        assert_eq!(envelope["error"]["code"], "CANCELLED", "{run}");
        assert_eq!(envelope["error"]["signal"], name, "{run}");
    }
}

/// `aigent ARGS` with `env`, its stdin the pipe of a `sleep` that never
/// writes and never closes it: what it answers, and how long it took.
#[cfg(unix)]
fn with_silent_stdin(
    sandbox: &Sandbox,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Run, Value, std::time::Duration) {
    use std::process::{Command, Stdio};
    let mut writer = Command::new("sleep")
        .arg("60")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let silent = writer.stdout.take().unwrap();
    let mut cmd = sandbox.std_cmd();
    cmd.args(args)
        .stdin(Stdio::from(silent))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        cmd.env(name, value);
    }
    let started = std::time::Instant::now();
    let output = cmd.output().unwrap();
    let took = started.elapsed();
    let _ = writer.kill();
    let _ = writer.wait();
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    let envelope = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    (run, envelope, took)
}

/// REQ-F-011, REQ-F-012: `schema import -` waits for its spec on stdin
/// for 30 s (AIGENT_STDIN_TIMEOUT), then answers TIMEOUT (exit 10),
/// retryable since nothing was imported or written; the envelope says the
/// command's own limit in `meta.timeout_ms`.
#[cfg(unix)]
#[test]
fn a_stdin_that_never_finishes_times_out_with_an_answer() {
    let sandbox = Sandbox::new();
    let import = [
        "--output",
        "json",
        "schema",
        "import",
        "--from",
        "usage",
        "--dry-run",
        "-",
    ];
    let (run, envelope, took) =
        with_silent_stdin(&sandbox, &import, &[("AIGENT_STDIN_TIMEOUT", "1")]);
    assert_eq!(run.code, 10, "{run}");
    assert_valid_envelope(&envelope, &run.to_string());
    let error = &envelope["error"];
    assert_eq!(error["code"], "TIMEOUT", "{run}");
    assert_eq!(error["retryable"], true, "{run}");
    assert_eq!(error["phase"], "validation", "{run}");
    assert_eq!(error["timeout_ms"], 1000, "{run}");
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap_or("")
            .contains("file path"),
        "{run}"
    );
    assert_eq!(envelope["meta"]["timeout_ms"], 600_000, "{run}");
    assert!(
        took >= std::time::Duration::from_secs(1) && took < std::time::Duration::from_secs(10),
        "{took:?}"
    );
    // A deadline that is not a number is refused, not ignored.
    let (run, envelope, _) =
        with_silent_stdin(&sandbox, &import, &[("AIGENT_STDIN_TIMEOUT", "soon")]);
    assert_eq!(run.code, 2, "{run}");
    assert_eq!(envelope["error"]["code"], "ARG_ERROR", "{run}");
}

/// REQ-F-011, REQ-F-012, REQ-C-001: every command that runs to an end on
/// its own is stopped at AIGENT_TIMEOUT (600 s) whatever it is blocked
/// on, answers TIMEOUT with exit 10, says its limit in `meta.timeout_ms`,
/// and declares 10 in its manifest entry (retryable only when `safe`).
#[cfg(unix)]
#[test]
fn aigent_stops_its_own_command_at_its_limit_with_an_answer() {
    let sandbox = Sandbox::new();
    // No stdin deadline: the import blocks on its read until the limit.
    let (run, envelope, took) = with_silent_stdin(
        &sandbox,
        &[
            "--output",
            "json",
            "schema",
            "import",
            "--from",
            "usage",
            "--dry-run",
            "-",
        ],
        &[("AIGENT_STDIN_TIMEOUT", "0"), ("AIGENT_TIMEOUT", "1")],
    );
    assert_eq!(run.code, 10, "{run}");
    assert_valid_envelope(&envelope, &run.to_string());
    let error = &envelope["error"];
    assert_eq!(error["code"], "TIMEOUT", "{run}");
    assert_eq!(error["phase"], "execution", "{run}");
    // `schema import` is mutating: stopped, it may have written part.
    assert_eq!(error["retryable"], false, "{run}");
    assert_eq!(error["partial"], true, "{run}");
    assert_eq!(envelope["meta"]["timeout_ms"], 1000, "{run}");
    assert!(
        envelope["meta"]["duration_ms"].as_u64().unwrap_or(0) >= 1000,
        "{run}"
    );
    assert!(
        took >= std::time::Duration::from_secs(1) && took < std::time::Duration::from_secs(10),
        "{took:?}"
    );
    // In text mode the answer is prose on stderr, and still exit 10.
    let (run, _, _) = with_silent_stdin(
        &sandbox,
        &[
            "--output",
            "text",
            "schema",
            "import",
            "--from",
            "usage",
            "--dry-run",
            "-",
        ],
        &[("AIGENT_STDIN_TIMEOUT", "0"), ("AIGENT_TIMEOUT", "1")],
    );
    assert_eq!(run.code, 10, "{run}");
    assert!(run.stderr.contains("AIGENT_TIMEOUT"), "{run}");
    // Every answer of a covered command carries its limit.
    let listed = sandbox.run(&["--output", "json", "schema", "list"]);
    listed.assert_code(0);
    let listed: Value = serde_json::from_str(&listed.stdout).unwrap();
    assert_eq!(listed["meta"]["timeout_ms"], 600_000);
    // 0 is no limit, and then no `timeout_ms` is claimed.
    let unlimited = Run::of(
        sandbox
            .cmd()
            .env("AIGENT_TIMEOUT", "0")
            .args(["--output", "json", "schema", "list"]),
    );
    let unlimited: Value = serde_json::from_str(&unlimited.stdout).unwrap();
    assert!(unlimited["meta"].get("timeout_ms").is_none(), "{unlimited}");
    let bad = Run::of(
        sandbox
            .cmd()
            .env("AIGENT_TIMEOUT", "later")
            .args(["--output", "json", "schema", "list"]),
    );
    bad.assert_code(2);
    // The manifest: each covered command declares 10.
    let manifest: Value = serde_json::from_str(&sandbox.run(&["--schema"]).stdout).unwrap();
    let commands = manifest["data"]["commands"].as_object().unwrap();
    for (path, entry) in commands {
        if entry.get("subcommands").is_some() {
            continue;
        }
        let declared = &entry["exit_codes"]["10"];
        if ["run"].contains(&path.as_str()) {
            assert!(declared.is_object(), "{path}: run's own timeout");
            continue;
        }
        if ["mcp.serve", "lsp", "skill.new"].contains(&path.as_str()) {
            assert!(declared.is_null(), "{path} runs until stopped: {declared}");
            continue;
        }
        assert_eq!(declared["name"], "TIMEOUT", "{path}");
        let safe = entry["danger_level"] == "safe";
        if path != "schema.import" {
            assert_eq!(declared["retryable"], safe, "{path}");
        }
    }
}

/// The leaf commands of the manifest, as their words.
fn leaf_commands(sandbox: &Sandbox) -> Vec<Vec<String>> {
    let manifest: Value = serde_json::from_str(&sandbox.run(&["--schema"]).stdout).unwrap();
    manifest["data"]["commands"]
        .as_object()
        .unwrap()
        .keys()
        .map(|path| path.split('.').map(str::to_owned).collect())
        .collect()
}

/// REQ-O-001: `--output FORMAT` is one global flag: it selects the format
/// wherever it sits on the line, after any subcommand (`schema import` and
/// `schema export` included), before it, or on a group, and it wins over
/// AIGENT_OUTPUT.
#[test]
fn the_output_flag_selects_the_format_on_every_command() {
    let sandbox = Sandbox::new();
    let with_env = |args: &[&str]| Run::of(sandbox.cmd().env("AIGENT_OUTPUT", "text").args(args));
    let run = with_env(&["schema", "list", "--output", "json"]);
    run.assert_code(0);
    let envelope: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|err| panic!("{err}: {run}"));
    assert_valid_envelope(&envelope, &run.to_string());
    // Before the subcommand too, and on a group.
    for args in [
        &["--output", "json", "schema", "list"][..],
        &["schema", "--output", "json", "list"][..],
        &["schema", "list", "--output=json"][..],
    ] {
        let run = with_env(args);
        assert!(
            serde_json::from_str::<Value>(&run.stdout).is_ok(),
            "{args:?}: {run}"
        );
    }
    let run = Run::of(sandbox.cmd().args(["schema", "list", "--output", "text"]));
    run.assert_code(0);
    assert!(serde_json::from_str::<Value>(&run.stdout).is_err(), "{run}");
    sandbox
        .run(&["schema", "list", "--output", "yaml"])
        .assert_code(2);
    // After every leaf command: its help in jsonl is one envelope line on
    // stdout (the flag was read there), and a value no format has is
    // refused by that same flag.
    let leaves = leaf_commands(&sandbox);
    assert!(leaves.len() > 20, "{leaves:?}");
    for words in &leaves {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let help = with_env(&[&words[..], &["--output", "jsonl", "--help"]].concat());
        help.assert_code(0);
        assert_eq!(help.stdout.lines().count(), 1, "{words:?}: {help}");
        let envelope: Value = serde_json::from_str(&help.stdout)
            .unwrap_or_else(|err| panic!("{words:?}: {err}: {help}"));
        assert_eq!(envelope["meta"]["help"], true, "{words:?}: {help}");
        let bad = sandbox.run(&[&words[..], &["--output", "yaml"]].concat());
        bad.assert_code(2);
        assert!(
            bad.stderr
                .contains("invalid value 'yaml' for '--output <FORMAT>'"),
            "{words:?}: {bad}"
        );
    }
    // schema import and schema export run with the format after them.
    let spec = sandbox.write("tool.usage.kdl", "bin \"tool\"\ncmd \"go\" help=\"Go\"\n");
    let out = sandbox.join("imported");
    let run = with_env(&[
        "schema",
        "import",
        "--from",
        "usage",
        "--out-dir",
        out.to_str().unwrap(),
        spec.to_str().unwrap(),
        "--output",
        "json",
    ]);
    run.assert_code(0);
    let envelope: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|err| panic!("{err}: {run}"));
    assert!(
        envelope["data"]["written"]
            .as_array()
            .is_some_and(|written| !written.is_empty()),
        "{run}"
    );
    assert!(out.join("tool-go.json").is_file(), "{run}");
    let run = with_env(&[
        "schema",
        "export",
        "--to",
        "claude-permissions",
        "git-log",
        "--output",
        "json",
    ]);
    run.assert_code(0);
    let envelope: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|err| panic!("{err}: {run}"));
    assert_valid_envelope(&envelope, &run.to_string());
    // The manifest: every leaf's --output is an enum of the formats it
    // speaks (`output_formats`): json, jsonl and plain everywhere, tsv
    // where it lists items.
    let manifest: Value = serde_json::from_str(&sandbox.run(&["--schema"]).stdout).unwrap();
    let listings = [
        "skill.validate",
        "skill.contracts",
        "plugin.validate",
        "schema.list",
        "schema.lint",
        "audit.show",
        "hook.learn",
    ];
    for (path, entry) in manifest["data"]["commands"].as_object().unwrap() {
        let flag = &entry["flags"]["output"];
        assert_eq!(flag["type"], "enum", "{path}: {flag}");
        let values = flag["enum_values"].to_string();
        assert!(values.contains("\"json\""), "{path}: {values}");
        let Some(formats) = entry.get("output_formats") else {
            continue;
        };
        let formats: Vec<&str> = formats
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for format in ["json", "jsonl", "plain"] {
            assert!(formats.contains(&format), "{path}: {formats:?}");
        }
        assert_eq!(
            formats.contains(&"tsv"),
            listings.contains(&path.as_str()),
            "{path}: {formats:?}"
        );
        assert_eq!(flag["enum_values"], json!(formats), "{path}");
    }
}

/// REQ-O-001: `--format` no longer selects anything. Anywhere on the line
/// it is a usage error (exit 2, ARG_ERROR, phase validation) that names
/// `--output`, echoing the value only when it is a format, in json and in
/// text alike; `--schema` refuses it too.
#[test]
fn the_retired_format_flag_is_refused_naming_output() {
    let sandbox = Sandbox::new();
    for (args, instead) in [
        (&["--format", "json", "schema", "list"][..], "json"),
        (&["schema", "list", "--format", "jsonl"][..], "jsonl"),
        (&["schema", "--format=tsv", "list"][..], "tsv"),
        (&["--format", "json", "--schema"][..], "json"),
        (
            &["schema", "list", "--output", "json", "--format", "json"][..],
            "json",
        ),
        (
            &["schema", "list", "--format", "\u{1b}[2Jyaml"][..],
            "FORMAT",
        ),
        (&["schema", "list", "--format"][..], "FORMAT"),
    ] {
        let run = sandbox.run(args);
        run.assert_code(2);
        let envelope = run.envelope();
        assert_valid_envelope(&envelope, &run.to_string());
        let error = &envelope["error"];
        assert_eq!(error["code"], "ARG_ERROR", "{run}");
        assert_eq!(error["phase"], "validation", "{run}");
        assert_eq!(
            error["message"],
            format!("--format was renamed --output; give --output {instead}"),
            "{run}"
        );
        assert!(!run.stdout.contains("yaml"), "{run}");
        assert!(!run.stderr.contains("yaml"), "{run}");
    }
    // In text mode: stdout empty, the message on stderr.
    let run = sandbox.run(&["--output", "text", "schema", "list", "--format", "json"]);
    run.assert_code(2);
    assert!(run.stdout.is_empty(), "{run}");
    assert!(
        run.stderr
            .contains("--format was renamed --output; give --output json"),
        "{run}"
    );
}

/// AIGENT_FORMAT is no longer read: the run goes on in the default format
/// with one warning line on stderr naming AIGENT_OUTPUT, and none once
/// AIGENT_OUTPUT is set.
#[test]
fn a_retired_aigent_format_is_ignored_with_one_warning() {
    let sandbox = Sandbox::new();
    let run = Run::of(
        sandbox
            .cmd()
            .env("AIGENT_FORMAT", "text")
            .args(["schema", "list", "--limit", "1"]),
    );
    run.assert_code(0);
    assert_valid_envelope(&run.envelope(), &run.to_string());
    let warnings: Vec<&str> = run
        .stderr
        .lines()
        .filter(|line| line.contains("AIGENT_FORMAT"))
        .collect();
    assert_eq!(
        warnings,
        [
            "warning: AIGENT_FORMAT is no longer read; set AIGENT_OUTPUT instead (it gives --output its default)"
        ],
        "{run}"
    );
    let run = Run::of(
        sandbox
            .cmd()
            .env("AIGENT_FORMAT", "text")
            .env("AIGENT_OUTPUT", "json")
            .args(["schema", "list", "--limit", "1"]),
    );
    run.assert_code(0);
    assert!(!run.stderr.contains("AIGENT_FORMAT"), "{run}");
}

/// `schema import --out-dir DIR` and `schema export --out-file FILE`: the
/// paths `--output` named before it became the format. A path given to
/// `--output` there is clap's invalid value, with a tip naming the new
/// flag, and nothing is written.
#[test]
fn the_path_flags_of_schema_import_and_export_are_out_dir_and_out_file() {
    let sandbox = Sandbox::new();
    let target = sandbox.join("x.rules");
    let run = sandbox.run(&[
        "schema",
        "export",
        "--to",
        "codex-execpolicy",
        "--out-file",
        target.to_str().unwrap(),
        "git-log",
    ]);
    run.assert_code(0);
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("prefix_rule("),
        "{run}"
    );
    let spec = sandbox.write("tool.usage.kdl", "bin \"tool\"\ncmd \"go\" help=\"Go\"\n");
    let dir = sandbox.join("imported");
    let run = sandbox.run(&[
        "schema",
        "import",
        "--from",
        "usage",
        "--out-dir",
        dir.to_str().unwrap(),
        spec.to_str().unwrap(),
    ]);
    run.assert_code(0);
    assert!(dir.join("tool-go.json").is_file(), "{run}");

    let old_file = sandbox.join("old.rules");
    let old_dir = sandbox.join("old");
    for (args, tip) in [
        (
            vec![
                "schema",
                "export",
                "--to",
                "codex-execpolicy",
                "--output",
                old_file.to_str().unwrap(),
                "git-log",
            ],
            "`aigent schema export` takes its file as --out-file FILE; --output selects the output format",
        ),
        (
            vec![
                "schema",
                "import",
                "--from",
                "usage",
                "--output",
                old_dir.to_str().unwrap(),
                spec.to_str().unwrap(),
            ],
            "`aigent schema import` takes its directory as --out-dir DIR; --output selects the output format",
        ),
    ] {
        let run = sandbox.run(&args);
        run.assert_code(2);
        let envelope = run.envelope();
        assert_eq!(envelope["error"]["code"], "ARG_ERROR", "{run}");
        assert_eq!(envelope["error"]["phase"], "validation", "{run}");
        assert!(
            envelope["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("invalid value"),
            "{run}"
        );
        let hints = envelope["error"]["hints"].to_string();
        assert!(hints.contains(&format!("tip: {tip}")), "{run}");
        assert!(run.stderr.contains(&format!("tip: {tip}")), "{run}");
    }
    assert!(!old_file.exists());
    assert!(!old_dir.exists());
    // Elsewhere a bad --output value gets no such tip.
    let run = sandbox.run(&["schema", "list", "--output", "./x.rules"]);
    run.assert_code(2);
    assert!(!run.stderr.contains("tip:"), "{run}");
}

/// No `--format` is left to find: not in the manifest, not in any
/// command's help, not among the completions.
#[test]
fn no_format_flag_is_shown_anywhere() {
    let sandbox = Sandbox::new();
    let manifest = sandbox.run(&["--schema"]);
    manifest.assert_code(0);
    assert!(!manifest.stdout.contains("--format"), "{manifest}");
    let envelope: Value = serde_json::from_str(&manifest.stdout).unwrap();
    for (path, entry) in envelope["data"]["commands"].as_object().unwrap() {
        assert!(entry["flags"].get("format").is_none(), "{path}");
    }
    let mut lines: Vec<Vec<String>> = vec![Vec::new()];
    lines.extend(leaf_commands(&sandbox));
    for words in &lines {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let help = sandbox.run(&[&["--output", "text"][..], &words[..], &["--help"]].concat());
        help.assert_code(0);
        assert!(
            help.stdout.contains("--output <FORMAT>"),
            "{words:?}: {help}"
        );
        assert!(!help.stdout.contains("--format"), "{words:?}: {help}");
    }
    // What TAB offers after `--`, as the registration script asks it.
    for words in [
        &["aigent", "--"][..],
        &["aigent", "schema", "export", "--"][..],
    ] {
        let run = Run::of(
            sandbox
                .cmd()
                .env("COMPLETE", "bash")
                .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
                .env("_CLAP_IFS", "\n")
                .arg("--")
                .args(words),
        );
        run.assert_code(0);
        let offered: Vec<&str> = run.stdout.lines().collect();
        assert!(offered.contains(&"--output"), "{words:?}: {run}");
        assert!(!offered.contains(&"--format"), "{words:?}: {run}");
    }
}

/// REQ-O-042: AIGENT_OUTPUT is `--output`'s default: the flag wins over
/// it, the retired AIGENT_FORMAT does nothing beside it, a generic `OUTPUT` or `_OUTPUT` does
/// nothing, and a value `--output` would refuse fails as the flag does
/// (exit 2, ARG_ERROR, phase validation).
#[test]
fn aigent_output_is_the_default_of_output_and_fails_as_it_does() {
    let sandbox = Sandbox::new();
    let with = |variables: &[(&str, &str)], args: &[&str]| {
        let mut cmd = sandbox.cmd();
        for (name, value) in variables {
            cmd.env(name, value);
        }
        Run::of(cmd.args(args))
    };
    let list = ["schema", "list", "--limit", "3"];
    let run = with(&[("AIGENT_OUTPUT", "tsv")], &list);
    run.assert_code(0);
    assert_eq!(run.stdout.lines().count(), 4, "{run}");
    assert!(run.stdout.starts_with("name\t"), "{run}");
    let run = with(
        &[("AIGENT_OUTPUT", "tsv"), ("AIGENT_FORMAT", "json")],
        &list,
    );
    assert!(run.stdout.starts_with("name\t"), "{run}");
    let run = with(
        &[("AIGENT_OUTPUT", "tsv")],
        &[&list[..], &["--output", "jsonl"]].concat(),
    );
    assert_eq!(run.stdout.lines().count(), 4, "{run}");
    assert!(
        run.stdout.lines().all(|line| line.starts_with('{')),
        "{run}"
    );
    let run = with(&[("OUTPUT", "tsv"), ("_OUTPUT", "tsv")], &list);
    assert!(run.stdout.starts_with('{'), "{run}");
    let by_variable = with(&[("AIGENT_OUTPUT", "bogus")], &list);
    let by_flag = with(&[], &[&list[..], &["--output", "bogus"]].concat());
    for run in [&by_variable, &by_flag] {
        run.assert_code(2);
        let envelope = run.envelope();
        assert_eq!(envelope["error"]["code"], "ARG_ERROR", "{run}");
        assert_eq!(envelope["error"]["phase"], "validation", "{run}");
        assert_eq!(envelope["meta"]["command"], "schema.list", "{run}");
    }
    // A format the command does not speak fails as the flag would.
    let run = with(&[("AIGENT_OUTPUT", "tsv")], &["args", "check", "deploy"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("AIGENT_OUTPUT tsv is not supported"),
        "{run}"
    );
}

/// REQ-C-003, REQ-C-004: mutating commands say what they did, dry runs
/// what they would do.
#[test]
fn mutating_commands_say_their_effect() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "skill",
        "new",
        "my-skill",
        "--description",
        "Does it. Use when asked.",
        "--yes",
    ]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["effect"], "created", "{run}");
    let (run, envelope) = sandbox.json(&["skill", "fmt", "my-skill"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["effect"], "noop", "{run}");
    let (run, envelope) = sandbox.json(&["skill", "fix", "--dry-run", "my-skill"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["effect"], "noop", "{run}");
    let (run, envelope) = Run::of(sandbox.cmd().args([
        "--output",
        "json",
        "run",
        "--dry-run",
        "deploy",
        "--cluster-id",
        "prod-east-1",
        "--version",
        "1.2.3",
    ]))
    .stderr_envelope();
    run.assert_code(0);
    assert_eq!(envelope["data"]["effect"], "would_run", "{run}");
    assert_eq!(
        envelope["data"]["would_affect"]["command"], "deploy",
        "{run}"
    );
    // The hook entry in an agent client's settings.
    for (words, effect) in [
        (
            &["hook", "install", "--client", "claude-code", "--dry-run"][..],
            "would_create",
        ),
        (&["hook", "install", "--client", "claude-code"], "created"),
        (&["hook", "install", "--client", "claude-code"], "noop"),
        (
            &["hook", "uninstall", "--client", "claude-code", "--dry-run"],
            "would_delete",
        ),
        (&["hook", "uninstall", "--client", "claude-code"], "deleted"),
        (&["hook", "uninstall", "--client", "claude-code"], "noop"),
    ] {
        let (run, envelope) = sandbox.json(words);
        run.assert_code(0);
        assert_eq!(envelope["data"]["effect"], effect, "{words:?}: {run}");
        assert!(!run.stdout.contains("GLOBAL_CONFIG_MODIFIED"), "{run}");
    }
    // REQ-C-025: a change to the user's own settings, which must be asked
    // for, says so.
    for words in [
        &[
            "hook",
            "install",
            "--client",
            "claude-code",
            "--scope",
            "user",
        ][..],
        &[
            "hook",
            "uninstall",
            "--client",
            "claude-code",
            "--scope",
            "user",
        ],
    ] {
        let (run, envelope) = sandbox.json(words);
        run.assert_code(0);
        let warnings = envelope["warnings"].as_array().unwrap();
        assert!(
            warnings.iter().any(|warning| warning
                .as_str()
                .unwrap()
                .starts_with("GLOBAL_CONFIG_MODIFIED: wrote to ")),
            "{run}"
        );
    }
}

/// REQ-C-016, REQ-F-034: a sensitive value on aigent's command line is
/// refused (its value never echoed) unless --allow-secret-argv accepts it
/// with a warning; a parameter named like a secret but not sensitive is a
/// lint warning (W107).
#[test]
fn secrets_stay_off_the_command_line_and_secret_names_must_be_sensitive() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/login.yaml",
        "name: login\ndescription: Log in\ndanger_level: mutating\nparameters:\n  token: {type: string, sensitive: true}\nsubprocess: {binary: echo, env: {TOKEN: {param: token}}}\n",
    );
    sandbox.write(
        "commands/leaky.yaml",
        "name: leaky\ndescription: Leaks\ndanger_level: safe\nparameters:\n  api_key: {type: string, pattern: '^[a-z0-9]+$'}\nsubprocess: {binary: echo, env: {API_KEY: {param: api_key}}}\n",
    );
    for words in [
        &["--token", "hunter2secret"][..],
        &["--token=hunter2secret"],
        &["--json", r#"{"token": "hunter2secret"}"#],
    ] {
        let mut args = vec!["--commands", "commands", "args", "check", "login"];
        args.extend_from_slice(words);
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(2);
        assert_eq!(envelope["error"]["field"], "token", "{run}");
        assert_eq!(envelope["error"]["phase"], "validation", "{run}");
        assert!(
            !run.stdout.contains("hunter2") && !run.stderr.contains("hunter2"),
            "{run}"
        );
    }
    let (run, envelope) = sandbox.json(&[
        "--commands",
        "commands",
        "args",
        "check",
        "--allow-secret-argv",
        "login",
        "--token",
        "hunter2secret",
    ]);
    run.assert_code(0);
    assert!(
        envelope["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|warning| warning.as_str().unwrap().contains("--value-from-env")),
        "{run}"
    );
    let run = Run::of(sandbox.cmd().env("LOGIN_TOKEN", "hunter2secret").args([
        "--output",
        "json",
        "--commands",
        "commands",
        "args",
        "check",
        "--value-from-env",
        "token=LOGIN_TOKEN",
        "login",
    ]));
    run.assert_code(0);
    let (run, envelope) = sandbox.json(&["--commands", "commands", "schema", "lint"]);
    run.assert_code(0);
    assert!(run.stdout.contains("W107"), "{run}");
    let _ = envelope;
}

/// REQ-F-024's examples: every envelope names its command (the manifest's
/// key) and when it started.
#[test]
fn every_envelope_names_its_command_and_when_it_started() {
    let sandbox = Sandbox::new();
    let (_, envelope) = sandbox.json(&["schema", "list"]);
    assert_eq!(envelope["meta"]["command"], "schema.list");
    let (_, envelope) = sandbox.json(&["skill", "validate", "--frobnicate"]);
    assert_eq!(envelope["meta"]["command"], "skill.validate");
    let stamp = envelope["meta"]["timestamp"].as_str().unwrap();
    assert!(
        stamp.len() == 24 && stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
        "{stamp}"
    );
}

/// docs/reference/agent-spec.md: one row per requirement of the spec's
/// text (158), no P0 left unmet, the sums it states right, and each row
/// marked met naming a test that exists.
#[test]
fn the_table_names_a_test_for_every_met_row() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/reference/agent-spec.md")).unwrap();
    let mut ids = Vec::new();
    let mut p0 = std::collections::BTreeMap::<&str, usize>::new();
    for row in page.lines().filter(|line| line.starts_with("| REQ-")) {
        let cells: Vec<&str> = row.split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 6, "{row}");
        let (id, priority, status, test) = (
            cells[0].trim_start_matches("| "),
            cells[1],
            cells[3],
            cells[5].trim_end_matches(" |").trim_end_matches('|').trim(),
        );
        assert!(["met", "partly", "not", "n/a"].contains(&status), "{row}");
        if priority == "P0" {
            assert_ne!(status, "not", "an unmet P0: {row}");
            *p0.entry(status).or_default() += 1;
        }
        ids.push(id.to_owned());
        if status != "met" {
            continue;
        }
        assert!(test.contains("::"), "a met row names no test: {row}");
        assert!(
            test_exists(root, test),
            "{id} names `{test}`, which does not exist"
        );
    }
    let expected: Vec<String> = [("F", 78), ("C", 30), ("O", 50)]
        .iter()
        .flat_map(|(tier, count)| (1..=*count).map(move |n| format!("REQ-{tier}-{n:03}")))
        .collect();
    assert_eq!(ids, expected);
    let sum = format!(
        "Of the 51 P0 requirements, {} are met, {} partly met",
        p0.get("met").copied().unwrap_or(0),
        p0.get("partly").copied().unwrap_or(0)
    );
    assert!(page.contains(&sum), "the sum should read: {sum}");
    let not_applicable = format!("and {}\ndo not apply", p0.get("n/a").copied().unwrap_or(0));
    assert!(
        page.contains(&not_applicable),
        "should read: {not_applicable}"
    );
}

/// Whether `path` (`module::test` in tests/it, or `a::b::tests::test` under
/// src/) names a test function that exists.
fn test_exists(root: &std::path::Path, path: &str) -> bool {
    let parts: Vec<&str> = path.split("::").collect();
    let (name, modules) = parts.split_last().unwrap();
    let wanted = format!("fn {name}(");
    let integration = root.join("tests/it").join(format!("{}.rs", modules[0]));
    if integration.is_file() {
        return std::fs::read_to_string(integration)
            .unwrap()
            .contains(&wanted);
    }
    let modules: Vec<&str> = modules.iter().copied().filter(|m| *m != "tests").collect();
    let base = modules
        .iter()
        .fold(root.join("src"), |dir, module| dir.join(module));
    [base.with_extension("rs"), base.join("mod.rs")]
        .iter()
        .filter_map(|file| std::fs::read_to_string(file).ok())
        .any(|text| text.contains(&wanted))
}

/// REQ-F-041: aigent never changes its working directory.
#[test]
fn aigent_never_changes_its_working_directory() {
    fn scan(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                scan(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rs")
                // The sandboxed child, between clone and exec, enters its
                // own working directory again after its binds: that is the
                // child's, never aigent's.
                && !path.ends_with("exec/sandbox/child.rs")
            {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains(concat!("set_current", "_dir"))
                    || text.contains(concat!("fchdir", "("))
                {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    let mut found = Vec::new();
    scan(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    assert!(found.is_empty(), "{found:?}");
}

/// REQ-F-071: a declared command inherits no descriptor of aigent's (the
/// audit log, the registry) but stdin, stdout and stderr.
#[cfg(target_os = "linux")]
#[test]
fn a_child_inherits_no_descriptor_but_the_three_streams() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/fds.yaml",
        "name: fds\ndescription: List open descriptors\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: ls, argv: ['-1', /proc/self/fd]}\n",
    );
    let run = Run::of(sandbox.cmd().args([
        "--commands",
        "commands",
        "--output",
        "json",
        "run",
        "--sandbox",
        "off",
        "--capture",
        "fds",
    ]));
    let envelope = run.envelope();
    run.assert_code(0);
    let fds: Vec<&str> = envelope["data"]["stdout"]
        .as_str()
        .unwrap()
        .lines()
        .collect();
    // 3 is the directory `ls` itself opened to list.
    assert_eq!(fds, ["0", "1", "2", "3"], "{run}");
}

/// REQ-F-072, REQ-F-068, REQ-F-076: lines end in LF alone, and asking for
/// help or the version, or listing, creates nothing in a fresh home.
#[test]
fn output_lines_end_in_lf_and_help_creates_nothing() {
    let sandbox = Sandbox::new();
    for args in [
        &["--help"][..],
        &["--version"],
        &["schema", "list"],
        &["--output", "text", "schema", "list"],
        &["--output", "text", "run", "--help"],
        &["args", "check", "deploy", "--version", "x"],
    ] {
        let run = sandbox.run(args);
        assert!(
            !run.stdout.contains('\r') && !run.stderr.contains('\r'),
            "{args:?}: {run}"
        );
    }
    let created: Vec<_> = ["home", "state", "config", "cache"]
        .iter()
        .filter(|dir| sandbox.join(dir).exists())
        .collect();
    // Only the rejection's audit record made a directory: the state one.
    assert_eq!(created, [&"state"], "{created:?}");
}

/// REQ-C-015: each `output_schema` in the manifest describes the `data`
/// its command returns (checked on a real run of each); every command
/// that has one needs an invocation here.
#[test]
fn output_schemas_describe_the_data() {
    let sandbox = Sandbox::new();
    let (_, manifest) = sandbox.json(&["--schema"]);
    let invocation = |path: &str| -> Vec<&str> {
        match path {
            "schema.list" => vec!["schema", "list"],
            other => panic!("`{other}` has an output_schema: give it an invocation in this test"),
        }
    };
    let mut checked = 0;
    for (path, entry) in manifest["data"]["commands"].as_object().unwrap() {
        let Some(schema) = entry.get("output_schema") else {
            continue;
        };
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft7)
            .build(schema)
            .unwrap_or_else(|err| panic!("{path}: the output_schema does not compile: {err}"));
        let (run, envelope) = sandbox.json(&invocation(path));
        run.assert_code(0);
        let errors: Vec<String> = validator
            .iter_errors(&envelope["data"])
            .map(|error| format!("{error} at {}", error.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{path}: {errors:#?}\n{run}");
        checked += 1;
    }
    assert!(checked >= 1);
}

/// REQ-F-035, REQ-F-007: a skill's text is its author's, so `skill
/// read-properties` and `skill to-prompt` return it marked untrusted, with
/// terminal codes removed rather than escaped.
#[test]
fn skill_text_is_marked_untrusted_and_stripped() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "skills/red/SKILL.md",
        "---\nname: red\ndescription: \"Makes text \\e[31mred\\e[0m. Use when asked to colour.\"\n---\n\nBody.\n",
    );
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "skills/red"]);
    run.assert_code(0);
    let data = &envelope["data"];
    assert_eq!(
        data["description"], "Makes text red. Use when asked to colour.",
        "{run}"
    );
    assert_eq!(data["_trusted"], false, "{run}");
    assert_eq!(data["_source"], "external", "{run}");
    assert!(!run.stdout.contains("\\u001b"), "{run}");

    let (run, envelope) = sandbox.json(&["skill", "to-prompt", "skills/red"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["_trusted"], false, "{run}");
    assert!(!run.stdout.contains("\\u001b"), "{run}");
    // The block itself keeps the text, with ESC as an XML character
    // reference, never the byte.
    let xml = envelope["data"]["xml"].as_str().unwrap();
    assert!(!xml.contains('\u{1b}'), "{run}");
    assert_eq!(
        envelope["data"]["skills"][0]["description"],
        "Makes text red. Use when asked to colour."
    );
}
