//! `--json '{...}'`: the extra checks JSON arguments get before anything
//! else looks at them (DESIGN.md §5): an object, no duplicate keys, and no
//! `__proto__`, `constructor` or `prototype` key at any depth.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value};

use super::arguments::{Given, unknown_parameter};
use super::number::NumberTexts;
use super::rule::Rule;
use super::violation::{Violation, shown_json};
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
    let (given, violations) = given_values(
        object
            .into_iter()
            .map(|(key, value)| (key, Cow::Owned(value))),
        parameters,
    );
    Ok((given, texts, violations))
}

/// [`parse_for_parameters`] for an object that arrived parsed (MCP): the
/// prototype-key check, then each declared value copied out of it (and
/// nothing else: an unknown key's value is only quoted, cut short).
pub fn object_for_parameters(
    object: &Map<String, Value>,
    parameters: &[Parameter],
) -> Result<GivenValues, Vec<Violation>> {
    let violations = prototype_violations(object);
    if !violations.is_empty() {
        return Err(violations);
    }
    let (given, violations) = given_values(
        object
            .iter()
            .map(|(key, value)| (key.clone(), Cow::Borrowed(value))),
        parameters,
    );
    Ok((given, NumberTexts::rendered(), violations))
}

fn given_values<'a>(
    entries: impl Iterator<Item = (String, Cow<'a, Value>)>,
    parameters: &[Parameter],
) -> (HashMap<String, Given>, Vec<Violation>) {
    let mut given = HashMap::new();
    let mut violations = Vec::new();
    for (key, value) in entries {
        if !parameters.iter().any(|parameter| parameter.name == key) {
            let mut violation = unknown_parameter(&key, Some(shown_json(&value)), parameters);
            // A misspelt sensitive parameter carries its secret all the same.
            violation.sensitive = violation.suggestion.as_deref().is_some_and(|closest| {
                parameters
                    .iter()
                    .any(|parameter| parameter.name == closest && parameter.sensitive)
            });
            violations.push(violation);
        } else if !value.is_null() {
            given.insert(key, Given::Json(value.into_owned()));
        }
    }
    (given, violations)
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
    fn a_parsed_object_is_checked_as_its_text_is() {
        use crate::contract::Origin;
        use crate::guard::{RawArguments, check};
        use serde_json::json;
        let declare = |document: Value| {
            let parsed = crate::registry::parse_value(&document, &Origin::default());
            assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
            parsed.declaration.unwrap()
        };
        let parameters = declare(json!({
            "name": "probe", "description": "probe", "danger_level": "safe",
            "parameters": {
                "id": {"type": "string", "pattern_type": "alphanumeric_id"},
                "count": {"type": "integer"},
                "ratio": {"type": "number"},
                "dry": {"type": "boolean"},
                "env": {"type": "enum", "enum_values": ["dev", "prod"]},
                "tags": {"type": "array", "pattern_type": "alphanumeric_id"},
                "token": {"type": "string", "sensitive": true}
            },
            "subprocess": {"binary": "probe", "user_controlled_args":
                ["id", "count", "ratio", "dry", "env", "tags", "token"]}
        }));
        let schema = declare(json!({
            "name": "schema", "description": "schema", "danger_level": "safe",
            "input_schema": {"type": "object", "properties": {
                "name": {"type": "string", "x-aigent-pattern-type": "alphanumeric_id"},
                "sizes": {"type": "array", "items": {"type": "number"}}
            }},
            "subprocess": {"binary": "probe", "user_controlled_args": ["name", "sizes"]}
        }));
        let cases = [
            (
                &parameters,
                r#"{"id":"a1","count":-3,"ratio":1.5,"dry":true,"env":"prod","tags":["x","y"]}"#,
            ),
            (
                &parameters,
                r#"{"ratio":1e300,"count":18446744073709551615}"#,
            ),
            (
                &parameters,
                r#"{"count":"5","dry":"yes","env":"Prod","tags":["a%2Fb"]}"#,
            ),
            (
                &parameters,
                r#"{"idd":"x","token":"hunter2;","__proto__":{}}"#,
            ),
            (&parameters, r#"{"tags":["ok",3],"ratio":null}"#),
            (&parameters, r#"{"token":"s3cret","id":"a b"}"#),
            (&schema, r#"{"name":"n1","sizes":[1.5,-2,1e-7,2.25]}"#),
            (
                &schema,
                r#"{"name":"-x","sizes":["1"],"extra":{"constructor":1}}"#,
            ),
            (&schema, r#"{"sizes":[{"prototype":{}}],"name":null}"#),
        ];
        for (declaration, text) in cases {
            let object: Map<String, Value> = serde_json::from_str(text).unwrap();
            assert_eq!(
                check(declaration, &RawArguments::Object(&object)),
                check(declaration, &RawArguments::Json(text)),
                "{text}"
            );
        }
    }

    #[test]
    fn an_unknown_key_is_quoted_short() {
        let parameters = [crate::contract::Parameter::new(
            "id",
            crate::contract::ParamType::String,
        )];
        let mut object = Map::new();
        object.insert("other".to_owned(), Value::String("x".repeat(1_000_000)));
        let (_, _, violations) = object_for_parameters(&object, &parameters).unwrap();
        let shown = violations[0].input_value.as_deref().unwrap();
        assert!(shown.len() < 8 * 1024, "{}", shown.len());
        assert!(
            shown.starts_with("\"xxx") && shown.ends_with('…'),
            "{shown}"
        );
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
