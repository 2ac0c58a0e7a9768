//! Layer 2 of skill validation: checking one skill. From the bytes of a
//! skill file (read through a [`SkillSource`]) to its findings, with every
//! rule run in one pass. Which skills to check, and running many, is
//! layer 3 ([`super::validate`]).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::clients::ClientRule;
use super::codes;
use super::discover::{Listed, Target};
use super::evals;
use super::frontmatter::{self, ParseError, SplitError};
use super::links;
use super::place::{Places, ProfileChoice, ProfileSource};
use super::read::{MAX_FILE_BYTES, too_large};
use super::rules::{self, Profile, RuleContext};
use super::source::{FileSystem, SkillSource};
use super::tokens::{self, TokenCounts};
use crate::report::{Diagnostic, DiagnosticCode, Severity};
use crate::vcs::SelectedUnit;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ValidateOptions {
    pub profile: Profile,
    /// Warnings count as errors.
    pub strict: bool,
    /// `profile` is a default, not a choice: a skill whose place says
    /// which client loads it (a `.claude/` directory, a Claude Code
    /// plugin) is checked with that client's profile ([`super::place`]).
    pub profile_from_context: bool,
    /// The token counts will not be shown (text, GitHub or SARIF output):
    /// a body too short to be over the budget is not counted, and the
    /// report's `tokens` is `None` ([`CheckContext::skip_unshown_counts`]).
    pub skip_unshown_counts: bool,
}

impl ValidateOptions {
    /// The profile for a skill in `directory`, and where it came from.
    pub fn choose_profile(self, directory: &Path, places: &Places) -> ProfileChoice {
        if self.profile_from_context {
            places.choose(directory, self.profile)
        } else {
            ProfileChoice {
                profile: self.profile,
                source: ProfileSource::Given,
            }
        }
    }

    /// These options with the profile chosen for one skill.
    pub fn with_choice(self, choice: ProfileChoice) -> Self {
        Self {
            profile: choice.profile,
            ..self
        }
    }
}

/// The findings for one skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkillReport {
    /// The skill file, or the path given when there is no skill file.
    #[serde(serialize_with = "super::paths::lossy_path")]
    pub path: PathBuf,
    /// The frontmatter `name`, when it is a string.
    pub name: Option<String>,
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// What the skill costs in context; `null` when its frontmatter could
    /// not be read.
    pub tokens: Option<TokenCounts>,
    /// The profile the skill was checked with (its `--profile` value).
    #[serde(serialize_with = "profile_id")]
    pub profile: Profile,
    /// Where that profile came from: `given`, `default`, or the place
    /// (`claude-directory`, `claude-plugin`).
    pub profile_source: ProfileSource,
    /// With `--changed`: the skill directory and the changed files that
    /// selected it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<SelectedUnit>,
    /// The frontmatter `description`, when it is a string: for the
    /// cross-skill checks, not the output.
    #[serde(skip)]
    pub description: Option<String>,
}

impl SkillReport {
    fn new(path: PathBuf, name: Option<String>, mut diagnostics: Vec<Diagnostic>) -> Self {
        // Stable: findings without a line (file-level, missing keys) first,
        // then in file order.
        diagnostics.sort_by_key(|diagnostic| diagnostic.line.unwrap_or(0));
        let valid = !diagnostics.iter().any(Diagnostic::is_error);
        Self {
            path,
            name,
            valid,
            diagnostics,
            tokens: None,
            profile: Profile::STANDARD,
            profile_source: ProfileSource::Default,
            selected: None,
            description: None,
        }
    }

    /// Adds a finding made after the skill was checked (a cross-skill
    /// one), with `--strict` applied.
    pub fn add_finding(&mut self, diagnostic: Diagnostic, options: ValidateOptions) {
        let diagnostic = if options.strict {
            promote_warning(diagnostic)
        } else {
            diagnostic
        };
        self.valid &= !diagnostic.is_error();
        self.diagnostics.push(diagnostic);
    }

    pub fn with_tokens(mut self, tokens: Option<TokenCounts>) -> Self {
        self.tokens = tokens;
        self
    }

    pub fn warning_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Warning)
            .count()
    }

    pub fn has_code(&self, code: impl DiagnosticCode) -> bool {
        let code = code.id();
        self.diagnostics
            .iter()
            .any(|diagnostic| diagnostic.code == code)
    }
}

fn profile_id<S: serde::Serializer>(profile: &Profile, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(profile.as_str())
}

/// Checks one target. With [`ValidateOptions::profile_from_context`], its
/// places are looked up as needed; [`validate_target_in`] shares them.
pub fn validate_target(target: &Target, options: ValidateOptions) -> SkillReport {
    validate_target_in(target, options, &Places::new())
}

/// Checks one target, the profile chosen from `places` when the caller
/// chose none.
pub fn validate_target_in(
    target: &Target,
    options: ValidateOptions,
    places: &Places,
) -> SkillReport {
    let chosen = match target {
        Target::SkillFile { directory, .. } => Some(options.choose_profile(directory, places)),
        _ => None,
    };
    validate_target_chosen(target, options, chosen)
}

/// Checks one target with the profile already chosen for it (`None`
/// for a target that is no skill file, which needs none): a walk that
/// checks as it goes chooses while it knows the places.
pub fn validate_target_chosen(
    target: &Target,
    options: ValidateOptions,
    chosen: Option<ProfileChoice>,
) -> SkillReport {
    validate_target_listed(target, options, chosen, Listed::default())
}

/// [`validate_target_chosen`] with what the walk's listing of the skill's
/// directory said ([`Listed`]).
pub fn validate_target_listed(
    target: &Target,
    options: ValidateOptions,
    chosen: Option<ProfileChoice>,
    listed: Listed,
) -> SkillReport {
    let (path, name, diagnostics) = match target {
        Target::SkillFile { file, directory } => {
            let chosen = chosen.unwrap_or(ProfileChoice {
                profile: options.profile,
                source: if options.profile_from_context {
                    ProfileSource::Default
                } else {
                    ProfileSource::Given
                },
            });
            return validate_skill_chosen(&FileSystem, file, directory, listed, options, chosen);
        }
        Target::MissingSkillFile { directory } => (
            directory.clone(),
            None,
            vec![Diagnostic::new(
                codes::Code::SkillFileMissing,
                format!("no SKILL.md (or skill.md) in {}", directory.display()),
            )],
        ),
        Target::Missing { path } => (
            path.clone(),
            None,
            vec![Diagnostic::new(
                codes::Code::PathMissing,
                format!("{} does not exist", path.display()),
            )],
        ),
        Target::NotASkill { path } => (
            path.clone(),
            None,
            vec![Diagnostic::new(
                codes::Code::PathNotASkill,
                format!(
                    "{} is neither a skill directory nor a SKILL.md file",
                    path.display()
                ),
            )],
        ),
        Target::Unreadable { path, reason } => (
            path.clone(),
            None,
            vec![Diagnostic::new(
                codes::Code::FileUnreadable,
                format!("cannot read {}: {reason}", path.display()),
            )],
        ),
    };
    finish_report(path, name, diagnostics, options)
}

/// Checks the skill file `file` in `directory`, read from `source`, the
/// profile chosen from `places` when the caller chose none: the one path
/// from a skill file to its report, for a file on disk and for an
/// editor's buffer ([`validate_skill_text`]) alike.
fn validate_skill_chosen(
    source: &dyn SkillSource,
    file: &Path,
    directory: &Path,
    listed: Listed,
    options: ValidateOptions,
    chosen: ProfileChoice,
) -> SkillReport {
    let options = options.with_choice(chosen);
    let directory_name = directory_name(directory);
    let checked = validate_skill_file(
        source,
        SkillLocation {
            file,
            directory,
            directory_name: directory_name.as_deref(),
            listed,
        },
        options,
    );
    let mut report = finish_report(
        file.to_path_buf(),
        checked.name,
        checked.diagnostics,
        options,
    )
    .with_tokens(checked.tokens);
    report.profile_source = chosen.source;
    report.description = checked.description;
    report
}

/// Checks a skill file's text as [`validate_target`] checks the file on
/// disk: the text stands in for `file` (an editor's unsaved buffer), and
/// everything around it (linked files, evals, the place that chooses the
/// profile) is read from the file system. The same findings, lines and
/// severities as `skill validate FILE`.
pub fn validate_skill_text(
    file: &Path,
    text: &str,
    options: ValidateOptions,
    places: &Places,
) -> SkillReport {
    let directory = match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let source = Buffer {
        file,
        bytes: text.as_bytes(),
    };
    let chosen = options.choose_profile(directory, places);
    validate_skill_chosen(&source, file, directory, Listed::default(), options, chosen)
}

/// One file's bytes held in memory, the rest of the file system as it is.
struct Buffer<'a> {
    file: &'a Path,
    bytes: &'a [u8],
}

impl SkillSource for Buffer<'_> {
    fn read_skill_file(&self, file: &Path) -> Result<Vec<u8>, Diagnostic> {
        if file != self.file {
            return FileSystem.read_skill_file(file);
        }
        if self.bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large(file, self.bytes.len() as u64));
        }
        Ok(self.bytes.to_vec())
    }

    fn exists(&self, path: &Path) -> bool {
        path == self.file || FileSystem.exists(path)
    }

    fn file_names(&self, dir: &Path) -> Vec<String> {
        FileSystem.file_names(dir)
    }
}

/// The report for a skill whose findings are in: warnings become errors
/// under `strict`.
pub fn finish_report(
    path: PathBuf,
    name: Option<String>,
    diagnostics: Vec<Diagnostic>,
    options: ValidateOptions,
) -> SkillReport {
    let diagnostics = if options.strict {
        diagnostics.into_iter().map(promote_warning).collect()
    } else {
        diagnostics
    };
    let mut report = SkillReport::new(path, name, diagnostics);
    report.profile = options.profile;
    report.profile_source = if options.profile_from_context {
        ProfileSource::Default
    } else {
        ProfileSource::Given
    };
    report
}

/// A note stays a note: it flags something worth a look, not a fault.
fn promote_warning(mut diagnostic: Diagnostic) -> Diagnostic {
    if diagnostic.severity == Severity::Warning {
        diagnostic.severity = Severity::Error;
    }
    diagnostic
}

/// A skill file as its [`SkillSource`] knows it.
#[derive(Debug, Clone, Copy)]
pub struct SkillLocation<'a> {
    /// The skill file.
    pub file: &'a Path,
    /// Its directory: relative links are resolved against it.
    pub directory: &'a Path,
    /// Compared with `name`; `None` skips that rule.
    pub directory_name: Option<&'a str>,
    /// What a walk's listing of `directory` said (in `source`).
    pub listed: Listed,
}

/// Reads a skill file from `source` and runs every rule on it; links and
/// evals files are looked up in the same source. Returns the name and
/// description (when they are strings), the findings and the token counts.
pub fn validate_skill_file(
    source: &dyn SkillSource,
    skill: SkillLocation<'_>,
    options: ValidateOptions,
) -> Checked {
    let bytes = match source.read_skill_file(skill.file) {
        Ok(bytes) => bytes,
        Err(problem) => {
            return Checked {
                diagnostics: vec![problem],
                ..Checked::default()
            };
        }
    };
    let mut checked = check_contents(
        &bytes,
        CheckContext {
            directory_name: skill.directory_name,
            links: Some(LinkRoot {
                source,
                directory: skill.directory,
            }),
            profile: options.profile,
            // The location in a client's listing depends on where that
            // client installs the skill; counted without it, the report is
            // the same on every machine.
            location: None,
            skip_unshown_counts: options.skip_unshown_counts,
        },
    );
    // The listing answers for most skills that there is no `evals/`,
    // without a lookup.
    if !skill.listed.no_evals {
        evals::check_evals(
            source,
            skill.directory,
            checked.name.as_deref(),
            &mut checked.diagnostics,
        );
    }
    checked
}

/// The name a directory is known by: its last component, or for `.`-like
/// paths the last component of where it really is.
pub fn directory_name(directory: &Path) -> Option<String> {
    if let Some(name) = directory.file_name() {
        return Some(name.to_string_lossy().into_owned());
    }
    let directory = if directory.as_os_str().is_empty() {
        Path::new(".")
    } else {
        directory
    };
    fs::canonicalize(directory)
        .ok()?
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
}

/// What the content checks need to know about where the file lives.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckContext<'a> {
    /// Compared with `name`; `None` skips that rule.
    pub directory_name: Option<&'a str>,
    /// Where relative links are looked up; `None` skips the link check.
    pub links: Option<LinkRoot<'a>>,
    pub profile: Profile,
    /// The skill file's absolute path, as the listing shows it; `None`
    /// counts the listing entry with an empty location.
    pub location: Option<&'a Path>,
    /// Nobody will see the counts: a body of at most
    /// [`tokens::BODY_TOKEN_BUDGET`] bytes cannot be over the budget (a
    /// token is at least one byte), so it is not counted and `tokens` is
    /// `None`. A longer body is counted, for `W007`.
    pub skip_unshown_counts: bool,
}

/// Where the files a body links to are looked for: a directory in a
/// source.
#[derive(Clone, Copy)]
pub struct LinkRoot<'a> {
    pub source: &'a dyn SkillSource,
    pub directory: &'a Path,
}

impl std::fmt::Debug for LinkRoot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinkRoot")
            .field("directory", &self.directory)
            .finish_non_exhaustive()
    }
}

/// The findings for a skill file's contents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    pub name: Option<String>,
    pub description: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// Counted when the frontmatter parses.
    pub tokens: Option<TokenCounts>,
}

/// Checks the raw bytes of a skill file. Total: any input gives a result.
pub fn check_contents(bytes: &[u8], context: CheckContext<'_>) -> Checked {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Checked {
            diagnostics: vec![too_large(
                context.location.unwrap_or(Path::new("SKILL.md")),
                bytes.len() as u64,
            )],
            ..Checked::default()
        };
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => check_text(text, context),
        Err(err) => {
            let valid = &bytes[..err.valid_up_to()];
            let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
            Checked {
                diagnostics: vec![
                    Diagnostic::new(
                        codes::Code::FileNotUtf8,
                        format!(
                            "skill file is not UTF-8 (invalid byte at offset {})",
                            err.valid_up_to()
                        ),
                    )
                    .with_line(Some(line)),
                ],
                ..Checked::default()
            }
        }
    }
}

/// Checks the text of a skill file.
pub fn check_text(text: &str, context: CheckContext<'_>) -> Checked {
    let mut diagnostics = Vec::new();
    let document = match frontmatter::split(text) {
        Ok(document) => document,
        Err(err) => {
            let code = match err {
                SplitError::Missing { .. } => codes::Code::FrontmatterMissing,
                SplitError::Unclosed { .. } => codes::Code::FrontmatterUnclosed,
            };
            diagnostics.push(Diagnostic::new(code, err.to_string()).with_line(Some(1)));
            return Checked {
                diagnostics,
                ..Checked::default()
            };
        }
    };

    if context.profile.rules().contains(&ClientRule::StrictFences) {
        check_strict_fences(text, &document, &mut diagnostics);
    }
    rules::check_body_length(document.body, document.body_first_line, &mut diagnostics);
    if let Some(root) = context.links {
        check_links(
            document.body,
            document.body_first_line,
            root,
            &mut diagnostics,
        );
    }

    let parsed = match frontmatter::parse(&document) {
        Ok(parsed) => parsed,
        Err(err) => {
            let (code, line) = match &err {
                ParseError::Syntax { line, .. } => (codes::Code::YamlInvalid, *line),
                ParseError::Budget { line, .. } => (codes::Code::YamlBudget, *line),
                ParseError::NotMapping { .. } => (
                    codes::Code::FrontmatterNotMapping,
                    Some(document.yaml_first_line),
                ),
            };
            diagnostics.push(Diagnostic::new(code, err.to_string()).with_line(line));
            return Checked {
                diagnostics,
                ..Checked::default()
            };
        }
    };
    rules::check_frontmatter(
        &parsed,
        RuleContext {
            directory_name: context.directory_name,
            profile: context.profile,
        },
        &mut diagnostics,
    );
    let name = parsed
        .get("name")
        .and_then(|entry| entry.value.as_str())
        .map(str::to_owned);
    let description = parsed
        .get("description")
        .and_then(|entry| entry.value.as_str())
        .map(str::to_owned);
    let text_of = |key: &str| {
        parsed
            .get(key)
            .and_then(|entry| entry.value.as_str())
            .map_or("", str::trim)
    };
    let counted = !context.skip_unshown_counts || document.body.len() > tokens::BODY_TOKEN_BUDGET;
    let body_tokens = counted.then(|| tokens::count_tokens(document.body));
    if let Some(body_tokens) = body_tokens {
        tokens::check_body_tokens(body_tokens, document.body_first_line, &mut diagnostics);
    }
    let tokens = body_tokens
        .filter(|_| !context.skip_unshown_counts)
        .map(|body| TokenCounts {
            metadata: tokens::entry_tokens_of(
                text_of("name"),
                text_of("description"),
                &context
                    .location
                    .map_or(std::borrow::Cow::Borrowed(""), Path::to_string_lossy),
            ),
            body,
        });
    Checked {
        name,
        description,
        diagnostics,
        tokens,
    }
}

/// The most missing-link warnings one file gets; the rest are counted in
/// one summary warning, so a body of a million broken links stays a
/// bounded report.
pub const MAX_LINK_FINDINGS: usize = 50;

/// Gemini CLI finds the frontmatter with `^---\r?\n(...)\r?\n---\r?\n`:
/// a byte-order mark, or a closing `---` that ends the file without a line
/// break, and it skips the skill.
fn check_strict_fences(
    text: &str,
    document: &frontmatter::Document<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let clients = rules::enforced_by(ClientRule::StrictFences);
    if text.starts_with('\u{feff}') {
        out.push(
            Diagnostic::new(
                codes::Code::FencesNotStrict,
                format!("the file starts with a byte-order mark; {clients} needs '---' as its first bytes"),
            )
            .with_line(Some(1)),
        );
    }
    if document.body.is_empty() && !text.ends_with('\n') {
        out.push(
            Diagnostic::new(
                codes::Code::FencesNotStrict,
                format!(
                    "the closing '---' ends the file without a line break; {clients} needs one"
                ),
            )
            .with_line(Some(document.body_first_line - 1)),
        );
    }
}

fn check_links(body: &str, body_first_line: usize, root: LinkRoot<'_>, out: &mut Vec<Diagnostic>) {
    let mut missing = 0usize;
    // Each distinct target is looked up once, however often it is linked.
    let mut seen: std::collections::HashMap<&str, bool> = std::collections::HashMap::new();
    let links = links::relative_links(body, body_first_line);
    for link in &links {
        let exists = match seen.get(link.target.as_ref()) {
            Some(exists) => *exists,
            None => {
                let exists = root
                    .source
                    .exists(&root.directory.join(link.target.as_ref()));
                seen.insert(link.target.as_ref(), exists);
                exists
            }
        };
        if exists {
            continue;
        }
        missing += 1;
        if missing <= MAX_LINK_FINDINGS {
            out.push(
                Diagnostic::new(
                    codes::Code::LinkTargetMissing,
                    format!("linked file '{}' does not exist", link.target),
                )
                .with_line(Some(link.line)),
            );
        }
    }
    if missing > MAX_LINK_FINDINGS {
        out.push(Diagnostic::new(
            codes::Code::LinkTargetMissing,
            format!(
                "{} more links to missing files are not listed (at most {MAX_LINK_FINDINGS} per file)",
                missing - MAX_LINK_FINDINGS
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Checked {
        check_text(text, CheckContext::default())
    }

    fn codes_of(checked: &Checked) -> Vec<&'static str> {
        checked.diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn frontmatter_problems_have_their_own_codes() {
        assert_eq!(
            codes_of(&check("# no frontmatter\n")),
            [codes::Code::FrontmatterMissing]
        );
        assert_eq!(
            codes_of(&check("---\nname: a\n")),
            [codes::Code::FrontmatterUnclosed]
        );
        assert_eq!(
            codes_of(&check("---\n- a\n---\n")),
            [codes::Code::FrontmatterNotMapping]
        );
        assert_eq!(
            codes_of(&check("---\nname: [a\n---\n")),
            [codes::Code::YamlInvalid]
        );
        let bomb = format!("---\nname: {}\n---\n", "[".repeat(100_000));
        assert_eq!(codes_of(&check(&bomb)), [codes::Code::YamlBudget]);
    }

    #[test]
    fn every_problem_is_reported_in_one_pass() {
        let text = format!(
            "---\nname: Claude--Tools\ndescription: <b>x</b>\nmetadata: 3\nextra: 1\n---\n{}",
            "l\n".repeat(501)
        );
        let checked = check(&text);
        let found = codes_of(&checked);
        for code in [
            codes::Code::NameCharacters,
            codes::Code::NameHyphens,
            codes::Code::NameReserved,
            codes::Code::DescriptionXmlTag,
            codes::Code::MetadataNotMapping,
            codes::Code::UnknownKey,
            codes::Code::BodyTooLong,
        ] {
            assert!(found.contains(&code.id()), "{code} missing from {found:?}");
        }
        assert_eq!(checked.name.as_deref(), Some("Claude--Tools"));
    }

    #[test]
    fn non_utf8_and_oversized_contents() {
        let checked = check_contents(b"---\nname: a\xff\n---\n", CheckContext::default());
        assert_eq!(codes_of(&checked), [codes::Code::FileNotUtf8]);
        assert_eq!(checked.diagnostics[0].line, Some(2));
        let big = vec![b'a'; MAX_FILE_BYTES as usize + 1];
        assert_eq!(
            codes_of(&check_contents(&big, CheckContext::default())),
            [codes::Code::FileTooLarge]
        );
    }

    #[test]
    fn links_resolve_against_the_skill_directory() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("references")).unwrap();
        fs::write(dir.path().join("references/guide.md"), "x").unwrap();
        fs::write(dir.path().join("a b.md"), "x").unwrap();
        let text = "---\nname: a\ndescription: d\n---\n[ok](references/guide.md) [sp](a%20b.md)\n[missing](references/nope.md)\n";
        let checked = check_text(
            text,
            CheckContext {
                links: Some(LinkRoot {
                    source: &FileSystem,
                    directory: dir.path(),
                }),
                ..CheckContext::default()
            },
        );
        assert_eq!(codes_of(&checked), [codes::Code::LinkTargetMissing]);
        assert_eq!(checked.diagnostics[0].line, Some(6));
    }

    #[test]
    fn unshown_counts_skip_short_bodies_but_never_w007() {
        let skip = CheckContext {
            skip_unshown_counts: true,
            ..CheckContext::default()
        };
        let short = check_text("---\nname: a\ndescription: d\n---\nhello world\n", skip);
        assert_eq!(short.tokens, None);
        // Over the budget in tokens, so over it in bytes: still counted.
        let long = format!(
            "---\nname: a\ndescription: d\n---\nword{}",
            " word".repeat(5999)
        );
        let skipped = check_text(&long, skip);
        assert_eq!(codes_of(&skipped), [codes::Code::BodyOverTokenBudget]);
        assert_eq!(skipped.tokens, None, "not shown, so not kept");
        let shown = check_text(&long, CheckContext::default());
        assert_eq!(shown.tokens.map(|tokens| tokens.body), Some(6000));
        assert_eq!(codes_of(&shown), codes_of(&skipped));
    }

    #[test]
    fn strict_promotes_warnings() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("a");
        fs::create_dir(&skill).unwrap();
        fs::write(
            skill.join("SKILL.md"),
            "---\nname: a\ndescription: d\nx: 1\n---\n",
        )
        .unwrap();
        let target = Target::for_path(&skill);
        let lenient = validate_target(&target, ValidateOptions::default());
        assert!(lenient.valid);
        assert_eq!(lenient.warning_count(), 1);
        let strict = validate_target(
            &target,
            ValidateOptions {
                strict: true,
                ..ValidateOptions::default()
            },
        );
        assert!(!strict.valid);
        assert_eq!(strict.warning_count(), 0);
    }
}
