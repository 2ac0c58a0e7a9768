//! Pre-tokenization: splitting text into the pieces that byte-pair merging
//! then works on, exactly as `o200k_base`'s regular expression does.
//!
//! The expression, in the order its alternatives are tried:
//!
//! 1. an optional non-letter, non-digit, non-line-break character, then
//!    `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+` and an
//!    optional contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`, in
//!    any case);
//! 2. the same prefix, then `[\p{Lu}...]+[\p{Ll}...]*` and a contraction;
//! 3. one to three digits;
//! 4. an optional space, a run of characters that are neither whitespace,
//!    letters nor digits, then any `\r`, `\n` and `/`;
//! 5. whitespace up to and including its last line break;
//! 6. whitespace that runs to the end of the text, else whitespace but its
//!    last character (`\s+(?!\S)`), else whitespace.
//!
//! Text that is all ASCII, nearly every skill body, is split by a hand
//! scanner that applies those rules to ASCII's few character classes, ten
//! times faster than the regular expression. Any stretch holding other
//! characters goes through the expression itself. The two meet at safe
//! points: a line start whose first character is ASCII and neither
//! whitespace nor `/`. No piece crosses one (only alternatives 4 and 5
//! can take a line break, and both stop right after it there), and the
//! pieces after one depend only on the text after it.

use std::sync::LazyLock;

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};

/// Calls `piece` with each piece of `text`, in order.
pub(super) fn for_each_piece(text: &str, mut piece: impl FnMut(&[u8])) {
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let Some(offset) = bytes[start..].iter().position(|byte| !byte.is_ascii()) else {
            ascii_pieces(&bytes[start..], &mut piece);
            return;
        };
        let first_other = start + offset;
        let unicode_start = last_safe_point(bytes, start, first_other);
        let unicode_end = next_safe_point(bytes, first_other).unwrap_or(bytes.len());
        ascii_pieces(&bytes[start..unicode_start], &mut piece);
        unicode_pieces(&text[unicode_start..unicode_end], &mut piece);
        start = unicode_end;
    }
}

/// Whether a piece must begin at `at`: see the module's notes.
fn is_safe_point(bytes: &[u8], at: usize) -> bool {
    at > 0
        && bytes[at - 1] == b'\n'
        && bytes
            .get(at)
            .is_some_and(|&byte| byte.is_ascii() && !is_space(byte) && byte != b'/')
}

/// The last safe point after `floor` and before `limit`, else `floor`.
fn last_safe_point(bytes: &[u8], floor: usize, limit: usize) -> usize {
    memchr::memrchr_iter(b'\n', &bytes[floor..limit])
        .map(|newline| floor + newline + 1)
        .find(|&at| is_safe_point(bytes, at))
        .unwrap_or(floor)
}

/// The first safe point after `from`.
fn next_safe_point(bytes: &[u8], from: usize) -> Option<usize> {
    memchr::memchr_iter(b'\n', &bytes[from..])
        .map(|newline| from + newline + 1)
        .find(|&at| is_safe_point(bytes, at))
}

/// `\s` on ASCII: tab, line feed, vertical tab, form feed, carriage return
/// and space. (Unicode's White_Space leaves out 0x1C-0x1F.)
fn is_space(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

fn is_line_break(byte: u8) -> bool {
    matches!(byte, b'\r' | b'\n')
}

/// Neither whitespace, a letter nor a digit: punctuation, symbols and
/// control characters.
fn is_other(byte: u8) -> bool {
    !is_space(byte) && !byte.is_ascii_alphanumeric()
}

fn ascii_pieces(bytes: &[u8], piece: &mut impl FnMut(&[u8])) {
    let mut start = 0;
    while start < bytes.len() {
        let end = ascii_piece_end(bytes, start);
        piece(&bytes[start..end]);
        start = end;
    }
}

/// Where the piece that starts at `start` ends, in ASCII text.
fn ascii_piece_end(bytes: &[u8], start: usize) -> usize {
    let first = bytes[start];
    if first.is_ascii_alphabetic() {
        return letters_end(bytes, start).unwrap_or(start + 1);
    }
    if first.is_ascii_digit() {
        let run = bytes[start..]
            .iter()
            .take(3)
            .take_while(|byte| byte.is_ascii_digit());
        return start + run.count();
    }
    // Alternatives 1 and 2, with the optional prefix taken.
    if !is_line_break(first)
        && let Some(end) = letters_end(bytes, start + 1)
    {
        return end;
    }
    // Alternative 4.
    let spaced_other = first == b' ' && bytes.get(start + 1).is_some_and(|&byte| is_other(byte));
    if is_other(first) || spaced_other {
        let mut end = start + 1;
        while end < bytes.len() && is_other(bytes[end]) {
            end += 1;
        }
        while end < bytes.len() && matches!(bytes[end], b'\r' | b'\n' | b'/') {
            end += 1;
        }
        return end;
    }
    // Alternatives 5 and 6: a run of whitespace.
    let mut end = start;
    let mut last_line_break = None;
    while end < bytes.len() && is_space(bytes[end]) {
        if is_line_break(bytes[end]) {
            last_line_break = Some(end);
        }
        end += 1;
    }
    match last_line_break {
        Some(line_break) => line_break + 1,
        None if end == bytes.len() || end - start == 1 => end,
        None => end - 1,
    }
}

/// The end of alternative 1 or 2 from `start` without a prefix: upper case,
/// then lower case (one of the two runs not empty), then a contraction.
/// `None` when `start` holds no letter.
fn letters_end(bytes: &[u8], start: usize) -> Option<usize> {
    let upper = bytes[start.min(bytes.len())..]
        .iter()
        .take_while(|byte| byte.is_ascii_uppercase())
        .count();
    let lower = bytes[start + upper..]
        .iter()
        .take_while(|byte| byte.is_ascii_lowercase())
        .count();
    if upper + lower == 0 {
        return None;
    }
    let end = start + upper + lower;
    Some(end + contraction_len(&bytes[end..]))
}

/// The length of a contraction at the start of `bytes`, or 0.
fn contraction_len(bytes: &[u8]) -> usize {
    let lower = |at: usize| bytes.get(at).map(u8::to_ascii_lowercase);
    if bytes.first() != Some(&b'\'') {
        return 0;
    }
    match (lower(1), lower(2)) {
        (Some(b's' | b't' | b'm' | b'd'), _) => 2,
        (Some(b'r' | b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => 3,
        _ => 0,
    }
}

/// The expression's alternatives as three patterns searched at once. The
/// second stands in for `\s+(?!\S)`, which the regex engine cannot express:
/// it matches one character more, and that character is handed back.
static PATTERNS: LazyLock<Regex> = LazyLock::new(|| {
    let first = [
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"\p{N}{1,3}",
        r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
        r"\s*[\r\n]+",
        r"\s+$",
    ]
    .join("|");
    Regex::new_many(&[first.as_str(), r"\s+\s", r"\s+"])
        .expect("the o200k pre-tokenizer patterns compile")
});

/// The pattern whose last character is handed back.
const LOOKAHEAD_PATTERN: usize = 1;

fn unicode_pieces(text: &str, piece: &mut impl FnMut(&[u8])) {
    let mut start = 0;
    while start < text.len() {
        let input = Input::new(text).range(start..).anchored(Anchored::Yes);
        let end = match PATTERNS.find(input) {
            Some(found) if found.pattern().as_usize() == LOOKAHEAD_PATTERN => {
                let matched = &text[start..found.end()];
                let last = matched.chars().next_back().map_or(0, char::len_utf8);
                found.end() - last
            }
            Some(found) => found.end(),
            // Every character is matched by one alternative or another;
            // should that ever fail, the rest is one piece, not a loop.
            None => text.len(),
        };
        let end = if end > start { end } else { text.len() };
        piece(&text.as_bytes()[start..end]);
        start = end;
    }
}
