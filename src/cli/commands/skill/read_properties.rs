//! `aigent skill read-properties PATH`

use std::path::PathBuf;

use clap::Args;

use aigent::report::Outcome;
use aigent::report::escape::escape_json_text;
use aigent::skill::properties::read_properties;

use super::{CliError, Context};
use crate::cli::spec::{CommandSpec, SKILL_READER, Safe, TEXT_AND_JSON, leaf};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "skill.read-properties",
    Safe,
    SKILL_READER,
    TEXT_AND_JSON,
    false,
);

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  # the frontmatter, as text
  aigent skill read-properties examples/skills/release-notes
  # the frontmatter as JSON
  aigent skill read-properties path/to/SKILL.md --output json

Prints the keys name, description, license, compatibility, allowed-tools
and metadata (absent ones left out), as the reference skills-ref does.")]
pub struct ReadPropertiesArgs {
    /// A skill directory or its SKILL.md file
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

pub fn run(args: &ReadPropertiesArgs, _ctx: &Context) -> Result<Outcome, CliError> {
    let skill = match read_properties(&args.path) {
        Ok(skill) => skill,
        Err(err) => return super::properties_failure(err),
    };
    let data = skill.properties.to_json();
    // The reference prints `json.dumps(..., indent=2)`; we keep non-ASCII
    // text as it is rather than as \u escapes, except the characters a
    // terminal would act on.
    let text =
        serde_json::to_string_pretty(&data).map_err(|err| CliError::general(err.to_string()))?;
    let mut text = escape_json_text(&text).into_owned();
    text.push('\n');
    // The frontmatter is the skill author's text (REQ-F-035); the text
    // output stays the reference's.
    Ok(Outcome::success(
        aigent::report::escape::external(data),
        text,
    ))
}
