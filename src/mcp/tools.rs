//! `tools/list`: one tool per runnable declaration. Kept as plain JSON so
//! the SDK types appear only in `server.rs`.

use serde_json::{Map, Value, json};

use crate::contract::sandbox::{EffectiveSandbox, Network};
use crate::contract::{DangerLevel, Declaration};
use crate::registry::{LoadError, Registry, to_json_schema};

/// One declaration as an MCP tool definition (the wire form of `Tool`).
pub fn tool_definition(declaration: &Declaration) -> Value {
    let mut input_schema = to_json_schema(declaration);
    if let Value::Object(object) = &mut input_schema {
        // The tool's own name and description already say these.
        object.remove("title");
        if object.get("description") == Some(&Value::from(declaration.description.clone())) {
            object.remove("description");
        }
        // MCP wants a closed object; the guard refuses unknown names anyway,
        // and saying so up front spares the agent a rejected call.
        object.insert("type".to_owned(), Value::from("object"));
        object.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    json!({
        "name": declaration.name,
        "title": declaration.name,
        "description": declaration.description,
        "inputSchema": input_schema,
        "outputSchema": output_schema(),
        "annotations": annotations(declaration),
    })
}

/// Every MCP tool annotation, from the declaration: the danger level says
/// read-only, destructive and idempotent (only a `safe` command is known to
/// be idempotent: reading twice changes nothing); the sandbox's network
/// says whether the command reaches beyond the machine.
pub fn annotations(declaration: &Declaration) -> Value {
    let danger = declaration.danger_level;
    let mut annotations = Map::new();
    annotations.insert("title".to_owned(), Value::from(declaration.name.clone()));
    let safe = danger == Some(DangerLevel::Safe);
    annotations.insert("readOnlyHint".to_owned(), Value::Bool(safe));
    // Undeclared: no destructiveHint, so MCP's default ("may be") applies.
    if danger.is_some() {
        annotations.insert(
            "destructiveHint".to_owned(),
            Value::Bool(danger == Some(DangerLevel::Destructive)),
        );
    }
    annotations.insert("idempotentHint".to_owned(), Value::Bool(safe));
    let network = EffectiveSandbox::of(declaration).network;
    annotations.insert(
        "openWorldHint".to_owned(),
        Value::Bool(network != Network::None),
    );
    Value::Object(annotations)
}

/// The `structuredContent` of a call: the execution result when the
/// command ran (whatever its status), else aigent's JSON envelope (a
/// rejection, a refusal, a command that could not start), as `args check`
/// and `run` print it. Kept terse: every tool repeats it in `tools/list`.
pub fn output_schema() -> Value {
    let integer_or_null = json!({"type": ["integer", "null"]});
    let boolean = json!({"type": "boolean"});
    let string = json!({"type": "string"});
    json!({
        "type": "object",
        "anyOf": [
            {
                "properties": {
                    "command": string, "ok": boolean,
                    "error": {"type": ["object", "null"], "required": ["code", "message"]},
                    "child_exit_code": integer_or_null,
                    "child_exit": {"type": ["object", "null"], "properties": {"name": string, "success": boolean}},
                    "signal": integer_or_null,
                    "timed_out": boolean, "cancelled": boolean, "duration_ms": {"type": "integer"},
                    "stdout": string, "stderr": string,
                    "stdout_truncated": boolean, "stderr_truncated": boolean,
                    "request_id": string,
                },
                "required": ["ok", "error", "child_exit_code", "stdout", "stderr", "stdout_truncated", "stderr_truncated", "request_id"],
            },
            {
                "properties": {"ok": {"const": false}, "error": {"type": "object", "required": ["code", "message"]}},
                "required": ["ok", "error"],
            },
        ],
    })
}

/// Why a declaration in the registry is not served as a tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub name: String,
    pub file: String,
    pub reason: String,
}

/// Every tool of a registry, its declarations parsed in parallel through
/// [`Registry::load`], the path `run` takes; a name declared twice is
/// refused as `load` refuses it.
pub fn load_tools(registry: &Registry) -> Result<(Vec<Value>, Vec<Skipped>), LoadError> {
    use rayon::prelude::*;
    let mut names: Vec<String> = registry
        .entries()?
        .into_iter()
        .map(|entry| entry.name)
        .collect();
    names.dedup();
    let loaded: Vec<Result<Value, Skipped>> = names
        .par_iter()
        .map(|name| {
            let skip = |reason: String, file: String| Skipped {
                name: name.clone(),
                file,
                reason,
            };
            match registry.load(name) {
                Ok(loaded) if loaded.declaration.subprocess.is_some() => {
                    Ok(tool_definition(&loaded.declaration))
                }
                Ok(loaded) => Err(skip(
                    "it declares no subprocess, so there is nothing to run".into(),
                    loaded.file,
                )),
                Err(LoadError::Invalid {
                    file, diagnostics, ..
                }) => {
                    let codes: Vec<String> = diagnostics
                        .iter()
                        .filter(|diagnostic| diagnostic.is_error())
                        .map(|diagnostic| format!("{} {}", diagnostic.code, diagnostic.message))
                        .collect();
                    Err(skip(
                        format!("the declaration is invalid: {}", codes.join("; ")),
                        file,
                    ))
                }
                Err(err) => Err(skip(err.to_string(), registry.describe())),
            }
        })
        .collect();
    let mut tools = Vec::with_capacity(loaded.len());
    let mut skipped = Vec::new();
    for result in loaded {
        match result {
            Ok(tool) => tools.push(tool),
            Err(skip) => skipped.push(skip),
        }
    }
    Ok((tools, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embedded(name: &str) -> Declaration {
        Registry::Catalog.load(name).unwrap().declaration
    }

    #[test]
    fn input_schema_is_closed_and_annotations_follow_danger() {
        let (tools, _) = load_tools(&Registry::Catalog).unwrap();
        assert!(!tools.is_empty());
        for tool in &tools {
            assert_eq!(tool["inputSchema"]["additionalProperties"], false, "{tool}");
            assert_eq!(tool["inputSchema"]["type"], "object");
            let name = tool["name"].as_str().unwrap();
            let danger = embedded(name).danger_level;
            assert_eq!(
                tool["annotations"]["readOnlyHint"],
                danger == Some(DangerLevel::Safe),
                "{name}"
            );
            if danger == Some(DangerLevel::Destructive) {
                assert_eq!(tool["annotations"]["destructiveHint"], true);
            }
        }
    }

    /// Every structuredContent a call can return matches the outputSchema.
    #[test]
    fn results_and_envelopes_match_the_output_schema() {
        let validator = jsonschema::validator_for(&output_schema()).unwrap();
        let execution = json!({
            "command": "x", "ok": true, "error": null, "child_exit_code": 0,
            "child_exit": {"name": "SUCCESS", "success": true}, "signal": null, "timed_out": false,
            "cancelled": false, "duration_ms": 3, "stdout": "", "stderr": "",
            "stdout_truncated": false, "stderr_truncated": false, "warnings": [],
            "request_id": "6f1c7f5e-2f0b-4c4e-9a57-0c1f0c8d2b1a",
        });
        assert!(validator.is_valid(&execution));
        // A command that ran and failed carries `error` as `run` does.
        let failed = json!({
            "command": "x", "ok": false,
            "error": {"code": "COMMAND_FAILED", "message": "`x` exited with status 2"},
            "child_exit_code": 2, "child_exit": null, "signal": null, "timed_out": false,
            "cancelled": false, "duration_ms": 3, "stdout": "", "stderr": "",
            "stdout_truncated": false, "stderr_truncated": false, "warnings": [],
            "request_id": "6f1c7f5e-2f0b-4c4e-9a57-0c1f0c8d2b1a",
        });
        assert!(validator.is_valid(&failed));
        let outcome = crate::report::Outcome::failure(
            json!({"command": "x"}),
            crate::report::ErrorBody::new(crate::report::ErrorCode::InvalidAgentInput, "bad"),
            "",
        );
        let envelope = serde_json::to_value(outcome.envelope(0)).unwrap();
        assert!(validator.is_valid(&envelope), "{envelope}");
        assert!(!validator.is_valid(&json!({"stdout": ""})));
    }
}
