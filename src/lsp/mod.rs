//! `aigent lsp`'s library half: the documents an editor has open, checked
//! with the very calls the CLI makes, and what an editor asks of them.
//!
//! - [`document`]: an open document's text, kind and positions;
//! - [`settings`]: profile, strictness and registry, from the client;
//! - [`analysis`]: findings from `skill validate`, `schema lint` and
//!   `plugin validate`'s library entry points, placed on lines;
//! - [`hover`], [`complete`] and [`actions`] (with [`keys`], what each
//!   frontmatter key means): what the editor shows and offers;
//! - [`server`]: the protocol's state machine, LSP messages in and out;
//! - [`wire`]: a message's body read, its memory bounded before parsing.
//!
//! Only this module names `lsp-server` and `lsp-types`; everything but
//! [`server`] works on aigent's own types. No I/O happens here: the binary
//! (`src/cli/commands/lsp.rs`) owns stdin and stdout.

pub mod actions;
pub mod analysis;
pub mod complete;
pub mod document;
pub mod hover;
pub mod keys;
pub mod server;
pub mod settings;
pub mod wire;

pub use server::{Flow, Server};
