//! Spawning an argv and seeing it through to the end (Phase 2).
//!
//! - The argv goes to `std::process::Command` as a list: no shell, no glob
//!   expansion, no word splitting. `PATH` lookup of a bare program name is
//!   the operating system's (`execvp`), as for any program.
//! - The child inherits stdin, stdout and stderr, so its output streams live
//!   and aigent never buffers it.
//! - The child leads a process group of its own, so that everything it
//!   starts can be signalled at once.
//! - **Timeout.** When it expires, the whole group gets SIGTERM (and
//!   SIGCONT, so a stopped process can act on it). As soon as the child
//!   itself has exited, or after the grace period at the latest, whatever
//!   is left of the group gets SIGKILL. The child is reaped only after that,
//!   so its group id cannot have been reused by then. A process that left
//!   the group on purpose (a daemon calling `setsid`) is out of reach.
//! - **Signals.** SIGINT, SIGQUIT, SIGTERM and SIGHUP sent to aigent are
//!   passed on to the child's group; aigent then waits for the child and
//!   reports that it was interrupted (exit 128 + the signal, 130 for
//!   Ctrl-C).
//! - **Terminal.** When aigent runs in the foreground of a terminal, the
//!   child's group is made the terminal's foreground group for the child's
//!   lifetime, as a shell does for a job: the child can read the terminal,
//!   Ctrl-C reaches it directly, and Ctrl-Z stops it and then aigent's own
//!   job, which `fg` resumes (handing the terminal back to the child).

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use super::argv::Argv;
use crate::report::exit;

/// How long the group has between SIGTERM and SIGKILL when the timeout
/// expires.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// Kill the child's group after this long.
    pub timeout: Option<Duration>,
    /// Between SIGTERM and SIGKILL, once the timeout expired.
    pub grace: Duration,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            timeout: None,
            grace: DEFAULT_GRACE,
        }
    }
}

/// How the child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    /// Killed by this signal.
    Signaled(i32),
}

/// A child that ran to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    pub pid: u32,
    pub ending: Ending,
    /// From just before the spawn to the reaping.
    pub duration: Duration,
    /// The timeout expired and the group was killed.
    pub timed_out: bool,
    /// aigent received this signal and passed it on.
    pub interrupted_by: Option<i32>,
}

impl Finished {
    pub fn exit_code(&self) -> Option<i32> {
        match self.ending {
            Ending::Exited(code) => Some(code),
            Ending::Signaled(_) => None,
        }
    }

    pub fn signal(&self) -> Option<i32> {
        match self.ending {
            Ending::Exited(_) => None,
            Ending::Signaled(signal) => Some(signal),
        }
    }

    /// aigent's own exit status: TIMEOUT after a timeout, 128 + the signal
    /// after an interruption, otherwise the child's status passed through
    /// (128 + the signal when a signal killed it, as shells report it).
    pub fn aigent_exit_code(&self) -> i32 {
        if self.timed_out {
            return exit::TIMEOUT;
        }
        if let Some(signal) = self.interrupted_by {
            return exit::killed_by_signal(signal);
        }
        match self.ending {
            Ending::Exited(code) => code,
            Ending::Signaled(signal) => exit::killed_by_signal(signal),
        }
    }
}

/// The child could not be started; nothing ran.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("`{program}` was not found{}", not_found_where(program))]
    NotFound { program: String },
    /// The file exists, but the interpreter its `#!` line names does not.
    #[error("`{program}` exists, but the interpreter on its `#!` line was not found")]
    InterpreterNotFound { program: String },
    #[error("`{program}` cannot be executed: permission denied")]
    PermissionDenied { program: String },
    #[error("`{program}` could not be started: {source}")]
    Other { program: String, source: io::Error },
}

fn not_found_where(program: &str) -> &'static str {
    if program.contains('/') {
        " (no such file)"
    } else {
        " on PATH"
    }
}

impl SpawnError {
    pub(crate) fn from_io(program: &str, source: io::Error) -> Self {
        let program = program.to_owned();
        match source.kind() {
            io::ErrorKind::NotFound if program.contains('/') && Path::new(&program).is_file() => {
                Self::InterpreterNotFound { program }
            }
            io::ErrorKind::NotFound => Self::NotFound { program },
            io::ErrorKind::PermissionDenied => Self::PermissionDenied { program },
            _ => Self::Other { program, source },
        }
    }
}

/// Runs `argv` to its end. On unix this also installs the signal forwarding
/// for the child's lifetime (the previous handlers are restored after).
#[cfg(unix)]
pub(crate) fn run(argv: &Argv, options: &RunOptions) -> Result<Finished, SpawnError> {
    unix::run(argv, options)
}

/// Runs `argv` to its end. Without process groups, the timeout kills the
/// child only.
#[cfg(not(unix))]
pub(crate) fn run(argv: &Argv, options: &RunOptions) -> Result<Finished, SpawnError> {
    let started = Instant::now();
    let mut child = std::process::Command::new(argv.program())
        .args(argv.args())
        .spawn()
        .map_err(|err| SpawnError::from_io(argv.program(), err))?;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(source) => {
                return Err(SpawnError::Other {
                    program: argv.program().to_owned(),
                    source,
                });
            }
        }
        if let Some(timeout) = options.timeout
            && !timed_out
            && started.elapsed() >= timeout
        {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Finished {
        pid: child.id(),
        ending: Ending::Exited(status.code().unwrap_or(1)),
        duration: started.elapsed(),
        timed_out,
        interrupted_by: None,
    })
}

#[cfg(unix)]
mod unix {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::sync::{Arc, Condvar, Mutex, PoisonError};
    use std::thread::JoinHandle;

    use super::super::sys::{self, ChildEvent, Forwarding};
    use super::*;

    /// Signal handlers and the terminal are per process: one child at a
    /// time.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    pub fn run(argv: &Argv, options: &RunOptions) -> Result<Finished, SpawnError> {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        let program = argv.program();
        let forwarding = Forwarding::install().map_err(|source| SpawnError::Other {
            program: program.to_owned(),
            source,
        })?;
        let terminal = sys::foreground_terminal();
        let started = Instant::now();
        let child = std::process::Command::new(program)
            .args(argv.args())
            .process_group(0)
            .spawn()
            .map_err(|err| SpawnError::from_io(program, err))?;
        let pid_number = child.id();
        // The child is reaped by `sys::reap` below; std's handle is not
        // needed again, and dropping it neither waits nor kills.
        drop(child);
        let pid = i32::try_from(pid_number).unwrap_or(i32::MAX);
        forwarding.target(pid);
        if let Some(terminal) = terminal {
            hand_over(terminal, pid);
        }
        // A signal that came between installing the handler and targeting
        // the group was not passed on yet.
        if let Some(signal) = forwarding.received() {
            sys::signal_group(pid, signal);
        }
        let watchdog = options
            .timeout
            .map(|timeout| Watchdog::start(pid, timeout, options.grace));

        let waited = wait_for_end(pid, terminal);
        forwarding.untarget();
        let timed_out = watchdog.is_some_and(Watchdog::finish);
        let status = waited.and_then(|()| sys::reap(pid));
        let duration = started.elapsed();
        if let Some(terminal) = terminal {
            sys::set_foreground(terminal, sys::own_group());
        }
        let interrupted_by = forwarding.received();
        drop(forwarding);
        let status = status.map_err(|source| SpawnError::Other {
            program: program.to_owned(),
            source,
        })?;
        let ending = match (status.code(), status.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(signal)) => Ending::Signaled(signal),
            (None, None) => Ending::Exited(exit::GENERAL_ERROR),
        };
        Ok(Finished {
            pid: pid_number,
            ending,
            duration,
            timed_out,
            interrupted_by,
        })
    }

    /// Gives the terminal to the child's group if it is aigent's to give
    /// (never taking it from the shell while aigent is in the background),
    /// then continues the group, in case the child touched the terminal
    /// before it was its own and was stopped for it.
    fn hand_over(terminal: libc::c_int, group: i32) {
        if sys::foreground_group(terminal) == Some(sys::own_group()) {
            sys::set_foreground(terminal, group);
        }
        sys::signal_group(group, libc::SIGCONT);
    }

    /// Waits until the child ends. With a terminal, the child's stops are
    /// the job's: Ctrl-Z, or a read of the terminal while the job is in
    /// the background, stop aigent's job too (taking the terminal back for
    /// the shell); `fg` brings both back and `bg` continues both.
    fn wait_for_end(pid: i32, terminal: Option<libc::c_int>) -> io::Result<()> {
        loop {
            match sys::wait_event(pid, terminal.is_some())? {
                ChildEvent::Ended => return Ok(()),
                ChildEvent::Stopped(signal) => {
                    let Some(terminal) = terminal else { continue };
                    let own = sys::own_group();
                    let foreground = sys::foreground_group(terminal);
                    let in_foreground = foreground == Some(own) || foreground == Some(pid);
                    if signal == libc::SIGTSTP || !in_foreground {
                        if foreground == Some(pid) {
                            sys::set_foreground(terminal, own);
                        }
                        sys::suspend_own_job();
                    }
                    hand_over(terminal, pid);
                }
            }
        }
    }

    #[derive(Default)]
    struct WatchState {
        child_ended: bool,
        timed_out: bool,
    }

    /// The timeout: a thread that sleeps until the deadline or the child's
    /// end, whichever comes first.
    struct Watchdog {
        shared: Arc<(Mutex<WatchState>, Condvar)>,
        thread: JoinHandle<()>,
    }

    impl Watchdog {
        fn start(group: i32, timeout: Duration, grace: Duration) -> Self {
            let shared = Arc::new((Mutex::new(WatchState::default()), Condvar::new()));
            let watched = Arc::clone(&shared);
            // Forwarded signals stay on the waiting thread: there the
            // handler cannot run between untargeting and reaping.
            let thread = sys::with_forwarded_signals_blocked(|| {
                std::thread::spawn(move || watch(&watched, group, timeout, grace))
            });
            Self { shared, thread }
        }

        /// Tells the watchdog that the child ended (it is not reaped yet)
        /// and waits for it, so that any kill happens before the reaping.
        /// Returns whether the timeout expired.
        fn finish(self) -> bool {
            let (state, wake) = &*self.shared;
            state
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .child_ended = true;
            wake.notify_all();
            let _ = self.thread.join();
            state
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .timed_out
        }
    }

    fn watch(
        shared: &(Mutex<WatchState>, Condvar),
        group: i32,
        timeout: Duration,
        grace: Duration,
    ) {
        let (state, wake) = shared;
        let guard = state.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut guard, _) = wake
            .wait_timeout_while(guard, timeout, |state| !state.child_ended)
            .unwrap_or_else(PoisonError::into_inner);
        if guard.child_ended {
            return;
        }
        guard.timed_out = true;
        sys::signal_group(group, libc::SIGTERM);
        sys::signal_group(group, libc::SIGCONT);
        let (_guard, _) = wake
            .wait_timeout_while(guard, grace, |state| !state.child_ended)
            .unwrap_or_else(PoisonError::into_inner);
        // The child is not reaped before this thread ends, so the group id
        // is still the child's.
        sys::signal_group(group, libc::SIGKILL);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Argv {
        // Tests only: a fixed script, not an agent's input.
        Argv::from_words(["sh", "-c", script])
    }

    #[test]
    fn exit_status_passes_through() {
        let finished = run(&sh("exit 3"), &RunOptions::default()).unwrap();
        assert_eq!(finished.ending, Ending::Exited(3));
        assert_eq!(finished.aigent_exit_code(), 3);
        assert!(!finished.timed_out);
        assert_eq!(finished.interrupted_by, None);
    }

    #[test]
    fn a_signal_death_reports_128_plus_the_signal() {
        let finished = run(&sh("kill -KILL $$"), &RunOptions::default()).unwrap();
        assert_eq!(finished.ending, Ending::Signaled(libc::SIGKILL));
        assert_eq!(finished.aigent_exit_code(), 128 + libc::SIGKILL);
    }

    #[test]
    fn the_timeout_kills_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let script = format!(
            "trap '' TERM; sleep 30 & echo $! > {0}; sleep 30 & echo $! >> {0}; wait",
            pids.display()
        );
        let options = RunOptions {
            timeout: Some(Duration::from_millis(300)),
            grace: Duration::from_millis(200),
        };
        let finished = run(&sh(&script), &options).unwrap();
        assert!(finished.timed_out);
        assert_eq!(finished.aigent_exit_code(), exit::TIMEOUT);
        // The shell ignores SIGTERM: SIGKILL after the grace ended it.
        assert_eq!(finished.ending, Ending::Signaled(libc::SIGKILL));
        let text = std::fs::read_to_string(&pids).unwrap();
        for pid in text.lines() {
            let pid: i32 = pid.trim().parse().unwrap();
            assert!(gone_soon(pid), "process {pid} survived the timeout");
        }
    }

    #[test]
    fn not_found_and_not_executable() {
        let missing = run(
            &Argv::from_words(["aigent-no-such-program-xyz"]),
            &RunOptions::default(),
        );
        assert!(
            matches!(missing, Err(SpawnError::NotFound { .. })),
            "{missing:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("plain.txt");
        std::fs::write(&script, "not a program").unwrap();
        let denied = run(
            &Argv::from_words([script.display().to_string()]),
            &RunOptions::default(),
        );
        assert!(
            matches!(denied, Err(SpawnError::PermissionDenied { .. })),
            "{denied:?}"
        );
        let orphan = dir.path().join("orphan.sh");
        std::fs::write(&orphan, "#!/nonexistent/interpreter\n").unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&orphan, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let missing_interpreter = run(
            &Argv::from_words([orphan.display().to_string()]),
            &RunOptions::default(),
        );
        assert!(
            matches!(
                missing_interpreter,
                Err(SpawnError::InterpreterNotFound { .. })
            ),
            "{missing_interpreter:?}"
        );
    }

    /// A killed process whose parent is gone is reaped by init, which may
    /// take a moment; a zombie counts as gone.
    fn gone_soon(pid: i32) -> bool {
        for _ in 0..200 {
            if !super::super::sys::process_exists(pid) || is_zombie(pid) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    fn is_zombie(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(')')
                    .map(|(_, rest)| rest.trim_start().starts_with('Z'))
            })
            .unwrap_or(false)
    }
}
