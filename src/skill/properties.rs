//! `read-properties`: a skill's frontmatter as the reference
//! implementation (agentskills' `skills-ref`) reports it.
//!
//! Same keys, same order, absent ones left out: `name`, `description`,
//! `license`, `compatibility`, `allowed-tools`, `metadata` (left out when
//! empty). `name` and `description` are trimmed, a list of allowed tools is
//! joined with spaces, and metadata values become strings.
//!
//! Where we deliberately differ: the reference reads YAML with strictyaml,
//! which turns every scalar into the text as written. We parse real YAML
//! types, so a non-string `name` or `description` is refused (the validator
//! calls that an error too), and a non-string scalar elsewhere is printed
//! in its YAML 1.2 core form (`true`, `1.5`) rather than as written.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::discover::Target;
use super::frontmatter::{self, Frontmatter, SplitError};
use super::validate::read_skill_file;
use crate::report::Diagnostic;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillProperties {
    pub name: String,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
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
        let optional = [
            ("license", &self.license),
            ("compatibility", &self.compatibility),
            ("allowed-tools", &self.allowed_tools),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                object.insert(key.into(), value.clone().into());
            }
        }
        if let Some(metadata) = &self.metadata {
            let empty = metadata.as_object().is_some_and(Map::is_empty);
            if !empty && !metadata.is_null() {
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
            let report = super::validate::validate_target(&other, Default::default());
            return Err(PropertiesError::Invalid {
                path: path.to_owned(),
                problems: report.diagnostics,
            });
        }
    };
    let bytes = read_skill_file(&file).map_err(invalid)?;
    let checked_text = std::str::from_utf8(&bytes);
    let Ok(text) = checked_text else {
        let report = super::validate::check_contents(&bytes, Default::default());
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
    let document = frontmatter::split(text).map_err(|err| match err {
        SplitError::Missing => Diagnostic::error(
            codes::FRONTMATTER_MISSING,
            "no frontmatter: the first line must be exactly '---'",
        ),
        SplitError::Unclosed => Diagnostic::error(
            codes::FRONTMATTER_UNCLOSED,
            "frontmatter is not closed: no later line is exactly '---'",
        ),
    })?;
    frontmatter::parse(&document).map_err(|err| {
        let code = match err {
            frontmatter::ParseError::Syntax { .. } => codes::YAML_INVALID,
            frontmatter::ParseError::Budget { .. } => codes::YAML_BUDGET,
            frontmatter::ParseError::NotMapping { .. } => codes::FRONTMATTER_NOT_MAPPING,
        };
        Diagnostic::error(code, err.to_string())
    })
}

fn properties_of(parsed: &Frontmatter) -> Result<SkillProperties, Vec<Diagnostic>> {
    use super::codes;
    let mut problems = Vec::new();
    let mut required = |key: &str, code: &'static str| -> Option<String> {
        let entry = parsed.get(key);
        let line = entry.and_then(|entry| entry.line);
        match entry.map(|entry| &entry.value) {
            Some(Value::String(text)) if !text.trim().is_empty() => Some(text.trim().to_owned()),
            Some(_) => {
                problems.push(
                    Diagnostic::error(code, format!("{key} must be a non-empty string"))
                        .with_field(key)
                        .with_line(line),
                );
                None
            }
            None => {
                problems.push(Diagnostic::error(code, format!("{key} is missing")).with_field(key));
                None
            }
        }
    };
    let name = required("name", codes::NAME_MISSING);
    let description = required("description", codes::DESCRIPTION_MISSING);

    let allowed_tools = match parsed.get("allowed-tools").map(|entry| &entry.value) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => Some(
            items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Some(_) => {
            problems.push(
                Diagnostic::error(
                    codes::FIELD_NOT_STRING,
                    "allowed-tools must be a string or a list of strings",
                )
                .with_field("allowed-tools"),
            );
            None
        }
    };

    let (Some(name), Some(description)) = (name, description) else {
        return Err(problems);
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(SkillProperties {
        name,
        description,
        license: scalar_text(parsed, "license"),
        compatibility: scalar_text(parsed, "compatibility"),
        allowed_tools,
        metadata: parsed.get("metadata").map(|entry| match &entry.value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, value)| (key.clone(), Value::String(value_text(value))))
                    .collect(),
            ),
            other => other.clone(),
        }),
    })
}

fn scalar_text(parsed: &Frontmatter, key: &str) -> Option<String> {
    match &parsed.get(key)?.value {
        Value::Null => None,
        value => Some(value_text(value)),
    }
}

/// A value as text: strings as they are, anything else in JSON form.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn properties(yaml: &str) -> Result<SkillProperties, Vec<Diagnostic>> {
        let text = format!("---\n{yaml}\n---\n");
        properties_of(&frontmatter::parse(&frontmatter::split(&text).unwrap()).unwrap())
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
        assert!(properties("name: a\ndescription: d\nallowed-tools: {x: 1}").is_err());
    }
}
