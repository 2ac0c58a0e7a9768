//! The plugin and marketplace manifest fuzz harness (issue #29): JSON of
//! random shapes as `.claude-plugin/plugin.json` and `marketplace.json`,
//! through the library `plugin validate` uses (`validate_manifest_text`,
//! which reads the text given and the files it names). No panic; and a
//! manifest eight times as large takes about eight times as long.
//!
//! `FUZZ_CASES` cases per property (default 256).

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Value, json};

use aigent::plugin::validate_manifest_text;
use aigent::skill::ValidateOptions;

fn config() -> Config {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |number| number.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        "(\\./|\\.\\./|/|[a-z]|-|\\.json|\\.md|\\$\\{CLAUDE_PLUGIN_ROOT\\}){0,8}"
            .prop_map(Value::from),
    ]
}

/// JSON of any shape, keyed mostly with the manifests' own field names.
fn manifest_value() -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(vec![
        "name",
        "version",
        "description",
        "author",
        "owner",
        "plugins",
        "source",
        "commands",
        "agents",
        "skills",
        "hooks",
        "mcpServers",
        "lspServers",
        "metadata",
        "pluginRoot",
        "category",
        "tags",
        "strict",
        "homepage",
        "repository",
        "license",
        "keywords",
        "url",
        "repo",
        "path",
        "ref",
        "email",
        "__proto__",
        "",
    ]);
    leaf().prop_recursive(5, 96, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::from),
            prop::collection::vec((keys.clone(), inner), 0..8).prop_map(|pairs| {
                Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

fn validate(root: &Path, file: &str, text: &str) -> Duration {
    let started = Instant::now();
    let path = root.join(".claude-plugin").join(file);
    let report = validate_manifest_text(&path, text, ValidateOptions::default());
    assert!(report.is_some(), "{file} is a manifest");
    started.elapsed()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn manifests_of_any_shape_never_panic(value in manifest_value(), raw in any::<String>()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".claude-plugin")).unwrap();
        for file in ["plugin.json", "marketplace.json"] {
            validate(dir.path(), file, &value.to_string());
            // The shape wrapped where each manifest expects an object.
            validate(dir.path(), file, &json!({"name": "p", "plugins": [value.clone()], "owner": value.clone()}).to_string());
            validate(dir.path(), file, &raw);
        }
    }
}

/// A marketplace of `count` entries naming missing sources and components.
fn marketplace(count: usize) -> String {
    let plugins: Vec<Value> = (0..count)
        .map(|index| {
            json!({"name": format!("p-{index}"), "source": format!("./plugins/p{index}"),
                   "commands": [format!("./c{index}.md"), "../out.md"], "tags": ["a", "b"],
                   "author": {"name": "x"}, "version": "1.0.0"})
        })
        .collect();
    json!({"name": "m", "owner": {"name": "o"}, "plugins": plugins}).to_string()
}

/// A plugin manifest of `count` component paths.
fn plugin(count: usize) -> String {
    let paths: Vec<String> = (0..count)
        .map(|index| format!("./commands/c{index}.md"))
        .collect();
    json!({"name": "p", "version": "1.0.0", "commands": paths, "agents": paths}).to_string()
}

/// Times `make(n)` and `make(8n)`, best of three each, and asserts about
/// linear growth (under 24 times, with a 50 ms floor for timer noise on
/// a loaded machine).
fn assert_linear(what: &str, file: &str, make: impl Fn(usize) -> String, n: usize) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude-plugin")).unwrap();
    let best = |text: &str| {
        (0..3)
            .map(|_| validate(dir.path(), file, text))
            .min()
            .unwrap()
    };
    let small = best(&make(n));
    let large = best(&make(8 * n));
    eprintln!("{what}: n={n} {small:?}, 8n {large:?}");
    let allowed = small.max(Duration::from_millis(50)) * 24;
    assert!(large <= allowed, "{what}: {large:?} at 8n, {small:?} at n");
}

#[test]
fn manifests_take_linear_time() {
    assert_linear("marketplace entries", "marketplace.json", marketplace, 250);
    assert_linear("plugin component paths", "plugin.json", plugin, 500);
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert_linear("nested arrays", "plugin.json", nested, 20_000);
}
