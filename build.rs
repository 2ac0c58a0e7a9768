//! Records the git commit aigent was built from, for `aigent --version`.
//! Nothing else is generated here: man pages and completions come from the
//! hidden `aigent generate` subcommand and are committed.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=AIGENT_GIT_HASH");
    if let Some(git_dir) = git_output(&["rev-parse", "--git-dir"]) {
        // Rebuild when HEAD moves (a commit, a checkout), not on every build.
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        println!("cargo:rerun-if-changed={git_dir}/refs/heads");
    }
    let hash = std::env::var("AIGENT_GIT_HASH")
        .ok()
        .or_else(|| git_output(&["rev-parse", "--short=12", "HEAD"]));
    if let Some(hash) = hash {
        println!("cargo:rustc-env=AIGENT_GIT_HASH={hash}");
    }
}

/// A git command's trimmed stdout, or `None` when git or the repository is
/// missing (a crates.io tarball, a machine without git).
fn git_output(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}
