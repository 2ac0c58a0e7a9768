//! Findings as data: what validators return instead of printing.

use serde::Serialize;
use std::fmt;
use strum::IntoStaticStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, IntoStaticStr)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    /// Worth a look, never a failure (not even with `--strict`).
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding. `code` is stable across releases and documented in the
/// README; `message` is for people and may be reworded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: &'static str,
    pub field: Option<String>,
    pub message: String,
    /// 1-based line in the file the diagnostic is about, where known.
    pub line: Option<usize>,
    /// The file that `line` counts in, when it is not the file being
    /// reported on (a script that a declaration runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    pub fn note(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Note, code, message)
    }

    fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            severity,
            code,
            field: None,
            message: message.into(),
            line: None,
            file: None,
        }
    }

    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub fn with_line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self
    }

    /// Places the diagnostic at `line` of another file.
    pub fn in_file(mut self, file: impl Into<String>, line: usize) -> Self {
        self.file = Some(file.into());
        self.line = Some(line);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
