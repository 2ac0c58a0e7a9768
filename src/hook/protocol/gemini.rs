//! Gemini CLI's `BeforeTool` hook.
//!
//! Followed: the hooks reference, geminicli.com/docs/hooks/reference
//! (docs/hooks/reference.md in google-gemini/gemini-cli, as of 2026-08-21,
//! v0.56 nightly) and, where the page is silent, the code it describes:
//! `packages/core/src/hooks/{types,hookRunner,hookAggregator}.ts` and
//! `packages/core/src/scheduler/{hook-utils,scheduler}.ts`.
//!
//! The event: `session_id`, `transcript_path`, `cwd`,
//! `hook_event_name: "BeforeTool"`, `timestamp`, `tool_name`, `tool_input`
//! (and `mcp_context`, `original_request_name` for some tools). The shell
//! tool is `run_shell_command`, its input `command`, `description`,
//! `dir_path` (where it runs, relative to the workspace), `is_background`.
//!
//! The answer, on stdout at exit 0: `{"decision": …, "reason": …,
//! "systemMessage": …, "hookSpecificOutput": {"hookEventName":
//! "BeforeTool", "tool_input": {…}}}`.
//!
//! - deny: `"decision": "deny"` with `reason`, which is sent to the model
//!   as the tool's error. Exit code 2 would block too, but Gemini CLI then
//!   also reports the hook as failed, so the JSON answer is used.
//! - ask: `"decision": "ask"` forces the confirmation prompt, showing
//!   `systemMessage` (honoured for `BeforeTool` since v0.36, pull request
//!   21146; the reference page lists only allow and deny, and an older
//!   version treats `ask` as no objection).
//! - allow: `"decision": "allow"`. Gemini CLI has no way for a hook to skip
//!   its own confirmation: allow means no objection, and Gemini CLI's
//!   policy still decides whether to ask.
//! - defer: no output, exit 0. (With stdout empty Gemini CLI reads stderr
//!   instead, so nothing is written there either.)
//! - rewrite: `hookSpecificOutput.tool_input` replaces the tool's
//!   arguments (the page says it merges; the code rebuilds the call from
//!   it), so it holds every original field with `command` changed. It is
//!   applied with allow and ask.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::{
    ASK_FALLBACK, DENY_FALLBACK, EventError, Reply, ShellEvent, ToolKind, cwd_field, event_name,
    optional_reason, reason_text, rewritten_input, string_field, tool_command,
};
use crate::hook::Client;
use crate::hook::verdict::{Decision, Verdict};

pub(super) const EVENT: &str = "BeforeTool";

/// Gemini CLI's shell tool; the others are its built-in tools that run no
/// shell command line.
fn tool_kind(tool: &str) -> ToolKind {
    match tool {
        "run_shell_command" => ToolKind::Shell,
        "read_file"
        | "read_many_files"
        | "write_file"
        | "replace"
        | "edit"
        | "glob"
        | "grep_search"
        | "search_file_content"
        | "list_directory"
        | "web_fetch"
        | "google_web_search"
        | "save_memory"
        | "write_todos" => ToolKind::NotShell,
        _ => ToolKind::Unknown,
    }
}

pub(super) fn read(object: &Map<String, Value>) -> Result<ShellEvent, EventError> {
    let event_name = event_name(object, EVENT)?;
    let tool_name = string_field(object, "tool_name")?;
    let tool_input = object.get("tool_input").cloned().unwrap_or(Value::Null);
    let command = tool_command(tool_name.as_deref(), &tool_input, tool_kind)?;
    let cwd = cwd_field(object)?.map(PathBuf::from);
    let dir_path = match tool_input.get("dir_path") {
        Some(Value::String(dir)) if !dir.is_empty() => Some(dir.as_str()),
        _ => None,
    };
    Ok(ShellEvent {
        client: Client::Gemini,
        event_name,
        session_id: string_field(object, "session_id")?,
        tool_name,
        tool_use_id: None,
        command,
        cwd: run_dir(cwd.as_deref(), dir_path),
        tool_input,
    })
}

/// Where the command runs: `dir_path` joined to the session's `cwd` (an
/// absolute `dir_path` stands alone). Lexical only: nothing is resolved on
/// disk, and `..` stays as written for the policy to judge.
pub(super) fn run_dir(cwd: Option<&Path>, dir_path: Option<&str>) -> Option<PathBuf> {
    match (cwd, dir_path) {
        (_, Some(dir)) if Path::new(dir).is_absolute() => Some(PathBuf::from(dir)),
        (Some(cwd), Some(dir)) => Some(cwd.join(dir)),
        (cwd, _) => cwd.map(Path::to_path_buf),
    }
}

pub(super) fn reply(decision: &Decision, event: Option<&ShellEvent>) -> Reply {
    let Some(event) = event else {
        return deny(decision);
    };
    let rewrite = || {
        rewritten_input(decision, Some(event))
            .map(|input| json!({ "hookEventName": EVENT, "tool_input": input }))
    };
    match decision.verdict {
        Verdict::Allow => {
            let mut answer = Map::new();
            answer.insert("decision".into(), "allow".into());
            if let Some(output) = rewrite() {
                answer.insert("hookSpecificOutput".into(), output);
            }
            Reply::json(&Value::Object(answer), 0)
        }
        Verdict::Ask => {
            let mut answer = Map::new();
            answer.insert("decision".into(), "ask".into());
            answer.insert(
                "systemMessage".into(),
                reason_text(decision, ASK_FALLBACK).into(),
            );
            if let Some(output) = rewrite() {
                answer.insert("hookSpecificOutput".into(), output);
            }
            Reply::json(&Value::Object(answer), 0)
        }
        Verdict::Deny => deny(decision),
        Verdict::Defer => Reply::silent(),
    }
}

fn deny(decision: &Decision) -> Reply {
    let reason = optional_reason(decision).unwrap_or_else(|| DENY_FALLBACK.to_string());
    Reply::json(&json!({ "decision": "deny", "reason": reason }), 0)
}
