//! Authoring: `skill fmt`, `skill fix` and token budgets, end to end
//! through the binary.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::common::Sandbox;

const MESSY: &str = "---\n# owner: docs team\nmetadata:\n    author: me   # who\ndescription: 'It''s a tool'   \nname: \"pdf\"\n---\n# Body  \n\nkept: as is \n";
const TIDY: &str = "---\nname: pdf\ndescription: It's a tool\n# owner: docs team\nmetadata:\n  author: me   # who\n---\n# Body  \n\nkept: as is \n";

#[test]
fn fmt_check_and_diff_write_nothing_and_fmt_writes_the_canonical_form() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("pdf/SKILL.md", MESSY);

    let check = sandbox.run(&[
        "--output", "text", "--color", "never", "skill", "fmt", "--check", "pdf",
    ]);
    check.assert_code(1);
    assert!(
        check.stdout.contains("would format: pdf/SKILL.md"),
        "{check}"
    );
    assert!(
        !check.stdout.contains("@@"),
        "--check alone prints no diff:\n{check}"
    );
    assert!(check.stderr.contains("would be reformatted"), "{check}");
    assert_eq!(fs::read_to_string(&file).unwrap(), MESSY);

    let (diff, envelope) = sandbox.json(&["skill", "fmt", "--diff", "pdf"]);
    diff.assert_code(1);
    assert_eq!(envelope["error"]["code"], "FORMAT_CHECK_FAILED");
    let entry = &envelope["data"]["files"][0];
    assert_eq!(entry["status"], "would-write");
    let patch = entry["diff"].as_str().unwrap();
    assert!(
        patch.contains("+name: pdf\n") && patch.contains("-name: \"pdf\"\n"),
        "{patch}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), MESSY);

    let (written, envelope) = sandbox.json(&["skill", "fmt", "pdf"]);
    written.assert_code(0);
    assert_eq!(envelope["data"]["files"][0]["status"], "written");
    assert_eq!(envelope["data"]["summary"]["changed"], 1);
    assert_eq!(fs::read_to_string(&file).unwrap(), TIDY);

    // Idempotent: nothing more to do, and --check agrees.
    let (again, envelope) = sandbox.json(&["skill", "fmt", "--check", "pdf"]);
    again.assert_code(0);
    assert_eq!(envelope["data"]["files"][0]["status"], "unchanged");
    // The result still validates, with the same values.
    sandbox.json(&["skill", "validate", "pdf"]).0.assert_code(0);
}

#[test]
fn fmt_reports_what_it_cannot_format_and_missing_paths() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "bad/SKILL.md",
        "---\nname: bad\ndescription: [unclosed\n---\n",
    );
    sandbox.write("good/SKILL.md", "---\nname: good\ndescription: d\n---\n");
    let (run, envelope) = sandbox.json(&["skill", "fmt", "--recursive", "."]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["code"], "FORMAT_FAILED");
    let statuses: Vec<&str> = envelope["data"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["failed", "unchanged"]);
    assert!(
        envelope["data"]["files"][0]["message"]
            .as_str()
            .unwrap()
            .contains("invalid YAML"),
        "{envelope:#}"
    );
    let (missing, envelope) = sandbox.json(&["skill", "fmt", "nope"]);
    missing.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NOT_FOUND");
    sandbox.write("none/README.md", "x");
    let (nothing, envelope) = sandbox.json(&["skill", "fmt", "--recursive", "none"]);
    nothing.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NO_SKILLS_FOUND");
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fix")
}

fn properties(sandbox: &Sandbox, path: &Path) -> Value {
    let (run, envelope) = sandbox.json(&["skill", "read-properties", path.to_str().unwrap()]);
    run.assert_code(0);
    envelope["data"].clone()
}

#[test]
fn fix_makes_every_repair_in_the_fixture_tree() {
    let sandbox = Sandbox::new();
    copy_tree(&fixtures().join("before"), &sandbox.join("skills"));

    // --dry-run: diffs, nothing written.
    let (dry, envelope) = sandbox.json(&["skill", "fix", "--dry-run", "--recursive", "skills"]);
    dry.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["changed"], 6, "{envelope:#}");
    for name in ["quote-colon", "all-four"] {
        assert_eq!(
            fs::read(sandbox.join(format!("skills/{name}/SKILL.md"))).unwrap(),
            fs::read(fixtures().join(format!("before/{name}/SKILL.md"))).unwrap(),
        );
    }

    let (run, envelope) = sandbox.json(&["skill", "fix", "--recursive", "skills"]);
    run.assert_code(0);
    let files = envelope["data"]["files"].as_array().unwrap();
    let kinds = |name: &str| -> Vec<String> {
        let file = files
            .iter()
            .find(|file| {
                file["path"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("/{name}/"))
            })
            .unwrap();
        file["repairs"]
            .as_array()
            .map(|repairs| {
                repairs
                    .iter()
                    .map(|repair| repair["kind"].as_str().unwrap().to_owned())
                    // Each fixed file is also formatted; the repairs are
                    // what is checked here.
                    .filter(|kind| kind != "formatted")
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(kinds("quote-colon"), ["quoted-value"]);
    assert_eq!(kinds("quote-number"), ["quoted-value"]);
    assert_eq!(kinds("allowed-tools-list"), ["joined-allowed-tools"]);
    assert_eq!(
        kinds("unknown-keys"),
        ["moved-to-metadata", "moved-to-metadata"]
    );
    assert_eq!(kinds("pdf-tools"), ["name-from-directory"]);
    assert_eq!(
        kinds("all-four"),
        [
            "quoted-value",
            "joined-allowed-tools",
            "moved-to-metadata",
            "name-from-directory"
        ]
    );
    let untouchable = files
        .iter()
        .find(|file| file["path"].as_str().unwrap().contains("/untouchable/"))
        .unwrap();
    assert_eq!(untouchable["status"], "unchanged");
    assert_eq!(
        untouchable["not_fixed"].as_array().unwrap().len(),
        2,
        "{untouchable:#}"
    );

    // Byte for byte, then field by field against the expected skills.
    for entry in fs::read_dir(fixtures().join("after")).unwrap() {
        let name = entry.unwrap().file_name();
        let name = name.to_str().unwrap();
        let fixed = sandbox.join(format!("skills/{name}"));
        let expected = fixtures().join(format!("after/{name}"));
        assert_eq!(
            fs::read_to_string(fixed.join("SKILL.md")).unwrap(),
            fs::read_to_string(expected.join("SKILL.md")).unwrap(),
            "{name}"
        );
        let after = properties(&sandbox, &fixed);
        assert_eq!(after, properties(&sandbox, &expected), "{name}");
        // What each repair must keep: the description's text (where YAML
        // could read it before), and every moved value as written.
        let before_path = fixtures().join(format!("before/{name}"));
        let (read, before) =
            sandbox.json(&["skill", "read-properties", before_path.to_str().unwrap()]);
        if read.code == 0 {
            assert_eq!(
                after["description"], before["data"]["description"],
                "{name}"
            );
        }
        sandbox
            .json(&["skill", "validate", fixed.to_str().unwrap()])
            .0
            .assert_code(0);
    }
    let moved = properties(&sandbox, &sandbox.join("skills/unknown-keys"));
    assert_eq!(moved["metadata"]["version"], "1.10");
    assert_eq!(moved["metadata"]["owner"], "team-docs");
    assert_eq!(moved["metadata"]["author"], "someone");
    let tools = properties(&sandbox, &sandbox.join("skills/allowed-tools-list"));
    assert_eq!(tools["allowed-tools"], "Read Grep Bash(git:*)");
    let colon = properties(&sandbox, &sandbox.join("skills/quote-colon"));
    assert_eq!(
        colon["description"],
        "Use when: the user asks for a summary"
    );
    let license = properties(&sandbox, &sandbox.join("skills/quote-number"));
    assert_eq!(license["license"], "2.0");

    // Nothing left to fix.
    let (again, envelope) = sandbox.json(&["skill", "fix", "--recursive", "skills"]);
    again.assert_code(0);
    assert_eq!(envelope["data"]["summary"]["changed"], 0);
    // fix, then validate (above), then fmt --check: clean.
    sandbox
        .json(&["skill", "fmt", "--check", "--recursive", "skills"])
        .0
        .assert_code(0);
}

#[test]
fn fix_writes_nothing_when_the_result_would_not_validate() {
    let sandbox = Sandbox::new();
    let text = "---\nname: PDF Tools\nlicense: 2.0\n---\nBody\n";
    let file = sandbox.write("pdf-tools/SKILL.md", text);
    let run = sandbox.run(&[
        "--output",
        "text",
        "--color",
        "never",
        "skill",
        "fix",
        "pdf-tools",
    ]);
    run.assert_code(1);
    assert!(run.stdout.contains("nothing written"), "{run}");
    assert!(run.stdout.contains("left[E009]"), "{run}");
    assert!(
        run.stdout.contains("+name: pdf-tools"),
        "the diff is shown:\n{run}"
    );
    assert!(run.stderr.contains("still invalid"), "{run}");
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    let (_, envelope) = sandbox.json(&["skill", "fix", "pdf-tools"]);
    assert_eq!(envelope["error"]["code"], "FIX_INCOMPLETE");
    assert_eq!(envelope["data"]["files"][0]["status"], "refused");
}

#[test]
fn reports_carry_token_counts_and_a_long_body_warns() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "short/SKILL.md",
        "---\nname: short\ndescription: Says hello.\n---\nhello world",
    );
    // "word" then 5999 times " word": one o200k token each.
    let long_body = format!("word{}", " word".repeat(5999));
    sandbox.write(
        "long/SKILL.md",
        format!("---\nname: long\ndescription: Rambles.\n---\n{long_body}"),
    );
    let (run, envelope) = sandbox.json(&["skill", "validate", "short", "long"]);
    run.assert_code(0);
    let short = &envelope["data"]["skills"][0];
    assert_eq!(short["tokens"]["body"], 2);
    // Counted without the location, which differs from machine to machine.
    let entry = aigent::skill::prompt::PromptSkill {
        name: "short".into(),
        description: "Says hello.".into(),
        location: std::path::PathBuf::new(),
    };
    assert_eq!(
        short["tokens"]["metadata"],
        aigent::skill::tokens::entry_tokens(&entry)
    );
    let long = &envelope["data"]["skills"][1];
    assert_eq!(long["tokens"]["body"], 6000);
    assert_eq!(long["diagnostics"][0]["code"], "W007");
    assert_eq!(long["diagnostics"][0]["line"], 5);
    let strict = sandbox.json(&["skill", "validate", "--strict", "long"]).0;
    strict.assert_code(1);
}

#[test]
fn to_prompt_max_tokens_names_the_total_and_the_largest_entries() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "small/SKILL.md",
        "---\nname: small\ndescription: Tiny.\n---\n",
    );
    let wordy = "Explains everything in detail. ".repeat(20);
    sandbox.write(
        "big/SKILL.md",
        format!("---\nname: big\ndescription: {wordy}\n---\n"),
    );
    let (fits, envelope) = sandbox.json(&[
        "skill",
        "to-prompt",
        "--max-tokens",
        "100000",
        "small",
        "big",
    ]);
    fits.assert_code(0);
    let total = envelope["data"]["tokens"]["total"].as_u64().unwrap();
    assert!(total > 120, "{envelope:#}");

    let limit = (total - 1).to_string();
    let (over, envelope) =
        sandbox.json(&["skill", "to-prompt", "--max-tokens", &limit, "small", "big"]);
    over.assert_code(1);
    let error = &envelope["error"];
    assert_eq!(error["code"], "TOKEN_BUDGET_EXCEEDED");
    assert_eq!(error["total_tokens"], total);
    assert_eq!(error["max_tokens"], total - 1);
    assert_eq!(error["errors"][0]["field"], "big", "largest first");
    assert_eq!(error["errors"][1]["field"], "small");

    let text = sandbox.run(&[
        "--output",
        "text",
        "skill",
        "to-prompt",
        "--max-tokens",
        "10",
        "small",
    ]);
    text.assert_code(1);
    assert!(
        text.stdout.is_empty(),
        "nothing printed over budget:\n{text}"
    );
    assert!(text.stderr.contains("over --max-tokens 10"), "{text}");
}
