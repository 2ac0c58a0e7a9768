//! E115: a subprocess that hands a command string to a shell or to an
//! interpreter, which undoes everything the guard does for argv words.
//!
//! The program words (`binary`, then `hardcoded_args`) are read as a
//! command line would be:
//! - `env` options are understood: `-i`, `-u NAME`, `-C DIR`, `NAME=VALUE`,
//!   `--`, and `-S`/`--split-string`, whose string is split into more words
//!   as `env` splits it (so `env -S 'bash -c'` is `env bash -c`);
//! - a word that names a known program starts that program's options,
//!   which are read until `--`, the first positional word (for a shell or
//!   an interpreter: its script) or the end. Shells and interpreters are
//!   recognised anywhere among the words, so whatever wraps them (`nice`,
//!   `find -exec`, `kubectl exec pod --`) needs no list; `watch`, `ssh`,
//!   `awk` and `env`, which are also common words, only where a program
//!   runs: the binary, the word after `--`, or the program of a known
//!   wrapper (`sudo -u root watch ...`, `timeout 5 ssh ...`).
//!
//! What counts as handing over a command string:
//! - a shell with `-c` (in any short-option cluster: `-ec`, `-lc`), fish's
//!   `--command`/`-C`, `cmd /c`, PowerShell's `-Command`/`-EncodedCommand`;
//! - an interpreter with its inline-code option: `python -c`, `perl -e`,
//!   `ruby -e`, `node -e`/`-p`, `php -r`, `lua -e`, `deno eval`, ...;
//! - a command-string runner: `su -c`, `runuser -c`, `script -c`,
//!   `flock FILE -c`, `sudo -s`/`-i` with a command, `watch` without `-x`
//!   (it runs `sh -c`), and `ssh` given user-controlled arguments (the
//!   remote shell reads them as one command string);
//! - an `awk` program that runs commands (`system(`, `| getline`, `print |`),
//!   or an `awk` whose program would be the first user-controlled argument;
//! - any of these programs still reading its own options when the
//!   user-controlled arguments begin, while one of those arguments may
//!   start with `-` (`allow_leading_dash`): the agent could supply `-c`
//!   itself. A `--` after the program's options closes that door.
//!
//! Names are compared by basename, case-insensitively, without `.exe` and
//! without a version suffix (`bash5.2`, `python3.12`, `ksh93`).

use std::collections::VecDeque;

use super::options::{ClusterValue, Style, Takes, short_cluster};
use crate::contract::codes;
use crate::contract::declaration::{ArgvPart, FlagForm, Subprocess};
use crate::report::Diagnostic;

/// One program word with the declaration field it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Word {
    field: String,
    text: String,
}

/// What the check needs to know about the command's inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct UserArguments<'a> {
    /// Any user-controlled argument at all (they follow the program words).
    pub any: bool,
    /// The first user-controlled argument allowed to start with `-`, if any.
    pub leading_dash: Option<&'a str>,
    /// Every user-controlled argument allowed to start with `-`.
    pub dash_params: &'a [&'a str],
}

/// Every E115 finding for `subprocess`.
pub fn command_string_diagnostics(
    subprocess: &Subprocess,
    users: UserArguments<'_>,
) -> Vec<Diagnostic> {
    let leading_dash = |param: &str| users.dash_params.contains(&param);
    let (words, dangling_split) = expand_env(program_words(subprocess, &leading_dash));
    let positions = program_positions(&words, true);
    let mut findings: Vec<(String, String)> = Vec::new();
    if let Some(field) = dangling_split
        && users.any
    {
        findings.push((
            field,
            "`env -S` ends the hardcoded words, so `env` would split the first user-controlled argument into a command line of its own (`bash -c ...`), which undoes argv safety; drop `-S`".to_owned(),
        ));
    }
    let mut open_at_end: Option<String> = None;
    for (index, word) in words.iter().enumerate() {
        let Some((name, kind)) = program_kind(&word.text) else {
            continue;
        };
        let at_program_position = positions.contains(&index);
        if !at_program_position && !kind.has_a_telltale_option() {
            continue;
        }
        let region = read_options(&name, kind, &words[index + 1..], users);
        for finding in region.findings {
            if !findings.contains(&finding) {
                findings.push(finding);
            }
        }
        if at_program_position && region.open_at_end {
            open_at_end = Some(name);
        }
    }
    if let (Some(program), Some(argument)) = (open_at_end, users.leading_dash) {
        findings.push((
            "subprocess.hardcoded_args".to_owned(),
            format!(
                "`{argument}` may start with '-' (allow_leading_dash) and is passed to `{program}` while it still reads its own options, so an agent could pass `-c` or the like itself; end `{program}`'s options with `--` in hardcoded_args"
            ),
        ));
    }
    findings
        .into_iter()
        .map(|(field, message)| {
            Diagnostic::new(codes::Code::ShellCommandString, message).with_field(field)
        })
        .collect()
}

/// A program that runs another program named by a later word, and what
/// comes between them.
struct Wrapper {
    names: &'static [&'static str],
    /// Short options that take a value (the rest of the cluster, or the
    /// next word).
    value_short: &'static str,
    value_long: &'static [&'static str],
    /// Positional words before the program (`timeout DURATION`).
    positionals: usize,
    /// `NAME=VALUE` words may come before the program (`env`).
    assignments: bool,
}

const WRAPPERS: &[Wrapper] = &[
    // `-S` takes no value here: `expand_env` has replaced its string by the
    // words it splits into.
    Wrapper {
        names: &["env"],
        value_short: "uCa",
        value_long: &["unset", "chdir", "argv0"],
        positionals: 0,
        assignments: true,
    },
    Wrapper {
        names: &["sudo"],
        value_short: "ugCDhprtTUR",
        value_long: &[
            "user",
            "group",
            "close-from",
            "chdir",
            "host",
            "prompt",
            "role",
            "type",
            "command-timeout",
            "other-user",
            "chroot",
        ],
        positionals: 0,
        assignments: true,
    },
    Wrapper {
        names: &["doas"],
        value_short: "uC",
        value_long: &[],
        positionals: 0,
        assignments: false,
    },
    Wrapper {
        names: &["nice"],
        value_short: "n",
        value_long: &["adjustment"],
        positionals: 0,
        assignments: false,
    },
    Wrapper {
        names: &["timeout"],
        value_short: "sk",
        value_long: &["signal", "kill-after"],
        positionals: 1,
        assignments: false,
    },
    Wrapper {
        names: &["stdbuf"],
        value_short: "ioe",
        value_long: &["input", "output", "error"],
        positionals: 0,
        assignments: false,
    },
    Wrapper {
        names: &["ionice"],
        value_short: "cnp",
        value_long: &["class", "classdata", "pid"],
        positionals: 0,
        assignments: false,
    },
    Wrapper {
        names: &["taskset", "chroot"],
        value_short: "",
        value_long: &["userspec", "groups"],
        positionals: 1,
        assignments: false,
    },
    Wrapper {
        names: &["xargs"],
        value_short: "IEdLlnPsa",
        value_long: &[
            "arg-file",
            "delimiter",
            "eof",
            "replace",
            "max-lines",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
        positionals: 0,
        assignments: false,
    },
    Wrapper {
        names: &["time"],
        value_short: "fo",
        value_long: &["format", "output"],
        positionals: 0,
        assignments: false,
    },
    Wrapper {
        names: &["strace", "ltrace"],
        value_short: "eopsSuEPa",
        value_long: &[],
        positionals: 0,
        assignments: false,
    },
    Wrapper {
        names: &[
            "nohup",
            "setsid",
            "exec",
            "command",
            "builtin",
            "busybox",
            "unbuffer",
            "catchsegv",
        ],
        value_short: "",
        value_long: &[],
        positionals: 0,
        assignments: false,
    },
];

/// The indices of the words that are run as programs: the binary, the
/// word after a `--` (`kubectl exec pod -- cmd`), and the program a known
/// wrapper runs (`sudo -u root cmd`, `timeout 5 cmd`).
fn program_positions(words: &[Word], after_double_dash: bool) -> Vec<usize> {
    let mut positions: Vec<usize> = (0..words.len())
        .filter(|index| *index == 0 || (after_double_dash && words[index - 1].text == "--"))
        .collect();
    let mut queue = positions.clone();
    while let Some(position) = queue.pop() {
        let Some(name) = program_name(&words[position].text) else {
            continue;
        };
        let Some(wrapper) = WRAPPERS
            .iter()
            .find(|wrapper| wrapper.names.contains(&name.as_str()))
        else {
            continue;
        };
        if let Some(offset) = wrapped_program(wrapper, &words[position + 1..]) {
            let program = position + 1 + offset;
            if !positions.contains(&program) {
                positions.push(program);
                queue.push(program);
            }
        }
    }
    positions
}

/// [`Takes::Value`] when `yes`, else [`Takes::Nothing`]: the letters of
/// most programs either take a value or are flags.
pub(super) fn value_when(yes: bool) -> Takes {
    if yes { Takes::Value } else { Takes::Nothing }
}

/// `-c`, or a cluster of flags holding `c` (`-ec`, `-lc`): how `su`,
/// `runuser` and a script's `sh -c` hand over a command string.
pub(super) fn is_c_cluster(word: &str) -> bool {
    short_cluster(word, Style::Getopt, |_| Takes::Nothing).is_some_and(|cluster| {
        cluster.letters.chars().all(|ch| ch.is_ascii_alphabetic()) && cluster.has_any("c")
    })
}

/// Where the program a wrapper runs sits among the words after it.
fn wrapped_program(wrapper: &Wrapper, after: &[Word]) -> Option<usize> {
    let mut positionals = wrapper.positionals;
    let mut index = 0;
    while index < after.len() {
        let text = after[index].text.as_str();
        if text == "--" {
            let program = index + 1 + positionals;
            return (program < after.len()).then_some(program);
        }
        if let Some(long) = text.strip_prefix("--") {
            let takes_value = !long.contains('=') && wrapper.value_long.contains(&long);
            index += if takes_value { 2 } else { 1 };
            continue;
        }
        if let Some(cluster) = short_cluster(text, Style::Getopt, |ch| {
            value_when(wrapper.value_short.contains(ch))
        }) {
            // `command -v NAME` and `-V` say what NAME is; nothing runs.
            if wrapper.names.contains(&"command") && cluster.has_any("vV") {
                return None;
            }
            index += cluster.words();
            continue;
        }
        if wrapper.assignments && is_assignment(text) {
            index += 1;
            continue;
        }
        if positionals > 0 {
            positionals -= 1;
            index += 1;
            continue;
        }
        return Some(index);
    }
    None
}

/// Stands for an agent's value among the program words: not an option,
/// not an assignment, not a program this check knows.
const AGENT_WORD: &str = "\u{1}agent-value";

/// The program words: `binary` and the literal words. In a template, a
/// slot's flag is a word too (`{"param": "code", "flag": "-c"}` is
/// `python -c CODE` as surely as a literal `-c` is), and a slot's value
/// stands in as [`AGENT_WORD`], unless it may start with `-` (then it is
/// left out, so a program still reading options at that point is found
/// open).
fn program_words(subprocess: &Subprocess, leading_dash: &dyn Fn(&str) -> bool) -> Vec<Word> {
    let binary = Word {
        field: "subprocess.binary".to_owned(),
        text: subprocess.binary.clone(),
    };
    if subprocess.templated {
        let mut words = vec![binary];
        for (index, part) in subprocess.argv.iter().enumerate() {
            let field = format!("subprocess.argv[{index}]");
            match part {
                ArgvPart::Literal(text) => words.push(Word {
                    field,
                    text: text.clone(),
                }),
                ArgvPart::Param(slot) => {
                    let value = format!("{}{AGENT_WORD}", slot.prefix);
                    let dash = leading_dash(&slot.param) && slot.prefix.is_empty();
                    match (&slot.flag, slot.form) {
                        (Some(flag), FlagForm::Joined) => words.push(Word {
                            field,
                            text: format!("{flag}={value}"),
                        }),
                        (Some(flag), FlagForm::Separate) => {
                            words.push(Word {
                                field: field.clone(),
                                text: flag.clone(),
                            });
                            words.push(Word { field, text: value });
                        }
                        (None, _) if !dash => words.push(Word { field, text: value }),
                        (None, _) => {}
                    }
                }
            }
        }
        return words;
    }
    std::iter::once(binary)
        .chain(
            subprocess
                .hardcoded_args
                .iter()
                .enumerate()
                .map(|(index, arg)| Word {
                    field: format!("subprocess.hardcoded_args[{index}]"),
                    text: arg.clone(),
                }),
        )
        .collect()
}

/// A bound on the words `env -S` may produce, against pathological input.
const MAX_WORDS: usize = 4096;

/// The words with each `env -S STRING` replaced by the words of STRING,
/// and the field of an `-S` left without its string at the end (whose
/// string would then be the first user-controlled argument).
fn expand_env(words: Vec<Word>) -> (Vec<Word>, Option<String>) {
    let mut queue: VecDeque<Word> = words.into();
    let mut out: Vec<Word> = Vec::new();
    let mut in_env = false;
    let mut takes_value = false;
    let mut splits_next = false;
    while let Some(word) = queue.pop_front() {
        if out.len() + queue.len() > MAX_WORDS {
            out.push(word);
            out.extend(queue);
            break;
        }
        if splits_next {
            splits_next = false;
            split_into(&mut queue, &word.field, &word.text);
            continue;
        }
        if takes_value {
            takes_value = false;
            out.push(word);
            continue;
        }
        if in_env {
            let text = word.text.as_str();
            if text == "--" {
                in_env = false;
                out.push(word);
                continue;
            }
            if let Some(long) = text.strip_prefix("--") {
                let (name, value) = match long.split_once('=') {
                    Some((name, value)) => (name, Some(value)),
                    None => (long, None),
                };
                let field = word.field.clone();
                match (name, value) {
                    ("split-string", Some(value)) => split_into(&mut queue, &field, value),
                    ("split-string", None) => splits_next = true,
                    ("unset" | "chdir" | "argv0", None) => takes_value = true,
                    _ => {}
                }
                out.push(word);
                continue;
            }
            if let Some(cluster) = short_cluster(text, Style::Getopt, |ch| {
                value_when(matches!(ch, 'u' | 'C' | 'a' | 'S'))
            }) {
                match (cluster.valued_letter(), cluster.value) {
                    (Some('S'), Some(ClusterValue::Glued(rest))) => {
                        let field = word.field.clone();
                        split_into(&mut queue, &field, rest);
                    }
                    (Some('S'), _) => splits_next = true,
                    (_, value) => takes_value = value == Some(ClusterValue::NextWord),
                }
                out.push(word);
                continue;
            }
            if text == "-" || is_assignment(text) {
                out.push(word);
                continue;
            }
            in_env = false;
        }
        if program_name(&word.text).as_deref() == Some("env") {
            in_env = true;
        }
        out.push(word);
    }
    let dangling_split = splits_next
        .then(|| out.last().map(|word| word.field.clone()))
        .flatten();
    (out, dangling_split)
}

/// Puts the words of an `env -S` string at the front of `queue`.
fn split_into(queue: &mut VecDeque<Word>, field: &str, text: &str) {
    for part in split_env_string(text).into_iter().rev() {
        queue.push_front(Word {
            field: field.to_owned(),
            text: part,
        });
    }
}

/// `NAME=VALUE`, as `env` reads it.
fn is_assignment(text: &str) -> bool {
    text.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && !name.starts_with('-') && !name.contains(['/', '\\'])
    })
}

/// Splits an `env -S` string into words the way `env` does: whitespace
/// separates, single quotes are literal, double quotes allow backslash
/// escapes, `\_` is a space (a separator outside quotes), `\c` ends the
/// string and a `#` starting a word starts a comment.
pub fn split_env_string(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    let escaped = |ch: char| match ch {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'f' => '\u{c}',
        'v' => '\u{b}',
        other => other,
    };
    while let Some(ch) = chars.next() {
        match ch {
            ch if ch.is_whitespace() && in_word => {
                words.push(std::mem::take(&mut current));
                in_word = false;
            }
            ch if ch.is_whitespace() => {}
            '#' if !in_word => break,
            '\'' => {
                in_word = true;
                for inner in chars.by_ref() {
                    if inner == '\'' {
                        break;
                    }
                    current.push(inner);
                }
            }
            '"' => {
                in_word = true;
                while let Some(inner) = chars.next() {
                    match inner {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some('_') => current.push(' '),
                            Some('c') => {
                                words.push(current);
                                return words;
                            }
                            Some(next) => current.push(escaped(next)),
                            None => break,
                        },
                        other => current.push(other),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('_') if in_word => {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
                Some('_') => {}
                Some('c') => break,
                Some(next) => {
                    in_word = true;
                    current.push(escaped(next));
                }
                None => {}
            },
            other => {
                in_word = true;
                current.push(other);
            }
        }
    }
    if in_word {
        words.push(current);
    }
    words
}

/// How a program takes a command string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A POSIX-style shell: `-c` in a cluster, `--command`.
    Shell,
    Fish,
    Cmd,
    PowerShell,
    Interpreter(&'static Interpreter),
    /// `su`, `runuser`, `script`, `flock`: `-c`/`--command` anywhere in
    /// their options, whose positional words are not a script.
    Runner,
    Sudo,
    Watch,
    Ssh,
    Awk,
    Env,
}

/// An interpreter's options: which take inline code, which take a value.
#[derive(Debug, PartialEq, Eq)]
struct Interpreter {
    /// Short options whose value is code (`c` for python, `e` for perl).
    code_short: &'static str,
    code_long: &'static [&'static str],
    /// A first positional word that means "evaluate" (`deno eval`).
    code_word: Option<&'static str>,
    /// Short options that take a value (the rest of the cluster, or the
    /// next word).
    value_short: &'static str,
    value_long: &'static [&'static str],
    /// Short options after which the rest of the command line is not the
    /// interpreter's (`python -m module`).
    ends_short: &'static str,
}

const PYTHON: Interpreter = Interpreter {
    code_short: "c",
    code_long: &[],
    code_word: None,
    value_short: "WXQ",
    value_long: &["check-hash-based-pycs"],
    ends_short: "m",
};
const PERL: Interpreter = Interpreter {
    code_short: "eE",
    code_long: &[],
    code_word: None,
    value_short: "MmIxiFDCV",
    value_long: &[],
    ends_short: "",
};
const RUBY: Interpreter = Interpreter {
    code_short: "e",
    code_long: &[],
    code_word: None,
    value_short: "IrCEFKTWx",
    value_long: &["encoding", "external-encoding", "internal-encoding"],
    ends_short: "",
};
const NODE: Interpreter = Interpreter {
    code_short: "ep",
    code_long: &["eval", "print"],
    code_word: None,
    value_short: "rC",
    value_long: &[
        "require",
        "import",
        "loader",
        "experimental-loader",
        "input-type",
        "conditions",
        "title",
        "env-file",
    ],
    ends_short: "",
};
const DENO: Interpreter = Interpreter {
    code_short: "",
    code_long: &["eval"],
    code_word: Some("eval"),
    value_short: "",
    value_long: &[],
    ends_short: "",
};
const PHP: Interpreter = Interpreter {
    code_short: "rBRE",
    code_long: &[],
    code_word: None,
    value_short: "cdzF",
    value_long: &[],
    ends_short: "",
};
const LUA: Interpreter = Interpreter {
    code_short: "e",
    code_long: &[],
    code_word: None,
    value_short: "l",
    value_long: &[],
    ends_short: "",
};
const RSCRIPT: Interpreter = Interpreter {
    code_short: "e",
    code_long: &[],
    code_word: None,
    value_short: "",
    value_long: &[],
    ends_short: "",
};
const JULIA: Interpreter = Interpreter {
    code_short: "eE",
    code_long: &["eval", "print"],
    code_word: None,
    value_short: "JLCtp",
    value_long: &["project", "load", "sysimage", "threads", "procs"],
    ends_short: "",
};
const ELIXIR: Interpreter = Interpreter {
    code_short: "e",
    code_long: &["eval"],
    code_word: None,
    value_short: "r",
    value_long: &["erl", "require", "sname", "name", "cookie"],
    ends_short: "",
};

/// Programs that are not interpreters but take code or a command line in
/// an option: `expect -c`, `gdb -ex`, `vim -c`, `emacs --eval`, `npx -c`,
/// `mysql -e`, `make --eval`, `rsync -e`,
/// `tar --to-command`/`--checkpoint-action`/`-I`, `zip -T`/`-TT`.
const EXPECT: Interpreter = Interpreter {
    code_short: "c",
    code_long: &[],
    code_word: None,
    value_short: "f",
    value_long: &[],
    ends_short: "",
};
const GDB: Interpreter = Interpreter {
    code_short: "e",
    code_long: &["ex", "eval-command", "init-eval-command", "iex"],
    code_word: None,
    value_short: "xpcd",
    value_long: &["command", "directory", "pid", "core"],
    ends_short: "",
};
const VIM: Interpreter = Interpreter {
    code_short: "cS",
    code_long: &["cmd"],
    code_word: None,
    value_short: "iTuUwWrq",
    value_long: &[],
    ends_short: "",
};
const EMACS: Interpreter = Interpreter {
    code_short: "",
    code_long: &["eval", "execute", "funcall", "load"],
    code_word: None,
    value_short: "lfL",
    value_long: &["directory", "file", "visit", "insert"],
    ends_short: "",
};
const NPX: Interpreter = Interpreter {
    code_short: "c",
    code_long: &["call"],
    code_word: None,
    value_short: "p",
    value_long: &["package"],
    ends_short: "",
};
const MYSQL: Interpreter = Interpreter {
    code_short: "e",
    code_long: &["execute", "init-command", "pager"],
    code_word: None,
    value_short: "hPuDS",
    value_long: &["host", "port", "user", "database", "socket"],
    ends_short: "",
};
const MAKE: Interpreter = Interpreter {
    code_short: "",
    code_long: &["eval"],
    code_word: None,
    value_short: "CfIjloW",
    value_long: &["directory", "file", "makefile", "include-dir", "jobs"],
    ends_short: "",
};
const RSYNC: Interpreter = Interpreter {
    code_short: "e",
    code_long: &["rsh", "rsync-path"],
    code_word: None,
    value_short: "fBT",
    value_long: &["filter", "exclude", "include", "temp-dir"],
    ends_short: "",
};
const TAR: Interpreter = Interpreter {
    code_short: "IF",
    code_long: &[
        "to-command",
        "checkpoint-action",
        "use-compress-program",
        "rsh-command",
        "info-script",
        "new-volume-script",
    ],
    code_word: None,
    value_short: "fCbHKLNTgV",
    value_long: &["file", "directory", "exclude"],
    ends_short: "",
};
const ZIP: Interpreter = Interpreter {
    code_short: "T",
    code_long: &["unzip-command", "test"],
    code_word: None,
    value_short: "bnstxi",
    value_long: &[],
    ends_short: "",
};

/// The indices of `texts` that run as programs (see `program_positions`);
/// without `after_double_dash`, a word after `--` counts only where a known
/// wrapper runs it (`env -- prog`, not `git log -- path`).
pub(super) fn program_positions_of(texts: &[&str], after_double_dash: bool) -> Vec<usize> {
    let words: Vec<Word> = texts
        .iter()
        .map(|text| Word {
            field: String::new(),
            text: (*text).to_owned(),
        })
        .collect();
    program_positions(&words, after_double_dash)
}

/// Whether `word` names a shell, an interpreter or another program this
/// check knows to take a command string.
pub(super) fn is_known_program(word: &str) -> bool {
    program_kind(word).is_some()
}

/// The program a word names, normalized (see the module docs).
pub(super) fn program_name(word: &str) -> Option<String> {
    if word.starts_with('-') || word.is_empty() {
        return None;
    }
    let base = word
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(word)
        .to_ascii_lowercase();
    let base = base.strip_suffix(".exe").unwrap_or(&base);
    let unversioned = base.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    let unversioned = if unversioned.len() < base.len() {
        unversioned.trim_end_matches(['-', '_'])
    } else {
        base
    };
    (!unversioned.is_empty()).then(|| unversioned.to_owned())
}

/// Whether `word` names a language that runs whatever code it is given,
/// from an option, a file or standard input: a shell, a scripting
/// interpreter, `awk`. (`tar`, `make` or `psql` take code only in certain
/// options; [`crate::contract::programs::code_words::proposed_command_problems`]
/// finds those.)
pub fn is_language(word: &str) -> bool {
    const LANGUAGES: [&Interpreter; 10] = [
        &PYTHON, &PERL, &RUBY, &NODE, &DENO, &PHP, &LUA, &RSCRIPT, &JULIA, &ELIXIR,
    ];
    match program_kind(word) {
        Some((_, Kind::Shell | Kind::Fish | Kind::Cmd | Kind::PowerShell | Kind::Awk)) => true,
        Some((_, Kind::Interpreter(spec))) => LANGUAGES
            .iter()
            .any(|language| std::ptr::eq(*language, spec)),
        _ => false,
    }
}

/// The program among `words` that runs another program named by a later
/// word, if the first word is one: a wrapper (`env`, `sudo`, `timeout`,
/// `nice`, `xargs`, `nohup`, `exec`, ...), a command runner (`su`,
/// `flock`, `script`, `watch`, `ssh`), or `find` with `-exec`, `-execdir`,
/// `-ok` or `-okdir`.
pub fn runs_another_program(words: &[&str]) -> Option<String> {
    let name = program_name(words.first()?)?;
    let wrapper = WRAPPERS
        .iter()
        .any(|wrapper| wrapper.names.contains(&name.as_str()));
    let runner = matches!(
        program_kind(&name),
        Some((
            _,
            Kind::Runner | Kind::Sudo | Kind::Watch | Kind::Ssh | Kind::Env
        ))
    );
    let find_exec = name == "find"
        && words[1..]
            .iter()
            .any(|word| matches!(*word, "-exec" | "-execdir" | "-ok" | "-okdir"));
    (wrapper || runner || find_exec).then_some(name)
}

fn program_kind(word: &str) -> Option<(String, Kind)> {
    let name = program_name(word)?;
    let kind = match name.as_str() {
        "sh" | "bash" | "rbash" | "zsh" | "dash" | "ksh" | "mksh" | "pdksh" | "oksh" | "lksh"
        | "ash" | "csh" | "tcsh" | "yash" | "posh" | "elvish" | "nu" | "xonsh" | "osh" | "ysh"
        | "rc" => Kind::Shell,
        "fish" => Kind::Fish,
        "cmd" => Kind::Cmd,
        "powershell" | "pwsh" => Kind::PowerShell,
        "python" | "pythonw" | "py" | "pypy" | "jython" => Kind::Interpreter(&PYTHON),
        "perl" => Kind::Interpreter(&PERL),
        "ruby" | "jruby" => Kind::Interpreter(&RUBY),
        "node" | "nodejs" | "bun" => Kind::Interpreter(&NODE),
        "deno" => Kind::Interpreter(&DENO),
        "php" => Kind::Interpreter(&PHP),
        "lua" | "luajit" => Kind::Interpreter(&LUA),
        "rscript" | "osascript" | "r" => Kind::Interpreter(&RSCRIPT),
        "expect" => Kind::Interpreter(&EXPECT),
        "gdb" => Kind::Interpreter(&GDB),
        "vim" | "vi" | "nvim" | "gvim" | "ex" | "view" => Kind::Interpreter(&VIM),
        "emacs" => Kind::Interpreter(&EMACS),
        "npx" => Kind::Interpreter(&NPX),
        "mysql" | "mariadb" => Kind::Interpreter(&MYSQL),
        "make" | "gmake" => Kind::Interpreter(&MAKE),
        "rsync" => Kind::Interpreter(&RSYNC),
        "tar" | "gtar" | "bsdtar" => Kind::Interpreter(&TAR),
        "zip" => Kind::Interpreter(&ZIP),
        "julia" => Kind::Interpreter(&JULIA),
        "elixir" => Kind::Interpreter(&ELIXIR),
        "su" | "runuser" | "script" | "flock" => Kind::Runner,
        "sudo" | "doas" => Kind::Sudo,
        "watch" => Kind::Watch,
        "ssh" => Kind::Ssh,
        "awk" | "gawk" | "mawk" | "nawk" => Kind::Awk,
        "env" => Kind::Env,
        _ => return None,
    };
    Some((name, kind))
}

/// What reading one program's options found.
#[derive(Debug, Default)]
struct Region {
    findings: Vec<(String, String)>,
    /// The program still reads options after the last program word, so
    /// the user-controlled arguments would be read as its options.
    open_at_end: bool,
}

impl Kind {
    /// Whether the program is recognised anywhere among the words, not
    /// only where a program runs: its command-string option is telling
    /// enough (`sh -c`), while `watch`, `ssh` or `awk` are common words.
    fn has_a_telltale_option(self) -> bool {
        !matches!(self, Kind::Watch | Kind::Ssh | Kind::Awk | Kind::Env)
    }
}

fn read_options(name: &str, kind: Kind, after: &[Word], users: UserArguments<'_>) -> Region {
    match kind {
        Kind::Shell | Kind::Fish => read_shell(name, kind, after),
        Kind::Cmd => read_cmd(name, after),
        Kind::PowerShell => read_powershell(name, after),
        Kind::Interpreter(spec) => read_interpreter(name, spec, after),
        Kind::Runner => read_runner(name, after),
        Kind::Sudo => read_sudo(name, after, users),
        Kind::Watch => read_watch(name, after, users),
        Kind::Ssh => read_ssh(name, after, users),
        Kind::Awk => read_awk(name, after, users),
        Kind::Env => read_env(after),
    }
}

fn shell_message(program: &str, word: &str) -> String {
    format!(
        "`{program} {word}` runs a command string through a shell, which undoes argv safety; run the program directly, or a script file (`{program} --norc --noprofile -- script`)"
    )
}

fn code_message(program: &str, word: &str) -> String {
    format!(
        "`{program} {word}` runs a string of code, which undoes argv safety; put the code in a script file and run that, passing values as arguments"
    )
}

/// Options of a POSIX-style shell (and fish): `-c` in a cluster, the long
/// `--command`, and the options that take a value (`-o name`, `-O name`,
/// `--rcfile FILE`). The first positional word is the script.
fn read_shell(program: &str, kind: Kind, after: &[Word]) -> Region {
    let mut region = Region::default();
    let code_letters = if kind == Kind::Fish { "cC" } else { "c" };
    let mut index = 0;
    while index < after.len() {
        let word = &after[index];
        let text = word.text.as_str();
        if text == "--" {
            return region;
        }
        if let Some(long) = text.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(name, _)| name);
            let lower = name.to_ascii_lowercase();
            if matches!(
                lower.as_str(),
                "command" | "commands" | "init-command" | "eval"
            ) {
                region
                    .findings
                    .push((word.field.clone(), shell_message(program, text)));
                return region;
            }
            let takes_value = matches!(lower.as_str(), "rcfile" | "init-file");
            index += if takes_value && !long.contains('=') {
                2
            } else {
                1
            };
            continue;
        }
        if let Some(cluster) =
            short_cluster(text, Style::Shell, |ch| value_when(matches!(ch, 'o' | 'O')))
        {
            if cluster.sign == '-' && cluster.has_any(code_letters) {
                region
                    .findings
                    .push((word.field.clone(), shell_message(program, text)));
                return region;
            }
            index += cluster.words();
            continue;
        }
        return region;
    }
    region.open_at_end = true;
    region
}

fn read_cmd(program: &str, after: &[Word]) -> Region {
    let mut region = Region::default();
    for word in after {
        let lower = word.text.to_ascii_lowercase();
        if matches!(lower.as_str(), "/c" | "/k" | "/r") || lower.starts_with("/c ") {
            region
                .findings
                .push((word.field.clone(), shell_message(program, &word.text)));
            return region;
        }
        if !lower.starts_with('/') {
            return region;
        }
    }
    region.open_at_end = true;
    region
}

fn read_powershell(program: &str, after: &[Word]) -> Region {
    let mut region = Region::default();
    for word in after {
        let lower = word.text.to_ascii_lowercase();
        let Some(name) = lower.strip_prefix('-').or_else(|| lower.strip_prefix('/')) else {
            region.open_at_end = false;
            return region;
        };
        let name = name.trim_start_matches('-');
        let name = name.split_once(':').map_or(name, |(name, _)| name);
        // PowerShell takes any unambiguous prefix of a parameter name.
        if matches!(name, "c" | "e" | "ec")
            || (name.len() >= 3
                && ("command".starts_with(name)
                    || "encodedcommand".starts_with(name)
                    || "commandwithargs".starts_with(name)))
        {
            region
                .findings
                .push((word.field.clone(), shell_message(program, &word.text)));
            return region;
        }
        if name.len() >= 2 && "file".starts_with(name) {
            return region;
        }
    }
    region.open_at_end = true;
    region
}

fn read_interpreter(program: &str, spec: &Interpreter, after: &[Word]) -> Region {
    let mut region = Region::default();
    let mut index = 0;
    while index < after.len() {
        let word = &after[index];
        let text = word.text.as_str();
        if text == "--" || text == "-" {
            return region;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            if spec.code_long.contains(&name) {
                region
                    .findings
                    .push((word.field.clone(), code_message(program, text)));
                return region;
            }
            index += if !inline && spec.value_long.contains(&name) {
                2
            } else {
                1
            };
            continue;
        }
        if let Some(cluster) = short_cluster(text, Style::Getopt, |ch| {
            value_when(
                spec.code_short.contains(ch)
                    || spec.ends_short.contains(ch)
                    || spec.value_short.contains(ch),
            )
        }) {
            match cluster.valued_letter() {
                Some(ch) if spec.code_short.contains(ch) => {
                    region
                        .findings
                        .push((word.field.clone(), code_message(program, text)));
                    return region;
                }
                Some(ch) if spec.ends_short.contains(ch) => return region,
                _ => {}
            }
            index += cluster.words();
            continue;
        }
        if spec.code_word == Some(text) {
            region
                .findings
                .push((word.field.clone(), code_message(program, text)));
            return region;
        }
        return region;
    }
    region.open_at_end = true;
    region
}

/// `su`, `runuser`, `script`, `flock`: `-c`/`--command` wherever it comes
/// before `--` (their positional words are a user, a file, a lock).
fn read_runner(program: &str, after: &[Word]) -> Region {
    let mut region = Region::default();
    for word in after {
        let text = word.text.as_str();
        if text == "--" {
            return region;
        }
        let hit = match text.strip_prefix("--") {
            Some(long) => matches!(
                long.split_once('=').map_or(long, |(name, _)| name),
                "command" | "session-command"
            ),
            None => is_c_cluster(text),
        };
        if hit {
            region.findings.push((
                word.field.clone(),
                format!(
                    "`{program} {text}` runs a command string through a shell, which undoes argv safety; run the program directly"
                ),
            ));
            return region;
        }
    }
    region.open_at_end = true;
    region
}

/// `sudo -s`/`-i` (and `doas -s`) join the command into one string for the
/// target user's shell.
fn read_sudo(program: &str, after: &[Word], users: UserArguments<'_>) -> Region {
    let mut region = Region::default();
    let mut shell_flag: Option<&Word> = None;
    let mut index = 0;
    while index < after.len() {
        let word = &after[index];
        let text = word.text.as_str();
        if text == "--" {
            index += 1;
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            if matches!(name, "shell" | "login") {
                shell_flag = Some(word);
            }
            let takes_value = matches!(
                name,
                "user"
                    | "group"
                    | "close-from"
                    | "chdir"
                    | "host"
                    | "prompt"
                    | "role"
                    | "type"
                    | "command-timeout"
                    | "other-user"
                    | "chroot"
            );
            index += if takes_value && !inline { 2 } else { 1 };
            continue;
        }
        if let Some(cluster) = short_cluster(text, Style::Getopt, |ch| {
            value_when("ugCDhprtTUR".contains(ch))
        }) {
            if cluster.has_any("si") {
                shell_flag = Some(word);
            }
            index += cluster.words();
            continue;
        }
        break;
    }
    if let Some(flag) = shell_flag
        && (index < after.len() || users.any)
    {
        region.findings.push((
            flag.field.clone(),
            format!(
                "`{program} {}` joins the command into one string for the target user's shell, which undoes argv safety; drop `{}` and run the program directly",
                flag.text, flag.text
            ),
        ));
    }
    region.open_at_end = index >= after.len() && !after.iter().any(|word| word.text == "--");
    region
}

/// `watch` runs its command through `sh -c` unless given `-x`/`--exec`.
fn read_watch(program: &str, after: &[Word], users: UserArguments<'_>) -> Region {
    let mut region = Region::default();
    let mut exec = false;
    let mut index = 0;
    while index < after.len() {
        let text = after[index].text.as_str();
        if text == "--" {
            index += 1;
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            exec |= name == "exec";
            index += if !inline && name == "interval" { 2 } else { 1 };
            continue;
        }
        if let Some(cluster) = short_cluster(text, Style::Getopt, |ch| value_when(ch == 'n')) {
            exec |= cluster.has_any("x");
            index += cluster.words();
            continue;
        }
        break;
    }
    let runs_something = index < after.len() || users.any;
    if !exec && runs_something {
        let field = after
            .get(index)
            .map_or_else(|| "subprocess".to_owned(), |word| word.field.clone());
        region.findings.push((
            field,
            format!(
                "`{program}` runs its command through `sh -c`, which undoes argv safety; add `-x` (`--exec`) so it runs the argv directly"
            ),
        ));
    }
    region.open_at_end = index >= after.len() && !exec;
    region
}

/// `ssh` joins every word after the host into one command string for the
/// remote shell, so user-controlled arguments would be shell code there.
fn read_ssh(program: &str, after: &[Word], users: UserArguments<'_>) -> Region {
    let mut region = Region::default();
    if users.any {
        region.findings.push((
            "subprocess.user_controlled_args".to_owned(),
            format!(
                "`{program}` joins the words after the host into one command string for the remote shell, so user-controlled arguments become shell code there; run a fixed remote command (or a remote script) that takes no arguments from the agent"
            ),
        ));
    }
    region.open_at_end = !after.iter().any(|word| word.text == "--");
    region
}

/// `env`'s own options were expanded already; what is left is whether it
/// still reads options when the program words end.
fn read_env(after: &[Word]) -> Region {
    let env = WRAPPERS
        .iter()
        .find(|wrapper| wrapper.names.contains(&"env"))
        .unwrap_or(&WRAPPERS[0]);
    Region {
        findings: Vec::new(),
        open_at_end: wrapped_program(env, after).is_none()
            && !after.iter().any(|word| word.text == "--"),
    }
}

/// Whether an awk program hands strings to `/bin/sh`.
fn awk_runs_commands(program: &str) -> bool {
    static RUNS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"\bsystem\s*\(|\|\s*getline\b|\|&|\bprintf?\b[^;{}\n]*[^|]\|[^|]"#)
            .unwrap_or_else(|err| panic!("built-in pattern: {err}"))
    });
    RUNS.is_match(program)
}

fn read_awk(program: &str, after: &[Word], users: UserArguments<'_>) -> Region {
    let mut region = Region::default();
    let mut from_file = false;
    let mut inline: Vec<&Word> = Vec::new();
    let mut index = 0;
    let mut closed = false;
    while index < after.len() {
        let word = &after[index];
        let text = word.text.as_str();
        if text == "--" {
            closed = true;
            index += 1;
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            match name {
                "source" => {
                    match value {
                        Some(_) => inline.push(word),
                        None => {
                            if let Some(next) = after.get(index + 1) {
                                inline.push(next);
                            }
                            index += 1;
                        }
                    }
                    from_file |= false;
                }
                "file" | "exec" => {
                    from_file = true;
                    if value.is_none() {
                        index += 1;
                    }
                }
                "field-separator" | "assign" | "include" | "load" if value.is_none() => {
                    index += 1;
                }
                _ => {}
            }
            index += 1;
            continue;
        }
        if let Some(cluster) =
            short_cluster(text, Style::Getopt, |ch| value_when("fEeFvil".contains(ch)))
        {
            match (cluster.valued_letter(), cluster.value) {
                (Some('f' | 'E'), _) => from_file = true,
                (Some('e'), Some(ClusterValue::NextWord)) => inline.extend(after.get(index + 1)),
                (Some('e'), _) => inline.push(word),
                _ => {}
            }
            index += cluster.words();
            continue;
        }
        break;
    }
    if !from_file && inline.is_empty() {
        match after.get(index) {
            Some(word) => inline.push(word),
            None if users.any => region.findings.push((
                "subprocess".to_owned(),
                format!(
                    "`{program}` has no program in hardcoded_args, so the first user-controlled argument becomes the awk program, which can run commands with system(); give the program (or `-f FILE`) in hardcoded_args"
                ),
            )),
            None => {}
        }
    }
    for word in inline {
        if awk_runs_commands(&word.text) {
            region.findings.push((
                word.field.clone(),
                format!(
                    "the {program} program `{}` runs commands through a shell (system(), a pipe), which undoes argv safety; pass the values to a program run as an argv instead",
                    word.text
                ),
            ));
        }
    }
    region.open_at_end = index >= after.len() && !closed;
    region
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(binary: &str, hardcoded: &[&str], users: UserArguments<'_>) -> Vec<String> {
        let subprocess = Subprocess::from_lists(
            binary.to_owned(),
            hardcoded.iter().map(|word| (*word).to_owned()).collect(),
            Vec::new(),
        );
        command_string_diagnostics(&subprocess, users)
            .into_iter()
            .map(|diagnostic| {
                format!(
                    "{}: {}",
                    diagnostic.field.unwrap_or_default(),
                    diagnostic.message
                )
            })
            .collect()
    }

    fn flagged(binary: &str, hardcoded: &[&str]) -> bool {
        !findings(binary, hardcoded, UserArguments::default()).is_empty()
    }

    #[test]
    fn command_v_names_a_program_without_running_it() {
        assert_eq!(program_positions_of(&["command", "-v", "git"], false), [0]);
        assert_eq!(program_positions_of(&["command", "-V", "ls"], false), [0]);
        assert_eq!(program_positions_of(&["command", "-pv", "ls"], false), [0]);
        assert_eq!(program_positions_of(&["command", "git", "status"], false), [0, 1]);
        assert_eq!(program_positions_of(&["command", "-p", "sh"], false), [0, 2]);
        assert!(flagged("command", &["-p", "sh", "-c", "id"]));
    }

    const WITH_USERS: UserArguments<'static> = UserArguments {
        any: true,
        leading_dash: None,
        dash_params: &[],
    };

    #[test]
    fn shells_with_a_command_string() {
        for (binary, args) in [
            ("bash", &["-c"][..]),
            ("/bin/sh", &["-ec"]),
            ("bash", &["-lc"]),
            ("bash", &["-o", "pipefail", "-c"]),
            ("bash", &["-O", "extglob", "-c"]),
            ("fish", &["--command"]),
            ("fish", &["--command=ls"]),
            ("fish", &["-C", "x"]),
            ("cmd", &["/C"]),
            ("C:\\Windows\\System32\\cmd.exe", &["/c"]),
            ("pwsh", &["-Command"]),
            ("powershell", &["-c"]),
            ("pwsh", &["-EncodedCommand"]),
            ("pwsh", &["-e"]),
            ("PowerShell.exe", &["-NoProfile", "-comm"]),
            ("rbash", &["-c"]),
            ("yash", &["-c"]),
            ("bash5.2", &["-c"]),
            ("/usr/local/bin/zsh-5.9", &["-c"]),
            ("ksh93", &["-c"]),
            ("nice", &["-n", "5", "bash", "-c"]),
            ("find", &[".", "-exec", "sh", "-c", "x", ";"]),
            ("kubectl", &["exec", "pod", "--", "sh", "-c"]),
            ("busybox", &["sh", "-c"]),
        ] {
            assert!(flagged(binary, args), "{binary} {args:?}");
        }
    }

    #[test]
    fn shells_running_a_script_are_fine() {
        for (binary, args) in [
            ("bash", &["--norc", "--noprofile", "--"][..]),
            ("bash", &["script.sh", "-c"]),
            ("bash", &["-e", "script.sh"]),
            ("sh", &["-", "x"]),
            ("pwsh", &["-NoProfile", "-File", "x.ps1"]),
            ("cmd", &["/q"]),
            ("kubectl", &["rollout", "restart"]),
            ("bashful", &["-c"]),
            ("git", &["-c", "user.name=x", "commit"]),
            ("docker", &["run", "--name", "node", "node:18", "-e", "A=1"]),
        ] {
            assert!(!flagged(binary, args), "{binary} {args:?}");
        }
    }

    #[test]
    fn env_split_string_is_read_as_more_words() {
        for (binary, args) in [
            ("/usr/bin/env", &["-S", "bash -c"][..]),
            ("env", &["--split-string=sh -c"]),
            ("env", &["--split-string", "sh -c"]),
            ("env", &["-S bash -c"]),
            ("env", &["-Sbash -c"]),
            ("env", &["-iS", "bash -c"]),
            (
                "env",
                &["-u", "HOME", "-C", "/tmp", "A=1", "-S", "'bash' \"-c\""],
            ),
            ("env", &["-S", "-i A=1 bash\\_-c"]),
            ("env", &["-S", "-S 'sh -c'"]),
            ("env", &["-i", "bash", "-c"]),
            ("env", &["A=1", "sh", "-ec"]),
        ] {
            assert!(flagged(binary, args), "{binary} {args:?}");
        }
        assert!(!flagged("env", &["-S", "kubectl get"]));
        assert!(!findings("env", &["-S"], WITH_USERS).is_empty());
        assert!(!findings("env", &["-S", "watch ls"], UserArguments::default()).is_empty());
        assert!(!findings("env", &["-S", "-i ssh host"], WITH_USERS).is_empty());
        assert!(!findings("env", &["-i", "--split-string"], WITH_USERS).is_empty());
        assert!(!flagged("env", &["-u", "-c", "ls"]));
        assert_eq!(
            split_env_string(r#"a 'b c' "d\_e" f\_g # comment"#),
            ["a", "b c", "d e", "f", "g"]
        );
        assert_eq!(split_env_string(r"a\cb c"), ["a"]);
    }

    #[test]
    fn interpreters_with_inline_code() {
        for (binary, args) in [
            ("python3", &["-c"][..]),
            ("python3.12", &["-Ic", "print(1)"]),
            ("/usr/bin/python", &["-W", "ignore", "-c"]),
            ("perl", &["-e"]),
            ("perl", &["-lne", "print"]),
            ("perl", &["-Mstrict", "-E", "say 1"]),
            ("ruby", &["-e", "x"]),
            ("node", &["-e"]),
            ("node", &["--eval=1"]),
            ("node", &["-r", "ts-node/register", "-p", "1"]),
            ("bun", &["--print", "1"]),
            ("deno", &["eval", "x"]),
            ("php", &["-r", "x"]),
            ("lua5.4", &["-e", "x"]),
            ("Rscript", &["-e", "x"]),
            ("osascript", &["-e", "x"]),
            ("julia", &["--eval", "x"]),
        ] {
            assert!(flagged(binary, args), "{binary} {args:?}");
        }
        for (binary, args) in [
            ("python3", &["script.py", "-c"][..]),
            ("python3", &["-m", "http.server", "-c"]),
            ("python3", &["-u", "tool.py"]),
            ("perl", &["-Mfeature=say", "script.pl"]),
            ("node", &["--title", "x", "server.js", "-e"]),
            ("deno", &["run", "main.ts"]),
        ] {
            assert!(!flagged(binary, args), "{binary} {args:?}");
        }
    }

    #[test]
    fn programs_that_take_code_in_an_option() {
        for (binary, args) in [
            ("expect", &["-c", "spawn sh"][..]),
            ("gdb", &["-ex", "shell id", "--batch"]),
            ("gdb", &["--eval-command=shell id"]),
            ("vim", &["-es", "-c", "!id", "f"]),
            ("emacs", &["--batch", "--eval", "(shell-command \"id\")"]),
            ("npx", &["-c", "id"]),
            ("mysql", &["-e", "\\! id"]),
            ("R", &["-e", "system('id')"]),
            ("make", &["--eval", "x:;id"]),
            ("rsync", &["-e", "sh -c id", "a", "b"]),
            ("tar", &["--checkpoint-action=exec=id", "-cf", "a.tar", "x"]),
            ("tar", &["-xf", "a.tar", "--to-command=id"]),
            ("zip", &["-TT", "id", "a.zip", "x"]),
            ("py", &["-c", "print(1)"]),
            ("pythonw", &["-c", "print(1)"]),
        ] {
            assert!(flagged(binary, args), "{binary} {args:?}");
        }
        assert!(!flagged("tar", &["-czf", "a.tgz", "dir"]));
        assert!(!flagged("rsync", &["-avz", "a", "b"]));
        assert!(!flagged("make", &["-C", "dir", "all"]));
    }

    #[test]
    fn command_string_runners() {
        for (binary, args) in [
            ("su", &["-c", "x"][..]),
            ("su", &["root", "-c", "x"]),
            ("su", &["-", "root", "--command=x"]),
            ("runuser", &["-u", "x", "-c"]),
            ("script", &["-qc", "x", "/dev/null"]),
            ("script", &["--command", "x"]),
            ("flock", &["/tmp/lock", "-c", "x"]),
            ("sudo", &["-s", "ls"]),
            ("sudo", &["-u", "root", "-i", "ls"]),
            ("sudo", &["--shell", "ls"]),
            ("watch", &["-n", "5", "ls"]),
        ] {
            assert!(flagged(binary, args), "{binary} {args:?}");
        }
        assert!(!flagged("sudo", &["-u", "root", "ls"]));
        assert!(!flagged("sudo", &["-u", "sam", "kubectl", "get"]));
        assert!(!flagged("watch", &["-x", "-n", "5", "ls"]));
        assert!(!flagged("flock", &["/tmp/lock", "ls"]));
        assert!(!flagged("script", &["-q", "out.log"]));
        assert!(!findings("sudo", &["-s"], WITH_USERS).is_empty());
        assert!(!findings("watch", &[], WITH_USERS).is_empty());
        assert!(!findings("ssh", &["host", "uptime"], WITH_USERS).is_empty());
        assert!(findings("ssh", &["host", "uptime"], UserArguments::default()).is_empty());
    }

    #[test]
    fn awk_programs_that_run_commands() {
        assert!(flagged("awk", &["BEGIN{system(ARGV[1])}"]));
        assert!(flagged("gawk", &["-F", ":", "{ print $1 | \"sort\" }"]));
        assert!(flagged("awk", &["-e", "BEGIN { \"date\" | getline d }"]));
        assert!(flagged("mawk", &["--source=BEGIN{system(\"x\")}"]));
        assert!(!flagged("awk", &["{print $1}"]));
        assert!(!flagged(
            "awk",
            &["-F", ",", "$1 == \"a\" || $2 ~ /x|y/ { print }"]
        ));
        assert!(!flagged("awk", &["-f", "prog.awk"]));
        assert!(!findings("awk", &[], WITH_USERS).is_empty());
        assert!(!findings("awk", &["-v", "x=1"], WITH_USERS).is_empty());
        assert!(findings("awk", &["-f", "prog.awk"], WITH_USERS).is_empty());
    }

    #[test]
    fn a_leading_dash_argument_for_a_program_still_reading_options() {
        let dash = UserArguments {
            any: true,
            leading_dash: Some("args"),
            dash_params: &["args"],
        };
        for (binary, args) in [
            ("bash", &[][..]),
            ("bash", &["--norc"]),
            ("python3", &["-u"]),
            ("env", &[]),
            ("env", &["-i"]),
            ("sudo", &["bash"]),
            ("nice", &["bash"]),
        ] {
            assert!(
                !findings(binary, args, dash).is_empty(),
                "{binary} {args:?}"
            );
        }
        for (binary, args) in [
            ("bash", &["--norc", "--noprofile", "--"][..]),
            ("bash", &["script.sh"]),
            ("env", &["--"]),
            ("python3", &["tool.py"]),
            ("kubectl", &["get"]),
            ("sudo", &["kubectl"]),
        ] {
            assert!(findings(binary, args, dash).is_empty(), "{binary} {args:?}");
        }
        assert!(findings("bash", &[], WITH_USERS).is_empty());
    }

    #[test]
    fn program_names_are_normalized() {
        assert_eq!(program_name("/bin/bash").as_deref(), Some("bash"));
        assert_eq!(program_name("BASH5.2").as_deref(), Some("bash"));
        assert_eq!(program_name("python3.12").as_deref(), Some("python"));
        assert_eq!(program_name("zsh-5.9").as_deref(), Some("zsh"));
        assert_eq!(program_name("cmd.exe").as_deref(), Some("cmd"));
        assert_eq!(program_name("-c"), None);
        assert_eq!(program_name("123"), None);
    }
}
