//! A segment against the declarations of its program: the template run in
//! reverse, Phase 1 on the recovered arguments, and the reasons given when
//! nothing matches.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::{Map, Value};

use super::{AigentSelf, Context, LineState, Segment, cut, git_dir, paths};
use crate::contract::programs::code_words::proposed_command_problems;
use crate::contract::programs::spelling;
use crate::contract::{
    ArgvPart, CommandClass, Declaration, FlagForm, Inputs, ParamType, is_language,
    runs_another_program,
};
use crate::exec::Argv;
use crate::exec::argv_grammar::{Grammar, Misfit, Reading};
use crate::exec::argv_match::candidate_arguments;
use crate::fsutil::remembered;
use crate::guard::{self, RawArguments, Rejection};
use crate::hook::verdict::Verdict;
use crate::registry::{UnmatchedPolicy, program_key};
use crate::shell::{quote, quote_word};

pub(super) enum Matched {
    Allowed {
        segment: Segment,
        route: Option<Vec<String>>,
        /// The declaration matched, and the arguments read back from the
        /// line (for the checks of what the shell adds: its redirections).
        declaration: Rc<Declaration>,
        arguments: Map<String, Value>,
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
        remembered::canonicalize(&path).ok().or(Some(path))
    };
    // A relative path (`./git`) names whatever is in the directory the
    // agent is in, never the declared program.
    if proposed.contains('/') && !Path::new(proposed).is_absolute() {
        return false;
    }
    matches!((resolve(binary), resolve(proposed)), (Some(a), Some(b)) if a == b)
}

/// The most lenient passing match so far: its segment, route, declaration
/// and the arguments read back.
type Best = (
    Segment,
    Option<Vec<String>>,
    Rc<Declaration>,
    Map<String, Value>,
);

pub(super) fn match_declarations(
    program: &str,
    argv: &[&str],
    context: &Context<'_>,
    state: &LineState,
) -> Matched {
    if let Some(segment) = catastrophic(program, argv) {
        return Matched::Refused(segment);
    }
    let key = program_key(program);
    // The line in its program's one spelling of the command (`npm t` is
    // `npm test`), which means what the line means.
    let canonical = spelling::canonical(key, &argv[1..]);
    let canonical_argv: Vec<&str>;
    let argv = match &canonical {
        Some(words) => {
            canonical_argv = argv[..1]
                .iter()
                .copied()
                .chain(words.iter().map(String::as_str))
                .collect();
            canonical_argv.as_slice()
        }
        None => argv,
    };
    // The declarations whose key word the line has come first; the rest
    // are read only when none of those took the line, to name the closest.
    let likely = context.index.commands_for_words(key, argv);
    let rest = context
        .index
        .commands_for(key)
        .into_iter()
        .filter(|name| !likely.contains(name));
    let names = likely
        .iter()
        .copied()
        .map(Some)
        .chain([None])
        .chain(rest.map(Some));
    let cwd = state.working_directory(context);
    // Working in the home directory (or above it) is working in no
    // project: a write there changes the user's own files.
    let home = context.home;
    let project = context
        .cwd
        .map(super::directory::project_of)
        .filter(|project| !paths::is_home_or_above(&project.to_string_lossy(), None, home));
    let mut allowed: Option<Best> = None;
    let mut refusal: Option<Segment> = None;
    // The literal words of the refusing form that the line has.
    let mut refusal_literals = 0;
    let mut closest: Option<(Closeness, Rc<Declaration>)> = None;
    let mut invalid: Option<(String, String)> = None;
    let mut declared = Vec::new();
    for name in names {
        let Some(name) = name else {
            if allowed.is_some() || refusal.is_some() {
                break;
            }
            continue;
        };
        let declaration = match state.load_checked(name, context.registry) {
            Ok(declaration) => declaration,
            Err(why) => {
                invalid.get_or_insert_with(|| (name.to_owned(), why));
                continue;
            }
        };
        let Some(subprocess) = &declaration.subprocess else {
            continue;
        };
        if !same_program(&subprocess.binary, program, context) {
            declared.push(name.to_owned());
            continue;
        }
        match match_one(&declaration, argv, context, state, project.as_deref()) {
            One::Allowed {
                segment,
                route,
                arguments,
            } => {
                // The most lenient match wins: `rm-files` allows what the
                // wider `rm` asks about.
                if allowed
                    .as_ref()
                    .is_none_or(|(best, ..)| segment.verdict < best.verdict)
                {
                    allowed = Some((segment, route, Rc::clone(&declaration), arguments));
                }
            }
            One::Refused(segment) => {
                if refusal.is_none() {
                    refusal_literals = exact_closeness(&declaration, argv).literals;
                    refusal = Some(segment);
                }
            }
            One::NoShape(closeness) => {
                if closest
                    .as_ref()
                    .is_none_or(|(best, _)| closeness.rank() > best.rank())
                {
                    closest = Some((closeness, Rc::clone(&declaration)));
                }
            }
        }
    }
    if let Some((segment, route, declaration, arguments)) = allowed {
        // Anywhere inside the project is the same repository.
        let repository = cwd.or(context.cwd.filter(|_| state.outside_project().is_none()));
        if let Some(asked) = runs_git_hooks(key, &declaration, &segment, repository, context.home) {
            return Matched::Refused(asked);
        }
        if let Some(asked) = runs_configured_program(key, &segment, repository, context, state) {
            return Matched::Refused(asked);
        }
        if let Some(asked) = removes_the_project(
            key,
            &arguments,
            &segment,
            cwd,
            project.as_deref().or(context.cwd),
        ) {
            return Matched::Refused(asked);
        }
        return Matched::Allowed {
            segment,
            route,
            declaration,
            arguments,
        };
    }
    // A wider form's bad value (`python -m MODULE` refusing `pytest`) does
    // not speak for a line that a narrower form nearly takes (`python -m
    // pytest` with an option it does not declare): that one is named.
    // So does a form for the temporary directory (`mkdir-temp`), whose
    // values are refused for lying elsewhere, where the program's own form
    // (`mkdir`) nearly takes the line.
    let variant_refused = refusal
        .as_ref()
        .and_then(|segment| segment.declaration.as_deref())
        .is_some_and(|name| name != key && name.ends_with("-temp"));
    let nearer = closest.as_ref().is_some_and(|(closeness, declaration)| {
        closeness.literals > refusal_literals
            || (closeness.literals == refusal_literals
                && declaration.name == key
                && variant_refused)
    });
    if let Some(segment) = refusal.filter(|_| !nearer) {
        if let Some(read) = read_beyond(program, argv, context, state, cwd) {
            return read;
        }
        // Say what runs, rather than which pattern a value missed.
        let segment = runs_other_code(program, argv, &segment.shown).unwrap_or(segment);
        return Matched::Refused(segment);
    }
    if let Some((name, why)) = invalid {
        let mut segment = Segment::new(
            quote(argv),
            Verdict::Deny,
            "invalid_declaration",
            format!(
                "`{}` is declared as `{name}`, but that declaration is invalid ({}); fix it (`aigent schema lint`)",
                cut(program),
                cut(&why)
            ),
        );
        segment.declaration = Some(name);
        return Matched::Refused(segment);
    }
    if let Some((closeness, declaration)) = closest {
        // An undeclared form that runs code is not the person's to allow
        // on a hint about forms (`find -exec`, `python3 -c`).
        if let Some(refusal) = runs_other_code(program, argv, &quote(argv)) {
            return Matched::Refused(refusal);
        }
        let mut segment = Segment::new(
            quote(argv),
            Verdict::Ask,
            "not_declared_form",
            format!(
                "no declared form of `{}` takes these arguments{}; the closest is `{}`: `{}`; the person decides",
                cut(program),
                closeness.why(declaration.has_sensitive_input()),
                declaration.name,
                cut(&declared_form(&declaration))
            ),
        );
        segment.declaration = Some(declaration.name.clone());
        return Matched::Refused(segment);
    }
    Matched::Nothing { declared }
}

/// A command refused for a `..` in a path, matched again with each such
/// word as the absolute path it names: a catalog form that only reads may
/// read there, as it may read any absolute path (secrets aside, checked on
/// the path named). Forms that change files stay refused, since a `..` is
/// how a write leaves the project, and so do the forms a project or user
/// declared: a `filepath` there refuses `..` as its author wrote it.
fn read_beyond(
    program: &str,
    argv: &[&str],
    context: &Context<'_>,
    state: &LineState,
    cwd: Option<&Path>,
) -> Option<Matched> {
    let climbed: Vec<Option<String>> = argv
        .iter()
        .enumerate()
        .map(|(at, word)| {
            (at > 0 && !word.starts_with('-') && has_parent_segment(word))
                .then(|| super::directory::lexical(&cwd.unwrap_or(Path::new("/")).join(word)))
                .map(|path| path.to_string_lossy().into_owned())
        })
        .collect();
    if climbed.iter().all(Option::is_none) {
        return None;
    }
    let words: Vec<&str> = argv
        .iter()
        .zip(&climbed)
        .map(|(word, climbed)| climbed.as_deref().unwrap_or(word))
        .collect();
    match match_declarations(program, &words, context, state) {
        Matched::Allowed {
            mut segment,
            declaration,
            arguments,
            ..
        } if declaration.class() == CommandClass::Reads
            && segment.verdict == Verdict::Allow
            && state.is_catalog(&declaration.name) =>
        {
            if !segment.redacted {
                segment.shown = quote(argv);
            }
            Some(Matched::Allowed {
                segment,
                // The words run are the ones written.
                route: None,
                declaration,
                arguments,
            })
        }
        // What it names looks secret: asked, as the same read would be.
        Matched::Refused(segment) if segment.rule == paths::SECRET_RULE => {
            Some(Matched::Refused(Segment {
                shown: quote(argv),
                ..segment
            }))
        }
        _ => None,
    }
}

fn has_parent_segment(word: &str) -> bool {
    Path::new(word)
        .components()
        .any(|component| component == std::path::Component::ParentDir)
}

/// The catalog's catastrophic forms (`catalog/deny/`) for programs named
/// `key`, each parsed the first time a line runs its program: parsing all
/// of them (their patterns compiled) cost every hook call time.
fn catastrophic_forms(key: &str) -> impl Iterator<Item = &'static Declaration> + '_ {
    use std::sync::OnceLock;
    static FORMS: OnceLock<Vec<OnceLock<Option<Declaration>>>> = OnceLock::new();
    let forms = FORMS.get_or_init(|| {
        crate::registry::CATALOG_DENY
            .iter()
            .map(|_| OnceLock::new())
            .collect()
    });
    crate::registry::CATALOG_DENY
        .iter()
        .zip(forms)
        .filter(move |((_, _, program, _), _)| program_key(program) == key)
        .filter_map(|((file_name, text, ..), form)| {
            form.get_or_init(|| {
                let name = file_name.strip_suffix(".json")?;
                let origin = crate::contract::Origin {
                    file_stem: Some(name),
                    file: None,
                };
                crate::registry::parse_catalog_declaration(text, &origin).declaration
            })
            .as_ref()
        })
}

/// A deny when the line is one of the catastrophic forms the catalog
/// refuses whatever the layers declare (`rm -rf /`, `mkfs`, `dd of=/dev/sda`).
/// Any program of that name counts: refusing more is the safe side.
fn catastrophic(program: &str, argv: &[&str]) -> Option<Segment> {
    let key = program_key(program);
    for form in catastrophic_forms(key) {
        let Some(subprocess) = &form.subprocess else {
            continue;
        };
        if program_key(&subprocess.binary) != key {
            continue;
        }
        let Ok((found, _)) = candidates(form, argv) else {
            continue;
        };
        let passes = found.iter().any(|candidate| {
            let text = Value::Object(candidate.clone()).to_string();
            guard::check(form, &RawArguments::Json(&text)).is_ok()
        });
        if passes {
            let mut segment = Segment::new(
                quote(argv),
                Verdict::Deny,
                "catastrophic",
                format!(
                    "{} (`{}` in aigent's catalog); no layer can allow it",
                    form.description, form.name
                ),
            );
            segment.declaration = Some(form.name.clone());
            return Some(segment);
        }
    }
    None
}

/// How near a line came to a declared form, to name the closest one: the
/// subcommand words it matched first, then the options it knew, then the
/// fewest it did not.
#[derive(Debug, Clone)]
pub(super) struct Closeness {
    literals: usize,
    known: usize,
    unknown: std::cmp::Reverse<usize>,
    /// What did not fit, for the message.
    misfit: Option<Misfit>,
}

impl Closeness {
    fn rank(&self) -> (usize, usize, std::cmp::Reverse<usize>) {
        (self.literals, self.known, self.unknown)
    }

    /// Why the line did not fit, naming options by name only: a value
    /// (`--token=...`) is never shown, and nothing is named when the
    /// declaration has a sensitive parameter.
    fn why(&self, sensitive: bool) -> String {
        let names = |words: &[String]| -> String {
            let shown: Vec<String> = words
                .iter()
                .take(3)
                .map(|word| {
                    let name = word.split('=').next().unwrap_or_default();
                    format!("`{}`", name.chars().take(40).collect::<String>())
                })
                .collect();
            shown.join(", ")
        };
        match &self.misfit {
            Some(Misfit::Unknown(_) | Misfit::Malformed(_)) if sensitive => {
                " (an option it does not declare, or one spelt otherwise)".to_owned()
            }
            Some(Misfit::Unknown(words)) => {
                format!(" (no declared form takes {})", names(words))
            }
            Some(Misfit::Malformed(words)) => format!(
                " ({} without the value it needs, or spelt so the program would read it otherwise)",
                names(words)
            ),
            Some(Misfit::Options(why)) => format!(" ({})", cut(why)),
            Some(Misfit::Operands) => " (its operands do not fit)".to_owned(),
            Some(Misfit::TooLong) => " (too many words)".to_owned(),
            None => String::new(),
        }
    }
}

enum One {
    Allowed {
        segment: Segment,
        route: Option<Vec<String>>,
        arguments: Map<String, Value>,
    },
    Refused(Segment),
    NoShape(Closeness),
}

/// Candidate arguments, and the grammar's reading of the line.
type Candidates<'d> = (Vec<Map<String, Value>>, Option<(Grammar<'d>, Reading)>);

/// The candidate arguments for `argv` under `declaration`, and the
/// grammar's reading of the line when the declaration has a grammar.
fn candidates<'d>(
    declaration: &'d Declaration,
    argv: &[&str],
) -> Result<Candidates<'d>, Closeness> {
    let Some(grammar) = Grammar::of(declaration) else {
        let found = candidate_arguments(declaration, &argv[1..]);
        if found.is_empty() {
            return Err(exact_closeness(declaration, argv));
        }
        return Ok((found, None));
    };
    let reading = grammar.read(&argv[1..]).map_err(|misfit| Closeness {
        literals: 0,
        known: 0,
        unknown: std::cmp::Reverse(usize::MAX),
        misfit: Some(misfit),
    })?;
    match grammar.arguments(&reading) {
        Ok(found) => Ok((found, Some((grammar, reading)))),
        Err(misfit) => Err(Closeness {
            literals: reading.literals,
            known: reading.known_options(),
            unknown: std::cmp::Reverse(reading.unknown.len()),
            misfit: Some(misfit),
        }),
    }
}

/// How near a line comes to a form matched as written: the template's
/// literal words it has.
fn exact_closeness(declaration: &Declaration, argv: &[&str]) -> Closeness {
    let literals = declaration.subprocess.as_ref().map_or(0, |subprocess| {
        subprocess
            .argv
            .iter()
            .filter_map(|part| match part {
                ArgvPart::Literal(word) => Some(word.as_str()),
                ArgvPart::Param(_) => None,
            })
            .filter(|word| argv[1..].contains(word))
            .count()
    });
    Closeness {
        literals,
        known: 0,
        unknown: std::cmp::Reverse(0),
        misfit: Some(Misfit::Operands),
    }
}

fn match_one(
    declaration: &Declaration,
    argv: &[&str],
    context: &Context<'_>,
    state: &LineState,
    project: Option<&Path>,
) -> One {
    let aigent = context.aigent;
    let cwd = state.working_directory(context);
    // A project's form read with the other names the catalog knows for its
    // options (`--max-count` for `git log -n`), when its own do not fit.
    let known_names;
    let projects = !state.is_catalog(&declaration.name);
    let (declaration, (candidates, grammar)) = match candidates(declaration, argv) {
        Ok(found) => (declaration, found),
        Err(closeness) => {
            known_names = projects
                .then(|| with_catalog_aliases(declaration))
                .flatten();
            let widened = known_names
                .as_ref()
                .map(|widened| (widened, candidates(widened, argv)));
            match widened {
                Some((widened, Ok(found))) => (widened, found),
                _ => {
                    // The line with the template's own names for the
                    // switches it passes as literal words, read again.
                    let Some(rewritten) = projects
                        .then(|| with_literal_names(declaration, argv))
                        .flatten()
                    else {
                        return One::NoShape(closeness);
                    };
                    let rewritten: Vec<&str> = rewritten.iter().map(String::as_str).collect();
                    return match match_one(declaration, &rewritten, context, state, project) {
                        One::NoShape(_) => One::NoShape(closeness),
                        other => other,
                    };
                }
            }
        }
    };
    let mut refusal: Option<Segment> = None;
    for candidate in &candidates {
        let text = Value::Object(candidate.clone()).to_string();
        let validated = match guard::check(declaration, &RawArguments::Json(&text)) {
            Ok(validated) => validated,
            // Only a value left out (`git status | cat` against a `cat`
            // that requires a file): a form not declared, not a bad value.
            Err(rejection)
                if rejection
                    .violations
                    .iter()
                    .all(|violation| violation.rule == guard::Rule::Required) =>
            {
                continue;
            }
            Err(rejection) => {
                refusal
                    .get_or_insert_with(|| phase1_refusal(declaration, argv, &rejection, aigent));
                continue;
            }
        };
        // Confined paths (`under`, `must_exist`) are checked against the
        // file system from the agent's directory, as `aigent run` does;
        // after a `cd` in the line, from each directory the command may
        // run in, when they all exist (whether that is the project is
        // the outside-project rule's to say).
        let needs_directory = validated.arguments.iter().any(|argument| {
            declaration
                .confinement(&argument.name)
                .is_some_and(|confinement| confinement.needs_file_system())
        });
        if needs_directory {
            let directories: Vec<&Path> = match cwd {
                Some(cwd) => vec![cwd],
                None => state
                    .place()
                    .and_then(|place| place.candidates.as_ref())
                    .filter(|all| all.iter().all(|(_, exists)| *exists))
                    .map(|all| {
                        all.iter()
                            .map(|(directory, _)| directory.as_path())
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            let confined = match directories.split_first() {
                Some((first, rest)) => rest
                    .iter()
                    .map(|directory| guard::confine(declaration, &validated, directory))
                    .find(Result::is_err)
                    .unwrap_or_else(|| guard::confine(declaration, &validated, first)),
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
        let built_words: Vec<&str> = built.words()[1..].iter().map(String::as_str).collect();
        let same = match &grammar {
            // The line and what `run` would write mean the same to the
            // program: the same options and values in any order and
            // spelling, the same operands in order.
            Some((grammar, reading)) => grammar
                .read(&built_words)
                .is_ok_and(|written| written.same_meaning(reading)),
            None => built_words == argv[1..],
        };
        if !same {
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
        let names_only = argv
            .first()
            .is_some_and(|program| super::inert::prints_names_only(program));
        if !names_only
            && let Some(secret) =
                path_values(declaration, &validated).find(|path| state.may_name_secret(path))
        {
            let mut segment = Segment::new(
                quote(&redacted_words),
                Verdict::Ask,
                paths::SECRET_RULE,
                paths::secret_message(secret),
            );
            segment.declaration = Some(declaration.name.clone());
            refusal = Some(segment);
            continue;
        }
        let home = context.home;
        if declaration.class() != CommandClass::Reads
            && let Some(target) = path_values(declaration, &validated)
                .find(|value| state.may_be_home_or_above(value, context))
        {
            let mut segment = Segment::new(
                quote(&redacted_words),
                Verdict::Deny,
                "catastrophic",
                paths::home_message(target),
            );
            segment.declaration = Some(declaration.name.clone());
            refusal = Some(segment);
            continue;
        }
        if declaration.class() != CommandClass::Reads
            && let Some(target) = path_values(declaration, &validated)
                .find(|value| paths::in_home_outside(value, cwd, home, project))
        {
            let mut segment = Segment::new(
                quote(&redacted_words),
                Verdict::Ask,
                "outside_project",
                format!(
                    "`{}` is in the home directory, outside the project: the person decides",
                    cut(target)
                ),
            );
            segment.declaration = Some(declaration.name.clone());
            refusal = Some(segment);
            continue;
        }
        if declaration.class() != CommandClass::Reads
            && let Some(target) = path_values(declaration, &validated)
                .find(|value| git_dir::writes_into_git_dir(value, cwd))
        {
            let mut segment = Segment::new(
                quote(&redacted_words),
                Verdict::Ask,
                git_dir::RULE,
                git_dir::message(target),
            );
            segment.declaration = Some(declaration.name.clone());
            // This reading fits the form; another's refusal says less.
            refusal = Some(segment);
            continue;
        }
        let switches_branch = state.is_catalog(&declaration.name)
            && declaration.name == "git-checkout"
            && cwd.is_some_and(|cwd| checks_out_a_branch(&validated, cwd));
        let (verdict, rule, message) = match declaration.class() {
            CommandClass::DiscardsWork if switches_branch => (
                Verdict::Allow,
                "declared",
                format!(
                    "matches `{}`, and names a branch of this repository and no file: it switches branches, keeping the changes in the work tree",
                    declaration.name
                ),
            ),
            CommandClass::DiscardsWork => (
                Verdict::Ask,
                "destructive",
                format!(
                    "matches `{}`, which discards work or touches shared state: the person decides",
                    declaration.name
                ),
            ),
            CommandClass::RunsProjectCode => (
                Verdict::Allow,
                "runs_project_code",
                format!(
                    "matches `{}`, which runs the project's own code: it runs in aigent's sandbox",
                    declaration.name
                ),
            ),
            CommandClass::Reads | CommandClass::ChangesProject => (
                Verdict::Allow,
                "declared",
                format!("matches `{}` and passes its contract", declaration.name),
            ),
        };
        let mut segment = Segment::new(quote(argv), verdict, rule, message);
        if redacted {
            segment.shown = quote(&redacted_words);
        }
        segment.declaration = Some(declaration.name.clone());
        segment.redacted = redacted;
        segment.confine = declaration.class() == CommandClass::RunsProjectCode;
        let route = route_words(declaration, candidate);
        return One::Allowed {
            segment,
            route,
            arguments: candidate.clone(),
        };
    }
    refusal.map_or(
        One::NoShape(Closeness {
            literals: 0,
            known: 0,
            unknown: std::cmp::Reverse(0),
            misfit: None,
        }),
        One::Refused,
    )
}

/// `declaration` with, for each option, the other names the catalog's
/// forms of the same program and subcommand give it (an option of the same
/// kind, valued or not, under one of the names this one has); `None` when
/// that adds nothing. Names another option of `declaration` has stay its.
fn with_catalog_aliases(declaration: &Declaration) -> Option<Declaration> {
    let subprocess = declaration.subprocess.as_ref()?;
    let own_words = subcommand_words(&subprocess.argv);
    let valued = |declaration: &Declaration, param: &str| {
        declaration
            .parameter(param)
            .is_some_and(|parameter| parameter.kind != ParamType::Boolean)
    };
    let mut taken: std::collections::HashSet<String> = subprocess
        .argv
        .iter()
        .filter_map(ArgvPart::slot)
        .flat_map(|slot| slot.flag.iter().chain(&slot.aliases).cloned())
        .collect();
    let catalog = crate::registry::catalog_declarations_of(
        program_key(&subprocess.binary),
        own_words.first().copied().unwrap_or(""),
    );
    let mut widened = declaration.clone();
    let mut added = false;
    let widened_subprocess = widened.subprocess.as_mut()?;
    for part in &mut widened_subprocess.argv {
        let ArgvPart::Param(slot) = part else {
            continue;
        };
        let Some(flag) = slot.flag.clone() else {
            continue;
        };
        let kind = valued(declaration, &slot.param);
        for known in catalog.iter() {
            let Some(known_subprocess) = &known.subprocess else {
                continue;
            };
            if subcommand_words(&known_subprocess.argv) != own_words {
                continue;
            }
            for known_slot in known_subprocess.argv.iter().filter_map(ArgvPart::slot) {
                let names: Vec<&String> =
                    known_slot.flag.iter().chain(&known_slot.aliases).collect();
                if !names.iter().any(|name| **name == flag)
                    || valued(known, &known_slot.param) != kind
                    || known_slot.attached_only != slot.attached_only
                {
                    continue;
                }
                for name in names {
                    if taken.insert(name.clone()) {
                        slot.aliases.push(name.clone());
                        added = true;
                    }
                }
            }
        }
    }
    added.then_some(widened)
}

/// A template's literal words that are not options (its subcommand, and
/// any literal operand): what makes two forms the same command.
fn subcommand_words(parts: &[ArgvPart]) -> Vec<&str> {
    parts
        .iter()
        .filter_map(|part| match part {
            ArgvPart::Literal(word) if !word.starts_with('-') => Some(word.as_str()),
            _ => None,
        })
        .collect()
}

/// `argv` with each option word that the catalog's forms of the same
/// program and subcommand know as another name of a switch `declaration`
/// passes as a literal word (`--parents` for a template's `-p`,
/// `--recursive` for the `r` of `-rn`) written the template's way; `None`
/// when there is none. A word is rewritten only where the form reads it
/// as an option it does not know, so a value that reads `--parents` keeps
/// its meaning.
fn with_literal_names(declaration: &Declaration, argv: &[&str]) -> Option<Vec<String>> {
    let subprocess = declaration.subprocess.as_ref()?;
    let mut literal_names: Vec<String> = Vec::new();
    let mut subcommand: Vec<&str> = Vec::new();
    for part in &subprocess.argv {
        let ArgvPart::Literal(word) = part else {
            continue;
        };
        if word == "--" {
            break;
        }
        if word.starts_with("--") && !word.contains('=') {
            literal_names.push(word.clone());
        } else if let Some(letters) = word.strip_prefix('-') {
            if letters.bytes().all(|letter| letter.is_ascii_alphabetic()) {
                literal_names.extend(letters.chars().map(|letter| format!("-{letter}")));
            }
        } else {
            subcommand.push(word);
        }
    }
    let catalog = crate::registry::catalog_declarations_of(
        program_key(&subprocess.binary),
        subcommand.first().copied().unwrap_or(""),
    );
    let mut renamed: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for known in catalog.iter() {
        let Some(known_subprocess) = &known.subprocess else {
            continue;
        };
        if subcommand_words(&known_subprocess.argv) != subcommand {
            continue;
        }
        for slot in known_subprocess.argv.iter().filter_map(ArgvPart::slot) {
            if known
                .parameter(&slot.param)
                .is_none_or(|parameter| parameter.kind != ParamType::Boolean)
            {
                continue;
            }
            let names: Vec<&str> = slot
                .flag
                .iter()
                .chain(&slot.aliases)
                .map(String::as_str)
                .collect();
            let mut hits = names
                .iter()
                .filter(|name| literal_names.iter().any(|literal| literal == *name));
            let (Some(hit), None) = (hits.next(), hits.next()) else {
                continue;
            };
            let hit = literal_names.iter().find(|literal| literal == hit)?;
            for name in names {
                if !literal_names.iter().any(|literal| literal == name) {
                    renamed.entry(name).or_insert(hit.as_str());
                }
            }
        }
    }
    if renamed.is_empty() {
        return None;
    }
    let reading = Grammar::of(declaration)?.read(&argv[1..]).ok()?;
    let before_end = argv[1..].iter().take_while(|word| **word != "--");
    let mut rewritten: Vec<String> = argv.iter().map(|word| (*word).to_owned()).collect();
    let mut changed = false;
    for (at, word) in before_end.enumerate() {
        let Some(literal) = renamed.get(word) else {
            continue;
        };
        let written = argv[1..].iter().filter(|other| *other == word).count();
        let unknown = reading
            .unknown
            .iter()
            .filter(|other| *other == word)
            .count();
        if written != unknown {
            return None;
        }
        rewritten[at + 1] = (*literal).to_owned();
        changed = true;
    }
    changed.then_some(rewritten)
}

/// An allowed git subcommand that would run the repository's hooks, asked
/// instead (see [`git_dir`]); where the hook does not know the directory,
/// it cannot look, and asks.
/// An allowed `rm` of the project's directory or one above it (`rm -rf
/// /tmp/proj` from inside `/tmp/proj`, which `rm-temp` takes), or of a
/// directory in it by an absolute path: asked, as `rm -rf .` and `rm -r
/// build` are; only the person can say the project's files may go.
fn removes_the_project(
    key: &str,
    arguments: &Map<String, Value>,
    segment: &Segment,
    cwd: Option<&Path>,
    project: Option<&Path>,
) -> Option<Segment> {
    if !matches!(key, "rm" | "rmdir") || segment.verdict != Verdict::Allow {
        return None;
    }
    let project = project?;
    let recursive = arguments.get("recursive") == Some(&Value::Bool(true));
    let values = arguments.values().flat_map(|value| match value {
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        Value::String(text) => vec![text.as_str()],
        _ => Vec::new(),
    });
    let removed = values
        .map(|value| match cwd {
            Some(cwd) => super::directory::lexical(&cwd.join(value)),
            None => super::directory::lexical(Path::new(value)),
        })
        .find_map(|path| {
            // The project is named with its links followed (`/tmp` may be
            // `/private/tmp`).
            let real = remembered::canonicalize(&path).unwrap_or_else(|_| path.clone());
            if !path.is_absolute() {
                None
            } else if project.starts_with(&path) || project.starts_with(&real) {
                Some((path, "which holds the project the agent works in"))
            } else if recursive && (path.starts_with(project) || real.starts_with(project)) {
                // As `rm -r build` is, however the path is spelled.
                Some((path, "a directory of the project, with what it holds"))
            } else {
                None
            }
        })?;
    let (removed, what) = removed;
    let mut asked = segment.clone();
    asked.verdict = Verdict::Ask;
    asked.rule = "destructive";
    asked.message = format!(
        "removes `{}`, {what}; the person decides",
        super::cut(&removed.to_string_lossy())
    );
    Some(asked)
}

fn runs_git_hooks(
    key: &str,
    declaration: &Declaration,
    segment: &Segment,
    cwd: Option<&Path>,
    home: Option<&str>,
) -> Option<Segment> {
    if key != "git" || segment.verdict != Verdict::Allow {
        return None;
    }
    let subcommand = declaration
        .subprocess
        .as_ref()?
        .argv
        .iter()
        .find_map(|part| match part {
            ArgvPart::Literal(word) if !word.starts_with('-') => Some(word.as_str()),
            _ => None,
        })?;
    let named = git_dir::named_hooks(subcommand);
    if !git_dir::runs_hooks(subcommand) && named.is_empty() {
        return None;
    }
    let message = match cwd {
        Some(cwd) => {
            let home = home.map(Path::new);
            let hook = if git_dir::runs_hooks(subcommand) {
                git_dir::installed_hook(cwd, home)?
            } else {
                git_dir::installed_named_hook(cwd, home, named)?
            };
            git_dir::hooks_message(subcommand, &hook)
        }
        None if named.is_empty() || git_dir::runs_hooks(subcommand) => format!(
            "`git {subcommand}` runs the repository's hooks, if it has any, and the directory it would run in is not known (a `cd` earlier in the line); the person decides"
        ),
        // A `cd` to a place not known: not every `git status` is asked.
        None => return None,
    };
    let mut asked = Segment::new(
        segment.shown.clone(),
        Verdict::Ask,
        git_dir::HOOKS_RULE,
        message,
    );
    asked.declaration = segment.declaration.clone();
    asked.redacted = segment.redacted;
    Some(asked)
}

/// An allowed git command in a repository whose own config names a
/// program git runs (`core.fsmonitor`, a pager, a diff driver, an `!`
/// alias, ...), asked instead: project code in the sandbox can write
/// `.git/config`, and git would run that program outside any sandbox.
/// Outside the project (a `cd`, `git -C`), and where the hook does not
/// know the directory, the `outside_project` rule speaks, from the same
/// files.
fn runs_configured_program(
    key: &str,
    segment: &Segment,
    repository: Option<&Path>,
    context: &Context<'_>,
    state: &LineState,
) -> Option<Segment> {
    if key != "git" || segment.verdict != Verdict::Allow || state.outside_project().is_some() {
        return None;
    }
    let (found, work_tree) = state.git_config_runs_code(repository?, context.home)?;
    let mut asked = Segment::new(
        segment.shown.clone(),
        Verdict::Ask,
        git_dir::CONFIG_RULE,
        found.message(Some(&work_tree)),
    );
    asked.declaration = segment.declaration.clone();
    asked.redacted = segment.redacted;
    Some(asked)
}

/// The values of a declaration's path inputs (of every class: the hook
/// cannot tell a form's sources from its targets).
/// `git checkout TARGET` with no paths, where `TARGET` is `-` (the
/// previous branch) or a local branch of the repository at `cwd` and no
/// file or directory there has its name: git switches branches and keeps
/// the work tree's changes (or refuses), never restoring a file.
fn checks_out_a_branch(validated: &guard::ValidatedArguments, cwd: &Path) -> bool {
    let mut target = None;
    for argument in &validated.arguments {
        match (argument.name.as_str(), &argument.value) {
            ("target", guard::ArgValue::String(text)) => target = Some(text.as_str()),
            ("paths", guard::ArgValue::Array(items)) if !items.is_empty() => return false,
            _ => {}
        }
    }
    let Some(target) = target else {
        return false;
    };
    target == "-"
        || (!remembered::is_present(cwd.join(target)) && git_dir::is_local_branch(cwd, target))
}

fn path_values<'v>(
    declaration: &'v Declaration,
    validated: &'v guard::ValidatedArguments,
) -> impl Iterator<Item = &'v str> + 'v {
    validated
        .arguments
        .iter()
        .filter(|argument| crate::contract::sandbox::is_path_input(declaration, &argument.name))
        .flat_map(|argument| match &argument.value {
            guard::ArgValue::String(text) => vec![text.as_str()],
            guard::ArgValue::Array(items) => items.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        })
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

fn is_format(word: &str) -> bool {
    matches!(word, "text" | "json")
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

/// `aigent [--commands DIR] [--output text|json] run [--confirm-destructive]
/// [--timeout SECS] NAME ...` with this aigent and the hook's own registry: aigent runs
/// Phase 1 itself, so it is allowed, or asked when it confirms a
/// destructive command. Any other option, or another registry, is not
/// recognised (a registry the agent wrote could declare anything).
pub(super) fn aigent_run(
    argv: &[&str],
    shown: String,
    context: &Context<'_>,
    state: &LineState,
) -> Option<Segment> {
    let aigent = context.aigent?;
    let program = argv[0];
    let mut rest = &argv[1..];
    let mut registry: Option<&str> = None;
    // The options a route writes before `run`: the registry, and the
    // output format (which changes what is printed, not what runs).
    loop {
        match rest {
            [flag, dir, tail @ ..] if *flag == "--commands" && registry.is_none() => {
                registry = Some(dir);
                rest = tail;
            }
            [flag, format, tail @ ..] if *flag == "--output" && is_format(format) => rest = tail,
            [word, tail @ ..] => {
                if let Some(dir) = word.strip_prefix("--commands=")
                    && registry.is_none()
                {
                    registry = Some(dir);
                } else if !word.strip_prefix("--output=").is_some_and(is_format) {
                    break;
                }
                rest = tail;
            }
            [] => break,
        }
    }
    // Only a `run` can be this aigent's: the program is looked for on
    // PATH (a `stat` per directory) for that shape alone, not for every
    // `git` and `cat`.
    if rest.first() != Some(&"run") {
        return None;
    }
    let is_self = if program.contains('/') {
        Path::new(program).is_absolute() && same_file(Path::new(program), &aigent.exe)
    } else {
        (context.which)(program).is_some_and(|found| same_file(&found, &aigent.exe))
    };
    if !is_self {
        return None;
    }
    let same_registry = match (registry, &aigent.registry_dir) {
        (None, None) => true,
        (Some(given), Some(own)) => {
            let given = Path::new(given);
            // After a `cd` in the line, a relative path is not where the
            // hook would look.
            let resolved = if given.is_absolute() {
                Some(given.to_path_buf())
            } else {
                state.working_directory(context).map(|cwd| cwd.join(given))
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
    // A layer no person trusted may declare NAME over the one the hook
    // reads; `aigent run` would run that one.
    if let crate::registry::Registry::Layered(layers) = context.registry
        && layers.untrusted_declares(name)
    {
        return None;
    }
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
    match (remembered::canonicalize(a), remembered::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A deny for words that make the program run another program (`find
/// -exec`, `xargs`) or code given in them (`sed e`, `awk 'system()'`,
/// `git -c core.pager=…`): whether a declaration of the program exists or
/// not, what it would run is not what any form declares. A shell's or an
/// interpreter's own code (`python3 -c`) is left to the caller: an
/// undeclared one is denied, a declared one's other forms asked.
fn runs_code(argv: &[&str], shown: &str) -> Option<Segment> {
    wrapper_refusal(argv, shown).or_else(|| code_string_refusal(argv, shown))
}

fn wrapper_refusal(argv: &[&str], shown: &str) -> Option<Segment> {
    let wrapper = runs_another_program(argv)?;
    Some(Segment::new(
        shown.to_owned(),
        Verdict::Deny,
        "wrapper",
        format!(
            "`{wrapper}` runs another program, which the hook cannot judge through it; run that program directly"
        ),
    ))
}

fn code_string_refusal(argv: &[&str], shown: &str) -> Option<Segment> {
    let owned: Vec<String> = argv.iter().map(|word| (*word).to_owned()).collect();
    let problem = proposed_command_problems(&owned).into_iter().next()?;
    Some(Segment::new(
        shown.to_owned(),
        Verdict::Deny,
        "code_string",
        cut(&problem),
    ))
}

/// [`runs_code`] for a declared program: a shell or an interpreter other
/// than awk (whose programs print, where declared) is not held to it, nor
/// is `make`, whose recipes are the project's code wherever it reads them
/// (`make -C apps/web` is asked, as an undeclared form, not denied).
fn runs_other_code(program: &str, argv: &[&str], shown: &str) -> Option<Segment> {
    let name = program.rsplit('/').next().unwrap_or(program);
    let awk = matches!(name, "awk" | "gawk" | "mawk" | "nawk");
    if (is_language(program) && !awk) || matches!(name, "make" | "gmake") {
        return None;
    }
    runs_code(argv, shown)
}

pub(super) fn unmatched(
    program: &str,
    argv: &[&str],
    shown: String,
    declared: Vec<String>,
    context: &Context<'_>,
) -> Segment {
    if let Some(refusal) = wrapper_refusal(argv, &shown) {
        return refusal;
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
    if let Some(refusal) = code_string_refusal(argv, &shown) {
        return refusal;
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
