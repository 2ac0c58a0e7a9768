//! The few system calls that supervising a child needs and std does not
//! offer: forwarding signals to the child's process group, handing the
//! terminal to that group, and waiting without reaping.
//!
//! rustix makes the signalling, terminal and wait calls safe. What is left
//! on libc, each with its `SAFETY:` note, is what rustix has no stable safe
//! wrapper for: installing a signal handler (`sigaction`), the thread's
//! signal mask (`pthread_sigmask`), and `errno` inside the handler.

use std::io;
use std::os::fd::BorrowedFd;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicI32, Ordering};

use libc::c_int;
use rustix::process::{Pid, Signal, WaitId, WaitIdOptions, WaitOptions};

/// The signals that stop aigent's own job and are passed on to the child's
/// process group while it runs (Ctrl-C, Ctrl-\, `kill`, a closed terminal).
pub const FORWARDED: [c_int; 4] = [libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGHUP];

/// The child's process group while it may be signalled, else 0. Read by the
/// signal handler, so it is an atomic and nothing else.
static CHILD_GROUP: AtomicI32 = AtomicI32::new(0);
/// The first forwarded signal that arrived, else 0.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// A process or group id, if `id` can be one: 0 and negative numbers mean
/// "my own group" or "every process" to kill(2), never a target here.
fn positive_pid(id: i32) -> Option<Pid> {
    if id > 0 { Pid::from_raw(id) } else { None }
}

/// The handler: note the signal and pass it on. Only async-signal-safe work
/// happens here (atomics, `kill`), and `errno` is kept as it was, since the
/// handler may interrupt code that is about to read it.
extern "C" fn forward(signal: c_int) {
    let saved = errno::get();
    let _ = RECEIVED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    if let (Some(group), Some(signal)) = (
        positive_pid(CHILD_GROUP.load(Ordering::SeqCst)),
        Signal::from_named_raw(signal),
    ) {
        let _ = rustix::process::kill_process_group(group, signal);
    }
    errno::set(saved);
}

/// Ctrl-Z for a child in a session of its own: stop its group, then
/// aigent (SIGSTOP, which cannot be caught); once continued, continue the
/// group. Only kill(2) is called, which is async-signal-safe.
extern "C" fn stop_both(_: c_int) {
    let saved = errno::get();
    let group = positive_pid(CHILD_GROUP.load(Ordering::SeqCst));
    if let Some(group) = group {
        let _ = rustix::process::kill_process_group(group, Signal::STOP);
    }
    let _ = rustix::process::kill_process(rustix::process::getpid(), Signal::STOP);
    if let Some(group) = group {
        let _ = rustix::process::kill_process_group(group, Signal::CONT);
    }
    errno::set(saved);
}

/// An empty signal set with `signals` added.
fn signal_set(signals: &[c_int]) -> libc::sigset_t {
    // SAFETY: a zeroed sigset_t is valid storage, and sigemptyset and
    // sigaddset only write into the set we own; the signal numbers are
    // libc's own constants, so they cannot fail.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut set);
        for &signal in signals {
            libc::sigaddset(&raw mut set, signal);
        }
        set
    }
}

/// Runs `f` with `signals` blocked in this thread, then restores the mask.
fn with_signals_blocked<T>(signals: &[c_int], f: impl FnOnce() -> T) -> T {
    let blocked = signal_set(signals);
    // SAFETY: a zeroed sigset_t is valid storage for the previous mask;
    // pthread_sigmask only reads `blocked` and writes `previous`.
    let previous = unsafe {
        let mut previous: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &raw const blocked, &raw mut previous);
        previous
    };
    let result = f();
    // SAFETY: restores the mask read above.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const previous, std::ptr::null_mut());
    }
    result
}

/// Forwarding handlers, installed for the life of this value; the previous
/// handlers come back when it is dropped. A signal that was ignored when
/// aigent started (`nohup`, a background job of a non-interactive shell)
/// stays ignored, for aigent and, through exec, for the child.
pub struct Forwarding {
    previous: Vec<(c_int, libc::sigaction)>,
}

impl Forwarding {
    pub fn install() -> io::Result<Self> {
        CHILD_GROUP.store(0, Ordering::SeqCst);
        RECEIVED.store(0, Ordering::SeqCst);
        let mut forwarding = Self {
            previous: Vec::new(),
        };
        for signal in FORWARDED {
            // SAFETY: a zeroed sigaction is valid storage; sigaction(2) with
            // a null new action only reads the current one into it.
            let (read, current) = unsafe {
                let mut current: libc::sigaction = std::mem::zeroed();
                let read = libc::sigaction(signal, std::ptr::null(), &raw mut current);
                (read, current)
            };
            if read != 0 {
                return Err(io::Error::last_os_error());
            }
            if current.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            // SAFETY: as above; the handler has the `extern "C" fn(c_int)`
            // shape that sa_sigaction means without SA_SIGINFO, and does
            // only async-signal-safe work.
            let installed = unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = forward as extern "C" fn(c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                action.sa_mask = signal_set(&FORWARDED);
                libc::sigaction(signal, &raw const action, std::ptr::null_mut())
            };
            if installed != 0 {
                return Err(io::Error::last_os_error());
            }
            forwarding.previous.push((signal, current));
        }
        Ok(forwarding)
    }

    /// From now on, forwarded signals go to `group` too.
    pub fn target(&self, group: i32) {
        CHILD_GROUP.store(group, Ordering::SeqCst);
    }

    /// From now on Ctrl-Z (SIGTSTP, which the terminal sends to aigent's
    /// group) stops the child's group and then aigent; when the shell
    /// continues aigent, the child's group is continued too. For a child
    /// in a session of its own, which the terminal does not reach. The
    /// handler is dropped with the rest.
    pub fn forward_stops(&mut self) {
        // SAFETY: as in `install`; `stop_both` does only kill(2) calls.
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGTSTP, std::ptr::null(), &raw mut current) != 0
                || current.sa_sigaction == libc::SIG_IGN
            {
                return;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = stop_both as extern "C" fn(c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            if libc::sigaction(libc::SIGTSTP, &raw const action, std::ptr::null_mut()) == 0 {
                self.previous.push((libc::SIGTSTP, current));
            }
        }
    }

    /// Stop forwarding: the group may be about to disappear, and its id
    /// must not be signalled once it can be reused.
    pub fn untarget(&self) {
        CHILD_GROUP.store(0, Ordering::SeqCst);
    }

    /// The first forwarded signal that arrived, if any.
    pub fn received(&self) -> Option<c_int> {
        match RECEIVED.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        CHILD_GROUP.store(0, Ordering::SeqCst);
        for (signal, previous) in &self.previous {
            // SAFETY: restores the action that `install` read.
            unsafe {
                libc::sigaction(*signal, previous, std::ptr::null_mut());
            }
        }
    }
}

/// Sends `signal` to every process in `group`. False when the group is
/// gone (or not ours to signal), or when `group` or `signal` is not a
/// valid one.
pub fn signal_group(group: i32, signal: c_int) -> bool {
    match (positive_pid(group), Signal::from_named_raw(signal)) {
        (Some(group), Some(signal)) => rustix::process::kill_process_group(group, signal).is_ok(),
        _ => false,
    }
}

/// Runs `f` with the forwarded signals blocked in this thread, so that a
/// thread it spawns starts (and stays) with them blocked and the handler
/// only ever runs on the thread that waits for the child.
pub fn with_forwarded_signals_blocked<T>(f: impl FnOnce() -> T) -> T {
    with_signals_blocked(&FORWARDED, f)
}

/// Standard descriptor `fd` (0, 1 or 2), which stays open for the life of
/// the process.
fn standard_stream(fd: c_int) -> Option<BorrowedFd<'static>> {
    match fd {
        libc::STDIN_FILENO => Some(rustix::stdio::stdin()),
        libc::STDOUT_FILENO => Some(rustix::stdio::stdout()),
        libc::STDERR_FILENO => Some(rustix::stdio::stderr()),
        _ => None,
    }
}

/// A terminal (stdin, stdout or stderr) whose foreground process group is
/// aigent's own: the child's group must take it over, or the child would be
/// stopped (SIGTTIN) the moment it reads from it.
pub fn foreground_terminal() -> Option<c_int> {
    let own_group = rustix::process::getpgrp();
    [libc::STDIN_FILENO, libc::STDOUT_FILENO, libc::STDERR_FILENO]
        .into_iter()
        .find(|&number| {
            standard_stream(number).is_some_and(|fd| {
                rustix::termios::isatty(fd) && rustix::termios::tcgetpgrp(fd) == Ok(own_group)
            })
        })
}

/// Makes `group` the terminal's foreground group. SIGTTOU is blocked around
/// the call, since aigent may itself be in the background by then (taking
/// the terminal back), and POSIX lets a process that blocks SIGTTOU do so.
pub fn set_foreground(terminal: c_int, group: i32) -> bool {
    let (Some(fd), Some(group)) = (standard_stream(terminal), positive_pid(group)) else {
        return false;
    };
    with_signals_blocked(&[libc::SIGTTOU], || {
        rustix::termios::tcsetpgrp(fd, group).is_ok()
    })
}

/// The terminal's foreground process group, if it can be read.
pub fn foreground_group(terminal: c_int) -> Option<i32> {
    let group = rustix::termios::tcgetpgrp(standard_stream(terminal)?).ok()?;
    Some(group.as_raw_nonzero().get())
}

/// aigent's own process group.
pub fn own_group() -> i32 {
    rustix::process::getpgrp().as_raw_nonzero().get()
}

/// Stops aigent's job (as Ctrl-Z would have, had the terminal still been
/// aigent's): returns once the shell continues it.
pub fn suspend_own_job() {
    let _ = rustix::process::kill_current_process_group(Signal::TSTP);
}

/// What happened to a child that is not yet reaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildEvent {
    /// It exited or was killed; it stays a zombie (so its pid and group id
    /// cannot be reused) until [`reap`].
    Ended,
    /// It was stopped by this signal.
    Stopped(c_int),
}

fn not_a_pid(pid: i32) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{pid} is not a process id"),
    )
}

/// Waits until `pid` ends (or stops, when `stops` is set) without reaping it.
pub fn wait_event(pid: i32, stops: bool) -> io::Result<ChildEvent> {
    let child = positive_pid(pid).ok_or_else(|| not_a_pid(pid))?;
    let mut options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT;
    if stops {
        options |= WaitIdOptions::STOPPED;
    }
    loop {
        let status = match rustix::process::waitid(WaitId::Pid(child), options) {
            Ok(status) => status,
            Err(rustix::io::Errno::INTR) => continue,
            Err(err) => return Err(err.into()),
        };
        let Some(signal) = status.as_ref().and_then(|status| status.stopping_signal()) else {
            return Ok(ChildEvent::Ended);
        };
        // NOWAIT left the stop report pending; take it, so the next wait
        // does not see it again. NOHANG: it is there already.
        let _ = rustix::process::waitid(
            WaitId::Pid(child),
            WaitIdOptions::STOPPED | WaitIdOptions::NOHANG,
        );
        return Ok(ChildEvent::Stopped(signal));
    }
}

/// Whether `pid` has ended, without waiting and without reaping it.
pub fn has_ended(pid: i32) -> io::Result<bool> {
    let child = positive_pid(pid).ok_or_else(|| not_a_pid(pid))?;
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG;
    loop {
        match rustix::process::waitid(WaitId::Pid(child), options) {
            Ok(status) => return Ok(status.is_some()),
            Err(rustix::io::Errno::INTR) => {}
            Err(err) => return Err(err.into()),
        }
    }
}

/// Reaps `pid`, which has ended, and returns its status.
pub fn reap(pid: i32) -> io::Result<ExitStatus> {
    let child = positive_pid(pid).ok_or_else(|| not_a_pid(pid))?;
    loop {
        match rustix::process::waitpid(Some(child), WaitOptions::empty()) {
            Ok(Some((_, status))) => return Ok(ExitStatus::from_raw(status.as_raw())),
            // Only possible with NOHANG, which is not asked for.
            Ok(None) => return Err(io::Error::other(format!("process {pid} did not end"))),
            Err(rustix::io::Errno::INTR) => continue,
            Err(err) => return Err(err.into()),
        }
    }
}

/// Makes aigent the subreaper of its descendants: a process of a run whose
/// parent dies becomes aigent's child, not init's, so that aigent reaps
/// (and counts) it when it ends the run. Once per process.
#[cfg(target_os = "linux")]
pub fn become_subreaper() {
    static DONE: std::sync::Once = std::sync::Once::new();
    DONE.call_once(|| {
        // SAFETY: prctl with integer arguments.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    });
}

#[cfg(not(target_os = "linux"))]
pub fn become_subreaper() {}

/// The processes of `group` that are aigent's children (its leftovers,
/// which came to aigent as their parents died), reaped once the group was
/// killed: how many of them the kill ended. Waits for the group to be
/// empty, at most `patience` (a process in uninterruptible sleep dies
/// late; what is left then is not counted, and init or a later run's
/// wait reaps it).
pub fn reap_group(group: i32, patience: std::time::Duration) -> u32 {
    let Some(pgid) = positive_pid(group) else {
        return 0;
    };
    let deadline = std::time::Instant::now() + patience;
    let mut killed = 0u32;
    let mut nap = std::time::Duration::from_micros(50);
    loop {
        match rustix::process::waitid(
            WaitId::Pgid(Some(pgid)),
            WaitIdOptions::EXITED | WaitIdOptions::NOHANG,
        ) {
            Ok(Some(status)) => {
                if status.terminating_signal() == Some(libc::SIGKILL) {
                    killed = killed.saturating_add(1);
                }
                continue;
            }
            Ok(None) | Err(rustix::io::Errno::CHILD) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return killed,
        }
        // The group is gone once no process (not even a zombie) is left.
        if rustix::process::test_kill_process_group(pgid).is_err()
            || std::time::Instant::now() >= deadline
        {
            return killed;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(std::time::Duration::from_millis(5));
    }
}

/// aigent's own resource limits as they were before its first sandboxed
/// run: a child may not change them (seccomp allows limits on the caller
/// only), but should one have, they are put back before the run's outcome
/// is recorded, so that no limit of a child's stops the audit record.
#[cfg(target_os = "linux")]
static OWN_LIMITS: std::sync::OnceLock<Vec<(c_int, libc::rlimit64)>> = std::sync::OnceLock::new();

#[cfg(target_os = "linux")]
const RESOURCES: [c_int; 6] = [
    libc::RLIMIT_FSIZE as c_int,
    libc::RLIMIT_NOFILE as c_int,
    libc::RLIMIT_AS as c_int,
    libc::RLIMIT_CPU as c_int,
    libc::RLIMIT_NPROC as c_int,
    libc::RLIMIT_CORE as c_int,
];

#[cfg(target_os = "linux")]
fn own_limit(resource: c_int) -> Option<libc::rlimit64> {
    let mut limit = libc::rlimit64 {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: reads this process's limit into a live local.
    let read = unsafe {
        libc::syscall(
            libc::SYS_prlimit64,
            0,
            resource,
            std::ptr::null::<libc::rlimit64>(),
            &raw mut limit,
        )
    };
    (read == 0).then_some(limit)
}

/// Remembers aigent's own limits (once).
#[cfg(target_os = "linux")]
pub fn save_own_limits() {
    OWN_LIMITS.get_or_init(|| {
        RESOURCES
            .iter()
            .filter_map(|&resource| Some((resource, own_limit(resource)?)))
            .collect()
    });
}

/// Puts back aigent's own limits where they changed. A lowered hard limit
/// cannot be raised without CAP_SYS_RESOURCE; the soft one is set as
/// close as it allows.
#[cfg(target_os = "linux")]
pub fn restore_own_limits() {
    let Some(saved) = OWN_LIMITS.get() else {
        return;
    };
    for (resource, wanted) in saved {
        let Some(now) = own_limit(*resource) else {
            continue;
        };
        if now.rlim_cur == wanted.rlim_cur && now.rlim_max == wanted.rlim_max {
            continue;
        }
        let allowed = libc::rlimit64 {
            rlim_cur: wanted.rlim_cur.min(now.rlim_max.max(wanted.rlim_max)),
            rlim_max: wanted.rlim_max,
        };
        // SAFETY: sets this process's limit from a live local.
        let set = unsafe {
            libc::syscall(
                libc::SYS_prlimit64,
                0,
                *resource,
                &raw const allowed,
                std::ptr::null_mut::<libc::rlimit64>(),
            )
        };
        if set != 0 {
            let lowered = libc::rlimit64 {
                rlim_cur: wanted.rlim_cur.min(now.rlim_max),
                rlim_max: now.rlim_max,
            };
            // SAFETY: as above.
            unsafe {
                libc::syscall(
                    libc::SYS_prlimit64,
                    0,
                    *resource,
                    &raw const lowered,
                    std::ptr::null_mut::<libc::rlimit64>(),
                );
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn save_own_limits() {}

#[cfg(not(target_os = "linux"))]
pub fn restore_own_limits() {}

/// Whether a process with this pid exists (a zombie counts).
#[cfg(test)]
pub fn process_exists(pid: i32) -> bool {
    positive_pid(pid).is_some_and(|pid| rustix::process::test_kill_process(pid).is_ok())
}

/// Saving and restoring `errno` in the signal handler.
mod errno {
    use libc::c_int;

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn location() -> *mut c_int {
        // SAFETY: returns this thread's errno slot.
        unsafe { libc::__errno_location() }
    }

    #[cfg(any(
        target_vendor = "apple",
        target_os = "freebsd",
        target_os = "dragonfly"
    ))]
    fn location() -> *mut c_int {
        // SAFETY: returns this thread's errno slot.
        unsafe { libc::__error() }
    }

    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_vendor = "apple",
        target_os = "freebsd",
        target_os = "dragonfly"
    )))]
    fn location() -> *mut c_int {
        std::ptr::null_mut()
    }

    pub fn get() -> c_int {
        let slot = location();
        if slot.is_null() {
            0
        } else {
            // SAFETY: a valid, thread-local errno slot.
            unsafe { *slot }
        }
    }

    pub fn set(value: c_int) {
        let slot = location();
        if !slot.is_null() {
            // SAFETY: a valid, thread-local errno slot.
            unsafe { *slot = value }
        }
    }
}
