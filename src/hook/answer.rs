//! One hook call from end to end: the event read, the policy and the
//! registry loaded, the command judged, the decision written to the audit
//! log, and the reply in the client's protocol. Every failure on the way is
//! a deny that says why: the hook fails closed.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::Client;
use super::judge::{AigentSelf, Context, Judgement, judge};
use super::protocol::{EventError, Reply, ShellEvent, read_event, reply};
use super::secrets;
use super::verdict::{Decision, Verdict};
use crate::exec::audit::{AuditLog, AuditRecord, EVENT_HOOK_DECISION};
use crate::fsutil::remembered;
use crate::registry::{Registry, Settings};
use crate::shell::quote;

/// A command line longer than this is left out of the audit record (its
/// segments are still there).
const MAX_AUDITED_COMMAND_BYTES: usize = 4096;

/// What the caller decides about a hook call.
pub struct HookOptions<'a> {
    pub client: Client,
    pub registry: &'a Registry,
    /// Rewrite a matched command into `aigent run NAME ...` where the
    /// client can rewrite the tool's input.
    pub route: bool,
    /// The words that start aigent itself in a rewritten command: its
    /// absolute path, then `--commands DIR` when a registry was named.
    pub aigent_words: Vec<String>,
    /// Where the program index is cached (`$XDG_CACHE_HOME/aigent`).
    pub cache_dir: Option<PathBuf>,
    /// Where each decision is recorded; an error (no location can be
    /// found) makes every decision a deny.
    pub audit: Result<AuditLog, String>,
    /// Finds a bare program name on `PATH`.
    pub which: &'a dyn Fn(&str) -> Option<PathBuf>,
    /// This aigent and its registry, to recognise `aigent run NAME ...`.
    pub aigent: Option<AigentSelf>,
    /// No person can answer an ask (the entry was installed with
    /// `--headless`): an ask is sent as a deny that says how to approve.
    pub headless: bool,
}

/// Added to an ask sent as a deny by a `--headless` hook.
pub const HEADLESS_ASK_SUFFIX: &str = "aigent asks a person to approve this command, and no person can answer in this headless run (the hook was installed with --headless), so it is refused. Do not retry it or work around it: tell the user the exact command and why you need it; they can run it themselves, approve it in an interactive session, or allow it in aigent's policy (a declaration, or the allow list in aigent.toml's [hook]).";

/// What the hook answered, and why.
#[derive(Debug)]
pub struct Answer {
    pub reply: Reply,
    /// The hook's decision; a `--headless` hook sends an ask as a deny.
    pub decision: Decision,
    /// Absent when the event or the policy could not be read.
    pub judgement: Option<Judgement>,
}

/// Answers one event (`input` as `protocol::read_input` gave it).
pub fn answer(input: Result<Vec<u8>, EventError>, options: &HookOptions<'_>) -> Answer {
    let client = options.client;
    let event = input.and_then(|bytes| read_event(client, &bytes));
    let event = match event {
        Ok(event) => event,
        Err(error) => {
            let decision = Decision::new(
                Verdict::Deny,
                format!("aigent: {error}; refusing (rule {})", error.rule()),
            );
            let record = base_record(client, None, &decision).with("rule", error.rule());
            return finish(options, None, decision, None, record);
        }
    };
    let judged = remembered::remembering(|| judge_event(&event, options));
    let (judgement, decision) = match judged {
        Ok(judgement) => {
            let mut decision = decide(&judgement, options);
            if let Some(scrubbed) = secrets::scrub(&decision.reason) {
                decision.reason = scrubbed;
            }
            (Some(judgement), decision)
        }
        Err(problem) => (
            None,
            Decision::new(Verdict::Deny, format!("aigent: {problem}; refusing")),
        ),
    };
    let mut record = decision_record(&event, &decision, judgement.as_ref());
    if options.headless && decision.verdict == Verdict::Ask {
        record = record.with("sent_as", Verdict::Deny.as_str());
    }
    finish(options, Some(&event), decision, judgement, record)
}

/// How long `aigent hook --client` may take to answer before it refuses
/// the line instead: far beyond any real answer (milliseconds), and well
/// inside the clients' own hook timeouts, past which some of them let the
/// command run.
pub const ANSWER_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// The reply when `limit` (at most [`ANSWER_DEADLINE`]) passes, or the
/// heap grows by more than `memory` bytes, before the line is judged: a
/// refusal, made before judging starts so that an alarm (or the allocator)
/// can send it as it is. No audit record is written for it.
pub fn out_of_bounds_reply(client: Client, limit: std::time::Duration, memory: usize) -> Reply {
    const MIB: usize = 1024 * 1024;
    let memory = if memory >= MIB {
        format!("{} MiB", memory / MIB)
    } else {
        format!("{memory} bytes")
    };
    let decision = Decision::new(
        Verdict::Deny,
        format!(
            "aigent: the line was not judged within {} s and {memory} of memory; the hook refuses what it cannot read within its bounds (rule unparsable)",
            limit.as_secs(),
        ),
    );
    reply(client, &decision, None)
}

/// The reply when judging the line failed inside aigent (a panic): a
/// refusal, never a crash the client could take for "no objection". No
/// audit record is written for it.
pub fn failed_reply(client: Client) -> Reply {
    let decision = Decision::new(
        Verdict::Deny,
        "aigent: judging the line failed inside aigent; the hook refuses what it cannot judge (rule unparsable)",
    );
    reply(client, &decision, None)
}

/// An ask as a headless hook sends it: a deny whose reason says how the
/// person can approve the command. A rewrite is dropped with the ask.
pub fn headless_refusal(decision: &Decision) -> Decision {
    let reason = decision.reason.trim();
    let reason = if reason.is_empty() {
        HEADLESS_ASK_SUFFIX.to_owned()
    } else {
        format!("{reason}\n\n{HEADLESS_ASK_SUFFIX}")
    };
    Decision::new(Verdict::Deny, reason)
}

fn judge_event(event: &ShellEvent, options: &HookOptions<'_>) -> Result<Judgement, String> {
    let registry = options.registry.for_hook(event.cwd.as_deref());
    let settings = Settings::load(&registry)
        .map_err(|error| format!("the hook policy cannot be read: {error}"))?;
    let index = registry
        .program_index(options.cache_dir.as_deref())
        .map_err(|error| format!("the registry cannot be read: {error}"))?;
    let home = std::env::var("HOME").ok();
    let context = Context {
        registry: &registry,
        index: &index,
        settings: &settings.hook,
        which: options.which,
        cwd: event.cwd.as_deref(),
        aigent: options.aigent.as_ref(),
        home: home.as_deref(),
    };
    let mut judgement = judge(&event.command, &context);
    // `aigent run NAME` runs the topmost declaration of NAME, trusted or
    // not; where an untrusted layer declares it, the rewrite could run
    // another contract than the one judged.
    if let Registry::Layered(layers) = &registry
        && (judgement.route.is_some() || judgement.route_within.is_some())
        && judgement
            .segments
            .iter()
            .filter_map(|segment| segment.declaration.as_deref())
            .any(|name| layers.untrusted_declares(name))
    {
        judgement.route = None;
        judgement.route_within = None;
    }
    Ok(judgement)
}

/// The decision for a judgement: its verdict, a reason that lets the
/// model correct itself, and the rewrite when routing applies.
pub fn decide(judgement: &Judgement, options: &HookOptions<'_>) -> Decision {
    let mut decision = Decision::new(judgement.verdict, reason(judgement));
    // A command that runs the project's own code is allowed only inside
    // aigent's sandbox: rewritten to `aigent run NAME ...` where the
    // client takes a rewrite, asked where it does not.
    let confine = judgement.confine && judgement.verdict == Verdict::Allow;
    let rewrites = options.client.rewrites_commands();
    // A headless hook sends an ask as a deny, which runs nothing.
    let answerable = judgement.verdict == Verdict::Allow
        || (judgement.verdict == Verdict::Ask && !options.headless);
    if (options.route || confine)
        && rewrites
        && let Some(route) = &judgement.route
        && answerable
    {
        let mut words = options.aigent_words.clone();
        words.extend(route.iter().cloned());
        decision.rewritten_command = Some(quote(&words));
    } else if let Some(line) = judgement
        .route_within
        .as_ref()
        .filter(|_| confine && rewrites)
        .and_then(|within| within.rewrite(&options.aigent_words))
    {
        // The code-running commands of a longer line run in the sandbox;
        // the rest of the line (a pipe to `tail`, a `cd`) stays as written.
        decision.rewritten_command = Some(line);
    } else if confine {
        let why = if rewrites {
            "this line cannot be rewritten into `aigent run` (it is not one command, or it redirects)"
        } else {
            "this client cannot rewrite a command into `aigent run`"
        };
        decision = Decision::new(
            Verdict::Ask,
            format!(
                "{}; it runs the project's own code, which the hook runs only in aigent's sandbox, and {why}: the person decides",
                reason_saying(judgement, Verdict::Ask).trim_end_matches('.')
            ),
        );
    }
    decision
}

/// The reason: the first segment with the line's verdict, its rule, and
/// the corrected command where there is one.
pub fn reason(judgement: &Judgement) -> String {
    reason_saying(judgement, judgement.verdict)
}

/// [`reason`], headed by the verdict the client is sent (an allowed line
/// that cannot be confined is asked).
fn reason_saying(judgement: &Judgement, sent: Verdict) -> String {
    let count = judgement.segments.len();
    let Some((index, segment)) = judgement
        .segments
        .iter()
        .enumerate()
        .find(|(_, segment)| segment.verdict == judgement.verdict)
    else {
        return "aigent: nothing to run".to_owned();
    };
    let mut text = format!("aigent: {}", sent.as_str());
    if !segment.shown.is_empty() {
        if count > 1 {
            text.push_str(&format!(" (segment {} of {count})", index + 1));
        }
        text.push_str(&format!(" `{}`", segment.shown));
        if let Some(within) = segment.within {
            text.push_str(&format!(" in a {within}"));
        }
    }
    text.push_str(&format!(": {} [rule {}]", segment.message, segment.rule));
    if let Some(corrected) = &segment.corrected {
        text.push_str(&format!(". Instead: {corrected}"));
    }
    let others = judgement
        .segments
        .iter()
        .filter(|other| other.verdict == judgement.verdict)
        .count()
        - 1;
    if others > 0 {
        text.push_str(&format!(
            " ({others} more segment(s) also {})",
            judgement.verdict.as_str()
        ));
    }
    if let Some(learn) = learn_command(segment) {
        text.push_str(&format!(". To declare it: {learn}"));
    }
    text
}

/// The rules of a segment refused only because nothing declares it.
const UNDECLARED_RULES: [&str; 2] = ["unmatched", "not_declared_form"];

/// `aigent hook learn --program P` for a segment asked or refused only
/// because no declaration takes it: the way to declare it.
fn learn_command(segment: &super::judge::Segment) -> Option<String> {
    if !UNDECLARED_RULES.contains(&segment.rule)
        || !matches!(segment.verdict, Verdict::Ask | Verdict::Deny)
    {
        return None;
    }
    // A bare first word (not an assignment) is the program as bash reads
    // it; anything else is read by the shell parser (a thread of its own).
    let first = segment
        .shown
        .split([' ', '\t', '\n'])
        .next()
        .unwrap_or_default();
    let parsed;
    let program = if crate::shell::is_bare_word(first) && !first.contains('=') {
        first
    } else {
        parsed = crate::shell::parse(&segment.shown).ok()?;
        parsed.commands.first()?.words.first()?.as_static()?
    };
    let key = crate::registry::program_key(program);
    (!key.is_empty()).then(|| quote(&["aigent", "hook", "learn", "--program", key]))
}

fn base_record(client: Client, event: Option<&ShellEvent>, decision: &Decision) -> AuditRecord {
    let command = "hook";
    let mut record = AuditRecord::new(EVENT_HOOK_DECISION, command)
        .with("client", client.as_str())
        .with("verdict", decision.verdict.as_str());
    if let Some(event) = event {
        record = record
            .with(
                "session_id",
                event.session_id.clone().map_or(Value::Null, Value::String),
            )
            .with(
                "tool",
                event.tool_name.clone().map_or(Value::Null, Value::String),
            );
    }
    record
}

fn decision_record(
    event: &ShellEvent,
    decision: &Decision,
    judgement: Option<&Judgement>,
) -> AuditRecord {
    let mut record = base_record(event.client, Some(event), decision).with(
        "cwd",
        event
            .cwd
            .as_ref()
            .map_or(Value::Null, |cwd| Value::String(cwd.display().to_string())),
    );
    // Claude Code removes the first `cd <its cwd> && ` from a Bash command
    // before the hook sees it (what runs is what the hook judged); the line
    // recorded may therefore lack text the model wrote, and the record says
    // which text that would be.
    if event.client == Client::ClaudeCode
        && let Some(cwd) = &event.cwd
    {
        record = record.with("client_strips", format!("cd {} && ", cwd.display()));
    }
    let redacted = judgement
        .is_some_and(|judgement| judgement.segments.iter().any(|segment| segment.redacted));
    // The line as written holds sensitive values where a segment had them
    // redacted; then only the segments (redacted) are kept.
    if !redacted && event.command.len() <= MAX_AUDITED_COMMAND_BYTES {
        // A value that looks like a secret in a line no declaration
        // describes (`export GH_TOKEN=…`) is hidden, never kept.
        match secrets::scrub(&event.command) {
            Some(scrubbed) => {
                record = record
                    .with("command_line", scrubbed)
                    .with("command_line_redacted", true);
            }
            None => record = record.with("command_line", event.command.clone()),
        }
    } else {
        record = record.with("command_line", Value::Null).with(
            "command_line_left_out",
            if redacted { "sensitive" } else { "long" },
        );
    }
    if let Some(judgement) = judgement {
        let segments: Vec<Value> = judgement
            .segments
            .iter()
            .map(|segment| {
                json!({
                    "shown": secrets::scrub(&segment.shown).unwrap_or_else(|| segment.shown.clone()),
                    "verdict": segment.verdict.as_str(),
                    "rule": segment.rule,
                    "declaration": segment.declaration,
                    "within": segment.within,
                })
            })
            .collect();
        record = record.with("segments", segments);
    } else {
        record = record.with("rule", "policy_unreadable");
    }
    record.with("routed", decision.rewritten_command.is_some())
}

fn finish(
    options: &HookOptions<'_>,
    event: Option<&ShellEvent>,
    mut decision: Decision,
    judgement: Option<Judgement>,
    record: AuditRecord,
) -> Answer {
    let written = match &options.audit {
        // Written, not flushed: the hook sits in front of every command
        // the agent runs, and an fdatasync there costs more than the rest
        // of the call. The record is in the file before the reply leaves.
        Ok(log) => log
            .append_buffered(&record)
            .map_err(|error| error.to_string()),
        Err(problem) => Err(problem.clone()),
    };
    if let Err(problem) = written {
        decision = Decision::new(
            Verdict::Deny,
            format!(
                "aigent: the audit log cannot be written ({problem}); every command is refused until it can"
            ),
        );
    }
    let reply = if options.headless && decision.verdict == Verdict::Ask {
        reply(options.client, &headless_refusal(&decision), event)
    } else {
        reply(options.client, &decision, event)
    };
    Answer {
        reply,
        decision,
        judgement,
    }
}

/// Finds `name` on `path_var` as a shell would: the first directory
/// holding an executable regular file of that name. Relative entries are
/// skipped (they depend on where the shell is). Each name is looked for
/// once (a `stat` per directory), as a shell's hash table does: the
/// finder lives for one command of aigent's.
pub fn which_on(path_var: Option<OsString>) -> impl Fn(&str) -> Option<PathBuf> {
    let dirs: Vec<PathBuf> = path_var
        .map(|path| {
            std::env::split_paths(&path)
                .filter(|dir| dir.is_absolute())
                .collect()
        })
        .unwrap_or_default();
    let found: std::cell::RefCell<HashMap<String, Option<PathBuf>>> = Default::default();
    move |name: &str| {
        if name.is_empty() || name.contains('/') {
            return None;
        }
        if let Some(known) = found.borrow().get(name) {
            return known.clone();
        }
        let path = dirs
            .iter()
            .map(|dir| dir.join(name))
            .find(|candidate| is_executable(candidate));
        found.borrow_mut().insert(name.to_owned(), path.clone());
        path
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    remembered::metadata(path)
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::judge::Segment;

    fn undeclared(shown: &str) -> Segment {
        Segment::new(shown.to_owned(), Verdict::Ask, "unmatched", String::new())
    }

    /// The program is the first word as bash reads it, plain or quoted.
    #[test]
    fn the_learn_command_names_the_segments_program() {
        for (shown, program) in [
            ("mytool --flag x", "mytool"),
            ("/opt/bin/my-tool.sh", "my-tool.sh"),
            ("'my tool' x", "'my tool'"),
            ("FOO=1 tool", "tool"),
        ] {
            assert_eq!(
                learn_command(&undeclared(shown)).as_deref(),
                Some(format!("aigent hook learn --program {program}").as_str()),
                "{shown}"
            );
        }
        let mut declared = undeclared("git status");
        declared.rule = "declared";
        assert_eq!(learn_command(&declared), None);
    }
}
