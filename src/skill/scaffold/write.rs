//! Writing a planned skill: where it goes, whether anything is in the
//! way, and creating it so that nothing is overwritten and no failure
//! leaves anything behind.

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::plan::{PlannedFile, plan_files};
use super::{Answers, ScaffoldError, ScaffoldErrorKind, answer_problems, io_error};
use crate::fsutil::temporary_sibling;
use crate::skill::check::directory_name;
use crate::skill::discover::skill_file_in;

/// Where a new skill goes: `directory` when given, else `./NAME`.
pub fn skill_directory(directory: Option<&Path>, name: &str) -> PathBuf {
    match directory {
        Some(directory) => without_steps_back_into_nothing(directory),
        None => PathBuf::from(name.trim()),
    }
}

/// `x/../y` is `y` when `x` does not exist. The system resolves `x/..`
/// only through an existing `x`, and making `x` just to step back out of
/// it would leave an empty `x/` behind. A component that does not exist
/// cannot be a symbolic link, so dropping it with the `..` that follows
/// is exact; `..` after existing components is left to the system.
fn without_steps_back_into_nothing(path: &Path) -> PathBuf {
    let mut settled = PathBuf::new();
    // How many components at the end of `settled` do not exist.
    let mut missing = 0;
    for component in path.components() {
        if component == std::path::Component::ParentDir && missing > 0 {
            settled.pop();
            missing -= 1;
            continue;
        }
        settled.push(component);
        if missing > 0 || fs::symlink_metadata(&settled).is_err() {
            missing += 1;
        }
    }
    if settled.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        settled
    }
}

/// The name a skill in `directory` must have: the directory's last
/// component (for `.`, the current directory's).
pub fn name_for_directory(directory: &Path) -> Result<String, ScaffoldError> {
    directory_name(directory).ok_or_else(|| ScaffoldError::NoName {
        path: directory.to_owned(),
    })
}

/// What is at the target now, when a skill may be created there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetState {
    /// Nothing: the directory will be created.
    Absent,
    /// An empty directory: it will be filled.
    EmptyDirectory,
}

/// Whether a skill may be created at `directory`: it must not exist, or be
/// an empty directory. Checked again when writing; callers use this to fail
/// before asking any question.
pub fn check_target(directory: &Path) -> Result<TargetState, ScaffoldError> {
    // `x/` would name the link's target, `x` the link itself.
    let named: PathBuf = directory.components().collect();
    match fs::symlink_metadata(&named) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(TargetState::Absent),
        Err(err) => return Err(io_error(directory)(err)),
        Ok(metadata) if metadata.file_type().is_symlink() => check_link_stays_inside(&named)?,
        Ok(_) => {}
    }
    // Follows a symlink: a link to an empty directory in the same tree may
    // be filled.
    let is_directory = fs::metadata(directory).is_ok_and(|metadata| metadata.is_dir());
    if !is_directory {
        return Err(ScaffoldError::NotADirectory {
            path: directory.to_owned(),
        });
    }
    if let Some(file) = skill_file_in(directory).map_err(io_error(directory))? {
        return Err(ScaffoldError::SkillExists {
            directory: directory.to_owned(),
            file,
        });
    }
    let mut entries = fs::read_dir(directory).map_err(io_error(directory))?;
    if entries.next().is_some() {
        return Err(ScaffoldError::NotEmpty {
            directory: directory.to_owned(),
        });
    }
    Ok(TargetState::EmptyDirectory)
}

/// A symlink given as the skill directory is followed only when its
/// target lies inside the directory holding the link: a checked-out
/// `skills/x -> /home/me/.ssh` must not turn `skill new skills/x` into a
/// write elsewhere. A dangling link is left to the caller's checks.
fn check_link_stays_inside(link: &Path) -> Result<(), ScaffoldError> {
    let parent = match link.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let (Ok(tree), Ok(target)) = (fs::canonicalize(parent), fs::canonicalize(link)) else {
        return Ok(());
    };
    if target.starts_with(&tree) {
        return Ok(());
    }
    Err(ScaffoldError::OutsideTree {
        path: link.to_owned(),
        target,
        tree,
    })
}

/// What [`create_skill`] made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Created {
    /// The skill directory, as given.
    #[serde(serialize_with = "crate::skill::paths::lossy_path")]
    pub directory: PathBuf,
    pub name: String,
    /// Relative to the directory, in creation order (`SKILL.md` first).
    #[serde(serialize_with = "crate::skill::paths::lossy_paths")]
    pub files: Vec<PathBuf>,
}

/// Creates the skill the answers describe in `directory`, which must not
/// exist or be an empty directory (missing parents are created).
///
/// Nothing is ever overwritten, and no failure leaves anything behind:
/// - a new directory is built as a temporary sibling and renamed into place
///   in one step;
/// - an existing empty directory (perhaps a mount point, or the current
///   directory) is kept, and the files are built in a temporary directory
///   inside it and moved in, `SKILL.md` last, each move refusing to replace
///   anything;
/// - on any failure, or when `interrupted()` turns true between two steps,
///   what was made is removed and parents created for it too.
pub fn create_skill(
    directory: &Path,
    answers: &Answers,
    interrupted: &dyn Fn() -> bool,
) -> Result<Created, ScaffoldError> {
    let directory_name = name_for_directory(directory)?;
    let problems = answer_problems(answers, Some(&directory_name));
    if !problems.is_empty() {
        return Err(ScaffoldError::Invalid { problems });
    }
    let files = plan_files(answers)?;
    match check_target(directory)? {
        TargetState::Absent => create_new_directory(directory, &files, interrupted)?,
        TargetState::EmptyDirectory => fill_empty_directory(directory, &files, interrupted)?,
    }
    Ok(Created {
        directory: directory.to_owned(),
        name: answers.name.trim().to_owned(),
        files: files.into_iter().map(|file| file.path).collect(),
    })
}

fn stop_if(interrupted: &dyn Fn() -> bool) -> Result<(), ScaffoldError> {
    if interrupted() {
        Err(ScaffoldError::Interrupted)
    } else {
        Ok(())
    }
}

fn create_new_directory(
    directory: &Path,
    files: &[PlannedFile],
    interrupted: &dyn Fn() -> bool,
) -> Result<(), ScaffoldError> {
    let parent = match directory.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let made_parents = create_parents(parent)?;
    let temporary = temporary_sibling(directory);
    let result = (|| {
        fs::create_dir(&temporary).map_err(io_error(&temporary))?;
        write_files(&temporary, files, interrupted)?;
        stop_if(interrupted)?;
        // A directory that appeared meanwhile is a conflict, not a target.
        if fs::symlink_metadata(directory).is_ok() {
            check_target(directory)?;
        }
        fs::rename(&temporary, directory).map_err(|err| match check_target(directory) {
            Err(conflict) if conflict.kind() == ScaffoldErrorKind::Conflict => conflict,
            _ => io_error(directory)(err),
        })
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&temporary);
        for made in made_parents.iter().rev() {
            // Only while empty: something else may have moved in meanwhile.
            let _ = fs::remove_dir(made);
        }
    }
    result
}

/// Creates the missing ancestors of `parent`, returning those it made,
/// outermost first.
fn create_parents(parent: &Path) -> Result<Vec<PathBuf>, ScaffoldError> {
    let mut missing = Vec::new();
    let mut cursor = Some(parent);
    while let Some(path) = cursor {
        if path.as_os_str().is_empty() || fs::symlink_metadata(path).is_ok() {
            break;
        }
        missing.push(path.to_owned());
        cursor = path.parent();
    }
    missing.reverse();
    let mut made = Vec::new();
    for path in missing {
        match fs::create_dir(&path) {
            Ok(()) => made.push(path),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
            Err(err) => {
                for undo in made.iter().rev() {
                    let _ = fs::remove_dir(undo);
                }
                return Err(io_error(&path)(err));
            }
        }
    }
    Ok(made)
}

fn fill_empty_directory(
    directory: &Path,
    files: &[PlannedFile],
    interrupted: &dyn Fn() -> bool,
) -> Result<(), ScaffoldError> {
    // Inside the target, so the moves never cross a file system boundary.
    let temporary = temporary_sibling(&directory.join("new-skill"));
    let mut moved: Vec<PathBuf> = Vec::new();
    let result = (|| {
        fs::create_dir(&temporary).map_err(io_error(&temporary))?;
        write_files(&temporary, files, interrupted)?;
        let mut tops: Vec<PathBuf> = files
            .iter()
            .filter_map(|file| file.path.components().next())
            .map(|component| PathBuf::from(component.as_os_str()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // SKILL.md last: until it is there, the directory is not a skill.
        tops.sort_by_key(|top| top == Path::new("SKILL.md"));
        for top in tops {
            stop_if(interrupted)?;
            let destination = directory.join(&top);
            if fs::symlink_metadata(&destination).is_ok() {
                return Err(ScaffoldError::NotEmpty {
                    directory: directory.to_owned(),
                });
            }
            let source = temporary.join(&top);
            if source.is_dir() {
                // A directory rename fails on a non-empty target; what can
                // appear between the check and here is at most an empty one.
                fs::rename(&source, &destination).map_err(io_error(&destination))?;
            } else {
                // A file could be replaced in that window: persist_noclobber
                // refuses atomically (renameat2 NOREPLACE, or link+unlink).
                tempfile::TempPath::try_from_path(&source)
                    .map_err(io_error(&source))?
                    .persist_noclobber(&destination)
                    .map_err(|err| {
                        if err.error.kind() == io::ErrorKind::AlreadyExists {
                            ScaffoldError::NotEmpty {
                                directory: directory.to_owned(),
                            }
                        } else {
                            io_error(&destination)(err.error)
                        }
                    })?;
            }
            moved.push(destination);
        }
        fs::remove_dir(&temporary).map_err(io_error(&temporary))
    })();
    if result.is_err() {
        for path in moved.iter().rev() {
            let _ = if path.is_dir() {
                fs::remove_dir_all(path)
            } else {
                fs::remove_file(path)
            };
        }
        let _ = fs::remove_dir_all(&temporary);
    }
    result
}

fn write_files(
    root: &Path,
    files: &[PlannedFile],
    interrupted: &dyn Fn() -> bool,
) -> Result<(), ScaffoldError> {
    for file in files {
        stop_if(interrupted)?;
        let path = root.join(&file.path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        let mut handle = new_file(&path, file.executable).map_err(io_error(&path))?;
        handle
            .write_all(file.contents.as_bytes())
            .and_then(|()| handle.sync_all())
            .map_err(io_error(&path))?;
    }
    Ok(())
}

#[cfg(unix)]
fn new_file(path: &Path, executable: bool) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(if executable { 0o777 } else { 0o666 })
        .open(path)
}

#[cfg(not(unix))]
fn new_file(path: &Path, _executable: bool) -> io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}
