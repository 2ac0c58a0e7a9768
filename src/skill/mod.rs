//! Agent Skills: directories holding a `SKILL.md` (YAML frontmatter and a
//! Markdown body), as agentskills.io defines them.
//!
//! - [`frontmatter`]: splitting the file and parsing the YAML under budgets;
//! - [`rules`]: every rule, as pure functions returning diagnostics;
//! - [`links`]: the relative links of a Markdown body, for the link check;
//! - [`codes`]: the stable diagnostic codes;
//! - [`discover`]: from the paths a user gave to skill files;
//! - [`validate`]: reading files safely and validating many in parallel;
//! - [`source`]: where skills are read from: the file system, or a git
//!   snapshot (the index, HEAD) for `--changed`;
//! - [`changed`]: `--changed`, only the skills a branch touched;
//! - [`render`]: the json data and the text of a validation run;
//! - [`properties`] and [`prompt`]: `read-properties` and `to-prompt`;
//! - [`scaffold`]: `skill new`, from answers to files, written safely.

pub mod changed;
pub mod codes;
pub mod discover;
pub mod frontmatter;
pub mod links;
pub mod prompt;
pub mod properties;
pub mod render;
pub mod rules;
pub mod scaffold;
pub mod source;
pub mod validate;

pub use changed::{ChangedReport, ChangedScope};
pub use discover::{Discovery, Target, discover};
pub use rules::Profile;
pub use validate::{
    RunOptions, SkillReport, Summary, ValidateOptions, ValidationRun, Verdict, validate_paths,
};
