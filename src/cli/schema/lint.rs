//! `aigent schema lint`

use clap::Args;
use serde_json::{Value, json};

use aigent::contract::render::{count, render_lint};
use aigent::report::{ErrorBody, Outcome, exit};

use super::super::{CliError, Context};

#[derive(Debug, Args)]
#[command(
    after_help = "Exits 4 when any declaration has an error, 0 when there are only warnings.\n\nExamples:\n  aigent schema lint\n  aigent --commands ./commands schema lint --format json"
)]
pub struct LintArgs {}

pub fn run(_args: &LintArgs, ctx: &Context) -> Result<Outcome, CliError> {
    ctx.require_format(&[], "schema lint")?;
    let registry = super::registry(ctx);
    let reports = registry.reports()?;
    let errors = count(&reports, true);
    let warnings = count(&reports, false);
    let files: Vec<Value> = reports
        .iter()
        .map(|report| json!({"file": report.file, "name": report.name, "diagnostics": report.diagnostics}))
        .collect();
    let data = json!({
        "registry": registry.describe(),
        "files": files,
        "summary": {"declarations": reports.len(), "errors": errors, "warnings": warnings},
    });
    let text = render_lint(&reports, ctx.quiet, ctx.style);
    if errors == 0 {
        return Ok(Outcome::success(data, text));
    }
    let broken = reports.iter().filter(|report| report.has_errors()).count();
    let body = ErrorBody::new(
        "INVALID_DECLARATION",
        format!(
            "{errors} error{} in {broken} declaration{}",
            if errors == 1 { "" } else { "s" },
            if broken == 1 { "" } else { "s" }
        ),
    );
    Ok(Outcome::failure(exit::PRECONDITION, data, body, text))
}
