//! `aigent audit key new`

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;

use aigent::exec::audit::sign::{self, KEY_FILE_VARIABLE, KeyError};
use aigent::report::Outcome;

use crate::cli::spec::{
    CommandSpec, Complete, Mutating, NoEffects, TEXT_AND_JSON, USAGE, code_when, exit, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "audit.key.new",
    Mutating,
    &[
        code_when(exit::SUCCESS, Complete, "the key pair was written"),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "PATH or PATH.pub exists, or cannot be written",
        ),
    ],
    TEXT_AND_JSON,
    false,
);

#[derive(Debug, Subcommand)]
#[command(after_help = "\
Examples:
  # a new signing key and its public half
  aigent audit key new /etc/aigent/audit.key
  # check the signed checkpoints too
  aigent audit verify --public-key /etc/aigent/audit.key.pub")]
pub enum KeyCommand {
    /// Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)
    New(NewArgs),
}

#[derive(Debug, Args)]
#[command(after_help = "\
Writes the private key to PATH (created mode 0600; an existing file is never \
replaced) and the public key to PATH.pub. The private key is never printed. \
Give the private key to every process that writes the log, through \
AIGENT_AUDIT_KEY_FILE=PATH (or its text in AIGENT_AUDIT_KEY); keep it out of \
reach of anyone who could rewrite the log. Give the public key to whoever \
checks the log: `aigent audit verify --public-key PATH.pub`.

Examples:
  # a new signing key and its public half
  aigent audit key new /etc/aigent/audit.key
  AIGENT_AUDIT_KEY_FILE=/etc/aigent/audit.key aigent run deploy ...")]
pub struct NewArgs {
    /// Where the private key goes (the public key goes to PATH.pub)
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

pub fn run(command: &KeyCommand, ctx: &Context) -> Result<Outcome, CliError> {
    let KeyCommand::New(args) = command;
    let key = sign::generate().map_err(|err| CliError::general(err.to_string()))?;
    let (public_path, key_id) =
        sign::write_key_pair(&key, &args.path).map_err(|err| match err {
            KeyError::Exists { .. } => CliError::precondition(err.to_string())
                .with_hint("choose another path, or move the old key aside first"),
            other => CliError::precondition(other.to_string()),
        })?;
    let mut text = String::new();
    if !ctx.quiet {
        text = format!(
            "{} private key {} (mode 0600, not shown)\n   public key {}\n   key id {key_id}\nset {KEY_FILE_VARIABLE}={} for every process that writes the audit log\n",
            ctx.style.success("wrote"),
            args.path.display(),
            public_path.display(),
            args.path.display(),
        );
    }
    let data = json!({
        "private_key": args.path,
        "public_key": public_path,
        "key_id": key_id,
        "public_key_hex": sign::hex(key.verifying_key().as_bytes()),
        "effect": crate::cli::spec::Effect::Created.as_str(),
    });
    Ok(Outcome::success(data, text))
}
