//! Operational failures at the binary's edge, each with its exit code and
//! an envelope-ready body.

use aigent::report::{ErrorBody, ErrorCode, FieldError, Outcome};

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
        Outcome::failure(
            self.exit_code,
            serde_json::Value::Null,
            *self.body,
            String::new(),
        )
    }
}

impl From<aigent::registry::LoadError> for CliError {
    fn from(err: aigent::registry::LoadError) -> Self {
        use aigent::registry::LoadError;
        let message = err.to_string();
        match err {
            LoadError::NotFound { closest, .. } => {
                let mut error = Self::not_found(message);
                if let Some(closest) = closest {
                    error = error.with_hint(format!("did you mean `{closest}`?"));
                }
                error.with_hint("run `aigent schema list` to see the declared commands")
            }
            LoadError::InvalidName { .. } => Self::not_found(message)
                .with_hint("run `aigent schema list` to see the declared commands"),
            LoadError::MissingRegistry { .. } => Self::not_found(message)
                .with_hint("point --commands (or AIGENT_COMMANDS) at a directory of declarations"),
            LoadError::Invalid {
                file, diagnostics, ..
            } => {
                let mut error = Self::of(ErrorCode::InvalidDeclaration, message);
                error.body.errors = diagnostics
                    .iter()
                    .filter(|diagnostic| diagnostic.is_error())
                    .map(FieldError::from)
                    .collect();
                error.body.extra.insert("file".to_owned(), file.into());
                error.with_hint("run `aigent schema lint` for every problem in the registry")
            }
            LoadError::Duplicate { files, .. } => {
                let mut error = Self::of(ErrorCode::DuplicateCommand, message);
                error.body.extra.insert("files".to_owned(), files.into());
                error.with_hint("keep one declaration file per command name")
            }
            LoadError::Unreadable { .. } | LoadError::RegistryUnreadable { .. } => {
                Self::precondition(message)
            }
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
