//! SIGINT and SIGTERM for the commands that run to an end on their own
//! (CLI Agent Spec REQ-F-069, REQ-F-013): the command stops at once and
//! still answers, with a `CANCELLED` error (the envelope in json mode,
//! prose otherwise) and exit 130 or 143, instead of dying silently with no
//! output at all.
//!
//! The answer is rendered before the command starts, so the handler only
//! writes bytes it already has and exits (`write` and `_exit` are
//! async-signal-safe; nothing is allocated or locked). Once the command has
//! begun writing its own output, a second document would corrupt it: the
//! handler then only exits. A second signal while the first is handled
//! exits at once, so nothing is written twice.
//!
//! `run` forwards signals to its child, `skill new`, `--watch`, the
//! servers and the hook handle them themselves; they never install this.
//! The hook bounds its answer with [`answer_after`]'s alarm instead.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use aigent::report::{ErrorBody, ErrorCode, exit};

use super::{CliError, Context};

/// What the handler writes for each signal: (stdout, stderr).
struct Prepared {
    interrupt: (Vec<u8>, Vec<u8>),
    terminate: (Vec<u8>, Vec<u8>),
}

static PREPARED: OnceLock<Prepared> = OnceLock::new();

/// A signal is being handled.
static HANDLING: AtomicBool = AtomicBool::new(false);

/// Prepares the cancellation answers for `ctx` and installs the handler.
pub fn cancel_on_signals(ctx: &Context) {
    let answer = |signal: &str| {
        let mut body = ErrorBody::new(
            ErrorCode::Cancelled,
            format!(
                "`aigent {}` was cancelled by {signal}; it stopped where it was",
                ctx.command.replace('.', " ")
            ),
        )
        .with_extra("signal", signal);
        // The work may have been cut short part-way.
        body.extra.insert("partial".to_owned(), true.into());
        let exit_code = if signal == "SIGINT" {
            exit::INTERRUPTED
        } else {
            exit::TERMINATED
        };
        let (stdout, stderr) = super::output::render_failure(
            CliError {
                exit_code,
                body: Box::new(body),
            },
            ctx,
            0,
        );
        (stdout.into_bytes(), stderr.into_bytes())
    };
    let _ = PREPARED.set(Prepared {
        interrupt: answer("SIGINT"),
        terminate: answer("SIGTERM"),
    });
    install();
}

#[cfg(unix)]
fn install() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: the handler only uses async-signal-safe calls
            // (atomics, write, _exit) on data set before it was installed.
            unsafe { set_handler(signal, on_signal) };
        }
    });
}

#[cfg(not(unix))]
fn install() {}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    let code = if signal == libc::SIGINT {
        exit::INTERRUPTED
    } else {
        exit::TERMINATED
    };
    let (out, err): (&[u8], &[u8]) = match PREPARED.get() {
        Some(prepared) if signal == libc::SIGINT => (&prepared.interrupt.0, &prepared.interrupt.1),
        Some(prepared) => (&prepared.terminate.0, &prepared.terminate.1),
        None => (&[], &[]),
    };
    answer_once(out, err, &[], code);
}

/// What the alarm of [`answer_after`] writes: (stdout, stderr, exit code).
static ON_ALARM: OnceLock<(Vec<u8>, Vec<u8>, i32)> = OnceLock::new();

/// After `seconds`, writes `out` and `err` and exits with `code`, as
/// [`answer_once`] does, unless [`disarm`] comes first: for `aigent hook`,
/// whose answer is the client's protocol, a bound on its whole time
/// whatever it is stuck on. Once per process.
#[cfg(unix)]
pub fn answer_after(seconds: u32, out: Vec<u8>, err: Vec<u8>, code: i32) {
    if ON_ALARM.set((out, err, code)).is_err() {
        return;
    }
    // SAFETY: the handler only makes async-signal-safe calls (atomics,
    // write, _exit) on data set before it was installed. alarm(2) takes a
    // plain integer.
    unsafe {
        set_handler(libc::SIGALRM, on_alarm);
        libc::alarm(seconds);
    }
}

/// Installs `handler` for `signal`, without `SA_RESTART` (a blocked read
/// returns `EINTR`). rustix offers no stable safe way to install one.
///
/// # Safety
///
/// `handler` may only make async-signal-safe calls, on data set before
/// it is installed.
#[cfg(unix)]
pub(super) unsafe fn set_handler(signal: libc::c_int, handler: extern "C" fn(libc::c_int)) {
    // SAFETY: a zeroed sigaction is valid storage, filled with a handler of
    // the `extern "C" fn(c_int)` shape that sa_sigaction means without
    // SA_SIGINFO; the caller vouches for what the handler does.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        action.sa_flags = 0;
        libc::sigaction(signal, &action, std::ptr::null_mut());
    }
}

#[cfg(not(unix))]
pub fn answer_after(_seconds: u32, _out: Vec<u8>, _err: Vec<u8>, _code: i32) {}

/// Cancels [`answer_after`]'s alarm.
#[cfg(unix)]
pub fn disarm() {
    // SAFETY: alarm(2) takes a plain integer; 0 cancels.
    unsafe {
        libc::alarm(0);
    }
}

#[cfg(not(unix))]
pub fn disarm() {}

#[cfg(not(unix))]
pub fn answer_prepared() {}

#[cfg(unix)]
extern "C" fn on_alarm(_signal: libc::c_int) {
    answer_prepared();
}

/// Sends [`answer_after`]'s answer now and exits; returns only when none
/// was prepared. Allocates nothing (`memory` calls it from the allocator).
#[cfg(unix)]
pub fn answer_prepared() {
    if let Some((out, err, code)) = ON_ALARM.get() {
        answer_once(out, err, &[], *code);
    }
}

/// Writes a command's last answer and exits with `code`, once: whichever
/// of a signal and the deadline (`deadline.rs`) comes first answers, and a
/// second exits at once. `out` and `err` go out only while the command's
/// own output has not begun (a second document would corrupt it);
/// `late_err` is what goes to stderr after it has. Only async-signal-safe
/// calls (atomics, write, _exit), so a signal handler may call it.
#[cfg(unix)]
pub(super) fn answer_once(out: &[u8], err: &[u8], late_err: &[u8], code: i32) -> ! {
    use rustix::stdio::{stderr, stdout};
    let first = !HANDLING.swap(true, Ordering::SeqCst);
    if first {
        let write_all = |fd, bytes: &[u8]| {
            let mut rest = bytes;
            while !rest.is_empty() {
                match rustix::io::write(fd, rest) {
                    Ok(written) if written > 0 => rest = &rest[written..],
                    Err(rustix::io::Errno::INTR) => {}
                    _ => break,
                }
            }
        };
        if super::output::has_started() {
            write_all(stderr(), late_err);
        } else {
            write_all(stdout(), out);
            write_all(stderr(), err);
        }
    }
    // SAFETY: _exit(2) is async-signal-safe and takes a plain integer; std's
    // `exit` is not (it runs atexit handlers and flushes locked buffers,
    // which the command's thread may hold).
    unsafe { libc::_exit(code) }
}

#[cfg(not(unix))]
pub(super) fn answer_once(out: &[u8], err: &[u8], late_err: &[u8], code: i32) -> ! {
    use std::io::Write as _;
    if super::output::has_started() {
        let _ = std::io::stderr().write_all(late_err);
    } else {
        let _ = std::io::stdout().write_all(out);
        let _ = std::io::stderr().write_all(err);
    }
    std::process::exit(code)
}
