//! The files of a new skill, planned from the answers without touching
//! the disk: `SKILL.md` (frontmatter and a body to fill in) and a starter
//! file in each chosen subdirectory.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use super::{Answers, Resource, ScaffoldError, answer_problems};

/// One file of a planned skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlannedFile {
    /// Relative to the skill directory.
    #[serde(serialize_with = "crate::skill::paths::lossy_path")]
    pub path: PathBuf,
    pub contents: String,
    /// Made executable (a script).
    pub executable: bool,
}

/// The files of a new skill: `SKILL.md`, and a starter file in each chosen
/// subdirectory, which the body links to. Fails when the answers break a
/// rule, so a plan that is returned always validates without warnings.
pub fn plan_files(answers: &Answers) -> Result<Vec<PlannedFile>, ScaffoldError> {
    let problems = answer_problems(answers, None);
    if !problems.is_empty() {
        return Err(ScaffoldError::Invalid { problems });
    }
    let mut files = vec![PlannedFile {
        path: PathBuf::from("SKILL.md"),
        contents: skill_md(answers),
        executable: false,
    }];
    let title = title(answers.name.trim());
    for resource in &answers.resources {
        let contents = match resource {
            Resource::Scripts => script_template(answers.name.trim()),
            Resource::References => reference_template(&title),
            Resource::Assets => asset_template(&title),
        };
        files.push(PlannedFile {
            path: PathBuf::from(resource.starter_file()),
            contents,
            executable: *resource == Resource::Scripts,
        });
    }
    Ok(files)
}

/// The text of `SKILL.md`: the frontmatter, then a body to fill in, with
/// sections for when to use the skill, its steps and examples.
pub fn skill_md(answers: &Answers) -> String {
    let name = answers.name.trim();
    let description = answers.description.trim();
    let mut text = String::from("---\n");
    let mut field = |key: &str, value: &str| {
        let _ = writeln!(text, "{key}: {}", yaml_string(value));
    };
    field("name", name);
    field("description", description);
    if let Some(license) = answers.license() {
        field("license", license);
    }
    if let Some(compatibility) = answers.compatibility() {
        field("compatibility", compatibility);
    }
    if let Some(tools) = answers.allowed_tools() {
        field("allowed-tools", tools);
    }
    text.push_str("---\n\n");
    text.push_str(&body(answers));
    text
}

fn body(answers: &Answers) -> String {
    let title = title(answers.name.trim());
    let description = answers.description.trim();
    // The description is echoed only when Markdown cannot read links or
    // code in it: a `](x)` in it would be a link to a missing file.
    let summary = if is_inert_markdown(description) {
        description.to_owned()
    } else {
        "What this skill does, and when, is in the description above.".to_owned()
    };
    let mut body = format!(
        "# {title}

{summary}

## When to use this skill

Use this skill when:

- the request is about the task described above;
- the user names this skill or its subject directly.

Leave it alone when the request only looks similar: say here which nearby
tasks belong to other skills, so the agent does not load this one by mistake.

## Steps

1. Gather what the task needs first: the files to read, the facts to ask the
   user for, the commands that show the current state.
2. Do the work one concrete action at a time. Name the exact commands, tools
   and file paths, and say what to do when one of them fails.
3. Check the result before reporting it: say what must be true when the task
   is done, and how to verify it.
"
    );
    if let Some(tools) = answers.allowed_tools() {
        let listed = if is_inert_markdown(tools) {
            format!(": {tools}")
        } else {
            " listed in `allowed-tools` above".to_owned()
        };
        let _ = write!(
            body,
            "
This skill may use the tools{listed}.
"
        );
    }
    if answers.resources.contains(&Resource::Scripts) {
        body.push_str(
            "
Run [scripts/run.sh](scripts/run.sh) for the mechanical part of the work
rather than retyping its commands; it prints a usage line when called
without arguments.
",
        );
    }
    body.push_str(
        "
## Examples

**Request:** a typical request, in the words a user would write it.

**What to do:** the steps above applied to it, and the answer or file that
comes out.

**Request:** a request at the edge of this skill's scope.

**What to do:** how to handle it, or which skill to use instead.
",
    );
    let resources: Vec<Resource> = answers.resources.iter().copied().collect();
    if !resources.is_empty() {
        body.push_str("\n## Resources\n\n");
        for resource in resources {
            let file = resource.starter_file();
            let _ = writeln!(body, "- [{file}]({file}): {}.", resource.purpose());
        }
    }
    body
}

/// Text that reads as plain words in Markdown: one line, with nothing that
/// opens a link, a code span or a fence.
fn is_inert_markdown(text: &str) -> bool {
    !text.contains(['[', ']', '`', '~', '<', '>', '\\', '\n', '\r'])
}

/// A heading from a skill name: the name as written. Changing its case
/// would guess wrong for acronyms (`pdf-tools` is not "Pdf tools"), and the
/// author replaces the heading anyway.
fn title(name: &str) -> String {
    name.to_owned()
}

fn script_template(name: &str) -> String {
    format!(
        "#!/usr/bin/env sh
# Helper for the {name} skill: the mechanical part of its steps.
# Usage: scripts/run.sh ARG...
set -eu

if [ \"$#\" -eq 0 ]; then
    echo \"usage: $0 ARG...\" >&2
    exit 2
fi

for arg in \"$@\"; do
    printf 'processing %s\\n' \"$arg\"
done
"
    )
}

fn reference_template(title: &str) -> String {
    format!(
        "# {title}: reference

Detail that the steps in SKILL.md need only sometimes. An agent reads this
file when a step links to it, so SKILL.md stays short while long tables,
API notes, formats and edge cases live here.

## Contents

- Terms and formats the steps rely on.
- Commands and options, with an example of each.
- Known failure modes and what to do about them.
"
    )
}

fn asset_template(title: &str) -> String {
    format!(
        "# {title}: output template

A file the skill copies and fills in rather than writing from scratch.
Replace this text with the template itself, and mark each field to fill in
with a clear name in capitals, such as TITLE or DATE.
"
    )
}

/// `value` as a YAML scalar that reads back as exactly the same string:
/// plain when that is unambiguous, double-quoted with escapes otherwise.
pub fn yaml_string(value: &str) -> String {
    if is_plain_safe(value) {
        return value.to_owned();
    }
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for c in value.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                let code = u32::from(c);
                if code <= 0xff {
                    let _ = write!(quoted, "\\x{code:02x}");
                } else {
                    let _ = write!(quoted, "\\u{code:04x}");
                }
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Conservative: a letter first, then only letters, digits, spaces and
/// punctuation that means nothing to YAML inside a plain scalar, and not a
/// word YAML reads as a boolean or null.
fn is_plain_safe(value: &str) -> bool {
    const KEYWORDS: [&str; 9] = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"];
    let Some(first) = value.chars().next() else {
        return false;
    };
    first.is_alphabetic()
        && !value.ends_with(' ')
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || " -_.,()/+';".contains(c))
        && !KEYWORDS.contains(&value.to_ascii_lowercase().as_str())
}
