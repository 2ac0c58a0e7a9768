//! `aigent skill to-prompt PATH...`

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::report::Outcome;
use aigent::skill::prompt::{prompt_skills, render_prompt};

use super::{CliError, Context};

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  aigent skill to-prompt examples/skills/*/
  aigent skill to-prompt --format text skills/pdf skills/xlsx >> system-prompt.md

In json mode, data holds the XML (`xml`) and the skills it lists (`skills`).")]
pub struct ToPromptArgs {
    /// Skill directories or SKILL.md files
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &ToPromptArgs, _ctx: &Context) -> Result<Outcome, CliError> {
    let skills = match prompt_skills(&args.paths) {
        Ok(skills) => skills,
        Err(err) => return super::properties_failure(err),
    };
    let xml = render_prompt(&skills);
    let data = json!({ "xml": xml, "skills": skills });
    Ok(Outcome::success(data, format!("{xml}\n")))
}
