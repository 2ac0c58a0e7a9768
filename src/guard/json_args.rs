//! `--json '{...}'`: the extra checks JSON arguments get before anything
//! else looks at them (DESIGN.md §5): an object, no duplicate keys, and no
//! `__proto__`, `constructor` or `prototype` key at any depth.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::arguments::{Given, unknown_parameter};
use super::number::NumberTexts;
use super::rule::Rule;
use super::violation::Violation;
use crate::contract::Parameter;

/// Keys that reach into an object's prototype in JavaScript consumers.
pub const PROTOTYPE_KEYS: [&str; 3] = ["__proto__", "constructor", "prototype"];

/// Parses `text` into the top-level object (with the exact text of each
/// number), or the violations that stop everything else (not JSON, a
/// duplicate key, not an object, a prototype key anywhere). The raw text
/// is quoted back as `input_value` only when `show_text` is true: a
/// command with sensitive inputs must not have its secrets echoed from a
/// document that failed to parse.
pub fn parse_object(
    text: &str,
    show_text: bool,
) -> Result<(Map<String, Value>, NumberTexts), Vec<Violation>> {
    let shown = || show_text.then(|| text.to_owned());
    let value = match crate::contract::value::from_json(text) {
        Ok(value) => value,
        Err(err) => {
            let rule = if err.message.starts_with("duplicate key") {
                Rule::DuplicateKey
            } else {
                Rule::Json
            };
            return Err(vec![Violation::new(
                "",
                rule,
                shown(),
                "a JSON object keyed by parameter name, each key once",
                format!("--json is not valid: {}", err.message),
            )]);
        }
    };
    let Value::Object(object) = value else {
        return Err(vec![Violation::new(
            "",
            Rule::Json,
            shown(),
            "a JSON object keyed by parameter name",
            format!("--json must be an object, not {}", super::json_kind(&value)),
        )]);
    };
    let violations = prototype_violations(&object);
    if !violations.is_empty() {
        return Err(violations);
    }
    let mut texts = NumberTexts::default();
    texts.record_object(text, &object);
    Ok((object, texts))
}

/// `__proto__`, `constructor` and `prototype` used as a key anywhere in
/// `object`, its own keys included. The path of a hit is built only for
/// the hit (from a stack of segments), so a long key over many values
/// costs nothing extra.
pub fn prototype_violations(object: &Map<String, Value>) -> Vec<Violation> {
    let mut violations = Vec::new();
    let mut path = Vec::new();
    for (key, child) in object {
        path.push(Segment::Key(key));
        if PROTOTYPE_KEYS.contains(&key.as_str()) {
            violations.push(prototype_violation(render_path(&path), key));
        }
        find_prototype_keys(child, &mut path, &mut violations);
        path.pop();
    }
    violations
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

fn render_path(path: &[Segment<'_>]) -> String {
    let mut out = String::new();
    for (position, segment) in path.iter().enumerate() {
        match segment {
            Segment::Key(key) if position == 0 => out.push_str(key),
            Segment::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
            Segment::Index(index) => out.push_str(&format!("[{index}]")),
        }
    }
    out
}

fn find_prototype_keys<'a>(
    value: &'a Value,
    path: &mut Vec<Segment<'a>>,
    violations: &mut Vec<Violation>,
) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                path.push(Segment::Key(key));
                if PROTOTYPE_KEYS.contains(&key.as_str()) {
                    violations.push(prototype_violation(render_path(path), key));
                }
                find_prototype_keys(child, path, violations);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(Segment::Index(index));
                find_prototype_keys(item, path, violations);
                path.pop();
            }
        }
        _ => {}
    }
}

fn prototype_violation(field: String, key: &str) -> Violation {
    Violation::new(
        field.clone(),
        Rule::PrototypeKey,
        Some(key.to_owned()),
        "no `__proto__`, `constructor` or `prototype` key at any depth",
        format!("`{field}` uses the key `{key}`, which can pollute object prototypes"),
    )
}

/// The values given per parameter, their number texts, and the
/// violations found so far.
pub type GivenValues = (HashMap<String, Given>, NumberTexts, Vec<Violation>);

/// The given values of a `parameters` command, keyed by name. A `null`
/// counts as absent (strict tool-call modes send one for each optional
/// field left out). The `Err` holds the violations that stop everything
/// else.
pub fn parse_for_parameters(
    text: &str,
    parameters: &[Parameter],
    show_text: bool,
) -> Result<GivenValues, Vec<Violation>> {
    let (object, texts) = parse_object(text, show_text)?;
    let mut given = HashMap::new();
    let mut violations = Vec::new();
    for (key, value) in object {
        if !parameters.iter().any(|parameter| parameter.name == key) {
            let mut violation = unknown_parameter(&key, Some(value.to_string()), parameters);
            // A misspelt sensitive parameter carries its secret all the same.
            violation.sensitive = violation.suggestion.as_deref().is_some_and(|closest| {
                parameters
                    .iter()
                    .any(|parameter| parameter.name == closest && parameter.sensitive)
            });
            violations.push(violation);
        } else if !value.is_null() {
            given.insert(key, Given::Json(value));
        }
    }
    Ok((given, texts, violations))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(
        result: Result<(Map<String, Value>, NumberTexts), Vec<Violation>>,
    ) -> Vec<(String, Rule)> {
        result
            .unwrap_err()
            .into_iter()
            .map(|violation| (violation.field, violation.rule))
            .collect()
    }

    #[test]
    fn non_objects_are_rejected() {
        for text in ["[]", "\"x\"", "1", "null", "true"] {
            assert_eq!(
                rules(parse_object(text, true)),
                [(String::new(), Rule::Json)],
                "{text}"
            );
        }
        assert_eq!(
            rules(parse_object("{", true)),
            [(String::new(), Rule::Json)]
        );
        assert_eq!(
            rules(parse_object(r#"{"a": 1, "a": 2}"#, true)),
            [(String::new(), Rule::DuplicateKey)]
        );
    }

    #[test]
    fn prototype_keys_at_any_depth() {
        let found = rules(parse_object(
            r#"{"__proto__": {}, "a": {"b": [{"constructor": 1}]}, "c": {"prototype": {"x": 1}}}"#,
            true,
        ));
        assert_eq!(
            found,
            [
                ("__proto__".to_owned(), Rule::PrototypeKey),
                ("a.b[0].constructor".to_owned(), Rule::PrototypeKey),
                ("c.prototype".to_owned(), Rule::PrototypeKey),
            ]
        );
    }

    #[test]
    fn raw_text_is_quoted_only_when_allowed() {
        for text in [
            r#"{"tok": "hunter2", "tok": "x"}"#,
            r#"{"tok": "hunter2",}"#,
            r#"["hunter2"]"#,
        ] {
            let hidden = parse_object(text, false).unwrap_err();
            assert_eq!(hidden[0].input_value, None, "{text}");
            assert!(!hidden[0].message.contains("hunter2"), "{text}");
            let shown = parse_object(text, true).unwrap_err();
            assert_eq!(shown[0].input_value.as_deref(), Some(text));
        }
    }
}
