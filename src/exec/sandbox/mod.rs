//! Kernel least privilege for a declared command (issue #22): the
//! declaration's effective sandbox ([`crate::contract::sandbox`]),
//! resolved against one run's checked arguments, and enforced on the child
//! before it runs a single instruction of the program.
//!
//! - **Landlock** confines the file system to the grants (writes always;
//!   reads when the declaration lists them) and TCP `connect`/`bind` to the
//!   declared ports, and scopes signals and abstract UNIX sockets to the
//!   sandbox.
//! - **seccomp** (filters compiled by `seccompiler`, never hand-written)
//!   denies the calls no declared command needs: `ptrace`, mounting, new
//!   namespaces (`unshare`, `setns`, `clone` with namespace flags), the
//!   keyring, `bpf`, `perf_event_open`, kernel modules, kexec, io_uring and
//!   more; with `network: none` also TCP/UDP/raw sockets.
//! - `no_new_privs` is set, so a setuid program gains nothing.
//!
//! [`prepare`] resolves the grants and builds the ruleset and filters;
//! [`Enforcer::spawn`] enters them on a short-lived thread of aigent's,
//! which then spawns the child: Landlock, seccomp and `no_new_privs` are
//! per thread and inherited by every process the thread creates, so the
//! child starts confined while aigent's own threads never are.

mod kernel;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub mod ready;
mod resolve;
#[cfg(target_os = "linux")]
mod spawner;

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::contract::Declaration;
use crate::contract::sandbox::{EffectiveSandbox, Network, SandboxMode};
use crate::exec::Argv;
use crate::guard::ValidatedArguments;

pub use kernel::Support;
pub use resolve::{Access, Grant, Places, RUNTIME, Resolved};

#[cfg(target_os = "linux")]
pub use linux::Enforcer;

/// Off Linux there is nothing to enter.
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
pub struct Enforcer;

/// The parts a sandbox is made of, as reports name them.
pub const FILESYSTEM: &str = "filesystem";
pub const NETWORK: &str = "network";
pub const SYSCALLS: &str = "syscalls";
pub const SCOPES: &str = "scopes";

/// What the kernel enforces of a sandbox, and what it cannot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Plan {
    pub landlock: bool,
    pub seccomp: bool,
    pub enforced: Vec<&'static str>,
    /// One sentence for each part the kernel cannot enforce.
    pub not_enforced: Vec<String>,
}

/// Decides, from what `support` offers, what of `sandbox` can be
/// enforced. Pure, so that every kernel can be tested on any kernel.
pub fn plan(sandbox: &EffectiveSandbox, support: Support) -> Plan {
    let abi = support.landlock_abi;
    let mut plan = Plan {
        landlock: abi >= Support::FS_ABI,
        seccomp: support.seccomp,
        ..Plan::default()
    };
    match abi {
        0 => plan.not_enforced.push(
            "file system: the kernel has no Landlock (Linux 5.13 or later, with `landlock` in the LSM list), so the read and write grants are not enforced".to_owned(),
        ),
        1 | 2 => {
            plan.enforced.push(FILESYSTEM);
            plan.not_enforced.push(format!(
                "file system: the kernel's Landlock ABI {abi} does not restrict truncation (ABI 3, Linux 6.2), so a readable file can still be truncated"
            ));
        }
        _ => plan.enforced.push(FILESYSTEM),
    }
    match &sandbox.network {
        Network::Unrestricted => {}
        Network::None if support.seccomp => plan.enforced.push(NETWORK),
        Network::None if abi >= Support::NET_ABI => {
            plan.enforced.push(NETWORK);
            plan.not_enforced.push(
                "network: without seccomp only TCP is blocked; UDP and raw sockets are not".to_owned(),
            );
        }
        Network::None => plan.not_enforced.push(
            "network: the kernel has neither seccomp filters nor Landlock TCP rules (ABI 4, Linux 6.7), so `network: none` is not enforced".to_owned(),
        ),
        Network::Ports { .. } if abi >= Support::NET_ABI => plan.enforced.push(NETWORK),
        Network::Ports { .. } => plan.not_enforced.push(format!(
            "network: TCP port rules need Landlock ABI 4 (Linux 6.7); the kernel has {}, so the port lists are not enforced",
            describe_abi(abi)
        )),
    }
    if support.seccomp {
        plan.enforced.push(SYSCALLS);
    } else {
        plan.not_enforced.push(format!(
            "system calls: seccomp filters are not available ({} on this kernel), so ptrace, mount, namespaces, bpf and the rest are not denied",
            std::env::consts::ARCH
        ));
    }
    if abi >= Support::SCOPE_ABI {
        plan.enforced.push(SCOPES);
    }
    plan
}

fn describe_abi(abi: u32) -> String {
    if abi == 0 {
        "no Landlock".to_owned()
    } else {
        format!("ABI {abi}")
    }
}

/// One run's sandbox, as the envelope and the audit log show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxReport {
    pub mode: SandboxMode,
    pub landlock_abi: u32,
    pub enforced: Vec<&'static str>,
    pub not_enforced: Vec<String>,
    /// `None`: reads are not restricted.
    pub read: Option<Vec<Grant>>,
    pub write: Vec<Grant>,
    pub network: Network,
    /// Grants left out, and why.
    pub skipped: Vec<String>,
}

impl SandboxReport {
    fn new(mode: SandboxMode, sandbox: &EffectiveSandbox, support: Support) -> Self {
        Self {
            mode,
            landlock_abi: support.landlock_abi,
            enforced: Vec::new(),
            not_enforced: Vec::new(),
            read: sandbox.read.as_ref().map(|_| Vec::new()),
            write: Vec::new(),
            network: sandbox.network.clone(),
            skipped: Vec::new(),
        }
    }

    /// What a best-effort run could not enforce, for the envelope's
    /// warnings.
    pub fn warnings(&self) -> Vec<String> {
        if self.mode != SandboxMode::BestEffort {
            return Vec::new();
        }
        self.not_enforced
            .iter()
            .map(|why| format!("sandbox (best-effort): {why}"))
            .collect()
    }

    /// The record in the envelope's `data.sandbox` and in audit records.
    /// The system's runtime is one flag, not its sixteen paths.
    pub fn to_json(&self) -> Value {
        let listed = |grants: &[Grant]| -> Value {
            grants
                .iter()
                .filter(|grant| grant.grant != "runtime")
                .map(|grant| serde_json::to_value(grant).unwrap_or(Value::Null))
                .collect()
        };
        let mut value = json!({
            "mode": self.mode.as_str(),
            "enforced": self.enforced,
            "not_enforced": self.not_enforced,
            "landlock_abi": self.landlock_abi,
            "read": match &self.read {
                None => Value::from("unrestricted"),
                Some(grants) => listed(grants),
            },
            "write": listed(&self.write),
            "network": serde_json::to_value(&self.network).unwrap_or(Value::Null),
        });
        if !self.skipped.is_empty() {
            value["skipped"] = Value::from(self.skipped.clone());
        }
        value
    }

    /// The report of a run that has no sandbox (`--sandbox off`).
    pub fn off(sandbox: &EffectiveSandbox) -> Self {
        let mut report = Self::new(SandboxMode::Off, sandbox, Support::current());
        report.read = None;
        report.not_enforced.push("--sandbox off".to_owned());
        report
    }
}

/// A run's sandbox, ready for the spawn: the report, what the child
/// enters, and the private temporary directory (removed on drop).
pub struct Prepared {
    pub report: SandboxReport,
    pub enforcer: Option<Enforcer>,
    tmp: Option<tempfile::TempDir>,
    /// What a server makes ready for the next run, once this one is done.
    #[cfg(target_os = "linux")]
    refill: Option<ready::Refill>,
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("report", &self.report)
            .field("enforcer", &self.enforcer)
            .field("tmp", &self.tmp)
            .finish_non_exhaustive()
    }
}

impl Drop for Prepared {
    /// The run is over: its `$TMP` goes, and a server makes the next run's
    /// sandbox ready.
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        {
            if let Some(tmp) = self.tmp.take() {
                ready::remove(tmp);
            }
            if let Some(refill) = self.refill.take() {
                ready::refill(refill);
            }
        }
    }
}

impl Prepared {
    /// Asks a server's worker to make the next run's sandbox ready now,
    /// rather than when this run is over: called while the run waits for
    /// the disk (its start record), so that the worker uses a core that
    /// is idle then, not one the reply and the client need afterwards.
    pub fn make_next_ready(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(refill) = self.refill.take() {
            ready::refill(refill);
        }
    }

    /// The run's private temporary directory, if it has one.
    pub fn tmp(&self) -> Option<&std::path::Path> {
        self.tmp.as_ref().map(tempfile::TempDir::path)
    }
}

/// `--sandbox require` and the kernel (or this machine) cannot enforce
/// everything: nothing runs.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the sandbox cannot be enforced: {}", .missing.join("; "))]
pub struct Unavailable {
    pub missing: Vec<String>,
    pub report: Box<SandboxReport>,
}

/// Resolves `sandbox` for one run and builds what the child enters. Sets
/// `TMPDIR` in `argv`'s environment to the private temporary directory.
pub fn prepare(
    sandbox: &EffectiveSandbox,
    declaration: &Declaration,
    validated: &ValidatedArguments,
    argv: &mut Argv,
    mode: SandboxMode,
) -> Result<Prepared, Unavailable> {
    prepare_with(
        sandbox,
        declaration,
        validated,
        argv,
        mode,
        Support::current(),
    )
}

fn prepare_with(
    sandbox: &EffectiveSandbox,
    declaration: &Declaration,
    validated: &ValidatedArguments,
    argv: &mut Argv,
    mode: SandboxMode,
    support: Support,
) -> Result<Prepared, Unavailable> {
    if mode == SandboxMode::Off {
        return Ok(Prepared {
            report: SandboxReport::off(sandbox),
            enforcer: None,
            tmp: None,
            #[cfg(target_os = "linux")]
            refill: None,
        });
    }
    let plan = plan(sandbox, support);
    let mut report = SandboxReport::new(mode, sandbox, support);
    report.enforced.clone_from(&plan.enforced);
    report.not_enforced.clone_from(&plan.not_enforced);
    let unavailable = |report: SandboxReport| Unavailable {
        missing: report.not_enforced.clone(),
        report: Box::new(report),
    };
    if mode == SandboxMode::Require && !report.not_enforced.is_empty() {
        return Err(unavailable(report));
    }
    // A server may have made this run's sandbox ready, with its `$TMP`.
    #[cfg(target_os = "linux")]
    let key = (plan.landlock && plan.seccomp && ready::enabled())
        .then(|| ready::key(&declaration.name, sandbox));
    #[cfg(target_os = "linux")]
    let (tmp, made_ready) = match key.as_deref().and_then(ready::take) {
        Some(entry) => {
            let (tmp, made_ready) = entry.split();
            (Some(tmp), Some(made_ready))
        }
        None => (new_tmp(&mut report), None),
    };
    #[cfg(not(target_os = "linux"))]
    let tmp = new_tmp(&mut report);
    #[cfg(target_os = "linux")]
    let tmp_path = match &made_ready {
        Some(made_ready) => Some(made_ready.tmp_real.clone()),
        None => tmp.as_ref().and_then(|tmp| tmp.path().canonicalize().ok()),
    };
    #[cfg(not(target_os = "linux"))]
    let tmp_path = tmp.as_ref().and_then(|tmp| tmp.path().canonicalize().ok());
    if let Some(path) = tmp_path.as_ref().and_then(|path| path.to_str()) {
        argv.set_env("TMPDIR", path);
    }
    let places = Places::current(tmp_path.clone());
    let child_path = argv
        .env()
        .entries()
        .iter()
        .find(|entry| entry.name == "PATH")
        .map(|entry| entry.value.clone());
    let program = resolve::program_file(argv.program(), child_path.as_ref(), places.cwd.as_deref());
    let wants_network = sandbox.network != Network::None;
    let resolved = resolve::resolve(
        sandbox,
        declaration,
        validated,
        &places,
        program,
        wants_network,
    );
    report.read.clone_from(&resolved.read);
    report.write.clone_from(&resolved.write);
    report.skipped.extend(resolved.skipped.iter().cloned());
    #[cfg(target_os = "linux")]
    let enforcer = match made_ready.map(|made| made.serves(&resolved, &sandbox.network)) {
        Some(Some(ready)) => Some(ready),
        Some(None) => {
            // Made for grants that have changed since: so were the others.
            if let Some(key) = &key {
                ready::discard(key);
            }
            enforcer(&plan, &resolved, sandbox, &mut report)
        }
        None => enforcer(&plan, &resolved, sandbox, &mut report),
    };
    #[cfg(not(target_os = "linux"))]
    let enforcer = enforcer(&plan, &resolved, sandbox, &mut report);
    if mode == SandboxMode::Require && report.not_enforced.len() > plan.not_enforced.len() {
        return Err(unavailable(report));
    }
    #[cfg(target_os = "linux")]
    let refill = match (key, &tmp_path) {
        (Some(key), Some(tmp_real)) if enforcer.is_some() => {
            ready::Refill::new(key, &resolved, tmp_real, &sandbox.network)
        }
        _ => None,
    };
    Ok(Prepared {
        report,
        enforcer,
        tmp,
        #[cfg(target_os = "linux")]
        refill,
    })
}

/// The run's private temporary directory; a run without one says why.
fn new_tmp(report: &mut SandboxReport) -> Option<tempfile::TempDir> {
    match tempfile::Builder::new().prefix("aigent-run-").tempdir() {
        Ok(tmp) => Some(tmp),
        Err(err) => {
            report.skipped.push(format!(
                "`$TMP`: the private temporary directory cannot be made: {err}"
            ));
            None
        }
    }
}

#[cfg(target_os = "linux")]
fn enforcer(
    plan: &Plan,
    resolved: &Resolved,
    sandbox: &EffectiveSandbox,
    report: &mut SandboxReport,
) -> Option<Enforcer> {
    let mut landlock = None;
    if plan.landlock {
        match linux::ruleset(resolved, &sandbox.network) {
            Ok((ruleset, _)) => landlock = Some(ruleset),
            Err(why) => {
                report
                    .enforced
                    .retain(|part| *part != FILESYSTEM && *part != SCOPES);
                report.not_enforced.push(format!("file system: {why}"));
            }
        }
    }
    let mut filters = Vec::new();
    if plan.seccomp {
        match linux::filters(&sandbox.network) {
            Ok(built) => filters = built,
            Err(why) => {
                report.enforced.retain(|part| *part != SYSCALLS);
                report.not_enforced.push(format!("system calls: {why}"));
            }
        }
    }
    (landlock.is_some() || !filters.is_empty()).then(|| Enforcer::new(landlock, filters))
}

#[cfg(not(target_os = "linux"))]
fn enforcer(
    _: &Plan,
    _: &Resolved,
    _: &EffectiveSandbox,
    _: &mut SandboxReport,
) -> Option<Enforcer> {
    None
}

/// The report a run would have without resolving anything: what is
/// declared and what this kernel could enforce (for records written
/// before a run is prepared).
pub fn outline(sandbox: &EffectiveSandbox, mode: SandboxMode) -> Value {
    if mode == SandboxMode::Off {
        return SandboxReport::off(sandbox).to_json();
    }
    let support = Support::current();
    let plan = plan(sandbox, support);
    let mut value = json!({
        "mode": mode.as_str(),
        "enforced": plan.enforced,
        "not_enforced": plan.not_enforced,
        "landlock_abi": support.landlock_abi,
    });
    if let (Value::Object(out), Ok(Value::Object(declared))) =
        (&mut value, serde_json::to_value(sandbox))
    {
        for (key, entry) in declared {
            out.insert(key, entry);
        }
    }
    value
}

/// The paths a test or a caller may want to know were granted.
pub fn granted_paths(report: &SandboxReport) -> Vec<PathBuf> {
    report
        .read
        .iter()
        .flatten()
        .chain(&report.write)
        .map(|grant| grant.real.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::RawArguments;

    fn declaration(yaml: &str) -> Declaration {
        let parsed = crate::contract::read_declaration(
            yaml,
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        );
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        parsed.declaration.unwrap()
    }

    fn sandbox(network: &str) -> EffectiveSandbox {
        EffectiveSandbox::of(&declaration(&format!(
            "name: t\ndescription: t\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: 'true', argv: []}}\nsandbox: {{network: {network}}}\n"
        )))
    }

    const NONE: Support = Support {
        landlock_abi: 0,
        seccomp: false,
    };

    #[test]
    fn the_plan_follows_the_kernel() {
        let full = Support {
            landlock_abi: 7,
            seccomp: true,
        };
        let plan = plan(&sandbox("{connect: [443]}"), full);
        assert_eq!(plan.enforced, [FILESYSTEM, NETWORK, SYSCALLS, SCOPES]);
        assert!(plan.not_enforced.is_empty());

        let plan = plan_of("none", NONE);
        assert!(plan.enforced.is_empty());
        assert_eq!(plan.not_enforced.len(), 3, "{:?}", plan.not_enforced);

        // Ports need ABI 4; `none` is seccomp's job without it.
        let old = Support {
            landlock_abi: 3,
            seccomp: true,
        };
        let plan = plan_of("{connect: [443]}", old);
        assert_eq!(plan.enforced, [FILESYSTEM, SYSCALLS]);
        assert!(plan.not_enforced[0].contains("ABI 4"), "{plan:?}");
        let plan = plan_of("none", old);
        assert_eq!(plan.enforced, [FILESYSTEM, NETWORK, SYSCALLS]);

        let plan = plan_of(
            "unrestricted",
            Support {
                landlock_abi: 2,
                seccomp: true,
            },
        );
        assert_eq!(plan.enforced, [FILESYSTEM, SYSCALLS]);
        assert!(plan.not_enforced[0].contains("truncat"), "{plan:?}");
    }

    fn plan_of(network: &str, support: Support) -> Plan {
        plan(&sandbox(network), support)
    }

    #[test]
    fn require_refuses_what_the_kernel_lacks_and_best_effort_warns() {
        let declaration = declaration(
            "name: t\ndescription: t\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: 'true', argv: []}\n",
        );
        let effective = EffectiveSandbox::of(&declaration);
        let validated = crate::guard::check(&declaration, &RawArguments::from_tail(&[])).unwrap();
        let mut argv = Argv::build(&declaration, &validated).unwrap();
        let refused = prepare_with(
            &effective,
            &declaration,
            &validated,
            &mut argv,
            SandboxMode::Require,
            NONE,
        )
        .unwrap_err();
        assert_eq!(refused.missing.len(), 3, "{refused}");
        assert!(refused.to_string().contains("no Landlock"), "{refused}");

        let prepared = prepare_with(
            &effective,
            &declaration,
            &validated,
            &mut argv,
            SandboxMode::BestEffort,
            NONE,
        )
        .unwrap();
        assert!(prepared.enforcer.is_none());
        let warnings = prepared.report.warnings();
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(
            warnings
                .iter()
                .all(|w| w.starts_with("sandbox (best-effort): "))
        );
        // The private temporary directory exists for the run and is the
        // child's TMPDIR.
        let tmp = prepared.tmp().unwrap().to_owned();
        assert!(tmp.is_dir());
        let tmpdir = argv
            .env()
            .entries()
            .iter()
            .find(|entry| entry.name == "TMPDIR")
            .map(|entry| std::path::PathBuf::from(&entry.value))
            .unwrap();
        assert_eq!(tmpdir, tmp.canonicalize().unwrap());
        drop(prepared);
        // A server removes it in the background (another test may have
        // turned that on).
        let gone = (0..500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            !tmp.exists()
        });
        assert!(gone, "the private temporary directory outlived the run");

        let off = prepare_with(
            &effective,
            &declaration,
            &validated,
            &mut argv,
            SandboxMode::Off,
            NONE,
        )
        .unwrap();
        assert!(off.report.warnings().is_empty());
        assert_eq!(off.report.to_json()["mode"], "off");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_child_is_confined_to_its_grants() {
        use crate::exec::process::{Output, RunOptions, run_sandboxed};
        let support = Support::current();
        if support.landlock_abi < Support::TRUNCATE_ABI || !support.seccomp {
            eprintln!(
                "skipped: this kernel has Landlock ABI {} and seccomp {} (needs ABI 3 and seccomp)",
                support.landlock_abi, support.seccomp
            );
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("inside");
        let outside = dir.path().join("outside");
        std::fs::create_dir(&inside).unwrap();
        std::fs::create_dir(&outside).unwrap();
        let declaration = declaration(&format!(
            "name: t\ndescription: t\ndanger_level: mutating\nparameters: {{}}\nsubprocess: {{binary: sh, argv: ['-c', 'echo in > {0}/in.txt; echo out > {1}/out.txt; exit 0']}}\nsandbox: {{write: ['{0}']}}\n",
            inside.display(),
            outside.display()
        ));
        let effective = EffectiveSandbox::of(&declaration);
        let validated = crate::guard::check(&declaration, &RawArguments::from_tail(&[])).unwrap();
        let mut argv = Argv::build(&declaration, &validated).unwrap();
        let mut prepared = prepare(
            &effective,
            &declaration,
            &validated,
            &mut argv,
            SandboxMode::Require,
        )
        .unwrap();
        let options = RunOptions {
            output: Output::Capture { limit: 4096 },
            ..RunOptions::default()
        };
        let finished = run_sandboxed(&argv, &options, prepared.enforcer.take()).unwrap();
        assert_eq!(finished.exit_code(), Some(0));
        assert!(inside.join("in.txt").exists());
        assert!(
            !outside.join("out.txt").exists(),
            "the child wrote outside its grants"
        );
        let stderr = String::from_utf8_lossy(&finished.stderr.unwrap().bytes).into_owned();
        assert!(stderr.contains("ermission denied"), "{stderr}");
    }

    /// A server's ready sandboxes (`ready`): the next run of a command
    /// takes one, confined as a fresh one is; a grant directory replaced
    /// since it was made is not served by it; and at most `CAPACITY` wait.
    /// One test, as the pool is the process's.
    #[cfg(target_os = "linux")]
    #[test]
    fn ready_sandboxes_confine_follow_replaced_grants_and_are_bounded() {
        use crate::exec::process::{Output, RunOptions, run_sandboxed};
        let support = Support::current();
        if support.landlock_abi < Support::TRUNCATE_ABI || !support.seccomp {
            eprintln!("skipped: needs Landlock ABI 3 and seccomp");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("inside");
        let outside = dir.path().join("outside");
        std::fs::create_dir(&inside).unwrap();
        std::fs::create_dir(&outside).unwrap();
        let yaml = |name: &str| {
            format!(
                "name: {name}\ndescription: t\ndanger_level: mutating\nparameters: {{}}\nsubprocess: {{binary: sh, argv: ['-c', 'echo in > {0}/in.txt && echo out > {1}/out.txt']}}\nsandbox: {{write: ['{0}']}}\n",
                inside.display(),
                outside.display()
            )
        };
        let declaration = declaration(&yaml("ready"));
        let effective = EffectiveSandbox::of(&declaration);
        let validated = crate::guard::check(&declaration, &RawArguments::from_tail(&[])).unwrap();
        let key = ready::key(&declaration.name, &effective);
        let wait = std::time::Duration::from_secs(10);
        // Runs the command; says whether a ready sandbox spawned it, and
        // its exit code.
        let run_of = |declaration: &Declaration| {
            let effective = EffectiveSandbox::of(declaration);
            let mut argv = Argv::build(declaration, &validated).unwrap();
            let mut prepared = prepare(
                &effective,
                declaration,
                &validated,
                &mut argv,
                SandboxMode::Require,
            )
            .unwrap();
            let enforcer = prepared.enforcer.take().unwrap();
            let was_ready = enforcer.is_ready();
            let options = RunOptions {
                output: Output::Capture { limit: 4096 },
                ..RunOptions::default()
            };
            let finished = run_sandboxed(&argv, &options, Some(enforcer)).unwrap();
            drop(prepared);
            let stdout =
                String::from_utf8_lossy(&finished.stdout.clone().unwrap().bytes).into_owned();
            (was_ready, finished.exit_code(), stdout)
        };
        let run = || {
            let (was_ready, code, _) = run_of(&declaration);
            (was_ready, code)
        };
        ready::keep_ready(true);

        // The first two runs build their own: nothing is kept ready for a
        // command run once. After the second, the next ones are made ready.
        let (was_ready, _) = run();
        assert!(!was_ready);
        assert!(!ready::wait_for(
            &key,
            std::time::Duration::from_millis(200)
        ));
        let (was_ready, _) = run();
        assert!(!was_ready);
        assert!(ready::wait_for(&key, wait), "nothing was made ready");
        let _ = std::fs::remove_file(inside.join("in.txt"));
        let (was_ready, code) = run();
        assert!(was_ready, "the ready sandbox was not used");
        assert_ne!(code, Some(0), "the write outside the grants succeeded");
        assert!(inside.join("in.txt").exists());
        assert!(
            !outside.join("out.txt").exists(),
            "a ready sandbox let the child write outside its grants"
        );

        // The child of a ready sandbox has the filters (loaded once, by the
        // thread that started the waiting one) and no_new_privs, as a fresh
        // one's child has.
        let status = super::tests::declaration(
            "name: status\ndescription: t\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: grep, argv: ['-E', '^(Seccomp|Seccomp_filters|NoNewPrivs):', '/proc/self/status']}\n",
        );
        let (was_ready, _, fresh) = run_of(&status);
        assert!(!was_ready);
        let (was_ready, _, _) = run_of(&status);
        assert!(!was_ready);
        assert!(ready::wait_for(
            &ready::key("status", &EffectiveSandbox::of(&status)),
            wait
        ));
        let (was_ready, _, made_ready) = run_of(&status);
        assert!(was_ready);
        assert_eq!(made_ready, fresh);
        assert!(fresh.contains("NoNewPrivs:\t1"), "{fresh}");
        assert!(fresh.contains("Seccomp:\t2"), "{fresh}");
        assert!(fresh.contains("Seccomp_filters:\t2"), "{fresh}");

        // The grant directory is replaced: the sandbox made for the old one
        // is thrown away, and the run's own rule names the new one.
        assert!(ready::wait_for(&key, wait));
        std::fs::remove_file(inside.join("in.txt")).unwrap();
        let old = dir.path().join("inside.old");
        std::fs::rename(&inside, &old).unwrap();
        std::fs::create_dir(&inside).unwrap();
        let (was_ready, _) = run();
        assert!(
            !was_ready,
            "a sandbox made for the replaced directory was used"
        );
        assert!(
            inside.join("in.txt").exists(),
            "the new directory was not granted"
        );
        assert!(!old.join("in.txt").exists());

        // Many commands: at most CAPACITY ready sandboxes, each with its
        // own waiting thread and $TMP.
        let mut keys = Vec::new();
        for index in 0..ready::CAPACITY + 4 {
            let declaration = super::tests::declaration(&yaml(&format!("ready{index}")));
            let effective = EffectiveSandbox::of(&declaration);
            // Run twice: a command is made ready for from its second run.
            for _ in 0..2 {
                let mut argv = Argv::build(&declaration, &validated).unwrap();
                let prepared = prepare(
                    &effective,
                    &declaration,
                    &validated,
                    &mut argv,
                    SandboxMode::Require,
                )
                .unwrap();
                drop(prepared);
            }
            let key = ready::key(&declaration.name, &effective);
            assert!(ready::wait_for(&key, wait));
            keys.push(key);
            assert!(ready::ready_count() <= ready::CAPACITY);
        }
        assert_eq!(ready::ready_count(), ready::CAPACITY);
        // The least recently made went first.
        assert!(ready::take(&keys[0]).is_none());
        ready::keep_ready(false);
        assert_eq!(ready::ready_count(), 0);
    }
}
