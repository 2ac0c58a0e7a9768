//! The binary in a pseudo-terminal, for the prompts people answer
//! (`skill new`, `hook learn --review`).

use std::process::Command;
use std::time::Duration;

use expectrl::process::unix::WaitStatus;
use expectrl::{Eof, Expect, Session};

use super::Sandbox;

pub const ENTER: &str = "\r";
pub const DOWN: &str = "\x1b[B";
pub const UP: &str = "\x1b[A";
pub const CTRL_C: &str = "\x03";
pub const SHOW_CURSOR: &str = "\x1b[?25h";

pub struct Pty {
    session: expectrl::session::OsSession,
}

impl Pty {
    /// `aigent --color never ARGS` in the sandbox, its environment the
    /// sandbox's alone.
    pub fn spawn(sandbox: &Sandbox, args: &[&str]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_aigent"));
        command
            .args(["--color", "never"])
            .args(args)
            .current_dir(sandbox.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TERM", "xterm")
            .env("HOME", sandbox.join("home"))
            .env("XDG_STATE_HOME", sandbox.join("state"))
            .env("XDG_CONFIG_HOME", sandbox.config_home())
            .env("XDG_CACHE_HOME", sandbox.join("cache"))
            .env("AIGENT_AUDIT_LOG", sandbox.audit_log());
        let mut session = Session::spawn(command).expect("spawn in a pty");
        // Wide, so no prompt wraps and splits what the test looks for.
        session
            .get_process_mut()
            .set_window_size(200, 50)
            .expect("window size");
        // Generous: the machine may be busy; nothing here measures time.
        session.set_expect_timeout(Some(Duration::from_secs(60)));
        Self { session }
    }

    #[track_caller]
    pub fn expect(&mut self, text: &str) {
        if let Err(err) = self.session.expect(text) {
            panic!("waiting for {text:?}: {err}");
        }
    }

    #[track_caller]
    pub fn send(&mut self, keys: &str) {
        self.session.send(keys).expect("send keys");
    }

    /// Types an answer and presses Enter.
    #[track_caller]
    pub fn answer(&mut self, text: &str) {
        self.send(text);
        self.send(ENTER);
    }

    /// Moves down `steps` items of a select prompt and picks that one.
    #[track_caller]
    pub fn pick(&mut self, steps: usize) {
        for _ in 0..steps {
            self.send(DOWN);
        }
        self.send(ENTER);
    }

    /// Reads everything left and returns it with the exit code.
    pub fn finish(mut self) -> (String, i32) {
        let rest = self.session.expect(Eof).expect("output ends");
        let rest = String::from_utf8_lossy(rest.as_bytes()).into_owned();
        let status = self.session.get_process().wait().expect("wait");
        let code = match status {
            WaitStatus::Exited(_, code) => code,
            other => panic!("aigent did not exit normally: {other:?}\n{rest}"),
        };
        (rest, code)
    }
}
