//! The few system calls that supervising a child needs and std does not
//! offer: forwarding signals to the child's process group, handing the
//! terminal to that group, and waiting without reaping.
//! Every `unsafe` block of `run` is in this file, each one a plain libc call whose arguments are
//! valid by construction (initialized structures, owned pointers, numeric
//! ids); no memory is shared with C beyond the call.

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicI32, Ordering};

use libc::c_int;

/// The signals that stop aigent's own job and are passed on to the child's
/// process group while it runs (Ctrl-C, Ctrl-\, `kill`, a closed terminal).
pub const FORWARDED: [c_int; 4] = [libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGHUP];

/// The child's process group while it may be signalled, else 0. Read by the
/// signal handler, so it is an atomic and nothing else.
static CHILD_GROUP: AtomicI32 = AtomicI32::new(0);
/// The first forwarded signal that arrived, else 0.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The handler: note the signal and pass it on. Only async-signal-safe work
/// happens here (atomics, `kill`), and `errno` is kept as it was, since the
/// handler may interrupt code that is about to read it.
extern "C" fn forward(signal: c_int) {
    let saved = errno::get();
    let _ = RECEIVED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    let group = CHILD_GROUP.load(Ordering::SeqCst);
    if group > 0 {
        // SAFETY: kill(2) takes plain integers and is async-signal-safe.
        unsafe {
            libc::kill(-group, signal);
        }
    }
    errno::set(saved);
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
            // SAFETY: sigaction(2) with a null new action only reads the
            // current one into `current`, a zeroed (valid) sigaction.
            let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
            if unsafe { libc::sigaction(signal, std::ptr::null(), &raw mut current) } != 0 {
                return Err(io::Error::last_os_error());
            }
            if current.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            // SAFETY: `action` is zeroed, then given a handler of the
            // `extern "C" fn(c_int)` shape that sa_sigaction means without
            // SA_SIGINFO, and a mask built by sigemptyset/sigaddset.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = forward as extern "C" fn(c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            unsafe {
                libc::sigemptyset(&raw mut action.sa_mask);
                for other in FORWARDED {
                    libc::sigaddset(&raw mut action.sa_mask, other);
                }
            }
            if unsafe { libc::sigaction(signal, &raw const action, std::ptr::null_mut()) } != 0 {
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
            // SAFETY: restores the action read by `install`.
            unsafe {
                libc::sigaction(*signal, previous, std::ptr::null_mut());
            }
        }
    }
}

/// Sends `signal` to every process in `group`. False when the group is
/// gone (or not ours to signal).
pub fn signal_group(group: i32, signal: c_int) -> bool {
    // SAFETY: kill(2) takes plain integers.
    unsafe { libc::kill(-group, signal) == 0 }
}

/// Runs `f` with the forwarded signals blocked in this thread, so that a
/// thread it spawns starts (and stays) with them blocked and the handler
/// only ever runs on the thread that waits for the child.
pub fn with_forwarded_signals_blocked<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: the sets are zeroed then initialized by sigemptyset before
    // use; pthread_sigmask only reads `blocked` and writes `previous`.
    let mut blocked: libc::sigset_t = unsafe { std::mem::zeroed() };
    let mut previous: libc::sigset_t = unsafe { std::mem::zeroed() };
    unsafe {
        libc::sigemptyset(&raw mut blocked);
        for signal in FORWARDED {
            libc::sigaddset(&raw mut blocked, signal);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &raw const blocked, &raw mut previous);
    }
    let result = f();
    // SAFETY: restores the mask read above.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const previous, std::ptr::null_mut());
    }
    result
}

/// A terminal (stdin, stdout or stderr) whose foreground process group is
/// aigent's own: the child's group must take it over, or the child would be
/// stopped (SIGTTIN) the moment it reads from it.
pub fn foreground_terminal() -> Option<c_int> {
    // SAFETY: getpgrp takes nothing; isatty and tcgetpgrp take a descriptor
    // number and fail cleanly on a bad one.
    let own_group = unsafe { libc::getpgrp() };
    [libc::STDIN_FILENO, libc::STDOUT_FILENO, libc::STDERR_FILENO]
        .into_iter()
        .find(|fd| unsafe { libc::isatty(*fd) == 1 && libc::tcgetpgrp(*fd) == own_group })
}

/// Makes `group` the terminal's foreground group. SIGTTOU is blocked around
/// the call, since aigent may itself be in the background by then (taking
/// the terminal back), and POSIX lets a process that blocks SIGTTOU do so.
pub fn set_foreground(terminal: c_int, group: i32) -> bool {
    // SAFETY: as in `with_forwarded_signals_blocked`; tcsetpgrp takes plain
    // integers.
    unsafe {
        let mut blocked: libc::sigset_t = std::mem::zeroed();
        let mut previous: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut blocked);
        libc::sigaddset(&raw mut blocked, libc::SIGTTOU);
        libc::pthread_sigmask(libc::SIG_BLOCK, &raw const blocked, &raw mut previous);
        let done = libc::tcsetpgrp(terminal, group) == 0;
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const previous, std::ptr::null_mut());
        done
    }
}

/// The terminal's foreground process group, if it can be read.
pub fn foreground_group(terminal: c_int) -> Option<i32> {
    // SAFETY: tcgetpgrp takes a descriptor number and fails cleanly.
    let group = unsafe { libc::tcgetpgrp(terminal) };
    (group > 0).then_some(group)
}

/// aigent's own process group.
pub fn own_group() -> i32 {
    // SAFETY: getpgrp takes nothing and cannot fail.
    unsafe { libc::getpgrp() }
}

/// Stops aigent's job (as Ctrl-Z would have, had the terminal still been
/// aigent's): returns once the shell continues it.
pub fn suspend_own_job() {
    // SAFETY: kill(2) with pid 0 signals our own process group.
    unsafe {
        libc::kill(0, libc::SIGTSTP);
    }
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

/// Waits until `pid` ends (or stops, when `stops` is set) without reaping it.
pub fn wait_event(pid: i32, stops: bool) -> io::Result<ChildEvent> {
    let id = libc::id_t::try_from(pid).map_err(io::Error::other)?;
    let mut flags = libc::WEXITED | libc::WNOWAIT;
    if stops {
        flags |= libc::WSTOPPED;
    }
    loop {
        // SAFETY: waitid(2) writes into `info`, a zeroed siginfo_t we own.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        if unsafe { libc::waitid(libc::P_PID, id, &raw mut info, flags) } == -1 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if info.si_code != libc::CLD_STOPPED {
            return Ok(ChildEvent::Ended);
        }
        // SAFETY: for a CLD_STOPPED report, si_status holds the signal.
        let signal = unsafe { info.si_status() };
        // WNOWAIT left the stop report pending; take it, so the next wait
        // does not see it again. WNOHANG: it is there already.
        let mut taken: libc::siginfo_t = unsafe { std::mem::zeroed() };
        unsafe {
            libc::waitid(
                libc::P_PID,
                id,
                &raw mut taken,
                libc::WSTOPPED | libc::WNOHANG,
            );
        }
        return Ok(ChildEvent::Stopped(signal));
    }
}

/// Reaps `pid`, which has ended, and returns its status.
pub fn reap(pid: i32) -> io::Result<ExitStatus> {
    loop {
        let mut status: c_int = 0;
        // SAFETY: waitpid(2) writes into `status`, which we own.
        if unsafe { libc::waitpid(pid, &raw mut status, 0) } == -1 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        return Ok(ExitStatus::from_raw(status));
    }
}

/// Whether a process with this pid exists (a zombie counts).
#[cfg(test)]
pub fn process_exists(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks.
    unsafe { libc::kill(pid, 0) == 0 }
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
