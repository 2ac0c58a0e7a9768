//! `aigent audit verify`

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::report::{ErrorBody, Outcome, exit};

use super::super::{CliError, Context};

#[derive(Debug, Args)]
#[command(after_help = "\
Walks the hash chain of the log and of its rotated files, oldest first. \
Exits 0 when every record is in place; exits 1 naming the first bad line \
(1-based, with its file) and what is wrong with it: an edited, deleted, \
inserted or reordered record, or a cut-off tail. Records removed from the \
very end leave no trace in the chain: keep the printed head (seq and \
sha256) elsewhere and compare.

Examples:
  aigent audit verify
  aigent audit verify --audit-log ./audit.jsonl
  aigent --format json audit verify")]
pub struct VerifyArgs {
    #[arg(long, value_name = "PATH", help = super::AUDIT_LOG_HELP)]
    pub audit_log: Option<PathBuf>,
}

pub fn run(args: &VerifyArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let log = super::locate(args.audit_log.as_ref())?;
    let report = log
        .verify()
        .map_err(|err| super::read_error(&err, Some(log.path())))?;
    let mut warnings: Vec<String> = report
        .torn
        .iter()
        .map(|at| {
            format!("{at} is a torn write (a write that failed part-way); the record after it accounts for it")
        })
        .collect();
    if report.unchained > 0 {
        warnings.push(format!(
            "{} line(s) at the start of the log come before the hash chain began (an older aigent wrote them); they are not protected by it",
            report.unchained
        ));
    }
    let data = json!({
        "log": log.path(),
        "intact": report.is_intact(),
        "records": report.records,
        "files": report.files,
        "head": report.head,
        "unchained_lines": report.unchained,
        "torn_lines": report.torn,
    });
    let Some(problem) = &report.problem else {
        let mut text = String::new();
        if !ctx.quiet {
            let files = report.files.len();
            text = format!(
                "{} {}: {} record{} in {files} file{}, chain intact\n",
                ctx.style.success("ok"),
                log.path().display(),
                report.records,
                if report.records == 1 { "" } else { "s" },
                if files == 1 { "" } else { "s" },
            );
            if let Some(head) = &report.head {
                text.push_str(&format!("head: seq {} sha256 {}\n", head.seq, head.sha256));
            }
        }
        return Ok(Outcome::success(data, text).with_warnings(warnings));
    };
    let body = ErrorBody::new(
        aigent::report::ErrorCode::AuditChainBroken,
        problem.message.clone(),
    )
    .with_extra("file", problem.at.file.display().to_string())
    .with_extra("line", problem.at.line)
    .with_extra("problem", problem.kind)
    .with_hint(
        "the lines before it are intact; compare with a backup or a head hash kept elsewhere",
    );
    Ok(
        Outcome::failure(exit::VALIDATION_FAILED, data, body, String::new())
            .with_warnings(warnings),
    )
}
