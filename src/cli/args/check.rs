//! `aigent args check NAME [--param value ...]` / `... NAME --json '{...}'`

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::exec::audit::{AuditLog, AuditRecord};
use aigent::guard::{self, RawArguments};
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

    /// The declared command
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::complete::command_names))]
    pub name: String,

    /// The command's arguments: `--param value`, `--param=value`, or `--json '{...}'`
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..,
        value_name = "ARGUMENTS",
        add = clap_complete::ArgValueCompleter::new(crate::cli::complete::declared_parameters)
    )]
    pub arguments: Vec<String>,
}

pub fn run(args: &CheckArgs, ctx: &Context) -> Result<Outcome, CliError> {
    ctx.require_format(&[], "args check")?;
    let loaded = crate::cli::schema::registry(ctx).load(&args.name)?;
    let mut warnings = super::super::error::diagnostic_warnings(&loaded.file, &loaded.warnings);
    let raw = RawArguments::from_tail(&args.arguments);
    match guard::check(&loaded.declaration, &raw) {
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
        Err(rejection) => {
            // The check's answer does not depend on the log; a log that
            // cannot be written is reported, not fatal (`run` fails closed).
            let audited = AuditLog::from_env(args.audit_log.as_deref())
                .and_then(|log| log.append(&AuditRecord::validation_failure(&rejection)));
            if let Err(err) = audited {
                warnings.push(format!("the audit record was not written: {err}"));
            }
            let data = json!({"command": rejection.command});
            Ok(Outcome::failure(
                exit::ARG_ERROR,
                data,
                rejection.to_error_body(),
                String::new(),
            )
            .with_warnings(warnings))
        }
    }
}
