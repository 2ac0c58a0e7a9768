//! Writing results: the envelope in json mode, text otherwise, prose to
//! stderr. A closed pipe (`aigent ... | head`) ends output quietly.

use std::io::{self, Write};
use std::time::Instant;

use aigent::report::escape::escape_controls;
use aigent::report::pretty::Indented;
use aigent::report::{
    EnvelopeTarget, ErrorBody, ErrorCode, Outcome, OutputFormat, Phase, Style, Written, exit,
};

use aigent::report::rows::{LineFormat, summary_line};

use super::{CliError, Context, FormatArg, LineOutput};

pub fn write_result(result: Result<Outcome, CliError>, ctx: &Context, started: Instant) -> i32 {
    let mut outcome = result.unwrap_or_else(CliError::into_outcome);
    if let (Some(error), Some(dir)) = (outcome.error.as_mut(), &ctx.commands_dir) {
        name_the_registry(&mut error.hints, dir);
    }
    stamp(&mut outcome, ctx);
    output_started();
    let written = if outcome.written == Written::All {
        Ok(())
    } else if let (Some(lines), false) = (ctx.lines, outcome.verbatim) {
        write_lines(&outcome, lines, ctx.stderr_style, elapsed_ms(started))
    } else if outcome.written == Written::Body && ctx.format == OutputFormat::Json {
        let mut stdout = io::BufWriter::new(io::stdout().lock());
        outcome.write_envelope_after_data(elapsed_ms(started), &mut stdout)
    } else if outcome.verbatim {
        write_stdout(&outcome.text)
    } else if ctx.format == OutputFormat::Json {
        write_envelope(&outcome, elapsed_ms(started))
    } else if matches!(outcome.envelope_target, EnvelopeTarget::File(_)) {
        // A result file asked for by name gets the envelope in any format.
        write_text(&outcome, ctx).and_then(|()| write_envelope(&outcome, elapsed_ms(started)))
    } else {
        write_text(&outcome, ctx)
    };
    match written {
        Ok(()) => outcome.exit_code,
        // The reader went away; what it wanted it already has.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => outcome.exit_code,
        // `run --result FILE` failed to write after the child ran: the
        // child's status must not be lost, so the envelope goes to stderr.
        Err(err) if matches!(outcome.envelope_target, EnvelopeTarget::File(_)) => {
            let _ = writeln!(io::stderr(), "error: cannot write the result file: {err}");
            let mut fallback = outcome.clone();
            fallback.envelope_target = EnvelopeTarget::Stderr;
            fallback
                .warnings
                .push(format!("the result file could not be written: {err}"));
            let _ = write_envelope(&fallback, elapsed_ms(started));
            outcome.exit_code
        }
        Err(err) => {
            let _ = writeln!(io::stderr(), "error: cannot write output: {err}");
            exit::GENERAL_ERROR
        }
    }
}

/// Runs a command that writes its output as it goes (`skill validate`):
/// `body` writes to stdout (in json mode, the envelope's `data`, which
/// this opens; [`write_result`] closes the envelope after it) and returns
/// the outcome, whose warnings and error are written after the body as
/// any outcome's are. A failed write ends the command: its outcome has no
/// verdict. A closed pipe (`| head`) exits 0 quietly, since the reader
/// stopped reading (REQ-F-014); any other failure exits 1.
pub fn stream(ctx: &Context, body: impl FnOnce(&mut dyn Write) -> io::Result<Outcome>) -> Outcome {
    if ctx.lines.is_some() {
        // Lines are made from the whole `data` ([`write_lines`]): held,
        // as a page of it is.
        let mut data = Vec::new();
        return match body(&mut data) {
            Ok(mut outcome) => match serde_json::from_slice(&data) {
                Ok(data) => {
                    outcome.data = data;
                    outcome
                }
                Err(err) => CliError::of(ErrorCode::Internal, err.to_string()).into_outcome(),
            },
            Err(err) => CliError::of(ErrorCode::Internal, err.to_string()).into_outcome(),
        };
    }
    if ctx.buffered && ctx.format != OutputFormat::Json {
        let mut text = Vec::new();
        return match body(&mut text) {
            Ok(mut outcome) => {
                outcome.text = String::from_utf8_lossy(&text).into_owned();
                outcome
            }
            Err(err) => CliError::of(ErrorCode::Internal, err.to_string()).into_outcome(),
        };
    }
    output_started();
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let written = if ctx.format == OutputFormat::Json {
        stdout
            .write_all(b"{\n  \"data\": ")
            .and_then(|()| body(&mut Indented::new(&mut stdout, b"  ")))
    } else {
        body(&mut stdout)
    };
    match written.and_then(|outcome| stdout.flush().map(|()| outcome)) {
        Ok(outcome) => outcome.after_writing(Written::Body),
        Err(err) => {
            let mut cut = Outcome::success(serde_json::Value::Null, "").after_writing(Written::All);
            if err.kind() != io::ErrorKind::BrokenPipe {
                let _ = writeln!(io::stderr(), "error: cannot write output: {err}");
                cut.exit_code = exit::GENERAL_ERROR;
            }
            cut
        }
    }
}

/// What [`write_result`] would print for `err`, as (stdout, stderr), for a
/// caller that must print it later without rendering anything (a signal
/// handler), with `duration_ms` as `meta.duration_ms` (0 where the moment
/// of printing is unknown).
pub fn render_failure(err: CliError, ctx: &Context, duration_ms: u64) -> (String, String) {
    let mut outcome = err.into_outcome();
    stamp(&mut outcome, ctx);
    if let Some(lines) = ctx.lines {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let _ = write_lines_to(
            &outcome,
            lines,
            ctx.stderr_style,
            duration_ms,
            &mut stdout,
            &mut stderr,
        );
        return (
            String::from_utf8_lossy(&stdout).into_owned(),
            String::from_utf8_lossy(&stderr).into_owned(),
        );
    }
    if ctx.format == OutputFormat::Json {
        let mut document =
            serde_json::to_string_pretty(&outcome.envelope(duration_ms)).unwrap_or_default();
        document.push('\n');
        return (document, String::new());
    }
    let mut stderr = Vec::new();
    if let Some(error) = &outcome.error {
        let _ = write_error_prose(&mut stderr, error, ctx.stderr_style);
    }
    (String::new(), String::from_utf8_lossy(&stderr).into_owned())
}

/// `meta.command` (the manifest's key for the command, `skill.validate`;
/// the root's is empty) and `meta.timestamp` (when it started, RFC 3339 in
/// UTC), which every envelope carries (REQ-F-024's examples), and
/// `meta.timeout_ms`, the limit it ran under (REQ-F-011), where aigent's
/// own limit applied (`run` puts its child's).
fn stamp(outcome: &mut Outcome, ctx: &Context) {
    stamp_command(outcome, &ctx.command, ctx.started_at);
    if let Some(limit) = ctx.timeout {
        outcome
            .meta
            .entry("timeout_ms")
            .or_insert_with(|| millis(limit).into());
    }
}

/// `meta.command` and `meta.timestamp`, for an answer given before the
/// command's context exists (a usage error).
fn stamp_command(outcome: &mut Outcome, command: &str, started_at: std::time::SystemTime) {
    outcome
        .meta
        .entry("command")
        .or_insert_with(|| command.into());
    outcome.meta.entry("timestamp").or_insert_with(|| {
        humantime::format_rfc3339_millis(started_at)
            .to_string()
            .into()
    });
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The wall-clock time of `started`.
fn started_at(started: Instant) -> std::time::SystemTime {
    std::time::SystemTime::now()
        .checked_sub(started.elapsed())
        .unwrap_or_else(std::time::SystemTime::now)
}

fn write_stdout(text: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

fn write_envelope(outcome: &Outcome, duration_ms: u64) -> io::Result<()> {
    // Streamed to the terminal or pipe: a large run's envelope is never
    // held as one string.
    match &outcome.envelope_target {
        EnvelopeTarget::Stdout => {
            outcome.write_envelope(duration_ms, io::BufWriter::new(io::stdout().lock()))
        }
        EnvelopeTarget::Stderr => {
            outcome.write_envelope(duration_ms, io::BufWriter::new(io::stderr().lock()))
        }
        EnvelopeTarget::File(path) => {
            let mut document = Vec::new();
            outcome.write_envelope(duration_ms, &mut document)?;
            aigent::fsutil::write_atomic(path, &document)
        }
    }
}

/// The result in a line format (`--output jsonl`, `tsv`, `plain`).
fn write_lines(
    outcome: &Outcome,
    lines: LineOutput,
    stderr_style: Style,
    duration_ms: u64,
) -> io::Result<()> {
    let on_stdout = outcome.envelope_target == EnvelopeTarget::Stdout || lines.rows.is_some();
    if !on_stdout && lines.format == LineFormat::Jsonl {
        // `run`'s envelope where `run` puts it (stderr, `--result FILE`),
        // on one line.
        let mut document = Vec::new();
        write_lines_to(
            outcome,
            lines,
            stderr_style,
            duration_ms,
            &mut document,
            &mut io::sink(),
        )?;
        return match &outcome.envelope_target {
            EnvelopeTarget::File(path) => aigent::fsutil::write_atomic(path, &document),
            _ => {
                let mut stderr = io::stderr().lock();
                stderr.write_all(&document)?;
                stderr.flush()
            }
        };
    }
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut stderr = io::stderr().lock();
    write_lines_to(
        outcome,
        lines,
        stderr_style,
        duration_ms,
        &mut stdout,
        &mut stderr,
    )?;
    stdout.flush()
}

/// [`write_lines`] to these writers. jsonl: a listing's items, one a
/// line, then its summary line ([`summary_line`]); any other result, the
/// envelope on one line. tsv and plain: a listing's rows (tsv under a
/// header) on `stdout`, and on `stderr` what text mode puts there (the
/// warnings, the error) and where a page ended, so that every line of
/// `stdout` is a row.
fn write_lines_to(
    outcome: &Outcome,
    lines: LineOutput,
    stderr_style: Style,
    duration_ms: u64,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> io::Result<()> {
    let items = lines
        .rows
        .and_then(|rows| rows.items(&outcome.data).map(|items| (rows, items)));
    if lines.format == LineFormat::Jsonl {
        let envelope =
            serde_json::to_value(outcome.envelope(duration_ms)).map_err(io::Error::other)?;
        let last = match (lines.rows, items) {
            (Some(rows), Some((_, items))) => {
                for item in items {
                    rows.write_item(LineFormat::Jsonl, item, stdout)?;
                }
                summary_line(&envelope, rows.rest(&outcome.data))
            }
            (Some(rows), None) => summary_line(&envelope, rows.rest(&outcome.data)),
            (None, _) => envelope,
        };
        serde_json::to_writer(&mut *stdout, &last).map_err(io::Error::other)?;
        return stdout.write_all(b"\n");
    }
    if let Some((rows, items)) = items {
        if lines.format == LineFormat::Tsv {
            rows.write_header(stdout)?;
        }
        for item in items {
            rows.write_item(lines.format, item, stdout)?;
        }
    }
    if let Some(footer) = page_footer(&outcome.meta) {
        writeln!(stderr, "{}: {footer}", stderr_style.emphasis("note"))?;
    }
    for warning in &outcome.warnings {
        let warning = escape_controls(warning);
        writeln!(stderr, "{}: {warning}", stderr_style.warning("warning"))?;
    }
    if let Some(error) = &outcome.error {
        write_error_prose(stderr, error, stderr_style)?;
    }
    Ok(())
}

/// Where a page of a listing ended, from its `meta.pagination`, as text
/// mode's footer says it; `None` when nothing was left out.
fn page_footer(meta: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
    let pagination = meta.get("pagination")?;
    let next = pagination.get("next_cursor")?.as_str()?;
    let number = |key: &str| pagination.get(key).and_then(serde_json::Value::as_u64);
    let (offset, returned, total) = (number("offset")?, number("returned")?, number("total")?);
    Some(format!(
        "items {}-{} of {total}; --cursor {next} for the next page, --limit 0 for all",
        offset + 1,
        offset + returned
    ))
}

fn write_text(outcome: &Outcome, ctx: &Context) -> io::Result<()> {
    write_stdout(&outcome.text)?;
    let stderr_style = ctx.stderr_style;
    let mut stderr = io::stderr().lock();
    for warning in &outcome.warnings {
        let warning = escape_controls(warning);
        writeln!(stderr, "{}: {warning}", stderr_style.warning("warning"))?;
    }
    if let Some(error) = &outcome.error {
        write_error_prose(&mut stderr, error, stderr_style)?;
    }
    Ok(())
}

/// Hints that suggest another `aigent schema` command must name the
/// registry in use, or the suggested command reads a different one.
fn name_the_registry(hints: &mut [String], dir: &std::path::Path) {
    const PREFIX: &str = "run `aigent schema ";
    let dir = aigent::exec::argv::shell_quote(&dir.to_string_lossy());
    for hint in hints.iter_mut() {
        if let Some(rest) = hint.strip_prefix(PREFIX) {
            *hint = format!("run `aigent --commands {dir} schema {rest}");
        }
    }
}

/// Messages may quote values from files or arguments: control characters
/// are shown as escapes ([`escape_controls`]).
fn write_error_prose(out: &mut dyn Write, error: &ErrorBody, style: Style) -> io::Result<()> {
    // A headline that only repeats the first listed problem (`X` or
    // `X (and 2 more)`) would print that problem twice: say how many
    // there are instead, and let the list speak.
    let repeats_the_list = error
        .errors
        .first()
        .is_some_and(|first| error.message.starts_with(&first.message));
    let message = match error.errors.len() {
        count if repeats_the_list && count > 1 => format!("{count} problems:"),
        _ if repeats_the_list => "1 problem:".to_owned(),
        _ => escape_controls(&error.message).into_owned(),
    };
    writeln!(out, "{}: {message}", style.error("error"))?;
    for problem in &error.errors {
        let message = escape_controls(&problem.message);
        match &problem.field {
            Some(field) if !field.is_empty() => {
                writeln!(out, "  - {}: {message}", escape_controls(field))?
            }
            _ => writeln!(out, "  - {message}")?,
        }
        if let Some(expected) = &problem.expected {
            writeln!(out, "      expected: {}", escape_controls(expected))?;
        }
        if let Some(suggestion) = &problem.suggestion {
            writeln!(out, "      suggestion: {}", escape_controls(suggestion))?;
        }
    }
    for hint in &error.hints {
        writeln!(
            out,
            "  {}: {}",
            style.emphasis("hint"),
            escape_controls(hint)
        )?;
    }
    Ok(())
}

/// A clap error: help and version exit 0; real usage errors keep clap's
/// rendering on stderr and, in json mode, also get an envelope on stdout
/// so an agent never has to parse prose. Help goes to stdout in text mode;
/// in json mode (stdout not a terminal, unless the format says otherwise)
/// it goes to stderr and stdout gets an envelope whose `meta` points at
/// the manifest (REQ-F-048). The version is one parseable line on stdout.
pub fn write_usage_error(err: &clap::Error, started: Instant) -> i32 {
    use clap::error::ErrorKind;
    if err.kind() == ErrorKind::DisplayVersion {
        return match err.print() {
            Ok(()) => exit::SUCCESS,
            Err(io_err) if io_err.kind() == io::ErrorKind::BrokenPipe => exit::SUCCESS,
            Err(_) => exit::GENERAL_ERROR,
        };
    }
    let scanned = scan_before_parse();
    if err.kind() == ErrorKind::DisplayHelp {
        if !scanned.json {
            return match err.print() {
                Ok(()) => exit::SUCCESS,
                Err(io_err) if io_err.kind() == io::ErrorKind::BrokenPipe => exit::SUCCESS,
                Err(_) => exit::GENERAL_ERROR,
            };
        }
        let _ = write!(io::stderr(), "{}", err.render());
        let mut outcome = Outcome::success(serde_json::Value::Null, String::new());
        stamp_command(&mut outcome, &scanned.path.join("."), started_at(started));
        outcome.meta.insert("help".to_owned(), true.into());
        let mut schema_ref = vec!["aigent".to_owned()];
        schema_ref.extend(scanned.path.iter().cloned());
        schema_ref.push("--schema".to_owned());
        outcome
            .meta
            .insert("schema_ref".to_owned(), schema_ref.join(" ").into());
        return match write_usage_envelope(&outcome, scanned.one_line, elapsed_ms(started)) {
            Err(io_err) if io_err.kind() != io::ErrorKind::BrokenPipe => exit::GENERAL_ERROR,
            _ => exit::SUCCESS,
        };
    }
    let _ = err.print();
    let is_run = scanned.is_run;
    if scanned.json || (is_run && scanned.result_file.is_some()) {
        let body = usage_error_body(err);
        let mut outcome = Outcome::failure(serde_json::Value::Null, body, String::new());
        stamp_command(&mut outcome, &scanned.path.join("."), started_at(started));
        // `run` puts its envelope on stdout only with `--capture` (stdout
        // is the child's otherwise); `--result PATH` gets it even for a
        // usage error.
        if is_run {
            outcome.envelope_target = match scanned.result_file {
                Some(path) => EnvelopeTarget::File(path),
                None if scanned.capture => EnvelopeTarget::Stdout,
                None => EnvelopeTarget::Stderr,
            };
        }
        let _ = write_usage_envelope(&outcome, scanned.one_line, elapsed_ms(started));
    }
    exit::ARG_ERROR
}

/// The envelope of a usage error or of help, pretty or, for jsonl, on
/// one line.
fn write_usage_envelope(outcome: &Outcome, one_line: bool, duration_ms: u64) -> io::Result<()> {
    if !one_line {
        return write_envelope(outcome, duration_ms);
    }
    let lines = LineOutput {
        format: LineFormat::Jsonl,
        rows: None,
    };
    write_lines(outcome, lines, Style::default(), duration_ms)
}

/// clap's message as an envelope error: the message is everything before
/// the usage line (clap puts the missing arguments on their own lines), the
/// usage and the `--help` pointer become hints, and the offending argument,
/// where clap names one, becomes `field`.
fn usage_error_body(err: &clap::Error) -> ErrorBody {
    use clap::error::{ContextKind, ContextValue};
    let rendered = err.render().to_string();
    let mut message_lines = Vec::new();
    let mut hints = Vec::new();
    for line in rendered
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
    {
        let is_hint = line.starts_with("Usage:")
            || line.starts_with("tip:")
            || line.starts_with("For more information");
        if hints.is_empty() && !is_hint {
            message_lines.push(line.strip_prefix("error: ").unwrap_or(line));
        } else {
            hints.push(line.to_owned());
        }
    }
    let message = if message_lines.is_empty() {
        "invalid usage".to_owned()
    } else {
        message_lines.join(" ")
    };
    let mut body = ErrorBody::new(ErrorCode::ArgError, message);
    // clap refused the command line before anything ran.
    body.phase = Some(Phase::Validation);
    body.hints = hints;
    body.field = match err.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => Some(arg.clone()),
        Some(ContextValue::Strings(args)) => args.first().cloned(),
        _ => None,
    };
    body
}

/// Parsing failed, so the flags were never read: read what clap could
/// parse, with the parser's own precedence (flag, then environment, then
/// the terminal test).
fn scan_before_parse() -> ScannedArgs {
    use std::io::IsTerminal;
    // A help flag ends clap's parse even when lenient: read the line
    // without it, so `--help` still tells which command it was asked of.
    let words: Vec<std::ffi::OsString> = std::env::args_os()
        .filter(|word| word != "--help" && word != "-h")
        .collect();
    let matches = super::argv::lenient(&words);
    let format = matches.as_ref().and_then(|matches| {
        matches
            .try_get_one::<FormatArg>("output")
            .ok()
            .flatten()
            .copied()
            .or_else(|| super::output_variable().and_then(Result::ok))
    });
    // A value the parser refused (AIGENT_OUTPUT=yaml) is absent here, so
    // a pipe still gets its envelope.
    let json = match format {
        Some(format) => matches!(format, FormatArg::Json | FormatArg::Jsonl),
        None => {
            let hints = aigent::report::TerminalHints::read(|name| std::env::var_os(name));
            aigent::report::resolve_format(None, io::stdout().is_terminal(), &hints).is_json()
        }
    };
    let run = matches
        .as_ref()
        .and_then(|matches| matches.subcommand_matches("run"));
    ScannedArgs {
        path: matches
            .as_ref()
            .map(super::argv::subcommand_path)
            .map(|path| match path.split_first() {
                // `aigent help skill validate` asks about `skill validate`.
                Some((first, rest)) if first == "help" => rest.to_vec(),
                _ => path,
            })
            .unwrap_or_default(),
        json,
        one_line: format == Some(FormatArg::Jsonl),
        is_run: run.is_some(),
        result_file: run
            .and_then(|run| {
                run.try_get_one::<std::path::PathBuf>("result")
                    .ok()
                    .flatten()
            })
            .cloned(),
        capture: run
            .and_then(|run| run.try_get_one::<bool>("capture").ok().flatten())
            .copied()
            .unwrap_or(false),
    }
}

/// What the command line says about output before it could be parsed.
struct ScannedArgs {
    /// The subcommand's words (`["skill", "validate"]`).
    path: Vec<String>,
    json: bool,
    /// jsonl: the envelope on one line.
    one_line: bool,
    /// The command is `run`, whose stdout belongs to the child.
    is_run: bool,
    /// `run --result PATH`: where that run wants its envelope.
    result_file: Option<std::path::PathBuf>,
    /// `run --capture`: the envelope goes to stdout.
    capture: bool,
}

/// The command's own output has begun: a signal no longer adds the
/// cancellation document (`signals.rs` reads it).
static OUTPUT_STARTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn output_started() {
    OUTPUT_STARTED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Whether the command has begun writing its own output.
pub(super) fn has_started() -> bool {
    OUTPUT_STARTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// A duration in whole milliseconds, as `meta` fields give it.
pub fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
