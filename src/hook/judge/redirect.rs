//! Redirections: which files a segment's `<`, `>` and friends open, and
//! what that needs.

use std::path::{Path, PathBuf};

use super::{Context, HARMLESS_TARGETS, LineState, Segment, cut};
use crate::hook::verdict::Verdict;
use crate::shell::{Redirect, RedirectKind};

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
        if !writes_file
            || HARMLESS_TARGETS.contains(&target)
            || write_allowed(target, context, state)
        {
            continue;
        }
        return Some(Segment::new(
            String::new(),
            Verdict::Ask,
            "redirect_write",
            format!(
                "writes the file `{}` through a redirection; the person decides (or add it to write_paths in aigent.toml)",
                cut(target)
            ),
        ));
    }
    None
}

fn write_allowed(target: &str, context: &Context<'_>, state: &LineState) -> bool {
    let absolute = |path: &str| -> Option<PathBuf> {
        let path = Path::new(path);
        if path.is_absolute() {
            Some(path.to_path_buf())
        } else if state.changes_directory {
            // An earlier `cd` in the line moved the shell elsewhere.
            None
        } else {
            context.cwd.map(|cwd| cwd.join(path))
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
