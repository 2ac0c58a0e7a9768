//! Phase 1 (DESIGN.md §5): one pure function of a declaration and the raw
//! arguments, [`check`], which returns either the validated, typed
//! arguments in declared order or every violation. `args check` reports its
//! result; `run` builds the argv from it.
//!
//! The guard rejects; it never rewrites. A value that passes is handed on
//! exactly as given, and a correction is only ever offered as a
//! `suggestion`.

mod arguments;
mod confine;
mod defaults;
pub mod dialect;
mod fix;
mod json_args;
pub mod number;
mod proposed_program;
pub mod render;
mod rule;
pub mod rules;
mod schema_args;
mod suggest;
pub mod syntax;
mod violation;

use serde_json::{Map, Value};

pub use crate::contract::ValueClass;
pub use crate::contract::value::json_kind;
pub use crate::normalize;
pub use arguments::RawArguments;
pub use confine::{confine, resolve_existing};
pub use defaults::default_diagnostics;
pub use number::{Decimal, DecimalError};
pub use rule::Rule;
pub use rules::{ValueProfile, check_string};
pub use violation::{FIX_ARGUMENTS, REDACTED, Rejection, Violation};

use crate::contract::bounds::ExactNumber;
use crate::contract::{Declaration, Inputs, ParamType, Parameter};
use arguments::Given;
use number::NumberTexts;

/// A validated argument value, typed by its declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    String(String),
    Integer(i64),
    /// Any other number, kept as the exact text it was given in.
    Number(Decimal),
    Boolean(bool),
    /// An array of strings, in the order given.
    Array(Vec<String>),
    /// An array of strings, numbers and booleans (`input_schema`), each
    /// item typed like a value of its own.
    List(Vec<ArgValue>),
    /// Anything else an `input_schema` allows (objects, nested arrays,
    /// `null`).
    Json(Value),
}

impl ArgValue {
    pub fn to_json(&self) -> Value {
        match self {
            Self::String(text) => Value::String(text.clone()),
            Self::Integer(number) => Value::from(*number),
            Self::Number(number) => number.to_json(),
            Self::Boolean(flag) => Value::Bool(*flag),
            Self::Array(items) => Value::from(items.clone()),
            Self::List(items) => Value::Array(items.iter().map(Self::to_json).collect()),
            Self::Json(value) => value.clone(),
        }
    }

    /// Types a JSON value that has passed validation. `texts` holds the
    /// exact text of its numbers by JSON pointer, `pointer` is where the
    /// value sits; a number without a text (a default from a declaration)
    /// gets its shortest decimal form.
    fn from_json(value: &Value, texts: &NumberTexts, pointer: &str) -> Self {
        match value {
            Value::String(text) => Self::String(text.clone()),
            Value::Bool(flag) => Self::Boolean(*flag),
            Value::Number(number) => {
                Self::from_number(number, texts.text_of(pointer, number).as_deref())
            }
            Value::Array(items) if items.iter().all(Value::is_string) => Self::Array(
                items
                    .iter()
                    .filter_map(|item| item.as_str().map(str::to_owned))
                    .collect(),
            ),
            Value::Array(items)
                if items
                    .iter()
                    .all(|item| item.is_string() || item.is_number() || item.is_boolean()) =>
            {
                Self::List(
                    items
                        .iter()
                        .enumerate()
                        .map(|(index, item)| {
                            Self::from_json(item, texts, &format!("{pointer}/{index}"))
                        })
                        .collect(),
                )
            }
            other => Self::Json(other.clone()),
        }
    }

    fn from_number(number: &serde_json::Number, text: Option<&str>) -> Self {
        let text = match text {
            Some(text) => text.to_owned(),
            None => match (number.as_i64(), number.as_u64()) {
                (Some(integer), _) => integer.to_string(),
                (None, Some(unsigned)) => unsigned.to_string(),
                (None, None) => {
                    return Self::Number(Decimal::from_f64(number.as_f64().unwrap_or(f64::NAN)));
                }
            },
        };
        match text.parse::<i64>() {
            Ok(integer) if integer.to_string() == text => Self::Integer(integer),
            _ => Self::Number(
                Decimal::parse(&text)
                    .unwrap_or_else(|_| Decimal::from_f64(number.as_f64().unwrap_or(f64::NAN))),
            ),
        }
    }
}

/// Where a value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueSource {
    Given,
    Default,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Argument {
    pub name: String,
    pub value: ArgValue,
    pub source: ValueSource,
    pub sensitive: bool,
}

/// Phase 1 passed: the arguments, in declared order (the order of
/// `parameters`, or of `input_schema.properties`), given or defaulted.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedArguments {
    pub command: String,
    pub arguments: Vec<Argument>,
}

impl ValidatedArguments {
    pub fn get(&self, name: &str) -> Option<&ArgValue> {
        self.arguments
            .iter()
            .find(|argument| argument.name == name)
            .map(|argument| &argument.value)
    }

    /// The arguments as a JSON object in declared order, with sensitive
    /// values replaced by [`REDACTED`].
    pub fn to_redacted_json(&self) -> Value {
        let mut object = Map::new();
        for argument in &self.arguments {
            let value = if argument.sensitive {
                Value::String(REDACTED.to_owned())
            } else {
                argument.value.to_json()
            };
            object.insert(argument.name.clone(), value);
        }
        Value::Object(object)
    }
}

/// Phase 1: every argument checked against `declaration`, every violation
/// collected. Pure: no I/O, no environment, no clock.
pub fn check(
    declaration: &Declaration,
    raw: &RawArguments<'_>,
) -> Result<ValidatedArguments, Rejection> {
    check_arguments(declaration, raw).map_err(|violations| {
        let mut rejection = Rejection::bounded(declaration.name.clone(), violations);
        rejection.fix = fix::corrected_words(declaration, raw, &rejection.violations, |fixed| {
            check_arguments(declaration, fixed).is_ok()
        });
        rejection
    })
}

/// [`check`] without the corrected call.
fn check_arguments(
    declaration: &Declaration,
    raw: &RawArguments<'_>,
) -> Result<ValidatedArguments, Vec<Violation>> {
    let result = match &declaration.inputs {
        Inputs::Parameters(parameters) => check_parameters(declaration, parameters, raw),
        Inputs::InputSchema(_) => schema_args::check(declaration, raw),
    }
    .and_then(
        |validated| match proposed_program::check(declaration, &validated) {
            Some(violation) => Err(vec![violation]),
            None => Ok(validated),
        },
    );
    result.map_err(|mut violations| {
        hide_possible_secrets(declaration, &mut violations);
        violations
    })
}

/// For a command with any sensitive input, every violation whose value
/// might be a secret is marked sensitive (so its value, suggestion and
/// message are redacted in the envelope and the audit log): all but those
/// about a declared, non-sensitive input. That covers a secret under an
/// unknown or wrapping key (`{"arguments": {...}}`, `api_key` for
/// `token`), a stray word, an unknown `--flag` and its value, and a
/// root-level schema keyword (`oneOf`, `not`, `minProperties`, ...) that
/// would otherwise quote the whole argument object.
fn hide_possible_secrets(declaration: &Declaration, violations: &mut [Violation]) {
    if !declaration.has_sensitive_input() {
        return;
    }
    let declared_plain = |name: &str| match &declaration.inputs {
        Inputs::Parameters(parameters) => parameters
            .iter()
            .any(|parameter| parameter.name == name && !parameter.sensitive),
        Inputs::InputSchema(schema) => schema
            .guarded(name)
            .is_some_and(|property| !property.item_guard().sensitive),
    };
    for violation in violations {
        let name = top_level_name(&violation.field);
        violation.sensitive |= name.is_empty() || !declared_plain(name);
    }
}

/// The parameter or property a violation's field is about (`options` of
/// `options.depth`, `args` of `args[1]`).
fn top_level_name(field: &str) -> &str {
    let end = field.find(['.', '[']).unwrap_or(field.len());
    &field[..end]
}

fn check_parameters(
    declaration: &Declaration,
    parameters: &[Parameter],
    raw: &RawArguments<'_>,
) -> Result<ValidatedArguments, Vec<Violation>> {
    let (mut given, texts, mut violations) = match raw {
        RawArguments::Flags(tokens) => {
            let (given, violations) = arguments::parse_flags(tokens, parameters);
            (given, NumberTexts::default(), violations)
        }
        RawArguments::Json(text) => {
            json_args::parse_for_parameters(text, parameters, !declaration.has_sensitive_input())?
        }
        RawArguments::Object(object) => json_args::object_for_parameters(object, parameters)?,
    };
    let mut validated = Vec::new();
    for parameter in parameters {
        let profile = profile_for(declaration, parameter);
        match given.remove(&parameter.name) {
            Some(value) => {
                let literal = texts.get(&number::pointer_child("", &parameter.name));
                let (checked, mut found) = check_given(parameter, &profile, value, literal);
                mark_sensitive(&mut found, parameter.sensitive);
                violations.extend(found);
                if let Some(value) = checked {
                    validated.push(Argument {
                        name: parameter.name.clone(),
                        value,
                        source: ValueSource::Given,
                        sensitive: parameter.sensitive,
                    });
                }
            }
            None => match &parameter.default {
                Some(default) => validated.push(Argument {
                    name: parameter.name.clone(),
                    value: ArgValue::from_json(default, &NumberTexts::default(), ""),
                    source: ValueSource::Default,
                    sensitive: parameter.sensitive,
                }),
                // A flag given without its value is already reported.
                None if parameter.required
                    && !violations
                        .iter()
                        .any(|violation| violation.field == parameter.name) =>
                {
                    violations.push(Violation::new(
                        parameter.name.clone(),
                        Rule::Required,
                        None,
                        expected_for_parameter(parameter, &profile),
                        format!("`{}` is required", parameter.name),
                    ));
                }
                None => {}
            },
        }
    }
    if violations.is_empty() {
        Ok(ValidatedArguments {
            command: declaration.name.clone(),
            arguments: validated,
        })
    } else {
        Err(violations)
    }
}

fn mark_sensitive(violations: &mut [Violation], sensitive: bool) {
    for violation in violations {
        violation.sensitive |= sensitive;
    }
}

/// The rules a parameter's values get.
pub fn profile_for<'a>(declaration: &Declaration, parameter: &'a Parameter) -> ValueProfile<'a> {
    let class = match (parameter.kind, parameter.pattern_type, &parameter.pattern) {
        (ParamType::ResourceId, _, _) => ValueClass::ResourceId,
        (_, Some(pattern_type), _) => ValueClass::Typed(pattern_type),
        (_, None, Some(_)) => ValueClass::Patterned,
        (_, None, None) => ValueClass::Plain,
    };
    ValueProfile {
        class,
        pattern: parameter.pattern.as_ref(),
        regex_dialect: parameter.regex_dialect,
        user_controlled: declaration.reaches_subprocess(&parameter.name),
        allow_leading_dash: parameter.allow_leading_dash
            || !declaration.leading_dash_matters(&parameter.name),
        relative_only: parameter.confinement.relative_only,
    }
}

/// What a parameter accepts, in words, for `expected`.
pub fn expected_for_parameter(parameter: &Parameter, profile: &ValueProfile<'_>) -> String {
    match parameter.kind {
        ParamType::String | ParamType::ResourceId => rules::expected_for(profile),
        ParamType::Array => format!("an array of strings, each {}", rules::expected_for(profile)),
        ParamType::Integer | ParamType::Number => {
            let kind = if parameter.kind == ParamType::Integer {
                "an integer"
            } else {
                "a number"
            };
            match parameter.bounds.describe() {
                bounds if bounds.is_empty() => kind.to_owned(),
                bounds => format!("{kind}, {bounds}"),
            }
        }
        ParamType::Boolean => "true or false".to_owned(),
        ParamType::Enum => format!("one of: {}", parameter.enum_values.join(", ")),
    }
}

/// Checks one given value against its parameter; the typed value when it
/// passes.
fn check_given(
    parameter: &Parameter,
    profile: &ValueProfile<'_>,
    given: Given,
    literal: Option<&str>,
) -> (Option<ArgValue>, Vec<Violation>) {
    let (value, mut violations) = check_type(parameter, profile, given, literal);
    let Some(value) = value else {
        return (None, violations);
    };
    let out_of_bounds = bounds_violations(parameter, &value);
    if out_of_bounds.is_empty() {
        return (Some(value), violations);
    }
    violations.extend(out_of_bounds);
    (None, violations)
}

/// An integer or number outside its parameter's bounds: one violation
/// naming every bound it breaks.
fn bounds_violations(parameter: &Parameter, value: &ArgValue) -> Vec<Violation> {
    if parameter.bounds.is_empty() {
        return Vec::new();
    }
    let (exact, shown) = match value {
        ArgValue::Integer(integer) => (Some(ExactNumber::from_i64(*integer)), integer.to_string()),
        ArgValue::Number(number) => (
            ExactNumber::parse(number.as_str()),
            number.as_str().to_owned(),
        ),
        _ => return Vec::new(),
    };
    // A number the exact reader cannot hold (an exponent written past
    // ±100,000) breaks every bound: refused, never let through unchecked.
    let broken = match &exact {
        Some(exact) => parameter.bounds.broken_by(exact),
        None => parameter.bounds.each().collect(),
    };
    if broken.is_empty() {
        return Vec::new();
    }
    let name = parameter.name.as_str();
    let why: Vec<String> = broken
        .iter()
        .map(|(kind, bound)| {
            format!(
                "{} {} (`{}`)",
                kind.requirement(),
                bound.number,
                kind.keyword()
            )
        })
        .collect();
    vec![Violation::new(
        name,
        Rule::Bounds,
        Some(shown.clone()),
        format!(
            "{}, {}",
            if parameter.kind == ParamType::Integer {
                "an integer"
            } else {
                "a number"
            },
            parameter.bounds.describe()
        ),
        format!("`{name}` is {shown}; it must be {}", why.join(" and ")),
    )]
}

/// Checks one given value against its parameter's type and string rules;
/// the typed value when it passes.
fn check_type(
    parameter: &Parameter,
    profile: &ValueProfile<'_>,
    given: Given,
    literal: Option<&str>,
) -> (Option<ArgValue>, Vec<Violation>) {
    let name = parameter.name.as_str();
    let expected = || expected_for_parameter(parameter, profile);
    let type_error = |shown: String, why: &str| {
        Violation::new(
            name,
            Rule::Type,
            Some(shown),
            expected(),
            format!("`{name}` {why}"),
        )
    };
    match (parameter.kind, given) {
        (ParamType::Array, Given::Texts(items)) => check_items(name, profile, items),
        (ParamType::Array, Given::Json(Value::Array(items))) => {
            let mut texts = Vec::new();
            for (index, item) in items.iter().enumerate() {
                match item.as_str() {
                    Some(text) => texts.push(text.to_owned()),
                    None => {
                        return (
                            None,
                            vec![Violation::new(
                                format!("{name}[{index}]"),
                                Rule::Type,
                                Some(item.to_string()),
                                expected(),
                                format!("`{name}[{index}]` is {}, not a string", json_kind(item)),
                            )],
                        );
                    }
                }
            }
            check_items(name, profile, texts)
        }
        (ParamType::Array, Given::Json(other)) => (
            None,
            vec![type_error(
                other.to_string(),
                &format!("is {}, not an array of strings", json_kind(&other)),
            )],
        ),
        (kind, Given::Texts(texts)) => {
            if texts.len() > 1 {
                return (
                    None,
                    vec![Violation::new(
                        name,
                        Rule::Repeated,
                        texts.last().cloned(),
                        expected(),
                        format!(
                            "`{name}` is given {} times; it takes one value",
                            texts.len()
                        ),
                    )],
                );
            }
            let text = texts.into_iter().next().unwrap_or_default();
            check_text(parameter, profile, kind, text)
        }
        (kind, Given::Json(value)) => check_json(parameter, profile, kind, value, literal),
    }
}

fn check_items(
    name: &str,
    profile: &ValueProfile<'_>,
    items: Vec<String>,
) -> (Option<ArgValue>, Vec<Violation>) {
    let violations: Vec<Violation> = items
        .iter()
        .enumerate()
        .flat_map(|(index, item)| check_string(&format!("{name}[{index}]"), item, profile))
        .collect();
    if violations.is_empty() {
        (Some(ArgValue::Array(items)), violations)
    } else {
        (None, violations)
    }
}

/// A value given as text (`--name value`), parsed by the declared type.
fn check_text(
    parameter: &Parameter,
    profile: &ValueProfile<'_>,
    kind: ParamType,
    text: String,
) -> (Option<ArgValue>, Vec<Violation>) {
    let name = parameter.name.as_str();
    // The value the text meant, when it is one written another way and
    // would pass (a negative number may not, as an option).
    let respelled = match kind {
        ParamType::Integer => suggest::integer(&text),
        ParamType::Number => suggest::number(&text),
        ParamType::Boolean => suggest::boolean(&text).map(str::to_owned),
        _ => None,
    }
    .filter(|fixed| *fixed != text && numeric_option_injection(name, fixed, profile).is_empty());
    let type_error = |why: String| {
        let violation = Violation::new(
            name,
            Rule::Type,
            Some(text.clone()),
            expected_for_parameter(parameter, profile),
            format!("`{name}` {why}"),
        );
        vec![match &respelled {
            Some(fixed) => violation.with_suggestion(fixed.clone()),
            None => violation,
        }]
    };
    let value = match kind {
        ParamType::String | ParamType::ResourceId => {
            let violations = check_string(name, &text, profile);
            return if violations.is_empty() {
                (Some(ArgValue::String(text)), violations)
            } else {
                (None, violations)
            };
        }
        ParamType::Enum => return check_enum(parameter, profile, text),
        ParamType::Integer => match parse_integer(&text) {
            Ok(number) => ArgValue::Integer(number),
            Err(why) => return (None, type_error(why)),
        },
        ParamType::Number => match Decimal::parse(&text) {
            Ok(number) => ArgValue::Number(number),
            Err(DecimalError::Syntax) => {
                return (None, type_error("is not a finite number".to_owned()));
            }
            Err(why) => return (None, type_error(why.describe().to_owned())),
        },
        ParamType::Boolean => match text.as_str() {
            "true" => ArgValue::Boolean(true),
            "false" => ArgValue::Boolean(false),
            _ => return (None, type_error("is not `true` or `false`".to_owned())),
        },
        ParamType::Array => return check_items(name, profile, vec![text]),
    };
    (Some(value), numeric_option_injection(name, &text, profile))
}

/// A value given in `--json`, which must already have the declared type.
/// `literal` is the exact text of a number.
fn check_json(
    parameter: &Parameter,
    profile: &ValueProfile<'_>,
    kind: ParamType,
    value: Value,
    literal: Option<&str>,
) -> (Option<ArgValue>, Vec<Violation>) {
    let name = parameter.name.as_str();
    let shown = match (&value, literal) {
        (Value::Number(_), Some(text)) => text.to_owned(),
        _ => value.to_string(),
    };
    // A scalar sent as a string (`"5"`, `"true"`): the value it meant.
    let respelled = match (kind, &value) {
        (ParamType::Integer, Value::String(text)) => suggest::integer(text),
        (ParamType::Number, Value::String(text)) => suggest::number(text),
        (ParamType::Boolean, Value::String(text)) => suggest::boolean(text).map(str::to_owned),
        _ => None,
    }
    .filter(|fixed| numeric_option_injection(name, fixed, profile).is_empty());
    let type_error = |why: &str| {
        let violation = Violation::new(
            name,
            Rule::Type,
            Some(shown.clone()),
            expected_for_parameter(parameter, profile),
            format!("`{name}` is {}, {why}", json_kind(&value)),
        );
        vec![match &respelled {
            Some(fixed) => violation.with_suggestion(fixed.clone()),
            None => violation,
        }]
    };
    match (kind, &value) {
        (ParamType::String | ParamType::ResourceId, Value::String(text)) => {
            let violations = check_string(name, text, profile);
            if violations.is_empty() {
                (Some(ArgValue::String(text.clone())), violations)
            } else {
                (None, violations)
            }
        }
        (ParamType::Enum, Value::String(text)) => check_enum(parameter, profile, text.clone()),
        // Only an integer written as one: `1.0` and `1e3` are refused (with
        // the integer as a suggestion), not rewritten.
        (ParamType::Integer, Value::Number(_)) => match parse_integer(&shown) {
            Ok(integer) => (
                Some(ArgValue::Integer(integer)),
                numeric_option_injection(name, &shown, profile),
            ),
            Err(why) => {
                let mut violations = vec![Violation::new(
                    name,
                    Rule::Type,
                    Some(shown.clone()),
                    expected_for_parameter(parameter, profile),
                    format!("`{name}` {why}"),
                )];
                if let Some(integer) = whole_number(&shown) {
                    violations[0].suggestion = Some(integer);
                }
                (None, violations)
            }
        },
        (ParamType::Number, Value::Number(_)) => match Decimal::parse(&shown) {
            Ok(number) => (
                Some(ArgValue::Number(number)),
                numeric_option_injection(name, &shown, profile),
            ),
            Err(why) => (None, type_error(why.describe())),
        },
        (ParamType::Boolean, Value::Bool(flag)) => (Some(ArgValue::Boolean(*flag)), Vec::new()),
        (ParamType::Integer, _) => (None, type_error("not an integer")),
        (ParamType::Number, _) => (None, type_error("not a number")),
        (ParamType::Boolean, _) => (None, type_error("not true or false")),
        (ParamType::String | ParamType::ResourceId | ParamType::Enum, _) => {
            (None, type_error("not a string"))
        }
        (ParamType::Array, _) => (None, type_error("not an array of strings")),
    }
}

fn check_enum(
    parameter: &Parameter,
    profile: &ValueProfile<'_>,
    text: String,
) -> (Option<ArgValue>, Vec<Violation>) {
    if parameter.enum_values.contains(&text) {
        return (Some(ArgValue::String(text)), Vec::new());
    }
    let name = parameter.name.as_str();
    let mut violation = Violation::new(
        name,
        Rule::Enum,
        Some(text.clone()),
        expected_for_parameter(parameter, profile),
        format!("`{name}` is not one of the declared values"),
    );
    let values = || parameter.enum_values.iter().map(String::as_str);
    if let Some(closest) =
        suggest::enum_value(&text, values()).or_else(|| crate::contract::closest(&text, values()))
    {
        violation = violation.with_suggestion(closest);
    }
    (None, vec![violation])
}

/// A negative number handed to a subprocess reads as an option too.
fn numeric_option_injection(name: &str, text: &str, profile: &ValueProfile<'_>) -> Vec<Violation> {
    if profile.user_controlled && !profile.allow_leading_dash && text.starts_with('-') {
        vec![Violation::new(
            name,
            Rule::OptionInjection,
            Some(text.to_owned()),
            "a value that does not start with '-' (the parameter does not allow_leading_dash)",
            format!("`{name}` starts with '-', so the command would read it as an option"),
        )]
    } else {
        Vec::new()
    }
}

/// A JSON integer: an optional `-`, digits, no leading zeros, no `+`, no
/// spaces, no `-0`; so the text is exactly the number that is passed on.
fn parse_integer(text: &str) -> Result<i64, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let integer_syntax = !digits.is_empty()
        && digits.bytes().all(|byte| byte.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if !integer_syntax {
        return Err("is not an integer".to_owned());
    }
    match text.parse::<i64>() {
        Ok(integer) if integer.to_string() == text => Ok(integer),
        Ok(_) => Err("is not an integer as written (`-0`); write 0".to_owned()),
        Err(_) => Err("is out of range (a 64-bit signed integer)".to_owned()),
    }
}

/// The integer a number's text denotes, when it is one written another way
/// (`1.0`, `1e3`), as a suggestion.
fn whole_number(text: &str) -> Option<String> {
    let value: f64 = text.parse().ok()?;
    (value.fract() == 0.0 && value.abs() < 9.0e15).then(|| format!("{}", value as i64))
}

/// Checks a parameter's `default` against the parameter itself, for the
/// registration lint: the violations a default would cause if given.
pub fn check_default(
    declaration: &Declaration,
    parameter: &Parameter,
    default: &Value,
) -> Vec<Violation> {
    let profile = profile_for(declaration, parameter);
    check_given(parameter, &profile, Given::Json(default.clone()), None).1
}

/// Checks an `input_schema` property's `default` against the property
/// (its schema and the guard's rules), for the registration lint.
pub fn check_schema_default(
    declaration: &Declaration,
    name: &str,
    default: &Value,
) -> Vec<Violation> {
    schema_args::check_default(declaration, name, default)
}

#[cfg(test)]
pub(crate) mod tests;
