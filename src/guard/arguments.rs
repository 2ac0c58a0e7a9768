//! Raw arguments as the command line gives them: everything after the
//! command name, either `--param value` flags or a single `--json '{...}'`.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::rule::Rule;
use super::violation::Violation;
use crate::contract::{ParamType, Parameter};

/// The arguments as given, before any checking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawArguments<'a> {
    /// `--name value`, `--name=value`, a bare `--flag` for a boolean, and a
    /// repeated `--name` for each item of an array.
    Flags(&'a [String]),
    /// The text of a JSON object keyed by parameter name.
    Json(&'a str),
    /// A JSON object keyed by parameter name that arrived already parsed
    /// (an MCP `tools/call`'s `arguments`): checked as `Json` is, without
    /// a text. The parser that made it decided what a repeated key means
    /// and read each number into a 64-bit integer or float, so there is
    /// no duplicate key left to refuse and no exact number text to keep:
    /// a number's text is serde_json's rendering of it.
    Object(&'a Map<String, Value>),
}

impl<'a> RawArguments<'a> {
    /// Reads the tail of a command line: `--json TEXT` or `--json=TEXT` on
    /// its own is JSON, anything else is flags (where a stray `--json` is
    /// then reported as an unknown parameter).
    pub fn from_tail(tail: &'a [String]) -> Self {
        match tail {
            [flag, text] if flag == "--json" => Self::Json(text),
            [single] => match single.strip_prefix("--json=") {
                Some(text) => Self::Json(text),
                None => Self::Flags(tail),
            },
            _ => Self::Flags(tail),
        }
    }
}

/// A value as it arrived, before typing.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// Every occurrence of a flag, in order.
    Texts(Vec<String>),
    Json(Value),
}

/// Splits flags into values per declared parameter; unknown flags, stray
/// positional words and missing values become violations.
pub fn parse_flags(
    tokens: &[String],
    parameters: &[Parameter],
) -> (HashMap<String, Given>, Vec<Violation>) {
    let mut given: HashMap<String, Given> = HashMap::new();
    let mut violations = Vec::new();
    let declared = |name: &str| parameters.iter().find(|parameter| parameter.name == name);
    let names_a_parameter = |token: &str| {
        token
            .strip_prefix("--")
            .map(|rest| rest.split_once('=').map_or(rest, |(name, _)| name))
            .is_some_and(|name| declared(name).is_some())
    };
    let mut index = 0;
    // A stray word right after a sensitive value is likely more of it
    // (`--token abc def`), so it is not shown either.
    let mut after_sensitive = false;
    while index < tokens.len() {
        let token = &tokens[index];
        index += 1;
        let Some(flag) = token.strip_prefix("--").filter(|flag| !flag.is_empty()) else {
            let mut violation = unexpected_argument(token, parameters);
            violation.sensitive = after_sensitive;
            violations.push(violation);
            continue;
        };
        after_sensitive = false;
        let (name, inline_value) = match flag.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (flag, None),
        };
        if name == "json" {
            violations.push(misplaced_json());
            if inline_value.is_none() && index < tokens.len() {
                index += 1;
            }
            continue;
        }
        let Some(parameter) = declared(name) else {
            violations.push(unknown_parameter(name, None, parameters));
            // Skip the unknown flag's value, so it is not reported again as
            // a stray word.
            if inline_value.is_none()
                && tokens
                    .get(index)
                    .is_some_and(|next| !next.starts_with("--"))
            {
                index += 1;
            }
            continue;
        };
        let value = match inline_value {
            Some(value) => value,
            None if parameter.kind == ParamType::Boolean => {
                match tokens.get(index).map(String::as_str) {
                    Some(word @ ("true" | "false")) => {
                        index += 1;
                        word.to_owned()
                    }
                    _ => "true".to_owned(),
                }
            }
            None => match tokens.get(index) {
                // The next word is the value, even when it starts with `-`
                // (the rules decide about that), unless it is another
                // declared flag.
                Some(next) if !names_a_parameter(next) => {
                    index += 1;
                    next.clone()
                }
                _ => {
                    violations.push(Violation::new(
                        name,
                        Rule::MissingValue,
                        None,
                        format!("--{name} VALUE"),
                        format!("`--{name}` has no value"),
                    ));
                    continue;
                }
            },
        };
        after_sensitive = parameter.sensitive;
        match given
            .entry(name.to_owned())
            .or_insert_with(|| Given::Texts(Vec::new()))
        {
            Given::Texts(values) => values.push(value),
            Given::Json(_) => {}
        }
    }
    (given, violations)
}

/// `--json` mixed with flags, or without its object.
pub fn misplaced_json() -> Violation {
    Violation::new(
        "",
        Rule::Json,
        None,
        "--json '{...}' as the only argument after the command name",
        "`--json` takes one JSON object and must be the only argument after the command name",
    )
}

fn unexpected_argument(token: &str, parameters: &[Parameter]) -> Violation {
    let mut violation = Violation::new(
        "",
        Rule::UnexpectedArgument,
        Some(token.to_owned()),
        expected_flags(parameters),
        format!("`{token}` is not a `--name value` argument"),
    );
    if let Some(single) = token.strip_prefix('-')
        && let Some(closest) = crate::contract::closest(single, parameter_names(parameters))
    {
        violation = violation.with_suggestion(format!("--{closest}"));
    }
    violation
}

/// An argument the declaration does not have, with the closest declared
/// name as the suggestion.
pub fn unknown_parameter(name: &str, value: Option<String>, parameters: &[Parameter]) -> Violation {
    let mut violation = Violation::new(
        name,
        Rule::UnknownParameter,
        value,
        expected_flags(parameters),
        format!("`{name}` is not a declared parameter"),
    );
    if let Some(closest) = crate::contract::closest(name, parameter_names(parameters)) {
        violation = violation.with_suggestion(closest);
    }
    violation
}

fn parameter_names(parameters: &[Parameter]) -> impl Iterator<Item = &str> {
    parameters.iter().map(|parameter| parameter.name.as_str())
}

fn expected_flags(parameters: &[Parameter]) -> String {
    if parameters.is_empty() {
        return "no arguments".to_owned();
    }
    let names: Vec<String> = parameters
        .iter()
        .map(|parameter| format!("--{}", parameter.name))
        .collect();
    format!("one of {}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    fn params() -> Vec<Parameter> {
        vec![
            Parameter::new("cluster-id", ParamType::String),
            Parameter::new("force", ParamType::Boolean),
            Parameter::new("tags", ParamType::Array),
            Parameter::new("count", ParamType::Integer),
        ]
    }

    #[test]
    fn json_tail_is_recognized() {
        let tail = tokens(&["--json", "{}"]);
        assert_eq!(RawArguments::from_tail(&tail), RawArguments::Json("{}"));
        let tail = tokens(&["--json={\"a\":1}"]);
        assert_eq!(
            RawArguments::from_tail(&tail),
            RawArguments::Json("{\"a\":1}")
        );
        let tail = tokens(&["--json", "{}", "--x", "y"]);
        assert!(matches!(
            RawArguments::from_tail(&tail),
            RawArguments::Flags(_)
        ));
    }

    #[test]
    fn flags_in_every_form() {
        let tail = tokens(&[
            "--cluster-id=prod",
            "--force",
            "--tags",
            "a",
            "--tags=b",
            "--count",
            "-3",
        ]);
        let (given, violations) = parse_flags(&tail, &params());
        assert!(violations.is_empty(), "{violations:?}");
        assert_eq!(given["cluster-id"], Given::Texts(vec!["prod".into()]));
        assert_eq!(given["force"], Given::Texts(vec!["true".into()]));
        assert_eq!(given["tags"], Given::Texts(vec!["a".into(), "b".into()]));
        assert_eq!(given["count"], Given::Texts(vec!["-3".into()]));
    }

    #[test]
    fn boolean_takes_an_explicit_word() {
        let tail = tokens(&["--force", "false", "--cluster-id", "x"]);
        let (given, violations) = parse_flags(&tail, &params());
        assert!(violations.is_empty());
        assert_eq!(given["force"], Given::Texts(vec!["false".into()]));
    }

    #[test]
    fn unknown_flags_and_stray_words() {
        let tail = tokens(&["--clusterid", "x", "stray", "--cluster-id"]);
        let (_, violations) = parse_flags(&tail, &params());
        let rules: Vec<_> = violations.iter().map(|v| v.rule).collect();
        assert_eq!(
            rules,
            [
                Rule::UnknownParameter,
                Rule::UnexpectedArgument,
                Rule::MissingValue
            ]
        );
        assert_eq!(violations[0].suggestion.as_deref(), Some("cluster-id"));
    }

    #[test]
    fn a_declared_flag_is_not_taken_as_a_value() {
        let tail = tokens(&["--cluster-id", "--count", "1"]);
        let (given, violations) = parse_flags(&tail, &params());
        assert_eq!(violations[0].rule, Rule::MissingValue);
        assert_eq!(given["count"], Given::Texts(vec!["1".into()]));
    }
}
