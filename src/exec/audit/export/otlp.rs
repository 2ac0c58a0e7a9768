//! Audit records as OpenTelemetry spans, sent over OTLP/HTTP with protobuf
//! encoding (`POST /v1/traces`, `application/x-protobuf`).
//!
//! The messages are encoded here, field by field, from the numbers in
//! opentelemetry-proto's `trace.proto`, `common.proto` and
//! `resource.proto`; the tests decode them with the official generated
//! types. No gRPC, no TLS: a plain `http://` collector (the OpenTelemetry
//! Collector on loopback or the LAN, which forwards wherever it is told).
//!
//! Each record is one span named `execute_tool {command}` with the GenAI
//! semantic conventions' attributes (`gen_ai.operation.name`,
//! `gen_ai.tool.name`, `gen_ai.tool.call.id`) and aigent's own. The trace
//! id is the caller's (`TOOL_TRACE_ID` or a W3C `traceparent`, whose span
//! becomes the parent); without one, a hash of the request id, so a
//! request's records share a trace. The span id is a hash of the record's
//! line: sending a record twice sends the same span.

use std::io::{self, Read};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::{Deadline, Pending, write_before};

/// An `http://host:port/path` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl {
    pub host: String,
    pub port: u16,
    pub path: String,
}

impl HttpUrl {
    /// A collector's base URL (`http://localhost:4318`, traces at
    /// `/v1/traces`) or its full traces URL.
    pub fn parse(text: &str) -> Result<Self, String> {
        let rest = text.strip_prefix("http://").ok_or_else(|| {
            if text.starts_with("https://") {
                format!("{text}: https is not supported; send to a collector over http (on loopback or the LAN) that forwards over TLS")
            } else {
                format!("{text} is not an http:// URL")
            }
        })?;
        let (authority, path) = match rest.find('/') {
            Some(at) => rest.split_at(at),
            None => (rest, ""),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) if !host.ends_with(']') || host.starts_with('[') => (
                host,
                port.parse::<u16>()
                    .map_err(|_| format!("{text}: `{port}` is not a port"))?,
            ),
            _ => (authority, 80),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty()
            || host.contains(['@', ' '])
            || !path.bytes().all(|b| b.is_ascii_graphic())
        {
            return Err(format!("{text} is not a usable http:// URL"));
        }
        let path = match path {
            "" | "/" => "/v1/traces".to_owned(),
            path => path.to_owned(),
        };
        Ok(Self {
            host: host.to_owned(),
            port,
            path,
        })
    }
}

/// Sends `records` as one export request; `Err` says why it failed.
pub fn send(url: &HttpUrl, records: &[Pending], deadline: Deadline) -> io::Result<()> {
    let body = encode_request(records);
    post(url, &body, deadline)
}

/// One HTTP/1.1 POST; a 2xx status is success.
fn post(url: &HttpUrl, body: &[u8], deadline: Deadline) -> io::Result<()> {
    let address = (url.host.as_str(), url.port)
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| io::Error::other(format!("{} resolves to no address", url.host)))?;
    let mut stream = TcpStream::connect_timeout(&address, deadline.left()?)?;
    let host = if url.host.contains(':') {
        format!("[{}]:{}", url.host, url.port)
    } else {
        format!("{}:{}", url.host, url.port)
    };
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-protobuf\r\nContent-Length: {}\r\nUser-Agent: aigent/{}\r\nConnection: close\r\n\r\n",
        url.path,
        body.len(),
        env!("CARGO_PKG_VERSION")
    );
    write_before(&mut stream, head.as_bytes(), deadline)?;
    write_before(&mut stream, body, deadline)?;
    // The status line and a little of the body, never more, and never
    // past the deadline.
    let mut answer = Vec::new();
    let mut chunk = [0u8; 1024];
    while answer.len() < 4096 {
        stream.set_read_timeout(Some(deadline.left()?))?;
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => answer.extend_from_slice(&chunk[..read.min(4096 - answer.len())]),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => {
                deadline.left()?;
                return Err(err);
            }
        }
    }
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| io::Error::other("the collector's answer is not HTTP"))?;
    if (200..300).contains(&status) {
        return Ok(());
    }
    let reason: String = text
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    Err(io::Error::other(format!(
        "the collector answered {reason}{}",
        if status == 429 || status >= 500 {
            " (it may be overloaded; the records are sent again next time)"
        } else {
            ""
        }
    )))
}

/// `ExportTraceServiceRequest` with one `ResourceSpans` and one
/// `ScopeSpans` holding a span per record.
pub fn encode_request(records: &[Pending]) -> Vec<u8> {
    let mut resource = Vec::new();
    key_value(
        &mut resource,
        1,
        "service.name",
        &Attribute::Text("aigent".into()),
    );
    let mut scope = Vec::new();
    string(&mut scope, 1, "aigent.audit");
    string(&mut scope, 2, env!("CARGO_PKG_VERSION"));
    let mut scope_spans = Vec::new();
    message(&mut scope_spans, 1, &scope);
    for record in records {
        message(&mut scope_spans, 2, &encode_span(record));
    }
    let mut resource_spans = Vec::new();
    let mut resource_message = Vec::new();
    resource_message.extend_from_slice(&resource);
    message(&mut resource_spans, 1, &resource_message);
    message(&mut resource_spans, 2, &scope_spans);
    let mut request = Vec::new();
    message(&mut request, 1, &resource_spans);
    request
}

enum Attribute {
    Text(String),
    Int(i64),
    Bool(bool),
}

/// The trace and parent span a record belongs to.
fn trace_of(record: &Map<String, Value>) -> ([u8; 16], Option<[u8; 8]>) {
    let text = |key: &str| record.get(key).and_then(Value::as_str);
    if let Some(trace) = text("trace_id") {
        if let Some((trace_id, parent)) = parse_traceparent(trace) {
            return (trace_id, Some(parent));
        }
        if let Some(bytes) = super::super::sign::unhex(trace)
            && let Ok(trace_id) = <[u8; 16]>::try_from(bytes.as_slice())
            && trace_id != [0; 16]
        {
            return (trace_id, None);
        }
    }
    let seed = text("trace_id").or(text("request_id")).unwrap_or("");
    let digest = Sha256::digest(format!("aigent-trace:{seed}").as_bytes());
    let mut trace_id = [0; 16];
    trace_id.copy_from_slice(&digest[..16]);
    (trace_id, None)
}

/// A W3C `traceparent`: `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`.
pub fn parse_traceparent(text: &str) -> Option<([u8; 16], [u8; 8])> {
    let parts: Vec<&str> = text.trim().split('-').collect();
    let [version, trace, parent, flags] = parts.as_slice() else {
        return None;
    };
    if version.len() != 2 || *version == "ff" || flags.len() != 2 {
        return None;
    }
    let unhex = |part: &str| {
        part.bytes()
            .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
            .then(|| super::super::sign::unhex(part))
            .flatten()
    };
    let trace: [u8; 16] = unhex(trace)?.try_into().ok()?;
    let parent: [u8; 8] = unhex(parent)?.try_into().ok()?;
    (trace != [0; 16] && parent != [0; 8]).then_some((trace, parent))
}

fn encode_span(pending: &Pending) -> Vec<u8> {
    let record = &pending.record;
    let text = |key: &str| record.get(key).and_then(Value::as_str);
    let command = text("command").unwrap_or("-");
    let event = text("event").unwrap_or("-");
    let (trace_id, parent) = trace_of(record);
    let digest = Sha256::digest(pending.line_hash.as_bytes());
    let mut span_id = [0u8; 8];
    span_id.copy_from_slice(&digest[..8]);
    let end = text("timestamp")
        .and_then(|stamp| humantime::parse_rfc3339(stamp).ok())
        .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
        });
    let duration = record
        .get("duration_ms")
        .and_then(Value::as_u64)
        .map_or(Duration::ZERO, Duration::from_millis);
    let end_nanos = u64::try_from(end.as_nanos()).unwrap_or(u64::MAX);
    let start_nanos = end_nanos.saturating_sub(u64::try_from(duration.as_nanos()).unwrap_or(0));

    let mut span = Vec::new();
    bytes_field(&mut span, 1, &trace_id);
    bytes_field(&mut span, 2, &span_id);
    if let Some(parent) = parent {
        bytes_field(&mut span, 4, &parent);
    }
    string(&mut span, 5, &format!("execute_tool {command}"));
    varint_field(&mut span, 6, 1); // SPAN_KIND_INTERNAL
    fixed64_field(&mut span, 7, start_nanos);
    fixed64_field(&mut span, 8, end_nanos);

    let mut attributes: Vec<(&str, Attribute)> = vec![
        (
            "gen_ai.operation.name",
            Attribute::Text("execute_tool".into()),
        ),
        ("gen_ai.tool.name", Attribute::Text(command.into())),
        ("aigent.event", Attribute::Text(event.into())),
        (
            "aigent.audit.seq",
            Attribute::Int(i64::try_from(pending.seq).unwrap_or(i64::MAX)),
        ),
    ];
    if let Some(id) = text("request_id") {
        attributes.push(("gen_ai.tool.call.id", Attribute::Text(id.into())));
        attributes.push(("aigent.request_id", Attribute::Text(id.into())));
    }
    if let Some(trace) = text("trace_id") {
        attributes.push(("aigent.trace_id", Attribute::Text(trace.into())));
    }
    if let Some(code) = record.get("exit_code").and_then(Value::as_i64) {
        attributes.push(("process.exit.code", Attribute::Int(code)));
    }
    if let Some(decision) = text("decision") {
        attributes.push(("aigent.decision", Attribute::Text(decision.into())));
    }
    if let Some(error) = text("error_code") {
        attributes.push(("error.type", Attribute::Text(error.into())));
    }
    if let Some(argv) = record.get("argv") {
        attributes.push(("aigent.argv", Attribute::Text(argv.to_string())));
    }
    if record.get("timed_out").and_then(Value::as_bool) == Some(true) {
        attributes.push(("aigent.timed_out", Attribute::Bool(true)));
    }
    // The record as the log holds it, redacted the same way.
    let mut whole = record.clone();
    whole.remove("prev");
    attributes.push((
        "aigent.record",
        Attribute::Text(Value::Object(whole).to_string()),
    ));
    for (key, value) in &attributes {
        key_value(&mut span, 9, key, value);
    }
    let failed = record
        .get("exit_code")
        .and_then(Value::as_i64)
        .is_some_and(|code| code != 0)
        || matches!(
            event,
            "TOOL_ARG_VALIDATION_FAILURE" | "COMMAND_SPAWN_FAILURE" | "COMMAND_SANDBOX_UNAVAILABLE"
        )
        || text("decision") == Some("deny");
    let mut status = Vec::new();
    if failed {
        string(&mut status, 2, event);
        varint_field(&mut status, 3, 2); // STATUS_CODE_ERROR
    } else {
        varint_field(&mut status, 3, 1); // STATUS_CODE_OK
    }
    message(&mut span, 15, &status);
    span
}

fn key_value(out: &mut Vec<u8>, field: u32, key: &str, value: &Attribute) {
    let mut any = Vec::new();
    match value {
        Attribute::Text(text) => string(&mut any, 1, text),
        Attribute::Bool(flag) => varint_field(&mut any, 2, u64::from(*flag)),
        #[allow(clippy::cast_sign_loss)]
        Attribute::Int(number) => varint_field(&mut any, 3, *number as u64),
    }
    let mut pair = Vec::new();
    string(&mut pair, 1, key);
    message(&mut pair, 2, &any);
    message(out, field, &pair);
}

fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn tag(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, (u64::from(field) << 3) | u64::from(wire));
}

fn varint_field(out: &mut Vec<u8>, field: u32, value: u64) {
    tag(out, field, 0);
    varint(out, value);
}

fn fixed64_field(out: &mut Vec<u8>, field: u32, value: u64) {
    tag(out, field, 1);
    out.extend_from_slice(&value.to_le_bytes());
}

fn bytes_field(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    tag(out, field, 2);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

fn string(out: &mut Vec<u8>, field: u32, text: &str) {
    bytes_field(out, field, text.as_bytes());
}

fn message(out: &mut Vec<u8>, field: u32, body: &[u8]) {
    bytes_field(out, field, body);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let url = HttpUrl::parse("http://127.0.0.1:4318").unwrap();
        assert_eq!(
            (url.host.as_str(), url.port, url.path.as_str()),
            ("127.0.0.1", 4318, "/v1/traces")
        );
        let url = HttpUrl::parse("http://collector/otlp/v1/traces").unwrap();
        assert_eq!((url.port, url.path.as_str()), (80, "/otlp/v1/traces"));
        let url = HttpUrl::parse("http://[::1]:4318/").unwrap();
        assert_eq!(url.host, "::1");
        for bad in [
            "https://x",
            "ftp://x",
            "http://",
            "http://x:notaport",
            "http://a b/",
        ] {
            assert!(HttpUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn traceparents() {
        let (trace, parent) =
            parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
        assert_eq!(trace[0], 0x4b);
        assert_eq!(parent[7], 0xb7);
        for bad in [
            "",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        ] {
            assert!(parse_traceparent(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn varints() {
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
        out.clear();
        #[allow(clippy::cast_sign_loss)]
        varint(&mut out, -1i64 as u64);
        assert_eq!(out.len(), 10);
    }
}
