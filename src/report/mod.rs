//! The output contract shared by every subcommand: exit codes, diagnostics,
//! the JSON envelope and the text styling used to render them.

pub mod diagnostic;
pub mod envelope;
pub mod error_code;
pub mod escape;
pub mod exit;
pub mod findings;
pub mod format;
pub mod github;
pub mod page;
pub mod pretty;
pub mod rows;
pub mod sarif;
pub mod style;

pub(crate) use diagnostic::diagnostic_codes;
pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};
pub use envelope::{Envelope, EnvelopeTarget, ErrorBody, FieldError, Meta, Outcome, Written};
pub use error_code::{ErrorCode, Phase};
pub use escape::escape_controls;
pub use format::{ColorChoice, OutputFormat, TerminalHints, resolve_color, resolve_format};
pub use style::Style;

/// The version that `meta.tool_version` reports.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where the documentation lives, for links in output (SARIF rule help):
/// under Cargo.toml's `repository`; empty while that is unset, and then no
/// link is given (a placeholder address would send readers nowhere).
/// (`concat!` takes literals only, hence the two spellings.)
macro_rules! docs_page {
    ($page:literal) => {
        if env!("CARGO_PKG_REPOSITORY").is_empty() {
            ""
        } else {
            concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/", $page)
        }
    };
}

/// The reference page of the skill diagnostic codes.
pub const SKILL_CODES_PAGE: &str = docs_page!("reference/skill-codes.md");

/// The reference page of the plugin codes.
pub const PLUGIN_CODES_PAGE: &str = docs_page!("reference/plugin-codes.md");

/// The reference page of the registration-lint codes.
pub const SCHEMA_CODES_PAGE: &str = docs_page!("reference/schema-codes.md");
