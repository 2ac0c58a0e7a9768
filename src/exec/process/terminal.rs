//! A terminal for an interactive sandboxed child (`sandbox.interactive`):
//! a pty of aigent's, never aigent's own terminal. The child makes the pty
//! its controlling terminal in its own session; aigent copies what is
//! typed on its terminal to the pty and what the child writes back, with
//! its own terminal in raw mode meanwhile (the pty does the line editing
//! and echo), and puts the terminal's mode back afterwards. Whatever the
//! child does to its terminal (`TIOCSTI` is refused anyway) reaches the
//! pty, which only the child reads.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::pty::OpenptFlags;
use rustix::termios::{OptionalActions, Termios};

use super::super::sandbox::child::{Stdin, Stdio};

/// A new pty, sized and set up like aigent's own terminal.
pub struct Pty {
    master: OwnedFd,
    slave: OwnedFd,
    saved: Termios,
}

impl Pty {
    /// A pty when aigent's stdin is a terminal; `None` otherwise (the
    /// child then has no terminal at all).
    pub fn open_for_aigent() -> Option<Self> {
        let stdin = rustix::stdio::stdin();
        if !rustix::termios::isatty(stdin) {
            return None;
        }
        let saved = rustix::termios::tcgetattr(stdin).ok()?;
        let flags = OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC;
        let master = rustix::pty::openpt(flags).ok()?;
        rustix::pty::unlockpt(&master).ok()?;
        let slave = rustix::pty::ioctl_tiocgptpeer(&master, flags).ok()?;
        let _ = rustix::termios::tcsetattr(&slave, OptionalActions::Now, &saved);
        if let Ok(size) = rustix::termios::tcgetwinsize(stdin) {
            let _ = rustix::termios::tcsetwinsize(&slave, size);
        }
        Some(Self {
            master,
            slave,
            saved,
        })
    }

    /// The child's streams (the slave, as its controlling terminal), and
    /// what the relay needs.
    pub fn into_stdio(self) -> io::Result<(Stdio, Parts)> {
        let stdio = Stdio {
            stdin: Stdin::Fd(self.slave.try_clone()?),
            stdout: Some(self.slave.try_clone()?),
            stderr: Some(self.slave.try_clone()?),
            terminal: Some(self.slave),
        };
        Ok((
            stdio,
            Parts {
                master: self.master,
                saved: self.saved,
            },
        ))
    }
}

/// The pty's master and aigent's terminal mode before the run.
pub struct Parts {
    master: OwnedFd,
    saved: Termios,
}

/// Copies between aigent's terminal and the pty until the child and all
/// it started have closed the pty.
pub struct Relay {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    saved: Termios,
}

impl Relay {
    pub fn start(parts: Parts) -> Self {
        let Parts { master, saved } = parts;
        let mut raw = saved.clone();
        raw.make_raw();
        let _ = rustix::termios::tcsetattr(rustix::stdio::stdin(), OptionalActions::Now, &raw);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("aigent-pty".to_owned())
            .spawn(move || relay(&master, &flag))
            .ok();
        Self {
            stop,
            thread,
            saved,
        }
    }

    /// Once the run is over: what the child wrote last is copied out, and
    /// aigent's terminal gets its mode back.
    pub fn finish(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ =
            rustix::termios::tcsetattr(rustix::stdio::stdin(), OptionalActions::Now, &self.saved);
    }
}

fn relay(master: &OwnedFd, stop: &AtomicBool) {
    let stdin = rustix::stdio::stdin();
    let stdout = rustix::stdio::stdout();
    let mut buffer = [0u8; 4096];
    let tick = Timespec {
        tv_sec: 0,
        tv_nsec: 50_000_000,
    };
    loop {
        let mut fds = [
            PollFd::new(&stdin, PollFlags::IN),
            PollFd::new(master, PollFlags::IN),
        ];
        if rustix::event::poll(&mut fds, Some(&tick)).is_err() {
            continue;
        }
        let typed = fds[0].revents();
        let shown = fds[1].revents();
        if shown.intersects(PollFlags::IN) {
            match rustix::io::read(master, &mut buffer) {
                Ok(0) | Err(_) => return,
                Ok(read) => write_all(stdout, &buffer[..read]),
            }
        } else if shown.intersects(PollFlags::HUP | PollFlags::ERR) {
            // Every slave descriptor is closed: the run is over.
            return;
        }
        if typed.intersects(PollFlags::IN)
            && let Ok(read) = rustix::io::read(stdin, &mut buffer)
            && read > 0
        {
            write_all(master.as_fd(), &buffer[..read]);
        }
        if stop.load(Ordering::SeqCst) && !shown.intersects(PollFlags::IN) {
            // Copy out what is left, without waiting for more.
            while readable_now(master) {
                match rustix::io::read(master, &mut buffer) {
                    Ok(0) | Err(_) => return,
                    Ok(read) => write_all(stdout, &buffer[..read]),
                }
            }
            return;
        }
    }
}

fn readable_now(fd: &OwnedFd) -> bool {
    let mut fds = [PollFd::new(fd, PollFlags::IN)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    rustix::event::poll(&mut fds, Some(&now)).is_ok_and(|ready| ready > 0)
        && fds[0].revents().intersects(PollFlags::IN)
}

fn write_all(fd: impl AsFd, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        match rustix::io::write(&fd, bytes) {
            Ok(0) | Err(_) => return,
            Ok(written) => bytes = &bytes[written..],
        }
    }
}
