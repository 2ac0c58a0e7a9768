//! The JSON Schema of a command's arguments (draft 2020-12), usable as an
//! MCP `inputSchema`. Pattern types become a `pattern` and, where JSON
//! Schema has one, a `format`; the `x-aigent-*` keywords keep what JSON
//! Schema cannot say, so the export also loads back as an `input_schema`
//! declaration with the same guard rules.

use serde_json::{Map, Value, json};

use super::declaration::{Declaration, Inputs, ParamType, Parameter};
use super::input_schema::{DRAFT_2020_12, X_ALLOW_LEADING_DASH, X_PATTERN_TYPE, X_SENSITIVE};
use crate::guard::syntax;

/// What a resource_id may not contain, as a JSON Schema pattern: the
/// characters the named rules refuse wherever they appear. (Separators are
/// allowed; `..` segments, encodings and placeholders need the guard.)
const RESOURCE_ID_PATTERN: &str = "^[^?#%&;|$()<>`\\x00-\\x1F\\x7F]+$";

pub fn to_json_schema(declaration: &Declaration) -> Value {
    match &declaration.inputs {
        Inputs::InputSchema(schema) => {
            let mut effective = schema.effective.clone();
            if let Value::Object(object) = &mut effective {
                if !object.contains_key("$schema") {
                    let mut ordered = Map::new();
                    ordered.insert("$schema".to_owned(), Value::from(DRAFT_2020_12));
                    ordered.extend(std::mem::take(object));
                    *object = ordered;
                }
                object
                    .entry("description")
                    .or_insert_with(|| Value::from(declaration.description.clone()));
            }
            effective
        }
        Inputs::Parameters(parameters) => {
            let mut properties = Map::new();
            for parameter in parameters {
                properties.insert(parameter.name.clone(), parameter_schema(parameter));
            }
            let required: Vec<&str> = parameters
                .iter()
                .filter(|parameter| parameter.required)
                .map(|parameter| parameter.name.as_str())
                .collect();
            json!({
                "$schema": DRAFT_2020_12,
                "title": declaration.name,
                "description": declaration.description,
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        }
    }
}

fn parameter_schema(parameter: &Parameter) -> Value {
    let mut schema = Map::new();
    let mut string_schema = Map::new();
    string_schema.insert("type".to_owned(), Value::from("string"));
    if let Some(pattern) = &parameter.pattern {
        string_schema.insert("pattern".to_owned(), Value::from(pattern.as_str()));
    }
    if let Some(pattern_type) = parameter.pattern_type {
        if let Some(pattern) = syntax::json_schema_pattern(pattern_type) {
            string_schema.insert("pattern".to_owned(), Value::from(pattern));
        }
        if let Some(format) = syntax::json_schema_format(pattern_type) {
            string_schema.insert("format".to_owned(), Value::from(format));
        }
        string_schema.insert(
            X_PATTERN_TYPE.to_owned(),
            Value::from(pattern_type.as_str()),
        );
    }
    match parameter.kind {
        ParamType::String => schema.extend(string_schema),
        ParamType::ResourceId => {
            schema.extend(string_schema);
            schema.insert("minLength".to_owned(), Value::from(1));
            schema
                .entry("pattern")
                .or_insert_with(|| Value::from(RESOURCE_ID_PATTERN));
            schema.insert(X_PATTERN_TYPE.to_owned(), Value::from("resource_id"));
        }
        ParamType::Array => {
            schema.insert("type".to_owned(), Value::from("array"));
            schema.insert("items".to_owned(), Value::Object(string_schema));
        }
        ParamType::Enum => {
            schema.insert("type".to_owned(), Value::from("string"));
            schema.insert(
                "enum".to_owned(),
                Value::from(parameter.enum_values.clone()),
            );
        }
        ParamType::Integer => {
            schema.insert("type".to_owned(), Value::from("integer"));
        }
        ParamType::Number => {
            schema.insert("type".to_owned(), Value::from("number"));
        }
        ParamType::Boolean => {
            schema.insert("type".to_owned(), Value::from("boolean"));
        }
    }
    if let Some(description) = &parameter.description {
        schema.insert("description".to_owned(), Value::from(description.clone()));
    }
    if let Some(default) = &parameter.default {
        schema.insert("default".to_owned(), default.clone());
    }
    if parameter.sensitive {
        schema.insert("writeOnly".to_owned(), Value::Bool(true));
        schema.insert(X_SENSITIVE.to_owned(), Value::Bool(true));
    }
    if parameter.allow_leading_dash {
        schema.insert(X_ALLOW_LEADING_DASH.to_owned(), Value::Bool(true));
    }
    Value::Object(schema)
}
