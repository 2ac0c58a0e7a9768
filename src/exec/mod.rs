//! Running declared commands (DESIGN.md §6). For now this holds the audit
//! log that Phase 1 rejections are written to; argv building and spawning
//! join it with `run`.

pub mod audit;
