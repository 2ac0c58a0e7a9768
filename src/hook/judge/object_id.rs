//! `git diff $(git merge-base main HEAD)`: a command substitution whose
//! command prints one git object id or nothing. Its word is known only
//! when the line runs, but only as one of two things: a run of hex digits,
//! which no program reads as an option, or no word at all. The command is
//! judged both ways, with an object id standing in and without the word,
//! and the stricter verdict stands.

use crate::shell::{self, NotStatic, SimpleCommand, Word};

/// What stands for the object id: a full SHA-1, as `git merge-base`
/// prints.
pub(super) const STAND_IN: &str = "0123456789abcdef0123456789abcdef01234567";

/// `command` with each `$(…)` word that prints an object id replaced by
/// [`STAND_IN`], and as it runs when they print nothing (no word, or `""`
/// where quoted); `None` unless every word that is
/// not static is such a substitution, written as the whole word.
pub(super) fn both_ways(command: &SimpleCommand) -> Option<(SimpleCommand, SimpleCommand)> {
    if !super::opaque::static_around(command) || command.words.first()?.as_static().is_none() {
        return None;
    }
    let mut with_id = Vec::with_capacity(command.words.len());
    let mut without = Vec::with_capacity(command.words.len());
    let mut found = false;
    for word in &command.words {
        match word {
            Word::Static { .. } => {
                with_id.push(word.clone());
                without.push(word.clone());
            }
            Word::Dynamic {
                source,
                why: NotStatic::CommandSubstitution,
            } => {
                let (before, quoted, after) = around_an_object_id(source)?;
                with_id.push(Word::Static {
                    text: format!("{before}{STAND_IN}{after}"),
                });
                // Printing nothing leaves the rest of the word, or no word
                // when nothing is left outside quotes.
                if quoted || !before.is_empty() || !after.is_empty() {
                    without.push(Word::Static {
                        text: format!("{before}{after}"),
                    });
                }
                found = true;
            }
            Word::Dynamic { .. } => return None,
        }
    }
    found.then(|| {
        (
            SimpleCommand {
                words: with_id,
                words_span: None,
                ..command.clone()
            },
            SimpleCommand {
                words: without,
                words_span: None,
                ..command.clone()
            },
        )
    })
}

/// The plain text before and after the substitution in `source`, and
/// whether it is quoted, when `source` is `BEFORE$(COMMAND)AFTER` or
/// `BEFORE"$(COMMAND)"AFTER` (`$(git merge-base main HEAD)..HEAD`), the
/// text around being revision characters only, and COMMAND prints an
/// object id ([`prints_an_object_id`]).
fn around_an_object_id(source: &str) -> Option<(&str, bool, &str)> {
    let open = source.find("$(")?;
    let close = open + source[open..].find(')')?;
    let (mut before, inner, mut after) = (
        &source[..open],
        &source[open + 2..close],
        &source[close + 1..],
    );
    let quoted = before.ends_with('"');
    if quoted {
        before = &before[..before.len() - 1];
        after = after.strip_prefix('"')?;
    }
    (revision_text(before)
        && revision_text(after)
        && !before.starts_with('-')
        && prints_an_object_id(inner))
    .then_some((before, quoted, after))
}

/// Whether COMMAND is `git [-C DIR]... merge-base REV REV` or `git [-C
/// DIR]... rev-parse [--verify] [-q] [--short] REV`, with plain
/// revisions: such a command prints one object id, or nothing
/// (merge-base, `--verify`), or the revision as written (a rev-parse that
/// cannot resolve it).
fn prints_an_object_id(inner: &str) -> bool {
    let Ok(script) = shell::parse(inner) else {
        return false;
    };
    let [command] = script.commands.as_slice() else {
        return false;
    };
    if !script.constructs.is_empty()
        || !command.assignments.is_empty()
        || !command.redirects.is_empty()
    {
        return false;
    }
    let Some(argv) = command.argv() else {
        return false;
    };
    let plain = |revision: &&str| {
        !revision.is_empty()
            && revision.len() <= 200
            && !revision.starts_with('-')
            && revision_text(revision)
    };
    let Some((&"git", mut rest)) = argv.split_first() else {
        return false;
    };
    while let ["-C", directory, after @ ..] = rest {
        if !plain(directory) {
            return false;
        }
        rest = after;
    }
    match rest {
        ["merge-base", rest @ ..] => rest.len() == 2 && rest.iter().all(plain),
        ["rev-parse", rest @ ..] => {
            let (options, revisions): (Vec<&&str>, Vec<&&str>) =
                rest.iter().partition(|word| word.starts_with('-'));
            revisions.len() == 1
                && revisions.iter().all(|revision| plain(revision))
                && options.iter().all(|option| {
                    matches!(**option, "--verify" | "-q" | "--quiet" | "--short")
                        || option.strip_prefix("--short=").is_some_and(|n| {
                            !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit())
                        })
                })
        }
        _ => false,
    }
}

/// Text made only of the characters git revisions are written with
/// (`main`, `HEAD~1`, `origin/main`, `..`, `@{u}`): nothing a shell or git
/// reads another way.
fn revision_text(text: &str) -> bool {
    text.bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || b"._/~^@{}-".contains(&byte))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_base_and_rev_parse_print_an_object_id() {
        for source in [
            "$(git merge-base main HEAD)",
            "\"$(git merge-base origin/main HEAD)\"",
            "$(git rev-parse HEAD~1)",
            "$(git rev-parse --verify -q --short=8 main)",
            "$(git merge-base main HEAD)..HEAD",
            "\"$(git merge-base main HEAD)\"...HEAD",
            "$(git -C ../other merge-base a b)",
        ] {
            assert!(around_an_object_id(source).is_some(), "{source}");
        }
        for source in [
            "$(git merge-base --all main HEAD)",
            "$(git merge-base main)",
            "$(git rev-parse --abbrev-ref HEAD)",
            "$(git rev-parse --show-toplevel)",
            "$(git rev-parse 'a*')",
            "$(git rev-parse HEAD main)",
            "$(git rev-parse HEAD) x",
            "$(git rev-parse HEAD; id)",
            "$(git rev-parse HEAD > /tmp/x)",
            "$(GIT_DIR=/x git rev-parse HEAD)",
            "$(git -c core.pager=x rev-parse HEAD)",
            "$(cat id)",
            "`git rev-parse HEAD`",
            "--output=$(git rev-parse HEAD)",
            "$(git rev-parse HEAD)$X",
            "\"$(git rev-parse HEAD)..x",
        ] {
            assert!(around_an_object_id(source).is_none(), "{source}");
        }
    }

    #[test]
    fn a_command_is_read_with_an_object_id_and_without_the_word() {
        let script = shell::parse("git diff --stat $(git merge-base main HEAD) -- src").unwrap();
        let command = script
            .commands
            .iter()
            .find(|command| command.words.get(1).and_then(Word::as_static) == Some("diff"))
            .unwrap();
        let (with_id, without) = both_ways(command).unwrap();
        assert_eq!(
            with_id.argv().unwrap(),
            ["git", "diff", "--stat", STAND_IN, "--", "src"]
        );
        assert_eq!(
            without.argv().unwrap(),
            ["git", "diff", "--stat", "--", "src"]
        );
        let script = shell::parse("git log \"$(git merge-base main HEAD)\"..HEAD").unwrap();
        let (with_id, without) = both_ways(&script.commands[1]).unwrap();
        assert_eq!(
            with_id.argv().unwrap(),
            ["git", "log", &format!("{STAND_IN}..HEAD")]
        );
        assert_eq!(without.argv().unwrap(), ["git", "log", "..HEAD"]);
        let script = shell::parse("git diff $(git merge-base main HEAD) $X").unwrap();
        assert!(
            script
                .commands
                .iter()
                .all(|command| both_ways(command).is_none())
        );
    }
}
