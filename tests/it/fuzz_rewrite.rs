//! The `skill fmt` and `skill fix` fuzz harness (issue #29): frontmatter
//! generated from the pieces YAML writers use (comments, anchors and
//! aliases, flow and block styles, quoted and plain scalars, block
//! scalars), with LF or CRLF line endings, with or without a BOM, and
//! unicode throughout. For every file:
//! - `fmt` either refuses or gives a file whose every value reads back the
//!   same and whose body is byte for byte the same, and formatting that
//!   again changes nothing;
//! - `fix` either writes nothing (it refuses, or has nothing to change) or
//!   proposes a file that validates, with the body kept.
//!
//! `FUZZ_CASES` cases per property (default 256).

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::Config;

use aigent::skill::Profile;
use aigent::skill::check::{CheckContext, check_text};
use aigent::skill::frontmatter::{self, YamlValue};
use aigent::skill::rewrite::fix::{FixContext, fix_text};
use aigent::skill::rewrite::fmt::format_text;

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

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9-]{0,12}",
        "[A-Za-z ,.]{1,30}",
        Just("Use when: the user asks".to_owned()),
        Just("é数Я🙂\u{301} ünïcode".to_owned()),
        Just("2.0".to_owned()),
        Just("true".to_owned()),
        Just("~".to_owned()),
        Just("a # not a comment".to_owned()),
        Just("x: y".to_owned()),
        Just("- item".to_owned()),
        Just("trailing space ".to_owned()),
        Just("'quoted'".to_owned()),
        Just("\"dq\"".to_owned()),
        Just("tab\there".to_owned()),
    ]
}

/// One value as YAML writes it, in one style; lines joined by `\n`
/// (indented by two spaces below the key where it takes more than one).
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        word().prop_map(|w| format!(" {w}")),
        word().prop_map(|w| format!(" '{}'", w.replace('\'', "''"))),
        word().prop_map(|w| format!(" \"{}\"", w.replace('\\', "\\\\").replace('"', "\\\""))),
        word().prop_map(|w| format!(" \"{}\\u00e9\\t\"", w.replace(['\\', '"'], ""))),
        prop::collection::vec(word(), 1..4)
            .prop_map(|lines| format!(" |\n  {}", lines.join("\n  "))),
        prop::collection::vec(word(), 1..4)
            .prop_map(|lines| format!(" >-\n  {}", lines.join("\n  "))),
        prop::collection::vec("[a-z]{1,6}", 0..4)
            .prop_map(|items| format!(" [{}]", items.join(", "))),
        prop::collection::vec(word(), 1..4).prop_map(|items| {
            let lines: Vec<String> = items.iter().map(|item| format!("  - {item}")).collect();
            format!("\n{}", lines.join("\n"))
        }),
        prop::collection::vec(("[a-z]{1,6}", word()), 1..4).prop_map(|pairs| {
            let lines: Vec<String> = pairs.iter().map(|(k, v)| format!("  {k}: {v}")).collect();
            format!("\n{}", lines.join("\n"))
        }),
        word().prop_map(|w| format!(" &anchor {w}")),
        word().prop_map(|w| format!(" {w} # trailing comment")),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "name",
            "description",
            "license",
            "compatibility",
            "allowed-tools",
            "metadata",
            "model",
            "version",
            "tags",
            "disable-model-invocation",
        ])
        .prop_map(str::to_owned),
        "[a-z][a-z_-]{0,10}",
    ]
}

/// A whole SKILL.md: frontmatter, body, BOM and line endings.
fn skill_file() -> impl Strategy<Value = String> {
    let entry = prop_oneof![
        6 => (key(), value()).prop_map(|(k, v)| format!("{k}:{v}")),
        1 => "[ a-z]{0,20}".prop_map(|c| format!("# {c}")),
        1 => Just(String::new()),
        1 => key().prop_map(|k| format!("{k}: *anchor")),
    ];
    (
        prop::collection::vec(entry, 0..10),
        prop::collection::vec(word(), 0..6),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(entries, body, crlf, bom)| {
            let mut lines = vec!["---".to_owned()];
            lines.extend(entries);
            lines.push("---".to_owned());
            lines.extend(body);
            let text = lines.join("\n") + "\n";
            let text = if crlf {
                text.replace('\n', "\r\n")
            } else {
                text
            };
            if bom { format!("\u{feff}{text}") } else { text }
        })
}

/// Each key's value, as the frontmatter reader reads it.
fn values(text: &str) -> Option<BTreeMap<String, YamlValue>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let document = frontmatter::split(text).ok()?;
    let parsed = frontmatter::parse(&document).ok()?;
    Some(
        parsed
            .entries
            .into_iter()
            .map(|entry| (entry.key, entry.value))
            .collect(),
    )
}

fn body(text: &str) -> Option<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    frontmatter::split(text)
        .ok()
        .map(|document| document.body.to_owned())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fmt_keeps_every_value_and_the_body_and_is_idempotent(text in skill_file()) {
        let Ok(formatted) = format_text(&text) else {
            return Ok(()); // refused: nothing is written
        };
        prop_assert_eq!(values(&formatted), values(&text), "values changed:\n{}\n=>\n{}", text, formatted);
        prop_assert_eq!(body(&formatted), body(&text));
        prop_assert_eq!(
            text.starts_with('\u{feff}'),
            formatted.starts_with('\u{feff}'),
            "the BOM is kept"
        );
        let again = format_text(&formatted);
        prop_assert_eq!(again.as_deref(), Ok(formatted.as_str()), "fmt is not idempotent on:\n{}", formatted);
    }

    #[test]
    fn fix_either_validates_or_writes_nothing(text in skill_file()) {
        let context = FixContext {
            directory_name: Some("demo-skill"),
            profile: Profile::STANDARD,
            links: None,
            format: true,
        };
        let proposal = fix_text(&text, context);
        if proposal.refused.is_some() || proposal.text == text {
            return Ok(()); // nothing is written
        }
        let checked = check_text(
            &proposal.text,
            CheckContext {
                directory_name: Some("demo-skill"),
                skip_unshown_counts: true,
                ..CheckContext::default()
            },
        );
        let errors: Vec<_> = checked
            .diagnostics
            .iter()
            .filter(|finding| finding.is_error())
            .map(|finding| (finding.code, finding.message.clone()))
            .collect();
        prop_assert!(errors.is_empty(), "fix proposed a file with errors {:?}:\n{}\n=>\n{}", errors, text, proposal.text);
        prop_assert_eq!(body(&proposal.text), body(&text), "the body is kept");
    }
}
