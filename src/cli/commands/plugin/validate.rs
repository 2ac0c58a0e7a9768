//! `aigent plugin validate [PATH...]`

use std::path::PathBuf;

use clap::Args;

use aigent::plugin::{validate_changed_plugins, validate_plugin_paths};
use aigent::report::findings::{self, TextOptions};
use aigent::report::{ErrorBody, ErrorCode, Outcome, exit};
use aigent::skill::render::{ValidationFindings, validation_json};
use aigent::skill::{ValidateOptions, ValidationRun, Verdict};

use super::{CliError, Context};
use crate::cli::changed::{ChangedArgs, vcs_error};
use crate::cli::profile::ProfileArg;
use crate::cli::spec::{CommandSpec, FINDINGS, NoEffects, Rows, Safe, USAGE, code_when, leaf};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "plugin.validate",
    Safe,
    &[
        code_when(
            exit::SUCCESS,
            NoEffects,
            "all valid (warnings allowed unless --strict)",
        ),
        code_when(
            exit::VALIDATION_FAILED,
            NoEffects,
            "a manifest, plugin or skill has errors",
        ),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "--changed outside a git work tree, or no history shared with the base",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "a path does not exist, or --base names no commit",
        ),
    ],
    FINDINGS,
    false,
)
.with_rows(Rows {
    field: "skills",
    columns: &["path", "name", "valid", "diagnostics"],
});

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  aigent plugin validate .                       # a marketplace root or a plugin
  # one plugin
  aigent plugin validate plugins/formatter
  aigent plugin validate --strict --output json my-marketplace
  aigent plugin validate --changed --base origin/main   # what this branch touched
  aigent plugin validate --output sarif . > plugins.sarif  # code scanning

A PATH holding .claude-plugin/marketplace.json is a marketplace: its
manifest is checked, then every plugin whose source is a local path.
Otherwise a PATH is a plugin: .claude-plugin/plugin.json (optional) and
its skills/, commands/, agents/ and hooks/hooks.json. Skills get every
skill rule (codes E/W); plugin findings have P codes.

--changed validates only the plugins and marketplaces whose files changed
between the merge base and the work tree (or --compare-to index|head): a
changed file selects the nearest directory above it holding
.claude-plugin/plugin.json or marketplace.json. Their files are read from
the work tree. Deleted plugins are reported, not validated.")]
pub struct ValidateArgs {
    /// Plugin directories or marketplace roots
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Treat warnings as errors
    #[arg(long)]
    pub strict: bool,

    /// Which extra frontmatter keys count as known in the plugins' skills
    #[arg(
        long,
        value_enum,
        value_name = "PROFILE",
        default_value = "claude-code"
    )]
    pub profile: ProfileArg,

    #[command(flatten)]
    pub changed: ChangedArgs,
}

pub fn run(args: &ValidateArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let options = ValidateOptions {
        profile: args.profile.into(),
        strict: args.strict,
        profile_from_context: false,
        // Only json output shows the counts.
        skip_unshown_counts: !ctx.format.is_json(),
    };
    let run = match args.changed.scope() {
        Some(scope) => validate_changed_plugins(&args.paths, &scope, options).map_err(vcs_error)?,
        None => validate_plugin_paths(&args.paths, options),
    };
    Ok(outcome(&run, ctx))
}

fn outcome(run: &ValidationRun, ctx: &Context) -> Outcome {
    let data = validation_json(run);
    let text = findings::render(
        &ValidationFindings::with_rules(run, aigent::plugin::codes::sarif_tool()),
        ctx.format,
        TextOptions {
            style: ctx.style,
            quiet: ctx.quiet,
        },
        crate::cli::sarif::roots,
    );
    let summary = run.summary();
    match run.verdict() {
        Verdict::Valid | Verdict::NothingFound => Outcome::success(data, text),
        Verdict::PathMissing => {
            let missing: Vec<String> = run
                .missing_paths()
                .map(|report| report.path.display().to_string())
                .collect();
            Outcome::failure(
                data,
                ErrorBody::new(
                    ErrorCode::NotFound,
                    format!("does not exist: {}", missing.join(", ")),
                ),
                text,
            )
        }
        Verdict::Invalid => Outcome::failure(
            data,
            ErrorBody::new(
                ErrorCode::ValidationFailed,
                format!(
                    "{} of {} checked files are invalid",
                    summary.invalid, summary.checked
                ),
            ),
            text,
        ),
    }
}
