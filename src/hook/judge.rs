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
use serde_json::{Map, Value};

use super::verdict::Verdict;
use crate::contract::programs::code_words::{proposed_command_problems, variable_loads_code};
use crate::contract::{
    ArgvPart, Declaration, FlagForm, Inputs, ParamType, is_language, runs_another_program,
};
use crate::exec::Argv;
use crate::exec::argv_match::candidate_arguments;
use crate::guard::{self, RawArguments, Rejection};
use crate::registry::{
    HookSettings, NotStaticPolicy, ProgramIndex, Registry, UnmatchedPolicy, program_key,
};
use crate::shell::{
    self, ConstructKind, NotStatic, Redirect, RedirectKind, SimpleCommand, Word, quote, quote_word,
};

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
        }
    }
}

/// What the judgement of one line keeps across its segments.
#[derive(Default)]
struct LineState {
    /// Declarations loaded so far, by name (`None`: did not load).
    loaded: RefCell<HashMap<String, Option<Rc<Declaration>>>>,
    /// Some segment changes the working directory (`cd`, `pushd`,
    /// `popd`), so relative paths later in the line are not where the
    /// hook would resolve them.
    changes_directory: bool,
}

impl LineState {
    fn load(&self, name: &str, registry: &Registry) -> Option<Rc<Declaration>> {
        self.loaded
            .borrow_mut()
            .entry(name.to_owned())
            .or_insert_with(|| {
                registry
                    .load(name)
                    .ok()
                    .map(|loaded| Rc::new(loaded.declaration))
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
    Judgement {
        verdict,
        segments,
        route,
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

/// The strictest verdict the redirections need, if any needs one.
fn redirect_verdict(
    redirects: &[Redirect],
    context: &Context<'_>,
    state: &LineState,
) -> Option<Segment> {
    for redirect in redirects {
        let Some(target) = redirect.target.as_static() else {
            continue;
        };
        let writes_file = match redirect.kind {
            kind if kind.writes() => true,
            // `>&FILE` (not a descriptor number, not `-`) writes a file.
            RedirectKind::DuplicateOutput => {
                !target.bytes().all(|byte| byte.is_ascii_digit()) && target != "-"
            }
            _ => false,
        };
        if target.starts_with("/dev/tcp/") || target.starts_with("/dev/udp/") {
            return Some(Segment::new(
                String::new(),
                Verdict::Deny,
                "network_redirect",
                format!(
                    "`{}` opens a network connection through bash's /dev/tcp or /dev/udp",
                    cut(target)
                ),
            ));
        }
        if !writes_file
            || HARMLESS_TARGETS.contains(&target)
            || write_allowed(target, context, state)
        {
            continue;
        }
        return Some(Segment::new(
            String::new(),
            Verdict::Ask,
            "redirect_write",
            format!(
                "writes the file `{}` through a redirection; the person decides (or add it to write_paths in aigent.toml)",
                cut(target)
            ),
        ));
    }
    None
}

fn write_allowed(target: &str, context: &Context<'_>, state: &LineState) -> bool {
    let absolute = |path: &str| -> Option<PathBuf> {
        let path = Path::new(path);
        if path.is_absolute() {
            Some(path.to_path_buf())
        } else if state.changes_directory {
            // An earlier `cd` in the line moved the shell elsewhere.
            None
        } else {
            context.cwd.map(|cwd| cwd.join(path))
        }
    };
    let Some(target_path) = absolute(target) else {
        return false;
    };
    if target_path
        .components()
        .any(|component| component == std::path::Component::ParentDir)
    {
        return false;
    }
    context.settings.write_paths.iter().any(|allowed| {
        let Some(allowed_path) = absolute(allowed) else {
            return false;
        };
        if allowed.ends_with('/') {
            target_path.starts_with(&allowed_path) && target_path != allowed_path
        } else {
            target_path == allowed_path
        }
    })
}

enum Matched {
    Allowed {
        segment: Segment,
        route: Option<Vec<String>>,
    },
    /// Matched a declaration's program, but not its contract.
    Refused(Segment),
    /// No declaration for this program; `declared` names those for the
    /// same base name whose program is another file.
    Nothing { declared: Vec<String> },
}

/// Whether `proposed` (the word as written) runs the declared `binary`.
fn same_program(binary: &str, proposed: &str, context: &Context<'_>) -> bool {
    if binary == proposed {
        return true;
    }
    let resolve = |word: &str| -> Option<PathBuf> {
        let path = if word.contains('/') {
            Path::new(word).is_absolute().then(|| PathBuf::from(word))?
        } else {
            (context.which)(word)?
        };
        std::fs::canonicalize(&path).ok().or(Some(path))
    };
    // A relative path (`./git`) names whatever is in the directory the
    // agent is in, never the declared program.
    if proposed.contains('/') && !Path::new(proposed).is_absolute() {
        return false;
    }
    matches!((resolve(binary), resolve(proposed)), (Some(a), Some(b)) if a == b)
}

fn match_declarations(
    program: &str,
    argv: &[&str],
    context: &Context<'_>,
    state: &LineState,
) -> Matched {
    let names = context.index.commands_for(program_key(program));
    // A refusal by a declaration whose form matched says more than one
    // whose form did not.
    let mut first_refusal: Option<Segment> = None;
    let mut no_form: Option<Segment> = None;
    let mut declared = Vec::new();
    for name in names {
        let Some(declaration) = state.load(name, context.registry) else {
            continue;
        };
        let Some(subprocess) = &declaration.subprocess else {
            continue;
        };
        if !same_program(&subprocess.binary, program, context) {
            declared.push(name.clone());
            continue;
        }
        let cwd = context.cwd.filter(|_| !state.changes_directory);
        match match_one(&declaration, argv, context.aigent, cwd) {
            One::Allowed { segment, route } => return Matched::Allowed { segment, route },
            One::Refused(segment) => {
                first_refusal.get_or_insert(segment);
            }
            One::NoShape => {
                no_form.get_or_insert_with(|| {
                    let mut segment = Segment::new(
                        quote(argv),
                        Verdict::Deny,
                        "not_declared_form",
                        format!(
                            "`{}` is declared as `{}`, but not with these arguments; the declared form is `{}`",
                            cut(program),
                            declaration.name,
                            cut(&declared_form(&declaration))
                        ),
                    );
                    segment.declaration = Some(declaration.name.clone());
                    segment
                });
            }
        }
    }
    match first_refusal.or(no_form) {
        Some(segment) => Matched::Refused(segment),
        None => Matched::Nothing { declared },
    }
}

enum One {
    Allowed {
        segment: Segment,
        route: Option<Vec<String>>,
    },
    Refused(Segment),
    NoShape,
}

fn match_one(
    declaration: &Declaration,
    argv: &[&str],
    aigent: Option<&AigentSelf>,
    cwd: Option<&Path>,
) -> One {
    let candidates = candidate_arguments(declaration, &argv[1..]);
    if candidates.is_empty() {
        return One::NoShape;
    }
    let mut refusal: Option<Segment> = None;
    for candidate in &candidates {
        let text = Value::Object(candidate.clone()).to_string();
        let validated = match guard::check(declaration, &RawArguments::Json(&text)) {
            Ok(validated) => validated,
            Err(rejection) => {
                refusal
                    .get_or_insert_with(|| phase1_refusal(declaration, argv, &rejection, aigent));
                continue;
            }
        };
        // Confined paths (`under`, `must_exist`) are checked against the
        // file system from the agent's directory, as `aigent run` does;
        // after a `cd` in the line that directory is not known.
        let needs_directory = validated.arguments.iter().any(|argument| {
            declaration
                .confinement(&argument.name)
                .is_some_and(|confinement| confinement.needs_file_system())
        });
        if needs_directory {
            let confined = match cwd {
                Some(cwd) => guard::confine(declaration, &validated, cwd),
                None => {
                    let mut segment = Segment::new(
                        quote(argv),
                        Verdict::Deny,
                        "confined_path",
                        format!(
                            "`{}` confines a path to a directory, and the directory this command would run in is not known (no working directory in the event, or a `cd` earlier in the line)",
                            declaration.name
                        ),
                    );
                    segment.declaration = Some(declaration.name.clone());
                    refusal.get_or_insert(segment);
                    continue;
                }
            };
            if let Err(rejection) = confined {
                refusal
                    .get_or_insert_with(|| phase1_refusal(declaration, argv, &rejection, aigent));
                continue;
            }
        }
        let Ok(built) = Argv::build(declaration, &validated) else {
            continue;
        };
        let redacted_words = built.redacted();
        let redacted = redacted_words
            .iter()
            .zip(built.words())
            .any(|(shown, word)| shown != word);
        if built.words()[1..]
            .iter()
            .map(String::as_str)
            .ne(argv[1..].iter().copied())
        {
            // Phase 1 filled in a declared default the line leaves out.
            refusal.get_or_insert_with(|| {
                let mut segment = Segment::new(
                    quote(&redacted_words),
                    Verdict::Deny,
                    "not_as_declared",
                    format!(
                        "`{}` declares values this command leaves out (its defaults); run it as declared",
                        declaration.name
                    ),
                );
                segment.declaration = Some(declaration.name.clone());
                segment.corrected = (!redacted).then(|| quote(built.words()));
                segment.redacted = redacted;
                segment
            });
            continue;
        }
        let (verdict, rule, message) = if declaration.requires_confirmation() {
            (
                Verdict::Ask,
                "destructive",
                format!(
                    "matches `{}`, which is declared destructive: the person decides",
                    declaration.name
                ),
            )
        } else {
            (
                Verdict::Allow,
                "declared",
                format!("matches `{}` and passes its contract", declaration.name),
            )
        };
        let mut segment = Segment::new(quote(&redacted_words), verdict, rule, message);
        segment.declaration = Some(declaration.name.clone());
        segment.redacted = redacted;
        let route = route_words(declaration, candidate);
        return One::Allowed { segment, route };
    }
    refusal.map_or(One::NoShape, One::Refused)
}

/// The command line a declaration takes, for a model to correct itself:
/// literals as they are, each parameter as `<name>` with its flag, optional
/// ones in brackets, repeatable ones followed by `...`.
pub fn declared_form(declaration: &Declaration) -> String {
    let Some(subprocess) = &declaration.subprocess else {
        return declaration.name.clone();
    };
    let required: Vec<String> = match &declaration.inputs {
        Inputs::Parameters(parameters) => parameters
            .iter()
            .filter(|parameter| parameter.required)
            .map(|parameter| parameter.name.clone())
            .collect(),
        Inputs::InputSchema(schema) => schema.required().map(str::to_owned).collect(),
    };
    let mut words = vec![quote_word(&subprocess.binary)];
    for part in &subprocess.argv {
        match part {
            ArgvPart::Literal(literal) => words.push(quote_word(literal)),
            ArgvPart::Param(slot) => {
                let value = format!("{}<{}>", slot.prefix, slot.param);
                let switch = declaration
                    .parameter(&slot.param)
                    .is_some_and(|parameter| parameter.kind == ParamType::Boolean);
                let mut text = match (&slot.flag, slot.form) {
                    (Some(flag), _) if switch => flag.clone(),
                    (Some(flag), FlagForm::Separate) => format!("{flag} {value}"),
                    (Some(flag), FlagForm::Joined) => format!("{flag}={value}"),
                    (None, _) => value,
                };
                if declaration
                    .parameter(&slot.param)
                    .is_some_and(|parameter| parameter.kind == ParamType::Array)
                {
                    text.push_str("...");
                }
                if !required.contains(&slot.param) {
                    text = format!("[{text}]");
                }
                words.push(text);
            }
        }
    }
    words.join(" ")
}

fn phase1_refusal(
    declaration: &Declaration,
    argv: &[&str],
    rejection: &Rejection,
    aigent: Option<&AigentSelf>,
) -> Segment {
    let primary = rejection.primary().map(|violation| violation.redacted());
    let (rule, message) = match &primary {
        Some(violation) => (violation.rule.as_str(), violation.message.clone()),
        None => ("phase1", "the arguments fail Phase 1".to_owned()),
    };
    let sensitive = rejection
        .violations
        .iter()
        .any(|violation| violation.sensitive);
    let mut segment = Segment::new(
        if sensitive {
            format!("{} …", quote_word(argv[0]))
        } else {
            quote(argv)
        },
        Verdict::Deny,
        rule,
        format!("`{}`: {}", declaration.name, cut(&message)),
    );
    segment.declaration = Some(declaration.name.clone());
    segment.redacted = sensitive;
    segment.corrected = rejection.fix.as_ref().map(|fix| {
        let mut words = aigent_words(aigent);
        words.push("run".to_owned());
        words.push(declaration.name.clone());
        words.extend(fix.iter().cloned());
        quote(&words)
    });
    segment
}

/// How to start this aigent with the hook's registry in a suggested
/// command: the words the hook recognises as itself.
fn aigent_words(aigent: Option<&AigentSelf>) -> Vec<String> {
    let Some(aigent) = aigent else {
        return vec!["aigent".to_owned()];
    };
    let mut words = vec![aigent.exe.display().to_string()];
    if let Some(dir) = &aigent.registry_dir {
        words.push("--commands".to_owned());
        words.push(
            std::path::absolute(dir)
                .unwrap_or_else(|_| dir.clone())
                .display()
                .to_string(),
        );
    }
    words
}

/// `run NAME --param=value ...` for the recovered arguments.
fn route_words(declaration: &Declaration, arguments: &Map<String, Value>) -> Option<Vec<String>> {
    let mut words = vec!["run".to_owned(), declaration.name.clone()];
    if declaration.requires_confirmation() {
        // The client asked the person before it runs the rewrite.
        words.insert(1, "--confirm-destructive".to_owned());
    }
    if matches!(declaration.inputs, Inputs::InputSchema(_)) {
        if !arguments.is_empty() {
            words.push("--json".to_owned());
            words.push(Value::Object(arguments.clone()).to_string());
        }
        return Some(words);
    }
    for (name, value) in arguments {
        let scalar = |value: &Value| match value {
            Value::String(text) => Some(text.clone()),
            Value::Number(number) => Some(number.to_string()),
            Value::Bool(on) => Some(on.to_string()),
            _ => None,
        };
        match value {
            Value::Array(items) => {
                for item in items {
                    words.push(format!("--{name}={}", scalar(item)?));
                }
            }
            Value::Bool(true) => words.push(format!("--{name}")),
            other => words.push(format!("--{name}={}", scalar(other)?)),
        }
    }
    Some(words)
}

/// `aigent [--commands DIR] run [--confirm-destructive] [--timeout SECS]
/// NAME ...` with this aigent and the hook's own registry: aigent runs
/// Phase 1 itself, so it is allowed, or asked when it confirms a
/// destructive command. Any other option, or another registry, is not
/// recognised (a registry the agent wrote could declare anything).
fn aigent_run(
    argv: &[&str],
    shown: String,
    context: &Context<'_>,
    state: &LineState,
) -> Option<Segment> {
    let aigent = context.aigent?;
    let program = argv[0];
    let is_self = if program.contains('/') {
        Path::new(program).is_absolute() && same_file(Path::new(program), &aigent.exe)
    } else {
        (context.which)(program).is_some_and(|found| same_file(&found, &aigent.exe))
    };
    if !is_self {
        return None;
    }
    let mut rest = &argv[1..];
    let mut registry: Option<&str> = None;
    if let [flag, dir, tail @ ..] = rest
        && *flag == "--commands"
    {
        registry = Some(dir);
        rest = tail;
    } else if let Some(dir) = rest
        .first()
        .and_then(|first| first.strip_prefix("--commands="))
    {
        registry = Some(dir);
        rest = &rest[1..];
    }
    let same_registry = match (registry, &aigent.registry_dir) {
        (None, None) => true,
        (Some(given), Some(own)) => {
            let given = Path::new(given);
            // After a `cd` in the line, a relative path is not where the
            // hook would look.
            let resolved = if given.is_absolute() {
                Some(given.to_path_buf())
            } else if state.changes_directory {
                None
            } else {
                context.cwd.map(|cwd| cwd.join(given))
            };
            resolved.is_some_and(|given| same_file(&given, own))
        }
        _ => false,
    };
    let [run, tail @ ..] = rest else { return None };
    if *run != "run" || !same_registry {
        return None;
    }
    let mut confirmed = false;
    let mut words = tail.iter();
    let name = loop {
        match *words.next()? {
            "--confirm-destructive" => confirmed = true,
            "--timeout" => {
                words.next()?;
            }
            word if word.starts_with("--timeout=") => {}
            word if word.starts_with('-') => return None,
            name => break name,
        }
    };
    let (verdict, rule, message) = if confirmed {
        (
            Verdict::Ask,
            "destructive",
            format!(
                "`aigent run {}` confirms a destructive command: the person decides",
                cut(name)
            ),
        )
    } else {
        (
            Verdict::Allow,
            "aigent_run",
            format!(
                "`aigent run {}` checks the declared contract itself",
                cut(name)
            ),
        )
    };
    // The words after NAME may hold a sensitive value; only the
    // declaration knows, so show them only when it has none.
    let sensitive = state
        .load(name, context.registry)
        .is_none_or(|declaration| {
            declaration
                .parameters()
                .iter()
                .any(|parameter| parameter.sensitive)
                || matches!(declaration.inputs, Inputs::InputSchema(_))
        });
    let shown = if sensitive {
        format!("{} run {} …", quote_word(program), quote_word(name))
    } else {
        shown
    };
    let mut segment = Segment::new(shown, verdict, rule, message);
    segment.declaration = Some(name.to_owned());
    segment.redacted = sensitive;
    Some(segment)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn unmatched(
    program: &str,
    argv: &[&str],
    shown: String,
    declared: Vec<String>,
    context: &Context<'_>,
) -> Segment {
    if let Some(wrapper) = runs_another_program(argv) {
        return Segment::new(
            shown,
            Verdict::Deny,
            "wrapper",
            format!(
                "`{wrapper}` runs another program, which the hook cannot judge through it; run that program directly"
            ),
        );
    }
    if is_language(program) {
        return Segment::new(
            shown,
            Verdict::Deny,
            "interpreter",
            format!(
                "`{}` runs whatever code it is given; declare the script as a command (`aigent schema new`) instead",
                cut(program)
            ),
        );
    }
    let owned: Vec<String> = argv.iter().map(|word| (*word).to_owned()).collect();
    if let Some(problem) = proposed_command_problems(&owned).into_iter().next() {
        return Segment::new(shown, Verdict::Deny, "code_string", cut(&problem));
    }
    if allowed_program(program, context) {
        return Segment::new(
            shown,
            Verdict::Allow,
            "allowed_program",
            format!("`{}` is on the hook's allow list", cut(program)),
        );
    }
    let (verdict, tail) = match context.settings.unmatched {
        UnmatchedPolicy::Ask => (Verdict::Ask, "the person decides"),
        UnmatchedPolicy::Deny => (
            Verdict::Deny,
            "refused by the policy (unmatched = \"deny\")",
        ),
        UnmatchedPolicy::Defer => (Verdict::Defer, "left to the client's own rules"),
    };
    let also = if declared.is_empty() {
        String::new()
    } else {
        format!(
            " (`{}` is declared for another `{}`)",
            declared.join("`, `"),
            cut(program_key(program))
        )
    };
    Segment::new(
        shown,
        verdict,
        "unmatched",
        format!("no declaration matches `{}`{also}; {tail}", cut(program)),
    )
}

fn allowed_program(program: &str, context: &Context<'_>) -> bool {
    let allow = &context.settings.allow;
    if !program.contains('/') {
        return allow.iter().any(|name| name == program);
    }
    if !Path::new(program).is_absolute() {
        return false;
    }
    let key = program_key(program);
    allow.iter().any(|name| name == key) && same_program(key, program, context)
}

#[cfg(test)]
mod tests;
