//! `aigent skill fix [--dry-run] [--recursive] PATH...`

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use aigent::exec::argv::shell_quote;
use aigent::report::escape::escape_controls;
use aigent::report::{ErrorBody, ErrorCode, Outcome};
use aigent::skill::check::LinkRoot;
use aigent::skill::place::profile_note;
use aigent::skill::rewrite::fix::{FixContext, fix_text};
use aigent::skill::rewrite::{FileResult, RewriteOptions, Site, Status, rewrite_paths};
use aigent::skill::source::FileSystem;
use aigent::skill::{Profile, ValidateOptions};

use super::rewrite::{
    data, missing_failure, plural, skipped_warnings, write_diff, write_failure, write_skipped,
};
use super::validate::ProfileArg;
use super::{CliError, Context};
use crate::cli::spec::{CommandSpec, Mutating, SKILL_REWRITER, TEXT_AND_JSON, leaf};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("skill.fix", Mutating, SKILL_REWRITER, TEXT_AND_JSON, false);

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # repair what can be repaired, then validate
  aigent skill fix ./my-skill
  aigent skill fix --dry-run --recursive skills/     # show the diffs, write nothing
  # fix for Codex's rules
  aigent skill fix --profile codex .agents/skills/*/

Repairs, each of which keeps every value:
  - a one-line value YAML misreads (`description: Use when: x`, `license: 2.0`) is quoted
  - an allowed-tools list becomes the spec's space-separated string
  - unknown top-level keys with a single value move under metadata, as strings;
    a key that any client reads (disable-model-invocation, effort, ...) never
    moves, whatever --profile says: that would change what the skill does
  - a name that is missing, invalid or not the directory's name becomes the
    directory's name, when that is a valid name; the old value is kept as
    metadata.original-name
  - a directory whose name is not a valid name is renamed only with
    --rename-dir (never over an existing name); without it, fix names the
    directory to rename to, and fix_command says how
Each skill is then put in skill fmt's canonical form, so that fix, then
validate, then fmt --check is clean. What it cannot repair safely is listed,
not guessed. A fixed skill is
written (atomically, keeping its mode, owner and group) only if it then
validates. Nothing is read or written through a symlink that leads outside
the tree given (W010). A file that changes while it is rewritten is left as
it is; one with other hard links, or whose owner cannot be kept, is refused
unless --force.

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

    /// Rename a skill directory whose name is not a valid name to the
    /// proposed one (never over an existing name), then fix its name
    #[arg(long)]
    pub rename_dir: bool,

    /// Which frontmatter keys count as known (the others move to metadata,
    /// except a key some client reads, which never moves). Without it, a
    /// skill inside a .claude/ directory or a Claude Code plugin gets
    /// claude-code, any other standard
    #[arg(long, value_enum, value_name = "PROFILE")]
    pub profile: Option<ProfileArg>,

    /// Replace a file that has other hard links (they keep the old
    /// contents) or whose owner and group cannot be kept (it becomes this
    /// user's); refused without it
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &FixArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let options = ValidateOptions {
        profile: args.profile.map_or(Profile::STANDARD, Into::into),
        strict: false,
        profile_from_context: args.profile.is_none(),
        skip_unshown_counts: false,
    };
    let propose = |text: &str, site: &Site<'_>| {
        let choice = options.choose_profile(site.directory, site.places);
        let mut proposal = fix_text(
            text,
            FixContext {
                directory_name: site.directory_name,
                profile: choice.profile,
                links: Some(LinkRoot {
                    source: &FileSystem,
                    directory: site.directory,
                }),
                format: true,
            },
        );
        proposal.profile = Some(choice);
        Ok(proposal)
    };
    let run = rewrite_paths(
        &args.paths,
        RewriteOptions {
            recursive: args.recursive,
            write: !args.dry_run,
            rename_dirs: args.rename_dir,
            force: args.force,
        },
        &propose,
    );
    let summary = run.summary();
    let still_invalid: Vec<&FileResult> = run
        .files
        .iter()
        .filter(|file| {
            matches!(file.status, Status::Refused | Status::Failed)
                || file.left.iter().any(|finding| finding.is_error())
        })
        .collect();
    // Directories to rename, for `fix_command`: only on request.
    let to_rename: Vec<&FileResult> = run
        .files
        .iter()
        .filter(|file| file.rename.as_ref().is_some_and(|rename| !rename.done))
        .filter(|_| !args.rename_dir)
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
                "{} {verb}, {} unchanged, {} still invalid{}",
                plural(summary.changed, "skill", "skills"),
                summary.unchanged,
                still_invalid.len(),
                if summary.skipped > 0 {
                    format!(", {} skipped", summary.skipped)
                } else {
                    String::new()
                }
            );
        }
    }
    let mut warnings = run.notes.clone();
    warnings.extend(skipped_warnings(&run));
    let mut data = data(&run);
    add_fix_commands(&mut data, &run.files);
    if let Some(mut outcome) = missing_failure(&run, &args.paths, &text) {
        outcome.data = data;
        return Ok(outcome.with_warnings(warnings));
    }
    let outcome = if still_invalid.is_empty() {
        let effect = crate::cli::spec::Effect::of_changes(summary.changed > 0, args.dry_run);
        crate::cli::spec::with_effect(Outcome::success(data, text), effect)
    } else {
        let mut error = ErrorBody::new(
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
        );
        match rename_command(&to_rename) {
            Some(command) => {
                error = error.with_hint(format!(
                    "{} not a valid name; to rename and fix: {command}",
                    plural(to_rename.len(), "directory name is", "directory names are"),
                ));
                error.fix_command = Some(command);
            }
            None => error = error.with_hint("each file lists what is left; fix those by hand"),
        }
        Outcome::failure(data, error, text)
    };
    Ok(outcome.with_warnings(warnings))
}

/// `aigent skill fix --rename-dir DIR...` for the directories to rename.
fn rename_command(files: &[&FileResult]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let mut words = vec!["aigent skill fix --rename-dir".to_owned()];
    for file in files {
        let rename = file.rename.as_ref()?;
        words.push(shell_quote(rename.from.to_str()?));
    }
    Some(words.join(" "))
}

/// Each file whose directory is to be renamed gets its own `fix_command`.
fn add_fix_commands(data: &mut serde_json::Value, files: &[FileResult]) {
    let Some(entries) = data["files"].as_array_mut() else {
        return;
    };
    for (entry, file) in entries.iter_mut().zip(files) {
        if file.rename.as_ref().is_some_and(|rename| !rename.done)
            && let Some(command) = rename_command(&[file])
            && let Some(object) = entry.as_object_mut()
        {
            object.insert("fix_command".to_owned(), command.into());
        }
    }
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
            if let Some(rename) = &file.rename {
                let _ = writeln!(
                    out,
                    "  - {} the directory {} to {}",
                    if rename.done {
                        "renamed"
                    } else {
                        "would rename"
                    },
                    escape_controls(&rename.from.display().to_string()),
                    escape_controls(&rename.to.display().to_string())
                );
            }
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
        Status::Skipped => write_skipped(out, file, style),
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
