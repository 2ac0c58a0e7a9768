//! `aigent mcp serve` from a client's side, over stdio with rmcp's client:
//!
//! - `tools/call` round trip for a trivial declared command (`true`),
//!   against spawning `true` directly: the p50 difference is the server's
//!   overhead (goal: at most 1 ms);
//! - `tools/list` over a registry of 1,000 declarations (goal: under 50 ms);
//! - server start: spawn to a completed `initialize` handshake (goal: under
//!   20 ms).
//!
//!     cargo bench --bench mcp
//!
//! Prints min / p50 / p90 / max in milliseconds for each. Uses the binary
//! Cargo built for the bench profile (release).

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;

/// `cargo bench` passes `--bench`; `cargo test --all-targets` runs this
/// too, without it, and gets a quick smoke run.
fn rounds(full: usize) -> usize {
    if std::env::args().any(|arg| arg == "--bench") {
        full
    } else {
        2
    }
}

fn server(registry: &Path, audit_log: &Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_aigent"));
    cmd.arg("--commands")
        .arg(registry)
        .args(["mcp", "serve"])
        .env("AIGENT_AUDIT_LOG", audit_log)
        .stderr(Stdio::null());
    cmd
}

fn report(label: &str, mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    println!(
        "{label:<44} n={:<4} min {:>7.3}  p50 {:>7.3}  p90 {:>7.3}  max {:>7.3} ms",
        samples.len(),
        ms(samples[0]),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(samples[samples.len() - 1])
    );
    at(0.5)
}

fn declaration(name: &str) -> String {
    format!(
        "name: {name}\ndescription: Does nothing, successfully\ndanger_level: safe\nparameters:\n  label: {{type: string, required: false, pattern_type: alphanumeric_id}}\nsubprocess: {{binary: \"true\", hardcoded_args: [], user_controlled_args: [label]}}\n"
    )
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let (calls_n, lists_n, starts_n) = (rounds(300), rounds(50), rounds(50));
    let dir = tempfile::tempdir().expect("temp dir");
    let audit_log = dir.path().join("audit.jsonl");
    let small = dir.path().join("small");
    let large = dir.path().join("large");
    std::fs::create_dir_all(&small).unwrap();
    std::fs::create_dir_all(&large).unwrap();
    std::fs::write(small.join("noop.yaml"), declaration("noop")).unwrap();
    for index in 0..1000 {
        let name = format!("noop-{index:04}");
        std::fs::write(large.join(format!("{name}.yaml")), declaration(&name)).unwrap();
    }

    // Spawning `true` directly, as the baseline.
    let mut direct = Vec::with_capacity(calls_n);
    for _ in 0..calls_n {
        let started = Instant::now();
        let status = tokio::process::Command::new("true")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .await
            .unwrap();
        assert!(status.status.success());
        direct.push(started.elapsed());
    }
    let spawn_p50 = report("spawn `true` directly", direct);

    let client =
        ().serve(TokioChildProcess::new(server(&small, &audit_log)).unwrap())
            .await
            .unwrap();
    let mut calls = Vec::with_capacity(calls_n);
    for _ in 0..calls_n {
        let params = CallToolRequestParams::new("noop").with_arguments(
            serde_json::json!({"label": "bench1"})
                .as_object()
                .unwrap()
                .clone(),
        );
        let started = Instant::now();
        let result = client.call_tool(params).await.unwrap();
        calls.push(started.elapsed());
        assert_eq!(result.is_error, Some(false));
    }
    let call_p50 = report("tools/call `noop` (runs `true`)", calls);
    println!(
        "{:<44} p50 overhead {:.3} ms (goal <= 1 ms)",
        "tools/call vs direct spawn",
        (call_p50.as_secs_f64() - spawn_p50.as_secs_f64()) * 1000.0
    );
    client.cancel().await.unwrap();

    let mut first_lists = Vec::with_capacity(5);
    let mut lists = Vec::with_capacity(lists_n);
    for round in 0..rounds(5) {
        let client =
            ().serve(TokioChildProcess::new(server(&large, &audit_log)).unwrap())
                .await
                .unwrap();
        let started = Instant::now();
        let tools = client.list_all_tools().await.unwrap();
        first_lists.push(started.elapsed());
        assert_eq!(tools.len(), 1000);
        if round == 0 {
            for _ in 0..lists_n {
                let started = Instant::now();
                let tools = client.list_all_tools().await.unwrap();
                lists.push(started.elapsed());
                assert_eq!(tools.len(), 1000);
            }
        }
        client.cancel().await.unwrap();
    }
    report("tools/list, 1,000 tools (first in a session)", first_lists);
    report("tools/list, 1,000 tools (repeated)", lists);

    let mut starts = Vec::with_capacity(starts_n);
    for _ in 0..starts_n {
        let started = Instant::now();
        let client =
            ().serve(TokioChildProcess::new(server(&small, &audit_log)).unwrap())
                .await
                .unwrap();
        starts.push(started.elapsed());
        client.cancel().await.unwrap();
    }
    report("start: spawn to initialize answered", starts);
    let mut large_starts = Vec::with_capacity(10);
    for _ in 0..rounds(10) {
        let started = Instant::now();
        let client =
            ().serve(TokioChildProcess::new(server(&large, &audit_log)).unwrap())
                .await
                .unwrap();
        large_starts.push(started.elapsed());
        client.cancel().await.unwrap();
    }
    report("start with 1,000 declarations", large_starts);
}
