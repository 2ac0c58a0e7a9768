//! Confirming a destructive call, in the way the negotiated revision
//! expects:
//!
//! - 2026-07-28: no server-to-client requests. The first `tools/call` gets
//!   an `input_required` result carrying the elicitation and a sealed
//!   `requestState`; the client asks the person and retries the same call
//!   with `inputResponses` and the state.
//! - older revisions: `elicitation/create`, sent while the call waits.
//! - a client with neither: refused.
//!
//! The round trip is stateless: everything the second round needs is in
//! the state, sealed with rmcp's HMAC-SHA256 codec under a key only the
//! server holds, bound (as associated data) to the tool's name and a
//! digest of its arguments, and valid for [`STATE_TTL`]. A client cannot
//! forge a state, change the arguments under one, or use one for another
//! tool. Both rounds are audited under the first round's request id.
//!
//! A state is answered once, across the replicas that share its key and
//! across restarts: the first answer records the state's nonce in
//! [`UsedStates`], a directory beside the audit log (which replicas
//! already share), by creating a file of that name, which only one
//! creator can do, made durable before the call goes on. A second answer
//! finds it there and is refused and audited as a replay.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rmcp::model::{RequestStateCodec, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::exec::audit::AuditRecord;
use crate::request::RequestIds;

/// How long a confirmation request stays answerable.
pub const STATE_TTL: Duration = Duration::from_secs(10 * 60);

/// The key under which the confirmation goes in `inputRequests` and comes
/// back in `inputResponses`.
pub const INPUT_KEY: &str = "confirm";

/// The audit event of a confirmation request (the first round).
pub const EVENT_CONFIRMATION_REQUESTED: &str = "COMMAND_CONFIRMATION_REQUESTED";

/// Domain separation: these states are for nothing but confirmations.
const CONTEXT: &[u8] = b"aigent/mcp/confirm/v1";

/// What the second round brings back, under the seal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Pending {
    request_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trace_id: Option<String>,
    /// Makes each state distinct, so one can be used once.
    nonce: String,
    /// When the state stops opening (seconds since the epoch): its record
    /// of use matters until then.
    expires: u64,
}

/// A second round's state, opened: the first round's request ids, and
/// what marks the state used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub ids: RequestIds,
    nonce: String,
    expires: u64,
}

/// Why a second round is not a confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateError {
    /// Forged, altered, for another call, or from another server's key.
    Invalid,
    Expired,
    /// Already answered once (by this server or another sharing its
    /// record of used states).
    Used,
    /// Its use could not be recorded, so it is not honoured.
    Unrecorded,
}

impl StateError {
    pub fn reason(self) -> &'static str {
        match self {
            StateError::Invalid => {
                "the confirmation state did not verify (altered, forged, or for another call)"
            }
            StateError::Expired => "the confirmation request expired",
            StateError::Used => "that confirmation was already used: each is answered once",
            StateError::Unrecorded => {
                "the use of the confirmation could not be recorded, so it was not honoured"
            }
        }
    }
}

/// Seals and opens confirmation states with the server's key.
pub struct Sealer {
    codec: RequestStateCodec,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer")
    }
}

impl Sealer {
    /// A sealer with `key` (at least 32 bytes; replicas that share
    /// retries share it), or a fresh random key when `None`.
    pub fn new(key: Option<&[u8]>) -> Result<Self, String> {
        let codec = match key {
            Some(key) => RequestStateCodec::try_new(key.to_vec()),
            None => {
                let mut key = [0u8; 32];
                getrandom::fill(&mut key).map_err(|err| err.to_string())?;
                RequestStateCodec::try_new(key.to_vec())
            }
        }
        .map_err(|err| err.to_string())?;
        Ok(Self { codec })
    }

    /// A state for the first round of `tool` called with `arguments`.
    pub fn seal(
        &self,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
        ids: &RequestIds,
    ) -> String {
        let mut nonce = [0u8; 16];
        // Without a nonce the state is still sealed and bound; it is only
        // not distinguishable from another of the same request.
        let _ = getrandom::fill(&mut nonce);
        let pending = Pending {
            request_id: ids.request_id.clone(),
            trace_id: ids.trace_id.clone(),
            nonce: hex(&nonce),
            expires: unix_seconds(SystemTime::now() + STATE_TTL),
        };
        let bound = binding(tool, arguments);
        let payload = serde_json::to_vec(&pending).unwrap_or_default();
        self.codec.seal_with(
            &payload,
            &SealOptions::new().associated_data(&bound).ttl(STATE_TTL),
        )
    }

    /// Opens a second round's state for `tool` with `arguments`: the first
    /// round's request ids. Whether it was used before is
    /// [`UsedStates::claim`]'s to say.
    pub fn open(
        &self,
        state: &str,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
    ) -> Result<Opened, StateError> {
        let bound = binding(tool, arguments);
        let payload = self
            .codec
            .open_with(state, &bound)
            .map_err(|err| match err {
                rmcp::model::RequestStateError::Expired => StateError::Expired,
                _ => StateError::Invalid,
            })?;
        let pending: Pending = serde_json::from_slice(&payload).map_err(|_| StateError::Invalid)?;
        // Sealed by this code, but it names a file: only hex will do.
        let well_formed = pending.nonce.len() == 32
            && pending
                .nonce
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !well_formed {
            return Err(StateError::Invalid);
        }
        Ok(Opened {
            ids: RequestIds {
                request_id: pending.request_id,
                trace_id: pending.trace_id,
            },
            nonce: pending.nonce,
            expires: pending.expires,
        })
    }
}

fn unix_seconds(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// How often the record of used states is swept of the ones that no
/// longer open; and how long past its expiry a record is kept (the
/// replicas' clocks may differ a little).
const SWEEP_EVERY: Duration = Duration::from_secs(60);
const SWEEP_MARGIN: u64 = 5 * 60;

/// The record of confirmation states already answered: one empty file per
/// state, named `EXPIRES-NONCE`, in a directory of the server's own (mode
/// 0700, not a symlink, not writable by others) beside the audit log.
/// Creating a file that must not exist is one step no two servers can
/// both win, on a local file system and on NFS alike, so a state is
/// answered once by all the servers that share the directory; the entry
/// is made durable before the call goes on, so a restart remembers it.
/// Files past their state's expiry are removed now and then.
#[derive(Debug)]
pub struct UsedStates {
    dir: PathBuf,
    last_sweep: Mutex<Option<Instant>>,
}

/// Why a state's use could not be claimed.
#[derive(Debug)]
pub enum ClaimError {
    /// Answered before.
    Used,
    /// The record could not be written: nothing is honoured.
    Unrecorded(std::io::Error),
}

impl UsedStates {
    /// The record beside the audit log at `audit_log`:
    /// `audit.jsonl.used-confirmations/` for `audit.jsonl`.
    pub fn beside(audit_log: &Path) -> Self {
        let mut name = audit_log
            .file_name()
            .map(std::ffi::OsStr::to_os_string)
            .unwrap_or_else(|| "audit".into());
        name.push(".used-confirmations");
        Self {
            dir: audit_log.with_file_name(name),
            last_sweep: Mutex::new(None),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records `opened`'s state as answered, durably; [`ClaimError::Used`]
    /// when it already was.
    pub fn claim(&self, opened: &Opened) -> Result<(), ClaimError> {
        let name = format!("{}-{}", opened.expires, opened.nonce);
        let created = store::create(&self.dir, &name);
        self.sweep_now_and_then();
        created
    }

    /// Removes the records of states that no longer open, at most once
    /// per [`SWEEP_EVERY`]; failures are left for the next sweep.
    fn sweep_now_and_then(&self) {
        {
            let mut last = self
                .last_sweep
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.is_some_and(|at| at.elapsed() < SWEEP_EVERY) {
                return;
            }
            *last = Some(Instant::now());
        }
        let now = unix_seconds(SystemTime::now());
        store::remove_where(&self.dir, |name| {
            name.split_once('-')
                .and_then(|(expires, _)| expires.parse::<u64>().ok())
                .is_some_and(|expires| expires.saturating_add(SWEEP_MARGIN) < now)
        });
    }
}

#[cfg(unix)]
mod store {
    use std::io;
    use std::os::fd::OwnedFd;
    use std::path::Path;

    use rustix::fs::{AtFlags, CWD, Mode, OFlags};

    use super::ClaimError;

    /// The directory, made if missing: refused when it is a symlink, not
    /// this user's, or writable by others (who could remove a record and
    /// so answer a state twice).
    fn open_dir(dir: &Path) -> io::Result<OwnedFd> {
        if let Some(parent) = dir.parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent)?;
        }
        match rustix::fs::mkdirat(CWD, dir, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(errno) => return Err(errno.into()),
        }
        let fd = rustix::fs::openat(
            CWD,
            dir,
            OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOFOLLOW,
            Mode::empty(),
        )
        .map_err(|errno| match errno {
            rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => io::Error::other(format!(
                "{} is not a directory of its own (a symlink?)",
                dir.display()
            )),
            other => other.into(),
        })?;
        let stat = rustix::fs::fstat(&fd)?;
        let own = rustix::process::geteuid().as_raw();
        if stat.st_uid != own {
            return Err(io::Error::other(format!(
                "{} belongs to uid {}, not to this user (uid {own})",
                dir.display(),
                stat.st_uid
            )));
        }
        #[allow(clippy::unnecessary_cast)]
        if (stat.st_mode as u32) & 0o022 != 0 {
            return Err(io::Error::other(format!(
                "{} is writable by others",
                dir.display()
            )));
        }
        Ok(fd)
    }

    pub fn create(dir: &Path, name: &str) -> Result<(), ClaimError> {
        let fd = open_dir(dir).map_err(ClaimError::Unrecorded)?;
        let flags = OFlags::CREATE
            | OFlags::EXCL
            | OFlags::WRONLY
            | OFlags::NOFOLLOW
            | OFlags::CLOEXEC
            | OFlags::NONBLOCK;
        match rustix::fs::openat(&fd, name, flags, Mode::from_raw_mode(0o600)) {
            Ok(file) => drop(file),
            Err(rustix::io::Errno::EXIST) => return Err(ClaimError::Used),
            Err(errno) => return Err(ClaimError::Unrecorded(errno.into())),
        }
        // The new entry survives a crash before the command runs.
        match rustix::fs::fsync(&fd) {
            Ok(()) | Err(rustix::io::Errno::INVAL) => Ok(()),
            Err(errno) => Err(ClaimError::Unrecorded(errno.into())),
        }
    }

    pub fn remove_where(dir: &Path, stale: impl Fn(&str) -> bool) {
        let Ok(fd) = open_dir(dir) else { return };
        let Ok(entries) = rustix::fs::Dir::read_from(&fd) else {
            return;
        };
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().to_str() else {
                continue;
            };
            if stale(name) {
                let _ = rustix::fs::unlinkat(&fd, name, AtFlags::empty());
            }
        }
    }
}

#[cfg(not(unix))]
mod store {
    use std::path::Path;

    use super::ClaimError;

    pub fn create(dir: &Path, name: &str) -> Result<(), ClaimError> {
        std::fs::create_dir_all(dir).map_err(ClaimError::Unrecorded)?;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.join(name))
        {
            Ok(file) => file.sync_all().map_err(ClaimError::Unrecorded),
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => Err(ClaimError::Used),
            Err(err) => Err(ClaimError::Unrecorded(err)),
        }
    }

    pub fn remove_where(dir: &Path, stale: impl Fn(&str) -> bool) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_str().is_some_and(&stale) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The associated data: the tool and a digest of its arguments, in a
/// canonical form (keys sorted at every level), so that the retry must be
/// the same call.
fn binding(tool: &str, arguments: Option<&Map<String, Value>>) -> Vec<u8> {
    let mut hasher = Sha256::new();
    match arguments {
        Some(arguments) => hash_canonical_object(&mut hasher, arguments),
        None => hasher.update(b"{}"),
    }
    let mut bound = CONTEXT.to_vec();
    bound.push(0);
    bound.extend_from_slice(tool.as_bytes());
    bound.push(0);
    bound.extend_from_slice(&hasher.finalize());
    bound
}

/// Feeds `hasher` the JSON text of a value with object keys sorted at
/// every level (compact, as serde_json writes it), without building that
/// text or a sorted copy: the arguments may be large.
fn hash_canonical(hasher: &mut Sha256, value: &Value) {
    match value {
        Value::Object(object) => hash_canonical_object(hasher, object),
        Value::Array(items) => {
            hasher.update(b"[");
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    hasher.update(b",");
                }
                hash_canonical(hasher, item);
            }
            hasher.update(b"]");
        }
        scalar => {
            let _ = serde_json::to_writer(HashWriter(hasher), scalar);
        }
    }
}

fn hash_canonical_object(hasher: &mut Sha256, object: &Map<String, Value>) {
    let mut entries: Vec<(&String, &Value)> = object.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    hasher.update(b"{");
    for (index, (key, item)) in entries.into_iter().enumerate() {
        if index > 0 {
            hasher.update(b",");
        }
        let _ = serde_json::to_writer(HashWriter(hasher), key);
        hasher.update(b":");
        hash_canonical(hasher, item);
    }
    hasher.update(b"}");
}

/// Text written into a hash.
struct HashWriter<'a>(&'a mut Sha256);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The elicitation that asks the person: a yes/no form showing the argv
/// (sensitive values redacted).
pub fn elicitation(command: &str, redacted_argv: &[String]) -> Value {
    json!({
        "mode": "form",
        "message": format!("`{command}` is destructive. Run it?\n\n{}", redacted_argv.join(" ")),
        "requestedSchema": {
            "type": "object",
            "properties": {
                "confirm": {"type": "boolean", "title": "Run this destructive command"}
            },
            "required": ["confirm"],
        },
    })
}

/// The person's answer, as an `ElicitResult` in JSON: `Ok` only for an
/// accepted form with `confirm: true`.
pub fn answer(result: Option<&Value>) -> Result<(), &'static str> {
    let Some(result) = result else {
        return Err("no answer to the confirmation came back");
    };
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => {
            let confirmed = result
                .get("content")
                .and_then(|content| content.get("confirm"))
                .and_then(Value::as_bool);
            if confirmed == Some(true) {
                Ok(())
            } else {
                Err("the user did not confirm")
            }
        }
        Some("decline") | Some("cancel") => Err("the user declined"),
        _ => Err("the answer to the confirmation was not understood"),
    }
}

/// Writes the first round's record: what would run, and which revision
/// asked. Fails closed: when it cannot be written, nobody is asked.
pub fn audit_request(
    audit_log: &crate::exec::audit::kept::KeptLog,
    command: &str,
    redacted_argv: &[String],
    ids: &RequestIds,
    revision: &str,
) -> Result<(), String> {
    let record = AuditRecord::new(EVENT_CONFIRMATION_REQUESTED, command)
        .with_request(ids)
        .with("argv", redacted_argv.to_vec())
        .with("protocol_version", revision);
    audit_log.append(&record).map_err(|err| err.to_string())
}

/// Writes the record of a replayed state, refused: what would have run,
/// under the replay's own request id, naming the request whose
/// confirmation it carried (`replay_of`).
pub fn audit_replay(
    audit_log: &crate::exec::audit::kept::KeptLog,
    command: &str,
    redacted_argv: &[String],
    ids: &RequestIds,
    replay_of: &str,
) -> Result<(), String> {
    let record = AuditRecord::new(crate::exec::audit::EVENT_CONFIRMATION_REFUSED, command)
        .with_request(ids)
        .with("argv", redacted_argv.to_vec())
        .with("reason", "replayed")
        .with("replay_of", replay_of);
    audit_log.append(&record).map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn the_binding_hashes_the_sorted_text_without_building_it() {
        // The text the binding stood for before it was streamed: keys
        // sorted at every level, written compactly.
        fn sorted(value: &Value) -> Value {
            match value {
                Value::Object(object) => {
                    let mut keys: Vec<&String> = object.keys().collect();
                    keys.sort();
                    Value::Object(
                        keys.into_iter()
                            .map(|key| (key.clone(), sorted(&object[key])))
                            .collect(),
                    )
                }
                Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
                other => other.clone(),
            }
        }
        let arguments = args(json!({
            "z": [3, {"b": "\u{1}\"q", "a": null}, 1.5, true],
            "a": {"é": -0.0, "b": 1e300, "a": 18446744073709551615u64},
            "m": ""
        }));
        let text = sorted(&Value::Object(arguments.clone())).to_string();
        let mut expected = Sha256::new();
        expected.update(text.as_bytes());
        let mut hasher = Sha256::new();
        hash_canonical_object(&mut hasher, &arguments);
        assert_eq!(hasher.finalize(), expected.finalize());
        assert_eq!(binding("t", None), binding("t", Some(&Map::new())));
    }

    #[test]
    fn a_state_opens_once_for_the_same_call_only() {
        let sealer = Sealer::new(None).unwrap();
        let ids = RequestIds::with_trace(Some("trace-1"));
        let first = args(json!({"b": 1, "a": {"y": 2, "x": [1, 2]}}));
        let state = sealer.seal("wipe", Some(&first), &ids);
        // Another tool, other arguments: refused, and the state not spent.
        assert_eq!(
            sealer.open(&state, "wipe2", Some(&first)),
            Err(StateError::Invalid)
        );
        let other = args(json!({"b": 2, "a": {"y": 2, "x": [1, 2]}}));
        assert_eq!(
            sealer.open(&state, "wipe", Some(&other)),
            Err(StateError::Invalid)
        );
        // The same arguments in another key order are the same call.
        let reordered = args(json!({"a": {"x": [1, 2], "y": 2}, "b": 1}));
        let opened = sealer.open(&state, "wipe", Some(&reordered)).unwrap();
        assert_eq!(opened.ids, ids);
        // It opens again: single use is the record's to keep.
        assert_eq!(sealer.open(&state, "wipe", Some(&first)), Ok(opened));
    }

    #[test]
    fn a_state_is_claimed_once_in_the_record_whoever_holds_it() {
        let home = tempfile::tempdir().unwrap();
        let log = home.path().join("logs/audit.jsonl");
        let key = [9u8; 32];
        let (one, two) = (
            Sealer::new(Some(&key)).unwrap(),
            Sealer::new(Some(&key)).unwrap(),
        );
        let state = one.seal("wipe", None, &RequestIds::new());
        let opened = one.open(&state, "wipe", None).unwrap();
        let record = UsedStates::beside(&log);
        assert_eq!(
            record.dir(),
            home.path().join("logs/audit.jsonl.used-confirmations")
        );
        record.claim(&opened).unwrap();
        // Another replica, or this one restarted: a record of its own over
        // the same directory.
        let again = two.open(&state, "wipe", None).unwrap();
        assert!(matches!(
            UsedStates::beside(&log).claim(&again),
            Err(ClaimError::Used)
        ));
        // Another state is its own.
        let other = one.seal("wipe", None, &RequestIds::new());
        let other = one.open(&other, "wipe", None).unwrap();
        UsedStates::beside(&log).claim(&other).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(record.dir())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
        }
    }

    #[test]
    #[cfg(unix)]
    fn a_record_others_could_change_is_not_trusted() {
        use std::os::unix::fs::PermissionsExt;
        let home = tempfile::tempdir().unwrap();
        let log = home.path().join("audit.jsonl");
        let sealer = Sealer::new(None).unwrap();
        let opened = |sealer: &Sealer| {
            let state = sealer.seal("wipe", None, &RequestIds::new());
            sealer.open(&state, "wipe", None).unwrap()
        };
        let record = UsedStates::beside(&log);
        std::fs::create_dir(record.dir()).unwrap();
        std::fs::set_permissions(record.dir(), std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(matches!(
            record.claim(&opened(&sealer)),
            Err(ClaimError::Unrecorded(_))
        ));
        std::fs::remove_dir(record.dir()).unwrap();
        let elsewhere = home.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, record.dir()).unwrap();
        assert!(matches!(
            record.claim(&opened(&sealer)),
            Err(ClaimError::Unrecorded(_))
        ));
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    }

    #[test]
    fn records_past_their_state_are_swept() {
        let home = tempfile::tempdir().unwrap();
        let record = UsedStates::beside(&home.path().join("audit.jsonl"));
        let sealer = Sealer::new(None).unwrap();
        let state = sealer.seal("wipe", None, &RequestIds::new());
        let fresh = sealer.open(&state, "wipe", None).unwrap();
        let stale = Opened {
            expires: 1_000,
            ..fresh.clone()
        };
        let stale_nonce = Opened {
            nonce: "0".repeat(32),
            ..stale
        };
        record.claim(&stale_nonce).unwrap();
        std::fs::write(record.dir().join("not-a-record"), "").unwrap();
        // The first claim sweeps: the stale record goes, the rest stays.
        *record.last_sweep.lock().unwrap() = None;
        record.claim(&fresh).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(record.dir())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                format!("{}-{}", fresh.expires, fresh.nonce),
                "not-a-record".to_owned()
            ]
        );
    }

    #[test]
    fn a_forged_or_foreign_state_is_refused() {
        let sealer = Sealer::new(None).unwrap();
        let other = Sealer::new(None).unwrap();
        let ids = RequestIds::new();
        let state = other.seal("wipe", None, &ids);
        assert_eq!(sealer.open(&state, "wipe", None), Err(StateError::Invalid));
        for forged in ["", "confirmed", "rs1.e30.AAAA", &format!("{state}x")] {
            assert_eq!(
                sealer.open(forged, "wipe", None),
                Err(StateError::Invalid),
                "{forged}"
            );
        }
        // A shared key opens on another replica.
        let key = [7u8; 32];
        let one = Sealer::new(Some(&key)).unwrap();
        let two = Sealer::new(Some(&key)).unwrap();
        let state = one.seal("wipe", None, &ids);
        assert_eq!(
            two.open(&state, "wipe", None).map(|opened| opened.ids),
            Ok(ids)
        );
        assert!(Sealer::new(Some(b"short")).is_err());
    }

    #[test]
    fn only_an_accepted_yes_confirms() {
        assert_eq!(
            answer(Some(
                &json!({"action": "accept", "content": {"confirm": true}})
            )),
            Ok(())
        );
        for no in [
            json!({"action": "accept", "content": {"confirm": false}}),
            json!({"action": "accept", "content": {"confirm": "true"}}),
            json!({"action": "accept"}),
            json!({"action": "decline"}),
            json!({"action": "cancel"}),
            json!({"action": "yes"}),
            json!("accept"),
        ] {
            assert!(answer(Some(&no)).is_err(), "{no}");
        }
        assert!(answer(None).is_err());
    }
}
