//! Opening the repository that holds a path.

use std::fs;
use std::path::{Component, Path, PathBuf};

use git2::{ErrorCode, Repository};

use super::error::VcsError;

/// A git repository with a work tree, opened from a path inside it.
pub struct Repo {
    pub(super) git: Repository,
    /// Canonical, so that canonical user paths strip against it.
    workdir: PathBuf,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo")
            .field("workdir", &self.workdir)
            .finish_non_exhaustive()
    }
}

impl Repo {
    /// Opens the repository containing `path` (a file or a directory),
    /// looking upward from it as git does.
    ///
    /// Environment variables such as `GIT_DIR` are not consulted: the path
    /// alone decides, so the answer does not depend on how aigent was started.
    pub fn discover(path: &Path) -> Result<Self, VcsError> {
        read_objects_without_rehashing();
        let metadata = fs::metadata(path).map_err(|source| VcsError::PathNotFound {
            path: path.to_owned(),
            source,
        })?;
        let start = if metadata.is_dir() {
            path
        } else {
            // A file, or anything else that is not a directory: start beside it.
            match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            }
        };
        let git = Repository::discover(start).map_err(|error| match error.code() {
            ErrorCode::NotFound => VcsError::NotARepository {
                path: path.to_owned(),
            },
            ErrorCode::Owner => VcsError::UnsafeOwnership {
                path: path.to_owned(),
            },
            _ => VcsError::Git(error),
        })?;
        let Some(workdir) = git.workdir() else {
            return Err(VcsError::BareRepository {
                git_dir: git.path().to_owned(),
            });
        };
        let workdir = fs::canonicalize(workdir).map_err(|source| VcsError::Io {
            path: workdir.to_owned(),
            source,
        })?;
        Ok(Self { git, workdir })
    }

    /// The work tree's root, canonical.
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// The underlying libgit2 handle, for checks this module does not cover.
    pub fn git(&self) -> &Repository {
        &self.git
    }

    /// `path` (absolute, or relative to the current directory) as a path
    /// relative to the work tree. The work tree itself is `""`.
    pub fn relative_path(&self, path: &Path) -> Result<PathBuf, VcsError> {
        let canonical = fs::canonicalize(path).map_err(|source| VcsError::PathNotFound {
            path: path.to_owned(),
            source,
        })?;
        canonical
            .strip_prefix(&self.workdir)
            .map(Path::to_owned)
            .map_err(|_| VcsError::OutsideWorkTree {
                path: path.to_owned(),
                workdir: self.workdir.clone(),
            })
    }

    /// The repository holding the first of `paths` (the current directory
    /// when there are none), and `paths` as sorted, deduplicated
    /// work-tree-relative limits; empty when one of them is the work tree
    /// itself, which covers everything.
    pub fn open_scope(paths: &[PathBuf]) -> Result<(Self, Vec<PathBuf>), VcsError> {
        let current = [PathBuf::from(".")];
        let paths = if paths.is_empty() {
            &current[..]
        } else {
            paths
        };
        let repo = Self::discover(&paths[0])?;
        let mut limits = paths
            .iter()
            .map(|path| repo.relative_path(path))
            .collect::<Result<Vec<_>, _>>()?;
        if limits.iter().any(|limit| limit.as_os_str().is_empty()) {
            limits.clear();
        }
        limits.sort();
        limits.dedup();
        Ok((repo, limits))
    }

    /// A work-tree-relative path made absolute.
    pub fn absolute_path(&self, relative: &Path) -> PathBuf {
        absolute_in(&self.workdir, relative)
    }
}

/// libgit2 hashes every object it reads again to check it against its id;
/// git does that only in `fsck`. Comparing trees reads thousands of them, so
/// this is a tenth of a `--changed` run on a large repository. Turned off
/// once per process: aigent only reads objects, to compare them.
fn read_objects_without_rehashing() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// `workdir` joined with a relative path, without a trailing `.` for the
/// root itself.
pub(super) fn absolute_in(workdir: &Path, relative: &Path) -> PathBuf {
    let mut absolute = workdir.to_owned();
    for component in relative.components() {
        if let Component::Normal(part) = component {
            absolute.push(part);
        }
    }
    absolute
}
