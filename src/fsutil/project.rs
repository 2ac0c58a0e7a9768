//! The project a directory is in: one rule for the hook ("inside the
//! project", `hook::judge::directory`) and for the sandbox (`$PROJECT`,
//! `exec::sandbox::resolve`).
//!
//! The project is the nearest directory at or above the one asked about
//! that holds `.git`: a directory (a repository's work tree) or a file (a
//! worktree's or a submodule's `gitdir:` link). The first `.git` found up
//! the way decides, and it decides against a project when it is not one
//! that a person of this user made:
//!
//! - `.git` is never opened, only looked at (`lstat`, then `stat`), so a
//!   FIFO cannot hang the walk. A symbolic link counts by what it leads
//!   to, as git follows it; a FIFO, socket or device, or a link that
//!   dangles, loops or leads to one, is no project.
//! - The directory holding it must be owned by this user (or root) and not
//!   writable by everyone: in `/tmp` (or any directory others may create
//!   names in) anyone can make a `.git`, and that would turn all of it
//!   into somebody's project. Git refuses a repository owned by another
//!   user for the same reason (`safe.directory`).
//!
//! Such a `.git` ends the walk with no project: nothing above it is tried,
//! so a planted or broken marker can only make the project smaller. The
//! answers come from [`super::remembered`], so within one hook judgement
//! each path is asked of the kernel once.

use std::path::{Path, PathBuf};

use super::remembered;

/// The project `directory` is in, or `None` when no `.git` up the way
/// makes one (see the module's rule). `directory` is walked as written
/// (resolve `..` first); the answer is one of its ancestors, or itself,
/// with its links not followed.
pub fn project_root(directory: &Path) -> Option<PathBuf> {
    let holder = directory
        .ancestors()
        .find(|ancestor| remembered::is_present(ancestor.join(".git")))?;
    (is_marker(&holder.join(".git")) && is_trusted(holder)).then(|| holder.to_path_buf())
}

/// A `.git` that is a directory or a regular file, its links followed.
fn is_marker(dot_git: &Path) -> bool {
    remembered::metadata(dot_git).is_ok_and(|meta| meta.is_dir() || meta.is_file())
}

/// A directory this user (or root) owns, that others cannot create names
/// in.
#[cfg(unix)]
fn is_trusted(directory: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = remembered::metadata(directory) else {
        return false;
    };
    let owner = meta.uid();
    (owner == 0 || owner == rustix::process::geteuid().as_raw()) && meta.mode() & 0o002 == 0
}

#[cfg(not(unix))]
fn is_trusted(directory: &Path) -> bool {
    remembered::metadata(directory).is_ok_and(|meta| meta.is_dir())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn the_nearest_git_directory_or_file_up_the_way_is_the_project() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        let project = root.join("project");
        let deep = project.join("crates/foo/src");
        std::fs::create_dir_all(&deep).unwrap();
        // No `.git` below the temporary directory: whatever holds it.
        let above = project_root(&root);
        assert_eq!(project_root(&deep), above);
        std::fs::create_dir(project.join(".git")).unwrap();
        assert_eq!(project_root(&deep).as_deref(), Some(project.as_path()));
        assert_eq!(project_root(&project).as_deref(), Some(project.as_path()));
        // A nested repository (a worktree, a submodule: `.git` is a file)
        // is its own project; above it, the outer one.
        let inner = project.join("crates/foo");
        std::fs::write(inner.join(".git"), "gitdir: ../../.git/worktrees/foo\n").unwrap();
        assert_eq!(project_root(&deep).as_deref(), Some(inner.as_path()));
        assert_eq!(
            project_root(&project.join("crates")).as_deref(),
            Some(project.as_path())
        );
    }

    #[test]
    fn a_git_that_is_no_repository_ends_the_walk_with_no_project() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        let inner = root.join("inner");
        let deep = inner.join("src");
        std::fs::create_dir_all(&deep).unwrap();
        let dot_git = inner.join(".git");
        // A FIFO: never opened (this would hang), and no project; the
        // outer repository is not tried either.
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &dot_git,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        assert_eq!(project_root(&deep), None);
        std::fs::remove_file(&dot_git).unwrap();
        // A link that dangles, or loops: none.
        std::os::unix::fs::symlink(root.join("missing"), &dot_git).unwrap();
        assert_eq!(project_root(&deep), None);
        std::fs::remove_file(&dot_git).unwrap();
        std::os::unix::fs::symlink(&dot_git, &dot_git).unwrap();
        assert_eq!(project_root(&deep), None);
        std::fs::remove_file(&dot_git).unwrap();
        // A link to a repository's directory counts, as git follows it.
        std::os::unix::fs::symlink(root.join(".git"), &dot_git).unwrap();
        assert_eq!(project_root(&deep).as_deref(), Some(inner.as_path()));
        std::fs::remove_file(&dot_git).unwrap();
        assert_eq!(project_root(&deep).as_deref(), Some(root.as_path()));
    }

    #[test]
    fn a_git_in_a_directory_anyone_can_write_is_no_project() {
        // `/tmp/.git`, made by anyone: not a project for everything in
        // `/tmp`.
        let root = tempfile::tempdir().unwrap();
        let shared = root.path().canonicalize().unwrap().join("shared");
        let deep = shared.join("work/src");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir(shared.join(".git")).unwrap();
        assert_eq!(project_root(&deep).as_deref(), Some(shared.as_path()));
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        assert_eq!(project_root(&deep), None);
    }

    #[test]
    fn answers_are_remembered_within_a_judgement() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().canonicalize().unwrap();
        let deep = project.join("src");
        std::fs::create_dir_all(&deep).unwrap();
        let above = project_root(&project);
        remembered::remembering(|| {
            assert_eq!(project_root(&deep), above);
            std::fs::create_dir(project.join(".git")).unwrap();
            // Asked once: the start of the judgement's answer stands.
            assert_eq!(project_root(&deep), above);
        });
        assert_eq!(project_root(&deep).as_deref(), Some(project.as_path()));
    }
}
