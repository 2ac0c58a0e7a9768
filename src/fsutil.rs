//! File-system helpers that keep a failure from leaving half-written files.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` by writing a temporary sibling and renaming it
/// over `path`, so a reader sees the old file or the new one, never a part.
/// The temporary file is removed when anything fails (a full disk included).
/// Hand-written rather than tempfile's NamedTempFile: tempfile adds its
/// random temporary name to every error, and the message should name the
/// target the caller asked for.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with_permissions(path, bytes, None)
}

/// [`write_atomic`], giving the new file `permissions` (those of the file
/// it replaces, say) before it takes the place of the old one.
pub fn write_atomic_with_permissions(
    path: &Path,
    bytes: &[u8],
    permissions: Option<fs::Permissions>,
) -> io::Result<()> {
    let temporary = temporary_sibling(path);
    let result = (|| {
        let mut file = File::create_new(&temporary)?;
        file.write_all(bytes)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// Renames `from` to `to` unless `to` exists (`AlreadyExists`): atomically
/// where the system can (renameat2 NOREPLACE, renamex_np EXCL), else with a
/// check just before the rename. Works for directories too.
pub fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    {
        rustix::fs::renameat_with(
            rustix::fs::CWD,
            from,
            rustix::fs::CWD,
            to,
            rustix::fs::RenameFlags::NOREPLACE,
        )
        .map_err(io::Error::from)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
    {
        if fs::symlink_metadata(to).is_ok() {
            return Err(io::ErrorKind::AlreadyExists.into());
        }
        fs::rename(from, to)
    }
}

/// A name beside `path` that no other writer (thread or process) will pick.
pub fn temporary_sibling(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(
        ".{name}.aigent-tmp-{}-{unique}",
        std::process::id()
    ))
}

/// Why [`read_regular_file`] refused a file.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    /// A FIFO, socket, device or directory: reading it could block forever
    /// or never end.
    NotRegular,
    /// Larger than the limit; the size seen.
    TooLarge(u64),
}

impl From<io::Error> for ReadError {
    fn from(err: io::Error) -> Self {
        Self::Io(err)
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(err) => write!(f, "{err}"),
            Self::NotRegular => f.write_str("not a regular file"),
            Self::TooLarge(size) => write!(f, "the file is {size} bytes, over the limit"),
        }
    }
}

/// Reads at most `limit` bytes of the regular file at `path` (symlinks
/// followed). The file is opened non-blocking and the check is made on the
/// opened handle, so a file swapped for a FIFO between a caller's own check
/// and the open cannot hang the read, and a file that grows past `limit`
/// while being read is refused rather than read whole.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let file = open_nonblocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(ReadError::NotRegular);
    }
    if metadata.len() > limit {
        return Err(ReadError::TooLarge(metadata.len()));
    }
    let capacity = usize::try_from(metadata.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity.saturating_add(1));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The first `limit` bytes of the regular file at `path`, opened and
/// checked as [`read_regular_file`] does; a longer file is cut, not
/// refused (a scan of a script's head).
pub fn read_regular_file_prefix(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let file = open_nonblocking(path)?;
    if !file.metadata()?.is_file() {
        return Err(ReadError::NotRegular);
    }
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("aigent-fsutil-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.json");
        fs::write(&target, "old").unwrap();
        write_atomic(&target, b"new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_error_not_a_panic() {
        let target = Path::new("/nonexistent-aigent-dir/x/out.json");
        assert!(write_atomic(target, b"x").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_directories_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        assert!(matches!(
            read_regular_file(&fifo, 10),
            Err(ReadError::NotRegular)
        ));
        assert!(matches!(
            read_regular_file(dir.path(), 10),
            Err(ReadError::NotRegular)
        ));
        let file = dir.path().join("f");
        fs::write(&file, "hello").unwrap();
        assert_eq!(read_regular_file(&file, 5).unwrap(), b"hello");
        assert!(matches!(
            read_regular_file(&file, 4),
            Err(ReadError::TooLarge(5))
        ));
    }
}
