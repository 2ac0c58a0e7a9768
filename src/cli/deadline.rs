//! aigent's own wall-clock limit (CLI Agent Spec REQ-F-011, F-012): every
//! command that runs to an end on its own is stopped after
//! `AIGENT_TIMEOUT` seconds (600 by default, as `run`'s children are),
//! and still answers: a `TIMEOUT` error (the envelope in json mode, prose
//! otherwise) and exit 10, whatever the command was blocked on. Its
//! responses say the limit in `meta.timeout_ms`.
//!
//! Not covered, each with its own bound: `run` (its child's limit,
//! `--timeout` or the declaration's `timeout_s`, in `meta.timeout_ms`),
//! `hook --client` (its own 10 s, or this limit when shorter, answered in
//! the client's protocol, not an envelope: `commands/hook/answer.rs`), the servers (`mcp serve`, `lsp`,
//! `--watch`), which run until their client or user stops them, and `skill
//! new`, whose prompts wait for a person.

use std::time::Duration;

use aigent::contract::DangerLevel;
use aigent::report::{ErrorCode, Phase, exit};

use super::spec::{ExitCode, NoEffects, Partial};
use super::{CliError, Context};

/// The limit unless [`VARIABLE`] says otherwise: long enough for any
/// real run of a local command, short of an agent waiting forever.
pub const DEFAULT: Duration = Duration::from_secs(600);

/// Seconds; 0 means no limit, which must be asked for.
pub const VARIABLE: &str = "AIGENT_TIMEOUT";

/// The commands (manifest paths) that run under the limit; see the
/// module's comment for the others. `--watch` is decided at the call.
pub fn covers(path: &str) -> bool {
    !matches!(
        path,
        "run" | "hook" | "skill.new" | "mcp.serve" | "lsp" | ""
    )
}

/// The limit: [`VARIABLE`] in whole seconds (0: none), else [`DEFAULT`].
/// A value that is not a number is refused: a caller who set a limit must
/// not silently get another.
pub fn limit(lookup: impl Fn(&str) -> Option<String>) -> Result<Option<Duration>, CliError> {
    let Some(text) = lookup(VARIABLE) else {
        return Ok(Some(DEFAULT));
    };
    match text.trim().parse::<u64>() {
        Ok(0) => Ok(None),
        Ok(seconds) => Ok(Some(Duration::from_secs(seconds))),
        Err(_) => Err(CliError::usage(format!(
            "{VARIABLE} must be a whole number of seconds (0 for no limit), not {:?}",
            text.chars().take(40).collect::<String>()
        ))),
    }
}

/// The exit entry the limit adds to a covered command that does not
/// declare 10 itself. A `safe` command changed nothing when it was
/// stopped, so the same call may succeed (REQ-F-012's `retryable`);
/// another may have written part of its work.
pub fn exit_entry(danger: DangerLevel) -> ExitCode {
    let safe = danger == DangerLevel::Safe;
    ExitCode {
        code: exit::TIMEOUT,
        side_effects: if safe { NoEffects } else { Partial },
        when: Some(if safe {
            "AIGENT_TIMEOUT (600 s) passed and the command was stopped; nothing was changed"
        } else {
            "AIGENT_TIMEOUT (600 s) passed and the command was stopped; part of its work may be done"
        }),
        retryable: safe,
    }
}

/// The answer when `limit` passes: `TIMEOUT`, retryable only for a
/// command that changes nothing.
fn timed_out(ctx: &Context, limit: Duration, danger: DangerLevel) -> CliError {
    let safe = danger == DangerLevel::Safe;
    let mut err = CliError::of(
        ErrorCode::Timeout,
        format!(
            "`aigent {}` did not finish within {} s ({VARIABLE}) and was stopped",
            ctx.command.replace('.', " "),
            limit.as_secs()
        ),
    )
    .with_hint(format!(
        "raise the limit with {VARIABLE}=SECONDS (0: none), or give the command less to do"
    ));
    err.body.retryable = safe;
    err.body.phase = Some(Phase::Execution);
    err.body
        .extra
        .insert("timeout_ms".to_owned(), super::output::millis(limit).into());
    if !safe {
        err.body.extra.insert("partial".to_owned(), true.into());
        err.body.fix_required = Some(format!(
            "see what the command did before it was stopped, then reissue with a larger {VARIABLE}"
        ));
    }
    err
}

/// Starts the watchdog: after `limit`, the command's answer is the
/// timeout (unless its own output has begun, which a second document
/// would corrupt: then only a line on stderr) and the process exits 10.
/// The thread only sleeps until then; the process ends with the command
/// when it finishes first.
pub fn arm(ctx: &Context, limit: Duration, danger: DangerLevel) {
    let ctx = ctx.clone();
    let started = std::time::Instant::now();
    let spawned = std::thread::Builder::new()
        .name("aigent-deadline".to_owned())
        .spawn(move || {
            std::thread::sleep(limit);
            let err = timed_out(&ctx, limit, danger);
            let late = format!("error: {}\n", err.body.message);
            let (stdout, stderr) =
                super::output::render_failure(err, &ctx, super::output::millis(started.elapsed()));
            super::signals::answer_once(
                stdout.as_bytes(),
                stderr.as_bytes(),
                late.as_bytes(),
                exit::TIMEOUT,
            );
        });
    // Without a thread there is no limit; the command still runs.
    drop(spawned);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_600_s_unless_set_and_a_bad_value_is_refused() {
        let env = |value: Option<&'static str>| move |_: &str| value.map(str::to_owned);
        assert_eq!(limit(env(None)).unwrap(), Some(DEFAULT));
        assert_eq!(limit(env(Some("5"))).unwrap(), Some(Duration::from_secs(5)));
        assert_eq!(limit(env(Some("0"))).unwrap(), None);
        assert!(limit(env(Some("soon"))).is_err());
        assert!(limit(env(Some("-1"))).is_err());
    }

    #[test]
    fn only_a_safe_command_is_retryable_after_the_limit() {
        let safe = exit_entry(DangerLevel::Safe);
        assert!(safe.retryable);
        assert_eq!(safe.side_effects, NoEffects);
        let mutating = exit_entry(DangerLevel::Mutating);
        assert!(!mutating.retryable);
        assert_eq!(mutating.side_effects, Partial);
        assert!(covers("skill.validate") && covers("schema.import") && covers("hook.learn"));
        assert!(!covers("run") && !covers("hook") && !covers("mcp.serve") && !covers("lsp"));
    }
}
