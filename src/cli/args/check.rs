//! `aigent args check NAME [--param value ...]` / `... NAME --json '{...}'`

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::contract::Declaration;
use aigent::guard::{self, RawArguments};
use aigent::invoke::{InvokeOptions, Invoked, Mode, invoke};
use aigent::report::{ErrorCode, Outcome, exit};

use super::super::{CliError, Context};
use crate::cli::spec::{CommandSpec, REGISTRY_READER, Safe, TEXT_AND_JSON, leaf};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("args.check", Safe, REGISTRY_READER, TEXT_AND_JSON, true);

#[derive(Debug, Args)]
#[command(
    after_help = "Everything after NAME belongs to the declared command, so aigent's own flags go before it.\nEvery rejection is appended to the audit log (--audit-log, else AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl, else ~/.local/state/aigent/audit.jsonl); if that fails, the result stands and a warning says so. --no-audit writes nothing: args check runs nothing, so no record is needed. Nothing is written when every argument passes.\n\nExamples:\n  aigent args check deploy --cluster-id prod-east-1 --version 1.2.3\n  aigent args check deploy --json '{\"cluster-id\": \"prod-east-1\", \"version\": \"1.2.3\"}'\n  aigent --format json args check --audit-log ./audit.jsonl files-get --file-id f-123\n  aigent args check --value-from-env token=GH_TOKEN gh-api --endpoint repos/OWNER/REPO/issues"
)]
pub struct CheckArgs {
    /// Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]
    #[arg(long, value_name = "PATH", conflicts_with = "no_audit")]
    pub audit_log: Option<PathBuf>,

    /// Write no audit record of a rejection (args check runs nothing)
    #[arg(long)]
    pub no_audit: bool,

    #[command(flatten)]
    pub supplied: super::supplied::SuppliedValues,

    #[command(flatten)]
    pub invocation: Invocation,
}

/// `NAME` and everything after it, as `args check` and `run` both read it.
///
/// One clap argument on purpose: NAME, the first word, already starts the
/// trailing capture, so a word after NAME that looks like one of aigent's
/// flags (`--quiet`, `--format`) reaches the declared command like any
/// other, instead of being taken by aigent only when it happens to come
/// right after NAME.
#[derive(Debug, Args)]
pub struct Invocation {
    /// NAME, the declared command, then its arguments: `--param value`,
    /// `--param=value`, or `--json '{...}'`
    #[arg(
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_names = ["NAME", "ARGUMENTS"],
        add = clap_complete::ArgValueCompleter::new(crate::cli::complete::invocation_words)
    )]
    words: Vec<String>,
}

impl Invocation {
    /// The declared command's name. A leading dash means an option aigent
    /// does not know was given where NAME belongs.
    pub fn name(&self) -> Result<&str, CliError> {
        let name = self.words.first().map(String::as_str).unwrap_or_default();
        if name.starts_with('-') {
            return Err(CliError::usage(format!(
                "unexpected option `{name}` before NAME; see --help for this command's options"
            ))
            .with_hint("the declared command's own arguments go after NAME"));
        }
        Ok(name)
    }

    /// Everything after NAME.
    pub fn arguments(&self) -> &[String] {
        self.words.get(1..).unwrap_or_default()
    }

    /// `NAME --help` (or `-h`) alone, for a command that declares no `help`
    /// input of its own: show the declaration instead of rejecting the
    /// word (and filling the audit log with it).
    pub fn asks_for_help(&self, declaration: &Declaration) -> bool {
        matches!(self.arguments(), [word] if word == "--help" || word == "-h")
            && !declaration.input_names().contains(&"help")
    }
}

pub fn run(args: &CheckArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let loaded = crate::cli::schema::registry(ctx).load(args.invocation.name()?)?;
    if args.invocation.asks_for_help(&loaded.declaration) {
        return Ok(crate::cli::schema::show::declaration_outcome(loaded, ctx));
    }
    let warnings = super::super::error::diagnostic_warnings(&loaded.file, &loaded.warnings);
    let options = InvokeOptions {
        mode: Mode::Check,
        audit_log: args.audit_log.as_deref(),
        audit_check: !args.no_audit,
        ..InvokeOptions::default()
    };
    let tail = args
        .supplied
        .merge_into(&loaded.declaration, args.invocation.arguments())?;
    let arguments = RawArguments::from_tail(&tail);
    match invoke(&loaded.declaration, &arguments, &options)
        .map_err(|err| CliError::precondition(err.to_string()))?
    {
        Invoked::Accepted(validated) => {
            let text = if ctx.quiet {
                String::new()
            } else {
                guard::render::render_accepted(&validated, ctx.style)
            };
            let data =
                json!({"command": validated.command, "arguments": validated.to_redacted_json()});
            Ok(Outcome::success(data, text).with_warnings(warnings))
        }
        Invoked::Rejected {
            rejection,
            audit_warning,
        } => Ok(with_warnings_first(
            rejected_outcome(&rejection, audit_warning),
            warnings,
        )),
        other => unreachable_mode(other),
    }
}

/// `Mode::Check` stops after Phase 1; anything further is a bug in the
/// library, reported rather than panicking.
fn unreachable_mode(invoked: Invoked) -> Result<Outcome, CliError> {
    Err(CliError::new(
        exit::GENERAL_ERROR,
        ErrorCode::Internal,
        format!("args check went past Phase 1: {invoked:?}"),
    ))
}

/// A Phase 1 rejection as `args check` and `run` both render it: exit 2,
/// the same envelope from both. The library has already tried to append
/// its `TOOL_ARG_VALIDATION_FAILURE` record; a record that could not be
/// written is a warning (nothing runs after a rejection, so there is
/// nothing to fail closed on).
pub fn rejected_outcome(rejection: &guard::Rejection, audit_warning: Option<String>) -> Outcome {
    let data = json!({"command": rejection.command});
    let mut body = rejection.to_error_body();
    if let Some(flag) = misplaced_aigent_flag(rejection) {
        body.hints.push(format!(
            "`--{flag}` is an aigent option only before NAME; after NAME every word belongs to `{}`",
            rejection.command
        ));
    }
    Outcome::failure(exit::ARG_ERROR, data, body, String::new())
        .with_warnings(audit_warning.into_iter().collect())
}

fn misplaced_aigent_flag(rejection: &guard::Rejection) -> Option<String> {
    let mut root = crate::cli::command();
    root.build();
    let aigent_flags: Vec<String> = root
        .get_arguments()
        .chain(
            ["args", "run"]
                .iter()
                .filter_map(|name| root.find_subcommand(name))
                .flat_map(|sub| {
                    sub.get_subcommands()
                        .flat_map(|leaf| leaf.get_arguments())
                        .chain(sub.get_arguments())
                }),
        )
        .filter_map(|arg| arg.get_long().map(str::to_owned))
        .collect();
    rejection
        .violations
        .iter()
        .filter(|violation| violation.rule == guard::Rule::UnknownParameter)
        .map(|violation| violation.field.clone())
        .find(|field| aigent_flags.contains(field))
}

/// `outcome` with `first` ahead of the warnings it already carries.
pub fn with_warnings_first(mut outcome: Outcome, mut first: Vec<String>) -> Outcome {
    first.append(&mut outcome.warnings);
    outcome.warnings = first;
    outcome
}
