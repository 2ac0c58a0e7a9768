//! `aigent::vcs` over real git repositories, built with libgit2 in temp
//! dirs so that no global git config, HOME or `git` program is involved.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::git::isolate_git_config;
use aigent::registry::changed::changed_declarations;
use aigent::skill::changed::changed_skills;
use aigent::vcs::{
    BaseSource, ChangeOptions, ChangeStatus, ChangedFile, CompareTo, Repo, SelectedUnit, UnitState,
    VcsError, VcsErrorKind,
};
use git2::{BranchType, IndexAddOption, Oid, Repository, RepositoryInitOptions, Signature, Time};
use tempfile::TempDir;

struct Fixture {
    dir: TempDir,
    repo: Repository,
}

fn signature() -> Signature<'static> {
    Signature::new("Test", "test@example.invalid", &Time::new(1_700_000_000, 0)).unwrap()
}

fn skill_md(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use it for {name}.\n---\n\n# {name}\n\n{extra}\n"
    )
}

impl Fixture {
    fn new(initial_branch: &str) -> Self {
        isolate_git_config();
        let dir = tempfile::Builder::new()
            .prefix("aigent-vcs-")
            .tempdir()
            .unwrap();
        let repo = Repository::init_opts(
            dir.path(),
            RepositoryInitOptions::new().initial_head(initial_branch),
        )
        .unwrap();
        Self { dir, repo }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, relative: &str, contents: &str) {
        let path = self.path().join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    fn remove(&self, relative: &str) {
        let path = self.path().join(relative);
        if path.is_dir() {
            fs::remove_dir_all(path).unwrap();
        } else {
            fs::remove_file(path).unwrap();
        }
    }

    fn rename(&self, from: &str, to: &str) {
        let to = self.path().join(to);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::rename(self.path().join(from), to).unwrap();
    }

    /// `git add -A`.
    fn stage_all(&self) {
        let mut index = self.repo.index().unwrap();
        index.add_all(["*"], IndexAddOption::DEFAULT, None).unwrap();
        index.update_all(["*"], None).unwrap();
        index.write().unwrap();
    }

    /// `git add PATH` for one file (or `git rm --cached` when it is gone).
    fn stage(&self, relative: &str) {
        let mut index = self.repo.index().unwrap();
        if self.path().join(relative).exists() {
            index.add_path(Path::new(relative)).unwrap();
        } else {
            index.remove_path(Path::new(relative)).unwrap();
        }
        index.write().unwrap();
    }

    /// Commits the index on HEAD.
    fn commit(&self, message: &str) -> Oid {
        let mut index = self.repo.index().unwrap();
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        let parent = self
            .repo
            .head()
            .ok()
            .map(|head| head.peel_to_commit().unwrap());
        let parents: Vec<_> = parent.iter().collect();
        let sig = signature();
        self.repo
            .commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
            .unwrap()
    }

    fn commit_all(&self, message: &str) -> Oid {
        self.stage_all();
        self.commit(message)
    }

    /// `git switch -c NAME` (the work tree already matches HEAD).
    fn switch_new_branch(&self, name: &str) {
        let head = self.repo.head().unwrap().peel_to_commit().unwrap();
        self.repo.branch(name, &head, false).unwrap();
        self.repo.set_head(&format!("refs/heads/{name}")).unwrap();
    }

    fn open(&self) -> Repo {
        Repo::discover(self.path()).unwrap()
    }
}

fn file(path: &str, status: ChangeStatus) -> ChangedFile {
    ChangedFile {
        path: PathBuf::from(path),
        status,
    }
}

fn renamed(from: &str, to: &str) -> ChangedFile {
    file(
        to,
        ChangeStatus::Renamed {
            from: PathBuf::from(from),
        },
    )
}

fn unit<'a>(units: &'a [SelectedUnit], path: &str) -> &'a SelectedUnit {
    units
        .iter()
        .find(|unit| unit.path == Path::new(path))
        .unwrap_or_else(|| panic!("{path} not selected; selected: {units:#?}"))
}

fn unit_paths(units: &[SelectedUnit]) -> Vec<String> {
    units
        .iter()
        .map(|unit| unit.path.to_string_lossy().into_owned())
        .collect()
}

/// A `main` with seven skills (one already broken) and a `feature` branch
/// that touches five of them in every way git knows, plus one new skill.
fn feature_branch_fixture() -> Fixture {
    let fx = Fixture::new("main");
    fx.write(".gitignore", "*.log\nbuild/\n");
    fx.write("README.md", "# skills\n");
    fx.write("skills/alpha/SKILL.md", &skill_md("alpha", ""));
    fx.write("skills/alpha/scripts/run.sh", "echo alpha\n");
    fx.write("skills/beta/SKILL.md", &skill_md("beta", ""));
    fx.write("skills/beta/references/guide.md", "beta guide\n");
    fx.write("skills/gamma/SKILL.md", &skill_md("gamma", ""));
    fx.write("skills/broken/SKILL.md", "no frontmatter at all\n");
    fx.write("skills/doomed/SKILL.md", &skill_md("doomed", ""));
    fx.write("skills/doomed/scripts/x.sh", "echo doomed\n");
    fx.write("skills/mover/SKILL.md", &skill_md("mover", "It moves."));
    fx.write("skills/mover/references/a.md", "mover reference\n");
    fx.write("skills/epsilon/SKILL.md", &skill_md("epsilon", ""));
    fx.commit_all("base");

    fx.switch_new_branch("feature");
    // Committed on the branch: a script inside alpha, doomed deleted, mover
    // renamed to moved.
    fx.write("skills/alpha/scripts/run.sh", "echo alpha, improved\n");
    fx.remove("skills/doomed");
    fx.commit_all("alpha, doomed");
    fx.rename("skills/mover", "skills/moved");
    fx.commit_all("move mover");
    // Staged, not committed: a reference inside beta.
    fx.write("skills/beta/references/guide.md", "beta guide, staged\n");
    fx.stage("skills/beta/references/guide.md");
    // Unstaged: gamma's SKILL.md, and a file no skill owns.
    fx.write(
        "skills/gamma/SKILL.md",
        &skill_md("gamma", "Unstaged edit."),
    );
    fx.write("README.md", "# skills, edited\n");
    // Untracked: a new skill.
    fx.write("skills/fresh/SKILL.md", &skill_md("fresh", ""));
    fx.write("skills/fresh/scripts/a.sh", "echo fresh\n");
    // Ignored: must not count.
    fx.write("skills/epsilon/debug.log", "noise\n");
    fx.write("build/generated/SKILL.md", &skill_md("generated", ""));
    fx
}

#[test]
fn exactly_the_touched_skills_are_selected_with_their_reasons() {
    let fx = feature_branch_fixture();
    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();

    assert_eq!(changed.base.source, BaseSource::Main);
    assert_eq!(changed.base.revision.as_deref(), Some("main"));
    assert_eq!(changed.base.head_branch.as_deref(), Some("feature"));
    let main = fx.repo.revparse_single("main").unwrap().id().to_string();
    assert_eq!(changed.base.merge_base.as_deref(), Some(main.as_str()));

    assert_eq!(
        changed.changes,
        [
            file("README.md", ChangeStatus::Modified),
            file("skills/alpha/scripts/run.sh", ChangeStatus::Modified),
            file("skills/beta/references/guide.md", ChangeStatus::Modified),
            file("skills/doomed/SKILL.md", ChangeStatus::Deleted),
            file("skills/doomed/scripts/x.sh", ChangeStatus::Deleted),
            file("skills/fresh/SKILL.md", ChangeStatus::Untracked),
            file("skills/fresh/scripts/a.sh", ChangeStatus::Untracked),
            file("skills/gamma/SKILL.md", ChangeStatus::Modified),
            renamed("skills/mover/SKILL.md", "skills/moved/SKILL.md"),
            renamed(
                "skills/mover/references/a.md",
                "skills/moved/references/a.md"
            ),
        ]
    );

    assert_eq!(
        unit_paths(&changed.units),
        [
            "skills/alpha",
            "skills/beta",
            "skills/doomed",
            "skills/fresh",
            "skills/gamma",
            "skills/moved",
            "skills/mover",
        ]
    );
    let present: Vec<_> = changed.present().map(|unit| unit.path.clone()).collect();
    assert!(!present.contains(&PathBuf::from("skills/doomed")));
    assert!(!present.contains(&PathBuf::from("skills/broken")));

    let alpha = unit(&changed.units, "skills/alpha");
    assert_eq!(alpha.state, UnitState::Present);
    assert_eq!(alpha.absolute, changed.workdir.join("skills/alpha"));
    assert!(alpha.absolute.join("SKILL.md").is_file());
    assert_eq!(
        alpha.reasons,
        [file("skills/alpha/scripts/run.sh", ChangeStatus::Modified)]
    );

    let beta = unit(&changed.units, "skills/beta");
    assert_eq!(
        beta.reasons,
        [file(
            "skills/beta/references/guide.md",
            ChangeStatus::Modified
        )]
    );

    let doomed = unit(&changed.units, "skills/doomed");
    assert_eq!(doomed.state, UnitState::Deleted);
    assert_eq!(doomed.reasons.len(), 2);
    assert_eq!(
        changed.deleted().map(|unit| &unit.path).collect::<Vec<_>>(),
        [Path::new("skills/doomed"), Path::new("skills/mover")]
    );

    let fresh = unit(&changed.units, "skills/fresh");
    assert_eq!(fresh.state, UnitState::Present);
    assert!(
        fresh
            .reasons
            .iter()
            .all(|reason| reason.status == ChangeStatus::Untracked)
    );

    let moved = unit(&changed.units, "skills/moved");
    assert_eq!(moved.state, UnitState::Present);
    assert_eq!(moved.renamed_from, Some(PathBuf::from("skills/mover")));
    assert_eq!(moved.reasons.len(), 2);
}

#[test]
fn the_report_serializes_base_units_and_reasons() {
    let fx = feature_branch_fixture();
    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    let json = serde_json::to_value(&changed).unwrap();
    assert_eq!(json["base"]["source"], "main");
    assert_eq!(json["base"]["revision"], "main");
    assert!(json["base"]["merge_base"].as_str().unwrap().len() >= 40);
    let moved = json["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|unit| unit["path"] == "skills/moved")
        .unwrap();
    assert_eq!(moved["state"], "present");
    assert_eq!(moved["renamed_from"], "skills/mover");
    assert_eq!(moved["reasons"][0]["status"], "renamed");
    assert_eq!(moved["reasons"][0]["from"], "skills/mover/SKILL.md");
}

#[test]
fn detached_head_falls_back_to_the_default_base() {
    let fx = feature_branch_fixture();
    let head = fx.repo.head().unwrap().peel_to_commit().unwrap().id();
    fx.repo.set_head_detached(head).unwrap();

    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    assert_eq!(changed.base.source, BaseSource::Main);
    assert_eq!(changed.base.head_branch, None);
    assert_eq!(
        changed.base.head.as_deref(),
        Some(head.to_string().as_str())
    );
    // The same work is on top of the same merge base.
    assert!(
        changed
            .units
            .iter()
            .any(|unit| unit.path == Path::new("skills/alpha"))
    );
    assert!(
        changed
            .units
            .iter()
            .any(|unit| unit.path == Path::new("skills/moved"))
    );
}

#[test]
fn an_upstream_is_preferred_when_set() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.write("skills/two/SKILL.md", &skill_md("two", ""));
    fx.commit_all("base");
    fx.switch_new_branch("feature");
    fx.write("skills/one/notes.md", "pushed already\n");
    let pushed = fx.commit_all("pushed");
    fx.write("skills/two/notes.md", "not pushed yet\n");
    fx.commit_all("local");

    fx.repo
        .remote("origin", "https://example.invalid/skills.git")
        .unwrap();
    fx.repo
        .reference("refs/remotes/origin/feature", pushed, true, "test")
        .unwrap();
    fx.repo
        .find_branch("feature", BranchType::Local)
        .unwrap()
        .set_upstream(Some("origin/feature"))
        .unwrap();

    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    assert_eq!(changed.base.source, BaseSource::Upstream);
    assert_eq!(changed.base.revision.as_deref(), Some("origin/feature"));
    assert!(
        changed
            .base
            .describe()
            .starts_with("origin/feature (upstream of feature), merge base ")
    );
    assert_eq!(
        changed.base.merge_base.as_deref(),
        Some(pushed.to_string().as_str())
    );
    assert_eq!(unit_paths(&changed.units), ["skills/two"]);
}

#[test]
fn origin_head_comes_before_local_main() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    let first = fx.commit_all("first");
    fx.write("skills/two/SKILL.md", &skill_md("two", ""));
    fx.commit_all("second");
    // origin's default branch is one commit behind local main.
    fx.repo
        .reference("refs/remotes/origin/main", first, true, "test")
        .unwrap();
    fx.repo
        .reference_symbolic(
            "refs/remotes/origin/HEAD",
            "refs/remotes/origin/main",
            true,
            "test",
        )
        .unwrap();

    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    assert_eq!(changed.base.source, BaseSource::OriginHead);
    assert_eq!(changed.base.revision.as_deref(), Some("origin/HEAD"));
    assert_eq!(unit_paths(&changed.units), ["skills/two"]);
}

#[test]
fn without_main_the_base_falls_back_to_master_then_origin_master() {
    let fx = Fixture::new("master");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.commit_all("first");
    fx.switch_new_branch("feature");
    fx.write("skills/one/more.md", "more\n");
    fx.commit_all("second");

    let base = fx.open().resolve_base(None).unwrap();
    assert_eq!(base.source, BaseSource::Master);
    assert_eq!(base.revision.as_deref(), Some("master"));

    // Only a remote-tracking master left, as in a CI checkout.
    let master = fx.repo.revparse_single("master").unwrap().id();
    fx.repo
        .reference("refs/remotes/origin/master", master, true, "test")
        .unwrap();
    fx.repo
        .find_branch("master", BranchType::Local)
        .unwrap()
        .delete()
        .unwrap();
    let base = fx.open().resolve_base(None).unwrap();
    assert_eq!(base.source, BaseSource::Master);
    assert_eq!(base.revision.as_deref(), Some("origin/master"));
    assert_eq!(base.merge_base, Some(master.to_string()));
}

#[test]
fn no_default_base_is_a_not_found_error_that_says_to_pass_base() {
    let fx = Fixture::new("trunk");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.commit_all("first");

    let error = fx.open().resolve_base(None).unwrap_err();
    assert!(matches!(error, VcsError::NoDefaultBase { .. }), "{error:?}");
    assert_eq!(error.kind(), VcsErrorKind::NotFound);
    assert_eq!(error.exit_code(), 5);
    let message = error.to_string();
    assert!(message.contains("upstream of trunk"), "{message}");
    assert!(message.contains("origin/HEAD"), "{message}");
    assert!(message.contains("master"), "{message}");
    assert!(error.hint().unwrap().contains("--base"));
}

#[test]
fn on_the_base_branch_itself_only_uncommitted_work_counts() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.write("skills/two/SKILL.md", &skill_md("two", ""));
    let head = fx.commit_all("first");
    fx.write("skills/two/SKILL.md", &skill_md("two", "Edited."));

    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    assert_eq!(changed.base.source, BaseSource::Main);
    assert_eq!(changed.base.merge_base, Some(head.to_string()));
    assert_eq!(unit_paths(&changed.units), ["skills/two"]);

    let clean = Fixture::new("main");
    clean.write("skills/one/SKILL.md", &skill_md("one", ""));
    clean.commit_all("first");
    let changed = changed_skills(clean.path(), Some("HEAD"), &ChangeOptions::default()).unwrap();
    assert!(changed.changes.is_empty());
    assert!(changed.units.is_empty());
}

#[test]
fn explicit_bases_take_any_revspec() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    let first = fx.commit_all("first");
    fx.write("skills/two/SKILL.md", &skill_md("two", ""));
    let second = fx.commit_all("second");
    fx.write("skills/three/SKILL.md", &skill_md("three", ""));
    fx.commit_all("third");
    let first_commit = fx.repo.find_commit(first).unwrap();
    fx.repo
        .tag_lightweight("v1", first_commit.as_object(), false)
        .unwrap();
    let repo = fx.open();

    for (spec, expected) in [
        ("HEAD~2", first),
        ("HEAD~1", second),
        ("v1", first),
        (first.to_string().as_str(), first),
        (&first.to_string()[..10], first),
    ] {
        let base = repo.resolve_base(Some(spec)).unwrap();
        assert_eq!(base.source, BaseSource::Explicit);
        assert_eq!(base.revision.as_deref(), Some(spec));
        assert_eq!(base.merge_base, Some(expected.to_string()), "{spec}");
    }
    let base = repo.resolve_base(Some("HEAD~1")).unwrap();
    let changes = repo
        .changed_files(&base, &ChangeOptions::default())
        .unwrap();
    assert_eq!(
        changes,
        [file("skills/three/SKILL.md", ChangeStatus::Added)]
    );
}

#[test]
fn an_unknown_explicit_base_is_a_typed_not_found_error() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.commit_all("first");
    let repo = fx.open();

    for spec in ["no-such-branch", "origin/main", "HEAD~5", "deadbeef"] {
        let error = repo.resolve_base(Some(spec)).unwrap_err();
        assert!(
            matches!(&error, VcsError::UnknownRevision { revision, .. } if revision == spec),
            "{spec}: {error:?}"
        );
        assert_eq!(error.exit_code(), 5);
        assert!(error.to_string().contains(spec));
    }

    let error = repo.resolve_base(Some("HEAD^{tree}")).unwrap_err();
    assert!(matches!(error, VcsError::NotACommit { .. }), "{error:?}");
    assert_eq!(error.exit_code(), 5);
}

#[test]
fn outside_a_repository_is_a_typed_precondition_error() {
    isolate_git_config();
    let dir = tempfile::tempdir().unwrap();
    // The temp dir must not itself sit inside some repository.
    assert!(Repository::discover(dir.path()).is_err());

    let error = changed_skills(dir.path(), None, &ChangeOptions::default()).unwrap_err();
    assert!(
        matches!(error, VcsError::NotARepository { .. }),
        "{error:?}"
    );
    assert_eq!(error.kind(), VcsErrorKind::Precondition);
    assert_eq!(error.exit_code(), 4);
    assert!(error.to_string().contains("not inside a git repository"));

    let missing = dir.path().join("missing");
    let error = Repo::discover(&missing).unwrap_err();
    assert!(matches!(error, VcsError::PathNotFound { .. }), "{error:?}");
    assert_eq!(error.exit_code(), 5);
}

#[test]
fn a_bare_repository_has_no_work_tree() {
    isolate_git_config();
    let dir = tempfile::tempdir().unwrap();
    Repository::init_bare(dir.path()).unwrap();
    let error = Repo::discover(dir.path()).unwrap_err();
    assert!(
        matches!(error, VcsError::BareRepository { .. }),
        "{error:?}"
    );
    assert_eq!(error.exit_code(), 4);
}

#[test]
fn discovery_starts_from_a_subdirectory_or_a_file() {
    let fx = feature_branch_fixture();
    let root = fx.open();
    let from_dir = Repo::discover(&fx.path().join("skills/alpha/scripts")).unwrap();
    let from_file = Repo::discover(&fx.path().join("skills/alpha/SKILL.md")).unwrap();
    assert_eq!(from_dir.workdir(), root.workdir());
    assert_eq!(from_file.workdir(), root.workdir());
    assert_eq!(
        root.relative_path(&fx.path().join("skills/alpha")).unwrap(),
        Path::new("skills/alpha")
    );
    assert_eq!(root.relative_path(fx.path()).unwrap(), Path::new(""));
    let outside = tempfile::tempdir().unwrap();
    let error = root.relative_path(outside.path()).unwrap_err();
    assert!(
        matches!(error, VcsError::OutsideWorkTree { .. }),
        "{error:?}"
    );
}

#[test]
fn a_repository_with_no_commits_counts_every_file_as_new() {
    let fx = Fixture::new("main");
    fx.write(".gitignore", "*.log\n");
    fx.write("skills/staged/SKILL.md", &skill_md("staged", ""));
    fx.stage("skills/staged/SKILL.md");
    fx.write("skills/loose/SKILL.md", &skill_md("loose", ""));
    fx.write("skills/loose/trace.log", "ignored\n");

    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    assert_eq!(changed.base.source, BaseSource::Unborn);
    assert_eq!(changed.base.revision, None);
    assert_eq!(changed.base.merge_base, None);
    assert_eq!(changed.base.head, None);
    assert_eq!(changed.base.head_branch.as_deref(), Some("main"));
    assert!(changed.base.describe().contains("no commits yet"));
    assert_eq!(
        changed.changes,
        [
            file(".gitignore", ChangeStatus::Untracked),
            file("skills/loose/SKILL.md", ChangeStatus::Untracked),
            file("skills/staged/SKILL.md", ChangeStatus::Added),
        ]
    );
    assert_eq!(
        unit_paths(&changed.units),
        ["skills/loose", "skills/staged"]
    );

    // No commit exists to name, so an explicit base is unknown.
    let error = fx.open().resolve_base(Some("main")).unwrap_err();
    assert_eq!(error.exit_code(), 5, "{error:?}");
}

#[test]
fn an_orphan_branch_shares_no_history_with_an_explicit_base() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.commit_all("first");
    fx.repo.set_head("refs/heads/orphan").unwrap();

    let repo = fx.open();
    let error = repo.resolve_base(Some("main")).unwrap_err();
    assert!(matches!(error, VcsError::NoMergeBase { .. }), "{error:?}");
    assert_eq!(error.exit_code(), 4);
    // Without --base, an unborn HEAD compares against nothing.
    assert_eq!(repo.resolve_base(None).unwrap().source, BaseSource::Unborn);
}

#[test]
fn unrelated_histories_have_no_merge_base() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.commit_all("first");
    // A second root commit on another branch.
    let sig = signature();
    let mut builder = fx.repo.treebuilder(None).unwrap();
    let blob = fx.repo.blob(b"elsewhere\n").unwrap();
    builder.insert("other.md", blob, 0o100644).unwrap();
    let tree = fx.repo.find_tree(builder.write().unwrap()).unwrap();
    fx.repo
        .commit(Some("refs/heads/other"), &sig, &sig, "root", &tree, &[])
        .unwrap();

    let error = fx.open().resolve_base(Some("other")).unwrap_err();
    match &error {
        VcsError::NoMergeBase { base, shallow } => {
            assert_eq!(base, "other");
            assert!(!shallow);
        }
        other => panic!("expected NoMergeBase, got {other:?}"),
    }
    assert_eq!(error.kind(), VcsErrorKind::Precondition);
    assert!(
        error
            .to_string()
            .contains("`other` and HEAD share no history")
    );
}

#[test]
fn an_unstaged_directory_move_is_followed_as_a_rename() {
    let fx = Fixture::new("main");
    fx.write(
        "skills/wander/SKILL.md",
        &skill_md("wander", "Far and wide."),
    );
    fx.write("skills/wander/references/map.md", "a map of wandering\n");
    fx.commit_all("first");
    fx.rename("skills/wander", "skills/wandered");

    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    assert_eq!(
        changed.changes,
        [
            renamed("skills/wander/SKILL.md", "skills/wandered/SKILL.md"),
            renamed(
                "skills/wander/references/map.md",
                "skills/wandered/references/map.md"
            ),
        ]
    );
    assert_eq!(
        unit_paths(&changed.units),
        ["skills/wander", "skills/wandered"]
    );
    assert_eq!(changed.units[0].state, UnitState::Deleted);
    assert_eq!(
        changed.units[1].renamed_from,
        Some(PathBuf::from("skills/wander"))
    );
}

#[test]
fn a_deleted_skill_file_with_leftovers_is_a_deleted_skill() {
    let fx = Fixture::new("main");
    fx.write("skills/husk/SKILL.md", &skill_md("husk", ""));
    fx.write("skills/husk/scripts/left.sh", "echo left behind\n");
    fx.commit_all("first");
    fx.remove("skills/husk/SKILL.md");

    let changed = changed_skills(fx.path(), None, &ChangeOptions::default()).unwrap();
    assert_eq!(unit_paths(&changed.units), ["skills/husk"]);
    assert_eq!(changed.units[0].state, UnitState::Deleted);
    assert_eq!(changed.present().count(), 0);
}

#[test]
fn change_options_limit_collection_to_paths() {
    let fx = feature_branch_fixture();
    let repo = fx.open();
    let base = repo.resolve_base(None).unwrap();
    let changes = repo
        .changed_files(
            &base,
            &ChangeOptions {
                paths: vec![PathBuf::from("skills/beta"), PathBuf::from("skills/fresh")],
                ..ChangeOptions::default()
            },
        )
        .unwrap();
    assert_eq!(
        changes,
        [
            file("skills/beta/references/guide.md", ChangeStatus::Modified),
            file("skills/fresh/SKILL.md", ChangeStatus::Untracked),
            file("skills/fresh/scripts/a.sh", ChangeStatus::Untracked),
        ]
    );
}

#[test]
fn compared_to_the_index_only_committed_and_staged_work_counts() {
    let fx = feature_branch_fixture();
    let options = ChangeOptions {
        compare_to: CompareTo::Index,
        ..ChangeOptions::default()
    };
    let changed = changed_skills(fx.path(), None, &options).unwrap();
    assert_eq!(
        unit_paths(&changed.units),
        [
            "skills/alpha",
            "skills/beta",
            "skills/doomed",
            "skills/moved",
            "skills/mover"
        ]
    );
    assert!(
        changed
            .changes
            .iter()
            .all(|change| change.status != ChangeStatus::Untracked)
    );
    assert_eq!(
        unit(&changed.units, "skills/moved").renamed_from,
        Some(PathBuf::from("skills/mover"))
    );
}

#[test]
fn compared_to_head_only_committed_work_counts() {
    let fx = feature_branch_fixture();
    let options = ChangeOptions {
        compare_to: CompareTo::Head,
        ..ChangeOptions::default()
    };
    let changed = changed_skills(fx.path(), None, &options).unwrap();
    assert_eq!(
        changed.changes,
        [
            file("skills/alpha/scripts/run.sh", ChangeStatus::Modified),
            file("skills/doomed/SKILL.md", ChangeStatus::Deleted),
            file("skills/doomed/scripts/x.sh", ChangeStatus::Deleted),
            renamed("skills/mover/SKILL.md", "skills/moved/SKILL.md"),
            renamed(
                "skills/mover/references/a.md",
                "skills/moved/references/a.md"
            ),
        ]
    );
    assert_eq!(
        unit_paths(&changed.units),
        [
            "skills/alpha",
            "skills/doomed",
            "skills/moved",
            "skills/mover"
        ]
    );

    let scoped = ChangeOptions {
        compare_to: CompareTo::Head,
        paths: vec![PathBuf::from("skills/alpha")],
    };
    let changed = changed_skills(fx.path(), None, &scoped).unwrap();
    assert_eq!(unit_paths(&changed.units), ["skills/alpha"]);
}

#[test]
fn compared_to_head_follows_trees_that_become_files_and_back() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.write("skills/one/extra/deep/a.md", "a\n");
    fx.write("skills/one/extra/deep/b.md", "b\n");
    fx.write("notes", "a file that becomes a directory\n");
    fx.commit_all("first");
    fx.switch_new_branch("feature");
    fx.remove("skills/one/extra");
    fx.write("skills/one/extra", "now a file\n");
    fx.remove("notes");
    fx.write("notes/inside.md", "now a directory\n");
    fx.commit_all("swap");

    let repo = fx.open();
    let base = repo.resolve_base(Some("main")).unwrap();
    let head = ChangeOptions {
        compare_to: CompareTo::Head,
        ..ChangeOptions::default()
    };
    let from_trees = repo.changed_files(&base, &head).unwrap();
    // The work tree is clean, so all three comparisons agree.
    let from_workdir = repo
        .changed_files(&base, &ChangeOptions::default())
        .unwrap();
    assert_eq!(from_trees, from_workdir);
    assert_eq!(
        from_trees,
        [
            file("notes", ChangeStatus::Deleted),
            file("notes/inside.md", ChangeStatus::Added),
            file("skills/one/extra", ChangeStatus::Added),
            file("skills/one/extra/deep/a.md", ChangeStatus::Deleted),
            file("skills/one/extra/deep/b.md", ChangeStatus::Deleted),
        ]
    );
}

#[test]
fn compared_to_head_an_unborn_branch_has_no_committed_work() {
    let fx = Fixture::new("main");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.stage("skills/one/SKILL.md");
    let options = ChangeOptions {
        compare_to: CompareTo::Head,
        ..ChangeOptions::default()
    };
    let changed = changed_skills(fx.path(), None, &options).unwrap();
    assert_eq!(changed.base.source, BaseSource::Unborn);
    assert!(changed.changes.is_empty());
}

#[test]
fn declarations_changed_in_a_registry() {
    let fx = Fixture::new("main");
    fx.write("commands/deploy.json", "{\"name\": \"deploy\"}\n");
    fx.write("commands/rollback.yaml", "name: rollback\n");
    fx.write(
        "commands/status.yml",
        "name: status\nhelp: long enough to rename\n",
    );
    fx.write("commands/README.txt", "about the registry\n");
    fx.write("skills/one/SKILL.md", &skill_md("one", ""));
    fx.commit_all("first");
    fx.switch_new_branch("feature");
    fx.write("commands/deploy.json", "{\"name\": \"deploy\", \"x\": 1}\n");
    fx.remove("commands/rollback.yaml");
    fx.rename("commands/status.yml", "commands/state.yml");
    fx.write("commands/new.json", "{\"name\": \"new\"}\n");
    fx.write("commands/README.txt", "edited\n");
    fx.write("skills/one/notes.md", "not a declaration\n");

    let changed =
        changed_declarations(&fx.path().join("commands"), None, &ChangeOptions::default()).unwrap();
    assert_eq!(
        unit_paths(&changed.units),
        [
            "commands/deploy.json",
            "commands/new.json",
            "commands/rollback.yaml",
            "commands/state.yml",
        ]
    );
    let state = unit(&changed.units, "commands/state.yml");
    assert_eq!(
        state.renamed_from,
        Some(PathBuf::from("commands/status.yml"))
    );
    assert_eq!(
        unit(&changed.units, "commands/rollback.yaml").state,
        UnitState::Deleted
    );
    // Collection was limited to the registry.
    assert!(
        changed
            .changes
            .iter()
            .all(|change| change.path.starts_with("commands"))
    );
}

/// A snapshot of the index or of HEAD answers from git's own records:
/// `..` and symbolic links are followed inside it, a file only in the work
/// tree is not there, and a path leaving the work tree is looked up on
/// disk.
#[cfg(unix)]
#[test]
fn snapshots_resolve_paths_as_git_stores_them() {
    let fx = Fixture::new("main");
    fx.write("skills/a/SKILL.md", &skill_md("a", ""));
    fx.write("docs/guide.md", "# Guide\n");
    std::os::unix::fs::symlink("../../docs", fx.path().join("skills/a/docs")).unwrap();
    std::os::unix::fs::symlink("loop", fx.path().join("skills/a/loop")).unwrap();
    fx.commit_all("base");
    fx.write("skills/a/untracked.md", "only on disk\n");
    fx.remove("docs/guide.md");

    let repo = fx.open();
    for compare_to in [CompareTo::Index, CompareTo::Head] {
        let snapshot = repo.snapshot(compare_to).unwrap();
        assert!(!snapshot.is_work_tree());
        let exists = |path: &str| snapshot.exists(Path::new(path));
        assert!(exists("skills/a/SKILL.md"), "{compare_to:?}");
        assert!(snapshot.is_file(Path::new("skills/a/SKILL.md")));
        assert!(exists("skills/a"));
        assert!(!snapshot.is_file(Path::new("skills/a")));
        assert!(exists("skills/a/../../docs/guide.md"), "{compare_to:?}");
        assert!(exists("skills/a/docs/guide.md"), "through a symlink");
        assert!(snapshot.is_file(Path::new("skills/a/docs/guide.md")));
        assert!(!exists("skills/a/untracked.md"), "not in git");
        assert!(!exists("skills/a/loop"), "a symlink loop ends");
        assert!(!exists("skills/a/SKILL.md/x"), "not through a file");
        assert!(!exists("skills/a/bad\0name"));
        // Out of the work tree: the disk decides.
        let name = fx.dir.path().file_name().unwrap().to_str().unwrap();
        assert!(exists(&format!("../{name}")));
        assert!(!exists("../no-such-directory-here"));

        let read = snapshot
            .read(Path::new("skills/a/docs/guide.md"), 1024)
            .unwrap();
        assert_eq!(read, b"# Guide\n");
        assert!(
            snapshot
                .read(Path::new("skills/a/docs/guide.md"), 3)
                .is_err()
        );
        assert!(snapshot.read(Path::new("skills/a"), 1024).is_err());
    }
    let work_tree = repo.snapshot(CompareTo::WorkTree).unwrap();
    assert!(work_tree.is_work_tree());
    assert!(work_tree.exists(Path::new("skills/a/untracked.md")));
    assert!(!work_tree.exists(Path::new("docs/guide.md")));
}
