//! What the hook answers about one shell command, before it is put into a
//! client's own protocol (`protocol`).

use serde::Serialize;

/// The hook's answer. Ordered from most to least permissive, so that the
/// verdict of a whole command line is the `max` of its segments' verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Run it without asking the person.
    Allow,
    /// No opinion: the client decides as though the hook were not there.
    Defer,
    /// The person decides.
    Ask,
    /// Refuse it; the reason goes back to the model.
    Deny,
}

impl Verdict {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Defer => "defer",
            Self::Ask => "ask",
            Self::Deny => "deny",
        }
    }
}

/// The answer with what the model and the person are told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub verdict: Verdict,
    /// Why, written for the model so that it can correct itself: which
    /// segment, which rule, and the corrected command or the
    /// `aigent run NAME ...` form where one exists. Never holds a sensitive
    /// value.
    pub reason: String,
    /// `--route`: the command line the client should run instead (Claude
    /// Code's `updatedInput`), already quoted for a POSIX shell.
    pub rewritten_command: Option<String>,
}

impl Decision {
    pub fn new(verdict: Verdict, reason: impl Into<String>) -> Self {
        Self {
            verdict,
            reason: reason.into(),
            rewritten_command: None,
        }
    }
}
