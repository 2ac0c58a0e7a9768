//! `aigent args ...`: Phase 1 on its own.

pub mod check;
pub mod supplied;

use clap::Subcommand;

use aigent::report::Outcome;

use super::{CliError, Context};

#[derive(Debug, Subcommand)]
pub enum ArgsCommand {
    /// Validate arguments for a declared command (Phase 1 only; runs nothing)
    Check(check::CheckArgs),
}

pub fn run(command: &ArgsCommand, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        ArgsCommand::Check(args) => check::run(args, ctx),
    }
}
