//! aigent: validation for Agent Skills and for the command lines that AI
//! agents drive.
//!
//! The library holds every rule and every check; the `aigent` binary only
//! parses flags, calls in here and renders. Nothing below this module knows
//! about clap or about terminals: text rendering takes a [`report::Style`]
//! and returns a `String`, and the caller decides where it goes.

pub mod bridge;
pub mod contract;
pub mod exec;
pub mod fsutil;
pub mod guard;
pub mod hook;
pub mod invoke;
pub mod learn;
pub mod lsp;
pub mod mcp;
pub mod normalize;
pub mod outcome;
pub mod plugin;
pub mod registry;
pub mod report;
pub mod request;
pub mod shell;
pub mod skill;
pub mod tokenizer;
pub mod vcs;
