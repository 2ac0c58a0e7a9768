//! `skill fix`: the mechanical repairs, each one that loses nothing.
//!
//! 1. A single-line value that YAML misreads (`description: Use when: x`,
//!    `license: 2.0`) is double-quoted, keeping its text exactly.
//! 2. An `allowed-tools` list becomes the spec's space-separated string.
//! 3. An unknown top-level key with a scalar value moves under `metadata`,
//!    its value kept as the string it was written as.
//! 4. A `name` that is a title of the directory's name (`PDF Tools` in
//!    `pdf-tools/`) becomes the directory's name.
//!
//! Anything else (a list under an unknown key, a tool name holding a
//! space, a key already in `metadata`) is listed, not guessed. The body is
//! never touched, and the caller writes the result only when it validates.

use std::collections::HashSet;

use super::Proposal;
use super::fmt::{canonical_scalar, double_quoted};
pub use super::{Repair, RepairKind};
use crate::skill::check::{CheckContext, check_text};
use crate::skill::clients;
use crate::skill::frontmatter::{self, Entry, Frontmatter, ParseError, YamlValue};
use crate::skill::rules::{self, Profile};

/// What the fix needs besides the text.
#[derive(Debug, Clone, Copy, Default)]
pub struct FixContext<'a> {
    /// The skill directory's name, for the `name` repair and the check.
    pub directory_name: Option<&'a str>,
    pub profile: Profile,
    /// Where the body's links are checked; `None` skips that check.
    pub links: Option<crate::skill::check::LinkRoot<'a>>,
    /// Then put the frontmatter in `skill fmt`'s canonical form, so that
    /// `fix` then `fmt --check` is clean (when `fmt` can: a file it cannot
    /// format is left as repaired).
    pub format: bool,
}

/// Keys whose value must be a string: a misread scalar is quoted.
const STRING_KEYS: &[&str] = &["name", "description", "license", "compatibility"];

/// Repairs `text`. The proposal is refused (not to be written) when the
/// result still has an error; `left` lists its findings either way.
pub fn fix_text(text: &str, context: FixContext<'_>) -> Proposal {
    let mut fixer = Fixer {
        text: text.to_owned(),
        repairs: Vec::new(),
        not_fixed: Vec::new(),
        rename_dir: None,
    };
    fixer.quote_misread_lines();
    if let Some(parsed) = fixer.parse() {
        fixer.quote_misread_types(&parsed);
    }
    if let Some(parsed) = fixer.parse() {
        fixer.join_allowed_tools(&parsed);
    }
    if let Some(parsed) = fixer.parse() {
        fixer.move_unknown_keys(&parsed, context.profile);
    }
    if let Some(parsed) = fixer.parse() {
        fixer.name_from_directory(&parsed, context.directory_name);
    }
    if context.format
        && let Ok(formatted) = super::fmt::format_text(&fixer.text)
        && formatted != fixer.text
    {
        fixer.text = formatted;
        fixer.repaired(
            RepairKind::Formatted,
            "frontmatter",
            "put the frontmatter in canonical form, as skill fmt does".to_owned(),
        );
    }
    let checked = check_text(
        &fixer.text,
        CheckContext {
            directory_name: context.directory_name,
            links: context.links,
            profile: context.profile,
            location: None,
            // `fix` shows findings, not counts.
            skip_unshown_counts: true,
        },
    );
    let left = checked.diagnostics;
    let errors = left.iter().filter(|d| d.is_error()).count();
    let refused = (errors > 0 && fixer.text != text).then(|| {
        format!(
            "the fixed skill would still have {errors} error{}; nothing written",
            if errors == 1 { "" } else { "s" }
        )
    });
    Proposal {
        text: fixer.text,
        refused,
        repairs: fixer.repairs,
        left,
        not_fixed: fixer.not_fixed,
        profile: None,
        rename_dir: fixer.rename_dir,
    }
}

struct Fixer {
    text: String,
    repairs: Vec<Repair>,
    /// Repairs not made, and why.
    not_fixed: Vec<String>,
    /// The name the skill's directory should have, when its own is invalid.
    rename_dir: Option<String>,
}

/// The frontmatter's lines as the fixer edits them.
struct Lines {
    /// Everything before the YAML (the BOM and the opening `---` line).
    before: String,
    yaml: Vec<String>,
    eol: &'static str,
    /// The closing `---` line and the body, byte for byte.
    after: String,
    /// The file line of `yaml[0]`.
    first_line: usize,
}

impl Lines {
    fn of(text: &str) -> Option<Lines> {
        let document = frontmatter::split(text).ok()?;
        let yaml_start = document.yaml.as_ptr() as usize - text.as_ptr() as usize;
        let yaml_end = yaml_start + document.yaml.len();
        let eol = if document.yaml.contains("\r\n") || text[..yaml_start].ends_with("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        Some(Lines {
            before: text[..yaml_start].to_owned(),
            yaml: document
                .yaml
                .lines()
                .map(|line| line.strip_suffix('\r').unwrap_or(line).to_owned())
                .collect(),
            eol,
            after: text[yaml_end..].to_owned(),
            first_line: document.yaml_first_line,
        })
    }

    fn join(&self) -> String {
        let mut out = self.before.clone();
        for line in &self.yaml {
            out.push_str(line);
            out.push_str(self.eol);
        }
        out.push_str(&self.after);
        out
    }

    /// The index in `yaml` of a file line.
    fn index(&self, file_line: usize) -> Option<usize> {
        file_line
            .checked_sub(self.first_line)
            .filter(|&index| index < self.yaml.len())
    }

    /// The first of the comment lines at the margin right above `start`
    /// (`start` itself when there are none).
    fn leading_comments(&self, start: usize) -> usize {
        let mut first = start;
        while first > 0 && self.yaml[first - 1].starts_with('#') {
            first -= 1;
        }
        first
    }

    /// The lines of the top-level entry at `start`: up to the next line at
    /// the margin that is not a comment or blank, without trailing comments
    /// and blank lines.
    fn entry_end(&self, start: usize) -> usize {
        let mut end = start + 1;
        while end < self.yaml.len() {
            let line = &self.yaml[end];
            let at_margin = !line.starts_with([' ', '\t']) && !line.trim().is_empty();
            if at_margin && !line.starts_with('#') {
                break;
            }
            end += 1;
        }
        while end > start + 1 {
            let line = &self.yaml[end - 1];
            if line.trim().is_empty() || line.starts_with('#') {
                end -= 1;
            } else {
                break;
            }
        }
        end
    }
}

/// `key: value` on one line, the key simple, the value plain (not quoted,
/// not a block scalar, no comment): (indent, key, value).
fn simple_pair(line: &str) -> Option<(&str, &str, &str)> {
    let trimmed = line.trim_start_matches(' ');
    let indent = &line[..line.len() - trimmed.len()];
    let (key, value) = trimmed.split_once(": ")?;
    let simple_key = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    let value = value.trim();
    let plain = !value.is_empty()
        && !value.starts_with(['"', '\'', '|', '>', '&', '*', '!', '#'])
        && !value.contains(" #");
    (simple_key && plain).then_some((indent, key, value))
}

impl Fixer {
    fn parse(&self) -> Option<Frontmatter> {
        let document = frontmatter::split(&self.text).ok()?;
        let parsed = frontmatter::parse_as_written(&document).ok()?;
        parsed.duplicates.is_empty().then_some(parsed)
    }

    fn repaired(&mut self, kind: RepairKind, key: &str, message: String) {
        self.repairs.push(Repair {
            kind,
            key: key.to_owned(),
            message,
        });
    }

    fn skip(&mut self, line: Option<usize>, message: String) {
        self.not_fixed.push(match line {
            Some(line) => format!("line {line}: {message}"),
            None => message,
        });
    }

    /// Repair 1a: a line YAML cannot read because its value holds `: `
    /// or starts with a character YAML reserves is quoted, as often as
    /// the parser points at such a line.
    fn quote_misread_lines(&mut self) {
        // Each pass fixes one line; a file has finitely many.
        for _ in 0..256 {
            let Some(document) = frontmatter::split(&self.text).ok() else {
                return;
            };
            let line = match frontmatter::parse_as_written(&document) {
                Err(ParseError::Syntax {
                    line: Some(line), ..
                }) => line,
                _ => return,
            };
            let Some(mut lines) = Lines::of(&self.text) else {
                return;
            };
            let Some(index) = lines.index(line) else {
                return;
            };
            let Some((indent, key, value)) = simple_pair(&lines.yaml[index]) else {
                return;
            };
            // Only a key of the top-level mapping, or of a mapping nested
            // right under one, so a continuation line is never taken for a
            // key of its own.
            if !indent.is_empty() && !is_nested_key_line(&lines.yaml, index) {
                return;
            }
            let (key, value) = (key.to_owned(), value.to_owned());
            lines.yaml[index] = format!("{indent}{key}: {}", double_quoted(&value));
            let fixed = lines.join();
            // Only keep the edit if the parser moved on past this line.
            let moved_on = frontmatter::split(&fixed)
                .ok()
                .map(|document| match frontmatter::parse_as_written(&document) {
                    Err(ParseError::Syntax {
                        line: Some(next), ..
                    }) => next != line,
                    Err(_) => false,
                    Ok(_) => true,
                })
                .unwrap_or(false);
            if !moved_on {
                return;
            }
            self.text = fixed;
            self.repaired(
                RepairKind::QuotedValue,
                &key,
                format!("quoted the value of '{key}', which YAML could not read as written"),
            );
        }
    }

    /// Repair 1b: a spec string key whose plain value YAML reads as a
    /// number, a boolean or a one-line list (`license: 2.0`) is quoted.
    fn quote_misread_types(&mut self, parsed: &Frontmatter) {
        let Some(mut lines) = Lines::of(&self.text) else {
            return;
        };
        let mut changed = Vec::new();
        for entry in &parsed.entries {
            if !STRING_KEYS.contains(&entry.key.as_str())
                || matches!(entry.value, YamlValue::String(_) | YamlValue::Null { .. })
            {
                continue;
            }
            let Some(index) = entry.line.and_then(|line| lines.index(line)) else {
                continue;
            };
            if lines.entry_end(index) != index + 1 {
                continue;
            }
            let Some((indent, key, value)) = simple_pair(&lines.yaml[index]) else {
                continue;
            };
            if !indent.is_empty() || key != entry.key {
                continue;
            }
            let value = value.to_owned();
            lines.yaml[index] = format!("{key}: {}", double_quoted(&value));
            changed.push((entry.key.clone(), entry.value.type_name()));
        }
        if changed.is_empty() {
            return;
        }
        self.text = lines.join();
        for (key, type_name) in changed {
            self.repaired(
                RepairKind::QuotedValue,
                &key,
                format!("quoted the value of '{key}', which YAML read as {type_name}"),
            );
        }
    }

    /// Repair 2: `allowed-tools` as a list of names becomes one string.
    fn join_allowed_tools(&mut self, parsed: &Frontmatter) {
        let Some(entry) = parsed.get("allowed-tools") else {
            return;
        };
        let YamlValue::List(items) = &entry.value else {
            return;
        };
        let names: Option<Vec<&str>> = items.iter().map(YamlValue::as_str).collect();
        let usable = names.as_ref().is_some_and(|names| {
            names
                .iter()
                .all(|name| !name.is_empty() && !name.chars().any(char::is_whitespace))
        });
        let (Some(names), true) = (names, usable) else {
            self.skip(
                entry.line,
                "allowed-tools: not joined into a string, since an item is not a single word (a space would split it); write the string by hand".to_owned(),
            );
            return;
        };
        let Some(mut lines) = Lines::of(&self.text) else {
            return;
        };
        let Some(start) = entry.line.and_then(|line| lines.index(line)) else {
            return;
        };
        let end = lines.entry_end(start);
        // Comments inside the list stay, above the key.
        let comments: Vec<String> = lines.yaml[start + 1..end]
            .iter()
            .filter(|line| line.trim_start().starts_with('#'))
            .map(|line| line.trim().to_owned())
            .collect();
        let key_line = &lines.yaml[start];
        let trailing_comment = key_line
            .find(" #")
            .filter(|&at| !key_line[..at].contains(['"', '\'']))
            .map(|at| key_line[at..].trim().to_owned());
        let mut replacement = comments;
        replacement.extend(trailing_comment);
        replacement.push(format!(
            "allowed-tools: {}",
            canonical_scalar(&names.join(" "))
        ));
        lines.yaml.splice(start..end, replacement);
        self.text = lines.join();
        self.repaired(
            RepairKind::JoinedAllowedTools,
            "allowed-tools",
            format!(
                "joined the allowed-tools list into the spec's string '{}'",
                names.join(" ")
            ),
        );
    }

    /// Repair 3: unknown top-level keys with scalar values move under
    /// `metadata`, each value as the text it was written as.
    fn move_unknown_keys(&mut self, parsed: &Frontmatter, profile: Profile) {
        let unknown = self.unknown_keys(parsed, profile);
        if unknown.is_empty() {
            return;
        }
        let Some(existing) = self.metadata_keys(parsed, &unknown) else {
            return;
        };
        let Some(mut lines) = Lines::of(&self.text) else {
            return;
        };
        let metadata = parsed
            .get("metadata")
            .and_then(|entry| entry.line)
            .and_then(|line| lines.index(line));
        if let Some(start) = metadata
            && !existing.is_empty()
            && lines.entry_end(start) == start + 1
        {
            for entry in &unknown {
                self.skip(
                    entry.line,
                    format!(
                        "'{}': not moved under metadata, which is written on one line; make it a block first",
                        entry.key
                    ),
                );
            }
            return;
        }
        let moving = self.movable(unknown, &existing, &lines);
        if moving.is_empty() {
            return;
        }
        let new_lines = metadata_entries(&lines, metadata, &moving);
        move_into_metadata(&mut lines, metadata, &moving, new_lines);
        self.text = lines.join();
        for Moving { key, .. } in moving {
            self.repaired(
                RepairKind::MovedToMetadata,
                &key,
                format!("moved '{key}' under metadata, keeping its value as a string"),
            );
        }
    }

    /// The top-level entries the profile does not know, less those whose
    /// key changes what a client does (reported as skipped).
    fn unknown_keys<'p>(&mut self, parsed: &'p Frontmatter, profile: Profile) -> Vec<&'p Entry> {
        let mut unknown = Vec::new();
        for entry in &parsed.entries {
            if profile.knows(&entry.key) {
                continue;
            }
            if let Some(reason) = behaviour_kept(&entry.key) {
                self.skip(entry.line, reason);
                continue;
            }
            unknown.push(entry);
        }
        unknown
    }

    /// The keys `metadata` already has, or `None` (each unknown key
    /// reported as skipped) when it is not a mapping.
    fn metadata_keys(
        &mut self,
        parsed: &Frontmatter,
        unknown: &[&Entry],
    ) -> Option<HashSet<String>> {
        match parsed.get("metadata").map(|e| &e.value) {
            None | Some(YamlValue::Null { .. }) => Some(HashSet::new()),
            Some(YamlValue::Mapping(entries)) => {
                Some(entries.iter().map(|(key, _)| key.clone()).collect())
            }
            Some(_) => {
                for entry in unknown {
                    self.skip(
                        entry.line,
                        format!(
                            "'{}': not moved under metadata, since metadata is not a mapping",
                            entry.key
                        ),
                    );
                }
                None
            }
        }
    }

    /// The unknown entries that can move: a scalar value, a key metadata
    /// does not have yet, found in the text. The others are reported as
    /// skipped (or, for a key no rewrite can write back, left alone).
    fn movable(
        &mut self,
        unknown: Vec<&Entry>,
        existing: &HashSet<String>,
        lines: &Lines,
    ) -> Vec<Moving> {
        let mut moving = Vec::new();
        for entry in unknown {
            let Some(text) = entry.value.scalar_text() else {
                self.skip(
                    entry.line,
                    format!(
                        "'{}': not moved under metadata, since its value is {} and metadata holds strings; move or remove it by hand",
                        entry.key,
                        entry.value.type_name()
                    ),
                );
                continue;
            };
            if entry.key.starts_with('<') || entry.key.chars().any(char::is_control) {
                continue;
            }
            if existing.contains(entry.key.as_str()) {
                self.skip(
                    entry.line,
                    format!(
                        "'{}': not moved under metadata, which already has that key",
                        entry.key
                    ),
                );
                continue;
            }
            let Some(start) = entry.line.and_then(|line| lines.index(line)) else {
                continue;
            };
            moving.push(Moving {
                start,
                key: entry.key.clone(),
                value: text.to_owned(),
            });
        }
        moving
    }

    /// Repair 4: a `name` that is missing, invalid or not the directory's
    /// name, in a directory whose name is a valid name, becomes that name;
    /// the old value is kept as `metadata.original-name`. When the
    /// directory's name is itself invalid nothing changes, and the name the
    /// directory should have is proposed ([`Proposal::rename_dir`]).
    fn name_from_directory(&mut self, parsed: &Frontmatter, directory_name: Option<&str>) {
        let Some(directory) = directory_name else {
            return;
        };
        let entry = parsed.get("name");
        let value = entry.map(|entry| &entry.value);
        let broken = match value {
            None | Some(YamlValue::Null { .. }) => true,
            Some(YamlValue::String(name)) => {
                !rules::name_problems(name, Some(directory)).is_empty()
            }
            Some(_) => true,
        };
        if !broken {
            return;
        }
        if !rules::name_problems(directory, None).is_empty() {
            let suggestion = suggested_directory_name(value.and_then(YamlValue::as_str), directory);
            self.skip(
                entry.and_then(|entry| entry.line),
                match &suggestion {
                    Some(suggested) => format!(
                        "name: not repaired, since the directory name '{directory}' is not a valid name; rename the directory to '{suggested}' (skill fix --rename-dir does it)"
                    ),
                    None => format!(
                        "name: not repaired, since the directory name '{directory}' is not a valid name; rename the directory to a valid name"
                    ),
                },
            );
            self.rename_dir = suggestion;
            return;
        }
        // The old value, as written, to keep.
        let old = match value {
            None | Some(YamlValue::Null { .. }) => None,
            Some(YamlValue::String(text)) if text.trim().is_empty() => None,
            Some(other) => match other.scalar_text() {
                Some(text) => Some(text.to_owned()),
                None => {
                    self.skip(
                        entry.and_then(|entry| entry.line),
                        format!(
                            "name: not set to '{directory}', since its value is {} and metadata keeps strings; fix it by hand",
                            other.type_name()
                        ),
                    );
                    return;
                }
            },
        };
        let Some(mut lines) = Lines::of(&self.text) else {
            return;
        };
        let new_line = format!("name: {}", canonical_scalar(directory));
        match entry
            .and_then(|entry| entry.line)
            .and_then(|line| lines.index(line))
        {
            Some(index) => {
                let end = lines.entry_end(index);
                let mut replacement: Vec<String> = lines.yaml[index + 1..end]
                    .iter()
                    .filter(|line| line.trim_start().starts_with('#'))
                    .map(|line| line.trim().to_owned())
                    .collect();
                if let Some(comment) = trailing_comment(&lines.yaml[index]) {
                    replacement.push(comment.to_owned());
                }
                replacement.push(new_line);
                lines.yaml.splice(index..end, replacement);
            }
            None if entry.is_none() => lines.yaml.insert(0, new_line),
            None => return,
        }
        let renamed = lines.join();
        let Some(old) = old else {
            self.text = renamed;
            self.repaired(
                RepairKind::NameFromDirectory,
                "name",
                format!("set the missing name to the directory's name '{directory}'"),
            );
            return;
        };
        match add_to_metadata(&renamed, ORIGINAL_NAME_KEY, &old) {
            Ok(text) => {
                self.text = text;
                self.repaired(
                    RepairKind::NameFromDirectory,
                    "name",
                    format!(
                        "set name '{old}' to the directory's name '{directory}', keeping the old value as metadata.{ORIGINAL_NAME_KEY}"
                    ),
                );
            }
            Err(reason) => self.skip(
                entry.and_then(|entry| entry.line),
                format!(
                    "name: not set to '{directory}', since the old name could not be kept: {reason}"
                ),
            ),
        }
    }
}

/// An unknown top-level entry on its way under `metadata`: the index of
/// its key line, the key, and its value as written.
struct Moving {
    start: usize,
    key: String,
    value: String,
}

/// The lines the moving entries become under `metadata`, indented as its
/// block is (two spaces for a new one): the comments above and inside each
/// entry, a trailing comment as a line of its own, then `key: "value"`.
fn metadata_entries(lines: &Lines, metadata: Option<usize>, moving: &[Moving]) -> Vec<String> {
    let mut new_lines = Vec::new();
    let indent = metadata
        .and_then(|start| {
            lines.yaml[start + 1..lines.entry_end(start)]
                .iter()
                .find(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
                .map(|line| " ".repeat(line.len() - line.trim_start().len()))
        })
        .unwrap_or_else(|| "  ".to_owned());
    for Moving { start, key, value } in moving {
        let end = lines.entry_end(*start);
        // The comments just above the key, and those inside its block.
        let lead = lines.leading_comments(*start);
        for line in lines.yaml[lead..*start]
            .iter()
            .chain(&lines.yaml[*start + 1..end])
        {
            if line.trim_start().starts_with('#') {
                new_lines.push(format!("{indent}{}", line.trim()));
            }
        }
        if let Some(at) = lines.yaml[*start].find(" #") {
            // A trailing comment on a scalar line is a comment only when
            // the value is plain: keep it as its own line.
            let comment = lines.yaml[*start][at..].trim();
            if comment.starts_with('#') && !value.contains('#') {
                new_lines.push(format!("{indent}{comment}"));
            }
        }
        new_lines.push(format!(
            "{indent}{}: {}",
            canonical_scalar(key),
            double_quoted(value)
        ));
    }
    new_lines
}

/// Removes the moving entries (with the comments above them) and adds
/// `new_lines` at the end of the `metadata` block, or a new block at the
/// end of the frontmatter.
fn move_into_metadata(
    lines: &mut Lines,
    metadata: Option<usize>,
    moving: &[Moving],
    new_lines: Vec<String>,
) {
    let mut removals: Vec<(usize, usize)> = moving
        .iter()
        .map(|entry| {
            (
                lines.leading_comments(entry.start),
                lines.entry_end(entry.start),
            )
        })
        .collect();
    removals.sort_unstable();
    let metadata_after_removals = metadata.map(|start| {
        start
            - removals
                .iter()
                .filter(|(at, _)| *at < start)
                .map(|(at, end)| end - at)
                .sum::<usize>()
    });
    // One pass, so that many moved keys cost no more than one.
    let mut removed = vec![false; lines.yaml.len()];
    for (start, end) in &removals {
        removed[*start..*end].fill(true);
    }
    let mut index = 0;
    lines.yaml.retain(|_| {
        index += 1;
        !removed[index - 1]
    });
    match metadata_after_removals {
        Some(start) => {
            let end = lines.entry_end(start);
            let key_line = lines.yaml[start].trim_end();
            if end == start + 1 && key_line != "metadata:" {
                // `metadata: {}` or `metadata: ~`: an empty value on the
                // key line becomes a block.
                lines.yaml[start] = "metadata:".to_owned();
            }
            lines.yaml.splice(end..end, new_lines);
        }
        None => {
            lines.yaml.push("metadata:".to_owned());
            lines.yaml.extend(new_lines);
        }
    }
}

/// The comment ending a one-line `key: value` entry, if any: after the
/// closing quote of a quoted value, or at the first ` #` of a plain one.
fn trailing_comment(line: &str) -> Option<&str> {
    let (_, value) = line.split_once(':')?;
    let value = value.trim_start();
    let rest = if let Some(quoted) = value.strip_prefix('"') {
        let mut escaped = false;
        let close = quoted.char_indices().find_map(|(at, c)| {
            let closing = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            closing.then_some(at)
        })?;
        &quoted[close + 1..]
    } else if let Some(quoted) = value.strip_prefix('\'') {
        // `''` is an escaped quote inside; the first lone `'` closes.
        let bytes = quoted.as_bytes();
        let mut at = 0;
        loop {
            let next = at + quoted[at..].find('\'')?;
            if bytes.get(next + 1) == Some(&b'\'') {
                at = next + 2;
            } else {
                break &quoted[next + 1..];
            }
        }
    } else {
        let at = value.find(" #").or_else(|| value.find("\t#"))?;
        &value[at..]
    };
    let comment = rest.trim();
    comment.starts_with('#').then_some(comment)
}

/// The `metadata` key that keeps a `name` that `fix` replaced.
pub const ORIGINAL_NAME_KEY: &str = "original-name";

/// `text` with `key: value` added to its `metadata` mapping (made when
/// there is none). Fails, leaving nothing changed, when `metadata` is not a
/// mapping, is written inline, or has `key` with another value.
fn add_to_metadata(text: &str, key: &str, value: &str) -> Result<String, String> {
    let document = frontmatter::split(text).map_err(|err| err.to_string())?;
    let parsed = frontmatter::parse_as_written(&document).map_err(|err| err.to_string())?;
    let mut lines = Lines::of(text).ok_or("the frontmatter cannot be read")?;
    let entry = format!("{}: {}", canonical_scalar(key), double_quoted(value));
    let Some(metadata) = parsed.get("metadata") else {
        lines.yaml.push("metadata:".to_owned());
        lines.yaml.push(format!("  {entry}"));
        return Ok(lines.join());
    };
    let start = metadata
        .line
        .and_then(|line| lines.index(line))
        .ok_or("metadata has no line")?;
    let end = lines.entry_end(start);
    match &metadata.value {
        YamlValue::Null { .. } => {}
        YamlValue::Mapping(entries) if entries.is_empty() => {}
        YamlValue::Mapping(entries) => {
            if let Some((_, existing)) = entries.iter().find(|(name, _)| name == key) {
                return match existing.scalar_text() {
                    Some(existing) if existing == value => Ok(text.to_owned()),
                    _ => Err(format!("metadata already has '{key}'")),
                };
            }
            if end == start + 1 {
                return Err("metadata is written on one line; make it a block first".to_owned());
            }
        }
        _ => return Err("metadata is not a mapping".to_owned()),
    }
    if end == start + 1 {
        // `metadata:`, `metadata: ~` or `metadata: {}`: the key line becomes
        // the block's head.
        lines.yaml[start] = "metadata:".to_owned();
        lines.yaml.insert(start + 1, format!("  {entry}"));
        return Ok(lines.join());
    }
    let indent = lines.yaml[start + 1..end]
        .iter()
        .find(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|line| " ".repeat(line.len() - line.trim_start().len()))
        .unwrap_or_else(|| "  ".to_owned());
    lines.yaml.insert(end, format!("{indent}{entry}"));
    Ok(lines.join())
}

/// The name a directory whose own name is invalid should have: the skill's
/// `name` when that is valid, else the directory's name (then the name) in
/// kebab case, cut at a hyphen to the length limit. `None` when no
/// candidate is a valid name (a reserved word, say).
pub fn suggested_directory_name(name: Option<&str>, directory: &str) -> Option<String> {
    let valid = |candidate: &str| rules::name_problems(candidate, None).is_empty();
    if let Some(name) = name
        && valid(name)
    {
        return Some(rules::nfkc(name));
    }
    [Some(directory), name]
        .into_iter()
        .flatten()
        .map(|candidate| shorten(&kebab_case(&rules::nfkc(candidate))))
        .find(|candidate| valid(candidate))
}

/// A kebab-case name cut to [`rules::MAX_NAME_CHARS`] characters, at the
/// last hyphen that keeps it within the limit when there is one.
fn shorten(name: &str) -> String {
    if name.chars().count() <= rules::MAX_NAME_CHARS {
        return name.to_owned();
    }
    let cut: String = name.chars().take(rules::MAX_NAME_CHARS + 1).collect();
    match cut.rfind('-') {
        Some(at) if at > 0 => cut[..at].to_owned(),
        _ => cut.chars().take(rules::MAX_NAME_CHARS).collect(),
    }
}

/// Why an unknown key must stay where it is: a client reads it at the top
/// level (under `metadata` that client would no longer see it, so a skill
/// kept from the model, say, would become one the model invokes), or a
/// client reads a `metadata` key of that name (moving it would give it a
/// meaning). `None` when moving it changes nothing any client does.
fn behaviour_kept(key: &str) -> Option<String> {
    let readers: Vec<_> = clients::clients_knowing(key).collect();
    if !readers.is_empty() {
        let verb = if readers.len() == 1 { "reads" } else { "read" };
        return Some(format!(
            "'{key}': left in place, since {} {verb} it as a top-level key; under metadata it would change what the skill does (validate with that --profile to stop the warning)",
            clients::describe_clients(readers.into_iter()),
        ));
    }
    let readers: Vec<_> = clients::clients_reading_metadata(key).collect();
    if !readers.is_empty() {
        let verb = if readers.len() == 1 { "reads" } else { "read" };
        return Some(format!(
            "'{key}': not moved under metadata, since {} {verb} metadata.{key}; moving it would change what the skill does",
            clients::describe_clients(readers.into_iter()),
        ));
    }
    None
}

/// Whether the indented line at `index` is a key of a block mapping: the
/// nearest line above with less indentation ends with `:` (its parent
/// key), and every line between is a key line at the same indentation.
fn is_nested_key_line(lines: &[String], index: usize) -> bool {
    let indent_of = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let own = indent_of(&lines[index]);
    for line in lines[..index].iter().rev() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let indent = indent_of(line);
        if indent < own {
            return line.trim_end().ends_with(':');
        }
        if indent > own || !line.trim_start().contains(": ") && !line.trim_end().ends_with(':') {
            return false;
        }
    }
    false
}

/// A title in kebab case: lowercase, each run of other characters one
/// hyphen (`PDF Tools!` is `pdf-tools`).
pub fn kebab_case(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for c in title.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str, directory: &str) -> Proposal {
        fix_text(
            text,
            FixContext {
                directory_name: Some(directory),
                ..FixContext::default()
            },
        )
    }

    #[test]
    fn quotes_a_value_holding_colon_space() {
        let fixed = fix(
            "---\nname: a\ndescription: Use when: the user asks\n---\nbody\n",
            "a",
        );
        assert_eq!(
            fixed.text,
            "---\nname: a\ndescription: \"Use when: the user asks\"\n---\nbody\n"
        );
        assert_eq!(fixed.repairs[0].kind, RepairKind::QuotedValue);
        assert!(fixed.refused.is_none(), "{:?}", fixed.left);
    }

    #[test]
    fn quotes_a_misread_number() {
        let fixed = fix("---\nname: a\ndescription: d\nlicense: 2.0\n---\n", "a");
        assert_eq!(
            fixed.text,
            "---\nname: a\ndescription: d\nlicense: \"2.0\"\n---\n"
        );
    }

    #[test]
    fn joins_allowed_tools() {
        let fixed = fix(
            "---\nname: a\ndescription: d\nallowed-tools:\n  # read only\n  - Read\n  - Bash(git:*)\nlicense: MIT\n---\n",
            "a",
        );
        assert_eq!(
            fixed.text,
            "---\nname: a\ndescription: d\n# read only\nallowed-tools: Read Bash(git:*)\nlicense: MIT\n---\n"
        );
        let spaced = fix(
            "---\nname: a\ndescription: d\nallowed-tools: [Read, Bash(git status)]\n---\n",
            "a",
        );
        assert!(spaced.repairs.is_empty());
        assert!(
            spaced
                .not_fixed
                .iter()
                .any(|note| note.contains("single word"))
        );
    }

    #[test]
    fn moves_unknown_keys_under_metadata() {
        let fixed = fix(
            "---\nname: a\ndescription: d\nversion: 1.10\nmetadata:\n  author: me\n# the owner\nowner: team-x\ntags: [a, b]\n---\n",
            "a",
        );
        assert_eq!(
            fixed.text,
            "---\nname: a\ndescription: d\nmetadata:\n  author: me\n  version: \"1.10\"\n  # the owner\n  owner: \"team-x\"\ntags: [a, b]\n---\n",
        );
        assert_eq!(fixed.repairs.len(), 2);
        assert!(fixed.not_fixed.iter().any(|note| note.contains("'tags'")));
        // No metadata yet: one is made.
        let fresh = fix("---\nname: a\ndescription: d\nversion: 2\n---\n", "a");
        assert_eq!(
            fresh.text,
            "---\nname: a\ndescription: d\nmetadata:\n  version: \"2\"\n---\n"
        );
    }

    #[test]
    fn a_key_any_client_reads_never_moves_whatever_the_profile() {
        use crate::skill::clients::{KnownKeys, PROFILES};
        let client_keys: Vec<&str> = PROFILES
            .iter()
            .filter_map(|profile| match profile.keys {
                KnownKeys::SpecAnd(keys) => Some(keys),
                KnownKeys::All => None,
            })
            .flatten()
            .map(|key| key.name)
            .chain(["short-description"])
            .collect();
        assert!(client_keys.contains(&"disable-model-invocation"));
        for profile in Profile::all() {
            for key in &client_keys {
                let text = format!("---\nname: a\ndescription: d\n{key}: true\n---\nbody\n");
                let fixed = fix_text(
                    &text,
                    FixContext {
                        directory_name: Some("a"),
                        profile,
                        links: None,
                        format: false,
                    },
                );
                assert_eq!(fixed.text, text, "{key} moved under {}", profile.as_str());
                assert!(fixed.repairs.is_empty());
                if !profile.knows(key) {
                    assert!(
                        fixed.not_fixed.iter().any(|note| note.contains(key)),
                        "{key} under {}: {:?}",
                        profile.as_str(),
                        fixed.not_fixed
                    );
                }
            }
        }
        // An unknown key beside them still moves.
        let fixed = fix(
            "---\nname: a\ndescription: d\ndisable-model-invocation: true\nversion: 2\n---\n",
            "a",
        );
        assert_eq!(
            fixed.text,
            "---\nname: a\ndescription: d\ndisable-model-invocation: true\nmetadata:\n  version: \"2\"\n---\n"
        );
        assert!(
            fixed.not_fixed[0].contains("Claude Code (--profile claude-code)"),
            "{:?}",
            fixed.not_fixed
        );
    }

    #[test]
    fn names_a_titled_skill_after_its_directory() {
        let fixed = fix("---\nname: PDF Tools\ndescription: d\n---\n", "pdf-tools");
        assert_eq!(
            fixed.text,
            "---\nname: pdf-tools\ndescription: d\nmetadata:\n  original-name: \"PDF Tools\"\n---\n"
        );
        assert!(fixed.refused.is_none(), "{:?}", fixed.left);
        // Any other name too: the spec wants the directory's name.
        let other = fix("---\nname: Other Thing\ndescription: d\n---\n", "pdf-tools");
        assert_eq!(other.repairs[0].kind, RepairKind::NameFromDirectory);
        assert!(other.text.contains("original-name: \"Other Thing\""));
        assert!(other.refused.is_none());
    }

    #[test]
    fn a_title_with_punctuation_is_kept_in_metadata() {
        let directory = "acf-extended-advanced-custom-fields-workflows";
        let text = "---\n# the title\nname: \"ACF Extended: Advanced Custom Fields, Workflows! (v2) #1\"\ndescription: d\nmetadata:\n    author: me\n---\nbody\n";
        let fixed = fix(text, directory);
        assert_eq!(
            fixed.text,
            format!(
                "---\n# the title\nname: {directory}\ndescription: d\nmetadata:\n    author: me\n    original-name: \"ACF Extended: Advanced Custom Fields, Workflows! (v2) #1\"\n---\nbody\n"
            )
        );
        assert!(fixed.refused.is_none(), "{:?}", fixed.left);
        assert!(fixed.left.is_empty(), "{:?}", fixed.left);
        // Read back: the old value is exactly the one written.
        let document = frontmatter::split(&fixed.text).unwrap();
        let parsed = frontmatter::parse(&document).unwrap();
        let YamlValue::Mapping(metadata) = &parsed.get("metadata").unwrap().value else {
            panic!("metadata");
        };
        assert_eq!(
            metadata[1].1.as_str(),
            Some("ACF Extended: Advanced Custom Fields, Workflows! (v2) #1")
        );
    }

    #[test]
    fn names_that_are_missing_not_strings_or_commented() {
        let missing = fix("---\ndescription: d\n---\n", "pdf");
        assert_eq!(missing.text, "---\nname: pdf\ndescription: d\n---\n");
        let number = fix("---\nname: 12\ndescription: d\n---\n", "pdf");
        assert_eq!(
            number.text,
            "---\nname: pdf\ndescription: d\nmetadata:\n  original-name: \"12\"\n---\n"
        );
        let commented = fix("---\nname: PDF  # the title\ndescription: d\n---\n", "pdf");
        assert_eq!(
            commented.text,
            "---\n# the title\nname: pdf\ndescription: d\nmetadata:\n  original-name: \"PDF\"\n---\n"
        );
        let list = fix("---\nname:\n  - a\n  - b\ndescription: d\n---\n", "pdf");
        assert!(list.repairs.is_empty());
        assert!(list.not_fixed[0].contains("a list"), "{:?}", list.not_fixed);
        // metadata already keeps another original name: nothing is lost.
        let taken = fix(
            "---\nname: PDF\ndescription: d\nmetadata:\n  original-name: Older\n---\n",
            "pdf",
        );
        assert!(taken.repairs.is_empty());
        assert!(taken.not_fixed[0].contains("already has 'original-name'"));
        let inline = fix(
            "---\nname: PDF\ndescription: d\nmetadata: {a: b}\n---\n",
            "pdf",
        );
        assert!(inline.repairs.is_empty());
        let empty = fix("---\nname: PDF\ndescription: d\nmetadata: {}\n---\n", "pdf");
        assert_eq!(
            empty.text,
            "---\nname: pdf\ndescription: d\nmetadata:\n  original-name: \"PDF\"\n---\n"
        );
    }

    #[test]
    fn an_invalid_directory_name_changes_nothing_and_is_named() {
        let fixed = fix("---\nname: PDF Tools\ndescription: d\n---\n", "PDF_Tools");
        assert!(fixed.repairs.is_empty());
        assert_eq!(fixed.text, "---\nname: PDF Tools\ndescription: d\n---\n");
        assert_eq!(fixed.rename_dir.as_deref(), Some("pdf-tools"));
        assert!(
            fixed.not_fixed[0].contains("rename the directory to 'pdf-tools'"),
            "{:?}",
            fixed.not_fixed
        );
        // A valid name is what the directory should be called.
        let named = fix("---\nname: pdf-kit\ndescription: d\n---\n", "PDF_Tools");
        assert_eq!(named.rename_dir.as_deref(), Some("pdf-kit"));
        let long = "a-".repeat(40) + "b";
        assert_eq!(
            suggested_directory_name(None, &long.to_uppercase()).unwrap(),
            "a-".repeat(32).trim_end_matches('-')
        );
        assert_eq!(
            suggested_directory_name(Some("Claude Tools"), "Claude_Tools"),
            None
        );
    }

    #[test]
    fn a_result_that_still_fails_is_refused() {
        let fixed = fix("---\nname: a\nlicense: 2.0\n---\n", "a");
        assert!(fixed.refused.is_some());
    }

    #[test]
    fn trailing_comments_are_found_after_the_value() {
        assert_eq!(trailing_comment("name: a # c"), Some("# c"));
        assert_eq!(trailing_comment("name: \"a #1\" # c"), Some("# c"));
        assert_eq!(trailing_comment("name: \"a #1\\\" #2\""), None);
        assert_eq!(trailing_comment("name: 'it''s #1'  # c"), Some("# c"));
        assert_eq!(trailing_comment("name: a#b"), None);
    }

    #[test]
    fn kebab_case_of_titles() {
        assert_eq!(kebab_case("PDF Tools"), "pdf-tools");
        assert_eq!(kebab_case("  Data -- Analysis! "), "data-analysis");
        assert_eq!(kebab_case("Ünïcode Name"), "ünïcode-name");
    }
}
