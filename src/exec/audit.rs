//! The audit log: one JSON object per line (JSONL), appended by every Phase 1
//! rejection (`TOOL_ARG_VALIDATION_FAILURE`) and, with `run`, by every
//! execution.
//!
//! - Each record is written with a single `write(2)` on a descriptor opened
//!   with `O_APPEND`, so concurrent writers never interleave or overwrite
//!   each other's lines.
//! - The file is created with mode 0600 (its parent directories with 0700),
//!   is never followed through a symlink, and has its mode tightened to 0600
//!   if something loosened it. Anything but a regular file with one link
//!   (a FIFO, a device, a hard link to another file) is refused, without
//!   blocking.
//! - Values of parameters declared `sensitive` are redacted before a
//!   record is built; long values are cut so a record stays small: each
//!   value at [`MAX_LOGGED_VALUE_CHARS`] characters, and an argv after
//!   [`MAX_LOGGED_ARGV_BYTES`] bytes of JSON (the words that do not fit are
//!   counted, not shown). A record is therefore at most about 70 KiB, one
//!   `write` however long the command line was.
//! - `run` opens the log before it spawns anything ([`AuditLog::open`]) and
//!   writes the record of the execution through that same descriptor when
//!   the child has ended: if the log cannot be opened, nothing runs.
//!
//! Location: an explicit path (`--audit-log`), else `AIGENT_AUDIT_LOG`,
//! else `$XDG_STATE_HOME/aigent/audit.jsonl`, else
//! `~/.local/state/aigent/audit.jsonl`.

use std::ffi::OsString;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::argv::Argv;
use super::process::{Finished, SpawnError};
use crate::guard::Rejection;

pub const EVENT_VALIDATION_FAILURE: &str = "TOOL_ARG_VALIDATION_FAILURE";
/// A declared command ran (whatever its exit status).
pub const EVENT_COMMAND_EXECUTED: &str = "COMMAND_EXECUTED";
/// A declared command passed Phase 1 but its program could not be started.
pub const EVENT_SPAWN_FAILURE: &str = "COMMAND_SPAWN_FAILURE";

/// Values longer than this are cut in records (with a marker), so that one
/// hostile argument cannot make a multi-megabyte line.
pub const MAX_LOGGED_VALUE_CHARS: usize = 1024;

/// The argv in a record is cut after this many bytes of JSON.
pub const MAX_LOGGED_ARGV_BYTES: usize = 64 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("no audit log location: set AIGENT_AUDIT_LOG, XDG_STATE_HOME or HOME")]
    NoLocation,
    #[error("cannot write the audit log {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
}

/// Where audit records go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditLog {
    path: PathBuf,
}

impl AuditLog {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The log location from an explicit path and the environment, as
    /// `lookup` reports it (a function, so tests need not touch the real
    /// environment). Empty variables count as unset; a relative
    /// `XDG_STATE_HOME` is ignored, as the XDG spec says.
    pub fn locate(
        explicit: Option<&Path>,
        lookup: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Self, AuditError> {
        let set = |name: &str| {
            lookup(name)
                .filter(|value| !value.is_empty())
                .map(PathBuf::from)
        };
        if let Some(path) = explicit {
            return Ok(Self::at(path));
        }
        if let Some(path) = set("AIGENT_AUDIT_LOG") {
            return Ok(Self::at(path));
        }
        if let Some(state) = set("XDG_STATE_HOME").filter(|path| path.is_absolute()) {
            return Ok(Self::at(state.join("aigent").join("audit.jsonl")));
        }
        if let Some(home) = set("HOME") {
            return Ok(Self::at(home.join(".local/state/aigent/audit.jsonl")));
        }
        Err(AuditError::NoLocation)
    }

    /// [`Self::locate`] with the process environment.
    pub fn from_env(explicit: Option<&Path>) -> Result<Self, AuditError> {
        Self::locate(explicit, |name| std::env::var_os(name))
    }

    /// Appends one record as one line with one `write`.
    pub fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        self.open()?.append(record)
    }

    /// Opens the log for appending (creating it and its directories), so
    /// that a caller can find out before acting whether its record can be
    /// written, and write it later through the same descriptor.
    pub fn open(&self) -> Result<OpenAuditLog, AuditError> {
        let io_error = |source| AuditError::Io {
            path: self.path.clone(),
            source,
        };
        if let Some(parent) = self
            .path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
        {
            create_private_dirs(parent).map_err(io_error)?;
        }
        let file = open_for_append(&self.path).map_err(io_error)?;
        Ok(OpenAuditLog {
            path: self.path.clone(),
            file,
        })
    }
}

/// The log, open for appending.
#[derive(Debug)]
pub struct OpenAuditLog {
    path: PathBuf,
    file: fs::File,
}

impl OpenAuditLog {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record as one line with one `write`.
    pub fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        let io_error = |source| AuditError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line =
            serde_json::to_vec(&record.to_json()).map_err(|err| io_error(io::Error::other(err)))?;
        line.push(b'\n');
        let written = (&self.file).write(&line).map_err(io_error)?;
        if written != line.len() {
            return Err(io_error(io::Error::new(
                io::ErrorKind::WriteZero,
                format!(
                    "short write ({written} of {} bytes); the disk may be full",
                    line.len()
                ),
            )));
        }
        Ok(())
    }
}

#[cfg(unix)]
fn create_private_dirs(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private_dirs(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)
}

/// Opens the log for appending. It is opened non-blocking, so that a FIFO
/// (or a device) in its place fails at once instead of hanging until a
/// reader appears, then checked to be a regular file with no other hard
/// link (tightening the mode of a file that is also reachable elsewhere
/// would change that file, and the records would land in it), and only
/// then set back to blocking writes.
#[cfg(unix)]
fn open_for_append(path: &Path) -> io::Result<fs::File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
    let file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
        .open(path)
        .map_err(|err| match err.raw_os_error() {
            // A FIFO without a reader.
            Some(libc::ENXIO) => io::Error::other("the audit log is not a regular file (a FIFO)"),
            _ => err,
        })?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::other("the audit log is not a regular file"));
    }
    if metadata.nlink() > 1 {
        return Err(io::Error::other(format!(
            "the audit log has {} hard links; refusing to append to a file that is also reachable under another name",
            metadata.nlink()
        )));
    }
    super::sys::clear_nonblocking(file.as_raw_fd())?;
    if metadata.permissions().mode() & 0o077 != 0 {
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

#[cfg(not(unix))]
fn open_for_append(path: &Path) -> io::Result<fs::File> {
    OpenOptions::new().append(true).create(true).open(path)
}

/// One line of the log. Every record has `timestamp` (RFC 3339, UTC),
/// `event`, `command` and `pid`; the rest depends on the event.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditRecord {
    pub timestamp: String,
    pub event: &'static str,
    pub command: String,
    pub pid: u32,
    pub details: Map<String, Value>,
}

impl AuditRecord {
    /// A record of `event` for `command`, stamped now, by this process.
    pub fn new(event: &'static str, command: impl Into<String>) -> Self {
        Self {
            timestamp: rfc3339_utc(SystemTime::now()),
            event,
            command: command.into(),
            pid: std::process::id(),
            details: Map::new(),
        }
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.details.insert(key.to_owned(), value.into());
        self
    }

    /// `TOOL_ARG_VALIDATION_FAILURE`: every violation, sensitive values
    /// redacted and long values cut.
    pub fn validation_failure(rejection: &Rejection) -> Self {
        let violations: Vec<Value> = rejection
            .violations
            .iter()
            .map(|violation| {
                let shown = violation.redacted();
                json!({
                    "field": shown.field,
                    "rejected_pattern": shown.rule.as_str(),
                    "input_value": shown.input_value.as_deref().map(cut),
                    "expected": shown.expected,
                    "message": cut(&shown.message),
                })
            })
            .collect();
        Self::new(EVENT_VALIDATION_FAILURE, rejection.command.clone())
            .with("error_code", rejection.error_code().as_str())
            .with("violations", violations)
    }

    /// `COMMAND_EXECUTED`: the argv (sensitive values redacted, bounded),
    /// how the child ended, how long it ran, and its pid.
    pub fn command_executed(command: &str, argv: &Argv, finished: &Finished) -> Self {
        let mut record = Self::new(EVENT_COMMAND_EXECUTED, command).with_argv(argv);
        record = record
            .with("child_pid", finished.pid)
            .with("exit_code", finished.exit_code())
            .with("duration_ms", millis(finished.duration));
        if let Some(signal) = finished.signal() {
            record = record.with("signal", signal);
        }
        if finished.timed_out {
            record = record.with("timed_out", true);
        }
        if let Some(signal) = finished.interrupted_by {
            record = record.with("interrupted_by", signal);
        }
        record
    }

    /// `COMMAND_SPAWN_FAILURE`: the argv and why it could not start.
    pub fn spawn_failure(command: &str, argv: &Argv, error: &SpawnError) -> Self {
        Self::new(EVENT_SPAWN_FAILURE, command)
            .with_argv(argv)
            .with("error", cut(&error.to_string()))
    }

    /// Adds `argv`, redacted and bounded; when words had to be left out,
    /// `argv_omitted` counts them.
    fn with_argv(self, argv: &Argv) -> Self {
        let (shown, omitted) = bounded_words(&argv.redacted());
        let record = self.with("argv", shown);
        if omitted > 0 {
            record.with("argv_omitted", omitted)
        } else {
            record
        }
    }

    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("timestamp".to_owned(), Value::from(self.timestamp.clone()));
        object.insert("event".to_owned(), Value::from(self.event));
        object.insert("command".to_owned(), Value::from(self.command.clone()));
        object.insert("pid".to_owned(), Value::from(self.pid));
        for (key, value) in &self.details {
            object.insert(key.clone(), value.clone());
        }
        Value::Object(object)
    }
}

/// The words that fit in [`MAX_LOGGED_ARGV_BYTES`] (each cut), and how
/// many were left out.
fn bounded_words(words: &[String]) -> (Vec<String>, usize) {
    let mut shown = Vec::new();
    let mut bytes = 2;
    for word in words {
        let word = cut(word);
        // Escaping can grow a character to six bytes (`\u001b`).
        let cost = serde_json::to_string(&word).map_or(word.len() * 6, |json| json.len()) + 1;
        if bytes + cost > MAX_LOGGED_ARGV_BYTES {
            break;
        }
        bytes += cost;
        shown.push(word);
    }
    let omitted = words.len() - shown.len();
    (shown, omitted)
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_LOGGED_VALUE_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…[cut: {} bytes in all]", &text[..end], text.len()),
    }
}

/// `2024-05-01T12:34:56.789Z`. Dates before 1970 or after 9999 cannot
/// occur for `now`; they are clamped, since humantime panics on the first
/// and fails on the second.
pub fn rfc3339_utc(time: SystemTime) -> String {
    let last = UNIX_EPOCH + std::time::Duration::from_millis(253_402_300_799_999);
    humantime::format_rfc3339_millis(time.clamp(UNIX_EPOCH, last)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::{Rule, Violation};
    use std::time::Duration;

    #[test]
    fn timestamps() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let at = |secs| rfc3339_utc(UNIX_EPOCH + Duration::from_millis(secs));
        assert_eq!(at(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(at(951_868_799_999), "2000-02-29T23:59:59.999Z");
        assert_eq!(at(1_709_251_199_000), "2024-02-29T23:59:59.000Z");
        assert_eq!(at(4_102_444_800_000), "2100-01-01T00:00:00.000Z");
        assert_eq!(at(1_735_689_599_000), "2024-12-31T23:59:59.000Z");
        assert_eq!(
            rfc3339_utc(UNIX_EPOCH - Duration::from_secs(1)),
            "1970-01-01T00:00:00.000Z"
        );
        assert_eq!(
            rfc3339_utc(UNIX_EPOCH + Duration::from_secs(300_000_000_000)),
            "9999-12-31T23:59:59.999Z"
        );
    }

    #[test]
    fn location_precedence() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| OsString::from(value))
            }
        };
        let all = env(&[
            ("AIGENT_AUDIT_LOG", "/a/log"),
            ("XDG_STATE_HOME", "/state"),
            ("HOME", "/home/u"),
        ]);
        assert_eq!(
            AuditLog::locate(Some(Path::new("/x")), all).unwrap().path(),
            Path::new("/x")
        );
        assert_eq!(
            AuditLog::locate(None, all).unwrap().path(),
            Path::new("/a/log")
        );
        let xdg = env(&[
            ("AIGENT_AUDIT_LOG", ""),
            ("XDG_STATE_HOME", "/state"),
            ("HOME", "/home/u"),
        ]);
        assert_eq!(
            AuditLog::locate(None, xdg).unwrap().path(),
            Path::new("/state/aigent/audit.jsonl")
        );
        let home = env(&[("XDG_STATE_HOME", "relative"), ("HOME", "/home/u")]);
        assert_eq!(
            AuditLog::locate(None, home).unwrap().path(),
            Path::new("/home/u/.local/state/aigent/audit.jsonl")
        );
        assert!(AuditLog::locate(None, env(&[])).is_err());
    }

    fn rejection() -> Rejection {
        let mut secret = Violation::new(
            "token",
            Rule::ControlCharacter,
            Some("hunter2\u{7}".into()),
            "a string",
            "`token` has a bell",
        );
        secret.sensitive = true;
        Rejection {
            command: "login".into(),
            violations: vec![
                Violation::new(
                    "user",
                    Rule::PathTraversal,
                    Some("../root".into()),
                    "an id",
                    "`user` has '..'",
                ),
                secret,
            ],
        }
    }

    #[test]
    fn records_are_appended_privately_and_redacted() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::at(dir.path().join("nested/dir/audit.jsonl"));
        log.append(&AuditRecord::validation_failure(&rejection()))
            .unwrap();
        log.append(&AuditRecord::validation_failure(&rejection()))
            .unwrap();
        let text = fs::read_to_string(log.path()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(!text.contains("hunter2"), "{text}");
        let record: Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(record["event"], EVENT_VALIDATION_FAILURE);
        assert_eq!(record["command"], "login");
        assert_eq!(record["pid"], std::process::id());
        assert_eq!(record["violations"][0]["input_value"], "../root");
        assert_eq!(
            record["violations"][1]["input_value"],
            crate::guard::REDACTED
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(log.path()).unwrap().permissions().mode() & 0o777,
                0o600
            );
            let parent = log.path().parent().unwrap();
            assert_eq!(
                fs::metadata(parent).unwrap().permissions().mode() & 0o777,
                0o700
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_log_is_refused_and_a_loose_mode_is_tightened() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        fs::write(&target, "").unwrap();
        let link = dir.path().join("audit.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(
            AuditLog::at(&link)
                .append(&AuditRecord::new("X", "c"))
                .is_err()
        );

        let loose = dir.path().join("loose.jsonl");
        fs::write(&loose, "").unwrap();
        fs::set_permissions(&loose, fs::Permissions::from_mode(0o644)).unwrap();
        AuditLog::at(&loose)
            .append(&AuditRecord::new("X", "c"))
            .unwrap();
        assert_eq!(
            fs::metadata(&loose).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    #[test]
    fn long_values_are_cut() {
        let long = "x".repeat(5000);
        let cut_value = cut(&long);
        assert!(cut_value.chars().count() < 1100);
        assert!(cut_value.contains("5000 bytes"));
        assert_eq!(cut("short"), "short");
    }

    fn finished() -> Finished {
        Finished {
            pid: 7,
            ending: crate::exec::Ending::Signaled(15),
            duration: Duration::from_millis(1234),
            timed_out: true,
            cancelled: false,
            interrupted_by: None,
            stdout: None,
            stderr: None,
        }
    }

    #[test]
    fn execution_records_hold_the_redacted_argv_and_the_ending() {
        let declaration = crate::registry::parse_declaration(
            "name: t\ndescription: d\nparameters:\n  token: {type: string, sensitive: true}\nsubprocess: {binary: tool, hardcoded_args: [go], user_controlled_args: [token]}\n",
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        )
        .declaration
        .unwrap();
        let tail = vec!["--token".to_owned(), "hunter2".to_owned()];
        let validated =
            crate::guard::check(&declaration, &crate::guard::RawArguments::from_tail(&tail))
                .unwrap();
        let argv = Argv::build(&declaration, &validated).unwrap();
        let record = AuditRecord::command_executed("t", &argv, &finished()).to_json();
        assert_eq!(record["event"], EVENT_COMMAND_EXECUTED);
        assert_eq!(
            record["argv"],
            json!(["tool", "go", crate::guard::REDACTED])
        );
        assert_eq!(record["exit_code"], Value::Null);
        assert_eq!(record["signal"], 15);
        assert_eq!(record["timed_out"], true);
        assert_eq!(record["duration_ms"], 1234);
        assert_eq!(record["child_pid"], 7);
        assert!(record.get("argv_omitted").is_none());
        assert!(!record.to_string().contains("hunter2"));
    }

    #[test]
    fn a_huge_argv_makes_a_bounded_record() {
        let words: Vec<String> = (0..5000)
            .map(|index| format!("{index}-{}", "\u{1b}".repeat(2000)))
            .collect();
        let argv = Argv::from_words(words);
        let record = AuditRecord::command_executed("t", &argv, &finished()).to_json();
        let line = serde_json::to_vec(&record).unwrap();
        assert!(line.len() < 72 * 1024, "{} bytes", line.len());
        let shown = record["argv"].as_array().unwrap().len();
        assert!(shown > 0);
        assert_eq!(record["argv_omitted"], 5000 - shown);
        let failure = AuditRecord::spawn_failure(
            "t",
            &argv,
            &SpawnError::NotFound {
                program: "x".into(),
            },
        )
        .to_json();
        assert!(serde_json::to_vec(&failure).unwrap().len() < 72 * 1024);
        assert_eq!(failure["event"], EVENT_SPAWN_FAILURE);
    }

    #[test]
    fn an_open_log_is_written_through_the_same_descriptor() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let open = AuditLog::at(&path).open().unwrap();
        // Renaming the file away does not redirect the record.
        let moved = dir.path().join("moved.jsonl");
        fs::rename(&path, &moved).unwrap();
        open.append(&AuditRecord::new("X", "c")).unwrap();
        assert_eq!(fs::read_to_string(&moved).unwrap().lines().count(), 1);
        assert!(!path.exists());
    }

    #[test]
    fn concurrent_writers_do_not_interleave() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::at(dir.path().join("audit.jsonl"));
        std::thread::scope(|scope| {
            for thread in 0..8 {
                let log = &log;
                scope.spawn(move || {
                    for index in 0..50 {
                        let record = AuditRecord::new("X", format!("c{thread}"))
                            .with("payload", "y".repeat(2000 + index));
                        log.append(&record).unwrap();
                    }
                });
            }
        });
        let text = fs::read_to_string(log.path()).unwrap();
        assert_eq!(text.lines().count(), 400);
        for line in text.lines() {
            serde_json::from_str::<Value>(line).unwrap();
        }
    }

    /// Runs `open` on another thread, so that a regression (an open that
    /// blocks) fails the test instead of hanging it.
    #[cfg(unix)]
    fn open_without_hanging(log: AuditLog) -> Result<OpenAuditLog, AuditError> {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(log.open());
        });
        receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("opening the audit log blocked")
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        use std::os::unix::fs::OpenOptionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        mkfifo(&path);
        let err = open_without_hanging(AuditLog::at(&path)).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        // With a reader waiting, the open succeeds; the type check refuses.
        let _reader = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&path)
            .unwrap();
        let err = open_without_hanging(AuditLog::at(&path)).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_linked_log_is_refused_and_left_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other-file");
        fs::write(&other, "keep\n").unwrap();
        fs::set_permissions(&other, fs::Permissions::from_mode(0o644)).unwrap();
        let path = dir.path().join("audit.jsonl");
        fs::hard_link(&other, &path).unwrap();
        let err = AuditLog::at(&path).open().unwrap_err();
        assert!(err.to_string().contains("hard links"), "{err}");
        assert_eq!(fs::read_to_string(&other).unwrap(), "keep\n");
        let mode = fs::metadata(&other).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "the other link's mode is untouched");
    }

    #[test]
    fn an_open_log_still_blocks_on_writes() {
        let dir = tempfile::tempdir().unwrap();
        let open = AuditLog::at(dir.path().join("audit.jsonl")).open().unwrap();
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: F_GETFL on an open descriptor.
            let flags = unsafe { libc::fcntl(open.file.as_raw_fd(), libc::F_GETFL) };
            assert_eq!(flags & libc::O_NONBLOCK, 0);
        }
        open.append(&AuditRecord::new("X", "c")).unwrap();
    }
}
