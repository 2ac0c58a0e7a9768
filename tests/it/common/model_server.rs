//! A fake model server on 127.0.0.1 for the real-client tests
//! (`tests/it/real_clients/`): it speaks the three wire formats the clients
//! stream from, each by its own path, so one server serves every client:
//!
//! - Anthropic Messages (`POST /v1/messages`, Server-Sent Events when the
//!   request says `stream`), as Claude Code calls it;
//! - OpenAI Responses (`POST …/responses`, Server-Sent Events), as Codex does;
//! - Gemini `generateContent` and `streamGenerateContent?alt=sse`, as Gemini
//!   CLI does.
//!
//! A case's prompt carries its id and the one shell command the model is to
//! propose ([`prompt`]). The first turn of a conversation that offers the
//! client's shell tool gets one tool call with that command; a request that
//! already holds the tool's result ends the turn with a short text. Every
//! request is logged with its case, so a test reads what the model was told
//! ([`ModelServer::tool_results`]).
//!
//! The HTTP/1.1 is hand-rolled on `std::net`: a thread per connection,
//! keep-alive, `Content-Length` or chunked request bodies, and a whole
//! response with its `Content-Length` (a streamed body written at once is
//! still a stream to the client's SSE parser).

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

/// The largest request body read (Claude Code's first request, with its
/// system prompt and tool schemas, is about 100 KB).
const MAX_BODY: usize = 16 * 1024 * 1024;

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Logged {
    pub path: String,
    pub body: Value,
    /// The case id found in the body's prompt, if any.
    pub case: Option<String>,
    /// Whether the answer was the tool call.
    pub proposed: bool,
}

pub struct ModelServer {
    addr: SocketAddr,
    log: Arc<Mutex<Vec<Logged>>>,
}

/// The prompt for case `id`: the server proposes `command`, word for word.
pub fn prompt(id: &str, command: &str) -> String {
    format!(
        "aigent test case [[{id}]]: run exactly this shell command once and stop: <<<{command}>>>"
    )
}

impl ModelServer {
    /// Listens on an ephemeral port of 127.0.0.1; the server lives as long
    /// as the test process.
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the fake model server");
        let addr = listener.local_addr().expect("its address");
        let log = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&log);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let log = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &log));
            }
        });
        Self { addr, log }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request logged for case `id`, in the order received.
    pub fn requests(&self, id: &str) -> Vec<Logged> {
        self.log
            .lock()
            .expect("log lock")
            .iter()
            .filter(|logged| logged.case.as_deref() == Some(id))
            .cloned()
            .collect()
    }

    /// Whether the server proposed the case's command to the client.
    pub fn proposed(&self, id: &str) -> bool {
        self.requests(id).iter().any(|logged| logged.proposed)
    }

    /// What the model was told back about its tool call, in each client's
    /// format made plain text: the tool result's text (Anthropic), the
    /// function call's output (OpenAI), the function response (Gemini).
    pub fn tool_results(&self, id: &str) -> Vec<String> {
        let mut results: Vec<String> = Vec::new();
        for logged in self.requests(id) {
            for text in tool_results(&logged.body) {
                if !results.contains(&text) {
                    results.push(text);
                }
            }
        }
        results
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Logged>>) {
    // A client that goes quiet is dropped rather than holding a thread.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(120)));
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    loop {
        let Some(request) = read_request(&mut reader) else {
            return;
        };
        let (status, content_type, body) = answer(&request, log);
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\ncache-control: no-cache\r\n\r\n",
            body.len()
        );
        if writer.write_all(head.as_bytes()).is_err() || writer.write_all(&body).is_err() {
            return;
        }
        let _ = writer.flush();
        if request.close {
            return;
        }
    }
}

struct Request {
    method: String,
    path: String,
    body: Vec<u8>,
    close: bool,
}

fn read_request(reader: &mut impl BufRead) -> Option<Request> {
    let mut line = String::new();
    // Blank lines between requests are allowed (RFC 9112 2.2).
    while line.trim().is_empty() {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut length = 0usize;
    let mut chunked = false;
    let mut close = false;
    let mut header_bytes = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        header_bytes += header.len();
        if header_bytes > 256 * 1024 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse().ok()?,
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "connection" => close = value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    let body = if chunked {
        read_chunked(reader)?
    } else {
        if length > MAX_BODY {
            return None;
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).ok()?;
        body
    };
    Some(Request {
        method,
        path,
        body,
        close,
    })
}

fn read_chunked(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).ok()?;
        let size = usize::from_str_radix(size.trim().split(';').next()?.trim(), 16).ok()?;
        if body.len() + size > MAX_BODY {
            return None;
        }
        if size == 0 {
            // Trailers, then the blank line.
            loop {
                let mut trailer = String::new();
                if reader.read_line(&mut trailer).ok()? == 0 || trailer.trim().is_empty() {
                    return Some(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..]).ok()?;
        let mut end = [0u8; 2];
        reader.read_exact(&mut end).ok()?;
    }
}

/// The wire format a request speaks, by its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wire {
    Anthropic,
    OpenAi,
    Gemini { stream: bool },
}

fn wire(path: &str) -> Option<Wire> {
    let route = path.split('?').next().unwrap_or(path);
    if route.ends_with("/v1/messages") {
        Some(Wire::Anthropic)
    } else if route.ends_with("/responses") {
        Some(Wire::OpenAi)
    } else if route.ends_with(":streamGenerateContent") {
        Some(Wire::Gemini { stream: true })
    } else if route.ends_with(":generateContent") {
        Some(Wire::Gemini { stream: false })
    } else {
        None
    }
}

fn answer(request: &Request, log: &Mutex<Vec<Logged>>) -> (&'static str, &'static str, Vec<u8>) {
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let route = request.path.split('?').next().unwrap_or(&request.path);
    let Some(wire) = wire(&request.path).filter(|_| request.method == "POST") else {
        let status = if route.ends_with("/count_tokens") || route.ends_with(":countTokens") {
            return (
                "200 OK",
                "application/json",
                br#"{"input_tokens": 1, "totalTokens": 1}"#.to_vec(),
            );
        } else {
            "404 Not Found"
        };
        return (status, "application/json", b"{}".to_vec());
    };
    let case = case_of(&body);
    let command = case.as_ref().map(|(_, command)| command.clone());
    let propose = command.is_some() && tool_results(&body).is_empty() && offers_shell(wire, &body);
    log.lock().expect("log lock").push(Logged {
        path: request.path.clone(),
        body: body.clone(),
        case: case.map(|(id, _)| id),
        proposed: propose,
    });
    let call = if propose { command } else { None };
    match wire {
        Wire::Anthropic => anthropic(&body, call.as_deref()),
        Wire::OpenAi => openai(&body, call.as_deref()),
        Wire::Gemini { stream } => gemini(stream, call.as_deref()),
    }
}

/// The case id and command in the request's prompt: the first string in
/// the body (in document order) holding both markers.
fn case_of(body: &Value) -> Option<(String, String)> {
    let mut found = None;
    walk_strings(body, &mut |text| {
        if found.is_some() {
            return;
        }
        let id = between(text, "[[", "]]");
        let command = between(text, "<<<", ">>>");
        if let (Some(id), Some(command)) = (id, command) {
            found = Some((id.to_owned(), command.to_owned()));
        }
    });
    found
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = start + text[start..].find(close)?;
    Some(&text[start..end])
}

fn walk_strings(value: &Value, visit: &mut impl FnMut(&str)) {
    match value {
        Value::String(text) => visit(text),
        Value::Array(items) => items.iter().for_each(|item| walk_strings(item, visit)),
        Value::Object(map) => map.values().for_each(|item| walk_strings(item, visit)),
        _ => {}
    }
}

/// The names of the tools a request offers, in any of the three formats.
fn tool_names(body: &Value) -> Vec<String> {
    let mut names = Vec::new();
    for tool in body["tools"].as_array().into_iter().flatten() {
        if let Some(name) = tool["name"].as_str() {
            names.push(name.to_owned());
        }
        for declaration in tool["functionDeclarations"]
            .as_array()
            .into_iter()
            .flatten()
        {
            if let Some(name) = declaration["name"].as_str() {
                names.push(name.to_owned());
            }
        }
    }
    names
}

fn offers_shell(wire: Wire, body: &Value) -> bool {
    let names = tool_names(body);
    let has = |name: &str| names.iter().any(|offered| offered == name);
    match wire {
        Wire::Anthropic => has("Bash"),
        Wire::OpenAi => has("exec_command") || has("shell_command") || has("shell"),
        Wire::Gemini { .. } => has("run_shell_command"),
    }
}

/// The tool results a request carries back to the model, as text.
fn tool_results(body: &Value) -> Vec<String> {
    let mut results = Vec::new();
    // Anthropic: user messages with `tool_result` blocks.
    for message in body["messages"].as_array().into_iter().flatten() {
        for block in message["content"].as_array().into_iter().flatten() {
            if block["type"] == "tool_result" {
                results.push(text_of(&block["content"]));
            }
        }
    }
    // OpenAI Responses: `function_call_output` items.
    for item in body["input"].as_array().into_iter().flatten() {
        if matches!(
            item["type"].as_str(),
            Some("function_call_output" | "custom_tool_call_output")
        ) {
            results.push(text_of(&item["output"]));
        }
    }
    // Gemini: `functionResponse` parts.
    for content in body["contents"].as_array().into_iter().flatten() {
        for part in content["parts"].as_array().into_iter().flatten() {
            if let Some(response) = part.get("functionResponse") {
                results.push(text_of(&response["response"]));
            }
        }
    }
    results
}

/// A tool result's text: a string as it is, text blocks joined, any other
/// JSON as its text.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .map(|block| {
                block["text"]
                    .as_str()
                    .map_or_else(|| block.to_string(), str::to_owned)
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(map) => match (map.get("output"), map.get("error")) {
            (Some(Value::String(output)), None) => output.clone(),
            (None, Some(Value::String(error))) => error.clone(),
            _ => value.to_string(),
        },
        other => other.to_string(),
    }
}

fn sse(events: &[Value], named: bool) -> Vec<u8> {
    let mut out = String::new();
    for event in events {
        if named {
            out.push_str(&format!(
                "event: {}\n",
                event["type"].as_str().unwrap_or("message")
            ));
        }
        out.push_str(&format!("data: {event}\n\n"));
    }
    out.into_bytes()
}

const SSE: &str = "text/event-stream";

fn anthropic(request: &Value, call: Option<&str>) -> (&'static str, &'static str, Vec<u8>) {
    let model = request["model"].as_str().unwrap_or("claude-fake");
    let usage = json!({"input_tokens": 1, "output_tokens": 1});
    let (block, delta, stop) = match call {
        Some(command) => (
            json!({"type": "tool_use", "id": "toolu_aigent_case", "name": "Bash", "input": {}}),
            json!({"type": "input_json_delta", "partial_json":
                json!({"command": command, "description": "aigent test case"}).to_string()}),
            "tool_use",
        ),
        None => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": "done"}),
            "end_turn",
        ),
    };
    if request["stream"] != Value::Bool(true) {
        let content = match call {
            Some(command) => json!([{"type": "tool_use", "id": "toolu_aigent_case", "name": "Bash",
                "input": {"command": command, "description": "aigent test case"}}]),
            None => json!([{"type": "text", "text": "done"}]),
        };
        let message = json!({"id": "msg_aigent", "type": "message", "role": "assistant",
            "model": model, "content": content, "stop_reason": stop, "stop_sequence": null,
            "usage": usage});
        return (
            "200 OK",
            "application/json",
            message.to_string().into_bytes(),
        );
    }
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_aigent", "type": "message",
            "role": "assistant", "model": model, "content": [], "stop_reason": null,
            "stop_sequence": null, "usage": usage}}),
        json!({"type": "content_block_start", "index": 0, "content_block": block}),
        json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
            "usage": {"output_tokens": 1}}),
        json!({"type": "message_stop"}),
    ];
    ("200 OK", SSE, sse(&events, true))
}

fn openai(request: &Value, call: Option<&str>) -> (&'static str, &'static str, Vec<u8>) {
    let names = tool_names(request);
    let item = match call {
        Some(command) if names.iter().any(|name| name == "exec_command") => json!({
            "type": "function_call", "id": "fc_aigent", "call_id": "call_aigent_case",
            "name": "exec_command", "arguments": json!({"cmd": command}).to_string()}),
        Some(command) if names.iter().any(|name| name == "shell_command") => json!({
            "type": "function_call", "id": "fc_aigent", "call_id": "call_aigent_case",
            "name": "shell_command", "arguments": json!({"command": command}).to_string()}),
        Some(command) => json!({
            "type": "function_call", "id": "fc_aigent", "call_id": "call_aigent_case",
            "name": "shell", "arguments": json!({"command": ["bash", "-lc", command]}).to_string()}),
        None => json!({"type": "message", "id": "msg_aigent", "role": "assistant",
            "content": [{"type": "output_text", "text": "done", "annotations": []}]}),
    };
    let events = [
        json!({"type": "response.created", "response": {"id": "resp_aigent"}}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        json!({"type": "response.completed", "response": {"id": "resp_aigent", "usage": {
            "input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 2}}}),
    ];
    ("200 OK", SSE, sse(&events, true))
}

fn gemini(stream: bool, call: Option<&str>) -> (&'static str, &'static str, Vec<u8>) {
    let parts = match call {
        Some(command) => json!([{"functionCall": {"name": "run_shell_command",
            "args": {"command": command, "description": "aigent test case"}}}]),
        None => json!([{"text": "done"}]),
    };
    let chunk = json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        "modelVersion": "gemini-fake",
    });
    if stream {
        ("200 OK", SSE, sse(&[chunk], false))
    } else {
        ("200 OK", "application/json", chunk.to_string().into_bytes())
    }
}
