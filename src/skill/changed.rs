//! `skill validate --changed`: validate only the skills a branch touched
//! ([`crate::vcs`]), and say for each why it was selected.

use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use super::check::{
    SkillLocation, SkillReport, ValidateOptions, directory_name, finish_report,
    validate_skill_file, validate_target_in,
};
use super::discover::{Listed, SKILL_FILE_NAMES, Target};
use super::place::{Places, ProfileChoice};
use crate::report::Diagnostic;
pub use crate::vcs::ChangedScope;
use crate::vcs::{
    Base, ChangeOptions, ChangeSet, ChangedFile, ChangedUnits, CompareTo, Repo, SelectedUnit,
    Snapshot, VcsError, select_owning_dirs,
};

/// How the changed skills were found: reported with the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedReport {
    /// The work tree's root, canonical.
    #[serde(serialize_with = "super::paths::lossy_path")]
    pub workdir: PathBuf,
    /// The base, why it was chosen and the merge base.
    #[serde(serialize_with = "base_with_description")]
    pub base: Base,
    pub compare_to: CompareTo,
    /// The work-tree-relative paths the changes were limited to; empty for
    /// the whole work tree.
    #[serde(serialize_with = "super::paths::lossy_paths")]
    pub scope: Vec<PathBuf>,
    /// Changed files under the scope, whether a skill owns them or not.
    pub changed_files: usize,
    /// Skills that are gone: reported here, not validated.
    pub deleted: Vec<SelectedUnit>,
    /// The current directory, canonical: text output shows paths relative
    /// to it.
    #[serde(skip)]
    pub current_dir: Option<PathBuf>,
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
/// What is compared is also what is read: with the index or HEAD, which
/// directories are skills, the skill files and the files they link to are
/// taken from there, not from the work tree.
///
/// Each skill report carries the unit that selected it
/// ([`super::SkillReport::selected`]); deleted skills are listed in
/// [`ChangedReport::deleted`] and not validated.
pub fn validate_changed(
    paths: &[PathBuf],
    scope: &ChangedScope,
    options: ValidateOptions,
) -> Result<ChangedRun, VcsError> {
    let (repo, limits) = Repo::open_scope(paths)?;

    let ChangeSet {
        base,
        changes,
        snapshot,
    } = repo.change_set(
        scope.base.as_deref(),
        &ChangeOptions {
            paths: limits.clone(),
            compare_to: scope.compare_to,
        },
    )?;
    let units = select_changed_skills(&repo, &base, &changes, &snapshot)?;

    let here = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    let (present, deleted): (Vec<SelectedUnit>, Vec<SelectedUnit>) =
        units.into_iter().partition(SelectedUnit::is_present);
    let places = Places::new();
    let skills = if snapshot.is_work_tree() {
        use rayon::prelude::*;
        present
            .into_par_iter()
            .map(|unit| {
                let target = Target::for_path(&shown_path(&unit.absolute, here.as_deref()));
                let mut report = validate_target_in(&target, options, &places);
                report.selected = Some(unit);
                report
            })
            .collect()
    } else {
        // libgit2's handles cannot be shared between threads; the changed
        // skills are few.
        present
            .into_iter()
            .map(|unit| {
                let choice = options.choose_profile(&unit.absolute, &places);
                let mut report =
                    validate_in_snapshot(&snapshot, &unit, here.as_deref(), options, choice);
                report.selected = Some(unit);
                report
            })
            .collect()
    };
    Ok(ChangedRun {
        skills,
        report: ChangedReport {
            workdir: repo.workdir().to_owned(),
            base,
            compare_to: scope.compare_to,
            scope: limits,
            changed_files: changes.len(),
            deleted,
            current_dir: here,
        },
    })
}

/// The reports of the changed skills, and how they were chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedRun {
    pub skills: Vec<SkillReport>,
    pub report: ChangedReport,
}

/// The skills changed between the merge base and the work tree (or the
/// index, or HEAD: `options.compare_to`, which also decides where skill
/// directories are looked for) of the repository holding `start`, without
/// validating them. `base` is an explicit revision, or `None` for the
/// default order. [`validate_changed`] takes the same steps.
pub fn changed_skills(
    start: &Path,
    base: Option<&str>,
    options: &ChangeOptions,
) -> Result<ChangedUnits, VcsError> {
    let repo = Repo::discover(start)?;
    let ChangeSet {
        base,
        changes,
        snapshot,
    } = repo.change_set(base, options)?;
    let units = select_changed_skills(&repo, &base, &changes, &snapshot)?;
    Ok(ChangedUnits {
        workdir: repo.workdir().to_owned(),
        base,
        changes,
        units,
    })
}

/// The skill directories that `changes` touched: the nearest directory
/// holding a skill file in `snapshot` (present) or in the merge base
/// (deleted) above each changed file.
pub fn select_changed_skills(
    repo: &Repo,
    base: &Base,
    changes: &[ChangedFile],
    snapshot: &Snapshot<'_>,
) -> Result<Vec<SelectedUnit>, VcsError> {
    let skill_dirs = repo.marked_dirs(base, snapshot, &SKILL_FILE_NAMES)?;
    Ok(select_owning_dirs(changes, repo.workdir(), &skill_dirs))
}

/// Validates a selected skill as the snapshot (the index or HEAD) holds
/// it. The report shows where the file is in the work tree.
fn validate_in_snapshot(
    snapshot: &Snapshot<'_>,
    unit: &SelectedUnit,
    here: Option<&Path>,
    options: ValidateOptions,
    choice: ProfileChoice,
) -> SkillReport {
    let options = options.with_choice(choice);
    let directory = unit
        .absolute
        .strip_prefix(snapshot.workdir())
        .unwrap_or(Path::new(""))
        .to_owned();
    let shown_directory = shown_path(&unit.absolute, here);
    let file_name = SKILL_FILE_NAMES
        .iter()
        .find(|name| snapshot.is_file(&directory.join(name)));
    let Some(file_name) = file_name else {
        // Selected as present, so the snapshot had a skill file a moment ago.
        let missing = Diagnostic::new(
            super::codes::Code::SkillFileMissing,
            format!(
                "no SKILL.md (or skill.md) in {} in {}",
                shown_directory.display(),
                snapshot.describe()
            ),
        );
        return finish_report(shown_directory, None, vec![missing], options);
    };
    let directory_name = directory_name(&unit.absolute);
    let checked = validate_skill_file(
        snapshot,
        SkillLocation {
            file: &directory.join(file_name),
            directory: &directory,
            directory_name: directory_name.as_deref(),
            listed: Listed::default(),
        },
        options,
    );
    let mut report = finish_report(
        shown_directory.join(file_name),
        checked.name,
        checked.diagnostics,
        options,
    )
    .with_tokens(checked.tokens);
    report.profile_source = choice.source;
    report.description = checked.description;
    report
}

/// A path as people should see it: relative to the current directory
/// (with `..` where it is not below it), absolute when there is no current
/// directory or the two share no root.
pub fn shown_path(absolute: &Path, here: Option<&Path>) -> PathBuf {
    let Some(here) = here else {
        return absolute.to_owned();
    };
    let mut target = absolute.components().peekable();
    let mut from = here.components().peekable();
    // Different roots (Windows drives): no relative path joins them.
    if target.peek() != from.peek() {
        return absolute.to_owned();
    }
    while let (Some(a), Some(b)) = (target.peek(), from.peek()) {
        if a != b {
            break;
        }
        target.next();
        from.next();
    }
    let mut relative: PathBuf = from.map(|_| std::path::Component::ParentDir).collect();
    relative.extend(target);
    if relative.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        relative
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_relative_to_the_current_directory() {
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
            shown_path(Path::new("/repo/other/b"), Some(here)),
            Path::new("../other/b")
        );
        assert_eq!(shown_path(Path::new("/repo"), Some(here)), Path::new(".."));
        assert_eq!(
            shown_path(Path::new("/x"), Some(Path::new("/repo/deep/down"))),
            Path::new("../../../x")
        );
        assert_eq!(shown_path(Path::new("/x"), None), Path::new("/x"));
    }
}
