//! A declaration whose program an agent chooses (W105, `env -- {argv}` as
//! the built-in `shell_exec`): the lint cannot see the command line, so
//! each call's words are checked here with the lint's own rules, and one
//! that hands a command string to a shell or an interpreter (`sh -c`,
//! `python -c`, `sed 1e`, `env BASH_ENV=...`) is refused before it runs.

use super::{ArgValue, Rule, ValidatedArguments, Violation};
use crate::contract::programs::code_words::{agent_program_parameter, proposed_command_problems};
use crate::contract::{ArgvPart, Declaration, FlagForm};

/// The violation for a proposed command line that runs a command string.
pub(super) fn check(
    declaration: &Declaration,
    validated: &ValidatedArguments,
) -> Option<Violation> {
    let subprocess = declaration.subprocess.as_ref()?;
    let parameter = agent_program_parameter(subprocess)?;
    let words = proposed_words(declaration, validated);
    let problem = proposed_command_problems(&words).into_iter().next()?;
    Some(Violation::new(
        parameter,
        Rule::CommandString,
        None,
        "a program and its arguments, with no command string for a shell or an interpreter",
        problem,
    ))
}

/// The command line `run` would build, as far as the check needs it: each
/// literal, and each slot's flag and values.
fn proposed_words(declaration: &Declaration, validated: &ValidatedArguments) -> Vec<String> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let mut words = vec![subprocess.binary.clone()];
    for part in &subprocess.argv {
        match part {
            ArgvPart::Literal(text) => words.push(text.clone()),
            ArgvPart::Param(slot) => {
                let Some(value) = validated.get(&slot.param) else {
                    continue;
                };
                if let (ArgValue::Boolean(on), Some(flag)) = (value, &slot.flag) {
                    if *on {
                        words.push(flag.clone());
                    }
                    continue;
                }
                for item in value_words(value) {
                    let item = format!("{}{item}", slot.prefix);
                    match (&slot.flag, slot.form) {
                        (Some(flag), FlagForm::Joined) => words.push(format!("{flag}={item}")),
                        (Some(flag), FlagForm::Separate) => {
                            words.push(flag.clone());
                            words.push(item);
                        }
                        (None, _) => words.push(item),
                    }
                }
            }
        }
    }
    words
}

fn value_words(value: &ArgValue) -> Vec<String> {
    match value {
        ArgValue::String(text) => vec![text.clone()],
        ArgValue::Integer(number) => vec![number.to_string()],
        ArgValue::Number(number) => vec![number.as_str().to_owned()],
        ArgValue::Boolean(flag) => vec![flag.to_string()],
        ArgValue::Array(items) => items.clone(),
        ArgValue::List(items) => items.iter().flat_map(value_words).collect(),
        ArgValue::Json(_) => Vec::new(),
    }
}
