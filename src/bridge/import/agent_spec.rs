//! A CLI Agent Spec manifest (`ManifestResponse`, the JSON `tool --schema`
//! or `tool manifest` prints) as a [`Spec`].
//!
//! The manifest is a flat map from a dot-separated command path
//! (`deploy.rollback`) to a command entry: `description`, `danger_level`,
//! `flags` (name without `--` → `type`, `required`, `description`,
//! `default`, `enum_values`, `short`), `exit_codes`, and optionally
//! `aliases`, `required_scopes`, `output_schema`, `examples` and
//! `subcommands`. A flag that is a resource id carries its validation
//! (REQ-C-020): `pattern` (an anchored regex) or `pattern_type` (a
//! built-in syntax); a string flag may also give its choices as `enum`,
//! and a number its bounds (`minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum`, `multipleOf`).
//! Each is carried into the declaration, so the guard enforces it; a
//! flag whose validation the declaration cannot hold is left out, never
//! imported without it. aigent's own manifest gives each command's
//! positionals (in order, shaped as flags are) in its envelope's
//! `meta.positionals`, keyed by command path (before 0.2, as the entry's
//! `arguments`), and `requires_confirmation`. Either the bare manifest or
//! a response envelope around it (`{"ok": ..., "data": {...}}`) is read.

use serde_json::{Map, Value};

use super::{Command, ImportError, Input, Kind, Skipped, Spec};
use crate::contract::DangerLevel;
use crate::contract::bounds::BOUND_FIELDS;

const FORMAT: &str = "CLI Agent Spec manifest";

/// The command entry's fields this reader maps, or knowingly leaves out.
const ENTRY_FIELDS: &[&str] = &[
    "description",
    "danger_level",
    "requires_confirmation",
    "flags",
    "arguments",
    "exit_codes",
    "subcommands",
    "aliases",
    "required_scopes",
    "output_schema",
    "examples",
];

/// The flag entry's fields this reader maps.
const FLAG_FIELDS: &[&str] = &[
    "type",
    "required",
    "description",
    "default",
    "enum_values",
    "short",
    "pattern",
    "pattern_type",
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The exit code entry's fields a declaration keeps.
const EXIT_CODE_FIELDS: &[&str] = &["name", "description", "retryable", "side_effects"];

fn shape(at: impl Into<String>, message: impl Into<String>) -> ImportError {
    ImportError::Shape {
        format: FORMAT,
        at: at.into(),
        message: message.into(),
    }
}

/// Reads a manifest.
pub fn read(text: &str) -> Result<Spec, ImportError> {
    let document: Value = serde_json::from_str(text).map_err(|err| ImportError::Syntax {
        format: FORMAT,
        line: err.line(),
        column: err.column(),
        message: strip_position(&err.to_string()),
    })?;
    let (manifest, at) = match document.get("data") {
        Some(data) if document.get("ok").is_some() => (data, "data"),
        _ => (&document, "the top level"),
    };
    let positionals = document
        .get("meta")
        .and_then(|meta| meta.get("positionals"))
        .and_then(Value::as_object);
    let Some(manifest) = manifest.as_object() else {
        return Err(shape(at, "not an object; a manifest is a JSON object"));
    };
    let Some(commands) = manifest.get("commands") else {
        return Err(shape(
            at,
            "no `commands`: not a CLI Agent Spec manifest (tool --schema)",
        ));
    };
    let Some(commands) = commands.as_object() else {
        return Err(shape(
            "commands",
            "not an object of command path → command entry",
        ));
    };
    let mut spec = Spec::default();
    for (path, entry) in commands {
        let at = format!("commands.{path}");
        let words: Vec<String> = path.split('.').map(str::to_owned).collect();
        let line = words.join(" ");
        if words
            .iter()
            .any(|word| word.trim().is_empty() || word.starts_with('-'))
        {
            spec.skipped.push(Skipped {
                command: line,
                reason: format!("`{path}` is not a dot-separated path of command words"),
            });
            continue;
        }
        let Some(entry) = entry.as_object() else {
            spec.skipped.push(Skipped {
                command: line,
                reason: format!("{at} is not an object"),
            });
            continue;
        };
        if entry
            .get("subcommands")
            .and_then(Value::as_array)
            .is_some_and(|children| !children.is_empty())
        {
            spec.skipped.push(Skipped {
                command: line,
                reason: "a command group: its subcommands are imported, each on its own".to_owned(),
            });
            continue;
        }
        let arguments = positionals.and_then(|positionals| positionals.get(path));
        spec.commands.push(command(words, entry, arguments));
    }
    Ok(spec)
}

/// serde_json's message ends with " at line L column C", which the error
/// says on its own.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
}

/// `arguments`: the command's positionals from the envelope's
/// `meta.positionals`, where the entry has no `arguments` of its own.
fn command(path: Vec<String>, entry: &Map<String, Value>, arguments: Option<&Value>) -> Command {
    let mut command = Command {
        path,
        description: entry
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned),
        ..Command::default()
    };
    let unmapped = &mut command.unmapped;
    match entry.get("danger_level") {
        Some(Value::String(level)) => match DangerLevel::parse(level) {
            Some(level) => command.danger_level = Some(level),
            None => unmapped.push(format!(
                "danger_level {level:?} is not safe, mutating or destructive: destructive"
            )),
        },
        Some(other) => unmapped.push(format!("danger_level {other} is not a string: destructive")),
        None => unmapped.push("no danger_level: destructive".to_owned()),
    }
    let level = command.danger_level.unwrap_or(DangerLevel::Destructive);
    if let Some(confirm) = entry.get("requires_confirmation").and_then(Value::as_bool)
        && confirm != (level == DangerLevel::Destructive)
    {
        unmapped.push(format!(
            "requires_confirmation {confirm}: a declaration derives it from danger_level ({})",
            level.as_str()
        ));
    }
    for (key, value) in entry {
        match key.as_str() {
            "required_scopes" if value.as_array().is_some_and(|scopes| !scopes.is_empty()) => {
                unmapped.push(format!(
                    "required_scopes {value}: a declaration has no credential scopes"
                ));
            }
            "aliases" if value.as_array().is_some_and(|aliases| !aliases.is_empty()) => {
                unmapped.push(format!(
                    "aliases {value}: the declaration runs the command by its path"
                ));
            }
            "output_schema" => {
                unmapped.push("output_schema: a declaration does not describe output".to_owned())
            }
            "examples" => {
                let count = value.as_array().map_or(0, Vec::len);
                if count > 0 {
                    unmapped.push(format!(
                        "examples ({count}): a declaration holds none; `args check` them by hand"
                    ));
                }
            }
            key if !ENTRY_FIELDS.contains(&key) => {
                unmapped.push(format!("`{key}`: not a field this import knows"));
            }
            _ => {}
        }
    }
    if let Some(flags) = entry.get("flags") {
        match flags.as_object() {
            Some(flags) => {
                for (name, flag) in flags {
                    if let Some(input) = input(name, flag, true, &mut command.unmapped) {
                        command.flags.push(input);
                    }
                }
            }
            None => command.unmapped.push("flags: not an object".to_owned()),
        }
    }
    if let Some(arguments) = entry.get("arguments").or(arguments) {
        match arguments.as_object() {
            Some(arguments) => {
                for (name, argument) in arguments {
                    if let Some(input) = input(name, argument, false, &mut command.unmapped) {
                        command.positionals.push(input);
                    }
                }
            }
            None => command.unmapped.push("arguments: not an object".to_owned()),
        }
    }
    command.positionals_in_order();
    if let Some(codes) = entry.get("exit_codes") {
        command.exit_codes = exit_codes(codes, &mut command.unmapped);
    }
    command
}

/// One flag or argument entry as an input; `None` (and a note) when it
/// cannot be one.
fn input(name: &str, entry: &Value, is_flag: bool, unmapped: &mut Vec<String>) -> Option<Input> {
    let written = if is_flag {
        format!("--{name}")
    } else {
        format!("<{name}>")
    };
    let Some(entry) = entry.as_object() else {
        unmapped.push(format!("{written} left out: its entry is not an object"));
        return None;
    };
    if name.is_empty() || name.starts_with('-') || name.chars().any(char::is_whitespace) {
        unmapped.push(format!("{written} left out: not a flag name"));
        return None;
    }
    let kind = match entry.get("type").and_then(Value::as_str) {
        Some("string") => Kind::String,
        Some("integer") => Kind::Integer,
        Some("number") => Kind::Number,
        Some("boolean") => Kind::Boolean,
        Some("array") => Kind::Array,
        Some("enum") => Kind::Enum,
        Some(other) => {
            unmapped.push(format!(
                "{written} left out: type {other:?} is not one the spec defines"
            ));
            return None;
        }
        None => {
            unmapped.push(format!("{written} left out: no type"));
            return None;
        }
    };
    if !is_flag && kind == Kind::Boolean {
        unmapped.push(format!(
            "{written} left out: a boolean positional has no word to put on the command line"
        ));
        return None;
    }
    let mut input = Input::new(name, is_flag.then_some(written.clone()), kind);
    input.required = entry
        .get("required")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    input.description = entry
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if kind == Kind::Enum {
        let values = entry.get("enum_values").or_else(|| entry.get("enum"));
        match values.map(string_list) {
            Some(Some(values)) if !values.is_empty() => input.choices = values,
            Some(None) => {
                unmapped.push(format!(
                    "{written} left out: its enum_values are not a list of strings"
                ));
                return None;
            }
            _ => {
                unmapped.push(format!("{written} left out: an enum without enum_values"));
                return None;
            }
        }
    }
    if !validation(entry, kind, &written, &mut input, unmapped) {
        return None;
    }
    if let Some(default) = entry.get("default") {
        let shown = match default {
            Value::String(text) => Some(text.clone()),
            Value::Bool(false) => None,
            Value::Array(items) if items.is_empty() => None,
            other => Some(other.to_string()),
        };
        input.program_default = shown;
    }
    for key in entry.keys() {
        if !FLAG_FIELDS.contains(&key.as_str()) {
            unmapped.push(format!("{written}: `{key}` {}", flag_field_note(key)));
        }
    }
    Some(input)
}

/// The strings of a JSON list; `None` if it is not a list of strings.
fn string_list(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|item| item.as_str().map(str::to_owned))
        .collect()
}

/// Carries the entry's validation (`pattern`, `pattern_type`, a string's
/// `enum`) into `input`. False (and a note) when the entry gives one this
/// reader cannot carry: the input is then left out, since imported without
/// its validation it would accept what the program refuses.
fn validation(
    entry: &Map<String, Value>,
    kind: Kind,
    written: &str,
    input: &mut Input,
    unmapped: &mut Vec<String>,
) -> bool {
    let refuse = |unmapped: &mut Vec<String>, why: String| {
        unmapped.push(format!("{written} left out: {why}"));
        false
    };
    let takes_pattern = matches!(kind, Kind::String | Kind::Array);
    for key in ["pattern", "pattern_type"] {
        let Some(value) = entry.get(key) else {
            continue;
        };
        let Some(text) = value.as_str() else {
            return refuse(unmapped, format!("its `{key}` {value} is not a string"));
        };
        if kind == Kind::Enum {
            unmapped.push(format!(
                "{written}: its `{key}` is not kept; its enum_values are the only values accepted"
            ));
            continue;
        }
        if !takes_pattern {
            return refuse(
                unmapped,
                format!(
                    "its `{key}` cannot be kept: a declaration holds one only for a string or a list, and this flag is {}",
                    kind.as_str()
                ),
            );
        }
        if key == "pattern" {
            input.pattern = Some(text.to_owned());
        } else {
            input.pattern_type = Some(text.to_owned());
        }
    }
    for key in BOUND_FIELDS {
        let Some(value) = entry.get(key) else {
            continue;
        };
        if !matches!(kind, Kind::Integer | Kind::Number) {
            return refuse(
                unmapped,
                format!(
                    "its `{key}` cannot be kept: a declaration bounds only an integer or a number, and this flag is {}",
                    kind.as_str()
                ),
            );
        }
        input.bounds.insert(key.to_owned(), value.clone());
    }
    if kind != Kind::Enum
        && let Some(values) = entry.get("enum")
    {
        match string_list(values) {
            Some(values) if !values.is_empty() && takes_pattern => {
                if input.pattern.is_some() {
                    unmapped.push(format!(
                        "{written}: its `pattern` gives way to its `enum`, whose values are the only ones accepted"
                    ));
                }
                input.choices = values;
            }
            _ => {
                return refuse(
                    unmapped,
                    format!(
                        "its `enum` {values} is not a list of strings a {} flag can hold",
                        kind.as_str()
                    ),
                );
            }
        }
    }
    true
}

fn flag_field_note(key: &str) -> &'static str {
    match key {
        "env" => {
            "(the variable the program also reads) is not passed; the declaration passes the flag"
        }
        _ => "is not a field this import knows",
    }
}

fn exit_codes(codes: &Value, unmapped: &mut Vec<String>) -> Option<Map<String, Value>> {
    let Some(codes) = codes.as_object() else {
        unmapped.push("exit_codes: not an object".to_owned());
        return None;
    };
    let mut kept = Map::new();
    for (code, entry) in codes {
        let Some(entry) = entry.as_object() else {
            unmapped.push(format!("exit code {code}: its entry is not an object"));
            continue;
        };
        // The CLI Agent Spec's standard table calls 2 `ARG_ERROR`, which is
        // aigent's own name for its rejection; the lint warns (W106) and
        // asks to describe the program's 2 or leave it out. Left out.
        if code == "2" && entry.get("name").and_then(Value::as_str) == Some("ARG_ERROR") {
            unmapped.push(
                "exit code 2 `ARG_ERROR`: aigent's own name for a rejected argument (W106); \
                 the program's 2 is left undescribed"
                    .to_owned(),
            );
            continue;
        }
        let mut fields = Map::new();
        for (key, value) in entry {
            if EXIT_CODE_FIELDS.contains(&key.as_str()) {
                fields.insert(key.clone(), value.clone());
            } else {
                unmapped.push(format!("exit code {code}: `{key}` is not kept"));
            }
        }
        kept.insert(code.clone(), Value::Object(fields));
    }
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_or_bare_manifest() {
        let bare = r#"{"commands": {"greet": {"description": "Say hello", "danger_level": "safe", "flags": {"name": {"type": "string", "required": true, "description": "Who"}}, "exit_codes": {"0": {"name": "SUCCESS", "description": "done", "retryable": false, "side_effects": "none"}}}}}"#;
        let wrapped = format!(r#"{{"ok": true, "data": {bare}}}"#);
        for text in [bare, wrapped.as_str()] {
            let spec = read(text).unwrap();
            assert_eq!(spec.commands.len(), 1);
            let command = &spec.commands[0];
            assert_eq!(command.path, ["greet"]);
            assert_eq!(command.danger_level, Some(DangerLevel::Safe));
            assert_eq!(command.flags[0].flag.as_deref(), Some("--name"));
            assert!(command.flags[0].required);
        }
    }

    #[test]
    fn errors_say_where() {
        match read("{\n  \"commands\": [1,}\n") {
            Err(ImportError::Syntax { line, column, .. }) => assert_eq!((line, column), (2, 18)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(read("[]"), Err(ImportError::Shape { .. })));
        assert!(matches!(
            read("{\"commands\": 3}"),
            Err(ImportError::Shape { .. })
        ));
    }

    #[test]
    fn validation_is_carried_or_the_flag_left_out() {
        let text = r#"{"commands": {"repo.create": {"description": "x", "danger_level": "safe", "flags": {
            "owner": {"type": "string", "pattern": "^[a-z]+$"},
            "id": {"type": "string", "pattern_type": "uuid"},
            "tags": {"type": "array", "enum": ["a", "b"]},
            "mode": {"type": "enum", "enum": ["x", "y"], "pattern": "^x$"},
            "count": {"type": "integer", "pattern": "^[0-9]$"},
            "odd": {"type": "string", "pattern": 7},
            "weird": {"type": "string", "enum": [1, 2]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50},
            "size": {"type": "string", "maximum": 3}
        }}}}"#;
        let spec = read(text).unwrap();
        let command = &spec.commands[0];
        let flag = |name: &str| command.flags.iter().find(|flag| flag.name == name);
        assert_eq!(flag("owner").unwrap().pattern.as_deref(), Some("^[a-z]+$"));
        assert_eq!(flag("id").unwrap().pattern_type.as_deref(), Some("uuid"));
        assert_eq!(flag("tags").unwrap().choices, ["a", "b"]);
        assert_eq!(flag("mode").unwrap().choices, ["x", "y"]);
        assert_eq!(
            Value::Object(flag("limit").unwrap().bounds.clone()),
            serde_json::json!({"minimum": 1, "maximum": 50})
        );
        for gone in ["count", "odd", "weird", "size"] {
            assert!(flag(gone).is_none(), "{gone}");
            assert!(
                command
                    .unmapped
                    .iter()
                    .any(|note| note.starts_with(&format!("--{gone} left out"))),
                "{gone}: {:?}",
                command.unmapped
            );
        }
        // Nothing the reader carried is listed as unknown.
        assert!(
            !command
                .unmapped
                .iter()
                .any(|note| note.contains("not a field this import knows")),
            "{:?}",
            command.unmapped
        );
    }

    #[test]
    fn what_is_not_mapped_is_listed() {
        let text = r#"{"commands": {"a": {"description": "x", "flags": {"n": {"type": "blob"}, "c": {"type": "integer", "required": false, "description": "d", "env": "C"}}, "required_scopes": ["repo:write"], "output_schema": {}}, "g": {"description": "group", "danger_level": "safe", "subcommands": ["g.x"]}}}"#;
        let spec = read(text).unwrap();
        let command = &spec.commands[0];
        assert_eq!(command.danger_level, None);
        let notes = command.unmapped.join("\n");
        for expected in [
            "no danger_level",
            "--n left out",
            "`env`",
            "required_scopes",
            "output_schema",
        ] {
            assert!(notes.contains(expected), "{expected}: {notes}");
        }
        assert_eq!(spec.skipped.len(), 1);
    }
}
