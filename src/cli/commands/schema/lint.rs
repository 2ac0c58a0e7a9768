//! `aigent schema lint`

use clap::Args;
use serde_json::{Value, json};

use aigent::registry::changed::{ChangedLintError, lint_changed};
use aigent::registry::render::{LintFindings, count, render_lint};
use aigent::registry::{FileReport, Registry};
use aigent::report::findings::{self, TextOptions};
use aigent::report::{ErrorBody, ErrorCode, Outcome, exit};

use crate::cli::changed::{ChangedArgs, vcs_error};
use crate::cli::spec::{CommandSpec, FINDINGS, NoEffects, Rows, Safe, USAGE, code_when, leaf};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "schema.lint",
    Safe,
    &[
        code_when(
            exit::SUCCESS,
            NoEffects,
            "no declaration has an error (warnings allowed)",
        ),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "a declaration has an error, or --changed outside a git work tree",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "the registry does not exist, or --base names no commit",
        ),
    ],
    FINDINGS,
    true,
)
.with_rows(Rows {
    field: "files",
    columns: &["file", "name", "diagnostics"],
});

#[derive(Debug, Args)]
#[command(
    after_help = "--changed lints only the declarations this branch touched in the --commands directory (which must be in a git work tree); a change to any other file there, such as a script a command runs, lints them all. Deleted declarations are reported, not linted.\n\nExamples:\n  # lint the registry\n  aigent schema lint\n  # lint a registry, as JSON\n  aigent --commands ./commands schema lint --output json\n  # only what is staged\n  aigent --commands ./commands schema lint --changed --compare-to index\n  # GitHub Actions annotations\n  aigent --commands ./commands --output github schema lint\n  # a SARIF log for code scanning\n  aigent --commands ./commands --output sarif schema lint > lint.sarif\n  # again on every change\n  aigent --commands ./commands schema lint --watch"
)]
pub struct LintArgs {
    #[command(flatten)]
    pub changed: ChangedArgs,

    /// Lint again whenever a file in the --commands directory changes,
    /// printing only the findings that appeared or went away; Ctrl-C stops
    #[arg(long, conflicts_with = "changed")]
    pub watch: bool,
}

pub fn run(args: &LintArgs, ctx: &Context) -> Result<Outcome, CliError> {
    // The directory named, else what a person keeps (the user's and the
    // project's layers); the catalog is checked where it is built.
    let registry = match &ctx.commands_dir {
        Some(dir) => Registry::Directory(dir.clone()),
        None => super::registry(ctx).without_catalog(),
    };
    if args.watch {
        return watch(&registry, ctx);
    }
    let (reports, selection) = match args.changed.scope() {
        None => (registry.reports()?, None),
        Some(scope) => {
            let Some(dir) = &ctx.commands_dir else {
                return Err(CliError::usage(
                    "--changed needs a registry directory in a git work tree: pass --commands DIR (or set AIGENT_COMMANDS)",
                ));
            };
            let changed = lint_changed(dir, &scope).map_err(|err| match err {
                ChangedLintError::Vcs(err) => vcs_error(err),
                ChangedLintError::Registry(err) => err.into(),
            })?;
            (changed.reports, Some(changed.selection))
        }
    };
    let mut data = lint_data(&registry, &reports);
    if let Some(selection) = &selection {
        data["changed"] = json!(selection);
    }
    let findings = LintFindings {
        reports: &reports,
        selection: selection.as_ref(),
    };
    let text = findings::render(
        &findings,
        ctx.format,
        TextOptions {
            style: ctx.style,
            quiet: ctx.quiet,
        },
        crate::cli::sarif::roots,
    );
    let errors = count(&reports, true);
    if errors == 0 {
        return Ok(Outcome::success(data, text));
    }
    let broken = reports.iter().filter(|report| report.has_errors()).count();
    let body = ErrorBody::new(
        ErrorCode::InvalidDeclaration,
        format!(
            "{errors} error{} in {broken} declaration{}",
            if errors == 1 { "" } else { "s" },
            if broken == 1 { "" } else { "s" }
        ),
    );
    Ok(Outcome::failure(data, body, text))
}

/// `--watch`: the first lint's text, then what changes.
fn watch(registry: &Registry, ctx: &Context) -> Result<Outcome, CliError> {
    crate::cli::watch::check_format(ctx)?;
    let Some(dir) = &ctx.commands_dir else {
        return Err(CliError::usage(
            "--watch needs a registry directory: pass --commands DIR (or set AIGENT_COMMANDS)",
        ));
    };
    let Some(target) = crate::cli::watch::target(dir).filter(|_| dir.is_dir()) else {
        return Err(CliError::not_found(format!(
            "the registry {} does not exist or is not a directory",
            dir.display()
        )));
    };
    let findings = |reports: &[FileReport]| -> crate::cli::watch::Findings {
        reports
            .iter()
            .flat_map(|report| {
                report
                    .diagnostics
                    .iter()
                    .map(|diagnostic| crate::cli::watch::Seen::new(&report.file, diagnostic))
            })
            .collect()
    };
    let first = registry.reports()?;
    let text = render_lint(&first, ctx.quiet, ctx.style);
    crate::cli::watch::watch(&[target], ctx, &text, findings(&first), || {
        Ok(findings(&registry.reports()?))
    })
}

fn lint_data(registry: &Registry, reports: &[FileReport]) -> Value {
    let files: Vec<Value> = reports
        .iter()
        .map(|report| json!({"file": report.file, "name": report.name, "diagnostics": report.diagnostics}))
        .collect();
    json!({
        "registry": registry.describe(),
        "files": files,
        "summary": {
            "declarations": reports.len(),
            "errors": count(reports, true),
            "warnings": count(reports, false),
        },
    })
}
