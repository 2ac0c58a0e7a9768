//! Claude Code's `PreToolUse` hook.
//!
//! Followed: the hooks reference, code.claude.com/docs/en/hooks, as
//! published on 2026-08-22 (Claude Code v2.1.23x; "PreToolUse input",
//! "PreToolUse decision control", "Exit code output").
//!
//! The event: `session_id`, `transcript_path`, `cwd`, `permission_mode`,
//! `hook_event_name: "PreToolUse"`, `tool_name`, `tool_input`,
//! `tool_use_id`. The `Bash` tool's input is `command`, `description`,
//! `timeout`, `run_in_background`.
//!
//! The answer, on stdout at exit 0 unless said otherwise:
//! `{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//! "permissionDecision": …, "permissionDecisionReason": …,
//! "updatedInput": …}}`.
//!
//! - allow: `"allow"` skips the permission prompt (Claude Code's own deny
//!   and ask rules still apply); the reason is shown to the person.
//! - ask: `"ask"` prompts the person, with the reason.
//! - deny: `"deny"`, the reason goes to Claude; and exit code 2 with the
//!   reason on stderr, which blocks even if the JSON were not read ("exit 2
//!   blocks whether or not you print JSON").
//! - defer: no output, exit 0 ("no decision to report": the normal
//!   permission flow). Claude Code's own `"defer"` is something else: it
//!   pauses a `claude -p` run for an SDK host to resume, and interactive
//!   sessions ignore it with a warning.
//! - rewrite: `updatedInput` replaces the whole tool input, so it holds
//!   every field of the original with `command` changed; it is honoured
//!   with allow and ask.

use serde_json::{Map, Value};

use super::{
    ASK_FALLBACK, DENY_FALLBACK, EventError, Reply, ShellEvent, ToolKind, optional_reason,
    pre_tool_use_deny, pre_tool_use_output, read_pre_tool_use, reason_text, rewritten_input,
};
use crate::hook::Client;
use crate::hook::verdict::{Decision, Verdict};

pub(super) const EVENT: &str = "PreToolUse";

/// Claude Code's shell tool. `PowerShell` also carries a `command`, but in
/// another language than the one aigent parses, so it is not judged as one.
fn tool_kind(tool: &str) -> ToolKind {
    match tool {
        "Bash" => ToolKind::Shell,
        "PowerShell" | "Edit" | "MultiEdit" | "Write" | "Read" | "Glob" | "Grep" | "LS"
        | "NotebookEdit" | "NotebookRead" | "WebFetch" | "WebSearch" | "Agent" | "Task"
        | "TodoWrite" | "AskUserQuestion" | "ExitPlanMode" => ToolKind::NotShell,
        _ => ToolKind::Unknown,
    }
}

pub(super) fn read(object: &Map<String, Value>) -> Result<ShellEvent, EventError> {
    read_pre_tool_use(object, Client::ClaudeCode, EVENT, tool_kind)
}

pub(super) fn reply(decision: &Decision, event: Option<&ShellEvent>) -> Reply {
    let Some(event) = event else {
        return pre_tool_use_deny(&reason_text(decision, DENY_FALLBACK));
    };
    match decision.verdict {
        Verdict::Allow => Reply::json(
            &pre_tool_use_output(
                "allow",
                optional_reason(decision).as_deref(),
                rewritten_input(decision, Some(event)),
            ),
            0,
        ),
        Verdict::Ask => Reply::json(
            &pre_tool_use_output(
                "ask",
                Some(&reason_text(decision, ASK_FALLBACK)),
                rewritten_input(decision, Some(event)),
            ),
            0,
        ),
        Verdict::Deny => pre_tool_use_deny(&reason_text(decision, DENY_FALLBACK)),
        Verdict::Defer => Reply::silent(),
    }
}
