//! `aigent audit show`

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use serde_json::{Map, Value, json};

use aigent::exec::argv::shell_quote;
use aigent::exec::audit::{Filter, record::parse_since};
use aigent::report::Outcome;
use aigent::report::escape::escape_controls;

use crate::cli::page::PageArgs;
use crate::cli::spec::{
    CommandSpec, NoEffects, Rows, Safe, TEXT_AND_JSON, USAGE, code, code_when, exit, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "audit.show",
    Safe,
    &[
        code(exit::SUCCESS, NoEffects),
        USAGE,
        code_when(exit::PRECONDITION, NoEffects, "the log cannot be read"),
        code_when(exit::NOT_FOUND, NoEffects, "there is no audit log"),
    ],
    TEXT_AND_JSON,
    false,
)
.with_rows(Rows {
    field: "records",
    columns: &[
        "timestamp",
        "seq",
        "event",
        "command",
        "exit_code",
        "duration_ms",
        "request_id",
        "argv",
    ],
});

#[derive(Debug, Args)]
#[command(after_help = "\
Reads the log and its rotated files, oldest record first. Filters combine: \
a record is shown when it matches every one given. Lines that are not \
records (a write that failed part-way) are skipped with a warning. Records \
the hash chain does not vouch for (before the chain began, not linked into \
it, or after a break in it) are shown marked UNVERIFIED, and listed in \
`data.unverified` of the JSON output.

In json mode a listing holds at most 20 records unless --limit says \
otherwise, and stays within the response cap (AIGENT_MAX_OUTPUT_BYTES or \
TOOL_MAX_OUTPUT_BYTES, else 1 MiB); meta.cursor then continues it. Text \
shows every record unless --limit says otherwise.

Examples:
  # the last 20 records
  aigent audit show --last 20
  # one command's runs in the last two hours
  aigent audit show --command deploy --event COMMAND_EXECUTED --since 2h
  # records since a time, as JSON
  aigent audit show --since 2026-11-23T09:00:00Z --output json
  # one request's records, in another log
  aigent audit show --request-id 0b6f3c1e-7d2a-4e59-9a4f-2c8d1e6b5a70 --audit-log ./audit.jsonl")]
pub struct ShowArgs {
    /// Only records of this declared command
    #[arg(long, value_name = "NAME")]
    pub command: Option<String>,

    /// Only records of this event (COMMAND_STARTED, COMMAND_EXECUTED, TOOL_ARG_VALIDATION_FAILURE, ...)
    #[arg(long, value_name = "EVENT")]
    pub event: Option<String>,

    /// Only records at or after TIME: RFC 3339 (2026-11-23T09:00:00Z), a date, or an age (30m, 2h, 7d)
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,

    /// Only records of this request (the `request_id` in every envelope's meta)
    #[arg(long, value_name = "ID")]
    pub request_id: Option<String>,

    /// Only the last N matching records
    #[arg(long, value_name = "N")]
    pub last: Option<usize>,

    #[command(flatten)]
    pub page: PageArgs,

    #[arg(long, value_name = "PATH", help = super::AUDIT_LOG_HELP)]
    pub audit_log: Option<PathBuf>,
}

pub fn run(args: &ShowArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let since = args
        .since
        .as_deref()
        .map(|text| parse_since(text, std::time::SystemTime::now()))
        .transpose()
        .map_err(CliError::usage)?;
    let filter = Filter {
        command: args.command.clone(),
        event: args.event.clone(),
        since,
        request_id: args.request_id.clone(),
        last: args.last,
    };
    let log = super::locate(args.audit_log.as_ref())?;
    let query = format!(
        "audit show\0{}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}",
        log.path().display(),
        args.command,
        args.event,
        args.since,
        args.request_id,
        args.last
    );
    let request = args.page.request(ctx, &query)?;
    let listing = log
        .records(&filter)
        .map_err(|err| super::read_error(&err, Some(log.path())))?;
    let mut warnings: Vec<String> = listing
        .skipped
        .iter()
        .map(|at| format!("{at} is not a record (a write that failed part-way?); skipped"))
        .collect();
    if !listing.unverified.is_empty() {
        warnings.push(format!(
            "{} record(s) shown are not vouched for by the chain (marked UNVERIFIED); run `aigent audit verify`",
            listing.unverified.len()
        ));
    }
    // The page: a run of consecutive records, from the cursor's offset.
    let mut pager = request.pager();
    let included: Vec<bool> = listing
        .records
        .iter()
        .map(|record| pager.offer(crate::cli::page::weight(record)))
        .collect();
    let page = pager.page();
    let mut text = String::new();
    let mut marks = listing.unverified.iter().peekable();
    for (index, record) in listing.records.iter().enumerate() {
        let unverified = marks.next_if(|mark| mark.index == index).is_some();
        if !included[index] {
            continue;
        }
        let mark = if unverified { "UNVERIFIED  " } else { "" };
        let _ = writeln!(text, "{mark}{}", render_record(record));
    }
    if text.is_empty() && !ctx.quiet {
        text.push_str("no matching records\n");
    }
    if let Some(footer) = page.footer("records") {
        text.push_str(&footer);
        text.push('\n');
    }
    let first = page.offset;
    let records: Vec<&Map<String, Value>> = listing
        .records
        .iter()
        .zip(&included)
        .filter_map(|(record, included)| included.then_some(record))
        .collect();
    // Marks are by index in `records`, so by index in the page.
    let unverified: Vec<Value> = listing
        .unverified
        .iter()
        .filter(|mark| included.get(mark.index).copied().unwrap_or(false))
        .map(|mark| {
            let mut value = serde_json::to_value(mark).unwrap_or_default();
            value["index"] = (mark.index - first).into();
            value
        })
        .collect();
    let data = json!({
        "log": log.path(),
        "files": listing.files,
        "count": records.len(),
        "records": records,
        "unverified": unverified,
    });
    let mut outcome = Outcome::success(data, text).with_warnings(warnings);
    outcome.meta.extend(page.meta());
    Ok(outcome)
}

/// One line: time, seq, event, command, then what matters for the event.
fn render_record(record: &Map<String, Value>) -> String {
    let field = |key: &str| record.get(key).and_then(Value::as_str).unwrap_or("-");
    let mut line = format!(
        "{}  #{}  {}  {}",
        field("timestamp"),
        record
            .get("seq")
            .and_then(Value::as_u64)
            .map_or_else(|| "-".to_owned(), |seq| seq.to_string()),
        field("event"),
        field("command"),
    );
    if let Some(exit) = record.get("exit_code").filter(|code| !code.is_null()) {
        let _ = write!(line, "  exit {exit}");
    } else if let Some(signal) = record.get("signal") {
        let _ = write!(line, "  signal {signal}");
    }
    if let Some(ms) = record.get("duration_ms") {
        let _ = write!(line, " after {ms} ms");
    }
    if let Some(Value::Array(words)) = record.get("argv") {
        let words: Vec<String> = words
            .iter()
            .map(|word| shell_quote(word.as_str().unwrap_or_default()))
            .collect();
        let _ = write!(line, "  {}", words.join(" "));
    }
    if let Some(Value::Array(violations)) = record.get("violations") {
        let shown: Vec<String> = violations
            .iter()
            .map(|violation| {
                format!(
                    "{}: {}",
                    violation["field"].as_str().unwrap_or("-"),
                    violation["rejected_pattern"].as_str().unwrap_or("-")
                )
            })
            .collect();
        let _ = write!(line, "  {}", shown.join(", "));
    }
    if let Some(id) = record.get("request_id").and_then(Value::as_str) {
        let _ = write!(line, "  request {id}");
    }
    escape_controls(&line).into_owned()
}
