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
//! times faster than the regular expression. The scanner also takes the
//! symbols skills draw with ([`is_symbol`]: dashes, quotes, arrows, box
//! drawing, emoji): characters that are neither letters, marks, numbers
//! nor whitespace, so that the expression treats them exactly as it
//! treats ASCII punctuation. Any stretch holding other characters goes
//! through the expression itself. The two meet at safe points: a line
//! start whose first character is ASCII and neither whitespace nor `/`.
//! No piece crosses one (only alternatives 4 and 5 can take a line
//! break, and both stop right after it there), and the pieces after one
//! depend only on the text after it.

use std::sync::LazyLock;

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};

/// One piece: `stretch[start..end]`. The stretch of text around it lets a
/// reader load a whole word of bytes at once.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece<'a> {
    stretch: &'a [u8],
    start: usize,
    end: usize,
}

impl<'a> Piece<'a> {
    pub(super) fn bytes(&self) -> &'a [u8] {
        &self.stretch[self.start..self.end]
    }

    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }

    /// The 16 bytes from the piece's start, little-endian, when the
    /// stretch has them.
    pub(super) fn window(&self) -> Option<u128> {
        let bytes = self.stretch.get(self.start..self.start + 16)?;
        bytes.try_into().ok().map(u128::from_le_bytes)
    }
}

/// Calls `piece` with each piece of `text`, in order.
pub(super) fn for_each_piece<'a>(text: &'a str, mut piece: impl FnMut(Piece<'a>)) {
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let Some(first_other) = first_unscanned(text, start) else {
            ascii_pieces(&bytes[start..], &mut piece);
            return;
        };
        let unicode_start = last_safe_point(bytes, start, first_other);
        let unicode_end = next_safe_point(bytes, first_other).unwrap_or(bytes.len());
        ascii_pieces(&bytes[start..unicode_start], &mut piece);
        unicode_pieces(&text[unicode_start..unicode_end], &mut piece);
        start = unicode_end;
    }
}

/// Where the first character from `from` on lies that the hand scanner
/// does not take: outside ASCII and no [`is_symbol`].
fn first_unscanned(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    loop {
        // Checked a word at a time first: nearly every text is all ASCII.
        if bytes[at..].is_ascii() {
            return None;
        }
        at += bytes[at..].iter().position(|byte| !byte.is_ascii())?;
        let c = text[at..].chars().next()?;
        if !is_symbol(c) {
            return Some(at);
        }
        at += c.len_utf8();
    }
}

/// Characters outside ASCII that the hand scanner takes as it takes
/// ASCII punctuation: each is neither a letter (`\p{L}`), a mark
/// (`\p{M}`), a number (`\p{N}`) nor whitespace (`\s`), so each of the
/// expression's alternatives treats it as it treats `-` or `*` (a test
/// checks every one of them against the expression's own classes). They
/// are what skills draw diagrams and lists with: Latin-1 signs, general
/// punctuation (dashes, quotes, bullets, ellipsis), arrows, mathematical
/// operators, technical symbols, box drawing, blocks, shapes, dingbats
/// and emoji. A mark after one (an emoji's variation selector) sends its
/// stretch to the expression.
pub(super) fn is_symbol(c: char) -> bool {
    matches!(
        c,
        '\u{A1}'..='\u{A9}'
            | '\u{AB}'..='\u{AC}'
            | '\u{AE}'..='\u{B1}'
            | '\u{B4}'
            | '\u{B6}'..='\u{B8}'
            | '\u{BB}'
            | '\u{BF}'
            | '\u{D7}'
            | '\u{F7}'
            | '\u{2010}'..='\u{2027}'
            | '\u{2030}'..='\u{205E}'
            | '\u{2190}'..='\u{23FF}'
            | '\u{2500}'..='\u{2775}'
            | '\u{2794}'..='\u{2BFF}'
            | '\u{1F300}'..='\u{1F5FF}'
            | '\u{1F600}'..='\u{1F64F}'
            | '\u{1F680}'..='\u{1F6FF}'
            | '\u{1F900}'..='\u{1F9FF}'
    )
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

/// ASCII's character classes, as the expression sees them, one bit each.
const UPPER: u8 = 1;
const LOWER: u8 = 1 << 1;
const DIGIT: u8 = 1 << 2;
/// `\s`: tab, line feed, vertical tab, form feed, carriage return, space.
/// (Unicode's White_Space leaves out 0x1C-0x1F.)
const SPACE: u8 = 1 << 3;
/// `\r` and `\n` (also [`SPACE`]).
const LINE_BREAK: u8 = 1 << 4;
/// Neither whitespace, a letter nor a digit: punctuation, symbols and
/// control characters.
const OTHER: u8 = 1 << 5;
/// What alternative 4 takes after its run: `\r`, `\n` and `/`.
const RUN_TAIL: u8 = 1 << 6;

/// The classes of each byte. A byte outside ASCII is part of an
/// [`is_symbol`] character here (the scanner sees no others), so it is
/// [`OTHER`], as each byte of such a character is: a run of them never
/// ends inside a character.
static CLASSES: [u8; 256] = {
    let mut classes = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        classes[byte] = match b {
            b'A'..=b'Z' => UPPER,
            b'a'..=b'z' => LOWER,
            b'0'..=b'9' => DIGIT,
            b'\r' | b'\n' => SPACE | LINE_BREAK | RUN_TAIL,
            b'\t' | 0x0B | 0x0C | b' ' => SPACE,
            b'/' => OTHER | RUN_TAIL,
            _ => OTHER,
        };
        byte += 1;
    }
    classes
};

fn class(byte: u8) -> u8 {
    CLASSES[usize::from(byte)]
}

fn is_space(byte: u8) -> bool {
    class(byte) & SPACE != 0
}

/// The end of the run of bytes from `from` whose class is in `classes`.
fn run_end(bytes: &[u8], from: usize, classes: u8) -> usize {
    let mut end = from;
    while end < bytes.len() && class(bytes[end]) & classes != 0 {
        end += 1;
    }
    end
}

fn ascii_pieces<'a>(bytes: &'a [u8], piece: &mut impl FnMut(Piece<'a>)) {
    let mut start = 0;
    while start < bytes.len() {
        let end = ascii_piece_end(bytes, start);
        piece(Piece {
            stretch: bytes,
            start,
            end,
        });
        start = end;
    }
}

/// Where the piece that starts at `start` ends, in text of ASCII and
/// [`is_symbol`] characters.
fn ascii_piece_end(bytes: &[u8], start: usize) -> usize {
    let first = class(bytes[start]);
    if first & (UPPER | LOWER) != 0 {
        return letters_end(bytes, start);
    }
    if first & DIGIT != 0 {
        return run_end(&bytes[..bytes.len().min(start + 3)], start, DIGIT);
    }
    // The character after the first, which may be a symbol of several
    // bytes.
    let width = utf8_width(bytes[start]);
    let second = bytes.get(start + width).map_or(0, |&byte| class(byte));
    // Alternatives 1 and 2, with the optional prefix taken.
    if first & LINE_BREAK == 0 && second & (UPPER | LOWER) != 0 {
        return letters_end(bytes, start + width);
    }
    // Alternative 4.
    if first & OTHER != 0 || (bytes[start] == b' ' && second & OTHER != 0) {
        let run = run_end(bytes, start + 1, OTHER);
        return run_end(bytes, run, RUN_TAIL);
    }
    // Alternatives 5 and 6: a run of whitespace.
    let end = run_end(bytes, start, SPACE);
    match bytes[start..end]
        .iter()
        .rposition(|&byte| class(byte) & LINE_BREAK != 0)
    {
        Some(line_break) => start + line_break + 1,
        None if end == bytes.len() || end - start == 1 => end,
        None => end - 1,
    }
}

/// The length in bytes of the UTF-8 character whose first byte is
/// `first`.
fn utf8_width(first: u8) -> usize {
    match first {
        0..0xE0 => 1 + usize::from(first >= 0xC0),
        0xE0..0xF0 => 3,
        _ => 4,
    }
}

/// The end of alternative 1 or 2 from `start`, which holds a letter, with
/// no prefix: upper case, then lower case, then a contraction.
fn letters_end(bytes: &[u8], start: usize) -> usize {
    // Most words fit one word of eight bytes: both runs from one load.
    let word = word_at(bytes, start);
    let upper = (!letters(word, b'A') & HIGH).trailing_zeros() as usize / 8;
    let end = if upper == 8 {
        letter_run_end(bytes, letter_run_end(bytes, start + 8, b'A'), b'a')
    } else {
        // Shifted in from the top: zeros, no letters.
        let lower_after = letters(word, b'a') >> (upper * 8);
        let lower = (!lower_after & HIGH).trailing_zeros() as usize / 8;
        if upper + lower == 8 {
            letter_run_end(bytes, start + 8, b'a')
        } else {
            start + upper + lower
        }
    };
    end + contraction_len(&bytes[end..])
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The top bit of each byte of `word` that is a letter of one case:
/// `A`-`Z` when `first` is `b'A'`, `a`-`z` when it is `b'a'`. The
/// byte-wise sums set a byte's top bit when it is at least `first`, and
/// when it is past `first + 25`; no sum carries into the next byte, since
/// the top bits are cleared first (a byte outside ASCII is no letter, and
/// is dropped through `!word`).
fn letters(word: u64, first: u8) -> u64 {
    let at_least = LOW * u64::from(0x80 - first);
    let past = LOW * u64::from(0x7F - (first + 25));
    let low = word & !HIGH;
    (low + at_least) & !(low + past) & !word & HIGH
}

/// The end of the run of letters of one case from `from` ([`letters`]),
/// eight bytes at a time.
fn letter_run_end(bytes: &[u8], from: usize, first: u8) -> usize {
    let mut end = from;
    loop {
        let found = letters(word_at(bytes, end), first);
        // Zero bytes past the end are no letters: the run stops there.
        let run = (!found & HIGH).trailing_zeros() as usize / 8;
        end += run;
        if run < 8 {
            return end;
        }
    }
}

/// The eight bytes from `at`, little-endian, zeros past the end.
fn word_at(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(word) => u64::from_le_bytes(word.try_into().unwrap_or_default()),
        None => {
            let mut word = [0u8; 8];
            let rest = bytes.get(at..).unwrap_or_default();
            word[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(word)
        }
    }
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

fn unicode_pieces<'a>(text: &'a str, piece: &mut impl FnMut(Piece<'a>)) {
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
        piece(Piece {
            stretch: text.as_bytes(),
            start,
            end,
        });
        start = end;
    }
}
