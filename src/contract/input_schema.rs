//! MCP-style `input_schema` declarations: a raw JSON Schema (draft 2020-12)
//! checked in strict mode.
//!
//! - Every keyword must be a draft 2020-12 keyword or one of aigent's own
//!   `x-aigent-*` keywords below; anything else (a typo such as `minLenght`,
//!   `definitions` from older drafts) is a registration error, because a
//!   validator silently ignores keywords it does not know.
//! - `$ref` must be local (`#...`); the validator is built offline, so no
//!   remote reference is ever fetched. Unknown `format`s are errors.
//! - An object schema that says nothing about extra properties gets
//!   `additionalProperties: false`. This is filled in at the root and in
//!   schemas reached through `properties`, `items`, `prefixItems`,
//!   `additionalProperties`, `patternProperties` and `$defs`; not inside
//!   `allOf`/`anyOf`/`oneOf`/`if`/`not`, nor where the schema itself
//!   composes (`allOf`, `$ref`, ...), since closing a part of a composition
//!   would reject what another part allows.
//!
//! aigent's keywords, on a top-level property (or its `items`):
//! - `x-aigent-pattern-type`: `alphanumeric_id`, `uuid`, `semver`,
//!   `filepath`, `url`, `free_text`, `regex` or `resource_id`. The guard
//!   then applies that type's syntax and named rules, exactly as for a
//!   `parameters` declaration.
//! - `x-aigent-regex-dialect`: `ere`, `pcre` or `rust`, required with
//!   `x-aigent-pattern-type: regex`.
//! - `x-aigent-relative-only: true`, `x-aigent-under: [ROOT, ...]`,
//!   `x-aigent-must-exist: true`: where a `filepath` may point, as
//!   `relative_only`, `under` and `must_exist` in a `parameters`
//!   declaration.
//! - `x-aigent-sensitive: true`: the value is redacted in output and in the
//!   audit log.
//! - `x-aigent-allow-leading-dash: true`: a user-controlled value may start
//!   with `-`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::codes;
use super::declaration::pattern_anchoring_problem;
use super::declaration::{
    Confinement, InputSchema, PathRoot, PatternType, RegexDialect, ValueClass,
};
pub use super::declaration::{
    GuardedProperty, PropertyGuard, X_ALLOW_LEADING_DASH, X_MUST_EXIST, X_PATTERN_TYPE,
    X_REGEX_DIALECT, X_RELATIVE_ONLY, X_SENSITIVE, X_UNDER,
};
use crate::report::Diagnostic;
use strum::VariantArray;

/// The meta-schema URI accepted in `$schema`.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Draft 2020-12 keywords, by vocabulary.
const KEYWORDS: &[&str] = &[
    // core
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    // applicator
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "prefixItems",
    "items",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    // unevaluated
    "unevaluatedItems",
    "unevaluatedProperties",
    // validation
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    // format, content, meta-data
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    // aigent
    X_PATTERN_TYPE,
    X_REGEX_DIALECT,
    X_SENSITIVE,
    X_ALLOW_LEADING_DASH,
    X_RELATIVE_ONLY,
    X_UNDER,
    X_MUST_EXIST,
];

/// Keywords whose value is one subschema.
const SINGLE_SUBSCHEMA: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "items",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
/// Keywords whose value maps names to subschemas.
const SUBSCHEMA_MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "dependentSchemas",
];
/// Keywords whose value is a list of subschemas.
const SUBSCHEMA_LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords that make a schema a composition, which must not be closed.
const COMPOSING: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "$ref",
    "$dynamicRef",
    "if",
    "dependentSchemas",
];

/// How deep `$ref`/`allOf` chains are followed (cycles stop earlier).
const MAX_FACET_DEPTH: usize = 32;

/// The schemas that apply together to a value that `schema` (at
/// `pointer`) describes: itself, and what it reaches through local `$ref`s
/// and `allOf`. Each comes with its JSON pointer. `follow_refs` is false
/// when a nested `$id` would change what `#...` refers to.
fn facets<'a>(
    root: &'a Value,
    schema: &'a Value,
    pointer: String,
    follow_refs: bool,
) -> Vec<(String, &'a Value)> {
    let mut found: Vec<(String, &'a Value)> = Vec::new();
    let mut stack = vec![(pointer, schema, 0usize)];
    while let Some((pointer, schema, depth)) = stack.pop() {
        if found.iter().any(|(seen, _)| *seen == pointer) || depth > MAX_FACET_DEPTH {
            continue;
        }
        let Value::Object(object) = schema else {
            continue;
        };
        found.push((pointer.clone(), schema));
        if let Some(Value::Array(members)) = object.get("allOf") {
            for (index, member) in members.iter().enumerate().rev() {
                stack.push((format!("{pointer}/allOf/{index}"), member, depth + 1));
            }
        }
        if follow_refs
            && let Some(reference) = object.get("$ref").and_then(Value::as_str)
            && let Some((target_pointer, target)) = resolve_local(root, reference)
        {
            stack.push((target_pointer, target, depth + 1));
        }
    }
    found
}

/// The schema a local `$ref` (`#`, `#/$defs/x`) points at, with its JSON
/// pointer. Anchors (`#name`) and anything remote give `None`.
fn resolve_local<'a>(root: &'a Value, reference: &str) -> Option<(String, &'a Value)> {
    let fragment = reference.strip_prefix('#')?;
    let pointer = crate::normalize::percent_decode(fragment);
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return None;
    }
    root.pointer(&pointer).map(|target| (pointer, target))
}

fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Whether a subschema below the root has an `$id`, which would make
/// `#...` references inside it relative to that subschema.
fn has_nested_id(schema: &Value) -> bool {
    let mut nested = false;
    each_subschema(schema, "", &mut |pointer, object| {
        nested |= !pointer.is_empty() && object.contains_key("$id");
    });
    nested
}

/// Calls `visit` with every schema object (and its JSON pointer) below
/// and including `schema`, through the applicator keywords.
fn each_subschema(schema: &Value, pointer: &str, visit: &mut dyn FnMut(&str, &Map<String, Value>)) {
    let Value::Object(object) = schema else {
        return;
    };
    visit(pointer, object);
    for (keyword, value) in object {
        let here = format!("{pointer}/{}", escape_pointer_token(keyword));
        if SINGLE_SUBSCHEMA.contains(&keyword.as_str()) {
            each_subschema(value, &here, visit);
        } else if SUBSCHEMA_MAP.contains(&keyword.as_str()) {
            if let Some(map) = value.as_object() {
                for (name, child) in map {
                    each_subschema(
                        child,
                        &format!("{here}/{}", escape_pointer_token(name)),
                        visit,
                    );
                }
            }
        } else if SUBSCHEMA_LIST.contains(&keyword.as_str())
            && let Some(list) = value.as_array()
        {
            for (index, child) in list.iter().enumerate() {
                each_subschema(child, &format!("{here}/{index}"), visit);
            }
        }
    }
}

/// The first non-null `type` among `facets`, or `"string"`.
fn first_type<'a>(facets: impl Iterator<Item = &'a Value>) -> String {
    facets
        .filter(|facet| facet.get("type").is_some())
        .map(primary_type)
        .next()
        .unwrap_or("string")
        .to_owned()
}

/// Every top-level property with its guard, and the pointers of every
/// facet the guard reads (where `x-aigent-*` keywords take effect).
fn guarded_properties(root: &Value) -> (Vec<GuardedProperty>, Vec<String>) {
    let follow_refs = !has_nested_id(root);
    let mut guarded = Vec::new();
    let mut effective = Vec::new();
    let Some(properties) = root.get("properties").and_then(Value::as_object) else {
        return (guarded, effective);
    };
    for (name, property) in properties {
        let pointer = format!("/properties/{}", escape_pointer_token(name));
        let own = facets(root, property, pointer, follow_refs);
        let mut items = Vec::new();
        for (facet_pointer, facet) in &own {
            if let Some(item_schema) = facet.get("items") {
                for item in facets(
                    root,
                    item_schema,
                    format!("{facet_pointer}/items"),
                    follow_refs,
                ) {
                    if !items
                        .iter()
                        .any(|(seen, _): &(String, &Value)| *seen == item.0)
                    {
                        items.push(item);
                    }
                }
            }
        }
        effective.extend(own.iter().map(|(pointer, _)| pointer.clone()));
        effective.extend(items.iter().map(|(pointer, _)| pointer.clone()));
        let own_values: Vec<&Value> = own.iter().map(|(_, facet)| *facet).collect();
        let item_values: Vec<&Value> = items.iter().map(|(_, facet)| *facet).collect();
        let confinement = confinement_of(own_values.iter().chain(item_values.iter()).copied());
        guarded.push(GuardedProperty {
            name: name.clone(),
            guard: PropertyGuard::merged(own_values.iter().copied()),
            items: (!item_values.is_empty())
                .then(|| PropertyGuard::merged(item_values.iter().copied())),
            primary_type: first_type(own_values.iter().copied()),
            items_type: first_type(item_values.iter().copied()),
            confinement,
        });
    }
    (guarded, effective)
}

/// The path confinement the facets of a property (and of its items) ask
/// for together: any `x-aigent-relative-only` or `x-aigent-must-exist`,
/// and every `x-aigent-under` root.
fn confinement_of<'a>(facets: impl Iterator<Item = &'a Value> + Clone) -> Confinement {
    let flag = |keyword: &str| {
        facets
            .clone()
            .any(|facet| facet.get(keyword) == Some(&Value::Bool(true)))
    };
    let mut under: Vec<PathRoot> = Vec::new();
    for facet in facets.clone() {
        for root in facet
            .get(X_UNDER)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter_map(PathRoot::parse)
        {
            if !under.contains(&root) {
                under.push(root);
            }
        }
    }
    Confinement {
        relative_only: flag(X_RELATIVE_ONLY),
        under,
        must_exist: flag(X_MUST_EXIST),
    }
}

/// E121: `x-aigent-*` keywords the guard would never read, and facets
/// that disagree on the pattern type.
fn check_aigent_keywords(
    root: &Value,
    effective: &[String],
    field: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let follow_refs = !has_nested_id(root);
    let is_aigent = |key: &String| key.starts_with("x-aigent-");
    each_subschema(root, "", &mut |pointer, object| {
        let here = format!("{field}{}", pointer.replace('/', "."));
        if !effective.iter().any(|seen| seen == pointer) {
            if let Some(keyword) = object.keys().find(|key| is_aigent(key)) {
                diagnostics.push(
                    Diagnostic::new(
                        codes::Code::AigentKeywordIgnored,
                        format!(
                            "`{keyword}` here would be ignored: aigent reads its keywords on a top-level property, on its `items`, and on the schemas those reach through a local `$ref` or `allOf`"
                        ),
                    )
                    .with_field(format!("{here}.{keyword}")),
                );
            } else if let Some(Value::String(reference)) = object.get("$ref") {
                let reaches_keywords = follow_refs
                    && resolve_local(root, reference).is_some_and(|(target_pointer, target)| {
                        facets(root, target, target_pointer, true)
                            .iter()
                            .any(|(_, facet)| {
                                facet
                                    .as_object()
                                    .is_some_and(|facet| facet.keys().any(is_aigent))
                            })
                    });
                if reaches_keywords {
                    diagnostics.push(
                        Diagnostic::new(
                            codes::Code::AigentKeywordIgnored,
                            format!(
                                "`$ref` to `{reference}` reaches `x-aigent-*` keywords, which do not apply here: aigent reads them only for a top-level property and its `items`"
                            ),
                        )
                        .with_field(format!("{here}.$ref")),
                    );
                }
            }
        }
    });
    if let Some(properties) = root.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let pointer = format!("/properties/{}", escape_pointer_token(name));
            let mut named: Vec<&str> = facets(root, property, pointer, follow_refs)
                .iter()
                .filter_map(|(_, facet)| facet.get(X_PATTERN_TYPE).and_then(Value::as_str))
                .collect();
            named.sort_unstable();
            named.dedup();
            if named.len() > 1 {
                diagnostics.push(
                    Diagnostic::new(
                        codes::Code::AigentKeywordIgnored,
                        format!(
                            "`{name}` is given the pattern types {} (through `$ref`/`allOf`); only one can apply",
                            named.join(" and ")
                        ),
                    )
                    .with_field(format!("{field}.properties.{name}")),
                );
            }
        }
    }
}

/// The first non-null `type` of a property schema (`"string"` when none is
/// given), for typing `--name value` flags.
pub fn primary_type(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(kind)) => kind,
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("string"),
        _ => "string",
    }
}

/// Checks and compiles an `input_schema`. `field` is where it sits in the
/// declaration (`input_schema`), for diagnostics.
pub fn compile(written: &Value, field: &str) -> (Option<InputSchema>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let Some(root) = written.as_object() else {
        diagnostics.push(
            Diagnostic::new(
                codes::Code::SchemaInvalid,
                "`input_schema` must be a JSON Schema object",
            )
            .with_field(field),
        );
        return (None, diagnostics);
    };
    if root.get("type") != Some(&Value::String("object".to_owned())) {
        diagnostics.push(
            Diagnostic::new(
                codes::Code::SchemaInvalid,
                "an `input_schema` must have `\"type\": \"object\"` at its root (arguments are an object)",
            )
            .with_field(format!("{field}.type")),
        );
    }
    if let Some(declared) = root.get("$schema")
        && declared.as_str().map(|uri| uri.trim_end_matches('#')) != Some(DRAFT_2020_12)
    {
        diagnostics.push(
            Diagnostic::new(
                codes::Code::SchemaInvalid,
                format!("`$schema` must be {DRAFT_2020_12} (strict mode knows draft 2020-12 only)"),
            )
            .with_field(format!("{field}.$schema")),
        );
    }
    walk(written, field, false, &mut diagnostics);
    if let Some(properties) = root.get("properties").and_then(Value::as_object) {
        check_top_level_properties(properties, field, &mut diagnostics);
    }
    let (guarded, effective) = guarded_properties(written);
    check_aigent_keywords(written, &effective, field, &mut diagnostics);
    check_regex_dialects(&guarded, field, &mut diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return (None, diagnostics);
    }
    let mut effective = written.clone();
    close_objects(&mut effective);
    let built = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .offline()
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .should_validate_formats(true)
        .should_ignore_unknown_formats(false)
        .build(&effective);
    match built {
        Ok(validator) => (
            Some(InputSchema {
                written: written.clone(),
                effective,
                validator: Arc::new(validator),
                guarded,
            }),
            diagnostics,
        ),
        Err(err) => {
            let location = err.schema_path().as_str().replace('/', ".");
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::SchemaInvalid,
                    format!("`input_schema` is not valid: {}", err.masked()),
                )
                .with_field(format!("{field}{location}")),
            );
            (None, diagnostics)
        }
    }
}

/// `negated`: the schema sits under an odd number of `not`s, where a
/// `pattern` forbids what it matches, so it need not be anchored (an
/// unanchored one forbids more, not less).
fn walk(schema: &Value, path: &str, negated: bool, diagnostics: &mut Vec<Diagnostic>) {
    let object = match schema {
        Value::Bool(_) => return,
        Value::Object(object) => object,
        _ => {
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::SchemaInvalid,
                    "a schema must be an object or a boolean",
                )
                .with_field(path),
            );
            return;
        }
    };
    for (keyword, value) in object {
        let here = format!("{path}.{keyword}");
        if !KEYWORDS.contains(&keyword.as_str()) {
            let hint = match keyword.as_str() {
                "definitions" => " (draft 2020-12 calls it `$defs`)",
                "dependencies" => {
                    " (draft 2020-12 splits it into `dependentRequired` and `dependentSchemas`)"
                }
                "additionalItems" => " (draft 2020-12 uses `items` after `prefixItems`)",
                _ => "",
            };
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::SchemaUnknownKeyword,
                    format!("`{keyword}` is not a JSON Schema 2020-12 keyword{hint}; a validator would ignore it"),
                )
                .with_field(&here),
            );
            continue;
        }
        match keyword.as_str() {
            "$ref" | "$dynamicRef"
                if !value.as_str().is_some_and(|target| target.starts_with('#')) =>
            {
                diagnostics.push(
                    Diagnostic::new(
                        codes::Code::SchemaInvalid,
                        "only local references (`#/$defs/...`) are allowed; remote schemas are never fetched",
                    )
                    .with_field(&here),
                );
            }
            "pattern" if !negated => {
                if let Some(pattern) = value.as_str()
                    && let Some(problem) = pattern_anchoring_problem(pattern)
                {
                    diagnostics.push(
                        Diagnostic::new(codes::Code::PatternUnanchored, problem).with_field(&here),
                    );
                }
            }
            X_PATTERN_TYPE => {
                let known = value.as_str().is_some_and(|name| {
                    name == "resource_id" || PatternType::parse(name).is_some()
                });
                if !known {
                    let names: Vec<&str> = PatternType::VARIANTS
                        .iter()
                        .map(|pattern_type| pattern_type.as_str())
                        .chain(["resource_id"])
                        .collect();
                    diagnostics.push(
                        Diagnostic::new(
                            codes::Code::Shape,
                            format!("`{X_PATTERN_TYPE}` must be one of {}", names.join(", ")),
                        )
                        .with_field(&here),
                    );
                } else if object.get("type").is_some_and(|kind| kind != "string") {
                    diagnostics.push(
                        Diagnostic::new(
                            codes::Code::PatternMisplaced,
                            format!("`{X_PATTERN_TYPE}` applies to `\"type\": \"string\"` schemas"),
                        )
                        .with_field(&here),
                    );
                }
            }
            X_REGEX_DIALECT if value.as_str().and_then(RegexDialect::parse).is_none() => {
                let names: Vec<&str> = RegexDialect::VARIANTS
                    .iter()
                    .map(|dialect| dialect.as_str())
                    .collect();
                diagnostics.push(
                    Diagnostic::new(
                        codes::Code::Shape,
                        format!("`{X_REGEX_DIALECT}` must be one of {}", names.join(", ")),
                    )
                    .with_field(&here),
                );
            }
            X_UNDER => {
                let roots_ok = value.as_array().is_some_and(|roots| {
                    !roots.is_empty()
                        && roots
                            .iter()
                            .all(|root| root.as_str().and_then(PathRoot::parse).is_some())
                });
                if !roots_ok {
                    diagnostics.push(
                        Diagnostic::new(
                            codes::Code::Shape,
                            format!("`{X_UNDER}` must be a non-empty list of roots: `$CWD`, `{{param}}` or an absolute directory"),
                        )
                        .with_field(&here),
                    );
                }
            }
            X_SENSITIVE | X_ALLOW_LEADING_DASH | X_RELATIVE_ONLY | X_MUST_EXIST
                if !value.is_boolean() =>
            {
                diagnostics.push(
                    Diagnostic::new(
                        codes::Code::Shape,
                        format!("`{keyword}` must be true or false"),
                    )
                    .with_field(&here),
                );
            }
            _ => {}
        }
        if SINGLE_SUBSCHEMA.contains(&keyword.as_str()) {
            walk(value, &here, negated ^ (keyword == "not"), diagnostics);
        } else if SUBSCHEMA_MAP.contains(&keyword.as_str()) {
            if let Some(map) = value.as_object() {
                for (name, child) in map {
                    walk(child, &format!("{here}.{name}"), negated, diagnostics);
                }
            }
        } else if SUBSCHEMA_LIST.contains(&keyword.as_str())
            && let Some(list) = value.as_array()
        {
            for (index, child) in list.iter().enumerate() {
                walk(child, &format!("{here}[{index}]"), negated, diagnostics);
            }
        }
    }
}

/// The checks a top-level property gets as an argument: a usable name, and
/// the warning for an identifier without a pattern.
fn check_top_level_properties(
    properties: &Map<String, Value>,
    field: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (name, property) in properties {
        let here = format!("{field}.properties.{name}");
        if let Some(problem) = super::naming::parameter_name_problem(name) {
            diagnostics.push(
                Diagnostic::new(codes::Code::ParameterNameInvalid, problem).with_field(&here),
            );
        }
        let is_string = primary_type(property) == "string" && property.get("type").is_some();
        let constrained = ["pattern", "format", "enum", "const", X_PATTERN_TYPE]
            .iter()
            .any(|keyword| property.get(*keyword).is_some());
        if is_string && !constrained && super::naming::looks_like_identifier(name) {
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::IdentifierUnpatterned,
                    format!(
                        "`{name}` looks like an identifier but has no `pattern`, `format`, `enum` or `{X_PATTERN_TYPE}`; any string will pass"
                    ),
                )
                .with_field(&here),
            );
        }
    }
}

/// A `regex` property needs its dialect (`x-aigent-regex-dialect`), and a
/// dialect means nothing on any other property.
fn check_regex_dialects(
    guarded: &[GuardedProperty],
    field: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for property in guarded {
        let here = format!("{field}.properties.{}", property.name);
        // A dialect that is not one is reported where it is written.
        let reported = diagnostics.iter().any(|diagnostic| {
            diagnostic
                .field
                .as_deref()
                .is_some_and(|field| field.starts_with(&here))
        });
        if reported {
            continue;
        }
        let guards = std::iter::once(property.guard).chain(property.items);
        for guard in guards {
            let is_regex = guard.class == ValueClass::Typed(PatternType::Regex);
            match (is_regex, guard.regex_dialect) {
                (true, None) => diagnostics.push(
                    Diagnostic::new(
                        codes::Code::Shape,
                        format!(
                            "`{X_PATTERN_TYPE}: regex` needs `{X_REGEX_DIALECT}` (ere, pcre or rust), the language the program reads"
                        ),
                    )
                    .with_field(&here),
                ),
                (false, Some(_)) => diagnostics.push(
                    Diagnostic::new(
                        codes::Code::PatternMisplaced,
                        format!("`{X_REGEX_DIALECT}` applies to `{X_PATTERN_TYPE}: regex` only"),
                    )
                    .with_field(&here),
                ),
                _ => {}
            }
        }
        let is_path = property.item_guard().class == ValueClass::Typed(PatternType::Filepath);
        if property.confinement.is_set() && !is_path {
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::PatternMisplaced,
                    format!(
                        "`{X_RELATIVE_ONLY}`, `{X_UNDER}` and `{X_MUST_EXIST}` confine a path: they apply with `{X_PATTERN_TYPE}: filepath` only"
                    ),
                )
                .with_field(&here),
            );
        }
    }
}

/// Fills in `additionalProperties: false` (see the module docs).
fn close_objects(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    let is_object_schema = object.contains_key("properties")
        || object.get("type") == Some(&Value::String("object".to_owned()));
    let says_already =
        object.contains_key("additionalProperties") || object.contains_key("unevaluatedProperties");
    let composes = COMPOSING
        .iter()
        .any(|keyword| object.contains_key(*keyword));
    if is_object_schema && !says_already && !composes {
        object.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    for keyword in ["items", "additionalProperties"] {
        if let Some(child) = object.get_mut(keyword) {
            close_objects(child);
        }
    }
    for keyword in ["properties", "patternProperties", "$defs"] {
        if let Some(Value::Object(map)) = object.get_mut(keyword) {
            for child in map.values_mut() {
                close_objects(child);
            }
        }
    }
    if let Some(Value::Array(list)) = object.get_mut("prefixItems") {
        for child in list {
            close_objects(child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::ValueClass;
    use serde_json::json;

    fn codes_of(schema: Value) -> Vec<&'static str> {
        compile(&schema, "input_schema")
            .1
            .iter()
            .map(|d| d.code)
            .collect()
    }

    #[test]
    fn a_clean_schema_compiles_and_is_closed() {
        let (compiled, diagnostics) = compile(
            &json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "x-aigent-pattern-type": "filepath"},
                    "opts": {"type": "object", "properties": {"depth": {"type": "integer"}}}
                },
                "required": ["path"]
            }),
            "input_schema",
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let compiled = compiled.unwrap();
        assert_eq!(compiled.effective["additionalProperties"], false);
        assert_eq!(
            compiled.effective["properties"]["opts"]["additionalProperties"],
            false
        );
        assert_eq!(compiled.written.get("additionalProperties"), None);
        assert!(
            !compiled
                .validator
                .is_valid(&json!({"path": "/x", "extra": 1}))
        );
        assert!(compiled.validator.is_valid(&json!({"path": "/x"})));
    }

    #[test]
    fn unknown_keywords_are_errors() {
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "minLenght": 1}}})
            ),
            [codes::Code::SchemaUnknownKeyword]
        );
        assert_eq!(
            codes_of(json!({"type": "object", "definitions": {}})),
            [codes::Code::SchemaUnknownKeyword]
        );
        assert_eq!(
            codes_of(json!({"type": "object", "x-vendor": true})),
            [codes::Code::SchemaUnknownKeyword]
        );
    }

    #[test]
    fn remote_refs_wrong_roots_and_bad_formats_are_errors() {
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}})
            ),
            [codes::Code::SchemaInvalid]
        );
        assert_eq!(
            codes_of(json!({"type": "array"})),
            [codes::Code::SchemaInvalid]
        );
        assert_eq!(codes_of(json!([1])), [codes::Code::SchemaInvalid]);
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "format": "no-such-format"}}})
            ),
            [codes::Code::SchemaInvalid]
        );
        assert_eq!(
            codes_of(json!({"type": "object", "properties": {"a": {"type": "strin"}}})),
            [codes::Code::SchemaInvalid]
        );
        assert_eq!(
            codes_of(
                json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"})
            ),
            [codes::Code::SchemaInvalid]
        );
    }

    #[test]
    fn unanchored_patterns_and_bad_aigent_keywords() {
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "[a-z]+"}}})
            ),
            [codes::Code::PatternUnanchored]
        );
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-aigent-pattern-type": "ipv4"}}})
            ),
            [codes::Code::Shape]
        );
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "integer", "x-aigent-pattern-type": "uuid"}}})
            ),
            [codes::Code::PatternMisplaced]
        );
        // Under `not` a pattern names what is refused: unanchored is fine,
        // and under two `not`s it is a plain pattern again.
        assert!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "not": {"anyOf": [{"pattern": "[;|]"}]}}}})
            )
            .is_empty()
        );
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "not": {"not": {"pattern": "[a-z]+"}}}}})
            ),
            [codes::Code::PatternUnanchored]
        );
        // A regex needs its dialect, and only a regex takes one.
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-aigent-pattern-type": "regex"}}})
            ),
            [codes::Code::Shape]
        );
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-aigent-pattern-type": "regex", "x-aigent-regex-dialect": "posix"}}})
            ),
            [codes::Code::Shape]
        );
        assert_eq!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-aigent-pattern-type": "free_text", "x-aigent-regex-dialect": "ere"}}})
            ),
            [codes::Code::PatternMisplaced]
        );
        assert!(
            codes_of(
                json!({"type": "object", "properties": {"a": {"type": "string", "x-aigent-pattern-type": "regex", "x-aigent-regex-dialect": "pcre"}}})
            )
            .is_empty()
        );
    }

    #[test]
    fn identifier_properties_without_constraints_warn() {
        assert_eq!(
            codes_of(json!({"type": "object", "properties": {"user_id": {"type": "string"}}})),
            [codes::Code::IdentifierUnpatterned]
        );
        assert!(codes_of(json!({"type": "object", "properties": {"user_id": {"type": "string", "format": "uuid"}}})).is_empty());
    }

    #[test]
    fn compositions_are_not_closed() {
        let (compiled, _) = compile(
            &json!({"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}]}),
            "input_schema",
        );
        assert_eq!(
            compiled.unwrap().effective.get("additionalProperties"),
            None
        );
    }

    #[test]
    fn aigent_keywords_where_the_guard_never_reads_them_are_errors() {
        for schema in [
            // nested inside an object property
            json!({"type": "object", "properties": {"opts": {"type": "object", "properties": {
                "token": {"type": "string", "x-aigent-sensitive": true}}}}}),
            // in a branch that may not apply
            json!({"type": "object", "properties": {"id": {"anyOf": [
                {"type": "string", "x-aigent-pattern-type": "resource_id"}, {"type": "integer"}]}}}),
            json!({"type": "object", "properties": {"id": {"not": {"x-aigent-sensitive": true}}}}),
            // on prefixItems, which the guard does not read
            json!({"type": "object", "properties": {"argv": {"type": "array", "prefixItems": [
                {"type": "string", "x-aigent-pattern-type": "filepath"}]}}}),
            // in a definition nobody at the top level reaches
            json!({"type": "object", "$defs": {"secret": {"type": "string", "x-aigent-sensitive": true}},
                "properties": {"a": {"type": "string"}}}),
            // a definition that is used at the top level and nested
            json!({"type": "object", "$defs": {"secret": {"type": "string", "x-aigent-sensitive": true}},
                "properties": {"token": {"$ref": "#/$defs/secret"},
                    "opts": {"type": "object", "properties": {"token": {"$ref": "#/$defs/secret"}}}}}),
            // at the root
            json!({"type": "object", "x-aigent-sensitive": true}),
            // two pattern types for one property
            json!({"type": "object", "properties": {"id": {"type": "string", "x-aigent-pattern-type": "uuid",
                "allOf": [{"x-aigent-pattern-type": "semver"}]}}}),
        ] {
            assert_eq!(
                codes_of(schema.clone()),
                [codes::Code::AigentKeywordIgnored],
                "{schema}"
            );
        }
    }

    #[test]
    fn aigent_keywords_through_refs_and_all_of_take_effect() {
        let (compiled, diagnostics) = compile(
            &json!({"type": "object",
            "$defs": {
                "secret": {"type": "string", "x-aigent-sensitive": true},
                "rid": {"allOf": [{"$ref": "#/$defs/plain"}, {"x-aigent-pattern-type": "resource_id"}]},
                "plain": {"type": "string"},
                "loop": {"$ref": "#/$defs/loop"}
            },
            "properties": {
                "token": {"$ref": "#/$defs/secret"},
                "id": {"$ref": "#/$defs/rid"},
                "ids": {"type": "array", "items": {"$ref": "#/$defs/rid"}, "x-aigent-allow-leading-dash": true},
                "odd": {"$ref": "#/$defs/loop"}
            }}),
            "input_schema",
        );
        let compiled = compiled.unwrap_or_else(|| panic!("{diagnostics:?}"));
        let token = compiled.guarded("token").unwrap();
        assert!(token.guard.sensitive);
        assert_eq!(
            compiled.guarded("id").unwrap().guard.class,
            ValueClass::ResourceId
        );
        assert_eq!(compiled.guarded("id").unwrap().primary_type, "string");
        let ids = compiled.guarded("ids").unwrap();
        assert_eq!(ids.item_guard().class, ValueClass::ResourceId);
        assert!(ids.item_guard().allow_leading_dash);
        assert_eq!(ids.primary_type, "array");
        assert_eq!(ids.items_type, "string");
        assert_eq!(
            compiled.guarded("odd").unwrap().guard.class,
            ValueClass::Plain
        );
    }
}
