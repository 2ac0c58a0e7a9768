//! The kernel's side: a Landlock ruleset and seccomp filters, built by
//! aigent, and entered by a short-lived thread of aigent's own that then
//! spawns the child (see [`Enforcer::spawn`]).

use std::collections::BTreeMap;
use std::io;
use std::os::fd::OwnedFd;
use std::sync::OnceLock;

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, NetPort, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, Scope,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::resolve::{Access as GrantAccess, Grant, Resolved};
use crate::contract::sandbox::Network;

/// What the child does before exec: restrict itself with Landlock, then
/// install the seccomp filters. Owned by the spawn; the parent's copy of
/// the ruleset descriptor closes when the spawn is done with it.
pub struct Enforcer {
    kind: Kind,
}

enum Kind {
    /// Entered by a new thread at the spawn.
    Fresh {
        landlock: Option<RulesetCreated>,
        filters: Vec<BpfProgram>,
    },
    /// Already entered by a thread kept ready for this run
    /// ([`super::ready`]).
    Ready(super::spawner::Spawner),
}

impl std::fmt::Debug for Enforcer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            Kind::Fresh { landlock, filters } => f
                .debug_struct("Enforcer")
                .field("landlock", &landlock.is_some())
                .field("filters", &filters.len())
                .finish(),
            Kind::Ready(_) => f.debug_struct("Enforcer").field("ready", &true).finish(),
        }
    }
}

impl Enforcer {
    pub fn new(landlock: Option<RulesetCreated>, filters: Vec<BpfProgram>) -> Self {
        Self {
            kind: Kind::Fresh { landlock, filters },
        }
    }

    /// The sandbox a thread kept ready has already entered.
    pub(super) fn ready(spawner: super::spawner::Spawner) -> Self {
        Self {
            kind: Kind::Ready(spawner),
        }
    }

    /// Whether a thread kept ready spawns the child.
    pub fn is_ready(&self) -> bool {
        matches!(self.kind, Kind::Ready(_))
    }

    /// Spawns `command` already confined, without a `fork` of aigent.
    ///
    /// Landlock domains, seccomp filters and `no_new_privs` belong to a
    /// thread, and a process inherits its creator's across `clone` and
    /// keeps them across `execve`. So a thread enters the sandbox
    /// ([`Self::enter`]), spawns the child and ends: the child is confined
    /// from its first instruction, while aigent's other threads never are.
    /// Spawning from an unforked thread lets the C library use
    /// `posix_spawn` (`clone(CLONE_VM | CLONE_VFORK)`), which copies no
    /// page table; a `pre_exec` hook would force a full `fork` of aigent,
    /// the largest part of the sandbox's cost per spawn. The thread is new,
    /// or one a server made ready for this run beforehand
    /// ([`super::ready`]). If it cannot enter the sandbox, or is gone,
    /// nothing is spawned.
    pub fn spawn(self, command: std::process::Command) -> io::Result<std::process::Child> {
        let (landlock, filters) = match self.kind {
            Kind::Ready(spawner) => return spawner.spawn(command),
            Kind::Fresh { landlock, filters } => (landlock, filters),
        };
        let mut command = command;
        let mut parts = Parts { landlock, filters };
        std::thread::scope(|scope| {
            let entered = std::thread::Builder::new()
                .name("aigent-sandbox".to_owned())
                .stack_size(SPAWN_STACK)
                .spawn_scoped(scope, move || {
                    // std's spawn gives the child an empty signal mask and
                    // default dispositions whatever this thread's are. A
                    // handler of aigent's that runs on this thread only
                    // records the signal or passes it to the child's group,
                    // which Landlock's scoping allows (the child is in this
                    // thread's domain).
                    parts.enter()?;
                    command.spawn()
                })?;
            entered
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the sandbox thread panicked")))
        })
    }

    /// The ruleset and filters, for a thread to enter.
    pub(super) fn into_parts(self) -> Option<Parts> {
        match self.kind {
            Kind::Fresh { landlock, filters } => Some(Parts { landlock, filters }),
            Kind::Ready(_) => None,
        }
    }
}

/// A Landlock ruleset and seccomp filters, not entered yet.
pub struct Parts {
    landlock: Option<RulesetCreated>,
    filters: Vec<BpfProgram>,
}

impl Parts {
    /// Confines the calling thread, and every process it creates from now
    /// on. Sets `no_new_privs`, so a setuid program gains nothing.
    pub fn enter(&mut self) -> io::Result<()> {
        if let Some(ruleset) = self.landlock.take() {
            ruleset
                .restrict_self()
                .map_err(|_| io::Error::from_raw_os_error(libc::EPERM))?;
        }
        for filter in &self.filters {
            seccompiler::apply_filter(filter).map_err(|err| match err {
                seccompiler::Error::Seccomp(source) | seccompiler::Error::Prctl(source) => {
                    io::Error::from_raw_os_error(source.raw_os_error().unwrap_or(libc::EPERM))
                }
                _ => io::Error::from_raw_os_error(libc::EPERM),
            })?;
        }
        Ok(())
    }
}

/// The spawning thread's stack: it runs `Command::spawn` and nothing else.
pub(super) const SPAWN_STACK: usize = 256 * 1024;

const READ: [AccessFs; 3] = [AccessFs::Execute, AccessFs::ReadFile, AccessFs::ReadDir];
const WRITE: [AccessFs; 10] = [
    AccessFs::WriteFile,
    AccessFs::RemoveDir,
    AccessFs::RemoveFile,
    AccessFs::MakeDir,
    AccessFs::MakeReg,
    AccessFs::MakeSock,
    AccessFs::MakeFifo,
    AccessFs::MakeSym,
    AccessFs::Refer,
    AccessFs::Truncate,
];
/// Handled and granted nowhere: device nodes are never made.
const NEVER: [AccessFs; 2] = [AccessFs::MakeChar, AccessFs::MakeBlock];
const CREATE: [AccessFs; 4] = [
    AccessFs::MakeReg,
    AccessFs::MakeDir,
    AccessFs::WriteFile,
    AccessFs::Truncate,
];
/// The rights valid on a file that is not a directory.
const ON_FILE: [AccessFs; 4] = [
    AccessFs::Execute,
    AccessFs::ReadFile,
    AccessFs::WriteFile,
    AccessFs::Truncate,
];

fn flags(rights: &[AccessFs]) -> BitFlags<AccessFs> {
    rights
        .iter()
        .fold(BitFlags::empty(), |all, right| all | *right)
}

/// What a grant's rule was made from: the file its path named when it was
/// opened, or `None` when it could not be opened (and was left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opened {
    dev: u64,
    ino: u64,
    is_dir: bool,
}

/// Each grant's [`Opened`], in the order of [`grants`].
pub type Signature = Vec<Option<Opened>>;

/// Every grant a ruleset is made of: the reads, then the writes.
pub fn grants(resolved: &Resolved) -> impl Iterator<Item = &Grant> {
    resolved.read.iter().flatten().chain(&resolved.write)
}

/// What each grant names now, opened as [`ruleset`] opens it: a ruleset
/// made from `resolved` with this signature has the same rules.
pub fn signature(resolved: &Resolved) -> Signature {
    grants(resolved)
        .map(|grant| open_beneath(grant).map(|(_, opened)| opened))
        .collect()
}

/// The Landlock ruleset for `resolved`, and what its rules were made from.
/// Rights the kernel lacks are left out by the crate (best effort); the
/// caller has already decided, from the kernel's ABI, whether that is
/// acceptable.
pub fn ruleset(
    resolved: &Resolved,
    network: &Network,
) -> Result<(RulesetCreated, Signature), String> {
    let mut handled = flags(&WRITE) | flags(&NEVER);
    if resolved.read.is_some() {
        handled |= flags(&READ);
    }
    let failed = |err: landlock::RulesetError| format!("Landlock: {err}");
    let mut ruleset = Ruleset::default().handle_access(handled).map_err(failed)?;
    if *network != Network::Unrestricted {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(ABI::V4))
            .map_err(failed)?;
    }
    ruleset = ruleset.scope(Scope::from_all(ABI::V6)).map_err(failed)?;
    let mut created = ruleset.create().map_err(failed)?;
    let mut signature = Vec::new();
    for grant in grants(resolved) {
        let opened = open_beneath(grant);
        signature.push(opened.as_ref().map(|(_, opened)| *opened));
        let Some((fd, Opened { is_dir, .. })) = opened else {
            continue;
        };
        let mut rights = match grant.access {
            GrantAccess::Read => flags(&READ),
            GrantAccess::Write => flags(&READ) | flags(&WRITE),
            GrantAccess::Create => flags(&CREATE),
        } & handled;
        if !is_dir {
            rights &= flags(&ON_FILE);
        }
        if rights.is_empty() {
            continue;
        }
        created = created
            .add_rule(PathBeneath::new(fd, rights))
            .map_err(failed)?;
    }
    if let Network::Ports { connect, bind } = network {
        for port in connect {
            created = created
                .add_rule(NetPort::new(*port, AccessNet::ConnectTcp))
                .map_err(failed)?;
        }
        for port in bind {
            created = created
                .add_rule(NetPort::new(*port, AccessNet::BindTcp))
                .map_err(failed)?;
        }
    }
    Ok((created, signature))
}

/// Opens a grant's resolved path with no symlink followed anywhere on the
/// way (`openat2` with `RESOLVE_NO_SYMLINKS`): a link swapped in since the
/// path was resolved makes the grant fail, never move. Kernels before 5.6
/// lack `openat2`; there the last component alone is not followed.
fn open_beneath(grant: &Grant) -> Option<(OwnedFd, Opened)> {
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    let flags = OFlags::PATH | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat2(
        rustix::fs::CWD,
        &grant.real,
        flags,
        Mode::empty(),
        ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS,
    ) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::NOSYS) => rustix::fs::openat(
            rustix::fs::CWD,
            &grant.real,
            flags | OFlags::NOFOLLOW,
            Mode::empty(),
        )
        .ok()?,
        Err(_) => return None,
    };
    let stat = rustix::fs::fstat(&fd).ok()?;
    let opened = Opened {
        dev: stat.st_dev,
        ino: stat.st_ino,
        is_dir: rustix::fs::FileType::from_raw_mode(stat.st_mode)
            == rustix::fs::FileType::Directory,
    };
    Some((fd, opened))
}

/// The seccomp architecture of this build, when seccompiler knows it.
pub fn seccomp_arch() -> Option<TargetArch> {
    TargetArch::try_from(std::env::consts::ARCH).ok()
}

/// System calls no declared command needs, which open the way out of a
/// sandbox or into the kernel: tracing other processes, mounting, new
/// namespaces, the kernel keyring, BPF, performance counters, kernel
/// modules, kexec, reboot, swap, handle-based opens, userfaultfd, io_uring
/// (whose operations bypass this filter).
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_open_by_handle_at,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_acct,
];

/// x86-64 only: port I/O.
#[cfg(target_arch = "x86_64")]
const DENIED_ARCH: &[libc::c_long] = &[libc::SYS_iopl, libc::SYS_ioperm];
#[cfg(not(target_arch = "x86_64"))]
const DENIED_ARCH: &[libc::c_long] = &[];

/// On x86-64 the same calls can be made through the x32 ABI: the number
/// with bit 30 set, and for a few calls a number of x32's own. Denied too,
/// in case the kernel has x32 turned on.
#[cfg(target_arch = "x86_64")]
const X32_BIT: libc::c_long = 0x4000_0000;
#[cfg(target_arch = "x86_64")]
const X32_ONLY: &[libc::c_long] = &[
    521, // ptrace
    528, // kexec_load
    539, // process_vm_readv
    540, // process_vm_writev
];

/// Socket families a command with `network: none` cannot open.
const NETWORK_FAMILIES: &[libc::c_int] = &[libc::AF_INET, libc::AF_INET6, libc::AF_PACKET];

/// `clone` flags that make new namespaces.
const NAMESPACE_FLAGS: &[libc::c_int] = &[
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWNS,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWCGROUP,
    0x0000_0080, // CLONE_NEWTIME
];

/// Every number a call can be made with on this architecture.
fn numbers(call: libc::c_long) -> Vec<i64> {
    #[cfg(target_arch = "x86_64")]
    {
        vec![call, call | X32_BIT]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        vec![call]
    }
}

/// The filters: one answering EPERM for the denied calls (and, without a
/// network, for network sockets), and one answering ENOSYS for `clone3`,
/// whose flags sit in memory a filter cannot read, so that the C library
/// falls back to `clone`, whose flags it can.
///
/// They depend only on whether the network is `none`, so each is compiled
/// once per process (a server runs many commands).
pub fn filters(network: &Network) -> Result<Vec<BpfProgram>, String> {
    static OFFLINE: OnceLock<Result<Vec<BpfProgram>, String>> = OnceLock::new();
    static ONLINE: OnceLock<Result<Vec<BpfProgram>, String>> = OnceLock::new();
    let offline = *network == Network::None;
    let cell = if offline { &OFFLINE } else { &ONLINE };
    cell.get_or_init(|| compile_filters(offline)).clone()
}

fn compile_filters(offline: bool) -> Result<Vec<BpfProgram>, String> {
    let arch = seccomp_arch().ok_or_else(|| {
        format!(
            "seccomp filters are not built for {}",
            std::env::consts::ARCH
        )
    })?;
    let failed = |err: seccompiler::BackendError| format!("seccomp: {err}");
    let mut denied: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for call in DENIED.iter().chain(DENIED_ARCH) {
        for number in numbers(*call) {
            denied.insert(number, Vec::new());
        }
    }
    #[cfg(target_arch = "x86_64")]
    for number in X32_ONLY {
        denied.insert(*number | X32_BIT, Vec::new());
    }
    let mut clone_rules = Vec::new();
    for flag in NAMESPACE_FLAGS {
        let flag = u64::try_from(*flag).unwrap_or_default();
        let condition = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(flag),
            flag,
        )
        .map_err(failed)?;
        clone_rules.push(SeccompRule::new(vec![condition]).map_err(failed)?);
    }
    for number in numbers(libc::SYS_clone) {
        denied.insert(number, clone_rules.clone());
    }
    if offline {
        let mut socket_rules = Vec::new();
        for family in NETWORK_FAMILIES {
            let family = u64::try_from(*family).unwrap_or_default();
            let condition =
                SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, family)
                    .map_err(failed)?;
            socket_rules.push(SeccompRule::new(vec![condition]).map_err(failed)?);
        }
        for number in numbers(libc::SYS_socket) {
            denied.insert(number, socket_rules.clone());
        }
    }
    let errno = |code: libc::c_int| SeccompAction::Errno(u32::try_from(code).unwrap_or(1));
    let eperm = SeccompFilter::new(denied, SeccompAction::Allow, errno(libc::EPERM), arch)
        .map_err(failed)?;
    let mut clone3 = BTreeMap::new();
    for number in numbers(libc::SYS_clone3) {
        clone3.insert(number, Vec::new());
    }
    let enosys = SeccompFilter::new(clone3, SeccompAction::Allow, errno(libc::ENOSYS), arch)
        .map_err(failed)?;
    let compile =
        |filter: SeccompFilter| -> Result<BpfProgram, String> { filter.try_into().map_err(failed) };
    Ok(vec![compile(eperm)?, compile(enosys)?])
}
