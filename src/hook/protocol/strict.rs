//! JSON read the way a hostile event must be read: one value, nesting
//! within serde_json's recursion limit (128), and no object key given
//! twice. serde_json's own `Value` keeps the last of two equal keys, so
//! `{"command": "ls", "command": "rm -rf ~"}` would be judged on one
//! command while another tool might read the other; no client ever sends
//! that, so it is refused.

use serde_json::Value;

use super::EventError;
use crate::contract::value::{DUPLICATE_KEY_PREFIX, strict_json};

/// Parses `text` as exactly one JSON value (the contract's strict reader,
/// which refuses a key given twice).
pub(super) fn from_str(text: &str) -> Result<Value, EventError> {
    strict_json(text).map_err(malformed)
}

/// serde_json's error as an [`EventError`], keeping its position and a
/// fixed description but none of its text (which can quote the input).
fn malformed(error: serde_json::Error) -> EventError {
    let message = error.to_string();
    let problem = if message.starts_with(DUPLICATE_KEY_PREFIX) {
        "a key appears twice"
    } else if message.starts_with("recursion limit exceeded") {
        "nested more than 128 levels deep"
    } else if error.is_eof() {
        "it ends too early"
    } else {
        "invalid syntax"
    };
    EventError::Malformed {
        problem,
        line: error.line(),
        column: error.column(),
    }
}
