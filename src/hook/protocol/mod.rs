//! The clients' own hook protocols: one shell-command event read from the
//! hook's stdin ([`read_event`]), and the hook's answer put into what that
//! client expects on stdout, stderr and the exit code ([`reply`]).
//!
//! One file per client holds its event shape and its answer, with the
//! client documentation it follows named at the top; docs/hooks.md ("What
//! each client is told") sets the four side by side.
//!
//! Every event is hostile input. Reading one is bounded
//! ([`MAX_EVENT_BYTES`]), never panics, rejects what a client would never
//! send (invalid UTF-8, a key given twice, a NUL byte in the command), and
//! its errors say what was wrong without quoting the payload. A tool that
//! is not a shell is [`EventError::NotShell`]; an unknown tool whose input
//! still carries a `command` string is judged as a shell command, so that a
//! renamed shell tool fails closed rather than open.

mod claude_code;
mod codex;
mod cursor;
mod gemini;
mod strict;

use std::io::Read;
use std::path::PathBuf;

use serde_json::{Map, Value};

use super::Client;
use super::verdict::Decision;

/// The largest event the hook reads: a 1 MiB command, JSON-escaped (up to
/// twice its size for quotes and backslashes), plus the client's metadata.
pub const MAX_EVENT_BYTES: usize = 2 * 1024 * 1024 + 64 * 1024;

/// The longest reason put into a reply, in bytes. Clients show it to the
/// person or the model; Claude Code moves strings over 10,000 characters
/// into a file. A longer reason is cut at a character boundary and marked.
pub const MAX_REASON_BYTES: usize = 8 * 1024;

/// One shell-command event from a client, read from the hook's stdin.
#[derive(Debug, Clone, PartialEq)]
pub struct ShellEvent {
    pub client: Client,
    /// The event's name as the client sent it (`PreToolUse`, `BeforeTool`,
    /// `beforeShellExecution`), when it sent one.
    pub event_name: Option<String>,
    /// The client's session: Claude Code's, Codex's and Gemini CLI's
    /// `session_id`, Cursor's `conversation_id`.
    pub session_id: Option<String>,
    /// The tool's name (`Bash`, `run_shell_command`); Cursor's
    /// `beforeShellExecution` names none.
    pub tool_name: Option<String>,
    /// The tool call's id (Claude Code's and Codex's `tool_use_id`).
    pub tool_use_id: Option<String>,
    /// The shell command line the agent proposes.
    pub command: String,
    /// The directory the command runs in, as the event tells it: the
    /// client's `cwd`, joined (lexically) with Gemini CLI's `dir_path`.
    pub cwd: Option<PathBuf>,
    /// The original tool input, kept whole so that a rewrite changes the
    /// command and nothing else. Cursor has no tool input: there it is
    /// `{"command": …}` with `cwd` when the event has one.
    pub tool_input: Value,
}

/// Why an event could not be read. `Display` says what was wrong, never
/// what the payload held (a tool's name is shown only when it looks like
/// one).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("the hook received no event on stdin")]
    Empty,
    #[error("the event could not be read from stdin: {0}")]
    Unreadable(String),
    #[error("the event is larger than the {limit} bytes the hook reads")]
    TooLarge { limit: usize },
    #[error("the event is not valid UTF-8 (byte {offset})")]
    NotUtf8 { offset: usize },
    #[error("the event is not valid JSON ({problem}, line {line}, column {column})")]
    Malformed {
        problem: &'static str,
        line: usize,
        column: usize,
    },
    #[error("the event is not a JSON object")]
    NotObject,
    #[error("the event is {event}, not {expected}, the event aigent's hook answers")]
    UnexpectedEvent {
        event: String,
        expected: &'static str,
    },
    #[error("the event's `{field}` is not {expected}")]
    WrongType {
        field: &'static str,
        expected: &'static str,
    },
    #[error("the event has no command")]
    MissingCommand,
    #[error("the event's command is not a string")]
    CommandNotString,
    #[error("the command holds a NUL byte, which no shell command line can")]
    NulInCommand,
    #[error(
        "the tool {tool} does not run a POSIX shell command line, and aigent's hook judges only those"
    )]
    NotShell { tool: String },
    #[error(
        "the command would run in the shell {shell}, not bash; aigent's hook reads a command line as bash does, and another shell reads some lines otherwise: run it without naming a shell"
    )]
    ShellNotBash { shell: String },
}

impl EventError {
    /// A stable name for the audit record and the hook's rule.
    pub const fn rule(&self) -> &'static str {
        match self {
            Self::Empty => "event_empty",
            Self::Unreadable(_) => "event_unreadable",
            Self::TooLarge { .. } => "event_too_large",
            Self::NotUtf8 { .. } => "event_not_utf8",
            Self::Malformed { .. } => "event_malformed",
            Self::NotObject => "event_not_object",
            Self::UnexpectedEvent { .. } => "event_unexpected",
            Self::WrongType { .. } => "event_wrong_type",
            Self::MissingCommand => "event_missing_command",
            Self::CommandNotString => "event_command_not_string",
            Self::NulInCommand => "event_nul_in_command",
            Self::NotShell { .. } => "tool_not_shell",
            Self::ShellNotBash { .. } => "shell_not_bash",
        }
    }
}

/// Reads stdin (or any reader) up to [`MAX_EVENT_BYTES`] and one byte more,
/// so that an oversize event is refused without reading it all.
pub fn read_input(reader: impl Read) -> Result<Vec<u8>, EventError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_EVENT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| EventError::Unreadable(error.to_string()))?;
    if bytes.len() > MAX_EVENT_BYTES {
        return Err(EventError::TooLarge {
            limit: MAX_EVENT_BYTES,
        });
    }
    Ok(bytes)
}

/// Reads one event. Never panics; bounded by [`MAX_EVENT_BYTES`].
pub fn read_event(client: Client, input: &[u8]) -> Result<ShellEvent, EventError> {
    let object = parse_object(input)?;
    match client {
        Client::ClaudeCode => claude_code::read(&object),
        Client::Codex => codex::read(&object),
        Client::Gemini => gemini::read(&object),
        Client::Cursor => cursor::read(&object),
    }
}

/// What the hook prints and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Exactly one JSON object and a newline, or nothing.
    pub stdout: String,
    pub stderr: String,
    pub exit_code: u8,
}

impl Reply {
    /// No output, exit 0: the client goes on as though the hook had no
    /// opinion.
    fn silent() -> Self {
        Self {
            stdout: String::new(),
            stderr: String::new(),
            exit_code: 0,
        }
    }

    fn json(value: &Value, exit_code: u8) -> Self {
        Self {
            stdout: format!("{value}\n"),
            stderr: String::new(),
            exit_code,
        }
    }
}

/// The client's own protocol for `decision`. `event` is `None` when the
/// event could not be read; then the decision is a deny of the bad input,
/// and any rewrite is ignored.
pub fn reply(client: Client, decision: &Decision, event: Option<&ShellEvent>) -> Reply {
    match client {
        Client::ClaudeCode => claude_code::reply(decision, event),
        Client::Codex => codex::reply(decision, event),
        Client::Gemini => gemini::reply(decision, event),
        Client::Cursor => cursor::reply(decision, event),
    }
}

/// The event's bytes as a JSON object: UTF-8 (a leading byte-order mark is
/// dropped), one value, no key twice, nesting within serde_json's limit.
fn parse_object(input: &[u8]) -> Result<Map<String, Value>, EventError> {
    if input.len() > MAX_EVENT_BYTES {
        return Err(EventError::TooLarge {
            limit: MAX_EVENT_BYTES,
        });
    }
    let text = std::str::from_utf8(input).map_err(|error| EventError::NotUtf8 {
        offset: error.valid_up_to(),
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(EventError::Empty);
    }
    match strict::from_str(text)? {
        Value::Object(object) => Ok(object),
        _ => Err(EventError::NotObject),
    }
}

/// A string field, absent and `null` alike being `None`; any other type is
/// an error, since a client never sends one.
fn string_field(
    object: &Map<String, Value>,
    key: &'static str,
) -> Result<Option<String>, EventError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(EventError::WrongType {
            field: key,
            expected: "a string",
        }),
    }
}

/// The event's `cwd`; an empty one is no directory at all.
fn cwd_field(object: &Map<String, Value>) -> Result<Option<String>, EventError> {
    Ok(string_field(object, "cwd")?.filter(|cwd| !cwd.is_empty()))
}

/// Checks `hook_event_name` against the event aigent's entry is installed
/// for. An event that names none is read as that event (older clients and
/// hand-made test events leave it out).
fn event_name(
    object: &Map<String, Value>,
    expected: &'static str,
) -> Result<Option<String>, EventError> {
    let name = string_field(object, "hook_event_name")?;
    match &name {
        Some(name) if name != expected => Err(EventError::UnexpectedEvent {
            event: shown_name(name),
            expected,
        }),
        _ => Ok(name),
    }
}

/// The command line: a string without NUL bytes.
fn command_from(value: Option<&Value>) -> Result<String, EventError> {
    match value {
        None | Some(Value::Null) => Err(EventError::MissingCommand),
        Some(Value::String(command)) if command.contains('\0') => Err(EventError::NulInCommand),
        Some(Value::String(command)) => Ok(command.clone()),
        Some(_) => Err(EventError::CommandNotString),
    }
}

/// How a tool is judged, for clients whose event covers every tool.
enum ToolKind {
    Shell,
    NotShell,
    Unknown,
}

/// A `PreToolUse` event, which Claude Code and Codex shape alike; `kind`
/// tells the client's shell tools from its others.
fn read_pre_tool_use(
    object: &Map<String, Value>,
    client: Client,
    expected_event: &'static str,
    kind: impl Fn(&str) -> ToolKind,
) -> Result<ShellEvent, EventError> {
    let event_name = event_name(object, expected_event)?;
    let tool_name = string_field(object, "tool_name")?;
    let tool_input = object.get("tool_input").cloned().unwrap_or(Value::Null);
    let command = tool_command(tool_name.as_deref(), &tool_input, kind)?;
    Ok(ShellEvent {
        client,
        event_name,
        session_id: string_field(object, "session_id")?,
        tool_name,
        tool_use_id: string_field(object, "tool_use_id")?,
        command,
        cwd: cwd_field(object)?.map(Into::into),
        tool_input,
    })
}

/// The command of a tool-call event (Claude Code, Codex, Gemini CLI): a
/// known shell tool's `tool_input.command`; for an unknown tool, its
/// `command` string when it has one (fail closed); otherwise `NotShell`.
fn tool_command(
    tool_name: Option<&str>,
    tool_input: &Value,
    kind: impl Fn(&str) -> ToolKind,
) -> Result<String, EventError> {
    let input = match tool_input {
        Value::Object(input) => Some(input),
        Value::Null => None,
        _ => {
            return Err(EventError::WrongType {
                field: "tool_input",
                expected: "an object",
            });
        }
    };
    let command = input.and_then(|input| input.get("command"));
    match tool_name.map_or(ToolKind::Unknown, kind) {
        ToolKind::Shell => command_from(command),
        ToolKind::NotShell => Err(not_shell(tool_name)),
        ToolKind::Unknown => match command {
            Some(Value::String(_)) => command_from(command),
            _ => Err(not_shell(tool_name)),
        },
    }
}

fn not_shell(tool_name: Option<&str>) -> EventError {
    EventError::NotShell {
        tool: tool_name.map_or_else(|| "without a name".to_string(), shown_name),
    }
}

/// A name from the payload, shown in a message only when it looks like a
/// tool or event name: short, ASCII letters, digits and `_ - . :`.
fn shown_name(name: &str) -> String {
    let looks_like_a_name = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"_-.:".contains(&byte));
    if looks_like_a_name {
        format!("`{name}`")
    } else {
        "with an unusual name".to_string()
    }
}

/// The tool input with its `command` replaced and every other field kept,
/// for clients that take a rewritten input. `None` when there is nothing to
/// rewrite (no rewrite asked for, no event, or an input that is not an
/// object).
fn rewritten_input(decision: &Decision, event: Option<&ShellEvent>) -> Option<Value> {
    let command = decision.rewritten_command.as_ref()?;
    let Value::Object(input) = &event?.tool_input else {
        return None;
    };
    let mut input = input.clone();
    input.insert("command".to_string(), Value::String(command.clone()));
    Some(Value::Object(input))
}

/// The decision's reason as put into a reply: never empty, at most
/// [`MAX_REASON_BYTES`].
fn reason_text(decision: &Decision, fallback: &str) -> String {
    let reason = decision.reason.trim();
    if reason.is_empty() {
        return fallback.to_string();
    }
    truncate(reason, MAX_REASON_BYTES)
}

/// The reason when there is one, for answers where it is optional.
fn optional_reason(decision: &Decision) -> Option<String> {
    let reason = decision.reason.trim();
    (!reason.is_empty()).then(|| truncate(reason, MAX_REASON_BYTES))
}

fn truncate(text: &str, max: usize) -> String {
    const MARK: &str = " … (truncated)";
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max.saturating_sub(MARK.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{MARK}", &text[..end])
}

/// Text for stderr, which a client may show on a terminal: control
/// characters other than newline and tab become U+FFFD, so a reason cannot
/// carry escape sequences.
fn terminal_safe(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect()
}

/// Claude Code and Codex share the `PreToolUse` answer shape
/// (`hookSpecificOutput.permissionDecision`).
fn pre_tool_use_output(
    decision: &str,
    reason: Option<&str>,
    updated_input: Option<Value>,
) -> Value {
    let mut output = Map::new();
    output.insert("hookEventName".into(), "PreToolUse".into());
    output.insert("permissionDecision".into(), decision.into());
    if let Some(reason) = reason {
        output.insert("permissionDecisionReason".into(), reason.into());
    }
    if let Some(input) = updated_input {
        output.insert("updatedInput".into(), input);
    }
    let mut reply = Map::new();
    reply.insert("hookSpecificOutput".into(), Value::Object(output));
    Value::Object(reply)
}

/// A `PreToolUse` deny that blocks twice over: the JSON decision carries
/// the reason to the model, and exit code 2 with the reason on stderr
/// blocks even where the JSON is not read (Claude Code: exit 2 blocks
/// whatever the JSON says; Codex: exit 2 reads stderr only and needs it
/// non-empty).
fn pre_tool_use_deny(reason: &str) -> Reply {
    Reply {
        stdout: format!("{}\n", pre_tool_use_output("deny", Some(reason), None)),
        stderr: format!("{}\n", terminal_safe(reason)),
        exit_code: 2,
    }
}

const DENY_FALLBACK: &str = "aigent's hook denied this command";
const ASK_FALLBACK: &str = "aigent's hook asks you to approve this command";

#[cfg(test)]
mod tests;
