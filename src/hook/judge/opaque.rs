//! Words whose text is known only when the line runs, taken as text where
//! a declaration takes any text.
//!
//! `git commit -m "$(git log -1 --format=%s)"`: the word is not static
//! (a quoted here-document printed by `cat`, the way agents write commit
//! messages, is: see `shell::words`), but bash passes it as exactly one
//! argv word (it is quoted from end to end), the commands inside are
//! judged as segments of their own, and `git-commit` takes any text as
//! `-m`'s value.
//! Such a word matches as a stand-in value; the match counts only when
//! every stand-in lands as the separate value of an option whose parameter
//! is free text with no pattern, so the word can be nothing the
//! declaration does not already accept written out.

use serde_json::{Map, Value};

use super::Segment;
use super::Verdict;
use crate::contract::{ArgvPart, Declaration, FlagForm, ParamType, PatternType};
use crate::shell::{self, NotStatic, SimpleCommand, Word};

/// The stand-in value matched in place of such a word. It is no literal,
/// option or placeholder any declaration names.
pub(super) const OPAQUE_TEXT: &str = "aigent.text.known.when.run";

/// Whether every assignment value and redirection target of `command`
/// is static: only its words are left to judge.
pub(super) fn static_around(command: &SimpleCommand) -> bool {
    command
        .assignments
        .iter()
        .map(|assignment| &assignment.value)
        .chain(command.redirects.iter().map(|redirect| &redirect.target))
        .all(|word| word.as_static().is_some())
}

/// The argv positions of `command`'s words that are not static but are one
/// quoted word expanding only command substitutions; `None` when some
/// other word (the program, an assignment, a redirection target, any other
/// word) is not static, or no word is.
pub(super) fn opaque_positions(command: &SimpleCommand) -> Option<Vec<usize>> {
    let static_around = static_around(command);
    if !static_around || command.words.first()?.as_static().is_none() {
        return None;
    }
    let mut positions = Vec::new();
    for (position, word) in command.words.iter().enumerate().skip(1) {
        if let Word::Dynamic { source, why } = word {
            if *why != NotStatic::CommandSubstitution || !shell::is_one_quoted_word(source) {
                return None;
            }
            positions.push(position);
        }
    }
    (!positions.is_empty()).then_some(positions)
}

/// The positions of the words that are not static, when nothing else of
/// the command is and its program does nothing with them that could
/// matter (whatever they turn out to be):
///
/// - `echo` prints them (an option of echo's only changes how it prints);
/// - `cd` moves the shell, and the line's later commands are then judged
///   as running in a directory the hook cannot know (`cd $(tool dir)`).
///
/// The commands in them are judged as segments of their own
/// (`echo "built at $(date)"`). `None` for another program, or any other
/// expansion (a brace expansion can make more words than memory holds).
pub(super) fn inert_words(command: &SimpleCommand) -> Option<Vec<usize>> {
    let static_around = static_around(command);
    if !static_around || !matches!(command.words.first()?.as_static(), Some("echo" | "cd")) {
        return None;
    }
    let mut positions = Vec::new();
    for (position, word) in command.words.iter().enumerate().skip(1) {
        if let Word::Dynamic { source, why } = word {
            // Only what the line's own commands and variables give: a brace
            // expansion can make more words than memory holds
            // (`{1..100000000}`), so one anywhere in the word refuses it.
            let braces = source.replace("${", "").contains('{');
            if !matches!(
                why,
                NotStatic::CommandSubstitution | NotStatic::ParameterExpansion
            ) || braces
            {
                return None;
            }
            positions.push(position);
        }
    }
    (!positions.is_empty()).then_some(positions)
}

/// Whether a match of `argv` (stand-ins at `positions`) under
/// `declaration` holds whatever text the stand-ins turn out to be: the
/// segment is allowed and not confined (a rewrite into `aigent run` would
/// carry the stand-in), each stand-in follows an option word (so it cannot
/// become an option itself), and each parameter that took one is free text
/// with no pattern, set by a separate option value.
pub(super) fn taken_as_text(
    declaration: &Declaration,
    argv: &[&str],
    positions: &[usize],
    arguments: &Map<String, Value>,
    segment: &Segment,
) -> bool {
    if segment.verdict != Verdict::Allow || segment.confine {
        return false;
    }
    let after_option = positions.iter().all(|&position| {
        position >= 1 && argv[position - 1].starts_with('-') && argv[position - 1] != "--"
    });
    if !after_option {
        return false;
    }
    let mut taken = 0;
    for (name, value) in arguments {
        let held = match value {
            Value::String(text) => usize::from(text == OPAQUE_TEXT),
            Value::Array(items) => items
                .iter()
                .filter(|item| item.as_str() == Some(OPAQUE_TEXT))
                .count(),
            _ => 0,
        };
        if held == 0 {
            continue;
        }
        if !free_text_option(declaration, name) {
            return false;
        }
        taken += held;
    }
    taken == positions.len()
}

/// Whether parameter `name` takes any text, as the separate value of an
/// option.
fn free_text_option(declaration: &Declaration, name: &str) -> bool {
    let Some(parameter) = declaration.parameter(name) else {
        return false;
    };
    let any_text = matches!(parameter.kind, ParamType::String | ParamType::Array)
        && parameter.pattern_type == Some(PatternType::FreeText)
        && parameter.pattern.is_none()
        && parameter.enum_values.is_empty();
    let separate_option = declaration.subprocess.as_ref().is_some_and(|subprocess| {
        subprocess.argv.iter().any(|part| {
            matches!(part, ArgvPart::Param(slot)
                if slot.param == name
                    && slot.flag.is_some()
                    && slot.form == FlagForm::Separate
                    && slot.prefix.is_empty())
        })
    });
    any_text && separate_option
}
