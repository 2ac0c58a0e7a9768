//! `aigent hook learn`: declarations proposed from what the hook asked
//! about or refused for lack of one, for a person to review.
//!
//! The input is a set of command lines with where they ran and who ran
//! them ([`Observation`]): the hook's own decisions read back from the
//! audit log once its chain holds ([`sources::from_audit_log`]), lines on
//! stdin, or the lines a Claude Code prefix rule admitted. Each line is
//! judged again with the hook's judgement; a segment refused for lack of a
//! declaration (rules `unmatched` and `not_declared_form`) is learnable,
//! any other refusal (dynamic words, interpreters, code-loading variables,
//! catastrophic forms, ...) is listed as not learnable with its rule.
//!
//! Learnable segments are grouped by program, subcommand and option set
//! ([`infer`]); each group becomes one declaration whose values get the
//! tightest check that fits every value seen. Every proposal passes the
//! registry's own parse and lint, and is then proved against the lines it
//! came from: the hook's judgement with the proposal in the registry must
//! match each line, or the line is reported as still refused. Nothing is
//! written here; [`write`] saves proposals the caller accepted.

pub mod infer;
pub mod sources;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::bridge::import::write::{WriteError, Written};
use crate::bridge::import::{Imported, declaration_name};
use crate::contract::{CommandClass, DangerLevel, Declaration, Origin, Syntax};
use crate::hook::judge::{Context, Judgement, declared_form, judge};
use crate::hook::verdict::Verdict;
use crate::registry::layers::Discovery;
use crate::registry::{HookSettings, Layers, Registry, Settings, parse_value, program_key};
use crate::report::Diagnostic;
use crate::shell::Word;
use infer::{Knowledge, Reading};

/// The rules of a segment refused for lack of a declaration.
pub const LEARNABLE_RULES: [&str; 2] = ["unmatched", "not_declared_form"];

/// Most lines shown per proposal under `covers` and `still_refused`.
const MAX_LINES_SHOWN: usize = 20;

/// One command line seen, with how often and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    pub line: String,
    /// The directory it ran in, when known.
    pub cwd: Option<PathBuf>,
    /// The client sessions it came from.
    pub sessions: BTreeSet<String>,
    pub count: u64,
    /// An earlier `cd` (or `pushd`, `popd`) in its line moved the shell:
    /// the hook cannot tell the one directory it runs in, so a path in it
    /// cannot be held to that directory.
    pub moved: bool,
}

impl Observation {
    pub fn new(line: impl Into<String>) -> Self {
        Self {
            line: line.into(),
            cwd: None,
            sessions: BTreeSet::new(),
            count: 1,
            moved: false,
        }
    }
}

/// What the caller decides.
#[derive(Debug, Clone, Default)]
pub struct LearnOptions {
    /// Only lines of this program (by base name).
    pub program: Option<String>,
    /// A group seen fewer times is not proposed.
    pub min_count: u64,
    /// The class every proposal gets, chosen by the person (else each
    /// proposal's is the catalog's, or `discards_work` when unsure).
    pub class: Option<CommandClass>,
}

/// What the judgement needs, as the hook has it.
pub struct LearnContext<'a> {
    /// The registry as the caller names it (`--commands`, or the layers);
    /// the hook's view is taken from it for each line's directory.
    pub registry: &'a Registry,
    pub which: &'a dyn Fn(&str) -> Option<PathBuf>,
    /// The directory for lines that do not say where they ran.
    pub cwd: Option<&'a Path>,
    pub cache_dir: Option<&'a Path>,
    /// Where proposals would be written: names taken there are avoided.
    pub target: Option<&'a Path>,
}

/// A line the hook still refuses under a proposal, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Refused {
    pub line: String,
    pub rule: String,
    pub message: String,
}

/// One proposed declaration.
#[derive(Debug, Clone, Serialize)]
pub struct Proposal {
    pub name: String,
    pub file_name: String,
    pub program: String,
    /// The declared form (`git log [--stat] [<revisions>...]`).
    pub form: String,
    pub class: CommandClass,
    /// Why this class: the catalog declaration it follows, or why aigent
    /// is unsure (then the class is `discards_work`: the hook asks).
    pub class_reason: String,
    pub unsure: bool,
    pub declaration: Value,
    /// What `schema lint` says of it: no errors, by construction.
    pub lint: Vec<Diagnostic>,
    /// Observations of the lines it covers.
    pub count: u64,
    pub sessions: Vec<String>,
    /// The observed lines the hook allows (or asks about, for a
    /// `discards_work` class) through it.
    pub covers: Vec<String>,
    /// The observed lines of its group it does not take.
    pub still_refused: Vec<Refused>,
    /// What was left out of the declaration (an option the lint refuses).
    pub notes: Vec<String>,
}

/// A line (or segment) no declaration is proposed for.
#[derive(Debug, Clone, Serialize)]
pub struct NotLearnable {
    pub line: String,
    pub rule: String,
    pub reason: String,
    pub count: u64,
}

/// A group seen fewer times than `--min-count`.
#[derive(Debug, Clone, Serialize)]
pub struct Rare {
    pub command: String,
    pub count: u64,
}

/// Everything one run learned.
#[derive(Debug, Clone, Serialize)]
pub struct Learned {
    pub proposals: Vec<Proposal>,
    pub not_learnable: Vec<NotLearnable>,
    pub below_min_count: Vec<Rare>,
    /// Observed segments the hook allows already.
    pub already_allowed: u64,
    /// Observations read (after `--program`).
    pub observed: u64,
}

/// Why nothing could be learned.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    #[error("the hook policy cannot be read: {0}")]
    Settings(String),
    #[error("the registry cannot be read: {0}")]
    Registry(String),
    #[error("cannot prepare the proposals for checking: {0}")]
    Scratch(std::io::Error),
}

/// A learnable segment: its words, where it ran, and its evidence.
#[derive(Debug, Clone)]
struct Learnable {
    line: String,
    words: Vec<String>,
    cwd: Option<PathBuf>,
    sessions: BTreeSet<String>,
    count: u64,
    /// The declaration the hook named as the closest.
    closest: Option<String>,
    /// Run after a `cd` in its line (see [`Observation::moved`]).
    moved: bool,
}

/// The hook's view of the registry for one directory.
struct View {
    registry: Registry,
    settings: HookSettings,
    index: crate::registry::ProgramIndex,
}

impl View {
    fn of(context: &LearnContext<'_>, cwd: Option<&Path>) -> Result<Self, LearnError> {
        let registry = context.registry.for_hook(cwd);
        let settings = Settings::load(&registry)
            .map_err(|error| LearnError::Settings(error.to_string()))?
            .hook;
        let index = registry
            .program_index(context.cache_dir)
            .map_err(|error| LearnError::Registry(error.to_string()))?;
        Ok(Self {
            registry,
            settings,
            index,
        })
    }

    fn judge(
        &self,
        line: &str,
        cwd: Option<&Path>,
        which: &dyn Fn(&str) -> Option<PathBuf>,
    ) -> Judgement {
        let context = Context {
            registry: &self.registry,
            index: &self.index,
            settings: &self.settings,
            which,
            cwd,
            aigent: None,
            home: None,
        };
        judge(line, &context)
    }

    fn declarations_of(&self, program: &str) -> Vec<Declaration> {
        self.index
            .commands_for(program_key(program))
            .iter()
            .filter_map(|name| self.registry.load(name).ok())
            .map(|loaded| loaded.declaration)
            .collect()
    }
}

/// The words of a segment as the hook showed it (quoted for a POSIX
/// shell), when it holds nothing but static words.
fn segment_words(shown: &str) -> Option<Vec<String>> {
    if shown.is_empty() || shown.ends_with('…') {
        return None;
    }
    let script = crate::shell::parse(shown).ok()?;
    let [command] = script.commands.as_slice() else {
        return None;
    };
    if !command.assignments.is_empty()
        || !command.redirects.is_empty()
        || !script.constructs.is_empty()
    {
        return None;
    }
    command
        .words
        .iter()
        .map(|word| match word {
            Word::Static { text } => Some(text.clone()),
            Word::Dynamic { .. } => None,
        })
        .collect()
}

/// Whether a command of these words changes its shell's directory.
pub(crate) fn changes_directory<S: AsRef<str>>(words: &[S]) -> bool {
    matches!(
        words.first().map(AsRef::as_ref),
        Some("cd" | "pushd" | "popd")
    )
}

/// Learns from `observations`.
pub fn learn(
    observations: Vec<Observation>,
    context: &LearnContext<'_>,
    options: &LearnOptions,
) -> Result<Learned, LearnError> {
    // The same line in the same place once, with its evidence summed.
    let mut merged: BTreeMap<(String, Option<PathBuf>, bool), Observation> = BTreeMap::new();
    for observation in observations {
        let cwd = observation
            .cwd
            .clone()
            .or_else(|| context.cwd.map(Path::to_path_buf));
        let entry = merged
            .entry((observation.line.clone(), cwd.clone(), observation.moved))
            .or_insert_with(|| Observation {
                line: observation.line.clone(),
                cwd,
                sessions: BTreeSet::new(),
                count: 0,
                moved: observation.moved,
            });
        entry.count += observation.count;
        entry.sessions.extend(observation.sessions);
    }
    let mut views: HashMap<Option<PathBuf>, View> = HashMap::new();
    let mut learned = Learned {
        proposals: Vec::new(),
        not_learnable: Vec::new(),
        below_min_count: Vec::new(),
        already_allowed: 0,
        observed: 0,
    };
    let wanted = |program: &str| {
        options
            .program
            .as_deref()
            .is_none_or(|wanted| program_key(program) == program_key(wanted))
    };
    let mut learnables: Vec<Learnable> = Vec::new();
    let mut refused: BTreeMap<(String, String), NotLearnable> = BTreeMap::new();
    for observation in merged.into_values() {
        let cwd = observation.cwd.clone();
        if !views.contains_key(&cwd) {
            views.insert(cwd.clone(), View::of(context, cwd.as_deref())?);
        }
        let view = &views[&cwd];
        let judgement = view.judge(&observation.line, cwd.as_deref(), context.which);
        let mut counted = false;
        // Whether an earlier segment of this line changed directory.
        let mut moved = observation.moved;
        for segment in &judgement.segments {
            let words = segment_words(&segment.shown);
            let moved_here = moved;
            moved |= words.as_ref().is_some_and(|words| changes_directory(words));
            let program = words
                .as_ref()
                .and_then(|words| words.first().cloned())
                .or_else(|| segment.shown.split_whitespace().next().map(str::to_owned))
                .unwrap_or_default();
            if !wanted(&program) {
                continue;
            }
            if !counted {
                learned.observed += observation.count;
                counted = true;
            }
            if segment.verdict == Verdict::Allow {
                learned.already_allowed += observation.count;
                continue;
            }
            let shown = if segment.shown.is_empty() {
                observation.line.clone()
            } else {
                segment.shown.clone()
            };
            let why_not = if !LEARNABLE_RULES.contains(&segment.rule) {
                Some((segment.rule.to_owned(), segment.message.clone()))
            } else if segment.redacted || words.is_none() {
                Some((
                    segment.rule.to_owned(),
                    "its words are not all shown (a sensitive value was redacted, or the segment was cut); declare it by hand".to_owned(),
                ))
            } else if program.contains('/') {
                Some((
                    segment.rule.to_owned(),
                    "its program is named by a path, which names whatever is there when it runs; declare the program by its name".to_owned(),
                ))
            } else {
                None
            };
            match (why_not, words) {
                (None, Some(words)) => learnables.push(Learnable {
                    line: shown,
                    words,
                    cwd: cwd.clone(),
                    sessions: observation.sessions.clone(),
                    count: observation.count,
                    closest: segment.declaration.clone(),
                    moved: moved_here,
                }),
                (why_not, _) => {
                    let (rule, reason) = why_not
                        .unwrap_or_else(|| (segment.rule.to_owned(), segment.message.clone()));
                    refused
                        .entry((shown.clone(), rule.clone()))
                        .or_insert_with(|| NotLearnable {
                            line: shown,
                            rule,
                            reason,
                            count: 0,
                        })
                        .count += observation.count;
                }
            }
        }
    }
    learned.not_learnable = refused.into_values().collect();
    if learnables.is_empty() {
        return Ok(learned);
    }
    let base_cwd = context.cwd.map(Path::to_path_buf);
    if !views.contains_key(&base_cwd) {
        views.insert(base_cwd.clone(), View::of(context, base_cwd.as_deref())?);
    }
    let base = &views[&base_cwd];
    let groups = group(learnables, base);
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut candidates: Vec<(Proposal, Vec<Learnable>)> = Vec::new();
    for group in groups {
        let count: u64 = group.lines.iter().map(|line| line.count).sum();
        let command = std::iter::once(group.program.as_str())
            .chain(group.path.iter().map(String::as_str))
            .chain(group.options.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        if count < options.min_count {
            learned.below_min_count.push(Rare { command, count });
            continue;
        }
        match propose(&group, base, context, options, &mut taken) {
            Ok(proposal) => candidates.push((proposal, group.lines)),
            Err(reason) => {
                for line in group.lines {
                    learned.not_learnable.push(NotLearnable {
                        line: line.line,
                        rule: "not_learnable".to_owned(),
                        reason: reason.clone(),
                        count: line.count,
                    });
                }
            }
        }
    }
    learned.proposals = prove(candidates, context, &mut learned.not_learnable)?;
    Ok(learned)
}

/// Learnable lines of one program, subcommand and option set.
struct Group {
    program: String,
    path: Vec<String>,
    options: Vec<String>,
    syntax: Syntax,
    lines: Vec<Learnable>,
    readings: Vec<Reading>,
    knowledge: Knowledge,
    /// The registry's declarations of this program and subcommand.
    references: Vec<Declaration>,
}

fn group(learnables: Vec<Learnable>, view: &View) -> Vec<Group> {
    let mut knowledge: BTreeMap<String, (Knowledge, Vec<Declaration>)> = BTreeMap::new();
    let mut groups: BTreeMap<(String, Vec<String>, Vec<String>), Group> = BTreeMap::new();
    for learnable in learnables {
        let program = learnable.words[0].clone();
        let (known, declarations) = knowledge.entry(program.clone()).or_insert_with(|| {
            let declarations = view.declarations_of(&program);
            (
                Knowledge::of(&declarations).with_code_options(&program),
                declarations,
            )
        });
        let syntax = crate::contract::programs::syntax::program_syntax(&program);
        // The subcommand first; then its options as the declarations of
        // that subcommand know them (`-n` is `--dry-run` to `git push`
        // and `--no-verify` to `git commit`).
        let path = infer::read(&learnable.words[1..], syntax, known).path;
        let specific = Knowledge::of(
            declarations
                .iter()
                .filter(|declaration| infer::leading_words(declaration) == path),
        )
        .with_paths(&known.paths)
        .with_code_options(&program);
        let reading = infer::read(&learnable.words[1..], syntax, &specific);
        let (path, options) = reading.key(syntax == Syntax::Exact);
        let entry = groups
            .entry((program.clone(), path.clone(), options.clone()))
            .or_insert_with(|| Group {
                program: program.clone(),
                path: path.clone(),
                options: options.clone(),
                syntax,
                lines: Vec::new(),
                readings: Vec::new(),
                knowledge: specific,
                references: declarations
                    .iter()
                    .filter(|declaration| infer::leading_words(declaration) == path)
                    .cloned()
                    .collect(),
            });
        entry.lines.push(learnable);
        entry.readings.push(reading);
    }
    groups.into_values().collect()
}

/// The class of a group: that of the registry's declaration of the same
/// program and subcommand that takes every line of the group itself (see
/// [`takes`]; the most cautious of them when several do), else
/// `discards_work`, unsure. Declaring every option the lines use is not
/// enough: `git config KEY VALUE` uses no option `git-config-get` lacks
/// and sets the key that form reads, and a bare `bash` runs what stdin
/// holds where `bash-script` runs a script of the project.
fn class_of(group: &Group, options: &LearnOptions) -> (CommandClass, String, bool) {
    if let Some(class) = options.class {
        return (class, "set by --class".to_owned(), false);
    }
    let closest: BTreeSet<&str> = group
        .lines
        .iter()
        .filter_map(|line| line.closest.as_deref())
        .collect();
    let key = program_key(&group.program);
    let lines: Vec<Vec<String>> = group
        .lines
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.words[1..].iter().map(String::as_str).collect();
            // The line in its program's one spelling, as the hook reads it.
            crate::contract::programs::spelling::canonical(key, &words)
                .unwrap_or_else(|| line.words[1..].to_vec())
        })
        .collect();
    let fitting = group
        .references
        .iter()
        .filter(|reference| {
            lines.iter().all(|words| {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                takes(reference, &words)
            })
        })
        .max_by_key(|reference| {
            (
                rank(reference.class()),
                closest.contains(reference.name.as_str()),
            )
        });
    if let Some(reference) = fitting {
        return (
            reference.class(),
            format!(
                "as `{}`, which takes each of these lines itself",
                reference.name
            ),
            false,
        );
    }
    let program = &group.program;
    let words = std::iter::once(program.as_str())
        .chain(group.path.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let why = if group.references.is_empty() {
        format!("unsure: no declaration says what `{words}` does")
    } else {
        let names: Vec<&str> = group.references.iter().map(|d| d.name.as_str()).collect();
        let unknown: Vec<&str> = group
            .options
            .iter()
            .filter(|option| {
                !group
                    .references
                    .iter()
                    .any(|reference| Knowledge::of([reference]).declares(option))
            })
            .map(String::as_str)
            .collect();
        if unknown.is_empty() {
            format!(
                "unsure: no declaration of `{words}` takes these lines (`{}` declare other operands or values, and these may mean something else: a key set where a form reads one), so none lends its class",
                names.join("`, `")
            )
        } else {
            format!(
                "unsure: `{}` is not an option of `{}` (the catalog leaves out options that run code or write outside the project)",
                unknown.join("`, `"),
                names.join("`, `")
            )
        }
    };
    (
        CommandClass::DiscardsWork,
        format!("{why}; destructive until a person says otherwise (--class)"),
        true,
    )
}

/// Whether `declaration` takes a line of these `words` (those after the
/// program) itself: its form reads them (every option one it declares,
/// every operand in a position of its own) and the arguments so read pass
/// its contract (each required value there, each value within its checks,
/// which may be what keeps the form to reading). Only then does its class
/// say what the line does.
pub(crate) fn takes(declaration: &Declaration, words: &[&str]) -> bool {
    let candidates = match crate::exec::argv_grammar::Grammar::of(declaration) {
        Some(grammar) => match grammar
            .read(words)
            .and_then(|reading| grammar.arguments(&reading))
        {
            Ok(found) => found,
            Err(_) => return false,
        },
        None => crate::exec::argv_match::candidate_arguments(declaration, words),
    };
    candidates.into_iter().any(|candidate| {
        let text = Value::Object(candidate).to_string();
        crate::guard::check(declaration, &crate::guard::RawArguments::Json(&text)).is_ok()
    })
}

fn rank(class: CommandClass) -> u8 {
    match class {
        CommandClass::Reads => 0,
        CommandClass::ChangesProject => 1,
        CommandClass::RunsProjectCode => 2,
        CommandClass::DiscardsWork => 3,
    }
}

/// The danger level a class implies.
fn danger_of(class: CommandClass) -> DangerLevel {
    match class {
        CommandClass::Reads => DangerLevel::Safe,
        CommandClass::ChangesProject | CommandClass::RunsProjectCode => DangerLevel::Mutating,
        CommandClass::DiscardsWork => DangerLevel::Destructive,
    }
}

/// A name free in the registry, in the target directory and in this run.
fn free_name(
    base: &str,
    view: &View,
    target: Option<&Path>,
    taken: &mut BTreeSet<String>,
) -> Option<String> {
    let free = |name: &str| {
        !taken.contains(name)
            && view.registry.load(name).is_err()
            && target.is_none_or(|dir| {
                ["json", "yaml", "yml"].iter().all(|ext| {
                    std::fs::symlink_metadata(dir.join(format!("{name}.{ext}"))).is_err()
                })
            })
    };
    let stem: String = base.chars().take(100).collect();
    let stem = stem.trim_end_matches('-');
    let name = (1..1000)
        .map(|n| match n {
            1 => stem.to_owned(),
            2 => format!("{stem}-learned"),
            n => format!("{stem}-learned-{}", n - 1),
        })
        .find(|name| free(name))?;
    taken.insert(name.clone());
    Some(name)
}

/// One group as a declaration that passes the lint.
fn propose(
    group: &Group,
    view: &View,
    context: &LearnContext<'_>,
    options: &LearnOptions,
    taken: &mut BTreeSet<String>,
) -> Result<Proposal, String> {
    if let Some(problem) = crate::bridge::import::command_word_problem(&group.program) {
        return Err(format!("its program cannot be declared: {problem}"));
    }
    let mut words = group.path.clone();
    let mut option_words: Vec<String> = group
        .options
        .iter()
        .map(|o| infer::parameter_name(o))
        .collect();
    option_words.truncate(3);
    words.extend(option_words);
    let base = declaration_name(&group.program, &words);
    let name = free_name(&base, view, context.target, taken)
        .ok_or_else(|| format!("no free declaration name near `{base}`"))?;
    let (class, class_reason, unsure) = class_of(group, options);
    let mut left_out: BTreeSet<String> = BTreeSet::new();
    // Options the lint refuses to an agent (E127: "hardcode it") whose one
    // value every line used: written as literal words instead.
    let mut hardcoded: BTreeMap<String, (String, bool)> = BTreeMap::new();
    let mut notes = Vec::new();
    // Each round hardcodes or leaves out at least one option, and an
    // option is left out at most once after being hardcoded: this ends.
    for _ in 0..=2 * group.options.len() + 2 {
        let declaration = build(group, &name, class, &left_out, &hardcoded);
        let parsed = parse_value(
            &declaration,
            &Origin {
                file_stem: Some(&name),
                file: None,
            },
        );
        let errors: Vec<&Diagnostic> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
        if errors.is_empty()
            && let Some(parsed_declaration) = &parsed.declaration
        {
            let sessions: BTreeSet<String> = group
                .lines
                .iter()
                .flat_map(|line| line.sessions.iter().cloned())
                .collect();
            return Ok(Proposal {
                file_name: format!("{name}.json"),
                name,
                program: group.program.clone(),
                form: declared_form(parsed_declaration),
                class,
                class_reason,
                unsure,
                declaration,
                lint: parsed.diagnostics,
                count: 0,
                sessions: sessions.into_iter().collect(),
                covers: Vec::new(),
                still_refused: Vec::new(),
                notes,
            });
        }
        let mut dropped = false;
        for error in &errors {
            let Some(flag) = option_of_error(error, &declaration, group) else {
                continue;
            };
            if error.code == "E127"
                && !hardcoded.contains_key(&flag)
                && !left_out.contains(&flag)
                && let Some(fixed) = fixed_value(group, &flag)
            {
                notes.push(format!(
                    "`{flag} {}` written as fixed words: {} {}",
                    fixed.0, error.code, error.message
                ));
                hardcoded.insert(flag, fixed);
                dropped = true;
            } else if left_out.insert(flag.clone()) {
                hardcoded.remove(&flag);
                notes.push(format!(
                    "`{flag}` left out: {} {}",
                    error.code, error.message
                ));
                dropped = true;
            }
        }
        if !dropped {
            let reasons: Vec<String> = errors
                .iter()
                .map(|error| format!("{} {}", error.code, error.message))
                .collect();
            return Err(format!(
                "the declaration made from these lines does not pass `schema lint`: {}",
                reasons.join("; ")
            ));
        }
    }
    Err("the declaration made from these lines does not pass `schema lint`".to_owned())
}

/// The one value every line of `group` gave `flag` (each line once), and
/// whether it was joined to it (`--flag=value`).
fn fixed_value(group: &Group, flag: &str) -> Option<(String, bool)> {
    let mut fixed: Option<(String, bool)> = None;
    for reading in &group.readings {
        let mut uses = reading.options.iter().filter(|option| option.flag == flag);
        let used = uses.next()?;
        if uses.next().is_some() {
            return None;
        }
        let value = used.value.clone()?;
        match &fixed {
            None => fixed = Some((value, used.joined)),
            Some((seen, joined)) if *seen == value && *joined == used.joined => {}
            Some(_) => return None,
        }
    }
    fixed
}

/// The option a lint error is about, by the flag the lines use.
fn option_of_error(error: &Diagnostic, declaration: &Value, group: &Group) -> Option<String> {
    let field = error.field.as_deref()?;
    // A fixed word: the option it was written for.
    if let Some(Value::String(word)) = field
        .strip_prefix("subprocess.argv[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|index| index.parse::<usize>().ok())
        .and_then(|index| declaration["subprocess"]["argv"].get(index))
    {
        let argv = declaration["subprocess"]["argv"].as_array()?;
        let at = argv.iter().position(|slot| slot.as_str() == Some(word))?;
        return group
            .options
            .iter()
            .find(|option| {
                *word == **option
                    || word
                        .strip_prefix(option.as_str())
                        .is_some_and(|rest| rest.starts_with('='))
                    || (at > 0 && argv[at - 1].as_str() == Some(option.as_str()))
            })
            .cloned();
    }
    let param = if let Some(rest) = field.strip_prefix("parameters.") {
        rest.split('.').next().unwrap_or(rest).to_owned()
    } else {
        let index: usize = field
            .strip_prefix("subprocess.argv[")?
            .split(']')
            .next()?
            .parse()
            .ok()?;
        declaration["subprocess"]["argv"]
            .get(index)?
            .get("param")?
            .as_str()?
            .to_owned()
    };
    let argv = declaration["subprocess"]["argv"].as_array()?;
    let flag = argv
        .iter()
        .find(|slot| slot.get("param").and_then(Value::as_str) == Some(param.as_str()))?
        .get("flag")?
        .as_str()?;
    group.options.iter().find(|option| *option == flag).cloned()
}

/// The declaration for a group, without the options in `left_out`.
fn build(
    group: &Group,
    name: &str,
    class: CommandClass,
    left_out: &BTreeSet<String>,
    hardcoded: &BTreeMap<String, (String, bool)>,
) -> Value {
    let mut parameters = Map::new();
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut unique = |wanted: String| {
        let mut candidate = wanted.clone();
        let mut n = 2;
        while taken.contains(&candidate) {
            candidate = format!("{wanted}-{n}");
            n += 1;
        }
        taken.insert(candidate.clone());
        candidate
    };
    // A path seen after a `cd` cannot be held to a directory the hook
    // does not know: such a group's paths are listed as seen instead.
    let place = if group.lines.iter().any(|line| line.moved) {
        infer::Place::Unknown
    } else {
        infer::Place::Known(group.lines.iter().find_map(|line| line.cwd.as_deref()))
    };
    let option_slot = |flag: &str,
                       parameters: &mut Map<String, Value>,
                       unique: &mut dyn FnMut(String) -> String|
     -> Value {
        let uses: Vec<&infer::OptionUse> = group
            .readings
            .iter()
            .flat_map(|reading| reading.options.iter().filter(|option| option.flag == flag))
            .collect();
        let known = group.knowledge.option(flag);
        let param =
            unique(known.map_or_else(|| infer::parameter_name(flag), |known| known.param.clone()));
        let values: Vec<String> = uses.iter().filter_map(|used| used.value.clone()).collect();
        let repeated = group.readings.iter().any(|reading| {
            reading
                .options
                .iter()
                .filter(|option| option.flag == flag)
                .count()
                > 1
        });
        let mut fields = if values.is_empty() {
            let mut fields = Map::new();
            fields.insert("type".into(), json!("boolean"));
            fields
        } else {
            infer::value_check(&values, place, repeated)
        };
        // Every line of the group uses every option of its set: each is
        // required, so the declaration takes that set and no other.
        fields.insert("required".into(), json!(true));
        fields.insert(
            "description".into(),
            json!(format!("`{flag}`, as observed")),
        );
        parameters.insert(param.clone(), Value::Object(fields));
        let mut slot = json!({"param": param, "flag": flag});
        if let Some(known) = known {
            if !known.aliases.is_empty() {
                slot["aliases"] = json!(known.aliases);
            }
            if known.attached_only && !values.is_empty() {
                slot["attached_only"] = json!(true);
            }
        }
        if !values.is_empty() && uses.iter().all(|used| used.joined) {
            slot["form"] = json!("joined");
        }
        slot
    };
    let mut argv: Vec<Value> = Vec::new();
    // git's own options first, then the subcommand, then its options.
    let ordered: Vec<(&String, bool)> = {
        let mut seen: Vec<(&String, bool)> = Vec::new();
        for reading in &group.readings {
            for option in &reading.options {
                if !seen.iter().any(|(flag, _)| *flag == &option.flag) {
                    seen.push((&option.flag, option.global));
                }
            }
        }
        seen
    };
    let mut slot_of = |flag: &String, argv: &mut Vec<Value>| {
        if left_out.contains(flag) {
            return;
        }
        match hardcoded.get(flag) {
            Some((value, true)) => argv.push(json!(format!("{flag}={value}"))),
            Some((value, false)) => argv.extend([json!(flag), json!(value)]),
            None => argv.push(option_slot(flag, &mut parameters, &mut unique)),
        }
    };
    for (flag, _) in ordered.iter().filter(|(_, global)| *global) {
        slot_of(flag, &mut argv);
    }
    argv.extend(group.path.iter().map(|word| json!(word)));
    for (flag, _) in ordered.iter().filter(|(_, global)| !*global) {
        slot_of(flag, &mut argv);
    }
    let mut operands = |values: Vec<&Vec<String>>, one: &str, many: &str, argv: &mut Vec<Value>| {
        let most = values.iter().map(|words| words.len()).max().unwrap_or(0);
        if most == 0 {
            return;
        }
        let least = values.iter().map(|words| words.len()).min().unwrap_or(0);
        let all: Vec<String> = values
            .iter()
            .flat_map(|words| words.iter().cloned())
            .collect();
        let (param, mut fields) = if most == 1 {
            (
                unique(one.to_owned()),
                infer::value_check(&all, place, false),
            )
        } else {
            (
                unique(many.to_owned()),
                infer::value_check(&all, place, true),
            )
        };
        fields.insert("required".into(), json!(least > 0));
        fields.insert("description".into(), json!("The operands, as observed"));
        parameters.insert(param.clone(), Value::Object(fields));
        argv.push(json!({"param": param}));
    };
    operands(
        group
            .readings
            .iter()
            .map(|reading| &reading.operands)
            .collect(),
        "operand",
        "operands",
        &mut argv,
    );
    if group
        .readings
        .iter()
        .any(|reading| !reading.after_end.is_empty())
    {
        argv.push(json!("--"));
        operands(
            group
                .readings
                .iter()
                .map(|reading| &reading.after_end)
                .collect(),
            "path",
            "paths",
            &mut argv,
        );
    }
    let line = std::iter::once(group.program.as_str())
        .chain(group.path.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let mut declaration = json!({
        "name": name,
        "description": format!("`{line}` in the forms the hook saw (learned by `aigent hook learn`)"),
        "danger_level": danger_of(class).as_str(),
        "class": class.as_str(),
        "parameters": parameters,
        "subprocess": {"binary": group.program, "argv": argv},
    });
    classify(&mut declaration, class);
    if group.syntax == Syntax::Exact {
        declaration["subprocess"]["syntax"] = json!("exact");
    }
    declaration
}

/// Sets a declaration's class, the danger level it implies, and the
/// sandbox `aigent run` would confine it to: the default one, said out
/// loud for the person to widen (the lint asks a destructive or
/// code-running declaration to say it), none for the other classes. The
/// project's own code writes the project (the hook routes it from any
/// directory of it, and a build writes its root: `target/`, a workspace's
/// `node_modules`), as the catalog's declarations of that class do; a
/// command that discards work writes where it runs.
fn classify(declaration: &mut Value, class: CommandClass) {
    declaration["class"] = json!(class.as_str());
    declaration["danger_level"] = json!(danger_of(class).as_str());
    let Some(fields) = declaration.as_object_mut() else {
        return;
    };
    let writes = match class {
        CommandClass::RunsProjectCode => "$PROJECT",
        CommandClass::DiscardsWork => "$CWD",
        CommandClass::Reads | CommandClass::ChangesProject => {
            fields.remove("sandbox");
            return;
        }
    };
    fields.insert(
        "sandbox".into(),
        json!({"write": [writes, "$TMP"], "network": "none"}),
    );
}

impl Proposal {
    /// The class a person chose in review: the danger level and sandbox
    /// follow, and the declaration is linted again. On a lint error the
    /// proposal stays as it was and the error says why.
    pub fn reclassify(&mut self, class: CommandClass) -> Result<(), String> {
        let mut declaration = self.declaration.clone();
        classify(&mut declaration, class);
        let parsed = parse_value(
            &declaration,
            &Origin {
                file_stem: Some(&self.name),
                file: None,
            },
        );
        let errors: Vec<String> = parsed
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|error| format!("{} {}", error.code, error.message))
            .collect();
        let Some(parsed_declaration) = parsed.declaration.filter(|_| errors.is_empty()) else {
            return Err(format!(
                "class {} does not pass `schema lint`: {}",
                class.as_str(),
                errors.join("; ")
            ));
        };
        self.form = declared_form(&parsed_declaration);
        self.declaration = declaration;
        self.lint = parsed.diagnostics;
        self.class = class;
        self.unsure = false;
        self.class_reason = "set in review".to_owned();
        Ok(())
    }
}

/// Each candidate held against the lines it came from: the hook's
/// judgement, with every candidate in a registry of its own above the
/// catalog, must match the line to the candidate. A candidate that takes
/// none of its lines is dropped, its lines listed as not learnable.
fn prove(
    candidates: Vec<(Proposal, Vec<Learnable>)>,
    context: &LearnContext<'_>,
    not_learnable: &mut Vec<NotLearnable>,
) -> Result<Vec<Proposal>, LearnError> {
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let scratch = tempfile::tempdir().map_err(LearnError::Scratch)?;
    for (proposal, _) in &candidates {
        let text = serde_json::to_string_pretty(&proposal.declaration)
            .map_err(|error| LearnError::Scratch(std::io::Error::other(error)))?;
        std::fs::write(scratch.path().join(&proposal.file_name), text)
            .map_err(LearnError::Scratch)?;
    }
    let layers = Layers::discover(&Discovery {
        given: Some(scratch.path().to_path_buf()),
        ..Discovery::default()
    });
    let registry = Registry::Layered(std::sync::Arc::new(layers));
    let index = registry
        .program_index(None)
        .map_err(|error| LearnError::Registry(error.to_string()))?;
    let settings = HookSettings::default();
    let mut proven = Vec::new();
    for (mut proposal, lines) in candidates {
        for line in lines {
            let judge_context = Context {
                registry: &registry,
                index: &index,
                settings: &settings,
                which: context.which,
                // After a `cd` the hook knows no one directory: judged so.
                cwd: if line.moved {
                    None
                } else {
                    line.cwd.as_deref()
                },
                aigent: None,
                home: None,
            };
            let judgement = judge(&crate::shell::quote(&line.words), &judge_context);
            let through = judgement.segments.iter().all(|segment| {
                segment.declaration.as_deref() == Some(proposal.name.as_str())
                    && matches!(
                        segment.rule,
                        "declared" | "destructive" | "runs_project_code"
                    )
            });
            if through {
                proposal.count += line.count;
                if proposal.covers.len() < MAX_LINES_SHOWN {
                    proposal.covers.push(line.line);
                }
            } else {
                let first = judgement
                    .segments
                    .iter()
                    .find(|segment| segment.verdict != Verdict::Allow)
                    .or(judgement.segments.first());
                if proposal.still_refused.len() < MAX_LINES_SHOWN {
                    proposal.still_refused.push(Refused {
                        line: line.line.clone(),
                        rule: first.map_or("unmatched", |segment| segment.rule).to_owned(),
                        message: first
                            .map(|segment| segment.message.clone())
                            .unwrap_or_default(),
                    });
                }
            }
        }
        if proposal.covers.is_empty() {
            let left_out = if proposal.notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", proposal.notes.join("; "))
            };
            for refused in proposal.still_refused {
                not_learnable.push(NotLearnable {
                    line: refused.line,
                    rule: refused.rule,
                    reason: format!(
                        "no declaration made from the lines seen takes it{left_out}: {}",
                        refused.message
                    ),
                    count: 1,
                });
            }
            continue;
        }
        proven.push(proposal);
    }
    Ok(proven)
}

/// Saves `proposals` into `directory` (see `bridge::import::write`: every
/// target checked first, each file written atomically, none replaced
/// without `force`).
pub fn write(
    directory: &Path,
    proposals: &[Proposal],
    force: bool,
) -> Result<Vec<Written>, WriteError> {
    let imported: Vec<Imported> = proposals
        .iter()
        .map(|proposal| Imported {
            name: proposal.name.clone(),
            file_name: proposal.file_name.clone(),
            command: proposal.form.clone(),
            declaration: proposal.declaration.clone(),
            lint: proposal.lint.clone(),
            unmapped: proposal.notes.clone(),
        })
        .collect();
    crate::bridge::import::write::write(directory, &imported, force)
}

#[cfg(test)]
mod tests;
