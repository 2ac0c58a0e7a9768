//! `--value-from-env PARAM=VAR` and `--value-from-file PARAM=PATH`: a
//! sensitive value that never appears on aigent's own command line (where
//! `ps` and /proc show it to every local user) nor in any output.
//!
//! Only a parameter declared `sensitive` may be supplied this way, so the
//! guard's redaction covers it everywhere: the envelope, the audit log and
//! the terminal. The value joins the agent's arguments as if it had been
//! given among them, and is checked like any other.

use std::path::Path;

use clap::Args;

use aigent::contract::Declaration;

use crate::cli::CliError;

/// A secret read from a file is at most this long.
const MAX_SECRET_FILE_BYTES: u64 = 64 * 1024;

#[derive(Debug, Args, Default)]
pub struct SuppliedValues {
    /// Take the sensitive parameter PARAM's value from the environment variable VAR (repeatable)
    #[arg(long, value_name = "PARAM=VAR")]
    pub value_from_env: Vec<String>,

    /// Take the sensitive parameter PARAM's value from the file PATH, without its final newline (repeatable)
    #[arg(long, value_name = "PARAM=PATH")]
    pub value_from_file: Vec<String>,

    /// Accept a sensitive parameter's value among the arguments, with a warning (refused otherwise: `ps` shows aigent's command line to every local user)
    #[arg(long)]
    pub allow_secret_argv: bool,
}

impl SuppliedValues {
    /// The sensitive parameters whose values are among the agent's
    /// `arguments`, that is on aigent's own command line (CLI Agent Spec
    /// REQ-C-016): refused, unless `--allow-secret-argv` makes each a
    /// warning. The values themselves are never echoed.
    pub fn secrets_on_argv(
        &self,
        declaration: &Declaration,
        arguments: &[String],
    ) -> Result<Vec<String>, CliError> {
        let given = given_parameters(arguments);
        let secrets: Vec<&str> = declaration
            .input_names()
            .into_iter()
            .filter(|name| declaration.is_sensitive(name) && given.iter().any(|g| g == name))
            .collect();
        let Some(first) = secrets.first() else {
            return Ok(Vec::new());
        };
        let how =
            |name: &str| format!("--value-from-env {name}=VAR or --value-from-file {name}=PATH");
        if self.allow_secret_argv {
            return Ok(secrets
                .iter()
                .map(|name| {
                    format!(
                        "`{name}` is sensitive and its value was on aigent's command line, where every local user can read it; next time pass {}",
                        how(name)
                    )
                })
                .collect());
        }
        let names: Vec<String> = secrets.iter().map(|name| format!("`{name}`")).collect();
        let mut err = CliError::usage(format!(
            "{} {} declared sensitive, and {} on aigent's command line, where every local user can read it (`ps`, /proc/PID/cmdline); nothing was checked or run",
            names.join(", "),
            if secrets.len() == 1 { "is" } else { "are" },
            if secrets.len() == 1 { "its value is" } else { "their values are" },
        ))
        .with_hint(format!("pass it with {}", how(first)))
        .with_hint("--allow-secret-argv accepts it with a warning");
        err.body.phase = Some(aigent::report::Phase::Validation);
        err.body.field = Some((*first).to_owned());
        err.body.fix_required = Some(format!(
            "pass each sensitive value with --value-from-env or --value-from-file, e.g. {}",
            how(first)
        ));
        Err(err)
    }

    /// The agent's arguments with the supplied values added, in the same
    /// form (flags or `--json`) they came in.
    pub fn merge_into(
        &self,
        declaration: &Declaration,
        arguments: &[String],
    ) -> Result<Vec<String>, CliError> {
        let mut values = Vec::new();
        for spec in &self.value_from_env {
            let (param, variable) = split(spec, "--value-from-env", "PARAM=VAR")?;
            check_param(declaration, param, "--value-from-env")?;
            let value = std::env::var(variable).map_err(|err| {
                let why = match err {
                    std::env::VarError::NotPresent => "is not set",
                    std::env::VarError::NotUnicode(_) => "is not valid UTF-8",
                };
                CliError::usage(format!(
                    "--value-from-env {param}={variable}: the variable `{variable}` {why}"
                ))
            })?;
            values.push((param.to_owned(), value));
        }
        for spec in &self.value_from_file {
            let (param, path) = split(spec, "--value-from-file", "PARAM=PATH")?;
            check_param(declaration, param, "--value-from-file")?;
            values.push((param.to_owned(), read_secret_file(param, Path::new(path))?));
        }
        for (index, (param, _)) in values.iter().enumerate() {
            if values[..index].iter().any(|(earlier, _)| earlier == param) {
                return Err(CliError::usage(format!(
                    "`{param}` is supplied twice by --value-from-env/--value-from-file"
                )));
            }
        }
        merge(arguments, values)
    }
}

fn split<'a>(spec: &'a str, flag: &str, form: &str) -> Result<(&'a str, &'a str), CliError> {
    spec.split_once('=')
        .filter(|(param, source)| !param.is_empty() && !source.is_empty())
        .ok_or_else(|| CliError::usage(format!("{flag} takes {form}, not `{spec}`")))
}

fn check_param(declaration: &Declaration, param: &str, flag: &str) -> Result<(), CliError> {
    if !declaration.input_names().contains(&param) {
        return Err(CliError::usage(format!(
            "{flag}: `{}` declares no parameter `{param}`",
            declaration.name
        )));
    }
    if !declaration.is_sensitive(param) {
        return Err(CliError::usage(format!(
            "{flag}: `{param}` is not declared sensitive, so its value could be shown; pass it among the arguments instead"
        )));
    }
    Ok(())
}

fn read_secret_file(param: &str, path: &Path) -> Result<String, CliError> {
    let shown = path.display();
    let bytes = aigent::fsutil::read_regular_file(path, MAX_SECRET_FILE_BYTES)
        .map_err(|err| CliError::usage(format!("--value-from-file {param}={shown}: {err}")))?;
    let mut text = String::from_utf8(bytes).map_err(|_| {
        CliError::usage(format!(
            "--value-from-file {param}={shown}: the file is not UTF-8 text"
        ))
    })?;
    // Files written by editors and `echo` end in a newline that is not part
    // of the secret.
    if text.ends_with('\n') {
        text.pop();
        if text.ends_with('\r') {
            text.pop();
        }
    }
    Ok(text)
}

/// Adds `values` to the agent's arguments: `--PARAM=VALUE` words, or keys
/// of the `--json` object. A parameter the agent gave as well is refused
/// rather than silently replaced.
fn merge(arguments: &[String], values: Vec<(String, String)>) -> Result<Vec<String>, CliError> {
    use aigent::guard::RawArguments;
    if values.is_empty() {
        return Ok(arguments.to_vec());
    }
    match RawArguments::from_tail(arguments) {
        RawArguments::Json(text) => {
            let object = serde_json::from_str(text).map_err(|_| {
                CliError::usage(
                    "--value-from-env/--value-from-file need --json to be a JSON object",
                )
            })?;
            merge_object(object, values)
        }
        // Not made from words; merged the same way.
        RawArguments::Object(object) => merge_object(object.clone(), values),
        RawArguments::Flags(words) => {
            let mut merged = words.to_vec();
            for (param, value) in values {
                let flag = format!("--{param}");
                if words
                    .iter()
                    .any(|word| word == &flag || word.starts_with(&format!("{flag}=")))
                {
                    return Err(given_twice(&param));
                }
                merged.push(format!("{flag}={value}"));
            }
            Ok(merged)
        }
    }
}

fn merge_object(
    mut object: serde_json::Map<String, serde_json::Value>,
    values: Vec<(String, String)>,
) -> Result<Vec<String>, CliError> {
    for (param, value) in values {
        if object.contains_key(&param) {
            return Err(given_twice(&param));
        }
        object.insert(param, value.into());
    }
    Ok(vec![
        "--json".to_owned(),
        serde_json::Value::Object(object).to_string(),
    ])
}

/// The parameter names the agent's arguments give: `--name` flags, or the
/// keys of the `--json` object (none when it is not an object).
fn given_parameters(arguments: &[String]) -> Vec<String> {
    use aigent::guard::RawArguments;
    match RawArguments::from_tail(arguments) {
        RawArguments::Json(text) => {
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
                .map(|object| object.keys().cloned().collect())
                .unwrap_or_default()
        }
        RawArguments::Object(object) => object.keys().cloned().collect(),
        RawArguments::Flags(words) => words
            .iter()
            .filter_map(|word| word.strip_prefix("--"))
            .map(|flag| {
                flag.split_once('=')
                    .map_or(flag, |(name, _)| name)
                    .to_owned()
            })
            .collect(),
    }
}

fn given_twice(param: &str) -> CliError {
    CliError::usage(format!(
        "`{param}` is given among the arguments and by --value-from-env/--value-from-file; give it once"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn flags_gain_a_joined_flag() {
        let merged = merge(
            &words(&["--user", "ada"]),
            vec![("token".into(), "-s3cret".into())],
        )
        .unwrap();
        assert_eq!(merged, ["--user", "ada", "--token=-s3cret"]);
    }

    #[test]
    fn json_gains_a_key() {
        let merged = merge(
            &words(&["--json", r#"{"user": "ada"}"#]),
            vec![("token".into(), "s3cret".into())],
        )
        .unwrap();
        assert_eq!(merged[0], "--json");
        let object: serde_json::Value = serde_json::from_str(&merged[1]).unwrap();
        assert_eq!(
            object,
            serde_json::json!({"user": "ada", "token": "s3cret"})
        );
    }

    #[test]
    fn a_value_given_twice_is_refused_without_echoing_it() {
        for arguments in [
            words(&["--token", "agent-value"]),
            words(&["--token=agent-value"]),
            words(&["--json", r#"{"token": "agent-value"}"#]),
        ] {
            let err = merge(&arguments, vec![("token".into(), "s3cret".into())]).unwrap_err();
            let shown = format!("{err:?}");
            assert!(!shown.contains("s3cret"), "{shown}");
        }
    }
}
