//! `aigent mcp serve --http` with rmcp's own Streamable HTTP client, under
//! both revisions: a session begun with `initialize` (2025-11-25) and
//! stateless 2026-07-28. The client reaches the servers through
//! [`Balancer`], a byte-for-byte TCP load balancer in this process (see
//! there for why). `mcp_http` drives the same server with hand-written
//! HTTP, for the bytes rmcp's client would never send.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientRequest,
    ElicitationAction, GetTaskParams, ProtocolVersion,
};
use rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RoleClient,
    RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Value, json};

use crate::common::Sandbox;
use crate::common::balancer::Balancer;
use crate::mcp_http::{Server, TOKEN, registry, start};
use crate::mcp_revisions::{
    BOTH, Person, Revision, accepted, arguments, audit, envelope, events, first_round,
    long_command, refused, settle, start_task, tasks_person, wipe, wipe_call,
};

pub(crate) type Client = RunningService<RoleClient, Person>;

/// A balancer over `servers`, on a socket in the sandbox.
pub(crate) fn balance(sandbox: &Sandbox, servers: &[&Server]) -> Balancer {
    let socket = sandbox.join(format!("lb-{}.sock", servers[0].address.port()));
    Balancer::start(socket, servers.iter().map(|s| s.address).collect())
}

/// rmcp's client through `balancer`, sending `token` (none: no
/// `Authorization` header).
async fn try_connect(
    balancer: &Balancer,
    revision: Revision,
    person: Person,
    token: Option<&str>,
) -> Result<Client, ClientInitializeError> {
    let mut config = StreamableHttpClientTransportConfig::with_uri("http://localhost/mcp");
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    let socket = balancer.socket().to_str().unwrap();
    let transport = StreamableHttpClientTransport::from_unix_socket_with_config(socket, config);
    match revision {
        Revision::Session => person.serve(transport).await,
        Revision::Stateless => {
            person
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
        }
    }
}

pub(crate) async fn connect(balancer: &Balancer, revision: Revision, person: Person) -> Client {
    try_connect(balancer, revision, person, Some(TOKEN))
        .await
        .unwrap_or_else(|err| panic!("{revision:?}: connect: {err}"))
}

fn expected_version(revision: Revision) -> &'static str {
    match revision {
        Revision::Session => "2025-11-25",
        Revision::Stateless => "2026-07-28",
    }
}

/// An error and its sources, as one line.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(next) = source {
        text = format!("{text}: {next}");
        source = next.source();
    }
    text
}

pub(crate) fn yes() -> Person {
    Person::answering(ElicitationAction::Accept)
}

fn greet(who: &str) -> CallToolRequestParams {
    CallToolRequestParams::new("greet").with_arguments(arguments(json!({"who": who})))
}

#[tokio::test]
async fn lists_and_calls_under_both_revisions() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    for revision in BOTH {
        let client = connect(&balancer, revision, yes()).await;
        let info = client.peer_info().expect("the server answered").clone();
        assert_eq!(info.protocol_version.as_str(), expected_version(revision));
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert_eq!(names, ["greet"], "{revision:?}");
        let who = format!("{revision:?}");
        let result = client.call_tool(greet(&who)).await.unwrap();
        assert_eq!(result.is_error, Some(false), "{revision:?}: {result:?}");
        assert_eq!(envelope(&result)["stdout"], format!("hello {who}\n"));
        // What is wrong with the request is a protocol error, as over stdio.
        let unknown = client
            .call_tool(CallToolRequestParams::new("gret"))
            .await
            .unwrap_err();
        let ServiceError::McpError(error) = unknown else {
            panic!("{revision:?}: {unknown:?}");
        };
        assert_eq!(error.code.0, -32602, "{error:?}");
        assert_eq!(error.data.unwrap()["closest"], "greet");
        client.cancel().await.unwrap();
    }
    let records = audit(&sandbox);
    assert_eq!(
        events(&records),
        [
            "COMMAND_STARTED",
            "COMMAND_EXECUTED",
            "COMMAND_STARTED",
            "COMMAND_EXECUTED"
        ]
    );
    assert!(
        balancer.routed().len() >= 6,
        "every request went through the balancer: {:?}",
        balancer.routed()
    );
}

#[tokio::test]
async fn a_missing_or_wrong_token_is_a_clear_error_and_nothing_runs() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    for revision in BOTH {
        for token in [None, Some("test-token-0123456789abcdefXYz")] {
            let err = try_connect(&balancer, revision, yes(), token)
                .await
                .err()
                .unwrap_or_else(|| panic!("{revision:?} {token:?}: connected"));
            // rmcp's initialize error does not name its transport error
            // as its source: follow that one by hand.
            let ClientInitializeError::TransportError { error, .. } = &err else {
                panic!("{revision:?} {token:?}: {err}");
            };
            let text = chain(error);
            assert!(
                text.contains("authorization required")
                    && text.contains(r#"Bearer realm="aigent""#),
                "{revision:?} {token:?}: {text}"
            );
            assert_eq!(
                token.is_some(),
                text.contains(r#"error="invalid_token""#),
                "{text}"
            );
            assert!(!text.contains(TOKEN));
        }
    }
    assert!(audit(&sandbox).is_empty(), "nothing was checked or ran");
    // The right token opens it.
    let client = connect(&balancer, Revision::Stateless, yes()).await;
    client.call_tool(greet("x")).await.unwrap();
    client.cancel().await.unwrap();
    assert_eq!(
        events(&audit(&sandbox)),
        ["COMMAND_STARTED", "COMMAND_EXECUTED"]
    );
}

#[tokio::test]
async fn under_2026_a_confirmation_is_asked_in_the_result_and_answered_on_the_retry() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let marker = wipe(&sandbox);
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);

    // Accepted: rmcp's client asks the person and retries on its own.
    let person = yes();
    let asked = Arc::clone(&person.asked);
    let client = connect(&balancer, Revision::Stateless, person).await;
    let result = client.call_tool(wipe_call()).await.unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert!(marker.exists(), "the confirmed command ran");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let records = audit(&sandbox);
    assert_eq!(
        events(&records),
        [
            "COMMAND_CONFIRMATION_REQUESTED",
            "COMMAND_STARTED",
            "COMMAND_EXECUTED"
        ]
    );
    assert_eq!(records[0]["protocol_version"], "2026-07-28");
    let id = &records[0]["request_id"];
    for record in &records {
        assert_eq!(&record["request_id"], id, "{record}");
        assert!(!record.to_string().contains("s3cret"), "{record}");
    }
    assert_eq!(&envelope(&result)["request_id"], id);
    client.cancel().await.unwrap();
    std::fs::remove_file(&marker).unwrap();

    // Declined or cancelled: refused, not retryable, nothing runs.
    for answer in [ElicitationAction::Decline, ElicitationAction::Cancel] {
        let client = connect(
            &balancer,
            Revision::Stateless,
            Person::answering(answer.clone()),
        )
        .await;
        let result = client.call_tool(wipe_call()).await.unwrap();
        assert_eq!(result.is_error, Some(true), "{answer:?}");
        let error = &envelope(&result)["error"];
        assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{error}");
        assert_eq!(error["retryable"], false, "{error}");
        client.cancel().await.unwrap();
    }
    assert!(!marker.exists(), "nothing ran on a no");
    let records = audit(&sandbox);
    assert_eq!(
        events(&records[3..]),
        [
            "COMMAND_CONFIRMATION_REQUESTED",
            "COMMAND_CONFIRMATION_REFUSED",
            "COMMAND_CONFIRMATION_REQUESTED",
            "COMMAND_CONFIRMATION_REFUSED"
        ]
    );
    assert_eq!(records[3]["request_id"], records[4]["request_id"]);
    assert_eq!(records[5]["request_id"], records[6]["request_id"]);
}

#[tokio::test]
async fn under_2026_a_forged_altered_or_replayed_state_confirms_nothing() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let marker = wipe(&sandbox);
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    let client = connect(&balancer, Revision::Stateless, yes()).await;
    let did_not_verify = |error: &Value| {
        assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{error}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("did not verify"),
            "{error}"
        );
    };
    for forged in ["confirmed", "rs1.eyJjb25maXJtZWQiOnRydWV9.AAAA"] {
        let call = wipe_call()
            .with_request_state(forged)
            .with_input_responses(accepted());
        did_not_verify(&refused(&client, call).await);
    }
    let state = first_round(&client, wipe_call()).await;
    let elsewhere = CallToolRequestParams::new("wipe")
        .with_arguments(arguments(json!({"target": "prod", "token": "s3cret"})))
        .with_request_state(state.clone())
        .with_input_responses(accepted());
    did_not_verify(&refused(&client, elsewhere).await);
    let mut altered = state.clone().into_bytes();
    let last = altered.len() - 1;
    altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
    let altered = wipe_call()
        .with_request_state(String::from_utf8(altered).unwrap())
        .with_input_responses(accepted());
    did_not_verify(&refused(&client, altered).await);
    assert!(!marker.exists(), "nothing ran on a bad state");

    let retry = || {
        wipe_call()
            .with_request_state(state.clone())
            .with_input_responses(accepted())
    };
    match client.call_tool_once(retry()).await.unwrap() {
        CallToolResponse::Complete(result) => {
            assert_eq!(result.is_error, Some(false), "{result:?}")
        }
        other => panic!("{other:?}"),
    }
    assert!(marker.exists());
    std::fs::remove_file(&marker).unwrap();
    let error = refused(&client, retry()).await;
    assert!(
        error["message"].as_str().unwrap().contains("already used"),
        "{error}"
    );
    assert!(!marker.exists(), "a replayed yes runs nothing");
    client.cancel().await.unwrap();
}

/// Under a session revision the server would ask with `elicitation/create`,
/// a request of its own, which needs a stream to the client that a
/// stateless HTTP server does not keep: the call is refused, and only
/// `--confirm-destructive` runs it.
#[tokio::test]
async fn under_a_session_revision_over_http_a_confirmation_is_refused() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let marker = wipe(&sandbox);
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    let person = yes();
    let asked = Arc::clone(&person.asked);
    let client = connect(&balancer, Revision::Session, person).await;
    let result = client.call_tool(wipe_call()).await.unwrap();
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let error = &envelope(&result)["error"];
    assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{error}");
    assert_eq!(error["retryable"], false, "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("only under MCP 2026-07-28"),
        "the reason is the transport, not the client: {error}"
    );
    assert_eq!(asked.load(Ordering::SeqCst), 0, "nobody was asked");
    assert!(!marker.exists());
    assert_eq!(events(&audit(&sandbox)), ["COMMAND_CONFIRMATION_REFUSED"]);
    client.cancel().await.unwrap();

    let unattended = start(&sandbox, &["--confirm-destructive"]);
    let balancer = balance(&sandbox, &[&unattended]);
    let client = connect(&balancer, Revision::Session, yes()).await;
    let result = client.call_tool(wipe_call()).await.unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert!(marker.exists());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn under_2026_a_long_call_runs_as_a_task_to_completion() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    long_command(&sandbox, "build", "echo compiling\nsleep 1.2\necho built\n");
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    let client = connect(&balancer, Revision::Stateless, tasks_person()).await;
    let id = start_task(&client, "build").await;
    let (done, seen) = settle(&client, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert!(seen.contains(&"working".to_owned()), "{seen:?}");
    let result = &done["result"];
    assert_eq!(result["isError"], false, "{done}");
    assert_eq!(result["structuredContent"]["stdout"], "compiling\nbuilt\n");
    let records = audit(&sandbox);
    assert_eq!(events(&records), ["COMMAND_STARTED", "COMMAND_EXECUTED"]);
    assert_eq!(
        result["structuredContent"]["request_id"],
        records[1]["request_id"]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn under_2026_tasks_cancel_ends_the_whole_process_group_and_is_audited() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let pid_file = hang(&sandbox);
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    let client = connect(&balancer, Revision::Stateless, tasks_person()).await;
    let id = start_task(&client, "hang").await;
    let grandchild = grandchild(&pid_file).await;
    client
        .peer()
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    let (done, _) = settle(&client, &id).await;
    assert_eq!(done["status"], "cancelled", "{done}");
    assert!(
        crate::mcp::wait_until_dead(grandchild).await,
        "the grandchild {grandchild} was orphaned"
    );
    let records = audit(&sandbox);
    assert_eq!(events(&records), ["COMMAND_STARTED", "COMMAND_EXECUTED"]);
    assert_eq!(records[1]["cancelled"], true, "{}", records[1]);
    client.cancel().await.unwrap();
}

/// A call that is not run as a task, under either revision, is answered
/// when it ends, with a progress notification every second before the
/// result: the response is an SSE stream, not one JSON body.
#[tokio::test]
async fn a_long_call_answered_directly_streams_its_progress() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    long_command(&sandbox, "build", "sleep 1.5\necho built\n");
    let server = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&server]);
    // Under 2026-07-28 a client that does not declare the tasks extension;
    // under a session revision, one that declared it at `initialize`, which
    // the server no longer knows (below).
    for (revision, person) in [
        (Revision::Stateless, yes()),
        (Revision::Session, tasks_person()),
    ] {
        let progress = Arc::clone(&person.progress);
        let client = connect(&balancer, revision, person).await;
        match client
            .call_tool_once(CallToolRequestParams::new("build"))
            .await
            .unwrap()
        {
            CallToolResponse::Complete(result) => {
                assert_eq!(envelope(&result)["stdout"], "built\n", "{result:?}")
            }
            other => panic!("{revision:?}: expected the result, got {other:?}"),
        }
        let progress = progress.lock().unwrap().clone();
        assert!(
            progress.contains(&"running for 1 s".to_owned()),
            "{revision:?}: {progress:?}"
        );
        client.cancel().await.unwrap();
    }
}

/// A call not run as a task is cancelled by the client giving up on the
/// request: the connection closes, and the run is cancelled. Under a
/// session revision this is the only way, since over HTTP the server does
/// not know that the client declared the tasks extension at `initialize`
/// (no session is kept); under 2026-07-28, for a client without tasks.
#[tokio::test]
async fn a_long_call_not_run_as_a_task_is_cancelled_by_giving_up_on_it() {
    for (revision, person) in [
        (Revision::Session, tasks_person()),
        (Revision::Stateless, yes()),
    ] {
        let sandbox = Sandbox::new();
        registry(&sandbox);
        let pid_file = hang(&sandbox);
        let server = start(&sandbox, &[]);
        let balancer = balance(&sandbox, &[&server]);
        let client = connect(&balancer, revision, person).await;
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new("hang"),
        ));
        let handle = client
            .peer()
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .unwrap();
        let grandchild = grandchild(&pid_file).await;
        handle.cancel(Some("enough".to_owned())).await.unwrap();
        assert!(
            crate::mcp::wait_until_dead(grandchild).await,
            "{revision:?}: the grandchild {grandchild} was orphaned"
        );
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let executed = loop {
            let records = audit(&sandbox);
            assert!(
                std::time::Instant::now() < deadline,
                "{revision:?}: no outcome record: {records:?}"
            );
            if let Some(last) = records.last()
                && last["event"] == "COMMAND_EXECUTED"
            {
                break last.clone();
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        };
        assert_eq!(executed["command"], "hang", "{executed}");
        assert_eq!(executed["cancelled"], true, "{revision:?}: {executed}");
        assert!(
            executed["cancel_reason"]
                .as_str()
                .is_some_and(|reason| reason.contains("went away")),
            "{revision:?}: {executed}"
        );
        client.cancel().await.unwrap();
    }
}

/// `hang`: long-running, starts a grandchild that sleeps and writes its pid
/// to the returned file.
fn hang(sandbox: &Sandbox) -> std::path::PathBuf {
    let pid_file = sandbox.join("grandchild.pid");
    long_command(
        sandbox,
        "hang",
        &format!("sleep 300 &\necho $! > '{}'\nwait\n", pid_file.display()),
    );
    pid_file
}

/// Two replicas that share a state key: a confirmation asked by one is
/// honoured by the other, through one client behind one balancer.
#[tokio::test]
async fn two_replicas_with_one_state_key_take_each_others_retries() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let marker = wipe(&sandbox);
    let key = sandbox.write("state.key", "0123456789abcdef0123456789abcdef-shared\n");
    let key = key.to_str().unwrap();
    let first = start(&sandbox, &["--state-key-file", key]);
    let second = start(&sandbox, &["--state-key-file", key]);
    let balancer = balance(&sandbox, &[&first, &second]);
    let person = yes();
    let asked = Arc::clone(&person.asked);
    let client = connect(&balancer, Revision::Stateless, person).await;
    balancer.next_to(0);
    let result = client.call_tool(wipe_call()).await.unwrap();
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert!(marker.exists());
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert!(
        balancer.routed().ends_with(&[0, 1]),
        "asked by one, run by the other: {:?}",
        balancer.routed()
    );
    let records = audit(&sandbox);
    assert_eq!(
        events(&records),
        [
            "COMMAND_CONFIRMATION_REQUESTED",
            "COMMAND_STARTED",
            "COMMAND_EXECUTED"
        ]
    );
    assert_eq!(records[0]["request_id"], records[1]["request_id"]);
    assert_ne!(records[0]["pid"], records[1]["pid"], "two processes");
    client.cancel().await.unwrap();

    // A session revision's client needs no sticky session either: it
    // initializes on one replica and calls on both.
    balancer.pin(Some(0));
    let client = connect(&balancer, Revision::Session, yes()).await;
    for (replica, who) in [(1, "a"), (0, "b")] {
        balancer.pin(Some(replica));
        let result = client.call_tool(greet(who)).await.unwrap();
        assert_eq!(envelope(&result)["stdout"], format!("hello {who}\n"));
    }
    client.cancel().await.unwrap();
    let started: Vec<Value> = audit(&sandbox)
        .into_iter()
        .filter(|r| r["event"] == "COMMAND_STARTED" && r["command"] == "greet")
        .map(|r| r["pid"].clone())
        .collect();
    assert_eq!(started.len(), 2);
    assert_ne!(started[0], started[1], "one call on each replica");
}

/// The retry of a confirmation answered by hand: the state and a yes.
fn answered(state: &str) -> CallToolRequestParams {
    wipe_call()
        .with_request_state(state.to_owned())
        .with_input_responses(accepted())
}

/// Runs a confirmed retry to completion; it must succeed.
async fn run_confirmed(client: &Client, state: &str) {
    match client.call_tool_once(answered(state)).await.unwrap() {
        CallToolResponse::Complete(result) => {
            assert_eq!(result.is_error, Some(false), "{result:?}")
        }
        other => panic!("{other:?}"),
    }
}

/// The replay of `state`, refused and audited as a replay of the request
/// whose confirmation it was: the last record says so.
fn assert_refused_replay(sandbox: &Sandbox, error: &Value, marker: &std::path::Path) {
    assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{error}");
    assert_eq!(error["retryable"], false, "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("already used"),
        "{error}"
    );
    assert!(!marker.exists(), "a replayed yes runs nothing");
    let records = audit(sandbox);
    let first = &records[0];
    assert_eq!(first["event"], "COMMAND_CONFIRMATION_REQUESTED");
    let replay = records.last().unwrap();
    assert_eq!(replay["event"], "COMMAND_CONFIRMATION_REFUSED", "{replay}");
    assert_eq!(replay["reason"], "replayed", "{replay}");
    assert_eq!(replay["replay_of"], first["request_id"], "{replay}");
    assert_ne!(replay["request_id"], first["request_id"], "{replay}");
    assert!(!replay.to_string().contains("s3cret"), "{replay}");
    let executed = records
        .iter()
        .filter(|record| record["event"] == "COMMAND_EXECUTED")
        .count();
    assert_eq!(executed, 1, "one yes, one run: {records:?}");
}

/// Two replicas sharing the state key (and the audit log beside which
/// used states are recorded): a yes answered on one is refused as a
/// replay on the other, before it runs anything.
#[tokio::test]
async fn a_confirmation_answered_on_one_replica_is_a_refused_replay_on_the_other() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let marker = wipe(&sandbox);
    let key = sandbox.write("state.key", "0123456789abcdef0123456789abcdef-shared\n");
    let key = key.to_str().unwrap();
    let first = start(&sandbox, &["--state-key-file", key]);
    let second = start(&sandbox, &["--state-key-file", key]);
    let balancer = balance(&sandbox, &[&first, &second]);
    let client = connect(&balancer, Revision::Stateless, yes()).await;
    balancer.pin(Some(0));
    let state = first_round(&client, wipe_call()).await;
    run_confirmed(&client, &state).await;
    assert!(marker.exists());
    std::fs::remove_file(&marker).unwrap();
    balancer.pin(Some(1));
    let error = refused(&client, answered(&state)).await;
    assert_refused_replay(&sandbox, &error, &marker);
    // And on the first replica again, which answered it.
    balancer.pin(Some(0));
    let error = refused(&client, answered(&state)).await;
    assert!(
        error["message"].as_str().unwrap().contains("already used"),
        "{error}"
    );
    assert!(!marker.exists());
    client.cancel().await.unwrap();
}

/// A server killed after running a confirmed call, and started again with
/// the same key, refuses the same state: the record of its use was on
/// disk before the command ran.
#[tokio::test]
async fn a_restarted_server_refuses_a_state_answered_before() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let marker = wipe(&sandbox);
    let key = sandbox.write("state.key", "0123456789abcdef0123456789abcdef-shared\n");
    let key = key.to_str().unwrap();
    let state = {
        let server = start(&sandbox, &["--state-key-file", key]);
        let balancer = balance(&sandbox, &[&server]);
        let client = connect(&balancer, Revision::Stateless, yes()).await;
        let state = first_round(&client, wipe_call()).await;
        run_confirmed(&client, &state).await;
        client.cancel().await.unwrap();
        state
        // Killed (SIGKILL) here, with no chance to save anything.
    };
    assert!(marker.exists());
    std::fs::remove_file(&marker).unwrap();
    let server = start(&sandbox, &["--state-key-file", key]);
    let balancer = balance(&sandbox, &[&server]);
    let client = connect(&balancer, Revision::Stateless, yes()).await;
    let error = refused(&client, answered(&state)).await;
    assert_refused_replay(&sandbox, &error, &marker);
    client.cancel().await.unwrap();
}

/// Two replicas, each with its own key: a state sealed by one is refused
/// by the other, and nothing runs.
#[tokio::test]
async fn two_replicas_with_their_own_keys_refuse_each_others_retries() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let marker = wipe(&sandbox);
    let first = start(&sandbox, &[]);
    let second = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&first, &second]);
    let client = connect(&balancer, Revision::Stateless, yes()).await;
    balancer.next_to(0);
    let result = client.call_tool(wipe_call()).await.unwrap();
    assert!(
        balancer.routed().ends_with(&[0, 1]),
        "{:?}",
        balancer.routed()
    );
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let error = &envelope(&result)["error"];
    assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("did not verify"),
        "{error}"
    );
    assert!(!marker.exists(), "nothing ran");
    let records = audit(&sandbox);
    assert_eq!(
        events(&records),
        [
            "COMMAND_CONFIRMATION_REQUESTED",
            "COMMAND_CONFIRMATION_REFUSED"
        ]
    );
    assert_ne!(records[0]["pid"], records[1]["pid"]);
    client.cancel().await.unwrap();
}

/// A task lives in the replica that started it: another replica knows
/// nothing of it, and cannot cancel it.
#[tokio::test]
async fn a_task_is_known_only_to_the_replica_that_started_it() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    let pid_file = hang(&sandbox);
    let first = start(&sandbox, &[]);
    let second = start(&sandbox, &[]);
    let balancer = balance(&sandbox, &[&first, &second]);
    let client = connect(&balancer, Revision::Stateless, tasks_person()).await;
    balancer.pin(Some(0));
    let id = start_task(&client, "hang").await;
    let grandchild = grandchild(&pid_file).await;

    balancer.pin(Some(1));
    let peer = client.peer();
    let unknown = peer.get_task(GetTaskParams::new(id.clone())).await;
    assert!(unknown.is_err(), "{unknown:?}");
    let refused = peer.cancel_task(CancelTaskParams::new(id.clone())).await;
    assert!(refused.is_err(), "{refused:?}");
    assert!(
        crate::mcp::alive(grandchild),
        "the other replica killed nothing"
    );

    balancer.pin(Some(0));
    let working = peer.get_task(GetTaskParams::new(id.clone())).await.unwrap();
    assert_eq!(serde_json::to_value(&working).unwrap()["status"], "working");
    peer.cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    let (done, _) = settle(&client, &id).await;
    assert_eq!(done["status"], "cancelled", "{done}");
    assert!(crate::mcp::wait_until_dead(grandchild).await);
    client.cancel().await.unwrap();
}

async fn grandchild(pid_file: &std::path::Path) -> i32 {
    loop {
        if let Ok(text) = std::fs::read_to_string(pid_file)
            && let Ok(pid) = text.trim().parse()
        {
            assert!(crate::mcp::alive(pid));
            return pid;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
