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

use aigent::report::{Outcome, exit};

use super::CliError;

/// Version of the manifest's own shape.
pub const SCHEMA_VERSION: &str = "1.0";

/// How much of the world a code says was changed (CLI Agent Spec).
#[derive(Clone, Copy)]
enum SideEffects {
    None,
    Partial,
    Complete,
}

impl SideEffects {
    fn as_str(self) -> &'static str {
        match self {
            SideEffects::None => "none",
            SideEffects::Partial => "partial",
            SideEffects::Complete => "complete",
        }
    }
}

/// What clap cannot say about a leaf command.
pub struct Contract {
    /// Dot-separated path, as the manifest keys it (`skill.validate`).
    path: &'static str,
    danger_level: &'static str,
    exit_codes: &'static [(i32, SideEffects)],
}

use SideEffects::{Complete, None as NoEffects, Partial};

const READ_ONLY: &[(i32, SideEffects)] = &[
    (exit::SUCCESS, NoEffects),
    (exit::ARG_ERROR, NoEffects),
    (exit::NOT_FOUND, NoEffects),
];

/// Commands that read a skill and report on it.
const SKILL_READER: &[(i32, SideEffects)] = &[
    (exit::SUCCESS, NoEffects),
    (exit::VALIDATION_FAILED, NoEffects),
    (exit::ARG_ERROR, NoEffects),
    (exit::NOT_FOUND, NoEffects),
];

/// Commands that read the registry of declarations.
const REGISTRY_READER: &[(i32, SideEffects)] = &[
    (exit::SUCCESS, NoEffects),
    (exit::ARG_ERROR, NoEffects),
    (exit::PRECONDITION, NoEffects),
    (exit::NOT_FOUND, NoEffects),
];

const fn contract(
    path: &'static str,
    danger_level: &'static str,
    exit_codes: &'static [(i32, SideEffects)],
) -> Contract {
    Contract {
        path,
        danger_level,
        exit_codes,
    }
}

const CONTRACTS: &[Contract] = &[
    contract(
        "skill.validate",
        "safe",
        &[
            (exit::SUCCESS, NoEffects),
            (exit::VALIDATION_FAILED, NoEffects),
            (exit::ARG_ERROR, NoEffects),
            (exit::PRECONDITION, NoEffects),
            (exit::NOT_FOUND, NoEffects),
        ],
    ),
    contract(
        "skill.new",
        "mutating",
        &[
            (exit::SUCCESS, Complete),
            (exit::GENERAL_ERROR, NoEffects),
            (exit::ARG_ERROR, NoEffects),
            (exit::CONFLICT, NoEffects),
            (exit::INTERRUPTED, NoEffects),
        ],
    ),
    contract("skill.read-properties", "safe", SKILL_READER),
    contract("skill.to-prompt", "safe", SKILL_READER),
    contract("plugin.validate", "safe", SKILL_READER),
    contract("schema.list", "safe", REGISTRY_READER),
    contract("schema.show", "safe", REGISTRY_READER),
    contract("schema.lint", "safe", REGISTRY_READER),
    contract("args.check", "safe", REGISTRY_READER),
    contract(
        "run",
        "destructive",
        &[
            (exit::SUCCESS, Complete),
            (exit::GENERAL_ERROR, Partial),
            (exit::ARG_ERROR, NoEffects),
            (exit::PRECONDITION, NoEffects),
            (exit::NOT_FOUND, NoEffects),
            (exit::TIMEOUT, Partial),
            (exit::HUNG_UP, Partial),
            (exit::INTERRUPTED, Partial),
            (exit::QUIT, Partial),
            (exit::TERMINATED, Partial),
        ],
    ),
    contract(
        "audit.show",
        "safe",
        &[
            (exit::SUCCESS, NoEffects),
            (exit::ARG_ERROR, NoEffects),
            (exit::PRECONDITION, NoEffects),
            (exit::NOT_FOUND, NoEffects),
        ],
    ),
    contract(
        "audit.verify",
        "safe",
        &[
            (exit::SUCCESS, NoEffects),
            (exit::VALIDATION_FAILED, NoEffects),
            (exit::ARG_ERROR, NoEffects),
            (exit::PRECONDITION, NoEffects),
            (exit::NOT_FOUND, NoEffects),
        ],
    ),
    contract(
        "mcp.serve",
        "destructive",
        &[
            (exit::SUCCESS, Complete),
            (exit::GENERAL_ERROR, Partial),
            (exit::ARG_ERROR, NoEffects),
            (exit::NOT_FOUND, NoEffects),
        ],
    ),
    contract("completions", "safe", READ_ONLY),
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

/// `Danger level: safe` and the exit codes by name. What each means in
/// general is in `aigent --schema` and docs/reference/output.md.
pub fn help_block(contract: &Contract) -> String {
    let codes: Vec<String> = contract
        .exit_codes
        .iter()
        .map(|&(code, _)| format!("{code} {}", exit_entry(code).0))
        .collect();
    format!(
        "Danger level: {}\nExit status: {}",
        contract.danger_level,
        codes.join(", ")
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
                .map(|&(code, _)| format!("{code} {}", exit_entry(code).0))
                .collect();
            format!(
                "| `aigent {}` | {} | {} |\n",
                contract.path.replace('.', " "),
                contract.danger_level,
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
            contract.map_or("safe", |c| c.danger_level).into(),
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
                    "refusal_code": "CONFIRMATION_REQUIRED",
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

fn exit_codes(codes: &[(i32, SideEffects)]) -> Map<String, Value> {
    codes
        .iter()
        .map(|&(code, side_effects)| {
            let (name, description) = exit_entry(code);
            let entry = json!({
                "name": name,
                "description": description,
                "retryable": retryable(code),
                "side_effects": side_effects.as_str(),
            });
            (code.to_string(), entry)
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

    #[test]
    fn retryable_codes_have_no_side_effects() {
        for contract in CONTRACTS {
            for &(code, effects) in contract.exit_codes {
                if retryable(code) {
                    assert_eq!(effects.as_str(), "none", "{} code {code}", contract.path);
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
