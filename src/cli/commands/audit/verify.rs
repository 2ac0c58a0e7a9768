//! `aigent audit verify`

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::exec::audit::sign::{KeyError, PublicKey};
use aigent::exec::audit::{ExpectedHead, VerifyOptions};
use aigent::report::{ErrorBody, Outcome, exit};

use crate::cli::spec::{CommandSpec, NoEffects, Safe, TEXT_AND_JSON, USAGE, code_when, leaf};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "audit.verify",
    Safe,
    &[
        code_when(exit::SUCCESS, NoEffects, "the chain is intact"),
        code_when(
            exit::VALIDATION_FAILED,
            NoEffects,
            "a record was edited, deleted, reordered or cut off: the first bad line is named",
        ),
        USAGE,
        code_when(exit::PRECONDITION, NoEffects, "the log cannot be read"),
        code_when(exit::NOT_FOUND, NoEffects, "there is no audit log"),
    ],
    TEXT_AND_JSON,
    false,
);

#[derive(Debug, Args)]
#[command(after_help = "\
Walks the hash chain of the log and of its rotated files, oldest first. \
Exits 0 when every record is in place; exits 1 naming the first bad line \
(1-based, with its file) and what is wrong with it: an edited, deleted, \
inserted or reordered record, with --public-key a checkpoint whose signature \
does not hold (the chain before it rewritten), is missing or is another key's, a line before the chain began or not linked \
into it, or a cut-off tail. Records removed from the very end leave no \
trace in the chain: store the head that --print-head prints (SEQ:SHA256, \
one line) somewhere else, and check it later with --expect-head.

Examples:
  # check the hash chain
  aigent audit verify
  # check another log
  aigent audit verify --audit-log ./audit.jsonl
  # check the signed checkpoints too
  aigent audit verify --public-key /etc/aigent/audit.key.pub
  # keep the chain's head elsewhere
  aigent audit verify --print-head >> /mnt/elsewhere/aigent-heads
  # fail if the log was cut back since
  aigent audit verify --expect-head \"$(tail -n 1 /mnt/elsewhere/aigent-heads)\"
  # the verdict as JSON
  aigent --output json audit verify")]
pub struct VerifyArgs {
    #[arg(long, value_name = "PATH", help = super::AUDIT_LOG_HELP)]
    pub audit_log: Option<PathBuf>,

    /// Fail unless this head (SHA256, or SEQ:SHA256 as --print-head prints it) is still in the chain
    #[arg(long, value_name = "HEAD")]
    pub expect_head: Option<String>,

    /// Fail unless the chain still reaches record N
    #[arg(long, value_name = "N")]
    pub expect_seq: Option<u64>,

    /// Print only the head, as one line SEQ:SHA256, for storing elsewhere
    #[arg(long)]
    pub print_head: bool,

    /// Also check the signed checkpoints with this public key (from `audit key new`), and report the last
    #[arg(long, value_name = "FILE")]
    pub public_key: Option<PathBuf>,

    /// Accept lines before the first chained record (records an older aigent wrote before it kept a chain)
    #[arg(long)]
    pub allow_legacy_prefix: bool,
}

pub fn run(args: &VerifyArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let mut expect = args
        .expect_head
        .as_deref()
        .map(ExpectedHead::parse)
        .transpose()
        .map_err(CliError::usage)?;
    if let Some(seq) = args.expect_seq {
        let expect = expect.get_or_insert_with(ExpectedHead::default);
        if expect.seq.is_some_and(|given| given != seq) {
            return Err(CliError::usage(
                "--expect-seq and the SEQ of --expect-head disagree",
            ));
        }
        expect.seq = Some(seq);
    }
    let public_key = args
        .public_key
        .as_deref()
        .map(PublicKey::read)
        .transpose()
        .map_err(|err| match &err {
            KeyError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                CliError::not_found(err.to_string())
            }
            _ => CliError::precondition(err.to_string()),
        })?;
    let options = VerifyOptions {
        allow_legacy_prefix: args.allow_legacy_prefix,
        expect,
        public_key,
    };
    let log = super::locate(args.audit_log.as_ref())?;
    let report = log
        .verify_with(&options)
        .map_err(|err| super::read_error(&err, Some(log.path())))?;
    let mut warnings: Vec<String> = report
        .torn
        .iter()
        .map(|at| {
            format!("{at} is a torn write (a write that failed part-way); the record after it accounts for it")
        })
        .collect();
    if report.unchained > 0 && report.is_intact() {
        warnings.push(format!(
            "{} line(s) at the start of the log come before the hash chain began (accepted with --allow-legacy-prefix); they are not protected by it",
            report.unchained
        ));
    }
    let data = json!({
        "log": log.path(),
        "intact": report.is_intact(),
        "records": report.records,
        "files": report.files,
        "head": report.head,
        "head_line": report.head.as_ref().map(|head| format!("{}:{}", head.seq, head.sha256)),
        "unchained_lines": report.unchained,
        "torn_lines": report.torn,
        "checkpoints": report.checkpoints,
        "last_signed_checkpoint": report.last_signed,
        "records_after_last_signed_checkpoint": options.public_key.as_ref().map(|_| report.after_last_signed),
    });
    let Some(problem) = &report.problem else {
        let mut text = String::new();
        if args.print_head {
            if let Some(head) = &report.head {
                text = format!("{}:{}\n", head.seq, head.sha256);
            }
        } else if !ctx.quiet {
            let signed = options.public_key.as_ref().and(report.last_signed.as_ref());
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
                text.push_str(&format!(
                    "head: seq {} sha256 {} (store {}:{} elsewhere; check with --expect-head)\n",
                    head.seq, head.sha256, head.seq, head.sha256
                ));
            }
            if let Some(signed) = signed {
                text.push_str(&format!(
                    "signed: {} checkpoint(s) hold; the last at seq {} ({}, key {}); {} record(s) after it are protected by the chain alone\n",
                    report.checkpoints, signed.seq, signed.at, signed.key_id, report.after_last_signed
                ));
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
    Ok(Outcome::failure(data, body, String::new()).with_warnings(warnings))
}
