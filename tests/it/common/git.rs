//! Real git repositories in temp dirs, built with libgit2 (no `git`
//! program, no user git config), for the `--changed` tests.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Once;

use git2::{IndexAddOption, Oid, Repository, RepositoryInitOptions, Signature, Time};
use serde_json::Value;

use super::{Run, Sandbox};

/// Keeps this test process's libgit2 away from the developer's config.
pub fn isolate_git_config() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Under target/, so repeated runs leave nothing in the system temp dir.
        let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("git-noconfig");
        fs::create_dir_all(&empty).expect("create empty config dir");
        for level in [
            git2::ConfigLevel::Global,
            git2::ConfigLevel::XDG,
            git2::ConfigLevel::System,
        ] {
            // SAFETY: runs once, before this process opens any repository.
            unsafe { git2::opts::set_search_path(level, &empty) }.expect("set search path");
        }
    });
}

pub fn skill_md(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use it for {name}.\n---\n\n# {name}\n"
    )
}

/// A repository inside a sandbox; the binary runs with the sandbox's HOME.
pub struct Fixture {
    pub sandbox: Sandbox,
    pub repo: Repository,
}

impl Fixture {
    pub fn new() -> Self {
        isolate_git_config();
        let sandbox = Sandbox::new();
        let repo = Repository::init_opts(
            sandbox.join("repo"),
            RepositoryInitOptions::new().initial_head("main"),
        )
        .unwrap();
        Self { sandbox, repo }
    }

    pub fn root(&self) -> PathBuf {
        self.sandbox.join("repo")
    }

    pub fn write(&self, relative: &str, contents: &str) {
        self.sandbox
            .write(Path::new("repo").join(relative), contents);
    }

    pub fn remove_dir(&self, relative: &str) {
        fs::remove_dir_all(self.root().join(relative)).unwrap();
    }

    pub fn remove_file(&self, relative: &str) {
        fs::remove_file(self.root().join(relative)).unwrap();
    }

    /// Commits what is staged, leaving the work tree as it is.
    pub fn commit_staged(&self, message: &str) -> Oid {
        let mut index = self.repo.index().unwrap();
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        self.commit_tree(&tree, message)
    }

    pub fn stage_all(&self) {
        let mut index = self.repo.index().unwrap();
        index.add_all(["*"], IndexAddOption::DEFAULT, None).unwrap();
        index.update_all(["*"], None).unwrap();
        index.write().unwrap();
    }

    pub fn stage(&self, relative: &str) {
        let mut index = self.repo.index().unwrap();
        index.add_path(Path::new(relative)).unwrap();
        index.write().unwrap();
    }

    pub fn commit_all(&self, message: &str) -> Oid {
        self.stage_all();
        self.commit_staged(message)
    }

    fn commit_tree(&self, tree: &git2::Tree<'_>, message: &str) -> Oid {
        let parent = self
            .repo
            .head()
            .ok()
            .map(|head| head.peel_to_commit().unwrap());
        let parents: Vec<_> = parent.iter().collect();
        let signature =
            Signature::new("Test", "test@example.invalid", &Time::new(1_700_000_000, 0)).unwrap();
        self.repo
            .commit(
                Some("HEAD"),
                &signature,
                &signature,
                message,
                tree,
                &parents,
            )
            .unwrap()
    }

    pub fn switch_new_branch(&self, name: &str) {
        let head = self.repo.head().unwrap().peel_to_commit().unwrap();
        self.repo.branch(name, &head, false).unwrap();
        self.repo.set_head(&format!("refs/heads/{name}")).unwrap();
    }

    /// Runs the binary in `dir` (relative to the repository) with json
    /// output.
    pub fn json_in(&self, dir: &str, args: &[&str]) -> (Run, Value) {
        let run = Run::of(
            self.sandbox
                .cmd()
                .current_dir(self.root().join(dir))
                .args(["--output", "json"])
                .args(args),
        );
        let envelope = run.envelope();
        (run, envelope)
    }

    pub fn json(&self, args: &[&str]) -> (Run, Value) {
        self.json_in("", args)
    }

    pub fn text(&self, args: &[&str]) -> Run {
        Run::of(
            self.sandbox
                .cmd()
                .current_dir(self.root())
                .args(["--output", "text"])
                .args(args),
        )
    }
}
