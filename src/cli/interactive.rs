//! What interactive commands need from the terminal: knowing whether there
//! is one, ending cleanly on Ctrl-C, and putting the cursor back however a
//! prompt ends.
//!
//! Ctrl-C has two meanings. While questions are asked nothing is on disk,
//! so it ends the process at once: the handler restores the terminal,
//! prints the prepared error and exits 130 (see [`Prompting`]). Afterwards,
//! while files are written, it only raises a flag ([`interrupted`]) that
//! the writer checks between steps, so it can remove what it made first.
//!
//! Why not leave it to dialoguer: on Ctrl-C it raises SIGINT against its
//! own process, which by default dies with the cursor hidden; and a flag
//! alone is not enough while prompting, since a SIGINT that arrives between
//! two prompts (the terminal briefly back in cooked mode) would leave the
//! next prompt waiting for a key.

use std::io::IsTerminal;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use dialoguer::console::Term;

/// Prompts are possible: stdin and stdout are terminals, and so is stderr,
/// where dialoguer draws them.
pub fn terminals_available() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal() && Term::stderr().is_term()
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static EXIT_ON_INTERRUPT: AtomicBool = AtomicBool::new(false);

/// What the handler prints before exiting: (stdout, stderr).
static EXIT_OUTPUT: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();

#[cfg(unix)]
static SAVED_TERMIOS: OnceLock<rustix::termios::Termios> = OnceLock::new();

#[cfg(unix)]
const SHOW_CURSOR: &[u8] = b"\x1b[?25h";

/// Whether Ctrl-C was pressed since the handler was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// From now on Ctrl-C only sets [`interrupted`], for a loop that checks
/// it (`--watch`) and ends cleanly.
pub fn catch_interrupts() {
    install_handler();
}

/// While alive, Ctrl-C (SIGINT) ends the process with exit 130 after
/// restoring the terminal and printing the prepared output. When dropped,
/// the cursor is shown again and Ctrl-C only sets [`interrupted`].
pub struct Prompting {
    _private: (),
}

impl Prompting {
    /// `stdout` and `stderr` are what to print on Ctrl-C (the rendered
    /// INTERRUPTED error).
    pub fn begin(stdout: String, stderr: String) -> Self {
        let _ = EXIT_OUTPUT.set((stdout.into_bytes(), stderr.into_bytes()));
        #[cfg(unix)]
        save_terminal_state();
        EXIT_ON_INTERRUPT.store(true, Ordering::SeqCst);
        install_handler();
        Self { _private: () }
    }
}

impl Drop for Prompting {
    fn drop(&mut self) {
        EXIT_ON_INTERRUPT.store(false, Ordering::SeqCst);
        // A select prompt hides the cursor and does not show it again when
        // it fails.
        let _ = Term::stderr().show_cursor();
    }
}

#[cfg(unix)]
fn save_terminal_state() {
    if let Ok(termios) = rustix::termios::tcgetattr(rustix::stdio::stdin()) {
        let _ = SAVED_TERMIOS.set(termios);
    }
}

#[cfg(unix)]
fn install_handler() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // SAFETY: the handler only uses async-signal-safe calls (atomics,
        // tcsetattr, write, _exit) and data set before it was installed.
        // No SA_RESTART: a blocked read returns EINTR.
        unsafe { super::signals::set_handler(libc::SIGINT, on_sigint) };
    });
}

#[cfg(not(unix))]
fn install_handler() {}

#[cfg(unix)]
extern "C" fn on_sigint(_signal: libc::c_int) {
    use rustix::stdio::{stderr, stdout};
    INTERRUPTED.store(true, Ordering::SeqCst);
    if !EXIT_ON_INTERRUPT.load(Ordering::SeqCst) {
        return;
    }
    // Only async-signal-safe calls from here on (rustix issues tcsetattr
    // and write directly), on bytes prepared beforehand.
    if let Some(termios) = SAVED_TERMIOS.get() {
        let _ = rustix::termios::tcsetattr(
            rustix::stdio::stdin(),
            rustix::termios::OptionalActions::Now,
            termios,
        );
    }
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
    write_all(stderr(), SHOW_CURSOR);
    write_all(stderr(), b"\n");
    if let Some((out, err)) = EXIT_OUTPUT.get() {
        write_all(stdout(), out);
        write_all(stderr(), err);
    }
    // SAFETY: _exit(2) is async-signal-safe and takes a plain integer; std's
    // `exit` is not (it runs atexit handlers and flushes locked buffers).
    unsafe { libc::_exit(aigent::report::exit::INTERRUPTED) }
}

/// Whether a prompt failed because of Ctrl-C (or a signal that interrupted
/// its read).
pub fn is_interruption(err: &dialoguer::Error) -> bool {
    let dialoguer::Error::IO(io) = err;
    io.kind() == std::io::ErrorKind::Interrupted || interrupted()
}
