//! Malformed params, said so. A request for a method the server knows whose
//! params do not have the method's shape (a `tools/call` whose `arguments`
//! is a string, a `skills/get` with `name` instead of `uri`) reaches the
//! server as an unknown request; it must come back as `-32602 Invalid
//! params` naming the field, not as "method not found".

use serde_json::{Value, json};

use crate::contract::value::json_kind;

/// What is wrong with a known method's params: the message and the
/// error's `data` (`field`, `expected`). `None` for a method the server
/// does not know, or params that are not at fault.
pub fn diagnose(method: &str, params: Option<&Value>) -> Option<(String, Value)> {
    let fields = shape(method)?;
    let empty = serde_json::Map::new();
    let object = match params {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(object)) => object,
        Some(other) => {
            return Some(problem(
                method,
                "params",
                "an object",
                format!(
                    "`params` of {method} must be an object, not {}",
                    json_kind(other)
                ),
            ));
        }
    };
    for &(field, expected, required) in fields {
        match object.get(field) {
            None | Some(Value::Null) if required => {
                let mut message = format!("{method} requires `{field}` ({expected})");
                if method == "skills/get" && object.contains_key("name") {
                    message
                        .push_str("; it takes the skill's `uri` from skills/list, not its `name`");
                }
                return Some(problem(method, field, expected, message));
            }
            None | Some(Value::Null) => {}
            Some(value) if !fits(expected, value) => {
                return Some(problem(
                    method,
                    field,
                    expected,
                    format!(
                        "`{field}` of {method} must be {expected}, not {}",
                        json_kind(value)
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Some(problem(
        method,
        "params",
        "the method's params",
        format!("the params of {method} do not have its shape"),
    ))
}

/// The fields each method the server serves takes: name, what it must be,
/// and whether it is required.
fn shape(method: &str) -> Option<&'static [(&'static str, &'static str, bool)]> {
    const OBJECT: &str = "an object";
    const STRING: &str = "a string";
    const CURSOR: &[(&str, &str, bool)] = &[("cursor", STRING, false), ("_meta", OBJECT, false)];
    Some(match method {
        "tools/call" => &[
            ("name", "a string: the tool's name from tools/list", true),
            ("arguments", "an object of the tool's parameters", false),
            ("inputResponses", OBJECT, false),
            ("requestState", STRING, false),
            ("_meta", OBJECT, false),
        ],
        "skills/get" => &[
            (
                "uri",
                "a string: a skill's `skill://NAME/SKILL.md` URI from skills/list",
                true,
            ),
            ("_meta", OBJECT, false),
        ],
        "resources/read" => &[
            ("uri", "a string: a resource URI from resources/list", true),
            ("_meta", OBJECT, false),
        ],
        "tasks/get" | "tasks/cancel" => &[
            ("taskId", "a string: the task's id", true),
            ("_meta", OBJECT, false),
        ],
        "tools/list" | "skills/list" | "resources/list" => CURSOR,
        "server/discover" | "initialize" | "ping" => &[("_meta", OBJECT, false)],
        _ => return None,
    })
}

fn fits(expected: &str, value: &Value) -> bool {
    if expected.starts_with("an object") {
        value.is_object()
    } else {
        value.is_string()
    }
}

fn problem(method: &str, field: &str, expected: &str, message: String) -> (String, Value) {
    (
        message,
        json!({"method": method, "field": field, "expected": expected}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_malformed_call_names_its_field() {
        let (message, data) = diagnose(
            "tools/call",
            Some(&json!({"name": "greet", "arguments": "who=x"})),
        )
        .unwrap();
        assert_eq!(data["field"], "arguments");
        assert!(message.contains("must be an object"), "{message}");
        assert!(message.contains("not a string"), "{message}");

        let (message, data) = diagnose("skills/get", Some(&json!({"name": "pdf"}))).unwrap();
        assert_eq!(data["field"], "uri");
        assert!(message.contains("not its `name`"), "{message}");

        let (_, data) = diagnose("skills/get", Some(&json!({}))).unwrap();
        assert_eq!(data["field"], "uri");
        let (_, data) = diagnose("skills/get", None).unwrap();
        assert_eq!(data["field"], "uri");
        let (_, data) = diagnose("tools/call", Some(&json!([1]))).unwrap();
        assert_eq!(data["field"], "params");
        let (_, data) = diagnose("tools/call", Some(&json!({"name": 3}))).unwrap();
        assert_eq!(data["field"], "name");
        let (_, data) = diagnose("tasks/get", Some(&json!({"taskId": 3}))).unwrap();
        assert_eq!(data["field"], "taskId");
    }

    #[test]
    fn an_unknown_method_is_not_diagnosed() {
        assert_eq!(diagnose("tools/frobnicate", Some(&json!({}))), None);
        assert_eq!(diagnose("", None), None);
    }
}
