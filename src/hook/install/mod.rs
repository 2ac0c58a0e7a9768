//! `aigent hook install` / `uninstall`: aigent's hook entry merged into a
//! client's own settings file, and taken out again.
//!
//! The edit itself is pure ([`plan_install`], [`plan_uninstall`]: the
//! file's text in, the new text out), done by splicing text so that every
//! other byte stays as it was. [`install`] and [`uninstall`] add the file
//! work around it: where the file is, whether it is safe to write (a
//! symlink out of the project, a hard link, something not a regular file
//! are refused), a backup of what was there, and an atomic replace that a
//! reader never sees half done.

mod client;
mod command;
mod files;
mod json;
pub mod jsonc;
mod program;
mod toml;

pub use client::{Client, FileFormat, GEMINI_HOOK_NAME, HOOK_DESCRIPTION, Homes, Scope};
pub use command::{CommandError, EntryFlags, entry_command, is_aigent_hook, shell_quote};
pub use files::{
    InstallError, MAX_SETTINGS_BYTES, Report, Request, backup_name, install, read_settings,
    uninstall,
};
pub use program::default_program;

/// What an edit did, or would do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The file did not exist; it was created holding the entry.
    Created,
    /// The entry was added to an existing file.
    Added,
    /// The entry was already there, running the same command.
    Unchanged,
    /// An aigent entry ran another command; it now runs this one.
    Replaced,
    /// aigent's entries were taken out; the file stays.
    Removed,
    /// aigent's entries were taken out and nothing else was left, so the
    /// file itself went.
    FileRemoved,
    /// `uninstall` found no aigent entry.
    NotInstalled,
}

impl Action {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
            Self::Added => "added",
            Self::Unchanged => "unchanged",
            Self::Replaced => "replaced",
            Self::Removed => "removed",
            Self::FileRemoved => "file_removed",
            Self::NotInstalled => "not_installed",
        }
    }

    /// Whether the file changes.
    pub const fn changes(self) -> bool {
        !matches!(self, Self::Unchanged | Self::NotInstalled)
    }
}

/// The result of planning an edit: the file's new text (`None`: the file
/// goes), what that amounts to, and settings that keep the hook from
/// running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub after: Option<String>,
    pub action: Action,
    pub warnings: Vec<String>,
    /// For [`Action::Replaced`], the command the entry ran before.
    pub replaced: Option<String>,
}

/// Why a settings file's text cannot take the edit. Nothing is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("{line}:{column}: {message}")]
    Malformed {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{line}:{column}: {what} is {found}; aigent's entry needs {expected} there")]
    WrongType {
        what: String,
        expected: &'static str,
        found: &'static str,
        line: usize,
        column: usize,
    },
    #[error("{line}:{column}: `{key}` appears twice; readers disagree on which one counts")]
    DuplicateKey {
        key: String,
        line: usize,
        column: usize,
    },
    #[error(
        "{line}:{column}: {count} aigent entries for this client, more than the {limit} uninstall takes out; edit the file by hand"
    )]
    TooManyEntries {
        count: usize,
        limit: usize,
        line: usize,
        column: usize,
    },
    #[error("{line}:{column}: an aigent entry already runs `{existing}`")]
    Conflict {
        existing: String,
        line: usize,
        column: usize,
    },
}

impl EditError {
    /// Where in the file, 1-based.
    pub fn line_column(&self) -> (usize, usize) {
        match self {
            Self::Malformed { line, column, .. }
            | Self::WrongType { line, column, .. }
            | Self::DuplicateKey { line, column, .. }
            | Self::TooManyEntries { line, column, .. }
            | Self::Conflict { line, column, .. } => (*line, *column),
        }
    }
}

/// The edit that adds `client`'s entry running `command` to a settings
/// file holding `text` (`None`: there is no file yet). An aigent entry that
/// runs another command is a [`EditError::Conflict`] unless `replace`.
pub fn plan_install(
    client: Client,
    text: Option<&str>,
    command: &str,
    replace: bool,
) -> Result<Edit, EditError> {
    match client.file_format() {
        FileFormat::Json { .. } => json::install(client, text, command, replace),
        FileFormat::Toml => toml::install(client, text, command, replace),
    }
}

/// One aigent entry found in a settings file: the command it runs, and
/// where that command is written (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstalledEntry {
    pub command: String,
    pub line: usize,
    pub column: usize,
}

/// Every aigent entry for `client` in a settings file holding `text`.
pub fn installed_entries(client: Client, text: &str) -> Result<Vec<InstalledEntry>, EditError> {
    match client.file_format() {
        FileFormat::Json { .. } => json::entries(client, text),
        FileFormat::Toml => toml::entries(client, text),
    }
}

/// The edit that removes every aigent entry for `client` from `text`.
pub fn plan_uninstall(client: Client, text: &str) -> Result<Edit, EditError> {
    match client.file_format() {
        FileFormat::Json { .. } => json::uninstall(client, text),
        FileFormat::Toml => toml::uninstall(client, text),
    }
}

/// A unified diff from `before` to `after` (`None`: no file), with `a/`
/// and `b/` headers naming `path`, or `/dev/null` for a side with no file.
pub fn unified_diff(before: Option<&str>, after: Option<&str>, path: &std::path::Path) -> String {
    let name = path.to_string_lossy();
    let old_header = before.map_or_else(|| "/dev/null".to_owned(), |_| format!("a/{name}"));
    let new_header = after.map_or_else(|| "/dev/null".to_owned(), |_| format!("b/{name}"));
    similar::TextDiff::from_lines(before.unwrap_or_default(), after.unwrap_or_default())
        .unified_diff()
        .context_radius(3)
        .header(&old_header, &new_header)
        .to_string()
}
