//! `aigent skill ...`: validate, scaffold, inspect and render Agent Skills.

mod contracts;
mod fix;
mod fmt;
mod new;
mod read_properties;
mod rewrite;
mod to_prompt;
pub(crate) mod validate;

use clap::{Args, Subcommand};

use aigent::report::{ErrorBody, ErrorCode, FieldError, Outcome};
use aigent::skill::properties::PropertiesError;

use crate::cli::spec::CommandSpec;
use crate::cli::{CliError, Context};

#[derive(Debug, Args)]
pub struct SkillArgs {
    #[command(subcommand)]
    pub command: SkillCommand,
}

#[derive(Debug, Subcommand)]
pub enum SkillCommand {
    /// Check skill directories against the Agent Skills rules
    Validate(validate::ValidateArgs),
    /// Create a new skill: prompts on a terminal, flags everywhere else
    New(new::NewArgs),
    /// Print a skill's frontmatter properties as JSON
    ReadProperties(read_properties::ReadPropertiesArgs),
    /// Print the <available_skills> XML block that agents load
    ToPrompt(to_prompt::ToPromptArgs),
    /// Put frontmatter into canonical form (key order, quoting, indentation)
    Fmt(fmt::FmtArgs),
    /// Make the mechanical repairs (quoting, allowed-tools, metadata, name)
    Fix(fix::FixArgs),
    /// Hold a skill's Bash grants and !`cmd` commands against the registry; propose declarations
    Contracts(contracts::ContractsArgs),
}

impl SkillCommand {
    pub fn spec(&self) -> &'static CommandSpec {
        match self {
            SkillCommand::Validate(_) => &validate::SPEC,
            SkillCommand::New(_) => &new::SPEC,
            SkillCommand::ReadProperties(_) => &read_properties::SPEC,
            SkillCommand::ToPrompt(_) => &to_prompt::SPEC,
            SkillCommand::Fmt(_) => &fmt::SPEC,
            SkillCommand::Fix(_) => &fix::SPEC,
            SkillCommand::Contracts(_) => &contracts::SPEC,
        }
    }
}

/// In the order the manifest and the docs list them.
pub const SPECS: &[&CommandSpec] = &[
    &validate::SPEC,
    &new::SPEC,
    &fmt::SPEC,
    &fix::SPEC,
    &read_properties::SPEC,
    &to_prompt::SPEC,
    &contracts::SPEC,
];

pub fn run(args: &SkillArgs, ctx: &Context) -> Result<Outcome, CliError> {
    match &args.command {
        SkillCommand::Validate(args) => validate::run(args, ctx),
        SkillCommand::New(args) => new::run(args, ctx),
        SkillCommand::ReadProperties(args) => read_properties::run(args, ctx),
        SkillCommand::ToPrompt(args) => to_prompt::run(args, ctx),
        SkillCommand::Fmt(args) => fmt::run(args, ctx),
        SkillCommand::Fix(args) => fix::run(args, ctx),
        SkillCommand::Contracts(args) => contracts::run(args, ctx),
    }
}

/// A skill that could not be read: a missing path is NOT_FOUND (exit 5),
/// anything else is an invalid skill (exit 1) with every problem listed.
fn properties_failure(err: PropertiesError) -> Result<Outcome, CliError> {
    match err {
        PropertiesError::NotFound(_) => Err(CliError::not_found(err.to_string())),
        PropertiesError::NoSkills(_) => Ok(Outcome::failure(
            serde_json::Value::Null,
            ErrorBody::new(ErrorCode::NoSkillsFound, err.to_string())
                .with_hint("a skill is a directory holding a SKILL.md file"),
            String::new(),
        )),
        PropertiesError::Invalid { ref problems, .. } => {
            let mut body = ErrorBody::new(ErrorCode::InvalidSkill, err.to_string())
                .with_hint("run `aigent skill validate PATH` for every problem");
            body.errors = problems.iter().map(FieldError::from).collect();
            Ok(Outcome::failure(
                serde_json::Value::Null,
                body,
                String::new(),
            ))
        }
    }
}
