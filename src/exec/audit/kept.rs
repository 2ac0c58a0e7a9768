//! An audit log kept open by a process that appends to it again and again
//! (`aigent mcp serve`), instead of opened for every record.
//!
//! Opening the log is a dozen system calls (its directory, the lock file
//! and the log, each checked) and, with signing, reading the key. A kept
//! log is opened once and checked before each use: when its path no longer
//! leads to the directory and lock file it holds (moved, removed or
//! replaced), or after a write failed, it is opened again, as a one-shot
//! open would be.
//!
//! Records written without waiting for the disk (a call's outcome, after
//! its reply) are flushed together: [`KeptLog::flush_later`] asks for a
//! flush within [`FLUSH_WINDOW`], and the next durable record (the next
//! call's start, flushed before its spawn) usually takes them along first,
//! so a busy server flushes once per call instead of twice, and a start
//! record does not wait behind the flush of the outcome before it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::{AuditError, AuditLog, AuditRecord, OpenAuditLog};

/// How long an outcome record may wait for its flush (see the module's
/// comment). A power loss within it can lose the record; a process crash
/// cannot.
pub const FLUSH_WINDOW: Duration = Duration::from_millis(5);

/// The log, located from an explicit path and the environment as each
/// one-shot open would locate it, and kept open.
#[derive(Debug)]
pub struct KeptLog {
    explicit: Option<PathBuf>,
    open: Mutex<Option<Arc<OpenAuditLog>>>,
    /// A flush is asked for and not yet done.
    flush_asked: AtomicBool,
}

impl KeptLog {
    /// `explicit`: `--audit-log`, else the environment decides
    /// ([`AuditLog::from_env`]).
    pub fn new(explicit: Option<PathBuf>) -> Self {
        Self {
            explicit,
            open: Mutex::new(None),
            flush_asked: AtomicBool::new(false),
        }
    }

    /// The explicit path it was given.
    pub fn explicit(&self) -> Option<&std::path::Path> {
        self.explicit.as_deref()
    }

    /// The open log: the one kept, while its path still leads to it, else
    /// opened (and created) now. An `Err` is what a one-shot open would
    /// have said.
    pub fn open(&self) -> Result<Arc<OpenAuditLog>, AuditError> {
        let mut kept = self.lock();
        if let Some(log) = kept.as_ref()
            && log.still_at_path()
        {
            return Ok(log.clone());
        }
        // What the old handle wrote without a flush goes with it.
        if let Some(old) = kept.take() {
            let _ = old.sync();
        }
        let log = Arc::new(AuditLog::from_env(self.explicit.as_deref())?.open()?);
        *kept = Some(log.clone());
        Ok(log)
    }

    /// Appends `record` and flushes it to stable storage
    /// ([`OpenAuditLog::append`]).
    pub fn append(&self, record: &AuditRecord) -> Result<(), AuditError> {
        let log = self.open()?;
        log.append(record).inspect_err(|_| self.forget(&log))
    }

    /// Appends `record` without waiting for the disk
    /// ([`OpenAuditLog::append_buffered`]); [`Self::flush_later`] flushes it.
    pub fn append_buffered(&self, record: &AuditRecord) -> Result<(), AuditError> {
        let log = self.open()?;
        log.append_buffered(record)
            .inspect_err(|_| self.forget(&log))
    }

    /// After a failed write: the next use opens the log again.
    pub fn forget(&self, log: &Arc<OpenAuditLog>) {
        let mut kept = self.lock();
        if kept.as_ref().is_some_and(|held| Arc::ptr_eq(held, log)) {
            *kept = None;
        }
    }

    /// Whether the caller should flush within [`FLUSH_WINDOW`]: `false`
    /// when a flush is already asked for and not done (it takes this
    /// record along). A `true` must be followed by [`Self::flush`].
    pub fn flush_later(&self) -> bool {
        !self.flush_asked.swap(true, Ordering::AcqRel)
    }

    /// Flushes what was written without waiting for the disk, unless a
    /// durable append already did. A failure cannot reach anyone any
    /// more (the replies have gone): the records are in the file, whole,
    /// and the next durable append or the kernel flushes them.
    pub fn flush(&self) {
        self.flush_asked.store(false, Ordering::Release);
        let log = self.lock().clone();
        if let Some(log) = log {
            let _ = log.sync();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<OpenAuditLog>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for KeptLog {
    /// Nothing written is left unflushed when the server is done.
    fn drop(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(n: u64) -> AuditRecord {
        AuditRecord::new("COMMAND_STARTED", "kept").with("n", n)
    }

    #[test]
    fn one_handle_serves_every_append_while_the_path_leads_to_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/audit.jsonl");
        let kept = KeptLog::new(Some(path.clone()));
        kept.append(&record(1)).unwrap();
        let first = kept.open().unwrap();
        kept.append_buffered(&record(2)).unwrap();
        assert!(Arc::ptr_eq(&first, &kept.open().unwrap()));
        assert!(kept.flush_later());
        assert!(!kept.flush_later(), "one flush is asked for at a time");
        kept.flush();
        assert!(kept.flush_later());
        let verified = AuditLog::at(&path).verify().unwrap();
        assert_eq!(verified.records, 2);
    }

    #[test]
    fn a_moved_directory_or_lock_file_is_left_for_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let logs = dir.path().join("logs");
        let path = logs.join("audit.jsonl");
        let kept = KeptLog::new(Some(path.clone()));
        kept.append(&record(1)).unwrap();
        let first = kept.open().unwrap();

        std::fs::rename(&logs, dir.path().join("moved")).unwrap();
        kept.append(&record(2)).unwrap();
        let second = kept.open().unwrap();
        assert!(
            !Arc::ptr_eq(&first, &second),
            "the moved directory was kept"
        );
        assert_eq!(AuditLog::at(&path).verify().unwrap().records, 1);

        std::fs::remove_file(logs.join("audit.jsonl.lock")).unwrap();
        kept.append(&record(3)).unwrap();
        assert!(
            !Arc::ptr_eq(&second, &kept.open().unwrap()),
            "a lock file nobody else locks was kept"
        );
        assert_eq!(AuditLog::at(&path).verify().unwrap().records, 2);
    }
}
