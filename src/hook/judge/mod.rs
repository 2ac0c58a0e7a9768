//! The hook's judgement of one command line: every simple command in it
//! (a *segment*) gets a verdict and the named rule that gave it; the line
//! gets the strictest.
//!
//! A segment is allowed only when it matches a declaration (its program,
//! then its argv template run in reverse) and the recovered arguments pass
//! Phase 1 and build exactly the same argv, or when its program is on the
//! policy's allow list. Anything not static is judged by a named rule and
//! never waved through; see docs/hooks.md for the rules.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde::Serialize;

use super::verdict::Verdict;
use crate::contract::programs::code_words::variable_loads_code;
use crate::contract::{Declaration, Inputs};
use crate::registry::{
    HookSettings, NotStaticPolicy, ProgramIndex, Registry, UnmatchedPolicy, program_key,
};
use crate::shell::{self, ConstructKind, NotStatic, SimpleCommand, Word, quote, quote_word};

mod declared;
mod redirect;

pub use declared::declared_form;
use declared::{Matched, aigent_run, match_declarations, unmatched};
use redirect::redirect_verdict;

/// Longest shown text of a segment or word in a message.
const MAX_SHOWN_CHARS: usize = 200;

/// Shell builtins that run code they are given or change what a later name
/// runs.
const CODE_BUILTINS: &[&str] = &[
    "eval",
    "source",
    ".",
    "alias",
    "trap",
    "enable",
    "hash",
    "fc",
    "bind",
    "mapfile",
    "readarray",
    "let",
    "complete",
    "compgen",
];

/// Builtins whose arguments assign variables (`export NAME=VALUE`,
/// `read NAME`, `printf -v NAME`, `getopts OPTS NAME`).
const ASSIGNING_BUILTINS: &[&str] = &["export", "declare", "typeset", "local", "readonly"];

/// Builtins that evaluate their words as arithmetic or array subscripts
/// in some forms (`declare -i`, `test -v 'a[$(cmd)]'`, `[[ ]]`'s cousins),
/// where a quoted `$(...)` still runs.
const EVALUATING_BUILTINS: &[&str] = &[
    "declare", "typeset", "local", "readonly", "export", "test", "[", "let",
];

/// `NAME[SUBSCRIPT]` whose subscript expands (it is evaluated when
/// assigned).
fn subscript_holds_code(name: &str) -> bool {
    name.split_once('[')
        .is_some_and(|(_, subscript)| subscript.contains(['$', '`']))
}

/// Builtins that may assign a variable named by one of their words (`read
/// PATH`, `printf -v PATH ...`, `getopts OPTS PATH`); judged like any
/// program unless that variable changes what runs.
const READING_BUILTINS: &[&str] = &["read", "printf", "getopts"];

/// Variables that change which program a name runs or how the shell reads
/// what follows; setting them is refused as well as the ones that load code.
const SHELL_CONTROL_VARIABLES: &[&str] =
    &["PATH", "IFS", "CDPATH", "GLOBIGNORE", "BASH_ENV", "ENV"];

/// Files any redirection may write: they are not files.
const HARMLESS_TARGETS: &[&str] = &["/dev/null", "/dev/stdout", "/dev/stderr"];

/// What the judgement needs besides the line.
pub struct Context<'a> {
    pub registry: &'a Registry,
    pub index: &'a ProgramIndex,
    pub settings: &'a HookSettings,
    /// Finds a bare program name on `PATH` (the environment the agent's
    /// shell runs with).
    pub which: &'a dyn Fn(&str) -> Option<PathBuf>,
    /// The agent's working directory, for relative `write_paths`.
    pub cwd: Option<&'a Path>,
    /// This aigent, so that `aigent run NAME ...` against the same registry
    /// (the form the hook's own reasons suggest) is recognised.
    pub aigent: Option<&'a AigentSelf>,
}

/// This aigent's binary and the registry directory the hook was given.
#[derive(Debug, Clone)]
pub struct AigentSelf {
    pub exe: PathBuf,
    pub registry_dir: Option<PathBuf>,
}

/// The verdict on a whole line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub verdict: Verdict,
    pub segments: Vec<Segment>,
    /// The `aigent run NAME ...` words (after `aigent`) that run the line
    /// through aigent, when it is one command matching a declaration. Not
    /// serialized: it holds the values as given, sensitive ones included.
    #[serde(skip)]
    pub route: Option<Vec<String>>,
    /// The line is allowed on condition that it runs in aigent's sandbox:
    /// a segment runs the project's own code.
    pub confine: bool,
}

/// One segment's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// The segment as a shell would read it, sensitive values redacted;
    /// empty when the line could not be read.
    pub shown: String,
    /// Where it sits ("command substitution", "function body", ...).
    pub within: Option<&'static str>,
    pub verdict: Verdict,
    /// The named rule that gave the verdict.
    pub rule: &'static str,
    pub message: String,
    /// The declaration it matched or was checked against.
    pub declaration: Option<String>,
    /// A command that would pass, where one exists.
    pub corrected: Option<String>,
    /// Whether `shown` had values redacted.
    pub redacted: bool,
    /// The segment is allowed on condition that it runs in aigent's
    /// sandbox (a command that runs the project's own code): the hook
    /// routes it through `aigent run`, and asks where it cannot.
    pub confine: bool,
}

impl Segment {
    fn new(shown: String, verdict: Verdict, rule: &'static str, message: String) -> Self {
        Self {
            shown,
            within: None,
            verdict,
            rule,
            message,
            declaration: None,
            corrected: None,
            redacted: false,
            confine: false,
        }
    }
}

/// What the judgement of one line keeps across its segments.
#[derive(Default)]
struct LineState {
    /// Declarations loaded so far, by name; an error says why one did not
    /// load (its file and first finding).
    loaded: RefCell<HashMap<String, Result<Rc<Declaration>, String>>>,
    /// Some segment changes the working directory (`cd`, `pushd`,
    /// `popd`), so relative paths later in the line are not where the
    /// hook would resolve them.
    changes_directory: bool,
}

impl LineState {
    /// The directory the line's commands run in, when the hook knows it.
    fn working_directory<'c>(&self, context: &Context<'c>) -> Option<&'c Path> {
        context.cwd.filter(|_| !self.changes_directory)
    }

    fn load(&self, name: &str, registry: &Registry) -> Option<Rc<Declaration>> {
        self.load_checked(name, registry).ok()
    }

    /// The declaration of `name`, or why it did not load.
    fn load_checked(&self, name: &str, registry: &Registry) -> Result<Rc<Declaration>, String> {
        self.loaded
            .borrow_mut()
            .entry(name.to_owned())
            .or_insert_with(|| match registry.load(name) {
                Ok(loaded) => Ok(Rc::new(loaded.declaration)),
                Err(crate::registry::LoadError::Invalid {
                    file, diagnostics, ..
                }) => Err(match diagnostics.iter().find(|found| found.is_error()) {
                    Some(first) => format!("{file}: {} {}", first.code, first.message),
                    None => file,
                }),
                Err(error) => Err(error.to_string()),
            })
            .clone()
    }
}

/// Judges `line`.
pub fn judge(line: &str, context: &Context<'_>) -> Judgement {
    let script = match shell::parse(line) {
        Ok(script) => script,
        Err(error) => {
            return Judgement {
                verdict: Verdict::Deny,
                segments: vec![Segment::new(
                    String::new(),
                    Verdict::Deny,
                    "unparsable",
                    format!("{error}; the hook refuses what it cannot read"),
                )],
                route: None,
                confine: false,
            };
        }
    };
    let functions: Vec<&str> = script
        .constructs
        .iter()
        .filter(|construct| construct.kind == ConstructKind::FunctionDefinition)
        .filter_map(|construct| construct.name.as_deref())
        .collect();
    let mut segments = Vec::new();
    for construct in &script.constructs {
        let name = construct.name.as_deref().map(cut).unwrap_or_default();
        let (verdict, message) = match (construct.kind, construct.why_not_static) {
            (ConstructKind::ExtendedTest, None) if construct.evaluates_text => {
                segments.push(Segment::new(
                    "[[ ... ]]".to_owned(),
                    Verdict::Deny,
                    "arithmetic_evaluation",
                    "a `[[ ]]` operand holds `$` or a backquote, which its arithmetic operators and `-v` evaluate as code".to_owned(),
                ));
                continue;
            }
            (ConstructKind::ExtendedTest, None) => continue,
            (ConstructKind::LoopVariable, _) => {
                if construct.name.as_deref().is_some_and(shell_control) {
                    segments.push(Segment::new(
                        String::new(),
                        Verdict::Deny,
                        "environment",
                        format!("`for {name} in ...` sets `{name}`, which changes which program a name runs or loads code into programs"),
                    ));
                }
                continue;
            }
            (ConstructKind::ExtendedTest, Some(why)) => {
                segments.push(not_static_segment("[[ ... ]]".to_owned(), "[[ ... ]]", why, context));
                continue;
            }
            (ConstructKind::FunctionDefinition, _) => (
                Verdict::Deny,
                format!("defines a function `{name}`, which runs in place of any program of that name; run the commands directly"),
            ),
            (ConstructKind::Coprocess, _) => (
                Verdict::Deny,
                "`coproc` runs a command in the background with pipes to the shell; run it directly".to_owned(),
            ),
            (ConstructKind::Arithmetic, _) => (
                Verdict::Deny,
                "`(( ... ))` arithmetic can assign variables and run commands through array subscripts (the hook also reads `( (` written without a space as `((`); write the commands without it".to_owned(),
            ),
        };
        segments.push(Segment::new(
            String::new(),
            verdict,
            construct.kind.rule(),
            message,
        ));
    }
    let state = LineState {
        changes_directory: script.commands.iter().any(|command| {
            matches!(
                command.words.first().and_then(Word::as_static),
                Some("cd" | "pushd" | "popd")
            )
        }),
        ..LineState::default()
    };
    let mut routes = Vec::new();
    for command in &script.commands {
        let (mut segment, route) = judge_command(command, &functions, context, &state);
        segment.within = command.within;
        routes.push(route);
        segments.push(segment);
    }
    let verdict = segments
        .iter()
        .map(|segment| segment.verdict)
        .max()
        .unwrap_or(Verdict::Allow);
    let route = match (routes.as_slice(), script.constructs.is_empty()) {
        ([Some(route)], true) if verdict != Verdict::Deny => Some(route.clone()),
        _ => None,
    };
    let confine = segments.iter().any(|segment| segment.confine);
    Judgement {
        verdict,
        segments,
        route,
        confine,
    }
}

fn cut(text: &str) -> String {
    if text.chars().count() <= MAX_SHOWN_CHARS {
        return text.to_owned();
    }
    let mut shown: String = text.chars().take(MAX_SHOWN_CHARS).collect();
    shown.push('…');
    shown
}

fn not_static_segment(shown: String, word: &str, why: NotStatic, context: &Context<'_>) -> Segment {
    let verdict = match context.settings.not_static {
        NotStaticPolicy::Deny => Verdict::Deny,
        NotStaticPolicy::Ask => Verdict::Ask,
    };
    let advice = match why {
        NotStatic::Glob | NotStatic::BraceExpansion | NotStatic::TildeExpansion => {
            "quote it, or write out the words it stands for"
        }
        _ => "write the value out literally, as its own command if it comes from another command",
    };
    Segment::new(
        shown,
        verdict,
        why.rule(),
        format!("`{}` is {}; {advice}", cut(word), why.describe()),
    )
}

/// The first word of `command` that is not static, wherever it is.
fn first_dynamic(command: &SimpleCommand) -> Option<(&str, NotStatic)> {
    command
        .assignments
        .iter()
        .map(|assignment| &assignment.value)
        .chain(&command.words)
        .chain(command.redirects.iter().map(|redirect| &redirect.target))
        .find_map(|word| match word {
            Word::Dynamic { source, why } => Some((source.as_str(), *why)),
            Word::Static { .. } => None,
        })
}

fn judge_command(
    command: &SimpleCommand,
    functions: &[&str],
    context: &Context<'_>,
    state: &LineState,
) -> (Segment, Option<Vec<String>>) {
    let (mut segment, route) = judge_command_words(command, functions, context, state);
    // A segment that did not match a declaration shows the words as
    // written; when its program is declared with a sensitive parameter,
    // those words may hold the value, so only the program is shown.
    if !segment.redacted && segment.declaration.is_none() {
        if let Some(program) = command.words.first().and_then(Word::as_static)
            && declared_with_sensitive_values(program, context, state)
        {
            segment.shown = format!("{} …", quote_word(program));
            // A not-static word is quoted in its message; say only why.
            if first_dynamic(command).is_some() {
                segment.message = format!(
                    "a word of this command is not static (rule {}); its words are not shown, since `{}` is declared with a sensitive parameter",
                    segment.rule,
                    cut(program)
                );
            }
            segment.redacted = true;
        }
    } else if segment.declaration.is_some()
        && !segment.redacted
        && let Some(program) = command.words.first().and_then(Word::as_static)
        && segment.verdict != Verdict::Allow
        && declared_with_sensitive_values(program, context, state)
    {
        segment.shown = format!("{} …", quote_word(program));
        segment.redacted = true;
    }
    (segment, route)
}

/// Whether some declaration for `program` has a sensitive parameter (or
/// an `input_schema`, whose sensitivity the hook does not read).
fn declared_with_sensitive_values(program: &str, context: &Context<'_>, state: &LineState) -> bool {
    context
        .index
        .commands_for(program_key(program))
        .iter()
        .filter_map(|name| state.load(name, context.registry))
        .any(|declaration| {
            matches!(declaration.inputs, Inputs::InputSchema(_))
                || declaration
                    .parameters()
                    .iter()
                    .any(|parameter| parameter.sensitive)
        })
}

fn judge_command_words(
    command: &SimpleCommand,
    functions: &[&str],
    context: &Context<'_>,
    state: &LineState,
) -> (Segment, Option<Vec<String>>) {
    let source = cut(&command.source);
    if let Some((word, why)) = first_dynamic(command) {
        return (not_static_segment(source, word, why, context), None);
    }
    let argv: Vec<&str> = command.argv().unwrap_or_default();
    let redirect = redirect_verdict(&command.redirects, context, state);
    let Some((&program, _)) = argv.split_first() else {
        // Only assignments and redirections.
        let mut segment = assignments_segment(source.clone(), command, context);
        if let Some(redirect) = redirect {
            segment = stricter(segment, redirect);
        }
        return (segment, None);
    };
    let shown = quote(&argv);
    let evaluated = command
        .assignments
        .iter()
        .any(|assignment| subscript_holds_code(&assignment.name))
        || (EVALUATING_BUILTINS.contains(&program)
            && argv[1..].iter().any(|word| word.contains(['$', '`'])))
        || (READING_BUILTINS.contains(&program)
            && argv[1..].iter().any(|word| subscript_holds_code(word)));
    let mut segment = if evaluated {
        Segment::new(
            shown.clone(),
            Verdict::Deny,
            "arithmetic_evaluation",
            format!(
                "`{}` evaluates `$` or a backquote in its words (array subscripts, arithmetic), which runs code",
                cut(program)
            ),
        )
    } else if !command.assignments.is_empty() {
        let names: Vec<&str> = command
            .assignments
            .iter()
            .map(|assignment| assignment.name.as_str())
            .collect();
        Segment::new(
            shown.clone(),
            Verdict::Deny,
            "assignment_prefix",
            format!(
                "`{}=...` changes the environment `{}` runs with, which its declaration does not allow; drop the assignment",
                names.join("=... "),
                cut(program)
            ),
        )
    } else if functions.contains(&program) {
        Segment::new(
            shown.clone(),
            Verdict::Deny,
            "function_call",
            format!(
                "`{}` is a function defined in this command line, not the program of that name",
                cut(program)
            ),
        )
    } else if CODE_BUILTINS.contains(&program) {
        Segment::new(
            shown.clone(),
            Verdict::Deny,
            "shell_builtin",
            format!(
                "the shell builtin `{program}` runs code it is given or changes what a later name runs; run the commands directly"
            ),
        )
    } else if ASSIGNING_BUILTINS.contains(&program)
        || (READING_BUILTINS.contains(&program)
            && environment_segment(String::new(), program, &argv[1..], context).verdict
                == Verdict::Deny)
    {
        environment_segment(shown.clone(), program, &argv[1..], context)
    } else if let Some(segment) = aigent_run(&argv, shown.clone(), context, state) {
        segment
    } else {
        match match_declarations(program, &argv, context, state) {
            Matched::Allowed { segment, route } => {
                let segment = match redirect {
                    Some(redirect) => stricter(segment, redirect),
                    None => segment,
                };
                let route = route.filter(|_| command.redirects.is_empty());
                return (segment, route);
            }
            Matched::Refused(segment) => segment,
            Matched::Nothing { declared } => {
                unmatched(program, &argv, shown.clone(), declared, context)
            }
        }
    };
    if let Some(redirect) = redirect {
        segment = stricter(segment, redirect);
    }
    (segment, None)
}

/// The stricter of a segment's verdict and its redirections'.
fn stricter(segment: Segment, redirect: Segment) -> Segment {
    if redirect.verdict > segment.verdict {
        Segment {
            shown: segment.shown,
            declaration: segment.declaration,
            redacted: segment.redacted,
            ..redirect
        }
    } else {
        segment
    }
}

/// Whether setting `name` (or an element of it: `PATH[0]=...` sets
/// `PATH` itself) changes what runs.
fn shell_control(name: &str) -> bool {
    let name = name.split('[').next().unwrap_or(name);
    SHELL_CONTROL_VARIABLES.contains(&name) || variable_loads_code(name)
}

/// `NAME=VALUE` alone sets a shell variable; refused for the variables that
/// change what runs.
/// The verdict for changing the environment of later commands: the
/// unmatched policy's (an exported or already-exported variable reaches
/// every program after it, `GIT_DIR` or `HOME` say).
fn environment_change(context: &Context<'_>) -> Verdict {
    match context.settings.unmatched {
        UnmatchedPolicy::Ask => Verdict::Ask,
        UnmatchedPolicy::Deny => Verdict::Deny,
        UnmatchedPolicy::Defer => Verdict::Defer,
    }
}

fn assignments_segment(shown: String, command: &SimpleCommand, context: &Context<'_>) -> Segment {
    let evaluated = command.assignments.iter().any(|assignment| {
        subscript_holds_code(&assignment.name)
            || assignment
                .value
                .as_static()
                .is_some_and(|value| value.contains(['$', '`']))
    });
    if evaluated {
        return Segment::new(
            shown,
            Verdict::Deny,
            "arithmetic_evaluation",
            "the assignment holds `$` or a backquote that bash evaluates (an array subscript, or the value of an integer variable)".to_owned(),
        );
    }
    match command
        .assignments
        .iter()
        .find(|assignment| shell_control(&assignment.name))
    {
        Some(assignment) => Segment::new(
            shown,
            Verdict::Deny,
            "environment",
            format!(
                "setting `{}` changes which program a name runs or loads code into programs",
                cut(&assignment.name)
            ),
        ),
        None => Segment::new(
            shown,
            environment_change(context),
            "assignment",
            "sets a variable, which reaches every later program when it is (or becomes) exported"
                .to_owned(),
        ),
    }
}

fn environment_segment(
    shown: String,
    builtin: &str,
    arguments: &[&str],
    context: &Context<'_>,
) -> Segment {
    // `declare -n REF=NAME` makes REF another name for any variable.
    let nameref = matches!(builtin, "declare" | "typeset" | "local")
        && arguments
            .iter()
            .any(|argument| argument.starts_with('-') && argument.contains('n'));
    if nameref {
        return Segment::new(
            shown,
            Verdict::Deny,
            "environment",
            format!(
                "`{builtin} -n` makes a name refer to another variable (PATH, say); write the variable out"
            ),
        );
    }
    // Any word may be the name assigned (`read PATH`, `printf -v PATH`).
    let assigned = arguments
        .iter()
        .filter(|argument| !argument.starts_with(['-', '+']))
        .map(|argument| argument.split_once('=').map_or(*argument, |(name, _)| name))
        .find(|name| shell_control(name));
    match assigned {
        Some(name) => Segment::new(
            shown,
            Verdict::Deny,
            "environment",
            format!(
                "`{builtin} {}` changes which program a name runs or loads code into programs",
                cut(name)
            ),
        ),
        None => Segment::new(
            shown,
            environment_change(context),
            "assignment",
            format!("`{builtin}` sets variables, which reach every later program once exported"),
        ),
    }
}

#[cfg(test)]
mod tests;
