//! `--watch` for `skill validate` and `schema lint`: run, then run again
//! whenever a file below the watched paths changes (file-system events
//! from `notify`, debounced), printing only the findings that appeared or
//! went away since the run before. Ctrl-C ends it (exit 130).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher};
use serde::Serialize;

use aigent::report::{Diagnostic, ErrorCode, Outcome, OutputFormat, Severity, exit};

use super::{CliError, Context};

/// Events closer together than this are one change (an editor's save is
/// often several writes and a rename).
const QUIET: Duration = Duration::from_millis(200);

/// A burst of events is cut off after this long, so that a file written
/// without pause still gets checked.
const MAX_BURST: Duration = Duration::from_secs(2);

/// How often Ctrl-C is looked for while nothing happens.
const POLL: Duration = Duration::from_millis(100);

/// One finding of a run, as compared between runs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Seen {
    pub file: String,
    pub line: Option<usize>,
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
}

impl Seen {
    pub fn new(file: &str, diagnostic: &Diagnostic) -> Self {
        Self {
            file: file.to_owned(),
            line: diagnostic.line,
            severity: diagnostic.severity,
            code: diagnostic.code,
            message: diagnostic.message.clone(),
        }
    }
}

/// What a run found.
pub type Findings = BTreeSet<Seen>;

/// A path to watch, and whether to watch below it.
pub fn target(path: &Path) -> Option<(PathBuf, RecursiveMode)> {
    if path.is_dir() {
        return Some((path.to_path_buf(), RecursiveMode::Recursive));
    }
    // A file is watched through its directory: editors save by writing a
    // new file and renaming it over the old one.
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    parent
        .is_dir()
        .then(|| (parent.to_path_buf(), RecursiveMode::NonRecursive))
}

/// `--watch` supports text (the first run as usual, then the changes)
/// and json or jsonl (one line per run: what appeared and what went away).
pub fn check_format(ctx: &Context) -> Result<(), CliError> {
    // jsonl is json's lines already; tsv and plain have no form for a change.
    if let Some(lines) = ctx.lines
        && lines.format != aigent::report::rows::LineFormat::Jsonl
    {
        let name = match lines.format {
            aigent::report::rows::LineFormat::Tsv => "tsv",
            _ => "plain",
        };
        return Err(CliError::usage(format!(
            "--watch prints text, json or jsonl, not {name}"
        )));
    }
    match ctx.format {
        OutputFormat::Text | OutputFormat::Json => Ok(()),
        other => Err(CliError::usage(format!(
            "--watch prints text or json, not {}",
            other.as_str()
        ))),
    }
}

/// Prints the first run (`first_text` in text mode), watches `targets`,
/// and after each change prints what `rerun` finds that the run before
/// did not, and what it no longer finds. Returns on Ctrl-C.
pub fn watch(
    targets: &[(PathBuf, RecursiveMode)],
    ctx: &Context,
    first_text: &str,
    first: Findings,
    mut rerun: impl FnMut() -> Result<Findings, CliError>,
) -> Result<Outcome, CliError> {
    super::interactive::catch_interrupts();
    let (sender, events) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(sender).map_err(watch_error)?;
    for (path, mode) in targets {
        watcher.watch(path, *mode).map_err(watch_error)?;
    }
    let mut stdout = std::io::stdout();
    if ctx.format.is_json() {
        print_changes(&mut stdout, ctx, &Findings::new(), &first, true);
    } else {
        let _ = stdout.write_all(first_text.as_bytes());
        let _ = stdout.flush();
    }
    let places: Vec<String> = targets
        .iter()
        .map(|(path, _)| path.display().to_string())
        .collect();
    eprintln!(
        "{} watching {} for changes; Ctrl-C to stop",
        ctx.stderr_style.dim("aigent:"),
        places.join(", ")
    );
    let mut last = first;
    loop {
        // Wait for a change that matters, looking for Ctrl-C meanwhile.
        loop {
            if super::interactive::interrupted() {
                return Err(stopped());
            }
            match events.recv_timeout(POLL) {
                Ok(Ok(event)) if matters(&event) => break,
                Ok(_) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(CliError::general("the file watcher stopped"));
                }
            }
        }
        // Then for the burst to end.
        let started = Instant::now();
        while started.elapsed() < MAX_BURST {
            match events.recv_timeout(QUIET) {
                Ok(_) => {}
                Err(_) => break,
            }
        }
        if super::interactive::interrupted() {
            return Err(stopped());
        }
        let now = rerun()?;
        print_changes(&mut stdout, ctx, &last, &now, false);
        last = now;
    }
}

/// Whether an event can change a finding: not a mere read, and not in a
/// repository's own directory.
fn matters(event: &notify::Event) -> bool {
    let content = !matches!(
        event.kind,
        EventKind::Access(notify::event::AccessKind::Open(_))
            | EventKind::Access(notify::event::AccessKind::Read)
            | EventKind::Access(notify::event::AccessKind::Close(
                notify::event::AccessMode::Read
            ))
            | EventKind::Access(notify::event::AccessKind::Any)
    );
    // Only `.git/` changed: a commit or a fetch, not a file checked.
    let only_git = !event.paths.is_empty()
        && event
            .paths
            .iter()
            .all(|path| path.components().any(|part| part.as_os_str() == ".git"));
    content && !only_git
}

#[derive(Serialize)]
struct Changes<'a> {
    new: Vec<&'a Seen>,
    fixed: Vec<&'a Seen>,
    errors: usize,
    warnings: usize,
}

/// Prints what `now` has that `before` had not (`+`) and the reverse
/// (`-`), then the counts; nothing when the findings are the same (a
/// save that changed nothing that matters), unless `always`.
fn print_changes(
    out: &mut impl Write,
    ctx: &Context,
    before: &Findings,
    now: &Findings,
    always: bool,
) {
    let changes = Changes {
        new: now.difference(before).collect(),
        fixed: before.difference(now).collect(),
        errors: now
            .iter()
            .filter(|seen| seen.severity == Severity::Error)
            .count(),
        warnings: now
            .iter()
            .filter(|seen| seen.severity == Severity::Warning)
            .count(),
    };
    if changes.new.is_empty() && changes.fixed.is_empty() && !always {
        return;
    }
    let text = if ctx.format.is_json() {
        let mut line = serde_json::to_string(&changes).unwrap_or_default();
        line.push('\n');
        line
    } else {
        let style = ctx.style;
        let mut text = String::new();
        for (mark, seen) in changes
            .new
            .iter()
            .map(|seen| (style.error("+"), *seen))
            .chain(changes.fixed.iter().map(|seen| (style.success("-"), *seen)))
        {
            let line = seen.line.map(|line| format!(":{line}")).unwrap_or_default();
            text.push_str(&format!(
                "{mark} {}{line}: {} {}: {}\n",
                aigent::report::escape::escape_controls(&seen.file),
                seen.severity,
                seen.code,
                aigent::report::escape::escape_controls(&seen.message),
            ));
        }
        text.push_str(&format!(
            "{} new, {} fixed; now {} error{}, {} warning{}\n",
            changes.new.len(),
            changes.fixed.len(),
            changes.errors,
            if changes.errors == 1 { "" } else { "s" },
            changes.warnings,
            if changes.warnings == 1 { "" } else { "s" },
        ));
        text
    };
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn watch_error(err: notify::Error) -> CliError {
    CliError::general(format!("cannot watch for changes: {err}"))
}

fn stopped() -> CliError {
    CliError::new(
        exit::INTERRUPTED,
        ErrorCode::Interrupted,
        "stopped watching (Ctrl-C)",
    )
}
