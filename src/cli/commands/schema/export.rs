//! `aigent schema export --to TARGET [NAME...]`

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use aigent::bridge::export::{Target, export, render_report};
use aigent::report::{ErrorBody, ErrorCode, Outcome, OutputFormat};

use crate::cli::spec::{
    CommandSpec, Complete, Mutating, NoEffects, TEXT_AND_JSON, USAGE, code_when, exit, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "schema.export",
    Mutating,
    &[
        code_when(
            exit::SUCCESS,
            Complete,
            "the policy document is written (stdout, or --out-file FILE)",
        ),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "--out-file names an existing file (without --force), or a named declaration has errors",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "the registry or a named command does not exist",
        ),
        code_when(
            exit::VALIDATION_FAILED,
            NoEffects,
            "a declaration has no rule and --allow-partial was not given (nothing written), or --out-file cannot be written",
        ),
    ],
    TEXT_AND_JSON,
    true,
);

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    /// Claude Code settings.json `permissions` rules
    ClaudePermissions,
    /// Codex execpolicy `prefix_rule`s (Starlark, a `.rules` file)
    CodexExecpolicy,
    /// Gemini CLI policy engine `[[rule]]`s (TOML)
    GeminiPolicy,
}

impl From<TargetArg> for Target {
    fn from(target: TargetArg) -> Self {
        match target {
            TargetArg::ClaudePermissions => Target::ClaudePermissions,
            TargetArg::CodexExecpolicy => Target::CodexExecpolicy,
            TargetArg::GeminiPolicy => Target::GeminiPolicy,
        }
    }
}

#[derive(Debug, Args)]
#[command(
    after_help = "Every target matches a command line by its leading words, so a rule keeps the program and the template's literal words up to the first parameter and drops the rest (types, patterns, confined paths, required inputs, the shape of the line). A rule wider than its contract is flagged on stderr and in the report, with command lines it admits that the contract refuses, and says what the client does with such a line. Codex rules always prompt: a Codex allow runs the line outside Codex's sandbox, and the hook does the allowing there.\n\nA declaration no shell line can satisfy (an input reaching the program only through its environment) gets no rule; the export then fails (EXPORT_INCOMPLETE, exit 1) and writes nothing, unless --allow-partial, which writes the rules for the others.\n\nWithout --out-file the document goes to stdout and the flags to stderr; with --out-file FILE the document is written atomically (an existing file only with --force) and the fidelity report goes to stdout. --output json puts the document and the report in the envelope.\n\nExamples:\n  # Claude Code permission rules for one command\n  aigent schema export --to claude-permissions git-log\n  # Codex rules for a registry, into a file\n  aigent --commands ./commands schema export --to codex-execpolicy --out-file ~/.codex/rules/aigent.rules\n  # Gemini CLI policy and its fidelity report, as JSON\n  aigent --commands ./commands schema export --to gemini-policy --output json"
)]
pub struct ExportArgs {
    /// The policy language to write
    #[arg(long, value_enum)]
    pub to: TargetArg,
    /// Write the document to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    pub out_file: Option<PathBuf>,
    /// Replace FILE when it exists
    #[arg(long, requires = "out_file")]
    pub force: bool,
    /// Write the rules that can be written when some declaration cannot be exported
    #[arg(long)]
    pub allow_partial: bool,
    /// The declared commands to export (all of them when none is named)
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::cli::complete::command_names))]
    pub names: Vec<String>,
}

pub fn run(args: &ExportArgs, ctx: &Context) -> Result<Outcome, CliError> {
    // Without names, `--commands DIR` exports that directory alone, as
    // `schema lint` lints it: the catalog's declarations are exported by
    // name.
    let registry = match &ctx.commands_dir {
        Some(dir) if args.names.is_empty() => aigent::registry::Registry::Directory(dir.clone()),
        _ => super::registry(ctx),
    };
    let mut declarations = Vec::new();
    let mut skipped = Vec::new();
    let mut left_out = Vec::new();
    if args.names.is_empty() {
        for report in registry.reports()? {
            match report.declaration {
                Some(declaration) => declarations.push(declaration),
                None => {
                    skipped.push(format!(
                        "{} has lint errors and was not exported (see `aigent schema lint`)",
                        report.file
                    ));
                    left_out.push(format!("{} (lint errors)", report.file));
                }
            }
        }
    } else {
        for name in &args.names {
            declarations.push(registry.load(name)?.declaration);
        }
    }
    let target: Target = args.to.into();
    let exported = export(&registry, &declarations, target);
    let mut warnings = skipped;
    for fidelity in &exported.declarations {
        if fidelity.wider {
            warnings.push(format!(
                "{}: `{}` is wider than the contract: {}",
                fidelity.name,
                fidelity.rule.as_deref().unwrap_or(""),
                fidelity.wider_because.join("; ")
            ));
        }
        if let Some(reason) = &fidelity.not_exported {
            warnings.push(format!("{}: not exported: {reason}", fidelity.name));
        }
    }
    let data = serde_json::to_value(&exported).map_err(|err| CliError::general(err.to_string()))?;
    left_out.extend(
        exported
            .declarations
            .iter()
            .filter(|fidelity| !fidelity.hook_only)
            .filter_map(|fidelity| {
                fidelity
                    .not_exported
                    .as_ref()
                    .map(|reason| format!("{} ({reason})", fidelity.name))
            }),
    );
    if !left_out.is_empty() && !args.allow_partial {
        let error = ErrorBody::new(
            ErrorCode::ExportIncomplete,
            format!(
                "{} declaration{} cannot be exported to {}, so nothing was written: {}",
                left_out.len(),
                if left_out.len() == 1 { "" } else { "s" },
                target.as_str(),
                left_out.join("; ")
            ),
        )
        .with_hint("--allow-partial writes the rules for the others");
        return Ok(Outcome::failure(data, error, render_report(&exported)).with_warnings(warnings));
    }
    use crate::cli::spec::{Effect, with_effect};
    match &args.out_file {
        Some(path) => {
            let existed = std::fs::symlink_metadata(path).is_ok();
            if !args.force && existed {
                return Err(CliError::precondition(format!(
                    "{} exists; pass --force to replace it",
                    path.display()
                )));
            }
            aigent::fsutil::write_atomic(path, exported.document.as_bytes()).map_err(|err| {
                CliError::general(format!("cannot write {}: {err}", path.display()))
            })?;
            let mut outcome = Outcome::success(data, render_report(&exported));
            outcome
                .meta
                .insert("output".to_owned(), path.display().to_string().into());
            let effect = if existed {
                Effect::Updated
            } else {
                Effect::Created
            };
            Ok(with_effect(outcome.with_warnings(warnings), effect))
        }
        // Without --out-file the document is printed: nothing is written.
        None if ctx.format == OutputFormat::Text => {
            Ok(Outcome::success(data, exported.document).with_warnings(warnings))
        }
        None => Ok(with_effect(
            Outcome::success(data, render_report(&exported)).with_warnings(warnings),
            Effect::Noop,
        )),
    }
}
