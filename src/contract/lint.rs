//! The registration lint's cross-field rules (DESIGN.md §4). Field-level
//! problems (bad regexes, unanchored patterns, unknown fields, incomplete
//! exit codes) are found while parsing; these run on the parsed
//! declaration. Duplicate names are a registry-level check.

use std::path::Path;

use super::codes;
use super::command_string::{UserArguments, command_string_diagnostics};
use super::declaration::{Declaration, Inputs, ParamType};
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
    defaults_pass_their_own_checks,
    required_has_no_default,
    identifiers_have_patterns,
    super::raw_shell::raw_shell_in_scripts,
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
            let hint = super::closest(name, inputs.iter().copied())
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

fn defaults_pass_their_own_checks(
    declaration: &Declaration,
    _: &LintContext<'_>,
) -> Vec<Diagnostic> {
    let mut found: Vec<(String, &serde_json::Value, Vec<crate::guard::Violation>)> = Vec::new();
    match &declaration.inputs {
        Inputs::Parameters(parameters) => {
            for parameter in parameters {
                if let Some(default) = &parameter.default {
                    found.push((
                        format!("parameters.{}.default", parameter.name),
                        default,
                        crate::guard::check_default(declaration, parameter, default),
                    ));
                }
            }
        }
        // A default fills in for an absent property and reaches the argv,
        // so it gets the schema's checks and the guard's rules too.
        Inputs::InputSchema(schema) => {
            for (name, property) in schema.properties() {
                if let Some(default) = property.get("default").filter(|value| !value.is_null()) {
                    found.push((
                        format!("input_schema.properties.{name}.default"),
                        default,
                        crate::guard::check_schema_default(declaration, name, default),
                    ));
                }
            }
        }
    }
    found
        .into_iter()
        .filter_map(|(field, default, violations)| {
            let first = violations.into_iter().next()?;
            Some(
                Diagnostic::error(
                    codes::DEFAULT_INVALID,
                    format!(
                        "the default {default} is rejected by the parameter's own checks ({}): {}",
                        first.rule.as_str(),
                        first.message
                    ),
                )
                .with_field(field),
            )
        })
        .collect()
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
                && looks_like_identifier(&parameter.name)
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

/// `id`, `*-id`, `*_id`, `slug`, `*-name`, `*_name`, `key`, `*-key`, `*_key`.
pub fn looks_like_identifier(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(lower.as_str(), "id" | "slug" | "key")
        || [
            "-id", "_id", "-name", "_name", "-key", "_key", "-slug", "_slug",
        ]
        .iter()
        .any(|suffix| lower.ends_with(suffix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_names() {
        for name in [
            "id",
            "cluster-id",
            "user_id",
            "slug",
            "branch-name",
            "key",
            "api-key",
            "ID",
        ] {
            assert!(looks_like_identifier(name), "{name}");
        }
        for name in ["message", "idle", "keyboard", "version", "name", "video"] {
            assert!(!looks_like_identifier(name), "{name}");
        }
    }
}
