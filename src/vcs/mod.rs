//! Branch-aware plumbing: what a branch changed, read with libgit2 and
//! never with the `git` program (DESIGN.md §7). It knows repositories,
//! revisions, paths and changes, and nothing of skills or declarations:
//! `skill::changed` and `contract::changed` say what their units are.
//!
//! The steps, each usable on its own:
//! 1. [`Repo::discover`] opens the repository holding a path.
//! 2. [`Repo::resolve_base`] picks the base (`--base`, else the upstream,
//!    `origin/HEAD`, `main`, `master`) and its merge base with HEAD.
//! 3. [`Repo::changed_files`] lists what differs between the merge base and
//!    the work tree: committed, staged, unstaged and untracked work
//!    ([`CompareTo`] narrows it to committed, or committed and staged, work
//!    at a fraction of the cost).
//! 4. [`select_owning_dirs`] and [`select_unit_files`] map those files to
//!    the units that own them, with the reasons, given what the caller
//!    calls a unit. A [`Snapshot`] of what is compared (the work tree, the
//!    index or HEAD) says which directories are units now, and is where
//!    their files are read from.
//!
//! [`Repo::change_set`] takes steps 2 and 3 and opens the snapshot, in the
//! one order every `--changed` command uses.

mod base;
mod changes;
mod error;
mod owners;
mod repo;
mod snapshot;

use std::path::PathBuf;

use serde::Serialize;

pub use base::{Base, BaseSource};
pub use changes::{ChangeOptions, ChangeStatus, ChangedFile, CompareTo};
pub use error::{VcsError, VcsErrorKind};
pub use owners::{
    MarkedDirs, SelectedUnit, UnitDirs, UnitState, select_owning_dirs, select_unit_files,
};
pub use repo::Repo;
pub use snapshot::{ChangeSet, Snapshot, SnapshotReadError};

/// What `--changed` compares, for skills and declarations alike.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedScope {
    /// `--base REV`; `None` for the default order (upstream, `origin/HEAD`,
    /// `main`, `master`).
    pub base: Option<String>,
    /// How much of the branch's work counts as changed.
    pub compare_to: CompareTo,
}

/// What a branch changed, mapped to units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedUnits {
    /// The work tree's root, canonical.
    #[serde(serialize_with = "changes::serialize_path")]
    pub workdir: PathBuf,
    pub base: Base,
    /// Every changed file, selected or not.
    pub changes: Vec<ChangedFile>,
    /// The units the changes touched, sorted by path.
    pub units: Vec<SelectedUnit>,
}

impl ChangedUnits {
    /// The units still in the work tree: the ones to check.
    pub fn present(&self) -> impl Iterator<Item = &SelectedUnit> {
        self.units.iter().filter(|unit| unit.is_present())
    }

    /// The units that were deleted: report them, do not check them.
    pub fn deleted(&self) -> impl Iterator<Item = &SelectedUnit> {
        self.units.iter().filter(|unit| !unit.is_present())
    }
}
