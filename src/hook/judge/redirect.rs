//! Redirections: which files a segment's `<`, `>` and friends open, and
//! what that needs.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{Context, HARMLESS_TARGETS, LineState, Segment, cut, git_dir};
use crate::contract::{Declaration, ParamType};
use crate::fsutil::remembered;
use crate::guard::{self, RawArguments};
use crate::hook::verdict::Verdict;
use crate::shell::{Redirect, RedirectKind, quote};

/// The strictest verdict the redirections need, if any needs one.
pub(super) fn redirect_verdict(
    redirects: &[Redirect],
    context: &Context<'_>,
    state: &LineState,
) -> Option<Segment> {
    for redirect in redirects {
        let Some(target) = redirect.target.as_static() else {
            continue;
        };
        let writes_file = match redirect.kind {
            kind if kind.writes() => true,
            // `>&FILE` (not a descriptor number, not `-`) writes a file.
            RedirectKind::DuplicateOutput => {
                !target.bytes().all(|byte| byte.is_ascii_digit()) && target != "-"
            }
            _ => false,
        };
        if target.starts_with("/dev/tcp/") || target.starts_with("/dev/udp/") {
            return Some(Segment::new(
                String::new(),
                Verdict::Deny,
                "network_redirect",
                format!(
                    "`{}` opens a network connection through bash's /dev/tcp or /dev/udp",
                    cut(target)
                ),
            ));
        }
        if redirect.kind.reads_file() && super::paths::looks_secret(target) {
            return Some(Segment::new(
                String::new(),
                Verdict::Ask,
                super::paths::SECRET_RULE,
                super::paths::secret_message(target),
            ));
        }
        if !writes_file || HARMLESS_TARGETS.contains(&target) {
            continue;
        }
        if git_dir::writes_into_git_dir(target, state.working_directory(context)) {
            return Some(Segment::new(
                String::new(),
                Verdict::Ask,
                git_dir::RULE,
                git_dir::message(target),
            ));
        }
        if write_allowed(target, context, state) || inside_project(target, context, state) {
            continue;
        }
        return Some(Segment::new(
            String::new(),
            Verdict::Ask,
            "redirect_write",
            format!(
                "writes the file `{}` through a redirection, which the hook cannot place inside the project or the temporary directory; the person decides (or add it to write_paths in aigent.toml)",
                cut(target)
            ),
        ));
    }
    None
}

/// Whether `target` is a file inside the project or the temporary
/// directory, below its root, where a command that changes the project
/// may write: named without `..`, from a directory the hook knows, and
/// still inside once the links of its existing part are followed (a link
/// in `/tmp` to `~/.bashrc` is not inside).
fn inside_project(target: &str, context: &Context<'_>, state: &LineState) -> bool {
    let target = Path::new(target);
    if target
        .components()
        .any(|component| component == std::path::Component::ParentDir)
    {
        return false;
    }
    let cwd = state.working_directory(context);
    let joined = match cwd {
        _ if target.is_absolute() => target.to_path_buf(),
        Some(cwd) => cwd.join(target),
        None => return false,
    };
    let Some(real) = crate::guard::resolve_existing(&joined) else {
        return false;
    };
    let below = |root: &Path| real.starts_with(root) && real != root;
    // The home directory is elsewhere, even where it is itself in `/tmp`,
    // and working in it (or above it) is working in no project.
    let home = context.home;
    let in_project = !target.is_absolute()
        && state.outside_project().is_none()
        && context.cwd.is_some_and(|start| {
            let project = super::directory::project_of(start);
            !super::paths::is_home_or_above(&project.to_string_lossy(), None, home)
                && below(&project)
        });
    let in_temporary = temporary_roots().iter().any(|root| below(root))
        && !super::paths::in_home_outside(&real.to_string_lossy(), None, home, None);
    in_project || in_temporary
}

/// The temporary directories, with their links followed.
fn temporary_roots() -> Vec<PathBuf> {
    let mut roots = vec![PathBuf::from("/tmp"), PathBuf::from("/var/tmp")];
    roots.push(std::env::temp_dir());
    roots
        .into_iter()
        .filter_map(|root| remembered::canonicalize(root).ok())
        .collect()
}

fn write_allowed(target: &str, context: &Context<'_>, state: &LineState) -> bool {
    let cwd = state.working_directory(context);
    let absolute = |path: &str| -> Option<PathBuf> {
        let path = Path::new(path);
        if path.is_absolute() {
            Some(path.to_path_buf())
        } else {
            // After a `cd` in the line, where the shell is may not be known.
            cwd.map(|cwd| cwd.join(path))
        }
    };
    let Some(target_path) = absolute(target) else {
        return false;
    };
    if target_path
        .components()
        .any(|component| component == std::path::Component::ParentDir)
    {
        return false;
    }
    context.settings.write_paths.iter().any(|allowed| {
        let Some(allowed_path) = absolute(allowed) else {
            return false;
        };
        if allowed.ends_with('/') {
            target_path.starts_with(&allowed_path) && target_path != allowed_path
        } else {
            target_path == allowed_path
        }
    })
}

/// Files a command reads through `<` or `<>` (its own, or a compound
/// command's around it), held against its declaration: a declaration
/// whose path parameters are confined (`relative_only`, `under`,
/// `must_exist`) says where the command may read, and its standard input
/// is one more file it reads. Each target must be a value every confined
/// path parameter would accept, checked by the guard exactly as that
/// parameter's value would be, from the directory the command runs in.
pub(super) fn read_outside_confinement<'r>(
    declaration: &Declaration,
    arguments: &Map<String, Value>,
    reads: impl Iterator<Item = &'r Redirect>,
    argv: &[&str],
    cwd: Option<&Path>,
) -> Option<Segment> {
    let confined: Vec<(&str, bool)> = declaration
        .parameters()
        .iter()
        .filter(|parameter| declaration.confinement(&parameter.name).is_some())
        .map(|parameter| (parameter.name.as_str(), parameter.kind == ParamType::Array))
        .collect();
    if confined.is_empty() {
        return None;
    }
    for redirect in reads {
        let Some(target) = redirect.target.as_static() else {
            continue;
        };
        if HARMLESS_TARGETS.contains(&target) || target == "/dev/stdin" {
            continue;
        }
        for &(name, array) in &confined {
            if let Some(problem) =
                confinement_problem(declaration, arguments, name, array, target, cwd)
            {
                let mut segment = Segment::new(
                    quote(argv),
                    Verdict::Deny,
                    problem.0,
                    format!(
                        "reads `{}` through a redirection, but `{}` confines where its `{name}` may point: {}",
                        cut(target),
                        declaration.name,
                        cut(&problem.1)
                    ),
                );
                segment.declaration = Some(declaration.name.clone());
                return Some(segment);
            }
        }
    }
    None
}

/// Why `target` is not a value the parameter `name` would accept (its rule
/// and the guard's message), if it is not.
fn confinement_problem(
    declaration: &Declaration,
    arguments: &Map<String, Value>,
    name: &str,
    array: bool,
    target: &str,
    cwd: Option<&Path>,
) -> Option<(&'static str, String)> {
    let mut candidate = arguments.clone();
    let value = Value::String(target.to_owned());
    candidate.insert(
        name.to_owned(),
        if array {
            Value::Array(vec![value])
        } else {
            value
        },
    );
    let text = Value::Object(candidate).to_string();
    let about_name = |field: &str| field == name || field.starts_with(&format!("{name}["));
    let validated = match guard::check(declaration, &RawArguments::Json(&text)) {
        Ok(validated) => validated,
        Err(rejection) => {
            // The value fails the parameter's own rules (a traversal, an
            // absolute path where only relative ones go, its pattern).
            let violation = rejection
                .violations
                .iter()
                .find(|violation| about_name(&violation.field))
                .or(rejection.violations.first())?;
            return Some((violation.rule.as_str(), violation.message.clone()));
        }
    };
    let needs_directory = declaration
        .confinement(name)
        .is_some_and(|confinement| confinement.needs_file_system());
    if !needs_directory {
        return None;
    }
    let Some(cwd) = cwd else {
        return Some((
            "confined_path",
            "the directory the command would run in is not known (no working directory in the event, or a `cd` earlier in the line)".to_owned(),
        ));
    };
    let rejection = guard::confine(declaration, &validated, cwd).err()?;
    let violation = rejection
        .violations
        .iter()
        .find(|violation| about_name(&violation.field))?;
    Some((violation.rule.as_str(), violation.message.clone()))
}
