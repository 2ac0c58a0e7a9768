//! aigent's hook and exports driven through the real clients: Claude Code,
//! Codex and Gemini CLI as published on npm, headless, each against the fake
//! model server on loopback (`common::model_server`), which proposes one
//! shell command per case and logs what the model is told back.
//!
//! The clients are installed by `scripts/install-clients.sh` (pinned
//! versions) into `$AIGENT_CLIENTS_DIR`, by default `target/real-clients/`.
//! When a client is not there the tests say so on stderr and pass, unless
//! `AIGENT_REAL_CLIENTS=required` (set by `.ci/run`), when they fail.
//!
//! Evidence is what ran: marker files in the case's project, the
//! `HOOK_DECISION` and `COMMAND_EXECUTED` records of the case's own audit
//! log, and the tool results the client sent back to the model. Every case
//! has its own home, client configuration, project, registry and audit
//! log, and the client's environment is cleared first: no key, setting or
//! state of the machine's user reaches it, and nothing but the fake server
//! is a model.

mod claude_code;
mod codex;
mod gemini;

use std::ffi::OsString;
use std::fmt;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::model_server::{ModelServer, prompt};
use crate::common::{Run, Sandbox};

/// The one fake model server of the test process.
fn server() -> &'static ModelServer {
    static SERVER: OnceLock<ModelServer> = OnceLock::new();
    SERVER.get_or_init(ModelServer::start)
}

/// Where the install script puts the clients.
fn clients_dir() -> PathBuf {
    std::env::var_os("AIGENT_CLIENTS_DIR")
        .filter(|dir| !dir.is_empty())
        .map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/real-clients"),
            PathBuf::from,
        )
}

/// The installed client `program` (`claude`, `codex`, `gemini`), or `None`
/// after saying why the test is skipped. With
/// `AIGENT_REAL_CLIENTS=required`, a missing client fails the test.
fn installed(program: &str) -> Option<PathBuf> {
    let path = clients_dir().join("node_modules/.bin").join(program);
    if path.is_file() {
        return Some(path);
    }
    let message = format!(
        "{program} is not installed in {}: run scripts/install-clients.sh (it needs the npm registry)",
        clients_dir().display()
    );
    if std::env::var("AIGENT_REAL_CLIENTS").as_deref() == Ok("required") {
        panic!("{message}; AIGENT_REAL_CLIENTS=required");
    }
    eprintln!("skipped: {message}");
    None
}

/// `PATH` for a client: the install's own `.bin` (a newer `node`, if the
/// script had to install one), then the directory of the `node` the tests
/// see, then the system's.
fn client_path() -> OsString {
    let mut dirs = vec![clients_dir().join("node_modules/.bin")];
    let system: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    if let Some(node_dir) = system.iter().find(|dir| dir.join("node").is_file()) {
        dirs.push(node_dir.clone());
    }
    for dir in ["/usr/local/bin", "/usr/bin", "/bin"] {
        dirs.push(PathBuf::from(dir));
    }
    std::env::join_paths(dirs).expect("PATH entries hold no separator")
}

/// One case's world: a sandbox holding the home, state and audit log, a
/// project directory (the client's working directory), and a registry in
/// the project.
struct World {
    id: String,
    sandbox: Sandbox,
    /// The case has its own registry (`project/commands`, the catalog
    /// off), named by `--commands`; else the hook reads the built-in
    /// catalog alone.
    declared: bool,
}

/// Declarations every case's registry holds: `touch` of a lower-case
/// `.txt` name (mutating: allowed), `rm` of one (destructive: asked), and
/// [`MKDIR`].
const TOUCH: &str = r#"{"name": "touch-marker", "description": "Make a marker file",
    "danger_level": "mutating",
    "parameters": {"file": {"type": "string", "required": true, "description": "The marker",
        "pattern": "^[a-z][a-z-]*\\.txt$"}},
    "subprocess": {"binary": "touch", "argv": [{"param": "file"}]}}"#;
const RM: &str = r#"{"name": "rm-marker", "description": "Remove a marker file",
    "danger_level": "destructive",
    "parameters": {"file": {"type": "string", "required": true, "description": "The marker",
        "pattern": "^[a-z][a-z-]*\\.txt$"}},
    "subprocess": {"binary": "rm", "argv": [{"param": "file"}]}}"#;

/// `mkdir -p -- DIR` of a lower-case name (mutating: allowed): its
/// exported rule holds more than the program (`mkdir -p --`), so the
/// exports allow it rather than ask.
const MKDIR: &str = r#"{"name": "mkdir-marker", "description": "Make a marker directory",
    "danger_level": "mutating",
    "parameters": {"dir": {"type": "string", "required": true, "description": "The marker",
        "pattern": "^[a-z][a-z-]*$"}},
    "subprocess": {"binary": "mkdir", "argv": ["-p", "--", {"param": "dir"}]}}"#;

impl World {
    /// A case with its own declarations ([`TOUCH`], [`RM`], [`MKDIR`]) and
    /// no catalog, so that each verdict is the one these declare.
    fn new(id: &str) -> Self {
        let world = Self::bare(id, true);
        let sandbox = &world.sandbox;
        sandbox.write("project/commands/touch-marker.json", TOUCH);
        sandbox.write("project/commands/rm-marker.json", RM);
        sandbox.write("project/commands/mkdir-marker.json", MKDIR);
        sandbox.write("project/commands/aigent.toml", "[hook]\ncatalog = false\n");
        world
    }

    /// A case with nothing declared and no `--commands`: the hook installed
    /// as a newcomer would, reading the built-in catalog alone.
    fn zero_config(id: &str) -> Self {
        Self::bare(id, false)
    }

    fn bare(id: &str, declared: bool) -> Self {
        // No example declarations in the user layer either.
        let sandbox = Sandbox::bare();
        for dir in ["home", "state", "config", "cache", "tmp", "project"] {
            std::fs::create_dir_all(sandbox.join(dir)).expect("make the case's directories");
        }
        Self {
            id: id.to_owned(),
            sandbox,
            declared,
        }
    }

    /// Makes the project a git repository with no commits.
    fn git_init(&self) {
        let status = Command::new("git")
            .args(["init", "--quiet", "--initial-branch", "main"])
            .current_dir(self.project())
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdout(Stdio::null())
            .status()
            .expect("run git init");
        assert!(status.success(), "git init failed");
    }

    fn join(&self, relative: &str) -> PathBuf {
        self.sandbox.join(relative)
    }

    fn project(&self) -> PathBuf {
        self.join("project")
    }

    fn registry(&self) -> PathBuf {
        self.join("project/commands")
    }

    fn home(&self) -> PathBuf {
        self.join("home")
    }

    /// `aigent --commands REGISTRY ARGS…` in the project (no `--commands`
    /// for a zero-config case), as a person would run it there (same home
    /// and audit log as the client's hook).
    fn aigent(&self, args: &[&str]) -> Run {
        let mut cmd = self.sandbox.cmd();
        cmd.current_dir(self.project()).arg("--output").arg("json");
        if self.declared {
            cmd.arg("--commands").arg(self.registry());
        }
        cmd.args(args);
        Run::of(&mut cmd)
    }

    /// `hook install --client CLIENT EXTRA…`, which must succeed.
    fn install_hook(&self, client: &str, extra: &[&str]) -> Run {
        let mut args = vec!["hook", "install", "--client", client];
        args.extend_from_slice(extra);
        let run = self.aigent(&args);
        assert_eq!(run.code, 0, "hook install failed:\n{run}");
        run
    }

    /// A client command with nothing of this machine's environment: the
    /// case's home and state, the audit log, and `PATH`.
    fn client_command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(self.project())
            .env_clear()
            .env("PATH", client_path())
            .env("HOME", self.home())
            .env("USER", "aigent-test")
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("NO_COLOR", "1")
            .env("XDG_STATE_HOME", self.join("state"))
            .env("XDG_CONFIG_HOME", self.join("config"))
            .env("XDG_CACHE_HOME", self.join("cache"))
            .env("TMPDIR", self.join("tmp"))
            .env("AIGENT_AUDIT_LOG", self.sandbox.audit_log());
        cmd
    }

    /// `hook doctor` reports the entry's program (`gone/aigent`) missing
    /// and says what the client does meanwhile.
    fn assert_doctor_finds_missing(&self, client: &str, consequence: &str) {
        let doctor = self.aigent(&["hook", "doctor", "--client", client]);
        assert_eq!(doctor.code, 1, "{doctor}");
        let envelope = doctor.envelope();
        assert_eq!(envelope["error"]["code"], "VALIDATION_FAILED", "{doctor}");
        let entry = &envelope["data"]["entries"][0];
        assert_eq!(entry["health"], "broken", "{doctor}");
        let detail = entry["checks"][0]["detail"].as_str().unwrap_or("");
        assert!(
            detail.contains("gone/aigent does not exist") && detail.contains(consequence),
            "{doctor}"
        );
    }

    fn prompt(&self, command: &str) -> String {
        prompt(&self.id, command)
    }

    /// Every audit record of the case's log.
    fn audit(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.sandbox.audit_log()).unwrap_or_default();
        text.lines()
            .map(|line| serde_json::from_str(line).expect("an audit record is JSON"))
            .collect()
    }

    /// The `HOOK_DECISION` records.
    fn decisions(&self) -> Vec<Value> {
        self.audit()
            .into_iter()
            .filter(|record| record["event"] == "HOOK_DECISION")
            .collect()
    }

    /// The verdicts of the `HOOK_DECISION` records, in order.
    fn verdicts(&self) -> Vec<String> {
        self.decisions()
            .iter()
            .map(|record| record["verdict"].as_str().unwrap_or("").to_owned())
            .collect()
    }

    fn exists(&self, relative: &str) -> bool {
        self.project().join(relative).exists()
    }

    /// What the model was told about the proposed command.
    fn told(&self) -> String {
        server().tool_results(&self.id).join("\n---\n")
    }

    fn proposed(&self) -> bool {
        server().proposed(&self.id)
    }
}

/// A client's run: its exit, output, and whether it was stopped.
struct ClientRun {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
    elapsed: Duration,
}

impl fmt::Display for ClientRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "exit: {:?}{} after {:.1} s\n----- stdout -----\n{}\n----- stderr -----\n{}",
            self.code,
            if self.timed_out { " (timed out)" } else { "" },
            self.elapsed.as_secs_f64(),
            tail(&self.stdout),
            tail(&self.stderr)
        )
    }
}

fn tail(text: &str) -> &str {
    let start = text.len().saturating_sub(4000);
    let mut start = start;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Runs `cmd` in its own process group, stdin closed, killing the whole
/// group after `limit`.
fn run_client(mut cmd: Command, limit: Duration) -> ClientRun {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    let mut child = cmd.spawn().expect("start the client");
    let pid = child.id();
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the client") {
            break Some(status);
        }
        if started.elapsed() > limit {
            timed_out = true;
            kill_group(pid);
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // What the client left running (a hook, a shell) goes with it.
    kill_group(pid);
    let stdout = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    ClientRun {
        code: status.and_then(|status| status.code()),
        stdout,
        stderr,
        timed_out,
        elapsed: started.elapsed(),
    }
}

fn kill_group(pid: u32) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// Named cases, each run on a thread of its own by [`in_parallel`].
type Cases = Vec<(&'static str, Box<dyn FnOnce() + Send>)>;

/// Runs a client headless in a world, proposing a command.
type Runner = std::sync::Arc<dyn Fn(&World, &str) -> ClientRun + Send + Sync>;

/// The cases every client shares, each in its own world named
/// `{prefix}-{case}`, with aigent's hook for `client`: an allowed line runs,
/// a denied one does not and the model is told why, `--route` runs the line
/// through `aigent run`, and an unreadable policy denies everything.
fn verdict_cases(prefix: &'static str, client: &'static str, run: Runner) -> Cases {
    let allow: Box<dyn FnOnce() + Send> = {
        let run = run.clone();
        Box::new(move || {
            let world = World::new(&format!("{prefix}-allow"));
            world.install_hook(client, &[]);
            let ran = run(&world, "touch allowed.txt");
            assert!(
                world.exists("allowed.txt"),
                "the allowed line did not run:\n{ran}"
            );
            assert_eq!(world.verdicts(), ["allow"], "{ran}");
        })
    };
    let deny: Box<dyn FnOnce() + Send> = {
        let run = run.clone();
        Box::new(move || {
            let world = World::new(&format!("{prefix}-deny"));
            world.install_hook(client, &[]);
            let ran = run(&world, "touch Denied.txt");
            assert!(!world.exists("Denied.txt"), "the denied line ran:\n{ran}");
            assert_eq!(world.verdicts(), ["deny"], "{ran}");
            let told = world.told();
            assert!(
                told.contains("aigent: deny `touch Denied.txt`") && told.contains("[rule pattern]"),
                "the model was told: {told}"
            );
        })
    };
    let route: Box<dyn FnOnce() + Send> = {
        let run = run.clone();
        Box::new(move || {
            let world = World::new(&format!("{prefix}-route"));
            world.install_hook(client, &["--route"]);
            let ran = run(&world, "touch routed.txt");
            assert!(
                world.exists("routed.txt"),
                "the routed line did not run:\n{ran}"
            );
            let decision = &world.decisions()[0];
            assert_eq!(decision["routed"], true, "{decision}");
            let executed: Vec<_> = world
                .audit()
                .into_iter()
                .filter(|record| record["event"] == "COMMAND_EXECUTED")
                .collect();
            assert_eq!(executed.len(), 1, "aigent run did not run it:\n{ran}");
            assert_eq!(executed[0]["command"], "touch-marker");
            assert_eq!(
                executed[0]["argv"],
                serde_json::json!(["touch", "routed.txt"])
            );
        })
    };
    let invalid_policy: Box<dyn FnOnce() + Send> = Box::new(move || {
        let world = World::new(&format!("{prefix}-bad-policy"));
        world.install_hook(client, &[]);
        world.sandbox.write(
            "project/commands/aigent.toml",
            "[hook]\nunmatched = \"sometimes\"\n",
        );
        let ran = run(&world, "touch allowed.txt");
        assert!(
            !world.exists("allowed.txt"),
            "a line ran under an unreadable policy:\n{ran}"
        );
        assert_eq!(world.verdicts(), ["deny"], "{ran}");
        let told = world.told();
        assert!(
            told.contains("the hook policy cannot be read") && told.contains("aigent.toml"),
            "the model was told: {told}"
        );
    });
    vec![
        ("allow", allow),
        ("deny", deny),
        ("route", route),
        ("invalid policy", invalid_policy),
    ]
}

/// The zero-config cases for `client`: nothing declared and no
/// `--commands`, so the hook reads the built-in catalog alone. `git status`
/// is allowed and runs (the model is told git's answer); `rm -rf /` is
/// refused by the catalog's deny forms (GNU rm would refuse it too, so a
/// broken hook cannot hurt the machine).
fn zero_config_cases(
    client: &'static str,
    hook_flags: &'static [&'static str],
    run: Runner,
) -> Cases {
    let git_status: Box<dyn FnOnce() + Send> = {
        let run = run.clone();
        Box::new(move || {
            let world = World::zero_config(&format!("{client}-zero-config-git-status"));
            world.install_hook(client, hook_flags);
            world.git_init();
            let ran = run(&world, "git status");
            assert_eq!(world.verdicts(), ["allow"], "{ran}");
            let told = world.told();
            assert!(
                told.contains("No commits yet"),
                "git status did not run; the model was told: {told}\n{ran}"
            );
        })
    };
    let rm_root: Box<dyn FnOnce() + Send> = Box::new(move || {
        let world = World::zero_config(&format!("{client}-zero-config-rm-root"));
        world.install_hook(client, hook_flags);
        let ran = run(&world, "rm -rf /");
        assert_eq!(world.verdicts(), ["deny"], "{ran}");
        let told = world.told();
        assert!(
            told.contains("aigent: deny `rm -rf /`"),
            "the model was told: {told}\n{ran}"
        );
    });
    vec![
        ("zero config: git status", git_status),
        ("zero config: rm -rf /", rm_root),
    ]
}

/// Runs each case on its own thread and waits for all; a failing case
/// fails the test after the others have finished.
fn in_parallel(cases: Cases) {
    let failed: Vec<&str> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .into_iter()
            .map(|(name, case)| (name, scope.spawn(case)))
            .collect();
        handles
            .into_iter()
            .filter_map(|(name, handle)| handle.join().is_err().then_some(name))
            .collect()
    });
    assert!(
        failed.is_empty(),
        "cases failed: {failed:?} (see their panics above)"
    );
}

/// How long one client run may take: generous, since two cores run the
/// whole suite at once; a client that needs it is stuck, not slow.
const LIMIT: Duration = Duration::from_secs(150);

// ---- the fake server itself, without clients ----

/// Posts `body` to `path` and returns the response's status line and body.
fn post(path: &str, body: &Value) -> (String, String) {
    let url = server().base_url();
    let addr = url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).expect("connect to the fake server");
    let body = body.to_string();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    (
        head.lines().next().unwrap_or("").to_owned(),
        body.to_owned(),
    )
}

#[test]
fn the_fake_server_proposes_the_command_once_and_logs_the_result() {
    use serde_json::json;
    let id = "server-self-test";
    let command = "touch 'a b'.txt";
    let first = json!({"model": "m", "stream": true,
        "tools": [{"name": "Bash"}],
        "messages": [{"role": "user", "content": prompt(id, command)}]});
    let (status, body) = post("/v1/messages?beta=true", &first);
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body.contains("event: content_block_delta"), "{body}");
    assert!(
        body.contains(r#"\"command\":\"touch 'a b'.txt\""#),
        "{body}"
    );
    assert!(server().proposed(id));
    let second = json!({"model": "m", "stream": true, "tools": [{"name": "Bash"}],
        "messages": [{"role": "user", "content": prompt(id, command)},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                "content": [{"type": "text", "text": "aigent: deny"}]}]}]});
    let (_, body) = post("/v1/messages", &second);
    assert!(body.contains(r#""stop_reason":"end_turn""#), "{body}");
    assert_eq!(server().tool_results(id), ["aigent: deny"]);

    let responses = json!({"tools": [{"type": "function", "name": "exec_command"}],
        "input": [{"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": prompt("openai-self-test", "ls")}]}]});
    let (_, body) = post("/v1/responses", &responses);
    assert!(body.contains(r#"\"cmd\":\"ls\""#), "{body}");
    assert!(body.contains("response.completed"), "{body}");

    let gemini = json!({"tools": [{"functionDeclarations": [{"name": "run_shell_command"}]}],
        "contents": [{"role": "user", "parts": [{"text": prompt("gemini-self-test", "ls")}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command",
                "response": {"error": "blocked"}}}]}]});
    let (_, body) = post(
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        &gemini,
    );
    assert!(body.starts_with("data: "), "{body}");
    assert!(!server().proposed("gemini-self-test"));
    assert_eq!(server().tool_results("gemini-self-test"), ["blocked"]);

    // A shell tool the request does not offer is never called.
    let no_tools =
        json!({"contents": [{"role": "user", "parts": [{"text": prompt("no-tools", "ls")}]}]});
    post("/v1beta/models/m:generateContent", &no_tools);
    assert!(!server().proposed("no-tools"));
}
