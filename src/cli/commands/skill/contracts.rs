//! `aigent skill contracts PATH...`

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::bridge::skills::{Contracts, Standing, check_skill, propose};
use aigent::report::Outcome;
use aigent::skill::discover::{Target, discover};
use aigent::skill::read::read_skill_file;

use crate::cli::spec::{
    CommandSpec, NoEffects, Rows, Safe, TEXT_AND_JSON, USAGE, code_when, exit, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "skill.contracts",
    Safe,
    &[
        code_when(
            exit::SUCCESS,
            NoEffects,
            "every grant and command has a standing (findings are data)",
        ),
        USAGE,
        code_when(exit::NOT_FOUND, NoEffects, "the registry does not exist"),
    ],
    TEXT_AND_JSON,
    true,
)
.with_rows(Rows {
    field: "skills",
    columns: &["file", "findings", "proposals"],
});

#[derive(Debug, Args)]
#[command(
    after_help = "Each `Bash(...)` grant in a skill's `allowed-tools` and each !`cmd` dynamic-context command in its body is held against the registry (--commands, else the catalog and the user and project layers) with the hook's own judgement:\n  covered               a contract allows it (an exact command), or every command the grant admits starts as a contract's does\n  wider_than_contracts  it admits commands no contract declares (Bash, Bash(*), Bash(git:*) where only `git log` is declared)\n  fails_contract        a contract for the program refuses it\n  no_contract           no contract declares its program\nFor each grant not covered, a declaration is proposed (destructive, the granted words then an `args` array) with what `schema lint` says of it; review and narrow it before use.\n\nExamples:\n  # the skill's Bash grants against the registry\n  aigent skill contracts ./my-skill\n  # every skill, against a registry, as JSON\n  aigent --commands ./commands skill contracts --recursive ./skills --output json"
)]
pub struct ContractsArgs {
    /// Skill directories or SKILL.md files
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Search each directory for skills at any depth
    #[arg(long, short = 'r')]
    pub recursive: bool,
}

pub fn run(args: &ContractsArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let registry = crate::cli::schema::registry(ctx);
    let contracts = Contracts::load(&registry)?;
    let discovery = discover(&args.paths, args.recursive);
    let mut skills = Vec::new();
    let mut totals: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut grants = 0usize;
    let mut covered_grants = 0usize;
    let mut text = String::new();
    for target in &discovery.targets {
        let Target::SkillFile { file, .. } = target else {
            continue;
        };
        let Ok(bytes) = read_skill_file(file) else {
            continue;
        };
        let content = String::from_utf8_lossy(&bytes);
        let findings = check_skill(&content, &contracts);
        let skill_name = file
            .parent()
            .and_then(|dir| dir.file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let proposals = propose(&findings, &skill_name);
        for finding in &findings {
            let key = standing_name(finding.standing);
            *totals.entry(key).or_default() += 1;
            if finding.source == aigent::bridge::skills::Source::AllowedTools {
                grants += 1;
                if finding.standing == Standing::Covered {
                    covered_grants += 1;
                }
            }
        }
        if !findings.is_empty() {
            let _ = writeln!(text, "{}", file.display());
            for finding in &findings {
                let _ = writeln!(
                    text,
                    "  {:<20} {}: {}",
                    standing_name(finding.standing),
                    finding.written.replace(char::is_control, " "),
                    finding.message.replace(char::is_control, " ")
                );
            }
            for proposal in &proposals {
                let errors = proposal.lint.iter().filter(|d| d.is_error()).count();
                let _ = writeln!(
                    text,
                    "  proposed {} for {}{}",
                    proposal.file_name,
                    proposal.grant,
                    if errors == 0 {
                        String::new()
                    } else {
                        format!(" ({errors} lint errors)")
                    }
                );
            }
        }
        skills.push(json!({
            "file": file.display().to_string(),
            "findings": findings,
            "proposals": proposals,
        }));
    }
    let _ = writeln!(
        text,
        "{} skill file{}, {grants} Bash grant{}, {covered_grants} covered by the registry",
        skills.len(),
        if skills.len() == 1 { "" } else { "s" },
        if grants == 1 { "" } else { "s" },
    );
    let data = json!({
        "registry": registry.describe(),
        "skills": skills,
        "summary": {"skills": skills.len(), "grants": grants, "covered_grants": covered_grants, "by_standing": totals},
    });
    Ok(Outcome::success(data, text).with_warnings(discovery.notes.clone()))
}

fn standing_name(standing: Standing) -> &'static str {
    match standing {
        Standing::Covered => "covered",
        Standing::WiderThanContracts => "wider_than_contracts",
        Standing::FailsContract => "fails_contract",
        Standing::NoContract => "no_contract",
    }
}
