//! The JSON side of plugins: reading a manifest under the skill file
//! limits, and the field checks that `plugin.json`, `marketplace.json` and
//! a marketplace's plugin entries share. Pure functions over
//! `serde_json` values; findings are [`Diagnostic`]s.

use std::path::{Component, Path};

use serde_json::{Map, Value};

use super::codes;
use crate::contract::value::json_kind;
use crate::report::Diagnostic;
use crate::skill::read::read_skill_file;

/// The fields of `plugin.json` that Claude Code documents. A marketplace
/// entry may carry all of them too.
pub const PLUGIN_FIELDS: &[&str] = &[
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "outputStyles",
    "lspServers",
    "userConfig",
    "channels",
    "settings",
    "dependencies",
];

/// The fields a marketplace entry has beyond [`PLUGIN_FIELDS`].
pub const ENTRY_FIELDS: &[&str] = &["source", "category", "tags", "strict"];

/// The top-level fields of `marketplace.json`.
pub const MARKETPLACE_FIELDS: &[&str] = &[
    "$schema",
    "name",
    "owner",
    "metadata",
    "plugins",
    "description",
    "version",
];

/// Component fields whose values are paths (a string or a list of them);
/// `hooks`, `mcpServers` and `lspServers` may also be inline objects.
pub const PATH_FIELDS: &[&str] = &[
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "outputStyles",
    "lspServers",
];

/// Reads and parses a JSON file; a finding when it cannot.
pub fn read_json(file: &Path) -> Result<Value, Diagnostic> {
    parse_json(file, &read_skill_file(file)?)
}

/// Parses a manifest's bytes (`file` names it in the finding), under the
/// same size limit as [`read_json`].
pub fn parse_json(file: &Path, bytes: &[u8]) -> Result<Value, Diagnostic> {
    if bytes.len() as u64 > crate::skill::read::MAX_FILE_BYTES {
        return Err(crate::skill::read::too_large(file, bytes.len() as u64));
    }
    serde_json::from_slice(bytes).map_err(|err| {
        Diagnostic::new(
            codes::Code::JsonInvalid,
            format!("{} is not valid JSON: {err}", file.display()),
        )
        .with_line(Some(err.line()).filter(|&line| line > 0))
    })
}

/// Whether `name` is kebab-case: lowercase ASCII letters and digits in
/// groups joined by single hyphens.
pub fn is_kebab_case(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit())
        })
}

/// Checks a local path as Claude Code wants it: relative, starting with
/// `./`, and not leaving its root.
pub fn check_relative_path(path: &str, field: &str) -> Option<Diagnostic> {
    let problem = if !path.starts_with("./") {
        Some("must start with `./`")
    } else if Path::new(path)
        .components()
        .any(|component| matches!(component, Component::ParentDir | Component::RootDir))
    {
        Some("must not leave the root with `..`")
    } else {
        None
    };
    problem.map(|problem| {
        Diagnostic::new(
            codes::Code::PathNotRelative,
            format!("`{field}` is {}: {problem}", quoted(path)),
        )
        .with_field(field)
    })
}

/// Shows an untrusted string briefly and with controls escaped.
pub fn quoted(text: &str) -> String {
    let short: String = text.chars().take(80).collect();
    let ellipsis = if short.len() < text.len() { "..." } else { "" };
    format!("{:?}{ellipsis}", short)
}

fn wrong_type(field: &str, wanted: &str, found: &Value) -> Diagnostic {
    Diagnostic::new(
        codes::Code::FieldType,
        format!("`{field}` must be {wanted}, not {}", json_kind(found)),
    )
    .with_field(field)
}

/// The field checks over one JSON object, collecting findings. `prefix`
/// names the object in messages (`plugins[2].`).
pub struct Fields<'a> {
    pub object: &'a Map<String, Value>,
    pub prefix: String,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Fields<'a> {
    pub fn new(object: &'a Map<String, Value>, prefix: impl Into<String>) -> Self {
        Self {
            object,
            prefix: prefix.into(),
            diagnostics: Vec::new(),
        }
    }

    fn field(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    /// The field `key` as `read` takes it; `None` and a finding when it
    /// has another type (`wanted` says which), or is missing and required.
    fn typed<T>(
        &mut self,
        key: &str,
        required: bool,
        wanted: &str,
        read: impl FnOnce(&'a Value) -> Option<T>,
    ) -> Option<T> {
        let Some(value) = self.object.get(key) else {
            if required {
                self.missing(key);
            }
            return None;
        };
        let found = read(value);
        if found.is_none() {
            self.diagnostics
                .push(wrong_type(&self.field(key), wanted, value));
        }
        found
    }

    /// A string field; `None` (and a finding when required) otherwise.
    pub fn string(&mut self, key: &str, required: bool) -> Option<&'a str> {
        self.typed(key, required, "a string", Value::as_str)
    }

    pub fn missing(&mut self, key: &str) {
        let field = self.field(key);
        self.diagnostics.push(
            Diagnostic::new(codes::Code::FieldMissing, format!("`{field}` is required"))
                .with_field(field),
        );
    }

    /// The name: a kebab-case string.
    pub fn name(&mut self, required: bool) -> Option<&'a str> {
        let name = self.string("name", required)?;
        if !is_kebab_case(name) {
            let field = self.field("name");
            self.diagnostics.push(
                Diagnostic::new(
                    codes::Code::NameNotKebabCase,
                    format!(
                        "`{field}` is {}: use lowercase letters, digits and single hyphens",
                        quoted(name)
                    ),
                )
                .with_field(field),
            );
        }
        Some(name)
    }

    pub fn version(&mut self) {
        if let Some(version) = self.string("version", false)
            && semver::Version::parse(version).is_err()
        {
            let field = self.field("version");
            self.diagnostics.push(
                Diagnostic::new(
                    codes::Code::VersionNotSemver,
                    format!(
                        "`{field}` is {}: not a semantic version like 1.2.3",
                        quoted(version)
                    ),
                )
                .with_field(field),
            );
        }
    }

    pub fn object_field(&mut self, key: &str, required: bool) -> Option<&'a Map<String, Value>> {
        self.typed(key, required, "an object", Value::as_object)
    }

    pub fn boolean(&mut self, key: &str) -> Option<bool> {
        self.typed(key, false, "true or false", Value::as_bool)
    }

    pub fn string_list(&mut self, key: &str) {
        match self.object.get(key) {
            None => {}
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {}
            Some(other) => {
                self.diagnostics
                    .push(wrong_type(&self.field(key), "an array of strings", other))
            }
        }
    }

    /// `author`/`owner`: an object whose `name` is a string.
    pub fn person(&mut self, key: &str, required: bool) {
        if let Some(person) = self.object_field(key, required) {
            let mut inner = Fields::new(person, format!("{}{key}.", self.prefix));
            inner.string("name", true);
            inner.string("email", false);
            inner.string("url", false);
            self.diagnostics.append(&mut inner.diagnostics);
        }
    }

    /// The component paths a component field names (checked to be
    /// relative); inline objects name none.
    pub fn paths(&mut self, key: &str) -> Vec<&'a str> {
        let inline_allowed = matches!(key, "hooks" | "mcpServers" | "lspServers");
        let paths: Vec<&'a str> = match self.object.get(key) {
            None => return Vec::new(),
            Some(Value::String(path)) => vec![path],
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                items.iter().filter_map(Value::as_str).collect()
            }
            Some(Value::Object(_)) if inline_allowed => return Vec::new(),
            Some(other) => {
                let wanted = if inline_allowed {
                    "a path, a list of paths or an object"
                } else {
                    "a path or a list of paths"
                };
                self.diagnostics
                    .push(wrong_type(&self.field(key), wanted, other));
                return Vec::new();
            }
        };
        let field = self.field(key);
        let mut relative = Vec::new();
        for path in paths {
            match check_relative_path(path, &field) {
                Some(problem) => self.diagnostics.push(problem),
                None => relative.push(path),
            }
        }
        relative
    }

    /// The checks every plugin description shares (plugin.json and a
    /// marketplace entry), but for `name` and the component paths.
    pub fn plugin_metadata(&mut self) {
        self.version();
        self.string("description", false);
        self.person("author", false);
        self.string("homepage", false);
        self.string("license", false);
        self.string_list("keywords");
        if let Some(repository) = self.object.get("repository")
            && !repository.is_string()
            && !repository.is_object()
        {
            self.diagnostics.push(wrong_type(
                &self.field("repository"),
                "a string or an object",
                repository,
            ));
        }
    }

    /// A warning for each field not in `known`.
    pub fn unknown(&mut self, known: &[&[&str]]) {
        for key in self.object.keys() {
            if !known.iter().any(|list| list.contains(&key.as_str())) {
                let field = self.field(key);
                self.diagnostics.push(
                    Diagnostic::new(
                        codes::Code::UnknownField,
                        format!("{} is not a field Claude Code documents", quoted(&field)),
                    )
                    .with_field(field),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kebab_case() {
        for good in ["a", "code-review", "x2", "a-b-c"] {
            assert!(is_kebab_case(good), "{good}");
        }
        for bad in ["", "A", "a--b", "-a", "a-", "a_b", "a b", "é"] {
            assert!(!is_kebab_case(bad), "{bad}");
        }
    }

    #[test]
    fn relative_paths() {
        assert!(check_relative_path("./plugins/x", "source").is_none());
        assert!(check_relative_path("./", "source").is_none());
        for bad in ["plugins/x", "/etc", "./../x", "./a/../../b"] {
            let finding = check_relative_path(bad, "source").expect(bad);
            assert_eq!(finding.code, codes::Code::PathNotRelative);
        }
    }

    #[test]
    fn field_checks_collect_findings() {
        let value = json!({"name": "Bad Name", "version": "1.0", "keywords": "x",
                           "author": {"email": "a@b"}, "skills": 3, "oops": 1});
        let object = value.as_object().unwrap();
        let mut fields = Fields::new(object, "");
        fields.name(true);
        fields.plugin_metadata();
        fields.paths("skills");
        fields.unknown(&[PLUGIN_FIELDS]);
        let codes: Vec<&str> = fields.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                codes::Code::NameNotKebabCase,
                codes::Code::VersionNotSemver,
                codes::Code::FieldMissing,
                codes::Code::FieldType,
                codes::Code::FieldType,
                codes::Code::UnknownField
            ]
        );
    }
}
