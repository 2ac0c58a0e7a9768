//! The JSON Schema of a command's arguments (draft 2020-12), usable as an
//! MCP `inputSchema`. Pattern types become a `pattern` and, where JSON
//! Schema has one, a `format`; the `x-aigent-*` keywords keep what JSON
//! Schema cannot say, so the export also loads back as an `input_schema`
//! declaration with the same guard rules.

use serde_json::{Map, Value, json};

use crate::contract::input_schema::{
    DRAFT_2020_12, X_ALLOW_LEADING_DASH, X_MUST_EXIST, X_PATTERN_TYPE, X_REGEX_DIALECT,
    X_RELATIVE_ONLY, X_SENSITIVE, X_UNDER,
};
use crate::contract::{Declaration, Inputs, ParamType, Parameter, PathRoot, PatternType};
use crate::guard::{self, syntax};

/// What a resource_id may not contain, as a JSON Schema pattern: the
/// characters the named rules refuse wherever they appear (a `%` only
/// starting an escape, which the refusals under `not` say).
const RESOURCE_ID_PATTERN: &str = "^[^?#&;|$()<>`\\x00-\\x1F\\x7F]+$";

/// The JSON Schema of the command's arguments. A `sensitive` input's
/// `default` is left out: a schema is read by agents (it is the MCP
/// `inputSchema`), and a default a client might fill in is still a secret.
pub fn to_json_schema(declaration: &Declaration) -> Value {
    let mut schema = json_schema_with_defaults(declaration);
    edit_sensitive_defaults(declaration, &mut schema, |object| {
        object.remove("default");
    });
    schema
}

/// The declaration's wire form (`schema show --output json`, `args check
/// NAME --help`) with each `sensitive` input's default shown as
/// `[REDACTED]`, as the text form shows it: that there is a default is
/// useful, its value is a secret.
pub fn to_wire_for_agents(declaration: &Declaration) -> Value {
    let mut wire = crate::contract::to_wire(declaration);
    let redact = |object: &mut Map<String, Value>| {
        if let Some(default) = object.get_mut("default") {
            *default = Value::from(guard::REDACTED);
        }
    };
    match &declaration.inputs {
        Inputs::Parameters(parameters) => {
            if let Some(Value::Object(written)) = wire.get_mut("parameters") {
                for parameter in parameters.iter().filter(|parameter| parameter.sensitive) {
                    if let Some(Value::Object(object)) = written.get_mut(&parameter.name) {
                        redact(object);
                    }
                }
            }
        }
        Inputs::InputSchema(_) => {
            if let Some(schema) = wire.get_mut("input_schema") {
                edit_sensitive_defaults(declaration, schema, redact);
            }
        }
    }
    wire
}

/// Calls `edit` on every object below a sensitive property of the schema
/// `root` (its `allOf`/`anyOf` facets, its items) and on every local
/// `$defs` entry such a property refers to, so a default cannot hide
/// behind a `$ref`.
fn edit_sensitive_defaults(
    declaration: &Declaration,
    root: &mut Value,
    edit: impl Fn(&mut Map<String, Value>),
) {
    let sensitive: Vec<String> = declaration
        .input_names()
        .into_iter()
        .filter(|name| declaration.is_sensitive(name))
        .map(str::to_owned)
        .collect();
    if sensitive.is_empty() {
        return;
    }
    let mut pending: Vec<String> = sensitive
        .iter()
        .map(|name| format!("/properties/{}", name.replace('~', "~0").replace('/', "~1")))
        .collect();
    let mut seen = std::collections::HashSet::new();
    while let Some(pointer) = pending.pop() {
        if !seen.insert(pointer.clone()) {
            continue;
        }
        if let Some(node) = root.pointer_mut(&pointer) {
            edit_all(node, &edit, &mut pending);
        }
    }
}

/// `edit` on `node` and every object inside it; local `$ref`s are queued.
fn edit_all(node: &mut Value, edit: &impl Fn(&mut Map<String, Value>), refs: &mut Vec<String>) {
    // An explicit stack: a hostile schema may nest deeply.
    let mut stack = vec![node];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(object) => {
                edit(object);
                if let Some(Value::String(target)) = object.get("$ref")
                    && let Some(pointer) = target.strip_prefix('#')
                {
                    refs.push(pointer.to_owned());
                }
                stack.extend(object.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

fn json_schema_with_defaults(declaration: &Declaration) -> Value {
    match &declaration.inputs {
        Inputs::InputSchema(schema) => {
            let mut effective = schema.effective.clone();
            if let Value::Object(object) = &mut effective {
                if !object.contains_key("$schema") {
                    let mut ordered = Map::new();
                    ordered.insert("$schema".to_owned(), Value::from(DRAFT_2020_12));
                    ordered.extend(std::mem::take(object));
                    *object = ordered;
                }
                object
                    .entry("description")
                    .or_insert_with(|| Value::from(declaration.description.clone()));
                if let Some(Value::Object(properties)) = object.get_mut("properties") {
                    for property in &schema.guarded {
                        if let Some(Value::Object(written)) = properties.get_mut(&property.name) {
                            add_property_refusals(declaration, property, written);
                        }
                    }
                }
            }
            effective
        }
        Inputs::Parameters(parameters) => {
            let mut properties = Map::new();
            for parameter in parameters {
                properties.insert(
                    parameter.name.clone(),
                    parameter_schema(declaration, parameter),
                );
            }
            let required: Vec<&str> = parameters
                .iter()
                .filter(|parameter| parameter.required)
                .map(|parameter| parameter.name.as_str())
                .collect();
            json!({
                "$schema": DRAFT_2020_12,
                "title": declaration.name,
                "description": declaration.description,
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        }
    }
}

/// `not` for what the guard refuses in a string of `profile` (see
/// [`guard::rules::schema_refusals`]), one pattern per kind of refusal,
/// each with what it catches.
fn refusals(profile: &guard::ValueProfile<'_>) -> Value {
    let each: Vec<Value> = guard::rules::schema_refusals(profile)
        .into_iter()
        .map(|(what, pattern)| json!({"description": format!("refused: {what}"), "pattern": pattern}))
        .collect();
    json!({"anyOf": each})
}

/// What the guard refuses in an `input_schema` property (as
/// `schema_args` checks it), added under `allOf` so that whatever the
/// property already says stays as written: a `not` for a string, and for
/// an array one on its `items`.
fn add_property_refusals(
    declaration: &Declaration,
    property: &crate::contract::input_schema::GuardedProperty,
    written: &mut Map<String, Value>,
) {
    let user_controlled = declaration.reaches_subprocess(&property.name);
    let glued = !declaration.leading_dash_matters(&property.name);
    let profile = |guard: crate::contract::input_schema::PropertyGuard| guard::ValueProfile {
        class: guard.class,
        pattern: None,
        regex_dialect: guard.regex_dialect,
        user_controlled,
        allow_leading_dash: guard.allow_leading_dash || glued,
        relative_only: property.confinement.relative_only,
    };
    let refusal = match property.primary_type.as_str() {
        "string" => json!({"not": refusals(&profile(property.guard))}),
        "array" => json!({"items": {"not": refusals(&profile(property.item_guard()))}}),
        _ => return,
    };
    match written.get_mut("allOf") {
        Some(Value::Array(all)) => all.push(refusal),
        _ => {
            written.insert("allOf".to_owned(), json!([refusal]));
        }
    }
}

fn parameter_schema(declaration: &Declaration, parameter: &Parameter) -> Value {
    let profile = guard::profile_for(declaration, parameter);
    let mut schema = Map::new();
    let mut string_schema = Map::new();
    string_schema.insert("type".to_owned(), Value::from("string"));
    let syntax_pattern = parameter.pattern_type.and_then(syntax::json_schema_pattern);
    // Both must pass: the declared `pattern` as `pattern`, the type's own
    // beside it in `allOf`.
    match (&parameter.pattern, syntax_pattern) {
        (Some(pattern), Some(syntax_pattern)) => {
            string_schema.insert("pattern".to_owned(), Value::from(pattern.as_str()));
            string_schema.insert("allOf".to_owned(), json!([{"pattern": syntax_pattern}]));
        }
        (Some(pattern), None) => {
            string_schema.insert("pattern".to_owned(), Value::from(pattern.as_str()));
        }
        (None, Some(syntax_pattern)) => {
            string_schema.insert("pattern".to_owned(), Value::from(syntax_pattern));
        }
        (None, None) => {}
    }
    if let Some(pattern_type) = parameter.pattern_type {
        if let Some(format) = syntax::json_schema_format(pattern_type) {
            string_schema.insert("format".to_owned(), Value::from(format));
        }
        if pattern_type == PatternType::FreeText {
            string_schema.insert("maxLength".to_owned(), Value::from(syntax::MAX_TEXT_BYTES));
        }
        string_schema.insert(
            X_PATTERN_TYPE.to_owned(),
            Value::from(pattern_type.as_str()),
        );
    }
    if let Some(dialect) = parameter.regex_dialect {
        string_schema.insert(X_REGEX_DIALECT.to_owned(), Value::from(dialect.as_str()));
    }
    // Where a path may point: `relative_only` is also a refusal below;
    // `under` and `must_exist` need the file system, which no schema can
    // consult, so only these keywords say them.
    let confinement = &parameter.confinement;
    if confinement.relative_only {
        string_schema.insert(X_RELATIVE_ONLY.to_owned(), Value::Bool(true));
    }
    if !confinement.under.is_empty() {
        let roots: Vec<String> = confinement.under.iter().map(PathRoot::to_text).collect();
        string_schema.insert(X_UNDER.to_owned(), Value::from(roots));
    }
    if confinement.must_exist {
        string_schema.insert(X_MUST_EXIST.to_owned(), Value::Bool(true));
    }
    let takes_string = matches!(
        parameter.kind,
        ParamType::String | ParamType::ResourceId | ParamType::Array
    );
    let resource_id = parameter.kind == ParamType::ResourceId;
    if takes_string {
        let empty_refused = resource_id
            || parameter
                .pattern_type
                .is_some_and(|pattern_type| !pattern_type.is_text());
        if empty_refused {
            string_schema.insert("minLength".to_owned(), Value::from(1));
        }
        string_schema.insert("not".to_owned(), refusals(&profile));
    }
    match parameter.kind {
        ParamType::String => schema.extend(string_schema),
        ParamType::ResourceId => {
            schema.extend(string_schema);
            schema
                .entry("pattern")
                .or_insert_with(|| Value::from(RESOURCE_ID_PATTERN));
            schema.insert(X_PATTERN_TYPE.to_owned(), Value::from("resource_id"));
        }
        ParamType::Array => {
            schema.insert("type".to_owned(), Value::from("array"));
            schema.insert("items".to_owned(), Value::Object(string_schema));
        }
        ParamType::Enum => {
            schema.insert("type".to_owned(), Value::from("string"));
            schema.insert(
                "enum".to_owned(),
                Value::from(parameter.enum_values.clone()),
            );
        }
        ParamType::Integer => {
            schema.insert("type".to_owned(), Value::from("integer"));
            parameter.bounds.write_into(&mut schema);
        }
        ParamType::Number => {
            schema.insert("type".to_owned(), Value::from("number"));
            parameter.bounds.write_into(&mut schema);
        }
        ParamType::Boolean => {
            schema.insert("type".to_owned(), Value::from("boolean"));
        }
    }
    if let Some(description) = &parameter.description {
        schema.insert("description".to_owned(), Value::from(description.clone()));
    }
    if let Some(default) = &parameter.default {
        schema.insert("default".to_owned(), default.clone());
    }
    if parameter.sensitive {
        schema.insert("writeOnly".to_owned(), Value::Bool(true));
        schema.insert(X_SENSITIVE.to_owned(), Value::Bool(true));
    }
    if parameter.allow_leading_dash {
        schema.insert(X_ALLOW_LEADING_DASH.to_owned(), Value::Bool(true));
    }
    Value::Object(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Origin;
    use crate::guard::{self, RawArguments};
    use crate::registry::parse_value;

    /// Every type and pattern type, exported and loaded back as an MCP
    /// `input_schema`, accepts and refuses what the original does.
    #[test]
    fn the_export_guards_like_the_original() {
        // Every parameter reaches the subprocess (E122 otherwise).
        let every_parameter = json!([
            "a-id",
            "uuid",
            "version",
            "path",
            "link",
            "res",
            "ticket",
            "count",
            "ratio",
            "dry",
            "mode",
            "tags",
            "token",
            "message",
            "search",
            "under-src",
            "out"
        ]);
        let original = parse_value(
            &json!({
                "name": "all", "description": "every kind", "danger_level": "safe",
                "parameters": {
                    "a-id": {"type": "string", "pattern_type": "alphanumeric_id", "required": true},
                    "uuid": {"type": "string", "pattern_type": "uuid"},
                    "version": {"type": "string", "pattern_type": "semver"},
                    "path": {"type": "string", "pattern_type": "filepath"},
                    "link": {"type": "string", "pattern_type": "url"},
                    "res": {"type": "resource_id"},
                    "ticket": {"type": "string", "pattern": "^[A-Z]+-[0-9]+$"},
                    "count": {"type": "integer", "default": 1, "minimum": 1, "maximum": 5},
                    "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "multipleOf": 0.25},
                    "dry": {"type": "boolean"},
                    "mode": {"type": "enum", "enum_values": ["a", "b"]},
                    "tags": {"type": "array", "pattern_type": "alphanumeric_id"},
                    "token": {"type": "string", "sensitive": true},
                    "message": {"type": "string", "pattern_type": "free_text"},
                    "search": {"type": "string", "pattern_type": "regex", "regex_dialect": "ere"},
                    "under-src": {"type": "string", "pattern_type": "filepath", "pattern": "^src/.+$"},
                    "out": {"type": "string", "pattern_type": "filepath", "relative_only": true, "under": ["$CWD", "{under-src}"], "must_exist": true}
                },
                "subprocess": {"binary": "x", "user_controlled_args": every_parameter}
            }),
            &Origin::default(),
        );
        assert!(
            !parsed_errors(&original.diagnostics),
            "{:?}",
            original.diagnostics
        );
        let original = original.declaration.unwrap();
        let schema = to_json_schema(&original);
        let reloaded = parse_value(
            &json!({"name": "all", "description": "every kind", "danger_level": "safe", "input_schema": schema,
                    "subprocess": {"binary": "x", "user_controlled_args": every_parameter}}),
            &Origin::default(),
        );
        assert!(
            !parsed_errors(&reloaded.diagnostics),
            "{:?}",
            reloaded.diagnostics
        );
        let reloaded = reloaded.declaration.unwrap();

        let good = r#"{"a-id": "prod-1", "uuid": "123e4567-e89b-12d3-a456-426614174000", "version": "1.2.3-rc.1+b.5",
            "path": "/home/user/file.txt", "link": "https://example.com/Straße?filter[name]=c#d", "res": "users/42", "ticket": "OPS-12",
            "count": 3, "ratio": 0.5, "dry": true, "mode": "b", "tags": ["x", "y"], "token": "s3cret",
            "message": "Fix parser (again) & add tests", "search": "(foo|bar)$", "under-src": "src/a b.rs"}"#;
        for declaration in [&original, &reloaded] {
            let validated = guard::check(declaration, &RawArguments::Json(good));
            assert!(validated.is_ok(), "{:?}", validated.unwrap_err().violations);
        }
        for bad in [
            r#"{"a-id": "../x"}"#,
            r#"{"a-id": "x", "uuid": "123"}"#,
            r#"{"a-id": "x", "version": "v1.2.3"}"#,
            r#"{"a-id": "x", "path": "%2e%2e/etc"}"#,
            r#"{"a-id": "x", "path": "-rf"}"#,
            r#"{"a-id": "x", "link": "https://u@example.com/"}"#,
            r#"{"a-id": "x", "link": "https://example.com/a/%2e%2e;/b"}"#,
            r#"{"a-id": "x", "res": "a?b"}"#,
            r#"{"a-id": "x", "res": "{{id}}"}"#,
            r#"{"a-id": "x", "ticket": "ops-1"}"#,
            r#"{"a-id": "x", "count": 1.5}"#,
            r#"{"a-id": "x", "count": 0}"#,
            r#"{"a-id": "x", "count": 6}"#,
            r#"{"a-id": "x", "ratio": 0}"#,
            r#"{"a-id": "x", "ratio": 0.3}"#,
            r#"{"a-id": "x", "ratio": 1.25}"#,
            r#"{"a-id": "x", "mode": "c"}"#,
            r#"{"a-id": "x", "tags": ["a/b"]}"#,
            r#"{"a-id": "x", "extra": 1}"#,
            r#"{"a-id": "x", "message": "null"}"#,
            r#"{"a-id": "x", "message": "-m"}"#,
            r#"{"a-id": "x", "search": "(foo"}"#,
            r#"{"a-id": "x", "search": "a\nb"}"#,
            r#"{"a-id": "x", "under-src": "lib/x"}"#,
            r#"{"a-id": "x", "under-src": "src/../x"}"#,
            r#"{}"#,
        ] {
            for declaration in [&original, &reloaded] {
                assert!(
                    guard::check(declaration, &RawArguments::Json(bad)).is_err(),
                    "{} accepted {bad}",
                    if std::ptr::eq(declaration, &original) {
                        "original"
                    } else {
                        "export"
                    }
                );
            }
        }
        assert_eq!(schema["properties"]["link"].get("format"), None);
        // Where a path may point survives the round trip.
        assert_eq!(reloaded.confinement("out"), original.confinement("out"));
        assert!(original.confinement("out").is_some());
        for declaration in [&original, &reloaded] {
            let absolute = r#"{"a-id": "x", "out": "/etc/x"}"#;
            assert!(guard::check(declaration, &RawArguments::Json(absolute)).is_err());
        }
        let secret = guard::check(&reloaded, &RawArguments::Json(good)).unwrap();
        assert_eq!(secret.to_redacted_json()["token"], crate::guard::REDACTED);
    }

    fn parsed_errors(diagnostics: &[crate::report::Diagnostic]) -> bool {
        diagnostics.iter().any(crate::report::Diagnostic::is_error)
    }

    /// Why JSON Schema cannot refuse `value` although the guard does: the
    /// categories that docs/reference/guard-rules.md lists under "What
    /// the JSON Schema cannot say", each phrased as there.
    fn beyond_json_schema(kind: &str, value: &str) -> Option<&'static str> {
        if kind == "regex"
            && guard::dialect::regex_error(crate::contract::RegexDialect::Ere, value).is_some()
        {
            return Some("whether a `regex` compiles in its dialect");
        }
        let lower = value.to_ascii_lowercase();
        if lower.contains("%25") {
            return Some("more than one layer of percent-encoding");
        }
        if lower.contains("%u") {
            return Some("`%uXXXX` escapes");
        }
        if ["%c0", "%c1", "%e0%80"]
            .iter()
            .any(|overlong| lower.contains(overlong))
        {
            return Some("overlong UTF-8");
        }
        if lower.contains("%e2%80") || lower.contains("%ef%bb") {
            return Some("percent-encoded Unicode format characters");
        }
        if value.contains('\\') || value.contains("&#") || lower.contains("&period;") {
            return Some("backslash escapes and HTML character references");
        }
        if value
            .chars()
            .any(|ch| u32::from(ch) > 0xFFFF && crate::guard::rules::is_control(ch, true))
        {
            return Some("control characters beyond the Basic Multilingual Plane");
        }
        None
    }

    /// The schema agreement of issue 20: for every kind of string, passed
    /// to a program or not, each value of the guard corpus (and of the
    /// benign table) gets the same answer from the guard and from the
    /// exported JSON Schema, except where the guard refuses what a
    /// pattern cannot say (`beyond_json_schema`, documented).
    #[test]
    fn the_export_refuses_what_the_guard_refuses() {
        let kinds = [
            ("plain", json!({"type": "string"})),
            ("patterned", json!({"type": "string", "pattern": "^[^/]+$"})),
            ("resource_id", json!({"type": "resource_id"})),
            (
                "alphanumeric_id",
                json!({"type": "string", "pattern_type": "alphanumeric_id"}),
            ),
            ("uuid", json!({"type": "string", "pattern_type": "uuid"})),
            (
                "semver",
                json!({"type": "string", "pattern_type": "semver"}),
            ),
            (
                "filepath",
                json!({"type": "string", "pattern_type": "filepath"}),
            ),
            ("url", json!({"type": "string", "pattern_type": "url"})),
            (
                "free_text",
                json!({"type": "string", "pattern_type": "free_text"}),
            ),
            (
                "regex",
                json!({"type": "string", "pattern_type": "regex", "regex_dialect": "ere"}),
            ),
            (
                "relative filepath",
                json!({"type": "string", "pattern_type": "filepath", "relative_only": true}),
            ),
            (
                "filepath+pattern",
                json!({"type": "string", "pattern_type": "filepath", "pattern": "^[a-z./%．‥]+$"}),
            ),
        ];
        let mut values: Vec<&str> = guard::tests::ENCODED_VARIANTS.to_vec();
        values.extend(
            guard::tests::BENIGN
                .iter()
                .flat_map(|(_, values)| values.iter().copied()),
        );
        values.extend([
            "Fix parser (again) & add tests",
            "(foo|bar)$",
            "-rf",
            "%2d%2dhelp",
            "－rf",
            "a\tb",
            "line\nbreak",
            "use ${HOME} here",
            "  null ",
            "<name>",
            "[object Object]",
            "src/../x",
            "src/%2e%2e/x",
            "a\u{2025}/b",
            "ok\u{3164}",
            "/etc/passwd",
            "~/.bashrc",
            "C:\\Windows",
            "%2Fetc%2Fpasswd",
        ]);
        let mut unexplained = Vec::new();
        let mut gaps = 0;
        for (kind, parameter) in &kinds {
            for user_controlled in [false, true] {
                let mut document = json!({
                    "name": "probe", "description": "probe", "danger_level": "safe",
                    "parameters": {"value": parameter},
                });
                if user_controlled {
                    document["subprocess"] =
                        json!({"binary": "probe", "argv": [{"param": "value"}]});
                }
                let parsed = parse_value(&document, &Origin::default());
                assert!(
                    !parsed_errors(&parsed.diagnostics),
                    "{kind}: {:?}",
                    parsed.diagnostics
                );
                let declared = parsed.declaration.unwrap();
                // The same command as an MCP-style `input_schema`, its own
                // export written back: both must agree with their schema.
                let mut as_schema = json!({
                    "name": "probe", "description": "probe", "danger_level": "safe",
                    "input_schema": to_json_schema(&declared),
                });
                if user_controlled {
                    as_schema["subprocess"] = document["subprocess"].clone();
                }
                let reread = parse_value(&as_schema, &Origin::default());
                assert!(
                    !parsed_errors(&reread.diagnostics),
                    "{kind}: {:?}",
                    reread.diagnostics
                );
                for declaration in [declared, reread.declaration.unwrap()] {
                    let schema = to_json_schema(&declaration);
                    let validators = [
                        jsonschema::options()
                            .with_pattern_options(jsonschema::PatternOptions::regex())
                            .build(&schema)
                            .expect("the export compiles with the regex engine"),
                        jsonschema::validator_for(&schema)
                            .expect("the export compiles with the ECMA-262 engine"),
                    ];
                    for value in &values {
                        let arguments = json!({"value": value}).to_string();
                        let guard_refuses =
                            guard::check(&declaration, &RawArguments::Json(&arguments)).is_err();
                        for validator in &validators {
                            let schema_refuses = !validator.is_valid(&json!({"value": value}));
                            match (guard_refuses, schema_refuses) {
                            (true, false) if beyond_json_schema(kind, value).is_some() => {
                                gaps += 1;
                            }
                            (true, false) => unexplained.push(format!(
                                "{kind} (passed on: {user_controlled}): the guard refuses {value:?}, the schema accepts it"
                            )),
                            (false, true) => unexplained.push(format!(
                                "{kind} (passed on: {user_controlled}): the schema refuses {value:?}, the guard accepts it"
                            )),
                            _ => {}
                        }
                        }
                    }
                }
            }
        }
        assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
        assert!(gaps > 0, "the corpus exercises the documented gaps");
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/docs/reference/guard-rules.md"
        ))
        .unwrap();
        for (kind, _) in &kinds {
            for value in &values {
                if let Some(gap) = beyond_json_schema(kind, value) {
                    assert!(doc.contains(gap), "guard-rules.md does not list: {gap}");
                }
            }
        }
    }
}
