//! What `--changed` compares the merge base with, as something to read
//! files from: the work tree on disk, the index, or HEAD's tree.
//!
//! `--compare-to index` must check what is staged and `--compare-to head`
//! what is committed, whatever the work tree holds: so which directories
//! are skills, the skill files themselves and the files they link to are
//! all looked up in the same snapshot. Symbolic links stored in git are
//! followed inside the snapshot; a path that leaves the work tree (or
//! enters a submodule, whose files the snapshot does not hold) is looked
//! up on disk.

use std::ffi::OsString;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use git2::{ErrorCode, Index, ObjectType, Oid, Tree};

use super::changes::{CompareTo, path_from_bytes};
use super::error::VcsError;
use super::repo::Repo;

/// How many symbolic links one lookup follows before it gives up, as
/// Linux does (`ELOOP`).
const MAX_SYMLINK_HOPS: usize = 40;

/// git's file modes.
const MODE_SYMLINK: u32 = 0o120_000;
const MODE_SUBMODULE: u32 = 0o160_000;

/// The state of the work that `--changed` compares with the merge base.
pub struct Snapshot<'r> {
    repo: &'r Repo,
    state: State<'r>,
}

enum State<'r> {
    WorkTree,
    Index(Index),
    /// HEAD's tree; `None` when HEAD has no commits (the empty tree).
    Tree(Option<Tree<'r>>),
}

impl fmt::Debug for Snapshot<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Snapshot")
            .field("workdir", &self.repo.workdir())
            .field("compare_to", &self.compare_to())
            .finish()
    }
}

/// What one path names in a snapshot, symbolic links not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    File(Oid),
    Symlink(Oid),
    Directory,
    Submodule,
    /// Only in conflict stages of the index: a merge stopped on it.
    Conflicted,
}

/// What a path leads to, symbolic links followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolved {
    Found(Node),
    Missing,
    /// Out of the snapshot's reach: left the work tree, or entered a
    /// submodule.
    Elsewhere,
}

/// Why a file could not be read from a snapshot.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotReadError {
    #[error("it is not in {0}")]
    Missing(&'static str),
    #[error("it is not a regular file in {0}")]
    NotAFile(&'static str),
    #[error("it has unresolved merge conflicts in the index")]
    Conflicted,
    #[error("it is {size} bytes")]
    TooLarge { size: u64 },
    #[error(transparent)]
    Git(#[from] git2::Error),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl Repo {
    /// The snapshot that `compare_to` compares the merge base with.
    pub fn snapshot(&self, compare_to: CompareTo) -> Result<Snapshot<'_>, VcsError> {
        let state = match compare_to {
            CompareTo::WorkTree => State::WorkTree,
            CompareTo::Index => State::Index(self.git.index()?),
            CompareTo::Head => State::Tree(match self.git.head() {
                Ok(head) => Some(head.peel_to_tree()?),
                Err(error) if error.code() == ErrorCode::UnbornBranch => None,
                Err(error) => return Err(error.into()),
            }),
        };
        Ok(Snapshot { repo: self, state })
    }
}

impl Snapshot<'_> {
    pub fn compare_to(&self) -> CompareTo {
        match self.state {
            State::WorkTree => CompareTo::WorkTree,
            State::Index(_) => CompareTo::Index,
            State::Tree(_) => CompareTo::Head,
        }
    }

    /// Whether files are read from disk (the work tree).
    pub fn is_work_tree(&self) -> bool {
        matches!(self.state, State::WorkTree)
    }

    /// The work tree's root, canonical.
    pub fn workdir(&self) -> &Path {
        self.repo.workdir()
    }

    /// Where the snapshot is, for messages: `the index`, `HEAD`.
    pub fn describe(&self) -> &'static str {
        match self.state {
            State::WorkTree => "the work tree",
            State::Index(_) => "the index",
            State::Tree(_) => "HEAD",
        }
    }

    /// Whether a work-tree-relative path is a file (or a symlink to one)
    /// in the snapshot.
    pub fn is_file(&self, relative: &Path) -> bool {
        match self.resolve(relative) {
            Resolved::Found(node) => matches!(node, Node::File(_) | Node::Conflicted),
            Resolved::Missing => false,
            Resolved::Elsewhere => self.workdir().join(relative).is_file(),
        }
    }

    /// Whether a work-tree-relative path names anything (a file, a
    /// directory) in the snapshot; `..` and symbolic links are followed.
    pub fn exists(&self, relative: &Path) -> bool {
        match self.resolve(relative) {
            Resolved::Found(_) => true,
            Resolved::Missing => false,
            Resolved::Elsewhere => self.workdir().join(relative).exists(),
        }
    }

    /// The contents of a file in a git snapshot (the index or HEAD), at
    /// most `limit` bytes (checked before it is read). For the work tree,
    /// read the file on disk instead.
    pub fn read(&self, relative: &Path, limit: u64) -> Result<Vec<u8>, SnapshotReadError> {
        let oid = match self.resolve(relative) {
            Resolved::Found(Node::File(oid)) => oid,
            Resolved::Found(Node::Conflicted) => return Err(SnapshotReadError::Conflicted),
            Resolved::Found(_) => return Err(SnapshotReadError::NotAFile(self.describe())),
            Resolved::Missing => return Err(SnapshotReadError::Missing(self.describe())),
            Resolved::Elsewhere => {
                let path = self.workdir().join(relative);
                return match crate::fsutil::read_regular_file(&path, limit) {
                    Ok(bytes) => Ok(bytes),
                    Err(crate::fsutil::ReadError::TooLarge(size)) => {
                        Err(SnapshotReadError::TooLarge { size })
                    }
                    Err(crate::fsutil::ReadError::NotRegular) => {
                        Err(SnapshotReadError::NotAFile(self.describe()))
                    }
                    Err(crate::fsutil::ReadError::Io(err)) => Err(err.into()),
                };
            }
        };
        let (size, _) = self.repo.git.odb()?.read_header(oid)?;
        let size = size as u64;
        if size > limit {
            return Err(SnapshotReadError::TooLarge { size });
        }
        Ok(self.repo.git.find_blob(oid)?.content().to_vec())
    }

    /// The names of the regular files directly in the work-tree-relative
    /// directory `dir` of a git snapshot (the index or HEAD), at most
    /// `limit`, sorted; UTF-8 names only. Symbolic links in `dir` itself
    /// are not followed. For the work tree, list the directory on disk.
    pub fn file_names(&self, dir: &Path, limit: usize) -> Vec<String> {
        let mut names: Vec<String> = match &self.state {
            State::WorkTree | State::Tree(None) => Vec::new(),
            State::Tree(Some(tree)) => {
                let Ok(entry) = tree.get_path(dir) else {
                    return Vec::new();
                };
                let Ok(subtree) = entry
                    .to_object(&self.repo.git)
                    .and_then(|o| o.peel_to_tree())
                else {
                    return Vec::new();
                };
                subtree
                    .iter()
                    .filter(|entry| {
                        entry.kind() == Some(ObjectType::Blob)
                            && entry.filemode() as u32 != MODE_SYMLINK
                    })
                    .filter_map(|entry| entry.name().ok().map(str::to_owned))
                    .take(limit)
                    .collect()
            }
            State::Index(index) => {
                let mut prefix = dir.as_os_str().as_encoded_bytes().to_vec();
                prefix.push(b'/');
                let Ok(start) = index.find_prefix(prefix.as_slice()) else {
                    return Vec::new();
                };
                (start..index.len())
                    .map_while(|position| index.get(position))
                    .take_while(|entry| entry.path.starts_with(&prefix))
                    .filter(|entry| entry.mode != MODE_SYMLINK && entry.mode != MODE_SUBMODULE)
                    .filter_map(|entry| {
                        let rest = &entry.path[prefix.len()..];
                        (!rest.contains(&b'/'))
                            .then(|| String::from_utf8(rest.to_vec()).ok())
                            .flatten()
                    })
                    .take(limit)
                    .collect()
            }
        };
        names.sort();
        names.dedup();
        names
    }

    /// Follows `relative` component by component through the snapshot,
    /// resolving `..` and symbolic links as the file system would.
    fn resolve(&self, relative: &Path) -> Resolved {
        if self.is_work_tree() {
            // Only the disk knows; callers check it there.
            return Resolved::Elsewhere;
        }
        let mut pending: Vec<Part> = relative.components().rev().map(Part::of).collect();
        let mut current = PathBuf::new();
        let mut last = Node::Directory;
        let mut hops = 0;
        while let Some(part) = pending.pop() {
            match part {
                Part::Current => {}
                Part::Elsewhere => return Resolved::Elsewhere,
                Part::Parent => {
                    if last != Node::Directory {
                        return Resolved::Missing;
                    }
                    if !current.pop() {
                        return Resolved::Elsewhere;
                    }
                }
                Part::Name(name) => {
                    match last {
                        Node::Directory => {}
                        Node::Submodule => return Resolved::Elsewhere,
                        _ => return Resolved::Missing,
                    }
                    let next = current.join(&name);
                    match self.node(&next) {
                        None => return Resolved::Missing,
                        Some(Node::Symlink(oid)) => {
                            hops += 1;
                            let Some(target) = self.link_target(oid) else {
                                return Resolved::Missing;
                            };
                            if hops > MAX_SYMLINK_HOPS {
                                return Resolved::Missing;
                            }
                            pending.extend(target.components().rev().map(Part::of));
                        }
                        Some(node) => {
                            current = next;
                            last = node;
                        }
                    }
                }
            }
        }
        Resolved::Found(last)
    }

    fn link_target(&self, oid: Oid) -> Option<PathBuf> {
        let blob = self.repo.git.find_blob(oid).ok()?;
        Some(path_from_bytes(blob.content()))
    }

    /// What `path` (normalized: names only, not empty) is, without
    /// following a symbolic link at its end.
    fn node(&self, path: &Path) -> Option<Node> {
        // libgit2 cannot look up a path holding a NUL byte (a link target
        // may decode to one); nothing has such a name.
        if path.as_os_str().as_encoded_bytes().contains(&0) {
            return None;
        }
        match &self.state {
            State::WorkTree => None,
            State::Tree(None) => None,
            State::Tree(Some(tree)) => {
                let entry = tree.get_path(path).ok()?;
                Some(match entry.kind() {
                    Some(ObjectType::Tree) => Node::Directory,
                    Some(ObjectType::Commit) => Node::Submodule,
                    _ if entry.filemode() as u32 == MODE_SYMLINK => Node::Symlink(entry.id()),
                    _ => Node::File(entry.id()),
                })
            }
            State::Index(index) => {
                if let Some(entry) = index.get_path(path, 0) {
                    return Some(match entry.mode {
                        MODE_SYMLINK => Node::Symlink(entry.id),
                        MODE_SUBMODULE => Node::Submodule,
                        _ => Node::File(entry.id),
                    });
                }
                if (1..=3).any(|stage| index.get_path(path, stage).is_some()) {
                    return Some(Node::Conflicted);
                }
                // A directory is implicit in the index: some entry below it.
                let mut prefix = path.as_os_str().as_encoded_bytes().to_vec();
                prefix.push(b'/');
                let position = index.find_prefix(prefix.as_slice()).ok()?;
                index
                    .get(position)
                    .filter(|entry| entry.path.starts_with(&prefix))
                    .map(|_| Node::Directory)
            }
        }
    }
}

/// One component of a path being resolved.
enum Part {
    Name(OsString),
    Current,
    Parent,
    /// An absolute path or a Windows prefix: outside the snapshot.
    Elsewhere,
}

impl Part {
    fn of(component: Component<'_>) -> Self {
        match component {
            Component::Normal(name) => Part::Name(name.to_owned()),
            Component::CurDir => Part::Current,
            Component::ParentDir => Part::Parent,
            Component::RootDir | Component::Prefix(_) => Part::Elsewhere,
        }
    }
}

/// What a `--changed` run works from: the base it compares with, the files
/// that differ from it, and the snapshot (work tree, index or HEAD) those
/// files are read from.
pub struct ChangeSet<'repo> {
    pub base: super::Base,
    pub changes: Vec<super::ChangedFile>,
    pub snapshot: Snapshot<'repo>,
}

impl Repo {
    /// Resolves the base (`base`, else the default order), lists the
    /// changed files under `options`, and opens the snapshot
    /// `options.compare_to` names: the steps every `--changed` command takes,
    /// in the one order.
    pub fn change_set(
        &self,
        base: Option<&str>,
        options: &super::ChangeOptions,
    ) -> Result<ChangeSet<'_>, VcsError> {
        let base = self.resolve_base(base)?;
        let changes = self.changed_files(&base, options)?;
        let snapshot = self.snapshot(options.compare_to)?;
        Ok(ChangeSet {
            base,
            changes,
            snapshot,
        })
    }
}
