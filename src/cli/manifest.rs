//! `aigent --schema`: aigent's own manifest in the CLI Agent Spec sense, so
//! an agent can introspect aigent instead of parsing `--help`.
//!
//! Everything that clap knows (commands, flags, types, defaults, help) is
//! read from the clap definition, so the manifest cannot drift from the
//! parser. What clap cannot know (danger level, exit codes) is in each
//! command's spec (`spec.rs`), and a test fails when a leaf command has
//! none.

use std::any::TypeId;

use clap::{Arg, ArgAction};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use aigent::report::{Outcome, exit};

use super::CliError;
use super::spec::{Contract, ExitCode, Formats, READ_ONLY, Safe};

/// Version of the manifest's own shape.
pub const SCHEMA_VERSION: &str = "1.0";

/// The CLI Agent Spec revision aigent follows, and whose requirement ids
/// (REQ-...) the docs cite.
pub const SPEC_REVISION: &str = "cli-agent-spec v1.6";

/// The leaf commands in the manifest: every spec with a contract.
fn contracts() -> impl Iterator<Item = (&'static str, &'static Contract)> {
    super::specs().filter_map(|spec| spec.contract.as_ref().map(|contract| (spec.path, contract)))
}

fn when(entry: &ExitCode) -> &'static str {
    entry.when.unwrap_or_else(|| exit_entry(entry.code).1)
}

/// Adds each leaf command's danger level and exit codes, from its spec,
/// to the end of its `--help`, so help, man pages and the manifest read
/// one fact.
pub fn with_contracts(mut root: clap::Command) -> clap::Command {
    for (path, contract) in contracts() {
        let path: Vec<&str> = path.split('.').collect();
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
        .map(|entry| format!("\n  {:>width$}  {}", entry.code, when(entry)))
        .collect();
    format!(
        "Danger level: {}\n\nExit status:{codes}",
        contract.danger_level.as_str()
    )
}

/// One Markdown row per leaf command: path, danger level, exit codes,
/// the `--format` values it speaks.
pub fn contracts_rows() -> String {
    super::specs()
        .filter_map(|spec| spec.contract.as_ref().map(|contract| (spec, contract)))
        .map(|(spec, contract)| {
            let codes: Vec<String> = contract
                .exit_codes
                .iter()
                .map(|entry| format!("{} {}", entry.code, exit_entry(entry.code).0))
                .collect();
            let formats = match spec.formats {
                Formats::Report(extra) => std::iter::once("text, json")
                    .chain(extra.iter().map(|format| format.as_str()))
                    .collect::<Vec<_>>()
                    .join(", "),
                Formats::Artifact => "its artifact, whatever the format".to_owned(),
            };
            format!(
                "| `aigent {}` | {} | {} | {formats} |\n",
                spec.words(),
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
    contracts()
        .find(|(known, _)| *known == path)
        .map(|(_, contract)| contract)
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
                "description": when(entry),
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
    use crate::cli::spec::NoEffects;

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
                "give `{leaf}` a contract in its SPEC"
            );
        }
        for (path, _) in contracts() {
            assert!(
                leaves.iter().any(|leaf| leaf == path),
                "a SPEC with a contract names `{path}`, which is not a visible leaf command",
            );
        }
    }

    /// `--help`, the manifest and docs/reference/exit-codes.md all read the
    /// specs: each leaf's help ends with its block, and its manifest entry
    /// lists the same codes with the same meanings.
    #[test]
    fn help_and_manifest_read_the_one_table() {
        let root = super::super::command();
        let manifest = manifest(&root);
        let docs = contracts_rows();
        for (path, contract) in contracts() {
            let mut leaf = root.clone();
            for name in path.split('.') {
                leaf = leaf.find_subcommand(name).expect("a command").clone();
            }
            let help = leaf.get_after_help().expect("after_help").to_string();
            assert!(help.ends_with(&help_block(contract)), "{path}");
            let entry = &manifest["commands"][path];
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
                .map(|code| (code.code.to_string(), Value::from(when(code)).to_string()))
                .collect();
            assert_eq!(listed, table, "{path}");
            let row = format!("| `aigent {}` |", path.replace('.', " "));
            assert!(docs.contains(&row), "{row}");
        }
    }

    #[test]
    fn retryable_codes_have_no_side_effects() {
        for (path, contract) in contracts() {
            for entry in contract.exit_codes {
                if retryable(entry.code) {
                    assert_eq!(entry.side_effects, NoEffects, "{path} code {}", entry.code);
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
