//! Which path an installed entry names for aigent itself.
//!
//! The entry names aigent by an absolute path, not by a bare `aigent` looked
//! up on `PATH` each time the hook runs: the hook is a security check, and a
//! project (or the agent it guards) that puts another `aigent` earlier on
//! `PATH` must not be able to replace it. The path chosen is the one on
//! `PATH` that leads to this very binary when there is one (a package
//! manager's stable link, `/opt/homebrew/bin/aigent`, which survives
//! upgrades), else the running binary's own path.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The path that names `current_exe` best: an absolute `PATH` entry's
/// `aigent` that resolves to the same file, else `current_exe` itself.
pub fn default_program(current_exe: &Path, path_var: Option<&OsStr>) -> PathBuf {
    let Ok(real) = std::fs::canonicalize(current_exe) else {
        return current_exe.to_owned();
    };
    let name = current_exe.file_name().unwrap_or(OsStr::new("aigent"));
    path_var
        .into_iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|candidate| std::fs::canonicalize(candidate).is_ok_and(|found| found == real))
        .unwrap_or_else(|| current_exe.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn prefers_a_path_link_to_the_same_binary() {
        let dir = tempfile::tempdir().unwrap();
        let cellar = dir.path().join("cellar/1.0/bin");
        let bin = dir.path().join("bin");
        let other = dir.path().join("other");
        for made in [&cellar, &bin, &other] {
            std::fs::create_dir_all(made).unwrap();
        }
        let real = cellar.join("aigent");
        std::fs::write(&real, "").unwrap();
        std::fs::write(other.join("aigent"), "").unwrap();
        std::os::unix::fs::symlink(&real, bin.join("aigent")).unwrap();
        let path = std::env::join_paths([&other, &bin]).unwrap();
        assert_eq!(default_program(&real, Some(&path)), bin.join("aigent"));
        // Nothing on PATH leads to it: the binary's own path.
        let path = std::env::join_paths([&other]).unwrap();
        assert_eq!(default_program(&real, Some(&path)), real);
        // A relative PATH entry is never used.
        assert_eq!(default_program(&real, Some(OsStr::new("bin"))), real);
        assert_eq!(default_program(&real, None), real);
    }
}
