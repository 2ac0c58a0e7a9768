//! `aigent hook --client CLIENT`: one event on stdin, the client's own
//! protocol on stdout and in the exit code.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use aigent::exec::audit::AuditLog;
use aigent::hook::Client;
use aigent::hook::answer::{
    ANSWER_DEADLINE, HookOptions, answer, failed_reply, out_of_bounds_reply, which_on,
};
use aigent::hook::judge::AigentSelf;
use aigent::hook::protocol::read_input;
use aigent::registry::Registry;
use aigent::report::Outcome;

use crate::cli::spec::{CommandSpec, TEXT_AND_JSON};
use crate::cli::{CliError, Context};

/// `aigent hook --client CLIENT`: run by the clients, which read its
/// answer in their own protocol; not in the manifest.
pub const SPEC: CommandSpec = CommandSpec {
    path: "hook",
    contract: None,
    formats: TEXT_AND_JSON,
    rows: None,
    registry: true,
};

pub fn run(
    client: Client,
    route: bool,
    headless: bool,
    ctx: &Context,
) -> Result<Outcome, CliError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(CliError::usage(format!(
            "`aigent hook --client {}` reads one hook event (JSON) on stdin, as {} sends it; to see how a command line is judged, run `aigent hook explain 'COMMAND'`",
            client.as_str(),
            client.display_name()
        )));
    }
    // The whole answer, reading the event included, is bounded by an
    // alarm that sends a refusal; so the line is parsed in place rather
    // than on a thread with a deadline of its own.
    let limit = answer_limit(|name| std::env::var(name).ok());
    let memory = memory_limit(std::env::var("AIGENT_MAX_MEMORY_BYTES").ok().as_deref());
    let refusal = out_of_bounds_reply(client, limit, memory);
    crate::cli::signals::answer_after(
        u32::try_from(limit.as_secs()).unwrap_or(u32::MAX),
        refusal.stdout.into_bytes(),
        refusal.stderr.into_bytes(),
        i32::from(refusal.exit_code),
    );
    crate::cli::memory::bound(memory);
    let disarm = Disarm;
    // Unreadable stdin is an event error: the client gets its refusal.
    let input = read_input(stdin.lock());
    let registry = Registry::new(ctx.commands_dir.clone());
    let which = which_on(std::env::var_os("PATH"));
    let options = HookOptions {
        client,
        registry: &registry,
        route,
        aigent_words: aigent_words(ctx),
        cache_dir: cache_dir(),
        audit: AuditLog::from_env(None).map_err(|error| error.to_string()),
        which: &which,
        aigent: aigent_self(ctx),
        headless,
    };
    // A panic while judging is answered as a refusal too (its message
    // still goes to stderr), before the alarm is disarmed.
    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        aigent::shell::parsing_inline(|| answer(input, &options)).reply
    }))
    .unwrap_or_else(|_| failed_reply(client));
    drop(disarm);
    if !answered.stderr.is_empty() {
        eprint!("{}", answered.stderr);
    }
    let mut outcome = Outcome::verbatim(answered.stdout);
    outcome.exit_code = i32::from(answered.exit_code);
    Ok(outcome)
}

/// Cancels the answer's alarm when the answer is ready (or failed).
struct Disarm;

impl Drop for Disarm {
    fn drop(&mut self) {
        crate::cli::memory::unbound();
        crate::cli::signals::disarm();
    }
}

/// The hook's bound on its heap: [`crate::cli::memory::DEFAULT_BOUND`], or
/// `AIGENT_MAX_MEMORY_BYTES` when that is smaller. Like the time, never
/// raised and never none.
fn memory_limit(setting: Option<&str>) -> usize {
    let default = crate::cli::memory::DEFAULT_BOUND;
    setting
        .and_then(|text| text.trim().parse::<usize>().ok())
        .filter(|bytes| *bytes > 0)
        .map_or(default, |bytes| bytes.min(default))
}

/// The hook's bound on its answer: [`ANSWER_DEADLINE`], or `AIGENT_TIMEOUT`
/// when that is shorter. Never longer, and never none: a zero or unreadable
/// value leaves the bound as it is.
fn answer_limit(lookup: impl Fn(&str) -> Option<String>) -> Duration {
    match crate::cli::deadline::limit(lookup) {
        Ok(Some(limit)) => limit.clamp(Duration::from_secs(1), ANSWER_DEADLINE),
        _ => ANSWER_DEADLINE,
    }
}

/// This aigent by absolute path, and the registry it was given. A routed
/// command prints what the command prints and no envelope: its output is
/// read by the model (often through `2>&1 | tail`), not by a program.
fn aigent_words(ctx: &Context) -> Vec<String> {
    let program = std::env::current_exe()
        .map(|path| path.display().to_string())
        .unwrap_or_else(|_| "aigent".to_owned());
    let mut words = vec![program];
    if let Some(dir) = &ctx.commands_dir {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        words.push("--commands".to_owned());
        words.push(dir.display().to_string());
    }
    words.extend(["--output".to_owned(), "text".to_owned()]);
    words
}

/// This aigent and the registry it was given, for the judge.
pub fn aigent_self(ctx: &Context) -> Option<AigentSelf> {
    Some(AigentSelf {
        exe: std::env::current_exe().ok()?,
        registry_dir: ctx.commands_dir.clone(),
    })
}

/// `$XDG_CACHE_HOME/aigent`, else `~/.cache/aigent`.
pub fn cache_dir() -> Option<PathBuf> {
    let set = |name: &str| {
        std::env::var_os(name)
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
    };
    set("XDG_CACHE_HOME")
        .filter(|path| path.is_absolute())
        .or_else(|| set("HOME").map(|home| home.join(".cache")))
        .map(|base| base.join("aigent"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_bounded_by_ten_seconds_or_a_shorter_aigent_timeout() {
        let env = |value: Option<&'static str>| move |_: &str| value.map(str::to_owned);
        let seconds = |value| answer_limit(env(value)).as_secs();
        assert_eq!(seconds(None), 10);
        assert_eq!(seconds(Some("3")), 3);
        assert_eq!(seconds(Some("600")), 10);
        // Never none, never zero, whatever the variable says.
        assert_eq!(seconds(Some("0")), 10);
        assert_eq!(seconds(Some("soon")), 10);
    }

    #[test]
    fn the_heap_is_bounded_by_512_mib_or_a_smaller_setting() {
        let default = crate::cli::memory::DEFAULT_BOUND;
        assert_eq!(default, 512 << 20);
        assert_eq!(memory_limit(None), default);
        assert_eq!(memory_limit(Some("65536")), 65536);
        assert_eq!(memory_limit(Some("99999999999999")), default);
        assert_eq!(memory_limit(Some("0")), default);
        assert_eq!(memory_limit(Some("lots")), default);
    }
}
