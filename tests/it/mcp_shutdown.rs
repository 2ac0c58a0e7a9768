//! `aigent mcp serve` ending with calls in flight: stdin closed, or
//! SIGTERM. Each call's process group is ended, its outcome recorded as
//! cancelled with the reason, and the server exits within the grace
//! period (2 s) plus one second.

use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Sandbox;

fn start(sandbox: &Sandbox) -> (Child, ChildStdin) {
    let script = sandbox.write("scripts/hang.sh", "sleep 300\n");
    sandbox.write(
        "commands/hang.yaml",
        format!(
            "name: hang\ndescription: Hangs\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}\n",
            script.display()
        ),
    );
    let mut child = sandbox
        .mcp_serve(&[])
        .stdout(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "hang", "arguments": {}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !events(sandbox)
        .iter()
        .any(|e| e["event"] == "COMMAND_STARTED")
    {
        assert!(Instant::now() < deadline, "the call never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, stdin)
}

fn events(sandbox: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sandbox.audit_log())
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

fn wait_exit(child: &mut Child, within: Duration) -> Duration {
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return started.elapsed();
        }
        if started.elapsed() > within {
            let _ = child.kill();
            panic!("the server did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn cancelled_record(sandbox: &Sandbox) -> Value {
    events(sandbox)
        .into_iter()
        .find(|e| e["event"] == "COMMAND_EXECUTED")
        .expect("an outcome record")
}

#[test]
fn closing_stdin_mid_call_ends_the_child_and_records_it_cancelled() {
    let sandbox = Sandbox::new();
    let (mut child, stdin) = start(&sandbox);
    drop(stdin);
    let took = wait_exit(
        &mut child,
        Duration::from_secs(3) + Duration::from_millis(500),
    );
    let record = cancelled_record(&sandbox);
    assert_eq!(record["cancelled"], true, "{record}");
    assert_eq!(
        record["cancel_reason"], "the client closed stdin",
        "{record}"
    );
    assert!(took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn sigterm_mid_call_ends_the_child_and_records_it_cancelled() {
    let sandbox = Sandbox::new();
    let (mut child, _stdin) = start(&sandbox);
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
    wait_exit(
        &mut child,
        Duration::from_secs(3) + Duration::from_millis(500),
    );
    let record = cancelled_record(&sandbox);
    assert_eq!(record["cancelled"], true, "{record}");
    assert_eq!(
        record["cancel_reason"], "the server got SIGTERM",
        "{record}"
    );
}
