//! `skill fmt`: frontmatter in one canonical form.
//!
//! Canonical means: top-level keys in the spec's order (`name`,
//! `description`, `license`, `compatibility`, `allowed-tools`, `metadata`,
//! then the rest as found); a single-line string plain where YAML reads it
//! back unchanged, else double-quoted; the lines under a top-level key
//! indented by two spaces; no trailing whitespace; no blank lines between
//! keys. The body is left byte for byte.
//!
//! A serde round trip would lose the comments, so this is a line-level
//! rewrite guided by the parser's spans: each top-level key owns its lines
//! (and the comments just above it), blocks move as a whole, and each
//! change is one the parser's positions say is safe. The result is then
//! parsed again and every value compared with the original; a rewrite
//! that would change one is refused, never written.

use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;

use regex::Regex;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::report::escape::{is_bidi_control, is_control};
use crate::skill::frontmatter::{self, Entry, Frontmatter, KeyText, ParseError, SplitError};

/// The spec's keys, in the order `fmt` puts them.
pub const KEY_ORDER: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "allowed-tools",
    "metadata",
];

const BOM: &str = "\u{feff}";

/// Why a skill file cannot be formatted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("{0}")]
    Split(SplitError),
    #[error("{0}")]
    Yaml(ParseError),
    /// The frontmatter has a shape the line rewrite does not handle
    /// (a flow mapping, duplicate keys); it is left alone.
    #[error("cannot format: {0}")]
    Unsupported(String),
    /// Every rewrite tried would have changed a value.
    #[error("cannot format without changing a value (of '{key}'); left as it is")]
    WouldChangeValue { key: String },
}

/// `skill fmt`'s proposal for one skill file: [`format_text`], refused
/// (never written) if the result would have an error the file did not
/// have. Every value is kept, so that would be a bug; the check makes it
/// one that cannot reach a file.
pub fn format_proposal(
    text: &str,
    directory_name: Option<&str>,
) -> Result<super::Proposal, FormatError> {
    use crate::skill::check::{CheckContext, check_text};
    let formatted = format_text(text)?;
    let mut refused = None;
    if formatted != text {
        let errors = |text: &str| -> Vec<&'static str> {
            let context = CheckContext {
                directory_name,
                skip_unshown_counts: true,
                ..CheckContext::default()
            };
            let mut codes: Vec<&'static str> = check_text(text, context)
                .diagnostics
                .iter()
                .filter(|finding| finding.is_error())
                .map(|finding| finding.code)
                .collect();
            codes.sort_unstable();
            codes
        };
        let before = errors(text);
        let new: Vec<&str> = errors(&formatted)
            .into_iter()
            .filter(|code| !before.contains(code))
            .collect();
        if !new.is_empty() {
            refused = Some(format!(
                "formatting would add the error{} {}; nothing written",
                if new.len() == 1 { "" } else { "s" },
                new.join(", ")
            ));
        }
    }
    Ok(super::Proposal {
        text: formatted,
        refused,
        ..super::Proposal::default()
    })
}

/// A file's text in canonical form; the same text when it already is.
pub fn format_text(text: &str) -> Result<String, FormatError> {
    let (bom, text) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    };
    let document = frontmatter::split(text).map_err(FormatError::Split)?;
    let original = frontmatter::parse_as_written(&document).map_err(FormatError::Yaml)?;
    if let Some(duplicate) = original.duplicates.first() {
        return Err(FormatError::Unsupported(format!(
            "the key '{}' appears twice; remove one first",
            duplicate.key
        )));
    }
    let layout = Layout::read(document.yaml)?;
    let eol = if text.starts_with("---\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut last_failure = None;
    for style in [Style::Canonical, Style::Conservative] {
        let yaml = rewrite(document.yaml, &layout, style, eol);
        let candidate = format!("{bom}---{eol}{yaml}---{eol}{}", document.body);
        match same_values(&original, &candidate) {
            Ok(()) => return Ok(candidate),
            Err(key) => last_failure = Some(key),
        }
    }
    Err(FormatError::WouldChangeValue {
        key: last_failure.unwrap_or_default(),
    })
}

/// How much a rewrite changes: everything canonical, or (when that would
/// change a value) only the order and whitespace outside values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Canonical,
    Conservative,
}

/// `Ok` when `candidate` parses to the same entries as `original`, in any
/// top-level order; else the first key that differs.
fn same_values(original: &Frontmatter, candidate: &str) -> Result<(), String> {
    let text = candidate.strip_prefix(BOM).unwrap_or(candidate);
    let document = frontmatter::split(text).map_err(|_| String::new())?;
    let parsed = frontmatter::parse_as_written(&document).map_err(|_| String::new())?;
    if !parsed.duplicates.is_empty() || parsed.entries.len() != original.entries.len() {
        return Err(String::new());
    }
    let values: std::collections::HashMap<&str, &frontmatter::YamlValue> = parsed
        .entries
        .iter()
        .map(|entry| (entry.key.as_str(), &entry.value))
        .collect();
    for Entry { key, value, .. } in &original.entries {
        if values.get(key.as_str()) != Some(&value) {
            return Err(key.clone());
        }
    }
    Ok(())
}

/// Where things are in the frontmatter, from the parser: each top-level
/// key's line, and the byte span of every string scalar.
#[derive(Debug, Default)]
struct Layout {
    /// 0-based line of each top-level key, in file order, with its key.
    keys: Vec<(usize, String)>,
    /// Byte ranges (in the YAML) of string scalars that are values.
    strings: Vec<(usize, usize)>,
}

impl Layout {
    fn read(yaml: &str) -> Result<Layout, FormatError> {
        if yaml.trim().is_empty() {
            return Ok(Layout::default());
        }
        let top: Top =
            serde_saphyr::from_str_with_options(yaml, frontmatter::options()).map_err(|err| {
                FormatError::Unsupported(format!("cannot read the frontmatter: {err}"))
            })?;
        let Top(entries) = top;
        let mut layout = Layout::default();
        let lines: Vec<&str> = yaml.lines().collect();
        for (key, value) in entries {
            let line = usize::try_from(key.referenced.line()).unwrap_or(0);
            let line_text = line
                .checked_sub(1)
                .and_then(|index| lines.get(index).copied())
                .unwrap_or("");
            // A block mapping at the left margin, one key per line.
            if line == 0 || line_text.starts_with(['?', ' ', '{', '\t']) {
                return Err(FormatError::Unsupported(
                    "the frontmatter is not a block mapping at the left margin".to_owned(),
                ));
            }
            layout.keys.push((line - 1, key.value.0));
            collect_strings(&value, &mut layout.strings);
        }
        let mut lines_seen = HashSet::new();
        if !layout.keys.iter().all(|(line, _)| lines_seen.insert(*line)) {
            return Err(FormatError::Unsupported(
                "two top-level keys share a line".to_owned(),
            ));
        }
        layout.strings.sort_unstable();
        Ok(layout)
    }
}

/// One line of the frontmatter, with what the rewrite knows about it.
#[derive(Debug, Clone)]
struct Line<'a> {
    text: &'a str,
    /// Byte offset of the line in the YAML.
    start: usize,
    /// Inside a block scalar (`|`, `>`): content, kept exactly.
    literal: bool,
}

impl Line<'_> {
    fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    fn is_comment(&self) -> bool {
        self.text.trim_start().starts_with('#')
    }

    /// Blank or a comment, and not block-scalar content.
    fn is_decoration(&self) -> bool {
        !self.literal && (self.is_blank() || self.is_comment())
    }
}

fn split_lines(yaml: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for raw in yaml.split_inclusive('\n') {
        let text = raw.strip_suffix('\n').unwrap_or(raw);
        let text = text.strip_suffix('\r').unwrap_or(text);
        lines.push(Line {
            text,
            start,
            literal: false,
        });
        start += raw.len();
    }
    lines
}

/// A line that opens a block scalar: `key: |`, `- >-`, `key: &a |2`...
static BLOCK_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^( *)((?:- +)*)(?:(?:"[^"]*"|'[^']*'|[^\s#'"\-?][^#]*?|-[^\s#][^#]*?) *: +(?:- +)*)?(?:[&!][^\s]* +)*([|>])([0-9+-]{0,2}) *(?:#.*)?$"#,
    )
    .expect("valid block header regex")
});

/// Marks block-scalar content lines as literal. Returns whether a header
/// with an explicit indentation indicator (`|2`) was seen, since moving
/// such a block would change its value.
fn mark_literals(lines: &mut [Line<'_>]) -> HashSet<usize> {
    let mut explicit_indent = HashSet::new();
    let mut index = 0;
    while index < lines.len() {
        if lines[index].literal {
            index += 1;
            continue;
        }
        let Some(captures) = BLOCK_HEADER.captures(lines[index].text) else {
            index += 1;
            continue;
        };
        let indent = captures.get(1).map_or(0, |m| m.len());
        let dashes = captures.get(2).map_or("", |m| m.as_str());
        // Content must be indented past the node that owns the scalar.
        let parent = if dashes.is_empty() {
            indent
        } else {
            indent + dashes.trim_end().len() - 1
        };
        let indicators = captures.get(4).map_or("", |m| m.as_str());
        if indicators.chars().any(|c| c.is_ascii_digit()) {
            explicit_indent.insert(index);
        }
        let keep = indicators.contains('+');
        let mut last_content = index;
        let mut next = index + 1;
        while next < lines.len() {
            let line = &lines[next];
            if !line.is_blank() && indentation(line.text) <= parent {
                break;
            }
            if !line.is_blank() {
                last_content = next;
            }
            next += 1;
        }
        // Blank lines after the content belong to it only with `+`.
        let end = if keep { next } else { last_content + 1 };
        for line in &mut lines[index + 1..end] {
            line.literal = true;
        }
        index = end.max(index + 1);
    }
    explicit_indent
}

fn indentation(text: &str) -> usize {
    text.len() - text.trim_start_matches(' ').len()
}

/// One top-level key and its lines.
struct Block<'a> {
    key: String,
    /// Comments just above the key.
    leading: Vec<Line<'a>>,
    lines: Vec<Line<'a>>,
    /// Its lines may be moved sideways.
    can_shift: bool,
}

fn rewrite(yaml: &str, layout: &Layout, style: Style, eol: &str) -> String {
    let mut lines = split_lines(yaml);
    let explicit_indent = mark_literals(&mut lines);
    if layout.keys.is_empty() {
        // No keys: only comments (or nothing).
        let mut out = String::new();
        for line in lines.iter().filter(|line| !line.is_blank()) {
            out.push_str(line.text.trim_end());
            out.push_str(eol);
        }
        return out;
    }

    let first_key = layout.keys[0].0;
    let mut header: Vec<Line<'_>> = lines[..first_key].to_vec();
    let mut pending: Vec<Line<'_>> = Vec::new();
    // Comments above the first key, cut off from it by a blank line, are
    // the header of the whole block.
    if let Some(blank) = header.iter().rposition(Line::is_blank) {
        pending = header.split_off(blank + 1);
    } else {
        std::mem::swap(&mut header, &mut pending);
    }

    let mut blocks = Vec::with_capacity(layout.keys.len());
    for (position, (start, key)) in layout.keys.iter().enumerate() {
        let end = layout
            .keys
            .get(position + 1)
            .map_or(lines.len(), |(next, _)| *next);
        let mut own: Vec<Line<'_>> = lines[*start..end].to_vec();
        // Trailing comments and blank lines go with the next key.
        let mut tail = Vec::new();
        while own.len() > 1 && own.last().is_some_and(Line::is_decoration) {
            tail.push(own.pop().expect("checked"));
        }
        tail.reverse();
        let can_shift = !(*start..end).any(|index| explicit_indent.contains(&index));
        blocks.push(Block {
            key: key.clone(),
            leading: std::mem::take(&mut pending),
            lines: own,
            can_shift,
        });
        pending = tail;
    }
    let footer = pending;

    // Spec keys first, in spec order; the rest as found.
    let rank = |key: &str| {
        KEY_ORDER
            .iter()
            .position(|known| *known == key)
            .unwrap_or(KEY_ORDER.len())
    };
    blocks.sort_by_key(|block| rank(&block.key));

    let mut out = String::new();
    let push_comments = |out: &mut String, comments: &[Line<'_>]| {
        for line in comments.iter().filter(|line| line.is_comment()) {
            out.push_str(line.text.trim());
            out.push_str(eol);
        }
    };
    if header.iter().any(Line::is_comment) {
        push_comments(&mut out, &header);
        out.push_str(eol);
    }
    for block in &blocks {
        push_comments(&mut out, &block.leading);
        write_block(&mut out, yaml, layout, block, style, eol);
    }
    push_comments(&mut out, &footer);
    out
}

fn write_block(
    out: &mut String,
    yaml: &str,
    layout: &Layout,
    block: &Block<'_>,
    style: Style,
    eol: &str,
) {
    // The lines under the key start two spaces in.
    let nested_indent = block.lines[1..]
        .iter()
        .filter(|line| !line.literal && !line.is_blank() && !line.is_comment())
        .map(|line| indentation(line.text))
        .min();
    let shift: isize = match (style, nested_indent) {
        (Style::Canonical, Some(indent)) if block.can_shift => 2 - indent as isize,
        _ => 0,
    };
    for (position, line) in block.lines.iter().enumerate() {
        if line.literal {
            // Content of a block scalar: moved with its block, never
            // trimmed, since its spaces are part of the value.
            if !line.text.is_empty() {
                out.push_str(&shifted(line.text, shift));
            }
            out.push_str(eol);
            continue;
        }
        let text = if style == Style::Canonical {
            requote(line, yaml, layout)
        } else {
            line.text.to_owned()
        };
        let text = if position == 0 {
            text
        } else {
            shifted(&text, shift)
        };
        out.push_str(text.trim_end());
        out.push_str(eol);
    }
}

/// `text` moved `shift` columns (never past the margin).
fn shifted(text: &str, shift: isize) -> String {
    if shift == 0 || text.trim().is_empty() {
        return text.to_owned();
    }
    let indent = indentation(text) as isize;
    let wanted = usize::try_from((indent + shift).max(0)).unwrap_or(0);
    format!("{}{}", " ".repeat(wanted), text.trim_start_matches(' '))
}

/// The line with its single-line string value (after `key:` or `- `) in
/// canonical quoting.
fn requote(line: &Line<'_>, yaml: &str, layout: &Layout) -> String {
    let line_end = line.start + line.text.len();
    // Sorted by start: the first string starting on this line, if any.
    let first = layout
        .strings
        .partition_point(|(start, _)| *start < line.start);
    let found = layout
        .strings
        .get(first)
        .filter(|(start, end)| *end <= line_end && start < end);
    let Some(&(start, end)) = found else {
        return line.text.to_owned();
    };
    let before = &line.text[..start - line.start];
    let written = &yaml[start..end];
    let after = &line.text[end - line.start..];
    let lead = before.trim_end();
    // Only a value right after `key:` or `- `, with no tag or anchor.
    if !(lead.ends_with(':') || lead.ends_with('-')) || written.starts_with(['|', '>', '*']) {
        return line.text.to_owned();
    }
    let Some(value) = scalar_value(written) else {
        return line.text.to_owned();
    };
    format!("{lead} {}{after}", canonical_scalar(&value))
}

/// The string a single-line scalar as written stands for, where that is
/// plain to read: plain text, `'single'` or `"double"` with simple escapes.
fn scalar_value(written: &str) -> Option<String> {
    if let Some(inner) = written
        .strip_prefix('\'')
        .and_then(|rest| rest.strip_suffix('\''))
    {
        return Some(inner.replace("''", "'"));
    }
    if let Some(inner) = written
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    {
        return unescape_double(inner);
    }
    if written.starts_with(['\'', '"']) {
        return None;
    }
    Some(written.to_owned())
}

/// A double-quoted scalar's value; `None` for escapes this does not read
/// (the line is then left as written).
fn unescape_double(inner: &str) -> Option<String> {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '/' => out.push('/'),
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            'e' => out.push('\u{1b}'),
            ' ' => out.push(' '),
            'x' => out.push(hex_char(&mut chars, 2)?),
            'u' => out.push(hex_char(&mut chars, 4)?),
            'U' => out.push(hex_char(&mut chars, 8)?),
            _ => return None,
        }
    }
    Some(out)
}

fn hex_char(chars: &mut std::str::Chars<'_>, digits: usize) -> Option<char> {
    let text: String = chars.by_ref().take(digits).collect();
    if text.len() != digits {
        return None;
    }
    char::from_u32(u32::from_str_radix(&text, 16).ok()?)
}

/// A string as one canonical YAML scalar: plain when every YAML reader
/// (1.1 and 1.2) reads it back as the same string, else double-quoted.
pub fn canonical_scalar(value: &str) -> String {
    if is_plain_safe(value) {
        value.to_owned()
    } else {
        double_quoted(value)
    }
}

/// Whether `value` can be written plain in block context and read back as
/// the same string by YAML 1.1 and 1.2 readers alike. Deliberately
/// conservative: anything that could be a number, a boolean or null, or
/// that starts with an indicator, is quoted.
pub fn is_plain_safe(value: &str) -> bool {
    let Some(first) = value.chars().next() else {
        return false;
    };
    if value != value.trim() || value.chars().any(needs_escape) {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`.+~=<".contains(first) || first.is_ascii_digit() {
        return false;
    }
    if value.contains(": ") || value.contains(" #") || value.contains('\t') || value.ends_with(':')
    {
        return false;
    }
    const SPECIAL: &[&str] = &["null", "true", "false", "yes", "no", "on", "off", "y", "n"];
    !SPECIAL.contains(&value.to_ascii_lowercase().as_str())
}

/// Characters a plain or double-quoted scalar cannot hold as they are.
fn needs_escape(c: char) -> bool {
    is_control(c)
        || is_bidi_control(c)
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{85}')
}

/// `value` as a double-quoted YAML scalar.
pub fn double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => {
                let code = u32::from(c);
                if code <= 0xff {
                    out.push_str(&format!("\\x{code:02x}"));
                } else {
                    out.push_str(&format!("\\u{code:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The top-level mapping, each key with its position.
struct Top(Vec<(Spanned<KeyText>, Spanned<Node>)>);

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TopVisitor)
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML mapping")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<KeyText>>()? {
            entries.push((key, map.next_value::<Spanned<Node>>()?));
        }
        Ok(Top(entries))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Top, E> {
        Ok(Top(Vec::new()))
    }
}

/// A value, kept only as far as the rewrite needs: where its strings are.
enum Node {
    String,
    Other,
    List(Vec<Spanned<Node>>),
    Mapping(Vec<Spanned<Node>>),
}

/// The byte ranges of the string scalars in `node`, in file order.
fn collect_strings(node: &Spanned<Node>, out: &mut Vec<(usize, usize)>) {
    {
        match &node.value {
            Node::String => {
                // An alias is used where it is referenced, defined elsewhere.
                if node.referenced != node.defined {
                    return;
                }
                let span = node.referenced.span();
                let range = (|| {
                    let start = usize::try_from(span.byte_offset()?).ok()?;
                    let length = usize::try_from(span.byte_len()?).ok()?;
                    Some((start, start.checked_add(length)?))
                })();
                if let Some(range) = range {
                    out.push(range);
                }
            }
            Node::Other => {}
            Node::List(items) | Node::Mapping(items) => {
                for item in items {
                    collect_strings(item, out);
                }
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Node, E> {
        Ok(Node::String)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_i128<E: de::Error>(self, _: i128) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_u128<E: de::Error>(self, _: u128) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Other)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        Node::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(item);
        }
        Ok(Node::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut values = Vec::new();
        while map.next_key::<IgnoredAny>()?.is_some() {
            values.push(map.next_value::<Spanned<Node>>()?);
        }
        Ok(Node::Mapping(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        format_text(text).unwrap_or_else(|err| panic!("{err}: {text}"))
    }

    #[test]
    fn orders_keys_and_keeps_comments_and_body() {
        let text = "---\n# about the tool\nmetadata:\n    author: me   # who\nextra: 1\ndescription: 'It''s a tool'  \nname: \"my-tool\"\n---\n# Body  \n\n  kept as is \n";
        let formatted = fmt(text);
        assert_eq!(
            formatted,
            "---\nname: my-tool\ndescription: It's a tool\n# about the tool\nmetadata:\n  author: me   # who\nextra: 1\n---\n# Body  \n\n  kept as is \n"
        );
        assert_eq!(fmt(&formatted), formatted);
    }

    #[test]
    fn a_header_comment_stays_on_top() {
        let text = "---\n# Skill header\n\ndescription: d\nname: a\n---\nbody\n";
        assert_eq!(
            fmt(text),
            "---\n# Skill header\n\nname: a\ndescription: d\n---\nbody\n"
        );
    }

    #[test]
    fn values_that_need_quotes_keep_them() {
        let text = "---\nname: a\ndescription: \"Use when: reading\"\nlicense: '2.0'\nmetadata:\n  version: \"1.0\"\n  flag: 'yes'\n  tab: \"a\\tb\"\n---\n";
        assert_eq!(
            fmt(text),
            "---\nname: a\ndescription: \"Use when: reading\"\nlicense: \"2.0\"\nmetadata:\n  version: \"1.0\"\n  flag: \"yes\"\n  tab: \"a\\tb\"\n---\n"
        );
    }

    #[test]
    fn block_scalars_keep_their_spaces() {
        let text = "---\ndescription: |\n    line one   \n      indented  \n\nname: a\n---\n";
        let formatted = fmt(text);
        assert_eq!(
            formatted,
            "---\nname: a\ndescription: |\n    line one   \n      indented  \n---\n"
        );
        assert_eq!(fmt(&formatted), formatted);
    }

    #[test]
    fn explicit_indentation_is_not_moved() {
        let text = "---\nname: a\ndescription: |4\n        deep\n---\n";
        assert_eq!(fmt(text), text);
    }

    #[test]
    fn lists_move_under_their_key() {
        let text = "---\nname: a\ndescription: d\nallowed-tools:\n- Read   \n- Bash(git:*)\n---\n";
        assert_eq!(
            fmt(text),
            "---\nname: a\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git:*)\n---\n"
        );
    }

    #[test]
    fn crlf_and_bom_are_kept() {
        let text = "\u{feff}---\r\ndescription: d\r\nname: a\r\n---\r\nbody\r\n";
        assert_eq!(
            fmt(text),
            "\u{feff}---\r\nname: a\r\ndescription: d\r\n---\r\nbody\r\n"
        );
    }

    #[test]
    fn refuses_what_it_cannot_rewrite() {
        assert!(matches!(
            format_text("---\nname: a\nname: b\n---\n"),
            Err(FormatError::Unsupported(_))
        ));
        assert!(matches!(
            format_text("---\n{name: a, description: b}\n---\n"),
            Err(FormatError::Unsupported(_))
        ));
        assert!(matches!(
            format_text("---\nname: [a\n---\n"),
            Err(FormatError::Yaml(_))
        ));
        assert!(matches!(
            format_text("no frontmatter\n"),
            Err(FormatError::Split(_))
        ));
    }

    #[test]
    fn plain_only_where_every_reader_agrees() {
        for plain in ["my-skill", "It's a tool", "Use for PDFs, forms", "a:b"] {
            assert!(is_plain_safe(plain), "{plain}");
        }
        for quoted in [
            "", " a", "yes", "No", "1.0", "-x", "a: b", "a #b", "@x", "~", "x:", "null", "a\u{1b}",
        ] {
            assert!(!is_plain_safe(quoted), "{quoted}");
        }
        assert_eq!(
            double_quoted("a\"b\\c\u{1b}\u{202e}"),
            "\"a\\\"b\\\\c\\x1b\\u202e\""
        );
    }

    mod generated {
        use super::super::*;
        use proptest::prelude::*;

        /// One generated top-level value, as YAML lines after `key:`.
        #[derive(Debug, Clone)]
        enum Value {
            Plain(String),
            Single(String),
            Double(String),
            Block(Vec<String>),
            List(usize, Vec<String>),
            Mapping(usize, Vec<(String, String)>),
        }

        fn word() -> impl Strategy<Value = String> {
            "[a-z][a-z0-9 .,()'-]{0,12}[a-z0-9]"
        }

        fn value() -> impl Strategy<Value = Value> {
            prop_oneof![
                word().prop_map(Value::Plain),
                "[a-zA-Z :#'\"-]{1,16}".prop_map(Value::Single),
                "[a-zA-Z :#'\"\\-]{1,16}".prop_map(Value::Double),
                prop::collection::vec("[a-z][a-z ]{0,9}", 1..4).prop_map(Value::Block),
                (0usize..4, prop::collection::vec(word(), 1..4))
                    .prop_map(|(indent, items)| Value::List(indent, items)),
                (
                    2usize..6,
                    prop::collection::vec(("[a-z]{1,6}", word()), 1..4)
                )
                    .prop_map(|(indent, entries)| Value::Mapping(indent, entries)),
            ]
        }

        const KEYS: &[&str] = &[
            "name",
            "description",
            "license",
            "compatibility",
            "allowed-tools",
            "metadata",
            "version",
            "author",
            "x-extra",
        ];

        /// Frontmatter text and the comment tags it holds.
        fn frontmatter() -> impl Strategy<Value = (String, Vec<String>)> {
            (
                Just(KEYS.to_vec()).prop_shuffle(),
                prop::collection::vec(
                    (
                        value(),
                        any::<bool>(),
                        any::<bool>(),
                        0usize..3,
                        any::<bool>(),
                    ),
                    1..KEYS.len(),
                ),
            )
                .prop_map(|(keys, entries)| {
                    let mut text = String::from("---\n");
                    let mut tags = Vec::new();
                    for (number, (key, (value, comment_above, comment_inline, spaces, blank))) in
                        keys.iter().zip(entries).enumerate()
                    {
                        let trailing = " ".repeat(spaces);
                        if blank {
                            text.push('\n');
                        }
                        if comment_above {
                            tags.push(format!("above-{number}"));
                            text.push_str(&format!("# above-{number}{trailing}\n"));
                        }
                        let inline = if comment_inline {
                            tags.push(format!("inline-{number}"));
                            format!(" # inline-{number}")
                        } else {
                            String::new()
                        };
                        match value {
                            Value::Plain(word) => {
                                text.push_str(&format!("{key}: {word}{inline}{trailing}\n"))
                            }
                            Value::Single(raw) => text.push_str(&format!(
                                "{key}: '{}'{inline}{trailing}\n",
                                raw.replace('\'', "''")
                            )),
                            Value::Double(raw) => text.push_str(&format!(
                                "{key}: \"{}\"{inline}{trailing}\n",
                                raw.replace('\\', "\\\\").replace('"', "\\\"")
                            )),
                            Value::Block(lines) => {
                                text.push_str(&format!("{key}: |{inline}\n"));
                                for line in lines {
                                    text.push_str(&format!("    {line}\n"));
                                }
                            }
                            Value::List(indent, items) => {
                                text.push_str(&format!("{key}:{inline}\n"));
                                for item in items {
                                    text.push_str(&format!(
                                        "{}- {item}{trailing}\n",
                                        " ".repeat(indent)
                                    ));
                                }
                            }
                            Value::Mapping(indent, entries) => {
                                text.push_str(&format!("{key}:{inline}\n"));
                                let mut seen = HashSet::new();
                                for (nested, word) in entries {
                                    if seen.insert(nested.clone()) {
                                        text.push_str(&format!(
                                            "{}{nested}: {word}{trailing}\n",
                                            " ".repeat(indent)
                                        ));
                                    }
                                }
                            }
                        }
                    }
                    text.push_str("---\n# Body  \n\n  text: kept \n");
                    (text, tags)
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Formatting keeps every value, every comment and the body,
            /// and formatting again changes nothing.
            #[test]
            fn idempotent_and_lossless((text, tags) in frontmatter()) {
                let original = frontmatter::parse_as_written(
                    &frontmatter::split(&text).unwrap(),
                ).expect("generated YAML parses");
                let once = format_text(&text)
                    .unwrap_or_else(|err| panic!("{err}\n{text}"));
                prop_assert_eq!(&format_text(&once).unwrap(), &once, "not idempotent:\n{}", text);
                prop_assert!(same_values(&original, &once).is_ok(), "{}\n{}", text, once);
                for tag in &tags {
                    prop_assert!(once.contains(tag.as_str()), "lost {}:\n{}\n{}", tag, text, once);
                }
                prop_assert!(once.ends_with("---\n# Body  \n\n  text: kept \n"));
                let yaml = frontmatter::split(&once).unwrap().yaml;
                prop_assert!(
                    yaml.lines().all(|line| line == line.trim_end() || line.starts_with("    ")),
                    "trailing whitespace outside a block scalar:\n{}", once
                );
            }
        }
    }
}
