//! The knowledge base of programs: what a command line hands to a shell or
//! an interpreter, which words a program reads as code, and which scripts
//! build command strings. The lint, the guard, the hook and the skill
//! bridge all ask it the same questions.
//!
//! - [`command_string`]: E115, a subprocess that hands a command string to
//!   a shell or an interpreter (`bash -c`, `python -c`, `sudo -s`, ...);
//! - [`code_words`]: words a program reads as code beyond those options
//!   (`sed` `e`, `git -c alias.x=!...`, variables that load code), and words
//!   an agent would choose the program with;
//! - [`git_config`]: the git config keys whose value git runs as a
//!   program (`git -c` in the lint, a repository's config in the hook);
//! - [`environment`]: the variables that make a program run or load code
//!   (E125, E115, the hook), one documented table;
//! - [`raw_shell`]: W103, scripts named by a declaration that run a
//!   command string through a shell;
//! - [`syntax`]: how a program reads its options, for matching a command
//!   line by meaning (DESIGN.md §12);
//! - [`spelling`]: the other spellings a program takes for one command
//!   (subcommand aliases, `grep -e`, clippy's lint levels).
//!
//! Every rule reads short-option clusters (`-ec`, `-uroot`, `-o value`)
//! with one reader, `options`. Imports run `options` → `command_string` →
//! `code_words`; `raw_shell` needs only `options`.

pub mod code_words;
pub mod command_string;
pub mod environment;
pub mod git_config;
mod options;
pub mod raw_shell;
pub mod spelling;
pub mod syntax;

pub use command_string::{is_language, runs_another_program};
