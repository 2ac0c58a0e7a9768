//! The hook's judgement of one command line: every simple command in it
//! (a *segment*) gets a verdict and the named rule that gave it; the line
//! gets the strictest.
//!
//! A segment is allowed only when it matches a declaration (its program,
//! then its argv template run in reverse) and the recovered arguments pass
//! Phase 1 and build exactly the same argv, or when its program is on the
//! policy's allow list. Anything not static is judged by a named rule and
//! never waved through; see docs/hooks.md for the rules.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde::Serialize;

use super::verdict::Verdict;
use crate::contract::programs::code_words::variable_loads_code;
use crate::contract::programs::environment::code_variable;
use crate::contract::{Declaration, Inputs, is_language};
use crate::fsutil::remembered;
use crate::registry::{
    HookSettings, NotStaticPolicy, ProgramIndex, Registry, UnmatchedPolicy, program_key,
};
use crate::shell::{
    self, Construct, ConstructKind, NotStatic, RoleWord, SimpleCommand, Word, WordRole,
    arithmetic_is_numeric, quote, quote_word,
};

mod declared;
mod directory;
mod git_config;
mod git_dir;
mod inert;
mod object_id;
mod opaque;
mod paths;
mod redirect;

pub use declared::declared_form;
use declared::{Matched, aigent_run, match_declarations, unmatched};
use directory::Place;
use redirect::{read_outside_confinement, redirect_verdict};

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

/// `NAME[SUBSCRIPT]` whose subscript bash evaluates to something not known
/// before the line runs: one that expands (`a[$(cmd)]`), or, for a word
/// shaped as an array element, one that is not a number (`a[i]`: the
/// value of `i` is evaluated in turn).
fn subscript_evaluates(word: &str) -> bool {
    let Some((base, rest)) = word.split_once('[') else {
        return false;
    };
    if rest.contains(['$', '`']) {
        return true;
    }
    let Some(subscript) = rest.strip_suffix(']') else {
        return false;
    };
    let mut chars = base.chars();
    let is_name = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    is_name && !matches!(subscript, "@" | "*") && !arithmetic_is_numeric(subscript)
}

/// Builtins that may assign or unset a variable named by one of their
/// words (`read PATH`, `printf -v PATH ...`, `getopts OPTS PATH`, `unset
/// HOME`, `wait -p PATH`), evaluating its subscript if it has one (`unset
/// 'a[$(cmd)]'`); judged like any program unless that variable changes
/// what runs or the subscript is not a number.
const READING_BUILTINS: &[&str] = &["read", "printf", "getopts", "unset", "wait"];

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
    /// The agent's home directory (`$HOME` of the shell that runs the
    /// line): what `~` stands for, and where nothing is changed unasked.
    pub home: Option<&'a str>,
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
    /// Where the line is more than one command: its commands that run the
    /// project's own code, each to be replaced in the line by `aigent run
    /// NAME ...`. Not serialized, for the same reason as `route`.
    #[serde(skip)]
    pub route_within: Option<LineRoute>,
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
    pub(crate) fn new(
        shown: String,
        verdict: Verdict,
        rule: &'static str,
        message: String,
    ) -> Self {
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
    /// Of those, the names that came from the built-in catalog.
    from_catalog: RefCell<std::collections::HashSet<String>>,
    /// Where each command of the line runs.
    places: Vec<Place>,
    /// The command being judged (an index into `places`).
    current: Cell<usize>,
    /// What each directory's repository config makes git run, looked up
    /// once a line (see [`git_dir::config_runs_code`]).
    git_configs: RefCell<HashMap<PathBuf, Option<(git_config::Found, PathBuf)>>>,
}

impl LineState {
    /// The directory the command being judged runs in, when the hook knows
    /// it: the event's, until a `cd` in the line may have moved it.
    fn working_directory<'s>(&'s self, context: &'s Context<'_>) -> Option<&'s Path> {
        match self.places.get(self.current.get()) {
            Some(place) => place.exact.as_deref(),
            None => context.cwd,
        }
    }

    /// Whether `target`, as the command being judged names it, may be the
    /// home directory or one above it, from any directory the command may
    /// run in. From a directory the hook cannot know, a relative path made
    /// only of `.` and `..` may be anything (`cd "$DIR" && rm -rf .`).
    fn may_be_home_or_above(&self, target: &str, context: &Context<'_>) -> bool {
        let home = context.home;
        let Some(place) = self.place() else {
            return paths::is_home_or_above(target, context.cwd, home);
        };
        match &place.candidates {
            Some(candidates) => candidates
                .iter()
                .any(|(directory, _)| paths::is_home_or_above(target, Some(directory), home)),
            None if Path::new(target).is_absolute() => paths::is_home_or_above(target, None, home),
            None => {
                !target.is_empty()
                    && Path::new(target).components().all(|component| {
                        matches!(
                            component,
                            std::path::Component::CurDir | std::path::Component::ParentDir
                        )
                    })
            }
        }
    }

    /// Why git, run in `directory`, may run a program its repository's own
    /// config names, but `core.hooksPath` (the `git_hooks` rule's), and
    /// the repository's work tree: read once a line for each directory.
    fn git_config_runs_code(
        &self,
        directory: &Path,
        home: Option<&str>,
    ) -> Option<(git_config::Found, PathBuf)> {
        self.git_configs
            .borrow_mut()
            .entry(directory.to_path_buf())
            .or_insert_with(|| {
                git_dir::config_runs_code(directory, home.map(Path::new), &["core.hookspath"])
            })
            .clone()
    }

    /// Why the command being judged may run outside the project.
    fn outside_project(&self) -> Option<&str> {
        self.place().and_then(|place| place.outside.as_deref())
    }

    /// [`Self::names_secret`] for a word that may be a glob the program
    /// expands (see [`inert`]): whether anything it can expand to does.
    fn may_name_secret(&self, path: &str) -> bool {
        inert::glob_may_name_secret(path, &|path| self.names_secret(path))
    }

    fn place(&self) -> Option<&Place> {
        self.places.get(self.current.get())
    }

    /// Whether `path`, as the command being judged names it, looks like a
    /// file of secrets from any directory the command may run in.
    fn names_secret(&self, path: &str) -> bool {
        paths::looks_secret(path)
            || self
                .place()
                .and_then(|place| place.candidates.as_ref())
                .is_some_and(|candidates| {
                    candidates.iter().any(|(directory, _)| {
                        paths::looks_secret(&directory.join(path).to_string_lossy())
                    })
                })
    }

    /// Whether `name`, loaded already, is the built-in catalog's.
    fn is_catalog(&self, name: &str) -> bool {
        self.from_catalog.borrow().contains(name)
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
                Ok(loaded) => {
                    if loaded.layer == Some(crate::registry::LayerKind::Catalog)
                        || matches!(registry, Registry::Catalog)
                    {
                        self.from_catalog.borrow_mut().insert(name.to_owned());
                    }
                    Ok(Rc::new(loaded.declaration))
                }
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
                route_within: None,
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
        segments.extend(construct_segments(construct, context));
    }
    let state = LineState {
        places: directory::places(&script, context.cwd, context.home),
        ..LineState::default()
    };
    let mut routes = Vec::new();
    for (index, command) in script.commands.iter().enumerate() {
        state.current.set(index);
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
    let route = match (routes.as_slice(), script.commands.as_slice()) {
        ([Some(route)], [command])
            if verdict != Verdict::Deny
                && script.constructs.is_empty()
                && command.redirects.is_empty() =>
        {
            Some(route.clone())
        }
        _ => None,
    };
    let confine = segments.iter().any(|segment| segment.confine);
    let route_within = if route.is_none() && confine && verdict != Verdict::Deny {
        let confined = segments.iter().rev().take(script.commands.len()).rev();
        LineRoute::new(line, &script, confined, &routes)
    } else {
        None
    };
    Judgement {
        verdict,
        segments,
        route,
        route_within,
        confine,
    }
}

/// The commands of a line to run through `aigent run`, by where their
/// words are in the line; everything else in the line stays as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRoute {
    line: String,
    /// The line as the judge read it, held against the rewritten line.
    parsed: shell::Script,
    /// Character ranges of the line, in order, each with the words after
    /// `aigent` that replace it.
    replacements: Vec<(std::ops::Range<usize>, Vec<String>)>,
}

impl LineRoute {
    /// The route of every confined command of the line, or `None` when
    /// one of them cannot be cut out of the line as it is written (in a
    /// substitution, a loop, after an assignment, or a construct).
    fn new<'s>(
        line: &str,
        script: &shell::Script,
        segments: impl Iterator<Item = &'s Segment>,
        routes: &[Option<Vec<String>>],
    ) -> Option<Self> {
        if !script.constructs.is_empty() {
            return None;
        }
        let mut replacements = Vec::new();
        for ((command, segment), route) in script.commands.iter().zip(segments).zip(routes) {
            if !segment.confine {
                continue;
            }
            let route = route.as_ref()?;
            let span = command.words_span.clone()?;
            if command.within.is_some() || command.repeats || !command.assignments.is_empty() {
                return None;
            }
            replacements.push((span, route.clone()));
        }
        let in_order = replacements
            .windows(2)
            .all(|pair| pair[0].0.end <= pair[1].0.start);
        (!replacements.is_empty() && in_order).then(|| Self {
            line: line.to_owned(),
            parsed: script.clone(),
            replacements,
        })
    }

    /// The line with each confined command replaced by `AIGENT run ...`,
    /// or `None` unless a shell reads the new line as the old one with
    /// exactly those commands replaced: a rewrite never changes what else
    /// the line does.
    pub fn rewrite(&self, aigent_words: &[String]) -> Option<String> {
        let chars: Vec<char> = self.line.chars().collect();
        let mut rewritten = String::with_capacity(self.line.len() + 64 * self.replacements.len());
        let mut at = 0;
        let mut expected = Vec::new();
        for (span, route) in &self.replacements {
            rewritten.extend(chars.get(at..span.start)?);
            let mut words = aigent_words.to_vec();
            words.extend(route.iter().cloned());
            rewritten.push_str(&quote(&words));
            expected.push((words, span));
            at = span.end;
        }
        rewritten.extend(chars.get(at..)?);
        let before = &self.parsed;
        let after = shell::parse(&rewritten).ok()?;
        let same_shape = before.constructs == after.constructs
            && before.shells == after.shells
            && before.commands.len() == after.commands.len();
        if !same_shape {
            return None;
        }
        let mut expected = expected.into_iter().peekable();
        for (old, new) in before.commands.iter().zip(&after.commands) {
            let replaced = expected
                .next_if(|(_, span)| old.words_span.as_ref() == Some(*span))
                .map(|(words, _)| words);
            let words_agree = match &replaced {
                Some(words) => new.argv().is_some_and(|argv| argv == *words),
                None => old.words == new.words,
            };
            let rest_agrees = old.assignments == new.assignments
                && old.redirects == new.redirects
                && old.within == new.within
                && old.shell == new.shell
                && old.repeats == new.repeats
                && old.enclosing_reads == new.enclosing_reads;
            if !(words_agree && rest_agrees) {
                return None;
            }
        }
        expected.peek().is_none().then_some(rewritten)
    }
}

/// The words of `command` as the hook judges them: its static words, with
/// a brace list and a leading `~` written out (with `home`) as bash does,
/// a glob of a program that only reads and prints kept as written (bash
/// makes it the names [`glob_expands_to`] admits, or leaves it as it is);
/// `None` when a word stays unknown. For tests that hold the hook's
/// reading against what bash runs.
pub fn judged_words(command: &SimpleCommand, home: Option<&str>) -> Option<Vec<String>> {
    let expanded = paths::expanded(command, home);
    let command = expanded.as_ref().unwrap_or(command);
    let globbed = inert::globs_as_written(command);
    let command = globbed.as_ref().unwrap_or(command);
    command
        .argv()
        .map(|argv| argv.into_iter().map(str::to_owned).collect())
}

/// Whether bash could expand the glob `glob`, read as a word of a
/// program that only reads and prints, to `word`. For tests that hold the
/// hook's reading against what bash runs.
pub fn glob_expands_to(glob: &str, word: &str) -> bool {
    inert::expands_to(glob, word)
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
    let verdict = match (why.always_refused(), context.settings.not_static) {
        (true, _) | (false, NotStaticPolicy::Deny) => Verdict::Deny,
        (false, NotStaticPolicy::Ask) => Verdict::Ask,
    };
    let advice = match why {
        NotStatic::Glob | NotStatic::BraceExpansion | NotStatic::TildeExpansion => {
            "quote it, or write out the words it stands for"
        }
        NotStatic::ArithmeticVariable => "write the number itself",
        NotStatic::Indirection => "name the variable itself, or write its value out",
        NotStatic::PromptExpansion => "write the value out literally",
        NotStatic::AssigningExpansion => {
            "write the assignment as a command of its own (`NAME=value`), where it is judged"
        }
        NotStatic::Unreadable => {
            "write it more plainly, with each command it runs as a command of its own"
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

/// The segments a construct gets: a refusal of what it is (a function, a
/// coprocess, arithmetic), of the variable it sets, and of each word of it
/// that is not static or that bash evaluates.
fn construct_segments(construct: &Construct, context: &Context<'_>) -> Vec<Segment> {
    let name = construct.name.as_deref().map(cut).unwrap_or_default();
    let whole = |message: String| {
        Segment::new(String::new(), Verdict::Deny, construct.kind.rule(), message)
    };
    let mut segments = match construct.kind {
        ConstructKind::FunctionDefinition => vec![whole(format!(
            "defines a function `{name}`, which runs in place of any program of that name; run the commands directly"
        ))],
        ConstructKind::Coprocess => vec![whole(
            "`coproc` runs a command in the background with pipes to the shell; run it directly".to_owned(),
        )],
        ConstructKind::Arithmetic => vec![whole(
            "`(( ... ))` arithmetic can assign variables and run commands through array subscripts (the hook also reads `( (` written without a space as `((`); write the commands without it".to_owned(),
        )],
        ConstructKind::LoopVariable => construct
            .name
            .as_deref()
            .and_then(|variable| {
                assigned_variable_segment(
                    format!("for {} in ...", quote_word(variable)),
                    &format!("for {name} in ..."),
                    variable,
                )
            })
            .into_iter()
            .collect(),
        ConstructKind::ExtendedTest | ConstructKind::Case => Vec::new(),
    };
    let shown = match construct.kind {
        ConstructKind::LoopVariable => format!("for {name} in ..."),
        ConstructKind::Case => "case ... in".to_owned(),
        ConstructKind::ExtendedTest => "[[ ... ]]".to_owned(),
        _ => String::new(),
    };
    for role_word in &construct.words {
        if construct.kind == ConstructKind::Arithmetic {
            // Refused whole above; only a word refused whatever the policy
            // says more.
            if let Word::Dynamic { source, why } = &role_word.word
                && why.always_refused()
            {
                segments.push(not_static_segment(shown.clone(), source, *why, context));
            }
            continue;
        }
        if let Some(segment) = role_word_segment(&shown, role_word, context) {
            segments.push(segment);
        }
    }
    for segment in &mut segments {
        segment.within = construct.within;
    }
    segments
}

/// A construct's word: refused when it is not static (by the policy, or
/// always for what cannot be known), or when bash evaluates its text as
/// arithmetic or a variable's subscript and the text is not a number.
fn role_word_segment(shown: &str, role_word: &RoleWord, context: &Context<'_>) -> Option<Segment> {
    let evaluated = matches!(
        role_word.role,
        WordRole::TestArithmetic | WordRole::TestVariable
    );
    let text = match &role_word.word {
        Word::Dynamic { source, why } if evaluated && !why.always_refused() => {
            return Some(not_static_segment(
                shown.to_owned(),
                source,
                NotStatic::ArithmeticVariable,
                context,
            ));
        }
        Word::Dynamic { source, why } => {
            return Some(not_static_segment(shown.to_owned(), source, *why, context));
        }
        Word::Static { text } => text,
    };
    let refused = match role_word.role {
        WordRole::TestArithmetic => !arithmetic_is_numeric(text),
        WordRole::TestVariable => !valid_variable_reference(text),
        // `[[ ]]`'s other operands are compared, never evaluated; one that
        // holds `$` or a backquote is refused all the same, in case this
        // reader took an operator for another.
        WordRole::TestOperand => text.contains(['$', '`']),
        _ => false,
    };
    refused.then(|| {
        Segment::new(
            shown.to_owned(),
            Verdict::Deny,
            "arithmetic_evaluation",
            format!(
                "`{}` is evaluated as arithmetic or as a variable's subscript: any name in it is looked up and its value evaluated in turn, and a value such as `a[$(cmd)]` runs a command; write the number itself",
                cut(text)
            ),
        )
    })
}

/// `NAME`, or `NAME[N]` with a number (or `@`, `*`) as its subscript:
/// what `-v` can test without evaluating anything unknown.
fn valid_variable_reference(text: &str) -> bool {
    let (base, subscript) = match text.split_once('[') {
        Some((base, rest)) => (base, rest.strip_suffix(']')),
        None => (text, Some("@")),
    };
    let mut chars = base.chars();
    let is_name = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    is_name
        && subscript.is_some_and(|subscript| {
            matches!(subscript, "@" | "*")
                || (!subscript.is_empty() && arithmetic_is_numeric(subscript))
        })
}

/// A variable the shell sets by itself (a `for` loop's, `{NAME}>`'s):
/// refused when it is one of the variables that change what programs run
/// or where they read their configuration, or an array element whose
/// subscript is evaluated. `None` for any other.
fn assigned_variable_segment(shown: String, form: &str, variable: &str) -> Option<Segment> {
    if subscript_evaluates(variable) {
        return Some(Segment::new(
            shown,
            Verdict::Deny,
            "arithmetic_evaluation",
            format!(
                "`{}` assigns an array element whose subscript bash evaluates; write the subscript as a number",
                cut(form)
            ),
        ));
    }
    changes_what_runs(variable).then(|| {
        Segment::new(
            shown,
            Verdict::Deny,
            "environment",
            format!(
                "`{}` sets `{}`, which changes which program a name runs, loads code into programs or tells them where their configuration is; use another name",
                cut(form),
                cut(variable)
            ),
        )
    })
}

/// The word of `command` that decides its refusal, when one is not
/// static: the first that is refused whatever the policy, else the first.
fn first_dynamic(command: &SimpleCommand) -> Option<(&str, NotStatic)> {
    let mut dynamic = command
        .assignments
        .iter()
        .map(|assignment| &assignment.value)
        .chain(&command.words)
        .chain(command.redirects.iter().map(|redirect| &redirect.target))
        .filter_map(|word| match word {
            Word::Dynamic { source, why } => Some((source.as_str(), *why)),
            Word::Static { .. } => None,
        });
    let first = dynamic.next()?;
    if first.1.always_refused() {
        return Some(first);
    }
    Some(
        dynamic
            .find(|(_, why)| why.always_refused())
            .unwrap_or(first),
    )
}

fn judge_command(
    command: &SimpleCommand,
    functions: &[&str],
    context: &Context<'_>,
    state: &LineState,
) -> (Segment, Option<Vec<String>>) {
    if let Some(expanded) = paths::expanded(command, context.home) {
        // `~/x` and `src/{a,b}` are judged as the words bash makes of
        // them, shown as written.
        let (mut segment, route) = judge_command(&expanded, functions, context, state);
        show_as_written(&mut segment, command);
        return (segment, route);
    }
    if let Some(inner) = sudo_inner(command) {
        // What `sudo` runs is judged as if it stood alone; as root it is
        // the person's to allow, and what is refused alone stays refused.
        let (mut segment, _) = judge_command(&inner, functions, context, state);
        if segment.verdict != Verdict::Deny {
            segment.verdict = Verdict::Ask;
            segment.rule = "sudo";
            segment.message = format!(
                "runs `{}` as another user (root, unless `-u` says otherwise); the person decides",
                cut(&inner.source)
            );
            segment.confine = false;
        }
        show_as_written(&mut segment, command);
        return (segment, None);
    }
    if let Some(inner) = timeout_inner(command) {
        // `timeout` runs the rest of its words as a command, which is
        // judged as if it stood alone; a rewrite would drop the limit,
        // so there is none.
        let (mut segment, _) = judge_command(&inner, functions, context, state);
        show_as_written(&mut segment, command);
        return (segment, None);
    }
    if let Some(inner) = inert::xargs_inner(command) {
        // `xargs` adds the words it reads to a program that only reads and
        // prints, which no word can make do more; never routed, since the
        // rewrite would lose `xargs`.
        let (mut segment, _) = judge_command(&inner, functions, context, state);
        let program = inner
            .words
            .first()
            .and_then(Word::as_static)
            .unwrap_or_default();
        if segment.verdict == Verdict::Allow && !inert::prints_names_only(program) {
            // The words it reads are not known: a file of secrets among
            // them would be printed to the model.
            segment.verdict = Verdict::Ask;
            segment.rule = paths::SECRET_RULE;
            segment.message = format!(
                "`xargs` hands `{}` words it reads when the line runs, which may name a file that holds secrets (keys, tokens, passwords); the person decides",
                cut(program)
            );
        } else if segment.verdict == Verdict::Allow {
            segment
                .message
                .push_str("; `xargs` adds the words it reads, which can only name what it reads");
        }
        show_as_written(&mut segment, command);
        return (segment, None);
    }
    if let Some(globbed) = inert::globs_as_written(command) {
        // A glob expands to file names, which a program that only reads
        // and prints can do nothing with but read.
        let (mut segment, _) = judge_command(&globbed, functions, context, state);
        if segment.verdict == Verdict::Allow {
            segment
                .message
                .push_str("; its globs expand when the line runs, and can only name what it reads");
        }
        show_as_written(&mut segment, command);
        return (segment, None);
    }
    if let Some((with_id, without)) = object_id::both_ways(command) {
        // Its `$(git merge-base …)` prints one object id or nothing: the
        // command is judged both ways, the stricter standing.
        let (mut segment, _) = judge_command(&with_id, functions, context, state);
        let (printed_nothing, _) = judge_command(&without, functions, context, state);
        if printed_nothing.verdict > segment.verdict {
            segment = printed_nothing;
        }
        if segment.verdict == Verdict::Allow {
            segment.message.push_str(
                "; its `$(…)` prints one git object id or nothing, and is judged as either",
            );
        }
        show_as_written(&mut segment, command);
        return (segment, None);
    }
    let (mut segment, route) = judge_command_words(command, functions, context, state);
    if segment.verdict != Verdict::Allow
        && let Some(inner) = git_elsewhere(command)
    {
        // No form declares this `-C DIR`: the rest is judged where it runs,
        // never routed, since `aigent run` would run it here.
        let (mut elsewhere, _) = judge_command(&inner, functions, context, state);
        show_as_written(&mut elsewhere, command);
        elsewhere.confine = false;
        if elsewhere.verdict <= segment.verdict {
            return (elsewhere, None);
        }
    }
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

/// A segment judged from other words than the command's own (what a
/// wrapper starts, a glob or substitution read another way) shows the
/// command as written, unless it hides its words.
fn show_as_written(segment: &mut Segment, command: &SimpleCommand) {
    if !segment.redacted {
        segment.shown = cut(&command.source);
    }
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

/// The command `sudo [-u USER] [-g GROUP] [-n] [-H] [--] COMMAND...` runs,
/// when every word is static; `None` for any other option (`-s` and `-i`
/// start a shell, `-E` keeps the caller's environment), an assignment, or
/// no command.
fn sudo_inner(command: &SimpleCommand) -> Option<SimpleCommand> {
    let argv = command.argv()?;
    let (&"sudo", rest) = argv.split_first()? else {
        return None;
    };
    let is_name = |word: &str| {
        !word.is_empty()
            && word.len() <= 32
            && word
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.'))
    };
    let mut at = 0;
    while let Some(&word) = rest.get(at) {
        match word {
            "-n" | "--non-interactive" | "-H" | "--set-home" => at += 1,
            "-u" | "--user" | "-g" | "--group"
                if rest.get(at + 1).is_some_and(|value| is_name(value)) =>
            {
                at += 2;
            }
            "--" => {
                at += 1;
                break;
            }
            _ if word.starts_with('-') || word.contains('=') => return None,
            _ => break,
        }
    }
    if at >= rest.len() {
        return None;
    }
    Some(words_after(command, &argv, 1 + at))
}

/// The command `timeout [OPTION]... DURATION COMMAND...` runs, when every
/// word is static and the options are ones coreutils' `timeout` takes; the
/// limit and signal change when it stops, not what it does.
fn timeout_inner(command: &SimpleCommand) -> Option<SimpleCommand> {
    let argv = command.argv()?;
    let (&"timeout", rest) = argv.split_first()? else {
        return None;
    };
    let is_duration = |word: &str| {
        let number = word.trim_end_matches(['s', 'm', 'h', 'd']);
        word.len() - number.len() <= 1
            && !number.is_empty()
            && number.len() <= 12
            && number.split_once('.').map_or(
                number.bytes().all(|byte| byte.is_ascii_digit()),
                |(whole, fraction)| {
                    !whole.is_empty()
                        && !fraction.is_empty()
                        && (whole.bytes().chain(fraction.bytes())).all(|byte| byte.is_ascii_digit())
                },
            )
    };
    let is_signal = |word: &str| {
        !word.is_empty()
            && word.len() <= 12
            && word.bytes().all(|byte| byte.is_ascii_alphanumeric())
    };
    let mut at = 0;
    while let Some(&word) = rest.get(at) {
        match word {
            "--foreground" | "--preserve-status" | "-v" | "--verbose" => at += 1,
            "-s" | "--signal" if rest.get(at + 1).is_some_and(|value| is_signal(value)) => at += 2,
            "-k" | "--kill-after" if rest.get(at + 1).is_some_and(|value| is_duration(value)) => {
                at += 2;
            }
            "--" => {
                at += 1;
                break;
            }
            _ if word.strip_prefix("--signal=").is_some_and(is_signal)
                || word.strip_prefix("--kill-after=").is_some_and(is_duration) =>
            {
                at += 1;
            }
            _ if word.starts_with('-') => return None,
            _ => break,
        }
    }
    if !rest.get(at).is_some_and(|word| is_duration(word)) || rest.len() < at + 2 {
        return None;
    }
    Some(words_after(command, &argv, 1 + at + 1))
}

/// The command a wrapper (`sudo`, `timeout`, `xargs`) starts: `command`'s
/// words from `skip` on (`argv` is its static words), with its
/// assignments and redirections, never rewritten in place.
fn words_after(command: &SimpleCommand, argv: &[&str], skip: usize) -> SimpleCommand {
    SimpleCommand {
        source: quote(&argv[skip..]),
        words: command.words[skip..].to_vec(),
        words_span: None,
        ..command.clone()
    }
}

/// `git -C DIR... ARGS` as the `git ARGS` it runs in `DIR` (the line's
/// places already put it there: see [`directory`]).
fn git_elsewhere(command: &SimpleCommand) -> Option<SimpleCommand> {
    let argv = command.argv()?;
    let (&"git", rest) = argv.split_first()? else {
        return None;
    };
    let mut at = 0;
    while rest.get(at) == Some(&"-C") && rest.get(at + 1).is_some() {
        at += 2;
    }
    if at == 0 || rest.len() <= at {
        return None;
    }
    let mut words = vec![command.words[0].clone()];
    words.extend_from_slice(&command.words[1 + at..]);
    let mut kept = vec!["git"];
    kept.extend_from_slice(&rest[at..]);
    Some(SimpleCommand {
        source: quote(&kept),
        words,
        words_span: None,
        ..command.clone()
    })
}

fn judge_command_words(
    command: &SimpleCommand,
    functions: &[&str],
    context: &Context<'_>,
    state: &LineState,
) -> (Segment, Option<Vec<String>>) {
    let source = cut(&command.source);
    // A quoted `"$(…)"` may stand where a declaration takes any text
    // (`opaque`); any other word that is not static refuses the command.
    let dynamic = first_dynamic(command);
    let inert_words = dynamic.and_then(|_| opaque::inert_words(command));
    let opaque_positions = match dynamic {
        None => Vec::new(),
        Some((word, why)) => {
            match opaque::opaque_positions(command).or_else(|| inert_words.clone()) {
                Some(positions) => positions,
                None => return (not_static_segment(source, word, why, context), None),
            }
        }
    };
    let argv: Vec<&str> = command
        .words
        .iter()
        .map(|word| word.as_static().unwrap_or(opaque::OPAQUE_TEXT))
        .collect();
    let redirect = strictest(
        redirect_verdict(&command.redirects, context, state),
        command.redirects.iter().find_map(|redirect| {
            let variable = redirect.variable.as_deref()?;
            assigned_variable_segment(source.clone(), &format!("{{{variable}}}>"), variable)
        }),
    );
    let Some((&program, _)) = argv.split_first() else {
        // Only assignments and redirections (or a compound command's
        // redirections, recorded on a command of their own).
        let mut segment = if command.assignments.is_empty() {
            Segment::new(
                source.clone(),
                Verdict::Allow,
                "redirection",
                "only opens the files it redirects".to_owned(),
            )
        } else {
            assignments_segment(source.clone(), command, context)
        };
        if let Some(redirect) = redirect {
            segment = stricter(segment, redirect);
        }
        return (segment, None);
    };
    let shown = quote(&argv);
    // `test -v NAME[SUBSCRIPT]` evaluates the subscript.
    let tests_variable = matches!(program, "test" | "[")
        && argv
            .windows(2)
            .any(|pair| pair[0] == "-v" && !valid_variable_reference(pair[1]));
    let evaluated = command
        .assignments
        .iter()
        .any(|assignment| subscript_evaluates(&assignment.name))
        || (EVALUATING_BUILTINS.contains(&program)
            && argv[1..].iter().any(|word| word.contains(['$', '`'])))
        || tests_variable
        || (READING_BUILTINS.contains(&program)
            && named_variables(program, &argv[1..])
                .into_iter()
                .any(subscript_evaluates));
    let mut segment = if evaluated {
        Segment::new(
            shown.clone(),
            Verdict::Deny,
            "arithmetic_evaluation",
            format!(
                "`{}` evaluates a word as arithmetic or as an array subscript (`$`, a backquote or a name in it), which can run code; write the subscript as a number",
                cut(program)
            ),
        )
    } else if !command.assignments.is_empty() {
        return prefixed_command(command, functions, context, state);
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
    } else if runs_piped_code(command, &argv) {
        Segment::new(
            shown.clone(),
            Verdict::Deny,
            "interpreter",
            format!(
                "`{}` runs the code piped into it, which the hook cannot see; save it to a file the person can read, or run the commands directly",
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
        match outside_project_segment(state, context) {
            Some(outside) => stricter(segment, outside),
            None => segment,
        }
    } else {
        // A program named by a relative path is a file of the project
        // (`./gradlew`, `scripts/test.sh`): it runs as the catalog's
        // `project-program`, `env -- PATH ARGS...`, in the sandbox.
        let (written, written_argv) = (program, argv.as_slice());
        let by_path: Vec<&str>;
        let shifted: Vec<usize>;
        let (program, argv, opaque_positions) =
            if program.contains('/') && !Path::new(program).is_absolute() {
                by_path = ["env", "--"]
                    .into_iter()
                    .chain(argv.iter().copied())
                    .collect();
                shifted = opaque_positions.iter().map(|at| at + 2).collect();
                ("env", by_path.as_slice(), shifted)
            } else {
                (program, argv.as_slice(), opaque_positions)
            };
        let mut matched = match_declarations(program, argv, context, state);
        if program_key(written) == "env" && matches!(matched, Matched::Refused(_)) {
            // A typed `env` that no form takes is a wrapper, whatever
            // `project-program`'s pattern says of the word after it.
            matched = Matched::Nothing {
                declared: Vec::new(),
            };
        }
        if argv.len() > command.words.len() {
            // Shown as written, not as the `env` it runs as.
            if let Matched::Allowed { segment, .. } | Matched::Refused(segment) = &mut matched
                && !segment.redacted
            {
                segment.shown = shown.clone();
            }
        }
        match matched {
            Matched::Allowed {
                segment,
                route,
                declaration,
                arguments,
            } => {
                if let Some((word, why)) = dynamic
                    && !opaque::taken_as_text(
                        &declaration,
                        argv,
                        &opaque_positions,
                        &arguments,
                        &segment,
                    )
                {
                    return (not_static_segment(source, word, why, context), None);
                }
                let reads = command
                    .redirects
                    .iter()
                    .chain(&command.enclosing_reads)
                    .filter(|redirect| redirect.kind.reads_file());
                let refusal = strictest(
                    strictest(
                        redirect,
                        read_outside_confinement(
                            &declaration,
                            &arguments,
                            reads,
                            argv,
                            state.working_directory(context),
                        ),
                    ),
                    outside_project_refusal(state, context, &declaration, program),
                );
                let route = route.filter(|_| refusal.is_none() && dynamic.is_none());
                let mut segment = match refusal {
                    Some(refusal) => stricter(segment, refusal),
                    None => segment,
                };
                if dynamic.is_some() {
                    if !segment.redacted {
                        segment.shown = source.clone();
                    }
                    segment.message.push_str(
                        "; the text of its `$(…)` is known only when the line runs, and is taken as text",
                    );
                }
                return (segment, route);
            }
            Matched::Refused(segment) => segment,
            Matched::Nothing { declared } => {
                unmatched(written, written_argv, shown.clone(), declared, context)
            }
        }
    };
    if let Some(redirect) = redirect {
        segment = stricter(segment, redirect);
    }
    if let Some((word, why)) = dynamic
        && !(inert_words.is_some() && segment.rule == "allowed_program")
    {
        // Only a declaration that takes the word as text lets it through,
        // or `echo` and `cd`, which do nothing with it that could matter.
        let refusal = not_static_segment(source, word, why, context);
        return (stricter(refusal, segment), None);
    }
    if inert_words.is_some() {
        segment.shown = source;
    }
    (segment, None)
}

/// `curl … | sh`, `… | python3 -`: a shell or interpreter reading its
/// program from the pipe before it (no script named, only options).
fn runs_piped_code(command: &SimpleCommand, argv: &[&str]) -> bool {
    command.reads_pipe && is_language(argv[0]) && argv[1..].iter().all(|word| word.starts_with('-'))
}

/// Variables that change only how a program looks or where it puts its
/// scratch files: `NAME=VALUE cmd` with these is judged as `cmd`.
const HARMLESS_VARIABLES: &[&str] = &[
    "CARGO_TERM_COLOR",
    "CI",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLUMNS",
    "DEBUG",
    "FORCE_COLOR",
    "LANG",
    "LANGUAGE",
    "LINES",
    "NO_COLOR",
    "NODE_ENV",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONHASHSEED",
    "PYTHONUNBUFFERED",
    "RUST_BACKTRACE",
    "RUST_LOG",
    "RUST_TEST_THREADS",
    "TERM",
    "TMPDIR",
    "TZ",
];

fn harmless_variable(name: &str) -> bool {
    HARMLESS_VARIABLES.contains(&name)
        || name
            .strip_prefix("LC_")
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_uppercase()))
}

/// `NAME=VALUE ... cmd`: `cmd` judged alone, then held to the variables.
/// Those that change what runs or load code deny; harmless ones
/// (`TMPDIR`, `LC_ALL`, `RUST_BACKTRACE`) leave the verdict as it is; any
/// other is the person's to allow, since its meaning is the program's.
/// The command is never routed: `aigent run` would drop the variables.
fn prefixed_command(
    command: &SimpleCommand,
    functions: &[&str],
    context: &Context<'_>,
    state: &LineState,
) -> (Segment, Option<Vec<String>>) {
    let words = command.argv().map(|argv| quote(&argv)).unwrap_or_default();
    let shown = with_assignments(command, &words);
    let static_values = command
        .assignments
        .iter()
        .all(|assignment| assignment.value.as_static().is_some());
    let mut refusal = assignments_segment(shown.clone(), command, context);
    if refusal.verdict == Verdict::Deny || !static_values {
        // A dynamic value is refused by the not-static rules as well.
        refusal.verdict = Verdict::Deny;
        return (refusal, None);
    }
    let bare = SimpleCommand {
        assignments: Vec::new(),
        ..command.clone()
    };
    let (mut segment, _) = judge_command_words(&bare, functions, context, state);
    if !segment.redacted {
        segment.shown = shown.clone();
    }
    // The words may hold a sensitive value: the message names the program.
    let program = cut(command
        .words
        .first()
        .and_then(Word::as_static)
        .unwrap_or_default());
    let shown = segment.shown.clone();
    let redacted = segment.redacted;
    // A locale or terminal named by a path is read from that file.
    let unknown: Vec<&str> = command
        .assignments
        .iter()
        .filter(|assignment| {
            !harmless_variable(&assignment.name)
                || (assignment.name != "TMPDIR"
                    && assignment
                        .value
                        .as_static()
                        .is_none_or(|value| value.contains('/')))
        })
        .map(|assignment| assignment.name.as_str())
        .collect();
    let asked = if segment.verdict >= Verdict::Ask {
        None
    } else if segment.confine {
        // Its sandbox is reached through `aigent run`, which would drop
        // the variables.
        Some(format!(
            "`{program}` runs the project's own code here, which the hook sends into aigent's sandbox through `aigent run`; that would drop the variables set before it, so the person decides"
        ))
    } else if !unknown.is_empty() {
        Some(format!(
            "`{}=...` changes the environment `{program}` runs with, which its declaration does not cover; the person decides",
            unknown.join("=... "),
        ))
    } else {
        None
    };
    if let Some(message) = asked {
        segment = Segment::new(shown, Verdict::Ask, "assignment_prefix", message);
        segment.redacted = redacted;
    }
    segment.confine = false;
    (segment, None)
}

/// Programs that read configuration from the directory they run in (or
/// the repository around it) that can run commands: `.git/config`, a
/// `package.json`, a `Makefile`, `pyproject.toml`, `*.tf`.
const DIRECTORY_CONFIGURED: &[&str] = &[
    "bun",
    "cargo",
    "docker",
    "gh",
    "git",
    "go",
    "gradle",
    "make",
    "mvn",
    "node",
    "npm",
    "npx",
    "pip",
    "pip3",
    "pnpm",
    "poetry",
    "pytest",
    "python",
    "python3",
    "terraform",
    "uv",
    "yarn",
];

/// What a declared command that may run outside the project gets, if not
/// allowed: a form that only reads is allowed anywhere when its program
/// reads no configuration from where it runs (`ls`, `tail`), and `git`'s
/// reads where each repository it may run in sets nothing that runs a
/// command (`core.fsmonitor`, a pager, a diff driver, an include). Anything
/// else there is the person's to allow.
fn outside_project_refusal(
    state: &LineState,
    context: &Context<'_>,
    declaration: &Declaration,
    program: &str,
) -> Option<Segment> {
    state.outside_project()?;
    let place = state.place()?;
    let key = program_key(program);
    if declaration.class() == crate::contract::CommandClass::Reads {
        if !DIRECTORY_CONFIGURED.contains(&key) && place.candidates.is_some() {
            return None;
        }
        let home = context.home.map(Path::new);
        if key == "git"
            && let Some(candidates) = &place.candidates
            && candidates.iter().all(|(directory, exists)| {
                (*exists || !place.populated_before)
                    && git_dir::config_runs_code(directory, home, &[]).is_none()
            })
        {
            return None;
        }
    }
    let changes_only_files = declaration.class() == crate::contract::CommandClass::ChangesProject
        && !DIRECTORY_CONFIGURED.contains(&key);
    if changes_only_files {
        // It reads no configuration where it runs; a change in the
        // project or the temporary directory is a change it may make.
        let project = context.cwd.map(directory::project_of);
        let temporary: Vec<PathBuf> = [std::env::temp_dir(), PathBuf::from("/tmp")]
            .iter()
            .filter_map(|directory| remembered::canonicalize(directory).ok())
            .collect();
        // The home directory is never the temporary one, even in `/tmp`.
        let home = context
            .home
            .filter(|home| home.starts_with('/'))
            .map(|home| remembered::canonicalize(home).unwrap_or_else(|_| PathBuf::from(home)));
        let within = |directory: &Path| {
            project
                .as_deref()
                .is_some_and(|project| directory.starts_with(project))
                || (temporary
                    .iter()
                    .any(|temporary| directory.starts_with(temporary))
                    && !home
                        .as_deref()
                        .is_some_and(|home| directory.starts_with(home)))
        };
        if place.candidates.as_ref().is_some_and(|all| {
            all.iter()
                .all(|(directory, exists)| *exists && within(directory))
        }) {
            return None;
        }
        let why = state.outside_project()?;
        return Some(Segment::new(
            String::new(),
            environment_change(context),
            "outside_project",
            format!("{why}; it changes files there: the person decides"),
        ));
    }
    outside_project_segment(state, context)
}

/// A declared command that runs after a `cd` which may have left the
/// project: its program reads its configuration (and so can run commands)
/// from wherever it runs, so the unmatched policy decides.
fn outside_project_segment(state: &LineState, context: &Context<'_>) -> Option<Segment> {
    let why = state.outside_project()?;
    Some(Segment::new(
        String::new(),
        environment_change(context),
        "outside_project",
        format!(
            "{why}; a program reads its configuration from the directory it runs in (`.git/config`, a `Makefile`, `package.json`), which can run commands, so its declaration is not enough. Run it from the project, or name the directory in the command"
        ),
    ))
}

/// A command's words with the assignments before them, as written; a
/// value that is not static, or under a name that may hold a secret
/// (`PGPASSWORD`, `GH_TOKEN`, `AWS_SECRET_ACCESS_KEY`, …), is `…`.
fn with_assignments(command: &SimpleCommand, words: &str) -> String {
    let mut shown: Vec<String> = command
        .assignments
        .iter()
        .map(|assignment| match assignment.value.as_static() {
            Some(value) if !super::secrets::variable_may_hold_secret(&assignment.name) => {
                format!("{}={}", cut(&assignment.name), quote_word(&cut(value)))
            }
            _ => format!("{}=…", cut(&assignment.name)),
        })
        .collect();
    shown.push(words.to_owned());
    shown.join(" ")
}

/// The stricter of two refusals, either of which may be absent.
fn strictest(first: Option<Segment>, second: Option<Segment>) -> Option<Segment> {
    match (first, second) {
        (Some(first), Some(second)) if second.verdict > first.verdict => Some(second),
        (Some(first), _) => Some(first),
        (None, second) => second,
    }
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
/// `PATH` itself) changes what runs: the shell's own control variables,
/// and the variables programs read as code, as a place to find code or as
/// the place their configuration is (`HOME`, `XDG_CONFIG_HOME`,
/// `GIT_DIR`, …; the same table as `VAR=… cmd` and the lint). Environment
/// variables are written in capitals: a name with a lower-case letter is
/// judged by the narrower list of those that load code whatever their
/// value (`npm_config_*` among them), so that `for path in …` stays a
/// shell variable of the line's own.
fn changes_what_runs(name: &str) -> bool {
    let name = name.split('[').next().unwrap_or(name);
    // Named exactly, these mean less than the code variables' prefixes
    // say (`NODE_ENV` is not `NODE_OPTIONS`).
    if harmless_variable(name) {
        return false;
    }
    SHELL_CONTROL_VARIABLES.contains(&name)
        || variable_loads_code(name)
        || (!name.bytes().any(|byte| byte.is_ascii_lowercase()) && code_variable(name).is_some())
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
        subscript_evaluates(&assignment.name)
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
        .find(|assignment| changes_what_runs(&assignment.name))
    {
        Some(assignment) => Segment::new(
            shown,
            Verdict::Deny,
            "environment",
            format!(
                "setting `{}` changes which program a name runs, loads code into programs or tells them where their configuration is",
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

/// The variables a builtin's words name for it to set or unset: `printf
/// -v NAME`, `wait -p NAME`, `getopts OPTSTRING NAME`; for the others
/// (`read`, `unset`, `export`, `declare` …) any word not an option, up to
/// its `=`.
fn named_variables<'w>(builtin: &str, arguments: &[&'w str]) -> Vec<&'w str> {
    let after = |flag: &str| -> Vec<&'w str> {
        let mut names = Vec::new();
        let mut words = arguments.iter();
        while let Some(word) = words.next() {
            if *word == flag {
                names.extend(words.next().copied());
            } else if let Some(joined) = word.strip_prefix(flag) {
                names.push(joined);
            }
        }
        names
    };
    match builtin {
        "printf" => after("-v"),
        "wait" => after("-p"),
        "getopts" => arguments
            .iter()
            .copied()
            .filter(|word| !word.starts_with('-'))
            .skip(1)
            .take(1)
            .collect(),
        _ => arguments
            .iter()
            .filter(|argument| !argument.starts_with(['-', '+']))
            .map(|argument| argument.split_once('=').map_or(*argument, |(name, _)| name))
            .collect(),
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
    let assigned = named_variables(builtin, arguments)
        .into_iter()
        .find(|name| changes_what_runs(name));
    match assigned {
        Some(name) => Segment::new(
            shown,
            Verdict::Deny,
            "environment",
            format!(
                "`{builtin} {}` changes which program a name runs, loads code into programs or tells them where their configuration is",
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
