//! `aigent mcp serve --max-calls N`: calls over the cap wait in line for a
//! place (`--max-queued-calls`, `--queue-timeout`) instead of failing, and
//! fail, retryably, only when the line is full or their wait is over.
//! Every call gets its one answer.

use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::{Value, json};

use crate::common::Sandbox;
use crate::mcp::{audit_events, call, connect, futures_join_all, script_command, structured};
use crate::mcp_http::{registry, start};
use crate::mcp_http_client::{balance, yes};
use crate::mcp_revisions::Revision;

fn executed(sandbox: &Sandbox) -> usize {
    audit_events(sandbox)
        .iter()
        .filter(|record| record["event"] == "COMMAND_EXECUTED")
        .count()
}

/// What became of a call: it ran, or it was refused before it started
/// with a retryable error (the code and message).
fn ran_or_retryable(result: &CallToolResult) -> Result<(), (String, String)> {
    let structured = structured(result);
    if result.is_error == Some(false) {
        assert_eq!(structured["stdout"], "rested\n", "{structured}");
        return Ok(());
    }
    let error = &structured["error"];
    assert_eq!(error["retryable"], true, "a refusal is retryable: {error}");
    assert_eq!(error["code"], "PRECONDITION", "{error}");
    Err((
        error["code"].as_str().unwrap().to_owned(),
        error["message"].as_str().unwrap().to_owned(),
    ))
}

/// The report: 20 calls sent at once by one client, 12 failed
/// with "already running its limit of 8 calls". Past the cap they wait.
#[tokio::test]
async fn twenty_concurrent_calls_from_one_client_all_succeed() {
    let sandbox = Sandbox::new();
    script_command(&sandbox, "nap", "safe", "sleep 0.3\necho rested\n");
    let client = connect(&sandbox, &[]).await;
    let started = Instant::now();
    let results = futures_join_all((0..20).map(|_| call(&client, "nap", json!({})))).await;
    for result in &results {
        assert_eq!(ran_or_retryable(result), Ok(()));
    }
    // Eight at a time: three rounds of 0.3 s at least.
    assert!(started.elapsed() >= Duration::from_millis(900));
    assert_eq!(executed(&sandbox), 20);
    client.cancel().await.unwrap();
}

/// 100 calls at once over HTTP, through rmcp's client, to a server that
/// runs 8 at a time: each is answered, having run or been refused
/// retryably, and every one that ran was audited once.
#[tokio::test]
async fn a_hundred_concurrent_calls_over_http_are_each_answered() {
    let sandbox = Sandbox::new();
    registry(&sandbox);
    script_command(&sandbox, "nap", "safe", "sleep 0.2\necho rested\n");
    let server = start(&sandbox, &["--max-calls", "8"]);
    let balancer = balance(&sandbox, &[&server]);
    let client = crate::mcp_http_client::connect(&balancer, Revision::Stateless, yes()).await;
    let calls = (0..100).map(|_| client.call_tool(CallToolRequestParams::new("nap")));
    let results = futures_join_all(calls).await;
    let mut ran = 0;
    for result in results {
        let result = result.expect("every call is answered");
        if ran_or_retryable(&result).is_ok() {
            ran += 1;
        }
    }
    // Within the queue's default 30 s, all of them ran.
    assert_eq!(ran, 100);
    assert_eq!(executed(&sandbox), 100);
    client.cancel().await.unwrap();
}

/// A short line and a short deadline: two run, three wait and are refused
/// when their second is up, the other five are refused at once (the line
/// is full). Nothing refused ran.
#[tokio::test]
async fn past_the_line_or_its_deadline_a_call_is_refused_retryably() {
    let sandbox = Sandbox::new();
    script_command(&sandbox, "nap", "safe", "sleep 2.5\necho rested\n");
    let client = connect(
        &sandbox,
        &[
            "--max-calls",
            "2",
            "--max-queued-calls",
            "3",
            "--queue-timeout",
            "1",
        ],
    )
    .await;
    let started = Instant::now();
    let calls = (0..10).map(|_| async {
        let result = call(&client, "nap", json!({})).await;
        (ran_or_retryable(&result), started.elapsed())
    });
    let outcomes = futures_join_all(calls).await;
    let ran = outcomes
        .iter()
        .filter(|(outcome, _)| outcome.is_ok())
        .count();
    let refused: Vec<(&str, Duration)> = outcomes
        .iter()
        .filter_map(|(outcome, at)| outcome.as_ref().err().map(|(_, why)| (why.as_str(), *at)))
        .collect();
    assert_eq!(ran, 2, "{outcomes:?}");
    let full: Vec<&(&str, Duration)> = refused
        .iter()
        .filter(|(why, _)| why.contains("is full"))
        .collect();
    let waited: Vec<&(&str, Duration)> = refused
        .iter()
        .filter(|(why, _)| why.contains("this call waited"))
        .collect();
    assert_eq!(full.len(), 5, "{refused:?}");
    assert_eq!(waited.len(), 3, "{refused:?}");
    for (_, at) in &full {
        assert!(*at < Duration::from_millis(900), "refused at once: {at:?}");
    }
    for (_, at) in &waited {
        assert!(*at >= Duration::from_secs(1), "after its wait: {at:?}");
        assert!(
            *at < Duration::from_millis(2400),
            "before a place came: {at:?}"
        );
    }
    assert_eq!(executed(&sandbox), 2);
    let records: Vec<Value> = audit_events(&sandbox);
    assert!(
        records
            .iter()
            .all(|record| record["event"] != "TOOL_ARG_VALIDATION_FAILURE"),
        "{records:?}"
    );
    client.cancel().await.unwrap();
}

/// A waiting call the client gives up on leaves the line: the server
/// answers the next ones as if it had never been there.
#[tokio::test]
async fn a_call_given_up_on_while_it_waits_runs_nothing() {
    use rmcp::model::{CallToolRequest, ClientRequest};
    use rmcp::service::PeerRequestOptions;
    let sandbox = Sandbox::new();
    script_command(&sandbox, "nap", "safe", "sleep 1\necho rested\n");
    let client = connect(&sandbox, &["--max-calls", "1"]).await;
    let first = call(&client, "nap", json!({}));
    let second = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let request =
            ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new("nap")));
        let handle = client
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        handle.cancel(Some("enough".to_owned())).await.unwrap();
    };
    let (first, ()) = tokio::join!(first, second);
    assert_eq!(ran_or_retryable(&first), Ok(()));
    let third = call(&client, "nap", json!({})).await;
    assert_eq!(ran_or_retryable(&third), Ok(()));
    assert_eq!(executed(&sandbox), 2, "the cancelled call never ran");
    client.cancel().await.unwrap();
}
