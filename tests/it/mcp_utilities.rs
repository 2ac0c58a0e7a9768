//! `aigent mcp serve`'s logging, prompts and completion, through rmcp's
//! own client: a tool's stderr streamed as `notifications/message` while
//! it runs (at the level the client chose), skills and tools as prompts,
//! and a tool prompt's enum arguments completed.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    ArgumentInfo, CallToolRequestParams, CompleteRequestParams, GetPromptRequestParams, Reference,
    RequestMetaObject,
};
#[allow(deprecated)]
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

use crate::common::Sandbox;
use crate::mcp::{call, script_command};
use crate::mcp_http::{registry, start};
use crate::mcp_http_client::balance;
use crate::mcp_revisions::envelope;

/// A client that keeps each log message with when it came.
#[derive(Clone, Default)]
struct Listener {
    messages: Arc<Mutex<Vec<(Instant, Value)>>>,
}

impl Listener {
    fn lines(&self) -> Vec<String> {
        self.messages
            .lock()
            .unwrap()
            .iter()
            .map(|(_, message)| message["data"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

impl ClientHandler for Listener {
    #[allow(deprecated)]
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let message = serde_json::to_value(&params).unwrap();
        self.messages
            .lock()
            .unwrap()
            .push((Instant::now(), message));
    }
}

async fn connect(sandbox: &Sandbox, listener: Listener) -> RunningService<RoleClient, Listener> {
    std::fs::create_dir_all(sandbox.join("commands")).unwrap();
    let mut cmd = tokio::process::Command::from(sandbox.std_cmd());
    cmd.arg("--commands")
        .arg(sandbox.join("commands"))
        .args(["mcp", "serve", "--skills"])
        .arg(sandbox.join("skills"));
    let transport = rmcp::transport::TokioChildProcess::new(cmd).expect("server starts");
    listener.serve(transport).await.expect("initialize")
}

/// `chatty`: a line on stderr, a pause, two more lines (the last without
/// its line break), then stdout.
fn chatty(sandbox: &Sandbox) {
    script_command(
        sandbox,
        "chatty",
        "safe",
        "echo 'first line' >&2\nsleep 1\necho second >&2\nprintf 'third, unfinished' >&2\necho done\n",
    );
}

#[allow(deprecated)]
async fn set_level(client: &RunningService<RoleClient, Listener>, level: LoggingLevel) {
    client
        .peer()
        .set_level(SetLevelRequestParams::new(level))
        .await
        .expect("logging/setLevel answered");
}

#[tokio::test]
#[allow(deprecated)]
async fn a_tools_stderr_streams_as_log_messages_while_it_runs() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.join("skills")).unwrap();
    chatty(&sandbox);
    let listener = Listener::default();
    let client = connect(&sandbox, listener.clone()).await;
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    assert!(capabilities.get("logging").is_some(), "{capabilities}");
    set_level(&client, LoggingLevel::Info).await;
    let result = call(&client, "chatty", json!({})).await;
    let ended = Instant::now();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    // Every line came before the result, in order, the last one too.
    assert_eq!(
        listener.lines(),
        ["first line", "second", "third, unfinished"]
    );
    let messages = listener.messages.lock().unwrap().clone();
    let (first_at, first) = &messages[0];
    assert_eq!(first["level"], "info", "{first}");
    assert_eq!(first["logger"], "chatty (stderr)", "{first}");
    // The first line came while the command still ran (a second before
    // its end), not with the result.
    assert!(
        ended.duration_since(*first_at) >= Duration::from_millis(700),
        "the first line came {:?} before the result",
        ended.duration_since(*first_at)
    );
    // The result still has the whole stderr.
    assert_eq!(
        envelope(&result)["stderr"],
        "first line\nsecond\nthird, unfinished"
    );

    // A client that wants only warnings and worse hears none of it.
    set_level(&client, LoggingLevel::Warning).await;
    listener.messages.lock().unwrap().clear();
    let result = call(&client, "chatty", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    assert!(listener.lines().is_empty(), "{:?}", listener.lines());
    client.cancel().await.unwrap();
}

/// Without `logging/setLevel`, the server's default (info) applies.
#[tokio::test]
async fn a_client_that_chose_no_level_hears_stderr_at_info() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.join("skills")).unwrap();
    script_command(&sandbox, "note", "safe", "echo noted >&2\n");
    let listener = Listener::default();
    let client = connect(&sandbox, listener.clone()).await;
    let result = call(&client, "note", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(listener.lines(), ["noted"]);
    client.cancel().await.unwrap();
}

/// Over HTTP under 2026-07-28, each request carries its own level: the
/// messages go on the request's own stream (SSE) before its result.
#[tokio::test]
#[allow(deprecated)]
async fn over_http_each_request_chooses_its_level() {
    use rmcp::model::ProtocolVersion;
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

    let sandbox = Sandbox::new();
    registry(&sandbox);
    script_command(&sandbox, "note", "safe", "echo noted >&2\necho again >&2\n");
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    let listener = Listener::default();
    let mut config = StreamableHttpClientTransportConfig::with_uri("http://localhost/mcp");
    config = config.auth_header(crate::mcp_http::TOKEN);
    let transport = StreamableHttpClientTransport::from_unix_socket_with_config(
        balancer.socket().to_str().unwrap(),
        config,
    );
    let client = listener
        .clone()
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("discover");
    let with_level = |level: LoggingLevel| {
        let mut meta = RequestMetaObject::new();
        meta.set_log_level(level);
        let mut params = CallToolRequestParams::new("note");
        params.meta = Some(meta);
        params
    };
    let result = client
        .call_tool(with_level(LoggingLevel::Debug))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(listener.lines(), ["noted", "again"]);
    listener.messages.lock().unwrap().clear();
    let result = client
        .call_tool(with_level(LoggingLevel::Error))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false));
    assert!(listener.lines().is_empty(), "{:?}", listener.lines());
    client.cancel().await.unwrap();
}

fn skill(sandbox: &Sandbox, name: &str, body: &str) {
    sandbox.write(
        format!("skills/{name}/SKILL.md"),
        format!("---\nname: {name}\ndescription: How to {name} well\n---\n\n{body}"),
    );
}

fn regions(sandbox: &Sandbox) {
    sandbox.write(
        "commands/rollout.yaml",
        "name: rollout\ndescription: Roll a version out to a region\ndanger_level: safe\nparameters:\n  region: {type: enum, enum_values: [eu-west, eu-north, us-east, ap-south], required: true, description: Where to roll out}\n  replicas: {type: integer, required: false}\n  canary: {type: boolean, required: false}\nsubprocess: {binary: echo, hardcoded_args: [], user_controlled_args: [region, replicas, canary]}\n",
    );
}

#[tokio::test]
async fn skills_and_tools_are_prompts_and_enum_arguments_complete() {
    let sandbox = Sandbox::new();
    skill(
        &sandbox,
        "greeting",
        "# Greeting\n\nSay hello, then your name.\n",
    );
    // A skill named as a tool: the skill is the prompt.
    skill(&sandbox, "rollout", "Check the dashboards first.\n");
    regions(&sandbox);
    script_command(&sandbox, "note", "safe", "echo noted\n");
    let client = connect(&sandbox, Listener::default()).await;
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    assert!(capabilities.get("prompts").is_some(), "{capabilities}");
    assert!(capabilities.get("completions").is_some(), "{capabilities}");

    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|prompt| prompt.name.as_str()).collect();
    assert_eq!(names, ["greeting", "rollout", "note"], "{prompts:?}");
    let greeting = &prompts[0];
    assert_eq!(
        greeting.description.as_deref(),
        Some("How to greeting well")
    );
    assert!(greeting.arguments.is_none());

    // A skill's prompt is its body.
    let got = client
        .get_prompt(GetPromptRequestParams::new("greeting"))
        .await
        .unwrap();
    let messages = serde_json::to_value(&got.messages).unwrap();
    assert_eq!(messages[0]["role"], "user");
    assert_eq!(
        messages[0]["content"]["text"],
        "# Greeting\n\nSay hello, then your name.\n"
    );
    let rollout = client
        .get_prompt(GetPromptRequestParams::new("rollout"))
        .await
        .unwrap();
    let text = serde_json::to_value(&rollout.messages).unwrap()[0]["content"]["text"].clone();
    assert_eq!(text, "Check the dashboards first.\n");

    // A tool's prompt asks for the call, with its arguments typed.
    let note = client
        .get_prompt(GetPromptRequestParams::new("note"))
        .await
        .unwrap();
    let text = serde_json::to_value(&note.messages).unwrap()[0]["content"]["text"].clone();
    assert!(
        text.as_str().unwrap().contains("Call the `note` tool"),
        "{text}"
    );

    // An unknown prompt, a missing or unknown argument: -32602.
    for (name, arguments) in [
        ("nope", json!({})),
        ("greeting", json!({"x": "1"})),
        ("note", json!({"x": "1"})),
    ] {
        let mut params = GetPromptRequestParams::new(name);
        params.arguments = arguments.as_object().cloned();
        let err = client.get_prompt(params).await.unwrap_err();
        assert!(
            err.to_string().contains("-32602") || format!("{err:?}").contains("-32602"),
            "{name}: {err:?}"
        );
    }
    client.cancel().await.unwrap();

    // The tool without the skill: its prompt takes the parameters, and the
    // enum completes.
    std::fs::remove_dir_all(sandbox.join("skills/rollout")).unwrap();
    let client = connect(&sandbox, Listener::default()).await;
    let prompts = client.list_all_prompts().await.unwrap();
    let rollout = prompts
        .iter()
        .find(|prompt| prompt.name == "rollout")
        .unwrap();
    let arguments = serde_json::to_value(&rollout.arguments).unwrap();
    assert_eq!(arguments[0]["name"], "region");
    assert_eq!(arguments[0]["required"], true);
    assert_eq!(arguments[0]["description"], "Where to roll out");
    let complete = |argument: &str, value: &str| {
        let params = CompleteRequestParams::new(
            Reference::for_prompt("rollout"),
            ArgumentInfo::new(argument, value),
        );
        let peer = client.peer().clone();
        async move { peer.complete(params).await.unwrap().completion }
    };
    let eu = complete("region", "eu").await;
    assert_eq!(eu.values, ["eu-west", "eu-north"]);
    assert_eq!(eu.total, Some(2));
    assert_eq!(eu.has_more, Some(false));
    assert_eq!(complete("region", "EAST").await.values, ["us-east"]);
    assert_eq!(complete("canary", "").await.values, ["true", "false"]);
    assert!(complete("replicas", "1").await.values.is_empty());
    // The prompt's call, typed as the parameters are.
    let mut params = GetPromptRequestParams::new("rollout");
    params.arguments = json!({"region": "eu-west", "replicas": "3", "canary": "true"})
        .as_object()
        .cloned();
    let got = client.get_prompt(params).await.unwrap();
    let text = serde_json::to_value(&got.messages).unwrap()[0]["content"]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let call = &text[text.find("```json\n").unwrap() + 8..text.rfind("\n```").unwrap()];
    assert_eq!(
        serde_json::from_str::<Value>(call).unwrap(),
        json!({"region": "eu-west", "replicas": 3, "canary": true})
    );
    client.cancel().await.unwrap();
}
