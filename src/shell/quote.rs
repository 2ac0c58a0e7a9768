//! The one POSIX shell quoter: a word written so that a shell reads it back
//! as exactly that word.

use std::fmt::Write as _;

/// `word` as one shell word: bare when it holds only characters no shell
/// treats specially (and does not start with `~` or `=`, which bash and zsh
/// expand), `$'...'` when it holds control characters (so that one argv
/// stays on one line), else single quotes.
pub fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && !word.starts_with(['~', '='])
        && word
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"_-./:=@%+,".contains(&byte));
    if plain {
        return word.to_owned();
    }
    if word.chars().any(char::is_control) {
        let mut out = String::from("$'");
        for ch in word.chars() {
            match ch {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\\' => out.push_str("\\\\"),
                '\'' => out.push_str("\\'"),
                ch if ch.is_control() => {
                    let _ = write!(out, "\\u{:04x}", u32::from(ch));
                }
                ch => out.push(ch),
            }
        }
        out.push('\'');
        return out;
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}
