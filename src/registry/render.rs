//! Text renderings of the registry for people: `schema list`, `schema show`
//! and `schema lint` (whose other formats come from [`LintFindings`]).
//! Each takes a [`Style`] and returns a `String`.

use comfy_table::Table;
use serde_json::Value;

use super::changed::ChangedSelection;
use super::source::FileReport;
use crate::contract::input_schema::{self, GuardedProperty, PropertyGuard};
use crate::contract::sandbox::{EffectiveSandbox, PathGrant};
use crate::contract::{ArgvPart, Declaration, FlagForm, Inputs, ParamType, Parameter, ValueClass};
use crate::report::findings::{Findings, TextOptions};
use crate::report::{Diagnostic, SCHEMA_CODES_PAGE, Style, escape_controls, sarif};

fn table(header: &[&str], style: Style) -> Table {
    let mut table = Table::new();
    table.load_style(style.table_preset()).force_no_tty();
    table.set_header(header.to_vec());
    table
}

/// `schema list`: one row per declaration file.
pub fn render_list(reports: &[FileReport], style: Style) -> String {
    if reports.is_empty() {
        return "no declarations in this registry\n".to_owned();
    }
    let layered = reports.iter().any(|report| report.layer.is_some());
    let mut rows = if layered {
        table(&["NAME", "LAYER", "DANGER", "DESCRIPTION"], style)
    } else {
        table(&["NAME", "DANGER", "DESCRIPTION"], style)
    };
    for report in reports {
        let mut row = match &report.declaration {
            Some(declaration) => vec![
                declaration.name.clone(),
                declaration
                    .danger_level
                    .map_or("-", |level| level.as_str())
                    .to_owned(),
                declaration.description.clone(),
            ],
            None => vec![
                report.name.clone(),
                "-".to_owned(),
                format!(
                    "invalid declaration: run `aigent schema lint` ({})",
                    report.file
                ),
            ],
        };
        if layered {
            row.insert(
                1,
                report.layer.map_or("-", |layer| layer.as_str()).to_owned(),
            );
        }
        rows.add_row(row);
    }
    let broken = reports
        .iter()
        .filter(|report| report.declaration.is_none())
        .count();
    let mut out = format!("{rows}\n");
    if broken > 0 {
        out.push_str(&format!(
            "{}: {broken} declaration{} cannot be used\n",
            style.warning("warning"),
            if broken == 1 { "" } else { "s" }
        ));
    }
    out
}

/// One template element as `schema show` prints it: literals as they
/// are, a slot as `<param>` with its flag and prefix around it, in
/// brackets when the parameter may be left out.
fn template_word(declaration: &Declaration, part: &ArgvPart) -> String {
    let slot = match part {
        ArgvPart::Literal(word) => return word.clone(),
        ArgvPart::Param(slot) => slot,
    };
    let (required, switch) = match &declaration.inputs {
        Inputs::Parameters(_) => declaration
            .parameter(&slot.param)
            .map_or((false, false), |p| {
                (p.required, p.kind == ParamType::Boolean)
            }),
        Inputs::InputSchema(schema) => (
            schema.required().any(|name| name == slot.param),
            schema
                .property(&slot.param)
                .and_then(|property| property.get("type"))
                .is_some_and(|kind| kind == "boolean"),
        ),
    };
    let value = format!("{}<{}>", slot.prefix, slot.param);
    let word = match (&slot.flag, slot.form) {
        (Some(flag), _) if switch => flag.clone(),
        (None, _) => value,
        (Some(flag), FlagForm::Separate) => format!("{flag} {value}"),
        (Some(flag), FlagForm::Joined) => format!("{flag}={value}"),
    };
    if required { word } else { format!("[{word}]") }
}

/// `schema show --output text`.
pub fn render_show(declaration: &Declaration, file: &str, style: Style) -> String {
    let mut out = format!(
        "{} — {}\n",
        style.emphasis(&declaration.name),
        declaration.description
    );
    if let Some(level) = declaration.danger_level {
        out.push_str(&format!("danger level: {}\n", level.as_str()));
    }
    out.push_str(&format!("declared in:  {}\n", style.location(file)));
    if let Some(subprocess) = &declaration.subprocess {
        let mut argv = vec![subprocess.binary.clone()];
        argv.extend(
            subprocess
                .argv
                .iter()
                .map(|part| template_word(declaration, part)),
        );
        out.push_str(&format!("runs:         {}\n", argv.join(" ")));
        out.push_str(&render_sandbox(&EffectiveSandbox::of(declaration)));
    }
    out.push('\n');
    match &declaration.inputs {
        Inputs::Parameters(parameters) if parameters.is_empty() => out.push_str("no parameters\n"),
        Inputs::Parameters(parameters) => {
            let mut rows = table(
                &[
                    "PARAMETER",
                    "TYPE",
                    "REQUIRED",
                    "CHECK",
                    "DEFAULT",
                    "DESCRIPTION",
                ],
                style,
            );
            for parameter in parameters {
                rows.add_row(vec![
                    flag_name(declaration, parameter),
                    parameter.kind.as_str().to_owned(),
                    yes_no(parameter.required),
                    parameter_check(parameter),
                    // A sensitive parameter's default is a secret too.
                    parameter
                        .default
                        .as_ref()
                        .map_or_else(String::new, |default| {
                            if parameter.sensitive {
                                crate::guard::REDACTED.to_owned()
                            } else {
                                default.to_string()
                            }
                        }),
                    parameter.description.clone().unwrap_or_default(),
                ]);
            }
            out.push_str(&format!("{rows}\n"));
        }
        Inputs::InputSchema(schema) => {
            out.push_str("input_schema (MCP), validated by JSON Schema 2020-12 in strict mode\n");
            let required: Vec<&str> = schema.required().collect();
            let mut rows = table(
                &["PROPERTY", "TYPE", "REQUIRED", "CHECK", "DESCRIPTION"],
                style,
            );
            for (name, property) in schema.properties() {
                let mut shown = format!("--{name}");
                if declaration.is_user_controlled(name) {
                    shown.push_str(" (to subprocess)");
                }
                rows.add_row(vec![
                    shown,
                    schema.guarded(name).map_or_else(
                        || input_schema::primary_type(property).to_owned(),
                        |guarded| guarded.primary_type.clone(),
                    ),
                    yes_no(required.contains(&name)),
                    property_check(property, schema.guarded(name)),
                    property
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                ]);
            }
            out.push_str(&format!("{rows}\n"));
        }
    }
    out.push('\n');
    // The child's own statuses, and which of them count as success.
    let mut codes = table(
        &[
            "CHILD EXIT",
            "NAME",
            "SUCCESS",
            "RETRYABLE",
            "SIDE EFFECTS",
            "DESCRIPTION",
        ],
        style,
    );
    for exit_code in &declaration.exit_codes {
        codes.add_row(vec![
            exit_code.code.to_string(),
            exit_code.name.clone(),
            yes_no(declaration.is_success_exit(i32::from(exit_code.code))),
            yes_no(exit_code.retryable),
            exit_code.side_effects.as_str().to_owned(),
            exit_code.description.clone().unwrap_or_default(),
        ]);
    }
    out.push_str(&format!("{codes}\n"));
    out
}

/// The sandbox a run gets, one line per part.
fn render_sandbox(sandbox: &EffectiveSandbox) -> String {
    let list = |grants: &[PathGrant]| {
        grants
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let read = match &sandbox.read {
        None => "unrestricted".to_owned(),
        Some(grants) if grants.is_empty() => "the system's runtime only".to_owned(),
        Some(grants) => format!("{} (and the system's runtime)", list(grants)),
    };
    format!(
        "sandbox:      {}\n  read:       {read}\n  write:      {}\n  network:    {}\n",
        if sandbox.declared {
            "declared"
        } else {
            "defaults from the danger level"
        },
        list(&sandbox.write),
        sandbox.network,
    )
}

fn flag_name(declaration: &Declaration, parameter: &Parameter) -> String {
    let mut shown = format!("--{}", parameter.name);
    if declaration.is_user_controlled(&parameter.name) {
        shown.push_str(" (to subprocess)");
    }
    shown
}

fn yes_no(flag: bool) -> String {
    if flag { "yes" } else { "no" }.to_owned()
}

fn parameter_check(parameter: &Parameter) -> String {
    let mut parts = Vec::new();
    if let Some(pattern_type) = parameter.pattern_type {
        parts.push(match parameter.regex_dialect {
            Some(dialect) => format!("{pattern_type} ({dialect})"),
            None => pattern_type.as_str().to_owned(),
        });
    }
    if let Some(pattern) = &parameter.pattern {
        parts.push(pattern.as_str().to_owned());
    }
    if parameter.kind == ParamType::Enum {
        parts.push(parameter.enum_values.join(" | "));
    }
    if !parameter.bounds.is_empty() {
        parts.push(parameter.bounds.describe());
    }
    if parameter.kind == ParamType::ResourceId {
        parts.push("every ID rule".to_owned());
    }
    if parameter.sensitive {
        parts.push("sensitive".to_owned());
    }
    if parameter.allow_leading_dash {
        parts.push("may start with '-'".to_owned());
    }
    let confinement = &parameter.confinement;
    if confinement.relative_only {
        parts.push("relative".to_owned());
    }
    if !confinement.under.is_empty() {
        let roots: Vec<String> = confinement
            .under
            .iter()
            .map(crate::contract::PathRoot::to_text)
            .collect();
        parts.push(format!("under {}", roots.join(" or ")));
    }
    if confinement.must_exist {
        parts.push("must exist".to_owned());
    }
    parts.join(", ")
}

fn property_check(property: &Value, guarded: Option<&GuardedProperty>) -> String {
    let mut parts = Vec::new();
    let guard = guarded.map_or_else(|| PropertyGuard::of(property), GuardedProperty::item_guard);
    match guard.class {
        ValueClass::ResourceId => parts.push("resource_id".to_owned()),
        ValueClass::Typed(pattern_type) => parts.push(match guard.regex_dialect {
            Some(dialect) => format!("{pattern_type} ({dialect})"),
            None => pattern_type.as_str().to_owned(),
        }),
        ValueClass::Plain | ValueClass::Patterned => {}
    }
    for keyword in [
        "pattern",
        "format",
        "enum",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
    ] {
        if let Some(value) = property.get(keyword) {
            let shown = value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_owned);
            parts.push(format!("{keyword} {shown}"));
        }
    }
    if guard.sensitive {
        parts.push("sensitive".to_owned());
    }
    if guard.allow_leading_dash {
        parts.push("may start with '-'".to_owned());
    }
    parts.join(", ")
}

/// One diagnostic as a compiler-style line: `file: error[E107] field: message`,
/// where `file` is the diagnostic's own file (a script) when it has one.
pub fn render_diagnostic(file: &str, diagnostic: &Diagnostic, style: Style) -> String {
    let severity = if diagnostic.is_error() {
        style.error(&format!("error[{}]", diagnostic.code))
    } else {
        style.warning(&format!("warning[{}]", diagnostic.code))
    };
    // File names, fields and messages quote declaration files: their
    // control characters are shown as escapes, never sent to the terminal.
    let file = escape_controls(diagnostic.file.as_deref().unwrap_or(file));
    let location = match diagnostic.line {
        Some(line) => format!("{file}:{line}"),
        None => file.into_owned(),
    };
    let field = diagnostic
        .field
        .as_deref()
        .map(|field| format!("{}: ", style.emphasis(&escape_controls(field))))
        .unwrap_or_default();
    format!(
        "{}: {severity} {field}{}",
        style.location(&location),
        escape_controls(&diagnostic.message)
    )
}

/// `schema lint`: every finding, then a summary line.
pub fn render_lint(reports: &[FileReport], quiet: bool, style: Style) -> String {
    let mut out = String::new();
    for report in reports {
        for diagnostic in &report.diagnostics {
            out.push_str(&render_diagnostic(&report.file, diagnostic, style));
            out.push('\n');
        }
    }
    let errors = count(reports, true);
    let warnings = count(reports, false);
    if !quiet || errors + warnings > 0 {
        let summary = format!(
            "{} declaration{}: {errors} error{}, {warnings} warning{}",
            reports.len(),
            plural(reports.len()),
            plural(errors),
            plural(warnings)
        );
        let summary = if errors > 0 {
            style.error(&summary)
        } else if warnings > 0 {
            style.warning(&summary)
        } else {
            style.success(&summary)
        };
        out.push_str(&summary);
        out.push('\n');
    }
    out
}

/// `schema lint`'s run as the one renderer of findings
/// (`report::findings`) sees it: each declaration file (or the script it
/// runs) with its findings, by the registration-lint codes.
#[derive(Debug, Clone, Copy)]
pub struct LintFindings<'a> {
    pub reports: &'a [FileReport],
    /// With `--changed`: how the declarations were chosen, said before
    /// the findings in text output.
    pub selection: Option<&'a ChangedSelection>,
}

impl Findings for LintFindings<'_> {
    fn tool(&self) -> sarif::ToolInfo<'static> {
        sarif::ToolInfo {
            rules: crate::contract::codes::Code::TABLE,
            rules_page: SCHEMA_CODES_PAGE,
        }
    }

    fn files(&self) -> Vec<sarif::FileFindings<'_>> {
        self.reports
            .iter()
            .map(|report| sarif::FileFindings {
                path: std::path::Path::new(&report.file),
                diagnostics: &report.diagnostics,
            })
            .collect()
    }

    fn github_summary(&self) -> String {
        format!(
            "aigent: {} declarations, {} errors, {} warnings",
            self.reports.len(),
            count(self.reports, true),
            count(self.reports, false)
        )
    }

    fn text(&self, options: TextOptions) -> String {
        let mut text = String::new();
        if let Some(selection) = self.selection
            && !options.quiet
        {
            text.push_str(&selection_header(selection));
        }
        text.push_str(&render_lint(self.reports, options.quiet, options.style));
        text
    }
}

/// `changed since main (...): 2 declarations selected`, then the deleted
/// declarations.
fn selection_header(selection: &ChangedSelection) -> String {
    let base = selection.base["description"].as_str().unwrap_or("the base");
    let mut header = format!(
        "changed since {}: {} declaration{} selected",
        escape_controls(base),
        selection.selected.len(),
        plural(selection.selected.len()),
    );
    if selection.whole_registry {
        header.push_str(" (another file in the registry changed: linting all)");
    }
    header.push('\n');
    for deleted in &selection.deleted {
        let path = deleted.path.display().to_string();
        header.push_str(&format!("deleted: {}\n", escape_controls(&path)));
    }
    header
}

/// Errors (`true`) or warnings (`false`) across the reports.
pub fn count(reports: &[FileReport], errors: bool) -> usize {
    reports
        .iter()
        .flat_map(|report| &report.diagnostics)
        .filter(|diagnostic| diagnostic.is_error() == errors)
        .count()
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}
