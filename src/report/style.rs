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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_style_adds_no_escapes() {
        assert_eq!(Style::PLAIN.error("bad"), "bad");
        assert_eq!(Style::new(true).error("bad"), "\x1b[1;31mbad\x1b[0m");
    }
}
