//! Branch-aware checks: which skills and declarations a branch touched
//! (DESIGN.md §7), read with libgit2 and never with the `git` program.
//!
//! The steps, each usable on its own:
//! 1. [`Repo::discover`] opens the repository holding a path.
//! 2. [`Repo::resolve_base`] picks the base (`--base`, else the upstream,
//!    `origin/HEAD`, `main`, `master`) and its merge base with HEAD.
//! 3. [`Repo::changed_files`] lists what differs between the merge base and
//!    the work tree: committed, staged, unstaged and untracked work
//!    ([`CompareTo`] narrows it to committed, or committed and staged, work
//!    at a fraction of the cost).
//! 4. [`select_skills`] and [`select_declarations`] map those files to the
//!    units that own them, with the reasons. A [`Snapshot`] of what is
//!    compared (the work tree, the index or HEAD) says which directories
//!    are skills now, and is where their files are read from.
//!
//! [`changed_skills`] and [`changed_declarations`] run all four.

mod base;
mod changes;
mod error;
mod owners;
mod repo;
mod snapshot;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use base::{Base, BaseSource};
pub use changes::{ChangeOptions, ChangeStatus, ChangedFile, CompareTo};
pub use error::{VcsError, VcsErrorKind};
pub use owners::{
    DECLARATION_EXTENSIONS, RepoSkillDirs, SKILL_FILE_NAMES, SelectedUnit, SkillDirs, UnitState,
    select_declarations, select_skills,
};
pub use repo::Repo;
pub use snapshot::{Snapshot, SnapshotReadError};

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

/// The skills changed between the merge base and the work tree (or the
/// index, or HEAD: `options.compare_to`, which also decides where skill
/// directories are looked for) of the repository holding `start`. `base`
/// is an explicit revision, or `None` for the default order.
pub fn changed_skills(
    start: &Path,
    base: Option<&str>,
    options: &ChangeOptions,
) -> Result<ChangedUnits, VcsError> {
    let repo = Repo::discover(start)?;
    let base = repo.resolve_base(base)?;
    let changes = repo.changed_files(&base, options)?;
    let snapshot = repo.snapshot(options.compare_to)?;
    let units = select_skills(
        &changes,
        repo.workdir(),
        &repo.skill_dirs(&base, &snapshot)?,
    );
    Ok(ChangedUnits {
        workdir: repo.workdir().to_owned(),
        base,
        changes,
        units,
    })
}

/// The declaration files changed in the command registry `registry` (a
/// directory inside the repository; absolute or relative to the current
/// directory). Only changes under the registry are collected, whatever
/// `options.paths` says; `options.compare_to` applies.
pub fn changed_declarations(
    registry: &Path,
    base: Option<&str>,
    options: &ChangeOptions,
) -> Result<ChangedUnits, VcsError> {
    let repo = Repo::discover(registry)?;
    let registry = repo.relative_path(registry)?;
    let base = repo.resolve_base(base)?;
    let changes = repo.changed_files(
        &base,
        &ChangeOptions {
            paths: vec![registry.clone()],
            compare_to: options.compare_to,
        },
    )?;
    let units = select_declarations(&changes, repo.workdir(), &registry);
    Ok(ChangedUnits {
        workdir: repo.workdir().to_owned(),
        base,
        changes,
        units,
    })
}
