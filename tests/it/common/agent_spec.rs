//! The CLI Agent Spec's own JSON Schemas (tests/fixtures/agent-spec, with
//! their source and commit in its README), compiled once per test binary:
//! every envelope a test parses, and aigent's manifest, are checked
//! against them.

use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agent-spec")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("read {}: {err}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// Resolves the schemas' relative `$ref`s (`exit-code-entry.json`) to the
/// fixtures, and nothing else: no reference ever leaves the repository.
struct Fixtures;

impl jsonschema::Retrieve for Fixtures {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri.path().as_str().rsplit('/').next().unwrap_or_default();
        match name {
            "exit-code-entry.json" | "exit-code.json" => Ok(fixture(name)),
            _ => Err(format!("no fixture for {uri}").into()),
        }
    }
}

fn compile(name: &str) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .with_retriever(Fixtures)
        .build(&fixture(name))
        .unwrap_or_else(|err| panic!("{name} compiles: {err}"))
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|error| format!("{error} at `{}`", error.instance_path()))
        .collect()
}

/// Why `envelope` is not a valid `ResponseEnvelope` (empty when it is).
pub fn envelope_errors(envelope: &Value) -> Vec<String> {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    errors(
        VALIDATOR.get_or_init(|| compile("response-envelope.json")),
        envelope,
    )
}

/// Why `manifest` is not a valid `ManifestResponse` (empty when it is).
pub fn manifest_errors(manifest: &Value) -> Vec<String> {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    errors(
        VALIDATOR.get_or_init(|| compile("manifest-response.json")),
        manifest,
    )
}

/// Why `entry` is not a valid `ExitCodeEntry` (empty when it is).
pub fn exit_code_entry_errors(entry: &Value) -> Vec<String> {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    errors(
        VALIDATOR.get_or_init(|| compile("exit-code-entry.json")),
        entry,
    )
}
