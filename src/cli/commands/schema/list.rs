//! `aigent schema list`

use clap::Args;
use schemars::JsonSchema;
use serde::Serialize;

use aigent::registry::render::render_list;
use aigent::report::Outcome;

use crate::cli::page::PageArgs;
use crate::cli::spec::{
    CommandSpec, REGISTRY_READER, Rows, Safe, TEXT_AND_JSON, leaf, output_schema,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("schema.list", Safe, REGISTRY_READER, TEXT_AND_JSON, true)
    .with_output_schema(output_schema::<ListData>)
    .with_rows(Rows {
        field: "commands",
        columns: &[
            "name",
            "danger_level",
            "layer",
            "valid",
            "errors",
            "warnings",
            "file",
            "description",
        ],
    });

#[derive(Debug, Args)]
#[command(after_help = "\
In json mode a listing holds at most 20 commands unless --limit says \
otherwise, and stays within the response cap (AIGENT_MAX_OUTPUT_BYTES or \
TOOL_MAX_OUTPUT_BYTES, else 1 MiB); meta.cursor then continues it. Text \
lists every command unless --limit says otherwise.

Examples:
  # the declared commands
  aigent schema list
  # another registry's commands, as JSON
  aigent --commands ./commands schema list --output json
  # every command, however many
  aigent schema list --limit 0 --output json")]
pub struct ListArgs {
    #[command(flatten)]
    pub page: PageArgs,
}

/// `data` of `schema list`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListData {
    /// The registry listed: a directory, or the layers (the built-in catalog, the user's, the project's).
    pub registry: String,
    /// This page of the declarations, by name.
    pub commands: Vec<ListedCommand>,
}

/// One declaration file of the registry.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListedCommand {
    pub name: String,
    /// `null` when the declaration is invalid.
    pub description: Option<String>,
    /// `safe`, `mutating` or `destructive`; `null` when the declaration is
    /// invalid.
    pub danger_level: Option<String>,
    pub file: String,
    /// The registry layer it comes from (`catalog`, `user`, `project`,
    /// `commands`); `null` for a single directory.
    pub layer: Option<String>,
    /// Whether the declaration can be used (no error-level finding).
    pub valid: bool,
    pub errors: usize,
    pub warnings: usize,
}

pub fn run(args: &ListArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let registry = super::registry(ctx);
    let request = args
        .page
        .request(ctx, &format!("schema list\0{}", registry.describe()))?;
    let reports = registry.reports()?;
    let mut pager = request.pager();
    let mut shown = Vec::new();
    let mut commands = Vec::new();
    for report in &reports {
        let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
        let listed = ListedCommand {
            name: report.name.clone(),
            description: report.declaration.as_ref().map(|d| d.description.clone()),
            danger_level: report
                .declaration
                .as_ref()
                .and_then(|d| d.danger_level)
                .map(|level| level.as_str().to_owned()),
            file: report.file.clone(),
            layer: report.layer.map(|layer| layer.as_str().to_owned()),
            valid: report.declaration.is_some(),
            errors,
            warnings: report.diagnostics.len() - errors,
        };
        if pager.offer(crate::cli::page::weight(&listed)) {
            shown.push(report.clone());
            commands.push(listed);
        }
    }
    let page = pager.page();
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
    let mut text = render_list(&shown, ctx.style);
    if let Some(footer) = page.footer("commands") {
        text.push_str(&footer);
        text.push('\n');
    }
    let data = ListData {
        registry: registry.describe(),
        commands,
    };
    let data = serde_json::to_value(&data).map_err(|err| CliError::general(err.to_string()))?;
    let mut outcome = Outcome::success(data, text).with_warnings(warnings);
    outcome.meta.extend(page.meta());
    Ok(outcome)
}
