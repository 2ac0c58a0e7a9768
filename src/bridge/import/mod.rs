//! `schema import`: declarations from a CLI's own machine-readable spec, a
//! CLI Agent Spec manifest ([`agent_spec`]) or a `usage` KDL spec
//! ([`usage`]).
//!
//! Each reader turns its format into the same [`Spec`]: commands, each with
//! its words after the program, its flags and positionals with the types,
//! choices and patterns the spec gives, and a list of what the reader could
//! not carry over. [`build`] turns that into declarations, each run through
//! the registry's own parse and lint: an input the lint refuses is left out
//! and listed, never rewritten into something the spec did not say.
//! [`write`] puts the declarations into a directory.

pub mod agent_spec;
pub mod usage;
pub mod write;

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::contract::{DangerLevel, Origin, command_name_problem, parameter_name_problem};
use crate::registry::parse_value;
use crate::report::Diagnostic;

/// The largest spec read, in bytes.
pub const MAX_SPEC_BYTES: usize = 4 * 1024 * 1024;

/// Which format the spec is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// A CLI Agent Spec manifest (`tool --schema`, `tool manifest`).
    AgentSpec,
    /// A `usage` spec (KDL), as jdx/usage, clap and cobra emit it.
    Usage,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::AgentSpec => "agent-spec",
            Format::Usage => "usage",
        }
    }

    /// What a spec of this format is called in messages.
    pub fn label(self) -> &'static str {
        match self {
            Format::AgentSpec => "CLI Agent Spec manifest",
            Format::Usage => "usage spec",
        }
    }
}

/// The value types a spec can give an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Enum,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::String => "string",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::Boolean => "boolean",
            Kind::Array => "array",
            Kind::Enum => "enum",
        }
    }
}

/// One flag or positional of a command, as the spec gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The parameter name: the long flag without `--`, the short letter,
    /// or the positional's name.
    pub name: String,
    /// `--name` or `-n` for a flag; `None` for a positional.
    pub flag: Option<String>,
    /// The value glued to the flag (`--name=VALUE`), as the spec requires.
    pub joined: bool,
    pub kind: Kind,
    pub required: bool,
    pub description: Option<String>,
    /// `enum_values` for [`Kind::Enum`]; for an array, the choices each
    /// item must be one of (an anchored pattern of exactly those words).
    pub choices: Vec<String>,
    /// A pattern the spec itself gives (anchored by the spec).
    pub pattern: Option<String>,
    /// A built-in syntax the spec names (`alphanumeric_id`, `uuid`, ...).
    pub pattern_type: Option<String>,
    /// A number's bounds as the spec writes them (`minimum`, `maximum`,
    /// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`).
    pub bounds: Map<String, Value>,
    /// The spec says a value may start with `-`.
    pub allow_leading_dash: bool,
    /// The program's own default, told in the description: a declared
    /// default would be passed on the command line, which the spec does
    /// not ask for.
    pub program_default: Option<String>,
}

impl Input {
    pub fn new(name: impl Into<String>, flag: Option<String>, kind: Kind) -> Self {
        Self {
            name: name.into(),
            flag,
            joined: false,
            kind,
            required: false,
            description: None,
            choices: Vec::new(),
            pattern: None,
            pattern_type: None,
            bounds: Map::new(),
            allow_leading_dash: false,
            program_default: None,
        }
    }

    /// How the input is written on the command line, for messages.
    pub fn written(&self) -> String {
        self.flag
            .clone()
            .unwrap_or_else(|| format!("<{}>", self.name))
    }
}

/// One command of the spec.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Command {
    /// The words after the program (`["skill", "validate"]`).
    pub path: Vec<String>,
    pub description: Option<String>,
    /// What the spec says; `None` when it says nothing (then `destructive`).
    pub danger_level: Option<DangerLevel>,
    pub flags: Vec<Input>,
    pub positionals: Vec<Input>,
    /// A literal `--` before the positionals, as the spec requires.
    pub double_dash: bool,
    /// The program's exit codes, in the declaration's shape.
    pub exit_codes: Option<Map<String, Value>>,
    /// What the reader found and could not carry over.
    pub unmapped: Vec<String>,
}

impl Command {
    /// A positional after an optional one would take its place when it is
    /// left out: the optional ones before the last are made required
    /// (narrower, never wider), and a list that is not last is left out.
    /// Both readers apply it, each noting what changed in `unmapped`.
    pub fn positionals_in_order(&mut self) {
        let count = self.positionals.len();
        let mut keep = Vec::new();
        for (index, mut input) in std::mem::take(&mut self.positionals)
            .into_iter()
            .enumerate()
        {
            let last = index + 1 == count;
            if !last && input.kind == Kind::Array {
                self.unmapped.push(format!(
                    "{} left out: a list of words before another positional leaves no way to tell them apart",
                    input.written()
                ));
                continue;
            }
            if !last && !input.required {
                input.required = true;
                self.unmapped.push(format!(
                    "{} made required: left out, the positional after it would take its place",
                    input.written()
                ));
            }
            keep.push(input);
        }
        self.positionals = keep;
    }
}

/// A spec as the readers give it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spec {
    /// The program's name, if the spec names it (`bin` in a usage spec).
    pub program: Option<String>,
    pub commands: Vec<Command>,
    /// Commands the reader did not turn into a [`Command`], and why.
    pub skipped: Vec<Skipped>,
    /// Spec-wide things it could not carry over.
    pub unmapped: Vec<String>,
}

/// A command that got no declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The command line it stands for (`aigent schema`).
    pub command: String,
    pub reason: String,
}

/// One declaration made from the spec.
#[derive(Debug, Clone, Serialize)]
pub struct Imported {
    pub name: String,
    pub file_name: String,
    /// The program and the words it stands for (`aigent skill validate`).
    pub command: String,
    pub declaration: Value,
    /// What `schema lint` says of it: warnings only (an input with an
    /// error is left out and listed in `unmapped`).
    pub lint: Vec<Diagnostic>,
    /// What the spec says that the declaration does not.
    pub unmapped: Vec<String>,
}

/// Everything an import made.
#[derive(Debug, Clone, Serialize)]
pub struct Import {
    pub format: Format,
    pub program: String,
    pub declarations: Vec<Imported>,
    pub skipped: Vec<Skipped>,
    /// What the spec says as a whole that no declaration carries.
    pub unmapped: Vec<String>,
}

/// Why a spec could not be read. Nothing is written then.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not valid JSON or KDL; where.
    #[error("{format}, line {line}, column {column}: {message}")]
    Syntax {
        format: &'static str,
        line: usize,
        column: usize,
        message: String,
    },
    /// Valid syntax, but not the format's shape; `at` says where.
    #[error("{format}, {at}: {message}")]
    Shape {
        format: &'static str,
        at: String,
        message: String,
    },
    #[error("the spec is over {MAX_SPEC_BYTES} bytes")]
    TooLarge,
    #[error(
        "the spec does not name its program; pass --program NAME (the CLI Agent Spec manifest has no field for it)"
    )]
    NoProgram,
    #[error("--program {0:?} cannot name a program: {1}")]
    BadProgram(String, String),
}

/// Reads `text` as `format` and makes its declarations. `program` names
/// the program when the spec does not (or overrides it).
pub fn import(format: Format, text: &str, program: Option<&str>) -> Result<Import, ImportError> {
    if text.len() > MAX_SPEC_BYTES {
        return Err(ImportError::TooLarge);
    }
    let spec = match format {
        Format::AgentSpec => agent_spec::read(text)?,
        Format::Usage => usage::read(text)?,
    };
    let program = program
        .map(str::to_owned)
        .or_else(|| spec.program.clone())
        .ok_or(ImportError::NoProgram)?;
    if let Some(problem) = program_problem(&program) {
        return Err(ImportError::BadProgram(program, problem));
    }
    Ok(build(format, &program, spec))
}

/// Why `program` cannot be a declaration's `binary` as imported: a bare
/// name looked up on PATH, without spaces, slashes or control characters.
fn program_problem(program: &str) -> Option<String> {
    if program.is_empty() {
        return Some("it is empty".to_owned());
    }
    if program.len() > 255 {
        return Some("it is longer than 255 bytes".to_owned());
    }
    if program.starts_with('-') {
        return Some("it starts with '-'".to_owned());
    }
    program
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '/' | '\\'))
        .map(|c| format!("it contains {c:?}; give the bare program name found on PATH"))
}

/// The declaration name for a command: the program and its words, joined
/// by `-`, each character that cannot be in a name made `-`.
pub fn declaration_name(program: &str, path: &[String]) -> String {
    let joined = std::iter::once(program)
        .chain(path.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("-");
    let mapped: String = joined
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    mapped
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// Why `word` cannot be one of a command's words on the program's command
/// line: a word the program would read as an option (`--exec-path=DIR`
/// makes git run programs from DIR), or one that is no word at all.
pub fn command_word_problem(word: &str) -> Option<String> {
    if word.trim().is_empty() {
        return Some("an empty command word".to_owned());
    }
    if word.starts_with('-') {
        return Some(format!(
            "`{}` starts with '-', so the program would read it as an option, not a command word",
            word.escape_debug()
        ));
    }
    word.chars().find(|c| c.is_control()).map(|c| {
        format!(
            "`{}` holds the control character {c:?}",
            word.escape_debug()
        )
    })
}

/// Turns a read spec into declarations.
pub fn build(format: Format, program: &str, spec: Spec) -> Import {
    let mut declarations: Vec<Imported> = Vec::new();
    // Names taken so far: a set, so that a spec of many commands is not
    // compared name by name with every earlier one.
    let mut taken: HashSet<String> = HashSet::new();
    // The readers name a skipped command by its words; the program leads.
    let mut skipped: Vec<Skipped> = spec
        .skipped
        .into_iter()
        .map(|skipped| Skipped {
            command: if skipped.command.is_empty() {
                program.to_owned()
            } else {
                format!("{program} {}", skipped.command)
            },
            reason: skipped.reason,
        })
        .collect();
    for command in spec.commands {
        let line = std::iter::once(program)
            .chain(command.path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(problem) = command
            .path
            .iter()
            .find_map(|word| command_word_problem(word))
        {
            skipped.push(Skipped {
                command: line,
                reason: format!("not a command of the program: {problem}"),
            });
            continue;
        }
        let name = declaration_name(program, &command.path);
        if let Some(problem) = command_name_problem(&name) {
            skipped.push(Skipped {
                command: line,
                reason: format!("no declaration name can be made from it: {problem}"),
            });
            continue;
        }
        if taken.contains(&name) {
            skipped.push(Skipped {
                command: line,
                reason: format!("its name `{name}` is taken by another command of the spec"),
            });
            continue;
        }
        match declare(format, program, &name, &line, command) {
            Ok(imported) => {
                taken.insert(name);
                declarations.push(imported);
            }
            Err(reason) => skipped.push(Skipped {
                command: line,
                reason,
            }),
        }
    }
    Import {
        format,
        program: program.to_owned(),
        declarations,
        skipped,
        unmapped: spec.unmapped,
    }
}

/// One command as a declaration that loads: an input (or the exit codes)
/// the lint refuses is dropped and listed; anything else it refuses makes
/// the command skipped.
fn declare(
    format: Format,
    program: &str,
    name: &str,
    line: &str,
    mut command: Command,
) -> Result<Imported, String> {
    let mut unmapped = std::mem::take(&mut command.unmapped);
    settle_names(&mut command, &mut unmapped);
    // Each round drops at least one input or the exit codes, so this ends.
    let rounds = command.flags.len() + command.positionals.len() + 2;
    for _ in 0..rounds {
        let declaration = to_declaration(format, program, name, line, &command);
        let parsed = parse_value(
            &declaration,
            &Origin {
                file_stem: Some(name),
                file: None,
            },
        );
        let errors: Vec<&Diagnostic> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
        if errors.is_empty() && parsed.declaration.is_some() {
            return Ok(Imported {
                name: name.to_owned(),
                file_name: format!("{name}.json"),
                command: line.to_owned(),
                declaration,
                lint: parsed.diagnostics,
                unmapped,
            });
        }
        let mut dropped = false;
        for error in &errors {
            if drop_for(error, &declaration, &mut command, &mut unmapped) {
                dropped = true;
            }
        }
        if !dropped {
            let reasons: Vec<String> = errors
                .iter()
                .map(|error| {
                    format!(
                        "{} {}{}",
                        error.code,
                        error
                            .field
                            .as_deref()
                            .map(|field| format!("{field}: "))
                            .unwrap_or_default(),
                        error.message
                    )
                })
                .collect();
            return Err(format!(
                "the declaration made from it does not pass `schema lint`: {}",
                reasons.join("; ")
            ));
        }
    }
    Err("the declaration made from it does not pass `schema lint`".to_owned())
}

/// Drops what one lint error is about, recording it; false when the error
/// is about nothing that can be dropped.
fn drop_for(
    error: &Diagnostic,
    declaration: &Value,
    command: &mut Command,
    unmapped: &mut Vec<String>,
) -> bool {
    let Some(field) = error.field.as_deref() else {
        return false;
    };
    if field.starts_with("exit_codes") || field.starts_with("success_exit_codes") {
        if command.exit_codes.take().is_some() {
            unmapped.push(format!(
                "exit_codes left out: {} {}",
                error.code, error.message
            ));
            return true;
        }
        return false;
    }
    let parameter = if let Some(rest) = field.strip_prefix("parameters.") {
        Some(rest.split('.').next().unwrap_or(rest).to_owned())
    } else if let Some(rest) = field.strip_prefix("subprocess.argv[") {
        rest.split(']')
            .next()
            .and_then(|index| index.parse::<usize>().ok())
            .and_then(|index| declaration["subprocess"]["argv"].get(index))
            .and_then(|slot| slot.get("param"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    } else {
        None
    };
    let Some(parameter) = parameter else {
        return false;
    };
    for list in [&mut command.flags, &mut command.positionals] {
        if let Some(index) = list.iter().position(|input| input.name == parameter) {
            let input = list.remove(index);
            unmapped.push(format!(
                "{} left out: {} {}",
                input.written(),
                error.code,
                error.message
            ));
            return true;
        }
    }
    false
}

/// Parameter names that cannot be one (reserved, not a `--flag`) or that
/// two inputs share: the later input is left out and listed.
fn settle_names(command: &mut Command, unmapped: &mut Vec<String>) {
    let mut seen: HashSet<String> = HashSet::new();
    for list in [&mut command.flags, &mut command.positionals] {
        list.retain_mut(|input| {
            if let Some(problem) = parameter_name_problem(&input.name) {
                unmapped.push(format!("{} left out: {problem}", input.written()));
                return false;
            }
            if seen.contains(&input.name) && input.flag.is_none() {
                let renamed = format!("{}-arg", input.name);
                if !seen.contains(&renamed) && parameter_name_problem(&renamed).is_none() {
                    unmapped.push(format!(
                        "{} is the parameter `{renamed}`: a flag has the name `{}`",
                        input.written(),
                        input.name
                    ));
                    input.name = renamed;
                }
            }
            if seen.contains(&input.name) {
                unmapped.push(format!(
                    "{} left out: another input already has the parameter name `{}`",
                    input.written(),
                    input.name
                ));
                return false;
            }
            seen.insert(input.name.clone());
            true
        });
    }
}

/// The anchored pattern that accepts exactly `choices`.
pub fn choices_pattern(choices: &[String]) -> String {
    let alternatives: Vec<String> = choices
        .iter()
        .map(|choice| regex_syntax::escape(choice))
        .collect();
    format!("^(?:{})$", alternatives.join("|"))
}

fn to_parameter(input: &Input) -> Value {
    let mut parameter = Map::new();
    parameter.insert("type".to_owned(), json!(input.kind.as_str()));
    parameter.insert("required".to_owned(), json!(input.required));
    let mut description = input.description.clone().unwrap_or_default();
    if let Some(default) = &input.program_default {
        if !description.is_empty() && !description.ends_with('.') {
            description.push('.');
        }
        if !description.is_empty() {
            description.push(' ');
        }
        description.push_str(&format!("The program's default: {default}"));
    }
    if !description.is_empty() {
        parameter.insert("description".to_owned(), json!(description));
    }
    match input.kind {
        Kind::Enum => {
            parameter.insert("enum_values".to_owned(), json!(input.choices));
        }
        Kind::Array | Kind::String if !input.choices.is_empty() => {
            parameter.insert("pattern".to_owned(), json!(choices_pattern(&input.choices)));
        }
        _ => {}
    }
    if let Some(pattern) = &input.pattern
        && !parameter.contains_key("pattern")
    {
        parameter.insert("pattern".to_owned(), json!(pattern));
    }
    if let Some(pattern_type) = &input.pattern_type {
        parameter.insert("pattern_type".to_owned(), json!(pattern_type));
    }
    parameter.extend(input.bounds.clone());
    if input.allow_leading_dash {
        parameter.insert("allow_leading_dash".to_owned(), json!(true));
    }
    Value::Object(parameter)
}

fn to_declaration(
    format: Format,
    program: &str,
    name: &str,
    line: &str,
    command: &Command,
) -> Value {
    let description = command
        .description
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| {
            format!(
                "`{line}` (imported from its {} spec, which gives no description)",
                format.as_str()
            )
        });
    let danger = command.danger_level.unwrap_or(DangerLevel::Destructive);
    let mut parameters = Map::new();
    let mut argv: Vec<Value> = command.path.iter().map(|word| json!(word)).collect();
    for input in &command.flags {
        parameters.insert(input.name.clone(), to_parameter(input));
        let mut slot = json!({"param": input.name, "flag": input.flag});
        if input.joined && input.kind != Kind::Boolean {
            slot["form"] = json!("joined");
        }
        argv.push(slot);
    }
    if command.double_dash && !command.positionals.is_empty() {
        argv.push(json!("--"));
    }
    for input in &command.positionals {
        parameters.insert(input.name.clone(), to_parameter(input));
        argv.push(json!({"param": input.name}));
    }
    let mut declaration = json!({
        "name": name,
        "description": description,
        "danger_level": danger.as_str(),
        "parameters": parameters,
        "subprocess": {"binary": program, "argv": argv},
    });
    if let Some(exit_codes) = &command.exit_codes
        && !exit_codes.is_empty()
    {
        declaration["exit_codes"] = Value::Object(exit_codes.clone());
    }
    declaration
}

/// A byte offset in `text` as a 1-based line and column (in characters).
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map_or(0, |last| last.chars().count())
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_program_and_words() {
        assert_eq!(
            declaration_name("aigent", &["skill".into(), "validate".into()]),
            "aigent-skill-validate"
        );
        assert_eq!(declaration_name("git", &["log".into()]), "git-log");
        assert_eq!(declaration_name("my.tool", &[".x".into()]), "my-tool-x");
    }

    #[test]
    fn choices_become_an_anchored_pattern() {
        let pattern = choices_pattern(&["a.b".into(), "c".into()]);
        assert_eq!(pattern, r"^(?:a\.b|c)$");
        assert!(crate::contract::pattern_anchoring_problem(&pattern).is_none());
    }

    #[test]
    fn command_words_that_are_options_are_skipped() {
        for word in ["--exec-path=/tmp", "-C", "", " ", "a\nb"] {
            assert!(command_word_problem(word).is_some(), "{word:?}");
        }
        assert!(command_word_problem("subtree").is_none());
        let spec = Spec {
            commands: vec![
                Command {
                    path: vec!["--exec-path=DIR".into(), "subtree".into()],
                    danger_level: Some(DangerLevel::Safe),
                    ..Command::default()
                },
                Command {
                    path: vec!["log".into()],
                    danger_level: Some(DangerLevel::Safe),
                    ..Command::default()
                },
            ],
            ..Spec::default()
        };
        let import = build(Format::Usage, "git", spec);
        let names: Vec<&str> = import
            .declarations
            .iter()
            .map(|d| d.name.as_str())
            .collect();
        assert_eq!(names, ["git-log"]);
        assert_eq!(import.skipped.len(), 1);
        assert_eq!(import.skipped[0].command, "git --exec-path=DIR subtree");
        assert!(
            import.skipped[0].reason.contains("option"),
            "{:?}",
            import.skipped
        );
    }

    #[test]
    fn a_name_taken_twice_is_skipped_the_second_time() {
        let command = |word: &str| Command {
            path: vec![word.into()],
            danger_level: Some(DangerLevel::Safe),
            ..Command::default()
        };
        let spec = Spec {
            commands: vec![command("a.b"), command("a-b"), command("c")],
            ..Spec::default()
        };
        let import = build(Format::AgentSpec, "t", spec);
        assert_eq!(import.declarations.len(), 2);
        assert_eq!(import.skipped.len(), 1);
        assert!(import.skipped[0].reason.contains("is taken"));
    }

    #[test]
    fn programs_are_bare_names() {
        assert!(program_problem("git").is_none());
        for bad in ["", "-x", "a b", "/bin/sh", "a\nb"] {
            assert!(program_problem(bad).is_some(), "{bad:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Any text: an import or an error, never a panic.
        #[test]
        fn never_panics_on_any_text(text in "\\PC{0,400}") {
            let _ = import(Format::Usage, &text, Some("x"));
            let _ = import(Format::AgentSpec, &text, Some("x"));
        }

        /// Text made of the pieces the grammars care about, so the readers
        /// get past the syntax and into the mapping.
        #[test]
        fn never_panics_on_spec_shaped_text(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "flag ", "arg ", "cmd ", "\"-x --long\" ", "\"<v>…\" ", "\"[p]\" ", "{ ", "} ", "\n",
                    "choices a b ", "var=#true ", "count=#true ", "required=#true ", "hide=#true ",
                    "#\"\"\"\n", "\"\"\"# ", "/* ", "*/ ", "// ", "bin x\n", "global=#true ",
                    "subcommand_required=#true ", "default=\"1\" ", "\"json\" ", "\"--\" ",
                    "{\"commands\": {", "\"a.b\": {", "\"flags\": {", "\"type\": \"enum\"", ",", "}",
                    "\"danger_level\": \"safe\"", "\"arguments\": {", "\"enum_values\": [\"a\"]",
                ]),
                0..60,
            )
        ) {
            let text: String = pieces.concat();
            let _ = import(Format::Usage, &text, Some("x"));
            let _ = import(Format::AgentSpec, &text, Some("x"));
        }
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("é", 1), (1, 1));
    }
}
