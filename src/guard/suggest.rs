//! What a rejected value most likely meant. Models mis-write values in a
//! few common ways (stray white space, quotes copied along, a `v` before a
//! version, braces or `urn:uuid:` around a UUID, a trailing slash or full
//! stop after an ID, the wrong case); each function here undoes them.
//!
//! Only candidates: a caller offers one only once it passes every check
//! the original failed (see `rules::check_string`), and never applies it.

use crate::contract::PatternType;

/// Quote pairs that a value is often wrapped in when copied from prose,
/// Markdown or a shell line.
const QUOTE_PAIRS: [(char, char); 6] = [
    ('"', '"'),
    ('\'', '\''),
    ('`', '`'),
    ('\u{201C}', '\u{201D}'),
    ('\u{2018}', '\u{2019}'),
    ('\u{00AB}', '\u{00BB}'),
];

/// The value without surrounding white space and without one pair of
/// surrounding quotes (and the white space inside them).
pub fn unwrapped(value: &str) -> String {
    let trimmed = value.trim();
    for (open, close) in QUOTE_PAIRS {
        if let Some(inner) = trimmed
            .strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
        {
            return inner.trim().to_owned();
        }
    }
    trimmed.to_owned()
}

/// Candidate corrections for a value of `pattern_type` (`None`: a
/// declared `pattern`), most faithful first, without duplicates or the
/// value itself.
pub fn candidates(value: &str, pattern_type: Option<PatternType>) -> Vec<String> {
    let base = unwrapped(value);
    let mut found = vec![base.clone()];
    match pattern_type {
        Some(PatternType::Semver) => found.extend(semver(&base)),
        Some(PatternType::Uuid) => found.extend(uuid(&base)),
        Some(PatternType::AlphanumericId) => found.extend(without_trailing_marks(&base)),
        Some(PatternType::Url) => found.extend(url(&base)),
        Some(PatternType::Filepath | PatternType::FreeText | PatternType::Regex) => {}
        None => {
            let trimmed = without_trailing_marks(&base).unwrap_or_else(|| base.clone());
            for form in [base.clone(), trimmed] {
                found.push(form.clone());
                found.push(form.to_ascii_uppercase());
                found.push(form.to_ascii_lowercase());
            }
            found.extend(semver(&base));
        }
    }
    let mut unique: Vec<String> = Vec::new();
    for candidate in found {
        if candidate != value && !candidate.is_empty() && !unique.contains(&candidate) {
            unique.push(candidate);
        }
    }
    unique
}

/// `v1.2.3`, `V1.2.3`, `=1.2.3` and `01.02.3` are `1.2.3`.
fn semver(value: &str) -> Option<String> {
    let bare = value
        .strip_prefix(['v', 'V', '='])
        .unwrap_or(value)
        .trim_start();
    // Leading zeros only in the three numeric parts, before any `-` or `+`.
    let core_end = bare.find(['-', '+']).unwrap_or(bare.len());
    let (core, rest) = bare.split_at(core_end);
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() != 3
        || !parts
            .iter()
            .all(|part| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit()))
    {
        return (bare != value).then(|| bare.to_owned());
    }
    let numbers: Vec<&str> = parts
        .iter()
        .map(|part| {
            let digits = part.trim_start_matches('0');
            if digits.is_empty() { "0" } else { digits }
        })
        .collect();
    Some(format!("{}{rest}", numbers.join(".")))
}

/// `{…}`, `(…)`, `urn:uuid:…` and the 32 hexadecimal digits without
/// hyphens are the canonical 8-4-4-4-12 form.
fn uuid(value: &str) -> Option<String> {
    let mut inner = value;
    for (open, close) in [('{', '}'), ('(', ')')] {
        if let Some(stripped) = inner
            .strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
        {
            inner = stripped;
        }
    }
    let inner = inner.trim();
    let inner = match inner.get(..9) {
        Some(prefix) if prefix.eq_ignore_ascii_case("urn:uuid:") => &inner[9..],
        _ => inner,
    };
    if inner.len() == 32 && inner.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Some(format!(
            "{}-{}-{}-{}-{}",
            &inner[..8],
            &inner[8..12],
            &inner[12..16],
            &inner[16..20],
            &inner[20..]
        ));
    }
    (inner != value).then(|| inner.to_owned())
}

/// An ID followed by a `/` or a sentence's full stop or comma.
fn without_trailing_marks(value: &str) -> Option<String> {
    let trimmed = value.trim_end_matches(['/', '.', ',']);
    (trimmed != value).then(|| trimmed.to_owned())
}

/// `<https://…>` (a Markdown autolink) and spaces, which a URL encodes as
/// `%20`.
fn url(value: &str) -> Vec<String> {
    let inner = value
        .strip_prefix('<')
        .and_then(|rest| rest.strip_suffix('>'))
        .unwrap_or(value)
        .trim();
    let mut found = vec![inner.to_owned()];
    if inner.contains(' ') {
        found.push(inner.replace(' ', "%20"));
    }
    found
}

/// The integer a text meant: `" 5 "`, `"5"` quoted, `5.0`, `1e3`.
pub fn integer(text: &str) -> Option<String> {
    let bare = unwrapped(text);
    if let Ok(integer) = bare.parse::<i64>()
        && integer.to_string() == bare
    {
        return Some(bare);
    }
    let value: f64 = bare.parse().ok()?;
    (value.is_finite() && value.fract() == 0.0 && value.abs() < 9.0e15)
        .then(|| format!("{}", value as i64))
}

/// The number a text meant: `" 2.5 "`, `"2.5"` quoted.
pub fn number(text: &str) -> Option<String> {
    let bare = unwrapped(text);
    super::number::Decimal::parse(&bare).ok().map(|_| bare)
}

/// `True`, `FALSE`, `"true"` are `true` and `false`.
pub fn boolean(text: &str) -> Option<&'static str> {
    let bare = unwrapped(text);
    if bare.eq_ignore_ascii_case("true") {
        Some("true")
    } else if bare.eq_ignore_ascii_case("false") {
        Some("false")
    } else {
        None
    }
}

/// The declared value that `text` is, written another way (case, white
/// space, quotes): an exact correction, unlike the closest spelling.
pub fn enum_value<'a>(text: &str, values: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let bare = unwrapped(text);
    let values: Vec<&'a str> = values.into_iter().collect();
    if let Some(exact) = values.iter().find(|value| **value == bare) {
        return Some(exact);
    }
    let mut matching = values
        .into_iter()
        .filter(|value| value.eq_ignore_ascii_case(&bare));
    let first = matching.next()?;
    // Two values that differ only in case: no single answer.
    matching.next().is_none().then_some(first)
}

/// Whether `suggestion` is `value` written another way rather than a
/// guess at another value: the same text once white space, quotes and
/// case are set aside.
pub fn is_respelling(value: &str, suggestion: &str) -> bool {
    unwrapped(value).eq_ignore_ascii_case(&unwrapped(suggestion))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(value: &str, pattern_type: Option<PatternType>, wanted: &str) -> bool {
        candidates(value, pattern_type).iter().any(|c| c == wanted)
    }

    #[test]
    fn white_space_and_quotes() {
        for value in [
            " 1.2.3",
            "1.2.3 ",
            "\"1.2.3\"",
            "'1.2.3'",
            "`1.2.3`",
            "“1.2.3”",
            "\t'1.2.3' \n",
        ] {
            assert_eq!(unwrapped(value), "1.2.3", "{value:?}");
        }
        // One pair only, and only a matching one.
        assert_eq!(unwrapped("\"a'"), "\"a'");
    }

    #[test]
    fn semver_forms() {
        for value in ["v1.2.3", "V1.2.3", "=1.2.3", "01.2.3", "1.02.03", " v1.2.3"] {
            assert!(has(value, Some(PatternType::Semver), "1.2.3"), "{value}");
        }
        assert!(has("v1.2.3-rc.1", Some(PatternType::Semver), "1.2.3-rc.1"));
    }

    #[test]
    fn uuid_forms() {
        let canonical = "123e4567-e89b-12d3-a456-426614174000";
        for value in [
            "{123e4567-e89b-12d3-a456-426614174000}",
            "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
            "URN:UUID:123e4567-e89b-12d3-a456-426614174000",
            "123e4567e89b12d3a456426614174000",
            "(123e4567-e89b-12d3-a456-426614174000)",
            " \"{123e4567-e89b-12d3-a456-426614174000}\" ",
        ] {
            assert!(has(value, Some(PatternType::Uuid), canonical), "{value}");
        }
    }

    #[test]
    fn id_url_and_pattern_forms() {
        assert!(has(
            "prod-east-1/",
            Some(PatternType::AlphanumericId),
            "prod-east-1"
        ));
        assert!(has(
            "prod-east-1.",
            Some(PatternType::AlphanumericId),
            "prod-east-1"
        ));
        assert!(has(
            "<https://example.com/a>",
            Some(PatternType::Url),
            "https://example.com/a"
        ));
        assert!(has(
            "https://example.com/a b",
            Some(PatternType::Url),
            "https://example.com/a%20b"
        ));
        assert!(has("ops-123", None, "OPS-123"));
        assert!(has("PROD/", None, "prod"));
    }

    #[test]
    fn scalars_and_enums() {
        assert_eq!(integer(" 5 ").as_deref(), Some("5"));
        assert_eq!(integer("\"5\"").as_deref(), Some("5"));
        assert_eq!(integer("5.0").as_deref(), Some("5"));
        assert_eq!(integer("5.5"), None);
        assert_eq!(number("'2.5'").as_deref(), Some("2.5"));
        assert_eq!(boolean("True"), Some("true"));
        assert_eq!(boolean("\"FALSE\""), Some("false"));
        assert_eq!(boolean("yes"), None);
        assert_eq!(enum_value("Prod ", ["dev", "prod"]), Some("prod"));
        assert_eq!(enum_value("prodd", ["dev", "prod"]), None);
        assert_eq!(enum_value(" a", ["A", "a"]), Some("a"));
        assert_eq!(enum_value("b", ["A", "a"]), None);
        assert!(is_respelling(" Prod", "prod"));
        assert!(!is_respelling("prodd", "prod"));
    }
}
