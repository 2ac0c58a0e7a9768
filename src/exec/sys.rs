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
