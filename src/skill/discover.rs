//! Turning the paths a user gave into skill files to validate.
//!
//! A path is a skill directory or a `SKILL.md`/`skill.md` file. With
//! `recursive`, every directory below a path that holds a skill file is a
//! skill: hidden directories (`.curated/`) are searched, `.git`,
//! `node_modules` and `target` are not, symlinked directories are followed
//! once each (so a symlink loop ends), and the depth is bounded.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The names a skill file may have, in order of preference.
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// Directory names never searched: version control, dependencies, build
/// output. They can be huge and never hold the project's own skills.
pub const SKIPPED_DIRECTORIES: [&str; 3] = [".git", "node_modules", "target"];

/// How deep below a given path `recursive` looks.
pub const MAX_DEPTH: usize = 32;

/// One thing to validate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A skill file, and the directory it stands for.
    SkillFile { file: PathBuf, directory: PathBuf },
    /// A directory without a skill file.
    MissingSkillFile { directory: PathBuf },
    /// A path that does not exist.
    Missing { path: PathBuf },
    /// A path that is neither a directory nor a skill file.
    NotASkill { path: PathBuf },
    /// A path that exists but cannot be looked at: no permission, a
    /// symlink loop, a name too long.
    Unreadable { path: PathBuf, reason: String },
}

impl Target {
    /// The path shown in reports.
    pub fn display_path(&self) -> &Path {
        match self {
            Target::SkillFile { file, .. } => file,
            Target::MissingSkillFile { directory } => directory,
            Target::Missing { path }
            | Target::NotASkill { path }
            | Target::Unreadable { path, .. } => path,
        }
    }

    /// A skill file or directory for `path`, without searching below it.
    pub fn for_path(path: &Path) -> Target {
        let metadata = match fs::metadata(path) {
            Ok(metadata) => metadata,
            Err(err) => {
                return match lookup_failure(err.kind()) {
                    // A dangling symlink exists as a link but not as a target.
                    LookupFailure::Absent if fs::symlink_metadata(path).is_ok() => {
                        Target::NotASkill {
                            path: path.to_owned(),
                        }
                    }
                    LookupFailure::Absent => Target::Missing {
                        path: path.to_owned(),
                    },
                    LookupFailure::Unreadable => Target::Unreadable {
                        path: path.to_owned(),
                        reason: err.to_string(),
                    },
                };
            }
        };
        if metadata.is_dir() {
            return match skill_file_in(path) {
                Ok(Some(file)) => Target::SkillFile {
                    file,
                    directory: path.to_owned(),
                },
                Ok(None) => Target::MissingSkillFile {
                    directory: path.to_owned(),
                },
                Err(err) => Target::Unreadable {
                    path: path.to_owned(),
                    reason: err.to_string(),
                },
            };
        }
        if is_skill_file_name(path.file_name()) {
            let directory = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
                _ => PathBuf::from("."),
            };
            return Target::SkillFile {
                file: path.to_owned(),
                directory,
            };
        }
        Target::NotASkill {
            path: path.to_owned(),
        }
    }
}

/// What a failed lookup of a path means for the person who named it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupFailure {
    /// Nothing is there (or a component on the way is a file).
    Absent,
    /// Something may be there, but it cannot be looked at: permission
    /// denied, a symlink loop, a name too long, an I/O error.
    Unreadable,
}

/// Only "not found" means absent: reporting a permission problem as a
/// missing file sends people looking in the wrong place.
pub fn lookup_failure(kind: io::ErrorKind) -> LookupFailure {
    match kind {
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => LookupFailure::Absent,
        _ => LookupFailure::Unreadable,
    }
}

/// Whether a file name is one a skill file may have: `SKILL.md` or
/// `skill.md`, exactly.
pub fn is_skill_file_name(name: Option<&OsStr>) -> bool {
    name.and_then(OsStr::to_str)
        .is_some_and(|name| SKILL_FILE_NAMES.contains(&name))
}

/// The skill file of a directory: `SKILL.md`, else `skill.md`; an error
/// when the directory cannot be looked into.
pub fn skill_file_in(directory: &Path) -> io::Result<Option<PathBuf>> {
    for name in SKILL_FILE_NAMES {
        let candidate = directory.join(name);
        match fs::metadata(&candidate) {
            Ok(_) => return Ok(Some(candidate)),
            Err(err) if lookup_failure(err.kind()) == LookupFailure::Absent => {}
            Err(err) => return Err(err),
        }
    }
    Ok(None)
}

/// How many directories [`skill_below`] looks into before it gives up: a
/// hint is not worth a walk of a whole disk.
pub const SKILL_BELOW_MAX_DIRECTORIES: usize = 10_000;

/// A skill directory somewhere below `directory` (breadth first, so the
/// nearest; names in order), for the hint that `--recursive` was meant.
/// Symlinks are not followed; `.git`, `node_modules` and `target` are
/// skipped; the search stops after [`SKILL_BELOW_MAX_DIRECTORIES`].
pub fn skill_below(directory: &Path) -> Option<PathBuf> {
    let mut queue = std::collections::VecDeque::from([(directory.to_owned(), 0usize)]);
    let mut visited = 0;
    while let Some((dir, depth)) = queue.pop_front() {
        visited += 1;
        if visited > SKILL_BELOW_MAX_DIRECTORIES {
            return None;
        }
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        let mut children: Vec<(std::ffi::OsString, PathBuf)> = entries
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
            .filter(|entry| {
                let name = entry.file_name();
                !SKIPPED_DIRECTORIES.iter().any(|skipped| name == *skipped)
            })
            .map(|entry| (entry.file_name(), entry.path()))
            .collect();
        children.sort();
        for (_, child) in children {
            if matches!(skill_file_in(&child), Ok(Some(_))) {
                return Some(child);
            }
            if depth + 1 < MAX_DEPTH {
                queue.push_back((child, depth + 1));
            }
        }
    }
    None
}

/// What a walk's listing of a skill's directory already answers, so that
/// checking the skill need not look again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Listed {
    /// The directory has no entry that could be its `evals/`: every name
    /// in it is ASCII and none is `evals` in any case (so not even a
    /// case-insensitive file system finds one). `false` when unknown.
    pub no_evals: bool,
}

/// What discovery found, plus notes for the person running it (depth cut
/// off, unreadable directories, paths holding no skill).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    pub targets: Vec<Target>,
    pub notes: Vec<String>,
    /// The roots walked with `recursive`: every directory below them was
    /// read, so what they hold is known without another lookup.
    pub walked_roots: Vec<PathBuf>,
    /// The walked directories holding `.claude-plugin` (a Claude Code
    /// plugin or marketplace), for [`super::place::Places`].
    pub claude_plugin_dirs: Vec<PathBuf>,
}

impl Discovery {
    /// Whether a recursive search found no skill file at all.
    pub fn found_no_skill(&self) -> bool {
        !self
            .targets
            .iter()
            .any(|target| matches!(target, Target::SkillFile { .. }))
    }
}

/// Resolves `paths` into targets, in the order given (and, below each
/// path, in file-name order). A skill reached twice (the same path given
/// twice, spelled differently, through a symlink, or below nested roots)
/// is listed once, where it was first reached.
pub fn discover(paths: &[PathBuf], recursive: bool) -> Discovery {
    let mut targets = Vec::new();
    let mut discovery = discover_each(paths, recursive, |target, _, _| {
        targets.push(target);
        true
    });
    discovery.targets = targets;
    discovery
}

/// [`discover`], handing each target to `each` as soon as it is found,
/// with what the listing of its directory said ([`Listed`]) and what the
/// walk knows so far (its roots and `.claude-plugin`
/// directories: every directory above a target, up to its root, has been
/// read by then). The returned [`Discovery`] has no targets. `each`
/// returning `false` ends the walk.
pub fn discover_each(
    paths: &[PathBuf],
    recursive: bool,
    each: impl FnMut(Target, Listed, &Discovery) -> bool,
) -> Discovery {
    let mut search = Search {
        discovery: Discovery::default(),
        visited: Visited::default(),
        skills: HashSet::new(),
        others: HashSet::new(),
        each,
        stopped: false,
    };
    for path in paths {
        if search.stopped {
            break;
        }
        let target = Target::for_path(path);
        let is_directory = matches!(
            target,
            Target::SkillFile { .. } | Target::MissingSkillFile { .. }
        ) && fs::metadata(path).is_ok_and(|m| m.is_dir());
        if recursive && is_directory {
            let reached_a_skill = search.walk(path);
            // With one path the caller reports an empty search itself.
            if !reached_a_skill && paths.len() > 1 {
                search
                    .discovery
                    .notes
                    .push(format!("no skills found below {}", path.display()));
            }
        } else {
            let identity = match &target {
                Target::SkillFile { file, directory } => directory_id(directory)
                    .zip(file.file_name())
                    .map(|(id, name)| (id, name.to_owned())),
                _ => None,
            };
            search.push(target, identity, Listed::default());
        }
    }
    search.discovery
}

/// One discovery over every given path: the directories walked, and the
/// skills found, so nothing is walked or listed twice.
struct Search<F> {
    discovery: Discovery,
    visited: Visited,
    /// Skill files found: the physical directory and the file's name.
    skills: HashSet<(DirectoryId, std::ffi::OsString)>,
    /// Other targets, by the path given.
    others: HashSet<PathBuf>,
    /// Where the targets go.
    each: F,
    /// `each` asked for no more.
    stopped: bool,
}

impl<F: FnMut(Target, Listed, &Discovery) -> bool> Search<F> {
    fn push(
        &mut self,
        target: Target,
        identity: Option<(DirectoryId, std::ffi::OsString)>,
        listed: Listed,
    ) {
        let first = match identity {
            Some(identity) => self.skills.insert(identity),
            None => self.others.insert(target.display_path().to_owned()),
        };
        if first && !self.stopped {
            self.stopped = !(self.each)(target, listed, &self.discovery);
        }
    }

    /// Depth-first walk with an explicit stack (no recursion, so no stack
    /// to overflow), visiting each physical directory once. Whether a
    /// skill is below `root`, listed now or by an earlier walk.
    fn walk(&mut self, root: &Path) -> bool {
        let Some(root_id) = directory_id(root) else {
            return false;
        };
        if !self.visited.first_visit(root_id, root) {
            return true;
        }
        self.discovery.walked_roots.push(root.to_owned());
        let mut reached_a_skill = false;
        let mut stack: Vec<Pending> = vec![Pending {
            path: root.to_owned(),
            depth: 0,
            id: root_id,
            checked: true,
        }];
        let mut depth_noted = false;
        while let Some(Pending {
            path: directory,
            depth,
            id,
            checked,
        }) = stack.pop()
        {
            if self.stopped {
                break;
            }
            if !checked && !self.visited.first_visit(id, &directory) {
                // Walked from an earlier root: what it holds is listed.
                reached_a_skill = true;
                continue;
            }
            let entries = match fs::read_dir(&directory) {
                Ok(entries) => entries,
                Err(err) => {
                    self.discovery.notes.push(format!(
                        "cannot read directory {}: {err}",
                        directory.display()
                    ));
                    continue;
                }
            };
            let mut skill_files: Vec<String> = Vec::new();
            let mut subdirectories: Vec<(std::ffi::OsString, DirectoryId)> = Vec::new();
            let mut listed = Listed { no_evals: true };
            for entry in entries {
                // An entry that cannot be read could be `evals`.
                let Ok(entry) = entry else {
                    listed.no_evals = false;
                    continue;
                };
                let name = entry.file_name();
                let name_text = name.to_str();
                listed.no_evals &= name_text.is_some_and(|name| {
                    name.is_ascii() && !name.eq_ignore_ascii_case(super::evals::EVALS_DIRECTORY)
                });
                if let Some(name_text) = name_text {
                    if name_text == super::place::CLAUDE_PLUGIN_DIRECTORY {
                        self.discovery.claude_plugin_dirs.push(directory.clone());
                    }
                    if SKILL_FILE_NAMES.contains(&name_text) {
                        skill_files.push(name_text.to_owned());
                        continue;
                    }
                    if SKIPPED_DIRECTORIES.contains(&name_text) {
                        continue;
                    }
                }
                if let Some(child_id) = subdirectory_id(&entry, id) {
                    subdirectories.push((name, child_id));
                }
            }
            if let Some(name) = SKILL_FILE_NAMES
                .iter()
                .find(|name| skill_files.iter().any(|found| found == *name))
            {
                reached_a_skill = true;
                self.push(
                    Target::SkillFile {
                        file: directory.join(name),
                        directory: directory.clone(),
                    },
                    Some((id, (*name).into())),
                    listed,
                );
            }
            if depth >= MAX_DEPTH {
                if !subdirectories.is_empty() && !depth_noted {
                    depth_noted = true;
                    self.discovery.notes.push(format!(
                        "stopped searching {MAX_DEPTH} levels below {}",
                        root.display()
                    ));
                }
                continue;
            }
            // Reverse so the stack pops them in name order (siblings' paths
            // sort as their names do).
            subdirectories.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            for (name, id) in subdirectories.into_iter().rev() {
                stack.push(Pending {
                    path: directory.join(name),
                    depth: depth + 1,
                    id,
                    checked: false,
                });
            }
        }
        reached_a_skill
    }
}

struct Pending {
    path: PathBuf,
    depth: usize,
    id: DirectoryId,
    /// Already recorded as visited (the root).
    checked: bool,
}

/// The directories already walked. Ids of real subdirectories are derived
/// from their parent's device and the entry's inode number, which can be
/// wrong across a mount point; so when an id repeats, both directories are
/// looked up for real before one is skipped. Repeats are rare (a symlink
/// back into the tree), so the extra lookups cost nothing in practice.
#[derive(Default)]
struct Visited {
    seen: std::collections::HashMap<DirectoryId, PathBuf>,
}

impl Visited {
    fn first_visit(&mut self, id: DirectoryId, path: &Path) -> bool {
        let Some(earlier) = self.seen.get(&id) else {
            self.seen.insert(id, path.to_owned());
            return true;
        };
        let same = match (directory_id(earlier), directory_id(path)) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        if same {
            return false;
        }
        if let Some(real) = directory_id(path) {
            self.seen.entry(real).or_insert_with(|| path.to_owned());
        }
        true
    }
}

/// The identity of `entry` if it is a directory (or a symlink to one).
/// A real subdirectory (short of a mount point) shares its parent's device
/// and its inode number comes with the directory entry, so only symlinks
/// cost a `stat`; the visited set keeps a symlink loop from being walked
/// twice.
fn subdirectory_id(entry: &fs::DirEntry, parent: DirectoryId) -> Option<DirectoryId> {
    let kind = entry.file_type().ok()?;
    if kind.is_dir() {
        return Some(child_id(entry, parent));
    }
    if kind.is_symlink() {
        let target = entry.path();
        if fs::metadata(&target).is_ok_and(|m| m.is_dir()) {
            return directory_id(&target);
        }
    }
    None
}

#[cfg(unix)]
type DirectoryId = (u64, u64);

#[cfg(unix)]
fn directory_id(path: &Path) -> Option<DirectoryId> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(unix)]
fn child_id(entry: &fs::DirEntry, parent: DirectoryId) -> DirectoryId {
    use std::os::unix::fs::DirEntryExt;
    (parent.0, entry.ino())
}

#[cfg(not(unix))]
type DirectoryId = PathBuf;

#[cfg(not(unix))]
fn directory_id(path: &Path) -> Option<DirectoryId> {
    fs::canonicalize(path).ok()
}

#[cfg(not(unix))]
fn child_id(entry: &fs::DirEntry, _parent: DirectoryId) -> DirectoryId {
    fs::canonicalize(entry.path()).unwrap_or_else(|_| entry.path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listing_says_which_skills_have_no_evals() {
        let dir = tree(&[
            "plain/SKILL.md",
            "with/SKILL.md",
            "with/evals/evals.json",
            "upper/SKILL.md",
            "upper/EVALS",
            "accented/SKILL.md",
            "accented/\u{e9}.md",
            "file/SKILL.md",
            "file/evals",
        ]);
        let mut listed = Vec::new();
        discover_each(&[dir.path().to_owned()], true, |target, seen, _| {
            let name = target.display_path().parent().unwrap().file_name().unwrap();
            listed.push((name.to_string_lossy().into_owned(), seen.no_evals));
            true
        });
        let expected = [
            ("accented", false),
            ("file", false),
            ("plain", true),
            ("upper", false),
            ("with", false),
        ];
        let expected: Vec<(String, bool)> = expected
            .iter()
            .map(|(name, no_evals)| ((*name).to_owned(), *no_evals))
            .collect();
        assert_eq!(listed, expected);
        // A path given without a walk is not listed.
        discover_each(&[dir.path().join("plain")], false, |_, seen, _| {
            assert!(!seen.no_evals);
            true
        });
    }

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let path = dir.path().join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        dir
    }

    fn found(discovery: &Discovery, root: &Path) -> Vec<String> {
        discovery
            .targets
            .iter()
            .map(|t| {
                t.display_path()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }

    #[test]
    fn recursive_walk_finds_nested_and_hidden_skills_and_skips_vendored_dirs() {
        let dir = tree(&[
            "skills/a/SKILL.md",
            "skills/b/skill.md",
            "plugins/p/skills/c/SKILL.md",
            ".curated/d/SKILL.md",
            ".git/e/SKILL.md",
            "node_modules/f/SKILL.md",
            "target/g/SKILL.md",
            "both/SKILL.md",
            "both/skill.md",
            "notes/README.md",
        ]);
        let discovery = discover(&[dir.path().to_owned()], true);
        assert_eq!(
            found(&discovery, dir.path()),
            [
                ".curated/d/SKILL.md",
                "both/SKILL.md",
                "plugins/p/skills/c/SKILL.md",
                "skills/a/SKILL.md",
                "skills/b/skill.md"
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_end() {
        let dir = tree(&["s/a/SKILL.md"]);
        std::os::unix::fs::symlink(dir.path(), dir.path().join("s/a/loop")).unwrap();
        std::os::unix::fs::symlink("self", dir.path().join("self")).unwrap();
        let discovery = discover(&[dir.path().to_owned()], true);
        assert_eq!(found(&discovery, dir.path()), ["s/a/SKILL.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_reached_by_a_symlink_and_directly_is_walked_once() {
        let dir = tree(&["skills/a/SKILL.md"]);
        fs::create_dir_all(dir.path().join(".claude/skills")).unwrap();
        std::os::unix::fs::symlink("../../skills/a", dir.path().join(".claude/skills/a")).unwrap();
        let discovery = discover(&[dir.path().to_owned()], true);
        assert_eq!(found(&discovery, dir.path()), [".claude/skills/a/SKILL.md"]);
    }

    #[test]
    fn depth_is_bounded_with_a_note() {
        let deep: String = (0..MAX_DEPTH + 3).map(|i| format!("d{i}/")).collect();
        let dir = tree(&[&format!("{deep}SKILL.md")]);
        let discovery = discover(&[dir.path().to_owned()], true);
        assert!(discovery.found_no_skill());
        assert!(
            discovery
                .notes
                .iter()
                .any(|n| n.contains("stopped searching"))
        );
    }

    #[test]
    fn overlapping_paths_list_each_skill_once() {
        let dir = tree(&["a/SKILL.md", "a/b/SKILL.md"]);
        let root = dir.path().to_owned();
        let discovery = discover(&[root.clone(), root.join("a"), root.join("a/b")], true);
        assert_eq!(
            found(&discovery, dir.path()),
            ["a/SKILL.md", "a/b/SKILL.md"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn only_not_found_means_absent() {
        let kind = |errno| io::Error::from_raw_os_error(errno).kind();
        for errno in [libc::ENOENT, libc::ENOTDIR] {
            assert_eq!(
                lookup_failure(kind(errno)),
                LookupFailure::Absent,
                "{errno}"
            );
        }
        for errno in [libc::EACCES, libc::ELOOP, libc::ENAMETOOLONG, libc::EIO] {
            assert_eq!(
                lookup_failure(kind(errno)),
                LookupFailure::Unreadable,
                "{errno}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_path_is_not_a_missing_one() {
        let dir = tree(&[]);
        std::os::unix::fs::symlink("loop", dir.path().join("loop")).unwrap();
        assert!(matches!(
            Target::for_path(&dir.path().join("loop")),
            Target::Unreadable { .. }
        ));
        assert!(matches!(
            Target::for_path(&dir.path().join("x".repeat(300))),
            Target::Unreadable { .. }
        ));
        assert!(matches!(
            Target::for_path(&dir.path().join("loop/SKILL.md")),
            Target::Unreadable { .. }
        ));
    }

    #[test]
    fn nested_and_repeated_roots_are_walked_once_without_a_note() {
        let dir = tree(&["a/SKILL.md", "a/b/SKILL.md", "c/x.txt"]);
        let root = dir.path().to_owned();
        let discovery = discover(&[root.join("a"), root.clone(), root.join("a")], true);
        assert_eq!(
            found(&discovery, dir.path()),
            ["a/SKILL.md", "a/b/SKILL.md"]
        );
        assert!(discovery.notes.is_empty(), "{:?}", discovery.notes);
    }

    #[test]
    fn single_paths() {
        let dir = tree(&["a/SKILL.md", "b/skill.md", "c/README.md"]);
        let root = dir.path();
        assert!(matches!(
            Target::for_path(&root.join("a")),
            Target::SkillFile { .. }
        ));
        assert!(matches!(
            Target::for_path(&root.join("b/skill.md")),
            Target::SkillFile { .. }
        ));
        assert!(matches!(
            Target::for_path(&root.join("c")),
            Target::MissingSkillFile { .. }
        ));
        assert!(matches!(
            Target::for_path(&root.join("c/README.md")),
            Target::NotASkill { .. }
        ));
        assert!(matches!(
            Target::for_path(&root.join("nope")),
            Target::Missing { .. }
        ));
    }
}
