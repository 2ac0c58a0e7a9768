//! SARIF 2.1.0 (OASIS), the format code-scanning services ingest: GitHub
//! code scanning, Azure DevOps, GitLab. One run per log; one rule per
//! diagnostic code, whether it fired or not, so a ruleIndex is stable for a
//! given release; one result per diagnostic.
//!
//! Locations are relative to a source root (the repository's work tree, in
//! practice) named `%SRCROOT%`, which is how GitHub maps results onto files
//! in the checkout. A file outside the root gets an absolute `file:` URI.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use std::io::Write;

use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::pretty::{ArrayWriter, write_key};
use super::{Diagnostic, Severity, TOOL_VERSION};

/// The schema URI written into every log.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The name of the source root in `originalUriBaseIds`.
pub const SOURCE_ROOT_ID: &str = "%SRCROOT%";

/// The key of aigent's own entry in `partialFingerprints`. The `/v1`
/// changes only if the recipe in [`fingerprint`] does.
pub const FINGERPRINT_KEY: &str = "aigentFinding/v1";

/// A rule: a diagnostic code, its default severity and what it catches
/// (the rows of `skill::codes::Code::TABLE` and `contract::codes::Code::TABLE`).
pub type RuleRow = (&'static str, Severity, &'static str);

/// What the log says about the tool and where its rules are documented.
#[derive(Debug, Clone, Copy)]
pub struct ToolInfo<'a> {
    /// Every rule the tool can report, in a fixed order.
    pub rules: &'a [RuleRow],
    /// The documentation page that lists the codes (a table, so no
    /// per-code anchor).
    pub rules_page: &'a str,
}

/// The findings for one file, with its path as the user sees it
/// (relative to `current_dir`, or absolute).
#[derive(Debug, Clone, Copy)]
pub struct FileFindings<'a> {
    pub path: &'a Path,
    pub diagnostics: &'a [Diagnostic],
}

/// Where relative paths start and which directory is `%SRCROOT%`. Both
/// absolute.
#[derive(Debug, Clone)]
pub struct Roots {
    pub current_dir: PathBuf,
    pub source_root: PathBuf,
}

/// A SARIF log written as the findings come: the tool and its rules
/// first, then each file's results, then the notes (discovery notes, say)
/// as tool-execution notifications, so they are not lost. Memory does not
/// grow with the number of results.
pub struct SarifWriter<W: Write> {
    out: W,
    roots: Roots,
    rule_index: HashMap<&'static str, usize>,
    results: ArrayWriter,
}

impl<W: Write> SarifWriter<W> {
    /// Writes the log up to its first result.
    pub fn start(tool: ToolInfo<'static>, roots: Roots, mut out: W) -> std::io::Result<Self> {
        let rule_index = tool
            .rules
            .iter()
            .enumerate()
            .map(|(index, (code, _, _))| (*code, index))
            .collect();
        out.write_all(b"{")?;
        write_key(&mut out, true, b"  ", "$schema", &SCHEMA_URI)?;
        write_key(&mut out, false, b"  ", "version", &"2.1.0")?;
        out.write_all(b",\n  \"runs\": [\n    {")?;
        let mut driver = json!({"driver": {
            "name": "aigent",
            "semanticVersion": TOOL_VERSION,
            "version": TOOL_VERSION,
            "rules": tool.rules.iter().map(|row| rule(row, tool.rules_page)).collect::<Vec<_>>(),
        }});
        if !tool.rules_page.is_empty() {
            driver["driver"]["informationUri"] = Value::from(tool.rules_page);
        }
        write_key(&mut out, true, b"      ", "tool", &driver)?;
        let bases = json!({
            SOURCE_ROOT_ID: {"uri": directory_uri(&roots.source_root)},
        });
        write_key(&mut out, false, b"      ", "originalUriBaseIds", &bases)?;
        write_key(
            &mut out,
            false,
            b"      ",
            "columnKind",
            &"unicodeCodePoints",
        )?;
        out.write_all(b",\n      \"results\": ")?;
        let results = ArrayWriter::open(&mut out, b"      ", b"        ")?;
        Ok(Self {
            out,
            roots,
            rule_index,
            results,
        })
    }

    /// Writes one result per finding of `file`.
    pub fn file(&mut self, file: FileFindings<'_>) -> std::io::Result<()> {
        let uri = file_uri(file.path, &self.roots);
        // Identical findings in one file (two links to the same missing
        // file) are told apart by their order of occurrence.
        let mut seen: HashMap<String, usize> = HashMap::new();
        for diagnostic in file.diagnostics {
            let target = match &diagnostic.file {
                // The finding is about another file (a script a declaration
                // runs); it is reported there.
                Some(other) => file_uri(Path::new(other), &self.roots),
                None => uri.clone(),
            };
            let key = fingerprint_input(&target, diagnostic);
            let occurrence = seen.entry(key.clone()).or_insert(0);
            *occurrence += 1;
            let result = result(
                diagnostic,
                &target,
                self.rule_index.get(diagnostic.code).copied(),
                fingerprint(&key, *occurrence),
            );
            self.results.element(&mut self.out, &result)?;
        }
        Ok(())
    }

    /// Ends the log with `notes` as tool-execution notifications, and
    /// hands the writer back.
    pub fn finish(self, notes: &[String]) -> std::io::Result<W> {
        let Self {
            mut out, results, ..
        } = self;
        results.close(&mut out)?;
        let notifications: Vec<Value> = notes
            .iter()
            .map(|note| json!({"level": "warning", "message": {"text": note}}))
            .collect();
        let invocations = json!([{
            "executionSuccessful": true,
            "toolExecutionNotifications": notifications,
        }]);
        write_key(&mut out, false, b"      ", "invocations", &invocations)?;
        out.write_all(b"\n    }\n  ]\n}\n")?;
        Ok(out)
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    level: &'static str,
    message: Text<'a>,
    locations: [ResultLocation; 1],
    partial_fingerprints: Fingerprints,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<FieldProperty<'a>>,
}

#[derive(Debug, Serialize)]
struct Text<'a> {
    text: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultLocation {
    physical_location: PhysicalLocation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
}

/// `partialFingerprints`, whose one key is [`FINGERPRINT_KEY`].
#[derive(Debug, Serialize)]
struct Fingerprints {
    #[serde(rename = "aigentFinding/v1")]
    finding: String,
}

#[derive(Debug, Serialize)]
struct FieldProperty<'a> {
    field: &'a str,
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn rule(&(code, severity, catches): &RuleRow, rules_page: &str) -> Value {
    let help_uri = rules_page;
    // The table's text uses Markdown backticks; plain text drops them.
    let plain = catches.replace('`', "");
    let mut rule = json!({
        "id": code,
        "name": code,
        "shortDescription": {"text": plain},
        "fullDescription": {"text": plain},
        "help": {"text": format!("{plain}."), "markdown": format!("{catches}.")},
        "defaultConfiguration": {"level": level(severity)},
        "properties": {"problem.severity": level(severity)},
    });
    // No address known (a build without a `repository`): no link at all.
    if !help_uri.is_empty() {
        rule["help"] = json!({
            "text": format!("{plain}. See {help_uri}"),
            "markdown": format!("{catches}. See [{code}]({help_uri})."),
        });
        rule["helpUri"] = Value::from(help_uri);
    }
    rule
}

/// A result: the diagnostic at its file, and at its line (line 1 for
/// findings about the whole file, which code scanning needs a line for).
fn result<'a>(
    diagnostic: &'a Diagnostic,
    uri: &Location,
    index: Option<usize>,
    print: String,
) -> SarifResult<'a> {
    SarifResult {
        rule_id: diagnostic.code,
        level: level(diagnostic.severity),
        message: Text {
            text: &diagnostic.message,
        },
        locations: [ResultLocation {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation {
                    uri: uri.uri.clone(),
                    uri_base_id: uri.under_root.then_some(SOURCE_ROOT_ID),
                },
                region: Region {
                    start_line: diagnostic.line.unwrap_or(1).max(1),
                },
            },
        }],
        partial_fingerprints: Fingerprints { finding: print },
        rule_index: index,
        properties: diagnostic
            .field
            .as_deref()
            .map(|field| FieldProperty { field }),
    }
}

/// Where a file is, as a URI: relative to the source root when it is
/// below it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Location {
    uri: String,
    under_root: bool,
}

/// What identifies a finding across runs, whatever line it moves to: the
/// rule, the file, the field and the message.
fn fingerprint_input(location: &Location, diagnostic: &Diagnostic) -> String {
    format!(
        "{}\0{}\0{}\0{}",
        diagnostic.code,
        location.uri,
        diagnostic.field.as_deref().unwrap_or(""),
        diagnostic.message
    )
}

fn fingerprint(input: &str, occurrence: usize) -> String {
    let digest = Sha256::new()
        .chain_update(input.as_bytes())
        .chain_update(b"\0")
        .chain_update(occurrence.to_string().as_bytes())
        .finalize();
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("{}:{occurrence}", &hex[..32])
}

fn file_uri(path: &Path, roots: &Roots) -> Location {
    let absolute = normalize(&roots.current_dir.join(path));
    match absolute.strip_prefix(&roots.source_root) {
        Ok(relative) if !relative.as_os_str().is_empty() => Location {
            uri: encode_path(relative),
            under_root: true,
        },
        _ => Location {
            uri: format!("file://{}", encode_path(&absolute)),
            under_root: false,
        },
    }
}

fn directory_uri(dir: &Path) -> String {
    let mut uri = format!("file://{}", encode_path(dir));
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// `a/./b/../c` as `a/c`, without touching the disk (the file may be gone).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A path as a URI path: `/`-separated, every byte outside the unreserved
/// set and `/` percent-encoded (so spaces, `#`, `%` and non-UTF-8 bytes
/// survive).
fn encode_path(path: &Path) -> String {
    let bytes: Vec<u8> = path_bytes(path);
    let mut out = String::with_capacity(bytes.len());
    for byte in bytes {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().replace('\\', "/").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &[RuleRow] = &[
        ("E001", Severity::Error, "the `thing` is missing"),
        ("W001", Severity::Warning, "the thing is odd"),
    ];

    fn roots() -> Roots {
        Roots {
            current_dir: PathBuf::from("/repo/sub"),
            source_root: PathBuf::from("/repo"),
        }
    }

    fn log(files: &[(&str, Vec<Diagnostic>)]) -> Value {
        let mut writer = SarifWriter::start(
            ToolInfo {
                rules: RULES,
                rules_page: "https://example.com/docs/diagnostics.md",
            },
            roots(),
            Vec::new(),
        )
        .unwrap();
        for (path, diagnostics) in files {
            writer
                .file(FileFindings {
                    path: Path::new(path),
                    diagnostics,
                })
                .unwrap();
        }
        let written = writer.finish(&["a note".to_owned()]).unwrap();
        serde_json::from_slice(&written).expect("the log is JSON")
    }

    #[test]
    fn the_log_ends_with_the_notes_and_a_line_break() {
        let value = log(&[(
            "s/SKILL.md",
            vec![Diagnostic::new(
                crate::report::diagnostic::TestCode::E001,
                "x",
            )],
        )]);
        let run = &value["runs"][0];
        assert_eq!(value["version"], "2.1.0");
        assert_eq!(run["columnKind"], "unicodeCodePoints");
        assert_eq!(
            run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"],
            "a note"
        );
        assert_eq!(log(&[])["runs"][0]["results"], json!([]));
    }

    #[test]
    fn the_fingerprint_key_is_the_documented_one() {
        let value = log(&[(
            "s/SKILL.md",
            vec![Diagnostic::new(
                crate::report::diagnostic::TestCode::E001,
                "x",
            )],
        )]);
        let prints = &value["runs"][0]["results"][0]["partialFingerprints"];
        assert!(prints[FINGERPRINT_KEY].is_string(), "{prints}");
    }

    #[test]
    fn paths_are_relative_to_the_source_root_and_encoded() {
        let value = log(&[
            (
                "a b/SKILL.md",
                vec![
                    Diagnostic::new(crate::report::diagnostic::TestCode::E001, "x")
                        .with_line(Some(3)),
                ],
            ),
            (
                "/elsewhere/SKILL.md",
                vec![Diagnostic::new(
                    crate::report::diagnostic::TestCode::W001,
                    "y",
                )],
            ),
            (
                "../top/#1/SKILL.md",
                vec![Diagnostic::new(
                    crate::report::diagnostic::TestCode::E001,
                    "z",
                )],
            ),
        ]);
        let results = &value["runs"][0]["results"];
        let location = |index: usize| &results[index]["locations"][0]["physicalLocation"];
        assert_eq!(
            location(0)["artifactLocation"],
            json!({"uri": "sub/a%20b/SKILL.md", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(location(0)["region"]["startLine"], 3);
        assert_eq!(
            location(1)["artifactLocation"],
            json!({"uri": "file:///elsewhere/SKILL.md"})
        );
        assert_eq!(location(1)["region"]["startLine"], 1);
        assert_eq!(location(2)["artifactLocation"]["uri"], "top/%231/SKILL.md");
        assert_eq!(results[1]["ruleIndex"], 1);
        assert_eq!(results[1]["level"], "warning");
    }

    #[test]
    fn fingerprints_ignore_the_line_and_tell_repeats_apart() {
        let moved = log(&[(
            "s/SKILL.md",
            vec![
                Diagnostic::new(crate::report::diagnostic::TestCode::E001, "x").with_line(Some(9)),
            ],
        )]);
        let first = log(&[(
            "s/SKILL.md",
            vec![
                Diagnostic::new(crate::report::diagnostic::TestCode::E001, "x").with_line(Some(3)),
                Diagnostic::new(crate::report::diagnostic::TestCode::E001, "x").with_line(Some(4)),
            ],
        )]);
        let print = |value: &Value, index: usize| {
            value["runs"][0]["results"][index]["partialFingerprints"][FINGERPRINT_KEY].clone()
        };
        assert_eq!(print(&moved, 0), print(&first, 0));
        assert_ne!(print(&first, 0), print(&first, 1));
    }

    #[test]
    fn every_rule_is_listed_with_a_help_link() {
        let value = log(&[]);
        let rules = &value["runs"][0]["tool"]["driver"]["rules"];
        assert_eq!(rules.as_array().map(Vec::len), Some(2));
        assert_eq!(
            rules[0]["helpUri"],
            "https://example.com/docs/diagnostics.md"
        );
        assert!(
            rules[0]["help"]["text"]
                .as_str()
                .unwrap()
                .ends_with("See https://example.com/docs/diagnostics.md")
        );
        assert_eq!(rules[0]["shortDescription"]["text"], "the thing is missing");
        let unlinked = rule(&RULES[0], "");
        assert!(unlinked.get("helpUri").is_none(), "{unlinked}");
        assert_eq!(unlinked["help"]["text"], "the thing is missing.");
        assert_eq!(rules[1]["defaultConfiguration"]["level"], "warning");
        assert_eq!(
            value["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            "file:///repo/"
        );
    }
}
