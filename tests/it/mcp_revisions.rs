//! Both MCP revisions with rmcp's own client over stdio: a session that
//! began with `initialize` (2025-11-25) and stateless 2026-07-28
//! (`server/discover`, `_meta` on every request). A destructive tool is
//! confirmed with `elicitation/create` under the first and with an
//! `input_required` result and a sealed `requestState` under the second.

use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities,
    ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction, GetTaskParams,
    InputResponses, ProgressNotificationParam, ProtocolVersion,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RoleClient,
    RunningService,
};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Map, Value, json};

use crate::common::Sandbox;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Revision {
    /// `initialize` with 2025-11-25.
    Session,
    /// `server/discover`, 2026-07-28.
    Stateless,
}

pub(crate) const BOTH: [Revision; 2] = [Revision::Session, Revision::Stateless];

/// A client whose person answers every confirmation with `answer` (or
/// whose client cannot ask, when `elicitation` is false).
#[derive(Clone)]
pub(crate) struct Person {
    pub(crate) answer: ElicitationAction,
    pub(crate) elicitation: bool,
    /// Declares the tasks extension.
    pub(crate) tasks: bool,
    pub(crate) asked: Arc<AtomicUsize>,
    /// The message of each progress notification received.
    pub(crate) progress: Arc<Mutex<Vec<String>>>,
}

impl Person {
    pub(crate) fn answering(answer: ElicitationAction) -> Self {
        Self {
            answer,
            elicitation: true,
            tasks: false,
            asked: Arc::new(AtomicUsize::new(0)),
            progress: Arc::default(),
        }
    }
}

impl ClientHandler for Person {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let message = params.message.unwrap_or_default();
        self.progress.lock().unwrap().push(message);
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = json!({});
        if self.elicitation {
            capabilities["elicitation"] = json!({"form": {}});
        }
        if self.tasks {
            capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
        }
        let capabilities: ClientCapabilities = serde_json::from_value(capabilities).unwrap();
        ClientConfig::new(capabilities, rmcp::model::Implementation::new("test", "0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let wire = serde_json::to_value(&request).unwrap();
        let message = wire["message"].as_str().unwrap();
        assert!(message.contains("destructive"), "{message}");
        assert!(
            !message.contains("s3cret"),
            "the argv is shown redacted: {message}"
        );
        let result = ElicitResult::new(self.answer.clone());
        Ok(if self.answer == ElicitationAction::Accept {
            result.with_content(json!({"confirm": true}))
        } else {
            result
        })
    }
}

async fn connect(
    sandbox: &Sandbox,
    revision: Revision,
    person: Person,
) -> RunningService<RoleClient, Person> {
    std::fs::create_dir_all(sandbox.join("commands")).unwrap();
    let mut cmd = tokio::process::Command::from(sandbox.std_cmd());
    cmd.arg("--commands")
        .arg(sandbox.join("commands"))
        .args(["mcp", "serve"]);
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    match revision {
        Revision::Session => person.serve(transport).await.expect("initialize"),
        Revision::Stateless => person
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("server/discover"),
    }
}

/// `wipe`: destructive, touches `wiped` in the sandbox; its sensitive
/// `token` reaches the child through the environment only.
pub(crate) fn wipe(sandbox: &Sandbox) -> std::path::PathBuf {
    let marker = sandbox.join("wiped");
    let script = sandbox.write("scripts/wipe.sh", format!("touch '{}'\n", marker.display()));
    sandbox.write(
        "commands/wipe.yaml",
        format!(
            "name: wipe\ndescription: Wipe the thing\ndanger_level: destructive\nparameters:\n  target: {{type: string, required: true}}\n  token: {{type: string, sensitive: true}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: [target], env: {{TOKEN: {{param: token}}}}}}\nsandbox: {{write: ['{}']}}\n",
            script.display(),
            sandbox.path().display()
        ),
    );
    marker
}

pub(crate) fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

pub(crate) fn wipe_call() -> CallToolRequestParams {
    CallToolRequestParams::new("wipe")
        .with_arguments(arguments(json!({"target": "db", "token": "s3cret"})))
}

pub(crate) fn audit(sandbox: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sandbox.audit_log())
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

pub(crate) fn events(records: &[Value]) -> Vec<&str> {
    records
        .iter()
        .map(|record| record["event"].as_str().unwrap())
        .collect()
}

pub(crate) fn envelope(result: &CallToolResult) -> Value {
    result.structured_content.clone().unwrap()
}

#[tokio::test]
async fn discover_lists_both_revisions() {
    let sandbox = Sandbox::new();
    let client = connect(
        &sandbox,
        Revision::Stateless,
        Person::answering(ElicitationAction::Accept),
    )
    .await;
    let info = client.peer_info().expect("discovered").clone();
    assert_eq!(info.protocol_version, ProtocolVersion::V_2026_07_28);
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_accepted_confirmation_runs_with_both_rounds_audited_under_one_id() {
    for revision in BOTH {
        let sandbox = Sandbox::new();
        let marker = wipe(&sandbox);
        let person = Person::answering(ElicitationAction::Accept);
        let asked = Arc::clone(&person.asked);
        let client = connect(&sandbox, revision, person).await;
        let result = client.call_tool(wipe_call()).await.unwrap();
        assert_eq!(result.is_error, Some(false), "{revision:?}: {result:?}");
        assert!(marker.exists(), "{revision:?}: the confirmed command ran");
        assert_eq!(asked.load(Ordering::SeqCst), 1, "{revision:?}");
        let records = audit(&sandbox);
        assert_eq!(
            events(&records),
            [
                "COMMAND_CONFIRMATION_REQUESTED",
                "COMMAND_STARTED",
                "COMMAND_EXECUTED"
            ],
            "{revision:?}"
        );
        let id = &records[0]["request_id"];
        assert!(id.is_string());
        for record in &records {
            assert_eq!(&record["request_id"], id, "{revision:?}: {record}");
            assert!(!record.to_string().contains("s3cret"), "{record}");
        }
        assert_eq!(&envelope(&result)["request_id"], id, "{revision:?}");
        let asked_under = records[0]["protocol_version"].as_str().unwrap();
        let expected = match revision {
            Revision::Session => "2025-11-25",
            Revision::Stateless => "2026-07-28",
        };
        assert_eq!(asked_under, expected);
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_declined_confirmation_runs_nothing_and_is_not_retryable() {
    for revision in BOTH {
        for answer in [ElicitationAction::Decline, ElicitationAction::Cancel] {
            let sandbox = Sandbox::new();
            let marker = wipe(&sandbox);
            let client = connect(&sandbox, revision, Person::answering(answer)).await;
            let result = client.call_tool(wipe_call()).await.unwrap();
            assert_eq!(result.is_error, Some(true), "{revision:?}");
            let error = &envelope(&result)["error"];
            assert_eq!(
                error["code"], "CONFIRMATION_REQUIRED",
                "{revision:?}: {error}"
            );
            assert_eq!(error["retryable"], false, "{revision:?}: {error}");
            assert!(!marker.exists(), "{revision:?}: nothing ran");
            let records = audit(&sandbox);
            assert_eq!(
                events(&records),
                [
                    "COMMAND_CONFIRMATION_REQUESTED",
                    "COMMAND_CONFIRMATION_REFUSED"
                ],
                "{revision:?}"
            );
            assert_eq!(records[0]["request_id"], records[1]["request_id"]);
            client.cancel().await.unwrap();
        }
    }
}

#[tokio::test]
async fn a_client_that_cannot_ask_is_refused_under_both_revisions() {
    for revision in BOTH {
        let sandbox = Sandbox::new();
        let marker = wipe(&sandbox);
        let mut person = Person::answering(ElicitationAction::Accept);
        person.elicitation = false;
        let client = connect(&sandbox, revision, person).await;
        let result = client.call_tool(wipe_call()).await.unwrap();
        let error = &envelope(&result)["error"];
        assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{revision:?}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("does not support elicitation")
        );
        assert!(!marker.exists());
        assert_eq!(events(&audit(&sandbox)), ["COMMAND_CONFIRMATION_REFUSED"]);
        client.cancel().await.unwrap();
    }
}

pub(crate) fn accepted() -> InputResponses {
    let mut responses = InputResponses::new();
    responses.insert(
        "confirm".to_owned(),
        json!({"action": "accept", "content": {"confirm": true}}),
    );
    responses
}

/// The first round by hand: the `input_required` result's state.
pub(crate) async fn first_round(
    client: &RunningService<RoleClient, Person>,
    call: CallToolRequestParams,
) -> String {
    match client.call_tool_once(call).await.unwrap() {
        CallToolResponse::InputRequired(input) => {
            let requests = serde_json::to_value(&input.input_requests).unwrap();
            assert_eq!(
                requests["confirm"]["method"], "elicitation/create",
                "{requests}"
            );
            input.request_state.expect("a sealed state")
        }
        other => panic!("expected input_required, got {other:?}"),
    }
}

pub(crate) async fn refused(
    client: &RunningService<RoleClient, Person>,
    call: CallToolRequestParams,
) -> Value {
    match client.call_tool_once(call).await.unwrap() {
        CallToolResponse::Complete(result) => {
            assert_eq!(result.is_error, Some(true));
            envelope(&result)["error"].clone()
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_forged_altered_or_replayed_state_confirms_nothing() {
    let sandbox = Sandbox::new();
    let marker = wipe(&sandbox);
    let client = connect(
        &sandbox,
        Revision::Stateless,
        Person::answering(ElicitationAction::Accept),
    )
    .await;

    // Made up by the client.
    for forged in ["confirmed", "rs1.eyJjb25maXJtZWQiOnRydWV9.AAAA", ""] {
        let error = refused(
            &client,
            wipe_call()
                .with_request_state(forged)
                .with_input_responses(accepted()),
        )
        .await;
        assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{forged}: {error}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("did not verify"),
            "{error}"
        );
    }
    // A real state, carried over to other arguments.
    let state = first_round(&client, wipe_call()).await;
    let other = CallToolRequestParams::new("wipe")
        .with_arguments(arguments(json!({"target": "prod", "token": "s3cret"})))
        .with_request_state(state.clone())
        .with_input_responses(accepted());
    let error = refused(&client, other).await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("did not verify"),
        "{error}"
    );
    // A real state with one character changed.
    let mut altered = state.clone().into_bytes();
    let last = altered.len() - 1;
    altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
    let altered = String::from_utf8(altered).unwrap();
    let error = refused(
        &client,
        wipe_call()
            .with_request_state(altered)
            .with_input_responses(accepted()),
    )
    .await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("did not verify"),
        "{error}"
    );
    assert!(!marker.exists(), "nothing ran on a bad state");

    // The real state with a yes runs once; the same state again does not.
    match client
        .call_tool_once(
            wipe_call()
                .with_request_state(state.clone())
                .with_input_responses(accepted()),
        )
        .await
        .unwrap()
    {
        CallToolResponse::Complete(result) => {
            assert_eq!(result.is_error, Some(false), "{result:?}")
        }
        other => panic!("{other:?}"),
    }
    assert!(marker.exists());
    std::fs::remove_file(&marker).unwrap();
    let error = refused(
        &client,
        wipe_call()
            .with_request_state(state)
            .with_input_responses(accepted()),
    )
    .await;
    assert!(
        error["message"].as_str().unwrap().contains("already used"),
        "{error}"
    );
    assert!(!marker.exists());
    client.cancel().await.unwrap();
}

async fn connect_with_key(
    sandbox: &Sandbox,
    key: &std::path::Path,
) -> RunningService<RoleClient, Person> {
    let mut cmd = tokio::process::Command::from(sandbox.std_cmd());
    cmd.arg("--commands")
        .arg(sandbox.join("commands"))
        .args(["mcp", "serve", "--state-key-file"])
        .arg(key);
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    Person::answering(ElicitationAction::Accept)
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("server/discover")
}

#[tokio::test]
async fn servers_sharing_a_state_key_accept_each_others_retries() {
    let sandbox = Sandbox::new();
    let marker = wipe(&sandbox);
    let key = sandbox.write("state.key", "0123456789abcdef0123456789abcdef-shared\n");
    let first = connect_with_key(&sandbox, &key).await;
    let second = connect_with_key(&sandbox, &key).await;
    let stranger = connect(
        &sandbox,
        Revision::Stateless,
        Person::answering(ElicitationAction::Accept),
    )
    .await;
    let state = first_round(&first, wipe_call()).await;
    // A server with another key cannot open it.
    let error = refused(
        &stranger,
        wipe_call()
            .with_request_state(state.clone())
            .with_input_responses(accepted()),
    )
    .await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("did not verify"),
        "{error}"
    );
    match second
        .call_tool_once(
            wipe_call()
                .with_request_state(state)
                .with_input_responses(accepted()),
        )
        .await
        .unwrap()
    {
        CallToolResponse::Complete(result) => {
            assert_eq!(result.is_error, Some(false), "{result:?}")
        }
        other => panic!("{other:?}"),
    }
    assert!(marker.exists());
    let records = audit(&sandbox);
    let requested = &records[0];
    let started = records
        .iter()
        .find(|r| r["event"] == "COMMAND_STARTED")
        .unwrap();
    assert_eq!(requested["request_id"], started["request_id"]);
    assert_ne!(
        requested["pid"], started["pid"],
        "two processes, one request id"
    );
    for client in [first, second, stranger] {
        client.cancel().await.unwrap();
    }

    // A key too short to seal with is refused before anything is served.
    let short = sandbox.write("short.key", "too-short\n");
    let run = crate::common::Run::of(
        sandbox
            .cmd()
            .arg("--commands")
            .arg(sandbox.join("commands"))
            .args(["mcp", "serve", "--state-key-file"])
            .arg(&short),
    );
    run.assert_code(4);
    assert!(
        run.stdout.contains("at least 32 bytes") || run.stderr.contains("at least 32 bytes"),
        "{run}"
    );
}

/// `NAME`: a long-running safe command that runs `script` with `sh`.
pub(crate) fn long_command(sandbox: &Sandbox, name: &str, script: &str) {
    let path = sandbox.write(format!("scripts/{name}.sh"), script);
    sandbox.write(
        format!("commands/{name}.yaml"),
        format!(
            "name: {name}\ndescription: Takes a while\ndanger_level: safe\nlong_running: true\nparameters: {{}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}\nsandbox: {{write: ['{}']}}\n",
            path.display(),
            sandbox.path().display()
        ),
    );
}

pub(crate) fn tasks_person() -> Person {
    let mut person = Person::answering(ElicitationAction::Accept);
    person.tasks = true;
    person
}

pub(crate) async fn start_task(client: &RunningService<RoleClient, Person>, name: &str) -> String {
    match client
        .call_tool_once(CallToolRequestParams::new(name.to_owned()))
        .await
        .unwrap()
    {
        CallToolResponse::Task(created) => {
            let task = serde_json::to_value(&created).unwrap();
            assert_eq!(task["resultType"], "task", "{task}");
            created.task.task_id
        }
        other => panic!("expected a task, got {other:?}"),
    }
}

/// Polls `tasks/get` until the task is terminal; every state seen.
pub(crate) async fn settle(
    client: &RunningService<RoleClient, Person>,
    id: &str,
) -> (Value, Vec<String>) {
    let mut seen = Vec::new();
    for _ in 0..1000 {
        let got = client
            .peer()
            .get_task(GetTaskParams::new(id))
            .await
            .unwrap();
        let wire = serde_json::to_value(&got).unwrap();
        seen.push(wire["status"].as_str().unwrap_or_default().to_owned());
        if got.task.status().is_terminal() {
            return (wire, seen);
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("task {id} did not settle: {seen:?}");
}

#[tokio::test]
async fn a_long_call_runs_as_a_task_to_completion() {
    for revision in BOTH {
        let sandbox = Sandbox::new();
        long_command(&sandbox, "build", "echo compiling\nsleep 1.2\necho built\n");
        sandbox.write("commands/quick.yaml", "name: quick\ndescription: Quick\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: echo, hardcoded_args: [hi], user_controlled_args: []}\n");
        let client = connect(&sandbox, revision, tasks_person()).await;
        let id = start_task(&client, "build").await;
        let (done, seen) = settle(&client, &id).await;
        assert_eq!(done["status"], "completed", "{revision:?}: {done}");
        assert!(seen.contains(&"working".to_owned()), "{seen:?}");
        let result = &done["result"];
        assert_eq!(result["isError"], false, "{done}");
        assert_eq!(
            result["structuredContent"]["stdout"], "compiling\nbuilt\n",
            "{done}"
        );
        let records = audit(&sandbox);
        assert_eq!(events(&records), ["COMMAND_STARTED", "COMMAND_EXECUTED"]);
        assert_eq!(
            result["structuredContent"]["request_id"],
            records[1]["request_id"]
        );
        // A command that is not long is answered directly, even to a
        // client that speaks tasks.
        match client
            .call_tool_once(CallToolRequestParams::new("quick"))
            .await
            .unwrap()
        {
            CallToolResponse::Complete(result) => assert_eq!(result.is_error, Some(false)),
            other => panic!("{other:?}"),
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_client_without_tasks_waits_for_the_result() {
    let sandbox = Sandbox::new();
    long_command(&sandbox, "build", "echo built\n");
    let client = connect(
        &sandbox,
        Revision::Stateless,
        Person::answering(ElicitationAction::Accept),
    )
    .await;
    let result = client
        .call_tool(CallToolRequestParams::new("build"))
        .await
        .unwrap();
    assert_eq!(envelope(&result)["stdout"], "built\n");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tasks_cancel_ends_the_whole_process_group_and_is_audited() {
    for revision in BOTH {
        let sandbox = Sandbox::new();
        let pid_file = sandbox.join("grandchild.pid");
        long_command(
            &sandbox,
            "hang",
            &format!("sleep 300 &\necho $! > '{}'\nwait\n", pid_file.display()),
        );
        let client = connect(&sandbox, revision, tasks_person()).await;
        let id = start_task(&client, "hang").await;
        let grandchild: i32 = loop {
            if let Ok(text) = std::fs::read_to_string(&pid_file)
                && let Ok(pid) = text.trim().parse()
            {
                break pid;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        };
        assert!(crate::mcp::alive(grandchild));
        client
            .peer()
            .cancel_task(CancelTaskParams::new(id.clone()))
            .await
            .unwrap();
        let (done, _) = settle(&client, &id).await;
        assert_eq!(done["status"], "cancelled", "{revision:?}: {done}");
        assert!(
            crate::mcp::wait_until_dead(grandchild).await,
            "{revision:?}: the grandchild {grandchild} was orphaned"
        );
        let records = audit(&sandbox);
        assert_eq!(
            events(&records),
            ["COMMAND_STARTED", "COMMAND_EXECUTED"],
            "{revision:?}"
        );
        assert_eq!(records[1]["cancelled"], true, "{}", records[1]);
        // An unknown task is an error, not a hang.
        assert!(
            client
                .peer()
                .get_task(GetTaskParams::new("no-such-task"))
                .await
                .is_err()
        );
        client.cancel().await.unwrap();
    }
}
