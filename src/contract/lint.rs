//! The registration lint's cross-field rules (DESIGN.md §4). Field-level
//! problems (bad regexes, unanchored patterns, unknown fields, incomplete
//! exit codes) are found while parsing; these run on the parsed
//! declaration. Duplicate names are a registry-level check.

use std::path::Path;

use super::codes;
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

/// Shells, by the basename of the binary (a `.exe` suffix ignored).
const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "csh",
    "tcsh",
    "fish",
    "cmd",
    "powershell",
    "pwsh",
];

fn shell_name(program: &str) -> Option<String> {
    let base = program
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(program)
        .to_ascii_lowercase();
    let base = base.strip_suffix(".exe").unwrap_or(&base).to_owned();
    SHELLS.contains(&base.as_str()).then_some(base)
}

/// Whether `arg` makes `shell` run its next argument as a command string.
fn is_command_string_flag(shell: &str, arg: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    match shell {
        "cmd" => matches!(lower.as_str(), "/c" | "/k" | "/r"),
        "powershell" | "pwsh" => {
            let Some(name) = lower.strip_prefix('-').or_else(|| lower.strip_prefix('/')) else {
                return false;
            };
            let name = name.trim_start_matches('-');
            // PowerShell takes any unambiguous prefix of a parameter name.
            matches!(name, "c" | "e" | "ec")
                || (name.len() >= 3
                    && ("command".starts_with(name) || "encodedcommand".starts_with(name)))
        }
        // A short-option cluster holding `c` (`-c`, `-ec`, `-lc`), or
        // fish's `--command`.
        _ => {
            lower == "--command"
                || lower.strip_prefix('-').is_some_and(|cluster| {
                    !cluster.starts_with('-')
                        && !cluster.is_empty()
                        && cluster.chars().all(|ch| ch.is_ascii_alphabetic())
                        && cluster.contains('c')
                })
        }
    }
}

/// A shell run with `-c` turns the argv back into a command string, undoing
/// everything the guard does. Looks through wrappers too (`env bash -c`).
fn no_shell_command_string(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let program = std::iter::once(("subprocess.binary".to_owned(), subprocess.binary.as_str()))
        .chain(
            subprocess
                .hardcoded_args
                .iter()
                .enumerate()
                .map(|(index, arg)| (format!("subprocess.hardcoded_args[{index}]"), arg.as_str())),
        );
    let mut shell = None;
    let mut diagnostics = Vec::new();
    for (field, word) in program {
        if let Some(found) = shell_name(word) {
            shell = Some(found);
            continue;
        }
        if let Some(shell) = &shell
            && is_command_string_flag(shell, word)
        {
            diagnostics.push(
                Diagnostic::error(
                    codes::SHELL_COMMAND_STRING,
                    format!(
                        "`{shell} {word}` runs a command string through a shell, which undoes argv safety; run the program directly, or a script file (`{shell} --norc --noprofile -- script`)"
                    ),
                )
                .with_field(field),
            );
        }
    }
    diagnostics
}

fn defaults_pass_their_own_checks(
    declaration: &Declaration,
    _: &LintContext<'_>,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for parameter in declaration.parameters() {
        let Some(default) = &parameter.default else {
            continue;
        };
        let violations = crate::guard::check_default(declaration, parameter, default);
        if let Some(first) = violations.first() {
            diagnostics.push(
                Diagnostic::error(
                    codes::DEFAULT_INVALID,
                    format!(
                        "the default {default} is rejected by the parameter's own checks ({}): {}",
                        first.rule.as_str(),
                        first.message
                    ),
                )
                .with_field(format!("parameters.{}.default", parameter.name)),
            );
        }
    }
    diagnostics
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

    #[test]
    fn command_string_flags() {
        for (shell, arg) in [
            ("bash", "-c"),
            ("sh", "-ec"),
            ("bash", "-lc"),
            ("fish", "--command"),
            ("cmd", "/C"),
            ("pwsh", "-Command"),
            ("powershell", "-c"),
            ("pwsh", "-EncodedCommand"),
            ("pwsh", "-e"),
        ] {
            assert!(is_command_string_flag(shell, arg), "{shell} {arg}");
        }
        for (shell, arg) in [
            ("bash", "--norc"),
            ("bash", "--noprofile"),
            ("bash", "-e"),
            ("bash", "--"),
            ("sh", "script.sh"),
            ("pwsh", "-File"),
            ("pwsh", "-NoProfile"),
            ("cmd", "/q"),
        ] {
            assert!(!is_command_string_flag(shell, arg), "{shell} {arg}");
        }
    }

    #[test]
    fn shells_by_basename() {
        assert_eq!(shell_name("/bin/bash").as_deref(), Some("bash"));
        assert_eq!(
            shell_name("C:\\Windows\\System32\\cmd.exe").as_deref(),
            Some("cmd")
        );
        assert_eq!(shell_name("PowerShell.exe").as_deref(), Some("powershell"));
        assert_eq!(shell_name("kubectl"), None);
        assert_eq!(shell_name("bashful"), None);
    }
}
