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

/// `params`: its kind and, for an object, the kind of its `_meta` and the
/// measure of its `arguments`.
struct Params {
    kind: Kind,
    meta: Option<Kind>,
    arguments: Option<Measure>,
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
            arguments: None,
        })
    }
    fn visit_i64<E>(self, _: i64) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Number,
            meta: None,
            arguments: None,
        })
    }
    fn visit_u64<E>(self, _: u64) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Number,
            meta: None,
            arguments: None,
        })
    }
    fn visit_f64<E>(self, _: f64) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Number,
            meta: None,
            arguments: None,
        })
    }
    fn visit_str<E>(self, _: &str) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::String,
            meta: None,
            arguments: None,
        })
    }
    fn visit_unit<E>(self) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Null,
            meta: None,
            arguments: None,
        })
    }
    fn visit_none<E>(self) -> Result<Params, E> {
        Ok(Params {
            kind: Kind::Null,
            meta: None,
            arguments: None,
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
            arguments: None,
        })
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
        let mut meta = None;
        let mut arguments = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if LOOK_FOR_META && key == "_meta" {
                meta = Some(map.next_value::<Shallow>()?.0);
            } else if LOOK_FOR_META && key == "arguments" {
                arguments = Some(map.next_value::<Measure>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(Params {
            kind: Kind::Object,
            meta,
            arguments,
        })
    }
}

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KindVisitor::<true>)
    }
}

/// What a value costs: its bytes written as serde_json writes it compactly
/// (as the server measures `arguments` once parsed), and how many JSON
/// values it holds (itself, everything inside it, and each object key).
/// Counted while it is skipped: nothing of it is kept.
///
/// Both are needed because a parsed value costs memory by each: a long
/// string about its length, an array of one-letter strings or digits
/// several hundred bytes per item (the nodes of each parse of it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Measure {
    pub bytes: usize,
    pub values: usize,
}

impl Measure {
    fn scalar(bytes: usize) -> Self {
        Measure { bytes, values: 1 }
    }

    /// The measure of a value already parsed, as [`Measure`] counts its
    /// text (the server's second look, after rmcp).
    pub fn of_parsed(object: &serde_json::Map<String, Value>) -> Self {
        let mut values = 1usize;
        let mut pending: Vec<&Value> = Vec::new();
        for (_, value) in object {
            values = values.saturating_add(1);
            pending.push(value);
        }
        // A stack, not recursion: the depth is the client's.
        while let Some(value) = pending.pop() {
            values = values.saturating_add(1);
            match value {
                Value::Array(items) => pending.extend(items),
                Value::Object(members) => {
                    values = values.saturating_add(members.len());
                    pending.extend(members.values());
                }
                _ => {}
            }
        }
        Measure {
            bytes: written_size(object),
            values,
        }
    }
}

/// Counts what is written to it.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(bytes.len());
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn written_size<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    let mut counter = Counter(0);
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

impl<'de> Deserialize<'de> for Measure {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MeasureVisitor)
    }
}

struct MeasureVisitor;

impl<'de> serde::de::Visitor<'de> for MeasureVisitor {
    type Value = Measure;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, value: bool) -> Result<Measure, E> {
        Ok(Measure::scalar(if value { 4 } else { 5 }))
    }
    fn visit_i64<E>(self, value: i64) -> Result<Measure, E> {
        Ok(Measure::scalar(written_size(&value)))
    }
    fn visit_u64<E>(self, value: u64) -> Result<Measure, E> {
        Ok(Measure::scalar(written_size(&value)))
    }
    fn visit_f64<E>(self, value: f64) -> Result<Measure, E> {
        Ok(Measure::scalar(written_size(&value)))
    }
    fn visit_str<E>(self, value: &str) -> Result<Measure, E> {
        Ok(Measure::scalar(written_size(value)))
    }
    fn visit_unit<E>(self) -> Result<Measure, E> {
        Ok(Measure::scalar(4))
    }
    fn visit_none<E>(self) -> Result<Measure, E> {
        Ok(Measure::scalar(4))
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, value: D) -> Result<Measure, D::Error> {
        value.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Measure, A::Error> {
        let mut total = Measure::scalar(2);
        let mut first = true;
        while let Some(item) = seq.next_element::<Measure>()? {
            total.bytes = total
                .bytes
                .saturating_add(item.bytes)
                .saturating_add(usize::from(!first));
            total.values = total.values.saturating_add(item.values);
            first = false;
        }
        Ok(total)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Measure, A::Error> {
        let mut total = Measure::scalar(2);
        let mut first = true;
        while let Some(key) = map.next_key::<Measure>()? {
            let value: Measure = map.next_value()?;
            // `"key":value`, and a comma before all but the first.
            total.bytes = total
                .bytes
                .saturating_add(key.bytes)
                .saturating_add(1)
                .saturating_add(value.bytes)
                .saturating_add(usize::from(!first));
            total.values = total
                .values
                .saturating_add(key.values)
                .saturating_add(value.values);
            first = false;
        }
        Ok(total)
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

/// The sizes a stdio line is held to before rmcp parses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A `tools/call`'s `arguments`, in bytes of compact JSON
    /// (`--max-argument-bytes`).
    pub arguments: usize,
    /// A `tools/call`'s `arguments`, in JSON values, object keys counted
    /// (`--max-argument-values`).
    pub values: usize,
}

/// A message may be this much larger than the argument cap (the rest of a
/// `tools/call`: its name, `_meta`, the envelope), as over HTTP.
pub const MESSAGE_MARGIN: usize = 64 * 1024;

/// A message may hold this many JSON values beyond the argument cap (its
/// envelope, name and `_meta`).
pub const MESSAGE_VALUE_MARGIN: usize = 4096;

impl Limits {
    /// No limit but rmcp's own.
    pub const NONE: Limits = Limits {
        arguments: usize::MAX,
        values: usize::MAX,
    };

    /// The largest line handed to rmcp.
    pub fn message(self) -> usize {
        self.arguments.saturating_add(MESSAGE_MARGIN)
    }

    /// The most JSON values in a message handed to rmcp, whatever its
    /// method: rmcp parses all of it, `params` of a notification too.
    pub fn message_values(self) -> usize {
        self.values.saturating_add(MESSAGE_VALUE_MARGIN)
    }

    /// How many JSON values `message` holds, when that is over
    /// [`Self::message_values`]. A value takes at least two bytes of a
    /// message (`1,`), so a shorter message is not scanned again.
    fn values_over(self, message: &[u8]) -> Option<usize> {
        let limit = self.message_values();
        if message.len() / 2 < limit {
            return None;
        }
        let measure: Measure = serde_json::from_slice(message).ok()?;
        (measure.values > limit).then_some(measure.values)
    }

    /// Whether rmcp must not read `message` at all: over the bytes or the
    /// values a message may have. A request among such is answered with
    /// its error ([`refused`]); anything else is dropped or refused whole.
    pub fn oversized(self, message: &[u8]) -> bool {
        message.len() > self.message() || self.values_over(message).is_some()
    }

    /// The `-32602` for `arguments` over a limit, naming the field, the
    /// limit, and the flag that raises it; `None` within both.
    pub fn refusal(self, measure: Measure) -> Option<Refusal> {
        if measure.bytes > self.arguments {
            let (size, limit) = (measure.bytes, self.arguments);
            return Some((
                -32602,
                format!(
                    "`arguments` is {size} bytes of JSON; this server accepts at most {limit} \
                     (aigent mcp serve --max-argument-bytes)"
                ),
                json!({"field": "arguments", "size": size, "limit": limit}),
            ));
        }
        if measure.values > self.values {
            let (values, limit) = (measure.values, self.values);
            return Some((
                -32602,
                format!(
                    "`arguments` holds {values} JSON values; this server accepts at most {limit} \
                     (aigent mcp serve --max-argument-values)"
                ),
                json!({"field": "arguments", "values": values, "limit": limit}),
            ));
        }
        None
    }
}

/// The error for a request rmcp would answer without its id, or that is
/// over `limits`, with the id; `None` for every other message
/// (notifications, which have no id to echo, among them). Over HTTP, the
/// body is looked at with this before rmcp reads it.
pub fn refused(message: &[u8], limits: Limits) -> Option<(Value, Refusal)> {
    let probe: Probe<'_> = serde_json::from_slice(message).ok()?;
    refusal_of(probe, limits, message.len(), limits.values_over(message))
}

/// What refuses a request before rmcp reads it: too large (its
/// `arguments` over the cap, or the whole message over the cap plus
/// [`MESSAGE_MARGIN`]), or `params` of a shape rmcp answers without the id.
fn refusal_of(
    probe: Probe<'_>,
    limits: Limits,
    length: usize,
    values_over: Option<usize>,
) -> Option<(Value, Refusal)> {
    let id = probe.id?;
    let method = probe.method?;
    let measure = probe.params.as_ref().and_then(|params| params.arguments);
    if method == "tools/call"
        && let Some(refusal) = measure.and_then(|measure| limits.refusal(measure))
    {
        return Some((id, refusal));
    }
    if length > limits.message() {
        let limit = limits.message();
        return Some((
            id,
            (
                -32600,
                format!(
                    "the message is {length} bytes; this server accepts at most {limit} \
                     (aigent mcp serve --max-argument-bytes, plus 64 KiB)"
                ),
                json!({"field": "message", "size": length, "limit": limit}),
            ),
        ));
    }
    if let Some(values) = values_over {
        let limit = limits.message_values();
        return Some((
            id,
            (
                -32600,
                format!(
                    "the message holds {values} JSON values; this server accepts at most {limit} \
                     (aigent mcp serve --max-argument-values, plus {MESSAGE_VALUE_MARGIN})"
                ),
                json!({"field": "message", "values": values, "limit": limit}),
            ),
        ));
    }
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
    refused(line, Limits::NONE).map(|(_, refusal)| refusal)
}

/// What a line is.
#[derive(Default)]
struct Look {
    /// An `initialize` request: the stream is a session, not stateless
    /// 2026-07-28.
    initialize: bool,
    /// A `tools/call` request (with an id).
    call: bool,
    /// The refusal rmcp gets instead of it, if any.
    refused: Option<(Value, Refusal)>,
    /// Over the bytes or values a message may have: never handed on.
    oversized: bool,
}

fn look(line: &[u8], limits: Limits) -> Look {
    let values_over = limits.values_over(line);
    let oversized = line.len() > limits.message() || values_over.is_some();
    let Ok(probe) = serde_json::from_slice::<Probe<'_>>(line) else {
        return Look {
            oversized,
            ..Look::default()
        };
    };
    let initialize = probe.method.as_deref() == Some("initialize");
    let call = probe.method.as_deref() == Some("tools/call")
        && probe.id.as_ref().is_some_and(|id| !id.is_null());
    Look {
        initialize,
        call,
        refused: refusal_of(probe, limits, line.len(), values_over),
        oversized,
    }
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
    limits: Limits,
    /// Told of each `tools/call` handed on.
    calls: Option<super::lifecycle::Lifecycle>,
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
            limits: Limits::NONE,
            calls: None,
        }
    }

    /// Holds lines to `limits`: a request over them is answered with its
    /// error (and its id) without rmcp parsing it, and any other line over
    /// them (a notification, a response, what is not JSON) is dropped. A
    /// parsed message costs many times its size in memory; a refused one
    /// costs its line.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Tells `lifecycle` of each `tools/call` handed on, so that a drain
    /// knows the calls read and not yet started.
    pub fn counting_calls(mut self, lifecycle: super::lifecycle::Lifecycle) -> Self {
        self.calls = Some(lifecycle);
        self
    }

    /// A whole line: on to rmcp, or its refusal in its place, or nothing.
    fn pass(&mut self, line: Vec<u8>) {
        let look = look(&line, self.limits);
        self.session |= look.initialize;
        match look.refused {
            Some((id, refusal)) => {
                self.ready
                    .extend_from_slice(&replacement(id, refusal, self.session))
            }
            // Too large, and nothing to answer.
            None if look.oversized => {}
            None => {
                if look.call
                    && let Some(calls) = &self.calls
                {
                    calls.read_call();
                }
                if self.ready.is_empty() {
                    self.ready = line;
                } else {
                    self.ready.extend_from_slice(&line);
                }
            }
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
                self.pass(line);
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
                    // A last line without its newline is looked at too.
                    this.eof = true;
                    let rest = std::mem::take(&mut this.line);
                    if !rest.is_empty() {
                        this.pass(rest);
                    }
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
    fn arguments_are_measured_as_serde_json_writes_them() {
        for arguments in [
            json!({}),
            json!({"a": "x\"y\\z\n\u{1}\u{7f}é🙂", "b": [1, -2, 3.5, 1e300, 18446744073709551615u64]}),
            json!({"n": null, "t": true, "f": false, "o": {"k": [[], {}, [null]]}}),
            json!({"x": 1.0, "y": -0.0, "z": 0.1, "w": 123456789012345678i64}),
        ] {
            // As sent, with spaces and escapes the compact text has not.
            let sent = serde_json::to_string_pretty(&arguments)
                .unwrap()
                .replace("é", "\\u00e9");
            let measured: Measure = serde_json::from_str(&sent).unwrap();
            let parsed: Value = serde_json::from_str(&sent).unwrap();
            assert_eq!(measured.bytes, parsed.to_string().len(), "{sent}");
            let Value::Object(object) = parsed else {
                unreachable!()
            };
            assert_eq!(Measure::of_parsed(&object), measured, "{sent}");
        }
    }

    async fn through(limits: Limits, input: &str) -> Vec<Value> {
        let mut read = Precheck::new(input.as_bytes()).with_limits(limits);
        let mut out = String::new();
        read.read_to_string(&mut out).await.unwrap();
        out.lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    #[tokio::test]
    async fn requests_over_the_limits_are_refused_before_rmcp_reads_them() {
        let limits = Limits {
            arguments: 100,
            values: usize::MAX,
        };
        let call = |id: u32, text: &str| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": "t", "arguments": {"text": text}}})
            .to_string()
        };
        let small = call(1, &"a".repeat(80));
        let large = call(2, &"a".repeat(200));
        let big_list = json!({"jsonrpc": "2.0", "id": "l", "method": "tools/list",
                              "params": {"cursor": "c".repeat(MESSAGE_MARGIN + 200)}})
        .to_string();
        let big_note = json!({"jsonrpc": "2.0", "method": "notifications/x",
                              "params": {"x": "c".repeat(MESSAGE_MARGIN + 200)}})
        .to_string();
        let input = format!("{small}\n{large}\n{big_list}\n{big_note}\n{small}");
        let lines = through(limits, &input).await;
        assert_eq!(lines.len(), 4, "the notification is dropped");
        assert_eq!(lines[0].to_string(), small);
        assert_eq!(lines[1]["id"], 2);
        assert_eq!(lines[1]["method"], REFUSED_METHOD);
        let (code, message, data) = carried_error(Some(&lines[1]["params"])).unwrap();
        assert_eq!(code, -32602);
        assert!(message.contains("--max-argument-bytes"), "{message}");
        assert_eq!(data["field"], "arguments");
        assert_eq!(data["size"], 211);
        assert_eq!(data["limit"], 100);
        assert_eq!(lines[2]["id"], "l");
        let (code, _, data) = carried_error(Some(&lines[2]["params"])).unwrap();
        assert_eq!(code, -32600);
        assert_eq!(data["field"], "message");
        // The last line, without its newline, is held to the same limits.
        assert_eq!(lines[3].to_string(), small);
        // Without limits, all pass as they are.
        assert_eq!(through(Limits::NONE, &input).await.len(), 5);
    }

    #[test]
    fn values_are_counted_keys_included_and_held_to_their_cap() {
        let measure = |text: &str| serde_json::from_str::<Measure>(text).unwrap().values;
        assert_eq!(measure("1"), 1);
        assert_eq!(measure("[]"), 1);
        assert_eq!(measure("[1,[2,3]]"), 5);
        assert_eq!(measure(r#"{"a":1,"b":{"c":null}}"#), 7);
        let limits = Limits {
            arguments: usize::MAX,
            values: 5,
        };
        let call = |arguments: Value| {
            json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                   "params": {"name": "t", "arguments": arguments}})
            .to_string()
        };
        assert!(refused(call(json!({"w": [1, 2]})).as_bytes(), limits).is_none());
        let (id, (code, message, data)) =
            refused(call(json!({"w": [1, 2, 3]})).as_bytes(), limits).unwrap();
        assert_eq!((id, code), (json!(9), -32602));
        assert!(message.contains("--max-argument-values"), "{message}");
        assert_eq!(data, json!({"field": "arguments", "values": 6, "limit": 5}));
        // Only a call's arguments are held to it.
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                          "params": {"arguments": [1, 2, 3, 4, 5]}});
        assert!(refused(list.to_string().as_bytes(), limits).is_none());
    }

    #[tokio::test]
    async fn any_message_of_too_many_values_is_refused_or_dropped_whatever_its_method() {
        let limits = Limits {
            arguments: usize::MAX,
            values: 10,
        };
        let many = vec![1; MESSAGE_VALUE_MARGIN + 20];
        let list = json!({"jsonrpc": "2.0", "id": "l", "method": "tools/list",
                          "params": {"cursor": many}});
        let note = json!({"jsonrpc": "2.0", "method": "notifications/x",
                          "params": {"x": many}});
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let lines = through(limits, &format!("{list}\n{note}\n{ping}\n")).await;
        assert_eq!(lines.len(), 2, "the notification is dropped: {lines:?}");
        let (code, message, data) = carried_error(Some(&lines[0]["params"])).unwrap();
        assert_eq!((lines[0]["id"].clone(), code), (json!("l"), -32600));
        assert!(message.contains("--max-argument-values"), "{message}");
        assert_eq!(data["field"], "message");
        assert_eq!(data["limit"], 10 + MESSAGE_VALUE_MARGIN);
        assert_eq!(lines[1], ping);
        assert!(limits.oversized(note.to_string().as_bytes()));
        assert!(!limits.oversized(ping.to_string().as_bytes()));
    }

    #[test]
    fn a_forged_refusal_carries_only_the_two_codes() {
        assert!(carried_error(Some(&json!({"code": -32000, "message": "x"}))).is_none());
        assert!(carried_error(Some(&json!("x"))).is_none());
    }
}
