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
use super::spec::{Contract, ExitCode, READ_ONLY, Safe};

/// Version of the manifest's own shape.
pub const SCHEMA_VERSION: &str = "1.0";

/// The CLI Agent Spec text aigent follows, and whose requirement ids
/// (REQ-...) the docs cite: the repository still calls itself v1.6, but
/// has changed under that label, so the commit is what names it
/// (docs/reference/agent-spec.md).
pub const SPEC_REVISION: &str =
    "cli-agent-spec/cli-agent-spec@6e163a8267fcdb107bae43c7bf14fb46ac2a47f1 (v1.6, 2026-08-06)";

/// The leaf commands in the manifest: every spec with a contract.
fn contracts() -> impl Iterator<Item = (&'static str, &'static Contract)> {
    super::specs().filter_map(|spec| spec.contract.as_ref().map(|contract| (spec.path, contract)))
}

/// The exit codes a command's spec declares, and TIMEOUT (10) where
/// aigent's own limit stops it (`deadline.rs`) and the spec does not
/// declare 10 itself.
pub fn exit_codes_of(path: &str, contract: &Contract) -> Vec<ExitCode> {
    let mut codes = contract.exit_codes.to_vec();
    if super::deadline::covers(path) && !codes.iter().any(|entry| entry.code == exit::TIMEOUT) {
        codes.push(super::deadline::exit_entry(contract.danger_level));
    }
    codes
}

fn when(entry: &ExitCode) -> &'static str {
    entry.when.unwrap_or_else(|| exit_entry(entry.code).1)
}

/// Adds each leaf command's danger level and exit codes, from its spec,
/// to the end of its `--help`, so help, man pages and the manifest read
/// one fact.
pub fn with_contracts(mut root: clap::Command) -> clap::Command {
    for (key, contract) in contracts() {
        let path: Vec<&str> = key.split('.').collect();
        root = mut_path(root, &path, &|leaf| {
            let help = leaf
                .get_after_help()
                .map(|help| help.to_string())
                .unwrap_or_default();
            let block = help_block(key, contract);
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
pub fn help_block(path: &str, contract: &Contract) -> String {
    let codes = exit_codes_of(path, contract);
    let width = codes
        .iter()
        .map(|entry| entry.code.to_string().len())
        .max()
        .unwrap_or(1);
    let codes: String = codes
        .iter()
        .map(|entry| format!("\n  {:>width$}  {}", entry.code, when(entry)))
        .collect();
    format!(
        "Danger level: {}\n\nExit status:{codes}",
        contract.danger_level.as_str()
    )
}

/// One Markdown row per leaf command: path, danger level, exit codes,
/// the `--output` values it speaks.
pub fn contracts_rows() -> String {
    super::specs()
        .filter_map(|spec| spec.contract.as_ref().map(|contract| (spec, contract)))
        .map(|(spec, contract)| {
            let codes: Vec<String> = exit_codes_of(spec.path, contract)
                .iter()
                .map(|entry| format!("{} {}", entry.code, exit_entry(entry.code).0))
                .collect();
            let formats = match spec.format_names() {
                Some(names) => names.join(", "),
                None => "its artifact, whatever the format".to_owned(),
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

/// The whole manifest, or one command's entry (`path` such as
/// `["skill", "validate"]`), as an outcome printed like any other. The
/// envelope's `meta` says which spec text it follows (`spec`) and holds
/// what the spec's `CommandEntry` has no key for: each command's
/// positional arguments (`positionals`, keyed by command path).
pub fn outcome(path: &[String]) -> Result<Outcome, CliError> {
    let Manifest {
        mut data,
        mut positionals,
    } = manifest(&super::documented_command());
    if !path.is_empty() {
        let key = path.join(".");
        let commands = data["commands"]
            .as_object_mut()
            .expect("commands is an object");
        let entry = commands.remove(&key).ok_or_else(|| {
            CliError::not_found(format!("no command `aigent {}`", path.join(" ")))
        })?;
        commands.clear();
        commands.insert(key.clone(), entry);
        positionals.retain(|known, _| *known == key);
    }
    let text =
        serde_json::to_string_pretty(&data).map_err(|err| CliError::general(err.to_string()))?;
    let mut outcome = Outcome::success(data, format!("{text}\n"));
    outcome.meta.insert("spec".to_owned(), SPEC_REVISION.into());
    outcome
        .meta
        .insert("positionals".to_owned(), Value::Object(positionals));
    Ok(outcome)
}

/// The manifest (`data`, a valid `ManifestResponse`) and what it cannot
/// hold: the positional arguments of each command that has some, keyed by
/// command path, each shaped as a flag entry, in order.
pub struct Manifest {
    pub data: Value,
    pub positionals: Map<String, Value>,
}

/// Builds the manifest: `schema_version`, `framework_version`, `etag`
/// (sha256 of the canonical JSON of everything else) and `commands` keyed
/// by dot-separated path, groups included. Nothing in it is outside the
/// spec's `manifest-response.json`.
pub fn manifest(root: &clap::Command) -> Manifest {
    let mut root = root.clone();
    root.build();
    let mut commands = Map::new();
    let mut positionals = Map::new();
    for sub in root
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
    {
        collect(sub, &[], &mut commands, &mut positionals);
    }
    let mut data = json!({
        "schema_version": SCHEMA_VERSION,
        "framework_version": aigent::report::TOOL_VERSION,
        "commands": commands,
    });
    let etag = etag(&data);
    data.as_object_mut()
        .expect("manifest is an object")
        .insert("etag".to_owned(), Value::String(etag));
    Manifest { data, positionals }
}

fn collect(
    command: &clap::Command,
    parents: &[&str],
    out: &mut Map<String, Value>,
    positionals: &mut Map<String, Value>,
) {
    let mut path: Vec<&str> = parents.to_vec();
    path.push(command.get_name());
    let key = path.join(".");
    let children: Vec<&clap::Command> = command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
        .collect();
    let mut entry = Map::new();
    let (flags, arguments) = flags_and_arguments(command);
    entry.insert(
        "description".into(),
        description(command, &path, &arguments).into(),
    );
    if !arguments.is_empty() {
        positionals.insert(key.clone(), Value::Object(arguments));
    }
    if children.is_empty() {
        let contract = contract_of(&key);
        entry.insert(
            "danger_level".into(),
            contract.map_or(Safe, |c| c.danger_level).as_str().into(),
        );
        let formats = super::specs()
            .find(|spec| spec.path == key)
            .and_then(|spec| spec.format_names());
        let mut flags = flags;
        if let Some(formats) = &formats {
            // `--output` here takes only what this command speaks.
            if let Some(Value::Object(flag)) = flags.get_mut("output") {
                flag.insert("enum_values".into(), formats.clone().into());
            }
            entry.insert("output_formats".into(), formats.clone().into());
        }
        entry.insert("flags".into(), flags.into());
        let codes = contract.map_or_else(|| READ_ONLY.to_vec(), |c| exit_codes_of(&key, c));
        entry.insert("exit_codes".into(), exit_codes(&codes).into());
        if let Some(schema) = contract.and_then(|c| c.output_schema) {
            entry.insert("output_schema".into(), schema());
        }
        let examples = examples(command);
        if !examples.is_empty() {
            entry.insert("examples".into(), examples.into());
        }
    } else {
        entry.insert("danger_level".into(), "safe".into());
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
        collect(child, &path, out, positionals);
    }
}

/// The command's one-line help; a command that takes positional arguments
/// also gets its usage line, since the spec's `flags` hold options only
/// (the arguments themselves are in the envelope's `meta.positionals`).
fn description(command: &clap::Command, path: &[&str], arguments: &Map<String, Value>) -> String {
    let about = about(command);
    if arguments.is_empty() {
        return about;
    }
    let words: Vec<String> = arguments
        .iter()
        .map(|(name, argument)| {
            let many = argument["type"] == "array";
            let word = if many {
                format!("{name}...")
            } else {
                name.clone()
            };
            if argument["required"] == true {
                word
            } else {
                format!("[{word}]")
            }
        })
        .collect();
    let about = about.trim_end_matches('.');
    format!(
        "{about}. Usage: aigent {} [OPTIONS] {}",
        path.join(" "),
        words.join(" ")
    )
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
    // The spec's flag entry has no key for a variable: the description
    // names it, as `--help` does.
    if let Some(env) = arg.get_env() {
        let described = format!(
            "{} [env: {}]",
            entry["description"].as_str().unwrap_or_default(),
            env.to_string_lossy()
        );
        entry.insert("description".into(), described.trim_start().into());
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
                "retryable": entry.retryable,
                "side_effects": entry.side_effects.as_str(),
            });
            (entry.code.to_string(), value)
        })
        .collect()
}

/// Example invocations, read from the `Examples:` block of `after_help` so
/// help and manifest say the same thing: each line that starts with
/// `aigent ` (joined with the next where it ends in `\`), described by its
/// trailing `# comment`, else by a `# comment` line just above it, else by
/// the command's own help line.
fn examples(command: &clap::Command) -> Vec<Value> {
    let Some(after_help) = command.get_after_help().map(|help| help.to_string()) else {
        return Vec::new();
    };
    let mut examples = Vec::new();
    let mut above: Option<String> = None;
    let mut lines = after_help.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if let Some(comment) = line.strip_prefix("# ") {
            above = Some(comment.trim().to_owned());
            continue;
        }
        let comment_above = above.take();
        if !line.starts_with("aigent ") {
            continue;
        }
        let mut text = line.to_owned();
        while let Some(head) = text.strip_suffix('\\') {
            let head = head.trim_end().to_owned();
            match lines.next() {
                Some(next) => text = format!("{head} {next}"),
                None => text = head,
            }
        }
        let (invocation, comment) = match text.rfind("  # ") {
            Some(at) => (
                text[..at].trim_end(),
                Some(text[at + 4..].trim().to_owned()),
            ),
            None => (text.as_str(), None),
        };
        let description = comment
            .filter(|comment| !comment.is_empty())
            .or(comment_above)
            .unwrap_or_else(|| about(command));
        examples.push(json!({"description": description, "command": invocation}));
    }
    examples
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

    /// The spec's limit on an exit code's `description` (`ExitCodeEntry`).
    const MAX_EXIT_DESCRIPTION: usize = 120;

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
        let manifest = manifest(&root).data;
        let docs = contracts_rows();
        for (path, contract) in contracts() {
            let mut leaf = root.clone();
            for name in path.split('.') {
                leaf = leaf.find_subcommand(name).expect("a command").clone();
            }
            let help = leaf.get_after_help().expect("after_help").to_string();
            assert!(help.ends_with(&help_block(path, contract)), "{path}");
            let entry = &manifest["commands"][path];
            assert_eq!(entry["danger_level"], contract.danger_level.as_str());
            let listed: Vec<(String, String)> = entry["exit_codes"]
                .as_object()
                .expect("exit_codes")
                .iter()
                .map(|(code, value)| (code.clone(), value["description"].to_string()))
                .collect();
            let table: Vec<(String, String)> = exit_codes_of(path, contract)
                .iter()
                .map(|code| (code.code.to_string(), Value::from(when(code)).to_string()))
                .collect();
            assert_eq!(listed, table, "{path}");
            let row = format!("| `aigent {}` |", path.replace('.', " "));
            assert!(docs.contains(&row), "{row}");
        }
    }

    /// `ExitCodeEntry`'s own rules: a description of 1 to 120 characters,
    /// and `retryable` only where nothing was changed.
    #[test]
    fn exit_code_entries_keep_the_specs_rules() {
        for (path, contract) in contracts() {
            for entry in &exit_codes_of(path, contract) {
                if entry.retryable {
                    assert_eq!(entry.side_effects, NoEffects, "{path} code {}", entry.code);
                }
                let description = when(entry);
                assert!(
                    !description.is_empty() && description.chars().count() <= MAX_EXIT_DESCRIPTION,
                    "{path} code {}: {} characters: {description}",
                    entry.code,
                    description.chars().count()
                );
            }
        }
        for (code, _, description) in exit::TABLE {
            assert!(
                description.chars().count() <= MAX_EXIT_DESCRIPTION,
                "exit {code}: {description}"
            );
        }
    }

    #[test]
    fn examples_take_their_description_from_the_comment_and_join_continued_lines() {
        let command = clap::Command::new("x").about("Does x").after_help(
            "Examples:\n  aigent x a   # the a case\n  # the b case\n  aigent x b \\\n      --long c\n  aigent x d\n  # not an example's\n  not aigent\n  aigent x e",
        );
        assert_eq!(
            Value::from(examples(&command)),
            json!([
                {"description": "the a case", "command": "aigent x a"},
                {"description": "the b case", "command": "aigent x b --long c"},
                {"description": "Does x", "command": "aigent x d"},
                {"description": "Does x", "command": "aigent x e"},
            ])
        );
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
