//! The corrected call: the words after NAME with every rejected value
//! replaced by its correction, when each problem has an exact one (the
//! same value written another way) and the corrected call passes Phase 1.
//! Commands with a sensitive input never get one, so no secret is echoed.

use serde_json::Value;

use super::arguments::RawArguments;
use super::rule::Rule;
use super::suggest;
use super::violation::Violation;
use crate::contract::{Declaration, Inputs, ParamType};

/// The corrected words after NAME, in the form the agent used (`--name
/// value` flags or `--json TEXT`); `check` says whether a call passes.
pub fn corrected_words(
    declaration: &Declaration,
    raw: &RawArguments<'_>,
    violations: &[Violation],
    check: impl Fn(&RawArguments<'_>) -> bool,
) -> Option<Vec<String>> {
    if declaration.has_sensitive_input() || violations.is_empty() {
        return None;
    }
    let mut corrections = Vec::with_capacity(violations.len());
    for violation in violations {
        if violation.sensitive {
            return None;
        }
        let (name, item) = target(&violation.field)?;
        corrections.push((name, item, exact_correction(violation)?));
    }
    let words = match raw {
        RawArguments::Flags(tokens) => corrected_flags(declaration, tokens, &corrections)?,
        RawArguments::Json(text) => {
            let document = serde_json::from_str::<Value>(text).ok()?;
            let Value::Object(object) = document else {
                return None;
            };
            let corrected = corrected_object(declaration, object, &corrections)?;
            vec!["--json".to_owned(), serde_json::to_string(&corrected).ok()?]
        }
        // Checked as the object it is; the words carry its text.
        RawArguments::Object(object) => {
            let corrected =
                corrected_object(declaration, serde_json::Map::clone(object), &corrections)?;
            return check(&RawArguments::Object(&corrected))
                .then(|| serde_json::to_string(&corrected).ok())
                .flatten()
                .map(|text| vec!["--json".to_owned(), text]);
        }
    };
    check(&RawArguments::from_tail(&words)).then_some(words)
}

/// A suggestion that is the value itself written another way; a guess at
/// another value (the closest enum value, the ID before a `?`) is offered
/// as a suggestion but never put in a command to run.
fn exact_correction(violation: &Violation) -> Option<&str> {
    let suggestion = violation.suggestion.as_deref()?;
    match violation.rule {
        // Guesses: part of the value, or the nearest declared name.
        Rule::QueryParameter
        | Rule::FragmentIdentifier
        | Rule::UnknownParameter
        | Rule::UnexpectedArgument => None,
        Rule::Enum => violation
            .input_value
            .as_deref()
            .filter(|input| suggest::is_respelling(input, suggestion))
            .map(|_| suggestion),
        _ => Some(suggestion),
    }
}

/// `name` or `name[i]`: the input and, for an array, the item.
fn target(field: &str) -> Option<(&str, Option<usize>)> {
    match field.split_once('[') {
        None if !field.is_empty() && !field.contains('.') => Some((field, None)),
        None => None,
        Some((name, rest)) => {
            let index = rest.strip_suffix(']')?.parse().ok()?;
            Some((name, Some(index)))
        }
    }
}

fn is_boolean(declaration: &Declaration, name: &str) -> bool {
    match &declaration.inputs {
        Inputs::Parameters(_) => declaration
            .parameter(name)
            .is_some_and(|parameter| parameter.kind == ParamType::Boolean),
        Inputs::InputSchema(schema) => schema
            .guarded(name)
            .is_some_and(|property| property.primary_type == "boolean"),
    }
}

/// The tokens with each corrected value in place. Mirrors how Phase 1
/// reads flags; anything it cannot place (a stray word, a bare boolean)
/// means no correction.
fn corrected_flags(
    declaration: &Declaration,
    tokens: &[String],
    corrections: &[(&str, Option<usize>, &str)],
) -> Option<Vec<String>> {
    let declared = declaration.input_names();
    let names_an_input = |token: &str| {
        token
            .strip_prefix("--")
            .map(|rest| rest.split_once('=').map_or(rest, |(name, _)| name))
            .is_some_and(|name| declared.contains(&name))
    };
    // Where each occurrence's value sits: (name, token index, joined).
    let mut slots: Vec<(&str, usize, bool)> = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let flag = tokens[index].strip_prefix("--")?;
        let (name, joined) = match flag.split_once('=') {
            Some((name, _)) => (name, true),
            None => (flag, false),
        };
        if !declared.contains(&name) {
            return None;
        }
        if joined {
            slots.push((name, index, true));
            index += 1;
            continue;
        }
        match tokens.get(index + 1) {
            Some(next)
                if is_boolean(declaration, name) && !matches!(next.as_str(), "true" | "false") =>
            {
                index += 1;
            }
            Some(next) if !names_an_input(next) => {
                slots.push((name, index + 1, false));
                index += 2;
            }
            _ if is_boolean(declaration, name) => index += 1,
            _ => return None,
        }
    }
    let mut words = tokens.to_vec();
    for &(name, item, value) in corrections {
        let mut occurrences = slots.iter().filter(|(slot, _, _)| *slot == name);
        let &(_, at, joined) = match item {
            Some(item) => occurrences.nth(item)?,
            None => {
                let only = occurrences.next()?;
                if occurrences.next().is_some() {
                    return None;
                }
                only
            }
        };
        words[at] = if joined {
            format!("--{name}={value}")
        } else {
            value.to_owned()
        };
    }
    Some(words)
}

/// The JSON object with each corrected value in place.
fn corrected_object(
    declaration: &Declaration,
    mut object: serde_json::Map<String, Value>,
    corrections: &[(&str, Option<usize>, &str)],
) -> Option<serde_json::Map<String, Value>> {
    for &(name, item, value) in corrections {
        let slot = match item {
            Some(item) => object.get_mut(name)?.as_array_mut()?.get_mut(item)?,
            None => object.get_mut(name)?,
        };
        *slot = typed(declaration, name, slot, value);
    }
    Some(object)
}

/// The correction as the JSON value the input takes: a number or a
/// boolean where the input is one (a `"5"` sent for an integer becomes 5).
fn typed(declaration: &Declaration, name: &str, current: &Value, value: &str) -> Value {
    let scalar = || {
        serde_json::from_str::<Value>(value)
            .ok()
            .filter(|parsed| parsed.is_number() || parsed.is_boolean())
    };
    let wants_scalar = match &declaration.inputs {
        Inputs::Parameters(_) => declaration.parameter(name).is_some_and(|parameter| {
            matches!(
                parameter.kind,
                ParamType::Integer | ParamType::Number | ParamType::Boolean
            )
        }),
        Inputs::InputSchema(_) => current.is_number() || current.is_boolean(),
    };
    match wants_scalar.then(scalar).flatten() {
        Some(parsed) => parsed,
        None => Value::String(value.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use crate::contract::{Declaration, Origin};
    use crate::guard::{RawArguments, Rejection, ValidatedArguments, check};
    use crate::registry::parse_value;

    fn declaration(document: serde_json::Value) -> Declaration {
        let parsed = parse_value(&document, &Origin::default());
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        parsed.declaration.unwrap()
    }

    /// One parameter of every kind, all passed to the program.
    fn every_kind() -> Declaration {
        declaration(json!({
            "name": "probe", "description": "probe", "danger_level": "safe",
            "parameters": {
                "id": {"type": "string", "pattern_type": "alphanumeric_id"},
                "uuid": {"type": "string", "pattern_type": "uuid"},
                "version": {"type": "string", "pattern_type": "semver"},
                "link": {"type": "string", "pattern_type": "url"},
                "ticket": {"type": "string", "pattern": "^[A-Z]{2,8}-[0-9]{1,6}$"},
                "count": {"type": "integer"},
                "ratio": {"type": "number"},
                "dry": {"type": "boolean"},
                "env": {"type": "enum", "enum_values": ["dev", "prod"]},
                "tags": {"type": "array", "pattern_type": "alphanumeric_id"}
            },
            "subprocess": {"binary": "probe", "user_controlled_args":
                ["id", "uuid", "version", "link", "ticket", "count", "ratio", "dry", "env", "tags"]}
        }))
    }

    fn flags(declaration: &Declaration, words: &[&str]) -> Result<ValidatedArguments, Rejection> {
        let tokens: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
        check(declaration, &RawArguments::Flags(&tokens))
    }

    const UUID: &str = "123e4567-e89b-12d3-a456-426614174000";

    #[test]
    fn each_common_hallucination_gets_its_correction_and_a_fix() {
        let probe = every_kind();
        for (given, field, suggestion) in [
            ("--version= 1.2.3", "version", "1.2.3"),
            ("--version=v1.2.3", "version", "1.2.3"),
            ("--version='1.2.3'", "version", "1.2.3"),
            (
                "--uuid={123e4567-e89b-12d3-a456-426614174000}",
                "uuid",
                UUID,
            ),
            (
                "--uuid=urn:uuid:123e4567-e89b-12d3-a456-426614174000",
                "uuid",
                UUID,
            ),
            ("--uuid=123e4567e89b12d3a456426614174000", "uuid", UUID),
            ("--id=prod-east-1/", "id", "prod-east-1"),
            ("--id=\"prod-east-1\"", "id", "prod-east-1"),
            ("--id=prod-east-1.", "id", "prod-east-1"),
            (
                "--link=<https://example.com/a>",
                "link",
                "https://example.com/a",
            ),
            ("--ticket=ops-42", "ticket", "OPS-42"),
            ("--count=5.0", "count", "5"),
            ("--count= 5", "count", "5"),
            ("--ratio='2.5'", "ratio", "2.5"),
            ("--dry=True", "dry", "true"),
            ("--env=PROD", "env", "prod"),
            ("--tags=ok", "", ""),
        ] {
            let words = ["--tags", "a1", given];
            let result = flags(&probe, &words);
            if field.is_empty() {
                assert!(result.is_ok(), "{given}");
                continue;
            }
            let rejection = result.expect_err(given);
            let violation = &rejection.violations[0];
            assert_eq!(violation.field, field, "{given}");
            assert_eq!(violation.suggestion.as_deref(), Some(suggestion), "{given}");
            let fixed = rejection.fix.as_ref().expect(given);
            assert_eq!(fixed[..2], ["--tags", "a1"], "{given}");
            assert_eq!(fixed[2], format!("--{field}={suggestion}"), "{given}");
            let fixed: Vec<&str> = fixed.iter().map(String::as_str).collect();
            assert!(flags(&probe, &fixed).is_ok(), "{given}");
        }
    }

    #[test]
    fn separate_values_and_array_items_are_replaced_in_place() {
        let probe = every_kind();
        let rejection = flags(
            &probe,
            &[
                "--dry",
                "--tags",
                "ok",
                "--tags",
                "bad/",
                "--version",
                "v2.0.0",
            ],
        )
        .unwrap_err();
        assert_eq!(
            rejection.fix.unwrap(),
            [
                "--dry",
                "--tags",
                "ok",
                "--tags",
                "bad",
                "--version",
                "2.0.0"
            ]
        );
    }

    #[test]
    fn json_arguments_are_corrected_with_their_types() {
        let probe = every_kind();
        let text = r#"{"version": "v1.2.3", "count": "5", "dry": "true", "id": "a1"}"#;
        let rejection = check(&probe, &RawArguments::Json(text)).unwrap_err();
        assert_eq!(rejection.violations.len(), 3);
        let fixed = rejection.fix.unwrap();
        assert_eq!(
            fixed,
            [
                "--json",
                r#"{"version":"1.2.3","count":5,"dry":true,"id":"a1"}"#
            ]
        );
        assert!(check(&probe, &RawArguments::from_tail(&fixed)).is_ok());
    }

    #[test]
    fn guesses_missing_values_and_secrets_get_no_fix() {
        let probe = every_kind();
        // The closest enum value and the ID before a `?` are guesses.
        for words in [
            &["--env", "prd"][..],
            &["--id", "prod?x=1"][..],
            &["--version", "v1.2.3", "--count", "many"][..],
            &["--version", "v1.2.3", "--nope", "x"][..],
            &["stray", "--version", "v1.2.3"][..],
        ] {
            let rejection = flags(&probe, words).unwrap_err();
            assert_eq!(rejection.fix, None, "{words:?}");
        }
        let login = declaration(json!({
            "name": "login", "description": "log in", "danger_level": "mutating",
            "parameters": {
                "version": {"type": "string", "pattern_type": "semver"},
                "token": {"type": "string", "sensitive": true}
            },
            "subprocess": {"binary": "login", "user_controlled_args": ["version"],
                "env": {"TOKEN": {"param": "token"}}}
        }));
        let rejection = flags(&login, &["--version", "v1.2.3", "--token", "s3cret"]).unwrap_err();
        assert_eq!(rejection.fix, None);
        let body = serde_json::to_string(&rejection.to_error_body()).unwrap();
        assert!(
            !body.contains("fix_arguments") && !body.contains("s3cret"),
            "{body}"
        );
    }

    #[test]
    fn a_command_substitution_in_free_text_is_not_unwrapped() {
        let greet = declaration(json!({
            "name": "greet", "description": "greet", "danger_level": "safe",
            "parameters": {"who": {"type": "string"}, "id": {"type": "resource_id"}},
            "subprocess": {"binary": "echo", "user_controlled_args": ["who", "id"]}
        }));
        for words in [&["--who", "`touch FILE`"][..], &["--id", "`f-1`"][..]] {
            let rejection = flags(&greet, words).unwrap_err();
            assert_eq!(rejection.violations[0].suggestion, None, "{words:?}");
            assert_eq!(rejection.fix, None, "{words:?}");
        }
    }

    #[test]
    fn the_envelope_carries_the_corrected_words() {
        let rejection = flags(&every_kind(), &["--version", "v1.2.3"]).unwrap_err();
        let body = serde_json::to_value(rejection.to_error_body()).unwrap();
        assert_eq!(body["fix_arguments"], json!(["--version", "1.2.3"]));
        assert_eq!(body["suggestion"], "1.2.3");
    }

    /// A valid value of each kind, and a way a model mis-writes one.
    fn hallucinated() -> impl Strategy<Value = (&'static str, String)> {
        let valid = prop_oneof![
            Just(("id", "prod-east-1")),
            Just(("uuid", UUID)),
            Just(("version", "1.2.3-rc.1")),
            Just(("link", "https://example.com/a/b")),
            Just(("ticket", "OPS-42")),
            Just(("count", "42")),
            Just(("ratio", "2.5")),
            Just(("dry", "false")),
            Just(("env", "prod")),
            Just(("tags", "blue")),
        ];
        let wrappers = prop_oneof![
            Just(("", "")),
            Just((" ", "")),
            Just(("", " \t")),
            Just(("\"", "\"")),
            Just(("'", "'")),
            Just(("“", "”")),
            Just(("v", "")),
            Just(("{", "}")),
            Just(("urn:uuid:", "")),
            Just(("<", ">")),
            Just(("", "/")),
            Just(("", ".")),
            Just(("", ".0")),
            Just(("%2F", "")),
            Just(("", "\u{200B}")),
        ];
        (valid, wrappers, any::<bool>(), "[ -~]{0,3}").prop_map(
            |((field, value), (open, close), upper, noise)| {
                let value = if upper {
                    value.to_uppercase()
                } else {
                    value.to_owned()
                };
                let noise = if noise.contains(['-', '=']) {
                    String::new()
                } else {
                    noise
                };
                (field, format!("{open}{value}{close}{noise}"))
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Every suggestion passes the guard in place of the value it
        /// corrects, and every corrected call passes as a whole.
        #[test]
        fn a_suggestion_always_passes_the_guard(
            (field, value) in hallucinated(),
            other in any::<String>(),
            json in any::<bool>(),
        ) {
            let probe = every_kind();
            for value in [value.as_str(), other.as_str()] {
                let tokens = if json {
                    vec!["--json".to_owned(), json!({field: value}).to_string()]
                } else {
                    vec![format!("--{field}={value}")]
                };
                let Err(rejection) = check(&probe, &RawArguments::from_tail(&tokens)) else {
                    continue;
                };
                for violation in &rejection.violations {
                    if let Some(suggestion) = &violation.suggestion {
                        let name = violation.field.split('[').next().unwrap();
                        let fixed = vec![format!("--{name}={suggestion}")];
                        prop_assert!(
                            check(&probe, &RawArguments::from_tail(&fixed)).is_ok(),
                            "{value:?} -> {suggestion:?} ({:?})", violation.rule
                        );
                    }
                }
                if let Some(fixed) = &rejection.fix {
                    prop_assert!(check(&probe, &RawArguments::from_tail(fixed)).is_ok(), "{fixed:?}");
                }
            }
        }
    }
}
