//! From changed files to the units that own them, whatever a unit is to
//! the caller: a directory marked by a file it holds (a skill directory and
//! its `SKILL.md`), or a file of its own (a declaration). What marks a unit
//! is the caller's knowledge; this module only knows paths and changes.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use git2::{ObjectType, Tree};
use serde::Serialize;

use super::base::Base;
use super::changes::{ChangeStatus, ChangedFile, serialize_optional_path, serialize_path};
use super::error::VcsError;
use super::repo::{Repo, absolute_in};
use super::snapshot::Snapshot;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitState {
    /// Still there: validate it.
    Present,
    /// Gone from the work tree: report it, do not validate it.
    Deleted,
}

/// A unit (a marked directory or a unit file) that a change touched, and
/// the changes that selected it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SelectedUnit {
    /// Relative to the work tree; `.` for the work tree itself.
    #[serde(serialize_with = "serialize_path")]
    pub path: PathBuf,
    #[serde(serialize_with = "serialize_path")]
    pub absolute: PathBuf,
    pub state: UnitState,
    /// Where the unit was in the merge base, when it was moved whole.
    #[serde(serialize_with = "serialize_optional_path")]
    pub renamed_from: Option<PathBuf>,
    /// The changed files that selected it, sorted by path.
    pub reasons: Vec<ChangedFile>,
}

impl SelectedUnit {
    pub fn is_present(&self) -> bool {
        self.state == UnitState::Present
    }
}

/// Answers "is this directory a unit?" for work-tree-relative directories
/// (`""` is the work tree itself).
pub trait UnitDirs {
    /// The directory holds a marker file now: in the work tree, the index
    /// or HEAD, whichever is compared.
    fn is_unit_dir(&self, dir: &Path) -> bool;
    /// The directory held a marker file in the merge base (for deletions).
    fn was_unit_dir(&self, dir: &Path) -> bool;
    /// The file is a marker file by its name (wherever it is).
    fn is_marker_file(&self, file: &Path) -> bool;
}

/// [`UnitDirs`] over a real checkout: a directory is a unit when it holds a
/// file named one of `markers`, in what is compared (the work tree, the
/// index or HEAD: a [`Snapshot`]) or, for deleted units, the merge base.
pub struct MarkedDirs<'s, 'r> {
    snapshot: &'s Snapshot<'r>,
    base_tree: Option<Tree<'r>>,
    markers: &'s [&'s str],
}

impl Repo {
    /// The probe for directories holding one of `markers`, for this
    /// repository, base and snapshot.
    pub fn marked_dirs<'s, 'r>(
        &'r self,
        base: &Base,
        snapshot: &'s Snapshot<'r>,
        markers: &'s [&'s str],
    ) -> Result<MarkedDirs<'s, 'r>, VcsError> {
        Ok(MarkedDirs {
            snapshot,
            base_tree: self.base_tree(base)?,
            markers,
        })
    }
}

impl UnitDirs for MarkedDirs<'_, '_> {
    fn is_unit_dir(&self, dir: &Path) -> bool {
        self.markers
            .iter()
            .any(|name| self.snapshot.is_file(&dir.join(name)))
    }

    fn was_unit_dir(&self, dir: &Path) -> bool {
        let Some(tree) = &self.base_tree else {
            return false;
        };
        self.markers.iter().any(|name| {
            tree.get_path(&dir.join(name))
                .is_ok_and(|entry| entry.kind() == Some(ObjectType::Blob))
        })
    }

    fn is_marker_file(&self, file: &Path) -> bool {
        file.file_name()
            .is_some_and(|name| self.markers.iter().any(|marker| OsStr::new(marker) == name))
    }
}

/// Who owns a directory: the nearest ancestor-or-self that is, or was, a
/// unit.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Owner {
    dir: PathBuf,
    state: UnitState,
}

/// Memoized ownership lookups, so that a thousand files in one new
/// directory cost one walk up the tree.
struct Owners<'d, D: UnitDirs + ?Sized> {
    dirs: &'d D,
    memo: HashMap<PathBuf, Option<Owner>>,
}

impl<D: UnitDirs + ?Sized> Owners<'_, D> {
    fn of_file(&mut self, file: &Path) -> Option<Owner> {
        self.of_dir(file.parent().unwrap_or(Path::new("")))
    }

    fn of_dir(&mut self, dir: &Path) -> Option<Owner> {
        if let Some(known) = self.memo.get(dir) {
            return known.clone();
        }
        let owner = if self.dirs.is_unit_dir(dir) {
            Some(Owner {
                dir: dir.to_owned(),
                state: UnitState::Present,
            })
        } else if self.dirs.was_unit_dir(dir) {
            Some(Owner {
                dir: dir.to_owned(),
                state: UnitState::Deleted,
            })
        } else {
            match dir.parent() {
                Some(parent) => self.of_dir(parent),
                None => None,
            }
        };
        self.memo.insert(dir.to_owned(), owner.clone());
        owner
    }
}

/// Accumulates units keyed by their relative path.
#[derive(Default)]
struct Selection {
    units: BTreeMap<PathBuf, (UnitState, Option<PathBuf>, BTreeSet<ChangedFile>)>,
}

impl Selection {
    /// Records that `reason` touched the unit at `path`. A unit that any
    /// change leaves present is present (a declaration renamed away and
    /// another renamed onto its name).
    fn add(&mut self, path: &Path, state: UnitState, reason: &ChangedFile) {
        let entry = self
            .units
            .entry(path.to_owned())
            .or_insert_with(|| (state, None, BTreeSet::new()));
        if state == UnitState::Present {
            entry.0 = UnitState::Present;
        }
        entry.2.insert(reason.clone());
    }

    /// `old` moved whole to `new`: `new` reports where it came from, and
    /// `old`, when nothing took its place, is reported only there.
    fn merge_move(&mut self, old: &Path, new: &Path) {
        if !self.units.contains_key(new) {
            return;
        }
        let old_is_gone = matches!(self.units.get(old), Some((UnitState::Deleted, _, _)));
        let old_reasons = match old_is_gone {
            true => self.units.remove(old).map(|(_, _, reasons)| reasons),
            false => None,
        };
        self.mark_move(old, new);
        if let Some((_, _, reasons)) = self.units.get_mut(new) {
            reasons.extend(old_reasons.into_iter().flatten());
        }
    }

    /// `new` reports that it came from `old`; `old` stays as it is.
    fn mark_move(&mut self, old: &Path, new: &Path) {
        if let Some((_, renamed_from, _)) = self.units.get_mut(new) {
            renamed_from.get_or_insert_with(|| display_dir(old));
        }
    }

    fn finish(self, workdir: &Path) -> Vec<SelectedUnit> {
        self.units
            .into_iter()
            .map(|(path, (state, renamed_from, reasons))| SelectedUnit {
                absolute: absolute_in(workdir, &path),
                path: display_dir(&path),
                state,
                renamed_from,
                reasons: reasons.into_iter().collect(),
            })
            .collect()
    }
}

fn display_dir(dir: &Path) -> PathBuf {
    if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir.to_owned()
    }
}

/// The marked directories the changes touched: each changed file selects
/// the nearest ancestor directory that holds a marker file (or held one in
/// the merge base, which makes it a deleted unit). A rename selects the
/// units on both sides; a marker file moved to another unit directory gives
/// the new one `renamed_from`. The old one, when no marker file is left
/// there, is deleted all the same: git pairs a deleted file with an added
/// one by similarity alone, and two units made from one template look
/// alike, so a pairing must never hide a deletion. Files owned by no unit
/// select nothing.
pub fn select_owning_dirs(
    changes: &[ChangedFile],
    workdir: &Path,
    dirs: &(impl UnitDirs + ?Sized),
) -> Vec<SelectedUnit> {
    let mut owners = Owners {
        dirs,
        memo: HashMap::new(),
    };
    let mut selection = Selection::default();
    let mut moves = Vec::new();
    for change in changes {
        let new_owner = owners.of_file(&change.path);
        if let Some(owner) = &new_owner {
            selection.add(&owner.dir, owner.state, change);
        }
        let ChangeStatus::Renamed { from } = &change.status else {
            continue;
        };
        let Some(old_owner) = owners.of_file(from) else {
            continue;
        };
        if new_owner.as_ref() == Some(&old_owner) {
            continue;
        }
        // The file left its old unit too, which may now be gone.
        selection.add(&old_owner.dir, old_owner.state, change);
        if let Some(new_owner) = new_owner
            && dirs.is_marker_file(from)
            && dirs.is_marker_file(&change.path)
            && from.parent() == Some(old_owner.dir.as_path())
            && change.path.parent() == Some(new_owner.dir.as_path())
            && old_owner.state == UnitState::Deleted
        {
            moves.push((old_owner.dir, new_owner.dir));
        }
    }
    for (old, new) in moves {
        selection.mark_move(&old, &new);
    }
    selection.finish(workdir)
}

/// The unit files the changes touched, `is_unit_file` saying which paths
/// (relative to the work tree) are units. A unit file renamed to another
/// unit path is reported at its new path with `renamed_from`; one moved to
/// a path that is no unit is reported deleted, and one moved in is new.
pub fn select_unit_files(
    changes: &[ChangedFile],
    workdir: &Path,
    is_unit_file: impl Fn(&Path) -> bool,
) -> Vec<SelectedUnit> {
    let mut selection = Selection::default();
    let mut moves = Vec::new();
    for change in changes {
        let renamed_from = match &change.status {
            ChangeStatus::Renamed { from } => Some(from),
            _ => None,
        };
        if is_unit_file(&change.path) {
            let state = match change.status {
                ChangeStatus::Deleted => UnitState::Deleted,
                _ => UnitState::Present,
            };
            selection.add(&change.path, state, change);
        }
        if let Some(from) = renamed_from
            && is_unit_file(from)
        {
            selection.add(from, UnitState::Deleted, change);
            if is_unit_file(&change.path) {
                moves.push((from.clone(), change.path.clone()));
            }
        }
    }
    for (old, new) in moves {
        selection.merge_move(&old, &new);
    }
    selection.finish(workdir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Skill directories given as sets instead of a disk and a tree.
    struct FakeDirs {
        now: HashSet<PathBuf>,
        before: HashSet<PathBuf>,
    }

    impl FakeDirs {
        fn new(now: &[&str], before: &[&str]) -> Self {
            Self {
                now: now.iter().map(PathBuf::from).collect(),
                before: before.iter().map(PathBuf::from).collect(),
            }
        }
    }

    impl UnitDirs for FakeDirs {
        fn is_unit_dir(&self, dir: &Path) -> bool {
            self.now.contains(dir)
        }
        fn was_unit_dir(&self, dir: &Path) -> bool {
            self.before.contains(dir)
        }
        fn is_marker_file(&self, file: &Path) -> bool {
            file.file_name().is_some_and(|name| name == "SKILL.md")
        }
    }

    /// A registry's declarations, as the contract side defines them.
    fn is_declaration(path: &Path) -> bool {
        path.parent() == Some(Path::new("commands"))
            && path.extension().is_some_and(|extension| {
                extension == "json" || extension == "yaml" || extension == "yml"
            })
    }

    fn change(path: &str, status: ChangeStatus) -> ChangedFile {
        ChangedFile {
            path: PathBuf::from(path),
            status,
        }
    }

    fn renamed(from: &str, to: &str) -> ChangedFile {
        change(
            to,
            ChangeStatus::Renamed {
                from: PathBuf::from(from),
            },
        )
    }

    fn paths(units: &[SelectedUnit]) -> Vec<(String, UnitState)> {
        units
            .iter()
            .map(|unit| (unit.path.to_string_lossy().into_owned(), unit.state))
            .collect()
    }

    #[test]
    fn any_file_inside_a_skill_selects_the_nearest_skill() {
        let dirs = FakeDirs::new(&["skills/outer", "skills/outer/inner"], &[]);
        let changes = [
            change("skills/outer/inner/scripts/run.sh", ChangeStatus::Modified),
            change("skills/outer/README.md", ChangeStatus::Untracked),
            change("docs/guide.md", ChangeStatus::Modified),
        ];
        let units = select_owning_dirs(&changes, Path::new("/repo"), &dirs);
        assert_eq!(
            paths(&units),
            [
                ("skills/outer".into(), UnitState::Present),
                ("skills/outer/inner".into(), UnitState::Present),
            ]
        );
        assert_eq!(units[1].absolute, Path::new("/repo/skills/outer/inner"));
        assert_eq!(units[1].reasons, [changes[0].clone()]);
    }

    #[test]
    fn a_skill_at_the_root_of_the_work_tree_is_dot() {
        let dirs = FakeDirs::new(&[""], &[]);
        let units = select_owning_dirs(
            &[change("SKILL.md", ChangeStatus::Modified)],
            Path::new("/repo"),
            &dirs,
        );
        assert_eq!(paths(&units), [(".".into(), UnitState::Present)]);
        assert_eq!(units[0].absolute, Path::new("/repo"));
    }

    #[test]
    fn a_skill_whose_skill_file_is_gone_is_deleted() {
        let dirs = FakeDirs::new(&[], &["skills/old"]);
        let changes = [
            change("skills/old/SKILL.md", ChangeStatus::Deleted),
            change("skills/old/scripts/x.sh", ChangeStatus::Deleted),
        ];
        let units = select_owning_dirs(&changes, Path::new("/repo"), &dirs);
        assert_eq!(paths(&units), [("skills/old".into(), UnitState::Deleted)]);
        assert_eq!(units[0].reasons.len(), 2);
    }

    #[test]
    fn deleting_a_file_inside_a_surviving_skill_selects_it_present() {
        let dirs = FakeDirs::new(&["skills/a"], &["skills/a"]);
        let units = select_owning_dirs(
            &[change("skills/a/references/old.md", ChangeStatus::Deleted)],
            Path::new("/repo"),
            &dirs,
        );
        assert_eq!(paths(&units), [("skills/a".into(), UnitState::Present)]);
    }

    #[test]
    fn a_skill_moved_whole_is_checked_at_its_new_place_and_deleted_at_the_old() {
        let dirs = FakeDirs::new(&["skills/new"], &["skills/old"]);
        let changes = [
            renamed("skills/old/SKILL.md", "skills/new/SKILL.md"),
            renamed("skills/old/scripts/x.sh", "skills/new/scripts/x.sh"),
        ];
        let units = select_owning_dirs(&changes, Path::new("/repo"), &dirs);
        assert_eq!(
            paths(&units),
            [
                ("skills/new".into(), UnitState::Present),
                ("skills/old".into(), UnitState::Deleted),
            ]
        );
        assert_eq!(units[0].renamed_from, Some(PathBuf::from("skills/old")));
        assert_eq!(units[0].reasons.len(), 2);
        assert_eq!(units[1].reasons.len(), 2);
    }

    #[test]
    fn a_file_moved_between_skills_selects_both() {
        let dirs = FakeDirs::new(&["skills/a", "skills/b"], &["skills/a", "skills/b"]);
        let units = select_owning_dirs(
            &[renamed("skills/a/notes.md", "skills/b/notes.md")],
            Path::new("/repo"),
            &dirs,
        );
        assert_eq!(
            paths(&units),
            [
                ("skills/a".into(), UnitState::Present),
                ("skills/b".into(), UnitState::Present),
            ]
        );
        assert!(units.iter().all(|unit| unit.renamed_from.is_none()));
    }

    #[test]
    fn a_skill_file_moved_out_of_a_surviving_skill_is_not_a_move() {
        // skills/a still has a skill.md, so it is present; the SKILL.md that
        // left it founded skills/b.
        let dirs = FakeDirs::new(&["skills/a", "skills/b"], &["skills/a"]);
        let units = select_owning_dirs(
            &[renamed("skills/a/SKILL.md", "skills/b/SKILL.md")],
            Path::new("/repo"),
            &dirs,
        );
        assert_eq!(units.len(), 2);
        assert!(units.iter().all(|unit| unit.renamed_from.is_none()));
    }

    #[test]
    fn unowned_files_select_nothing() {
        let dirs = FakeDirs::new(&["skills/a"], &[]);
        let units = select_owning_dirs(
            &[change("src/main.rs", ChangeStatus::Modified)],
            Path::new("/repo"),
            &dirs,
        );
        assert!(units.is_empty());
    }

    #[test]
    fn declarations_are_files_directly_in_the_registry() {
        let changes = [
            change("commands/deploy.json", ChangeStatus::Modified),
            change("commands/notes.txt", ChangeStatus::Modified),
            change("commands/nested/x.json", ChangeStatus::Added),
            change("commands/old.yaml", ChangeStatus::Deleted),
            renamed("commands/a.yml", "commands/b.yml"),
            renamed("commands/gone.json", "archive/gone.json"),
            renamed("drafts/new.json", "commands/new.json"),
        ];
        let units = select_unit_files(&changes, Path::new("/repo"), is_declaration);
        assert_eq!(
            paths(&units),
            [
                ("commands/b.yml".into(), UnitState::Present),
                ("commands/deploy.json".into(), UnitState::Present),
                ("commands/gone.json".into(), UnitState::Deleted),
                ("commands/new.json".into(), UnitState::Present),
                ("commands/old.yaml".into(), UnitState::Deleted),
            ]
        );
        assert_eq!(units[0].renamed_from, Some(PathBuf::from("commands/a.yml")));
        assert_eq!(units[3].renamed_from, None);
    }

    #[test]
    fn a_declaration_name_reused_by_a_rename_stays_present() {
        let changes = [
            renamed("commands/a.json", "commands/b.json"),
            renamed("commands/c.json", "commands/a.json"),
        ];
        let units = select_unit_files(&changes, Path::new("/repo"), is_declaration);
        assert_eq!(
            paths(&units),
            [
                ("commands/a.json".into(), UnitState::Present),
                ("commands/b.json".into(), UnitState::Present),
            ]
        );
        assert_eq!(
            units[0].renamed_from,
            Some(PathBuf::from("commands/c.json"))
        );
        assert_eq!(
            units[1].renamed_from,
            Some(PathBuf::from("commands/a.json"))
        );
    }

    #[test]
    fn selected_units_serialize_with_their_reasons() {
        let dirs = FakeDirs::new(&["skills/new"], &["skills/old"]);
        let units = select_owning_dirs(
            &[renamed("skills/old/SKILL.md", "skills/new/SKILL.md")],
            Path::new("/repo"),
            &dirs,
        );
        let json = serde_json::to_value(&units).unwrap();
        assert_eq!(
            json,
            serde_json::json!([{
                "path": "skills/new",
                "absolute": "/repo/skills/new",
                "state": "present",
                "renamed_from": "skills/old",
                "reasons": [{
                    "path": "skills/new/SKILL.md",
                    "status": "renamed",
                    "from": "skills/old/SKILL.md"
                }]
            }, {
                "path": "skills/old",
                "absolute": "/repo/skills/old",
                "state": "deleted",
                "renamed_from": null,
                "reasons": [{
                    "path": "skills/new/SKILL.md",
                    "status": "renamed",
                    "from": "skills/old/SKILL.md"
                }]
            }])
        );
    }
}
