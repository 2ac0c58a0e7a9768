//! What one large `tools/call` costs the server in memory (issue #30). The
//! figures are measured by `scripts/bench-mcp-memory.sh`; this holds the
//! one bound that is a property rather than a speed: arguments over the
//! cap are refused for what they are, without being parsed into the
//! values that cost many times their size. The server's peak RSS (VmHWM)
//! is read from /proc before and after.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};

use serde_json::{Value, json};

use crate::common::Sandbox;

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(sandbox: &Sandbox) -> Self {
        Self::start_with(sandbox, &[])
    }

    fn start_with(sandbox: &Sandbox, extra: &[&str]) -> Self {
        sandbox.write(
            "commands/words.yaml",
            "name: words\ndescription: Takes words\ndanger_level: safe\nparameters:\n  words: {type: array, required: true, pattern_type: free_text}\nsubprocess: {binary: true, hardcoded_args: [], user_controlled_args: [words]}\n",
        );
        let mut child = sandbox.mcp_serve(extra).spawn().expect("server starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Self {
            child,
            stdin,
            stdout,
        };
        server.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}),
        );
        server.answer(0);
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self, id: u64) -> Value {
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn call(&mut self, id: u64, words: usize) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "words", "arguments": {"words": vec!["a"; words]}}}));
        self.answer(id)
    }

    /// Peak resident memory so far, in KiB.
    fn peak_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn arguments_over_the_cap_are_refused_without_being_parsed() {
    let sandbox = Sandbox::new();
    let mut server = Server::start(&sandbox);
    // Warm: the declaration is loaded, a call has gone through.
    let warm = server.call(1, 4);
    assert!(warm["result"].is_object(), "{warm}");
    let idle = server.peak_kib();
    // 4 MiB of one-letter strings (4 bytes each), four times the default
    // cap of 1 MiB: parsed, such an array costs about 30 times its size.
    let reply = server.call(2, 1024 * 1024);
    let peak = server.peak_kib();
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert_eq!(reply["error"]["data"]["field"], "arguments", "{reply}");
    assert_eq!(reply["error"]["data"]["size"], 4 * 1024 * 1024 + 11);
    // The line itself is held a few times over (the pipe's buffers, the
    // line); 48 MiB leaves room for that and fails the parse it replaces.
    let grew = peak.saturating_sub(idle);
    assert!(
        grew < 48 * 1024,
        "a refused 4 MiB call raised the peak by {grew} KiB"
    );
    // The server goes on serving.
    let after = server.call(3, 4);
    assert!(after["result"].is_object(), "{after}");
}

#[test]
fn arguments_of_too_many_values_are_refused_without_being_parsed() {
    let sandbox = Sandbox::new();
    let mut server = Server::start(&sandbox);
    let warm = server.call(1, 4);
    assert!(warm["result"].is_object(), "{warm}");
    let idle = server.peak_kib();
    // 200,000 one-letter strings: 800 KB, within the default 1 MiB, but
    // far over the default 16,384 values. Parsed, this array cost about
    // 140 MiB (172 times its bytes).
    let reply = server.call(2, 200_000);
    let peak = server.peak_kib();
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let data = &reply["error"]["data"];
    assert_eq!(data["field"], "arguments", "{reply}");
    assert_eq!(data["values"], 200_003, "{reply}");
    assert_eq!(data["limit"], 16_384, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--max-argument-values"),
        "{reply}"
    );
    let grew = peak.saturating_sub(idle);
    assert!(
        grew < 24 * 1024,
        "a refused 800 KB call raised the peak by {grew} KiB"
    );
    assert!(server.call(3, 4)["result"].is_object());
}

#[test]
fn the_value_cap_is_the_operators_to_set() {
    let sandbox = Sandbox::new();
    let mut server = Server::start_with(&sandbox, &["--max-argument-values", "10"]);
    // The object, its key, the array and its items: 7 items are 10 values.
    assert!(server.call(1, 7)["result"].is_object());
    let over = server.call(2, 8);
    assert_eq!(over["error"]["code"], -32602, "{over}");
    assert_eq!(over["error"]["data"]["values"], 11, "{over}");
}

#[test]
fn a_notification_of_too_many_values_is_dropped_without_being_parsed() {
    let sandbox = Sandbox::new();
    let mut server = Server::start(&sandbox);
    assert!(server.call(1, 4)["result"].is_object());
    let idle = server.peak_kib();
    // No id to answer, and not a call: rmcp would still parse all of its
    // `params` (32 MiB above idle for these 800 KB; 3 MiB dropped).
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": 1, "progress": 1, "x": vec!["a"; 200_000]}}),
    );
    let after = server.call(2, 4);
    assert!(after["result"].is_object(), "{after}");
    let grew = server.peak_kib().saturating_sub(idle);
    assert!(
        grew < 12 * 1024,
        "a dropped 800 KB notification raised the peak by {grew} KiB"
    );
}
