//! `tools/list`: one tool per runnable declaration. Kept as plain JSON so
//! the SDK types appear only in `server.rs`.

use serde_json::{Map, Value, json};

use crate::contract::{DangerLevel, Declaration, FileReport, to_json_schema};

/// One declaration as an MCP tool definition (the wire form of `Tool`).
pub fn tool_definition(declaration: &Declaration) -> Value {
    let mut input_schema = to_json_schema(declaration);
    if let Value::Object(object) = &mut input_schema {
        // MCP wants a closed object; the guard refuses unknown names anyway,
        // and saying so up front spares the agent a rejected call.
        object.insert("type".to_owned(), Value::from("object"));
        object.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    let danger = declaration.danger_level;
    let mut annotations = Map::new();
    annotations.insert("title".to_owned(), Value::from(declaration.name.clone()));
    annotations.insert(
        "readOnlyHint".to_owned(),
        Value::Bool(danger == Some(DangerLevel::Safe)),
    );
    // Undeclared: no destructiveHint, so MCP's default ("may be") applies.
    if matches!(
        danger,
        Some(DangerLevel::Mutating | DangerLevel::Destructive)
    ) {
        annotations.insert(
            "destructiveHint".to_owned(),
            Value::Bool(danger == Some(DangerLevel::Destructive)),
        );
    }
    // Commands run against the open world (networks, clusters, files).
    annotations.insert("openWorldHint".to_owned(), Value::Bool(true));
    json!({
        "name": declaration.name,
        "title": declaration.name,
        "description": declaration.description,
        "inputSchema": input_schema,
        "outputSchema": output_schema(),
        "annotations": annotations,
    })
}

/// The `structuredContent` of a call: the execution result when the
/// command ran (whatever its status), else aigent's JSON envelope (a
/// rejection, a refusal, a command that could not start), as `args check`
/// and `run` print it.
pub fn output_schema() -> Value {
    json!({
        "type": "object",
        "oneOf": [
            {
                "title": "execution",
                "type": "object",
                "properties": {
                    "command": {"type": "string"},
                    "exit_code": {"type": ["integer", "null"], "description": "null when a signal ended the command"},
                    "signal": {"type": ["integer", "null"]},
                    "timed_out": {"type": "boolean"},
                    "cancelled": {"type": "boolean"},
                    "duration_ms": {"type": "integer", "minimum": 0},
                    "stdout": {"type": "string", "description": "the first bytes of standard output, invalid UTF-8 replaced"},
                    "stderr": {"type": "string"},
                    "stdout_truncated": {"type": "boolean"},
                    "stderr_truncated": {"type": "boolean"},
                    "warnings": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["command", "exit_code", "signal", "timed_out", "cancelled", "duration_ms",
                             "stdout", "stderr", "stdout_truncated", "stderr_truncated"],
            },
            {
                "title": "envelope",
                "type": "object",
                "properties": {
                    "ok": {"const": false},
                    "data": {"type": "object"},
                    "error": {
                        "type": "object",
                        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                        "required": ["code", "message"],
                    },
                    "warnings": {"type": "array", "items": {"type": "string"}},
                    "meta": {"type": "object"},
                },
                "required": ["ok", "data", "error", "warnings", "meta"],
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

/// The tools a registry's reports make, and the declarations left out
/// (invalid, or with nothing to run).
pub fn tools_from_reports(reports: &[FileReport]) -> (Vec<Value>, Vec<Skipped>) {
    let mut tools = Vec::with_capacity(reports.len());
    let mut skipped = Vec::new();
    for report in reports {
        let skip = |reason: String| Skipped {
            name: report.name.clone(),
            file: report.file.clone(),
            reason,
        };
        match &report.declaration {
            Some(declaration) if !report.has_errors() => {
                if declaration.subprocess.is_some() {
                    tools.push(tool_definition(declaration));
                } else {
                    skipped.push(skip(
                        "it declares no subprocess, so there is nothing to run".into(),
                    ));
                }
            }
            _ => {
                let codes: Vec<String> = report
                    .diagnostics
                    .iter()
                    .filter(|diagnostic| diagnostic.is_error())
                    .map(|diagnostic| format!("{} {}", diagnostic.code, diagnostic.message))
                    .collect();
                skipped.push(skip(format!(
                    "the declaration is invalid: {}",
                    codes.join("; ")
                )));
            }
        }
    }
    (tools, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Registry;

    fn embedded(name: &str) -> Declaration {
        Registry::Embedded.load(name).unwrap().declaration
    }

    #[test]
    fn input_schema_is_closed_and_annotations_follow_danger() {
        let reports = Registry::Embedded.reports().unwrap();
        let (tools, _) = tools_from_reports(&reports);
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
            "command": "x", "exit_code": 0, "signal": null, "timed_out": false,
            "cancelled": false, "duration_ms": 3, "stdout": "", "stderr": "",
            "stdout_truncated": false, "stderr_truncated": false, "warnings": [],
        });
        assert!(validator.is_valid(&execution));
        let outcome = crate::report::Outcome::failure(
            2,
            json!({"command": "x"}),
            crate::report::ErrorBody::new("INVALID_AGENT_INPUT", "bad"),
            "",
        );
        let envelope = serde_json::to_value(outcome.envelope(0)).unwrap();
        assert!(validator.is_valid(&envelope), "{envelope}");
        assert!(!validator.is_valid(&json!({"stdout": ""})));
    }
}
