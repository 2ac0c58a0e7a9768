//! The language server's state machine: LSP messages in, LSP messages
//! out, no I/O. The binary (`src/cli/commands/lsp.rs`) reads and writes the
//! frames on stdio and calls [`Server::handle`] for each message, then
//! [`Server::flush`] once no message is waiting, so a burst of edits is
//! checked once.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument,
    DidOpenTextDocument, DidSaveTextDocument, Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    CodeActionRequest, Completion, Formatting, HoverRequest, Initialize, Request as _, Shutdown,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CompletionItem, CompletionItemKind, CompletionOptions,
    CompletionParams, CompletionTextEdit, Diagnostic as LspDiagnostic, DiagnosticSeverity,
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentFormattingParams, Hover, HoverContents, HoverParams,
    HoverProviderCapability, InitializeParams, InitializeResult, MarkupContent, MarkupKind,
    MessageType, NumberOrString, OneOf, Position, PositionEncodingKind, PublishDiagnosticsParams,
    Range, SaveOptions, ServerCapabilities, ServerInfo, ShowMessageParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, TextEdit, Uri, WorkspaceEdit,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::actions::{self, ActionKind, Edit};
use super::analysis::{self, Finding};
use super::complete;
use super::document::{Document, Encoding, Kind, uri_to_path};
use super::hover;
use super::settings::Settings;
use super::wire::{DocumentNote, shown};
use crate::report::Severity;

/// All open documents together hold at most this much (text, line index,
/// URI and path); a document whose text would go past it is held without
/// its text (and says so) until others are closed, and one whose URI alone
/// would is not opened.
pub const MAX_TOTAL_BYTES: usize = 64 * 1024 * 1024;

/// The longest URI a document is opened under: a path as long as Linux
/// allows (4 KiB), every byte percent-encoded, fits.
pub const MAX_URI_BYTES: usize = 16 * 1024;

/// At most this many documents are open at once; more are refused (their
/// `didOpen` is answered with a message, and they get no diagnostics).
pub const MAX_DOCUMENTS: usize = 4096;

/// The LSP error code for a request before `initialize`.
const SERVER_NOT_INITIALIZED: i32 = -32002;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Uninitialized,
    Running,
    ShutDown,
}

/// An open document and the findings last computed for it.
#[derive(Debug)]
struct Open {
    uri: Uri,
    document: Document,
    /// Bumped on every change: findings are current when theirs matches.
    generation: u64,
    findings: Option<(u64, Vec<Finding>)>,
}

/// The server: open documents, settings, and the protocol's state.
#[derive(Debug)]
pub struct Server {
    state: State,
    documents: HashMap<String, Open>,
    settings: Settings,
    root: Option<PathBuf>,
    /// The registry when the settings name none (`--commands`, `AIGENT_COMMANDS`).
    fallback_registry: Option<PathBuf>,
    encoding: Encoding,
    /// Documents whose diagnostics are to be published.
    dirty: BTreeSet<String>,
    /// Documents closed since the last flush: their diagnostics are cleared.
    closed: Vec<Uri>,
}

/// What [`Server::handle`] asks of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// The client sent `exit`: stop with this exit code (0 after a
    /// `shutdown`, 1 without one, as the protocol says).
    Exit(i32),
}

impl Server {
    pub fn new(fallback_registry: Option<PathBuf>) -> Self {
        Self {
            state: State::Uninitialized,
            documents: HashMap::new(),
            settings: Settings {
                registry: fallback_registry.clone(),
                ..Settings::default()
            },
            root: None,
            fallback_registry,
            encoding: Encoding::default(),
            dirty: BTreeSet::new(),
            closed: Vec::new(),
        }
    }

    /// Whether diagnostics are waiting to be published.
    pub fn has_pending(&self) -> bool {
        !self.dirty.is_empty() || !self.closed.is_empty()
    }

    /// Handles one message; what to send goes to `out`.
    pub fn handle(&mut self, message: Message, out: &mut Vec<Message>) -> Flow {
        match message {
            Message::Request(request) => {
                let response = self.request(request, out);
                out.push(Message::Response(response));
                Flow::Continue
            }
            Message::Notification(notification) => self.notification(notification, out),
            // The server sends no requests, so it expects no responses.
            Message::Response(_) => Flow::Continue,
        }
    }

    /// Handles a document's `didOpen` or `didChange`, read by
    /// [`super::wire::parse`] straight into its type.
    pub fn document(&mut self, note: DocumentNote, out: &mut Vec<Message>) -> Flow {
        if self.state != State::Running {
            return Flow::Continue;
        }
        match note {
            DocumentNote::Open(params) => self.did_open(params, out),
            DocumentNote::Change(params) => self.did_change(params, out),
            DocumentNote::TooManyChanges(document) => {
                let key = document.uri.as_str().to_owned();
                if let Some(open) = self.documents.get_mut(&key) {
                    open.document.version = document.version;
                    open.document.evict();
                    open.generation += 1;
                    open.findings = None;
                    self.dirty.insert(key.clone());
                }
                out.push(show_message(
                    MessageType::WARNING,
                    format!(
                        "aigent: {}: a change of more than {} edits was not applied; \
                         the document waits for its whole text",
                        shown(&key),
                        super::wire::MAX_CONTENT_CHANGES
                    ),
                ));
            }
            DocumentNote::Invalid(method, problem) => out.push(show_message(
                MessageType::WARNING,
                format!("aigent: ignored a `{method}` notification: invalid params: {problem}"),
            )),
        }
        Flow::Continue
    }

    /// Publishes the diagnostics of every document changed since the last
    /// flush.
    pub fn flush(&mut self, out: &mut Vec<Message>) {
        for uri in std::mem::take(&mut self.closed) {
            out.push(notification::<PublishDiagnostics>(
                PublishDiagnosticsParams {
                    uri,
                    diagnostics: Vec::new(),
                    version: None,
                },
            ));
        }
        for key in std::mem::take(&mut self.dirty) {
            let Some(open) = self.documents.get(&key) else {
                continue;
            };
            let uri = open.uri.clone();
            let version = open.document.version;
            let diagnostics = self.lsp_diagnostics(&key);
            out.push(notification::<PublishDiagnostics>(
                PublishDiagnosticsParams {
                    uri,
                    diagnostics,
                    version: Some(version),
                },
            ));
        }
    }

    fn request(&mut self, request: Request, out: &mut Vec<Message>) -> Response {
        let id = request.id.clone();
        match self.state {
            State::Uninitialized if request.method != Initialize::METHOD => {
                return Response::new_err(
                    id,
                    SERVER_NOT_INITIALIZED,
                    "the server is not initialized".to_owned(),
                );
            }
            State::Running if request.method == Initialize::METHOD => {
                return Response::new_err(
                    id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is already initialized".to_owned(),
                );
            }
            State::ShutDown => {
                return Response::new_err(
                    id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".to_owned(),
                );
            }
            _ => {}
        }
        let result = match request.method.as_str() {
            Initialize::METHOD => params(request).map(|p| self.initialize(p, out)),
            Shutdown::METHOD => {
                self.state = State::ShutDown;
                Ok(Value::Null)
            }
            HoverRequest::METHOD => params(request).map(|p| self.hover(p)),
            Completion::METHOD => params(request).map(|p| self.completion(p)),
            CodeActionRequest::METHOD => params(request).map(|p| self.code_actions(p)),
            Formatting::METHOD => params(request).map(|p| self.formatting(p)),
            method => Err(Refusal {
                code: ErrorCode::MethodNotFound,
                message: format!("aigent does not handle `{method}`"),
            }),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(refusal) => Response::new_err(id, refusal.code as i32, refusal.message),
        }
    }

    fn notification(&mut self, notification: Notification, out: &mut Vec<Message>) -> Flow {
        if notification.method == "exit" {
            return Flow::Exit(if self.state == State::ShutDown { 0 } else { 1 });
        }
        if self.state != State::Running {
            return Flow::Continue;
        }
        let method = notification.method.clone();
        let handled = match method.as_str() {
            DidOpenTextDocument::METHOD => note_params(notification).map(|p| self.did_open(p, out)),
            DidChangeTextDocument::METHOD => {
                note_params(notification).map(|p| self.did_change(p, out))
            }
            DidCloseTextDocument::METHOD => note_params(notification).map(|p| self.did_close(p)),
            DidChangeConfiguration::METHOD => {
                note_params(notification).map(|p| self.did_change_configuration(p, out))
            }
            // Files around the open ones changed (a linked file, a twin
            // declaration, a plugin's directory): check them all again.
            DidSaveTextDocument::METHOD | DidChangeWatchedFiles::METHOD => {
                self.dirty.extend(self.documents.keys().cloned());
                Ok(())
            }
            // `initialized`, `$/cancelRequest` (every request is answered
            // before the next is read), `$/setTrace` and the like.
            _ => Ok(()),
        };
        if let Err(problem) = handled {
            out.push(show_message(
                MessageType::WARNING,
                format!("aigent: ignored a `{method}` notification: {problem}"),
            ));
        }
        Flow::Continue
    }

    fn initialize(&mut self, params: InitializeParams, out: &mut Vec<Message>) -> Value {
        #[allow(deprecated)] // root_uri: older clients send only it
        let root = params
            .workspace_folders
            .as_ref()
            .and_then(|folders| folders.first())
            .map(|folder| folder.uri.as_str().to_owned())
            .or_else(|| params.root_uri.as_ref().map(|uri| uri.as_str().to_owned()));
        self.root = root.as_deref().and_then(uri_to_path);
        if let Some(options) = &params.initialization_options {
            self.apply_settings(options, out);
        }
        let utf8 = params
            .capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        self.encoding = if utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        self.state = State::Running;
        let result = InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(if utf8 {
                    PositionEncodingKind::UTF8
                } else {
                    PositionEncodingKind::UTF16
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                            include_text: Some(false),
                        })),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec![":".to_owned(), "\"".to_owned()]),
                    ..CompletionOptions::default()
                }),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![
                            CodeActionKind::QUICKFIX,
                            CodeActionKind::SOURCE,
                        ]),
                        ..CodeActionOptions::default()
                    },
                )),
                document_formatting_provider: Some(OneOf::Left(true)),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "aigent".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
        };
        serde_json::to_value(result).unwrap_or(Value::Null)
    }

    /// Takes the client's settings, or keeps the current ones and says why.
    fn apply_settings(&mut self, value: &Value, out: &mut Vec<Message>) {
        match Settings::from_value(
            value,
            self.root.as_deref(),
            self.fallback_registry.as_deref(),
        ) {
            Ok(settings) => {
                self.settings = settings;
                // The registry may have moved: every kind is looked at again.
                let registry = self.settings.registry.clone();
                for open in self.documents.values_mut() {
                    if let Some(path) = &open.document.path {
                        open.document.kind = Kind::of(path, registry.as_deref());
                    }
                    open.findings = None;
                }
                self.dirty.extend(self.documents.keys().cloned());
            }
            Err(problem) => out.push(show_message(MessageType::WARNING, problem)),
        }
    }

    fn did_open(&mut self, params: DidOpenTextDocumentParams, out: &mut Vec<Message>) {
        let item = params.text_document;
        let key = item.uri.as_str().to_owned();
        if key.len() > MAX_URI_BYTES {
            out.push(show_message(
                MessageType::WARNING,
                format!(
                    "aigent: a URI of {} bytes is longer than {MAX_URI_BYTES}; {} is not checked",
                    key.len(),
                    shown(&key)
                ),
            ));
            return;
        }
        // Opened again: what it held is replaced (and, when the new one is
        // refused, its diagnostics cleared).
        if let Some(previous) = self.documents.remove(&key) {
            self.dirty.remove(&key);
            self.closed.push(previous.uri);
        }
        if self.documents.len() >= MAX_DOCUMENTS {
            out.push(show_message(
                MessageType::WARNING,
                format!(
                    "aigent: {MAX_DOCUMENTS} documents are open; {} is not checked",
                    shown(&key)
                ),
            ));
            return;
        }
        let path = uri_to_path(item.uri.as_str());
        let names = 2 * key.len() + path.as_ref().map_or(0, |path| path.as_os_str().len());
        if self.total_bytes() + names > MAX_TOTAL_BYTES {
            out.push(show_message(
                MessageType::WARNING,
                format!(
                    "aigent: the open documents would hold more than {MAX_TOTAL_BYTES} bytes; {} is not checked",
                    shown(&key)
                ),
            ));
            return;
        }
        let kind = path.as_deref().map_or(Kind::Other, |path| {
            Kind::of(path, self.settings.registry.as_deref())
        });
        let document = Document::new(path, kind, item.version, item.text);
        self.documents.insert(
            key.clone(),
            Open {
                uri: item.uri,
                document,
                generation: 0,
                findings: None,
            },
        );
        self.bound_total(&key);
        self.dirty.insert(key);
    }

    fn did_change(&mut self, params: DidChangeTextDocumentParams, out: &mut Vec<Message>) {
        let key = params.text_document.uri.as_str().to_owned();
        let encoding = self.encoding;
        let Some(open) = self.documents.get_mut(&key) else {
            out.push(show_message(
                MessageType::WARNING,
                format!(
                    "aigent: a change to {}, which is not open, was ignored",
                    shown(&key)
                ),
            ));
            return;
        };
        open.document.version = params.text_document.version;
        open.generation += 1;
        open.findings = None;
        // All the edits, then one index of the lines.
        if let Err(problem) = open.document.apply(params.content_changes, encoding) {
            out.push(show_message(
                MessageType::WARNING,
                format!("aigent: {}: {problem}", shown(&key)),
            ));
        }
        self.bound_total(&key);
        self.dirty.insert(key);
    }

    fn did_close(&mut self, params: DidCloseTextDocumentParams) {
        let key = params.text_document.uri.as_str().to_owned();
        if let Some(open) = self.documents.remove(&key) {
            self.dirty.remove(&key);
            // Its diagnostics go with it.
            self.closed.push(open.uri);
        }
    }

    fn did_change_configuration(
        &mut self,
        params: DidChangeConfigurationParams,
        out: &mut Vec<Message>,
    ) {
        // A client that pulls its settings sends none: keep ours.
        if !params.settings.is_null() {
            self.apply_settings(&params.settings, out);
        }
    }

    /// What the open documents hold: text, line index, path and URIs
    /// (the map's key and the URI each open document keeps).
    fn total_bytes(&self) -> usize {
        self.documents
            .iter()
            .map(|(key, open)| key.len() + open.uri.as_str().len() + open.document.footprint())
            .sum()
    }

    /// Drops the text of the document `key` when all the open ones
    /// together would hold more than [`MAX_TOTAL_BYTES`].
    fn bound_total(&mut self, key: &str) {
        if self.total_bytes() > MAX_TOTAL_BYTES
            && let Some(open) = self.documents.get_mut(key)
        {
            open.document.evict();
        }
    }

    /// The findings on an open document, computed when stale.
    fn findings(&mut self, key: &str) -> &[Finding] {
        let settings = &self.settings;
        let Some(open) = self.documents.get_mut(key) else {
            return &[];
        };
        let current =
            matches!(&open.findings, Some((generation, _)) if *generation == open.generation);
        if !current {
            open.findings = Some((
                open.generation,
                analysis::findings(&open.document, settings),
            ));
        }
        open.findings
            .as_ref()
            .map_or(&[], |(_, findings)| findings.as_slice())
    }

    fn lsp_diagnostics(&mut self, key: &str) -> Vec<LspDiagnostic> {
        let encoding = self.encoding;
        let findings = self.findings(key).to_vec();
        let Some(open) = self.documents.get(key) else {
            return Vec::new();
        };
        findings
            .iter()
            .map(|finding| to_lsp(&open.document, finding, encoding))
            .collect()
    }

    fn open(&self, uri: &Uri) -> Result<&Open, Refusal> {
        self.documents.get(uri.as_str()).ok_or_else(|| Refusal {
            code: ErrorCode::InvalidParams,
            message: format!("{} is not open", uri.as_str()),
        })
    }

    /// The 0-based line and byte column of a position in an open document.
    fn place(&self, uri: &Uri, position: Position) -> Result<(usize, usize), Refusal> {
        let document = &self.open(uri)?.document;
        let line = (position.line as usize).min(document.line_count() - 1);
        let start = document.offset(Position::new(position.line, 0), self.encoding);
        let offset = document.offset(
            Position::new(u32::try_from(line).unwrap_or(0), position.character),
            self.encoding,
        );
        Ok((line, offset - start.min(offset)))
    }

    fn hover(&mut self, params: HoverParams) -> Value {
        let uri = params.text_document_position_params.text_document.uri;
        let position = params.text_document_position_params.position;
        let Ok((line, column)) = self.place(&uri, position) else {
            return Value::Null;
        };
        let findings = self.findings(uri.as_str()).to_vec();
        let Ok(open) = self.open(&uri) else {
            return Value::Null;
        };
        match hover::hover(&open.document, line, column, &self.settings, &findings) {
            Some(text) => serde_json::to_value(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: text,
                }),
                range: None,
            })
            .unwrap_or(Value::Null),
            None => Value::Null,
        }
    }

    fn completion(&mut self, params: CompletionParams) -> Value {
        let uri = params.text_document_position.text_document.uri;
        let position = params.text_document_position.position;
        let Ok((line, column)) = self.place(&uri, position) else {
            return Value::Null;
        };
        let Ok(open) = self.open(&uri) else {
            return Value::Null;
        };
        let document = &open.document;
        let encoding = self.encoding;
        let text = document.line(line);
        let items: Vec<CompletionItem> = complete::complete(document, line, column, &self.settings)
            .into_iter()
            .map(|item| {
                let at = |byte: usize| {
                    Position::new(
                        u32::try_from(line).unwrap_or(u32::MAX),
                        super::document::units(&text[..byte.min(text.len())], encoding),
                    )
                };
                CompletionItem {
                    label: item.label,
                    kind: Some(if item.is_key {
                        CompletionItemKind::PROPERTY
                    } else {
                        CompletionItemKind::VALUE
                    }),
                    detail: item.detail,
                    text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                        range: Range::new(at(item.start), at(item.end)),
                        new_text: item.insert,
                    })),
                    ..CompletionItem::default()
                }
            })
            .collect();
        serde_json::to_value(items).unwrap_or(Value::Null)
    }

    fn code_actions(&mut self, params: CodeActionParams) -> Value {
        let uri = params.text_document.uri;
        let findings = self.findings(uri.as_str()).to_vec();
        let Ok(open) = self.open(&uri) else {
            return Value::Array(Vec::new());
        };
        let document = &open.document;
        let first = params.range.start.line as usize;
        let last = params.range.end.line as usize;
        let asked: Vec<&LspDiagnostic> = params.context.diagnostics.iter().collect();
        let wanted: Vec<&Finding> = findings
            .iter()
            .filter(|finding| {
                let line = finding.line.unwrap_or(0);
                (first..=last).contains(&line)
                    || asked.iter().any(|diagnostic| {
                        diagnostic.code
                            == Some(NumberOrString::String(finding.diagnostic.code.to_owned()))
                            && diagnostic.range.start.line as usize == line
                    })
            })
            .collect();
        let only = params.context.only.unwrap_or_default();
        let encoding = self.encoding;
        let actions: Vec<CodeActionOrCommand> =
            actions::actions(document, &self.settings, &findings, &wanted)
                .into_iter()
                .filter_map(|action| {
                    let kind = match action.kind {
                        ActionKind::QuickFix => CodeActionKind::QUICKFIX,
                        ActionKind::Format => CodeActionKind::SOURCE,
                    };
                    let allowed = only.is_empty()
                        || only.iter().any(|wanted| {
                            kind.as_str() == wanted.as_str()
                                || kind.as_str().starts_with(&format!("{}.", wanted.as_str()))
                        });
                    if !allowed {
                        return None;
                    }
                    let diagnostics: Vec<LspDiagnostic> = findings
                        .iter()
                        .filter(|finding| action.fixes.contains(&finding.diagnostic.code))
                        .map(|finding| to_lsp(document, finding, encoding))
                        .collect();
                    let edit = text_edit(document, &action.edit, encoding);
                    Some(CodeActionOrCommand::CodeAction(CodeAction {
                        title: action.title,
                        kind: Some(kind),
                        is_preferred: Some(action.kind == ActionKind::QuickFix),
                        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
                        edit: Some(WorkspaceEdit {
                            changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                            ..WorkspaceEdit::default()
                        }),
                        ..CodeAction::default()
                    }))
                })
                .collect();
        serde_json::to_value(actions).unwrap_or(Value::Null)
    }

    fn formatting(&mut self, params: DocumentFormattingParams) -> Value {
        let uri = params.text_document.uri;
        let Ok(open) = self.open(&uri) else {
            return Value::Null;
        };
        let document = &open.document;
        let edits: Vec<TextEdit> = document
            .path
            .as_deref()
            .and_then(|path| actions::format_edit(document, path))
            .map(|edit| vec![text_edit(document, &edit, self.encoding)])
            .unwrap_or_default();
        serde_json::to_value(edits).unwrap_or(Value::Null)
    }
}

/// A request refused with an LSP error.
struct Refusal {
    code: ErrorCode,
    message: String,
}

fn params<P: DeserializeOwned>(request: Request) -> Result<P, Refusal> {
    serde_json::from_value(request.params).map_err(|err| Refusal {
        code: ErrorCode::InvalidParams,
        message: format!("invalid `{}` params: {err}", request.method),
    })
}

fn note_params<P: DeserializeOwned>(notification: Notification) -> Result<P, String> {
    serde_json::from_value(notification.params).map_err(|err| format!("invalid params: {err}"))
}

fn notification<N: lsp_types::notification::Notification>(params: N::Params) -> Message {
    Message::Notification(Notification::new(N::METHOD.to_owned(), params))
}

fn show_message(typ: MessageType, message: String) -> Message {
    notification::<ShowMessage>(ShowMessageParams { typ, message })
}

fn text_edit(document: &Document, edit: &Edit, encoding: Encoding) -> TextEdit {
    TextEdit {
        range: Range::new(
            document.position(edit.start, encoding),
            document.position(edit.end, encoding),
        ),
        new_text: edit.text.clone(),
    }
}

/// A finding as an LSP diagnostic: its code, severity and message, on
/// its whole line (or at the file's start when it has none).
fn to_lsp(document: &Document, finding: &Finding, encoding: Encoding) -> LspDiagnostic {
    let diagnostic = &finding.diagnostic;
    let range = match finding.line {
        Some(line) => document.line_range(line, encoding),
        None => Range::new(Position::new(0, 0), Position::new(0, 0)),
    };
    let mut message = diagnostic.message.clone();
    if let (Some(file), Some(line)) = (&diagnostic.file, diagnostic.line) {
        message.push_str(&format!(" ({file}, line {line})"));
    }
    LspDiagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.code.to_owned())),
        source: Some("aigent".to_owned()),
        message,
        data: diagnostic
            .field
            .as_ref()
            .map(|field| serde_json::json!({ "field": field })),
        ..LspDiagnostic::default()
    }
}
