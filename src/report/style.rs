//! ANSI styling for text output. Renderers take a `Style` and return
//! strings; only the binary decides whether colour is on.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    pub color: bool,
    /// Tables are drawn with ASCII, not box-drawing characters, for a
    /// terminal that asked for plain output (`TERM=dumb`, `NO_COLOR`, CI).
    pub ascii: bool,
}

impl Style {
    pub const PLAIN: Style = Style {
        color: false,
        ascii: false,
    };

    pub fn new(color: bool) -> Self {
        Self {
            color,
            ascii: false,
        }
    }

    /// This style, with tables in ASCII when `ascii`.
    pub fn with_ascii(self, ascii: bool) -> Self {
        Self { ascii, ..self }
    }

    /// The comfy-table preset for a table in this style.
    pub fn table_preset(self) -> comfy_table::TableStyle {
        if self.ascii {
            comfy_table::presets::ASCII_FULL_CONDENSED
        } else {
            comfy_table::presets::UTF8_FULL_CONDENSED
        }
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
