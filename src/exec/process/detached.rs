//! A server's run ([`super::Output::Capture`]) on the calling thread alone:
//! one `poll` loop reads the child's stdout and stderr, learns of its end
//! (through a pidfd on Linux; elsewhere by asking `waitid` without waiting,
//! at growing intervals), and wakes for the timeout, a cancellation and
//! progress. No thread is started per call (three were, at a cost of
//! about a tenth of a millisecond of a call's system time).
//!
//! The order of the ending is the watchdog's: on the timeout or a
//! cancellation the group gets SIGTERM and SIGCONT, and SIGKILL once the
//! child has exited or the grace period is over; whatever the child left
//! in its group gets SIGKILL before the child is reaped (so the group id
//! is still its own); then the pipes are read to their end, for at most
//! the grace period (a process that left the group may hold them open),
//! after which what came so far is kept, marked truncated.

use std::io;
use std::os::fd::OwnedFd;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};

use super::super::sys;
use super::{Cancel, Captured, RunOptions, StderrTap};

/// How often a cancellation is looked at; progress is reported every
/// [`PROGRESS_EVERY`].
pub const TICK: Duration = Duration::from_millis(50);
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);
/// Without a pidfd, the first look at whether the child ended comes after
/// this, each next one after twice as long, up to [`TICK`].
const FIRST_NAP: Duration = Duration::from_micros(200);
/// What one read takes from a pipe.
const CHUNK: usize = 16 * 1024;
/// Reads of one pipe per wake-up of the loop, at most.
const READS_PER_WAKE: usize = 4;

/// Why the group was ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Timeout,
    Cancel,
}

/// One of the child's output pipes, read until its end.
struct Stream {
    pipe: Option<OwnedFd>,
    captured: Captured,
    /// Hears each piece read.
    tap: Option<StderrTap>,
}

impl Stream {
    fn new(pipe: Option<OwnedFd>) -> Self {
        if let Some(pipe) = &pipe {
            // A read after a spurious wake-up must not block the loop.
            let _ = rustix::io::ioctl_fionbio(pipe, true);
        }
        Self {
            pipe,
            captured: Captured::default(),
            tap: None,
        }
    }

    /// Reads what is there, up to [`READS_PER_WAKE`] chunks (a child that
    /// writes without end must not keep the loop from its timeout),
    /// keeping at most `limit` bytes in all; closes the pipe at its end
    /// (or on an error other than "nothing yet").
    fn read(&mut self, limit: usize, buffer: &mut [u8]) {
        let Some(pipe) = &self.pipe else { return };
        for _ in 0..READS_PER_WAKE {
            match rustix::io::read(pipe, &mut *buffer) {
                Ok(0) => {}
                Ok(read) => {
                    if let Some(tap) = &self.tap {
                        tap(&buffer[..read]);
                    }
                    let room = limit.saturating_sub(self.captured.bytes.len());
                    self.captured
                        .bytes
                        .extend_from_slice(&buffer[..read.min(room)]);
                    self.captured.truncated |= read > room;
                    if read < buffer.len() {
                        return;
                    }
                    continue;
                }
                Err(rustix::io::Errno::INTR) => continue,
                Err(rustix::io::Errno::AGAIN) => return,
                Err(_) => {}
            }
            // The end of the pipe, or an error that ends it.
            self.pipe = None;
            return;
        }
        // There may be more: the next poll says so at once.
    }

    /// The pipe was given up on with data possibly still to come.
    fn give_up(&mut self) -> Captured {
        if self.pipe.take().is_some() {
            self.captured.truncated = true;
        }
        std::mem::take(&mut self.captured)
    }
}

/// The child's two pipes and how its end is noticed.
pub struct Supervisor {
    pid: i32,
    streams: [Stream; 2],
    limit: usize,
    /// Readable once the child has exited (not reaped).
    exit_fd: Option<OwnedFd>,
    /// `exit_fd` was readable.
    exited: bool,
    buffer: Vec<u8>,
}

impl Supervisor {
    pub fn new(pid: i32, stdout: Option<OwnedFd>, stderr: Option<OwnedFd>, limit: usize) -> Self {
        Self {
            pid,
            streams: [Stream::new(stdout), Stream::new(stderr)],
            limit,
            exit_fd: exit_notifier(pid),
            exited: false,
            buffer: vec![0; CHUNK],
        }
    }

    /// `tap` hears the child's stderr as it is read.
    pub fn with_stderr_tap(mut self, tap: Option<StderrTap>) -> Self {
        self.streams[1].tap = tap;
        self
    }

    /// Reads the pipes until the child exits (without reaping it), ending
    /// its group on the timeout or a cancellation. Returns why the group
    /// was ended, if it was; an `Err` only when the child's state cannot
    /// be read at all (it is then killed, so that the reaping ends).
    pub fn until_exit(
        &mut self,
        options: &RunOptions,
        started: Instant,
    ) -> (io::Result<()>, Option<Stop>) {
        let deadline = options.timeout.map(|timeout| started + timeout);
        let mut next_progress = started + PROGRESS_EVERY;
        let mut stopped = None;
        let mut kill_at: Option<Instant> = None;
        let mut nap = FIRST_NAP;
        loop {
            match self.has_exited() {
                Ok(true) => return (Ok(()), stopped),
                Ok(false) => {}
                Err(err) => {
                    sys::signal_group(self.pid, libc::SIGKILL);
                    return (Err(err), stopped);
                }
            }
            let now = Instant::now();
            if stopped.is_none() {
                let why = if deadline.is_some_and(|deadline| now >= deadline) {
                    Some(Stop::Timeout)
                } else if options.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                    Some(Stop::Cancel)
                } else {
                    None
                };
                if let Some(why) = why {
                    stopped = Some(why);
                    sys::signal_group(self.pid, libc::SIGTERM);
                    sys::signal_group(self.pid, libc::SIGCONT);
                    kill_at = Some(now + options.grace);
                } else if let Some(progress) = &options.progress
                    && now >= next_progress
                {
                    progress(started.elapsed());
                    next_progress += PROGRESS_EVERY;
                }
            }
            if kill_at.is_some_and(|at| now >= at) {
                sys::signal_group(self.pid, libc::SIGKILL);
                kill_at = None;
            }
            // Until the next thing to do, or something to read.
            let mut wait: Option<Duration> = None;
            let mut sooner = |at: Duration| wait = Some(wait.map_or(at, |wait| wait.min(at)));
            if stopped.is_none() {
                if options.cancel.is_some() {
                    sooner(TICK);
                }
                if let Some(deadline) = deadline {
                    sooner(deadline.saturating_duration_since(now));
                }
                if options.progress.is_some() {
                    sooner(next_progress.saturating_duration_since(now));
                }
            }
            if let Some(at) = kill_at {
                sooner(at.saturating_duration_since(now));
            }
            if self.exit_fd.is_none() {
                sooner(nap);
                nap = (nap * 2).min(TICK);
            }
            self.wait_and_read(wait);
        }
    }

    /// After the child was reaped: the rest of its output, for at most
    /// `grace`.
    pub fn finish(mut self, grace: Duration) -> (Option<Captured>, Option<Captured>) {
        let deadline = Instant::now() + grace;
        self.exit_fd = None;
        while self.streams.iter().any(|stream| stream.pipe.is_some()) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            self.wait_and_read(Some(left));
        }
        let [stdout, stderr] = &mut self.streams;
        (Some(stdout.give_up()), Some(stderr.give_up()))
    }

    /// Whether the child has exited; not reaped either way.
    fn has_exited(&self) -> io::Result<bool> {
        if self.exit_fd.is_some() {
            return Ok(self.exited);
        }
        sys::has_ended(self.pid)
    }

    /// Waits up to `wait` (forever: `None`) for a pipe or the pidfd, and
    /// reads the pipes that have something.
    fn wait_and_read(&mut self, wait: Option<Duration>) {
        let timeout = wait.map(|wait| Timespec {
            tv_sec: i64::try_from(wait.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(wait.subsec_nanos()),
        });
        let ready = {
            let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(3);
            for stream in &self.streams {
                if let Some(pipe) = &stream.pipe {
                    fds.push(PollFd::new(pipe, PollFlags::IN));
                }
            }
            if let Some(exit_fd) = &self.exit_fd {
                fds.push(PollFd::new(exit_fd, PollFlags::IN));
            }
            match rustix::event::poll(&mut fds, timeout.as_ref()) {
                Ok(_) => Some(
                    fds.iter()
                        .map(|fd| !fd.revents().is_empty())
                        .collect::<Vec<_>>(),
                ),
                Err(rustix::io::Errno::INTR) => return,
                Err(_) => None,
            }
        };
        let Some(ready) = ready else {
            // Cannot wait on them (no memory for the poll set?): ask
            // `waitid` from now on, and try the pipes after a pause.
            self.exit_fd = None;
            std::thread::sleep(wait.unwrap_or(TICK).min(TICK));
            for stream in &mut self.streams {
                stream.read(self.limit, &mut self.buffer);
            }
            return;
        };
        let mut ready = ready.into_iter();
        for stream in &mut self.streams {
            if stream.pipe.is_some() && ready.next() == Some(true) {
                stream.read(self.limit, &mut self.buffer);
            }
        }
        if self.exit_fd.is_some() && ready.next() == Some(true) {
            self.exited = true;
        }
    }
}

/// A descriptor that becomes readable when `pid` exits, where the kernel
/// has one (Linux 5.3 and later).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn exit_notifier(pid: i32) -> Option<OwnedFd> {
    let pid = rustix::process::Pid::from_raw(pid)?;
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exit_notifier(_pid: i32) -> Option<OwnedFd> {
    None
}
