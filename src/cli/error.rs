//! Operational failures at the binary's edge, each with its exit code and
//! an envelope-ready body.

use aigent::report::{ErrorBody, ErrorCode, Outcome};

#[derive(Debug, Clone)]
pub struct CliError {
    pub exit_code: i32,
    /// Boxed so `Result<Outcome, CliError>` stays small on the happy path.
    pub body: Box<ErrorBody>,
}

impl CliError {
    pub fn new(exit_code: i32, code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            exit_code,
            body: Box::new(ErrorBody::new(code, message)),
        }
    }

    /// A failure that exits with its code's own exit code.
    pub fn of(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::new(code.exit_code(), code, message)
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::ArgError, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::NotFound, message)
    }

    pub fn precondition(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::Precondition, message)
    }

    pub fn general(message: impl Into<String>) -> Self {
        Self::of(ErrorCode::GeneralError, message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.body.hints.push(hint.into());
        self
    }

    /// The failure as an outcome with no data, for a command that needs to
    /// adjust it (where its envelope goes) before it is rendered.
    pub fn into_outcome(self) -> Outcome {
        Outcome::failure_with_exit_code(
            self.exit_code,
            serde_json::Value::Null,
            *self.body,
            String::new(),
        )
    }
}

impl From<aigent::registry::LoadError> for CliError {
    fn from(err: aigent::registry::LoadError) -> Self {
        let body = aigent::outcome::load_error_body(&err);
        Self {
            exit_code: body.code.exit_code(),
            body: Box::new(body),
        }
    }
}

/// Lint warnings of a loaded declaration, as envelope warnings.
pub fn diagnostic_warnings(file: &str, diagnostics: &[aigent::report::Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|diagnostic| {
            aigent::registry::render::render_diagnostic(
                file,
                diagnostic,
                aigent::report::Style::PLAIN,
            )
        })
        .collect()
}
