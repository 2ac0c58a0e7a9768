//! The output contract shared by every subcommand: exit codes, diagnostics,
//! the JSON envelope and the text styling used to render them.

pub mod diagnostic;
pub mod envelope;
pub mod escape;
pub mod exit;
pub mod format;
pub mod github;
pub mod style;

pub use diagnostic::{Diagnostic, Severity};
pub use envelope::{Envelope, EnvelopeTarget, ErrorBody, FieldError, Meta, Outcome};
pub use escape::escape_controls;
pub use format::{ColorChoice, OutputFormat, resolve_color, resolve_format};
pub use style::Style;

/// The version that `meta.tool_version` reports.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");
