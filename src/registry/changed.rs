//! `schema lint --changed`: lint only the declarations a branch touched
//! ([`crate::vcs`]).

use std::ffi::OsStr;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::load::Registry;
use super::source::{FileReport, LoadError};
use crate::vcs::{
    ChangeOptions, ChangedScope, ChangedUnits, Repo, SelectedUnit, VcsError, select_unit_files,
};

/// The extensions of declaration files in a command registry.
pub const DECLARATION_EXTENSIONS: [&str; 3] = ["json", "yaml", "yml"];

/// What changed in a registry directory, and the lint of what changed.
#[derive(Debug)]
pub struct ChangedLint {
    /// Lint reports of the declarations to check, sorted as the registry
    /// lists them.
    pub reports: Vec<FileReport>,
    pub selection: ChangedSelection,
}

/// How the declarations were chosen: reported with the lint.
#[derive(Debug, Clone, Serialize)]
pub struct ChangedSelection {
    /// The base, why it was chosen and the merge base.
    pub base: Value,
    pub compare_to: crate::vcs::CompareTo,
    /// Changed files in the registry, declarations or not.
    pub changed_files: usize,
    /// A file other than a declaration changed (a script a command runs),
    /// so every declaration was linted: any of them may run it.
    pub whole_registry: bool,
    /// Declaration files that changed and are still there.
    pub selected: Vec<SelectedUnit>,
    /// Declaration files that are gone: reported, not linted.
    pub deleted: Vec<SelectedUnit>,
}

#[derive(Debug, thiserror::Error)]
pub enum ChangedLintError {
    #[error(transparent)]
    Vcs(#[from] VcsError),
    #[error(transparent)]
    Registry(#[from] LoadError),
}

/// Whether `path` (relative to the work tree) is a declaration file of the
/// registry at `registry`: `NAME.json`, `NAME.yaml` or `NAME.yml` directly
/// inside it.
fn is_declaration(path: &Path, registry: &Path) -> bool {
    path.parent() == Some(registry)
        && path
            .extension()
            .and_then(OsStr::to_str)
            .is_some_and(|extension| DECLARATION_EXTENSIONS.contains(&extension))
}

/// The declaration files changed in the command registry `registry` (a
/// directory inside the repository; absolute or relative to the current
/// directory). Only changes under the registry are collected, whatever
/// `options.paths` says; `options.compare_to` applies. A declaration
/// renamed inside the registry is reported at its new name with
/// `renamed_from`; one moved out of it is deleted, and one moved in is new.
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
    let units = select_unit_files(&changes, repo.workdir(), |path| {
        is_declaration(path, &registry)
    });
    Ok(ChangedUnits {
        workdir: repo.workdir().to_owned(),
        base,
        changes,
        units,
    })
}

/// Lints the declarations in `registry_dir` changed between the merge base
/// of `scope.base` and HEAD, and the work tree (or index, or HEAD).
pub fn lint_changed(
    registry_dir: &Path,
    scope: &ChangedScope,
) -> Result<ChangedLint, ChangedLintError> {
    let units = changed_declarations(
        registry_dir,
        scope.base.as_deref(),
        &ChangeOptions {
            paths: Vec::new(),
            compare_to: scope.compare_to,
        },
    )?;
    let (selected, deleted): (Vec<SelectedUnit>, Vec<SelectedUnit>) = units
        .units
        .iter()
        .cloned()
        .partition(SelectedUnit::is_present);
    let declaration_files: Vec<&Path> = units
        .units
        .iter()
        .flat_map(|unit| unit.reasons.iter().map(|reason| reason.path.as_path()))
        .collect();
    let whole_registry = units
        .changes
        .iter()
        .any(|change| !declaration_files.contains(&change.path.as_path()));
    let names: Vec<String> = selected
        .iter()
        .filter_map(|unit| unit.path.file_stem())
        .map(|stem| stem.to_string_lossy().into_owned())
        .collect();
    let registry = Registry::Directory(registry_dir.to_owned());
    let reports = if whole_registry {
        registry.reports()?
    } else {
        registry.reports_where(|name| names.iter().any(|selected| selected == name))?
    };
    let mut base = serde_json::to_value(&units.base).unwrap_or(Value::Null);
    if let Some(object) = base.as_object_mut() {
        object.insert("description".to_owned(), units.base.describe().into());
    }
    Ok(ChangedLint {
        reports,
        selection: ChangedSelection {
            base,
            compare_to: scope.compare_to,
            changed_files: units.changes.len(),
            whole_registry,
            selected,
            deleted,
        },
    })
}
