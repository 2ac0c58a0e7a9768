//! Text that comes from files (skill names, descriptions, paths) shown on a
//! terminal or in a CI log: control characters appear as escapes, so that a
//! value cannot move the cursor, clear the screen, set the window title,
//! hide or reorder text, or split one finding over several lines. JSON
//! output keeps the real text (serde escapes what JSON requires).

use std::borrow::Cow;
use std::fmt::Write as _;

/// A control character: C0 (tab and line feed included), DEL or C1.
pub fn is_control(c: char) -> bool {
    c.is_control()
}

/// A character that reorders the text around it: the bidirectional
/// embeddings, overrides, isolates and marks ("Trojan Source").
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// An invisible character that hides text or breaks a line: zero-width
/// spaces and joiners that carry no meaning in a line of output, the line
/// and paragraph separators, and the byte order mark. (The zero-width
/// joiner and non-joiner, which emoji and several scripts need, are left.)
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{2028}' | '\u{2029}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
    )
}

/// Whether `c` must not reach a terminal as it is.
pub fn is_unsafe_for_terminal(c: char) -> bool {
    is_control(c) || is_bidi_control(c) || is_invisible(c)
}

/// `text` with each character that is unsafe on a terminal written as an
/// escape: `\n`, `\r`, `\t`, and `\u{1b}`-style for the rest.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_for_terminal) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            c if is_unsafe_for_terminal(c) => {
                let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
            }
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// JSON text (as serde writes it) with each character that is unsafe on
/// a terminal and that serde leaves as it is (DEL, C1 controls, bidi and
/// invisible characters) written as a `\u` escape. The result is the same
/// JSON value; serde already escapes the C0 controls inside strings, and
/// the line feeds left are the layout's.
pub fn escape_json_text(json: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c != '\n' && is_unsafe_for_terminal(c);
    if !json.chars().any(unsafe_char) {
        return Cow::Borrowed(json);
    }
    let mut escaped = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if unsafe_char(c) {
            // Every such character is in the Basic Multilingual Plane.
            let _ = write!(escaped, "\\u{:04x}", u32::from(c));
        } else {
            escaped.push(c);
        }
    }
    Cow::Owned(escaped)
}

/// `text` as data for an agent (CLI Agent Spec REQ-F-007): terminal escape
/// sequences removed, not escaped, so `\x1b[31mError\x1b[0m` reads
/// `Error`. A CSI sequence (`ESC [` ... a final byte), an OSC or other
/// string sequence (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`, up to BEL
/// or `ESC \\`) and any other `ESC` pair go; so do carriage returns (a
/// progress bar's overwrites), the other C0 and C1 controls but tab and
/// line feed, DEL, and the characters that reorder or hide text. Linear
/// in the input; an unterminated sequence runs to the end.
pub fn strip_terminal_codes(text: &str) -> Cow<'_, str> {
    let keep = |c: char| c == '\n' || c == '\t' || !is_unsafe_for_terminal(c);
    if text.chars().all(keep) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates, then one final byte.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                }
                // String sequences: up to BEL or ST (ESC \).
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' && chars.next_if_eq(&'\\').is_some() {
                            break;
                        }
                    }
                }
                // ESC, intermediates (`(`, `#`, ...), one final byte:
                // `ESC ( B` chooses a character set.
                Some(c) if ('\u{20}'..='\u{2f}').contains(&c) => {
                    while chars
                        .next_if(|c| ('\u{20}'..='\u{2f}').contains(c))
                        .is_some()
                    {}
                    chars.next_if(|c| ('\u{30}'..='\u{7e}').contains(c));
                }
                // A two-character sequence (or ESC at the end).
                _ => {}
            },
            // The C1 form of CSI.
            '\u{9b}' => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            c if keep(c) => out.push(c),
            _ => {}
        }
    }
    Cow::Owned(out)
}

/// Data read from outside aigent (a skill's text) as data for an agent
/// (CLI Agent Spec REQ-F-035, REQ-F-007): every string in `value` with
/// its terminal codes removed, and, when `value` is an object, the marks
/// `_source: "external"` and `_trusted: false`, since such text may hold
/// instructions meant to steer whoever reads it. A rejected value an error
/// quotes as evidence is not passed through this.
pub fn external(mut value: serde_json::Value) -> serde_json::Value {
    fn strip(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::String(text) => {
                if let Cow::Owned(stripped) = strip_terminal_codes(text) {
                    *text = stripped;
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            serde_json::Value::Object(object) => object.values_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    if let serde_json::Value::Object(object) = &mut value {
        object.insert("_source".to_owned(), "external".into());
        object.insert("_trusted".to_owned(), false.into());
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_become_escapes() {
        assert_eq!(
            escape_controls("esc\u{1b}[2J\u{1b}]0;PWNED\u{7}"),
            "esc\\u{1b}[2J\\u{1b}]0;PWNED\\u{7}"
        );
        assert_eq!(escape_controls("a\nb\r\tc"), "a\\nb\\r\\tc");
        assert_eq!(
            escape_controls("del\u{7f} csi\u{9b}"),
            "del\\u{7f} csi\\u{9b}"
        );
        assert_eq!(
            escape_controls("abc\u{202e}fed\u{2066}\u{200b}\u{2028}\u{feff}"),
            "abc\\u{202e}fed\\u{2066}\\u{200b}\\u{2028}\\u{feff}"
        );
    }

    #[test]
    fn json_text_keeps_its_value() {
        let value = serde_json::json!({"d": "del\u{7f} csi\u{9b} rlo\u{202e} esc\u{1b}\nx"});
        let text = serde_json::to_string_pretty(&value).unwrap();
        let escaped = escape_json_text(&text);
        assert!(
            !escaped
                .chars()
                .any(|c| c != '\n' && is_unsafe_for_terminal(c)),
            "{escaped}"
        );
        assert!(
            escaped.contains("\\u007f") && escaped.contains("\\u202e"),
            "{escaped}"
        );
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        for text in [
            "plain",
            "数据-工具 é",
            "👨\u{200d}👩\u{200d}👧",
            "a < b & c",
            "",
        ] {
            assert!(matches!(escape_controls(text), Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn external_data_is_stripped_and_marked() {
        let value = external(serde_json::json!({
            "description": "\u{1b}[31mred\u{1b}[0m text",
            "metadata": {"k": ["a\u{1b}]0;t\u{7}b"]},
            "n": 1,
        }));
        assert_eq!(
            value,
            serde_json::json!({
                "description": "red text",
                "metadata": {"k": ["ab"]},
                "n": 1,
                "_source": "external",
                "_trusted": false,
            })
        );
        assert_eq!(external(serde_json::json!(null)), serde_json::json!(null));
    }

    #[test]
    fn terminal_codes_are_stripped_not_escaped() {
        assert_eq!(strip_terminal_codes("plain\ttext\n"), "plain\ttext\n");
        assert!(matches!(strip_terminal_codes("plain"), Cow::Borrowed(_)));
        assert_eq!(
            strip_terminal_codes("\u{1b}[31mError:\u{1b}[0m file not found"),
            "Error: file not found"
        );
        assert_eq!(strip_terminal_codes("\u{1b}]0;title\u{7}x"), "x");
        assert_eq!(
            strip_terminal_codes("\u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\"),
            "link"
        );
        assert_eq!(strip_terminal_codes("10%\r50%\r100%\n"), "10%50%100%\n");
        assert_eq!(
            strip_terminal_codes("a\u{1b}[2Jb\u{1b}(Bc\u{9b}1md"),
            "abcd"
        );
        assert_eq!(strip_terminal_codes("\u{202e}evil\u{0}"), "evil");
        assert_eq!(strip_terminal_codes("cut \u{1b}[38;5"), "cut ");
        assert_eq!(strip_terminal_codes("end\u{1b}"), "end");
    }
}
