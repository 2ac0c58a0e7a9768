//! `skill validate --changed`: validate only the skills a branch touched
//! ([`crate::vcs`]), and say for each why it was selected.

use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use super::discover::Target;
use super::validate::{ValidateOptions, ValidationRun, validate_target};
pub use crate::vcs::ChangedScope;
use crate::vcs::{Base, ChangeOptions, CompareTo, Repo, SelectedUnit, VcsError, select_skills};

/// How the changed skills were found: reported with the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedReport {
    /// The work tree's root, canonical.
    #[serde(serialize_with = "lossy_path")]
    pub workdir: PathBuf,
    /// The base, why it was chosen and the merge base.
    #[serde(serialize_with = "base_with_description")]
    pub base: Base,
    pub compare_to: CompareTo,
    /// The work-tree-relative paths the changes were limited to; empty for
    /// the whole work tree.
    #[serde(serialize_with = "lossy_paths")]
    pub scope: Vec<PathBuf>,
    /// Changed files under the scope, whether a skill owns them or not.
    pub changed_files: usize,
    /// Skills that are gone: reported here, not validated.
    pub deleted: Vec<SelectedUnit>,
}

fn lossy_path<S: Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&path.to_string_lossy())
}

fn lossy_paths<S: Serializer>(paths: &[PathBuf], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(paths.iter().map(|path| path.to_string_lossy()))
}

/// The base's fields plus `description`, its one-line explanation.
fn base_with_description<S: Serializer>(base: &Base, serializer: S) -> Result<S::Ok, S::Error> {
    use serde::ser::Error;
    let mut value = serde_json::to_value(base).map_err(S::Error::custom)?;
    if let Some(object) = value.as_object_mut() {
        object.insert("description".to_owned(), base.describe().into());
    }
    value.serialize(serializer)
}

/// Validates the skills changed between the merge base and the work tree
/// (or the index, or HEAD: `scope.compare_to`) of the repository holding
/// `paths[0]`, limited to changes under `paths` (all in that repository;
/// empty means the current directory).
///
/// Each skill report carries the unit that selected it
/// ([`super::SkillReport::selected`]); deleted skills are listed in
/// [`ChangedReport::deleted`] and not validated.
pub fn validate_changed(
    paths: &[PathBuf],
    scope: &ChangedScope,
    options: ValidateOptions,
) -> Result<ValidationRun, VcsError> {
    let current = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &current[..]
    } else {
        paths
    };
    let repo = Repo::discover(&paths[0])?;
    let mut limits = Vec::with_capacity(paths.len());
    for path in paths {
        limits.push(repo.relative_path(path)?);
    }
    // The work tree itself covers everything; an empty list means that.
    if limits.iter().any(|limit| limit.as_os_str().is_empty()) {
        limits.clear();
    }
    limits.sort();
    limits.dedup();

    let base = repo.resolve_base(scope.base.as_deref())?;
    let changes = repo.changed_files(
        &base,
        &ChangeOptions {
            paths: limits.clone(),
            compare_to: scope.compare_to,
        },
    )?;
    let units = select_skills(&changes, repo.workdir(), &repo.skill_dirs(&base)?);

    let here = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    let (present, deleted): (Vec<SelectedUnit>, Vec<SelectedUnit>) =
        units.into_iter().partition(SelectedUnit::is_present);
    let targets: Vec<(Target, SelectedUnit)> = present
        .into_iter()
        .map(|unit| {
            let shown = shown_path(&unit.absolute, here.as_deref());
            (Target::for_path(&shown), unit)
        })
        .collect();
    let skills = {
        use rayon::prelude::*;
        targets
            .into_par_iter()
            .map(|(target, unit)| {
                let mut report = validate_target(&target, options);
                report.selected = Some(unit);
                report
            })
            .collect()
    };
    Ok(ValidationRun {
        skills,
        notes: Vec::new(),
        found_nothing: false,
        changed: Some(ChangedReport {
            workdir: repo.workdir().to_owned(),
            base,
            compare_to: scope.compare_to,
            scope: limits,
            changed_files: changes.len(),
            deleted,
        }),
    })
}

/// A path as people should see it: relative to the current directory when
/// it is below it, absolute otherwise.
fn shown_path(absolute: &Path, here: Option<&Path>) -> PathBuf {
    match here.and_then(|here| absolute.strip_prefix(here).ok()) {
        Some(relative) if relative.as_os_str().is_empty() => PathBuf::from("."),
        Some(relative) => relative.to_owned(),
        None => absolute.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_below_the_current_directory_are_shown_relative() {
        let here = Path::new("/repo/skills");
        assert_eq!(
            shown_path(Path::new("/repo/skills/a"), Some(here)),
            Path::new("a")
        );
        assert_eq!(
            shown_path(Path::new("/repo/skills"), Some(here)),
            Path::new(".")
        );
        assert_eq!(
            shown_path(Path::new("/repo/other"), Some(here)),
            Path::new("/repo/other")
        );
        assert_eq!(shown_path(Path::new("/x"), None), Path::new("/x"));
    }
}
