//! The skill rules of DESIGN.md §3, as pure functions from parsed
//! frontmatter (and body) to diagnostics. Nothing here touches the file
//! system; the caller supplies the directory name and checks link targets.

use std::sync::LazyLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;

use super::clients::{self, ClientKey, ClientProfile, ClientRule, KeyKind, KnownKeys};
use super::codes;
use super::frontmatter::{Entry, Frontmatter, YamlValue};
use crate::report::Diagnostic;
use crate::report::escape::{is_bidi_control, is_control};

pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;
pub const MAX_BODY_LINES: usize = 500;
pub const RESERVED_WORDS: &[&str] = &["anthropic", "claude"];

/// The keys the Agent Skills specification defines.
pub const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// A `--profile`: which client's view of a skill to take. One row of
/// [`clients::PROFILES`]; the default is `standard`.
#[derive(Debug, Clone, Copy)]
pub struct Profile(&'static ClientProfile);

impl PartialEq for Profile {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Profile {}

impl Default for Profile {
    fn default() -> Self {
        Self::STANDARD
    }
}

impl Profile {
    pub const STANDARD: Profile = Profile(&clients::PROFILES[0]);

    /// The profile with this `--profile` value.
    pub fn named(id: &str) -> Option<Profile> {
        clients::PROFILES
            .iter()
            .find(|profile| profile.id == id)
            .map(Profile)
    }

    /// Every profile, in table order.
    pub fn all() -> impl Iterator<Item = Profile> {
        clients::PROFILES.iter().map(Profile)
    }

    pub fn as_str(self) -> &'static str {
        self.0.id
    }

    pub fn client(self) -> &'static ClientProfile {
        self.0
    }

    /// The client rules that apply: the profile's own, or with
    /// `strictest` every client's.
    pub fn rules(self) -> Vec<ClientRule> {
        if !self.0.strictest {
            return self.0.rules.to_vec();
        }
        let mut rules: Vec<ClientRule> = clients::clients()
            .flat_map(|client| client.rules.iter().copied())
            .collect();
        rules.dedup();
        rules
    }

    /// The client's own keys (beyond the spec's) with their types.
    pub fn client_keys(self) -> &'static [ClientKey] {
        match self.0.keys {
            KnownKeys::SpecAnd(keys) => keys,
            KnownKeys::All => &[],
        }
    }

    pub fn knows(self, key: &str) -> bool {
        match self.0.keys {
            KnownKeys::All => true,
            KnownKeys::SpecAnd(extra) => {
                SPEC_KEYS.contains(&key) || extra.iter().any(|known| known.name == key)
            }
        }
    }

    /// The known key that an unknown one most likely meant: the same but
    /// for case and `_`/`-` (`allowed_tools`, `Description`), else one at
    /// most two edits away (`descripton`).
    ///
    /// Unknown keys recur from skill to skill (`version`, `author`), and
    /// comparing one with every known key costs about 14,000 instructions,
    /// so each thread remembers the answers for up to 1,024 keys.
    pub fn likely_key(self, key: &str) -> Option<&'static str> {
        const REMEMBERED: usize = 1024;
        type Answers = std::collections::HashMap<String, Option<&'static str>>;
        thread_local! {
            /// Each profile's answers, by the profile's id.
            static ANSWERS: std::cell::RefCell<std::collections::HashMap<&'static str, Answers>> =
                Default::default();
        }
        if key.len() > 64 {
            return self.likely_key_uncached(key);
        }
        ANSWERS.with_borrow_mut(|profiles| {
            let answers = profiles.entry(self.0.id).or_default();
            if let Some(answer) = answers.get(key) {
                return *answer;
            }
            let answer = self.likely_key_uncached(key);
            if answers.len() >= REMEMBERED {
                answers.clear();
            }
            answers.insert(key.to_owned(), answer);
            answer
        })
    }

    /// [`Self::likely_key`], worked out.
    fn likely_key_uncached(self, key: &str) -> Option<&'static str> {
        let KnownKeys::SpecAnd(extra) = self.0.keys else {
            return None;
        };
        // Keys are short; a long one is no typo of them.
        if key.chars().count() > 40 {
            return None;
        }
        let wanted = normal_key(key);
        let wanted_chars = wanted.chars().count();
        let candidates = SPEC_KEYS
            .iter()
            .copied()
            .chain(extra.iter().map(|known| known.name));
        if let Some(exact) = candidates.clone().find(|known| normal_key(known) == wanted) {
            return Some(exact);
        }
        candidates
            .map(|known| (normal_key(known), known))
            // Two texts whose lengths differ by more than two are more
            // than two edits apart: no distance to compute.
            .filter(|(normal, _)| normal.chars().count().abs_diff(wanted_chars) <= 2)
            .map(|(normal, known)| (edits_up_to_two(&normal, &wanted), known))
            .filter(|&(distance, known)| distance <= 2 && distance < known.len() / 2)
            .min_by_key(|&(distance, _)| distance)
            .map(|(_, known)| known)
    }
}

/// The Levenshtein distance between `a` and `b` when it is at most two,
/// else some number over two: all [`Profile::likely_key`] needs. For ASCII
/// texts (every known key, nearly every unknown one) the distance is
/// computed on the stack, row by row, and stops once a row is all over
/// two (a row's least cell never decreases); otherwise by
/// `strsim::levenshtein`, which allocates a row per call.
fn edits_up_to_two(a: &str, b: &str) -> usize {
    const MAX: usize = 64;
    if !a.is_ascii() || !b.is_ascii() || b.len() >= MAX {
        return strsim::levenshtein(a, b);
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > 2 {
        return 3;
    }
    // `row[j]`: the distance between the first `i` bytes of `a` and the
    // first `j` of `b`.
    let mut row = [0usize; MAX];
    for (j, cell) in row.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for (i, &from) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        let mut least = row[0];
        for (j, &to) in b.iter().enumerate() {
            let above = row[j + 1];
            let cell = (diagonal + usize::from(from != to))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
            row[j + 1] = cell;
            least = least.min(cell);
        }
        if least > 2 {
            return 3;
        }
    }
    row[b.len()]
}

/// A key as [`Profile::likely_key`] compares it: trimmed, lowercase, `-`
/// for `_`. Most keys are written so already, and are not copied.
fn normal_key(key: &str) -> std::borrow::Cow<'_, str> {
    if key
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return std::borrow::Cow::Borrowed(key);
    }
    std::borrow::Cow::Owned(key.trim().to_lowercase().replace('_', "-"))
}

/// What the frontmatter rules need besides the frontmatter.
#[derive(Debug, Clone, Copy)]
pub struct RuleContext<'a> {
    /// The name of the directory holding the skill file, if it has one.
    pub directory_name: Option<&'a str>,
    pub profile: Profile,
}

static XML_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<[a-zA-Z/][^>]*>").expect("valid tag regex"));

pub fn contains_xml_tag(text: &str) -> bool {
    first_xml_tag(text).is_some()
}

/// A quoted fragment, cut so a huge tag cannot flood the output.
fn truncate_for_message(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The first XML/HTML tag in `text`, quoted in messages so the author sees
/// what to remove.
pub fn first_xml_tag(text: &str) -> Option<&str> {
    // Cheap pre-check: most descriptions have no '<' at all.
    if !text.contains('<') {
        return None;
    }
    XML_TAG.find(text).map(|found| found.as_str())
}

/// Runs every frontmatter rule. Returns the skill's name when it is a
/// string, for reports.
pub fn check_frontmatter(
    frontmatter: &Frontmatter,
    context: RuleContext<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for duplicate in &frontmatter.duplicates {
        let first = duplicate
            .first_line
            .map(|line| format!(" (first at line {line})"))
            .unwrap_or_default();
        out.push(
            Diagnostic::new(
                codes::Code::DuplicateKey,
                format!("duplicate key '{}'{first}", duplicate.key),
            )
            .with_field(duplicate.key.clone())
            .with_line(duplicate.line),
        );
    }
    check_name(frontmatter.get("name"), context.directory_name, out);
    check_description(frontmatter.get("description"), out);
    check_compatibility(frontmatter.get("compatibility"), out);
    check_metadata(frontmatter.get("metadata"), out);
    check_allowed_tools(frontmatter.get("allowed-tools"), out);
    check_license(frontmatter.get("license"), out);
    check_unknown_keys(frontmatter, context.profile, out);
    check_client_keys(frontmatter, context.profile, out);
    for rule in context.profile.rules() {
        match rule {
            ClientRule::AsciiName => check_ascii_name(frontmatter.get("name"), out),
            ClientRule::ShortDescription => {
                check_short_description(frontmatter.get("metadata"), out)
            }
            // Needs the raw text: the caller checks it.
            ClientRule::StrictFences => {}
        }
    }
}

/// The clients that enforce `rule`, for messages ("OpenCode", "Gemini CLI").
pub fn enforced_by(rule: ClientRule) -> String {
    let names: Vec<&str> = clients::clients()
        .filter(|client| client.rules.contains(&rule))
        .map(|client| client.client)
        .collect();
    names.join(", ")
}

/// A client's own key with a value of another type than the client reads.
fn check_client_keys(frontmatter: &Frontmatter, profile: Profile, out: &mut Vec<Diagnostic>) {
    for known in profile.client_keys() {
        let Some(entry) = frontmatter.get(known.name) else {
            continue;
        };
        let fits = match known.kind {
            KeyKind::Text => entry.value.is_string(),
            KeyKind::Boolean => matches!(entry.value, YamlValue::Bool { .. }),
            KeyKind::Any => true,
        };
        if !fits {
            out.push(at(
                Diagnostic::new(
                    codes::Code::ClientKeyType,
                    format!(
                        "{} must be {} for {}, found {}",
                        known.name,
                        known.kind.as_str(),
                        profile.client().client,
                        entry.value.type_name()
                    ),
                ),
                known.name,
                Some(entry),
            ));
        }
    }
}

/// OpenCode's name pattern, `^[a-z0-9]+(-[a-z0-9]+)*$`, is ASCII only.
fn check_ascii_name(entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    let Some(YamlValue::String(name)) = entry.map(|entry| &entry.value) else {
        return;
    };
    if name.is_empty() || name.is_ascii() {
        return;
    }
    out.push(at(
        Diagnostic::new(
            codes::Code::NameNotAscii,
            format!(
                "name '{name}' has non-ASCII characters; {} documents names of a-z, 0-9 and '-' only",
                enforced_by(ClientRule::AsciiName)
            ),
        ),
        "name",
        entry,
    ));
}

/// The most characters Codex takes in `metadata.short-description`.
pub const MAX_SHORT_DESCRIPTION_CHARS: usize = 1024;

/// Codex reads `metadata.short-description` as a string and drops the
/// skill when it is another type or too long (whitespace runs folded).
fn check_short_description(entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    let Some(YamlValue::Mapping(map)) = entry.map(|entry| &entry.value) else {
        return;
    };
    let Some((_, value)) = map.iter().find(|(key, _)| key == "short-description") else {
        return;
    };
    let problem = match value {
        YamlValue::String(text) => {
            let length = text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .count();
            (length > MAX_SHORT_DESCRIPTION_CHARS).then(|| {
                format!("is {length} characters long; the limit is {MAX_SHORT_DESCRIPTION_CHARS}")
            })
        }
        other => Some(format!("must be a string, found {}", other.type_name())),
    };
    if let Some(problem) = problem {
        out.push(at(
            Diagnostic::new(
                codes::Code::ShortDescriptionInvalid,
                format!(
                    "metadata.short-description {problem}; {} does not load the skill",
                    enforced_by(ClientRule::ShortDescription)
                ),
            ),
            "metadata.short-description",
            entry,
        ));
    }
}

fn at(diagnostic: Diagnostic, field: &str, entry: Option<&Entry>) -> Diagnostic {
    diagnostic
        .with_field(field)
        .with_line(entry.and_then(|entry| entry.line))
}

pub fn nfkc(text: &str) -> String {
    if text.is_ascii() {
        return text.to_owned();
    }
    text.nfkc().collect()
}

/// A name character: ASCII lowercase letters and digits, `-`, and any
/// alphabetic character that lowercasing leaves unchanged (so CJK and
/// lowercase Cyrillic pass, while uppercase and titlecase letters fail).
fn is_name_char(c: char) -> bool {
    c.is_ascii_lowercase()
        || c.is_ascii_digit()
        || c == '-'
        || (!c.is_ascii() && c.is_alphabetic() && is_lowercase_invariant(c))
}

fn is_lowercase_invariant(c: char) -> bool {
    let mut lower = c.to_lowercase();
    lower.next() == Some(c) && lower.next().is_none()
}

/// A field that must be a string: its text (perhaps empty), or a
/// diagnostic saying it is missing or of another type.
fn string_entry<'a>(
    entry: Option<&'a Entry>,
    field: &str,
    code: codes::Code,
    out: &mut Vec<Diagnostic>,
) -> Option<&'a str> {
    let Some(found) = entry else {
        out.push(at(
            Diagnostic::new(code, format!("{field} is missing")),
            field,
            None,
        ));
        return None;
    };
    match &found.value {
        YamlValue::String(text) => Some(text),
        other => {
            out.push(at(
                Diagnostic::new(
                    code,
                    format!("{field} must be a string, found {}", other.type_name()),
                ),
                field,
                entry,
            ));
            None
        }
    }
}

/// Gives each value-level finding the line of its frontmatter entry.
fn located(found: Vec<Diagnostic>, entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    let line = entry.and_then(|entry| entry.line);
    out.extend(
        found
            .into_iter()
            .map(|diagnostic| diagnostic.with_line(line)),
    );
}

fn check_name(entry: Option<&Entry>, directory_name: Option<&str>, out: &mut Vec<Diagnostic>) {
    if let Some(raw) = string_entry(entry, "name", codes::Code::NameMissing, out) {
        located(name_problems(raw, directory_name), entry, out);
    }
}

/// Every rule a `name` value breaks (E002 empty, E003 to E008), as
/// `skill validate` reports them but without a line. `directory_name`
/// `None` skips the directory-match rule. `skill new` uses this to check a
/// name before anything is written.
pub fn name_problems(raw: &str, directory_name: Option<&str>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<Diagnostic>, code, message: String| {
        out.push(Diagnostic::new(code, message).with_field("name"));
    };
    if raw.trim().is_empty() {
        push(
            &mut out,
            codes::Code::NameMissing,
            "name is empty".to_owned(),
        );
        return out;
    }
    let name = nfkc(raw);

    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        push(
            &mut out,
            codes::Code::NameTooLong,
            format!("name is {length} characters long; the limit is {MAX_NAME_CHARS}"),
        );
    }

    if let Some(message) = character_problem(raw, &name) {
        push(&mut out, codes::Code::NameCharacters, message);
    }

    if name.starts_with('-') || name.ends_with('-') {
        push(
            &mut out,
            codes::Code::NameHyphens,
            format!("name '{raw}' must not start or end with '-'"),
        );
    }
    if name.contains("--") {
        push(
            &mut out,
            codes::Code::NameHyphens,
            format!("name '{raw}' must not contain '--'"),
        );
    }

    if let Some(word) = name
        .split('-')
        .map(str::to_lowercase)
        .find(|segment| RESERVED_WORDS.contains(&segment.as_str()))
    {
        push(
            &mut out,
            codes::Code::NameReserved,
            format!("name '{raw}' uses the reserved word '{word}'"),
        );
    }

    if let Some(tag) = first_xml_tag(&name) {
        push(
            &mut out,
            codes::Code::NameXmlTag,
            format!(
                "name '{raw}' contains the XML tag '{}'",
                truncate_for_message(tag)
            ),
        );
    }

    if let Some(directory) = directory_name
        && nfkc(directory) != name
    {
        push(
            &mut out,
            codes::Code::NameDirectoryMismatch,
            format!("name '{raw}' does not match the directory name '{directory}'"),
        );
    }
    out
}

/// How many distinct bad characters an `E003` message lists.
const LISTED_CHARACTERS: usize = 5;

/// The `E003` message for a name: uppercase letters, and the other
/// characters a name may not hold (each listed once), both in one message
/// so that one round of fixes is enough.
fn character_problem(raw: &str, name: &str) -> Option<String> {
    let is_uppercase = |c: char| c.is_alphabetic() && !is_lowercase_invariant(c);
    let uppercase = name.chars().any(is_uppercase);
    let mut seen = std::collections::HashSet::new();
    let mut listed = Vec::new();
    let mut more = false;
    for c in name
        .chars()
        .filter(|&c| !is_name_char(c) && !is_uppercase(c))
    {
        if seen.insert(c) {
            if listed.len() == LISTED_CHARACTERS {
                more = true;
                break;
            }
            listed.push(format!("{c:?}"));
        }
    }
    let others = match (listed.is_empty(), more) {
        (true, _) => None,
        (false, false) => Some(listed.join(", ")),
        (false, true) => Some(format!("{} and more", listed.join(", "))),
    };
    let allowed = "only lowercase letters, digits and '-' are allowed";
    match (uppercase, others) {
        (false, None) => None,
        (true, None) => Some(format!("name '{raw}' must be lowercase")),
        (false, Some(others)) => Some(format!("name '{raw}' contains {others}; {allowed}")),
        (true, Some(others)) => Some(format!(
            "name '{raw}' must be lowercase, and contains {others}; {allowed}"
        )),
    }
}

fn check_description(entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    if let Some(text) = string_entry(entry, "description", codes::Code::DescriptionMissing, out) {
        located(description_problems(text), entry, out);
    }
}

/// Every rule a `description` value breaks (E009 empty, E010, E011), as
/// `skill validate` reports them but without a line.
pub fn description_problems(description: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<Diagnostic>, code, message: String| {
        out.push(Diagnostic::new(code, message).with_field("description"));
    };
    if description.trim().is_empty() {
        push(
            &mut out,
            codes::Code::DescriptionMissing,
            "description is empty".to_owned(),
        );
        return out;
    }
    // Nearly every description is ASCII: its length is its bytes, and its
    // only forbidden characters are the ASCII controls (`Cc`).
    let ascii = description.is_ascii();
    let length = if ascii {
        description.len()
    } else {
        description.chars().count()
    };
    if length > MAX_DESCRIPTION_CHARS {
        push(
            &mut out,
            codes::Code::DescriptionTooLong,
            format!(
                "description is {length} characters long; the limit is {MAX_DESCRIPTION_CHARS}"
            ),
        );
    }
    if let Some(tag) = first_xml_tag(description) {
        push(
            &mut out,
            codes::Code::DescriptionXmlTag,
            format!(
                "description contains the XML tag '{}'",
                truncate_for_message(tag)
            ),
        );
    }
    let forbidden = if ascii {
        description
            .bytes()
            .find(|&byte| (byte < 0x20 && byte != b'\t' && byte != b'\n') || byte == 0x7F)
            .map(char::from)
    } else {
        description.chars().find(|&c| is_forbidden_in_text(c))
    };
    if let Some(c) = forbidden {
        push(
            &mut out,
            codes::Code::DescriptionControlCharacter,
            format!(
                "description contains the control character {c:?}; agents read it as it is (only tabs and line breaks are allowed)"
            ),
        );
    }
    out
}

/// A character no description should hold: a control character other
/// than a tab or a line feed (an escape sequence, a carriage return that
/// overwrites a line, a bell) or a bidirectional-text control, which can
/// make text read differently from what it says.
pub fn is_forbidden_in_text(c: char) -> bool {
    (is_control(c) && c != '\t' && c != '\n') || is_bidi_control(c)
}

fn check_compatibility(entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    let Some(found) = entry else { return };
    match &found.value {
        YamlValue::String(text) => located(compatibility_problems(text), entry, out),
        other => out.push(at(
            Diagnostic::new(
                codes::Code::CompatibilityNotString,
                format!(
                    "compatibility must be a string, found {}",
                    other.type_name()
                ),
            ),
            "compatibility",
            entry,
        )),
    }
}

/// Every rule a `compatibility` string breaks (E013), without a line.
pub fn compatibility_problems(text: &str) -> Vec<Diagnostic> {
    let length = text.chars().count();
    if length <= MAX_COMPATIBILITY_CHARS {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            codes::Code::CompatibilityTooLong,
            format!(
                "compatibility is {length} characters long; the limit is {MAX_COMPATIBILITY_CHARS}"
            ),
        )
        .with_field("compatibility"),
    ]
}

fn check_metadata(entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    let Some(found) = entry else { return };
    match &found.value {
        YamlValue::Mapping(map) => {
            for (key, value) in map {
                if !value.is_string() {
                    out.push(at(
                        Diagnostic::new(
                            codes::Code::MetadataValueNotString,
                            format!(
                                "metadata value '{key}' should be a string, found {}",
                                value.type_name()
                            ),
                        ),
                        &format!("metadata.{key}"),
                        entry,
                    ));
                }
            }
        }
        other => out.push(at(
            Diagnostic::new(
                codes::Code::MetadataNotMapping,
                format!("metadata must be a mapping, found {}", other.type_name()),
            ),
            "metadata",
            entry,
        )),
    }
}

fn check_allowed_tools(entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    let Some(found) = entry else { return };
    match &found.value {
        YamlValue::String(_) => {}
        YamlValue::List(items) if items.iter().all(YamlValue::is_string) => out.push(at(
            Diagnostic::new(
                codes::Code::AllowedToolsList,
                "allowed-tools is a list; the spec asks for a space-separated string",
            ),
            "allowed-tools",
            entry,
        )),
        other => out.push(at(
            Diagnostic::new(
                codes::Code::FieldNotString,
                format!(
                    "allowed-tools should be a space-separated string, found {}",
                    other.type_name()
                ),
            ),
            "allowed-tools",
            entry,
        )),
    }
}

fn check_license(entry: Option<&Entry>, out: &mut Vec<Diagnostic>) {
    let Some(found) = entry else { return };
    if !found.value.is_string() {
        out.push(at(
            Diagnostic::new(
                codes::Code::FieldNotString,
                format!(
                    "license should be a string, found {}",
                    found.value.type_name()
                ),
            ),
            "license",
            entry,
        ));
    }
}

fn check_unknown_keys(frontmatter: &Frontmatter, profile: Profile, out: &mut Vec<Diagnostic>) {
    for entry in &frontmatter.entries {
        if !profile.knows(&entry.key) {
            let readers: Vec<&ClientProfile> = clients::clients_knowing(&entry.key).collect();
            // A client's own key is no typo: say whose it is.
            let suggestion = match readers.len() {
                0 => match profile.likely_key(&entry.key) {
                    Some(known) => format!("; did you mean '{known}'?"),
                    None => String::new(),
                },
                count => format!(
                    "; {} {} it",
                    clients::describe_clients(readers.into_iter()),
                    if count == 1 { "reads" } else { "read" }
                ),
            };
            out.push(
                Diagnostic::new(
                    codes::Code::UnknownKey,
                    format!(
                        "unknown frontmatter key '{}' (profile {}){suggestion}",
                        entry.key,
                        profile.as_str()
                    ),
                )
                .with_field(entry.key.clone())
                .with_line(entry.line),
            );
        }
    }
}

/// Number of lines in the body. A final newline ends the last line rather
/// than starting an empty one.
pub fn body_line_count(body: &str) -> usize {
    if body.is_empty() {
        return 0;
    }
    let newlines = count_newlines(body.as_bytes());
    if body.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

/// Counts `\n` bytes with SIMD: this runs over every byte of every body.
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

pub fn check_body_length(body: &str, body_first_line: usize, out: &mut Vec<Diagnostic>) {
    let lines = body_line_count(body);
    if lines > MAX_BODY_LINES {
        out.push(
            Diagnostic::new(
                codes::Code::BodyTooLong,
                format!(
                    "body is {lines} lines long; keep it under {MAX_BODY_LINES} and move detail into referenced files"
                ),
            )
            .with_line(Some(body_first_line)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::frontmatter::{parse, split};

    proptest::proptest! {
        #[test]
        fn edits_up_to_two_is_levenshtein_up_to_two(
            a in "[a-e_-]{0,12}|[a-zé]{0,6}",
            b in "[a-e_-]{0,12}|[a-zé]{0,6}",
        ) {
            let exact = strsim::levenshtein(&a, &b);
            let bounded = edits_up_to_two(&a, &b);
            if exact <= 2 {
                proptest::prop_assert_eq!(bounded, exact);
            } else {
                proptest::prop_assert!(bounded > 2);
            }
        }
    }

    #[test]
    fn ascii_controls_are_found_as_every_character_is() {
        for byte in 0..0x80u8 {
            let c = char::from(byte);
            let ascii = format!("A description {c} here.");
            // The same text, not ASCII: the character-by-character path.
            let other = format!("{ascii} \u{e9}");
            let codes = |text: &str| -> Vec<&str> {
                description_problems(text).iter().map(|d| d.code).collect()
            };
            assert_eq!(codes(&ascii), codes(&other), "{c:?}");
            assert_eq!(
                codes(&ascii).contains(&codes::Code::DescriptionControlCharacter.id()),
                is_forbidden_in_text(c),
                "{c:?}"
            );
        }
    }

    #[test]
    fn likely_keys_are_found_by_case_separator_and_typo() {
        let standard = Profile::STANDARD;
        assert_eq!(standard.likely_key("Allowed_Tools"), Some("allowed-tools"));
        assert_eq!(standard.likely_key("descripton"), Some("description"));
        assert_eq!(standard.likely_key("licence"), Some("license"));
        assert_eq!(standard.likely_key("author"), None);
        assert_eq!(standard.likely_key("descriptionnnn"), None);
        let claude = Profile::named("claude-code").unwrap();
        assert_eq!(claude.likely_key("when-to-use"), Some("when_to_use"));
        assert_eq!(claude.likely_key("When_To_Use "), Some("when_to_use"));
        assert_eq!(claude.likely_key("when_to_uses"), Some("when_to_use"));
        // Remembered answers are each profile's own.
        assert_eq!(standard.likely_key("when-to-use"), None);
        assert_eq!(claude.likely_key("when-to-use"), Some("when_to_use"));
        assert_eq!(standard.likely_key("licence"), Some("license"));
    }

    fn diagnose_with(yaml: &str, directory: Option<&str>, profile: Profile) -> Vec<Diagnostic> {
        let text = format!("---\n{yaml}\n---\nbody\n");
        let frontmatter = parse(&split(&text).unwrap()).unwrap();
        let mut out = Vec::new();
        check_frontmatter(
            &frontmatter,
            RuleContext {
                directory_name: directory,
                profile,
            },
            &mut out,
        );
        out
    }

    fn profile(id: &str) -> Profile {
        Profile::named(id).unwrap()
    }

    fn codes_for(yaml: &str) -> Vec<&'static str> {
        diagnose_with(yaml, None, Profile::STANDARD)
            .iter()
            .map(|d| d.code)
            .collect()
    }

    fn named(name: &str) -> Vec<&'static str> {
        codes_for(&format!("name: {name}\ndescription: d"))
    }

    #[test]
    fn a_good_skill_has_no_findings() {
        assert!(codes_for("name: pdf-tools\ndescription: Reads PDFs.\nlicense: MIT").is_empty());
    }

    #[test]
    fn name_presence_and_type() {
        assert_eq!(codes_for("description: d"), [codes::Code::NameMissing]);
        assert_eq!(named("''"), [codes::Code::NameMissing]);
        assert_eq!(named("123"), [codes::Code::NameMissing]);
        assert_eq!(named("[a, b]"), [codes::Code::NameMissing]);
        assert_eq!(named("~"), [codes::Code::NameMissing]);
    }

    #[test]
    fn name_length_boundary() {
        assert!(named(&"a".repeat(64)).is_empty());
        assert_eq!(named(&"a".repeat(65)), [codes::Code::NameTooLong]);
        // NFKC first: the ligature "ﬀ" is two characters after folding.
        assert_eq!(
            named(&format!("{}ﬀ", "a".repeat(63))),
            [codes::Code::NameTooLong]
        );
        assert!(named(&format!("{}ﬀ", "a".repeat(62))).is_empty());
    }

    #[test]
    fn name_characters() {
        let diagnostics = diagnose_with("name: Bad\ndescription: d", None, Profile::STANDARD);
        assert_eq!(diagnostics[0].code, codes::Code::NameCharacters);
        assert_eq!(diagnostics[0].message, "name 'Bad' must be lowercase");
        assert_eq!(diagnostics[0].line, Some(2));
        assert_eq!(named("a_b"), [codes::Code::NameCharacters]);
        assert_eq!(named("a.b"), [codes::Code::NameCharacters]);
        assert_eq!(named("'a b'"), [codes::Code::NameCharacters]);
        assert!(named("v2-tools").is_empty());
    }

    #[test]
    fn name_characters_are_listed_once_with_the_case_problem() {
        let message = |yaml_name: &str| {
            diagnose_with(
                &format!("name: {yaml_name}\ndescription: d"),
                None,
                Profile::STANDARD,
            )
            .into_iter()
            .find(|d| d.code == codes::Code::NameCharacters)
            .map(|d| d.message)
            .unwrap()
        };
        assert_eq!(
            message("'<a></a>'"),
            "name '<a></a>' contains '<', '>', '/'; only lowercase letters, digits and '-' are allowed"
        );
        assert_eq!(
            message("Bad_Name"),
            "name 'Bad_Name' must be lowercase, and contains '_'; only lowercase letters, digits and '-' are allowed"
        );
        assert_eq!(
            message("'a.b_c d!e@f#g'"),
            "name 'a.b_c d!e@f#g' contains '.', '_', ' ', '!', '@' and more; only lowercase letters, digits and '-' are allowed"
        );
    }

    #[test]
    fn control_characters_in_a_description_are_errors() {
        assert_eq!(
            codes_for("name: a\ndescription: \"hi\\e[8m there\""),
            [codes::Code::DescriptionControlCharacter]
        );
        assert_eq!(
            codes_for("name: a\ndescription: \"abc\\u202Efed\""),
            [codes::Code::DescriptionControlCharacter]
        );
        assert_eq!(
            codes_for("name: a\ndescription: \"bell\\x07\\x7f\\x9b\""),
            [codes::Code::DescriptionControlCharacter]
        );
        assert!(codes_for("name: a\ndescription: \"tab\\there\\nand lines\"").is_empty());
        assert!(codes_for("name: a\ndescription: \"emoji 👨\\u200D👩\"").is_empty());
    }

    #[test]
    fn unknown_keys_suggest_the_likely_one() {
        let message = |key: &str, profile: Profile| {
            diagnose_with(&format!("name: a\ndescription: d\n{key}: x"), None, profile)
                .into_iter()
                .find(|d| d.code == codes::Code::UnknownKey)
                .map(|d| d.message)
        };
        assert_eq!(
            message("allowed_tools", Profile::STANDARD).unwrap(),
            "unknown frontmatter key 'allowed_tools' (profile standard); did you mean 'allowed-tools'?"
        );
        assert!(
            message("Description", Profile::STANDARD)
                .unwrap()
                .ends_with("did you mean 'description'?")
        );
        assert!(
            message("licence", Profile::STANDARD)
                .unwrap()
                .ends_with("did you mean 'license'?")
        );
        assert!(
            message("when-to-use", profile("claude-code"))
                .unwrap()
                .ends_with("did you mean 'when_to_use'?")
        );
        assert_eq!(
            message("model", Profile::STANDARD).unwrap(),
            "unknown frontmatter key 'model' (profile standard); Claude Code (--profile claude-code) reads it"
        );
        assert_eq!(
            message("disable-model-invocation", profile("opencode")).unwrap(),
            "unknown frontmatter key 'disable-model-invocation' (profile opencode); Claude Code (--profile claude-code), GitHub Copilot in VS Code (--profile copilot), Cursor (--profile cursor) read it"
        );
        assert_eq!(
            message("x-custom", Profile::STANDARD).unwrap(),
            "unknown frontmatter key 'x-custom' (profile standard)"
        );
    }

    #[test]
    fn name_i18n() {
        assert!(named("数据-工具").is_empty(), "CJK passes");
        assert!(named("инструмент").is_empty(), "lowercase Cyrillic passes");
        assert_eq!(named("Инструмент"), [codes::Code::NameCharacters]);
        assert!(
            named("ｐｄｆ").is_empty(),
            "fullwidth folds to ASCII under NFKC"
        );
        assert_eq!(
            named("ǅx"),
            [codes::Code::NameCharacters],
            "titlecase fails"
        );
    }

    #[test]
    fn name_hyphens() {
        assert_eq!(named("-a"), [codes::Code::NameHyphens]);
        assert_eq!(named("a-"), [codes::Code::NameHyphens]);
        assert_eq!(named("a--b"), [codes::Code::NameHyphens]);
        assert!(named("a-b-c").is_empty());
    }

    #[test]
    fn reserved_words_are_whole_segments() {
        assert_eq!(named("claude-tools"), [codes::Code::NameReserved]);
        assert_eq!(named("my-anthropic"), [codes::Code::NameReserved]);
        assert_eq!(named("claude"), [codes::Code::NameReserved]);
        assert!(named("claudette").is_empty());
        assert!(named("anthropics-fan").is_empty());
    }

    #[test]
    fn xml_tags() {
        assert_eq!(
            named("'<b>'"),
            [codes::Code::NameCharacters, codes::Code::NameXmlTag]
        );
        assert_eq!(
            codes_for("name: a\ndescription: Use <script> here"),
            [codes::Code::DescriptionXmlTag]
        );
        assert_eq!(
            codes_for("name: a\ndescription: ends </b> here"),
            [codes::Code::DescriptionXmlTag]
        );
        assert!(codes_for("name: a\ndescription: 'when a < b and c > d'").is_empty());
        assert!(codes_for("name: a\ndescription: '1 <2 and <= 3'").is_empty());
    }

    #[test]
    fn directory_name_must_match_after_nfkc() {
        let mismatch = diagnose_with("name: a\ndescription: d", Some("b"), Profile::STANDARD);
        assert_eq!(mismatch[0].code, codes::Code::NameDirectoryMismatch);
        assert!(
            diagnose_with(
                "name: pdf\ndescription: d",
                Some("ｐｄｆ"),
                Profile::STANDARD
            )
            .is_empty()
        );
        assert!(
            diagnose_with(
                "name: café\ndescription: d",
                Some("cafe\u{301}"),
                Profile::STANDARD
            )
            .is_empty()
        );
    }

    #[test]
    fn description_rules() {
        assert_eq!(codes_for("name: a"), [codes::Code::DescriptionMissing]);
        assert_eq!(
            codes_for("name: a\ndescription: '  '"),
            [codes::Code::DescriptionMissing]
        );
        assert_eq!(
            codes_for("name: a\ndescription: 5"),
            [codes::Code::DescriptionMissing]
        );
        let at_limit = format!("name: a\ndescription: {}", "d".repeat(1024));
        assert!(codes_for(&at_limit).is_empty());
        let over = format!("name: a\ndescription: {}", "d".repeat(1025));
        assert_eq!(codes_for(&over), [codes::Code::DescriptionTooLong]);
    }

    #[test]
    fn compatibility_rules() {
        let base = "name: a\ndescription: d\ncompatibility: ";
        assert!(codes_for(&format!("{base}{}", "c".repeat(500))).is_empty());
        assert_eq!(
            codes_for(&format!("{base}{}", "c".repeat(501))),
            [codes::Code::CompatibilityTooLong]
        );
        assert_eq!(
            codes_for(&format!("{base}[x]")),
            [codes::Code::CompatibilityNotString]
        );
        assert_eq!(
            codes_for(&format!("{base}3")),
            [codes::Code::CompatibilityNotString]
        );
    }

    #[test]
    fn metadata_rules() {
        let base = "name: a\ndescription: d\nmetadata:";
        assert!(codes_for(&format!("{base}\n  author: me")).is_empty());
        assert_eq!(
            codes_for(&format!("{base} text")),
            [codes::Code::MetadataNotMapping]
        );
        assert_eq!(
            codes_for(&format!("{base}\n  version: 1.0\n  ok: 'x'")),
            [codes::Code::MetadataValueNotString]
        );
    }

    #[test]
    fn allowed_tools_and_license() {
        let base = "name: a\ndescription: d\n";
        assert!(codes_for(&format!("{base}allowed-tools: Read Bash(git:*)")).is_empty());
        assert_eq!(
            codes_for(&format!("{base}allowed-tools: [Read, Write]")),
            [codes::Code::AllowedToolsList]
        );
        assert_eq!(
            codes_for(&format!("{base}allowed-tools: 3")),
            [codes::Code::FieldNotString]
        );
        assert_eq!(
            codes_for(&format!("{base}license: 2")),
            [codes::Code::FieldNotString]
        );
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let diagnostics =
            diagnose_with("name: a\ndescription: d\nname: b", None, Profile::STANDARD);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, codes::Code::DuplicateKey);
        assert_eq!(diagnostics[0].line, Some(4));
    }

    #[test]
    fn unknown_keys_follow_the_profile() {
        let yaml = "name: a\ndescription: d\nmodel: sonnet\nx-custom: 1";
        let standard: Vec<_> = diagnose_with(yaml, None, Profile::STANDARD)
            .into_iter()
            .map(|d| (d.code, d.field.unwrap()))
            .collect();
        assert_eq!(
            standard,
            [
                (codes::Code::UnknownKey.id(), "model".to_owned()),
                (codes::Code::UnknownKey.id(), "x-custom".to_owned())
            ]
        );
        assert_eq!(diagnose_with(yaml, None, profile("claude-code")).len(), 1);
        assert!(diagnose_with(yaml, None, profile("permissive")).is_empty());
        for key in [
            "disable-model-invocation",
            "argument-hint",
            "user-invocable",
            "model",
            "context",
        ] {
            assert!(profile("claude-code").knows(key), "{key}");
            assert!(!Profile::STANDARD.knows(key), "{key}");
        }
    }

    #[test]
    fn body_length_boundary() {
        let mut out = Vec::new();
        check_body_length(&"line\n".repeat(500), 5, &mut out);
        assert!(out.is_empty());
        check_body_length(&"line\n".repeat(501), 5, &mut out);
        assert_eq!(out[0].code, codes::Code::BodyTooLong);
        assert!(out[0].message.contains("501"));
        assert_eq!(body_line_count(""), 0);
        assert_eq!(body_line_count("a"), 1);
        assert_eq!(body_line_count("a\nb"), 2);
    }

    #[test]
    fn newline_counting_matches_the_naive_count() {
        let samples: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"\n".to_vec(),
            b"a\nb\n\n\ncdefghijklmnop\nq".to_vec(),
            (0u8..=255).cycle().take(1000).collect(),
            vec![b'\n'; 77],
            "é\n数\n\u{0a}x".as_bytes().to_vec(),
        ];
        for sample in samples {
            let naive = sample.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(count_newlines(&sample), naive, "{sample:?}");
        }
    }
}
