//! Splitting a `SKILL.md` into frontmatter and body, and parsing the
//! frontmatter YAML under tight budgets.
//!
//! The split is by lines, not by searching for `---`: the frontmatter opens
//! with a first line that is exactly `---` and closes at the next line that
//! is exactly `---`, so a `---` inside a value never ends it. A UTF-8 BOM
//! and CRLF line endings are tolerated.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;
use serde_saphyr::options::{DuplicateKeyPolicy, MergeKeyPolicy, NonFiniteFloatPolicy};

mod simple;

/// A skill file cut into its two parts. Line numbers are 1-based lines of
/// the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document<'a> {
    pub yaml: &'a str,
    /// The file line holding the first line of `yaml`.
    pub yaml_first_line: usize,
    pub body: &'a str,
    /// The file line holding the first line of `body`.
    pub body_first_line: usize,
}

/// Why a file has no usable frontmatter block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// The first line is not exactly `---`; `padded` when it is `---`
    /// followed by whitespace.
    Missing { padded: bool },
    /// No later line is exactly `---`; `padded_line` is the first later
    /// line that is `---` followed by whitespace, if any.
    Unclosed { padded_line: Option<usize> },
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::Missing { padded } => {
                f.write_str("no frontmatter: the first line must be exactly '---'")?;
                if *padded {
                    f.write_str(" (it has whitespace after the dashes)")?;
                }
                Ok(())
            }
            SplitError::Unclosed { padded_line } => {
                f.write_str("frontmatter is not closed: no later line is exactly '---'")?;
                if let Some(line) = padded_line {
                    write!(
                        f,
                        " (line {line} has whitespace after the dashes, so it does not close it)"
                    )?;
                }
                Ok(())
            }
        }
    }
}

const BOM: char = '\u{feff}';

/// `---` with trailing whitespace: what an editor leaves, and what does
/// not count as a delimiter.
fn is_padded_delimiter(line: &str) -> bool {
    line != "---" && line.trim_end() == "---"
}

/// Cuts `text` into frontmatter and body.
pub fn split(text: &str) -> Result<Document<'_>, SplitError> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let mut lines = LineSpans::new(text);
    match lines.next() {
        Some((_, "---")) => {}
        first => {
            return Err(SplitError::Missing {
                padded: first.is_some_and(|(_, line)| is_padded_delimiter(line)),
            });
        }
    }
    let yaml_start = lines.offset;
    let mut line_number = 1;
    let mut padded_line = None;
    while let Some((start, line)) = lines.next() {
        line_number += 1;
        if line == "---" {
            return Ok(Document {
                yaml: &text[yaml_start..start],
                yaml_first_line: 2,
                body: &text[lines.offset..],
                body_first_line: line_number + 1,
            });
        }
        if padded_line.is_none() && is_padded_delimiter(line) {
            padded_line = Some(line_number);
        }
    }
    Err(SplitError::Unclosed { padded_line })
}

/// Lines of a text with their start offsets, without the `\n` or `\r\n`.
struct LineSpans<'a> {
    text: &'a str,
    offset: usize,
}

impl<'a> LineSpans<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, offset: 0 }
    }
}

impl<'a> Iterator for LineSpans<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.offset >= self.text.len() {
            return None;
        }
        let start = self.offset;
        let rest = &self.text[start..];
        let (line, advance) = match rest.find('\n') {
            Some(end) => (&rest[..end], end + 1),
            None => (rest, rest.len()),
        };
        self.offset += advance;
        Some((start, line.strip_suffix('\r').unwrap_or(line)))
    }
}

/// One top-level frontmatter key, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    /// The file line of the key, where known.
    pub line: Option<usize>,
    pub value: YamlValue,
}

/// A frontmatter value: the YAML 1.2 core types, each scalar that is not a
/// string kept as written (`1.10`, `012`, `True`, `~`, `.NaN`). The rules
/// only need the type; `read-properties` prints scalars as written, as the
/// reference implementation (which reads every scalar as text) does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlValue {
    /// `~`, `null`, or nothing at all.
    Null {
        written: String,
    },
    /// `true` or `false` in any of YAML 1.2's spellings.
    Bool {
        written: String,
    },
    /// Any number, including `.inf`, `.nan` and ones too large for a float.
    Number {
        written: String,
    },
    String(String),
    List(Vec<YamlValue>),
    /// Entries in file order; a repeated key keeps its first value.
    Mapping(Vec<(String, YamlValue)>),
}

impl YamlValue {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            YamlValue::String(text) => Some(text),
            _ => None,
        }
    }

    pub fn is_string(&self) -> bool {
        matches!(self, YamlValue::String(_))
    }

    /// The type, as messages name it: `a number`, `a list`...
    pub fn type_name(&self) -> &'static str {
        match self {
            YamlValue::Null { .. } => "null",
            YamlValue::Bool { .. } => "a boolean",
            YamlValue::Number { .. } => "a number",
            YamlValue::String(_) => "a string",
            YamlValue::List(_) => "a list",
            YamlValue::Mapping(_) => "a mapping",
        }
    }

    /// A scalar as text: a string as it is, anything else as written.
    /// `None` for a list or a mapping.
    pub fn scalar_text(&self) -> Option<&str> {
        match self {
            YamlValue::String(text)
            | YamlValue::Null { written: text }
            | YamlValue::Bool { written: text }
            | YamlValue::Number { written: text } => Some(text),
            YamlValue::List(_) | YamlValue::Mapping(_) => None,
        }
    }

    /// The value as the reference implementation's data: every scalar a
    /// string (as written), lists and mappings as JSON arrays and objects.
    pub fn to_text_json(&self) -> serde_json::Value {
        match self {
            YamlValue::List(items) => items.iter().map(YamlValue::to_text_json).collect(),
            YamlValue::Mapping(entries) => {
                let mut object = serde_json::Map::new();
                for (key, value) in entries {
                    object
                        .entry(key.clone())
                        .or_insert_with(|| value.to_text_json());
                }
                serde_json::Value::Object(object)
            }
            scalar => {
                serde_json::Value::String(scalar.scalar_text().unwrap_or_default().to_owned())
            }
        }
    }
}

/// A key that appears more than once. The first occurrence is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    pub key: String,
    pub line: Option<usize>,
    pub first_line: Option<usize>,
}

/// The parsed frontmatter mapping.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frontmatter {
    pub entries: Vec<Entry>,
    pub duplicates: Vec<DuplicateKey>,
}

impl Frontmatter {
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.key == key)
    }
}

/// Why the frontmatter YAML could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Not valid YAML.
    Syntax {
        message: String,
        line: Option<usize>,
    },
    /// Valid YAML, perhaps, but beyond the parsing budget (too deep, too
    /// many aliases, too big): the shape of a YAML bomb.
    Budget {
        message: String,
        line: Option<usize>,
    },
    /// A document that is not a mapping (a list, a string, ...).
    NotMapping { found: &'static str },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Syntax { message, .. } => write!(f, "invalid YAML: {message}"),
            ParseError::Budget { message, .. } => write!(f, "{message}"),
            ParseError::NotMapping { found } => {
                write!(f, "frontmatter must be a YAML mapping, found {found}")
            }
        }
    }
}

/// Limits far above any real frontmatter and far below what would hurt:
/// a billion-laughs file or 100,000 nested brackets fails on the first
/// breach, in microseconds, before any deep recursion.
pub mod limits {
    pub const MAX_DEPTH: usize = 32;
    pub const MAX_FLOW_NESTING: usize = 32;
    pub const MAX_EVENTS: usize = 100_000;
    pub const MAX_NODES: usize = 50_000;
    pub const MAX_ALIASES: usize = 100;
    pub const MAX_ANCHORS: usize = 100;
    pub const MAX_REPLAYED_EVENTS: usize = 10_000;
    pub const MAX_SCALAR_BYTES: usize = 1024 * 1024;
}

pub(crate) fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: limits::MAX_DEPTH,
            flow_nesting_limit: limits::MAX_FLOW_NESTING,
            max_events: limits::MAX_EVENTS,
            max_nodes: limits::MAX_NODES,
            max_aliases: limits::MAX_ALIASES,
            max_anchors: limits::MAX_ANCHORS,
            max_total_scalar_bytes: limits::MAX_SCALAR_BYTES,
            max_documents: 1,
            max_merge_keys: 16,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: limits::MAX_REPLAYED_EVENTS,
            max_replay_stack_depth: 8,
        },
        // Duplicates reach our visitor, which reports them as a finding
        // instead of failing the whole parse.
        duplicate_keys: DuplicateKeyPolicy::PassThrough,
        merge_keys: MergeKeyPolicy::AsOrdinary,
        // YAML 1.2 booleans only: `name: yes` stays a string.
        strict_booleans: true,
        // YAML 1.2 has no `1_000`: it is a string, as in the core schema.
        underscored_numbers_as_strings: true,
        // `.nan` and `1e400` are numbers like any other (kept as written).
        non_finite_float_policy: NonFiniteFloatPolicy::PassThrough,
        with_snippet: false,
    }
}

/// Parses the frontmatter YAML of `document`, for the rules: a scalar
/// that is not a string carries the text the parser read it as (`1.1` for
/// `1.10`). [`parse_as_written`] keeps the text as written, at a cost.
pub fn parse(document: &Document<'_>) -> Result<Frontmatter, ParseError> {
    // Nearly every skill's frontmatter is in the fast path's small
    // grammar, whose reading is serde-saphyr's (see `simple`).
    if let Some(entries) = simple::parse(document.yaml) {
        let line_offset = document.yaml_first_line - 1;
        return Ok(dedupe(
            entries
                .into_iter()
                .map(|(key, line, value)| (key, Some(line + line_offset), value)),
        ));
    }
    parse_with::<Plain>(document)
}

/// Parses the frontmatter YAML of `document`, each scalar that is not a
/// string with its text as written (`1.10`, `True`), for printing.
pub fn parse_as_written(document: &Document<'_>) -> Result<Frontmatter, ParseError> {
    parse_with::<AsWritten>(document)
}

fn parse_with<C: Capture>(document: &Document<'_>) -> Result<Frontmatter, ParseError> {
    if document.yaml.trim().is_empty() {
        return Ok(Frontmatter::default());
    }
    let line_offset = document.yaml_first_line - 1;
    let top: TopLevel<C> = serde_saphyr::from_str_with_options(document.yaml, options())
        .map_err(|err| yaml_error(&err, document.yaml, line_offset))?;
    match top {
        TopLevel::Null => Ok(Frontmatter::default()),
        TopLevel::Other(found) => Err(ParseError::NotMapping { found }),
        TopLevel::Mapping(raw) => Ok(collect_entries::<C>(raw, document.yaml, line_offset)),
    }
}

fn collect_entries<C: Capture>(
    raw: Vec<(Spanned<KeyText>, C::Child)>,
    yaml: &str,
    line_offset: usize,
) -> Frontmatter {
    dedupe(raw.into_iter().map(|(key, value)| {
        (
            key.value.0,
            file_line(key.referenced.line(), line_offset),
            value_of::<C>(value, yaml),
        )
    }))
}

/// The entries in order, a repeated key recorded as a duplicate and its
/// first value kept.
fn dedupe(raw: impl Iterator<Item = (String, Option<usize>, YamlValue)>) -> Frontmatter {
    /// Up to this many keys, an earlier one is found by reading them all
    /// (a real frontmatter has a handful); past it, through a map, so
    /// that a thousand keys cost a thousand lookups.
    const SCANNED: usize = 16;
    let mut frontmatter = Frontmatter::default();
    // Key to its line, once there are more than `SCANNED` keys.
    let mut seen: Option<std::collections::HashMap<String, Option<usize>>> = None;
    for (key, line, value) in raw {
        let earlier = match &mut seen {
            None if frontmatter.entries.len() <= SCANNED => frontmatter
                .entries
                .iter()
                .find(|entry| entry.key == key)
                .map(|entry| entry.line),
            _ => seen
                .get_or_insert_with(|| {
                    frontmatter
                        .entries
                        .iter()
                        .map(|entry| (entry.key.clone(), entry.line))
                        .collect()
                })
                .get(&key)
                .copied(),
        };
        if let Some(first_line) = earlier {
            frontmatter.duplicates.push(DuplicateKey {
                key,
                line,
                first_line,
            });
            continue;
        }
        if let Some(seen) = &mut seen {
            seen.insert(key.clone(), line);
        }
        frontmatter.entries.push(Entry { key, line, value });
    }
    frontmatter
}

fn file_line(yaml_line: u64, line_offset: usize) -> Option<usize> {
    if yaml_line == 0 {
        return None;
    }
    usize::try_from(yaml_line)
        .ok()
        .map(|line| line + line_offset)
}

fn yaml_error(err: &serde_saphyr::Error, yaml: &str, line_offset: usize) -> ParseError {
    let line = err
        .location()
        .and_then(|location| file_line(location.line(), line_offset));
    let syntax = |message: String| {
        let yaml_line = err.location().map(|location| location.line()).unwrap_or(0);
        let column = err
            .location()
            .map(|location| location.column())
            .unwrap_or(0);
        let source_line = usize::try_from(yaml_line)
            .ok()
            .and_then(|number| number.checked_sub(1))
            .and_then(|index| yaml.lines().nth(index));
        ParseError::Syntax {
            message: with_position_and_hint(&message, column, source_line),
            line,
        }
    };
    let message = without_position(&first_line_of(&err.to_string()));
    if let serde_saphyr::Error::Budget {
        breach: serde_saphyr::budget::BudgetBreach::Documents { .. },
        ..
    } = err
    {
        // A `---` (or `...`) line inside the block, usually a closing line
        // with trailing whitespace: a mistake, not a bomb.
        return syntax(
            "a second YAML document starts inside the frontmatter (a '---' or '...' line with something after it?)".to_owned(),
        );
    }
    if let serde_saphyr::Error::Budget { breach, .. } = err {
        return ParseError::Budget {
            message: format!(
                "frontmatter exceeds the YAML parsing budget: {}",
                describe_breach(breach)
            ),
            line,
        };
    }
    let alias_bomb = matches!(
        err,
        serde_saphyr::Error::AliasReplayCounterOverflow { .. }
            | serde_saphyr::Error::AliasReplayLimitExceeded { .. }
            | serde_saphyr::Error::AliasExpansionLimitExceeded { .. }
            | serde_saphyr::Error::AliasReplayStackDepthExceeded { .. }
    );
    if alias_bomb {
        return ParseError::Budget {
            message: format!(
                "frontmatter exceeds the YAML parsing budget: aliases expand to more than {} nodes (a YAML bomb?)",
                limits::MAX_REPLAYED_EVENTS
            ),
            line,
        };
    }
    // Alias-replay errors arrive wrapped (with their use site), and the
    // scanner's nesting limit is a plain message: classify by wording.
    let over_a_limit = ["limit", "nesting", "recursion", "budget"]
        .iter()
        .any(|word| message.contains(word));
    if over_a_limit {
        return ParseError::Budget {
            message: format!("frontmatter exceeds the YAML parsing budget: {message}"),
            line,
        };
    }
    syntax(message)
}

/// A scanner message with its column and, where the cause is a common
/// one, what to do about it in plain words.
fn with_position_and_hint(message: &str, column: u64, source_line: Option<&str>) -> String {
    let mut out = message.to_owned();
    if column > 0 {
        out.push_str(&format!(" (column {column})"));
    }
    if let Some(hint) = syntax_hint(message, source_line) {
        out.push_str("; ");
        out.push_str(&hint);
    }
    out
}

/// Plain-language advice for the YAML mistakes skill authors make.
fn syntax_hint(message: &str, source_line: Option<&str>) -> Option<String> {
    if message.contains("mapping values are not allowed") {
        // `key: text: more`: the second `: ` reads as a nested mapping.
        let quoted = source_line.and_then(|line| {
            let (key, value) = line.split_once(": ")?;
            let key = key.trim_end();
            let simple_key = !key.is_empty()
                && !key.starts_with(char::is_whitespace)
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
            simple_key.then(|| {
                let value = value.trim();
                let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
                format!("{key}: \"{escaped}\"")
            })
        });
        return Some(match quoted {
            Some(quoted) => format!(
                "a value holding ': ' must be quoted, e.g. {}",
                crate::report::escape_controls(&quoted)
            ),
            None => "a value holding ': ' must be quoted (wrap it in double quotes)".to_owned(),
        });
    }
    if message.contains("cannot start any token") || message.contains("unexpected character") {
        return Some(
            "a value starting with a character such as @, ` or % must be quoted".to_owned(),
        );
    }
    if message.contains("unclosed bracket") || message.contains("did not find expected ',' or") {
        return Some(
            "a value starting with [ or { is read as a list or mapping; quote it if it is text"
                .to_owned(),
        );
    }
    if message.to_ascii_lowercase().contains("tab") {
        return Some("indent YAML with spaces, not tabs".to_owned());
    }
    None
}

fn describe_breach(breach: &serde_saphyr::budget::BudgetBreach) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    match breach {
        B::Depth { .. } => format!("nested deeper than {} levels", limits::MAX_DEPTH),
        B::Aliases { .. } | B::AliasAnchorRatio { .. } => {
            format!("more than {} aliases (a YAML bomb?)", limits::MAX_ALIASES)
        }
        B::Anchors { .. } => format!("more than {} anchors", limits::MAX_ANCHORS),
        B::Events { .. } => format!("more than {} YAML events", limits::MAX_EVENTS),
        B::Nodes { .. } => format!("more than {} YAML nodes", limits::MAX_NODES),
        B::ScalarBytes { .. } => format!("more than {} bytes of text", limits::MAX_SCALAR_BYTES),
        B::Documents { .. } => "more than one YAML document".to_owned(),
        other => format!("{other:?}"),
    }
}

/// The parser's messages end in a position inside the YAML block; the
/// diagnostic carries the file line instead.
fn without_position(message: &str) -> String {
    match message.find(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
}

fn first_line_of(message: &str) -> String {
    message.lines().next().unwrap_or(message).trim().to_owned()
}

/// A YAML node as parsed; its children are [`Capture::Child`]ren.
enum RawNode<C: Capture> {
    Null,
    Bool(bool),
    /// The number as the parser read it, for when the source text is not
    /// kept or cannot be found.
    Number(String),
    String(String),
    List(Vec<C::Child>),
    Mapping(Vec<(KeyText, C::Child)>),
}

/// Whether nodes are read with their spans, which give each scalar's text
/// as written. Spans cost a tenth of the parse, and only `read-properties`
/// prints scalars, so the rules go without.
trait Capture: Sized {
    type Child: for<'de> Deserialize<'de>;
    /// The node and, when kept, the text it was written as.
    fn open(child: Self::Child, yaml: &str) -> (RawNode<Self>, Option<&str>);
}

/// Without spans: non-string scalars as the parser read them.
struct Plain;

impl Capture for Plain {
    type Child = RawNode<Plain>;

    fn open(child: Self::Child, _yaml: &str) -> (RawNode<Self>, Option<&str>) {
        (child, None)
    }
}

/// With spans: non-string scalars as written (an alias gives the text of
/// what it refers to).
struct AsWritten;

impl Capture for AsWritten {
    type Child = Spanned<RawNode<AsWritten>>;

    fn open(child: Self::Child, yaml: &str) -> (RawNode<Self>, Option<&str>) {
        let span = child.defined.span();
        let written = (|| {
            let start = usize::try_from(span.byte_offset()?).ok()?;
            let length = usize::try_from(span.byte_len()?).ok()?;
            yaml.get(start..start.checked_add(length)?).map(str::trim)
        })();
        (child.value, written)
    }
}

/// The value of a node.
fn value_of<C: Capture>(child: C::Child, yaml: &str) -> YamlValue {
    let (node, written) = C::open(child, yaml);
    let written = |parsed: String| written.map_or(parsed, str::to_owned);
    match node {
        RawNode::Null => YamlValue::Null {
            written: written(String::new()),
        },
        RawNode::Bool(value) => YamlValue::Bool {
            written: written(value.to_string()),
        },
        RawNode::Number(parsed) => YamlValue::Number {
            written: written(parsed),
        },
        RawNode::String(text) => YamlValue::String(text),
        RawNode::List(items) => YamlValue::List(
            items
                .into_iter()
                .map(|item| value_of::<C>(item, yaml))
                .collect(),
        ),
        RawNode::Mapping(entries) => YamlValue::Mapping(
            entries
                .into_iter()
                .map(|(key, value)| (key.0, value_of::<C>(value, yaml)))
                .collect(),
        ),
    }
}

impl<'de, C: Capture> Deserialize<'de> for RawNode<C> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RawNodeVisitor(std::marker::PhantomData))
    }
}

struct RawNodeVisitor<C>(std::marker::PhantomData<C>);

impl<'de, C: Capture> Visitor<'de> for RawNodeVisitor<C> {
    type Value = RawNode<C>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<RawNode<C>, E> {
        Ok(RawNode::String(text.to_owned()))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<RawNode<C>, E> {
        Ok(RawNode::String(text))
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<RawNode<C>, E> {
        Ok(RawNode::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<RawNode<C>, E> {
        Ok(RawNode::Number(value.to_string()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<RawNode<C>, E> {
        Ok(RawNode::Number(value.to_string()))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<RawNode<C>, E> {
        Ok(RawNode::Number(value.to_string()))
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<RawNode<C>, E> {
        Ok(RawNode::Number(value.to_string()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<RawNode<C>, E> {
        Ok(RawNode::Number(value.to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<RawNode<C>, E> {
        Ok(RawNode::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<RawNode<C>, E> {
        Ok(RawNode::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<RawNode<C>, D::Error> {
        RawNode::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawNode<C>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<C::Child>()? {
            items.push(item);
        }
        Ok(RawNode::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawNode<C>, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<KeyText>()? {
            let value = map.next_value::<C::Child>()?;
            entries.push((key, value));
        }
        Ok(RawNode::Mapping(entries))
    }
}

/// A mapping key as text, whatever its YAML type: `1: x` has key `1`,
/// `~: x` has key `null`, and a list or mapping used as a key is named by
/// its kind (it is never a known key, so it only gets an unknown-key note).
pub(crate) struct KeyText(pub(crate) String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KeyTextVisitor)
    }
}

struct KeyTextVisitor;

impl<'de> Visitor<'de> for KeyTextVisitor {
    type Value = KeyText;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping key")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<KeyText, E> {
        Ok(KeyText(text.to_owned()))
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<KeyText, E> {
        Ok(KeyText(value.to_string()))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<KeyText, E> {
        Ok(KeyText(value.to_string()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<KeyText, E> {
        Ok(KeyText(value.to_string()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<KeyText, E> {
        Ok(KeyText(value.to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<KeyText, E> {
        Ok(KeyText("null".to_owned()))
    }

    fn visit_none<E: de::Error>(self) -> Result<KeyText, E> {
        Ok(KeyText("null".to_owned()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyText, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(KeyText("<list>".to_owned()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeyText, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(KeyText("<mapping>".to_owned()))
    }
}

/// The top-level YAML node: a mapping (with key spans), or the kind of
/// whatever else it was.
enum TopLevel<C: Capture> {
    Mapping(Vec<(Spanned<KeyText>, C::Child)>),
    Null,
    Other(&'static str),
}

impl<'de, C: Capture> Deserialize<'de> for TopLevel<C> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TopLevelVisitor(std::marker::PhantomData))
    }
}

struct TopLevelVisitor<C>(std::marker::PhantomData<C>);

impl<'de, C: Capture> Visitor<'de> for TopLevelVisitor<C> {
    type Value = TopLevel<C>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML mapping")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopLevel<C>, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<KeyText>>()? {
            let value = map.next_value::<C::Child>()?;
            entries.push((key, value));
        }
        Ok(TopLevel::Mapping(entries))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TopLevel<C>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(TopLevel::Other("a list"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<TopLevel<C>, E> {
        Ok(TopLevel::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<TopLevel<C>, E> {
        Ok(TopLevel::Null)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<TopLevel<C>, E> {
        Ok(TopLevel::Other("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<TopLevel<C>, E> {
        Ok(TopLevel::Other("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<TopLevel<C>, E> {
        Ok(TopLevel::Other("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<TopLevel<C>, E> {
        Ok(TopLevel::Other("a number"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<TopLevel<C>, E> {
        Ok(TopLevel::Other("a string"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Frontmatter, ParseError> {
        parse(&split(text).expect("split"))
    }

    #[test]
    fn splits_by_whole_lines() {
        let doc = split("---\nname: a\ndescription: x --- y\n---\n# Body\n").unwrap();
        assert_eq!(doc.yaml, "name: a\ndescription: x --- y\n");
        assert_eq!(doc.body, "# Body\n");
        assert_eq!(doc.body_first_line, 5);
    }

    #[test]
    fn tolerates_bom_and_crlf() {
        let doc = split("\u{feff}---\r\nname: a\r\n---\r\nbody\r\n").unwrap();
        assert_eq!(doc.yaml, "name: a\r\n");
        assert_eq!(doc.body, "body\r\n");
        let fm = parse(&doc).unwrap();
        assert_eq!(fm.get("name").unwrap().value.as_str(), Some("a"));
        assert_eq!(fm.get("name").unwrap().line, Some(2));
    }

    #[test]
    fn missing_and_unclosed() {
        let missing = Err(SplitError::Missing { padded: false });
        let unclosed = Err(SplitError::Unclosed { padded_line: None });
        assert_eq!(split("name: a\n"), missing);
        assert_eq!(
            split("--- \nname: a\n---\n"),
            Err(SplitError::Missing { padded: true })
        );
        assert_eq!(split(""), missing);
        assert_eq!(split("---\nname: a\n"), unclosed);
        assert_eq!(split("---\nname: a\n----\n"), unclosed);
    }

    #[test]
    fn a_closing_line_with_trailing_whitespace_gets_a_hint() {
        let err = split("---\nname: a\n---  \nbody\n").unwrap_err();
        assert_eq!(
            err,
            SplitError::Unclosed {
                padded_line: Some(3)
            }
        );
        assert!(
            err.to_string()
                .contains("line 3 has whitespace after the dashes"),
            "{err}"
        );
        // A real `---` later closes the block around the padded one: the
        // YAML then holds a second document, which is no budget breach.
        match parse_text("---\nname: a\n--- \nbody\n---\n") {
            Err(ParseError::Syntax { message, line }) => {
                assert!(message.contains("second YAML document"), "{message}");
                assert_eq!(line, Some(3));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keeps_key_lines_and_order() {
        let fm = parse_text("---\nname: a\n\ndescription: |\n  long\n  text\nlicense: MIT\n---\n")
            .unwrap();
        let keys: Vec<_> = fm
            .entries
            .iter()
            .map(|e| (e.key.as_str(), e.line))
            .collect();
        assert_eq!(
            keys,
            [
                ("name", Some(2)),
                ("description", Some(4)),
                ("license", Some(7))
            ]
        );
    }

    #[test]
    fn duplicate_keys_are_recorded_and_the_first_kept() {
        let fm = parse_text("---\nname: a\nname: b\n---\n").unwrap();
        assert_eq!(fm.get("name").unwrap().value.as_str(), Some("a"));
        assert_eq!(
            fm.duplicates,
            [DuplicateKey {
                key: "name".into(),
                line: Some(3),
                first_line: Some(2)
            }]
        );
    }

    #[test]
    fn duplicates_are_found_among_many_keys() {
        let mut yaml = String::from("---\n");
        for key in 0..40 {
            yaml.push_str(&format!("k{key}: a\n"));
        }
        yaml.push_str("k3: b\nk39: c\nk40: d\nk40: e\n---\n");
        let fm = parse_text(&yaml).unwrap();
        assert_eq!(fm.entries.len(), 41);
        let duplicates: Vec<_> = fm
            .duplicates
            .iter()
            .map(|d| (d.key.as_str(), d.line, d.first_line))
            .collect();
        assert_eq!(
            duplicates,
            [
                ("k3", Some(42), Some(5)),
                ("k39", Some(43), Some(41)),
                ("k40", Some(45), Some(44))
            ]
        );
    }

    #[test]
    fn keys_of_any_type_become_text() {
        let fm = parse_text("---\n1: a\n~: b\ntrue: c\n[x]: d\n? {k: v}\n: e\n---\n").unwrap();
        let keys: Vec<_> = fm.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["1", "null", "true", "<list>", "<mapping>"]);
    }

    #[test]
    fn syntax_messages_leave_the_position_to_the_line_field() {
        match parse_text("---\nname: a\ndescription: \"\\ud800\"\n---\n").unwrap_err() {
            ParseError::Syntax { message, line } => {
                assert!(!message.contains(" at line "), "{message}");
                assert_eq!(line, Some(3));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn non_mapping_documents_are_named() {
        assert_eq!(
            parse_text("---\n- a\n- b\n---\n"),
            Err(ParseError::NotMapping { found: "a list" })
        );
        assert_eq!(
            parse_text("---\njust text\n---\n"),
            Err(ParseError::NotMapping { found: "a string" })
        );
        assert_eq!(
            parse_text("---\n42\n---\n"),
            Err(ParseError::NotMapping { found: "a number" })
        );
    }

    #[test]
    fn empty_frontmatter_is_an_empty_mapping() {
        assert_eq!(parse_text("---\n---\n").unwrap(), Frontmatter::default());
        assert_eq!(parse_text("---\n~\n---\n").unwrap(), Frontmatter::default());
    }

    #[test]
    fn invalid_yaml_has_a_line() {
        let err = parse_text("---\nname: a\ndescription: [unclosed\n---\n").unwrap_err();
        match err {
            ParseError::Syntax { line, .. } => assert!(line.is_some()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn yes_stays_a_string_and_numbers_stay_numbers() {
        let fm = parse_text("---\nname: yes\nversion: 1.5\n---\n").unwrap();
        assert_eq!(fm.get("name").unwrap().value.as_str(), Some("yes"));
        assert_eq!(fm.get("version").unwrap().value.type_name(), "a number");
    }

    #[test]
    fn scalars_keep_their_text_as_written() {
        let parse_text = |text: &str| parse_as_written(&split(text).expect("split"));
        let fm = parse_text(
            "---\na: 1.10\nb: 012\nc: 123456789012345678901234567890\nd: 1e400\ne: .NaN\n\
             f: True\ng:\nh: ~\ni: 0x1F\nj: *x\nk: \"1.10\"\nl: 1_000\nm: [1.50, &x -0.0]\n\
             n:\n  v: 1.0  # a comment\n---\n",
        );
        // `j` names an anchor defined later: invalid, so parse separately.
        assert!(fm.is_err());
        let fm = parse_text(
            "---\na: 1.10\nb: 012\nc: 123456789012345678901234567890\nd: 1e400\ne: .NaN\n\
             f: True\ng:\nh: ~\ni: &x 0x1F\nj: *x\nk: \"1.10\"\nl: 1_000\nm: [1.50, -0.0]\n\
             n:\n  v: 1.0  # a comment\n---\n",
        )
        .unwrap();
        let text = |key: &str| fm.get(key).unwrap().value.to_text_json();
        for (key, written, type_name) in [
            ("a", "1.10", "a number"),
            ("b", "012", "a number"),
            ("c", "123456789012345678901234567890", "a number"),
            ("d", "1e400", "a number"),
            ("e", ".NaN", "a number"),
            ("f", "True", "a boolean"),
            ("g", "", "null"),
            ("h", "~", "null"),
            ("i", "0x1F", "a number"),
            ("j", "0x1F", "a number"),
            ("k", "1.10", "a string"),
            ("l", "1_000", "a string"),
        ] {
            assert_eq!(text(key), written, "{key}");
            assert_eq!(fm.get(key).unwrap().value.type_name(), type_name, "{key}");
        }
        assert_eq!(text("m"), serde_json::json!(["1.50", "-0.0"]));
        assert_eq!(text("n"), serde_json::json!({"v": "1.0"}));
        // The rules' parse keeps the types and the parser's reading.
        let plain = parse(&split("---\na: 1.10\nb: True\n---\n").unwrap()).unwrap();
        assert_eq!(
            plain.get("a").unwrap().value,
            YamlValue::Number {
                written: "1.1".into()
            }
        );
        assert_eq!(plain.get("b").unwrap().value.type_name(), "a boolean");
    }

    #[test]
    fn billion_laughs_hits_the_budget() {
        let mut yaml = String::from(
            "---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        let mut previous = 'a';
        for name in 'b'..='j' {
            yaml.push_str(&format!("{name}: &{name} [*{previous},*{previous},*{previous},*{previous},*{previous},*{previous},*{previous},*{previous},*{previous}]\n"));
            previous = name;
        }
        yaml.push_str("---\n");
        match parse_text(&yaml) {
            Err(ParseError::Budget { .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn deep_brackets_hit_the_budget_without_overflowing() {
        let text = format!("---\nname: {}\n---\n", "[".repeat(100_000));
        match parse_text(&text) {
            Err(ParseError::Budget { .. }) => {}
            other => panic!("{other:?}"),
        }
        let text = format!("---\nname: {}\n---\n", "{a: ".repeat(100_000));
        assert!(parse_text(&text).is_err());
    }

    #[test]
    fn deep_block_nesting_hits_the_budget() {
        let mut yaml = String::from("---\n");
        for depth in 0..200 {
            yaml.push_str(&" ".repeat(depth));
            yaml.push_str("k:\n");
        }
        yaml.push_str("---\n");
        match parse_text(&yaml) {
            Err(ParseError::Budget { .. }) => {}
            other => panic!("{other:?}"),
        }
    }
}
