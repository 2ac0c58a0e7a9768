//! Phase 1 against declarations, end to end through [`check`]: the
//! acceptance points of DESIGN.md §5, the encoded-variant table, the benign
//! table, and property tests.

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::contract::Origin;
use crate::registry::parse_value;

fn declaration(mut document: Value) -> Declaration {
    // The guard does not read the level; the lint requires one (E126).
    if document.get("danger_level").is_none() {
        document["danger_level"] = json!("mutating");
    }
    let parsed = parse_value(&document, &Origin::default());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.declaration.unwrap()
}

/// One parameter named `value` of the given shape, passed to a subprocess
/// or not.
fn single(parameter: Value, user_controlled: bool) -> Declaration {
    // A parameter that reaches no subprocess is a lint error (E122), so
    // "not passed on" means a command that only validates.
    if user_controlled {
        declaration(json!({
            "name": "probe",
            "description": "probe",
            "parameters": {"value": parameter},
            "subprocess": {"binary": "probe", "user_controlled_args": ["value"]}
        }))
    } else {
        declaration(json!({
            "name": "probe",
            "description": "probe",
            "parameters": {"value": parameter}
        }))
    }
}

/// A deploy command with an ID, a semver and an optional custom pattern
/// (the shape of the built-in `deploy`, plus a `ticket-ref`).
fn deploy() -> Declaration {
    declaration(json!({
        "name": "deploy",
        "description": "Deploy an artifact version to a cluster",
        "danger_level": "mutating",
        "parameters": {
            "cluster-id": {"type": "string", "required": true, "pattern_type": "alphanumeric_id"},
            "version": {"type": "string", "required": true, "pattern_type": "semver"},
            "ticket-ref": {"type": "string", "pattern": "^[A-Z]{2,8}-[0-9]{1,6}$"}
        },
        "subprocess": {
            "binary": "kubectl",
            "argv": [
                {"param": "cluster-id", "flag": "--context", "form": "joined"},
                "set", "image", "deployment/web",
                {"param": "version", "prefix": "web=registry.example.com/web:"},
                {"param": "ticket-ref", "flag": "--field-manager", "form": "joined"}
            ]
        }
    }))
}

fn flags(declaration: &Declaration, words: &[&str]) -> Result<ValidatedArguments, Rejection> {
    let tokens: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
    check(declaration, &RawArguments::Flags(&tokens))
}

fn one(declaration: &Declaration, value: &str) -> Result<ValidatedArguments, Rejection> {
    let tokens = vec!["--value".to_owned(), value.to_owned()];
    check(declaration, &RawArguments::Flags(&tokens))
}

fn rules(result: &Result<ValidatedArguments, Rejection>) -> Vec<&'static str> {
    match result {
        Ok(_) => Vec::new(),
        Err(rejection) => rejection
            .violations
            .iter()
            .map(|violation| violation.rule.as_str())
            .collect(),
    }
}

fn resource_id() -> Declaration {
    single(json!({"type": "resource_id", "required": true}), false)
}

fn typed(pattern_type: &str) -> Declaration {
    single(
        json!({"type": "string", "required": true, "pattern_type": pattern_type}),
        false,
    )
}

#[test]
fn alphanumeric_id_rejects_path_query_fragment_and_percent_characters() {
    let id = typed("alphanumeric_id");
    for (value, rule) in [
        ("prod/east", "alphanumeric_id"),
        ("prod.east", "alphanumeric_id"),
        ("prod?x=1", "query_parameter"),
        ("prod#frag", "fragment_identifier"),
        ("prod%2Feast", "percent_encoded"),
        ("prod%", "alphanumeric_id"),
        ("../prod", "path_traversal"),
    ] {
        let result = one(&id, value);
        assert!(
            rules(&result).contains(&rule),
            "{value}: {:?}",
            rules(&result)
        );
    }
    assert!(one(&id, "prod-east-1").is_ok());
}

#[test]
fn anchored_custom_regex_matches_the_whole_value() {
    let declaration = deploy();
    let base = ["--cluster-id", "prod", "--version", "1.2.3", "--ticket-ref"];
    let with_ticket = |ticket: &str| {
        let mut words = base.to_vec();
        words.push(ticket);
        flags(&declaration, &words)
    };
    assert!(with_ticket("OPS-1234").is_ok());
    for bad in ["OPS-1234x", "xOPS-1234", "ops-1234", "OPS-1234\n", "OPS-"] {
        let result = with_ticket(bad);
        let rejection = result.as_ref().unwrap_err();
        assert_eq!(rejection.violations[0].field, "ticket-ref", "{bad}");
        assert_eq!(
            rejection.violations[0].expected,
            "a string matching ^[A-Z]{2,8}-[0-9]{1,6}$; no shell metacharacters"
        );
    }
}

#[test]
fn rejection_names_the_argument_and_the_expected_pattern() {
    let result = flags(
        &deploy(),
        &["--cluster-id", "../etc", "--version", "v1.2.3"],
    );
    let rejection = result.unwrap_err();
    let fields: Vec<(&str, &str)> = rejection
        .violations
        .iter()
        .map(|violation| (violation.field.as_str(), violation.rule.as_str()))
        .collect();
    assert_eq!(
        fields,
        [("cluster-id", "path_traversal"), ("version", "semver")]
    );
    assert!(
        rejection.violations[0]
            .expected
            .contains("^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$")
    );
    assert_eq!(rejection.error_code(), "INVALID_AGENT_INPUT");
    let body = rejection.to_error_body();
    assert_eq!(body.field.as_deref(), Some("cluster-id"));
    assert_eq!(body.input_value.as_deref(), Some("../etc"));
    assert_eq!(body.rejected_pattern.as_deref(), Some("path_traversal"));
    assert_eq!(body.errors.len(), 2);
}

#[test]
fn traversal_encoding_and_query_are_rejected_with_suggestions() {
    let id = resource_id();
    assert_eq!(rules(&one(&id, "../secrets")), ["path_traversal"]);
    let encoded = one(&id, "%2e%2e").unwrap_err();
    assert_eq!(
        encoded
            .violations
            .iter()
            .map(|v| v.rule.as_str())
            .collect::<Vec<_>>(),
        ["path_traversal", "percent_encoded"]
    );
    let query = one(&id, "file-123?foo=bar").unwrap_err();
    assert_eq!(query.violations[0].rule, Rule::QueryParameter);
    assert_eq!(query.violations[0].suggestion.as_deref(), Some("file-123"));
    let decoded = one(&id, "file%2D123").unwrap_err();
    assert_eq!(
        decoded.violations[0].suggestion.as_deref(),
        Some("file-123")
    );
}

#[test]
fn absolute_path_passes_unchanged() {
    let path = typed("filepath");
    for value in [
        "/home/user/file.txt",
        "./a b/c.txt",
        "relative/dir/",
        "C:\\Users\\me\\notes.md",
        "~/x",
    ] {
        let validated = one(&path, value).unwrap();
        assert_eq!(
            validated.get("value"),
            Some(&ArgValue::String(value.to_owned())),
            "{value}"
        );
    }
}

/// Every way of spelling a traversal, a separator or a hidden character
/// that we know of; each must be rejected as a resource_id. The JSON
/// Schema export is held to it too (`registry::json_schema`).
pub(crate) const ENCODED_VARIANTS: &[&str] = &[
    // plain and backslash forms
    "../etc/passwd",
    "..\\windows\\win.ini",
    "a/../../b",
    "....//....//etc",
    ".../x",
    "..",
    // single, double and triple percent-encoding
    "%2e%2e%2fetc",
    "%2E%2E/etc",
    "..%2fetc",
    "..%5cwindows",
    "%252e%252e%252fetc",
    "%25252e%25252e/etc",
    // %u and overlong UTF-8
    "%u002e%u002e/etc",
    "%c0%ae%c0%ae/etc",
    "..%c0%afetc",
    "%e0%80%ae%e0%80%ae/x",
    "..%c1%9cwin",
    // fullwidth and look-alike separators
    "．．／etc",
    "．．＼win",
    "..∕etc",
    "..⁄etc",
    "..⧸etc",
    "\u{2025}/etc",
    // NUL, encoded NUL, control characters
    "file\u{0}.txt",
    "file%00.txt",
    "file%2500.txt",
    "file\u{7}",
    "file\u{85}x",
    // zero-width and bidi
    "file\u{200B}id",
    "file\u{200D}id",
    "file\u{FEFF}id",
    "abc\u{202E}fdp.exe",
    "abc\u{2066}x\u{2069}",
    "file%E2%80%8Bid",
    // query, fragment, shell and placeholders
    "id?x=1",
    "id&x=1",
    "id#frag",
    "id%3Fx%3D1",
    "id;rm -rf",
    "id|cat",
    "$(id)",
    "`id`",
    "null",
    "undefined",
    "None",
    "NaN",
    "{{file_id}}",
    "${FILE_ID}",
    "<file-id>",
    "",
];

#[test]
fn encoded_variants_are_all_rejected() {
    let id = resource_id();
    let path = typed("filepath");
    for variant in ENCODED_VARIANTS {
        assert!(
            one(&id, variant).is_err(),
            "resource_id accepted {variant:?}"
        );
    }
    // The path rules (traversal, NUL, control characters) hold for
    // filepath too, in every encoding.
    for variant in ENCODED_VARIANTS.iter().filter(|variant| {
        let normalized = normalize::normalize(variant).value;
        rules::has_path_traversal(&normalized)
            || normalized.chars().any(|ch| rules::is_control(ch, true))
    }) {
        assert!(
            one(&path, variant).is_err(),
            "filepath accepted {variant:?}"
        );
    }
}

/// Values each pattern type must accept (and the export with it).
pub(crate) const BENIGN: &[(&str, &[&str])] = &[
    (
        "resource_id",
        &[
            "file-123",
            "f_9a8b7c",
            "prod-east-1",
            "arn:aws:s3:::my-bucket",
            "gid://shopify/Product/10079785100",
            "users/42",
            "v1.2.3",
            "2024-05-01T12:00:00Z",
            "a.b.c",
            "ÄÖÜ-東京",
            "x",
        ],
    ),
    (
        "alphanumeric_id",
        &["prod-east-1", "A", "9lives", "snake_case_id", "x-1_2-3"],
    ),
    (
        "uuid",
        &[
            "123e4567-e89b-12d3-a456-426614174000",
            "00000000-0000-0000-0000-000000000000",
            "A987FBC9-4BED-3078-CF07-9141BA07C9F3",
        ],
    ),
    (
        "semver",
        &[
            "1.2.3",
            "0.0.1",
            "10.20.30",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-0.3.7",
            "1.0.0-x.7.z.92",
            "1.0.0-alpha+001",
            "1.0.0+20130313144700",
            "1.0.0-beta+exp.sha.5114f85",
            "1.0.0+21AF26D3----117B344092BD",
        ],
    ),
    (
        "filepath",
        &[
            "/home/user/file.txt",
            "./a b/c.txt",
            "../../../not-rejected?no",
            "/tmp/x..y/z",
            "/srv/.hidden/file",
            "data/2024-05-01.csv",
            "C:\\Users\\me\\file.txt",
            "/opt/app/v1.2.3/bin",
            "café/naïve.txt",
            "/tmp/100%",
            "/tmp/report#1.txt",
            "a/．/b",
            "写真/㈱.jpg",
            "資料/テスト（仮）.txt",
        ],
    ),
    (
        "url",
        &[
            "https://example.com",
            "https://example.com/search?q=rust+lang&page=2",
            "http://localhost:8080/api/v1/items?id=5#details",
            "https://api.example.com/v1/files/abc%20def",
            "https://example.com/a/./b",
            "https://[::1]:8443/health",
            "https://example.com/path?next=../x",
            "https://example.com/items?filter[name]=x&page[size]=10",
            "HTTPS://example.com/Straße",
            "https://example.com/a/..b/c..",
        ],
    ),
];

#[test]
fn benign_values_are_all_accepted() {
    for (kind, values) in BENIGN {
        let declaration = if *kind == "resource_id" {
            resource_id()
        } else {
            typed(kind)
        };
        for value in *values {
            if *kind == "filepath" && value.starts_with("../") {
                continue;
            }
            let result = one(&declaration, value);
            assert!(
                result.is_ok(),
                "{kind} rejected {value:?}: {:?}",
                result.unwrap_err().violations
            );
            assert_eq!(
                result.unwrap().get("value"),
                Some(&ArgValue::String((*value).to_owned()))
            );
        }
    }
    // free text keeps its newlines, tabs and emoji
    let text = single(json!({"type": "string"}), false);
    assert!(
        one(
            &text,
            "Fix the bug\n\n- item\twith tab 👩‍💻; and (parens) & $dollars"
        )
        .is_ok()
    );
    // Text in CJK scripts, passed to a subprocess: its fullwidth and
    // enclosed forms fold to ASCII metacharacters under NFKC, but no shell
    // or program reads them as such.
    let passed_text = single(json!({"type": "string"}), true);
    let passed_path = single(json!({"type": "string", "pattern_type": "filepath"}), true);
    for value in [
        "テスト（仮）",
        "注意；確認",
        "Ｑ＆Ａ",
        "㈱トヨタ",
        "⑴ first",
        "写真/㈱.jpg",
        "＄１００",
        "ａ｜ｂ",
        "❤️ emoji with a variation selector",
        "葛󠄀城市",
    ] {
        for declaration in [&passed_text, &passed_path] {
            let result = one(declaration, value);
            assert!(
                result.is_ok(),
                "rejected {value:?}: {:?}",
                result.unwrap_err().violations
            );
            assert_eq!(
                result.unwrap().get("value"),
                Some(&ArgValue::String(value.to_owned()))
            );
        }
    }
}

#[test]
fn invisible_characters_and_backslash_look_alikes_are_refused() {
    for value in [
        "file\u{34F}id",
        "\u{115F}id",
        "id\u{1160}",
        "\u{3164}",
        "id\u{2800}",
        "id\u{FFA0}",
        "id\u{17B4}",
    ] {
        assert_eq!(
            rules(&one(&resource_id(), value)),
            ["control_character"],
            "{value:?}"
        );
        assert!(one(&typed("filepath"), value).is_err(), "{value:?}");
    }
    for value in ["a∖..∖b", "a⧹..⧹b", "..﹨x"] {
        assert_eq!(
            rules(&one(&typed("filepath"), value)),
            ["path_traversal"],
            "{value}"
        );
        assert!(one(&resource_id(), value).is_err(), "{value}");
    }
    // One fullwidth dot is not a traversal, however many bytes it takes.
    assert!(one(&typed("filepath"), "a/．/b").is_ok());
    assert!(one(&typed("filepath"), "a/．．/b").is_err());
}

#[test]
fn a_filepath_with_a_traversal_is_rejected() {
    assert_eq!(
        rules(&one(&typed("filepath"), "../../../etc/passwd")),
        ["path_traversal"]
    );
}

#[test]
fn url_rules() {
    let url = typed("url");
    assert_eq!(
        rules(&one(&url, "https://example.com/a/../b")),
        ["path_traversal"]
    );
    assert_eq!(
        rules(&one(&url, "https://example.com/a/%2e%2e/b")),
        ["path_traversal"]
    );
    assert_eq!(rules(&one(&url, "https://user:pw@example.com/")), ["url"]);
    assert_eq!(rules(&one(&url, "https://example.com/a b")), ["url"]);
    assert_eq!(
        rules(&one(&url, "https://example.com/\u{7}")),
        ["control_character"]
    );
    assert_eq!(rules(&one(&url, "ftp://example.com/")), ["url"]);
}

/// The path is split off the raw URL before decoding, so an encoded `?` or
/// `#` cannot end it early; `..;` is a traversal to servers that strip
/// segment parameters.
#[test]
fn url_traversal_behind_encoded_delimiters_and_segment_parameters() {
    let url = typed("url");
    for value in [
        "https://h/api/v1/files%3F/%2e%2e/%2e%2e/admin/users",
        "https://h/a%23/%2e%2e/admin",
        "https://h/a/..;/b",
        "https://h/a/%2e%2e;/b",
        "https://h/a/..;jsessionid=1/b",
        "https://h/a/%252e%252e%253f/b",
    ] {
        assert_eq!(rules(&one(&url, value)), ["path_traversal"], "{value}");
    }
    for value in [
        "https://h/a;b/c",
        "https://h/a/.;/b",
        "https://h/search?q=..;x",
        "https://h/a#..;/b",
    ] {
        assert!(one(&url, value).is_ok(), "{value}");
    }
}

#[test]
fn semver_is_exact() {
    let version = typed("semver");
    for bad in ["v1.2.3", "01.2.3", "1.2", "1.2.3.4", "1.2.3-01", " 1.2.3"] {
        assert!(one(&version, bad).is_err(), "{bad}");
    }
}

#[test]
fn user_controlled_arguments_refuse_shell_and_option_injection() {
    let passed = single(json!({"type": "string"}), true);
    assert_eq!(rules(&one(&passed, "--help")), ["option_injection"]);
    assert_eq!(rules(&one(&passed, "a; rm -rf /")), ["shell_metacharacter"]);
    assert_eq!(rules(&one(&passed, "a%7Cb")), ["shell_metacharacter"]);
    assert_eq!(rules(&one(&passed, "line\nbreak")), ["shell_metacharacter"]);
    let not_passed = single(json!({"type": "string"}), false);
    assert!(one(&not_passed, "--help").is_ok());
    let allowed = single(json!({"type": "string", "allow_leading_dash": true}), true);
    assert!(one(&allowed, "--verbose").is_ok());
    let number = single(json!({"type": "integer"}), true);
    assert_eq!(rules(&one(&number, "-1")), ["option_injection"]);
}

/// A parameter that reaches the subprocess only through `subprocess.env`
/// gets the argv value rules (issue #30): programs read options
/// (`TAR_OPTIONS`, `LESS`) and commands (`PAGER`) from variables too.
#[test]
fn env_bound_values_get_the_argv_value_rules() {
    let env_bound = |parameter: Value| {
        declaration(json!({
            "name": "probe",
            "description": "probe",
            "parameters": {"value": parameter},
            "subprocess": {"binary": "probe", "env": {"PROBE_VALUE": {"param": "value"}}}
        }))
    };
    let plain = env_bound(json!({"type": "string"}));
    assert_eq!(rules(&one(&plain, "--to-command=sh")), ["option_injection"]);
    assert_eq!(rules(&one(&plain, "a; rm -rf /")), ["shell_metacharacter"]);
    assert_eq!(rules(&one(&plain, "$(id)")), ["shell_metacharacter"]);
    assert_eq!(rules(&one(&plain, "a%7Cb")), ["shell_metacharacter"]);
    assert!(one(&plain, "plain-value").is_ok());
    let allowed = env_bound(json!({"type": "string", "allow_leading_dash": true}));
    assert!(one(&allowed, "--verbose").is_ok());
    let text = env_bound(json!({"type": "string", "pattern_type": "free_text"}));
    assert!(
        one(&text, "fix: a | b; c").is_ok(),
        "free text may hold metacharacters"
    );
    let number = env_bound(json!({"type": "integer"}));
    assert_eq!(rules(&one(&number, "-1")), ["option_injection"]);
    let items = env_bound(json!({"type": "array"}));
    assert_eq!(rules(&one(&items, "-x")), ["option_injection"]);
}

#[test]
fn types_required_enums_and_unknown_flags() {
    let declaration = declaration(json!({
        "name": "t", "description": "t",
        "parameters": {
            "count": {"type": "integer", "required": true},
            "ratio": {"type": "number"},
            "force": {"type": "boolean"},
            "mode": {"type": "enum", "enum_values": ["fast", "safe"], "default": "safe"},
            "tags": {"type": "array", "pattern_type": "alphanumeric_id"}
        }
    }));
    let ok = flags(
        &declaration,
        &[
            "--count",
            "3",
            "--ratio=0.5",
            "--force",
            "--tags",
            "a",
            "--tags",
            "b",
        ],
    )
    .unwrap();
    assert_eq!(ok.get("count"), Some(&ArgValue::Integer(3)));
    assert_eq!(
        ok.get("ratio"),
        Some(&ArgValue::Number(Decimal::parse("0.5").unwrap()))
    );
    assert_eq!(ok.get("force"), Some(&ArgValue::Boolean(true)));
    assert_eq!(ok.get("mode"), Some(&ArgValue::String("safe".into())));
    assert_eq!(
        ok.get("tags"),
        Some(&ArgValue::Array(vec!["a".into(), "b".into()]))
    );
    assert_eq!(
        ok.arguments
            .iter()
            .map(|argument| argument.name.as_str())
            .collect::<Vec<_>>(),
        ["count", "ratio", "force", "mode", "tags"],
        "declared order"
    );
    assert_eq!(ok.arguments[3].source, ValueSource::Default);

    let bad = flags(
        &declaration,
        &[
            "--ratio", "inf", "--mode", "fsat", "--tags", "a/b", "--count", "007", "--cuont", "1",
        ],
    )
    .unwrap_err();
    let found: Vec<(&str, &str)> = bad
        .violations
        .iter()
        .map(|v| (v.field.as_str(), v.rule.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("cuont", "unknown_parameter"),
            ("count", "type"),
            ("ratio", "type"),
            ("mode", "enum"),
            ("tags[0]", "alphanumeric_id")
        ]
    );
    assert_eq!(bad.violations[0].suggestion.as_deref(), Some("count"));
    assert_eq!(bad.violations[3].suggestion.as_deref(), Some("fast"));
    assert_eq!(bad.error_code(), "ARG_ERROR");

    let missing = flags(&declaration, &[]).unwrap_err();
    assert_eq!(missing.violations[0].rule, Rule::Required);
    assert_eq!(missing.violations[0].field, "count");
}

#[test]
fn numbers_are_never_rewritten() {
    let declaration = declaration(json!({
        "name": "n", "description": "n",
        "parameters": {"int": {"type": "integer"}, "num": {"type": "number"}}
    }));
    let json_check = |text: &str| check(&declaration, &RawArguments::Json(text));
    for refused in [
        r#"{"int": 1e3}"#,
        r#"{"int": 1.0}"#,
        r#"{"int": 4503599627370497.5}"#,
        r#"{"int": -0}"#,
        r#"{"int": 18446744073709551615}"#,
        r#"{"num": 1e-400}"#,
    ] {
        assert_eq!(rules(&json_check(refused)), ["type"], "{refused}");
    }
    let thousand = json_check(r#"{"int": 1e3}"#).unwrap_err();
    assert_eq!(thousand.violations[0].input_value.as_deref(), Some("1e3"));
    assert_eq!(thousand.violations[0].suggestion.as_deref(), Some("1000"));
    for (text, kept) in [
        (r#"{"num": 4503599627370497.5}"#, "4503599627370497.5"),
        (r#"{"num": 1e3}"#, "1e3"),
        (r#"{"num": 2.50}"#, "2.50"),
    ] {
        let validated = json_check(text).unwrap();
        assert_eq!(
            validated.get("num"),
            Some(&ArgValue::Number(Decimal::parse(kept).unwrap())),
            "{text}"
        );
    }
    assert_eq!(
        flags(&declaration, &["--int", "18446744073709551615"])
            .unwrap_err()
            .violations[0]
            .message,
        "`int` is out of range (a 64-bit signed integer)"
    );
    assert!(flags(&declaration, &["--num", "1e-400"]).is_err());
    assert!(flags(&declaration, &["--int", "-0"]).is_err());
}

#[test]
fn json_arguments() {
    let declaration = deploy();
    let json_check = |text: &str| check(&declaration, &RawArguments::Json(text));
    let ok =
        json_check(r#"{"cluster-id": "prod", "version": "1.2.3", "ticket-ref": null}"#).unwrap();
    assert_eq!(ok.get("ticket-ref"), None);
    assert_eq!(rules(&json_check("[1, 2]")), ["json"]);
    assert_eq!(rules(&json_check("\"deploy\"")), ["json"]);
    assert_eq!(rules(&json_check("{nope")), ["json"]);
    assert_eq!(
        rules(&json_check(
            r#"{"cluster-id": "a", "cluster-id": "b", "version": "1.2.3"}"#
        )),
        ["duplicate_key"]
    );
    let polluted = json_check(
        r#"{"cluster-id": "prod", "version": "1.2.3", "extra": {"deep": [{"__proto__": {"admin": true}}]}}"#,
    );
    let rejection = polluted.unwrap_err();
    assert_eq!(rejection.violations.len(), 1, "stops before schema checks");
    assert_eq!(rejection.violations[0].rule, Rule::PrototypeKey);
    assert_eq!(rejection.violations[0].field, "extra.deep[0].__proto__");
    assert_eq!(
        rules(&json_check(
            r#"{"cluster-id": "prod", "version": "1.2.3", "region": "eu"}"#
        )),
        ["unknown_parameter"]
    );
    assert_eq!(
        rules(&json_check(r#"{"cluster-id": 7, "version": "1.2.3"}"#)),
        ["type"]
    );
}

fn mcp(name: &str) -> Declaration {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("commands")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(path).unwrap();
    declaration(serde_json::from_str(&text).unwrap())
}

#[test]
fn mcp_input_schema_is_validated_and_guarded() {
    let shell = mcp("shell_exec");
    let json_check = |text: &str| check(&shell, &RawArguments::Json(text));
    let ok = json_check(r#"{"argv": ["ls", "-la", "/tmp"]}"#).unwrap();
    assert_eq!(
        ok.get("argv"),
        Some(&ArgValue::Array(vec![
            "ls".into(),
            "-la".into(),
            "/tmp".into()
        ]))
    );
    assert_eq!(rules(&json_check(r#"{"argv": []}"#)), ["schema"]);
    assert_eq!(
        rules(&json_check(r#"{"cmd": "ls -la"}"#)),
        ["unknown_parameter", "required"]
    );
    assert_eq!(rules(&json_check(r#"{"argv": "ls -la"}"#)), ["type"]);
    assert_eq!(rules(&json_check(r#"{"argv": ["ls", 3]}"#)), ["type"]);
    assert_eq!(
        rules(&json_check(r#"{"argv": ["PATH=/x", "ls"]}"#)),
        ["pattern"]
    );
    assert_eq!(
        rules(&json_check(r#"{"argv": ["sh", "x; rm -rf /"]}"#)),
        ["shell_metacharacter"]
    );
    assert_eq!(
        rules(&json_check(r#"{"argv": ["ls"], "__proto__": {}}"#)),
        ["prototype_key"]
    );
    let field = json_check(r#"{"argv": ["ls", 3]}"#).unwrap_err().violations[0]
        .field
        .clone();
    assert_eq!(field, "argv[1]");

    let read = mcp("read_file");
    assert!(
        check(
            &read,
            &RawArguments::Json(r#"{"path": "/home/user/file.txt"}"#)
        )
        .is_ok()
    );
    let tokens = vec!["--path".to_owned(), "../../etc/shadow".to_owned()];
    assert_eq!(
        rules(&check(&read, &RawArguments::Flags(&tokens))),
        ["path_traversal"]
    );
    let tokens = vec!["--path".to_owned(), "%2e%2e/%2e%2e/etc/shadow".to_owned()];
    assert_eq!(
        rules(&check(&read, &RawArguments::Flags(&tokens))),
        ["path_traversal"]
    );
    let tokens = vec!["--path".to_owned(), "-n".to_owned()];
    assert_eq!(
        rules(&check(&read, &RawArguments::Flags(&tokens))),
        ["option_injection"]
    );
}

#[test]
fn prototype_keys_are_refused_in_flags_too() {
    let open = declaration(json!({
        "name": "m", "description": "d",
        "input_schema": {"type": "object", "additionalProperties": true, "properties": {
            "opts": {"type": "object", "additionalProperties": true},
            "list": {"type": "array", "items": {"type": "object"}}
        }}
    }));
    for words in [
        &["--opts", r#"{"__proto__": {"isAdmin": true}}"#][..],
        &[
            "--opts",
            r#"{"a": {"constructor": {"prototype": {"x": 1}}}}"#,
        ],
        &["--__proto__", "x"],
        &["--constructor", "y"],
        &["--list", r#"{"prototype": 1}"#],
    ] {
        let result = flags(&open, words);
        assert!(
            rules(&result).contains(&"prototype_key"),
            "{words:?}: {:?}",
            rules(&result)
        );
    }
    assert!(flags(&open, &["--opts", r#"{"a": 1}"#]).is_ok());
}

#[test]
fn sensitive_values_never_leak_from_failed_documents() {
    let token = single(json!({"type": "string", "sensitive": true}), false);
    for text in [
        r#"{"value": "hunter2", "value": "hunter3"}"#,
        r#"{"value": "hunter2",}"#,
        r#"["hunter2"]"#,
        r#"{"valeu": "hunter2"}"#,
    ] {
        let rejection = check(&token, &RawArguments::Json(text)).unwrap_err();
        let body = serde_json::to_string(&rejection.to_error_body()).unwrap();
        assert!(!body.contains("hunter"), "{text}: {body}");
    }
    let rejection = flags(&token, &["--value", "hunter2", "hunter3"]).unwrap_err();
    assert_eq!(rejection.violations[0].rule, Rule::UnexpectedArgument);
    let body = serde_json::to_string(&rejection.to_error_body()).unwrap();
    assert!(!body.contains("hunter"), "{body}");
    let schema = declaration(json!({
        "name": "m", "description": "d",
        "input_schema": {"type": "object", "properties": {
            "token": {"type": "string", "x-aigent-sensitive": true}
        }}
    }));
    for words in [
        &["--token", "s3cret", "--token", "s3cret2"][..],
        &["--tokn", "s3cret"],
        &["--token"],
        &["--token", "s3cret", "s3cret2"],
    ] {
        let rejection = flags(&schema, words).unwrap_err();
        let body = serde_json::to_string(&rejection.to_error_body()).unwrap();
        assert!(!body.contains("s3cret"), "{words:?}: {body}");
    }
    let rejection = check(&schema, &RawArguments::Json(r#"{"token": "s3cret",}"#)).unwrap_err();
    let body = serde_json::to_string(&rejection.to_error_body()).unwrap();
    assert!(!body.contains("s3cret"), "{body}");
}

#[test]
fn aigent_keywords_apply_through_refs_and_all_of() {
    let schema = declaration(json!({
        "name": "r", "description": "d",
        "input_schema": {"type": "object",
            "$defs": {
                "secret": {"type": "string", "x-aigent-sensitive": true},
                "rid": {"type": "string", "x-aigent-pattern-type": "resource_id"},
                "ids": {"type": "array", "items": {"$ref": "#/$defs/rid"}}
            },
            "properties": {
                "token": {"$ref": "#/$defs/secret"},
                "id": {"$ref": "#/$defs/rid"},
                "id2": {"allOf": [{"type": "string", "x-aigent-pattern-type": "resource_id"}]},
                "many": {"$ref": "#/$defs/ids"}
            }},
        "subprocess": {"binary": "echo", "hardcoded_args": [], "user_controlled_args": ["token", "id", "id2", "many"]}
    }));
    let found = flags(
        &schema,
        &[
            "--token",
            "hunter2\u{7}",
            "--id",
            "../../etc/passwd",
            "--id2",
            "x?y=%2e%2e",
            "--many",
            "a#b",
        ],
    )
    .unwrap_err();
    let fields: Vec<(&str, &str)> = found
        .violations
        .iter()
        .map(|violation| (violation.field.as_str(), violation.rule.as_str()))
        .collect();
    for expected in [
        ("token", "control_character"),
        ("id", "path_traversal"),
        ("id2", "query_parameter"),
        ("many[0]", "fragment_identifier"),
    ] {
        assert!(fields.contains(&expected), "{expected:?} in {fields:?}");
    }
    let body = serde_json::to_string(&found.to_error_body()).unwrap();
    assert!(!body.contains("hunter2"), "{body}");
    let ok = flags(&schema, &["--token", "hunter2", "--id", "users-42"]).unwrap();
    assert_eq!(ok.to_redacted_json()["token"], REDACTED);
}

#[test]
fn null_for_an_optional_property_is_absent() {
    let schema = declaration(json!({
        "name": "n", "description": "d",
        "input_schema": {"type": "object", "properties": {
            "a": {"type": "string"},
            "b": {"type": "boolean", "default": true},
            "c": {"type": ["string", "null"]}
        }, "required": ["a", "c"]},
        "subprocess": {"binary": "t", "hardcoded_args": [], "user_controlled_args": ["a", "b", "c"]}
    }));
    let json_check = |text: &str| check(&schema, &RawArguments::Json(text));
    let ok = json_check(r#"{"a": "x", "b": null, "c": null}"#).unwrap();
    assert_eq!(
        ok.get("b"),
        Some(&ArgValue::Boolean(true)),
        "the default fills in"
    );
    assert_eq!(ok.get("c"), None, "a null the schema allows is no value");
    assert_eq!(rules(&json_check(r#"{"a": null, "c": "y"}"#)), ["type"]);
}

#[test]
fn negative_numbers_in_an_input_schema_array_are_option_injection() {
    let sizes = declaration(json!({
        "name": "sizes", "description": "d",
        "input_schema": {"type": "object", "properties": {
            "sizes": {"type": "array", "items": {"type": "integer"}},
            "offsets": {"type": "array", "items": {"type": "integer"}, "x-aigent-allow-leading-dash": true}
        }},
        "subprocess": {"binary": "t", "hardcoded_args": [], "user_controlled_args": ["sizes", "offsets"]}
    }));
    let json_check = |text: &str| check(&sizes, &RawArguments::Json(text));
    assert_eq!(
        rules(&json_check(r#"{"sizes": [1, -2]}"#)),
        ["option_injection"]
    );
    assert_eq!(
        json_check(r#"{"sizes": [1, -2]}"#).unwrap_err().violations[0].field,
        "sizes[1]"
    );
    assert!(json_check(r#"{"sizes": [1, 2], "offsets": [-5]}"#).is_ok());
}

#[test]
fn sensitive_values_are_flagged_for_redaction() {
    let secret = single(
        json!({"type": "string", "pattern": "^[a-z]+$", "sensitive": true}),
        false,
    );
    let rejection = one(&secret, "Hunter2").unwrap_err();
    assert!(rejection.violations[0].sensitive);
    let body = serde_json::to_string(&rejection.to_error_body()).unwrap();
    assert!(!body.contains("Hunter2"), "{body}");
    let ok = one(&secret, "hunter").unwrap();
    assert_eq!(ok.to_redacted_json(), json!({"value": REDACTED}));
    assert_eq!(ok.get("value"), Some(&ArgValue::String("hunter".into())));
}

#[test]
fn defaults_are_checked_by_the_lint() {
    let parsed = parse_value(
        &json!({"name": "d", "description": "d", "parameters": {"id": {"type": "string", "pattern_type": "uuid", "default": "not-a-uuid"}}}),
        &Origin::default(),
    );
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.code == crate::contract::codes::Code::DefaultInvalid)
    );
}

#[test]
fn input_schema_defaults_are_checked_by_the_lint() {
    let parsed = parse_value(
        &json!({"name": "d", "description": "d",
            "input_schema": {"type": "object", "properties": {
                "p": {"type": "string", "x-aigent-pattern-type": "resource_id", "default": "../etc;rm"},
                "q": {"type": "string", "default": "-rf"},
                "n": {"type": "integer", "default": "notanint"},
                "m": {"type": "string", "maxLength": 2, "default": "abc"},
                "ok": {"type": "string", "default": "fine"},
                "off": {"type": ["string", "null"], "default": null}
            }},
            "subprocess": {"binary": "echo", "hardcoded_args": [], "user_controlled_args": ["p", "q", "n", "ok"]}}),
        &Origin::default(),
    );
    let fields: Vec<&str> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == crate::contract::codes::Code::DefaultInvalid)
        .filter_map(|d| d.field.as_deref())
        .collect();
    assert_eq!(
        fields,
        [
            "input_schema.properties.p.default",
            "input_schema.properties.q.default",
            "input_schema.properties.n.default",
            "input_schema.properties.m.default"
        ]
    );
    assert!(parsed.declaration.is_none());
}

/// A `..` segment in some encoding, with a separator on each side that
/// has a neighbour (`/../` inside an ID, `../` at its start, `/..` at its
/// end).
fn traversal() -> impl Strategy<Value = (String, String, String)> {
    let dot = prop::sample::select(vec![
        ".", "%2e", "%2E", "%252e", "%u002e", "%c0%ae", "．", "%25252e",
    ]);
    let slash = prop::sample::select(vec![
        "/", "\\", "%2f", "%5c", "%252f", "%c0%af", "／", "＼", "∕", "⁄", "⧸",
    ]);
    (dot.clone(), dot, slash).prop_map(|(first, second, slash)| {
        (
            slash.to_owned(),
            format!("{first}{second}"),
            slash.to_owned(),
        )
    })
}

fn benign_id() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9_-]{0,40}"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_guard_never_panics(value in any::<String>(), json_text in ".{0,64}") {
        for declaration in [resource_id(), typed("url"), typed("semver"), typed("filepath"), single(json!({"type": "integer"}), true)] {
            let _ = one(&declaration, &value);
            let _ = check(&declaration, &RawArguments::Json(&json_text));
        }
        let _ = check(&mcp("shell_exec"), &RawArguments::Json(&json_text));
    }

    #[test]
    fn a_traversal_inserted_anywhere_in_a_benign_id_is_rejected(
        id in benign_id(),
        at in any::<prop::sample::Index>(),
        inserted in traversal(),
    ) {
        let split = at.index(id.len() + 1);
        let (before, dots, after) = inserted;
        let (head, tail) = (&id[..split], &id[split..]);
        let value = format!(
            "{head}{}{dots}{}{tail}",
            if head.is_empty() { "" } else { before.as_str() },
            if tail.is_empty() { "" } else { after.as_str() },
        );
        let declaration = resource_id();
        prop_assert!(one(&declaration, &value).is_err(), "resource_id accepted {value:?}");
        prop_assert!(one(&typed("alphanumeric_id"), &value).is_err());
    }

    #[test]
    fn benign_generated_ids_are_accepted(id in benign_id()) {
        prop_assume!(!rules::is_placeholder(&id));
        for declaration in [resource_id(), typed("alphanumeric_id")] {
            let result = one(&declaration, &id);
            prop_assert!(result.is_ok(), "{id:?}: {:?}", result.unwrap_err().violations);
        }
    }

    #[test]
    fn benign_paths_are_accepted(segments in prop::collection::vec("[A-Za-z0-9_][A-Za-z0-9_ .-]{0,12}", 1..6), absolute in any::<bool>()) {
        let path = format!("{}{}", if absolute { "/" } else { "./" }, segments.join("/"));
        prop_assume!(!rules::has_path_traversal(&path) && !rules::is_placeholder(&path));
        let result = one(&typed("filepath"), &path);
        prop_assert!(result.is_ok(), "{path:?}: {:?}", result.unwrap_err().violations);
    }
}

/// A parameter `value` passed to `prog` as a word of its own.
fn passed(parameter: Value) -> Declaration {
    single(parameter, true)
}

#[test]
fn free_text_is_data_for_its_program() {
    let message = passed(json!({"type": "string", "pattern_type": "free_text"}));
    for value in [
        "Fix parser (again) & add tests",
        "a; b | c > d < e `f` $g $(h)",
        "line one\nline two\r\n\ttabbed",
        "Use ${HOME} in the config, not <name> literals",
        "family 👨\u{200D}👩\u{200D}👧",
        "%0A is not decoded in text",
        "TODO",
        "",
    ] {
        let result = one(&message, value);
        assert!(result.is_ok(), "{value:?}: {:?}", rules(&result));
        assert_eq!(
            result.unwrap().get("value"),
            Some(&ArgValue::String(value.to_owned()))
        );
    }
    for (value, rule) in [
        ("-m oops", "option_injection"),
        ("abc\u{202E}cba", "control_character"),
        ("nul\u{0}here", "control_character"),
        ("hangul\u{3164}filler", "control_character"),
        ("null", "placeholder_literal"),
        ("  NaN ", "placeholder_literal"),
        ("{{commit_message}}", "placeholder_literal"),
        ("${MESSAGE}", "placeholder_literal"),
        ("<message>", "placeholder_literal"),
    ] {
        assert_eq!(rules(&one(&message, value)), [rule], "{value:?}");
    }
    let long = "x".repeat(syntax::MAX_TEXT_BYTES + 1);
    assert_eq!(rules(&one(&message, &long)), ["free_text"]);
    // A plain string passed to a program still refuses metacharacters.
    let plain = passed(json!({"type": "string"}));
    assert_eq!(
        rules(&one(&plain, "Fix parser (again)")),
        ["shell_metacharacter"]
    );
}

#[test]
fn regex_values_compile_in_their_dialect() {
    let ere = passed(json!({"type": "string", "pattern_type": "regex", "regex_dialect": "ere"}));
    for value in [
        "(foo|bar)$",
        "^[[:alpha:]]+ [0-9]{2,4}$",
        "<title>.*</title>",
        "[<]title>",
        "a\\.b",
    ] {
        let result = one(&ere, value);
        assert!(result.is_ok(), "{value:?}: {:?}", rules(&result));
    }
    // A value that is only `<name>` reads as a placeholder, a regex too.
    assert_eq!(rules(&one(&ere, "<title>")), ["placeholder_literal"]);
    assert_eq!(rules(&one(&ere, "(foo|bar")), ["regex"]);
    assert_eq!(rules(&one(&ere, "[[:word:]]+")), ["regex"]);
    assert_eq!(rules(&one(&ere, "a\tb")), ["control_character"]);
    assert_eq!(rules(&one(&ere, "a\nb")), ["control_character"]);
    assert_eq!(rules(&one(&ere, "-v")), ["option_injection"]);
    let rejection = one(&ere, "(foo").unwrap_err();
    assert!(
        rejection.violations[0].message.contains("never closed"),
        "{}",
        rejection.violations[0].message
    );
    assert!(rejection.violations[0].expected.contains("ERE"));
    let pcre = passed(json!({"type": "string", "pattern_type": "regex", "regex_dialect": "pcre"}));
    assert!(one(&pcre, "(?<=a)b(?!c)").is_ok());
    let rust = passed(json!({"type": "string", "pattern_type": "regex", "regex_dialect": "rust"}));
    assert_eq!(rules(&one(&rust, "(a)\\1")), ["regex"]);
}

#[test]
fn pattern_and_pattern_type_both_apply() {
    let path = passed(json!({"type": "string", "pattern_type": "filepath", "pattern": "^src/.+$"}));
    assert!(one(&path, "src/lib.rs").is_ok());
    assert_eq!(rules(&one(&path, "lib/x.rs")), ["pattern"]);
    // The filepath rules still hold where the pattern would let it pass.
    assert_eq!(rules(&one(&path, "src/../etc/passwd")), ["path_traversal"]);
    assert_eq!(rules(&one(&path, "src/%2e%2e/etc")), ["path_traversal"]);
    let rejection = one(&path, "lib/x.rs").unwrap_err();
    assert!(
        rejection.violations[0]
            .expected
            .starts_with("filepath: an absolute or relative path"),
        "{}",
        rejection.violations[0].expected
    );
    assert!(
        rejection.violations[0]
            .expected
            .contains("matching ^src/.+$")
    );
}

#[test]
fn placeholders_are_refused_in_every_kind_of_string() {
    let author = passed(json!({"type": "string", "pattern": "^[A-Za-z ]+$"}));
    assert_eq!(rules(&one(&author, "null")), ["placeholder_literal"]);
    assert_eq!(rules(&one(&author, "None")), ["placeholder_literal"]);
    assert!(
        one(&author, "TODO").is_ok(),
        "a search term a pattern admits"
    );
    assert!(one(&author, "Nonesuch Smith").is_ok());
    let plain = single(json!({"type": "string"}), false);
    assert_eq!(rules(&one(&plain, "undefined")), ["placeholder_literal"]);
    assert_eq!(rules(&one(&plain, "{{name}}")), ["placeholder_literal"]);
    // A to-do word is a real search term in text and plain strings.
    assert!(one(&plain, "FIXME").is_ok());
    // Text around a template is a message about it.
    assert!(one(&plain, "set {{name}} in the template").is_ok());
    let id = typed("alphanumeric_id");
    assert!(rules(&one(&id, "prod-<region>")).contains(&"placeholder_literal"));
}

/// The guard corpus is still refused by every class that is not text:
/// declaring a value free text or a regex is the only way past the shell
/// rule.
#[test]
fn the_corpus_is_still_refused_unless_declared_text() {
    let user_string = passed(json!({"type": "string"}));
    for variant in ENCODED_VARIANTS {
        let has_shell = normalize::percent_decode(variant)
            .chars()
            .any(|ch| ";|&$()<>`\n\r".contains(ch));
        if has_shell {
            assert!(
                one(&user_string, variant).is_err(),
                "a plain user string accepted {variant:?}"
            );
        }
    }
}
