//! ANSI styling for text output. Renderers take a `Style` and return
//! strings; only the binary decides whether colour is on.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub const PLAIN: Style = Style { color: false };

    pub fn new(color: bool) -> Self {
        Self { color }
    }

    fn paint(self, sgr: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    pub fn error(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    pub fn warning(self, text: &str) -> String {
        self.paint("1;33", text)
    }

    pub fn success(self, text: &str) -> String {
        self.paint("1;32", text)
    }

    pub fn emphasis(self, text: &str) -> String {
        self.paint("1", text)
    }

    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn location(self, text: &str) -> String {
        self.paint("1;34", text)
    }
}

/// `text` with every character that a terminal would act on instead of
/// showing (C0 and C1 controls, DEL, and the invisible Unicode format
/// characters: bidi overrides, zero-width ones, the BOM) written as an
/// escape such as `\u{1b}`, so a hostile file name or value cannot clear
/// the screen, retitle the window or split one finding over two lines.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            escaped.extend(c.escape_unicode());
        } else {
            escaped.push(c);
        }
    }
    std::borrow::Cow::Owned(escaped)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_plain_text_is_borrowed() {
        assert!(matches!(
            escape_controls("plain ü text"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(escape_controls("a\x1b[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(escape_controls("line\nbreak"), "line\\u{a}break");
        assert_eq!(escape_controls("rtl\u{202E}x"), "rtl\\u{202e}x");
        assert_eq!(escape_controls("c1\u{9b}"), "c1\\u{9b}");
    }

    #[test]
    fn plain_style_adds_no_escapes() {
        assert_eq!(Style::PLAIN.error("bad"), "bad");
        assert_eq!(Style::new(true).error("bad"), "\x1b[1;31mbad\x1b[0m");
    }
}
