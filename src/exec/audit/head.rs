//! The chain's head as this process left it, so that the next append to
//! the same file need not read the tail back (a 16 KiB read, a JSON parse
//! and a hash: most of an append's work when the caller is a server that
//! writes two records a call).
//!
//! An entry is only ever used under the log's exclusive lock, and only
//! when the live file is still exactly as this process left it: the same
//! device and inode, the same size, and the same modification and change
//! times (to the nanosecond the file system keeps). Every other writer
//! appends under the same lock and so changes the size; a rotation
//! changes the inode; an edit, a truncation or a copy over the file
//! changes the times. Any difference, and the tail is read from the file
//! as if nothing were remembered. An entry is forgotten before each write
//! and remembered again only once the write (and, when asked for, the
//! flush) succeeded, so a torn line is always read back and repaired.

use std::fs::Metadata;
use std::sync::{Mutex, PoisonError};

use super::chain::Tail;

/// A file as `fstat` saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    device: u64,
    inode: u64,
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Stamp {
    /// The stamp of an open file's metadata; `None` where the platform
    /// gives no inode (nothing is remembered there).
    #[cfg(unix)]
    pub fn of(metadata: &Metadata) -> Option<Self> {
        use std::os::unix::fs::MetadataExt;
        Some(Self {
            device: metadata.dev(),
            inode: metadata.ino(),
            size: metadata.len(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
            changed: (metadata.ctime(), metadata.ctime_nsec()),
        })
    }

    #[cfg(not(unix))]
    pub fn of(_metadata: &Metadata) -> Option<Self> {
        None
    }

    fn file(&self) -> (u64, u64) {
        (self.device, self.inode)
    }
}

/// A process writes one log, or a few (tests, a library caller with
/// several): the oldest entry goes past this many.
const KEPT: usize = 8;

/// The heads this process left, by file.
#[derive(Debug, Default)]
struct Heads(Vec<(Stamp, Tail)>);

impl Heads {
    const fn new() -> Self {
        Self(Vec::new())
    }

    fn recall(&self, stamp: &Stamp) -> Option<Tail> {
        self.0
            .iter()
            .find(|(kept, _)| kept == stamp)
            .map(|(_, tail)| tail.clone())
    }

    fn forget(&mut self, stamp: &Stamp) {
        self.0.retain(|(kept, _)| kept.file() != stamp.file());
    }

    fn remember(&mut self, stamp: Stamp, tail: Tail) {
        self.forget(&stamp);
        if self.0.len() >= KEPT {
            self.0.remove(0);
        }
        self.0.push((stamp, tail));
    }
}

static HEADS: Mutex<Heads> = Mutex::new(Heads::new());

fn heads() -> std::sync::MutexGuard<'static, Heads> {
    HEADS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The tail this process left at the end of the file `stamp` describes,
/// if the file is still exactly as it was then.
pub fn recall(stamp: &Stamp) -> Option<Tail> {
    heads().recall(stamp)
}

/// Forgets the head of the file `stamp` describes (whatever its size and
/// times now): it is about to be written.
pub fn forget(stamp: &Stamp) {
    heads().forget(stamp);
}

/// Remembers `tail` as the end of the file `stamp` describes.
pub fn remember(stamp: Stamp, tail: Tail) {
    heads().remember(stamp, tail);
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn tail(seq: u64) -> Tail {
        Tail {
            terminated: true,
            next_seq: seq,
            prev: "0".repeat(64),
            torn: 0,
        }
    }

    #[test]
    fn only_an_unchanged_file_is_recalled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        std::fs::write(&path, "one\n").unwrap();
        let stamp = Stamp::of(&std::fs::metadata(&path).unwrap()).unwrap();
        let mut heads = Heads::new();
        heads.remember(stamp, tail(2));
        assert_eq!(heads.recall(&stamp), Some(tail(2)));
        // Appended to: another size.
        std::fs::write(&path, "one\ntwo\n").unwrap();
        let grown = Stamp::of(&std::fs::metadata(&path).unwrap()).unwrap();
        assert_ne!(grown, stamp);
        assert_eq!(heads.recall(&grown), None);
        // Forgotten by file, whatever the stamp.
        heads.forget(&grown);
        assert_eq!(heads.recall(&stamp), None);
    }

    #[test]
    fn the_oldest_entry_goes() {
        let stamps: Vec<Stamp> = (0..=KEPT as u64)
            .map(|inode| Stamp {
                device: u64::MAX,
                inode,
                size: 1,
                modified: (0, 0),
                changed: (0, 0),
            })
            .collect();
        let mut heads = Heads::new();
        for (index, stamp) in stamps.iter().enumerate() {
            heads.remember(*stamp, tail(index as u64));
        }
        assert_eq!(heads.0.len(), KEPT);
        assert_eq!(heads.recall(&stamps[0]), None);
        assert_eq!(heads.recall(&stamps[KEPT]), Some(tail(KEPT as u64)));
    }
}
