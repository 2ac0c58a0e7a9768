//! `aigent mcp serve` on the wire: raw JSON-RPC lines, as a client that
//! gets things wrong sends them, under the session revisions (after
//! `initialize`) and under 2026-07-28 (stateless, `_meta` per request).
//! Also the schema hygiene an agent reads: annotations, cache hints,
//! resource names, and a `sensitive` default that is never shown.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::Sandbox;

pub const NEW: &str = "2026-07-28";
pub const OLD: &str = "2025-11-25";

/// A server on the other end of two pipes, one JSON-RPC message a line.
pub struct Wire {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
    /// `Some(capabilities)`: every request carries the 2026-07-28 `_meta`.
    stateless: Option<Value>,
}

impl Wire {
    pub fn spawn(sandbox: &Sandbox, extra: &[&str]) -> Self {
        std::fs::create_dir_all(sandbox.join("commands")).unwrap();
        let mut child = sandbox.mcp_serve(extra).spawn().expect("server starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
            next_id: 1,
            stateless: None,
        }
    }

    /// A session under `revision`: `initialize`, then `initialized`.
    pub fn session(sandbox: &Sandbox, extra: &[&str], revision: &str, capabilities: Value) -> Self {
        let mut wire = Self::spawn(sandbox, extra);
        let answer = wire.request(
            "initialize",
            json!({"protocolVersion": revision, "capabilities": capabilities,
                   "clientInfo": {"name": "wire-test", "version": "1"}}),
        );
        assert_eq!(answer["result"]["protocolVersion"], revision, "{answer}");
        wire.notify("notifications/initialized", json!({}));
        wire
    }

    /// Stateless 2026-07-28: no `initialize`, every request self-contained.
    pub fn stateless(sandbox: &Sandbox, extra: &[&str], capabilities: Value) -> Self {
        let mut wire = Self::spawn(sandbox, extra);
        wire.stateless = Some(capabilities);
        wire
    }

    pub fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its response; messages the server sends
    /// meanwhile (notifications, its own requests) go to `other`.
    pub fn request_with(
        &mut self,
        method: &str,
        mut params: Value,
        mut other: impl FnMut(&mut Self, Value),
    ) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        if let (Some(capabilities), Value::Object(object)) = (&self.stateless, &mut params) {
            let meta = object.entry("_meta").or_insert_with(|| json!({}));
            meta["io.modelcontextprotocol/protocolVersion"] = json!(NEW);
            meta["io.modelcontextprotocol/clientCapabilities"] = capabilities.clone();
            meta["io.modelcontextprotocol/clientInfo"] =
                json!({"name": "wire-test", "version": "1"});
        }
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("the server answers within 30 s");
            let message: Value = serde_json::from_str(&line).expect("one JSON message a line");
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
            other(self, message);
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.request_with(method, params, |_, _| {})
    }
}

impl Drop for Wire {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn both(sandbox: &Sandbox) -> [Wire; 2] {
    [
        Wire::session(sandbox, &[], OLD, json!({})),
        Wire::stateless(sandbox, &[], json!({})),
    ]
}

const GREET: &str = "name: greet\ndescription: Print a greeting\ndanger_level: safe\nparameters:\n  who: {type: string, required: true}\nsubprocess: {binary: echo, hardcoded_args: [hello], user_controlled_args: [who]}\n";

#[test]
fn malformed_params_are_invalid_params_naming_the_field() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    for mut wire in both(&sandbox) {
        let answer = wire.request("tools/call", json!({"name": "greet", "arguments": "who=x"}));
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        assert_eq!(answer["error"]["data"]["field"], "arguments", "{answer}");

        for params in [json!({"name": "pdf"}), json!({})] {
            let answer = wire.request("skills/get", params);
            assert_eq!(answer["error"]["code"], -32602, "{answer}");
            assert_eq!(answer["error"]["data"]["field"], "uri", "{answer}");
        }
        let answer = wire.request("skills/get", json!({"name": "pdf"}));
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("`uri`") && message.contains("not its `name`"),
            "{message}"
        );

        // An unknown tool is a protocol error, with the close name.
        let answer = wire.request("tools/call", json!({"name": "gret", "arguments": {}}));
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        assert_eq!(answer["error"]["data"]["closest"], "greet", "{answer}");
        assert!(answer.get("result").is_none());

        // A method nobody knows is still "method not found".
        let answer = wire.request("tools/frobnicate", json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
    }
}

#[test]
fn a_rejection_tells_a_model_what_it_can_do_over_mcp() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/release.yaml",
        "name: release\ndescription: Tag a release\ndanger_level: safe\nparameters:\n  version: {type: string, pattern_type: semver, required: true}\n  notes: {type: string}\nsubprocess: {binary: echo, user_controlled_args: [version, notes]}\n",
    );
    for mut wire in both(&sandbox) {
        let answer = wire.request(
            "tools/call",
            json!({"name": "release", "arguments": {"version": "v1.2.3", "notes": "first"}}),
        );
        let result = &answer["result"];
        assert_eq!(result["isError"], true, "{answer}");
        let error = &result["structuredContent"]["error"];
        // The corrected call is an arguments object, ready to send.
        assert_eq!(
            error["fix_arguments"],
            json!({"version": "1.2.3", "notes": "first"}),
            "{answer}"
        );
        let text = result["content"][0]["text"].as_str().unwrap();
        let hints = error["hints"].to_string();
        for shown in [text, hints.as_str()] {
            assert!(
                !shown.contains("aigent "),
                "no CLI command over MCP: {shown}"
            );
            assert!(!shown.contains("--"), "no CLI flag over MCP: {shown}");
        }

        // Without an exact correction the hint is the tool's schema.
        let answer = wire.request(
            "tools/call",
            json!({"name": "release", "arguments": {"version": "1.2.3", "notes": "a;b"}}),
        );
        let error = &answer["result"]["structuredContent"]["error"];
        assert!(error.get("fix_arguments").is_none(), "{answer}");
        assert!(
            error["hints"][0].as_str().unwrap().contains("inputSchema"),
            "{answer}"
        );
    }
}

#[test]
fn annotations_follow_the_declaration() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    sandbox.write(
        "commands/fetch.yaml",
        "name: fetch\ndescription: Fetch a page\ndanger_level: mutating\nparameters:\n  url: {type: string, pattern_type: url, required: true}\nsubprocess: {binary: echo, user_controlled_args: [url]}\nsandbox: {network: {connect: [443]}}\n",
    );
    let mut wire = Wire::stateless(&sandbox, &[], json!({}));
    let answer = wire.request("tools/list", json!({}));
    let tools = answer["result"]["tools"].as_array().unwrap();
    let annotations = |name: &str| {
        tools
            .iter()
            .find(|tool| tool["name"] == name)
            .map(|tool| tool["annotations"].clone())
            .unwrap()
    };
    assert_eq!(
        annotations("greet"),
        json!({"title": "greet", "readOnlyHint": true, "destructiveHint": false,
               "idempotentHint": true, "openWorldHint": false})
    );
    assert_eq!(
        annotations("fetch"),
        json!({"title": "fetch", "readOnlyHint": false, "destructiveHint": false,
               "idempotentHint": false, "openWorldHint": true})
    );
    assert_eq!(answer["result"]["ttlMs"], 1000, "{answer}");
    assert_eq!(answer["result"]["cacheScope"], "private", "{answer}");
}

#[test]
fn skills_list_has_cache_hints_and_resources_keep_their_directories() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Keep notes. Use when asked to write notes down.\n---\nSee a/x.md and b/x.md.\n",
    );
    sandbox.write("skills/notes/a/x.md", "a");
    sandbox.write("skills/notes/b/x.md", "b");
    let skills = sandbox.join("skills");
    let skills = skills.to_str().unwrap();
    for mut wire in [
        Wire::session(&sandbox, &["--skills", skills], OLD, json!({})),
        Wire::stateless(&sandbox, &["--skills", skills], json!({})),
    ] {
        let answer = wire.request("skills/list", json!({}));
        assert_eq!(
            answer["result"]["skills"].as_array().unwrap().len(),
            1,
            "{answer}"
        );
        assert_eq!(answer["result"]["ttlMs"], 1000, "{answer}");
        assert_eq!(answer["result"]["cacheScope"], "private", "{answer}");
        let answer = wire.request("resources/list", json!({}));
        let mut names: Vec<&str> = answer["result"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|resource| resource["name"].as_str().unwrap())
            .collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["notes/SKILL.md", "notes/a/x.md", "notes/b/x.md"],
            "{answer}"
        );
    }
}

#[test]
fn a_sensitive_default_is_shown_nowhere_an_agent_reads() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/login.yaml",
        "name: login\ndescription: Log in\ndanger_level: mutating\nparameters:\n  user: {type: string, default: alice}\n  token: {type: string, sensitive: true, default: hunter2-default}\nsubprocess: {binary: echo, user_controlled_args: [user], env: {TOKEN: {param: token}}}\n",
    );
    sandbox.write(
        "commands/vault.json",
        r##"{"name": "vault", "description": "Open the vault", "danger_level": "mutating",
            "input_schema": {"type": "object",
              "$defs": {"secret": {"type": "string", "default": "hunter2-ref"}},
              "properties": {
                "key": {"$ref": "#/$defs/secret", "x-aigent-sensitive": true},
                "pin": {"type": "string", "x-aigent-sensitive": true, "default": "hunter2-pin"},
                "label": {"type": "string", "default": "shown"}}},
            "subprocess": {"binary": "echo", "user_controlled_args": ["label"],
              "env": {"KEY": {"param": "key"}, "PIN": {"param": "pin"}}}}"##,
    );
    let commands = sandbox.join("commands");
    let commands = commands.to_str().unwrap();
    let mut readable = Vec::new();
    for name in ["login", "vault"] {
        for format in ["json", "json-schema", "text"] {
            let run = sandbox.run(&[
                "--commands",
                commands,
                "--output",
                format,
                "schema",
                "show",
                name,
            ]);
            readable.push((
                format!("schema show {name} --output {format}"),
                run.stdout.clone(),
            ));
        }
        for verb in ["args check", "run"] {
            let mut args = vec!["--commands", commands, "--output", "json"];
            args.extend(verb.split(' '));
            args.extend([name, "--help"]);
            let run = sandbox.run(&args);
            readable.push((format!("{verb} {name} --help"), run.stdout.clone()));
        }
    }
    let mut wire = Wire::stateless(&sandbox, &[], json!({}));
    let listed = wire.request("tools/list", json!({}));
    assert_eq!(
        listed["result"]["tools"].as_array().unwrap().len(),
        2,
        "{listed}"
    );
    readable.push(("tools/list".to_owned(), listed.to_string()));
    for (what, shown) in &readable {
        assert!(
            !shown.contains("hunter2"),
            "{what} shows a sensitive default:\n{shown}"
        );
    }
    // The other defaults are still there, and the wire form says a
    // sensitive one exists.
    let (_, show) = sandbox.json(&["--commands", commands, "schema", "show", "login"]);
    assert_eq!(show["data"]["parameters"]["user"]["default"], "alice");
    assert_eq!(show["data"]["parameters"]["token"]["default"], "[REDACTED]");
    assert!(
        listed.to_string().contains("\"default\":\"shown\""),
        "{listed}"
    );
}

/// The next line from the server that answers `id`.
fn answer_to(wire: &mut Wire, id: &Value) -> Value {
    loop {
        let line = wire
            .lines
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s");
        let message: Value = serde_json::from_str(&line).expect("one JSON message a line");
        if message.get("method").is_none() && (message["id"] == *id || message["id"].is_null()) {
            return message;
        }
    }
}

#[test]
fn params_or_meta_that_are_not_objects_get_their_error_with_the_id() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    for mut wire in both(&sandbox) {
        for (id, params, code, field) in [
            (json!(41), json!("who=x"), -32600, "params"),
            (json!("a-string-id"), json!(7), -32600, "params"),
            (json!(42), json!([1, 2]), -32602, "params"),
            (
                json!(43),
                json!({"name": "greet", "_meta": "x"}),
                -32602,
                "params._meta",
            ),
            (
                json!(44),
                json!({"name": "greet", "_meta": [1]}),
                -32602,
                "params._meta",
            ),
        ] {
            wire.send(
                &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}),
            );
            let answer = answer_to(&mut wire, &id);
            assert_eq!(answer["id"], id, "{answer}");
            assert_eq!(answer["error"]["code"], code, "{answer}");
            assert_eq!(answer["error"]["data"]["field"], field, "{answer}");
        }
        // The server goes on serving.
        let answer = wire.request("tools/list", json!({}));
        assert!(answer["result"]["tools"].is_array(), "{answer}");
    }
}
