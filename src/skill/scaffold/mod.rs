//! `skill new`: from the answers about a new skill to its files (a pure
//! function, [`plan_files`], in `plan.rs`), and writing them without ever
//! overwriting anything ([`create_skill`], in `write.rs`). This file holds
//! the answers, the rules they must pass, and the errors.
//!
//! The answers are checked with the very rules `skill validate` applies
//! ([`rules::name_problems`] and friends), so what is planned always
//! validates, and the writer never leaves a half-made skill behind: the
//! files are written into a temporary directory and moved into place in one
//! rename.

mod plan;
mod write;

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::report::{Diagnostic, ErrorCode};
use crate::skill::{codes, rules};

pub use plan::{PlannedFile, plan_files, skill_md, yaml_string};
pub use write::{
    Created, TargetState, check_target, create_skill, name_for_directory, skill_directory,
};

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
                    .any(|problem| problem.code == codes::Code::NameDirectoryMismatch);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::exit;
    use crate::skill::check::{ValidateOptions, validate_target};
    use crate::skill::discover::Target;
    use crate::skill::frontmatter::{parse, split};
    use proptest::prelude::*;
    use std::cell::Cell;
    use std::fs;

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
                codes::Code::NameCharacters,
                codes::Code::NameHyphens,
                codes::Code::NameReserved,
                codes::Code::DescriptionXmlTag,
                codes::Code::CompatibilityTooLong
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
        assert_eq!(problems[0].code, codes::Code::NameDirectoryMismatch);
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
