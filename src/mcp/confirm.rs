//! Confirming a destructive call, in the way the negotiated revision
//! expects:
//!
//! - 2026-07-28: no server-to-client requests. The first `tools/call` gets
//!   an `input_required` result carrying the elicitation and a sealed
//!   `requestState`; the client asks the person and retries the same call
//!   with `inputResponses` and the state.
//! - older revisions: `elicitation/create`, sent while the call waits.
//! - a client with neither: refused.
//!
//! The round trip is stateless: everything the second round needs is in
//! the state, sealed with rmcp's HMAC-SHA256 codec under a key only the
//! server holds, bound (as associated data) to the tool's name and a
//! digest of its arguments, and valid for [`STATE_TTL`]. A client cannot
//! forge a state, change the arguments under one, or use one for another
//! tool. A state is also single-use within one server process. Both rounds
//! are audited under the first round's request id.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rmcp::model::{RequestStateCodec, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::exec::audit::AuditRecord;
use crate::request::RequestIds;

/// How long a confirmation request stays answerable.
pub const STATE_TTL: Duration = Duration::from_secs(10 * 60);

/// The key under which the confirmation goes in `inputRequests` and comes
/// back in `inputResponses`.
pub const INPUT_KEY: &str = "confirm";

/// The audit event of a confirmation request (the first round).
pub const EVENT_CONFIRMATION_REQUESTED: &str = "COMMAND_CONFIRMATION_REQUESTED";

/// Domain separation: these states are for nothing but confirmations.
const CONTEXT: &[u8] = b"aigent/mcp/confirm/v1";

/// What the second round brings back, under the seal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Pending {
    request_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trace_id: Option<String>,
    /// Makes each state distinct, so one can be used once.
    nonce: String,
}

/// Why a second round is not a confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateError {
    /// Forged, altered, for another call, or from another server's key.
    Invalid,
    Expired,
    /// Already answered once.
    Used,
}

impl StateError {
    pub fn reason(self) -> &'static str {
        match self {
            StateError::Invalid => {
                "the confirmation state did not verify (altered, forged, or for another call)"
            }
            StateError::Expired => "the confirmation request expired",
            StateError::Used => "that confirmation was already used",
        }
    }
}

/// Seals and opens confirmation states with the server's key.
pub struct Sealer {
    codec: RequestStateCodec,
    /// Nonces answered, and when they stop mattering.
    used: Mutex<HashMap<String, Instant>>,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer")
    }
}

impl Sealer {
    /// A sealer with `key` (at least 32 bytes; replicas that share
    /// retries share it), or a fresh random key when `None`.
    pub fn new(key: Option<&[u8]>) -> Result<Self, String> {
        let codec = match key {
            Some(key) => RequestStateCodec::try_new(key.to_vec()),
            None => {
                let mut key = [0u8; 32];
                getrandom::fill(&mut key).map_err(|err| err.to_string())?;
                RequestStateCodec::try_new(key.to_vec())
            }
        }
        .map_err(|err| err.to_string())?;
        Ok(Self {
            codec,
            used: Mutex::new(HashMap::new()),
        })
    }

    /// A state for the first round of `tool` called with `arguments`.
    pub fn seal(
        &self,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
        ids: &RequestIds,
    ) -> String {
        let mut nonce = [0u8; 16];
        // Without a nonce the state is still sealed and bound; it is only
        // not distinguishable from another of the same request.
        let _ = getrandom::fill(&mut nonce);
        let pending = Pending {
            request_id: ids.request_id.clone(),
            trace_id: ids.trace_id.clone(),
            nonce: hex(&nonce),
        };
        let bound = binding(tool, arguments);
        let payload = serde_json::to_vec(&pending).unwrap_or_default();
        self.codec.seal_with(
            &payload,
            &SealOptions::new().associated_data(&bound).ttl(STATE_TTL),
        )
    }

    /// Opens a second round's state for `tool` with `arguments`: the first
    /// round's request ids.
    pub fn open(
        &self,
        state: &str,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
    ) -> Result<RequestIds, StateError> {
        let bound = binding(tool, arguments);
        let payload = self
            .codec
            .open_with(state, &bound)
            .map_err(|err| match err {
                rmcp::model::RequestStateError::Expired => StateError::Expired,
                _ => StateError::Invalid,
            })?;
        let pending: Pending = serde_json::from_slice(&payload).map_err(|_| StateError::Invalid)?;
        let now = Instant::now();
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        used.retain(|_, until| *until > now);
        if used
            .insert(pending.nonce.clone(), now + STATE_TTL)
            .is_some()
        {
            return Err(StateError::Used);
        }
        Ok(RequestIds {
            request_id: pending.request_id,
            trace_id: pending.trace_id,
        })
    }
}

/// The associated data: the tool and a digest of its arguments, in a
/// canonical form (keys sorted at every level), so that the retry must be
/// the same call.
fn binding(tool: &str, arguments: Option<&Map<String, Value>>) -> Vec<u8> {
    let mut hasher = Sha256::new();
    match arguments {
        Some(arguments) => hash_canonical_object(&mut hasher, arguments),
        None => hasher.update(b"{}"),
    }
    let mut bound = CONTEXT.to_vec();
    bound.push(0);
    bound.extend_from_slice(tool.as_bytes());
    bound.push(0);
    bound.extend_from_slice(&hasher.finalize());
    bound
}

/// Feeds `hasher` the JSON text of a value with object keys sorted at
/// every level (compact, as serde_json writes it), without building that
/// text or a sorted copy: the arguments may be large.
fn hash_canonical(hasher: &mut Sha256, value: &Value) {
    match value {
        Value::Object(object) => hash_canonical_object(hasher, object),
        Value::Array(items) => {
            hasher.update(b"[");
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    hasher.update(b",");
                }
                hash_canonical(hasher, item);
            }
            hasher.update(b"]");
        }
        scalar => {
            let _ = serde_json::to_writer(HashWriter(hasher), scalar);
        }
    }
}

fn hash_canonical_object(hasher: &mut Sha256, object: &Map<String, Value>) {
    let mut entries: Vec<(&String, &Value)> = object.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    hasher.update(b"{");
    for (index, (key, item)) in entries.into_iter().enumerate() {
        if index > 0 {
            hasher.update(b",");
        }
        let _ = serde_json::to_writer(HashWriter(hasher), key);
        hasher.update(b":");
        hash_canonical(hasher, item);
    }
    hasher.update(b"}");
}

/// Text written into a hash.
struct HashWriter<'a>(&'a mut Sha256);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The elicitation that asks the person: a yes/no form showing the argv
/// (sensitive values redacted).
pub fn elicitation(command: &str, redacted_argv: &[String]) -> Value {
    json!({
        "mode": "form",
        "message": format!("`{command}` is destructive. Run it?\n\n{}", redacted_argv.join(" ")),
        "requestedSchema": {
            "type": "object",
            "properties": {
                "confirm": {"type": "boolean", "title": "Run this destructive command"}
            },
            "required": ["confirm"],
        },
    })
}

/// The person's answer, as an `ElicitResult` in JSON: `Ok` only for an
/// accepted form with `confirm: true`.
pub fn answer(result: Option<&Value>) -> Result<(), &'static str> {
    let Some(result) = result else {
        return Err("no answer to the confirmation came back");
    };
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => {
            let confirmed = result
                .get("content")
                .and_then(|content| content.get("confirm"))
                .and_then(Value::as_bool);
            if confirmed == Some(true) {
                Ok(())
            } else {
                Err("the user did not confirm")
            }
        }
        Some("decline") | Some("cancel") => Err("the user declined"),
        _ => Err("the answer to the confirmation was not understood"),
    }
}

/// Writes the first round's record: what would run, and which revision
/// asked. Fails closed: when it cannot be written, nobody is asked.
pub fn audit_request(
    audit_log: &crate::exec::audit::kept::KeptLog,
    command: &str,
    redacted_argv: &[String],
    ids: &RequestIds,
    revision: &str,
) -> Result<(), String> {
    let record = AuditRecord::new(EVENT_CONFIRMATION_REQUESTED, command)
        .with_request(ids)
        .with("argv", redacted_argv.to_vec())
        .with("protocol_version", revision);
    audit_log.append(&record).map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn the_binding_hashes_the_sorted_text_without_building_it() {
        // The text the binding stood for before it was streamed: keys
        // sorted at every level, written compactly.
        fn sorted(value: &Value) -> Value {
            match value {
                Value::Object(object) => {
                    let mut keys: Vec<&String> = object.keys().collect();
                    keys.sort();
                    Value::Object(
                        keys.into_iter()
                            .map(|key| (key.clone(), sorted(&object[key])))
                            .collect(),
                    )
                }
                Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
                other => other.clone(),
            }
        }
        let arguments = args(json!({
            "z": [3, {"b": "\u{1}\"q", "a": null}, 1.5, true],
            "a": {"é": -0.0, "b": 1e300, "a": 18446744073709551615u64},
            "m": ""
        }));
        let text = sorted(&Value::Object(arguments.clone())).to_string();
        let mut expected = Sha256::new();
        expected.update(text.as_bytes());
        let mut hasher = Sha256::new();
        hash_canonical_object(&mut hasher, &arguments);
        assert_eq!(hasher.finalize(), expected.finalize());
        assert_eq!(binding("t", None), binding("t", Some(&Map::new())));
    }

    #[test]
    fn a_state_opens_once_for_the_same_call_only() {
        let sealer = Sealer::new(None).unwrap();
        let ids = RequestIds::with_trace(Some("trace-1"));
        let first = args(json!({"b": 1, "a": {"y": 2, "x": [1, 2]}}));
        let state = sealer.seal("wipe", Some(&first), &ids);
        // Another tool, other arguments: refused, and the state not spent.
        assert_eq!(
            sealer.open(&state, "wipe2", Some(&first)),
            Err(StateError::Invalid)
        );
        let other = args(json!({"b": 2, "a": {"y": 2, "x": [1, 2]}}));
        assert_eq!(
            sealer.open(&state, "wipe", Some(&other)),
            Err(StateError::Invalid)
        );
        // The same arguments in another key order are the same call.
        let reordered = args(json!({"a": {"x": [1, 2], "y": 2}, "b": 1}));
        assert_eq!(sealer.open(&state, "wipe", Some(&reordered)), Ok(ids));
        assert_eq!(
            sealer.open(&state, "wipe", Some(&first)),
            Err(StateError::Used)
        );
    }

    #[test]
    fn a_forged_or_foreign_state_is_refused() {
        let sealer = Sealer::new(None).unwrap();
        let other = Sealer::new(None).unwrap();
        let ids = RequestIds::new();
        let state = other.seal("wipe", None, &ids);
        assert_eq!(sealer.open(&state, "wipe", None), Err(StateError::Invalid));
        for forged in ["", "confirmed", "rs1.e30.AAAA", &format!("{state}x")] {
            assert_eq!(
                sealer.open(forged, "wipe", None),
                Err(StateError::Invalid),
                "{forged}"
            );
        }
        // A shared key opens on another replica.
        let key = [7u8; 32];
        let one = Sealer::new(Some(&key)).unwrap();
        let two = Sealer::new(Some(&key)).unwrap();
        let state = one.seal("wipe", None, &ids);
        assert_eq!(two.open(&state, "wipe", None), Ok(ids));
        assert!(Sealer::new(Some(b"short")).is_err());
    }

    #[test]
    fn only_an_accepted_yes_confirms() {
        assert_eq!(
            answer(Some(
                &json!({"action": "accept", "content": {"confirm": true}})
            )),
            Ok(())
        );
        for no in [
            json!({"action": "accept", "content": {"confirm": false}}),
            json!({"action": "accept", "content": {"confirm": "true"}}),
            json!({"action": "accept"}),
            json!({"action": "decline"}),
            json!({"action": "cancel"}),
            json!({"action": "yes"}),
            json!("accept"),
        ] {
            assert!(answer(Some(&no)).is_err(), "{no}");
        }
        assert!(answer(None).is_err());
    }
}
