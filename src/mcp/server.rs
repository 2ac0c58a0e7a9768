//! The rmcp side: the only file that names the SDK's server API.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    ContentBlock, CreateTaskResult, CustomRequest, CustomResult, ElicitRequest,
    ElicitRequestParams, ErrorCode, GetSkillRequestParams, GetSkillResult, GetTaskParams,
    GetTaskResult, Implementation, InputRequest, InputRequests, InputRequiredResult,
    ListResourcesResult, ListSkillsResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig, Skill,
    SkillFrontmatter, SkillResource, SkillResources, Task, Tool,
};
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ListPromptsResult, Prompt, PromptMessage, Reference, Role,
};
#[allow(deprecated)]
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::{TaskExit, TaskManager, TaskOptions};
use rmcp::{ErrorData as McpError, Peer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use super::call::{self, CallSettings, Confirmation, Controls, Refusal, ToolOutcome};
use super::confirm::{self, ClaimError, Sealer, UsedStates};
use super::lifecycle::Lifecycle;
use super::logging;
use super::params;
use super::prompts;
use super::skills::{self, Scan, ServedSkill};
use super::tools;
use super::{Notice, ServeError, ServeOptions};
use crate::exec::audit::kept::KeptLog;
use crate::request::RequestIds;

/// How long a finished task's result stays to be fetched, past its run's
/// time limit.
pub const TASK_RETENTION: Duration = Duration::from_secs(5 * 60);

/// Why a session revision's call over HTTP cannot be confirmed.
const CONFIRM_OVER_HTTP: &str = "over HTTP the server can ask for a confirmation only under MCP 2026-07-28, not under this request's revision";

pub(super) type Reporter = Arc<dyn Fn(Notice<'_>) + Send + Sync>;

struct State {
    tools: Arc<Vec<Tool>>,
    tools_fingerprint: Option<u64>,
    scan: Arc<Scan>,
    skills_fingerprint: Option<u64>,
}

/// The handler: immutable settings plus the cached registry and skills.
#[derive(Clone)]
pub struct AigentServer {
    options: Arc<ServeOptions>,
    settings: Arc<Option<CallSettings>>,
    state: Arc<Mutex<State>>,
    /// Held for a whole refresh, so a list waits for one in progress
    /// instead of parsing everything a second time.
    refreshing: Arc<Mutex<()>>,
    reporter: Reporter,
    /// Calls in flight, their cap, and the server's shutdown.
    lifecycle: Lifecycle,
    /// Seals confirmation states; `None` when the configured key is unusable
    /// (then no confirmation can be asked for under 2026-07-28).
    sealer: Arc<Option<Sealer>>,
    /// The states already answered, beside the audit log; `None` when the
    /// log has no location (then no state is honoured).
    used: Arc<Option<UsedStates>>,
    /// Long calls run as tasks (SEP-2663), kept in this process.
    tasks: TaskManager,
    /// The level `logging/setLevel` set, over stdio (one session per
    /// process); over HTTP no session is kept, and only a request's own
    /// level counts.
    session_log_level: Arc<Mutex<Option<logging::Level>>>,
}

impl AigentServer {
    /// What one call's `arguments` are held to.
    pub(crate) fn argument_limits(&self) -> super::framing::Limits {
        self.options.argument_limits()
    }

    pub fn new(options: ServeOptions, reporter: Reporter) -> Self {
        let sealer = Sealer::new(options.state_key.as_deref()).ok();
        let used = crate::exec::audit::AuditLog::from_env(options.audit_log.as_deref())
            .ok()
            .map(|log| UsedStates::beside(log.path()));
        let settings = options.commands_dir.clone().map(|dir| CallSettings {
            registry: crate::registry::Registry::Directory(dir),
            audit: Arc::new(KeptLog::new(options.audit_log.clone())),
            timeout: options.timeout,
            output_limit: options.output_limit,
            sandbox: options.sandbox,
            declarations: Arc::new(super::cache::DeclarationCache::new(options.poll_interval)),
        });
        // The line holds at most the arguments of a few of the largest calls.
        let budget = super::lifecycle::Weight {
            bytes: options
                .max_argument_bytes
                .saturating_mul(super::lifecycle::QUEUE_BUDGET_CALLS),
            values: options
                .max_argument_values
                .saturating_mul(super::lifecycle::QUEUE_BUDGET_CALLS),
        };
        let lifecycle = Lifecycle::new(options.calls, budget);
        Self {
            lifecycle,
            options: Arc::new(options),
            settings: Arc::new(settings),
            state: Arc::new(Mutex::new(State {
                tools: Arc::new(Vec::new()),
                tools_fingerprint: None,
                scan: Arc::new(Scan::default()),
                skills_fingerprint: None,
            })),
            refreshing: Arc::new(Mutex::new(())),
            sealer: Arc::new(sealer),
            used: Arc::new(used),
            tasks: TaskManager::new(),
            session_log_level: Arc::new(Mutex::new(None)),
            reporter,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn registry_fingerprint(&self) -> Option<u64> {
        self.options
            .commands_dir
            .as_ref()
            .map(|dir| skills::fingerprint(std::slice::from_ref(dir)))
    }

    /// Reloads the registry if it changed on disk; true when it did.
    fn refresh_tools(&self) -> bool {
        let _refreshing = self.refreshing.lock().unwrap_or_else(|p| p.into_inner());
        let fingerprint = self.registry_fingerprint();
        if fingerprint.is_some() && self.lock().tools_fingerprint == fingerprint {
            return false;
        }
        let Some(settings) = self.settings.as_ref() else {
            return false;
        };
        let (definitions, skipped) = match tools::load_tools(&settings.registry) {
            Ok(loaded) => loaded,
            Err(err) => {
                (self.reporter)(Notice::RegistryUnreadable(&err.to_string()));
                (Vec::new(), Vec::new())
            }
        };
        for skip in &skipped {
            (self.reporter)(Notice::ToolSkipped(skip));
        }
        let tools: Vec<Tool> = definitions
            .into_iter()
            .filter_map(|definition| serde_json::from_value(definition).ok())
            .collect();
        let mut state = self.lock();
        let changed = state.tools_fingerprint.is_some();
        state.tools = Arc::new(tools);
        state.tools_fingerprint = fingerprint;
        changed
    }

    /// Rescans the skill trees if they changed on disk; true when they did.
    fn refresh_skills(&self) -> bool {
        let _refreshing = self.refreshing.lock().unwrap_or_else(|p| p.into_inner());
        let fingerprint = Some(skills::fingerprint(&self.options.skill_roots));
        if self.lock().skills_fingerprint == fingerprint {
            return false;
        }
        let mut scan = skills::scan(&self.options.skill_roots);
        // An entry the SDK would refuse would fail the whole listing: such a
        // skill is refused here instead, on its own.
        let unservable = scan.catalog.retain(|skill| {
            skill_entry(skill)
                .validate()
                .map_err(|err| format!("it cannot be listed over MCP: {err}"))
        });
        scan.refused.extend(unservable);
        for refused in &scan.refused {
            (self.reporter)(Notice::SkillRefused(refused));
        }
        let mut state = self.lock();
        let changed = state.skills_fingerprint.is_some();
        state.scan = Arc::new(scan);
        state.skills_fingerprint = fingerprint;
        changed
    }

    fn tools(&self) -> Arc<Vec<Tool>> {
        self.refresh_tools();
        Arc::clone(&self.lock().tools)
    }

    fn scan(&self) -> Arc<Scan> {
        self.refresh_skills();
        Arc::clone(&self.lock().scan)
    }

    /// Polls the registry and the skill trees, and tells the client when
    /// either changed.
    async fn watch(self, peer: Peer<RoleServer>, interval: Duration) {
        let mut ticks = tokio::time::interval(interval);
        ticks.tick().await;
        loop {
            ticks.tick().await;
            let server = self.clone();
            let Ok((tools_changed, skills_changed)) = tokio::task::spawn_blocking(move || {
                (server.refresh_tools(), server.refresh_skills())
            })
            .await
            else {
                return;
            };
            if tools_changed && peer.notify_tool_list_changed().await.is_err() {
                return;
            }
            if skills_changed && peer.notify_resource_list_changed().await.is_err() {
                return;
            }
            // Prompts are made of both.
            if (tools_changed || skills_changed) && peer.notify_prompt_list_changed().await.is_err()
            {
                return;
            }
        }
    }

    /// Runs a long call as a task (SEP-2663): the client polls `tasks/get`
    /// (status, and "running for N s" as the status message) and finds the
    /// tool result there when it is done; `tasks/cancel` ends the child's
    /// whole process group, as a cancelled request does, and the run's
    /// audit record says so. The task is kept one time limit plus
    /// [`TASK_RETENTION`] (it must outlive the run: a task past its TTL is
    /// dropped).
    fn run_as_task(
        &self,
        settings: CallSettings,
        prepared: call::Prepared,
        ids: RequestIds,
        slot: super::lifecycle::Slot,
    ) -> Task {
        let ttl = prepared.time_limit(&settings) + TASK_RETENTION;
        let options = TaskOptions::new()
            .with_ttl_ms(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX))
            .with_poll_interval_ms(1000)
            .with_status_message(format!("`{}` is starting", prepared.command));
        let lifecycle = self.lifecycle.clone();
        self.tasks.spawn(options, move |task| {
            Box::pin(async move {
                // The task keeps the call's slot: a shutdown waits for it
                // and cancels it like any call in flight.
                let _slot = slot;
                let watched = task.clone();
                let reporter = task.clone();
                let controls = Controls {
                    cancelled: async move {
                        tokio::select! {
                            () = watched.cancelled() => "the task was cancelled (tasks/cancel)",
                            reason = lifecycle.cancelled() => reason,
                        }
                    },
                    progress: Some(move |seconds: u64| {
                        reporter.set_status_message(format!("running for {seconds} s"));
                    }),
                    // A task has no request to send messages on.
                    stderr: None,
                };
                let outcome = call::execute(
                    &settings,
                    prepared.into(),
                    Confirmation::Given,
                    &ids,
                    controls,
                )
                .await;
                if task.is_cancel_requested() {
                    Err(TaskExit::Cancelled)
                } else {
                    Ok(tool_result(outcome))
                }
            })
        })
    }

    /// Under a session revision: asks with `elicitation/create` while the
    /// call waits. `Err` says why it is not confirmed.
    async fn confirm(
        &self,
        settings: &CallSettings,
        context: &RequestContext<RoleServer>,
        prepared: &call::Prepared,
        ids: &RequestIds,
    ) -> Result<(), &'static str> {
        let peer = &context.peer;
        // Over HTTP no session is kept: the server has no stream on which
        // to send a request of its own, and rmcp gives each request a
        // stand-in peer with no capabilities. Say so, rather than blame
        // a client that may well have declared `elicitation`.
        if over_http(context) {
            return Err(CONFIRM_OVER_HTTP);
        }
        if peer.supported_elicitation_modes().is_empty() {
            return Err("the client does not support elicitation");
        }
        let argv = prepared.argv.redacted();
        self.audit_request(settings, &prepared.command, &argv, ids, context)
            .await?;
        let params: ElicitRequestParams =
            serde_json::from_value(confirm::elicitation(&prepared.command, &argv))
                .map_err(|_| "the confirmation request could not be built")?;
        match peer.create_elicitation(params).await {
            Ok(result) => {
                let result = serde_json::to_value(&result).unwrap_or(Value::Null);
                confirm::answer(Some(&result))
            }
            Err(_) => Err("the confirmation request failed"),
        }
    }

    /// Under 2026-07-28: the confirmation goes back in an `input_required`
    /// result with a sealed state, and the call ends here; the retry
    /// brings the answer. `Err` says why the client cannot be asked.
    async fn ask_in_result(
        &self,
        settings: &CallSettings,
        prepared: &call::Prepared,
        ids: &RequestIds,
        context: &RequestContext<RoleServer>,
    ) -> Result<InputRequiredResult, &'static str> {
        let asks = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.elicitation.is_some());
        if !asks {
            return Err("the client does not support elicitation");
        }
        let Some(sealer) = self.sealer.as_ref() else {
            return Err("the server has no key to seal a confirmation with");
        };
        let argv = prepared.argv.redacted();
        let params: ElicitRequestParams =
            serde_json::from_value(confirm::elicitation(&prepared.command, &argv))
                .map_err(|_| "the confirmation request could not be built")?;
        self.audit_request(settings, &prepared.command, &argv, ids, context)
            .await?;
        let state = sealer.seal(&prepared.command, Some(prepared.arguments()), ids);
        let mut requests = InputRequests::new();
        requests.insert(
            confirm::INPUT_KEY.to_owned(),
            InputRequest::Elicitation(ElicitRequest::new(params)),
        );
        Ok(InputRequiredResult::new(Some(requests), Some(state)))
    }

    /// How a running call hears that it is cancelled (by its client, or by
    /// a shutdown), and tells its client that it is still running when the
    /// client asked for progress, and what it writes to stderr unless the
    /// client asked only for messages above [`logging::STDERR_LEVEL`]:
    /// those go out in order, from a task of their own, which
    /// [`told`] waits for before the result goes.
    fn controls(
        &self,
        context: &RequestContext<RoleServer>,
        command: &str,
    ) -> (
        Controls<impl Future<Output = &'static str> + use<>, impl FnMut(u64) + use<>>,
        Option<Forwarding>,
    ) {
        let (stderr, forwarding) = match self.log_level(context) {
            level if level <= logging::STDERR_LEVEL => {
                let (lines, mut told) = tokio::sync::mpsc::unbounded_channel::<String>();
                let peer = context.peer.clone();
                let logger = format!("{command} (stderr)");
                let forwarding = tokio::spawn(async move {
                    while let Some(line) = told.recv().await {
                        // Deprecated by SEP-2577 (rmcp marks it so), and
                        // still part of every revision the server speaks.
                        #[allow(deprecated)]
                        let sent = peer
                            .notify_logging_message(log_message(
                                logging::STDERR_LEVEL,
                                &logger,
                                line,
                            ))
                            .await;
                        if sent.is_err() {
                            break;
                        }
                    }
                });
                (Some(lines), Some(forwarding))
            }
            _ => (None, None),
        };
        let peer = context.peer.clone();
        let token = context.meta.get_progress_token();
        let progress = token.map(|token| {
            move |seconds: u64| {
                let peer = peer.clone();
                let param = ProgressNotificationParam::new(token.clone(), seconds as f64)
                    .with_message(format!("running for {seconds} s"));
                tokio::spawn(async move {
                    let _ = peer.notify_progress(param).await;
                });
            }
        });
        let cancelled = context.ct.clone();
        let lifecycle = self.lifecycle.clone();
        let controls = Controls {
            cancelled: async move {
                tokio::select! {
                    () = cancelled.cancelled() => "the client cancelled the request or went away",
                    reason = lifecycle.cancelled() => reason,
                }
            },
            progress,
            stderr,
        };
        (controls, forwarding)
    }

    /// The level at and above which the client wants messages: its
    /// request's own (2026-07-28), else the one its session set
    /// (`logging/setLevel`, over stdio), else [`logging::DEFAULT_LEVEL`].
    /// Over HTTP no session is kept, so a level set there is not known to
    /// a later request.
    fn log_level(&self, context: &RequestContext<RoleServer>) -> logging::Level {
        #[allow(deprecated)]
        let asked = context.meta.log_level().map(level_from);
        let session = || {
            if over_http(context) {
                None
            } else {
                *self
                    .session_log_level
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
            }
        };
        asked.or_else(session).unwrap_or(logging::DEFAULT_LEVEL)
    }

    /// A replayed confirmation: refused, and audited as a refused replay
    /// under the replay's own id, naming the request it replays.
    async fn refuse_replay(
        &self,
        settings: &CallSettings,
        prepared: &call::Prepared,
        ids: &RequestIds,
        first_round: &RequestIds,
    ) -> ToolOutcome {
        let audit_log = settings.audit.clone();
        let command = prepared.command.clone();
        let argv = prepared.argv.redacted();
        let (record_ids, replay_of) = (ids.clone(), first_round.request_id.clone());
        let written = tokio::task::spawn_blocking(move || {
            confirm::audit_replay(&audit_log, &command, &argv, &record_ids, &replay_of)
        })
        .await
        .unwrap_or_else(|err| Err(err.to_string()));
        let warnings = written
            .err()
            .map(|err| format!("the audit record was not written: {err}"))
            .into_iter()
            .collect();
        call::not_confirmed(
            &prepared.command,
            &prepared.argv,
            confirm::StateError::Used.reason(),
            warnings,
            ids,
        )
    }

    /// The first round's audit record; nobody is asked if it cannot be
    /// written.
    async fn audit_request(
        &self,
        settings: &CallSettings,
        command: &str,
        argv: &[String],
        ids: &RequestIds,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), &'static str> {
        let audit_log = settings.audit.clone();
        let command = command.to_owned();
        let argv = argv.to_vec();
        let ids = ids.clone();
        let revision = context
            .protocol_version()
            .map(|version| version.as_str().to_owned())
            .unwrap_or_default();
        tokio::task::spawn_blocking(move || {
            confirm::audit_request(&audit_log, &command, &argv, &ids, &revision)
        })
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or("the audit log cannot be written, so nobody was asked")
    }
}

/// Runs a call's blocking step (a load, a dry run) from its task: on the
/// multi-thread runtime the worker hands its other tasks on and runs it in
/// place, rather than hopping to another thread and back.
async fn blocking_step<T, F>(work: F) -> Result<T, McpError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    if tokio::runtime::Handle::current().runtime_flavor()
        == tokio::runtime::RuntimeFlavor::MultiThread
    {
        Ok(tokio::task::block_in_place(work))
    } else {
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|err| McpError::internal_error(err.to_string(), None))
    }
}

/// A call that did not get as far as running: a protocol error for an
/// unknown tool, else the tool result that says why.
fn refused(refusal: Refusal) -> Result<CallToolResponse, McpError> {
    match refusal {
        Refusal::UnknownTool { name, closest } => Err(unknown_tool(&name, closest.as_deref())),
        Refusal::Outcome(outcome) => Ok(tool_result(outcome).into()),
    }
}

/// Whether the request came over HTTP (where no session is kept).
fn over_http(context: &RequestContext<RoleServer>) -> bool {
    context
        .extensions
        .get::<hyper::http::request::Parts>()
        .is_some()
}

/// The task that sends a call's stderr to its client.
type Forwarding = tokio::task::JoinHandle<()>;

/// Waits for a call's stderr messages to have gone out, so that the
/// result comes after them (a client that stopped reading is not waited
/// for long).
async fn told(forwarding: Option<Forwarding>) {
    if let Some(forwarding) = forwarding {
        let _ = tokio::time::timeout(Duration::from_secs(5), forwarding).await;
    }
}

#[allow(deprecated)]
fn level_from(level: LoggingLevel) -> logging::Level {
    match level {
        LoggingLevel::Debug => logging::Level::Debug,
        LoggingLevel::Info => logging::Level::Info,
        LoggingLevel::Notice => logging::Level::Notice,
        LoggingLevel::Warning => logging::Level::Warning,
        LoggingLevel::Error => logging::Level::Error,
        LoggingLevel::Critical => logging::Level::Critical,
        LoggingLevel::Alert => logging::Level::Alert,
        LoggingLevel::Emergency => logging::Level::Emergency,
    }
}

/// A `notifications/message` of `line` from `logger` at `level`.
#[allow(deprecated)]
fn log_message(
    level: logging::Level,
    logger: &str,
    line: String,
) -> LoggingMessageNotificationParam {
    let level = match level {
        logging::Level::Debug => LoggingLevel::Debug,
        logging::Level::Info => LoggingLevel::Info,
        logging::Level::Notice => LoggingLevel::Notice,
        logging::Level::Warning => LoggingLevel::Warning,
        logging::Level::Error => LoggingLevel::Error,
        logging::Level::Critical => LoggingLevel::Critical,
        logging::Level::Alert => LoggingLevel::Alert,
        logging::Level::Emergency => LoggingLevel::Emergency,
    };
    LoggingMessageNotificationParam::new(level, Value::String(line)).with_logger(logger)
}

/// Whether this request is made under 2026-07-28 or later (its own `_meta`,
/// else the session's revision).
fn speaks_2026(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

fn tool_result(outcome: ToolOutcome) -> CallToolResult {
    let content = vec![ContentBlock::text(outcome.text)];
    let mut result = if outcome.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = Some(outcome.structured);
    result
}

/// A call to a tool the server does not serve: `-32602`, as MCP says for
/// an unknown tool, with the closest served name when one is close.
fn unknown_tool(name: &str, closest: Option<&str>) -> McpError {
    let mut message = format!("unknown tool `{name}`");
    if let Some(closest) = closest {
        message.push_str(&format!("; did you mean `{closest}`?"));
    }
    McpError::invalid_params(
        message,
        Some(json!({"field": "name", "tool": name, "closest": closest})),
    )
}

/// How long a client may reuse a list: until the server next looks for
/// changes (a change also sends `list_changed`). Private: a shared server
/// may sit behind authentication, and a list is not for intermediaries.
fn cache_ttl_ms(interval: Duration) -> u64 {
    u64::try_from(interval.as_millis()).unwrap_or(u64::MAX)
}

fn skill_entry(skill: &ServedSkill) -> Skill {
    let name = skill
        .frontmatter
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or(&skill.name);
    let description = skill
        .frontmatter
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut frontmatter = SkillFrontmatter::new(name, description);
    for (key, value) in &skill.frontmatter {
        if key != "name" && key != "description" {
            frontmatter = frontmatter.with_field(key.clone(), value.clone());
        }
    }
    let files = skill
        .files
        .iter()
        .map(|file| SkillResource::new(file.uri.clone(), file.digest.clone(), file.size))
        .collect();
    Skill::new(skill.uri.clone(), frontmatter, SkillResources::Files(files))
}

impl ServerHandler for AigentServer {
    fn get_info(&self) -> ServerConfig {
        // `logging`: deprecated by SEP-2577, still in every revision served.
        #[allow(deprecated)]
        let capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_completions()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_skills()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("aigent", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Declared commands are tools: arguments are checked by aigent's guard before \
                 anything runs, and every call is audited. Validated skills are served through \
                 the skills extension (skills/list, skills/get, resources/read), and as prompts \
                 (a skill's body is its prompt); each tool is a prompt too, whose enum \
                 arguments complete.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let server = self.clone();
        let tools = tokio::task::spawn_blocking(move || server.tools())
            .await
            .map_err(|err| McpError::internal_error(err.to_string(), None))?;
        Ok(ListToolsResult::with_all_items(tools.as_ref().clone())
            .with_ttl_ms(cache_ttl_ms(self.options.poll_interval))
            .with_cache_scope(CacheScope::Private))
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        // Over HTTP there is no session to keep it in: accepted, and each
        // request's own level (2026-07-28) is what counts there.
        if !over_http(&context) {
            *self
                .session_log_level
                .lock()
                .unwrap_or_else(|p| p.into_inner()) = Some(level_from(request.level));
        }
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let served = self.prompts_blocking().await?;
        let prompts = served
            .iter()
            .filter_map(|prompt| serde_json::from_value::<Prompt>(prompt.listing()).ok())
            .collect();
        Ok(ListPromptsResult::with_all_items(prompts)
            .with_ttl_ms(cache_ttl_ms(self.options.poll_interval))
            .with_cache_scope(CacheScope::Private))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let served = self.prompts_blocking().await?;
        let Some(prompt) = served.iter().find(|prompt| prompt.name() == request.name) else {
            return Err(McpError::invalid_params(
                format!("no prompt is served as `{}`", request.name),
                Some(json!({"field": "name", "name": request.name})),
            ));
        };
        let given = request.arguments.unwrap_or_default();
        let (description, text) = match prompt {
            ServedPrompt::Tool(tool) => {
                let text = prompts::tool_message(tool, &given)
                    .map_err(|(message, data)| McpError::invalid_params(message, Some(data)))?;
                (
                    prompt.listing()["description"].as_str().map(str::to_owned),
                    text,
                )
            }
            ServedPrompt::Skill {
                uri, description, ..
            } => {
                if let Some(argument) = given.keys().next() {
                    return Err(McpError::invalid_params(
                        format!("the prompt `{}` takes no arguments", request.name),
                        Some(json!({"field": "arguments", "argument": argument})),
                    ));
                }
                let scan = self.scan_blocking().await?;
                let uri = uri.clone();
                let bytes = tokio::task::spawn_blocking(move || skills::read(&scan.catalog, &uri))
                    .await
                    .map_err(|err| McpError::internal_error(err.to_string(), None))?
                    .map_err(|err| McpError::internal_error(err.to_string(), None))?;
                (Some(description.clone()), skill_body(&bytes))
            }
        };
        let mut result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]);
        if let Some(description) = description {
            result = result.with_description(description);
        }
        Ok(result.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        // Only a tool's prompt has arguments with a closed set of values;
        // for anything else (a skill's prompt, a resource, a name not
        // served) there is nothing to offer, and the answer says so.
        let (values, total) = match &request.r#ref {
            Reference::Prompt(reference) => {
                let served = self.prompts_blocking().await?;
                match served.iter().find(|prompt| prompt.name() == reference.name) {
                    Some(ServedPrompt::Tool(tool)) => {
                        prompts::complete(tool, &request.argument.name, &request.argument.value)
                    }
                    _ => (Vec::new(), 0),
                }
            }
            _ => (Vec::new(), 0),
        };
        let more = total > values.len();
        let completion = CompletionInfo::with_pagination(
            values,
            Some(u32::try_from(total).unwrap_or(u32::MAX)),
            more,
        )
        .map_err(|err| McpError::internal_error(err, None))?;
        Ok(CompleteResult::new(completion))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.lock()
            .tools
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        // Counted first: a drain waits for the calls read and not yet here.
        let arrival = self.lifecycle.arrive();
        let name = request.name.to_string();
        let Some(settings) = self.settings.as_ref().clone() else {
            return Err(unknown_tool(&name, None));
        };
        let weight =
            check_arguments_within(request.arguments.as_ref(), self.options.argument_limits())?;
        // Held until the call's outcome is recorded: the cap on calls at
        // once, and what a shutdown waits for. Over the cap, the call waits
        // in line (bounded, with a deadline).
        let begun = tokio::select! {
            begun = self.lifecycle.begin(arrival, weight) => begun.map_err(|refusal| refusal.to_string()),
            () = context.ct.cancelled() => Err(
                "the client cancelled the request while it waited for a place; nothing was run"
                    .to_owned(),
            ),
        };
        let slot = match begun {
            Ok(slot) => slot,
            Err(why) => return Ok(tool_result(call::not_started(&name, &why)).into()),
        };
        // A second round (2026-07-28) carries the state the first round
        // sealed: it names the first round's request, so both are audited
        // under one id. Checked before anything else reads the call.
        let opened = request.request_state.as_deref().map(|state| {
            self.sealer
                .as_ref()
                .as_ref()
                .ok_or(confirm::StateError::Invalid)
                .and_then(|sealer| sealer.open(state, &name, request.arguments.as_ref()))
        });
        let mut ids = match &opened {
            Some(Ok(first_round)) => first_round.ids.clone(),
            _ => RequestIds::new(),
        };
        // The declaration decides the way. Usually it is cached: a few
        // `stat`s, on this worker. Loading it reads and lints a file, work
        // for which the worker first hands its other tasks on.
        let found = match call::find_cached(&settings, &name) {
            Some(found) => Ok(found),
            None => {
                let (settings, name, ids) = (settings.clone(), name.clone(), ids.clone());
                blocking_step(move || call::find(&settings, &name, &ids)).await?
            }
        };
        let found = match found {
            Ok(found) => found,
            Err(refusal) => return refused(refusal),
        };
        // The arguments object moves on as it is: no copy, no text.
        let arguments = request.arguments.take();
        let runs_as_task = found.is_long_running()
            && context
                .client_capabilities()
                .is_some_and(|capabilities| capabilities.supports_tasks());
        let asks_first = found.needs_confirmation() && !self.options.confirm_destructive;
        // A state that opened is honoured once, by any server sharing the
        // record of used states: the first answer claims it, durably,
        // before anything else is done with it. A replay goes on under an
        // id of its own, naming the request it replays.
        let mut replay_of = None;
        let retry = match opened {
            Some(Ok(opened)) if asks_first => {
                let used = Arc::clone(&self.used);
                let claimed = blocking_step(move || match used.as_ref() {
                    Some(used) => used.claim(&opened),
                    None => Err(ClaimError::Unrecorded(std::io::Error::other(
                        "the audit log has no location",
                    ))),
                })
                .await?;
                Some(match claimed {
                    Ok(()) => Ok(()),
                    Err(ClaimError::Used) => {
                        replay_of = Some(std::mem::take(&mut ids));
                        Err(confirm::StateError::Used)
                    }
                    Err(ClaimError::Unrecorded(_)) => Err(confirm::StateError::Unrecorded),
                })
            }
            Some(opened) => Some(opened.map(|_| ())),
            None => None,
        };
        if !asks_first && !runs_as_task {
            // Straight to the run, whose Phase 1 is the call's only one.
            let (controls, forwarding) = self.controls(&context, &name);
            let runnable = call::Runnable::new(found, arguments);
            let outcome =
                call::execute(&settings, runnable, Confirmation::Given, &ids, controls).await;
            told(forwarding).await;
            return Ok(tool_result(outcome).into());
        }
        // A dry run first: a person confirms the argv it gives, and a task
        // answers at once, so its arguments are checked before it starts.
        // Phase 1 is short, and may write a rejection's audit record.
        let prepared = {
            let (settings, ids) = (settings.clone(), ids.clone());
            blocking_step(move || call::prepare(&settings, found, arguments, &ids)).await?
        };
        let prepared = match prepared {
            Ok(prepared) => prepared,
            Err(refusal) => return refused(refusal),
        };
        if let Some(first_round) = replay_of {
            return Ok(tool_result(
                self.refuse_replay(&settings, &prepared, &ids, &first_round)
                    .await,
            )
            .into());
        }
        let confirmation = if !asks_first {
            Confirmation::Given
        } else if let Some(retry) = retry {
            match retry {
                Ok(_) => match confirm::answer(
                    request
                        .input_responses
                        .as_ref()
                        .and_then(|responses| responses.get(confirm::INPUT_KEY)),
                ) {
                    Ok(()) => Confirmation::Given,
                    Err(why) => Confirmation::Refused(why),
                },
                Err(err) => Confirmation::Refused(err.reason()),
            }
        } else if speaks_2026(&context) {
            match self
                .ask_in_result(&settings, &prepared, &ids, &context)
                .await
            {
                Ok(input_required) => return Ok(input_required.into()),
                Err(why) => Confirmation::Refused(why),
            }
        } else {
            match tokio::select! {
                answer = self.confirm(&settings, &context, &prepared, &ids) => answer,
                () = context.ct.cancelled() => Err("the call was cancelled while waiting for confirmation"),
            } {
                Ok(()) => Confirmation::Given,
                Err(why) => Confirmation::Refused(why),
            }
        };
        if confirmation == Confirmation::Given && runs_as_task {
            let task = self.run_as_task(settings, prepared, ids, slot);
            return Ok(CreateTaskResult::new(task).into());
        }
        let (controls, forwarding) = self.controls(&context, &name);
        let outcome = call::execute(&settings, prepared.into(), confirmation, &ids, controls).await;
        told(forwarding).await;
        Ok(tool_result(outcome).into())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        self.tasks
            .get_task(&request.task_id)
            .map(GetTaskResult::new)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks.cancel_task(&request.task_id)
    }

    /// A known method whose params did not parse arrives here: `-32602`
    /// naming the field; an unknown method is `-32601`.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        if request.method == "tools/call" {
            // A call whose params rmcp could not type ends here.
            drop(self.lifecycle.arrive());
        }
        if request.method == super::framing::REFUSED_METHOD
            && let Some((code, message, data)) =
                super::framing::carried_error(request.params.as_ref())
        {
            return Err(McpError::new(ErrorCode(code), message, Some(data)));
        }
        match params::diagnose(&request.method, request.params.as_ref()) {
            Some((message, data)) => Err(McpError::invalid_params(message, Some(data))),
            None => Err(McpError::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("method not found: {}", request.method),
                Some(json!({"method": request.method})),
            )),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let scan = self.scan_blocking().await?;
        let resources = scan
            .catalog
            .skills
            .iter()
            .flat_map(|skill| skill.files.iter().map(move |file| (skill, file)))
            .filter_map(|(_, file)| {
                // The whole path below the scheme: the skill, then each
                // directory, so two files never share a name.
                let name = file
                    .uri
                    .strip_prefix(skills::URI_SCHEME)
                    .unwrap_or(&file.uri);
                serde_json::from_value::<Resource>(json!({
                    "uri": file.uri,
                    "name": name,
                    "size": file.size,
                }))
                .ok()
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources)
            .with_ttl_ms(cache_ttl_ms(self.options.poll_interval))
            .with_cache_scope(CacheScope::Private))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let scan = self.scan_blocking().await?;
        let uri = request.uri.clone();
        let bytes = tokio::task::spawn_blocking(move || skills::read(&scan.catalog, &uri))
            .await
            .map_err(|err| McpError::internal_error(err.to_string(), None))?;
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(skills::ReadError::NotFound(_)) => {
                return Err(McpError::resource_not_found(
                    "no skill file is served at that URI",
                    Some(json!({"uri": request.uri})),
                ));
            }
            Err(err) => return Err(McpError::internal_error(err.to_string(), None)),
        };
        let mime = skills::mime_type(&request.uri, &bytes);
        let contents = match String::from_utf8(bytes) {
            Ok(text) => ResourceContents::text(text, request.uri.clone()),
            Err(err) => ResourceContents::blob(skills::base64(err.as_bytes()), request.uri.clone()),
        }
        .with_mime_type(mime);
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, McpError> {
        let scan = self.scan_blocking().await?;
        let skills = scan.catalog.skills.iter().map(skill_entry).collect();
        Ok(ListSkillsResult::with_all_items(skills)
            .with_ttl_ms(cache_ttl_ms(self.options.poll_interval))
            .with_cache_scope(CacheScope::Private))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, McpError> {
        let scan = self.scan_blocking().await?;
        match scan.catalog.skill(&request.uri) {
            Some(skill) => Ok(GetSkillResult::new(skill_entry(skill))),
            None => Err(McpError::invalid_params(
                "no skill is served at that URI",
                Some(json!({"uri": request.uri})),
            )),
        }
    }
}

/// A prompt the server serves.
enum ServedPrompt {
    /// A tool's, from its definition (as `tools/list` gives it).
    Tool(Value),
    Skill {
        name: String,
        description: String,
        /// Its `SKILL.md`.
        uri: String,
    },
}

impl ServedPrompt {
    fn name(&self) -> &str {
        match self {
            ServedPrompt::Tool(tool) => tool["name"].as_str().unwrap_or_default(),
            ServedPrompt::Skill { name, .. } => name,
        }
    }

    /// As `prompts/list` gives it.
    fn listing(&self) -> Value {
        match self {
            ServedPrompt::Tool(tool) => prompts::tool_prompt(tool),
            ServedPrompt::Skill {
                name, description, ..
            } => prompts::skill_prompt(name, description),
        }
    }
}

/// A `SKILL.md`'s body: the text after its frontmatter.
fn skill_body(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match crate::skill::frontmatter::split(&text) {
        Ok(document) => document.body.trim_start_matches(['\r', '\n']).to_owned(),
        Err(_) => text.into_owned(),
    }
}

impl AigentServer {
    /// Every prompt served: each skill's, then each tool's whose name no
    /// skill has.
    async fn prompts_blocking(&self) -> Result<Vec<ServedPrompt>, McpError> {
        let server = self.clone();
        tokio::task::spawn_blocking(move || {
            let scan = server.scan();
            let tools = server.tools();
            let mut served: Vec<ServedPrompt> = scan
                .catalog
                .skills
                .iter()
                .map(|skill| {
                    let text = |key: &str| {
                        skill
                            .frontmatter
                            .get(key)
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    };
                    ServedPrompt::Skill {
                        name: text("name").unwrap_or_else(|| skill.name.clone()),
                        description: text("description").unwrap_or_default(),
                        uri: skill.uri.clone(),
                    }
                })
                .collect();
            for tool in tools.iter() {
                if served.iter().any(|prompt| prompt.name() == tool.name) {
                    continue;
                }
                if let Ok(definition) = serde_json::to_value(tool) {
                    served.push(ServedPrompt::Tool(definition));
                }
            }
            served
        })
        .await
        .map_err(|err| McpError::internal_error(err.to_string(), None))
    }

    async fn scan_blocking(&self) -> Result<Arc<Scan>, McpError> {
        let server = self.clone();
        tokio::task::spawn_blocking(move || server.scan())
            .await
            .map_err(|err| McpError::internal_error(err.to_string(), None))
    }
}

/// Refuses `arguments` over `limits` (bytes of JSON text, or JSON
/// values), with `-32602` naming the field, before anything else looks at
/// them; within them, what they weigh (for the line of waiting calls).
/// The transports look first, before rmcp parses a message; this holds
/// any other way in to the same limits.
fn check_arguments_within(
    arguments: Option<&serde_json::Map<String, Value>>,
    limits: super::framing::Limits,
) -> Result<super::lifecycle::Weight, McpError> {
    let Some(arguments) = arguments else {
        return Ok(super::lifecycle::Weight::default());
    };
    let measure = super::framing::Measure::of_parsed(arguments);
    match limits.refusal(measure) {
        Some((_, message, data)) => Err(McpError::invalid_params(message, Some(data))),
        None => Ok(super::lifecycle::Weight {
            bytes: measure.bytes,
            values: measure.values,
        }),
    }
}

/// stdin, telling `eof` when the client closes it.
struct WatchedStdin {
    inner: super::framing::Precheck<super::stdio::Input>,
    eof: Option<tokio::sync::oneshot::Sender<()>>,
}

impl tokio::io::AsyncRead for WatchedStdin {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        let ended = match &polled {
            std::task::Poll::Ready(Ok(())) => buf.filled().len() == before,
            std::task::Poll::Ready(Err(_)) => true,
            std::task::Poll::Pending => false,
        };
        if ended && let Some(eof) = self.eof.take() {
            let _ = eof.send(());
        }
        polled
    }
}

/// Resolves with the signal's name on SIGTERM, SIGINT or SIGHUP (the
/// terminal the server ran in was closed: left to its default, it would
/// end the server and orphan the calls' process groups, which are not in
/// the terminal's).
pub(super) async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
            signal(SignalKind::hangup()),
        ) {
            (Ok(mut term), Ok(mut interrupt), Ok(mut hangup)) => tokio::select! {
                _ = term.recv() => "the server got SIGTERM",
                _ = interrupt.recv() => "the server got SIGINT",
                _ = hangup.recv() => "the server got SIGHUP",
            },
            _ => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "the server got Ctrl-C",
            Err(_) => std::future::pending().await,
        }
    }
}

impl AigentServer {
    pub(super) fn lifecycle(&self) -> &Lifecycle {
        &self.lifecycle
    }

    /// Stops the calls in flight for `reason`, within the drain period and
    /// the grace period.
    pub(super) async fn stop(&self, reason: &'static str) {
        let left = self
            .lifecycle
            .stop(
                reason,
                self.options.drain,
                crate::exec::process::DEFAULT_GRACE,
            )
            .await;
        if left > 0 {
            (self.reporter)(Notice::CallsAbandoned(left));
        }
    }

    /// Loads the registry and the skills in the background: start does not
    /// wait for a large registry, and the first list waits for it.
    pub(super) fn warm(&self) {
        let warming = self.clone();
        tokio::task::spawn_blocking(move || {
            warming.refresh_tools();
            warming.refresh_skills();
        });
    }
}

/// Serves on stdin/stdout until the client goes away (EOF on stdin) or the
/// server gets SIGTERM, SIGINT or SIGHUP; then every call in flight is stopped
/// (after `--drain`, if given) and its outcome recorded before this returns.
pub async fn serve_stdio(options: ServeOptions, reporter: Reporter) -> Result<(), ServeError> {
    let interval = options.poll_interval;
    let limits = options.argument_limits();
    let server = AigentServer::new(options, reporter);
    server.warm();
    let (eof_tx, eof_rx) = tokio::sync::oneshot::channel();
    let lifecycle = server.lifecycle().clone();
    let stdin = WatchedStdin {
        inner: super::framing::Precheck::new(super::stdio::stdin())
            .with_limits(limits)
            .counting_calls(lifecycle),
        eof: Some(eof_tx),
    };
    let transport =
        rmcp::transport::async_rw::AsyncRwTransport::new_server(stdin, super::stdio::stdout());

    // (was stdin closed, and the stop is done)
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<Option<Instant>>();
    let stopper = server.clone();
    tokio::spawn(async move {
        let (reason, closed) = tokio::select! {
            _ = eof_rx => ("the client closed stdin", Some(Instant::now())),
            reason = shutdown_signal() => (reason, None),
        };
        stopper.stop(reason).await;
        let _ = stopped_tx.send(closed);
    });

    let session_server = server.clone();
    let session = async move {
        let running = session_server
            .clone()
            .serve(transport)
            .await
            .map_err(|err| ServeError::Protocol(err.to_string()))?;
        let watcher = tokio::spawn(session_server.watch(running.peer().clone(), interval));
        let ended = running.waiting().await;
        watcher.abort();
        ended
            .map(|_| ())
            .map_err(|err| ServeError::Protocol(err.to_string()))
    };
    tokio::pin!(session);
    tokio::select! {
        ended = &mut session => {
            // The transport ended on its own (or failed): nothing in flight
            // outlives it.
            server.stop("the client closed the connection").await;
            ended
        }
        closed = stopped_rx => {
            // Every call has ended and been recorded. After EOF, rmcp
            // still answers the requests it had read (calls among them are
            // refused, the server stopping); after a signal, the replies of
            // the last calls get a moment to be written.
            // Within the grace period plus one second of the EOF.
            let flush = match closed.ok().flatten() {
                Some(at) => (crate::exec::process::DEFAULT_GRACE + Duration::from_secs(1))
                    .saturating_sub(at.elapsed())
                    .max(Duration::from_millis(300)),
                None => Duration::from_millis(300),
            };
            let _ = tokio::time::timeout(flush, &mut session).await;
            Ok(())
        }
    }
}
