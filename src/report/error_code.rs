//! `error.code`, the value agents branch on: one enum that owns each code's
//! spelling, exit code, `retryable` default and meaning, so no call site
//! can invent a code or pair it with the wrong exit status.

use serde::{Deserialize, Serialize};

use super::exit;

/// Every `error.code` aigent emits. Serialized as SCREAMING_SNAKE_CASE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    ArgError,
    InvalidAgentInput,
    ConfirmationRequired,
    InputRequired,
    NotFound,
    NoSkillsFound,
    Precondition,
    InvalidDeclaration,
    InvalidSettings,
    DuplicateCommand,
    AuditLogUnwritable,
    SandboxUnavailable,
    ResultUnwritable,
    ArgvUnsupported,
    Conflict,
    ClientSettingsInvalid,
    UnsafeWrite,
    InvalidSpec,
    StdinTooLarge,
    ValidationFailed,
    InvalidSkill,
    FormatFailed,
    FormatCheckFailed,
    FixIncomplete,
    ExportIncomplete,
    TokenBudgetExceeded,
    AuditChainBroken,
    BinaryNotFound,
    InterpreterNotFound,
    BinaryNotExecutable,
    SpawnFailed,
    CommandFailed,
    CommandKilled,
    Timeout,
    Cancelled,
    Interrupted,
    McpServerFailed,
    Internal,
    GeneralError,
}

impl ErrorCode {
    /// Every code, in the order the reference table lists them.
    pub const ALL: &'static [ErrorCode] = &[
        Self::ArgError,
        Self::InvalidAgentInput,
        Self::ConfirmationRequired,
        Self::InputRequired,
        Self::NotFound,
        Self::NoSkillsFound,
        Self::Precondition,
        Self::InvalidDeclaration,
        Self::InvalidSettings,
        Self::DuplicateCommand,
        Self::AuditLogUnwritable,
        Self::SandboxUnavailable,
        Self::ResultUnwritable,
        Self::ArgvUnsupported,
        Self::Conflict,
        Self::ClientSettingsInvalid,
        Self::UnsafeWrite,
        Self::InvalidSpec,
        Self::StdinTooLarge,
        Self::ValidationFailed,
        Self::InvalidSkill,
        Self::FormatFailed,
        Self::FormatCheckFailed,
        Self::FixIncomplete,
        Self::ExportIncomplete,
        Self::TokenBudgetExceeded,
        Self::AuditChainBroken,
        Self::BinaryNotFound,
        Self::InterpreterNotFound,
        Self::BinaryNotExecutable,
        Self::SpawnFailed,
        Self::CommandFailed,
        Self::CommandKilled,
        Self::Timeout,
        Self::Cancelled,
        Self::Interrupted,
        Self::McpServerFailed,
        Self::Internal,
        Self::GeneralError,
    ];

    /// The code as it appears in `error.code`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ArgError => "ARG_ERROR",
            Self::InvalidAgentInput => "INVALID_AGENT_INPUT",
            Self::ConfirmationRequired => "CONFIRMATION_REQUIRED",
            Self::InputRequired => "INPUT_REQUIRED",
            Self::NotFound => "NOT_FOUND",
            Self::NoSkillsFound => "NO_SKILLS_FOUND",
            Self::Precondition => "PRECONDITION",
            Self::InvalidDeclaration => "INVALID_DECLARATION",
            Self::InvalidSettings => "INVALID_SETTINGS",
            Self::DuplicateCommand => "DUPLICATE_COMMAND",
            Self::AuditLogUnwritable => "AUDIT_LOG_UNWRITABLE",
            Self::SandboxUnavailable => "SANDBOX_UNAVAILABLE",
            Self::ResultUnwritable => "RESULT_UNWRITABLE",
            Self::ArgvUnsupported => "ARGV_UNSUPPORTED",
            Self::Conflict => "CONFLICT",
            Self::ClientSettingsInvalid => "CLIENT_SETTINGS_INVALID",
            Self::UnsafeWrite => "UNSAFE_WRITE",
            Self::InvalidSpec => "INVALID_SPEC",
            Self::StdinTooLarge => "STDIN_TOO_LARGE",
            Self::ValidationFailed => "VALIDATION_FAILED",
            Self::InvalidSkill => "INVALID_SKILL",
            Self::FormatFailed => "FORMAT_FAILED",
            Self::FormatCheckFailed => "FORMAT_CHECK_FAILED",
            Self::FixIncomplete => "FIX_INCOMPLETE",
            Self::ExportIncomplete => "EXPORT_INCOMPLETE",
            Self::TokenBudgetExceeded => "TOKEN_BUDGET_EXCEEDED",
            Self::AuditChainBroken => "AUDIT_CHAIN_BROKEN",
            Self::BinaryNotFound => "BINARY_NOT_FOUND",
            Self::InterpreterNotFound => "INTERPRETER_NOT_FOUND",
            Self::BinaryNotExecutable => "BINARY_NOT_EXECUTABLE",
            Self::SpawnFailed => "SPAWN_FAILED",
            Self::CommandFailed => "COMMAND_FAILED",
            Self::CommandKilled => "COMMAND_KILLED",
            Self::Timeout => "TIMEOUT",
            Self::Cancelled => "CANCELLED",
            Self::Interrupted => "INTERRUPTED",
            Self::McpServerFailed => "MCP_SERVER_FAILED",
            Self::Internal => "INTERNAL",
            Self::GeneralError => "GENERAL_ERROR",
        }
    }

    /// aigent's exit code for this error ([`exit`]). For
    /// [`Self::passes_child_status`] codes it is only the fallback: `run`
    /// exits with 128 + the signal that killed the child.
    pub const fn exit_code(self) -> i32 {
        match self {
            Self::ArgError
            | Self::InvalidAgentInput
            | Self::ConfirmationRequired
            | Self::InvalidSpec
            | Self::StdinTooLarge => exit::ARG_ERROR,
            Self::NotFound
            | Self::NoSkillsFound
            | Self::BinaryNotFound
            | Self::InterpreterNotFound => exit::NOT_FOUND,
            Self::Precondition
            | Self::InputRequired
            | Self::InvalidDeclaration
            | Self::InvalidSettings
            | Self::DuplicateCommand
            | Self::AuditLogUnwritable
            | Self::SandboxUnavailable
            | Self::ResultUnwritable
            | Self::ArgvUnsupported
            | Self::ClientSettingsInvalid
            | Self::UnsafeWrite
            | Self::BinaryNotExecutable => exit::PRECONDITION,
            Self::Conflict => exit::CONFLICT,
            Self::ValidationFailed
            | Self::InvalidSkill
            | Self::FormatFailed
            | Self::FormatCheckFailed
            | Self::FixIncomplete
            | Self::ExportIncomplete
            | Self::TokenBudgetExceeded
            | Self::AuditChainBroken => exit::VALIDATION_FAILED,
            Self::Timeout => exit::TIMEOUT,
            Self::Cancelled | Self::Interrupted => exit::INTERRUPTED,
            Self::CommandFailed => exit::COMMAND_FAILED,
            Self::SpawnFailed
            | Self::CommandKilled
            | Self::McpServerFailed
            | Self::Internal
            | Self::GeneralError => exit::GENERAL_ERROR,
        }
    }

    /// A signal killed the declared command, and aigent exits with 128 +
    /// that signal, as shells report it. (A child's exit status is never
    /// passed through: see `exec::report::ChildExit`.)
    pub const fn passes_child_status(self) -> bool {
        matches!(self, Self::CommandKilled)
    }

    /// The code's default `retryable`, in the CLI Agent Spec's sense
    /// (REQ-C-014): whether the same call, unchanged, may succeed, which
    /// implies nothing was changed. No aigent code is so by itself: a
    /// refused call is refused again until the caller fixes something
    /// ([`Self::fix_required`]), and a call that ran may have changed
    /// things. A caller that knows better sets the body's own: the
    /// declared exit entry of a child's status, a timeout of a command
    /// declared `safe`, a server that was too busy to start the call.
    pub const fn retryable(self) -> bool {
        false
    }

    /// When the body's `retryable` may differ from the default, what
    /// decides it (the reference table's column).
    pub const fn retryable_rule(self) -> &'static str {
        match self {
            Self::CommandFailed => "as the child's declared exit code says",
            Self::Timeout => {
                "when nothing was changed: the command is declared `safe`, or a stdin deadline passed"
            }
            _ => "no",
        }
    }

    /// What the caller must correct before reissuing the call
    /// (`error.fix_required`), for the codes whose cause the caller can
    /// correct; `None` for terminal failures (the child's own failure, a
    /// signal, a broken audit chain, a bug).
    pub const fn fix_required(self) -> Option<&'static str> {
        Some(match self {
            Self::ArgError => {
                "correct the usage or the arguments named in error.errors, then reissue"
            }
            Self::InvalidAgentInput => {
                "replace the rejected values (error.errors) with real ones, then reissue"
            }
            Self::ConfirmationRequired => {
                "look at what would run (run --dry-run); reissue with --confirm-destructive only if it is meant"
            }
            Self::InputRequired => "pass the answers as flags, with --yes",
            Self::NotFound => "name a command, path or revision that exists",
            Self::NoSkillsFound => "name directories that hold a SKILL.md",
            Self::Precondition => "provide what error.message says is missing, then reissue",
            Self::InvalidDeclaration => {
                "fix the declaration's errors (error.errors; `aigent schema lint` lists them all)"
            }
            Self::InvalidSettings => "fix the registry's aigent.toml",
            Self::DuplicateCommand => "keep one declaration file per command name",
            Self::AuditLogUnwritable => {
                "make the audit log writable, or choose another with --audit-log or AIGENT_AUDIT_LOG"
            }
            Self::SandboxUnavailable => {
                "run on a kernel that enforces the sandbox, or choose --sandbox best-effort"
            }
            Self::ResultUnwritable => "choose a --result path that can be written",
            Self::ArgvUnsupported => "pass values that have an argv form",
            Self::Conflict => {
                "choose another target, or replace it where the command offers --force"
            }
            Self::ClientSettingsInvalid => "fix the client's settings file",
            Self::UnsafeWrite => "write to a regular file inside the project",
            Self::InvalidSpec => "pass a valid CLI Agent Spec manifest or usage spec",
            Self::StdinTooLarge => {
                "write the payload to a file and pass its path instead of -, or raise AIGENT_MAX_STDIN_BYTES"
            }
            Self::ValidationFailed => "fix the errors the report lists, then validate again",
            Self::InvalidSkill => "fix the skill file so that it can be read",
            Self::FormatFailed => "fix by hand what the formatter cannot rewrite",
            Self::FormatCheckFailed => "format the files listed (`aigent skill fmt`)",
            Self::FixIncomplete => "fix by hand the errors `skill fix` cannot repair",
            Self::ExportIncomplete => {
                "export the declarations listed some other way, or pass --allow-partial"
            }
            Self::TokenBudgetExceeded => {
                "list fewer skills, shorten their descriptions, or raise --max-tokens"
            }
            Self::BinaryNotFound => {
                "install the declared program, or give its full path in the declaration"
            }
            Self::InterpreterNotFound => "fix the `#!` line of the declared program",
            Self::BinaryNotExecutable => "make the declared program executable",
            Self::AuditChainBroken
            | Self::SpawnFailed
            | Self::CommandFailed
            | Self::CommandKilled
            | Self::Timeout
            | Self::Cancelled
            | Self::Interrupted
            | Self::McpServerFailed
            | Self::Internal
            | Self::GeneralError => return None,
        })
    }

    /// What the code means, in one line (the reference table's column).
    pub const fn meaning(self) -> &'static str {
        match self {
            Self::ArgError => "bad usage, or arguments that break a declared rule; nothing was run",
            Self::InvalidAgentInput => {
                "an argument matched a named guard rule (hallucinated or hostile input); nothing was run"
            }
            Self::ConfirmationRequired => {
                "a destructive command was not confirmed (`--confirm-destructive`); nothing was run"
            }
            Self::InputRequired => {
                "the command would ask a question and no one can answer (no terminal, or --non-interactive); nothing was done"
            }
            Self::NotFound => "unknown command name, missing path or unknown git revision",
            Self::NoSkillsFound => "the paths given hold no SKILL.md",
            Self::Precondition => {
                "the environment lacks what the command needs (a readable registry, a git repository, a subprocess)"
            }
            Self::InvalidDeclaration => "a command declaration is invalid",
            Self::InvalidSettings => {
                "the registry's settings file (`aigent.toml`) cannot be read or is invalid"
            }
            Self::DuplicateCommand => "two declaration files declare the same command name",
            Self::AuditLogUnwritable => "the audit log cannot be written; nothing was run",
            Self::SandboxUnavailable => {
                "`--sandbox require`: the kernel cannot enforce all of the command's sandbox (Landlock, its TCP rules, seccomp); nothing was run"
            }
            Self::ResultUnwritable => "the `--result` file cannot be written; nothing was run",
            Self::ArgvUnsupported => {
                "an accepted value has no argv form (an object, a NUL byte, several values for one variable); nothing was run"
            }
            Self::Conflict => {
                "the `skill new` target already holds a skill or is not empty; `schema import`: a declaration of that name exists (no --force); `hook install`: an aigent entry runs another command, or the settings file changed meanwhile"
            }
            Self::ClientSettingsInvalid => {
                "`hook install`/`uninstall`: the client's settings file is not valid JSON or TOML, or holds the wrong type where aigent's entry goes; nothing was written"
            }
            Self::UnsafeWrite => {
                "a file to write is a symlink leading out of the project, a hard link or not a regular file; nothing was written"
            }
            Self::InvalidSpec => {
                "`schema import`: the spec is not valid JSON or KDL, or not a CLI Agent Spec manifest or usage spec (the message says where); nothing was written"
            }
            Self::StdinTooLarge => {
                "a payload on stdin is over the stdin cap (AIGENT_MAX_STDIN_BYTES or TOOL_MAX_STDIN_BYTES, else 64 KiB); nothing was read past it, nothing was done"
            }
            Self::ValidationFailed => "a skill, plugin or file has errors",
            Self::InvalidSkill => "a skill could not be read as a valid skill",
            Self::FormatFailed => {
                "`skill fmt` could not format a skill file (unreadable YAML, or a rewrite would change a value)"
            }
            Self::FormatCheckFailed => "`skill fmt --check`: a skill file is not in canonical form",
            Self::FixIncomplete => {
                "`skill fix`: a skill still has errors after the repairs; its fixes were not written"
            }
            Self::ExportIncomplete => {
                "`schema export`: a declaration no shell command line can satisfy has no rule; nothing was written (`--allow-partial` writes the others)"
            }
            Self::TokenBudgetExceeded => {
                "`skill to-prompt --max-tokens`: the listing is over the budget"
            }
            Self::AuditChainBroken => {
                "the audit log fails verification: a record was edited, deleted, reordered or cut off"
            }
            Self::BinaryNotFound => "the declared program does not exist; nothing was run",
            Self::InterpreterNotFound => {
                "the interpreter on the program's `#!` line does not exist"
            }
            Self::BinaryNotExecutable => "the declared program is not executable",
            Self::SpawnFailed => "the declared program could not be started",
            Self::CommandFailed => {
                "the declared command ran and exited with a status its declaration does not count as success (`success_exit_codes`); `child_exit_code` and `child_exit` say which"
            }
            Self::CommandKilled => "a signal killed the declared command (exit 128 + the signal)",
            Self::Timeout => {
                "a time limit passed: `run --timeout` (the child's process group was killed), aigent's own AIGENT_TIMEOUT (600 s), or a stdin deadline (AIGENT_STDIN_TIMEOUT, 30 s)"
            }
            Self::Cancelled => {
                "the call was cancelled and its child killed (`skill new` declined at its prompt exits 1)"
            }
            Self::Interrupted => {
                "interrupted by a signal, passed on to the child (129, 131, 143 for SIGHUP, SIGQUIT, SIGTERM)"
            }
            Self::McpServerFailed => "the MCP server could not start or stopped on an error",
            Self::Internal => "a bug in aigent: a state it should never reach",
            Self::GeneralError => "an unexpected operational failure",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tests and callers compare a code with its spelling: `code == "NOT_FOUND"`.
impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Where in a call an error happened (`error.phase`), in the CLI Agent
/// Spec's terms: `validation` guarantees that nothing ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Before anything ran: the command line, Phase 1 (the guard), or a
    /// destructive command that was not confirmed.
    Validation,
    /// The child was started (or starting it failed).
    Execution,
}

impl Phase {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Validation => "validation",
            Self::Execution => "execution",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_through_serde_as_its_string() {
        for &code in ErrorCode::ALL {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, code.as_str(), "{code:?}");
            let back: ErrorCode = serde_json::from_value(json).unwrap();
            assert_eq!(back, code);
        }
    }

    #[test]
    fn every_exit_code_is_in_the_exit_table() {
        for &code in ErrorCode::ALL {
            assert!(
                exit::TABLE
                    .iter()
                    .any(|(known, _, _)| *known == code.exit_code()),
                "{code}: exit {} is not in exit::TABLE",
                code.exit_code()
            );
            assert_ne!(code.exit_code(), exit::SUCCESS, "{code}");
        }
    }

    #[test]
    fn all_lists_each_code_once_and_spellings_are_upper_snake() {
        let mut names: Vec<&str> = ErrorCode::ALL.iter().map(|code| code.as_str()).collect();
        assert!(names.iter().all(|name| {
            name.bytes()
                .all(|byte| byte.is_ascii_uppercase() || byte == b'_')
        }));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }

    #[test]
    fn every_variant_is_in_all() {
        // A new variant breaks this exhaustive match: add it here, to ALL
        // and to the count below.
        for &code in ErrorCode::ALL {
            match code {
                ErrorCode::ArgError
                | ErrorCode::InvalidAgentInput
                | ErrorCode::ConfirmationRequired
                | ErrorCode::InputRequired
                | ErrorCode::NotFound
                | ErrorCode::NoSkillsFound
                | ErrorCode::Precondition
                | ErrorCode::InvalidDeclaration
                | ErrorCode::InvalidSettings
                | ErrorCode::DuplicateCommand
                | ErrorCode::AuditLogUnwritable
                | ErrorCode::SandboxUnavailable
                | ErrorCode::ResultUnwritable
                | ErrorCode::ArgvUnsupported
                | ErrorCode::Conflict
                | ErrorCode::ClientSettingsInvalid
                | ErrorCode::UnsafeWrite
                | ErrorCode::InvalidSpec
                | ErrorCode::StdinTooLarge
                | ErrorCode::ValidationFailed
                | ErrorCode::InvalidSkill
                | ErrorCode::FormatFailed
                | ErrorCode::FormatCheckFailed
                | ErrorCode::FixIncomplete
                | ErrorCode::ExportIncomplete
                | ErrorCode::TokenBudgetExceeded
                | ErrorCode::AuditChainBroken
                | ErrorCode::BinaryNotFound
                | ErrorCode::InterpreterNotFound
                | ErrorCode::BinaryNotExecutable
                | ErrorCode::SpawnFailed
                | ErrorCode::CommandFailed
                | ErrorCode::CommandKilled
                | ErrorCode::Timeout
                | ErrorCode::Cancelled
                | ErrorCode::Interrupted
                | ErrorCode::McpServerFailed
                | ErrorCode::Internal
                | ErrorCode::GeneralError => {}
            }
        }
        assert_eq!(ErrorCode::ALL.len(), 39);
    }

    /// The spec's rule: a caller-correctable failure says what to fix; a
    /// retryable one has nothing to fix. No default is retryable.
    #[test]
    fn a_code_is_retryable_or_says_what_to_fix_never_both() {
        for &code in ErrorCode::ALL {
            assert!(
                !(code.retryable() && code.fix_required().is_some()),
                "{code}"
            );
        }
        for code in [
            ErrorCode::ArgError,
            ErrorCode::InvalidAgentInput,
            ErrorCode::NotFound,
            ErrorCode::ConfirmationRequired,
        ] {
            assert!(!code.retryable(), "{code}");
            assert!(code.fix_required().is_some(), "{code}");
        }
        assert_eq!(ErrorCode::CommandKilled.fix_required(), None);
    }

    #[test]
    fn phases_serialize_lowercase() {
        for phase in [Phase::Validation, Phase::Execution] {
            assert_eq!(serde_json::to_value(phase).unwrap(), phase.as_str());
        }
    }
}
