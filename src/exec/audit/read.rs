//! Reading the log back: `audit verify` walks the chain of every file,
//! oldest first, and stops at the first line that breaks it; `audit show`
//! selects records. Both hold a shared lock while they read, so a writer's
//! line is seen whole or not at all, and both read lines of bounded length.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value};

use super::chain::{self, Line};
use super::dir::{Access, Dir};
use super::sign::{CheckpointFault, EVENT_CHECKPOINT, PublicKey};
use super::store::{self, Locked};
use super::{AuditError, AuditLog};

/// A line longer than this is no record of aigent's (records are at most
/// [`super::MAX_RECORD_BYTES`]), and is not read further.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// A line of one file of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: PathBuf,
    /// 1-based.
    pub line: u64,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {} of {}", self.line, self.file.display())
    }
}

/// The first line that breaks the chain, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    #[serde(flatten)]
    pub at: Location,
    /// A stable word for the kind of problem.
    pub kind: &'static str,
    pub message: String,
}

/// One file of the log, as verify saw it.
#[derive(Debug, Clone, Serialize)]
pub struct FileSummary {
    pub file: PathBuf,
    pub lines: u64,
    pub records: u64,
}

/// The newest record: keep its hash elsewhere to detect a cut-off tail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Head {
    pub seq: u64,
    pub sha256: String,
}

/// What `audit verify` found.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    pub files: Vec<FileSummary>,
    /// Chained records checked.
    pub records: u64,
    /// Lines before the first chained record (written before aigent kept
    /// a chain): not protected by it.
    pub unchained: u64,
    /// Torn lines (writes that failed part-way) that the next record
    /// accounts for.
    pub torn: Vec<Location>,
    pub head: Option<Head>,
    /// Where the head record is.
    #[serde(skip)]
    pub head_at: Option<Location>,
    /// `AUDIT_CHECKPOINT` records in the chain (checked only with a
    /// public key).
    pub checkpoints: u64,
    /// The last checkpoint whose signature was checked and holds.
    pub last_signed: Option<SignedCheckpoint>,
    /// Records after the last signed checkpoint: protected by the chain
    /// alone.
    pub after_last_signed: u64,
    pub problem: Option<Problem>,
}

/// A checkpoint whose signature holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedCheckpoint {
    pub seq: u64,
    #[serde(flatten)]
    pub at: Location,
    pub key_id: String,
    /// `interval` or `rotation`.
    pub reason: String,
    /// The next checkpoint is promised within this many records.
    pub every: u64,
}

impl Verification {
    pub fn is_intact(&self) -> bool {
        self.problem.is_none()
    }
}

/// Which records `audit show` prints.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub command: Option<String>,
    /// Compared without regard to case.
    pub event: Option<String>,
    /// A record timestamp (see [`super::record::parse_since`]): records at
    /// or after it.
    pub since: Option<String>,
    pub request_id: Option<String>,
    /// Only the last N matches.
    pub last: Option<usize>,
}

impl Filter {
    fn matches(&self, record: &Map<String, Value>) -> bool {
        let field = |key: &str| record.get(key).and_then(Value::as_str);
        self.command
            .as_deref()
            .is_none_or(|command| field("command") == Some(command))
            && self
                .event
                .as_deref()
                .is_none_or(|event| field("event").is_some_and(|e| e.eq_ignore_ascii_case(event)))
            && self
                .since
                .as_deref()
                .is_none_or(|since| field("timestamp").is_some_and(|at| at >= since))
            && self
                .request_id
                .as_deref()
                .is_none_or(|id| field("request_id") == Some(id))
    }
}

/// What `audit show` found.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    pub files: Vec<PathBuf>,
    pub records: Vec<Map<String, Value>>,
    /// The listed records the chain does not vouch for (before it began,
    /// not linked into it, or after a break), by their index in `records`.
    pub unverified: Vec<Unverified>,
    /// Lines that are not records (torn writes), skipped.
    pub skipped: Vec<Location>,
}

/// A listed record that the chain does not vouch for.
#[derive(Debug, Clone, Serialize)]
pub struct Unverified {
    /// Its index in [`Listing::records`].
    pub index: usize,
    #[serde(flatten)]
    pub at: Location,
    pub reason: String,
}

/// The files of a log, oldest first, open for reading, with the shared
/// lock held (when the lock file exists) for as long as this lives.
struct LogFiles {
    dir: Dir,
    names: Vec<OsString>,
    lock: Option<File>,
}

impl LogFiles {
    fn open(log: &AuditLog) -> Result<Self, AuditError> {
        let failed = |source| AuditError::Read {
            path: log.path().to_path_buf(),
            source,
        };
        let (parent, name) = store::split(log.path()).map_err(failed)?;
        let dir = Dir::open(&parent, false).map_err(failed)?;
        let lock = match dir.open_file(&store::lock_name(&name), Access::Read) {
            Ok(file) => Some(file),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(failed(err)),
        };
        let mut names: Vec<OsString> = store::rotated_numbers(&dir, &name)
            .map_err(failed)?
            .into_iter()
            .map(|number| store::rotated_name(&name, number))
            .collect();
        if dir.identity(&name).map_err(failed)?.is_some() || names.is_empty() {
            names.push(name);
        }
        Ok(Self { dir, names, lock })
    }

    /// Each file in turn, with every line (newline cut off, and whether
    /// there was one) handed to `visit`, which returns false to stop.
    fn each_line(
        &self,
        log: &AuditLog,
        mut visit: impl FnMut(usize, &Location, &[u8], bool) -> bool,
    ) -> Result<(), AuditError> {
        let _shared = match &self.lock {
            Some(lock) => Some(Locked::shared(lock).map_err(|source| AuditError::Read {
                path: log.path().to_path_buf(),
                source,
            })?),
            None => None,
        };
        let mut line = Vec::new();
        for (index, name) in self.names.iter().enumerate() {
            let path = self.dir.path().join(name);
            let failed = |source| AuditError::Read {
                path: path.clone(),
                source,
            };
            let file = self.dir.open_file(name, Access::Read).map_err(failed)?;
            let mut reader = BufReader::with_capacity(64 * 1024, file);
            let mut number = 0;
            loop {
                line.clear();
                let read = (&mut reader)
                    .take(MAX_LINE_BYTES as u64 + 1)
                    .read_until(b'\n', &mut line)
                    .map_err(failed)?;
                if read == 0 {
                    break;
                }
                number += 1;
                let terminated = line.last() == Some(&b'\n');
                if terminated {
                    line.pop();
                }
                let at = Location {
                    file: path.clone(),
                    line: number,
                };
                if !visit(index, &at, &line, terminated) {
                    return Ok(());
                }
                if !terminated && line.len() > MAX_LINE_BYTES {
                    // The rest of an overlong line is not read.
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    fn paths(&self) -> Vec<PathBuf> {
        self.names
            .iter()
            .map(|name| self.dir.path().join(name))
            .collect()
    }
}

/// What `audit verify` is asked to check besides the chain.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// Lines before the first chained record (an older aigent's records)
    /// are reported, not refused.
    pub allow_legacy_prefix: bool,
    /// A head recorded earlier that must still be in the chain.
    pub expect: Option<ExpectedHead>,
    /// Checkpoint signatures are checked against this key.
    pub public_key: Option<PublicKey>,
}

/// A head kept elsewhere (`SEQ:SHA256` as `verify --print-head` prints
/// it), or either half of it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExpectedHead {
    pub seq: Option<u64>,
    pub sha256: Option<String>,
}

impl ExpectedHead {
    /// `SHA256`, `SEQ:SHA256`, or with `seq` given apart.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (seq, sha) = match text.split_once(':') {
            Some((seq, sha)) => (
                Some(seq.trim().parse::<u64>().map_err(|_| {
                    format!("`{seq}` is not a sequence number: give SHA256 or SEQ:SHA256")
                })?),
                sha.trim(),
            ),
            None => (None, text),
        };
        let sha = sha.to_ascii_lowercase();
        if !chain::is_hash(&sha) {
            return Err(
                "a head is 64 hex digits (the sha256 that `audit verify` prints), optionally after `SEQ:`"
                    .to_owned(),
            );
        }
        Ok(Self {
            seq,
            sha256: Some(sha),
        })
    }
}

/// What a line turned out to be, for `verify` and `show` alike.
enum Step {
    /// A record linked into the chain.
    Linked,
    /// A line before the chain began, accepted with `--allow-legacy-prefix`
    /// (or, for `show`, listed as unverified).
    Prefix,
    /// A torn write, waiting for the record that accounts for it.
    Pending,
    /// The chain is broken here.
    Broken(Problem),
}

/// The chain as verify walks it.
struct Walk {
    options: VerifyOptions,
    expected_seq: u64,
    /// The hash the next record's `prev` must hold.
    prev: String,
    /// The line that hash is of (`None`: the genesis marker).
    prev_at: Option<Location>,
    /// Lines since the last record that are no record.
    pending_torn: Vec<Location>,
    seen_record: bool,
    report: Verification,
    /// Where the expected head's hash was found, and its seq.
    expected_found: Option<u64>,
}

impl Walk {
    fn new(options: VerifyOptions, files: Vec<PathBuf>) -> Self {
        Self {
            options,
            expected_seq: 1,
            prev: chain::genesis(),
            prev_at: None,
            pending_torn: Vec::new(),
            seen_record: false,
            report: Verification {
                files: files
                    .into_iter()
                    .map(|file| FileSummary {
                        file,
                        lines: 0,
                        records: 0,
                    })
                    .collect(),
                records: 0,
                unchained: 0,
                torn: Vec::new(),
                head: None,
                head_at: None,
                checkpoints: 0,
                last_signed: None,
                after_last_signed: 0,
                problem: None,
            },
            expected_found: None,
        }
    }

    fn step(&mut self, index: usize, at: &Location, line: &[u8], terminated: bool) -> Step {
        self.report.files[index].lines += 1;
        if !terminated {
            return Step::Broken(unterminated(at, line));
        }
        let (link, object) = match chain::parse(line) {
            Line::Record(link, object) => (link, object),
            Line::Unchained(_) | Line::Junk => return self.not_a_record(index, at, line),
        };
        if let Some(problem) = self.link_problem(at, &link) {
            return Step::Broken(problem);
        }
        self.accept(index, at, line, &link);
        match self.check_signature(at, &link, &object) {
            Some(problem) => Step::Broken(problem),
            None => Step::Linked,
        }
    }

    /// A terminated line that is no chained record: the legacy prefix
    /// before the first record, a line cut short that the next record
    /// will account for, or one inserted.
    fn not_a_record(&mut self, index: usize, at: &Location, line: &[u8]) -> Step {
        if !self.seen_record && index == 0 {
            self.report.unchained += 1;
            if self.options.allow_legacy_prefix {
                return Step::Prefix;
            }
            return Step::Broken(problem(
                at,
                "unchained_prefix",
                format!(
                    "{at} comes before the first chained record, so the chain does not protect it: a line inserted at the start, or a record an older aigent wrote before it kept a chain (then pass --allow-legacy-prefix)"
                ),
            ));
        }
        if !chain::is_partial_record(line) {
            return Step::Broken(problem(
                at,
                "inserted",
                format!(
                    "{at} is a complete line that is not linked into the chain: it was inserted (only a write cut short may stand between records)"
                ),
            ));
        }
        self.pending_torn.push(at.clone());
        self.prev = chain::line_hash(line);
        self.prev_at = Some(at.clone());
        Step::Pending
    }

    /// Whether a record's link breaks the chain: the torn lines it
    /// accounts for, its seq, and the hash of the line before it.
    fn link_problem(&self, at: &Location, link: &chain::Link) -> Option<Problem> {
        if self.pending_torn.len() > link.torn as usize {
            let first = &self.pending_torn[0];
            return Some(problem(
                first,
                "not_a_record",
                format!(
                    "{first} is not an audit record, and the record after it does not account for it: a line was inserted or a record damaged"
                ),
            ));
        }
        if link.torn as usize > self.pending_torn.len() {
            return Some(problem(
                at,
                "torn_count",
                format!(
                    "{at} says {} torn line(s) come before it, but there are {}",
                    link.torn,
                    self.pending_torn.len()
                ),
            ));
        }
        if link.seq != self.expected_seq {
            let expected = self.expected_seq;
            let why = if link.seq > expected {
                format!(
                    "{} record(s) before it are missing (deleted, or a rotated file removed) or records are out of order",
                    link.seq - expected
                )
            } else {
                "a record is repeated or out of order".to_owned()
            };
            return Some(problem(
                at,
                "sequence",
                format!(
                    "{at} has seq {} where {expected} was expected: {why}",
                    link.seq
                ),
            ));
        }
        if link.prev != self.prev {
            return Some(match &self.prev_at {
                Some(before) => problem(
                    before,
                    "edited",
                    format!(
                        "{before} was changed: the record after it ({at}) holds a different hash of it"
                    ),
                ),
                None => problem(
                    at,
                    "chain_start",
                    format!(
                        "{at} does not chain to the start of the log (its prev is not the genesis hash): records before it were removed"
                    ),
                ),
            });
        }
        None
    }

    /// A record that links: counted, and the chain's head moves to it.
    fn accept(&mut self, index: usize, at: &Location, line: &[u8], link: &chain::Link) {
        self.report.torn.append(&mut self.pending_torn);
        self.report.records += 1;
        self.report.files[index].records += 1;
        self.seen_record = true;
        self.expected_seq += 1;
        self.prev = chain::line_hash(line);
        self.prev_at = Some(at.clone());
        if self
            .options
            .expect
            .as_ref()
            .and_then(|expect| expect.sha256.as_deref())
            == Some(self.prev.as_str())
        {
            self.expected_found = Some(link.seq);
        }
        self.report.head = Some(Head {
            seq: link.seq,
            sha256: self.prev.clone(),
        });
        self.report.head_at = Some(at.clone());
    }

    /// With a public key: a checkpoint's signature, and the promise of the
    /// checkpoint before that the next comes within N records.
    fn check_signature(
        &mut self,
        at: &Location,
        link: &chain::Link,
        object: &Map<String, Value>,
    ) -> Option<Problem> {
        let is_checkpoint = object.get("event").and_then(Value::as_str) == Some(EVENT_CHECKPOINT);
        if is_checkpoint {
            self.report.checkpoints += 1;
        }
        let key = self.options.public_key.as_ref()?;
        let fail = |kind, message: String| {
            Some(Problem {
                at: at.clone(),
                kind,
                message,
            })
        };
        if !is_checkpoint {
            self.report.after_last_signed += 1;
            let last = self.report.last_signed.as_ref()?;
            if self.report.after_last_signed > last.every {
                return fail(
                    "checkpoint_missing",
                    format!(
                        "{at} is record {} after the signed checkpoint at seq {}, which promised the next within {}: checkpoints were removed, or a writer without the key wrote to the log",
                        self.report.after_last_signed, last.seq, last.every
                    ),
                );
            }
            return None;
        }
        let since = self
            .report
            .last_signed
            .as_ref()
            .map_or(1, |last| last.seq + 1);
        match key.check(link.seq, &link.prev, object) {
            Ok(every) => {
                self.report.last_signed = Some(SignedCheckpoint {
                    seq: link.seq,
                    at: at.clone(),
                    key_id: key.key_id().to_owned(),
                    reason: object
                        .get("reason")
                        .and_then(Value::as_str)
                        .unwrap_or("-")
                        .chars()
                        .take(32)
                        .collect(),
                    every,
                });
                self.report.after_last_signed = 0;
                None
            }
            Err(CheckpointFault::Mismatch) => fail(
                "signature_mismatch",
                format!(
                    "{at}: the checkpoint's signature does not match the chain head it vouches for: a record from seq {since} to {} was changed and the hashes after it recomputed, or the checkpoint was forged",
                    link.seq.saturating_sub(1)
                ),
            ),
            Err(CheckpointFault::OtherKey(id)) => fail(
                "checkpoint_key",
                format!(
                    "{at}: the checkpoint is signed by key {id}, not by the key given ({})",
                    key.key_id()
                ),
            ),
            Err(CheckpointFault::Length(digits)) => fail(
                "bad_signature",
                format!(
                    "{at}: the checkpoint's signature is cut short ({digits} of 128 hex digits)"
                ),
            ),
            Err(CheckpointFault::Malformed(why)) => fail(
                "bad_signature",
                format!("{at}: the checkpoint is malformed: {why}"),
            ),
        }
    }

    /// Line 0 of the last file: where a log without records ends.
    fn end_location(&self) -> Location {
        Location {
            file: self
                .report
                .files
                .last()
                .map(|file| file.file.clone())
                .unwrap_or_default(),
            line: 0,
        }
    }

    /// The checks that need the whole log: torn lines no record accounts
    /// for, and the head recorded earlier.
    fn finish(&mut self) -> Option<Problem> {
        if let Some(first) = self.pending_torn.first() {
            return Some(Problem {
                at: first.clone(),
                kind: "not_a_record",
                message: format!(
                    "{first} is not an audit record, and no record after it accounts for it: a write failed part-way, or a line was added"
                ),
            });
        }
        // With a key, the log must prove itself signed: an emptied log
        // (`: > audit.jsonl`) has nothing to prove it, so it fails too.
        if self.options.public_key.is_some() && self.report.last_signed.is_none() {
            let (at, message) = match self.report.head_at.clone() {
                Some(at) => {
                    let message = format!(
                        "no signed checkpoint in the log (up to {at}): it was written without a signing key, or its checkpoints were removed"
                    );
                    (at, message)
                }
                None => (
                    self.end_location(),
                    "the log holds no record, so no signed checkpoint: it was emptied or removed, or nothing was written with the signing key yet".to_owned(),
                ),
            };
            return Some(Problem {
                message,
                at,
                kind: "no_checkpoint",
            });
        }
        let expect = self.options.expect.as_ref()?;
        let last_seq = self.report.head.as_ref().map_or(0, |head| head.seq);
        let at = self
            .report
            .head_at
            .clone()
            .unwrap_or_else(|| self.end_location());
        let ends = if last_seq == 0 {
            "the log holds no record".to_owned()
        } else {
            format!("the last record present is seq {last_seq} ({at})")
        };
        let missing = |message: String| {
            Some(Problem {
                at: at.clone(),
                kind: "head_missing",
                message,
            })
        };
        match (&expect.sha256, expect.seq, self.expected_found) {
            (Some(sha), _, None) => missing(format!(
                "the expected head {sha} is no longer in the chain: {ends}; records after it were cut off, or the chain was rewritten"
            )),
            (Some(sha), Some(seq), Some(found)) if seq != found => missing(format!(
                "the expected head {sha} is seq {found} in the chain, not seq {seq}: the chain was rewritten"
            )),
            (None, Some(seq), _) if last_seq < seq => missing(format!(
                "seq {seq} was recorded, but {ends}: records after it were cut off"
            )),
            _ => None,
        }
    }
}

/// A problem found at `at`.
fn problem(at: &Location, kind: &'static str, message: String) -> Problem {
    Problem {
        at: at.clone(),
        kind,
        message,
    }
}

/// A last line without its newline: too long to be a record, or cut short.
fn unterminated(at: &Location, line: &[u8]) -> Problem {
    if line.len() > MAX_LINE_BYTES {
        problem(
            at,
            "overlong_line",
            format!("{at} is over {MAX_LINE_BYTES} bytes, longer than any record"),
        )
    } else {
        problem(
            at,
            "truncated",
            format!(
                "{at} is cut short (no newline at its end): a write failed part-way, or the file was truncated"
            ),
        )
    }
}

pub fn verify(log: &AuditLog, options: &VerifyOptions) -> Result<Verification, AuditError> {
    let files = LogFiles::open(log)?;
    let mut walk = Walk::new(options.clone(), files.paths());
    let mut problem = None;
    files.each_line(log, |index, at, line, terminated| {
        match walk.step(index, at, line, terminated) {
            Step::Broken(found) => {
                problem = Some(found);
                false
            }
            Step::Linked | Step::Prefix | Step::Pending => true,
        }
    })?;
    if problem.is_none() {
        problem = walk.finish();
    }
    let mut report = walk.report;
    report.problem = problem;
    Ok(report)
}

pub fn records(log: &AuditLog, filter: &Filter) -> Result<Listing, AuditError> {
    let files = LogFiles::open(log)?;
    let options = VerifyOptions {
        allow_legacy_prefix: true,
        ..VerifyOptions::default()
    };
    let mut walk = Walk::new(options, files.paths());
    let mut broken: Option<Location> = None;
    // Each selected record, where it is, and why it is not verified.
    let mut selected: std::collections::VecDeque<(Map<String, Value>, Location, Option<String>)> =
        std::collections::VecDeque::new();
    let mut skipped = Vec::new();
    files.each_line(log, |index, at, line, terminated| {
        let why = match &broken {
            Some(break_at) => Some(format!("after the break in the chain at {break_at}")),
            None => match walk.step(index, at, line, terminated) {
                Step::Linked => None,
                Step::Prefix => {
                    Some("before the chain began: the chain does not protect it".to_owned())
                }
                Step::Pending => {
                    skipped.push(at.clone());
                    return true;
                }
                Step::Broken(problem) => {
                    // An edit is found at the record after it: the edited
                    // record, already listed, is marked too.
                    if let Some(last) = selected.back_mut()
                        && last.1 == problem.at
                        && last.2.is_none()
                    {
                        last.2 = Some(problem.message.clone());
                    }
                    let why = if problem.at == *at {
                        problem.message.clone()
                    } else {
                        format!("after the break in the chain at {}", problem.at)
                    };
                    broken = Some(problem.at);
                    Some(why)
                }
            },
        };
        let object = match chain::parse(line) {
            Line::Record(_, object) | Line::Unchained(object) if terminated => object,
            _ => {
                skipped.push(at.clone());
                return true;
            }
        };
        if filter.matches(&object) {
            selected.push_back((object, at.clone(), why));
            if filter.last.is_some_and(|last| selected.len() > last) {
                selected.pop_front();
            }
        }
        true
    })?;
    let mut records = Vec::with_capacity(selected.len());
    let mut unverified = Vec::new();
    for (index, (object, at, why)) in selected.into_iter().enumerate() {
        if let Some(reason) = why {
            unverified.push(Unverified { index, at, reason });
        }
        records.push(object);
    }
    Ok(Listing {
        files: files.paths(),
        records,
        unverified,
        skipped,
    })
}

/// A record to export: its seq, the hash of its line, and the record.
#[derive(Debug, Clone)]
pub struct Pending {
    pub seq: u64,
    pub line_hash: String,
    pub record: Map<String, Value>,
}

/// What reading after a cursor found.
#[derive(Debug, Default)]
pub struct AfterCursor {
    /// Up to `limit` records after the cursor, oldest first.
    pub records: Vec<Pending>,
    /// The hash of the line at the cursor's seq, if it is still there.
    pub at_cursor: Option<String>,
    /// The newest seq in the log.
    pub last_seq: u64,
    /// The oldest seq in the log.
    pub first_seq: Option<u64>,
}

/// The chained records after `after` (a seq), at most `limit`, read under
/// the shared lock so that a rotation is seen before or after, whole.
pub fn after_cursor(log: &AuditLog, after: u64, limit: usize) -> Result<AfterCursor, AuditError> {
    let files = LogFiles::open(log)?;
    let mut found = AfterCursor::default();
    files.each_line(log, |_, _, line, terminated| {
        if !terminated {
            return true;
        }
        if let Line::Record(link, record) = chain::parse(line) {
            found.first_seq.get_or_insert(link.seq);
            found.last_seq = found.last_seq.max(link.seq);
            if link.seq == after {
                found.at_cursor = Some(chain::line_hash(line));
            } else if link.seq > after && found.records.len() < limit {
                found.records.push(Pending {
                    seq: link.seq,
                    line_hash: chain::line_hash(line),
                    record,
                });
            }
        }
        true
    })?;
    Ok(found)
}
