//! The files changed between the merge base and the work tree.

use std::fmt;
use std::path::{Path, PathBuf};

use git2::{Delta, DiffFindOptions, DiffOptions, Tree};
use serde::{Serialize, Serializer};

use super::base::Base;
use super::error::VcsError;
use super::repo::Repo;

/// How a file differs from the merge base.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ChangeStatus {
    /// New in the index (staged) or in a commit on the branch.
    Added,
    Modified,
    Deleted,
    /// Moved (and perhaps edited); `from` is the path in the merge base.
    Renamed {
        #[serde(serialize_with = "serialize_path")]
        from: PathBuf,
    },
    /// A file became a symlink, or the other way round.
    TypeChanged,
    /// New in the work tree and neither tracked nor ignored.
    Untracked,
    /// Unmerged in the index (a merge or rebase stopped on it).
    Conflicted,
}

impl ChangeStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            ChangeStatus::Added => "added",
            ChangeStatus::Modified => "modified",
            ChangeStatus::Deleted => "deleted",
            ChangeStatus::Renamed { .. } => "renamed",
            ChangeStatus::TypeChanged => "type_changed",
            ChangeStatus::Untracked => "untracked",
            ChangeStatus::Conflicted => "conflicted",
        }
    }
}

/// One changed file, its path relative to the work tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ChangedFile {
    #[serde(serialize_with = "serialize_path")]
    pub path: PathBuf,
    #[serde(flatten)]
    pub status: ChangeStatus,
}

impl fmt::Display for ChangedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.status {
            ChangeStatus::Renamed { from } => write!(
                f,
                "{} (renamed from {})",
                self.path.display(),
                from.display()
            ),
            status => write!(f, "{} ({})", self.path.display(), status.as_str()),
        }
    }
}

/// Paths go to JSON as strings even when they are not UTF-8, since one odd
/// file name must not make the whole report unprintable.
pub(super) fn serialize_path<S: Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&path.to_string_lossy())
}

pub(super) fn serialize_optional_path<S: Serializer>(
    path: &Option<PathBuf>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match path {
        Some(path) => serialize_path(path, serializer),
        None => serializer.serialize_none(),
    }
}

/// What to collect.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeOptions {
    /// Only changes under these work-tree-relative paths (files or
    /// directories, taken literally, not as globs). Empty: the whole tree.
    pub paths: Vec<PathBuf>,
}

impl Repo {
    /// Every file that differs between the merge base and the work tree:
    /// committed on the branch, staged, unstaged, and untracked files that are
    /// not ignored (inside untracked directories too). Renames are followed,
    /// including a tracked file moved to an untracked path.
    ///
    /// Unchanged files are only stat'ed against the index, never read, so
    /// the cost follows the number of changed files plus one stat per
    /// tracked file. The index on disk is not rewritten.
    pub fn changed_files(
        &self,
        base: &Base,
        options: &ChangeOptions,
    ) -> Result<Vec<ChangedFile>, VcsError> {
        let base_tree = self.base_tree(base)?;
        let mut diff_options = DiffOptions::new();
        diff_options
            .include_untracked(true)
            .recurse_untracked_dirs(true)
            .include_typechange(true)
            // Binary detection would read every changed file; not needed here.
            .skip_binary_check(true)
            .disable_pathspec_match(true);
        for path in &options.paths {
            if !path.as_os_str().is_empty() {
                diff_options.pathspec(path);
            }
        }
        let mut diff = self
            .git
            .diff_tree_to_workdir_with_index(base_tree.as_ref(), Some(&mut diff_options))?;
        let mut find = DiffFindOptions::new();
        find.renames(true).for_untracked(true);
        diff.find_similar(Some(&mut find))?;

        let mut changes = Vec::with_capacity(diff.deltas().len());
        for delta in diff.deltas() {
            let status = match delta.status() {
                Delta::Added | Delta::Copied => ChangeStatus::Added,
                Delta::Modified | Delta::Unreadable => ChangeStatus::Modified,
                Delta::Deleted => ChangeStatus::Deleted,
                Delta::Typechange => ChangeStatus::TypeChanged,
                Delta::Untracked => ChangeStatus::Untracked,
                Delta::Conflicted => ChangeStatus::Conflicted,
                Delta::Renamed => match delta.old_file().path() {
                    Some(from) => ChangeStatus::Renamed {
                        from: from.to_owned(),
                    },
                    None => ChangeStatus::Added,
                },
                Delta::Unmodified | Delta::Ignored => continue,
            };
            let file = match status {
                ChangeStatus::Deleted => delta.old_file(),
                _ => delta.new_file(),
            };
            let Some(path) = file.path() else { continue };
            changes.push(ChangedFile {
                path: path.to_owned(),
                status,
            });
        }
        changes.sort();
        changes.dedup();
        Ok(changes)
    }

    /// The tree the work tree is compared against: the merge base's, or
    /// none (the empty tree) when HEAD is unborn.
    pub(super) fn base_tree(&self, base: &Base) -> Result<Option<Tree<'_>>, VcsError> {
        match base.merge_base_oid {
            Some(oid) => Ok(Some(self.git.find_commit(oid)?.tree()?)),
            None => Ok(None),
        }
    }
}
