//! Layer 3 of skill validation: running a set. From the paths a user gave
//! (or the skills a branch changed) to one [`ValidationRun`], checking the
//! skills in parallel with layer 2 ([`super::check`]). Each skill is
//! checked on its own; the cross-skill findings (duplicate names and
//! descriptions, [`super::duplicates`]) hash the results afterwards, so
//! the cost grows linearly.

use std::path::PathBuf;

use rayon::prelude::*;
use serde::Serialize;

use super::changed::{ChangedReport, ChangedScope, validate_changed};
use super::check::{SkillReport, ValidateOptions, validate_target_in};
use super::codes;
use super::discover::{Discovery, Target, discover, skill_below};
use super::duplicates::check_duplicates;
use super::place::Places;
use crate::vcs::VcsError;

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
        let checked: Vec<&SkillReport> = self.checked().collect();
        let valid = checked.iter().filter(|skill| skill.valid).count();
        Summary {
            checked: checked.len(),
            valid,
            invalid: checked.len() - valid,
            warnings: checked.iter().map(|skill| skill.warning_count()).sum(),
        }
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
        if self.missing_paths().next().is_some() {
            Verdict::PathMissing
        } else if self.found_nothing {
            Verdict::NothingFound
        } else if self.skills.iter().any(|skill| !skill.valid) {
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

/// Validates the skills that `paths` and `options` select. Fails only when
/// `--changed` cannot find out what changed (no repository, unknown base).
pub fn validate_paths(paths: &[PathBuf], options: &RunOptions) -> Result<ValidationRun, VcsError> {
    let mut run = validate_selected(paths, options)?;
    check_duplicates(&mut run.skills, options.validate);
    Ok(run)
}

fn validate_selected(paths: &[PathBuf], options: &RunOptions) -> Result<ValidationRun, VcsError> {
    match &options.changed {
        Some(scope) => {
            let changed = validate_changed(paths, scope, options.validate)?;
            Ok(ValidationRun {
                skills: changed.skills,
                notes: Vec::new(),
                found_nothing: false,
                changed: Some(changed.report),
                skills_below: Vec::new(),
            })
        }
        None => Ok(validate_discovered(
            discover(paths, options.recursive),
            options.recursive,
            options.validate,
        )),
    }
}

/// Validates what discovery found, in parallel, keeping discovery's order.
pub fn validate_discovered(
    discovery: Discovery,
    recursive: bool,
    options: ValidateOptions,
) -> ValidationRun {
    let found_nothing = recursive && discovery.found_no_skill();
    let places = Places::walked(&discovery.walked_roots, &discovery.claude_plugin_dirs);
    let mut skills = validate_targets_in(&discovery.targets, options, &places);
    let mut skills_below = Vec::new();
    for (target, report) in discovery.targets.iter().zip(&mut skills) {
        let Target::MissingSkillFile { directory } = target else {
            continue;
        };
        let Some(example) = skill_below(directory) else {
            continue;
        };
        for diagnostic in &mut report.diagnostics {
            if diagnostic.code == codes::Code::SkillFileMissing {
                diagnostic.message.push_str(&format!(
                    "; it has skills below it (such as {}): validate them with --recursive",
                    example.display()
                ));
            }
        }
        skills_below.push(directory.clone());
    }
    ValidationRun {
        skills,
        notes: discovery.notes,
        found_nothing,
        changed: None,
        skills_below,
    }
}

pub fn validate_targets(targets: &[Target], options: ValidateOptions) -> Vec<SkillReport> {
    validate_targets_in(targets, options, &Places::new())
}

/// [`validate_targets`] with what is known of the skills' places.
pub fn validate_targets_in(
    targets: &[Target],
    options: ValidateOptions,
    places: &Places,
) -> Vec<SkillReport> {
    targets
        .par_iter()
        .map(|target| validate_target_in(target, options, places))
        .collect()
}
