//! The registration lint's cross-field rules (DESIGN.md §4). Field-level
//! problems (bad regexes, unanchored patterns, unknown fields, incomplete
//! exit codes) are found while parsing; these run on the parsed
//! declaration. Duplicate names are a registry-level check.

use std::path::Path;

use super::codes;
use super::command_string::{UserArguments, command_string_diagnostics};
use super::declaration::{
    DangerLevel, Declaration, EnvValue, FlagForm, Inputs, ParamType, Subprocess,
};
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
    every_parameter_reaches_the_subprocess,
    argv_slots_fit_their_types,
    env_params_exist,
    env_runs_no_agent_code,
    sensitive_values_stay_off_argv,
    no_shell_command_string,
    required_has_no_default,
    identifiers_have_patterns,
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
        Diagnostic::error(
            codes::USER_ARG_UNKNOWN,
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
            Diagnostic::error(
                codes::ENV_PARAM_UNKNOWN,
                format!("`{param}` names no parameter{hint}"),
            )
            .with_field(format!("subprocess.env.{variable}"))
        })
        .collect()
}

/// Whether programs read the variable `name` as code, as a program to run
/// or as a library to load. Checked case-insensitively: Windows folds case.
pub fn env_runs_code(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    const EXACT: &[&str] = &[
        "BASH_ENV",
        "ENV",
        "PROMPT_COMMAND",
        "PS4",
        "SHELLOPTS",
        "BASHOPTS",
        "IFS",
        "PATH",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONINSPECT",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "NODE_OPTIONS",
        "NODE_PATH",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "JDK_JAVA_OPTIONS",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_EXTERNAL_DIFF",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_ASKPASS",
        "GIT_EXEC_PATH",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "SSH_ASKPASS",
        "PAGER",
        "MANPAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "SHELL",
        "SUDO_ASKPASS",
        "PROMPT",
        "ZDOTDIR",
        "HISTFILE",
    ];
    const PREFIXES: &[&str] = &["LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG_"];
    EXACT.contains(&upper.as_str()) || PREFIXES.iter().any(|prefix| upper.starts_with(prefix))
}

/// An agent's value in `LD_PRELOAD` or `BASH_ENV` is code that runs, which
/// no pattern on the value can make safe.
fn env_runs_no_agent_code(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    env_params(subprocess)
        .filter(|(variable, _)| env_runs_code(variable))
        .map(|(variable, param)| {
            Diagnostic::error(
                codes::ENV_RUNS_CODE,
                format!(
                    "`{variable}` is read as code or as a program to run, so an agent's `{param}` would run; set it to a literal, or leave it out"
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
                Diagnostic::warning(
                    codes::SENSITIVE_ON_ARGV,
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
            Diagnostic::error(
                codes::PARAMETER_UNUSED,
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
                Diagnostic::error(codes::ARGV_SLOT_INVALID, message)
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
    super::raw_shell::raw_shell_in_scripts(declaration, context.file)
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
    if let Some(real) = super::code_words::disguised_program(&subprocess.binary, base) {
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
    let leading_dash = subprocess
        .user_controlled_args
        .iter()
        .find(|name| declaration.allows_leading_dash(name))
        .map(String::as_str);
    let users = UserArguments {
        any: !subprocess.user_controlled_args.is_empty(),
        leading_dash,
    };
    let mut found = command_string_diagnostics(subprocess, users);
    // A command that lets the agent choose the program and says it can do
    // anything (`destructive`, as the built-in `shell_exec`) has been
    // warned enough; the guard still checks each call.
    let acknowledged = declaration.danger_level == Some(DangerLevel::Destructive);
    found.extend(
        super::code_words::code_word_diagnostics(subprocess)
            .into_iter()
            .filter(|diagnostic| {
                !(acknowledged && diagnostic.code == codes::AGENT_CHOOSES_PROGRAM)
            }),
    );
    found
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

    fn pair(code: &str, field: &str) -> (String, String) {
        (code.to_owned(), field.to_owned())
    }

    #[test]
    fn a_parameter_that_reaches_nothing_is_an_error() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  a: {type: string}\n  b: {type: string}\nsubprocess: {binary: t, argv: [x, {param: a}]}\n",
        );
        assert_eq!(found, [pair(codes::PARAMETER_UNUSED, "parameters.b")]);
        // Legacy form too: the old built-in `deploy` dropped `ticket-ref`.
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  a: {type: string}\n  b: {type: string}\nsubprocess: {binary: t, user_controlled_args: [a]}\n",
        );
        assert_eq!(found, [pair(codes::PARAMETER_UNUSED, "parameters.b")]);
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
            [pair(codes::USER_ARG_UNKNOWN, "subprocess.argv[1].param")]
        );
    }

    #[test]
    fn a_slot_whose_type_cannot_take_its_form_is_an_error() {
        let found = findings(
            "name: t\ndescription: d\nparameters:\n  all: {type: boolean}\nsubprocess: {binary: t, argv: [{param: all, flag: --all, form: joined}]}\n",
        );
        assert_eq!(
            found,
            [pair(codes::ARGV_SLOT_INVALID, "subprocess.argv[0]")]
        );
        let found = findings(
            "name: t\ndescription: d\ninput_schema:\n  type: object\n  properties:\n    o: {type: object}\nsubprocess: {binary: t, argv: [{param: o, flag: --o}]}\n",
        );
        assert_eq!(
            found,
            [pair(codes::ARGV_SLOT_INVALID, "subprocess.argv[0]")]
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
        assert_eq!(both, [pair(codes::SHAPE, "subprocess.hardcoded_args")]);
    }
}
