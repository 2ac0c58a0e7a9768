//! The kernel's side: the Landlock ruleset, the read-only view's binds and
//! the seccomp filters, built by aigent for the child to enter
//! ([`super::enforcer`]).

use std::collections::BTreeMap;
use std::ffi::CString;
use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, NetPort, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

use super::child::Bind;
use super::resolve::{Access as GrantAccess, Grant, Resolved};
use crate::contract::sandbox::Network;

const READ: [AccessFs; 3] = [AccessFs::Execute, AccessFs::ReadFile, AccessFs::ReadDir];
/// Beside reading: `ioctl` on devices below the grant (ABI 5), and
/// connecting to UNIX sockets below it (ABI 9).
const REACH: [AccessFs; 2] = [AccessFs::IoctlDev, AccessFs::ResolveUnix];
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

fn flags(rights: &[AccessFs]) -> BitFlags<AccessFs> {
    rights
        .iter()
        .fold(BitFlags::empty(), |all, right| all | *right)
}

/// What a grant's rule was made from: the file its path named when it was
/// opened, or `None` when it could not be opened (and was left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opened {
    pub dev: u64,
    pub ino: u64,
    pub kind: Kind,
}

/// What a grant names, as far as the view cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Directory,
    File,
    /// A device, FIFO or socket: writing one needs no writable mount.
    Special,
}

/// Each grant's [`Opened`], in the order of [`grants`].
pub type Signature = Vec<Option<Opened>>;

/// Every grant a ruleset is made of: the reads, the writes, the sockets.
pub fn grants(resolved: &Resolved) -> impl Iterator<Item = &Grant> {
    resolved
        .read
        .iter()
        .flatten()
        .chain(&resolved.write)
        .chain(&resolved.sockets)
}

/// What each grant names now, opened as [`ruleset`] opens it: a ruleset
/// made from `resolved` with this signature has the same rules.
pub fn signature(resolved: &Resolved) -> Signature {
    open_grants(resolved)
        .into_iter()
        .map(|opened| opened.map(|(_, opened)| opened))
        .collect()
}

/// The rights a grant's rule gives, before the handled set and the file
/// mask narrow them.
fn rights(access: GrantAccess) -> BitFlags<AccessFs> {
    match access {
        GrantAccess::Read => flags(&READ) | flags(&REACH),
        GrantAccess::Write => flags(&READ) | flags(&REACH) | flags(&WRITE),
        GrantAccess::Create => flags(&CREATE),
        GrantAccess::Socket => BitFlags::from(AccessFs::ResolveUnix),
    }
}

/// Each grant of [`grants`], opened for its rule; `None` when it cannot be
/// opened, or when its rule would add nothing: a directory granted above
/// it (or its own path, granted before) already gives every right it
/// asks, and a rule on a directory holds for everything below it. The
/// system's runtime repeats `/usr` below `/usr`, and `$CWD` is often
/// granted to read and to write; each rule left out is an `openat2`, two
/// `fstat`s, a `landlock_add_rule` and a `close` less per spawn. A grant is
/// left out only for a grant that was opened, so a directory that could
/// not be opened covers nothing.
fn open_grants(resolved: &Resolved) -> Vec<Option<(OwnedFd, Opened)>> {
    let all: Vec<&Grant> = grants(resolved).collect();
    // Outer paths first (fewer components cannot lie below more), and of
    // one path the grant with the most rights.
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by_key(|&index| {
        let grant = all[index];
        (
            grant.real.components().count(),
            std::cmp::Reverse(rights(grant.access).iter().count()),
            index,
        )
    });
    let mut slots: Vec<Option<(OwnedFd, Opened)>> = all.iter().map(|_| None).collect();
    let mut kept: Vec<usize> = Vec::new();
    for index in order {
        let grant = all[index];
        let wanted = rights(grant.access);
        let covered = kept.iter().any(|&outer| {
            let Some((_, opened)) = &slots[outer] else {
                return false;
            };
            let above = &all[outer].real;
            let mut given = rights(all[outer].access);
            let mut wanted = wanted;
            if opened.kind != Kind::Directory {
                // A file covers itself only, and of a file only its rights
                // count.
                if *above != grant.real {
                    return false;
                }
                given &= AccessFs::from_file(ABI::V10);
                wanted &= AccessFs::from_file(ABI::V10);
            }
            grant.real.starts_with(above) && (wanted & !given).is_empty()
        });
        if covered {
            continue;
        }
        slots[index] = open_beneath(grant);
        if slots[index].is_some() {
            kept.push(index);
        }
    }
    slots
}

/// The Landlock ruleset for `resolved`, and what its rules were made from.
/// Rights the kernel lacks are left out by the crate (best effort); the
/// caller has already decided, from the kernel's ABI, whether that is
/// acceptable.
pub fn ruleset(resolved: &Resolved, network: &Network) -> Result<(OwnedFd, Signature), String> {
    let mut handled = flags(&WRITE) | flags(&NEVER) | flags(&REACH);
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
    for (grant, opened) in grants(resolved).zip(open_grants(resolved)) {
        signature.push(opened.as_ref().map(|(_, opened)| *opened));
        let Some((fd, Opened { kind, .. })) = opened else {
            continue;
        };
        let mut allowed = rights(grant.access) & handled;
        if kind != Kind::Directory {
            allowed &= AccessFs::from_file(ABI::V10);
        }
        if allowed.is_empty() {
            continue;
        }
        created = created
            .add_rule(PathBeneath::new(fd, allowed))
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
    let fd: Option<OwnedFd> = created.into();
    let fd = fd.ok_or_else(|| "Landlock: the kernel made no ruleset".to_owned())?;
    Ok((fd, signature))
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
    let kind = match rustix::fs::FileType::from_raw_mode(stat.st_mode) {
        rustix::fs::FileType::Directory => Kind::Directory,
        rustix::fs::FileType::RegularFile => Kind::File,
        _ => Kind::Special,
    };
    let opened = Opened {
        dev: stat.st_dev,
        ino: stat.st_ino,
        kind,
    };
    Some((fd, opened))
}

/// Most binds one view makes; a run with more write grants than this
/// (after nested ones are folded into the grant above them) gets no view.
pub const MAX_BINDS: usize = 64;

/// What the view is made of.
pub enum Binds {
    /// These binds (see [`binds`]).
    Some(Vec<Bind>),
    /// `/` itself is a write grant: nothing is read-only, no view needed.
    Everything,
    /// More than [`MAX_BINDS`].
    TooMany,
}

/// The view's binds: every write grant that is a directory or a regular
/// file (a device, a FIFO or a socket can be written on a read-only
/// mount), with the file it must be; a grant below another is covered by
/// it.
pub fn binds(resolved: &Resolved, signature: &Signature) -> Binds {
    let mut kept: Vec<(&Grant, Opened)> = Vec::new();
    for (grant, opened) in grants(resolved).zip(signature) {
        let Some(opened) = opened else { continue };
        let writable = matches!(grant.access, GrantAccess::Write | GrantAccess::Create);
        if !writable || opened.kind == Kind::Special {
            continue;
        }
        kept.push((grant, *opened));
    }
    kept.sort_by(|a, b| a.0.real.cmp(&b.0.real));
    let mut binds: Vec<(&Grant, Opened)> = Vec::new();
    for (grant, opened) in kept {
        let covered = binds.iter().any(|(outer, outer_opened)| {
            outer_opened.kind == Kind::Directory && grant.real.starts_with(&outer.real)
        });
        if !covered {
            binds.push((grant, opened));
        }
    }
    if binds
        .iter()
        .any(|(grant, _)| grant.real == std::path::Path::new("/"))
    {
        return Binds::Everything;
    }
    if binds.len() > MAX_BINDS {
        return Binds::TooMany;
    }
    Binds::Some(
        binds
            .into_iter()
            .filter_map(|(grant, opened)| {
                Some(Bind {
                    path: CString::new(grant.real.as_os_str().as_bytes()).ok()?,
                    dev: opened.dev,
                    ino: opened.ino,
                })
            })
            .collect(),
    )
}

/// The working directory, as the child enters it again after its binds.
pub fn working_directory() -> Option<Bind> {
    let path = std::env::current_dir().ok()?;
    let stat = rustix::fs::stat(&path).ok()?;
    Some(Bind {
        path: CString::new(path.as_os_str().as_bytes()).ok()?,
        dev: stat.st_dev,
        ino: stat.st_ino,
    })
}

/// System calls no declared command needs, which open the way out of a
/// sandbox or into the kernel, and which no capability guards (so the
/// filter is what stops them): tracing other processes, the kernel
/// keyring, BPF, performance counters, userfaultfd, io_uring (whose
/// operations bypass this filter).
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
];

// Calls the child's empty capability sets already refuse are not in the
// filter (each needs a capability: mounting, chroot, kernel modules,
// kexec, reboot, swap, accounting, handle-based opens, port I/O): every
// entry there is walked by the kernel for each system call number when a
// filter is loaded, and the capability check is the kernel's own.
// docs/security.md lists them; the escape suite tries some.

/// Denied once the child is on its way to exec, which needed them for its
/// own view and session: new namespaces, and a new session or process
/// group (so that every process of a run stays in its group, and the
/// group's end is the run's end).
const DENIED_LATE: &[libc::c_long] = &[
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_setsid,
    libc::SYS_setpgid,
];

/// On x86-64 the same calls can be made through the x32 ABI: the number
/// with bit 30 set, and for a few calls a number of x32's own. Denied too
/// when the kernel runs x32 calls at all.
#[cfg(target_arch = "x86_64")]
const X32_BIT: libc::c_long = 0x4000_0000;
#[cfg(target_arch = "x86_64")]
const X32_ONLY: &[libc::c_long] = &[
    521, // ptrace
    539, // process_vm_readv
    540, // process_vm_writev
];

/// Terminal `ioctl`s that push input or act on the console: TIOCSTI types
/// into a terminal as if from its keyboard, TIOCLINUX pastes a selection.
const TERMINAL_INPUT: &[libc::c_ulong] = &[libc::TIOCSTI, libc::TIOCLINUX];

/// Calls that act on a process named by its first argument: allowed only
/// on the caller itself (0). A process naming itself by its own pid is
/// refused too: a filter compares with constants, and a pid is not one.
const SELF_ONLY: &[libc::c_long] = &[
    libc::SYS_prlimit64,
    libc::SYS_sched_setaffinity,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_setparam,
    libc::SYS_sched_setattr,
    libc::SYS_migrate_pages,
    libc::SYS_move_pages,
];

/// Every number a call can be made with on this architecture.
fn numbers(call: libc::c_long) -> Vec<i64> {
    #[cfg(target_arch = "x86_64")]
    {
        if super::kernel::x32_enabled() {
            return vec![call, call | X32_BIT];
        }
        vec![call]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        vec![call]
    }
}

/// The network a filter is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NetClass {
    None,
    Ports,
    Unrestricted,
}

/// What a set of filters depends on: the network, and whether UNIX
/// sockets may be made (Landlock ABI 9 confines them by path; before it
/// they are refused unless the declaration grants one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FilterKey {
    pub network: NetClass,
    pub unix: bool,
}

impl FilterKey {
    pub fn new(network: &Network, unix: bool) -> Self {
        Self {
            network: match network {
                Network::None => NetClass::None,
                Network::Ports { .. } => NetClass::Ports,
                Network::Unrestricted => NetClass::Unrestricted,
            },
            unix,
        }
    }
}

/// The filters of one [`FilterKey`]: `base` (everything but what the
/// child's own way to exec needs), `late` (that), `combined` (both in one
/// program, for a child that loads them all itself), and `clone3` (which
/// answers ENOSYS, so that the C library falls back to `clone`, whose
/// flags a filter can read).
#[derive(Debug, Default)]
pub struct FilterSet {
    pub base: Arc<Vec<libc::sock_filter>>,
    pub late: Arc<Vec<libc::sock_filter>>,
    pub combined: Arc<Vec<libc::sock_filter>>,
    pub clone3: Arc<Vec<libc::sock_filter>>,
}

/// The filters for `key`, compiled once per process (a server runs many
/// commands).
pub fn filters(key: FilterKey) -> Result<Arc<FilterSet>, String> {
    type Compiled = Vec<(FilterKey, Result<Arc<FilterSet>, String>)>;
    static COMPILED: OnceLock<Mutex<Compiled>> = OnceLock::new();
    let cell = COMPILED.get_or_init(|| Mutex::new(Vec::new()));
    let mut compiled = cell.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, set)) = compiled.iter().find(|(made, _)| *made == key) {
        return set.clone();
    }
    let set = compile(key).map(Arc::new);
    compiled.push((key, set.clone()));
    set
}

type Rules = BTreeMap<i64, Vec<SeccompRule>>;

fn compile(key: FilterKey) -> Result<FilterSet, String> {
    let arch = super::kernel::seccomp_arch().ok_or_else(|| {
        format!(
            "seccomp filters are not built for {}",
            std::env::consts::ARCH
        )
    })?;
    let base = base_rules(key)?;
    let late = late_rules()?;
    let mut combined = base.clone();
    for (number, rules) in late.clone() {
        merge(&mut combined, number, rules);
    }
    let program =
        |rules: Rules, action: libc::c_int| -> Result<Arc<Vec<libc::sock_filter>>, String> {
            let failed = |err: seccompiler::BackendError| format!("seccomp: {err}");
            let action = SeccompAction::Errno(u32::try_from(action).unwrap_or(1));
            let filter =
                SeccompFilter::new(rules, SeccompAction::Allow, action, arch).map_err(failed)?;
            let program: BpfProgram = filter.try_into().map_err(failed)?;
            Ok(Arc::new(
                program
                    .into_iter()
                    .map(|instruction| libc::sock_filter {
                        code: instruction.code,
                        jt: instruction.jt,
                        jf: instruction.jf,
                        k: instruction.k,
                    })
                    .collect(),
            ))
        };
    let mut clone3 = Rules::new();
    for number in numbers(libc::SYS_clone3) {
        clone3.insert(number, Vec::new());
    }
    Ok(FilterSet {
        base: program(base, libc::EPERM)?,
        late: program(late, libc::EPERM)?,
        combined: program(combined, libc::EPERM)?,
        clone3: program(clone3, libc::ENOSYS)?,
    })
}

/// Adds `rules` for `number`: an empty list denies the call whatever its
/// arguments, so it wins over any list of conditions.
fn merge(into: &mut Rules, number: i64, rules: Vec<SeccompRule>) {
    match into.get_mut(&number) {
        None => {
            into.insert(number, rules);
        }
        Some(existing) if existing.is_empty() => {}
        Some(existing) if rules.is_empty() => existing.clear(),
        Some(existing) => existing.extend(rules),
    }
}

fn condition(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, String> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value)
        .map_err(|err| format!("seccomp: {err}"))
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, String> {
    SeccompRule::new(conditions).map_err(|err| format!("seccomp: {err}"))
}

fn number_of(value: impl TryInto<u64>) -> u64 {
    value.try_into().unwrap_or(u64::MAX)
}

fn add(rules: &mut Rules, call: libc::c_long, entry: &[SeccompRule]) {
    for number in numbers(call) {
        merge(rules, number, entry.to_vec());
    }
}

fn base_rules(key: FilterKey) -> Result<Rules, String> {
    use SeccompCmpOp::{Eq, MaskedEq, Ne};
    let mut rules = Rules::new();
    for call in DENIED {
        add(&mut rules, *call, &[]);
    }
    #[cfg(target_arch = "x86_64")]
    if super::kernel::x32_enabled() {
        for number in X32_ONLY {
            rules.insert(*number | X32_BIT, Vec::new());
        }
    }
    // clone: no new user namespace. Every other namespace flag needs
    // CAP_SYS_ADMIN, which the child has nowhere without a user namespace
    // of its own, so the kernel refuses those itself (as it does mounting);
    // each rule here is walked by the kernel for every system call number
    // when the filter is loaded. The flag lies in the argument's low half.
    let user_namespace = number_of(libc::CLONE_NEWUSER);
    add(
        &mut rules,
        libc::SYS_clone,
        &[rule(vec![condition(
            0,
            MaskedEq(user_namespace),
            user_namespace,
        )?])?],
    );
    // ioctl: the command is an unsigned int; only its low 32 bits count,
    // so they are what is compared.
    let terminal: Vec<SeccompRule> = TERMINAL_INPUT
        .iter()
        .map(|command| rule(vec![condition(1, Eq, number_of(*command))?]))
        .collect::<Result<_, _>>()?;
    add(&mut rules, libc::SYS_ioctl, &terminal);
    // Calls on another process: only on the caller itself.
    let not_self = [rule(vec![condition(0, Ne, 0)?])?];
    for call in SELF_ONLY {
        add(&mut rules, *call, &not_self);
    }
    // setpriority(which, who): PRIO_PROCESS or PRIO_PGRP of the caller.
    let priority = [
        rule(vec![condition(1, Ne, 0)?])?,
        rule(vec![
            condition(0, Ne, number_of(libc::PRIO_PROCESS))?,
            condition(0, Ne, number_of(libc::PRIO_PGRP))?,
        ])?,
    ];
    add(&mut rules, libc::SYS_setpriority, &priority);
    // ioprio_set(which, who): IOPRIO_WHO_PROCESS (1) or _PGRP (2) of the
    // caller, never a user's every process.
    let io_priority = [
        rule(vec![condition(1, Ne, 0)?])?,
        rule(vec![condition(0, Ne, 1)?, condition(0, Ne, 2)?])?,
    ];
    add(&mut rules, libc::SYS_ioprio_set, &io_priority);
    // Sockets: the same families whatever the uid.
    let unix = number_of(libc::AF_UNIX);
    let socket_type = |kind: libc::c_int| condition(1, MaskedEq(0xf), number_of(kind));
    let mut socket = Vec::new();
    match key.network {
        NetClass::None => {
            if key.unix {
                socket.push(rule(vec![condition(0, Ne, unix)?])?);
            }
        }
        NetClass::Ports => {
            let mut other = vec![
                condition(0, Ne, number_of(libc::AF_INET))?,
                condition(0, Ne, number_of(libc::AF_INET6))?,
            ];
            if key.unix {
                other.push(condition(0, Ne, unix)?);
            }
            socket.push(rule(other)?);
            socket.push(rule(vec![socket_type(libc::SOCK_RAW)?])?);
            // SOCK_PACKET: the old way to a packet socket.
            socket.push(rule(vec![socket_type(10)?])?);
            socket.push(rule(vec![
                condition(0, Eq, number_of(libc::AF_INET))?,
                condition(2, Eq, number_of(libc::IPPROTO_ICMP))?,
            ])?);
            socket.push(rule(vec![
                condition(0, Eq, number_of(libc::AF_INET6))?,
                condition(2, Eq, number_of(libc::IPPROTO_ICMPV6))?,
            ])?);
        }
        NetClass::Unrestricted => {
            if !key.unix {
                socket.push(rule(vec![condition(0, Eq, unix)?])?);
            }
        }
    }
    let socket_denied_always = key.network == NetClass::None && !key.unix;
    if socket_denied_always {
        add(&mut rules, libc::SYS_socket, &[]);
    } else if !socket.is_empty() {
        add(&mut rules, libc::SYS_socket, &socket);
    }
    // socketpair: UNIX only; without path rules, no datagram pair either
    // (a datagram can be addressed to any socket's path).
    let mut pair = vec![rule(vec![condition(0, Ne, unix)?])?];
    if !key.unix {
        pair.push(rule(vec![socket_type(libc::SOCK_DGRAM)?])?);
    }
    add(&mut rules, libc::SYS_socketpair, &pair);
    Ok(rules)
}

fn late_rules() -> Result<Rules, String> {
    let mut rules = Rules::new();
    for call in DENIED_LATE {
        add(&mut rules, *call, &[]);
    }
    // A controlling terminal, once the child has its session.
    let control = [rule(vec![condition(
        1,
        SeccompCmpOp::Eq,
        number_of(libc::TIOCSCTTY),
    )?])?];
    add(&mut rules, libc::SYS_ioctl, &control);
    Ok(rules)
}

/// Loads `filters` on the calling thread, with `no_new_privs` (which
/// seccomp asks of an unprivileged caller). Every process the thread
/// creates inherits them.
pub fn load_on_thread(filters: &[&[libc::sock_filter]]) -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } < 0 {
        return Err(io::Error::last_os_error());
    }
    for filter in filters {
        let program = libc::sock_fprog {
            len: u16::try_from(filter.len()).unwrap_or(u16::MAX),
            filter: filter.as_ptr().cast_mut(),
        };
        // SAFETY: a filter program that lives for the call.
        let loaded = unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                0 as libc::c_uint,
                &raw const program,
            )
        };
        if loaded < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Whether `fd` is open in aigent without close-on-exec: only such a
/// descriptor (one aigent inherited, never one it opened itself, as Rust
/// opens everything close-on-exec) may be passed to a child.
pub fn inherited(fd: RawFd) -> bool {
    // SAFETY: F_GETFD on a number; the kernel answers EBADF when it is not
    // a descriptor.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    if fd <= 2 || flags < 0 {
        return false;
    }
    // The binary marks what it inherited close-on-exec first thing, and
    // says which numbers those were.
    match INHERITED.get() {
        Some(numbers) => numbers.contains(&fd),
        None => flags & libc::FD_CLOEXEC == 0,
    }
}

/// The descriptors above 2 the process inherited, as its start found them.
static INHERITED: std::sync::OnceLock<Vec<RawFd>> = std::sync::OnceLock::new();

/// Records the descriptors the process inherited (before it marked them
/// close-on-exec), for `pass_fds`.
pub fn remember_inherited(numbers: Vec<RawFd>) {
    let _ = INHERITED.set(numbers);
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::Support;
    use super::*;

    fn grant(real: &std::path::Path, access: GrantAccess) -> Grant {
        Grant {
            grant: "g".to_owned(),
            path: real.display().to_string(),
            access,
            real: real.to_owned(),
        }
    }

    /// A rule is made for each grant that adds a right: one below a
    /// directory granted at least as much is left out (its signature entry
    /// is `None`, as for a path that cannot be opened); one that asks more
    /// is kept.
    #[test]
    fn grants_covered_by_a_directory_above_make_no_rule() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let sub = root.join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("file"), "x").unwrap();
        let missing = root.join("missing");
        let resolved = Resolved {
            read: Some(vec![
                grant(&root, GrantAccess::Read),
                grant(&sub, GrantAccess::Read),
                grant(&sub.join("file"), GrantAccess::Read),
                grant(&missing, GrantAccess::Read),
            ]),
            write: vec![
                grant(&sub, GrantAccess::Write),
                grant(&sub, GrantAccess::Create),
                grant(&sub.join("file"), GrantAccess::Write),
                grant(Path::new("/dev/null"), GrantAccess::Write),
            ],
            sockets: vec![grant(&root, GrantAccess::Socket)],
            skipped: Vec::new(),
        };
        let kept: Vec<bool> = signature(&resolved).iter().map(Option::is_some).collect();
        assert_eq!(
            kept,
            [
                true,  // root, read
                false, // sub, read: below root's read
                false, // sub/file, read
                false, // missing: cannot be opened
                true,  // sub, write: more than root's read
                false, // sub, create: below sub's write
                false, // sub/file, write: below sub's write
                true,  // /dev/null, write
                false, // root, socket: root's read reaches sockets
            ]
        );
        // The ruleset is made from the same list.
        if Support::current().landlock_abi >= Support::FS_ABI {
            let (_, made) = ruleset(&resolved, &Network::None).unwrap();
            assert_eq!(made, signature(&resolved));
        }
    }

    /// Of one file granted twice, the grant with fewer rights makes no rule;
    /// a file covers nothing below it but itself.
    #[test]
    fn a_file_covers_itself_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().canonicalize().unwrap().join("file");
        std::fs::write(&file, "x").unwrap();
        let resolved = Resolved {
            read: Some(vec![grant(&file, GrantAccess::Read)]),
            write: vec![grant(&file, GrantAccess::Write)],
            sockets: Vec::new(),
            skipped: Vec::new(),
        };
        let kept: Vec<bool> = signature(&resolved).iter().map(Option::is_some).collect();
        assert_eq!(kept, [false, true]);
    }
}
