//! Rendering validation results: the json `data` object, compiler-style
//! text, and the run as [`Findings`] for the one renderer of findings
//! (`report::findings`: GitHub workflow commands, SARIF).

use std::fmt::Write as _;
use std::path::Path;

use comfy_table::{Cell, CellAlignment, ContentArrangement, Table, presets};
use serde::Serialize;
use serde_json::Value;

use super::changed::{ChangedReport, shown_path};
use super::check::SkillReport;
use super::codes;
use super::validate::{Summary, ValidationRun};
use crate::report::escape::escape_controls;
use crate::report::findings::Findings;
use crate::report::{Diagnostic, SKILL_CODES_PAGE, Severity, Style, sarif};
use crate::vcs::{BaseSource, ChangeStatus, CompareTo, SelectedUnit};

/// How many invalid skills the text summary names before it stops.
pub const SUMMARY_INVALID_ROWS: usize = 20;

/// The json `data` of `skill validate`:
/// `{"skills": [{"path", "name", "valid", "diagnostics", "tokens"}], "summary": {...}}`.
/// With `--changed`, each skill also has `selected` (its directory and the
/// changed files that selected it) and `data` has `changed` (the base, the
/// comparison, the scope and the deleted skills).
pub fn validation_json(run: &ValidationRun) -> Value {
    serde_json::to_value(validation_data(run)).unwrap_or(Value::Null)
}

/// [`validation_json`] borrowed from the run, to serialize without
/// building the tree.
pub fn validation_data(run: &ValidationRun) -> ValidationData<'_> {
    ValidationData {
        skills: &run.skills,
        summary: run.summary(),
        changed: run.changed.as_ref(),
    }
}

/// [`validation_data`] of a run it owns, for output written after the
/// command has returned.
#[derive(Debug)]
pub struct ValidationJson(pub ValidationRun);

impl Serialize for ValidationJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        validation_data(&self.0).serialize(serializer)
    }
}

#[derive(Debug, Serialize)]
pub struct ValidationData<'a> {
    skills: &'a [SkillReport],
    summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    changed: Option<&'a ChangedReport>,
}

pub use crate::report::findings::TextOptions;

/// Compiler-style text: each finding as `error[E003]: message` with a
/// `--> path:line` pointer, a short `ok: path` line per clean skill, and a
/// summary table when more than one skill was checked. Values and paths
/// from files have their control characters escaped.
pub fn validation_text(run: &ValidationRun, options: TextOptions) -> String {
    let style = options.style;
    let mut out = String::new();
    if let Some(changed) = &run.changed
        && !options.quiet
    {
        write_changed_header(&mut out, run, changed, style);
    }
    for skill in &run.skills {
        if skill.diagnostics.is_empty() {
            if !options.quiet {
                let _ = write!(out, "{}: {}", style.success("ok"), shown(&skill.path));
                if let Some(unit) = &skill.selected {
                    let _ = write!(out, " {}", style.dim(&selection_note(unit)));
                }
                out.push('\n');
            }
            continue;
        }
        for diagnostic in &skill.diagnostics {
            write_diagnostic(&mut out, skill, diagnostic, style);
        }
    }
    if !options.quiet
        && let Some(note) = super::place::profile_note(
            run.checked()
                .map(|skill| (skill.profile.as_str(), skill.profile_source)),
        )
    {
        let _ = writeln!(out, "{}: {note}", style.dim("note"));
    }
    if !options.quiet && run.summary().checked > 1 {
        out.push('\n');
        out.push_str(&summary_table(run));
        out.push('\n');
    }
    out
}

/// A run as the one renderer of findings (`report::findings`) sees it:
/// text, GitHub workflow commands and a SARIF log all come from here. The
/// base of `--changed` and its deleted skills are notices; the search
/// notes are warnings.
#[derive(Debug, Clone, Copy)]
pub struct ValidationFindings<'a> {
    run: &'a ValidationRun,
    tool: sarif::ToolInfo<'static>,
}

impl<'a> ValidationFindings<'a> {
    /// `skill validate`'s: the skill codes.
    pub fn skills(run: &'a ValidationRun) -> Self {
        Self::with_rules(
            run,
            sarif::ToolInfo {
                rules: codes::Code::TABLE,
                rules_page: SKILL_CODES_PAGE,
            },
        )
    }

    /// With another rule table (`plugin validate`'s holds the plugin
    /// codes and the skill codes).
    pub fn with_rules(run: &'a ValidationRun, tool: sarif::ToolInfo<'static>) -> Self {
        Self { run, tool }
    }
}

impl Findings for ValidationFindings<'_> {
    fn tool(&self) -> sarif::ToolInfo<'static> {
        self.tool
    }

    fn files(&self) -> Vec<sarif::FileFindings<'_>> {
        self.run
            .skills
            .iter()
            .map(|skill| sarif::FileFindings {
                path: &skill.path,
                diagnostics: &skill.diagnostics,
            })
            .collect()
    }

    fn notices(&self) -> Vec<String> {
        let Some(changed) = &self.run.changed else {
            return Vec::new();
        };
        let (label, rest) = changed_since(changed);
        let mut notices = vec![format!("{label}{rest}")];
        for unit in &changed.deleted {
            let (label, rest) = deleted_line(changed, unit);
            notices.push(format!("{label}{rest}"));
        }
        notices
    }

    fn warnings(&self) -> &[String] {
        &self.run.notes
    }

    fn github_summary(&self) -> String {
        let summary = self.run.summary();
        format!(
            "aigent: {} checked, {} valid, {} invalid, {} warnings",
            summary.checked, summary.valid, summary.invalid, summary.warnings
        )
    }

    fn text(&self, options: TextOptions) -> String {
        validation_text(self.run, options)
    }
}

/// A path from the file system as text that is safe to print.
fn shown(path: &Path) -> String {
    escape_controls(&path.display().to_string()).into_owned()
}

/// `changed since main (...), merge base 1a2b...; compared with the work
/// tree`, or for a repository without commits, what counts instead: the
/// label and the rest, apart so that text output can style the label.
fn changed_since(changed: &ChangedReport) -> (&'static str, String) {
    let compared = match changed.compare_to {
        CompareTo::WorkTree => "the work tree",
        CompareTo::Index => "the index (staged work)",
        CompareTo::Head => "HEAD (committed work)",
    };
    if changed.base.source == BaseSource::Unborn {
        return (
            "no commits yet",
            format!(": every file in {compared} counts as new"),
        );
    }
    let rest = format!(" {}; compared with {compared}", changed.base.describe());
    ("changed since", escape_controls(&rest).into_owned())
}

/// `deleted: skills/doomed (not validated)`, the path relative to the
/// current directory: the label and the rest.
fn deleted_line(changed: &ChangedReport, unit: &SelectedUnit) -> (&'static str, String) {
    let path = shown_path(&unit.absolute, changed.current_dir.as_deref());
    ("deleted", format!(": {} (not validated)", shown(&path)))
}

/// Where the comparison starts, what is deleted, and whether anything
/// changed at all.
fn write_changed_header(
    out: &mut String,
    run: &ValidationRun,
    changed: &ChangedReport,
    style: Style,
) {
    let (label, rest) = changed_since(changed);
    let _ = writeln!(out, "{}{rest}", style.emphasis(label));
    for unit in &changed.deleted {
        let (label, rest) = deleted_line(changed, unit);
        let _ = writeln!(out, "{}{rest}", style.dim(label));
    }
    if run.skills.is_empty() {
        let scope = match changed.scope.as_slice() {
            [] => String::new(),
            limits => format!(
                " under {}",
                limits
                    .iter()
                    .map(|limit| shown(limit))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let _ = writeln!(out, "no changed skills{scope}: nothing to validate");
    }
}

/// Why a skill was selected, in a few words: `(modified scripts/run.sh)`,
/// `(renamed skills/a/SKILL.md to skills/b/SKILL.md)`, `(3 changed
/// files)`, `(moved from skills/a, 3 changed files)`. A file inside the
/// skill is named relative to it; a rename names both ends relative to
/// the work tree, so that it says where from.
fn selection_note(unit: &SelectedUnit) -> String {
    let note = match unit.reasons.as_slice() {
        [one] => match &one.status {
            ChangeStatus::Renamed { from } => {
                format!("(renamed {} to {})", from.display(), one.path.display())
            }
            status => {
                let path = one.path.strip_prefix(&unit.path).unwrap_or(&one.path);
                format!("({} {})", status.as_str(), path.display())
            }
        },
        many => match &unit.renamed_from {
            Some(from) => format!(
                "(moved from {}, {} changed files)",
                from.display(),
                many.len()
            ),
            None => format!("({} changed files)", many.len()),
        },
    };
    escape_controls(&note).into_owned()
}

fn write_diagnostic(out: &mut String, skill: &SkillReport, diagnostic: &Diagnostic, style: Style) {
    let label = format!("{}[{}]", diagnostic.severity, diagnostic.code);
    let label = match diagnostic.severity {
        Severity::Error => style.error(&label),
        Severity::Warning => style.warning(&label),
        Severity::Note => style.dim(&label),
    };
    let location = match diagnostic.line {
        Some(line) => format!("{}:{line}", shown(&skill.path)),
        None => shown(&skill.path),
    };
    let _ = writeln!(
        out,
        "{label}: {}\n  {} {location}",
        style.emphasis(&escape_controls(&diagnostic.message)),
        style.location("-->"),
    );
}

/// Counts, plus the first invalid skills: bounded whatever the run's size.
fn summary_table(run: &ValidationRun) -> String {
    let summary = run.summary();
    let mut table = new_table();
    table.set_header(["checked", "valid", "invalid", "warnings"]);
    table.add_row(
        [
            summary.checked,
            summary.valid,
            summary.invalid,
            summary.warnings,
        ]
        .map(|count| Cell::new(count).set_alignment(CellAlignment::Right)),
    );
    let mut text = table.to_string();
    let invalid: Vec<&SkillReport> = run.checked().filter(|skill| !skill.valid).collect();
    if !invalid.is_empty() {
        let mut listing = new_table();
        listing.set_header(["invalid skill", "errors"]);
        for skill in invalid.iter().take(SUMMARY_INVALID_ROWS) {
            let errors = skill.diagnostics.iter().filter(|d| d.is_error()).count();
            let label = match &skill.name {
                Some(name) => format!("{} ({})", shown(&skill.path), escape_controls(name)),
                None => shown(&skill.path),
            };
            listing.add_row([Cell::new(label), Cell::new(errors)]);
        }
        if invalid.len() > SUMMARY_INVALID_ROWS {
            listing.add_row([
                Cell::new(format!(
                    "... and {} more",
                    invalid.len() - SUMMARY_INVALID_ROWS
                )),
                Cell::new(""),
            ]);
        }
        text.push_str("\n\n");
        text.push_str(&listing.to_string());
    }
    text
}

fn new_table() -> Table {
    let mut table = Table::new();
    table
        .load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .force_no_tty();
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::check::{CheckContext, check_text};

    fn report(path: &str, text: &str) -> SkillReport {
        let checked = check_text(text, CheckContext::default());
        let valid = !checked.diagnostics.iter().any(Diagnostic::is_error);
        SkillReport {
            path: path.into(),
            name: checked.name,
            valid,
            diagnostics: checked.diagnostics,
            tokens: checked.tokens,
            profile: crate::skill::Profile::STANDARD,
            profile_source: crate::skill::place::ProfileSource::Given,
            selected: None,
            description: None,
        }
    }

    #[test]
    fn compiler_style_lines_and_short_ok_lines() {
        let run = ValidationRun {
            skills: vec![
                report("bad/SKILL.md", "---\nname: Bad\ndescription: d\n---\n"),
                report("good/SKILL.md", "---\nname: good\ndescription: d\n---\n"),
            ],
            ..ValidationRun::default()
        };
        let text = validation_text(&run, TextOptions::default());
        assert!(
            text.starts_with(
                "error[E003]: name 'Bad' must be lowercase\n  --> bad/SKILL.md:2\nok: good/SKILL.md\n"
            ),
            "{text}"
        );
        assert!(text.contains("checked"), "{text}");
        assert!(text.contains("bad/SKILL.md (Bad)"), "{text}");

        let quiet = validation_text(
            &run,
            TextOptions {
                quiet: true,
                ..TextOptions::default()
            },
        );
        assert_eq!(
            quiet,
            "error[E003]: name 'Bad' must be lowercase\n  --> bad/SKILL.md:2\n"
        );
    }

    #[test]
    fn the_summary_stays_bounded() {
        let skills: Vec<_> = (0..100)
            .map(|i| report(&format!("s{i}/SKILL.md"), "---\nname: X\n---\n"))
            .collect();
        let run = ValidationRun {
            skills,
            ..ValidationRun::default()
        };
        let table = summary_table(&run);
        assert!(table.contains("... and 80 more"), "{table}");
        assert!(table.lines().count() < SUMMARY_INVALID_ROWS + 15);
    }

    #[test]
    fn json_shape() {
        let run = ValidationRun {
            skills: vec![report(
                "bad/SKILL.md",
                "---\nname: Bad\ndescription: d\n---\n",
            )],
            ..ValidationRun::default()
        };
        let data = validation_json(&run);
        let skill = &data["skills"][0];
        let keys: Vec<_> = skill.as_object().unwrap().keys().cloned().collect();
        assert_eq!(
            keys,
            [
                "path",
                "name",
                "valid",
                "diagnostics",
                "tokens",
                "profile",
                "profile_source"
            ]
        );
        assert_eq!(skill["profile"], "standard");
        assert_eq!(skill["profile_source"], "given");
        let diagnostic = skill["diagnostics"][0].as_object().unwrap();
        let keys: Vec<_> = diagnostic.keys().cloned().collect();
        assert_eq!(keys, ["severity", "code", "field", "message", "line"]);
        assert_eq!(
            data["summary"],
            serde_json::json!({"checked": 1, "valid": 0, "invalid": 1, "warnings": 0})
        );
    }
}
