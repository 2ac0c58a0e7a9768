//! Registry settings: `aigent.toml` in the registry directory, beside the
//! declarations. It holds the policy that belongs to a registry as a whole
//! rather than to one command: one table per feature (`[hook]`,
//! `[sandbox]`, `[audit]`, ...), each typed here as plain data and
//! interpreted by the module that owns the feature.
//!
//! The file is optional: without it (and for the built-in catalog) every
//! section takes its defaults, which are the safe ones. A file that exists
//! but cannot be read, is not TOML, or holds a key this version does not
//! know is an error, never ignored: a misspelt key in a security policy
//! must not silently fall back to something the author did not write.
//!
//! `aigent.toml` cannot be mistaken for a declaration: declarations are
//! `NAME.json`, `NAME.yaml` or `NAME.yml`.

use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::contract::value::MAX_DOCUMENT_BYTES;

/// The settings file's name inside a registry directory.
pub const SETTINGS_FILE: &str = "aigent.toml";

/// Everything `aigent.toml` can say. Each section defaults to its safe
/// value when absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// `[hook]`: what `aigent hook` does with what no declaration covers.
    pub hook: HookSettings,
    /// `[sandbox]`: how strictly runs enforce their declared sandbox.
    pub sandbox: SandboxSettings,
    /// `[audit]`: where `aigent audit export` sends the log.
    pub audit: AuditSettings,
}

/// `[audit]`, interpreted by `aigent audit export` (docs/audit.md):
/// destinations used when no `--otlp`/`--syslog` is given, so that
/// `aigent audit export --follow` is the registry's live export.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuditSettings {
    /// An OTLP/HTTP collector, `http://host:4318`.
    pub otlp: Option<String>,
    /// A syslog receiver: `udp://host:514`, `tcp://host:514`, `unix:///dev/log`.
    pub syslog: Option<String>,
    /// Seconds to wait for a collector before giving up on a batch.
    pub timeout_secs: u64,
    /// Seconds between rounds of `audit export --follow`.
    pub interval_secs: u64,
}

impl Default for AuditSettings {
    fn default() -> Self {
        Self {
            otlp: None,
            syslog: None,
            timeout_secs: 5,
            interval_secs: 5,
        }
    }
}

/// `[sandbox]`, interpreted by `crate::exec::sandbox` through
/// `crate::invoke`. `--sandbox` on `run` and `mcp serve` overrides it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxSettings {
    /// `require`, `best-effort` (the default) or `off`.
    pub mode: crate::contract::sandbox::SandboxMode,
}

/// `[hook]`, interpreted by `crate::hook`. The defaults are the safe ones
/// docs/hooks.md describes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HookSettings {
    /// A command no declaration matches (and `allow` does not name).
    pub unmatched: UnmatchedPolicy,
    /// A word known only when the line runs (`$VAR`, `$(...)`, a glob).
    pub not_static: NotStaticPolicy,
    /// Programs run without a declaration, by bare name (`ls`, not
    /// `/bin/ls`); a path that resolves to the same file on `PATH` counts.
    /// Replaces the default list when given.
    pub allow: Vec<String>,
    /// Files, or directories ending in `/`, that output redirection may
    /// write without asking; relative ones are under the command's working
    /// directory.
    pub write_paths: Vec<String>,
    /// The built-in catalog is a layer of the registry (`false` switches
    /// it off).
    pub catalog: bool,
    /// Catalog declarations switched off, by name (`git-push`) or by
    /// program (`git`).
    pub disable: Vec<String>,
}

impl Default for HookSettings {
    fn default() -> Self {
        Self {
            unmatched: UnmatchedPolicy::Ask,
            not_static: NotStaticPolicy::Deny,
            allow: ["cd", "pwd", "echo", "true", "false", ":", "test", "["]
                .into_iter()
                .map(str::to_owned)
                .collect(),
            write_paths: Vec::new(),
            catalog: true,
            disable: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnmatchedPolicy {
    /// The person decides.
    Ask,
    /// Refused.
    Deny,
    /// No opinion: the client's own rules decide.
    Defer,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NotStaticPolicy {
    Deny,
    Ask,
}

/// Why the settings could not be read. Always fatal to the command that
/// needs them (exit 4, `INVALID_SETTINGS`).
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read {file}: {source}")]
    Unreadable { file: String, source: io::Error },
    #[error("{file} is not a regular file")]
    NotRegular { file: String },
    #[error("{file} is larger than 1 MiB")]
    TooLarge { file: String },
    #[error("{file} is not UTF-8")]
    NotUtf8 { file: String },
    /// Invalid TOML, a value of the wrong type, or an unknown key.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
}

impl SettingsError {
    /// The settings file the error is about.
    pub fn file(&self) -> &str {
        match self {
            Self::Unreadable { file, .. }
            | Self::NotRegular { file }
            | Self::TooLarge { file }
            | Self::NotUtf8 { file }
            | Self::Invalid { file, .. } => file,
        }
    }
}

impl Settings {
    /// The settings in `path`; a missing file gives the defaults.
    pub fn load_file(path: &Path) -> Result<Self, SettingsError> {
        Ok(Self::load_table(path)?.map_or_else(Self::default, |(settings, _)| settings))
    }

    /// The settings in `path` and the TOML table they were read from, for
    /// merging layers; `None` when there is no file.
    pub fn load_table(path: &Path) -> Result<Option<(Self, toml::Table)>, SettingsError> {
        let file = path.display().to_string();
        let limit = u64::try_from(MAX_DOCUMENT_BYTES).unwrap_or(u64::MAX);
        // Opened without blocking and checked on the handle: a FIFO named
        // aigent.toml cannot hang the command.
        let bytes = match crate::fsutil::read_regular_file(path, limit) {
            Ok(bytes) => bytes,
            Err(crate::fsutil::ReadError::Io(err)) if err.kind() == io::ErrorKind::NotFound => {
                return Ok(None);
            }
            Err(crate::fsutil::ReadError::Io(source)) => {
                return Err(SettingsError::Unreadable { file, source });
            }
            Err(crate::fsutil::ReadError::NotRegular) => {
                return Err(SettingsError::NotRegular { file });
            }
            Err(crate::fsutil::ReadError::TooLarge(_)) => {
                return Err(SettingsError::TooLarge { file });
            }
        };
        let text =
            String::from_utf8(bytes).map_err(|_| SettingsError::NotUtf8 { file: file.clone() })?;
        let settings = Self::parse(&text, &file)?;
        // It parsed as settings, so it parses as a table.
        let table = toml::from_str(&text).unwrap_or_default();
        Ok(Some((settings, table)))
    }

    /// Parses settings text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, SettingsError> {
        toml::from_str(text).map_err(|err| {
            let (line, column) = err
                .span()
                .map_or((1, 1), |span| line_and_column(text, span.start));
            SettingsError::Invalid {
                file: file.to_owned(),
                line,
                column,
                message: err.message().to_owned(),
            }
        })
    }
}

/// Where a registry directory's settings live.
pub fn settings_path(dir: &Path) -> PathBuf {
    dir.join(SETTINGS_FILE)
}

/// 1-based line and column (in characters) of a byte offset.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_missing_files_give_the_defaults() {
        assert_eq!(
            Settings::parse("", "aigent.toml").unwrap(),
            Settings::default()
        );
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Settings::load_file(&settings_path(dir.path())).unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn unknown_keys_and_bad_toml_are_errors_with_a_location() {
        let err = Settings::parse("\n[hok]\nunmatched = \"ask\"\n", "aigent.toml").unwrap_err();
        let SettingsError::Invalid { line, .. } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(*line, 2);
        assert!(err.to_string().starts_with("aigent.toml:2:"), "{err}");

        let err = Settings::parse("a = ", "x.toml").unwrap_err();
        assert!(
            matches!(err, SettingsError::Invalid { line: 1, .. }),
            "{err:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = settings_path(dir.path());
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &path,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        let err = Settings::load_file(&path).unwrap_err();
        assert!(matches!(err, SettingsError::NotRegular { .. }), "{err:?}");
    }

    #[test]
    fn the_sandbox_mode_is_read_and_checked() {
        use crate::contract::sandbox::SandboxMode;
        assert_eq!(Settings::default().sandbox.mode, SandboxMode::BestEffort);
        for (text, mode) in [
            ("require", SandboxMode::Require),
            ("best-effort", SandboxMode::BestEffort),
            ("off", SandboxMode::Off),
        ] {
            let settings =
                Settings::parse(&format!("[sandbox]\nmode = \"{text}\"\n"), "aigent.toml").unwrap();
            assert_eq!(settings.sandbox.mode, mode);
        }
        for bad in [
            "[sandbox]\nmode = \"strict\"\n",
            "[sandbox]\nmod = \"off\"\n",
        ] {
            let err = Settings::parse(bad, "aigent.toml").unwrap_err();
            assert!(
                matches!(err, SettingsError::Invalid { line: 2, .. }),
                "{err:?}"
            );
        }
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(line_and_column("ab\ncé=", 6), (2, 3));
        assert_eq!(line_and_column("x", 99), (1, 2));
    }
}
