//! `aigent mcp serve --http`: the real binary on loopback, driven by a
//! plain HTTP/1.1 client written here over `std::net::TcpStream`, so every
//! byte on the wire (headers, bodies, slow or oversized ones) is the test's
//! to choose.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Sandbox;

pub(crate) const TOKEN: &str = "test-token-0123456789abcdefXYZ";
const GREET: &str = "name: greet\ndescription: Print a greeting\ndanger_level: safe\nparameters:\n  who: {type: string, required: true}\nsubprocess: {binary: echo, hardcoded_args: [hello], user_controlled_args: [who]}\n";

/// A running server; killed when dropped.
pub(crate) struct Server {
    child: Child,
    pub(crate) address: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn registry(sandbox: &Sandbox) {
    sandbox.write("commands/greet.yaml", GREET);
    sandbox.write("token", format!("{TOKEN}\n"));
}

/// `mcp serve --http 127.0.0.1:0` on the sandbox's `commands/` and `token`.
pub(crate) fn http_serve(sandbox: &Sandbox, extra: &[&str]) -> std::process::Command {
    let mut command = sandbox.std_cmd();
    command
        .arg("--commands")
        .arg(sandbox.join("commands"))
        .args(["mcp", "serve", "--http", "127.0.0.1:0", "--token-file"])
        .arg(sandbox.join("token"))
        .args(extra);
    command
}

pub(crate) fn start(sandbox: &Sandbox, extra: &[&str]) -> Server {
    let mut child = http_serve(sandbox, extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("server starts");
    let stderr = child.stderr.take().expect("stderr piped");
    let mut lines = BufReader::new(stderr).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .expect("stderr is text");
        if let Some(rest) = line.strip_prefix("aigent mcp serve: listening on http://") {
            break rest.trim_end_matches("/mcp").parse().expect("an address");
        }
    };
    // Keep draining stderr so the server never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    Server { child, address }
}

/// One HTTP response, read to its end.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("JSON body: {self:?}"))
    }
}

fn read_reply(stream: &mut TcpStream) -> Reply {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).expect("a status line");
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("status line: {status_line:?}"));
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (key, value) = line.split_once(':').unwrap();
        headers.push((key.trim().to_owned(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case("content-length"))
        .map(|(_, value)| value.parse::<usize>().unwrap());
    let mut body = Vec::new();
    match length {
        Some(length) => {
            body.resize(length, 0);
            reader.read_exact(&mut body).unwrap();
        }
        None => {
            let _ = reader.read_to_end(&mut body);
        }
    }
    Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// Sends `head` (request line and headers, without the blank line) and
/// `body`, and reads the reply.
fn exchange(address: SocketAddr, head: &str, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(address).unwrap();
    let request = format!(
        "{head}\r\nHost: {address}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    read_reply(&mut stream)
}

const JSON_HEADERS: &str =
    "Content-Type: application/json\r\nAccept: application/json, text/event-stream";

fn post(address: SocketAddr, extra_headers: &str, body: &Value) -> Reply {
    let mut head =
        format!("POST /mcp HTTP/1.1\r\n{JSON_HEADERS}\r\nMCP-Protocol-Version: 2025-06-18");
    if !extra_headers.is_empty() {
        head.push_str("\r\n");
        head.push_str(extra_headers);
    }
    exchange(address, &head, body.to_string().as_bytes())
}

fn authorized(address: SocketAddr, body: &Value) -> Reply {
    post(address, &format!("Authorization: Bearer {TOKEN}"), body)
}

fn tools_call(name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
}

fn tools_list() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
}

fn audit_events(sandbox: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sandbox.audit_log())
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("audit line is JSON"))
        .collect()
}

#[test]
fn a_missing_or_wrong_token_gets_401_with_a_challenge_and_runs_nothing() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(&sandbox, &[]);
    let call = tools_call("greet", json!({"who": "x"}));

    let missing = post(server.address, "", &call);
    assert_eq!(missing.status, 401, "{missing:?}");
    assert_eq!(
        missing.header("www-authenticate"),
        Some(r#"Bearer realm="aigent""#)
    );

    let wrong = post(
        server.address,
        "Authorization: Bearer test-token-0123456789abcdefXYz",
        &call,
    );
    assert_eq!(wrong.status, 401);
    assert!(
        wrong
            .header("www-authenticate")
            .unwrap()
            .contains(r#"error="invalid_token""#)
    );
    assert!(!wrong.body.contains(TOKEN));

    let prefix = post(
        server.address,
        &format!("Authorization: Bearer {}", &TOKEN[..10]),
        &call,
    );
    assert_eq!(prefix.status, 401);
    let basic = post(server.address, "Authorization: Basic dXNlcjpwYXNz", &call);
    assert_eq!(basic.status, 401);
    let twice = post(
        server.address,
        &format!("Authorization: Bearer {TOKEN}\r\nAuthorization: Bearer {TOKEN}"),
        &call,
    );
    assert_eq!(twice.status, 401);

    assert!(
        audit_events(&sandbox).is_empty(),
        "nothing ran or was checked"
    );

    let right = authorized(server.address, &call);
    assert_eq!(right.status, 200, "{right:?}");
    let result = &right.json()["result"];
    assert_eq!(
        result["structuredContent"]["stdout"], "hello x\n",
        "{result}"
    );
    let events = audit_events(&sandbox);
    assert!(
        events.iter().any(|e| e["event"] == "COMMAND_EXECUTED"),
        "{events:?}"
    );
}

#[test]
fn a_bad_origin_or_host_gets_403() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(
        &sandbox,
        &["--allowed-origin", "https://app.example.com:443"],
    );
    let auth = format!("Authorization: Bearer {TOKEN}");
    let evil = post(
        server.address,
        &format!("{auth}\r\nOrigin: http://evil.example"),
        &tools_list(),
    );
    assert_eq!(evil.status, 403, "{evil:?}");
    let allowed = post(
        server.address,
        &format!("{auth}\r\nOrigin: https://app.example.com"),
        &tools_list(),
    );
    assert_eq!(allowed.status, 200, "{allowed:?}");
    // A DNS-rebinding page reaches 127.0.0.1 under its own name.
    let mut stream = TcpStream::connect(server.address).unwrap();
    let body = tools_list().to_string();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: attacker.example:{}\r\n{JSON_HEADERS}\r\n{auth}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.address.port(),
        body.len()
    )
    .unwrap();
    assert_eq!(read_reply(&mut stream).status, 403);
}

#[test]
fn bad_requests_get_clear_statuses() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(
        &sandbox,
        &[
            "--max-argument-bytes",
            "4096",
            "--max-argument-values",
            "100",
            "--read-timeout",
            "1",
        ],
    );
    let auth = format!("Authorization: Bearer {TOKEN}");

    let wrong_type = exchange(
        server.address,
        &format!("POST /mcp HTTP/1.1\r\nContent-Type: text/plain\r\n{auth}"),
        b"{}",
    );
    assert_eq!(wrong_type.status, 415, "{wrong_type:?}");

    let wrong_path = exchange(
        server.address,
        &format!("POST /other HTTP/1.1\r\n{auth}"),
        b"",
    );
    assert_eq!(wrong_path.status, 404);

    let wrong_revision = exchange(
        server.address,
        &format!(
            "POST /mcp HTTP/1.1\r\n{JSON_HEADERS}\r\n{auth}\r\nMCP-Protocol-Version: 1999-01-01"
        ),
        tools_list().to_string().as_bytes(),
    );
    assert_eq!(wrong_revision.status, 400, "{wrong_revision:?}");

    let not_json = exchange(
        server.address,
        &format!("POST /mcp HTTP/1.1\r\n{JSON_HEADERS}\r\n{auth}"),
        b"{not json",
    );
    assert!(
        (400..500).contains(&not_json.status) || not_json.body.contains("-32700"),
        "{not_json:?}"
    );

    // Declared too large: refused before a byte of the body is read.
    let mut stream = TcpStream::connect(server.address).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {}\r\n{JSON_HEADERS}\r\n{auth}\r\nContent-Length: 100000000\r\n\r\n",
        server.address
    )
    .unwrap();
    assert_eq!(read_reply(&mut stream).status, 413);

    // Chunked, with no length: cut off at the cap while it streams.
    let mut stream = TcpStream::connect(server.address).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {}\r\n{JSON_HEADERS}\r\n{auth}\r\nTransfer-Encoding: chunked\r\n\r\n",
        server.address
    )
    .unwrap();
    let chunk = vec![b' '; 16 * 1024];
    for _ in 0..8 {
        if write!(stream, "{:x}\r\n", chunk.len()).is_err()
            || stream.write_all(&chunk).is_err()
            || stream.write_all(b"\r\n").is_err()
        {
            break;
        }
    }
    assert_eq!(read_reply(&mut stream).status, 413);

    // A body that never finishes arriving.
    let started = Instant::now();
    let mut stream = TcpStream::connect(server.address).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {}\r\n{JSON_HEADERS}\r\n{auth}\r\nContent-Length: 500\r\n\r\n{{\"jsonrpc\"",
        server.address
    )
    .unwrap();
    assert_eq!(read_reply(&mut stream).status, 408);
    assert!(started.elapsed() < Duration::from_secs(10));

    // Headers that never finish arriving: the connection is closed.
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream.write_all(b"POST /mcp HTTP/1.1\r\nHost: x").unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut rest = Vec::new();
    let read = stream.read_to_end(&mut rest);
    assert!(read.is_ok(), "closed, not left hanging: {read:?}");

    // Arguments over --max-argument-bytes: -32602, nothing checked or run.
    let big = "a".repeat(5000);
    let over = authorized(server.address, &tools_call("greet", json!({"who": big})));
    assert_eq!(over.status, 200, "{over:?}");
    let error = &over.json()["error"];
    assert_eq!(error["code"], -32602, "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("4096"),
        "{error}"
    );
    assert!(audit_events(&sandbox).is_empty());

    // Within the bytes but over --max-argument-values: refused for its
    // values (the object, its key, the array and 100 items), with the
    // request's id.
    let many = authorized(
        server.address,
        &tools_call("greet", json!({"who": vec![1; 100]})),
    );
    assert_eq!(many.status, 200, "{many:?}");
    let reply = many.json();
    assert_eq!(reply["id"], 7, "{reply}");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert_eq!(reply["error"]["data"]["values"], 103, "{reply}");
    assert_eq!(reply["error"]["data"]["limit"], 100, "{reply}");
    assert!(audit_events(&sandbox).is_empty());
    // A notification of more values than any message may hold (the cap
    // plus 4,096): no id to answer, so the body is refused whole.
    let note = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": 1, "progress": 1, "x": vec![1; 4300]}});
    assert_eq!(authorized(server.address, &note).status, 413);

    // The server is still there.
    assert_eq!(authorized(server.address, &tools_list()).status, 200);
}

#[test]
fn startup_refuses_an_unauthenticated_or_exposed_server() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let output = |out: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let run = |args: &[&str]| {
        sandbox
            .cmd()
            .arg("--commands")
            .arg(sandbox.join("commands"))
            .args(["mcp", "serve"])
            .args(args)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap()
    };
    let no_token = run(&["--http", "127.0.0.1:0"]);
    assert_eq!(no_token.status.code(), Some(2));
    assert!(output(&no_token).contains("--token-file"));

    let token = sandbox.join("token");
    let token = token.to_str().unwrap();
    let remote = run(&["--http", "0.0.0.0:0", "--token-file", token]);
    assert_eq!(remote.status.code(), Some(2));
    assert!(output(&remote).contains("--allow-remote"));

    let nameless = run(&[
        "--http",
        "0.0.0.0:0",
        "--token-file",
        token,
        "--allow-remote",
    ]);
    assert_eq!(nameless.status.code(), Some(2));
    assert!(output(&nameless).contains("--allowed-host"));

    let weak = sandbox.write("weak", "hunter2\n");
    let weak = run(&[
        "--http",
        "127.0.0.1:0",
        "--token-file",
        weak.to_str().unwrap(),
    ]);
    assert_ne!(weak.status.code(), Some(0));
    assert!(!output(&weak).contains("hunter2"));

    let unset = sandbox
        .cmd()
        .arg("--commands")
        .arg(sandbox.join("commands"))
        .args([
            "mcp",
            "serve",
            "--http",
            "127.0.0.1:0",
            "--token-env",
            "AIGENT_TEST_UNSET_TOKEN",
        ])
        .env_remove("AIGENT_TEST_UNSET_TOKEN")
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert_ne!(unset.status.code(), Some(0));
    assert!(output(&unset).contains("AIGENT_TEST_UNSET_TOKEN"));
}

/// The server's resident memory, in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Whether the server has closed `stream`: a read ends (EOF or reset)
/// within `within`, rather than timing out.
fn closed_by_server(stream: &TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut sink = [0u8; 4096];
    let mut reader = stream;
    loop {
        match reader.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(err) => {
                return !matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                );
            }
        }
    }
}

/// A `tools/list` with the token on a new connection of its own.
fn token_holder_lists(address: SocketAddr) -> Reply {
    let mut stream = TcpStream::connect(address).unwrap();
    let body = tools_list().to_string();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\n{JSON_HEADERS}\r\nMCP-Protocol-Version: 2025-06-18\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    read_reply(&mut stream)
}

#[test]
#[cfg(target_os = "linux")]
fn a_thousand_connections_at_once_are_bounded() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(
        &sandbox,
        &[
            "--max-connections",
            "64",
            "--max-unauthenticated-connections",
            "64",
            "--read-timeout",
            "10",
        ],
    );
    let before = rss_kib(server.child.id());
    let mut streams = Vec::new();
    for index in 0..1000 {
        let mut stream = TcpStream::connect(server.address).expect("connect");
        // Half send a partial request and stall; half send nothing.
        if index % 2 == 0 {
            let _ = stream.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        }
        streams.push(stream);
    }
    let during = rss_kib(server.child.id());
    // None of them showed the token: all but the newest 64 were closed to
    // make room, oldest first.
    let closed = streams
        .iter()
        .take(100)
        .filter(|stream| closed_by_server(stream, Duration::from_secs(5)))
        .count();
    assert!(closed >= 95, "only {closed} of the first 100 were closed");
    let open = streams
        .iter()
        .rev()
        .take(20)
        .filter(|stream| !closed_by_server(stream, Duration::from_millis(100)))
        .count();
    assert_eq!(open, 20, "the newest are still held");
    // A token holder is answered at once, with every stalled one still
    // connected: its connection is the newest.
    let started = Instant::now();
    let reply = token_holder_lists(server.address);
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        during.saturating_sub(before) < 64 * 1024,
        "1,000 connections took {} KiB (from {before} to {during})",
        during.saturating_sub(before)
    );
    drop(streams);
}

/// The attack of issue 41: tokenless clients, each sending a request now
/// and then on a kept-alive connection, held every slot. Now each is
/// answered once and closed, and those that connect and say nothing only
/// ever hold the small pool, oldest closed first: a token holder is
/// answered throughout.
#[test]
#[cfg(target_os = "linux")]
fn tokenless_keep_alive_clients_cannot_lock_out_a_token_holder() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(&sandbox, &["--max-connections", "8"]);
    let address = server.address;
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let kept_open = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for index in 0..256 {
        let (stop, answered, kept_open) = (
            Arc::clone(&stop),
            Arc::clone(&answered),
            Arc::clone(&kept_open),
        );
        clients.push(
            std::thread::Builder::new()
                .stack_size(64 * 1024)
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let Ok(mut stream) = TcpStream::connect(address) else {
                            std::thread::sleep(Duration::from_millis(50));
                            continue;
                        };
                        if index % 4 == 0 {
                            // Connects and says nothing, as long as it is let.
                            let _ = closed_by_server(&stream, Duration::from_secs(5));
                            continue;
                        }
                        // A tokenless request, asking to keep the connection.
                        let body = tools_list().to_string();
                        let sent = write!(
                            stream,
                            "POST /mcp HTTP/1.1\r\nHost: {address}\r\n{JSON_HEADERS}\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        if sent.is_err() {
                            continue;
                        }
                        let mut head = [0u8; 12];
                        stream
                            .set_read_timeout(Some(Duration::from_secs(10)))
                            .unwrap();
                        if stream.read_exact(&mut head).is_ok() && &head == b"HTTP/1.1 401" {
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                        if !closed_by_server(&stream, Duration::from_secs(2)) {
                            kept_open.fetch_add(1, Ordering::Relaxed);
                        }
                        std::thread::sleep(Duration::from_millis(200));
                    }
                })
                .unwrap(),
        );
    }
    std::thread::sleep(Duration::from_secs(1));
    for round in 0..20 {
        let reply = token_holder_lists(address);
        assert_eq!(reply.status, 200, "round {round}: {reply:?}");
        assert_eq!(reply.json()["result"]["tools"][0]["name"], "greet");
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }
    assert!(
        answered.load(Ordering::Relaxed) >= 192,
        "the tokenless clients were answered: {answered:?}"
    );
    assert_eq!(
        kept_open.load(Ordering::Relaxed),
        0,
        "a 401 closes its connection"
    );
}

/// The raw reply to `request`, sent as it is.
fn raw(address: SocketAddr, request: &str) -> Reply {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    read_reply(&mut stream)
}

#[test]
fn every_host_header_the_target_and_the_port_are_checked() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(&sandbox, &[]);
    let address = server.address;
    let body = tools_list().to_string();
    let length = body.len();
    let auth = format!("Authorization: Bearer {TOKEN}");
    let request = |target: &str, hosts: &str| {
        format!(
            "POST {target} HTTP/1.1\r\n{hosts}{JSON_HEADERS}\r\nMCP-Protocol-Version: 2025-06-18\r\n{auth}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n{body}"
        )
    };
    // Each with the right token: the host alone decides.
    for (what, target, hosts, status) in [
        (
            "a second Host header",
            "/mcp",
            format!("Host: {address}\r\nHost: evil.example\r\n"),
            400,
        ),
        (
            "two equal Host headers",
            "/mcp",
            format!("Host: {address}\r\nHost: {address}\r\n"),
            400,
        ),
        ("no Host header", "/mcp", String::new(), 400),
        (
            "an absolute target naming another host",
            "http://evil.example/mcp",
            format!("Host: {address}\r\n"),
            400,
        ),
        (
            "an absolute target and Host both naming another host",
            "http://evil.example/mcp",
            "Host: evil.example\r\n".to_owned(),
            403,
        ),
        (
            "a port past 65535",
            "/mcp",
            "Host: localhost:99999\r\n".to_owned(),
            400,
        ),
        ("port 0", "/mcp", "Host: localhost:0\r\n".to_owned(), 400),
        (
            "user information",
            "/mcp",
            "Host: user@localhost\r\n".to_owned(),
            400,
        ),
    ] {
        let reply = raw(address, &request(target, &hosts));
        assert_eq!(reply.status, status, "{what}: {reply:?}");
        assert_eq!(reply.header("connection"), Some("close"), "{what}");
    }
    // The same with a name it answers to, in either form.
    for (target, hosts) in [
        ("/mcp".to_owned(), format!("Host: {address}\r\n")),
        (
            format!("http://localhost:{}/mcp", address.port()),
            format!("Host: localhost:{}\r\n", address.port()),
        ),
        ("/mcp".to_owned(), "Host: [::1]\r\n".to_owned()),
    ] {
        let reply = raw(address, &request(&target, &hosts));
        assert_eq!(reply.status, 200, "{target} {hosts}: {reply:?}");
    }
    assert!(
        audit_events(&sandbox).is_empty(),
        "nothing was checked or run"
    );
}

/// A connection that has shown the token is kept; a 401 on it, or any
/// answer to one that never showed it, closes it.
#[test]
fn only_a_connection_that_showed_the_token_is_kept_alive() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(&sandbox, &[]);
    let address = server.address;
    let body = tools_list().to_string();
    let send = |stream: &mut TcpStream, auth: &str| {
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\n{JSON_HEADERS}\r\nMCP-Protocol-Version: 2025-06-18\r\n{auth}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
    };
    let token = format!("Authorization: Bearer {TOKEN}\r\n");
    let mut stream = TcpStream::connect(address).unwrap();
    for _ in 0..3 {
        send(&mut stream, &token);
        let reply = read_reply(&mut stream);
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_ne!(reply.header("connection"), Some("close"));
    }
    send(
        &mut stream,
        "Authorization: Bearer wrong-token-0123456789\r\n",
    );
    let reply = read_reply(&mut stream);
    assert_eq!(reply.status, 401);
    assert_eq!(reply.header("connection"), Some("close"));
    assert!(closed_by_server(&stream, Duration::from_secs(5)));

    // Never showed it: a 404 closes it as a 401 does.
    let mut stream = TcpStream::connect(address).unwrap();
    write!(stream, "GET /elsewhere HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 404");
    assert!(closed_by_server(&stream, Duration::from_secs(5)));
}

#[test]
fn two_replicas_share_only_the_registry_and_the_audit_log() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let first = start(&sandbox, &[]);
    let second = start(&sandbox, &[]);
    // A load balancer may send each request anywhere: no session ties a
    // client to one replica.
    for round in 0..6 {
        let replica = if round % 2 == 0 { &first } else { &second };
        let who = format!("r{round}");
        let reply = authorized(replica.address, &tools_call("greet", json!({"who": who})));
        assert_eq!(reply.status, 200, "{reply:?}");
        assert!(reply.header("mcp-session-id").is_none());
        let result = &reply.json()["result"];
        assert_eq!(
            result["structuredContent"]["stdout"],
            format!("hello {who}\n")
        );
    }
    let executed = audit_events(&sandbox)
        .into_iter()
        .filter(|e| e["event"] == "COMMAND_EXECUTED")
        .count();
    assert_eq!(executed, 6);
    // Both wrote to one chain, under its lock: it verifies.
    sandbox
        .cmd()
        .args(["audit", "verify"])
        .timeout(Duration::from_secs(30))
        .assert()
        .success();
}
