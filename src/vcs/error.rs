//! Why a branch-aware check could not be carried out.
//!
//! Each error has a [`VcsErrorKind`], so the binary picks its exit code and
//! envelope code from the kind rather than from the message.

use std::path::PathBuf;

use crate::report::ErrorCode;

/// What went wrong, coarsely: what a caller branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VcsErrorKind {
    /// The environment lacks what the check needs: no repository, no work
    /// tree, no shared history. Exit 4.
    Precondition,
    /// A path or a revision that was named does not exist. Exit 5.
    NotFound,
    /// libgit2 or the file system failed underneath. Exit 1.
    Internal,
}

impl VcsErrorKind {
    /// The process exit code for this kind ([`crate::report::exit`]).
    pub fn exit_code(self) -> i32 {
        self.code().exit_code()
    }

    /// The envelope's `error.code`.
    pub fn code(self) -> ErrorCode {
        match self {
            VcsErrorKind::Precondition => ErrorCode::Precondition,
            VcsErrorKind::NotFound => ErrorCode::NotFound,
            VcsErrorKind::Internal => ErrorCode::GeneralError,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum VcsError {
    #[error("path {} does not exist", .path.display())]
    PathNotFound {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{} is not inside a git repository", .path.display())]
    NotARepository { path: PathBuf },

    #[error("the git repository at {} is bare: it has no work tree to check", .git_dir.display())]
    BareRepository { git_dir: PathBuf },

    #[error("the git repository containing {} is owned by another user, so git refuses to open it", .path.display())]
    UnsafeOwnership { path: PathBuf },

    #[error("{} is outside the repository work tree {}", .path.display(), .workdir.display())]
    OutsideWorkTree { path: PathBuf, workdir: PathBuf },

    #[error("unknown revision `{revision}`")]
    UnknownRevision {
        revision: String,
        #[source]
        source: git2::Error,
    },

    #[error("revision `{revision}` does not name a commit")]
    NotACommit { revision: String },

    #[error("no base revision found: tried {}", .tried.join(", "))]
    NoDefaultBase { tried: Vec<String> },

    #[error("`{base}` and HEAD share no history, so there is no merge base")]
    NoMergeBase {
        /// The base as named (`main`, `origin/HEAD`).
        base: String,
        /// The repository is a shallow clone, the likely cause.
        shallow: bool,
    },

    #[error("git: {0}")]
    Git(#[from] git2::Error),

    #[error("reading {}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl VcsError {
    pub fn kind(&self) -> VcsErrorKind {
        match self {
            VcsError::NotARepository { .. }
            | VcsError::BareRepository { .. }
            | VcsError::UnsafeOwnership { .. }
            | VcsError::OutsideWorkTree { .. }
            | VcsError::NoMergeBase { .. } => VcsErrorKind::Precondition,
            VcsError::PathNotFound { .. }
            | VcsError::UnknownRevision { .. }
            | VcsError::NotACommit { .. }
            | VcsError::NoDefaultBase { .. } => VcsErrorKind::NotFound,
            VcsError::Git(_) | VcsError::Io { .. } => VcsErrorKind::Internal,
        }
    }

    /// Shorthand for `self.kind().exit_code()`.
    pub fn exit_code(&self) -> i32 {
        self.kind().exit_code()
    }

    /// A next step for the person or agent reading the error, where one is
    /// known.
    pub fn hint(&self) -> Option<String> {
        match self {
            VcsError::NotARepository { .. } => Some(
                "run inside a git work tree, or drop --changed to check everything".into(),
            ),
            VcsError::BareRepository { .. } => {
                Some("run inside a checkout (a work tree) of the repository".into())
            }
            VcsError::UnsafeOwnership { path } => Some(format!(
                "if you trust it, run `git config --global --add safe.directory {}`",
                path.display()
            )),
            VcsError::UnknownRevision { .. } | VcsError::NotACommit { .. } => Some(
                "pass a branch, tag or commit that exists locally, e.g. --base origin/main (fetch it first if needed)".into(),
            ),
            VcsError::NoDefaultBase { .. } => Some(
                "pass --base REV, or set an upstream with `git branch --set-upstream-to`".into(),
            ),
            VcsError::NoMergeBase { shallow: true, .. } => Some(
                "the repository is a shallow clone; fetch the history (`git fetch --unshallow`, or `fetch-depth: 0` on actions/checkout)".into(),
            ),
            VcsError::NoMergeBase { shallow: false, .. } => {
                Some("pass a --base that shares history with HEAD".into())
            }
            VcsError::PathNotFound { .. }
            | VcsError::OutsideWorkTree { .. }
            | VcsError::Git(_)
            | VcsError::Io { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_map_to_the_documented_exit_codes() {
        let outside = VcsError::NotARepository {
            path: PathBuf::from("/tmp/x"),
        };
        assert_eq!(outside.exit_code(), 4);
        assert_eq!(outside.kind().code(), "PRECONDITION");

        let unknown = VcsError::UnknownRevision {
            revision: "nope".into(),
            source: git2::Error::from_str("not found"),
        };
        assert_eq!(unknown.exit_code(), 5);
        assert_eq!(unknown.kind().code(), "NOT_FOUND");
        assert!(unknown.to_string().contains("`nope`"));

        let no_base = VcsError::NoDefaultBase {
            tried: vec!["main".into(), "master".into()],
        };
        assert_eq!(no_base.exit_code(), 5);
        assert!(no_base.hint().unwrap().contains("--base"));

        let unrelated = VcsError::NoMergeBase {
            base: "main".into(),
            shallow: true,
        };
        assert_eq!(unrelated.exit_code(), 4);
        assert!(unrelated.hint().unwrap().contains("shallow"));
    }
}
