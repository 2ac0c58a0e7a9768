//! One audit record: what happened, to which command, for which request.
//! Sensitive values are redacted before a record is built, and every record
//! is bounded: each value at [`MAX_LOGGED_VALUE_CHARS`] characters, an argv
//! after [`MAX_LOGGED_ARGV_BYTES`] bytes of JSON (the words that do not fit
//! are counted, not shown), and the whole line at [`MAX_RECORD_BYTES`]
//! whatever a caller added.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use crate::exec::argv::Argv;
use crate::exec::process::{Finished, SpawnError};
use crate::guard::Rejection;
use crate::request::RequestIds;

/// Phase 1 refused the arguments (`args check` and `run`).
pub const EVENT_VALIDATION_FAILURE: &str = "TOOL_ARG_VALIDATION_FAILURE";
/// A declared command is about to be spawned; written, durably, first.
pub const EVENT_COMMAND_STARTED: &str = "COMMAND_STARTED";
/// A declared command ran (whatever its exit status).
pub const EVENT_COMMAND_EXECUTED: &str = "COMMAND_EXECUTED";
/// A declared command passed Phase 1 but its program could not be started.
pub const EVENT_SPAWN_FAILURE: &str = "COMMAND_SPAWN_FAILURE";
/// A destructive command was refused for want of confirmation.
pub const EVENT_CONFIRMATION_REFUSED: &str = "COMMAND_CONFIRMATION_REFUSED";
/// `--sandbox require`, and the kernel cannot enforce the command's
/// sandbox: nothing ran.
pub const EVENT_SANDBOX_UNAVAILABLE: &str = "COMMAND_SANDBOX_UNAVAILABLE";

/// `aigent hook` answered a client about one shell command line.
pub const EVENT_HOOK_DECISION: &str = "HOOK_DECISION";

/// A signed checkpoint over the chain head (see [`super::sign`]).
pub const EVENT_AUDIT_CHECKPOINT: &str = "AUDIT_CHECKPOINT";

/// Every event aigent writes, for `audit show --event` and the docs.
pub const EVENTS: [&str; 8] = [
    EVENT_VALIDATION_FAILURE,
    EVENT_COMMAND_STARTED,
    EVENT_COMMAND_EXECUTED,
    EVENT_SPAWN_FAILURE,
    EVENT_CONFIRMATION_REFUSED,
    EVENT_SANDBOX_UNAVAILABLE,
    EVENT_HOOK_DECISION,
    EVENT_AUDIT_CHECKPOINT,
];

/// Values longer than this are cut in records (with a marker), so that one
/// hostile argument cannot make a multi-megabyte line.
pub const MAX_LOGGED_VALUE_CHARS: usize = 1024;

/// The argv in a record is cut after this many bytes of JSON.
pub const MAX_LOGGED_ARGV_BYTES: usize = 64 * 1024;

/// The child's environment in a record is left out past this many bytes.
const MAX_LOGGED_ENV_BYTES: usize = 16 * 1024;

/// The hard bound of one line. A record whose details would pass it keeps
/// its identifying keys and says how many bytes of details were left out.
pub const MAX_RECORD_BYTES: usize = 96 * 1024;

/// The keys aigent sets itself; details cannot replace them.
const RESERVED_KEYS: [&str; 9] = [
    "seq",
    "prev",
    "torn",
    "timestamp",
    "event",
    "command",
    "request_id",
    "trace_id",
    "pid",
];

/// One line of the log. Every record has `seq`, `prev` (the hash chain, see
/// [`super::chain`]), `timestamp` (RFC 3339, UTC), `event`, `command` and
/// `pid`, and `request_id`/`trace_id` where the caller gave them; the rest
/// depends on the event.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditRecord {
    pub timestamp: String,
    pub event: &'static str,
    pub command: String,
    pub pid: u32,
    pub request_id: Option<String>,
    pub trace_id: Option<String>,
    pub details: Map<String, Value>,
}

impl AuditRecord {
    /// A record of `event` for `command`, stamped now, by this process.
    pub fn new(event: &'static str, command: impl Into<String>) -> Self {
        Self {
            timestamp: rfc3339_utc(SystemTime::now()),
            event,
            command: command.into(),
            pid: std::process::id(),
            request_id: None,
            trace_id: None,
            details: Map::new(),
        }
    }

    /// Adds a detail. `request_id` and `trace_id` set those fields; the
    /// other reserved keys (`seq`, `event`, ...) are aigent's and are not
    /// replaced.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        let value = value.into();
        match key {
            "request_id" => self.request_id = value.as_str().map(str::to_owned),
            "trace_id" => self.trace_id = value.as_str().map(str::to_owned),
            _ => {
                self.details.insert(key.to_owned(), value);
            }
        }
        self
    }

    pub fn with_request_id(mut self, id: impl Into<String>) -> Self {
        self.request_id = Some(cut(&id.into()));
        self
    }

    pub fn with_trace_id(mut self, id: Option<impl Into<String>>) -> Self {
        self.trace_id = id.map(|id| cut(&id.into()));
        self
    }

    /// Both ids of a request.
    pub fn with_request(self, request: &RequestIds) -> Self {
        self.with_request_id(request.request_id.clone())
            .with_trace_id(request.trace_id.clone())
    }

    /// `TOOL_ARG_VALIDATION_FAILURE`: every violation, sensitive values
    /// redacted and long values cut.
    pub fn validation_failure(rejection: &Rejection) -> Self {
        let violations: Vec<Value> = rejection
            .violations
            .iter()
            .map(|violation| {
                let shown = violation.redacted();
                json!({
                    "field": shown.field,
                    "rejected_pattern": shown.rule.as_str(),
                    "input_value": shown.input_value.as_deref().map(cut),
                    "expected": shown.expected,
                    "message": cut(&shown.message),
                })
            })
            .collect();
        Self::new(EVENT_VALIDATION_FAILURE, rejection.command.clone())
            .with("error_code", rejection.error_code().as_str())
            .with("violations", violations)
    }

    /// `COMMAND_STARTED`, written before the child is spawned: the argv and
    /// the child's declared environment (sensitive values redacted,
    /// inherited variables by name only), both bounded. Add `timeout_ms`
    /// and the like with [`Self::with`].
    pub fn command_started(command: &str, argv: &Argv) -> Self {
        Self::new(EVENT_COMMAND_STARTED, command)
            .with_argv(argv)
            .with("env", bounded_env(argv.env().redacted()))
    }

    /// `COMMAND_CONFIRMATION_REFUSED`: what would have run.
    pub fn confirmation_refused(command: &str, argv: &Argv) -> Self {
        Self::new(EVENT_CONFIRMATION_REFUSED, command).with_argv(argv)
    }

    /// `COMMAND_SANDBOX_UNAVAILABLE`: what would have run, and what of its
    /// sandbox the kernel could not enforce.
    pub fn sandbox_unavailable(command: &str, argv: &Argv) -> Self {
        Self::new(EVENT_SANDBOX_UNAVAILABLE, command).with_argv(argv)
    }

    /// `COMMAND_EXECUTED`: the argv (sensitive values redacted, bounded),
    /// how the child ended, how long it ran, and its pid.
    pub fn command_executed(command: &str, argv: &Argv, finished: &Finished) -> Self {
        let mut record = Self::new(EVENT_COMMAND_EXECUTED, command).with_argv(argv);
        record = record
            .with("child_pid", finished.pid)
            .with("exit_code", finished.exit_code())
            .with("duration_ms", millis(finished.duration));
        if let Some(signal) = finished.signal() {
            record = record.with("signal", signal);
        }
        if finished.timed_out {
            record = record.with("timed_out", true);
        }
        if let Some(signal) = finished.interrupted_by {
            record = record.with("interrupted_by", signal);
        }
        if finished.descendants_killed > 0 {
            record = record.with("descendants_killed", finished.descendants_killed);
        }
        record
    }

    /// `COMMAND_SPAWN_FAILURE`: the argv and why it could not start.
    pub fn spawn_failure(command: &str, argv: &Argv, error: &SpawnError) -> Self {
        Self::new(EVENT_SPAWN_FAILURE, command)
            .with_argv(argv)
            .with("error", cut(&error.to_string()))
    }

    /// Adds `argv`, redacted and bounded; when words had to be left out,
    /// `argv_omitted` counts them.
    fn with_argv(self, argv: &Argv) -> Self {
        let (shown, omitted) = bounded_words(&argv.redacted());
        let record = self.with("argv", shown);
        if omitted > 0 {
            record.with("argv_omitted", omitted)
        } else {
            record
        }
    }

    /// The record without its chain fields.
    pub fn to_json(&self) -> Value {
        Value::Object(self.object(None, true))
    }

    /// The line that goes into the log (without its newline): the chain
    /// fields first, then the record, never longer than
    /// [`MAX_RECORD_BYTES`].
    pub fn to_line(&self, seq: u64, prev: &str, torn: u64) -> Vec<u8> {
        let chain = Some((seq, prev, torn));
        let line = serde_json::to_vec(&Value::Object(self.object(chain, true))).unwrap_or_default();
        if line.len() <= MAX_RECORD_BYTES {
            return line;
        }
        let mut object = self.object(chain, false);
        object.insert("details_omitted_bytes".to_owned(), Value::from(line.len()));
        serde_json::to_vec(&Value::Object(object)).unwrap_or_default()
    }

    fn object(&self, chain: Option<(u64, &str, u64)>, with_details: bool) -> Map<String, Value> {
        let mut object = Map::new();
        if let Some((seq, prev, torn)) = chain {
            object.insert("seq".to_owned(), Value::from(seq));
            object.insert("prev".to_owned(), Value::from(prev));
            if torn > 0 {
                object.insert("torn".to_owned(), Value::from(torn));
            }
        }
        object.insert("timestamp".to_owned(), Value::from(cut(&self.timestamp)));
        object.insert("event".to_owned(), Value::from(self.event));
        object.insert("command".to_owned(), Value::from(cut(&self.command)));
        if let Some(id) = &self.request_id {
            object.insert("request_id".to_owned(), Value::from(cut(id)));
        }
        if let Some(id) = &self.trace_id {
            object.insert("trace_id".to_owned(), Value::from(cut(id)));
        }
        object.insert("pid".to_owned(), Value::from(self.pid));
        if with_details {
            for (key, value) in &self.details {
                if !RESERVED_KEYS.contains(&key.as_str()) {
                    object.insert(key.clone(), value.clone());
                }
            }
        }
        object
    }
}

/// The environment as [`crate::exec::env::ChildEnv::redacted`] shows it,
/// each value cut, and left out (with its size) when it is still too big.
fn bounded_env(env: Value) -> Value {
    let cut_strings = |value: &Value| match value {
        Value::String(text) => Value::from(cut(text)),
        other => other.clone(),
    };
    let bounded = match env {
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(key, value)| {
                    let value = match value {
                        Value::Object(map) => Value::Object(
                            map.iter()
                                .map(|(name, value)| (cut(name), cut_strings(value)))
                                .collect(),
                        ),
                        Value::Array(items) => {
                            Value::Array(items.iter().map(cut_strings).collect())
                        }
                        other => other,
                    };
                    (key, value)
                })
                .collect(),
        ),
        other => other,
    };
    let bytes = serde_json::to_vec(&bounded).map_or(usize::MAX, |json| json.len());
    if bytes > MAX_LOGGED_ENV_BYTES {
        json!({"omitted_bytes": bytes})
    } else {
        bounded
    }
}

/// The words that fit in [`MAX_LOGGED_ARGV_BYTES`] (each cut), and how
/// many were left out.
fn bounded_words(words: &[String]) -> (Vec<String>, usize) {
    let mut shown = Vec::new();
    let mut bytes = 2;
    for word in words {
        let word = cut(word);
        // Escaping can grow a character to six bytes (`\u001b`).
        let cost = serde_json::to_string(&word).map_or(word.len() * 6, |json| json.len()) + 1;
        if bytes + cost > MAX_LOGGED_ARGV_BYTES {
            break;
        }
        bytes += cost;
        shown.push(word);
    }
    let omitted = words.len() - shown.len();
    (shown, omitted)
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_LOGGED_VALUE_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…[cut: {} bytes in all]", &text[..end], text.len()),
    }
}

/// `2024-05-01T12:34:56.789Z`, by humantime. Dates before 1970 cannot
/// occur for `now` and are clamped to the epoch, dates past the year 9999
/// to its last millisecond.
pub fn rfc3339_utc(time: SystemTime) -> String {
    const LAST: Duration = Duration::from_millis(253_402_300_799_999);
    let since_epoch = time
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .min(LAST);
    humantime::format_rfc3339_millis(UNIX_EPOCH + since_epoch).to_string()
}

/// The moment `--since` names, as a record timestamp (so that records
/// compare as strings): an RFC 3339 time (`2026-11-23T09:00:00Z`, an
/// offset such as `+02:00`, or no zone, meaning UTC), a date
/// (`2026-11-23`, midnight UTC), or an age before `now` (`90s`, `15m`,
/// `2h`, `7d`, `1w`).
pub fn parse_since(text: &str, now: SystemTime) -> Result<String, String> {
    let text = text.trim();
    let invalid = || {
        format!(
            "`{text}` is not a time: give an RFC 3339 time (2026-11-23T09:00:00Z), a date (2026-11-23) or an age (30m, 2h, 7d)"
        )
    };
    if let Some(age) = parse_age(text) {
        let moment = now.checked_sub(age).unwrap_or(UNIX_EPOCH);
        return Ok(rfc3339_utc(moment));
    }
    let seconds = parse_rfc3339(text).ok_or_else(invalid)?;
    let moment = if seconds >= 0 {
        UNIX_EPOCH + Duration::from_secs(seconds.unsigned_abs())
    } else {
        UNIX_EPOCH
    };
    Ok(rfc3339_utc(moment))
}

fn parse_age(text: &str) -> Option<Duration> {
    let unit_at = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(unit_at);
    let count: u64 = number.parse().ok()?;
    let unit_seconds = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return None,
    };
    Some(Duration::from_secs(count.checked_mul(unit_seconds)?))
}

/// Seconds since the epoch of `YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|±HH:MM]`
/// (fractions are dropped: timestamps compare to the millisecond, and a
/// `--since` at whole seconds is what people type). The calendar is
/// humantime's: the fields are checked here, and the date and time handed
/// to it in the one form it reads.
fn parse_rfc3339(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<u64> {
        let part = text.get(range)?;
        if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
            return None;
        }
        part.parse().ok()
    };
    if bytes.len() < 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let year = number(0..4)?;
    let month = number(5..7)?;
    let day = number(8..10)?;
    let rest = &text[10..];
    let (mut clock_seconds, mut offset) = (0i64, 0i64);
    let mut leap_second = false;
    if !rest.is_empty() {
        let rest = rest.strip_prefix(['T', 't', ' '])?;
        let (clock, zone) = match rest.find(['Z', 'z', '+', '-']) {
            Some(at) => rest.split_at(at),
            None => (rest, ""),
        };
        let clock = clock.split('.').next()?;
        let fields: Vec<&str> = clock.split(':').collect();
        if !(2..=3).contains(&fields.len()) {
            return None;
        }
        let field = |index: usize, max: i64| -> Option<i64> {
            let part = fields.get(index).copied().unwrap_or("0");
            if part.len() != 2 && index < fields.len() {
                return None;
            }
            let value: i64 = part.parse().ok()?;
            (0..=max).contains(&value).then_some(value)
        };
        let second = field(2, 60)?;
        // humantime reads a leap second as :59; it counts here as the next.
        leap_second = second == 60;
        clock_seconds = field(0, 23)? * 3600 + field(1, 59)? * 60 + second.min(59);
        match zone {
            "" | "Z" | "z" => {}
            _ => {
                let sign = if zone.starts_with('-') { 1 } else { -1 };
                let (hours, minutes) = zone[1..].split_once(':')?;
                if hours.len() != 2 || minutes.len() != 2 {
                    return None;
                }
                let hours: i64 = hours.parse().ok()?;
                let minutes: i64 = minutes.parse().ok()?;
                if hours > 23 || minutes > 59 {
                    return None;
                }
                offset = sign * (hours * 3600 + minutes * 60);
            }
        }
    }
    // Before 1970 the date is checked in a year of the same kind (leap or
    // not) and then counts as the epoch, where every record is after it.
    let before_epoch = year < 1970;
    let checked_year = match year {
        1970.. => year,
        _ if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 2000,
        _ => 2001,
    };
    let midnight =
        humantime::parse_rfc3339(&format!("{checked_year:04}-{month:02}-{day:02}T00:00:00Z"))
            .ok()?;
    if before_epoch {
        return Some(-1);
    }
    let days_seconds = midnight.duration_since(UNIX_EPOCH).ok()?.as_secs();
    let seconds = i64::try_from(days_seconds).ok()? + clock_seconds + i64::from(leap_second);
    Some(seconds + offset)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::guard::{Rule, Violation};

    #[test]
    fn timestamps() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let at = |secs| rfc3339_utc(UNIX_EPOCH + Duration::from_millis(secs));
        assert_eq!(at(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(at(951_868_799_999), "2000-02-29T23:59:59.999Z");
        assert_eq!(at(1_709_251_199_000), "2024-02-29T23:59:59.000Z");
        assert_eq!(at(4_102_444_800_000), "2100-01-01T00:00:00.000Z");
        assert_eq!(at(1_735_689_599_000), "2024-12-31T23:59:59.000Z");
        // Past the year 9999 (which humantime cannot print): its last moment.
        assert_eq!(at(u64::MAX / 4), "9999-12-31T23:59:59.999Z");
        assert_eq!(
            rfc3339_utc(UNIX_EPOCH - Duration::from_secs(5)),
            "1970-01-01T00:00:00.000Z"
        );
    }

    pub(crate) fn rejection() -> Rejection {
        let mut secret = Violation::new(
            "token",
            Rule::ControlCharacter,
            Some("hunter2\u{7}".into()),
            "a string",
            "`token` has a bell",
        );
        secret.sensitive = true;
        Rejection {
            command: "login".into(),
            violations: vec![
                Violation::new(
                    "user",
                    Rule::PathTraversal,
                    Some("../root".into()),
                    "an id",
                    "`user` has '..'",
                ),
                secret,
            ],
            fix: None,
        }
    }

    #[test]
    fn long_values_are_cut() {
        let long = "x".repeat(5000);
        let cut_value = cut(&long);
        assert!(cut_value.chars().count() < 1100);
        assert!(cut_value.contains("5000 bytes"));
        assert_eq!(cut("short"), "short");
    }

    fn finished() -> Finished {
        Finished {
            pid: 7,
            ending: crate::exec::Ending::Signaled(15),
            duration: Duration::from_millis(1234),
            timed_out: true,
            cancelled: false,
            interrupted_by: None,
            stdout: None,
            stderr: None,
            descendants_killed: 0,
            sandbox_lapses: Vec::new(),
        }
    }

    #[test]
    fn execution_records_hold_the_redacted_argv_and_the_ending() {
        let declaration = crate::registry::parse_declaration(
            "name: t\ndescription: d\ndanger_level: mutating\nparameters:\n  token: {type: string, sensitive: true}\nsubprocess: {binary: tool, hardcoded_args: [go], user_controlled_args: [token]}\n",
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        )
        .declaration
        .unwrap();
        let tail = vec!["--token".to_owned(), "hunter2".to_owned()];
        let validated =
            crate::guard::check(&declaration, &crate::guard::RawArguments::from_tail(&tail))
                .unwrap();
        let argv = Argv::build(&declaration, &validated).unwrap();
        let record = AuditRecord::command_executed("t", &argv, &finished()).to_json();
        assert_eq!(record["event"], EVENT_COMMAND_EXECUTED);
        assert_eq!(
            record["argv"],
            json!(["tool", "go", crate::guard::REDACTED])
        );
        assert_eq!(record["exit_code"], Value::Null);
        assert_eq!(record["signal"], 15);
        assert_eq!(record["timed_out"], true);
        assert_eq!(record["duration_ms"], 1234);
        assert_eq!(record["child_pid"], 7);
        assert!(record.get("argv_omitted").is_none());
        assert!(!record.to_string().contains("hunter2"));
    }

    #[test]
    fn a_huge_argv_makes_a_bounded_record() {
        let words: Vec<String> = (0..5000)
            .map(|index| format!("{index}-{}", "\u{1b}".repeat(2000)))
            .collect();
        let argv = Argv::from_words(words);
        let record = AuditRecord::command_executed("t", &argv, &finished()).to_json();
        let line = serde_json::to_vec(&record).unwrap();
        assert!(line.len() < 72 * 1024, "{} bytes", line.len());
        let shown = record["argv"].as_array().unwrap().len();
        assert!(shown > 0);
        assert_eq!(record["argv_omitted"], 5000 - shown);
        let failure = AuditRecord::spawn_failure(
            "t",
            &argv,
            &SpawnError::NotFound {
                program: "x".into(),
            },
        )
        .to_json();
        assert!(serde_json::to_vec(&failure).unwrap().len() < 72 * 1024);
        assert_eq!(failure["event"], EVENT_SPAWN_FAILURE);
    }

    #[test]
    fn lines_carry_the_chain_first_and_ids_and_keep_reserved_keys() {
        let record = AuditRecord::new(EVENT_COMMAND_STARTED, "deploy")
            .with("seq", 99)
            .with("event", "FORGED")
            .with("request_id", "r-1")
            .with_trace_id(Some("t-1"))
            .with("argv", json!(["kubectl"]));
        let line = record.to_line(7, "ab", 2);
        let text = String::from_utf8(line).unwrap();
        assert!(
            text.starts_with(r#"{"seq":7,"prev":"ab","torn":2,"timestamp":"#),
            "{text}"
        );
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["event"], EVENT_COMMAND_STARTED);
        assert_eq!(value["request_id"], "r-1");
        assert_eq!(value["trace_id"], "t-1");
        assert_eq!(value["argv"], json!(["kubectl"]));
        let plain = String::from_utf8(AuditRecord::new("X", "c").to_line(1, "ab", 0)).unwrap();
        assert!(
            !plain.contains("torn") && !plain.contains("request_id"),
            "{plain}"
        );
    }

    #[test]
    fn every_line_is_bounded_whatever_a_caller_adds() {
        let record = AuditRecord::new(EVENT_COMMAND_STARTED, "c".repeat(10_000))
            .with_request_id("r".repeat(10_000))
            .with("huge", "x".repeat(1_000_000));
        let line = record.to_line(1, "ab", 0);
        assert!(line.len() <= MAX_RECORD_BYTES, "{}", line.len());
        let value: Value = serde_json::from_slice(&line).unwrap();
        assert!(value["details_omitted_bytes"].as_u64().unwrap() > 1_000_000);
        assert_eq!(value["event"], EVENT_COMMAND_STARTED);
    }

    #[test]
    fn started_and_refused_records_bound_the_argv_and_the_environment() {
        let words: Vec<String> = (0..5000)
            .map(|index| format!("{index}-{}", "y".repeat(500)))
            .collect();
        let argv = Argv::from_words(words);
        let started = AuditRecord::command_started("t", &argv).to_json();
        assert_eq!(started["event"], EVENT_COMMAND_STARTED);
        assert!(started["argv_omitted"].as_u64().unwrap() > 0);
        assert!(started["env"].is_object());
        let env = bounded_env(json!({"set": {"A": "x".repeat(5000)}, "inherited": ["B"]}));
        let shown = env["set"]["A"].as_str().unwrap();
        assert!(shown.contains("cut: 5000 bytes"), "{shown}");
        assert_eq!(env["inherited"], json!(["B"]));
        let names: serde_json::Map<String, Value> = (0..100)
            .map(|index| (format!("V{index}"), Value::from("y".repeat(1000))))
            .collect();
        let huge = bounded_env(json!({"set": names, "inherited": []}));
        assert!(huge["omitted_bytes"].as_u64().unwrap() > 100_000);
        let refused = AuditRecord::confirmation_refused("t", &argv).to_json();
        assert_eq!(refused["event"], EVENT_CONFIRMATION_REFUSED);
        assert!(serde_json::to_vec(&refused).unwrap().len() < 72 * 1024);
    }

    #[test]
    fn since_takes_times_dates_and_ages() {
        let now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(
            parse_since("2026-11-23", now).unwrap(),
            "2026-11-23T00:00:00.000Z"
        );
        assert_eq!(
            parse_since("2026-11-23T09:30:00Z", now).unwrap(),
            "2026-11-23T09:30:00.000Z"
        );
        assert_eq!(
            parse_since("2026-11-23T09:30:00.123+02:00", now).unwrap(),
            "2026-11-23T07:30:00.000Z"
        );
        assert_eq!(
            parse_since("2026-11-23 09:30", now).unwrap(),
            "2026-11-23T09:30:00.000Z"
        );
        assert_eq!(
            parse_since("1h", now).unwrap(),
            rfc3339_utc(now - Duration::from_secs(3600))
        );
        assert_eq!(
            parse_since("2d", now).unwrap(),
            rfc3339_utc(now - Duration::from_secs(172_800))
        );
        assert_eq!(
            parse_since("2026-12-31T23:59:60Z", now).unwrap(),
            "2027-01-01T00:00:00.000Z"
        );
        assert_eq!(
            parse_since("1960-02-29", now).unwrap(),
            "1970-01-01T00:00:00.000Z"
        );
        for bad in [
            "1961-02-29",
            "2100-02-29",
            "",
            "yesterday",
            "2026-13-01",
            "2026-02-30",
            "2026-11-23T25:00",
            "5y",
            "2026-11-23T09:30+2",
            "99999999999999999999d",
        ] {
            assert!(parse_since(bad, now).is_err(), "{bad}");
        }
    }

    proptest::proptest! {
        #[test]
        fn stamps_and_since_round_trip(seconds in 0u64..253_402_300_799) {
            let moment = UNIX_EPOCH + Duration::from_secs(seconds);
            let stamp = rfc3339_utc(moment + Duration::from_millis(seconds % 1000));
            let since = parse_since(&stamp, SystemTime::now()).unwrap();
            proptest::prop_assert_eq!(since, rfc3339_utc(moment));
        }

        #[test]
        fn since_never_panics(text in "\\PC{0,40}") {
            let _ = parse_since(&text, SystemTime::now());
        }
    }
}
