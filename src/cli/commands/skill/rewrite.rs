//! What `skill fmt` and `skill fix` share: rendering a rewrite run as text
//! and turning its missing paths and empty searches into exit codes.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::json;

use aigent::report::escape::escape_controls;
use aigent::report::{ErrorBody, ErrorCode, Outcome, Style};
use aigent::skill::rewrite::{FileResult, RewriteRun, Status};

/// The json `data`: every file and the counts.
pub fn data(run: &RewriteRun) -> serde_json::Value {
    json!({ "files": run.files, "summary": run.summary() })
}

/// The failure for paths that do not exist, or a recursive search that
/// found nothing; `None` when every path held something.
pub fn missing_failure(run: &RewriteRun, paths: &[PathBuf], text: &str) -> Option<Outcome> {
    let missing: Vec<String> = run
        .missing()
        .map(|file| file.path.display().to_string())
        .collect();
    if !missing.is_empty() {
        let message = match missing.as_slice() {
            [one] => format!("{one} does not exist"),
            many => format!("{} paths do not exist: {}", many.len(), many.join(", ")),
        };
        let mut error = ErrorBody::new(ErrorCode::NotFound, message);
        if run.summary().checked > 0 {
            error = error.with_hint("the other paths were still processed");
        }
        return Some(Outcome::failure(data(run), error, text));
    }
    if run.found_nothing {
        let places: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let error = ErrorBody::new(
            ErrorCode::NoSkillsFound,
            format!("no SKILL.md found below {}", places.join(", ")),
        )
        .with_hint("a skill is a directory holding a SKILL.md file");
        return Some(Outcome::failure(data(run), error, text));
    }
    None
}

/// A file's diff for a terminal: control characters escaped, `-`/`+`
/// lines coloured.
pub fn write_diff(out: &mut String, file: &FileResult, style: Style) {
    let Some(diff) = &file.diff else {
        return;
    };
    for line in diff.lines() {
        let line = escape_controls(line);
        let shown = if line.starts_with("+++") || line.starts_with("---") {
            style.emphasis(&line)
        } else if line.starts_with('+') {
            style.success(&line)
        } else if line.starts_with('-') {
            style.error(&line)
        } else if line.starts_with("@@") {
            style.dim(&line)
        } else {
            line.into_owned()
        };
        let _ = writeln!(out, "{shown}");
    }
}

/// `warning[W010]: path: message` for a file left alone.
pub fn write_skipped(out: &mut String, file: &FileResult, style: Style) {
    if file.status == Status::Skipped {
        let code = file.code.unwrap_or("W010");
        let _ = writeln!(
            out,
            "{}: {}",
            style.warning(&format!("warning[{code}]")),
            escape_controls(file.message.as_deref().unwrap_or("skipped"))
        );
    }
}

/// The envelope's warnings for files left alone: `W010: message`.
pub fn skipped_warnings(run: &RewriteRun) -> Vec<String> {
    run.files
        .iter()
        .filter(|file| file.status == Status::Skipped)
        .map(|file| {
            format!(
                "{}: {}",
                file.code.unwrap_or("W010"),
                file.message.as_deref().unwrap_or("skipped")
            )
        })
        .collect()
}

/// `error: path: message` for files that failed or were refused.
pub fn write_failure(out: &mut String, file: &FileResult, style: Style) {
    if matches!(file.status, Status::Failed | Status::Refused) {
        let message = file.message.as_deref().unwrap_or("failed");
        let _ = writeln!(
            out,
            "{}: {}: {}",
            style.error("error"),
            escape_controls(&file.path.display().to_string()),
            escape_controls(message)
        );
    }
}

pub fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}
