//! Numbers keep the exact text they were given in. serde_json reads every
//! number that is not a 64-bit integer into an `f64`, which would turn
//! `1.50` into `1.5`, `18446744073709551615` into `18446744073709552000`
//! and `1e-400` into `0`; the guard rejects, it never rewrites, so the argv
//! gets the digits as written (or the value is refused).

use std::collections::HashMap;

use serde_json::Value;

/// A number as given: its exact JSON text, which denotes a finite `f64`
/// that is not an underflow to zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal(String);

/// Why a number's text is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecimalError {
    /// Not a JSON number (`+1`, `.5`, `1.`, `0x10`, `inf`, ` 1`).
    Syntax,
    /// Beyond the range of a 64-bit float.
    TooLarge,
    /// Not zero, but too small for a 64-bit float: it would read as 0.
    TooSmall,
}

impl DecimalError {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Syntax => "is not a JSON number",
            Self::TooLarge => "is too large for a 64-bit float",
            Self::TooSmall => "is too small for a 64-bit float (it would read as 0)",
        }
    }
}

impl Decimal {
    /// `text` when it is one JSON number, exactly, that a 64-bit float can
    /// hold without overflowing or underflowing to zero.
    pub fn parse(text: &str) -> Result<Self, DecimalError> {
        if !is_json_number(text) {
            return Err(DecimalError::Syntax);
        }
        let value: f64 = text.parse().map_err(|_| DecimalError::Syntax)?;
        if !value.is_finite() {
            return Err(DecimalError::TooLarge);
        }
        if value == 0.0 && mantissa_has_nonzero_digit(text) {
            return Err(DecimalError::TooSmall);
        }
        Ok(Self(text.to_owned()))
    }

    /// The shortest decimal text that reads back as `value`, without an
    /// exponent (Rust's `Display`), for values that never had a text (a
    /// declaration's default read from YAML).
    pub fn from_f64(value: f64) -> Self {
        Self(value.to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn to_f64(&self) -> f64 {
        self.0.parse().unwrap_or(f64::NAN)
    }

    /// The number as a JSON value (for display; the digits may be rounded
    /// to what JSON output can hold).
    pub fn to_json(&self) -> Value {
        serde_json::from_str::<serde_json::Number>(&self.0)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

pub use crate::contract::bounds::is_json_number;

fn mantissa_has_nonzero_digit(text: &str) -> bool {
    text.split(['e', 'E'])
        .next()
        .is_some_and(|mantissa| mantissa.bytes().any(|byte| matches!(byte, b'1'..=b'9')))
}

/// The exact text of each number in a parsed JSON document, looked up by
/// JSON pointer (`/count`, `/sizes/1`). Stored as a tree that mirrors the
/// document, so each key is held once: memory stays linear in the input
/// however long the keys or deep the nesting (a pointer string per number
/// would copy a long key once per number below it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NumberTexts {
    root: NumberNode,
    /// The document arrived parsed, with no text: each number's text is
    /// serde_json's rendering of its value.
    rendered: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct NumberNode {
    text: Option<String>,
    children: HashMap<String, NumberNode>,
}

impl NumberTexts {
    /// For a document that arrived already parsed (an MCP call's
    /// `arguments`): nothing is recorded, and each number's text is what
    /// serde_json prints for it, as if the document had been written out
    /// and read back.
    pub fn rendered() -> Self {
        Self {
            root: NumberNode::default(),
            rendered: true,
        }
    }

    /// The text of the number at `pointer`: as given, or serde_json's
    /// rendering for a document that had no text; `None` when neither
    /// (a declaration's default, which gets its shortest decimal form).
    pub fn text_of<'a>(
        &'a self,
        pointer: &str,
        number: &serde_json::Number,
    ) -> Option<std::borrow::Cow<'a, str>> {
        if self.rendered {
            return Some(std::borrow::Cow::Owned(number.to_string()));
        }
        self.get(pointer).map(std::borrow::Cow::Borrowed)
    }

    /// Records the numbers of `value`, parsed from `text`, under `prefix`
    /// (`""` for a whole document). The number literals of the text and the
    /// numbers of the value are matched in document order, which
    /// `preserve_order` and the refusal of duplicate keys keep the same.
    pub fn record(&mut self, text: &str, value: &Value, prefix: &str) {
        let literals = number_literals(text);
        if literals.is_empty() || literals.len() != count_numbers(value) {
            return;
        }
        let mut node = &mut self.root;
        for token in pointer_tokens(prefix) {
            node = node.children.entry(token).or_default();
        }
        let mut literals = literals.into_iter();
        fill(node, value, &mut literals);
    }

    /// [`Self::record`] for a whole document that is an object.
    pub fn record_object(&mut self, text: &str, object: &serde_json::Map<String, Value>) {
        let literals = number_literals(text);
        if literals.len() != object.values().map(count_numbers).sum::<usize>() {
            return;
        }
        let mut literals = literals.into_iter();
        for (key, item) in object {
            fill_child(&mut self.root, key.clone(), item, &mut literals);
        }
    }

    pub fn get(&self, pointer: &str) -> Option<&str> {
        let mut node = &self.root;
        for token in pointer_tokens(pointer) {
            node = node.children.get(&token)?;
        }
        node.text.as_deref()
    }
}

/// The unescaped tokens of a JSON pointer (`/a~1b/0` is `a/b`, `0`).
fn pointer_tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
}

fn count_numbers(value: &Value) -> usize {
    match value {
        Value::Number(_) => 1,
        Value::Array(items) => items.iter().map(count_numbers).sum(),
        Value::Object(object) => object.values().map(count_numbers).sum(),
        _ => 0,
    }
}

/// Gives each number under `value` its literal, in document order; true
/// when `value` holds a number. Only the paths to numbers get nodes: an
/// array of strings costs nothing.
fn fill<'a>(
    node: &mut NumberNode,
    value: &Value,
    literals: &mut impl Iterator<Item = &'a str>,
) -> bool {
    match value {
        Value::Number(_) => {
            node.text = literals.next().map(str::to_owned);
            true
        }
        Value::Array(items) => {
            let mut any = false;
            for (index, item) in items.iter().enumerate() {
                any |= fill_child(node, index.to_string(), item, literals);
            }
            any
        }
        Value::Object(object) => {
            let mut any = false;
            for (key, item) in object {
                any |= fill_child(node, key.clone(), item, literals);
            }
            any
        }
        _ => false,
    }
}

fn fill_child<'a>(
    node: &mut NumberNode,
    token: String,
    value: &Value,
    literals: &mut impl Iterator<Item = &'a str>,
) -> bool {
    if !matches!(value, Value::Number(_) | Value::Array(_) | Value::Object(_)) {
        return false;
    }
    let mut child = NumberNode::default();
    let found = fill(&mut child, value, literals);
    if found {
        node.children.insert(token, child);
    }
    found
}

/// Appends `/token` to a JSON pointer.
pub fn pointer_child(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// The number literals of a JSON text, in order (strings skipped).
fn number_literals(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut literals = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'"' => {
                index += 1;
                while index < bytes.len() && bytes[index] != b'"' {
                    index += if bytes[index] == b'\\' { 2 } else { 1 };
                }
                index += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = index;
                while index < bytes.len()
                    && matches!(bytes[index], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    index += 1;
                }
                literals.push(&text[start..index]);
            }
            _ => index += 1,
        }
    }
    literals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_keep_their_text_or_are_refused() {
        for ok in [
            "0",
            "-1",
            "1.50",
            "1e3",
            "1E+2",
            "18446744073709551615",
            "4503599627370497.5",
            "0.0",
            "-0",
            "0e5",
        ] {
            assert_eq!(Decimal::parse(ok).map(|d| d.0), Ok(ok.to_owned()), "{ok}");
        }
        for (bad, why) in [
            ("+1", DecimalError::Syntax),
            (".5", DecimalError::Syntax),
            ("1.", DecimalError::Syntax),
            ("01", DecimalError::Syntax),
            (" 1", DecimalError::Syntax),
            ("NaN", DecimalError::Syntax),
            ("0x10", DecimalError::Syntax),
            ("1e400", DecimalError::TooLarge),
            ("1e-400", DecimalError::TooSmall),
            ("-2.5e-999", DecimalError::TooSmall),
        ] {
            assert_eq!(Decimal::parse(bad), Err(why), "{bad}");
        }
    }

    #[test]
    fn number_texts_follow_document_order() {
        let text =
            r#"{"a": 1.50, "s": "x 2 \" 3", "b": [1e3, {"c": -0.0}], "d": 18446744073709551615}"#;
        let value: Value = crate::contract::value::from_json(text).unwrap();
        let mut texts = NumberTexts::default();
        texts.record(text, &value, "");
        assert_eq!(texts.get("/a"), Some("1.50"));
        assert_eq!(texts.get("/b/0"), Some("1e3"));
        assert_eq!(texts.get("/b/1/c"), Some("-0.0"));
        assert_eq!(texts.get("/d"), Some("18446744073709551615"));
        assert_eq!(texts.get("/s"), None);
    }

    #[test]
    fn long_keys_are_stored_once() {
        // A 100 KB key over 10k numbers: pointer strings would hold 1 GB.
        let key = "k".repeat(100_000);
        let numbers = vec!["1"; 10_000].join(",");
        let text = format!(r#"{{"{key}": [{numbers}], "a/b~": 2.50}}"#);
        let value: Value = crate::contract::value::from_json(&text).unwrap();
        let mut texts = NumberTexts::default();
        texts.record_object(&text, value.as_object().unwrap());
        assert_eq!(texts.get(&format!("/{key}/9999")), Some("1"));
        assert_eq!(texts.get("/a~1b~0"), Some("2.50"));
        assert_eq!(texts.root.children.len(), 2);
        assert_eq!(texts.root.children[&key].children.len(), 10_000);
    }
}
