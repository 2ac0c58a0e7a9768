//! `aigent skill validate` from outside: every rule failing and at its
//! boundary, i18n names, nested layouts, hostile input, both output
//! formats and every exit code.

use crate::{assert_envelope, assert_session};
use std::path::{Path, PathBuf};

use crate::common::{Run, Sandbox};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/skills")
}

fn fixture(relative: &str) -> String {
    fixtures().join(relative).to_string_lossy().into_owned()
}

/// Writes `dir/SKILL.md` with `name` and `description`, plus `extra`
/// frontmatter lines and a body.
fn skill(sandbox: &Sandbox, dir: &str, frontmatter: &str, body: &str) -> PathBuf {
    sandbox.write(
        format!("{dir}/SKILL.md"),
        format!("---\n{frontmatter}\n---\n{body}"),
    );
    sandbox.join(dir)
}

/// A valid skill in `dir`, named after its last component.
fn simple(sandbox: &Sandbox, dir: &str) -> PathBuf {
    let name = dir.rsplit('/').next().unwrap();
    skill(
        sandbox,
        dir,
        &format!("name: {name}\ndescription: A test skill."),
        "Body.\n",
    )
}

/// Validates `paths` in json mode and returns the run and its envelope.
fn validate(sandbox: &Sandbox, extra: &[&str]) -> (Run, Value) {
    let mut args = vec!["skill", "validate"];
    args.extend_from_slice(extra);
    sandbox.json(&args)
}

/// The codes reported for the only skill in the envelope.
fn codes(envelope: &Value) -> Vec<String> {
    let skills = envelope["data"]["skills"].as_array().expect("skills");
    assert_eq!(skills.len(), 1, "{envelope:#}");
    skills[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

fn first_diagnostic(envelope: &Value) -> &Value {
    &envelope["data"]["skills"][0]["diagnostics"][0]
}

/// Validates one generated skill directory and returns its codes.
fn codes_for(frontmatter: &str, body: &str, dir: &str) -> Vec<String> {
    let sandbox = Sandbox::new();
    let path = skill(&sandbox, dir, frontmatter, body);
    let (_, envelope) = validate(&sandbox, &[path.to_str().unwrap()]);
    codes(&envelope)
}

#[test]
fn examples_are_valid() {
    let sandbox = Sandbox::new();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/skills");
    let (run, envelope) = validate(&sandbox, &["--recursive", examples.to_str().unwrap()]);
    run.assert_code(0);
    let summary = &envelope["data"]["summary"];
    assert!(summary["checked"].as_u64().unwrap() >= 3, "{run}");
    assert_eq!(summary["invalid"], 0, "{run}");
    assert_eq!(summary["warnings"], 0, "{run}");
}

#[test]
fn valid_fixtures_pass_including_i18n_names() {
    let sandbox = Sandbox::new();
    let (run, envelope) = validate(&sandbox, &["-r", &fixture("valid")]);
    run.assert_code(0);
    let names: Vec<&str> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["claudette", "pdf-forms", "инструмент", "数据-工具"],
        "{run}"
    );
}

#[test]
fn invalid_fixtures_each_report_their_rule() {
    let expectations: &[(&str, &[&str])] = &[
        ("claude-tools", &["E006"]),
        ("duplicate-keys", &["E020"]),
        ("list-frontmatter", &["E019"]),
        ("no-frontmatter", &["E015"]),
        ("numeric-name", &["E002"]),
        ("unclosed", &["E016"]),
        ("xml-description", &["E011"]),
        ("Инструмент", &["E003"]),
        (
            "many-problems",
            &[
                "E003", "E005", "E008", "E009", "E012", "E014", "W001", "W005",
            ],
        ),
    ];
    let sandbox = Sandbox::new();
    let (run, envelope) = validate(&sandbox, &["--recursive", &fixture("invalid")]);
    run.assert_code(1);
    let skills = envelope["data"]["skills"].as_array().unwrap();
    assert_eq!(skills.len(), expectations.len(), "{run}");
    for (dir, expected) in expectations {
        let skill = skills
            .iter()
            .find(|s| s["path"].as_str().unwrap().contains(&format!("/{dir}/")))
            .unwrap_or_else(|| panic!("{dir} not reported:\n{run}"));
        assert_eq!(skill["valid"], false, "{dir}");
        let mut found: Vec<&str> = skill["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        found.sort_unstable();
        found.dedup();
        assert_eq!(&found, expected, "{dir}:\n{skill:#}");
    }
}

#[test]
fn name_length_boundary_is_64() {
    let ok = "a".repeat(64);
    assert!(codes_for(&format!("name: {ok}\ndescription: d"), "", &ok).is_empty());
    let long = "a".repeat(65);
    assert_eq!(
        codes_for(&format!("name: {long}\ndescription: d"), "", &long),
        ["E004"]
    );
}

#[test]
fn description_length_boundary_is_1024() {
    let at = format!("name: s\ndescription: {}", "d".repeat(1024));
    assert!(codes_for(&at, "", "s").is_empty());
    let over = format!("name: s\ndescription: {}", "d".repeat(1025));
    assert_eq!(codes_for(&over, "", "s"), ["E010"]);
}

#[test]
fn compatibility_length_boundary_is_500() {
    let at = format!(
        "name: s\ndescription: d\ncompatibility: {}",
        "c".repeat(500)
    );
    assert!(codes_for(&at, "", "s").is_empty());
    let over = format!(
        "name: s\ndescription: d\ncompatibility: {}",
        "c".repeat(501)
    );
    assert_eq!(codes_for(&over, "", "s"), ["E013"]);
    assert_eq!(
        codes_for("name: s\ndescription: d\ncompatibility: 7", "", "s"),
        ["E012"]
    );
}

#[test]
fn body_length_boundary_is_500_lines() {
    let fm = "name: s\ndescription: d";
    assert!(codes_for(fm, &"line\n".repeat(500), "s").is_empty());
    let sandbox = Sandbox::new();
    let path = skill(&sandbox, "s", fm, &"line\n".repeat(501));
    let (run, envelope) = validate(&sandbox, &[path.to_str().unwrap()]);
    run.assert_code(0);
    assert_eq!(codes(&envelope), ["W002"]);
    let diagnostic = first_diagnostic(&envelope);
    assert_eq!(diagnostic["severity"], "warning");
    assert!(
        diagnostic["message"].as_str().unwrap().contains("501"),
        "{run}"
    );
}

#[test]
fn every_name_rule() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("", "s", &["E002"]),
        ("name: ''", "s", &["E002"]),
        ("name: [a]", "s", &["E002"]),
        ("name: Bad", "Bad", &["E003"]),
        ("name: a_b", "a_b", &["E003"]),
        ("name: -ab", "-ab", &["E005"]),
        ("name: ab-", "ab-", &["E005"]),
        ("name: a--b", "a--b", &["E005"]),
        ("name: claude-tools", "claude-tools", &["E006"]),
        ("name: tools-anthropic", "tools-anthropic", &["E006"]),
        ("name: claudette", "claudette", &[]),
        ("name: '<b>x'", "b", &["E003", "E007", "E008"]),
        ("name: other", "s", &["E008"]),
    ];
    for (name_line, dir, expected) in cases {
        let frontmatter = format!("{name_line}\ndescription: d");
        assert_eq!(
            &codes_for(&frontmatter, "", dir),
            expected,
            "{name_line} in {dir}/"
        );
    }
}

#[test]
fn description_xml_tags_against_comparisons() {
    assert_eq!(
        codes_for("name: s\ndescription: a <tag> here", "", "s"),
        ["E011"]
    );
    assert_eq!(
        codes_for("name: s\ndescription: a </close> here", "", "s"),
        ["E011"]
    );
    assert!(codes_for("name: s\ndescription: 'when a < b and b > c'", "", "s").is_empty());
    assert_eq!(codes_for("name: s", "", "s"), ["E009"]);
    assert_eq!(codes_for("name: s\ndescription: 12", "", "s"), ["E009"]);
}

#[test]
fn error_text_is_compiler_style() {
    let sandbox = Sandbox::new();
    skill(&sandbox, "Bad", "name: Bad\ndescription: d", "");
    let run = sandbox.run(&["--output", "text", "skill", "validate", "Bad"]);
    assert_session!(&sandbox, &run);
}

#[test]
fn nfkc_names_and_directories() {
    // Fullwidth letters fold to ASCII; a decomposed directory name matches
    // a composed name.
    assert!(codes_for("name: ｐｄｆ\ndescription: d", "", "pdf").is_empty());
    assert!(codes_for("name: café\ndescription: d", "", "cafe\u{301}").is_empty());
    assert!(codes_for("name: 数据\ndescription: d", "", "数据").is_empty());
    assert!(codes_for("name: данные\ndescription: d", "", "данные").is_empty());
    assert_eq!(
        codes_for("name: Данные\ndescription: d", "", "Данные"),
        ["E003"]
    );
}

#[test]
fn metadata_and_allowed_tools() {
    let base = "name: s\ndescription: d";
    assert_eq!(
        codes_for(&format!("{base}\nmetadata: [a]"), "", "s"),
        ["E014"]
    );
    assert_eq!(
        codes_for(&format!("{base}\nmetadata:\n  n: 1"), "", "s"),
        ["W003"]
    );
    assert_eq!(
        codes_for(&format!("{base}\nallowed-tools: [Read]"), "", "s"),
        ["W004"]
    );
    assert_eq!(
        codes_for(&format!("{base}\nlicense: [MIT]"), "", "s"),
        ["W006"]
    );
}

#[test]
fn duplicate_keys_point_at_the_second() {
    let sandbox = Sandbox::new();
    let path = skill(&sandbox, "s", "name: s\ndescription: d\nname: s", "");
    let (run, _) = validate(&sandbox, &[path.to_str().unwrap()]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn bom_and_crlf_are_tolerated_with_right_lines() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "s/SKILL.md",
        "\u{feff}---\r\nname: s\r\ndescription: d\r\nextra: 1\r\n---\r\nBody\r\n",
    );
    let (run, envelope) = validate(&sandbox, &["s"]);
    run.assert_code(0);
    let diagnostic = first_diagnostic(&envelope);
    assert_eq!(diagnostic["code"], "W001");
    assert_eq!(diagnostic["line"], 4, "{run}");
}

#[test]
fn a_dashes_line_inside_a_value_does_not_close_the_frontmatter() {
    let frontmatter = "name: s\ndescription: |\n  before\n  ---\n  after";
    assert!(codes_for(frontmatter, "", "s").is_empty());
}

#[test]
fn relative_links_must_resolve() {
    let sandbox = Sandbox::new();
    let path = skill(
        &sandbox,
        "s",
        "name: s\ndescription: d",
        "[ok](references/a.md) [web](https://example.com)\n[gone](scripts/run.py)\n",
    );
    sandbox.write("s/references/a.md", "# A");
    let (run, envelope) = validate(&sandbox, &[path.to_str().unwrap()]);
    run.assert_code(0);
    assert_eq!(codes(&envelope), ["W005"]);
    assert_eq!(first_diagnostic(&envelope)["line"], 6);
}

#[test]
fn strict_turns_warnings_into_errors() {
    let sandbox = Sandbox::new();
    skill(&sandbox, "s", "name: s\ndescription: d\nmodel: opus", "");
    let (run, _) = validate(&sandbox, &["s"]);
    run.assert_code(0);
    let (run, envelope) = validate(&sandbox, &["--strict", "s"]);
    run.assert_code(1);
    assert_eq!(first_diagnostic(&envelope)["severity"], "error");
    assert_eq!(envelope["error"]["code"], "VALIDATION_FAILED");
}

#[test]
fn profiles_decide_which_keys_are_known() {
    let sandbox = Sandbox::new();
    skill(
        &sandbox,
        "s",
        "name: s\ndescription: d\ndisable-model-invocation: true\nargument-hint: '[file]'\nuser-invocable: false\nmodel: sonnet\ncontext: fork\nx-vendor: 1",
        "",
    );
    let warned = |profile: &str| {
        let (run, envelope) = validate(&sandbox, &["--profile", profile, "s"]);
        run.assert_code(0);
        envelope["data"]["summary"]["warnings"].as_u64().unwrap()
    };
    assert_eq!(warned("standard"), 6);
    assert_eq!(warned("claude-code"), 1);
    assert_eq!(warned("permissive"), 0);
}

#[test]
fn skill_file_paths_and_lowercase_skill_md() {
    let sandbox = Sandbox::new();
    simple(&sandbox, "upper");
    sandbox.write("lower/skill.md", "---\nname: lower\ndescription: d\n---\n");
    sandbox.write("empty/README.md", "not a skill");
    let (run, envelope) = validate(
        &sandbox,
        &["upper/SKILL.md", "lower", "empty", "empty/README.md"],
    );
    run.assert_code(1);
    let reported: Vec<(&str, Vec<&str>)> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap(),
                s["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d["code"].as_str().unwrap())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        reported,
        [
            ("upper/SKILL.md", vec![]),
            ("lower/skill.md", vec![]),
            ("empty", vec!["E001"]),
            ("empty/README.md", vec!["E024"]),
        ]
    );
    assert_eq!(
        envelope["data"]["summary"],
        serde_json::json!({"checked": 4, "valid": 2, "invalid": 2, "warnings": 0})
    );
}

#[test]
fn default_path_is_the_current_directory() {
    let sandbox = Sandbox::new();
    simple(&sandbox, "here");
    let run = Run::of(
        sandbox
            .cmd()
            .current_dir(sandbox.join("here"))
            .args(["--output", "json", "skill", "validate"]),
    );
    run.assert_code(0);
    let envelope = run.envelope();
    assert_eq!(envelope["data"]["skills"][0]["path"], "./SKILL.md");
    assert_eq!(envelope["data"]["skills"][0]["name"], "here");
}

#[test]
fn recursive_finds_nested_layouts_and_skips_vendored_directories() {
    let sandbox = Sandbox::new();
    for dir in [
        "repo/skills/alpha",
        "repo/plugins/p/skills/beta",
        "repo/.curated/gamma",
        "repo/.claude/skills/delta",
    ] {
        let name = dir.rsplit('/').next().unwrap();
        skill(&sandbox, dir, &format!("name: {name}\ndescription: d"), "");
    }
    for dir in ["repo/.git/x", "repo/node_modules/y", "repo/target/z"] {
        skill(&sandbox, dir, "name: Broken", "");
    }
    let (run, envelope) = validate(&sandbox, &["--recursive", "repo"]);
    run.assert_code(0);
    let paths: Vec<&str> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "repo/.claude/skills/delta/SKILL.md",
            "repo/.curated/gamma/SKILL.md",
            "repo/plugins/p/skills/beta/SKILL.md",
            "repo/skills/alpha/SKILL.md",
        ]
    );
}

#[test]
fn recursive_over_several_roots() {
    let sandbox = Sandbox::new();
    simple(&sandbox, "one/a");
    simple(&sandbox, "two/b");
    sandbox.write("three/notes.md", "nothing");
    let (run, envelope) = validate(&sandbox, &["-r", "one", "two", "three"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["checked"], 2);
    assert_eq!(
        envelope["warnings"][0], "no skills found below three",
        "{run}"
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_do_not_hang() {
    let sandbox = Sandbox::new();
    simple(&sandbox, "root/a");
    std::os::unix::fs::symlink(sandbox.join("root"), sandbox.join("root/a/up")).unwrap();
    std::os::unix::fs::symlink("self", sandbox.join("root/self")).unwrap();
    let (run, envelope) = validate(&sandbox, &["--recursive", "root"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["checked"], 1, "{run}");
}

#[test]
fn billion_laughs_fails_with_a_budget_diagnostic() {
    let mut frontmatter = String::from(
        "name: s\ndescription: d\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    let names = ["b", "c", "d", "e", "f", "g", "h", "i", "j"];
    let mut previous = "a";
    for name in names {
        let refs = vec![format!("*{previous}"); 9].join(", ");
        frontmatter.push_str(&format!("{name}: &{name} [{refs}]\n"));
        previous = name;
    }
    let sandbox = Sandbox::new();
    let path = skill(&sandbox, "s", frontmatter.trim_end(), "");
    let (run, envelope) = validate(&sandbox, &[path.to_str().unwrap()]);
    run.assert_code(1);
    assert_eq!(codes(&envelope), ["E018"], "{run}");
    let message = first_diagnostic(&envelope)["message"].as_str().unwrap();
    assert!(message.contains("budget"), "{message}");
}

#[test]
fn deeply_nested_brackets_fail_cleanly() {
    let sandbox = Sandbox::new();
    for (dir, opener) in [("flow-seq", "["), ("flow-map", "{a: ")] {
        let frontmatter = format!(
            "name: {dir}\ndescription: d\ndeep: {}",
            opener.repeat(100_000)
        );
        skill(&sandbox, dir, &frontmatter, "");
    }
    let (run, envelope) = validate(&sandbox, &["flow-seq", "flow-map"]);
    run.assert_code(1);
    assert!(!run.stderr.contains("overflow"), "{run}");
    for skill in envelope["data"]["skills"].as_array().unwrap() {
        let diagnostic = &skill["diagnostics"][0];
        assert_eq!(diagnostic["code"], "E018", "{skill:#}");
        assert!(diagnostic["message"].as_str().unwrap().contains("budget"));
    }
}

#[test]
fn oversized_and_non_utf8_files_are_diagnostics() {
    let sandbox = Sandbox::new();
    let mut big = b"---\nname: big\ndescription: d\n---\n".to_vec();
    big.resize(1024 * 1024 + 1, b'x');
    sandbox.write("big/SKILL.md", &big);
    let mut exact = b"---\nname: exact\ndescription: d\n---\n".to_vec();
    exact.resize(1024 * 1024, b'x');
    sandbox.write("exact/SKILL.md", &exact);
    sandbox.write(
        "latin1/SKILL.md",
        b"---\nname: latin1\ndescription: caf\xe9\n---\n",
    );
    let (run, envelope) = validate(&sandbox, &["big", "exact", "latin1"]);
    run.assert_code(1);
    let skills = envelope["data"]["skills"].as_array().unwrap();
    assert_eq!(skills[0]["diagnostics"][0]["code"], "E021");
    assert_eq!(skills[1]["valid"], true, "exactly 1 MiB is allowed");
    assert_eq!(skills[2]["diagnostics"][0]["code"], "E022");
    assert_eq!(skills[2]["diagnostics"][0]["line"], 3);
}

#[cfg(unix)]
#[test]
fn special_files_are_not_read() {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.join("dev")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", sandbox.join("dev/SKILL.md")).unwrap();
    let (run, envelope) = validate(&sandbox, &["dev"]);
    run.assert_code(1);
    assert_eq!(codes(&envelope), ["E025"]);

    // A FIFO would block a plain open until a writer came along.
    std::fs::create_dir(sandbox.join("fifo")).unwrap();
    let fifo = std::ffi::CString::new(sandbox.join("fifo/SKILL.md").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let (run, envelope) = validate(&sandbox, &["fifo"]);
    run.assert_code(1);
    assert_eq!(codes(&envelope), ["E025"]);
}

#[test]
fn missing_path_exits_5_after_validating_the_rest() {
    let sandbox = Sandbox::new();
    skill(&sandbox, "Bad", "name: Bad\ndescription: d", "");
    let (run, _) = validate(&sandbox, &["nope", "Bad"]);
    assert_envelope!(&sandbox, &run);
    let text = sandbox.run(&["--output", "text", "skill", "validate", "nope"]);
    assert_session!("missing_path_text", &sandbox, &text);
}

#[test]
fn recursive_search_that_finds_nothing_exits_5() {
    let sandbox = Sandbox::new();
    sandbox.write("docs/readme.md", "no skills here");
    let (run, _) = validate(&sandbox, &["--recursive", "docs"]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn usage_errors_exit_2() {
    let sandbox = Sandbox::new();
    let (run, _) = validate(&sandbox, &["--profile", "nope"]);
    assert_envelope!(&sandbox, &run);
    let run = sandbox.run(&["--output", "json-schema", "skill", "validate"]);
    run.assert_code(2);
}

#[test]
fn text_summary_and_quiet() {
    let sandbox = Sandbox::new();
    simple(&sandbox, "a");
    simple(&sandbox, "b");
    skill(&sandbox, "c", "name: c\ndescription: d\nextra: 1", "");
    let run = sandbox.run(&["--output", "text", "skill", "validate", "a", "b", "c"]);
    assert_session!(&sandbox, &run);
    let quiet = sandbox.run(&["--output", "text", "-q", "skill", "validate", "a", "b", "c"]);
    assert_session!("quiet", &sandbox, &quiet);
}

#[test]
fn colour_is_applied_on_request_and_never_otherwise() {
    let sandbox = Sandbox::new();
    skill(&sandbox, "Bad", "name: Bad\ndescription: d", "");
    let coloured = sandbox.run(&[
        "--output", "text", "--color", "always", "skill", "validate", "Bad",
    ]);
    coloured.assert_code(1);
    assert!(
        coloured.stdout.contains("\u{1b}[1;31merror[E003]\u{1b}[0m"),
        "{coloured}"
    );
    let plain = sandbox.run(&["--output", "text", "skill", "validate", "Bad"]);
    assert!(!plain.stdout.contains('\u{1b}'), "{plain}");
}

#[test]
fn json_is_one_document_with_the_documented_shape() {
    let sandbox = Sandbox::new();
    skill(&sandbox, "Bad", "name: Bad\ndescription: d", "");
    let (run, envelope) = validate(&sandbox, &["Bad"]);
    run.assert_code(1);
    let skill = &envelope["data"]["skills"][0];
    let keys: Vec<&String> = skill.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "path",
            "name",
            "valid",
            "diagnostics",
            "tokens",
            "profile",
            "profile_source"
        ]
    );
    assert_eq!(
        *first_diagnostic(&envelope),
        serde_json::json!({
            "severity": "error",
            "code": "E003",
            "field": "name",
            "message": "name 'Bad' must be lowercase",
            "line": 2
        })
    );
    let summary_keys: Vec<&String> = envelope["data"]["summary"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(summary_keys, ["checked", "valid", "invalid", "warnings"]);
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let sandbox = Sandbox::new();
    for i in 0..3000 {
        simple(&sandbox, &format!("s/skill-{i}"));
    }
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("aigent"))
        .current_dir(sandbox.path())
        .args(["--output", "text", "skill", "validate", "--recursive", "s"])
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here, while most of the output is unwritten.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    assert!(output.status.code().is_some(), "killed by a signal");
}

/// A hostile body full of link openers is read once, not once per opener
/// (a 1 MiB file of `](` took seconds with the old scanner).
#[test]
fn a_megabyte_of_link_openers_is_validated() {
    let sandbox = Sandbox::new();
    let head = "---\nname: w\ndescription: d\n---\n";
    let body = "](".repeat((1024 * 1024 - head.len() - 2) / 2);
    sandbox.write("w/SKILL.md", format!("{head}{body}\n"));
    let (run, envelope) = validate(&sandbox, &["w"]);
    run.assert_code(0);
    // Only the token budget (W007) speaks: no link finding.
    assert_eq!(codes(&envelope), ["W007"], "{run}");
}

/// What CommonMark does not render as a link is not checked as one.
#[test]
fn markdown_that_is_not_a_link_gets_no_link_warning() {
    let body = "[p](file(1).md)\n\n<!-- [c](commented.md) -->\n\n``[d](double `x`.md)``\n\n\
                \\[e](escaped.md)\n\n[r]: <a b.md>\n\n    [i](indented.md)\n\n\
                ````\n```sh\n[f](fenced.md)\n````\n";
    let sandbox = Sandbox::new();
    let dir = skill(&sandbox, "s", "name: s\ndescription: d", body);
    sandbox.write("s/file(1).md", "x");
    sandbox.write("s/a b.md", "x");
    let (run, envelope) = validate(&sandbox, &["--strict", dir.to_str().unwrap()]);
    run.assert_code(0);
    assert_eq!(codes(&envelope), Vec::<String>::new(), "{run}");
}

/// A path that exists but cannot be looked at is unreadable (E025, exit
/// 1), not missing (E023, exit 5): a symlink loop named as the PATH.
#[cfg(unix)]
#[test]
fn a_symlink_loop_given_as_the_path_is_unreadable_not_missing() {
    let sandbox = Sandbox::new();
    std::os::unix::fs::symlink("loop", sandbox.join("loop")).unwrap();
    let (run, envelope) = validate(&sandbox, &["loop"]);
    run.assert_code(1);
    assert_eq!(codes(&envelope), ["E025"], "{run}");
    let message = first_diagnostic(&envelope)["message"].as_str().unwrap();
    assert!(message.starts_with("cannot read loop: "), "{message}");
}

/// Each physical skill is validated once, however it is named.
#[cfg(unix)]
#[test]
fn the_same_skill_named_several_ways_is_validated_once() {
    let sandbox = Sandbox::new();
    simple(&sandbox, "ok");
    std::os::unix::fs::symlink("ok", sandbox.join("okl")).unwrap();
    let absolute = sandbox.join("ok");
    let (run, envelope) = validate(&sandbox, &["ok", "./ok", absolute.to_str().unwrap()]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["checked"], 1, "{run}");
    assert_eq!(envelope["data"]["skills"][0]["path"], "ok/SKILL.md");

    let (run, envelope) = validate(&sandbox, &["-r", "ok", "okl"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["checked"], 1, "{run}");
    let (run, envelope) = validate(&sandbox, &["okl/SKILL.md", "-r", "."]);
    run.assert_code(1);
    assert_eq!(envelope["data"]["summary"]["checked"], 1, "{run}");
    assert_eq!(codes(&envelope), ["E008"], "the first name reached is kept");
}

/// Only `SKILL.md` and `skill.md` are skill files, as the README says.
#[test]
fn other_spellings_of_skill_md_are_not_skill_files() {
    let sandbox = Sandbox::new();
    sandbox.write("a/Skill.md", "---\nname: a\ndescription: d\n---\n");
    let (run, envelope) = validate(&sandbox, &["a/Skill.md"]);
    run.assert_code(1);
    assert_eq!(codes(&envelope), ["E024"], "{run}");
}

/// Escape sequences and line breaks in values and paths reach the
/// terminal as escapes, one finding per line; JSON keeps the real text.
#[test]
fn control_characters_from_files_are_escaped_in_text_and_github_output() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "e/SKILL.md",
        "---\nname: \"esc\\e[2J\\e]0;PWNED\\a\"\ndescription: \"hi <x\\e[8m> \\u202Eevil\"\n---\n",
    );
    sandbox.write(
        "odd\ndir\u{1b}[31m/SKILL.md",
        "---\nname: odd\ndescription: d\n---\n",
    );
    let raw = |text: &str| {
        text.chars()
            .any(|c| c.is_control() && c != '\n' || c == '\u{202e}')
    };

    let text = sandbox.run(&[
        "--output",
        "text",
        "skill",
        "validate",
        "e",
        "odd\ndir\u{1b}[31m",
    ]);
    text.assert_code(1);
    assert!(!raw(&text.stdout), "{text}");
    assert!(
        text.stdout
            .contains("error[E003]: name 'esc\\u{1b}[2J\\u{1b}]0;PWNED\\u{7}' must be lowercase"),
        "{text}"
    );
    assert!(
        text.stdout
            .contains("error[E026]: description contains the control character"),
        "{text}"
    );
    assert!(
        text.stdout
            .contains("  --> odd\\ndir\\u{1b}[31m/SKILL.md:2"),
        "{text}"
    );
    for line in text.stdout.lines().take_while(|line| !line.is_empty()) {
        assert!(
            line.starts_with("error[") || line.starts_with("  --> "),
            "{line:?}\n{text}"
        );
    }

    let github = sandbox.run(&[
        "--output",
        "github",
        "skill",
        "validate",
        "e",
        "odd\ndir\u{1b}[31m",
    ]);
    github.assert_code(1);
    assert!(!raw(&github.stdout), "{github}");
    for line in github.stdout.lines() {
        assert!(
            line.starts_with("::error ") || line.starts_with("aigent: "),
            "{line:?}"
        );
    }

    let (_, envelope) = validate(&sandbox, &["e"]);
    assert_eq!(
        envelope["data"]["skills"][0]["name"],
        "esc\u{1b}[2J\u{1b}]0;PWNED\u{7}"
    );
}

/// Messages on stderr quote paths: escaped there too.
#[test]
fn control_characters_in_error_messages_are_escaped() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--output",
        "text",
        "skill",
        "read-properties",
        "gone\u{1b}]0;x\u{7}",
    ]);
    run.assert_code(5);
    assert!(run.stderr.contains("gone\\u{1b}]0;x\\u{7}"), "{run}");
    assert!(
        !run.stderr.chars().any(|c| c.is_control() && c != '\n'),
        "{run}"
    );
}

/// A closing `--- ` (trailing space) is named, and a real `---` after it
/// is a second document, not a YAML bomb.
#[test]
fn a_padded_closing_line_gets_a_hint() {
    let (_, envelope) = {
        let sandbox = Sandbox::new();
        sandbox.write("a/SKILL.md", "---\nname: a\ndescription: d\n--- \nBody.\n");
        validate(&sandbox, &["a"])
    };
    let diagnostic = first_diagnostic(&envelope);
    assert_eq!(diagnostic["code"], "E016");
    assert!(
        diagnostic["message"]
            .as_str()
            .unwrap()
            .contains("line 4 has whitespace after the dashes"),
        "{envelope:#}"
    );
    let sandbox = Sandbox::new();
    sandbox.write(
        "a/SKILL.md",
        "---\nname: a\ndescription: d\n--- \nBody.\n---\n",
    );
    let (_, envelope) = validate(&sandbox, &["a"]);
    let diagnostic = first_diagnostic(&envelope);
    assert_eq!(diagnostic["code"], "E017", "{envelope:#}");
    assert!(!diagnostic["message"].as_str().unwrap().contains("budget"));
}

/// The hint about other paths appears only when there were other paths;
/// a missing path is no skill in the counts or in the summary table.
#[test]
fn a_missing_path_is_not_counted_as_a_skill() {
    let sandbox = Sandbox::new();
    let (run, envelope) = validate(&sandbox, &["nope"]);
    run.assert_code(5);
    assert!(
        envelope["error"]["hints"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{run}"
    );
    assert_eq!(envelope["data"]["summary"]["checked"], 0);

    simple(&sandbox, "ok");
    simple(&sandbox, "ok2");
    let (run, envelope) = validate(&sandbox, &["-r", "nope", "ok", "ok2"]);
    run.assert_code(5);
    assert_eq!(
        envelope["error"]["hints"][0],
        "the other paths were still validated"
    );
    assert_eq!(
        envelope["data"]["summary"],
        serde_json::json!({"checked": 2, "valid": 2, "invalid": 0, "warnings": 0})
    );
    let text = sandbox.run(&["--output", "text", "skill", "validate", "nope", "ok", "ok2"]);
    text.assert_code(5);
    assert!(!text.stdout.contains("invalid skill"), "{text}");
}

/// Search notes go to the GitHub log as `::warning` lines, not as prose.
#[test]
fn github_format_reports_search_notes_as_warnings() {
    let sandbox = Sandbox::new();
    simple(&sandbox, "skills/a");
    std::fs::create_dir_all(sandbox.join("empty")).unwrap();
    let run = sandbox.run(&[
        "--output", "github", "skill", "validate", "-r", "skills", "empty",
    ]);
    run.assert_code(0);
    assert!(
        run.stdout
            .lines()
            .any(|line| line.starts_with("::warning::no skills found below empty")),
        "{run}"
    );
    assert!(run.stderr.is_empty(), "{run}");
}
