//! Where each command of a line runs: the event's working directory, moved
//! by the line's own `cd` and `pushd`, and whether that is still inside
//! the project.
//!
//! Every `cd` might fail (or not run at all: it can sit in an `if`, or
//! after `&&`), so after one a command may run in any directory the shell
//! could be in by then: the set only grows. A `cd` runs in its own shell
//! (a subshell, a substitution, a pipeline's stage) and moves only that
//! shell and the ones it starts later. `cd`, `cd ~` and `cd ~/DIR` go
//! home. A `cd` in a loop or a function body, to a target not written
//! out, or to `-`, or a `popd`, leaves the directory unknown.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::fsutil::project::project_root;
use crate::fsutil::remembered;
use crate::shell::{NotStatic, Script, SimpleCommand, Word};

/// A directory the shell can be in.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Directory {
    /// As bash's `$PWD` holds it (`cd` resolves `..` against it).
    logical: PathBuf,
    /// Its links followed: where the files the command names are.
    physical: PathBuf,
    /// It exists now. A `cd` to one that does not fails, unless an earlier
    /// command of the line makes it.
    exists: bool,
}

/// The directories a shell may be in.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Directories {
    Known(Vec<Directory>),
    Unknown,
}

impl Directories {
    fn union(self, other: Self) -> Self {
        match (self, other) {
            (Self::Known(mut all), Self::Known(more)) => {
                for directory in more {
                    if !all.iter().any(|known| known.physical == directory.physical) {
                        all.push(directory);
                    }
                }
                Self::Known(all)
            }
            _ => Self::Unknown,
        }
    }
}

/// Where one command runs.
#[derive(Debug, Clone, Default)]
pub(super) struct Place {
    /// The one directory it runs in, when the hook knows it.
    pub exact: Option<PathBuf>,
    /// An earlier `cd` in the line may have moved it out of the project:
    /// why, for the message; `None` when it runs where the line starts or
    /// inside the project.
    pub outside: Option<String>,
    /// Every directory it may run in (links followed), each with whether
    /// it exists now; `None` when that cannot be told.
    pub candidates: Option<Vec<(PathBuf, bool)>>,
    /// A command of the line could fill a directory that does not exist
    /// yet (a copy, a move, a link, an archive, a clone, a program of the
    /// project), before this one runs or alongside it.
    pub populated_before: bool,
}

/// Programs that can make a directory with files in it: after one of
/// them, a directory that does not exist yet may hold anything.
const POPULATES: &[&str] = &[
    "7z", "bsdtar", "bun", "cargo", "cp", "cpio", "curl", "gh", "git", "go", "install", "ln",
    "make", "mv", "node", "npm", "npx", "pip", "pip3", "pnpm", "python", "python3", "rsync", "tar",
    "unzip", "uv", "wget", "yarn",
];

/// Whether `command` may fill a new directory: a program of [`POPULATES`],
/// one named by a path, or one whose name is not written out.
fn populates(command: &SimpleCommand) -> bool {
    match command.words.first().and_then(Word::as_static) {
        Some(program) => program.contains('/') || POPULATES.contains(&program) || program == "sudo",
        None => !command.words.is_empty(),
    }
}

/// The directories `git -C DIR ...` (each leading `-C DIR`, in turn)
/// moves `git` to, without moving the shell; `None` for any other command.
fn git_directories(command: &SimpleCommand) -> Option<Vec<&str>> {
    let argv = command.argv()?;
    let (&"git", rest) = argv.split_first()? else {
        return None;
    };
    let mut targets = Vec::new();
    let mut at = 0;
    while rest.get(at) == Some(&"-C") {
        targets.push(*rest.get(at + 1)?);
        at += 2;
    }
    (!targets.is_empty()).then_some(targets)
}

/// The place of each command of `script`, in order, starting from `cwd`.
pub(super) fn places(script: &Script, cwd: Option<&Path>, home: Option<&str>) -> Vec<Place> {
    let start = cwd.filter(|cwd| cwd.is_absolute()).map(|cwd| Directory {
        logical: lexical(cwd),
        physical: remembered::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf()),
        exists: true,
    });
    let home = home.filter(|home| home.starts_with('/')).map(Path::new);
    // The project is found from the path the agent works at; it is held
    // against each directory with its links followed.
    let project = start.as_ref().map(|start| project_of(&start.logical));
    let started_at = start.as_ref().map(|start| start.physical.clone());
    let initial = start.map_or(Directories::Unknown, |start| {
        Directories::Known(vec![start])
    });
    // A `cd` that may run again, after commands later in the line, could
    // put any of them anywhere.
    let cd_repeats = script
        .commands
        .iter()
        .any(|command| command.repeats && changes_directory(command));
    let mut shells: HashMap<usize, (Directories, bool)> = HashMap::new();
    let mut places = Vec::with_capacity(script.commands.len());
    // Anywhere in the line, not only before: a command in the background
    // (`&`) or in another stage of a pipeline runs alongside.
    let populating = script
        .commands
        .iter()
        .filter(|command| populates(command))
        .count();
    for command in &script.commands {
        // Another command than this one.
        let populated = populating > usize::from(populates(command));
        let (directories, moved) = if cd_repeats {
            (Directories::Unknown, true)
        } else {
            shell_state(&script.shells, &mut shells, command.shell, &initial)
        };
        // `git -C DIR` runs git there, and leaves the shell where it is.
        let (own, own_moved) = match git_directories(command) {
            Some(targets) => (
                targets.iter().fold(directories.clone(), |from, target| {
                    moved_to(target, false, &from, home)
                }),
                true,
            ),
            None => (directories.clone(), moved),
        };
        let mut place = place(&own, own_moved, project.as_deref(), started_at.as_deref());
        place.populated_before = populated;
        if populated
            && place.outside.is_none()
            && let Some(missing) = place
                .candidates
                .iter()
                .flatten()
                .find(|(_, exists)| !exists)
        {
            place.outside = Some(format!(
                "runs in {}, which does not exist yet: another command of the line may make it, with anything in it",
                missing.0.display()
            ));
        }
        places.push(place);
        if changes_directory(command) && !cd_repeats {
            let after = directories
                .clone()
                .union(moved_by(command, &directories, home));
            shells.insert(command.shell, (after, true));
        }
    }
    places
}

/// The state of `shell` now: its own, or, the first time it is seen, its
/// parent's (a subshell starts where its parent is).
fn shell_state(
    parents: &[usize],
    shells: &mut HashMap<usize, (Directories, bool)>,
    shell: usize,
    initial: &Directories,
) -> (Directories, bool) {
    if let Some(state) = shells.get(&shell) {
        return state.clone();
    }
    let parent = parents.get(shell).copied().unwrap_or(0);
    let state = if shell == 0 || parent == shell {
        (initial.clone(), false)
    } else {
        shell_state(parents, shells, parent, initial)
    };
    shells.insert(shell, state.clone());
    state
}

/// Where a command runs, from the directories it may be in. The directory
/// the line starts in is never outside: the agent already works there.
fn place(
    directories: &Directories,
    moved: bool,
    project: Option<&Path>,
    started_at: Option<&Path>,
) -> Place {
    let exact = match directories {
        Directories::Known(all) if all.len() == 1 && all[0].exists => Some(all[0].logical.clone()),
        _ => None,
    };
    let candidates = match directories {
        Directories::Known(all) => Some(
            all.iter()
                .map(|directory| (directory.physical.clone(), directory.exists))
                .collect(),
        ),
        Directories::Unknown => None,
    };
    if !moved {
        return Place {
            exact,
            outside: None,
            candidates,
            populated_before: false,
        };
    }
    let outside = match (directories, project) {
        (Directories::Known(all), Some(project)) => all
            .iter()
            .find(|directory| {
                !directory.physical.starts_with(project)
                    && started_at != Some(directory.physical.as_path())
            })
            .map(|directory| {
                format!(
                    "runs in {}, outside the project ({}), after an earlier `cd` in the line",
                    directory.logical.display(),
                    project.display()
                )
            }),
        _ => Some(
            "runs in a directory the hook cannot know after an earlier `cd` (or `pushd`, `popd`) in the line"
                .to_owned(),
        ),
    };
    Place {
        exact,
        outside,
        candidates,
        populated_before: false,
    }
}

/// Whether `command` changes its shell's directory.
fn changes_directory(command: &SimpleCommand) -> bool {
    matches!(
        command.words.first().and_then(Word::as_static),
        Some("cd" | "pushd" | "popd")
    )
}

/// The directories `command` (a `cd`) moves to from each of `from`.
fn moved_by(command: &SimpleCommand, from: &Directories, home: Option<&Path>) -> Directories {
    let Some(argv) = words_with_home(command) else {
        return Directories::Unknown;
    };
    // `cd` alone goes home.
    if argv.len() == 1 && argv[0] == "cd" {
        return match home {
            Some(home) => moved_to(&home.to_string_lossy(), false, from, home.into()),
            None => Directories::Unknown,
        };
    }
    let Some((target, physical)) = target(&argv) else {
        return Directories::Unknown;
    };
    moved_to(target, physical, from, home)
}

/// The words of `command` when each is static or a plain `~` or `~/DIR`
/// (which [`moved_to`] reads as the home directory, as bash expands it).
fn words_with_home(command: &SimpleCommand) -> Option<Vec<&str>> {
    command
        .words
        .iter()
        .map(|word| match word {
            Word::Dynamic {
                source,
                why: NotStatic::TildeExpansion,
            } if is_plain_home_path(source) => Some(source.as_str()),
            _ => word.as_static(),
        })
        .collect()
}

/// `~` or `~/` followed by characters bash takes as they are.
fn is_plain_home_path(source: &str) -> bool {
    source == "~"
        || source.strip_prefix("~/").is_some_and(|rest| {
            rest.chars().all(|ch| {
                ch.is_alphanumeric() || matches!(ch, '/' | '.' | '_' | '-' | '+' | '@' | ',')
            })
        })
}

/// Where `cd target` goes from each of `from`; `~` and `~/x` are the
/// home directory, as bash expands them.
fn moved_to(target: &str, physical: bool, from: &Directories, home: Option<&Path>) -> Directories {
    let expanded;
    let target = match (target.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            expanded = format!("{}{rest}", home.display());
            expanded.as_str()
        }
        (Some(_), _) => return Directories::Unknown,
        (None, _) => target,
    };
    let Directories::Known(from) = from else {
        return Directories::Unknown;
    };
    let mut moved = Vec::with_capacity(from.len());
    for directory in from {
        match resolve(directory, target, physical) {
            Some(next) => moved.push(next),
            None => return Directories::Unknown,
        }
    }
    Directories::Known(moved)
}

/// The one directory `cd DIR` or `pushd DIR` names, and whether `-P`
/// (links resolved before `..`) applies; `None` for anything whose target
/// is not that word (`cd`, `cd -`, `pushd +1`, `popd`).
fn target<'a>(argv: &[&'a str]) -> Option<(&'a str, bool)> {
    let (&program, rest) = argv.split_first()?;
    if program == "popd" {
        return None;
    }
    let mut physical = false;
    let mut operands = rest.iter().copied().skip_while(|word| {
        let option = word.len() > 1
            && word.starts_with('-')
            && word[1..]
                .chars()
                .all(|flag| matches!(flag, 'L' | 'P' | 'e' | '@' | 'n'));
        if option {
            // The last of -L and -P wins.
            match (word.rfind('P'), word.rfind('L')) {
                (Some(p), Some(l)) => physical = p > l,
                (Some(_), None) => physical = true,
                (None, Some(_)) => physical = false,
                (None, None) => {}
            }
        }
        option
    });
    let first = operands.next()?;
    let operand = if first == "--" {
        operands.next()?
    } else {
        first
    };
    if operands.next().is_some() || operand.is_empty() || operand.starts_with(['-', '+']) {
        return None;
    }
    Some((operand, physical))
}

/// Where `cd target` from `directory` goes, as bash's `cd` (logical, its
/// default) does; `None` when that cannot be told: `CDPATH` could send a
/// bare name elsewhere, or the target is a file or a link into a missing
/// directory. A target that does not exist is kept, marked so: the `cd`
/// fails, unless the line makes it first.
fn resolve(directory: &Directory, target: &str, physical: bool) -> Option<Directory> {
    let path = Path::new(target);
    let base = if physical {
        &directory.physical
    } else {
        &directory.logical
    };
    let logical = if path.is_absolute() {
        lexical(path)
    } else {
        let explicit = path
            .components()
            .next()
            .is_some_and(|first| matches!(first, Component::CurDir | Component::ParentDir));
        if !explicit && std::env::var_os("CDPATH").is_some_and(|value| !value.is_empty()) {
            return None;
        }
        lexical(&base.join(path))
    };
    let resolved = match remembered::canonicalize(&logical) {
        Ok(resolved) => resolved,
        // Nothing there, not even a dangling link: a directory the line
        // may make, held where it would be.
        Err(_) if !remembered::is_present(&logical) && !physical => {
            return Some(Directory {
                physical: existing_prefix_resolved(&logical),
                logical,
                exists: false,
            });
        }
        Err(_) => return None,
    };
    // After `cd -P`, $PWD is the resolved directory itself.
    let logical = if physical { resolved.clone() } else { logical };
    resolved.is_dir().then_some(Directory {
        logical,
        physical: resolved,
        exists: true,
    })
}

/// `path` with the links of its longest existing part followed and the
/// rest as written.
fn existing_prefix_resolved(path: &Path) -> PathBuf {
    for ancestor in path.ancestors().skip(1) {
        if let Ok(real) = remembered::canonicalize(ancestor)
            && let Ok(rest) = path.strip_prefix(ancestor)
        {
            return real.join(rest);
        }
    }
    path.to_path_buf()
}

/// `path` with `.` dropped and each `..` taking off the component before
/// it, without looking at the file system (what `cd -L` does with `$PWD`).
pub(super) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The project the agent works in, from the path it works at, with its
/// links followed: the nearest directory up with a `.git`
/// ([`crate::fsutil::project::project_root`], the rule the sandbox's
/// `$PROJECT` follows too), else that directory itself.
pub(super) fn project_of(cwd: &Path) -> PathBuf {
    let directory = lexical(cwd);
    let root = project_root(&directory).unwrap_or(directory);
    remembered::canonicalize(&root).unwrap_or(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn outside(line: &str, cwd: &Path) -> Vec<bool> {
        let script = parse(line).unwrap();
        places(&script, Some(cwd), None)
            .iter()
            .map(|place| place.outside.is_some())
            .collect()
    }

    #[test]
    fn a_cd_is_followed_inside_the_project_and_not_beyond_it() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("project");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(project.join("src/deep")).unwrap();
        std::fs::create_dir_all(root.path().join("elsewhere")).unwrap();
        let cwd = project.join("src");
        assert_eq!(outside("git status", &cwd), [false]);
        assert_eq!(outside("cd deep && git status", &cwd), [false, false]);
        assert_eq!(outside("cd .. && git status", &cwd), [false, false]);
        assert_eq!(outside("cd ../.. && git status", &cwd), [false, true]);
        assert_eq!(outside("cd /tmp && git status", &cwd), [false, true]);
        // A directory that does not exist yet: the `cd` fails, or the line
        // made it (empty, unless something before could fill it).
        assert_eq!(outside("cd missing && git status", &cwd), [false, false]);
        assert_eq!(
            outside("mkdir missing && cd missing && git status", &cwd),
            [false, false, false]
        );
        assert_eq!(
            outside("cp -r /tmp/repo missing && cd missing && git status", &cwd),
            [false, false, true]
        );
        assert_eq!(outside("git -C /tmp status", &cwd), [true]);
        assert_eq!(
            outside("git -C deep status; git status", &cwd),
            [false, false]
        );
        assert_eq!(outside("cd; git status", &cwd), [false, true]);
        assert_eq!(outside("cd -; git status", &cwd), [false, true]);
        // A subshell's `cd` stays in the subshell; a pipeline's stage too.
        assert_eq!(
            outside("(cd /tmp && git status); git status", &cwd),
            [false, true, false]
        );
        assert_eq!(
            outside("cd /tmp | true; git status", &cwd),
            [false, false, false]
        );
        // A `cd` that did not run (or failed) leaves the shell where it
        // was, so a relative `cd` after it is read from both.
        assert_eq!(
            outside("false && cd deep; cd ../..; git status", &cwd),
            [false, false, false, true]
        );
        // In a loop, a `cd` runs again before the loop's first command.
        assert_eq!(
            outside("for x in a b; do git status; cd ..; done", &cwd),
            [true, true]
        );
        let symlink = project.join("src/link");
        std::os::unix::fs::symlink(root.path().join("elsewhere"), &symlink).unwrap();
        assert_eq!(outside("cd link && git status", &cwd), [false, true]);
        // From a link, `..` goes back where it came from (logically), or
        // beside what the link points to (`-P`).
        std::fs::create_dir_all(root.path().join("elsewhere/inner")).unwrap();
        let inner = project.join("src/inner");
        std::os::unix::fs::symlink(root.path().join("elsewhere/inner"), &inner).unwrap();
        assert_eq!(outside("cd .. && git status", &inner), [false, false]);
        assert_eq!(outside("cd -P .. && git status", &inner), [false, true]);
        assert_eq!(outside("cd -LP .. && git status", &inner), [false, true]);
        assert_eq!(outside("cd -PL .. && git status", &inner), [false, false]);
    }

    #[test]
    fn the_exact_directory_is_known_until_a_cd_may_have_moved() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("sub")).unwrap();
        let script = parse("cat a; cd sub && cat b").unwrap();
        let places = places(&script, Some(root.path()), None);
        assert_eq!(places[0].exact.as_deref(), Some(root.path()));
        assert_eq!(places[2].exact, None);
        assert!(places.iter().all(|place| place.outside.is_none()));
    }
}
