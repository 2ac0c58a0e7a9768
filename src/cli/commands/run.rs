//! `aigent run [OPTIONS] NAME [--param value ... | --json '{...}']`

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use aigent::contract::sandbox::SandboxMode;
use aigent::exec::process::{Output, Progress};
use aigent::guard::RawArguments;
use aigent::invoke::{InvokeError, InvokeOptions, Mode, invoke};
use aigent::outcome::{invoke_error_body, with_warnings_first};
use aigent::report::{EnvelopeTarget, ErrorCode, Outcome, OutputFormat, exit};
use clap::Args;

use super::args::check::Invocation;
use crate::cli::spec::{
    CommandSpec, Complete, Destructive, NoEffects, Partial, TEXT_AND_JSON, code_when, leaf,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "run",
    Destructive,
    &[
        code_when(
            exit::SUCCESS,
            Complete,
            "the command ran and exited with a status its declaration counts as success (success_exit_codes, [0] by default)",
        ),
        code_when(
            exit::GENERAL_ERROR,
            Partial,
            "the command could not be started",
        ),
        code_when(
            exit::ARG_ERROR,
            NoEffects,
            "bad usage, or an argument failed Phase 1; nothing ran (never the child's own 2)",
        ),
        code_when(
            exit::COMMAND_FAILED,
            Partial,
            "the command ran and exited with another status (error.code COMMAND_FAILED; error.child_exit_code holds it)",
        ),
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "the registry or declaration is invalid, the program is not executable, or the audit log cannot be written",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "no declared command of that name, or its program does not exist",
        ),
        code_when(
            exit::TIMEOUT,
            Partial,
            "--timeout expired; the command's process group was killed",
        ),
        code_when(
            exit::HUNG_UP,
            Partial,
            "SIGHUP, passed on to the command, which was stopped",
        ),
        code_when(
            exit::INTERRUPTED,
            Partial,
            "Ctrl-C (SIGINT), passed on to the command, which was stopped",
        ),
        code_when(
            exit::QUIT,
            Partial,
            "SIGQUIT, passed on to the command, which was stopped",
        ),
        code_when(
            exit::TERMINATED,
            Partial,
            "SIGTERM, passed on to the command, which was stopped",
        ),
    ],
    TEXT_AND_JSON,
    true,
);

#[derive(Debug, Args)]
#[command(after_help = "\
Phase 1 first: nothing runs unless every argument passes (exit 2 otherwise, \
with the same envelope as `args check`). Then the declared argv runs \
directly, without a shell; the child keeps stdin, stdout and stderr. \
aigent exits 0 when the child's status is one its declaration counts as \
success (success_exit_codes, [0] by default) and 3 (COMMAND_FAILED) for \
any other; the envelope's child_exit_code and child_exit give the status \
and its declared name, so aigent's 2 always means nothing ran. aigent's \
own flags go before NAME; everything after NAME belongs to the declared \
command.

Where the output goes, in each mode:
  without --capture  stdout and stderr are the command's own; in json mode \
the envelope goes to stderr (or to --result PATH)
  with --capture     the command's stdout and stderr are kept (each up to \
a quarter of the response cap: AIGENT_MAX_OUTPUT_BYTES or \
TOOL_MAX_OUTPUT_BYTES, else 1 MiB) and returned in the envelope's \
data.stdout and data.stderr, terminal codes removed and marked _trusted: \
false; the envelope goes to stdout (or to --result PATH), and meta.truncated \
says whether either was cut. In text mode stdout shows what the command \
wrote. The command's stdin is closed. With --heartbeat-ms MS (json mode), \
one heartbeat line comes every MS milliseconds while it runs, then the \
envelope: read stdout line by line until a line is not a heartbeat.

The child runs in the declaration's sandbox (Landlock and seccomp, applied \
between fork and exec): --sandbox require runs nothing unless the kernel \
enforces all of it (exit 4, SANDBOX_UNAVAILABLE); best-effort, the default \
unless aigent.toml's [sandbox] mode says otherwise, enforces what the kernel \
can and lists the rest in the warnings; off runs it unconfined. The \
envelope's data.sandbox and every audit record say what was enforced.

Examples:
  # check, then run
  aigent run git-log --author Ann --count 5
  # the argv that would run; nothing runs
  aigent run --dry-run deploy --cluster-id prod-east-1 --version 1.2.3
  # a secret from the environment, never on the argv
  aigent run --value-from-env token=GH_TOKEN --dry-run gh-api --endpoint repos/OWNER/REPO/issues
  # arguments as one JSON object
  aigent run --dry-run deploy --json '{\"cluster-id\": \"prod-east-1\", \"version\": \"1.2.3\"}'
  # a time limit, the envelope into a file
  aigent --output json run --timeout 30 --result ./result.json files-get --file-id f-123")]
pub struct RunArgs {
    /// Print the argv that would run, and run nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Run a command declared destructive (refused with exit 2 without this)
    #[arg(long)]
    pub confirm_destructive: bool,

    /// Kill the command's whole process group after SECS seconds (fractions allowed) and exit 10 [default: the declaration's timeout_s, else 600]
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,

    /// Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]
    #[arg(long, value_name = "PATH")]
    pub audit_log: Option<PathBuf>,

    /// Write the json envelope to PATH (atomically, in any format) instead of stderr
    #[arg(long, value_name = "PATH")]
    pub result: Option<PathBuf>,

    /// Return the command's stdout and stderr in the envelope (data.stdout, data.stderr), which then goes to stdout; without it stdout is the command's own and the envelope goes to stderr
    #[arg(long)]
    pub capture: bool,

    /// With --capture in json mode: while the command runs, write a heartbeat line on stdout every MS milliseconds (at least 1000), before the envelope: {"status":"running","heartbeat":true,"elapsed_ms":N}
    #[arg(long, value_name = "MS", requires = "capture")]
    pub heartbeat_ms: Option<u64>,

    /// How strictly to enforce the command's sandbox [default: aigent.toml's [sandbox] mode, else best-effort]
    #[arg(long, value_name = "MODE", value_enum)]
    pub sandbox: Option<SandboxFlag>,

    #[command(flatten)]
    pub supplied: super::args::supplied::SuppliedValues,

    #[command(flatten)]
    pub invocation: Invocation,
}

pub fn run(args: &RunArgs, ctx: &Context) -> Result<Outcome, CliError> {
    // A `--result` that is the audit log or cannot be written is reported
    // on stderr: the file is not fit to hold the envelope.
    if let Some(path) = &args.result
        && let Err(err) =
            not_the_audit_log(path, args.audit_log.as_deref()).and_then(|()| probe_writable(path))
    {
        let mut outcome = err.into_outcome();
        outcome.envelope_target = EnvelopeTarget::Stderr;
        return Ok(outcome);
    }
    let mut outcome = execute(args, ctx).unwrap_or_else(CliError::into_outcome);
    outcome.envelope_target = match &args.result {
        Some(path) => EnvelopeTarget::File(path.clone()),
        // The child's stdout is in the envelope: stdout is free for it.
        None if args.capture => EnvelopeTarget::Stdout,
        None => EnvelopeTarget::Stderr,
    };
    if args.capture {
        show_captured(&mut outcome);
    }
    Ok(outcome)
}

/// Each captured stream is kept up to this share of the response cap, so
/// the envelope holding both stays near the cap.
const CAPTURE_SHARE: usize = 4;

/// With `--capture`: the text output is what the command wrote, and
/// `meta.truncated` says whether the capture limit cut it (REQ-F-052).
fn show_captured(outcome: &mut Outcome) {
    let Some(stdout) = outcome.data.get("stdout").and_then(|v| v.as_str()) else {
        return;
    };
    let mut text = stdout.to_owned();
    if let Some(stderr) = outcome
        .data
        .get("stderr")
        .and_then(|v| v.as_str())
        .filter(|stderr| !stderr.is_empty())
    {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("--- stderr ---\n");
        text.push_str(stderr);
    }
    outcome.text = text;
    let cut = ["stdout_truncated", "stderr_truncated"]
        .iter()
        .any(|key| outcome.data.get(*key) == Some(&serde_json::Value::Bool(true)));
    outcome.meta.insert("truncated".to_owned(), cut.into());
    if cut {
        outcome.meta.insert(
            "truncation_hint".to_owned(),
            format!(
                "the command wrote more than {} bytes to a stream, which were cut; raise AIGENT_MAX_OUTPUT_BYTES, or run it without --capture",
                capture_limit()
            )
            .into(),
        );
    }
}

/// The bytes kept of each captured stream.
fn capture_limit() -> usize {
    aigent::report::page::max_output_bytes(|name| std::env::var(name).ok()) / CAPTURE_SHARE
}

/// `--sandbox`, as clap reads it; the library's [`SandboxMode`] has no clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SandboxFlag {
    /// Nothing runs unless the kernel enforces all of the sandbox
    Require,
    /// Enforce what the kernel can; warn about the rest
    BestEffort,
    /// No sandbox
    Off,
}

impl From<SandboxFlag> for SandboxMode {
    fn from(flag: SandboxFlag) -> Self {
        match flag {
            SandboxFlag::Require => Self::Require,
            SandboxFlag::BestEffort => Self::BestEffort,
            SandboxFlag::Off => Self::Off,
        }
    }
}

/// The mode a run gets: the flag, else the registry's `[sandbox] mode`.
pub(super) fn sandbox_mode(
    flag: Option<SandboxFlag>,
    registry: &aigent::registry::Registry,
) -> Result<SandboxMode, CliError> {
    match flag {
        Some(flag) => Ok(flag.into()),
        None => aigent::registry::Settings::load(registry)
            .map(|settings| settings.sandbox.mode)
            .map_err(|err| CliError::of(ErrorCode::InvalidSettings, err.to_string())),
    }
}

fn execute(args: &RunArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let name = args.invocation.name()?;
    let registry = super::schema::registry(ctx);
    let loaded = registry.load(name)?;
    if args.invocation.asks_for_help(&loaded.declaration) {
        return Ok(super::schema::show::declaration_outcome(loaded, ctx));
    }
    let mut warnings = crate::cli::error::diagnostic_warnings(&loaded.file, &loaded.warnings);
    warnings.extend(
        args.supplied
            .secrets_on_argv(&loaded.declaration, args.invocation.arguments())?,
    );
    let heartbeats = match args.heartbeat_ms {
        Some(_) if ctx.format != OutputFormat::Json => {
            return Err(CliError::usage(
                "--heartbeat-ms writes JSON lines before the envelope: it needs --output json",
            ));
        }
        Some(ms) => Some(Heartbeats::start(Duration::from_millis(ms.max(1000)))),
        None => None,
    };
    let options = InvokeOptions {
        progress: heartbeats.as_ref().map(Heartbeats::progress),
        mode: if args.dry_run {
            Mode::DryRun
        } else {
            Mode::Run
        },
        audit_log: args.audit_log.as_deref(),
        timeout: args.timeout,
        confirmed: args.confirm_destructive,
        output: if args.capture {
            Output::Capture {
                limit: capture_limit(),
            }
        } else {
            Output::Inherit
        },
        sandbox: sandbox_mode(args.sandbox, &registry)?,
        ..InvokeOptions::default()
    };
    let tail = args
        .supplied
        .merge_into(&loaded.declaration, args.invocation.arguments())?;
    let arguments = RawArguments::from_tail(&tail);
    let invoked = invoke(&loaded.declaration, &arguments, &options);
    drop(options);
    // The last heartbeat is out before the envelope is.
    if let Some(heartbeats) = heartbeats {
        heartbeats.stop();
    }
    let invoked = invoked.map_err(|err| invoke_error(name, err))?;
    Ok(with_warnings_first(
        super::args::check::outcome(name, invoked, ctx),
        warnings,
    ))
}

/// REQ-O-038's heartbeat lines, written by a thread of their own: the
/// progress callback runs on the thread that watches the child's timeout
/// and must never block, so it only hands the time over (dropping a beat
/// when the writer is still blocked on the last one).
struct Heartbeats {
    every: Duration,
    sender: SyncSender<Option<u64>>,
    writer: JoinHandle<()>,
}

impl Heartbeats {
    fn start(every: Duration) -> Self {
        let (sender, receiver) = mpsc::sync_channel::<Option<u64>>(1);
        let writer = std::thread::spawn(move || {
            while let Ok(Some(elapsed_ms)) = receiver.recv() {
                let line = serde_json::json!({"status": "running", "heartbeat": true, "elapsed_ms": elapsed_ms});
                let mut stdout = std::io::stdout().lock();
                if writeln!(stdout, "{line}")
                    .and_then(|()| stdout.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        Self {
            every,
            sender,
            writer,
        }
    }

    /// Called about once a second with the time so far.
    fn progress(&self) -> Progress {
        let sender = self.sender.clone();
        let every = self.every;
        let next = Mutex::new(every);
        Arc::new(move |elapsed: Duration| {
            let mut next = next.lock().unwrap_or_else(PoisonError::into_inner);
            if elapsed >= *next {
                while *next <= elapsed {
                    *next += every;
                }
                let millis = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
                let _ = sender.try_send(Some(millis));
            }
        })
    }

    /// Waits for the lines handed over to be written.
    fn stop(self) {
        let _ = self.sender.send(None);
        let _ = self.writer.join();
    }
}

fn invoke_error(name: &str, err: InvokeError) -> CliError {
    let body = invoke_error_body(name, &err);
    CliError {
        exit_code: body.code.exit_code(),
        body: Box::new(body),
    }
}

/// `--result` replaces its file; pointed at the audit log (or its lock,
/// a rotated file or a hard link to one) it would replace the history
/// with one envelope.
fn not_the_audit_log(result: &Path, audit_log: Option<&Path>) -> Result<(), CliError> {
    let Ok(log) = aigent::exec::audit::AuditLog::from_env(audit_log) else {
        return Ok(());
    };
    if log.is_log_file(result) {
        return Err(CliError::usage(format!(
            "--result {} is the audit log; the envelope would replace its history",
            result.display()
        ))
        .with_hint("write the result somewhere else, or choose another log with --audit-log"));
    }
    Ok(())
}

/// `--result` must be writable before anything runs: creates and removes a
/// temporary sibling, as the final atomic write will.
fn probe_writable(path: &Path) -> Result<(), CliError> {
    let probe = aigent::fsutil::temporary_sibling(path);
    match std::fs::File::create_new(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(err) => Err(CliError::new(
            aigent::report::exit::PRECONDITION,
            ErrorCode::ResultUnwritable,
            format!(
                "--result {} cannot be written ({err}); nothing was run",
                path.display()
            ),
        )),
    }
}

/// A positive, finite number of seconds.
pub(super) fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!("`{text}`: the timeout must be more than 0 seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|err| format!("`{text}`: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts() {
        assert_eq!(parse_timeout("1"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_timeout("0.25"), Ok(Duration::from_millis(250)));
        for bad in ["0", "-1", "inf", "NaN", "x", "", "1e400"] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }
}
