//! The named hallucination rules, and which of them apply to which kind of
//! value (DESIGN.md §5). Each rule is a small predicate; [`check_string`]
//! runs the applicable ones on the raw and the normalized value.

use super::normalize::{self, Normalized};
use super::rule::Rule;
use super::suggest;
use super::syntax;
use super::violation::Violation;
use crate::contract::{AnchoredPattern, PatternType, ValueClass};

/// Everything the rules need to know about one value.
#[derive(Debug, Clone, Copy)]
pub struct ValueProfile<'a> {
    pub class: ValueClass,
    pub pattern: Option<&'a AnchoredPattern>,
    /// Passed to the subprocess: shell metacharacters and a leading dash
    /// are refused.
    pub user_controlled: bool,
    pub allow_leading_dash: bool,
}

impl ValueProfile<'_> {
    pub fn free_text() -> Self {
        Self {
            class: ValueClass::FreeText,
            pattern: None,
            user_controlled: false,
            allow_leading_dash: false,
        }
    }
}

/// Which rules a class gets, besides the user-controlled ones.
struct RuleSet {
    path_traversal: bool,
    id_characters: bool,
    strict_controls: bool,
    placeholder: bool,
    empty: bool,
    shell: bool,
}

fn rule_set(class: ValueClass) -> RuleSet {
    let none = RuleSet {
        path_traversal: false,
        id_characters: false,
        strict_controls: false,
        placeholder: false,
        empty: false,
        shell: false,
    };
    match class {
        ValueClass::FreeText => none,
        ValueClass::Patterned => RuleSet {
            strict_controls: true,
            ..none
        },
        ValueClass::ResourceId => RuleSet {
            path_traversal: true,
            id_characters: true,
            strict_controls: true,
            placeholder: true,
            empty: true,
            shell: true,
        },
        ValueClass::Typed(
            PatternType::AlphanumericId | PatternType::Uuid | PatternType::Semver,
        ) => RuleSet {
            path_traversal: true,
            id_characters: true,
            strict_controls: true,
            placeholder: true,
            empty: true,
            shell: false,
        },
        ValueClass::Typed(PatternType::Filepath | PatternType::Url) => RuleSet {
            path_traversal: true,
            id_characters: false,
            strict_controls: true,
            placeholder: true,
            empty: true,
            shell: false,
        },
    }
}

/// Every violation of `value` under `profile`, named rules first. `field`
/// names the argument in each violation.
pub fn check_string(field: &str, value: &str, profile: &ValueProfile<'_>) -> Vec<Violation> {
    let expected = expected_for(profile);
    findings(value, profile, true)
        .into_iter()
        .map(|(rule, why, suggestion)| {
            let suggestion = suggestion.filter(|candidate| {
                candidate != value && findings(candidate, profile, false).is_empty()
            });
            Violation {
                field: field.to_owned(),
                rule,
                input_value: Some(value.to_owned()),
                expected: expected.clone(),
                message: format!("`{field}` {why}"),
                suggestion,
                sensitive: false,
            }
        })
        .collect()
}

/// Each broken rule with why and a candidate correction. A syntax or
/// pattern failure looks for a correction (see `suggest`) only when
/// `with_suggestions`, so that checking a candidate never looks for one
/// in turn.
fn findings(
    value: &str,
    profile: &ValueProfile<'_>,
    with_suggestions: bool,
) -> Vec<(Rule, String, Option<String>)> {
    let normalized = normalize::normalize(value);
    let mut found = Findings::default();
    let rules = rule_set(profile.class);
    let url_mode = profile.class == ValueClass::Typed(PatternType::Url);
    let forms = forms(value, &normalized, &rules);

    if rules.empty && value.is_empty() {
        found.add(Rule::EmptyValue, "is empty".to_owned(), None);
    }
    if rules.path_traversal && url_mode {
        // The path is split off the raw value first, so that an encoded
        // `?` or `#` cannot end it early once decoded.
        let path = url_path(value);
        let decoded = normalize::normalize(path).value;
        for (form, note) in [(path, ""), (decoded.as_str(), " after decoding")] {
            if has_url_path_traversal(form) {
                found.add(
                    Rule::PathTraversal,
                    format!("has a '..' path segment{note}"),
                    None,
                );
            }
        }
    }
    for (form, decoded) in &forms {
        let note = if *decoded { " after decoding" } else { "" };
        if rules.path_traversal && !url_mode && has_path_traversal(form) {
            found.add(
                Rule::PathTraversal,
                format!("has a '..' path segment{note}"),
                None,
            );
        }
        if rules.id_characters {
            if has_percent_escape(form) {
                found.add(
                    Rule::PercentEncoded,
                    "is percent-encoded; send the plain value".to_owned(),
                    Some(normalize::percent_decode(value)),
                );
            }
            // The part before the delimiter is the likely intended ID; only
            // offered from the raw form, where it is a prefix of the input.
            let prefix = |at: usize| (!*decoded && at > 0).then(|| form[..at].to_owned());
            if let Some(at) = form.find(['?', '&']) {
                found.add(
                    Rule::QueryParameter,
                    format!("has a query string ('?' or '&'){note}"),
                    prefix(at),
                );
            }
            if let Some(at) = form.find('#') {
                found.add(
                    Rule::FragmentIdentifier,
                    format!("has a fragment ('#'){note}"),
                    prefix(at),
                );
            }
        }
        if let Some(ch) = control_character(form, rules.strict_controls) {
            let stripped: String = value
                .chars()
                .filter(|ch| !is_control(*ch, rules.strict_controls))
                .collect();
            found.add(
                Rule::ControlCharacter,
                format!(
                    "contains the control or invisible character U+{:04X}{note}",
                    u32::from(ch)
                ),
                Some(stripped).filter(|stripped| stripped != value && !stripped.is_empty()),
            );
        }
        if rules.placeholder && is_placeholder(form) {
            found.add(
                Rule::PlaceholderLiteral,
                format!("is a placeholder, not a real value{note}"),
                None,
            );
        }
        if profile.user_controlled && !profile.allow_leading_dash && form.starts_with('-') {
            found.add(
                Rule::OptionInjection,
                format!("starts with '-'{note}, so the command would read it as an option"),
                None,
            );
        }
    }
    // Shell metacharacters are looked for literally and percent-decoded,
    // not after NFKC: no shell reads the fullwidth `（` or `；` of Japanese
    // text as `(` or `;`.
    if rules.shell || profile.user_controlled {
        let decoded = normalize::percent_decode(value);
        for (form, note) in [(value, ""), (decoded.as_str(), " after decoding")] {
            if let Some(ch) = shell_metacharacter(form, url_mode) {
                found.add(
                    Rule::ShellMetacharacter,
                    format!("contains the shell metacharacter {ch:?}{note}"),
                    None,
                );
            }
        }
    }
    if !normalized.settled && (rules.id_characters || rules.path_traversal) {
        found.add(
            Rule::PercentEncoded,
            format!(
                "is still changing after {} rounds of decoding",
                normalize::MAX_ROUNDS
            ),
            None,
        );
    }

    let named_hit = !found.items.is_empty();
    // The first re-spelling of the value that passes every check. Case is
    // changed only to fit a declared pattern, where the other case can
    // never pass. Free text and opaque IDs get none: without a syntax to
    // fit, `` `touch x` `` is a command substitution, not a quoted value.
    let correction = || {
        if !with_suggestions {
            return None;
        }
        let candidates = match profile.class {
            ValueClass::Typed(pattern_type) => suggest::candidates(value, Some(pattern_type)),
            ValueClass::Patterned => suggest::candidates(value, None),
            ValueClass::ResourceId | ValueClass::FreeText => Vec::new(),
        };
        candidates
            .into_iter()
            .find(|candidate| candidate != value && findings(candidate, profile, false).is_empty())
    };
    // A named rule broken only by what surrounds the value (`<…>`, quotes
    // or backticks around it) still has a correction.
    if named_hit {
        let mut fallback = None;
        for (_, _, suggestion) in &mut found.items {
            if suggestion.is_none() {
                *suggestion = fallback.get_or_insert_with(correction).clone();
            }
        }
    }
    if let ValueClass::Typed(pattern_type) = profile.class
        && let Some(why) = syntax::syntax_error(pattern_type, value)
        && !named_hit
    {
        found.add(Rule::for_pattern_type(pattern_type), why, correction());
    }
    if let Some(pattern) = profile.pattern
        && !pattern.is_match(value)
        && !named_hit
    {
        found.add(
            Rule::Pattern,
            format!("does not match {}", pattern.as_str()),
            correction(),
        );
    }
    let mut items = found.items;
    // Report in the rules' own order, whichever form found them first.
    items.sort_by_key(|(rule, _, _)| *rule);
    items
}

/// The raw value, then the normalized one when it differs, then the one
/// a `printf %b` or an HTML page would make of it. Backslash escapes are
/// decoded only for identifiers (a Windows path keeps `\\2024\\`); HTML
/// references wherever paths are checked.
fn forms(value: &str, normalized: &Normalized, rules: &RuleSet) -> Vec<(String, bool)> {
    let mut forms = vec![(value.to_owned(), false)];
    if normalized.value != value {
        forms.push((normalized.value.clone(), true));
    }
    if rules.path_traversal {
        let mut unescaped = normalize::html_decode_once(value);
        if rules.id_characters {
            unescaped = normalize::backslash_decode_once(&unescaped);
            unescaped = normalize::html_decode_once(&unescaped);
        }
        if unescaped != value {
            let unescaped = normalize::normalize(&unescaped).value;
            if forms.iter().all(|(form, _)| *form != unescaped) {
                forms.push((unescaped, true));
            }
        }
    }
    forms
}

/// What a valid value looks like, for `expected`.
pub fn expected_for(profile: &ValueProfile<'_>) -> String {
    if let Some(pattern) = profile.pattern {
        return format!("a string matching {}", pattern.as_str());
    }
    let mut text = match profile.class {
        ValueClass::Typed(pattern_type) => syntax::expected(pattern_type).to_owned(),
        ValueClass::ResourceId => "resource_id: a non-empty opaque identifier without '..' path segments, percent-escapes, '?', '&', '#', control characters, shell metacharacters or placeholders".to_owned(),
        ValueClass::FreeText | ValueClass::Patterned => "a string".to_owned(),
    };
    let shell_covered = profile.class == ValueClass::ResourceId;
    match (
        profile.user_controlled,
        profile.allow_leading_dash,
        shell_covered,
    ) {
        (false, _, _) => {}
        (true, true, true) => {}
        (true, false, true) => text.push_str("; no leading '-'"),
        (true, true, false) => text.push_str("; no shell metacharacters"),
        (true, false, false) => text.push_str("; no shell metacharacters and no leading '-'"),
    }
    text
}

#[derive(Default)]
struct Findings {
    items: Vec<(Rule, String, Option<String>)>,
}

impl Findings {
    /// Keeps the first finding of each rule (the raw form's, when both
    /// forms break it).
    fn add(&mut self, rule: Rule, why: String, suggestion: Option<String>) {
        if !self.items.iter().any(|(seen, _, _)| *seen == rule) {
            self.items.push((rule, why, suggestion));
        }
    }
}

/// Path separators, including the Unicode look-alikes that some file
/// systems or later normalization turn into real ones (`∕ ⁄ ⧸ ／` for `/`,
/// `＼ ∖ ⧹ ﹨` for `\\`), and `¥ ₩` (and their fullwidth forms), which
/// Windows best-fit code pages (Japanese, Korean) turn into `\\`.
const SEPARATORS: [char; 14] = [
    '/', '\\', '\u{2215}', '\u{2044}', '\u{29F8}', '\u{FF0F}', '\u{FF3C}', '\u{2216}', '\u{29F9}',
    '\u{FE68}', '\u{00A5}', '\u{20A9}', '\u{FFE5}', '\u{FFE6}',
];

/// A segment made only of two or more dots (`..`, and `...`/`....`, the
/// leftovers of naive `../` stripping).
pub fn has_path_traversal(value: &str) -> bool {
    value.split(SEPARATORS).any(is_dot_segment)
}

/// Windows reads `C:..` as `..` relative to drive C's current directory,
/// and drops trailing spaces from a name (`.. ` is `..`), so a drive prefix
/// and trailing white space (an ideographic space too) are ignored.
fn is_dot_segment(segment: &str) -> bool {
    let segment = strip_drive_prefix(segment).trim_end_matches(char::is_whitespace);
    segment.chars().count() >= 2 && segment.chars().all(|ch| ch == '.' || ch == '\u{FF0E}')
}

fn strip_drive_prefix(segment: &str) -> &str {
    let mut chars = segment.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), Some(':' | '\u{FF1A}')) if letter.is_ascii_alphabetic() => chars.as_str(),
        _ => segment,
    }
}

/// [`has_path_traversal`] for a URL path, where a segment may carry
/// parameters after `;` that servers strip (`/..;/` is `/../` to them),
/// and where, once decoded, a `?` or `#` ends the path for whoever parses
/// it again (`..%3F` is `..` then a query).
fn has_url_path_traversal(path: &str) -> bool {
    path.split(SEPARATORS)
        .any(|segment| is_dot_segment(segment.split([';', '?', '#']).next().unwrap_or(segment)))
}

/// The path of an http(s) URL as written, up to the first literal `?` or
/// `#`; all of the value when it is not a URL (the syntax check reports
/// that).
fn url_path(value: &str) -> &str {
    syntax::url_parts(value).map_or(value, |parts| parts.path)
}

fn has_percent_escape(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.iter().enumerate().any(|(index, byte)| {
        *byte == b'%'
            && (bytes
                .get(index + 1..index + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
                || (matches!(bytes.get(index + 1), Some(b'u' | b'U'))
                    && bytes
                        .get(index + 2..index + 6)
                        .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))))
    })
}

fn control_character(value: &str, strict: bool) -> Option<char> {
    value.chars().find(|ch| is_control(*ch, strict))
}

/// C0, DEL, C1, line and paragraph separators, the format characters
/// that hide or reorder text (zero-width, bidi controls, BOM, tags,
/// Mongolian selectors), the unassigned specials U+FFF0–FFF8 and plane 14
/// except its variation selectors (U+E0100–E01EF, which ideographic
/// variation sequences in Japanese names need). Free
/// text keeps tab, newline, CR, ZWNJ and ZWJ, which real text uses.
/// Everything else (identifiers, paths, URLs, patterned strings) also
/// refuses the characters that render as nothing: the combining grapheme
/// joiner, the Hangul fillers, the Khmer inherent vowels and the blank
/// Braille pattern.
pub fn is_control(ch: char, strict: bool) -> bool {
    if !strict && matches!(ch, '\t' | '\n' | '\r' | '\u{200C}' | '\u{200D}') {
        return false;
    }
    if strict && is_invisible(ch) {
        return true;
    }
    let code = u32::from(ch);
    matches!(code,
        0x00..=0x1F
        | 0x7F..=0x9F
        | 0xAD
        | 0x0600..=0x0605
        | 0x061C
        | 0x06DD
        | 0x070F
        | 0x0890..=0x0891
        | 0x08E2
        | 0x180B..=0x180F
        | 0x200B..=0x200F
        | 0x2028..=0x202E
        | 0x2060..=0x2064
        | 0x2065..=0x206F
        | 0xFEFF
        | 0xFFF0..=0xFFFB
        | 0x110BD
        | 0x110CD
        | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A
        | 0xE0000..=0xE00FF
        | 0xE01F0..=0xE0FFF)
}

/// Characters that are not format characters but show as nothing.
/// Variation selectors are not among them: emoji (`❤️`) and Japanese names
/// (ideographic variation sequences) need them.
fn is_invisible(ch: char) -> bool {
    matches!(
        u32::from(ch),
        0x034F | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x2800 | 0x3164 | 0xFFA0
    )
}

/// The characters a shell gives meaning to. In a URL, `& $ ( ) ;` are
/// RFC 3986 sub-delimiters and part of the syntax; the others are invalid in
/// a URL anyway.
fn shell_metacharacter(value: &str, url_mode: bool) -> Option<char> {
    value.chars().find(|ch| match ch {
        '|' | '<' | '>' | '`' | '\n' | '\r' => true,
        ';' | '&' | '$' | '(' | ')' => !url_mode,
        _ => false,
    })
}

/// Words and templates that stand for a value rather than being one.
pub fn is_placeholder(value: &str) -> bool {
    const WORDS: &[&str] = &[
        "null",
        "undefined",
        "none",
        "nan",
        "nil",
        "todo",
        "tbd",
        "fixme",
        "changeme",
        "placeholder",
        "[object object]",
    ];
    let trimmed = value.trim();
    if WORDS.iter().any(|word| trimmed.eq_ignore_ascii_case(word)) {
        return true;
    }
    has_template(trimmed, "{{", "}}")
        || has_template(trimmed, "${", "}")
        || has_angle_placeholder(trimmed)
}

fn has_template(value: &str, open: &str, close: &str) -> bool {
    value
        .find(open)
        .is_some_and(|start| value[start + open.len()..].contains(close))
}

/// `<name>`, `<cluster id>`: an angle-bracketed word, as in usage texts.
/// One pass: only the last `<` before a `>` can open a name (a name holds
/// no `<`), so each character is looked at a bounded number of times.
fn has_angle_placeholder(value: &str) -> bool {
    let mut open: Option<usize> = None;
    for (index, ch) in value.char_indices() {
        match ch {
            '<' => open = Some(index + 1),
            '>' => {
                if let Some(start) = open.take()
                    && looks_like_name(&value[start..index])
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

fn looks_like_name(inner: &str) -> bool {
    inner
        .chars()
        .next()
        .is_some_and(|ch| ch.is_alphabetic() || ch == '_')
        && inner
            .chars()
            .all(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '-' | ' ' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_of(value: &str, profile: &ValueProfile<'_>) -> Vec<&'static str> {
        check_string("x", value, profile)
            .iter()
            .map(|violation| violation.rule.as_str())
            .collect()
    }

    fn typed(pattern_type: PatternType) -> ValueProfile<'static> {
        ValueProfile {
            class: ValueClass::Typed(pattern_type),
            ..ValueProfile::free_text()
        }
    }

    #[test]
    fn traversal_segments() {
        for hit in [
            "..",
            "../x",
            "a/../b",
            "a\\..\\b",
            "....//x",
            "a/...",
            "a∕..∕b",
            "a⁄..",
            "..⧸x",
            "..／x",
            "..＼x",
        ] {
            assert!(has_path_traversal(hit), "{hit}");
        }
        for miss in ["a..b", "file..txt", "./x", ".hidden", "a/.b", "v1.2.3"] {
            assert!(!has_path_traversal(miss), "{miss}");
        }
    }

    fn resource_id() -> ValueProfile<'static> {
        ValueProfile {
            class: ValueClass::ResourceId,
            ..ValueProfile::free_text()
        }
    }

    #[test]
    fn windows_look_alikes_are_traversal() {
        for hit in [
            "..\u{00A5}x",
            "a\u{20A9}..\u{20A9}b",
            "..\u{FFE5}x",
            "C:..\\x",
            "c:../x",
            ".. /x",
            "..\u{3000}/x",
            "a/.. ",
        ] {
            for profile in [resource_id(), typed(PatternType::Filepath)] {
                assert!(
                    rules_of(hit, &profile).contains(&"path_traversal"),
                    "{hit:?}"
                );
            }
        }
        for pass in ["C:\\x\\y.txt", "yen\u{00A5}100", ". /x", "a..b/c"] {
            assert!(
                !rules_of(pass, &typed(PatternType::Filepath)).contains(&"path_traversal"),
                "{pass:?}"
            );
        }
    }

    #[test]
    fn escaped_dots_are_traversal() {
        for hit in ["\\056\\056/x", "\\x2e\\x2e/x", ".\\u002e/x", "&#46;&#46;/x"] {
            assert!(
                rules_of(hit, &resource_id()).contains(&"path_traversal"),
                "{hit:?}"
            );
        }
        for hit in ["&#46;&#46;/x", "&#x2e;&#x2e;&sol;x", "&period;&period;/x"] {
            assert!(
                rules_of(hit, &typed(PatternType::Filepath)).contains(&"path_traversal"),
                "{hit:?}"
            );
        }
        // A Windows path is not read as escapes.
        assert_eq!(
            rules_of("logs\\2024\\x.txt", &typed(PatternType::Filepath)),
            Vec::<&str>::new()
        );
    }

    #[test]
    fn invisible_code_points_are_controls() {
        for code in (0x180B..=0x180F)
            .chain([0x2065])
            .chain(0xFFF0..=0xFFF8)
            .chain((0xE0000..=0xE0FFF).filter(|code| !(0xE0100..=0xE01EF).contains(code)))
        {
            let ch = char::from_u32(code).unwrap();
            assert!(is_control(ch, true), "U+{code:04X}");
            assert!(is_control(ch, false), "U+{code:04X}");
        }
        // Ideographic variation selectors stay allowed.
        assert!(!is_control('\u{E0100}', false));
    }

    #[test]
    fn angle_placeholder_scan_is_linear() {
        // 200k `<` with no `>`, and `<a` repeated: both finish in one pass.
        assert!(!has_angle_placeholder(&"<".repeat(200_000)));
        assert!(has_angle_placeholder(&format!("{}>", "<a".repeat(100_000))));
        assert!(!has_angle_placeholder("a < b > c"));
        assert!(has_angle_placeholder("x <cluster id> y"));
    }

    #[test]
    fn placeholders() {
        for hit in [
            "null",
            "NULL",
            "undefined",
            "None",
            "NaN",
            "{{cluster}}",
            "${CLUSTER_ID}",
            "<cluster-id>",
            "prod-<region>",
            "[object Object]",
        ] {
            assert!(is_placeholder(hit), "{hit}");
        }
        for miss in [
            "nullable",
            "nonesuch",
            "a<b",
            "x > y",
            "{x}",
            "$HOME",
            "5 < 6 > 4",
        ] {
            assert!(!is_placeholder(miss), "{miss}");
        }
    }

    #[test]
    fn free_text_keeps_newlines_and_joiners_but_not_bidi() {
        let free = ValueProfile::free_text();
        assert!(rules_of("line one\nline two\tend", &free).is_empty());
        assert!(rules_of("family 👨\u{200D}👩\u{200D}👧", &free).is_empty());
        assert_eq!(rules_of("abc\u{202E}cba", &free), ["control_character"]);
        assert_eq!(rules_of("a\u{0}b", &free), ["control_character"]);
    }

    #[test]
    fn user_controlled_rules() {
        let profile = ValueProfile {
            user_controlled: true,
            ..typed(PatternType::Filepath)
        };
        assert_eq!(rules_of("-rf", &profile), ["option_injection"]);
        assert_eq!(rules_of("a;b", &profile), ["shell_metacharacter"]);
        assert_eq!(rules_of("a%3Bb", &profile), ["shell_metacharacter"]);
        assert_eq!(rules_of("%2d%2dall", &profile), ["option_injection"]);
        let allowed = ValueProfile {
            allow_leading_dash: true,
            ..profile
        };
        assert!(rules_of("-v", &allowed).is_empty());
    }

    #[test]
    fn url_sub_delimiters_are_not_shell_metacharacters() {
        let profile = ValueProfile {
            user_controlled: true,
            ..typed(PatternType::Url)
        };
        assert!(rules_of("https://example.com/a?x=1&y=$(z);w", &profile).is_empty());
        assert_eq!(
            rules_of("https://example.com/a|b", &profile),
            ["shell_metacharacter"]
        );
    }

    #[test]
    fn suggestions_are_offered_only_when_they_pass() {
        let profile = typed(PatternType::AlphanumericId);
        let violations = check_string("id", "prod%2Deast", &profile);
        assert_eq!(violations[0].rule, Rule::PercentEncoded);
        assert_eq!(violations[0].suggestion.as_deref(), Some("prod-east"));
        let violations = check_string("id", "prod?region=1", &profile);
        assert_eq!(violations[0].rule, Rule::QueryParameter);
        assert_eq!(violations[0].suggestion.as_deref(), Some("prod"));
        let violations = check_string("id", "%2e%2e", &profile);
        assert!(
            violations
                .iter()
                .all(|violation| violation.suggestion.is_none())
        );
    }

    #[test]
    fn syntax_is_reported_when_no_named_rule_explains_it() {
        let profile = typed(PatternType::AlphanumericId);
        assert_eq!(rules_of("a.b", &profile), ["alphanumeric_id"]);
        assert_eq!(rules_of("../a", &profile), ["path_traversal"]);
    }
}
