//! `aigent mcp ...`: the MCP server.

pub mod serve;

use clap::Subcommand;

use aigent::report::Outcome;

use super::{CliError, Context};

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)
    Serve(serve::ServeArgs),
}

pub fn run(command: &McpCommand, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        McpCommand::Serve(args) => serve::run(args, ctx),
    }
}
