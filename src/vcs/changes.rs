//! The files changed between the merge base and the work tree.

use std::fmt;
use std::path::{Path, PathBuf};

use git2::{Delta, DiffFindOptions, DiffOptions, ErrorCode, ObjectType, Tree, TreeEntry};
use serde::{Serialize, Serializer};

use super::base::Base;
use super::error::VcsError;
use super::repo::Repo;

/// How a file differs from the merge base.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, strum::IntoStaticStr)]
#[serde(tag = "status", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
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
        self.into()
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

/// What the merge base is compared with: how much of the branch's work
/// counts as changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CompareTo {
    /// HEAD's tree: only what is committed on the branch. Reads neither the
    /// index nor the work tree, and descends only into the trees that
    /// changed, so the cost follows the number of changed files. Right for
    /// CI, where the checkout is clean.
    Head,
    /// The index: committed and staged work. Reads the whole index (one
    /// file, no stat of the work tree). Right for a pre-commit hook.
    Index,
    /// The work tree: committed, staged, unstaged and untracked work (the
    /// default). Finding unstaged and untracked files takes one stat per
    /// tracked file and one read per directory, as `git status` does; no
    /// cache that libgit2 reads avoids it.
    #[default]
    WorkTree,
}

/// What to collect.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeOptions {
    /// Only changes under these work-tree-relative paths (files or
    /// directories, taken literally, not as globs). Empty: the whole tree.
    /// libgit2 then walks only those paths.
    pub paths: Vec<PathBuf>,
    pub compare_to: CompareTo,
}

impl Repo {
    /// Every file that differs between the merge base and the work tree:
    /// committed on the branch, staged, unstaged, and untracked files that are
    /// not ignored (inside untracked directories too). Renames are followed,
    /// including a tracked file moved to an untracked path.
    /// `options.compare_to` can narrow this to committed (and staged) work.
    ///
    /// Unchanged files are only stat'ed against the index, never read or
    /// hashed (except entries written in the same instant as the index,
    /// which git too must re-read); only changed files are read, for rename
    /// detection. The index on disk is not rewritten.
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
        if options.compare_to != CompareTo::Head {
            for path in &options.paths {
                if !path.as_os_str().is_empty() {
                    diff_options.pathspec(path);
                }
            }
        }
        let mut diff = match options.compare_to {
            CompareTo::Head => {
                let head_tree = match self.git.head() {
                    Ok(head) => Some(head.peel_to_tree()?),
                    Err(error) if error.code() == ErrorCode::UnbornBranch => None,
                    Err(error) => return Err(error.into()),
                };
                // libgit2 compares every file of two trees; this walk skips
                // the subtrees they share, so the diff sees only what changed.
                let mut paths = Vec::new();
                self.changed_paths_between(
                    base_tree.as_ref(),
                    head_tree.as_ref(),
                    Path::new(""),
                    &mut paths,
                )?;
                paths.retain(|path| {
                    options.paths.is_empty()
                        || options.paths.iter().any(|scope| path.starts_with(scope))
                });
                if paths.is_empty() {
                    // An empty pathspec would mean every path.
                    return Ok(Vec::new());
                }
                for path in &paths {
                    diff_options.pathspec(path);
                }
                self.git.diff_tree_to_tree(
                    base_tree.as_ref(),
                    head_tree.as_ref(),
                    Some(&mut diff_options),
                )?
            }
            CompareTo::Index => {
                self.git
                    .diff_tree_to_index(base_tree.as_ref(), None, Some(&mut diff_options))?
            }
            CompareTo::WorkTree => self
                .git
                .diff_tree_to_workdir_with_index(base_tree.as_ref(), Some(&mut diff_options))?,
        };
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

    /// Pushes onto `out` the path of every file that differs between two
    /// trees (either may be absent: the empty tree), descending only into
    /// subtrees whose ids differ.
    fn changed_paths_between(
        &self,
        old: Option<&Tree<'_>>,
        new: Option<&Tree<'_>>,
        prefix: &Path,
        out: &mut Vec<PathBuf>,
    ) -> Result<(), VcsError> {
        if let (Some(old), Some(new)) = (old, new)
            && old.id() == new.id()
        {
            return Ok(());
        }
        if let Some(new) = new {
            for entry in new.iter() {
                let counterpart = old.and_then(|old| old.get_name_bytes(entry.name_bytes()));
                self.changed_entry(counterpart.as_ref(), Some(&entry), prefix, out)?;
            }
        }
        if let Some(old) = old {
            for entry in old.iter() {
                let in_new =
                    new.is_some_and(|new| new.get_name_bytes(entry.name_bytes()).is_some());
                if !in_new {
                    self.changed_entry(Some(&entry), None, prefix, out)?;
                }
            }
        }
        Ok(())
    }

    /// One name in two trees: compares the entries, and recurses where a
    /// side is a tree.
    fn changed_entry(
        &self,
        old: Option<&TreeEntry<'_>>,
        new: Option<&TreeEntry<'_>>,
        prefix: &Path,
        out: &mut Vec<PathBuf>,
    ) -> Result<(), VcsError> {
        if let (Some(old), Some(new)) = (old, new)
            && old.id() == new.id()
            && old.filemode() == new.filemode()
        {
            return Ok(());
        }
        let Some(name) = new.or(old).map(|entry| path_from_bytes(entry.name_bytes())) else {
            return Ok(());
        };
        let path = prefix.join(name);
        let as_tree = |entry: Option<&TreeEntry<'_>>| -> Result<Option<Tree<'_>>, VcsError> {
            match entry {
                Some(entry) if entry.kind() == Some(ObjectType::Tree) => {
                    Ok(Some(self.git.find_tree(entry.id())?))
                }
                _ => Ok(None),
            }
        };
        let old_tree = as_tree(old)?;
        let new_tree = as_tree(new)?;
        let is_file = |entry: Option<&TreeEntry<'_>>| {
            entry.is_some_and(|entry| entry.kind() != Some(ObjectType::Tree))
        };
        if is_file(old) || is_file(new) {
            out.push(path.clone());
        }
        if old_tree.is_some() || new_tree.is_some() {
            self.changed_paths_between(old_tree.as_ref(), new_tree.as_ref(), &path, out)?;
        }
        Ok(())
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

#[cfg(unix)]
pub(super) fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

/// Git stores names as UTF-8 on Windows.
#[cfg(not(unix))]
pub(super) fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}
