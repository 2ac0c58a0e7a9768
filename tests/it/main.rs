//! The integration tests: one binary, one module per area, so the
//! dependencies (libgit2 among them) are linked once.

mod common;

mod args_check;
#[cfg(unix)]
mod audit;
mod cli;
mod ecosystem;
mod generated;
mod hardening;
#[cfg(unix)]
mod invoke;
#[cfg(unix)]
mod mcp;
mod newcomer;
mod plugin;
#[cfg(unix)]
mod policy;
mod raw_shell_lint;
#[cfg(unix)]
mod run;
mod sarif;
mod schema;
mod schema_changed;
mod skill_changed;
mod skill_hints;
mod skill_new;
mod skill_properties;
mod skill_proptest;
mod skill_validate;
mod templates;
mod vcs_changed;
