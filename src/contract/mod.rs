//! Command contracts (DESIGN.md §4): the vocabulary of a declaration
//! (`declaration`, `naming`, `codes`, `value`, `bounds`), reading one (`parse`,
//! `input_schema`), the knowledge base of programs (`programs`) and the
//! cross-field lint (`lint`). Imports run in that order. The guard sits above this
//! module, and the loader (`crate::registry`) above both.
//!
//! A declaration is read from JSON or YAML into a [`Declaration`] that has
//! passed the lint, so the guard and `run` can rely on it: patterns compile
//! and are anchored, `user_controlled_args` name real parameters, no shell
//! runs a command string.

pub mod bounds;
pub mod codes;
mod danger;
mod declaration;
pub mod input_schema;
pub mod lint;
mod naming;
mod parse;
pub mod programs;
pub mod sandbox;
pub mod value;
mod wire;

pub use danger::suggest_danger_level;
pub use declaration::{
    AnchoredPattern, ArgvPart, CommandClass, Confinement, DangerLevel, Declaration, EnvValue,
    EnvVar, ExitCode, FlagForm, InputSchema, Inputs, ParamSlot, ParamType, Parameter, PathRoot,
    PatternType, RegexDialect, SideEffects, Subprocess, Syntax, ValueClass,
    pattern_anchoring_problem,
};
pub use naming::{
    closest, command_name_problem, looks_like_identifier, looks_secret, parameter_name_problem,
};
pub use parse::{
    EXIT_CODE_FIELDS, Origin, PARAMETER_FIELDS, Parsed, ROOT_FIELDS, SUBPROCESS_FIELDS,
    SourceFormat, read_builtin_declaration, read_declaration, read_value,
};
pub use programs::{is_language, runs_another_program};
pub use wire::to_wire;
