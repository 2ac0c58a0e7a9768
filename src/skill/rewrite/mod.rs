//! Rewriting skill files in place, for `skill fmt` and `skill fix`: from
//! the paths a user gave to one result per skill file, each with its
//! diff, written atomically (or not at all). [`fmt`] and [`fix`] propose
//! the new text of one file.

pub mod fix;
pub mod fmt;

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::fsutil::{ReadError, ReplaceError, ReplaceOptions, Rewritable};
use crate::report::Diagnostic;
use crate::skill::check::directory_name;
use crate::skill::codes;
use crate::skill::discover::{Discovery, Target, discover};
use crate::skill::place::{Places, ProfileChoice, ProfileSource};
use crate::skill::read::{MAX_FILE_BYTES, too_large};

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
    /// The frontmatter put in `skill fmt`'s canonical form.
    Formatted,
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
    /// Left alone, unread, with a warning `code`: the skill file or its
    /// directory is a symlink leading outside the tree given (`W010`).
    Skipped,
    /// The path does not exist.
    Missing,
}

/// A skill directory whose name is not a valid name, and the name `fix`
/// proposes for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DirRename {
    #[serde(serialize_with = "crate::skill::paths::lossy_path")]
    pub from: PathBuf,
    #[serde(serialize_with = "crate::skill::paths::lossy_path")]
    pub to: PathBuf,
    /// Renamed (`fix --rename-dir`), or only proposed.
    pub done: bool,
}

/// The result for one skill file (or one path that holds none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileResult {
    #[serde(serialize_with = "crate::skill::paths::lossy_path")]
    pub path: PathBuf,
    pub status: Status,
    /// The warning code of a skipped file (`W010`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
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
    /// The directory's rename, proposed or done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rename: Option<DirRename>,
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
            code: None,
            rename: None,
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
    /// The name the skill's directory should have (its own is not a valid
    /// name): renamed only on request.
    pub rename_dir: Option<String>,
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
    /// Left alone: a symlink out of the tree (`W010`).
    pub skipped: usize,
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
            checked: self.files.len() - count(&[Status::Missing, Status::Skipped]),
            changed: count(&[Status::Written, Status::WouldWrite]),
            unchanged: count(&[Status::Unchanged]),
            failed,
            skipped: count(&[Status::Skipped]),
        }
    }

    pub fn missing(&self) -> impl Iterator<Item = &FileResult> {
        self.files
            .iter()
            .filter(|file| file.status == Status::Missing)
    }
}

/// Where a skill file is, for [`Propose`].
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    /// The skill's directory: its links are looked up there.
    pub directory: &'a Path,
    /// The directory's name as the skill will have it: the new name when
    /// the directory is being renamed.
    pub directory_name: Option<&'a str>,
    /// What is known of the places of the run's skills.
    pub places: &'a Places,
}

/// Makes a [`Proposal`] from a skill file's text and where it is.
pub type Propose<'a> = dyn Fn(&str, &Site<'_>) -> Result<Proposal, String> + Sync + 'a;

/// How a rewrite runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RewriteOptions {
    /// Every skill below each path, not only the paths themselves.
    pub recursive: bool,
    /// Replace each changed file; without it nothing on disk changes.
    pub write: bool,
    /// Rename a skill directory whose name is not a valid name to the name
    /// the proposal gives ([`Proposal::rename_dir`]), refusing when that
    /// name is taken.
    pub rename_dirs: bool,
    /// Replace a file with more than one hard link (the other names keep
    /// the old contents), or one whose owner and group this process cannot
    /// keep; without it such a file is [`Status::Refused`].
    pub force: bool,
}

/// Runs `propose` over every skill file that `paths` name (every one below
/// them with `recursive`). With `write`, each changed file is replaced
/// atomically; without, nothing on disk changes.
///
/// Nothing is read or written through a symlink that leads outside the
/// tree a path stands for ([`tree_of`]): such a file is [`Status::Skipped`]
/// with `W010`. Each file is opened once, from its tree down, following no
/// symlink, and replaced through its directory's handle only while its
/// name still refers to the file that was read ([`Rewritable`]); otherwise
/// it is [`Status::Refused`], as is a file with other hard links or whose
/// owner cannot be kept, unless [`RewriteOptions::force`].
pub fn rewrite_paths(
    paths: &[PathBuf],
    options: RewriteOptions,
    propose: &Propose<'_>,
) -> RewriteRun {
    use rayon::prelude::*;
    let Discovery {
        targets,
        notes,
        walked_roots,
        claude_plugin_dirs,
    } = discover(paths, options.recursive);
    let places = Places::walked(&walked_roots, &claude_plugin_dirs);
    let trees: Vec<PathBuf> = paths.iter().filter_map(|path| tree_of(path)).collect();
    let found_nothing = options.recursive
        && !targets
            .iter()
            .any(|t| matches!(t, Target::SkillFile { .. }));
    let files = targets
        .par_iter()
        .map(|target| {
            rewrite_target(
                target,
                Run {
                    options,
                    propose,
                    places: &places,
                    trees: &trees,
                },
            )
        })
        .collect();
    RewriteRun {
        files,
        notes,
        found_nothing,
    }
}

/// The tree a given path stands for, canonical: the directory itself, or
/// for a skill file, or a path that is itself a symlink (`skills/*` in a
/// shell expands to links as well as directories), the directory holding
/// it. Symlinks in the path's other components are followed as given.
/// `None` when it cannot be resolved (it does not exist).
pub fn tree_of(path: &Path) -> Option<PathBuf> {
    // `skills/x/` names the link's target; `skills/x` the link itself.
    let path: PathBuf = path.components().collect();
    let metadata = fs::symlink_metadata(&path).ok()?;
    if metadata.is_dir() {
        return fs::canonicalize(&path).ok();
    }
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    fs::canonicalize(parent).ok()
}

/// What every file of one run shares.
#[derive(Clone, Copy)]
struct Run<'a> {
    options: RewriteOptions,
    propose: &'a Propose<'a>,
    places: &'a Places,
    trees: &'a [PathBuf],
}

fn rewrite_target(target: &Target, run: Run<'_>) -> FileResult {
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
    // Where the file really is: it must be inside a tree given.
    let real = match fs::canonicalize(file) {
        Ok(real) => real,
        Err(err) => {
            return FileResult::failed(
                file.clone(),
                format!("cannot resolve {}: {err}", file.display()),
            );
        }
    };
    // The innermost tree holding it: the file is opened from there down.
    let Some(tree) = run
        .trees
        .iter()
        .filter(|tree| real.starts_with(tree))
        .max_by_key(|tree| tree.as_os_str().len())
    else {
        return FileResult {
            code: Some(codes::Code::WriteOutsideTree.id()),
            message: Some(format!(
                "{} leads through a symlink to {}, outside the tree given; not read or written",
                file.display(),
                real.display()
            )),
            ..FileResult::new(file.clone(), Status::Skipped)
        };
    };
    let (opened, bytes) = match Rewritable::open_beneath(tree, &real, MAX_FILE_BYTES) {
        Ok(opened) => opened,
        Err(ReadError::Io(err)) => {
            return FileResult::failed(
                file.clone(),
                format!("cannot read {}: {err}", file.display()),
            );
        }
        Err(ReadError::NotRegular) => {
            return FileResult::failed(
                file.clone(),
                format!("{} is not a regular file", file.display()),
            );
        }
        Err(ReadError::TooLarge(size)) => {
            return FileResult::failed(file.clone(), too_large(file, size).message);
        }
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return FileResult::failed(file.clone(), "the skill file is not UTF-8".to_owned());
    };
    let name = directory_name(directory);
    let mut site = Site {
        directory,
        directory_name: name.as_deref(),
        places: run.places,
    };
    let mut proposal = match (run.propose)(text, &site) {
        Ok(proposal) => proposal,
        Err(message) => return FileResult::failed(file.clone(), message),
    };
    let rename_to = proposal.rename_dir.clone();
    let rename = rename_to.as_deref().and_then(|new_name| {
        let from = directory.clone();
        let to = match from.parent() {
            Some(parent) if from.file_name().is_some() => parent.join(new_name),
            _ => return None,
        };
        Some(DirRename {
            from,
            to,
            done: false,
        })
    });
    let renaming = run.options.rename_dirs && rename.is_some();
    if renaming {
        // The skill as it will be: named after its new directory.
        site.directory_name = rename_to.as_deref();
        proposal = match (run.propose)(text, &site) {
            Ok(proposal) => proposal,
            Err(message) => return FileResult::failed(file.clone(), message),
        };
    }
    let mut result = FileResult {
        repairs: proposal.repairs,
        left: proposal.left,
        not_fixed: proposal.not_fixed,
        profile: proposal.profile.map(|choice| choice.profile.as_str()),
        profile_source: proposal.profile.map(|choice| choice.source),
        rename,
        ..FileResult::new(file.clone(), Status::Unchanged)
    };
    let changes_text = proposal.text != text;
    if changes_text {
        result.diff = Some(unified_diff(text, &proposal.text, file));
    }
    if let Some(reason) = proposal.refused {
        result.status = Status::Refused;
        result.message = Some(reason);
        return result;
    }
    if !changes_text && !renaming {
        return result;
    }
    if !run.options.write {
        result.status = Status::WouldWrite;
        return result;
    }
    let replace = ReplaceOptions {
        force: run.options.force,
    };
    if renaming {
        let write = changes_text.then_some((&opened, proposal.text.as_str(), replace));
        return rename_and_write(result, file, write);
    }
    match opened.replace(proposal.text.as_bytes(), replace) {
        Ok(()) => result.status = Status::Written,
        Err(err) => {
            (result.status, result.message) = write_failure(file, &err);
        }
    }
    result
}

/// The status and message of a replacement that did not happen: refused
/// when the file is not as it was read, or not safe to replace; failed on
/// an error.
fn write_failure(file: &Path, err: &ReplaceError) -> (Status, Option<String>) {
    match err {
        ReplaceError::Io(err) => (
            Status::Failed,
            Some(format!("cannot write {}: {err}", file.display())),
        ),
        refusal => (
            Status::Refused,
            Some(format!("{}: {refusal}", file.display())),
        ),
    }
}

/// Renames the skill's directory (never over an existing name, never a
/// symlink), then writes the new text, when there is one, through the
/// file's opened directory (which the rename does not move away from it);
/// a failed write renames the directory back.
fn rename_and_write(
    mut result: FileResult,
    file: &Path,
    write: Option<(&Rewritable, &str, ReplaceOptions)>,
) -> FileResult {
    let Some(rename) = result.rename.as_mut() else {
        return result;
    };
    let refuse = |mut result: FileResult, status, message: String| {
        result.status = status;
        result.message = Some(message);
        result
    };
    let is_link = fs::symlink_metadata(&rename.from).map(|m| m.file_type().is_symlink());
    if !matches!(is_link, Ok(false)) {
        let message = format!(
            "{} is a symlink (or cannot be looked at); rename it by hand; nothing written",
            rename.from.display()
        );
        return refuse(result, Status::Refused, message);
    }
    match crate::fsutil::rename_no_replace(&rename.from, &rename.to) {
        Ok(()) => rename.done = true,
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
            let message = format!(
                "cannot rename {} to {}: that name is taken; nothing renamed or written",
                rename.from.display(),
                rename.to.display()
            );
            return refuse(result, Status::Refused, message);
        }
        Err(err) => {
            let message = format!(
                "cannot rename {} to {}: {err}; nothing written",
                rename.from.display(),
                rename.to.display()
            );
            return refuse(result, Status::Failed, message);
        }
    }
    let (from, to) = (rename.from.clone(), rename.to.clone());
    let new_file = to.join(file.file_name().unwrap_or_default());
    if let Some((opened, text, options)) = write
        && let Err(err) = opened.replace(text.as_bytes(), options)
    {
        let undone = crate::fsutil::rename_no_replace(&to, &from).is_ok();
        if let Some(rename) = result.rename.as_mut() {
            rename.done = !undone;
        }
        let (status, message) = write_failure(&new_file, &err);
        let message = format!(
            "{}; {}",
            message.unwrap_or_default(),
            if undone {
                "the directory's rename was undone"
            } else {
                "the directory stays renamed"
            }
        );
        return refuse(result, status, message);
    }
    result.path = new_file;
    result.status = Status::Written;
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

#[cfg(test)]
mod tests {
    use super::*;

    const DRY: RewriteOptions = RewriteOptions {
        recursive: false,
        write: false,
        rename_dirs: false,
        force: false,
    };
    const WRITE: RewriteOptions = RewriteOptions { write: true, ..DRY };

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
        let upper = |text: &str, _: &Site<'_>| {
            Ok(Proposal {
                text: text.to_uppercase(),
                ..Proposal::default()
            })
        };
        let dry = rewrite_paths(std::slice::from_ref(&skill), DRY, &upper);
        assert_eq!(dry.files[0].status, Status::WouldWrite);
        assert_eq!(fs::read_to_string(&file).unwrap(), "old\n");
        let diff = dry.files[0].diff.as_deref().unwrap();
        assert!(diff.contains("-old\n+OLD\n"), "{diff}");

        let run = rewrite_paths(std::slice::from_ref(&skill), WRITE, &upper);
        assert_eq!(run.files[0].status, Status::Written);
        assert_eq!(fs::read_to_string(&file).unwrap(), "OLD\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let again = rewrite_paths(std::slice::from_ref(&skill), WRITE, &upper);
        assert_eq!(again.files[0].status, Status::Unchanged);
        assert_eq!(again.summary().unchanged, 1);
    }

    #[test]
    fn refused_rewrites_are_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("SKILL.md");
        fs::write(&file, "old\n").unwrap();
        let refuse = |_: &str, _: &Site<'_>| {
            Ok(Proposal {
                text: "new\n".into(),
                refused: Some("no".into()),
                ..Proposal::default()
            })
        };
        let run = rewrite_paths(std::slice::from_ref(&file), WRITE, &refuse);
        assert_eq!(run.files[0].status, Status::Refused);
        assert_eq!(fs::read_to_string(&file).unwrap(), "old\n");
        let missing = rewrite_paths(&[dir.path().join("nope")], WRITE, &refuse);
        assert_eq!(missing.files[0].status, Status::Missing);
        assert_eq!(missing.summary().checked, 0);
    }

    /// The file is swapped for a symlink to a file outside the tree after
    /// it was read (here, while the rewrite is being proposed): the outside
    /// file is not written, and the run says why.
    #[cfg(unix)]
    #[test]
    fn a_skill_file_swapped_for_a_symlink_after_reading_is_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("victim");
        fs::write(&target, "precious\n").unwrap();
        let skill = dir.path().join("a");
        fs::create_dir(&skill).unwrap();
        let file = skill.join("SKILL.md");
        fs::write(&file, "attacker's body\n").unwrap();
        let swap = |text: &str, _: &Site<'_>| {
            fs::remove_file(&file).unwrap();
            std::os::unix::fs::symlink(&target, &file).unwrap();
            Ok(Proposal {
                text: text.to_uppercase(),
                ..Proposal::default()
            })
        };
        let run = rewrite_paths(std::slice::from_ref(&skill), WRITE, &swap);
        assert_eq!(run.files[0].status, Status::Refused);
        let message = run.files[0].message.as_deref().unwrap();
        assert!(
            message.contains("changed while it was being rewritten"),
            "{message}"
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "precious\n");
        assert!(
            fs::symlink_metadata(&file)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            fs::read_dir(&skill).unwrap().count(),
            1,
            "no temporary left"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_skill_file_with_another_hard_link_is_refused_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("a");
        fs::create_dir(&skill).unwrap();
        let file = skill.join("SKILL.md");
        let other = dir.path().join("elsewhere.md");
        fs::write(&file, "old\n").unwrap();
        fs::hard_link(&file, &other).unwrap();
        let upper = |text: &str, _: &Site<'_>| {
            Ok(Proposal {
                text: text.to_uppercase(),
                ..Proposal::default()
            })
        };
        let run = rewrite_paths(std::slice::from_ref(&skill), WRITE, &upper);
        assert_eq!(run.files[0].status, Status::Refused);
        let message = run.files[0].message.as_deref().unwrap();
        assert!(message.contains("2 hard links"), "{message}");
        assert_eq!(fs::read_to_string(&file).unwrap(), "old\n");
        let force = RewriteOptions {
            force: true,
            ..WRITE
        };
        let run = rewrite_paths(std::slice::from_ref(&skill), force, &upper);
        assert_eq!(run.files[0].status, Status::Written);
        assert_eq!(fs::read_to_string(&file).unwrap(), "OLD\n");
        assert_eq!(fs::read_to_string(&other).unwrap(), "old\n");
    }
}
