//! The audit log: one JSON object per line (JSONL), appended by every Phase 1
//! rejection (`TOOL_ARG_VALIDATION_FAILURE`), and by `run` before the child
//! starts (`COMMAND_STARTED`) and when it has ended (`COMMAND_EXECUTED`).
//! docs/audit.md describes the format for people reading the log.
//!
//! - [`record`]: what a record holds, redacted and bounded.
//! - [`chain`]: `seq` and `prev`, the hash chain that makes an edited,
//!   deleted or reordered record detectable.
//! - [`store`]: the append itself: locked, one `write` with `O_APPEND`,
//!   `fdatasync`, torn lines ended and accounted for, rotation by size.
//! - [`read`]: `audit show` and `audit verify`.
//!
//! `run` opens the log and writes `COMMAND_STARTED` before it spawns
//! anything: if that fails, nothing runs.
//!
//! Location: an explicit path (`--audit-log`), else `AIGENT_AUDIT_LOG`,
//! else `$XDG_STATE_HOME/aigent/audit.jsonl`, else
//! `~/.local/state/aigent/audit.jsonl`. Rotation: `AIGENT_AUDIT_MAX_BYTES`.

pub mod chain;
mod dir;
pub mod export;
mod head;
pub mod kept;
pub mod read;
pub mod record;
pub mod sign;
pub mod store;
#[cfg(unix)]
mod sys;

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub use read::{
    ExpectedHead, Filter, Listing, Location, Problem, SignedCheckpoint, Unverified, Verification,
    VerifyOptions,
};
pub use record::{
    AuditRecord, EVENT_AUDIT_CHECKPOINT, EVENT_COMMAND_EXECUTED, EVENT_COMMAND_STARTED,
    EVENT_CONFIRMATION_REFUSED, EVENT_HOOK_DECISION, EVENT_SANDBOX_UNAVAILABLE,
    EVENT_SPAWN_FAILURE, EVENT_VALIDATION_FAILURE, EVENTS, MAX_LOGGED_ARGV_BYTES,
    MAX_LOGGED_VALUE_CHARS, MAX_RECORD_BYTES, rfc3339_utc,
};
pub use store::{Disk, RealDisk};

/// The variable that sets the rotation size.
pub const MAX_BYTES_VARIABLE: &str = "AIGENT_AUDIT_MAX_BYTES";

/// The log is rotated before a record would take it past this size.
pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("no audit log location: set AIGENT_AUDIT_LOG, XDG_STATE_HOME or HOME")]
    NoLocation,
    #[error(
        "{MAX_BYTES_VARIABLE}={value:?} is not a size: give bytes, or a number with K, M or G (0 never rotates)"
    )]
    BadMaxBytes { value: String },
    #[error("cannot write the audit log {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("cannot read the audit log {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("audit log signing: {0}")]
    Key(#[from] sign::KeyError),
}

impl AuditError {
    /// The log (or its directory) does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Read { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

/// Where audit records go, and when the file is rotated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditLog {
    path: PathBuf,
    max_bytes: u64,
    signing: Option<sign::Signing>,
}

impl AuditLog {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            max_bytes: DEFAULT_MAX_BYTES,
            signing: None,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rotate before a record would take the file past `max_bytes`; 0
    /// never rotates.
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// Append a signed checkpoint at each rotation and every N records
    /// (see [`sign`]); the key is read when the log is opened for writing.
    pub fn with_signing(mut self, signing: Option<sign::Signing>) -> Self {
        self.signing = signing;
        self
    }

    pub fn signing(&self) -> Option<&sign::Signing> {
        self.signing.as_ref()
    }

    /// The log location from an explicit path and the environment, as
    /// `lookup` reports it (a function, so tests need not touch the real
    /// environment). Empty variables count as unset; a relative
    /// `XDG_STATE_HOME` is ignored, as the XDG spec says.
    pub fn locate(
        explicit: Option<&Path>,
        lookup: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Self, AuditError> {
        let set = |name: &str| lookup(name).filter(|value| !value.is_empty());
        let max_bytes = match set(MAX_BYTES_VARIABLE) {
            None => DEFAULT_MAX_BYTES,
            Some(value) => {
                let value = value.to_string_lossy().into_owned();
                parse_size(&value).ok_or(AuditError::BadMaxBytes { value })?
            }
        };
        let path = if let Some(path) = explicit {
            path.to_path_buf()
        } else if let Some(path) = set("AIGENT_AUDIT_LOG") {
            PathBuf::from(path)
        } else if let Some(state) = set("XDG_STATE_HOME")
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
        {
            state.join("aigent").join("audit.jsonl")
        } else if let Some(home) = set("HOME") {
            PathBuf::from(home).join(".local/state/aigent/audit.jsonl")
        } else {
            return Err(AuditError::NoLocation);
        };
        let signing = sign::Signing::from_lookup(&lookup)?;
        Ok(Self::at(path)
            .with_max_bytes(max_bytes)
            .with_signing(signing))
    }

    /// [`Self::locate`] with the process environment.
    pub fn from_env(explicit: Option<&Path>) -> Result<Self, AuditError> {
        Self::locate(explicit, |name| std::env::var_os(name))
    }

    /// Appends one record (see [`OpenAuditLog::append`]).
    pub fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        self.open()?.append(record)
    }

    /// Appends one record without waiting for stable storage (see
    /// [`OpenAuditLog::append_buffered`]).
    pub fn append_buffered(&self, record: &AuditRecord) -> Result<(), AuditError> {
        self.open()?.append_buffered(record)
    }

    /// Opens the log for appending (creating it and its directories), so
    /// that a caller can find out before acting whether its records can be
    /// written, and write them later through the same handle.
    pub fn open(&self) -> Result<OpenAuditLog, AuditError> {
        self.open_with(Box::new(RealDisk))
    }

    /// [`Self::open`] writing through `disk` (a test's full disk).
    pub fn open_with(&self, disk: Box<dyn Disk>) -> Result<OpenAuditLog, AuditError> {
        let signer = self.signing.as_ref().map(sign::Signing::load).transpose()?;
        self.open_with_signer(disk, signer)
    }

    /// [`Self::open_with`] with a signer in hand (tests, benchmarks).
    pub fn open_with_signer(
        &self,
        disk: Box<dyn Disk>,
        signer: Option<sign::CheckpointSigner>,
    ) -> Result<OpenAuditLog, AuditError> {
        let store =
            store::Store::open(&self.path, self.max_bytes, disk, signer).map_err(|source| {
                AuditError::Io {
                    path: self.path.clone(),
                    source,
                }
            })?;
        Ok(OpenAuditLog {
            path: self.path.clone(),
            store: Mutex::new(store),
        })
    }

    /// Whether writing `candidate` would touch this log's history: it is
    /// the log, its lock file or one of its rotated files (compared by
    /// directory entry after resolving the directories' symlinks), or the
    /// same file under another name. `run --result` must refuse such a
    /// path: its atomic write replaces the file.
    pub fn is_log_file(&self, candidate: &Path) -> bool {
        let entry = |path: &Path| -> Option<(PathBuf, OsString)> {
            let (parent, name) = store::split(path).ok()?;
            Some((std::fs::canonicalize(parent).ok()?, name))
        };
        let (Some((candidate_dir, candidate_name)), Some((log_dir, log_name))) =
            (entry(candidate), entry(&self.path))
        else {
            return false;
        };
        if candidate_dir == log_dir
            && (candidate_name == log_name
                || candidate_name == store::lock_name(&log_name)
                || store::rotation_number(&log_name, &candidate_name).is_some())
        {
            return true;
        }
        self.is_same_file_as_a_log_file(candidate, &log_dir, &log_name)
    }

    #[cfg(unix)]
    fn is_same_file_as_a_log_file(
        &self,
        candidate: &Path,
        log_dir: &Path,
        log_name: &std::ffi::OsStr,
    ) -> bool {
        use std::os::unix::fs::MetadataExt;
        let Ok(target) = std::fs::metadata(candidate) else {
            return false;
        };
        let Ok(entries) = std::fs::read_dir(log_dir) else {
            return false;
        };
        entries.flatten().any(|entry| {
            let name = entry.file_name();
            let ours = name == log_name
                || name == store::lock_name(log_name)
                || store::rotation_number(log_name, &name).is_some();
            ours && entry.metadata().is_ok_and(|metadata| {
                metadata.dev() == target.dev() && metadata.ino() == target.ino()
            })
        })
    }

    #[cfg(not(unix))]
    fn is_same_file_as_a_log_file(&self, _: &Path, _: &Path, _: &std::ffi::OsStr) -> bool {
        false
    }

    /// Checks the chain of every file of the log, oldest first, refusing
    /// lines before the chain began.
    pub fn verify(&self) -> Result<Verification, AuditError> {
        read::verify(self, &VerifyOptions::default())
    }

    /// [`Self::verify`] with `options`: a legacy prefix allowed, a head
    /// recorded earlier that must still be there.
    pub fn verify_with(&self, options: &VerifyOptions) -> Result<Verification, AuditError> {
        read::verify(self, options)
    }

    /// The records that `filter` selects, oldest first.
    pub fn records(&self, filter: &Filter) -> Result<Listing, AuditError> {
        read::records(self, filter)
    }
}

/// `123`, `64K`, `16M`, `1G` (powers of 1024; `KiB`, `MB` and the like
/// are read the same way).
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: u64 = number.parse().ok()?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return None,
    };
    number.checked_mul(1u64 << shift)
}

/// The log, open for appending.
#[derive(Debug)]
pub struct OpenAuditLog {
    path: PathBuf,
    store: Mutex<store::Store>,
}

impl OpenAuditLog {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` as the next link of the chain: under the log's
    /// lock, with one `write`, then `fdatasync`. `Ok` means the record is
    /// whole and on stable storage; any failure (a full disk, a short
    /// write, the file size limit) is an `Err`, and whatever part of the
    /// line reached the file is ended and accounted for by the next writer.
    pub fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        self.append_with(record, store::Flush::Durable)
    }

    /// As [`Self::append`], but returns once the line is written to the
    /// file, without `fdatasync`: for records on a latency path (the hook's
    /// decisions), where a crash losing the last few is acceptable. The
    /// chain is unaffected either way.
    pub fn append_buffered(&self, record: &AuditRecord) -> Result<(), AuditError> {
        self.append_with(record, store::Flush::Buffered)
    }

    /// Flushes records appended with [`Self::append_buffered`] to stable
    /// storage (`fdatasync` of the file they went to), unless a durable
    /// append has flushed them since. The log is not held while the disk
    /// works: the next record's writer does not wait for this flush.
    pub fn sync(&self) -> Result<(), AuditError> {
        let io = |source| AuditError::Io {
            path: self.path.clone(),
            source,
        };
        let pending = self.lock().take_unflushed().map_err(io)?;
        let Some((file, disk)) = pending else {
            return Ok(());
        };
        disk.sync(&file).map_err(|err| {
            self.lock().unflushed();
            io(err)
        })
    }

    /// Whether the log's path still leads to the directory and lock file
    /// this handle holds (see [`kept`]).
    pub fn still_at_path(&self) -> bool {
        self.lock().still_at_path()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, store::Store> {
        self.store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn append_with(&self, record: &AuditRecord, sync: store::Flush) -> Result<(), AuditError> {
        self.lock()
            .append(record, sync)
            .map_err(|source| AuditError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests;
