//! Cursor's `beforeShellExecution` hook.
//!
//! Followed: cursor.com/docs/hooks ("Hook events: beforeShellExecution /
//! beforeMCPExecution", "Common schema"), the revision current in August
//! 2026 (Cursor 3.x: `timeout`, `failClosed`, exit code 2).
//!
//! The event is flat, no `tool_input`: `conversation_id`,
//! `generation_id`, `model`, `hook_event_name: "beforeShellExecution"`,
//! `cursor_version`, `workspace_roots`, `user_email`, then `command` (the
//! full terminal command) and `cwd`.
//!
//! The answer, on stdout at exit 0: `{"permission": "allow" | "deny" |
//! "ask", "user_message": …, "agent_message": …}`; `user_message` is shown
//! in the client, `agent_message` is sent to the agent.
//!
//! - allow: `"permission": "allow"`: the command runs without asking.
//! - ask: `"permission": "ask"` with both messages. Cursor's forum reports
//!   (topic 173694, Cursor 3.21) that in Auto-review mode an `ask` may run
//!   without a prompt; `deny` holds in every mode.
//! - deny: `"permission": "deny"` with both messages. Exit code 2 also
//!   blocks, but the JSON answer carries the messages.
//! - defer: Cursor has no "no opinion" answer. What it does with an empty
//!   answer is not documented, and with `failClosed: true` an answer
//!   without a permission is a failure; so *defer* is sent as `ask`, which
//!   is never looser than Cursor without the hook.
//! - rewrite: `beforeShellExecution` cannot change the command (only
//!   `preToolUse` takes `updated_input`), so a rewrite is dropped and the
//!   verdict is sent alone.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::{
    ASK_FALLBACK, DENY_FALLBACK, EventError, Reply, ShellEvent, command_from, cwd_field,
    event_name, reason_text, string_field,
};
use crate::hook::Client;
use crate::hook::verdict::{Decision, Verdict};

pub(super) const EVENT: &str = "beforeShellExecution";

/// The reason for a *defer* without one of its own.
const DEFER_FALLBACK: &str =
    "aigent's hook has no rule for this command, and Cursor's hook cannot defer: you decide";

pub(super) fn read(object: &Map<String, Value>) -> Result<ShellEvent, EventError> {
    let event_name = event_name(object, EVENT)?;
    let command = command_from(object.get("command"))?;
    let cwd = cwd_field(object)?;
    let mut tool_input = Map::new();
    tool_input.insert("command".into(), command.clone().into());
    if let Some(cwd) = &cwd {
        tool_input.insert("cwd".into(), cwd.clone().into());
    }
    Ok(ShellEvent {
        client: Client::Cursor,
        event_name,
        session_id: string_field(object, "conversation_id")?,
        tool_name: None,
        tool_use_id: None,
        command,
        cwd: cwd.map(PathBuf::from),
        tool_input: Value::Object(tool_input),
    })
}

pub(super) fn reply(decision: &Decision, event: Option<&ShellEvent>) -> Reply {
    if event.is_none() {
        return with_messages("deny", &reason_text(decision, DENY_FALLBACK));
    }
    match decision.verdict {
        Verdict::Allow => Reply::json(&json!({ "permission": "allow" }), 0),
        Verdict::Ask => with_messages("ask", &reason_text(decision, ASK_FALLBACK)),
        Verdict::Deny => with_messages("deny", &reason_text(decision, DENY_FALLBACK)),
        Verdict::Defer => with_messages("ask", &reason_text(decision, DEFER_FALLBACK)),
    }
}

fn with_messages(permission: &str, reason: &str) -> Reply {
    Reply::json(
        &json!({
            "permission": permission,
            "user_message": reason,
            "agent_message": reason,
        }),
        0,
    )
}
