//! Words a declared program reads as code, beyond the inline-code options
//! of shells and interpreters (`command_string`), and words an agent would
//! choose the program with:
//! - E115, hardcoded: a GNU `sed` script that runs commands (`1e CMD`,
//!   `s/x/y/e`), `sqlite3` SQL with `.shell`/`.system` or a pipe, a `vim`
//!   `+!CMD` argument, `git -c` setting a key whose value git runs
//!   (`alias.x=!...`, `core.sshCommand`, `core.pager`, ...), `git config`
//!   setting such a key (`core.hooksPath DIR`), or a git option that names
//!   a program (`--upload-pack`), and `env`/`sudo` setting a
//!   variable that loads code (`LD_PRELOAD`, `BASH_ENV`, `NODE_OPTIONS`, ...);
//! - E126, user-controlled: an agent's value where the program reads code
//!   (the `sed` script, `sqlite3` SQL or `-cmd`, a `vim` file argument not
//!   after `--`, which may be `+!CMD`, the value of `git -c`; the key
//!   `git config` sets is the lint's, which knows the values it may take:
//!   [`git_config_agent_keys`]);
//! - W105: an agent's value in program position (`env -- {prog}`): the agent
//!   chooses what runs (not reported for a `destructive` command, which
//!   says so already). The guard then checks each call's words with these
//!   same rules ([`proposed_command_problems`]), but cannot know what an
//!   arbitrary program does.

use super::command_string::{
    UserArguments, command_string_diagnostics, is_known_program, program_name, program_positions_of,
};
use super::options::{ClusterValue, Style, Takes, short_cluster};
use super::syntax::GIT_GLOBAL_VALUED;
use crate::contract::codes;
use crate::contract::declaration::{ArgvPart, EnvValue, FlagForm, Subprocess};
use crate::fsutil::remembered;
use crate::report::Diagnostic;

/// One word of the command line as the declaration fixes it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal {
        field: String,
        text: String,
    },
    /// An agent's value; `whole` when the value is the entire word (no flag
    /// joined to it, no prefix); `joined` is the flag glued in front of it
    /// (`--command` of `--command=VALUE`).
    User {
        field: String,
        param: String,
        whole: bool,
        joined: Option<String>,
    },
}

impl Piece {
    fn field(&self) -> &str {
        match self {
            Self::Literal { field, .. } | Self::User { field, .. } => field,
        }
    }

    fn literal(&self) -> Option<&str> {
        match self {
            Self::Literal { text, .. } => Some(text),
            Self::User { .. } => None,
        }
    }
}

/// Stands for an agent's word when finding program positions: not an
/// option, not an assignment, not `--`.
const USER_WORD: &str = "\u{1}agent-value";

fn pieces(subprocess: &Subprocess) -> Vec<Piece> {
    let mut out = vec![Piece::Literal {
        field: "subprocess.binary".to_owned(),
        text: subprocess.binary.clone(),
    }];
    if !subprocess.templated {
        out.extend(
            subprocess
                .hardcoded_args
                .iter()
                .enumerate()
                .map(|(index, text)| Piece::Literal {
                    field: format!("subprocess.hardcoded_args[{index}]"),
                    text: text.clone(),
                }),
        );
        out.extend(
            subprocess
                .user_controlled_args
                .iter()
                .enumerate()
                .map(|(index, param)| Piece::User {
                    field: format!("subprocess.user_controlled_args[{index}]"),
                    param: param.clone(),
                    whole: true,
                    joined: None,
                }),
        );
        return out;
    }
    for (index, part) in subprocess.argv.iter().enumerate() {
        let field = format!("subprocess.argv[{index}]");
        match part {
            ArgvPart::Literal(text) => out.push(Piece::Literal {
                field,
                text: text.clone(),
            }),
            ArgvPart::Param(slot) => match (&slot.flag, slot.form) {
                (Some(flag), FlagForm::Separate) => {
                    out.push(Piece::Literal {
                        field: field.clone(),
                        text: flag.clone(),
                    });
                    out.push(Piece::User {
                        field,
                        param: slot.param.clone(),
                        whole: slot.prefix.is_empty(),
                        joined: None,
                    });
                }
                (Some(flag), FlagForm::Joined) => out.push(Piece::User {
                    field,
                    param: slot.param.clone(),
                    whole: false,
                    joined: Some(flag.clone()),
                }),
                (None, _) => out.push(Piece::User {
                    field,
                    param: slot.param.clone(),
                    whole: slot.prefix.is_empty(),
                    joined: None,
                }),
            },
        }
    }
    out
}

fn positions(pieces: &[Piece]) -> Vec<usize> {
    let texts: Vec<&str> = pieces
        .iter()
        .map(|piece| piece.literal().unwrap_or(USER_WORD))
        .collect();
    program_positions_of(&texts, false)
}

/// The parameter whose value is in program position, if an agent chooses
/// the program (W105).
pub fn agent_program_parameter(subprocess: &Subprocess) -> Option<String> {
    let pieces = pieces(subprocess);
    positions(&pieces)
        .into_iter()
        .find_map(|position| match &pieces[position] {
            Piece::User {
                param, whole: true, ..
            } => Some(param.clone()),
            _ => None,
        })
}

/// Every E115, E127 and W105 finding of this module for `subprocess`.
pub fn code_word_diagnostics(subprocess: &Subprocess) -> Vec<Diagnostic> {
    findings_for(subprocess, false)
}

/// The findings for `subprocess`; `proposed` when an agent chose every
/// word (then an option that moves where the program reads its config is
/// refused even though it reads as hardcoded).
fn findings_for(subprocess: &Subprocess, proposed: bool) -> Vec<Diagnostic> {
    let pieces = pieces(subprocess);
    let positions = positions(&pieces);
    let mut found: Vec<Diagnostic> = subprocess
        .env
        .iter()
        .filter(|variable| {
            matches!(variable.value, EnvValue::Literal(_)) && variable_loads_code(&variable.name)
        })
        .map(|variable| {
            hardcoded(
                &format!("subprocess.env.{}", variable.name),
                format!(
                    "`{}` makes the program load or run code from its value before it does what it was asked, which undoes argv safety; leave it out",
                    variable.name
                ),
            )
        })
        .collect();
    for &position in &positions {
        match &pieces[position] {
            Piece::User {
                field, whole: true, ..
            } => found.push(
                Diagnostic::new(
                    codes::Code::AgentChoosesProgram,
                    "an agent's value is in program position, so the agent chooses what runs; each call is checked for command strings (`sh -c`, `python -c`, `sed 1e`, ...), but aigent cannot know what an arbitrary program does with its arguments; prefer one declaration per program, or say that this one can do anything with `danger_level: destructive`",
                )
                .with_field(field.clone()),
            ),
            Piece::User { .. } => {}
            Piece::Literal { text, .. } => {
                let Some(name) = program_name(text) else {
                    continue;
                };
                program_rules(&name, &pieces[position + 1..], proposed, &mut found);
            }
        }
    }
    found
}

/// What is wrong with a concrete command line an agent proposed (a
/// declaration whose program the agent chooses): the E115 and E126
/// findings of it as though every word were hardcoded, as messages.
pub fn proposed_command_problems(words: &[String]) -> Vec<String> {
    let Some((binary, rest)) = words.split_first() else {
        return Vec::new();
    };
    let subprocess = Subprocess::from_template(
        binary.clone(),
        rest.iter().cloned().map(ArgvPart::Literal).collect(),
        false,
    );
    command_string_diagnostics(&subprocess, UserArguments::default())
        .into_iter()
        .chain(findings_for(&subprocess, true))
        .filter(|diagnostic| diagnostic.code != codes::Code::AgentChoosesProgram)
        .map(|diagnostic| diagnostic.message)
        .collect()
}

fn hardcoded(field: &str, message: String) -> Diagnostic {
    Diagnostic::new(codes::Code::ShellCommandString, message).with_field(field)
}

fn agent_code(field: &str, message: String) -> Diagnostic {
    Diagnostic::new(codes::Code::AgentValueIsCode, message).with_field(field)
}

fn program_rules(name: &str, after: &[Piece], proposed: bool, found: &mut Vec<Diagnostic>) {
    let before = found.len();
    each_program_rule(name, after, proposed, found);
    // One finding per word and code (`less -k {a}` is an option's value
    // and, to the `+CMD` rule, a file argument before `--`).
    let mut seen = std::collections::HashSet::new();
    let mut index = before;
    while index < found.len() {
        if seen.insert((found[index].code, found[index].field.clone())) {
            index += 1;
        } else {
            found.remove(index);
        }
    }
}

fn each_program_rule(name: &str, after: &[Piece], proposed: bool, found: &mut Vec<Diagnostic>) {
    program_options(name, after, proposed, found);
    match name {
        "psql" => psql(after, found),
        "sed" | "gsed" => sed(name, after, found),
        "sqlite" => sqlite(name, after, found),
        "vim" | "vi" | "nvim" | "gvim" | "ex" | "view" | "vimdiff" | "gvimdiff" | "nvi" => {
            plus_commands(name, "an Ex command", after, found);
        }
        "less" => plus_commands(name, "a less command", after, found),
        "awk" | "gawk" | "mawk" | "nawk" => awk(name, after, found),
        "git" => git(after, found),
        "env" | "sudo" => environment(name, after, found),
        _ => {}
    }
}

/// The values given to any of `options` among `after` (up to `--`): a
/// word after the option, the rest of `--option=VALUE`, and a value glued
/// to its flag by the template. Short options also match glued
/// (`-cVALUE`) when they are one letter.
fn option_values<'a>(after: &'a [Piece], options: &[&str]) -> Vec<&'a Piece> {
    let mut values = Vec::new();
    let mut index = 0;
    while index < after.len() {
        let piece = &after[index];
        match piece {
            Piece::Literal { text, .. } if text == "--" => break,
            Piece::Literal { text, .. } => {
                if options.contains(&text.as_str()) {
                    values.extend(after.get(index + 1));
                    index += 1;
                } else if options.iter().any(|option| {
                    text.strip_prefix(option).is_some_and(|rest| {
                        rest.starts_with('=')
                            || (option.len() == 2 && !option.starts_with("--") && !rest.is_empty())
                    })
                }) {
                    values.push(piece);
                }
            }
            Piece::User {
                joined: Some(flag), ..
            } if options.contains(&flag.as_str()) => values.push(piece),
            Piece::User { .. } => {}
        }
        index += 1;
    }
    values
}

/// The agent's values that `psql` could run as a shell command, each with
/// the first character that would make it one: `-c`/`--command` (psql
/// sends the value to the server as SQL unless it starts with `\`, a
/// meta-command, where `\! CMD` runs a shell) and `-o`/`--output` (a file
/// name starting with `|` is a command to pipe into). The lint, which
/// knows the parameters, refuses a value that can start with that
/// character. (field, parameter, character)
pub fn psql_command_values(subprocess: &Subprocess) -> Vec<(String, String, u8)> {
    let pieces = pieces(subprocess);
    let mut found = Vec::new();
    for position in positions(&pieces) {
        let Some(text) = pieces[position].literal() else {
            continue;
        };
        if program_name(text).as_deref() != Some("psql") {
            continue;
        }
        let after = &pieces[position + 1..];
        for (options, first) in PSQL_SHELL_OPTIONS {
            for piece in option_values(after, options) {
                if let Piece::User { field, param, .. } = piece {
                    found.push((field.clone(), param.clone(), *first));
                }
            }
        }
    }
    found
}

/// psql's options whose value starts a shell when it begins with a given
/// character.
const PSQL_SHELL_OPTIONS: &[(&[&str], u8)] =
    &[(&["-c", "--command"], b'\\'), (&["-o", "--output"], b'|')];

/// Hardcoded psql words that start a shell: a `-c` meta-command that runs
/// one (`\!`, a pipe, `\copy ... program`), an `-o |CMD`.
fn psql(after: &[Piece], found: &mut Vec<Diagnostic>) {
    for (options, first) in PSQL_SHELL_OPTIONS {
        for piece in option_values(after, options) {
            let Piece::Literal { field, text } = piece else {
                continue;
            };
            let value = options
                .iter()
                .find_map(|option| {
                    text.strip_prefix(option)
                        .map(|rest| rest.strip_prefix('=').unwrap_or(rest))
                })
                .filter(|rest| !rest.is_empty())
                .unwrap_or(text);
            let lower = value.to_ascii_lowercase();
            let runs_shell = value.as_bytes().first() == Some(first)
                && (*first == b'|'
                    || lower.contains('!')
                    || lower.contains('|')
                    || lower.contains("program"));
            if runs_shell {
                found.push(hardcoded(
                    field,
                    format!(
                        "`psql {}` starts a shell command, which undoes argv safety",
                        text.escape_debug()
                    ),
                ));
            }
        }
    }
}

/// Where a `free_text` or `regex` value (which may hold `$`, `(`, `;`, ...)
/// would be read as code, beyond the places E115 and E127 refuse for any
/// value: the program position (the agent's text would choose what runs),
/// and any word of `make`, which reads an operand `NAME=VALUE` as a
/// variable assignment, where `$(shell CMD)` runs a command. (field,
/// parameter, why)
pub fn text_code_positions(subprocess: &Subprocess) -> Vec<(String, String, String)> {
    let pieces = pieces(subprocess);
    let positions = positions(&pieces);
    let mut found = Vec::new();
    for (rank, &position) in positions.iter().enumerate() {
        match &pieces[position] {
            Piece::User { field, param, .. } => found.push((
                field.clone(),
                param.clone(),
                "it is in program position, so the text would choose the program to run".to_owned(),
            )),
            Piece::Literal { text, .. } => {
                let is_make = program_name(text)
                    .is_some_and(|name| matches!(name.as_str(), "make" | "gmake" | "bmake"));
                if !is_make {
                    continue;
                }
                let end = positions.get(rank + 1).copied().unwrap_or(pieces.len());
                for piece in &pieces[position + 1..end] {
                    if let Piece::User { field, param, .. } = piece {
                        found.push((
                            field.clone(),
                            param.clone(),
                            "`make` reads an operand `NAME=VALUE` as a variable assignment, where `$(shell CMD)` runs a command".to_owned(),
                        ));
                    }
                }
            }
        }
    }
    found
}

/// GNU `sed`: `-e SCRIPT`, `--expression=SCRIPT`, else the first positional
/// word is the script. `e` runs a command; `--sandbox` refuses it.
fn sed(program: &str, after: &[Piece], found: &mut Vec<Diagnostic>) {
    if after
        .iter()
        .any(|piece| piece.literal() == Some("--sandbox"))
    {
        return;
    }
    let mut scripts: Vec<&Piece> = Vec::new();
    let mut from_file = false;
    let mut index = 0;
    while index < after.len() {
        let piece = &after[index];
        let Some(text) = piece.literal() else {
            if scripts.is_empty() && !from_file {
                scripts.push(piece);
            }
            break;
        };
        if text == "--" {
            if scripts.is_empty()
                && !from_file
                && let Some(next) = after.get(index + 1)
            {
                scripts.push(next);
            }
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            match long.split_once('=') {
                Some(("expression", _)) => scripts.push(piece),
                Some(("file", _)) => from_file = true,
                None if long == "expression" || long == "file" || long == "line-length" => {
                    if long == "expression" {
                        scripts.extend(after.get(index + 1));
                    }
                    from_file |= long == "file";
                    index += 1;
                }
                _ => {}
            }
            index += 1;
            continue;
        }
        // `-i[SUFFIX]`: the rest of the cluster is a suffix, not a script.
        let takes = |ch| match ch {
            'e' | 'f' | 'l' => Takes::Value,
            'i' => Takes::GluedValue,
            _ => Takes::Nothing,
        };
        if let Some(cluster) = short_cluster(text, Style::Getopt, takes) {
            match (cluster.valued_letter(), cluster.value) {
                (Some('e'), Some(ClusterValue::NextWord)) => scripts.extend(after.get(index + 1)),
                (Some('e'), _) => scripts.push(piece),
                (Some('f'), _) => from_file = true,
                _ => {}
            }
            index += cluster.words();
            continue;
        }
        if scripts.is_empty() && !from_file {
            scripts.push(piece);
        }
        break;
    }
    for script in scripts {
        match script {
            Piece::User { field, .. } => found.push(agent_code(
                field,
                format!(
                    "an agent's value is the `{program}` script, and a script can run commands (`1e CMD`, `s/x/y/e`) and write files (`w FILE`); hardcode the script and pass values as data, or add `--sandbox`"
                ),
            )),
            Piece::Literal { field, text } => {
                if sed_script_runs_commands(text) {
                    found.push(hardcoded(
                        field,
                        format!(
                            "the `{program}` script `{}` runs a command (the `e` command or the `s///e` flag), which undoes argv safety; add `--sandbox` or drop the `e`",
                            text.escape_debug()
                        ),
                    ));
                }
            }
        }
    }
}

/// `awk`: `-f FILE`/`-E FILE` give the program as a file, `-e`/`--source`
/// inline; else the first positional word is the program, which can run
/// commands (`system()`, pipes). An agent's value there is code, whatever
/// its pattern (E127), like a `sed` script; the program file is the
/// option table's.
fn awk(program: &str, after: &[Piece], found: &mut Vec<Diagnostic>) {
    let mut scripts: Vec<&Piece> = Vec::new();
    let mut from_file = false;
    let mut index = 0;
    while index < after.len() {
        let piece = &after[index];
        let Some(text) = piece.literal() else {
            if scripts.is_empty() && !from_file {
                scripts.push(piece);
            }
            break;
        };
        if text == "--" {
            if scripts.is_empty()
                && !from_file
                && let Some(next) = after.get(index + 1)
            {
                scripts.push(next);
            }
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, glued) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            match name {
                "source" if glued => scripts.push(piece),
                "source" => scripts.extend(after.get(index + 1)),
                "file" | "exec" => from_file = true,
                _ => {}
            }
            let takes_value = matches!(
                name,
                "source" | "file" | "exec" | "field-separator" | "assign" | "include" | "load"
            );
            index += if takes_value && !glued { 2 } else { 1 };
            index += usize::from(!takes_value && switch_value(after, index));
            continue;
        }
        let takes = |ch| value_letter("fEeFvil".contains(ch));
        if let Some(cluster) = short_cluster(text, Style::Getopt, takes) {
            match (cluster.valued_letter(), cluster.value) {
                (Some('e'), Some(ClusterValue::NextWord)) => scripts.extend(after.get(index + 1)),
                (Some('e'), _) => scripts.push(piece),
                (Some('f' | 'E'), _) => from_file = true,
                _ => {}
            }
            index += cluster.words();
            index += usize::from(cluster.value.is_none() && switch_value(after, index));
            continue;
        }
        if scripts.is_empty() && !from_file {
            scripts.push(piece);
        }
        break;
    }
    for script in scripts {
        if let Piece::User { field, .. } = script {
            found.push(agent_code(
                field,
                format!(
                    "an agent's value is the `{program}` program, and an awk program can run commands (`system()`, `print | \"CMD\"`) and write files; hardcode the program (or `-f FILE`) and pass values as data (`-v name=VALUE` is not safe either: use ENVIRON or a file operand)"
                ),
            ));
        }
    }
}

/// Whether `after[index]` is the value of a switch slot whose flag is the
/// word before it (`{param: sandbox, flag: --sandbox}`): a boolean runs
/// as its flag alone, so the value is no word of the command line.
fn switch_value(after: &[Piece], index: usize) -> bool {
    match (
        index.checked_sub(1).and_then(|at| after.get(at)),
        after.get(index),
    ) {
        (Some(Piece::Literal { field, .. }), Some(Piece::User { field: own, .. })) => field == own,
        _ => false,
    }
}

fn value_letter(takes: bool) -> Takes {
    if takes { Takes::Value } else { Takes::Nothing }
}

/// What a program does with an option's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Runs it, or runs programs from it (a pager, a shell, a directory of
    /// subcommands): refused hardcoded (E115) and from an agent (E127).
    Runs,
    /// Reads its configuration (or its code) from there, and a
    /// configuration can name programs to run: refused from an agent
    /// (E127); a declaration may fix it.
    Config,
}

/// Options that load code, run a program, or move where the program reads
/// its configuration, beyond the inline-code options of
/// `command_string` (`mysql --pager`, `rsync -e`, `tar --to-command`).
struct OptionRule {
    programs: &'static [&'static str],
    /// As written: `--pager`, `-P`. A long option ending in `=` counts only
    /// with its value glued (`git --exec-path` alone prints a path).
    options: &'static [&'static str],
    /// For an option that sets one of many settings (`ssh -o KEY=VALUE`):
    /// the keys (lowercase) that run code; empty when every value does.
    keys: &'static [&'static str],
    effect: Effect,
    /// The options are the program's own, read only before its first
    /// operand (git's `-C` before the subcommand; `git log -C` finds
    /// copies).
    leading_only: bool,
    why: &'static str,
}

/// The options of `program` whose value names a file or setting that
/// runs code (`make -C DIR`, `awk -f FILE`): each takes a value.
pub fn code_options(program: &str) -> impl Iterator<Item = &'static str> + '_ {
    let name = program.rsplit('/').next().unwrap_or(program);
    OPTION_RULES
        .iter()
        .filter(move |rule| rule.programs.contains(&name))
        .flat_map(|rule| rule.options.iter().copied())
        .filter(|option| !option.ends_with('='))
}

const OPTION_RULES: &[OptionRule] = &[
    OptionRule {
        programs: &["man"],
        options: &["--pager", "-P", "--html="],
        keys: &[],
        effect: Effect::Runs,
        leading_only: false,
        why: "man runs the pager (or browser) it names through a shell",
    },
    OptionRule {
        programs: &["man"],
        options: &["--config-file", "-C"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "a man configuration file names the pager and the programs man runs",
    },
    OptionRule {
        programs: &["npm", "npx"],
        options: &[
            "--script-shell",
            "--shell",
            "--editor",
            "--browser",
            "--git",
            "--node-options",
        ],
        keys: &[],
        effect: Effect::Runs,
        leading_only: false,
        why: "npm runs that program (or hands those options to node)",
    },
    OptionRule {
        programs: &["npm", "npx"],
        options: &["--userconfig", "--globalconfig"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "an npmrc sets `script-shell`, `node-options` and other settings npm runs",
    },
    OptionRule {
        programs: &["git"],
        options: &["--exec-path="],
        keys: &[],
        effect: Effect::Runs,
        leading_only: true,
        why: "git runs its subcommands (`git-subtree`, ...) from that directory",
    },
    OptionRule {
        programs: &["git"],
        options: &["--template"],
        keys: &[],
        effect: Effect::Runs,
        leading_only: false,
        why: "git copies the hooks of that directory into the repository, and runs them (`post-checkout` on clone)",
    },
    OptionRule {
        programs: &["git"],
        options: &["--git-dir", "-C"],
        keys: &[],
        effect: Effect::Config,
        leading_only: true,
        why: "git reads that repository's config, whose keys run programs (`core.fsmonitor`, `core.pager`, `alias.x=!CMD`)",
    },
    OptionRule {
        programs: &["less"],
        options: &["--lesskey-file", "-k", "--lesskey-src"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "a lesskey file sets `LESSOPEN`, a command less runs on each file",
    },
    OptionRule {
        programs: &["curl"],
        options: &["--config", "-K"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "a curl config file sets any option: where to write (`output`), what to send (`upload-file`, `data = @FILE`)",
    },
    OptionRule {
        programs: &["wget"],
        options: &["--use-askpass"],
        keys: &[],
        effect: Effect::Runs,
        leading_only: false,
        why: "wget runs that program to ask for credentials",
    },
    OptionRule {
        programs: &["wget"],
        options: &["--config", "--execute", "-e"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "wgetrc commands set any option: where to write (`output_document`), which headers to send",
    },
    OptionRule {
        programs: &["ssh", "scp", "sftp"],
        options: &["-o"],
        keys: &[
            "proxycommand",
            "localcommand",
            "permitlocalcommand",
            "knownhostscommand",
            "match",
            "include",
        ],
        effect: Effect::Runs,
        leading_only: false,
        why: "ssh runs `ProxyCommand`, `LocalCommand` and `KnownHostsCommand` through a shell",
    },
    OptionRule {
        programs: &["scp", "sftp"],
        options: &["-S"],
        keys: &[],
        effect: Effect::Runs,
        leading_only: false,
        why: "it runs that program for the connection",
    },
    OptionRule {
        programs: &["ssh", "scp", "sftp"],
        options: &["-F"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "an ssh config sets `ProxyCommand` and `LocalCommand`, which ssh runs",
    },
    OptionRule {
        programs: &["kubectl", "helm"],
        options: &["--kubeconfig"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "a kubeconfig's `exec` credential plugin is a program it runs",
    },
    OptionRule {
        programs: &["docker"],
        options: &["--config"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "docker's config names credential helpers, programs it runs",
    },
    OptionRule {
        programs: &["cargo"],
        options: &["--config"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "`--config` sets any cargo setting, and some name programs (`build.rustc-wrapper`, `target.<triple>.runner`)",
    },
    OptionRule {
        programs: &["mysql", "mariadb", "mysqldump"],
        options: &["--defaults-file", "--defaults-extra-file"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "a MySQL option file sets `pager` and `init-command`",
    },
    OptionRule {
        programs: &["make", "gmake"],
        options: &["-f", "--file", "--makefile", "-C", "--directory"],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "make runs the recipes of the makefile it reads there, each a shell command",
    },
    OptionRule {
        programs: &["awk", "gawk", "mawk", "nawk"],
        options: &[
            "-f",
            "--file",
            "-E",
            "--exec",
            "-i",
            "--include",
            "-l",
            "--load",
        ],
        keys: &[],
        effect: Effect::Config,
        leading_only: false,
        why: "awk runs that file as its program (or loads it as an extension), and a program can run commands",
    },
];

/// The options of [`OPTION_RULES`] among `after`.
fn program_options(program: &str, after: &[Piece], proposed: bool, found: &mut Vec<Diagnostic>) {
    for rule in OPTION_RULES
        .iter()
        .filter(|rule| rule.programs.contains(&program))
    {
        let after = if rule.leading_only {
            leading_options(after)
        } else {
            after
        };
        let separate: Vec<&str> = rule
            .options
            .iter()
            .copied()
            .filter(|option| !option.ends_with('='))
            .collect();
        let mut values = option_values(after, &separate);
        // `--exec-path=DIR`: only glued.
        for option in rule.options.iter().filter(|option| option.ends_with('=')) {
            let flag = option.trim_end_matches('=');
            values.extend(
                after
                    .iter()
                    .take_while(|p| p.literal() != Some("--"))
                    .filter(|piece| match piece {
                        Piece::Literal { text, .. } => text.starts_with(option),
                        Piece::User { joined, .. } => joined.as_deref() == Some(flag),
                    }),
            );
        }
        for piece in values {
            match piece {
                Piece::User { field, .. } => found.push(agent_code(
                    field,
                    format!(
                        "an agent's value fills an option of `{program}` ({}), and {}; hardcode it",
                        rule.options
                            .iter()
                            .map(|option| format!("`{}`", option.trim_end_matches('=')))
                            .collect::<Vec<_>>()
                            .join(", "),
                        rule.why
                    ),
                )),
                Piece::Literal { field, text } => {
                    let value = option_value_text(text, rule.options);
                    if !rule.keys.is_empty() {
                        let key = value
                            .split(['=', ' ', '\t'])
                            .next()
                            .unwrap_or("")
                            .to_ascii_lowercase();
                        if !rule.keys.contains(&key.as_str()) {
                            continue;
                        }
                    }
                    if rule.effect == Effect::Runs || proposed {
                        found.push(hardcoded(
                            field,
                            format!(
                                "`{program} {}`: {}, which undoes argv safety; drop it",
                                text.escape_debug(),
                                rule.why
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// The words before git's subcommand: its own options, with the values of
/// those that take one as the next word.
fn leading_options(after: &[Piece]) -> &[Piece] {
    const TAKE_A_WORD: &[&str] = &[
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--super-prefix",
        "--list-cmds",
    ];
    let mut index = 0;
    loop {
        let option = match after.get(index) {
            Some(Piece::Literal { text, .. }) => text.as_str(),
            // `--git-dir={dir}`: the template glues the agent's value.
            Some(Piece::User {
                joined: Some(flag), ..
            }) => flag.as_str(),
            _ => break,
        };
        if option == "--" || !option.starts_with('-') {
            break;
        }
        let separate = matches!(after.get(index), Some(Piece::Literal { .. }));
        index += if separate && TAKE_A_WORD.contains(&option) {
            2
        } else {
            1
        };
    }
    &after[..index.min(after.len())]
}

/// The value in `text`, a word [`option_values`] returned: the rest of
/// `--option=VALUE` or `-oVALUE`, or the word itself (a separate value).
fn option_value_text<'a>(text: &'a str, options: &[&str]) -> &'a str {
    options
        .iter()
        .find_map(|option| {
            let flag = option.trim_end_matches('=');
            let rest = text.strip_prefix(flag)?;
            match rest.strip_prefix('=') {
                Some(value) => Some(value),
                None if flag.len() == 2 && !flag.starts_with("--") && !rest.is_empty() => {
                    Some(rest)
                }
                None => None,
            }
        })
        .unwrap_or(text)
}

/// A sed script with an `e` command (after an address or a separator) or
/// an `s` command with the `e` flag. Over-approximates rather than parse.
fn sed_script_runs_commands(script: &str) -> bool {
    sed_e_command(script) || s_command_with_e_flag(script)
}

/// An `e` standing alone (then whitespace, `;`, `}` or the end) after the
/// start, a newline, an address character (a digit, `$`, `/`, `~`, `,`,
/// `!`) or a separator (`;`, `{`, `}`), with only whitespace between.
/// Written out rather than as a regex: the hook lints declarations on every
/// call, and compiling the regex cost more than the rest of the lint.
fn sed_e_command(script: &str) -> bool {
    script.match_indices('e').any(|(at, _)| {
        let ends = script[at + 1..]
            .chars()
            .next()
            .is_none_or(|next| next.is_whitespace() || matches!(next, ';' | '}'));
        ends && script[..at]
            .chars()
            .rev()
            .find(|before| *before == '\n' || !before.is_whitespace())
            .is_none_or(|before| {
                before.is_ascii_digit()
                    || matches!(before, '\n' | ';' | '{' | '}' | '$' | '/' | '!' | ',' | '~')
            })
    })
}

/// Whether some `s` command in `script` carries the `e` flag: each `sD...D...D`
/// with any delimiter D, then its flags.
fn s_command_with_e_flag(script: &str) -> bool {
    let chars: Vec<char> = script.chars().collect();
    let mut index = 0;
    while index < chars.len() {
        if chars[index] != 's' || index + 1 >= chars.len() {
            index += 1;
            continue;
        }
        let delimiter = chars[index + 1];
        if delimiter.is_alphanumeric() || delimiter.is_whitespace() || delimiter == '\\' {
            index += 1;
            continue;
        }
        let mut at = index + 2;
        let mut seen = 0;
        while at < chars.len() && seen < 2 {
            match chars[at] {
                '\\' => at += 1,
                ch if ch == delimiter => seen += 1,
                _ => {}
            }
            at += 1;
        }
        if seen < 2 {
            return false;
        }
        while at < chars.len() && (chars[at].is_ascii_alphanumeric()) {
            if chars[at] == 'e' {
                return true;
            }
            if chars[at] == 'w' {
                break;
            }
            at += 1;
        }
        index = at.max(index + 1);
    }
    false
}

/// `sqlite3 [OPTIONS] DATABASE [SQL...]`: each SQL word (and `-cmd`'s
/// value) may be a dot-command; `.shell` and `.system` run commands.
/// `-safe` refuses them.
fn sqlite(program: &str, after: &[Piece], found: &mut Vec<Diagnostic>) {
    if after.iter().any(|piece| {
        piece
            .literal()
            .is_some_and(|text| matches!(text, "-safe" | "--safe"))
    }) {
        return;
    }
    let mut code: Vec<&Piece> = Vec::new();
    let mut database_seen = false;
    let mut options_open = true;
    let mut index = 0;
    while index < after.len() {
        let piece = &after[index];
        match piece.literal() {
            Some("--") if options_open => options_open = false,
            Some(text) if options_open && text.starts_with('-') && text.len() > 1 => {
                let option = text.trim_start_matches('-');
                match option {
                    "cmd" => {
                        code.extend(after.get(index + 1));
                        index += 1;
                    }
                    "init" | "separator" | "nullvalue" | "newline" | "vfs" | "mmap" | "heap"
                    | "maxsize" | "pagecache" | "escape" | "lookaside" => index += 1,
                    _ => {}
                }
            }
            _ if !database_seen => database_seen = true,
            _ => code.push(piece),
        }
        index += 1;
    }
    for piece in code {
        match piece {
            Piece::User { field, .. } => found.push(agent_code(
                field,
                format!(
                    "an agent's value reaches `{program}` as SQL, where a dot-command (`.shell CMD`, `.system CMD`) runs commands; pass `-safe`, or hardcode the SQL and pass values as parameters"
                ),
            )),
            Piece::Literal { field, text } => {
                if sqlite_runs_commands(text) {
                    found.push(hardcoded(
                        field,
                        format!(
                            "`{program}` runs `{}` as a dot-command that starts a shell, which undoes argv safety; add `-safe` or drop it",
                            text.escape_debug()
                        ),
                    ));
                }
            }
        }
    }
}

/// A line that is, after leading whitespace, a dot command that runs a
/// program: `.sh`/`.system` (and their prefixes), or `.output`, `.once`,
/// `.import`, `.read`, `.open`, `.excel` with a `|pipe` argument. Letters
/// compare as the regex engine's case folding does (`ſ` is an `s`).
fn sqlite_runs_commands(sql: &str) -> bool {
    const PIPED: [&str; 6] = ["output", "once", "import", "read", "open", "excel"];
    let folded = |c: char| {
        if c == '\u{17F}' {
            's'
        } else {
            c.to_ascii_lowercase()
        }
    };
    let strip = |text: &str, word: &str| -> Option<usize> {
        let mut chars = text.char_indices();
        for expected in word.chars() {
            let (_, c) = chars.next()?;
            if folded(c) != expected {
                return None;
            }
        }
        Some(chars.next().map_or(text.len(), |(at, _)| at))
    };
    sql.split('\n').any(|line| {
        let Some(command) = line.trim_start().strip_prefix('.') else {
            return false;
        };
        if strip(command, "sh").is_some() || strip(command, "sy").is_some() {
            return true;
        }
        PIPED
            .iter()
            .filter_map(|word| strip(command, word))
            .any(|end| {
                let argument = &command[end..];
                let quoted = argument.trim_start();
                quoted.len() < argument.len()
                    && quoted
                        .strip_prefix(['\'', '"'])
                        .unwrap_or(quoted)
                        .starts_with('|')
            })
    })
}

/// `vim FILE...` runs a file argument that starts with `+` as an Ex command
/// (`+!CMD`) unless it follows `--`.
/// `vim` and `less` read an argument `+CMD` as a command to run at start
/// (`what`: an Ex command, a less command), and `+!CMD` (less: also
/// `+|CMD`) starts a shell.
fn plus_commands(program: &str, what: &str, after: &[Piece], found: &mut Vec<Diagnostic>) {
    for piece in after {
        match piece {
            Piece::Literal { text, .. } if text == "--" => return,
            Piece::Literal { field, text } => {
                if text.starts_with('+')
                    && (text.contains('!')
                        || text.contains("system")
                        || (program == "less" && text.contains('|')))
                {
                    found.push(hardcoded(
                        field,
                        format!(
                            "`{program} {}` runs {what} that starts a program, which undoes argv safety",
                            text.escape_debug()
                        ),
                    ));
                }
            }
            Piece::User { field, .. } => {
                found.push(agent_code(
                    field,
                    format!(
                        "`{program}` reads a file argument that starts with `+` as {what} (`+!CMD` runs a shell), and this agent's value comes before any `--`; put `--` in front of the agent's file arguments"
                    ),
                ));
                return;
            }
        }
    }
}

/// `git -c KEY=VALUE` (also `--config-env`, and `clone -c`): keys whose
/// value git runs. And options that name a program to run.
fn git(after: &[Piece], found: &mut Vec<Diagnostic>) {
    git_config_sets(after, found);
    let mut index = 0;
    while index < after.len() {
        let piece = &after[index];
        let Some(text) = piece.literal() else {
            index += 1;
            continue;
        };
        if text == "--" {
            return;
        }
        let setting: Option<&Piece> = match text {
            "-c" | "--config" | "--config-env" => {
                index += 1;
                after.get(index)
            }
            _ if text.starts_with("--config=") || text.starts_with("--config-env=") => Some(piece),
            _ if text.starts_with("-c") && text.len() > 2 && !text.starts_with("--") => Some(piece),
            _ => None,
        };
        match setting {
            Some(Piece::User { field, .. }) => found.push(agent_code(
                field,
                "an agent's value is a `git -c` setting, and git runs the value of many keys (`alias.x=!CMD`, `core.sshCommand`, `core.pager`); hardcode the setting".to_owned(),
            )),
            Some(Piece::Literal { field, text }) => {
                let setting = text
                    .strip_prefix("--config-env=")
                    .or_else(|| text.strip_prefix("--config="))
                    .or_else(|| text.strip_prefix("-c").filter(|_| !text.starts_with("--")))
                    .unwrap_or(text);
                let from_environment = text.starts_with("--config-env")
                    || index > 0
                        && after[index - 1].literal() == Some("--config-env");
                if git_setting_runs_code(setting, from_environment) {
                    found.push(hardcoded(
                        field,
                        format!(
                            "`git -c {}` sets a key whose value git runs as a command, which undoes argv safety; drop it",
                            setting.escape_debug()
                        ),
                    ));
                }
            }
            None => {
                let name = text.split_once('=').map_or(text, |(name, _)| name);
                if matches!(
                    name,
                    "--upload-pack" | "--receive-pack" | "--exec" | "--extcmd" | "--open-files-in-pager"
                ) {
                    found.push(hardcoded(
                        piece.field(),
                        format!(
                            "`git {}` names a program for git to run, which undoes argv safety; drop it",
                            text.escape_debug()
                        ),
                    ));
                }
            }
        }
        index += 1;
    }
}

/// Whether git runs (or loads code from) the value of `KEY=VALUE`
/// (`--config-env`'s `KEY=ENVVAR`, whose value is not known): the one
/// list, [`super::git_config`].
fn git_setting_runs_code(setting: &str, from_environment: bool) -> bool {
    match setting.split_once('=') {
        Some((key, value)) => {
            super::git_config::runs_code(key, (!from_environment).then_some(value))
        }
        None => super::git_config::runs_code(setting, Some("true")),
    }
}

/// `git config`'s options that read or remove rather than set (old style;
/// the new style names its action as the first word, `git config get`).
const GIT_CONFIG_NOT_SETTING: &[&str] = &[
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "--get-color",
    "--get-colorbool",
    "-l",
    "--list",
    "--unset",
    "--unset-all",
    "--remove-section",
];

/// `git config`'s options that take the next word as their value.
const GIT_CONFIG_VALUED: &[&str] = &[
    "-f",
    "--file",
    "--blob",
    "--type",
    "--default",
    "--comment",
    "--value",
];

/// The key a `git config` in `after` (the words after `git`) may set, and
/// the operands after it (its value): `None` unless `after` is a `git
/// config` with no option or first word that only reads or removes.
fn git_config_key(after: &[Piece]) -> Option<(&Piece, Vec<&Piece>)> {
    // git's own options, then the subcommand.
    let mut index = 0;
    while let Some(Piece::Literal { field, text }) = after.get(index)
        && text.starts_with('-')
        && text != "--"
    {
        let joined = text.contains('=') || (text.starts_with("-c") && text.len() > 2);
        let own_value = after
            .get(index + 1)
            .is_some_and(|next| next.field() == field);
        index += if own_value || (GIT_GLOBAL_VALUED.contains(&text.as_str()) && !joined) {
            2
        } else {
            1
        };
    }
    if after.get(index)?.literal()? != "config" {
        return None;
    }
    let mut operands: Vec<&Piece> = Vec::new();
    let mut ended = false;
    let mut rest = after[index + 1..].iter().peekable();
    while let Some(piece) = rest.next() {
        match piece {
            Piece::Literal { text, .. } if !ended && text == "--" => ended = true,
            Piece::Literal { field, text } if !ended && text.starts_with('-') => {
                let name = text.split_once('=').map_or(text.as_str(), |(name, _)| name);
                if GIT_CONFIG_NOT_SETTING.contains(&name) {
                    return None;
                }
                // The slot's own value (a flag and its parameter), or the
                // word a valued option takes.
                let own_value = rest.peek().is_some_and(|next| next.field() == field);
                if own_value || (GIT_CONFIG_VALUED.contains(&name) && !text.contains('=')) {
                    rest.next();
                }
            }
            Piece::User {
                joined: Some(_), ..
            } if !ended => {}
            _ => operands.push(piece),
        }
    }
    let mut operands = operands.into_iter();
    let mut key = operands.next()?;
    match key.literal() {
        Some("set") => key = operands.next()?,
        Some("get" | "list" | "unset" | "remove-section" | "edit") => return None,
        _ => {}
    }
    Some((key, operands.collect()))
}

/// `git config KEY VALUE` with a hardcoded key whose value git runs
/// (`core.hooksPath`, `core.sshCommand`, `alias.x` set to `!CMD`): E115.
/// A key an agent chooses is the lint's to judge
/// ([`git_config_agent_keys`]), which knows the values it may take.
fn git_config_sets(after: &[Piece], found: &mut Vec<Diagnostic>) {
    let Some((Piece::Literal { field, text: key }, values)) = git_config_key(after) else {
        return;
    };
    let Some(value) = values.first() else {
        return;
    };
    if super::git_config::runs_code(key, value.literal()) {
        found.push(hardcoded(
            field,
            format!(
                "`git config {}` sets a key whose value git runs as a command (or that makes it run one), outside any sandbox, which undoes argv safety; drop it",
                key.escape_debug()
            ),
        ));
    }
}

/// The agent's values a `git config` may set as the key, with whether a
/// value follows the key in the template (else the parameter sets a key
/// only if it holds several words, key and value: an array). (field,
/// parameter, value follows)
pub fn git_config_agent_keys(subprocess: &Subprocess) -> Vec<(String, String, bool)> {
    let pieces = pieces(subprocess);
    let mut found = Vec::new();
    for position in positions(&pieces) {
        let Some(text) = pieces[position].literal() else {
            continue;
        };
        if program_name(text).as_deref() != Some("git") {
            continue;
        }
        if let Some((Piece::User { field, param, .. }, values)) =
            git_config_key(&pieces[position + 1..])
        {
            found.push((field.clone(), param.clone(), !values.is_empty()));
        }
    }
    found
}

/// `env NAME=VALUE` and `sudo NAME=VALUE` before the program: variables
/// that make the next program load or run code.
fn environment(program: &str, after: &[Piece], found: &mut Vec<Diagnostic>) {
    for piece in after {
        let Some(text) = piece.literal() else {
            return;
        };
        if text == "--" {
            continue;
        }
        let Some((name, _)) = text.split_once('=') else {
            if text.starts_with('-') {
                continue;
            }
            return;
        };
        if text.starts_with('-') {
            continue;
        }
        if variable_loads_code(name) {
            found.push(hardcoded(
                piece.field(),
                format!(
                    "`{program} {name}=...` makes the program it runs load or run code from that value, which undoes argv safety; drop it"
                ),
            ));
        }
    }
}

pub use super::environment::variable_loads_code;

/// Whether `binary` is, on this machine, a shell or interpreter under
/// another name: a symlink whose target has a known name, or the same file
/// (device and inode) as a known program found on `PATH`. Returns the real
/// program's path. `base` is where a relative path is resolved.
///
/// Finding each known program on `PATH` costs a `stat` per directory and
/// name (about two hundred), so only the names `matters` picks are looked
/// for: the ones whose disguise would change the caller's answer.
#[cfg(unix)]
pub fn disguised_program(
    binary: &str,
    base: Option<&std::path::Path>,
    matters: &dyn Fn(&str) -> bool,
) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    use std::path::{Path, PathBuf};

    if is_known_program(binary) {
        return None;
    }
    // The same program under its own name (`git` found as
    // `/usr/local/bin/git`) is not disguised.
    let disguise = |real: String| -> Option<String> {
        (program_name(&real) != program_name(binary)).then_some(real)
    };
    let search_path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    let locate = |name: &str| -> Option<PathBuf> {
        if name.contains('/') {
            let path = Path::new(name);
            return Some(match base {
                Some(base) if path.is_relative() => base.join(path),
                _ => path.to_path_buf(),
            });
        }
        search_path
            .iter()
            .map(|dir| dir.join(name))
            .find(|candidate| remembered::metadata(candidate).is_ok_and(|meta| meta.is_file()))
    };
    let path = locate(binary)?;
    let real = remembered::canonicalize(&path).ok()?;
    let real_text = real.to_string_lossy().into_owned();
    if is_known_program(&real_text) {
        return disguise(real_text);
    }
    let identity = remembered::metadata(&real).ok()?;
    const KNOWN: &[&str] = &[
        "sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "busybox", "python3", "python", "perl",
        "ruby", "node", "php", "sed", "sqlite3", "vim", "git", "env",
    ];
    KNOWN.iter().filter(|name| matters(name)).find_map(|name| {
        let candidate = locate(name)?;
        let meta = remembered::metadata(&candidate).ok()?;
        (meta.dev() == identity.dev() && meta.ino() == identity.ino())
            .then(|| candidate.to_string_lossy().into_owned())
            .and_then(disguise)
    })
}

/// Without Unix file identities, only symlinks are followed.
#[cfg(not(unix))]
pub fn disguised_program(
    binary: &str,
    base: Option<&std::path::Path>,
    _matters: &dyn Fn(&str) -> bool,
) -> Option<String> {
    if is_known_program(binary) || !binary.contains(['/', '\\']) {
        return None;
    }
    let path = std::path::Path::new(binary);
    let path = match base {
        Some(base) if path.is_relative() => base.join(path),
        _ => path.to_path_buf(),
    };
    let real = std::fs::canonicalize(path).ok()?;
    let real_text = real.to_string_lossy().into_owned();
    is_known_program(&real_text).then_some(real_text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{Origin, SourceFormat, read_declaration};

    /// (code, field) of each finding for a templated `argv` (YAML flow list).
    fn findings(binary: &str, argv: &str) -> Vec<(String, String)> {
        let text = format!(
            "name: t\ndescription: d\nparameters:\n  a: {{type: string}}\n  b: {{type: array}}\nsubprocess: {{binary: {binary}, argv: {argv}}}\n"
        );
        let parsed = read_declaration(&text, SourceFormat::Yaml, &Origin::default());
        let declaration = parsed.declaration.expect("parses");
        let subprocess = declaration.subprocess.expect("has a subprocess");
        code_word_diagnostics(&subprocess)
            .into_iter()
            .map(|d| (d.code.to_owned(), d.field.unwrap_or_default()))
            .collect()
    }

    fn codes_of(binary: &str, argv: &str) -> Vec<String> {
        findings(binary, argv)
            .into_iter()
            .map(|(code, _)| code)
            .collect()
    }

    #[test]
    fn sed_scripts() {
        assert_eq!(codes_of("sed", r#"["1e id", {param: a}]"#), ["E115"]);
        assert_eq!(codes_of("sed", r#"[-n, "s/x/y/e", {param: a}]"#), ["E115"]);
        assert_eq!(codes_of("sed", r#"[-e, "s|x|y|ge", {param: a}]"#), ["E115"]);
        assert_eq!(
            codes_of("gsed", r#"["--expression=$e date", {param: a}]"#),
            ["E115"]
        );
        assert_eq!(codes_of("sed", r#"[{param: a}, {param: b}]"#), ["E127"]);
        assert_eq!(codes_of("sed", r#"[-e, {param: a}, {param: b}]"#), ["E127"]);
        assert_eq!(codes_of("sed", r#"[-i.bak, {param: a}]"#), ["E127"]);
        // Harmless scripts, a script file, and the sandbox are fine.
        assert!(codes_of("sed", r#"[-n, "s/e/E/g", {param: a}]"#).is_empty());
        assert!(codes_of("sed", r#"["s/x/y/w out", {param: a}]"#).is_empty());
        assert!(codes_of("sed", r#"[-f, script.sed, {param: a}]"#).is_empty());
        assert!(codes_of("sed", r#"[--sandbox, {param: a}, {param: b}]"#).is_empty());
    }

    #[test]
    fn sqlite_sql_and_dot_commands() {
        assert_eq!(codes_of("sqlite3", r#"[db.sqlite, ".shell id"]"#), ["E115"]);
        assert_eq!(
            codes_of("sqlite3", r#"[-cmd, ".system id", db, {param: a}]"#),
            ["E115", "E127"]
        );
        assert_eq!(codes_of("sqlite3", r#"[db.sqlite, {param: a}]"#), ["E127"]);
        assert_eq!(codes_of("sqlite3", r#"[-cmd, {param: a}, db]"#), ["E127"]);
        assert_eq!(
            codes_of("sqlite3", r#"[db, ".output '|id'", "select 1"]"#),
            ["E115"]
        );
        // The database name is not code; `-safe` refuses dot-commands.
        assert!(codes_of("sqlite3", r#"[{param: a}, "select 1"]"#).is_empty());
        assert!(codes_of("sqlite3", r#"[-safe, db, {param: a}]"#).is_empty());
    }

    #[test]
    fn vim_file_arguments() {
        assert_eq!(codes_of("vim", r#"[-es, {param: a}]"#), ["E127"]);
        assert_eq!(codes_of("nvim", r#"["+!id", file]"#), ["E115"]);
        assert!(codes_of("vim", r#"[-es, --, {param: a}]"#).is_empty());
        assert!(codes_of("vim", r#"["+42", --, {param: a}]"#).is_empty());
    }

    #[test]
    fn git_settings_and_program_options() {
        for setting in [
            "alias.x=!id",
            "core.sshCommand=id",
            "core.pager=id",
            "diff.foo.textconv=id",
            "filter.x.smudge=id",
            "protocol.ext.allow=always",
            "credential.helper=!id",
        ] {
            assert_eq!(
                codes_of("git", &format!(r#"[-c, "{setting}", log, {{param: a}}]"#)),
                ["E115"],
                "{setting}"
            );
        }
        assert_eq!(codes_of("git", r#"["-calias.x=!id", x]"#), ["E115"]);
        assert_eq!(
            codes_of("git", r#"[clone, "--upload-pack=id", {param: a}]"#),
            ["E115"]
        );
        assert_eq!(codes_of("git", r#"[-c, {param: a}, log]"#), ["E127"]);
        assert!(
            codes_of(
                "git",
                r#"[-c, alias.lg=log, -c, color.ui=never, log, {param: a}]"#
            )
            .is_empty()
        );
        assert!(codes_of("git", r#"[log, --, {param: a}]"#).is_empty());
    }

    #[test]
    fn git_config_setting_a_key_whose_value_git_runs() {
        for key in [
            "core.hooksPath",
            "core.sshCommand",
            "core.pager",
            "core.editor",
            "core.fsmonitor",
            "credential.helper",
            "credential.https://example.com.helper",
            "filter.lfs.clean",
            "diff.pdf.textconv",
            "uploadpack.packObjectsHook",
            "protocol.ext.allow",
            "include.path",
            "includeIf.gitdir:~/x/.path",
            "url.ext::sh -c id #.insteadOf",
            "url.ext::x.pushInsteadOf",
            "sendemail.toCmd",
            "core.alternateRefsCommand",
        ] {
            for argv in [
                format!(r#"[config, "{key}", {{param: a}}]"#),
                format!(r#"[--no-pager, config, --global, "{key}", /tmp/x]"#),
                format!(r#"[-C, /srv/repo, config, set, "{key}", x]"#),
                format!(r#"[config, --add, --file, .git/config, "{key}", x]"#),
            ] {
                assert_eq!(codes_of("git", &argv), ["E115"], "{argv}");
            }
        }
        // An alias or a submodule's update runs what starts with `!`.
        assert_eq!(codes_of("git", r#"[config, alias.x, "!id"]"#), ["E115"]);
        assert_eq!(
            codes_of("git", r#"[config, alias.x, {param: a}]"#),
            ["E115"]
        );
        assert_eq!(
            codes_of("git", r#"[config, submodule.m.update, "!id"]"#),
            ["E115"]
        );
        assert!(codes_of("git", r#"[config, alias.lg, log]"#).is_empty());
        // Reading, removing, or a key that runs nothing.
        for argv in [
            r#"[config, core.hooksPath]"#,
            r#"[config, --get, core.hooksPath, x]"#,
            r#"[config, get, core.pager]"#,
            r#"[config, --unset, core.hooksPath]"#,
            r#"[config, --list, --show-origin]"#,
            r#"[config, user.name, {param: a}]"#,
            r#"[config, --global, user.email, {param: a}]"#,
        ] {
            assert!(codes_of("git", argv).is_empty(), "{argv}");
        }
        // The agent's key is the lint's to judge (it knows the values).
        assert!(codes_of("git", r#"[config, {param: a}, {param: a}]"#).is_empty());
    }

    #[test]
    fn agent_keys_of_git_config() {
        let keys = |argv: &str| {
            let text = format!(
                "name: t\ndescription: d\nparameters:\n  a: {{type: string}}\n  b: {{type: array}}\nsubprocess: {{binary: git, argv: {argv}}}\n"
            );
            let parsed = read_declaration(&text, SourceFormat::Yaml, &Origin::default());
            git_config_agent_keys(&parsed.declaration.unwrap().subprocess.unwrap())
        };
        assert_eq!(
            keys("[config, {param: a}, {param: b}]"),
            [("subprocess.argv[1]".to_owned(), "a".to_owned(), true)]
        );
        assert_eq!(
            keys("[--no-pager, config, {param: b}]"),
            [("subprocess.argv[2]".to_owned(), "b".to_owned(), false)]
        );
        assert_eq!(
            keys("[config, set, --global, {param: a}, x]"),
            [("subprocess.argv[3]".to_owned(), "a".to_owned(), true)]
        );
        assert!(keys("[config, --get, {param: a}]").is_empty());
        assert!(keys("[config, core.bare, {param: a}]").is_empty());
        assert!(keys("[log, {param: a}, {param: b}]").is_empty());
    }

    #[test]
    fn options_that_run_programs_or_move_the_config() {
        for (program, argv) in [
            ("man", r#"["--pager=id", ls]"#),
            ("man", r#"[-P, "touch x", ls]"#),
            ("npm", r#"["--script-shell=/tmp/x", run, build]"#),
            ("npx", r#"[--script-shell, /tmp/x, run]"#),
            ("git", r#"["--exec-path=/tmp/x", subtree, {param: a}]"#),
            ("git", r#"[clone, "--template=/tmp/t", {param: a}]"#),
            ("less", r#"["+!id", {param: a, flag: --, form: separate}]"#),
            ("less", r#"["+|id", file]"#),
            ("ssh", r#"[-o, "ProxyCommand=id", host]"#),
            ("ssh", r#"["-oLocalCommand id", host]"#),
            ("scp", r#"[-S, /tmp/x, a, b]"#),
            ("wget", r#"["--use-askpass=/tmp/x", {param: a}]"#),
        ] {
            assert_eq!(codes_of(program, argv), ["E115"], "{program} {argv}");
        }
        for (program, argv) in [
            ("man", r#"[{param: a, flag: --pager}, ls]"#),
            ("man", r#"[-C, {param: a}, ls]"#),
            (
                "npm",
                r#"[{param: a, flag: --userconfig, form: joined}, ci]"#,
            ),
            ("git", r#"["--git-dir", {param: a}, log]"#),
            ("git", r#"[{param: a, flag: --git-dir, form: joined}, log]"#),
            ("git", r#"[-C, {param: a}, status]"#),
            (
                "git",
                r#"[{param: a, flag: --exec-path, form: joined}, log]"#,
            ),
            ("less", r#"[{param: a}]"#),
            ("less", r#"[-k, {param: a}, --, file]"#),
            (
                "curl",
                r#"[{param: a, flag: --config, form: joined}, "https://example.com"]"#,
            ),
            ("curl", r#"[-K, {param: a}]"#),
            ("wget", r#"[-e, {param: a}, "https://example.com"]"#),
            ("ssh", r#"[-o, {param: a}, host]"#),
            ("ssh", r#"[-F, {param: a}, host]"#),
            ("kubectl", r#"[{param: a, flag: --kubeconfig}, get, pods]"#),
            ("docker", r#"[--config, {param: a}, ps]"#),
            ("cargo", r#"[--config, {param: a}, build]"#),
            (
                "mysql",
                r#"[{param: a, flag: --defaults-file, form: joined}]"#,
            ),
            ("make", r#"[-f, {param: a}]"#),
            ("awk", r#"[-f, {param: a}, data.txt]"#),
        ] {
            assert_eq!(codes_of(program, argv), ["E127"], "{program} {argv}");
        }
        // Fixed by the declaration, or someone else's option of that name.
        for (program, argv) in [
            ("git", r#"[-C, /srv/repo, log, {param: a}]"#),
            ("git", r#"["--git-dir=/srv/x.git", log, --, {param: a}]"#),
            ("git", r#"[log, -C, {param: a}]"#),
            ("git", r#"[--exec-path]"#),
            ("man", r#"[--pager=cat, {param: a}]"#),
            ("man", r#"[-C, /etc/man.conf, --, {param: a}]"#),
            ("curl", r#"[--config, /etc/curlrc, {param: a}]"#),
            ("ssh", r#"[-o, "BatchMode=yes", host, uptime]"#),
            ("less", r#"["+G", --, {param: a}]"#),
            ("make", r#"[-C, build, all]"#),
            ("awk", r#"["{print $1}", {param: a}]"#),
        ] {
            let codes = codes_of(program, argv);
            // `man --pager=cat` runs `cat` through a shell: refused too.
            if program == "man" && argv.contains("--pager") {
                assert_eq!(codes, ["E115"], "{program} {argv}");
            } else {
                assert!(codes.is_empty(), "{program} {argv}: {codes:?}");
            }
        }
    }

    #[test]
    fn the_awk_program_is_code() {
        assert_eq!(codes_of("awk", r#"[{param: a}, data.txt]"#), ["E127"]);
        assert_eq!(codes_of("gawk", r#"[-F, ":", {param: a}, f]"#), ["E127"]);
        assert_eq!(codes_of("awk", r#"[-e, {param: a}, f]"#), ["E127"]);
        assert_eq!(codes_of("mawk", r#"[--, {param: a}, f]"#), ["E127"]);
        assert_eq!(
            codes_of("awk", r#"[{param: a, flag: --source, form: joined}, f]"#),
            ["E127"]
        );
        assert!(codes_of("awk", r#"[-v, "x=1", "{print x}", {param: a}]"#).is_empty());
        assert!(codes_of("awk", r#"[-f, prog.awk, {param: a}]"#).is_empty());
        // A switch slot is its flag alone: the program is the word after it.
        assert_eq!(
            findings("awk", r#"[{param: s, flag: --sandbox}, --, {param: a}, f]"#),
            [("E127".to_owned(), "subprocess.argv[2]".to_owned())]
        );
        assert!(codes_of("awk", r#"[{param: s, flag: -b}, "{print}", {param: a}]"#).is_empty());
    }

    #[test]
    fn proposed_lines_may_not_move_the_config() {
        let words = |list: &[&str]| list.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert!(!proposed_command_problems(&words(&["git", "--git-dir=/tmp/x", "log"])).is_empty());
        assert!(!proposed_command_problems(&words(&["curl", "-K", "/tmp/c", "x"])).is_empty());
        assert!(proposed_command_problems(&words(&["git", "log", "-C"])).is_empty());
    }

    #[test]
    fn env_variables_that_load_code() {
        for name in [
            "LD_PRELOAD",
            "BASH_ENV",
            "NODE_OPTIONS",
            "GIT_SSH_COMMAND",
            "BASH_FUNC_x%%",
        ] {
            assert_eq!(
                codes_of("env", &format!(r#"["{name}=x", ls, {{param: a}}]"#)),
                ["E115"],
                "{name}"
            );
        }
        assert_eq!(codes_of("sudo", r#"["LD_PRELOAD=x.so", ls]"#), ["E115"]);
        assert!(codes_of("env", r#"[LANG=C, ls, {param: a}]"#).is_empty());
        // A program's own `NAME=VALUE` arguments are not env's.
        assert!(codes_of("env", r#"[make, "LD_PRELOAD=x"]"#).is_empty());
    }

    #[test]
    fn an_agent_value_in_program_position() {
        assert_eq!(
            findings("env", r#"[--, {param: a}, {param: b}]"#),
            [("W105".to_owned(), "subprocess.argv[1]".to_owned())]
        );
        assert_eq!(codes_of("nice", r#"[-n, "5", {param: b}]"#), ["W105"]);
        assert_eq!(codes_of("sudo", r#"[-u, bob, {param: a}]"#), ["W105"]);
        // A flagged or prefixed value is not a program.
        assert!(codes_of("env", r#"[ls, {param: a}]"#).is_empty());
        assert!(codes_of("ls", r#"[{param: a, flag: --color, form: joined}]"#).is_empty());
    }

    #[test]
    fn proposed_command_lines() {
        let words = |list: &[&str]| list.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        for bad in [
            &["env", "--", "sh", "-c", "id"][..],
            &["sh", "-c", "id"],
            &["python3", "-c", "print(1)"],
            &["sed", "1e id", "f"],
            &["sqlite3", "db", ".shell id"],
            &["vim", "+!id"],
            &["git", "-c", "alias.x=!id", "x"],
            &["env", "BASH_ENV=/tmp/x", "ls"],
            &["nice", "bash", "-lc", "id"],
        ] {
            assert!(
                !proposed_command_problems(&words(bad)).is_empty(),
                "{bad:?}"
            );
        }
        for good in [
            &["ls", "-la", "/tmp"][..],
            &["git", "log", "-n", "3"],
            &["sed", "s/a/b/", "f"],
        ] {
            assert!(
                proposed_command_problems(&words(good)).is_empty(),
                "{good:?}"
            );
        }
        assert!(proposed_command_problems(&[]).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_program_under_another_name_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let Ok(bash) = std::fs::canonicalize("/bin/sh") else {
            return;
        };
        let alias = dir.path().join("grep");
        std::os::unix::fs::symlink(&bash, &alias).unwrap();
        let found = disguised_program(alias.to_str().unwrap(), None, &|_| true);
        assert_eq!(found.as_deref(), bash.to_str());
        // Relative to the declaration's directory.
        let found = disguised_program("./grep", Some(dir.path()), &|_| true);
        assert_eq!(found.as_deref(), bash.to_str());
        // A plain name that is what it says, and a missing file, are not.
        assert_eq!(disguised_program("sh", None, &|_| true), None);
        assert_eq!(
            disguised_program("/nonexistent/grep", None, &|_| true),
            None
        );
    }
}

/// The hand-written scanners against the regular expressions they replace.
#[cfg(test)]
mod scanner_tests {
    use proptest::prelude::*;

    fn sed_regex(script: &str) -> bool {
        regex::Regex::new(r"(?:^|[;{}\n0-9$/!,~])\s*e(?:\s|;|}|$)")
            .unwrap()
            .is_match(script)
    }

    fn sqlite_regex(sql: &str) -> bool {
        regex::Regex::new(
            r"(?mi)^\s*\.(?:sh|she|shel|shell|sy|sys|syst|syste|system|(?:output|once|import|read|open|excel)\s+['\x22]?\|)",
        )
        .unwrap()
        .is_match(sql)
    }

    #[test]
    fn known_cases() {
        for script in [
            "e",
            "1e",
            "$ e rm -rf /",
            "/x/ e\n",
            "p;e;",
            "{e}",
            "  \n  e",
            "x\ne",
        ] {
            assert!(super::sed_e_command(script), "{script:?}");
        }
        for script in ["s/a/b/", "ex", "p e", "de", ""] {
            assert!(!super::sed_e_command(script), "{script:?}");
        }
        for sql in [
            ".sh ls",
            "  .SYSTEM id",
            "select 1;\n.output '|nc x'",
            ".ONCE |cat",
            ".ſh x",
        ] {
            assert!(super::sqlite_runs_commands(sql), "{sql:?}");
        }
        for sql in [
            "select '.sh'",
            ".output out.txt",
            ".once|x",
            ".tables",
            "x.sh",
        ] {
            assert!(!super::sqlite_runs_commands(sql), "{sql:?}");
        }
    }

    proptest! {
        #[test]
        fn sed_scanner_agrees_with_the_regex(script in "[e ;{}\n0-9$/!,~xs\t\u{a0}\u{2003}]{0,12}") {
            prop_assert_eq!(super::sed_e_command(&script), sed_regex(&script), "{:?}", script);
        }

        #[test]
        fn sqlite_scanner_agrees_with_the_regex(
            sql in "([ \t\n.|'\"]|sh|SY|ſ|system|output|Once|import|read|open|excel|x){0,8}",
        ) {
            prop_assert_eq!(super::sqlite_runs_commands(&sql), sqlite_regex(&sql), "{:?}", sql);
        }
    }
}
