//! The JSON envelope (CLI Agent Spec): every json response has exactly the
//! keys `ok`, `data`, `error`, `warnings` and `meta`.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::error_code::{ErrorCode, Phase};
use super::exit;
use crate::request::{ENVELOPE_SCHEMA_VERSION, RequestIds};

/// One problem in a list of problems (`error.errors`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FieldError {
    pub field: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected_pattern: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl From<&super::Diagnostic> for FieldError {
    /// A finding listed in `error.errors`, keeping its stable code.
    fn from(diagnostic: &super::Diagnostic) -> Self {
        Self {
            field: diagnostic.field.clone(),
            message: diagnostic.message.clone(),
            code: Some(diagnostic.code.to_owned()),
            ..Self::default()
        }
    }
}

/// `error` in the envelope. `code` is UPPER_SNAKE and stable; the optional
/// fields appear only where they apply, so an agent can branch on presence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
    /// Whether the same call with other arguments can succeed (the code's
    /// default unless a caller knows better).
    pub retryable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected_pattern: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// Next steps for a person or an agent ("run `aigent schema list`").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
    /// Command-specific keys (for example `child_exit_code`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            retryable: code.retryable(),
            phase: None,
            field: None,
            input_value: None,
            rejected_pattern: None,
            expected: None,
            suggestion: None,
            errors: Vec::new(),
            hints: Vec::new(),
            extra: Map::new(),
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    pub fn with_extra(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Meta {
    pub duration_ms: u64,
    pub tool_version: &'static str,
    pub schema_version: &'static str,
    #[serde(flatten)]
    pub request: RequestIds,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// [`Envelope`] borrowed from an [`Outcome`]: the same document, written
/// without copying `data` (tens of megabytes for a large validation run).
#[derive(Serialize)]
struct EnvelopeRef<'a> {
    ok: bool,
    data: DataRef<'a>,
    error: &'a Option<ErrorBody>,
    warnings: &'a [String],
    meta: MetaRef<'a>,
}

/// `data` as a tree, or as the text [`Outcome::with_rendered_data`] wrote.
#[derive(Serialize)]
#[serde(untagged)]
enum DataRef<'a> {
    Tree(&'a Value),
    Rendered(&'a RawValue),
}

/// `data` serialized ahead of time: pretty-printed and indented as the
/// envelope nests it, so the envelope writes it as is. A JSON tree of a
/// 20,000-skill validation costs about 1 KB a skill; this text, a quarter.
#[derive(Debug, Clone)]
pub struct RenderedData(Box<RawValue>);

impl PartialEq for RenderedData {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

/// Indents every line after the first by one level of the envelope's
/// pretty printing. JSON text never holds a raw line break inside a
/// string, so each `\n` starts a line.
struct Nested<W> {
    inner: W,
}

impl<W: std::io::Write> std::io::Write for Nested<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for (index, line) in bytes.split(|&byte| byte == b'\n').enumerate() {
            if index > 0 {
                self.inner.write_all(b"\n  ")?;
            }
            self.inner.write_all(line)?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[derive(Serialize)]
struct MetaRef<'a> {
    duration_ms: u64,
    tool_version: &'static str,
    schema_version: &'static str,
    #[serde(flatten)]
    request: &'a RequestIds,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Envelope {
    pub ok: bool,
    pub data: Value,
    pub error: Option<ErrorBody>,
    pub warnings: Vec<String>,
    pub meta: Meta,
}

/// Where the json envelope is written. `run` sends it to stderr because the
/// child owns stdout.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum EnvelopeTarget {
    #[default]
    Stdout,
    Stderr,
    File(std::path::PathBuf),
}

/// What a subcommand produced, before rendering. Every subcommand returns
/// one of these (or an operational error), and the binary renders it once.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub exit_code: i32,
    pub data: Value,
    pub error: Option<ErrorBody>,
    pub warnings: Vec<String>,
    /// The rendering for text-like formats, written to stdout as is.
    pub text: String,
    pub envelope_target: EnvelopeTarget,
    pub meta: Map<String, Value>,
    /// The request this answers; `None` is this process's
    /// ([`RequestIds::current`]).
    pub request: Option<RequestIds>,
    /// The output is itself the artifact (a completion script, a bare JSON
    /// Schema): `text` is printed as is whatever the format, since wrapping
    /// it in an envelope would break `aigent completions zsh > _aigent`.
    pub verbatim: bool,
    /// `data` already serialized; when set, it is what the envelope holds
    /// and `data` is null.
    pub rendered_data: Option<RenderedData>,
}

impl Outcome {
    /// A successful result with its json data and its text rendering.
    pub fn success(data: Value, text: impl Into<String>) -> Self {
        Self {
            exit_code: exit::SUCCESS,
            data,
            error: None,
            warnings: Vec::new(),
            text: text.into(),
            envelope_target: EnvelopeTarget::Stdout,
            meta: Map::new(),
            request: None,
            verbatim: false,
            rendered_data: None,
        }
    }

    /// An artifact printed as is in every format.
    pub fn verbatim(text: impl Into<String>) -> Self {
        Self {
            verbatim: true,
            ..Self::success(Value::Null, text)
        }
    }

    /// A failure that still carries data (for example a validation report).
    pub fn failure(exit_code: i32, data: Value, error: ErrorBody, text: impl Into<String>) -> Self {
        Self {
            exit_code,
            data,
            error: Some(error),
            warnings: Vec::new(),
            text: text.into(),
            envelope_target: EnvelopeTarget::Stdout,
            meta: Map::new(),
            request: None,
            verbatim: false,
            rendered_data: None,
        }
    }

    /// Answers `request` rather than this process's request.
    pub fn for_request(mut self, request: RequestIds) -> Self {
        self.request = Some(request);
        self
    }

    /// Serializes `data` now, straight from the caller's structures, rather
    /// than as a JSON tree: for results too large to hold twice.
    pub fn with_rendered_data(mut self, data: &impl Serialize) -> serde_json::Result<Self> {
        let mut text = Vec::new();
        serde_json::to_writer_pretty(Nested { inner: &mut text }, data)?;
        let text = String::from_utf8(text).map_err(serde::ser::Error::custom)?;
        self.rendered_data = Some(RenderedData(RawValue::from_string(text)?));
        self.data = Value::Null;
        Ok(self)
    }

    /// `data` as a JSON tree, whichever way it is held.
    pub fn data_value(&self) -> Value {
        match &self.rendered_data {
            Some(RenderedData(raw)) => serde_json::from_str(raw.get()).unwrap_or(Value::Null),
            None => self.data.clone(),
        }
    }

    pub fn with_warnings(mut self, warnings: Vec<String>) -> Self {
        self.warnings = warnings;
        self
    }

    /// Writes the envelope, pretty-printed and ending in a newline, straight
    /// to `writer`: no copy of `data`, no string of the whole document.
    pub fn write_envelope(
        &self,
        duration_ms: u64,
        mut writer: impl std::io::Write,
    ) -> std::io::Result<()> {
        let data = match &self.rendered_data {
            Some(RenderedData(raw)) => DataRef::Rendered(raw),
            None => DataRef::Tree(&self.data),
        };
        let envelope = EnvelopeRef {
            ok: self.exit_code == exit::SUCCESS,
            data,
            error: &self.error,
            warnings: &self.warnings,
            meta: MetaRef {
                duration_ms,
                tool_version: super::TOOL_VERSION,
                schema_version: ENVELOPE_SCHEMA_VERSION,
                request: self
                    .request
                    .as_ref()
                    .unwrap_or_else(|| RequestIds::current()),
                extra: &self.meta,
            },
        };
        serde_json::to_writer_pretty(&mut writer, &envelope).map_err(std::io::Error::other)?;
        writer.write_all(b"\n")?;
        writer.flush()
    }

    pub fn envelope(&self, duration_ms: u64) -> Envelope {
        Envelope {
            ok: self.exit_code == exit::SUCCESS,
            data: self.data_value(),
            error: self.error.clone(),
            warnings: self.warnings.clone(),
            meta: Meta {
                duration_ms,
                tool_version: super::TOOL_VERSION,
                schema_version: ENVELOPE_SCHEMA_VERSION,
                request: self
                    .request
                    .clone()
                    .unwrap_or_else(|| RequestIds::current().clone()),
                extra: self.meta.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rendered_data_writes_the_same_bytes_as_its_tree() {
        let data = json!({
            "skills": [{"path": "a\nb", "tokens": {"body": 3}, "diagnostics": []}],
            "summary": {"checked": 1, "empty": {}},
        });
        let tree = Outcome::success(data.clone(), "");
        let rendered = Outcome::success(Value::Null, "")
            .with_rendered_data(&data)
            .unwrap();
        assert_eq!(rendered.data, Value::Null);
        assert_eq!(rendered.data_value(), data);
        let (mut from_tree, mut from_rendered) = (Vec::new(), Vec::new());
        tree.write_envelope(1, &mut from_tree).unwrap();
        rendered.write_envelope(1, &mut from_rendered).unwrap();
        assert_eq!(
            String::from_utf8(from_rendered).unwrap(),
            String::from_utf8(from_tree).unwrap()
        );
        assert_eq!(rendered.envelope(1).data, data);
    }

    #[test]
    fn the_written_envelope_is_the_envelope() {
        let mut outcome =
            Outcome::success(json!({"x": [1, 2]}), "x").with_warnings(vec!["w".into()]);
        outcome.meta.insert("extra".into(), json!(true));
        let mut written = Vec::new();
        outcome.write_envelope(7, &mut written).unwrap();
        assert!(written.ends_with(b"}\n"));
        let parsed: Value = serde_json::from_slice(&written).unwrap();
        assert_eq!(parsed, serde_json::to_value(outcome.envelope(7)).unwrap());
    }

    #[test]
    fn envelope_always_has_the_five_keys() {
        let outcome = Outcome::success(json!({"x": 1}), "x");
        let value = serde_json::to_value(outcome.envelope(3)).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["ok", "data", "error", "warnings", "meta"]);
        assert_eq!(value["error"], Value::Null);
        assert_eq!(value["meta"]["duration_ms"], 3);
        assert_eq!(value["meta"]["tool_version"], crate::report::TOOL_VERSION);
    }

    #[test]
    fn ok_follows_the_exit_code() {
        let failed = Outcome::failure(
            exit::VALIDATION_FAILED,
            Value::Null,
            ErrorBody::new(ErrorCode::ValidationFailed, "1 skill has errors"),
            "",
        );
        let value = serde_json::to_value(failed.envelope(0)).unwrap();
        assert_eq!(value["ok"], false);
        assert_eq!(value["error"]["code"], "VALIDATION_FAILED");
        assert_eq!(value["error"]["retryable"], false);
        assert!(
            value["error"].get("phase").is_none(),
            "absent fields are left out"
        );
    }

    #[test]
    fn extra_error_keys_are_flattened() {
        let body =
            ErrorBody::new(ErrorCode::CommandFailed, "exit 3").with_extra("child_exit_code", 3);
        let value = serde_json::to_value(body).unwrap();
        assert_eq!(value["child_exit_code"], 3);
    }
}
