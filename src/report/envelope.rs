//! The JSON envelope (CLI Agent Spec): every json response has exactly the
//! keys `ok`, `data`, `error`, `warnings` and `meta`.

use std::io::Write;

use serde::Serialize;
use serde_json::{Map, Value};

use super::error_code::{ErrorCode, Phase};
use super::exit;
use super::pretty::{Indented, write_key};
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
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
    /// The CLI Agent Spec's meaning: the same call, unchanged, may succeed
    /// (and nothing was changed). The code's default unless a caller knows
    /// better ([`ErrorCode::retryable`]).
    pub retryable: bool,
    /// What to correct before reissuing, for a failure the caller can
    /// correct (the code's default, [`ErrorCode::fix_required`]). Written
    /// only while `retryable` is false.
    pub fix_required: Option<String>,
    /// One command, run as is, that resolves `fix_required`: read-only or
    /// idempotent, never a destructive one. Written only while `retryable`
    /// is false.
    pub fix_command: Option<String>,
    pub phase: Option<Phase>,
    pub field: Option<String>,
    pub input_value: Option<String>,
    pub rejected_pattern: Option<String>,
    pub expected: Option<String>,
    pub suggestion: Option<String>,
    pub errors: Vec<FieldError>,
    /// Next steps for a person or an agent ("run `aigent schema list`").
    pub hints: Vec<String>,
    /// Command-specific keys (for example `child_exit_code`).
    pub extra: Map<String, Value>,
}

/// `error` as written: absent fields left out, and no remedy on a
/// retryable error (the spec gives `fix_required` and `fix_command` only
/// where the same call would fail again).
#[derive(Serialize)]
struct ErrorBodyWire<'a> {
    code: ErrorCode,
    message: &'a str,
    retryable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix_required: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix_command: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    phase: Option<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejected_pattern: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<&'a str>,
    #[serde(skip_serializing_if = "<[FieldError]>::is_empty")]
    errors: &'a [FieldError],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    hints: &'a [String],
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

impl Serialize for ErrorBody {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        fn remedy(retryable: bool, value: &Option<String>) -> Option<&str> {
            value
                .as_deref()
                .filter(|text| !retryable && !text.is_empty())
        }
        ErrorBodyWire {
            code: self.code,
            message: &self.message,
            retryable: self.retryable,
            fix_required: remedy(self.retryable, &self.fix_required),
            fix_command: remedy(self.retryable, &self.fix_command),
            phase: self.phase,
            field: self.field.as_deref(),
            input_value: self.input_value.as_deref(),
            rejected_pattern: self.rejected_pattern.as_deref(),
            expected: self.expected.as_deref(),
            suggestion: self.suggestion.as_deref(),
            errors: &self.errors,
            hints: &self.hints,
            extra: &self.extra,
        }
        .serialize(serializer)
    }
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            retryable: code.retryable(),
            fix_required: code.fix_required().map(str::to_owned),
            fix_command: None,
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

    /// The condition to correct, where this failure's is more precise
    /// than its code's.
    pub fn with_fix_required(mut self, fix: impl Into<String>) -> Self {
        self.fix_required = Some(fix.into());
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

/// What a command wrote itself while it ran: a result too large to hold
/// (a validation of thousands of skills) goes out as it is made, and the
/// outcome (exit code, error, warnings) is known only at its end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Written {
    /// Nothing: the outcome is written whole.
    #[default]
    Nothing,
    /// In json mode, the envelope's start and its `data`: `ok`, `error`,
    /// `warnings` and `meta` follow ([`Outcome::write_envelope_after_data`]);
    /// in other formats, the text (warnings and the error still go to
    /// stderr).
    Body,
    /// Everything that can be: the output failed midway.
    All,
}

/// Writes `,\n  "key": value` as the envelope's pretty printing nests it.
fn write_field(writer: &mut impl Write, key: &str, value: &impl Serialize) -> std::io::Result<()> {
    write_key(writer, false, b"  ", key, value)
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
    /// What the command already wrote itself.
    pub written: Written,
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
            written: Written::Nothing,
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
            written: Written::Nothing,
        }
    }

    /// Answers `request` rather than this process's request.
    pub fn for_request(mut self, request: RequestIds) -> Self {
        self.request = Some(request);
        self
    }

    /// The outcome of a command that wrote its output itself as it ran.
    pub fn after_writing(mut self, written: Written) -> Self {
        self.written = written;
        self
    }

    /// `data` as a JSON tree.
    pub fn data_value(&self) -> Value {
        self.data.clone()
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
        let meta = self.meta_ref(duration_ms);
        let ok = self.exit_code == exit::SUCCESS;
        writer.write_all(if ok {
            b"{\n  \"ok\": true"
        } else {
            b"{\n  \"ok\": false"
        })?;
        writer.write_all(b",\n  \"data\": ")?;
        serde_json::to_writer_pretty(Indented::new(&mut writer, b"  "), &self.data)
            .map_err(super::pretty::io_error)?;
        self.write_after_data(meta, writer)
    }

    /// The envelope's keys after a streamed `data` (which the stream wrote
    /// after `{\n  "data": `): `ok`, then `error`, `warnings` and `meta`,
    /// and the closing brace.
    pub fn write_envelope_after_data(
        &self,
        duration_ms: u64,
        mut writer: impl Write,
    ) -> std::io::Result<()> {
        let ok = self.exit_code == exit::SUCCESS;
        write_field(&mut writer, "ok", &ok)?;
        let meta = self.meta_ref(duration_ms);
        self.write_after_data(meta, writer)
    }

    fn meta_ref(&self, duration_ms: u64) -> MetaRef<'_> {
        MetaRef {
            duration_ms,
            tool_version: super::TOOL_VERSION,
            schema_version: ENVELOPE_SCHEMA_VERSION,
            request: self
                .request
                .as_ref()
                .unwrap_or_else(|| RequestIds::current()),
            extra: &self.meta,
        }
    }

    fn write_after_data(&self, meta: MetaRef<'_>, mut writer: impl Write) -> std::io::Result<()> {
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
    fn a_streamed_envelope_has_its_data_first_and_the_same_keys() {
        let outcome = Outcome::failure(
            Value::Null,
            ErrorBody::new(ErrorCode::ValidationFailed, "bad"),
            "",
        )
        .with_warnings(vec!["w".into()]);
        let mut written = b"{\n  \"data\": ".to_vec();
        crate::report::pretty::write_nested(&mut written, b"  ", &json!({"skills": [1]})).unwrap();
        outcome.write_envelope_after_data(4, &mut written).unwrap();
        let text = String::from_utf8(written).unwrap();
        let parsed: Value = serde_json::from_str(&text).unwrap();
        let mut whole = serde_json::to_value(outcome.envelope(4)).unwrap();
        whole["data"] = json!({"skills": [1]});
        assert_eq!(parsed, whole);
        let keys: Vec<&str> = parsed
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys.len(), 5);
        assert!(text.find("\"data\"") < text.find("\"ok\""), "{text}");
        assert!(text.ends_with("}\n"));
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
    fn a_caller_correctable_error_says_what_to_fix_and_a_retryable_one_does_not() {
        let mut body = ErrorBody::new(ErrorCode::NotFound, "no such command");
        body.fix_command = Some("aigent schema list".to_owned());
        let value = serde_json::to_value(&body).unwrap();
        assert_eq!(value["retryable"], false);
        assert_eq!(
            value["fix_required"],
            ErrorCode::NotFound.fix_required().unwrap()
        );
        assert_eq!(value["fix_command"], "aigent schema list");
        body.retryable = true;
        let value = serde_json::to_value(&body).unwrap();
        assert!(value.get("fix_required").is_none(), "{value}");
        assert!(value.get("fix_command").is_none(), "{value}");
        let terminal = serde_json::to_value(ErrorBody::new(ErrorCode::CommandKilled, "x")).unwrap();
        assert!(terminal.get("fix_required").is_none(), "{terminal}");
    }

    #[test]
    fn extra_error_keys_are_flattened() {
        let body =
            ErrorBody::new(ErrorCode::CommandFailed, "exit 3").with_extra("child_exit_code", 3);
        let value = serde_json::to_value(body).unwrap();
        assert_eq!(value["child_exit_code"], 3);
    }
}
