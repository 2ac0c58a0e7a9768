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

/// A stable diagnostic code that owns its severity and what it catches.
/// The skill, contract and plugin tables are enums made by
/// [`diagnostic_codes!`](crate::report::diagnostic_codes), each variant
/// written once with its id, severity and meaning.
pub trait DiagnosticCode: Copy {
    /// The stable id (`E001`, `W105`, `P003`).
    fn id(self) -> &'static str;
    fn severity(self) -> Severity;
    /// What the code catches, as the reference tables say it.
    fn meaning(self) -> &'static str;
}

/// Declares a code table: an enum whose variants each carry an id, a
/// severity and a meaning, with `ALL` and `TABLE` (the rows, in order) and
/// the [`DiagnosticCode`] impl. A diagnostic's code compares equal to its
/// variant (`diagnostic.code == Code::UnknownKey`).
macro_rules! diagnostic_codes {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $id:literal, $severity:ident, $meaning:expr; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every code, in the order of the reference table.
            pub const ALL: &'static [$name] = &[$(Self::$variant),*];
            /// Every code's id, severity and meaning, in the same order.
            pub const TABLE: &'static [(&'static str, $crate::report::Severity, &'static str)] =
                &[$(($id, $crate::report::Severity::$severity, $meaning)),*];

            pub const fn id(self) -> &'static str {
                match self { $(Self::$variant => $id,)* }
            }

            pub const fn severity(self) -> $crate::report::Severity {
                match self { $(Self::$variant => $crate::report::Severity::$severity,)* }
            }

            pub const fn meaning(self) -> &'static str {
                match self { $(Self::$variant => $meaning,)* }
            }
        }

        impl $crate::report::DiagnosticCode for $name {
            fn id(self) -> &'static str {
                $name::id(self)
            }
            fn severity(self) -> $crate::report::Severity {
                $name::severity(self)
            }
            fn meaning(self) -> &'static str {
                $name::meaning(self)
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.id()
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.id())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.id())
            }
        }
    };
}
pub(crate) use diagnostic_codes;

#[cfg(test)]
diagnostic_codes! {
    /// Codes for the tests of `report`, which sits below every table.
    pub enum TestCode {
        E1 = "E1", Error, "a test error";
        E001 = "E001", Error, "the `thing` is missing";
        E003 = "E003", Error, "a test error";
        E017 = "E017", Error, "a test error";
        W001 = "W001", Warning, "the thing is odd";
        W002 = "W002", Warning, "a test warning";
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
    /// A finding of `code`, with the severity the code's table gives it: no
    /// call site chooses a severity of its own (`--strict` may promote a
    /// warning afterwards, as policy).
    pub fn new(code: impl DiagnosticCode, message: impl Into<String>) -> Self {
        Self {
            severity: code.severity(),
            code: code.id(),
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
