//! The named hallucination rules, and which of them apply to which kind of
//! value (DESIGN.md §5). Each rule is a small predicate; [`check_string`]
//! runs the applicable ones on the raw and the normalized value.

use super::normalize::{self, Normalized};
use super::rule::Rule;
use super::suggest;
use super::syntax;
use super::violation::Violation;
use crate::contract::{AnchoredPattern, PatternType, RegexDialect, ValueClass};

/// Everything the rules need to know about one value.
#[derive(Debug, Clone, Copy)]
pub struct ValueProfile<'a> {
    pub class: ValueClass,
    /// A custom `pattern`; with a pattern type, the value must pass both.
    pub pattern: Option<&'a AnchoredPattern>,
    /// The dialect of a `regex` value (`rust` when `None`).
    pub regex_dialect: Option<RegexDialect>,
    /// Passed to the subprocess: shell metacharacters (except in text a
    /// program reads as data) and a leading dash are refused.
    pub user_controlled: bool,
    pub allow_leading_dash: bool,
    /// A path that must be relative (`relative_only`).
    pub relative_only: bool,
}

impl ValueProfile<'_> {
    /// A string with no pattern, not passed to a subprocess.
    pub fn plain() -> Self {
        Self {
            class: ValueClass::Plain,
            pattern: None,
            regex_dialect: None,
            user_controlled: false,
            allow_leading_dash: false,
            relative_only: false,
        }
    }

    /// Whether the value is text that its program reads as data
    /// (`free_text`, `regex`), where shell metacharacters are allowed.
    pub fn is_text(&self) -> bool {
        matches!(self.class, ValueClass::Typed(pattern_type) if pattern_type.is_text())
    }
}

/// What the placeholder rule looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceholderScope {
    /// The value stands for a missing one: a word such as `null` or
    /// `undefined` ([`MISSING_WORDS`]), or a template and nothing else
    /// (`{{name}}`, `${NAME}`, `<name>`). For plain strings, patterned
    /// strings and text, which may mention a template (`use ${HOME}`) and
    /// search for a to-do word (`grep TODO`).
    Missing,
    /// Also a to-do word as the whole value ([`TODO_WORDS`]: `TODO`,
    /// `changeme`, ...) and a template anywhere in the value
    /// (`prod-<region>`): identifiers, paths and URLs never hold one.
    Anywhere,
}

/// Which rules a class gets, besides the user-controlled ones.
struct RuleSet {
    path_traversal: bool,
    id_characters: bool,
    strict_controls: bool,
    placeholder: PlaceholderScope,
    empty: bool,
    shell: bool,
    /// Text the program reads as data: never the shell rule.
    text: bool,
}

fn rule_set(class: ValueClass) -> RuleSet {
    let plain = RuleSet {
        path_traversal: false,
        id_characters: false,
        strict_controls: false,
        placeholder: PlaceholderScope::Missing,
        empty: false,
        shell: false,
        text: false,
    };
    let identifier = RuleSet {
        path_traversal: true,
        id_characters: true,
        strict_controls: true,
        placeholder: PlaceholderScope::Anywhere,
        empty: true,
        shell: false,
        text: false,
    };
    match class {
        ValueClass::Plain => plain,
        ValueClass::Patterned => RuleSet {
            strict_controls: true,
            ..plain
        },
        ValueClass::ResourceId => RuleSet {
            shell: true,
            ..identifier
        },
        ValueClass::Typed(
            PatternType::AlphanumericId | PatternType::Uuid | PatternType::Semver,
        ) => identifier,
        ValueClass::Typed(PatternType::Filepath | PatternType::Url) => RuleSet {
            id_characters: false,
            ..identifier
        },
        ValueClass::Typed(PatternType::FreeText) => RuleSet {
            text: true,
            ..plain
        },
        ValueClass::Typed(PatternType::Regex) => RuleSet {
            text: true,
            strict_controls: true,
            ..plain
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
                input_value: Some(super::violation::quoted(value)),
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
    // Text is data to its program, which never decodes `%0A` into a
    // newline: only the value as given is checked.
    let forms = if rules.text {
        vec![(value.to_owned(), false)]
    } else {
        forms(value, &normalized, &rules)
    };

    if rules.empty && value.is_empty() {
        found.add(Rule::EmptyValue, "is empty".to_owned(), None);
    }
    if rules.path_traversal && url_mode {
        url_path_findings(value, &mut found);
    }
    for (form, decoded) in &forms {
        form_findings(form, *decoded, value, &rules, profile, &mut found);
    }
    // Shell metacharacters are looked for literally and percent-decoded,
    // not after NFKC: no shell reads the fullwidth `（` or `；` of Japanese
    // text as `(` or `;`.
    if (rules.shell || profile.user_controlled) && !rules.text {
        shell_findings(value, url_mode, &mut found);
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
    let correction = || correction(value, profile, with_suggestions);
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
        && !named_hit
        && let Some(why) = syntax::syntax_error(pattern_type, profile.regex_dialect, value)
    {
        found.add(Rule::for_pattern_type(pattern_type), why, correction());
    }
    if let Some(pattern) = profile.pattern
        && !pattern.is_match(value)
        && !named_hit
    {
        found.add(
            Rule::Pattern,
            format!("does not match {}", shown_pattern(pattern)),
            correction(),
        );
    }
    let mut items = found.items;
    // Report in the rules' own order, whichever form found them first.
    items.sort_by_key(|(rule, _, _)| *rule);
    items
}

/// The `..` segments of a URL's path, as given and decoded. The path is
/// split off the raw value first, so that an encoded `?` or `#` cannot end
/// it early once decoded.
fn url_path_findings(value: &str, found: &mut Findings) {
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

/// The checks made on each form of the value (as given, and decoded):
/// `decoded` says which, for the message.
fn form_findings(
    form: &str,
    decoded: bool,
    value: &str,
    rules: &RuleSet,
    profile: &ValueProfile<'_>,
    found: &mut Findings,
) {
    let note = if decoded { " after decoding" } else { "" };
    let url_mode = profile.class == ValueClass::Typed(PatternType::Url);
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
        let prefix = |at: usize| (!decoded && at > 0).then(|| form[..at].to_owned());
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
    let placeholder = match rules.placeholder {
        PlaceholderScope::Missing => is_whole_placeholder(form, MISSING_WORDS),
        PlaceholderScope::Anywhere => is_placeholder(form),
    };
    if placeholder {
        found.add(
            Rule::PlaceholderLiteral,
            format!("is a placeholder, not a real value{note}"),
            None,
        );
    }
    if profile.relative_only && is_absolute_path(form) {
        found.add(
            Rule::AbsolutePath,
            format!("is an absolute path{note}; the declaration allows only a path relative to the directory the command runs in"),
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

/// A shell metacharacter in the value as given or percent-decoded.
fn shell_findings(value: &str, url_mode: bool, found: &mut Findings) {
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

/// The first re-spelling of the value that passes every check. Case is
/// changed only to fit a declared pattern, where the other case can
/// never pass. Plain strings and opaque IDs get none: without a syntax to
/// fit, `` `touch x` `` is a command substitution, not a quoted value.
fn correction(value: &str, profile: &ValueProfile<'_>, with_suggestions: bool) -> Option<String> {
    if !with_suggestions {
        return None;
    }
    let candidates = match profile.class {
        // Text has no syntax to fit: quotes around it may be meant.
        ValueClass::Typed(pattern_type) if pattern_type.is_text() => Vec::new(),
        ValueClass::Typed(pattern_type) => suggest::candidates(value, Some(pattern_type)),
        ValueClass::Patterned => suggest::candidates(value, None),
        ValueClass::ResourceId | ValueClass::Plain => Vec::new(),
    };
    candidates
        .into_iter()
        .find(|candidate| candidate != value && findings(candidate, profile, false).is_empty())
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

/// Longest pattern quoted in a message: past it (the catalog's sed and
/// awk languages run to kilobytes) the reader is sent to the declaration.
const MAX_SHOWN_PATTERN: usize = 200;

fn shown_pattern(pattern: &AnchoredPattern) -> String {
    let text = pattern.as_str();
    if text.len() <= MAX_SHOWN_PATTERN {
        text.to_owned()
    } else {
        format!(
            "the parameter's pattern ({} bytes; its description says what it admits)",
            text.len()
        )
    }
}

/// What a valid value looks like, for `expected`.
pub fn expected_for(profile: &ValueProfile<'_>) -> String {
    let mut text = match (profile.class, profile.pattern) {
        (ValueClass::Typed(pattern_type), Some(pattern)) => format!(
            "{}, matching {}",
            syntax::expected(pattern_type, profile.regex_dialect),
            shown_pattern(pattern)
        ),
        (_, Some(pattern)) => format!("a string matching {}", shown_pattern(pattern)),
        (ValueClass::Typed(pattern_type), None) => {
            syntax::expected(pattern_type, profile.regex_dialect)
        }
        (ValueClass::ResourceId, None) => "resource_id: a non-empty opaque identifier without '..' path segments, percent-escapes, '?', '&', '#', control characters, shell metacharacters or placeholders".to_owned(),
        (ValueClass::Plain | ValueClass::Patterned, None) => "a string".to_owned(),
    };
    let shell_covered = profile.class == ValueClass::ResourceId || profile.is_text();
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

/// A path that does not depend on the directory the command runs in: it
/// starts at a root (`/`, `\`), a drive (`C:`), or a home directory (`~`,
/// which a shell expands and which no relative path means).
pub fn is_absolute_path(value: &str) -> bool {
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some('/' | '\\' | '~'), _) => true,
        (Some(letter), Some(':')) => letter.is_ascii_alphabetic(),
        _ => false,
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
/// variation sequences in Japanese names need), and in every kind of value
/// the characters that render as nothing: the combining grapheme joiner,
/// the Hangul fillers, the Khmer inherent vowels and the blank Braille
/// pattern. Text (`strict` false: plain strings and `free_text`) keeps
/// tab, newline, CR, ZWNJ and ZWJ, which real text uses; everything else
/// (identifiers, paths, URLs, patterned strings, regular expressions)
/// refuses them too.
pub fn is_control(ch: char, strict: bool) -> bool {
    if !strict && matches!(ch, '\t' | '\n' | '\r' | '\u{200C}' | '\u{200D}') {
        return false;
    }
    if is_invisible(ch) {
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

/// A value that is, as a whole, a placeholder: one of `words`, or a
/// template with nothing around it (white space aside).
pub fn is_whole_placeholder(value: &str, words: &[&str]) -> bool {
    let trimmed = value.trim();
    if words.iter().any(|word| trimmed.eq_ignore_ascii_case(word)) {
        return true;
    }
    let wrapped = |open: &str, close: &str| {
        trimmed.len() >= open.len() + close.len()
            && trimmed.starts_with(open)
            && trimmed.ends_with(close)
    };
    // `{{.Name}}`, `{{json .Mounts}}`: a Go template (docker's and gh's
    // `--format`) names fields with a dot; a placeholder names none.
    (wrapped("{{", "}}") && !trimmed.contains('.'))
        || wrapped("${", "}")
        || (wrapped("<", ">") && looks_like_name(&trimmed[1..trimmed.len() - 1]))
}

/// What the guard refuses in a value of `profile`, as JSON Schema
/// patterns (ECMA-262, which the `regex` crate reads alike) that match a
/// refused value, each with what it catches; the export puts them under
/// `not`, so a model can avoid a rejection beforehand. What a pattern
/// cannot say (deeper encodings, escapes, characters beyond the BMP; see
/// docs/reference/guard-rules.md) stays the guard's alone.
pub fn schema_refusals(profile: &ValueProfile<'_>) -> Vec<(&'static str, String)> {
    let rules = rule_set(profile.class);
    let url_mode = profile.class == ValueClass::Typed(PatternType::Url);
    let mut refusals = Vec::new();
    // Controls, and (except in text) their one-layer percent-encoded form.
    let controls = if rules.strict_controls {
        format!("[\\x00-\\x1F{CONTROLS_BMP}\\u200C\\u200D]")
    } else {
        format!("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F{CONTROLS_BMP}]")
    };
    let encoded_controls = if rules.strict_controls {
        "%(?:[01][0-9A-Fa-f]|7[Ff])|%[Cc]2%[89][0-9A-Fa-f]"
    } else {
        "%(?:0[0-8BbCcEeFf]|1[0-9A-Fa-f]|7[Ff])|%[Cc]2%[89][0-9A-Fa-f]"
    };
    refusals.push((
        "a control or invisible character",
        if rules.text {
            controls
        } else {
            format!("{controls}|{encoded_controls}")
        },
    ));
    let listed: &[&str] = if rules.placeholder == PlaceholderScope::Missing {
        MISSING_WORDS
    } else {
        PLACEHOLDER_WORDS
    };
    let words = listed
        .iter()
        .map(|word| case_insensitive(word))
        .collect::<Vec<_>>()
        .join("|");
    let templates = "\\{\\{[\\s\\S]*\\}\\}|\\$\\{[\\s\\S]*\\}|<[A-Za-z_][A-Za-z0-9_ .-]*>";
    // A whole value: `{{x}}` without a dot (a Go template's `{{.Name}}`
    // is a real value).
    let whole_templates = "\\{\\{[^.]*\\}\\}|\\$\\{[\\s\\S]*\\}|<[A-Za-z_][A-Za-z0-9_ .-]*>";
    refusals.push((
        "a placeholder",
        match rules.placeholder {
            PlaceholderScope::Missing => {
                format!("^\\s*(?:{words}|{whole_templates})\\s*$")
            }
            PlaceholderScope::Anywhere => format!("^\\s*(?:{words})\\s*$|{templates}"),
        },
    ));
    if rules.path_traversal {
        let dots = format!("(?:{DOT}|{DOTS})*(?:{DOTS}|{DOT}{DOT})(?:{DOT}|{DOTS})*");
        refusals.push((
            "a '..' path segment",
            if url_mode {
                format!("^[^?#]*(?:{SEPARATOR}){dots}(?:{SEPARATOR}|[;?#]|%3[Bb]|%3[Ff]|%23|$)")
            } else {
                format!("(?:^|{SEPARATOR})(?:[A-Za-z][:\\uFF1A])?{dots}\\s*(?:{SEPARATOR}|$)")
            },
        ));
    }
    if rules.id_characters {
        refusals.push((
            "a percent-escape, a query ('?', '&') or a fragment ('#')",
            "[?&#]|%[0-9A-Fa-f]{2}|%[Uu][0-9A-Fa-f]{4}".to_owned(),
        ));
    }
    if (rules.shell || profile.user_controlled) && !rules.text {
        refusals.push((
            "a shell metacharacter",
            if url_mode {
                "[|<>`\\n\\r]|%(?:7[Cc]|3[Cc]|3[Ee]|60|0[AaDd])".to_owned()
            } else {
                "[;|&$()<>`\\n\\r]|%(?:3[Bb]|7[Cc]|26|24|28|29|3[Cc]|3[Ee]|60|0[AaDd])".to_owned()
            },
        ));
    }
    if profile.relative_only {
        refusals.push((
            "an absolute path (only a relative one is allowed)",
            "^(?:[/\\\\~\\uFF0F\\uFF3C\\uFF5E]|[A-Za-z][:\\uFF1A]|%2[Ff]|%5[Cc]|%7[Ee])".to_owned(),
        ));
    }
    if profile.user_controlled && !profile.allow_leading_dash {
        refusals.push((
            "a leading '-' (the program would read an option)",
            if rules.text {
                "^-".to_owned()
            } else {
                "^(?:-|%2[Dd]|\\uFF0D|\\uFE63)".to_owned()
            },
        ));
    }
    refusals
}

/// The control and invisible characters of the Basic Multilingual Plane
/// above U+001F, as a character-class body (see [`is_control`]).
const CONTROLS_BMP: &str = "\\x7F-\\x9F\\xAD\\u034F\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B\\u200E\\u200F\\u2028-\\u202E\\u2060-\\u206F\\u2800\\u3164\\uFEFF\\uFFA0\\uFFF0-\\uFFFB";
/// A dot, as given, percent-encoded once or fullwidth.
const DOT: &str = "(?:\\.|%2[Ee]|\\uFF0E)";
/// The leaders that fold to `..` and `...`.
const DOTS: &str = "[\\u2025\\u2026]";
/// The separators of [`SEPARATORS`], and `/` and `\\` percent-encoded once.
const SEPARATOR: &str = "[/\\\\\\u2215\\u2044\\u29F8\\uFF0F\\uFF3C\\u2216\\u29F9\\uFE68\\xA5\\u20A9\\uFFE5\\uFFE6]|%2[Ff]|%5[Cc]";

/// `null` as `[Nn][Uu][Ll][Ll]`: JSON Schema patterns have no flags.
fn case_insensitive(word: &str) -> String {
    word.chars()
        .map(|ch| match ch {
            ch if ch.is_ascii_alphabetic() => {
                format!("[{}{}]", ch.to_ascii_uppercase(), ch.to_ascii_lowercase())
            }
            '[' | ']' => format!("\\{ch}"),
            ch => ch.to_string(),
        })
        .collect()
}

/// Words that stand for a missing value: what a model writes for an
/// argument it does not have.
pub const MISSING_WORDS: &[&str] = &["null", "undefined", "none", "nan", "nil", "[object object]"];

/// Words a writer puts where a value is still to come; also real search
/// terms (`grep -rn TODO`), so text and plain strings may hold them.
pub const TODO_WORDS: &[&str] = &["todo", "tbd", "fixme", "changeme", "placeholder"];

/// Words that stand for a value rather than being one.
pub const PLACEHOLDER_WORDS: &[&str] = &[
    "null",
    "undefined",
    "none",
    "nan",
    "nil",
    "[object object]",
    "todo",
    "tbd",
    "fixme",
    "changeme",
    "placeholder",
];

/// Words and templates that stand for a value rather than being one.
pub fn is_placeholder(value: &str) -> bool {
    let trimmed = value.trim();
    if PLACEHOLDER_WORDS
        .iter()
        .any(|word| trimmed.eq_ignore_ascii_case(word))
    {
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
            ..ValueProfile::plain()
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
            ..ValueProfile::plain()
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
    fn the_placeholder_words_are_the_missing_and_the_to_do_ones() {
        let both: Vec<&str> = MISSING_WORDS.iter().chain(TODO_WORDS).copied().collect();
        assert_eq!(PLACEHOLDER_WORDS, both.as_slice());
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
        // A whole value: a Go template is one, a bare name in braces not.
        assert!(is_whole_placeholder("{{cluster}}", MISSING_WORDS));
        assert!(!is_whole_placeholder("{{.Names}}", MISSING_WORDS));
        assert!(!is_whole_placeholder("{{json .Mounts}}", MISSING_WORDS));
    }

    #[test]
    fn free_text_keeps_newlines_and_joiners_but_not_bidi() {
        let free = ValueProfile::plain();
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
