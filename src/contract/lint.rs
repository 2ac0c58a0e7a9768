//! The registration lint's cross-field rules (DESIGN.md §4). Field-level
//! problems (bad regexes, unanchored patterns, unknown fields, incomplete
//! exit codes) are found while parsing; these run on the parsed
//! declaration. Duplicate names are a registry-level check.

use std::path::Path;

use super::codes;
use super::command_string::{UserArguments, command_string_diagnostics};
use super::declaration::{Declaration, ParamType};
use crate::report::Diagnostic;

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
    no_shell_command_string,
    required_has_no_default,
    identifiers_have_patterns,
    raw_shell_in_scripts,
];

pub fn lint_declaration(declaration: &Declaration, context: &LintContext<'_>) -> Vec<Diagnostic> {
    CHECKS
        .iter()
        .flat_map(|check| check(declaration, context))
        .collect()
}

fn user_controlled_args_exist(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let inputs = declaration.input_names();
    subprocess
        .user_controlled_args
        .iter()
        .enumerate()
        .filter(|(_, name)| !inputs.contains(&name.as_str()))
        .map(|(index, name)| {
            let hint = super::naming::closest(name, inputs.iter().copied())
                .map(|closest| format!("; did you mean `{closest}`?"))
                .unwrap_or_default();
            Diagnostic::error(
                codes::USER_ARG_UNKNOWN,
                format!("`{name}` names no parameter{hint}"),
            )
            .with_field(format!("subprocess.user_controlled_args[{index}]"))
        })
        .collect()
}

/// An interpreter running a script file that itself runs a shell (see
/// `raw_shell`).
fn raw_shell_in_scripts(declaration: &Declaration, context: &LintContext<'_>) -> Vec<Diagnostic> {
    super::raw_shell::raw_shell_in_scripts(declaration, context.file)
}

/// A shell or an interpreter handed a command string turns the argv back
/// into code, undoing everything the guard does (see `command_string`).
fn no_shell_command_string(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let leading_dash = subprocess
        .user_controlled_args
        .iter()
        .find(|name| declaration.allows_leading_dash(name))
        .map(String::as_str);
    let users = UserArguments {
        any: !subprocess.user_controlled_args.is_empty(),
        leading_dash,
    };
    command_string_diagnostics(subprocess, users)
}

fn required_has_no_default(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    declaration
        .parameters()
        .iter()
        .filter(|parameter| parameter.required && parameter.default.is_some())
        .map(|parameter| {
            Diagnostic::warning(
                codes::REQUIRED_WITH_DEFAULT,
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
            Diagnostic::warning(
                codes::IDENTIFIER_UNPATTERNED,
                format!(
                    "`{}` looks like an identifier but has no `pattern`, `pattern_type` or `enum_values`; any string will pass (use `pattern_type: alphanumeric_id`, or `type: resource_id`)",
                    parameter.name
                ),
            )
            .with_field(format!("parameters.{}", parameter.name))
        })
        .collect()
}
