//! Hover: the meaning of a diagnostic code (from the code tables) and of
//! a skill's frontmatter key (per profile), as Markdown.

use std::path::Path;

use super::analysis::{Finding, skill_options};
use super::document::{Document, Kind};
use super::keys;
use super::settings::Settings;
use crate::report::Severity;
use crate::skill::Profile;
use crate::skill::place::Places;

/// Every code aigent reports, with its default severity and meaning:
/// skills (E0xx/W0xx/N0xx), declarations (E1xx/W1xx), plugins (Pxxx).
pub fn code_meaning(code: &str) -> Option<(Severity, &'static str)> {
    crate::skill::codes::Code::TABLE
        .iter()
        .chain(crate::contract::codes::Code::TABLE)
        .chain(crate::plugin::codes::Code::TABLE)
        .find(|(known, _, _)| *known == code)
        .map(|(_, severity, meaning)| (*severity, *meaning))
}

/// The profile a skill file is checked with under `settings`: the one
/// given, or the one its place implies, as `skill validate` chooses.
pub fn skill_profile(path: &Path, settings: &Settings) -> Profile {
    let directory = path.parent().unwrap_or(Path::new("."));
    skill_options(settings)
        .choose_profile(directory, &Places::new())
        .profile
}

/// The hover text at byte `column` of 0-based `line`, if any: the code
/// under the cursor, the frontmatter key under it, and the codes of the
/// findings on that line.
pub fn hover(
    document: &Document,
    line: usize,
    column: usize,
    settings: &Settings,
    findings: &[Finding],
) -> Option<String> {
    let text = document.line(line);
    let mut parts = Vec::new();
    let word = word_at(text, column);
    if let Some(word) = word
        && let Some((severity, meaning)) = code_meaning(word)
    {
        parts.push(format!("**{word}** ({severity}): {meaning}"));
    }
    if document.kind == Kind::Skill
        && let Some(path) = &document.path
        && in_frontmatter(document, line)
        && let Some(key) = top_level_key(text)
        && column <= key.len()
    {
        parts.push(keys::describe(key, skill_profile(path, settings)));
    }
    for finding in findings.iter().filter(|finding| finding.line == Some(line)) {
        let code = finding.diagnostic.code;
        if word == Some(code) {
            continue;
        }
        if let Some((_, meaning)) = code_meaning(code) {
            let line = format!("**{code}** ({}): {meaning}", finding.diagnostic.severity);
            if !parts.contains(&line) {
                parts.push(line);
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join("\n\n---\n\n"))
}

/// The word (letters, digits, `_`, `-`) around byte `column` of `line`.
pub fn word_at(line: &str, column: usize) -> Option<&str> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let column = column.min(line.len());
    if !line.is_char_boundary(column) {
        return None;
    }
    let start = line[..column]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(column, |(index, _)| index);
    let end = line[column..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(line.len(), |(index, _)| column + index);
    (start < end).then(|| &line[start..end])
}

/// Whether 0-based `line` is inside the frontmatter: after an opening
/// `---` on the first line and before the closing one (or the end, while
/// the frontmatter is being typed).
pub fn in_frontmatter(document: &Document, line: usize) -> bool {
    let first = document.line(0).trim_start_matches('\u{feff}');
    if first.trim_end() != "---" || line == 0 {
        return false;
    }
    !(1..=line).any(|index| matches!(document.line(index).trim_end(), "---" | "..."))
}

/// The key a top-level frontmatter line writes (`key:` at column 0).
pub fn top_level_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once(':')?;
    let plain = !key.is_empty()
        && !key.starts_with([' ', '\t', '#', '-'])
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    plain.then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_come_from_every_table() {
        assert!(code_meaning("E001").is_some());
        assert!(code_meaning("E101").is_some());
        assert!(code_meaning("P001").is_some());
        assert!(code_meaning("X999").is_none());
    }

    #[test]
    fn words_and_keys() {
        assert_eq!(word_at("see W011 here", 6), Some("W011"));
        assert_eq!(word_at("see W011 here", 4), Some("W011"));
        assert_eq!(word_at("see W011 here", 8), Some("W011"));
        assert_eq!(word_at("  ", 1), None);
        assert_eq!(top_level_key("allowed-tools: Read"), Some("allowed-tools"));
        assert_eq!(top_level_key("  nested: x"), None);
        assert_eq!(top_level_key("# note: x"), None);
    }

    #[test]
    fn the_frontmatter_ends_at_its_fence_or_runs_on_while_typed() {
        let closed = Document::new(None, Kind::Skill, 1, "---\nname: x\n---\nbody: no\n".into());
        assert!(in_frontmatter(&closed, 1));
        assert!(!in_frontmatter(&closed, 3));
        let open = Document::new(None, Kind::Skill, 1, "---\nname: x\ndescr".into());
        assert!(in_frontmatter(&open, 2));
    }
}
