//! `aigent audit export`

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde_json::json;

use aigent::exec::audit::export::{self, Destination, ExportError};
use aigent::report::{ErrorBody, ErrorCode, Outcome, exit};

use crate::cli::spec::{
    CommandSpec, Complete, Mutating, NoEffects, Partial, TEXT_AND_JSON, USAGE, code_when, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "audit.export",
    Mutating,
    &[
        code_when(exit::SUCCESS, Complete, "every record was sent"),
        USAGE,
        code_when(
            exit::PRECONDITION,
            Partial,
            "a collector was down, slow or refused: the records it accepted are sent, the next export resumes",
        ),
        code_when(exit::NOT_FOUND, NoEffects, "there is no audit log"),
    ],
    TEXT_AND_JSON,
    true,
);

#[derive(Debug, Args)]
#[command(after_help = "\
Sends the audit log's records to an OpenTelemetry collector (OTLP over \
HTTP, protobuf; http:// only) or a syslog receiver (RFC 5424 over UDP, TCP \
or a Unix socket), from where the last export to that destination stopped. \
Without --otlp or --syslog, the destinations in the registry's aigent.toml \
`[audit]` table are used. Export only reads the log: a collector that is \
down, slow or refusing never blocks or fails a run. A failed export exits 4 \
and is resumed by the next one, nothing lost and nothing sent twice. \
--follow keeps exporting as records are written (live export).

Examples:
  # the records as OpenTelemetry spans
  aigent audit export --otlp http://127.0.0.1:4318
  # the records to syslog over UDP
  aigent audit export --syslog udp://127.0.0.1:514
  # keep sending new records
  aigent audit export --syslog unix:///dev/log --follow --interval 2")]
pub struct ExportArgs {
    /// An OTLP/HTTP collector: http://host:4318 (spans go to /v1/traces) or the full traces URL
    #[arg(long, value_name = "URL")]
    pub otlp: Option<String>,

    /// A syslog receiver: udp://host:port, tcp://host:port or unix:///path
    #[arg(long, value_name = "URL")]
    pub syslog: Option<String>,

    /// Keep exporting new records every --interval seconds until stopped
    #[arg(long)]
    pub follow: bool,

    /// Seconds between rounds with --follow [default: aigent.toml, else 5]
    #[arg(long, value_name = "SECS")]
    pub interval: Option<u64>,

    /// Seconds to wait for a collector [default: aigent.toml, else 5]
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,

    /// Stop --follow after this many rounds (tests)
    #[arg(long, hide = true)]
    pub rounds: Option<u64>,

    #[arg(long, value_name = "PATH", help = super::AUDIT_LOG_HELP)]
    pub audit_log: Option<PathBuf>,
}

pub fn run(args: &ExportArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let settings = if args.otlp.is_none() && args.syslog.is_none()
        || args.timeout.is_none()
        || (args.follow && args.interval.is_none())
    {
        let registry = super::super::schema::registry(ctx);
        aigent::registry::Settings::load(&registry)
            .map_err(|err| CliError::of(ErrorCode::InvalidSettings, err.to_string()))?
            .audit
    } else {
        aigent::registry::settings::AuditSettings::default()
    };
    let (otlp, syslog) = if args.otlp.is_some() || args.syslog.is_some() {
        (args.otlp.clone(), args.syslog.clone())
    } else {
        (settings.otlp.clone(), settings.syslog.clone())
    };
    let mut destinations = Vec::new();
    if let Some(url) = &otlp {
        destinations.push(Destination::otlp(url).map_err(CliError::usage)?);
    }
    if let Some(url) = &syslog {
        destinations.push(Destination::syslog(url).map_err(CliError::usage)?);
    }
    if destinations.is_empty() {
        return Err(CliError::usage(
            "nowhere to export to: give --otlp URL or --syslog URL, or set them in the registry's aigent.toml [audit] table",
        ));
    }
    let timeout = Duration::from_secs(args.timeout.unwrap_or(settings.timeout_secs).max(1));
    let interval = Duration::from_secs(args.interval.unwrap_or(settings.interval_secs).max(1));
    let log = super::locate(args.audit_log.as_ref())?;
    let mut round = 0u64;
    loop {
        round += 1;
        let mut reports = Vec::new();
        let mut failures = Vec::new();
        for destination in &destinations {
            match export::export(&log, destination, timeout) {
                Ok(report) => {
                    if let Some(failure) = &report.failure {
                        failures.push(failure.clone());
                    }
                    reports.push(report);
                }
                Err(ExportError::Log(err)) if err.is_not_found() && args.follow => {}
                Err(ExportError::Log(err)) => {
                    return Err(super::read_error(&err, Some(log.path())));
                }
                Err(err) => failures.push(err.to_string()),
            }
        }
        let last = args.rounds.is_some_and(|rounds| round >= rounds);
        if args.follow && !last {
            for report in &reports {
                if report.sent > 0 && !ctx.quiet {
                    eprintln!(
                        "exported {} record(s) to {} (up to seq {})",
                        report.sent, report.destination, report.to_seq
                    );
                }
            }
            for failure in &failures {
                eprintln!("warning: {failure}; retrying in {} s", interval.as_secs());
            }
            std::thread::sleep(interval);
            continue;
        }
        return Ok(render(&log, &reports, &failures, ctx));
    }
}

fn render(
    log: &aigent::exec::audit::AuditLog,
    reports: &[export::Exported],
    failures: &[String],
    ctx: &Context,
) -> Outcome {
    let mut text = String::new();
    let mut warnings = Vec::new();
    for report in reports {
        warnings.extend(report.warnings.iter().cloned());
        if !ctx.quiet {
            text.push_str(&format!(
                "{} {} record(s) to {} (seq {} to {}){}\n",
                ctx.style.success("exported"),
                report.sent,
                report.destination,
                report.from_seq,
                report.to_seq,
                if report.pending > 0 {
                    format!(", {} pending", report.pending)
                } else {
                    String::new()
                }
            ));
        }
    }
    let data = json!({
        "log": log.path(),
        "exports": reports,
    });
    if failures.is_empty() {
        // Records sent move each destination's resume point.
        let sent = reports.iter().any(|report| report.sent > 0);
        let effect = crate::cli::spec::Effect::of_changes(sent, false);
        return crate::cli::spec::with_effect(
            Outcome::success(data, text).with_warnings(warnings),
            effect,
        );
    }
    let body = ErrorBody::new(ErrorCode::Precondition, failures.join("; ")).with_hint(
        "nothing is lost: the next `aigent audit export` resumes after the last record the destination accepted",
    );
    Outcome::failure(data, body, text).with_warnings(warnings)
}
