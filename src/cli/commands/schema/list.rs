//! `aigent schema list`

use clap::Args;
use serde_json::{Value, json};

use aigent::registry::render::render_list;
use aigent::report::Outcome;

use crate::cli::spec::{CommandSpec, REGISTRY_READER, Safe, TEXT_AND_JSON, leaf};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("schema.list", Safe, REGISTRY_READER, TEXT_AND_JSON, true);

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # the declared commands\n  aigent schema list\n  # another registry's commands, as JSON\n  aigent --commands ./commands schema list --format json"
)]
pub struct ListArgs {}

pub fn run(_args: &ListArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let registry = super::registry(ctx);
    let reports = registry.reports()?;
    let commands: Vec<Value> = reports
        .iter()
        .map(|report| {
            let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
            json!({
                "name": report.name,
                "description": report.declaration.as_ref().map(|d| d.description.clone()),
                "danger_level": report.declaration.as_ref().and_then(|d| d.danger_level).map(|level| level.as_str()),
                "file": report.file,
                "valid": report.declaration.is_some(),
                "errors": errors,
                "warnings": report.diagnostics.len() - errors,
            })
        })
        .collect();
    let warnings: Vec<String> = reports
        .iter()
        .filter(|report| report.declaration.is_none())
        .map(|report| {
            format!(
                "{} is invalid and cannot be used; run `aigent schema lint`",
                report.file
            )
        })
        .collect();
    let data = json!({"registry": registry.describe(), "commands": commands});
    Ok(Outcome::success(data, render_list(&reports, ctx.style)).with_warnings(warnings))
}
