//! Appending to the log, so that a record is either whole, durable and
//! chained, or reported as not written.
//!
//! - Writers take an exclusive `flock` on a lock file beside the log
//!   (`audit.jsonl.lock`, never rotated), read the tail for `seq` and
//!   `prev` (or take the head this process left, while the file is as it
//!   left it: `head.rs`), rotate if the record would pass the size limit,
//!   write the line with one `write` on an `O_APPEND` descriptor, and
//!   `fdatasync`.
//! - A write that comes back short or failed is an error; the torn line it
//!   may leave is ended and accounted for by the next writer.
//! - A record that would pass the file size limit (`ulimit -f`) is refused
//!   before anything is written, and SIGXFSZ is held off around the write,
//!   so the limit is an error, never the end of aigent.
//! - The log's directory is opened without following a symlink, and the
//!   log is opened relative to it: a symlinked directory or file, a FIFO, a
//!   hard-linked file and a file another user owns are refused, and only a
//!   file of our own has its mode tightened to 0600.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::chain::{self, Line, Tail};
use super::dir::{Access, Dir};
use super::head::{self, Stamp};
use super::record::AuditRecord;
use super::sign::{CheckpointSigner, Reason};

/// The first look at the tail; it grows fourfold while no record is found.
const FIRST_TAIL_WINDOW: u64 = 16 * 1024;
/// Past this, a tail without a record is refused rather than read on.
pub const MAX_TAIL_WINDOW: u64 = 4 * 1024 * 1024;

/// What an append asks of the disk: one write and a flush to stable
/// storage. Tests substitute it with a disk that fills up or writes short.
pub trait Disk: Send + Sync + std::fmt::Debug {
    /// Writes once; returns how much was written, like `write(2)`.
    fn write(&self, file: &File, bytes: &[u8]) -> io::Result<usize>;
    /// `fdatasync(2)`.
    fn sync(&self, file: &File) -> io::Result<()>;
}

/// The real disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct RealDisk;

impl Disk for RealDisk {
    fn write(&self, file: &File, bytes: &[u8]) -> io::Result<usize> {
        use std::io::Write;
        #[cfg(unix)]
        {
            super::sys::without_file_size_signal(|| (&*file).write(bytes))
        }
        #[cfg(not(unix))]
        {
            (&*file).write(bytes)
        }
    }

    fn sync(&self, file: &File) -> io::Result<()> {
        file.sync_data()
    }
}

/// The name of the lock file beside the log.
pub fn lock_name(name: &OsStr) -> OsString {
    let mut lock = name.to_os_string();
    lock.push(".lock");
    lock
}

/// The name of the `number`th rotated file.
pub fn rotated_name(name: &OsStr, number: u64) -> OsString {
    let mut rotated = name.to_os_string();
    rotated.push(format!(".{number}"));
    rotated
}

/// The number of a rotated file of the log `name`, if `candidate` is one.
pub fn rotation_number(name: &OsStr, candidate: &OsStr) -> Option<u64> {
    let name = name.as_encoded_bytes();
    let rest = candidate.as_encoded_bytes().strip_prefix(name)?;
    let digits = rest.strip_prefix(b".")?;
    if digits.is_empty() || digits.len() > 18 || digits[0] == b'0' {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// The rotated files of `name` in `dir`, oldest first.
pub fn rotated_numbers(dir: &Dir, name: &OsStr) -> io::Result<Vec<u64>> {
    let mut numbers: Vec<u64> = dir
        .names()?
        .iter()
        .filter_map(|candidate| rotation_number(name, candidate))
        .collect();
    numbers.sort_unstable();
    Ok(numbers)
}

/// The directory and file name of a log path.
pub fn split(path: &Path) -> io::Result<(PathBuf, OsString)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("the audit log path names no file"))?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_os_string()))
}

/// The tail of `file` (of `size` bytes): the last record's `seq`, the hash
/// of the last line, and the lines after the last record. A log with no
/// record at all (new, or written before the chain existed) starts the
/// chain; a tail whose last [`MAX_TAIL_WINDOW`] bytes hold no record is
/// refused.
pub fn read_tail(mut file: &File, size: u64) -> io::Result<Tail> {
    if size == 0 {
        return Ok(Tail::genesis());
    }
    let mut window = FIRST_TAIL_WINDOW;
    loop {
        let start = size.saturating_sub(window);
        let length = usize::try_from(size - start).map_err(io::Error::other)?;
        let mut bytes = vec![0; length];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut bytes)?;
        if let Some(tail) = scan_tail(&bytes, start == 0) {
            return Ok(tail);
        }
        if window >= MAX_TAIL_WINDOW {
            return Err(io::Error::other(format!(
                "the last {} MiB of the audit log hold no record; run `aigent audit verify` and move the log aside",
                MAX_TAIL_WINDOW / (1024 * 1024)
            )));
        }
        window *= 4;
    }
}

/// The tail within `bytes`, the end of the file; `from_start` when they
/// are the whole file. `None`: look further back.
fn scan_tail(bytes: &[u8], from_start: bool) -> Option<Tail> {
    let terminated = bytes.last() == Some(&b'\n');
    let body = if terminated {
        &bytes[..bytes.len() - 1]
    } else {
        bytes
    };
    let mut lines: Vec<&[u8]> = body.split(|byte| *byte == b'\n').collect();
    if !from_start {
        // The first piece may be the end of a longer line.
        lines.remove(0);
    }
    let last = *lines.last()?;
    let prev = chain::line_hash(last);
    // Only a line a write cut short is accounted for as torn; a complete
    // line that is not a record is left for `verify` to report.
    let mut torn = 0u64;
    for (index, line) in lines.iter().enumerate().rev() {
        let unterminated_last = index + 1 == lines.len() && !terminated;
        if !unterminated_last && let Line::Record(link, _) = chain::parse(line) {
            return Some(Tail {
                terminated,
                next_seq: link.seq + 1,
                prev,
                torn,
            });
        }
        if chain::is_partial_record(line) {
            torn += 1;
        }
    }
    // No record in the whole file: the chain starts here.
    from_start.then(|| Tail {
        terminated,
        ..Tail::genesis()
    })
}

/// The log open for appending.
#[derive(Debug)]
pub struct Store {
    lock: File,
    log: LiveFile,
}

/// The live file of the log and what it takes to write and rotate it.
#[derive(Debug)]
struct LiveFile {
    dir: Dir,
    name: OsString,
    file: File,
    max_bytes: u64,
    disk: std::sync::Arc<dyn Disk>,
    /// Signed checkpoints, when a key is configured.
    signer: Option<CheckpointSigner>,
    /// Records were written to `file` with [`Flush::Buffered`] since its
    /// last flush.
    unflushed: bool,
}

impl Store {
    pub fn open(
        path: &Path,
        max_bytes: u64,
        disk: Box<dyn Disk>,
        signer: Option<CheckpointSigner>,
    ) -> io::Result<Self> {
        let (parent, name) = split(path)?;
        let dir = Dir::open(&parent, true)?;
        let lock = dir.open_file(&lock_name(&name), Access::Lock)?;
        let file = dir.open_file(&name, Access::Append)?;
        Ok(Self {
            lock,
            log: LiveFile {
                dir,
                name,
                file,
                max_bytes,
                disk: disk.into(),
                signer,
                unflushed: false,
            },
        })
    }

    /// Appends `record` as the next link of the chain, under the lock;
    /// `sync`: flushed to stable storage before it returns.
    pub fn append(&mut self, record: &AuditRecord, sync: Flush) -> io::Result<()> {
        let _locked = Locked::exclusive(&self.lock)?;
        self.log.append(record, sync)
    }

    /// Whether the log's path still leads to the directory and lock file
    /// this store holds: a store kept open across many appends (a server)
    /// is opened again when either was moved, removed or replaced, so that
    /// it never writes where others do not look, or locks a file others
    /// do not lock.
    pub fn still_at_path(&self) -> bool {
        self.log.dir.still_at_path()
            && self.lock.metadata().is_ok_and(|held| {
                self.log.dir.identity(&lock_name(&self.log.name)).ok()
                    == Some(Some(super::dir::identity_of(&held)))
            })
    }

    /// What flushes the records appended with [`Flush::Buffered`] since
    /// the last flush, if any: the file they went to and the disk. A
    /// durable append flushes everything before it, so after one there is
    /// nothing to do.
    ///
    /// The caller flushes without holding this store or the lock:
    /// `fdatasync` flushes the file's data whatever its name is by then (a
    /// rotation renames it), and a writer waiting (the next call's start
    /// record) must not wait for this disk flush too. If the flush fails,
    /// [`Self::unflushed`] says so again.
    pub fn take_unflushed(&mut self) -> io::Result<Option<(File, std::sync::Arc<dyn Disk>)>> {
        if !self.log.unflushed {
            return Ok(None);
        }
        self.log.unflushed = false;
        Ok(Some((self.log.file.try_clone()?, self.log.disk.clone())))
    }

    /// Marks the live file as holding records not yet flushed (a flush of
    /// them failed).
    pub fn unflushed(&mut self) {
        self.log.unflushed = true;
    }

    #[cfg(test)]
    pub fn file(&self) -> &File {
        &self.log.file
    }
}

/// Whether an append waits for stable storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// `fdatasync` before returning: the record survives a crash.
    Durable,
    /// Written to the file, left to the kernel to flush. A crash may lose
    /// the last records; the chain stays intact (the next writer reads the
    /// tail that is actually there).
    Buffered,
}

impl LiveFile {
    fn append(&mut self, record: &AuditRecord, sync: Flush) -> io::Result<()> {
        let metadata = self.follow_rotation()?;
        let mut size = metadata.len();
        let stamp = Stamp::of(&metadata);
        let remembered = stamp.as_ref().and_then(head::recall);
        let mut tail = match remembered {
            Some(tail) => tail,
            None if size == 0 => self.predecessor_tail()?,
            None => read_tail(&self.file, size)?,
        };
        // Whatever happens below, the file will not be as remembered.
        if let Some(stamp) = &stamp {
            head::forget(stamp);
        }
        let mut repair = !tail.terminated;
        let (mut lines, mut after) = self.lines_for(record, &tail);
        let needed = u64::from(repair) + lines.len() as u64;
        if size > 0 && self.max_bytes > 0 && size.saturating_add(needed) > self.max_bytes {
            if let Some(signer) = &self.signer {
                // The file rotated away ends with a signed checkpoint.
                let checkpoint = signer
                    .checkpoint(tail.next_seq, &tail.prev, Reason::Rotation)
                    .to_line(tail.next_seq, &tail.prev, tail.torn);
                let mut bytes = Vec::with_capacity(checkpoint.len() + 2);
                if repair {
                    bytes.push(b'\n');
                }
                bytes.extend_from_slice(&checkpoint);
                bytes.push(b'\n');
                write_line(self.disk.as_ref(), &self.file, size, &bytes, Flush::Durable)?;
                size += bytes.len() as u64;
                repair = false;
                tail = Tail {
                    terminated: true,
                    next_seq: tail.next_seq + 1,
                    prev: chain::line_hash(&checkpoint),
                    torn: 0,
                };
                (lines, after) = self.lines_for(record, &tail);
            }
            self.rotate(size, repair)?;
            size = 0;
            repair = false;
        }
        let mut bytes = Vec::with_capacity(lines.len() + 1);
        if repair {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(&lines);
        write_line(self.disk.as_ref(), &self.file, size, &bytes, sync)?;
        // A flush to stable storage takes every earlier write with it.
        self.unflushed = sync == Flush::Buffered;
        // Still under the lock: no other writer has touched the file since.
        if let Some(stamp) = Stamp::of(&self.file.metadata()?) {
            head::remember(stamp, after);
        }
        Ok(())
    }

    /// The line of `record` after `tail`, each ended by a newline, and the
    /// interval checkpoint after it when its seq is a multiple of N: both
    /// go out in one write. Also the tail once they are written.
    fn lines_for(&self, record: &AuditRecord, tail: &Tail) -> (Vec<u8>, Tail) {
        let line = record.to_line(tail.next_seq, &tail.prev, tail.torn);
        let mut bytes = Vec::with_capacity(line.len() + 512);
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
        let mut after = Tail {
            terminated: true,
            next_seq: tail.next_seq + 1,
            prev: chain::line_hash(&line),
            torn: 0,
        };
        if let Some(signer) = &self.signer
            && tail.next_seq.is_multiple_of(signer.every)
        {
            let checkpoint = signer
                .checkpoint(after.next_seq, &after.prev, Reason::Interval)
                .to_line(after.next_seq, &after.prev, 0);
            bytes.extend_from_slice(&checkpoint);
            bytes.push(b'\n');
            after = Tail {
                terminated: true,
                next_seq: after.next_seq + 1,
                prev: chain::line_hash(&checkpoint),
                torn: 0,
            };
        }
        (bytes, after)
    }

    /// Another writer may have rotated the log since it was opened: append
    /// to the file that now has the log's name. Returns its metadata.
    fn follow_rotation(&mut self) -> io::Result<std::fs::Metadata> {
        let metadata = self.file.metadata()?;
        if self.dir.identity(&self.name)? == Some(super::dir::identity_of(&metadata)) {
            return Ok(metadata);
        }
        self.flush_before_leaving()?;
        self.file = self.dir.open_file(&self.name, Access::Append)?;
        self.file.metadata()
    }

    /// Flushes what was written to the live file without a flush, before
    /// it stops being the one written to: a later flush goes to the new
    /// file and would not take these records with it.
    fn flush_before_leaving(&mut self) -> io::Result<()> {
        if self.unflushed {
            self.disk.sync(&self.file)?;
            self.unflushed = false;
        }
        Ok(())
    }

    /// An empty log continues the chain of the newest rotated file, if any.
    fn predecessor_tail(&self) -> io::Result<Tail> {
        let Some(newest) = rotated_numbers(&self.dir, &self.name)?.pop() else {
            return Ok(Tail::genesis());
        };
        let file = self
            .dir
            .open_file(&rotated_name(&self.name, newest), Access::Read)?;
        let size = file.metadata()?.len();
        let mut tail = read_tail(&file, size)?;
        // A rotated file is never written again: its last line stays as it is.
        tail.terminated = true;
        Ok(tail)
    }

    /// Renames the log to the next free `NAME.N` and starts an empty one.
    fn rotate(&mut self, size: u64, repair: bool) -> io::Result<()> {
        if repair {
            write_line(self.disk.as_ref(), &self.file, size, b"\n", Flush::Durable)?;
            self.unflushed = false;
        }
        self.flush_before_leaving()?;
        let mut number = rotated_numbers(&self.dir, &self.name)?
            .last()
            .map_or(1, |newest| newest + 1);
        loop {
            match self
                .dir
                .rename_noreplace(&self.name, &rotated_name(&self.name, number))
            {
                Ok(()) => break,
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => number += 1,
                Err(err) => return Err(err),
            }
        }
        self.file = self.dir.open_file(&self.name, Access::Append)?;
        if self.file.metadata()?.len() != 0 {
            return Err(io::Error::other(
                "the audit log was written during rotation by a writer that does not lock it",
            ));
        }
        self.dir.sync()
    }
}

/// One write of `bytes` to `file` (now `size` bytes long), then, for
/// [`Flush::Durable`], a flush to stable storage. A short write is an error.
fn write_line(
    disk: &dyn Disk,
    file: &File,
    size: u64,
    bytes: &[u8],
    sync: Flush,
) -> io::Result<()> {
    check_file_size_limit(size, bytes.len())?;
    let written = disk.write(file, bytes)?;
    if written != bytes.len() {
        return Err(io::Error::new(
            io::ErrorKind::WriteZero,
            format!(
                "short write ({written} of {} bytes); the disk may be full",
                bytes.len()
            ),
        ));
    }
    match sync {
        Flush::Durable => disk.sync(file),
        Flush::Buffered => Ok(()),
    }
}

/// A write past the file size limit would raise SIGXFSZ (or be cut short):
/// refuse it before writing anything.
#[cfg(unix)]
fn check_file_size_limit(size: u64, length: usize) -> io::Result<()> {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Fsize).current;
    match limit {
        Some(limit) if size.saturating_add(length as u64) > limit => Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("the record would pass the file size limit (ulimit -f) of {limit} bytes"),
        )),
        _ => Ok(()),
    }
}

#[cfg(not(unix))]
fn check_file_size_limit(_size: u64, _length: usize) -> io::Result<()> {
    Ok(())
}

/// An advisory lock on the lock file, released when dropped.
pub struct Locked<'a>(&'a File);

impl<'a> Locked<'a> {
    pub fn exclusive(file: &'a File) -> io::Result<Self> {
        retry_interrupted(|| file.lock())?;
        Ok(Self(file))
    }

    pub fn shared(file: &'a File) -> io::Result<Self> {
        retry_interrupted(|| file.lock_shared())?;
        Ok(Self(file))
    }
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

fn retry_interrupted(mut call: impl FnMut() -> io::Result<()>) -> io::Result<()> {
    loop {
        match call() {
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            result => return result,
        }
    }
}
