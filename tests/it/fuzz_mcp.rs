//! The MCP fuzz harness (issue #29): random and mutated JSON-RPC through
//! the real `aigent mcp serve`, one message a line: malformed JSON, deep
//! nesting, a 10 MB string, batches, every kind of id, unknown methods and
//! a flood of notifications. The server must never panic, must stay within
//! a memory bound, and must answer every request that has a valid id
//! (a string or an integer) exactly once.
//!
//! The messages are drawn with proptest's strategies from a deterministic
//! seed: `FUZZ_CASES` messages per stream (default 256; a longer run is in
//! docs/security.md), `FUZZ_SEED` to draw another stream.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

use crate::common::Sandbox;

fn cases() -> usize {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(256)
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(29)
}

/// What one line of the stream is.
#[derive(Debug, Clone)]
enum Shape {
    /// A request: method, params, and which kind of id.
    Request(String, Value, IdKind),
    Notification(String, Value),
    /// A batch of requests and notifications.
    Batch(Vec<(String, Value, Option<IdKind>)>),
    /// Not JSON-RPC: broken JSON, or JSON that is not an object.
    Raw(String),
}

#[derive(Debug, Clone, Copy)]
enum IdKind {
    Integer,
    Negative,
    Huge,
    Text,
    Unicode,
    // Not valid JSON-RPC ids: answered or not, never twice, never a panic.
    Null,
    Float,
    Boolean,
    Object,
    Array,
}

fn method() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "initialize",
            "ping",
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/read",
            "resources/templates/list",
            "prompts/list",
            "prompts/get",
            "completion/complete",
            "logging/setLevel",
            "skills/list",
            "notifications/initialized",
            "notifications/cancelled",
            "notifications/progress",
            "rpc.discover",
            "",
            "tools/list/../../x",
        ])
        .prop_map(str::to_owned),
        "[a-z/_.]{0,30}",
        any::<String>(),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |number| number.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        "(skill://|file:///|\\.\\./|%2e|\\{\\}|[a-z]){0,10}".prop_map(Value::from),
    ]
}

fn params() -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(vec![
        "name",
        "arguments",
        "uri",
        "cursor",
        "protocolVersion",
        "capabilities",
        "clientInfo",
        "_meta",
        "requestId",
        "progressToken",
        "level",
        "__proto__",
        "",
    ]);
    leaf().prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::vec((keys.clone(), inner), 0..6).prop_map(|pairs| {
                Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

/// Mostly objects, as MCP has `params`; now and then any JSON.
fn object_params() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => params().prop_map(|value| match value {
            Value::Object(_) => value,
            other => json!({"name": "x", "arguments": {"value": other}, "uri": "skill://x/SKILL.md"}),
        }),
        1 => params(),
    ]
}

fn id_kind() -> impl Strategy<Value = IdKind> {
    prop::sample::select(vec![
        IdKind::Integer,
        IdKind::Negative,
        IdKind::Huge,
        IdKind::Text,
        IdKind::Unicode,
        IdKind::Null,
        IdKind::Float,
        IdKind::Boolean,
        IdKind::Object,
        IdKind::Array,
    ])
}

fn raw() -> impl Strategy<Value = String> {
    prop_oneof![
        // Broken JSON made of JSON's own characters.
        "[\\[\\]{}\",:0-9a-z eE.+-]{0,120}",
        any::<String>().prop_map(|text| text.replace(['\n', '\r'], " ")),
        // Deep nesting, in arrays and objects.
        (1usize..200_000).prop_map(|depth| "[".repeat(depth)),
        (1usize..50_000).prop_map(|depth| "{\"a\":".repeat(depth)),
        Just("null".to_owned()),
        Just("42".to_owned()),
        Just("\"jsonrpc\"".to_owned()),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        Just("{\"jsonrpc\":\"2.0\"}".to_owned()),
        Just("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}".to_owned()),
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        5 => (method(), object_params(), id_kind()).prop_map(|(m, p, i)| Shape::Request(m, p, i)),
        2 => (method(), params()).prop_map(|(m, p)| Shape::Notification(m, p)),
        1 => prop::collection::vec((method(), params(), prop::option::of(id_kind())), 0..5)
            .prop_map(Shape::Batch),
        3 => raw().prop_map(Shape::Raw),
    ]
}

/// The id for a request, unique in the stream where it is valid.
fn id_value(kind: IdKind, counter: &mut u64) -> Value {
    *counter += 1;
    let n = *counter;
    match kind {
        IdKind::Integer => json!(n),
        IdKind::Negative => json!(-(n as i64)),
        IdKind::Huge => json!(i64::MAX - n as i64),
        IdKind::Text => json!(format!("id-{n}")),
        IdKind::Unicode => json!(format!("é数\u{202e}🙂-{n}")),
        IdKind::Null => Value::Null,
        IdKind::Float => json!(n as f64 + 0.5),
        IdKind::Boolean => json!(n.is_multiple_of(2)),
        IdKind::Object => json!({"n": n}),
        IdKind::Array => json!([n]),
    }
}

fn is_valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

fn message(method: &str, params: &Value, id: Option<Value>) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "method": method, "params": params});
    if let Some(id) = id {
        message["id"] = id;
    }
    message
}

/// The ids of a stream: those that must be answered exactly once (a
/// request whose `params` is an object or absent, as MCP has them), and
/// those that may be answered at most once by id.
///
/// Known gap, reported to the MCP owners: a request the rmcp transport
/// cannot type, because its `params` is an array, a string, a boolean or
/// null (JSON-RPC allows by-position params; MCP does not) or its
/// `params._meta` is not an object, is answered with `-32600 Invalid
/// request` *without its id*, so a client cannot match the answer.
#[derive(Default)]
struct Expected {
    once: Vec<Value>,
    at_most_once: Vec<Value>,
}

/// The stream: lines to send, and the ids that must be answered.
fn stream(count: usize, seed: u64) -> (Vec<String>, Expected) {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = shape();
    let mut lines = Vec::new();
    let mut expected = Expected::default();
    let mut counter = 0;
    // Start a session, so that most requests reach their handlers.
    lines.push(
        json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "1"}}})
        .to_string(),
    );
    expected.once.push(json!("init"));
    lines.push(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
    for _ in 0..count {
        let shape = strategy.new_tree(&mut runner).expect("a value").current();
        match shape {
            Shape::Request(method, params, kind) => {
                let id = id_value(kind, &mut counter);
                let typed = params.is_object() && params.get("_meta").is_none_or(Value::is_object);
                if is_valid_id(&id) && typed {
                    expected.once.push(id.clone());
                } else if is_valid_id(&id) {
                    expected.at_most_once.push(id.clone());
                }
                lines.push(message(&method, &params, Some(id)).to_string());
            }
            Shape::Notification(method, params) => {
                lines.push(message(&method, &params, None).to_string());
            }
            Shape::Batch(items) => {
                let batch: Vec<Value> = items
                    .iter()
                    .map(|(method, params, kind)| {
                        let id = kind.map(|kind| id_value(kind, &mut counter));
                        message(method, params, id)
                    })
                    .collect();
                lines.push(Value::Array(batch).to_string());
            }
            Shape::Raw(text) => lines.push(text),
        }
    }
    // A flood of notifications, then one request that must still be
    // answered after it.
    for index in 0..(count * 20).max(2000) {
        lines.push(
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": index, "progress": index}})
            .to_string(),
        );
    }
    lines.push(json!({"jsonrpc": "2.0", "id": "after-flood", "method": "ping"}).to_string());
    expected.once.push(json!("after-flood"));
    (lines, expected)
}

/// What the server did with a stream.
struct Served {
    responses: Vec<Value>,
    /// Lines that were not one JSON message.
    garbage: Vec<String>,
    peak_rss_kib: i64,
    exit: std::process::ExitStatus,
    elapsed: Duration,
}

/// Runs `mcp serve`, writes `lines` (one a line), closes stdin and reads
/// everything it answers. The server's own peak RSS comes from `wait4`.
fn serve(lines: Vec<String>) -> Served {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.join("commands")).unwrap();
    let started = Instant::now();
    let mut child = sandbox.mcp_serve(&[]).spawn().expect("the server starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let writer = std::thread::spawn(move || {
        for line in lines {
            // A server that stops reading (it may refuse a huge line and
            // close) ends the stream; that is its right.
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
        let _ = stdin.flush();
        drop(stdin);
    });
    let reader = std::thread::spawn(move || {
        let mut responses = Vec::new();
        let mut garbage = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<Value>(&line) {
                Ok(value) => responses.push(value),
                Err(_) => garbage.push(line.chars().take(200).collect()),
            }
        }
        (responses, garbage)
    });
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // The server must end on its own once stdin closes; a hang is a bug.
    let deadline = Instant::now() + Duration::from_secs(120);
    let (status, usage) = loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value of this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our own unreaped child; the pointers are valid
        // and exclusive for the call; `child` is never waited on by std.
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break (status, usage);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not end within 120 s of its stdin closing");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(child);
    writer.join().unwrap();
    let (responses, garbage) = reader.join().unwrap();
    Served {
        responses,
        garbage,
        peak_rss_kib: usage.ru_maxrss,
        exit: std::process::ExitStatus::from_raw(status),
        elapsed: started.elapsed(),
    }
}

/// Peak memory the server may reach on any stream here: the 10 MB string
/// is the largest input; the bound is a blow-up detector, not a budget.
const MAX_PEAK_RSS_KIB: i64 = 512 * 1024;

fn check(served: &Served, expected: &Expected) {
    assert_ne!(served.exit.code(), Some(101), "the server panicked");
    assert!(
        served.exit.signal().is_none(),
        "the server was killed: {:?}",
        served.exit
    );
    assert!(
        served.garbage.is_empty(),
        "lines that are not JSON: {:?}",
        served.garbage
    );
    assert!(
        served.peak_rss_kib <= MAX_PEAK_RSS_KIB,
        "peak RSS {} KiB",
        served.peak_rss_kib
    );
    let mut answered: HashMap<String, usize> = HashMap::new();
    for response in &served.responses {
        if response.get("method").is_some() {
            continue; // the server's own notification or request
        }
        assert_eq!(response["jsonrpc"], "2.0", "{response}");
        assert!(
            response.get("result").is_some() != response.get("error").is_some(),
            "a response has a result or an error: {response}"
        );
        if let Some(id) = response.get("id").filter(|id| is_valid_id(id)) {
            *answered.entry(id.to_string()).or_default() += 1;
        }
    }
    let missing: Vec<&Value> = expected
        .once
        .iter()
        .filter(|id| answered.get(&id.to_string()).copied().unwrap_or(0) != 1)
        .collect();
    if let Ok(path) = std::env::var("FUZZ_MCP_DUMP") {
        let text: Vec<String> = served.responses.iter().map(Value::to_string).collect();
        std::fs::write(path, text.join("\n")).unwrap();
    }
    assert!(
        missing.is_empty(),
        "requests not answered exactly once: {missing:?} of {}",
        expected.once.len()
    );
    let sent: std::collections::HashSet<String> = expected
        .once
        .iter()
        .chain(&expected.at_most_once)
        .map(Value::to_string)
        .collect();
    for (id, count) in &answered {
        assert_eq!(*count, 1, "id {id} answered {count} times");
        // Batches are refused whole, so every id answered was sent alone.
        assert!(
            sent.contains(id),
            "an answer to {id}, which was never sent alone"
        );
    }
}

#[test]
fn random_json_rpc_streams_get_one_answer_per_request_and_no_panic() {
    let (lines, expected) = stream(cases(), seed());
    if let Ok(path) = std::env::var("FUZZ_MCP_STREAM") {
        std::fs::write(path, lines.join("\n")).unwrap();
    }
    let sent = lines.len();
    let served = serve(lines);
    eprintln!(
        "fuzz_mcp: {sent} lines, {} requests to answer once, {} at most once, {} messages back, peak RSS {} KiB, {:?}",
        expected.once.len(),
        expected.at_most_once.len(),
        served.responses.len(),
        served.peak_rss_kib,
        served.elapsed
    );
    check(&served, &expected);
}

/// A 10 MB string, in the params of a known and of an unknown method, and
/// as a method name: each is answered once (or refused as too large), in
/// bounded memory.
#[test]
fn ten_megabyte_strings_are_answered_in_bounded_memory() {
    let big = "x".repeat(10 * 1024 * 1024);
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "1"}}})
        .to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ];
    lines.push(
        json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": big}})
            .to_string(),
    );
    lines.push(
        json!({"jsonrpc": "2.0", "id": 2, "method": "no/such", "params": {"x": big}}).to_string(),
    );
    lines.push(json!({"jsonrpc": "2.0", "id": 3, "method": big, "params": {}}).to_string());
    lines.push(format!(
        "{{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"ping\", \"params\": {{\"x\": \"{big}"
    ));
    lines.push(json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}).to_string());
    let served = serve(lines);
    eprintln!(
        "fuzz_mcp 10 MB: {} messages back, peak RSS {} KiB, {:?}",
        served.responses.len(),
        served.peak_rss_kib,
        served.elapsed
    );
    let expected = Expected {
        once: vec![json!(0), json!(1), json!(2), json!(3), json!(5)],
        at_most_once: vec![json!(4)],
    };
    check(&served, &expected);
}
