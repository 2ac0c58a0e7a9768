//! `aigent completions SHELL`

use clap::Args;
use clap_complete::Shell;

use aigent::report::Outcome;

use super::{CliError, Context};

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  aigent completions bash > ~/.local/share/bash-completion/completions/aigent\n  aigent completions zsh > ~/.zfunc/_aigent"
)]
pub struct CompletionsArgs {
    /// The shell to generate a script for
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(args: &CompletionsArgs, _ctx: &Context) -> Result<Outcome, CliError> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "aigent", &mut script);
    let script = String::from_utf8(script).map_err(|err| CliError::general(err.to_string()))?;
    Ok(Outcome::verbatim(script))
}
