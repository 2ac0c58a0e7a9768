//! The registration lint's cross-field rules (DESIGN.md §4). Field-level
//! problems (bad regexes, unanchored patterns, unknown fields, incomplete
//! exit codes) are found while parsing; these run on the parsed
//! declaration. Duplicate names are a registry-level check.

use std::path::Path;

use super::codes;
use super::declaration::{
    DangerLevel, Declaration, EnvValue, FlagForm, Inputs, ParamType, PathRoot, PatternType,
    Subprocess, ValueClass,
};
use super::programs::command_string::{UserArguments, command_string_diagnostics};
use crate::report::Diagnostic;

mod awk;
mod git_config;

/// What a check may know besides the declaration.
#[derive(Debug, Clone, Copy, Default)]
pub struct LintContext<'a> {
    /// The declaration's file, when it has one (the embedded examples do
    /// not), so that a check can find files named relative to it.
    pub file: Option<&'a Path>,
}

/// One registration check.
pub type Check = fn(&Declaration, &LintContext<'_>) -> Vec<Diagnostic>;

/// Every check, in report order. This list is the extension point.
pub const CHECKS: &[Check] = &[
    user_controlled_args_exist,
    every_parameter_reaches_the_subprocess,
    argv_slots_fit_their_types,
    env_params_exist,
    env_runs_no_agent_code,
    sensitive_values_stay_off_argv,
    no_shell_command_string,
    psql_values_are_sql,
    git_config_keys_run_nothing,
    text_values_stay_data,
    path_roots_are_paths,
    required_has_no_default,
    identifiers_have_patterns,
    secrets_are_sensitive,
    raw_shell_in_scripts,
];

pub fn lint_declaration(declaration: &Declaration, context: &LintContext<'_>) -> Vec<Diagnostic> {
    CHECKS
        .iter()
        .chain(super::sandbox::LINT_CHECKS)
        .flat_map(|check| check(declaration, context))
        .collect()
}

fn user_controlled_args_exist(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let inputs = declaration.input_names();
    let unknown = |name: &str, field: String| {
        let hint = super::naming::closest(name, inputs.iter().copied())
            .map(|closest| format!("; did you mean `{closest}`?"))
            .unwrap_or_default();
        Diagnostic::new(
            codes::Code::UserArgUnknown,
            format!("`{name}` names no parameter{hint}"),
        )
        .with_field(field)
    };
    if !subprocess.templated {
        return subprocess
            .user_controlled_args
            .iter()
            .enumerate()
            .filter(|(_, name)| !inputs.contains(&name.as_str()))
            .map(|(index, name)| unknown(name, format!("subprocess.user_controlled_args[{index}]")))
            .collect();
    }
    subprocess
        .argv
        .iter()
        .enumerate()
        .filter_map(|(index, part)| Some((index, part.slot()?)))
        .filter(|(_, slot)| !inputs.contains(&slot.param.as_str()))
        .map(|(index, slot)| unknown(&slot.param, format!("subprocess.argv[{index}].param")))
        .collect()
}

/// Whether the subprocess receives `name`'s value somewhere. This is the
/// one list of destinations: a new one (an environment variable, a file)
/// is added here, and the unused-parameter check follows.
pub fn reaches_subprocess(declaration: &Declaration, name: &str) -> bool {
    declaration.subprocess.as_ref().is_some_and(|subprocess| {
        subprocess
            .user_controlled_args
            .iter()
            .any(|arg| arg == name)
            || env_params(subprocess).any(|(_, param)| param == name)
    })
}

/// The environment variables set from a parameter: (variable, parameter).
fn env_params(subprocess: &Subprocess) -> impl Iterator<Item = (&str, &str)> {
    subprocess.env.iter().filter_map(|var| match &var.value {
        EnvValue::Param(param) => Some((var.name.as_str(), param.as_str())),
        EnvValue::Literal(_) => None,
    })
}

fn env_params_exist(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let inputs = declaration.input_names();
    env_params(subprocess)
        .filter(|(_, param)| !inputs.contains(param))
        .map(|(variable, param)| {
            let hint = super::naming::closest(param, inputs.iter().copied())
                .map(|closest| format!("; did you mean `{closest}`?"))
                .unwrap_or_default();
            Diagnostic::new(
                codes::Code::EnvParamUnknown,
                format!("`{param}` names no parameter{hint}"),
            )
            .with_field(format!("subprocess.env.{variable}"))
        })
        .collect()
}

/// Whether programs read the variable `name` as code, as a program to run,
/// as options, as a place to find code or configuration that runs it
/// (the table in `programs::environment`). Checked case-insensitively:
/// Windows folds case.
pub fn env_runs_code(name: &str) -> bool {
    super::programs::environment::code_variable(name).is_some()
}

/// An agent's value in `LD_PRELOAD` or `BASH_ENV` is code that runs, which
/// no pattern on the value can make safe.
fn env_runs_no_agent_code(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    env_params(subprocess)
        .filter_map(|(variable, param)| {
            super::programs::environment::code_variable(variable).map(|row| (variable, param, row))
        })
        .map(|(variable, param, row)| {
            Diagnostic::new(
                codes::Code::EnvRunsCode,
                format!(
                    "`{variable}` is read as code or as a program to run ({}: {}), so an agent's `{param}` would run; set it to a literal, or leave it out",
                    row.kind.as_str(),
                    row.example
                ),
            )
            .with_field(format!("subprocess.env.{variable}"))
        })
        .collect()
}

/// A sensitive value on the argv is readable by every local user.
fn sensitive_values_stay_off_argv(
    declaration: &Declaration,
    _: &LintContext<'_>,
) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (index, name) in subprocess.user_controlled_args.iter().enumerate() {
        if declaration.is_sensitive(name) {
            let field = if subprocess.templated {
                let slot = subprocess
                    .argv
                    .iter()
                    .position(|part| part.slot().is_some_and(|slot| &slot.param == name))
                    .unwrap_or(index);
                format!("subprocess.argv[{slot}]")
            } else {
                format!("subprocess.user_controlled_args[{index}]")
            };
            found.push(
                Diagnostic::new(
                    codes::Code::SensitiveOnArgv,
                    format!(
                        "`{name}` is sensitive but goes on the argv, where other local users can read it (`ps`, /proc/PID/cmdline); pass it as `\"env\": {{\"VAR\": {{\"param\": \"{name}\"}}}}` if the program reads it from the environment"
                    ),
                )
                .with_field(field),
            );
        }
    }
    found
}

/// A parameter that is validated, reported as accepted and then dropped
/// misleads the agent that sent it. A command that runs nothing (no
/// `subprocess`) only validates, so it has no destinations to miss.
fn every_parameter_reaches_the_subprocess(
    declaration: &Declaration,
    _: &LintContext<'_>,
) -> Vec<Diagnostic> {
    if declaration.subprocess.is_none() {
        return Vec::new();
    }
    let prefix = match declaration.inputs {
        Inputs::Parameters(_) => "parameters",
        Inputs::InputSchema(_) => "input_schema.properties",
    };
    declaration
        .input_names()
        .into_iter()
        .filter(|name| !reaches_subprocess(declaration, name))
        .map(|name| {
            Diagnostic::new(
                codes::Code::ParameterUnused,
                format!(
                    "`{name}` is declared but never reaches the subprocess, so an agent's value would be checked and then silently dropped; add it to `argv` (or `user_controlled_args`), or remove it"
                ),
            )
            .with_field(format!("{prefix}.{name}"))
        })
        .collect()
}

/// A slot whose parameter type cannot take its form.
fn argv_slots_fit_their_types(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (index, part) in subprocess.argv.iter().enumerate() {
        let Some(slot) = part.slot() else { continue };
        let Some(kind) = input_kind(declaration, &slot.param) else {
            continue;
        };
        let problem = match (kind, &slot.flag, slot.form) {
            ("boolean", Some(flag), FlagForm::Joined) => Some(format!(
                "`{}` is a boolean, which is a switch: `{flag}` alone when true; drop \"form\": \"joined\"",
                slot.param
            )),
            ("object", _, _) => Some(format!(
                "`{}` is an object, which has no argv form",
                slot.param
            )),
            _ => None,
        };
        if let Some(message) = problem {
            found.push(
                Diagnostic::new(codes::Code::ArgvSlotInvalid, message)
                    .with_field(format!("subprocess.argv[{index}]")),
            );
        }
    }
    found
}

/// The JSON type an input takes, where it has exactly one.
fn input_kind<'a>(declaration: &'a Declaration, name: &str) -> Option<&'a str> {
    match &declaration.inputs {
        Inputs::Parameters(_) => {
            declaration
                .parameter(name)
                .map(|parameter| match parameter.kind {
                    ParamType::Boolean => "boolean",
                    _ => "scalar",
                })
        }
        Inputs::InputSchema(schema) => schema.property(name)?.get("type")?.as_str(),
    }
}

/// An interpreter running a script file that itself runs a shell (see
/// `raw_shell`).
fn raw_shell_in_scripts(declaration: &Declaration, context: &LintContext<'_>) -> Vec<Diagnostic> {
    super::programs::raw_shell::raw_shell_in_scripts(declaration, context.file)
}

/// A shell or an interpreter handed a command string turns the argv back
/// into code, undoing everything the guard does (see `command_string`).
fn no_shell_command_string(
    declaration: &Declaration,
    context: &LintContext<'_>,
) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    // A program is what its file is, not what it is called: a symlink
    // `grep` to bash is read as bash.
    let base = context.file.and_then(Path::parent);
    // Only a disguise whose real program would be flagged changes the answer.
    let flagged_as = |program: &str| {
        let mut as_program = subprocess.clone();
        program.clone_into(&mut as_program.binary);
        !command_strings(declaration, &as_program).is_empty()
    };
    if let Some(real) =
        super::programs::code_words::disguised_program(&subprocess.binary, base, &flagged_as)
    {
        let mut resolved = subprocess.clone();
        resolved.binary.clone_from(&real);
        let note = format!(" (`{}` is `{real}`)", subprocess.binary);
        return command_strings(declaration, &resolved)
            .into_iter()
            .map(|mut diagnostic| {
                diagnostic.message.push_str(&note);
                diagnostic
            })
            .collect();
    }
    command_strings(declaration, subprocess)
}

fn command_strings(declaration: &Declaration, subprocess: &Subprocess) -> Vec<Diagnostic> {
    let dash_params: Vec<&str> = subprocess
        .user_controlled_args
        .iter()
        .filter(|name| declaration.allows_leading_dash(name))
        .map(String::as_str)
        .collect();
    let users = UserArguments {
        any: !subprocess.user_controlled_args.is_empty(),
        leading_dash: dash_params.first().copied(),
        dash_params: &dash_params,
    };
    let mut found = command_string_diagnostics(subprocess, users);
    // A command that lets the agent choose the program and says it can do
    // anything (`destructive`, as the built-in `shell_exec`) has been
    // warned enough; the guard still checks each call.
    // So has one that runs the project's own programs (`./gradlew`), as
    // the catalog's `project-program` does: it runs them in the sandbox.
    let acknowledged = declaration.danger_level == Some(DangerLevel::Destructive)
        || (declaration.class() == super::CommandClass::RunsProjectCode
            && declaration.sandbox.is_some());
    found.extend(
        super::programs::code_words::code_word_diagnostics(subprocess)
            .into_iter()
            .filter(|diagnostic| {
                !(acknowledged && diagnostic.code == codes::Code::AgentChoosesProgram)
            })
            .filter(|diagnostic| !prints_only(declaration, subprocess, diagnostic)),
    );
    found
}

/// The sed scripts an agent's value may be when its parameter's `pattern`
/// says so: addresses (lines, `$`, `/re/`, ranges, `!`) and the commands
/// that print, delete, quit, substitute (`s` delimited by `/`, `|`, `#` or
/// `:`, with the flags `g`, `p`, `i`, `m` and a number) or translate,
/// joined by `;`. Nothing that runs (`e`, `s///e`), reads or writes a file
/// (`r`, `R`, `w`, `W`, `s///w`), and no bare delimiter inside a bracket
/// expression, so that a sed that reads `[/]` as a bracket and one that
/// ends the regex there split the script alike.
const SED_PRINTS_ONLY: &str = concat!(
    r"^ *(((([0-9]+(~[0-9]+)?|\$|/([^/\\\n]|\\[^\n])*/[IM]?)(,([0-9]+|\$|/([^/\\\n]|\\[^\n])*/[IM]?|[+~][0-9]+))?) *!? *)?([pdDnNPhHgGxlz=]|[qQ][0-9]*",
    r"|s/([^/\\\n]|\\[^\n])*/([^/\\\n]|\\[^\n])*/[gpiImM0-9]*",
    r"|s\|([^|\\\n]|\\[^\n])*\|([^|\\\n]|\\[^\n])*\|[gpiImM0-9]*",
    r"|s#([^#\\\n]|\\[^\n])*#([^#\\\n]|\\[^\n])*#[gpiImM0-9]*",
    r"|s:([^:\\\n]|\\[^\n])*:([^:\\\n]|\\[^\n])*:[gpiImM0-9]*|y/([^/\\\n]|\\[^\n])*/([^/\\\n]|\\[^\n])*/))( *; *(((([0-9]+(~[0-9]+)?|\$|/([^/\\\n]|\\[^\n])*/[IM]?)(,([0-9]+|\$|/([^/\\\n]|\\[^\n])*/[IM]?|[+~][0-9]+))?) *!? *)?([pdDnNPhHgGxlz=]|[qQ][0-9]*",
    r"|s/([^/\\\n]|\\[^\n])*/([^/\\\n]|\\[^\n])*/[gpiImM0-9]*",
    r"|s\|([^|\\\n]|\\[^\n])*\|([^|\\\n]|\\[^\n])*\|[gpiImM0-9]*",
    r"|s#([^#\\\n]|\\[^\n])*#([^#\\\n]|\\[^\n])*#[gpiImM0-9]*",
    r"|s:([^:\\\n]|\\[^\n])*:([^:\\\n]|\\[^\n])*:[gpiImM0-9]*|y/([^/\\\n]|\\[^\n])*/([^/\\\n]|\\[^\n])*/)))* *;? *$",
);

/// Whether `diagnostic` is E127 on a `sed` script or an `awk` program
/// that an agent's value fills, where the value's `pattern` admits only
/// scripts of [`SED_PRINTS_ONLY`] or programs of [`awk::prints_only`]
/// (read whole: no prefix glued in front).
fn prints_only(
    declaration: &Declaration,
    subprocess: &Subprocess,
    diagnostic: &Diagnostic,
) -> bool {
    let program = Path::new(&subprocess.binary)
        .file_name()
        .and_then(|name| name.to_str());
    let within: fn(&str) -> bool = match program {
        Some("sed" | "gsed") => sed_prints_only,
        Some("awk" | "gawk" | "mawk" | "nawk") => awk_prints_only,
        _ => return false,
    };
    if diagnostic.code != codes::Code::AgentValueIsCode {
        return false;
    }
    let Some(slot) = diagnostic
        .field
        .as_deref()
        .and_then(|field| field.strip_prefix("subprocess.argv["))
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|index| index.parse::<usize>().ok())
        .and_then(|index| subprocess.argv.get(index))
        .and_then(super::declaration::ArgvPart::slot)
    else {
        return false;
    };
    let whole = slot.prefix.is_empty()
        && (slot.form == FlagForm::Separate || slot.flag.as_deref() == Some("--expression"));
    whole
        && declaration
            .parameter(&slot.param)
            .and_then(|parameter| parameter.pattern.as_ref())
            .is_some_and(|pattern| within(pattern.as_str()))
}

/// Whether every string the anchored `inner` pattern matches is matched by
/// the anchored `outer` one: the two DFAs walked together from their
/// starts, depth first, looking for a string that ends in a match of
/// `inner` and not of `outer`. The DFAs are lazy, so a walk builds only
/// the states it reaches, and a pattern such as `^[^\n]{1,4096}$` is
/// refuted after a byte or two instead of being determinized whole (a
/// second per declaration, unoptimized). A walk that grows past its bounds
/// counts as "not within".
#[cfg(test)]
fn pattern_within(inner: &str, outer: &str) -> bool {
    match (lazy_dfa(inner), lazy_dfa(outer)) {
        (Some(inner), Some(outer)) => dfa_within(&inner, &outer),
        _ => false,
    }
}

/// Whether `inner` is within `SED_PRINTS_ONLY`, whose DFA is made once.
fn sed_prints_only(inner: &str) -> bool {
    // The catalog's own sed declarations use the pattern itself.
    if inner == SED_PRINTS_ONLY {
        return true;
    }
    static OUTER: std::sync::OnceLock<Option<LazyDfa>> = std::sync::OnceLock::new();
    match (
        lazy_dfa(inner),
        OUTER.get_or_init(|| lazy_dfa(SED_PRINTS_ONLY)),
    ) {
        (Some(inner), Some(outer)) => dfa_within(&inner, outer),
        _ => false,
    }
}

/// Whether `inner` is within [`awk::prints_only`], whose DFA is made once.
fn awk_prints_only(inner: &str) -> bool {
    // The catalog's own awk declarations use the language itself.
    if inner == awk::prints_only() {
        return true;
    }
    static OUTER: std::sync::OnceLock<Option<LazyDfa>> = std::sync::OnceLock::new();
    match (
        lazy_dfa(inner),
        OUTER.get_or_init(|| lazy_dfa(awk::prints_only())),
    ) {
        (Some(inner), Some(outer)) => dfa_within(&inner, outer),
        _ => false,
    }
}

type LazyDfa = regex_automata::hybrid::dfa::DFA;

/// Most state pairs a containment walk visits.
const MOST_PAIRS: usize = 1 << 16;

/// The anchored lazy DFA of `pattern`, reporting every match (not only
/// the leftmost); its cache never clears, since a clear would invalidate
/// the states a walk holds: one that fills up ends the walk instead.
fn lazy_dfa(pattern: &str) -> Option<LazyDfa> {
    use regex_automata::MatchKind;
    LazyDfa::builder()
        .configure(
            LazyDfa::config()
                .match_kind(MatchKind::All)
                .cache_capacity(8 << 20)
                .minimum_cache_clear_count(Some(0)),
        )
        .build(pattern)
        .ok()
}

fn dfa_within(inner: &LazyDfa, outer: &LazyDfa) -> bool {
    use regex_automata::{Anchored, Input};
    let (mut inner_cache, mut outer_cache) = (inner.create_cache(), outer.create_cache());
    let input = Input::new("").anchored(Anchored::Yes);
    let (Ok(inner_start), Ok(outer_start)) = (
        inner.start_state_forward(&mut inner_cache, &input),
        outer.start_state_forward(&mut outer_cache, &input),
    ) else {
        return false;
    };
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(inner_start, outer_start)];
    while let Some((at_inner, at_outer)) = stack.pop() {
        if !seen.insert((at_inner, at_outer)) {
            continue;
        }
        if seen.len() > MOST_PAIRS {
            return false;
        }
        let (Ok(inner_end), Ok(outer_end)) = (
            inner.next_eoi_state(&mut inner_cache, at_inner),
            outer.next_eoi_state(&mut outer_cache, at_outer),
        ) else {
            return false;
        };
        if inner_end.is_match() && !outer_end.is_match() {
            return false;
        }
        for byte in 0..=u8::MAX {
            let Ok(next_inner) = inner.next_state(&mut inner_cache, at_inner, byte) else {
                return false;
            };
            if next_inner.is_dead() {
                continue;
            }
            let Ok(next_outer) = outer.next_state(&mut outer_cache, at_outer, byte) else {
                return false;
            };
            if next_inner.is_quit() || next_outer.is_quit() {
                return false;
            }
            stack.push((next_inner, next_outer));
        }
    }
    true
}

/// `psql -c VALUE` sends VALUE to the server as SQL, unless it starts
/// with `\`, which makes it a psql meta-command (`\! CMD` runs a shell).
/// An agent's value there must be unable to start with `\`: a number, an
/// enum none of whose values does, a pattern type that forbids it, or a
/// `pattern` whose every match starts otherwise.
fn psql_values_are_sql(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    super::programs::code_words::psql_command_values(subprocess)
        .into_iter()
        .filter(|(_, param, first)| may_start_with(declaration, param, *first))
        .map(|(field, param, first)| {
            let message = if first == b'|' {
                format!(
                    "`{param}` reaches `psql -o`, which pipes into a shell command a value starting with `|`; give `{param}` a `pattern` or `pattern_type` that cannot start with `|`"
                )
            } else {
                format!(
                    "`{param}` reaches `psql -c`, which runs a value starting with `\\` as a meta-command (`\\! CMD` starts a shell); give `{param}` a `pattern` that cannot match a leading `\\` (such as `^(?i:select|with)\\b.*$`)"
                )
            };
            Diagnostic::new(codes::Code::AgentValueIsCode, message).with_field(field)
        })
        .collect()
}

/// Whether a value of the input `name` may start with the ASCII `byte`.
fn may_start_with(declaration: &Declaration, name: &str, byte: u8) -> bool {
    let starts = |text: &str| text.as_bytes().first() == Some(&byte);
    let syntax_forbids = |class: ValueClass| {
        matches!(
            class,
            ValueClass::Typed(
                PatternType::AlphanumericId
                    | PatternType::Uuid
                    | PatternType::Semver
                    | PatternType::Url
            )
        ) && !byte.is_ascii_alphanumeric()
    };
    match &declaration.inputs {
        Inputs::Parameters(_) => {
            let Some(parameter) = declaration.parameter(name) else {
                return true;
            };
            match parameter.kind {
                ParamType::Integer | ParamType::Number | ParamType::Boolean => false,
                ParamType::Enum => parameter.enum_values.iter().any(|value| starts(value)),
                ParamType::String | ParamType::Array | ParamType::ResourceId => {
                    let class = parameter
                        .pattern_type
                        .map_or(ValueClass::Plain, ValueClass::Typed);
                    !syntax_forbids(class)
                        && parameter
                            .pattern
                            .as_ref()
                            .is_none_or(|pattern| pattern_may_start_with(pattern.as_str(), byte))
                }
            }
        }
        Inputs::InputSchema(schema) => {
            let Some(property) = schema.property(name) else {
                return true;
            };
            let kind = super::input_schema::primary_type(property);
            if matches!(kind, "integer" | "number" | "boolean") && property.get("type").is_some() {
                return false;
            }
            if let Some(values) = property.get("enum").and_then(serde_json::Value::as_array) {
                return values
                    .iter()
                    .any(|value| value.as_str().is_none_or(&starts));
            }
            let class = schema
                .guarded(name)
                .map_or(ValueClass::Plain, |guarded| guarded.item_guard().class);
            !syntax_forbids(class)
                && property
                    .get("pattern")
                    .and_then(serde_json::Value::as_str)
                    .is_none_or(|pattern| pattern_may_start_with(pattern, byte))
        }
    }
}

/// Whether some string matching the anchored `pattern` starts with
/// `byte`: the pattern's lazy DFA, fed `byte` first, is not yet dead. Lazy,
/// so only the states that one byte reaches are built; a pattern the DFA
/// cannot take counts as "may".
fn pattern_may_start_with(pattern: &str, byte: u8) -> bool {
    use regex_automata::hybrid::dfa::DFA;
    use regex_automata::{Anchored, Input};
    let built = DFA::builder()
        .configure(
            // `\b` is Unicode-aware; a DFA can still take an ASCII first
            // byte, which is all this asks of it.
            DFA::config().unicode_word_boundary(true),
        )
        .build(pattern);
    let Ok(dfa) = built else {
        return true;
    };
    let mut cache = dfa.create_cache();
    let input = Input::new("").anchored(Anchored::Yes);
    let Ok(start) = dfa.start_state_forward(&mut cache, &input) else {
        return true;
    };
    dfa.next_state(&mut cache, start, byte)
        .map_or(true, |next| !next.is_dead())
}

/// `git config KEY VALUE` sets a key an agent chooses: git runs the
/// value of many keys (see `git_config`).
fn git_config_keys_run_nothing(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    git_config::agent_keys(declaration)
}

/// `free_text` and `regex` values may hold `$`, `(` or `;`, which is
/// fine for a program that reads them as data, and not where a program
/// reads its words as code or as the program to run (see
/// `code_words::text_code_positions`; the places E115 and E127 name are
/// refused for every value already).
fn text_values_stay_data(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    super::programs::code_words::text_code_positions(subprocess)
        .into_iter()
        .filter_map(|(field, param, why)| {
            let kind = text_kind(declaration, &param)?;
            Some(
                Diagnostic::new(
                    codes::Code::TextReachesCode,
                    format!(
                        "`{param}` is `{kind}`, which allows shell metacharacters, but {why}; use a stricter `pattern_type` or `pattern` for it, or pass it where the program reads data"
                    ),
                )
                .with_field(field),
            )
        })
        .collect()
}

/// An `under` root `{param}` must name another declared `filepath` input:
/// its value is a directory only if it is a path.
fn path_roots_are_paths(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let prefix = match declaration.inputs {
        Inputs::Parameters(_) => "parameters",
        Inputs::InputSchema(_) => "input_schema.properties",
    };
    let inputs = declaration.input_names();
    let mut found = Vec::new();
    for name in &inputs {
        let Some(confinement) = declaration.confinement(name) else {
            continue;
        };
        for root in &confinement.under {
            let PathRoot::Param(root_name) = root else {
                continue;
            };
            let field = format!("{prefix}.{name}.under");
            let is_path = declaration.confinement(root_name).is_some()
                || match &declaration.inputs {
                    Inputs::Parameters(_) => {
                        declaration.parameter(root_name).is_some_and(|parameter| {
                            parameter.pattern_type == Some(PatternType::Filepath)
                        })
                    }
                    Inputs::InputSchema(schema) => {
                        schema.guarded(root_name).is_some_and(|property| {
                            property.item_guard().class == ValueClass::Typed(PatternType::Filepath)
                        })
                    }
                };
            if !inputs.contains(&root_name.as_str()) {
                let hint = super::naming::closest(root_name, inputs.iter().copied())
                    .map(|closest| format!("; did you mean `{{{closest}}}`?"))
                    .unwrap_or_default();
                found.push(
                    Diagnostic::new(
                        codes::Code::UserArgUnknown,
                        format!("`{{{root_name}}}` names no parameter{hint}"),
                    )
                    .with_field(field),
                );
            } else if root_name == name || !is_path {
                found.push(
                    Diagnostic::new(
                        codes::Code::PatternMisplaced,
                        format!(
                            "`{{{root_name}}}` must name another parameter with `pattern_type: filepath`, whose value is the directory"
                        ),
                    )
                    .with_field(field),
                );
            }
        }
    }
    found
}

/// `free_text` or `regex`, when the input `name` is text a program reads
/// as data.
fn text_kind(declaration: &Declaration, name: &str) -> Option<PatternType> {
    let pattern_type = match &declaration.inputs {
        Inputs::Parameters(_) => declaration.parameter(name)?.pattern_type?,
        Inputs::InputSchema(schema) => match schema.guarded(name)?.item_guard().class {
            ValueClass::Typed(pattern_type) => pattern_type,
            _ => return None,
        },
    };
    pattern_type.is_text().then_some(pattern_type)
}

fn required_has_no_default(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    declaration
        .parameters()
        .iter()
        .filter(|parameter| parameter.required && parameter.default.is_some())
        .map(|parameter| {
            Diagnostic::new(
                codes::Code::RequiredWithDefault,
                format!(
                    "`{}` is required, so its default never applies",
                    parameter.name
                ),
            )
            .with_field(format!("parameters.{}.default", parameter.name))
        })
        .collect()
}

fn identifiers_have_patterns(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    declaration
        .parameters()
        .iter()
        .filter(|parameter| {
            matches!(parameter.kind, ParamType::String | ParamType::Array)
                && parameter.pattern.is_none()
                && parameter.pattern_type.is_none()
                && super::naming::looks_like_identifier(&parameter.name)
        })
        .map(|parameter| {
            Diagnostic::new(
                codes::Code::IdentifierUnpatterned,
                format!(
                    "`{}` looks like an identifier but has no `pattern`, `pattern_type` or `enum_values`; any string will pass (use `pattern_type: alphanumeric_id`, or `type: resource_id`)",
                    parameter.name
                ),
            )
            .with_field(format!("parameters.{}", parameter.name))
        })
        .collect()
}

/// A parameter named like a secret must be `sensitive`, or its value is
/// written in clear wherever arguments are shown (REQ-F-034, REQ-C-016).
fn secrets_are_sensitive(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    declaration
        .input_names()
        .into_iter()
        .filter(|name| super::naming::looks_secret(name) && !declaration.is_sensitive(name))
        .map(|name| {
            Diagnostic::new(
                codes::Code::SecretNotSensitive,
                format!(
                    "`{name}` is named like a secret but is not `sensitive: true`, so its value is shown in the envelope, dry runs and the audit log; mark it sensitive (and pass it with --value-from-env), or rename it"
                ),
            )
            .with_field(format!("parameters.{name}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes of every diagnostic for a YAML declaration, with fields.
    fn findings(text: &str) -> Vec<(String, String)> {
        // Every fixture gets a level unless it is about the level (E126).
        let text = if text.contains("danger_level") {
            text.to_owned()
        } else {
            format!("danger_level: mutating\n{}", text.trim_start_matches('\n'))
        };
        let parsed = crate::contract::read_declaration(
            &text,
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        );
        let mut diagnostics = parsed.diagnostics.clone();
        if let Some(declaration) = &parsed.declaration {
            diagnostics.extend(lint_declaration(declaration, &LintContext::default()));
        }
        diagnostics
            .iter()
            .map(|d| (d.code.to_string(), d.field.clone().unwrap_or_default()))
            .collect()
    }

    fn pair(code: impl std::fmt::Display, field: &str) -> (String, String) {
        (code.to_string(), field.to_owned())
    }

    #[test]
    fn a_parameter_named_like_a_secret_must_be_sensitive() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  api_key: {type: string, pattern: '^[a-z]+$'}\n  author: {type: string}\nsubprocess: {binary: t, argv: [{param: author}], env: {API_KEY: {param: api_key}}}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::SecretNotSensitive, "parameters.api_key")]
        );
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  api_key: {type: string, sensitive: true, pattern: '^[a-z]+$'}\nsubprocess: {binary: t, env: {API_KEY: {param: api_key}}}\n",
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_parameter_that_reaches_nothing_is_an_error() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  a: {type: string}\n  b: {type: string}\nsubprocess: {binary: t, argv: [x, {param: a}]}\n",
        );
        assert_eq!(found, [pair(codes::Code::ParameterUnused, "parameters.b")]);
        // Legacy form too: the old built-in `deploy` dropped `ticket-ref`.
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  a: {type: string}\n  b: {type: string}\nsubprocess: {binary: t, user_controlled_args: [a]}\n",
        );
        assert_eq!(found, [pair(codes::Code::ParameterUnused, "parameters.b")]);
        // A command that runs nothing only validates: nothing to miss.
        assert!(findings("name: t\ndescription: d\nparameters:\n  b: {type: string}\n").is_empty());
    }

    #[test]
    fn a_slot_naming_an_undeclared_parameter_is_an_error() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  author: {type: string}\nsubprocess: {binary: t, argv: [{param: author}, {param: autor, flag: -a}]}\n",
        );
        assert_eq!(
            found,
            [pair(
                codes::Code::UserArgUnknown,
                "subprocess.argv[1].param"
            )]
        );
    }

    #[test]
    fn a_slot_whose_type_cannot_take_its_form_is_an_error() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  all: {type: boolean}\nsubprocess: {binary: t, argv: [{param: all, flag: --all, form: joined}]}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::ArgvSlotInvalid, "subprocess.argv[0]")]
        );
        let found = findings(
            "name: t\ndescription: d\ninput_schema:\n  type: object\n  properties:\n    o: {type: object}\nsubprocess: {binary: t, argv: [{param: o, flag: --o}]}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::ArgvSlotInvalid, "subprocess.argv[0]")]
        );
    }

    #[test]
    fn template_shape_errors() {
        let shape = |argv: &str| {
            findings(&format!(
                "name: t\ndescription: d\nparameters:\n  a: {{type: string}}\nsubprocess: {{binary: t, argv: {argv}}}\n"
            ))
        };
        assert_eq!(
            shape("[{param: a, flag: n}]")[0].1,
            "subprocess.argv[0].flag"
        );
        assert_eq!(
            shape("[{param: a, flag: --a=}]")[0].1,
            "subprocess.argv[0].flag"
        );
        assert_eq!(
            shape("[{param: a, form: joined}]")[0].1,
            "subprocess.argv[0].form"
        );
        assert_eq!(
            shape("[{param: a, flag: -a, form: glued}]")[0].1,
            "subprocess.argv[0].form"
        );
        assert_eq!(
            shape("[{param: a, flg: -a}]")[0].1,
            "subprocess.argv[0].flg"
        );
        assert_eq!(shape("[1]")[0].1, "subprocess.argv[0]");
        assert_eq!(shape("x")[0].1, "subprocess.argv");
        let both = findings(
            "name: t\ndescription: d\nparameters:\n  a: {type: string}\nsubprocess: {binary: t, argv: [{param: a}], hardcoded_args: [x]}\n",
        );
        assert_eq!(
            both,
            [pair(codes::Code::Shape, "subprocess.hardcoded_args")]
        );
    }

    #[test]
    fn text_values_never_reach_code() {
        let text = "{type: string, pattern_type: free_text}";
        // Program position: the text would choose what runs.
        let found = findings(&format!(
            "name: t\ndescription: d\nparameters:\n  prog: {text}\nsubprocess: {{binary: env, argv: ['--', {{param: prog}}]}}\n"
        ));
        assert!(
            found.contains(&pair(codes::Code::TextReachesCode, "subprocess.argv[1]")),
            "{found:?}"
        );
        // A word of make: `X=$(shell CMD)`.
        let found = findings(&format!(
            "name: t\ndescription: d\nparameters:\n  target: {text}\nsubprocess: {{binary: make, argv: ['-C', build, {{param: target}}]}}\n"
        ));
        assert_eq!(
            found,
            [pair(codes::Code::TextReachesCode, "subprocess.argv[2]")]
        );
        // Data for its program: a commit message, a grep pattern, a jq filter.
        for (binary, argv) in [
            (
                "git",
                "[commit, {param: value, flag: --message, form: joined}]",
            ),
            (
                "grep",
                "[-E, {param: value, flag: --regexp, form: joined}, --, file]",
            ),
            ("jq", "[--raw-output, {param: value}]"),
        ] {
            let found = findings(&format!(
                "name: t\ndescription: d\nparameters:\n  value: {{type: string, pattern_type: regex, regex_dialect: ere}}\nsubprocess: {{binary: {binary}, argv: {argv}}}\n"
            ));
            assert!(found.is_empty(), "{binary}: {found:?}");
        }
        // A plain string in a place E127 names stays E127, not E128.
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  script: {type: string, pattern_type: free_text}\nsubprocess: {binary: sed, argv: [-n, {param: script}, file]}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::AgentValueIsCode, "subprocess.argv[1]")]
        );
    }

    #[test]
    fn a_sed_script_held_to_printing_is_not_code() {
        let sed = |pattern: &str, slot: &str| {
            findings(&format!(
                "name: t\ndescription: d\nparameters:\n  script: {{type: string, pattern_type: free_text, pattern: '{pattern}'}}\nsubprocess: {{binary: sed, argv: [-n, {slot}, file]}}\n"
            ))
        };
        let code = pair(codes::Code::AgentValueIsCode, "subprocess.argv[1]");
        let prints_only = SED_PRINTS_ONLY.replace('\'', "''");
        assert!(sed(&prints_only, "{param: script}").is_empty());
        assert!(sed("^[0-9]+(,[0-9]+)?p$", "{param: script}").is_empty());
        assert!(sed("^s/[a-z]*/[A-Z]*/g?$", "{param: script}").is_empty());
        assert!(sed("^s[|][a-z/]*[|][a-z/]*[|]g?$", "{param: script}").is_empty());
        // A script that may write a file, run a command or be anything.
        assert_eq!(
            sed("^s/[a-z]*/[a-z]*/[gw]*$", "{param: script}"),
            std::slice::from_ref(&code)
        );
        assert_eq!(
            sed("^[0-9]+[pe]$", "{param: script}"),
            std::slice::from_ref(&code)
        );
        assert_eq!(sed("^.+$", "{param: script}"), std::slice::from_ref(&code));
        assert_eq!(
            sed("^s[|][a-z|]*[|][a-z]*[|]$", "{param: script}"),
            std::slice::from_ref(&code)
        );
        // A prefix glued in front is not held by the pattern.
        assert_eq!(
            sed("^[0-9]+p$", "{param: script, prefix: x}"),
            std::slice::from_ref(&code)
        );
        // Nor is a program other than sed.
        let vim = findings(
            "name: t\ndescription: d\nparameters:\n  file: {type: string, pattern: '^[0-9]+p$'}\nsubprocess: {binary: vim, argv: [{param: file}]}\n",
        );
        assert_eq!(
            vim,
            [pair(codes::Code::AgentValueIsCode, "subprocess.argv[0]")]
        );
    }

    #[test]
    fn an_awk_program_held_to_printing_is_not_code() {
        let awk = |binary: &str, pattern: &str| {
            findings(&format!(
                "name: t\ndescription: d\nparameters:\n  program: {{type: string, pattern_type: free_text, pattern: '{pattern}'}}\nsubprocess: {{binary: {binary}, argv: [-F, ':', --, {{param: program}}, file]}}\n"
            ))
        };
        let code = pair(codes::Code::AgentValueIsCode, "subprocess.argv[3]");
        let prints_only = awk::prints_only().replace('\'', "''");
        for binary in ["awk", "gawk", "mawk", "nawk", "/usr/bin/awk"] {
            assert!(awk(binary, &prints_only).is_empty(), "{binary}");
        }
        assert!(awk("awk", r"^\{print \$[0-9]+\}$").is_empty());
        assert!(awk("awk", r"^NR(==|>=|<=)[0-9]+$").is_empty());
        assert!(awk("awk", r"^/[a-z]+/,/[a-z]+/$").is_empty());
        // A program that may pipe, redirect, run a command, or be anything.
        assert_eq!(
            awk("awk", r"^\{print \$[0-9]+ [>|] [a-z]+\}$"),
            std::slice::from_ref(&code)
        );
        assert_eq!(
            awk("gawk", r"^BEGIN \{(system|print)\(1\)\}$"),
            std::slice::from_ref(&code)
        );
        assert_eq!(awk("awk", "^.+$"), std::slice::from_ref(&code));
        // The sed language is not the awk one.
        let sed_language = SED_PRINTS_ONLY.replace('\'', "''");
        assert_eq!(awk("awk", &sed_language), std::slice::from_ref(&code));
    }

    #[test]
    fn one_language_within_another() {
        assert!(pattern_within("^a+$", "^a*$"));
        assert!(!pattern_within("^a*$", "^a+$"));
        assert!(pattern_within("^(ab|c)$", "^[abc]+$"));
        assert!(!pattern_within("^[a-d]$", "^[abc]$"));
        assert!(pattern_within("^[0-9]{1,3}p$", SED_PRINTS_ONLY));
        assert!(!pattern_within("^[0-9]{1,3}[pw]$", SED_PRINTS_ONLY));
        assert!(sed_prints_only("^[0-9]{1,3}p$"));
        assert!(!sed_prints_only("^[0-9]{1,3}[pw]$"));
        // The bytes of a non-ASCII character inside an address.
        assert!(sed_prints_only("^/(é|[a-z])+/p$"));
        assert!(!sed_prints_only("^/é/w$"));
        assert!(!sed_prints_only("^/[^/]+/p$"), "a newline ends the address");
        // Bytes beyond ASCII walk the UTF-8 automata alike.
        assert!(pattern_within("^é+$", "^[^a]+$"));
        assert!(!pattern_within("^[^a]+$", "^é+$"));
    }

    #[test]
    fn an_agent_may_not_choose_the_key_git_config_sets() {
        let config = |parameters: &str, argv: &str| {
            findings(&format!(
                "name: t\ndescription: d\nparameters:\n{parameters}\nsubprocess: {{binary: git, argv: {argv}}}\n"
            ))
        };
        let refused = [pair(codes::Code::AgentValueIsCode, "subprocess.argv[1]")];
        let key_value = "[config, {param: key}, {param: value}]";
        let value = "  value: {type: string, pattern: '^[a-z]+$'}";
        // Any key: `core.hooksPath` among them.
        assert_eq!(
            config(
                &format!("  key: {{type: string, pattern: '^[A-Za-z.]+$'}}\n{value}"),
                key_value
            ),
            refused
        );
        // A list of keys: refused when one of them runs a program.
        assert_eq!(
            config(
                &format!(
                    "  key: {{type: enum, enum_values: [user.name, core.sshCommand]}}\n{value}"
                ),
                key_value
            ),
            refused
        );
        assert!(
            config(
                &format!("  key: {{type: enum, enum_values: [user.name, user.email]}}\n{value}"),
                key_value
            )
            .is_empty()
        );
        assert!(
            config(
                &format!(
                    "  key: {{type: string, pattern: '^(?:user\\.name|core\\.bare)$'}}\n{value}"
                ),
                key_value
            )
            .is_empty()
        );
        // One list for the key and the value (as `hook learn` writes it):
        // refused when a key that runs a program is among its values.
        let operands = "[config, {param: operands}]";
        assert_eq!(
            config(
                "  operands: {type: array, pattern: '^(?:/tmp/evil|core\\.hooksPath)$'}",
                operands
            ),
            refused
        );
        assert!(
            config(
                "  operands: {type: array, pattern: '^(?:Ada|user\\.name)$'}",
                operands
            )
            .is_empty()
        );
        // One word, no value after it: a key read, whatever it is.
        assert!(
            config(
                "  key: {type: string, pattern: '^[A-Za-z.]+$'}",
                "[config, {param: key}]"
            )
            .is_empty()
        );
        // The same for a declaration with an input schema.
        assert_eq!(
            findings(
                "name: t\ndescription: d\ninput_schema: {type: object, properties: {key: {type: string, pattern: '^[a-z.]+$'}, value: {type: string, pattern: '^[a-z]+$'}}}\nsubprocess: {binary: git, argv: [config, {param: key}, {param: value}]}\n"
            ),
            refused
        );
    }

    #[test]
    fn psql_values_must_not_start_with_a_backslash() {
        let psql = |parameter: &str| {
            findings(&format!(
                "name: t\ndescription: d\nparameters:\n  query: {parameter}\nsubprocess: {{binary: psql, argv: [--no-psqlrc, {{param: query, flag: --command, form: joined}}]}}\n"
            ))
        };
        let meta = pair(codes::Code::AgentValueIsCode, "subprocess.argv[1]");
        assert_eq!(
            psql("{type: string, pattern_type: free_text}"),
            std::slice::from_ref(&meta)
        );
        assert_eq!(
            psql("{type: string, pattern: '^.+$'}"),
            std::slice::from_ref(&meta)
        );
        assert!(
            psql("{type: string, pattern_type: free_text, pattern: '^(?i:select|with)\\b[^;]*$'}")
                .is_empty()
        );
        assert!(psql("{type: enum, enum_values: [select 1, select 2]}").is_empty());
        assert_eq!(psql("{type: enum, enum_values: ['\\\\dt']}"), [meta]);
        // An output file that may start with `|` is a pipe into a shell.
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  out: {type: string, pattern_type: filepath}\nsubprocess: {binary: psql, argv: [{param: out, flag: -o}, -c, 'select 1']}\n",
        );
        assert!(
            found.contains(&pair(codes::Code::AgentValueIsCode, "subprocess.argv[0]")),
            "{found:?}"
        );
        // A template's flag is a word like a literal one: `mysql -e` takes
        // code (E115) whether `-e` is written as a word or as a slot's flag.
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  q: {type: string, pattern: '^[a-z ]+$'}\nsubprocess: {binary: mysql, argv: [{param: q, flag: -e}]}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::ShellCommandString, "subprocess.argv[0]")]
        );
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  code: {type: string}\nsubprocess: {binary: python3, argv: [{param: code, flag: -c}]}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::ShellCommandString, "subprocess.argv[0]")]
        );
        let found = findings(
            "name: t\ndescription: d\nparameters: {}\nsubprocess: {binary: psql, argv: ['-c', '\\\\! rm -rf x']}\n",
        );
        assert!(
            found.contains(&pair(codes::Code::ShellCommandString, "subprocess.argv[1]")),
            "{found:?}"
        );
    }

    #[test]
    fn regex_dialects_and_combined_patterns() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  p: {type: string, pattern_type: regex}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::Shape, "parameters.p.regex_dialect")]
        );
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  p: {type: string, pattern_type: free_text, regex_dialect: ere}\n",
        );
        assert_eq!(
            found,
            [pair(
                codes::Code::PatternMisplaced,
                "parameters.p.regex_dialect"
            )]
        );
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  p: {type: string, pattern_type: regex, regex_dialect: posix}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::Shape, "parameters.p.regex_dialect")]
        );
        // E108 is retired: a pattern and a pattern type combine.
        assert!(
            findings(
                "name: t\ndescription: d\nparameters:\n  p: {type: string, pattern_type: filepath, pattern: '^src/.*$'}\n",
            )
            .is_empty()
        );
    }

    #[test]
    fn confinement_applies_to_paths_and_names_path_roots() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  p: {type: string, relative_only: true}\n",
        );
        assert_eq!(
            found,
            [pair(
                codes::Code::PatternMisplaced,
                "parameters.p.relative_only"
            )]
        );
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  p: {type: string, pattern_type: filepath, under: [relative/dir]}\n",
        );
        assert_eq!(found, [pair(codes::Code::Shape, "parameters.p.under[0]")]);
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  p: {type: string, pattern_type: filepath, under: ['{dst}']}\n  dest: {type: string, pattern_type: filepath}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::UserArgUnknown, "parameters.p.under")]
        );
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  p: {type: string, pattern_type: filepath, under: ['{label}']}\n  label: {type: string}\n",
        );
        assert_eq!(
            found,
            [pair(codes::Code::PatternMisplaced, "parameters.p.under")]
        );
        assert!(
            findings(
                "name: t\ndescription: d\nparameters:\n  p: {type: array, pattern_type: filepath, under: ['{dest}', $CWD, /srv/data], must_exist: true}\n  dest: {type: string, pattern_type: filepath, relative_only: true}\n",
            )
            .is_empty()
        );
    }
}
