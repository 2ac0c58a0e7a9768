//! `aigent args ...`: Phase 1 on its own.

pub mod check;
pub mod supplied;

use clap::Subcommand;

use aigent::report::Outcome;

use crate::cli::spec::CommandSpec;
use crate::cli::{CliError, Context};

#[derive(Debug, Subcommand)]
pub enum ArgsCommand {
    /// Validate arguments for a declared command (Phase 1 only; runs nothing)
    Check(check::CheckArgs),
}

impl ArgsCommand {
    pub fn spec(&self) -> &'static CommandSpec {
        match self {
            ArgsCommand::Check(_) => &check::SPEC,
        }
    }
}

pub const SPECS: &[&CommandSpec] = &[&check::SPEC];

pub fn run(command: &ArgsCommand, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        ArgsCommand::Check(args) => check::run(args, ctx),
    }
}
