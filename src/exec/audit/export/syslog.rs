//! Audit records as RFC 5424 syslog messages, over UDP, TCP (RFC 6587
//! octet counting) or a Unix socket (datagram, else stream).
//!
//! `<PRI>1 TIMESTAMP HOSTNAME aigent PID EVENT [aigent@32473 seq=".."
//! command=".." request_id=".."] {the record as JSON}`, facility `local0`
//! unless told otherwise; severity `warning` for refusals and failures,
//! `info` otherwise. A datagram's message is cut at 8 KiB (rsyslog's
//! default maximum), with the cut said in the structured data.

use std::io::{self, Write};
use std::net::{TcpStream, ToSocketAddrs, UdpSocket};
use std::path::PathBuf;

use serde_json::Value;

use super::{Deadline, Pending, write_before};

/// The private enterprise number in our structured data id: a documented
/// example number (RFC 5612), as RFC 5424 allows for private ids.
const SD_ID: &str = "aigent@32473";

/// The longest message sent in one datagram.
pub const MAX_DATAGRAM_MESSAGE: usize = 8 * 1024;

/// Where messages go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    Udp(String),
    Tcp(String),
    Unix(PathBuf),
}

impl Transport {
    /// `udp://host:port`, `tcp://host:port`, `unix:///path` (default port 514).
    pub fn parse(text: &str) -> Result<Self, String> {
        let with_port = |rest: &str| {
            if rest.is_empty() || rest.contains(['/', '@', ' ']) {
                return Err(format!("{text}: expected host:port"));
            }
            let has_port = rest.rsplit_once(':').is_some_and(|(host, port)| {
                !host.is_empty()
                    && port.parse::<u16>().is_ok()
                    && (!host.contains(':') || host.ends_with(']'))
            });
            Ok(if has_port {
                rest.to_owned()
            } else {
                format!("{rest}:514")
            })
        };
        if let Some(rest) = text.strip_prefix("udp://") {
            return Ok(Self::Udp(with_port(rest)?));
        }
        if let Some(rest) = text.strip_prefix("tcp://") {
            return Ok(Self::Tcp(with_port(rest)?));
        }
        if let Some(path) = text.strip_prefix("unix://") {
            if !path.starts_with('/') {
                return Err(format!(
                    "{text}: give an absolute socket path (unix:///dev/log)"
                ));
            }
            return Ok(Self::Unix(PathBuf::from(path)));
        }
        Err(format!(
            "{text}: give udp://host:port, tcp://host:port or unix:///path"
        ))
    }
}

/// Sends every record, one message each; stops at the first failure and
/// says how many went out before it.
pub fn send(
    transport: &Transport,
    records: &[Pending],
    deadline: Deadline,
) -> Result<(), (usize, io::Error)> {
    let host = hostname();
    match transport {
        Transport::Udp(address) => {
            let target = resolve(address).map_err(|err| (0, err))?;
            let bind = if target.is_ipv6() {
                "[::]:0"
            } else {
                "0.0.0.0:0"
            };
            let socket = UdpSocket::bind(bind).map_err(|err| (0, err))?;
            for (index, record) in records.iter().enumerate() {
                let message = format_message(record, &host, Some(MAX_DATAGRAM_MESSAGE));
                deadline
                    .left()
                    .and_then(|left| socket.set_write_timeout(Some(left)))
                    .map_err(|err| (index, err))?;
                socket
                    .send_to(&message, target)
                    .map_err(|err| (index, err))?;
            }
            Ok(())
        }
        Transport::Tcp(address) => {
            let target = resolve(address).map_err(|err| (0, err))?;
            let mut stream = deadline
                .left()
                .and_then(|left| TcpStream::connect_timeout(&target, left))
                .map_err(|err| (0, err))?;
            for (index, record) in records.iter().enumerate() {
                let message = format_message(record, &host, None);
                let mut frame = format!("{} ", message.len()).into_bytes();
                frame.extend_from_slice(&message);
                write_before(&mut stream, &frame, deadline).map_err(|err| (index, err))?;
            }
            stream.flush().map_err(|err| (records.len(), err))
        }
        #[cfg(unix)]
        Transport::Unix(path) => send_unix(path, records, &host, deadline),
        #[cfg(not(unix))]
        Transport::Unix(_) => Err((0, io::Error::other("Unix sockets need a Unix system"))),
    }
}

#[cfg(unix)]
fn send_unix(
    path: &std::path::Path,
    records: &[Pending],
    host: &str,
    deadline: Deadline,
) -> Result<(), (usize, io::Error)> {
    use std::os::unix::net::{UnixDatagram, UnixStream};
    let socket = UnixDatagram::unbound().map_err(|err| (0, err))?;
    match socket.connect(path) {
        Ok(()) => {
            for (index, record) in records.iter().enumerate() {
                let message = format_message(record, host, Some(MAX_DATAGRAM_MESSAGE));
                deadline
                    .left()
                    .and_then(|left| socket.set_write_timeout(Some(left)))
                    .map_err(|err| (index, err))?;
                socket.send(&message).map_err(|err| (index, err))?;
            }
            Ok(())
        }
        // A stream socket (rsyslog's imuxsock is datagram; some daemons
        // listen on a stream): octet-counted frames, as over TCP.
        Err(err) if err.raw_os_error() == Some(libc::EPROTOTYPE) => {
            let mut stream = UnixStream::connect(path).map_err(|err| (0, err))?;
            for (index, record) in records.iter().enumerate() {
                let message = format_message(record, host, None);
                let mut frame = format!("{} ", message.len()).into_bytes();
                frame.extend_from_slice(&message);
                write_before(&mut stream, &frame, deadline).map_err(|err| (index, err))?;
            }
            Ok(())
        }
        Err(err) => Err((0, err)),
    }
}

fn resolve(address: &str) -> io::Result<std::net::SocketAddr> {
    address
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| io::Error::other(format!("{address} resolves to no address")))
}

fn hostname() -> String {
    #[cfg(unix)]
    {
        let name = rustix::system::uname();
        let name = name.nodename().to_string_lossy();
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_graphic())
            .take(255)
            .collect();
        if !name.is_empty() {
            return name;
        }
    }
    "-".to_owned()
}

/// One RFC 5424 message for a record.
pub fn format_message(pending: &Pending, host: &str, limit: Option<usize>) -> Vec<u8> {
    let record = &pending.record;
    let text = |key: &str| record.get(key).and_then(Value::as_str);
    let event = text("event").unwrap_or("-");
    let warning = matches!(
        event,
        "TOOL_ARG_VALIDATION_FAILURE"
            | "COMMAND_SPAWN_FAILURE"
            | "COMMAND_SANDBOX_UNAVAILABLE"
            | "COMMAND_CONFIRMATION_REFUSED"
    ) || text("decision") == Some("deny")
        || record
            .get("exit_code")
            .and_then(Value::as_i64)
            .is_some_and(|code| code != 0);
    let severity = if warning { 4 } else { 6 };
    let facility = 16; // local0
    let pid = record
        .get("pid")
        .and_then(Value::as_u64)
        .map_or_else(|| "-".to_owned(), |pid| pid.to_string());
    let msgid: String = header_word(event, 32);
    let timestamp =
        text("timestamp").map_or_else(|| "-".to_owned(), |stamp| header_word(stamp, 64));
    let mut structured = format!("[{SD_ID} seq=\"{}\"", pending.seq);
    for key in ["command", "request_id", "trace_id"] {
        if let Some(value) = text(key) {
            structured.push_str(&format!(" {key}=\"{}\"", param_value(value)));
        }
    }
    let mut body = record.clone();
    body.remove("prev");
    let mut json = Value::Object(body).to_string();
    let head_len = structured.len() + 200;
    if let Some(limit) = limit
        && json.len() + head_len > limit
    {
        let keep = limit.saturating_sub(head_len);
        let mut cut = keep.min(json.len());
        while !json.is_char_boundary(cut) {
            cut -= 1;
        }
        structured.push_str(&format!(" cut=\"{}\"", json.len()));
        json.truncate(cut);
    }
    structured.push(']');
    format!(
        "<{}>1 {timestamp} {} aigent {pid} {msgid} {structured} {json}",
        facility * 8 + severity,
        header_word(host, 255)
    )
    .into_bytes()
}

/// A header field: printable ASCII without spaces, bounded, `-` if empty.
fn header_word(text: &str, max: usize) -> String {
    let word: String = text
        .chars()
        .filter(char::is_ascii_graphic)
        .take(max)
        .collect();
    if word.is_empty() {
        "-".to_owned()
    } else {
        word
    }
}

/// A structured-data parameter value: `"`, `\` and `]` escaped, control
/// characters dropped, bounded.
fn param_value(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().filter(|c| !c.is_control()).take(1024) {
        if matches!(c, '"' | '\\' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(record: Value) -> Pending {
        Pending {
            seq: 7,
            line_hash: "ab".into(),
            record: record.as_object().unwrap().clone(),
        }
    }

    #[test]
    fn messages_follow_rfc_5424() {
        let record = pending(serde_json::json!({
            "seq": 7, "prev": "x", "timestamp": "2026-11-25T20:00:00.000Z",
            "event": "TOOL_ARG_VALIDATION_FAILURE", "command": "de\"p]loy",
            "request_id": "r-1", "pid": 42, "violations": []
        }));
        let text = String::from_utf8(format_message(&record, "host", None)).unwrap();
        assert!(
            text.starts_with(
                "<132>1 2026-11-25T20:00:00.000Z host aigent 42 TOOL_ARG_VALIDATION_FAILURE [aigent@32473 seq=\"7\" command=\"de\\\"p\\]loy\" request_id=\"r-1\"] {"
            ),
            "{text}"
        );
        assert!(!text.contains("\"prev\""), "{text}");
        let big = pending(serde_json::json!({"event": "X", "argv": ["y".repeat(20_000)]}));
        let cut = format_message(&big, "h", Some(MAX_DATAGRAM_MESSAGE));
        assert!(cut.len() <= MAX_DATAGRAM_MESSAGE, "{}", cut.len());
        assert!(String::from_utf8(cut).unwrap().contains(" cut=\""));
    }

    #[test]
    fn transports() {
        assert_eq!(
            Transport::parse("udp://127.0.0.1:5514").unwrap(),
            Transport::Udp("127.0.0.1:5514".into())
        );
        assert_eq!(
            Transport::parse("tcp://logs").unwrap(),
            Transport::Tcp("logs:514".into())
        );
        assert_eq!(
            Transport::parse("unix:///dev/log").unwrap(),
            Transport::Unix("/dev/log".into())
        );
        for bad in ["syslog://x", "udp://", "unix://relative", "tcp://a/b"] {
            assert!(Transport::parse(bad).is_err(), "{bad}");
        }
    }
}
