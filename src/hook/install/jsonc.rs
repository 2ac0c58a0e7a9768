//! A JSON reader that keeps where everything is, so that aigent's entry can
//! be added to a client's settings file (and taken out again) by splicing
//! text, leaving every other byte as it was: key order, indentation, number
//! spellings, escapes and, where the client accepts them, comments.
//!
//! Comments (`//` and `/* */`) are accepted only when the caller says the
//! client reads them (Gemini CLI strips them before parsing); trailing
//! commas never are, as no client in this table accepts them. Time is
//! linear in the input and nesting is bounded, so a hostile file can
//! neither hang nor overflow the stack.

use std::ops::Range;

/// Nesting deeper than this is refused: no settings file needs it, and the
/// reader recurses once per level.
pub const MAX_DEPTH: usize = 256;

/// A parsed value with its byte range in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Object(Vec<Member>),
    Array(Vec<Element>),
    /// The decoded text (lone surrogates become U+FFFD).
    String(String),
    Number,
    Bool(bool),
    Null,
}

/// One `"key": value` of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_span: Range<usize>,
    pub value: Node,
    /// Where the comma after this member is, if there is one.
    pub comma: Option<usize>,
}

/// One value of an array.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub value: Node,
    pub comma: Option<usize>,
}

impl Member {
    /// From the key's first byte to the value's last.
    pub fn span(&self) -> Range<usize> {
        self.key_span.start..self.value.span.end
    }
}

impl Node {
    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Element]> {
        match &self.kind {
            Kind::Array(elements) => Some(elements),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(text) => Some(text),
            _ => None,
        }
    }

    /// What kind of value this is, in words, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Object(_) => "an object",
            Kind::Array(_) => "an array",
            Kind::String(_) => "a string",
            Kind::Number => "a number",
            Kind::Bool(_) => "a boolean",
            Kind::Null => "null",
        }
    }
}

/// Every member of `members` named `key`, in order (more than one is a
/// duplicate key, which JSON readers resolve differently).
pub fn members_named<'a>(
    members: &'a [Member],
    key: &str,
) -> impl Iterator<Item = &'a Member> + use<'a> {
    let key = key.to_owned();
    members.iter().filter(move |member| member.key == key)
}

/// A parsed document: the root value and where comments were seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub root: Node,
    /// Byte ranges of every comment, in order.
    pub comments: Vec<Range<usize>>,
}

/// Why the text is not JSON (or JSONC), and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

/// Parses `text` as one JSON value, with comments where `allow_comments`.
/// A leading byte order mark is skipped.
pub fn parse(text: &str, allow_comments: bool) -> Result<Document, ParseError> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        allow_comments,
        comments: Vec::new(),
    };
    if text.starts_with('\u{feff}') {
        parser.pos = '\u{feff}'.len_utf8();
    }
    parser.skip_trivia()?;
    if parser.pos == parser.bytes.len() {
        return Err(parser.error("the file is empty; a settings file holds one JSON object"));
    }
    let root = parser.value(0)?;
    parser.skip_trivia()?;
    if parser.pos < parser.bytes.len() {
        return Err(parser.error("unexpected text after the JSON value"));
    }
    Ok(Document {
        root,
        comments: parser.comments,
    })
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    allow_comments: bool,
    comments: Vec<Range<usize>>,
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            offset: self.pos,
            message: message.into(),
        }
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            offset,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Whitespace and, where allowed, comments.
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') => {
                    let start = self.pos;
                    let next = self.bytes.get(self.pos + 1).copied();
                    if !matches!(next, Some(b'/' | b'*')) {
                        return Err(self.error("unexpected `/`"));
                    }
                    if !self.allow_comments {
                        return Err(self.error(
                            "a comment; this client reads its settings as plain JSON, which has none",
                        ));
                    }
                    if next == Some(b'/') {
                        let end = memchr::memchr(b'\n', &self.bytes[start..])
                            .map_or(self.bytes.len(), |at| start + at);
                        self.pos = end;
                    } else {
                        let body = start + 2;
                        let Some(at) = memchr::memmem::find(&self.bytes[body..], b"*/") else {
                            return Err(self.error("a `/*` comment that is never closed"));
                        };
                        self.pos = body + at + 2;
                    }
                    self.comments.push(start..self.pos);
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.error(format!("nested more than {MAX_DEPTH} levels deep")));
        }
        let start = self.pos;
        let kind = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b't') => self.literal("true", Kind::Bool(true))?,
            Some(b'f') => self.literal("false", Kind::Bool(false))?,
            Some(b'n') => self.literal("null", Kind::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.error("expected a JSON value")),
            None => return Err(self.error("the file ends where a value should be")),
        };
        Ok(Node {
            span: start..self.pos,
            kind,
        })
    }

    fn literal(&mut self, word: &str, kind: Kind) -> Result<Kind, ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(kind)
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    fn number(&mut self) -> Result<Kind, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error_at(start, "a malformed number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error_at(start, "a malformed number"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error_at(start, "a malformed number"));
            }
            self.digits();
        }
        Ok(Kind::Number)
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            // Copy the run up to the next quote, backslash or control byte.
            let rest = &self.bytes[self.pos..];
            let run = rest
                .iter()
                .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
                .unwrap_or(rest.len());
            out.push_str(&self.text[self.pos..self.pos + run]);
            self.pos += run;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(_) => {
                    return Err(
                        self.error("a control character inside a string (write it as an escape)")
                    );
                }
                None => return Err(self.error_at(start, "a string that is never closed")),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        let at = self.pos;
        self.pos += 1;
        let Some(byte) = self.peek() else {
            return Err(self.error_at(at, "a string that is never closed"));
        };
        self.pos += 1;
        let decoded = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4(at)?;
                if (0xD800..0xDC00).contains(&high) && self.bytes[self.pos..].starts_with(b"\\u") {
                    let mark = self.pos;
                    self.pos += 2;
                    let low = self.hex4(at)?;
                    if (0xDC00..0xE000).contains(&low) {
                        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                        char::from_u32(code).unwrap_or('\u{fffd}')
                    } else {
                        // Not a pair: the first is a lone surrogate, and the
                        // second escape is read on its own next time.
                        self.pos = mark;
                        '\u{fffd}'
                    }
                } else {
                    char::from_u32(high).unwrap_or('\u{fffd}')
                }
            }
            _ => return Err(self.error_at(at, "an unknown escape in a string")),
        };
        out.push(decoded);
        Ok(())
    }

    fn hex4(&mut self, escape: usize) -> Result<u32, ParseError> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error_at(escape, "a `\\u` escape without four hex digits"))?;
        let mut value = 0;
        for &digit in digits {
            let nibble = (digit as char)
                .to_digit(16)
                .ok_or_else(|| self.error_at(escape, "a `\\u` escape without four hex digits"))?;
            value = value * 16 + nibble;
        }
        self.pos += 4;
        Ok(value)
    }

    fn object(&mut self, depth: usize) -> Result<Kind, ParseError> {
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_trivia()?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(if members.is_empty() {
                    self.error("expected a key in double quotes or `}`")
                } else {
                    self.error("expected a key in double quotes (a trailing comma is not JSON)")
                });
            }
            let key_start = self.pos;
            let key = self.string()?;
            let key_span = key_start..self.pos;
            self.skip_trivia()?;
            if self.peek() != Some(b':') {
                return Err(self.error("expected `:` after the key"));
            }
            self.pos += 1;
            self.skip_trivia()?;
            let value = self.value(depth + 1)?;
            self.skip_trivia()?;
            match self.peek() {
                Some(b',') => {
                    members.push(Member {
                        key,
                        key_span,
                        value,
                        comma: Some(self.pos),
                    });
                    self.pos += 1;
                    self.skip_trivia()?;
                }
                Some(b'}') => {
                    members.push(Member {
                        key,
                        key_span,
                        value,
                        comma: None,
                    });
                    self.pos += 1;
                    return Ok(Kind::Object(members));
                }
                Some(_) => return Err(self.error("expected `,` or `}` after the value")),
                None => return Err(self.error("the file ends inside an object")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, ParseError> {
        self.pos += 1;
        let mut elements = Vec::new();
        self.skip_trivia()?;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Kind::Array(elements));
        }
        loop {
            if self.peek() == Some(b']') {
                return Err(self.error("a trailing comma is not JSON"));
            }
            let value = self.value(depth + 1)?;
            self.skip_trivia()?;
            match self.peek() {
                Some(b',') => {
                    elements.push(Element {
                        value,
                        comma: Some(self.pos),
                    });
                    self.pos += 1;
                    self.skip_trivia()?;
                }
                Some(b']') => {
                    elements.push(Element { value, comma: None });
                    self.pos += 1;
                    return Ok(Kind::Array(elements));
                }
                Some(_) => return Err(self.error("expected `,` or `]` after the value")),
                None => return Err(self.error("the file ends inside an array")),
            }
        }
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |at| at + 1);
    let column = text
        .get(line_start..offset)
        .map_or(offset - line_start, |part| part.chars().count())
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(node: &Node) -> Vec<&str> {
        node.as_object()
            .unwrap()
            .iter()
            .map(|member| member.key.as_str())
            .collect()
    }

    #[test]
    fn reads_values_with_their_spans() {
        let text = r#"{"a": [1, -2.5e3, true, null], "b\u00e9": "x\"y"}"#;
        let doc = parse(text, false).unwrap();
        assert_eq!(keys(&doc.root), ["a", "bé"]);
        let members = doc.root.as_object().unwrap();
        assert_eq!(
            &text[members[0].value.span.clone()],
            "[1, -2.5e3, true, null]"
        );
        assert_eq!(members[1].value.as_str(), Some("x\"y"));
        assert_eq!(members[0].comma.map(|at| &text[at..=at]), Some(","));
        assert_eq!(members[1].comma, None);
    }

    #[test]
    fn comments_only_where_allowed() {
        let text = "// top\n{ /* a */ \"a\": 1 // end\n}\n";
        assert!(parse(text, false).unwrap_err().message.contains("comment"));
        let doc = parse(text, true).unwrap();
        assert_eq!(doc.comments.len(), 3);
        assert_eq!(&text[doc.comments[1].clone()], "/* a */");
        assert!(
            parse("{} /* open", true)
                .unwrap_err()
                .message
                .contains("never closed")
        );
    }

    #[test]
    fn refuses_what_json_refuses() {
        for bad in [
            "",
            "   ",
            "{\"a\": 1,}",
            "[1,]",
            "{'a': 1}",
            "{\"a\" 1}",
            "[01]",
            "[1.]",
            "[.5]",
            "[-]",
            "[1e]",
            "\"tab\there\"",
            "\"\\x\"",
            "\"\\u12\"",
            "{} {}",
            "[tru]",
            "{\"a\": 1",
            "\"open",
        ] {
            assert!(parse(bad, true).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn surrogate_pairs_decode_and_lone_ones_do_not_fail() {
        let doc = parse(r#"["\ud83d\ude00", "\ud800", "\ud800\u0041"]"#, false).unwrap();
        let texts: Vec<&str> = doc
            .root
            .as_array()
            .unwrap()
            .iter()
            .map(|element| element.value.as_str().unwrap())
            .collect();
        assert_eq!(texts, ["😀", "\u{fffd}", "\u{fffd}A"]);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        let err = parse(&deep, false).unwrap_err();
        assert!(err.message.contains("levels deep"), "{err:?}");
        let fine = format!("{}{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1));
        assert!(parse(&fine, false).is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let doc = parse("\u{feff}{\"a\": 1}", false).unwrap();
        assert_eq!(doc.root.span.start, 3);
    }

    #[test]
    fn line_and_column_count_characters() {
        let text = "{\n  \"é\": x\n}";
        let err = parse(text, false).unwrap_err();
        assert_eq!(line_column(text, err.offset), (2, 8));
    }
}
