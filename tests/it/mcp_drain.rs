//! `aigent mcp serve --drain SECS`: calls the server has read when stdin
//! closes (or it gets SIGTERM), started or still queued, run to the end
//! within the drain period; each gets one response and one outcome
//! record. Past the period, what is left is cancelled with the reason.

use std::io::{Read, Write};
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Sandbox;

const CALLS: u64 = 6;

/// A server with one tool that sleeps SECS, sent `initialize` and CALLS
/// calls in one write; stdin is then closed at once (`close`) or left
/// open for a signal.
fn start(sandbox: &Sandbox, sleep: &str, drain: &str, close: bool) -> Child {
    let script = sandbox.write("scripts/nap.sh", format!("sleep {sleep}\necho done\n"));
    sandbox.write(
        "commands/nap.yaml",
        format!(
            "name: nap\ndescription: Naps\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}\n",
            script.display()
        ),
    );
    let mut child = sandbox
        .mcp_serve(&["--drain", drain])
        .spawn()
        .expect("server starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut text = String::new();
    for message in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ] {
        text.push_str(&format!("{message}\n"));
    }
    for id in 1..=CALLS {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "nap", "arguments": {}}});
        text.push_str(&format!("{call}\n"));
    }
    stdin.write_all(text.as_bytes()).unwrap();
    stdin.flush().unwrap();
    if close {
        drop(stdin);
    } else {
        // Kept open past the test's end: the server must not wait for it.
        std::mem::forget(stdin);
    }
    child
}

/// Waits for the server to exit; its stdout as JSON messages.
fn finish(child: &mut Child, within: Duration) -> Vec<Value> {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > within {
            let _ = child.kill();
            panic!("the server did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    out.lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

fn records(sandbox: &Sandbox, event: &str) -> Vec<Value> {
    std::fs::read_to_string(sandbox.audit_log())
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|record| record["event"] == event)
        .collect()
}

/// The answer to each call, by id: exactly one each.
fn answers(messages: &[Value]) -> Vec<Value> {
    (1..=CALLS)
        .map(|id| {
            let found: Vec<&Value> = messages.iter().filter(|m| m["id"] == id).collect();
            assert_eq!(found.len(), 1, "call {id}: {messages:?}");
            found[0].clone()
        })
        .collect()
}

#[test]
fn calls_written_just_before_eof_all_run_to_the_end() {
    let sandbox = Sandbox::new();
    let mut child = start(&sandbox, "0.3", "20", true);
    let messages = finish(&mut child, Duration::from_secs(20));
    for answer in answers(&messages) {
        let result = &answer["result"];
        assert_eq!(result["isError"], false, "{answer}");
        assert_eq!(result["structuredContent"]["ok"], true, "{answer}");
        assert_eq!(result["structuredContent"]["stdout"], "done\n", "{answer}");
    }
    let executed = records(&sandbox, "COMMAND_EXECUTED");
    assert_eq!(executed.len() as u64, CALLS, "{executed:?}");
    assert!(
        executed.iter().all(|r| r.get("cancelled").is_none()),
        "{executed:?}"
    );
}

#[test]
fn past_the_drain_period_what_is_left_is_cancelled_with_the_reason() {
    let sandbox = Sandbox::new();
    let mut child = start(&sandbox, "300", "1", true);
    // One second of drain, then the 2 s grace period, plus one second.
    let messages = finish(&mut child, Duration::from_secs(6));
    for answer in answers(&messages) {
        let result = &answer["result"];
        assert_eq!(result["isError"], true, "{answer}");
    }
    let executed = records(&sandbox, "COMMAND_EXECUTED");
    assert_eq!(executed.len() as u64, CALLS, "{executed:?}");
    for record in &executed {
        assert_eq!(record["cancelled"], true, "{record}");
        assert_eq!(
            record["cancel_reason"], "the client closed stdin",
            "{record}"
        );
    }
}

#[test]
fn sigterm_drains_the_calls_already_read() {
    let sandbox = Sandbox::new();
    let mut child = start(&sandbox, "0.5", "20", false);
    // Once the first call has started, the rest are read or queued.
    let deadline = Instant::now() + Duration::from_secs(20);
    while records(&sandbox, "COMMAND_STARTED").is_empty() {
        assert!(Instant::now() < deadline, "no call started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
    let messages = finish(&mut child, Duration::from_secs(20));
    for answer in answers(&messages) {
        assert_eq!(
            answer["result"]["structuredContent"]["ok"], true,
            "{answer}"
        );
    }
    assert_eq!(records(&sandbox, "COMMAND_EXECUTED").len() as u64, CALLS);
}
