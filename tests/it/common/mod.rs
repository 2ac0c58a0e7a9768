//! Shared helpers for the integration tests: a sandbox directory that
//! stands in for the user's home, state and audit log, and a runner that
//! shows exit code, stdout and stderr together so a failing assertion reads
//! like a terminal session.
#![allow(dead_code)]

pub mod agent_spec;
#[cfg(unix)]
pub mod balancer;
#[cfg(unix)]
pub mod bash;
pub mod git;
pub mod model_server;
#[cfg(unix)]
pub mod pty;
pub mod snapshot;

use std::fmt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// Variables of the machine running the suite that change what aigent
/// prints: a CI job's marks (`CI` makes text plain and json the default),
/// `NO_COLOR`, `TERM`, and aigent's own. Every test starts without them.
const HOST_VARIABLES: &[&str] = &[
    "AIGENT_FORMAT",
    "AIGENT_OUTPUT",
    "AIGENT_COMMANDS",
    "NO_COLOR",
    "CLICOLOR_FORCE",
    "TERM",
    "CI",
    "GITHUB_ACTIONS",
    "JENKINS_URL",
    "GITLAB_CI",
    "BUILDKITE",
    "GIT_DIR",
    "GIT_WORK_TREE",
];

pub struct Sandbox {
    dir: TempDir,
    /// `XDG_CONFIG_HOME`, apart from `dir` so that the directory a test
    /// works in starts empty: it holds the examples' user layer.
    config: TempDir,
    /// The binary's TMPDIR: what it makes there (a server's ready
    /// sandboxes' `$TMP`, left when a test kills it) goes with the test.
    tmp: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("aigent-test-")
            .tempdir()
            .expect("create temp dir");
        let tmp = tempfile::Builder::new()
            .prefix("aigent-test-tmp-")
            .tempdir()
            .expect("create temp dir");
        let config = tempfile::Builder::new()
            .prefix("aigent-test-config-")
            .tempdir()
            .expect("create temp dir");
        let sandbox = Self { dir, config, tmp };
        sandbox.install_examples();
        sandbox
    }

    /// A sandbox without the example declarations: only the catalog is
    /// there until the test writes more.
    pub fn bare() -> Self {
        let sandbox = Self::new();
        std::fs::remove_dir_all(sandbox.examples_dir()).expect("remove the examples");
        sandbox
    }

    /// A sandbox whose registry is the examples alone: the catalog
    /// switched off in their layer's aigent.toml, for outputs that list
    /// every declaration.
    pub fn examples_only() -> Self {
        let sandbox = Self::new();
        std::fs::write(
            sandbox.examples_dir().join("aigent.toml"),
            "[hook]\ncatalog = false\n",
        )
        .expect("write aigent.toml");
        sandbox
    }

    /// Where the repository's example declarations (`commands/`) are put:
    /// the user's layer of the registry, so that `aigent schema show
    /// deploy` works as it does inside this repository, and a test's own
    /// `commands/` stays its own.
    pub fn examples_dir(&self) -> PathBuf {
        self.config_home().join("aigent/commands")
    }

    /// The binary's `XDG_CONFIG_HOME`.
    pub fn config_home(&self) -> &Path {
        self.config.path()
    }

    fn install_examples(&self) {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
        let to = self.examples_dir();
        std::fs::create_dir_all(&to).expect("create the examples directory");
        for entry in std::fs::read_dir(&from).expect("read commands/") {
            let path = entry.expect("an entry").path();
            let name = path.file_name().expect("a name");
            if name != "aigent.toml" {
                std::fs::copy(&path, to.join(name)).expect("copy an example");
            }
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, relative: impl AsRef<Path>) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// Writes a file below the sandbox, creating parent directories.
    pub fn write(&self, relative: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create parent dirs");
        std::fs::write(&path, contents).expect("write fixture");
        path
    }

    /// Writes an executable script below the sandbox.
    #[cfg(unix)]
    pub fn script(&self, relative: impl AsRef<Path>, contents: &str) -> PathBuf {
        let path = self.join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create parent dirs");
        write_executable(&path, contents.as_bytes());
        path
    }

    pub fn audit_log(&self) -> PathBuf {
        self.join("state/audit.jsonl")
    }

    /// The binary, run inside the sandbox, with nothing inherited that
    /// could reach the real home, the real audit log or change the format.
    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd())
    }

    /// The binary as a plain `std::process::Command`, with the same
    /// environment as [`Self::cmd`], for tests that need to spawn it and
    /// signal it while it runs.
    /// `aigent --commands SANDBOX/commands mcp serve EXTRA...`, with stdin
    /// and stdout piped and stderr dropped; spawned by the caller.
    pub fn mcp_serve(&self, extra: &[&str]) -> std::process::Command {
        let mut cmd = self.std_cmd();
        cmd.arg("--commands")
            .arg(self.join("commands"))
            .args(["mcp", "serve"])
            .args(extra)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        cmd
    }

    pub fn std_cmd(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_aigent"));
        cmd.current_dir(self.path())
            .env("HOME", self.join("home"))
            .env("XDG_STATE_HOME", self.join("state"))
            .env("XDG_CONFIG_HOME", self.config_home())
            .env("XDG_CACHE_HOME", self.join("cache"))
            .env("AIGENT_AUDIT_LOG", self.audit_log())
            .env("TMPDIR", self.tmp.path())
            // A repository around the temp dir must never be found.
            .env("GIT_CEILING_DIRECTORIES", self.path());
        for name in HOST_VARIABLES {
            cmd.env_remove(name);
        }
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Run {
        Run::of(self.cmd().args(args))
    }

    /// Runs in text mode (`AIGENT_OUTPUT=text`), as on a terminal: help
    /// on stdout, not the json-mode envelope.
    pub fn text(&self, args: &[&str]) -> Run {
        Run::of(self.cmd().env("AIGENT_OUTPUT", "text").args(args))
    }

    /// Runs with `--output json` and parses the envelope.
    pub fn json(&self, args: &[&str]) -> (Run, Value) {
        let run = Run::of(self.cmd().arg("--output").arg("json").args(args));
        let value = run.envelope();
        (run, value)
    }
}

/// Fails unless `envelope` is a valid CLI Agent Spec `ResponseEnvelope`
/// (tests/fixtures/agent-spec/response-envelope.json); `context` says where
/// it came from.
#[track_caller]
pub fn assert_valid_envelope(envelope: &Value, context: &str) {
    let errors = agent_spec::envelope_errors(envelope);
    assert!(
        errors.is_empty(),
        "not a valid ResponseEnvelope: {errors:#?}\n{context}"
    );
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn of(cmd: &mut Command) -> Self {
        let output = cmd.output().expect("run aigent");
        Self {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Parses stdout as exactly one JSON document holding the five
    /// envelope keys.
    pub fn envelope(&self) -> Value {
        let value: Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|err| panic!("stdout is not one JSON document ({err}):\n{self}"));
        for key in ["ok", "data", "error", "warnings", "meta"] {
            assert!(value.get(key).is_some(), "envelope lacks `{key}`:\n{self}");
        }
        assert_eq!(
            value["ok"] == Value::Bool(true),
            self.code == 0,
            "ok must match the exit code:\n{self}"
        );
        assert_valid_envelope(&value, &self.to_string());
        value
    }

    /// For `run`, whose envelope goes to stderr without `--capture`: stderr
    /// parsed as one envelope and checked against the spec's schema.
    #[track_caller]
    pub fn stderr_envelope(self) -> (Self, Value) {
        let value: Value = serde_json::from_str(&self.stderr)
            .unwrap_or_else(|err| panic!("stderr is not one JSON document ({err}):\n{self}"));
        assert_valid_envelope(&value, &self.to_string());
        (self, value)
    }

    #[track_caller]
    pub fn assert_code(&self, expected: i32) -> &Self {
        assert_eq!(self.code, expected, "unexpected exit code:\n{self}");
        self
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "exit_code: {}\n----- stdout -----\n{}\n----- stderr -----\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Writes an executable through a child `sh`, so no descriptor open for
/// writing it ever lives in this process. Tests run on many threads: a
/// sibling's fork would inherit such a descriptor until its exec, and
/// running the file inside that window fails with "Text file busy".
#[cfg(unix)]
pub fn write_executable(path: &Path, contents: &[u8]) {
    use std::io::Write;
    let mut child = std::process::Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("spawn sh to write the executable");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(contents)
        .expect("write the executable");
    assert!(
        child.wait().expect("wait for sh").success(),
        "write {path:?}"
    );
}

/// Copies an executable with `cp`, for the reason [`write_executable`] gives.
#[cfg(unix)]
pub fn copy_executable(from: &Path, to: &Path) {
    let status = std::process::Command::new("cp")
        .arg(from)
        .arg(to)
        .status()
        .expect("run cp");
    assert!(status.success(), "cp {from:?} {to:?}");
}
