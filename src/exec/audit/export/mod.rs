//! Sending the log to a collector the team already runs: OpenTelemetry
//! (OTLP/HTTP, [`otlp`]) or syslog (RFC 5424, [`syslog`]).
//!
//! Export reads the log; it is never on a run's path, so a collector that
//! is down, slow or answering errors cannot block or fail a run. The local
//! chained log stays the source of truth.
//!
//! - A cursor per destination (`audit.jsonl.export-<id>` beside the log,
//!   mode 0600, replaced atomically) holds the seq and line hash of the
//!   last record the destination accepted. An export sends the records
//!   after it, in batches, and moves the cursor after each accepted batch:
//!   after an outage it resumes there, nothing lost and nothing sent twice.
//!   (If a collector accepts a batch but its answer is lost, that batch is
//!   sent again; its spans have the same ids.)
//! - An exclusive lock on the cursor keeps two exports to the same
//!   destination from sending the same records.
//! - Records go out as the log holds them, already redacted.
//! - The cursor's line hash is checked against the log: a log replaced or
//!   rewritten under the cursor is reported, not exported blindly.

pub mod otlp;
pub mod syslog;

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use super::read::Pending;
use super::{AuditError, AuditLog, store};

/// Records in one OTLP request or one syslog connection.
pub const BATCH: usize = 256;
/// Records read from the log at a time.
const READ_LIMIT: usize = 4096;

/// Where records go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    Otlp(otlp::HttpUrl),
    Syslog(syslog::Transport),
}

impl Destination {
    pub fn otlp(url: &str) -> Result<Self, String> {
        otlp::HttpUrl::parse(url).map(Self::Otlp)
    }

    pub fn syslog(url: &str) -> Result<Self, String> {
        syslog::Transport::parse(url).map(Self::Syslog)
    }

    /// The destination as one would write it.
    pub fn describe(&self) -> String {
        match self {
            Self::Otlp(url) => format!("otlp http://{}:{}{}", url.host, url.port, url.path),
            Self::Syslog(syslog::Transport::Udp(address)) => format!("syslog udp://{address}"),
            Self::Syslog(syslog::Transport::Tcp(address)) => format!("syslog tcp://{address}"),
            Self::Syslog(syslog::Transport::Unix(path)) => {
                format!("syslog unix://{}", path.display())
            }
        }
    }

    /// The cursor file's name for this destination beside `log_name`.
    fn cursor_name(&self, log_name: &std::ffi::OsStr) -> std::ffi::OsString {
        let digest = Sha256::digest(self.describe().as_bytes());
        let mut name = log_name.to_os_string();
        name.push(format!(".export-{}", super::sign::hex(&digest[..6])));
        name
    }

    fn send(&self, records: &[Pending], deadline: Deadline) -> Result<(), (usize, io::Error)> {
        match self {
            Self::Otlp(url) => otlp::send(url, records, deadline).map_err(|err| (0, err)),
            Self::Syslog(transport) => syslog::send(transport, records, deadline),
        }
    }
}

/// When an export must be over: every connect, read and write waits only
/// for what is left, so a collector that trickles a byte at a time cannot
/// stretch `--timeout` (a per-call timeout restarts with each byte).
#[derive(Debug, Clone, Copy)]
pub struct Deadline(Instant);

impl Deadline {
    pub fn after(timeout: Duration) -> Self {
        Self(Instant::now() + timeout)
    }

    /// The time left, or a `TimedOut` error once none is.
    pub fn left(self) -> io::Result<Duration> {
        match self.0.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => Ok(left),
            _ => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the export's --timeout passed",
            )),
        }
    }
}

/// A stream whose write timeout can be set.
pub trait TimedWrite: Write {
    fn set_timeout(&self, timeout: Duration) -> io::Result<()>;
}

impl TimedWrite for std::net::TcpStream {
    fn set_timeout(&self, timeout: Duration) -> io::Result<()> {
        self.set_write_timeout(Some(timeout))
    }
}

#[cfg(unix)]
impl TimedWrite for std::os::unix::net::UnixStream {
    fn set_timeout(&self, timeout: Duration) -> io::Result<()> {
        self.set_write_timeout(Some(timeout))
    }
}

/// `write_all`, each write waiting only for the time left.
pub fn write_before(
    stream: &mut impl TimedWrite,
    mut bytes: &[u8],
    deadline: Deadline,
) -> io::Result<()> {
    while !bytes.is_empty() {
        stream.set_timeout(deadline.left()?)?;
        match stream.write(bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(written) => bytes = &bytes[written..],
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err)
                if matches!(
                    err.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                deadline.left()?;
                return Err(err);
            }
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// Where an export stands for one destination.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// The last record the destination accepted (0: none yet).
    pub seq: u64,
    /// That record's line hash.
    pub sha256: Option<String>,
}

/// What one export did.
#[derive(Debug, Clone, Serialize)]
pub struct Exported {
    pub destination: String,
    pub cursor_file: PathBuf,
    /// Records sent and accepted.
    pub sent: u64,
    /// The cursor before and after.
    pub from_seq: u64,
    pub to_seq: u64,
    /// Records still waiting (after a failure).
    pub pending: u64,
    /// Why the export stopped early: the collector down, slow or refusing.
    pub failure: Option<String>,
    /// Things to know that did not stop it (records gone from the log).
    pub warnings: Vec<String>,
}

/// Why an export could not start at all.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Log(#[from] AuditError),
    #[error("cannot use the export cursor {path}: {source}")]
    Cursor { path: PathBuf, source: io::Error },
    #[error("another export to {0} is running")]
    Busy(String),
    #[error(
        "the log no longer holds the record the cursor {path} names (seq {seq}): the log was replaced or rewritten; check it with `aigent audit verify`, then move the cursor aside to export from the start"
    )]
    CursorMismatch { path: PathBuf, seq: u64 },
}

/// Sends the records after the cursor to `destination`, batch by batch,
/// until none are left or one fails (reported in [`Exported::failure`],
/// the cursor left at the last accepted batch).
pub fn export(
    log: &AuditLog,
    destination: &Destination,
    timeout: Duration,
) -> Result<Exported, ExportError> {
    let (parent, name) = store::split(log.path()).map_err(AuditError::from_io(log.path()))?;
    let cursor_path = parent.join(destination.cursor_name(&name));
    let cursor_failed = |source| ExportError::Cursor {
        path: cursor_path.clone(),
        source,
    };
    let lock_path = {
        let mut lock = cursor_path.as_os_str().to_os_string();
        lock.push(".lock");
        PathBuf::from(lock)
    };
    let lock = open_private(&lock_path, false).map_err(cursor_failed)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(ExportError::Busy(destination.describe()));
        }
        Err(std::fs::TryLockError::Error(err)) => return Err(cursor_failed(err)),
    }
    let mut cursor = read_cursor(&cursor_path).map_err(cursor_failed)?;
    let mut report = Exported {
        destination: destination.describe(),
        cursor_file: cursor_path.clone(),
        sent: 0,
        from_seq: cursor.seq,
        to_seq: cursor.seq,
        pending: 0,
        failure: None,
        warnings: Vec::new(),
    };
    let deadline = Deadline::after(timeout);
    let mut first_read = true;
    loop {
        let found = super::read::after_cursor(log, cursor.seq, READ_LIMIT)?;
        if first_read && cursor.seq > 0 {
            match (&found.at_cursor, &cursor.sha256) {
                (Some(found), Some(expected)) if found != expected => {
                    return Err(ExportError::CursorMismatch {
                        path: cursor_path,
                        seq: cursor.seq,
                    });
                }
                (None, _) if found.last_seq < cursor.seq => {
                    return Err(ExportError::CursorMismatch {
                        path: cursor_path,
                        seq: cursor.seq,
                    });
                }
                (None, _) => report.warnings.push(format!(
                    "the record at the cursor (seq {}) is no longer in the log; exporting from seq {}",
                    cursor.seq,
                    found.first_seq.unwrap_or(cursor.seq + 1)
                )),
                _ => {}
            }
            if let Some(first) = found.records.first()
                && first.seq > cursor.seq + 1
            {
                report.warnings.push(format!(
                    "records {} to {} are gone from the log (rotated files removed?) and were not exported",
                    cursor.seq + 1,
                    first.seq - 1
                ));
            }
        }
        first_read = false;
        if found.records.is_empty() {
            break;
        }
        let full = found.records.len() == READ_LIMIT;
        for batch in found.records.chunks(BATCH) {
            let accepted = match destination.send(batch, deadline) {
                Ok(()) => batch.len(),
                Err((accepted, err)) => {
                    report.failure = Some(format!("{}: {err}", destination.describe()));
                    accepted
                }
            };
            if accepted > 0 {
                let last = &batch[accepted - 1];
                cursor = Cursor {
                    seq: last.seq,
                    sha256: Some(last.line_hash.clone()),
                };
                write_cursor(&cursor_path, &cursor).map_err(cursor_failed)?;
                report.sent += accepted as u64;
                report.to_seq = cursor.seq;
            }
            if report.failure.is_some() {
                report.pending = found.last_seq.saturating_sub(cursor.seq);
                return Ok(report);
            }
        }
        if !full {
            break;
        }
    }
    Ok(report)
}

impl AuditError {
    fn from_io(path: &Path) -> impl Fn(io::Error) -> AuditError + '_ {
        move |source| AuditError::Read {
            path: path.to_path_buf(),
            source,
        }
    }
}

fn read_cursor(path: &Path) -> io::Result<Cursor> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Cursor::default()),
        Err(err) => return Err(err),
    };
    serde_json::from_str(&text)
        .map_err(|err| io::Error::new(io::ErrorKind::InvalidData, format!("not a cursor: {err}")))
}

/// Replaces the cursor atomically (a new file, mode 0600, renamed over).
fn write_cursor(path: &Path, cursor: &Cursor) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::Builder::new()
        .prefix(".aigent-cursor")
        .tempfile_in(dir)?;
    file.write_all(serde_json::to_string(cursor)?.as_bytes())?;
    file.as_file().sync_data()?;
    file.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// A lock file of our own: created 0600, never through a symlink.
fn open_private(path: &Path, truncate: bool) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options
        .read(true)
        .write(true)
        .create(true)
        .truncate(truncate);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(file)
}
