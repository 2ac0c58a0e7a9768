//! `aigent hook`: aigent's contracts enforced in the agents' own shell
//! tools (Claude Code, Codex, Gemini CLI, Cursor).
//!
//! `install` puts aigent's entry into a client's settings file and takes it
//! out again; the hook itself reads the client's event and answers in its
//! protocol.

pub mod answer;
pub mod doctor;
pub mod install;
pub mod judge;
pub mod protocol;
pub mod secrets;
pub mod verdict;

pub use install::Client;
pub use verdict::{Decision, Verdict};
