//! `aigent --schema`: aigent's own manifest in the CLI Agent Spec sense, so
//! an agent can introspect aigent instead of parsing `--help`.
//!
//! Everything that clap knows (commands, flags, types, defaults, help) is
//! read from the clap definition, so the manifest cannot drift from the
//! parser. What clap cannot know (danger level, exit codes) sits in one
//! table below, and a test fails when a leaf command is missing from it.

use std::any::TypeId;

use clap::{Arg, ArgAction};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use aigent::contract::{DangerLevel, SideEffects};
use aigent::report::{Outcome, exit};

use super::CliError;

/// Version of the manifest's own shape.
pub const SCHEMA_VERSION: &str = "1.0";

/// The CLI Agent Spec revision aigent follows, and whose requirement ids
/// (REQ-...) the docs cite.
pub const SPEC_REVISION: &str = "cli-agent-spec v1.6";

/// What clap cannot say about a leaf command.
pub struct Contract {
    /// Dot-separated path, as the manifest keys it (`skill.validate`).
    path: &'static str,
    danger_level: DangerLevel,
    exit_codes: &'static [ExitCode],
}

/// One exit status a command can return: how much of the world it says
/// was changed (CLI Agent Spec), and what it means for this command
/// (`None`: the general meaning in [`exit::TABLE`]).
#[derive(Clone, Copy)]
pub struct ExitCode {
    code: i32,
    side_effects: SideEffects,
    when: Option<&'static str>,
}

impl ExitCode {
    fn when(&self) -> &'static str {
        self.when.unwrap_or_else(|| exit_entry(self.code).1)
    }
}

/// `code` with its general meaning.
const fn code(code: i32, side_effects: SideEffects) -> ExitCode {
    ExitCode {
        code,
        side_effects,
        when: None,
    }
}

/// `code` with what it means for one command.
const fn code_when(code: i32, side_effects: SideEffects, when: &'static str) -> ExitCode {
    ExitCode {
        code,
        side_effects,
        when: Some(when),
    }
}

use DangerLevel::{Destructive, Mutating, Safe};
use SideEffects::{Complete, None as NoEffects, Partial};

const USAGE: ExitCode = code_when(exit::ARG_ERROR, NoEffects, "bad usage");

const READ_ONLY: &[ExitCode] = &[
    code(exit::SUCCESS, NoEffects),
    USAGE,
    code(exit::NOT_FOUND, NoEffects),
];

/// Commands that read a skill and report on it.
const SKILL_READER: &[ExitCode] = &[
    code(exit::SUCCESS, NoEffects),
    code_when(exit::VALIDATION_FAILED, NoEffects, "a skill has errors"),
    USAGE,
    code_when(exit::NOT_FOUND, NoEffects, "a path does not exist"),
];

/// `skill fmt` and `skill fix`: each file is written whole or not at all,
/// but a run over many may write some and fail on others.
const SKILL_REWRITER: &[ExitCode] = &[
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
const REGISTRY_READER: &[ExitCode] = &[
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

/// `hook install` and `hook uninstall`: one settings file, written whole
/// (with a backup) or not at all.
const HOOK_INSTALLER: &[ExitCode] = &[
    code_when(
        exit::SUCCESS,
        Complete,
        "the settings file holds (or no longer holds) aigent's hook; --dry-run wrote nothing",
    ),
    USAGE,
    code_when(
        exit::PRECONDITION,
        NoEffects,
        "the settings file is malformed, or unsafe to write (a symlink out of the project, a hard link)",
    ),
    code_when(
        exit::NOT_FOUND,
        NoEffects,
        "the project or registry directory does not exist",
    ),
    code_when(
        exit::CONFLICT,
        NoEffects,
        "an aigent entry runs another command (install without --replace), or the file changed meanwhile",
    ),
];

const fn contract(
    path: &'static str,
    danger_level: DangerLevel,
    exit_codes: &'static [ExitCode],
) -> Contract {
    Contract {
        path,
        danger_level,
        exit_codes,
    }
}

/// The one table that `--help` (hence the man pages), `aigent --schema`
/// and docs/reference/exit-codes.md read.
const CONTRACTS: &[Contract] = &[
    contract(
        "skill.validate",
        Safe,
        &[
            code_when(
                exit::SUCCESS,
                NoEffects,
                "all valid (warnings allowed unless --strict)",
            ),
            code_when(exit::VALIDATION_FAILED, NoEffects, "a skill has errors"),
            USAGE,
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "--changed outside a git work tree, or no history shared with the base",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "a path does not exist, --recursive found no skill, or --base names no commit",
            ),
        ],
    ),
    contract(
        "skill.new",
        Mutating,
        &[
            code_when(exit::SUCCESS, Complete, "created"),
            code_when(exit::GENERAL_ERROR, NoEffects, "not confirmed"),
            code_when(
                exit::ARG_ERROR,
                NoEffects,
                "a bad answer, or no terminal without --yes",
            ),
            code_when(
                exit::CONFLICT,
                NoEffects,
                "PATH already holds a skill or is not empty",
            ),
            code_when(exit::INTERRUPTED, NoEffects, "interrupted (Ctrl-C)"),
        ],
    ),
    contract("skill.fmt", Mutating, SKILL_REWRITER),
    contract("skill.fix", Mutating, SKILL_REWRITER),
    contract("skill.read-properties", Safe, SKILL_READER),
    contract("skill.to-prompt", Safe, SKILL_READER),
    contract(
        "skill.contracts",
        Safe,
        &[
            code_when(
                exit::SUCCESS,
                NoEffects,
                "every grant and command has a standing (findings are data)",
            ),
            USAGE,
            code_when(exit::NOT_FOUND, NoEffects, "the registry does not exist"),
        ],
    ),
    contract(
        "plugin.validate",
        Safe,
        &[
            code_when(
                exit::SUCCESS,
                NoEffects,
                "all valid (warnings allowed unless --strict)",
            ),
            code_when(
                exit::VALIDATION_FAILED,
                NoEffects,
                "a manifest, plugin or skill has errors",
            ),
            USAGE,
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "--changed outside a git work tree, or no history shared with the base",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "a path does not exist, or --base names no commit",
            ),
        ],
    ),
    contract("schema.list", Safe, REGISTRY_READER),
    contract("schema.show", Safe, REGISTRY_READER),
    contract(
        "schema.lint",
        Safe,
        &[
            code_when(
                exit::SUCCESS,
                NoEffects,
                "no declaration has an error (warnings allowed)",
            ),
            USAGE,
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "a declaration has an error, or --changed outside a git work tree",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "the registry does not exist, or --base names no commit",
            ),
        ],
    ),
    contract(
        "schema.export",
        Mutating,
        &[
            code_when(
                exit::SUCCESS,
                Complete,
                "the policy document is written (stdout, or --output FILE)",
            ),
            USAGE,
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "--output names an existing file (without --force), or a named declaration has errors",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "the registry or a named command does not exist",
            ),
            code_when(exit::GENERAL_ERROR, NoEffects, "--output cannot be written"),
        ],
    ),
    contract(
        "schema.import",
        Mutating,
        &[
            code_when(
                exit::SUCCESS,
                Complete,
                "the declarations are written (or, with --dry-run, reported)",
            ),
            code_when(
                exit::ARG_ERROR,
                NoEffects,
                "bad usage, a spec that is not valid JSON/KDL or not of the format (INVALID_SPEC), or no --program for a manifest",
            ),
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "a target is a symlink or not a regular file (UNSAFE_WRITE)",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "the spec file or the directory does not exist",
            ),
            code_when(
                exit::CONFLICT,
                NoEffects,
                "a declaration of the same name exists (without --force)",
            ),
            code_when(exit::GENERAL_ERROR, NoEffects, "a file cannot be written"),
        ],
    ),
    contract("args.check", Safe, REGISTRY_READER),
    contract(
        "run",
        Destructive,
        &[
            code_when(
                exit::SUCCESS,
                Complete,
                "the command ran and exited with a status its declaration counts as success (success_exit_codes, [0] by default); child_exit_code and child_exit give it",
            ),
            code_when(
                exit::GENERAL_ERROR,
                Partial,
                "the command could not be started",
            ),
            code_when(
                exit::ARG_ERROR,
                NoEffects,
                "bad usage, or an argument failed Phase 1; nothing ran (never the child's own 2)",
            ),
            code_when(
                exit::COMMAND_FAILED,
                Partial,
                "the command ran and exited with any other status: error.code COMMAND_FAILED, the status in child_exit_code, its declared name in child_exit",
            ),
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "the registry or declaration is invalid, the program is not executable, or the audit log cannot be written",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "no declared command of that name, or its program does not exist",
            ),
            code_when(
                exit::TIMEOUT,
                Partial,
                "--timeout expired; the command's process group was killed",
            ),
            code_when(
                exit::HUNG_UP,
                Partial,
                "SIGHUP, passed on to the command, which was stopped",
            ),
            code_when(
                exit::INTERRUPTED,
                Partial,
                "Ctrl-C (SIGINT), passed on to the command, which was stopped",
            ),
            code_when(
                exit::QUIT,
                Partial,
                "SIGQUIT, passed on to the command, which was stopped",
            ),
            code_when(
                exit::TERMINATED,
                Partial,
                "SIGTERM, passed on to the command, which was stopped",
            ),
        ],
    ),
    contract(
        "audit.show",
        Safe,
        &[
            code(exit::SUCCESS, NoEffects),
            USAGE,
            code_when(exit::PRECONDITION, NoEffects, "the log cannot be read"),
            code_when(exit::NOT_FOUND, NoEffects, "there is no audit log"),
        ],
    ),
    contract(
        "audit.verify",
        Safe,
        &[
            code_when(exit::SUCCESS, NoEffects, "the chain is intact"),
            code_when(
                exit::VALIDATION_FAILED,
                NoEffects,
                "a record was edited, deleted, reordered or cut off: the first bad line is named",
            ),
            USAGE,
            code_when(exit::PRECONDITION, NoEffects, "the log cannot be read"),
            code_when(exit::NOT_FOUND, NoEffects, "there is no audit log"),
        ],
    ),
    contract(
        "audit.key.new",
        Mutating,
        &[
            code_when(exit::SUCCESS, Complete, "the key pair was written"),
            USAGE,
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "PATH or PATH.pub exists, or cannot be written",
            ),
        ],
    ),
    contract(
        "audit.export",
        Mutating,
        &[
            code_when(exit::SUCCESS, Complete, "every record was sent"),
            USAGE,
            code_when(
                exit::PRECONDITION,
                Partial,
                "a collector was down, slow or refused: the records it accepted are sent, the next export resumes",
            ),
            code_when(exit::NOT_FOUND, NoEffects, "there is no audit log"),
        ],
    ),
    contract(
        "hook.explain",
        Safe,
        &[
            code_when(
                exit::SUCCESS,
                NoEffects,
                "the line was judged (the verdict is in the output)",
            ),
            USAGE,
            code_when(
                exit::PRECONDITION,
                NoEffects,
                "aigent.toml is invalid, or the registry cannot be read",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "the registry directory does not exist",
            ),
        ],
    ),
    contract("hook.install", Mutating, HOOK_INSTALLER),
    contract("hook.uninstall", Mutating, HOOK_INSTALLER),
    contract(
        "mcp.serve",
        Destructive,
        &[
            code_when(exit::SUCCESS, Complete, "the client closed the session"),
            code_when(exit::GENERAL_ERROR, Partial, "the transport failed"),
            code_when(
                exit::ARG_ERROR,
                NoEffects,
                "bad usage, or nothing to serve (no registry and no --skills)",
            ),
            code_when(
                exit::NOT_FOUND,
                NoEffects,
                "the registry or a --skills directory does not exist",
            ),
        ],
    ),
    contract(
        "lsp",
        Safe,
        &[
            code_when(
                exit::SUCCESS,
                NoEffects,
                "the client shut the server down, then exited",
            ),
            code_when(
                exit::GENERAL_ERROR,
                NoEffects,
                "the client exited or went away without a shutdown, or the transport failed",
            ),
            USAGE,
        ],
    ),
    contract("completions", Safe, READ_ONLY),
];

/// Adds each leaf command's danger level and exit codes, from
/// [`CONTRACTS`], to the end of its `--help`, so help, man pages and the
/// manifest read one table.
pub fn with_contracts(mut root: clap::Command) -> clap::Command {
    for contract in CONTRACTS {
        let path: Vec<&str> = contract.path.split('.').collect();
        root = mut_path(root, &path, &|leaf| {
            let help = leaf
                .get_after_help()
                .map(|help| help.to_string())
                .unwrap_or_default();
            let block = help_block(contract);
            leaf.after_help(if help.is_empty() {
                block
            } else {
                format!("{help}\n\n{block}")
            })
        });
    }
    root
}

fn mut_path(
    command: clap::Command,
    path: &[&str],
    change: &dyn Fn(clap::Command) -> clap::Command,
) -> clap::Command {
    match path {
        [] => change(command),
        [first, rest @ ..] => command.mut_subcommand(*first, |sub| mut_path(sub, rest, change)),
    }
}

/// `Danger level: safe` and what each exit status means for this
/// command. The names are in `aigent --schema` and
/// docs/reference/exit-codes.md.
pub fn help_block(contract: &Contract) -> String {
    let width = contract
        .exit_codes
        .iter()
        .map(|entry| entry.code.to_string().len())
        .max()
        .unwrap_or(1);
    let codes: String = contract
        .exit_codes
        .iter()
        .map(|entry| format!("\n  {:>width$}  {}", entry.code, entry.when()))
        .collect();
    format!(
        "Danger level: {}\n\nExit status:{codes}",
        contract.danger_level.as_str()
    )
}

/// One Markdown row per leaf command: path, danger level, exit codes.
pub fn contracts_rows() -> String {
    CONTRACTS
        .iter()
        .map(|contract| {
            let codes: Vec<String> = contract
                .exit_codes
                .iter()
                .map(|entry| format!("{} {}", entry.code, exit_entry(entry.code).0))
                .collect();
            format!(
                "| `aigent {}` | {} | {} |\n",
                contract.path.replace('.', " "),
                contract.danger_level.as_str(),
                codes.join(", ")
            )
        })
        .collect()
}

fn exit_entry(code: i32) -> (&'static str, &'static str) {
    exit::TABLE
        .iter()
        .find(|(known, _, _)| *known == code)
        .map(|(_, name, description)| (*name, *description))
        .unwrap_or(("UNKNOWN", ""))
}

/// Codes whose entry says the same call may simply be retried once the
/// input is fixed.
fn retryable(code: i32) -> bool {
    code == exit::ARG_ERROR
}

/// The whole manifest, or one command's entry (`path` such as
/// `["skill", "validate"]`), as an outcome printed like any other.
pub fn outcome(path: &[String]) -> Result<Outcome, CliError> {
    let mut manifest = manifest(&super::command());
    if !path.is_empty() {
        let key = path.join(".");
        let commands = manifest["commands"]
            .as_object_mut()
            .expect("commands is an object");
        let entry = commands.remove(&key).ok_or_else(|| {
            CliError::not_found(format!("no command `aigent {}`", path.join(" ")))
        })?;
        commands.clear();
        commands.insert(key, entry);
    }
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|err| CliError::general(err.to_string()))?;
    Ok(Outcome::success(manifest, format!("{text}\n")))
}

/// Builds the manifest: `schema_version`, `tool_version`, `etag` (sha256 of
/// the canonical JSON of everything else) and `commands` keyed by
/// dot-separated path, groups included.
pub fn manifest(root: &clap::Command) -> Value {
    let mut root = root.clone();
    root.build();
    let mut commands = Map::new();
    for sub in root
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
    {
        collect(sub, &[], &mut commands);
    }
    let mut manifest = json!({
        "schema_version": SCHEMA_VERSION,
        "spec": SPEC_REVISION,
        "tool_version": aigent::report::TOOL_VERSION,
        "framework_version": aigent::report::TOOL_VERSION,
        "commands": commands,
    });
    let etag = etag(&manifest);
    manifest
        .as_object_mut()
        .expect("manifest is an object")
        .insert("etag".to_owned(), Value::String(etag));
    manifest
}

fn collect(command: &clap::Command, parents: &[&str], out: &mut Map<String, Value>) {
    let mut path: Vec<&str> = parents.to_vec();
    path.push(command.get_name());
    let key = path.join(".");
    let children: Vec<&clap::Command> = command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
        .collect();
    let mut entry = Map::new();
    entry.insert("description".into(), about(command).into());
    let (flags, arguments) = flags_and_arguments(command);
    if children.is_empty() {
        let contract = contract_of(&key);
        entry.insert(
            "danger_level".into(),
            contract.map_or(Safe, |c| c.danger_level).as_str().into(),
        );
        // aigent's own commands never ask; `run` and `mcp serve` refuse a
        // declared destructive command unless the caller confirms it.
        entry.insert("requires_confirmation".into(), false.into());
        if matches!(key.as_str(), "run" | "mcp.serve") {
            entry.insert(
                "confirmation".into(),
                json!({
                    "flag": "--confirm-destructive",
                    "when": "the declared command's danger_level is destructive (see its requires_confirmation in `schema show`)",
                    "refusal_code": aigent::report::ErrorCode::ConfirmationRequired,
                }),
            );
        }
        entry.insert("required_scopes".into(), json!([]));
        entry.insert("flags".into(), flags.into());
        if !arguments.is_empty() {
            entry.insert("arguments".into(), arguments.into());
        }
        let codes = contract.map_or(READ_ONLY, |c| c.exit_codes);
        entry.insert("exit_codes".into(), exit_codes(codes).into());
        let examples = examples(command);
        if !examples.is_empty() {
            entry.insert("examples".into(), examples.into());
        }
    } else {
        entry.insert("danger_level".into(), "safe".into());
        entry.insert("required_scopes".into(), json!([]));
        entry.insert("flags".into(), flags.into());
        entry.insert("exit_codes".into(), exit_codes(READ_ONLY).into());
        let subcommands: Vec<String> = children
            .iter()
            .map(|child| format!("{key}.{}", child.get_name()))
            .collect();
        entry.insert("subcommands".into(), subcommands.into());
    }
    out.insert(key, Value::Object(entry));
    for child in children {
        collect(child, &path, out);
    }
}

fn contract_of(path: &str) -> Option<&'static Contract> {
    CONTRACTS.iter().find(|contract| contract.path == path)
}

fn about(command: &clap::Command) -> String {
    command
        .get_about()
        .map(|about| about.to_string())
        .unwrap_or_default()
}

/// Options keyed by long name without `--`, and positionals keyed by their
/// value name, in declaration order.
fn flags_and_arguments(command: &clap::Command) -> (Map<String, Value>, Map<String, Value>) {
    let mut flags = Map::new();
    let mut arguments = Map::new();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if arg.is_hide_set() || matches!(id, "help" | "version") {
            continue;
        }
        if arg.is_positional() {
            let name = arg
                .get_value_names()
                .and_then(|names| names.first())
                .map_or_else(|| id.to_uppercase(), |name| name.to_string());
            arguments.insert(name, flag_entry(arg));
        } else {
            let name = arg.get_long().map_or_else(|| id.to_owned(), str::to_owned);
            flags.insert(name, flag_entry(arg));
        }
    }
    (flags, arguments)
}

fn flag_entry(arg: &Arg) -> Value {
    let mut entry = Map::new();
    let kind = value_type(arg);
    entry.insert("type".into(), kind.into());
    entry.insert("required".into(), arg.is_required_set().into());
    let help = arg
        .get_help()
        .map(|help| help.to_string())
        .unwrap_or_default();
    entry.insert("description".into(), help.into());
    if kind == "enum" {
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|value| !value.is_hide_set())
            .map(|value| value.get_name().to_owned())
            .collect();
        entry.insert("enum_values".into(), values.into());
    }
    if let Some(default) = default_value(arg, kind) {
        entry.insert("default".into(), default);
    }
    if let Some(short) = arg.get_short() {
        entry.insert("short".into(), short.to_string().into());
    }
    if let Some(env) = arg.get_env() {
        entry.insert("env".into(), env.to_string_lossy().into_owned().into());
    }
    Value::Object(entry)
}

fn value_type(arg: &Arg) -> &'static str {
    if matches!(arg.get_action(), ArgAction::SetTrue | ArgAction::SetFalse) {
        return "boolean";
    }
    if matches!(arg.get_action(), ArgAction::Count) {
        return "integer";
    }
    let many = matches!(arg.get_action(), ArgAction::Append)
        || arg
            .get_num_args()
            .is_some_and(|range| range.max_values() > 1);
    if many {
        return "array";
    }
    if !arg.get_possible_values().is_empty() {
        return "enum";
    }
    let parsed = arg.get_value_parser().type_id();
    let integers = [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
    ];
    if integers.iter().any(|id| parsed == *id) {
        "integer"
    } else if parsed == TypeId::of::<f64>()
        || parsed == TypeId::of::<f32>()
        || parsed == TypeId::of::<std::time::Duration>()
    {
        "number"
    } else {
        "string"
    }
}

fn default_value(arg: &Arg, kind: &str) -> Option<Value> {
    if kind == "boolean" {
        return Some(Value::Bool(matches!(arg.get_action(), ArgAction::SetFalse)));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|value| value.to_string_lossy().into_owned())
        .collect();
    match (kind, defaults.as_slice()) {
        (_, []) => None,
        ("array", values) => Some(values.to_vec().into()),
        ("integer", [value]) => value.parse::<i64>().ok().map(Value::from),
        ("number", [value]) => value.parse::<f64>().ok().map(Value::from),
        (_, [value]) => Some(value.clone().into()),
        (_, values) => Some(values.to_vec().into()),
    }
}

fn exit_codes(codes: &[ExitCode]) -> Map<String, Value> {
    codes
        .iter()
        .map(|entry| {
            let value = json!({
                "name": exit_entry(entry.code).0,
                "description": entry.when(),
                "retryable": retryable(entry.code),
                "side_effects": entry.side_effects.as_str(),
            });
            (entry.code.to_string(), value)
        })
        .collect()
}

/// Example invocations, read from the `Examples:` block of `after_help` so
/// help and manifest say the same thing.
fn examples(command: &clap::Command) -> Vec<Value> {
    let Some(after_help) = command.get_after_help().map(|help| help.to_string()) else {
        return Vec::new();
    };
    after_help
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("aigent "))
        .map(|line| json!({"command": line}))
        .collect()
}

/// sha256 of the canonical JSON (keys sorted, no whitespace), so the etag
/// changes exactly when the manifest's content does.
fn etag(manifest: &Value) -> String {
    let canonical = canonical(manifest).to_string();
    let digest = Sha256::digest(canonical.as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|key| (key.clone(), canonical(&map[key])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf_paths(command: &clap::Command, parents: &[&str], out: &mut Vec<String>) {
        for sub in command
            .get_subcommands()
            .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
        {
            let mut path = parents.to_vec();
            path.push(sub.get_name());
            if sub
                .get_subcommands()
                .all(|child| child.get_name() == "help")
            {
                out.push(path.join("."));
            } else {
                leaf_paths(sub, &path, out);
            }
        }
    }

    #[test]
    fn every_leaf_command_has_a_contract_and_every_contract_a_leaf() {
        let mut root = super::super::command();
        root.build();
        let mut leaves = Vec::new();
        leaf_paths(&root, &[], &mut leaves);
        for leaf in &leaves {
            assert!(
                contract_of(leaf).is_some(),
                "add `{leaf}` to CONTRACTS in manifest.rs"
            );
        }
        for contract in CONTRACTS {
            assert!(
                leaves.iter().any(|leaf| leaf == contract.path),
                "CONTRACTS names `{}`, which is not a command",
                contract.path
            );
        }
    }

    /// `--help`, the manifest and docs/reference/exit-codes.md all read
    /// CONTRACTS: each leaf's help ends with its block, and its manifest
    /// entry lists the same codes with the same meanings.
    #[test]
    fn help_and_manifest_read_the_one_table() {
        let root = super::super::command();
        let manifest = manifest(&root);
        let docs = contracts_rows();
        for contract in CONTRACTS {
            let mut leaf = root.clone();
            for name in contract.path.split('.') {
                leaf = leaf.find_subcommand(name).expect("a command").clone();
            }
            let help = leaf.get_after_help().expect("after_help").to_string();
            assert!(help.ends_with(&help_block(contract)), "{}", contract.path);
            let entry = &manifest["commands"][contract.path];
            assert_eq!(entry["danger_level"], contract.danger_level.as_str());
            let listed: Vec<(String, String)> = entry["exit_codes"]
                .as_object()
                .expect("exit_codes")
                .iter()
                .map(|(code, value)| (code.clone(), value["description"].to_string()))
                .collect();
            let table: Vec<(String, String)> = contract
                .exit_codes
                .iter()
                .map(|code| (code.code.to_string(), Value::from(code.when()).to_string()))
                .collect();
            assert_eq!(listed, table, "{}", contract.path);
            let row = format!("| `aigent {}` |", contract.path.replace('.', " "));
            assert!(docs.contains(&row), "{row}");
        }
    }

    #[test]
    fn retryable_codes_have_no_side_effects() {
        for contract in CONTRACTS {
            for entry in contract.exit_codes {
                if retryable(entry.code) {
                    assert_eq!(
                        entry.side_effects, NoEffects,
                        "{} code {}",
                        contract.path, entry.code
                    );
                }
            }
        }
    }

    #[test]
    fn etag_ignores_key_order_but_not_content() {
        let a = json!({"a": 1, "b": {"c": 2, "d": 3}});
        let b = json!({"b": {"d": 3, "c": 2}, "a": 1});
        let c = json!({"a": 1, "b": {"c": 2, "d": 4}});
        assert_eq!(etag(&a), etag(&b));
        assert_ne!(etag(&a), etag(&c));
    }
}
