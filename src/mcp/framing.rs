//! A look at each incoming stdio line before rmcp parses it, for what rmcp
//! answers without the request's id.
//!
//! rmcp's stdio transport turns a line that is JSON but not a message it
//! can type (a request whose `params` is a string, or whose
//! `params._meta` is not an object) into `-32600 Invalid Request` with a
//! null id, so the client cannot tell which request failed. JSON-RPC 2.0
//! says the id is echoed whenever it can be read. This reader finds such a
//! request and hands rmcp, in its place, a request for [`REFUSED_METHOD`]
//! with the same id, whose params carry the error; the handler answers it
//! with that error (`-32600` when `params` is not structured, `-32602`
//! naming `params` or `params._meta` otherwise). Every other line passes
//! through unchanged.
//!
//! Lines are held whole, up to [`MAX_LINE`] (rmcp's own limit); a longer
//! line is passed through as it comes, for rmcp to drop. The look at a line
//! notes only the kinds of `params` and `params._meta` and skips every
//! value inside, so it costs one scan and no copy of the arguments.

use std::borrow::Cow;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, ReadBuf};

/// The method a refused request becomes; the handler answers it with the
/// error in its params.
pub const REFUSED_METHOD: &str = "aigent/refused-request";

/// rmcp's limit on one line (`DEFAULT_MAX_LINE_LENGTH`).
pub const MAX_LINE: usize = 16 * 1024 * 1024;

#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(default)]
    id: Option<Value>,
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(default)]
    params: Option<Params>,
}

/// An error for a request: code, message, data.
pub type Refusal = (i32, String, Value);

/// What kind of JSON value something is; its contents are skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    String,
    Number,
    Boolean,
    Null,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Object => "an object",
            Kind::Array => "an array",
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::Boolean => "a boolean",
            Kind::Null => "null",
        }
    }
}

/// `params`: its kind and, for an object, the kind of its `_meta`.
struct Params {
    kind: Kind,
    meta: Option<Kind>,
}

struct KindVisitor<const LOOK_FOR_META: bool>;

impl<'de, const LOOK_FOR_META: bool> serde::de::Visitor<'de> for KindVisitor<LOOK_FOR_META> {
    type Value = Params;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Boolean,
            meta: None,
        })
    }
    fn visit_i64<E>(self, _: i64) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Number,
            meta: None,
        })
    }
    fn visit_u64<E>(self, _: u64) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Number,
            meta: None,
        })
    }
    fn visit_f64<E>(self, _: f64) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Number,
            meta: None,
        })
    }
    fn visit_str<E>(self, _: &str) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::String,
            meta: None,
        })
    }
    fn visit_unit<E>(self) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Null,
            meta: None,
        })
    }
    fn visit_none<E>(self) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Null,
            meta: None,
        })
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, value: D) -> Result<Params, D::Error> {
        value.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Params, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Params {
            kind: Kind::Array,
            meta: None,
        })
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
        let mut meta = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if LOOK_FOR_META && key == "_meta" {
                meta = Some(map.next_value::<Shallow>()?.0);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(Params {
            kind: Kind::Object,
            meta,
        })
    }
}

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KindVisitor::<true>)
    }
}

/// A value's kind only.
struct Shallow(Kind);

impl<'de> Deserialize<'de> for Shallow {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(KindVisitor::<false>)
            .map(|params| Shallow(params.kind))
    }
}

/// The error for a request line rmcp would answer without its id, as
/// (code, message, data), with the id; `None` for every other line
/// (notifications, which have no id to echo, among them).
fn refusal_with_id(line: &[u8]) -> Option<(Value, Refusal)> {
    let probe: Probe<'_> = serde_json::from_slice(line).ok()?;
    refusal_of(probe)
}

fn refusal_of(probe: Probe<'_>) -> Option<(Value, Refusal)> {
    let id = probe.id?;
    let method = probe.method?;
    let params = probe.params?;
    let refusal = match params.kind {
        Kind::Object => {
            let meta = params.meta?;
            (meta != Kind::Object).then(|| {
                (
                    -32602,
                    format!(
                        "`params._meta` of {method} must be an object, not {}",
                        meta.name()
                    ),
                    json!({"field": "params._meta", "expected": "an object"}),
                )
            })?
        }
        Kind::Array => (
            -32602,
            format!("`params` of {method} must be an object, not an array"),
            json!({"field": "params", "expected": "an object"}),
        ),
        Kind::Null => return None,
        other => (
            -32600,
            format!(
                "`params` of {method} must be an object (JSON-RPC allows only an object or an array), not {}",
                other.name()
            ),
            json!({"field": "params", "expected": "an object"}),
        ),
    };
    Some((id, refusal))
}

/// The error for a request line rmcp would answer without its id, as
/// (code, message, data); `None` for every other line.
pub fn refusal(line: &[u8]) -> Option<Refusal> {
    refusal_with_id(line).map(|(_, refusal)| refusal)
}

/// The line rmcp gets instead of a refused request: the same id, the
/// refusal in the params.
/// What a line is: an `initialize` request (the stream is a session, not
/// stateless 2026-07-28), and the line rmcp gets instead of it, if any.
fn look(line: &[u8]) -> (bool, Option<(Value, Refusal)>) {
    let Ok(probe) = serde_json::from_slice::<Probe<'_>>(line) else {
        return (false, None);
    };
    let initialize = probe.method.as_deref() == Some("initialize");
    (initialize, refusal_of(probe))
}

/// The line rmcp gets instead of a refused request: the same id, the
/// refusal in the params. Outside a session (stateless 2026-07-28, where
/// rmcp requires the revision in every request's `_meta`) it names that
/// revision, so that the refusal reaches the handler.
fn replacement(id: Value, refusal: Refusal, session: bool) -> Vec<u8> {
    let (code, message, data) = refusal;
    let mut params = json!({"code": code, "message": message, "data": data});
    if !session {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        });
    }
    let mut text = json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": REFUSED_METHOD,
        "params": params,
    })
    .to_string()
    .into_bytes();
    text.push(b'\n');
    text
}

/// The error a [`REFUSED_METHOD`] request carries, if it is one this
/// reader made (a client sending the method itself gets only these codes).
pub fn carried_error(params: Option<&Value>) -> Option<Refusal> {
    let params = params?.as_object()?;
    let code = params.get("code")?.as_i64()?;
    let code = i32::try_from(code)
        .ok()
        .filter(|code| [-32600, -32602].contains(code))?;
    let message = params.get("message")?.as_str()?.to_owned();
    Some((
        code,
        message,
        params.get("data").cloned().unwrap_or(Value::Null),
    ))
}

/// Reads `inner` line by line, replacing requests rmcp would answer
/// without their id (see the module's comment).
pub struct Precheck<R> {
    inner: R,
    /// The line being gathered.
    line: Vec<u8>,
    /// What is ready for the reader, from `sent`.
    ready: Vec<u8>,
    sent: usize,
    /// The current line passed [`MAX_LINE`]: pass bytes on until its end.
    overlong: bool,
    eof: bool,
    /// An `initialize` request went by.
    session: bool,
}

impl<R> Precheck<R> {
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            line: Vec::new(),
            ready: Vec::new(),
            sent: 0,
            overlong: false,
            eof: false,
            session: false,
        }
    }

    /// Takes in `bytes`, moving each whole line (or an overlong line's
    /// bytes) to `ready`.
    fn take(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let end = bytes.iter().position(|byte| *byte == b'\n');
            let (piece, rest) = match end {
                Some(at) => bytes.split_at(at + 1),
                None => (bytes, &[][..]),
            };
            bytes = rest;
            if self.overlong {
                self.ready.extend_from_slice(piece);
                self.overlong = end.is_none();
                continue;
            }
            self.line.extend_from_slice(piece);
            if end.is_some() {
                let line = std::mem::take(&mut self.line);
                let (initialize, refused) = look(&line);
                self.session |= initialize;
                match refused {
                    Some((id, refusal)) => {
                        self.ready
                            .extend_from_slice(&replacement(id, refusal, self.session))
                    }
                    None if self.ready.is_empty() => self.ready = line,
                    None => self.ready.extend_from_slice(&line),
                }
            } else if self.line.len() > MAX_LINE {
                self.ready.append(&mut self.line);
                self.overlong = true;
            }
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Precheck<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.sent < this.ready.len() {
                let n = buf.remaining().min(this.ready.len() - this.sent);
                buf.put_slice(&this.ready[this.sent..this.sent + n]);
                this.sent += n;
                if this.sent == this.ready.len() {
                    this.ready.clear();
                    this.sent = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 16 * 1024];
            let mut chunk_buf = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut chunk_buf) {
                Poll::Ready(Ok(())) if chunk_buf.filled().is_empty() => {
                    // A last line without its newline goes on as it is.
                    this.eof = true;
                    let rest = std::mem::take(&mut this.line);
                    this.ready.extend_from_slice(&rest);
                }
                Poll::Ready(Ok(())) => {
                    let filled = chunk_buf.filled().to_vec();
                    this.take(&filled);
                }
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[test]
    fn requests_rmcp_would_answer_without_an_id_are_found() {
        let code = |line: &str| {
            refusal(line.as_bytes()).map(|(code, _, data)| (code, data["field"].clone()))
        };
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}"#),
            Some((-32600, json!("params")))
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":[1]}"#),
            Some((-32602, json!("params")))
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":3}}"#),
            Some((-32602, json!("params._meta")))
        );
        // Notifications, well-formed requests, and what is not JSON at all.
        for line in [
            r#"{"jsonrpc":"2.0","method":"notifications/x","params":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/list","params":"x"}"#,
            "not json",
        ] {
            assert_eq!(code(line), None, "{line}");
        }
    }

    #[tokio::test]
    async fn lines_pass_through_or_are_replaced_with_the_same_id() {
        let input = concat!(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"tools/call\",\"params\":5}\n",
            "tail without newline"
        );
        let mut read = Precheck::new(input.as_bytes());
        let mut out = String::new();
        read.read_to_string(&mut out).await.unwrap();
        let lines: Vec<&str> = out.split('\n').collect();
        assert_eq!(
            lines[0],
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
        );
        let replaced: Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(replaced["id"], "x");
        assert_eq!(replaced["method"], REFUSED_METHOD);
        assert_eq!(
            carried_error(Some(&replaced["params"])).map(|(code, ..)| code),
            Some(-32600)
        );
        assert_eq!(lines[2], "tail without newline");
    }

    #[test]
    fn a_forged_refusal_carries_only_the_two_codes() {
        assert!(carried_error(Some(&json!({"code": -32000, "message": "x"}))).is_none());
        assert!(carried_error(Some(&json!("x"))).is_none());
    }
}
