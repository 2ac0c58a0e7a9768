//! `--json '{...}'`: the extra checks JSON arguments get before anything
//! else looks at them (DESIGN.md §5): an object, no duplicate keys, and no
//! `__proto__`, `constructor` or `prototype` key at any depth.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::arguments::{Given, unknown_parameter};
use super::rules::Rule;
use super::violation::Violation;
use crate::contract::Parameter;

/// Keys that reach into an object's prototype in JavaScript consumers.
pub const PROTOTYPE_KEYS: [&str; 3] = ["__proto__", "constructor", "prototype"];

/// Parses `text` into the top-level object, or the violations that stop
/// everything else (not JSON, a duplicate key, not an object, a prototype
/// key anywhere).
pub fn parse_object(text: &str) -> Result<Map<String, Value>, Vec<Violation>> {
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
                Some(text.to_owned()),
                "a JSON object keyed by parameter name, each key once",
                format!("--json is not valid: {}", err.message),
            )]);
        }
    };
    let Value::Object(object) = value else {
        return Err(vec![Violation::new(
            "",
            Rule::Json,
            Some(text.to_owned()),
            "a JSON object keyed by parameter name",
            format!("--json must be an object, not {}", super::json_kind(&value)),
        )]);
    };
    let mut violations = Vec::new();
    for (key, child) in &object {
        find_prototype_keys(key, child, &mut violations);
        if PROTOTYPE_KEYS.contains(&key.as_str()) {
            violations.push(prototype_violation(key.clone(), key));
        }
    }
    if violations.is_empty() {
        Ok(object)
    } else {
        Err(violations)
    }
}

fn find_prototype_keys(path: &str, value: &Value, violations: &mut Vec<Violation>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let child_path = format!("{path}.{key}");
                if PROTOTYPE_KEYS.contains(&key.as_str()) {
                    violations.push(prototype_violation(child_path.clone(), key));
                }
                find_prototype_keys(&child_path, child, violations);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                find_prototype_keys(&format!("{path}[{index}]"), item, violations);
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

/// The given values of a `parameters` command, keyed by name. A `null`
/// counts as absent (strict tool-call modes send one for each optional
/// field left out).
/// The values given per parameter, and the violations found so far.
pub type GivenValues = (HashMap<String, Given>, Vec<Violation>);

/// The `Err` holds the violations that stop everything else.
pub fn parse_for_parameters(
    text: &str,
    parameters: &[Parameter],
) -> Result<GivenValues, Vec<Violation>> {
    let object = parse_object(text)?;
    let mut given = HashMap::new();
    let mut violations = Vec::new();
    for (key, value) in object {
        if !parameters.iter().any(|parameter| parameter.name == key) {
            violations.push(unknown_parameter(&key, Some(value.to_string()), parameters));
        } else if !value.is_null() {
            given.insert(key, Given::Json(value));
        }
    }
    Ok((given, violations))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(result: Result<Map<String, Value>, Vec<Violation>>) -> Vec<(String, Rule)> {
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
                rules(parse_object(text)),
                [(String::new(), Rule::Json)],
                "{text}"
            );
        }
        assert_eq!(rules(parse_object("{")), [(String::new(), Rule::Json)]);
        assert_eq!(
            rules(parse_object(r#"{"a": 1, "a": 2}"#)),
            [(String::new(), Rule::DuplicateKey)]
        );
    }

    #[test]
    fn prototype_keys_at_any_depth() {
        let found = rules(parse_object(
            r#"{"__proto__": {}, "a": {"b": [{"constructor": 1}]}, "c": {"prototype": {"x": 1}}}"#,
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
}
