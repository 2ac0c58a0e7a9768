//! Running declared commands (DESIGN.md §6): the argv a declaration and its
//! validated arguments make, spawning it without a shell and seeing it to
//! its end (timeout, forwarded signals), and the audit log that records
//! every rejection and every execution.

pub mod argv;
pub mod argv_grammar;
pub mod argv_match;
pub mod audit;
pub mod env;
pub mod process;
pub mod report;
pub mod sandbox;
#[cfg(unix)]
pub(crate) mod sys;

pub use argv::{Argv, ArgvError};
pub use process::{Ending, Finished, RunOptions, SpawnError};
