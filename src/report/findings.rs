//! The one renderer of findings about files, for every format a findings
//! command speaks: `skill validate`, `plugin validate` and `schema lint`
//! each describe their run as [`Findings`], and [`render`] writes it as
//! text, GitHub workflow commands or a SARIF log (json mode prints the
//! envelope alone, so it has no text). A command that claims a format
//! therefore cannot print another one in its place.

use std::io::{self, Write};
use std::path::Path;

use super::escape::escape_controls;
use super::sarif::{FileFindings, Roots, SarifWriter, ToolInfo};
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
    let written = (|| {
        let mut writer = FindingsWriter::start(
            format,
            findings.tool(),
            roots,
            &findings.notices(),
            findings.warnings(),
            Vec::new(),
        )?;
        if writer.is_text() {
            writer.text(&findings.text(options))?;
        } else {
            for file in findings.files() {
                writer.file(file)?;
            }
        }
        writer.finish(&[], || findings.github_summary())
    })();
    // Writing to memory does not fail.
    String::from_utf8(written.unwrap_or_default()).unwrap_or_default()
}

/// Whether `format` carries the run's warnings itself (as `::warning`
/// lines or SARIF notifications), so they are not repeated on stderr.
pub fn carries_warnings(format: OutputFormat) -> bool {
    matches!(format, OutputFormat::Github | OutputFormat::Sarif)
}

/// Findings written as they come, in any format a findings command
/// speaks: the start (GitHub notices and warnings known so far, SARIF's
/// tool and rules), each file, then the end (later warnings, the GitHub
/// summary line, SARIF's notifications). Text is the command's own,
/// handed over in pieces ([`FindingsWriter::text`]); json mode writes
/// nothing (the envelope is all it prints). Nothing is held but the
/// notes, so a run of any size is written in bounded memory.
pub struct FindingsWriter<W: Write> {
    kind: Kind<W>,
}

enum Kind<W: Write> {
    Text(W),
    Github(W),
    Sarif {
        writer: SarifWriter<W>,
        notes: Vec<String>,
    },
    Silent(W),
}

impl<W: Write> FindingsWriter<W> {
    /// Writes what comes before the files. `roots` is asked only for
    /// SARIF.
    pub fn start(
        format: OutputFormat,
        tool: ToolInfo<'static>,
        roots: impl FnOnce() -> Roots,
        notices: &[String],
        warnings: &[String],
        mut out: W,
    ) -> io::Result<Self> {
        let kind = match format {
            OutputFormat::Text => Kind::Text(out),
            OutputFormat::Github => {
                for notice in notices {
                    writeln!(out, "::notice::{}", github::escape_data(notice))?;
                }
                write_github_warnings(&mut out, warnings)?;
                Kind::Github(out)
            }
            OutputFormat::Sarif => {
                let mut notes = notices.to_vec();
                notes.extend(warnings.iter().cloned());
                Kind::Sarif {
                    writer: SarifWriter::start(tool, roots(), out)?,
                    notes,
                }
            }
            OutputFormat::Json
            | OutputFormat::JsonSchema
            | OutputFormat::Jsonl
            | OutputFormat::Tsv
            | OutputFormat::Plain => Kind::Silent(out),
        };
        Ok(Self { kind })
    }

    /// Whether the output is the command's own text.
    pub fn is_text(&self) -> bool {
        matches!(self.kind, Kind::Text(_))
    }

    /// A piece of the command's text; nothing in other formats.
    pub fn text(&mut self, text: &str) -> io::Result<()> {
        match &mut self.kind {
            Kind::Text(out) => out.write_all(text.as_bytes()),
            _ => Ok(()),
        }
    }

    /// One file's findings: a GitHub line or a SARIF result each; nothing
    /// in text (the command writes its own) or json.
    pub fn file(&mut self, file: FileFindings<'_>) -> io::Result<()> {
        match &mut self.kind {
            Kind::Github(out) => {
                let shown = shown(file.path);
                for diagnostic in file.diagnostics {
                    // One finding is one line: the message's own line
                    // breaks are shown as escapes, as on a terminal.
                    let mut diagnostic = diagnostic.clone();
                    diagnostic.message = escape_controls(&diagnostic.message).into_owned();
                    out.write_all(github::annotation(&shown, &diagnostic).as_bytes())?;
                    out.write_all(b"\n")?;
                }
                Ok(())
            }
            Kind::Sarif { writer, .. } => writer.file(file),
            Kind::Text(_) | Kind::Silent(_) => Ok(()),
        }
    }

    /// Writes the end, with `warnings` found since the start, and hands
    /// the writer back. `github_summary` is asked only for GitHub output.
    pub fn finish(
        self,
        warnings: &[String],
        github_summary: impl FnOnce() -> String,
    ) -> io::Result<W> {
        match self.kind {
            Kind::Text(out) | Kind::Silent(out) => Ok(out),
            Kind::Github(mut out) => {
                write_github_warnings(&mut out, warnings)?;
                out.write_all(github_summary().as_bytes())?;
                out.write_all(b"\n")?;
                Ok(out)
            }
            Kind::Sarif { writer, mut notes } => {
                notes.extend(warnings.iter().cloned());
                writer.finish(&notes)
            }
        }
    }
}

fn write_github_warnings(out: &mut impl Write, warnings: &[String]) -> io::Result<()> {
    for warning in warnings {
        writeln!(
            out,
            "::warning::{}",
            github::escape_data(&escape_controls(warning))
        )?;
    }
    Ok(())
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
