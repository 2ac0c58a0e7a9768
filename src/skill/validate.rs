//! Layer 3 of skill validation: running a set. From the paths a user gave
//! (or the skills a branch changed) to reports, checking the skills in
//! parallel with layer 2 ([`super::check`]) while the directories are
//! still being walked, and handing each report on as soon as it and every
//! report before it are done, in discovery order. A bounded window of
//! skills is in flight at once, so memory does not grow with the number
//! of skills; the cross-skill findings ([`super::duplicates`]) go on the
//! later skill of a pair, so a report is final when its skill is checked.

use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

use serde::Serialize;

use super::changed::{ChangedReport, ChangedRun, ChangedScope, validate_changed};
use super::check::{SkillReport, ValidateOptions, validate_target_in, validate_target_listed};
use super::codes;
use super::discover::{Discovery, Listed, Target, discover_each, skill_below};
use super::duplicates::CrossSkill;
use super::place::{Places, ProfileChoice};
use crate::vcs::VcsError;

/// How many skills may be between the walk and the output at once:
/// walked and waiting, being checked, or checked and waiting for an
/// earlier one. It bounds memory whatever the number of skills.
pub const WINDOW: usize = 128;

/// Targets are handed to the checking threads, and reports back, this
/// many at a time: one hand-over a skill cost about four futex calls and
/// tripled the system time.
const BATCH: usize = 16;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub checked: usize,
    pub valid: usize,
    pub invalid: usize,
    pub warnings: usize,
}

/// The result of validating a set of targets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ValidationRun {
    pub skills: Vec<SkillReport>,
    /// Notes from discovery (depth cut off, unreadable directories).
    pub notes: Vec<String>,
    /// A recursive search was asked for and found no skill file.
    pub found_nothing: bool,
    /// With `--changed`: the base, the scope and the deleted skills.
    pub changed: Option<ChangedReport>,
    /// Directories given without `--recursive` that hold no skill file but
    /// have skills below them: `--recursive` was probably meant.
    pub skills_below: Vec<PathBuf>,
}

/// How a run went overall, most serious first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A given path does not exist.
    PathMissing,
    /// A recursive search found no skill at all.
    NothingFound,
    /// At least one skill has an error.
    Invalid,
    /// Every skill is valid (warnings allowed).
    Valid,
}

impl ValidationRun {
    /// The counts. A PATH that does not exist is no skill: it is reported
    /// (`E023`) but neither checked nor invalid.
    pub fn summary(&self) -> Summary {
        self.tally().summary()
    }

    /// The counts and the verdict's facts, as a streamed run keeps them.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for skill in &self.skills {
            tally.add(skill);
        }
        tally
    }

    /// The reports of what was checked: every one but the missing paths.
    pub fn checked(&self) -> impl Iterator<Item = &SkillReport> {
        self.skills
            .iter()
            .filter(|skill| !skill.has_code(codes::Code::PathMissing))
    }

    pub fn missing_paths(&self) -> impl Iterator<Item = &SkillReport> {
        self.skills
            .iter()
            .filter(|skill| skill.has_code(codes::Code::PathMissing))
    }

    pub fn verdict(&self) -> Verdict {
        self.tally().verdict(self.found_nothing)
    }
}

/// What a run's verdict and summary need, kept report by report: counts,
/// the paths that do not exist, and whether any report is invalid.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    summary: Summary,
    missing: Vec<PathBuf>,
    any_invalid: bool,
}

impl Tally {
    /// Counts one final report.
    pub fn add(&mut self, skill: &SkillReport) {
        self.any_invalid |= !skill.valid;
        if skill.has_code(codes::Code::PathMissing) {
            self.missing.push(skill.path.clone());
            return;
        }
        self.summary.checked += 1;
        if skill.valid {
            self.summary.valid += 1;
        } else {
            self.summary.invalid += 1;
        }
        self.summary.warnings += skill.warning_count();
    }

    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// The paths given that do not exist (`E023`), in order.
    pub fn missing_paths(&self) -> &[PathBuf] {
        &self.missing
    }

    pub fn verdict(&self, found_nothing: bool) -> Verdict {
        if !self.missing.is_empty() {
            Verdict::PathMissing
        } else if found_nothing {
            Verdict::NothingFound
        } else if self.any_invalid {
            Verdict::Invalid
        } else {
            Verdict::Valid
        }
    }
}

/// Which skills a run covers, and how they are checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Every skill below each path, not just the paths themselves.
    pub recursive: bool,
    /// Only the skills the branch changed, below the paths (`--changed`).
    /// This already covers whole subtrees, so `recursive` adds nothing.
    pub changed: Option<ChangedScope>,
    pub validate: ValidateOptions,
}

/// Where a streamed run's reports go, in the run's order.
pub trait ReportSink {
    /// Before the first report: with `--changed`, what was compared.
    fn start(&mut self, changed: Option<&ChangedReport>) -> io::Result<()>;

    /// One report, final (cross-skill findings included).
    fn report(&mut self, report: SkillReport) -> io::Result<()>;
}

/// What a run says after its reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunEnd {
    /// Notes from discovery (depth cut off, unreadable directories).
    pub notes: Vec<String>,
    /// A recursive search was asked for and found no skill file.
    pub found_nothing: bool,
    /// With `--changed`: the base, the scope and the deleted skills.
    pub changed: Option<ChangedReport>,
    /// Directories given without `--recursive` that hold no skill file but
    /// have skills below them: `--recursive` was probably meant.
    pub skills_below: Vec<PathBuf>,
}

/// Validates the skills that `paths` and `options` select. Fails only when
/// `--changed` cannot find out what changed (no repository, unknown base).
pub fn validate_paths(paths: &[PathBuf], options: &RunOptions) -> Result<ValidationRun, VcsError> {
    let selection = select(paths, options)?;
    let mut skills = Vec::new();
    // Collecting never fails.
    let end = validate_selection(selection, options.validate, &mut Collect(&mut skills))
        .unwrap_or_default();
    Ok(ValidationRun {
        skills,
        notes: end.notes,
        found_nothing: end.found_nothing,
        changed: end.changed,
        skills_below: end.skills_below,
    })
}

struct Collect<'a>(&'a mut Vec<SkillReport>);

impl ReportSink for Collect<'_> {
    fn start(&mut self, _: Option<&ChangedReport>) -> io::Result<()> {
        Ok(())
    }

    fn report(&mut self, report: SkillReport) -> io::Result<()> {
        self.0.push(report);
        Ok(())
    }
}

/// The skills a run covers, found as far as can be before any output:
/// with `--changed`, the changed skills, already checked (they are few,
/// and finding them is what can fail); else the paths to walk.
#[derive(Debug)]
pub enum Selection {
    Changed(Box<ChangedRun>),
    Walk {
        paths: Vec<PathBuf>,
        recursive: bool,
    },
}

/// What `paths` and `options` select. Fails only when `--changed` cannot
/// find out what changed (no repository, unknown base).
pub fn select(paths: &[PathBuf], options: &RunOptions) -> Result<Selection, VcsError> {
    match &options.changed {
        Some(scope) => Ok(Selection::Changed(Box::new(validate_changed(
            paths,
            scope,
            options.validate,
        )?))),
        None => Ok(Selection::Walk {
            paths: paths.to_vec(),
            recursive: options.recursive,
        }),
    }
}

/// Validates `selection`, each report handed to `sink` as soon as it is
/// final, in discovery order; memory stays bounded whatever the number
/// of skills ([`WINDOW`]). Fails only when `sink` does.
pub fn validate_selection(
    selection: Selection,
    options: ValidateOptions,
    sink: &mut dyn ReportSink,
) -> io::Result<RunEnd> {
    let mut cross = CrossSkill::new();
    let (paths, recursive) = match selection {
        Selection::Changed(changed) => {
            let changed = *changed;
            sink.start(Some(&changed.report))?;
            for mut report in changed.skills {
                cross.check(&mut report, options);
                sink.report(report)?;
            }
            return Ok(RunEnd {
                changed: Some(changed.report),
                ..RunEnd::default()
            });
        }
        Selection::Walk { paths, recursive } => (paths, recursive),
    };
    sink.start(None)?;
    let mut skills_below = Vec::new();
    let walked = check_in_order(&paths, recursive, options, &mut |mut checked| {
        if let Some(directory) = checked.skills_below.take() {
            skills_below.push(directory);
        }
        cross.check(&mut checked.report, options);
        sink.report(checked.report)
    })?;
    Ok(RunEnd {
        notes: walked.discovery.notes,
        found_nothing: recursive && !walked.found_a_skill,
        changed: None,
        skills_below,
    })
}

/// A target's report, and for a directory without a skill file, whether
/// skills lie below it.
struct CheckedTarget {
    report: SkillReport,
    /// A directory without a skill file that has skills below it.
    skills_below: Option<PathBuf>,
}

/// What the walk found besides its targets.
struct Walked {
    discovery: Discovery,
    found_a_skill: bool,
}

/// Checks one target; a directory without a skill file but with skills
/// below it says so (`--recursive` was probably meant).
fn check_target(
    target: &Target,
    options: ValidateOptions,
    chosen: Option<ProfileChoice>,
    listed: Listed,
) -> CheckedTarget {
    let mut report = validate_target_listed(target, options, chosen, listed);
    let Target::MissingSkillFile { directory } = target else {
        return CheckedTarget {
            report,
            skills_below: None,
        };
    };
    let Some(example) = skill_below(directory) else {
        return CheckedTarget {
            report,
            skills_below: None,
        };
    };
    for diagnostic in &mut report.diagnostics {
        if diagnostic.code == codes::Code::SkillFileMissing {
            diagnostic.message.push_str(&format!(
                "; it has skills below it (such as {}): validate them with --recursive",
                example.display()
            ));
        }
    }
    CheckedTarget {
        report,
        skills_below: Some(directory.clone()),
    }
}

/// At most [`WINDOW`] targets (in batches) between the walk and `emit`.
struct Window {
    free: Mutex<usize>,
    freed: Condvar,
    stopped: AtomicBool,
}

impl Window {
    /// Waits for a free place; `false` once the run has stopped.
    fn take(&self) -> bool {
        let mut free = self
            .free
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while *free == 0 && !self.stopped.load(Ordering::Acquire) {
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        if self.stopped.load(Ordering::Acquire) {
            return false;
        }
        *free -= 1;
        true
    }

    fn give_back(&self) {
        *self
            .free
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) += 1;
        self.freed.notify_one();
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        let _guard = self
            .free
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.freed.notify_all();
    }
}

/// Walks `paths` on one thread, checks what it finds on the others, and
/// hands the results to `emit` on this thread in discovery order. An
/// error from `emit` stops the walk and the checking.
fn check_in_order(
    paths: &[PathBuf],
    recursive: bool,
    options: ValidateOptions,
    emit: &mut dyn FnMut(CheckedTarget) -> io::Result<()>,
) -> io::Result<Walked> {
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    // A check that panicked: the run stops, and the panic goes on from
    // this thread once every other thread has ended.
    let panicked: Mutex<Option<Box<dyn std::any::Any + Send>>> = Mutex::new(None);
    let window = Window {
        free: Mutex::new(WINDOW / BATCH),
        freed: Condvar::new(),
        stopped: AtomicBool::new(false),
    };
    type Batch = Vec<(Target, Option<ProfileChoice>, Listed)>;
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(usize, Batch)>(WINDOW / BATCH);
    let batch_rx = Mutex::new(batch_rx);
    let (report_tx, report_rx) = mpsc::channel::<(usize, Vec<CheckedTarget>)>();
    std::thread::scope(|scope| {
        let walker = scope.spawn(|| {
            let mut places = Places::new();
            let (mut roots_seen, mut plugins_seen) = (0, 0);
            let mut index = 0;
            let mut batch: Batch = Vec::with_capacity(BATCH);
            let mut found_a_skill = false;
            let mut send = |batch: Batch| {
                if !window.take() {
                    return false;
                }
                let sent = batch_tx.send((index, batch)).is_ok();
                index += 1;
                sent
            };
            let discovery = discover_each(paths, recursive, |target, listed, so_far| {
                let chosen = match &target {
                    Target::SkillFile { directory, .. } => {
                        found_a_skill = true;
                        if options.profile_from_context {
                            places.add_walked(
                                &so_far.walked_roots[roots_seen..],
                                &so_far.claude_plugin_dirs[plugins_seen..],
                            );
                            roots_seen = so_far.walked_roots.len();
                            plugins_seen = so_far.claude_plugin_dirs.len();
                        }
                        Some(options.choose_profile(directory, &places))
                    }
                    _ => None,
                };
                batch.push((target, chosen, listed));
                batch.len() < BATCH
                    || send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
            });
            if !batch.is_empty() {
                send(batch);
            }
            drop(batch_tx);
            Walked {
                discovery,
                found_a_skill,
            }
        });
        for _ in 0..workers {
            let report_tx = report_tx.clone();
            let (batch_rx, window, panicked) = (&batch_rx, &window, &panicked);
            scope.spawn(move || {
                loop {
                    let next = batch_rx
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .recv();
                    let Ok((index, batch)) = next else {
                        return;
                    };
                    if window.stopped.load(Ordering::Acquire) {
                        continue;
                    }
                    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        batch
                            .iter()
                            .map(|(target, chosen, listed)| {
                                check_target(target, options, *chosen, *listed)
                            })
                            .collect::<Vec<_>>()
                    }));
                    match checked {
                        Ok(checked) => {
                            if report_tx.send((index, checked)).is_err() {
                                return;
                            }
                        }
                        Err(panic) => {
                            window.stop();
                            *panicked
                                .lock()
                                .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(panic);
                            return;
                        }
                    }
                }
            });
        }
        drop(report_tx);
        // Batches that came before an earlier one: at most WINDOW / BATCH.
        let mut waiting: VecDeque<Option<Vec<CheckedTarget>>> = VecDeque::new();
        let mut next = 0usize;
        let mut failed = None;
        'batches: for (index, checked) in report_rx.iter() {
            if failed.is_some() {
                continue;
            }
            let slot = index - next;
            if waiting.len() <= slot {
                waiting.resize_with(slot + 1, || None);
            }
            waiting[slot] = Some(checked);
            while let Some(Some(_)) = waiting.front() {
                let Some(Some(batch)) = waiting.pop_front() else {
                    break;
                };
                next += 1;
                window.give_back();
                for checked in batch {
                    if let Err(err) = emit(checked) {
                        failed = Some(err);
                        window.stop();
                        waiting.clear();
                        continue 'batches;
                    }
                }
            }
        }
        let walked = walker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        if let Some(panic) = panicked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
        {
            std::panic::resume_unwind(panic);
        }
        match failed {
            Some(err) => Err(err),
            None => Ok(walked),
        }
    })
}

/// Validates what discovery found, in parallel, keeping discovery's order
/// (a run whose targets are already known: a plugin's skills).
pub fn validate_targets(targets: &[Target], options: ValidateOptions) -> Vec<SkillReport> {
    validate_targets_in(targets, options, &Places::new())
}

/// [`validate_targets`] with what is known of the skills' places.
pub fn validate_targets_in(
    targets: &[Target],
    options: ValidateOptions,
    places: &Places,
) -> Vec<SkillReport> {
    use rayon::prelude::*;
    targets
        .par_iter()
        .map(|target| validate_target_in(target, options, places))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` skills named `s000`..., every one sharing its description
    /// with the one before it, so each report's findings depend on order.
    fn tree(count: usize) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..count {
            let skill = dir.path().join(format!("s{i:03}"));
            std::fs::create_dir_all(&skill).unwrap();
            std::fs::write(
                skill.join("SKILL.md"),
                format!(
                    "---\nname: s{i:03}\ndescription: checks the order of group {} here\n---\nBody.\n",
                    i / 2
                ),
            )
            .unwrap();
        }
        dir
    }

    fn recursive() -> RunOptions {
        RunOptions {
            recursive: true,
            ..RunOptions::default()
        }
    }

    #[test]
    fn reports_come_in_discovery_order_past_the_window() {
        let count = WINDOW * 3 + 5;
        let dir = tree(count);
        let run = validate_paths(&[dir.path().to_owned()], &recursive()).unwrap();
        let names: Vec<&str> = run
            .skills
            .iter()
            .map(|skill| skill.name.as_deref().unwrap())
            .collect();
        let expected: Vec<String> = (0..count).map(|i| format!("s{i:03}")).collect();
        assert_eq!(names, expected);
        for (i, skill) in run.skills.iter().enumerate() {
            let codes: Vec<&str> = skill.diagnostics.iter().map(|d| d.code).collect();
            // The later of each pair has the note, naming the earlier.
            if i % 2 == 1 {
                assert_eq!(codes, ["N001"], "{i}");
                assert!(
                    skill.diagnostics[0]
                        .message
                        .contains(&format!("s{:03}/SKILL.md", i - 1))
                );
            } else {
                assert!(codes.is_empty(), "{i}: {codes:?}");
            }
        }
        assert!(!run.found_nothing);
        assert_eq!(run.summary().checked, count);
    }

    /// A sink that takes `limit` reports, then fails.
    struct Failing {
        taken: usize,
        limit: usize,
    }

    impl ReportSink for Failing {
        fn start(&mut self, _: Option<&ChangedReport>) -> io::Result<()> {
            Ok(())
        }

        fn report(&mut self, _: SkillReport) -> io::Result<()> {
            if self.taken == self.limit {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            self.taken += 1;
            Ok(())
        }
    }

    #[test]
    fn a_failing_sink_ends_the_run_at_once() {
        let dir = tree(WINDOW * 2);
        let options = recursive();
        let selection = select(&[dir.path().to_owned()], &options).unwrap();
        let mut sink = Failing { taken: 0, limit: 3 };
        let err = validate_selection(selection, options.validate, &mut sink).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(sink.taken, 3);
    }

    #[test]
    fn an_empty_search_finds_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let run = validate_paths(&[dir.path().to_owned()], &recursive()).unwrap();
        assert!(run.found_nothing);
        assert_eq!(run.verdict(), Verdict::NothingFound);
    }
}
