//! Writing imported declarations into a registry directory.
//!
//! Every target is checked before anything is written, so a refusal leaves
//! the directory as it was:
//! - a declaration of the same name already there (`NAME.json`,
//!   `NAME.yaml` or `NAME.yml`) is refused unless `force`; with `force`
//!   only a regular `NAME.json` is replaced, and a `NAME.yaml`/`.yml` is
//!   still refused (two files would declare one name);
//! - a symlink or anything but a regular file in a target's place is
//!   refused, `force` or not: aigent never writes through a link.
//!
//! A missing directory is created (with its parents) once the checks pass.
//!
//! Each file is written to a temporary sibling and renamed into place
//! ([`crate::fsutil`]); a new file takes its place only if the name is
//! still free then (rename without replace).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Imported;
use crate::fsutil::{rename_no_replace, temporary_sibling, write_atomic};

/// Why nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{0} is not a directory")]
    NotADirectory(PathBuf),
    #[error("{} already declares `{name}`; pass --force to replace it", path.display())]
    Exists { name: String, path: PathBuf },
    #[error(
        "{} already declares `{name}` in another format; remove it first (a NAME.json beside it would declare the name twice)",
        path.display()
    )]
    OtherFormat { name: String, path: PathBuf },
    #[error("{} is a symlink or not a regular file; aigent does not write through it", path.display())]
    Unsafe { path: PathBuf },
    #[error("cannot write {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// One file written.
#[derive(Debug, Clone, Serialize)]
pub struct Written {
    pub name: String,
    pub path: String,
    /// It replaced a file of the same name (`--force`).
    pub replaced: bool,
}

enum Target {
    Free,
    Replace,
}

fn check(directory: &Path, imported: &Imported, force: bool) -> Result<Target, WriteError> {
    let mut target = Target::Free;
    for extension in ["json", "yaml", "yml"] {
        let path = directory.join(format!("{}.{extension}", imported.name));
        let metadata = match fs::symlink_metadata(&path) {
            Ok(metadata) => metadata,
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            Err(source) => return Err(WriteError::Io { path, source }),
        };
        if !metadata.file_type().is_file() {
            return Err(WriteError::Unsafe { path });
        }
        if !force {
            return Err(WriteError::Exists {
                name: imported.name.clone(),
                path,
            });
        }
        if extension != "json" {
            return Err(WriteError::OtherFormat {
                name: imported.name.clone(),
                path,
            });
        }
        target = Target::Replace;
    }
    Ok(target)
}

/// Writes each declaration as `NAME.json` in `directory`, or nothing.
pub fn write(
    directory: &Path,
    declarations: &[Imported],
    force: bool,
) -> Result<Vec<Written>, WriteError> {
    let missing = match fs::metadata(directory) {
        Ok(metadata) if metadata.is_dir() => false,
        Ok(_) => return Err(WriteError::NotADirectory(directory.to_owned())),
        Err(err) if err.kind() == io::ErrorKind::NotFound => true,
        Err(source) => {
            return Err(WriteError::Io {
                path: directory.to_owned(),
                source,
            });
        }
    };
    let mut plans = Vec::new();
    for imported in declarations {
        plans.push(check(directory, imported, force)?);
    }
    // Made only once every target passed its check, as `cargo new` makes
    // its directory: a refusal still leaves the disk as it was.
    if missing && !declarations.is_empty() {
        fs::create_dir_all(directory).map_err(|source| WriteError::Io {
            path: directory.to_owned(),
            source,
        })?;
    }
    let mut written = Vec::new();
    for (imported, plan) in declarations.iter().zip(plans) {
        let path = directory.join(&imported.file_name);
        let mut text =
            serde_json::to_string_pretty(&imported.declaration).map_err(|err| WriteError::Io {
                path: path.clone(),
                source: io::Error::other(err),
            })?;
        text.push('\n');
        let replaced = matches!(plan, Target::Replace);
        if replaced {
            // Checked above as a regular file; a rename replaces the name
            // itself, never what a link there would point at.
            write_atomic(&path, text.as_bytes())
        } else {
            create(&path, text.as_bytes())
        }
        .map_err(|source| match source.kind() {
            io::ErrorKind::AlreadyExists => WriteError::Exists {
                name: imported.name.clone(),
                path: path.clone(),
            },
            _ => WriteError::Io {
                path: path.clone(),
                source,
            },
        })?;
        written.push(Written {
            name: imported.name.clone(),
            path: path.display().to_string(),
            replaced,
        });
    }
    Ok(written)
}

/// A new file at `path`, complete or not at all, only if the name is free.
fn create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    let temporary = temporary_sibling(path);
    let result = (|| {
        let mut file = fs::File::create_new(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        rename_no_replace(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn imported(name: &str) -> Imported {
        Imported {
            name: name.to_owned(),
            file_name: format!("{name}.json"),
            command: name.to_owned(),
            declaration: json!({"name": name}),
            lint: Vec::new(),
            unmapped: Vec::new(),
        }
    }

    #[test]
    fn never_overwrites_without_force_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), &[imported("a")], false).unwrap();
        assert!(!first[0].replaced);
        // Exists: refused, and the other file is not written either.
        let err = write(dir.path(), &[imported("b"), imported("a")], false).unwrap_err();
        assert!(matches!(err, WriteError::Exists { .. }), "{err}");
        assert!(!dir.path().join("b.json").exists());
        assert!(write(dir.path(), &[imported("a")], true).unwrap()[0].replaced);
        fs::write(dir.path().join("c.yaml"), "name: c\n").unwrap();
        assert!(matches!(
            write(dir.path(), &[imported("c")], true).unwrap_err(),
            WriteError::OtherFormat { .. }
        ));
        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            let target = outside.path().join("x.json");
            fs::write(&target, "{}").unwrap();
            std::os::unix::fs::symlink(&target, dir.path().join("d.json")).unwrap();
            assert!(matches!(
                write(dir.path(), &[imported("d")], true).unwrap_err(),
                WriteError::Unsafe { .. }
            ));
            assert_eq!(fs::read_to_string(&target).unwrap(), "{}");
        }
        let leftovers: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| !name.ends_with(".json") && !name.ends_with(".yaml"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn a_missing_directory_is_made_only_when_something_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("commands/imported");
        assert!(write(&target, &[], false).unwrap().is_empty());
        assert!(!target.exists(), "nothing to write, nothing made");
        let written = write(&target, &[imported("a")], false).unwrap();
        assert_eq!(written.len(), 1);
        assert!(target.join("a.json").is_file());
        let file = dir.path().join("file");
        fs::write(&file, "").unwrap();
        assert!(matches!(
            write(&file, &[imported("a")], false).unwrap_err(),
            WriteError::NotADirectory(_)
        ));
        #[cfg(unix)]
        {
            let dangling = dir.path().join("dangling");
            std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
            assert!(write(&dangling, &[imported("a")], false).is_err());
            assert!(
                !dir.path().join("nowhere").exists(),
                "no directory made through a link"
            );
        }
    }
}
