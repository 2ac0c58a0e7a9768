//! `aigent mcp serve [--skills DIR]... [--confirm-destructive] ...`

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use aigent::mcp::http::{BearerToken, HttpOptions, ResourceMetadata};
use aigent::mcp::{Notice, ServeOptions};
use aigent::report::escape::escape_controls;
use aigent::report::{ErrorCode, Outcome, exit};

use crate::cli::spec::{
    CommandSpec, Complete, Destructive, NoEffects, Partial, TEXT_AND_JSON, code_when, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "mcp.serve",
    Destructive,
    &[
        code_when(exit::SUCCESS, Complete, "the client closed the session"),
        code_when(exit::GENERAL_ERROR, Partial, "the transport failed"),
        code_when(
            exit::ARG_ERROR,
            NoEffects,
            "bad usage, or nothing to serve (no registry and no --skills)",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "the registry or a --skills directory does not exist",
        ),
    ],
    TEXT_AND_JSON,
    true,
);

#[derive(Debug, Args)]
#[command(after_help = "\
Speaks MCP on stdin/stdout until the client disconnects. Every declaration in \
the registry (--commands or AIGENT_COMMANDS) with a subprocess is a tool; a \
tools/call goes through the guard exactly as `aigent run` does, is audited \
(AIGENT_AUDIT_LOG), and runs the argv without a shell, its output captured. \
Destructive tools are confirmed through the client (elicitation: an \
input_required result under MCP 2026-07-28, elicitation/create before) or \
refused with CONFIRMATION_REQUIRED. Skills below each --skills DIR that validate are \
served through the Skills extension; the others are reported on stderr.

With --http ADDR it serves Streamable HTTP at http://ADDR/mcp instead, \
stateless (replicas share nothing but the registry and the audit log). Every \
request needs the bearer token, read from --token-file or --token-env (never \
from the command line); a non-loopback ADDR also needs --allow-remote and \
--allowed-host. When the client closes stdin, or on SIGTERM, SIGINT or SIGHUP, the \
calls in flight are cancelled (their process groups get SIGTERM, then SIGKILL \
2 s later) and recorded as cancelled; --drain SECS lets them finish first.

Examples:
  # serve a registry and skills over stdio
  aigent mcp serve --commands ./commands --skills ./skills
  AIGENT_COMMANDS=./commands aigent mcp serve --timeout 120
  claude mcp add aigent -- aigent mcp serve --commands ./commands --skills ./skills
  # over HTTP, with a bearer token
  aigent mcp serve --commands ./commands --http 127.0.0.1:8765 --token-file ~/.config/aigent/mcp-token")]
pub struct ServeArgs {
    /// Serve the skills found below DIR (repeatable)
    #[arg(long = "skills", value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub skills: Vec<PathBuf>,

    /// Run destructive tools without asking the client first (unattended use)
    #[arg(long)]
    pub confirm_destructive: bool,

    /// Kill a call's whole process group after SECS seconds (fractions allowed)
    #[arg(long, value_name = "SECS", value_parser = super::super::run::parse_timeout)]
    pub timeout: Option<Duration>,

    /// Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]
    #[arg(long, value_name = "PATH")]
    pub audit_log: Option<PathBuf>,

    /// Keep at most BYTES of each of a call's stdout and stderr
    #[arg(long, value_name = "BYTES", default_value_t = aigent::mcp::call::OUTPUT_LIMIT)]
    pub max_output: usize,

    /// Seal confirmation states with the key in PATH (32 bytes or more), so that servers sharing it accept each other's retries [default: a random key per process]
    #[arg(long, value_name = "PATH", env = "AIGENT_MCP_STATE_KEY_FILE", value_hint = clap::ValueHint::FilePath)]
    pub state_key_file: Option<PathBuf>,

    /// How strictly each call enforces its command's sandbox [default: the registry's aigent.toml [sandbox] mode, read at each call, else best-effort]
    #[arg(long, value_name = "MODE", value_enum)]
    pub sandbox: Option<super::super::run::SandboxFlag>,

    /// Serve Streamable HTTP on ADDR (path /mcp) instead of stdio
    #[arg(long, value_name = "ADDR", help_heading = "HTTP")]
    pub http: Option<SocketAddr>,

    /// Read the bearer token every HTTP request must carry from PATH
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with = "token_env",
        requires = "http",
        help_heading = "HTTP"
    )]
    pub token_file: Option<PathBuf>,

    /// Read the bearer token every HTTP request must carry from the environment variable VAR
    #[arg(long, value_name = "VAR", requires = "http", help_heading = "HTTP")]
    pub token_env: Option<String>,

    /// Allow --http on an address that is not loopback
    #[arg(long, requires = "http", help_heading = "HTTP")]
    pub allow_remote: bool,

    /// A host name clients reach the server by (the Host header), beyond localhost (repeatable)
    #[arg(
        long = "allowed-host",
        value_name = "NAME",
        requires = "http",
        help_heading = "HTTP"
    )]
    pub allowed_hosts: Vec<String>,

    /// A browser origin allowed to call, e.g. https://app.example.com:443 (repeatable; any other Origin gets 403)
    #[arg(
        long = "allowed-origin",
        value_name = "ORIGIN",
        requires = "http",
        help_heading = "HTTP"
    )]
    pub allowed_origins: Vec<String>,

    /// Publish OAuth protected-resource metadata (RFC 9728) naming URL as the authorization server that issues tokens for this server (repeatable; needs --oauth-resource)
    #[arg(
        long = "oauth-authorization-server",
        value_name = "URL",
        requires_all = ["http", "oauth_resource"],
        help_heading = "HTTP"
    )]
    pub oauth_authorization_servers: Vec<String>,

    /// The URL clients reach this server's MCP endpoint by, as the OAuth metadata's `resource` (e.g. https://mcp.example.com/mcp)
    #[arg(
        long,
        value_name = "URL",
        requires = "oauth_authorization_servers",
        help_heading = "HTTP"
    )]
    pub oauth_resource: Option<String>,

    /// Serve at most N HTTP connections that have shown the token; a request over it gets 503
    #[arg(long, value_name = "N", default_value_t = aigent::mcp::http::MAX_CONNECTIONS, requires = "http", help_heading = "HTTP")]
    pub max_connections: usize,

    /// Hold at most N HTTP connections that have not shown the token; a new one over it closes the oldest of them read from
    #[arg(long, value_name = "N", default_value_t = aigent::mcp::http::MAX_UNAUTHENTICATED_CONNECTIONS, requires = "http", help_heading = "HTTP")]
    pub max_unauthenticated_connections: usize,

    /// Give each HTTP request SECS for its headers, and SECS again for its body [default: 10 and 30]
    #[arg(long, value_name = "SECS", value_parser = super::super::run::parse_timeout, requires = "http", help_heading = "HTTP")]
    pub read_timeout: Option<Duration>,

    /// Refuse a tools/call whose arguments are over BYTES of JSON (-32602)
    #[arg(long, value_name = "BYTES", default_value_t = aigent::mcp::lifecycle::MAX_ARGUMENT_BYTES)]
    pub max_argument_bytes: usize,

    /// Refuse a tools/call whose arguments hold over N JSON values, object keys counted (-32602)
    #[arg(long, value_name = "N", default_value_t = aigent::mcp::lifecycle::MAX_ARGUMENT_VALUES as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_argument_values: u32,

    /// Run at most N calls at once; a call over it waits in line for a place
    #[arg(long, value_name = "N", default_value_t = aigent::mcp::lifecycle::MAX_CALLS as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_calls: u32,

    /// Let at most N calls wait for a place; a call over it is refused with a retryable error
    #[arg(long, value_name = "N", default_value_t = aigent::mcp::lifecycle::MAX_QUEUED_CALLS as u32)]
    pub max_queued_calls: u32,

    /// Refuse a call, with a retryable error, once it has waited SECS for a place [default: 30]
    #[arg(long, value_name = "SECS", value_parser = super::super::run::parse_timeout)]
    pub queue_timeout: Option<Duration>,

    /// On shutdown (stdin closed, SIGTERM, SIGINT, SIGHUP), let calls in flight run up to SECS more before cancelling them
    #[arg(long, value_name = "SECS", value_parser = parse_drain)]
    pub drain: Option<Duration>,
}

fn parse_drain(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("`{text}`: the drain period cannot be negative"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|err| format!("`{text}`: {err}"))
}

/// The HTTP transport's options, or why it cannot start.
fn http_options(args: &ServeArgs, listen: SocketAddr) -> Result<HttpOptions, CliError> {
    let token = match (&args.token_file, &args.token_env) {
        (Some(path), _) => BearerToken::from_file(path),
        (None, Some(variable)) => BearerToken::from_env(variable),
        (None, None) => {
            return Err(CliError::usage(
                "--http needs a bearer token: --token-file PATH or --token-env VAR \
                 (nothing is served over HTTP unauthenticated)",
            )
            .with_hint("head -c 32 /dev/urandom | base64 > token && chmod 600 token"));
        }
    }
    .map_err(|err| CliError::precondition(err.to_string()))?;
    let mut options = HttpOptions::new(listen, token);
    options.allow_remote = args.allow_remote;
    options.allowed_hosts = args.allowed_hosts.clone();
    options.allowed_origins = args.allowed_origins.clone();
    options.max_connections = args.max_connections;
    options.max_unauthenticated_connections = args.max_unauthenticated_connections;
    if let Some(resource) = &args.oauth_resource {
        options.resource_metadata = Some(
            ResourceMetadata::new(resource, &args.oauth_authorization_servers)
                .map_err(CliError::usage)?,
        );
    }
    if let Some(timeout) = args.read_timeout {
        options.header_timeout = timeout;
        options.body_timeout = timeout;
    }
    // The body is the whole JSON-RPC message: the arguments plus room for
    // the envelope around them.
    options.max_body_bytes = args.max_argument_bytes.saturating_add(64 * 1024);
    options.check().map_err(CliError::usage)?;
    Ok(options)
}

pub fn run(args: &ServeArgs, ctx: &Context) -> Result<Outcome, CliError> {
    if ctx.commands_dir.is_none() && args.skills.is_empty() {
        return Err(CliError::usage(
            "nothing to serve: give a registry (--commands DIR or AIGENT_COMMANDS) or --skills DIR",
        )
        .with_hint("aigent mcp serve --commands ./commands --skills ./skills"));
    }
    if let Some(dir) = &ctx.commands_dir
        && !dir.is_dir()
    {
        return Err(CliError::not_found(format!(
            "the registry {} does not exist or is not a directory",
            dir.display()
        )));
    }
    for root in &args.skills {
        if !root.exists() {
            return Err(CliError::not_found(format!(
                "--skills {} does not exist",
                root.display()
            )));
        }
    }
    let state_key = match &args.state_key_file {
        Some(path) => Some(read_state_key(path)?),
        None => None,
    };
    let http = match args.http {
        Some(listen) => Some(http_options(args, listen)?),
        None => None,
    };
    let options = ServeOptions {
        commands_dir: ctx.commands_dir.clone(),
        skill_roots: args.skills.clone(),
        audit_log: args.audit_log.clone(),
        timeout: args.timeout,
        confirm_destructive: args.confirm_destructive,
        output_limit: args.max_output,
        sandbox: args.sandbox.map(Into::into),
        http,
        drain: args.drain.unwrap_or_default(),
        max_argument_bytes: args.max_argument_bytes,
        max_argument_values: args.max_argument_values as usize,
        calls: aigent::mcp::lifecycle::CallLimits {
            max_calls: args.max_calls as usize,
            max_queued: args.max_queued_calls as usize,
            queue_timeout: args
                .queue_timeout
                .unwrap_or(aigent::mcp::lifecycle::QUEUE_TIMEOUT),
        },
        state_key,
        ..ServeOptions::default()
    };
    let style = ctx.stderr_style;
    aigent::mcp::serve(options, move |notice| report(notice, style)).map_err(|err| {
        CliError::new(
            exit::GENERAL_ERROR,
            ErrorCode::McpServerFailed,
            err.to_string(),
        )
    })?;
    // stdout belonged to the protocol: nothing more is written to it.
    Ok(Outcome::verbatim(String::new()))
}

/// Declarations and skills that are not served, on stderr.
fn report(notice: Notice<'_>, style: aigent::report::style::Style) {
    let mut text = match notice {
        Notice::ToolSkipped(skipped) => format!(
            "`{}` ({}) is not served as a tool: {}\n",
            skipped.name, skipped.file, skipped.reason
        ),
        Notice::SkillRefused(refused) => {
            format!("skill {} is not served:\n", refused.path.display())
        }
        Notice::RegistryUnreadable(message) => format!("{message}\n"),
        Notice::Listening(address) => {
            // Not a warning: the one line an operator (or a test) waits for.
            let line = format!("aigent mcp serve: listening on http://{address}/mcp\n");
            let _ = std::io::stderr().write_all(line.as_bytes());
            return;
        }
        Notice::CallsAbandoned(count) => {
            format!("{count} call(s) did not end within the grace period after being cancelled\n")
        }
    };
    for diagnostic in notice.diagnostics() {
        text.push_str(&format!(
            "  {} {}: {}\n",
            diagnostic.severity.as_str(),
            diagnostic.code,
            diagnostic.message
        ));
    }
    // Paths and messages come from disk: escaped before they reach a terminal.
    let lines: Vec<String> = text
        .lines()
        .map(|line| escape_controls(line).into_owned())
        .collect();
    let text = format!("{} {}\n", style.warning("warning:"), lines.join("\n"));
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// The key file's bytes, without surrounding whitespace: a regular file of
/// 32 to 4096 bytes (a FIFO or a device is refused before it is read).
fn read_state_key(path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    const MIN: usize = 32;
    const MAX: u64 = 4096;
    let unusable = |why: String| {
        CliError::new(
            exit::PRECONDITION,
            ErrorCode::Precondition,
            format!("--state-key-file {}: {why}", path.display()),
        )
    };
    let file = std::fs::File::open(path).map_err(|err| unusable(err.to_string()))?;
    let metadata = file.metadata().map_err(|err| unusable(err.to_string()))?;
    if !metadata.is_file() {
        return Err(unusable("not a regular file".to_owned()));
    }
    let mut bytes = Vec::new();
    file.take(MAX + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| unusable(err.to_string()))?;
    if bytes.len() as u64 > MAX {
        return Err(unusable(format!("longer than {MAX} bytes")));
    }
    let key = bytes.trim_ascii().to_vec();
    if key.len() < MIN {
        return Err(unusable(format!("a key needs at least {MIN} bytes")));
    }
    Ok(key)
}
