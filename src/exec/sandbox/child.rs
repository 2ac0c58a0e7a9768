//! The spawn of a sandboxed child, and what the child does before `exec`.
//!
//! aigent clones itself as `posix_spawn` does (`CLONE_VM | CLONE_VFORK`: no
//! page table is copied, and the calling thread waits until the child has
//! exec'd or died), and the child, on a stack of its own, enters the
//! sandbox step by step before it runs a single instruction of the
//! program. The order is the kernel's: mounts must come before Landlock and
//! seccomp (both forbid them), `RLIMIT_NPROC` after the user namespace (so
//! that it counts the run's processes only), capabilities are dropped
//! before `no_new_privs`, and the filters come last.
//!
//! 1. signal handlers back to their defaults (a handler of aigent's must
//!    never run in a child that shares aigent's memory);
//! 2. the pids cgroup, where one is used (root);
//! 3. the mount view: a user namespace when aigent is not root, a mount
//!    namespace, every write grant cloned, everything made read-only, the
//!    clones put back on top ([`View`]);
//! 4. a new session (`setsid`): no controlling terminal, unless a pty of
//!    aigent's is made one;
//! 5. stdin, stdout and stderr;
//! 6. resource limits;
//! 7. every descriptor but 0, 1, 2 (and the declared ones) closed on exec;
//! 8. capabilities: bounding set, securebits, ambient, effective,
//!    permitted, inheritable all emptied;
//! 9. `no_new_privs`, the Landlock ruleset, the seccomp filters;
//! 10. `execve` of each place the program may be, as `execvp` tries them.
//!
//! The child runs no allocation, no lock and no unwinding: every path,
//! argument and number is made by the parent beforehand, and the child
//! only makes system calls. A failed step is written, with its `errno`,
//! into memory the parent reads once the clone returns; the child then
//! exits and nothing of the program has run.

use std::ffi::{CStr, CString, OsStr, c_char, c_int, c_void};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

/// One step of the child's way to `exec`, as a failure names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Step {
    None = 0,
    Cgroup,
    UserNamespace,
    MountNamespace,
    Bind,
    ReadOnly,
    Session,
    Terminal,
    Stdio,
    Limits,
    Descriptors,
    Capabilities,
    NoNewPrivs,
    Landlock,
    Seccomp,
    Exec,
}

impl Step {
    fn from_raw(raw: u32) -> Self {
        [
            Self::None,
            Self::Cgroup,
            Self::UserNamespace,
            Self::MountNamespace,
            Self::Bind,
            Self::ReadOnly,
            Self::Session,
            Self::Terminal,
            Self::Stdio,
            Self::Limits,
            Self::Descriptors,
            Self::Capabilities,
            Self::NoNewPrivs,
            Self::Landlock,
            Self::Seccomp,
            Self::Exec,
        ]
        .get(raw as usize)
        .copied()
        .unwrap_or(Self::None)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Self::None => "nothing",
            Self::Cgroup => "joining the run's pids cgroup",
            Self::UserNamespace => "the user namespace of the mount view",
            Self::MountNamespace => "the mount namespace of the read-only view",
            Self::Bind => "a writable bind of a write grant",
            Self::ReadOnly => "making the view read-only",
            Self::Session => "a new session",
            Self::Terminal => "the pty as the controlling terminal",
            Self::Stdio => "stdin, stdout and stderr",
            Self::Limits => "the resource limits",
            Self::Descriptors => "closing inherited descriptors",
            Self::Capabilities => "dropping capabilities",
            Self::NoNewPrivs => "no_new_privs",
            Self::Landlock => "the Landlock ruleset",
            Self::Seccomp => "the seccomp filters",
            Self::Exec => "exec",
        }
    }
}

/// The program, as `execve` wants it: each place it may be (`execvp`'s
/// search done by the parent, so that the child allocates nothing), and
/// the argument and environment vectors.
pub struct Program {
    candidates: Vec<CString>,
    argv: Vec<CString>,
    /// Owns the strings `envp_ptrs` points into.
    #[allow(dead_code)]
    envp: Vec<CString>,
    argv_ptrs: Vec<*const c_char>,
    envp_ptrs: Vec<*const c_char>,
}

// SAFETY: the raw pointers point into the CStrings owned by the same value,
// which move with it; nothing else refers to them.
unsafe impl Send for Program {}

impl Program {
    /// `program` with `args` and the environment `env`, looked up on `path`
    /// (the child's `PATH`) unless it holds a `/`. Relative `PATH` entries
    /// are skipped: a program is never found in whatever directory the
    /// child happens to run in.
    pub fn new<'a>(
        program: &'a str,
        args: impl IntoIterator<Item = &'a str>,
        env: impl IntoIterator<Item = (&'a str, &'a OsStr)>,
        path: Option<&OsStr>,
    ) -> io::Result<Self> {
        let text = |value: &[u8]| {
            CString::new(value).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "an argument or variable holds a NUL byte",
                )
            })
        };
        let candidates = if program.contains('/') {
            vec![text(program.as_bytes())?]
        } else {
            let path = path.map_or(&b"/usr/local/bin:/usr/bin:/bin"[..], OsStr::as_bytes);
            let mut found = Vec::new();
            for dir in path.split(|byte| *byte == b':') {
                if dir.first() == Some(&b'/') {
                    let mut full = dir.to_vec();
                    while full.len() > 1 && full.last() == Some(&b'/') {
                        full.pop();
                    }
                    full.push(b'/');
                    full.extend_from_slice(program.as_bytes());
                    found.push(text(&full)?);
                }
            }
            found
        };
        let argv = std::iter::once(program)
            .chain(args)
            .map(|arg| text(arg.as_bytes()))
            .collect::<io::Result<Vec<_>>>()?;
        let envp = env
            .into_iter()
            .map(|(name, value)| {
                let mut pair = name.as_bytes().to_vec();
                pair.push(b'=');
                pair.extend_from_slice(value.as_bytes());
                text(&pair)
            })
            .collect::<io::Result<Vec<_>>>()?;
        let pointers = |strings: &[CString]| {
            strings
                .iter()
                .map(|string| string.as_ptr())
                .chain(std::iter::once(std::ptr::null()))
                .collect()
        };
        Ok(Self {
            argv_ptrs: pointers(&argv),
            envp_ptrs: pointers(&envp),
            candidates,
            argv,
            envp,
        })
    }

    pub fn name(&self) -> &str {
        self.argv
            .first()
            .and_then(|name| name.to_str().ok())
            .unwrap_or("")
    }
}

/// Where the child's stdin comes from.
pub enum Stdin {
    /// aigent's own.
    Inherit,
    /// `/dev/null`, opened by the child inside its view (a descriptor
    /// opened by aigent would lead, through `/proc/self/fd`, to a mount
    /// outside the view).
    Null,
    /// This descriptor (a pty).
    Fd(OwnedFd),
}

/// The child's standard streams; `None` for stdout or stderr is aigent's
/// own.
pub struct Stdio {
    pub stdin: Stdin,
    pub stdout: Option<OwnedFd>,
    pub stderr: Option<OwnedFd>,
    /// A pty slave the child makes its controlling terminal.
    pub terminal: Option<OwnedFd>,
}

impl Stdio {
    pub fn inherit() -> Self {
        Self {
            stdin: Stdin::Inherit,
            stdout: None,
            stderr: None,
            terminal: None,
        }
    }
}

/// A write grant of the view: the path the child opens in its own mount
/// namespace, and the file it must be (device and inode, as the parent
/// opened it for Landlock), so that a path swapped in between is refused.
pub struct Bind {
    pub path: CString,
    pub dev: u64,
    pub ino: u64,
}

/// The read-only view with writable binds.
pub struct View {
    /// Not root: a user namespace first, mapping the caller's own uid and
    /// gid (these lines, written to `/proc/self/{uid,gid}_map`).
    pub user_namespace: Option<(CString, CString)>,
    pub binds: Vec<Bind>,
    /// The working directory, entered again once the binds are made: a
    /// bind on the directory the child is in covers it, and the child
    /// would otherwise go on in the read-only copy underneath.
    pub cwd: Option<Bind>,
    /// `--sandbox require`: a view that cannot be made stops the spawn;
    /// best-effort goes on without it (and says so), as long as nothing
    /// was made read-only yet.
    pub required: bool,
}

/// Everything the child enters, made by the parent.
pub struct Entry {
    pub ruleset: Option<OwnedFd>,
    /// seccomp programs, loaded in this order.
    pub filters: Vec<std::sync::Arc<Vec<libc::sock_filter>>>,
    pub view: Option<View>,
    /// `(resource, limit)`: soft and hard.
    pub limits: Vec<(c_int, u64)>,
    /// `cgroup.procs` of the run's pids cgroup, open for writing.
    pub cgroup: Option<OwnedFd>,
    /// Descriptors above 2 that the child keeps.
    pub pass_fds: Vec<RawFd>,
    /// The highest capability number the kernel knows.
    pub last_cap: u32,
    /// A new session (every sandboxed child; `--sandbox off` keeps the old
    /// process group).
    pub new_session: bool,
}

/// What the child reports: the step that failed and its `errno`, and
/// (best-effort) why the view could not be made.
#[derive(Default)]
struct Report {
    step: AtomicU32,
    errno: AtomicI32,
    view_errno: AtomicI32,
    view_step: AtomicU32,
}

/// What the child reads: pointers into values the parent keeps alive and
/// unmoved until the clone returns.
struct Shared<'a> {
    program: &'a Program,
    entry: &'a Entry,
    stdio: &'a Stdio,
    fprogs: &'a [libc::sock_fprog],
    report: &'a Report,
}

/// The spawned child, and the view's fate.
#[derive(Debug)]
pub struct Spawned {
    pub pid: u32,
    /// Best-effort: the view could not be made, and why.
    pub view_failed: Option<String>,
}

const STACK: usize = 256 * 1024;

/// Spawns `program`, entering `entry` on the way, with `stdio`. Returns
/// once the child has exec'd (or failed, and been reaped). A spawn that
/// fails because the system is out of processes or namespaces for a
/// moment is tried again a few times, a little later each time, as bash
/// does for `fork`; nothing ran in a failed attempt.
pub fn spawn(program: &Program, entry: &Entry, stdio: &Stdio) -> io::Result<Spawned> {
    if program.candidates.is_empty() {
        return Err(io::Error::from_raw_os_error(libc::ENOENT));
    }
    with_retries(|| spawn_once(program, entry, stdio), std::thread::sleep)
}

/// Why an attempt to spawn failed.
enum Failure {
    /// Out of a resource another process may give back soon.
    Transient(io::Error),
    Final(io::Error),
}

/// The pauses before each new attempt: 31 ms in all.
const RETRY_PAUSES_MS: [u64; 5] = [1, 2, 4, 8, 16];

fn with_retries<T>(
    mut attempt: impl FnMut() -> Result<T, Failure>,
    pause: impl Fn(std::time::Duration),
) -> io::Result<T> {
    let mut pauses = RETRY_PAUSES_MS.iter();
    loop {
        match attempt() {
            Ok(done) => return Ok(done),
            Err(Failure::Final(error)) => return Err(error),
            Err(Failure::Transient(error)) => match pauses.next() {
                Some(&millis) => pause(std::time::Duration::from_millis(millis)),
                None => return Err(error),
            },
        }
    }
}

/// Whether `errno` at `step` is the system out of processes (`EAGAIN`:
/// `clone`, or `execve` over `RLIMIT_NPROC`) or of user namespaces
/// (`ENOSPC`, `EUSERS`) for the moment.
fn transient(step: Step, errno: i32) -> bool {
    errno == libc::EAGAIN
        || (matches!(step, Step::UserNamespace | Step::MountNamespace)
            && matches!(errno, libc::ENOSPC | libc::EUSERS))
}

fn spawn_once(program: &Program, entry: &Entry, stdio: &Stdio) -> Result<Spawned, Failure> {
    let fprogs: Vec<libc::sock_fprog> = entry
        .filters
        .iter()
        .map(|filter| libc::sock_fprog {
            len: u16::try_from(filter.len()).unwrap_or(u16::MAX),
            filter: filter.as_ptr().cast_mut(),
        })
        .collect();
    let report = Report::default();
    let shared = Shared {
        program,
        entry,
        stdio,
        fprogs: &fprogs,
        report: &report,
    };
    let stack = Stack::new().map_err(Failure::Final)?;
    // Every signal stays blocked from here until the child has reset its
    // handlers; the child gets an empty mask just before exec.
    let previous = block_all_signals();
    // SAFETY: `child` only makes system calls on data that `shared` refers
    // to, which lives on this frame until clone returns (CLONE_VFORK: the
    // child has exec'd or exited by then); its stack is `stack`, mapped
    // for it with a guard page below.
    let pid = unsafe {
        libc::clone(
            child,
            stack.top(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            std::ptr::from_ref(&shared).cast_mut().cast::<c_void>(),
        )
    };
    let cloned = io::Error::last_os_error();
    restore_signals(&previous);
    drop(stack);
    if pid < 0 {
        return Err(match cloned.raw_os_error() {
            Some(libc::EAGAIN) => Failure::Transient(cloned),
            _ => Failure::Final(cloned),
        });
    }
    let step = Step::from_raw(report.step.load(Ordering::SeqCst));
    if step != Step::None {
        let errno = report.errno.load(Ordering::SeqCst);
        reap(pid);
        let error = io::Error::from_raw_os_error(errno);
        let error = match step {
            Step::Exec => error,
            _ => io::Error::other(format!(
                "the sandbox could not be entered ({}): {error}",
                step.describe()
            )),
        };
        return Err(if transient(step, errno) {
            Failure::Transient(error)
        } else {
            Failure::Final(error)
        });
    }
    let view_failed = match report.view_errno.load(Ordering::SeqCst) {
        0 => None,
        errno => Some(format!(
            "{}: {}",
            Step::from_raw(report.view_step.load(Ordering::SeqCst)).describe(),
            io::Error::from_raw_os_error(errno)
        )),
    };
    Ok(Spawned {
        pid: u32::try_from(pid).unwrap_or(0),
        view_failed,
    })
}

/// Reaps a child that failed before exec.
fn reap(pid: c_int) {
    let mut status = 0;
    // SAFETY: waits for our own child; `status` is a live local.
    while unsafe { libc::waitpid(pid, &raw mut status, 0) } < 0
        && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
    {}
}

/// The child's stack: mapped for one spawn, with a guard page below it.
struct Stack {
    base: *mut c_void,
    size: usize,
}

impl Stack {
    fn new() -> io::Result<Self> {
        let guard = 4096;
        let size = STACK + guard;
        // SAFETY: an anonymous private mapping; nothing else refers to it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the first page of the mapping just made.
        unsafe { libc::mprotect(base, guard, libc::PROT_NONE) };
        Ok(Self { base, size })
    }

    fn top(&self) -> *mut c_void {
        // SAFETY: one past the end of the mapping, where a downward stack
        // starts.
        unsafe { self.base.cast::<u8>().add(self.size).cast() }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`; the child no longer runs on it
        // (it has exec'd or exited when clone returns).
        unsafe { libc::munmap(self.base, self.size) };
    }
}

fn block_all_signals() -> libc::sigset_t {
    // SAFETY: zeroed sigset_t values are valid storage; sigfillset and
    // pthread_sigmask write only into them.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut previous: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&raw mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const all, &raw mut previous);
        previous
    }
}

fn restore_signals(previous: &libc::sigset_t) {
    // SAFETY: restores the mask read by `block_all_signals`.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, previous, std::ptr::null_mut());
    }
}

// ---------------------------------------------------------------------------
// The child. Everything below runs in the clone, before exec: system calls
// only, on data the parent made.

/// The last error of a system call, read without allocating.
fn errno() -> c_int {
    // SAFETY: the calling thread's errno slot (the child shares the
    // parent's thread pointer; the parent thread is suspended meanwhile,
    // as in glibc's posix_spawn).
    unsafe { *libc::__errno_location() }
}

/// Records `step` as failed and ends the child.
fn fail(report: &Report, step: Step, errno: c_int) -> ! {
    report.errno.store(errno, Ordering::SeqCst);
    report.step.store(step as u32, Ordering::SeqCst);
    // SAFETY: ends the child without running anything of the parent's
    // (no atexit handlers, no flushing of shared buffers).
    unsafe { libc::_exit(127) }
}

extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the `Shared` on the parent's suspended frame.
    let shared = unsafe { &*arg.cast::<Shared<'_>>() };
    run_child(shared)
}

fn run_child(shared: &Shared<'_>) -> ! {
    let entry = shared.entry;
    let report = shared.report;
    reset_signal_handlers();
    if let Some(cgroup) = &entry.cgroup {
        // SAFETY: writes two bytes from a static string to an open fd.
        if unsafe { libc::write(cgroup.as_raw_fd(), c"0".as_ptr().cast(), 1) } != 1 {
            fail(report, Step::Cgroup, errno());
        }
    }
    if let Some(view) = &entry.view {
        enter_view(view, report);
    }
    if entry.new_session {
        // SAFETY: no arguments.
        if unsafe { libc::setsid() } < 0 {
            fail(report, Step::Session, errno());
        }
    }
    set_stdio(shared.stdio, report);
    for &(resource, limit) in &entry.limits {
        let value = libc::rlimit64 {
            rlim_cur: limit,
            rlim_max: limit,
        };
        // SAFETY: pid 0 (this process); `value` is a live local.
        let set = unsafe {
            libc::syscall(
                libc::SYS_prlimit64,
                0,
                resource,
                &raw const value,
                std::ptr::null_mut::<libc::rlimit64>(),
            )
        };
        if set < 0 {
            fail(report, Step::Limits, errno());
        }
    }
    close_descriptors(entry, report);
    drop_capabilities(entry.last_cap, report);
    // SAFETY: prctl with integer arguments.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } < 0 {
        fail(report, Step::NoNewPrivs, errno());
    }
    if let Some(ruleset) = &entry.ruleset {
        // SAFETY: a Landlock ruleset descriptor and no flags.
        let restricted = unsafe {
            libc::syscall(
                libc::SYS_landlock_restrict_self,
                ruleset.as_raw_fd(),
                0 as libc::c_uint,
            )
        };
        if restricted < 0 {
            fail(report, Step::Landlock, errno());
        }
    }
    for fprog in shared.fprogs {
        // SAFETY: a filter program the parent built and keeps alive.
        let loaded = unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                0 as libc::c_uint,
                std::ptr::from_ref(fprog),
            )
        };
        if loaded < 0 {
            fail(report, Step::Seccomp, errno());
        }
    }
    // SAFETY: an empty set, then the mask replaced by it.
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &raw const empty, std::ptr::null_mut());
    }
    exec(shared.program, report)
}

/// Handlers of aigent's go back to the default (the child has its own copy
/// of the table since the clone, so this is exact); an ignored signal stays
/// ignored across exec, as POSIX has it, except SIGPIPE and SIGXFSZ, which
/// aigent itself ignores and a program expects at their default.
fn reset_signal_handlers() {
    for signal in 1..=libc::SIGRTMAX() {
        if signal == libc::SIGKILL || signal == libc::SIGSTOP {
            continue;
        }
        // SAFETY: a zeroed sigaction is valid storage; reading the action
        // of a signal number writes only into it.
        let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
        if unsafe { libc::sigaction(signal, std::ptr::null(), &raw mut current) } < 0 {
            continue;
        }
        let ignored = current.sa_sigaction == libc::SIG_IGN;
        let default = current.sa_sigaction == libc::SIG_DFL;
        if default || (ignored && signal != libc::SIGPIPE && signal != libc::SIGXFSZ) {
            continue;
        }
        // SAFETY: as above; SIG_DFL with an empty mask.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(signal, &raw const action, std::ptr::null_mut());
        }
    }
}

fn write_file(path: &CStr, text: &CStr) -> Result<(), c_int> {
    // SAFETY: opens a NUL-terminated path; writes from a live CString.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(errno());
        }
        let bytes = text.to_bytes();
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        let error = errno();
        libc::close(fd);
        if usize::try_from(written).ok() == Some(bytes.len()) {
            Ok(())
        } else {
            Err(if written < 0 { error } else { libc::EIO })
        }
    }
}

/// The mount view: see [`View`]. A failure before anything was made
/// read-only leaves the child as it was, and best-effort goes on without
/// the view; after that, the child stops.
fn enter_view(view: &View, report: &Report) {
    let optional = |step: Step, errno: c_int| {
        if view.required {
            fail(report, step, errno);
        }
        report.view_errno.store(errno, Ordering::SeqCst);
        report.view_step.store(step as u32, Ordering::SeqCst);
    };
    if let Some((uid_map, gid_map)) = &view.user_namespace {
        // SAFETY: unshare with flags only.
        if unsafe { libc::unshare(libc::CLONE_NEWUSER) } < 0 {
            return optional(Step::UserNamespace, errno());
        }
        // Static paths: the child allocates nothing.
        let mapped = write_file(c"/proc/self/setgroups", c"deny")
            .and_then(|()| write_file(c"/proc/self/uid_map", uid_map))
            .and_then(|()| write_file(c"/proc/self/gid_map", gid_map));
        if let Err(errno) = mapped {
            // A user namespace without a mapping is harmless but useless;
            // the child is past the point where it could leave it.
            fail(report, Step::UserNamespace, errno);
        }
    }
    // SAFETY: unshare with flags only; mount with a static path and no data.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNS) < 0 {
            return optional(Step::MountNamespace, errno());
        }
        if libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_SLAVE,
            std::ptr::null(),
        ) < 0
        {
            return optional(Step::MountNamespace, errno());
        }
    }
    // Each write grant, opened in this namespace without following a link,
    // checked to be the file the parent granted, and cloned (with the
    // mounts below it) before anything is read-only.
    const MAX_BINDS: usize = 64;
    let mut clones = [(-1 as c_int, -1 as c_int); MAX_BINDS];
    let count = view.binds.len().min(MAX_BINDS);
    for (index, bind) in view.binds.iter().take(count).enumerate() {
        let target = match open_verified(bind) {
            Ok(fd) => fd,
            Err(errno) => return optional(Step::Bind, errno),
        };
        // SAFETY: clones the tree at an O_PATH descriptor of this namespace.
        let clone = unsafe {
            libc::syscall(
                libc::SYS_open_tree,
                target,
                c"".as_ptr(),
                (libc::OPEN_TREE_CLONE | libc::OPEN_TREE_CLOEXEC) as libc::c_uint
                    | libc::AT_EMPTY_PATH as libc::c_uint
                    | libc::AT_RECURSIVE as libc::c_uint,
            )
        };
        if clone < 0 {
            return optional(Step::Bind, errno());
        }
        clones[index] = (target, c_int::try_from(clone).unwrap_or(-1));
    }
    let read_only = libc::mount_attr {
        attr_set: libc::MOUNT_ATTR_RDONLY,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: `read_only` is a live local of the size passed.
    let set = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &raw const read_only,
            std::mem::size_of::<libc::mount_attr>(),
        )
    };
    if set < 0 {
        return optional(Step::ReadOnly, errno());
    }
    // From here on the view is half made: a failure stops the child.
    for &(target, clone) in clones.iter().take(count) {
        // SAFETY: moves a detached clone onto a descriptor of this namespace.
        let moved = unsafe {
            libc::syscall(
                libc::SYS_move_mount,
                clone,
                c"".as_ptr(),
                target,
                c"".as_ptr(),
                (libc::MOVE_MOUNT_F_EMPTY_PATH | libc::MOVE_MOUNT_T_EMPTY_PATH) as libc::c_uint,
            )
        };
        if moved < 0 {
            fail(report, Step::Bind, errno());
        }
        // SAFETY: descriptors this function opened.
        unsafe {
            libc::close(clone);
            libc::close(target);
        }
    }
    if let Some(cwd) = &view.cwd {
        let fd = match open_verified(cwd) {
            Ok(fd) => fd,
            Err(errno) => fail(report, Step::Bind, errno),
        };
        // SAFETY: our descriptor of a directory.
        unsafe {
            if libc::fchdir(fd) < 0 {
                fail(report, Step::Bind, errno());
            }
            libc::close(fd);
        }
    }
}

/// Opens a bind's path with no symbolic link followed, and checks that it
/// is the file the parent granted.
fn open_verified(bind: &Bind) -> Result<c_int, c_int> {
    // SAFETY: open_how is plain data; zero is "no flags".
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = (libc::O_PATH | libc::O_CLOEXEC) as u64;
    how.resolve = libc::RESOLVE_NO_SYMLINKS | libc::RESOLVE_NO_MAGICLINKS;
    // SAFETY: a NUL-terminated path and a live open_how of the size passed.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            libc::AT_FDCWD,
            bind.path.as_ptr(),
            &raw const how,
            std::mem::size_of::<libc::open_how>(),
        )
    };
    let fd = c_int::try_from(fd).unwrap_or(-1);
    if fd < 0 {
        return Err(errno());
    }
    // SAFETY: a zeroed stat is valid storage for fstat on our descriptor.
    let mut stat: libc::stat64 = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat64(fd, &raw mut stat) } < 0 {
        return Err(errno());
    }
    if stat.st_dev != bind.dev || stat.st_ino != bind.ino {
        // SAFETY: our descriptor.
        unsafe { libc::close(fd) };
        return Err(libc::ESTALE);
    }
    Ok(fd)
}

fn set_stdio(stdio: &Stdio, report: &Report) {
    // SAFETY: dup2, ioctl, open and fcntl on descriptors the parent made
    // (or the child opens here) and a static path.
    unsafe {
        if let Some(terminal) = &stdio.terminal
            && libc::ioctl(terminal.as_raw_fd(), libc::TIOCSCTTY, 0) < 0
        {
            fail(report, Step::Terminal, errno());
        }
        let stdin = match &stdio.stdin {
            Stdin::Inherit => None,
            Stdin::Null => {
                let fd = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
                if fd < 0 {
                    fail(report, Step::Stdio, errno());
                }
                Some(fd)
            }
            Stdin::Fd(fd) => Some(fd.as_raw_fd()),
        };
        let streams = [
            (stdin, 0),
            (stdio.stdout.as_ref().map(AsRawFd::as_raw_fd), 1),
            (stdio.stderr.as_ref().map(AsRawFd::as_raw_fd), 2),
        ];
        for (from, to) in streams {
            let Some(from) = from else { continue };
            // dup2 onto itself would leave close-on-exec set.
            let done = if from == to {
                libc::fcntl(to, libc::F_SETFD, 0)
            } else {
                libc::dup2(from, to)
            };
            if done < 0 {
                fail(report, Step::Stdio, errno());
            }
        }
    }
}

/// Every descriptor above 2 is closed on exec, but those the declaration
/// passes (which the parent checked were inherited by aigent, not opened
/// by it).
fn close_descriptors(entry: &Entry, report: &Report) {
    // SAFETY: close_range and fcntl with integer arguments.
    unsafe {
        let marked = libc::syscall(
            libc::SYS_close_range,
            3 as libc::c_uint,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
        if marked < 0 {
            if errno() != libc::ENOSYS && errno() != libc::EINVAL {
                fail(report, Step::Descriptors, errno());
            }
            // Before Linux 5.11: one by one, up to the descriptor limit.
            let mut limit: libc::rlimit = std::mem::zeroed();
            libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit);
            let top = c_int::try_from(limit.rlim_cur.min(65_536)).unwrap_or(65_536);
            for fd in 3..top {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
        for &fd in &entry.pass_fds {
            if libc::fcntl(fd, libc::F_SETFD, 0) < 0 {
                fail(report, Step::Descriptors, errno());
            }
        }
    }
}

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

const CAPABILITY_VERSION_3: u32 = 0x2008_0522;

/// Empties every capability set. The bounding set and the securebits need
/// CAP_SETPCAP (root, or the child in its own user namespace); without it
/// the bounding set is left as it is, which gains nothing under
/// `no_new_privs`.
fn drop_capabilities(last_cap: u32, report: &Report) {
    // SAFETY: prctl with integer arguments; capset with live locals.
    unsafe {
        let mut may_drop = true;
        for cap in 0..=last_cap {
            if libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong, 0, 0, 0) < 0 {
                if errno() == libc::EPERM && cap == 0 {
                    may_drop = false;
                    break;
                }
                if errno() != libc::EINVAL {
                    fail(report, Step::Capabilities, errno());
                }
            }
        }
        if may_drop {
            let bits = libc::SECBIT_NOROOT
                | libc::SECBIT_NOROOT_LOCKED
                | libc::SECBIT_NO_SETUID_FIXUP
                | libc::SECBIT_NO_SETUID_FIXUP_LOCKED
                | libc::SECBIT_NO_CAP_AMBIENT_RAISE
                | libc::SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED
                | libc::SECBIT_KEEP_CAPS_LOCKED;
            if libc::prctl(libc::PR_SET_SECUREBITS, bits as libc::c_ulong, 0, 0, 0) < 0 {
                fail(report, Step::Capabilities, errno());
            }
        }
        if libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            0,
            0,
            0,
        ) < 0
            && errno() != libc::EINVAL
        {
            fail(report, Step::Capabilities, errno());
        }
        let header = CapHeader {
            version: CAPABILITY_VERSION_3,
            pid: 0,
        };
        let data = [CapData {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        }; 2];
        if libc::syscall(libc::SYS_capset, &raw const header, data.as_ptr()) < 0 {
            fail(report, Step::Capabilities, errno());
        }
    }
}

/// `execve` of each place the program may be, as `execvp` tries them: a
/// missing file or directory, or one not executable, moves on to the next;
/// any other error stops. The error reported is "permission denied" when
/// one was found but could not be run, else the last.
fn exec(program: &Program, report: &Report) -> ! {
    let mut denied = false;
    let mut last = libc::ENOENT;
    for candidate in &program.candidates {
        // SAFETY: NUL-terminated path, and NULL-terminated vectors of
        // NUL-terminated strings, all owned by `program`.
        unsafe {
            libc::execve(
                candidate.as_ptr(),
                program.argv_ptrs.as_ptr(),
                program.envp_ptrs.as_ptr(),
            );
        }
        last = errno();
        match last {
            libc::EACCES => denied = true,
            libc::ENOENT | libc::ENOTDIR | libc::ELOOP | libc::ENAMETOOLONG => {}
            _ => break,
        }
    }
    fail(report, Step::Exec, if denied { libc::EACCES } else { last })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spawn out of processes for a moment is tried again, after pauses
    /// that grow, and gives up with the last error; any other failure is
    /// not tried again.
    #[test]
    fn a_transient_failure_is_tried_again_a_few_times() {
        use std::cell::RefCell;
        let paused = RefCell::new(Vec::new());
        let pause = |pause: std::time::Duration| paused.borrow_mut().push(pause.as_millis());
        let busy = || io::Error::from_raw_os_error(libc::EAGAIN);
        let mut attempts = 0;
        let spawned = with_retries(
            || {
                attempts += 1;
                if attempts < 3 {
                    Err(Failure::Transient(busy()))
                } else {
                    Ok(attempts)
                }
            },
            pause,
        );
        assert_eq!(spawned.unwrap(), 3);
        assert_eq!(*paused.borrow(), [1, 2]);
        paused.borrow_mut().clear();
        let never = with_retries(|| Err::<(), _>(Failure::Transient(busy())), pause);
        assert_eq!(never.unwrap_err().raw_os_error(), Some(libc::EAGAIN));
        assert_eq!(*paused.borrow(), [1, 2, 4, 8, 16]);
        paused.borrow_mut().clear();
        let denied = with_retries(
            || Err::<(), _>(Failure::Final(io::Error::from_raw_os_error(libc::EPERM))),
            pause,
        );
        assert_eq!(denied.unwrap_err().raw_os_error(), Some(libc::EPERM));
        assert!(paused.borrow().is_empty());
        assert!(transient(Step::Exec, libc::EAGAIN));
        assert!(transient(Step::UserNamespace, libc::ENOSPC));
        assert!(!transient(Step::Landlock, libc::ENOSPC));
        assert!(!transient(Step::Exec, libc::ENOENT));
    }

    fn entry() -> Entry {
        Entry {
            ruleset: None,
            filters: Vec::new(),
            view: None,
            limits: Vec::new(),
            cgroup: None,
            pass_fds: Vec::new(),
            last_cap: 40,
            new_session: true,
        }
    }

    fn wait(pid: u32) -> i32 {
        let mut status = 0;
        // SAFETY: our own child.
        unsafe { libc::waitpid(pid as c_int, &raw mut status, 0) };
        libc::WEXITSTATUS(status)
    }

    #[test]
    fn the_child_runs_in_a_new_session_with_its_own_streams() {
        let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).unwrap();
        let program = Program::new(
            "sh",
            ["-c", "echo $$ $(cut -d' ' -f6,7 /proc/$$/stat)"],
            [("PATH", OsStr::new("/usr/bin:/bin"))],
            Some(OsStr::new("/usr/bin:/bin")),
        )
        .unwrap();
        let stdio = Stdio {
            stdin: Stdin::Null,
            stdout: Some(write),
            stderr: None,
            terminal: None,
        };
        let spawned = spawn(&program, &entry(), &stdio).unwrap();
        drop(stdio);
        assert_eq!(wait(spawned.pid), 0);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(read), &mut text).unwrap();
        let words: Vec<&str> = text.split([' ', '\n']).filter(|w| !w.is_empty()).collect();
        // Its session is its own pid; no controlling terminal (tty_nr 0).
        assert_eq!(words[0], spawned.pid.to_string(), "{text}");
        assert_eq!(words[1], spawned.pid.to_string(), "{text}");
        assert_eq!(words[2], "0", "{text}");
    }

    #[test]
    fn a_missing_program_and_a_failed_step_run_nothing() {
        let program = Program::new(
            "aigent-no-such-program",
            [],
            [],
            Some(OsStr::new("/usr/bin")),
        )
        .unwrap();
        let error = spawn(&program, &entry(), &Stdio::inherit()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        let program = Program::new("true", [], [], Some(OsStr::new("/usr/bin:/bin"))).unwrap();
        let mut bad = entry();
        // A descriptor that is not open cannot be passed.
        bad.pass_fds = vec![987_654];
        let error = spawn(&program, &bad, &Stdio::inherit()).unwrap_err();
        assert!(error.to_string().contains("descriptors"), "{error}");
    }

    #[test]
    fn only_the_standard_streams_and_passed_descriptors_reach_the_program() {
        let dir = tempfile::tempdir().unwrap();
        // Not close-on-exec, as an inherited descriptor would be, and above
        // the lowest free numbers (which ls's own descriptor takes).
        let high = |name: &str, at: c_int| {
            let file = std::fs::File::create(dir.path().join(name)).unwrap();
            // SAFETY: duplicates our own descriptor; F_DUPFD leaves
            // close-on-exec clear.
            let fd = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD, at) };
            assert!(fd >= at);
            // SAFETY: the descriptor just made, owned from here on.
            unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) }
        };
        let leaked = high("leaked", 200);
        let passed = high("passed", 300);
        let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).unwrap();
        let program = Program::new(
            "ls",
            ["/proc/self/fd"],
            [],
            Some(OsStr::new("/usr/bin:/bin")),
        )
        .unwrap();
        let mut with_pass = entry();
        with_pass.pass_fds = vec![passed.as_raw_fd()];
        let stdio = Stdio {
            stdin: Stdin::Null,
            stdout: Some(write),
            stderr: None,
            terminal: None,
        };
        let spawned = spawn(&program, &with_pass, &stdio).unwrap();
        drop(stdio);
        assert_eq!(wait(spawned.pid), 0);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(read), &mut text).unwrap();
        let mut open: Vec<i32> = text
            .split_whitespace()
            .map(|fd| fd.parse().unwrap())
            .collect();
        open.sort_unstable();
        // ls's own descriptor for the directory shows up as 3 or above.
        assert!(open.starts_with(&[0, 1, 2]), "{text}");
        assert!(open.contains(&passed.as_raw_fd()), "{text}");
        assert!(!open.contains(&leaked.as_raw_fd()), "{text}");
        assert!(open.len() <= 5, "{text}");
    }
}
