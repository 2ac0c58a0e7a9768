//! The sandbox's escape suite (issue #22): a declared command tries to get
//! out of its grants and is stopped by the kernel, and the same moves
//! succeed inside them. The probe is a Perl script (Perl is part of every
//! Debian and Ubuntu base system) that does one thing per call and prints
//! `ok: ...` or `denied: ERRNO`.
//!
//! Every test needs Landlock ABI 4 or later and seccomp; on a kernel
//! without them it prints why and returns (the unit tests in
//! `exec::sandbox` cover the refusal logic on every kernel).

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
            "note: this kernel (Landlock ABI {}) enforces everything, so `require` runs; the refusal is covered by exec::sandbox's unit tests",
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
