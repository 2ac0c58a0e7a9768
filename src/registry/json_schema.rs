//! The JSON Schema of a command's arguments (draft 2020-12), usable as an
//! MCP `inputSchema`. Pattern types become a `pattern` and, where JSON
//! Schema has one, a `format`; the `x-aigent-*` keywords keep what JSON
//! Schema cannot say, so the export also loads back as an `input_schema`
//! declaration with the same guard rules.

use serde_json::{Map, Value, json};

use crate::contract::input_schema::{
    DRAFT_2020_12, X_ALLOW_LEADING_DASH, X_PATTERN_TYPE, X_SENSITIVE,
};
use crate::contract::{Declaration, Inputs, ParamType, Parameter};
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Origin;
    use crate::guard::{self, RawArguments};
    use crate::registry::parse_value;

    /// Every type and pattern type, exported and loaded back as an MCP
    /// `input_schema`, accepts and refuses what the original does.
    #[test]
    fn the_export_guards_like_the_original() {
        // Every parameter reaches the subprocess (E122 otherwise).
        let every_parameter = json!([
            "a-id", "uuid", "version", "path", "link", "res", "ticket", "count", "ratio", "dry",
            "mode", "tags", "token"
        ]);
        let original = parse_value(
            &json!({
                "name": "all", "description": "every kind",
                "parameters": {
                    "a-id": {"type": "string", "pattern_type": "alphanumeric_id", "required": true},
                    "uuid": {"type": "string", "pattern_type": "uuid"},
                    "version": {"type": "string", "pattern_type": "semver"},
                    "path": {"type": "string", "pattern_type": "filepath"},
                    "link": {"type": "string", "pattern_type": "url"},
                    "res": {"type": "resource_id"},
                    "ticket": {"type": "string", "pattern": "^[A-Z]+-[0-9]+$"},
                    "count": {"type": "integer", "default": 1},
                    "ratio": {"type": "number"},
                    "dry": {"type": "boolean"},
                    "mode": {"type": "enum", "enum_values": ["a", "b"]},
                    "tags": {"type": "array", "pattern_type": "alphanumeric_id"},
                    "token": {"type": "string", "sensitive": true}
                },
                "subprocess": {"binary": "x", "user_controlled_args": every_parameter}
            }),
            &Origin::default(),
        );
        assert!(
            !parsed_errors(&original.diagnostics),
            "{:?}",
            original.diagnostics
        );
        let original = original.declaration.unwrap();
        let schema = to_json_schema(&original);
        let reloaded = parse_value(
            &json!({"name": "all", "description": "every kind", "input_schema": schema,
                    "subprocess": {"binary": "x", "user_controlled_args": every_parameter}}),
            &Origin::default(),
        );
        assert!(
            !parsed_errors(&reloaded.diagnostics),
            "{:?}",
            reloaded.diagnostics
        );
        let reloaded = reloaded.declaration.unwrap();

        let good = r#"{"a-id": "prod-1", "uuid": "123e4567-e89b-12d3-a456-426614174000", "version": "1.2.3-rc.1+b.5",
            "path": "/home/user/file.txt", "link": "https://example.com/Straße?filter[name]=c#d", "res": "users/42", "ticket": "OPS-12",
            "count": 3, "ratio": 0.5, "dry": true, "mode": "b", "tags": ["x", "y"], "token": "s3cret"}"#;
        for declaration in [&original, &reloaded] {
            let validated = guard::check(declaration, &RawArguments::Json(good));
            assert!(validated.is_ok(), "{:?}", validated.unwrap_err().violations);
        }
        for bad in [
            r#"{"a-id": "../x"}"#,
            r#"{"a-id": "x", "uuid": "123"}"#,
            r#"{"a-id": "x", "version": "v1.2.3"}"#,
            r#"{"a-id": "x", "path": "%2e%2e/etc"}"#,
            r#"{"a-id": "x", "path": "-rf"}"#,
            r#"{"a-id": "x", "link": "https://u@example.com/"}"#,
            r#"{"a-id": "x", "link": "https://example.com/a/%2e%2e;/b"}"#,
            r#"{"a-id": "x", "res": "a?b"}"#,
            r#"{"a-id": "x", "res": "{{id}}"}"#,
            r#"{"a-id": "x", "ticket": "ops-1"}"#,
            r#"{"a-id": "x", "count": 1.5}"#,
            r#"{"a-id": "x", "mode": "c"}"#,
            r#"{"a-id": "x", "tags": ["a/b"]}"#,
            r#"{"a-id": "x", "extra": 1}"#,
            r#"{}"#,
        ] {
            for declaration in [&original, &reloaded] {
                assert!(
                    guard::check(declaration, &RawArguments::Json(bad)).is_err(),
                    "{} accepted {bad}",
                    if std::ptr::eq(declaration, &original) {
                        "original"
                    } else {
                        "export"
                    }
                );
            }
        }
        assert_eq!(schema["properties"]["link"].get("format"), None);
        let secret = guard::check(&reloaded, &RawArguments::Json(good)).unwrap();
        assert_eq!(secret.to_redacted_json()["token"], crate::guard::REDACTED);
    }

    fn parsed_errors(diagnostics: &[crate::report::Diagnostic]) -> bool {
        diagnostics.iter().any(crate::report::Diagnostic::is_error)
    }
}
