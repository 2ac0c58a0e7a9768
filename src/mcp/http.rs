//! `aigent mcp serve --http ADDR`: the same server over MCP's Streamable
//! HTTP transport, for one guarded server shared by many agents.
//!
//! rmcp's `StreamableHttpService` speaks the transport (JSON-RPC over POST,
//! per-request revision negotiation, the `MCP-Protocol-Version` header, Host
//! and Origin checks against DNS rebinding, its own body cap). It is a
//! tower service with no listener, so this file adds what sits in front of
//! it, in this order, before any byte of a body is read:
//!
//! 1. two pools of connections ([`super::connections`]): those that have
//!    shown the token, capped (over it, `503`), and those that have not
//!    yet, capped lower, whose oldest is closed when a new one comes over
//!    the cap; an unauthenticated connection is answered once and closed;
//! 2. a deadline on each request's headers (hyper's `header_read_timeout`);
//! 3. the host ([`super::host`]): exactly one `Host` header, a valid port,
//!    a name the server answers to, and an absolute-form target naming the
//!    same (`400`, or `403` for another name);
//! 4. the path: only [`MCP_PATH`];
//! 5. the bearer token, compared in constant time: missing or wrong is
//!    `401` with `WWW-Authenticate`, and the connection is closed. Every
//!    request needs it, on loopback too: nothing runs unauthenticated;
//! 6. for a POST, `Content-Type: application/json` (`415`) and a declared
//!    `Content-Length` within the cap (`413`);
//! 7. the body, read under the size cap (`413`) and a deadline (`408`).
//!
//! With an authorization server named (`--oauth-authorization-server`),
//! the front also serves OAuth protected-resource metadata (RFC 9728) at
//! `/.well-known/oauth-protected-resource` (and the same with the
//! resource's path after it), without a token, and points at it from every
//! `401`'s `WWW-Authenticate` (`resource_metadata`). rmcp's server has no
//! such piece (its `auth` feature is a client).
//!
//! The server keeps no session (rmcp's stateless mode, no session manager):
//! each request is served on its own, so replicas behind a load balancer
//! share nothing but the registry and the audit log.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited, combinators::BoxBody};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::connections::{Connection, Connections, Refused};
use super::host::AllowedHosts;
use super::lifecycle::Lifecycle;
use super::server::{AigentServer, Reporter};
use super::{Notice, ServeError, ServeOptions};

/// The one path the server answers on.
pub const MCP_PATH: &str = "/mcp";
/// Default cap on connections that have shown the token.
pub const MAX_CONNECTIONS: usize = 256;
/// Default cap on connections that have not (yet) shown the token.
pub const MAX_UNAUTHENTICATED_CONNECTIONS: usize = 64;
/// Default deadline for a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Default deadline for a request's body, from the end of its headers.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The shortest token accepted: guessing must not be practical.
pub const MIN_TOKEN_BYTES: usize = 16;
/// The longest token accepted (and read from a file).
const MAX_TOKEN_BYTES: usize = 4096;

type Body = BoxBody<Bytes, Infallible>;

/// A bearer token: never printed, compared in constant time.
#[derive(Clone)]
pub struct BearerToken(Arc<[u8]>);

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(<redacted>)")
    }
}

/// Why a token could not be had. The token itself is never in the message.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("cannot read the token file {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("the environment variable {0} is not set or is not valid UTF-8")]
    UnsetVariable(String),
    #[error(
        "the token from {0} is unusable: it must be {min} to {max} characters of letters, digits and -._~+/= (RFC 6750)",
        min = MIN_TOKEN_BYTES,
        max = MAX_TOKEN_BYTES
    )]
    Malformed(String),
}

impl BearerToken {
    /// The token is the file's content without its trailing line break.
    /// The file is read as any other hostile file (no FIFO, capped).
    pub fn from_file(path: &Path) -> Result<Self, TokenError> {
        let bytes =
            crate::fsutil::read_regular_file(path, MAX_TOKEN_BYTES as u64 + 2).map_err(|err| {
                TokenError::Unreadable {
                    path: path.display().to_string(),
                    reason: err.to_string(),
                }
            })?;
        Self::parse(&bytes, &path.display().to_string())
    }

    pub fn from_env(variable: &str) -> Result<Self, TokenError> {
        let value =
            std::env::var(variable).map_err(|_| TokenError::UnsetVariable(variable.to_owned()))?;
        Self::parse(value.as_bytes(), &format!("${variable}"))
    }

    fn parse(bytes: &[u8], source: &str) -> Result<Self, TokenError> {
        let token = bytes
            .strip_suffix(b"\n")
            .map_or(bytes, |rest| rest.strip_suffix(b"\r").unwrap_or(rest));
        let well_formed = (MIN_TOKEN_BYTES..=MAX_TOKEN_BYTES).contains(&token.len())
            && token
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b));
        if well_formed {
            Ok(Self(token.into()))
        } else {
            Err(TokenError::Malformed(source.to_owned()))
        }
    }

    /// Whether `presented` is the token. The time taken depends on the
    /// lengths only, never on where the first difference is.
    pub fn matches(&self, presented: &[u8]) -> bool {
        let expected = &self.0;
        let mut difference = u8::from(expected.len() != presented.len());
        for (index, &byte) in expected.iter().enumerate() {
            let other = presented.get(index).copied().unwrap_or(!byte);
            difference |= byte ^ other;
        }
        std::hint::black_box(difference) == 0
    }
}

/// The well-known path of OAuth protected-resource metadata (RFC 9728).
pub const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource";
/// The longest URL accepted for the resource or an authorization server.
const MAX_URL_BYTES: usize = 2048;

/// OAuth protected-resource metadata (RFC 9728): which authorization
/// servers issue tokens for this server. Published only when the operator
/// names one; aigent itself still accepts only its bearer token, so this
/// is for a deployment where an OAuth-aware gateway in front checks the
/// authorization server's tokens (docs/mcp.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceMetadata {
    /// The resource identifier: the URL clients reach the MCP endpoint by.
    resource: HttpsUrl,
    authorization_servers: Vec<HttpsUrl>,
}

/// An absolute `https` URL (or `http` to a loopback host), without
/// credentials, query or fragment, and safe to quote in a header.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HttpsUrl {
    text: String,
    /// Where the path starts in `text` (`text.len()` when there is none).
    path_at: usize,
}

impl HttpsUrl {
    fn parse(text: &str, what: &str) -> Result<Self, String> {
        let refuse = |why: &str| Err(format!("{what} `{text}` {why}"));
        if text.len() > MAX_URL_BYTES {
            return Err(format!("{what} is over {MAX_URL_BYTES} bytes"));
        }
        if !text.bytes().all(|b| b.is_ascii_graphic()) || text.contains(['"', '\\']) {
            return refuse("has a character that is not allowed in a URL here");
        }
        if text.contains(['?', '#']) {
            return refuse("must have no query or fragment (RFC 9728)");
        }
        let (scheme, rest) = text
            .split_once("://")
            .map_or((String::new(), ""), |(scheme, rest)| {
                (scheme.to_ascii_lowercase(), rest)
            });
        let authority_end = rest.find('/').unwrap_or(rest.len());
        let authority = &rest[..authority_end];
        if authority.is_empty() || authority.contains('@') {
            return refuse("needs a host, and no user name or password");
        }
        let host = match authority.strip_prefix('[') {
            Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
            None => authority.split(':').next().unwrap_or(""),
        };
        let loopback = host.eq_ignore_ascii_case("localhost")
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        match scheme.as_str() {
            "https" => {}
            "http" if loopback => {}
            _ => return refuse("must be an https:// URL (http:// only to a loopback host)"),
        }
        Ok(Self {
            text: text.to_owned(),
            path_at: text.len() - rest.len() + authority_end,
        })
    }

    /// The path, without a trailing `/` (empty for none).
    fn path(&self) -> &str {
        self.text[self.path_at..].trim_end_matches('/')
    }

    /// Scheme and authority.
    fn origin(&self) -> &str {
        &self.text[..self.path_at]
    }
}

impl ResourceMetadata {
    /// `resource` is the URL clients use for the MCP endpoint (say
    /// `https://mcp.example.com/mcp`); `authorization_servers` the issuer
    /// URLs of the authorization servers (at least one).
    pub fn new(resource: &str, authorization_servers: &[String]) -> Result<Self, String> {
        if authorization_servers.is_empty() {
            return Err("OAuth resource metadata needs an authorization server".to_owned());
        }
        Ok(Self {
            resource: HttpsUrl::parse(resource, "the OAuth resource")?,
            authorization_servers: authorization_servers
                .iter()
                .map(|server| HttpsUrl::parse(server, "the authorization server"))
                .collect::<Result<_, _>>()?,
        })
    }

    /// Where the metadata is, as a client finds it from the resource's URL
    /// (RFC 9728 §3.1: the well-known path goes between the host and the
    /// resource's path).
    pub fn metadata_url(&self) -> String {
        format!(
            "{}{RESOURCE_METADATA_PATH}{}",
            self.resource.origin(),
            self.resource.path()
        )
    }

    /// Whether a request for `path` asks for the metadata: the path-specific
    /// location, or the bare well-known path that clients also try.
    fn is_asked_by(&self, path: &str) -> bool {
        path.strip_prefix(RESOURCE_METADATA_PATH)
            .is_some_and(|rest| rest.is_empty() || rest == self.resource.path())
    }

    /// The metadata document.
    pub fn document(&self) -> serde_json::Value {
        serde_json::json!({
            "resource": self.resource.text,
            "authorization_servers": self
                .authorization_servers
                .iter()
                .map(|server| server.text.as_str())
                .collect::<Vec<_>>(),
            "bearer_methods_supported": ["header"],
            "resource_name": "aigent mcp serve",
        })
    }
}

/// How the HTTP transport runs.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub listen: SocketAddr,
    /// Listening on an address that is not loopback was asked for.
    pub allow_remote: bool,
    pub token: BearerToken,
    /// Names clients reach the server by (the `Host` header), beyond the
    /// loopback ones.
    pub allowed_hosts: Vec<String>,
    /// Browser origins allowed to call; any other `Origin` gets `403`.
    pub allowed_origins: Vec<String>,
    pub max_body_bytes: usize,
    /// Connections that have shown the token.
    pub max_connections: usize,
    /// Connections that have not yet shown the token (see
    /// [`super::connections`]).
    pub max_unauthenticated_connections: usize,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// OAuth protected-resource metadata to publish, if any.
    pub resource_metadata: Option<ResourceMetadata>,
}

impl HttpOptions {
    pub fn new(listen: SocketAddr, token: BearerToken) -> Self {
        Self {
            listen,
            allow_remote: false,
            token,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            max_body_bytes: super::lifecycle::MAX_ARGUMENT_BYTES + 64 * 1024,
            max_connections: MAX_CONNECTIONS,
            max_unauthenticated_connections: MAX_UNAUTHENTICATED_CONNECTIONS,
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            resource_metadata: None,
        }
    }

    /// Refuses a configuration that would expose the server: a non-loopback
    /// address without `allow_remote`, or with it but no name clients may
    /// use (every `Host` would be refused, or, worse, any accepted).
    pub fn check(&self) -> Result<(), String> {
        if !self.listen.ip().is_loopback() {
            if !self.allow_remote {
                return Err(format!(
                    "{} is not a loopback address: serving beyond this machine needs --allow-remote \
                     (the bearer token is always required)",
                    self.listen
                ));
            }
            if self.allowed_hosts.is_empty() {
                return Err(
                    "--allow-remote needs --allowed-host NAME: the host names clients use to reach \
                     this server (requests naming any other Host are refused, against DNS rebinding)"
                        .to_owned(),
                );
            }
        }
        if self.max_body_bytes == 0
            || self.max_connections == 0
            || self.max_unauthenticated_connections == 0
        {
            return Err("the body and connection caps must be at least 1".to_owned());
        }
        AllowedHosts::new(&self.allowed_hosts)?;
        Ok(())
    }

    fn rmcp_config(&self, lifecycle_token: CancellationToken) -> StreamableHttpServerConfig {
        // Checked first by the front (`host.rs`); rmcp's own check stays
        // behind it.
        let mut hosts: Vec<String> = super::host::LOOPBACK_NAMES
            .into_iter()
            .map(str::to_owned)
            .collect();
        hosts.extend(self.allowed_hosts.iter().cloned());
        StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_sse_keep_alive(Some(Duration::from_secs(15)))
            .with_sse_retry(None)
            .with_allowed_hosts(hosts)
            .with_allowed_origins(self.allowed_origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(self.max_body_bytes)
            .with_cancellation_token(lifecycle_token)
    }
}

fn plain(status: StatusCode, text: impl Into<Bytes>) -> Response<Body> {
    let mut response = Response::new(Full::new(text.into()).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

fn unauthorized(
    error: Option<&'static str>,
    metadata: Option<&ResourceMetadata>,
) -> Response<Body> {
    let mut response = plain(
        StatusCode::UNAUTHORIZED,
        "Unauthorized: this server needs its bearer token (Authorization: Bearer ...)\n",
    );
    let mut challenge = match error {
        Some("invalid_token") => {
            r#"Bearer realm="aigent", error="invalid_token", error_description="the token is not this server's""#
        }
        Some(_) => r#"Bearer realm="aigent", error="invalid_request""#,
        None => r#"Bearer realm="aigent""#,
    }
    .to_owned();
    if let Some(metadata) = metadata {
        // The URL was checked to be quotable when the server started.
        challenge.push_str(&format!(
            r#", resource_metadata="{}""#,
            metadata.metadata_url()
        ));
    }
    let value = HeaderValue::from_str(&challenge)
        .unwrap_or_else(|_| HeaderValue::from_static(r#"Bearer realm="aigent""#));
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, value);
    response
}

/// The metadata document, to anyone: it names where tokens come from,
/// nothing more.
fn resource_metadata(method: &Method, metadata: &ResourceMetadata) -> Response<Body> {
    if method != Method::GET && method != Method::HEAD {
        let mut response = plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "Method Not Allowed: GET the metadata\n",
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let body = if method == Method::HEAD {
        Bytes::new()
    } else {
        Bytes::from(metadata.document().to_string())
    };
    let mut response = Response::new(Full::new(body).boxed());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// What the request's `Authorization` header says: `Err` carries the
/// challenge's `error` (none when no credentials came at all).
fn authorize(request: &Request<Incoming>, token: &BearerToken) -> Result<(), Option<&'static str>> {
    let mut values = request.headers().get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Err(None);
    };
    if values.next().is_some() {
        return Err(Some("invalid_request"));
    }
    let bytes = value.as_bytes();
    let presented = bytes
        .get(..7)
        .filter(|scheme| scheme.eq_ignore_ascii_case(b"bearer "))
        .and_then(|_| bytes.get(7..))
        .map(|rest| rest.trim_ascii());
    match presented {
        Some(presented) if token.matches(presented) => Ok(()),
        Some(_) => Err(Some("invalid_token")),
        None => Err(Some("invalid_request")),
    }
}

fn is_json(request: &Request<Incoming>) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(|value| value.split(';').next().unwrap_or("").trim())
        .is_some_and(|essence| essence.eq_ignore_ascii_case("application/json"))
}

struct Front {
    options: HttpOptions,
    /// The names the server answers to, parsed.
    hosts: AllowedHosts,
    /// The argument caps, from the server's options.
    limits: super::framing::Limits,
    mcp: StreamableHttpService<AigentServer, NeverSessionManager>,
}

impl Front {
    /// Answers one request on `connection`. A connection that has not
    /// shown the token is answered once and closed, and so is one whose
    /// request was refused its token: no client keeps a connection
    /// without the token, however often it asks.
    async fn handle(&self, request: Request<Incoming>, connection: &Connection) -> Response<Body> {
        let mut response = self.respond(request, connection).await;
        if !connection.is_authenticated() || response.status() == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }

    async fn respond(&self, request: Request<Incoming>, connection: &Connection) -> Response<Body> {
        if let Some(refusal) = self.host_refusal(&request) {
            return refusal;
        }
        if let Some(metadata) = &self.options.resource_metadata
            && metadata.is_asked_by(request.uri().path())
        {
            return resource_metadata(request.method(), metadata);
        }
        if request.uri().path() != MCP_PATH {
            return plain(
                StatusCode::NOT_FOUND,
                "Not Found: the MCP endpoint is /mcp\n",
            );
        }
        if let Err(error) = authorize(&request, &self.options.token) {
            return unauthorized(error, self.options.resource_metadata.as_ref());
        }
        match connection.authenticate() {
            Ok(()) => {}
            Err(Refused::Full) => return busy(),
            // Closed to make room while this request was read: it goes
            // with its connection.
            Err(Refused::Closed) => return busy(),
        }
        if request.method() != Method::POST {
            // GET (a standalone stream) and DELETE (a session) do not exist
            // without sessions: rmcp answers 405 with Allow.
            let (parts, _) = request.into_parts();
            return self
                .mcp
                .handle(Request::from_parts(parts, Full::new(Bytes::new())))
                .await;
        }
        if !is_json(&request) {
            return plain(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Unsupported Media Type: Content-Type must be application/json\n",
            );
        }
        let limit = self.options.max_body_bytes;
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        if declared.is_some_and(|length| length > limit as u64) {
            return too_large();
        }
        let (parts, body) = request.into_parts();
        let read = tokio::time::timeout(
            self.options.body_timeout,
            Limited::new(body, limit).collect(),
        )
        .await;
        let bytes = match read {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(err)) if err.is::<http_body_util::LengthLimitError>() => return too_large(),
            Ok(Err(_)) => {
                return plain(
                    StatusCode::BAD_REQUEST,
                    "Bad Request: the body could not be read\n",
                );
            }
            Err(_) => {
                let mut response = plain(
                    StatusCode::REQUEST_TIMEOUT,
                    "Request Timeout: the body did not arrive in time\n",
                );
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                return response;
            }
        };
        // Looked at before rmcp parses it, as each stdio line is: a call
        // over the argument caps costs its bytes, not a parse of them.
        if let Some((id, refusal)) = super::framing::refused(&bytes, self.limits) {
            return json_rpc_error(id, refusal);
        }
        // A notification or response of too many values: no id to answer.
        if self.limits.oversized(&bytes) {
            return too_large();
        }
        self.mcp
            .handle(Request::from_parts(parts, Full::new(bytes)))
            .await
    }
}

impl Front {
    /// Every `Host` header and an absolute-form target's authority
    /// (`host.rs`): the `400` or `403` refusing them, if they are refused.
    fn host_refusal(&self, request: &Request<Incoming>) -> Option<Response<Body>> {
        let hosts: Vec<&[u8]> = request
            .headers()
            .get_all(header::HOST)
            .iter()
            .map(HeaderValue::as_bytes)
            .collect();
        let uri = request.uri();
        let checked = super::host::check(
            &hosts,
            uri.scheme_str(),
            uri.authority().map(|authority| authority.as_str()),
            &self.hosts,
        );
        checked.err().map(|refusal| match refusal {
            super::host::Refusal::BadRequest(why) => {
                plain(StatusCode::BAD_REQUEST, format!("Bad Request: {why}\n"))
            }
            super::host::Refusal::Forbidden(why) => {
                plain(StatusCode::FORBIDDEN, format!("Forbidden: {why}\n"))
            }
        })
    }
}

/// `503` to a request whose connection cannot join the authenticated pool.
fn busy() -> Response<Body> {
    let mut response = plain(
        StatusCode::SERVICE_UNAVAILABLE,
        "Service Unavailable: too many connections\n",
    );
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A JSON-RPC error answer to one request, as rmcp writes its own
/// (`200`, `application/json`: the server answers in JSON, not SSE).
fn json_rpc_error(id: serde_json::Value, refusal: super::framing::Refusal) -> Response<Body> {
    let (code, message, data) = refusal;
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message, "data": data},
    })
    .to_string();
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn too_large() -> Response<Body> {
    let mut response = plain(
        StatusCode::PAYLOAD_TOO_LARGE,
        "Payload Too Large: the request body is over this server's limit\n",
    );
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Serves Streamable HTTP until SIGTERM, SIGINT or SIGHUP; then the listener
/// closes, and every call in flight is stopped (after `--drain`, if given)
/// and its outcome recorded before this returns.
pub async fn serve_http(
    options: ServeOptions,
    http: HttpOptions,
    reporter: Reporter,
) -> Result<(), ServeError> {
    let server = AigentServer::new(options, Arc::clone(&reporter));
    server.warm();
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    let stopper = server.clone();
    tokio::spawn(async move {
        let reason = super::server::shutdown_signal().await;
        stopper.stop(reason).await;
        let _ = stopped_tx.send(());
    });
    let lifecycle = server.lifecycle().clone();
    serve(server, http, lifecycle, |address| {
        reporter(Notice::Listening(address));
    })
    .await
    .map_err(ServeError::Listen)?;
    // The listener is closed; wait for the calls in flight to be stopped.
    let _ = stopped_rx.await;
    Ok(())
}

/// Listens and serves until the lifecycle stops. `ready` hears the bound
/// address (port 0 picks one).
pub async fn serve(
    server: AigentServer,
    options: HttpOptions,
    lifecycle: Lifecycle,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = TcpListener::bind(options.listen).await?;
    ready(listener.local_addr()?);
    let cancel = CancellationToken::new();
    let factory_server = server.clone();
    let mcp = StreamableHttpService::new(
        move || Ok(factory_server.clone()),
        Arc::new(NeverSessionManager::default()),
        options.rmcp_config(cancel.clone()),
    );
    let hosts = AllowedHosts::new(&options.allowed_hosts)
        .map_err(|why| std::io::Error::new(std::io::ErrorKind::InvalidInput, why))?;
    let front = Arc::new(Front {
        options: options.clone(),
        hosts,
        limits: server.argument_limits(),
        mcp,
    });
    let connections = Connections::new(
        options.max_connections,
        options.max_unauthenticated_connections,
    );
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_timeout)
        .max_buf_size(64 * 1024)
        .keep_alive(true);
    let builder = Arc::new(builder);
    let stopping = lifecycle.stopping();
    tokio::pin!(stopping);
    'serving: loop {
        // Room for one more connection without the token first: over the
        // cap the oldest that has been read from is closed; when none has
        // yet, the next waits in the kernel's backlog until one has been
        // (or has ended).
        while !connections.make_room() {
            tokio::select! {
                () = connections.changed() => {}
                () = tokio::time::sleep(Duration::from_millis(50)) => {}
                () = &mut stopping => break 'serving,
            }
        }
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stopping => break 'serving,
        };
        let (stream, _) = match accepted {
            Ok(accepted) => accepted,
            // Out of descriptors, a reset before accept: the listener
            // itself is fine; wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let connection = Arc::new(connections.admit());
        let _ = stream.set_nodelay(true);
        let front = Arc::clone(&front);
        let builder = Arc::clone(&builder);
        tokio::spawn(async move {
            let closed = connection.closed().clone();
            let held = Arc::clone(&connection);
            let service = hyper::service::service_fn(move |request| {
                let front = Arc::clone(&front);
                let connection = Arc::clone(&held);
                async move { Ok::<_, Infallible>(front.handle(request, &connection).await) }
            });
            let stream = connection.watch(stream);
            let served = builder.serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = served => {}
                // Dropping the connection closes its socket.
                () = closed.cancelled() => {}
            }
            drop(connection);
        });
    }
    cancel.cancel();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_exactly() {
        let token = BearerToken::parse(b"abcdefghijklmnop1234\n", "test").unwrap();
        assert!(token.matches(b"abcdefghijklmnop1234"));
        assert!(!token.matches(b"abcdefghijklmnop123"));
        assert!(!token.matches(b"abcdefghijklmnop12345"));
        assert!(!token.matches(b"Abcdefghijklmnop1234"));
        assert!(!token.matches(b""));
    }

    #[test]
    fn short_or_odd_tokens_are_refused_without_echoing_them() {
        for bad in [&b"short"[..], b"has space in the middle!", b"", b"\n"] {
            let err = BearerToken::parse(bad, "$TOKEN").unwrap_err();
            let text = err.to_string();
            assert!(text.contains("$TOKEN"));
            if !bad.is_empty() && bad != b"\n" {
                assert!(!text.contains(std::str::from_utf8(bad).unwrap()), "{text}");
            }
        }
    }

    #[test]
    fn debug_never_shows_the_token() {
        let token = BearerToken::parse(b"supersecretvalue1234", "test").unwrap();
        assert!(!format!("{token:?}").contains("supersecret"));
    }

    #[test]
    fn a_remote_address_needs_allow_remote_and_a_host_name() {
        let token = BearerToken::parse(b"abcdefghijklmnop1234", "t").unwrap();
        let mut options = HttpOptions::new("0.0.0.0:8080".parse().unwrap(), token);
        assert!(options.check().unwrap_err().contains("--allow-remote"));
        options.allow_remote = true;
        assert!(options.check().unwrap_err().contains("--allowed-host"));
        options.allowed_hosts = vec!["mcp.example.com".to_owned()];
        assert!(options.check().is_ok());
        let loopback = HttpOptions::new("127.0.0.1:0".parse().unwrap(), options.token.clone());
        assert!(loopback.check().is_ok());
        let v6 = HttpOptions::new("[::1]:0".parse().unwrap(), options.token);
        assert!(v6.check().is_ok());
    }

    #[test]
    fn resource_metadata_is_found_where_rfc_9728_puts_it() {
        let servers = vec!["https://auth.example.com".to_owned()];
        let metadata = ResourceMetadata::new("https://mcp.example.com/mcp", &servers).unwrap();
        assert_eq!(
            metadata.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert!(metadata.is_asked_by("/.well-known/oauth-protected-resource/mcp"));
        assert!(metadata.is_asked_by("/.well-known/oauth-protected-resource"));
        assert!(!metadata.is_asked_by("/.well-known/oauth-protected-resource/other"));
        assert!(!metadata.is_asked_by("/mcp"));
        let document = metadata.document();
        assert_eq!(document["resource"], "https://mcp.example.com/mcp");
        assert_eq!(
            document["authorization_servers"],
            serde_json::json!(["https://auth.example.com"])
        );
        let root = ResourceMetadata::new("https://mcp.example.com:8443/", &servers).unwrap();
        assert_eq!(
            root.metadata_url(),
            "https://mcp.example.com:8443/.well-known/oauth-protected-resource"
        );
        let loopback = ResourceMetadata::new("http://[::1]:8765/mcp", &servers).unwrap();
        assert!(
            loopback
                .metadata_url()
                .starts_with("http://[::1]:8765/.well-known/")
        );
    }

    #[test]
    fn unusable_metadata_urls_are_refused() {
        let servers = vec!["https://auth.example.com".to_owned()];
        for resource in [
            "http://mcp.example.com/mcp",
            "https://mcp.example.com/mcp?x=1",
            "https://mcp.example.com/mcp#top",
            "https://user:pw@mcp.example.com/mcp",
            "https:///mcp",
            "mcp.example.com/mcp",
            "https://mcp.example.com/a\"b",
            "https://mcp.example.com/a b",
            "ftp://mcp.example.com/",
        ] {
            assert!(
                ResourceMetadata::new(resource, &servers).is_err(),
                "{resource}"
            );
        }
        assert!(ResourceMetadata::new("https://mcp.example.com/mcp", &[]).is_err());
        let plain_http = vec!["http://auth.example.com".to_owned()];
        assert!(ResourceMetadata::new("https://mcp.example.com/mcp", &plain_http).is_err());
        let long = format!("https://mcp.example.com/{}", "a".repeat(MAX_URL_BYTES));
        assert!(ResourceMetadata::new(&long, &servers).is_err());
    }

    #[test]
    fn a_401_points_at_the_metadata() {
        let servers = vec!["https://auth.example.com".to_owned()];
        let metadata = ResourceMetadata::new("https://mcp.example.com/mcp", &servers).unwrap();
        let with = unauthorized(Some("invalid_token"), Some(&metadata));
        let challenge = with.headers()[header::WWW_AUTHENTICATE].to_str().unwrap();
        assert!(challenge.starts_with("Bearer realm=\"aigent\", error=\"invalid_token\""));
        assert!(challenge.ends_with(
            ", resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\""
        ));
        let without = unauthorized(None, None);
        assert_eq!(
            without.headers()[header::WWW_AUTHENTICATE],
            "Bearer realm=\"aigent\""
        );
    }
}
