//! Programs that only read and print: no option or operand of theirs
//! writes a file, deletes one or runs a program (`ls`, `cat`, `grep`,
//! `wc`, …). A word of theirs known only when the line runs can change
//! which files they read and how they print, nothing else, so two things
//! that are refused for any other program are judged as the static
//! command they stand for:
//!
//! - a glob among their words (`ls -la *.md`), taken as the word written;
//! - `xargs` handing them the words it reads (`find src -name '*.py' |
//!   xargs grep -l TODO`), judged as the command `xargs` starts.
//!
//! The command is still matched against its declaration, so a form the
//! catalog does not declare, or a value it refuses, is refused as before.

use super::paths;
use crate::shell::{NotStatic, SimpleCommand, Word};

/// Read-and-print programs, checked option by option in GNU coreutils,
/// grep and diffutils and their BSD counterparts. Not here: `sort` (`-o`
/// writes, `--compress-program` runs one), `uniq` (its second operand is
/// written), `tree` (`-o`), `file` (`-C` writes), `rg` (`--pre`), `find`,
/// `fd`, `sed`, `awk`, `jq` (`env` prints the environment).
const INERT_PROGRAMS: &[&str] = &[
    "basename",
    "cat",
    "comm",
    "cut",
    "df",
    "diff",
    "dirname",
    "du",
    "echo",
    "egrep",
    "fgrep",
    "grep",
    "head",
    "ls",
    "md5sum",
    "nl",
    "readlink",
    "realpath",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "stat",
    "tac",
    "tail",
    "wc",
];

/// Inert programs that print names, metadata or counts of what they are
/// given, never its contents: a file of secrets they name tells the model
/// nothing it holds. (`grep -l` is not one: its pattern asks a question of
/// the contents.)
const NAMES_ONLY_PROGRAMS: &[&str] = &[
    "basename", "df", "dirname", "du", "echo", "ls", "readlink", "realpath", "stat", "wc",
];

pub(super) fn is_inert(program: &str) -> bool {
    INERT_PROGRAMS.contains(&program)
}

pub(super) fn prints_names_only(program: &str) -> bool {
    NAMES_ONLY_PROGRAMS.contains(&program)
}

/// Whether a file `glob` expands to could look like a file of secrets
/// (`names_secret`, [`super::paths::looks_secret`] from where the command
/// runs), without reading a directory: the names the secret rules know
/// exactly are matched against the glob, and the open families (`.env.*`,
/// `*.pem` …) by the glob's literal start and end. It errs towards yes.
pub(super) fn glob_may_name_secret(glob: &str, names_secret: &dyn Fn(&str) -> bool) -> bool {
    let (directory, last) = match glob.rsplit_once('/') {
        Some((directory, last)) => (&glob[..=directory.len()], last),
        None => ("", glob),
    };
    let secret_parent = directory
        .split('/')
        .filter(|part| has_glob(part))
        .any(|part| {
            SECRET_PARENTS
                .iter()
                .chain(paths::SECRET_DIRECTORIES)
                .any(|name| glob_matches(&part.to_ascii_lowercase(), name))
        });
    if secret_parent || !has_glob(last) {
        return secret_parent || names_secret(glob);
    }
    // The secret rules fold case, and every name they know is lower case.
    let lower = last.to_ascii_lowercase();
    let named = paths::SECRET_FILES
        .iter()
        .chain(SECRET_PARENTS)
        .chain(paths::SECRET_DIRECTORIES)
        .chain(&[".env", "config", "config.json", "hosts.yml"])
        .any(|name| glob_matches(&lower, name) && names_secret(&format!("{directory}{name}")));
    let start = lower.split(['*', '?', '[']).next().unwrap_or_default();
    let end = lower.rsplit(['*', '?', ']']).next().unwrap_or_default();
    // Only a literal dot matches a file name's leading dot in bash.
    let env_family = lower.starts_with('.') && could_overlap(start, ".env.", true);
    let key_family = paths::SECRET_EXTENSIONS
        .iter()
        .any(|extension| could_overlap(end, &format!(".{extension}"), false));
    named || env_family || key_family
}

/// Directories whose `config`-like files the secret rules name.
const SECRET_PARENTS: &[&str] = &[".docker", ".kube", "gh"];

fn has_glob(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

/// Whether a literal start (`at_start`) or end of a glob leaves room for
/// `literal` there: one is a prefix (suffix) of the other.
fn could_overlap(written: &str, literal: &str, at_start: bool) -> bool {
    if at_start {
        written.starts_with(literal) || literal.starts_with(written)
    } else {
        written.ends_with(literal) || literal.ends_with(written)
    }
}

/// Whether bash could expand `glob` to the path `word`: the two have as
/// many `/`-separated parts, and each part matches its glob.
pub(super) fn expands_to(glob: &str, word: &str) -> bool {
    glob.split('/').count() == word.split('/').count()
        && glob
            .split('/')
            .zip(word.split('/'))
            .all(|(glob, name)| glob_matches(glob, name))
}

/// Bash's match of one file name against one glob component (dotglob
/// off), the last `*` alone backtracking: linear enough for the short
/// names matched.
fn glob_matches(glob: &str, name: &str) -> bool {
    let glob: Vec<char> = glob.chars().collect();
    let name: Vec<char> = name.chars().collect();
    if name.first() == Some(&'.') && glob.first() != Some(&'.') {
        return false;
    }
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match glob.get(g) {
            Some('*') => {
                star = Some((g, n));
                g += 1;
                continue;
            }
            Some('?') => {
                g += 1;
                n += 1;
                continue;
            }
            Some('[') => {
                if let Some((matched, next)) = bracket(&glob, g + 1, name[n])
                    && matched
                {
                    g = next;
                    n += 1;
                    continue;
                }
            }
            Some(&literal) if literal == name[n] => {
                g += 1;
                n += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((star_at, from)) => {
                star = Some((star_at, from + 1));
                g = star_at + 1;
                n = from + 1;
            }
            None => return false,
        }
    }
    glob[g..].iter().all(|&c| c == '*')
}

/// A bracket expression from `at` (after its `[`): whether `c` is in it,
/// and where the glob goes on; `None` when it has no closing `]` (then the
/// `[` is a literal, which no secret name holds).
fn bracket(glob: &[char], at: usize, c: char) -> Option<(bool, usize)> {
    let mut i = at;
    let negated = matches!(glob.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    while let Some(&current) = glob.get(i) {
        if current == ']' && !first {
            return Some((found != negated, i + 1));
        }
        first = false;
        if glob.get(i + 1) == Some(&'-') && glob.get(i + 2).is_some_and(|&end| end != ']') {
            found |= (current..=glob[i + 2]).contains(&c);
            i += 3;
        } else {
            found |= current == c;
            i += 1;
        }
    }
    None
}

/// `command` with each glob taken as the word it is written as, when its
/// program is inert, every other word (assignments and redirection
/// targets too) is static, and each glob is plain: letters, digits,
/// `._/-+,:@%=` and the glob characters `*?[]!^`, not starting with `-`
/// (no quoting, variable or brace to read differently).
pub(super) fn globs_as_written(command: &SimpleCommand) -> Option<SimpleCommand> {
    if !is_inert(command.words.first()?.as_static()?) {
        return None;
    }
    if !super::opaque::static_around(command) {
        return None;
    }
    let mut globs = 0;
    let words = command
        .words
        .iter()
        .map(|word| match word {
            Word::Static { .. } => Some(word.clone()),
            Word::Dynamic {
                source,
                why: NotStatic::Glob,
            } if plain_glob(source) => {
                globs += 1;
                Some(Word::Static {
                    text: source.clone(),
                })
            }
            Word::Dynamic { .. } => None,
        })
        .collect::<Option<Vec<Word>>>()?;
    (globs > 0).then(|| SimpleCommand {
        words,
        ..command.clone()
    })
}

fn plain_glob(source: &str) -> bool {
    !source.is_empty()
        && !source.starts_with('-')
        && source.bytes().all(|byte| {
            byte.is_ascii_alphanumeric()
                || matches!(
                    byte,
                    b'.' | b'_'
                        | b'/'
                        | b'-'
                        | b'+'
                        | b','
                        | b':'
                        | b'@'
                        | b'%'
                        | b'='
                        | b'*'
                        | b'?'
                        | b'['
                        | b']'
                        | b'!'
                        | b'^'
                )
        })
}

/// The command `xargs [OPTION]... PROGRAM ARGS...` starts, when every word
/// is static, the options only shape how words are read and batched (`-0`,
/// `-d`, `-r`, `-n`, `-L`, `-P`, `-s`, `-t`, `-x`), and `PROGRAM` is
/// inert. `-I` (words placed anywhere), `-a` (words from a file), `-p` and
/// `-o` (the terminal) and anything else leave `None`.
pub(super) fn xargs_inner(command: &SimpleCommand) -> Option<SimpleCommand> {
    let argv = command.argv()?;
    let (&"xargs", rest) = argv.split_first()? else {
        return None;
    };
    let counted = |word: &str| {
        !word.is_empty() && word.len() <= 9 && word.bytes().all(|byte| byte.is_ascii_digit())
    };
    let delimiter = |word: &str| !word.is_empty() && word.len() <= 4;
    let mut at = 0;
    while let Some(&word) = rest.get(at) {
        let with_value = |short: &str, long: &str, valid: &dyn Fn(&str) -> bool| {
            if word == short || word == long {
                return rest
                    .get(at + 1)
                    .is_some_and(|value| valid(value))
                    .then_some(2);
            }
            let attached = word
                .strip_prefix(short)
                .filter(|value| !value.is_empty())
                .or_else(|| {
                    word.strip_prefix(long)
                        .and_then(|rest| rest.strip_prefix('='))
                });
            attached.is_some_and(valid).then_some(1)
        };
        let taken = match word {
            "-0" | "--null" | "-r" | "--no-run-if-empty" | "-t" | "--verbose" | "-x" | "--exit" => {
                Some(1)
            }
            "--" => {
                at += 1;
                break;
            }
            _ if !word.starts_with('-') => break,
            _ => with_value("-n", "--max-args", &counted)
                .or_else(|| with_value("-L", "--max-lines", &counted))
                .or_else(|| with_value("-P", "--max-procs", &counted))
                .or_else(|| with_value("-s", "--max-chars", &counted))
                .or_else(|| with_value("-d", "--delimiter", &delimiter)),
        };
        at += taken?;
    }
    let program = rest.get(at)?;
    if !is_inert(program) {
        return None;
    }
    Some(super::words_after(command, &argv, 1 + at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell;

    fn first(line: &str) -> SimpleCommand {
        shell::parse(line).unwrap().commands.remove(0)
    }

    #[test]
    fn a_plain_glob_of_an_inert_program_is_taken_as_written() {
        let globbed = globs_as_written(&first("ls -la *.md src/[ab]?.rs .[!.]*")).unwrap();
        assert_eq!(
            globbed.argv().unwrap(),
            ["ls", "-la", "*.md", "src/[ab]?.rs", ".[!.]*"]
        );
    }

    #[test]
    fn a_glob_stays_dynamic_for_another_program_or_beside_another_expansion() {
        for line in [
            "rm *.md",
            "sort -o out *.txt",
            "ls *.md $HOME",
            "ls \"$d\"/*.md",
            "ls -*",
            "ls {a,b}*",
            "ls *.md > $OUT",
            "ls ~/*.md",
            "ls",
        ] {
            assert!(globs_as_written(&first(line)).is_none(), "{line}");
        }
    }

    #[test]
    fn a_glob_that_could_name_a_file_of_secrets_is_known() {
        let never = |_: &str| false;
        let by_name = |path: &str| paths::looks_secret(path);
        for glob in [
            ".en?",
            ".env*",
            ".[!.]*",
            ".e*",
            "*.pem",
            "*.p?m",
            "*",
            "src/*",
            "keys/*.KEY",
            "id_*",
            "~/.s*/known",
            ".[a-z]*",
            "*/id_rsa",
            ".kube/co*",
            "cred*",
            "*.json",
        ] {
            assert!(glob_may_name_secret(glob, &by_name), "{glob}");
        }
        for glob in [
            "*.md",
            "src/*.py",
            "*.yaml",
            "docs/[ab]?.rs",
            "test_*.py",
            "*.lock",
        ] {
            assert!(!glob_may_name_secret(glob, &by_name), "{glob}");
        }
        assert!(!glob_may_name_secret("*.toml", &never));
    }

    #[test]
    fn globs_match_as_bash_matches_a_name() {
        for (glob, name) in [
            ("*.md", "a.md"),
            (".[!.]*", ".env"),
            ("[a-c]x", "bx"),
            ("a*b*c", "aXbYbc"),
            ("?d_rsa", "id_rsa"),
            ("[]]", "]"),
        ] {
            assert!(glob_matches(glob, name), "{glob} {name}");
        }
        for (glob, name) in [
            ("*", ".env"),
            ("?env", ".env"),
            ("[!.]*", ".x"),
            ("a*c", "ab"),
        ] {
            assert!(!glob_matches(glob, name), "{glob} {name}");
        }
    }

    #[test]
    fn xargs_hands_its_words_to_an_inert_program_only() {
        for (line, inner) in [
            ("xargs grep -l TODO", "grep -l TODO"),
            ("xargs -0 -r ls -la", "ls -la"),
            ("xargs -n 1 -P4 --delimiter=, wc -l", "wc -l"),
            ("xargs -- cat", "cat"),
        ] {
            assert_eq!(xargs_inner(&first(line)).unwrap().source, inner, "{line}");
        }
        for line in [
            "xargs rm",
            "xargs sed -i s/a/b/",
            "xargs -I{} cat {}",
            "xargs -a list cat",
            "xargs -p cat",
            "xargs -n x cat",
            "xargs",
            "xargs -0",
            "xargs $P",
        ] {
            assert!(xargs_inner(&first(line)).is_none(), "{line}");
        }
    }
}
