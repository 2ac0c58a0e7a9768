//! `aigent skill validate [PATH...]`

use std::path::PathBuf;

use clap::Args;
use serde_json::Value;

use aigent::exec::argv::shell_quote;
use aigent::report::findings::{self, TextOptions};
use aigent::report::sarif::ToolInfo;
use aigent::report::{ErrorBody, ErrorCode, Outcome, exit};
use aigent::skill::render::{ValidationOutput, validation_text};
use aigent::skill::validate::{RunEnd, Tally, select, validate_selection};
use aigent::skill::{
    Profile, RunOptions, SkillReport, ValidateOptions, ValidationRun, Verdict, validate_paths,
};

use aigent::bridge::skills::{Contracts, check_skill, diagnostics, registry_beside};
use aigent::registry::Registry;
use aigent::skill::read::read_skill_file;

use super::{CliError, Context};
use crate::cli::changed::{ChangedArgs, vcs_error};
use crate::cli::page::PageArgs;
use crate::cli::spec::{CommandSpec, FINDINGS, NoEffects, Rows, Safe, USAGE, code_when, leaf};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "skill.validate",
    Safe,
    &[
        code_when(
            exit::SUCCESS,
            NoEffects,
            "all valid (warnings allowed unless --strict)",
        ),
        code_when(exit::VALIDATION_FAILED, NoEffects, "a skill has errors"),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "--changed outside a git work tree, no history shared with the base, or the registry has an invalid declaration",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "a path does not exist, --recursive found no skill, --base names no commit, or --commands names no directory",
        ),
    ],
    FINDINGS,
    true,
)
.with_rows(Rows {
    field: "skills",
    columns: &["path", "name", "valid", "profile", "diagnostics"],
});

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # one skill directory
  aigent skill validate ./my-skill
  # every skill below a directory
  aigent skill validate --recursive examples/skills
  # warnings as errors, Claude Code's keys known
  aigent skill validate --strict --profile claude-code .claude/skills/*/
  aigent skill validate --recursive --profile strictest .   # every client loads it
  aigent skill validate --changed                      # skills this branch touched
  aigent skill validate --changed --base origin/main --compare-to head   # CI
  aigent skill validate --recursive --output sarif . > aigent.sarif  # code scanning
  aigent skill validate --recursive --watch skills/   # again on every save

Every path that exists is validated even when another does not.

In json mode `data.skills` holds at most 20 reports unless --limit says \
otherwise, in the order the skills were found, and stays within the \
response cap (AIGENT_MAX_OUTPUT_BYTES or TOOL_MAX_OUTPUT_BYTES, else 1 \
MiB); meta.cursor continues it. Every skill is still validated: the \
summary and the exit status count them all. Text, GitHub and SARIF \
output report every skill.

--changed validates the skills touched between the merge base of the base
and HEAD, and the work tree (or the index, or HEAD: --compare-to), below
the PATHs, which must be in one repository. The default base is the
upstream, then origin/HEAD, main, master; the one used is reported.
Deleted skills are reported, not validated. --recursive adds nothing to
--changed, which already covers whole subtrees.

With a registry of declarations, each Bash(...) grant in allowed-tools
and each !`cmd` dynamic-context command is also held against it, as
`aigent skill contracts` does: W011 a grant wider than any contract, W012
a command no contract declares, E033 a command its contract refuses. The
registry is --commands (or AIGENT_COMMANDS); without it, the first
commands/ directory holding an aigent.toml found from the first PATH
upwards, up to the repository's root (the one used is reported).")]
pub struct ValidateArgs {
    /// Skill directories or SKILL.md files
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Validate every skill below each PATH (hidden directories included;
    /// .git, node_modules and target skipped)
    #[arg(short, long)]
    pub recursive: bool,

    /// Treat warnings as errors
    #[arg(long)]
    pub strict: bool,

    /// Which client's view to take: its frontmatter keys count as known,
    /// and its stricter rules apply (docs/reference/client-profiles.md).
    /// Without it, a skill inside a .claude/ directory or a Claude Code
    /// plugin gets claude-code, any other standard
    #[arg(long, value_enum, value_name = "PROFILE")]
    pub profile: Option<ProfileArg>,

    #[command(flatten)]
    pub changed: ChangedArgs,

    /// Validate again whenever a file below the PATHs changes, printing
    /// only the findings that appeared or went away; Ctrl-C stops
    #[arg(long, conflicts_with = "changed")]
    pub watch: bool,

    /// In json, which skills' reports `data.skills` holds: every skill is
    /// still validated, and the summary and exit code count them all
    #[command(flatten)]
    pub page: PageArgs,
}

pub use crate::cli::profile::ProfileArg;

pub fn run(args: &ValidateArgs, ctx: &Context) -> Result<Outcome, CliError> {
    if args.watch {
        return watch(args, ctx);
    }
    // What can fail before any output: the cursor, finding what changed,
    // loading the registry. Then each report is written as soon as it is
    // final.
    let page = if ctx.format.is_json() {
        let query = format!(
            "skill validate\0{:?}\0{}\0{}\0{:?}\0{:?}",
            args.paths, args.recursive, args.strict, args.profile, args.changed
        );
        Some(args.page.request(ctx, &query)?)
    } else {
        None
    };
    let paging_ignored =
        page.is_none() && (args.page.limit.is_some() || args.page.cursor.is_some());
    let options = run_options(args, ctx);
    let selection = select(&args.paths, &options).map_err(vcs_error)?;
    let registry = registry_for(args, ctx);
    let contracts = match &registry {
        Some(found) => Some(Contracts::load(&found.registry)?),
        None => None,
    };
    Ok(crate::cli::output::stream(ctx, |out| {
        let validate = options.validate;
        let mut each = |skill: &mut SkillReport| {
            if let Some(contracts) = &contracts {
                check_contracts(skill, contracts, validate);
            }
        };
        let mut output = ValidationOutput::new(
            ctx.format,
            TextOptions {
                style: ctx.style,
                quiet: ctx.quiet,
            },
            skill_tool(),
            Box::new(crate::cli::sarif::roots),
            out,
        )
        .with_each(&mut each);
        if let Some(request) = &page {
            output = output.with_page(request);
        }
        let mut end = validate_selection(selection, validate, &mut output)?;
        let written = output.page();
        if let Some(found) = &registry {
            end.notes.push(found.note());
        }
        // GitHub's log shows the notes as `::warning` lines and SARIF as
        // tool notifications; elsewhere they go to stderr (or the
        // envelope).
        let carried = findings::carries_warnings(ctx.format);
        let (tally, _) = output.finish(&end, if carried { &end.notes } else { &[] })?;
        let mut warnings = if carried {
            Vec::new()
        } else {
            end.notes.clone()
        };
        if paging_ignored {
            warnings.push(
                "--limit and --cursor page the json output; this format lists every skill"
                    .to_owned(),
            );
        }
        let mut outcome = verdict_outcome(&tally, &end, args).with_warnings(warnings);
        if let Some(page) = written {
            outcome.meta.extend(page.meta());
        }
        Ok(outcome)
    }))
}

/// `--watch`: the first run's text, then what changes.
fn watch(args: &ValidateArgs, ctx: &Context) -> Result<Outcome, CliError> {
    crate::cli::watch::check_format(ctx)?;
    let targets: Vec<_> = args
        .paths
        .iter()
        .filter_map(|path| crate::cli::watch::target(path))
        .collect();
    if targets.is_empty() {
        return Err(CliError::not_found(
            "none of the PATHs exists: nothing to watch",
        ));
    }
    let findings = |run: &ValidationRun| -> crate::cli::watch::Findings {
        run.skills
            .iter()
            .flat_map(|skill| {
                let file = skill.path.display().to_string();
                skill
                    .diagnostics
                    .iter()
                    .map(move |diagnostic| crate::cli::watch::Seen::new(&file, diagnostic))
            })
            .collect()
    };
    let first = validate(args, ctx)?;
    let text = validation_text(
        &first,
        TextOptions {
            style: ctx.style,
            quiet: ctx.quiet,
        },
    );
    crate::cli::watch::watch(&targets, ctx, &text, findings(&first), || {
        validate(args, ctx).map(|run| findings(&run))
    })
}

fn run_options(args: &ValidateArgs, ctx: &Context) -> RunOptions {
    RunOptions {
        recursive: args.recursive,
        changed: args.changed.scope(),
        validate: validate_options(args, ctx),
    }
}

/// The whole run held in memory, for `--watch`.
fn validate(args: &ValidateArgs, ctx: &Context) -> Result<ValidationRun, CliError> {
    let options = run_options(args, ctx);
    let mut run = validate_paths(&args.paths, &options).map_err(vcs_error)?;
    if let Some(found) = registry_for(args, ctx) {
        let contracts = Contracts::load(&found.registry)?;
        for skill in &mut run.skills {
            check_contracts(skill, &contracts, options.validate);
        }
        run.notes.push(found.note());
    }
    Ok(run)
}

fn validate_options(args: &ValidateArgs, ctx: &Context) -> ValidateOptions {
    ValidateOptions {
        profile: args.profile.map_or(Profile::STANDARD, Into::into),
        strict: args.strict,
        profile_from_context: args.profile.is_none(),
        // Only json output shows the counts.
        skip_unshown_counts: !ctx.format.is_json(),
    }
}

/// The registry the skills' commands are held against, and how it was
/// found.
struct FoundRegistry {
    registry: Registry,
    directory: PathBuf,
    /// The PATH it was found beside; `None` when it was given.
    beside: Option<PathBuf>,
}

impl FoundRegistry {
    fn note(&self) -> String {
        match &self.beside {
            Some(path) => format!(
                "Bash grants and !`cmd` commands checked against the registry {} (found beside {})",
                self.directory.display(),
                path.display()
            ),
            None => format!(
                "Bash grants and !`cmd` commands checked against the registry {}",
                self.directory.display()
            ),
        }
    }
}

/// `--commands` (or AIGENT_COMMANDS), else a registry beside the first
/// PATH that has one; `None` when there is none.
fn registry_for(args: &ValidateArgs, ctx: &Context) -> Option<FoundRegistry> {
    let (directory, beside) = match &ctx.commands_dir {
        Some(directory) => (directory.clone(), None),
        None => args.paths.iter().find_map(|path| {
            registry_beside(path).map(|directory| (directory, Some(path.clone())))
        })?,
    };
    Some(FoundRegistry {
        registry: Registry::new(Some(directory.clone())),
        directory,
        beside,
    })
}

/// With a registry, a skill's `Bash` grants and `` !`cmd` `` commands
/// held against it: the findings `skill contracts` makes, as
/// diagnostics.
fn check_contracts(skill: &mut SkillReport, contracts: &Contracts<'_>, options: ValidateOptions) {
    if !skill.path.is_file() {
        return;
    }
    let Ok(bytes) = read_skill_file(&skill.path) else {
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    for diagnostic in diagnostics(&check_skill(&text, contracts)) {
        skill.add_finding(diagnostic, options);
    }
}

/// The rules `skill validate` reports: the skill codes.
fn skill_tool() -> ToolInfo<'static> {
    ToolInfo {
        rules: aigent::skill::codes::Code::TABLE,
        rules_page: aigent::report::SKILL_CODES_PAGE,
    }
}

/// The exit code and error of a run, from its counts. `data` and `text`
/// are empty: the reports were written as they came.
fn verdict_outcome(tally: &Tally, end: &RunEnd, args: &ValidateArgs) -> Outcome {
    let data = Value::Null;
    let summary = tally.summary();
    match tally.verdict(end.found_nothing) {
        Verdict::Valid => Outcome::success(data, ""),
        Verdict::PathMissing => {
            let missing: Vec<String> = tally
                .missing_paths()
                .iter()
                .map(|path| path.display().to_string())
                .collect();
            let message = match missing.as_slice() {
                [one] => format!("{one} does not exist"),
                many => format!("{} paths do not exist: {}", many.len(), many.join(", ")),
            };
            let mut error = ErrorBody::new(ErrorCode::NotFound, message);
            if summary.checked > 0 {
                error = error.with_hint("the other paths were still validated");
            }
            Outcome::failure(data, error, "")
        }
        Verdict::NothingFound => {
            let places: Vec<String> = args
                .paths
                .iter()
                .map(|path| path.display().to_string())
                .collect();
            Outcome::failure(
                data,
                ErrorBody::new(
                    ErrorCode::NoSkillsFound,
                    format!("no SKILL.md found below {}", places.join(", ")),
                )
                .with_hint("a skill is a directory holding a SKILL.md file"),
                "",
            )
        }
        Verdict::Invalid => {
            let mut error = ErrorBody::new(
                ErrorCode::ValidationFailed,
                format!(
                    "{} of {} skill{} {} invalid",
                    summary.invalid,
                    summary.checked,
                    if summary.checked == 1 { "" } else { "s" },
                    if summary.invalid == 1 { "is" } else { "are" }
                ),
            );
            if !end.skills_below.is_empty() {
                let places: Vec<String> = end
                    .skills_below
                    .iter()
                    .map(|path| shell_quote(&path.to_string_lossy()))
                    .collect();
                error = error.with_hint(format!(
                    "{} holds no SKILL.md but has skills below it; to validate them: aigent skill validate --recursive {}",
                    places.join(", "),
                    places.join(" ")
                ));
            }
            Outcome::failure(data, error, "")
        }
    }
}
