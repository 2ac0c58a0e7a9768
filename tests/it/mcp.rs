//! `aigent mcp serve`: the real binary, driven over stdio by rmcp's own
//! client.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, GetSkillRequestParams,
    ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{PeerRequestOptions, RequestContext, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::common::Sandbox;

const GREET: &str = "name: greet\ndescription: Print a greeting\ndanger_level: safe\nparameters:\n  who: {type: string, required: true}\nsubprocess: {binary: echo, hardcoded_args: [hello], user_controlled_args: [who]}\n";

/// A declaration `NAME` that runs `sh SCRIPT` with the given danger level.
pub(crate) fn script_command(sandbox: &Sandbox, name: &str, danger: &str, script: &str) {
    let path = sandbox.write(format!("scripts/{name}.sh"), script);
    sandbox.write(
        format!("commands/{name}.yaml"),
        format!(
            "name: {name}\ndescription: Runs a script\ndanger_level: {danger}\nparameters: {{}}\nsubprocess: {{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}\nsandbox: {{write: ['{}']}}\n",
            path.display(),
            sandbox.path().display()
        ),
    );
}

fn skill(sandbox: &Sandbox, dir: &str, frontmatter: &str, body: &str) -> PathBuf {
    sandbox.write(
        format!("{dir}/SKILL.md"),
        format!("---\n{frontmatter}---\n{body}"),
    )
}

fn server_command(sandbox: &Sandbox, extra: &[&str]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::from(sandbox.std_cmd());
    cmd.arg("--commands")
        .arg(sandbox.join("commands"))
        .args(["mcp", "serve"])
        .args(extra);
    cmd
}

pub(crate) type Client<H> = RunningService<RoleClient, H>;

async fn connect_with<H: ClientHandler>(
    sandbox: &Sandbox,
    extra: &[&str],
    handler: H,
) -> (Client<H>, tokio::process::ChildStderr) {
    std::fs::create_dir_all(sandbox.join("commands")).unwrap();
    let (transport, stderr) = TokioChildProcess::builder(server_command(sandbox, extra))
        .stderr(Stdio::piped())
        .spawn()
        .expect("server starts");
    let client = handler.serve(transport).await.expect("handshake");
    (client, stderr.expect("stderr piped"))
}

pub(crate) async fn connect(sandbox: &Sandbox, extra: &[&str]) -> Client<()> {
    connect_with(sandbox, extra, ()).await.0
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

pub(crate) async fn call(
    client: &Client<impl ClientHandler>,
    name: &str,
    args: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments(args)))
        .await
        .expect("tools/call answered")
}

pub(crate) fn audit_events(sandbox: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sandbox.audit_log())
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("audit line is JSON"))
        .collect()
}

pub(crate) fn structured(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structuredContent")
}

#[tokio::test]
async fn tools_list_has_one_closed_tool_per_runnable_declaration() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    script_command(&sandbox, "wipe", "destructive", "exit 0\n");
    script_command(&sandbox, "touch-it", "mutating", "exit 0\n");
    sandbox.write(
        "commands/broken.yaml",
        "name: broken\ndescription: x\nparameters: 3\n",
    );
    let (client, _stderr) = connect_with(&sandbox, &[], ()).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["greet", "touch-it", "wipe"]);
    for tool in &tools {
        let value = serde_json::to_value(tool).unwrap();
        assert_eq!(
            value["inputSchema"]["additionalProperties"], false,
            "{value}"
        );
        assert_eq!(value["outputSchema"]["type"], "object");
        let annotations = &value["annotations"];
        match tool.name.as_ref() {
            "greet" => {
                assert_eq!(annotations["readOnlyHint"], true);
                assert_eq!(value["inputSchema"]["required"], json!(["who"]));
            }
            "wipe" => {
                assert_eq!(annotations["readOnlyHint"], false);
                assert_eq!(annotations["destructiveHint"], true);
            }
            _ => assert_eq!(annotations["destructiveHint"], false),
        }
    }
    client.cancel().await.unwrap();
}

/// Node's `child_process` gives a server Unix sockets, not pipes: the
/// server reads and writes them from its runtime as it does pipes, and
/// puts their flags back (blocking) when it is done.
#[tokio::test]
async fn a_server_on_unix_sockets_answers_as_on_pipes() {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    let (stdin_ours, stdin_theirs) = UnixStream::pair().unwrap();
    let (stdout_ours, stdout_theirs) = UnixStream::pair().unwrap();
    // The server's own end of its stdin, as the same open file.
    let probe = stdin_theirs.try_clone().unwrap();
    let mut server = server_command(&sandbox, &[]);
    server
        .stdin(Stdio::from(OwnedFd::from(stdin_theirs)))
        .stdout(Stdio::from(OwnedFd::from(stdout_theirs)))
        .stderr(Stdio::null());
    let mut child = server.spawn().expect("server starts");
    drop(server);
    for ours in [&stdin_ours, &stdout_ours] {
        ours.set_nonblocking(true).unwrap();
    }
    let reader = tokio::net::UnixStream::from_std(stdout_ours).unwrap();
    let writer = tokio::net::UnixStream::from_std(stdin_ours).unwrap();
    let client = ().serve((reader, writer)).await.expect("handshake");
    let result = call(&client, "greet", json!({"who": "socket"})).await;
    assert_eq!(structured(&result)["stdout"], "hello socket\n");
    assert!(
        rustix::fs::fcntl_getfl(&probe)
            .unwrap()
            .contains(rustix::fs::OFlags::NONBLOCK),
        "the server polls its stdin"
    );
    client.cancel().await.unwrap();
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("the server ends when its stdin does")
        .unwrap();
    assert!(status.success(), "{status:?}");
    assert!(
        !rustix::fs::fcntl_getfl(&probe)
            .unwrap()
            .contains(rustix::fs::OFlags::NONBLOCK),
        "the server left its stdin non-blocking"
    );
}

#[tokio::test]
async fn a_good_call_runs_captures_output_and_is_audited() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    let client = connect(&sandbox, &[]).await;
    let result = call(&client, "greet", json!({"who": "world"})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let content = structured(&result);
    assert_eq!(content["child_exit_code"], 0);
    assert_eq!(content["ok"], true);
    assert_eq!(content["error"], Value::Null);
    assert_eq!(content["stdout"], "hello world\n");
    assert_eq!(content["stdout_truncated"], false);
    let records = audit_events(&sandbox);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["event"], "COMMAND_STARTED");
    assert_eq!(records[1]["event"], "COMMAND_EXECUTED");
    assert_eq!(records[1]["argv"], json!(["echo", "hello", "world"]));
    // The result names the request its audit records carry.
    assert!(records[1]["request_id"].is_string());
    assert_eq!(records[1]["request_id"], content["request_id"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_rejected_call_runs_nothing_and_returns_the_args_check_envelope() {
    let sandbox = Sandbox::new();
    let marker = sandbox.join("ran");
    script_command(
        &sandbox,
        "probe",
        "safe",
        &format!("touch '{}'\n", marker.display()),
    );
    sandbox.write(
        "commands/fetch.yaml",
        "name: fetch\ndescription: Get a file\ndanger_level: safe\nparameters:\n  file-id: {type: resource_id, required: true}\nsubprocess: {binary: echo, hardcoded_args: [], user_controlled_args: [file-id]}\n",
    );
    let client = connect(&sandbox, &[]).await;
    let result = call(&client, "fetch", json!({"file-id": "../../etc/passwd"})).await;
    assert_eq!(result.is_error, Some(true));
    let envelope = structured(&result);
    assert_eq!(envelope["ok"], false);
    let error = &envelope["error"];
    assert_eq!(error["code"], "INVALID_AGENT_INPUT", "{envelope}");
    assert_eq!(error["input_value"], "../../etc/passwd");
    assert_eq!(error["field"], "file-id");
    assert!(error["rejected_pattern"].is_string(), "{envelope}");

    // The same envelope as `args check --json`.
    let check = sandbox
        .cmd()
        .arg("--commands")
        .arg(sandbox.join("commands"))
        .args(["--output", "json", "args", "check", "fetch", "--json"])
        .arg(r#"{"file-id": "../../etc/passwd"}"#)
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&check.stdout).unwrap();
    // Everything but the hints, which name how to reach the registry from
    // a shell (`aigent --commands DIR ...`).
    for key in [
        "code",
        "message",
        "phase",
        "field",
        "input_value",
        "rejected_pattern",
        "expected",
        "errors",
    ] {
        assert_eq!(cli["error"][key], envelope["error"][key], "{key}");
    }

    // An unknown parameter and a missing one are refused too.
    let result = call(&client, "probe", json!({"extra": "x"})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(!marker.exists(), "nothing may run after a rejection");
    let events: Vec<Value> = audit_events(&sandbox)
        .into_iter()
        .map(|record| record["event"].clone())
        .collect();
    // The server's two rejections and the one `args check` made.
    assert_eq!(events, vec![json!("TOOL_ARG_VALIDATION_FAILURE"); 3]);
    // An unknown tool is a protocol error (-32602), not a tool result.
    let unknown = client
        .call_tool(CallToolRequestParams::new("no-such-tool").with_arguments(Map::new()))
        .await
        .expect_err("an unknown tool is a protocol error");
    assert!(unknown.to_string().contains("no-such-tool"), "{unknown}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_failing_command_is_a_tool_error_that_keeps_its_status() {
    let sandbox = Sandbox::new();
    // The child's own 2, which must not read as aigent's ARG_ERROR.
    script_command(&sandbox, "fail", "safe", "echo oops >&2\nexit 2\n");
    let client = connect(&sandbox, &["--max-output", "2"]).await;
    let result = call(&client, "fail", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let content = structured(&result);
    assert_eq!(content["child_exit_code"], 2);
    assert_eq!(content["ok"], false);
    assert_eq!(content["error"]["code"], "COMMAND_FAILED");
    assert_eq!(content["error"]["phase"], "execution");
    assert_eq!(content["error"]["child_exit_code"], 2);
    assert_eq!(content["stderr"], "oo");
    assert_eq!(content["stderr_truncated"], true);
    client.cancel().await.unwrap();
}

/// A status the declaration counts as success is no tool error, and its
/// declared name comes back.
#[tokio::test]
async fn a_declared_success_status_is_no_tool_error() {
    let sandbox = Sandbox::new();
    let path = sandbox.write("scripts/none.sh", "exit 1\n");
    sandbox.write(
        "commands/search.yaml",
        format!(
            "name: search\ndescription: Finds nothing\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: sh, argv: ['{}']}}\nsuccess_exit_codes: [0, 1]\nexit_codes:\n  0: {{name: MATCH}}\n  1: {{name: NO_MATCH, description: No line matched}}\n",
            path.display()
        ),
    );
    let client = connect(&sandbox, &[]).await;
    let result = call(&client, "search", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let content = structured(&result);
    assert_eq!(content["ok"], true);
    assert_eq!(content["child_exit_code"], 1);
    assert_eq!(content["child_exit"]["name"], "NO_MATCH");
    client.cancel().await.unwrap();
}

/// Free text reaches the program as one word through MCP too, the tool's
/// inputSchema says what is refused, and a broken regex never runs.
#[tokio::test]
async fn free_text_and_regex_tools() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/say.yaml",
        "name: say\ndescription: Print a message\ndanger_level: safe\nparameters:\n  message: {type: string, required: true, pattern_type: free_text}\n  pattern: {type: string, pattern_type: regex, regex_dialect: ere}\nsubprocess: {binary: printf, argv: ['%s|%s\\n', {param: message}, {param: pattern}]}\n",
    );
    let client = connect(&sandbox, &[]).await;
    let tools = client.list_all_tools().await.unwrap();
    let schema = serde_json::to_value(&tools[0].input_schema).unwrap();
    assert_eq!(
        schema["properties"]["message"]["x-aigent-pattern-type"],
        "free_text"
    );
    assert!(
        schema["properties"]["message"]["not"]["anyOf"].is_array(),
        "{schema}"
    );
    assert_eq!(
        schema["properties"]["pattern"]["x-aigent-regex-dialect"],
        "ere"
    );
    let result = call(
        &client,
        "say",
        json!({"message": "Fix (again) & more; $x", "pattern": "(a|b)$"}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        structured(&result)["stdout"],
        "Fix (again) & more; $x|(a|b)$\n"
    );
    let result = call(&client, "say", json!({"message": "ok", "pattern": "(a|b"})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(structured(&result)["error"]["rejected_pattern"], "regex");
    client.cancel().await.unwrap();
}

/// A confined path is checked by the server as by `run`, from the
/// directory the program runs in.
#[tokio::test]
async fn confined_paths_are_refused_through_mcp() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/save.yaml",
        "name: save\ndescription: Create an empty file\ndanger_level: mutating\nparameters:\n  output: {type: string, required: true, pattern_type: filepath, relative_only: true, under: [$CWD]}\nsubprocess: {binary: touch, argv: ['--', {param: output}]}\n",
    );
    let client = connect(&sandbox, &[]).await;
    let result = call(&client, "save", json!({"output": "/tmp/aigent-mcp-nope"})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        structured(&result)["error"]["rejected_pattern"],
        "absolute_path"
    );
    std::os::unix::fs::symlink("/tmp", sandbox.join("out")).unwrap();
    let result = call(&client, "save", json!({"output": "out/aigent-mcp-nope"})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        structured(&result)["error"]["rejected_pattern"],
        "outside_root"
    );
    let result = call(&client, "save", json!({"output": "made.txt"})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert!(sandbox.join("made.txt").exists());
    assert!(!std::path::Path::new("/tmp/aigent-mcp-nope").exists());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn destructive_tools_are_refused_without_confirmation() {
    let sandbox = Sandbox::new();
    let marker = sandbox.join("wiped");
    script_command(
        &sandbox,
        "wipe",
        "destructive",
        &format!("touch '{}'\n", marker.display()),
    );
    let client = connect(&sandbox, &[]).await;
    let result = call(&client, "wipe", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        structured(&result)["error"]["code"],
        "CONFIRMATION_REQUIRED"
    );
    assert!(!marker.exists());
    assert_eq!(
        audit_events(&sandbox)[0]["event"],
        "COMMAND_CONFIRMATION_REFUSED"
    );
    client.cancel().await.unwrap();

    let client = connect(&sandbox, &["--confirm-destructive"]).await;
    let result = call(&client, "wipe", json!({})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert!(marker.exists());
    client.cancel().await.unwrap();
}

/// A client that supports elicitation and answers with `confirm`.
#[derive(Clone)]
struct Confirming {
    confirm: bool,
    asked: Arc<AtomicUsize>,
}

impl ClientHandler for Confirming {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
        ClientConfig::new(capabilities, rmcp::model::Implementation::new("test", "0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let wire = serde_json::to_value(&request).unwrap();
        assert!(wire["message"].as_str().unwrap().contains("destructive"));
        Ok(ElicitResult::new(ElicitationAction::Accept)
            .with_content(json!({"confirm": self.confirm})))
    }
}

#[tokio::test]
async fn destructive_tools_ask_a_client_that_supports_elicitation() {
    let sandbox = Sandbox::new();
    let marker = sandbox.join("wiped");
    script_command(
        &sandbox,
        "wipe",
        "destructive",
        &format!("touch '{}'\n", marker.display()),
    );
    for confirm in [false, true] {
        let asked = Arc::new(AtomicUsize::new(0));
        let handler = Confirming {
            confirm,
            asked: Arc::clone(&asked),
        };
        let (client, _stderr) = connect_with(&sandbox, &[], handler).await;
        let result = call(&client, "wipe", json!({})).await;
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        assert_eq!(result.is_error, Some(!confirm), "{result:?}");
        assert_eq!(marker.exists(), confirm);
        client.cancel().await.unwrap();
    }
}

/// Whether `pid` is a live process: a zombie (dead, not yet reaped by
/// whoever adopted it) does not count.
pub fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        !state.starts_with('Z') && !state.starts_with('X')
    })
}

pub async fn wait_until_dead(pid: i32) -> bool {
    // SIGKILL is delivered asynchronously; give the kernel a moment.
    for _ in 0..100 {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn cancellation_kills_the_whole_process_group() {
    let sandbox = Sandbox::new();
    let pid_file = sandbox.join("grandchild.pid");
    script_command(
        &sandbox,
        "hang",
        "safe",
        &format!("sleep 300 &\necho $! > '{}'\nwait\n", pid_file.display()),
    );
    let client = connect(&sandbox, &[]).await;
    let request = ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(
        CallToolRequestParams::new("hang"),
    ));
    let handle = client
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    while !pid_file.exists()
        || std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .is_empty()
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let grandchild: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(alive(grandchild));
    handle.cancel(Some("test".into())).await.unwrap();
    // The audit record is written once the group is gone and the child reaped.
    let record = loop {
        if let Some(record) = audit_events(&sandbox)
            .into_iter()
            .find(|record| record["event"] == "COMMAND_EXECUTED")
        {
            break record;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(record["cancelled"], true, "{record}");
    assert!(
        wait_until_dead(grandchild).await,
        "the grandchild {grandchild} was orphaned"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn concurrent_calls_run_side_by_side() {
    let sandbox = Sandbox::new();
    let dir = sandbox.join("arrivals");
    std::fs::create_dir_all(&dir).unwrap();
    // Each call waits until all four have started: only concurrent calls finish.
    script_command(
        &sandbox,
        "gather",
        "safe",
        &format!(
            "d='{}'\ntouch \"$d/$$\"\nwhile [ \"$(ls \"$d\" | wc -l)\" -lt 4 ]; do sleep 0.05; done\necho done\n",
            dir.display()
        ),
    );
    let client = connect(&sandbox, &[]).await;
    let calls = (0..4).map(|_| call(&client, "gather", json!({})));
    let results = futures_join_all(calls).await;
    for result in results {
        assert_eq!(structured(&result)["stdout"], "done\n");
    }
    client.cancel().await.unwrap();
}

pub(crate) async fn futures_join_all<F: std::future::Future>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output> {
    let mut set = Vec::new();
    for future in futures {
        set.push(Box::pin(future));
    }
    let mut outputs = Vec::new();
    // Polled together by tokio::join-style selection: each future is driven
    // inside one task through a small hand-made join.
    let mut pending: Vec<_> = set.into_iter().map(Some).collect();
    let mut results: Vec<Option<F::Output>> = pending.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all_done = true;
        for (slot, result) in pending.iter_mut().zip(results.iter_mut()) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(output) => {
                        *result = Some(output);
                        *slot = None;
                    }
                    std::task::Poll::Pending => all_done = false,
                }
            }
        }
        if all_done {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    outputs.extend(results.into_iter().map(Option::unwrap));
    outputs
}

fn sha256(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!(
        "sha256:{}",
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

fn text_of(contents: &[ResourceContents]) -> String {
    match &contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn validated_skills_are_listed_fetched_and_read() {
    let sandbox = Sandbox::new();
    let skill_md = skill(
        &sandbox,
        "skills/pdf-tools",
        "name: pdf-tools\ndescription: Work with PDF files\nlicense: MIT\nmetadata:\n  owner: docs-team\n",
        "# PDF tools\n\nSee [the guide](references/guide.md).\n",
    );
    sandbox.write("skills/pdf-tools/references/guide.md", "guide text\n");
    skill(
        &sandbox,
        "skills/Bad_Name",
        "name: Bad_Name\ndescription: x\n",
        "body\n",
    );
    let (client, stderr) = connect_with(&sandbox, &["--skills", "skills"], ()).await;
    let skills = client.list_skills(None).await.unwrap().skills;
    let listed: Vec<Value> = skills
        .iter()
        .map(|s| serde_json::to_value(s).unwrap())
        .collect();
    assert_eq!(listed.len(), 1, "{listed:?}");
    let entry = &listed[0];
    assert_eq!(entry["uri"], "skill://pdf-tools/SKILL.md");
    assert_eq!(
        entry["frontmatter"],
        json!({"name": "pdf-tools", "description": "Work with PDF files", "license": "MIT", "metadata": {"owner": "docs-team"}})
    );
    let bytes = std::fs::read(&skill_md).unwrap();
    assert_eq!(
        entry["resources"],
        json!([
            {"uri": "skill://pdf-tools/SKILL.md", "digest": sha256(&bytes), "size": bytes.len()},
            {"uri": "skill://pdf-tools/references/guide.md", "digest": sha256(b"guide text\n"), "size": 11},
        ])
    );

    let got = client
        .get_skill(GetSkillRequestParams::new("skill://pdf-tools/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(serde_json::to_value(&got.skill).unwrap(), *entry);

    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://pdf-tools/references/guide.md",
        ))
        .await
        .unwrap();
    assert_eq!(text_of(&read.contents), "guide text\n");
    client.cancel().await.unwrap();

    let mut text = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut { stderr }, &mut text)
        .await
        .unwrap();
    assert!(
        text.contains("Bad_Name") && text.contains("is not served"),
        "{text}"
    );
}

#[tokio::test]
async fn no_byte_outside_a_skill_is_ever_served() {
    let sandbox = Sandbox::new();
    skill(
        &sandbox,
        "skills/notes",
        "name: notes\ndescription: Notes\n",
        "# Notes\n",
    );
    skill(
        &sandbox,
        "skills/other",
        "name: other\ndescription: Other\n",
        "# Other\n",
    );
    let secret = sandbox.write("secret.txt", "top secret\n");
    std::os::unix::fs::symlink(&secret, sandbox.join("skills/notes/leak.txt")).unwrap();
    std::os::unix::fs::symlink(sandbox.path(), sandbox.join("skills/notes/up")).unwrap();
    // A FIFO would hang a reader that opened it blocking.
    let fifo = sandbox.join("skills/notes/pipe");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let client = connect(&sandbox, &["--skills", "skills"]).await;
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://notes/SKILL.md"))
        .await
        .unwrap();
    let resources = serde_json::to_value(&got.skill.resources).unwrap();
    assert_eq!(resources.as_array().unwrap().len(), 1, "{resources}");
    let secret_path = secret.display().to_string();
    for uri in [
        "skill://notes/leak.txt",
        "skill://notes/pipe",
        "skill://notes/up/secret.txt",
        "skill://notes/../../secret.txt",
        "skill://notes/%2e%2e/%2e%2e/secret.txt",
        "skill://notes/..%2F..%2Fsecret.txt",
        "skill://notes/../other/SKILL.md",
        "skill://notes/./SKILL.md",
        "skill://NOTES/SKILL.md",
        "skill://notes//SKILL.md",
        &format!("file://{secret_path}"),
        &secret_path,
    ] {
        let outcome = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await;
        assert!(outcome.is_err(), "{uri} was served: {outcome:?}");
    }
    let outcome = client
        .get_skill(GetSkillRequestParams::new(
            "skill://notes/../other/SKILL.md",
        ))
        .await;
    assert!(outcome.is_err());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn registry_and_skill_changes_show_on_the_next_list() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    std::fs::create_dir_all(sandbox.join("skills")).unwrap();
    let client = connect(&sandbox, &["--skills", "skills"]).await;
    assert_eq!(client.list_all_tools().await.unwrap().len(), 1);
    assert!(client.list_skills(None).await.unwrap().skills.is_empty());
    script_command(&sandbox, "later", "safe", "exit 0\n");
    skill(
        &sandbox,
        "skills/fresh",
        "name: fresh\ndescription: New\n",
        "# New\n",
    );
    // Each list says it is fresh for one poll interval (`ttlMs`, 1 s), and
    // rmcp's client keeps it that long.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["greet", "later"]);
    assert_eq!(client.list_skills(None).await.unwrap().skills.len(), 1);
    client.cancel().await.unwrap();
}

#[test]
fn nothing_to_serve_is_a_usage_error() {
    let sandbox = Sandbox::new();
    let run = crate::common::Run::of(sandbox.cmd().args(["mcp", "serve"]));
    run.assert_code(2);
    assert!(
        run.stdout.contains("nothing to serve") || run.stderr.contains("nothing to serve"),
        "{run}"
    );
}

/// A client that counts the notifications it hears.
#[derive(Clone, Default)]
struct Listening {
    tool_list_changed: Arc<AtomicUsize>,
    resource_list_changed: Arc<AtomicUsize>,
    progress: Arc<AtomicUsize>,
}

impl ClientHandler for Listening {
    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        self.tool_list_changed.fetch_add(1, Ordering::SeqCst);
    }

    async fn on_resource_list_changed(
        &self,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.resource_list_changed.fetch_add(1, Ordering::SeqCst);
    }

    async fn on_progress(
        &self,
        _params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.progress.fetch_add(1, Ordering::SeqCst);
    }
}

/// Waits (generously: this is not a timing test) until `counter` is non-zero.
async fn heard(counter: &AtomicUsize) -> bool {
    for _ in 0..1000 {
        if counter.load(Ordering::SeqCst) > 0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn changes_on_disk_are_notified_as_list_changed() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/greet.yaml", GREET);
    std::fs::create_dir_all(sandbox.join("skills")).unwrap();
    let listening = Listening::default();
    let (client, _stderr) =
        connect_with(&sandbox, &["--skills", "skills"], listening.clone()).await;
    // The server loads the registry while it says hello; a change is one
    // after the list the client has seen.
    assert_eq!(client.list_all_tools().await.unwrap().len(), 1);
    script_command(&sandbox, "later", "safe", "exit 0\n");
    assert!(
        heard(&listening.tool_list_changed).await,
        "no tools/list_changed"
    );
    skill(
        &sandbox,
        "skills/fresh",
        "name: fresh\ndescription: New\n",
        "# New\n",
    );
    assert!(
        heard(&listening.resource_list_changed).await,
        "no resources/list_changed"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn long_calls_report_progress_when_asked() {
    let sandbox = Sandbox::new();
    script_command(&sandbox, "slow", "safe", "sleep 1.5\necho finished\n");
    let listening = Listening::default();
    let (client, _stderr) = connect_with(&sandbox, &[], listening.clone()).await;
    let mut params = CallToolRequestParams::new("slow");
    params.meta = Some(rmcp::model::RequestMetaObject::with_progress_token(
        rmcp::model::ProgressToken(rmcp::model::NumberOrString::Number(7)),
    ));
    let result = client.call_tool(params).await.unwrap();
    assert_eq!(structured(&result)["stdout"], "finished\n");
    assert!(heard(&listening.progress).await, "no progress notification");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_timeout_kills_a_call_and_says_so() {
    let sandbox = Sandbox::new();
    script_command(&sandbox, "hang", "safe", "sleep 300\n");
    let client = connect(&sandbox, &["--timeout", "0.2"]).await;
    let result = call(&client, "hang", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let content = structured(&result);
    assert_eq!(content["timed_out"], true, "{content}");
    assert_eq!(audit_events(&sandbox)[1]["timed_out"], true);
    client.cancel().await.unwrap();
}

/// A declaration that cannot be loaded is told over MCP with the same
/// error body `run` gives: an invalid one's findings and file, a
/// duplicate's files and the hint a model can act on (hints naming an
/// aigent command line stay out: a model has no shell).
#[tokio::test]
async fn a_declaration_that_cannot_load_carries_its_errors_file_and_hints() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/broken.yaml",
        GREET
            .replace("name: greet", "name: broken")
            .replace("danger_level: safe", "danger_level: extreme"),
    );
    sandbox.write("commands/twice.yaml", GREET.replace("greet", "twice"));
    sandbox.write("commands/twice.json", r#"{"name": "twice"}"#);
    let client = connect(&sandbox, &[]).await;

    let result = call(&client, "broken", json!({"who": "x"})).await;
    assert_eq!(result.is_error, Some(true));
    let error = &structured(&result)["error"];
    assert_eq!(error["code"], "INVALID_DECLARATION", "{error}");
    let errors = error["errors"].as_array().expect("errors");
    assert!(!errors.is_empty(), "{error}");
    assert!(
        error["file"]
            .as_str()
            .is_some_and(|file| file.ends_with("broken.yaml")),
        "{error}"
    );
    let hints: Vec<&str> = error["hints"]
        .as_array()
        .map(|hints| hints.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(
        !hints.iter().any(|hint| hint.contains("aigent ")),
        "{hints:?}"
    );

    let result = call(&client, "twice", json!({"who": "x"})).await;
    let error = &structured(&result)["error"];
    assert_eq!(error["code"], "DUPLICATE_COMMAND", "{error}");
    assert_eq!(error["files"].as_array().map(Vec::len), Some(2), "{error}");
    assert!(
        error["hints"].as_array().is_some_and(|hints| hints
            .iter()
            .any(|hint| hint == "keep one declaration file per command name")),
        "{error}"
    );
    client.cancel().await.expect("closed");
}
