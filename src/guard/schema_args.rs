//! Phase 1 for MCP-style commands declared with `input_schema`: the
//! JSON-argument checks, then the JSON Schema validator, then the guard's
//! named rules on the top-level properties that carry a pattern type
//! (`x-aigent-pattern-type`) or are passed to the subprocess.

use serde_json::{Map, Value};

use super::arguments::RawArguments;
use super::json_args;
use super::number::{self, NumberTexts};
use super::rule::Rule;
use super::rules::{ValueProfile, check_string};
use super::violation::{Violation, quoted, shown_json};
use super::{ArgValue, Argument, ValidatedArguments, ValueSource};
use crate::contract::{Declaration, InputSchema, Inputs};

pub fn check(
    declaration: &Declaration,
    raw: &RawArguments<'_>,
) -> Result<ValidatedArguments, Vec<Violation>> {
    let Inputs::InputSchema(input_schema) = &declaration.inputs else {
        return Err(Vec::new());
    };
    let parsed = match raw {
        RawArguments::Json(text) => {
            json_args::parse_object(text, !declaration.has_sensitive_input())
        }
        RawArguments::Flags(tokens) => flags_to_object(tokens, input_schema),
        RawArguments::Object(object) => {
            let violations = json_args::prototype_violations(object);
            if violations.is_empty() {
                Ok(((*object).clone(), NumberTexts::rendered()))
            } else {
                Err(violations)
            }
        }
    };
    let (mut instance, texts) = match parsed {
        Ok(parsed) => parsed,
        Err(mut violations) => {
            mark_sensitive(&mut violations, input_schema);
            return Err(violations);
        }
    };
    drop_optional_nulls(&mut instance, input_schema);
    let mut violations = unknown_properties(&instance, input_schema);
    let instance = Value::Object(instance);
    violations.extend(schema_violations(input_schema, &instance));
    violations.extend(rule_violations(
        declaration,
        input_schema,
        &instance,
        &texts,
    ));
    mark_sensitive(&mut violations, input_schema);
    if !violations.is_empty() {
        return Err(violations);
    }
    Ok(ValidatedArguments {
        command: declaration.name.clone(),
        arguments: validated(input_schema, &instance, &texts),
    })
}

/// Marks the violations of sensitive properties, and of unknown ones whose
/// closest declared name is sensitive (a misspelt secret is still one).
fn mark_sensitive(violations: &mut [Violation], input_schema: &InputSchema) {
    let sensitive = |name: &str| {
        input_schema
            .guarded(name)
            .is_some_and(|property| property.item_guard().sensitive)
    };
    for violation in violations {
        violation.sensitive |= sensitive(top_level_name(&violation.field))
            || (violation.rule == Rule::UnknownParameter
                && violation.suggestion.as_deref().is_some_and(sensitive));
    }
}

/// A `null` for an optional property counts as absent, as it does for a
/// `parameters` command (strict tool-calling modes send one for every
/// optional field left out).
fn drop_optional_nulls(instance: &mut Map<String, Value>, input_schema: &InputSchema) {
    let required: Vec<&str> = input_schema.required().collect();
    instance.retain(|name, value| {
        !value.is_null()
            || required.contains(&name.as_str())
            || input_schema.property(name).is_none()
    });
}

/// The violations an `input_schema` property's `default` would cause if
/// it were given: the schema's, and the guard's named rules.
pub fn check_default(declaration: &Declaration, name: &str, default: &Value) -> Vec<Violation> {
    let Inputs::InputSchema(input_schema) = &declaration.inputs else {
        return Vec::new();
    };
    let mut instance = Map::new();
    instance.insert(name.to_owned(), default.clone());
    let instance = Value::Object(instance);
    let mut violations: Vec<Violation> = schema_violations(input_schema, &instance)
        .into_iter()
        .filter(|violation| top_level_name(&violation.field) == name)
        .collect();
    violations.extend(
        rule_violations(
            declaration,
            input_schema,
            &instance,
            &NumberTexts::default(),
        )
        .into_iter()
        .filter(|violation| top_level_name(&violation.field) == name),
    );
    violations
}

fn top_level_name(field: &str) -> &str {
    let end = field.find(['.', '[']).unwrap_or(field.len());
    &field[..end]
}

/// Top-level keys the schema does not declare, when it closes the object
/// (it does by default), with the closest declared name.
fn unknown_properties(instance: &Map<String, Value>, input_schema: &InputSchema) -> Vec<Violation> {
    if input_schema.effective.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Vec::new();
    }
    let declared: Vec<&str> = input_schema.property_names().collect();
    instance
        .iter()
        .filter(|(key, _)| !declared.contains(&key.as_str()))
        .map(|(key, value)| {
            let mut violation = Violation::new(
                key.clone(),
                Rule::UnknownParameter,
                Some(value.to_string()),
                format!("one of the properties: {}", declared.join(", ")),
                format!("`{key}` is not a declared property"),
            );
            if let Some(closest) = crate::contract::closest(key, declared.iter().copied()) {
                violation = violation.with_suggestion(closest);
            }
            violation
        })
        .collect()
}

/// What the JSON Schema validator finds, minus the unknown top-level
/// properties that [`unknown_properties`] already named.
fn schema_violations(input_schema: &InputSchema, instance: &Value) -> Vec<Violation> {
    use jsonschema::error::ValidationErrorKind as Kind;
    input_schema
        .validator
        .iter_errors(instance)
        .filter(|error| {
            !(error.instance_path().as_str().is_empty()
                && matches!(error.kind(), Kind::AdditionalProperties { .. }))
        })
        .map(|error| {
            let pointer = error.instance_path().as_str().to_owned();
            let (rule, field) = match error.kind() {
                Kind::Required { property } => (
                    Rule::Required,
                    join_field(
                        &pointer_to_field(&pointer, instance),
                        property.as_str().unwrap_or(""),
                    ),
                ),
                Kind::Type { .. } => (Rule::Type, pointer_to_field(&pointer, instance)),
                Kind::Enum { .. } | Kind::Constant { .. } => {
                    (Rule::Enum, pointer_to_field(&pointer, instance))
                }
                Kind::Pattern { .. } => (Rule::Pattern, pointer_to_field(&pointer, instance)),
                Kind::AdditionalProperties { .. } | Kind::UnevaluatedProperties { .. } => {
                    (Rule::UnknownParameter, pointer_to_field(&pointer, instance))
                }
                _ => (Rule::Schema, pointer_to_field(&pointer, instance)),
            };
            let found = error.instance();
            let input_value = match (rule, found.as_ref()) {
                (Rule::Required, _) => None,
                (_, Value::String(text)) => Some(quoted(text)),
                (_, other) => Some(shown_json(other)),
            };
            let shown = if field.is_empty() {
                "the arguments".to_owned()
            } else {
                format!("`{field}`")
            };
            Violation::new(
                field,
                rule,
                input_value,
                expected_from_kind(error.kind()),
                format!("{shown}: {}", error.masked()),
            )
        })
        .collect()
}

fn expected_from_kind(kind: &jsonschema::error::ValidationErrorKind) -> String {
    use jsonschema::error::ValidationErrorKind as Kind;
    match kind {
        Kind::Pattern { pattern } => format!("a string matching {pattern}"),
        Kind::Enum { options } => format!("one of {options}"),
        Kind::Constant { expected_value } => format!("exactly {expected_value}"),
        Kind::Required { property } => format!("the property {property}"),
        Kind::MinItems { limit } => format!("at least {limit} items"),
        Kind::MaxItems { limit } => format!("at most {limit} items"),
        Kind::MinLength { limit } => format!("at least {limit} characters"),
        Kind::MaxLength { limit } => format!("at most {limit} characters"),
        Kind::Minimum { limit } => format!("at least {limit}"),
        Kind::Maximum { limit } => format!("at most {limit}"),
        Kind::Format { format } => format!("a valid {format}"),
        other => format!(
            "what the input_schema's `{}` keyword allows",
            other.keyword()
        ),
    }
}

/// `/argv/0` → `argv[0]`, `/options/depth` → `options.depth`.
fn pointer_to_field(pointer: &str, instance: &Value) -> String {
    let mut field = String::new();
    let mut current = Some(instance);
    for raw in pointer.split('/').skip(1) {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        match current {
            Some(Value::Array(items)) => {
                field.push_str(&format!("[{segment}]"));
                current = segment
                    .parse::<usize>()
                    .ok()
                    .and_then(|index| items.get(index));
            }
            other => {
                field = join_field(&field, &segment);
                current = other.and_then(|value| value.get(&segment));
            }
        }
    }
    field
}

fn join_field(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}

/// The named rules on top-level string properties (and string items of
/// array properties) that carry a pattern type or go to the subprocess.
fn rule_violations(
    declaration: &Declaration,
    input_schema: &InputSchema,
    instance: &Value,
    texts: &NumberTexts,
) -> Vec<Violation> {
    // A number as given (its exact text), else as serde_json prints it.
    let number_text = |pointer: &str, number: &serde_json::Number| {
        texts
            .get(pointer)
            .map_or_else(|| number.to_string(), str::to_owned)
    };
    let mut violations = Vec::new();
    for property in &input_schema.guarded {
        let name = property.name.as_str();
        let Some(value) = instance.get(name) else {
            continue;
        };
        let user_controlled = declaration.reaches_subprocess(name);
        // Glued to its flag in every use (`--author=-x`), a leading dash
        // cannot be read as an option.
        let glued = !declaration.leading_dash_matters(name);
        let profile = ValueProfile {
            class: property.guard.class,
            pattern: None,
            regex_dialect: property.guard.regex_dialect,
            user_controlled,
            allow_leading_dash: property.guard.allow_leading_dash || glued,
            relative_only: property.confinement.relative_only,
        };
        match value {
            Value::String(text) => violations.extend(check_string(name, text, &profile)),
            Value::Array(items) => {
                let item = property.item_guard();
                let item_profile = ValueProfile {
                    class: item.class,
                    pattern: None,
                    regex_dialect: item.regex_dialect,
                    user_controlled,
                    allow_leading_dash: item.allow_leading_dash || glued,
                    relative_only: property.confinement.relative_only,
                };
                for (index, item) in items.iter().enumerate() {
                    match item {
                        Value::String(text) => violations.extend(check_string(
                            &format!("{name}[{index}]"),
                            text,
                            &item_profile,
                        )),
                        // Each item becomes an argv word, so a negative
                        // number reads as an option too.
                        Value::Number(number)
                            if item_profile.user_controlled
                                && !item_profile.allow_leading_dash
                                && number.to_string().starts_with('-') =>
                        {
                            let pointer = format!("{}/{index}", number::pointer_child("", name));
                            violations.push(numeric_option_injection(
                                &format!("{name}[{index}]"),
                                number_text(&pointer, number),
                            ));
                        }
                        _ => {}
                    }
                }
            }
            Value::Number(number)
                if profile.user_controlled
                    && !profile.allow_leading_dash
                    && number.to_string().starts_with('-') =>
            {
                let pointer = number::pointer_child("", name);
                violations.push(numeric_option_injection(
                    name,
                    number_text(&pointer, number),
                ));
            }
            _ => {}
        }
    }
    violations
}

fn numeric_option_injection(field: &str, text: String) -> Violation {
    Violation::new(
        field,
        Rule::OptionInjection,
        Some(text),
        "a value that does not start with '-'",
        format!("`{field}` starts with '-', so the command would read it as an option"),
    )
}

/// Converts `--name value` flags into the object the schema validates,
/// typing each value by its property's declared `type` (through `$ref` and
/// `allOf`), with the exact text of each number. Prototype keys are
/// refused here as in `--json`, in flag names and in object values alike.
fn flags_to_object(
    tokens: &[String],
    input_schema: &InputSchema,
) -> Result<(Map<String, Value>, NumberTexts), Vec<Violation>> {
    let mut object = Map::new();
    let mut texts = NumberTexts::default();
    let mut violations = Vec::new();
    let declared: Vec<&str> = input_schema.property_names().collect();
    let mut index = 0;
    // A stray word right after a sensitive value is likely more of it.
    let mut after_sensitive = false;
    while index < tokens.len() {
        let token = &tokens[index];
        index += 1;
        let Some(flag) = token.strip_prefix("--").filter(|flag| !flag.is_empty()) else {
            let mut violation = Violation::new(
                "",
                Rule::UnexpectedArgument,
                Some(token.clone()),
                "--name value for a declared property",
                format!("`{token}` is not a `--name value` argument"),
            );
            violation.sensitive = after_sensitive;
            violations.push(violation);
            continue;
        };
        after_sensitive = false;
        let (name, inline) = match flag.split_once('=') {
            Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
            None => (flag.to_owned(), None),
        };
        if name == "json" {
            violations.push(super::arguments::misplaced_json());
            if inline.is_none() && index < tokens.len() {
                index += 1;
            }
            continue;
        }
        let guarded = input_schema.guarded(&name);
        let kind = guarded.map_or("string", |property| property.primary_type.as_str());
        let text = match inline {
            Some(text) => text,
            None if kind == "boolean" => match tokens.get(index).map(String::as_str) {
                Some(word @ ("true" | "false")) => {
                    index += 1;
                    word.to_owned()
                }
                _ => "true".to_owned(),
            },
            None => match tokens.get(index) {
                Some(next) if !is_declared_flag(next, &declared) => {
                    index += 1;
                    next.clone()
                }
                _ => {
                    violations.push(Violation::new(
                        name.clone(),
                        Rule::MissingValue,
                        None,
                        format!("--{name} VALUE"),
                        format!("`--{name}` has no value"),
                    ));
                    continue;
                }
            },
        };
        after_sensitive = guarded.is_some_and(|property| property.item_guard().sensitive);
        let item_kind = guarded.map_or("string", |property| property.items_type.as_str());
        let pointer = number::pointer_child("", &name);
        if kind == "array" {
            let item = typed_text(&text, item_kind);
            let entry = object
                .entry(name.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(items) = entry {
                texts.record(&text, &item, &format!("{pointer}/{}", items.len()));
                items.push(item);
            }
        } else if object.contains_key(&name) {
            violations.push(Violation::new(
                name.clone(),
                Rule::Repeated,
                Some(text),
                "one value",
                format!("`{name}` is given more than once; it takes one value"),
            ));
        } else {
            let value = typed_text(&text, kind);
            texts.record(&text, &value, &pointer);
            object.insert(name, value);
        }
    }
    violations.extend(json_args::prototype_violations(&object));
    if violations.is_empty() {
        Ok((object, texts))
    } else {
        Err(violations)
    }
}

fn is_declared_flag(token: &str, declared: &[&str]) -> bool {
    token
        .strip_prefix("--")
        .map(|rest| rest.split_once('=').map_or(rest, |(name, _)| name))
        .is_some_and(|name| declared.contains(&name))
}

/// The JSON value a flag's text stands for; text that does not parse as
/// the declared type stays a string, so the schema reports the type error.
fn typed_text(text: &str, kind: &str) -> Value {
    let parsed = match kind {
        "integer" | "number" | "boolean" | "object" | "null" if text.trim() == text => {
            crate::contract::value::from_json(text).ok()
        }
        _ => None,
    };
    match parsed {
        Some(value) if kind_matches(&value, kind) => value,
        _ => Value::String(text.to_owned()),
    }
}

fn kind_matches(value: &Value, kind: &str) -> bool {
    match kind {
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => false,
    }
}

/// The accepted properties in declared order; defaults fill absent ones.
/// A `null` (for a property that allows it) stands for no value.
fn validated(input_schema: &InputSchema, instance: &Value, texts: &NumberTexts) -> Vec<Argument> {
    input_schema
        .properties()
        .filter_map(|(name, property)| {
            let sensitive = input_schema
                .guarded(name)
                .is_some_and(|guarded| guarded.item_guard().sensitive);
            let (value, source, texts) = match instance.get(name) {
                Some(Value::Null) => return None,
                Some(value) => (value, ValueSource::Given, texts),
                None => (
                    property.get("default").filter(|value| !value.is_null())?,
                    ValueSource::Default,
                    &NumberTexts::default(),
                ),
            };
            Some(Argument {
                name: name.to_owned(),
                value: ArgValue::from_json(value, texts, &number::pointer_child("", name)),
                source,
                sensitive,
            })
        })
        .collect()
}
