//! The normalized form of a value: what a lenient consumer further down the
//! line might turn it into. Every rule runs on the raw value and on this
//! form, so an encoding cannot smuggle what the plain text would not.
//!
//! One round decodes `%XX` and `%uXXXX`, folds overlong UTF-8 byte sequences
//! (`%c0%ae` is `.`) and applies NFKC (fullwidth `．／＼` become `./\`).
//! [`backslash_decode_once`] and [`html_decode_once`] undo the escapes other
//! consumers apply (`printf %b`, `echo -e`, an HTML page); the rules add
//! those forms only for the classes where a backslash or `&` is never part
//! of a plain value (a Windows path keeps `\2024\`).
//! Rounds repeat until nothing changes (`%252e` → `%2e` → `.`), at most
//! [`MAX_ROUNDS`] times.

use unicode_normalization::UnicodeNormalization;

/// Enough for any encoding a real client produces (one or two layers) and
/// far more than that; a value still changing after this many rounds is
/// reported as over-encoded.
pub const MAX_ROUNDS: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    pub value: String,
    /// False when the value was still changing after [`MAX_ROUNDS`].
    pub settled: bool,
}

/// The normalized form of `raw`.
pub fn normalize(raw: &str) -> Normalized {
    let mut current = raw.to_owned();
    for _ in 0..MAX_ROUNDS {
        let next = normalize_once(&current);
        if next == current {
            return Normalized {
                value: current,
                settled: true,
            };
        }
        current = next;
    }
    let settled = normalize_once(&current) == current;
    Normalized {
        value: current,
        settled,
    }
}

fn normalize_once(value: &str) -> String {
    let decoded = percent_decode_once(value);
    decoded.nfkc().collect()
}

/// Decodes one layer of `\NNN` / `\0NNN` (octal), `\xHH`, `\uHHHH` and
/// `\UHHHHHHHH`, as `printf %b`, `echo -e` and most string literals do.
/// Other backslashes are kept. Linear: each byte is looked at a bounded
/// number of times.
pub fn backslash_decode_once(value: &str) -> String {
    if !value.contains('\\') {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match backslash_escape(after) {
            Some((ch, length)) => {
                out.push(ch);
                rest = &after[length..];
            }
            None => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character a backslash escape spells and how many bytes after the
/// backslash it takes.
fn backslash_escape(after: &str) -> Option<(char, usize)> {
    let bytes = after.as_bytes();
    let (radix, skip, max_digits) = match bytes.first()? {
        b'x' => (16, 1, 2),
        b'u' => (16, 1, 4),
        b'U' => (16, 1, 8),
        b'0' => (8, 1, 3),
        b'1'..=b'7' => (8, 0, 3),
        _ => return None,
    };
    let digits = bytes[skip..]
        .iter()
        .take(max_digits)
        .take_while(|byte| char::from(**byte).is_digit(radix))
        .count();
    if digits == 0 {
        // A lone `\0` is NUL.
        return (bytes[0] == b'0').then_some(('\0', 1));
    }
    let text = &after[skip..skip + digits];
    let code = u32::from_str_radix(text, radix).ok()?;
    Some((
        char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER),
        skip + digits,
    ))
}

/// Decodes one layer of HTML character references: `&#NN;`, `&#xHH;`
/// (the `;` is optional, as browsers accept) and the few named ones that
/// spell path or shell syntax.
pub fn html_decode_once(value: &str) -> String {
    const NAMED: &[(&str, char)] = &[
        ("period;", '.'),
        ("sol;", '/'),
        ("bsol;", '\\'),
        ("colon;", ':'),
        ("amp;", '&'),
        ("lt;", '<'),
        ("gt;", '>'),
        ("quot;", '"'),
        ("apos;", '\''),
        ("semi;", ';'),
        ("num;", '#'),
        ("quest;", '?'),
        ("percnt;", '%'),
        ("Tab;", '\t'),
        ("NewLine;", '\n'),
    ];
    if !value.contains('&') {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some((ch, length)) = numeric_reference(after) {
            out.push(ch);
            rest = &after[length..];
        } else if let Some((name, ch)) = NAMED.iter().find(|(name, _)| after.starts_with(name)) {
            out.push(*ch);
            rest = &after[name.len()..];
        } else {
            out.push('&');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// `#NN` or `#xHH` (at most 8 digits), with an optional `;`.
fn numeric_reference(after: &str) -> Option<(char, usize)> {
    let bytes = after.as_bytes();
    if bytes.first() != Some(&b'#') {
        return None;
    }
    let (radix, skip) = match bytes.get(1) {
        Some(b'x' | b'X') => (16, 2),
        _ => (10, 1),
    };
    let digits = bytes
        .get(skip..)?
        .iter()
        .take(8)
        .take_while(|byte| char::from(**byte).is_digit(radix))
        .count();
    if digits == 0 {
        return None;
    }
    let code = u32::from_str_radix(&after[skip..skip + digits], radix).ok()?;
    let mut length = skip + digits;
    if bytes.get(length) == Some(&b';') {
        length += 1;
    }
    Some((
        char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER),
        length,
    ))
}

/// Only percent-decoding, repeated like [`normalize`] but without NFKC: the
/// "decoded value" a suggestion offers for a percent-encoded ID.
pub fn percent_decode(raw: &str) -> String {
    let mut current = raw.to_owned();
    for _ in 0..MAX_ROUNDS {
        let next = percent_decode_once(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// Decodes one layer of `%XX` and `%uXXXX`. The bytes are then read as
/// UTF-8 with overlong forms folded to the character they spell; anything
/// still invalid becomes U+FFFD.
pub fn percent_decode_once(value: &str) -> String {
    if !value.contains('%') {
        return value.to_owned();
    }
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            if let Some(code_unit) = percent_u(&bytes[index..]) {
                let ch = char::from_u32(code_unit).unwrap_or(char::REPLACEMENT_CHARACTER);
                let mut buffer = [0; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buffer).as_bytes());
                index += 6;
                continue;
            }
            if let (Some(high), Some(low)) = (
                bytes.get(index + 1).copied().and_then(hex_value),
                bytes.get(index + 2).copied().and_then(hex_value),
            ) {
                out.push(high << 4 | low);
                index += 3;
                continue;
            }
        }
        out.push(bytes[index]);
        index += 1;
    }
    decode_utf8_folding_overlong(&out)
}

/// `%uXXXX` at the start of `bytes`, as its code unit.
fn percent_u(bytes: &[u8]) -> Option<u32> {
    if bytes.len() < 6 || !matches!(bytes[1], b'u' | b'U') {
        return None;
    }
    bytes[2..6].iter().try_fold(0u32, |acc, byte| {
        hex_value(*byte).map(|digit| acc << 4 | u32::from(digit))
    })
}

fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// UTF-8 decoding that also accepts overlong sequences (which strict
/// decoders reject and naive ones turn into `.` or `/`), yielding the
/// character they encode.
fn decode_utf8_folding_overlong(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let rest = &bytes[index..];
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.push_str(valid);
                break;
            }
            Err(err) => {
                let valid_up_to = err.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..valid_up_to]).unwrap_or_default());
                index += valid_up_to;
                match overlong_sequence(&bytes[index..]) {
                    Some((ch, length)) => {
                        out.push(ch);
                        index += length;
                    }
                    None => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        index += err.error_len().unwrap_or(bytes.len() - index).max(1);
                    }
                }
            }
        }
    }
    out
}

/// A 2-, 3- or 4-byte sequence with the right lead and continuation bits
/// whose value would fit a shorter form.
fn overlong_sequence(bytes: &[u8]) -> Option<(char, usize)> {
    let lead = *bytes.first()?;
    let (length, lead_bits) = match lead {
        0xC0..=0xC1 => (2, u32::from(lead & 0x1F)),
        0xE0 => (3, u32::from(lead & 0x0F)),
        0xF0 => (4, u32::from(lead & 0x07)),
        _ => return None,
    };
    let continuation = bytes.get(1..length)?;
    if !continuation.iter().all(|byte| byte & 0xC0 == 0x80) {
        return None;
    }
    let value = continuation
        .iter()
        .fold(lead_bits, |acc, byte| acc << 6 | u32::from(byte & 0x3F));
    let shortest_limit = match length {
        2 => 0x80,
        3 => 0x800,
        _ => 0x1_0000,
    };
    if value >= shortest_limit {
        return None;
    }
    char::from_u32(value).map(|ch| (ch, length))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(raw: &str) -> String {
        normalize(raw).value
    }

    fn unescape(raw: &str) -> String {
        normalize(&html_decode_once(&backslash_decode_once(raw))).value
    }

    #[test]
    fn repeated_percent_decoding() {
        assert_eq!(norm("%2e%2e%2f"), "../");
        assert_eq!(norm("%252e%252e"), "..");
        assert_eq!(norm("%25252e"), ".");
        assert_eq!(norm("%2E%2e"), "..");
    }

    #[test]
    fn percent_u_and_overlong_forms() {
        assert_eq!(norm("%u002e%u002E"), "..");
        assert_eq!(norm("%c0%ae%c0%ae%c0%af"), "../");
        assert_eq!(norm("%e0%80%ae"), ".");
        assert_eq!(norm("%f0%80%80%ae"), ".");
        assert_eq!(norm("%c1%9c"), "\\");
        assert_eq!(norm("%ud800"), "\u{FFFD}");
    }

    #[test]
    fn nfkc_folds_fullwidth_forms() {
        assert_eq!(norm("．．／"), "../");
        assert_eq!(norm("．．＼"), "..\\");
        assert_eq!(norm("\u{2025}"), "..");
        assert_eq!(norm("％２ｅ％２ｅ"), "..");
    }

    #[test]
    fn plain_and_invalid_input_is_kept() {
        assert_eq!(norm("prod-east-1"), "prod-east-1");
        assert_eq!(norm("100%"), "100%");
        assert_eq!(norm("%zz%4"), "%zz%4");
        assert_eq!(norm("%ff"), "\u{FFFD}");
        assert_eq!(norm("%e2%82"), "\u{FFFD}");
        assert!(normalize("a%").settled);
    }

    #[test]
    fn deep_encoding_is_reported_unsettled() {
        let mut value = "%2e".to_owned();
        for _ in 0..MAX_ROUNDS + 2 {
            value = value.replace('%', "%25");
        }
        let normalized = normalize(&value);
        assert!(!normalized.settled);
    }

    #[test]
    fn backslash_escapes_decode() {
        assert_eq!(unescape("\\056\\056/"), "../");
        assert_eq!(unescape("\\0056\\x2e/"), "../");
        assert_eq!(unescape(".\\u002e/"), "../");
        assert_eq!(unescape("\\U0000002e"), ".");
        assert_eq!(unescape("a\\b\\"), "a\\b\\");
        assert_eq!(unescape("\\x"), "\\x");
        assert_eq!(unescape("\\0"), "\0");
    }

    #[test]
    fn html_references_decode() {
        assert_eq!(unescape("&#46;&#46;/"), "../");
        assert_eq!(unescape("&#x2E;&#x2e&sol;"), "../");
        assert_eq!(unescape("&period;&period;&bsol;"), "..\\");
        assert_eq!(unescape("a&b"), "a&b");
        assert_eq!(unescape("&#;"), "&#;");
        assert_eq!(unescape("&#99999999999;"), "\u{FFFD}999;");
    }

    #[test]
    fn percent_decode_skips_nfkc() {
        assert_eq!(percent_decode("abc%2Fdef"), "abc/def");
        assert_eq!(percent_decode("ｆ%20"), "ｆ ");
    }
}
