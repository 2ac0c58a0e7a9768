//! A git repository's control directory and hooks: git runs its hooks
//! and reads its config (`core.fsmonitor`, `core.pager`, aliases) from
//! `.git`, outside any sandbox, whenever an allowed `git commit` or `git
//! status` runs.
//!
//! - A file an agent puts in `.git` is code that runs later, so no command
//!   may write there without the person: not through a declared form's
//!   path, and not through a redirection.
//! - A hook that exists already runs whatever it runs: husky's hooks live
//!   in the project (`core.hooksPath`), and pre-commit's run linters whose
//!   configs are project files. Either way files the agent can change
//!   run, unconfined, under a `git commit`. So the git subcommands that run
//!   hooks are asked, not allowed, in a repository that has any.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use super::git_config;
use crate::fsutil::remembered;

/// The rule of a write into `.git`.
pub(super) const RULE: &str = "git_dir_write";

/// Whether writing `target`, named from `cwd` (where the command runs,
/// when known), lands in a `.git` directory: by a `.git` component as
/// written, in the directory the command runs in, or once the links of
/// its existing part are followed. Case is ignored, as macOS and Windows
/// file systems ignore it.
pub(super) fn writes_into_git_dir(target: &str, cwd: Option<&Path>) -> bool {
    let target = Path::new(target);
    if has_git_component(target) {
        return true;
    }
    let Some(cwd) = cwd else {
        return false;
    };
    let joined = cwd.join(target);
    has_git_component(&joined)
        || crate::guard::resolve_existing(&joined).is_some_and(|real| has_git_component(&real))
}

fn has_git_component(path: &Path) -> bool {
    path.components().any(|component| match component {
        Component::Normal(name) => is_git(name),
        _ => false,
    })
}

fn is_git(name: &OsStr) -> bool {
    name.eq_ignore_ascii_case(".git")
}

/// The reason given for a write into `.git`.
pub(super) fn message(target: &str) -> String {
    format!(
        "writes `{}` inside a `.git` directory, where git keeps the hooks and config it runs outside any sandbox; the person decides",
        super::cut(target)
    )
}

/// The rule of a git command in a repository whose own config names a
/// program git runs.
pub(super) const CONFIG_RULE: &str = "git_config_runs_code";

/// The rule of a git subcommand that would run the repository's hooks.
pub(super) const HOOKS_RULE: &str = "git_hooks";

/// git subcommands that run hooks (githooks(5)), directly or through the
/// commits, merges and checkouts they make.
const RUNS_HOOKS: &[&str] = &[
    "am",
    "checkout",
    "cherry-pick",
    "commit",
    "merge",
    "pull",
    "push",
    "rebase",
    "revert",
    "switch",
    "worktree",
];

/// The hooks git runs, by name (githooks(5)); a `.sample` is not one.
const HOOK_NAMES: &[&str] = &[
    "applypatch-msg",
    "commit-msg",
    "fsmonitor-watchman",
    "p4-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
    "p4-prepare-changelist",
    "post-applypatch",
    "post-checkout",
    "post-commit",
    "post-index-change",
    "post-merge",
    "post-receive",
    "post-rewrite",
    "post-update",
    "pre-applypatch",
    "pre-auto-gc",
    "pre-commit",
    "pre-merge-commit",
    "pre-push",
    "pre-rebase",
    "pre-receive",
    "prepare-commit-msg",
    "proc-receive",
    "push-to-checkout",
    "reference-transaction",
    "sendemail-validate",
    "update",
];

/// Whether `subcommand` of git runs hooks.
pub(super) fn runs_hooks(subcommand: &str) -> bool {
    RUNS_HOOKS.contains(&subcommand)
}

/// The hooks the other subcommands may run: one that writes the index
/// (`git status` refreshes it) runs `post-index-change`, one that updates
/// a ref runs `reference-transaction`, and `fetch` runs `gc --auto`, which
/// runs `pre-auto-gc`. These are asked only where such a hook exists:
/// asking every `git status` in a repository with a pre-commit hook would
/// teach people to stop reading the question.
pub(super) fn named_hooks(subcommand: &str) -> &'static [&'static str] {
    const INDEX: &[&str] = &["post-index-change"];
    const INDEX_AND_REFS: &[&str] = &["post-index-change", "reference-transaction"];
    const REFS: &[&str] = &["reference-transaction", "pre-auto-gc"];
    match subcommand {
        "status" | "diff" | "add" | "rm" | "mv" | "restore" | "apply" | "update-index"
        | "read-tree" => INDEX,
        "reset" | "stash" => INDEX_AND_REFS,
        "fetch" | "branch" | "tag" | "update-ref" | "remote" | "notes" | "replace" | "gc" => REFS,
        _ => &[],
    }
}

/// A hook git would run in the repository holding `cwd`: its path, as
/// found. Config is read from the repository, the user's files and the
/// system's, as git reads `core.hooksPath` (the last one set wins).
pub(super) fn installed_hook(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    installed_hook_of(cwd, home, None)
}

/// One of the hooks `names` that is installed in the repository holding
/// `cwd`, as [`installed_hook`] finds hooks.
pub(super) fn installed_named_hook(
    cwd: &Path,
    home: Option<&Path>,
    names: &[&str],
) -> Option<PathBuf> {
    installed_hook_of(cwd, home, Some(names))
}

/// Any hook (`names` is `None`), or one of `names`: a hooks directory
/// among the project's files counts whole for any hook, since the line
/// may add one; for named hooks, only one that is there.
fn installed_hook_of(cwd: &Path, home: Option<&Path>, names: Option<&[&str]>) -> Option<PathBuf> {
    let Repository {
        work_tree,
        common_dir,
        ..
    } = repository(cwd)?;
    let mut configs = vec![PathBuf::from("/etc/gitconfig")];
    if let Some(home) = home {
        configs.push(home.join(".gitconfig"));
    }
    match std::env::var_os("XDG_CONFIG_HOME").filter(|value| !value.is_empty()) {
        Some(xdg) => configs.push(PathBuf::from(xdg).join("git/config")),
        None => configs.extend(home.map(|home| home.join(".config/git/config"))),
    }
    configs.push(common_dir.join("config"));
    let hooks_path = configs
        .iter()
        .filter_map(|config| hooks_path_in(config))
        .next_back();
    let hooks = match hooks_path {
        Some(path) => {
            let path = match path.strip_prefix("~/") {
                Some(rest) => home.map(|home| home.join(rest))?,
                None => PathBuf::from(path),
            };
            work_tree.join(path)
        }
        None => common_dir.join("hooks"),
    };
    // Hooks among the project's files: the agent can add one in the very
    // line that commits.
    if names.is_none() && hooks.starts_with(&work_tree) && !hooks.starts_with(&common_dir) {
        return Some(hooks);
    }
    names
        .unwrap_or(HOOK_NAMES)
        .iter()
        .map(|name| hooks.join(name))
        .find(|hook| is_executable_file(hook))
}

/// A repository's work tree, its git directory (a linked worktree's own)
/// and the common git directory.
struct Repository {
    work_tree: PathBuf,
    git_dir: PathBuf,
    common_dir: PathBuf,
}

/// The repository holding `cwd` (a worktree's `.git` file and
/// `commondir` followed).
fn repository(cwd: &Path) -> Option<Repository> {
    let work_tree = cwd
        .ancestors()
        .find(|ancestor| remembered::is_present(ancestor.join(".git")))?;
    let dot_git = work_tree.join(".git");
    let git_dir = if dot_git.is_dir() {
        dot_git
    } else {
        let text = read_small(&dot_git)?;
        let target = text.lines().next()?.strip_prefix("gitdir:")?.trim();
        work_tree.join(target)
    };
    let common_dir = match read_small(&git_dir.join("commondir")) {
        Some(text) => git_dir.join(text.trim()),
        None => git_dir.clone(),
    };
    Some(Repository {
        work_tree: work_tree.to_path_buf(),
        git_dir,
        common_dir,
    })
}

/// Why git may run a program that the config of the repository holding
/// `directory` (the nearest existing directory up from it) names, even
/// for a read (`git status` runs `core.fsmonitor`, `git diff` a diff
/// driver, `git log` a pager), and the repository's work tree. The
/// repository's own files are read (`config`, the worktree's
/// `config.worktree`, and what they include): project code can write
/// them. The user's and the system's are the user's own choice. Keys in
/// `skip` (shown names) are passed over.
pub(super) fn config_runs_code(
    directory: &Path,
    home: Option<&Path>,
    skip: &[&str],
) -> Option<(git_config::Found, PathBuf)> {
    let existing = directory.ancestors().find(|ancestor| ancestor.is_dir())?;
    let repository = repository(existing)?;
    let configs = [
        repository.common_dir.join("config"),
        repository.git_dir.join("config.worktree"),
    ];
    git_config::runs_code(&configs, home, skip).map(|found| (found, repository.work_tree))
}

/// The value of `core.hooksPath` in one config file, if it sets one (the
/// last one set), read by the one config reader.
fn hooks_path_in(config: &Path) -> Option<String> {
    git_config::settings(config)?
        .into_iter()
        .filter(|setting| setting.name == "core.hookspath")
        .filter_map(|setting| setting.value)
        .next_back()
        .filter(|path| !path.is_empty())
}

/// Whether `name` is a local branch of the repository holding `cwd`: a
/// loose `refs/heads/NAME` file, or a line of `packed-refs`. A name git
/// would refuse as a branch (`..`, a leading `-` or `/`, a `.lock` part)
/// is none.
pub(super) fn is_local_branch(cwd: &Path, name: &str) -> bool {
    let valid = !name.is_empty()
        && name.len() <= 255
        && !name.starts_with(['-', '/'])
        && !name.ends_with(['/', '.'])
        && !name.contains("..")
        && !name.contains("//")
        && name
            .split('/')
            .all(|part| !part.starts_with('.') && !part.ends_with(".lock"))
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"._/#@+-".contains(&byte));
    let Some(Repository { common_dir, .. }) = valid.then(|| repository(cwd)).flatten() else {
        return false;
    };
    let loose = common_dir.join("refs/heads").join(name);
    if std::fs::symlink_metadata(&loose).is_ok_and(|metadata| metadata.is_file()) {
        return true;
    }
    let wanted = format!("refs/heads/{name}");
    read_small(&common_dir.join("packed-refs")).is_some_and(|packed| {
        packed
            .lines()
            .filter_map(|line| line.split_once(' '))
            .any(|(_, reference)| reference == wanted)
    })
}

/// A regular file of at most 1 MiB, as text; never blocks on a FIFO.
fn read_small(path: &Path) -> Option<String> {
    let metadata = std::fs::metadata(path).ok()?;
    if !metadata.is_file() || metadata.len() > 1 << 20 {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// The reason given for a git subcommand that would run `hook`.
pub(super) fn hooks_message(subcommand: &str, hook: &Path) -> String {
    format!(
        "`git {subcommand}` runs this repository's hooks ({}), outside any sandbox, and what they run can be project files the agent changes; the person decides",
        super::cut(&hook.display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_git_component_anywhere_is_found() {
        for target in [
            ".git/hooks/pre-commit",
            "./.git/config",
            "src/.git",
            ".GIT/hooks/x",
            "/work/p/.Git/info/exclude",
        ] {
            assert!(writes_into_git_dir(target, None), "{target}");
        }
        for target in [
            "src/main.rs",
            ".github/workflows/ci.yml",
            ".gitignore",
            "git/x",
        ] {
            assert!(!writes_into_git_dir(target, None), "{target}");
        }
    }

    #[test]
    fn the_directory_and_links_count() {
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        assert!(writes_into_git_dir(
            "hooks/pre-commit",
            Some(&root.join(".git"))
        ));
        std::os::unix::fs::symlink(root.join(".git/hooks"), root.join("h")).unwrap();
        assert!(writes_into_git_dir("h/pre-commit", Some(root)));
        assert!(!writes_into_git_dir("src/new.rs", Some(root)));
    }

    fn executable(path: &Path) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn hooks_are_found_in_git_dir_and_in_a_hooks_path() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n\tbare = false\n").unwrap();
        executable(&root.join(".git/hooks/pre-commit.sample"));
        assert_eq!(installed_hook(&root.join("src"), Some(home.path())), None);
        executable(&root.join(".git/hooks/pre-commit"));
        assert_eq!(
            installed_hook(&root.join("src"), Some(home.path())),
            Some(root.join(".git/hooks/pre-commit"))
        );
        // husky: the hooks are project files.
        std::fs::write(root.join(".git/config"), "[core]\n\thooksPath = .husky\n").unwrap();
        assert_eq!(
            installed_hook(root, Some(home.path())),
            Some(root.join(".husky"))
        );
        // A hooks path outside the project holds the user's own hooks.
        let own = home.path().join("hooks");
        std::fs::write(
            root.join(".git/config"),
            format!("[core]\n\thooksPath = {}\n", own.display()),
        )
        .unwrap();
        assert_eq!(installed_hook(root, Some(home.path())), None);
        executable(&own.join("pre-push"));
        assert_eq!(
            installed_hook(root, Some(home.path())),
            Some(own.join("pre-push"))
        );
    }

    fn configured_command(directory: &Path) -> Option<String> {
        config_runs_code(directory, None, &[]).and_then(|(found, _)| found.key().map(str::to_owned))
    }

    #[test]
    fn settings_that_run_commands_are_found() {
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        let found = |config: &str| {
            std::fs::write(root.join(".git/config"), config).unwrap();
            configured_command(&root.join("src"))
        };
        assert_eq!(found("[core]\n\tbare = false\n\tfsmonitor = true\n"), None);
        assert_eq!(
            found("[remote \"origin\"]\n\turl = x\n[pager]\n\tlog = false\n"),
            None
        );
        for (config, name) in [
            ("[core]\n\tfsmonitor = ./evil.sh\n", "core.fsmonitor"),
            ("[CORE]\n\tPager = less -R\n", "core.pager"),
            ("[diff \"x\"]\n\ttextconv = ./conv\n", "diff.*.textconv"),
            (
                "[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n",
                "filter.*.clean",
            ),
            ("[include]\n\tpath = ../shared.cfg\n", "include.path"),
            ("[pager]\n\tdiff = ./show\n", "pager.diff"),
            ("[diff.x]\n\tcommand = ./d\n", "diff.*.command"),
            ("[alias]\n\tst = !./x\n", "alias.st"),
        ] {
            assert_eq!(found(config).as_deref(), Some(name), "{config}");
        }
        // A directory not made yet is judged by the repository above it.
        std::fs::write(root.join(".git/config"), "[core]\n\tsshCommand = x\n").unwrap();
        assert_eq!(
            configured_command(&root.join("src/new/deeper")).as_deref(),
            Some("core.sshcommand")
        );
        let outside = tempfile::tempdir().unwrap();
        assert_eq!(configured_command(&outside.path().join("none")), None);
    }

    #[test]
    fn a_worktree_finds_the_common_hooks() {
        let project = tempfile::tempdir().unwrap();
        let main = project.path().join("main");
        let linked = project.path().join("linked");
        std::fs::create_dir_all(main.join(".git/worktrees/linked")).unwrap();
        std::fs::create_dir_all(&linked).unwrap();
        std::fs::write(
            linked.join(".git"),
            format!("gitdir: {}\n", main.join(".git/worktrees/linked").display()),
        )
        .unwrap();
        std::fs::write(main.join(".git/worktrees/linked/commondir"), "../..\n").unwrap();
        executable(&main.join(".git/hooks/post-checkout"));
        assert!(installed_hook(&linked, None).is_some());
    }
}
