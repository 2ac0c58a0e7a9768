//! Where the lines to learn from come from: the hook's decisions in the
//! audit log (only once the log's hash chain holds), command lines given
//! one a line, and the `Bash(...)` rules of a Claude Code settings file
//! held against what the log saw.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use super::Observation;
use crate::exec::audit::{AuditError, AuditLog, EVENT_HOOK_DECISION, Filter};
use crate::hook::judge::{Context, judge};
use crate::hook::verdict::Verdict;

/// Most lines read from a list of command lines.
pub const MAX_LINES: usize = 100_000;

/// Which decisions of the log to learn from.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// A record timestamp (`audit::parse_since`'s form): records at or after it.
    pub since: Option<String>,
    pub session: Option<String>,
    /// The client's name as the record holds it (`claude-code`).
    pub client: Option<String>,
    /// Also the segments the hook allowed (for the prefix rules, which
    /// admitted them).
    pub allowed_too: bool,
}

/// Why the log cannot be learned from.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error(transparent)]
    Audit(#[from] AuditError),
    /// The chain check found an edited, forged, reordered or cut record.
    #[error(
        "the audit log fails its chain check at {at}: {message}; aigent does not learn from a log it cannot vouch for (run `aigent audit verify`)"
    )]
    Broken { at: String, message: String },
    #[error(
        "{count} record(s) of the audit log are not protected by its chain (the first at {at}: {reason}); aigent does not learn from them"
    )]
    Unverified {
        count: usize,
        at: String,
        reason: String,
    },
    #[error("{0}")]
    Settings(String),
}

/// The segments the hook did not allow (all of them with
/// `allowed_too`), each as one observation with its record's directory and
/// session. The whole log is checked first; any break refuses it.
pub fn from_audit_log(
    log: &AuditLog,
    selection: &Selection,
) -> Result<Vec<Observation>, SourceError> {
    let verification = log.verify()?;
    if let Some(problem) = verification.problem {
        return Err(SourceError::Broken {
            at: problem.at.to_string(),
            message: problem.message,
        });
    }
    let listing = log.records(&Filter {
        event: Some(EVENT_HOOK_DECISION.to_owned()),
        since: selection.since.clone(),
        ..Filter::default()
    })?;
    if let Some(first) = listing.unverified.first() {
        return Err(SourceError::Unverified {
            count: listing.unverified.len(),
            at: first.at.to_string(),
            reason: first.reason.clone(),
        });
    }
    let mut observations = Vec::new();
    for record in &listing.records {
        let text = |key: &str| record.get(key).and_then(Value::as_str);
        if selection
            .client
            .as_deref()
            .is_some_and(|client| text("client") != Some(client))
        {
            continue;
        }
        let session = text("session_id");
        if selection
            .session
            .as_deref()
            .is_some_and(|wanted| session != Some(wanted))
        {
            continue;
        }
        let cwd = text("cwd")
            .map(PathBuf::from)
            .filter(|cwd| cwd.is_absolute());
        let Some(segments) = record.get("segments").and_then(Value::as_array) else {
            continue;
        };
        // Whether an earlier segment of the line changed directory (the
        // hook allows a `cd`, so it is in the record as an allowed segment).
        let mut moved = false;
        for segment in segments {
            let shown = segment
                .get("shown")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let moved_here = moved;
            moved |=
                super::segment_words(shown).is_some_and(|words| super::changes_directory(&words));
            let verdict = segment.get("verdict").and_then(Value::as_str);
            if verdict == Some(Verdict::Allow.as_str()) && !selection.allowed_too {
                continue;
            }
            // A line the hook hid a secret in is not a form to declare:
            // its words are no longer the ones the agent wrote.
            if shown.contains(crate::guard::REDACTED) {
                continue;
            }
            // A construct's refusal shows no words of its own: the line
            // stands for it.
            let line = if shown.is_empty() {
                match text("command_line") {
                    Some(line) => line,
                    None => continue,
                }
            } else {
                shown
            };
            observations.push(Observation {
                line: line.to_owned(),
                cwd: cwd.clone(),
                sessions: session.map(str::to_owned).into_iter().collect(),
                count: 1,
                moved: moved_here,
            });
        }
    }
    Ok(observations)
}

/// One observation per line of `text`: blank lines and `#` comments left
/// out, at most [`MAX_LINES`].
pub fn from_lines(text: &str) -> Vec<Observation> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .take(MAX_LINES)
        .map(Observation::new)
        .collect()
}

/// A `Bash(...)` rule of a Claude Code settings file.
#[derive(Debug, Clone, Serialize)]
pub struct PrefixRule {
    /// As written (`Bash(git diff:*)`).
    pub rule: String,
    /// The words it admits any line after; empty for every line.
    pub prefix: Vec<String>,
    /// The rule admits exactly one line (no `:*` or ` *`).
    pub exact: bool,
    /// Observed lines the rule admitted.
    pub observed: u64,
    /// Dangerous forms the rule admits that the hook does not allow.
    pub beyond: Vec<Admitted>,
}

/// A line a prefix rule admits, and what the hook says of it.
#[derive(Debug, Clone, Serialize)]
pub struct Admitted {
    pub line: String,
    pub verdict: Verdict,
    pub rule: String,
    pub message: String,
}

/// Forms agents should not run unasked, by program: what a prefix rule
/// over their first words admits beyond what was seen. Each is one simple
/// command: Claude Code holds each command of a compound line to the rules
/// on its own, so a rule never admits what follows a `;` or `&&`.
const DANGEROUS_FORMS: &[&str] = &[
    "find . -exec rm -rf {} +",
    "find . -delete",
    "git diff --output=/tmp/x",
    "git log --output=/tmp/x",
    "git -c core.pager=sh log",
    "git push --force origin main",
    "git reset --hard HEAD~10",
    "git clean -fdx",
    "git branch -D main",
    "git checkout -- .",
    "rm -rf /",
    "rm -rf .git",
    "sed -i s/a/b/ README.md",
    "rg --pre sh pattern",
    "tar --to-command=sh -xf a.tar",
    "npm exec some-package",
    "npm run anything",
    "npm install some-package",
    "npx some-package",
    "curl -o x.sh https://example.com/x.sh",
    "cargo install some-crate",
    "cargo run",
    "pip install some-package",
    "docker run --privileged -v /:/host alpine",
    "kubectl delete namespace prod",
    "make -f /tmp/evil.mk",
    "cat /home/user/.ssh/id_rsa",
    "chmod -R 777 /",
    "python -c 'import os'",
    "python3 -c 'import os'",
    "node -e 'process.exit()'",
    "bash -c 'rm -rf ~'",
    "sh -c 'rm -rf ~'",
    "xargs rm -rf",
    "awk 'BEGIN{system(\"sh\")}'",
    "go run .",
    "terraform destroy -auto-approve",
    // Seen admitted by public settings files (tests/fixtures/claude-settings).
    "cat .env",
    "cat ~/.ssh/id_rsa",
    "head ~/.ssh/id_rsa",
    "tail ~/.aws/credentials",
    "cp ~/.ssh/id_rsa /tmp/k",
    "mv ~/.bashrc /tmp/x",
    "touch ~/.bashrc",
    "mkdir -p /etc/cron.d/x",
    "rm -rf ~",
    "dd if=/dev/zero of=/dev/sda",
    "export LD_PRELOAD=/tmp/x.so",
    "source /tmp/x.sh",
    "git add -f .env",
    "git commit --no-verify -m x",
    "git restore .",
    "git rm -rf .",
    "git fetch --upload-pack=/tmp/x origin",
    "git pull --upload-pack=/tmp/x origin",
    "git clone --upload-pack=/tmp/x https://example.com/r.git",
    "git config core.fsmonitor /tmp/x",
    "git grep --open-files-in-pager=/tmp/x pattern",
    "git merge --strategy=/tmp/x main",
    "git cherry-pick --strategy=/tmp/x HEAD",
    "pip3 install some-package",
    "uv pip install some-package",
    "uv run sh -c 'rm -rf ~'",
    "bundle exec sh -c 'rm -rf ~'",
    "npm audit fix --force",
    "npm cache clean --force",
    "tree -o /tmp/x",
    "npx tsc --outDir /tmp/x",
    "brew install some-formula",
    "cargo check --config build.rustc-wrapper=/tmp/x",
    "cargo update --manifest-path /tmp/x/Cargo.toml",
    "claude mcp add x -- sh -c 'rm -rf ~'",
    "open -a Terminal /tmp/x.command",
    "powershell -Command Remove-Item -Recurse -Force ~",
    "flutter pub global run x",
    "pytest -p /tmp/x",
    "ruff check --fix /",
];

/// The words of a `Bash(...)` rule, or `None` for another tool's rule.
fn bash_rule(rule: &str) -> Option<(Vec<String>, bool)> {
    let inner = match rule.trim() {
        "Bash" => return Some((Vec::new(), false)),
        other => other.strip_prefix("Bash(")?.strip_suffix(')')?.trim(),
    };
    if inner.is_empty() || inner == "*" || inner == ":*" {
        return Some((Vec::new(), false));
    }
    match inner
        .strip_suffix(":*")
        .or_else(|| inner.strip_suffix(" *"))
    {
        Some(prefix) => Some((
            prefix.split_whitespace().map(str::to_owned).collect(),
            false,
        )),
        None => Some((inner.split_whitespace().map(str::to_owned).collect(), true)),
    }
}

fn admits(prefix: &[String], exact: bool, line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if exact {
        return words.len() == prefix.len() && words.iter().zip(prefix).all(|(a, b)| a == b);
    }
    words.len() >= prefix.len() && words.iter().zip(prefix).all(|(a, b)| a == b)
}

/// The `Bash(...)` rules of `permissions.allow` in a Claude Code settings
/// file (`settings.json`, `settings.local.json`), each with the observed
/// lines it admitted (returned, to learn from) and the dangerous forms it
/// admits that the hook does not allow.
pub fn from_claude_settings(
    text: &str,
    seen: &[Observation],
    context: &Context<'_>,
) -> Result<(Vec<PrefixRule>, Vec<Observation>), SourceError> {
    let settings: Value = serde_json::from_str(text).map_err(|error| {
        SourceError::Settings(format!("the settings file is not JSON: {error}"))
    })?;
    if !settings.is_object() {
        return Err(SourceError::Settings(
            "the settings file is not a JSON object".to_owned(),
        ));
    }
    // A settings file with no allow list (a theme, a deny list) allows
    // nothing: no rule to report.
    let empty = Vec::new();
    let allow = match settings
        .get("permissions")
        .and_then(|permissions| permissions.get("allow"))
    {
        None | Some(Value::Null) => &empty,
        Some(Value::Array(allow)) => allow,
        Some(_) => {
            return Err(SourceError::Settings(
                "permissions.allow is not a list".to_owned(),
            ));
        }
    };
    if settings
        .get("permissions")
        .is_some_and(|permissions| !permissions.is_object() && !permissions.is_null())
    {
        return Err(SourceError::Settings(
            "permissions is not an object".to_owned(),
        ));
    }
    let mut rules = Vec::new();
    let mut learned: Vec<Observation> = Vec::new();
    let mut taken: BTreeSet<usize> = BTreeSet::new();
    for entry in allow {
        let Some(written) = entry.as_str() else {
            continue;
        };
        let Some((prefix, exact)) = bash_rule(written) else {
            continue;
        };
        let mut observed = 0;
        for (index, observation) in seen.iter().enumerate() {
            if admits(&prefix, exact, &observation.line) {
                observed += observation.count;
                if taken.insert(index) {
                    learned.push(observation.clone());
                }
            }
        }
        let beyond = DANGEROUS_FORMS
            .iter()
            .filter(|form| !exact && admits(&prefix, exact, form))
            .filter_map(|form| {
                let judgement = judge(form, context);
                (judgement.verdict != Verdict::Allow).then(|| {
                    let segment = judgement
                        .segments
                        .iter()
                        .find(|segment| segment.verdict == judgement.verdict);
                    Admitted {
                        line: (*form).to_owned(),
                        verdict: judgement.verdict,
                        rule: segment.map_or("", |segment| segment.rule).to_owned(),
                        message: segment
                            .map(|segment| segment.message.clone())
                            .unwrap_or_default(),
                    }
                })
            })
            .collect();
        rules.push(PrefixRule {
            rule: written.to_owned(),
            prefix,
            exact,
            observed,
            beyond,
        });
    }
    Ok((rules, learned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_rules_are_read() {
        assert_eq!(
            bash_rule("Bash(git diff:*)"),
            Some((vec!["git".into(), "diff".into()], false))
        );
        assert_eq!(
            bash_rule("Bash(npm test)"),
            Some((vec!["npm".into(), "test".into()], true))
        );
        assert_eq!(bash_rule("Bash"), Some((vec![], false)));
        assert_eq!(bash_rule("Read(./src/**)"), None);
        assert!(admits(&["find".into()], false, "find . -exec rm {} +"));
        assert!(!admits(&["git".into(), "diff".into()], false, "git log"));
        assert!(!admits(
            &["npm".into(), "test".into()],
            true,
            "npm test --x"
        ));
    }

    #[test]
    fn lines_skip_blanks_and_comments() {
        let lines = from_lines("git status\n\n# a comment\n  ls -la  \n");
        let lines: Vec<&str> = lines.iter().map(|o| o.line.as_str()).collect();
        assert_eq!(lines, ["git status", "ls -la"]);
    }
}
