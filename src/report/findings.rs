//! The one renderer of findings about files, for every format a findings
//! command speaks: `skill validate`, `plugin validate` and `schema lint`
//! each describe their run as [`Findings`], and [`render`] writes it as
//! text, GitHub workflow commands or a SARIF log (json mode prints the
//! envelope alone, so it has no text). A command that claims a format
//! therefore cannot print another one in its place.

use std::fmt::Write as _;
use std::path::Path;

use super::escape::escape_controls;
use super::sarif::{FileFindings, Roots, ToolInfo, sarif_log};
use super::{OutputFormat, Style, github};

/// How text output looks.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions {
    pub style: Style,
    /// Problems only: no `ok` lines, no summary table.
    pub quiet: bool,
}

/// A run of checks over files, as the renderer needs it.
pub trait Findings {
    /// The rules the findings come from, and the page that documents
    /// them (the SARIF log's driver).
    fn tool(&self) -> ToolInfo<'static>;

    /// Each file with its findings, in order; paths as the user gave them.
    fn files(&self) -> Vec<FileFindings<'_>>;

    /// What the run says about itself before its findings (the base of
    /// `--changed`, a deleted skill): GitHub `::notice` lines, SARIF tool
    /// notifications.
    fn notices(&self) -> Vec<String> {
        Vec::new()
    }

    /// Warnings about the run (a search note): GitHub `::warning` lines,
    /// SARIF tool notifications.
    fn warnings(&self) -> &[String] {
        &[]
    }

    /// The plain last line of GitHub output, for the job log.
    fn github_summary(&self) -> String;

    /// The text for people (compiler-style findings and a summary).
    fn text(&self, options: TextOptions) -> String;
}

/// `findings` in `format`. `roots` is asked only for SARIF, whose
/// locations are relative to the source root.
pub fn render(
    findings: &impl Findings,
    format: OutputFormat,
    options: TextOptions,
    roots: impl FnOnce() -> Roots,
) -> String {
    match format {
        OutputFormat::Text => findings.text(options),
        OutputFormat::Github => github_text(findings),
        OutputFormat::Sarif => sarif_text(findings, &roots()),
        // The envelope is all json mode prints.
        OutputFormat::Json | OutputFormat::JsonSchema => String::new(),
    }
}

/// Whether `format` carries the run's warnings itself (as `::warning`
/// lines or SARIF notifications), so they are not repeated on stderr.
pub fn carries_warnings(format: OutputFormat) -> bool {
    matches!(format, OutputFormat::Github | OutputFormat::Sarif)
}

/// GitHub Actions workflow commands: a `::notice` line per notice, a
/// `::warning` line per warning, one `::error`/`::warning`/`::notice` line
/// per finding pointing at its file and line, then the summary line.
fn github_text(findings: &impl Findings) -> String {
    let mut out = String::new();
    for notice in findings.notices() {
        let _ = writeln!(out, "::notice::{}", github::escape_data(&notice));
    }
    for warning in findings.warnings() {
        let _ = writeln!(
            out,
            "::warning::{}",
            github::escape_data(&escape_controls(warning))
        );
    }
    for file in findings.files() {
        let shown = shown(file.path);
        for diagnostic in file.diagnostics {
            // One finding is one line: the message's own line breaks are
            // shown as escapes, as on a terminal.
            let mut diagnostic = diagnostic.clone();
            diagnostic.message = escape_controls(&diagnostic.message).into_owned();
            out.push_str(&github::annotation(&shown, &diagnostic));
            out.push('\n');
        }
    }
    out.push_str(&findings.github_summary());
    out.push('\n');
    out
}

/// The SARIF 2.1.0 log, pretty-printed, with the notices and warnings as
/// tool notifications.
fn sarif_text(findings: &impl Findings, roots: &Roots) -> String {
    let mut notes = findings.notices();
    notes.extend(findings.warnings().iter().cloned());
    let log = sarif_log(findings.tool(), roots, findings.files(), &notes);
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_else(|_| "{}".to_owned());
    text.push('\n');
    text
}

/// A path from the file system as text that is safe to print.
fn shown(path: &Path) -> String {
    escape_controls(&path.display().to_string()).into_owned()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::report::sarif::RuleRow;
    use crate::report::{Diagnostic, Severity};

    const RULES: &[RuleRow] = &[("E1", Severity::Error, "a thing is wrong")];

    struct Run {
        files: Vec<(PathBuf, Vec<Diagnostic>)>,
        warnings: Vec<String>,
    }

    impl Findings for Run {
        fn tool(&self) -> ToolInfo<'static> {
            ToolInfo {
                rules: RULES,
                rules_page: "https://example.com/codes.md",
            }
        }
        fn files(&self) -> Vec<FileFindings<'_>> {
            self.files
                .iter()
                .map(|(path, diagnostics)| FileFindings { path, diagnostics })
                .collect()
        }
        fn notices(&self) -> Vec<String> {
            vec!["changed since main".to_owned()]
        }
        fn warnings(&self) -> &[String] {
            &self.warnings
        }
        fn github_summary(&self) -> String {
            "aigent: done".to_owned()
        }
        fn text(&self, options: TextOptions) -> String {
            format!("text quiet={}\n", options.quiet)
        }
    }

    fn run() -> Run {
        Run {
            files: vec![(
                PathBuf::from("./a\nb/SKILL.md"),
                vec![
                    Diagnostic::new(crate::report::diagnostic::TestCode::E1, "two\nlines")
                        .with_line(Some(3)),
                ],
            )],
            warnings: vec!["skipped\ta link".to_owned()],
        }
    }

    fn roots() -> Roots {
        Roots {
            current_dir: PathBuf::from("/repo"),
            source_root: PathBuf::from("/repo"),
        }
    }

    #[test]
    fn github_output_is_workflow_commands_and_the_summary() {
        let text = render(&run(), OutputFormat::Github, TextOptions::default(), || {
            unreachable!("github needs no roots")
        });
        assert_eq!(
            text,
            "::notice::changed since main\n\
             ::warning::skipped\\ta link\n\
             ::error file=a\\nb/SKILL.md,line=3,title=E1::two\\nlines\n\
             aigent: done\n"
        );
    }

    #[test]
    fn sarif_output_is_a_log_with_the_notes_as_notifications() {
        let text = render(&run(), OutputFormat::Sarif, TextOptions::default(), roots);
        let log: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["results"][0]["ruleId"], "E1");
        assert_eq!(run["results"][0]["message"]["text"], "two\nlines");
        let notes = &run["invocations"][0]["toolExecutionNotifications"];
        assert_eq!(notes[0]["message"]["text"], "changed since main");
        assert_eq!(notes[1]["message"]["text"], "skipped\ta link");
    }

    #[test]
    fn text_is_the_runs_own_and_json_has_none() {
        let options = TextOptions {
            style: Style::default(),
            quiet: true,
        };
        assert_eq!(
            render(&run(), OutputFormat::Text, options, roots),
            "text quiet=true\n"
        );
        assert_eq!(render(&run(), OutputFormat::Json, options, roots), "");
    }
}
