//! `--output sarif`: where the log's paths start (the log itself is
//! `aigent::report::findings`').

use std::path::PathBuf;

use aigent::report::sarif::Roots;
use aigent::vcs::Repo;

/// The current directory, and the source root (`%SRCROOT%`): the work tree
/// of the git repository holding the current directory, which is what code
/// scanning resolves paths against; outside a repository, the current
/// directory itself.
pub fn roots() -> Roots {
    let current_dir = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .unwrap_or_else(|_| PathBuf::from("/"));
    let source_root = Repo::discover(&current_dir)
        .map(|repo| repo.workdir().to_owned())
        .unwrap_or_else(|_| current_dir.clone());
    Roots {
        current_dir,
        source_root,
    }
}
