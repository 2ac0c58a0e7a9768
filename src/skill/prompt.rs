//! `to-prompt`: the `<available_skills>` block that agents load into their
//! system prompt, in the reference implementation's layout: one element per
//! line, values on their own lines, `<location>` the absolute path of the
//! skill file.
//!
//! Where we deliberately differ: the reference escapes `name` and
//! `description` but not `location`. We escape all three, since a path may
//! hold `&` or `<` and the block must stay well-formed XML.

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use super::properties::{PropertiesError, ReadSkill, read_properties};
use crate::report::escape::is_unsafe_for_terminal;

/// One `<skill>` element.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PromptSkill {
    pub name: String,
    pub description: String,
    #[serde(serialize_with = "super::paths::lossy_path")]
    pub location: PathBuf,
}

/// Reads every skill, failing on the first that cannot be read (as the
/// reference does: a partial block would silently hide a skill).
pub fn prompt_skills(paths: &[PathBuf]) -> Result<Vec<PromptSkill>, PropertiesError> {
    paths.iter().map(|path| prompt_skill(path)).collect()
}

fn prompt_skill(path: &Path) -> Result<PromptSkill, PropertiesError> {
    let ReadSkill {
        file,
        directory,
        properties,
    } = read_properties(path)?;
    let absolute_directory = fs::canonicalize(&directory).unwrap_or(directory);
    let location = match file.file_name() {
        Some(file_name) => absolute_directory.join(file_name),
        None => file,
    };
    Ok(PromptSkill {
        name: properties.name,
        description: properties.description,
        location,
    })
}

/// The XML block, without a final newline (as the reference returns it).
pub fn render_prompt(skills: &[PromptSkill]) -> String {
    let mut lines: Vec<Cow<'_, str>> = vec![Cow::Borrowed("<available_skills>")];
    for skill in skills {
        lines.push(Cow::Borrowed("<skill>"));
        for (tag, value) in [
            ("name", escape_xml(&skill.name)),
            ("description", escape_xml(&skill.description)),
            (
                "location",
                escape_xml(&skill.location.to_string_lossy())
                    .into_owned()
                    .into(),
            ),
        ] {
            lines.push(Cow::Owned(format!("<{tag}>")));
            lines.push(value);
            lines.push(Cow::Owned(format!("</{tag}>")));
        }
        lines.push(Cow::Borrowed("</skill>"));
    }
    lines.push(Cow::Borrowed("</available_skills>"));
    lines.join("\n")
}

/// Escapes the five characters Python's `html.escape` escapes, the same
/// way, so the output matches the reference byte for byte; and, unlike
/// the reference, control, bidirectional and invisible characters other
/// than tabs and line breaks as character references (`&#x1b;`), so that
/// the block cannot act on the terminal it is printed to.
pub fn escape_xml(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| c != '\n' && c != '\t' && is_unsafe_for_terminal(c);
    if !text.contains(['&', '<', '>', '"', '\'']) && !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#x27;"),
            c if hidden(c) => escaped.push_str(&format!("&#x{:x};", u32::from(c))),
            other => escaped.push(other),
        }
    }
    Cow::Owned(escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_reference() {
        let skills = [PromptSkill {
            name: "pdf".into(),
            description: "Use <b> & \"q\" 'x'".into(),
            location: PathBuf::from("/s/pdf/SKILL.md"),
        }];
        assert_eq!(
            render_prompt(&skills),
            "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nUse &lt;b&gt; &amp; &quot;q&quot; &#x27;x&#x27;\n</description>\n<location>\n/s/pdf/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
        assert_eq!(
            render_prompt(&[]),
            "<available_skills>\n</available_skills>"
        );
    }

    #[test]
    fn terminal_controls_become_character_references() {
        assert_eq!(
            escape_xml("a\u{1b}[2J\u{202e}b\n\tc"),
            "a&#x1b;[2J&#x202e;b\n\tc"
        );
    }
}
