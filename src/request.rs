//! The ids that tie an envelope, its audit records and the child's own logs
//! together (REQ-F-022, REQ-F-024, REQ-F-025).
//!
//! - `request_id`: new for each request (a CLI process is one request; an
//!   MCP server makes one per tool call), a random UUID.
//! - `trace_id`: the caller's `TOOL_TRACE_ID`, when it is set and sane, so
//!   a trace that spans tools carries through aigent (else a W3C
//!   `TRACEPARENT`); the child receives it
//!   (or the request id when there is no trace) as `TOOL_TRACE_ID`.

use std::sync::OnceLock;

use serde::Serialize;

/// The variable that carries a trace id in and out.
pub const TRACE_VARIABLE: &str = "TOOL_TRACE_ID";

/// A W3C `traceparent` in the environment (the OpenTelemetry convention
/// for carrying a trace into a process), used when `TOOL_TRACE_ID` is not
/// set; audit export makes its span the parent of the records' spans.
pub const TRACEPARENT_VARIABLE: &str = "TRACEPARENT";

/// The version of the envelope's shape, in every `meta`.
pub const ENVELOPE_SCHEMA_VERSION: &str = "1.0";

/// A trace id longer than this, or holding anything but printable ASCII, is
/// ignored: it is copied into every record and passed to children.
const MAX_TRACE_ID: usize = 128;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestIds {
    pub request_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
}

impl RequestIds {
    /// A new request, traced by `TOOL_TRACE_ID` from the environment.
    pub fn new() -> Self {
        let trace = std::env::var(TRACE_VARIABLE)
            .ok()
            .filter(|trace| !trace.is_empty())
            .or_else(|| std::env::var(TRACEPARENT_VARIABLE).ok());
        Self::with_trace(trace.as_deref())
    }

    /// A new request within the trace `trace` (ignored unless sane).
    pub fn with_trace(trace: Option<&str>) -> Self {
        Self {
            request_id: random_uuid(),
            trace_id: trace.filter(|id| is_sane_trace_id(id)).map(str::to_owned),
        }
    }

    /// The request this process serves: made once, on first use.
    pub fn current() -> &'static Self {
        static CURRENT: OnceLock<RequestIds> = OnceLock::new();
        CURRENT.get_or_init(Self::new)
    }

    /// What the child gets as `TOOL_TRACE_ID`.
    pub fn child_trace_id(&self) -> &str {
        self.trace_id.as_deref().unwrap_or(&self.request_id)
    }
}

impl Default for RequestIds {
    fn default() -> Self {
        Self::new()
    }
}

fn is_sane_trace_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_TRACE_ID && id.bytes().all(|byte| byte.is_ascii_graphic())
}

/// A version 4 UUID. Without a random source (which no supported platform
/// lacks) the time and the process id stand in: an id must still be made.
fn random_uuid() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos());
        bytes = (nanos ^ (u128::from(std::process::id()) << 96)).to_le_bytes();
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_are_v4_uuids_and_differ() {
        let a = RequestIds::with_trace(None);
        let b = RequestIds::with_trace(None);
        assert_ne!(a.request_id, b.request_id);
        let id = &a.request_id;
        assert_eq!(id.len(), 36, "{id}");
        assert_eq!(&id[14..15], "4", "{id}");
        assert!("89ab".contains(&id[19..20]), "{id}");
        assert_eq!(a.child_trace_id(), a.request_id);
    }

    #[test]
    fn only_a_sane_trace_id_is_kept() {
        assert_eq!(
            RequestIds::with_trace(Some("trace-1")).trace_id.as_deref(),
            Some("trace-1")
        );
        for bad in ["", "a b", "x\ny", "\u{1b}[2J", &"t".repeat(129)] {
            assert_eq!(RequestIds::with_trace(Some(bad)).trace_id, None, "{bad:?}");
        }
        let traced = RequestIds::with_trace(Some("t-9"));
        assert_eq!(traced.child_trace_id(), "t-9");
    }
}
