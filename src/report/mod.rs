//! The output contract shared by every subcommand: exit codes, diagnostics,
//! the JSON envelope and the text styling used to render them.

pub mod diagnostic;
pub mod envelope;
pub mod escape;
pub mod exit;
pub mod format;
pub mod github;
pub mod sarif;
pub mod style;

pub use diagnostic::{Diagnostic, Severity};
pub use envelope::{Envelope, EnvelopeTarget, ErrorBody, FieldError, Meta, Outcome};
pub use escape::escape_controls;
pub use format::{ColorChoice, OutputFormat, resolve_color, resolve_format};
pub use style::Style;

/// The version that `meta.tool_version` reports.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The page with a section per diagnostic code (anchors `#e001`, ...),
/// linked from SARIF rule help: under Cargo.toml's `repository`, or the
/// address the README gives while that is unset. (`concat!` takes literals
/// only, so the two cases are spelled out.)
pub const DIAGNOSTICS_PAGE: &str = if env!("CARGO_PKG_REPOSITORY").is_empty() {
    "https://github.com/your-org/aigent/blob/main/docs/diagnostics.md"
} else {
    concat!(
        env!("CARGO_PKG_REPOSITORY"),
        "/blob/main/docs/diagnostics.md"
    )
};
