//! `aigent args check NAME [--param value ...]` / `... NAME --json '{...}'`

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use aigent::contract::Declaration;
use aigent::exec::audit::{AuditLog, AuditRecord};
use aigent::guard::{self, RawArguments, ValidatedArguments};
use aigent::report::{Outcome, exit};

use super::super::{CliError, Context};

#[derive(Debug, Args)]
#[command(
    after_help = "Everything after NAME belongs to the declared command, so aigent's own flags go before it.\nEvery rejection is appended to the audit log; if that fails, the result stands and a warning says so.\n\nExamples:\n  aigent args check deploy --cluster-id prod-east-1 --version 1.2.3\n  aigent args check deploy --json '{\"cluster-id\": \"prod-east-1\", \"version\": \"1.2.3\"}'\n  aigent --format json args check --audit-log ./audit.jsonl files-get --file-id f-123"
)]
pub struct CheckArgs {
    /// Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]
    #[arg(long, value_name = "PATH")]
    pub audit_log: Option<PathBuf>,

    #[command(flatten)]
    pub invocation: Invocation,
}

/// `NAME` and everything after it, as `args check` and `run` both read it.
#[derive(Debug, Args)]
pub struct Invocation {
    /// The declared command
    pub name: String,

    /// The command's arguments: `--param value`, `--param=value`, or `--json '{...}'`
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..,
        value_name = "ARGUMENTS"
    )]
    pub arguments: Vec<String>,
}

pub fn run(args: &CheckArgs, ctx: &Context) -> Result<Outcome, CliError> {
    ctx.require_format(&[], "args check")?;
    let loaded = crate::cli::schema::registry(ctx).load(&args.invocation.name)?;
    let warnings = super::super::error::diagnostic_warnings(&loaded.file, &loaded.warnings);
    match phase_one(
        &loaded.declaration,
        &args.invocation.arguments,
        args.audit_log.as_deref(),
    ) {
        Ok(validated) => {
            let text = if ctx.quiet {
                String::new()
            } else {
                guard::render::render_accepted(&validated, ctx.style)
            };
            let data =
                json!({"command": validated.command, "arguments": validated.to_redacted_json()});
            Ok(Outcome::success(data, text).with_warnings(warnings))
        }
        Err(rejected) => Ok(with_warnings_first(*rejected, warnings)),
    }
}

/// Phase 1 as `args check` and `run` share it: the validated arguments, or
/// the rejection as an outcome (exit 2, the same envelope from both) with
/// its `TOOL_ARG_VALIDATION_FAILURE` record appended to the audit log. A
/// record that cannot be written becomes a warning: nothing runs after a
/// rejection, so there is nothing to fail closed on.
pub fn phase_one(
    declaration: &Declaration,
    arguments: &[String],
    audit_log: Option<&Path>,
) -> Result<ValidatedArguments, Box<Outcome>> {
    let rejection = match guard::check(declaration, &RawArguments::from_tail(arguments)) {
        Ok(validated) => return Ok(validated),
        Err(rejection) => rejection,
    };
    let audited = AuditLog::from_env(audit_log)
        .and_then(|log| log.append(&AuditRecord::validation_failure(&rejection)));
    let warnings = match audited {
        Ok(()) => Vec::new(),
        Err(err) => vec![format!("the audit record was not written: {err}")],
    };
    let data = json!({"command": rejection.command});
    Err(Box::new(
        Outcome::failure(
            exit::ARG_ERROR,
            data,
            rejection.to_error_body(),
            String::new(),
        )
        .with_warnings(warnings),
    ))
}

/// `outcome` with `first` ahead of the warnings it already carries.
pub fn with_warnings_first(mut outcome: Outcome, mut first: Vec<String>) -> Outcome {
    first.append(&mut outcome.warnings);
    outcome.warnings = first;
    outcome
}
