//! `skill new`: from the answers about a new skill to its files (a pure
//! function, [`plan_files`]), and writing them without ever overwriting
//! anything ([`create_skill`]).
//!
//! The answers are checked with the very rules `skill validate` applies
//! ([`rules::name_problems`] and friends), so what is planned always
//! validates, and the writer never leaves a half-made skill behind: the
//! files are written into a temporary directory and moved into place in one
//! rename.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::check::directory_name;
use super::codes;
use super::discover::skill_file_in;
use super::rules;
use crate::fsutil::temporary_sibling;
use crate::report::{Diagnostic, ErrorCode};

/// The optional subdirectories of a skill (agentskills.io).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resource {
    /// `scripts/`: code the agent runs.
    Scripts,
    /// `references/`: documentation loaded only when a step needs it.
    References,
    /// `assets/`: templates and static files the output is built from.
    Assets,
}

impl Resource {
    pub const ALL: [Resource; 3] = [Resource::Scripts, Resource::References, Resource::Assets];

    pub fn directory(self) -> &'static str {
        match self {
            Resource::Scripts => "scripts",
            Resource::References => "references",
            Resource::Assets => "assets",
        }
    }

    /// What the directory is for, for prompts and help.
    pub fn purpose(self) -> &'static str {
        match self {
            Resource::Scripts => "code the agent runs",
            Resource::References => "documentation loaded when a step needs it",
            Resource::Assets => "templates and files the output is built from",
        }
    }

    /// The starter file created in the directory, so that it is not empty
    /// (git keeps no empty directories) and the body has a file to link to.
    pub fn starter_file(self) -> &'static str {
        match self {
            Resource::Scripts => "scripts/run.sh",
            Resource::References => "references/REFERENCE.md",
            Resource::Assets => "assets/template.md",
        }
    }
}

/// Everything `skill new` asks. Optional text that is empty (or only
/// whitespace) counts as not given; text is used trimmed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answers {
    pub name: String,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    /// Space-separated, as the spec asks (`Read Bash(git:*)`).
    pub allowed_tools: Option<String>,
    pub resources: BTreeSet<Resource>,
}

impl Answers {
    fn optional(value: &Option<String>) -> Option<&str> {
        value
            .as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
    }

    pub fn license(&self) -> Option<&str> {
        Self::optional(&self.license)
    }

    pub fn compatibility(&self) -> Option<&str> {
        Self::optional(&self.compatibility)
    }

    pub fn allowed_tools(&self) -> Option<&str> {
        Self::optional(&self.allowed_tools)
    }
}

/// Every rule the answers break, with the codes `skill validate` would
/// report. `directory_name` is the name of the directory the skill will
/// live in; `None` leaves out the rule that the two must match.
pub fn answer_problems(answers: &Answers, directory_name: Option<&str>) -> Vec<Diagnostic> {
    known_answer_problems(&KnownAnswers {
        name: Some(&answers.name),
        directory_name,
        description: Some(&answers.description),
        compatibility: answers.compatibility(),
    })
}

/// The answers known so far (from flags, before any question is asked).
#[derive(Debug, Clone, Copy, Default)]
pub struct KnownAnswers<'a> {
    pub name: Option<&'a str>,
    /// The directory the skill will live in, when known: the name must
    /// match it.
    pub directory_name: Option<&'a str>,
    pub description: Option<&'a str>,
    pub compatibility: Option<&'a str>,
}

/// Every rule the known answers break, all at once; what is not known yet
/// is not checked.
pub fn known_answer_problems(known: &KnownAnswers<'_>) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    if let Some(name) = known.name {
        problems.extend(rules::name_problems(name.trim(), known.directory_name));
    }
    if let Some(description) = known.description {
        problems.extend(rules::description_problems(description.trim()));
    }
    if let Some(compatibility) = known.compatibility {
        problems.extend(rules::compatibility_problems(compatibility.trim()));
    }
    problems
}

/// One file of a planned skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlannedFile {
    /// Relative to the skill directory.
    #[serde(serialize_with = "super::paths::lossy_path")]
    pub path: PathBuf,
    pub contents: String,
    /// Made executable (a script).
    pub executable: bool,
}

/// The files of a new skill: `SKILL.md`, and a starter file in each chosen
/// subdirectory, which the body links to. Fails when the answers break a
/// rule, so a plan that is returned always validates without warnings.
pub fn plan_files(answers: &Answers) -> Result<Vec<PlannedFile>, ScaffoldError> {
    let problems = answer_problems(answers, None);
    if !problems.is_empty() {
        return Err(ScaffoldError::Invalid { problems });
    }
    let mut files = vec![PlannedFile {
        path: PathBuf::from("SKILL.md"),
        contents: skill_md(answers),
        executable: false,
    }];
    let title = title(answers.name.trim());
    for resource in &answers.resources {
        let contents = match resource {
            Resource::Scripts => script_template(answers.name.trim()),
            Resource::References => reference_template(&title),
            Resource::Assets => asset_template(&title),
        };
        files.push(PlannedFile {
            path: PathBuf::from(resource.starter_file()),
            contents,
            executable: *resource == Resource::Scripts,
        });
    }
    Ok(files)
}

/// The text of `SKILL.md`: the frontmatter, then a body to fill in, with
/// sections for when to use the skill, its steps and examples.
pub fn skill_md(answers: &Answers) -> String {
    let name = answers.name.trim();
    let description = answers.description.trim();
    let mut text = String::from("---\n");
    let mut field = |key: &str, value: &str| {
        let _ = writeln!(text, "{key}: {}", yaml_string(value));
    };
    field("name", name);
    field("description", description);
    if let Some(license) = answers.license() {
        field("license", license);
    }
    if let Some(compatibility) = answers.compatibility() {
        field("compatibility", compatibility);
    }
    if let Some(tools) = answers.allowed_tools() {
        field("allowed-tools", tools);
    }
    text.push_str("---\n\n");
    text.push_str(&body(answers));
    text
}

fn body(answers: &Answers) -> String {
    let title = title(answers.name.trim());
    let description = answers.description.trim();
    // The description is echoed only when Markdown cannot read links or
    // code in it: a `](x)` in it would be a link to a missing file.
    let summary = if is_inert_markdown(description) {
        description.to_owned()
    } else {
        "What this skill does, and when, is in the description above.".to_owned()
    };
    let mut body = format!(
        "# {title}

{summary}

## When to use this skill

Use this skill when:

- the request is about the task described above;
- the user names this skill or its subject directly.

Leave it alone when the request only looks similar: say here which nearby
tasks belong to other skills, so the agent does not load this one by mistake.

## Steps

1. Gather what the task needs first: the files to read, the facts to ask the
   user for, the commands that show the current state.
2. Do the work one concrete action at a time. Name the exact commands, tools
   and file paths, and say what to do when one of them fails.
3. Check the result before reporting it: say what must be true when the task
   is done, and how to verify it.
"
    );
    if let Some(tools) = answers.allowed_tools() {
        let listed = if is_inert_markdown(tools) {
            format!(": {tools}")
        } else {
            " listed in `allowed-tools` above".to_owned()
        };
        let _ = write!(
            body,
            "
This skill may use the tools{listed}.
"
        );
    }
    if answers.resources.contains(&Resource::Scripts) {
        body.push_str(
            "
Run [scripts/run.sh](scripts/run.sh) for the mechanical part of the work
rather than retyping its commands; it prints a usage line when called
without arguments.
",
        );
    }
    body.push_str(
        "
## Examples

**Request:** a typical request, in the words a user would write it.

**What to do:** the steps above applied to it, and the answer or file that
comes out.

**Request:** a request at the edge of this skill's scope.

**What to do:** how to handle it, or which skill to use instead.
",
    );
    let resources: Vec<Resource> = answers.resources.iter().copied().collect();
    if !resources.is_empty() {
        body.push_str("\n## Resources\n\n");
        for resource in resources {
            let file = resource.starter_file();
            let _ = writeln!(body, "- [{file}]({file}): {}.", resource.purpose());
        }
    }
    body
}

/// Text that reads as plain words in Markdown: one line, with nothing that
/// opens a link, a code span or a fence.
fn is_inert_markdown(text: &str) -> bool {
    !text.contains(['[', ']', '`', '~', '<', '>', '\\', '\n', '\r'])
}

/// A heading from a skill name: the name as written. Changing its case
/// would guess wrong for acronyms (`pdf-tools` is not "Pdf tools"), and the
/// author replaces the heading anyway.
fn title(name: &str) -> String {
    name.to_owned()
}

fn script_template(name: &str) -> String {
    format!(
        "#!/usr/bin/env sh
# Helper for the {name} skill: the mechanical part of its steps.
# Usage: scripts/run.sh ARG...
set -eu

if [ \"$#\" -eq 0 ]; then
    echo \"usage: $0 ARG...\" >&2
    exit 2
fi

for arg in \"$@\"; do
    printf 'processing %s\\n' \"$arg\"
done
"
    )
}

fn reference_template(title: &str) -> String {
    format!(
        "# {title}: reference

Detail that the steps in SKILL.md need only sometimes. An agent reads this
file when a step links to it, so SKILL.md stays short while long tables,
API notes, formats and edge cases live here.

## Contents

- Terms and formats the steps rely on.
- Commands and options, with an example of each.
- Known failure modes and what to do about them.
"
    )
}

fn asset_template(title: &str) -> String {
    format!(
        "# {title}: output template

A file the skill copies and fills in rather than writing from scratch.
Replace this text with the template itself, and mark each field to fill in
with a clear name in capitals, such as TITLE or DATE.
"
    )
}

/// `value` as a YAML scalar that reads back as exactly the same string:
/// plain when that is unambiguous, double-quoted with escapes otherwise.
pub fn yaml_string(value: &str) -> String {
    if is_plain_safe(value) {
        return value.to_owned();
    }
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for c in value.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                let code = u32::from(c);
                if code <= 0xff {
                    let _ = write!(quoted, "\\x{code:02x}");
                } else {
                    let _ = write!(quoted, "\\u{code:04x}");
                }
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Conservative: a letter first, then only letters, digits, spaces and
/// punctuation that means nothing to YAML inside a plain scalar, and not a
/// word YAML reads as a boolean or null.
fn is_plain_safe(value: &str) -> bool {
    const KEYWORDS: [&str; 9] = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"];
    let Some(first) = value.chars().next() else {
        return false;
    };
    first.is_alphabetic()
        && !value.ends_with(' ')
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || " -_.,()/+';".contains(c))
        && !KEYWORDS.contains(&value.to_ascii_lowercase().as_str())
}

/// Why a skill could not be created. Nothing was left on disk in any case.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    #[error("{}", describe_problems(.problems))]
    Invalid { problems: Vec<Diagnostic> },

    #[error("{} already holds a skill ({})", .directory.display(), .file.display())]
    SkillExists { directory: PathBuf, file: PathBuf },

    #[error("{} exists and is not empty", .directory.display())]
    NotEmpty { directory: PathBuf },

    #[error("{} exists and is not a directory", .path.display())]
    NotADirectory { path: PathBuf },

    #[error("no skill name: {} has no last component to take it from", .path.display())]
    NoName { path: PathBuf },

    #[error(
        "{} is a symlink to {}, outside {} (W010); aigent does not write through it",
        .path.display(),
        .target.display(),
        .tree.display()
    )]
    OutsideTree {
        path: PathBuf,
        target: PathBuf,
        tree: PathBuf,
    },

    #[error("interrupted; nothing was created")]
    Interrupted,

    #[error("cannot create {}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

fn describe_problems(problems: &[Diagnostic]) -> String {
    match problems {
        [one] => one.message.clone(),
        many => format!(
            "{} problems: {}",
            many.len(),
            many.iter()
                .map(|problem| problem.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// What a caller branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaffoldErrorKind {
    /// The answers break a rule: exit 2.
    Invalid,
    /// The target already exists: exit 6.
    Conflict,
    /// Ctrl-C: exit 130.
    Interrupted,
    /// The file system failed: exit 1.
    Io,
}

impl ScaffoldError {
    pub fn kind(&self) -> ScaffoldErrorKind {
        match self {
            ScaffoldError::Invalid { .. } | ScaffoldError::NoName { .. } => {
                ScaffoldErrorKind::Invalid
            }
            ScaffoldError::SkillExists { .. }
            | ScaffoldError::NotEmpty { .. }
            | ScaffoldError::NotADirectory { .. }
            | ScaffoldError::OutsideTree { .. } => ScaffoldErrorKind::Conflict,
            ScaffoldError::Interrupted => ScaffoldErrorKind::Interrupted,
            ScaffoldError::Io { .. } => ScaffoldErrorKind::Io,
        }
    }

    pub fn exit_code(&self) -> i32 {
        self.code().exit_code()
    }

    /// The envelope's `error.code`.
    pub fn code(&self) -> ErrorCode {
        match self.kind() {
            ScaffoldErrorKind::Invalid => ErrorCode::ArgError,
            ScaffoldErrorKind::Conflict => ErrorCode::Conflict,
            ScaffoldErrorKind::Interrupted => ErrorCode::Interrupted,
            ScaffoldErrorKind::Io => ErrorCode::GeneralError,
        }
    }

    pub fn hint(&self) -> Option<String> {
        match self {
            ScaffoldError::SkillExists { directory, .. } => Some(format!(
                "pick another directory, or edit the skill in place and run `aigent skill validate {}`",
                directory.display()
            )),
            ScaffoldError::NotEmpty { .. } | ScaffoldError::NotADirectory { .. } => {
                Some("skill new only creates a new directory or fills an empty one".to_owned())
            }
            ScaffoldError::NoName { .. } => {
                Some("give a directory that has a name, such as ./my-skill".to_owned())
            }
            ScaffoldError::OutsideTree { target, .. } => Some(format!(
                "give the link's target ({}) as PATH if that is where the skill belongs",
                target.display()
            )),
            ScaffoldError::Invalid { problems } => {
                let mismatch = problems
                    .iter()
                    .any(|problem| problem.code == codes::NAME_DIRECTORY_MISMATCH);
                let bad_name = problems
                    .iter()
                    .any(|problem| problem.field.as_deref() == Some("name"));
                if mismatch {
                    Some("a skill's name must equal its directory's name: give PATH or --name, or make them agree".to_owned())
                } else if bad_name {
                    Some("a name is lowercase letters, digits and single hyphens, at most 64 characters".to_owned())
                } else {
                    None
                }
            }
            ScaffoldError::Interrupted | ScaffoldError::Io { .. } => None,
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ScaffoldError + '_ {
    move |source| ScaffoldError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Where a new skill goes: `directory` when given, else `./NAME`.
pub fn skill_directory(directory: Option<&Path>, name: &str) -> PathBuf {
    match directory {
        Some(directory) => without_steps_back_into_nothing(directory),
        None => PathBuf::from(name.trim()),
    }
}

/// `x/../y` is `y` when `x` does not exist. The system resolves `x/..`
/// only through an existing `x`, and making `x` just to step back out of
/// it would leave an empty `x/` behind. A component that does not exist
/// cannot be a symbolic link, so dropping it with the `..` that follows
/// is exact; `..` after existing components is left to the system.
fn without_steps_back_into_nothing(path: &Path) -> PathBuf {
    let mut settled = PathBuf::new();
    // How many components at the end of `settled` do not exist.
    let mut missing = 0;
    for component in path.components() {
        if component == std::path::Component::ParentDir && missing > 0 {
            settled.pop();
            missing -= 1;
            continue;
        }
        settled.push(component);
        if missing > 0 || fs::symlink_metadata(&settled).is_err() {
            missing += 1;
        }
    }
    if settled.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        settled
    }
}

/// The name a skill in `directory` must have: the directory's last
/// component (for `.`, the current directory's).
pub fn name_for_directory(directory: &Path) -> Result<String, ScaffoldError> {
    directory_name(directory).ok_or_else(|| ScaffoldError::NoName {
        path: directory.to_owned(),
    })
}

/// What is at the target now, when a skill may be created there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetState {
    /// Nothing: the directory will be created.
    Absent,
    /// An empty directory: it will be filled.
    EmptyDirectory,
}

/// Whether a skill may be created at `directory`: it must not exist, or be
/// an empty directory. Checked again when writing; callers use this to fail
/// before asking any question.
pub fn check_target(directory: &Path) -> Result<TargetState, ScaffoldError> {
    // `x/` would name the link's target, `x` the link itself.
    let named: PathBuf = directory.components().collect();
    match fs::symlink_metadata(&named) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(TargetState::Absent),
        Err(err) => return Err(io_error(directory)(err)),
        Ok(metadata) if metadata.file_type().is_symlink() => check_link_stays_inside(&named)?,
        Ok(_) => {}
    }
    // Follows a symlink: a link to an empty directory in the same tree may
    // be filled.
    let is_directory = fs::metadata(directory).is_ok_and(|metadata| metadata.is_dir());
    if !is_directory {
        return Err(ScaffoldError::NotADirectory {
            path: directory.to_owned(),
        });
    }
    if let Some(file) = skill_file_in(directory).map_err(io_error(directory))? {
        return Err(ScaffoldError::SkillExists {
            directory: directory.to_owned(),
            file,
        });
    }
    let mut entries = fs::read_dir(directory).map_err(io_error(directory))?;
    if entries.next().is_some() {
        return Err(ScaffoldError::NotEmpty {
            directory: directory.to_owned(),
        });
    }
    Ok(TargetState::EmptyDirectory)
}

/// A symlink given as the skill directory is followed only when its
/// target lies inside the directory holding the link: a checked-out
/// `skills/x -> /home/me/.ssh` must not turn `skill new skills/x` into a
/// write elsewhere. A dangling link is left to the caller's checks.
fn check_link_stays_inside(link: &Path) -> Result<(), ScaffoldError> {
    let parent = match link.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let (Ok(tree), Ok(target)) = (fs::canonicalize(parent), fs::canonicalize(link)) else {
        return Ok(());
    };
    if target.starts_with(&tree) {
        return Ok(());
    }
    Err(ScaffoldError::OutsideTree {
        path: link.to_owned(),
        target,
        tree,
    })
}

/// What [`create_skill`] made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Created {
    /// The skill directory, as given.
    #[serde(serialize_with = "super::paths::lossy_path")]
    pub directory: PathBuf,
    pub name: String,
    /// Relative to the directory, in creation order (`SKILL.md` first).
    #[serde(serialize_with = "super::paths::lossy_paths")]
    pub files: Vec<PathBuf>,
}

/// Creates the skill the answers describe in `directory`, which must not
/// exist or be an empty directory (missing parents are created).
///
/// Nothing is ever overwritten, and no failure leaves anything behind:
/// - a new directory is built as a temporary sibling and renamed into place
///   in one step;
/// - an existing empty directory (perhaps a mount point, or the current
///   directory) is kept, and the files are built in a temporary directory
///   inside it and moved in, `SKILL.md` last, each move refusing to replace
///   anything;
/// - on any failure, or when `interrupted()` turns true between two steps,
///   what was made is removed and parents created for it too.
pub fn create_skill(
    directory: &Path,
    answers: &Answers,
    interrupted: &dyn Fn() -> bool,
) -> Result<Created, ScaffoldError> {
    let directory_name = name_for_directory(directory)?;
    let problems = answer_problems(answers, Some(&directory_name));
    if !problems.is_empty() {
        return Err(ScaffoldError::Invalid { problems });
    }
    let files = plan_files(answers)?;
    match check_target(directory)? {
        TargetState::Absent => create_new_directory(directory, &files, interrupted)?,
        TargetState::EmptyDirectory => fill_empty_directory(directory, &files, interrupted)?,
    }
    Ok(Created {
        directory: directory.to_owned(),
        name: answers.name.trim().to_owned(),
        files: files.into_iter().map(|file| file.path).collect(),
    })
}

fn stop_if(interrupted: &dyn Fn() -> bool) -> Result<(), ScaffoldError> {
    if interrupted() {
        Err(ScaffoldError::Interrupted)
    } else {
        Ok(())
    }
}

fn create_new_directory(
    directory: &Path,
    files: &[PlannedFile],
    interrupted: &dyn Fn() -> bool,
) -> Result<(), ScaffoldError> {
    let parent = match directory.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let made_parents = create_parents(parent)?;
    let temporary = temporary_sibling(directory);
    let result = (|| {
        fs::create_dir(&temporary).map_err(io_error(&temporary))?;
        write_files(&temporary, files, interrupted)?;
        stop_if(interrupted)?;
        // A directory that appeared meanwhile is a conflict, not a target.
        if fs::symlink_metadata(directory).is_ok() {
            check_target(directory)?;
        }
        fs::rename(&temporary, directory).map_err(|err| match check_target(directory) {
            Err(conflict) if conflict.kind() == ScaffoldErrorKind::Conflict => conflict,
            _ => io_error(directory)(err),
        })
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&temporary);
        for made in made_parents.iter().rev() {
            // Only while empty: something else may have moved in meanwhile.
            let _ = fs::remove_dir(made);
        }
    }
    result
}

/// Creates the missing ancestors of `parent`, returning those it made,
/// outermost first.
fn create_parents(parent: &Path) -> Result<Vec<PathBuf>, ScaffoldError> {
    let mut missing = Vec::new();
    let mut cursor = Some(parent);
    while let Some(path) = cursor {
        if path.as_os_str().is_empty() || fs::symlink_metadata(path).is_ok() {
            break;
        }
        missing.push(path.to_owned());
        cursor = path.parent();
    }
    missing.reverse();
    let mut made = Vec::new();
    for path in missing {
        match fs::create_dir(&path) {
            Ok(()) => made.push(path),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
            Err(err) => {
                for undo in made.iter().rev() {
                    let _ = fs::remove_dir(undo);
                }
                return Err(io_error(&path)(err));
            }
        }
    }
    Ok(made)
}

fn fill_empty_directory(
    directory: &Path,
    files: &[PlannedFile],
    interrupted: &dyn Fn() -> bool,
) -> Result<(), ScaffoldError> {
    // Inside the target, so the moves never cross a file system boundary.
    let temporary = temporary_sibling(&directory.join("new-skill"));
    let mut moved: Vec<PathBuf> = Vec::new();
    let result = (|| {
        fs::create_dir(&temporary).map_err(io_error(&temporary))?;
        write_files(&temporary, files, interrupted)?;
        let mut tops: Vec<PathBuf> = files
            .iter()
            .filter_map(|file| file.path.components().next())
            .map(|component| PathBuf::from(component.as_os_str()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // SKILL.md last: until it is there, the directory is not a skill.
        tops.sort_by_key(|top| top == Path::new("SKILL.md"));
        for top in tops {
            stop_if(interrupted)?;
            let destination = directory.join(&top);
            if fs::symlink_metadata(&destination).is_ok() {
                return Err(ScaffoldError::NotEmpty {
                    directory: directory.to_owned(),
                });
            }
            let source = temporary.join(&top);
            if source.is_dir() {
                // A directory rename fails on a non-empty target; what can
                // appear between the check and here is at most an empty one.
                fs::rename(&source, &destination).map_err(io_error(&destination))?;
            } else {
                // A file could be replaced in that window: persist_noclobber
                // refuses atomically (renameat2 NOREPLACE, or link+unlink).
                tempfile::TempPath::try_from_path(&source)
                    .map_err(io_error(&source))?
                    .persist_noclobber(&destination)
                    .map_err(|err| {
                        if err.error.kind() == io::ErrorKind::AlreadyExists {
                            ScaffoldError::NotEmpty {
                                directory: directory.to_owned(),
                            }
                        } else {
                            io_error(&destination)(err.error)
                        }
                    })?;
            }
            moved.push(destination);
        }
        fs::remove_dir(&temporary).map_err(io_error(&temporary))
    })();
    if result.is_err() {
        for path in moved.iter().rev() {
            let _ = if path.is_dir() {
                fs::remove_dir_all(path)
            } else {
                fs::remove_file(path)
            };
        }
        let _ = fs::remove_dir_all(&temporary);
    }
    result
}

fn write_files(
    root: &Path,
    files: &[PlannedFile],
    interrupted: &dyn Fn() -> bool,
) -> Result<(), ScaffoldError> {
    for file in files {
        stop_if(interrupted)?;
        let path = root.join(&file.path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        let mut handle = new_file(&path, file.executable).map_err(io_error(&path))?;
        handle
            .write_all(file.contents.as_bytes())
            .and_then(|()| handle.sync_all())
            .map_err(io_error(&path))?;
    }
    Ok(())
}

#[cfg(unix)]
fn new_file(path: &Path, executable: bool) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(if executable { 0o777 } else { 0o666 })
        .open(path)
}

#[cfg(not(unix))]
fn new_file(path: &Path, _executable: bool) -> io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::exit;
    use crate::skill::check::{ValidateOptions, validate_target};
    use crate::skill::discover::Target;
    use crate::skill::frontmatter::{parse, split};
    use proptest::prelude::*;
    use std::cell::Cell;

    fn answers(name: &str) -> Answers {
        Answers {
            name: name.to_owned(),
            description: "Drafts release notes from merged changes. Use when preparing a release."
                .to_owned(),
            ..Answers::default()
        }
    }

    fn full(name: &str) -> Answers {
        Answers {
            license: Some("Apache-2.0".to_owned()),
            compatibility: Some("Needs git and network access".to_owned()),
            allowed_tools: Some("Read Bash(git:*)".to_owned()),
            resources: Resource::ALL.into_iter().collect(),
            ..answers(name)
        }
    }

    fn never() -> bool {
        false
    }

    fn strict_report(directory: &Path) -> crate::skill::SkillReport {
        validate_target(
            &Target::for_path(directory),
            ValidateOptions {
                strict: true,
                ..ValidateOptions::default()
            },
        )
    }

    #[test]
    fn the_plan_follows_the_answers() {
        let minimal = plan_files(&answers("release-notes")).unwrap();
        assert_eq!(minimal.len(), 1);
        let text = &minimal[0].contents;
        assert!(text.starts_with("---\nname: release-notes\ndescription: "));
        assert!(!text.contains("license:"));
        assert!(!text.contains("## Resources"));
        assert!(!text.contains("]("), "no links without files: {text}");
        for section in [
            "\n# release-notes\n",
            "## When to use this skill",
            "## Steps",
            "## Examples",
        ] {
            assert!(text.contains(section), "{section} missing:\n{text}");
        }

        let acronym = plan_files(&answers("pdf-tools")).unwrap();
        assert!(acronym[0].contents.contains("\n# pdf-tools\n"));
        assert!(!acronym[0].contents.contains("Pdf"));

        let all = plan_files(&full("release-notes")).unwrap();
        let paths: Vec<_> = all.iter().map(|file| file.path.clone()).collect();
        assert_eq!(
            paths,
            [
                "SKILL.md",
                "scripts/run.sh",
                "references/REFERENCE.md",
                "assets/template.md"
            ]
            .map(PathBuf::from)
        );
        assert!(all[1].executable && !all[2].executable);
        let text = &all[0].contents;
        assert!(text.contains("license: Apache-2.0\n"), "{text}");
        assert!(
            text.contains("allowed-tools: \"Read Bash(git:*)\"\n"),
            "{text}"
        );
        for file in [
            "scripts/run.sh",
            "references/REFERENCE.md",
            "assets/template.md",
        ] {
            assert!(text.contains(&format!("]({file})")), "{file} not linked");
        }
    }

    #[test]
    fn blank_optional_answers_are_left_out() {
        let blank = Answers {
            license: Some("  ".to_owned()),
            compatibility: Some(String::new()),
            ..answers("a")
        };
        let text = skill_md(&blank);
        assert!(!text.contains("license") && !text.contains("compatibility"));
    }

    #[test]
    fn bad_answers_report_the_validator_codes() {
        let bad = Answers {
            name: "Claude--Helper".to_owned(),
            description: "Uses <b>tags</b>".to_owned(),
            compatibility: Some("c".repeat(501)),
            ..Answers::default()
        };
        let Err(ScaffoldError::Invalid { problems }) = plan_files(&bad) else {
            panic!("bad answers accepted");
        };
        let found: Vec<_> = problems.iter().map(|problem| problem.code).collect();
        assert_eq!(
            found,
            [
                codes::NAME_CHARACTERS,
                codes::NAME_HYPHENS,
                codes::NAME_RESERVED,
                codes::DESCRIPTION_XML_TAG,
                codes::COMPATIBILITY_TOO_LONG
            ]
        );
        let empty = plan_files(&Answers::default()).unwrap_err();
        assert_eq!(empty.exit_code(), exit::ARG_ERROR);
        assert!(
            empty.to_string().starts_with("2 problems: name is empty; "),
            "{empty}"
        );
    }

    #[test]
    fn created_skills_validate_strictly_and_nothing_else_is_left() {
        let dir = tempfile::tempdir().unwrap();
        for (name, answers) in [
            ("plain", answers("plain")),
            ("everything", full("everything")),
            ("数据-工具", answers("数据-工具")),
        ] {
            let target = dir.path().join("nested/parents").join(name);
            let created = create_skill(&target, &answers, &never).unwrap();
            assert_eq!(created.files[0], Path::new("SKILL.md"));
            let report = strict_report(&target);
            assert!(report.diagnostics.is_empty(), "{name}: {report:#?}");
        }
        let mut names: Vec<_> = fs::read_dir(dir.path().join("nested/parents"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["everything", "plain", "数据-工具"],
            "no temporaries"
        );
    }

    #[cfg(unix)]
    #[test]
    fn steps_back_out_of_missing_directories_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("real")).unwrap();
        let root = dir.path();
        let settled = |path: &str| {
            skill_directory(Some(&root.join(path)), "ignored")
                .strip_prefix(root)
                .unwrap()
                .to_owned()
        };
        assert_eq!(settled("x/../y"), Path::new("y"));
        assert_eq!(settled("x/z/../../y"), Path::new("y"));
        assert_eq!(settled("x/../real/y"), Path::new("real/y"));
        assert_eq!(settled("real/../y"), Path::new("real/../y"));
        assert_eq!(settled("a/b"), Path::new("a/b"));
    }

    #[test]
    fn the_script_is_executable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("tool");
        create_skill(&target, &full("tool"), &never).unwrap();
        let mode = fs::metadata(target.join("scripts/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o100, 0o100, "{mode:o}");
    }

    #[test]
    fn existing_targets_are_conflicts_and_stay_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("taken");
        fs::create_dir(&skill).unwrap();
        fs::write(skill.join("SKILL.md"), "original").unwrap();
        let err = create_skill(&skill, &answers("taken"), &never).unwrap_err();
        assert!(matches!(err, ScaffoldError::SkillExists { .. }), "{err}");
        assert_eq!(err.exit_code(), exit::CONFLICT);
        assert_eq!(
            fs::read_to_string(skill.join("SKILL.md")).unwrap(),
            "original"
        );

        let busy = dir.path().join("busy");
        fs::create_dir(&busy).unwrap();
        fs::write(busy.join("notes.txt"), "x").unwrap();
        let err = create_skill(&busy, &answers("busy"), &never).unwrap_err();
        assert!(matches!(err, ScaffoldError::NotEmpty { .. }), "{err}");

        let file = dir.path().join("file");
        fs::write(&file, "x").unwrap();
        let err = create_skill(&file, &answers("file"), &never).unwrap_err();
        assert!(matches!(err, ScaffoldError::NotADirectory { .. }), "{err}");
        assert_eq!(fs::read_to_string(&file).unwrap(), "x");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
    }

    #[test]
    fn an_empty_directory_is_filled_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("ready");
        fs::create_dir(&target).unwrap();
        create_skill(&target, &full("ready"), &never).unwrap();
        let mut entries: Vec<_> = fs::read_dir(&target)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        entries.sort();
        assert_eq!(entries, ["SKILL.md", "assets", "references", "scripts"]);
        assert!(strict_report(&target).diagnostics.is_empty());
    }

    #[test]
    fn the_name_must_match_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let err = create_skill(&dir.path().join("other"), &answers("mine"), &never).unwrap_err();
        let ScaffoldError::Invalid { problems } = &err else {
            panic!("{err}");
        };
        assert_eq!(problems[0].code, codes::NAME_DIRECTORY_MISMATCH);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn an_interruption_at_any_step_leaves_nothing() {
        for fresh in [true, false] {
            for allowed in 0..8 {
                let dir = tempfile::tempdir().unwrap();
                let target = dir.path().join("deep/er/half");
                if !fresh {
                    fs::create_dir_all(&target).unwrap();
                }
                let calls = Cell::new(0);
                let interrupted = || {
                    calls.set(calls.get() + 1);
                    calls.get() > allowed
                };
                match create_skill(&target, &full("half"), &interrupted) {
                    Err(ScaffoldError::Interrupted) => {
                        let left: Vec<_> = walk(dir.path());
                        let expected: Vec<PathBuf> = if fresh {
                            Vec::new()
                        } else {
                            ["deep", "deep/er", "deep/er/half"]
                                .map(PathBuf::from)
                                .to_vec()
                        };
                        assert_eq!(left, expected, "fresh {fresh}, step {allowed}");
                    }
                    Ok(_) => assert!(strict_report(&target).diagnostics.is_empty()),
                    Err(err) => panic!("{err}"),
                }
            }
        }
    }

    fn walk(root: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut stack = vec![root.to_owned()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                found.push(path.strip_prefix(root).unwrap().to_owned());
                if path.is_dir() {
                    stack.push(path);
                }
            }
        }
        found.sort();
        found
    }

    #[test]
    fn yaml_strings_are_plain_only_when_unambiguous() {
        assert_eq!(yaml_string("release-notes"), "release-notes");
        assert_eq!(yaml_string("Writes notes, fast."), "Writes notes, fast.");
        assert_eq!(yaml_string("yes"), "\"yes\"");
        assert_eq!(yaml_string("123"), "\"123\"");
        assert_eq!(yaml_string("Use when: x"), "\"Use when: x\"");
        assert_eq!(yaml_string("a \"q\" \\ b\n"), "\"a \\\"q\\\" \\\\ b\\n\"");
        assert_eq!(yaml_string("bell\u{7}"), "\"bell\\x07\"");
    }

    fn round_trip(value: &str) -> crate::skill::frontmatter::YamlValue {
        let text = format!("---\nkey: {}\n---\n", yaml_string(value));
        let document = split(&text).expect("frontmatter splits");
        let parsed = parse(&document).unwrap_or_else(|err| panic!("{err}: {text:?}"));
        parsed.get("key").expect("key present").value.clone()
    }

    fn answers_strategy() -> impl Strategy<Value = Answers> {
        let name = "[a-z][a-z0-9]{0,12}(-[a-z0-9]{1,8}){0,3}|[数据工具инструмент]{1,6}"
            .prop_filter("not reserved", |name| {
                rules::name_problems(name, None).is_empty()
            });
        let description = "[^<\\p{Cc}]{1,300}|\\PC{1,100}".prop_filter("valid", |text| {
            rules::description_problems(text.trim()).is_empty()
        });
        let optional = proptest::option::of("\\PC{0,60}|[ -~\n\t]{0,30}");
        let resources = proptest::sample::subsequence(Resource::ALL.to_vec(), 0..=3);
        (
            name,
            description,
            optional.clone(),
            optional.clone(),
            optional,
            resources,
        )
            .prop_map(
                |(name, description, license, compatibility, allowed_tools, resources)| Answers {
                    name,
                    description,
                    license,
                    compatibility,
                    allowed_tools,
                    resources: resources.into_iter().collect(),
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Whatever the (valid) answers, the planned SKILL.md has no finding
        /// at all, and links only to planned files.
        #[test]
        fn planned_skills_always_validate(answers in answers_strategy()) {
            let files = plan_files(&answers).unwrap();
            let skill = &files[0].contents;
            let checked = crate::skill::check::check_text(
                skill,
                crate::skill::check::CheckContext {
                    directory_name: Some(answers.name.trim()),
                    ..Default::default()
                },
            );
            prop_assert!(checked.diagnostics.is_empty(), "{:?}\n{}", checked.diagnostics, skill);
            prop_assert_eq!(checked.name.as_deref(), Some(answers.name.trim()));
            let document = split(skill).unwrap();
            for link in crate::skill::links::relative_links(document.body, document.body_first_line) {
                prop_assert!(
                    files.iter().any(|file| file.path == Path::new(link.target.as_ref())),
                    "{} is linked but not planned", link.target
                );
            }
        }

        #[test]
        fn any_string_reads_back_unchanged(value in "\\PC{0,40}|[\\x00-\\x7f\u{85}\u{2028}\u{feff}]{0,20}") {
            prop_assert_eq!(round_trip(&value), crate::skill::frontmatter::YamlValue::String(value.clone()));
        }
    }
}
