//! The sandbox's escape suite (issue #22): a declared command tries to get
//! out of its grants and is stopped by the kernel, and the same moves
//! succeed inside them. The probe is a Perl script (Perl is part of every
//! Debian and Ubuntu base system) that does one thing per call and prints
//! `ok: ...` or `denied: ERRNO`.
//!
//! Every test needs Landlock ABI 4 or later and seccomp; on a kernel
//! without them it prints why and returns (the unit tests in
//! `exec::sandbox` cover the refusal logic on every kernel, and
//! `require_refuses_on_a_kernel_without_landlock_and_best_effort_says_why`
//! runs the binary where Landlock answers ENOSYS, as on a kernel without
//! it). The same suite covers MCP `tools/call` and the hook's routed
//! `aigent run`.

use std::net::TcpListener;

use serde_json::Value;

use crate::common::{Run, Sandbox};
use aigent::exec::sandbox::Support;

const PROBE: &str = r#"#!/usr/bin/perl
use strict;
use warnings;
use Config;
my ($action, $target, $number) = @ARGV;
$number //= 0;
sub done { print "ok: $_[0]\n"; exit 0 }
sub denied { print "denied: $!\n"; exit 3 }
sub slurp {
    my ($path) = @_;
    open(my $fh, '<', $path) or denied();
    local $/;
    my $text = <$fh> // '';
    chomp $text;
    done($text);
}
if ($action eq 'read') { slurp($target) }
if ($action eq 'write') {
    open(my $fh, '>', $target) or denied();
    print $fh "written\n";
    close($fh) or denied();
    done('written');
}
if ($action eq 'dotdot') { slurp("data/../$target") }
if ($action eq 'procroot') { slurp("/proc/self/root$target") }
if ($action eq 'symlink') {
    unlink('out/link');
    symlink($target, 'out/link') or denied();
    slurp('out/link');
}
if ($action eq 'hardlink') {
    unlink('out/hard');
    link($target, 'out/hard') or denied();
    slurp('out/hard');
}
if ($action eq 'connect') {
    use Socket;
    socket(my $socket, PF_INET, SOCK_STREAM, 0) or denied();
    connect($socket, sockaddr_in($number, inet_aton('127.0.0.1'))) or denied();
    done("connected to $number");
}
if ($action eq 'ptrace') {
    my %numbers = ('x86_64' => 101, 'aarch64' => 117);
    my ($arch) = split(/-/, $Config{archname});
    my $call = $numbers{$arch} or do { print "unknown arch $arch\n"; exit 4 };
    # PTRACE_ATTACH, then PTRACE_DETACH if it worked.
    my $pid = $number + 0;
    syscall($call, 16, $pid, 0, 0) == 0 or denied();
    syscall($call, 17, $pid, 0, 0);
    done("attached to $number");
}
if ($action eq 'exec') {
    exec($target, '-u') or denied();
}
print "unknown action $action\n";
exit 4;
"#;

/// Writes the probe, its declaration (granting `connect_port`) and the
/// files the tests reach for; returns the registry directory.
fn setup(sandbox: &Sandbox, network: &str) -> std::path::PathBuf {
    let probe = sandbox.script("commands/probe.pl", PROBE);
    sandbox.write(
        "commands/probe.yaml",
        format!(
            r#"name: probe
description: Try one thing the sandbox may or may not allow
danger_level: mutating
parameters:
  action: {{type: enum, required: true, enum_values: [read, write, dotdot, procroot, symlink, hardlink, connect, ptrace, exec]}}
  target: {{type: string, required: true, pattern_type: filepath}}
  number: {{type: integer, required: false}}
subprocess:
  binary: {probe}
  argv: [{{param: action}}, {{param: target}}, {{param: number}}]
sandbox:
  read: ["$CWD/data"]
  write: ["$CWD/out"]
  network: {network}
"#,
            probe = probe.display()
        ),
    );
    sandbox.write("data/readme.txt", "inside");
    sandbox.write("out/.keep", "");
    sandbox.write("home/.ssh/id_rsa", "SECRET KEY");
    sandbox.write("elsewhere/.keep", "");
    sandbox.join("commands")
}

/// Whether this kernel can enforce the suite; says why not when it cannot.
fn kernel_ready() -> bool {
    let support = Support::current();
    if support.landlock_abi < Support::NET_ABI || !support.seccomp {
        eprintln!(
            "skipped: the kernel has Landlock ABI {} and seccomp {}; the escape suite needs ABI 4 (Linux 6.7) and seccomp",
            support.landlock_abi, support.seccomp
        );
        return false;
    }
    true
}

fn probe(sandbox: &Sandbox, mode: &str, args: &[&str]) -> Run {
    let mut cmd = sandbox.cmd();
    cmd.arg("--commands")
        .arg(sandbox.join("commands"))
        .args(["--format", "json", "run", "--sandbox", mode, "probe"])
        .args(args);
    Run::of(&mut cmd)
}

#[track_caller]
fn allowed(run: &Run, shows: &str) {
    assert_eq!(
        run.code, 0,
        "the sandbox stopped a move inside its grants:\n{run}"
    );
    assert!(run.stdout.contains(&format!("ok: {shows}")), "{run}");
}

#[track_caller]
fn stopped(run: &Run) {
    assert_eq!(run.code, 3, "the probe was not stopped:\n{run}");
    assert!(run.stdout.starts_with("denied: "), "{run}");
    assert!(!run.stdout.contains("SECRET"), "{run}");
}

#[test]
fn writes_stay_inside_the_grants() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    allowed(
        &probe(
            &sandbox,
            "require",
            &["--action", "write", "--target", "out/new.txt"],
        ),
        "written",
    );
    assert!(sandbox.join("out/new.txt").exists());
    for target in ["elsewhere/new.txt", "data/readme.txt", "home/.bashrc"] {
        stopped(&probe(
            &sandbox,
            "require",
            &["--action", "write", "--target", target],
        ));
    }
    assert!(!sandbox.join("elsewhere/new.txt").exists());
    assert!(!sandbox.join("home/.bashrc").exists());
    assert_eq!(
        std::fs::read_to_string(sandbox.join("data/readme.txt")).unwrap(),
        "inside"
    );
    // Without the sandbox the same move works: the test itself is sound.
    allowed(
        &probe(
            &sandbox,
            "off",
            &["--action", "write", "--target", "elsewhere/new.txt"],
        ),
        "written",
    );
}

#[test]
fn home_secrets_are_unreadable_whatever_the_path() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let key = sandbox.join("home/.ssh/id_rsa");
    let key = key.canonicalize().unwrap();
    let key_text = key.display().to_string();
    let cwd = sandbox.path().canonicalize().unwrap();
    let relative = key.strip_prefix(&cwd).unwrap().display().to_string();
    let inside = cwd.join("data/readme.txt").display().to_string();

    // Straight, through `..`, through /proc/self/root, through a symlink
    // and a hard link made in a writable directory.
    stopped(&probe(
        &sandbox,
        "require",
        &["--action", "read", "--target", &key_text],
    ));
    stopped(&probe(
        &sandbox,
        "require",
        &["--action", "dotdot", "--target", &relative],
    ));
    stopped(&probe(
        &sandbox,
        "require",
        &["--action", "procroot", "--target", &key_text],
    ));
    stopped(&probe(
        &sandbox,
        "require",
        &["--action", "symlink", "--target", &key_text],
    ));
    stopped(&probe(
        &sandbox,
        "require",
        &["--action", "hardlink", "--target", &key_text],
    ));
    assert!(
        !sandbox.join("out/hard").exists(),
        "a hard link to the key was made"
    );

    // The same moves succeed on a granted file.
    allowed(
        &probe(
            &sandbox,
            "require",
            &["--action", "read", "--target", &inside],
        ),
        "inside",
    );
    allowed(
        &probe(
            &sandbox,
            "require",
            &["--action", "dotdot", "--target", "data/readme.txt"],
        ),
        "inside",
    );
    allowed(
        &probe(
            &sandbox,
            "require",
            &["--action", "procroot", "--target", &inside],
        ),
        "inside",
    );
    allowed(
        &probe(
            &sandbox,
            "require",
            &["--action", "symlink", "--target", &inside],
        ),
        "inside",
    );
    sandbox.write("out/mine.txt", "mine");
    let mine = cwd.join("out/mine.txt").display().to_string();
    allowed(
        &probe(
            &sandbox,
            "require",
            &["--action", "hardlink", "--target", &mine],
        ),
        "mine",
    );

    // And the key is readable without the sandbox: the test is sound.
    allowed(
        &probe(
            &sandbox,
            "off",
            &["--action", "read", "--target", &key_text],
        ),
        "SECRET KEY",
    );
}

#[test]
fn tcp_reaches_only_the_declared_ports() {
    if !kernel_ready() {
        return;
    }
    let granted = TcpListener::bind("127.0.0.1:0").unwrap();
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    let granted_port = granted.local_addr().unwrap().port().to_string();
    let other_port = other.local_addr().unwrap().port().to_string();

    let sandbox = Sandbox::new();
    setup(&sandbox, &format!("{{connect: [{granted_port}]}}"));
    let connect = |mode: &str, port: &str| {
        probe(
            &sandbox,
            mode,
            &["--action", "connect", "--target", "x", "--number", port],
        )
    };
    allowed(&connect("require", &granted_port), "connected");
    stopped(&connect("require", &other_port));
    allowed(&connect("off", &other_port), "connected");

    // `network: none`: no socket at all, even to the port granted above.
    let offline = Sandbox::new();
    setup(&offline, "none");
    stopped(&probe(
        &offline,
        "require",
        &[
            "--action",
            "connect",
            "--target",
            "x",
            "--number",
            &granted_port,
        ],
    ));
}

#[test]
fn ptrace_of_a_sibling_is_denied() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let mut sibling = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let pid = sibling.id().to_string();
    let run = probe(
        &sandbox,
        "require",
        &["--action", "ptrace", "--target", "x", "--number", &pid],
    );
    let baseline = probe(
        &sandbox,
        "off",
        &["--action", "ptrace", "--target", "x", "--number", &pid],
    );
    let _ = sibling.kill();
    let _ = sibling.wait();
    stopped(&run);
    assert!(run.stdout.contains("not permitted"), "{run}");
    if is_root() {
        allowed(&baseline, "attached");
    }
}

#[test]
fn a_setuid_program_gains_nothing() {
    if !kernel_ready() {
        return;
    }
    if !is_root() {
        eprintln!("skipped: making a setuid program owned by another user needs root");
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let program = sandbox.join("data/suid-id");
    std::fs::copy("/usr/bin/id", &program).unwrap();
    let nobody = rustix::process::Uid::from_raw(65534);
    rustix::fs::chown(&program, Some(nobody), None).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o4755)).unwrap();
    let target = program.canonicalize().unwrap().display().to_string();
    let baseline = probe(&sandbox, "off", &["--action", "exec", "--target", &target]);
    if !baseline.stdout.contains("65534") {
        eprintln!("skipped: setuid is not honoured here (nosuid mount?):\n{baseline}");
        return;
    }
    let run = probe(
        &sandbox,
        "require",
        &["--action", "exec", "--target", &target],
    );
    assert_eq!(run.code, 0, "{run}");
    assert_eq!(
        run.stdout.trim(),
        "0",
        "no_new_privs should keep the caller's uid:\n{run}"
    );
}

#[test]
fn the_envelope_and_the_audit_log_carry_the_sandbox() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let run = probe(
        &sandbox,
        "require",
        &["--action", "write", "--target", "out/x"],
    );
    let envelope: Value = serde_json::from_str(&run.stderr).unwrap_or_else(|_| panic!("{run}"));
    let report = &envelope["data"]["sandbox"];
    assert_eq!(report["mode"], "require", "{report}");
    assert_eq!(report["not_enforced"], serde_json::json!([]), "{report}");
    assert_eq!(report["network"], "none");
    let writes: Vec<&str> = report["write"]
        .as_array()
        .unwrap()
        .iter()
        .map(|grant| grant["grant"].as_str().unwrap())
        .collect();
    assert_eq!(writes, ["$CWD/out", "/dev/null", "$TMP"], "{report}");

    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    let records: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    for event in ["COMMAND_STARTED", "COMMAND_EXECUTED"] {
        let record = records
            .iter()
            .find(|record| record["event"] == event)
            .unwrap();
        assert_eq!(record["sandbox"]["mode"], "require", "{record}");
        assert_eq!(record["sandbox"]["write"], report["write"], "{record}");
    }
}

#[test]
fn require_refuses_to_run_where_the_kernel_lacks_it() {
    let sandbox = Sandbox::new();
    setup(&sandbox, "{connect: [443]}");
    let run = probe(
        &sandbox,
        "require",
        &["--action", "write", "--target", "out/x"],
    );
    let support = Support::current();
    if support.landlock_abi >= Support::NET_ABI && support.seccomp {
        eprintln!(
            "note: this kernel (Landlock ABI {}) enforces everything, so `require` runs; the refusal is covered by require_refuses_on_a_kernel_without_landlock_and_best_effort_says_why",
            support.landlock_abi
        );
        assert_eq!(run.code, 0, "{run}");
        return;
    }
    assert_eq!(run.code, 4, "{run}");
    let envelope: Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(envelope["error"]["code"], "SANDBOX_UNAVAILABLE", "{run}");
    assert!(!sandbox.join("out/x").exists());
    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    assert!(log.contains("COMMAND_SANDBOX_UNAVAILABLE"), "{log}");
    assert!(!log.contains("COMMAND_STARTED"), "{log}");
}

#[test]
fn settings_choose_the_mode_and_the_flag_overrides_them() {
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    sandbox.write("commands/aigent.toml", "[sandbox]\nmode = \"off\"\n");
    let run = probe(
        &sandbox,
        "best-effort",
        &["--action", "write", "--target", "out/x"],
    );
    let envelope: Value = serde_json::from_str(&run.stderr).unwrap_or_else(|_| panic!("{run}"));
    assert_eq!(envelope["data"]["sandbox"]["mode"], "best-effort", "{run}");
    let mut cmd = sandbox.cmd();
    cmd.arg("--commands").arg(sandbox.join("commands")).args([
        "--format",
        "json",
        "run",
        "probe",
        "--action",
        "write",
        "--target",
        "elsewhere/y",
    ]);
    let run = Run::of(&mut cmd);
    assert_eq!(run.code, 0, "{run}");
    let envelope: Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(envelope["data"]["sandbox"]["mode"], "off", "{run}");
    assert!(sandbox.join("elsewhere/y").exists());

    sandbox.write("commands/aigent.toml", "[sandbox]\nmode = \"strict\"\n");
    let mut cmd = sandbox.cmd();
    cmd.arg("--commands").arg(sandbox.join("commands")).args([
        "--format", "json", "run", "probe", "--action", "write", "--target", "out/z",
    ]);
    let run = Run::of(&mut cmd);
    assert_eq!(run.code, 4, "{run}");
    assert!(run.stderr.contains("INVALID_SETTINGS"), "{run}");
    assert!(!sandbox.join("out/z").exists());
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// Starts `aigent` on a kernel that has no Landlock, as far as aigent can
/// tell: a seccomp filter installed in the child before it execs aigent
/// answers ENOSYS to every Landlock call, exactly what a kernel built
/// without Landlock answers. seccomp itself stays available.
#[cfg(target_os = "linux")]
fn without_landlock(mut cmd: std::process::Command) -> Run {
    use std::collections::BTreeMap;
    use std::os::unix::process::CommandExt;

    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};

    let arch = TargetArch::try_from(std::env::consts::ARCH).unwrap();
    let calls: BTreeMap<i64, Vec<seccompiler::SeccompRule>> = [
        libc::SYS_landlock_create_ruleset,
        libc::SYS_landlock_add_rule,
        libc::SYS_landlock_restrict_self,
    ]
    .into_iter()
    .map(|call| (call, Vec::new()))
    .collect();
    let filter = SeccompFilter::new(
        calls,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .unwrap();
    let program: BpfProgram = filter.try_into().unwrap();
    // SAFETY: the closure runs in the forked child before exec; it only
    // makes the prctl and seccomp calls on a program built before the fork.
    unsafe {
        cmd.pre_exec(move || {
            seccompiler::apply_filter(&program).map_err(|_| std::io::Error::other("seccomp"))
        });
    }
    let output = cmd.output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn require_refuses_on_a_kernel_without_landlock_and_best_effort_says_why() {
    if !Support::current().seccomp {
        eprintln!("skipped: hiding Landlock from aigent needs seccomp in this test process");
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let probe_without_landlock = |mode: &str, target: &str| {
        let mut cmd = sandbox.std_cmd();
        cmd.arg("--commands")
            .arg(sandbox.join("commands"))
            .args(["--format", "json", "run", "--sandbox", mode, "probe"])
            .args(["--action", "write", "--target", target]);
        without_landlock(cmd)
    };

    // `require`: nothing runs; the error, its exit code and an audit record.
    let run = probe_without_landlock("require", "out/refused.txt");
    assert_eq!(run.code, 4, "{run}");
    let envelope: Value = serde_json::from_str(&run.stderr).unwrap_or_else(|_| panic!("{run}"));
    assert_eq!(envelope["error"]["code"], "SANDBOX_UNAVAILABLE", "{run}");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Landlock"),
        "{run}"
    );
    assert!(run.stdout.is_empty(), "the probe ran:\n{run}");
    assert!(!sandbox.join("out/refused.txt").exists());
    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    let records: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let refused = records
        .iter()
        .find(|record| record["event"] == "COMMAND_SANDBOX_UNAVAILABLE")
        .unwrap_or_else(|| panic!("{log}"));
    assert_eq!(refused["sandbox"]["mode"], "require", "{refused}");
    assert_eq!(refused["sandbox"]["landlock_abi"], 0, "{refused}");
    assert!(
        !records
            .iter()
            .any(|record| record["event"] == "COMMAND_STARTED"),
        "{log}"
    );

    // `best-effort`: it runs, with seccomp only, and the warnings say what
    // was not enforced.
    let run = probe_without_landlock("best-effort", "out/ran.txt");
    assert_eq!(run.code, 0, "{run}");
    assert!(run.stdout.contains("ok: written"), "{run}");
    let envelope: Value = serde_json::from_str(&run.stderr).unwrap_or_else(|_| panic!("{run}"));
    let warnings: Vec<&str> = envelope["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        warnings
            .iter()
            .any(|warning| warning.starts_with("sandbox (best-effort): file system")),
        "{warnings:?}"
    );
    let report = &envelope["data"]["sandbox"];
    assert_eq!(report["landlock_abi"], 0, "{report}");
    assert_eq!(
        report["enforced"],
        serde_json::json!(["network", "syscalls"]),
        "{report}"
    );
}

/// Drives `aigent mcp serve --sandbox require` over stdio, as a client
/// would.
async fn mcp_client(
    sandbox: &Sandbox,
) -> rmcp::service::RunningService<rmcp::service::RoleClient, ()> {
    use rmcp::ServiceExt;
    let mut cmd = tokio::process::Command::from(sandbox.std_cmd());
    cmd.arg("--commands").arg(sandbox.join("commands")).args([
        "mcp",
        "serve",
        "--sandbox",
        "require",
    ]);
    let (transport, _) = rmcp::transport::TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("server starts");
    ().serve(transport).await.expect("handshake")
}

async fn mcp_probe(
    client: &rmcp::service::RunningService<rmcp::service::RoleClient, ()>,
    args: Value,
) -> Value {
    let result = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("probe".to_owned())
                .with_arguments(args.as_object().cloned().unwrap()),
        )
        .await
        .expect("tools/call answered");
    result.structured_content.expect("structuredContent")
}

#[tokio::test]
async fn mcp_tools_call_runs_in_the_sandbox() {
    if !kernel_ready() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let client = mcp_client(&sandbox).await;

    let inside = mcp_probe(
        &client,
        serde_json::json!({"action": "write", "target": "out/mcp.txt"}),
    )
    .await;
    assert_eq!(inside["child_exit_code"], 0, "{inside}");
    assert!(sandbox.join("out/mcp.txt").exists());
    assert_eq!(inside["sandbox"]["mode"], "require", "{inside}");
    assert_eq!(inside["sandbox"]["not_enforced"], serde_json::json!([]));

    let outside = mcp_probe(
        &client,
        serde_json::json!({"action": "write", "target": "elsewhere/mcp.txt"}),
    )
    .await;
    assert_eq!(outside["child_exit_code"], 3, "{outside}");
    assert!(
        outside["stdout"].as_str().unwrap().starts_with("denied: "),
        "{outside}"
    );
    assert!(!sandbox.join("elsewhere/mcp.txt").exists());

    let connect = mcp_probe(
        &client,
        serde_json::json!({"action": "connect", "target": "x", "number": port}),
    )
    .await;
    assert_eq!(connect["child_exit_code"], 3, "{connect}");
    assert!(
        connect["stdout"].as_str().unwrap().starts_with("denied: "),
        "{connect}"
    );
    client.cancel().await.unwrap();
    drop(listener);

    // Every executed call's audit record carries the effective sandbox.
    let (log, executed) = executed_records(&sandbox);
    assert_eq!(executed.len(), 3, "{log}");
    let grants = |report: &Value| -> Vec<String> {
        report["write"]
            .as_array()
            .unwrap()
            .iter()
            .map(|grant| grant["grant"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        grants(&inside["sandbox"]),
        ["$CWD/out", "/dev/null", "$TMP"]
    );
    for record in &executed {
        assert_eq!(record["sandbox"]["mode"], "require", "{record}");
        assert_eq!(record["sandbox"]["network"], "none", "{record}");
        assert_eq!(record["sandbox"]["not_enforced"], serde_json::json!([]));
        assert_eq!(
            grants(&record["sandbox"]),
            ["$CWD/out", "/dev/null", "$TMP"]
        );
    }
}

#[test]
fn a_routed_command_runs_in_the_sandbox() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    sandbox.write(
        "commands/touch.yaml",
        "name: touch\ndescription: Create a file\ndanger_level: mutating\nparameters:\n  target: {type: string, required: true, pattern_type: filepath}\nsubprocess: {binary: touch, argv: [{param: target}]}\nsandbox: {write: ['$CWD/out']}\n",
    );
    // The hook rewrites the agent's `touch ...` into `aigent run touch ...`;
    // the rewritten line, run as the client runs it, is sandboxed.
    let routed = |target: &str| -> String {
        let event = serde_json::json!({
            "session_id": "s", "transcript_path": "/dev/null", "cwd": sandbox.path(),
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": format!("touch {target}")},
        });
        let mut cmd = sandbox.std_cmd();
        cmd.arg("--commands")
            .arg(sandbox.join("commands"))
            .args(["hook", "--client", "claude-code", "--route"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(event.to_string().as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let reply: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stdout)));
        let command = reply["hookSpecificOutput"]["updatedInput"]["command"]
            .as_str()
            .unwrap_or_else(|| panic!("not routed: {reply}"))
            .to_owned();
        assert!(command.contains(" run touch "), "{command}");
        command
    };
    let shell = |line: &str| -> Run {
        let aigent = sandbox.std_cmd();
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c").arg(line).current_dir(sandbox.path());
        for (key, value) in aigent.get_envs() {
            match value {
                Some(value) => cmd.env(key, value),
                None => cmd.env_remove(key),
            };
        }
        let output = cmd.output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    };
    let run = shell(&routed("out/routed.txt"));
    assert_eq!(run.code, 0, "{run}");
    assert!(sandbox.join("out/routed.txt").exists());
    let run = shell(&routed("elsewhere/routed.txt"));
    assert_ne!(run.code, 0, "{run}");
    assert!(!sandbox.join("elsewhere/routed.txt").exists(), "{run}");
    let (log, executed) = executed_records(&sandbox);
    assert_eq!(executed.len(), 2, "{log}");
    for record in &executed {
        assert_eq!(record["sandbox"]["mode"], "best-effort", "{record}");
        assert_eq!(record["sandbox"]["not_enforced"], serde_json::json!([]));
    }
}

/// The audit log's text, and its `COMMAND_EXECUTED` records.
fn executed_records(sandbox: &Sandbox) -> (String, Vec<Value>) {
    let log = std::fs::read_to_string(sandbox.audit_log()).unwrap();
    let executed = log
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|record| record["event"] == "COMMAND_EXECUTED")
        .collect();
    (log, executed)
}

/// A server (`aigent mcp serve`) on two pipes, for the ready sandboxes'
/// tests: raw JSON-RPC lines, and a clean end (stdin closed), after which
/// the server has removed what it kept ready.
struct Server {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    next_id: u64,
}

impl Server {
    fn start(sandbox: &Sandbox) -> Self {
        use std::io::Write;
        std::fs::create_dir_all(sandbox.join("tmp")).unwrap();
        let mut child = sandbox
            .mcp_serve(&["--sandbox", "require"])
            .env("TMPDIR", sandbox.join("tmp"))
            .spawn()
            .expect("server starts");
        let stdin = child.stdin.take();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut server = Self {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        let hello = server.request(
            "initialize",
            serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {},
                               "clientInfo": {"name": "sandbox-test", "version": "1"}}),
        );
        assert!(hello.get("result").is_some(), "{hello}");
        let stdin = server.stdin.as_mut().unwrap();
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )
        .unwrap();
        server
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        use std::io::{BufRead, Write};
        let id = self.next_id;
        self.next_id += 1;
        let stdin = self.stdin.as_mut().unwrap();
        let line =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        loop {
            let mut answer = String::new();
            assert_ne!(
                self.stdout.read_line(&mut answer).unwrap(),
                0,
                "the server ended"
            );
            let message: Value = serde_json::from_str(&answer).unwrap();
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// `tools/call` of `tool`, after a pause that lets the server make the
    /// next sandbox ready; the structured result.
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        std::thread::sleep(std::time::Duration::from_millis(300));
        let answer = self.request(
            "tools/call",
            serde_json::json!({"name": tool, "arguments": arguments}),
        );
        answer["result"]["structuredContent"].clone()
    }

    /// The server's threads now.
    fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .unwrap()
            .count()
    }

    /// Closes stdin and waits for the server to end.
    fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// What is left in the server's temporary directory.
fn left_in_tmp(sandbox: &Sandbox) -> Vec<String> {
    std::fs::read_dir(sandbox.join("tmp"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_server_s_ready_sandboxes_stop_what_fresh_ones_stop() {
    if !kernel_ready() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let mut server = Server::start(&sandbox);
    // After the first call each call's sandbox was made ready after the
    // one before; every one stops the same moves.
    for round in 0..4 {
        let inside = server.call(
            "probe",
            serde_json::json!({"action": "write", "target": format!("out/{round}.txt")}),
        );
        assert_eq!(inside["child_exit_code"], 0, "{inside}");
        assert!(sandbox.join(format!("out/{round}.txt")).exists());
        let outside = server.call(
            "probe",
            serde_json::json!({"action": "write", "target": format!("elsewhere/{round}.txt")}),
        );
        assert_eq!(outside["child_exit_code"], 3, "{outside}");
        assert!(!sandbox.join(format!("elsewhere/{round}.txt")).exists());
        let secret = server.call(
            "probe",
            serde_json::json!({"action": "read", "target": sandbox.join("home/.ssh/id_rsa")}),
        );
        assert_eq!(secret["child_exit_code"], 3, "{secret}");
        assert!(!secret.to_string().contains("SECRET"), "{secret}");
        let connect = server.call(
            "probe",
            serde_json::json!({"action": "connect", "target": "x", "number": port}),
        );
        assert_eq!(connect["child_exit_code"], 3, "{connect}");
        // Each run has a $TMP of its own.
        assert_eq!(inside["sandbox"]["mode"], "require", "{inside}");
    }
    // A finished run's $TMP is gone within moments, whether or not another
    // call comes: what is left is what waits for the next runs (two).
    std::thread::sleep(std::time::Duration::from_millis(300));
    let waiting = left_in_tmp(&sandbox);
    assert!(waiting.len() <= 2, "{waiting:?}");
    server.finish();
    drop(listener);
    // The server removed every run's $TMP and the ones it kept ready.
    assert_eq!(left_in_tmp(&sandbox), Vec::<String>::new());
    // Every run had its own $TMP.
    let (log, executed) = executed_records(&sandbox);
    let tmps: std::collections::BTreeSet<String> = executed
        .iter()
        .filter_map(|record| {
            record["sandbox"]["write"]
                .as_array()?
                .iter()
                .find(|grant| grant["grant"] == "$TMP")
                .and_then(|grant| grant["path"].as_str())
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(tmps.len(), executed.len(), "{log}");
}

#[test]
fn a_grant_directory_replaced_between_calls_is_not_served_by_a_stale_rule() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let mut server = Server::start(&sandbox);
    let write = |server: &mut Server, target: &str| {
        server.call(
            "probe",
            serde_json::json!({"action": "write", "target": target}),
        )
    };
    // Twice: a command is made ready for from its second run on.
    assert_eq!(write(&mut server, "out/first.txt")["child_exit_code"], 0);
    assert_eq!(write(&mut server, "out/again.txt")["child_exit_code"], 0);
    // A sandbox for the next call is ready now, its rule made for the
    // directory `out` named then. `out` is moved away and made anew.
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::rename(sandbox.join("out"), sandbox.join("moved")).unwrap();
    std::fs::create_dir(sandbox.join("out")).unwrap();
    // The grant is `$CWD/out`: the new directory, not the moved one.
    let moved = write(&mut server, "moved/second.txt");
    assert_eq!(moved["child_exit_code"], 3, "{moved}");
    assert!(
        !sandbox.join("moved/second.txt").exists(),
        "a rule made for the directory moved away still granted it"
    );
    let new = write(&mut server, "out/third.txt");
    assert_eq!(new["child_exit_code"], 0, "{new}");
    assert!(sandbox.join("out/third.txt").exists());
    server.finish();
}

#[test]
fn many_commands_keep_a_bounded_number_of_sandboxes_ready() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    let declared = std::fs::read_to_string(sandbox.join("commands/probe.yaml")).unwrap();
    let commands = 14;
    for index in 0..commands {
        sandbox.write(
            format!("commands/probe{index}.yaml"),
            declared.replacen("name: probe", &format!("name: probe{index}"), 1),
        );
    }
    let mut server = Server::start(&sandbox);
    let mut most = 0;
    let mut threads_after_first = None;
    for index in 0..commands {
        // Twice: a command is made ready for from its second run on.
        for turn in 0..2 {
            let run = server.call(
                &format!("probe{index}"),
                serde_json::json!({"action": "write", "target": format!("out/{index}-{turn}.txt")}),
            );
            assert_eq!(run["child_exit_code"], 0, "{run}");
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
        let threads = server.threads();
        threads_after_first.get_or_insert(threads);
        most = most.max(threads);
        // One $TMP a ready sandbox, at most eight (and the last run's, if
        // it is not removed yet).
        assert!(
            left_in_tmp(&sandbox).len() <= 9,
            "{:?}",
            left_in_tmp(&sandbox)
        );
    }
    // Eight waiting threads at most, over what one command needed.
    let first = threads_after_first.unwrap();
    assert!(
        most <= first + 8,
        "threads grew from {first} to {most} with {commands} commands"
    );
    server.finish();
    assert_eq!(left_in_tmp(&sandbox), Vec::<String>::new());
}
