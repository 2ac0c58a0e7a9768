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
        .args(["--output", "json", "run", "--sandbox", mode, "probe"])
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

/// A one-shot run's `$TMP` (and, for root, its pids cgroup) is removed by a
/// thread of its own while aigent writes the outcome, and still before
/// aigent exits: nothing is left behind.
#[test]
fn a_one_shot_run_leaves_no_tmp_behind() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    setup(&sandbox, "none");
    std::fs::create_dir_all(sandbox.join("tmp")).unwrap();
    for _ in 0..3 {
        let mut cmd = sandbox.cmd();
        cmd.env("TMPDIR", sandbox.join("tmp"))
            .arg("--commands")
            .arg(sandbox.join("commands"))
            .args(["--output", "json", "run", "--sandbox", "require", "probe"])
            .args(["--action", "write", "--target", "out/new.txt"]);
        allowed(&Run::of(&mut cmd), "written");
        assert_eq!(left_in_tmp(&sandbox), Vec::<String>::new());
    }
    // Each run had its `$TMP` there.
    let tmp = sandbox.join("tmp").canonicalize().unwrap();
    let (log, executed) = executed_records(&sandbox);
    assert_eq!(executed.len(), 3, "{log}");
    for record in executed {
        let path = record["sandbox"]["write"]
            .as_array()
            .and_then(|grants| grants.iter().find(|grant| grant["grant"] == "$TMP"))
            .and_then(|grant| grant["path"].as_str())
            .map(std::path::PathBuf::from)
            .unwrap_or_default();
        assert!(path.starts_with(&tmp), "{record}");
    }
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
    crate::common::copy_executable(std::path::Path::new("/usr/bin/id"), &program);
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

/// `touch PATH` declared with `write: ['$PROJECT']`, run from `cwd` with
/// `home` as HOME; the run and its envelope's `data.sandbox`.
fn touch_in_project(
    sandbox: &Sandbox,
    cwd: &std::path::Path,
    home: &std::path::Path,
    target: &std::path::Path,
) -> (Run, Value) {
    let mut cmd = sandbox.cmd();
    cmd.current_dir(cwd)
        .env("HOME", home)
        .arg("--commands")
        .arg(sandbox.join("commands"))
        .args([
            "--output",
            "json",
            "run",
            "--sandbox",
            "require",
            "touch",
            "--target",
        ])
        .arg(target);
    let run = Run::of(&mut cmd);
    // The envelope follows what `touch` itself wrote to stderr.
    let start = run.stderr.find("{\n").unwrap_or_else(|| panic!("{run}"));
    let envelope: Value =
        serde_json::from_str(&run.stderr[start..]).unwrap_or_else(|_| panic!("{run}"));
    let report = if envelope["data"].is_null() {
        envelope["error"]["sandbox"].clone()
    } else {
        envelope["data"]["sandbox"].clone()
    };
    (run, report)
}

/// The one `$PROJECT` grant of a report: its resolved path.
fn project_grant(report: &Value) -> String {
    let grants: Vec<&Value> = report["write"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|grant| grant["grant"] == "$PROJECT")
        .collect();
    assert_eq!(grants.len(), 1, "{report}");
    grants[0]["path"].as_str().unwrap().to_owned()
}

/// `$PROJECT` is the repository the run is in, from any directory of it;
/// never the home directory (a home kept in git), where it is `$CWD`.
#[test]
fn a_project_grant_is_the_repository_and_never_the_home() {
    if !kernel_ready() {
        return;
    }
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/touch.yaml",
        "name: touch\ndescription: Create a file\ndanger_level: mutating\nparameters:\n  target: {type: string, required: true, pattern_type: filepath}\nsubprocess: {binary: touch, argv: [{param: target}]}\nsandbox: {write: ['$PROJECT']}\n",
    );
    let repo = sandbox.join("repo");
    let sub = repo.join("src/deep");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(sandbox.join("home")).unwrap();
    let real = |path: &std::path::Path| path.canonicalize().unwrap().display().to_string();

    // From two directories down, the repository is writable, and the
    // directory holding it is not.
    let (run, report) = touch_in_project(&sandbox, &sub, &sandbox.join("home"), &repo.join("made"));
    assert_eq!(run.code, 0, "{run}");
    assert_eq!(project_grant(&report), real(&repo), "{report}");
    assert!(repo.join("made").exists());
    let outside = sandbox.join("beside-the-repo");
    let (run, _) = touch_in_project(&sandbox, &sub, &sandbox.join("home"), &outside);
    assert_ne!(run.code, 0, "{run}");
    assert!(!outside.exists());

    // The repository is the home directory: `$PROJECT` is `$CWD`, and
    // `skipped` says why.
    let (run, report) = touch_in_project(&sandbox, &sub, &repo, &repo.join("made-at-home"));
    assert_ne!(run.code, 0, "{run}");
    assert!(!repo.join("made-at-home").exists());
    assert_eq!(project_grant(&report), real(&sub), "{report}");
    let skipped = report["skipped"].to_string();
    assert!(
        skipped.contains("holds the home directory")
            && skipped.contains("`$CWD` is granted instead"),
        "{report}"
    );
    let (run, _) = touch_in_project(&sandbox, &sub, &repo, &sub.join("made-here"));
    assert_eq!(run.code, 0, "{run}");
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
        "--output",
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
        "--output", "json", "run", "probe", "--action", "write", "--target", "out/z",
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
            .args(["--output", "json", "run", "--sandbox", mode, "probe"])
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
    // Everything seccomp and the process itself can do; not the view,
    // which aigent does not try under someone else's filter.
    assert_eq!(
        report["enforced"],
        serde_json::json!([
            "network",
            "syscalls",
            "unix_sockets",
            "session",
            "descriptors",
            "capabilities",
            "resource_calls",
            "limits",
            "descendants"
        ]),
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
        Self::start_in(sandbox, sandbox.path())
    }

    /// A server whose working directory (the commands' `$CWD`) is `cwd`.
    fn start_in(sandbox: &Sandbox, cwd: &std::path::Path) -> Self {
        use std::io::Write;
        std::fs::create_dir_all(sandbox.join("tmp")).unwrap();
        let mut child = sandbox
            .mcp_serve(&["--sandbox", "require"])
            .env("TMPDIR", sandbox.join("tmp"))
            .current_dir(cwd)
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

// ---------------------------------------------------------------------------
// Issue #40: the escapes a hostile review found, each tried by the attack
// program (tests/fixtures/sandbox/attack.c, compiled with the machine's C
// compiler) under the tightest useful sandbox: read and write `$CWD`, no
// network, `--sandbox require`. Each move is tried outside the grants
// (stopped) and, where that is harmless, without the sandbox or inside
// the grants (it works, so the test is sound).

/// The attack program, compiled once per source (in Cargo's scratch
/// directory for tests); `None`, said once, without a C compiler.
fn attack_program() -> Option<std::path::PathBuf> {
    static PROGRAM: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let source = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/sandbox/attack.c"
            );
            let text = std::fs::read(source).ok()?;
            let digest = text.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
            });
            let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("sandbox-attack-{digest:016x}"));
            let program = dir.join("attack");
            if program.exists() {
                return Some(program);
            }
            std::fs::create_dir_all(&dir).ok()?;
            let partial = dir.join(format!("attack.{}", std::process::id()));
            let compiled = ["cc", "gcc", "clang"].iter().any(|compiler| {
                std::process::Command::new(compiler)
                    .args(["-O1", "-o"])
                    .arg(&partial)
                    .arg(source)
                    .status()
                    .is_ok_and(|status| status.success())
            });
            if !compiled {
                eprintln!("skipped: no C compiler to build the attack program");
                return None;
            }
            std::fs::rename(&partial, &program).ok()?;
            // Another user (the unprivileged half) runs it too.
            for path in [&dir, &program] {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755));
            }
            Some(program)
        })
        .clone()
}

/// One attack's world: the project (the child's `$CWD`, readable and
/// writable), a directory outside every grant, and the registry.
struct Attack {
    sandbox: Sandbox,
    program: std::path::PathBuf,
}

impl Attack {
    /// `extra` is added to the `sandbox` section (YAML flow keys).
    fn new(extra: &str) -> Option<Self> {
        if !kernel_ready() {
            return None;
        }
        let program = attack_program()?;
        let sandbox = Sandbox::new();
        let attack = Self { sandbox, program };
        attack.declare(
            "attack",
            "mutating",
            &format!("read: ['$CWD'], write: ['$CWD'], network: none{extra}"),
        );
        attack.sandbox.write("project/in/file.txt", "inside");
        attack.sandbox.write("outside/file.txt", "outside");
        std::fs::create_dir_all(attack.sandbox.join("home")).unwrap();
        Some(attack)
    }

    fn declare(&self, name: &str, danger: &str, sandbox: &str) {
        self.sandbox.write(
            format!("commands/{name}.yaml"),
            format!(
                r#"name: {name}
description: Try one move out of the sandbox
danger_level: {danger}
parameters:
  mode: {{type: string, required: true, pattern: "^[a-z0-9-]+$"}}
  target: {{type: string, required: true, pattern_type: filepath}}
  number: {{type: integer, required: false}}
subprocess:
  binary: {program}
  argv: [{{param: mode}}, {{param: target}}, {{param: number}}]
sandbox: {{{sandbox}}}
"#,
                program = self.program.display()
            ),
        );
    }

    fn project(&self) -> std::path::PathBuf {
        self.sandbox.join("project")
    }

    fn outside(&self, name: &str) -> String {
        self.sandbox
            .join("outside")
            .join(name)
            .display()
            .to_string()
    }

    fn command(&self, name: &str, mode: &str, args: &[&str]) -> std::process::Command {
        let mut cmd = self.sandbox.std_cmd();
        cmd.current_dir(self.project())
            .arg("--commands")
            .arg(self.sandbox.join("commands"))
            .args(["--output", "json", "run", "--sandbox", mode, name])
            .args(args);
        cmd
    }

    /// `aigent run --sandbox MODE attack --mode MOVE --target TARGET [--number N]`.
    fn try_move(&self, mode: &str, attack: &str, target: &str, number: Option<i64>) -> Run {
        self.try_as("attack", mode, attack, target, number)
    }

    fn try_as(
        &self,
        name: &str,
        mode: &str,
        attack: &str,
        target: &str,
        number: Option<i64>,
    ) -> Run {
        let number = number.map(|n| n.to_string());
        let mut args = vec!["--mode", attack, "--target", target];
        if let Some(number) = &number {
            args.extend(["--number", number.as_str()]);
        }
        let output = self.command(name, mode, &args).output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn records(&self) -> Vec<Value> {
        std::fs::read_to_string(self.sandbox.audit_log())
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    fn last_executed(&self) -> Value {
        self.records()
            .into_iter()
            .rev()
            .find(|record| record["event"] == "COMMAND_EXECUTED")
            .expect("a COMMAND_EXECUTED record")
    }
}

#[track_caller]
fn refused(run: &Run) {
    assert_eq!(run.code, 3, "the move was not stopped:\n{run}");
    assert!(run.stdout.starts_with("denied: "), "{run}");
}

#[track_caller]
fn worked(run: &Run) {
    assert_eq!(run.code, 0, "a move that should work was stopped:\n{run}");
    assert!(run.stdout.starts_with("ok"), "{run}");
}

#[test]
fn file_metadata_outside_the_grants_cannot_change_and_inside_it_can() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let outside = attack.outside("file.txt");
    let before = std::fs::metadata(&outside).unwrap();
    for (moved, number) in [
        ("chmod", Some(0o4777)),
        ("chown", Some(65534)),
        ("utime", None),
        ("setxattr", None),
        ("capxattr", None),
    ] {
        refused(&attack.try_move("require", moved, &outside, number));
    }
    let after = std::fs::metadata(&outside).unwrap();
    use std::os::unix::fs::MetadataExt;
    assert_eq!(before.mode(), after.mode());
    assert_eq!(before.uid(), after.uid());
    assert_eq!(before.mtime(), after.mtime());
    // A file made right in the working directory, itself a write grant
    // (the bind covers the directory the child starts in).
    worked(&attack.try_move("require", "write", "made-here.txt", None));
    assert!(attack.project().join("made-here.txt").exists());
    // Inside the write grants the same calls work: git and tar need them.
    let inside = attack.project().join("in/file.txt").display().to_string();
    for (moved, number) in [("chmod", Some(0o640)), ("utime", None), ("setxattr", None)] {
        let run = attack.try_move("require", moved, &inside, number);
        if moved == "setxattr" && run.stdout.contains("not supported") {
            continue; // a file system without user attributes
        }
        worked(&run);
    }
    assert_eq!(
        std::fs::metadata(attack.project().join("in/file.txt"))
            .unwrap()
            .mode()
            & 0o7777,
        0o640
    );
    // A `safe` command that reads nothing is held the same way.
    attack.declare("reader", "safe", "read: []");
    let run = attack.try_as("reader", "require", "chmod", &outside, Some(0o4777));
    refused(&run);
    // Without the sandbox the move works: the test is sound.
    worked(&attack.try_move("off", "chmod", &outside, Some(0o600)));
    assert_eq!(std::fs::metadata(&outside).unwrap().mode() & 0o7777, 0o600);
}

/// What docs/security.md admits: a file the caller hands the child as a
/// standard stream is the child's to change, through that descriptor,
/// whatever the mounts (the descriptor was opened outside the view).
#[test]
fn a_file_passed_as_stdin_is_the_child_s_to_change() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let outside = attack.sandbox.join("outside/file.txt");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
    let output = attack
        .command(
            "attack",
            "require",
            &["--mode", "fdchmod", "--target", "x", "--number", "0"],
        )
        .stdin(std::fs::File::open(&outside).unwrap())
        .output()
        .unwrap();
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    worked(&run);
    assert_eq!(
        std::fs::metadata(&outside).unwrap().permissions().mode() & 0o7777,
        0o600
    );
    // By its name the same file stays out of reach.
    refused(&attack.try_move(
        "require",
        "chmod",
        &outside.display().to_string(),
        Some(0o644),
    ));
}

#[test]
fn the_child_cannot_act_on_other_processes_resources() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    for moved in [
        "prlimit-parent",
        "nofile-parent",
        "setpriority-parent",
        "setpriority-user",
        "affinity-parent",
        "scheduler-parent",
        "schedparam-parent",
    ] {
        refused(&attack.try_move("require", moved, "x", None));
    }
    // On itself (0): allowed.
    worked(&attack.try_move("require", "prlimit-self", "x", None));
    worked(&attack.try_move("require", "setpriority-self", "x", None));
    // aigent wrote its records after every move.
    assert!(attack.records().len() >= 18, "{:?}", attack.records().len());
    // Without the sandbox it could renice aigent: the test is sound.
    worked(&attack.try_move("off", "setpriority-parent", "x", None));
}

#[test]
fn only_the_standard_streams_reach_the_child_unless_declared() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let target = attack.sandbox.join("outside/through-fd.txt");
    let with_fd_14 = |mode: &str, name: &str| {
        let file = std::fs::File::create(&target).unwrap();
        let mut cmd = attack.command(
            name,
            mode,
            &["--mode", "writefd", "--target", "x", "--number", "14"],
        );
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let raw = file.as_raw_fd();
        // SAFETY: in the forked child before exec: dup2 and fcntl only.
        // The file may itself have been given descriptor 14 (other tests
        // close theirs); dup2 onto itself would then keep its close-on-exec
        // flag, so the flag is cleared instead.
        unsafe {
            cmd.pre_exec(move || {
                let done = if raw == 14 {
                    libc::fcntl(14, libc::F_SETFD, 0)
                } else {
                    libc::dup2(raw, 14)
                };
                if done < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let output = cmd.output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    };
    let run = with_fd_14("require", "attack");
    refused(&run);
    assert!(run.stdout.contains("Bad file descriptor"), "{run}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "");
    let listed = attack.try_move("require", "fds", "x", None);
    worked(&listed);
    let fds: Vec<&str> = listed.stdout.trim().split(' ').skip(2).collect();
    assert_eq!(fds.len(), 3, "{listed}");
    // A declaration passes more by number.
    attack.declare("passing", "mutating", "write: ['$CWD'], pass_fds: [14]");
    worked(&with_fd_14("require", "passing"));
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("inherited descriptor")
    );
    // Without the sandbox it does not leak either: aigent marks what it
    // inherited close-on-exec at its start (REQ-F-071). The `passing` run
    // above shows the move works where a descriptor does reach the child.
    refused(&with_fd_14("off", "attack"));
}

#[test]
fn the_child_has_no_capability_and_no_terminal_of_aigent_s() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let run = attack.try_move("require", "caps", "x", None);
    worked(&run);
    let zero = "0000000000000000";
    for set in ["eff", "prm", "bnd", "amb", "inh"] {
        assert!(
            run.stdout.contains(&format!("{set} {zero}")),
            "{set}: {run}"
        );
    }
    refused(&attack.try_move("require", "sethostname", "x", None));
    refused(&attack.try_move("require", "fanotify", "x", None));
    // What a capability guards fails for want of one; the rest the filter
    // refuses: both answer EPERM.
    let inside = attack.project().join("in").display().to_string();
    for (moved, target) in [
        ("mount", inside.as_str()),
        ("chroot", "/"),
        ("swapon", "/nonexistent-swap"),
        ("userns", "x"),
        ("bpf", "x"),
        ("io-uring", "x"),
        ("ptrace-parent", "x"),
    ] {
        let run = attack.try_move("require", moved, target, None);
        refused(&run);
        assert!(run.stdout.contains("not permitted"), "{moved}: {run}");
    }
    // A session of its own: no controlling terminal, no /dev/tty.
    let run = attack.try_move("require", "terminal", "x", None);
    let words: Vec<&str> = run.stdout.split_whitespace().collect();
    assert_eq!(words[1], words[3], "{run}");
    assert_eq!(words[5], "0", "{run}");
    assert_eq!(words[7], "none", "{run}");
    refused(&attack.try_move("require", "setsid", "x", None));
    refused(&attack.try_move("require", "setpgid", "x", None));
    if is_root() {
        // Root's own child, without the sandbox, has them all.
        let run = attack.try_move("off", "caps", "x", None);
        assert!(!run.stdout.contains(&format!("eff {zero}")), "{run}");
    }
}

#[test]
fn socket_families_follow_the_network_setting_whatever_the_uid() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    for family in [
        "inet", "udp", "inet6", "netlink", "packet", "vsock", "raw", "ping",
    ] {
        refused(&attack.try_move("require", "socket", family, None));
    }
    worked(&attack.try_move("require", "socket", "pair", None));
    attack.declare(
        "ports",
        "mutating",
        "write: ['$CWD'], network: {connect: [443]}",
    );
    for family in ["netlink", "packet", "vsock", "raw", "ping"] {
        refused(&attack.try_as("ports", "require", "socket", family, None));
    }
    for family in ["inet", "udp", "inet6"] {
        let run = attack.try_as("ports", "require", "socket", family, None);
        if family == "inet6" && run.stdout.contains("not supported") {
            continue; // no IPv6 here
        }
        worked(&run);
    }
    // UNIX sockets: below Landlock ABI 9 a run makes none unless its
    // declaration grants one; from 9 on, Landlock confines them by path.
    let unix = attack.try_move("require", "socket", "unix", None);
    if Support::current().landlock_abi < Support::UNIX_ABI {
        refused(&unix);
        refused(&attack.try_move("require", "socket", "dgram-pair", None));
    } else {
        worked(&unix);
    }
}

#[test]
fn unix_sockets_outside_the_grants_cannot_be_reached() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let path = attack.sandbox.join("outside/agent.sock");
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let target = path.display().to_string();
    refused(&attack.try_move("require", "connect-unix", &target, None));
    // Even from a command that reads nothing.
    attack.declare("reader", "safe", "read: []");
    refused(&attack.try_as("reader", "require", "connect-unix", &target, None));
    // Granted by path, it is reached; below ABI 9 that grant cannot be
    // confined, so `require` refuses and best-effort says so.
    attack.declare(
        "granted",
        "mutating",
        &format!("write: ['$CWD'], sockets: ['{target}']"),
    );
    let best = attack.try_as("granted", "best-effort", "connect-unix", &target, None);
    worked(&best);
    let required = attack.try_as("granted", "require", "connect-unix", &target, None);
    if Support::current().landlock_abi < Support::UNIX_ABI {
        assert_eq!(required.code, 4, "{required}");
        assert!(
            required.stderr.contains("SANDBOX_UNAVAILABLE"),
            "{required}"
        );
        assert!(required.stderr.contains("ABI 9"), "{required}");
        assert!(best.stderr.contains("pathname UNIX sockets"), "{best}");
    } else {
        worked(&required);
    }
    // Without the sandbox it connects: the test is sound.
    worked(&attack.try_move("off", "connect-unix", &target, None));
    drop(listener);
}

#[test]
fn no_process_of_a_run_outlives_it() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let log = attack.project().join("daemon.log");
    let target = log.display().to_string();
    worked(&attack.try_move("require", "daemon", &target, Some(5)));
    let lines = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    std::thread::sleep(std::time::Duration::from_millis(400));
    let settled = lines();
    std::thread::sleep(std::time::Duration::from_millis(400));
    assert_eq!(lines(), settled, "the daemon kept writing after the run");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(text.contains("setsid Operation not permitted"), "{text}");
    let record = attack.last_executed();
    assert!(record["descendants_killed"].as_u64() >= Some(1), "{record}");
    // Without the sandbox the daemon lives on (and is ended here).
    std::fs::remove_file(&log).ok();
    worked(&attack.try_move("off", "daemon", &target, Some(5)));
    std::thread::sleep(std::time::Duration::from_millis(400));
    let first = lines();
    std::thread::sleep(std::time::Duration::from_millis(400));
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if let Some(pid) = text
        .lines()
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|pid| pid.parse::<i32>().ok())
    {
        // SAFETY: kill(2) of the daemon this test started.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    assert!(
        lines() > first,
        "without the sandbox the daemon should outlive the run"
    );
}

#[test]
fn a_fork_bomb_and_a_huge_allocation_end_the_run_not_the_machine() {
    let Some(attack) = Attack::new(", limits: {processes: 40}") else {
        return;
    };
    let run = attack.try_move("require", "forkbomb", "x", Some(100_000));
    refused(&run);
    let made: u64 = run
        .stdout
        .split_whitespace()
        .last()
        .and_then(|count| count.parse().ok())
        .unwrap_or(u64::MAX);
    assert!(made < 40, "{run}");
    let record = attack.last_executed();
    assert!(
        record["descendants_killed"].as_u64() >= Some(made.saturating_sub(1)),
        "{record}"
    );
    // The default address space (8 GiB) stops a 10 GB allocation.
    let run = attack.try_move("require", "alloc", "x", Some(10));
    refused(&run);
    assert!(run.stdout.contains("Cannot allocate memory"), "{run}");
    // The limits the child has are the declared and default ones.
    let run = attack.try_move("require", "limits", "x", None);
    assert!(run.stdout.contains("as 8589934592"), "{run}");
    assert!(run.stdout.contains("nofile 8192"), "{run}");
    assert!(run.stdout.contains("cpu 3600"), "{run}");
}

#[test]
fn terminal_input_cannot_be_injected_and_a_terminal_is_a_pty_of_aigent_s() {
    use expectrl::Session;
    let Some(attack) = Attack::new("") else {
        return;
    };
    attack.declare(
        "interactive",
        "mutating",
        "read: ['$CWD'], write: ['$CWD'], interactive: true",
    );
    let on_a_terminal = |name: &str, mode: &str, moved: &str| -> String {
        let cmd = attack.command(
            name,
            mode,
            &["--mode", moved, "--target", "x", "--number", "0"],
        );
        let mut session = Session::spawn(cmd).unwrap();
        session.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
        let mut seen = Vec::new();
        let _ = std::io::Read::read_to_end(&mut session, &mut seen);
        let _ = session.get_process().wait();
        String::from_utf8_lossy(&seen).into_owned()
    };
    // TIOCSTI on aigent's own terminal (the child's stdin): refused, and
    // the child has no controlling terminal to type into either.
    let typed = on_a_terminal("attack", "require", "tiocsti");
    assert!(typed.contains("denied: "), "{typed}");
    let shown = on_a_terminal("attack", "require", "terminal");
    assert!(shown.contains("tty_nr 0 dev_tty none"), "{shown}");
    let pasted = on_a_terminal("attack", "require", "tioclinux");
    assert!(pasted.contains("denied: "), "{pasted}");
    // An interactive command gets a terminal: a pty of aigent's, its
    // controlling terminal, and TIOCSTI is still refused on it.
    let shown = on_a_terminal("interactive", "require", "terminal");
    assert!(shown.contains("dev_tty opened"), "{shown}");
    assert!(!shown.contains("tty_nr 0 "), "{shown}");
    let typed = on_a_terminal("interactive", "require", "tiocsti");
    assert!(typed.contains("denied: "), "{typed}");
    // Without the sandbox the child types into the user's terminal: the
    // test is sound (where the kernel still allows TIOCSTI at all).
    let legacy = std::fs::read_to_string("/proc/sys/dev/tty/legacy_tiocsti")
        .map(|text| text.trim() == "1")
        .unwrap_or(true);
    if legacy {
        let typed = on_a_terminal("attack", "off", "tiocsti");
        assert!(typed.contains("ok: typed into the terminal"), "{typed}");
    }
}

#[test]
fn mcp_tools_call_confines_the_attack_the_same_way() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let path = attack.sandbox.join("outside/agent.sock");
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let mut server = Server::start_in(&attack.sandbox, &attack.project());
    let mut call = |moved: &str, target: &str, number: Option<i64>| {
        let mut arguments = serde_json::json!({"mode": moved, "target": target});
        if let Some(number) = number {
            arguments["number"] = number.into();
        }
        server.call("attack", arguments)
    };
    let outside = attack.outside("file.txt");
    for (moved, target, number) in [
        ("chmod", outside.as_str(), Some(0o4777)),
        ("setxattr", outside.as_str(), None),
        ("prlimit-parent", "x", None),
        ("nofile-parent", "x", None),
        ("setpriority-parent", "x", None),
        ("socket", "netlink", None),
        ("connect-unix", path.to_str().unwrap(), None),
        ("setsid", "x", None),
    ] {
        let result = call(moved, target, number);
        assert_eq!(result["child_exit_code"], 3, "{moved}: {result}");
        assert!(
            result["stdout"].as_str().unwrap().starts_with("denied: "),
            "{moved}: {result}"
        );
    }
    // The server is still whole (no limit of a child's reached it), and
    // the child sees only its three streams.
    let fds = call("fds", "x", None);
    assert_eq!(fds["child_exit_code"], 0, "{fds}");
    assert_eq!(
        fds["stdout"].as_str().unwrap().trim().split(' ').count(),
        5,
        "{fds}"
    );
    let caps = call("caps", "x", None);
    assert!(
        caps["stdout"]
            .as_str()
            .unwrap()
            .contains("eff 0000000000000000"),
        "{caps}"
    );
    // A daemon of the call's is ended with it, and counted.
    let log = attack.project().join("mcp-daemon.log");
    let daemon = call("daemon", log.to_str().unwrap(), Some(5));
    assert_eq!(daemon["child_exit_code"], 0, "{daemon}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let settled = std::fs::read_to_string(&log).unwrap_or_default().len();
    std::thread::sleep(std::time::Duration::from_millis(400));
    assert_eq!(
        std::fs::read_to_string(&log).unwrap_or_default().len(),
        settled
    );
    server.finish();
    drop(listener);
    let killed = attack
        .records()
        .into_iter()
        .filter(|record| record["event"] == "COMMAND_EXECUTED")
        .filter_map(|record| record["descendants_killed"].as_u64())
        .sum::<u64>();
    assert!(killed >= 1, "{:?}", attack.records());
    assert_eq!(
        std::fs::metadata(&outside)
            .map(|m| {
                use std::os::unix::fs::MetadataExt;
                m.mode() & 0o7777
            })
            .unwrap()
            & 0o4000,
        0
    );
}

#[test]
fn a_routed_attack_is_confined_the_same_way() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let outside = attack.outside("file.txt");
    let routed = |line: &str| -> Run {
        let event = serde_json::json!({
            "session_id": "s", "transcript_path": "/dev/null", "cwd": attack.project(),
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": line},
        });
        let mut cmd = attack.sandbox.std_cmd();
        cmd.current_dir(attack.project())
            .arg("--commands")
            .arg(attack.sandbox.join("commands"))
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
        assert!(command.contains(" run attack "), "{command}");
        // Run as the client runs the rewritten line.
        let aigent = attack.sandbox.std_cmd();
        let mut shell = std::process::Command::new("sh");
        shell.arg("-c").arg(&command).current_dir(attack.project());
        for (key, value) in aigent.get_envs() {
            match value {
                Some(value) => shell.env(key, value),
                None => shell.env_remove(key),
            };
        }
        let output = shell.output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    };
    let program = attack.program.display().to_string();
    refused(&routed(&format!("{program} chmod {outside} 2559")));
    refused(&routed(&format!("{program} prlimit-parent x")));
    refused(&routed(&format!("{program} socket netlink")));
    let caps = routed(&format!("{program} caps x"));
    assert!(caps.stdout.contains("eff 0000000000000000"), "{caps}");
    let executed: Vec<Value> = attack
        .records()
        .into_iter()
        .filter(|record| record["event"] == "COMMAND_EXECUTED")
        .collect();
    assert_eq!(executed.len(), 4);
    for record in &executed {
        let enforced = record["sandbox"]["enforced"].as_array().unwrap();
        assert!(enforced.contains(&Value::from("metadata")), "{record}");
    }
}

/// The unprivileged half: the same moves, by a user who is not root (the
/// child's view then comes from a user namespace of its own, and the
/// process limit from `RLIMIT_NPROC` counted in it). Needs root, to become
/// that user, and `setpriv`.
#[test]
fn an_unprivileged_user_is_confined_the_same_way() {
    let Some(attack) = Attack::new(", limits: {processes: 40}") else {
        return;
    };
    if !is_root() {
        eprintln!("note: this suite already runs unprivileged");
        return;
    }
    if std::process::Command::new("setpriv")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no setpriv to become another user");
        return;
    }
    let nobody = 65534;
    for dir in ["home", "state", "tmp"] {
        std::fs::create_dir_all(attack.sandbox.join(dir)).unwrap();
    }
    let status = std::process::Command::new("chown")
        .args(["-R", &format!("{nobody}:{nobody}")])
        .arg(attack.sandbox.path())
        .status()
        .unwrap();
    assert!(status.success());
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        attack.sandbox.path(),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let as_nobody = |moved: &str, target: &str, number: Option<i64>| -> Run {
        let mut args: Vec<String> = vec![
            format!("--reuid={nobody}"),
            format!("--regid={nobody}"),
            "--clear-groups".to_owned(),
            env!("CARGO_BIN_EXE_aigent").to_owned(),
            "--commands".to_owned(),
            attack.sandbox.join("commands").display().to_string(),
            "--output".to_owned(),
            "json".to_owned(),
            "run".to_owned(),
            "--sandbox".to_owned(),
            "require".to_owned(),
            "attack".to_owned(),
            "--mode".to_owned(),
            moved.to_owned(),
            "--target".to_owned(),
            target.to_owned(),
        ];
        if let Some(number) = number {
            args.extend(["--number".to_owned(), number.to_string()]);
        }
        let aigent = attack.sandbox.std_cmd();
        let mut cmd = std::process::Command::new("setpriv");
        cmd.args(&args).current_dir(attack.project());
        for (key, value) in aigent.get_envs() {
            match value {
                Some(value) => cmd.env(key, value),
                None => cmd.env_remove(key),
            };
        }
        cmd.env("TMPDIR", attack.sandbox.join("tmp"));
        let output = cmd.output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    };
    let probe = as_nobody("caps", "x", None);
    if probe.code == 4 && probe.stderr.contains("SANDBOX_UNAVAILABLE") {
        // This machine gives unprivileged users no namespaces: said, and
        // nothing ran.
        assert!(probe.stderr.contains("file metadata"), "{probe}");
        eprintln!("note: unprivileged user namespaces are off here; require refused, as it must");
        return;
    }
    worked(&probe);
    assert!(probe.stdout.contains("eff 0000000000000000"), "{probe}");
    let outside = attack.outside("file.txt");
    refused(&as_nobody("chmod", &outside, Some(0o4777)));
    refused(&as_nobody("utime", &outside, None));
    refused(&as_nobody("prlimit-parent", "x", None));
    refused(&as_nobody("socket", "netlink", None));
    refused(&as_nobody("setsid", "x", None));
    let inside = attack.project().join("in/file.txt").display().to_string();
    worked(&as_nobody("chmod", &inside, Some(0o600)));
    let bomb = as_nobody("forkbomb", "x", Some(100_000));
    refused(&bomb);
    assert!(
        bomb.stdout.contains("Resource temporarily unavailable"),
        "{bomb}"
    );
    let limits = as_nobody("limits", "x", None);
    assert!(limits.stdout.contains("nproc 40"), "{limits}");
}

#[test]
fn real_tools_work_inside_their_grants() {
    let Some(attack) = Attack::new("") else {
        return;
    };
    let tool = |name: &str, binary: &str, argv: &str| {
        attack.sandbox.write(
            format!("commands/{name}.yaml"),
            format!(
                "name: {name}\ndescription: A real tool\ndanger_level: mutating\nparameters: {{}}\nsubprocess: {{binary: {binary}, argv: [{argv}]}}\nsandbox: {{write: ['$CWD']}}\n"
            ),
        );
    };
    let run = |name: &str| -> Run {
        let output = attack.command(name, "require", &[]).output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    };
    // git: init, add, commit (objects are written and chmod'ed).
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_ok()
    {
        tool("git-init", "git", "init, -q, repo");
        tool("git-add", "git", "-C, repo, add, a.txt");
        tool(
            "git-commit",
            "git",
            "-C, repo, -c, user.name=t, -c, user.email=t@example.com, -c, commit.gpgsign=false, commit, -q, -m, first",
        );
        tool("git-log", "git", "-C, repo, log, --oneline");
        let init = run("git-init");
        assert_eq!(init.code, 0, "{init}");
        std::fs::write(attack.project().join("repo/a.txt"), "hello\n").unwrap();
        for step in ["git-add", "git-commit"] {
            let run = run(step);
            assert_eq!(run.code, 0, "{step}: {run}");
        }
        let log = run("git-log");
        assert!(log.stdout.contains("first"), "{log}");
    }
    // tar -x into the project keeps modes and times (chmod, utime).
    let source = attack.sandbox.join("outside/tree");
    std::fs::create_dir_all(source.join("bin")).unwrap();
    std::fs::write(source.join("bin/tool"), "#!/bin/sh\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        source.join("bin/tool"),
        std::fs::Permissions::from_mode(0o751),
    )
    .unwrap();
    let archive = attack.project().join("tree.tar");
    let made = std::process::Command::new("tar")
        .arg("-cf")
        .arg(&archive)
        .arg("-C")
        .arg(&source)
        .arg("bin")
        .status()
        .unwrap();
    assert!(made.success());
    tool("untar", "tar", "-xpf, tree.tar, -C, in");
    let untar = run("untar");
    assert_eq!(untar.code, 0, "{untar}");
    let extracted = std::fs::metadata(attack.project().join("in/bin/tool")).unwrap();
    assert_eq!(extracted.permissions().mode() & 0o777, 0o751);
    // cargo build of a crate in the project (the toolchain that runs
    // these tests; its home in the project too).
    if let Ok(cargo) = std::env::var("CARGO") {
        let rustc = std::path::Path::new(&cargo).with_file_name("rustc");
        attack.sandbox.write(
            "project/hello/Cargo.toml",
            "[package]\nname = \"hello\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        );
        attack.sandbox.write(
            "project/hello/src/main.rs",
            "fn main() { println!(\"built\"); }\n",
        );
        attack.sandbox.write(
            "commands/build.yaml",
            format!(
                "name: build\ndescription: Build a crate\ndanger_level: mutating\nparameters: {{}}\nsubprocess:\n  binary: {cargo}\n  argv: [build, --offline, --quiet, --manifest-path, hello/Cargo.toml]\n  env: {{RUSTC: '{}', CARGO_HOME: '{}'}}\nsandbox: {{write: ['$CWD']}}\n",
                rustc.display(),
                attack.project().join(".cargo").display()
            ),
        );
        let built = run("build");
        assert_eq!(built.code, 0, "{built}");
        let hello = std::process::Command::new(attack.project().join("hello/target/debug/hello"))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&hello.stdout), "built\n");
    }
    // npm test, where npm is installed: a test that writes in the project
    // and starts a child process.
    if let Ok(npm) = which("npm") {
        attack.sandbox.write(
            "project/pkg/package.json",
            r#"{"name": "pkg", "version": "1.0.0", "private": true, "scripts": {"test": "node test.js"}}"#,
        );
        attack.sandbox.write(
            "project/pkg/test.js",
            "const { execFileSync } = require('child_process');\nconst fs = require('fs');\nfs.writeFileSync('out.txt', 'tested');\nif (execFileSync('node', ['-e', 'process.stdout.write(\"child\")']).toString() !== 'child') process.exit(1);\nconsole.log('all tests passed');\n",
        );
        attack.sandbox.write(
            "commands/npmtest.yaml",
            format!(
                "name: npmtest\ndescription: Run a package's tests\ndanger_level: mutating\nparameters: {{}}\nsubprocess:\n  binary: {}\n  argv: [test, --prefix, pkg]\n  env: {{npm_config_cache: '{}', npm_config_update_notifier: 'false'}}\nsandbox: {{write: ['$CWD']}}\n",
                npm.display(),
                attack.project().join(".npm").display()
            ),
        );
        let tested = run("npmtest");
        assert_eq!(tested.code, 0, "{tested}");
        assert!(tested.stdout.contains("all tests passed"), "{tested}");
        assert_eq!(
            std::fs::read_to_string(attack.project().join("pkg/out.txt")).unwrap(),
            "tested"
        );
    }
}

/// The first `name` on `PATH`.
fn which(name: &str) -> Result<std::path::PathBuf, ()> {
    std::env::split_paths(&std::env::var_os("PATH").ok_or(())?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .ok_or(())
}
