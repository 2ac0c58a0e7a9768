//! Operational failures at the binary's edge, each with its exit code and
//! an envelope-ready body.

use aigent::report::{ErrorBody, exit};

#[derive(Debug, Clone)]
pub struct CliError {
    pub exit_code: i32,
    /// Boxed so `Result<Outcome, CliError>` stays small on the happy path.
    pub body: Box<ErrorBody>,
}

impl CliError {
    pub fn new(exit_code: i32, code: &str, message: impl Into<String>) -> Self {
        Self {
            exit_code,
            body: Box::new(ErrorBody::new(code, message)),
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(exit::ARG_ERROR, "ARG_ERROR", message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(exit::NOT_FOUND, "NOT_FOUND", message)
    }

    #[allow(dead_code)] // for the command-contract subcommands
    pub fn precondition(message: impl Into<String>) -> Self {
        Self::new(exit::PRECONDITION, "PRECONDITION", message)
    }

    pub fn general(message: impl Into<String>) -> Self {
        Self::new(exit::GENERAL_ERROR, "GENERAL_ERROR", message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.body.hints.push(hint.into());
        self
    }
}
