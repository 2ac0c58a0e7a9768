//! `aigent lsp` driven through its stdio as an editor drives it: lsp-types
//! messages framed over the real binary's stdin and stdout.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit,
    Initialized, Notification, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, Formatting, HoverRequest, Initialize, Request, Shutdown,
};
use lsp_types::{
    ClientCapabilities, CodeActionContext, CodeActionOrCommand, CodeActionParams, CompletionParams,
    CompletionResponse, DidChangeConfigurationParams, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentFormattingParams,
    FormattingOptions, HoverContents, HoverParams, InitializeParams, NumberOrString,
    PartialResultParams, Position, PublishDiagnosticsParams, Range, TextDocumentContentChangeEvent,
    TextDocumentIdentifier, TextDocumentItem, TextDocumentPositionParams, TextEdit, Uri,
    VersionedTextDocumentIdentifier, WorkDoneProgressParams, WorkspaceFolder,
};
use serde_json::{Value, json};

use crate::common::Sandbox;

const WAIT: Duration = Duration::from_secs(30);

/// A language client on the real binary's stdio.
struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Messages read while waiting for another.
    pending: VecDeque<Value>,
    next_id: i64,
}

impl Client {
    fn start(sandbox: &Sandbox, args: &[&str]) -> Self {
        let mut child = sandbox
            .std_cmd()
            .args(args)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn aigent lsp");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            while let Some(message) = read_message(&mut stdout) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Self {
            child,
            stdin,
            messages,
            pending: VecDeque::new(),
            next_id: 0,
        }
    }

    /// Started and initialized, with the sandbox as the workspace.
    fn initialized(sandbox: &Sandbox, options: Value) -> Self {
        let mut client = Self::start(sandbox, &[]);
        client.initialize(sandbox, options);
        client
    }

    fn initialize(&mut self, sandbox: &Sandbox, options: Value) -> Value {
        #[allow(deprecated)]
        let params = InitializeParams {
            workspace_folders: Some(vec![WorkspaceFolder {
                uri: uri(sandbox.path()),
                name: "sandbox".to_owned(),
            }]),
            initialization_options: Some(options),
            capabilities: ClientCapabilities::default(),
            ..InitializeParams::default()
        };
        let result = self.request::<Initialize>(params).expect("initialize");
        self.notify::<Initialized>(lsp_types::InitializedParams {});
        result
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify<N: Notification>(&mut self, params: N::Params) {
        self.send(&json!({"jsonrpc": "2.0", "method": N::METHOD, "params": params}));
    }

    /// Sends a request; its result, or the error object.
    fn request<R: Request>(&mut self, params: R::Params) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": R::METHOD, "params": params}));
        self.response(&json!(id))
    }

    /// The response with `id`, keeping what comes before it.
    fn response(&mut self, id: &Value) -> Result<Value, Value> {
        let message = self
            .wait_for(|message| message.get("id") == Some(id) && message.get("method").is_none());
        match message.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(message["result"].clone()),
        }
    }

    /// The first message (read or still to come) that `wanted` accepts.
    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(index) = self.pending.iter().position(&wanted) {
            return self.pending.remove(index).unwrap();
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.pending.push_back(message),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no such message in time; had {:?}", self.pending)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server went away; had {:?}", self.pending)
                }
            }
        }
    }

    /// The next diagnostics published for `uri` at `version` (or any
    /// version when `None`).
    fn diagnostics(&mut self, uri: &Uri, version: Option<i32>) -> PublishDiagnosticsParams {
        let uri = uri.as_str().to_owned();
        let message = self.wait_for(|message| {
            message["method"] == PublishDiagnostics::METHOD
                && message["params"]["uri"] == uri.as_str()
                && version.is_none_or(|version| message["params"]["version"] == version)
        });
        serde_json::from_value(message["params"].clone()).unwrap()
    }

    fn open(&mut self, path: &Path, text: &str) -> Uri {
        let uri = uri(path);
        self.notify::<DidOpenTextDocument>(DidOpenTextDocumentParams {
            text_document: TextDocumentItem {
                uri: uri.clone(),
                language_id: "markdown".to_owned(),
                version: 1,
                text: text.to_owned(),
            },
        });
        uri
    }

    fn change(&mut self, uri: &Uri, version: i32, range: Option<Range>, text: &str) {
        self.notify::<DidChangeTextDocument>(DidChangeTextDocumentParams {
            text_document: VersionedTextDocumentIdentifier {
                uri: uri.clone(),
                version,
            },
            content_changes: vec![TextDocumentContentChangeEvent {
                range,
                range_length: None,
                text: text.to_owned(),
            }],
        });
    }

    /// `shutdown`, then `exit`: the exit code.
    fn stop(mut self) -> i32 {
        assert_eq!(self.request::<Shutdown>(()), Ok(Value::Null));
        self.notify::<Exit>(());
        self.wait()
    }

    fn wait(&mut self) -> i32 {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The server's resident memory, in KiB (Linux).
    fn rss_kib(&self) -> Option<u64> {
        self.status_kib("VmRSS:")
    }

    /// The most resident memory the server has had, in KiB (Linux).
    fn peak_rss_kib(&self) -> Option<u64> {
        self.status_kib("VmHWM:")
    }

    fn status_kib(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|line| line.strip_prefix(field))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
    }

    /// A `window/showMessage` whose text contains `wanted`.
    fn shown(&mut self, wanted: &str) -> String {
        let message = self.wait_for(|m| {
            m["method"] == "window/showMessage"
                && m["params"]["message"]
                    .as_str()
                    .is_some_and(|text| text.contains(wanted))
        });
        message["params"]["message"].as_str().unwrap().to_owned()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn uri(path: &Path) -> Uri {
    aigent::lsp::document::path_to_uri(path).parse().unwrap()
}

fn document(uri: &Uri) -> TextDocumentIdentifier {
    TextDocumentIdentifier { uri: uri.clone() }
}

fn at(uri: &Uri, line: u32, character: u32) -> TextDocumentPositionParams {
    TextDocumentPositionParams {
        text_document: document(uri),
        position: Position::new(line, character),
    }
}

fn codes(params: &PublishDiagnosticsParams) -> Vec<String> {
    let mut codes: Vec<String> = params
        .diagnostics
        .iter()
        .filter_map(|diagnostic| match &diagnostic.code {
            Some(NumberOrString::String(code)) => Some(code.clone()),
            _ => None,
        })
        .collect();
    codes.sort();
    codes
}

/// (code, severity, 0-based line) of each LSP diagnostic, sorted.
fn lsp_findings(params: &PublishDiagnosticsParams) -> Vec<(String, String, Option<u32>)> {
    let mut findings: Vec<_> = params
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let code = match &diagnostic.code {
                Some(NumberOrString::String(code)) => code.clone(),
                other => panic!("code {other:?}"),
            };
            let severity = match diagnostic.severity {
                Some(lsp_types::DiagnosticSeverity::ERROR) => "error",
                Some(lsp_types::DiagnosticSeverity::WARNING) => "warning",
                Some(lsp_types::DiagnosticSeverity::INFORMATION) => "note",
                other => panic!("severity {other:?}"),
            };
            (code, severity.to_owned(), Some(diagnostic.range.start.line))
        })
        .collect();
    findings.sort();
    findings
}

/// The same triples from a CLI envelope's diagnostics; a finding with no
/// line is placed on the first one, as the server places it when its
/// field is not found either.
fn cli_findings(diagnostics: &Value) -> Vec<(String, String, Option<u32>)> {
    let mut findings: Vec<_> = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| {
            (
                diagnostic["code"].as_str().unwrap().to_owned(),
                diagnostic["severity"].as_str().unwrap().to_owned(),
                diagnostic["line"]
                    .as_u64()
                    .map(|line| u32::try_from(line - 1).unwrap()),
            )
        })
        .collect();
    findings.sort();
    findings
}

/// The CLI's triples, with each line-less finding's line taken from the
/// server's (it places those on the field's line): codes and severities
/// must agree exactly, and lines wherever the CLI has one.
fn assert_same_findings(cli: &Value, lsp: &PublishDiagnosticsParams) {
    let cli = cli_findings(cli);
    let lsp = lsp_findings(lsp);
    let strip = |findings: &[(String, String, Option<u32>)]| -> Vec<(String, String)> {
        findings
            .iter()
            .map(|(code, severity, _)| (code.clone(), severity.clone()))
            .collect()
    };
    assert_eq!(
        strip(&cli),
        strip(&lsp),
        "codes and severities: cli {cli:?}, lsp {lsp:?}"
    );
    for finding in cli.iter().filter(|finding| finding.2.is_some()) {
        assert!(lsp.contains(finding), "{finding:?} is not in {lsp:?}");
    }
}

fn apply(text: &str, edits: &[TextEdit]) -> String {
    // The tests' documents are ASCII: characters are bytes.
    let offset = |position: Position| {
        let mut offset = 0;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            if index == position.line as usize {
                return offset + position.character as usize;
            }
            offset += line.len();
        }
        text.len()
    };
    let mut result = text.to_owned();
    let mut edits = edits.to_vec();
    edits
        .sort_by_key(|edit| std::cmp::Reverse((edit.range.start.line, edit.range.start.character)));
    for edit in edits {
        result.replace_range(
            offset(edit.range.start)..offset(edit.range.end),
            &edit.new_text,
        );
    }
    result
}

const BROKEN_SKILL: &str = "---\nname: pdf-tools\ndescription: Use when: filling PDF forms\nallowed_tools: Read\n---\n# PDF tools\n\nSee [the guide](guide.md).\n";

#[test]
fn skill_diagnostics_on_open_and_change_are_the_clis() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("skills/pdf-tools/SKILL.md", BROKEN_SKILL);
    let mut client = Client::initialized(&sandbox, Value::Null);
    let uri = client.open(&file, BROKEN_SKILL);
    let opened = client.diagnostics(&uri, Some(1));
    let (_, cli) = sandbox.json(&["skill", "validate", "skills/pdf-tools/SKILL.md"]);
    assert_same_findings(&cli["data"]["skills"][0]["diagnostics"], &opened);
    assert_eq!(
        codes(&opened),
        ["E017", "W005"],
        "W005: the guide is missing"
    );
    assert_eq!(opened.diagnostics[0].range.start, Position::new(2, 0));
    assert_eq!(opened.diagnostics[0].range.end, Position::new(2, 40));

    // Quote the description: now the unknown key and the missing link show.
    let fixed = BROKEN_SKILL.replace(
        "Use when: filling PDF forms",
        "\"Use when: filling PDF forms\"",
    );
    client.change(
        &uri,
        2,
        Some(Range::new(Position::new(2, 13), Position::new(2, 40))),
        "\"Use when: filling PDF forms\"",
    );
    let changed = client.diagnostics(&uri, Some(2));
    std::fs::write(&file, &fixed).unwrap();
    let (_, cli) = sandbox.json(&["skill", "validate", "skills/pdf-tools/SKILL.md"]);
    assert_same_findings(&cli["data"]["skills"][0]["diagnostics"], &changed);
    assert!(codes(&changed).len() >= 2, "{changed:?}");

    // --strict and a profile, from the settings.
    client.notify::<DidChangeConfiguration>(DidChangeConfigurationParams {
        settings: json!({"aigent": {"strict": true, "profile": "claude-code"}}),
    });
    let strict = client.diagnostics(&uri, Some(2));
    let (_, cli) = sandbox.json(&[
        "skill",
        "validate",
        "--strict",
        "--profile",
        "claude-code",
        "skills/pdf-tools/SKILL.md",
    ]);
    assert_same_findings(&cli["data"]["skills"][0]["diagnostics"], &strict);
    assert!(
        strict
            .diagnostics
            .iter()
            .all(|d| d.severity != Some(lsp_types::DiagnosticSeverity::WARNING))
    );

    // Closing clears them.
    client.notify::<DidCloseTextDocument>(DidCloseTextDocumentParams {
        text_document: document(&uri),
    });
    assert!(client.diagnostics(&uri, None).diagnostics.is_empty());
    assert_eq!(client.stop(), 0);
}

const BROKEN_DECLARATION: &str = "name: greet\ndescription: Say hello to someone\ndanger_level: safe\nparameters:\n  who:\n    type: string\n    pattern_tpye: alphanumeric_id\nsubprocess:\n  binary: echo\n  user_controlled_args: [whom]\n";

#[test]
fn declaration_and_manifest_diagnostics_are_the_lints() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("commands/greet.yaml", BROKEN_DECLARATION);
    let mut client = Client::initialized(&sandbox, json!({"registry": "commands"}));
    let uri = client.open(&file, BROKEN_DECLARATION);
    let published = client.diagnostics(&uri, Some(1));
    let (_, cli) = sandbox.json(&["--commands", "commands", "schema", "lint"]);
    assert_same_findings(&cli["data"]["files"][0]["diagnostics"], &published);
    assert!(!published.diagnostics.is_empty());
    // The unknown field is shown on its own line, found from its field path.
    let unknown = published
        .diagnostics
        .iter()
        .find(|d| d.message.contains("pattern_tpye"))
        .expect("the unknown field");
    assert_eq!(unknown.range.start.line, 6);

    // Outside the registry, a YAML file is nobody's business.
    let other = sandbox.write("elsewhere/greet.yaml", BROKEN_DECLARATION);
    let other_uri = client.open(&other, BROKEN_DECLARATION);
    assert!(
        client
            .diagnostics(&other_uri, Some(1))
            .diagnostics
            .is_empty()
    );

    let manifest_text =
        "{\n  \"name\": \"Bad Name\",\n  \"version\": \"one\",\n  \"colour\": 1\n}\n";
    let manifest = sandbox.write("plugin/.claude-plugin/plugin.json", manifest_text);
    let manifest_uri = client.open(&manifest, manifest_text);
    let published = client.diagnostics(&manifest_uri, Some(1));
    let (_, cli) = sandbox.json(&["plugin", "validate", "plugin"]);
    let report = cli["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|report| report["path"].as_str().unwrap().ends_with("plugin.json"))
        .unwrap()
        .clone();
    assert_same_findings(&report["diagnostics"], &published);
    assert!(published.diagnostics.len() >= 3, "{published:?}");
    assert_eq!(client.stop(), 0);
}

fn code_actions(client: &mut Client, uri: &Uri, range: Range) -> Vec<lsp_types::CodeAction> {
    let result = client
        .request::<CodeActionRequest>(CodeActionParams {
            text_document: document(uri),
            range,
            context: CodeActionContext::default(),
            work_done_progress_params: WorkDoneProgressParams::default(),
            partial_result_params: PartialResultParams::default(),
        })
        .unwrap();
    let actions: Vec<CodeActionOrCommand> = serde_json::from_value(result).unwrap();
    actions
        .into_iter()
        .map(|action| match action {
            CodeActionOrCommand::CodeAction(action) => action,
            CodeActionOrCommand::Command(command) => panic!("a bare command {command:?}"),
        })
        .collect()
}

fn edits_of(action: &lsp_types::CodeAction, uri: &Uri) -> Vec<TextEdit> {
    action.edit.as_ref().unwrap().changes.as_ref().unwrap()[uri].clone()
}

#[test]
fn code_actions_fix_the_findings_they_name() {
    let sandbox = Sandbox::new();
    sandbox.write("skills/pdf-tools/guide.md", "# Guide\n");
    let file = sandbox.write("skills/pdf-tools/SKILL.md", BROKEN_SKILL);
    let mut client = Client::initialized(&sandbox, Value::Null);
    let uri = client.open(&file, BROKEN_SKILL);
    assert_eq!(codes(&client.diagnostics(&uri, Some(1))), ["E017"]);
    let actions = code_actions(
        &mut client,
        &uri,
        Range::new(Position::new(2, 0), Position::new(2, 0)),
    );
    let fix = actions
        .iter()
        .find(|action| action.title.starts_with("aigent skill fix"))
        .expect("skill fix is offered");
    assert_eq!(fix.kind, Some(lsp_types::CodeActionKind::QUICKFIX));
    let named: Vec<String> = fix
        .diagnostics
        .iter()
        .flatten()
        .map(|d| format!("{:?}", d.code))
        .collect();
    assert!(named.iter().any(|code| code.contains("E017")), "{named:?}");
    let fixed = apply(BROKEN_SKILL, &edits_of(fix, &uri));
    client.change(&uri, 2, None, &fixed);
    let after = client.diagnostics(&uri, Some(2));
    assert!(after.diagnostics.is_empty(), "{fixed}\n{after:?}");
    // The fixed text is what `skill fix` writes.
    sandbox.write("cli/pdf-tools/SKILL.md", BROKEN_SKILL);
    sandbox.write("cli/pdf-tools/guide.md", "# Guide\n");
    sandbox.run(&["skill", "fix", "cli/pdf-tools"]);
    assert_eq!(
        std::fs::read_to_string(sandbox.join("cli/pdf-tools/SKILL.md")).unwrap(),
        fixed
    );

    // `skill fmt`, as a source action and as formatting.
    let messy = "---\ndescription: Fill PDF forms.\nname:   pdf-tools\n---\nbody\n";
    client.change(&uri, 3, None, messy);
    client.diagnostics(&uri, Some(3));
    let actions = code_actions(
        &mut client,
        &uri,
        Range::new(Position::new(0, 0), Position::new(0, 0)),
    );
    let format = actions
        .iter()
        .find(|action| action.kind == Some(lsp_types::CodeActionKind::SOURCE))
        .expect("skill fmt is offered");
    let formatted = apply(messy, &edits_of(format, &uri));
    assert_eq!(
        formatted,
        "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\nbody\n"
    );
    let edits: Vec<TextEdit> = serde_json::from_value(
        client
            .request::<Formatting>(DocumentFormattingParams {
                text_document: document(&uri),
                options: FormattingOptions::default(),
                work_done_progress_params: WorkDoneProgressParams::default(),
            })
            .unwrap(),
    )
    .unwrap();
    assert_eq!(apply(messy, &edits), formatted);

    // A lint's suggestion: `did you mean` becomes a replacement.
    let decl = sandbox.write("commands/greet.yaml", BROKEN_DECLARATION);
    client.notify::<DidChangeConfiguration>(DidChangeConfigurationParams {
        settings: json!({"registry": "commands"}),
    });
    let decl_uri = client.open(&decl, BROKEN_DECLARATION);
    let before = client.diagnostics(&decl_uri, Some(1));
    let actions = code_actions(
        &mut client,
        &decl_uri,
        Range::new(Position::new(6, 0), Position::new(9, 0)),
    );
    let replace = actions
        .iter()
        .find(|action| action.title.contains("`pattern_type`"))
        .unwrap_or_else(|| panic!("no suggestion among {actions:?} for {before:?}"));
    let repaired = apply(BROKEN_DECLARATION, &edits_of(replace, &decl_uri));
    assert!(
        repaired.contains("    pattern_type: alphanumeric_id\n"),
        "{repaired}"
    );
    client.change(&decl_uri, 2, None, &repaired);
    let after = client.diagnostics(&decl_uri, Some(2));
    assert!(
        !after
            .diagnostics
            .iter()
            .any(|d| d.message.contains("pattern_tpye")),
        "{after:?}"
    );
    let whom = code_actions(
        &mut client,
        &decl_uri,
        Range::new(Position::new(9, 0), Position::new(9, 0)),
    );
    let replace = whom
        .iter()
        .find(|action| action.title.contains("`who`"))
        .expect("who for whom");
    let repaired = apply(&repaired, &edits_of(replace, &decl_uri));
    assert!(
        repaired.ends_with("user_controlled_args: [who]\n"),
        "{repaired}"
    );
    assert_eq!(client.stop(), 0);
}

fn hover_text(client: &mut Client, uri: &Uri, line: u32, character: u32) -> Option<String> {
    let result = client
        .request::<HoverRequest>(HoverParams {
            text_document_position_params: at(uri, line, character),
            work_done_progress_params: WorkDoneProgressParams::default(),
        })
        .unwrap();
    if result.is_null() {
        return None;
    }
    let hover: lsp_types::Hover = serde_json::from_value(result).unwrap();
    match hover.contents {
        HoverContents::Markup(markup) => Some(markup.value),
        other => panic!("{other:?}"),
    }
}

fn completion_labels(client: &mut Client, uri: &Uri, line: u32, character: u32) -> Vec<String> {
    let result = client
        .request::<Completion>(CompletionParams {
            text_document_position: at(uri, line, character),
            work_done_progress_params: WorkDoneProgressParams::default(),
            partial_result_params: PartialResultParams::default(),
            context: None,
        })
        .unwrap();
    match serde_json::from_value::<CompletionResponse>(result).unwrap() {
        CompletionResponse::Array(items) => items.into_iter().map(|item| item.label).collect(),
        CompletionResponse::List(list) => list.items.into_iter().map(|item| item.label).collect(),
    }
}

#[test]
fn hover_and_completion_follow_the_profile() {
    let sandbox = Sandbox::new();
    let text = "---\nname: pdf-tools\ndescription: Fill PDF forms. See W001 for keys.\nmodel: opus\n\n---\nbody\n";
    let file = sandbox.write("skills/pdf-tools/SKILL.md", text);
    let mut client = Client::initialized(&sandbox, Value::Null);
    let uri = client.open(&file, text);
    client.diagnostics(&uri, Some(1));
    // A key, per profile: standard does not know `model`.
    let model = hover_text(&mut client, &uri, 3, 2).expect("hover on model");
    assert!(model.contains("Not known to profile `standard`"), "{model}");
    // A code written in the text, and the finding on the line.
    let code = hover_text(&mut client, &uri, 2, 36).expect("hover on W001");
    assert!(code.starts_with("**W001**"), "{code}");
    assert!(
        model.contains("**W001**"),
        "the finding on the model line: {model}"
    );
    assert_eq!(hover_text(&mut client, &uri, 6, 1), None);
    // Completion: the keys not yet written.
    let keys = completion_labels(&mut client, &uri, 4, 0);
    assert!(keys.contains(&"license".to_owned()), "{keys:?}");
    assert!(!keys.contains(&"name".to_owned()));
    assert!(!keys.contains(&"when_to_use".to_owned()));

    client.notify::<DidChangeConfiguration>(DidChangeConfigurationParams {
        settings: json!({"profile": "claude-code"}),
    });
    client.diagnostics(&uri, Some(1));
    let model = hover_text(&mut client, &uri, 3, 2).unwrap();
    assert!(model.contains("Known to profile `claude-code`"), "{model}");
    let keys = completion_labels(&mut client, &uri, 4, 0);
    assert!(keys.contains(&"when_to_use".to_owned()), "{keys:?}");

    // Declarations: keys where the cursor is, and pattern types.
    client.notify::<DidChangeConfiguration>(DidChangeConfigurationParams {
        settings: json!({"registry": "commands"}),
    });
    let decl_text = "name: greet\nparameters:\n  who:\n    pattern_type: \n    \n";
    let decl = sandbox.write("commands/greet.yaml", decl_text);
    let decl_uri = client.open(&decl, decl_text);
    let types = completion_labels(&mut client, &decl_uri, 3, 18);
    assert!(
        types.contains(&"semver".to_owned()) && types.contains(&"free_text".to_owned()),
        "{types:?}"
    );
    let fields = completion_labels(&mut client, &decl_uri, 4, 4);
    assert!(fields.contains(&"enum_values".to_owned()), "{fields:?}");
    assert_eq!(client.stop(), 0);
}

/// A frame whose length cannot be read: where its body ends is unknown,
/// so the server says so and closes, rather than read that body and every
/// frame after it as headers and never answer again.
#[test]
fn a_frame_without_a_readable_length_closes_the_stream_with_an_error() {
    let sandbox = Sandbox::new();
    let mut client = Client::start(&sandbox, &[]);
    client.initialize(&sandbox, Value::Null);
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"shutdown"}"#;
    // The bad frame and a good one, in one write.
    let next = r#"{"jsonrpc":"2.0","id":6,"method":"shutdown"}"#;
    client.send_raw(
        format!(
            "Content-Length: abc\r\n\r\n{body}Content-Length: {}\r\n\r\n{next}",
            next.len()
        )
        .as_bytes(),
    );
    let error = client.wait_for(|m| m["id"].is_null() && m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32700);
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`abc`") && message.contains("closed"),
        "{error}"
    );
    assert_eq!(client.wait(), 1);
}

#[test]
fn bad_input_never_takes_the_server_down() {
    let sandbox = Sandbox::new();
    let mut client = Client::start(&sandbox, &[]);
    // Before initialize: refused, not ignored.
    let early = client.request::<HoverRequest>(HoverParams {
        text_document_position_params: at(&uri(&sandbox.join("x")), 0, 0),
        work_done_progress_params: WorkDoneProgressParams::default(),
    });
    assert_eq!(early.unwrap_err()["code"], -32002);
    client.initialize(&sandbox, Value::Null);

    // Malformed messages: not JSON, bad headers, not JSON-RPC, unknown
    // methods, wrong params. Each gets an error; the server reads on.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    let error = client.wait_for(|m| m["id"].is_null() && m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32700);
    client.send_raw(b"Garbage-Without-Colon\r\nContent-Length: 2\r\n\r\n{}");
    let error = client.wait_for(|m| m["id"].is_null() && m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32700);
    client.send(&json!({"jsonrpc": "2.0", "id": 900, "method": 12}));
    assert_eq!(client.response(&json!(900)).unwrap_err()["code"], -32600);
    client
        .send(&json!({"jsonrpc": "2.0", "id": 901, "method": "textDocument/rename", "params": {}}));
    assert_eq!(client.response(&json!(901)).unwrap_err()["code"], -32601);
    client.send(&json!({"jsonrpc": "2.0", "id": 902, "method": "textDocument/hover", "params": {"nope": 1}}));
    assert_eq!(client.response(&json!(902)).unwrap_err()["code"], -32602);
    client.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": 7}));
    client.wait_for(|m| m["method"] == "window/showMessage");
    // A change to a document that is not open, and a hover there.
    client.change(&uri(&sandbox.join("ghost/SKILL.md")), 4, None, "x");
    assert_eq!(
        hover_text(&mut client, &uri(&sandbox.join("ghost/SKILL.md")), 0, 0),
        None
    );

    // Half-typed frontmatter, at every length.
    let text = "---\nname: pdf-tools\ndescription: \"Fill PDF\n  forms\nmetadata:\n  a: [1, {b: \n---\nbody\n";
    let file = sandbox.write("skills/pdf-tools/SKILL.md", text);
    let uri = client.open(&file, "");
    client.diagnostics(&uri, Some(1));
    for (index, (offset, _)) in text.char_indices().enumerate() {
        let version = i32::try_from(index).unwrap() + 2;
        client.change(&uri, version, None, &text[..offset]);
        let _ = completion_labels(&mut client, &uri, 2, 3);
        let _ = hover_text(&mut client, &uri, 1, 1);
    }
    client.diagnostics(&uri, Some(i32::try_from(text.len()).unwrap() + 1));

    // A 1 MiB line, and a bit more.
    let long = format!(
        "---\nname: pdf-tools\ndescription: {}\n---\n",
        "x".repeat(1024 * 1024)
    );
    client.change(&uri, 10_000, None, &long);
    let huge = client.diagnostics(&uri, Some(10_000));
    assert_eq!(codes(&huge), ["E021"], "over the skill file limit");
    let _ = hover_text(&mut client, &uri, 2, 500_000);
    let _ = completion_labels(&mut client, &uri, 2, 900_000);

    // The file deleted while open: the buffer is still checked.
    client.change(&uri, 10_001, None, BROKEN_SKILL);
    std::fs::remove_dir_all(sandbox.join("skills")).unwrap();
    client.change(
        &uri,
        10_002,
        None,
        &BROKEN_SKILL.replace("Use when: filling", "\"Use when: filling\""),
    );
    let deleted = client.diagnostics(&uri, Some(10_002));
    assert!(!deleted.diagnostics.is_empty());
    let _ = code_actions(
        &mut client,
        &uri,
        Range::new(Position::new(0, 0), Position::new(9, 0)),
    );

    // A message larger than the limit is skipped and answered.
    let big = 40 * 1024 * 1024;
    let mut frame = format!("Content-Length: {big}\r\n\r\n").into_bytes();
    frame.resize(frame.len() + big, b' ');
    client.send_raw(&frame);
    let error = client.wait_for(|m| m["id"].is_null() && m.get("error").is_some());
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("limit"),
        "{error}"
    );

    // Still answering.
    let hover = hover_text(&mut client, &uri, 1, 2).expect("a hover on `name`");
    assert!(hover.contains("`name`"), "{hover}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn a_flood_of_edits_is_checked_once_and_memory_stays_bounded() {
    let sandbox = Sandbox::new();
    let text = "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\n# PDF tools\n";
    let file = sandbox.write("skills/pdf-tools/SKILL.md", text);
    let mut client = Client::initialized(&sandbox, Value::Null);
    let uri = client.open(&file, text);
    client.diagnostics(&uri, Some(1));
    let end = |version: i32| Position::new(4 + u32::try_from(version).unwrap(), 0);
    // Warm up: the first thousand edits, then measure over ten thousand.
    let mut version = 1;
    for _ in 0..1000 {
        version += 1;
        client.change(
            &uri,
            version,
            Some(Range::new(end(version - 2), end(version - 2))),
            "more text on a new line\n",
        );
    }
    client.diagnostics(&uri, Some(version));
    let before = client.rss_kib();
    let started = Instant::now();
    for index in 0..10_000 {
        version += 1;
        // Type a line, then delete it again: the text stays small.
        if index % 2 == 0 {
            client.change(
                &uri,
                version,
                Some(Range::new(Position::new(4, 0), Position::new(4, 0))),
                "typing a line\n",
            );
        } else {
            client.change(
                &uri,
                version,
                Some(Range::new(Position::new(4, 0), Position::new(5, 0))),
                "",
            );
        }
    }
    let last = client.diagnostics(&uri, Some(version));
    eprintln!(
        "10,000 edits and their diagnostics in {:?}",
        started.elapsed()
    );
    assert!(
        last.diagnostics
            .iter()
            .all(|d| d.severity != Some(lsp_types::DiagnosticSeverity::ERROR)),
        "{last:?}"
    );
    // Far fewer publications than edits: bursts are checked once.
    let published = client
        .pending
        .iter()
        .filter(|m| m["method"] == PublishDiagnostics::METHOD)
        .count();
    assert!(
        published < 5_000,
        "{published} publications for 10,000 edits"
    );
    if let (Some(before), Some(after)) = (before, client.rss_kib()) {
        eprintln!("resident memory {before} KiB before, {after} KiB after");
        assert!(
            after < before + 20 * 1024,
            "memory grew from {before} to {after} KiB"
        );
    }
    assert_eq!(client.stop(), 0);
}

/// `count` tiny JSON values, joined: a body that a tree of values would
/// hold at dozens of times its size.
fn tiny_values(item: &str, count: usize) -> String {
    let mut text = String::with_capacity((item.len() + 1) * count);
    for index in 0..count {
        if index > 0 {
            text.push(',');
        }
        text.push_str(item);
    }
    text
}

/// A message's memory is bounded before it is parsed. 16 MiB of `{}` as
/// one notification's params cost 850 MB when read into a tree of values;
/// a `didChange` of 16 MiB of empty edits, as much again.
#[test]
fn large_messages_cost_a_small_multiple_of_their_size() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("skills/pdf-tools/SKILL.md", BROKEN_SKILL);
    let mut client = Client::initialized(&sandbox, Value::Null);
    let uri = client.open(&file, BROKEN_SKILL);
    client.diagnostics(&uri, Some(1));
    let before = client.peak_rss_kib();
    let size = 16 * 1024 * 1024;

    let body = format!(
        r#"{{"jsonrpc":"2.0","method":"$/aigentTest","params":[{}]}}"#,
        tiny_values("{}", size / 3)
    );
    client.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let error = client.wait_for(|m| m["id"].is_null() && m.get("error").is_some());
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("the limit for it is"), "{error}");
    drop(body);

    let body = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{}","version":2}},"contentChanges":[{}]}}}}"#,
        uri.as_str(),
        tiny_values(r#"{"text":""}"#, size / 12)
    );
    client.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    drop(body);
    let warning = client.shown("was not applied");
    assert!(warning.contains("waits for its whole text"), "{warning}");
    // The whole text again: checked as before.
    client.change(&uri, 3, None, BROKEN_SKILL);
    assert!(!client.diagnostics(&uri, Some(3)).diagnostics.is_empty());

    if let (Some(before), Some(after)) = (before, client.peak_rss_kib()) {
        eprintln!("peak resident memory {before} KiB before, {after} KiB after");
        let limit = 4 * size as u64 / 1024;
        assert!(
            after < before + limit,
            "two 16 MiB messages took the peak from {before} to {after} KiB"
        );
    }
    assert_eq!(client.stop(), 0);
}

/// URIs count toward what open documents may hold: 4 MiB ones are refused
/// by their length (10 empty documents under them cost 120 MiB), and
/// long-but-allowed ones fill the 64 MiB bound, past which documents are
/// not opened.
#[test]
fn uris_count_toward_the_memory_bound() {
    let sandbox = Sandbox::new();
    let mut client = Client::initialized(&sandbox, Value::Null);
    let before = client.peak_rss_kib();
    let huge = "x".repeat(4 * 1024 * 1024);
    for index in 0..10 {
        let uri: Uri = format!("file:///d{index}/{huge}/SKILL.md").parse().unwrap();
        client.notify::<DidOpenTextDocument>(DidOpenTextDocumentParams {
            text_document: TextDocumentItem {
                uri,
                language_id: "markdown".to_owned(),
                version: 1,
                text: String::new(),
            },
        });
        let refused = client.shown("is not checked");
        assert!(refused.contains("is longer than"), "{}", &refused[..200]);
        assert!(refused.len() < 1024, "the URI is not echoed whole");
    }
    if let (Some(before), Some(after)) = (before, client.peak_rss_kib()) {
        eprintln!("peak resident memory {before} KiB before, {after} KiB after");
        assert!(
            after < before + 40 * 1024,
            "ten 4 MiB URIs took the peak from {before} to {after} KiB"
        );
    }

    let long = "y".repeat(15 * 1024);
    let mut refused = None;
    for index in 0..2000 {
        let long_uri: Uri = format!("file:///d{index}/{long}/SKILL.md").parse().unwrap();
        client.notify::<DidOpenTextDocument>(DidOpenTextDocumentParams {
            text_document: TextDocumentItem {
                uri: long_uri,
                language_id: "markdown".to_owned(),
                version: 1,
                text: String::new(),
            },
        });
        if index % 100 == 99
            && let Some(message) = client.pending.iter().find(|m| {
                m["params"]["message"]
                    .as_str()
                    .is_some_and(|text| text.contains("would hold more than"))
            })
        {
            refused = Some((index, message.clone()));
            break;
        }
        // Let the server keep up.
        if index % 100 == 99 {
            let _ = hover_text(&mut client, &uri(&sandbox.join("x")), 0, 0);
        }
    }
    let (index, _) = refused.expect("the bound is reached");
    assert!(
        (1000..2000).contains(&index),
        "refused at the {index}th document"
    );
    assert_eq!(client.stop(), 0);
}

/// One `didChange` of 10,000 edits on an 8 MiB document is applied on a
/// rope and indexed once; applied one by one, each re-indexed the whole
/// document (26 s in a release build, minutes in a debug one).
#[test]
fn a_change_of_many_edits_on_a_large_document_is_applied_at_once() {
    let sandbox = Sandbox::new();
    let head =
        "---\nname: pdf-tools\ndescription: Fill PDF forms. Use when filling PDF forms.\n---\n";
    let line = "a line of text in a large document, 48 bytes.\n";
    let lines = 8 * 1024 * 1024 / line.len();
    let text = format!("{head}{}# End\n", line.repeat(lines));
    let file = sandbox.write("skills/pdf-tools/SKILL.md", &text);
    let mut client = Client::initialized(&sandbox, Value::Null);
    let uri = client.open(&file, &text);
    let large = client.diagnostics(&uri, Some(1));
    assert!(codes(&large).contains(&"E021".to_owned()), "{large:?}");
    // Each edit deletes the next lines after the frontmatter; the last
    // deletes what is left of them.
    let per_edit = lines / 10_000;
    let mut changes: Vec<TextDocumentContentChangeEvent> = (0..9_999)
        .map(|_| TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(4, 0),
                Position::new(4 + u32::try_from(per_edit).unwrap(), 0),
            )),
            range_length: None,
            text: String::new(),
        })
        .collect();
    changes.push(TextDocumentContentChangeEvent {
        range: Some(Range::new(
            Position::new(4, 0),
            Position::new(4 + u32::try_from(lines - 9_999 * per_edit).unwrap(), 0),
        )),
        range_length: None,
        text: "# PDF tools\n".to_owned(),
    });
    let started = Instant::now();
    client.notify::<DidChangeTextDocument>(DidChangeTextDocumentParams {
        text_document: VersionedTextDocumentIdentifier {
            uri: uri.clone(),
            version: 2,
        },
        content_changes: changes,
    });
    let small = client.diagnostics(&uri, Some(2));
    eprintln!(
        "10,000 edits on 8 MiB applied and checked in {:?}",
        started.elapsed()
    );
    assert!(small.diagnostics.is_empty(), "{small:?}");
    // The lines are indexed anew: a hover on the last line's heading.
    let formatted = client.request::<Formatting>(DocumentFormattingParams {
        text_document: document(&uri),
        options: FormattingOptions::default(),
        work_done_progress_params: WorkDoneProgressParams::default(),
    });
    assert_eq!(
        formatted,
        Ok(json!([])),
        "already formatted: {head}# PDF tools\n# End\n"
    );
    assert_eq!(client.stop(), 0);
}

#[test]
fn exit_without_shutdown_is_an_error_and_a_closed_pipe_ends_it() {
    let sandbox = Sandbox::new();
    let mut client = Client::initialized(&sandbox, Value::Null);
    client.notify::<Exit>(());
    assert_eq!(client.wait(), 1);
    let mut client = Client::initialized(&sandbox, json!({"profile": "no-such-client"}));
    let warning = client.wait_for(|m| m["method"] == "window/showMessage");
    assert!(
        warning["params"]["message"]
            .as_str()
            .unwrap()
            .contains("no-such-client")
    );
    drop(std::mem::replace(&mut client.stdin, {
        // Close stdin by swapping in a pipe to a process that ends at once.
        let mut cat = std::process::Command::new("true")
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = cat.stdin.take().unwrap();
        let _ = cat.wait();
        stdin
    }));
    assert_eq!(client.wait(), 1);
}

/// Zed builds the extension in editors/zed itself (to WebAssembly), so this
/// crate's build never compiles it. What must not drift is what it tells
/// Zed: one server called `aigent`, started for the languages whose files
/// the server checks, with the `lsp` subcommand, at aigent's own version.
#[test]
fn zed_extension_starts_this_server_for_the_files_it_checks() {
    let extension = Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/zed");
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(extension.join("extension.toml")).unwrap())
            .unwrap();
    assert_eq!(
        manifest["version"].as_str(),
        Some(env!("CARGO_PKG_VERSION"))
    );
    let servers = manifest["language_servers"].as_table().unwrap();
    assert_eq!(servers.keys().collect::<Vec<_>>(), ["aigent"]);
    let languages: Vec<&str> = servers["aigent"]["languages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|language| language.as_str())
        .collect();
    // Zed's names for the buffers holding SKILL.md, declarations
    // (JSON/YAML) and plugin manifests (JSON).
    for needed in ["Markdown", "JSON", "YAML"] {
        assert!(
            languages.contains(&needed),
            "{needed} missing from {languages:?}"
        );
    }

    let source = std::fs::read_to_string(extension.join("src/lib.rs")).unwrap();
    assert!(source.contains(r#"const SERVER: &str = "aigent";"#));
    assert!(source.contains(r#"vec!["lsp".to_string()]"#));
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors.md"))
            .unwrap();
    assert!(docs.contains("`editors/zed`") && docs.contains("lsp.aigent"));
}
