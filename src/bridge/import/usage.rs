//! A `usage` spec (jdx/usage: KDL v2, which clap and cobra can emit) as a
//! [`Spec`].
//!
//! The nodes read: `bin` (else `name`) for the program, `about` for the
//! root's description, `flag`, `arg` and `cmd` (recursively, with `global`
//! flags passed down). A flag's first value is its usage (`"-d --depth"`,
//! `"--dir <dir>"`); its value comes from that or from an `arg` child, with
//! `choices` (as values, or `choice` children) for an enum. A positional is
//! `<name>` (required), `[name]` (optional), `…`/`...` after it for a list.
//! usage has no value types: every value is a string, and `choices` the
//! only constraint it can state.

use std::sync::Arc;

use kdl::{KdlDocument, KdlNode, KdlValue};

use super::{Command, ImportError, Input, Kind, Skipped, Spec, line_column};

const FORMAT: &str = "usage spec";

/// The deepest `{` nesting read. Real specs nest a handful of levels
/// (cmd, flag, arg, choices, choice); the parser recurses per level.
const MAX_DEPTH: usize = 64;

/// The stack the parser runs on: with at most this many `{` in the whole
/// text, no nesting can exhaust it whatever the text says.
const PARSER_STACK: usize = 64 * 1024 * 1024;
const BRACES_WITHIN_STACK: usize = 2000;

/// Top-level and `cmd` nodes that say nothing a declaration could hold.
const SILENT: &[&str] = &[
    "name",
    "bin",
    "version",
    "about",
    "long_about",
    "author",
    "license",
    "usage",
    "min_usage_version",
    "repository",
    "source_code_link_template",
    "unknown_flags",
    "args_override_self",
    "subcommand_required",
    "before_help",
    "after_help",
    "before_long_help",
    "after_long_help",
    "before_help_md",
    "after_help_md",
    "long_help",
    "help",
    "example",
    "alias",
    "disable_help",
    "deprecated",
];

/// Flag and arg properties that only change how help looks.
const HELP_ONLY: &[&str] = &[
    "help",
    "long_help",
    "help_long",
    "help_md",
    "hide_short_help",
    "hide_possible_values",
    "hide_default_value",
    "help_heading",
];

/// Reads a usage spec.
pub fn read(text: &str) -> Result<Spec, ImportError> {
    let document = parse(text)?;
    let mut spec = Spec::default();
    let nodes = document.nodes();
    spec.program = string_of(nodes, "bin").or_else(|| string_of(nodes, "name"));
    let root = Scope {
        path: Vec::new(),
        description: string_of(nodes, "about"),
        hidden: false,
        group: false,
    };
    let program = spec.program.clone().unwrap_or_default();
    let mut budget = MAX_INPUTS;
    walk(&root, nodes, &[], &mut spec, &program, &mut budget)?;
    Ok(spec)
}

/// The most inputs (flags and positionals) all commands may hold together.
/// A `global` flag is repeated in every command below it, so a spec of
/// many global flags and many commands would otherwise grow as their
/// product, not as the text.
pub const MAX_INPUTS: usize = 200_000;

/// The KDL document, or where it is wrong. Parsed on a thread of its own
/// with a stack no nesting this text can hold exhausts, and a panic in the
/// parser is an error like any other.
fn parse(text: &str) -> Result<KdlDocument, ImportError> {
    let braces = text.bytes().filter(|byte| *byte == b'{').count();
    let depth = structural_depth(text);
    if depth > MAX_DEPTH || (braces > BRACES_WITHIN_STACK && depth > MAX_DEPTH / 2) {
        let (line, column) = line_column(text, deepest_offset(text));
        return Err(ImportError::Syntax {
            format: FORMAT,
            line,
            column,
            message: format!("nested more than {} levels deep", MAX_DEPTH.min(depth)),
        });
    }
    let owned: Arc<str> = Arc::from(text);
    let input = Arc::clone(&owned);
    let result = std::thread::Builder::new()
        .name("usage-kdl".to_owned())
        .stack_size(PARSER_STACK)
        .spawn(move || KdlDocument::parse_v2(&input))
        .map_err(|err| ImportError::Shape {
            format: FORMAT,
            at: "the spec".to_owned(),
            message: format!("cannot start the parser: {err}"),
        })?
        .join();
    match result {
        Ok(Ok(document)) => Ok(document),
        Ok(Err(error)) => {
            let first = error.diagnostics.first();
            let offset = first.map_or(0, |diagnostic| diagnostic.span.offset());
            let (line, column) = line_column(text, offset);
            let mut message = first
                .and_then(|diagnostic| {
                    diagnostic
                        .message
                        .clone()
                        .or_else(|| diagnostic.label.clone())
                })
                .unwrap_or_else(|| "not a KDL document".to_owned());
            if let Some(help) = first.and_then(|diagnostic| diagnostic.help.clone()) {
                message = format!("{message} ({help})");
            }
            if looks_like_kdl_v1(text) {
                message.push_str(
                    "; this looks like KDL v1 (`true`, `false`, `null` without `#`): usage specs are KDL v2 since usage 2",
                );
            }
            Err(ImportError::Syntax {
                format: FORMAT,
                line,
                column,
                message,
            })
        }
        Err(_) => Err(ImportError::Syntax {
            format: FORMAT,
            line: 1,
            column: 1,
            message: "the KDL parser failed on this text".to_owned(),
        }),
    }
}

fn looks_like_kdl_v1(text: &str) -> bool {
    ["=true", "=false", "=null"]
        .iter()
        .any(|needle| text.contains(needle))
}

/// Lexical states of [`structural_depth`].
enum Lex {
    Code,
    /// A `"..."` string; `true` for `"""` (multi-line).
    Quoted(bool),
    /// A raw string: the number of `#` that close it, and multi-line.
    Raw(usize, bool),
    LineComment,
    /// Nested block comments.
    Block(usize),
}

/// The deepest `{` nesting outside strings and comments, and where it is
/// first reached ([`deepest_offset`]).
fn scan(text: &str) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut state = Lex::Code;
    let mut depth = 0usize;
    let mut deepest = (0usize, 0usize);
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        let rest = &bytes[index..];
        match state {
            Lex::Code => match byte {
                b'{' => {
                    depth += 1;
                    if depth > deepest.0 {
                        deepest = (depth, index);
                    }
                }
                b'}' => depth = depth.saturating_sub(1),
                b'/' if rest.starts_with(b"//") => {
                    state = Lex::LineComment;
                    index += 1;
                }
                b'/' if rest.starts_with(b"/*") => {
                    state = Lex::Block(1);
                    index += 1;
                }
                b'"' if rest.starts_with(b"\"\"\"") => {
                    state = Lex::Quoted(true);
                    index += 2;
                }
                b'"' => state = Lex::Quoted(false),
                b'#' => {
                    let hashes = rest.iter().take_while(|b| **b == b'#').count();
                    let after = &rest[hashes..];
                    if after.starts_with(b"\"\"\"") {
                        state = Lex::Raw(hashes, true);
                        index += hashes + 2;
                    } else if after.starts_with(b"\"") {
                        state = Lex::Raw(hashes, false);
                        index += hashes;
                    } else {
                        index += hashes - 1;
                    }
                }
                _ => {}
            },
            Lex::Quoted(multi) => match byte {
                b'\\' => index += 1,
                b'"' if !multi => state = Lex::Code,
                b'"' if rest.starts_with(b"\"\"\"") => {
                    state = Lex::Code;
                    index += 2;
                }
                _ => {}
            },
            Lex::Raw(hashes, multi) => {
                let quotes = if multi { 3 } else { 1 };
                if rest.len() >= quotes + hashes
                    && rest[..quotes].iter().all(|b| *b == b'"')
                    && rest[quotes..quotes + hashes].iter().all(|b| *b == b'#')
                {
                    state = Lex::Code;
                    index += quotes + hashes - 1;
                }
            }
            Lex::LineComment => {
                if byte == b'\n' || byte == b'\r' {
                    state = Lex::Code;
                }
            }
            Lex::Block(level) => {
                if rest.starts_with(b"*/") {
                    state = if level == 1 {
                        Lex::Code
                    } else {
                        Lex::Block(level - 1)
                    };
                    index += 1;
                } else if rest.starts_with(b"/*") {
                    state = Lex::Block(level + 1);
                    index += 1;
                }
            }
        }
        index += 1;
    }
    deepest
}

fn structural_depth(text: &str) -> usize {
    scan(text).0
}

fn deepest_offset(text: &str) -> usize {
    scan(text).1
}

/// Where a node stands in the command tree.
struct Scope {
    path: Vec<String>,
    description: Option<String>,
    hidden: bool,
    /// `subcommand_required`: no declaration for the group itself.
    group: bool,
}

fn string_of(nodes: &[KdlNode], name: &str) -> Option<String> {
    nodes
        .iter()
        .find(|node| node.name().value() == name)
        .and_then(first_string)
}

/// The node's first positional value, as a string.
fn first_string(node: &KdlNode) -> Option<String> {
    node.entries()
        .iter()
        .find(|entry| entry.name().is_none())
        .and_then(|entry| value_text(entry.value()))
}

/// Every positional value of the node, as strings.
fn strings(node: &KdlNode) -> Vec<String> {
    node.entries()
        .iter()
        .filter(|entry| entry.name().is_none())
        .filter_map(|entry| value_text(entry.value()))
        .collect()
}

fn value_text(value: &KdlValue) -> Option<String> {
    match value {
        KdlValue::String(text) => Some(text.clone()),
        KdlValue::Integer(number) => Some(number.to_string()),
        KdlValue::Float(number) => Some(number.to_string()),
        KdlValue::Bool(flag) => Some(flag.to_string()),
        KdlValue::Null => None,
    }
}

/// A property (`key=value`), or a child node of that name with one value.
fn property<'a>(node: &'a KdlNode, key: &str) -> Option<&'a KdlValue> {
    node.entries()
        .iter()
        .find(|entry| entry.name().is_some_and(|name| name.value() == key))
        .map(|entry| entry.value())
        .or_else(|| {
            node.children()?
                .nodes()
                .iter()
                .find(|child| child.name().value() == key)
                .and_then(|child| child.entries().iter().find(|entry| entry.name().is_none()))
                .map(|entry| entry.value())
        })
}

fn property_bool(node: &KdlNode, key: &str) -> bool {
    matches!(property(node, key), Some(KdlValue::Bool(true)))
}

fn property_text(node: &KdlNode, key: &str) -> Option<String> {
    property(node, key).and_then(value_text)
}

fn children(node: &KdlNode) -> &[KdlNode] {
    node.children().map_or(&[], KdlDocument::nodes)
}

fn describe(node: &KdlNode) -> Option<String> {
    property_text(node, "help").or_else(|| {
        property_text(node, "long_help")
            .or_else(|| property_text(node, "help_long"))
            .and_then(|text| {
                text.lines()
                    .map(str::trim)
                    .find(|line| !line.is_empty())
                    .map(str::to_owned)
            })
    })
}

/// The command at `scope` from its `nodes`, then its subcommands; an
/// error once the commands hold more than [`MAX_INPUTS`] inputs.
fn walk(
    scope: &Scope,
    nodes: &[KdlNode],
    inherited: &[Input],
    spec: &mut Spec,
    program: &str,
    budget: &mut usize,
) -> Result<(), ImportError> {
    let line = std::iter::once(program)
        .chain(scope.path.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let mut command = Command {
        path: scope.path.clone(),
        description: scope.description.clone(),
        ..Command::default()
    };
    spend(budget, inherited.len(), &line)?;
    command.flags.extend(inherited.iter().cloned());
    let mut globals: Vec<Input> = inherited.to_vec();
    let mut group = scope.group;
    let mut subcommands = Vec::new();
    for node in nodes {
        match node.name().value() {
            "flag" => {
                if let Some(input) = flag(node, &mut command.unmapped) {
                    spend(budget, 1, &line)?;
                    if property_bool(node, "global") {
                        globals.push(input.clone());
                    }
                    command.flags.push(input);
                }
            }
            "arg" => {
                if let Some(input) = positional(node, &mut command) {
                    spend(budget, 1, &line)?;
                    command.positionals.push(input);
                }
            }
            "cmd" => subcommands.push(node),
            "subcommand_required" => {
                group = matches!(
                    node.entries().first().map(|entry| entry.value()),
                    Some(KdlValue::Bool(true))
                )
            }
            name if SILENT.contains(&name) => {}
            "mount" => spec.unmapped.push(format!(
                "`{line}`: `mount` runs a command for more of the spec; it is not run"
            )),
            name => spec
                .unmapped
                .push(format!("`{line}`: the `{name}` node is not imported")),
        }
    }
    keep_last_of_each_name(&mut command.flags);
    keep_last_of_each_name(&mut globals);
    command.positionals_in_order();
    if scope.hidden {
        spec.skipped.push(Skipped {
            command: scope.path.join(" "),
            reason: "hidden in the spec".to_owned(),
        });
    } else if group {
        spec.skipped.push(Skipped {
            command: scope.path.join(" "),
            reason: "a command group (subcommand_required): its subcommands are imported, each on its own".to_owned(),
        });
    } else {
        spec.commands.push(command);
    }
    for node in subcommands {
        let Some(name) = first_string(node) else {
            spec.unmapped
                .push(format!("`{line}`: a `cmd` without a name"));
            continue;
        };
        let mut path = scope.path.clone();
        path.push(name);
        let child = Scope {
            path,
            description: describe(node),
            hidden: scope.hidden || property_bool(node, "hide"),
            group: property_bool(node, "subcommand_required"),
        };
        walk(&child, children(node), &globals, spec, program, budget)?;
    }
    Ok(())
}

/// Takes `count` inputs from what the spec may hold in all.
fn spend(budget: &mut usize, count: usize, line: &str) -> Result<(), ImportError> {
    *budget = budget.checked_sub(count).ok_or_else(|| ImportError::Shape {
        format: FORMAT,
        at: format!("`{line}`"),
        message: format!(
            "the commands would hold more than {MAX_INPUTS} flags and positionals in all (a `global` flag counts once in every command below it)"
        ),
    })?;
    Ok(())
}

/// A flag given again (a command's own over an inherited `global` one)
/// replaces the earlier: each name's last input is kept, in the order of
/// those last inputs.
fn keep_last_of_each_name(flags: &mut Vec<Input>) {
    let mut last: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (index, input) in flags.iter().enumerate() {
        last.insert(input.name.as_str(), index);
    }
    let keep: Vec<bool> = flags
        .iter()
        .enumerate()
        .map(|(index, input)| last.get(input.name.as_str()) == Some(&index))
        .collect();
    let mut index = 0;
    flags.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

/// The parts of a flag's usage: `-d --depth <depth>`.
#[derive(Default)]
struct FlagUsage {
    short: Option<String>,
    long: Option<String>,
    value: Option<(String, bool)>,
    other: Vec<String>,
}

fn flag_usage(text: &str) -> FlagUsage {
    let mut usage = FlagUsage::default();
    for token in text.split_whitespace() {
        if let Some((name, var)) = value_name(token) {
            usage.value = Some((name, var));
        } else if let Some(long) = token.strip_prefix("--") {
            let long = long.split('=').next().unwrap_or(long);
            if usage.long.is_none() && !long.is_empty() {
                usage.long = Some(long.to_owned());
            }
        } else if let Some(short) = token.strip_prefix('-') {
            if usage.short.is_none() && short.chars().count() == 1 {
                usage.short = Some(short.to_owned());
            } else {
                usage.other.push(token.to_owned());
            }
        } else {
            usage.other.push(token.to_owned());
        }
    }
    usage
}

/// `<name>`, `[name]`, with `…` or `...` after it: the name and whether it
/// is a list.
fn value_name(token: &str) -> Option<(String, bool)> {
    let (token, var) = match token
        .strip_suffix('…')
        .or_else(|| token.strip_suffix("..."))
    {
        Some(stripped) => (stripped, true),
        None => (token, false),
    };
    let inner = token
        .strip_prefix('<')
        .and_then(|rest| rest.strip_suffix('>'))
        .or_else(|| {
            token
                .strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
        })?;
    Some((inner.to_owned(), var))
}

/// The choices of a node: `choices "a" "b"`, or `choices { choice a ... }`.
fn choices(node: &KdlNode) -> Vec<String> {
    let Some(list) = children(node)
        .iter()
        .find(|child| child.name().value() == "choices")
    else {
        return Vec::new();
    };
    let mut values = strings(list);
    values.extend(
        children(list)
            .iter()
            .filter(|child| child.name().value() == "choice")
            .filter_map(first_string),
    );
    values
}

/// The properties of a flag or arg that change what it accepts but that a
/// declaration cannot say; each is noted.
fn note_properties(node: &KdlNode, written: &str, known: &[&str], unmapped: &mut Vec<String>) {
    for entry in node.entries() {
        let Some(name) = entry.name() else {
            continue;
        };
        let key = name.value();
        if HELP_ONLY.contains(&key) || known.contains(&key) {
            continue;
        }
        let value = value_text(entry.value()).unwrap_or_default();
        let note = match key {
            "negate" => format!("{written}: its negation `{value}` is not imported"),
            "env" => format!(
                "{written}: `env={value}` (the variable the program also reads) is not passed; the declaration passes the flag"
            ),
            "conflicts" | "overrides" => format!(
                "{written}: `{key}={value}`: a declaration cannot say that inputs exclude each other"
            ),
            "exclusive" => format!(
                "{written}: exclusive (used alone): a declaration cannot say that inputs exclude each other"
            ),
            "deprecated" => format!("{written}: deprecated in the spec, imported anyway"),
            "value_optional" => format!(
                "{written}: its value may be left out on the program's command line; the declaration always passes one"
            ),
            "var_min" | "var_max" => format!(
                "{written}: `{key}={value}`: a declaration does not bound how many values a list has"
            ),
            "config" => format!("{written}: `config={value}` (a config file key) is not imported"),
            _ => format!("{written}: `{key}={value}` is not imported"),
        };
        unmapped.push(note);
    }
    for child in children(node) {
        let key = child.name().value();
        if matches!(key, "conflicts" | "env" | "negate") && !known.contains(&key) {
            unmapped.push(format!(
                "{written}: `{key} {}` is not imported",
                strings(child).join(" ")
            ));
        }
    }
}

/// A `flag` node as an input.
fn flag(node: &KdlNode, unmapped: &mut Vec<String>) -> Option<Input> {
    let Some(text) = first_string(node) else {
        unmapped.push("a `flag` without its usage left out".to_owned());
        return None;
    };
    let usage = flag_usage(&text);
    let (name, written) = match (&usage.long, &usage.short) {
        (Some(long), _) => (long.clone(), format!("--{long}")),
        (None, Some(short)) => (short.clone(), format!("-{short}")),
        (None, None) => {
            unmapped.push(format!(
                "flag {text:?} left out: no `-x` or `--name` in its usage"
            ));
            return None;
        }
    };
    if !usage.other.is_empty() {
        unmapped.push(format!(
            "{written}: `{}` in its usage is not imported",
            usage.other.join(" ")
        ));
    }
    if property_bool(node, "hide") {
        unmapped.push(format!("{written} left out: hidden in the spec"));
        return None;
    }
    if property_bool(node, "count") {
        unmapped.push(format!(
            "{written} left out: a counted switch (given N times) has no argv template"
        ));
        return None;
    }
    let arg_child = children(node)
        .iter()
        .find(|child| child.name().value() == "arg");
    let value = usage.value.clone().or_else(|| {
        arg_child
            .and_then(first_string)
            .map(|usage| value_name(&usage).unwrap_or((usage, false)))
    });
    let flag_var = property_bool(node, "var");
    let mut choices_found = choices(node);
    let ignore_case = |node: &KdlNode| {
        children(node)
            .iter()
            .any(|child| child.name().value() == "choices" && property_bool(child, "ignore_case"))
    };
    if ignore_case(node) || arg_child.is_some_and(ignore_case) {
        unmapped.push(format!(
            "{written}: its choices are matched ignoring case by the program; the declaration takes them as written"
        ));
    }
    if let Some(arg) = arg_child {
        choices_found.extend(choices(arg));
        if property_text(arg, "value_terminator").is_some() {
            unmapped.push(format!(
                "{written} left out: its values run until a terminator word, which the declaration cannot write"
            ));
            return None;
        }
    }
    if property_text(node, "value_terminator").is_some() {
        unmapped.push(format!(
            "{written} left out: its values run until a terminator word, which the declaration cannot write"
        ));
        return None;
    }
    let kind = match &value {
        None => {
            if flag_var {
                unmapped.push(format!(
                    "{written}: a repeatable switch, passed at most once"
                ));
            }
            Kind::Boolean
        }
        Some((_, value_var)) if flag_var || *value_var => Kind::Array,
        Some(_) if !choices_found.is_empty() => Kind::Enum,
        Some(_) => Kind::String,
    };
    let mut input = Input::new(name, Some(written.clone()), kind);
    input.required = property_bool(node, "required");
    input.description = describe(node);
    input.joined = property_bool(node, "require_equals");
    input.allow_leading_dash = property_bool(node, "allow_hyphen_values");
    if kind != Kind::Boolean {
        input.choices = choices_found;
    }
    let default = property_text(node, "default");
    input.program_default = match (kind, default) {
        (Kind::Boolean, Some(text)) if text == "false" => None,
        (_, default) => default,
    };
    note_properties(
        node,
        &written,
        &[
            "required",
            "var",
            "hide",
            "global",
            "count",
            "default",
            "require_equals",
            "allow_hyphen_values",
        ],
        unmapped,
    );
    if let Some(arg) = arg_child {
        note_properties(arg, &written, &["var", "required"], unmapped);
    }
    Some(input)
}

/// A parameter name from a positional's name: characters a `--flag`
/// cannot hold become `-`.
fn parameter_name(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    mapped.trim_matches('-').to_owned()
}

/// An `arg` node as a positional input.
fn positional(node: &KdlNode, command: &mut Command) -> Option<Input> {
    let Some(text) = first_string(node) else {
        command
            .unmapped
            .push("an `arg` without its name left out".to_owned());
        return None;
    };
    let (raw_name, var) = value_name(&text).unwrap_or((text.clone(), false));
    let written = format!("<{raw_name}>");
    if property_bool(node, "hide") {
        command
            .unmapped
            .push(format!("{written} left out: hidden in the spec"));
        return None;
    }
    let choices_found = choices(node);
    let var = var || property_bool(node, "var");
    let kind = if var {
        Kind::Array
    } else if !choices_found.is_empty() {
        Kind::Enum
    } else {
        Kind::String
    };
    let mut input = Input::new(parameter_name(&raw_name), None, kind);
    input.required = match property(node, "required") {
        Some(KdlValue::Bool(required)) => *required,
        _ => !text.starts_with('['),
    };
    input.description = describe(node);
    input.choices = choices_found;
    input.program_default = property_text(node, "default").filter(|text| !text.is_empty());
    if property_text(node, "double_dash").as_deref() == Some("required") {
        command.double_dash = true;
    }
    note_properties(
        node,
        &written,
        &["required", "var", "hide", "default", "double_dash"],
        &mut command.unmapped,
    );
    Some(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r##"
name demo
bin demo
about "A demo"
flag "-v --verbose" help="Say more" global=#true
flag "--shell <shell>" { choices bash zsh fish; }
flag "-C --count" count=#true
cmd install help="Install a plugin" {
    arg "<plugin>" help="The plugin"
    arg "[version]"
    flag "-f --force" negate="--no-force"
    flag "-d --dir <dir>" required=#true
    flag "-e --exclude" var=#true { arg "<glob>…" var=#true; }
}
cmd hidden hide=#true
cmd group subcommand_required=#true {
    cmd leaf help="/* not a comment */ { }"
}
"##;

    #[test]
    fn commands_flags_and_positionals() {
        let spec = read(SPEC).unwrap();
        assert_eq!(spec.program.as_deref(), Some("demo"));
        let paths: Vec<String> = spec.commands.iter().map(|c| c.path.join(" ")).collect();
        assert_eq!(paths, ["", "install", "group leaf"]);
        let root = &spec.commands[0];
        assert_eq!(root.description.as_deref(), Some("A demo"));
        let shell = root.flags.iter().find(|f| f.name == "shell").unwrap();
        assert_eq!(shell.kind, Kind::Enum);
        assert_eq!(shell.choices, ["bash", "zsh", "fish"]);
        assert!(root.flags.iter().all(|f| f.name != "count"));
        let install = &spec.commands[1];
        let names: Vec<&str> = install.flags.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["verbose", "force", "dir", "exclude"]);
        assert!(install.flags[2].required);
        assert_eq!(install.flags[3].kind, Kind::Array);
        assert!(install.positionals[0].required && !install.positionals[1].required);
        assert!(
            install
                .unmapped
                .iter()
                .any(|note| note.contains("--no-force"))
        );
        let skipped: Vec<&str> = spec.skipped.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(skipped, ["hidden", "group"]);
        // Inherited from the root through the group.
        assert_eq!(spec.commands[2].flags[0].name, "verbose");
    }

    #[test]
    fn a_flag_given_again_replaces_the_inherited_one() {
        let spec = read(
            "bin t\nflag \"--a <x>\" global=#true help=\"root\"\nflag \"--b\" global=#true\ncmd c {\n  flag \"--a <y>\" global=#true help=\"mine\"\n  cmd d\n}\n",
        )
        .unwrap();
        let flags = |path: &str| -> Vec<(String, Option<String>)> {
            spec.commands
                .iter()
                .find(|c| c.path.join(" ") == path)
                .unwrap()
                .flags
                .iter()
                .map(|f| (f.name.clone(), f.description.clone()))
                .collect()
        };
        let mine = ("a".to_owned(), Some("mine".to_owned()));
        assert_eq!(flags("c"), [("b".to_owned(), None), mine.clone()]);
        assert_eq!(flags("c d"), [("b".to_owned(), None), mine]);
    }

    #[test]
    fn global_flags_repeated_past_the_budget_are_an_error() {
        let mut text = String::from("bin t\n");
        for flag in 0..100 {
            text.push_str(&format!("flag \"--g{flag} <v>\" global=#true\n"));
        }
        for command in 0..(MAX_INPUTS / 100) {
            text.push_str(&format!("cmd c{command}\n"));
        }
        match read(&text) {
            Err(ImportError::Shape { message, .. }) => {
                assert!(message.contains("global"), "{message}")
            }
            other => panic!("{:?}", other.map(|spec| spec.commands.len())),
        }
    }

    #[test]
    fn errors_say_where() {
        match read("flag \"-x\"\n\nflag \"-y\" help=\"a\" }\n") {
            Err(ImportError::Syntax { line, column, .. }) => assert_eq!((line, column), (3, 20)),
            other => panic!("{other:?}"),
        }
        match read("flag \"-x\" hide=true\n") {
            Err(ImportError::Syntax { message, .. }) => {
                assert!(message.contains("KDL v1"), "{message}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let deep = format!("{}{}", "a {".repeat(100), "}".repeat(100));
        assert!(matches!(read(&deep), Err(ImportError::Syntax { .. })));
        // Braces in strings, raw strings and comments are not nesting.
        let text = format!(
            "a \"{}\" #\"\"\"\n{}\n\"\"\"# /* {} */ // {}\n",
            "{".repeat(200),
            "{".repeat(200),
            "{".repeat(200),
            "{".repeat(200)
        );
        assert_eq!(structural_depth(&text), 0);
        assert_eq!(structural_depth("a \"\"\"\nx \" {\n\"\"\" { b { } }"), 2);
    }
}
