//! A message's body read as JSON-RPC, with its memory bounded before it is
//! parsed. A first pass reads only `method` and `id` and allocates nothing
//! for the rest; the method then sets what the body may cost:
//!
//! - `didOpen` and `didChange`, which carry documents, go straight into
//!   their types (text as strings, at most [`MAX_CONTENT_CHANGES`] edits),
//!   never through a `serde_json::Value`, whose tree of tiny values costs
//!   dozens of times the body (a 32 MiB notification cost 1.7 GB);
//! - `didChangeWatchedFiles`, whose params the server does not read, is
//!   taken without them;
//! - every other message is at most [`MAX_OTHER_MESSAGE_BYTES`].

use std::fmt;

use lsp_server::{ErrorCode, Message, Notification, RequestId};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidOpenTextDocument, Notification as _,
};
use lsp_types::{
    DidChangeTextDocumentParams, DidOpenTextDocumentParams, TextDocumentContentChangeEvent,
    VersionedTextDocumentIdentifier,
};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The largest message other than a document's open or change: settings,
/// capabilities and requests are a few KiB.
pub const MAX_OTHER_MESSAGE_BYTES: usize = 1024 * 1024;

/// The most content changes one `didChange` may carry. Past it the edits
/// are not kept: the document waits for its whole text again.
pub const MAX_CONTENT_CHANGES: usize = 100_000;

/// A message read from the client.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// A document opened or changed, read straight into its type.
    Document(DocumentNote),
    /// An answer to a message that could not be read, as JSON text.
    Malformed(String),
}

/// `didOpen` or `didChange`.
#[derive(Debug)]
pub enum DocumentNote {
    Open(DidOpenTextDocumentParams),
    Change(DidChangeTextDocumentParams),
    /// A `didChange` of more than [`MAX_CONTENT_CHANGES`] edits: none is
    /// applied.
    TooManyChanges(VersionedTextDocumentIdentifier),
    /// Its params did not read: the method, and why.
    Invalid(&'static str, String),
}

/// The body of one frame, read.
pub fn parse(body: &[u8]) -> Incoming {
    let envelope: Envelope = match serde_json::from_slice(body) {
        Ok(envelope) => envelope,
        Err(err) if err.is_data() => Envelope::default(),
        Err(err) => return not_json(&err),
    };
    match envelope.method.0.as_deref() {
        Some(DidOpenTextDocument::METHOD) if envelope.id.0.is_none() => Incoming::Document(
            match serde_json::from_slice::<Params<DidOpenTextDocumentParams>>(body) {
                Ok(note) => DocumentNote::Open(note.params),
                Err(err) => DocumentNote::Invalid(DidOpenTextDocument::METHOD, err.to_string()),
            },
        ),
        Some(DidChangeTextDocument::METHOD) if envelope.id.0.is_none() => {
            Incoming::Document(match serde_json::from_slice::<Params<ChangeParams>>(body) {
                Ok(note) if note.params.content_changes.more => {
                    DocumentNote::TooManyChanges(note.params.text_document)
                }
                Ok(note) => DocumentNote::Change(DidChangeTextDocumentParams {
                    text_document: note.params.text_document,
                    content_changes: note.params.content_changes.changes,
                }),
                Err(err) => DocumentNote::Invalid(DidChangeTextDocument::METHOD, err.to_string()),
            })
        }
        Some(DidChangeWatchedFiles::METHOD) if envelope.id.0.is_none() => {
            Incoming::Message(Message::Notification(Notification::new(
                DidChangeWatchedFiles::METHOD.to_owned(),
                Value::Null,
            )))
        }
        method if body.len() > MAX_OTHER_MESSAGE_BYTES => Incoming::Malformed(malformed_response(
            envelope.id.0,
            ErrorCode::InvalidRequest,
            &format!(
                "a {} message of {} bytes; the limit for it is {MAX_OTHER_MESSAGE_BYTES}",
                method.map_or_else(
                    || "JSON-RPC".to_owned(),
                    |method| format!("`{}`", shown(method))
                ),
                body.len()
            ),
        )),
        _ => parse_small(body),
    }
}

/// A message of at most [`MAX_OTHER_MESSAGE_BYTES`], through a `Value`.
fn parse_small(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(err) => return not_json(&err),
    };
    let id = value.get("id").and_then(request_id);
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(err) => Incoming::Malformed(malformed_response(
            id,
            ErrorCode::InvalidRequest,
            &format!("the message is not a JSON-RPC request, response or notification: {err}"),
        )),
    }
}

fn not_json(err: &serde_json::Error) -> Incoming {
    Incoming::Malformed(malformed_response(
        None,
        ErrorCode::ParseError,
        &format!("the message is not JSON: {err}"),
    ))
}

fn request_id(id: &Value) -> Option<RequestId> {
    match id {
        Value::Number(number) => number
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(RequestId::from),
        Value::String(text) => Some(RequestId::from(text.clone())),
        _ => None,
    }
}

/// A method name or URI as a message shows it: at most 200 characters.
pub fn shown(text: &str) -> String {
    const MOST: usize = 200;
    match text.char_indices().nth(MOST) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// What the first pass reads: the method and id when they have the
/// protocol's types; everything else is skipped without being kept.
#[derive(Default, Deserialize)]
struct Envelope {
    #[serde(default)]
    method: Loose<String>,
    #[serde(default)]
    id: Loose<RequestId>,
}

/// A value of the wanted kind, or `None` for any other (skipped).
struct Loose<T>(Option<T>);

impl<T> Default for Loose<T> {
    fn default() -> Self {
        Self(None)
    }
}

struct LooseVisitor<T>(std::marker::PhantomData<T>);

macro_rules! ignore_others {
    () => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Loose(None))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Loose(None))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Loose(None))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Loose(None))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Loose(None))
        }
    };
}

impl<'de> Visitor<'de> for LooseVisitor<String> {
    type Value = Loose<String>;
    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Loose(Some(text.to_owned())))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Loose(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Loose(None))
    }
    ignore_others!();
}

impl<'de> Visitor<'de> for LooseVisitor<RequestId> {
    type Value = Loose<RequestId>;
    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Loose(Some(RequestId::from(text.to_owned()))))
    }
    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Self::Value, E> {
        Ok(Loose(i32::try_from(number).ok().map(RequestId::from)))
    }
    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Self::Value, E> {
        Ok(Loose(i32::try_from(number).ok().map(RequestId::from)))
    }
    ignore_others!();
}

impl<'de, T> Deserialize<'de> for Loose<T>
where
    LooseVisitor<T>: Visitor<'de, Value = Loose<T>>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LooseVisitor(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
struct Params<P> {
    params: P,
}

/// `didChange`'s params with the edits counted as they are read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChangeParams {
    text_document: VersionedTextDocumentIdentifier,
    content_changes: Bounded,
}

/// At most [`MAX_CONTENT_CHANGES`] edits; the rest skipped, not kept.
struct Bounded {
    changes: Vec<TextDocumentContentChangeEvent>,
    more: bool,
}

impl<'de> Deserialize<'de> for Bounded {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Changes;
        impl<'de> Visitor<'de> for Changes {
            type Value = Bounded;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("an array of content changes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bounded, A::Error> {
                let mut bounded = Bounded {
                    changes: Vec::new(),
                    more: false,
                };
                while bounded.changes.len() < MAX_CONTENT_CHANGES {
                    match seq.next_element()? {
                        Some(change) => bounded.changes.push(change),
                        None => return Ok(bounded),
                    }
                }
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    bounded.more = true;
                }
                Ok(bounded)
            }
        }
        deserializer.deserialize_seq(Changes)
    }
}

/// The response to a message that could not be read: a JSON-RPC error
/// with the request's id when one could be read (`null` otherwise), as
/// JSON text for the transport to frame.
pub fn malformed_response(id: Option<RequestId>, code: ErrorCode, message: &str) -> String {
    let id = id.map_or(Value::Null, |id| {
        serde_json::to_value(id).unwrap_or(Value::Null)
    });
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code as i32, "message": message },
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn malformed(incoming: Incoming) -> String {
        match incoming {
            Incoming::Malformed(text) => text,
            other => panic!("read: {other:?}"),
        }
    }

    #[test]
    fn bodies_that_are_not_json_rpc_get_errors_with_their_id() {
        assert!(malformed(parse(b"{not json")).contains("-32700"));
        let text = malformed(parse(br#"{"jsonrpc":"2.0","id":7,"method":5}"#));
        assert!(text.contains("\"id\":7"), "{text}");
        assert!(text.contains("-32600"), "{text}");
    }

    #[test]
    fn only_document_notifications_may_be_large() {
        let filler = format!("[{}]", vec!["{}"; MAX_OTHER_MESSAGE_BYTES / 3].join(","));
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{filler}}}"#
        );
        let text = malformed(parse(request.as_bytes()));
        assert!(
            text.contains("\"id\":3") && text.contains("`textDocument/hover`"),
            "{text}"
        );
        let note = format!(r#"{{"jsonrpc":"2.0","method":"$/anything","params":{filler}}}"#);
        assert!(malformed(parse(note.as_bytes())).contains("the limit for it is"));
        // The watched files' list is not kept, whatever its size.
        let watched = format!(
            r#"{{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{filler}}}"#
        );
        assert!(matches!(
            parse(watched.as_bytes()),
            Incoming::Message(Message::Notification(n)) if n.params.is_null()
        ));
        // A document's text is.
        let text = "x".repeat(MAX_OTHER_MESSAGE_BYTES * 2);
        let open = format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"junk":{filler},"textDocument":{{"uri":"file:///a/SKILL.md","languageId":"markdown","version":1,"text":"{text}"}}}}}}"#
        );
        match parse(open.as_bytes()) {
            Incoming::Document(DocumentNote::Open(params)) => {
                assert_eq!(params.text_document.text.len(), text.len());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_change_of_too_many_edits_keeps_none() {
        let change = |count: usize| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"contentChanges":[{}],"textDocument":{{"uri":"file:///a/SKILL.md","version":2}}}}}}"#,
                vec![r#"{"text":""}"#; count].join(",")
            )
        };
        match parse(change(MAX_CONTENT_CHANGES).as_bytes()) {
            Incoming::Document(DocumentNote::Change(params)) => {
                assert_eq!(params.content_changes.len(), MAX_CONTENT_CHANGES);
            }
            other => panic!("{other:?}"),
        }
        match parse(change(MAX_CONTENT_CHANGES + 1).as_bytes()) {
            Incoming::Document(DocumentNote::TooManyChanges(document)) => {
                assert_eq!(document.version, 2);
            }
            other => panic!("{other:?}"),
        }
        let bad =
            br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"contentChanges":7}}"#;
        assert!(matches!(
            parse(bad),
            Incoming::Document(DocumentNote::Invalid(..))
        ));
    }

    #[test]
    fn long_names_are_shown_cut() {
        assert_eq!(shown("abc"), "abc");
        let long = "é".repeat(300);
        assert_eq!(shown(&long).chars().count(), 201);
    }
}
