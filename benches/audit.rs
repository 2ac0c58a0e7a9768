//! The cost of one audit record, with signed checkpoints and export on
//! against off (issue #27; goal: at most 0.2 ms more at p50).
//!
//! - `append plain`: one `append_buffered` (the hook's path: locked,
//!   chained, one write, no fsync) to a log without a key;
//! - `append signed N=100`: the same with a signing key, a checkpoint after
//!   every 100th record (the default);
//! - `append signed N=1`: a checkpoint after every record (the worst case);
//! - `export otlp`: per record, an `aigent audit export` pass over 1,024
//!   records to an OTLP/HTTP collector on loopback (encoding, POST of
//!   batches of 256, cursor moves). Export runs apart from the writers, so
//!   this cost is never on a run's path; it is shown to size a collector.
//!
//!     cargo bench --bench audit
//!
//! Prints min / p50 / p90 / max in microseconds per record.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

use aigent::exec::audit::export::{self, Destination};
use aigent::exec::audit::sign::CheckpointSigner;
use aigent::exec::audit::{AuditLog, AuditRecord, EVENT_COMMAND_EXECUTED, RealDisk};

/// `cargo bench` passes `--bench`; `cargo test --all-targets` runs this
/// too, without it, and gets a quick smoke run.
fn rounds(full: usize) -> usize {
    if std::env::args().any(|arg| arg == "--bench") {
        full
    } else {
        3
    }
}

fn record(index: usize) -> AuditRecord {
    AuditRecord::new(EVENT_COMMAND_EXECUTED, "deploy")
        .with_request_id(format!("0b6f3c1e-7d2a-4e59-9a4f-{index:012}"))
        .with(
            "argv",
            serde_json::json!(["kubectl", "rollout", "restart", "deploy/web"]),
        )
        .with("exit_code", 0)
        .with("duration_ms", 12)
}

fn report(name: &str, mut micros: Vec<f64>) {
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<22} min {:>8.1}  p50 {:>8.1}  p90 {:>8.1}  max {:>8.1}  (us per record, {} samples)",
        at(0.0),
        at(0.5),
        at(0.9),
        at(1.0),
        micros.len()
    );
}

fn append(name: &str, every: Option<u64>, samples: usize) -> Vec<f64> {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("audit.jsonl")).with_max_bytes(8 << 20);
    let signer = every.map(|every| {
        CheckpointSigner::from_key(ed25519_dalek::SigningKey::from_bytes(&[7; 32]), every)
    });
    let open = log.open_with_signer(Box::new(RealDisk), signer).unwrap();
    for index in 0..50 {
        open.append_buffered(&record(index)).unwrap();
    }
    let micros: Vec<f64> = (0..samples)
        .map(|index| {
            let record = record(index);
            let started = Instant::now();
            open.append_buffered(&record).unwrap();
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    report(name, micros.clone());
    micros
}

/// A collector that takes every request and answers 200.
fn collector() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let _ = reader
                .into_inner()
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    url
}

fn export_otlp(samples: usize) {
    const RECORDS: usize = 1024;
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("audit.jsonl"));
    let open = log.open().unwrap();
    for index in 0..RECORDS {
        open.append_buffered(&record(index)).unwrap();
    }
    let destination = Destination::otlp(&collector()).unwrap();
    let micros: Vec<f64> = (0..samples)
        .map(|_| {
            // Start from the beginning each time: remove the cursor.
            for entry in std::fs::read_dir(dir.path()).unwrap().flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.contains(".export-") && !name.ends_with(".lock") {
                    std::fs::remove_file(entry.path()).unwrap();
                }
            }
            let started = Instant::now();
            let done = export::export(&log, &destination, Duration::from_secs(5)).unwrap();
            assert_eq!(done.sent, RECORDS as u64);
            started.elapsed().as_secs_f64() * 1e6 / RECORDS as f64
        })
        .collect();
    report("export otlp", micros);
}

fn main() {
    let samples = rounds(5000);
    let plain = append("append plain", None, samples);
    let every_100 = append("append signed N=100", Some(100), samples);
    append("append signed N=1", Some(1), rounds(2000));
    export_otlp(rounds(30));
    let median = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    println!(
        "signing on (N=100) - off at p50: {:+.1} us per record",
        median(every_100) - median(plain)
    );
}
