//! The loader: declarations read from files and from the built-in
//! catalog (each a [`Source`]), fully checked, into a [`Registry`] of
//! layers; and what is shown of them (`schema list/show/lint`, the JSON
//! Schema export).
//!
//! This sits above both `contract` (the vocabulary, parsing and lint) and
//! `guard` (a declared default must pass its own parameter's checks).

pub mod changed;
mod check;
mod embedded;
mod json_schema;
pub mod layers;
mod load;
pub mod programs;
pub mod render;
pub mod settings;
mod source;

pub use check::{parse_catalog_declaration, parse_declaration, parse_value};
pub use embedded::{CATALOG, CATALOG_DENY, catalog_declarations_of};
pub use json_schema::{to_json_schema, to_wire_for_agents};
pub use layers::Layers;
pub use load::Registry;
pub use programs::{ProgramIndex, program_key};
pub use settings::{
    HookSettings, NotStaticPolicy, SETTINGS_FILE, SandboxSettings, Settings, SettingsError,
    UnmatchedPolicy,
};
pub use source::{FileReport, LayerKind, LoadError, Loaded, RegistryEntry, Source, too_large};
