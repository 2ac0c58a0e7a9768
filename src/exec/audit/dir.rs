//! The log's directory, held open so that every file of the log (the log,
//! its lock file, its rotated files) is opened relative to the same
//! directory, never through a symlink, and checked once open.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// How a file of the log is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The log itself: created if missing, appended to, read for its tail.
    Append,
    /// The lock file: created if missing.
    Lock,
    /// Reading only (`audit show`, `audit verify`, a rotated file's tail).
    Read,
}

/// A file's identity: device and inode.
pub type Identity = (u64, u64);

/// The identity in a file's metadata.
#[cfg(unix)]
pub fn identity_of(metadata: &std::fs::Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

#[cfg(unix)]
#[derive(Debug)]
pub struct Dir {
    fd: std::os::fd::OwnedFd,
    path: PathBuf,
}

#[cfg(unix)]
impl Dir {
    /// Opens `path`, which must not itself be a symlink; with `create`,
    /// makes it (mode 0700) and any missing parents first.
    pub fn open(path: &Path, create: bool) -> io::Result<Self> {
        let fd = open_dir(path, create, false)?;
        Ok(Self {
            fd,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens the file `name` in this directory, without following a
    /// symlink and without blocking on a FIFO, then checks what was
    /// opened: a regular file; for writing also one link only and our own
    /// (a file of another user is neither written nor chmod-ed), with its
    /// mode tightened to 0600.
    pub fn open_file(&self, name: &OsStr, access: Access) -> io::Result<File> {
        use rustix::fs::{Mode, OFlags};
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let mut flags = OFlags::CLOEXEC | OFlags::NOFOLLOW | OFlags::NONBLOCK;
        flags |= match access {
            Access::Append => OFlags::RDWR | OFlags::APPEND | OFlags::CREATE,
            Access::Lock => OFlags::RDWR | OFlags::CREATE,
            Access::Read => OFlags::RDONLY,
        };
        let shown = || self.path.join(name).display().to_string();
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o600)).map_err(
            |errno| match errno {
                rustix::io::Errno::NXIO => {
                    io::Error::other(format!("{} is not a regular file (a FIFO)", shown()))
                }
                rustix::io::Errno::LOOP => {
                    io::Error::other(format!("{} is a symlink; refusing to follow it", shown()))
                }
                other => io::Error::from(other),
            },
        )?;
        let file = File::from(fd);
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(io::Error::other(format!(
                "{} is not a regular file",
                shown()
            )));
        }
        if access != Access::Read {
            if metadata.nlink() > 1 {
                return Err(io::Error::other(format!(
                    "{} has {} hard links; refusing to write to a file that is also reachable under another name",
                    shown(),
                    metadata.nlink()
                )));
            }
            let own = rustix::process::geteuid().as_raw();
            if metadata.uid() != own {
                return Err(io::Error::other(format!(
                    "{} belongs to uid {}, not to this user (uid {own}); refusing to write to it",
                    shown(),
                    metadata.uid()
                )));
            }
            if metadata.permissions().mode() & 0o077 != 0 {
                file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            }
        }
        let status = rustix::fs::fcntl_getfl(&file)?;
        rustix::fs::fcntl_setfl(&file, status - OFlags::NONBLOCK)?;
        Ok(file)
    }

    /// Whether its path still names this directory: it was not moved,
    /// removed or replaced since it was opened.
    pub fn still_at_path(&self) -> bool {
        let (Ok(named), Ok(held)) = (rustix::fs::lstat(&self.path), rustix::fs::fstat(&self.fd))
        else {
            return false;
        };
        (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)
    }

    /// The identity of the entry `name`, if there is one (a symlink's own).
    pub fn identity(&self, name: &OsStr) -> io::Result<Option<Identity>> {
        match rustix::fs::statat(&self.fd, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW) {
            #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
            Ok(stat) => Ok(Some((stat.st_dev as u64, stat.st_ino as u64))),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(errno) => Err(errno.into()),
        }
    }

    /// Renames `from` to `to`, unless `to` exists (`AlreadyExists`).
    pub fn rename_noreplace(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
        {
            rustix::fs::renameat_with(
                &self.fd,
                from,
                &self.fd,
                to,
                rustix::fs::RenameFlags::NOREPLACE,
            )
            .map_err(io::Error::from)
        }
        #[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
        {
            // Callers hold the log's lock, so only a writer that ignores it
            // could race this check.
            if self.identity(to)?.is_some() {
                return Err(io::ErrorKind::AlreadyExists.into());
            }
            rustix::fs::renameat(&self.fd, from, &self.fd, to).map_err(io::Error::from)
        }
    }

    /// The names in the directory.
    pub fn names(&self) -> io::Result<Vec<OsString>> {
        use std::os::unix::ffi::OsStrExt;
        let mut names = Vec::new();
        for entry in rustix::fs::Dir::read_from(&self.fd)? {
            let entry = entry?;
            names.push(OsStr::from_bytes(entry.file_name().to_bytes()).to_os_string());
        }
        Ok(names)
    }

    /// Makes a rename or a new file in the directory durable.
    pub fn sync(&self) -> io::Result<()> {
        match rustix::fs::fsync(&self.fd) {
            // Some file systems cannot sync a directory; the data is synced.
            Ok(()) | Err(rustix::io::Errno::INVAL) => Ok(()),
            Err(errno) => Err(errno.into()),
        }
    }
}

/// Opens a directory; `follow` for the ancestors above the log's own
/// directory, which may be symlinks (`/var` on macOS, a symlinked home).
#[cfg(unix)]
fn open_dir(path: &Path, create: bool, follow: bool) -> io::Result<std::os::fd::OwnedFd> {
    use rustix::fs::{CWD, Mode, OFlags};
    let mut flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    let refused = || {
        io::Error::other(format!(
            "the audit log's directory {} is a symlink; refusing to follow it",
            path.display()
        ))
    };
    match rustix::fs::openat(CWD, path, flags, Mode::empty()) {
        Ok(fd) => return Ok(fd),
        Err(rustix::io::Errno::NOENT) if create => {}
        Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR)
            if !follow && path.is_symlink() =>
        {
            return Err(refused());
        }
        Err(errno) => {
            return Err(io::Error::new(
                io::Error::from(errno).kind(),
                format!("cannot open the directory {}: {errno}", path.display()),
            ));
        }
    }
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("cannot create {}", path.display())))?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let parent_fd = open_dir(parent, true, true)?;
    match rustix::fs::mkdirat(&parent_fd, name, Mode::from_raw_mode(0o700)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(errno) => return Err(errno.into()),
    }
    rustix::fs::openat(&parent_fd, name, flags | OFlags::NOFOLLOW, Mode::empty()).map_err(|errno| {
        match errno {
            rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => refused(),
            other => other.into(),
        }
    })
}

#[cfg(not(unix))]
pub fn identity_of(_metadata: &std::fs::Metadata) -> Identity {
    (0, 0)
}

/// Without `openat`, a plain path-based stand-in.
#[cfg(not(unix))]
#[derive(Debug)]
pub struct Dir {
    path: PathBuf,
}

#[cfg(not(unix))]
impl Dir {
    pub fn open(path: &Path, create: bool) -> io::Result<Self> {
        if create {
            std::fs::create_dir_all(path)?;
        }
        if !path.is_dir() {
            return Err(io::ErrorKind::NotFound.into());
        }
        Ok(Self {
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn open_file(&self, name: &OsStr, access: Access) -> io::Result<File> {
        let mut options = std::fs::OpenOptions::new();
        match access {
            Access::Append => options.read(true).append(true).create(true),
            Access::Lock => options.read(true).write(true).create(true),
            Access::Read => options.read(true),
        };
        options.open(self.path.join(name))
    }

    /// Without a held directory, nothing tells.
    pub fn still_at_path(&self) -> bool {
        self.path.is_dir()
    }

    /// No identities here: the log is reopened for every append.
    pub fn identity(&self, _name: &OsStr) -> io::Result<Option<Identity>> {
        Ok(None)
    }

    pub fn rename_noreplace(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        if self.path.join(to).exists() {
            return Err(io::ErrorKind::AlreadyExists.into());
        }
        std::fs::rename(self.path.join(from), self.path.join(to))
    }

    pub fn names(&self) -> io::Result<Vec<OsString>> {
        std::fs::read_dir(&self.path)?
            .map(|entry| entry.map(|entry| entry.file_name()))
            .collect()
    }

    pub fn sync(&self) -> io::Result<()> {
        Ok(())
    }
}
