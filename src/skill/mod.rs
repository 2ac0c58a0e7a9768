//! Agent Skills: directories holding a `SKILL.md` (YAML frontmatter and a
//! Markdown body), as agentskills.io defines them.
//!
//! - [`frontmatter`]: splitting the file and parsing the YAML under budgets
//!   (a checked fast path for the shapes nearly every skill has, else
//!   serde-saphyr);
//! - [`rules`]: every rule, as pure functions returning diagnostics;
//! - [`links`]: the relative links of a Markdown body, for the link check;
//! - [`codes`]: the stable diagnostic codes;
//! - [`discover`]: from the paths a user gave to skill files;
//!
//! Validation runs in three layers, each using only the ones before it:
//! 1. [`read`]: reading one skill file safely, and [`source`]: where it is
//!    read from (the file system, or a git snapshot for `--changed`);
//! 2. [`check`]: checking one skill, every rule in one pass;
//! 3. which skills to run ([`discover`] from paths, [`changed`] from what a
//!    branch touched) and [`validate`]: running a set in parallel.
//!
//! - [`render`]: the json data and the text of a validation run;
//! - [`properties`] and [`prompt`]: `read-properties` and `to-prompt`
//!   ([`listing`] renders the block);
//! - [`scaffold`]: `skill new`, from answers to files, written safely;
//! - [`tokens`]: what a skill costs in context (o200k token counts);
//! - [`rewrite`]: `skill fmt` and `skill fix` ([`rewrite::fmt`], canonical
//!   frontmatter; [`rewrite::fix`], mechanical repairs) run over files
//!   (diffs, atomic writes).
//! - [`paths`]: how every layer's reports write a path;
//! - [`place`]: which client a skill's place says it is for.

pub mod changed;
pub mod check;
pub mod clients;
pub mod codes;
pub mod discover;
pub mod duplicates;
pub mod evals;
pub mod frontmatter;
pub mod links;
pub mod listing;
pub mod paths;
pub mod place;
pub mod prompt;
pub mod properties;
pub mod read;
pub mod render;
pub mod rewrite;
pub mod rules;
pub mod scaffold;
pub mod source;
pub mod tokens;
pub mod validate;

pub use changed::{ChangedReport, ChangedScope};
pub use check::{SkillReport, ValidateOptions};
pub use discover::{Discovery, Target, discover};
pub use rules::Profile;
pub use validate::{RunOptions, Summary, ValidationRun, Verdict, validate_paths};
