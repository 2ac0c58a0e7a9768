//! `aigent hook ...`: aigent's contracts in the agents' own shell tools.

mod install;

use clap::{Subcommand, ValueEnum};

use aigent::hook::install::Client;
use aigent::report::Outcome;

use super::{CliError, Context};

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Add aigent's hook to a client's settings file (runs before each shell command)
    Install(install::InstallArgs),
    /// Take aigent's hook out of a client's settings file
    Uninstall(install::UninstallArgs),
}

pub fn run(command: &HookCommand, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        HookCommand::Install(args) => install::run_install(args, ctx),
        HookCommand::Uninstall(args) => install::run_uninstall(args, ctx),
    }
}

/// The `--client` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientArg {
    /// Claude Code: a PreToolUse hook on the Bash tool
    ClaudeCode,
    /// OpenAI Codex: a PreToolUse hook on its shell tool (Bash)
    Codex,
    /// Gemini CLI: a BeforeTool hook on run_shell_command
    Gemini,
    /// Cursor: a beforeShellExecution hook
    Cursor,
}

impl From<ClientArg> for Client {
    fn from(arg: ClientArg) -> Self {
        match arg {
            ClientArg::ClaudeCode => Client::ClaudeCode,
            ClientArg::Codex => Client::Codex,
            ClientArg::Gemini => Client::Gemini,
            ClientArg::Cursor => Client::Cursor,
        }
    }
}
