//! `aigent lsp` from an editor's side: the time from a `didChange` on a
//! ~20 KB SKILL.md to the `publishDiagnostics` for that version, over the
//! real binary's stdio (goal: p50 at most 10 ms). Beside it, the baseline
//! an editor without a server would pay: `aigent skill validate FILE` as
//! a process, start to exit.
//!
//!     AIGENT_LSP_BENCH_SKILL=path/to/SKILL.md cargo bench --bench lsp
//!
//! The skill should be a real one: scripts/real-skills.sh fetches the
//! public collections (a ~20 KB one: wshobson/agents
//! plugins/plugin-eval/skills/evaluation-methodology/SKILL.md). Without
//! the variable, the skill is this repository's docs/skills.md (real
//! prose, about 40 KB) under a frontmatter, cut to 20 KB.
//!
//! Each round alternately inserts and deletes one line in the body (an
//! incremental change, as editors send them), so the text stays the same
//! size. Prints min / p50 / p90 / max in milliseconds.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// `cargo bench` passes `--bench`; `cargo test --all-targets` runs this
/// too, without it, and gets a quick smoke run.
fn rounds(full: usize) -> usize {
    if std::env::args().any(|arg| arg == "--bench") {
        full
    } else {
        2
    }
}

const TARGET_BYTES: usize = 20 * 1024;

fn skill_text(dir: &Path) -> (PathBuf, String, &'static str) {
    if let Ok(path) = std::env::var("AIGENT_LSP_BENCH_SKILL") {
        let text = std::fs::read_to_string(&path).expect("read AIGENT_LSP_BENCH_SKILL");
        let name = Path::new(&path)
            .parent()
            .and_then(Path::file_name)
            .map_or("skill".to_owned(), |name| {
                name.to_string_lossy().into_owned()
            });
        let file = dir.join(&name).join("SKILL.md");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, &text).unwrap();
        return (file, text, "AIGENT_LSP_BENCH_SKILL");
    }
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/skills.md"))
            .expect("docs/skills.md");
    let mut body = String::new();
    for line in docs.lines() {
        if body.len() + line.len() + 1 > TARGET_BYTES - 200 {
            break;
        }
        body.push_str(line);
        body.push('\n');
    }
    let text = format!(
        "---\nname: skill-authoring\ndescription: Validate, format and fix Agent Skills with aigent. Use when writing or reviewing a SKILL.md.\n---\n{body}"
    );
    let file = dir.join("skill-authoring/SKILL.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &text).unwrap();
    (file, text, "docs/skills.md under a frontmatter")
}

struct Server {
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    child: std::process::Child,
}

impl Server {
    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// Reads until the diagnostics of `version`.
    fn diagnostics(&mut self, version: i64) -> Value {
        loop {
            let message = self.read();
            if message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["version"] == version
            {
                return message;
            }
        }
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn summary(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{label:<44} n={:<4} min {:>7.2}  p50 {:>7.2}  p90 {:>7.2}  max {:>7.2}  ms",
        times.len(),
        ms(times[0]),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(times[times.len() - 1]),
    );
}

fn main() {
    let binary = env!("CARGO_BIN_EXE_aigent");
    let dir = tempfile::tempdir().unwrap();
    let (file, text, source) = skill_text(dir.path());
    println!(
        "skill: {} bytes, {} lines, from {source}",
        text.len(),
        text.lines().count()
    );

    let mut child = Command::new(binary)
        .arg("lsp")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut server = Server {
        stdin: child.stdin.take().unwrap(),
        stdout: BufReader::new(child.stdout.take().unwrap()),
        child,
    };
    server.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    server.read();
    server.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let uri = uri(&file);
    server.send(
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}}),
    );
    let first = server.diagnostics(1);
    println!(
        "findings on the skill: {}",
        first["params"]["diagnostics"]
            .as_array()
            .map_or(0, Vec::len)
    );
    // A line in the middle of the body.
    let line = text.lines().count() / 2;
    let mut times = Vec::new();
    let total = rounds(300);
    for round in 0..total {
        let version = i64::try_from(round).unwrap() + 2;
        let change = if round % 2 == 0 {
            json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}},
                   "text": "An edit typed in the middle of the body.\n"})
        } else {
            json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line + 1, "character": 0}},
                   "text": ""})
        };
        let started = Instant::now();
        server.send(
            &json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}}),
        );
        server.diagnostics(version);
        times.push(started.elapsed());
    }
    summary("didChange -> publishDiagnostics (lsp)", times);
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    server.read();
    server.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
    let _ = server.child.wait();

    let mut baseline = Vec::new();
    for _ in 0..rounds(50) {
        let started = Instant::now();
        let status = Command::new(binary)
            .args(["--output", "json", "skill", "validate"])
            .arg(&file)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        baseline.push(started.elapsed());
        assert!(status.code().is_some());
    }
    summary("baseline: skill validate FILE (a process)", baseline);
}
