//! Reading a declaration: text → JSON value → [`Declaration`], with every
//! problem reported as a diagnostic naming its field. Nothing stops at the
//! first problem; the cross-field rules live in `lint`.

use serde_json::{Map, Value};

use super::codes;
use super::declaration::{
    AnchoredPattern, ArgvPart, DangerLevel, Declaration, ExitCode, FlagForm, Inputs, ParamSlot,
    ParamType, Parameter, PatternType, SideEffects, Subprocess,
};
use super::{input_schema, lint, value};
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
/// (warnings included) either way.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub declaration: Option<Declaration>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    fn failed(diagnostic: Diagnostic) -> Self {
        Self {
            declaration: None,
            diagnostics: vec![diagnostic],
        }
    }
}

/// Parses and lints one declaration.
pub fn parse_declaration(text: &str, format: SourceFormat, origin: &Origin<'_>) -> Parsed {
    if text.len() > value::MAX_DOCUMENT_BYTES {
        return Parsed::failed(Diagnostic::error(
            codes::FILE_UNREADABLE,
            format!("the file is {} bytes; the limit is 1 MiB", text.len()),
        ));
    }
    let parsed = match format {
        SourceFormat::Json => value::from_json(text),
        SourceFormat::Yaml => value::from_yaml(text),
    };
    match parsed {
        Ok(document) => parse_value(&document, origin),
        Err(err) => Parsed::failed(
            Diagnostic::error(
                codes::SYNTAX,
                format!(
                    "invalid {}: {}",
                    match format {
                        SourceFormat::Json => "JSON",
                        SourceFormat::Yaml => "YAML",
                    },
                    err.message
                ),
            )
            .with_line(err.line),
        ),
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

/// Builds a declaration from an already-parsed document.
pub fn parse_value(document: &Value, origin: &Origin<'_>) -> Parsed {
    let file_stem = origin.file_stem;
    let Some(root) = document.as_object() else {
        return Parsed::failed(Diagnostic::error(
            codes::SHAPE,
            "a declaration must be a mapping with `name`, `description` and `parameters` or `input_schema`",
        ));
    };
    let mut reader = Reader::default();
    reader.unknown_fields(
        root,
        "",
        &[
            "name",
            "description",
            "danger_level",
            "parameters",
            "input_schema",
            "subprocess",
            "exit_codes",
        ],
    );
    let name = reader.required_string(root, "name", "");
    if let Some(name) = &name {
        if let Some(problem) = super::command_name_problem(name) {
            reader.error(codes::NAME_INVALID, "name", problem);
        } else if let Some(stem) = file_stem
            && stem != name
        {
            reader.error(
                codes::NAME_INVALID,
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
                codes::SHAPE,
                "danger_level",
                format!("`danger_level` must be one of safe, mutating, destructive, not `{text}`"),
            );
                }
                level
            });
    let inputs = match (root.get("parameters"), root.get("input_schema")) {
        (Some(_), Some(_)) => {
            reader.error(
                codes::INPUTS_CONFLICT,
                "input_schema",
                "give `parameters` or `input_schema`, not both",
            );
            None
        }
        (None, None) => {
            reader.error(
                codes::INPUTS_CONFLICT,
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
        .get("subprocess")
        .and_then(|value| reader.subprocess(value));
    let exit_codes = match root.get("exit_codes") {
        None => Some(ExitCode::standard_table()),
        Some(value) => reader.exit_codes(value),
    };

    let mut diagnostics = reader.diagnostics;
    let declaration = match (name, description, inputs, exit_codes) {
        (Some(name), Some(description), Some(inputs), Some(exit_codes)) => Some(Declaration {
            name,
            description,
            danger_level,
            inputs,
            subprocess,
            exit_codes,
        }),
        _ => None,
    };
    if let Some(declaration) = &declaration {
        let context = lint::LintContext { file: origin.file };
        diagnostics.extend(lint::lint_declaration(declaration, &context));
    }
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    Parsed {
        declaration: declaration.filter(|_| !has_errors),
        diagnostics,
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

/// Why `name` cannot be a parameter (a `--flag` and a JSON key), if so.
pub fn parameter_name_problem(name: &str) -> Option<String> {
    const RESERVED: [&str; 4] = ["json", "__proto__", "constructor", "prototype"];
    if RESERVED.contains(&name) {
        return Some(format!("`{name}` is reserved and cannot name a parameter"));
    }
    super::command_name_problem(name).map(|_| {
        format!("`{name}` cannot be a `--flag`: use 1-128 ASCII letters, digits, '-' and '_', starting with a letter or digit")
    })
}

/// Collects diagnostics while reading fields.
#[derive(Default)]
struct Reader {
    diagnostics: Vec<Diagnostic>,
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

impl Reader {
    fn error(&mut self, code: &'static str, field: impl Into<String>, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(code, message).with_field(field));
    }

    fn unknown_fields(&mut self, object: &Map<String, Value>, prefix: &str, known: &[&str]) {
        for key in object.keys() {
            if !known.contains(&key.as_str()) {
                let hint = super::closest(key, known.iter().copied())
                    .map(|closest| format!("; did you mean `{closest}`?"))
                    .unwrap_or_default();
                self.error(
                    codes::UNKNOWN_FIELD,
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
        match object.get(key) {
            None => {
                self.error(
                    codes::SHAPE,
                    join(prefix, key),
                    format!("`{key}` is missing"),
                );
                None
            }
            Some(Value::String(text)) if text.trim().is_empty() => {
                self.error(codes::SHAPE, join(prefix, key), format!("`{key}` is empty"));
                None
            }
            Some(Value::String(text)) => Some(text.clone()),
            Some(other) => {
                self.error(
                    codes::SHAPE,
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
        match object.get(key)? {
            Value::String(text) => Some(text.clone()),
            other => {
                self.error(
                    codes::SHAPE,
                    join(prefix, key),
                    format!("`{key}` must be a string, not {}", kind(other)),
                );
                None
            }
        }
    }

    fn optional_bool(&mut self, object: &Map<String, Value>, key: &str, prefix: &str) -> bool {
        match object.get(key) {
            None => false,
            Some(Value::Bool(flag)) => *flag,
            Some(other) => {
                self.error(
                    codes::SHAPE,
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
        let field = join(prefix, key);
        match object.get(key) {
            None => Some(Vec::new()),
            Some(Value::Array(items)) => {
                let mut strings = Vec::new();
                for (index, item) in items.iter().enumerate() {
                    match item {
                        Value::String(text) => strings.push(text.clone()),
                        other => {
                            self.error(
                                codes::SHAPE,
                                format!("{field}[{index}]"),
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
                    codes::SHAPE,
                    field,
                    format!("`{key}` must be a list of strings, not {}", kind(other)),
                );
                None
            }
        }
    }

    fn parameters(&mut self, value: &Value) -> Option<Vec<Parameter>> {
        let Some(map) = value.as_object() else {
            self.error(
                codes::SHAPE,
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
        if let Some(problem) = parameter_name_problem(name) {
            self.error(codes::PARAMETER_NAME_INVALID, &prefix, problem);
        }
        let Some(object) = body.as_object() else {
            self.error(
                codes::SHAPE,
                &prefix,
                format!("a parameter must be a mapping, not {}", kind(body)),
            );
            return None;
        };
        self.unknown_fields(
            object,
            &prefix,
            &[
                "type",
                "required",
                "description",
                "pattern",
                "pattern_type",
                "enum_values",
                "default",
                "sensitive",
                "allow_leading_dash",
            ],
        );
        let kind = match object.get("type") {
            None => {
                self.error(codes::SHAPE, join(&prefix, "type"), "`type` is missing");
                None
            }
            Some(Value::String(text)) => {
                let kind = ParamType::parse(text);
                if kind.is_none() {
                    self.error(
                        codes::SHAPE,
                        join(&prefix, "type"),
                        format!("`type` must be one of string, integer, number, boolean, array, enum, resource_id, not `{text}`"),
                    );
                }
                kind
            }
            Some(other) => {
                self.error(
                    codes::SHAPE,
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
                            codes::PATTERN_INVALID,
                            field,
                            format!("`{source}` is not a valid regular expression: {first}"),
                        );
                        None
                    }
                    Ok(compiled) => {
                        if let Some(problem) = pattern_anchoring_problem(&source) {
                            self.error(codes::PATTERN_UNANCHORED, field, problem);
                        }
                        Some(compiled)
                    }
                }
            });
        let pattern_type = self.optional_string(object, "pattern_type", &prefix).and_then(|text| {
            let parsed = PatternType::parse(&text);
            if parsed.is_none() {
                self.error(
                    codes::SHAPE,
                    join(&prefix, "pattern_type"),
                    format!("`pattern_type` must be one of alphanumeric_id, uuid, semver, filepath, url, not `{text}`"),
                );
            }
            parsed
        });
        if object.contains_key("pattern") && object.contains_key("pattern_type") {
            self.error(
                codes::PATTERN_CONFLICT,
                join(&prefix, "pattern_type"),
                "`pattern` and `pattern_type` are mutually exclusive; keep one",
            );
        }
        let enum_values = self
            .string_list(object, "enum_values", &prefix)
            .unwrap_or_default();
        if let Some(kind) = kind {
            self.type_specific(kind, object, &prefix, &enum_values);
        }
        let default = object
            .get("default")
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
            enum_values,
            default,
            sensitive,
            allow_leading_dash,
        })
    }

    fn type_specific(
        &mut self,
        kind: ParamType,
        object: &Map<String, Value>,
        prefix: &str,
        enum_values: &[String],
    ) {
        for key in ["pattern", "pattern_type"] {
            if object.contains_key(key) && !kind.takes_pattern() {
                self.error(
                    codes::PATTERN_MISPLACED,
                    join(prefix, key),
                    format!(
                        "`{key}` applies to string, resource_id and array parameters, not {kind}"
                    ),
                );
            }
        }
        if kind == ParamType::ResourceId && object.contains_key("pattern_type") {
            self.error(
                codes::PATTERN_MISPLACED,
                join(prefix, "pattern_type"),
                "a resource_id has its own rules; use `type: string` with this `pattern_type`, or a `pattern`",
            );
        }
        match (kind == ParamType::Enum, object.contains_key("enum_values")) {
            (true, _) if enum_values.is_empty() => {
                self.error(
                    codes::ENUM_INVALID,
                    join(prefix, "enum_values"),
                    "an enum needs a non-empty `enum_values` list",
                );
            }
            (false, true) => {
                self.error(
                    codes::ENUM_INVALID,
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
                    codes::ENUM_INVALID,
                    join(prefix, "enum_values"),
                    format!("`{value}` is listed twice"),
                );
            }
        }
    }

    fn subprocess(&mut self, value: &Value) -> Option<Subprocess> {
        let Some(object) = value.as_object() else {
            self.error(
                codes::SHAPE,
                "subprocess",
                format!("`subprocess` must be a mapping, not {}", kind(value)),
            );
            return None;
        };
        self.unknown_fields(
            object,
            "subprocess",
            &["binary", "argv", "hardcoded_args", "user_controlled_args"],
        );
        let binary = self.required_string(object, "binary", "subprocess");
        if object.contains_key("argv") {
            let subprocess =
                Subprocess::from_template(binary?, self.argv_template(&object["argv"])?, true);
            // `schema show` prints the derived lists beside the template, so
            // they may come back; then they must say what the template says.
            for (older, derived) in [
                ("hardcoded_args", &subprocess.hardcoded_args),
                ("user_controlled_args", &subprocess.user_controlled_args),
            ] {
                if object.contains_key(older)
                    && self.string_list(object, older, "subprocess").as_ref() != Some(derived)
                {
                    self.error(
                        codes::SHAPE,
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
                        codes::SHAPE,
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
                codes::SHAPE,
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
                    codes::SHAPE,
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
        self.unknown_fields(object, field, &["param", "flag", "form", "prefix"]);
        let param = self.required_string(object, "param", field);
        let prefix = self
            .optional_string(object, "prefix", field)
            .unwrap_or_default();
        let flag = self.optional_string(object, "flag", field);
        if let Some(flag) = &flag
            && (!flag.starts_with('-') || flag.len() < 2 || flag.contains('='))
        {
            self.error(
                codes::SHAPE,
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
                    codes::SHAPE,
                    join(field, "form"),
                    format!("`form` is \"separate\" or \"joined\", not `{other}`"),
                );
                FlagForm::Separate
            }
        };
        if form == FlagForm::Joined && flag.is_none() {
            self.error(
                codes::SHAPE,
                join(field, "form"),
                "\"form\": \"joined\" needs a `flag` to join the value to",
            );
        }
        Some(ParamSlot {
            param: param?,
            flag,
            form,
            prefix,
        })
    }

    fn exit_codes(&mut self, value: &Value) -> Option<Vec<ExitCode>> {
        let Some(map) = value.as_object() else {
            self.error(
                codes::SHAPE,
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
                    codes::EXIT_CODE_INVALID,
                    &prefix,
                    format!("`{key}` is not an exit code (an integer from 0 to 255)"),
                );
            }
            let Some(object) = body.as_object() else {
                self.error(
                    codes::SHAPE,
                    &prefix,
                    format!("an exit code entry must be a mapping, not {}", kind(body)),
                );
                complete = false;
                continue;
            };
            self.unknown_fields(
                object,
                &prefix,
                &["name", "description", "retryable", "side_effects"],
            );
            let name = self.required_string(object, "name", &prefix);
            let description = self.optional_string(object, "description", &prefix);
            let retryable = self.optional_bool(object, "retryable", &prefix);
            let side_effects = match self.optional_string(object, "side_effects", &prefix) {
                None => Some(SideEffects::Unknown),
                Some(text) => {
                    let parsed = SideEffects::parse(&text);
                    if parsed.is_none() {
                        self.error(
                            codes::SHAPE,
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
        let missing: Vec<&str> = [(0, "0"), (2, "2")]
            .iter()
            .filter(|(code, _)| !present.contains(code) && !map.contains_key(&code.to_string()))
            .map(|(_, text)| *text)
            .collect();
        if !missing.is_empty() {
            self.error(
                codes::EXIT_CODES_INCOMPLETE,
                "exit_codes",
                format!(
                    "`exit_codes` leaves out {}; every command must describe 0 (success) and 2 (argument rejected); remove the map to get the standard table",
                    missing.join(" and ")
                ),
            );
            complete = false;
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

fn kind(value: &Value) -> &'static str {
    crate::guard::json_kind(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchoring() {
        for ok in [
            "^[a-z]+$",
            "^(?:a|b)$",
            "^a\\$b$",
            "^[|]$",
            "^\\\\$",
            "^(?i)abc$",
            "^(?-m)x$",
            "^[[a-z]|b]$",
            "^a$|^b$",
            "\\A[a-z]+\\z",
            "^(?x) [a-z]+ # a comment\n$",
        ] {
            assert_eq!(pattern_anchoring_problem(ok), None, "{ok}");
        }
        for bad in [
            "[a-z]+",
            "^[a-z]+",
            "[a-z]+$",
            "^a|b$",
            "^a\\$",
            "^(?m)a$",
            "^(?im)a$",
            "",
            "^(?x)[a-z]+ #[\n|.*$",
            "^*a$",
            "(?:^)?a$",
        ] {
            assert!(pattern_anchoring_problem(bad).is_some(), "{bad}");
        }
        assert!(
            pattern_anchoring_problem("^(?m)a$")
                .unwrap()
                .contains("multi-line")
        );
    }

    #[test]
    fn parameter_names() {
        assert_eq!(parameter_name_problem("cluster-id"), None);
        assert_eq!(parameter_name_problem("read_file"), None);
        for bad in ["json", "__proto__", "constructor", "a=b", "-x", "a b", ""] {
            assert!(parameter_name_problem(bad).is_some(), "{bad}");
        }
    }
}
