//! Where a `filepath` may point, once Phase 1 has passed: `under` (the
//! resolved path lies inside an allowed directory) and `must_exist`. These
//! read the file system, so they are a step of their own rather than part
//! of the pure [`super::check`]: `invoke` runs them for `args check`,
//! `run` and the MCP server alike, from the directory the program will run
//! in, and a refusal is reported and audited as a Phase 1 rejection.
//!
//! Resolving follows symbolic links: the longest leading part of the path
//! that exists is canonicalized, and the rest (which does not exist, so
//! cannot be a link) is appended. `..` cannot appear (the `filepath` rules
//! refuse it in any encoding). A dangling symbolic link on the way is
//! refused: writing through it would create its target, wherever that is.
//!
//! What this cannot close: a directory swapped for a link between the
//! check and the program's own open (a race). The program's sandbox, not
//! a check beforehand, is the answer to that.

use std::path::{Component, Path, PathBuf};

use super::rule::Rule;
use super::violation::{Rejection, Violation};
use super::{ArgValue, ValidatedArguments};
use crate::contract::{Confinement, Declaration, PathRoot};
use crate::fsutil::remembered;

/// Checks every confined path of `validated` against the file system, as
/// seen from `cwd` (the directory the program runs in). Refusals come back
/// as a [`Rejection`] with `outside_root` or `path_not_found` violations.
pub fn confine(
    declaration: &Declaration,
    validated: &ValidatedArguments,
    cwd: &Path,
) -> Result<(), Rejection> {
    let mut violations = Vec::new();
    for argument in &validated.arguments {
        let Some(confinement) = declaration
            .confinement(&argument.name)
            .filter(|confinement| confinement.needs_file_system())
        else {
            continue;
        };
        let values: Vec<(String, &str)> = match &argument.value {
            ArgValue::String(text) => vec![(argument.name.clone(), text.as_str())],
            ArgValue::Array(items) => items
                .iter()
                .enumerate()
                .map(|(index, item)| (format!("{}[{index}]", argument.name), item.as_str()))
                .collect(),
            _ => Vec::new(),
        };
        let roots = roots(confinement, validated, cwd);
        for (field, value) in values {
            if let Some(mut violation) = check_one(&field, value, confinement, &roots, cwd) {
                violation.sensitive = argument.sensitive;
                violations.push(violation);
            }
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(Rejection::bounded(declaration.name.clone(), violations))
    }
}

/// A root as written (for messages) and as resolved, when it resolves.
struct Root {
    written: String,
    resolved: Option<PathBuf>,
}

fn roots(confinement: &Confinement, validated: &ValidatedArguments, cwd: &Path) -> Vec<Root> {
    confinement
        .under
        .iter()
        .filter_map(|root| {
            let (written, path) = match root {
                PathRoot::Cwd => ("$CWD".to_owned(), cwd.to_path_buf()),
                PathRoot::Absolute(path) => (path.clone(), PathBuf::from(path)),
                // An absent parameter is no root at all.
                PathRoot::Param(name) => match validated.get(name) {
                    Some(ArgValue::String(value)) => (format!("{{{name}}}"), cwd.join(value)),
                    _ => return None,
                },
            };
            Some(Root {
                written,
                resolved: resolve(&path).ok().map(|resolved| resolved.path),
            })
        })
        .collect()
}

/// `path` with the links of its longest existing part followed (the rest
/// appended as written), or `None` when a link on the way is dangling.
pub fn resolve_existing(path: &Path) -> Option<PathBuf> {
    resolve(path).ok().map(|resolved| resolved.path)
}

/// A path with its links followed, and whether all of it exists.
struct Resolved {
    path: PathBuf,
    exists: bool,
}

/// Why a path cannot be resolved.
enum Unresolvable {
    /// A symbolic link on the way points nowhere.
    DanglingLink(PathBuf),
}

fn resolve(path: &Path) -> Result<Resolved, Unresolvable> {
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let mut existing = path;
    loop {
        match remembered::canonicalize(existing) {
            Ok(mut real) => {
                let exists = rest.is_empty();
                for part in rest.iter().rev() {
                    real.push(part);
                }
                return Ok(Resolved { path: real, exists });
            }
            Err(_) => {
                if remembered::is_present(existing) {
                    return Err(Unresolvable::DanglingLink(existing.to_path_buf()));
                }
                let Some(parent) = existing.parent() else {
                    // Nothing of it exists, not even its root.
                    return Ok(Resolved {
                        path: path.to_path_buf(),
                        exists: false,
                    });
                };
                if let Some(name) = existing.file_name() {
                    rest.push(name);
                }
                existing = parent;
            }
        }
    }
}

fn check_one(
    field: &str,
    value: &str,
    confinement: &Confinement,
    roots: &[Root],
    cwd: &Path,
) -> Option<Violation> {
    let candidate = cwd.join(without_dot_segments(Path::new(value)));
    let expected = expected(confinement, roots);
    let resolved = match resolve(&candidate) {
        Ok(resolved) => resolved,
        Err(Unresolvable::DanglingLink(link)) => {
            return Some(Violation::new(
                field,
                Rule::OutsideRoot,
                Some(value.to_owned()),
                expected,
                format!(
                    "`{field}` goes through {}, a symbolic link to something that does not exist; writing through it would create a file wherever the link points",
                    link.display()
                ),
            ));
        }
    };
    if !confinement.under.is_empty() {
        let inside = roots.iter().any(|root| {
            root.resolved
                .as_ref()
                .is_some_and(|root| resolved.path.starts_with(root))
        });
        if !inside {
            let allowed: Vec<String> = roots
                .iter()
                .map(|root| match &root.resolved {
                    Some(path) if root.written.starts_with(['$', '{']) => {
                        format!("{} ({})", root.written, path.display())
                    }
                    _ => root.written.clone(),
                })
                .collect();
            let allowed = if allowed.is_empty() {
                "none of its directories is given".to_owned()
            } else {
                allowed.join(", ")
            };
            return Some(Violation::new(
                field,
                Rule::OutsideRoot,
                Some(value.to_owned()),
                expected,
                format!(
                    "`{field}` resolves to {}, outside the directories it is confined to: {allowed}",
                    resolved.path.display()
                ),
            ));
        }
    }
    if confinement.must_exist && !resolved.exists {
        return Some(Violation::new(
            field,
            Rule::PathNotFound,
            Some(value.to_owned()),
            expected,
            format!(
                "`{field}` names {}, which does not exist",
                resolved.path.display()
            ),
        ));
    }
    None
}

/// `a/./b` as `a/b`: a `.` segment changes nothing, and keeping it would
/// make the "does it exist" walk stop at it.
fn without_dot_segments(path: &Path) -> PathBuf {
    path.components()
        .filter(|component| *component != Component::CurDir)
        .collect()
}

fn expected(confinement: &Confinement, roots: &[Root]) -> String {
    let mut parts = Vec::new();
    if !confinement.under.is_empty() {
        let written: Vec<&str> = roots.iter().map(|root| root.written.as_str()).collect();
        parts.push(format!(
            "a path inside {} (symbolic links followed)",
            written.join(" or ")
        ));
    }
    if confinement.must_exist {
        parts.push("that exists".to_owned());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::contract::Origin;
    use crate::guard::{self, RawArguments};
    use crate::registry::parse_value;

    fn declaration(parameters: serde_json::Value) -> Declaration {
        let names: Vec<String> = parameters.as_object().unwrap().keys().cloned().collect();
        let argv: Vec<serde_json::Value> =
            names.iter().map(|name| json!({"param": name})).collect();
        let parsed = parse_value(
            &json!({"name": "t", "description": "d", "danger_level": "safe", "parameters": parameters,
                    "subprocess": {"binary": "x", "argv": argv}}),
            &Origin::default(),
        );
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        parsed.declaration.unwrap()
    }

    fn rules_of(declaration: &Declaration, arguments: serde_json::Value, cwd: &Path) -> Vec<Rule> {
        let text = arguments.to_string();
        let validated = match guard::check(declaration, &RawArguments::Json(&text)) {
            Ok(validated) => validated,
            Err(rejection) => return rejection.violations.iter().map(|v| v.rule).collect(),
        };
        match confine(declaration, &validated, cwd) {
            Ok(()) => Vec::new(),
            Err(rejection) => rejection.violations.iter().map(|v| v.rule).collect(),
        }
    }

    #[test]
    fn under_cwd_follows_links_and_refuses_what_escapes() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().join("work");
        std::fs::create_dir_all(cwd.join("sub")).unwrap();
        std::fs::write(cwd.join("sub/file.txt"), "x").unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, cwd.join("escape")).unwrap();
            std::os::unix::fs::symlink(dir.path().join("nowhere"), cwd.join("dangling")).unwrap();
        }
        let output = declaration(
            json!({"output": {"type": "string", "pattern_type": "filepath", "under": ["$CWD"]}}),
        );
        assert_eq!(rules_of(&output, json!({"output": "new.txt"}), &cwd), []);
        assert_eq!(
            rules_of(&output, json!({"output": "./sub/new.txt"}), &cwd),
            []
        );
        assert_eq!(
            rules_of(&output, json!({"output": "sub/file.txt"}), &cwd),
            []
        );
        assert_eq!(
            rules_of(
                &output,
                json!({"output": cwd.join("sub/x").to_str().unwrap()}),
                &cwd
            ),
            []
        );
        assert_eq!(
            rules_of(&output, json!({"output": "/etc/passwd"}), &cwd),
            [Rule::OutsideRoot]
        );
        assert_eq!(
            rules_of(&output, json!({"output": "../outside/x"}), &cwd),
            [Rule::PathTraversal]
        );
        #[cfg(unix)]
        {
            assert_eq!(
                rules_of(&output, json!({"output": "escape/x.txt"}), &cwd),
                [Rule::OutsideRoot]
            );
            assert_eq!(
                rules_of(&output, json!({"output": "dangling"}), &cwd),
                [Rule::OutsideRoot]
            );
        }
    }

    #[test]
    fn relative_only_must_exist_and_parameter_roots() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path();
        std::fs::create_dir_all(cwd.join("dest/inner")).unwrap();
        std::fs::write(cwd.join("a.tar"), "x").unwrap();
        let relative = declaration(
            json!({"p": {"type": "string", "pattern_type": "filepath", "relative_only": true}}),
        );
        for absolute in [
            "/etc/passwd",
            "~/.bashrc",
            "C:\\x",
            "\\\\server\\share",
            "%2Fetc",
        ] {
            assert_eq!(
                rules_of(&relative, json!({"p": absolute}), cwd),
                [Rule::AbsolutePath],
                "{absolute}"
            );
        }
        assert_eq!(rules_of(&relative, json!({"p": "a/b"}), cwd), []);

        let existing = declaration(
            json!({"archive": {"type": "string", "pattern_type": "filepath", "must_exist": true, "under": ["$CWD"]}}),
        );
        assert_eq!(rules_of(&existing, json!({"archive": "a.tar"}), cwd), []);
        assert_eq!(
            rules_of(&existing, json!({"archive": "b.tar"}), cwd),
            [Rule::PathNotFound]
        );

        let members = declaration(json!({
            "dest": {"type": "string", "pattern_type": "filepath", "relative_only": true, "under": ["$CWD"]},
            "files": {"type": "array", "pattern_type": "filepath", "under": ["{dest}"]}
        }));
        assert_eq!(
            rules_of(
                &members,
                json!({"dest": "dest", "files": ["dest/inner/x", "dest/y"]}),
                cwd
            ),
            []
        );
        assert_eq!(
            rules_of(
                &members,
                json!({"dest": "dest", "files": ["dest/y", "a.tar"]}),
                cwd
            ),
            [Rule::OutsideRoot]
        );
        // Without its root, a path confined only under it is refused.
        assert_eq!(
            rules_of(&members, json!({"files": ["dest/y"]}), cwd),
            [Rule::OutsideRoot]
        );
    }
}
