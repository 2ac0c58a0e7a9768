//! File-system helpers that keep a failure from leaving half-written files.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub mod project;
pub mod remembered;

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

/// Why [`Rewritable::replace`] left a file as it was.
#[derive(Debug)]
pub enum ReplaceError {
    Io(io::Error),
    /// The name no longer refers to the file that was read: it was
    /// replaced, removed or swapped for a symlink meanwhile.
    Changed,
    /// The file has this many hard links: replacing it would leave the
    /// other names with the old contents.
    HardLinks(u64),
    /// The replacement could not be given the file's owner and group (the
    /// process may not `chown`); the ids it has instead.
    Owner {
        uid: u32,
        gid: u32,
    },
}

impl From<io::Error> for ReplaceError {
    fn from(err: io::Error) -> Self {
        Self::Io(err)
    }
}

impl std::fmt::Display for ReplaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(err) => write!(f, "{err}"),
            Self::Changed => f.write_str(
                "the file changed while it was being rewritten (replaced, removed or \
                 swapped for a symlink); nothing written",
            ),
            Self::HardLinks(count) => write!(
                f,
                "the file has {count} hard links, and replacing it would leave the others \
                 with the old contents; nothing written (--force replaces it anyway)"
            ),
            Self::Owner { uid, gid } => write!(
                f,
                "the file belongs to {uid}:{gid}, which this process cannot give the \
                 replacement; nothing written (--force writes it anyway, owned by this user)"
            ),
        }
    }
}

/// What [`Rewritable::replace`] may do that it refuses by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplaceOptions {
    /// Replace a file with more than one hard link (the other names keep
    /// the old contents), or whose owner and group the process cannot
    /// keep (the replacement belongs to the process's user).
    pub force: bool,
}

/// A regular file opened once to be read and then replaced, without a
/// second lookup of its path: the directory holding it is held open, and
/// the replacement is made and renamed through that handle.
///
/// - [`Rewritable::open_beneath`] walks from a root directory to the file
///   one component at a time, following no symlink (`O_NOFOLLOW` on each),
///   so the file read is inside the root even if a directory on the way is
///   swapped for a symlink meanwhile.
/// - [`Rewritable::replace`] writes a temporary file in the same directory,
///   created with the original's permission bits (never wider), gives it
///   the original's owner and group, and just before the rename checks,
///   through the directory handle, that the name still refers to the inode
///   that was read. A rename never follows a symlink at its destination.
#[cfg(unix)]
#[derive(Debug)]
pub struct Rewritable {
    directory: std::os::fd::OwnedFd,
    name: std::ffi::OsString,
    /// Held open until the rewrite ends, so that its inode number cannot
    /// be reused by a file put in its place.
    _file: File,
    stat: rustix::fs::Stat,
    /// Where the file was, for messages.
    path: PathBuf,
}

#[cfg(unix)]
impl Rewritable {
    /// Opens `path` (absolute, under `root`, with no `..`) by walking from
    /// `root`, and reads at most `limit` bytes of it. A FIFO, device or
    /// directory is [`ReadError::NotRegular`], opened without blocking.
    pub fn open_beneath(
        root: &Path,
        path: &Path,
        limit: u64,
    ) -> Result<(Self, Vec<u8>), ReadError> {
        use rustix::fs::{CWD, Mode, OFlags};
        use std::path::Component;
        let relative = path
            .strip_prefix(root)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "not under the tree given"))?;
        let mut names: Vec<&std::ffi::OsStr> = Vec::new();
        for component in relative.components() {
            match component {
                Component::Normal(name) => names.push(name),
                Component::CurDir => {}
                _ => {
                    return Err(ReadError::Io(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "the path leaves the tree given",
                    )));
                }
            }
        }
        let Some(name) = names.pop() else {
            return Err(ReadError::NotRegular);
        };
        let directory_flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
        let mut directory = rustix::fs::openat(CWD, root, directory_flags, Mode::empty())
            .map_err(io::Error::from)?;
        for step in names {
            directory = rustix::fs::openat(
                &directory,
                step,
                directory_flags | OFlags::NOFOLLOW,
                Mode::empty(),
            )
            .map_err(io::Error::from)?;
        }
        let fd = rustix::fs::openat(
            &directory,
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(io::Error::from)?;
        let stat = rustix::fs::fstat(&fd).map_err(io::Error::from)?;
        if rustix::fs::FileType::from_raw_mode(stat.st_mode) != rustix::fs::FileType::RegularFile {
            return Err(ReadError::NotRegular);
        }
        let file = File::from(fd);
        let bytes = read_limited(&file, stat.st_size as u64, limit)?;
        Ok((
            Self {
                _file: file,
                directory,
                name: name.to_owned(),
                stat,
                path: path.to_owned(),
            },
            bytes,
        ))
    }

    /// Where the file was when it was opened.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the file that was read with `bytes` (see [`Rewritable`]).
    /// Refuses, leaving it as it was, when it has more than one hard link
    /// or its owner cannot be kept (unless `options.force`), and when its
    /// name no longer refers to the file that was read.
    pub fn replace(&self, bytes: &[u8], options: ReplaceOptions) -> Result<(), ReplaceError> {
        use rustix::fs::{AtFlags, Mode, OFlags};
        #[allow(clippy::useless_conversion)] // nlink_t is narrower on other systems
        let links = u64::from(self.stat.st_nlink);
        if links > 1 && !options.force {
            return Err(ReplaceError::HardLinks(links));
        }
        let permissions = self.stat.st_mode & 0o7777;
        let temporary = temporary_sibling(Path::new(&self.name));
        let temporary = temporary.as_os_str();
        let fd = rustix::fs::openat(
            &self.directory,
            temporary,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            // The permission bits only: never wider than the original
            // (the umask may narrow them; fchmod restores them below).
            Mode::from_raw_mode(permissions & 0o777),
        )
        .map_err(io::Error::from)?;
        let result = (|| {
            let mut file = File::from(fd);
            self.keep_owner(&file, options)?;
            rustix::fs::fchmod(&file, Mode::from_raw_mode(permissions)).map_err(io::Error::from)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            #[cfg(test)]
            tests::before_rename(&self.path);
            match rustix::fs::statat(&self.directory, &self.name, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(now)
                    if now.st_dev == self.stat.st_dev
                        && now.st_ino == self.stat.st_ino
                        && now.st_mode == self.stat.st_mode => {}
                Ok(_) => return Err(ReplaceError::Changed),
                Err(errno) if errno == rustix::io::Errno::NOENT => {
                    return Err(ReplaceError::Changed);
                }
                Err(errno) => return Err(io::Error::from(errno).into()),
            }
            rustix::fs::renameat(&self.directory, temporary, &self.directory, &self.name)
                .map_err(io::Error::from)?;
            Ok(())
        })();
        if result.is_err() {
            let _ = rustix::fs::unlinkat(&self.directory, temporary, AtFlags::empty());
        }
        result
    }

    /// Gives the temporary file the original's owner and group, where they
    /// differ from those it was created with.
    fn keep_owner(&self, file: &File, options: ReplaceOptions) -> Result<(), ReplaceError> {
        use rustix::fs::{Gid, Uid};
        let created = rustix::fs::fstat(file).map_err(io::Error::from)?;
        let uid = (created.st_uid != self.stat.st_uid).then_some(self.stat.st_uid);
        let gid = (created.st_gid != self.stat.st_gid).then_some(self.stat.st_gid);
        if uid.is_none() && gid.is_none() {
            return Ok(());
        }
        match rustix::fs::fchown(file, uid.map(Uid::from_raw), gid.map(Gid::from_raw)) {
            Ok(()) => Ok(()),
            Err(errno) if errno == rustix::io::Errno::PERM && options.force => Ok(()),
            Err(errno) if errno == rustix::io::Errno::PERM => Err(ReplaceError::Owner {
                uid: self.stat.st_uid,
                gid: self.stat.st_gid,
            }),
            Err(errno) => Err(io::Error::from(errno).into()),
        }
    }
}

/// Without `openat`: the file is read by its path, and replaced by it.
#[cfg(not(unix))]
#[derive(Debug)]
pub struct Rewritable {
    path: PathBuf,
}

#[cfg(not(unix))]
impl Rewritable {
    pub fn open_beneath(
        _root: &Path,
        path: &Path,
        limit: u64,
    ) -> Result<(Self, Vec<u8>), ReadError> {
        let bytes = read_regular_file(path, limit)?;
        Ok((
            Self {
                path: path.to_owned(),
            },
            bytes,
        ))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn replace(&self, bytes: &[u8], _options: ReplaceOptions) -> Result<(), ReplaceError> {
        let permissions = fs::metadata(&self.path)?.permissions();
        Ok(write_atomic_with_permissions(
            &self.path,
            bytes,
            Some(permissions),
        )?)
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
    let file = open_nonblocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(ReadError::NotRegular);
    }
    read_limited(file, metadata.len(), limit)
}

/// Reads `file` (of `size` bytes when it was looked at) to its end,
/// refusing it when it holds more than `limit` bytes, before or while it is
/// read.
fn read_limited(file: impl io::Read, size: u64, limit: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    if size > limit {
        return Err(ReadError::TooLarge(size));
    }
    let capacity = usize::try_from(size).unwrap_or(0);
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

/// Opens `path` for reading without blocking on a FIFO or a device that
/// waits for a writer; the caller then checks what it opened.
#[cfg(unix)]
pub fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
pub fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Why [`read_within`] stopped short of the end of its input.
#[derive(Debug)]
pub enum BoundedReadError {
    /// More than the cap arrived; nothing past the cap + 1 was read.
    TooLarge,
    /// The input was still open, and not finished, when the deadline came.
    TimedOut,
    Io(io::Error),
}

impl std::fmt::Display for BoundedReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLarge => f.write_str("over the size cap"),
            Self::TimedOut => f.write_str("not finished by the deadline"),
            Self::Io(err) => err.fmt(f),
        }
    }
}

/// Reads `input` (stdin, a pipe) to its end: at most `cap` bytes, and
/// within `deadline` of the call when one is given. A writer that keeps
/// the pipe open and never writes (or never closes it) is a hang, not an
/// error, to a plain read; here it ends at the deadline, whatever the
/// input is (a pipe, a terminal, a FIFO; a regular file is always ready).
#[cfg(unix)]
pub fn read_within(
    input: impl std::os::fd::AsFd,
    cap: usize,
    deadline: Option<std::time::Duration>,
) -> Result<Vec<u8>, BoundedReadError> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use rustix::io::Errno;
    let until = deadline.map(|deadline| std::time::Instant::now() + deadline);
    let mut bytes = Vec::new();
    let mut buffer = [0_u8; 16 * 1024];
    loop {
        if let Some(until) = until {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(BoundedReadError::TimedOut);
            }
            let timeout = Timespec::try_from(left).map_err(|_| BoundedReadError::TimedOut)?;
            let mut fds = [PollFd::new(&input, PollFlags::IN)];
            match poll(&mut fds, Some(&timeout)) {
                Ok(0) => return Err(BoundedReadError::TimedOut),
                Ok(_) => {}
                Err(Errno::INTR) => continue,
                Err(err) => return Err(BoundedReadError::Io(err.into())),
            }
        }
        // One byte past the cap tells "over it" from "exactly at it".
        let room = (cap + 1 - bytes.len()).min(buffer.len());
        match rustix::io::read(&input, &mut buffer[..room]) {
            Ok(0) => return Ok(bytes),
            Ok(read) => {
                bytes.extend_from_slice(&buffer[..read]);
                if bytes.len() > cap {
                    return Err(BoundedReadError::TooLarge);
                }
            }
            Err(Errno::INTR | Errno::AGAIN) => {}
            Err(err) => return Err(BoundedReadError::Io(err.into())),
        }
    }
}

/// Without poll(2), no deadline: the size cap only.
#[cfg(not(unix))]
pub fn read_within(
    mut input: impl io::Read,
    cap: usize,
    _deadline: Option<std::time::Duration>,
) -> Result<Vec<u8>, BoundedReadError> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut io::Read::take(&mut input, cap as u64 + 1), &mut bytes)
        .map_err(BoundedReadError::Io)?;
    if bytes.len() > cap {
        return Err(BoundedReadError::TooLarge);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    type Hook = Box<dyn Fn(&Path)>;

    thread_local! {
        /// What a test does between the write of the temporary file and
        /// the check before the rename: the window a race would use.
        static BEFORE_RENAME: RefCell<Option<Hook>> = RefCell::new(None);
    }

    pub(super) fn before_rename(path: &Path) {
        BEFORE_RENAME.with(|hook| {
            if let Some(hook) = hook.borrow().as_ref() {
                hook(path);
            }
        });
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[cfg(unix)]
    fn open(dir: &Path, name: &str) -> (Rewritable, Vec<u8>) {
        let root = fs::canonicalize(dir).unwrap();
        Rewritable::open_beneath(&root, &root.join(name), 1024).unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn a_file_swapped_for_a_symlink_before_the_rename_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        fs::write(&secret, "outside\n").unwrap();
        let file = dir.path().join("SKILL.md");
        fs::write(&file, "inside\n").unwrap();
        let (opened, bytes) = open(dir.path(), "SKILL.md");
        assert_eq!(bytes, b"inside\n");
        let swap_to = secret.clone();
        BEFORE_RENAME.with(|hook| {
            *hook.borrow_mut() = Some(Box::new(move |path: &Path| {
                fs::remove_file(path).unwrap();
                std::os::unix::fs::symlink(&swap_to, path).unwrap();
            }));
        });
        let result = opened.replace(b"rewritten\n", ReplaceOptions::default());
        BEFORE_RENAME.with(|hook| *hook.borrow_mut() = None);
        assert!(matches!(result, Err(ReplaceError::Changed)), "{result:?}");
        assert!(result.unwrap_err().to_string().contains("changed while"));
        assert_eq!(fs::read_to_string(&secret).unwrap(), "outside\n");
        assert!(
            fs::symlink_metadata(&file)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_replaced_by_another_before_the_rename_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("SKILL.md");
        fs::write(&file, "first\n").unwrap();
        let (opened, _) = open(dir.path(), "SKILL.md");
        // Another writer replaced it (an editor's atomic save).
        write_atomic(&file, b"someone else's\n").unwrap();
        let result = opened.replace(b"stale rewrite\n", ReplaceOptions::default());
        assert!(matches!(result, Err(ReplaceError::Changed)), "{result:?}");
        assert_eq!(fs::read_to_string(&file).unwrap(), "someone else's\n");
        fs::remove_file(&file).unwrap();
        let result = opened.replace(b"stale rewrite\n", ReplaceOptions::default());
        assert!(matches!(result, Err(ReplaceError::Changed)), "{result:?}");
        assert!(!file.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_not_opened_and_a_directory_on_the_way_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("SKILL.md"), "outside").unwrap();
        std::os::unix::fs::symlink(outside.path().join("SKILL.md"), dir.path().join("SKILL.md"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("skill")).unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        for name in ["SKILL.md", "skill/SKILL.md"] {
            let result = Rewritable::open_beneath(&root, &root.join(name), 1024);
            assert!(result.is_err(), "{name} was opened through a symlink");
        }
        let outer = Rewritable::open_beneath(&root, &root.join("../x"), 1024);
        assert!(outer.is_err());
    }

    #[cfg(unix)]
    #[test]
    fn the_temporary_file_is_never_wider_than_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("SKILL.md");
        fs::write(&file, "old").unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        }
        let (opened, _) = open(dir.path(), "SKILL.md");
        let seen = std::rc::Rc::new(RefCell::new(Vec::new()));
        let record = std::rc::Rc::clone(&seen);
        let watched = dir.path().to_owned();
        BEFORE_RENAME.with(|hook| {
            *hook.borrow_mut() = Some(Box::new(move |_: &Path| {
                for entry in fs::read_dir(&watched).unwrap() {
                    let path = entry.unwrap().path();
                    record.borrow_mut().push(mode(&path));
                }
            }));
        });
        let result = opened.replace(b"new", ReplaceOptions::default());
        BEFORE_RENAME.with(|hook| *hook.borrow_mut() = None);
        result.unwrap();
        assert_eq!(
            *seen.borrow(),
            vec![0o600, 0o600],
            "the original and the temporary"
        );
        assert_eq!(mode(&file), 0o600);
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_with_hard_links_is_refused_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("SKILL.md");
        let other = dir.path().join("other");
        fs::write(&file, "old").unwrap();
        fs::hard_link(&file, &other).unwrap();
        let (opened, _) = open(dir.path(), "SKILL.md");
        let result = opened.replace(b"new", ReplaceOptions::default());
        assert!(
            matches!(result, Err(ReplaceError::HardLinks(2))),
            "{result:?}"
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "old");
        opened
            .replace(b"new", ReplaceOptions { force: true })
            .unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
        assert_eq!(fs::read_to_string(&other).unwrap(), "old");
    }

    /// Run as root, the owner of another user's file is kept. (The refusal
    /// a process that may not chown meets is tested through the binary, in
    /// tests/it/hardening.rs, run as another user.)
    #[cfg(unix)]
    #[test]
    fn the_owner_and_group_are_kept_or_the_rewrite_is_refused() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("SKILL.md");
        fs::write(&file, "old").unwrap();
        let root = rustix::process::geteuid().is_root();
        if root {
            rustix::fs::chown(
                &file,
                Some(rustix::fs::Uid::from_raw(4242)),
                Some(rustix::fs::Gid::from_raw(4343)),
            )
            .unwrap();
        }
        let before = fs::metadata(&file).unwrap();
        let (opened, _) = open(dir.path(), "SKILL.md");
        opened.replace(b"new", ReplaceOptions::default()).unwrap();
        let after = fs::metadata(&file).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
        assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
        if root {
            assert_eq!((after.uid(), after.gid()), (4242, 4343));
        }
    }

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

    #[cfg(unix)]
    #[test]
    fn a_bounded_read_ends_at_eof_at_the_cap_or_at_the_deadline() {
        use std::time::{Duration, Instant};
        let deadline = Some(Duration::from_millis(200));
        // Written and closed: read whole.
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        rustix::io::write(&writer, b"spec").unwrap();
        drop(writer);
        assert_eq!(read_within(&reader, 4, deadline).unwrap(), b"spec");
        // One byte over the cap.
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        rustix::io::write(&writer, b"specs").unwrap();
        drop(writer);
        assert!(matches!(
            read_within(&reader, 4, deadline),
            Err(BoundedReadError::TooLarge)
        ));
        // Held open with part of a payload, never finished: the deadline.
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        rustix::io::write(&writer, b"sp").unwrap();
        let started = Instant::now();
        assert!(matches!(
            read_within(&reader, 4, deadline),
            Err(BoundedReadError::TimedOut)
        ));
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_millis(200) && waited < Duration::from_secs(5),
            "{waited:?}"
        );
        drop(writer);
    }
}
