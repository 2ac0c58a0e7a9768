//! Rendering validation results: the json `data` object, compiler-style
//! text, and the run as [`Findings`] for the one renderer of findings
//! (`report::findings`: GitHub workflow commands, SARIF).

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use comfy_table::{Cell, CellAlignment, ContentArrangement, Table};
use serde::Serialize;
use serde_json::Value;

use super::changed::{ChangedReport, shown_path};
use super::check::SkillReport;
use super::codes;
use super::place::ProfileSource;
use super::validate::{ReportSink, RunEnd, Summary, Tally, ValidationRun};
use crate::report::OutputFormat;
use crate::report::escape::escape_controls;
use crate::report::findings::{Findings, FindingsWriter};
use crate::report::page::{Page, PageRequest, Pager};
use crate::report::pretty::{ArrayWriter, write_key};
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

/// A run's output written report by report, in any format `skill
/// validate` speaks: json `data` (`{"skills": [...], "summary": {...}}`,
/// the summary after the reports), or through the one renderer of
/// findings (text, GitHub, SARIF). Memory stays bounded: a report is
/// written and dropped.
pub struct ValidationOutput<'a, W: io::Write> {
    state: State<'a, W>,
    tally: Tally,
    /// Findings added to each report before it is written (a registry's
    /// view of its commands).
    each: Option<&'a mut dyn FnMut(&mut SkillReport)>,
    /// In json, the page of reports `data.skills` holds; every skill is
    /// still validated and counted.
    pager: Option<Pager>,
}

enum State<'a, W: io::Write> {
    NotStarted {
        format: OutputFormat,
        options: TextOptions,
        tool: sarif::ToolInfo<'static>,
        roots: Box<dyn FnOnce() -> sarif::Roots + 'a>,
        out: W,
    },
    Json {
        out: W,
        skills: ArrayWriter,
    },
    /// Boxed: a SARIF writer is large, and there is one per run.
    Findings {
        writer: Box<FindingsWriter<W>>,
        text: Box<ValidationText>,
        changed: Option<Box<ChangedReport>>,
    },
    /// Between two of the above.
    Moving,
}

impl<'a, W: io::Write> ValidationOutput<'a, W> {
    /// Output in `format` to `out`; `tool` and `roots` are for SARIF.
    pub fn new(
        format: OutputFormat,
        options: TextOptions,
        tool: sarif::ToolInfo<'static>,
        roots: Box<dyn FnOnce() -> sarif::Roots + 'a>,
        out: W,
    ) -> Self {
        Self {
            state: State::NotStarted {
                format,
                options,
                tool,
                roots,
                out,
            },
            tally: Tally::default(),
            each: None,
            pager: None,
        }
    }

    /// In json, writes only `request`'s page of the reports (`--limit`,
    /// `--cursor`, the response cap); the summary still counts them all.
    pub fn with_page(mut self, request: &PageRequest) -> Self {
        self.pager = Some(request.pager());
        self
    }

    /// The page written, once every report went through (json with a
    /// page only).
    pub fn page(&self) -> Option<Page> {
        self.pager.as_ref().map(Pager::page)
    }

    /// Adds findings to each report before it is written.
    pub fn with_each(mut self, each: &'a mut dyn FnMut(&mut SkillReport)) -> Self {
        self.each = Some(each);
        self
    }

    /// Writes the end (the json summary, the text summary, GitHub's last
    /// line, SARIF's notifications) with `notes` as warnings where the
    /// format carries them, and returns the counts and the writer.
    pub fn finish(mut self, end: &RunEnd, notes: &[String]) -> io::Result<(Tally, W)> {
        if matches!(self.state, State::NotStarted { .. }) {
            self.start(end.changed.as_ref())?;
        }
        let tally = self.tally;
        let out = match std::mem::replace(&mut self.state, State::Moving) {
            State::Json { mut out, skills } => {
                skills.close(&mut out)?;
                write_key(&mut out, false, b"  ", "summary", &tally.summary())?;
                if let Some(changed) = &end.changed {
                    write_key(&mut out, false, b"  ", "changed", changed)?;
                }
                out.write_all(b"\n}")?;
                out
            }
            State::Findings {
                mut writer,
                mut text,
                changed,
            } => {
                if writer.is_text() {
                    let mut piece = String::new();
                    text.finish(&mut piece, changed.as_deref());
                    writer.text(&piece)?;
                }
                let summary = tally.summary();
                writer.finish(notes, || github_summary(summary))?
            }
            State::NotStarted { .. } | State::Moving => {
                return Err(io::Error::other("the output was not started"));
            }
        };
        Ok((tally, out))
    }
}

impl<W: io::Write> ReportSink for ValidationOutput<'_, W> {
    fn start(&mut self, changed: Option<&ChangedReport>) -> io::Result<()> {
        let State::NotStarted {
            format,
            options,
            tool,
            roots,
            mut out,
        } = std::mem::replace(&mut self.state, State::Moving)
        else {
            return Ok(());
        };
        self.state = if format.is_json() {
            out.write_all(b"{\n  \"skills\": ")?;
            let skills = ArrayWriter::open(&mut out, b"  ", b"    ")?;
            State::Json { out, skills }
        } else {
            let notices = changed.map(changed_notices).unwrap_or_default();
            let mut writer = FindingsWriter::start(format, tool, roots, &notices, &[], out)?;
            let mut text = ValidationText::new(options);
            if writer.is_text() {
                let mut piece = String::new();
                text.start(&mut piece, changed);
                writer.text(&piece)?;
            }
            State::Findings {
                writer: Box::new(writer),
                text: Box::new(text),
                changed: changed.cloned().map(Box::new),
            }
        };
        Ok(())
    }

    fn report(&mut self, mut report: SkillReport) -> io::Result<()> {
        if let Some(each) = self.each.as_mut() {
            each(&mut report);
        }
        self.tally.add(&report);
        match &mut self.state {
            State::Json { out, skills } => match self.pager.as_mut() {
                None => skills.element(out, &report),
                Some(pager) => {
                    let bytes = skills.bytes_of(&report)?;
                    if pager.offer(skills.size_of(&bytes)) {
                        skills.element_bytes(out, &bytes)
                    } else {
                        Ok(())
                    }
                }
            },
            State::Findings { writer, text, .. } => {
                if writer.is_text() {
                    let mut piece = String::new();
                    text.skill(&mut piece, &report);
                    writer.text(&piece)
                } else {
                    writer.file(sarif::FileFindings {
                        path: &report.path,
                        diagnostics: &report.diagnostics,
                    })
                }
            }
            State::NotStarted { .. } | State::Moving => {
                Err(io::Error::other("the output was not started"))
            }
        }
    }
}

/// The plain last line of GitHub output.
fn github_summary(summary: Summary) -> String {
    format!(
        "aigent: {} checked, {} valid, {} invalid, {} warnings",
        summary.checked, summary.valid, summary.invalid, summary.warnings
    )
}

/// The base of `--changed` and its deleted skills, as notices.
fn changed_notices(changed: &ChangedReport) -> Vec<String> {
    let (label, rest) = changed_since(changed);
    let mut notices = vec![format!("{label}{rest}")];
    for unit in &changed.deleted {
        let (label, rest) = deleted_line(changed, unit);
        notices.push(format!("{label}{rest}"));
    }
    notices
}

/// Compiler-style text: each finding as `error[E003]: message` with a
/// `--> path:line` pointer, a short `ok: path` line per clean skill, and a
/// summary table when more than one skill was checked. Values and paths
/// from files have their control characters escaped.
pub fn validation_text(run: &ValidationRun, options: TextOptions) -> String {
    let mut text = ValidationText::new(options);
    let mut out = String::new();
    text.start(&mut out, run.changed.as_ref());
    for skill in &run.skills {
        text.skill(&mut out, skill);
    }
    text.finish(&mut out, run.changed.as_ref());
    out
}

/// [`validation_text`] written report by report: what the end needs (the
/// counts, the profiles the places chose, the first invalid skills) is
/// kept, the reports are not.
#[derive(Debug)]
pub struct ValidationText {
    options: TextOptions,
    tally: Tally,
    profiles: Vec<((&'static str, ProfileSource), usize)>,
    /// The first [`SUMMARY_INVALID_ROWS`] invalid skills: label, errors.
    invalid: Vec<(String, usize)>,
    reports: usize,
}

impl ValidationText {
    pub fn new(options: TextOptions) -> Self {
        Self {
            options,
            tally: Tally::default(),
            profiles: Vec::new(),
            invalid: Vec::new(),
            reports: 0,
        }
    }

    /// With `--changed`, where the comparison starts and what is deleted.
    pub fn start(&mut self, out: &mut String, changed: Option<&ChangedReport>) {
        if let Some(changed) = changed
            && !self.options.quiet
        {
            write_changed_header(out, changed, self.options.style);
        }
    }

    /// One skill's lines.
    pub fn skill(&mut self, out: &mut String, skill: &SkillReport) {
        let style = self.options.style;
        self.reports += 1;
        self.tally.add(skill);
        if !skill.has_code(codes::Code::PathMissing) {
            let choice = (skill.profile.as_str(), skill.profile_source);
            match self.profiles.iter_mut().find(|(seen, _)| *seen == choice) {
                Some((_, count)) => *count += 1,
                None => self.profiles.push((choice, 1)),
            }
            if !skill.valid && self.invalid.len() < SUMMARY_INVALID_ROWS {
                let errors = skill.diagnostics.iter().filter(|d| d.is_error()).count();
                let label = match &skill.name {
                    Some(name) => format!("{} ({})", shown(&skill.path), escape_controls(name)),
                    None => shown(&skill.path),
                };
                self.invalid.push((label, errors));
            }
        }
        if skill.diagnostics.is_empty() {
            if !self.options.quiet {
                let _ = write!(out, "{}: {}", style.success("ok"), shown(&skill.path));
                if let Some(unit) = &skill.selected {
                    let _ = write!(out, " {}", style.dim(&selection_note(unit)));
                }
                out.push('\n');
            }
            return;
        }
        for diagnostic in &skill.diagnostics {
            write_diagnostic(out, skill, diagnostic, style);
        }
    }

    /// The profile note and the summary table.
    pub fn finish(&mut self, out: &mut String, changed: Option<&ChangedReport>) {
        if self.options.quiet {
            return;
        }
        let style = self.options.style;
        if let Some(changed) = changed
            && self.reports == 0
        {
            write_nothing_changed(out, changed);
        }
        let profiles = self
            .profiles
            .iter()
            .flat_map(|(choice, count)| std::iter::repeat_n(*choice, *count));
        if let Some(note) = super::place::profile_note(profiles) {
            let _ = writeln!(out, "{}: {note}", style.dim("note"));
        }
        if self.tally.summary().checked > 1 {
            out.push('\n');
            out.push_str(&summary_table(
                self.tally.summary(),
                &self.invalid,
                self.options.style,
            ));
            out.push('\n');
        }
    }
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
        self.run
            .changed
            .as_ref()
            .map(changed_notices)
            .unwrap_or_default()
    }

    fn warnings(&self) -> &[String] {
        &self.run.notes
    }

    fn github_summary(&self) -> String {
        github_summary(self.run.summary())
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

/// Where the comparison starts and what is deleted.
fn write_changed_header(out: &mut String, changed: &ChangedReport, style: Style) {
    let (label, rest) = changed_since(changed);
    let _ = writeln!(out, "{}{rest}", style.emphasis(label));
    for unit in &changed.deleted {
        let (label, rest) = deleted_line(changed, unit);
        let _ = writeln!(out, "{}{rest}", style.dim(label));
    }
}

/// That nothing changed below the scope.
fn write_nothing_changed(out: &mut String, changed: &ChangedReport) {
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
fn summary_table(summary: Summary, invalid: &[(String, usize)], style: Style) -> String {
    let mut table = new_table(style);
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
    if !invalid.is_empty() {
        let mut listing = new_table(style);
        listing.set_header(["invalid skill", "errors"]);
        for (label, errors) in invalid.iter().take(SUMMARY_INVALID_ROWS) {
            listing.add_row([Cell::new(label), Cell::new(errors)]);
        }
        if summary.invalid > SUMMARY_INVALID_ROWS {
            listing.add_row([
                Cell::new(format!(
                    "... and {} more",
                    summary.invalid - SUMMARY_INVALID_ROWS
                )),
                Cell::new(""),
            ]);
        }
        text.push_str("\n\n");
        text.push_str(&listing.to_string());
    }
    text
}

fn new_table(style: Style) -> Table {
    let mut table = Table::new();
    table
        .load_style(style.table_preset())
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
        let mut text = ValidationText::new(TextOptions::default());
        for skill in &run.skills {
            text.skill(&mut String::new(), skill);
        }
        let table = summary_table(text.tally.summary(), &text.invalid, Style::PLAIN);
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
