//! `aigent mcp serve`: declared commands as guarded MCP tools, and
//! validated skills over the MCP Skills extension (SEP-2640), on stdio or
//! Streamable HTTP.
//!
//! - `tools.rs` turns declarations into tool definitions (plain JSON).
//! - `cache.rs` keeps loaded declarations while their files are unchanged.
//! - `call.rs` runs a `tools/call`: Phase 1, the argv, the audit log, the
//!   child with captured output, confirmation, cancellation.
//! - `confirm.rs` confirms a destructive call per revision: sealed
//!   `requestState` for 2026-07-28, `elicitation/create` before.
//! - `framing.rs` looks at each stdio line first, so a request rmcp would
//!   refuse without its id gets its error with the id.
//! - `params.rs` says which field of a known method's params is wrong.
//! - `skills.rs` finds, validates and confines the served skills.
//! - `server.rs` is the handler and the stdio transport, `http.rs` the
//!   HTTP front (auth, limits) before rmcp's Streamable HTTP service, with
//!   `host.rs` (which host a request names) and `connections.rs` (who
//!   holds the connections, with and without the token); they
//!   name the rmcp SDK, whose API changes between releases (`confirm.rs`
//!   names only its `requestState` codec).
//! - `lifecycle.rs`: calls in flight, their cap, the line of calls
//!   waiting for a place, and the shutdown that cancels and records them.
//! - `logging.rs`: a running tool's stderr as `notifications/message`.
//! - `prompts.rs`: skills and tools as prompts, and completion of a tool
//!   prompt's enum arguments.

pub mod cache;
pub mod call;
pub mod confirm;
pub mod connections;
pub mod framing;
pub mod host;
pub mod http;
pub mod lifecycle;
pub mod logging;
pub mod params;
pub mod prompts;
pub mod skills;
pub mod tools;

mod server;
mod stdio;

use std::path::PathBuf;
use std::time::Duration;

use crate::report::Diagnostic;

pub use server::AigentServer;

/// How `aigent mcp serve` runs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The registry; without one, no tools are served.
    pub commands_dir: Option<PathBuf>,
    /// Skill trees to serve.
    pub skill_roots: Vec<PathBuf>,
    pub audit_log: Option<PathBuf>,
    /// Kill a call's process group after this long.
    pub timeout: Option<Duration>,
    /// Run destructive tools without asking.
    pub confirm_destructive: bool,
    /// Bytes kept of each of stdout and stderr.
    pub output_limit: usize,
    /// How often the registry and skill trees are checked for changes.
    pub poll_interval: Duration,
    /// `--sandbox`; `None` follows the registry's `[sandbox] mode`.
    pub sandbox: Option<crate::contract::sandbox::SandboxMode>,
    /// Serve Streamable HTTP instead of stdio.
    pub http: Option<http::HttpOptions>,
    /// On shutdown, how long calls in flight may run on before they are
    /// cancelled (`--drain`); zero cancels them at once.
    pub drain: Duration,
    /// Cap on one call's `arguments` (bytes of JSON); above it, `-32602`.
    pub max_argument_bytes: usize,
    /// Cap on the JSON values in one call's `arguments` (object keys
    /// counted); above it, `-32602`.
    pub max_argument_values: usize,
    /// Calls running at once, and the line of calls waiting for a place
    /// (its length and deadline).
    pub calls: lifecycle::CallLimits,
    /// The key that seals confirmation states (at least 32 bytes); servers
    /// that share one accept each other's retries. `None`: a random key
    /// for this process.
    pub state_key: Option<Vec<u8>>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            commands_dir: None,
            skill_roots: Vec::new(),
            audit_log: None,
            timeout: None,
            confirm_destructive: false,
            output_limit: call::OUTPUT_LIMIT,
            poll_interval: Duration::from_secs(1),
            sandbox: None,
            http: None,
            drain: Duration::ZERO,
            max_argument_bytes: lifecycle::MAX_ARGUMENT_BYTES,
            max_argument_values: lifecycle::MAX_ARGUMENT_VALUES,
            calls: lifecycle::CallLimits::default(),
            state_key: None,
        }
    }
}

impl ServeOptions {
    /// What one call's `arguments` are held to, before and after rmcp
    /// reads them.
    pub fn argument_limits(&self) -> framing::Limits {
        framing::Limits {
            arguments: self.max_argument_bytes,
            values: self.max_argument_values,
        }
    }
}

/// Something the person running the server should hear about (on stderr).
#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// A declaration that is not served as a tool.
    ToolSkipped(&'a tools::Skipped),
    /// A skill that did not validate (or cannot be served).
    SkillRefused(&'a skills::Refused),
    RegistryUnreadable(&'a str),
    /// The HTTP transport is listening here.
    Listening(std::net::SocketAddr),
    /// At shutdown, this many calls did not end within the grace period.
    CallsAbandoned(usize),
}

impl Notice<'_> {
    /// The diagnostics a refused skill carries.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Notice::SkillRefused(refused) => &refused.diagnostics,
            _ => &[],
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("MCP session failed: {0}")]
    Protocol(String),
    #[error("cannot listen for HTTP: {0}")]
    Listen(std::io::Error),
}

/// Runs the server on stdin/stdout (or HTTP, with `options.http`) until the
/// client disconnects or the server gets SIGTERM, SIGINT or SIGHUP. `report` hears
/// about declarations and skills that are not served.
pub fn serve(
    options: ServeOptions,
    report: impl Fn(Notice<'_>) + Send + Sync + 'static,
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let report = std::sync::Arc::new(report);
    // A server runs the same commands again and again: each run's sandbox
    // is made ready after the one before (exec::sandbox::ready).
    #[cfg(target_os = "linux")]
    crate::exec::sandbox::ready::keep_ready(true);
    let served = match options.http.clone() {
        Some(http) => runtime.block_on(http::serve_http(options, http, report)),
        None => runtime.block_on(server::serve_stdio(options, report)),
    };
    // Every call has ended and been recorded, or was given up on after the
    // grace period: nothing is waited for again.
    runtime.shutdown_timeout(Duration::from_millis(100));
    #[cfg(target_os = "linux")]
    crate::exec::sandbox::ready::keep_ready(false);
    served
}
