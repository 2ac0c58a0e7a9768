use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::Value;

use super::*;

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn record(index: usize) -> AuditRecord {
    AuditRecord::new(EVENT_COMMAND_EXECUTED, format!("c{index}"))
        .with_request_id(format!("r{index}"))
}

fn intact(log: &AuditLog) -> Verification {
    let report = log.verify().unwrap();
    assert!(report.is_intact(), "{:?}", report.problem);
    report
}

#[test]
fn location_precedence_and_the_rotation_size() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| OsString::from(value))
        }
    };
    let all = env(&[
        ("AIGENT_AUDIT_LOG", "/a/log"),
        ("XDG_STATE_HOME", "/state"),
        ("HOME", "/home/u"),
    ]);
    assert_eq!(
        AuditLog::locate(Some(Path::new("/x")), all).unwrap().path(),
        Path::new("/x")
    );
    let located = AuditLog::locate(None, all).unwrap();
    assert_eq!(located.path(), Path::new("/a/log"));
    assert_eq!(located.max_bytes(), DEFAULT_MAX_BYTES);
    let xdg = env(&[
        ("AIGENT_AUDIT_LOG", ""),
        ("XDG_STATE_HOME", "/state"),
        ("HOME", "/home/u"),
        ("AIGENT_AUDIT_MAX_BYTES", "16M"),
    ]);
    let located = AuditLog::locate(None, xdg).unwrap();
    assert_eq!(located.path(), Path::new("/state/aigent/audit.jsonl"));
    assert_eq!(located.max_bytes(), 16 << 20);
    let home = env(&[("XDG_STATE_HOME", "relative"), ("HOME", "/home/u")]);
    assert_eq!(
        AuditLog::locate(None, home).unwrap().path(),
        Path::new("/home/u/.local/state/aigent/audit.jsonl")
    );
    assert!(AuditLog::locate(None, env(&[])).is_err());
    let bad = env(&[("HOME", "/h"), ("AIGENT_AUDIT_MAX_BYTES", "lots")]);
    let err = AuditLog::locate(None, bad).unwrap_err();
    assert!(err.to_string().contains("AIGENT_AUDIT_MAX_BYTES"), "{err}");
}

#[test]
fn sizes() {
    assert_eq!(parse_size("0"), Some(0));
    assert_eq!(parse_size("4096"), Some(4096));
    assert_eq!(parse_size("64K"), Some(64 << 10));
    assert_eq!(parse_size("16 MiB"), Some(16 << 20));
    assert_eq!(parse_size("1g"), Some(1 << 30));
    for bad in [
        "",
        "M",
        "-1",
        "1.5M",
        "1T",
        "99999999999999999999",
        "18446744073709551615G",
    ] {
        assert_eq!(parse_size(bad), None, "{bad}");
    }
}

#[test]
fn records_are_appended_privately_chained_and_redacted() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("nested/dir/audit.jsonl"));
    let rejection = record::tests::rejection();
    log.append(&AuditRecord::validation_failure(&rejection))
        .unwrap();
    log.append(&AuditRecord::validation_failure(&rejection))
        .unwrap();
    let text = fs::read_to_string(log.path()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(!text.contains("hunter2"), "{text}");
    let first: Value = serde_json::from_str(lines[0]).unwrap();
    let second: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(first["seq"], 1);
    assert_eq!(first["prev"], chain::genesis());
    assert_eq!(second["seq"], 2);
    assert_eq!(second["prev"], chain::line_hash(lines[0].as_bytes()));
    assert_eq!(first["event"], EVENT_VALIDATION_FAILURE);
    assert_eq!(first["command"], "login");
    assert_eq!(first["pid"], std::process::id());
    assert_eq!(first["violations"][0]["input_value"], "../root");
    assert_eq!(
        first["violations"][1]["input_value"],
        crate::guard::REDACTED
    );
    let report = intact(&log);
    assert_eq!(report.records, 2);
    assert_eq!(
        report.head,
        Some(read::Head {
            seq: 2,
            sha256: chain::line_hash(lines[1].as_bytes())
        })
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(log.path()), 0o600);
        assert_eq!(mode(&dir.path().join("nested/dir/audit.jsonl.lock")), 0o600);
        assert_eq!(mode(log.path().parent().unwrap()), 0o700);
    }
}

#[cfg(unix)]
#[test]
fn symlinks_are_refused_and_a_loose_mode_is_tightened() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("elsewhere");
    fs::write(&target, "").unwrap();
    let link = dir.path().join("audit.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let err = AuditLog::at(&link).append(&record(0)).unwrap_err();
    assert!(err.to_string().contains("symlink"), "{err}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "");

    // A symlinked directory is refused too, and nothing lands behind it.
    let real_dir = dir.path().join("real");
    fs::create_dir(&real_dir).unwrap();
    let linked_dir = dir.path().join("linked");
    std::os::unix::fs::symlink(&real_dir, &linked_dir).unwrap();
    let err = AuditLog::at(linked_dir.join("audit.jsonl"))
        .append(&record(0))
        .unwrap_err();
    assert!(err.to_string().contains("is a symlink"), "{err}");
    assert_eq!(fs::read_dir(&real_dir).unwrap().count(), 0);
    // Below a symlinked ancestor, the log's own directory is fine.
    AuditLog::at(linked_dir.join("state/audit.jsonl"))
        .append(&record(0))
        .unwrap();

    let loose = dir.path().join("loose.jsonl");
    fs::write(&loose, "").unwrap();
    fs::set_permissions(&loose, fs::Permissions::from_mode(0o644)).unwrap();
    AuditLog::at(&loose).append(&record(0)).unwrap();
    assert_eq!(
        fs::metadata(&loose).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[cfg(unix)]
#[test]
fn a_file_of_another_user_is_neither_written_nor_chmod_ed() {
    use std::os::unix::fs::PermissionsExt;
    if rustix::process::geteuid().as_raw() != 0 {
        // Only root can give a file away; the check is the same uid test
        // that `open_file` makes for every writer.
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    fs::write(&path, "theirs\n").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    let err = AuditLog::at(&path).append(&record(0)).unwrap_err();
    assert!(err.to_string().contains("belongs to uid 65534"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "theirs\n");
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o644
    );
}

#[test]
fn an_open_log_follows_the_name_it_was_opened_by() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let open = AuditLog::at(&path).open().unwrap();
    open.append(&record(1)).unwrap();
    // Moved away behind its back: the next record goes to a new file of
    // that name, which starts a chain of its own (moving a whole log away
    // is like deleting it: only a head kept elsewhere shows it).
    let moved = dir.path().join("moved.jsonl");
    fs::rename(&path, &moved).unwrap();
    open.append(&record(2)).unwrap();
    assert_eq!(lines(&moved).len(), 1);
    assert!(lines(&path)[0].contains("\"c2\""));
    assert_eq!(intact(&AuditLog::at(&path)).records, 1);
    assert_eq!(intact(&AuditLog::at(&moved)).records, 1);
}

#[test]
fn concurrent_writers_make_one_chain() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("audit.jsonl"));
    let shared = log.open().unwrap();
    std::thread::scope(|scope| {
        for thread in 0..8 {
            let (log, shared) = (&log, &shared);
            scope.spawn(move || {
                for index in 0..40 {
                    let record = AuditRecord::new("X", format!("c{thread}"))
                        .with("payload", "y".repeat(2000 + index));
                    if index % 2 == 0 {
                        log.append(&record).unwrap();
                    } else {
                        shared.append(&record).unwrap();
                    }
                }
            });
        }
    });
    let lines = lines(log.path());
    assert_eq!(lines.len(), 320);
    for (index, line) in lines.iter().enumerate() {
        let value: Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["seq"], index as u64 + 1);
    }
    assert_eq!(intact(&log).records, 320);
}

#[test]
fn rotation_keeps_one_chain_across_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path).with_max_bytes(2048);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for index in 0..25 {
                    log.append(&record(index)).unwrap();
                }
            });
        }
    });
    let report = intact(&log);
    assert_eq!(report.records, 100);
    assert!(report.files.len() > 5, "{:?}", report.files);
    for file in &report.files {
        assert!(fs::metadata(&file.file).unwrap().len() <= 2048, "{file:?}");
    }
    assert_eq!(report.files.last().unwrap().file, path);
    // The first record of the live file chains to the last of the newest rotated one.
    let rotated = &report.files[report.files.len() - 2].file;
    let last_rotated = lines(rotated).pop().unwrap();
    let first_live: Value = serde_json::from_str(&lines(&path)[0]).unwrap();
    assert_eq!(
        first_live["prev"],
        chain::line_hash(last_rotated.as_bytes())
    );
    // Everything can be read back in order.
    let all = log.records(&Filter::default()).unwrap();
    let seqs: Vec<u64> = all
        .records
        .iter()
        .map(|r| r["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=100).collect::<Vec<_>>());
    // A removed rotated file is a gap.
    fs::remove_file(&report.files[1].file).unwrap();
    let problem = log.verify().unwrap().problem.unwrap();
    assert_eq!(problem.kind, "sequence");
    assert_eq!(problem.at.line, 1);
}

/// A disk that fails the way full disks do: after `room` bytes, writes
/// come back short, then fail with ENOSPC.
#[derive(Debug)]
struct FullDisk {
    room: AtomicUsize,
    sync_fails: bool,
}

impl FullDisk {
    fn with_room(room: usize) -> Box<Self> {
        Box::new(Self {
            room: AtomicUsize::new(room),
            sync_fails: false,
        })
    }
}

impl Disk for FullDisk {
    fn write(&self, file: &File, bytes: &[u8]) -> io::Result<usize> {
        let room = self.room.load(Ordering::SeqCst);
        if room == 0 {
            return Err(io::Error::from_raw_os_error(28)); // ENOSPC
        }
        let fits = room.min(bytes.len());
        self.room.fetch_sub(fits, Ordering::SeqCst);
        RealDisk.write(file, &bytes[..fits])
    }

    fn sync(&self, file: &File) -> io::Result<()> {
        if self.sync_fails {
            return Err(io::Error::from_raw_os_error(5)); // EIO
        }
        RealDisk.sync(file)
    }
}

#[test]
fn a_full_disk_is_an_error_and_the_torn_line_is_repaired_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("audit.jsonl"));
    log.append(&record(1)).unwrap();
    let before = fs::read(log.path()).unwrap();

    // Already full: nothing is written, and the caller hears of it.
    let err = log
        .open_with(FullDisk::with_room(0))
        .unwrap()
        .append(&record(2))
        .unwrap_err();
    assert!(err.to_string().contains("No space left"), "{err}");
    assert_eq!(fs::read(log.path()).unwrap(), before);

    // Fills up part-way: a short write, a torn line.
    let err = log
        .open_with(FullDisk::with_room(40))
        .unwrap()
        .append(&record(2))
        .unwrap_err();
    assert!(err.to_string().contains("short write (40 of"), "{err}");
    let problem = log.verify().unwrap().problem.unwrap();
    assert_eq!(problem.kind, "truncated");
    assert_eq!(problem.at.line, 2);

    // The next writer ends the torn line, chains over it and accounts for it.
    log.append(&record(3)).unwrap();
    let lines = lines(log.path());
    assert_eq!(lines.len(), 3);
    let repaired: Value = serde_json::from_str(&lines[2]).unwrap();
    assert_eq!(repaired["seq"], 2, "the torn record's seq is used again");
    assert_eq!(repaired["torn"], 1);
    assert_eq!(repaired["prev"], chain::line_hash(lines[1].as_bytes()));
    let report = intact(&log);
    assert_eq!(report.records, 2);
    assert_eq!(report.torn.len(), 1);
    assert_eq!(report.torn[0].line, 2);
    // Readers skip it.
    let listing = log.records(&Filter::default()).unwrap();
    assert_eq!(listing.records.len(), 2);
    assert_eq!(listing.skipped.len(), 1);

    // A flush that fails is a failure too.
    let disk = Box::new(FullDisk {
        room: AtomicUsize::new(usize::MAX),
        sync_fails: true,
    });
    assert!(log.open_with(disk).unwrap().append(&record(4)).is_err());
}

#[test]
fn tampering_is_found_at_the_first_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path);
    for index in 0..5 {
        log.append(&record(index)).unwrap();
    }
    let original = lines(&path);
    let check = |lines: &[String], kind: &str, line: u64| {
        fs::write(&path, lines.join("\n") + "\n").unwrap();
        let problem = log.verify().unwrap().problem.expect(kind);
        assert_eq!(
            (problem.kind, problem.at.line),
            (kind, line),
            "{}",
            problem.message
        );
    };
    let mut edited = original.clone();
    edited[2] = edited[2].replace("\"c2\"", "\"c9\"");
    check(&edited, "edited", 3);
    let mut deleted = original.clone();
    deleted.remove(2);
    check(&deleted, "sequence", 3);
    let mut reordered = original.clone();
    reordered.swap(2, 3);
    check(&reordered, "sequence", 3);
    let mut first_gone = original.clone();
    first_gone.remove(0);
    check(&first_gone, "sequence", 1);
    let mut inserted = original.clone();
    inserted.insert(2, "{\"event\":\"FORGED\"}".to_owned());
    check(&inserted, "inserted", 3);
    // A cut-off tail.
    let mut text = original.join("\n") + "\n";
    text.truncate(text.len() - 10);
    fs::write(&path, text).unwrap();
    let problem = log.verify().unwrap().problem.unwrap();
    assert_eq!((problem.kind, problem.at.line), ("truncated", 5));
}

#[test]
fn a_log_from_before_the_chain_is_continued_not_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    fs::write(
        &path,
        "{\"event\":\"OLD\",\"command\":\"x\"}\n{\"event\":\"OLD\"}",
    )
    .unwrap();
    let log = AuditLog::at(&path);
    log.append(&record(1)).unwrap();
    log.append(&record(2)).unwrap();
    // Refused unless asked for: the same lines could have been prepended.
    let problem = log.verify().unwrap().problem.unwrap();
    assert_eq!((problem.kind, problem.at.line), ("unchained_prefix", 1));
    let legacy = VerifyOptions {
        allow_legacy_prefix: true,
        ..VerifyOptions::default()
    };
    let report = log.verify_with(&legacy).unwrap();
    assert!(report.is_intact(), "{:?}", report.problem);
    assert_eq!((report.unchained, report.records), (2, 2));
    assert_eq!(lines(&path).len(), 4);
    // `show` lists them, marked.
    let listing = log.records(&Filter::default()).unwrap();
    let marked: Vec<usize> = listing.unverified.iter().map(|mark| mark.index).collect();
    assert_eq!(marked, [0, 1]);
}

/// Issue #30: records prepended to a chained log made `verify` pass.
#[test]
fn records_prepended_to_a_chained_log_fail_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path);
    for index in 0..3 {
        log.append(&record(index)).unwrap();
    }
    let forged = "{\"event\":\"COMMAND_EXECUTED\",\"command\":\"deploy\"}\n";
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{forged}{text}")).unwrap();
    let problem = log.verify().unwrap().problem.unwrap();
    assert_eq!((problem.kind, problem.at.line), ("unchained_prefix", 1));
    let listing = log.records(&Filter::default()).unwrap();
    assert_eq!(listing.records.len(), 4);
    assert_eq!(listing.unverified.len(), 1);
    assert_eq!(listing.unverified[0].at.line, 1);
}

/// Issue #30: a complete line appended after the last record was taken
/// for a torn write by the next writer, and `verify` accepted it.
#[test]
fn a_complete_line_appended_is_never_repaired_as_torn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path);
    log.append(&record(1)).unwrap();
    for (forged, newline) in [
        ("{\"event\":\"COMMAND_EXECUTED\",\"command\":\"x\"}", true),
        ("{\"event\":\"COMMAND_EXECUTED\",\"command\":\"y\"}", false),
        ("not json at all", true),
    ] {
        let before = fs::read_to_string(&path).unwrap();
        let mut text = before.clone() + forged;
        if newline {
            text.push('\n');
        }
        fs::write(&path, &text).unwrap();
        log.append(&record(2)).unwrap();
        let written = lines(&path);
        let last: Value = serde_json::from_str(written.last().unwrap()).unwrap();
        assert!(last.get("torn").is_none(), "{forged}: {last}");
        let forged_line = before.lines().count() as u64 + 1;
        let problem = log.verify().unwrap().problem.expect(forged);
        assert_eq!(
            (problem.kind, problem.at.line),
            ("inserted", forged_line),
            "{forged}"
        );
        // `show` marks it and what follows.
        let listing = log.records(&Filter::default()).unwrap();
        let marked: Vec<u64> = listing.unverified.iter().map(|mark| mark.at.line).collect();
        assert!(marked.contains(&(forged_line + 1)), "{forged}: {marked:?}");
        assert!(!marked.contains(&1), "{forged}: {marked:?}");
        fs::write(&path, before).unwrap();
    }
}

/// Issue #29: a cut-off tail passes the chain; the head kept elsewhere
/// catches it, naming the last record present.
#[test]
fn an_expected_head_catches_a_cut_tail() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path);
    for index in 0..5 {
        log.append(&record(index)).unwrap();
    }
    let head = intact(&log).head.unwrap();
    let expect = |text: &str| VerifyOptions {
        expect: Some(ExpectedHead::parse(text).unwrap()),
        ..VerifyOptions::default()
    };
    let stored = format!("{}:{}", head.seq, head.sha256);
    assert!(log.verify_with(&expect(&stored)).unwrap().is_intact());
    assert!(log.verify_with(&expect(&head.sha256)).unwrap().is_intact());
    // More records later: the old head is still in the chain.
    log.append(&record(9)).unwrap();
    assert!(log.verify_with(&expect(&stored)).unwrap().is_intact());
    // The last two records cut off: the chain itself is intact.
    let text = fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text.lines().take(4).collect();
    fs::write(&path, kept.join("\n") + "\n").unwrap();
    assert!(intact(&log).head.unwrap().seq == 4);
    let problem = log.verify_with(&expect(&stored)).unwrap().problem.unwrap();
    assert_eq!(problem.kind, "head_missing");
    assert_eq!(problem.at.line, 4);
    assert!(
        problem.message.contains("the last record present is seq 4"),
        "{}",
        problem.message
    );
    let by_seq = VerifyOptions {
        expect: Some(ExpectedHead {
            seq: Some(5),
            sha256: None,
        }),
        ..VerifyOptions::default()
    };
    assert_eq!(
        log.verify_with(&by_seq).unwrap().problem.unwrap().kind,
        "head_missing"
    );
    // The right hash under the wrong seq is a rewritten chain.
    let wrong_seq = format!("3:{}", head.sha256);
    fs::write(&path, text).unwrap();
    assert!(
        log.verify_with(&expect(&wrong_seq))
            .unwrap()
            .problem
            .is_some()
    );
    for bad in ["", "abc", "x:ab", &"g".repeat(64)] {
        assert!(ExpectedHead::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_tail_without_any_record_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path);
    log.append(&record(1)).unwrap();
    let mut file = OpenOptions::new().append(true).open(&path).unwrap();
    let junk = "j".repeat(1000) + "\n";
    for _ in 0..(store::MAX_TAIL_WINDOW as usize / junk.len() + 2) {
        io::Write::write_all(&mut file, junk.as_bytes()).unwrap();
    }
    let err = log.append(&record(2)).unwrap_err();
    assert!(err.to_string().contains("hold no record"), "{err}");
}

#[test]
fn show_filters_records() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("audit.jsonl"));
    log.append(&AuditRecord::new(EVENT_COMMAND_STARTED, "deploy").with_request_id("a"))
        .unwrap();
    log.append(&AuditRecord::new(EVENT_COMMAND_EXECUTED, "deploy").with_request_id("a"))
        .unwrap();
    log.append(&AuditRecord::new(EVENT_COMMAND_STARTED, "other").with_request_id("b"))
        .unwrap();
    let count = |filter: Filter| log.records(&filter).unwrap().records.len();
    assert_eq!(count(Filter::default()), 3);
    assert_eq!(
        count(Filter {
            command: Some("deploy".into()),
            ..Filter::default()
        }),
        2
    );
    assert_eq!(
        count(Filter {
            event: Some("command_started".into()),
            ..Filter::default()
        }),
        2
    );
    assert_eq!(
        count(Filter {
            request_id: Some("b".into()),
            ..Filter::default()
        }),
        1
    );
    assert_eq!(
        count(Filter {
            since: Some("9999".into()),
            ..Filter::default()
        }),
        0
    );
    assert_eq!(
        count(Filter {
            since: Some("1970".into()),
            ..Filter::default()
        }),
        3
    );
    let last = log
        .records(&Filter {
            last: Some(1),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(last.records[0]["command"], "other");
    let missing = AuditLog::at(dir.path().join("none/audit.jsonl")).records(&Filter::default());
    assert!(missing.unwrap_err().is_not_found());
}

#[test]
fn the_log_its_lock_and_its_rotated_files_are_log_files() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("audit.jsonl"));
    log.append(&record(1)).unwrap();
    assert!(log.is_log_file(&dir.path().join("audit.jsonl")));
    assert!(log.is_log_file(&dir.path().join("./audit.jsonl")));
    assert!(log.is_log_file(&dir.path().join("audit.jsonl.lock")));
    assert!(log.is_log_file(&dir.path().join("audit.jsonl.3")));
    assert!(!log.is_log_file(&dir.path().join("audit.jsonl.03")));
    assert!(!log.is_log_file(&dir.path().join("result.json")));
    #[cfg(unix)]
    {
        let other = tempfile::tempdir().unwrap();
        let alias = other.path().join("alias");
        fs::hard_link(log.path(), &alias).unwrap();
        assert!(log.is_log_file(&alias));
        let linked_dir = other.path().join("d");
        std::os::unix::fs::symlink(dir.path(), &linked_dir).unwrap();
        assert!(log.is_log_file(&linked_dir.join("audit.jsonl")));
    }
}

/// Runs `open` on another thread, so that a regression (an open that
/// blocks) fails the test instead of hanging it.
#[cfg(unix)]
fn open_without_hanging(log: AuditLog) -> Result<OpenAuditLog, AuditError> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(log.open());
    });
    receiver
        .recv_timeout(Duration::from_secs(60))
        .expect("opening the audit log blocked")
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    mkfifo(&path);
    let err = open_without_hanging(AuditLog::at(&path)).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
    // With a reader waiting, the open succeeds; the type check refuses.
    let _reader = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&path)
        .unwrap();
    let err = open_without_hanging(AuditLog::at(&path)).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
    // A FIFO lock file too.
    let other = dir.path().join("other.jsonl");
    mkfifo(&dir.path().join("other.jsonl.lock"));
    let err = open_without_hanging(AuditLog::at(&other)).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_hard_linked_log_is_refused_and_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other-file");
    fs::write(&other, "keep\n").unwrap();
    fs::set_permissions(&other, fs::Permissions::from_mode(0o644)).unwrap();
    let path = dir.path().join("audit.jsonl");
    fs::hard_link(&other, &path).unwrap();
    let err = AuditLog::at(&path).open().unwrap_err();
    assert!(err.to_string().contains("hard links"), "{err}");
    assert_eq!(fs::read_to_string(&other).unwrap(), "keep\n");
    let mode = fs::metadata(&other).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o644, "the other link's mode is untouched");
}

#[cfg(unix)]
#[test]
fn an_open_log_still_blocks_on_writes() {
    let dir = tempfile::tempdir().unwrap();
    let open = AuditLog::at(dir.path().join("audit.jsonl")).open().unwrap();
    let store = open.store.lock().unwrap();
    let flags = rustix::fs::fcntl_getfl(store.file()).unwrap();
    assert!(!flags.contains(rustix::fs::OFlags::NONBLOCK));
    drop(store);
    open.append(&record(1)).unwrap();
}

mod signed {
    use super::*;
    use ed25519_dalek::SigningKey;
    use sign::{CheckpointSigner, PublicKey};

    fn key(byte: u8) -> SigningKey {
        SigningKey::from_bytes(&[byte; 32])
    }

    fn public(byte: u8) -> PublicKey {
        PublicKey::parse(&sign::hex(key(byte).verifying_key().as_bytes()), "test").unwrap()
    }

    fn signed_log(dir: &Path, max_bytes: u64) -> AuditLog {
        AuditLog::at(dir.join("audit.jsonl")).with_max_bytes(max_bytes)
    }

    fn append_signed(log: &AuditLog, every: u64, count: usize) {
        let open = log
            .open_with_signer(
                Box::new(RealDisk),
                Some(CheckpointSigner::from_key(key(1), every)),
            )
            .unwrap();
        for index in 0..count {
            open.append(&record(index)).unwrap();
        }
    }

    fn with_key(byte: u8) -> VerifyOptions {
        VerifyOptions {
            public_key: Some(public(byte)),
            ..VerifyOptions::default()
        }
    }

    /// Every line again, each `prev` recomputed: what someone who can
    /// write the file does after changing a record.
    fn rechain(lines: &mut [String]) {
        let mut prev = chain::genesis();
        for line in lines.iter_mut() {
            let mut value: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
            value.insert("prev".into(), Value::from(prev.clone()));
            *line = serde_json::to_string(&value).unwrap();
            prev = chain::line_hash(line.as_bytes());
        }
    }

    fn problem_of(log: &AuditLog, lines: &[String], options: &VerifyOptions) -> Problem {
        fs::write(log.path(), lines.join("\n") + "\n").unwrap();
        log.verify_with(options)
            .unwrap()
            .problem
            .expect("a problem")
    }

    #[test]
    fn checkpoints_every_n_records_verify_and_report_the_last() {
        let dir = tempfile::tempdir().unwrap();
        let log = signed_log(dir.path(), 0);
        append_signed(&log, 10, 25);
        let lines = lines(log.path());
        // Records 1..10, a checkpoint at 11, records 12..20, one at 21, 6 more.
        assert_eq!(lines.len(), 27);
        let checkpoint: Value = serde_json::from_str(&lines[10]).unwrap();
        assert_eq!(checkpoint["event"], EVENT_AUDIT_CHECKPOINT);
        assert_eq!(checkpoint["seq"], 11);
        assert_eq!(checkpoint["reason"], "interval");
        assert_eq!(checkpoint["signature"].as_str().unwrap().len(), 128);
        let report = log.verify_with(&with_key(1)).unwrap();
        assert!(report.is_intact(), "{:?}", report.problem);
        assert_eq!(report.checkpoints, 2);
        let last = report.last_signed.unwrap();
        assert_eq!((last.seq, last.at.line), (21, 21));
        assert_eq!(report.after_last_signed, 6);
        // The plain chain check passes too, without the key.
        assert!(log.verify().unwrap().is_intact());
    }

    #[test]
    fn a_chain_rewritten_before_a_checkpoint_fails_at_that_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let log = signed_log(dir.path(), 0);
        append_signed(&log, 10, 25);
        let original = lines(log.path());
        // Record 15 edited, every hash after it recomputed: the chain alone
        // is intact, the checkpoint at seq 21 (line 21) is not.
        let mut rewritten = original.clone();
        rewritten[14] = rewritten[14].replace("\"c13\"", "\"c99\"");
        rechain(&mut rewritten);
        fs::write(log.path(), rewritten.join("\n") + "\n").unwrap();
        assert!(log.verify().unwrap().is_intact());
        let problem = problem_of(&log, &rewritten, &with_key(1));
        assert_eq!((problem.kind, problem.at.line), ("signature_mismatch", 21));
        assert!(
            problem.message.contains("from seq 12 to 20"),
            "{}",
            problem.message
        );
        // Record 3 edited: found at the first checkpoint.
        let mut early = original.clone();
        early[2] = early[2].replace("\"c2\"", "\"c98\"");
        rechain(&mut early);
        let problem = problem_of(&log, &early, &with_key(1));
        assert_eq!((problem.kind, problem.at.line), ("signature_mismatch", 11));
        // A checkpoint removed and the records renumbered: the promise of
        // the one before is broken at the 11th record after it.
        let mut removed = original.clone();
        removed.remove(20);
        for (index, line) in removed.iter_mut().enumerate() {
            let mut value: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
            value.insert("seq".into(), Value::from(index as u64 + 1));
            *line = serde_json::to_string(&value).unwrap();
        }
        rechain(&mut removed);
        let problem = problem_of(&log, &removed, &with_key(1));
        assert_eq!((problem.kind, problem.at.line), ("checkpoint_missing", 22));
        // Every checkpoint removed: none to report.
        let mut none: Vec<String> = original
            .iter()
            .filter(|line| !line.contains(EVENT_AUDIT_CHECKPOINT))
            .cloned()
            .collect();
        for (index, line) in none.iter_mut().enumerate() {
            let mut value: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
            value.insert("seq".into(), Value::from(index as u64 + 1));
            *line = serde_json::to_string(&value).unwrap();
        }
        rechain(&mut none);
        assert_eq!(problem_of(&log, &none, &with_key(1)).kind, "no_checkpoint");
        // Emptied (`: > audit.jsonl`): nothing proves the log was signed.
        fs::write(log.path(), "").unwrap();
        let emptied = log.verify_with(&with_key(1)).unwrap();
        assert_eq!(
            emptied.problem.as_ref().map(|p| p.kind),
            Some("no_checkpoint")
        );
        assert!(!emptied.is_intact());
        // A truncated signature.
        let mut truncated = original.clone();
        let signature = serde_json::from_str::<Value>(&truncated[10]).unwrap()["signature"]
            .as_str()
            .unwrap()
            .to_owned();
        truncated[10] = truncated[10].replace(&signature, &signature[..90]);
        rechain(&mut truncated);
        let problem = problem_of(&log, &truncated, &with_key(1));
        assert_eq!((problem.kind, problem.at.line), ("bad_signature", 11));
        assert!(problem.message.contains("90 of 128"), "{}", problem.message);
        // Another key.
        let problem = problem_of(&log, &original, &with_key(2));
        assert_eq!((problem.kind, problem.at.line), ("checkpoint_key", 11));
    }

    #[test]
    fn each_rotated_file_ends_with_a_signed_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let log = signed_log(dir.path(), 2048);
        append_signed(&log, 1000, 30);
        let report = log.verify_with(&with_key(1)).unwrap();
        assert!(report.is_intact(), "{:?}", report.problem);
        assert!(report.files.len() > 2);
        for file in &report.files[..report.files.len() - 1] {
            let last = fs::read_to_string(&file.file).unwrap();
            let last: Value = serde_json::from_str(last.lines().last().unwrap()).unwrap();
            assert_eq!(
                last["event"],
                EVENT_AUDIT_CHECKPOINT,
                "{}",
                file.file.display()
            );
            assert_eq!(last["reason"], "rotation");
        }
        assert_eq!(report.records, 30 + report.checkpoints);
    }

    #[test]
    fn a_missing_or_bad_key_refuses_to_open_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let missing = AuditLog::at(&path).with_signing(Some(sign::Signing {
            key: sign::KeySource::File(dir.path().join("no.key")),
            every: 10,
        }));
        let err = missing.open().unwrap_err();
        assert!(err.to_string().contains("no.key"), "{err}");
        let bad = AuditLog::at(&path).with_signing(Some(sign::Signing {
            key: sign::KeySource::Inline("not a key".into()),
            every: 10,
        }));
        let err = bad.open().unwrap_err().to_string();
        assert!(
            err.contains("AIGENT_AUDIT_KEY") && !err.contains("not a key"),
            "{err}"
        );
        assert!(!path.exists(), "nothing written");
    }
}

/// A writer keeps the head it wrote (head.rs) and uses it only while the
/// file is as it left it: a record another process appended in between is
/// chained onto, and a log rewritten behind its back is read again.
#[test]
fn a_kept_head_gives_way_to_what_another_writer_did() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path);
    let open = log.open().unwrap();
    open.append(&record(1)).unwrap();
    open.append(&record(2)).unwrap();
    // Another process's append, by the chain's rules.
    let last = lines(&path).pop().unwrap();
    let foreign = AuditRecord::new("X", "other").to_line(3, &chain::line_hash(last.as_bytes()), 0);
    let mut file = OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(&[foreign.as_slice(), b"\n"].concat())
        .unwrap();
    drop(file);
    open.append(&record(4)).unwrap();
    let written = lines(&path);
    let fourth: Value = serde_json::from_str(&written[3]).unwrap();
    assert_eq!(fourth["seq"], 4);
    assert_eq!(fourth["prev"], chain::line_hash(written[2].as_bytes()));
    assert_eq!(intact(&log).records, 4);
    // The log replaced by a copy of its first two records (same file, new
    // size and times): the next record follows the second.
    let kept = written[..2].join("\n") + "\n";
    fs::write(&path, &kept).unwrap();
    open.append(&record(5)).unwrap();
    let written = lines(&path);
    assert_eq!(written.len(), 3);
    let third: Value = serde_json::from_str(&written[2]).unwrap();
    assert_eq!(third["seq"], 3);
    assert_eq!(third["prev"], chain::line_hash(written[1].as_bytes()));
    assert_eq!(intact(&log).records, 3);
}

/// A disk whose flush tries to take the log's lock for writing, as the
/// next call's start record does, and says whether it could.
#[derive(Debug)]
struct LockProbeDisk {
    lock: std::path::PathBuf,
    writable_during_sync: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Disk for LockProbeDisk {
    fn write(&self, file: &File, bytes: &[u8]) -> io::Result<usize> {
        RealDisk.write(file, bytes)
    }

    fn sync(&self, file: &File) -> io::Result<()> {
        let other = OpenOptions::new().read(true).write(true).open(&self.lock)?;
        let free = other.try_lock().is_ok();
        if free {
            other.unlock()?;
        }
        self.writable_during_sync.store(free, Ordering::SeqCst);
        RealDisk.sync(file)
    }
}

#[test]
fn a_flush_of_buffered_records_does_not_hold_the_lock_while_the_disk_works() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path);
    log.append(&record(1)).unwrap();
    let writable = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let disk = Box::new(LockProbeDisk {
        lock: dir.path().join("audit.jsonl.lock"),
        writable_during_sync: writable.clone(),
    });
    let open = log.open_with(disk).unwrap();
    open.append_buffered(&record(2)).unwrap();
    open.sync().unwrap();
    assert!(
        writable.load(Ordering::SeqCst),
        "the flush held the lock, so a writer waited for the disk"
    );
    assert_eq!(intact(&log).records, 2);
}

/// A disk that counts its flushes.
#[derive(Debug, Default)]
struct CountingDisk {
    syncs: std::sync::Arc<AtomicUsize>,
}

impl Disk for CountingDisk {
    fn write(&self, file: &File, bytes: &[u8]) -> io::Result<usize> {
        RealDisk.write(file, bytes)
    }

    fn sync(&self, file: &File) -> io::Result<()> {
        self.syncs.fetch_add(1, Ordering::SeqCst);
        RealDisk.sync(file)
    }
}

#[test]
fn a_durable_append_takes_the_buffered_records_before_it_along() {
    let dir = tempfile::tempdir().unwrap();
    let log = AuditLog::at(dir.path().join("audit.jsonl"));
    let disk = CountingDisk::default();
    let syncs = disk.syncs.clone();
    let open = log.open_with(Box::new(disk)).unwrap();
    open.append_buffered(&record(1)).unwrap();
    open.append(&record(2)).unwrap();
    assert_eq!(syncs.load(Ordering::SeqCst), 1);
    open.sync().unwrap();
    assert_eq!(syncs.load(Ordering::SeqCst), 1, "nothing was left to flush");
    open.append_buffered(&record(3)).unwrap();
    open.sync().unwrap();
    open.sync().unwrap();
    assert_eq!(
        syncs.load(Ordering::SeqCst),
        2,
        "one flush for the one record"
    );
    assert_eq!(intact(&log).records, 3);
}

#[test]
fn buffered_records_are_flushed_before_a_rotation_leaves_their_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog::at(&path).with_max_bytes(2048);
    let disk = CountingDisk::default();
    let syncs = disk.syncs.clone();
    let open = log.open_with(Box::new(disk)).unwrap();
    open.append_buffered(&record(1)).unwrap();
    // Another writer rotates the log away from under the open handle.
    let other = log.open().unwrap();
    while std::fs::metadata(dir.path().join("audit.jsonl.1")).is_err() {
        other.append(&record(2)).unwrap();
    }
    assert_eq!(syncs.load(Ordering::SeqCst), 0);
    // The next append goes to the new file: the old one is flushed first.
    open.append_buffered(&record(3)).unwrap();
    assert_eq!(syncs.load(Ordering::SeqCst), 1);
    open.sync().unwrap();
    assert_eq!(syncs.load(Ordering::SeqCst), 2);
    // Every record is there, chained across the two files.
    assert!(intact(&log).records >= 3);
}
