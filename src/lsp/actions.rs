//! Code actions: `skill fix` and `skill fmt` on the open text, and the
//! suggestion a finding makes ("did you mean `x`?"), each as one edit.

use std::path::Path;

use super::analysis::Finding;
use super::document::{Document, Kind};
use super::hover::skill_profile;
use super::settings::Settings;
use crate::skill::check::{LinkRoot, directory_name};
use crate::skill::rewrite::fix::{FixContext, fix_text};
use crate::skill::rewrite::fmt::format_proposal;
use crate::skill::source::FileSystem;

/// One edit: bytes `start..end` of the document become `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    /// Repairs findings (`skill fix`, a suggestion).
    QuickFix,
    /// Rewrites the file without a finding to repair (`skill fmt`).
    Format,
}

/// One code action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub kind: ActionKind,
    pub edit: Edit,
    /// The codes of the findings it repairs.
    pub fixes: Vec<&'static str>,
}

/// The actions for the findings `wanted` (those the client asks about)
/// among `findings` (all of the document's).
pub fn actions(
    document: &Document,
    settings: &Settings,
    findings: &[Finding],
    wanted: &[&Finding],
) -> Vec<Action> {
    let mut actions: Vec<Action> = wanted
        .iter()
        .filter_map(|finding| suggestion(document, finding))
        .collect();
    if document.kind == Kind::Skill
        && let Some(path) = &document.path
        && document.oversized().is_none()
    {
        actions.extend(fix(document, path, settings, findings));
        actions.extend(format(document, path));
    }
    actions
}

/// `skill fix`'s repairs, as the CLI makes them (formatting included), when
/// it would write: offered for the findings it makes go away.
fn fix(
    document: &Document,
    path: &Path,
    settings: &Settings,
    findings: &[Finding],
) -> Option<Action> {
    let directory = path.parent().unwrap_or(Path::new("."));
    let directory_name = directory_name(directory);
    let proposal = fix_text(
        document.text(),
        FixContext {
            directory_name: directory_name.as_deref(),
            profile: skill_profile(path, settings),
            links: Some(LinkRoot {
                source: &FileSystem,
                directory,
            }),
            format: true,
        },
    );
    if proposal.refused.is_some() || proposal.text == document.text() {
        return None;
    }
    let fixes: Vec<&'static str> = findings
        .iter()
        .map(|finding| finding.diagnostic.code)
        .filter(|code| !proposal.left.iter().any(|left| left.code == *code))
        .collect();
    let what: Vec<&str> = proposal
        .repairs
        .iter()
        .map(|repair| repair.message.as_str())
        .collect();
    Some(Action {
        title: format!("aigent skill fix: {}", what.join("; ")),
        kind: ActionKind::QuickFix,
        edit: minimal_edit(document.text(), &proposal.text),
        fixes,
    })
}

/// `skill fmt`'s canonical frontmatter, when it changes the text and
/// would write.
fn format(document: &Document, path: &Path) -> Option<Action> {
    let edit = format_edit(document, path)?;
    Some(Action {
        title: "aigent skill fmt: put the frontmatter in canonical form".to_owned(),
        kind: ActionKind::Format,
        edit,
        fixes: Vec::new(),
    })
}

/// `skill fmt` on a skill file's text, as one edit; `None` when it
/// changes nothing or would not write.
pub fn format_edit(document: &Document, path: &Path) -> Option<Edit> {
    if document.kind != Kind::Skill || document.oversized().is_some() {
        return None;
    }
    let directory_name = directory_name(path.parent().unwrap_or(Path::new(".")));
    let proposal = format_proposal(document.text(), directory_name.as_deref()).ok()?;
    if proposal.refused.is_some() || proposal.text == document.text() {
        return None;
    }
    Some(minimal_edit(document.text(), &proposal.text))
}

/// A finding's "did you mean `right`?": its first quoted word, `wrong`,
/// replaced by `right` where it is written on the finding's line.
fn suggestion(document: &Document, finding: &Finding) -> Option<Action> {
    let message = &finding.diagnostic.message;
    let (_, after) = message.rsplit_once("did you mean ")?;
    let right = quoted(after)?;
    let wrong = quoted(message)?;
    if wrong == right || right.contains(['{', '}']) {
        return None;
    }
    let line = finding.line?;
    let text = document.line(line);
    let column = find_word(text, wrong)?;
    let start = document.offset(
        lsp_types::Position::new(u32::try_from(line).ok()?, 0),
        super::document::Encoding::Utf8,
    ) + column;
    Some(Action {
        title: format!("Replace `{wrong}` with `{right}`"),
        kind: ActionKind::QuickFix,
        edit: Edit {
            start,
            end: start + wrong.len(),
            text: right.to_owned(),
        },
        fixes: vec![finding.diagnostic.code],
    })
}

/// The first word in `text` quoted with backticks or single quotes.
fn quoted(text: &str) -> Option<&str> {
    let open = text.find(['`', '\''])?;
    let quote = text[open..].chars().next()?;
    let rest = &text[open + 1..];
    let close = rest.find(quote)?;
    Some(&rest[..close]).filter(|word| !word.is_empty())
}

/// Where `word` stands in `line` as a whole word (not inside a longer one).
fn find_word(line: &str, word: &str) -> Option<usize> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    line.match_indices(word)
        .map(|(index, _)| index)
        .find(|&index| {
            let before = line[..index].chars().next_back();
            let after = line[index + word.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
}

/// The one edit turning `old` into `new`: what lies between their common
/// start and common end.
pub fn minimal_edit(old: &str, new: &str) -> Edit {
    let prefix = old
        .char_indices()
        .zip(new.chars())
        .find(|((_, a), b)| a != b)
        .map_or(old.len().min(new.len()), |((index, _), _)| index);
    let max_suffix = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .chars()
        .rev()
        .zip(new.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum::<usize>();
    while suffix > max_suffix
        || !old.is_char_boundary(old.len() - suffix)
        || !new.is_char_boundary(new.len() - suffix)
    {
        suffix -= 1;
    }
    Edit {
        start: prefix,
        end: old.len() - suffix,
        text: new[prefix..new.len() - suffix].to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Diagnostic;

    fn apply(old: &str, edit: &Edit) -> String {
        format!("{}{}{}", &old[..edit.start], edit.text, &old[edit.end..])
    }

    #[test]
    fn minimal_edits_rebuild_the_new_text() {
        for (old, new) in [
            ("abc", "abc"),
            ("abc", "abXc"),
            ("aaaa", "aa"),
            ("", "new"),
            ("é😀x", "é😀yx"),
            ("xyz", ""),
            ("aba", "aa"),
        ] {
            let edit = minimal_edit(old, new);
            assert_eq!(apply(old, &edit), new, "{old:?} -> {new:?}: {edit:?}");
        }
        let edit = minimal_edit("name: a\ndescription: b\n", "name: a\ndescription: \"b\"\n");
        assert_eq!(edit.text, "\"b\"");
    }

    #[test]
    fn suggestions_replace_the_quoted_word_on_its_line() {
        let document = Document::new(
            None,
            Kind::Declaration,
            1,
            "name: x\nparameters:\n  v:\n    pattern_tpye: semver\n".into(),
        );
        let finding = Finding {
            diagnostic: Diagnostic::new(
                crate::contract::codes::Code::UnknownField,
                "unknown field `pattern_tpye`; did you mean `pattern_type`?",
            ),
            line: Some(3),
        };
        let action = suggestion(&document, &finding).unwrap();
        assert_eq!(
            apply(document.text(), &action.edit),
            "name: x\nparameters:\n  v:\n    pattern_type: semver\n"
        );
        let skill = Finding {
            diagnostic: Diagnostic::new(
                crate::skill::codes::Code::UnknownKey,
                "unknown frontmatter key 'allowed_tools' (profile standard); did you mean 'allowed-tools'?",
            ),
            line: Some(0),
        };
        let document = Document::new(None, Kind::Skill, 1, "allowed_tools: Read\n".into());
        let action = suggestion(&document, &skill).unwrap();
        assert_eq!(action.edit.text, "allowed-tools");
        assert_eq!((action.edit.start, action.edit.end), (0, 13));
        let none = Finding {
            diagnostic: Diagnostic::new(
                crate::contract::codes::Code::UnknownField,
                "unknown field `zzz`",
            ),
            line: Some(0),
        };
        assert!(suggestion(&document, &none).is_none());
    }
}
