//! `prompts/list`, `prompts/get` and `completion/complete`, as plain JSON
//! (the SDK's types stay in `server.rs`).
//!
//! Two kinds of prompt, which clients show as slash commands:
//!
//! - **A served skill**: its name and description, and its `SKILL.md` body
//!   as the prompt, with no arguments.
//! - **A served tool**: its name, and one argument per parameter of its
//!   `inputSchema` (required as declared). The prompt asks the model to
//!   call the tool with the values given, which the guard then checks as
//!   any call's. It is where completion applies: MCP completes the
//!   arguments of prompts (and resource templates), never a tool's, so a
//!   person typing `/deploy` gets an enum parameter's values offered.
//!
//! A skill and a tool of the same name: the skill is the prompt.

use serde_json::{Map, Value, json};

/// MCP's cap on the values of one completion.
pub const MAX_COMPLETIONS: usize = 100;

/// The prompt of a served tool (`tool` is its definition, as
/// `tools/list` gives it).
pub fn tool_prompt(tool: &Value) -> Value {
    let name = tool["name"].as_str().unwrap_or_default();
    let what = tool["description"].as_str().unwrap_or_default();
    let arguments: Vec<Value> = properties(tool)
        .map(|(argument, schema, required)| {
            let mut entry = json!({"name": argument, "required": required});
            if let Some(description) = schema.get("description").and_then(Value::as_str) {
                entry["description"] = Value::from(description);
            }
            entry
        })
        .collect();
    json!({
        "name": name,
        "title": format!("Run {name}"),
        "description": format!("Ask for the `{name}` tool to be called with these values: {what}"),
        "arguments": arguments,
    })
}

/// The prompt of a served skill.
pub fn skill_prompt(name: &str, description: &str) -> Value {
    json!({"name": name, "description": description})
}

/// Each parameter of a tool's `inputSchema`: its name, its schema, and
/// whether it is required; in the schema's order.
fn properties(tool: &Value) -> impl Iterator<Item = (&str, &Map<String, Value>, bool)> {
    let schema = &tool["inputSchema"];
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(move |(name, property)| {
            property
                .as_object()
                .map(|property| (name.as_str(), property, required.contains(&name.as_str())))
        })
}

/// Why a `prompts/get` cannot be answered: `-32602` with this message and
/// data.
pub type Refusal = (String, Value);

/// The user message a tool's prompt gives for `given` (each value a
/// string, as prompt arguments are): the call as an arguments object,
/// each value read as its parameter's type where it is unambiguous
/// (`3` for an integer, `true` for a boolean) and kept as written
/// otherwise, for the guard to judge.
pub fn tool_message(tool: &Value, given: &Map<String, Value>) -> Result<String, Refusal> {
    let name = tool["name"].as_str().unwrap_or_default();
    let known: Vec<(&str, &Map<String, Value>, bool)> = properties(tool).collect();
    if let Some(unknown) = given
        .keys()
        .find(|key| !known.iter().any(|(name, _, _)| name == key))
    {
        return Err((
            format!("`{name}` has no argument `{unknown}`"),
            json!({"field": "arguments", "argument": unknown,
                   "expected": known.iter().map(|(name, _, _)| *name).collect::<Vec<_>>()}),
        ));
    }
    let missing: Vec<&str> = known
        .iter()
        .filter(|(argument, _, required)| *required && !given.contains_key(*argument))
        .map(|(argument, _, _)| *argument)
        .collect();
    if !missing.is_empty() {
        return Err((
            format!(
                "`{name}` needs the argument(s) {}",
                missing
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            json!({"field": "arguments", "missing": missing}),
        ));
    }
    let mut call = Map::new();
    for (argument, schema, _) in &known {
        if let Some(value) = given.get(*argument) {
            call.insert((*argument).to_owned(), typed(schema, value));
        }
    }
    let call = serde_json::to_string_pretty(&Value::Object(call)).unwrap_or_default();
    Ok(format!(
        "Call the `{name}` tool with these arguments:\n\n```json\n{call}\n```\n\nIf the tool refuses them, say why and how to correct them; do not run anything else in its place."
    ))
}

/// A prompt argument (a string) as its parameter's type, where that is
/// unambiguous.
fn typed(schema: &Map<String, Value>, value: &Value) -> Value {
    let Some(text) = value.as_str() else {
        return value.clone();
    };
    let kind = |wanted: &str| match schema.get("type") {
        Some(Value::String(kind)) => kind == wanted,
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == wanted),
        _ => false,
    };
    let trimmed = text.trim();
    if kind("integer")
        && let Ok(number) = trimmed.parse::<i64>()
    {
        return Value::from(number);
    }
    if kind("number")
        && let Ok(number) = trimmed.parse::<f64>()
        && let Some(number) = serde_json::Number::from_f64(number)
    {
        return Value::Number(number);
    }
    if kind("boolean") && matches!(trimmed, "true" | "false") {
        return Value::Bool(trimmed == "true");
    }
    if kind("array") {
        // A list typed as words separated by commas.
        return Value::Array(
            text.split(',')
                .map(|item| Value::from(item.trim()))
                .filter(|item| item != "")
                .collect(),
        );
    }
    value.clone()
}

/// The values a tool prompt's `argument` may take that fit what was typed
/// so far (`typed`): those starting with it first, then those containing
/// it, case-insensitively, in declared order; at most
/// [`MAX_COMPLETIONS`], with how many there are in all. Only a closed set
/// of values (an `enum`, a boolean) is completed.
pub fn complete(tool: &Value, argument: &str, typed: &str) -> (Vec<String>, usize) {
    let Some((_, schema, _)) = properties(tool).find(|(name, _, _)| *name == argument) else {
        return (Vec::new(), 0);
    };
    let candidates: Vec<String> = choices(schema);
    let typed = typed.to_lowercase();
    let lowered: Vec<String> = candidates.iter().map(|c| c.to_lowercase()).collect();
    let mut fitting: Vec<&String> = Vec::new();
    for (candidate, lower) in candidates.iter().zip(&lowered) {
        if lower.starts_with(&typed) {
            fitting.push(candidate);
        }
    }
    for (candidate, lower) in candidates.iter().zip(&lowered) {
        if !lower.starts_with(&typed) && lower.contains(&typed) {
            fitting.push(candidate);
        }
    }
    let total = fitting.len();
    (
        fitting.into_iter().take(MAX_COMPLETIONS).cloned().collect(),
        total,
    )
}

/// The closed set of values a parameter takes, as text.
fn choices(schema: &Map<String, Value>) -> Vec<String> {
    let listed = |schema: &Map<String, Value>| -> Option<Vec<String>> {
        schema.get("enum").and_then(Value::as_array).map(|values| {
            values
                .iter()
                .map(|value| match value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                })
                .collect()
        })
    };
    if let Some(values) = listed(schema) {
        return values;
    }
    if let Some(items) = schema.get("items").and_then(Value::as_object)
        && let Some(values) = listed(items)
    {
        return values;
    }
    if schema.get("type") == Some(&Value::from("boolean")) {
        return vec!["true".to_owned(), "false".to_owned()];
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool() -> Value {
        json!({
            "name": "deploy",
            "description": "Deploy a version",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "env": {"type": "string", "enum": ["staging", "production", "preview-east", "Prod-EU"], "description": "Where"},
                    "replicas": {"type": "integer"},
                    "dry-run": {"type": "boolean"},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
                    "note": {"type": "string"}
                },
                "required": ["env"],
                "additionalProperties": false
            }
        })
    }

    #[test]
    fn a_tool_prompt_has_one_argument_per_parameter() {
        let prompt = tool_prompt(&tool());
        assert_eq!(prompt["name"], "deploy");
        let arguments = prompt["arguments"].as_array().unwrap();
        assert_eq!(arguments.len(), 5);
        let env = arguments.iter().find(|a| a["name"] == "env").unwrap();
        assert_eq!(env["required"], true);
        assert_eq!(env["description"], "Where");
        let note = arguments.iter().find(|a| a["name"] == "note").unwrap();
        assert_eq!(note["required"], false);
    }

    #[test]
    fn enum_values_are_completed_prefix_first() {
        let (values, total) = complete(&tool(), "env", "pr");
        assert_eq!(values, ["production", "preview-east", "Prod-EU"]);
        assert_eq!(total, 3);
        let (values, _) = complete(&tool(), "env", "east");
        assert_eq!(values, ["preview-east"]);
        let (values, _) = complete(&tool(), "env", "");
        assert_eq!(values.len(), 4);
        assert_eq!(complete(&tool(), "dry-run", "t").0, ["true"]);
        assert_eq!(complete(&tool(), "tags", "").0, ["a", "b"]);
        // Free values, and names that are not arguments: nothing to offer.
        assert_eq!(complete(&tool(), "note", "x"), (Vec::new(), 0));
        assert_eq!(complete(&tool(), "nope", ""), (Vec::new(), 0));
    }

    #[test]
    fn completions_are_capped() {
        let many: Vec<String> = (0..250).map(|n| format!("v{n}")).collect();
        let tool = json!({"name": "t", "inputSchema": {"properties": {"x": {"enum": many}}}});
        let (values, total) = complete(&tool, "x", "v");
        assert_eq!(values.len(), MAX_COMPLETIONS);
        assert_eq!(total, 250);
    }

    #[test]
    fn a_tool_message_carries_typed_values_and_refuses_what_does_not_fit() {
        let given = |pairs: &[(&str, &str)]| -> Map<String, Value> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
                .collect()
        };
        let message = tool_message(
            &tool(),
            &given(&[
                ("env", "staging"),
                ("replicas", "3"),
                ("dry-run", "true"),
                ("tags", "a, b"),
            ]),
        )
        .unwrap();
        let json_start = message.find("```json\n").unwrap() + 8;
        let json_end = message[json_start..].find("\n```").unwrap() + json_start;
        let call: Value = serde_json::from_str(&message[json_start..json_end]).unwrap();
        assert_eq!(
            call,
            json!({"env": "staging", "replicas": 3, "dry-run": true, "tags": ["a", "b"]})
        );
        // Not an integer: kept as typed, for the guard to refuse.
        let message =
            tool_message(&tool(), &given(&[("env", "x"), ("replicas", "three")])).unwrap();
        assert!(message.contains("\"replicas\": \"three\""), "{message}");
        let (why, data) = tool_message(&tool(), &given(&[("replicas", "3")])).unwrap_err();
        assert!(why.contains("`env`"), "{why}");
        assert_eq!(data["missing"], json!(["env"]));
        let (why, _) = tool_message(&tool(), &given(&[("env", "x"), ("evil", "1")])).unwrap_err();
        assert!(why.contains("`evil`"), "{why}");
    }
}
