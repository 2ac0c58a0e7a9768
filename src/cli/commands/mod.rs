//! The leaf commands, one file (or a folder per group) each: its clap
//! `Args`, its `SPEC`, and a thin `run` that calls the library and returns
//! an `Outcome`. The helpers they share (output, argv, spec, sarif, ...)
//! live one level up, in `src/cli/`.

pub mod args;
pub mod audit;
pub mod completions;
pub mod generate;
pub mod hook;
pub mod lsp;
pub mod mcp;
pub mod plugin;
pub mod run;
pub mod schema;
pub mod skill;
