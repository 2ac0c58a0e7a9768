//! A segment against the declarations of its program: the template run in
//! reverse, Phase 1 on the recovered arguments, and the reasons given when
//! nothing matches.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::{Map, Value};

use super::{AigentSelf, Context, LineState, Segment, cut};
use crate::contract::programs::code_words::proposed_command_problems;
use crate::contract::{
    ArgvPart, Declaration, FlagForm, Inputs, ParamType, is_language, runs_another_program,
};
use crate::exec::Argv;
use crate::exec::argv_match::candidate_arguments;
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
        std::fs::canonicalize(&path).ok().or(Some(path))
    };
    // A relative path (`./git`) names whatever is in the directory the
    // agent is in, never the declared program.
    if proposed.contains('/') && !Path::new(proposed).is_absolute() {
        return false;
    }
    matches!((resolve(binary), resolve(proposed)), (Some(a), Some(b)) if a == b)
}

pub(super) fn match_declarations(
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
        let cwd = state.working_directory(context);
        match match_one(&declaration, argv, context.aigent, cwd) {
            One::Allowed {
                segment,
                route,
                arguments,
            } => {
                return Matched::Allowed {
                    segment,
                    route,
                    declaration,
                    arguments,
                };
            }
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
        arguments: Map<String, Value>,
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
        return One::Allowed {
            segment,
            route,
            arguments: candidate.clone(),
        };
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
pub(super) fn aigent_run(
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

pub(super) fn unmatched(
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
