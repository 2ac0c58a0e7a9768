//! Codex's `PreToolUse` hook.
//!
//! Followed: developers.openai.com/codex/hooks (post-GA revision, hooks on
//! by default since Codex 0.124) and, where the page is silent, the parser
//! it describes, `codex-rs/hooks/src/engine/output_parser.rs` and
//! `events/pre_tool_use.rs` in openai/codex as of August 2026 (after pull
//! request 20527, "Support PreToolUse updatedInput rewrites", merged
//! 2026-05-12; pull request 20756, adding `allow`/`ask`, was closed
//! unmerged).
//!
//! The event: `session_id`, `turn_id`, `transcript_path`, `cwd`,
//! `hook_event_name: "PreToolUse"`, `model`, `permission_mode`,
//! `tool_name`, `tool_use_id`, `tool_input`. Every shell surface
//! (`shell`, `exec_command`, `local_shell`, …) reaches the hook as
//! `tool_name: "Bash"` with `tool_input: {"command": "…"}`; `apply_patch`
//! carries its patch in the same `command` field, and MCP tools are named
//! `mcp__server__tool`.
//!
//! What Codex does with an answer:
//!
//! - `permissionDecision: "deny"` with a non-empty reason blocks, as does
//!   exit code 2 with the reason on stderr (stdout is then not read).
//! - `"ask"` is unsupported: the hook run is marked failed and the call
//!   goes ahead. An aigent *ask* is therefore a deny whose reason tells the
//!   model to stop and ask the person.
//! - `"allow"` alone is unsupported the same way (failed, and the call goes
//!   through Codex's own approval policy); it is accepted only together
//!   with `updatedInput`, which replaces the tool input. So an aigent
//!   *allow* is no output at exit 0 (Codex's own policy decides), unless it
//!   carries a rewrite: then `allow` with `updatedInput`.
//! - defer: no output, exit 0.
//!
//! Codex appends the original command to the denial it shows ("Command
//! blocked by PreToolUse hook: REASON. Command: …", openai/codex issue
//! 32573); that text is Codex's, not aigent's.
//!
//! The model may give `exec_command` a `shell` (`/bin/sh`, dash, zsh,
//! PowerShell) and a `workdir`. Codex 0.153 builds the hook's
//! `tool_input` from the command alone (openai/codex issues 44836 and
//! 32360), so neither reaches the hook today; when one does, a `shell`
//! that is not bash is refused (aigent reads the line as bash reads it, and
//! dash or zsh read some lines otherwise), and `workdir` is where the
//! command runs.

use std::path::Path;

use serde_json::{Map, Value};

use super::{
    DENY_FALLBACK, EventError, Reply, ShellEvent, ToolKind, optional_reason, pre_tool_use_deny,
    pre_tool_use_output, read_pre_tool_use, reason_text, rewritten_input, shown_name,
};
use crate::hook::Client;
use crate::hook::verdict::{Decision, Verdict};

pub(super) const EVENT: &str = "PreToolUse";

/// Added to an aigent *ask*, which reaches Codex as a deny.
pub(super) const ASK_SUFFIX: &str = "aigent asks a person to approve this command before it runs, and Codex hooks cannot ask. Do not retry it or work around it: tell the user the exact command and why you need it, and let them run it themselves or allow it in aigent's hook policy.";

/// Codex names every shell surface `Bash` in hook events; the other names
/// are its internal tool names, accepted in case a version passes one
/// through. `apply_patch` (matcher aliases `Edit`, `Write`) holds a patch in
/// `command`, not a shell command line.
fn tool_kind(tool: &str) -> ToolKind {
    match tool {
        "Bash" | "shell" | "shell_command" | "local_shell" | "exec_command" | "container.exec" => {
            ToolKind::Shell
        }
        "apply_patch" | "Edit" | "Write" => ToolKind::NotShell,
        _ => ToolKind::Unknown,
    }
}

pub(super) fn read(object: &Map<String, Value>) -> Result<ShellEvent, EventError> {
    let mut event = read_pre_tool_use(object, Client::Codex, EVENT, tool_kind)?;
    let Value::Object(input) = &event.tool_input else {
        return Ok(event);
    };
    match input.get("shell") {
        None | Some(Value::Null) => {}
        Some(Value::String(shell)) if runs_bash(shell) => {}
        Some(Value::String(shell)) => {
            return Err(EventError::ShellNotBash {
                shell: shown_name(shell.rsplit('/').next().unwrap_or(shell)),
            });
        }
        Some(_) => {
            return Err(EventError::WrongType {
                field: "tool_input.shell",
                expected: "a string",
            });
        }
    }
    match input.get("workdir") {
        None | Some(Value::Null) => {}
        Some(Value::String(dir)) if dir.is_empty() => {}
        Some(Value::String(dir)) => {
            let dir = Path::new(dir);
            event.cwd = if dir.is_absolute() {
                Some(dir.to_path_buf())
            } else {
                event.cwd.map(|cwd| cwd.join(dir))
            };
        }
        Some(_) => {
            return Err(EventError::WrongType {
                field: "tool_input.workdir",
                expected: "a string",
            });
        }
    }
    Ok(event)
}

/// Whether `shell` (a path or a name) is bash.
fn runs_bash(shell: &str) -> bool {
    shell.rsplit('/').next() == Some("bash")
}

pub(super) fn reply(decision: &Decision, event: Option<&ShellEvent>) -> Reply {
    let Some(event) = event else {
        return pre_tool_use_deny(&reason_text(decision, DENY_FALLBACK));
    };
    match decision.verdict {
        Verdict::Allow => match rewritten_input(decision, Some(event)) {
            Some(input) => Reply::json(&pre_tool_use_output("allow", None, Some(input)), 0),
            None => Reply::silent(),
        },
        Verdict::Ask => pre_tool_use_deny(&match optional_reason(decision) {
            Some(reason) => format!("{reason}\n\n{ASK_SUFFIX}"),
            None => ASK_SUFFIX.to_string(),
        }),
        Verdict::Deny => pre_tool_use_deny(&reason_text(decision, DENY_FALLBACK)),
        Verdict::Defer => Reply::silent(),
    }
}
