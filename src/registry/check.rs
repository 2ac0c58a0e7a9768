//! The whole registration check of one declaration: its fields
//! (`contract::parse`), the cross-field lint (`contract::lint`), then the
//! checks that need the guard (a default must pass its own parameter).

use serde_json::Value;

use crate::contract::lint::{LintContext, lint_declaration};
use crate::contract::{
    Origin, Parsed, SourceFormat, read_builtin_declaration, read_declaration, read_value,
};
use crate::guard;

/// Parses and lints one declaration from its text.
pub fn parse_declaration(text: &str, format: SourceFormat, origin: &Origin<'_>) -> Parsed {
    lint(read_declaration(text, format, origin), origin)
}

/// Parses one of aigent's own catalog declarations without the lint, its
/// patterns compiled only when first used: the catalog is compiled in, and
/// its tests hold every entry to the whole check (`tests/it/catalog.rs`,
/// `super::embedded`), so repeating it at each load would only cost time
/// (the lint's pattern checks build DFAs, each pattern compiles to a
/// regex), in every hook call.
pub fn parse_catalog_declaration(text: &str, origin: &Origin<'_>) -> Parsed {
    read_builtin_declaration(text, origin).settle()
}

/// Parses and lints one declaration from an already-parsed document.
pub fn parse_value(document: &Value, origin: &Origin<'_>) -> Parsed {
    lint(read_value(document, origin), origin)
}

fn lint(mut parsed: Parsed, origin: &Origin<'_>) -> Parsed {
    if let Some(declaration) = &parsed.declaration {
        let context = LintContext { file: origin.file };
        parsed
            .diagnostics
            .extend(lint_declaration(declaration, &context));
        parsed
            .diagnostics
            .extend(guard::default_diagnostics(declaration));
    }
    parsed.settle()
}
