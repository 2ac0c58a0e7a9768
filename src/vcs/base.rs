//! Which commit the branch is compared against, and why.

use std::fmt;

use git2::{BranchType, ErrorClass, ErrorCode, Oid};
use serde::Serialize;

use super::error::VcsError;
use super::repo::Repo;

/// Why a base was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum BaseSource {
    /// `--base REV` was given.
    Explicit,
    /// The current branch's upstream (`branch.NAME.merge`).
    Upstream,
    /// `origin/HEAD`, the remote's default branch.
    OriginHead,
    /// `main`, or `origin/main` when there is no local `main`.
    Main,
    /// `master`, or `origin/master` when there is no local `master`.
    Master,
    /// HEAD has no commits yet: everything in the work tree is new.
    Unborn,
}

impl BaseSource {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for BaseSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The resolved comparison point: what the base is, why it was picked, and
/// where it meets HEAD.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Base {
    pub source: BaseSource,
    /// The revision as given, or the reference used in its short form
    /// (`origin/main`). `None` when HEAD is unborn.
    pub revision: Option<String>,
    /// The commit the base revision names.
    pub commit: Option<String>,
    /// The merge base of that commit and HEAD: what the work tree is
    /// compared against. `None` when HEAD is unborn (the empty tree).
    pub merge_base: Option<String>,
    /// HEAD's commit, `None` when unborn.
    pub head: Option<String>,
    /// The branch HEAD is on (`feature`), `None` when detached.
    pub head_branch: Option<String>,
    #[serde(skip)]
    pub(super) merge_base_oid: Option<Oid>,
}

impl Base {
    /// One line for people: `main (fallback: no upstream or origin/HEAD),
    /// merge base 1a2b3c4d5e6f`.
    pub fn describe(&self) -> String {
        let (Some(revision), Some(merge_base)) = (&self.revision, &self.merge_base) else {
            return "no commits yet: every file in the work tree is new".to_owned();
        };
        let why = match self.source {
            BaseSource::Explicit => "--base".to_owned(),
            BaseSource::Upstream => match &self.head_branch {
                Some(branch) => format!("upstream of {branch}"),
                None => "upstream".to_owned(),
            },
            BaseSource::OriginHead => "the remote's default branch".to_owned(),
            BaseSource::Main | BaseSource::Master => {
                "fallback: no upstream or origin/HEAD".to_owned()
            }
            BaseSource::Unborn => "unborn".to_owned(),
        };
        format!("{revision} ({why}), merge base {}", short(merge_base))
    }
}

fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// The defaults, in order, after the upstream: a name and the references
/// that may carry it (local first).
const DEFAULT_BASES: &[(BaseSource, &[&str])] = &[
    (BaseSource::OriginHead, &["refs/remotes/origin/HEAD"]),
    (
        BaseSource::Main,
        &["refs/heads/main", "refs/remotes/origin/main"],
    ),
    (
        BaseSource::Master,
        &["refs/heads/master", "refs/remotes/origin/master"],
    ),
];

impl Repo {
    /// Resolves the base: `explicit` (any revspec) when given, else the
    /// current branch's upstream, `origin/HEAD`, `main` (`origin/main`),
    /// `master` (`origin/master`), in that order; then the merge base of the
    /// base and HEAD.
    pub fn resolve_base(&self, explicit: Option<&str>) -> Result<Base, VcsError> {
        let head = match self.git.head() {
            Ok(head) => Some(head),
            Err(error) if matches!(error.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => {
                None
            }
            Err(error) => return Err(error.into()),
        };
        let head_branch = head
            .as_ref()
            .filter(|head| head.is_branch())
            .and_then(|head| head.shorthand().ok().map(str::to_owned));

        let (source, revision, commit) = match explicit {
            Some(spec) => {
                let commit = self.commit_of(spec)?;
                (BaseSource::Explicit, spec.to_owned(), commit)
            }
            None if head.is_none() => {
                return Ok(Base {
                    source: BaseSource::Unborn,
                    revision: None,
                    commit: None,
                    merge_base: None,
                    head: None,
                    head_branch: self.unborn_branch_name(),
                    merge_base_oid: None,
                });
            }
            None => self.default_base(head_branch.as_deref())?,
        };

        let Some(head) = head else {
            // An explicit base, but HEAD has no commits (a new repository or
            // an orphan branch): there is no history to share.
            return Err(VcsError::NoMergeBase {
                base: revision,
                shallow: false,
            });
        };
        let head_commit = head.peel_to_commit()?.id();
        let merge_base = match self.git.merge_base(commit, head_commit) {
            Ok(oid) => oid,
            Err(error) if error.code() == ErrorCode::NotFound => {
                return Err(VcsError::NoMergeBase {
                    base: revision,
                    shallow: self.git.is_shallow(),
                });
            }
            Err(error) => return Err(error.into()),
        };
        Ok(Base {
            source,
            revision: Some(revision),
            commit: Some(commit.to_string()),
            merge_base: Some(merge_base.to_string()),
            head: Some(head_commit.to_string()),
            head_branch,
            merge_base_oid: Some(merge_base),
        })
    }

    fn commit_of(&self, spec: &str) -> Result<Oid, VcsError> {
        let object = self
            .git
            .revparse_single(spec)
            .map_err(|source| match source.class() {
                // The disk or the object database failed: not the name's fault.
                ErrorClass::Os | ErrorClass::Odb | ErrorClass::Zlib => VcsError::Git(source),
                _ => VcsError::UnknownRevision {
                    revision: spec.to_owned(),
                    source,
                },
            })?;
        object
            .peel_to_commit()
            .map(|commit| commit.id())
            .map_err(|_| VcsError::NotACommit {
                revision: spec.to_owned(),
            })
    }

    fn default_base(
        &self,
        head_branch: Option<&str>,
    ) -> Result<(BaseSource, String, Oid), VcsError> {
        let mut tried = Vec::new();
        if let Some(branch) = head_branch {
            tried.push(format!("the upstream of {branch}"));
            // A missing upstream, or one whose remote-tracking ref is gone,
            // falls through to the defaults.
            if let Ok(upstream) = self
                .git
                .find_branch(branch, BranchType::Local)
                .and_then(|local| local.upstream())
            {
                let reference = upstream.get();
                if let Ok(commit) = reference.peel_to_commit() {
                    let name = reference.shorthand().unwrap_or(branch).to_owned();
                    return Ok((BaseSource::Upstream, name, commit.id()));
                }
            }
        }
        for (source, references) in DEFAULT_BASES {
            for name in *references {
                let short = name
                    .strip_prefix("refs/heads/")
                    .or_else(|| name.strip_prefix("refs/remotes/"))
                    .unwrap_or(name);
                tried.push(short.to_owned());
                if let Ok(reference) = self.git.find_reference(name)
                    && let Ok(commit) = reference.peel_to_commit()
                {
                    return Ok((*source, short.to_owned(), commit.id()));
                }
            }
        }
        Err(VcsError::NoDefaultBase { tried })
    }

    /// The branch an unborn HEAD points at (`main` in a fresh repository).
    fn unborn_branch_name(&self) -> Option<String> {
        let head = self.git.find_reference("HEAD").ok()?;
        let target = head.symbolic_target().ok()??;
        target.strip_prefix("refs/heads/").map(str::to_owned)
    }
}
