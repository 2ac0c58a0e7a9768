//! Reading JSON and YAML into a `serde_json::Value` that refuses duplicate
//! keys. serde_json keeps the last of two equal keys silently, so a reviewer
//! could read one `pattern` while the parser used another; declarations and
//! `--json` arguments both go through here instead.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Largest declaration file aigent reads.
pub const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;

/// Nesting limit for YAML (JSON has serde_json's own limit of 128).
const MAX_YAML_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub message: String,
    /// 1-based line where the parser stopped, when it says.
    pub line: Option<usize>,
}

/// Parses one JSON document, refusing duplicate keys at any depth.
pub fn from_json(text: &str) -> Result<Value, ParseError> {
    strict_json(text).map_err(|err| ParseError {
        line: Some(err.line()).filter(|line| *line > 0),
        message: err.to_string(),
    })
}

/// Message prefix of the error [`strict_json`] gives for a key given twice
/// (the key follows it), for callers that must not show the text.
pub const DUPLICATE_KEY_PREFIX: &str = "duplicate key";

/// [`from_json`] with serde_json's own error (its position and kind), for
/// callers that report those and never the text, which can quote the input.
pub fn strict_json(text: &str) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    StrictValue
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
}

/// Parses one YAML document with budgets against YAML bombs, refusing
/// duplicate keys at any depth.
pub fn from_yaml(text: &str) -> Result<Value, ParseError> {
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: MAX_YAML_DEPTH,
            flow_nesting_limit: MAX_YAML_DEPTH,
            max_events: 200_000,
            max_nodes: 100_000,
            max_aliases: 64,
            max_anchors: 64,
            max_total_scalar_bytes: MAX_DOCUMENT_BYTES,
            max_documents: 1,
            max_merge_keys: 0,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 10_000,
            max_replay_stack_depth: 8,
        },
        duplicate_keys: serde_saphyr::options::DuplicateKeyPolicy::Error,
        // YAML 1.2 booleans only: `required: yes` is a string, and then a
        // type error, rather than silently true.
        strict_booleans: true,
        with_snippet: false,
    };
    let mut line = None;
    let result = serde_saphyr::from_str_with_options::<StrictDocument>(text, options);
    match result {
        Ok(StrictDocument(value)) => Ok(value),
        Err(err) => {
            let message = err.to_string();
            if let Some(location) = err.location() {
                line = usize::try_from(location.line())
                    .ok()
                    .filter(|line| *line > 0);
            }
            Err(ParseError {
                message: first_line(&message),
                line,
            })
        }
    }
}

fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or(message).trim().to_owned()
}

/// A whole YAML document; an empty one is `null`.
struct StrictDocument(Value);

impl<'de> serde::Deserialize<'de> for StrictDocument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        StrictValue.deserialize(deserializer).map(StrictDocument)
    }
}

/// Builds a `Value` like serde_json's own impl, but fails on a repeated key.
struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Value, E> {
        i64::try_from(value)
            .map(|value| Value::Number(value.into()))
            .map_err(|_| E::custom("integer out of range"))
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Value, E> {
        u64::try_from(value)
            .map(|value| Value::Number(value.into()))
            .map_err(|_| E::custom("integer out of range"))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number must be finite"))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        StrictValue.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(StrictValue)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key_seed(KeyString)? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!("{DUPLICATE_KEY_PREFIX} `{key}`")));
            }
            let value = map.next_value_seed(StrictValue)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// A mapping key as text. YAML allows `0:` as a key; it means the string
/// "0" here, as it would in JSON.
struct KeyString;

impl<'de> DeserializeSeed<'de> for KeyString {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or integer key")
    }

    fn visit_str<E>(self, value: &str) -> Result<String, E> {
        Ok(value.to_owned())
    }

    fn visit_string<E>(self, value: String) -> Result<String, E> {
        Ok(value)
    }

    fn visit_i64<E>(self, value: i64) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_u64<E>(self, value: u64) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<String, E> {
        Err(E::custom(format!(
            "a mapping key must be a string, not `{value}`"
        )))
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Err(E::custom("a mapping key must be a string, not null"))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<String, E> {
        Err(E::custom(format!(
            "a mapping key must be a string, not `{value}`"
        )))
    }
}

/// How a JSON value's kind reads in a message ("a string", "null").
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_keeps_order_and_refuses_duplicates() {
        let value = from_json(r#"{"b": 1, "a": [true, null, 1.5]}"#).unwrap();
        assert_eq!(value, json!({"b": 1, "a": [true, null, 1.5]}));
        let keys: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["b", "a"]);
        let err = from_json(r#"{"a": {"x": 1, "x": 2}}"#).unwrap_err();
        assert!(err.message.contains("duplicate key `x`"), "{err:?}");
        assert!(from_json(r#"{"a": 1} trailing"#).is_err());
    }

    #[test]
    fn yaml_reads_integer_keys_as_strings() {
        let value =
            from_yaml("exit_codes:\n  0: {name: SUCCESS}\n  2:\n    name: ARG_ERROR\n").unwrap();
        assert_eq!(
            value,
            json!({"exit_codes": {"0": {"name": "SUCCESS"}, "2": {"name": "ARG_ERROR"}}})
        );
    }

    #[test]
    fn yaml_refuses_duplicates_and_bombs() {
        assert!(from_yaml("a: 1\na: 2\n").is_err());
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n";
        assert!(from_yaml(bomb).is_err());
        let deep = format!("{}1{}", "[".repeat(500), "]".repeat(500));
        assert!(from_yaml(&deep).is_err());
    }

    #[test]
    fn yaml_booleans_are_strict() {
        assert_eq!(from_yaml("x: yes\n").unwrap(), json!({"x": "yes"}));
        assert_eq!(from_yaml("x: true\n").unwrap(), json!({"x": true}));
    }

    #[test]
    fn empty_yaml_is_null() {
        assert_eq!(from_yaml("").unwrap(), Value::Null);
    }
}
