//! Reading a declaration: text → JSON value → [`Declaration`], with every
//! problem reported as a diagnostic naming its field. Nothing stops at the
//! first problem. The cross-field rules live in `lint`, and the loader
//! runs both (`crate::registry::parse_declaration`).

use serde_json::{Map, Value};
use strum::VariantArray;

use super::bounds::{Bound, BoundKind, MAX_STEP_DIGITS, NumberBounds};
use super::codes;
use super::declaration::{
    AnchoredPattern, ArgvPart, CommandClass, Confinement, DangerLevel, Declaration, EnvValue,
    EnvVar, ExitCode, FlagForm, Inputs, ParamSlot, ParamType, Parameter, PathRoot, PatternType,
    RegexDialect, SideEffects, Subprocess, Syntax,
};
use super::{input_schema, value};
use crate::report::Diagnostic;

/// Which syntax a declaration file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceFormat {
    Json,
    Yaml,
}

impl SourceFormat {
    pub const EXTENSIONS: &[(&str, SourceFormat)] = &[
        ("json", SourceFormat::Json),
        ("yaml", SourceFormat::Yaml),
        ("yml", SourceFormat::Yaml),
    ];

    pub fn from_extension(extension: &str) -> Option<Self> {
        Self::EXTENSIONS
            .iter()
            .find(|(known, _)| *known == extension)
            .map(|(_, format)| *format)
    }
}

/// A parsed file: the declaration when it has no errors, and every finding
/// (warnings included) either way. Straight from [`read_declaration`] or
/// [`read_value`] the declaration is there whenever its fields could be
/// built, so that the lint can still look at it; [`Parsed::settle`] then
/// drops it if anything was an error.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub declaration: Option<Declaration>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Keeps the declaration only if no finding is an error.
    pub fn settle(mut self) -> Self {
        if self.has_errors() {
            self.declaration = None;
        }
        self
    }

    fn failed(diagnostic: Diagnostic) -> Self {
        Self {
            declaration: None,
            diagnostics: vec![diagnostic],
        }
    }
}

/// Reads one declaration's fields, without the cross-field lint (see
/// [`Parsed`]).
pub fn read_declaration(text: &str, format: SourceFormat, origin: &Origin<'_>) -> Parsed {
    if text.len() > value::MAX_DOCUMENT_BYTES {
        return Parsed::failed(Diagnostic::new(
            codes::Code::FileUnreadable,
            format!("the file is {} bytes; the limit is 1 MiB", text.len()),
        ));
    }
    let parsed = match format {
        SourceFormat::Json => value::from_json(text),
        SourceFormat::Yaml => value::from_yaml(text),
    };
    match parsed {
        Ok(document) => read_value(&document, origin),
        Err(err) => {
            let (message, line) = match format {
                SourceFormat::Yaml => {
                    yaml_syntax_with_hint(text).unwrap_or_else(|| (err.message.clone(), err.line))
                }
                SourceFormat::Json => (err.message.clone(), err.line),
            };
            Parsed::failed(
                Diagnostic::new(
                    codes::Code::Syntax,
                    format!(
                        "invalid {}: {message}",
                        match format {
                            SourceFormat::Json => "JSON",
                            SourceFormat::Yaml => "YAML",
                        }
                    ),
                )
                .with_line(line.or(err.line)),
            )
        }
    }
}

/// The message a SKILL.md gets for the same YAML mistake (E017): its
/// column and plain-language advice (`a value holding ': ' must be quoted,
/// e.g. description: "..."`). One implementation, the frontmatter
/// parser's, reads the text again, only once it has failed; `None` when
/// that reader finds no syntax error of its own to explain.
fn yaml_syntax_with_hint(text: &str) -> Option<(String, Option<usize>)> {
    use crate::skill::frontmatter::{Document, ParseError, parse};
    let document = Document {
        yaml: text,
        yaml_first_line: 1,
        body: "",
        body_first_line: 1,
    };
    match parse(&document) {
        Err(ParseError::Syntax { message, line }) => Some((message, line)),
        _ => None,
    }
}

/// Where a declaration comes from, as far as its checks care.
#[derive(Debug, Clone, Copy, Default)]
pub struct Origin<'a> {
    /// The command name the file name promises; `name` must equal it.
    pub file_stem: Option<&'a str>,
    /// The file itself, for checks that look at files beside it.
    pub file: Option<&'a std::path::Path>,
}

/// The top-level fields of a declaration.
pub const ROOT_FIELDS: &[&str] = &[
    "name",
    "description",
    "danger_level",
    "parameters",
    "input_schema",
    "subprocess",
    "exit_codes",
    "timeout_s",
    "long_running",
    "requires_confirmation",
    "success_exit_codes",
    "sandbox",
    "effective_sandbox",
    "class",
];

/// The fields of one entry of `parameters`.
pub const PARAMETER_FIELDS: &[&str] = &[
    "type",
    "required",
    "description",
    "pattern",
    "pattern_type",
    "regex_dialect",
    "enum_values",
    "default",
    "sensitive",
    "allow_leading_dash",
    "relative_only",
    "under",
    "must_exist",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The fields of `subprocess`.
pub const SUBPROCESS_FIELDS: &[&str] = &[
    "binary",
    "argv",
    "hardcoded_args",
    "user_controlled_args",
    "env",
    "env_pass",
    "syntax",
    "preserve_locale",
];

/// The fields of one entry of `exit_codes`.
pub const EXIT_CODE_FIELDS: &[&str] = &["name", "description", "retryable", "side_effects"];

/// A key's value in a mapping. Declarations' mappings are small (a
/// parameter has a handful of keys), where comparing each key costs less
/// than hashing the one looked for; a large one is looked up by hash.
trait Fields {
    fn field(&self, key: &str) -> Option<&Value>;
}

impl Fields for Map<String, Value> {
    fn field(&self, key: &str) -> Option<&Value> {
        if self.len() <= 16 {
            self.iter()
                .find_map(|(name, value)| (name == key).then_some(value))
        } else {
            self.get(key)
        }
    }
}

/// Reads one of aigent's own built-in (catalog) JSON declarations. Its
/// custom patterns are neither compiled nor checked for anchoring here:
/// each is compiled when a value is first matched against it, so a hook
/// call pays only for the parameters its line reaches. The catalog's tests
/// hold every entry to the whole check ([`read_declaration`] and the lint).
pub fn read_builtin_declaration(text: &str, origin: &Origin<'_>) -> Parsed {
    // Built in: its files are read strictly (no key twice) when aigent is
    // tested (`catalog::every_catalog_file_parses_and_lints_clean`), so
    // here serde_json's own reader does, without the check per key.
    match serde_json::from_str::<Value>(text) {
        Ok(document) => read_document(&document, origin, true),
        Err(_) => read_declaration(text, SourceFormat::Json, origin),
    }
}

/// Builds a declaration from an already-parsed document, without the
/// cross-field lint (see [`Parsed`]).
pub fn read_value(document: &Value, origin: &Origin<'_>) -> Parsed {
    read_document(document, origin, false)
}

fn read_document(document: &Value, origin: &Origin<'_>, builtin: bool) -> Parsed {
    let file_stem = origin.file_stem;
    let Some(root) = document.as_object() else {
        return Parsed::failed(Diagnostic::new(
            codes::Code::Shape,
            "a declaration must be a mapping with `name`, `description` and `parameters` or `input_schema`",
        ));
    };
    let mut reader = Reader {
        builtin,
        ..Reader::default()
    };
    reader.unknown_fields(root, "", ROOT_FIELDS);
    let name = reader.required_string(root, "name", "");
    if let Some(name) = &name {
        if let Some(problem) = super::naming::command_name_problem(name) {
            reader.error(codes::Code::NameInvalid, "name", problem);
        } else if let Some(stem) = file_stem
            && stem != name
        {
            reader.error(
                codes::Code::NameInvalid,
                "name",
                format!("`name` is `{name}` but the file is named for `{stem}`; they must match"),
            );
        }
    }
    let description = reader.required_string(root, "description", "");
    let danger_level =
        reader
            .optional_string(root, "danger_level", "")
            .and_then(|text| {
                let level = DangerLevel::parse(&text);
                if level.is_none() {
                    reader.error(
                codes::Code::Shape,
                "danger_level",
                format!("`danger_level` must be one of safe, mutating, destructive, not `{text}`"),
            );
                }
                level
            });
    let inputs = match (root.field("parameters"), root.field("input_schema")) {
        (Some(_), Some(_)) => {
            reader.error(
                codes::Code::InputsConflict,
                "input_schema",
                "give `parameters` or `input_schema`, not both",
            );
            None
        }
        (None, None) => {
            reader.error(
                codes::Code::InputsConflict,
                "parameters",
                "a declaration needs `parameters` (an empty mapping for none) or `input_schema`",
            );
            None
        }
        (Some(parameters), None) => reader.parameters(parameters).map(Inputs::Parameters),
        (None, Some(schema)) => {
            let (compiled, found) = input_schema::compile(schema, "input_schema");
            reader.diagnostics.extend(found);
            compiled.map(Inputs::InputSchema)
        }
    };
    let subprocess = root
        .field("subprocess")
        .and_then(|value| reader.subprocess(value));
    if danger_level.is_none() && root.field("danger_level").is_none() {
        let (level, why) = super::danger::suggest_danger_level(
            name.as_deref().unwrap_or_default(),
            subprocess.as_ref(),
        );
        reader.error(
            codes::Code::DangerLevelMissing,
            "danger_level",
            format!(
                "`danger_level` is required (safe, mutating or destructive): it decides whether a run needs confirmation; {why}: set `danger_level` to `{}`",
                level.as_str()
            ),
        );
    }
    let timeout = root
        .field("timeout_s")
        .and_then(|value| reader.timeout(value));
    let long_running = match root.field("long_running") {
        None => false,
        Some(Value::Bool(long_running)) => *long_running,
        Some(value) => {
            reader.error(
                codes::Code::Shape,
                "long_running",
                format!("`long_running` must be true or false, not {value}"),
            );
            false
        }
    };
    // Derived from the danger level (the wire format prints it); a file
    // may repeat it, but not contradict it.
    if let Some(value) = root.field("requires_confirmation") {
        let derived = danger_level == Some(DangerLevel::Destructive);
        if value.as_bool() != Some(derived) {
            reader.error(
                codes::Code::Shape,
                "requires_confirmation",
                format!(
                    "`requires_confirmation` follows from `danger_level` (it is {derived} here); leave it out"
                ),
            );
        }
    }
    let success_exit_codes = match root.field("success_exit_codes") {
        None => Some(vec![0]),
        Some(value) => reader.success_exit_codes(value),
    };
    let exit_codes = match root.field("exit_codes") {
        None => Some(ExitCode::standard_table()),
        Some(value) => reader.exit_codes(value, success_exit_codes.as_deref().unwrap_or(&[0])),
    };

    let class = reader.optional_string(root, "class", "").and_then(|text| {
        let class = CommandClass::parse(&text);
        if class.is_none() {
            reader.error(
                codes::Code::Shape,
                "class",
                format!(
                    "`class` must be one of {}, not `{text}`",
                    enum_names(CommandClass::VARIANTS.iter().map(|class| class.as_str()))
                ),
            );
        }
        class
    });
    if let (Some(class), Some(level)) = (class, danger_level)
        && !class.danger_levels().contains(&level)
    {
        reader.error(
            codes::Code::Shape,
            "class",
            format!(
                "`class: {}` does not go with `danger_level: {}`; it takes {}",
                class.as_str(),
                level.as_str(),
                enum_names(class.danger_levels().iter().map(|level| level.as_str()))
            ),
        );
    }

    let sandbox = root.field("sandbox").and_then(|value| {
        let (spec, found) = super::sandbox::read_sandbox(value);
        reader.diagnostics.extend(found);
        spec
    });

    let mut diagnostics = reader.diagnostics;
    let declaration = match (name, description, inputs, exit_codes, success_exit_codes) {
        (
            Some(name),
            Some(description),
            Some(inputs),
            Some(exit_codes),
            Some(success_exit_codes),
        ) => Some(Declaration {
            name,
            description,
            danger_level,
            inputs,
            subprocess,
            timeout,
            long_running,
            exit_codes,
            success_exit_codes,
            sandbox,
            class,
        }),
        _ => None,
    };
    // Derived from `sandbox` and the danger level (the wire format prints
    // it); a file may repeat it, but not contradict it.
    if let (Some(written), Some(declaration)) = (root.field("effective_sandbox"), &declaration) {
        let derived = serde_json::to_value(super::sandbox::EffectiveSandbox::of(declaration))
            .unwrap_or(Value::Null);
        if *written != derived || declaration.subprocess.is_none() {
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::Shape,
                    "`effective_sandbox` follows from `sandbox` and `danger_level`; leave it out and write `sandbox`",
                )
                .with_field("effective_sandbox"),
            );
        }
    }
    Parsed {
        declaration,
        diagnostics,
    }
}

/// Why `name` cannot name an environment variable, if it cannot: ASCII
/// letters, digits and `_`, not starting with a digit, at most 128.
fn env_name_problem(name: &str) -> Option<String> {
    let valid = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with(|ch: char| ch.is_ascii_digit())
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    (!valid).then(|| {
        format!("`{name}` is not a variable name: use ASCII letters, digits and '_', not starting with a digit")
    })
}

/// Collects diagnostics while reading fields.
#[derive(Default)]
struct Reader {
    diagnostics: Vec<Diagnostic>,
    /// A built-in declaration's: its patterns are compiled when first
    /// used, and not checked here (see [`read_builtin_declaration`]).
    builtin: bool,
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

impl Reader {
    fn error(&mut self, code: codes::Code, field: impl Into<String>, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::new(code, message).with_field(field));
    }

    fn unknown_fields(&mut self, object: &Map<String, Value>, prefix: &str, known: &[&str]) {
        for key in object.keys() {
            if !known.contains(&key.as_str()) {
                let hint = super::naming::closest(key, known.iter().copied())
                    .map(|closest| format!("; did you mean `{closest}`?"))
                    .unwrap_or_default();
                self.error(
                    codes::Code::UnknownField,
                    join(prefix, key),
                    format!("unknown field `{key}`{hint}"),
                );
            }
        }
    }

    fn required_string(
        &mut self,
        object: &Map<String, Value>,
        key: &str,
        prefix: &str,
    ) -> Option<String> {
        match object.field(key) {
            None => {
                self.error(
                    codes::Code::Shape,
                    join(prefix, key),
                    format!("`{key}` is missing"),
                );
                None
            }
            Some(Value::String(text)) if text.trim().is_empty() => {
                self.error(
                    codes::Code::Shape,
                    join(prefix, key),
                    format!("`{key}` is empty"),
                );
                None
            }
            Some(Value::String(text)) => Some(text.clone()),
            Some(other) => {
                self.error(
                    codes::Code::Shape,
                    join(prefix, key),
                    format!("`{key}` must be a string, not {}", kind(other)),
                );
                None
            }
        }
    }

    fn optional_string(
        &mut self,
        object: &Map<String, Value>,
        key: &str,
        prefix: &str,
    ) -> Option<String> {
        match object.field(key)? {
            Value::String(text) => Some(text.clone()),
            other => {
                self.error(
                    codes::Code::Shape,
                    join(prefix, key),
                    format!("`{key}` must be a string, not {}", kind(other)),
                );
                None
            }
        }
    }

    fn optional_bool(&mut self, object: &Map<String, Value>, key: &str, prefix: &str) -> bool {
        match object.field(key) {
            None => false,
            Some(Value::Bool(flag)) => *flag,
            Some(other) => {
                self.error(
                    codes::Code::Shape,
                    join(prefix, key),
                    format!("`{key}` must be true or false, not {}", kind(other)),
                );
                false
            }
        }
    }

    fn string_list(
        &mut self,
        object: &Map<String, Value>,
        key: &str,
        prefix: &str,
    ) -> Option<Vec<String>> {
        // The field's path is written only for an error.
        let field = || join(prefix, key);
        match object.field(key) {
            None => Some(Vec::new()),
            Some(Value::Array(items)) => {
                let mut strings = Vec::new();
                for (index, item) in items.iter().enumerate() {
                    match item {
                        Value::String(text) => strings.push(text.clone()),
                        other => {
                            self.error(
                                codes::Code::Shape,
                                format!("{}[{index}]", field()),
                                format!("must be a string, not {}", kind(other)),
                            );
                            return None;
                        }
                    }
                }
                Some(strings)
            }
            Some(other) => {
                self.error(
                    codes::Code::Shape,
                    field(),
                    format!("`{key}` must be a list of strings, not {}", kind(other)),
                );
                None
            }
        }
    }

    fn parameters(&mut self, value: &Value) -> Option<Vec<Parameter>> {
        let Some(map) = value.as_object() else {
            self.error(
                codes::Code::Shape,
                "parameters",
                format!(
                    "`parameters` must be a mapping of name to parameter, not {}",
                    kind(value)
                ),
            );
            return None;
        };
        let mut parameters = Vec::new();
        let mut complete = true;
        for (name, body) in map {
            match self.parameter(name, body) {
                Some(parameter) => parameters.push(parameter),
                None => complete = false,
            }
        }
        complete.then_some(parameters)
    }

    fn parameter(&mut self, name: &str, body: &Value) -> Option<Parameter> {
        let prefix = format!("parameters.{name}");
        let errors_before = self.error_count();
        if let Some(problem) = super::naming::parameter_name_problem(name) {
            self.error(codes::Code::ParameterNameInvalid, &prefix, problem);
        }
        let Some(object) = body.as_object() else {
            self.error(
                codes::Code::Shape,
                &prefix,
                format!("a parameter must be a mapping, not {}", kind(body)),
            );
            return None;
        };
        self.unknown_fields(object, &prefix, PARAMETER_FIELDS);
        let kind = match object.field("type") {
            None => {
                self.error(
                    codes::Code::Shape,
                    join(&prefix, "type"),
                    "`type` is missing",
                );
                None
            }
            Some(Value::String(text)) => {
                let kind = ParamType::parse(text);
                if kind.is_none() {
                    self.error(
                        codes::Code::Shape,
                        join(&prefix, "type"),
                        format!("`type` must be one of string, integer, number, boolean, array, enum, resource_id, not `{text}`"),
                    );
                }
                kind
            }
            Some(other) => {
                self.error(
                    codes::Code::Shape,
                    join(&prefix, "type"),
                    format!("`type` must be a string, not {}", kind(other)),
                );
                None
            }
        };
        let required = self.optional_bool(object, "required", &prefix);
        let description = self.optional_string(object, "description", &prefix);
        let sensitive = self.optional_bool(object, "sensitive", &prefix);
        let allow_leading_dash = self.optional_bool(object, "allow_leading_dash", &prefix);
        let pattern = self
            .optional_string(object, "pattern", &prefix)
            .and_then(|source| {
                if self.builtin {
                    return Some(AnchoredPattern::deferred(&source));
                }
                let field = join(&prefix, "pattern");
                match AnchoredPattern::compile(&source) {
                    Err(err) => {
                        let first = err
                            .to_string()
                            .lines()
                            .last()
                            .unwrap_or("")
                            .trim()
                            .to_owned();
                        self.error(
                            codes::Code::PatternInvalid,
                            field,
                            format!("`{source}` is not a valid regular expression: {first}"),
                        );
                        None
                    }
                    Ok(compiled) => {
                        if let Some(problem) =
                            super::declaration::pattern_anchoring_problem(&source)
                        {
                            self.error(codes::Code::PatternUnanchored, field, problem);
                        }
                        Some(compiled)
                    }
                }
            });
        let pattern_type = self
            .optional_string(object, "pattern_type", &prefix)
            .and_then(|text| {
                let parsed = PatternType::parse(&text);
                if parsed.is_none() {
                    self.error(
                        codes::Code::Shape,
                        join(&prefix, "pattern_type"),
                        format!(
                            "`pattern_type` must be one of {}, not `{text}`",
                            pattern_type_names()
                        ),
                    );
                }
                parsed
            });
        let regex_dialect = self.regex_dialect(object, &prefix, pattern_type);
        let confinement = self.confinement(object, &prefix, pattern_type);
        let enum_values = self
            .string_list(object, "enum_values", &prefix)
            .unwrap_or_default();
        if let Some(kind) = kind {
            self.type_specific(kind, object, &prefix, &enum_values);
        }
        let bounds = self.bounds(object, &prefix, kind);
        let default = object
            .field("default")
            .cloned()
            .filter(|value| !value.is_null());
        if self.error_count() > errors_before {
            return None;
        }
        Some(Parameter {
            name: name.to_owned(),
            kind: kind?,
            required,
            description,
            pattern,
            pattern_type,
            regex_dialect,
            enum_values,
            default,
            sensitive,
            allow_leading_dash,
            confinement,
            bounds,
        })
    }

    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and
    /// `multipleOf`: numbers, on an `integer` or `number` parameter, that
    /// some value can pass.
    fn bounds(
        &mut self,
        object: &Map<String, Value>,
        prefix: &str,
        kind: Option<ParamType>,
    ) -> NumberBounds {
        let mut bounds = NumberBounds::default();
        let numeric = matches!(kind, Some(ParamType::Integer | ParamType::Number));
        for bound_kind in [
            BoundKind::Minimum,
            BoundKind::Maximum,
            BoundKind::ExclusiveMinimum,
            BoundKind::ExclusiveMaximum,
            BoundKind::MultipleOf,
        ] {
            let key = bound_kind.keyword();
            let Some(value) = object.field(key) else {
                continue;
            };
            let field = join(prefix, key);
            if let Some(kind) = kind.filter(|_| !numeric) {
                self.error(
                    codes::Code::PatternMisplaced,
                    field,
                    format!("`{key}` bounds a number: it applies to integer and number parameters, not {kind}"),
                );
                continue;
            }
            let bound = match value {
                Value::Number(number) => Bound::new(number.clone()),
                _ => None,
            };
            let Some(bound) = bound else {
                self.error(
                    codes::Code::Shape,
                    field,
                    format!("`{key}` must be a number, not {}", self::kind(value)),
                );
                continue;
            };
            if bound_kind == BoundKind::MultipleOf
                && (bound.exact.is_zero()
                    || bound.exact.is_negative()
                    || bound.exact.significant_digits() > MAX_STEP_DIGITS)
            {
                self.error(
                    codes::Code::Shape,
                    field,
                    format!(
                        "`multipleOf` must be a number greater than 0 with at most {MAX_STEP_DIGITS} significant digits, not {}",
                        bound.number
                    ),
                );
                continue;
            }
            *bounds.slot(bound_kind) = Some(bound);
        }
        if let Some(problem) = bounds.contradiction() {
            self.error(codes::Code::Shape, prefix.to_owned(), problem);
        }
        bounds
    }

    /// `relative_only`, `under` and `must_exist`: where a `filepath` may
    /// point. Whether an `under` root `{param}` names a path parameter is
    /// the lint's to say.
    fn confinement(
        &mut self,
        object: &Map<String, Value>,
        prefix: &str,
        pattern_type: Option<PatternType>,
    ) -> Confinement {
        let relative_only = self.optional_bool(object, "relative_only", prefix);
        let must_exist = self.optional_bool(object, "must_exist", prefix);
        let mut under = Vec::new();
        if let Some(roots) = self.string_list(object, "under", prefix) {
            if object.field("under").is_some() && roots.is_empty() {
                self.error(
                    codes::Code::Shape,
                    join(prefix, "under"),
                    "`under` lists the directories a path may be in; an empty list allows none",
                );
            }
            for (index, text) in roots.iter().enumerate() {
                match PathRoot::parse(text) {
                    Some(root) => under.push(root),
                    None => self.error(
                        codes::Code::Shape,
                        format!("{prefix}.under[{index}]"),
                        format!("`{text}` is not a root: write `$CWD`, `{{param}}` (another path parameter) or an absolute directory"),
                    ),
                }
            }
        }
        let confinement = Confinement {
            relative_only,
            under,
            must_exist,
        };
        if confinement.is_set() && pattern_type != Some(PatternType::Filepath) {
            for key in ["relative_only", "under", "must_exist"] {
                if object.field(key).is_some() {
                    self.error(
                        codes::Code::PatternMisplaced,
                        join(prefix, key),
                        format!(
                            "`{key}` confines a path: it applies with `pattern_type: filepath` only"
                        ),
                    );
                }
            }
        }
        confinement
    }

    /// `regex_dialect`: required with `pattern_type: regex` (which
    /// language the program reads matters: `grep -E` is ERE, `grep -P`
    /// PCRE, ripgrep Rust), and meaningless without it.
    fn regex_dialect(
        &mut self,
        object: &Map<String, Value>,
        prefix: &str,
        pattern_type: Option<PatternType>,
    ) -> Option<RegexDialect> {
        let field = join(prefix, "regex_dialect");
        let names = RegexDialect::VARIANTS
            .iter()
            .map(|dialect| dialect.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let given = self.optional_string(object, "regex_dialect", prefix);
        match (pattern_type, given) {
            (Some(PatternType::Regex), None) => {
                self.error(
                    codes::Code::Shape,
                    field,
                    format!("`pattern_type: regex` needs `regex_dialect`, the language the program reads: one of {names} (`grep -E` reads ere, `grep -P` pcre, ripgrep rust)"),
                );
                None
            }
            (Some(PatternType::Regex), Some(text)) => {
                let dialect = RegexDialect::parse(&text);
                if dialect.is_none() {
                    self.error(
                        codes::Code::Shape,
                        field,
                        format!("`regex_dialect` must be one of {names}, not `{text}`"),
                    );
                }
                dialect
            }
            (_, Some(_)) => {
                self.error(
                    codes::Code::PatternMisplaced,
                    field,
                    "`regex_dialect` applies to `pattern_type: regex` only",
                );
                None
            }
            (_, None) => None,
        }
    }

    fn type_specific(
        &mut self,
        kind: ParamType,
        object: &Map<String, Value>,
        prefix: &str,
        enum_values: &[String],
    ) {
        for key in ["pattern", "pattern_type"] {
            if object.field(key).is_some() && !kind.takes_pattern() {
                self.error(
                    codes::Code::PatternMisplaced,
                    join(prefix, key),
                    format!(
                        "`{key}` applies to string, resource_id and array parameters, not {kind}"
                    ),
                );
            }
        }
        if kind == ParamType::ResourceId && object.field("pattern_type").is_some() {
            self.error(
                codes::Code::PatternMisplaced,
                join(prefix, "pattern_type"),
                "a resource_id has its own rules; use `type: string` with this `pattern_type`, or a `pattern`",
            );
        }
        match (
            kind == ParamType::Enum,
            object.field("enum_values").is_some(),
        ) {
            (true, _) if enum_values.is_empty() => {
                self.error(
                    codes::Code::EnumInvalid,
                    join(prefix, "enum_values"),
                    "an enum needs a non-empty `enum_values` list",
                );
            }
            (false, true) => {
                self.error(
                    codes::Code::EnumInvalid,
                    join(prefix, "enum_values"),
                    format!("`enum_values` applies to enum parameters, not {kind}"),
                );
            }
            _ => {}
        }
        let mut seen = std::collections::HashSet::with_capacity(enum_values.len());
        for value in enum_values {
            if !seen.insert(value.as_str()) {
                self.error(
                    codes::Code::EnumInvalid,
                    join(prefix, "enum_values"),
                    format!("`{value}` is listed twice"),
                );
            }
        }
    }

    fn subprocess(&mut self, value: &Value) -> Option<Subprocess> {
        let Some(object) = value.as_object() else {
            self.error(
                codes::Code::Shape,
                "subprocess",
                format!("`subprocess` must be a mapping, not {}", kind(value)),
            );
            return None;
        };
        self.unknown_fields(object, "subprocess", SUBPROCESS_FIELDS);
        let env = object.field("env").map(|value| self.env(value));
        let env_pass = object.field("env_pass").map(|value| self.env_pass(value));
        let syntax = self
            .optional_string(object, "syntax", "subprocess")
            .and_then(|text| {
                let syntax = Syntax::parse(&text);
                if syntax.is_none() {
                    self.error(
                        codes::Code::Shape,
                        "subprocess.syntax",
                        format!(
                            "`syntax` must be one of {}, not `{text}`",
                            enum_names(Syntax::VARIANTS.iter().map(|syntax| syntax.as_str()))
                        ),
                    );
                }
                syntax
            });
        let mut subprocess = self.subprocess_argv(object)?;
        subprocess.env = env.unwrap_or_default();
        subprocess.env_pass = env_pass.unwrap_or_default();
        subprocess.syntax = syntax;
        subprocess.preserve_locale = self.optional_bool(object, "preserve_locale", "subprocess");
        Some(subprocess)
    }

    /// `timeout_s`: a positive, finite number of seconds.
    fn timeout(&mut self, value: &Value) -> Option<std::time::Duration> {
        let seconds = value
            .as_f64()
            .filter(|seconds| seconds.is_finite() && *seconds > 0.0);
        let duration =
            seconds.and_then(|seconds| std::time::Duration::try_from_secs_f64(seconds).ok());
        if duration.is_none() {
            self.error(
                codes::Code::Shape,
                "timeout_s",
                format!("`timeout_s` must be a positive number of seconds, not {value}"),
            );
        }
        duration
    }

    /// `subprocess.env`: NAME to a string, or to `{"param": P}`.
    fn env(&mut self, value: &Value) -> Vec<EnvVar> {
        let Some(object) = value.as_object() else {
            self.error(
                codes::Code::Shape,
                "subprocess.env",
                format!(
                    "`env` must be a mapping of variable name to value, not {}",
                    kind(value)
                ),
            );
            return Vec::new();
        };
        let mut vars = Vec::with_capacity(object.len());
        for (name, value) in object {
            let field = format!("subprocess.env.{name}");
            if let Some(problem) = env_name_problem(name) {
                self.error(codes::Code::Shape, field, problem);
                continue;
            }
            let value = match value {
                Value::String(text) if !text.contains('\0') => EnvValue::Literal(text.clone()),
                Value::Object(slot)
                    if slot.len() == 1 && slot.field("param").is_some_and(Value::is_string) =>
                {
                    EnvValue::Param(slot["param"].as_str().unwrap_or_default().to_owned())
                }
                other => {
                    self.error(
                        codes::Code::Shape,
                        field,
                        format!(
                            "an env value is a string without NUL or {{\"param\": NAME}}, not {}",
                            kind(other)
                        ),
                    );
                    continue;
                }
            };
            vars.push(EnvVar {
                name: name.clone(),
                value,
            });
        }
        vars
    }

    /// `subprocess.env_pass`: names of variables to inherit.
    fn env_pass(&mut self, value: &Value) -> Vec<String> {
        let Some(items) = value.as_array() else {
            self.error(
                codes::Code::Shape,
                "subprocess.env_pass",
                format!(
                    "`env_pass` must be a list of variable names, not {}",
                    kind(value)
                ),
            );
            return Vec::new();
        };
        let mut names = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let field = format!("subprocess.env_pass[{index}]");
            match item.as_str() {
                Some(name) => match env_name_problem(name) {
                    Some(problem) => self.error(codes::Code::Shape, field, problem),
                    None => names.push(name.to_owned()),
                },
                None => self.error(
                    codes::Code::Shape,
                    field,
                    format!("a variable name is a string, not {}", kind(item)),
                ),
            }
        }
        names
    }

    fn subprocess_argv(&mut self, object: &Map<String, Value>) -> Option<Subprocess> {
        let binary = self.required_string(object, "binary", "subprocess");
        if object.field("argv").is_some() {
            let subprocess =
                Subprocess::from_template(binary?, self.argv_template(&object["argv"])?, true);
            // `schema show` prints the derived lists beside the template, so
            // they may come back; then they must say what the template says.
            for (older, derived) in [
                ("hardcoded_args", &subprocess.hardcoded_args),
                ("user_controlled_args", &subprocess.user_controlled_args),
            ] {
                if object.field(older).is_some()
                    && self.string_list(object, older, "subprocess").as_ref() != Some(derived)
                {
                    self.error(
                        codes::Code::Shape,
                        format!("subprocess.{older}"),
                        format!(
                            "`{older}` disagrees with `argv`: the template says where each literal and parameter goes, so leave `{older}` out"
                        ),
                    );
                }
            }
            return Some(subprocess);
        }
        let hardcoded_args = self.string_list(object, "hardcoded_args", "subprocess");
        let user_controlled_args = self.string_list(object, "user_controlled_args", "subprocess");
        if let Some(names) = &user_controlled_args {
            for (index, name) in names.iter().enumerate() {
                if names[..index].contains(name) {
                    self.error(
                        codes::Code::Shape,
                        format!("subprocess.user_controlled_args[{index}]"),
                        format!("`{name}` is listed twice"),
                    );
                }
            }
        }
        Some(Subprocess::from_lists(
            binary?,
            hardcoded_args?,
            user_controlled_args?,
        ))
    }

    /// `subprocess.argv`: strings, and `{"param": P, "flag": F, "form":
    /// "joined", "prefix": X}` slots. Whether P is declared, and whether its type can
    /// take the flag, is the lint's to say (it knows the inputs).
    fn argv_template(&mut self, value: &Value) -> Option<Vec<ArgvPart>> {
        let Some(items) = value.as_array() else {
            self.error(
                codes::Code::Shape,
                "subprocess.argv",
                format!(
                    "`argv` must be a list of strings and {{\"param\": ...}} slots, not {}",
                    kind(value)
                ),
            );
            return None;
        };
        let errors_before = self.error_count();
        let mut parts = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let field = format!("subprocess.argv[{index}]");
            match item {
                Value::String(word) => parts.push(ArgvPart::Literal(word.clone())),
                Value::Object(slot) => {
                    if let Some(slot) = self.argv_slot(slot, &field) {
                        parts.push(ArgvPart::Param(slot));
                    }
                }
                other => self.error(
                    codes::Code::Shape,
                    field,
                    format!(
                        "an argv element is a string or a {{\"param\": ...}} slot, not {}",
                        kind(other)
                    ),
                ),
            }
        }
        (self.error_count() == errors_before).then_some(parts)
    }

    fn argv_slot(&mut self, object: &Map<String, Value>, field: &str) -> Option<ParamSlot> {
        self.unknown_fields(
            object,
            field,
            &[
                "param",
                "flag",
                "form",
                "prefix",
                "aliases",
                "attached_only",
            ],
        );
        let param = self.required_string(object, "param", field);
        let prefix = self
            .optional_string(object, "prefix", field)
            .unwrap_or_default();
        let flag = self.optional_string(object, "flag", field);
        if let Some(flag) = &flag
            && (!flag.starts_with('-') || flag.len() < 2 || flag.contains('='))
        {
            self.error(
                codes::Code::Shape,
                join(field, "flag"),
                format!(
                    "`{flag}` is not an option name: a flag starts with `-` and holds no `=` (use \"form\": \"joined\" for `--flag=VALUE`)"
                ),
            );
        }
        let form = match self.optional_string(object, "form", field).as_deref() {
            None | Some("separate") => FlagForm::Separate,
            Some("joined") => FlagForm::Joined,
            Some(other) => {
                self.error(
                    codes::Code::Shape,
                    join(field, "form"),
                    format!("`form` is \"separate\" or \"joined\", not `{other}`"),
                );
                FlagForm::Separate
            }
        };
        if form == FlagForm::Joined && flag.is_none() {
            self.error(
                codes::Code::Shape,
                join(field, "form"),
                "\"form\": \"joined\" needs a `flag` to join the value to",
            );
        }
        let aliases = match object.field("aliases") {
            None => Vec::new(),
            Some(_) => self
                .string_list(object, "aliases", field)
                .unwrap_or_default(),
        };
        if !aliases.is_empty() && flag.is_none() {
            self.error(
                codes::Code::Shape,
                join(field, "aliases"),
                "`aliases` are other names of the slot's `flag`, and this slot has none",
            );
        }
        for (index, alias) in aliases.iter().enumerate() {
            if !alias.starts_with('-')
                || alias.len() < 2
                || alias == "--"
                || alias.starts_with("-=")
            {
                self.error(
                    codes::Code::Shape,
                    format!("{field}.aliases[{index}]"),
                    format!("`{alias}` is not an option name: it starts with `-`"),
                );
            } else if flag.as_deref() == Some(alias.as_str()) || aliases[..index].contains(alias) {
                self.error(
                    codes::Code::Shape,
                    format!("{field}.aliases[{index}]"),
                    format!("`{alias}` is named twice"),
                );
            }
        }
        let attached_only = self.optional_bool(object, "attached_only", field);
        if attached_only && flag.is_none() {
            self.error(
                codes::Code::Shape,
                join(field, "attached_only"),
                "`attached_only` says how a value goes with its `flag`, and this slot has none",
            );
        }
        Some(ParamSlot {
            param: param?,
            flag,
            form,
            prefix,
            aliases,
            attached_only,
        })
    }

    /// `success_exit_codes`: the child's statuses that count as success, a
    /// non-empty list of integers from 0 to 255, each once.
    fn success_exit_codes(&mut self, value: &Value) -> Option<Vec<u8>> {
        let field = "success_exit_codes";
        let Some(items) = value.as_array().filter(|items| !items.is_empty()) else {
            self.error(
                codes::Code::Shape,
                field,
                format!(
                    "`success_exit_codes` must be a non-empty list of exit codes (such as [0, 1]), not {}",
                    if value.is_array() { "an empty list" } else { kind(value) }
                ),
            );
            return None;
        };
        let errors_before = self.error_count();
        let mut found: Vec<u8> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let code = item.as_u64().and_then(|code| u8::try_from(code).ok());
            match code {
                None => self.error(
                    codes::Code::ExitCodeInvalid,
                    format!("{field}[{index}]"),
                    format!("`{item}` is not an exit code (an integer from 0 to 255)"),
                ),
                Some(code) if found.contains(&code) => self.error(
                    codes::Code::Shape,
                    format!("{field}[{index}]"),
                    format!("{code} is listed twice"),
                ),
                Some(code) => found.push(code),
            }
        }
        found.sort_unstable();
        (self.error_count() == errors_before).then_some(found)
    }

    fn exit_codes(&mut self, value: &Value, success: &[u8]) -> Option<Vec<ExitCode>> {
        let Some(map) = value.as_object() else {
            self.error(
                codes::Code::Shape,
                "exit_codes",
                format!(
                    "`exit_codes` must be a mapping of code to entry, not {}",
                    kind(value)
                ),
            );
            return None;
        };
        let mut table = Vec::new();
        let mut complete = true;
        for (key, body) in map {
            let prefix = format!("exit_codes.{key}");
            let code = key
                .parse::<u8>()
                .ok()
                .filter(|code| code.to_string() == *key);
            if code.is_none() {
                self.error(
                    codes::Code::ExitCodeInvalid,
                    &prefix,
                    format!("`{key}` is not an exit code (an integer from 0 to 255)"),
                );
            }
            let Some(object) = body.as_object() else {
                self.error(
                    codes::Code::Shape,
                    &prefix,
                    format!("an exit code entry must be a mapping, not {}", kind(body)),
                );
                complete = false;
                continue;
            };
            self.unknown_fields(object, &prefix, EXIT_CODE_FIELDS);
            let name = self.required_string(object, "name", &prefix);
            let description = self.optional_string(object, "description", &prefix);
            let retryable = self.optional_bool(object, "retryable", &prefix);
            let side_effects = match self.optional_string(object, "side_effects", &prefix) {
                None => Some(SideEffects::Unknown),
                Some(text) => {
                    let parsed = SideEffects::parse(&text);
                    if parsed.is_none() {
                        self.error(
                            codes::Code::Shape,
                            join(&prefix, "side_effects"),
                            format!("`side_effects` must be one of none, partial, complete, unknown, not `{text}`"),
                        );
                    }
                    parsed
                }
            };
            match (code, name, side_effects) {
                (Some(code), Some(name), Some(side_effects)) => table.push(ExitCode {
                    code,
                    name,
                    description,
                    retryable,
                    side_effects,
                }),
                _ => complete = false,
            }
        }
        let present: Vec<u8> = table.iter().map(|entry| entry.code).collect();
        let missing: Vec<String> = success
            .iter()
            .filter(|code| !present.contains(code) && !map.contains_key(&code.to_string()))
            .map(u8::to_string)
            .collect();
        if !missing.is_empty() {
            self.error(
                codes::Code::ExitCodesIncomplete,
                "exit_codes",
                format!(
                    "`exit_codes` leaves out {}, which `success_exit_codes` counts as success; describe every success code (the map describes the child's statuses), or remove the map to get the standard table",
                    missing.join(" and ")
                ),
            );
            complete = false;
        }
        if let Some(entry) = table
            .iter()
            .find(|entry| entry.code == 2 && entry.name == "ARG_ERROR")
        {
            self.diagnostics.push(
                Diagnostic::new(
                    codes::Code::ExitCodeNamesAigent,
                    format!(
                        "exit code 2 is named `{}`, aigent's own code for a rejected argument; the map describes the child's own statuses (aigent's 2 never comes from the child), so name what the program means by 2, or remove the entry",
                        entry.name
                    ),
                )
                .with_field("exit_codes.2"),
            );
        }
        table.sort_by_key(|entry| entry.code);
        complete.then_some(table)
    }

    fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.is_error())
            .count()
    }
}

/// Every `pattern_type`, for messages.
fn pattern_type_names() -> String {
    PatternType::VARIANTS
        .iter()
        .map(|pattern_type| pattern_type.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn kind(value: &Value) -> &'static str {
    super::value::json_kind(value)
}

/// `a`, `b` or `c`, for messages listing the allowed words.
fn enum_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.map(|name| format!("`{name}`")).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn env_value() -> impl Strategy<Value = Value> {
        prop_oneof![
            "[ -~]{0,12}".prop_map(Value::from),
            Just(json!({"param": "p"})),
        ]
    }

    proptest! {
        /// What `schema show --output json` prints loads back into an equal
        /// declaration, whatever its environment, time limit and level.
        #[test]
        fn the_wire_format_round_trips(
            env in proptest::collection::btree_map("[A-Z_][A-Z0-9_]{0,8}", env_value(), 0..5),
            env_pass in proptest::collection::vec("[A-Z_][A-Z0-9_]{0,8}", 0..4),
            millis in proptest::option::of(1u64..10_000_000),
            level in prop_oneof![Just("safe"), Just("mutating"), Just("destructive")],
        ) {
            let mut subprocess = json!({"binary": "tool", "argv": [{"param": "p"}], "env": env, "env_pass": env_pass});
            if subprocess["env"].as_object().is_some_and(serde_json::Map::is_empty) {
                subprocess.as_object_mut().unwrap().remove("env");
            }
            let mut document = json!({
                "name": "t", "description": "d",
                "parameters": {"p": {"type": "string"}},
                "subprocess": subprocess,
            });
            if let Some(millis) = millis {
                document["timeout_s"] = json!(millis as f64 / 1000.0);
            }
            document["danger_level"] = json!(level);
            let first = read_value(&document, &Origin::default());
            let declaration = first.declaration.expect("valid");
            let wire = crate::contract::to_wire(&declaration);
            let again = read_value(&wire, &Origin::default());
            prop_assert!(
                !again.diagnostics.iter().any(Diagnostic::is_error),
                "{:?}", again.diagnostics
            );
            prop_assert_eq!(again.declaration.as_ref(), Some(&declaration));
            prop_assert_eq!(
                wire["requires_confirmation"].as_bool(),
                Some(level == "destructive")
            );
        }

        /// Any JSON under `env`, `env_pass` and `timeout_s` is read without a
        /// panic, as a declaration or as diagnostics.
        #[test]
        fn hostile_policy_fields_never_panic(
            env in any::<i64>().prop_map(Value::from).boxed().prop_union("\\PC{0,20}".prop_map(Value::from).boxed()),
            key in "\\PC{0,20}",
            timeout in prop_oneof![Just(json!(-1)), Just(json!(0)), Just(json!(1e308)), Just(json!("5")), any::<f64>().prop_map(|x| json!(x))],
        ) {
            let document = json!({
                "name": "t", "description": "d", "parameters": {},
                "timeout_s": timeout,
                "subprocess": {"binary": "x", "env": {key.clone(): env.clone()}, "env_pass": [key, env]},
            });
            let _ = read_value(&document, &Origin::default());
        }
    }

    /// A YAML mistake in a declaration gets the advice a SKILL.md gets.
    #[test]
    fn yaml_mistakes_get_the_skill_quoting_hint() {
        let parsed = read_declaration(
            "name: t\ndescription: Deploy: the web app\ndanger_level: safe\nparameters: {}\n",
            SourceFormat::Yaml,
            &Origin::default(),
        );
        let diagnostic = &parsed.diagnostics[0];
        assert_eq!(diagnostic.code, codes::Code::Syntax);
        assert!(
            diagnostic.message.contains("must be quoted"),
            "{}",
            diagnostic.message
        );
        assert!(
            diagnostic
                .message
                .contains("description: \"Deploy: the web app\""),
            "{}",
            diagnostic.message
        );
        assert_eq!(diagnostic.line, Some(2));
        let parsed = read_declaration(
            "name: t\ndescription: @mention\n",
            SourceFormat::Yaml,
            &Origin::default(),
        );
        assert!(
            parsed.diagnostics[0].message.contains("must be quoted"),
            "{}",
            parsed.diagnostics[0].message
        );
    }

    #[test]
    fn bad_policy_fields_are_diagnosed() {
        for (document, field) in [
            (json!({"timeout_s": 0}), "timeout_s"),
            (json!({"timeout_s": "30"}), "timeout_s"),
            (
                json!({"subprocess": {"binary": "x", "env": {"1X": "a"}}}),
                "subprocess.env.1X",
            ),
            (
                json!({"subprocess": {"binary": "x", "env": {"A=B": "a"}}}),
                "subprocess.env.A=B",
            ),
            (
                json!({"subprocess": {"binary": "x", "env": {"A": 3}}}),
                "subprocess.env.A",
            ),
            (
                json!({"subprocess": {"binary": "x", "env_pass": ["ok", "no-dash"]}}),
                "subprocess.env_pass[1]",
            ),
            (
                json!({"danger_level": "safe", "requires_confirmation": true}),
                "requires_confirmation",
            ),
        ] {
            let mut full = json!({"name": "t", "description": "d", "parameters": {}});
            for (key, value) in document.as_object().unwrap() {
                full[key] = value.clone();
            }
            let parsed = read_value(&full, &Origin::default());
            assert_error_at(&parsed, field);
        }
    }

    #[test]
    fn a_missing_danger_level_is_an_error_that_suggests_one() {
        for (subprocess, level) in [
            (
                json!({"binary": "rm", "hardcoded_args": ["-f", "x"]}),
                "destructive",
            ),
            (json!({"binary": "git", "hardcoded_args": ["log"]}), "safe"),
            (
                json!({"binary": "kubectl", "hardcoded_args": ["apply"]}),
                "mutating",
            ),
        ] {
            let document = json!({"name": "t", "description": "d", "parameters": {}, "subprocess": subprocess});
            let parsed = read_value(&document, &Origin::default());
            let found: Vec<&Diagnostic> = parsed
                .diagnostics
                .iter()
                .filter(|diagnostic| diagnostic.code == codes::Code::DangerLevelMissing)
                .collect();
            assert_eq!(found.len(), 1, "{:?}", parsed.diagnostics);
            assert!(found[0].is_error());
            assert_eq!(found[0].field.as_deref(), Some("danger_level"));
            assert!(
                found[0]
                    .message
                    .contains(&format!("set `danger_level` to `{level}`")),
                "{}",
                found[0].message
            );
            // The rest of the declaration is still read and linted.
            assert!(parsed.declaration.is_some());
        }
        // A level that is present but wrong is a shape error, not E126.
        let parsed = read_value(
            &json!({"name": "t", "description": "d", "danger_level": "risky", "parameters": {}}),
            &Origin::default(),
        );
        assert!(
            parsed
                .diagnostics
                .iter()
                .all(|diagnostic| diagnostic.code != codes::Code::DangerLevelMissing)
        );
        assert_error_at(&parsed, "danger_level");
    }

    fn assert_error_at(parsed: &Parsed, field: &str) {
        assert!(
            parsed
                .diagnostics
                .iter()
                .any(|diagnostic| diagnostic.is_error()
                    && diagnostic.field.as_deref() == Some(field)),
            "{field}: {:?}",
            parsed.diagnostics
        );
    }
}
