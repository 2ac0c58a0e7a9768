//! The JSON envelope (CLI Agent Spec): every json response has exactly the
//! keys `ok`, `data`, `error`, `warnings` and `meta`.

use std::io::Write;
use std::sync::Arc;

use serde::Serialize;
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

/// `data` that writes itself, pretty-printed, straight into the output: a
/// result too large to hold twice (a validation of thousands of skills) is
/// serialized from its own structures while the envelope is written,
/// never as a JSON tree or a string of the whole document.
pub trait DataWriter: std::fmt::Debug + Send + Sync {
    fn write_pretty(&self, out: &mut dyn Write) -> serde_json::Result<()>;
}

impl<T: Serialize + std::fmt::Debug + Send + Sync> DataWriter for T {
    fn write_pretty(&self, out: &mut dyn Write) -> serde_json::Result<()> {
        serde_json::to_writer_pretty(out, self)
    }
}

/// The `data` an [`Outcome`] writes when the envelope is written; see
/// [`Outcome::with_deferred_data`].
#[derive(Debug, Clone)]
pub struct DeferredData(Arc<dyn DataWriter>);

impl PartialEq for DeferredData {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Writes `,\n  "key": value` as the envelope's pretty printing nests it.
fn write_field(writer: &mut impl Write, key: &str, value: &impl Serialize) -> std::io::Result<()> {
    writer.write_all(b",\n  ")?;
    serde_json::to_writer(&mut *writer, key).map_err(std::io::Error::other)?;
    writer.write_all(b": ")?;
    serde_json::to_writer_pretty(Nested { inner: writer }, value).map_err(std::io::Error::other)
}

/// Indents every line after the first by one level of the envelope's
/// pretty printing. JSON text never holds a raw line break inside a
/// string, so each `\n` starts a line.
struct Nested<W> {
    inner: W,
}

impl<W: Write> Write for Nested<W> {
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
    /// `data` written straight from the command's own structures; when
    /// set, it is what the envelope holds and `data` is null.
    pub deferred_data: Option<DeferredData>,
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
            deferred_data: None,
        }
    }

    /// An artifact printed as is in every format.
    pub fn verbatim(text: impl Into<String>) -> Self {
        Self {
            verbatim: true,
            ..Self::success(Value::Null, text)
        }
    }

    /// A failure that still carries data (for example a validation
    /// report). Its exit code is its error code's: nothing can pair a code
    /// with another exit.
    pub fn failure(data: Value, error: ErrorBody, text: impl Into<String>) -> Self {
        Self::failure_with_exit_code(error.code.exit_code(), data, error, text)
    }

    /// A failure whose exit status is not its code's alone: the child's
    /// status passed on (128 + a signal), a spawn failure's status, or an
    /// operational failure that carries its own exit code (`CliError`).
    pub fn failure_with_exit_code(
        exit_code: i32,
        data: Value,
        error: ErrorBody,
        text: impl Into<String>,
    ) -> Self {
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
            deferred_data: None,
        }
    }

    /// Answers `request` rather than this process's request.
    pub fn for_request(mut self, request: RequestIds) -> Self {
        self.request = Some(request);
        self
    }

    /// Takes `data` as the command's own structures, serialized only when
    /// the envelope is written, and straight into the output.
    pub fn with_deferred_data(mut self, data: impl DataWriter + 'static) -> Self {
        self.deferred_data = Some(DeferredData(Arc::new(data)));
        self.data = Value::Null;
        self
    }

    /// `data` as a JSON tree, whichever way it is held.
    pub fn data_value(&self) -> Value {
        let Some(DeferredData(data)) = &self.deferred_data else {
            return self.data.clone();
        };
        let mut text = Vec::new();
        match data.write_pretty(&mut text) {
            Ok(()) => serde_json::from_slice(&text).unwrap_or(Value::Null),
            Err(_) => Value::Null,
        }
    }

    pub fn with_warnings(mut self, warnings: Vec<String>) -> Self {
        self.warnings = warnings;
        self
    }

    /// Writes the envelope, pretty-printed and ending in a newline, straight
    /// to `writer`: no copy of `data`, no string of the whole document.
    /// Each field is written on its own, nested one level (the bytes are
    /// those of serializing [`Envelope`] whole), so that deferred `data`
    /// can write itself in place.
    pub fn write_envelope(&self, duration_ms: u64, mut writer: impl Write) -> std::io::Result<()> {
        let meta = MetaRef {
            duration_ms,
            tool_version: super::TOOL_VERSION,
            schema_version: ENVELOPE_SCHEMA_VERSION,
            request: self
                .request
                .as_ref()
                .unwrap_or_else(|| RequestIds::current()),
            extra: &self.meta,
        };
        let ok = self.exit_code == exit::SUCCESS;
        writer.write_all(if ok {
            b"{\n  \"ok\": true"
        } else {
            b"{\n  \"ok\": false"
        })?;
        writer.write_all(b",\n  \"data\": ")?;
        let mut nested = Nested { inner: &mut writer };
        match &self.deferred_data {
            Some(DeferredData(data)) => data.write_pretty(&mut nested),
            None => serde_json::to_writer_pretty(&mut nested, &self.data),
        }
        .map_err(std::io::Error::other)?;
        write_field(&mut writer, "error", &self.error)?;
        write_field(&mut writer, "warnings", &self.warnings)?;
        write_field(&mut writer, "meta", &meta)?;
        writer.write_all(b"\n}\n")?;
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

    /// The written bytes are those of serializing the whole envelope.
    fn assert_written_as_serialized(outcome: &Outcome) {
        let mut written = Vec::new();
        outcome.write_envelope(5, &mut written).unwrap();
        let mut serialized = serde_json::to_string_pretty(&outcome.envelope(5)).unwrap();
        serialized.push('\n');
        assert_eq!(String::from_utf8(written).unwrap(), serialized);
    }

    #[test]
    fn deferred_data_writes_the_same_bytes_as_its_tree() {
        let data = json!({
            "skills": [{"path": "a\nb", "tokens": {"body": 3}, "diagnostics": []}],
            "summary": {"checked": 1, "empty": {}},
        });
        let tree = Outcome::success(data.clone(), "");
        let deferred = Outcome::success(Value::Null, "").with_deferred_data(data.clone());
        assert_eq!(deferred.data, Value::Null);
        assert_eq!(deferred.data_value(), data);
        let (mut from_tree, mut from_deferred) = (Vec::new(), Vec::new());
        tree.write_envelope(1, &mut from_tree).unwrap();
        deferred.write_envelope(1, &mut from_deferred).unwrap();
        assert_eq!(
            String::from_utf8(from_deferred).unwrap(),
            String::from_utf8(from_tree).unwrap()
        );
        assert_written_as_serialized(&deferred);
    }

    #[test]
    fn every_field_is_written_as_the_whole_envelope_serializes() {
        assert_written_as_serialized(&Outcome::success(json!(null), ""));
        assert_written_as_serialized(
            &Outcome::success(json!([]), "").with_warnings(vec!["w\n1".into()]),
        );
        let mut failed = Outcome::failure(
            json!({"nested": {"deep": [1, {"x": "y"}]}}),
            ErrorBody::new(ErrorCode::ValidationFailed, "bad").with_hint("fix it"),
            "",
        );
        failed.meta.insert("extra".into(), json!({"k": [true]}));
        assert_written_as_serialized(&failed);
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
    fn a_failure_exits_with_its_codes_exit_code() {
        for code in ErrorCode::ALL {
            let failed = Outcome::failure(Value::Null, ErrorBody::new(*code, "x"), "");
            assert_eq!(failed.exit_code, code.exit_code(), "{code}");
        }
    }

    #[test]
    fn ok_follows_the_exit_code() {
        let failed = Outcome::failure(
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
