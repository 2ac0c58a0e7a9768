//! The thread a ready sandbox spawns from ([`super::ready`]), apart from
//! the pool that makes it, so that the kernel side ([`super::linux`]) can
//! hand a spawn to it without depending on the pool.

use std::io;
use std::process::{Child, Command};
use std::sync::mpsc::{self, SyncSender};

/// A thread that has entered a sandbox and waits for the one command it
/// spawns. Dropped unused, it ends without spawning anything.
pub struct Spawner {
    requests: SyncSender<Request>,
}

impl Spawner {
    /// The spawner whose confined thread reads `requests`.
    pub(super) fn new(requests: SyncSender<Request>) -> Self {
        Self { requests }
    }
}

pub(super) struct Request {
    pub(super) command: Command,
    /// The caller's signal mask: the child inherits it, as it inherits a
    /// fresh sandbox thread's (which is the caller's).
    pub(super) mask: libc::sigset_t,
    pub(super) reply: SyncSender<io::Result<Child>>,
}

impl Spawner {
    /// Spawns `command` from the confined thread. If the thread is gone,
    /// nothing runs.
    pub fn spawn(self, command: Command) -> io::Result<Child> {
        let (reply, answer) = mpsc::sync_channel(1);
        let mask = signal_mask();
        self.requests
            .send(Request {
                command,
                mask,
                reply,
            })
            .map_err(|_| gone())?;
        answer.recv().unwrap_or_else(|_| Err(gone()))
    }
}

pub(super) fn gone() -> io::Error {
    io::Error::other("the sandbox's spawning thread is gone; nothing was run")
}

/// The calling thread's signal mask.
pub(super) fn signal_mask() -> libc::sigset_t {
    // SAFETY: a zeroed sigset_t is valid storage; with a null new set,
    // pthread_sigmask only writes the current mask into it.
    unsafe {
        let mut mask: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_SETMASK, std::ptr::null(), &mut mask);
        mask
    }
}

pub(super) fn set_signal_mask(mask: &libc::sigset_t) {
    // SAFETY: `mask` is a valid sigset_t; the old mask is not asked for.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, mask, std::ptr::null_mut());
    }
}

pub(super) fn block_signals() {
    // SAFETY: a zeroed sigset_t is valid storage for sigfillset, and
    // pthread_sigmask reads it and writes nothing back (null old set).
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, std::ptr::null_mut());
    }
}
