//! The child's environment is declared, not inherited (REQ-F-046,
//! REQ-F-066). A child gets:
//!
//! 1. the base set ([`BASE`]) from aigent's own environment, which programs
//!    need to find things and to print text;
//! 2. the variables the declaration names in `subprocess.env_pass`;
//! 3. what every child gets from aigent so that it never waits on a
//!    person, and answers in one language without colour ([`NON_INTERACTIVE`],
//!    and `LC_ALL=C` unless the declaration says `preserve_locale: true`);
//! 4. the variables it sets in `subprocess.env`, to a literal or to a
//!    parameter's value (which keeps a secret off the argv);
//! 5. `TOOL_TRACE_ID`, so the child's own logs can be tied to the request.
//!
//! Nothing else passes: `BASH_ENV`, `ENV`, exported `BASH_FUNC_*`
//! functions, `LD_PRELOAD` and aigent's own secrets reach a child only when
//! a declaration names them. A child's own children inherit all of it.

use std::ffi::{OsStr, OsString};

use crate::contract::Subprocess;

/// What every child inherits when aigent has it set.
pub const BASE: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TERM",
    "TMPDIR",
    "TZ",
    // Windows programs fail to start without these.
    "SYSTEMROOT",
    "WINDIR",
];

/// What every child gets, over what it inherits and under what its
/// declaration sets (CLI Agent Spec REQ-F-010, REQ-F-046, REQ-F-055,
/// REQ-F-008, REQ-F-003): no pager (git's and man's included), an editor
/// that fails at once instead of waiting for a person (`git commit`
/// without `-m` ends with an error), no prompt for credentials from git,
/// no colour, and the mark of a run no person is watching.
pub const NON_INTERACTIVE: &[(&str, &str)] = &[
    ("PAGER", "cat"),
    ("GIT_PAGER", "cat"),
    ("MANPAGER", "cat"),
    ("LESS", "-F -X -R"),
    ("MORE", ""),
    ("EDITOR", "false"),
    ("VISUAL", "false"),
    ("GIT_EDITOR", "false"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("NO_COLOR", "1"),
    ("CI", "1"),
];

/// The locale every child gets unless its declaration says
/// `preserve_locale: true` (REQ-F-066): messages in English and numbers
/// with a `.`, whatever the caller's `LANG`, so an agent can match them.
pub const LOCALE: (&str, &str) = ("LC_ALL", "C");

/// How a variable may be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// A literal from the declaration, or a non-sensitive parameter.
    Value,
    /// A sensitive parameter's value: `[REDACTED]`.
    Redacted,
    /// Inherited from aigent's environment (base set or `env_pass`): only
    /// its name is ever shown, since the operator's values may be secret.
    NameOnly,
    /// Set by aigent for every child (the trace id): not the declaration's,
    /// and recorded in its own right.
    Aigent,
    /// What every child gets ([`NON_INTERACTIVE`], [`LOCALE`]): shown
    /// apart from what the declaration sets.
    Default,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvEntry {
    pub name: String,
    pub value: OsString,
    pub shown: Shown,
}

/// The child's whole environment, in the order it is set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChildEnv {
    entries: Vec<EnvEntry>,
}

impl ChildEnv {
    /// The base set and `env_pass`, read through `lookup` (aigent's
    /// environment in production), then [`NON_INTERACTIVE`] and, unless
    /// the declaration keeps the caller's locale, [`LOCALE`].
    pub fn inherited(subprocess: &Subprocess, lookup: impl Fn(&str) -> Option<OsString>) -> Self {
        let mut env = Self::default();
        for name in BASE
            .iter()
            .copied()
            .chain(subprocess.env_pass.iter().map(String::as_str))
        {
            if let Some(value) = lookup(name) {
                env.set(name, value, Shown::NameOnly);
            }
        }
        for (name, value) in NON_INTERACTIVE {
            env.set(name, *value, Shown::Default);
        }
        if !subprocess.preserve_locale {
            env.set(LOCALE.0, LOCALE.1, Shown::Default);
        }
        env
    }

    /// Sets `name`, replacing an earlier entry of the same name.
    pub fn set(&mut self, name: &str, value: impl Into<OsString>, shown: Shown) {
        let entry = EnvEntry {
            name: name.to_owned(),
            value: value.into(),
            shown,
        };
        match self.entries.iter_mut().find(|entry| entry.name == name) {
            Some(existing) => *existing = entry,
            None => self.entries.push(entry),
        }
    }

    pub fn get(&self, name: &str) -> Option<&OsStr> {
        self.entries
            .iter()
            .find(|entry| entry.name == name)
            .map(|entry| entry.value.as_os_str())
    }

    pub fn entries(&self) -> &[EnvEntry] {
        &self.entries
    }

    /// For the dry run and the audit record: declared values (sensitive
    /// ones redacted), inherited variables by name only, and what every
    /// child gets (`defaults`).
    pub fn redacted(&self) -> serde_json::Value {
        let mut set = serde_json::Map::new();
        let mut defaults = serde_json::Map::new();
        let mut inherited = Vec::new();
        for entry in &self.entries {
            let value = || entry.value.to_string_lossy().into_owned().into();
            match entry.shown {
                Shown::Value => {
                    set.insert(entry.name.clone(), value());
                }
                Shown::Redacted => {
                    set.insert(entry.name.clone(), crate::guard::REDACTED.into());
                }
                Shown::Default => {
                    defaults.insert(entry.name.clone(), value());
                }
                Shown::NameOnly => inherited.push(entry.name.clone()),
                Shown::Aigent => {}
            }
        }
        serde_json::json!({"set": set, "inherited": inherited, "defaults": defaults})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Subprocess;

    fn subprocess(env_pass: &[&str]) -> Subprocess {
        let mut subprocess = Subprocess::from_lists("prog".into(), Vec::new(), Vec::new());
        subprocess.env_pass = env_pass.iter().map(|name| (*name).to_owned()).collect();
        subprocess
    }

    fn lookup(name: &str) -> Option<OsString> {
        match name {
            "PATH" => Some("/usr/bin".into()),
            "HOME" => Some("/home/ann".into()),
            "BASH_ENV" => Some("/tmp/evil".into()),
            "LD_PRELOAD" => Some("/tmp/evil.so".into()),
            "API_TOKEN" => Some("s3cret".into()),
            "AWS_PROFILE" => Some("dev".into()),
            _ => None,
        }
    }

    #[test]
    fn only_the_base_set_passes_by_default() {
        let env = ChildEnv::inherited(&subprocess(&[]), lookup);
        let inherited: Vec<&str> = env
            .entries()
            .iter()
            .filter(|e| e.shown == Shown::NameOnly)
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(inherited, ["PATH", "HOME"]);
        assert_eq!(env.get("BASH_ENV"), None);
        assert_eq!(env.get("LD_PRELOAD"), None);
        assert_eq!(env.get("API_TOKEN"), None);
    }

    #[test]
    fn every_child_is_non_interactive_in_the_c_locale() {
        let caller = |name: &str| match name {
            "LANG" => Some(OsString::from("de_DE.UTF-8")),
            "LC_ALL" => Some(OsString::from("de_DE.UTF-8")),
            "PAGER" | "EDITOR" => Some(OsString::from("less")),
            _ => None,
        };
        let mut declared = subprocess(&["PAGER", "EDITOR"]);
        let env = ChildEnv::inherited(&declared, caller);
        for (name, value) in NON_INTERACTIVE {
            assert_eq!(env.get(name), Some(OsStr::new(value)), "{name}");
        }
        assert_eq!(env.get("LC_ALL"), Some(OsStr::new("C")));
        assert_eq!(
            env.get("PAGER"),
            Some(OsStr::new("cat")),
            "env_pass does not undo it"
        );
        // A dry run shows what aigent set, with its values, apart from
        // what the declaration sets.
        let shown = env.redacted();
        assert_eq!(shown["defaults"]["GIT_PAGER"], "cat", "{shown}");
        assert_eq!(shown["set"], serde_json::json!({}), "{shown}");
        declared.preserve_locale = true;
        let kept = ChildEnv::inherited(&declared, caller);
        assert_eq!(kept.get("LC_ALL"), Some(OsStr::new("de_DE.UTF-8")));
        assert_eq!(kept.get("LANG"), Some(OsStr::new("de_DE.UTF-8")));
    }

    #[test]
    fn env_pass_names_more() {
        let env = ChildEnv::inherited(&subprocess(&["AWS_PROFILE", "MISSING"]), lookup);
        assert_eq!(env.get("AWS_PROFILE"), Some(OsStr::new("dev")));
        assert_eq!(env.get("MISSING"), None);
    }

    #[test]
    fn inherited_values_and_secrets_are_never_shown() {
        let mut env = ChildEnv::inherited(&subprocess(&["API_TOKEN"]), lookup);
        env.set("PAGER", "cat", Shown::Value);
        env.set("TOKEN", "hunter2", Shown::Redacted);
        let shown = env.redacted().to_string();
        assert!(shown.contains("\"PAGER\":\"cat\""), "{shown}");
        assert!(shown.contains("[REDACTED]"), "{shown}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("API_TOKEN"), "{shown}");
    }

    #[test]
    fn a_later_setting_replaces_an_earlier_one() {
        let mut env = ChildEnv::inherited(&subprocess(&[]), lookup);
        let count = env.entries().len();
        env.set("HOME", "/srv", Shown::Value);
        env.set("PAGER", "more", Shown::Value);
        assert_eq!(env.get("HOME"), Some(OsStr::new("/srv")));
        assert_eq!(env.get("PAGER"), Some(OsStr::new("more")));
        assert_eq!(env.entries().len(), count);
    }
}
