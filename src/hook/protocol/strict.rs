//! JSON read the way a hostile event must be read: one value, nesting
//! within serde_json's recursion limit (128), and no object key given
//! twice. serde_json's own `Value` keeps the last of two equal keys, so
//! `{"command": "ls", "command": "rm -rf ~"}` would be judged on one
//! command while another tool might read the other; no client ever sends
//! that, so it is refused.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::EventError;

/// The message of the error raised on a repeated key, recognised again in
/// [`malformed`]; it never holds the key itself.
const DUPLICATE_KEY: &str = "aigent: a key appears twice";

/// Parses `text` as exactly one JSON value.
pub(super) fn from_str(text: &str) -> Result<Value, EventError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let StrictValue(value) = StrictValue::deserialize(&mut deserializer).map_err(malformed)?;
    deserializer.end().map_err(malformed)?;
    Ok(value)
}

/// serde_json's error as an [`EventError`], keeping its position and a
/// fixed description but none of its text (which can quote the input).
fn malformed(error: serde_json::Error) -> EventError {
    let message = error.to_string();
    let problem = if message.starts_with(DUPLICATE_KEY) {
        "a key appears twice"
    } else if message.starts_with("recursion limit exceeded") {
        "nested more than 128 levels deep"
    } else if error.is_eof() {
        "it ends too early"
    } else {
        "invalid syntax"
    };
    EventError::Malformed {
        problem,
        line: error.line(),
        column: error.column(),
    }
}

struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
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

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        StrictValue::deserialize(deserializer).map(|StrictValue(value)| value)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(DUPLICATE_KEY));
            }
            let StrictValue(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}
