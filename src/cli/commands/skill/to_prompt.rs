//! `aigent skill to-prompt PATH...`

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::report::{ErrorBody, ErrorCode, FieldError, Outcome};
use aigent::skill::prompt::{prompt_skills_in, render_prompt};
use aigent::skill::tokens::{count_tokens, entry_tokens};

use super::{CliError, Context};
use crate::cli::spec::{CommandSpec, SKILL_READER, Safe, TEXT_AND_JSON, leaf};

/// How many of the largest entries an over-budget error names.
const LARGEST_SHOWN: usize = 5;

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf("skill.to-prompt", Safe, SKILL_READER, TEXT_AND_JSON, false);

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # the <available_skills> block for these skills
  aigent skill to-prompt examples/skills/*/
  # append the block to a prompt file
  aigent skill to-prompt skills/pdf skills/xlsx >> system-prompt.md
  aigent skill to-prompt --max-tokens 2000 skills/*/   # fail when the listing is too big
  # every skill below a directory
  aigent skill to-prompt --recursive .claude/skills > prompt.md

The block is what it prints, on a terminal or not (> prompt.md holds the
block); --output json prints the envelope instead. In json mode, data holds
the XML (`xml`), the skills it lists (`skills`) and the token counts (`tokens`: the total and each skill's entry, counted
with o200k_base).

Exit codes: 0 printed, 1 a skill cannot be read or the listing is over
--max-tokens (nothing is printed; the error names the total and the
largest entries), 5 a path does not exist or --recursive found no skill.")]
pub struct ToPromptArgs {
    /// Skill directories or SKILL.md files
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,

    /// List every skill below each PATH (as skill validate --recursive
    /// finds them)
    #[arg(short, long)]
    pub recursive: bool,

    /// Fail (exit 1) when the listing is over N tokens (o200k_base)
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
}

pub fn run(args: &ToPromptArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let skills = match prompt_skills_in(&args.paths, args.recursive) {
        Ok(skills) => skills,
        Err(err) => return super::properties_failure(err),
    };
    let xml = render_prompt(&skills);
    if args.max_tokens.is_none() && !ctx.format.is_json() {
        return Ok(Outcome::success(json!(null), format!("{xml}\n")));
    }
    let total = count_tokens(&xml);
    let mut entries: Vec<(&str, usize)> = skills
        .iter()
        .map(|skill| (skill.name.as_str(), entry_tokens(skill)))
        .collect();
    let data = json!({
        "xml": xml,
        "skills": skills,
        "tokens": {
            "total": total,
            "skills": entries
                .iter()
                .map(|(name, tokens)| json!({"name": name, "tokens": tokens}))
                .collect::<Vec<_>>(),
        },
    });
    // The skills' names and descriptions are their authors' text
    // (REQ-F-035); the printed block stays what a prompt gets.
    let data = aigent::report::escape::external(data);
    let Some(limit) = args.max_tokens.filter(|limit| total > *limit) else {
        return Ok(Outcome::success(data, format!("{xml}\n")));
    };
    // Largest first; ties in the order given.
    entries.sort_by_key(|entry| std::cmp::Reverse(entry.1));
    let mut error = ErrorBody::new(
        ErrorCode::TokenBudgetExceeded,
        format!(
            "the listing of {} is {total} tokens, over --max-tokens {limit}",
            if skills.len() == 1 {
                "1 skill".to_owned()
            } else {
                format!("{} skills", skills.len())
            }
        ),
    )
    .with_extra("total_tokens", total)
    .with_extra("max_tokens", limit)
    .with_hint("shorten the largest descriptions, or list fewer skills");
    error.errors = entries
        .iter()
        .take(LARGEST_SHOWN)
        .map(|(name, tokens)| FieldError {
            field: Some((*name).to_owned()),
            message: format!("{tokens} tokens"),
            ..FieldError::default()
        })
        .collect();
    Ok(Outcome::failure(data, error, String::new()))
}
