//! Which client a skill is for, as its place says. A skill inside a
//! `.claude/` directory (a project's `.claude/skills/`, the user's
//! `~/.claude/skills/`) or inside a Claude Code plugin or marketplace (below
//! a directory holding `.claude-plugin/`) is loaded by Claude Code, so its
//! Claude Code keys are known keys, not unknown ones to move away.
//!
//! Used only when the caller chose no profile
//! ([`super::check::ValidateOptions::profile_from_context`]).

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;

use super::rules::Profile;

/// The directory Claude Code keeps a project's (or a user's) skills,
/// commands and settings in.
pub const CLAUDE_DIRECTORY: &str = ".claude";
/// The directory that makes a directory a Claude Code plugin or marketplace.
pub const CLAUDE_PLUGIN_DIRECTORY: &str = ".claude-plugin";

/// Where the profile a skill was checked with came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProfileSource {
    /// `--profile`, or the library caller's choice.
    Given,
    /// The place said nothing: the default profile.
    Default,
    /// The skill is inside a `.claude/` directory.
    ClaudeDirectory,
    /// The skill is inside a Claude Code plugin or marketplace.
    ClaudePlugin,
}

impl ProfileSource {
    /// Whether the place chose the profile.
    pub fn is_detected(self) -> bool {
        matches!(self, Self::ClaudeDirectory | Self::ClaudePlugin)
    }

    /// Why, for a sentence: "inside a .claude/ directory".
    pub fn describe(self) -> &'static str {
        match self {
            Self::Given => "chosen with --profile",
            Self::Default => "the default",
            Self::ClaudeDirectory => "inside a .claude/ directory",
            Self::ClaudePlugin => "inside a Claude Code plugin (.claude-plugin/ above it)",
        }
    }
}

/// The profile a skill is checked with, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileChoice {
    pub profile: Profile,
    pub source: ProfileSource,
}

/// What is known about the places of one run's skills: which directories
/// hold `.claude-plugin/`. Directories that discovery walked are known
/// without a lookup; the others are looked up once each.
#[derive(Debug, Default)]
pub struct Places {
    /// The current directory, for relative paths.
    current_dir: PathBuf,
    /// Walked roots (absolute, normalized): below them `plugin_dirs` is
    /// the whole truth.
    walked: Vec<PathBuf>,
    plugin_dirs: HashSet<PathBuf>,
    /// Directories looked up so far.
    looked_up: Mutex<HashMap<PathBuf, bool>>,
    /// The parent directory of the last skill asked about, and what its
    /// place says: a skill's siblings, which a walk finds one after the
    /// other, share it.
    last_parent: Mutex<Option<(PathBuf, Option<ProfileSource>)>>,
}

impl Places {
    /// Places known only by looking them up.
    pub fn new() -> Self {
        Self {
            current_dir: std::env::current_dir().unwrap_or_default(),
            ..Self::default()
        }
    }

    /// Places below `walked` roots, where `plugin_dirs` are exactly the
    /// walked directories holding `.claude-plugin`.
    pub fn walked(walked: &[PathBuf], plugin_dirs: &[PathBuf]) -> Self {
        let mut places = Self::new();
        places.walked = walked.iter().map(|root| places.absolute(root)).collect();
        places.plugin_dirs = plugin_dirs.iter().map(|dir| places.absolute(dir)).collect();
        places
    }

    /// Adds what a walk in progress has found since the last call: the
    /// roots it started (every directory below a root that it has read is
    /// known) and the `.claude-plugin` directories among them.
    pub fn add_walked(&mut self, roots: &[PathBuf], plugin_dirs: &[PathBuf]) {
        for root in roots {
            let root = self.absolute(root);
            self.walked.push(root);
        }
        for dir in plugin_dirs {
            let dir = self.absolute(dir);
            self.plugin_dirs.insert(dir);
        }
    }

    /// The profile for a skill in `directory` when the caller chose none:
    /// `claude-code` inside a `.claude/` directory or a Claude Code plugin,
    /// else `fallback`.
    pub fn choose(&self, directory: &Path, fallback: Profile) -> ProfileChoice {
        let claude = |source| ProfileChoice {
            profile: Profile::named("claude-code").unwrap_or(fallback),
            source,
        };
        match self.detected(&self.absolute(directory)) {
            Some(source) => claude(source),
            None => ProfileChoice {
                profile: fallback,
                source: ProfileSource::Default,
            },
        }
    }

    /// What the place of `absolute` (normalized) says: inside a
    /// `.claude/` directory (any component), else inside a plugin (any
    /// ancestor, itself included, holds one), else nothing. Worked out
    /// from the answer for its parent, remembered for the last parent:
    /// that answer cannot change during a run, since every directory
    /// above a skill has been walked (or looked up) before the skill is
    /// found.
    fn detected(&self, absolute: &Path) -> Option<ProfileSource> {
        let Some(parent) = absolute.parent() else {
            return self.detected_from_scratch(absolute);
        };
        let mut last = self
            .last_parent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let for_parent = match last.as_ref() {
            Some((known, source)) if known == parent => *source,
            _ => {
                let source = self.detected_from_scratch(parent);
                *last = Some((parent.to_owned(), source));
                source
            }
        };
        drop(last);
        if for_parent == Some(ProfileSource::ClaudeDirectory)
            || absolute.file_name() == Some(CLAUDE_DIRECTORY.as_ref())
        {
            return Some(ProfileSource::ClaudeDirectory);
        }
        if for_parent == Some(ProfileSource::ClaudePlugin) || self.holds_plugin(absolute) {
            return Some(ProfileSource::ClaudePlugin);
        }
        None
    }

    /// [`Self::detected`], component by component and ancestor by
    /// ancestor.
    fn detected_from_scratch(&self, absolute: &Path) -> Option<ProfileSource> {
        if absolute
            .components()
            .any(|part| part.as_os_str() == CLAUDE_DIRECTORY)
        {
            return Some(ProfileSource::ClaudeDirectory);
        }
        if absolute
            .ancestors()
            .any(|ancestor| self.holds_plugin(ancestor))
        {
            return Some(ProfileSource::ClaudePlugin);
        }
        None
    }

    fn holds_plugin(&self, directory: &Path) -> bool {
        if self.walked.iter().any(|root| directory.starts_with(root)) {
            return self.plugin_dirs.contains(directory);
        }
        let mut looked_up = self
            .looked_up
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *looked_up
            .entry(directory.to_owned())
            .or_insert_with(|| directory.join(CLAUDE_PLUGIN_DIRECTORY).is_dir())
    }

    /// `path` made absolute against the current directory, with `.` and
    /// `..` resolved by name (as a shell's `cd` does, not through links).
    fn absolute(&self, path: &Path) -> PathBuf {
        let mut out = PathBuf::new();
        let joined;
        let path = if path.is_absolute() {
            path
        } else {
            joined = self.current_dir.join(path);
            &joined
        };
        for part in path.components() {
            match part {
                Component::CurDir => {}
                Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    }
}

/// One line saying which profiles the places chose, for text output:
/// `profile claude-code for 3 skills inside a Claude Code plugin
/// (.claude-plugin/ above it); --profile chooses another`. `None` when no
/// place chose one.
pub fn profile_note(
    choices: impl Iterator<Item = (&'static str, ProfileSource)>,
) -> Option<String> {
    let mut counts: Vec<((&'static str, ProfileSource), usize)> = Vec::new();
    for choice in choices.filter(|(_, source)| source.is_detected()) {
        match counts.iter_mut().find(|(seen, _)| *seen == choice) {
            Some((_, count)) => *count += 1,
            None => counts.push((choice, 1)),
        }
    }
    if counts.is_empty() {
        return None;
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|((id, source), count)| {
            let skills = if *count == 1 { "skill" } else { "skills" };
            format!("profile {id} for {count} {skills} {}", source.describe())
        })
        .collect();
    Some(format!("{}; --profile chooses another", parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_claude_directory_or_plugin_means_claude_code() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for skill in [
            "project/.claude/skills/a",
            "plugin/skills/b",
            "plugin/.claude-plugin",
            "plain/skills/c",
        ] {
            fs::create_dir_all(root.join(skill)).unwrap();
        }
        let places = Places::new();
        let source = |path: &str| places.choose(&root.join(path), Profile::STANDARD).source;
        assert_eq!(
            source("project/.claude/skills/a"),
            ProfileSource::ClaudeDirectory
        );
        assert_eq!(source("plugin/skills/b"), ProfileSource::ClaudePlugin);
        assert_eq!(source("plain/skills/c"), ProfileSource::Default);
        let chosen = places.choose(&root.join("plugin/skills/b"), Profile::STANDARD);
        assert_eq!(chosen.profile.as_str(), "claude-code");
        let plain = places.choose(&root.join("plain/skills/c"), Profile::STANDARD);
        assert_eq!(plain.profile, Profile::STANDARD);
    }

    #[test]
    fn siblings_and_nested_skills_choose_as_from_scratch() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let skills = [
            "a/skills/x",
            "a/skills/y",
            "a/.claude",
            "a/.claude/skills/z",
            "a/.claude/skills/z/inner",
            "p/.claude-plugin",
            "p/skills/x",
            "p/skills/y",
            "p/skills/y/.claude-plugin",
            "q/skills/x",
            "q/skills/x/.claude-plugin",
            "q/skills/y",
            "q/skills/y/.claude",
        ];
        for skill in skills {
            fs::create_dir_all(root.join(skill)).unwrap();
        }
        let places = Places::new();
        // In order and in reverse, so each parent is both remembered and
        // not.
        for skill in skills.iter().chain(skills.iter().rev()) {
            let absolute = places.absolute(&root.join(skill));
            assert_eq!(
                places.detected(&absolute),
                Places::new().detected_from_scratch(&absolute),
                "{skill}"
            );
        }
    }

    #[test]
    fn the_note_counts_what_places_chose() {
        let note = profile_note(
            [
                ("claude-code", ProfileSource::ClaudePlugin),
                ("standard", ProfileSource::Default),
                ("claude-code", ProfileSource::ClaudePlugin),
                ("claude-code", ProfileSource::ClaudeDirectory),
            ]
            .into_iter(),
        )
        .unwrap();
        assert_eq!(
            note,
            "profile claude-code for 2 skills inside a Claude Code plugin (.claude-plugin/ above it), profile claude-code for 1 skill inside a .claude/ directory; --profile chooses another"
        );
        assert!(profile_note([("standard", ProfileSource::Given)].into_iter()).is_none());
    }

    #[test]
    fn walked_directories_are_not_looked_up_again() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("tree");
        // No `.claude-plugin` on disk, but the walk says there is one:
        // the walk is believed, so nothing below a walked root is looked up.
        fs::create_dir_all(root.join("p/skills/x")).unwrap();
        let places = Places::walked(std::slice::from_ref(&root), &[root.join("p")]);
        let chosen = places.choose(&root.join("p/skills/x"), Profile::STANDARD);
        assert_eq!(chosen.source, ProfileSource::ClaudePlugin);
        let relative = places.absolute(Path::new("a/../b/./c"));
        assert!(relative.ends_with("b/c"), "{}", relative.display());
    }
}
