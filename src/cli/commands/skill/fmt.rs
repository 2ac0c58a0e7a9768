//! `aigent skill fmt [--check] [--diff] [--recursive] PATH...`

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use aigent::report::escape::escape_controls;
use aigent::report::{ErrorBody, ErrorCode, Outcome};
use aigent::skill::rewrite::fmt::format_proposal;
use aigent::skill::rewrite::{RewriteOptions, Site, Status, rewrite_paths};

use super::rewrite::{
    data, missing_failure, plural, skipped_warnings, write_diff, write_failure, write_skipped,
};
use super::{CliError, Context};
use crate::cli::spec::{CommandSpec, Mutating, SKILL_REWRITER, TEXT_AND_JSON, leaf};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("skill.fmt", Mutating, SKILL_REWRITER, TEXT_AND_JSON, false);

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # rewrite one skill's SKILL.md in canonical form
  aigent skill fmt ./my-skill
  # every skill below skills/
  aigent skill fmt --recursive skills/
  aigent skill fmt --check --recursive .        # CI: exit 1 if anything would change
  aigent skill fmt --diff skills/pdf            # show the change, write nothing
  aigent skill fmt --diff -r . > fmt.patch      # the patch alone: git apply fmt.patch

Canonical frontmatter: keys in the spec's order (name, description,
license, compatibility, allowed-tools, metadata, then the rest as found),
strings plain where YAML reads them back unchanged and double-quoted
otherwise, two-space indentation under each key, no trailing whitespace.
Comments and every value are kept, the body is left byte for byte, and
each file is replaced atomically, keeping its mode, owner and group. A
file whose values a rewrite would change is left alone and reported, and so
is one reached through a symlink that leads outside the tree given (W010):
it is neither read nor written. A file that changes while it is rewritten
is left as it is; one with other hard links, or whose owner cannot be
kept, is refused unless --force.

Exit codes: 0 done (or, with --check/--diff, nothing would change), 1 a
file would change (--check/--diff) or cannot be formatted, 5 a path does
not exist or --recursive found no skill.")]
pub struct FmtArgs {
    /// Skill directories or SKILL.md files
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Format every skill below each PATH
    #[arg(short, long)]
    pub recursive: bool,

    /// Write nothing; exit 1 if any file would change
    #[arg(long)]
    pub check: bool,

    /// Write nothing; print the change as a unified diff (implies --check)
    #[arg(long)]
    pub diff: bool,

    /// Replace a file that has other hard links (they keep the old
    /// contents) or whose owner and group cannot be kept (it becomes this
    /// user's); refused without it
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &FmtArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let check = args.check || args.diff;
    let propose = |text: &str, site: &Site<'_>| {
        format_proposal(text, site.directory_name).map_err(|err| err.to_string())
    };
    let mut run = rewrite_paths(
        &args.paths,
        RewriteOptions {
            recursive: args.recursive,
            write: !check,
            rename_dirs: false,
            force: args.force,
        },
        &propose,
    );
    if !args.diff {
        for file in &mut run.files {
            file.diff = None;
        }
    }
    let summary = run.summary();
    let mut text = String::new();
    // `--diff` into a file or a pipe: the patch alone, as `git apply` and
    // `patch -p1` read it; what else there is to say goes to stderr.
    let bare_patch = args.diff && !ctx.stdout_is_terminal && !ctx.format.is_json();
    let mut notes = Vec::new();
    if bare_patch {
        for file in &run.files {
            match (&file.diff, file.status) {
                (Some(diff), Status::WouldWrite) => text.push_str(diff),
                (_, Status::Failed | Status::Refused) => notes.push(format!(
                    "{}: {}",
                    file.path.display(),
                    file.message.as_deref().unwrap_or("failed")
                )),
                _ => {}
            }
        }
    } else if !ctx.format.is_json() {
        for file in &run.files {
            let path = escape_controls(&file.path.display().to_string()).into_owned();
            match file.status {
                Status::Written => {
                    let _ = writeln!(text, "{}: {path}", ctx.style.success("formatted"));
                }
                Status::WouldWrite => {
                    let _ = writeln!(text, "{}: {path}", ctx.style.warning("would format"));
                    write_diff(&mut text, file, ctx.style);
                }
                Status::Skipped => write_skipped(&mut text, file, ctx.style),
                _ => write_failure(&mut text, file, ctx.style),
            }
        }
        if !ctx.quiet && summary.checked > 0 {
            let verb = if check {
                "would be formatted"
            } else {
                "formatted"
            };
            let _ = writeln!(
                text,
                "{} {verb}, {} already formatted{}",
                plural(summary.changed, "file", "files"),
                summary.unchanged,
                if summary.failed > 0 {
                    format!(", {} failed", summary.failed)
                } else {
                    String::new()
                } + &if summary.skipped > 0 {
                    format!(", {} skipped", summary.skipped)
                } else {
                    String::new()
                }
            );
        }
    }
    let mut warnings = run.notes.clone();
    warnings.extend(notes);
    warnings.extend(skipped_warnings(&run));
    if let Some(outcome) = missing_failure(&run, &args.paths, &text) {
        return Ok(outcome.with_warnings(warnings));
    }
    let outcome = if summary.failed > 0 {
        Outcome::failure(
            data(&run),
            ErrorBody::new(
                ErrorCode::FormatFailed,
                format!(
                    "{} could not be formatted",
                    plural(summary.failed, "skill file", "skill files")
                ),
            )
            .with_hint("run `aigent skill validate` on them for the problems"),
            text,
        )
    } else if check && summary.changed > 0 {
        Outcome::failure(
            data(&run),
            ErrorBody::new(
                ErrorCode::FormatCheckFailed,
                format!(
                    "{} of {} would be reformatted",
                    summary.changed,
                    plural(summary.checked, "skill file", "skill files")
                ),
            )
            .with_hint("run `aigent skill fmt` on the same paths to format them"),
            text,
        )
    } else {
        Outcome::success(data(&run), text)
    };
    // --check and --diff write nothing.
    let effect = crate::cli::spec::Effect::of_changes(summary.changed > 0, check);
    let outcome = crate::cli::spec::with_effect(outcome, effect);
    Ok(outcome.with_warnings(warnings))
}
