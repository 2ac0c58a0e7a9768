//! Spawning an argv and seeing it through to the end (Phase 2).
//!
//! - The argv goes to `std::process::Command` as a list: no shell, no glob
//!   expansion, no word splitting. `PATH` lookup of a bare program name is
//!   the operating system's (`execvp`), as for any program.
//! - The child's environment is the declared one (see [`super::env`]), never
//!   aigent's whole environment.
//! - With [`Output::Inherit`] (the CLI) the child inherits stdin, stdout and
//!   stderr, so its output streams live and aigent never buffers it. With
//!   [`Output::Capture`] (a server, whose stdout is its protocol channel)
//!   stdin is closed and each of stdout and stderr is kept up to a limit,
//!   the rest read and dropped; on unix the calling thread does it all,
//!   in one `poll` loop ([`detached`]), with no thread per run.
//! - The child leads a process group of its own, so that everything it
//!   starts can be signalled at once.
//! - **Timeout.** When it expires, the whole group gets SIGTERM (and
//!   SIGCONT, so a stopped process can act on it). As soon as the child
//!   itself has exited, or after the grace period at the latest, whatever
//!   is left of the group gets SIGKILL. The child is reaped only after that,
//!   so its group id cannot have been reused by then. A process that left
//!   the group on purpose (a daemon calling `setsid`) is out of reach.
//! - **The child's end is its group's end.** Whatever the child left
//!   running in its group gets SIGKILL once the child has exited, before it
//!   is reaped, so no background process outlives the call.
//! - **Cancellation** ([`Cancel`]) ends the group as the timeout does.
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
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(not(unix))]
use std::sync::{Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use super::argv::Argv;
use crate::report::exit;

/// How long the group has between SIGTERM and SIGKILL when the timeout
/// expires.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(2);

#[derive(Clone)]
pub struct RunOptions {
    /// Kill the child's group after this long.
    pub timeout: Option<Duration>,
    /// Between SIGTERM and SIGKILL, once the timeout expired.
    pub grace: Duration,
    pub output: Output,
    /// Set from another thread to end the group as the timeout would.
    pub cancel: Option<Cancel>,
    /// Called about once a second while the child runs, with the time so far.
    pub progress: Option<Progress>,
    /// A sandboxed child that needs a terminal gets a pty of aigent's
    /// (when aigent has one): never aigent's own terminal.
    pub interactive: bool,
    /// With [`Output::Capture`] on unix: called with each piece of the
    /// child's stderr as it is read (all of it, past the capture limit
    /// too), on the thread that runs the child; it must not block.
    pub stderr_tap: Option<StderrTap>,
}

pub type Progress = Arc<dyn Fn(Duration) + Send + Sync>;
pub type StderrTap = Arc<dyn Fn(&[u8]) + Send + Sync>;

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            timeout: None,
            grace: DEFAULT_GRACE,
            output: Output::Inherit,
            cancel: None,
            progress: None,
            interactive: false,
            stderr_tap: None,
        }
    }
}

impl std::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("timeout", &self.timeout)
            .field("grace", &self.grace)
            .field("output", &self.output)
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.is_some())
            .field("interactive", &self.interactive)
            .field("stderr_tap", &self.stderr_tap.is_some())
            .finish()
    }
}

/// Where the child's output goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// The child inherits aigent's stdin, stdout and stderr.
    Inherit,
    /// stdin is closed; stdout and stderr are kept up to `limit` bytes each.
    Capture { limit: usize },
}

/// A request to stop a running child, shared with whoever may make it,
/// and why it was made (for the outcome's audit record).
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<CancelState>);

#[derive(Debug, Default)]
struct CancelState {
    asked: AtomicBool,
    reason: std::sync::OnceLock<String>,
}

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.0.asked.store(true, Ordering::SeqCst);
    }

    /// Cancels, keeping the first reason given.
    pub fn cancel_because(&self, reason: &str) {
        let _ = self.0.reason.set(reason.to_owned());
        self.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.asked.load(Ordering::SeqCst)
    }

    /// Why the run was cancelled, when the canceller said.
    pub fn reason(&self) -> Option<&str> {
        self.0.reason.get().map(String::as_str)
    }
}

/// The first bytes of a captured stream, and whether more came.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    pub bytes: Vec<u8>,
    pub truncated: bool,
}

/// How the child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    /// Killed by this signal.
    Signaled(i32),
}

/// A child that ran to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub pid: u32,
    pub ending: Ending,
    /// From just before the spawn to the reaping.
    pub duration: Duration,
    /// The timeout expired and the group was killed.
    pub timed_out: bool,
    /// The run was cancelled and the group was killed.
    pub cancelled: bool,
    /// aigent received this signal and passed it on.
    pub interrupted_by: Option<i32>,
    /// With [`Output::Capture`]: what the child wrote.
    pub stdout: Option<Captured>,
    pub stderr: Option<Captured>,
    /// Processes of the run still there when it ended, which aigent
    /// killed (the child's background processes, daemons it started).
    pub descendants_killed: u32,
    /// Parts of a best-effort sandbox the child could not enter after all,
    /// and why.
    pub sandbox_lapses: Vec<String>,
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
    /// after an interruption (or 130 after a cancellation), otherwise the
    /// child's status passed through (128 + the signal when a signal killed
    /// it, as shells report it).
    pub fn aigent_exit_code(&self) -> i32 {
        if self.timed_out {
            return exit::TIMEOUT;
        }
        if self.cancelled {
            return exit::INTERRUPTED;
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
#[cfg(all(unix, test))]
pub(crate) fn run(argv: &Argv, options: &RunOptions) -> Result<Finished, SpawnError> {
    unix::run(argv, options, None)
}

/// [`run`], with the child confined by `sandbox` before it execs (see
/// [`super::sandbox`]). A child that cannot enter it never runs the
/// program: the spawn fails.
#[cfg(unix)]
pub(crate) fn run_sandboxed(
    argv: &Argv,
    options: &RunOptions,
    sandbox: Option<super::sandbox::Enforcer>,
) -> Result<Finished, SpawnError> {
    unix::run(argv, options, sandbox)
}

#[cfg(not(unix))]
pub(crate) fn run_sandboxed(
    argv: &Argv,
    options: &RunOptions,
    _sandbox: Option<super::sandbox::Enforcer>,
) -> Result<Finished, SpawnError> {
    run(argv, options)
}

/// Runs `argv` to its end. Without process groups, the timeout and a
/// cancellation kill the child only.
#[cfg(not(unix))]
pub(crate) fn run(argv: &Argv, options: &RunOptions) -> Result<Finished, SpawnError> {
    let started = Instant::now();
    let mut command = command_for(argv);
    if let Output::Capture { .. } = options.output {
        command
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
    }
    let mut child = command
        .spawn()
        .map_err(|err| SpawnError::from_io(argv.program(), err))?;
    let readers = Readers::start(&mut child, options.output);
    let mut timed_out = false;
    let mut cancelled = false;
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
        let expired = options
            .timeout
            .is_some_and(|timeout| started.elapsed() >= timeout);
        let asked = options.cancel.as_ref().is_some_and(Cancel::is_cancelled);
        if !(timed_out || cancelled) && (expired || asked) {
            timed_out = expired;
            cancelled = !expired;
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (stdout, stderr) = readers.finish(options.grace);
    Ok(Finished {
        pid: child.id(),
        ending: Ending::Exited(status.code().unwrap_or(1)),
        duration: started.elapsed(),
        timed_out,
        cancelled,
        interrupted_by: None,
        stdout,
        stderr,
        descendants_killed: 0,
        sandbox_lapses: Vec::new(),
    })
}

/// The command for `argv`: no shell, and the declared environment only.
fn command_for(argv: &Argv) -> std::process::Command {
    let mut command = std::process::Command::new(argv.program());
    command.args(argv.args()).env_clear().envs(
        argv.env()
            .entries()
            .iter()
            .map(|entry| (&entry.name, &entry.value)),
    );
    command
}

/// The threads that drain a captured child's stdout and stderr (without
/// unix's `poll`).
#[cfg(not(unix))]
struct Readers {
    streams: Vec<(Arc<Mutex<Captured>>, bool)>,
    done: mpsc::Receiver<()>,
    capturing: bool,
}

#[cfg(not(unix))]
impl Readers {
    fn start(child: &mut std::process::Child, output: Output) -> Self {
        let (sender, done) = mpsc::channel();
        let Output::Capture { limit } = output else {
            return Self {
                streams: Vec::new(),
                done,
                capturing: false,
            };
        };
        let mut streams = Vec::new();
        let pipes: [Option<Box<dyn io::Read + Send>>; 2] = [
            child
                .stdout
                .take()
                .map(|pipe| Box::new(pipe) as Box<dyn io::Read + Send>),
            child
                .stderr
                .take()
                .map(|pipe| Box::new(pipe) as Box<dyn io::Read + Send>),
        ];
        for pipe in pipes {
            let captured = Arc::new(Mutex::new(Captured::default()));
            let present = pipe.is_some();
            if let Some(pipe) = pipe {
                let into = Arc::clone(&captured);
                let sender = sender.clone();
                std::thread::spawn(move || drain(pipe, limit, &into, &sender));
            }
            streams.push((captured, present));
        }
        Self {
            streams,
            done,
            capturing: true,
        }
    }

    /// What each stream held. A pipe that a process outside the group
    /// (one that called `setsid`) keeps open is given up after `grace`:
    /// its reader ends with the pipe, and the result keeps what came so far,
    /// marked truncated.
    fn finish(self, grace: Duration) -> (Option<Captured>, Option<Captured>) {
        if !self.capturing {
            return (None, None);
        }
        let deadline = Instant::now() + grace;
        let expected = self.streams.iter().filter(|(_, present)| *present).count();
        let mut ended = 0;
        let mut complete = true;
        while ended < expected {
            let left = deadline.saturating_duration_since(Instant::now());
            if self.done.recv_timeout(left).is_err() {
                complete = false;
                break;
            }
            ended += 1;
        }
        let mut taken = self.streams.into_iter().map(|(captured, _)| {
            let mut captured =
                std::mem::take(&mut *captured.lock().unwrap_or_else(PoisonError::into_inner));
            captured.truncated |= !complete;
            captured
        });
        (taken.next(), taken.next())
    }
}

/// Reads `pipe` to its end, keeping at most `limit` bytes in `into`.
#[cfg(not(unix))]
fn drain(mut pipe: impl io::Read, limit: usize, into: &Mutex<Captured>, done: &mpsc::Sender<()>) {
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => {
                let mut captured = into.lock().unwrap_or_else(PoisonError::into_inner);
                let room = limit.saturating_sub(captured.bytes.len());
                captured.bytes.extend_from_slice(&buffer[..read.min(room)]);
                captured.truncated |= read > room;
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = done.send(());
}

#[cfg(unix)]
mod detached;
#[cfg(target_os = "linux")]
mod terminal;

#[cfg(unix)]
mod unix {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::sync::{Arc, Condvar, Mutex, PoisonError};
    use std::thread::JoinHandle;

    use std::os::fd::OwnedFd;

    use super::super::sandbox::Enforcer;
    use super::super::sys::{self, ChildEvent, Forwarding};
    use super::detached::{self, PROGRESS_EVERY, Stop, TICK};
    use super::*;

    /// Signal handlers and the terminal are per process: one child at a
    /// time.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    pub fn run(
        argv: &Argv,
        options: &RunOptions,
        sandbox: Option<Enforcer>,
    ) -> Result<Finished, SpawnError> {
        match options.output {
            Output::Inherit => run_attached(argv, options, sandbox),
            Output::Capture { limit } => run_detached(argv, options, limit, sandbox),
        }
    }

    /// A child once spawned: its pid (its process group's id too) and,
    /// when captured, the read ends of its stdout and stderr.
    struct Started {
        pid: i32,
        stdout: Option<OwnedFd>,
        stderr: Option<OwnedFd>,
        /// In a sandbox: a session of its own (so no terminal to hand
        /// over), aigent its subreaper.
        sandboxed: bool,
        /// Best-effort parts the child could not enter.
        lapses: Vec<String>,
        /// The pty of an interactive child, and its relay.
        #[cfg(target_os = "linux")]
        relay: Option<super::terminal::Relay>,
    }

    /// Spawns `argv`: in the sandbox when there is one (the child enters it
    /// on its way to exec, see [`Enforcer::spawn`]), else as a plain
    /// process group of its own. `capture`: stdin is `/dev/null`, stdout
    /// and stderr are pipes.
    fn start(
        argv: &Argv,
        sandbox: Option<Enforcer>,
        capture: bool,
        interactive: bool,
    ) -> io::Result<Started> {
        #[cfg(target_os = "linux")]
        if let Some(enforcer) = sandbox {
            return start_sandboxed(argv, enforcer, capture, interactive);
        }
        let _ = (sandbox, interactive);
        let mut command = command_for(argv);
        command.process_group(0);
        if capture {
            command
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
        }
        let mut child = command.spawn()?;
        let pid = i32::try_from(child.id()).unwrap_or(i32::MAX);
        let stdout = child.stdout.take().map(OwnedFd::from);
        let stderr = child.stderr.take().map(OwnedFd::from);
        // The child is reaped by `sys::reap`; std's handle is not needed
        // again, and dropping it neither waits nor kills.
        drop(child);
        Ok(Started {
            pid,
            stdout,
            stderr,
            sandboxed: false,
            lapses: Vec::new(),
            #[cfg(target_os = "linux")]
            relay: None,
        })
    }

    #[cfg(target_os = "linux")]
    fn start_sandboxed(
        argv: &Argv,
        enforcer: Enforcer,
        capture: bool,
        interactive: bool,
    ) -> io::Result<Started> {
        use super::super::sandbox::child::{Program, Stdin, Stdio};
        sys::become_subreaper();
        sys::save_own_limits();
        let entries = argv.env().entries();
        let path = entries
            .iter()
            .find(|entry| entry.name == "PATH")
            .map(|entry| entry.value.as_os_str());
        let program = Program::new(
            argv.program(),
            argv.args().iter().map(String::as_str),
            entries
                .iter()
                .map(|entry| (entry.name.as_str(), entry.value.as_os_str())),
            path,
        )?;
        let mut stdout = None;
        let mut stderr = None;
        let mut relay = None;
        let stdio = if capture {
            let (out_read, out_write) = pipe()?;
            let (err_read, err_write) = pipe()?;
            stdout = Some(out_read);
            stderr = Some(err_read);
            Stdio {
                stdin: Stdin::Null,
                stdout: Some(out_write),
                stderr: Some(err_write),
                terminal: None,
            }
        } else if let Some(pty) = interactive
            .then(super::terminal::Pty::open_for_aigent)
            .flatten()
        {
            let (stdio, made) = pty.into_stdio()?;
            relay = Some(made);
            stdio
        } else {
            Stdio::inherit()
        };
        let spawned = enforcer.spawn(program, stdio)?;
        let pid = i32::try_from(spawned.pid).unwrap_or(i32::MAX);
        let relay = relay.map(super::terminal::Relay::start);
        Ok(Started {
            pid,
            stdout,
            stderr,
            sandboxed: true,
            lapses: spawned
                .view_failed
                .map(|why| format!("file metadata: the read-only view could not be made ({why})"))
                .into_iter()
                .collect(),
            relay,
        })
    }

    #[cfg(target_os = "linux")]
    fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(io::Error::from)
    }

    /// The CLI's run: the child shares aigent's terminal and signals (a
    /// sandboxed child has a session of its own: aigent passes signals
    /// on, and Ctrl-Z stops both).
    fn run_attached(
        argv: &Argv,
        options: &RunOptions,
        sandbox: Option<Enforcer>,
    ) -> Result<Finished, SpawnError> {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        let program = argv.program();
        let mut forwarding = Forwarding::install().map_err(|source| SpawnError::Other {
            program: program.to_owned(),
            source,
        })?;
        let terminal = sys::foreground_terminal();
        let started = Instant::now();
        #[allow(unused_mut)]
        let mut child = start(argv, sandbox, false, options.interactive)
            .map_err(|err| SpawnError::from_io(program, err))?;
        let pid = child.pid;
        forwarding.target(pid);
        // A sandboxed child is in a session of its own: the terminal is not
        // its to take. Ctrl-Z, which the terminal sends to aigent, stops
        // its group and then aigent.
        let terminal = if child.sandboxed {
            if terminal.is_some() {
                forwarding.forward_stops();
            }
            None
        } else {
            terminal
        };
        if let Some(terminal) = terminal {
            hand_over(terminal, pid);
        }
        // A signal that came between installing the handler and targeting
        // the group was not passed on yet.
        if let Some(signal) = forwarding.received() {
            sys::signal_group(pid, signal);
        }
        let watchdog = Watchdog::start(pid, options);

        let waited = wait_for_end(pid, terminal);
        forwarding.untarget();
        let stopped = watchdog.finish();
        end_leftovers(pid);
        let status = waited.and_then(|()| sys::reap(pid));
        let descendants_killed = if child.sandboxed {
            sys::reap_group(pid, options.grace)
        } else {
            0
        };
        #[cfg(target_os = "linux")]
        if let Some(relay) = child.relay.take() {
            relay.finish();
        }
        if child.sandboxed {
            sys::restore_own_limits();
        }
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
        Ok(Finished {
            pid: u32::try_from(pid).unwrap_or_default(),
            ending: ending_of(status),
            duration,
            timed_out: stopped == Some(Stop::Timeout),
            cancelled: stopped == Some(Stop::Cancel),
            interrupted_by,
            stdout: None,
            stderr: None,
            descendants_killed,
            sandbox_lapses: child.lapses,
        })
    }

    /// A server's run: no terminal, no signal handlers (the server owns its
    /// own), so several can run at once; output captured. Everything
    /// happens on the calling thread ([`detached`]).
    fn run_detached(
        argv: &Argv,
        options: &RunOptions,
        limit: usize,
        sandbox: Option<Enforcer>,
    ) -> Result<Finished, SpawnError> {
        let program = argv.program();
        let started = Instant::now();
        let child =
            start(argv, sandbox, true, false).map_err(|err| SpawnError::from_io(program, err))?;
        let pid = child.pid;
        let mut supervisor = detached::Supervisor::new(pid, child.stdout, child.stderr, limit)
            .with_stderr_tap(options.stderr_tap.clone());
        let (waited, stopped) = supervisor.until_exit(options, started);
        // Before the pipes are read to their end: a grandchild holding them
        // open would otherwise keep them open.
        end_leftovers(pid);
        let status = waited.and_then(|()| sys::reap(pid));
        let descendants_killed = if child.sandboxed {
            sys::reap_group(pid, options.grace)
        } else {
            0
        };
        if child.sandboxed {
            sys::restore_own_limits();
        }
        let duration = started.elapsed();
        let (stdout, stderr) = supervisor.finish(options.grace);
        let status = status.map_err(|source| SpawnError::Other {
            program: program.to_owned(),
            source,
        })?;
        Ok(Finished {
            pid: u32::try_from(pid).unwrap_or_default(),
            ending: ending_of(status),
            duration,
            timed_out: stopped == Some(Stop::Timeout),
            cancelled: stopped == Some(Stop::Cancel),
            interrupted_by: None,
            stdout,
            stderr,
            descendants_killed,
            sandbox_lapses: child.lapses,
        })
    }

    /// The child has exited but is not reaped, so its group id is still
    /// its own: whatever it left running goes with it.
    fn end_leftovers(group: i32) {
        sys::signal_group(group, libc::SIGKILL);
    }

    fn ending_of(status: std::process::ExitStatus) -> Ending {
        match (status.code(), status.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(signal)) => Ending::Signaled(signal),
            (None, None) => Ending::Exited(exit::GENERAL_ERROR),
        }
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
        stopped: Option<Stop>,
    }

    /// The CLI's timeout, cancellation and progress: a thread that wakes at
    /// most every tick until the child's end (the waiting thread must stay
    /// in `waitid` for the terminal's job control).
    struct Watchdog {
        shared: Arc<(Mutex<WatchState>, Condvar)>,
        thread: JoinHandle<()>,
    }

    impl Watchdog {
        fn start(group: i32, options: &RunOptions) -> Self {
            let shared = Arc::new((Mutex::new(WatchState::default()), Condvar::new()));
            let watched = Arc::clone(&shared);
            let options = options.clone();
            // Forwarded signals stay on the waiting thread: there the
            // handler cannot run between untargeting and reaping.
            let thread = sys::with_forwarded_signals_blocked(|| {
                std::thread::spawn(move || watch(&watched, group, &options))
            });
            Self { shared, thread }
        }

        /// Tells the watchdog that the child ended (it is not reaped yet)
        /// and waits for it, so that any kill happens before the reaping.
        /// Returns why the group was stopped, if it was.
        fn finish(self) -> Option<Stop> {
            let (state, wake) = &*self.shared;
            state
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .child_ended = true;
            wake.notify_all();
            let _ = self.thread.join();
            state.lock().unwrap_or_else(PoisonError::into_inner).stopped
        }
    }

    fn watch(shared: &(Mutex<WatchState>, Condvar), group: i32, options: &RunOptions) {
        let (state, wake) = shared;
        let started = Instant::now();
        let deadline = options.timeout.map(|timeout| started + timeout);
        let mut next_progress = started + PROGRESS_EVERY;
        let mut guard = state.lock().unwrap_or_else(PoisonError::into_inner);
        let stop = loop {
            if guard.child_ended {
                return;
            }
            let now = Instant::now();
            if deadline.is_some_and(|deadline| now >= deadline) {
                break Stop::Timeout;
            }
            if options.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                break Stop::Cancel;
            }
            if let Some(progress) = &options.progress
                && now >= next_progress
            {
                drop(guard);
                progress(started.elapsed());
                next_progress += PROGRESS_EVERY;
                guard = state.lock().unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            let mut wait = TICK;
            if let Some(deadline) = deadline {
                wait = wait.min(deadline.saturating_duration_since(now));
            }
            guard = wake
                .wait_timeout(guard, wait)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        };
        guard.stopped = Some(stop);
        sys::signal_group(group, libc::SIGTERM);
        sys::signal_group(group, libc::SIGCONT);
        let (_guard, _) = wake
            .wait_timeout_while(guard, options.grace, |state| !state.child_ended)
            .unwrap_or_else(PoisonError::into_inner);
        // The child is not reaped before this thread ends, so the group id
        // is still the child's.
        sys::signal_group(group, libc::SIGKILL);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::sync::Mutex;

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
            ..RunOptions::default()
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
    fn what_the_child_leaves_running_ends_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let script = format!("sleep 30 & echo $! > {0}; exit 0", pids.display());
        for output in [Output::Inherit, Output::Capture { limit: 1024 }] {
            let options = RunOptions {
                output,
                ..RunOptions::default()
            };
            let finished = run(&sh(&script), &options).unwrap();
            assert_eq!(finished.ending, Ending::Exited(0));
            let pid: i32 = std::fs::read_to_string(&pids)
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            assert!(
                gone_soon(pid),
                "{output:?}: background process {pid} outlived the child"
            );
        }
    }

    #[test]
    fn captured_output_is_bounded_and_says_so() {
        let options = RunOptions {
            output: Output::Capture { limit: 10 },
            ..RunOptions::default()
        };
        let finished = run(&sh("printf 0123456789ABCDEF; printf err >&2"), &options).unwrap();
        let stdout = finished.stdout.unwrap();
        assert_eq!(stdout.bytes, b"0123456789");
        assert!(stdout.truncated);
        let stderr = finished.stderr.unwrap();
        assert_eq!(stderr.bytes, b"err");
        assert!(!stderr.truncated);
    }

    /// Both pipes are read while the child runs: a child that fills one
    /// before writing the other does not wait on aigent.
    #[test]
    fn captured_output_past_the_pipe_buffers_is_read_and_dropped() {
        let options = RunOptions {
            output: Output::Capture { limit: 100 },
            timeout: Some(Duration::from_secs(20)),
            ..RunOptions::default()
        };
        let finished = run(
            &sh("head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2; echo done >&2"),
            &options,
        )
        .unwrap();
        assert_eq!(finished.ending, Ending::Exited(0));
        assert!(!finished.timed_out);
        for captured in [finished.stdout.unwrap(), finished.stderr.unwrap()] {
            assert_eq!(captured.bytes, vec![0u8; 100]);
            assert!(captured.truncated);
        }
    }

    #[test]
    fn a_captured_run_is_ended_by_its_timeout() {
        let options = RunOptions {
            output: Output::Capture { limit: 1024 },
            timeout: Some(Duration::from_millis(300)),
            grace: Duration::from_millis(200),
            ..RunOptions::default()
        };
        let started = Instant::now();
        let finished = run(&sh("trap '' TERM; echo started; sleep 30"), &options).unwrap();
        assert!(finished.timed_out);
        assert_eq!(finished.ending, Ending::Signaled(libc::SIGKILL));
        assert_eq!(finished.stdout.unwrap().bytes, b"started\n");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    /// A child that writes without end is still ended by its timeout.
    #[test]
    fn endless_output_does_not_hold_off_the_timeout() {
        let options = RunOptions {
            output: Output::Capture { limit: 64 },
            timeout: Some(Duration::from_millis(300)),
            grace: Duration::from_millis(200),
            ..RunOptions::default()
        };
        let started = Instant::now();
        let finished = run(&Argv::from_words(["yes"]), &options).unwrap();
        assert!(finished.timed_out);
        assert!(finished.stdout.unwrap().truncated);
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    /// A process that left the group keeps the pipe open: what came is
    /// kept, marked truncated, once the grace period is over.
    #[test]
    fn a_pipe_held_open_outside_the_group_is_given_up_after_the_grace() {
        let options = RunOptions {
            output: Output::Capture { limit: 1024 },
            grace: Duration::from_millis(300),
            ..RunOptions::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let left = dir.path().join("left");
        // The child ends only once the process has left its group.
        let script = format!(
            "setsid sh -c 'echo $$ > {0}; exec sleep 5' & while [ ! -s {0} ]; do sleep 0.01; done; echo hello",
            left.display()
        );
        let started = Instant::now();
        let finished = run(&sh(&script), &options).unwrap();
        let elapsed = started.elapsed();
        if let Ok(pid) = std::fs::read_to_string(&left)
            .unwrap()
            .trim()
            .parse::<i32>()
        {
            // The sleeper outside the group.
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
        }
        assert_eq!(finished.ending, Ending::Exited(0));
        let stdout = finished.stdout.unwrap();
        assert_eq!(stdout.bytes, b"hello\n");
        assert!(stdout.truncated);
        assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    }

    #[test]
    fn a_cancellation_ends_the_group() {
        let cancel = Cancel::new();
        let options = RunOptions {
            output: Output::Capture { limit: 1024 },
            cancel: Some(cancel.clone()),
            grace: Duration::from_millis(200),
            ..RunOptions::default()
        };
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            cancel.cancel();
        });
        let finished = run(&sh("sleep 30"), &options).unwrap();
        canceller.join().unwrap();
        assert!(finished.cancelled);
        assert!(!finished.timed_out);
        assert_eq!(finished.aigent_exit_code(), exit::INTERRUPTED);
    }

    #[test]
    fn progress_is_reported_while_the_child_runs() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&seen);
        let options = RunOptions {
            output: Output::Capture { limit: 16 },
            progress: Some(Arc::new(move |elapsed: Duration| {
                into.lock().unwrap().push(elapsed);
            })),
            ..RunOptions::default()
        };
        run(&sh("sleep 2.3"), &options).unwrap();
        let seen = seen.lock().unwrap();
        assert!(seen.len() >= 2, "{seen:?}");
        assert!(seen.windows(2).all(|pair| pair[0] <= pair[1]), "{seen:?}");
    }

    #[test]
    fn the_child_gets_the_declared_environment_only() {
        // SAFETY-free: a variable set in this test process must not reach
        // the child, whose environment is the argv's.
        let options = RunOptions {
            output: Output::Capture { limit: 4096 },
            ..RunOptions::default()
        };
        let finished = run(&Argv::from_words(["env"]), &options).unwrap();
        let text = String::from_utf8(finished.stdout.unwrap().bytes).unwrap();
        for line in text.lines() {
            let name = line.split('=').next().unwrap_or_default();
            // The base set, and the defaults every child gets (env.rs).
            use crate::exec::env::{BASE, LOCALE, NON_INTERACTIVE};
            assert!(
                BASE.contains(&name)
                    || NON_INTERACTIVE.iter().any(|(set, _)| *set == name)
                    || LOCALE.0 == name,
                "`{name}` is not in the base set nor a default:\n{text}"
            );
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
