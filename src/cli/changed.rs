//! `--changed [--base REV] [--compare-to WHAT]`, shared by `skill validate`
//! and `schema lint`.

use clap::{Args, ValueEnum};

use aigent::vcs::{ChangedScope, CompareTo, VcsError};

use super::CliError;

#[derive(Debug, Args)]
pub struct ChangedArgs {
    /// Check only what this branch changed (git): since the merge base
    /// with the base revision
    #[arg(long)]
    pub changed: bool,

    /// The revision to compare with [default: the upstream, else
    /// origin/HEAD, main, master]
    #[arg(long, value_name = "REV", requires = "changed")]
    pub base: Option<String>,

    /// What counts as changed: committed, staged, unstaged and untracked
    /// work (work-tree), committed and staged (index), or committed only
    /// (head, the fastest)
    #[arg(
        long,
        value_enum,
        value_name = "WHAT",
        default_value_t = CompareToArg::WorkTree,
        requires = "changed"
    )]
    pub compare_to: CompareToArg,
}

impl ChangedArgs {
    /// The scope to compare, when `--changed` was given.
    pub fn scope(&self) -> Option<ChangedScope> {
        self.changed.then(|| ChangedScope {
            base: self.base.clone(),
            compare_to: self.compare_to.into(),
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareToArg {
    /// Everything not yet in the base: committed, staged, unstaged,
    /// untracked (stats every tracked file, like `git status`)
    WorkTree,
    /// Committed and staged work: for a pre-commit hook
    Index,
    /// Committed work only: for CI on a clean checkout
    Head,
}

impl From<CompareToArg> for CompareTo {
    fn from(arg: CompareToArg) -> Self {
        match arg {
            CompareToArg::WorkTree => CompareTo::WorkTree,
            CompareToArg::Index => CompareTo::Index,
            CompareToArg::Head => CompareTo::Head,
        }
    }
}

/// `--changed` could not tell what changed: the exit code and the envelope
/// code follow the error's kind (4 no repository, 5 unknown base).
pub fn vcs_error(err: VcsError) -> CliError {
    let kind = err.kind();
    let error = CliError::new(kind.exit_code(), kind.code(), err.to_string());
    match err.hint() {
        Some(hint) => error.with_hint(hint),
        None => error,
    }
}
