//! The hash chain that makes an edited, deleted or reordered record
//! detectable.
//!
//! Every record carries `seq` (its place in the log: 1, 2, 3, ...,
//! continuing across rotated files) and `prev`, the SHA-256 (lowercase
//! hex) of the bytes of the line before it, without its newline. The first
//! record's `prev` is the hash of [`GENESIS_MARKER`].
//!
//! A write that fails part-way (a full disk) leaves a torn line. The next
//! writer ends it with a newline, chains to it like any line, and says in
//! `torn` how many such lines come right before its record, so a reader
//! can tell a failed write that was accounted for from a line slipped in.
//! A torn line never counts as a record: its `seq` is used again.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// Where the chain stands at the end of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    /// The file ends with a newline (or is empty).
    pub terminated: bool,
    pub next_seq: u64,
    pub prev: String,
    /// Torn lines (cut-short writes) after the last record.
    pub torn: u64,
}

impl Tail {
    pub(super) fn genesis() -> Self {
        Self {
            terminated: true,
            next_seq: 1,
            prev: genesis(),
            torn: 0,
        }
    }
}

/// What the first record's `prev` hashes.
pub const GENESIS_MARKER: &[u8] = b"aigent audit log v1";

/// The `prev` of the first record of a log.
pub fn genesis() -> String {
    line_hash(GENESIS_MARKER)
}

/// The hash of one line (without its newline), as `prev` holds it.
pub fn line_hash(line: &[u8]) -> String {
    hex(&Sha256::digest(line))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(64), |mut text, byte| {
            let _ = write!(text, "{byte:02x}");
            text
        })
}

/// A record's place in the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub seq: u64,
    pub prev: String,
    /// Torn lines right before this record.
    pub torn: u64,
}

/// What a line of the log is.
#[derive(Debug)]
pub enum Line {
    /// A chained record.
    Record(Link, Map<String, Value>),
    /// A JSON object without chain fields: written before the chain
    /// existed.
    Unchained(Map<String, Value>),
    /// Anything else: a torn write, or text that is no record at all.
    Junk,
}

/// Reads one line (without its newline).
pub fn parse(line: &[u8]) -> Line {
    let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(line) else {
        return Line::Junk;
    };
    if !object.contains_key("seq") && !object.contains_key("prev") {
        return Line::Unchained(object);
    }
    let seq = object.get("seq").and_then(Value::as_u64);
    let prev = object
        .get("prev")
        .and_then(Value::as_str)
        .filter(|prev| is_hash(prev));
    let torn = object.get("torn").map(Value::as_u64);
    match (seq, prev, torn) {
        (Some(seq), Some(prev), None | Some(Some(_))) if seq > 0 => Line::Record(
            Link {
                seq,
                prev: prev.to_owned(),
                torn: torn.flatten().unwrap_or(0),
            },
            object,
        ),
        _ => Line::Junk,
    }
}

/// Whether `line` can be what a write cut short left: the beginning of a
/// record line (every one starts `{"seq":`), not itself a complete JSON
/// value. Only such a line is ever accounted for as torn: a complete line
/// that is not linked into the chain was inserted.
pub fn is_partial_record(line: &[u8]) -> bool {
    const START: &[u8] = b"{\"seq\":";
    !line.is_empty()
        && (START.starts_with(line) || line.starts_with(START))
        && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_err()
}

/// 64 lowercase hex digits.
pub fn is_hash(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genesis_is_the_hash_of_the_marker() {
        assert_eq!(genesis(), line_hash(GENESIS_MARKER));
        assert_eq!(genesis().len(), 64);
        assert_eq!(
            line_hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn lines_are_records_unchained_or_junk() {
        let prev = line_hash(b"x");
        assert!(matches!(
            parse(format!(r#"{{"seq":3,"prev":"{prev}","torn":1}}"#).as_bytes()),
            Line::Record(
                Link {
                    seq: 3,
                    torn: 1,
                    ..
                },
                _
            )
        ));
        assert!(matches!(parse(br#"{"event":"X"}"#), Line::Unchained(_)));
        for junk in [
            &b"{\"seq\":3,\"prev\":\"ab\"}"[..],
            b"{\"seq\":0,\"prev\":\"ab\"}",
            b"{\"seq\":\"3\"}",
            b"[1]",
            b"{\"seq\":1,\"prev\":",
            b"",
            b"\xff\xfe",
        ] {
            assert!(matches!(parse(junk), Line::Junk), "{junk:?}");
        }
        let uppercase = prev.to_uppercase();
        assert!(matches!(
            parse(format!(r#"{{"seq":3,"prev":"{uppercase}"}}"#).as_bytes()),
            Line::Junk
        ));
    }
}
