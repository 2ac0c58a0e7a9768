//! An open document's findings, from the library calls the CLI makes:
//! `skill validate` ([`crate::skill::check::validate_skill_text`]),
//! `schema lint` ([`crate::registry::Registry::report_text`]) and
//! `plugin validate` ([`crate::plugin::validate_manifest_text`]). Nothing
//! here checks anything itself; it only says where each finding goes.

use std::path::Path;

use super::document::{Document, Kind};
use super::settings::Settings;
use crate::registry::Registry;
use crate::report::Diagnostic;
use crate::skill::place::Places;
use crate::skill::{Profile, ValidateOptions};

/// A finding and the 0-based line it is shown on (`None`: the file as a
/// whole, shown on its first line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub diagnostic: Diagnostic,
    pub line: Option<usize>,
}

/// The options `skill validate` runs with under these settings.
pub fn skill_options(settings: &Settings) -> ValidateOptions {
    ValidateOptions {
        profile: settings.profile.unwrap_or(Profile::STANDARD),
        strict: settings.strict,
        profile_from_context: settings.profile.is_none(),
        skip_unshown_counts: true,
    }
}

/// The options `plugin validate` runs with under these settings (its
/// default profile is claude-code).
fn plugin_options(settings: &Settings) -> ValidateOptions {
    ValidateOptions {
        profile: settings
            .profile
            .or_else(|| Profile::named("claude-code"))
            .unwrap_or(Profile::STANDARD),
        strict: settings.strict,
        profile_from_context: false,
        skip_unshown_counts: true,
    }
}

/// The findings on `document`, as the CLI reports them on the file.
pub fn findings(document: &Document, settings: &Settings) -> Vec<Finding> {
    let Some(path) = document.path.as_deref() else {
        return Vec::new();
    };
    let diagnostics = match document.oversized() {
        Some(size) => oversized(document.kind, path, size),
        None => diagnostics(path, document.kind, document.text(), settings),
    };
    diagnostics
        .into_iter()
        .map(|diagnostic| {
            let line = place(document, &diagnostic);
            Finding { diagnostic, line }
        })
        .collect()
}

fn diagnostics(path: &Path, kind: Kind, text: &str, settings: &Settings) -> Vec<Diagnostic> {
    match kind {
        Kind::Skill => {
            crate::skill::check::validate_skill_text(
                path,
                text,
                skill_options(settings),
                &Places::new(),
            )
            .diagnostics
        }
        Kind::Declaration => {
            let Some(registry) = &settings.registry else {
                return Vec::new();
            };
            let Some(file_name) = path.file_name().and_then(|name| name.to_str()) else {
                return Vec::new();
            };
            Registry::Directory(registry.clone())
                .report_text(file_name, text)
                .map(|report| report.diagnostics)
                .unwrap_or_default()
        }
        Kind::PluginManifest => {
            crate::plugin::validate_manifest_text(path, text, plugin_options(settings))
                .map(|report| report.diagnostics)
                .unwrap_or_default()
        }
        Kind::Other => Vec::new(),
    }
}

/// The finding on a document too large to hold, as each command reports
/// a file over its limit.
fn oversized(kind: Kind, path: &Path, size: usize) -> Vec<Diagnostic> {
    match kind {
        Kind::Skill | Kind::PluginManifest => {
            vec![crate::skill::read::too_large(path, size as u64)]
        }
        Kind::Declaration => vec![crate::registry::too_large()],
        Kind::Other => Vec::new(),
    }
}

/// The 0-based line a finding is shown on: its own line when it has one
/// in this file; else, when it names a field, the line where that field
/// is written (a declaration's findings name fields, not lines); else
/// none.
fn place(document: &Document, diagnostic: &Diagnostic) -> Option<usize> {
    if diagnostic.file.is_some() {
        // A line in another file (a script the declaration runs).
        return diagnostic
            .field
            .as_deref()
            .and_then(|field| locate(document, field));
    }
    match diagnostic.line {
        Some(line) => Some(line.saturating_sub(1)),
        None => diagnostic
            .field
            .as_deref()
            .and_then(|field| locate(document, field)),
    }
}

/// The line where a field path (`parameters.version.pattern`,
/// `subprocess.argv[2].param`, `plugins[0].source`) is written: each of
/// its keys looked for in turn, each below the one before, in JSON or
/// YAML spelling. The last key found wins; `None` when not even the
/// first is.
pub fn locate(document: &Document, field: &str) -> Option<usize> {
    let mut found = None;
    let mut from = 0;
    for segment in field.split('.') {
        let key = segment.split('[').next().unwrap_or(segment);
        if key.is_empty() {
            continue;
        }
        let Some(line) =
            (from..document.line_count()).find(|&line| writes_key(document.line(line), key))
        else {
            break;
        };
        found = Some(line);
        from = line + 1;
    }
    found
}

/// Whether a line writes `key` as a mapping key: `key:`, `"key":`,
/// `'key':`, or any of these after a list's `- `.
fn writes_key(line: &str, key: &str) -> bool {
    let line = line.trim_start();
    let line = line.strip_prefix("- ").map_or(line, str::trim_start);
    let rest = [('"', '"'), ('\'', '\'')]
        .iter()
        .find_map(|(open, close)| {
            line.strip_prefix(*open)?
                .strip_prefix(key)?
                .strip_prefix(*close)
        })
        .or_else(|| line.strip_prefix(key));
    rest.is_some_and(|rest| rest.trim_start().starts_with(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::new(None, Kind::Other, 1, text.to_owned())
    }

    #[test]
    fn fields_are_found_key_by_key() {
        let yaml = doc(
            "name: deploy\nparameters:\n  version:\n    type: string\n    pattern: x\nsubprocess:\n  argv:\n    - param: version\n",
        );
        assert_eq!(locate(&yaml, "parameters.version.pattern"), Some(4));
        assert_eq!(locate(&yaml, "subprocess.argv[0].param"), Some(7));
        assert_eq!(locate(&yaml, "name"), Some(0));
        // The last key found: `nothing` is not there.
        assert_eq!(locate(&yaml, "parameters.nothing"), Some(1));
        assert_eq!(locate(&yaml, "absent"), None);
        let json = doc("{\n  \"plugins\": [\n    {\"x\": 1},\n    { \"source\": \"./a\" }\n  ]\n}");
        // A key after a `{` on its line is not found: the line above is.
        assert_eq!(locate(&json, "plugins[1].source"), Some(1));
        let json = doc("{\n  \"plugins\": [\n    {\n      \"source\" : \"./a\"\n    }\n  ]\n}");
        assert_eq!(locate(&json, "plugins[0].source"), Some(3));
    }

    #[test]
    fn a_key_is_a_key_only_before_a_colon() {
        assert!(writes_key("  pattern: x", "pattern"));
        assert!(writes_key("- \"pattern\" : x", "pattern"));
        assert!(writes_key("'pattern':", "pattern"));
        assert!(!writes_key("pattern_type: x", "pattern"));
        assert!(!writes_key("# pattern: x", "pattern"));
    }
}
