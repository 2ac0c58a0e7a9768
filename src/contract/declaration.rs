//! A declared command, as the rest of aigent sees it once its file has been
//! read and linted.

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;
use strum::{EnumString, IntoStaticStr, VariantArray};

use super::bounds::NumberBounds;

/// One command: what it takes and what it runs. Built by
/// [`super::parse_declaration`]; every field has passed the registration
/// lint, so the guard can rely on it (patterns compile, names are unique).
#[derive(Debug, Clone, PartialEq)]
pub struct Declaration {
    pub name: String,
    pub description: String,
    pub danger_level: Option<DangerLevel>,
    pub inputs: Inputs,
    pub subprocess: Option<Subprocess>,
    /// `timeout_s`: the run's default time limit.
    pub timeout: Option<std::time::Duration>,
    /// `long_running: true`: a run may take long enough that an MCP client
    /// that speaks the tasks extension gets a task to poll, not a result
    /// to wait for.
    pub long_running: bool,
    /// Always filled: a file without a map gets [`ExitCode::standard_table`].
    /// These describe the child's own statuses, never aigent's.
    pub exit_codes: Vec<ExitCode>,
    /// The child's statuses that count as success (`ok: true`, aigent
    /// exits 0); `[0]` unless the file says otherwise. Sorted, no repeats.
    pub success_exit_codes: Vec<u8>,
    /// The `sandbox` section as written; `None` takes every default (see
    /// `super::sandbox::EffectiveSandbox`).
    pub sandbox: Option<super::sandbox::spec::SandboxSpec>,
    /// `class` as written; [`Declaration::class`] derives it otherwise.
    pub class: Option<CommandClass>,
}

/// How a command declares what it takes.
#[derive(Debug, Clone, PartialEq)]
pub enum Inputs {
    /// aigent's own format, in declared order.
    Parameters(Vec<Parameter>),
    /// An MCP-style raw JSON Schema.
    InputSchema(InputSchema),
}

impl Declaration {
    /// The declared entry for the child's exit status `code`, if any.
    pub fn exit_code(&self, code: i32) -> Option<&ExitCode> {
        self.exit_codes
            .iter()
            .find(|entry| i32::from(entry.code) == code)
    }

    /// Whether the child's exit status `code` counts as success.
    pub fn is_success_exit(&self, code: i32) -> bool {
        self.success_exit_codes
            .iter()
            .any(|success| i32::from(*success) == code)
    }

    /// What the command does, as the hook's policy sees it: `class` as
    /// written, else the one its danger level implies.
    pub fn class(&self) -> CommandClass {
        self.class.unwrap_or(match self.danger_level {
            Some(DangerLevel::Safe) => CommandClass::Reads,
            Some(DangerLevel::Mutating) => CommandClass::ChangesProject,
            Some(DangerLevel::Destructive) | None => CommandClass::DiscardsWork,
        })
    }

    /// A destructive command runs only when the caller confirms it.
    pub fn requires_confirmation(&self) -> bool {
        self.danger_level == Some(DangerLevel::Destructive)
    }

    /// The declared parameters, empty for an `input_schema` command.
    pub fn parameters(&self) -> &[Parameter] {
        match &self.inputs {
            Inputs::Parameters(parameters) => parameters,
            Inputs::InputSchema(_) => &[],
        }
    }

    pub fn parameter(&self, name: &str) -> Option<&Parameter> {
        self.parameters()
            .iter()
            .find(|parameter| parameter.name == name)
    }

    /// Whether `name` is passed to the subprocess, where shell
    /// metacharacters and leading dashes are dangerous.
    pub fn is_user_controlled(&self, name: &str) -> bool {
        self.subprocess.as_ref().is_some_and(|subprocess| {
            subprocess
                .user_controlled_args
                .iter()
                .any(|arg| arg == name)
        })
    }

    /// Whether `subprocess.env` sets a variable to `name`'s value.
    pub fn is_env_bound(&self, name: &str) -> bool {
        self.subprocess.as_ref().is_some_and(|subprocess| {
            subprocess
                .env
                .iter()
                .any(|var| matches!(&var.value, EnvValue::Param(param) if param == name))
        })
    }

    /// Whether `name`'s value reaches the subprocess, on its argv or in its
    /// environment: either way the argv value rules apply (no shell
    /// metacharacters unless the value is text, no leading `-` unless
    /// allowed). Programs read options (`TAR_OPTIONS`, `LESS`, `GREP_OPTIONS`)
    /// and run commands (`PAGER`, `EDITOR`) from variables as they do from
    /// words.
    pub fn reaches_subprocess(&self, name: &str) -> bool {
        self.is_user_controlled(name) || self.is_env_bound(name)
    }

    /// Whether a leading `-` in `name`'s value could be read as an option:
    /// it stands alone in an argv word, or is a variable's whole value.
    pub fn leading_dash_matters(&self, name: &str) -> bool {
        self.stands_alone_in_argv(name) || self.is_env_bound(name)
    }

    /// Whether some argv word is `name`'s value standing alone, where a
    /// leading `-` would be read as an option (not `--flag=VALUE`).
    pub fn stands_alone_in_argv(&self, name: &str) -> bool {
        self.subprocess
            .as_ref()
            .is_some_and(|subprocess| subprocess.slots_of(name).any(ParamSlot::value_stands_alone))
    }

    /// Whether the value of `name` may start with `-` (for an array, any
    /// of its items).
    pub fn allows_leading_dash(&self, name: &str) -> bool {
        match &self.inputs {
            Inputs::Parameters(_) => self
                .parameter(name)
                .is_some_and(|parameter| parameter.allow_leading_dash),
            Inputs::InputSchema(schema) => schema
                .guarded(name)
                .is_some_and(|property| property.item_guard().allow_leading_dash),
        }
    }

    /// Where the `filepath` input `name` may point (empty when nothing is
    /// asked).
    pub fn confinement(&self, name: &str) -> Option<&Confinement> {
        match &self.inputs {
            Inputs::Parameters(_) => self.parameter(name).map(|parameter| &parameter.confinement),
            Inputs::InputSchema(schema) => {
                schema.guarded(name).map(|property| &property.confinement)
            }
        }
        .filter(|confinement| confinement.is_set())
    }

    /// Whether the input `name` is declared sensitive.
    pub fn is_sensitive(&self, name: &str) -> bool {
        match &self.inputs {
            Inputs::Parameters(_) => self
                .parameter(name)
                .is_some_and(|parameter| parameter.sensitive),
            Inputs::InputSchema(schema) => schema
                .guarded(name)
                .is_some_and(|property| property.item_guard().sensitive),
        }
    }

    /// Whether any input is declared sensitive.
    pub fn has_sensitive_input(&self) -> bool {
        match &self.inputs {
            Inputs::Parameters(parameters) => {
                parameters.iter().any(|parameter| parameter.sensitive)
            }
            Inputs::InputSchema(schema) => schema
                .guarded
                .iter()
                .any(|property| property.item_guard().sensitive),
        }
    }

    /// Every input name, in declared order (properties for `input_schema`).
    pub fn input_names(&self) -> Vec<&str> {
        match &self.inputs {
            Inputs::Parameters(parameters) => parameters
                .iter()
                .map(|parameter| parameter.name.as_str())
                .collect(),
            Inputs::InputSchema(schema) => schema.property_names().collect(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, IntoStaticStr, EnumString, VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum DangerLevel {
    /// Reads only; safe to retry. Spelled `safe` as in the CLI Agent Spec's
    /// manifest; `read_only` is accepted as an alias.
    #[strum(to_string = "safe", serialize = "read_only")]
    Safe,
    /// Changes state.
    Mutating,
    /// Deletes or overwrites; hard to undo.
    Destructive,
}

impl DangerLevel {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

/// What a command does, in the words of the hook's policy (DESIGN.md §12):
/// the class decides the verdict a matching line gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, IntoStaticStr, EnumString, VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CommandClass {
    /// Reads, and changes nothing (`safe`): allowed.
    Reads,
    /// Changes files in the project or the temporary directory only
    /// (`mutating`): allowed.
    ChangesProject,
    /// Runs the project's own code (tests, build scripts, package
    /// scripts): allowed when the client lets the hook route it into the
    /// sandbox, asked where it cannot (`mutating` or `destructive`).
    RunsProjectCode,
    /// Discards work or touches shared state (`destructive`): asked.
    DiscardsWork,
}

impl CommandClass {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }

    /// The danger levels a declaration of this class may have.
    pub fn danger_levels(self) -> &'static [DangerLevel] {
        match self {
            Self::Reads => &[DangerLevel::Safe],
            Self::ChangesProject => &[DangerLevel::Mutating],
            Self::RunsProjectCode => &[DangerLevel::Mutating, DangerLevel::Destructive],
            Self::DiscardsWork => &[DangerLevel::Destructive],
        }
    }
}

/// How a program reads its options (DESIGN.md §12): which other spellings
/// of a declared option mean the same to it, so that the hook matches a
/// line by meaning rather than by spelling. `run` always writes the
/// template's own spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, IntoStaticStr, EnumString, VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Syntax {
    /// GNU `getopt_long`: options in any order, also after operands;
    /// bundled short flags (`-la`); `-n3` and `-n 3`; `--max-count=3` and
    /// `--max-count 3`.
    Gnu,
    /// git's own: as GNU within each subcommand; the options before the
    /// subcommand are git's global ones.
    Git,
    /// Go's `flag` package: `-name` and `--name` alike, `-name=v` and
    /// `-name v`, no bundling, options end at the first operand.
    Go,
    /// POSIX `getopt`: as GNU, but options end at the first operand.
    Posix,
    /// Only the template's own spelling, in its order.
    Exact,
}

impl Syntax {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    pub name: String,
    pub kind: ParamType,
    pub required: bool,
    pub description: Option<String>,
    /// Both `pattern` and `pattern_type` may be given; a value must pass
    /// both.
    pub pattern: Option<AnchoredPattern>,
    pub pattern_type: Option<PatternType>,
    /// Given exactly when `pattern_type` is [`PatternType::Regex`].
    pub regex_dialect: Option<RegexDialect>,
    /// Non-empty exactly when `kind` is [`ParamType::Enum`].
    pub enum_values: Vec<String>,
    pub default: Option<Value>,
    /// Redacted in output and in the audit log.
    pub sensitive: bool,
    /// Lets a user-controlled value start with `-`.
    pub allow_leading_dash: bool,
    /// Where a `filepath` value may point (`relative_only`, `under`,
    /// `must_exist`); empty for any other parameter.
    pub confinement: Confinement,
    /// An `integer` or `number` parameter's `minimum`, `maximum`,
    /// `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`; empty for
    /// any other parameter.
    pub bounds: NumberBounds,
}

/// Where a `filepath` value may point. `relative_only` is checked with
/// the rest of Phase 1; `under` and `must_exist` look at the file system
/// (`guard::confine`), from the directory the program will run in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Confinement {
    /// The value must be a relative path (no `/`, `\`, `~` or drive
    /// letter at its start): relative to the directory the program runs
    /// in.
    pub relative_only: bool,
    /// The value, resolved (symbolic links followed), must lie inside one
    /// of these directories. Empty: anywhere.
    pub under: Vec<PathRoot>,
    /// The value must name something that exists.
    pub must_exist: bool,
}

impl Confinement {
    /// Whether any confinement is asked for.
    pub fn is_set(&self) -> bool {
        self.relative_only || self.must_exist || !self.under.is_empty()
    }

    /// Whether a check needs the file system (`under`, `must_exist`).
    pub fn needs_file_system(&self) -> bool {
        self.must_exist || !self.under.is_empty()
    }
}

/// A directory a path may be confined `under`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathRoot {
    /// `$CWD`: the directory the program runs in (aigent's own).
    Cwd,
    /// `{param}`: the value of another `filepath` parameter, resolved the
    /// same way; a root that is absent is skipped.
    Param(String),
    /// An absolute directory, as written.
    Absolute(String),
}

impl PathRoot {
    /// Reads `$CWD`, `{param}` or an absolute path; `None` for anything
    /// else.
    pub fn parse(text: &str) -> Option<Self> {
        if text == "$CWD" {
            return Some(Self::Cwd);
        }
        if let Some(name) = text
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
        {
            return (!name.is_empty()).then(|| Self::Param(name.to_owned()));
        }
        std::path::Path::new(text)
            .is_absolute()
            .then(|| Self::Absolute(text.to_owned()))
    }

    /// As written in a declaration.
    pub fn to_text(&self) -> String {
        match self {
            Self::Cwd => "$CWD".to_owned(),
            Self::Param(name) => format!("{{{name}}}"),
            Self::Absolute(path) => path.clone(),
        }
    }
}

impl Parameter {
    /// A fresh parameter of `kind` with every option at its default.
    pub fn new(name: impl Into<String>, kind: ParamType) -> Self {
        Self {
            name: name.into(),
            kind,
            required: false,
            description: None,
            pattern: None,
            pattern_type: None,
            regex_dialect: None,
            enum_values: Vec::new(),
            default: None,
            sensitive: false,
            allow_leading_dash: false,
            confinement: Confinement::default(),
            bounds: NumberBounds::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr, EnumString, VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum ParamType {
    String,
    Integer,
    Number,
    Boolean,
    /// An array of strings.
    Array,
    Enum,
    /// An opaque identifier: a string that always gets the hallucination
    /// checks.
    ResourceId,
}

impl ParamType {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }

    /// Whether `pattern` and `pattern_type` mean something for this type
    /// (for an array they apply to each item).
    pub fn takes_pattern(self) -> bool {
        matches!(self, Self::String | Self::ResourceId | Self::Array)
    }
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The built-in syntaxes a string can be held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr, EnumString, VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum PatternType {
    AlphanumericId,
    Uuid,
    Semver,
    Filepath,
    Url,
    /// Text that is data for the program (a commit message, a jq filter, a
    /// SQL query under a read-only session): passed as one argv word, so
    /// shell metacharacters are allowed; control and invisible
    /// characters and placeholders are not. The lint refuses it where the
    /// program reads the word as code.
    FreeText,
    /// A regular expression in the dialect `regex_dialect` names, checked
    /// to compile; otherwise as `free_text`.
    Regex,
}

impl PatternType {
    /// Whether values of this type are text the program reads as data, so
    /// that the shell-metacharacter rule does not apply.
    pub fn is_text(self) -> bool {
        matches!(self, Self::FreeText | Self::Regex)
    }
}

/// The regular-expression languages a `regex` value can be checked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr, EnumString, VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum RegexDialect {
    /// POSIX extended regular expressions, as `grep -E`, `sed -E` and
    /// `awk` read them (with GNU's backslash classes and back-references).
    Ere,
    /// Perl-compatible expressions, as `grep -P` and PCRE2 read them.
    Pcre,
    /// Rust's `regex` syntax, as ripgrep reads it by default.
    Rust,
}

impl RegexDialect {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

impl fmt::Display for RegexDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PatternType {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

impl fmt::Display for PatternType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A custom `pattern`, made ready when the declaration loads, or (for the
/// built-in catalog, whose tests compile every pattern) when a value is
/// first matched against it. Equality is on the source text; clones share
/// the compiled matcher.
#[derive(Clone)]
pub struct AnchoredPattern {
    source: String,
    /// `None` inside: a deferred pattern the regex engine refused, which
    /// then matches nothing.
    matcher: Arc<OnceLock<Option<Matcher>>>,
}

#[derive(Clone)]
enum Matcher {
    /// `^C{min,max}$` (or `^C*$`, `^C+$`, `^C$`): one character class,
    /// repeated, after any number of classes each repeated a fixed number
    /// of times (`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`). The commonest custom
    /// patterns, a length limit on a class and a name whose first character
    /// is narrower, are checked by walking the value's characters: each
    /// fixed step takes exactly its count, so no walk ever backtracks.
    /// Compiling them is the costly case for the regex engine
    /// (`^[^\n]{1,200}$` is 200 copies of a multi-byte UTF-8 automaton, a
    /// quarter of a millisecond), and the hook loads declarations on every
    /// call.
    Repeated {
        /// The fixed steps, in order: a class and its count.
        fixed: Vec<(Ranges, u32)>,
        /// The last step.
        ranges: Ranges,
        min: u32,
        max: Option<u32>,
    },
    Compiled(regex_automata::meta::Regex),
}

/// Sorted, non-overlapping ranges, from the parser's own class.
type Ranges = Vec<(char, char)>;

fn in_class(ranges: &[(char, char)], c: char) -> bool {
    ranges
        .binary_search_by(|&(low, high)| {
            if high < c {
                std::cmp::Ordering::Less
            } else if low > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The regex crate's limits for a declared pattern: its compiled program
/// (`size_limit`) and its lazy DFA's cache (`dfa_size_limit`).
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

impl Matcher {
    /// The pattern read once, by the parser the regex crate uses with the
    /// crate's defaults; then walked, or compiled from that reading by the
    /// regex crate's own engine configured as the crate configures it
    /// (`RegexBuilder::build`), less the full DFA. Which engines the meta
    /// regex holds changes how fast it searches, never what matches, and a
    /// pattern here matches one or two values: building the full DFA cost
    /// more than the searches it would save. An error is the regex crate's,
    /// word for word.
    fn new(source: &str) -> Result<Self, regex::Error> {
        use regex_automata::meta;
        let hir = regex_syntax::ParserBuilder::new()
            .nest_limit(250)
            .build()
            .parse(source);
        if let Ok(hir) = &hir {
            if let Some(repeated) = repeated_class(hir) {
                return Ok(repeated);
            }
            let config = meta::Config::new()
                .match_kind(regex_automata::MatchKind::LeftmostFirst)
                .utf8_empty(true)
                .nfa_size_limit(Some(PATTERN_SIZE_LIMIT))
                .hybrid_cache_capacity(PATTERN_SIZE_LIMIT)
                .dfa(false);
            if let Ok(regex) = meta::Builder::new().configure(config).build_from_hir(hir) {
                return Ok(Self::Compiled(regex));
            }
        }
        match regex::RegexBuilder::new(source)
            .size_limit(PATTERN_SIZE_LIMIT)
            .dfa_size_limit(PATTERN_SIZE_LIMIT)
            .build()
        {
            Err(error) => Err(error),
            // Not reached: the crate refuses what its engine refused.
            Ok(_) => Err(regex::Error::Syntax(format!(
                "the pattern `{source}` could not be compiled"
            ))),
        }
    }
}

impl Matcher {
    /// [`Matcher::new`]'s matcher for `source`, compiled once per process
    /// whichever declaration asks: the catalog's declarations repeat their
    /// patterns (`head` and `tail` count lines alike, the `cargo` forms name
    /// packages alike), and a line that reaches two of them compiled the
    /// same pattern twice. At most [`SHARED_PATTERNS`] are kept.
    fn shared(source: &str) -> Option<Self> {
        use std::collections::HashMap;
        use std::sync::{Mutex, PoisonError};
        static SHARED: OnceLock<Mutex<HashMap<String, Option<Matcher>>>> = OnceLock::new();
        let shared = SHARED.get_or_init(Mutex::default);
        if let Some(known) = shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(source)
        {
            return known.clone();
        }
        let matcher = Self::new(source).ok();
        let mut shared = shared.lock().unwrap_or_else(PoisonError::into_inner);
        if shared.len() < SHARED_PATTERNS {
            shared.insert(source.to_owned(), matcher.clone());
        }
        matcher
    }
}

/// How many compiled patterns [`Matcher::shared`] keeps: every pattern of
/// the catalog and of a large registry, while a long-running server whose
/// declarations keep changing stays bounded.
const SHARED_PATTERNS: usize = 4096;

impl AnchoredPattern {
    /// Makes `source` ready to match. The anchoring rule is the lint's
    /// business; this only refuses what the regex engine refuses.
    pub fn compile(source: &str) -> Result<Self, regex::Error> {
        let matcher = Matcher::new(source)?;
        Ok(Self {
            source: source.to_owned(),
            matcher: Arc::new(OnceLock::from(Some(matcher))),
        })
    }

    /// `source`, compiled when a value is first matched against it: for a
    /// pattern already known to compile (the catalog's), so that a hook
    /// call compiles only the patterns of the parameters its line reaches.
    /// Should it not compile after all, it matches nothing.
    pub fn deferred(source: &str) -> Self {
        Self {
            source: source.to_owned(),
            matcher: Arc::new(OnceLock::new()),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }

    pub fn is_match(&self, value: &str) -> bool {
        let matcher = self.matcher.get_or_init(|| Matcher::shared(&self.source));
        match matcher {
            None => false,
            Some(Matcher::Compiled(regex)) => regex.is_match(value),
            Some(Matcher::Repeated {
                fixed,
                ranges,
                min,
                max,
            }) => {
                let mut chars = value.chars();
                for (class, count) in fixed {
                    for _ in 0..*count {
                        if !chars.next().is_some_and(|c| in_class(class, c)) {
                            return false;
                        }
                    }
                }
                let mut count: u64 = 0;
                for c in chars {
                    count += 1;
                    if max.is_some_and(|max| count > u64::from(max)) || !in_class(ranges, c) {
                        return false;
                    }
                }
                count >= u64::from(*min)
            }
        }
    }
}

/// The matcher for a pattern that is exactly `^`, Unicode classes each
/// repeated a fixed number of times, one Unicode class (possibly
/// repeated), `$`, as the regex crate's own parser reads it with the
/// crate's defaults. Anything else (literals, captures, alternations,
/// multi-line anchors, byte classes, a variable step before the last) is
/// left to the regex engine.
fn repeated_class(hir: &regex_syntax::hir::Hir) -> Option<Matcher> {
    use regex_syntax::hir::{Class, HirKind, Look};
    let HirKind::Concat(parts) = hir.kind() else {
        return None;
    };
    let [start, steps @ .., end] = parts.as_slice() else {
        return None;
    };
    if *start.kind() != HirKind::Look(Look::Start) || *end.kind() != HirKind::Look(Look::End) {
        return None;
    }
    let step = |part: &regex_syntax::hir::Hir| {
        let (class, min, max) = match part.kind() {
            HirKind::Class(class) => (class, 1, Some(1)),
            HirKind::Repetition(repetition) => match repetition.sub.kind() {
                HirKind::Class(class) => (class, repetition.min, repetition.max),
                _ => return None,
            },
            _ => return None,
        };
        let Class::Unicode(class) = class else {
            return None;
        };
        let ranges: Ranges = class
            .ranges()
            .iter()
            .map(|range| (range.start(), range.end()))
            .collect();
        Some((ranges, min, max))
    };
    let (last, before) = steps.split_last()?;
    let mut fixed = Vec::with_capacity(before.len());
    for part in before {
        match step(part)? {
            (ranges, min, Some(max)) if min == max => fixed.push((ranges, min)),
            _ => return None,
        }
    }
    let (ranges, min, max) = step(last)?;
    Some(Matcher::Repeated {
        fixed,
        ranges,
        min,
        max,
    })
}

impl PartialEq for AnchoredPattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for AnchoredPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("AnchoredPattern")
            .field(&self.source)
            .finish()
    }
}

/// What a declared command runs: `binary`, then the words of `argv`.
///
/// `argv` is the template every caller builds from. A declaration in the
/// older form (`hardcoded_args` + `user_controlled_args`) is read as the
/// template "each literal, then each named parameter", and the REQ-C-019
/// fields are always derived from the template, so both forms print alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subprocess {
    pub binary: String,
    /// The template, in argv order.
    pub argv: Vec<ArgvPart>,
    /// The literal words of the template, in order (REQ-C-019).
    pub hardcoded_args: Vec<String>,
    /// The parameters the template uses, each once, in the order they
    /// first appear (REQ-C-019).
    pub user_controlled_args: Vec<String>,
    /// The declaration gave `argv` (not the older two lists), so `schema
    /// show` prints the template beside the derived fields.
    pub templated: bool,
    /// Variables set in the child's environment, in declared order.
    pub env: Vec<EnvVar>,
    /// Variables inherited from aigent's environment by name, beyond the
    /// base set (see `exec::env`).
    pub env_pass: Vec<String>,
    /// `syntax` as written; [`Subprocess::syntax`] finds the program's own
    /// otherwise.
    pub syntax: Option<Syntax>,
    /// `preserve_locale: true`: the child keeps the caller's locale instead
    /// of `LC_ALL=C` (see `exec::env`).
    pub preserve_locale: bool,
}

/// `subprocess.env.NAME`: a literal, or a parameter's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvVar {
    pub name: String,
    pub value: EnvValue,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvValue {
    Literal(String),
    /// The parameter's value; the variable is unset when it is absent.
    Param(String),
}

/// One element of an argv template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgvPart {
    /// Passed verbatim.
    Literal(String),
    /// A parameter's value; see [`ParamSlot`].
    Param(ParamSlot),
}

/// Where a parameter's value goes in the argv:
/// - no flag: the value itself (an array gives one word per item);
/// - `flag` with [`FlagForm::Separate`]: `FLAG VALUE` (an array repeats the
///   pair, a boolean is `FLAG` alone when true and nothing when false);
/// - `flag` with [`FlagForm::Joined`]: `FLAG=VALUE`, one word.
///
/// `prefix` is glued in front of each value (`web=registry/web:` makes
/// `web=registry/web:1.2.3`), for CLIs that take a value inside a larger
/// word. An absent parameter (no value, no default) adds nothing, flag
/// included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamSlot {
    pub param: String,
    pub flag: Option<String>,
    pub form: FlagForm,
    pub prefix: String,
    /// Other names of the same option (`--max-count` for `-n`): the hook
    /// reads them as `flag`; `run` always writes `flag`.
    pub aliases: Vec<String>,
    /// The option's value is optional, so it is the value only when
    /// attached (`--abbrev=7`, never `--abbrev 7`).
    pub attached_only: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum FlagForm {
    #[default]
    Separate,
    Joined,
}

impl FlagForm {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl ParamSlot {
    /// The value is a word of its own, where a leading `-` would be read
    /// as an option. A value glued to its flag (`--author=-x`) is not.
    pub fn value_stands_alone(&self) -> bool {
        self.prefix.is_empty() && !(self.flag.is_some() && self.form == FlagForm::Joined)
    }
}

impl Subprocess {
    /// A subprocess from its template, with the REQ-C-019 fields derived.
    pub fn from_template(binary: String, argv: Vec<ArgvPart>, templated: bool) -> Self {
        let hardcoded_args = argv
            .iter()
            .filter_map(|part| match part {
                ArgvPart::Literal(word) => Some(word.clone()),
                ArgvPart::Param(_) => None,
            })
            .collect();
        let mut user_controlled_args: Vec<String> = Vec::new();
        for slot in argv.iter().filter_map(ArgvPart::slot) {
            if !user_controlled_args.contains(&slot.param) {
                user_controlled_args.push(slot.param.clone());
            }
        }
        Self {
            binary,
            argv,
            hardcoded_args,
            user_controlled_args,
            templated,
            env: Vec::new(),
            env_pass: Vec::new(),
            syntax: None,
            preserve_locale: false,
        }
    }

    /// The older form: the literals, then each named parameter's value.
    pub fn from_lists(
        binary: String,
        hardcoded_args: Vec<String>,
        user_controlled_args: Vec<String>,
    ) -> Self {
        let argv = hardcoded_args
            .into_iter()
            .map(ArgvPart::Literal)
            .chain(user_controlled_args.into_iter().map(|param| {
                ArgvPart::Param(ParamSlot {
                    param,
                    flag: None,
                    form: FlagForm::Separate,
                    prefix: String::new(),
                    aliases: Vec::new(),
                    attached_only: false,
                })
            }))
            .collect();
        Self::from_template(binary, argv, false)
    }

    /// How the program reads its options: `syntax` as written, else what
    /// the knowledge base knows of the program (`crate::contract::programs::syntax`).
    pub fn syntax(&self) -> Syntax {
        self.syntax
            .unwrap_or_else(|| super::programs::syntax::program_syntax(&self.binary))
    }

    /// Every slot that takes `param`'s value.
    pub fn slots_of<'a>(&'a self, param: &'a str) -> impl Iterator<Item = &'a ParamSlot> + 'a {
        self.argv
            .iter()
            .filter_map(ArgvPart::slot)
            .filter(move |slot| slot.param == param)
    }
}

impl ArgvPart {
    pub fn slot(&self) -> Option<&ParamSlot> {
        match self {
            Self::Param(slot) => Some(slot),
            Self::Literal(_) => None,
        }
    }
}

impl Serialize for Subprocess {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("binary", &self.binary)?;
        out.serialize_entry("hardcoded_args", &self.hardcoded_args)?;
        out.serialize_entry("user_controlled_args", &self.user_controlled_args)?;
        if self.templated {
            out.serialize_entry("argv", &self.argv)?;
        }
        if !self.env.is_empty() {
            out.serialize_entry("env", &EnvMap(&self.env))?;
        }
        if !self.env_pass.is_empty() {
            out.serialize_entry("env_pass", &self.env_pass)?;
        }
        if let Some(syntax) = self.syntax {
            out.serialize_entry("syntax", syntax.as_str())?;
        }
        if self.preserve_locale {
            out.serialize_entry("preserve_locale", &true)?;
        }
        out.end()
    }
}

struct EnvMap<'a>(&'a [EnvVar]);

impl Serialize for EnvMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(Some(self.0.len()))?;
        for var in self.0 {
            match &var.value {
                EnvValue::Literal(text) => out.serialize_entry(&var.name, text)?,
                EnvValue::Param(param) => {
                    out.serialize_entry(&var.name, &serde_json::json!({ "param": param }))?;
                }
            }
        }
        out.end()
    }
}

impl Serialize for ArgvPart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Literal(word) => serializer.serialize_str(word),
            Self::Param(slot) => {
                let mut out = serializer.serialize_map(None)?;
                out.serialize_entry("param", &slot.param)?;
                if let Some(flag) = &slot.flag {
                    out.serialize_entry("flag", flag)?;
                    if slot.form == FlagForm::Joined {
                        out.serialize_entry("form", slot.form.as_str())?;
                    }
                }
                if !slot.prefix.is_empty() {
                    out.serialize_entry("prefix", &slot.prefix)?;
                }
                if !slot.aliases.is_empty() {
                    out.serialize_entry("aliases", &slot.aliases)?;
                }
                if slot.attached_only {
                    out.serialize_entry("attached_only", &true)?;
                }
                out.end()
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExitCode {
    pub code: u8,
    pub name: String,
    pub description: Option<String>,
    pub retryable: bool,
    pub side_effects: SideEffects,
}

impl ExitCode {
    fn standard(
        code: u8,
        name: &str,
        description: &str,
        retryable: bool,
        side_effects: SideEffects,
    ) -> Self {
        Self {
            code,
            name: name.to_owned(),
            description: Some(description.to_owned()),
            retryable,
            side_effects,
        }
    }

    /// What a declaration without an `exit_codes` map gets: the child's 0
    /// and 1. (2 is not there: aigent's own ARG_ERROR never reaches the
    /// map, which describes the child.)
    pub fn standard_table() -> Vec<ExitCode> {
        vec![
            Self::standard(
                0,
                "SUCCESS",
                "The command succeeded",
                false,
                SideEffects::Complete,
            ),
            Self::standard(
                1,
                "GENERAL_ERROR",
                "The command failed",
                false,
                SideEffects::Unknown,
            ),
        ]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, IntoStaticStr, EnumString, VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SideEffects {
    None,
    Partial,
    Complete,
    Unknown,
}

impl SideEffects {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

/// An MCP-style `input_schema`: the schema as written, the schema the
/// validator uses (with `additionalProperties: false` filled in), and the
/// compiled validator.
#[derive(Clone)]
pub struct InputSchema {
    pub written: Value,
    pub effective: Value,
    pub validator: Arc<jsonschema::Validator>,
    /// Each top-level property's guard, `$ref` and `allOf` followed, in
    /// the order written.
    pub guarded: Vec<GuardedProperty>,
}

impl InputSchema {
    /// How the guard treats the top-level property `name`.
    pub fn guarded(&self, name: &str) -> Option<&GuardedProperty> {
        self.guarded.iter().find(|property| property.name == name)
    }

    /// The top-level property names, in the order written.
    pub fn property_names(&self) -> impl Iterator<Item = &str> {
        self.properties().map(|(name, _)| name)
    }

    /// The top-level properties with their (effective) schemas.
    pub fn properties(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.effective
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|properties| {
                properties
                    .iter()
                    .map(|(name, schema)| (name.as_str(), schema))
            })
    }

    pub fn property(&self, name: &str) -> Option<&Value> {
        self.effective.get("properties")?.get(name)
    }

    pub fn required(&self) -> impl Iterator<Item = &str> {
        self.effective
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
    }
}

impl PartialEq for InputSchema {
    fn eq(&self, other: &Self) -> bool {
        self.written == other.written
    }
}

impl fmt::Debug for InputSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InputSchema")
            .field("written", &self.written)
            .finish_non_exhaustive()
    }
}

/// What kind of string a value is, which decides the rules it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueClass {
    /// A string with no pattern and no pattern type. Only control
    /// characters that hide or reorder text are refused (tab, newline, ZWJ
    /// and ZWNJ pass), and a value that is a placeholder as a whole.
    Plain,
    /// A string held to a custom `pattern`.
    Patterned,
    /// `resource_id`: every rule.
    ResourceId,
    /// A `pattern_type`'s syntax and rules (`free_text` and `regex`
    /// included; a regex's dialect is [`PropertyGuard::regex_dialect`] or
    /// the parameter's).
    Typed(PatternType),
}

pub const X_PATTERN_TYPE: &str = "x-aigent-pattern-type";
pub const X_REGEX_DIALECT: &str = "x-aigent-regex-dialect";
pub const X_RELATIVE_ONLY: &str = "x-aigent-relative-only";
pub const X_UNDER: &str = "x-aigent-under";
pub const X_MUST_EXIST: &str = "x-aigent-must-exist";
pub const X_SENSITIVE: &str = "x-aigent-sensitive";
pub const X_ALLOW_LEADING_DASH: &str = "x-aigent-allow-leading-dash";

/// How the guard treats one property of an `input_schema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PropertyGuard {
    pub class: ValueClass,
    /// `x-aigent-regex-dialect`, for `x-aigent-pattern-type: regex`.
    pub regex_dialect: Option<RegexDialect>,
    pub sensitive: bool,
    pub allow_leading_dash: bool,
}

impl PropertyGuard {
    /// The guard one schema object asks for by itself, without following
    /// `$ref` or `allOf` (see [`GuardedProperty`] for that).
    pub fn of(property: &Value) -> Self {
        Self::merged(std::iter::once(property))
    }

    /// The guard a set of facets asks for together: the pattern type any
    /// of them names (else `Patterned` when one has a `pattern`), and
    /// `sensitive`/`allow-leading-dash` when any of them says so.
    pub(super) fn merged<'a>(facets: impl Iterator<Item = &'a Value> + Clone) -> Self {
        let named = facets
            .clone()
            .find_map(|facet| facet.get(X_PATTERN_TYPE).and_then(Value::as_str));
        let class = match named {
            Some("resource_id") => ValueClass::ResourceId,
            Some(name) => PatternType::parse(name).map_or(ValueClass::Plain, ValueClass::Typed),
            None if facets.clone().any(|facet| facet.get("pattern").is_some()) => {
                ValueClass::Patterned
            }
            None => ValueClass::Plain,
        };
        let regex_dialect = facets.clone().find_map(|facet| {
            facet
                .get(X_REGEX_DIALECT)
                .and_then(Value::as_str)
                .and_then(RegexDialect::parse)
        });
        let flag = |keyword: &str| {
            facets
                .clone()
                .any(|facet| facet.get(keyword) == Some(&Value::Bool(true)))
        };
        Self {
            class,
            regex_dialect,
            sensitive: flag(X_SENSITIVE),
            allow_leading_dash: flag(X_ALLOW_LEADING_DASH),
        }
    }
}

/// A top-level property as the guard sees it: its own schema together
/// with every schema it reaches through a local `$ref` or `allOf` (all of
/// which apply to the value), and the same for its `items`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardedProperty {
    pub name: String,
    pub guard: PropertyGuard,
    /// For an array property: the guard of its items (`items`, through
    /// `$ref` and `allOf` too); `None` when no facet has `items`.
    pub items: Option<PropertyGuard>,
    /// The first non-null `type` among the facets (`"string"` when none
    /// says), for typing `--name value` flags.
    pub primary_type: String,
    /// The first non-null `type` of the items, likewise.
    pub items_type: String,
    /// `x-aigent-relative-only`, `x-aigent-under`, `x-aigent-must-exist`
    /// on the property or its `items`.
    pub confinement: Confinement,
}

impl GuardedProperty {
    /// The guard for one item of this property's array value.
    pub fn item_guard(&self) -> PropertyGuard {
        match self.items {
            None => self.guard,
            Some(items) => PropertyGuard {
                class: if items.class == ValueClass::Plain {
                    self.guard.class
                } else {
                    items.class
                },
                regex_dialect: items.regex_dialect.or(self.guard.regex_dialect),
                sensitive: self.guard.sensitive || items.sensitive,
                allow_leading_dash: self.guard.allow_leading_dash || items.allow_leading_dash,
            },
        }
    }
}

/// Why a custom pattern is not anchored at both ends, if it is not: every
/// match must start at the start of the value (`^`, `\A`) and end at its
/// end (`$`, `\z`). This is read from the parsed pattern, so verbose mode
/// (`(?x)`, where `#` starts a comment), nested classes, a top-level `|`
/// that anchors only some alternatives, and the multi-line flag (where `^`
/// and `$` match at every line) are all seen as the regex engine sees them.
/// A pattern that does not parse gets `None`: compiling it reports that.
pub fn pattern_anchoring_problem(pattern: &str) -> Option<String> {
    use regex_syntax::hir::Look;
    let hir = regex_syntax::ParserBuilder::new()
        .nest_limit(250)
        .build()
        .parse(pattern)
        .ok()?;
    let properties = hir.properties();
    let start = properties.look_set_prefix().contains(Look::Start);
    let end = properties.look_set_suffix().contains(Look::End);
    if start && end {
        return None;
    }
    let multi_line = [Look::StartLF, Look::EndLF, Look::StartCRLF, Look::EndCRLF]
        .iter()
        .any(|look| properties.look_set().contains(*look));
    if multi_line {
        return Some(format!(
            "`{pattern}` turns on multi-line mode, where `^` and `$` match at every line; remove the `m` flag"
        ));
    }
    let has_anchors =
        properties.look_set().contains(Look::Start) && properties.look_set().contains(Look::End);
    if has_anchors {
        return Some(format!(
            "`{pattern}` is not anchored at both ends for every match (a top-level `|` anchors only its first alternative at the start and only its last at the end); write `^(?:...|...)$`"
        ));
    }
    Some(format!(
        "`{pattern}` is not anchored: a pattern must match the whole value, as `^...$`"
    ))
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn each_name_parses_back_and_serde_agrees() {
        for &level in DangerLevel::VARIANTS {
            assert_eq!(DangerLevel::parse(level.as_str()), Some(level));
            assert_eq!(
                serde_json::to_value(level).unwrap(),
                Value::from(level.as_str())
            );
        }
        assert_eq!(DangerLevel::parse("read_only"), Some(DangerLevel::Safe));
        assert_eq!(DangerLevel::Safe.as_str(), "safe");
        assert_eq!(DangerLevel::parse("Safe"), None);
        for &kind in ParamType::VARIANTS {
            assert_eq!(ParamType::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(ParamType::ResourceId.as_str(), "resource_id");
        for &kind in PatternType::VARIANTS {
            assert_eq!(PatternType::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(PatternType::FreeText.as_str(), "free_text");
        for &dialect in RegexDialect::VARIANTS {
            assert_eq!(RegexDialect::parse(dialect.as_str()), Some(dialect));
        }
        assert_eq!(PatternType::AlphanumericId.as_str(), "alphanumeric_id");
        for &effects in SideEffects::VARIANTS {
            assert_eq!(SideEffects::parse(effects.as_str()), Some(effects));
            assert_eq!(
                serde_json::to_value(effects).unwrap(),
                Value::from(effects.as_str())
            );
        }
        assert_eq!(ParamType::parse("String"), None);
        assert_eq!(FlagForm::Joined.as_str(), "joined");
    }
}

#[cfg(test)]
mod pattern_tests {
    use super::*;
    use proptest::prelude::*;
    use regex::Regex;

    /// Every `pattern` of the built-in catalog.
    fn catalog_patterns() -> Vec<String> {
        fn collect(value: &serde_json::Value, into: &mut Vec<String>) {
            match value {
                serde_json::Value::Object(map) => {
                    for (key, value) in map {
                        match value {
                            serde_json::Value::String(pattern) if key == "pattern" => {
                                into.push(pattern.clone());
                            }
                            other => collect(other, into),
                        }
                    }
                }
                serde_json::Value::Array(items) => {
                    items.iter().for_each(|item| collect(item, into));
                }
                _ => {}
            }
        }
        let mut patterns = Vec::new();
        for (_, text, ..) in crate::registry::CATALOG {
            collect(&serde_json::from_str(text).unwrap(), &mut patterns);
        }
        patterns.sort();
        patterns.dedup();
        patterns
    }

    fn reference(source: &str) -> Regex {
        regex::RegexBuilder::new(source)
            .size_limit(1 << 30)
            .dfa_size_limit(1 << 30)
            .build()
            .unwrap()
    }

    #[test]
    fn a_length_limit_on_a_class_is_walked_not_compiled() {
        for source in [
            r"^[^\n]{1,100}$",
            r"^\w{1,64}$",
            "^[a-z]+$",
            "^.*$",
            r"\A[0-9]{4}\z",
            "^[A-Za-z0-9_][A-Za-z0-9_.-]*$",
            "^[A-Za-z0-9_@][A-Za-z0-9._/@^~{}:+#-]*$",
            "^[a-z]{2}[0-9]{3}$",
        ] {
            let pattern = AnchoredPattern::compile(source).unwrap();
            assert!(
                matches!(pattern.matcher.get(), Some(Some(Matcher::Repeated { .. }))),
                "{source}"
            );
        }
        for source in [
            "^(a|b)$",
            "^[a-z]{2}-[0-9]{3}$",
            "^[a-z]+[0-9]$",
            "^[a-z]?[0-9]+$",
            "(?m)^[a-z]+$",
            "^([a-z])+$",
            "[a-z]+",
        ] {
            let pattern = AnchoredPattern::compile(source).unwrap();
            assert!(
                matches!(pattern.matcher.get(), Some(Some(Matcher::Compiled(_)))),
                "{source}"
            );
        }
        // Once over the engine's size limit, now checked exactly.
        let word = AnchoredPattern::compile(r"^\w{1,64}$").unwrap();
        assert!(word.is_match("naïve_ünïcode_42"));
        assert!(!word.is_match(&"a".repeat(65)));
        assert!(!word.is_match(""));
    }

    #[test]
    fn a_deferred_pattern_compiles_at_its_first_match_and_its_clones_share_it() {
        let pattern = AnchoredPattern::deferred("^[a-z]{2}-[0-9]{3}$");
        let twin = pattern.clone();
        assert!(pattern.matcher.get().is_none(), "nothing compiled yet");
        assert!(pattern.is_match("ab-123"));
        assert!(!pattern.is_match("ab-1234"));
        assert!(matches!(
            twin.matcher.get(),
            Some(Some(Matcher::Compiled(_)))
        ));
        assert_eq!(
            pattern,
            AnchoredPattern::compile("^[a-z]{2}-[0-9]{3}$").unwrap()
        );
    }

    #[test]
    fn a_deferred_pattern_the_engine_refuses_matches_nothing() {
        let pattern = AnchoredPattern::deferred("^[a-z$");
        for value in ["", "a", "^[a-z$", "[a-z"] {
            assert!(!pattern.is_match(value), "{value:?}");
        }
    }

    #[test]
    fn an_invalid_pattern_is_refused_with_the_engine_s_message() {
        let err = AnchoredPattern::compile("^[a-z$").unwrap_err();
        assert!(
            err.to_string().contains("unclosed character class"),
            "{err}"
        );
    }

    fn class() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "[a-z]",
            r"[^\n]",
            ".",
            r"\w",
            r"\d",
            r"\s",
            "[[:alpha:]]",
            r"\p{Greek}",
            "[^/]",
            "[a-zA-Z0-9._-]",
            "(?i:[a-f])",
            "(?s:.)",
            r"[^\x00-\x{10FFFF}]",
        ])
    }

    fn repetition() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            Just("*".to_owned()),
            Just("+?".to_owned()),
            Just("?".to_owned()),
            (0u32..6).prop_map(|n| format!("{{{n}}}")),
            (0u32..4, 0u32..6).prop_map(|(m, extra)| format!("{{{m},{}}}", m + extra)),
            (0u32..4).prop_map(|m| format!("{{{m},}}")),
        ]
    }

    proptest! {
        #[test]
        fn walking_agrees_with_the_regex_engine(
            class in class(),
            repetition in repetition(),
            value in "[a-zA-Z0-9 _./\\n\\t\u{3b1}-\u{3c9}\u{e9}\u{1F600}-]{0,9}",
        ) {
            let source = format!("^{class}{repetition}$");
            let pattern = AnchoredPattern::compile(&source).unwrap();
            prop_assert_eq!(pattern.is_match(&value), reference(&source).is_match(&value), "{} on {:?}", source, value);
        }

        #[test]
        fn every_catalog_pattern_matches_as_the_regex_crate_does(
            (source, taken) in prop::sample::select(catalog_patterns()).prop_flat_map(|source| {
                // A value the pattern takes, where proptest can write one.
                let body = source.trim_start_matches('^').trim_end_matches('$').to_owned();
                let taken = proptest::string::string_regex(&body)
                    .map(|strategy| strategy.boxed())
                    .unwrap_or_else(|_| Just(String::new()).boxed());
                (Just(source), taken)
            }),
            noise in "[a-zA-Z0-9 _./:=,@~^+#{}*?\\n-]{0,3}",
            cut in any::<prop::sample::Index>(),
        ) {
            let pattern = AnchoredPattern::compile(&source).unwrap();
            let reference = reference(&source);
            // The value, and near misses: cut short, and with noise inside.
            let chars: Vec<char> = taken.chars().collect();
            let at = cut.index(chars.len() + 1);
            let shorter: String = chars[..at].iter().collect();
            let noisy: String = chars[..at].iter().chain(noise.chars().collect::<Vec<_>>().iter()).chain(&chars[at..]).collect();
            for value in [&taken, &shorter, &noisy, &noise] {
                prop_assert_eq!(pattern.is_match(value), reference.is_match(value), "{} on {:?}", source, value);
            }
        }

        #[test]
        fn walking_steps_agrees_with_the_regex_engine(
            steps in prop::collection::vec((class(), repetition()), 1..4),
            value in "[aZ0 _.\\n\u{3b1}\u{e9}-]{0,6}",
        ) {
            let body: String = steps.iter().map(|(class, repetition)| format!("{class}{repetition}")).collect();
            let source = format!("^{body}$");
            let pattern = AnchoredPattern::compile(&source).unwrap();
            prop_assert_eq!(pattern.is_match(&value), reference(&source).is_match(&value), "{} on {:?}", source, value);
        }
    }
}
