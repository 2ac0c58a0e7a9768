//! `git config KEY VALUE` with a key an agent chooses: git runs the value
//! of many keys (`core.hooksPath`, `core.sshCommand`, `alias.x=!CMD`, see
//! `programs::git_config::runs_code`), outside any sandbox, so an agent
//! that chooses the key chooses what git runs next (E127). The key is fine
//! only when its parameter can hold no such key: a number or a boolean, or
//! a short list of values written out (an `enum`, or a `pattern` that
//! lists them, as `hook learn` writes one) none of which is such a key.
//! Only a template where the key can have a value after it sets a key:
//! `git config {key}` with one word reads it.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

use crate::contract::codes;
use crate::contract::declaration::{Declaration, Inputs, ParamType};
use crate::contract::programs::code_words::git_config_agent_keys;
use crate::contract::programs::git_config::runs_code as git_key_runs_code;
use crate::report::Diagnostic;

/// At most this many values make a list a pattern can be read back into.
const MAX_LISTED: usize = 256;

/// E127 for each agent's value a `git config` may set as its key, unless
/// its parameter holds only keys that run nothing.
pub(super) fn agent_keys(declaration: &Declaration) -> Vec<Diagnostic> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    git_config_agent_keys(subprocess)
        .into_iter()
        .filter(|(_, param, value_follows)| *value_follows || several_words(declaration, param))
        .filter(|(_, param, _)| may_run_code(declaration, param))
        .map(|(field, param, _)| {
            Diagnostic::new(
                codes::Code::AgentValueIsCode,
                format!(
                    "`{param}` is the key `git config` sets, and git runs the value of many keys (`core.hooksPath`, `core.sshCommand`, `core.pager`, `alias.x` set to `!CMD`, `credential.helper`, `filter.*`, `url.*.insteadOf`) outside any sandbox; hardcode a key that runs nothing, or give `{param}` an `enum` (or a `pattern` listing the keys) with none of those"
                ),
            )
            .with_field(field)
        })
        .collect()
}

/// Whether `param` is a list: one slot, several words.
fn several_words(declaration: &Declaration, param: &str) -> bool {
    match &declaration.inputs {
        Inputs::Parameters(_) => declaration
            .parameter(param)
            .is_none_or(|parameter| parameter.kind == ParamType::Array),
        Inputs::InputSchema(schema) => schema.property(param).is_none_or(|property| {
            crate::contract::input_schema::primary_type(property) == "array"
        }),
    }
}

/// Whether a value of `param` may be a key whose value git runs: unless
/// every value it takes is known and none is such a key.
fn may_run_code(declaration: &Declaration, param: &str) -> bool {
    match values(declaration, param) {
        Values::NoKey => false,
        Values::Listed(values) => values.iter().any(|value| git_key_runs_code(value, None)),
        Values::Any => true,
    }
}

enum Values {
    /// Numbers or booleans: no key at all.
    NoKey,
    /// Exactly these.
    Listed(Vec<String>),
    Any,
}

fn values(declaration: &Declaration, param: &str) -> Values {
    match &declaration.inputs {
        Inputs::Parameters(_) => {
            let Some(parameter) = declaration.parameter(param) else {
                return Values::Any;
            };
            match parameter.kind {
                ParamType::Integer | ParamType::Number | ParamType::Boolean => Values::NoKey,
                ParamType::Enum => Values::Listed(parameter.enum_values.clone()),
                ParamType::String | ParamType::Array | ParamType::ResourceId => parameter
                    .pattern
                    .as_ref()
                    .and_then(|pattern| listed(pattern.as_str()))
                    .map_or(Values::Any, Values::Listed),
            }
        }
        Inputs::InputSchema(schema) => {
            let Some(property) = schema.property(param) else {
                return Values::Any;
            };
            let item = match crate::contract::input_schema::primary_type(property) {
                "array" => property.get("items").unwrap_or(&serde_json::Value::Null),
                _ => property,
            };
            if let Some(values) = item.get("enum").and_then(serde_json::Value::as_array) {
                return values
                    .iter()
                    .map(|value| value.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
                    .map_or(Values::Any, Values::Listed);
            }
            match crate::contract::input_schema::primary_type(item) {
                "integer" | "number" | "boolean" if item.get("type").is_some() => Values::NoKey,
                _ => item
                    .get("pattern")
                    .and_then(serde_json::Value::as_str)
                    .and_then(listed)
                    .map_or(Values::Any, Values::Listed),
            }
        }
    }
}

/// The values an anchored `pattern` matches when they are a short list
/// written out (`^(?:core\.bare|user\.name)$`); `None` for any other.
pub(super) fn listed(pattern: &str) -> Option<Vec<String>> {
    let hir = regex_syntax::ParserBuilder::new()
        .nest_limit(250)
        .build()
        .parse(pattern)
        .ok()?;
    let mut values = strings(&hir)?;
    values.sort();
    values.dedup();
    Some(values)
}

/// Every string `hir` matches, when they are few; anchors at the start
/// and end match the empty string (the pattern is anchored already).
fn strings(hir: &Hir) -> Option<Vec<String>> {
    match hir.kind() {
        HirKind::Empty => Some(vec![String::new()]),
        HirKind::Literal(literal) => Some(vec![String::from_utf8(literal.0.to_vec()).ok()?]),
        HirKind::Look(Look::Start | Look::End) => Some(vec![String::new()]),
        HirKind::Look(_) => None,
        HirKind::Class(Class::Unicode(class)) => {
            let mut out = Vec::new();
            for range in class.iter() {
                for ch in range.start()..=range.end() {
                    out.push(ch.to_string());
                    if out.len() > MAX_LISTED {
                        return None;
                    }
                }
            }
            Some(out)
        }
        HirKind::Class(Class::Bytes(_)) => None,
        HirKind::Capture(capture) => strings(&capture.sub),
        HirKind::Repetition(repetition) => {
            let max = repetition.max?;
            if max > 8 {
                return None;
            }
            let one = strings(&repetition.sub)?;
            let mut out = Vec::new();
            let mut current = vec![String::new()];
            for count in 0..=max {
                if count >= repetition.min {
                    out.extend(current.iter().cloned());
                }
                current = product(&current, &one)?;
            }
            (out.len() <= MAX_LISTED).then_some(out)
        }
        HirKind::Concat(parts) => {
            let mut out = vec![String::new()];
            for part in parts {
                out = product(&out, &strings(part)?)?;
            }
            Some(out)
        }
        HirKind::Alternation(alternatives) => {
            let mut out = Vec::new();
            for alternative in alternatives {
                out.extend(strings(alternative)?);
                if out.len() > MAX_LISTED {
                    return None;
                }
            }
            Some(out)
        }
    }
}

/// Each of `left` followed by each of `right`, when they are few.
fn product(left: &[String], right: &[String]) -> Option<Vec<String>> {
    if left.len().saturating_mul(right.len()) > MAX_LISTED {
        return None;
    }
    Some(
        left.iter()
            .flat_map(|a| right.iter().map(move |b| format!("{a}{b}")))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_patterns_are_read_back() {
        assert_eq!(
            listed(r"^(?:core\.bare|user\.name)$").unwrap(),
            ["core.bare", "user.name"]
        );
        assert_eq!(listed(r"^v[12]$").unwrap(), ["v1", "v2"]);
        assert_eq!(
            listed(r"^(?i:ab)$").unwrap(),
            ["AB", "Ab", "aB", "ab"],
            "a class of each case"
        );
        assert!(listed(r"^[a-z]+\.[a-z]+$").is_none());
        assert!(listed(r"^.*$").is_none());
        assert!(
            listed(r"^(?i:core\.hookspath|a)$")
                .is_none_or(|values| values.iter().any(|value| git_key_runs_code(value, None)))
        );
    }
}
