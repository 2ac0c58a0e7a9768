//! insta snapshots of whole outputs: a terminal session (exit code, stdout
//! and stderr together) or an envelope. Everything that changes between
//! runs or machines is replaced by a `[NAME]` placeholder, so a snapshot
//! checks every other byte, absent keys included.

use serde_json::Value;

use super::{Run, Sandbox};

/// Settings whose filters hide the sandbox path, durations, pids, the
/// version and commit hashes. Bind them for the scope of an assertion:
/// `let _filters = snapshot::settings(&sandbox).bind_to_scope();`
pub fn settings(sandbox: &Sandbox) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    // Longest first: the canonical path may extend the plain one.
    let mut roots = vec![
        (sandbox.path().display().to_string(), "[SANDBOX]"),
        (sandbox.config_home().display().to_string(), "[CONFIG]"),
    ];
    for (path, name) in roots.clone() {
        if let Ok(real) = std::path::Path::new(&path).canonicalize() {
            roots.push((real.display().to_string(), name));
        }
    }
    roots.sort_by_key(|(root, _)| std::cmp::Reverse(root.len()));
    for (root, name) in roots {
        settings.add_filter(&regex_escape(&root), name);
    }
    settings.add_filter(r#""duration_ms": \d+"#, r#""duration_ms": "[MS]""#);
    settings.add_filter(
        r#""request_id": "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}""#,
        r#""request_id": "[REQUEST_ID]""#,
    );
    settings.add_filter(
        r#""timestamp": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z""#,
        r#""timestamp": "[TIMESTAMP]""#,
    );
    settings.add_filter(r"\b\d+(\.\d+)? ?ms\b", "[DURATION]");
    settings.add_filter(r#""(child_)?pid": \d+"#, r#""${1}pid": "[PID]""#);
    settings.add_filter(
        &format!(r"\b{}\b", regex_escape(env!("CARGO_PKG_VERSION"))),
        "[VERSION]",
    );
    settings.add_filter(r"sha256:[0-9a-f]{64}", "sha256:[DIGEST]");
    // A run's private temporary directory (the sandbox's `$TMP`).
    settings.add_filter(r"/[^\s\x22]*/aigent-run-[A-Za-z0-9]+", "[RUN_TMP]");
    // What the sandbox enforces depends on the kernel.
    settings.add_filter(
        r#""enforced": \[[^\]]*\],\s*"not_enforced": \[[^\]]*\],\s*"landlock_abi": \d+"#,
        r#""enforced": "[KERNEL]""#,
    );
    settings.add_filter(r#"\n\s*"sandbox \(best-effort\): [^"\n]*",?"#, "");
    settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    settings.add_filter(r"\b[0-9a-f]{12}\b", "[SHORT_COMMIT]");
    settings
}

/// The run as a terminal session: exit code, stdout, stderr.
pub fn session(run: &Run) -> String {
    run.to_string()
}

/// The envelope on stdout, parsed and checked ([`Run::envelope`]), with
/// the exit code beside it so the snapshot shows both.
pub fn envelope(run: &Run) -> Value {
    serde_json::json!({ "exit_code": run.code, "envelope": run.envelope(), "stderr": run.stderr })
}

fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// Asserts a terminal session against its snapshot, with the filters of
/// [`settings`].
#[macro_export]
macro_rules! assert_session {
    ($sandbox:expr, $run:expr) => {{
        let _filters = $crate::common::snapshot::settings($sandbox).bind_to_scope();
        insta::assert_snapshot!($crate::common::snapshot::session($run));
    }};
    ($name:expr, $sandbox:expr, $run:expr) => {{
        let _filters = $crate::common::snapshot::settings($sandbox).bind_to_scope();
        insta::assert_snapshot!($name, $crate::common::snapshot::session($run));
    }};
}

/// Asserts an envelope (with exit code and stderr) against its snapshot.
#[macro_export]
macro_rules! assert_envelope {
    ($sandbox:expr, $run:expr) => {{
        let _filters = $crate::common::snapshot::settings($sandbox).bind_to_scope();
        insta::assert_json_snapshot!($crate::common::snapshot::envelope($run));
    }};
    ($name:expr, $sandbox:expr, $run:expr) => {{
        let _filters = $crate::common::snapshot::settings($sandbox).bind_to_scope();
        insta::assert_json_snapshot!($name, $crate::common::snapshot::envelope($run));
    }};
}
