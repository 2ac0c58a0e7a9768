//! Strings a declared `pattern` accepts, made from the pattern itself, so
//! that a declaration whose pattern refuses every fixed sample word
//! (`^v[0-9]+$`, `^(dev|prod)$`, `^[A-Z]{3}$`) still gets example lines.
//!
//! The pattern is read by `regex-syntax` (the `regex` crate's own parser,
//! the dialect of `pattern`) and walked: a literal is itself, a class
//! gives a readable member (a lower-case letter, a digit … before the rest),
//! a repetition its least count (and one more), an alternation each branch,
//! a concatenation the product, bounded. Look-arounds (`^`, `$`, `\b`) are
//! not generated, so a candidate may not match: every one is checked
//! against the compiled pattern, and only matches are returned.

use regex_syntax::hir::{Class, Hir, HirKind};

/// The most candidates any part of the pattern contributes.
const WIDTH: usize = 4;

/// The longest candidate made (a `{5000}` is generated in full, a longer
/// minimum is not).
const MAX_LENGTH: usize = 4096;

/// Characters a class gives first, when it holds them: values that read
/// as words and pass Phase 1 (no shell or path characters) come first.
const PREFERRED: &str = "aexs1v0AEXpd_.-/:@+=,";

/// Up to `limit` strings the anchored Rust regex `pattern` accepts, the
/// most readable first. Empty when the pattern does not parse, or nothing
/// generated matches.
pub fn matching(pattern: &str, limit: usize) -> Vec<String> {
    let Ok(hir) = regex_syntax::ParserBuilder::new()
        .nest_limit(250)
        .build()
        .parse(pattern)
    else {
        return Vec::new();
    };
    let Ok(regex) = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .build()
    else {
        return Vec::new();
    };
    let mut found: Vec<String> = Vec::new();
    for candidate in generate(&hir) {
        if found.len() >= limit {
            break;
        }
        if regex.is_match(&candidate) && !found.contains(&candidate) {
            found.push(candidate);
        }
    }
    found
}

fn generate(hir: &Hir) -> Vec<String> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => vec![String::new()],
        HirKind::Literal(literal) => vec![String::from_utf8_lossy(&literal.0).into_owned()],
        HirKind::Class(class) => members(class).into_iter().map(String::from).collect(),
        HirKind::Capture(capture) => generate(&capture.sub),
        HirKind::Repetition(repetition) => {
            let parts = generate(&repetition.sub);
            let Ok(min) = usize::try_from(repetition.min) else {
                return Vec::new();
            };
            let max = repetition
                .max
                .and_then(|max| usize::try_from(max).ok())
                .unwrap_or(usize::MAX);
            let mut counts = vec![min];
            if min < max {
                counts.push(min + 1);
            }
            let mut out = Vec::new();
            if min == 0 {
                out.push(String::new());
            }
            for count in counts.into_iter().filter(|count| *count > 0) {
                for part in parts.iter().take(2) {
                    if part.len().saturating_mul(count) > MAX_LENGTH {
                        continue;
                    }
                    out.push(part.repeat(count));
                }
            }
            out
        }
        HirKind::Concat(parts) => {
            let mut combined = vec![String::new()];
            for part in parts {
                let options = generate(part);
                let mut next = Vec::new();
                for prefix in &combined {
                    for option in &options {
                        if next.len() >= WIDTH * WIDTH {
                            break;
                        }
                        if prefix.len() + option.len() <= MAX_LENGTH {
                            next.push(format!("{prefix}{option}"));
                        }
                    }
                }
                next.truncate(WIDTH * WIDTH);
                combined = next;
            }
            combined
        }
        HirKind::Alternation(branches) => {
            // The first option of each branch, then the second of each…
            let options: Vec<Vec<String>> = branches.iter().map(generate).collect();
            let mut out = Vec::new();
            for rank in 0..WIDTH {
                for branch in &options {
                    if let Some(option) = branch.get(rank) {
                        out.push(option.clone());
                    }
                }
            }
            out.truncate(WIDTH * WIDTH);
            out
        }
    }
}

/// A few members of a class: the preferred characters it holds, then the
/// first printable character of each of its ranges.
fn members(class: &Class) -> Vec<char> {
    let ranges: Vec<(char, char)> = match class {
        Class::Unicode(class) => class
            .ranges()
            .iter()
            .map(|range| (range.start(), range.end()))
            .collect(),
        Class::Bytes(class) => class
            .ranges()
            .iter()
            .filter(|range| range.start() < 0x80)
            .map(|range| (char::from(range.start()), char::from(range.end().min(0x7f))))
            .collect(),
    };
    let holds = |c: char| ranges.iter().any(|(start, end)| *start <= c && c <= *end);
    let mut chosen: Vec<char> = Vec::new();
    let readable = PREFERRED
        .chars()
        .chain('a'..='z')
        .chain('0'..='9')
        .chain('A'..='Z');
    for c in readable {
        if chosen.len() >= WIDTH {
            return chosen;
        }
        if holds(c) && !chosen.contains(&c) {
            chosen.push(c);
        }
    }
    for (start, end) in &ranges {
        if chosen.len() >= WIDTH {
            break;
        }
        let first = (u32::from(*start)..=u32::from(*end))
            .take(256)
            .filter_map(char::from_u32)
            .find(|c| !c.is_control() && !c.is_whitespace());
        if let Some(c) = first
            && !chosen.contains(&c)
        {
            chosen.push(c);
        }
    }
    // A class of blanks only (`\s`).
    if chosen.is_empty() && holds(' ') {
        chosen.push(' ');
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn readable_strings_for_the_patterns_fixed_samples_miss() {
        assert_eq!(matching("^v[0-9]+$", 1), ["v1"]);
        assert_eq!(matching("^(dev|prod)$", 2), ["dev", "prod"]);
        assert_eq!(matching("^[A-Z]{3}$", 1), ["AAA"]);
        assert_eq!(matching("^[a-z][a-z-]*\\.txt$", 1), ["a.txt"]);
        assert_eq!(
            matching(r"^(?i:select|with|table|values|explain)\b[^;]*;?\s*$", 1),
            ["select"]
        );
        assert_eq!(matching("^[A-Z]{2,8}-[0-9]{1,6}$", 1), ["AA-1"]);
    }

    #[test]
    fn nothing_for_a_pattern_that_does_not_parse_or_cannot_be_met() {
        assert!(matching("^(unclosed$", 3).is_empty());
        // A word boundary between two letters never holds.
        assert!(matching(r"^a\bb$", 3).is_empty());
    }

    #[test]
    fn long_minimums_are_bounded() {
        assert_eq!(matching("^x{100}$", 1), ["x".repeat(100)]);
        assert!(matching("^x{100000}$", 1).is_empty());
    }

    /// A pattern built from literals, classes, repetitions, alternations
    /// and groups, anchored.
    fn pattern() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            "[a-z0-9]{1,3}",
            Just("[A-Z]".to_owned()),
            Just("[^;/]".to_owned()),
            Just("\\d".to_owned()),
            Just("[._-]".to_owned()),
            Just("\\.".to_owned()),
        ];
        leaf.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 1..4).prop_map(|parts| parts.concat()),
                prop::collection::vec(inner.clone(), 2..4)
                    .prop_map(|parts| format!("({})", parts.join("|"))),
                (inner.clone(), 0u32..3, 0u32..3)
                    .prop_map(|(part, min, extra)| format!("(?:{part}){{{min},{}}}", min + extra)),
                inner.prop_map(|part| format!("(?:{part})?")),
            ]
        })
        .prop_map(|body| format!("^{body}$"))
    }

    proptest! {
        #[test]
        fn every_string_made_matches_and_some_string_is_made(pattern in pattern()) {
            let regex = regex::Regex::new(&pattern).unwrap();
            let made = matching(&pattern, 4);
            prop_assert!(!made.is_empty(), "nothing for {}", pattern);
            for text in made {
                prop_assert!(regex.is_match(&text), "{:?} does not match {}", text, pattern);
            }
        }
    }
}
