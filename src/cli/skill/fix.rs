//! `aigent skill fix [--dry-run] [--recursive] PATH...`

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use aigent::report::escape::escape_controls;
use aigent::report::{ErrorBody, ErrorCode, Outcome, exit};
use aigent::skill::check::{LinkRoot, directory_name};
use aigent::skill::fix::{FixContext, fix_text};
use aigent::skill::place::{Places, profile_note};
use aigent::skill::rewrite::{FileResult, Status, rewrite_paths};
use aigent::skill::source::FileSystem;
use aigent::skill::{Profile, ValidateOptions};

use super::rewrite::{data, missing_failure, plural, write_diff, write_failure};
use super::validate::ProfileArg;
use super::{CliError, Context};

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  aigent skill fix ./my-skill
  aigent skill fix --dry-run --recursive skills/     # show the diffs, write nothing
  aigent skill fix --profile codex .agents/skills/*/

Repairs, each of which keeps every value:
  - a one-line value YAML misreads (`description: Use when: x`, `license: 2.0`) is quoted
  - an allowed-tools list becomes the spec's space-separated string
  - unknown top-level keys with a single value move under metadata, as strings;
    a key that any client reads (disable-model-invocation, effort, ...) never
    moves, whatever --profile says: that would change what the skill does
  - a name that is a title of the directory's name (`PDF Tools` in pdf-tools/)
    becomes the directory's name
What it cannot repair safely is listed, not guessed. A fixed skill is
written (atomically) only if it then validates.

Exit codes: 0 every skill is valid after fixing, 1 a skill still has errors
(its fixes were not written), 5 a path does not exist or --recursive found
no skill.")]
pub struct FixArgs {
    /// Skill directories or SKILL.md files
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Fix every skill below each PATH
    #[arg(short, long)]
    pub recursive: bool,

    /// Show the diffs; write nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Which frontmatter keys count as known (the others move to metadata,
    /// except a key some client reads, which never moves). Without it, a
    /// skill inside a .claude/ directory or a Claude Code plugin gets
    /// claude-code, any other standard
    #[arg(long, value_enum, value_name = "PROFILE")]
    pub profile: Option<ProfileArg>,
}

pub fn run(args: &FixArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let options = ValidateOptions {
        profile: args.profile.map_or(Profile::STANDARD, Into::into),
        strict: false,
        profile_from_context: args.profile.is_none(),
    };
    let propose = |text: &str, directory: &Path, places: &Places| {
        let name = directory_name(directory);
        let choice = options.choose_profile(directory, places);
        let mut proposal = fix_text(
            text,
            FixContext {
                directory_name: name.as_deref(),
                profile: choice.profile,
                links: Some(LinkRoot {
                    source: &FileSystem,
                    directory,
                }),
            },
        );
        proposal.profile = Some(choice);
        Ok(proposal)
    };
    let run = rewrite_paths(&args.paths, args.recursive, !args.dry_run, &propose);
    let summary = run.summary();
    let still_invalid: Vec<&FileResult> = run
        .files
        .iter()
        .filter(|file| {
            matches!(file.status, Status::Refused | Status::Failed)
                || file.left.iter().any(|finding| finding.is_error())
        })
        .collect();
    let mut text = String::new();
    if !ctx.format.is_json() {
        for file in &run.files {
            write_file(&mut text, file, ctx);
        }
        let choices = run
            .files
            .iter()
            .filter_map(|file| file.profile.zip(file.profile_source));
        if !ctx.quiet
            && let Some(note) = profile_note(choices)
        {
            let _ = writeln!(text, "{}: {note}", ctx.style.dim("note"));
        }
        if !ctx.quiet && summary.checked > 0 {
            let verb = if args.dry_run {
                "would be fixed"
            } else {
                "fixed"
            };
            let _ = writeln!(
                text,
                "{} {verb}, {} unchanged, {} still invalid",
                plural(summary.changed, "skill", "skills"),
                summary.unchanged,
                still_invalid.len()
            );
        }
    }
    let warnings = run.notes.clone();
    if let Some(outcome) = missing_failure(&run, &args.paths, &text) {
        return Ok(outcome.with_warnings(warnings));
    }
    let outcome = if still_invalid.is_empty() {
        Outcome::success(data(&run), text)
    } else {
        Outcome::failure(
            exit::VALIDATION_FAILED,
            data(&run),
            ErrorBody::new(
                ErrorCode::FixIncomplete,
                format!(
                    "{} still invalid after fixing; nothing was written to {}",
                    plural(still_invalid.len(), "skill is", "skills are"),
                    if still_invalid.len() == 1 {
                        "it"
                    } else {
                        "them"
                    }
                ),
            )
            .with_hint("each file lists what is left; fix those by hand"),
            text,
        )
    };
    Ok(outcome.with_warnings(warnings))
}

fn write_file(out: &mut String, file: &FileResult, ctx: &Context) {
    let style = ctx.style;
    let path = escape_controls(&file.path.display().to_string()).into_owned();
    match file.status {
        Status::Written | Status::WouldWrite => {
            let label = if file.status == Status::Written {
                style.success("fixed")
            } else {
                style.warning("would fix")
            };
            let _ = writeln!(out, "{label}: {path}");
            for repair in &file.repairs {
                let _ = writeln!(out, "  - {}", escape_controls(&repair.message));
            }
            write_diff(out, file, style);
        }
        Status::Refused => {
            write_failure(out, file, style);
            write_diff(out, file, style);
        }
        Status::Failed | Status::Missing => write_failure(out, file, style),
        Status::Unchanged => {}
    }
    for note in &file.not_fixed {
        let _ = writeln!(
            out,
            "{}: {path}: {}",
            style.warning("not fixed"),
            escape_controls(note)
        );
    }
    if file.status != Status::Failed {
        for finding in &file.left {
            let line = finding
                .line
                .map(|line| format!(":{line}"))
                .unwrap_or_default();
            let label = if finding.is_error() {
                style.error(&format!("left[{}]", finding.code))
            } else {
                style.warning(&format!("left[{}]", finding.code))
            };
            let _ = writeln!(
                out,
                "{label}: {path}{line}: {}",
                escape_controls(&finding.message)
            );
        }
    }
}
