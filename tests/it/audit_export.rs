//! `aigent audit export` against receivers inside the test: an OTLP/HTTP
//! collector on loopback that decodes the official opentelemetry-proto
//! types, and syslog receivers over UDP, TCP and a Unix socket. Outages,
//! errors and a slow collector; resumption with nothing lost or repeated.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream, UdpSocket};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::Value;

use crate::common::{Run, Sandbox};

const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn rejections(sandbox: &Sandbox, from: usize, count: usize, env: &[(&str, &str)]) {
    for index in from..from + count {
        let mut cmd = sandbox.cmd();
        for (name, value) in env {
            cmd.env(name, value);
        }
        Run::of(cmd.args([
            "--output",
            "json",
            "args",
            "check",
            "deploy",
            "--cluster-id",
            &format!("../c{index}"),
            "--version",
            "1.2.3",
        ]))
        .assert_code(2);
    }
}

/// An OTLP/HTTP collector: answers `status` to every request and keeps
/// the spans of the requests it accepted (2xx).
struct Collector {
    url: String,
    status: Arc<AtomicU16>,
    spans: Arc<Mutex<Vec<Span>>>,
}

impl Collector {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let status = Arc::new(AtomicU16::new(200));
        let spans = Arc::new(Mutex::new(Vec::new()));
        let (answer, kept) = (status.clone(), spans.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                serve(stream, &answer, &kept);
            }
        });
        Self { url, status, spans }
    }

    fn spans(&self) -> Vec<Span> {
        self.spans.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, status: &AtomicU16, spans: &Mutex<Vec<Span>>) {
    let mut reader = BufReader::new(stream);
    let mut length = 0usize;
    let mut request_line = String::new();
    reader.read_line(&mut request_line).unwrap();
    assert!(
        request_line.starts_with("POST /v1/traces HTTP/1.1"),
        "{request_line}"
    );
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(value) = lower.strip_prefix("content-length:") {
            length = value.trim().parse().unwrap();
        }
        if let Some(value) = lower.strip_prefix("content-type:") {
            assert_eq!(value.trim(), "application/x-protobuf");
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let request = ExportTraceServiceRequest::decode(body.as_slice()).expect("a valid OTLP request");
    let code = status.load(Ordering::SeqCst);
    if (200..300).contains(&code) {
        let mut kept = spans.lock().unwrap();
        for resource in request.resource_spans {
            for scope in resource.scope_spans {
                kept.extend(scope.spans);
            }
        }
    }
    let mut stream = reader.into_inner();
    let _ = write!(
        stream,
        "HTTP/1.1 {code} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
}

fn attribute(span: &Span, key: &str) -> Option<Any> {
    span.attributes
        .iter()
        .find(|pair| pair.key == key)
        .and_then(|pair| pair.value.clone())
        .and_then(|value| value.value)
}

fn text(span: &Span, key: &str) -> String {
    match attribute(span, key) {
        Some(Any::StringValue(text)) => text,
        other => panic!("{key}: {other:?}"),
    }
}

fn seqs(spans: &[Span]) -> Vec<i64> {
    spans
        .iter()
        .map(|span| match attribute(span, "aigent.audit.seq") {
            Some(Any::IntValue(seq)) => seq,
            other => panic!("{other:?}"),
        })
        .collect()
}

fn export(sandbox: &Sandbox, args: &[&str]) -> (Run, Value) {
    let mut all = vec!["audit", "export", "--timeout", "1"];
    all.extend_from_slice(args);
    sandbox.json(&all)
}

#[test]
fn otlp_export_maps_records_to_spans_and_resumes_after_outages() {
    let sandbox = Sandbox::new();
    rejections(&sandbox, 0, 2, &[("TOOL_TRACE_ID", TRACEPARENT)]);
    rejections(&sandbox, 2, 2, &[("TRACEPARENT", TRACEPARENT)]);
    rejections(&sandbox, 4, 1, &[]);

    // Down: nothing listens on the port.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let down = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let (run, envelope) = export(&sandbox, &["--otlp", &down]);
    run.assert_code(4);
    assert_eq!(envelope["data"]["exports"][0]["sent"], 0, "{run}");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("otlp"),
        "{run}"
    );

    // Answering errors: nothing is taken as sent.
    let collector = Collector::start();
    collector.status.store(503, Ordering::SeqCst);
    let (run, envelope) = export(&sandbox, &["--otlp", &collector.url]);
    run.assert_code(4);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("503"),
        "{run}"
    );
    assert!(collector.spans().is_empty());

    // Up: everything, once.
    collector.status.store(200, Ordering::SeqCst);
    let (run, envelope) = export(&sandbox, &["--otlp", &collector.url]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["exports"][0]["sent"], 5, "{run}");
    let spans = collector.spans();
    assert_eq!(seqs(&spans), [1, 2, 3, 4, 5]);
    let span = &spans[0];
    assert_eq!(span.name, "execute_tool deploy");
    assert_eq!(text(span, "gen_ai.operation.name"), "execute_tool");
    assert_eq!(text(span, "gen_ai.tool.name"), "deploy");
    assert_eq!(text(span, "aigent.event"), "TOOL_ARG_VALIDATION_FAILURE");
    assert_eq!(text(span, "error.type"), text(span, "error.type"));
    assert!(!text(span, "gen_ai.tool.call.id").is_empty());
    // The caller's trace (TOOL_TRACE_ID or TRACEPARENT): its trace id, its
    // span as the parent.
    for span in &spans[..4] {
        assert_eq!(hex(&span.trace_id), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(hex(&span.parent_span_id), "00f067aa0ba902b7");
    }
    assert_ne!(hex(&spans[4].trace_id), "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(spans[4].trace_id.len(), 16);
    assert_eq!(spans[4].span_id.len(), 8);
    assert_eq!(
        spans[0].status.as_ref().unwrap().code,
        2,
        "a refusal is an error"
    );
    // The record as the log holds it (redacted the same way).
    let record: Value = serde_json::from_str(&text(span, "aigent.record")).unwrap();
    let logged: Value = serde_json::from_str(
        std::fs::read_to_string(sandbox.audit_log())
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(record["violations"], logged["violations"]);

    // Nothing new: nothing sent.
    let (run, envelope) = export(&sandbox, &["--otlp", &collector.url]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["exports"][0]["sent"], 0, "{run}");

    // New records, the log rotated between exports: only they go.
    rejections(&sandbox, 5, 4, &[("AIGENT_AUDIT_MAX_BYTES", "2K")]);
    assert!(sandbox.join("state/audit.jsonl.1").exists());
    let (run, _) = export(&sandbox, &["--otlp", &collector.url]);
    run.assert_code(0);
    assert_eq!(seqs(&collector.spans()), (1..=9).collect::<Vec<i64>>());
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[test]
fn a_slow_collector_times_out_and_the_next_export_resumes() {
    let sandbox = Sandbox::new();
    rejections(&sandbox, 0, 3, &[]);
    // Accepts, reads, never answers.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let slow = format!("http://{}", listener.local_addr().unwrap());
    let held = Arc::new(Mutex::new(Vec::new()));
    let keep = held.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            keep.lock().unwrap().push(stream);
        }
    });
    let started = std::time::Instant::now();
    let (run, envelope) = export(&sandbox, &["--otlp", &slow]);
    run.assert_code(4);
    assert!(started.elapsed() < Duration::from_secs(10), "{run}");
    assert_eq!(envelope["data"]["exports"][0]["pending"], 3, "{run}");
    let collector = Collector::start();
    export(&sandbox, &["--otlp", &collector.url])
        .0
        .assert_code(0);
    assert_eq!(seqs(&collector.spans()), [1, 2, 3]);
}

/// A collector that answers one byte every 0.7 s: each read succeeds
/// within a per-read timeout, so only a deadline for the whole exchange
/// ends the export near its `--timeout` (it ran past 20 s for 2).
#[test]
fn a_trickling_collector_cannot_stretch_the_timeout() {
    let sandbox = Sandbox::new();
    rejections(&sandbox, 0, 2, &[]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let trickle = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut request = [0u8; 65536];
                let _ = stream.read(&mut request);
                for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".repeat(100) {
                    if stream.write_all(&[byte]).is_err() {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(700));
                }
            });
        }
    });
    let started = std::time::Instant::now();
    let (run, envelope) = sandbox.json(&["audit", "export", "--timeout", "2", "--otlp", &trickle]);
    let took = started.elapsed();
    run.assert_code(4);
    assert!(took < Duration::from_millis(3500), "{took:?}: {run}");
    assert_eq!(envelope["data"]["exports"][0]["pending"], 2, "{run}");
    let failure = envelope["data"]["exports"][0]["failure"].to_string();
    assert!(failure.contains("--timeout"), "{run}");
}

#[test]
fn live_export_from_the_registry_settings() {
    let sandbox = Sandbox::new();
    let collector = Collector::start();
    sandbox.write(
        "commands/aigent.toml",
        format!(
            "[audit]\notlp = \"{}\"\ntimeout_secs = 1\ninterval_secs = 1\n",
            collector.url
        ),
    );
    rejections(&sandbox, 0, 2, &[]);
    let mut cmd = sandbox.cmd();
    cmd.arg("--commands").arg(sandbox.join("commands"));
    let run = Run::of(cmd.args([
        "--output", "json", "audit", "export", "--follow", "--rounds", "2",
    ]));
    run.assert_code(0);
    assert_eq!(seqs(&collector.spans()), [1, 2]);
    // Elsewhere (another repository), no registry names a destination.
    sandbox.write("elsewhere/.git/HEAD", "");
    let bad = Run::of(
        sandbox
            .cmd()
            .current_dir(sandbox.join("elsewhere"))
            .args(["--output", "json", "audit", "export"]),
    );
    bad.assert_code(2);
    // Here, the project's registry does.
    let here = sandbox.run(&["--output", "json", "audit", "export"]);
    here.assert_code(0);
}

/// Splits RFC 6587 octet-counted frames.
fn frames(mut bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(space) = bytes.iter().position(|byte| *byte == b' ') {
        let length: usize = std::str::from_utf8(&bytes[..space])
            .unwrap()
            .parse()
            .unwrap();
        out.push(String::from_utf8(bytes[space + 1..space + 1 + length].to_vec()).unwrap());
        bytes = &bytes[space + 1 + length..];
    }
    out
}

fn check_syslog(messages: &[String], first_seq: u64) {
    for (index, message) in messages.iter().enumerate() {
        assert!(message.starts_with("<132>1 "), "{message}");
        assert!(
            message.contains(&format!(
                " aigent@32473 seq=\"{}\" command=\"deploy\"",
                first_seq + index as u64
            )) || message.contains(&format!(
                "[aigent@32473 seq=\"{}\" command=\"deploy\"",
                first_seq + index as u64
            )),
            "{message}"
        );
        assert!(
            message.contains(" TOOL_ARG_VALIDATION_FAILURE "),
            "{message}"
        );
        let json = &message[message.find("] {").unwrap() + 2..];
        let record: Value = serde_json::from_str(json).unwrap();
        assert_eq!(record["event"], "TOOL_ARG_VALIDATION_FAILURE");
    }
}

#[test]
fn syslog_over_udp_tcp_and_a_unix_socket() {
    let sandbox = Sandbox::new();
    rejections(&sandbox, 0, 3, &[]);

    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let url = format!("udp://{}", udp.local_addr().unwrap());
    export(&sandbox, &["--syslog", &url]).0.assert_code(0);
    let mut messages = Vec::new();
    let mut buffer = vec![0; 65536];
    for _ in 0..3 {
        let size = udp.recv(&mut buffer).unwrap();
        messages.push(String::from_utf8(buffer[..size].to_vec()).unwrap());
    }
    check_syslog(&messages, 1);

    // TCP: down first, then up; the export resumes after the outage.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = closed.local_addr().unwrap();
    drop(closed);
    let url = format!("tcp://{address}");
    export(&sandbox, &["--syslog", &url]).0.assert_code(4);
    let listener = TcpListener::bind(address).unwrap();
    let received = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        bytes
    });
    export(&sandbox, &["--syslog", &url]).0.assert_code(0);
    check_syslog(&frames(&received.join().unwrap()), 1);

    #[cfg(unix)]
    {
        use std::os::unix::net::UnixDatagram;
        let path = sandbox.join("log.sock");
        let socket = UnixDatagram::bind(&path).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let url = format!("unix://{}", path.display());
        export(&sandbox, &["--syslog", &url]).0.assert_code(0);
        rejections(&sandbox, 3, 1, &[]);
        export(&sandbox, &["--syslog", &url]).0.assert_code(0);
        let mut messages = Vec::new();
        for _ in 0..4 {
            let size = socket.recv(&mut buffer).unwrap();
            messages.push(String::from_utf8(buffer[..size].to_vec()).unwrap());
        }
        check_syslog(&messages, 1);
        socket
            .set_read_timeout(Some(Duration::from_millis(300)))
            .unwrap();
        assert!(socket.recv(&mut buffer).is_err(), "nothing sent twice");
    }
}
