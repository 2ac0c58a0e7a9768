//! Contracts and the rest of the ecosystem: `export` compiles a declaration
//! into an agent's own policy language (Claude Code permission rules, Codex
//! execpolicy, Gemini CLI policy TOML) with a report of what that language
//! keeps and drops; `import` makes declarations from a CLI's own spec (a
//! CLI Agent Spec manifest, a `usage` KDL spec).
//!
//! This module sits above `hook`: it asks the hook's judgement
//! (`hook::judge::judge`) whether a command line passes a contract, so an
//! exported example and the hook never disagree.

pub mod export;
pub mod import;
pub mod skills;
