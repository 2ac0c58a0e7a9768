//! aigent's entry in a JSON settings file (Claude Code, Gemini CLI,
//! Cursor), added and removed by splicing text: everything else in the file
//! stays byte for byte, and uninstall after install gives back the original
//! bytes (when install added to an existing file).
//!
//! The path to the entry is `hooks` → the event → a list. For Claude Code
//! and Gemini CLI each list item is a matcher group whose `hooks` list holds
//! handlers; for Cursor each item is a handler.

use std::ops::Range;

use serde_json::Value;

use super::client::Client;
use super::command::is_aigent_hook;
use super::jsonc::{self, Document, Member, Node, line_column, members_named};
use super::{Action, Edit, EditError, InstalledEntry};

/// One text replacement.
type Splice = (Range<usize>, String);

/// Adds aigent's entry for `client` running `command` to `text` (the
/// file's content, `None` when it does not exist).
pub fn install(
    client: Client,
    text: Option<&str>,
    command: &str,
    replace: bool,
) -> Result<Edit, EditError> {
    let Some(text) = text else {
        return Ok(Edit {
            after: Some(new_file(client, command)),
            action: Action::Created,
            warnings: Vec::new(),
            replaced: None,
        });
    };
    if text.trim().is_empty() {
        // An empty file (`touch`ed) holds no settings: it gets what a new
        // file would.
        return Ok(Edit {
            after: Some(new_file(client, command)),
            action: Action::Added,
            warnings: Vec::new(),
            replaced: None,
        });
    }
    let doc = parse(client, text)?;
    let warnings = warnings(client, text, &doc.root);
    let path = locate(client, text, &doc)?;
    let found = path
        .event
        .map(|event| find(client, event))
        .unwrap_or_default();
    if found
        .iter()
        .any(|found| found.command.as_str() == Some(command))
    {
        let mut warnings = warnings;
        if found.len() > 1 {
            warnings.push(format!(
                "{} aigent entries for {} run before shell commands here; `aigent hook uninstall --client {}` removes them all",
                found.len(),
                client.display_name(),
                client.as_str()
            ));
        }
        return Ok(Edit {
            after: Some(text.to_owned()),
            action: Action::Unchanged,
            warnings,
            replaced: None,
        });
    }
    if let Some(existing) = found.first() {
        let previous = existing.command.as_str().unwrap_or_default().to_owned();
        if !replace {
            let (line, column) = line_column(text, existing.command.span.start);
            return Err(EditError::Conflict {
                existing: previous,
                line,
                column,
            });
        }
        let literal = serde_json::to_string(command).unwrap_or_default();
        let after = splice(text, vec![(existing.command.span.clone(), literal)]);
        return Ok(Edit {
            after: Some(after),
            action: Action::Replaced,
            warnings,
            replaced: Some(previous),
        });
    }
    let style = Style::of(text, &doc.root);
    let splices = match (path.hooks, path.event) {
        (None, _) => {
            let mut hooks = serde_json::Map::new();
            hooks.insert(
                client.event().to_owned(),
                Value::Array(vec![client.entry(command)]),
            );
            insert_member(text, &style, &doc.root, "hooks", &Value::Object(hooks))
        }
        (Some(hooks), None) => insert_member(
            text,
            &style,
            &hooks.value,
            client.event(),
            &Value::Array(vec![client.entry(command)]),
        ),
        (Some(_), Some(event)) => {
            insert_element(text, &style, &event.value, &client.entry(command))
        }
    };
    Ok(Edit {
        after: Some(splice(text, splices)),
        action: Action::Added,
        warnings,
        replaced: None,
    })
}

/// Removes every aigent entry for `client` from `text`, and the `hooks`
/// containers they leave empty. When nothing but the skeleton install
/// would have created remains, the file itself goes (`after` is `None`).
pub fn uninstall(client: Client, text: &str) -> Result<Edit, EditError> {
    if text.trim().is_empty() {
        return Ok(Edit {
            after: Some(text.to_owned()),
            action: Action::NotInstalled,
            warnings: Vec::new(),
            replaced: None,
        });
    }
    let mut current = text.to_owned();
    let mut removed = 0;
    loop {
        let doc = parse(client, &current)?;
        let path = locate(client, &current, &doc)?;
        let Some(event) = path.event else { break };
        let found = find(client, event);
        let Some(first) = found.first() else { break };
        // One entry per pass (each pass re-reads the file); a bound keeps a
        // hostile file from making that quadratic.
        if removed == 0 && found.len() > MAX_ENTRIES {
            return Err(too_many(&current, first.command, found.len()));
        }
        let splices = removal(&current, &doc, &path, event, first);
        current = splice(&current, splices);
        removed += 1;
    }
    if removed == 0 {
        return Ok(Edit {
            after: Some(current),
            action: Action::NotInstalled,
            warnings: Vec::new(),
            replaced: None,
        });
    }
    let doc = parse(client, &current)?;
    let leftover_is_skeleton = doc.comments.is_empty()
        && doc.root.as_object().is_some_and(|members| {
            let skeleton = client.skeleton();
            members.len() == skeleton.len()
                && members.iter().all(|member| {
                    skeleton.get(&member.key).is_some_and(|expected| {
                        serde_json::from_str::<Value>(&current[member.value.span.clone()]).ok()
                            == Some(expected.clone())
                    })
                })
        });
    Ok(Edit {
        after: (!leftover_is_skeleton).then_some(current),
        action: if leftover_is_skeleton {
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
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let doc = parse(client, text)?;
    let path = locate(client, text, &doc)?;
    let Some(event) = path.event else {
        return Ok(Vec::new());
    };
    Ok(find(client, event)
        .into_iter()
        .filter_map(|found| {
            let (line, column) = line_column(text, found.command.span.start);
            Some(InstalledEntry {
                command: found.command.as_str()?.to_owned(),
                line,
                column,
            })
        })
        .collect())
}

/// More aigent entries than this for one client is not a file a person
/// wrote; uninstall refuses it rather than work through it.
pub(super) const MAX_ENTRIES: usize = 32;

fn too_many(text: &str, first: &Node, count: usize) -> EditError {
    let (line, column) = line_column(text, first.span.start);
    EditError::TooManyEntries {
        count,
        limit: MAX_ENTRIES,
        line,
        column,
    }
}

/// The content of a file install creates.
fn new_file(client: Client, command: &str) -> String {
    let mut root = client.skeleton();
    let mut hooks = serde_json::Map::new();
    hooks.insert(
        client.event().to_owned(),
        Value::Array(vec![client.entry(command)]),
    );
    root.insert("hooks".to_owned(), Value::Object(hooks));
    let mut text = render(&Value::Object(root), "  ", "", "\n");
    text.push('\n');
    text
}

fn parse(client: Client, text: &str) -> Result<Document, EditError> {
    let comments = matches!(
        client.file_format(),
        super::client::FileFormat::Json { comments: true }
    );
    jsonc::parse(text, comments).map_err(|err| {
        let (line, column) = line_column(text, err.offset);
        EditError::Malformed {
            line,
            column,
            message: err.message,
        }
    })
}

/// The members on the way to the event's list, each checked for its type.
struct Path<'d> {
    hooks: Option<&'d Member>,
    event: Option<&'d Member>,
}

fn locate<'d>(client: Client, text: &str, doc: &'d Document) -> Result<Path<'d>, EditError> {
    let Some(root) = doc.root.as_object() else {
        return Err(wrong_type(text, "the top level", &doc.root, "an object"));
    };
    let Some(hooks) = unique(text, root, "hooks", "hooks")? else {
        return Ok(Path {
            hooks: None,
            event: None,
        });
    };
    let Some(hooks_members) = hooks.value.as_object() else {
        return Err(wrong_type(text, "`hooks`", &hooks.value, "an object"));
    };
    let key_path = format!("hooks.{}", client.event());
    let event = unique(text, hooks_members, client.event(), &key_path)?;
    if let Some(event) = event
        && event.value.as_array().is_none()
    {
        return Err(wrong_type(
            text,
            &format!("`{key_path}`"),
            &event.value,
            "an array",
        ));
    }
    Ok(Path {
        hooks: Some(hooks),
        event,
    })
}

/// The one member named `key`; a second one is an error, as readers
/// disagree on which wins.
fn unique<'d>(
    text: &str,
    members: &'d [Member],
    key: &str,
    key_path: &str,
) -> Result<Option<&'d Member>, EditError> {
    let mut named = members_named(members, key);
    let first = named.next();
    if let Some(second) = named.next() {
        let (line, column) = line_column(text, second.key_span.start);
        return Err(EditError::DuplicateKey {
            key: key_path.to_owned(),
            line,
            column,
        });
    }
    Ok(first)
}

fn wrong_type(text: &str, what: &str, node: &Node, expected: &'static str) -> EditError {
    let (line, column) = line_column(text, node.span.start);
    EditError::WrongType {
        what: what.to_owned(),
        expected,
        found: node.type_name(),
        line,
        column,
    }
}

/// An aigent handler in the event's list.
struct Found<'d> {
    /// Index in the event's list.
    item: usize,
    /// Index in the group's `hooks` list (grouped layouts).
    handler: Option<usize>,
    /// How many handlers the group holds.
    group_size: usize,
    command: &'d Node,
}

fn find<'d>(client: Client, event: &'d Member) -> Vec<Found<'d>> {
    let Some(items) = event.value.as_array() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (item, element) in items.iter().enumerate() {
        if client.matcher().is_none() {
            if let Some(command) = aigent_command(client, &element.value) {
                found.push(Found {
                    item,
                    handler: None,
                    group_size: 1,
                    command,
                });
            }
            continue;
        }
        let Some(handlers) = element
            .value
            .as_object()
            .and_then(|members| members_named(members, "hooks").last())
            .and_then(|hooks| hooks.value.as_array())
        else {
            continue;
        };
        for (index, handler) in handlers.iter().enumerate() {
            if let Some(command) = aigent_command(client, &handler.value) {
                found.push(Found {
                    item,
                    handler: Some(index),
                    group_size: handlers.len(),
                    command,
                });
            }
        }
    }
    found
}

/// The `command` of a handler object that runs aigent's hook for `client`.
fn aigent_command(client: Client, handler: &Node) -> Option<&Node> {
    let command = &members_named(handler.as_object()?, "command").last()?.value;
    is_aigent_hook(command.as_str()?, client).then_some(command)
}

/// The splices that take `found` out: the handler alone when its group
/// holds others, else the group, else (when it was the last one) the
/// containers it leaves empty, unless a comment lives in them.
fn removal(text: &str, doc: &Document, path: &Path, event: &Member, found: &Found) -> Vec<Splice> {
    let items = event.value.as_array().unwrap_or_default();
    if let Some(handler) = found.handler
        && found.group_size > 1
    {
        let group = &items[found.item].value;
        if let Some(hooks) = group
            .as_object()
            .and_then(|members| members_named(members, "hooks").last())
            && let Some(handlers) = hooks.value.as_array()
        {
            return remove_item(text, &hooks.value, &spans_of_elements(handlers), handler);
        }
    }
    let comment_inside = |node: &Node| {
        doc.comments
            .iter()
            .any(|comment| node.span.start < comment.start && comment.end <= node.span.end)
    };
    if items.len() > 1 || comment_inside(&event.value) {
        return remove_item(text, &event.value, &spans_of_elements(items), found.item);
    }
    let hooks = path.hooks.expect("an event implies hooks");
    let hooks_members = hooks.value.as_object().unwrap_or_default();
    if hooks_members.len() > 1 || comment_inside(&hooks.value) {
        let index = member_index(hooks_members, event);
        return remove_item(text, &hooks.value, &spans_of_members(hooks_members), index);
    }
    let root_members = doc.root.as_object().unwrap_or_default();
    let index = member_index(root_members, hooks);
    remove_item(text, &doc.root, &spans_of_members(root_members), index)
}

fn member_index(members: &[Member], wanted: &Member) -> usize {
    members
        .iter()
        .position(|member| member.key_span == wanted.key_span)
        .unwrap_or_default()
}

/// An item of a container: its span and the comma after it.
struct ItemSpan {
    span: Range<usize>,
    comma: Option<usize>,
}

fn spans_of_elements(elements: &[jsonc::Element]) -> Vec<ItemSpan> {
    elements
        .iter()
        .map(|element| ItemSpan {
            span: element.value.span.clone(),
            comma: element.comma,
        })
        .collect()
}

fn spans_of_members(members: &[Member]) -> Vec<ItemSpan> {
    members
        .iter()
        .map(|member| ItemSpan {
            span: member.span(),
            comma: member.comma,
        })
        .collect()
}

fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// Where the run of whitespace that ends at `end` starts (not before
/// `floor`).
fn blank_run_start(text: &str, end: usize, floor: usize) -> usize {
    let bytes = text.as_bytes();
    let mut start = end;
    while start > floor && is_blank(bytes[start - 1]) {
        start -= 1;
    }
    start
}

/// The splices that remove item `index` of `container`, with its comma and
/// the whitespace that introduced it, so that removing what
/// [`insert_element`] or [`insert_member`] added restores the bytes.
fn remove_item(text: &str, container: &Node, items: &[ItemSpan], index: usize) -> Vec<Splice> {
    let item = &items[index];
    let inner = container.span.start + 1..container.span.end - 1;
    if items.len() == 1 {
        let rest_is_blank = text[inner.start..item.span.start]
            .bytes()
            .chain(text[item.span.end..inner.end].bytes())
            .all(is_blank);
        return if rest_is_blank {
            vec![(inner, String::new())]
        } else {
            vec![(item.span.clone(), String::new())]
        };
    }
    if index + 1 == items.len() {
        let comma = items[index - 1].comma.expect("a comma before a later item");
        let start = blank_run_start(text, item.span.start, comma + 1);
        if start == comma + 1 {
            return vec![(comma..item.span.end, String::new())];
        }
        return vec![
            (comma..comma + 1, String::new()),
            (start..item.span.end, String::new()),
        ];
    }
    let comma = item.comma.expect("a comma before a later item");
    if index == 0 {
        let next = items[1].span.start;
        let end = if text[comma + 1..next].bytes().all(is_blank) {
            next
        } else {
            comma + 1
        };
        return vec![(item.span.start..end, String::new())];
    }
    let floor = items[index - 1].comma.map_or(inner.start, |at| at + 1);
    let start = blank_run_start(text, item.span.start, floor);
    vec![(start..comma + 1, String::new())]
}

/// How the file is laid out: line ending and one level of indentation.
struct Style {
    newline: &'static str,
    unit: String,
}

impl Style {
    fn of(text: &str, root: &Node) -> Self {
        let newline = match memchr::memchr(b'\n', text.as_bytes()) {
            Some(at) if at > 0 && text.as_bytes()[at - 1] == b'\r' => "\r\n",
            _ => "\n",
        };
        // The indentation of the first member on a line of its own, taken
        // as one level; two spaces when the file does not show one.
        let unit = root
            .as_object()
            .and_then(|members| members.first())
            .and_then(|member| own_line_indent(text, member.key_span.start))
            .filter(|indent| !indent.is_empty())
            .unwrap_or("  ")
            .to_owned();
        Self { newline, unit }
    }
}

/// The whitespace before `at` on its line, when nothing else precedes it
/// there.
fn own_line_indent(text: &str, at: usize) -> Option<&str> {
    let line_start = memchr::memrchr(b'\n', &text.as_bytes()[..at]).map_or(0, |nl| nl + 1);
    let indent = &text[line_start..at];
    indent
        .bytes()
        .all(|byte| byte == b' ' || byte == b'\t')
        .then_some(indent)
        .filter(|_| line_start > 0)
}

/// The leading whitespace of the line holding `at`.
fn line_indent(text: &str, at: usize) -> &str {
    let line_start = memchr::memrchr(b'\n', &text.as_bytes()[..at]).map_or(0, |nl| nl + 1);
    let rest = &text[line_start..];
    let width = rest
        .bytes()
        .take_while(|byte| *byte == b' ' || *byte == b'\t')
        .count();
    &rest[..width]
}

/// `value` as JSON, one level indented by `unit`, every line after the
/// first starting with `base`.
fn render(value: &Value, unit: &str, base: &str, newline: &str) -> String {
    use serde::Serialize;
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value
        .serialize(&mut serializer)
        .expect("a JSON value serializes");
    let pretty = String::from_utf8(out).expect("serde_json writes UTF-8");
    pretty.replace('\n', &format!("{newline}{base}"))
}

fn insert_member(
    text: &str,
    style: &Style,
    object: &Node,
    key: &str,
    value: &Value,
) -> Vec<Splice> {
    let members = object.as_object().unwrap_or_default();
    let key = serde_json::to_string(key).expect("a string serializes");
    append(
        text,
        style,
        object,
        &spans_of_members(members),
        |indent, compact| {
            if compact {
                format!(
                    "{key}: {}",
                    serde_json::to_string(value).unwrap_or_default()
                )
            } else {
                format!(
                    "{key}: {}",
                    render(value, &style.unit, indent, style.newline)
                )
            }
        },
    )
}

fn insert_element(text: &str, style: &Style, array: &Node, value: &Value) -> Vec<Splice> {
    let elements = array.as_array().unwrap_or_default();
    append(
        text,
        style,
        array,
        &spans_of_elements(elements),
        |indent, compact| {
            if compact {
                serde_json::to_string(value).unwrap_or_default()
            } else {
                render(value, &style.unit, indent, style.newline)
            }
        },
    )
}

/// The splices that add one item at the end of `container`, laid out like
/// its last item (on a line of its own, or inline after `, `).
/// `item(indent, compact)` renders the item.
fn append(
    text: &str,
    style: &Style,
    container: &Node,
    items: &[ItemSpan],
    item: impl Fn(&str, bool) -> String,
) -> Vec<Splice> {
    let open = container.span.start;
    let close = container.span.end - 1;
    let container_indent = line_indent(text, open).to_owned();
    let Some(last) = items.last() else {
        let child_indent = format!("{container_indent}{}", style.unit);
        let body = item(&child_indent, false);
        let inner = &text[open + 1..close];
        if inner.bytes().all(is_blank) {
            return vec![(
                open + 1..close,
                format!(
                    "{nl}{child_indent}{body}{nl}{container_indent}",
                    nl = style.newline
                ),
            )];
        }
        // Comments inside: the item goes first, the comments stay.
        return vec![(
            open + 1..open + 1,
            format!("{}{child_indent}{body}", style.newline),
        )];
    };
    let previous_end = items
        .len()
        .checked_sub(2)
        .and_then(|index| items[index].comma)
        .unwrap_or(open);
    let on_own_line = text[previous_end..last.span.start].contains('\n');
    if !on_own_line {
        return vec![(
            last.span.end..last.span.end,
            format!(", {}", item("", true)),
        )];
    }
    let indent = own_line_indent(text, last.span.start).map_or_else(
        || format!("{container_indent}{}", style.unit),
        str::to_owned,
    );
    // A `// comment` after the last item stays on its line: the comma goes
    // before it, the new item after it.
    let after_last = &text[last.span.end..close];
    let spaces = after_last
        .bytes()
        .take_while(|byte| *byte == b' ' || *byte == b'\t')
        .count();
    let at = if after_last[spaces..].starts_with("//") {
        let comment = &after_last[spaces..];
        last.span.end + spaces + comment.find('\n').unwrap_or(comment.len())
    } else {
        last.span.end
    };
    let at = if text[..at].ends_with('\r') {
        at - 1
    } else {
        at
    };
    let body = format!("{}{indent}{}", style.newline, item(&indent, false));
    if at == last.span.end {
        vec![(at..at, format!(",{body}"))]
    } else {
        vec![
            (last.span.end..last.span.end, ",".to_owned()),
            (at..at, body),
        ]
    }
}

/// `text` with `splices` (non-overlapping) applied.
fn splice(text: &str, mut splices: Vec<Splice>) -> String {
    splices.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut out = text.to_owned();
    for (range, replacement) in splices {
        out.replace_range(range, &replacement);
    }
    out
}

/// Settings in the same file that would keep the hook from running.
fn warnings(client: Client, text: &str, root: &Node) -> Vec<String> {
    let Some(members) = root.as_object() else {
        return Vec::new();
    };
    let value_of =
        |member: &Member| serde_json::from_str::<Value>(&text[member.value.span.clone()]).ok();
    let get = |key: &str| members_named(members, key).last();
    let mut warnings = Vec::new();
    match client {
        Client::ClaudeCode => {
            if get("disableAllHooks").and_then(value_of) == Some(Value::Bool(true)) {
                warnings.push(
                    "this file sets `disableAllHooks: true`: Claude Code runs no hook, aigent's included".to_owned(),
                );
            }
        }
        Client::Gemini => {
            let enabled = get("hooksConfig")
                .and_then(value_of)
                .and_then(|config| config.get("enabled").cloned());
            if enabled == Some(Value::Bool(false)) {
                warnings.push(
                    "this file sets `hooksConfig.enabled: false`: Gemini CLI runs no hook, aigent's included".to_owned(),
                );
            }
            let disabled = get("hooks")
                .and_then(value_of)
                .and_then(|hooks| hooks.get("disabled").cloned());
            if let Some(Value::Array(names)) = disabled
                && names
                    .iter()
                    .any(|name| name == super::client::GEMINI_HOOK_NAME)
            {
                warnings.push(format!(
                    "`hooks.disabled` lists \"{}\": Gemini CLI skips aigent's hook until it is taken off that list",
                    super::client::GEMINI_HOOK_NAME
                ));
            }
        }
        Client::Cursor => {
            if get("version").and_then(value_of) != Some(Value::from(1)) {
                warnings.push(
                    "this hooks.json has no `\"version\": 1`; Cursor's docs require it, and Cursor may not load the file without it".to_owned(),
                );
            }
        }
        Client::Codex => {}
    }
    warnings
}

#[cfg(test)]
mod tests;
