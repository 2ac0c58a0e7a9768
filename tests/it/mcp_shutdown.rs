//! `aigent mcp serve` ending with calls in flight: stdin closed, or
//! SIGTERM, SIGINT or SIGHUP. Each call's process group is ended (the
//! child's own child included), its outcome recorded as cancelled with
//! the reason, and the server exits within the grace period (2 s) plus
//! one second.

use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Sandbox;

/// The server, with one call in flight: `hang`, whose child's own child
/// (a `sleep 300`) wrote its pid to [`grandchild`]'s file.
fn start(sandbox: &Sandbox) -> (Child, ChildStdin) {
    let script = sandbox.write(
        "scripts/hang.sh",
        format!(
            "sleep 300 &\necho $! > '{}'\nwait\n",
            sandbox.join("grandchild.pid").display()
        ),
    );
    sandbox.write(
        "commands/hang.yaml",
        format!(
            "name: hang\ndescription: Hangs\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}\nsandbox: {{write: ['{}']}}\n",
            script.display(),
            sandbox.path().display()
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
    while grandchild(sandbox).is_none() {
        assert!(Instant::now() < deadline, "the call never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, stdin)
}

/// The pid of the call's grandchild, once it has written it.
fn grandchild(sandbox: &Sandbox) -> Option<i32> {
    std::fs::read_to_string(sandbox.join("grandchild.pid"))
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Waits a moment for `pid` to be gone (SIGKILL is delivered
/// asynchronously); whether it is.
fn gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if !crate::mcp::alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
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

/// SIGHUP (the terminal the server ran in was closed) ends the calls as
/// SIGTERM and SIGINT do; left to its default it killed the server alone
/// and orphaned the call's process group, with no outcome record.
#[test]
fn each_stop_signal_mid_call_ends_the_child_and_records_it_cancelled() {
    for (signal, name) in [
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGHUP, "SIGHUP"),
    ] {
        let sandbox = Sandbox::new();
        let (mut child, _stdin) = start(&sandbox);
        let orphan = grandchild(&sandbox).unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(pid, signal);
        }
        let took = wait_exit(
            &mut child,
            Duration::from_secs(3) + Duration::from_millis(500),
        );
        let record = cancelled_record(&sandbox);
        assert_eq!(record["cancelled"], true, "{name}: {record}");
        assert_eq!(
            record["cancel_reason"],
            format!("the server got {name}"),
            "{record}"
        );
        assert!(
            gone(orphan),
            "{name}: the grandchild {orphan} outlived the call"
        );
        assert!(took < Duration::from_secs(4), "{name}: {took:?}");
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{name}: a clean exit: {status:?}");
    }
}
