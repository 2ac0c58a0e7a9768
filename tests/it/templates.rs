//! Argv templates wrapping a real CLI: the built-in `git-log` runs the real
//! `git log` in a temp repository, so the flag, joined, switch and `--`
//! forms are checked by the program that reads them.

use std::path::Path;

use git2::{Repository, RepositoryInitOptions, Signature, Time};

use crate::common::Run;
use crate::common::Sandbox;
use crate::common::git::isolate_git_config;

/// A repository whose history has two authors, and a file named `main`,
/// like the branch, so that a path read as a revision would show.
fn history(sandbox: &Sandbox) -> std::path::PathBuf {
    isolate_git_config();
    let root = sandbox.join("repo");
    let repo =
        Repository::init_opts(&root, RepositoryInitOptions::new().initial_head("main")).unwrap();
    let commits = [
        ("Alice", "README.md", "add readme"),
        ("Bob", "main", "add a file named main"),
        ("Alice", "src.txt", "add source"),
        ("Bob", "src.txt", "change source"),
    ];
    for (seconds, (author, file, message)) in commits.iter().enumerate() {
        let path = root.join(file);
        let previous = std::fs::read_to_string(&path).unwrap_or_default();
        std::fs::write(&path, format!("{previous}{message}\n")).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new(file)).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let when = Time::new(1_700_000_000 + i64::try_from(seconds).unwrap(), 0);
        let signature =
            Signature::new(author, &format!("{author}@example.invalid"), &when).unwrap();
        let parent = repo.head().ok().map(|head| head.peel_to_commit().unwrap());
        let parents: Vec<_> = parent.iter().collect();
        repo.commit(
            Some("HEAD"),
            &signature,
            &signature,
            message,
            &tree,
            &parents,
        )
        .unwrap();
    }
    root
}

/// `aigent run git-log ARGS` in the repository: the commit subjects that
/// git printed, newest first.
fn git_log(sandbox: &Sandbox, root: &Path, args: &[&str]) -> (Run, Vec<String>) {
    let run = Run::of(
        sandbox
            .cmd()
            .current_dir(root)
            .args(["--output", "json", "run", "git-log"])
            .args(args),
    );
    let subjects = run
        .stdout
        .lines()
        .map(|line| {
            line.split_once(' ')
                .map_or(line, |(_, subject)| subject)
                .to_owned()
        })
        .collect();
    (run, subjects)
}

#[test]
fn git_log_through_a_template_filters_by_author() {
    let sandbox = Sandbox::new();
    let root = history(&sandbox);
    let (run, subjects) = git_log(&sandbox, &root, &[]);
    run.assert_code(0);
    assert_eq!(
        subjects,
        [
            "change source",
            "add source",
            "add a file named main",
            "add readme"
        ],
        "{run}"
    );
    let (run, subjects) = git_log(&sandbox, &root, &["--author", "Alice"]);
    run.assert_code(0);
    assert_eq!(subjects, ["add source", "add readme"], "{run}");
    let (run, subjects) = git_log(&sandbox, &root, &["--author", "Bob", "--count", "1"]);
    run.assert_code(0);
    assert_eq!(subjects, ["change source"], "{run}");
    // The envelope on stderr shows the argv that ran.
    let envelope: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(
        envelope["data"]["argv"],
        serde_json::json!([
            "git",
            "--no-pager",
            "log",
            "--oneline",
            "--no-color",
            "-n",
            "1",
            "--author=Bob",
            "--"
        ]),
        "{run}"
    );
}

#[test]
fn a_path_after_the_double_dash_is_never_a_revision() {
    let sandbox = Sandbox::new();
    let root = history(&sandbox);
    // `main` is also the branch: as a revision it would list every commit.
    let (run, subjects) = git_log(&sandbox, &root, &["--path", "main"]);
    run.assert_code(0);
    assert_eq!(subjects, ["add a file named main"], "{run}");
    // A revision range given as a path finds no file, so nothing.
    let (run, subjects) = git_log(&sandbox, &root, &["--path", "HEAD~2..HEAD"]);
    run.assert_code(0);
    assert!(subjects.is_empty(), "{run}");
}

#[test]
fn a_glued_value_may_start_with_a_dash_and_a_standalone_one_may_not() {
    let sandbox = Sandbox::new();
    let root = history(&sandbox);
    // `--author=-x` is one word, so git reads it as the author pattern.
    let (run, subjects) = git_log(&sandbox, &root, &["--author", "-nobody"]);
    run.assert_code(0);
    assert!(subjects.is_empty(), "{run}");
    // The path stands alone: refused before anything runs.
    let run = Run::of(sandbox.cmd().current_dir(&root).args([
        "--output",
        "json",
        "run",
        "git-log",
        "--path",
        "--output=x",
    ]));
    run.assert_code(2);
    assert!(run.stderr.contains("option_injection"), "{run}");
    assert!(!root.join("x").exists());
}
