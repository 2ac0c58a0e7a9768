//! `aigent mcp ...`: the MCP server.

pub mod serve;

use clap::Subcommand;

use aigent::report::Outcome;

use crate::cli::spec::CommandSpec;
use crate::cli::{CliError, Context};

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)
    Serve(serve::ServeArgs),
}

impl McpCommand {
    pub fn spec(&self) -> &'static CommandSpec {
        match self {
            McpCommand::Serve(_) => &serve::SPEC,
        }
    }
}

pub const SPECS: &[&CommandSpec] = &[&serve::SPEC];

pub fn run(command: &McpCommand, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        McpCommand::Serve(args) => serve::run(args, ctx),
    }
}
