//! The `<available_skills>` listing as text: one `<skill>` element per
//! skill, each value escaped. Pure rendering, with no file access, so that
//! validation can count what a skill adds to the listing ([`super::tokens`])
//! and `to-prompt` ([`super::prompt`]) can print it.

use std::borrow::Cow;
use std::path::PathBuf;

use crate::report::escape::is_unsafe_for_terminal;

/// One `<skill>` element.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PromptSkill {
    pub name: String,
    pub description: String,
    #[serde(serialize_with = "super::paths::lossy_path")]
    pub location: PathBuf,
}

/// The XML block, without a final newline (as the reference returns it).
pub fn render_prompt(skills: &[PromptSkill]) -> String {
    let mut block = String::from("<available_skills>\n");
    for skill in skills {
        block.push_str(&render_skill_entry(skill));
        block.push('\n');
    }
    block.push_str("</available_skills>");
    block
}

/// One `<skill>` element of the block, without a final newline.
pub fn render_skill_entry(skill: &PromptSkill) -> String {
    let mut entry = String::new();
    push_skill_entry(
        &mut entry,
        &skill.name,
        &skill.description,
        &skill.location.to_string_lossy(),
    );
    entry
}

/// Appends one `<skill>` element, without a final newline, to `out`: the
/// tags on lines of their own around each escaped value. Written in
/// place, so that counting an entry's tokens copies each value once.
pub fn push_skill_entry(out: &mut String, name: &str, description: &str, location: &str) {
    out.reserve(name.len() + description.len() + location.len() + 80);
    out.push_str("<skill>\n<name>\n");
    push_escaped_xml(out, name);
    out.push_str("\n</name>\n<description>\n");
    push_escaped_xml(out, description);
    out.push_str("\n</description>\n<location>\n");
    push_escaped_xml(out, location);
    out.push_str("\n</location>\n</skill>");
}

/// Escapes the five characters Python's `html.escape` escapes, the same
/// way, so the output matches the reference byte for byte; and, unlike
/// the reference, control, bidirectional and invisible characters other
/// than tabs and line breaks as character references (`&#x1b;`), so that
/// the block cannot act on the terminal it is printed to.
pub fn escape_xml(text: &str) -> Cow<'_, str> {
    if is_plain_ascii(text) || !text.is_ascii() && !needs_escaping(text) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    push_escaped_xml(&mut escaped, text);
    Cow::Owned(escaped)
}

/// [`escape_xml`] of `text`, appended to `out`.
fn push_escaped_xml(out: &mut String, text: &str) {
    if text.is_ascii() {
        // Runs of plain bytes are copied whole (all of a plain text);
        // each character that needs it is escaped as below.
        let mut run = 0;
        for (at, byte) in text.bytes().enumerate() {
            let plain = matches!(byte, b' '..=b'~' | b'\n' | b'\t')
                && !matches!(byte, b'&' | b'<' | b'>' | b'"' | b'\'');
            if plain {
                continue;
            }
            out.push_str(&text[run..at]);
            push_escaped(out, char::from(byte));
            run = at + 1;
        }
        out.push_str(&text[run..]);
    } else if needs_escaping(text) {
        escape_chars(text, out);
    } else {
        out.push_str(text);
    }
}

/// Whether any character of `text` is written otherwise than as it is.
fn needs_escaping(text: &str) -> bool {
    let hidden = |c: char| c != '\n' && c != '\t' && is_unsafe_for_terminal(c);
    text.contains(['&', '<', '>', '"', '\'']) || text.chars().any(hidden)
}

/// [`escape_xml`] character by character.
fn escape_chars(text: &str, escaped: &mut String) {
    let hidden = |c: char| c != '\n' && c != '\t' && is_unsafe_for_terminal(c);
    for c in text.chars() {
        match c {
            '&' | '<' | '>' | '"' | '\'' => push_escaped(escaped, c),
            c if hidden(c) => push_escaped(escaped, c),
            other => escaped.push(other),
        }
    }
}

/// One character of [`escape_xml`]'s that is not written as it is.
fn push_escaped(escaped: &mut String, c: char) {
    match c {
        '&' => escaped.push_str("&amp;"),
        '<' => escaped.push_str("&lt;"),
        '>' => escaped.push_str("&gt;"),
        '"' => escaped.push_str("&quot;"),
        '\'' => escaped.push_str("&#x27;"),
        c => escaped.push_str(&format!("&#x{:x};", u32::from(c))),
    }
}

/// Printable ASCII, tabs and line breaks, none of them escaped: most
/// names and descriptions, told in one pass over the bytes.
fn is_plain_ascii(text: &str) -> bool {
    text.bytes().all(|byte| {
        matches!(byte, b' '..=b'~' | b'\n' | b'\t')
            && !matches!(byte, b'&' | b'<' | b'>' | b'"' | b'\'')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The element as it was first written: one line per tag and value,
    /// each value escaped on its own.
    fn entry_by_lines(skill: &PromptSkill) -> String {
        let location = skill.location.to_string_lossy();
        let mut lines = vec!["<skill>".to_owned()];
        for (tag, value) in [
            ("name", skill.name.as_str()),
            ("description", skill.description.as_str()),
            ("location", location.as_ref()),
        ] {
            lines.push(format!("<{tag}>"));
            let mut escaped = String::new();
            escape_chars(value, &mut escaped);
            lines.push(escaped);
            lines.push(format!("</{tag}>"));
        }
        lines.push("</skill>".to_owned());
        lines.join("\n")
    }

    proptest::proptest! {
        #[test]
        fn an_entry_is_its_lines(
            name in "[ -~\t\n]{0,12}|.{0,8}",
            description in "[ -~\t\n]{0,40}|.{0,20}",
            location in "[ -~]{0,20}|.{0,10}",
        ) {
            let skill = PromptSkill { name, description, location: PathBuf::from(location) };
            proptest::prop_assert_eq!(render_skill_entry(&skill), entry_by_lines(&skill));
            let mut escaped = String::new();
            escape_chars(&skill.description, &mut escaped);
            proptest::prop_assert_eq!(escape_xml(&skill.description), escaped);
        }
    }

    #[test]
    fn ascii_escapes_as_character_by_character() {
        let every: String = (0u8..128).map(char::from).collect();
        for text in [
            every.as_str(),
            "it's <b>\"x\"</b> & more\r\n\t",
            "plain text",
        ] {
            let mut slow = String::new();
            escape_chars(text, &mut slow);
            assert_eq!(escape_xml(text), slow, "{text:?}");
        }
        assert_eq!(escape_xml("a\u{1b}b"), "a&#x1b;b");
        assert_eq!(escape_xml("é<\u{202e}"), "é&lt;&#x202e;");
    }
}
