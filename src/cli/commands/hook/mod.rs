//! `aigent hook ...`: aigent's contracts in the agents' own shell tools.

mod answer;
mod doctor;
mod explain;
mod install;
mod learn;
mod trust;

use clap::{Args, Subcommand, ValueEnum};

use aigent::hook::install::Client;
use aigent::report::Outcome;

use crate::cli::spec::CommandSpec;
use crate::cli::{CliError, Context};

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "\
With --client, reads one hook event (JSON) on stdin, judges the shell command \
in it against the declared commands and the [hook] policy in aigent.toml, \
records the decision in the audit log, and answers in that client's own \
protocol (JSON on stdout and the exit code). Clients run this for you once \
`aigent hook install` has added it to their settings.

Examples:
  aigent hook install --client claude-code
  aigent hook explain 'git status && rm -rf build'
  echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git status\"}}' | aigent hook --client claude-code"
)]
pub struct HookArgs {
    #[command(subcommand)]
    pub command: Option<HookCommand>,

    /// The client whose hook event arrives on stdin
    #[arg(long, value_enum, required = true)]
    pub client: Option<ClientArg>,

    /// Rewrite a matched command into `aigent run NAME ...` where the client can rewrite it
    #[arg(long)]
    pub route: bool,

    /// Answer an ask as a deny that says how to approve (for headless runs, where nobody can answer a prompt)
    #[arg(long)]
    pub headless: bool,
}

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Add aigent's hook to a client's settings file (runs before each shell command)
    Install(install::InstallArgs),
    /// Take aigent's hook out of a client's settings file
    Uninstall(install::UninstallArgs),
    /// Show how the hook judges a command line: each segment's verdict and rule
    Explain(explain::ExplainArgs),
    /// Check that the installed hook runs: its program exists and answers a probe event
    Doctor(doctor::DoctorArgs),
    /// Let the hook read this project's registry (its content as it is now)
    Trust(trust::TrustArgs),
    /// Propose declarations for the commands the hook asked about, from the audit log
    Learn(learn::LearnArgs),
}

impl HookArgs {
    pub fn spec(&self) -> &'static CommandSpec {
        match &self.command {
            None => &answer::SPEC,
            Some(HookCommand::Explain(_)) => &explain::SPEC,
            Some(HookCommand::Install(_)) => &install::INSTALL_SPEC,
            Some(HookCommand::Uninstall(_)) => &install::UNINSTALL_SPEC,
            Some(HookCommand::Doctor(_)) => &doctor::SPEC,
            Some(HookCommand::Trust(_)) => &trust::SPEC,
            Some(HookCommand::Learn(_)) => &learn::SPEC,
        }
    }
}

/// The subcommands' specs; the answer's ([`ANSWER_SPEC`]) is listed last,
/// with the commands the manifest leaves out.
pub const SPECS: &[&CommandSpec] = &[
    &explain::SPEC,
    &install::INSTALL_SPEC,
    &install::UNINSTALL_SPEC,
    &doctor::SPEC,
    &trust::SPEC,
    &learn::SPEC,
];

pub const ANSWER_SPEC: &CommandSpec = &answer::SPEC;

pub fn run(args: &HookArgs, ctx: &Context) -> Result<Outcome, CliError> {
    match (&args.command, args.client) {
        (Some(HookCommand::Install(install)), _) => install::run_install(install, ctx),
        (Some(HookCommand::Uninstall(uninstall)), _) => install::run_uninstall(uninstall, ctx),
        (Some(HookCommand::Explain(explain)), _) => explain::run(explain, ctx),
        (Some(HookCommand::Doctor(doctor)), _) => doctor::run(doctor, ctx),
        (Some(HookCommand::Trust(trust)), _) => trust::run(trust, ctx),
        (Some(HookCommand::Learn(learn)), _) => learn::run(learn, ctx),
        (None, Some(client)) => answer::run(client.into(), args.route, args.headless, ctx),
        (None, None) => Err(CliError::usage(
            "`aigent hook` needs --client CLIENT (the client whose event arrives on stdin), or a subcommand: install, uninstall, explain, trust, doctor, learn",
        )),
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
