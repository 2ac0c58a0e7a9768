//! Kernel least privilege for a declared command (issues #22 and #40): the
//! declaration's effective sandbox ([`crate::contract::sandbox`]),
//! resolved against one run's checked arguments, and entered by the child
//! before it runs a single instruction of the program ([`child`]).
//!
//! - **Landlock** confines the file system to the grants (writes always;
//!   reads when the declaration lists them), `ioctl` on devices and
//!   connections to pathname UNIX sockets to what is granted, TCP
//!   `connect`/`bind` to the declared ports, and scopes signals and
//!   abstract UNIX sockets to the sandbox.
//! - **A read-only view** of the file system, with the write grants bound
//!   writable on top, in a mount namespace of the child's (and a user
//!   namespace of its own when aigent is not root): `chmod`, `chown`,
//!   `utime` and extended attributes, which Landlock has no right for,
//!   fail outside the write grants.
//! - **seccomp** (filters compiled by `seccompiler`, never hand-written)
//!   denies the calls no declared command needs (`ptrace`, mounting, new
//!   namespaces, the keyring, `bpf`, io_uring and more), terminal input
//!   injection (`TIOCSTI`, `TIOCLINUX`), resource calls on other
//!   processes, socket families the network setting does not allow, and
//!   a new session or process group.
//! - **The process**: a new session without a controlling terminal, no
//!   capabilities, `no_new_privs`, only descriptors 0, 1 and 2, resource
//!   limits, and (for root) a pids cgroup; aigent is the subreaper of the
//!   run and kills what is left of it when it ends.
//!
//! [`prepare`] resolves the grants and builds the ruleset, the filters and
//! the view's binds; [`Enforcer::spawn`] clones the child, which enters
//! them in the order the kernel requires.

#[cfg(target_os = "linux")]
pub(crate) mod cgroup;
#[cfg(target_os = "linux")]
pub(crate) mod child;
#[cfg(target_os = "linux")]
mod enforcer;
mod kernel;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub mod ready;
mod resolve;

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::contract::Declaration;
use crate::contract::sandbox::{EffectiveSandbox, Limit, Network, SandboxMode};
use crate::exec::Argv;
use crate::guard::ValidatedArguments;

pub use kernel::{ProcessSupport, Support, ViewSupport};
pub use resolve::{Access, Grant, Places, RUNTIME, Resolved};

#[cfg(target_os = "linux")]
pub use enforcer::Enforcer;
#[cfg(target_os = "linux")]
pub use linux::remember_inherited;

/// Off Linux there is nothing to enter.
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
pub struct Enforcer;

/// The parts a sandbox is made of, as reports name them.
pub const FILESYSTEM: &str = "filesystem";
pub const NETWORK: &str = "network";
pub const SYSCALLS: &str = "syscalls";
pub const SCOPES: &str = "scopes";
/// `ioctl` on device files the child opens.
pub const IOCTL: &str = "ioctl";
/// Connections to pathname UNIX sockets.
pub const UNIX_SOCKETS: &str = "unix_sockets";
/// File metadata outside the write grants (the read-only view).
pub const METADATA: &str = "metadata";
/// A new session, no controlling terminal, no terminal input injection.
pub const SESSION: &str = "session";
/// Only descriptors 0, 1, 2 (and the declared ones) reach the program.
pub const DESCRIPTORS: &str = "descriptors";
/// No capabilities in any set.
pub const CAPABILITIES: &str = "capabilities";
/// Limits, priority and CPU affinity of the caller only.
pub const RESOURCE_CALLS: &str = "resource_calls";
/// The resource limits.
pub const LIMITS: &str = "limits";
/// No process of the run outlives it.
pub const DESCENDANTS: &str = "descendants";

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
    let lacks = |feature: &str, needed: u32, linux: &str| {
        format!(
            "{feature} needs Landlock ABI {needed} (Linux {linux}); the kernel has {}",
            describe_abi(abi)
        )
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
        Network::Ports { .. } if abi >= Support::NET_ABI && support.seccomp => {
            plan.enforced.push(NETWORK);
        }
        Network::Ports { .. } if abi >= Support::NET_ABI => {
            plan.enforced.push(NETWORK);
            plan.not_enforced.push(
                "network: without seccomp raw, packet, netlink and vsock sockets are not refused".to_owned(),
            );
        }
        Network::Ports { .. } => plan.not_enforced.push(format!(
            "network: TCP port rules need Landlock ABI 4 (Linux 6.7); the kernel has {}, so the port lists are not enforced",
            describe_abi(abi)
        )),
    }
    if support.seccomp {
        plan.enforced.push(SYSCALLS);
    } else {
        plan.not_enforced.push(format!(
            "system calls: seccomp filters are not available ({} on this kernel), so ptrace, mount, namespaces, bpf, terminal input injection and calls on other processes are not denied",
            std::env::consts::ARCH
        ));
    }
    if abi >= Support::SCOPE_ABI {
        plan.enforced.push(SCOPES);
    } else {
        plan.not_enforced.push(format!(
            "signals and abstract UNIX sockets: scoping them to the sandbox {}, so the child may signal the user's other processes{}",
            lacks("", Support::SCOPE_ABI, "6.12").trim_start(),
            if support.seccomp {
                ""
            } else {
                " and reach abstract sockets"
            }
        ));
    }
    if abi >= Support::IOCTL_ABI {
        plan.enforced.push(IOCTL);
    } else {
        plan.not_enforced.push(format!(
            "device ioctls: restricting them {}, so the child may use any ioctl of a device it can open",
            lacks("", Support::IOCTL_ABI, "6.10").trim_start()
        ));
    }
    if abi >= Support::UNIX_ABI || (support.seccomp && sandbox.sockets.is_empty()) {
        plan.enforced.push(UNIX_SOCKETS);
    } else if support.seccomp {
        plan.not_enforced.push(format!(
            "pathname UNIX sockets: confining connections to the granted ones {}; the declaration grants sockets, so the child may connect to any UNIX socket the user can",
            lacks("", Support::UNIX_ABI, "7.1").trim_start()
        ));
    } else {
        plan.not_enforced.push(format!(
            "pathname UNIX sockets: without seccomp, and {}, the child may connect to any UNIX socket the user can",
            lacks("confining them", Support::UNIX_ABI, "7.1")
        ));
    }
    let linux = support.view != ViewSupport::Unavailable(kernel::NOT_LINUX);
    match support.view {
        ViewSupport::MountNamespace | ViewSupport::UserNamespace => plan.enforced.push(METADATA),
        ViewSupport::Unavailable(why) => plan.not_enforced.push(format!(
            "file metadata: chmod, chown, utime and extended attributes outside the write grants are stopped by a read-only view of the file system, which cannot be made here: {why}"
        )),
    }
    if linux {
        plan.enforced.extend([SESSION, DESCRIPTORS, CAPABILITIES]);
    } else {
        plan.not_enforced.push(
            "process: a new session, closed descriptors and dropped capabilities are Linux's"
                .to_owned(),
        );
    }
    if support.seccomp {
        plan.enforced.push(RESOURCE_CALLS);
    } else {
        plan.not_enforced.push(
            "resource calls: without seccomp the child may change the limits, priority and CPU affinity of the user's other processes, aigent's among them".to_owned(),
        );
    }
    if linux {
        plan.enforced.push(LIMITS);
        if let (ProcessSupport::Unavailable(why), Limit::At(_)) =
            (support.processes, sandbox.limits.processes)
        {
            plan.not_enforced.push(format!(
                "processes: the number of the run's processes is not bounded: {why}"
            ));
        }
    } else {
        plan.not_enforced
            .push("limits: resource limits are set on Linux only".to_owned());
    }
    if support.seccomp {
        plan.enforced.push(DESCENDANTS);
    } else {
        plan.not_enforced.push(
            "descendants: without seccomp a process can leave the run's process group (setsid) and outlive the run".to_owned(),
        );
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
    pub sockets: Vec<Grant>,
    pub network: Network,
    pub limits: crate::contract::sandbox::Limits,
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
            sockets: Vec::new(),
            network: sandbox.network.clone(),
            limits: sandbox.limits,
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

    /// A part the child could not enter after all (best-effort): it is
    /// no longer listed as enforced, and says why.
    pub fn lapsed(&mut self, part: &'static str, why: String) {
        self.enforced.retain(|enforced| *enforced != part);
        self.not_enforced.push(why);
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
        if !self.sockets.is_empty() {
            value["sockets"] = listed(&self.sockets);
        }
        if self.mode != SandboxMode::Off {
            value["limits"] = serde_json::to_value(self.limits).unwrap_or(Value::Null);
        }
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
/// enters, the private temporary directory and the pids cgroup (both
/// removed on drop, once the run is over).
pub struct Prepared {
    pub report: SandboxReport,
    pub enforcer: Option<Enforcer>,
    /// The declaration asks for a terminal (a pty of aigent's).
    pub interactive: bool,
    /// A server made this run's `$TMP` and ruleset before it was called.
    pub served_ready: bool,
    tmp: Option<tempfile::TempDir>,
    #[cfg(target_os = "linux")]
    cgroup: Option<cgroup::RunCgroup>,
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
    /// The run is over: its `$TMP` and cgroup go, and a server makes the
    /// next run's sandbox ready.
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        {
            ready::remove((self.tmp.take(), self.cgroup.take()));
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
            interactive: sandbox.interactive,
            served_ready: false,
            tmp: None,
            #[cfg(target_os = "linux")]
            cgroup: None,
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
    report.sockets.clone_from(&resolved.sockets);
    report.skipped.extend(resolved.skipped.iter().cloned());
    #[cfg(not(target_os = "linux"))]
    let served_ready = false;
    #[cfg(target_os = "linux")]
    let (enforcer, cgroup, served_ready) = {
        let made = match made_ready.map(|made| made.serves(&resolved, &sandbox.network)) {
            Some(Some(made)) => Some(made),
            Some(None) => {
                // Made for grants that have changed since: so were the others.
                if let Some(key) = &key {
                    ready::discard(key);
                }
                None
            }
            None => None,
        };
        let served_ready = made.is_some();
        let (enforcer, cgroup) = build(&plan, &resolved, sandbox, mode, support, made, &mut report);
        (enforcer, cgroup, served_ready)
    };
    #[cfg(not(target_os = "linux"))]
    let enforcer = None;
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
        interactive: sandbox.interactive,
        served_ready,
        tmp,
        #[cfg(target_os = "linux")]
        cgroup,
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

/// The ruleset, the filters, the view, the limits, the cgroup and the
/// passed descriptors; a part that cannot be built is taken out of
/// `enforced` and said in `not_enforced`. `made` is a ruleset a server
/// made ready for exactly these grants.
#[cfg(target_os = "linux")]
fn build(
    plan: &Plan,
    resolved: &Resolved,
    sandbox: &EffectiveSandbox,
    mode: SandboxMode,
    support: Support,
    made: Option<(std::os::fd::OwnedFd, linux::Signature)>,
    report: &mut SandboxReport,
) -> (Option<Enforcer>, Option<cgroup::RunCgroup>) {
    let mut ruleset = None;
    let mut signature = None;
    if let Some((fd, made_signature)) = made {
        ruleset = Some(fd);
        signature = Some(made_signature);
    } else if plan.landlock {
        match linux::ruleset(resolved, &sandbox.network) {
            Ok((fd, made_signature)) => {
                ruleset = Some(fd);
                signature = Some(made_signature);
            }
            Err(why) => {
                for part in [FILESYSTEM, SCOPES, IOCTL] {
                    report.enforced.retain(|enforced| *enforced != part);
                }
                report.not_enforced.push(format!("file system: {why}"));
            }
        }
    }
    let mut filters = None;
    if plan.seccomp {
        let unix = support.landlock_abi >= Support::UNIX_ABI || !sandbox.sockets.is_empty();
        let key = linux::FilterKey::new(&sandbox.network, unix);
        match linux::filters(key) {
            Ok(set) => filters = Some((set, key)),
            Err(why) => {
                for part in [SYSCALLS, RESOURCE_CALLS, DESCENDANTS, UNIX_SOCKETS] {
                    report.enforced.retain(|enforced| *enforced != part);
                }
                report.not_enforced.push(format!("system calls: {why}"));
            }
        }
    }
    let view = match support.view {
        ViewSupport::Unavailable(_) => None,
        view => {
            let signature = signature.unwrap_or_else(|| linux::signature(resolved));
            match linux::binds(resolved, &signature) {
                linux::Binds::Some(binds) => Some(child::View {
                    user_namespace: (view == ViewSupport::UserNamespace).then(own_id_maps),
                    binds,
                    cwd: linux::working_directory(),
                    required: mode == SandboxMode::Require,
                }),
                linux::Binds::Everything => None,
                linux::Binds::TooMany => {
                    report.lapsed(
                        METADATA,
                        format!(
                            "file metadata: more than {} write grants, too many for the read-only view",
                            linux::MAX_BINDS
                        ),
                    );
                    None
                }
            }
        }
    };
    let limits = limits(sandbox, support);
    let mut cgroup = None;
    let mut procs = None;
    if let (ProcessSupport::Cgroup, Limit::At(max)) = (support.processes, sandbox.limits.processes)
    {
        match cgroup::RunCgroup::new(max) {
            Ok((made, fd)) => {
                cgroup = Some(made);
                procs = Some(fd);
            }
            Err(err) => report.lapsed(
                LIMITS,
                format!("processes: the run's pids cgroup cannot be made: {err}"),
            ),
        }
    }
    let mut pass_fds = Vec::new();
    for &fd in &sandbox.pass_fds {
        if linux::inherited(fd) {
            pass_fds.push(fd);
        } else {
            report.skipped.push(format!(
                "`pass_fds` {fd}: not a descriptor aigent inherited; not passed"
            ));
        }
    }
    let enforcer = Enforcer::new(enforcer::Parts {
        ruleset,
        filters,
        view,
        limits,
        cgroup: procs,
        pass_fds,
    });
    (Some(enforcer), cgroup)
}

/// The uid and gid maps of a user namespace that maps the caller to
/// itself (the only mapping an unprivileged process may write).
#[cfg(target_os = "linux")]
fn own_id_maps() -> (std::ffi::CString, std::ffi::CString) {
    let uid = rustix::process::geteuid().as_raw();
    let gid = rustix::process::getegid().as_raw();
    let line = |id: u32| std::ffi::CString::new(format!("{id} {id} 1\n")).unwrap_or_default();
    (line(uid), line(gid))
}

/// The `(resource, value)` pairs the child sets: each declared or default
/// limit, lowered to aigent's own hard limit (which an unprivileged child
/// could not raise). `RLIMIT_NPROC` only inside the run's user namespace,
/// where it counts the run's processes alone.
#[cfg(target_os = "linux")]
fn limits(sandbox: &EffectiveSandbox, support: Support) -> Vec<(libc::c_int, u64)> {
    let wanted = sandbox.limits;
    let mut pairs = vec![
        (libc::RLIMIT_AS, wanted.address_space),
        (libc::RLIMIT_NOFILE, wanted.open_files),
        (libc::RLIMIT_FSIZE, wanted.file_size),
        (libc::RLIMIT_CPU, wanted.cpu_seconds),
    ];
    if support.processes == ProcessSupport::UserNamespace {
        pairs.push((libc::RLIMIT_NPROC, wanted.processes));
    }
    pairs
        .into_iter()
        .filter_map(|(resource, limit)| {
            let Limit::At(value) = limit else { return None };
            let mut own = libc::rlimit64 {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: reads aigent's own limit into a live local.
            let read = unsafe { libc::getrlimit64(resource as _, &raw mut own) };
            let ceiling = if read == 0 { own.rlim_max } else { value };
            Some((resource as libc::c_int, value.min(ceiling)))
        })
        .collect()
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
        .chain(&report.sockets)
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
        view: ViewSupport::Unavailable("no namespaces"),
        processes: ProcessSupport::Unavailable("no cgroup"),
    };

    const EVERYTHING: [&str; 13] = [
        FILESYSTEM,
        NETWORK,
        SYSCALLS,
        SCOPES,
        IOCTL,
        UNIX_SOCKETS,
        METADATA,
        SESSION,
        DESCRIPTORS,
        CAPABILITIES,
        RESOURCE_CALLS,
        LIMITS,
        DESCENDANTS,
    ];

    #[test]
    fn the_plan_follows_the_kernel() {
        let plan = super::plan(&sandbox("{connect: [443]}"), Support::full(7));
        assert_eq!(plan.enforced, EVERYTHING);
        assert!(plan.not_enforced.is_empty(), "{plan:?}");

        let plan = plan_of("none", NONE);
        assert_eq!(
            plan.enforced,
            [SESSION, DESCRIPTORS, CAPABILITIES, LIMITS],
            "{plan:?}"
        );
        assert_eq!(plan.not_enforced.len(), 10, "{:#?}", plan.not_enforced);

        // Ports need ABI 4; `none` is seccomp's job without it.
        let old = Support::full(3);
        let plan = plan_of("{connect: [443]}", old);
        assert!(!plan.enforced.contains(&NETWORK));
        assert!(plan.not_enforced[0].contains("ABI 4"), "{plan:?}");
        let plan = plan_of("none", old);
        assert!(plan.enforced.contains(&NETWORK));

        let plan = plan_of("unrestricted", Support::full(2));
        assert!(plan.not_enforced[0].contains("truncat"), "{plan:?}");

        // Linux 6.7 to 6.11 (ABI 4 and 5): no scoping of signals and
        // abstract sockets, and below 5 no device ioctl rule; each is said.
        for abi in [4, 5] {
            let plan = plan_of("none", Support::full(abi));
            assert!(!plan.enforced.contains(&SCOPES), "{plan:?}");
            assert!(
                plan.not_enforced
                    .iter()
                    .any(|why| why.starts_with("signals and abstract UNIX sockets")
                        && why.contains("ABI 6")),
                "{plan:?}"
            );
            let ioctl_missing = plan
                .not_enforced
                .iter()
                .any(|why| why.starts_with("device ioctls") && why.contains("ABI 5"));
            assert_eq!(ioctl_missing, abi < 5, "{plan:?}");
        }
    }

    fn plan_of(network: &str, support: Support) -> Plan {
        plan(&sandbox(network), support)
    }

    #[test]
    fn sockets_views_and_processes_are_said_when_missing() {
        let granted = EffectiveSandbox::of(&declaration(
            "name: t\ndescription: t\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: 'true', argv: []}\nsandbox: {sockets: ['/run/docker.sock']}\n",
        ));
        // Below ABI 9 a granted socket means every socket.
        let plan = super::plan(&granted, Support::full(7));
        assert!(!plan.enforced.contains(&UNIX_SOCKETS));
        assert!(plan.not_enforced[0].contains("ABI 9"), "{plan:?}");
        let plan = super::plan(&granted, Support::full(9));
        assert!(plan.enforced.contains(&UNIX_SOCKETS));
        assert!(plan.not_enforced.is_empty(), "{plan:?}");
        // Without sockets granted, seccomp refuses UNIX sockets below ABI 9.
        assert!(
            plan_of("none", Support::full(7))
                .enforced
                .contains(&UNIX_SOCKETS)
        );

        let no_view = Support {
            view: ViewSupport::Unavailable("AppArmor says no"),
            processes: ProcessSupport::Unavailable("no namespace"),
            ..Support::full(7)
        };
        let plan = plan_of("none", no_view);
        assert!(!plan.enforced.contains(&METADATA));
        assert!(
            plan.not_enforced
                .iter()
                .any(|why| why.starts_with("file metadata") && why.contains("AppArmor says no")),
            "{plan:?}"
        );
        assert!(
            plan.not_enforced
                .iter()
                .any(|why| why.starts_with("processes")),
            "{plan:?}"
        );
        // A declaration that lifts the process limit asks nothing of it.
        let unlimited = EffectiveSandbox::of(&declaration(
            "name: t\ndescription: t\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: 'true', argv: []}\nsandbox: {limits: {processes: unlimited}}\n",
        ));
        let plan = super::plan(&unlimited, no_view);
        assert!(
            !plan
                .not_enforced
                .iter()
                .any(|why| why.starts_with("processes")),
            "{plan:?}"
        );
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
        assert_eq!(refused.missing.len(), 10, "{refused}");
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
        // Without Landlock, seccomp and namespaces, the process itself is
        // still confined: its session, descriptors, capabilities, limits.
        assert!(prepared.enforcer.is_some());
        assert_eq!(
            prepared.report.enforced,
            [SESSION, DESCRIPTORS, CAPABILITIES, LIMITS]
        );
        let warnings = prepared.report.warnings();
        assert_eq!(warnings.len(), 10, "{warnings:?}");
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
        // The read-only view answers before Landlock does, when there is one.
        assert!(
            stderr.contains("ermission denied") || stderr.contains("Read-only file system"),
            "{stderr}"
        );
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
        // Runs the command; says whether a ready sandbox served it (one
        // fewer waits for it after), whether a spawning thread spawned it,
        // and its exit code and output.
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
            let served = prepared.served_ready;
            let enforcer = prepared.enforcer.take().unwrap();
            let spawner = enforcer.is_ready();
            let options = RunOptions {
                output: Output::Capture { limit: 4096 },
                ..RunOptions::default()
            };
            let finished = run_sandboxed(&argv, &options, Some(enforcer)).unwrap();
            drop(prepared);
            let stdout =
                String::from_utf8_lossy(&finished.stdout.clone().unwrap().bytes).into_owned();
            (served, spawner, finished.exit_code(), stdout)
        };
        let run = || {
            let (served, _, code, _) = run_of(&declaration);
            (served, code)
        };
        ready::keep_ready(true);

        // The first two runs build their own: nothing is kept ready for a
        // command run once. After the second, the next ones are made ready.
        let (served, _) = run();
        assert!(!served);
        assert!(!ready::wait_for(
            &key,
            std::time::Duration::from_millis(200)
        ));
        let (served, _) = run();
        assert!(!served);
        assert!(ready::wait_for(&key, wait), "nothing was made ready");
        let _ = std::fs::remove_file(inside.join("in.txt"));
        let (served, code) = run();
        assert!(served, "the ready sandbox was not used");
        assert_ne!(code, Some(0), "the write outside the grants succeeded");
        assert!(inside.join("in.txt").exists());
        assert!(
            !outside.join("out.txt").exists(),
            "a ready sandbox let the child write outside its grants"
        );

        // A server's child is spawned by the thread that holds the large
        // filter, and loads the late one itself: three filters, against a
        // one-shot child's two, and no_new_privs either way.
        let status = super::tests::declaration(
            "name: status\ndescription: t\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: grep, argv: ['-E', '^(Seccomp|Seccomp_filters|NoNewPrivs):', '/proc/self/status']}\n",
        );
        let (_, spawner, _, shown) = run_of(&status);
        assert!(spawner);
        assert!(shown.contains("NoNewPrivs:\t1"), "{shown}");
        assert!(shown.contains("Seccomp:\t2"), "{shown}");
        assert!(shown.contains("Seccomp_filters:\t3"), "{shown}");

        // The grant directory is replaced: the ruleset made for the old one
        // is thrown away, and the run's own rule names the new one.
        assert!(ready::wait_for(&key, wait));
        std::fs::remove_file(inside.join("in.txt")).unwrap();
        let old = dir.path().join("inside.old");
        std::fs::rename(&inside, &old).unwrap();
        std::fs::create_dir(&inside).unwrap();
        let (served, _) = run();
        assert!(
            !served,
            "a sandbox made for the replaced directory was used"
        );
        assert!(
            inside.join("in.txt").exists(),
            "the new directory was not granted"
        );
        assert!(!old.join("in.txt").exists());

        // Many commands: at most CAPACITY ready sandboxes, each with its
        // own $TMP.
        let mut keys = Vec::new();
        for index in 0..ready::CAPACITY + 4 {
            let declaration = super::tests::declaration(&yaml(&format!("ready{index}")));
            let effective = EffectiveSandbox::of(&declaration);
            // Run twice: a command is made ready for from its second run on.
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
