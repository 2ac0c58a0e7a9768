//! `aigent schema show NAME`

use clap::Args;

use aigent::registry::render::render_show;
use aigent::registry::{Loaded, to_json_schema, to_wire_for_agents};
use aigent::report::{Outcome, OutputFormat};

use crate::cli::spec::{CommandSpec, Formats, REGISTRY_READER, Safe, leaf};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "schema.show",
    Safe,
    REGISTRY_READER,
    Formats::Report(&[OutputFormat::JsonSchema]),
    true,
);

#[derive(Debug, Args)]
#[command(
    after_help = "Formats:\n  text         a readable summary (the default on a terminal)\n  json         the declaration's wire format in the envelope's `data`\n  json-schema  the bare JSON Schema (draft 2020-12), usable as an MCP inputSchema\n\nExamples:\n  # one command's schema, readable\n  aigent schema show deploy\n  # its declaration in the envelope\n  aigent schema show deploy --output json\n  # its arguments as a bare JSON Schema\n  aigent schema show deploy --output json-schema > deploy.schema.json"
)]
pub struct ShowArgs {
    /// The declared command
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::complete::command_names))]
    pub name: String,
}

pub fn run(args: &ShowArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let loaded = super::registry(ctx).load(&args.name)?;
    if ctx.format == OutputFormat::JsonSchema {
        let schema = to_json_schema(&loaded.declaration);
        let text = serde_json::to_string_pretty(&schema)
            .map_err(|err| CliError::general(err.to_string()))?;
        return Ok(Outcome::verbatim(format!("{text}\n")));
    }
    Ok(declaration_outcome(loaded, ctx))
}

/// The declaration as `schema show` prints it in text and json; also the
/// answer to `args check NAME --help` and `run NAME --help`.
pub fn declaration_outcome(loaded: Loaded, ctx: &Context) -> Outcome {
    let warnings = crate::cli::error::diagnostic_warnings(&loaded.file, &loaded.warnings);
    // The catalog has no file on this machine (its label is relative to
    // aigent's source); naming `catalog/git-log.json` would send the
    // reader looking for one.
    let origin = match loaded.layer {
        Some(aigent::registry::LayerKind::Catalog) => {
            format!("built into aigent (from {} in its source)", loaded.file)
        }
        _ => loaded.file.clone(),
    };
    let mut outcome = Outcome::success(
        to_wire_for_agents(&loaded.declaration),
        render_show(&loaded.declaration, &origin, ctx.style),
    )
    .with_warnings(warnings);
    outcome.meta.insert("file".to_owned(), loaded.file.into());
    outcome
}
