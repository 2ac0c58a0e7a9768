//! `aigent schema ...`: the registry of declared commands.

pub mod export;
pub mod import;
pub mod lint;
pub mod list;
pub mod show;

use clap::Subcommand;

use aigent::registry::Registry;
use aigent::report::Outcome;

use crate::cli::spec::CommandSpec;
use crate::cli::{CliError, Context};

#[derive(Debug, Subcommand)]
pub enum SchemaCommand {
    /// List the declared commands
    List(list::ListArgs),
    /// Show one command's declaration or JSON Schema
    Show(show::ShowArgs),
    /// Lint every declaration in the registry
    Lint(lint::LintArgs),
    /// Write declarations as an agent's own policy rules, with what each keeps and drops
    Export(export::ExportArgs),
    /// Write declarations from a CLI's own spec (CLI Agent Spec manifest, usage KDL)
    Import(import::ImportArgs),
}

impl SchemaCommand {
    pub fn spec(&self) -> &'static CommandSpec {
        match self {
            SchemaCommand::List(_) => &list::SPEC,
            SchemaCommand::Show(_) => &show::SPEC,
            SchemaCommand::Lint(_) => &lint::SPEC,
            SchemaCommand::Export(_) => &export::SPEC,
            SchemaCommand::Import(_) => &import::SPEC,
        }
    }
}

pub const SPECS: &[&CommandSpec] = &[
    &list::SPEC,
    &show::SPEC,
    &lint::SPEC,
    &export::SPEC,
    &import::SPEC,
];

pub fn run(command: &SchemaCommand, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        SchemaCommand::List(args) => list::run(args, ctx),
        SchemaCommand::Show(args) => show::run(args, ctx),
        SchemaCommand::Lint(args) => lint::run(args, ctx),
        SchemaCommand::Export(args) => export::run(args, ctx),
        SchemaCommand::Import(args) => import::run(args, ctx),
    }
}

/// The registry the global `--commands` / `AIGENT_COMMANDS` names.
pub fn registry(ctx: &Context) -> Registry {
    Registry::new(ctx.commands_dir.clone())
}
