//! aigent's entry in Codex's `config.toml`, edited with `toml_edit` so that
//! comments, key order and formatting elsewhere stay as they were:
//!
//! ```toml
//! [[hooks.PreToolUse]]
//! matcher = "Bash"
//!
//! [[hooks.PreToolUse.hooks]]
//! type = "command"
//! command = "/usr/local/bin/aigent hook --client codex"
//! statusMessage = "…"
//! ```
//!
//! The matcher groups may also be written inline
//! (`PreToolUse = [{ matcher = "Bash", hooks = [{ … }] }]`); aigent reads
//! both forms and adds to whichever the file uses.

use toml_edit::{
    Array, ArrayOfTables, Document, DocumentMut, InlineTable, Item, Table, TableLike, Value, value,
};

use super::client::{Client, HOOK_DESCRIPTION};
use super::command::is_aigent_hook;
use super::jsonc::line_column;
use super::{Action, Edit, EditError, InstalledEntry};

pub fn install(
    client: Client,
    text: Option<&str>,
    command: &str,
    replace: bool,
) -> Result<Edit, EditError> {
    let original = text.unwrap_or_default();
    let parsed = parse(original)?;
    let warnings = if text.is_some() {
        warnings(&parsed)
    } else {
        Vec::new()
    };
    check_types(client, original, &parsed)?;
    let found = find(client, &parsed);
    let mut doc = parsed.into_mut();
    if found.iter().any(|found| found.command == command) {
        let mut warnings = warnings;
        if found.len() > 1 {
            warnings.push(format!(
                "{} aigent entries for Codex run before shell commands here; `aigent hook uninstall --client codex` removes them all",
                found.len()
            ));
        }
        return Ok(Edit {
            after: Some(original.to_owned()),
            action: Action::Unchanged,
            warnings,
            replaced: None,
        });
    }
    if let Some(existing) = found.into_iter().next() {
        if !replace {
            let (line, column) = existing
                .span
                .map_or((1, 1), |span| line_column(original, span.start));
            return Err(EditError::Conflict {
                existing: existing.command,
                line,
                column,
            });
        }
        if let Some(handler) = handler_mut(client, &mut doc, existing.group, existing.handler)
            && let Some(item) = handler.get_mut("command")
            && let Some(old) = item.as_value_mut()
        {
            let decor = old.decor().clone();
            *old = Value::from(command);
            *old.decor_mut() = decor;
        }
        return Ok(Edit {
            after: Some(render(&doc, original)),
            action: Action::Replaced,
            warnings,
            replaced: Some(existing.command),
        });
    }
    append_entry(
        client,
        &mut doc,
        command,
        text.is_some_and(|text| !text.trim().is_empty()),
    );
    Ok(Edit {
        after: Some(render(&doc, original)),
        action: if text.is_some() {
            Action::Added
        } else {
            Action::Created
        },
        warnings,
        replaced: None,
    })
}

pub fn uninstall(client: Client, text: &str) -> Result<Edit, EditError> {
    let parsed = parse(text)?;
    check_types(client, text, &parsed)?;
    let found = find(client, &parsed);
    let mut doc = parsed.into_mut();
    if found.is_empty() {
        return Ok(Edit {
            after: Some(text.to_owned()),
            action: Action::NotInstalled,
            warnings: Vec::new(),
            replaced: None,
        });
    }
    // Each removal shifts a list; a bound keeps a hostile file linear.
    if found.len() > super::json::MAX_ENTRIES {
        let (line, column) = at(text, found[0].span.clone());
        return Err(EditError::TooManyEntries {
            count: found.len(),
            limit: super::json::MAX_ENTRIES,
            line,
            column,
        });
    }
    // Last first, so that earlier indices stay valid.
    for found in found.iter().rev() {
        remove(client, &mut doc, found);
    }
    prune(client, &mut doc);
    let after = render(&doc, text);
    let empty = doc.as_table().is_empty() && after.trim().is_empty();
    Ok(Edit {
        after: (!empty).then_some(after),
        action: if empty {
            Action::FileRemoved
        } else {
            Action::Removed
        },
        warnings: Vec::new(),
        replaced: None,
    })
}

/// The commands of every aigent entry for `client` in `text`, in file
/// order, with where each is.
pub fn entries(client: Client, text: &str) -> Result<Vec<InstalledEntry>, EditError> {
    let parsed = parse(text)?;
    check_types(client, text, &parsed)?;
    Ok(find(client, &parsed)
        .into_iter()
        .map(|found| {
            let (line, column) = at(text, found.span);
            InstalledEntry {
                command: found.command,
                line,
                column,
            }
        })
        .collect())
}

/// The document as text, with the original's line ending: toml_edit ends
/// every line it writes with `\n`, which would otherwise turn a CRLF file
/// into a diff of every line.
fn render(doc: &DocumentMut, original: &str) -> String {
    let text = doc.to_string();
    let crlf = memchr::memchr(b'\n', original.as_bytes())
        .is_some_and(|at| at > 0 && original.as_bytes()[at - 1] == b'\r');
    if !crlf {
        return text;
    }
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut previous = '\0';
    for c in text.chars() {
        if c == '\n' && previous != '\r' {
            out.push('\r');
        }
        out.push(c);
        previous = c;
    }
    out
}

/// The document with the spans of its parts, for messages that say where.
fn parse(text: &str) -> Result<Document<&str>, EditError> {
    Document::parse(text).map_err(|err| {
        let (line, column) = err
            .span()
            .map_or((1, 1), |span| line_column(text, span.start));
        EditError::Malformed {
            line,
            column,
            message: err.message().trim_end().to_owned(),
        }
    })
}

fn at(text: &str, span: Option<std::ops::Range<usize>>) -> (usize, usize) {
    span.map_or((1, 1), |span| line_column(text, span.start))
}

/// `hooks` must be a table and the event's list an array of tables (or an
/// inline array); anything else is an error that names where it is.
fn check_types(client: Client, text: &str, doc: &Table) -> Result<(), EditError> {
    let Some(hooks) = doc.get("hooks") else {
        return Ok(());
    };
    let Some(hooks_table) = hooks.as_table_like() else {
        let (line, column) = at(text, hooks.span());
        return Err(EditError::WrongType {
            what: "`hooks`".to_owned(),
            expected: "a table",
            found: type_name(hooks),
            line,
            column,
        });
    };
    let Some(event) = hooks_table.get(client.event()) else {
        return Ok(());
    };
    if event.is_array_of_tables() || event.is_array() {
        return Ok(());
    }
    let (line, column) = at(text, event.span());
    Err(EditError::WrongType {
        what: format!("`hooks.{}`", client.event()),
        expected: "an array of tables",
        found: type_name(event),
        line,
        column,
    })
}

fn type_name(item: &Item) -> &'static str {
    match item {
        Item::None => "nothing",
        Item::Value(Value::String(_)) => "a string",
        Item::Value(Value::Integer(_)) => "an integer",
        Item::Value(Value::Float(_)) => "a float",
        Item::Value(Value::Boolean(_)) => "a boolean",
        Item::Value(Value::Datetime(_)) => "a date-time",
        Item::Value(Value::Array(_)) => "an array",
        Item::Value(Value::InlineTable(_)) => "an inline table",
        Item::Table(_) => "a table",
        Item::ArrayOfTables(_) => "an array of tables",
    }
}

struct Found {
    group: usize,
    handler: usize,
    group_size: usize,
    command: String,
    span: Option<std::ops::Range<usize>>,
}

/// The matcher groups, table-like, whichever way they are written.
fn groups(client: Client, doc: &Table) -> Vec<&dyn TableLike> {
    let Some(event) = doc
        .get("hooks")
        .and_then(Item::as_table_like)
        .and_then(|hooks| hooks.get(client.event()))
    else {
        return Vec::new();
    };
    match event {
        Item::ArrayOfTables(tables) => tables.iter().map(|table| table as &dyn TableLike).collect(),
        Item::Value(Value::Array(array)) => array
            .iter()
            .filter_map(|value| value.as_inline_table().map(|table| table as &dyn TableLike))
            .collect(),
        _ => Vec::new(),
    }
}

/// A group's handlers, table-like. An inline array's non-table values are
/// skipped, so indices count tables only.
fn handlers(group: &dyn TableLike) -> Vec<&dyn TableLike> {
    match group.get("hooks") {
        Some(Item::ArrayOfTables(tables)) => {
            tables.iter().map(|table| table as &dyn TableLike).collect()
        }
        Some(Item::Value(Value::Array(array))) => array
            .iter()
            .filter_map(|value| value.as_inline_table().map(|table| table as &dyn TableLike))
            .collect(),
        _ => Vec::new(),
    }
}

fn find(client: Client, doc: &Table) -> Vec<Found> {
    let mut found = Vec::new();
    for (group_index, group) in groups(client, doc).into_iter().enumerate() {
        let handlers = handlers(group);
        for (handler_index, handler) in handlers.iter().enumerate() {
            let Some(item) = handler.get("command") else {
                continue;
            };
            let Some(command) = item.as_str() else {
                continue;
            };
            if is_aigent_hook(command, client) {
                found.push(Found {
                    group: group_index,
                    handler: handler_index,
                    group_size: handlers.len(),
                    command: command.to_owned(),
                    span: item.span(),
                });
            }
        }
    }
    found
}

fn event_item_mut(client: Client, doc: &mut DocumentMut) -> Option<&mut Item> {
    doc.get_mut("hooks")?
        .as_table_like_mut()?
        .get_mut(client.event())
}

/// The `index`th table of an array of tables or of an inline array (whose
/// non-table values are not counted).
fn nth_table_mut(item: &mut Item, index: usize) -> Option<&mut dyn TableLike> {
    match item {
        Item::ArrayOfTables(tables) => tables
            .get_mut(index)
            .map(|table| table as &mut dyn TableLike),
        Item::Value(Value::Array(array)) => array
            .iter_mut()
            .filter_map(Value::as_inline_table_mut)
            .nth(index)
            .map(|table| table as &mut dyn TableLike),
        _ => None,
    }
}

fn handler_mut(
    client: Client,
    doc: &mut DocumentMut,
    group: usize,
    handler: usize,
) -> Option<&mut dyn TableLike> {
    let group = nth_table_mut(event_item_mut(client, doc)?, group)?;
    nth_table_mut(group.get_mut("hooks")?, handler)
}

/// Removes the `index`th table of a list (skipping non-table values of an
/// inline array, as the indices do).
fn remove_nth_table(item: &mut Item, index: usize) {
    match item {
        Item::ArrayOfTables(tables) if index < tables.len() => {
            tables.remove(index);
        }
        Item::Value(Value::Array(array)) => {
            let position = array
                .iter()
                .enumerate()
                .filter(|(_, value)| value.is_inline_table())
                .nth(index)
                .map(|(position, _)| position);
            if let Some(position) = position {
                array.remove(position);
            }
        }
        _ => {}
    }
}

fn remove(client: Client, doc: &mut DocumentMut, found: &Found) {
    let Some(event) = event_item_mut(client, doc) else {
        return;
    };
    if found.group_size > 1
        && let Some(group) = nth_table_mut(event, found.group)
        && let Some(handlers) = group.get_mut("hooks")
    {
        remove_nth_table(handlers, found.handler);
        return;
    }
    remove_nth_table(event, found.group);
}

/// Drops the event's list and `hooks` when removing aigent's entries left
/// them empty (an explicit `[hooks]` header with comments stays).
fn prune(client: Client, doc: &mut DocumentMut) {
    let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_like_mut) else {
        return;
    };
    let event_empty = match hooks.get(client.event()) {
        Some(Item::ArrayOfTables(tables)) => tables.is_empty(),
        Some(Item::Value(Value::Array(array))) => array.is_empty(),
        _ => false,
    };
    if event_empty {
        hooks.remove(client.event());
    }
    if !hooks.is_empty() {
        return;
    }
    let keep = match doc.get("hooks") {
        Some(Item::Table(table)) => {
            !table.is_implicit()
                && table
                    .decor()
                    .prefix()
                    .and_then(|prefix| prefix.as_str())
                    .is_some_and(|prefix| prefix.contains('#'))
        }
        _ => false,
    };
    if !keep {
        doc.remove("hooks");
    }
}

fn append_entry(client: Client, doc: &mut DocumentMut, command: &str, file_has_content: bool) {
    let matcher = client.matcher().unwrap_or("Bash");
    // An inline `hooks = { … }` can hold only inline values.
    let inline = matches!(doc.get("hooks"), Some(Item::Value(_)));
    let hooks = doc.entry("hooks").or_insert_with(|| {
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    let Some(hooks) = hooks.as_table_like_mut() else {
        return;
    };
    let event = hooks.entry(client.event()).or_insert_with(|| {
        if inline {
            Item::Value(Value::Array(Array::new()))
        } else {
            Item::ArrayOfTables(ArrayOfTables::new())
        }
    });
    match event {
        Item::ArrayOfTables(tables) => {
            let mut handler = Table::new();
            handler.insert("type", value("command"));
            handler.insert("command", value(command));
            handler.insert("statusMessage", value(HOOK_DESCRIPTION));
            let mut handlers = ArrayOfTables::new();
            handlers.push(handler);
            let mut group = Table::new();
            group.insert("matcher", value(matcher));
            group.insert("hooks", Item::ArrayOfTables(handlers));
            if !file_has_content {
                group.decor_mut().set_prefix("");
            }
            tables.push(group);
        }
        Item::Value(Value::Array(array)) => {
            let mut handler = InlineTable::new();
            handler.insert("type", Value::from("command"));
            handler.insert("command", Value::from(command));
            handler.insert("statusMessage", Value::from(HOOK_DESCRIPTION));
            let mut handlers = Array::new();
            handlers.push(handler);
            let mut group = InlineTable::new();
            group.insert("matcher", Value::from(matcher));
            group.insert("hooks", Value::Array(handlers));
            array.push(group);
        }
        _ => {}
    }
}

/// Settings in the same file that keep Codex from running hooks.
fn warnings(doc: &Table) -> Vec<String> {
    let Some(features) = doc.get("features").and_then(Item::as_table_like) else {
        return Vec::new();
    };
    ["hooks", "codex_hooks"]
        .into_iter()
        .filter(|key| features.get(key).and_then(Item::as_bool) == Some(false))
        .map(|key| {
            format!(
                "this file sets `[features] {key} = false`: Codex runs no hook, aigent's included"
            )
        })
        .collect()
}

#[cfg(test)]
mod tests;
