//! Exit codes, defined once (DESIGN.md §2).
//!
//! aigent's exit status is always aigent's own: once `run` has started the
//! child, its status is reported in the envelope (`child_exit_code`), and
//! aigent exits 0 when the declaration counts it as success and
//! [`COMMAND_FAILED`] otherwise (see `exec::report::ChildExit`).

pub const SUCCESS: i32 = 0;
/// An unexpected operational failure.
pub const GENERAL_ERROR: i32 = 1;
/// `skill validate` found at least one invalid skill (same value as
/// [`GENERAL_ERROR`], as linters and the peers do).
pub const VALIDATION_FAILED: i32 = 1;
/// Bad usage, and every Phase 1 rejection: nothing was executed.
pub const ARG_ERROR: i32 = 2;
/// `run`: the declared command ran and exited with a status its
/// declaration does not count as success (`success_exit_codes`); the
/// envelope's `child_exit_code` holds the status.
pub const COMMAND_FAILED: i32 = 3;
/// The registry or a declaration is itself invalid, or the audit log cannot
/// be written, or the environment lacks what the command needs (a git
/// repository for `--changed`).
pub const PRECONDITION: i32 = 4;
/// Unknown command name, missing path, unknown git revision.
pub const NOT_FOUND: i32 = 5;
/// The target of `skill new` already holds a skill or is not empty.
pub const CONFLICT: i32 = 6;
/// A time limit passed: `run --timeout` (the child was killed), aigent's
/// own `AIGENT_TIMEOUT`, or a stdin deadline.
pub const TIMEOUT: i32 = 10;
/// Interrupted by Ctrl-C (128 + SIGINT), as shells report it: `run`
/// stopped its child, `skill new` created nothing.
pub const INTERRUPTED: i32 = 130;
/// `run` passed on a hangup (128 + SIGHUP) to the child and stopped.
pub const HUNG_UP: i32 = 129;
/// `run` passed on SIGQUIT (128 + 3) to the child and stopped.
pub const QUIT: i32 = 131;
/// `run` passed on SIGTERM (128 + 15) to the child and stopped.
pub const TERMINATED: i32 = 143;

/// The status for a process ended by `signal`, as shells report it:
/// 128 + the signal number ([`INTERRUPTED`] for SIGINT). `run` uses it when
/// it was interrupted, and when a signal killed the child.
pub const fn killed_by_signal(signal: i32) -> i32 {
    128 + signal
}

/// Every code aigent itself can return, with its name, for docs and for the
/// `--schema` manifest. Codes 0 to 13 carry the CLI Agent Spec's names for
/// them (`ExitCode`), whatever aigent's own `error.code` says: 3 is the
/// spec's PARTIAL_FAILURE, which `run` reports as `COMMAND_FAILED`.
pub const TABLE: &[(i32, &str, &str)] = &[
    (SUCCESS, "SUCCESS", "the command did what was asked"),
    (
        GENERAL_ERROR,
        "GENERAL_ERROR",
        "a skill has errors (VALIDATION_FAILED); otherwise an unexpected failure",
    ),
    (
        ARG_ERROR,
        "ARG_ERROR",
        "bad usage or a Phase 1 rejection; nothing was executed",
    ),
    (
        COMMAND_FAILED,
        "PARTIAL_FAILURE",
        "run: the command ran and exited with a status it does not count as success (error.code COMMAND_FAILED)",
    ),
    (
        PRECONDITION,
        "PRECONDITION",
        "the registry or a declaration is invalid, the audit log cannot be written, or no git repository",
    ),
    (
        NOT_FOUND,
        "NOT_FOUND",
        "unknown command name, missing path or unknown revision",
    ),
    (
        CONFLICT,
        "CONFLICT",
        "the skill new target already holds a skill or is not empty",
    ),
    (
        TIMEOUT,
        "TIMEOUT",
        "a time limit passed: run --timeout (the child was killed), AIGENT_TIMEOUT, or a stdin deadline",
    ),
    (
        INTERRUPTED,
        "INTERRUPTED",
        "interrupted by Ctrl-C: run stopped the child; skill new created nothing",
    ),
    (
        HUNG_UP,
        "HUNG_UP",
        "run received SIGHUP, passed it to the child and stopped",
    ),
    (
        QUIT,
        "QUIT",
        "run received SIGQUIT, passed it to the child and stopped",
    ),
    (
        TERMINATED,
        "TERMINATED",
        "run received SIGTERM, passed it to the child and stopped",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_in_the_table_are_unique() {
        let mut codes: Vec<i32> = TABLE.iter().map(|(code, _, _)| *code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), TABLE.len());
    }

    #[test]
    fn ctrl_c_is_130() {
        assert_eq!(killed_by_signal(2), INTERRUPTED);
    }
}
