//! The line formats of `--output` (CLI Agent Spec REQ-O-001): a listing's
//! items written one per line, as JSON objects (`jsonl`), tab-separated
//! cells under a header (`tsv`), or bare cells (`plain`). The command
//! says which array of its `data` holds the items and which of their
//! fields are the columns ([`Rows`]); everything else is written the same
//! way for every listing.

use std::io::{self, Write};

use serde_json::{Map, Value};

/// Where a listing's items are in its `data`, and the columns of its
/// tabular forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rows {
    /// The key of the array in `data` (`commands`, `records`).
    pub field: &'static str,
    /// The columns, in order: a field of the item, a dotted path for a
    /// nested one (`tokens.body`). The header is the column's own text.
    pub columns: &'static [&'static str],
}

/// The line formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineFormat {
    Jsonl,
    Tsv,
    Plain,
}

impl Rows {
    /// The items of `data`, if it holds this listing.
    pub fn items<'a>(&self, data: &'a Value) -> Option<&'a [Value]> {
        data.get(self.field)?.as_array().map(Vec::as_slice)
    }

    /// `data` without the items, for the summary line.
    pub fn rest(&self, data: &Value) -> Value {
        match data {
            Value::Object(map) => Value::Object(
                map.iter()
                    .filter(|(key, _)| *key != self.field)
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// The header line of `tsv`.
    pub fn write_header(&self, out: &mut dyn Write) -> io::Result<()> {
        let header: Vec<String> = self
            .columns
            .iter()
            .map(|column| cell_text(column))
            .collect();
        writeln!(out, "{}", header.join("\t"))
    }

    /// One item as a line of `format` (`jsonl`: the item whole, compact).
    pub fn write_item(
        &self,
        format: LineFormat,
        item: &Value,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match format {
            LineFormat::Jsonl => {
                serde_json::to_writer(&mut *out, item).map_err(io::Error::other)?;
                out.write_all(b"\n")
            }
            LineFormat::Tsv => {
                let cells: Vec<String> = self
                    .columns
                    .iter()
                    .map(|column| cell(lookup(item, column)))
                    .collect();
                writeln!(out, "{}", cells.join("\t"))
            }
            LineFormat::Plain => {
                let cells: Vec<String> = self
                    .columns
                    .iter()
                    .map(|column| match cell(lookup(item, column)) {
                        empty if empty.is_empty() => "-".to_owned(),
                        text => text,
                    })
                    .collect();
                writeln!(out, "{}", cells.join(" "))
            }
        }
    }
}

/// The value at a dotted path of `item`; `None` where there is none.
fn lookup<'a>(item: &'a Value, column: &str) -> Option<&'a Value> {
    column
        .split('.')
        .try_fold(item, |value, key| value.as_object()?.get(key))
}

/// A value as one cell: text as it is, numbers and booleans as JSON
/// writes them, nothing for null or a missing field, and arrays and
/// objects as compact JSON; escaped so that the cell is one cell
/// ([`cell_text`]).
pub fn cell(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => cell_text(text),
        Some(other) => cell_text(&other.to_string()),
    }
}

/// `text` with what would end a cell or a row written as an escape: a
/// backslash as `\\`, tab, newline and carriage return as `\t`, `\n`,
/// `\r`, and any other control character (ANSI escapes included) as
/// `\u{..}`, so that a row stays one line and a terminal shows the cell
/// as it is. The escaping is reversible.
pub fn cell_text(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '\\' => escaped.push_str("\\\\"),
            '\t' => escaped.push_str("\\t"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            other if other.is_control() || is_line_break(other) => {
                escaped.push_str(&format!("\\u{{{:x}}}", u32::from(other)));
            }
            other => escaped.push(other),
        }
    }
    escaped
}

/// Unicode's own line and paragraph separators, which some readers break
/// lines at though they are not control characters.
fn is_line_break(character: char) -> bool {
    matches!(character, '\u{2028}' | '\u{2029}')
}

/// The last line of a listing in `jsonl` (REQ-O-004's summary line):
/// `_summary: true`, the envelope's `meta` fields at the top level (the
/// pagination among them), then `ok`, `error`, `warnings`, and `data`
/// without the items (a validation's counts, the registry listed).
pub fn summary_line(envelope: &Value, rest_of_data: Value) -> Value {
    let mut line = Map::new();
    line.insert("_summary".to_owned(), Value::Bool(true));
    if let Some(Value::Object(meta)) = envelope.get("meta") {
        for (key, value) in meta {
            line.insert(key.clone(), value.clone());
        }
    }
    for key in ["ok", "error", "warnings"] {
        line.insert(
            key.to_owned(),
            envelope.get(key).cloned().unwrap_or(Value::Null),
        );
    }
    line.insert("data".to_owned(), rest_of_data);
    Value::Object(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ROWS: Rows = Rows {
        field: "items",
        columns: &["name", "tokens.body", "valid", "tags", "missing"],
    };

    fn written(format: LineFormat, item: &Value) -> String {
        let mut out = Vec::new();
        ROWS.write_item(format, item, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_tsv_row_has_one_cell_per_column_whatever_the_values_hold() {
        let item = json!({
            "name": "a\tb\nc\\d\u{1b}[31m",
            "tokens": {"body": 12},
            "valid": true,
            "tags": ["x", "y\tz"],
        });
        let line = written(LineFormat::Tsv, &item);
        assert_eq!(line.matches('\n').count(), 1, "{line:?}");
        let cells: Vec<&str> = line.trim_end_matches('\n').split('\t').collect();
        assert_eq!(
            cells,
            [
                "a\\tb\\nc\\\\d\\u{1b}[31m",
                "12",
                "true",
                "[\"x\",\"y\\\\tz\"]",
                ""
            ]
        );
    }

    #[test]
    fn the_header_names_the_columns() {
        let mut out = Vec::new();
        ROWS.write_header(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name\ttokens.body\tvalid\ttags\tmissing\n"
        );
    }

    #[test]
    fn plain_separates_cells_by_a_space_and_shows_an_empty_one() {
        let item = json!({"name": "n", "tokens": {"body": 1}, "valid": false});
        assert_eq!(written(LineFormat::Plain, &item), "n 1 false - -\n");
    }

    #[test]
    fn a_jsonl_line_is_the_whole_item() {
        let item = json!({"name": "n\nm", "extra": {"kept": [1, 2]}});
        let line = written(LineFormat::Jsonl, &item);
        assert_eq!(line.matches('\n').count(), 1);
        let parsed: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed, item);
    }

    #[test]
    fn the_summary_carries_meta_flat_and_the_data_without_the_items() {
        let envelope = json!({
            "ok": false,
            "data": {"items": [1], "summary": {"checked": 1}},
            "error": {"code": "VALIDATION_FAILED"},
            "warnings": ["w"],
            "meta": {"truncated": true, "duration_ms": 3},
        });
        let line = summary_line(&envelope, ROWS.rest(&envelope["data"]));
        assert_eq!(
            line,
            json!({
                "_summary": true,
                "truncated": true,
                "duration_ms": 3,
                "ok": false,
                "error": {"code": "VALIDATION_FAILED"},
                "warnings": ["w"],
                "data": {"summary": {"checked": 1}},
            })
        );
    }

    #[test]
    fn every_control_and_line_separator_is_escaped() {
        for character in ('\0'..='\u{a0}').chain(['\u{2028}', '\u{2029}']) {
            let escaped = cell_text(&character.to_string());
            assert!(
                !escaped.chars().any(|c| c.is_control() || is_line_break(c)),
                "{character:?} -> {escaped:?}"
            );
        }
    }
}
