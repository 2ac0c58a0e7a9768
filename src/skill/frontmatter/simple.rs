//! A fast path for the frontmatter nearly every skill has: top-level
//! `key: value` lines whose values are one-line strings, `|` and `>` block
//! strings, or a mapping one level deep of one-line strings. On the real
//! collection it reads about 95% of the frontmatter blocks, several times
//! faster than the full YAML parser.
//!
//! It is a recognizer first: [`parse`] accepts only text in a small
//! grammar, every line of it checked, and answers `None` for anything else
//! (a comment, a tab, a number, a flow list, an escape, a second level of
//! nesting...), which then goes to the full parser. Inside the grammar
//! each construct has exactly one reading in YAML 1.2, and that reading
//! is what this module builds; the tests hold it to serde-saphyr's result
//! on generated documents built from the grammar's pieces and the near
//! misses around them, and on every shape the grammar names.
//!
//! The grammar (lines end with `\n`; no `\r`, tab, control character,
//! line or paragraph separator, byte-order mark or C1 character anywhere):
//!
//! ```text
//! document  = (blank | entry)*
//! entry     = key ":" (" "+ value | " "* "\n" nested?)
//! key       = letter (letter | digit | "-" | "_")*     not a reserved word
//! value     = plain | '"' [^"\\]* '"' " "* | "'" ([^'] | "''")* "'" " "*
//!           | ("|" | "|-" | ">" | ">-") "\n" block
//! plain     = a first byte that is a letter or outside ASCII, no ": ",
//!             no " #", no ":" at the end, not a reserved word; or
//!             three or more runs of digits joined by dots (`1.0.0`)
//! block     = lines indented by n >= 1 spaces (the first line's), with
//!             empty lines between them; no trailing spaces, no line of
//!             spaces only; under ">" no line indented further than n
//! nested    = lines indented by the same m >= 1 spaces, each
//!             key ":" (" "+ one-line value | " "*), empty lines between
//! ```
//!
//! A reserved word is one a YAML schema could read as something other
//! than a string, in any case: `null`, `true`, `false`, `yes`, `no`, `on`,
//! `off`, `y`, `n`, `nan`, `inf`, `infinity`. A plain value starting with a
//! digit, a sign, a dot or `~` is left to the full parser, which knows
//! numbers, except a dotted version such as `1.0.0`, which no schema
//! reads as one.

use super::YamlValue;

/// The longest frontmatter this path reads: far above real ones (about
/// 1 KB), far below any of the full parser's budgets.
const MAX_BYTES: usize = 16 * 1024;

/// One top-level entry: the key, its 1-based line in the YAML, the value.
pub(super) type RawEntry = (String, usize, YamlValue);

/// The entries of `yaml`, in order (a repeated key repeated), when the
/// whole text is in this module's grammar; `None` otherwise.
pub(super) fn parse(yaml: &str) -> Option<Vec<RawEntry>> {
    if yaml.len() > MAX_BYTES || !yaml.ends_with('\n') || !printable(yaml) {
        return None;
    }
    // The text ends with a line break, so the last split is empty.
    let lines: Vec<&str> = yaml[..yaml.len() - 1].split('\n').collect();
    let mut entries = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        if line.is_empty() {
            at += 1;
            continue;
        }
        let (key, rest) = key_and_rest(line)?;
        let key_line = at + 1;
        at += 1;
        let value = match rest {
            None => {
                // `key:` with nothing after it: a nested mapping when
                // indented lines follow, else null.
                match lines.get(at) {
                    Some(next) if next.starts_with(' ') => {
                        let (mapping, end) = nested(&lines, at)?;
                        at = end;
                        mapping
                    }
                    _ => YamlValue::Null {
                        written: String::new(),
                    },
                }
            }
            Some(rest) => match block_header(rest) {
                Some(header) => {
                    let (text, end) = block(&lines, at, header)?;
                    at = end;
                    YamlValue::String(text)
                }
                None => YamlValue::String(one_line_value(rest)?),
            },
        };
        entries.push((key.to_owned(), key_line, value));
    }
    Some(entries)
}

/// Whether `yaml` has none of the characters this path leaves to the full
/// parser: C0 controls but `\n` (tab and `\r` among them), DEL, C1
/// controls (U+0085 is a line break in YAML 1.1), U+2028, U+2029, U+FEFF,
/// U+FFFE and U+FFFF.
fn printable(yaml: &str) -> bool {
    let bytes = yaml.as_bytes();
    if bytes
        .iter()
        .all(|&byte| (0x20..0x7F).contains(&byte) || byte == b'\n')
    {
        return true;
    }
    yaml.chars().all(|c| match c {
        '\n' => true,
        '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}' => false,
        '\u{2028}' | '\u{2029}' | '\u{FEFF}' | '\u{FFFE}' | '\u{FFFF}' => false,
        _ => true,
    })
}

/// A line's key and what follows `key:` (without the spaces after the
/// colon; `None` when nothing does).
fn key_and_rest(line: &str) -> Option<(&str, Option<&str>)> {
    let bytes = line.as_bytes();
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    let end = bytes
        .iter()
        .position(|&byte| !(byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'))?;
    let key = &line[..end];
    if bytes[end] != b':' || reserved(key) {
        return None;
    }
    let after = &line[end + 1..];
    if after.bytes().all(|byte| byte == b' ') {
        return Some((key, None));
    }
    if !after.starts_with(' ') {
        return None;
    }
    Some((key, Some(after.trim_start_matches(' '))))
}

/// Words some YAML schema reads as null, a boolean or a number, in any
/// case.
fn reserved(word: &str) -> bool {
    const WORDS: [&str; 12] = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n", "nan", "inf", "infinity",
    ];
    word.len() <= 8
        && WORDS
            .iter()
            .any(|reserved| word.eq_ignore_ascii_case(reserved))
}

/// A one-line value (not empty, no leading space): plain, double-quoted
/// without escapes, or single-quoted.
fn one_line_value(value: &str) -> Option<String> {
    match value.as_bytes()[0] {
        b'"' => {
            let inner = &value[1..];
            let close = inner.find(['"', '\\'])?;
            if inner.as_bytes()[close] != b'"' || !only_spaces(&inner[close + 1..]) {
                return None;
            }
            Some(inner[..close].to_owned())
        }
        b'\'' => {
            let mut text = String::new();
            let mut rest = &value[1..];
            loop {
                let quote = rest.find('\'')?;
                text.push_str(&rest[..quote]);
                rest = &rest[quote + 1..];
                if let Some(after) = rest.strip_prefix('\'') {
                    text.push('\'');
                    rest = after;
                } else {
                    return only_spaces(rest).then_some(text);
                }
            }
        }
        _ => plain(value).map(str::to_owned),
    }
}

fn only_spaces(text: &str) -> bool {
    text.bytes().all(|byte| byte == b' ')
}

/// A plain scalar that YAML reads as this string: see the module's
/// grammar.
fn plain(value: &str) -> Option<&str> {
    let value = value.trim_end_matches(' ');
    let first = value.as_bytes()[0];
    if first.is_ascii_digit() {
        return dotted_version(value).then_some(value);
    }
    if first.is_ascii() && !first.is_ascii_alphabetic() {
        return None;
    }
    if value.ends_with(':') || value.contains(": ") || value.contains(" #") || reserved(value) {
        return None;
    }
    Some(value)
}

/// Whether `value` is three or more runs of digits joined by single dots
/// (`1.0.0`, the commonest `version`): no YAML schema reads that as a
/// number, so it is a string.
fn dotted_version(value: &str) -> bool {
    let mut parts = 0;
    for part in value.split('.') {
        if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
            return false;
        }
        parts += 1;
    }
    parts >= 3
}

/// The block scalar headers this path reads.
#[derive(Debug, Clone, Copy)]
struct BlockHeader {
    folded: bool,
    /// `-`: no final line break.
    strip: bool,
}

fn block_header(rest: &str) -> Option<BlockHeader> {
    let (folded, strip) = match rest {
        "|" => (false, false),
        "|-" => (false, true),
        ">" => (true, false),
        ">-" => (true, true),
        _ => return None,
    };
    Some(BlockHeader { folded, strip })
}

/// The block scalar whose lines start at `lines[from]`, and the index of
/// the first line after it.
fn block(lines: &[&str], from: usize, header: BlockHeader) -> Option<(String, usize)> {
    let first = *lines.get(from)?;
    let indent = indent_of(first);
    if indent == 0 || indent == first.len() {
        return None;
    }
    let mut text = String::new();
    // Empty lines since the last content line.
    let mut empty = 0;
    let mut at = from;
    while at < lines.len() {
        let line = lines[at];
        if line.is_empty() {
            empty += 1;
            at += 1;
            continue;
        }
        let line_indent = indent_of(line);
        if line_indent == line.len() || line.ends_with(' ') {
            // Spaces only, or trailing spaces.
            return None;
        }
        if line_indent < indent {
            // The block has ended; the top level reads this line (a line
            // indented less but not at all is no key, and fails there).
            break;
        }
        if header.folded && line_indent > indent {
            return None;
        }
        if at > from {
            // Between two lines: a literal block keeps every line break;
            // a folded one turns a single break into a space and keeps
            // the breaks of the empty lines only.
            let breaks = if header.folded { empty } else { empty + 1 };
            if breaks == 0 {
                text.push(' ');
            }
            for _ in 0..breaks {
                text.push('\n');
            }
        }
        text.push_str(&line[indent..]);
        empty = 0;
        at += 1;
    }
    if !header.strip {
        text.push('\n');
    }
    Some((text, at))
}

/// The number of spaces a line starts with.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The nested mapping whose lines start at `lines[from]` (indented), and
/// the index of the first line after it.
fn nested(lines: &[&str], from: usize) -> Option<(YamlValue, usize)> {
    let indent = indent_of(lines[from]);
    let mut entries = Vec::new();
    let mut at = from;
    while at < lines.len() {
        let line = lines[at];
        if line.is_empty() {
            at += 1;
            continue;
        }
        let line_indent = indent_of(line);
        if line_indent == 0 {
            break;
        }
        if line_indent != indent {
            return None;
        }
        let (key, rest) = key_and_rest(&line[indent..])?;
        let value = match rest {
            None => YamlValue::Null {
                written: String::new(),
            },
            Some(rest) => YamlValue::String(one_line_value(rest)?),
        };
        entries.push((key.to_owned(), value));
        at += 1;
    }
    Some((YamlValue::Mapping(entries), at))
}

#[cfg(test)]
mod tests;
