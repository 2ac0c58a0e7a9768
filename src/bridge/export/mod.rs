//! `aigent schema export`: a contract compiled into an agent's own policy
//! language, with an honest account of what that language keeps.
//!
//! All three targets match a command by its leading words: Claude Code's
//! `Bash(PREFIX:*)`, Codex's `prefix_rule(pattern = [...])` and Gemini
//! CLI's `commandPrefix`. So a rule holds the program and the template's
//! literal words up to its first parameter, and nothing after: types,
//! patterns, confined paths, required inputs and the shape of the rest of
//! the line are dropped. Every rule that admits more than its contract says
//! so ([`Fidelity::wider`]), with command lines it admits that the contract
//! refuses, each one checked by the hook's own judgement, and says what the
//! client does with such a line ([`Fidelity::on_refused_line`]).
//!
//! Codex gets `prompt` rules only: a Codex `allow` runs the line outside
//! Codex's sandbox without asking, and a prefix always admits lines the
//! contract refuses, so an exported `allow` would run those unsandboxed.
//! The hook does the allowing there, and its allow leaves Codex's sandbox
//! in charge.
//!
//! Examples are made from the contract, never written by hand: values are
//! tried against Phase 1 until one passes (the declared default and enum
//! values, samples of the pattern type, then strings generated from the
//! `pattern` itself, [`samples`]), the argv is built by the same code
//! `aigent run` uses, and the line must be allowed by `hook::judge` for
//! this declaration. Confined paths (`relative_only`, `under`,
//! `must_exist`) are judged in a scratch directory where the sample paths
//! exist. A declaration no shell line can satisfy (an input that reaches
//! the program only through its environment) is not exported, and the
//! export says so ([`Export::incomplete`]).

mod render;
pub mod samples;

use serde::Serialize;
use serde_json::{Map, Value, json};

use std::path::{Component, Path};

use crate::contract::input_schema::primary_type;
use crate::contract::{ArgvPart, Confinement, Declaration, Inputs, ParamType, PatternType};
use crate::exec::Argv;
use crate::guard::{self, RawArguments};
use crate::hook::judge::{Context, judge};
use crate::registry::{HookSettings, ProgramIndex, Registry};
use crate::shell::quote;

pub use render::render_report;

/// A policy language aigent can write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    ClaudePermissions,
    CodexExecpolicy,
    GeminiPolicy,
}

impl Target {
    pub const ALL: [Target; 3] = [
        Target::ClaudePermissions,
        Target::CodexExecpolicy,
        Target::GeminiPolicy,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::ClaudePermissions => "claude-permissions",
            Self::CodexExecpolicy => "codex-execpolicy",
            Self::GeminiPolicy => "gemini-policy",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|target| target.as_str() == text)
    }

    /// The published format this output follows.
    pub fn followed(self) -> &'static str {
        match self {
            Self::ClaudePermissions => {
                "Claude Code settings.json `permissions` (allow/ask arrays; `Bash(command)` exact, `Bash(prefix:*)` prefix at a word boundary), as documented for Claude Code 2.1"
            }
            Self::CodexExecpolicy => {
                "Codex rules (execpolicy) `prefix_rule(pattern, decision, justification, match, not_match)` in a `.rules` file under ~/.codex/rules, as documented at developers.openai.com/codex/rules (2026)"
            }
            Self::GeminiPolicy => {
                "Gemini CLI policy engine TOML `[[rule]]` with toolName = \"run_shell_command\", commandPrefix, decision (allow/ask_user/deny) and priority, as documented at geminicli.com/docs/reference/policy-engine (2026-05)"
            }
        }
    }

    /// The file this output is meant to become.
    pub fn destination(self) -> &'static str {
        match self {
            Self::ClaudePermissions => ".claude/settings.json (merge `permissions` into it)",
            Self::CodexExecpolicy => "~/.codex/rules/aigent.rules",
            Self::GeminiPolicy => "~/.gemini/policies/aigent.toml",
        }
    }
}

/// The whole export: the document in the target's format and one report a
/// declaration.
#[derive(Debug, Clone, Serialize)]
pub struct Export {
    pub target: Target,
    pub followed: &'static str,
    pub destination: &'static str,
    pub document: String,
    pub declarations: Vec<Fidelity>,
    /// The declarations left out (no shell line satisfies them), by name.
    pub incomplete: Vec<String>,
}

/// What one declaration became in the target, and what it lost.
#[derive(Debug, Clone, Serialize)]
pub struct Fidelity {
    pub name: String,
    pub danger_level: Option<&'static str>,
    pub exported: bool,
    /// Why nothing was written for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_exported: Option<String>,
    /// Left out by design: only the hook can allow it (`project-program`,
    /// whose program is a file of the project sent into the sandbox), so
    /// the export is not incomplete without it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hook_only: bool,
    /// The rule as the target spells it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The target's decision word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<&'static str>,
    /// The words the rule matches at the start of a command line.
    pub prefix: Vec<String>,
    /// The rule admits exactly what the contract does.
    pub exact: bool,
    /// The rule admits command lines the contract refuses.
    pub wider: bool,
    /// What the client does with a command line this rule matches and the
    /// contract refuses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_refused_line: Option<String>,
    pub wider_because: Vec<String>,
    /// What the target still enforces.
    pub enforced: Vec<String>,
    /// What the contract says that the target cannot.
    pub dropped: Vec<Dropped>,
    /// Command lines (argv words) the rule admits and the contract refuses;
    /// each was refused by the hook's judgement.
    pub admitted_beyond_contract: Vec<Vec<String>>,
    /// Command lines the contract allows (each allowed by the hook's
    /// judgement) and the rule matches.
    pub matches: Vec<Vec<String>>,
    /// Command lines the contract refuses and the rule does not match.
    pub not_matches: Vec<Vec<String>>,
}

/// One constraint the target drops.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// The input it belongs to, or `None` for the whole command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    pub constraint: String,
}

/// Exports `declarations` (all loaded from `registry`) to `target`.
pub fn export(registry: &Registry, declarations: &[Declaration], target: Target) -> Export {
    let index = registry.program_index(None).ok();
    // Where confined sample paths exist; without it such a declaration is
    // judged with no directory, and refused (`confined_path`).
    let scratch = tempfile::Builder::new()
        .prefix("aigent-export-")
        .tempdir()
        .ok();
    let judge_with = Judge {
        registry,
        index,
        scratch: scratch.as_ref().map(tempfile::TempDir::path),
    };
    let declarations: Vec<Fidelity> = declarations
        .iter()
        .map(|declaration| fidelity(declaration, target, &judge_with))
        .collect();
    let document = render::document(target, &declarations);
    let incomplete = declarations
        .iter()
        .filter(|fidelity| !fidelity.exported && !fidelity.hook_only)
        .map(|fidelity| fidelity.name.clone())
        .collect();
    Export {
        target,
        followed: target.followed(),
        destination: target.destination(),
        document,
        declarations,
        incomplete,
    }
}

/// The hook's judgement over one registry, in the scratch directory.
struct Judge<'a> {
    registry: &'a Registry,
    index: Option<ProgramIndex>,
    scratch: Option<&'a Path>,
}

impl Judge<'_> {
    /// Whether the hook allows `words` (or asks, for a destructive
    /// declaration) as a use of `name`.
    fn passes(&self, name: &str, words: &[String]) -> bool {
        let Some(index) = &self.index else {
            return false;
        };
        // Only `name`'s own contract: another declaration of the same
        // program (the catalog's, say) must not be the one that allows.
        let Some(program) = words.first() else {
            return false;
        };
        let index = index.only(crate::registry::program_key(program), name);
        let settings = HookSettings::default();
        let which = |_: &str| None;
        let context = Context {
            registry: self.registry,
            index: &index,
            settings: &settings,
            which: &which,
            cwd: self.scratch,
            aigent: None,
            home: None,
        };
        let judgement = judge(&quote(words), &context);
        matches!(judgement.segments.as_slice(), [segment]
            if segment.declaration.as_deref() == Some(name)
                && matches!(segment.rule, "declared" | "destructive" | "runs_project_code"))
    }
}

/// Whether `pattern` is a prefix of `words`, token by token: Codex's
/// `prefix_rule` matching, and Claude Code's and Gemini CLI's prefix at a
/// word boundary.
pub fn prefix_matches(pattern: &[String], words: &[String]) -> bool {
    pattern.len() <= words.len() && pattern.iter().zip(words).all(|(p, w)| p == w)
}

/// One input as the exporter needs it.
struct Input {
    name: String,
    kind: String,
    required: bool,
    sensitive: bool,
    enum_values: Vec<Value>,
    default: Option<Value>,
    /// The declared `pattern`'s source.
    pattern: Option<String>,
    pattern_type: Option<PatternType>,
    confinement: Confinement,
    constraints: Vec<String>,
}

fn inputs(declaration: &Declaration) -> Vec<Input> {
    match &declaration.inputs {
        Inputs::Parameters(parameters) => parameters
            .iter()
            .map(|parameter| {
                let kind = match parameter.kind {
                    ParamType::Integer => "integer",
                    ParamType::Number => "number",
                    ParamType::Boolean => "boolean",
                    ParamType::Array => "array",
                    ParamType::String | ParamType::Enum | ParamType::ResourceId => "string",
                };
                let mut constraints = Vec::new();
                if !matches!(parameter.kind, ParamType::String) {
                    constraints.push(format!("type {}", parameter.kind.as_str()));
                }
                if parameter.required {
                    constraints.push("required".to_owned());
                }
                if let Some(pattern) = &parameter.pattern {
                    constraints.push(format!("pattern {}", pattern.as_str()));
                }
                if let Some(pattern_type) = parameter.pattern_type {
                    let name: &'static str = pattern_type.into();
                    constraints.push(format!("pattern_type {name}"));
                }
                if !parameter.enum_values.is_empty() {
                    constraints.push(format!("one of {}", parameter.enum_values.join(", ")));
                }
                if let Some(default) = &parameter.default {
                    constraints.push(format!("default {default}"));
                }
                if parameter.confinement.is_set() {
                    constraints.push("confined path".to_owned());
                }
                if !parameter.allow_leading_dash && parameter.kind.takes_pattern() {
                    constraints.push("no leading '-'".to_owned());
                }
                if parameter.kind != ParamType::Boolean {
                    constraints.push("Phase 1 value checks (shell characters, control characters, placeholders, traversal)".to_owned());
                }
                Input {
                    name: parameter.name.clone(),
                    kind: kind.to_owned(),
                    required: parameter.required,
                    sensitive: parameter.sensitive,
                    enum_values: parameter
                        .enum_values
                        .iter()
                        .map(|value| Value::String(value.clone()))
                        .collect(),
                    default: parameter.default.clone(),
                    pattern: parameter
                        .pattern
                        .as_ref()
                        .map(|pattern| pattern.as_str().to_owned()),
                    pattern_type: parameter.pattern_type,
                    confinement: parameter.confinement.clone(),
                    constraints,
                }
            })
            .collect(),
        Inputs::InputSchema(schema) => {
            let required: Vec<&str> = schema.required().collect();
            schema
                .properties()
                .map(|(name, property)| {
                    let kind = primary_type(property).to_owned();
                    let mut constraints = vec![format!("type {kind}")];
                    if required.contains(&name) {
                        constraints.push("required".to_owned());
                    }
                    if let Some(object) = property.as_object() {
                        for keyword in object.keys() {
                            if !matches!(keyword.as_str(), "type" | "description" | "title") {
                                constraints.push(format!("schema keyword {keyword}"));
                            }
                        }
                    }
                    if kind != "boolean" {
                        constraints.push("Phase 1 value checks (shell characters, control characters, placeholders, traversal)".to_owned());
                    }
                    Input {
                        name: name.to_owned(),
                        kind,
                        required: required.contains(&name),
                        sensitive: declaration.is_sensitive(name),
                        enum_values: property
                            .get("enum")
                            .and_then(Value::as_array)
                            .cloned()
                            .unwrap_or_default(),
                        default: property.get("default").cloned(),
                        pattern: property
                            .get("pattern")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        pattern_type: None,
                        confinement: Confinement::default(),
                        constraints,
                    }
                })
                .collect()
        }
    }
}

/// Values tried, in order, for a string input until Phase 1 takes one.
const STRING_SAMPLES: &[&str] = &[
    "example",
    "abc123",
    "1.2.3",
    "src/main.rs",
    "main",
    "42",
    "https://example.com/",
    "2024-01-01",
    "a",
];

/// Paths tried for a confined `filepath`: each exists in the scratch
/// directory the lines are judged in (a file, a directory, a file in it).
const CONFINED_PATHS: &[&str] = &["example.txt", "example", "example/example.txt"];

/// Values tried for a number input.
const NUMBER_SAMPLES: &[i64] = &[1, 10, 0, 100];

/// Values Phase 1 is expected to refuse, tried for the widening examples.
const BAD_SAMPLES: &[&str] = &["$(id)", "../../../etc/passwd", "-rf", "not a value"];

/// How many strings are generated from a `pattern`.
const PATTERN_SAMPLES: usize = 4;

/// Samples of a pattern type, the most typical first.
fn typed_samples(input: &Input) -> Vec<String> {
    let samples: &[&str] = match input.pattern_type {
        Some(PatternType::AlphanumericId) => &["example"],
        Some(PatternType::Uuid) => &["123e4567-e89b-12d3-a456-426614174000"],
        Some(PatternType::Semver) => &["1.2.3"],
        Some(PatternType::Filepath) if input.confinement.is_set() => CONFINED_PATHS,
        Some(PatternType::Filepath) => &["src/main.rs", "example.txt"],
        Some(PatternType::Url) => &["https://example.com/"],
        Some(PatternType::FreeText | PatternType::Regex) => &["example"],
        None => &[],
    };
    samples.iter().map(|sample| (*sample).to_owned()).collect()
}

/// Every string value to try for `input`: the pattern type's samples, the
/// fixed samples, then strings generated from the pattern.
fn string_samples(input: &Input) -> Vec<String> {
    let mut values = typed_samples(input);
    values.extend(STRING_SAMPLES.iter().map(|sample| (*sample).to_owned()));
    if let Some(pattern) = &input.pattern {
        values.extend(samples::matching(pattern, PATTERN_SAMPLES));
    }
    let mut seen = Vec::new();
    values.retain(|value| {
        let new = !seen.contains(value);
        seen.push(value.clone());
        new
    });
    values
}

fn candidates(input: &Input) -> Vec<Value> {
    let mut values: Vec<Value> = Vec::new();
    values.extend(input.default.iter().cloned());
    values.extend(input.enum_values.iter().cloned());
    match input.kind.as_str() {
        "boolean" => values.push(Value::Bool(true)),
        "integer" | "number" => values.extend(NUMBER_SAMPLES.iter().map(|n| json!(n))),
        "array" => {
            if input.pattern.is_none() && input.pattern_type.is_none() {
                values.push(json!(["echo", "hello"]));
            }
            values.extend(
                string_samples(input)
                    .into_iter()
                    .map(|sample| json!([sample])),
            );
        }
        _ => values.extend(string_samples(input).into_iter().map(Value::String)),
    }
    values
}

/// Whether a violation is about `name` (or one of its elements).
fn about(field: &str, name: &str) -> bool {
    field == name
        || field.starts_with(&format!("{name}["))
        || field.starts_with(&format!("{name}."))
}

/// Whether Phase 1 reports nothing about `name` for `arguments`; with a
/// scratch directory, where the arguments pass, their confined paths are
/// checked there too.
fn accepts_field(
    declaration: &Declaration,
    arguments: &Map<String, Value>,
    name: &str,
    scratch: Option<&Path>,
) -> bool {
    let text = Value::Object(arguments.clone()).to_string();
    match guard::check(declaration, &RawArguments::Json(&text)) {
        Ok(validated) => match scratch {
            Some(scratch) => guard::confine(declaration, &validated, scratch).map_or_else(
                |rejection| {
                    !rejection
                        .violations
                        .iter()
                        .any(|violation| about(&violation.field, name))
                },
                |()| true,
            ),
            None => true,
        },
        Err(rejection) => !rejection
            .violations
            .iter()
            .any(|violation| about(&violation.field, name)),
    }
}

/// Makes a confined sample path exist in the scratch directory, as a file
/// (a relative path without `..` only; the fixed samples exist already).
fn materialize(scratch: &Path, value: &Value) {
    let texts: Vec<&str> = match value {
        Value::String(text) => vec![text.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for text in texts {
        let path = Path::new(text);
        let plain = !text.is_empty()
            && path
                .components()
                .all(|component| matches!(component, Component::Normal(_) | Component::CurDir));
        let target = scratch.join(path);
        if !plain || target.exists() {
            continue;
        }
        if let Some(parent) = target.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(&target, b"");
    }
}

/// The scratch directory with the fixed confined samples in it.
fn prepare(scratch: &Path) {
    let _ = std::fs::create_dir_all(scratch.join("example"));
    let _ = std::fs::write(scratch.join("example.txt"), b"");
    let _ = std::fs::write(scratch.join("example/example.txt"), b"");
}

/// A sample value Phase 1 takes for each input, where one is found. A
/// second pass, with every other input filled in, checks confined paths
/// in the scratch directory (which needs the whole set to pass Phase 1).
fn samples(
    declaration: &Declaration,
    inputs: &[Input],
    scratch: Option<&Path>,
) -> Map<String, Value> {
    let mut chosen = Map::new();
    for input in inputs {
        for candidate in candidates(input) {
            let mut trial = chosen.clone();
            trial.insert(input.name.clone(), candidate.clone());
            if accepts_field(declaration, &trial, &input.name, None) {
                chosen.insert(input.name.clone(), candidate);
                break;
            }
        }
    }
    let Some(scratch) = scratch else {
        return chosen;
    };
    prepare(scratch);
    for input in inputs
        .iter()
        .filter(|input| input.confinement.needs_file_system())
    {
        for candidate in candidates(input) {
            let mut trial = chosen.clone();
            trial.insert(input.name.clone(), candidate.clone());
            if input.confinement.must_exist {
                materialize(scratch, &candidate);
            }
            if accepts_field(declaration, &trial, &input.name, Some(scratch)) {
                chosen.insert(input.name.clone(), candidate);
                break;
            }
        }
    }
    chosen
}

/// The argv Phase 1 and the builder give for `arguments`, if they pass.
fn built(declaration: &Declaration, arguments: &Map<String, Value>) -> Option<Vec<String>> {
    let text = Value::Object(arguments.clone()).to_string();
    let validated = guard::check(declaration, &RawArguments::Json(&text)).ok()?;
    let argv = Argv::build(declaration, &validated).ok()?;
    Some(argv.words().to_vec())
}

/// The text of a sample value as it appears at the end of its argv word.
fn value_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Array(items) => items.first().and_then(value_text),
        _ => None,
    }
}

/// The program and the literal words before the first parameter.
fn literal_prefix(declaration: &Declaration) -> Vec<String> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let mut prefix = vec![subprocess.binary.clone()];
    for part in &subprocess.argv {
        match part {
            ArgvPart::Literal(word) => prefix.push(word.clone()),
            ArgvPart::Param(_) => break,
        }
    }
    prefix
}

/// Whether the template has literal words after its first parameter.
fn literals_after_parameters(declaration: &Declaration) -> bool {
    let Some(subprocess) = &declaration.subprocess else {
        return false;
    };
    subprocess
        .argv
        .iter()
        .skip_while(|part| matches!(part, ArgvPart::Literal(_)))
        .any(|part| matches!(part, ArgvPart::Literal(_)))
}

/// The target's decision. Codex always prompts: its `allow` runs a line
/// outside its sandbox without asking, and a prefix rule matches lines the
/// contract refuses.
fn decision_word(target: Target, confirm: bool) -> &'static str {
    match (target, confirm) {
        (Target::ClaudePermissions, false) => "allow",
        (Target::ClaudePermissions, true) => "ask",
        (Target::CodexExecpolicy, _) => "prompt",
        (Target::GeminiPolicy, false) => "allow",
        (Target::GeminiPolicy, true) => "ask_user",
    }
}

/// What the client does with a line the rule matches and the contract
/// refuses, for each decision the export writes (the real-client tests,
/// `tests/it/real_clients/`, show the headless cases).
fn on_refused_line(target: Target, decision: &str) -> &'static str {
    match (target, decision) {
        (Target::ClaudePermissions, "allow") => {
            "Claude Code runs it without asking; only the aigent hook, where installed, refuses it"
        }
        (Target::ClaudePermissions, _) => {
            "Claude Code asks the person first; headless (claude -p) it is refused, the rule's reason told to the model"
        }
        (Target::CodexExecpolicy, _) => {
            "Codex asks the person before running it (outside its sandbox if approved); with approval_policy \"never\" (codex exec) it is refused"
        }
        (Target::GeminiPolicy, "allow") => {
            "Gemini CLI runs it without asking, in every approval mode; only the aigent hook, where installed, refuses it"
        }
        (Target::GeminiPolicy, _) => {
            "Gemini CLI asks the person first; headless (gemini -p) it is refused, in the yolo mode too, and the model is told it needs confirmation"
        }
    }
}

fn fidelity(declaration: &Declaration, target: Target, judge_with: &Judge<'_>) -> Fidelity {
    let name = declaration.name.clone();
    let mut fidelity = Fidelity {
        name: name.clone(),
        danger_level: declaration.danger_level.map(|level| level.as_str()),
        exported: false,
        not_exported: None,
        hook_only: false,
        rule: None,
        decision: None,
        prefix: Vec::new(),
        exact: false,
        wider: false,
        on_refused_line: None,
        wider_because: Vec::new(),
        enforced: Vec::new(),
        dropped: Vec::new(),
        admitted_beyond_contract: Vec::new(),
        matches: Vec::new(),
        not_matches: Vec::new(),
    };
    let Some(subprocess) = &declaration.subprocess else {
        fidelity.not_exported = Some("it runs no program".to_owned());
        return fidelity;
    };
    // `project-program`: the agent names which of the project's files runs
    // (`./gradlew`), and the hook sends it into the sandbox; a client's
    // rule can name no such set of programs.
    if declaration.class() == crate::contract::CommandClass::RunsProjectCode
        && crate::contract::programs::code_words::code_word_diagnostics(subprocess)
            .iter()
            .any(|diagnostic| diagnostic.code == crate::contract::codes::Code::AgentChoosesProgram)
    {
        fidelity.not_exported = Some(
            "the agent chooses its program (a file of the project, run in aigent's sandbox); no rule of the target can hold that, so only the hook allows it"
                .to_owned(),
        );
        fidelity.hook_only = true;
        return fidelity;
    }
    let inputs = inputs(declaration);
    let chosen = samples(declaration, &inputs, judge_with.scratch);
    let minimal: Map<String, Value> = chosen
        .iter()
        .filter(|(key, _)| {
            inputs
                .iter()
                .any(|input| &input.name == *key && input.required)
        })
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let mut prefix = literal_prefix(declaration);
    // Claude Code reads `*` in a rule as a wildcard: the prefix stops
    // before a word holding one.
    if target == Target::ClaudePermissions
        && let Some(star) = prefix.iter().position(|word| word.contains('*'))
    {
        prefix.truncate(star);
        fidelity
            .wider_because
            .push("a literal word holds `*`, which Claude Code reads as a wildcard: the prefix stops before it".to_owned());
    }
    if prefix.is_empty() {
        fidelity.not_exported =
            Some("its program name holds `*`, which the target reads as a wildcard".to_owned());
        return fidelity;
    }
    for arguments in [&minimal, &chosen] {
        if let Some(words) = built(declaration, arguments)
            && judge_with.passes(&name, &words)
            && prefix_matches(&prefix, &words)
            && !fidelity.matches.contains(&words)
        {
            fidelity.matches.push(words);
        }
    }
    if fidelity.matches.is_empty() {
        let through_env: Vec<&str> = inputs
            .iter()
            .filter(|input| input.required && !declaration.is_user_controlled(&input.name))
            .map(|input| input.name.as_str())
            .collect();
        fidelity.not_exported = Some(if through_env.is_empty() {
            "no command line built from sample values passes the contract, so no rule would hold it"
                .to_owned()
        } else {
            format!(
                "no shell command line can satisfy it: required input{} {} reach{} the program only outside its argv",
                if through_env.len() == 1 { "" } else { "s" },
                through_env.join(", "),
                if through_env.len() == 1 { "es" } else { "" },
            )
        });
        return fidelity;
    }
    fidelity.prefix = prefix.clone();
    // A rule that holds the program alone admits every use of it: the
    // person decides, whatever the danger level.
    let program_only = prefix.len() == 1 && !inputs.is_empty();
    let confirm =
        declaration.requires_confirmation() || declaration.danger_level.is_none() || program_only;
    let decision = decision_word(target, confirm);
    fidelity.decision = Some(decision);
    let whole_template = prefix.len() == literal_prefix(declaration).len()
        && declaration.subprocess.as_ref().is_some_and(|subprocess| {
            subprocess
                .argv
                .iter()
                .all(|part| matches!(part, ArgvPart::Literal(_)))
        });
    fidelity.exact = target == Target::ClaudePermissions && inputs.is_empty() && whole_template;
    fidelity.enforced.push(format!("program `{}`", prefix[0]));
    if prefix.len() > 1 {
        fidelity
            .enforced
            .push(format!("leading words `{}`", quote(&prefix[1..])));
    }
    fidelity.enforced.push(format!(
        "danger level {} → {}{}",
        fidelity.danger_level.unwrap_or("undeclared"),
        decision,
        if target == Target::CodexExecpolicy {
            " (Codex's allow would run lines outside its sandbox, so every rule prompts)"
        } else if program_only && !declaration.requires_confirmation() {
            " (the rule holds the program alone, so the person decides)"
        } else {
            ""
        }
    ));
    if fidelity.exact {
        fidelity.enforced.push("no other words".to_owned());
    }
    dropped(declaration, &inputs, &mut fidelity);
    widening(declaration, &inputs, &chosen, judge_with, &mut fidelity);
    near_misses(&name, judge_with, &mut fidelity);
    fidelity.wider = !fidelity.exact;
    if fidelity.wider {
        fidelity.on_refused_line = Some(on_refused_line(target, decision).to_owned());
    }
    if fidelity.wider {
        if prefix.len() == 1 {
            fidelity.wider_because.insert(
                0,
                format!("the rule admits every command line of `{}`", prefix[0]),
            );
        } else {
            fidelity
                .wider_because
                .insert(0, "the rule admits any words after its prefix".to_owned());
        }
    }
    fidelity.rule = Some(render::rule_text(target, &fidelity));
    fidelity.exported = true;
    fidelity
}

fn dropped(declaration: &Declaration, inputs: &[Input], fidelity: &mut Fidelity) {
    for input in inputs {
        for constraint in &input.constraints {
            fidelity.dropped.push(Dropped {
                input: Some(input.name.clone()),
                constraint: constraint.clone(),
            });
        }
    }
    let mut whole = |constraint: &str| {
        fidelity.dropped.push(Dropped {
            input: None,
            constraint: constraint.to_owned(),
        });
    };
    if !inputs.is_empty() || literals_after_parameters(declaration) {
        whole("the argv template after the prefix (flags, order, literal words)");
    }
    whole("no words beyond the template");
    if declaration.sandbox.is_some() {
        whole("sandbox (file-system and network limits)");
    }
    if declaration.timeout.is_some() {
        whole("timeout");
    }
    if let Some(subprocess) = &declaration.subprocess
        && (!subprocess.env.is_empty() || !subprocess.env_pass.is_empty())
    {
        whole("declared environment (env, env_pass)");
    }
    whole("audit record of each run");
}

/// Command lines the rule admits and the contract refuses: the fullest
/// example with one word too many, and with one value Phase 1 refuses.
fn widening(
    declaration: &Declaration,
    inputs: &[Input],
    chosen: &Map<String, Value>,
    judge_with: &Judge<'_>,
    fidelity: &mut Fidelity,
) {
    let Some(full) = fidelity.matches.last().cloned() else {
        return;
    };
    let name = declaration.name.clone();
    let mut candidates: Vec<Vec<String>> = Vec::new();
    let mut extra = full.clone();
    extra.push("--unexpected".to_owned());
    candidates.push(extra);
    for input in inputs {
        if input.sensitive || input.kind == "boolean" {
            continue;
        }
        let Some(good) = chosen.get(&input.name).and_then(value_text) else {
            continue;
        };
        let Some(position) = full.iter().rposition(|word| word.ends_with(&good)) else {
            continue;
        };
        for bad in BAD_SAMPLES {
            let mut words = full.clone();
            let word = &full[position];
            words[position] = format!("{}{bad}", &word[..word.len() - good.len()]);
            if !judge_with.passes(&name, &words) {
                candidates.push(words);
                break;
            }
        }
    }
    for words in candidates {
        if prefix_matches(&fidelity.prefix, &words)
            && !judge_with.passes(&name, &words)
            && !fidelity.admitted_beyond_contract.contains(&words)
        {
            fidelity.admitted_beyond_contract.push(words);
        }
    }
}

/// Command lines the contract refuses and the rule does not match: the
/// first example without the last word of the prefix, and the prefix cut
/// short.
fn near_misses(name: &str, judge_with: &Judge<'_>, fidelity: &mut Fidelity) {
    let prefix = fidelity.prefix.clone();
    if prefix.len() < 2 {
        return;
    }
    let Some(first) = fidelity.matches.first().cloned() else {
        return;
    };
    let mut without = first;
    without.remove(prefix.len() - 1);
    let short = prefix[..prefix.len() - 1].to_vec();
    for words in [without, short] {
        if !prefix_matches(&prefix, &words)
            && !judge_with.passes(name, &words)
            && !fidelity.not_matches.contains(&words)
        {
            fidelity.not_matches.push(words);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(name: &str) -> (Registry, Declaration) {
        let registry = Registry::new(None);
        let declaration = registry.load(name).unwrap().declaration;
        (registry, declaration)
    }

    #[test]
    fn prefix_matching_is_token_by_token() {
        let words = |text: &str| text.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert!(prefix_matches(&words("git log"), &words("git log -n 1")));
        assert!(!prefix_matches(&words("git log"), &words("git logs")));
        assert!(!prefix_matches(&words("git log -n"), &words("git log")));
    }

    #[test]
    fn git_log_keeps_its_leading_words_and_drops_the_rest() {
        let (registry, declaration) = builtin("git-log");
        let export = export(&registry, &[declaration], Target::CodexExecpolicy);
        let fidelity = &export.declarations[0];
        assert!(fidelity.exported);
        assert_eq!(
            fidelity.prefix,
            ["git", "--no-pager", "log", "--oneline", "--no-color"]
        );
        assert!(fidelity.wider);
        assert!(!fidelity.matches.is_empty());
        assert!(!fidelity.not_matches.is_empty());
        assert!(!fidelity.admitted_beyond_contract.is_empty());
        assert!(
            fidelity
                .dropped
                .iter()
                .any(|dropped| dropped.input.as_deref() == Some("author")
                    && dropped.constraint.starts_with("pattern "))
        );
        assert!(export.document.contains("prefix_rule("));
    }

    #[test]
    fn an_input_outside_argv_is_not_exported() {
        let (registry, declaration) = builtin("gh-api");
        let export = export(&registry, &[declaration], Target::ClaudePermissions);
        let fidelity = &export.declarations[0];
        assert!(!fidelity.exported);
        assert!(fidelity.not_exported.as_deref().unwrap().contains("token"));
        assert!(!export.document.contains("gh api"));
    }

    #[test]
    fn codex_rules_only_prompt_and_say_what_codex_does_with_a_refused_line() {
        let (registry, declaration) = builtin("git-log");
        let export = export(&registry, &[declaration], Target::CodexExecpolicy);
        let fidelity = &export.declarations[0];
        assert_eq!(fidelity.decision, Some("prompt"));
        assert!(
            fidelity
                .on_refused_line
                .as_deref()
                .is_some_and(|text| text.contains("approval_policy")),
            "{fidelity:?}"
        );
        assert!(export.document.contains("decision = \"prompt\""));
        assert!(!export.document.contains("decision = \"allow\""));
        assert!(export.incomplete.is_empty());
    }

    #[test]
    fn destructive_asks() {
        let (registry, declaration) = builtin("run-script");
        for target in Target::ALL {
            let export = export(&registry, std::slice::from_ref(&declaration), target);
            let decision = export.declarations[0].decision.unwrap();
            assert!(
                ["ask", "prompt", "ask_user"].contains(&decision),
                "{decision}"
            );
        }
    }
}
