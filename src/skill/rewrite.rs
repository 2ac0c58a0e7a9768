//! Rewriting skill files in place, for `skill fmt` and `skill fix`: from
//! the paths a user gave to one result per skill file, each with its
//! diff, written atomically (or not at all).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::discover::{Discovery, Target, discover};
use super::place::{Places, ProfileChoice, ProfileSource};
use super::read::read_skill_file;
use crate::report::Diagnostic;

/// One repair made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repair {
    pub kind: RepairKind,
    /// The top-level key repaired.
    pub key: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairKind {
    QuotedValue,
    JoinedAllowedTools,
    MovedToMetadata,
    NameFromDirectory,
}

/// What happened to one skill file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Already as it should be.
    Unchanged,
    /// Rewritten on disk.
    Written,
    /// Would be rewritten (`--check`, `--diff`, `--dry-run`).
    WouldWrite,
    /// A rewrite was possible but is not safe to write (the result would
    /// not validate): the file is left as it is.
    Refused,
    /// The file could not be read, or the path holds no skill.
    Failed,
    /// The path does not exist.
    Missing,
}

/// The result for one skill file (or one path that holds none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileResult {
    #[serde(serialize_with = "super::paths::lossy_path")]
    pub path: PathBuf,
    pub status: Status,
    /// Why it failed or was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// A unified diff of the change, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// What `fix` repaired.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repairs: Vec<Repair>,
    /// What `fix` left for a person: the findings of the result.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<Diagnostic>,
    /// Repairs `fix` did not make, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_fixed: Vec<String>,
    /// The profile `fix` used (its `--profile` value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<&'static str>,
    /// Where that profile came from ([`ProfileSource`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile_source: Option<ProfileSource>,
}

impl FileResult {
    fn new(path: PathBuf, status: Status) -> Self {
        Self {
            path,
            status,
            message: None,
            diff: None,
            repairs: Vec::new(),
            left: Vec::new(),
            not_fixed: Vec::new(),
            profile: None,
            profile_source: None,
        }
    }

    fn failed(path: PathBuf, message: String) -> Self {
        Self {
            message: Some(message),
            ..Self::new(path, Status::Failed)
        }
    }
}

/// What a rewrite makes of one file's text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proposal {
    /// The new text (the same text when nothing changes).
    pub text: String,
    /// Not safe to write, and why (the file is left alone).
    pub refused: Option<String>,
    pub repairs: Vec<Repair>,
    pub left: Vec<Diagnostic>,
    pub not_fixed: Vec<String>,
    /// The profile the proposal was made with, when one was used.
    pub profile: Option<ProfileChoice>,
}

/// A whole run over many paths.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RewriteRun {
    pub files: Vec<FileResult>,
    /// Notes from discovery (depth cut off, unreadable directories).
    #[serde(skip)]
    pub notes: Vec<String>,
    /// A recursive search found no skill file.
    #[serde(skip)]
    pub found_nothing: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RewriteSummary {
    pub checked: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub failed: usize,
}

impl RewriteRun {
    pub fn summary(&self) -> RewriteSummary {
        let count = |wanted: &[Status]| {
            self.files
                .iter()
                .filter(|file| wanted.contains(&file.status))
                .count()
        };
        let failed = count(&[Status::Refused, Status::Failed]);
        RewriteSummary {
            checked: self.files.len() - count(&[Status::Missing]),
            changed: count(&[Status::Written, Status::WouldWrite]),
            unchanged: count(&[Status::Unchanged]),
            failed,
        }
    }

    pub fn missing(&self) -> impl Iterator<Item = &FileResult> {
        self.files
            .iter()
            .filter(|file| file.status == Status::Missing)
    }
}

/// Makes a [`Proposal`] from a skill file's text, its directory and what
/// is known of the places of the run's skills.
pub type Propose<'a> = dyn Fn(&str, &Path, &Places) -> Result<Proposal, String> + Sync + 'a;

/// Runs `propose` over every skill file that `paths` name (every one below
/// them with `recursive`). With `write`, each changed file is replaced
/// atomically; without, nothing on disk changes.
pub fn rewrite_paths(
    paths: &[PathBuf],
    recursive: bool,
    write: bool,
    propose: &Propose<'_>,
) -> RewriteRun {
    use rayon::prelude::*;
    let Discovery {
        targets,
        notes,
        walked_roots,
        claude_plugin_dirs,
    } = discover(paths, recursive);
    let places = Places::walked(&walked_roots, &claude_plugin_dirs);
    let found_nothing = recursive
        && !targets
            .iter()
            .any(|t| matches!(t, Target::SkillFile { .. }));
    let files = targets
        .par_iter()
        .map(|target| rewrite_target(target, write, propose, &places))
        .collect();
    RewriteRun {
        files,
        notes,
        found_nothing,
    }
}

fn rewrite_target(
    target: &Target,
    write: bool,
    propose: &Propose<'_>,
    places: &Places,
) -> FileResult {
    let (file, directory) = match target {
        Target::SkillFile { file, directory } => (file, directory),
        Target::Missing { path } => {
            return FileResult {
                message: Some(format!("{} does not exist", path.display())),
                ..FileResult::new(path.clone(), Status::Missing)
            };
        }
        Target::MissingSkillFile { directory } => {
            return FileResult::failed(
                directory.clone(),
                format!("no SKILL.md (or skill.md) in {}", directory.display()),
            );
        }
        Target::NotASkill { path } => {
            return FileResult::failed(
                path.clone(),
                format!(
                    "{} is neither a skill directory nor a SKILL.md file",
                    path.display()
                ),
            );
        }
        Target::Unreadable { path, reason } => {
            return FileResult::failed(
                path.clone(),
                format!("cannot read {}: {reason}", path.display()),
            );
        }
    };
    let bytes = match read_skill_file(file) {
        Ok(bytes) => bytes,
        Err(problem) => return FileResult::failed(file.clone(), problem.message),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return FileResult::failed(file.clone(), "the skill file is not UTF-8".to_owned());
    };
    let proposal = match propose(text, directory, places) {
        Ok(proposal) => proposal,
        Err(message) => return FileResult::failed(file.clone(), message),
    };
    let mut result = FileResult {
        repairs: proposal.repairs,
        left: proposal.left,
        not_fixed: proposal.not_fixed,
        profile: proposal.profile.map(|choice| choice.profile.as_str()),
        profile_source: proposal.profile.map(|choice| choice.source),
        ..FileResult::new(file.clone(), Status::Unchanged)
    };
    if proposal.text == text {
        if let Some(reason) = proposal.refused {
            result.status = Status::Refused;
            result.message = Some(reason);
        }
        return result;
    }
    result.diff = Some(unified_diff(text, &proposal.text, file));
    if let Some(reason) = proposal.refused {
        result.status = Status::Refused;
        result.message = Some(reason);
        return result;
    }
    if !write {
        result.status = Status::WouldWrite;
        return result;
    }
    match write_in_place(file, proposal.text.as_bytes()) {
        Ok(()) => result.status = Status::Written,
        Err(err) => {
            result.status = Status::Failed;
            result.message = Some(format!("cannot write {}: {err}", file.display()));
        }
    }
    result
}

/// A unified diff with three lines of context, `a/` and `b/` headers.
pub fn unified_diff(old: &str, new: &str, path: &Path) -> String {
    let name = path.to_string_lossy();
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// Replaces the file a path names (through symlinks, so a linked skill
/// file stays a link) atomically, keeping its permissions.
fn write_in_place(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let real = fs::canonicalize(file)?;
    let permissions = fs::metadata(&real)?.permissions();
    crate::fsutil::write_atomic_with_permissions(&real, bytes, Some(permissions))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_what_changes_and_keeps_the_mode() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("a");
        fs::create_dir(&skill).unwrap();
        let file = skill.join("SKILL.md");
        fs::write(&file, "old\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        }
        let upper = |text: &str, _: &Path, _: &Places| {
            Ok(Proposal {
                text: text.to_uppercase(),
                ..Proposal::default()
            })
        };
        let dry = rewrite_paths(std::slice::from_ref(&skill), false, false, &upper);
        assert_eq!(dry.files[0].status, Status::WouldWrite);
        assert_eq!(fs::read_to_string(&file).unwrap(), "old\n");
        let diff = dry.files[0].diff.as_deref().unwrap();
        assert!(diff.contains("-old\n+OLD\n"), "{diff}");

        let run = rewrite_paths(std::slice::from_ref(&skill), false, true, &upper);
        assert_eq!(run.files[0].status, Status::Written);
        assert_eq!(fs::read_to_string(&file).unwrap(), "OLD\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let again = rewrite_paths(std::slice::from_ref(&skill), false, true, &upper);
        assert_eq!(again.files[0].status, Status::Unchanged);
        assert_eq!(again.summary().unchanged, 1);
    }

    #[test]
    fn refused_rewrites_are_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("SKILL.md");
        fs::write(&file, "old\n").unwrap();
        let refuse = |_: &str, _: &Path, _: &Places| {
            Ok(Proposal {
                text: "new\n".into(),
                refused: Some("no".into()),
                ..Proposal::default()
            })
        };
        let run = rewrite_paths(std::slice::from_ref(&file), false, true, &refuse);
        assert_eq!(run.files[0].status, Status::Refused);
        assert_eq!(fs::read_to_string(&file).unwrap(), "old\n");
        let missing = rewrite_paths(&[dir.path().join("nope")], false, true, &refuse);
        assert_eq!(missing.files[0].status, Status::Missing);
        assert_eq!(missing.summary().checked, 0);
    }
}
