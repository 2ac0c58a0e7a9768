//! The file work around an edit: finding the settings file, refusing one it
//! is not safe to write, keeping a backup, and replacing it atomically.
//!
//! - **Project scope stays in the project.** A settings file (or a
//!   directory on its way, `.claude/` say) that is a symlink to somewhere
//!   outside the project root is reported and left alone, so that a cloned
//!   repository cannot point `install` at `~/.bashrc`. A symlink that stays
//!   inside is followed: its target is edited and the link kept.
//! - **User scope follows symlinks** (a dotfiles manager links
//!   `~/.claude/settings.json` into its repository) and edits the target.
//! - **A hard-linked file is refused** unless forced: replacing it breaks
//!   the link, and the other name keeps the old content.
//! - **Nothing is half written.** The new content goes to a temporary file
//!   in the same directory, with the old file's permissions, and is renamed
//!   over it. The old content is copied first to a backup beside it. If the
//!   file changed while aigent was working, nothing is written.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use super::{Action, Client, Edit, EditError, Homes, Scope, plan_install, plan_uninstall};
use crate::fsutil::{self, ReadError};

/// Settings files larger than this are refused (real ones are a few KB).
pub const MAX_SETTINGS_BYTES: u64 = 4 * 1024 * 1024;

/// What to install or uninstall, and where.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub client: Client,
    pub scope: Scope,
    /// The project root, for project scope.
    pub project: &'a Path,
    pub homes: &'a Homes,
    /// Write a hard-linked file anyway (breaking the link).
    pub force: bool,
    /// Show the change, write nothing.
    pub dry_run: bool,
    /// The time that names the backup.
    pub now: SystemTime,
}

/// What install or uninstall did (or, for a dry run, would do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub client: Client,
    pub scope: Scope,
    /// The settings file, as the client names it.
    pub file: PathBuf,
    /// Where its content lives, when a symlink leads elsewhere.
    pub target: PathBuf,
    pub action: Action,
    /// The copy of the old content, when the file was changed.
    pub backup: Option<PathBuf>,
    /// The change as a unified diff (empty when nothing changes), its
    /// headers relative to the project root, or to the home directory for
    /// user scope.
    pub diff: String,
    pub dry_run: bool,
    pub warnings: Vec<String>,
    /// For a replaced entry, the command it ran before.
    pub replaced: Option<String>,
}

/// Why nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("{}:{}", path.display(), source)]
    Edit { path: PathBuf, source: EditError },
    #[error("the project directory {} does not exist or is not a directory", path.display())]
    NoProject { path: PathBuf },
    #[error(
        "{} is a symlink to {}, outside the project {}; aigent does not write outside the project",
        path.display(),
        target.display(),
        project.display()
    )]
    OutsideProject {
        path: PathBuf,
        target: PathBuf,
        project: PathBuf,
    },
    #[error("{} is a symlink that leads nowhere", path.display())]
    DanglingSymlink { path: PathBuf },
    #[error("{} has {links} names (hard links); replacing it would leave the others with the old content", path.display())]
    HardLinked { path: PathBuf, links: u64 },
    #[error("{} is not a regular file", path.display())]
    NotRegular { path: PathBuf },
    #[error("{} is {size} bytes, more than a settings file should be", path.display())]
    TooLarge { path: PathBuf, size: u64 },
    #[error("{} is not UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    #[error("{} changed while aigent was editing it; nothing was written, run the command again", path.display())]
    Changed { path: PathBuf },
}

impl InstallError {
    /// The settings file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Self::Edit { path, .. }
            | Self::NoProject { path }
            | Self::OutsideProject { path, .. }
            | Self::DanglingSymlink { path }
            | Self::HardLinked { path, .. }
            | Self::NotRegular { path }
            | Self::TooLarge { path, .. }
            | Self::NotUtf8 { path }
            | Self::Io { path, .. }
            | Self::Changed { path } => path,
        }
    }
}

/// Adds `command` as `request.client`'s hook entry. `replace` rewrites an
/// aigent entry that runs another command instead of refusing.
pub fn install(request: &Request, command: &str, replace: bool) -> Result<Report, InstallError> {
    run(request, |text| {
        plan_install(request.client, text, command, replace)
    })
}

/// Removes every aigent hook entry for `request.client`.
pub fn uninstall(request: &Request) -> Result<Report, InstallError> {
    run(request, |text| match text {
        Some(text) => plan_uninstall(request.client, text),
        None => Ok(Edit {
            after: None,
            action: Action::NotInstalled,
            warnings: Vec::new(),
            replaced: None,
        }),
    })
}

/// The settings file `request` names and its text (`None`: no file),
/// found and read under the same rules as install (project scope stays in
/// the project). Nothing is written.
pub fn read_settings(request: &Request) -> Result<(PathBuf, Option<String>), InstallError> {
    let project = project_root(request)?;
    let file = request.client.settings_path(
        request.scope,
        project.as_deref().unwrap_or(request.project),
        request.homes,
    );
    let located = locate(&file, project.as_deref())?;
    let text = match &located.existing {
        Some(_) => Some(read(&located.target)?),
        None => None,
    };
    Ok((file, text))
}

/// The project root, resolved, for project scope.
fn project_root(request: &Request) -> Result<Option<PathBuf>, InstallError> {
    match request.scope {
        Scope::Project => Ok(Some(
            fs::canonicalize(request.project)
                .ok()
                .filter(|path| path.is_dir())
                .ok_or_else(|| InstallError::NoProject {
                    path: request.project.to_owned(),
                })?,
        )),
        Scope::User => Ok(None),
    }
}

fn run(
    request: &Request,
    plan: impl FnOnce(Option<&str>) -> Result<Edit, EditError>,
) -> Result<Report, InstallError> {
    let project = project_root(request)?;
    let file = request.client.settings_path(
        request.scope,
        project.as_deref().unwrap_or(request.project),
        request.homes,
    );
    let located = locate(&file, project.as_deref())?;
    let before = match &located.existing {
        Some(_) => Some(read(&located.target)?),
        None => None,
    };
    if let Some(existing) = &located.existing
        && existing.links > 1
        && !request.force
    {
        return Err(InstallError::HardLinked {
            path: file,
            links: existing.links,
        });
    }
    let edit = plan(before.as_deref()).map_err(|source| InstallError::Edit {
        path: file.clone(),
        source,
    })?;
    let mut report = Report {
        client: request.client,
        scope: request.scope,
        file: file.clone(),
        target: located.target.clone(),
        action: edit.action,
        backup: None,
        diff: String::new(),
        dry_run: request.dry_run,
        warnings: edit.warnings,
        replaced: edit.replaced,
    };
    let codex_json = located.target.with_file_name("hooks.json");
    if request.client == Client::Codex && fs::symlink_metadata(&codex_json).is_ok() {
        report.warnings.push(format!(
            "{} exists too: Codex loads hooks from both files and warns; keep them in one",
            codex_json.display()
        ));
    }
    if !edit.action.changes() {
        return Ok(report);
    }
    // Headers name the file relative to the project (or the home
    // directory), so `patch -p1` applies the diff from there.
    let base = project.as_deref().unwrap_or(&request.homes.home);
    let name = file
        .strip_prefix(base)
        .or_else(|_| file.strip_prefix("/"))
        .unwrap_or(&file);
    report.diff = super::unified_diff(before.as_deref(), edit.after.as_deref(), name);
    if request.dry_run {
        return Ok(report);
    }
    if let (Some(before), Some(existing)) = (&before, &located.existing) {
        report.backup = Some(write_backup(
            &located.target,
            before.as_bytes(),
            &existing.permissions,
            request.now,
        )?);
    }
    let result = commit(
        &located,
        project.as_deref(),
        before.as_deref(),
        edit.after.as_deref(),
    );
    if result.is_err()
        && let Some(backup) = report.backup.take()
    {
        // Nothing changed, so the backup is only clutter.
        let _ = fs::remove_file(backup);
    }
    result?;
    Ok(report)
}

/// The existing file's details that the write needs.
struct Existing {
    links: u64,
    permissions: fs::Permissions,
}

/// Where a settings file's content lives and what is there now.
struct Located {
    /// The path to read and replace: the file itself, or a symlink's target.
    target: PathBuf,
    existing: Option<Existing>,
    /// Directories to create before writing a new file.
    missing_dirs: Option<PathBuf>,
}

/// Resolves `file` (symlinks included) and checks that project scope stays
/// inside `project`.
fn locate(file: &Path, project: Option<&Path>) -> Result<Located, InstallError> {
    let inside = |target: &Path, path: &Path| -> Result<(), InstallError> {
        match project {
            Some(root) if !target.starts_with(root) => Err(InstallError::OutsideProject {
                path: path.to_owned(),
                target: target.to_owned(),
                project: root.to_owned(),
            }),
            _ => Ok(()),
        }
    };
    match fs::symlink_metadata(file) {
        Ok(_) => {
            let target = fs::canonicalize(file).map_err(|err| match err.kind() {
                io::ErrorKind::NotFound => InstallError::DanglingSymlink {
                    path: file.to_owned(),
                },
                _ => io_error("resolve", file, err),
            })?;
            inside(&target, file)?;
            let metadata = fs::metadata(&target).map_err(|err| io_error("read", file, err))?;
            if !metadata.is_file() {
                return Err(InstallError::NotRegular {
                    path: file.to_owned(),
                });
            }
            Ok(Located {
                target,
                existing: Some(Existing {
                    links: link_count(&metadata),
                    permissions: metadata.permissions(),
                }),
                missing_dirs: None,
            })
        }
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            // The nearest ancestor that exists decides where a new file
            // would land.
            let mut ancestor = file.parent().unwrap_or(Path::new("."));
            let mut rest: Vec<Component> = vec![];
            if let Some(name) = file.file_name() {
                rest.push(Component::Normal(name));
            }
            loop {
                match fs::symlink_metadata(ancestor) {
                    Ok(_) => break,
                    Err(err) if err.kind() == io::ErrorKind::NotFound => {
                        let Some(parent) = ancestor.parent() else {
                            break;
                        };
                        if let Some(name) = ancestor.file_name() {
                            rest.push(Component::Normal(name));
                        }
                        ancestor = parent;
                    }
                    Err(err) => return Err(io_error("read", ancestor, err)),
                }
            }
            let real = fs::canonicalize(ancestor).map_err(|err| match err.kind() {
                io::ErrorKind::NotFound => InstallError::DanglingSymlink {
                    path: ancestor.to_owned(),
                },
                _ => io_error("resolve", ancestor, err),
            })?;
            inside(&real, ancestor)?;
            if !real.is_dir() {
                return Err(InstallError::NotRegular {
                    path: ancestor.to_owned(),
                });
            }
            let mut target = real;
            for component in rest.iter().rev() {
                target.push(component);
            }
            let parent = target.parent().map(Path::to_path_buf);
            Ok(Located {
                target,
                existing: None,
                missing_dirs: parent,
            })
        }
        Err(err) => Err(io_error("read", file, err)),
    }
}

#[cfg(unix)]
fn link_count(metadata: &fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    metadata.nlink()
}

#[cfg(not(unix))]
fn link_count(_: &fs::Metadata) -> u64 {
    1
}

fn io_error(action: &'static str, path: &Path, source: io::Error) -> InstallError {
    InstallError::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

fn read(path: &Path) -> Result<String, InstallError> {
    let bytes = fsutil::read_regular_file(path, MAX_SETTINGS_BYTES).map_err(|err| match err {
        ReadError::Io(source) => io_error("read", path, source),
        ReadError::NotRegular => InstallError::NotRegular {
            path: path.to_owned(),
        },
        ReadError::TooLarge(size) => InstallError::TooLarge {
            path: path.to_owned(),
            size,
        },
    })?;
    String::from_utf8(bytes).map_err(|_| InstallError::NotUtf8 {
        path: path.to_owned(),
    })
}

/// `settings.json.aigent-backup-20260801T120000Z`: the file's name, a
/// marker and the UTC time, sortable and free of characters shells treat
/// specially.
pub fn backup_name(file_name: &str, now: SystemTime) -> String {
    let stamp: String = humantime::format_rfc3339_seconds(now)
        .to_string()
        .chars()
        .filter(|c| !matches!(c, '-' | ':'))
        .collect();
    format!("{file_name}.aigent-backup-{stamp}")
}

/// Copies `bytes` to a new file beside `target` (never over an existing
/// one: a second backup in the same second gets `-2`, `-3`…).
fn write_backup(
    target: &Path,
    bytes: &[u8],
    permissions: &fs::Permissions,
    now: SystemTime,
) -> Result<PathBuf, InstallError> {
    use std::io::Write;
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = backup_name(&name, now);
    for attempt in 1..1000 {
        let candidate = if attempt == 1 {
            target.with_file_name(&base)
        } else {
            target.with_file_name(format!("{base}-{attempt}"))
        };
        let mut file = match fs::File::create_new(&candidate) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(io_error("write the backup", &candidate, err)),
        };
        let written = file
            .write_all(bytes)
            .and_then(|()| file.set_permissions(permissions.clone()))
            .and_then(|()| file.sync_all());
        if let Err(err) = written {
            let _ = fs::remove_file(&candidate);
            return Err(io_error("write the backup", &candidate, err));
        }
        return Ok(candidate);
    }
    Err(io_error(
        "write the backup",
        &target.with_file_name(base),
        io::Error::from(io::ErrorKind::AlreadyExists),
    ))
}

/// Replaces the file's content with `after` (or removes it for `None`),
/// unless it no longer holds `before`, or its directory no longer lies
/// inside `project` (checked again just before the write, so that a
/// directory swapped for a symlink since [`locate`] is caught).
fn commit(
    located: &Located,
    project: Option<&Path>,
    before: Option<&str>,
    after: Option<&str>,
) -> Result<(), InstallError> {
    let target = &located.target;
    let still_inside = |dir: &Path| -> Result<(), InstallError> {
        let Some(root) = project else { return Ok(()) };
        let real = fs::canonicalize(dir).map_err(|err| io_error("resolve", dir, err))?;
        if real.starts_with(root) {
            Ok(())
        } else {
            Err(InstallError::OutsideProject {
                path: dir.to_owned(),
                target: real,
                project: root.to_owned(),
            })
        }
    };
    if let Some(before) = before {
        let now = read(target)?;
        if now != before {
            return Err(InstallError::Changed {
                path: target.clone(),
            });
        }
    } else if fs::symlink_metadata(target).is_ok() {
        return Err(InstallError::Changed {
            path: target.clone(),
        });
    }
    match after {
        Some(after) => {
            if located.existing.is_none()
                && let Some(dir) = &located.missing_dirs
            {
                fs::create_dir_all(dir).map_err(|err| io_error("create", dir, err))?;
            }
            if let Some(dir) = target.parent() {
                still_inside(dir)?;
            }
            let permissions = located
                .existing
                .as_ref()
                .map(|existing| existing.permissions.clone());
            fsutil::write_atomic_with_permissions(target, after.as_bytes(), permissions)
                .map_err(|err| io_error("write", target, err))
        }
        None => {
            if let Some(dir) = target.parent() {
                still_inside(dir)?;
            }
            fs::remove_file(target).map_err(|err| io_error("remove", target, err))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backup_names_sort_by_time() {
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_785_585_600);
        assert_eq!(
            backup_name("settings.json", at),
            "settings.json.aigent-backup-20260801T120000Z"
        );
    }
}
