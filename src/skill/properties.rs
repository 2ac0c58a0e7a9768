//! `read-properties`: a skill's frontmatter as the reference
//! implementation (agentskills' `skills-ref`) reports it.
//!
//! Same keys, same order, absent ones left out: `name`, `description`,
//! `license`, `compatibility`, `allowed-tools`, `metadata` (left out when
//! empty). `name` and `description` are trimmed, a list of allowed tools is
//! joined with spaces, and metadata values become strings.
//!
//! The reference reads YAML with strictyaml, which keeps every scalar as
//! the text written. So does this: `license: 1.10` prints `1.10`, `True`
//! prints `True`, and an empty `license:` prints `""`. Where we
//! deliberately differ: a `name` or `description` that YAML reads as
//! something other than a string (`name: 123`) is refused (the validator
//! calls that an error too); a list or mapping nested in `metadata` prints
//! as JSON text rather than as Python's `str()` of it; and an
//! `allowed-tools` mapping prints as JSON text rather than failing.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::discover::Target;
use super::frontmatter::{self, Frontmatter, SplitError, YamlValue};
use super::read::read_skill_file;
use crate::report::Diagnostic;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillProperties {
    pub name: String,
    pub description: String,
    /// Scalars as written; a list or mapping as the reference keeps it.
    pub license: Option<Value>,
    pub compatibility: Option<Value>,
    pub allowed_tools: Option<String>,
    /// A mapping's entries as strings; another shape is kept as it is.
    pub metadata: Option<Value>,
}

impl SkillProperties {
    /// The reference's JSON object: fixed key order, absent keys left out.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("name".into(), self.name.clone().into());
        object.insert("description".into(), self.description.clone().into());
        for (key, value) in [
            ("license", &self.license),
            ("compatibility", &self.compatibility),
        ] {
            if let Some(value) = value {
                object.insert(key.into(), value.clone());
            }
        }
        if let Some(tools) = &self.allowed_tools {
            object.insert("allowed-tools".into(), tools.clone().into());
        }
        // The reference leaves out metadata that Python finds false: `{}`,
        // `[]`, `""`.
        if let Some(metadata) = &self.metadata {
            let empty = match metadata {
                Value::Object(map) => map.is_empty(),
                Value::Array(items) => items.is_empty(),
                Value::String(text) => text.is_empty(),
                Value::Null => true,
                _ => false,
            };
            if !empty {
                object.insert("metadata".into(), metadata.clone());
            }
        }
        Value::Object(object)
    }
}

/// Why properties could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PropertiesError {
    #[error("{} does not exist", .0.display())]
    NotFound(PathBuf),
    /// A recursive search below the paths found no skill file.
    #[error("no SKILL.md found below {}", .0.display())]
    NoSkills(PathBuf),
    #[error("{}: {}", .path.display(), first_message(.problems))]
    Invalid {
        path: PathBuf,
        problems: Vec<Diagnostic>,
    },
}

fn first_message(problems: &[Diagnostic]) -> &str {
    problems
        .first()
        .map(|problem| problem.message.as_str())
        .unwrap_or("invalid skill")
}

/// A skill found for `read-properties` or `to-prompt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadSkill {
    pub file: PathBuf,
    pub directory: PathBuf,
    pub properties: SkillProperties,
}

/// Reads the properties of the skill at `path` (a directory or a skill
/// file). This parses, it does not validate: only a readable frontmatter
/// with string `name` and `description` is required, as in the reference.
pub fn read_properties(path: &Path) -> Result<ReadSkill, PropertiesError> {
    let invalid = |problem: Diagnostic| PropertiesError::Invalid {
        path: path.to_owned(),
        problems: vec![problem],
    };
    let (file, directory) = match Target::for_path(path) {
        Target::SkillFile { file, directory } => (file, directory),
        Target::Missing { path } => return Err(PropertiesError::NotFound(path)),
        other => {
            let report = super::check::validate_target(&other, Default::default());
            return Err(PropertiesError::Invalid {
                path: path.to_owned(),
                problems: report.diagnostics,
            });
        }
    };
    let bytes = read_skill_file(&file).map_err(invalid)?;
    let checked_text = std::str::from_utf8(&bytes);
    let Ok(text) = checked_text else {
        let report = super::check::check_contents(&bytes, Default::default());
        return Err(PropertiesError::Invalid {
            path: file,
            problems: report.diagnostics,
        });
    };
    let parsed = parse_frontmatter(text).map_err(|problem| PropertiesError::Invalid {
        path: file.clone(),
        problems: vec![problem],
    })?;
    let properties = properties_of(&parsed).map_err(|problems| PropertiesError::Invalid {
        path: file.clone(),
        problems,
    })?;
    Ok(ReadSkill {
        file,
        directory,
        properties,
    })
}

fn parse_frontmatter(text: &str) -> Result<Frontmatter, Diagnostic> {
    use super::codes;
    let document = frontmatter::split(text).map_err(|err| {
        let code = match err {
            SplitError::Missing { .. } => codes::Code::FrontmatterMissing,
            SplitError::Unclosed { .. } => codes::Code::FrontmatterUnclosed,
        };
        Diagnostic::new(code, err.to_string())
    })?;
    frontmatter::parse_as_written(&document).map_err(|err| {
        let code = match err {
            frontmatter::ParseError::Syntax { .. } => codes::Code::YamlInvalid,
            frontmatter::ParseError::Budget { .. } => codes::Code::YamlBudget,
            frontmatter::ParseError::NotMapping { .. } => codes::Code::FrontmatterNotMapping,
        };
        Diagnostic::new(code, err.to_string())
    })
}

fn properties_of(parsed: &Frontmatter) -> Result<SkillProperties, Vec<Diagnostic>> {
    use super::codes;
    // The reference's YAML reader refuses a repeated key: which value is
    // meant cannot be told.
    let mut problems: Vec<Diagnostic> = parsed
        .duplicates
        .iter()
        .map(|duplicate| {
            Diagnostic::new(
                codes::Code::DuplicateKey,
                format!("duplicate key '{}'", duplicate.key),
            )
            .with_field(duplicate.key.clone())
            .with_line(duplicate.line)
        })
        .collect();
    let mut required = |key: &str, code: codes::Code| -> Option<String> {
        let entry = parsed.get(key);
        let line = entry.and_then(|entry| entry.line);
        match entry.map(|entry| &entry.value) {
            Some(YamlValue::String(text)) if !text.trim().is_empty() => {
                Some(text.trim().to_owned())
            }
            Some(_) => {
                problems.push(
                    Diagnostic::new(code, format!("{key} must be a non-empty string"))
                        .with_field(key)
                        .with_line(line),
                );
                None
            }
            None => {
                problems.push(Diagnostic::new(code, format!("{key} is missing")).with_field(key));
                None
            }
        }
    };
    let name = required("name", codes::Code::NameMissing);
    let description = required("description", codes::Code::DescriptionMissing);
    let (Some(name), Some(description)) = (name, description) else {
        return Err(problems);
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let value = |key: &str| parsed.get(key).map(|entry| &entry.value);
    Ok(SkillProperties {
        name,
        description,
        license: value("license").map(YamlValue::to_text_json),
        compatibility: value("compatibility").map(YamlValue::to_text_json),
        allowed_tools: value("allowed-tools").map(allowed_tools_text),
        metadata: value("metadata")
            .map(YamlValue::to_text_json)
            .map(|metadata| match metadata {
                // The reference makes each value a string.
                Value::Object(map) => Value::Object(
                    map.into_iter()
                        .map(|(key, value)| (key, Value::String(json_text(value))))
                        .collect(),
                ),
                other => other,
            }),
    })
}

/// `allowed-tools` as one string: a scalar as written, a list's items
/// joined with spaces. It never fails: the validator reports the type
/// (`W004`, `W006`), this only prints.
fn allowed_tools_text(value: &YamlValue) -> String {
    match value {
        YamlValue::List(items) => items
            .iter()
            .map(|item| json_text(item.to_text_json()))
            .collect::<Vec<_>>()
            .join(" "),
        other => json_text(other.to_text_json()),
    }
}

/// A string as it is, anything else as JSON text.
fn json_text(value: Value) -> String {
    match value {
        Value::String(text) => text,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn properties(yaml: &str) -> Result<SkillProperties, Vec<Diagnostic>> {
        let text = format!("---\n{yaml}\n---\n");
        properties_of(&frontmatter::parse_as_written(&frontmatter::split(&text).unwrap()).unwrap())
    }

    #[test]
    fn keys_in_reference_order_and_absent_ones_left_out() {
        let props = properties(
            "metadata:\n  version: 1.0\n  author: me\nallowed-tools: [Read, Write]\nlicense: MIT\ndescription: '  Does things. '\nname: ' a '",
        )
        .unwrap();
        let json = serde_json::to_string(&props.to_json()).unwrap();
        assert_eq!(
            json,
            r#"{"name":"a","description":"Does things.","license":"MIT","allowed-tools":"Read Write","metadata":{"version":"1.0","author":"me"}}"#
        );
        let minimal = properties("name: a\ndescription: d\nmetadata: {}").unwrap();
        assert_eq!(
            serde_json::to_string(&minimal.to_json()).unwrap(),
            r#"{"name":"a","description":"d"}"#
        );
    }

    #[test]
    fn name_and_description_are_required_strings() {
        assert_eq!(properties("description: d").unwrap_err().len(), 1);
        assert_eq!(properties("name: 1\ndescription: ''").unwrap_err().len(), 2);
    }

    fn json_of(yaml: &str) -> Value {
        properties(&format!("name: a\ndescription: d\n{yaml}"))
            .unwrap()
            .to_json()
    }

    #[test]
    fn allowed_tools_of_any_type_are_printed_not_refused() {
        for (yaml, printed) in [
            ("allowed-tools: 5", "5"),
            ("allowed-tools: true", "true"),
            ("allowed-tools: [Read, 5]", "Read 5"),
            ("allowed-tools: [Read, [x]]", "Read [\"x\"]"),
            ("allowed-tools: {x: 1}", "{\"x\":\"1\"}"),
            ("allowed-tools:", ""),
        ] {
            assert_eq!(json_of(yaml)["allowed-tools"], printed, "{yaml}");
        }
    }

    #[test]
    fn scalars_print_as_written() {
        let json = json_of(
            "license: 1.10\ncompatibility: 012\nmetadata:\n  build: 123456789012345678901234567890\n  big: 1e400\n  nan: .NaN\n  n: 1_000\n  ok: True\n  empty:\n  list: [1.50, x]",
        );
        assert_eq!(json["license"], "1.10");
        assert_eq!(json["compatibility"], "012");
        assert_eq!(
            json["metadata"],
            serde_json::json!({
                "build": "123456789012345678901234567890",
                "big": "1e400",
                "nan": ".NaN",
                "n": "1_000",
                "ok": "True",
                "empty": "",
                "list": "[\"1.50\",\"x\"]"
            })
        );
        // An empty license is kept as "", as the reference keeps it.
        assert_eq!(json_of("license:")["license"], "");
        assert_eq!(json_of("license: ~")["license"], "~");
        assert!(json_of("metadata:").get("metadata").is_none());
    }

    #[test]
    fn duplicate_keys_are_refused_as_the_reference_does() {
        let problems =
            properties("name: a\ndescription: d\nlicense: MIT\nlicense: GPL").unwrap_err();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].code, crate::skill::codes::Code::DuplicateKey);
    }
}
