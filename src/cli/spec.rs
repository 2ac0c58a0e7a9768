//! What clap cannot say about a command, written once beside it: each leaf
//! command's file holds a `SPEC` ([`CommandSpec`]): its danger level and
//! exit codes, the formats it speaks, whether it reads the registry.
//!
//! Everything that needs one of these facts reads it from there: the
//! format check and its hint ([`super::effective_format`]), the `--output`
//! help, the hidden `--commands` flag, `--help`'s closing block, the man
//! pages, `aigent --schema` and docs/reference/exit-codes.md.

use aigent::contract::{DangerLevel, SideEffects};
use aigent::report::OutputFormat;
pub use aigent::report::exit;
pub use aigent::report::rows::Rows;

/// One command's facts. `path` is dot-separated, as the manifest keys it
/// (`skill.validate`).
#[derive(Debug)]
pub struct CommandSpec {
    pub path: &'static str,
    /// Danger level and exit codes, for `--help` and the manifest. `None`
    /// for the two commands that are not in the manifest: `aigent hook
    /// --client` (the clients run it; its answer is their protocol) and the
    /// hidden `aigent generate`.
    pub contract: Option<Contract>,
    pub formats: Formats,
    /// For a command that lists items: where they are in `data`, and the
    /// columns of `--output tsv` and `plain`. Such a command speaks tsv,
    /// and its jsonl is one item a line.
    pub rows: Option<Rows>,
    /// Whether it reads the registry of declarations (`--commands`);
    /// where it does not, the flag is hidden from its help.
    pub registry: bool,
}

/// What the manifest and `--help` say about a leaf command.
#[derive(Debug, Clone, Copy)]
pub struct Contract {
    pub danger_level: DangerLevel,
    pub exit_codes: &'static [ExitCode],
    /// The JSON Schema of the envelope's `data` on success, made from the
    /// type that serialises it (never written by hand); `None` where the
    /// command's data has no such type yet.
    pub output_schema: Option<fn() -> serde_json::Value>,
}

/// The `--output` values a command honours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formats {
    /// A report: text, json, and these as well.
    Report(&'static [OutputFormat]),
    /// An artifact (a script, man pages) printed whatever the format.
    Artifact,
}

/// A report in text and json only.
pub const TEXT_AND_JSON: Formats = Formats::Report(&[]);

/// Findings about files: also GitHub workflow commands and a SARIF log,
/// rendered by `aigent::report::findings`.
pub const FINDINGS: Formats = Formats::Report(&[OutputFormat::Github, OutputFormat::Sarif]);

impl CommandSpec {
    /// The formats beyond text and json; `None` for an artifact.
    pub fn extra_formats(&self) -> Option<&'static [OutputFormat]> {
        match self.formats {
            Formats::Report(extra) => Some(extra),
            Formats::Artifact => None,
        }
    }

    /// Whether `--output format` is honoured: every report speaks text,
    /// json, jsonl and plain, a listing tsv too.
    pub fn speaks(&self, format: OutputFormat) -> bool {
        match self.formats {
            Formats::Report(extra) => match format {
                OutputFormat::Text
                | OutputFormat::Json
                | OutputFormat::Jsonl
                | OutputFormat::Plain => true,
                OutputFormat::Tsv => self.rows.is_some(),
                other => extra.contains(&other),
            },
            Formats::Artifact => true,
        }
    }

    /// The formats it speaks, as `--output` names them; `None` for an
    /// artifact, printed whatever the format.
    pub fn format_names(&self) -> Option<Vec<&'static str>> {
        let extra = self.extra_formats()?;
        let mut names = vec!["text", "json", "jsonl"];
        if self.rows.is_some() {
            names.push("tsv");
        }
        names.push("plain");
        names.extend(extra.iter().map(|format| format.as_str()));
        Some(names)
    }

    /// The spec of a command that lists items ([`CommandSpec::rows`]).
    pub const fn with_rows(mut self, rows: Rows) -> Self {
        self.rows = Some(rows);
        self
    }

    /// `skill validate`, as a user types it.
    pub fn words(&self) -> String {
        self.path.replace('.', " ")
    }
}

/// A spec with a contract.
pub const fn leaf(
    path: &'static str,
    danger_level: DangerLevel,
    exit_codes: &'static [ExitCode],
    formats: Formats,
    registry: bool,
) -> CommandSpec {
    CommandSpec {
        path,
        contract: Some(Contract {
            danger_level,
            exit_codes,
            output_schema: None,
        }),
        formats,
        rows: None,
        registry,
    }
}

/// The JSON Schema (draft-07, as the CLI Agent Spec's `output_schema`
/// is) of `T`, the type a command's `data` is serialised from.
pub fn output_schema<T: schemars::JsonSchema>() -> serde_json::Value {
    let schema = schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<T>();
    serde_json::to_value(schema).unwrap_or_default()
}

impl CommandSpec {
    /// The spec, with the schema of its `data` on success: give it
    /// [`output_schema`] of the type that `data` is serialised from.
    pub const fn with_output_schema(mut self, schema: fn() -> serde_json::Value) -> Self {
        if let Some(contract) = &mut self.contract {
            contract.output_schema = Some(schema);
        }
        self
    }
}

/// One exit status a command can return: how much of the world it says
/// was changed (CLI Agent Spec), and what it means for this command
/// (`None`: the general meaning in [`exit::TABLE`]). `retryable` has the
/// spec's meaning: the same call, unchanged, may succeed (and so nothing
/// was changed); a status the caller must fix something for is not.
#[derive(Debug, Clone, Copy)]
pub struct ExitCode {
    pub code: i32,
    pub side_effects: SideEffects,
    pub when: Option<&'static str>,
    pub retryable: bool,
}

/// `code` with its general meaning.
pub const fn code(code: i32, side_effects: SideEffects) -> ExitCode {
    ExitCode {
        code,
        side_effects,
        when: None,
        retryable: false,
    }
}

/// `code` with what it means for one command.
pub const fn code_when(code: i32, side_effects: SideEffects, when: &'static str) -> ExitCode {
    ExitCode {
        code,
        side_effects,
        when: Some(when),
        retryable: false,
    }
}

pub use DangerLevel::{Destructive, Mutating, Safe};
pub use SideEffects::{Complete, None as NoEffects, Partial};

pub const USAGE: ExitCode = code_when(exit::ARG_ERROR, NoEffects, "bad usage");

pub const READ_ONLY: &[ExitCode] = &[
    code(exit::SUCCESS, NoEffects),
    USAGE,
    code(exit::NOT_FOUND, NoEffects),
];

/// Commands that read a skill and report on it.
pub const SKILL_READER: &[ExitCode] = &[
    code(exit::SUCCESS, NoEffects),
    code_when(exit::VALIDATION_FAILED, NoEffects, "a skill has errors"),
    USAGE,
    code_when(exit::NOT_FOUND, NoEffects, "a path does not exist"),
];

/// `skill fmt` and `skill fix`: each file is written whole or not at all,
/// but a run over many may write some and fail on others.
pub const SKILL_REWRITER: &[ExitCode] = &[
    code_when(exit::SUCCESS, Complete, "every file is (now) canonical"),
    code_when(
        exit::GENERAL_ERROR,
        Partial,
        "--check found a file to change, or a fix could not be made",
    ),
    USAGE,
    code_when(exit::NOT_FOUND, NoEffects, "a path does not exist"),
];

/// Commands that read the registry of declarations.
pub const REGISTRY_READER: &[ExitCode] = &[
    code(exit::SUCCESS, NoEffects),
    code_when(
        exit::ARG_ERROR,
        NoEffects,
        "bad usage, or (args check) an argument was rejected",
    ),
    code_when(
        exit::PRECONDITION,
        NoEffects,
        "a declaration it needs is invalid",
    ),
    code_when(
        exit::NOT_FOUND,
        NoEffects,
        "the registry or the named command does not exist",
    ),
];

/// What a mutating command did (CLI Agent Spec REQ-C-003), in its `data`
/// as `effect`; a dry run says what it would have done (REQ-C-004,
/// `would_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Created,
    Updated,
    Deleted,
    /// Nothing needed doing, or nothing was written.
    Noop,
    WouldCreate,
    WouldUpdate,
    WouldDelete,
}

impl Effect {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
            Self::Updated => "updated",
            Self::Deleted => "deleted",
            Self::Noop => "noop",
            Self::WouldCreate => "would_create",
            Self::WouldUpdate => "would_update",
            Self::WouldDelete => "would_delete",
        }
    }

    /// What `hook install`/`uninstall` did to the hook entry, from its
    /// `data.action` (src/hook/install: `created` and `added` make the
    /// entry, `replaced` changes it, `removed` and `file_removed` take it
    /// out) and `data.dry_run`.
    pub fn of_hook_action(action: &str, dry_run: bool) -> Option<Self> {
        let done = match action {
            "created" | "added" => Self::Created,
            "replaced" => Self::Updated,
            "removed" | "file_removed" => Self::Deleted,
            "unchanged" | "not_installed" => Self::Noop,
            _ => return None,
        };
        Some(match (done, dry_run) {
            (Self::Created, true) => Self::WouldCreate,
            (Self::Updated, true) => Self::WouldUpdate,
            (Self::Deleted, true) => Self::WouldDelete,
            (done, _) => done,
        })
    }

    /// `Updated` when something changed, else `Noop`; for a dry run,
    /// `WouldUpdate` when something would.
    pub const fn of_changes(changed: bool, dry_run: bool) -> Self {
        match (changed, dry_run) {
            (false, _) => Self::Noop,
            (true, false) => Self::Updated,
            (true, true) => Self::WouldUpdate,
        }
    }
}

/// `outcome` with `effect` in its `data` (an object; other data is left
/// as it is).
pub fn with_effect(
    mut outcome: aigent::report::Outcome,
    effect: Effect,
) -> aigent::report::Outcome {
    if let Some(data) = outcome.data.as_object_mut() {
        data.insert("effect".to_owned(), effect.as_str().into());
    }
    outcome
}
