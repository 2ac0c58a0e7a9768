//! `aigent hook doctor --client CLIENT`: does the installed entry guard the
//! client's shell tool?

use std::path::PathBuf;
use std::time::SystemTime;

use clap::Args;
use serde_json::json;

use aigent::hook::doctor::{DoctorContext, Health, PROBE_TIMEOUT, examine};
use aigent::hook::install::{self as hook_install, Scope};
use aigent::report::{ErrorBody, ErrorCode, Outcome, exit};

use super::ClientArg;
use super::install::{ScopeArg, Setup, install_error};
use crate::cli::spec::{CommandSpec, NoEffects, Safe, TEXT_AND_JSON, USAGE, code_when, leaf};
use crate::cli::{CliError, Context};

/// It runs the entry on a probe event, which records one decision in the
/// audit log; nothing else changes.
pub const SPEC: CommandSpec = leaf(
    "hook.doctor",
    Safe,
    &[
        code_when(
            exit::SUCCESS,
            NoEffects,
            "every aigent entry runs and answers the probe as aigent's hook (or could not be run, which the warnings say)",
        ),
        code_when(
            exit::VALIDATION_FAILED,
            NoEffects,
            "an entry does not guard the shell tool (program missing or not executable, no answer to the probe, or it refuses all)",
        ),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "the settings file cannot be read",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "the settings file holds no aigent entry for the client, or the project does not exist",
        ),
    ],
    TEXT_AND_JSON,
    false,
);

#[derive(Debug, Args)]
#[command(after_help = "\
Reads the client's settings file, finds aigent's entries, and checks that each \
one runs: its program exists and is executable, and run on a probe event \
(`eval ...`, which every policy refuses) it answers with the client's deny. \
An entry whose program is missing guards nothing: Claude Code, Codex and \
Cursor then run every shell command unguarded (a hook that cannot start is not \
a refusal there), and Gemini CLI blocks every one. The probe writes one \
HOOK_DECISION record (session aigent-hook-doctor) to the audit log.

An entry that is not one plain command, or whose program lies inside the \
project, is not run (a cloned repository's own program is not trusted); the \
warnings say so.

Examples:
  aigent hook doctor --client claude-code
  aigent hook doctor --client codex --scope user")]
pub struct DoctorArgs {
    /// The client whose settings file to check
    #[arg(long, value_enum, value_name = "CLIENT")]
    pub client: ClientArg,

    /// Whose settings: the project's or yours
    #[arg(long, value_enum, default_value_t = ScopeArg::Project, value_name = "SCOPE")]
    pub scope: ScopeArg,

    /// The project's root directory [default: the current directory]
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub project: Option<PathBuf>,
}

pub fn run(args: &DoctorArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let setup = Setup::locate(args.client, args.scope, args.project.as_ref(), false, false)?;
    let request = setup.request_at(SystemTime::now());
    let (file, text) =
        hook_install::read_settings(&request).map_err(|err| install_error(err, &setup, None))?;
    let shown = setup.shown(&file);
    let client = setup.client;
    let not_installed = || {
        CliError::not_found(format!(
            "{shown} holds no aigent hook for {}",
            client.display_name()
        ))
        .with_hint(format!(
            "install it: aigent hook install {}",
            setup.target_flags()
        ))
    };
    let Some(text) = text else {
        return Err(not_installed());
    };
    let entries = hook_install::installed_entries(client, &text).map_err(|source| {
        install_error(
            hook_install::InstallError::Edit {
                path: file.clone(),
                source,
            },
            &setup,
            None,
        )
    })?;
    if entries.is_empty() {
        return Err(not_installed());
    }
    let project = std::fs::canonicalize(&setup.project).unwrap_or_else(|_| setup.project.clone());
    let context = DoctorContext {
        client,
        project: &project,
        project_scope: setup.scope == Scope::Project,
        path_var: std::env::var_os("PATH"),
        timeout: PROBE_TIMEOUT,
    };
    let examined: Vec<_> = entries
        .iter()
        .map(|entry| examine(entry, &context))
        .collect();
    let broken = examined
        .iter()
        .filter(|entry| entry.health == Health::Broken)
        .count();
    let mut warnings = Vec::new();
    let mut text = String::new();
    let style = ctx.style;
    for entry in &examined {
        let mark = match entry.health {
            Health::Works => style.success("ok"),
            Health::Broken => style.error("broken"),
            Health::Unchecked => style.warning("unchecked"),
        };
        text.push_str(&format!(
            "{mark} {shown}:{}:{}: {}\n",
            entry.line, entry.column, entry.command
        ));
        for check in &entry.checks {
            let sign = if check.ok { "✓" } else { "✗" };
            text.push_str(&format!("  {sign} {}: {}\n", check.name, check.detail));
        }
        if entry.health == Health::Unchecked {
            warnings.push(format!(
                "{shown}:{}:{}: {}",
                entry.line,
                entry.column,
                entry
                    .checks
                    .iter()
                    .filter(|check| !check.ok)
                    .map(|check| check.detail.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    let data = json!({
        "client": client.as_str(),
        "scope": setup.scope.as_str(),
        "file": file,
        "entries": examined,
        "broken": broken,
    });
    if broken > 0 {
        let error = ErrorBody::new(
            ErrorCode::ValidationFailed,
            format!(
                "{broken} of {} aigent entr{} in {shown} do{} not guard {}'s shell tool",
                examined.len(),
                if examined.len() == 1 { "y" } else { "ies" },
                if broken == 1 { "es" } else { "" },
                client.display_name()
            ),
        )
        .with_hint(
            if examined.iter().any(|entry| {
                entry
                    .checks
                    .iter()
                    .any(|check| check.name == "program" && !check.ok)
            }) {
                format!(
                    "reinstall it with a program that exists: aigent hook install {} --replace",
                    setup.target_flags()
                )
            } else {
                "fix what the probe's answer names, then run the doctor again".to_owned()
            },
        );
        return Ok(Outcome::failure(data, error, text).with_warnings(warnings));
    }
    Ok(Outcome::success(data, text).with_warnings(warnings))
}
