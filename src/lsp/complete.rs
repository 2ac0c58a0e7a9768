//! Completion: a skill's frontmatter keys for its profile, a
//! declaration's keys where the cursor is, and the values of its
//! enumerated fields (`pattern_type`, `regex_dialect`, `type`,
//! `danger_level`). The key lists are the parser's own
//! ([`crate::contract::parse`]).

use std::sync::LazyLock;

use regex::Regex;
use strum::VariantArray;

use super::document::{Document, Kind};
use super::hover::{in_frontmatter, skill_profile, top_level_key};
use super::keys;
use super::settings::Settings;
use crate::contract::{DangerLevel, ParamType, PatternType, RegexDialect};
use crate::contract::{EXIT_CODE_FIELDS, PARAMETER_FIELDS, ROOT_FIELDS, SUBPROCESS_FIELDS};

/// One completion: `insert` replaces bytes `start..end` of the cursor's
/// line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub detail: Option<String>,
    pub insert: String,
    pub start: usize,
    pub end: usize,
    /// A key (else a value).
    pub is_key: bool,
}

/// The completions at byte `column` of 0-based `line`.
pub fn complete(
    document: &Document,
    line: usize,
    column: usize,
    settings: &Settings,
) -> Vec<Completion> {
    let text = document.line(line);
    let mut column = column.min(text.len());
    while !text.is_char_boundary(column) {
        column -= 1;
    }
    let before = &text[..column];
    match document.kind {
        Kind::Skill => skill_keys(document, line, before, settings),
        Kind::Declaration => {
            let json = document
                .path
                .as_deref()
                .and_then(|path| path.extension())
                .is_some_and(|extension| extension == "json");
            declaration(document, line, before, json)
        }
        Kind::PluginManifest | Kind::Other => Vec::new(),
    }
}

fn skill_keys(
    document: &Document,
    line: usize,
    before: &str,
    settings: &Settings,
) -> Vec<Completion> {
    let Some(path) = &document.path else {
        return Vec::new();
    };
    // A key is typed at the start of a line, before any colon.
    let typing_key = before
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !typing_key || !in_frontmatter(document, line) {
        return Vec::new();
    }
    let present: Vec<&str> = (1..document.line_count())
        .take_while(|&index| in_frontmatter(document, index))
        .filter(|&index| index != line)
        .filter_map(|index| top_level_key(document.line(index)))
        .collect();
    let profile = skill_profile(path, settings);
    keys::known_keys(profile)
        .into_iter()
        .filter(|key| !present.contains(key))
        .map(|key| Completion {
            label: key.to_owned(),
            detail: keys::meaning(key),
            insert: format!("{key}: "),
            start: 0,
            end: before.len(),
            is_key: true,
        })
        .collect()
}

static YAML_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*(?:-\s+)?([A-Za-z_][\w-]*)\s*:\s*["']?([\w-]*)$"#).expect("valid regex")
});
static YAML_KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^\s*(?:-\s+)?(["']?)([\w-]*)$"#).expect("valid regex"));
static JSON_VALUE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([A-Za-z_][\w-]*)"\s*:\s*"([\w-]*)$"#).expect("valid regex"));
static JSON_KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:^|[{,])\s*("?)([\w-]*)$"#).expect("valid regex"));

fn declaration(document: &Document, line: usize, before: &str, json: bool) -> Vec<Completion> {
    let (value, key) = if json {
        (&*JSON_VALUE, &*JSON_KEY)
    } else {
        (&*YAML_VALUE, &*YAML_KEY)
    };
    let path = if json {
        json_path(document, line, before.len())
    } else {
        yaml_path(document, line, before)
    };
    if let Some(captures) = value.captures(before) {
        let field = captures.get(1).map_or("", |m| m.as_str());
        let typed = captures.get(2).map_or(0..0, |m| m.range());
        let values: Vec<&str> = match (field, path.as_slice()) {
            ("pattern_type", _) => PatternType::VARIANTS.iter().map(|v| v.as_str()).collect(),
            ("regex_dialect", _) => RegexDialect::VARIANTS.iter().map(|v| v.as_str()).collect(),
            ("danger_level", []) => DangerLevel::VARIANTS.iter().map(|v| v.as_str()).collect(),
            ("type", [parameters, _]) if parameters == "parameters" => {
                ParamType::VARIANTS.iter().map(|v| v.as_str()).collect()
            }
            _ => Vec::new(),
        };
        return values
            .into_iter()
            .map(|value| Completion {
                label: value.to_owned(),
                detail: Some(format!("a `{field}` value")),
                insert: value.to_owned(),
                start: typed.start,
                end: typed.end,
                is_key: false,
            })
            .collect();
    }
    let Some(captures) = key.captures(before) else {
        return Vec::new();
    };
    let quoted = captures.get(1).is_some_and(|m| !m.as_str().is_empty());
    let typed = captures.get(2).map_or(0..0, |m| m.range());
    let fields: &[&str] = match path
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => ROOT_FIELDS,
        ["parameters", _] => PARAMETER_FIELDS,
        ["subprocess"] => SUBPROCESS_FIELDS,
        ["exit_codes", _] => EXIT_CODE_FIELDS,
        _ => &[],
    };
    fields
        .iter()
        .map(|field| Completion {
            label: (*field).to_owned(),
            detail: Some(format!(
                "a declaration field{}",
                match path.first() {
                    Some(parent) => format!(" under `{parent}`"),
                    None => String::new(),
                }
            )),
            insert: match (json, quoted) {
                (true, true) => (*field).to_owned(),
                (true, false) => format!("\"{field}\": "),
                (false, true) => (*field).to_owned(),
                (false, false) => format!("{field}: "),
            },
            start: typed.start,
            end: typed.end,
            is_key: true,
        })
        .collect()
}

/// The keys leading to the mapping the cursor's line is in, in a YAML
/// document: each line above with less indentation that opens a mapping
/// (`key:` with no value), innermost last. A list item adds `[]`.
fn yaml_path(document: &Document, line: usize, before: &str) -> Vec<String> {
    let indent_of = |text: &str| {
        let spaces = text.len() - text.trim_start_matches(' ').len();
        match text[spaces..].strip_prefix("- ") {
            Some(rest) => (
                spaces,
                Some(spaces + 2 + rest.len() - rest.trim_start().len()),
            ),
            None => (spaces, None),
        }
    };
    let (own, item) = indent_of(before);
    let mut limit = item.unwrap_or(own);
    let mut path = Vec::new();
    for index in (0..line).rev() {
        if limit == 0 {
            break;
        }
        let text = document.line(index);
        let trimmed = text.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (indent, item_indent) = indent_of(text);
        if let Some(content) = item_indent
            && content < limit
            && indent < limit
        {
            path.push("[]".to_owned());
            limit = indent;
            continue;
        }
        if indent < limit {
            if let Some((key, rest)) = trimmed.split_once(':')
                && rest.trim().is_empty()
            {
                path.push(key.trim_matches(['"', '\'']).to_owned());
            }
            limit = indent;
        }
    }
    path.reverse();
    path
}

/// The keys leading to the object the cursor is in, in a JSON document:
/// a scan of the text before it, tracking strings and nesting. An array
/// adds `[]`.
fn json_path(document: &Document, line: usize, column: usize) -> Vec<String> {
    let end = document.offset(
        lsp_types::Position::new(u32::try_from(line).unwrap_or(u32::MAX), 0),
        super::document::Encoding::Utf8,
    ) + column;
    let text = &document.text()[..end.min(document.text().len())];
    // (key that opened it; None for the root and array items)
    let mut stack: Vec<Option<String>> = Vec::new();
    let mut last_string: Option<String> = None;
    let mut pending_key: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut string = String::new();
                let mut closed = false;
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => {
                            closed = true;
                            break;
                        }
                        other => string.push(other),
                    }
                }
                if !closed {
                    break;
                }
                last_string = Some(string);
            }
            ':' => pending_key = last_string.take(),
            '{' => {
                stack.push(pending_key.take());
            }
            '[' => {
                stack.push(Some(pending_key.take().map_or("[]".to_owned(), |key| key)));
                stack.push(Some("[]".to_owned()));
            }
            ']' => {
                stack.pop();
                stack.pop();
            }
            '}' => {
                stack.pop();
            }
            ',' => {
                pending_key = None;
                last_string = None;
            }
            _ => {}
        }
    }
    // The root object has no key.
    stack.into_iter().skip(1).flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn declaration_at(name: &str, text: &str, line: usize, column: usize) -> Vec<Completion> {
        let document = Document::new(
            Some(PathBuf::from(format!("/r/{name}"))),
            Kind::Declaration,
            1,
            text.to_owned(),
        );
        complete(&document, line, column, &Settings::default())
    }

    fn labels(items: &[Completion]) -> Vec<&str> {
        items.iter().map(|item| item.label.as_str()).collect()
    }

    #[test]
    fn yaml_keys_follow_the_indentation() {
        let text =
            "name: x\nparameters:\n  version:\n    type: string\n    pat\nsubprocess:\n  bi\nda";
        let parameter = declaration_at("x.yaml", text, 4, 7);
        assert!(
            labels(&parameter).contains(&"pattern_type"),
            "{parameter:?}"
        );
        assert_eq!(parameter[0].start, 4);
        let subprocess = declaration_at("x.yaml", text, 6, 4);
        assert!(labels(&subprocess).contains(&"binary"));
        let root = declaration_at("x.yaml", text, 7, 2);
        assert!(labels(&root).contains(&"danger_level"));
    }

    #[test]
    fn yaml_and_json_values() {
        let yaml = declaration_at("x.yaml", "parameters:\n  v:\n    pattern_type: se", 2, 20);
        assert!(labels(&yaml).contains(&"semver"), "{yaml:?}");
        assert_eq!((yaml[0].start, yaml[0].end), (18, 20));
        let json = declaration_at(
            "x.json",
            "{\"parameters\": {\"v\": {\"pattern_type\": \"",
            0,
            39,
        );
        assert!(labels(&json).contains(&"free_text"), "{json:?}");
        let danger = declaration_at("x.yaml", "danger_level: ", 0, 14);
        assert_eq!(labels(&danger), ["safe", "mutating", "destructive"]);
    }

    #[test]
    fn json_keys_follow_the_nesting() {
        let text = "{\n  \"parameters\": {\n    \"v\": {\n      \"ty\n";
        let items = declaration_at("x.json", text, 3, 9);
        assert!(labels(&items).contains(&"type"), "{items:?}");
        assert_eq!(items[0].insert, "type");
        let text = "{\n  \"subprocess\": {\"argv\": [\"a\"], \n";
        let items = declaration_at("x.json", text, 1, 35);
        assert!(labels(&items).contains(&"env_pass"), "{items:?}");
        let root = declaration_at("x.json", "{\n  ", 1, 2);
        assert!(labels(&root).contains(&"subprocess"));
        assert_eq!(root[0].insert, "\"name\": ");
    }

    #[test]
    fn skill_keys_leave_out_those_present() {
        let document = Document::new(
            Some(PathBuf::from("/s/x/SKILL.md")),
            Kind::Skill,
            1,
            "---\nname: x\nde\n---\nbody\n".to_owned(),
        );
        let items = complete(&document, 2, 2, &Settings::default());
        let names = labels(&items);
        assert!(names.contains(&"description"));
        assert!(!names.contains(&"name"));
        assert!(!names.contains(&"model"), "standard knows no model");
        assert!(complete(&document, 4, 2, &Settings::default()).is_empty());
    }
}
