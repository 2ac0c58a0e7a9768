//! `aigent skill read-properties` and `aigent skill to-prompt`: the same
//! content as the reference implementation.

use crate::common::{Run, Sandbox};
use serde_json::json;

fn write_skill(sandbox: &Sandbox, dir: &str, frontmatter: &str) {
    sandbox.write(
        format!("{dir}/SKILL.md"),
        format!("---\n{frontmatter}\n---\nBody.\n"),
    );
}

#[test]
fn read_properties_prints_the_reference_keys_in_order() {
    let sandbox = Sandbox::new();
    write_skill(
        &sandbox,
        "pdf",
        "metadata:\n  version: 1.0\n  author: me\nallowed-tools: [Read, Bash(git:*)]\ncompatibility: Linux\nlicense: MIT\ndescription: '  Reads PDFs.  '\nname: pdf\nmodel: opus",
    );
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "pdf"]);
    run.assert_code(0);
    let data = &envelope["data"];
    assert_eq!(
        *data,
        json!({
            "name": "pdf",
            "description": "Reads PDFs.",
            "license": "MIT",
            "compatibility": "Linux",
            "allowed-tools": "Read Bash(git:*)",
            "metadata": {"version": "1.0", "author": "me"},
            // The skill author's text, marked as such (REQ-F-035).
            "_source": "external",
            "_trusted": false,
        })
    );
    let keys: Vec<&String> = data.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "name",
            "description",
            "license",
            "compatibility",
            "allowed-tools",
            "metadata",
            "_source",
            "_trusted"
        ]
    );
}

#[test]
fn read_properties_leaves_out_absent_keys_and_prints_json_text() {
    let sandbox = Sandbox::new();
    write_skill(&sandbox, "a", "name: a\ndescription: d\nmetadata: {}");
    let run = sandbox.run(&["--output", "text", "skill", "read-properties", "a/SKILL.md"]);
    run.assert_code(0);
    assert_eq!(
        run.stdout,
        "{\n  \"name\": \"a\",\n  \"description\": \"d\"\n}\n"
    );
}

#[test]
fn read_properties_accepts_lowercase_skill_md() {
    let sandbox = Sandbox::new();
    sandbox.write("b/skill.md", "---\nname: b\ndescription: d\n---\n");
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "b"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["name"], "b");
}

#[test]
fn read_properties_failures() {
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "missing"]);
    run.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NOT_FOUND");

    // The whole error envelope: INVALID_SKILL, with every finding (E015).
    sandbox.write("plain/SKILL.md", "no frontmatter\n");
    let run = sandbox.run(&["--output", "json", "skill", "read-properties", "plain"]);
    run.assert_code(1);
    crate::assert_envelope!(&sandbox, &run);

    write_skill(&sandbox, "noname", "description: d");
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "noname"]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["errors"][0]["field"], "name");

    // Text: nothing on stdout, the problem on stderr.
    let run = sandbox.run(&["--output", "text", "skill", "read-properties", "noname"]);
    run.assert_code(1);
    crate::assert_session!(&sandbox, &run);
}

#[test]
fn to_prompt_matches_the_reference_layout() {
    let sandbox = Sandbox::new();
    write_skill(
        &sandbox,
        "a",
        "name: a\ndescription: Use <b> & \"quotes\" 'here'",
    );
    write_skill(&sandbox, "b", "name: b\ndescription: Second.");
    let root = std::fs::canonicalize(sandbox.path()).unwrap();
    let run = sandbox.run(&["--output", "text", "skill", "to-prompt", "a", "b/SKILL.md"]);
    run.assert_code(0);
    let expected = format!(
        "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nUse &lt;b&gt; &amp; &quot;quotes&quot; &#x27;here&#x27;\n</description>\n<location>\n{a}\n</location>\n</skill>\n<skill>\n<name>\nb\n</name>\n<description>\nSecond.\n</description>\n<location>\n{b}\n</location>\n</skill>\n</available_skills>\n",
        a = root.join("a/SKILL.md").display(),
        b = root.join("b/SKILL.md").display(),
    );
    assert_eq!(run.stdout, expected);
}

#[test]
fn to_prompt_escapes_the_location_too() {
    let sandbox = Sandbox::new();
    write_skill(&sandbox, "r&d", "name: r&d\ndescription: d");
    let run = sandbox.run(&["--output", "text", "skill", "to-prompt", "r&d"]);
    run.assert_code(0);
    assert!(run.stdout.contains("/r&amp;d/SKILL.md\n"), "{run}");
}

#[test]
fn to_prompt_json_carries_the_xml_and_the_skills() {
    let sandbox = Sandbox::new();
    write_skill(&sandbox, "a", "name: a\ndescription: d");
    let (run, envelope) = sandbox.json(&["skill", "to-prompt", "a"]);
    run.assert_code(0);
    let xml = envelope["data"]["xml"].as_str().unwrap();
    assert!(xml.starts_with("<available_skills>\n<skill>\n<name>\na\n</name>"));
    assert_eq!(envelope["data"]["skills"][0]["name"], "a");
    let location = envelope["data"]["skills"][0]["location"].as_str().unwrap();
    assert!(std::path::Path::new(location).is_absolute());
}

#[test]
fn to_prompt_fails_on_the_first_unreadable_skill() {
    let sandbox = Sandbox::new();
    write_skill(&sandbox, "a", "name: a\ndescription: d");
    let (run, _) = sandbox.json(&["skill", "to-prompt", "a", "nope"]);
    run.assert_code(5);
    let (run, _) = sandbox.json(&["skill", "to-prompt"]);
    run.assert_code(2);
}

/// `allowed-tools` of a type the spec does not allow is a warning for
/// `validate` (W006), so `read-properties` and `to-prompt` print it rather
/// than fail, as the reference does.
#[test]
fn allowed_tools_of_another_type_are_printed() {
    let sandbox = Sandbox::new();
    for (dir, yaml, printed) in [
        ("n", "5", "5"),
        ("l", "[Read, 5]", "Read 5"),
        ("b", "true", "true"),
    ] {
        write_skill(
            &sandbox,
            dir,
            &format!("name: {dir}\ndescription: d\nallowed-tools: {yaml}"),
        );
        let (run, envelope) = sandbox.json(&["skill", "read-properties", dir]);
        run.assert_code(0);
        assert_eq!(envelope["data"]["allowed-tools"], printed, "{run}");
        sandbox.json(&["skill", "to-prompt", dir]).0.assert_code(0);
        let (run, envelope) = sandbox.json(&["skill", "validate", dir]);
        run.assert_code(0);
        assert_eq!(
            envelope["data"]["skills"][0]["diagnostics"][0]["code"], "W006",
            "{run}"
        );
    }
}

/// Scalars print as written, as the reference (strictyaml) prints them.
#[test]
fn read_properties_prints_scalars_as_written() {
    let sandbox = Sandbox::new();
    write_skill(
        &sandbox,
        "s",
        "name: s\ndescription: d\nlicense: 1.10\ncompatibility:\nmetadata:\n  build: 012\n  big: 123456789012345678901234567890\n  huge: 1e400\n  nan: .NaN\n  n: 1_000\n  yes: True",
    );
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "s"]);
    run.assert_code(0);
    assert_eq!(
        envelope["data"],
        json!({
            "name": "s",
            "description": "d",
            "license": "1.10",
            "compatibility": "",
            "metadata": {
                "build": "012",
                "big": "123456789012345678901234567890",
                "huge": "1e400",
                "nan": ".NaN",
                "n": "1_000",
                "yes": "True"
            },
            "_source": "external",
            "_trusted": false,
        }),
        "{run}"
    );
}

/// Non-finite floats are numbers like `1e3`: a description of `.nan` is
/// not a string.
#[test]
fn a_non_finite_description_is_a_number() {
    let sandbox = Sandbox::new();
    for (dir, description) in [("a", ".nan"), ("b", ".inf"), ("c", "1e3")] {
        write_skill(
            &sandbox,
            dir,
            &format!("name: {dir}\ndescription: {description}"),
        );
        let (run, envelope) = sandbox.json(&["skill", "validate", dir]);
        run.assert_code(1);
        assert_eq!(
            envelope["data"]["skills"][0]["diagnostics"][0]["message"],
            "description must be a string, found a number",
            "{run}"
        );
    }
}

/// A repeated key makes the reference's reader fail; so does ours.
#[test]
fn read_properties_refuses_duplicate_keys() {
    let sandbox = Sandbox::new();
    write_skill(&sandbox, "d", "name: d\ndescription: one\ndescription: two");
    let (run, envelope) = sandbox.json(&["skill", "read-properties", "d"]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["errors"][0]["code"], "E020", "{run}");
}

/// Characters a terminal acts on are escaped in text output; the JSON
/// value stays the same.
#[test]
fn terminal_controls_are_escaped_in_text_output() {
    let sandbox = Sandbox::new();
    write_skill(
        &sandbox,
        "t",
        "name: t\ndescription: \"del\\x7f csi\\x9b rlo\\u202Eevil esc\\e[2J\"",
    );
    let run = sandbox.run(&["--output", "text", "skill", "read-properties", "t"]);
    run.assert_code(0);
    let unsafe_char =
        |c: char| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c);
    assert!(!run.stdout.chars().any(unsafe_char), "{run}");
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        value["description"],
        "del\u{7f} csi\u{9b} rlo\u{202e}evil esc\u{1b}[2J"
    );

    let run = sandbox.run(&["--output", "text", "skill", "to-prompt", "t"]);
    run.assert_code(0);
    assert!(!run.stdout.chars().any(unsafe_char), "{run}");
    assert!(
        run.stdout
            .contains("del&#x7f; csi&#x9b; rlo&#x202e;evil esc&#x1b;[2J"),
        "{run}"
    );
}

#[test]
fn to_prompt_recursive_lists_every_skill_below_once() {
    let sandbox = Sandbox::new();
    sandbox.write("skills/b/SKILL.md", "---\nname: b\ndescription: B.\n---\n");
    sandbox.write("skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\n");
    sandbox.write(
        "skills/node_modules/x/SKILL.md",
        "---\nname: x\ndescription: X.\n---\n",
    );
    let (run, envelope) =
        sandbox.json(&["skill", "to-prompt", "--recursive", "skills", "skills/a"]);
    run.assert_code(0);
    let names: Vec<&str> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b"]);
    sandbox.write("empty/README.md", "x");
    let (run, envelope) = sandbox.json(&["skill", "to-prompt", "-r", "empty"]);
    run.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NO_SKILLS_FOUND");
    let (run, envelope) = sandbox.json(&["skill", "to-prompt", "-r", "nowhere"]);
    run.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NOT_FOUND");
}

#[test]
fn documents_are_written_bare_unless_format_json_is_given() {
    let sandbox = Sandbox::new();
    sandbox.write("a/SKILL.md", "---\nname: a\ndescription: A.\n---\n");
    // stdout is a pipe here: the block, not an envelope.
    let run = sandbox.run(&["skill", "to-prompt", "a"]);
    run.assert_code(0);
    assert!(run.stdout.starts_with("<available_skills>\n"), "{run}");
    let run = Run::of(
        sandbox
            .cmd()
            .env("AIGENT_OUTPUT", "json")
            .args(["skill", "to-prompt", "a"]),
    );
    assert!(run.stdout.starts_with("<available_skills>\n"), "{run}");
    let (_, envelope) = sandbox.json(&["skill", "to-prompt", "a"]);
    assert!(
        envelope["data"]["xml"]
            .as_str()
            .unwrap()
            .starts_with("<available_skills>")
    );

    // fmt --diff into a pipe: the patch alone.
    sandbox.write("b/SKILL.md", "---\ndescription: B.\nname: b\n---\nBody\n");
    let run = sandbox.run(&["skill", "fmt", "--diff", "b"]);
    run.assert_code(1);
    assert!(
        run.stdout
            .starts_with("--- a/b/SKILL.md\n+++ b/b/SKILL.md\n@@"),
        "{run}"
    );
    assert!(!run.stdout.contains("would format"), "{run}");
    assert!(run.stderr.contains("would be reformatted"), "{run}");
    let (_, envelope) = sandbox.json(&["skill", "fmt", "--diff", "b"]);
    assert_eq!(envelope["data"]["files"][0]["status"], "would-write");

    // completions: the script, or with --output json the envelope.
    let run = sandbox.run(&["completions", "bash"]);
    assert!(!run.stdout.starts_with('{'), "{run}");
    let (_, envelope) = sandbox.json(&["completions", "bash"]);
    assert_eq!(envelope["data"]["shell"], "bash");
    assert!(!envelope["data"]["script"].as_str().unwrap().is_empty());
}
