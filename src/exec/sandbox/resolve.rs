//! From the effective sandbox and one run's checked arguments to the
//! concrete paths the kernel is told about.
//!
//! - Every path is made absolute against the working directory and
//!   resolved (`..` and every symlink), so a grant names the target, never
//!   the link or the directory holding it.
//! - A path that does not exist is granted on its parent only, to create
//!   and write files there, and only for a write grant.
//! - Anything that cannot be resolved is left out and said in `skipped`:
//!   leaving a grant out only ever takes access away.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::contract::sandbox::{Base, EffectiveSandbox, PathGrant};
use crate::contract::{Declaration, PathRoot};
use crate::guard::{ArgValue, REDACTED, ValidatedArguments};

/// What a grant allows under its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Read files, list directories, execute.
    Read,
    /// Read, and create, change, delete and rename.
    Write,
    /// A missing path's parent: create and write files only.
    Create,
    /// Connect to the UNIX socket at (or below) the path.
    Socket,
}

/// One path the kernel is told about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grant {
    /// The grant as declared (`{output}`, `$CWD`), or `runtime` for the
    /// system's runtime.
    pub grant: String,
    /// The resolved path; `[REDACTED]` for a sensitive parameter's.
    pub path: String,
    pub access: Access,
    #[serde(skip)]
    pub real: PathBuf,
}

/// Where grants start from on this run.
#[derive(Debug, Clone, Default)]
pub struct Places {
    pub cwd: Option<PathBuf>,
    /// `$PROJECT` (see [`project_of`]); `None` when `cwd` is.
    pub project: Option<Project>,
    pub home: Option<PathBuf>,
    pub tmp: Option<PathBuf>,
}

/// Where `$PROJECT` starts on this run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The project's directory, or the working directory when the
    /// project's was refused.
    pub path: PathBuf,
    /// Why the project's own directory was refused, for `skipped`.
    pub refused: Option<String>,
}

impl Places {
    /// aigent's own working directory, its project and `HOME`, and the
    /// run's `tmp`.
    pub fn current(tmp: Option<PathBuf>) -> Self {
        let cwd = std::env::current_dir()
            .ok()
            .and_then(|dir| dir.canonicalize().ok());
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|home| home.is_absolute());
        Self {
            project: cwd.as_deref().map(|cwd| project_of(cwd, home.as_deref())),
            cwd,
            home,
            tmp,
        }
    }
}

/// `$PROJECT` for a run in `cwd` (its links followed): the project it is
/// in, by the rule the hook uses ([`crate::fsutil::project::project_root`]),
/// else `cwd` itself. A grant never widens to the whole machine or the
/// whole home directory, so a project that is `/`, `home` or a directory
/// above it (a home kept in git), or a directory of the system's runtime
/// or above one (`/etc` kept in git), is refused, and so is any project
/// when `home` is not known: then `$PROJECT` is `cwd`, and `refused` says
/// why.
pub fn project_of(cwd: &Path, home: Option<&Path>) -> Project {
    let at_cwd = |why: String| Project {
        path: cwd.to_path_buf(),
        refused: Some(why),
    };
    let Some(found) = crate::fsutil::project::project_root(cwd) else {
        return Project {
            path: cwd.to_path_buf(),
            refused: None,
        };
    };
    let Ok(root) = found.canonicalize() else {
        return at_cwd(format!(
            "the project's directory ({}) cannot be resolved",
            found.display()
        ));
    };
    if root == cwd {
        return Project {
            path: root,
            refused: None,
        };
    }
    let Some(home) = home else {
        return at_cwd("HOME is not known, so the project cannot be told from it".to_owned());
    };
    let home = home.canonicalize().unwrap_or_else(|_| home.to_path_buf());
    match too_wide(&root, &home) {
        Some(why) => at_cwd(why),
        None => Project {
            path: root,
            refused: None,
        },
    }
}

/// Why a project at `root` would grant too much: it is `/`, holds `home`
/// or holds a directory of the system's runtime.
fn too_wide(root: &Path, home: &Path) -> Option<String> {
    let holds = if root.parent().is_none() {
        "everything".to_owned()
    } else if home.starts_with(root) {
        "the home directory".to_owned()
    } else {
        let system = RUNTIME
            .iter()
            .map(Path::new)
            .find(|system| system.starts_with(root))?;
        system.display().to_string()
    };
    Some(format!(
        "the project's directory would be {}, which holds {holds}",
        root.display()
    ))
}

/// The resolved grants, and what was left out and why.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// `None`: reads are not restricted.
    pub read: Option<Vec<Grant>>,
    pub write: Vec<Grant>,
    /// Pathname UNIX sockets granted by the `sockets` list.
    pub sockets: Vec<Grant>,
    pub skipped: Vec<String>,
}

/// The system's runtime: readable whenever reads are restricted, so that
/// a program can be loaded and find its libraries, locale and zone data.
pub const RUNTIME: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/proc",
    "/sys/devices/system/cpu",
    "/sys/fs/cgroup",
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// Read and written, when it exists: a program's own prompts.
pub const TERMINAL: &str = "/dev/tty";

/// At most this many paths are granted in one run (an array parameter can
/// name many); the rest are left out, which only takes access away, and
/// the report stays small.
pub const MAX_GRANTS: usize = 256;

pub fn resolve(
    sandbox: &EffectiveSandbox,
    declaration: &Declaration,
    validated: &ValidatedArguments,
    places: &Places,
    program: Option<PathBuf>,
    wants_network: bool,
) -> Resolved {
    let mut resolved = Resolved::default();
    let mut out = Vec::new();
    for grant in &sandbox.write {
        add(
            sandbox,
            grant,
            Access::Write,
            declaration,
            validated,
            places,
            &mut out,
            &mut resolved.skipped,
        );
    }
    if let Ok(real) = Path::new(TERMINAL).canonicalize() {
        out.push(Grant {
            grant: "runtime".to_owned(),
            path: real.display().to_string(),
            access: Access::Write,
            real,
        });
    }
    resolved.write = out;
    if let Some(read) = &sandbox.read {
        let mut out = Vec::new();
        for grant in read {
            add(
                sandbox,
                grant,
                Access::Read,
                declaration,
                validated,
                places,
                &mut out,
                &mut resolved.skipped,
            );
        }
        let runtime = RUNTIME
            .iter()
            .map(PathBuf::from)
            .chain(program)
            .chain(wants_network.then(|| PathBuf::from("/etc/resolv.conf")));
        for path in runtime {
            if let Ok(real) = path.canonicalize() {
                out.push(Grant {
                    grant: "runtime".to_owned(),
                    path: real.display().to_string(),
                    access: Access::Read,
                    real,
                });
            }
        }
        resolved.read = Some(out);
    }
    let mut sockets = Vec::new();
    for grant in &sandbox.sockets {
        add(
            sandbox,
            grant,
            Access::Socket,
            declaration,
            validated,
            places,
            &mut sockets,
            &mut resolved.skipped,
        );
    }
    resolved.sockets = sockets;
    let total =
        resolved.read.as_ref().map_or(0, Vec::len) + resolved.write.len() + resolved.sockets.len();
    if total > MAX_GRANTS {
        resolved.skipped.push(format!(
            "{total} paths to grant; only the first {MAX_GRANTS} are"
        ));
        resolved.write.truncate(MAX_GRANTS);
        let mut room = MAX_GRANTS - resolved.write.len();
        if let Some(read) = &mut resolved.read {
            read.truncate(room);
            room -= read.len();
        }
        resolved.sockets.truncate(room);
    }
    resolved
}

#[allow(clippy::too_many_arguments)]
fn add(
    sandbox: &EffectiveSandbox,
    grant: &PathGrant,
    access: Access,
    declaration: &Declaration,
    validated: &ValidatedArguments,
    places: &Places,
    out: &mut Vec<Grant>,
    skipped: &mut Vec<String>,
) {
    let written = grant.to_string();
    match grant {
        PathGrant::Path { base, rest } => {
            let start = match base {
                Base::Root => Some(PathBuf::from("/")),
                Base::Cwd => places.cwd.clone(),
                Base::Project => places.project.as_ref().map(|project| {
                    if let Some(why) = &project.refused {
                        skipped.push(format!("`{written}`: {why}; `$CWD` is granted instead"));
                    }
                    project.path.clone()
                }),
                Base::Home => places.home.clone(),
                Base::Tmp => places.tmp.clone(),
            };
            let Some(start) = start else {
                skipped.push(format!(
                    "`{written}`: {} is not known on this run",
                    base_name(*base)
                ));
                return;
            };
            let path = if *base == Base::Root {
                PathBuf::from(rest)
            } else {
                start.join(rest.trim_start_matches('/'))
            };
            place(&written, &path, access, false, out, skipped);
        }
        PathGrant::Param(name) => {
            let sensitive = declaration.is_sensitive(name);
            let bound = sandbox
                .bounds
                .get(name)
                .map(|roots| bound_roots(roots, validated, places));
            for value in param_paths(validated.get(name)) {
                let path = Path::new(&value);
                let path = if path.is_absolute() {
                    path.to_owned()
                } else if let Some(cwd) = &places.cwd {
                    cwd.join(path)
                } else {
                    skipped.push(format!("`{written}`: the working directory is not known"));
                    continue;
                };
                let before = out.len();
                place(&written, &path, access, sensitive, out, skipped);
                if let (Some(roots), Some(granted)) = (&bound, out.get(before))
                    && !roots.iter().any(|root| granted.real.starts_with(root))
                {
                    out.truncate(before);
                    skipped.push(if sensitive {
                        format!("`{written}`: resolves outside the directories the parameter is confined to; nothing granted")
                    } else {
                        format!(
                            "`{written}` ({}): resolves outside the directories the parameter is confined to; nothing granted",
                            path.display()
                        )
                    });
                }
            }
        }
    }
}

/// A confined parameter's roots, resolved; a root that does not resolve
/// (or an absent `{param}` root) bounds nothing, so it is left out, and
/// with no root left nothing is granted.
fn bound_roots(
    roots: &[PathRoot],
    validated: &ValidatedArguments,
    places: &Places,
) -> Vec<PathBuf> {
    roots
        .iter()
        .filter_map(|root| match root {
            PathRoot::Cwd => places.cwd.clone(),
            PathRoot::Absolute(path) => Path::new(path).canonicalize().ok(),
            PathRoot::Param(name) => match validated.get(name) {
                Some(ArgValue::String(value)) => {
                    places.cwd.as_ref()?.join(value).canonicalize().ok()
                }
                _ => None,
            },
        })
        .collect()
}

fn base_name(base: Base) -> &'static str {
    match base {
        Base::Root => "/",
        Base::Cwd | Base::Project => "the working directory",
        Base::Home => "HOME",
        Base::Tmp => "the private temporary directory",
    }
}

/// The string values of a path parameter: one, or each item of an array.
fn param_paths(value: Option<&ArgValue>) -> Vec<String> {
    match value {
        Some(ArgValue::String(text)) => vec![text.clone()],
        Some(ArgValue::Array(items)) => items.clone(),
        Some(ArgValue::List(items)) => items
            .iter()
            .filter_map(|item| match item {
                ArgValue::String(text) => Some(text.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Resolves `path` and records its grant; a missing path's parent for a
/// write, nothing for a read.
fn place(
    written: &str,
    path: &Path,
    access: Access,
    sensitive: bool,
    out: &mut Vec<Grant>,
    skipped: &mut Vec<String>,
) {
    let shown = |real: &Path| {
        if sensitive {
            REDACTED.to_owned()
        } else {
            real.display().to_string()
        }
    };
    let what = if sensitive {
        format!("`{written}`")
    } else {
        format!("`{written}` ({})", path.display())
    };
    match path.canonicalize() {
        Ok(real) => out.push(Grant {
            grant: written.to_owned(),
            path: shown(&real),
            access,
            real,
        }),
        Err(err)
            if err.kind() == io::ErrorKind::NotFound
                && matches!(access, Access::Write | Access::Create) =>
        {
            match path.parent().map(Path::canonicalize) {
                Some(Ok(parent)) => out.push(Grant {
                    grant: written.to_owned(),
                    path: shown(&parent),
                    access: Access::Create,
                    real: parent,
                }),
                _ => skipped.push(format!(
                    "{what}: neither it nor its directory exists; nothing granted"
                )),
            }
        }
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            skipped.push(format!("{what}: does not exist; nothing granted"));
        }
        Err(err) => skipped.push(format!("{what}: {err}; nothing granted")),
    }
}

/// The file the child will execute for `program`, found on `path` as
/// `execvp` finds it (a name with a `/` is taken as it is).
pub fn program_file(program: &str, path: Option<&OsString>, cwd: Option<&Path>) -> Option<PathBuf> {
    let executable = |candidate: &Path| {
        candidate.metadata().is_ok_and(|meta| {
            #[cfg(unix)]
            let runs = {
                use std::os::unix::fs::PermissionsExt;
                meta.permissions().mode() & 0o111 != 0
            };
            #[cfg(not(unix))]
            let runs = true;
            meta.is_file() && runs
        })
    };
    if program.contains('/') {
        let candidate = Path::new(program);
        let candidate = match cwd {
            Some(cwd) if candidate.is_relative() => cwd.join(candidate),
            _ => candidate.to_owned(),
        };
        return candidate.canonicalize().ok();
    }
    std::env::split_paths(path?)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(program))
        .find(|candidate| executable(candidate))
        .and_then(|found| found.canonicalize().ok())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::guard::RawArguments;

    fn resolved_for(dir: &Path, out: &str, sensitive: bool) -> Resolved {
        let parsed = crate::contract::read_declaration(
            &format!(
                "name: t\ndescription: t\ndanger_level: mutating\nparameters:\n  out: {{type: string, pattern_type: filepath, sensitive: {sensitive}}}\nsubprocess: {{binary: 'true', argv: [{{param: out}}]}}\nsandbox: {{read: ['$CWD/missing'], write: ['{{out}}']}}\n"
            ),
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        );
        let declaration = parsed.declaration.unwrap();
        let tail = ["--out".to_owned(), out.to_owned()];
        let validated = crate::guard::check(&declaration, &RawArguments::from_tail(&tail)).unwrap();
        let places = Places {
            cwd: Some(dir.canonicalize().unwrap()),
            ..Places::default()
        };
        resolve(
            &EffectiveSandbox::of(&declaration),
            &declaration,
            &validated,
            &places,
            None,
            false,
        )
    }

    fn declared(resolved: &Resolved) -> Vec<&Grant> {
        resolved
            .write
            .iter()
            .filter(|grant| grant.grant == "{out}")
            .collect()
    }

    #[test]
    fn a_missing_path_is_granted_on_its_parent_for_creation_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("build")).unwrap();
        let resolved = resolved_for(dir.path(), "build/new.txt", false);
        let grants = declared(&resolved);
        assert_eq!(grants.len(), 1);
        assert_eq!(grants[0].access, Access::Create);
        assert_eq!(
            grants[0].real,
            dir.path().join("build").canonicalize().unwrap()
        );
        // A read of a missing path grants nothing, and says so.
        assert!(
            resolved
                .skipped
                .iter()
                .any(|why| why.contains("$CWD/missing")),
            "{:?}",
            resolved.skipped
        );
        // Neither the path nor its directory: nothing.
        let resolved = resolved_for(dir.path(), "nowhere/deep/x", false);
        assert!(declared(&resolved).is_empty());
    }

    #[test]
    fn a_symlink_grants_its_target_only() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real");
        std::fs::create_dir(&target).unwrap();
        std::fs::create_dir(dir.path().join("links")).unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join("links/to-real")).unwrap();
        let resolved = resolved_for(dir.path(), "links/to-real", false);
        let grants = declared(&resolved);
        assert_eq!(grants.len(), 1);
        assert_eq!(grants[0].access, Access::Write);
        assert_eq!(grants[0].real, target.canonicalize().unwrap());
    }

    #[test]
    fn a_confined_parameter_is_granted_inside_its_bound_only() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().join("project");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(cwd.join("build")).unwrap();
        std::fs::create_dir(&outside).unwrap();
        // A relative path, `..`-free, that a symlink below $CWD leads out.
        std::os::unix::fs::symlink(&outside, cwd.join("escape")).unwrap();
        let parsed = crate::contract::read_declaration(
            "name: t\ndescription: t\ndanger_level: mutating\nparameters:\n  out: {type: string, pattern_type: filepath, relative_only: true}\nsubprocess: {binary: 'true', argv: [{param: out}]}\n",
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        );
        let declaration = parsed.declaration.unwrap();
        let sandbox = EffectiveSandbox::of(&declaration);
        assert_eq!(sandbox.bounds["out"], [PathRoot::Cwd]);
        let places = Places {
            cwd: Some(cwd.canonicalize().unwrap()),
            ..Places::default()
        };
        let grants_for = |value: &str| {
            let tail = ["--out".to_owned(), value.to_owned()];
            let validated =
                crate::guard::check(&declaration, &RawArguments::from_tail(&tail)).unwrap();
            resolve(&sandbox, &declaration, &validated, &places, None, false)
        };
        let inside = grants_for("build/new.txt");
        assert!(
            inside.write.iter().any(|grant| grant.grant == "{out}"),
            "{inside:?}"
        );
        let escaped = grants_for("escape/new.txt");
        assert!(
            escaped.write.iter().all(|grant| grant.grant != "{out}"),
            "{escaped:?}"
        );
        assert!(
            escaped
                .skipped
                .iter()
                .any(|why| why.contains("outside the directories")),
            "{:?}",
            escaped.skipped
        );
    }

    #[test]
    fn the_project_is_the_nearest_git_up_else_the_working_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let project = home.join("work/project");
        let deep = project.join("crates/foo/src");
        std::fs::create_dir_all(&deep).unwrap();
        // No `.git`: the working directory.
        assert_eq!(project_of(&deep, Some(&home)).path, deep);
        // A repository's work tree, from any depth below it and from itself.
        std::fs::create_dir(project.join(".git")).unwrap();
        for cwd in [&deep, &project] {
            assert_eq!(
                project_of(cwd, Some(&home)),
                Project {
                    path: project.clone(),
                    refused: None
                }
            );
        }
        // A worktree's or a submodule's `.git` file makes its own project.
        let member = project.join("crates/foo");
        std::fs::write(member.join(".git"), "gitdir: /elsewhere\n").unwrap();
        assert_eq!(project_of(&deep, Some(&home)).path, member);
        // Found through a link: the project with its links followed.
        std::os::unix::fs::symlink(&deep, root.join("link")).unwrap();
        assert_eq!(
            project_of(&root.join("link").canonicalize().unwrap(), Some(&home)).path,
            member
        );
    }

    #[test]
    fn the_project_is_never_the_home_directory_or_above_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let notes = home.join("notes/2026");
        std::fs::create_dir_all(&notes).unwrap();
        // A home kept in git: working below it is working in no project.
        std::fs::create_dir(home.join(".git")).unwrap();
        let project = project_of(&notes, Some(&home));
        assert_eq!(project.path, notes);
        assert!(
            project
                .refused
                .as_deref()
                .is_some_and(|why| why.contains("holds the home directory")),
            "{project:?}"
        );
        // In the home directory itself, `$PROJECT` is `$CWD`: nothing wider.
        assert_eq!(
            project_of(&home, Some(&home)),
            Project {
                path: home.clone(),
                refused: None
            }
        );
        // A `.git` above the home directory, and a home named with a link.
        std::fs::remove_dir(home.join(".git")).unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        std::os::unix::fs::symlink(&home, root.join("home-link")).unwrap();
        let project = project_of(&notes, Some(&root.join("home-link")));
        assert_eq!(project.path, notes);
        assert!(project.refused.is_some());
        // Without a home directory to tell it from, no project above.
        let project = project_of(&notes, None);
        assert_eq!(project.path, notes);
        assert!(project.refused.is_some());
        // It holds the home directory from wherever the run is; a project
        // beside the home directory is one.
        let other = root.join("srv/app");
        std::fs::create_dir_all(&other).unwrap();
        assert_eq!(project_of(&other, Some(&home)).path, other);
        std::fs::remove_dir(root.join(".git")).unwrap();
        std::fs::create_dir(root.join("srv/.git")).unwrap();
        assert_eq!(
            project_of(&other, Some(&home)),
            Project {
                path: root.join("srv"),
                refused: None
            }
        );
    }

    #[test]
    fn a_project_of_the_root_or_the_systems_directories_is_too_wide() {
        let home = Path::new("/home/ada");
        for (root, holds) in [
            ("/", "everything"),
            ("/home", "the home directory"),
            ("/home/ada", "the home directory"),
            ("/etc", "/etc"),
            ("/usr", "/usr"),
            ("/sys", "/sys/devices/system/cpu"),
            ("/dev", "/dev/null"),
        ] {
            let why = too_wide(Path::new(root), home);
            assert!(
                why.as_deref()
                    .is_some_and(|why| why.ends_with(&format!("which holds {holds}"))),
                "{root}: {why:?}"
            );
        }
        for root in [
            "/home/ada/src/app",
            "/srv/app",
            "/etc/nginx",
            "/usr/local/src/x",
        ] {
            assert_eq!(too_wide(Path::new(root), home), None, "{root}");
        }
    }

    #[test]
    fn a_project_grant_resolves_to_the_project_or_says_why_it_is_the_cwd() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = root.join("project");
        let sub = project.join("sub");
        std::fs::create_dir_all(project.join("target")).unwrap();
        std::fs::create_dir_all(&sub).unwrap();
        let parsed = crate::contract::read_declaration(
            "name: t\ndescription: t\ndanger_level: mutating\nparameters: {}\nsubprocess: {binary: 'true', argv: []}\nsandbox: {write: ['$PROJECT', '$PROJECT/target/debug']}\n",
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        );
        let declaration = parsed.declaration.unwrap();
        let sandbox = EffectiveSandbox::of(&declaration);
        let validated = crate::guard::check(&declaration, &RawArguments::from_tail(&[])).unwrap();
        let grants_for = |found: Project| {
            let places = Places {
                cwd: Some(sub.clone()),
                project: Some(found),
                home: None,
                tmp: Some(root.clone()),
            };
            resolve(&sandbox, &declaration, &validated, &places, None, false)
        };
        let resolved = grants_for(Project {
            path: project.clone(),
            refused: None,
        });
        let granted: Vec<(&str, &Path, Access)> = resolved
            .write
            .iter()
            .filter(|grant| grant.grant.starts_with("$PROJECT"))
            .map(|grant| (grant.grant.as_str(), grant.real.as_path(), grant.access))
            .collect();
        assert_eq!(
            granted,
            [
                ("$PROJECT", project.as_path(), Access::Write),
                (
                    "$PROJECT/target/debug",
                    project.join("target").as_path(),
                    Access::Create
                ),
            ]
        );
        assert!(resolved.skipped.is_empty(), "{:?}", resolved.skipped);
        // Refused: the working directory, and `skipped` says why.
        let resolved = grants_for(Project {
            path: sub.clone(),
            refused: Some("the project's directory would be /, which holds everything".into()),
        });
        assert!(
            resolved
                .write
                .iter()
                .any(|grant| grant.grant == "$PROJECT" && grant.real == sub),
            "{resolved:?}"
        );
        assert!(
            resolved.skipped.iter().any(|why| why
                .starts_with("`$PROJECT`: the project's directory would be /")
                && why.ends_with("`$CWD` is granted instead")),
            "{:?}",
            resolved.skipped
        );
    }

    #[test]
    fn a_sensitive_path_is_never_shown() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret-name.txt"), "").unwrap();
        let resolved = resolved_for(dir.path(), "secret-name.txt", true);
        let grants = declared(&resolved);
        assert_eq!(grants[0].path, REDACTED);
        let resolved = resolved_for(dir.path(), "gone/secret-name.txt", true);
        assert!(
            resolved
                .skipped
                .iter()
                .all(|why| !why.contains("secret-name")),
            "{:?}",
            resolved.skipped
        );
    }
}
