//! `aigent plugin ...`: Claude Code plugins and marketplaces.

mod validate;

use clap::{Args, Subcommand};

use aigent::report::Outcome;

use crate::cli::spec::CommandSpec;
use crate::cli::{CliError, Context};

#[derive(Debug, Args)]
pub struct PluginArgs {
    #[command(subcommand)]
    pub command: PluginCommand,
}

#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Check plugins and marketplaces: manifests, sources, skills, components
    Validate(validate::ValidateArgs),
}

impl PluginCommand {
    pub fn spec(&self) -> &'static CommandSpec {
        match self {
            PluginCommand::Validate(_) => &validate::SPEC,
        }
    }
}

pub const SPECS: &[&CommandSpec] = &[&validate::SPEC];

pub fn run(args: &PluginArgs, ctx: &Context) -> Result<Outcome, CliError> {
    match &args.command {
        PluginCommand::Validate(args) => validate::run(args, ctx),
    }
}
