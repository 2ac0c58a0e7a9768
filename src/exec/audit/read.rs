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
    pub problem: Option<Problem>,
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
    /// Lines that are not records (torn writes), skipped.
    pub skipped: Vec<Location>,
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

/// The chain as verify walks it.
struct Walk {
    expected_seq: u64,
    /// The hash the next record's `prev` must hold.
    prev: String,
    /// The line that hash is of (`None`: the genesis marker).
    prev_at: Option<Location>,
    /// Lines since the last record that are no record.
    pending_torn: Vec<Location>,
    seen_record: bool,
}

pub fn verify(log: &AuditLog) -> Result<Verification, AuditError> {
    let files = LogFiles::open(log)?;
    let mut report = Verification {
        files: files
            .paths()
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
        problem: None,
    };
    let mut walk = Walk {
        expected_seq: 1,
        prev: chain::genesis(),
        prev_at: None,
        pending_torn: Vec::new(),
        seen_record: false,
    };
    let mut problem = None;
    files.each_line(log, |index, at, line, terminated| {
        report.files[index].lines += 1;
        let fail = |kind, message: String| {
            Some(Problem {
                at: at.clone(),
                kind,
                message,
            })
        };
        if !terminated {
            problem = if line.len() > MAX_LINE_BYTES {
                fail(
                    "overlong_line",
                    format!("{at} is over {MAX_LINE_BYTES} bytes, longer than any record"),
                )
            } else {
                fail(
                    "truncated",
                    format!(
                        "{at} is cut short (no newline at its end): a write failed part-way, or the file was truncated"
                    ),
                )
            };
            return false;
        }
        match chain::parse(line) {
            Line::Record(link, _) => {
                if walk.pending_torn.len() > link.torn as usize {
                    let first = &walk.pending_torn[0];
                    problem = Some(Problem {
                        at: first.clone(),
                        kind: "not_a_record",
                        message: format!(
                            "{first} is not an audit record, and the record after it does not account for it: a line was inserted or a record damaged"
                        ),
                    });
                    return false;
                }
                if link.torn as usize > walk.pending_torn.len() {
                    problem = fail(
                        "torn_count",
                        format!(
                            "{at} says {} torn line(s) come before it, but there are {}",
                            link.torn,
                            walk.pending_torn.len()
                        ),
                    );
                    return false;
                }
                if link.seq != walk.expected_seq {
                    let expected = walk.expected_seq;
                    let why = if link.seq > expected {
                        format!(
                            "{} record(s) before it are missing (deleted, or a rotated file removed) or records are out of order",
                            link.seq - expected
                        )
                    } else {
                        "a record is repeated or out of order".to_owned()
                    };
                    problem = fail(
                        "sequence",
                        format!("{at} has seq {} where {expected} was expected: {why}", link.seq),
                    );
                    return false;
                }
                if link.prev != walk.prev {
                    problem = match walk.prev_at.clone() {
                        Some(before) => Some(Problem {
                            message: format!(
                                "{before} was changed: the record after it ({at}) holds a different hash of it"
                            ),
                            at: before,
                            kind: "edited",
                        }),
                        None => fail(
                            "chain_start",
                            format!(
                                "{at} does not chain to the start of the log (its prev is not the genesis hash): records before it were removed"
                            ),
                        ),
                    };
                    return false;
                }
                report.torn.append(&mut walk.pending_torn);
                report.records += 1;
                report.files[index].records += 1;
                walk.seen_record = true;
                walk.expected_seq += 1;
                walk.prev = chain::line_hash(line);
                walk.prev_at = Some(at.clone());
                report.head = Some(Head {
                    seq: link.seq,
                    sha256: walk.prev.clone(),
                });
            }
            Line::Unchained(_) | Line::Junk if !walk.seen_record && index == 0 => {
                report.unchained += 1;
            }
            Line::Unchained(_) | Line::Junk => {
                walk.pending_torn.push(at.clone());
                walk.prev = chain::line_hash(line);
                walk.prev_at = Some(at.clone());
            }
        }
        true
    })?;
    if problem.is_none()
        && let Some(first) = walk.pending_torn.first()
    {
        problem = Some(Problem {
            at: first.clone(),
            kind: "not_a_record",
            message: format!(
                "{first} is not an audit record, and no record after it accounts for it: a write failed part-way, or a line was added"
            ),
        });
    }
    report.problem = problem;
    Ok(report)
}

pub fn records(log: &AuditLog, filter: &Filter) -> Result<Listing, AuditError> {
    let files = LogFiles::open(log)?;
    let mut records = std::collections::VecDeque::new();
    let mut skipped = Vec::new();
    files.each_line(log, |_, at, line, terminated| {
        let object = match chain::parse(line) {
            Line::Record(_, object) | Line::Unchained(object) if terminated => object,
            _ => {
                skipped.push(at.clone());
                return true;
            }
        };
        if filter.matches(&object) {
            records.push_back(object);
            if filter.last.is_some_and(|last| records.len() > last) {
                records.pop_front();
            }
        }
        true
    })?;
    Ok(Listing {
        files: files.paths(),
        records: records.into(),
        skipped,
    })
}
