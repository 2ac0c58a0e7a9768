//! `aigent args check NAME [--param value ...]` / `... NAME --json '{...}'`

use std::path::PathBuf;

use clap::Args;

use aigent::contract::Declaration;
use aigent::guard::{self, RawArguments};
use aigent::invoke::{InvokeOptions, Invoked, Mode, invoke};
use aigent::outcome::{invoke_error_body, of_invoked, with_warnings_first};
use aigent::report::findings::TextOptions;
use aigent::report::{ErrorCode, Outcome, exit};

use crate::cli::spec::{CommandSpec, REGISTRY_READER, Safe, TEXT_AND_JSON, leaf};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("args.check", Safe, REGISTRY_READER, TEXT_AND_JSON, true);

#[derive(Debug, Args)]
#[command(
    after_help = "Everything after NAME belongs to the declared command, so aigent's own flags go before it.\nEvery rejection is appended to the audit log (--audit-log, else AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl, else ~/.local/state/aigent/audit.jsonl); if that fails, the result stands and a warning says so. --no-audit writes nothing: args check runs nothing, so no record is needed. Nothing is written when every argument passes.\n\nExamples:\n  # check arguments given as flags\n  aigent args check deploy --cluster-id prod-east-1 --version 1.2.3\n  # the same arguments as one JSON object\n  aigent args check deploy --json '{\"cluster-id\": \"prod-east-1\", \"version\": \"1.2.3\"}'\n  # a rejection recorded in another log\n  aigent --output json args check --audit-log ./audit.jsonl files-get --file-id f-123\n  # a secret taken from the environment\n  aigent args check --value-from-env token=GH_TOKEN gh-api --endpoint repos/OWNER/REPO/issues"
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
/// flags (`--quiet`, `--output`) reaches the declared command like any
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
    let mut warnings = crate::cli::error::diagnostic_warnings(&loaded.file, &loaded.warnings);
    warnings.extend(
        args.supplied
            .secrets_on_argv(&loaded.declaration, args.invocation.arguments())?,
    );
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
    let invoked = invoke(&loaded.declaration, &arguments, &options).map_err(|err| {
        let body = invoke_error_body(&loaded.declaration.name, &err);
        CliError {
            exit_code: body.code.exit_code(),
            body: Box::new(body),
        }
    })?;
    if !matches!(invoked, Invoked::Accepted(_) | Invoked::Rejected { .. }) {
        return Err(CliError::new(
            exit::GENERAL_ERROR,
            ErrorCode::Internal,
            format!("args check went past Phase 1: {invoked:?}"),
        ));
    }
    Ok(with_warnings_first(
        outcome(&loaded.declaration.name, invoked, ctx),
        warnings,
    ))
}

/// The library's outcome of the protocol ([`of_invoked`]) with the CLI's
/// own hint: an aigent flag written after NAME, where it belongs to the
/// declared command.
pub fn outcome(name: &str, invoked: Invoked, ctx: &Context) -> Outcome {
    let misplaced = match &invoked {
        Invoked::Rejected { rejection, .. } => {
            misplaced_aigent_flag(rejection).map(|flag| (flag, rejection.command.clone()))
        }
        _ => None,
    };
    let text = TextOptions {
        style: ctx.style,
        quiet: ctx.quiet,
    };
    let mut outcome = of_invoked(name, invoked, text);
    if let (Some((flag, command)), Some(error)) = (misplaced, outcome.error.as_mut()) {
        error.hints.push(format!(
            "`--{flag}` is an aigent option only before NAME; after NAME every word belongs to `{command}`"
        ));
    }
    outcome
}

fn misplaced_aigent_flag(rejection: &guard::Rejection) -> Option<String> {
    let mut root = crate::cli::documented_command();
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
