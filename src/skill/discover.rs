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
}

impl Target {
    /// The path shown in reports.
    pub fn display_path(&self) -> &Path {
        match self {
            Target::SkillFile { file, .. } => file,
            Target::MissingSkillFile { directory } => directory,
            Target::Missing { path } | Target::NotASkill { path } => path,
        }
    }

    /// A skill file or directory for `path`, without searching below it.
    pub fn for_path(path: &Path) -> Target {
        let Ok(metadata) = fs::metadata(path) else {
            return match fs::symlink_metadata(path) {
                // A dangling symlink exists as a link but not as a target.
                Ok(_) => Target::NotASkill {
                    path: path.to_owned(),
                },
                Err(_) => Target::Missing {
                    path: path.to_owned(),
                },
            };
        };
        if metadata.is_dir() {
            return match skill_file_in(path) {
                Some(file) => Target::SkillFile {
                    file,
                    directory: path.to_owned(),
                },
                None => Target::MissingSkillFile {
                    directory: path.to_owned(),
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

/// Whether a file name is `SKILL.md` in any letter case.
pub fn is_skill_file_name(name: Option<&OsStr>) -> bool {
    name.and_then(OsStr::to_str)
        .is_some_and(|name| name.eq_ignore_ascii_case("skill.md"))
}

/// The skill file of a directory: `SKILL.md`, else `skill.md`.
pub fn skill_file_in(directory: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES
        .iter()
        .map(|name| directory.join(name))
        .find(|candidate| fs::metadata(candidate).is_ok())
}

/// What discovery found, plus notes for the person running it (depth cut
/// off, unreadable directories, paths holding no skill).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    pub targets: Vec<Target>,
    pub notes: Vec<String>,
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
/// twice, or nested roots) is listed once.
pub fn discover(paths: &[PathBuf], recursive: bool) -> Discovery {
    let mut discovery = discover_all(paths, recursive);
    let mut seen = HashSet::new();
    discovery
        .targets
        .retain(|target| seen.insert(target.display_path().to_owned()));
    discovery
}

fn discover_all(paths: &[PathBuf], recursive: bool) -> Discovery {
    let mut discovery = Discovery::default();
    for path in paths {
        let target = Target::for_path(path);
        let is_directory = matches!(
            target,
            Target::SkillFile { .. } | Target::MissingSkillFile { .. }
        ) && fs::metadata(path).is_ok_and(|m| m.is_dir());
        if recursive && is_directory {
            let before = discovery.targets.len();
            walk(path, &mut discovery);
            // With one path the caller reports an empty search itself.
            if discovery.targets.len() == before && paths.len() > 1 {
                discovery
                    .notes
                    .push(format!("no skills found below {}", path.display()));
            }
        } else {
            discovery.targets.push(target);
        }
    }
    discovery
}

/// Depth-first walk with an explicit stack (no recursion, so no stack to
/// overflow), visiting each physical directory once.
fn walk(root: &Path, discovery: &mut Discovery) {
    let mut visited = Visited::default();
    let Some(root_id) = directory_id(root) else {
        return;
    };
    let mut stack: Vec<Pending> = vec![Pending {
        path: root.to_owned(),
        depth: 0,
        id: root_id,
    }];
    let mut depth_noted = false;
    while let Some(Pending {
        path: directory,
        depth,
        id,
    }) = stack.pop()
    {
        if !visited.first_visit(id, &directory) {
            continue;
        }
        let entries = match fs::read_dir(&directory) {
            Ok(entries) => entries,
            Err(err) => {
                discovery.notes.push(format!(
                    "cannot read directory {}: {err}",
                    directory.display()
                ));
                continue;
            }
        };
        let mut skill_files: Vec<String> = Vec::new();
        let mut subdirectories: Vec<(PathBuf, DirectoryId)> = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name_text = name.to_str();
            if let Some(name_text) = name_text {
                if SKILL_FILE_NAMES.contains(&name_text) {
                    skill_files.push(name_text.to_owned());
                    continue;
                }
                if SKIPPED_DIRECTORIES.contains(&name_text) {
                    continue;
                }
            }
            if let Some(child_id) = subdirectory_id(&entry, id) {
                subdirectories.push((entry.path(), child_id));
            }
        }
        if let Some(name) = SKILL_FILE_NAMES
            .iter()
            .find(|name| skill_files.iter().any(|found| found == *name))
        {
            discovery.targets.push(Target::SkillFile {
                file: directory.join(name),
                directory: directory.clone(),
            });
        }
        if depth >= MAX_DEPTH {
            if !subdirectories.is_empty() && !depth_noted {
                depth_noted = true;
                discovery.notes.push(format!(
                    "stopped searching {MAX_DEPTH} levels below {}",
                    root.display()
                ));
            }
            continue;
        }
        // Reverse so the stack pops them in name order.
        subdirectories.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (path, id) in subdirectories.into_iter().rev() {
            stack.push(Pending {
                path,
                depth: depth + 1,
                id,
            });
        }
    }
}

struct Pending {
    path: PathBuf,
    depth: usize,
    id: DirectoryId,
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
