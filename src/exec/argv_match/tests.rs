use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::contract::{Origin, SourceFormat};
use crate::exec::Argv;
use crate::guard::{self, RawArguments};
use crate::registry::parse_declaration;

fn declaration(text: &str) -> Declaration {
    let parsed = parse_declaration(text, SourceFormat::Yaml, &Origin::default());
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.declaration.unwrap()
}

const GIT_LOG: &str = r#"
name: git-log
description: List commits
danger_level: safe
parameters:
  count: {type: integer, default: 20}
  author: {type: string, pattern: "^[^\\n]{1,100}$"}
  merges: {type: boolean}
  path: {type: string, pattern_type: filepath}
subprocess:
  binary: git
  argv:
    - --no-pager
    - log
    - {param: count, flag: -n}
    - {param: author, flag: --author, form: joined}
    - {param: merges, flag: --merges}
    - "--"
    - {param: path}
"#;

const TAGGER: &str = r#"
name: tagger
description: Tags files
danger_level: mutating
parameters:
  tags: {type: array, description: tags}
  files: {type: array, required: true, description: files}
  image: {type: string, pattern: "^[0-9.]+$"}
subprocess:
  binary: tagger
  argv:
    - {param: tags, flag: --tag}
    - {param: image, prefix: "registry/web:"}
    - "--"
    - {param: files}
"#;

#[test]
fn flags_joined_forms_switches_and_positionals_are_recovered() {
    let git = declaration(GIT_LOG);
    let found = candidate_arguments(
        &git,
        &[
            "--no-pager",
            "log",
            "-n",
            "5",
            "--author=Ada Lovelace",
            "--merges",
            "--",
            "src/lib.rs",
        ],
    );
    assert_eq!(
        found[0],
        json!({"count": 5, "author": "Ada Lovelace", "merges": true, "path": "src/lib.rs"})
            .as_object()
            .unwrap()
            .clone()
    );
    let bare = candidate_arguments(&git, &["--no-pager", "log", "--"]);
    assert_eq!(bare[0], Map::new());
}

#[test]
fn words_the_template_cannot_make_match_nothing() {
    let git = declaration(GIT_LOG);
    for line in [
        &["log"][..],
        &["--no-pager", "log", "-p", "--"],
        &["--no-pager", "log", "--", "a", "b"],
        &["--no-pager", "log", "-n", "five", "--"],
        &["--no-pager", "log", "--author", "x", "--"],
    ] {
        assert!(candidate_arguments(&git, line).is_empty(), "{line:?}");
    }
}

#[test]
fn repeated_flags_make_an_array_and_prefixes_are_taken_off() {
    let tagger = declaration(TAGGER);
    let found = candidate_arguments(
        &tagger,
        &[
            "--tag",
            "a",
            "--tag",
            "b",
            "registry/web:1.2",
            "--",
            "x",
            "y",
        ],
    );
    assert_eq!(
        found[0],
        json!({"tags": ["a", "b"], "image": "1.2", "files": ["x", "y"]})
            .as_object()
            .unwrap()
            .clone()
    );
}

#[test]
fn huge_lines_match_nothing_quickly() {
    let tagger = declaration(TAGGER);
    let many: Vec<&str> = std::iter::repeat_n("x", MAX_MATCHED_WORDS + 1).collect();
    assert!(candidate_arguments(&tagger, &many).is_empty());
    let mut dashes = vec!["--"; 1000];
    dashes.insert(0, "--");
    let _ = candidate_arguments(&tagger, &dashes);
}

fn recovered_round_trip(declaration: &Declaration, raw: &Value) {
    let text = raw.to_string();
    let Ok(validated) = guard::check(declaration, &RawArguments::Json(&text)) else {
        return;
    };
    let argv = Argv::build(declaration, &validated).unwrap();
    let tail: Vec<&str> = argv.words()[1..].iter().map(String::as_str).collect();
    let candidates = candidate_arguments(declaration, &tail);
    assert!(!candidates.is_empty(), "{tail:?}");
    // Some candidate passes Phase 1 and builds the very same argv.
    let rebuilt = candidates.iter().any(|candidate| {
        let text = Value::Object(candidate.clone()).to_string();
        guard::check(declaration, &RawArguments::Json(&text))
            .ok()
            .and_then(|validated| Argv::build(declaration, &validated).ok())
            .is_some_and(|again| again.words() == argv.words())
    });
    assert!(rebuilt, "{tail:?} from {raw}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_built_argv_is_recovered(
        count in prop::option::of(0u32..1000),
        author in prop::option::of("[a-zA-Z -]{1,20}"),
        merges in prop::option::of(any::<bool>()),
        path in prop::option::of("[a-z]{1,8}(/[a-z]{1,8}){0,2}"),
        tags in prop::option::of(prop::collection::vec("[a-z-]{1,6}", 1..4)),
        files in prop::collection::vec("[a-z.-]{1,8}", 1..4),
        image in prop::option::of("[0-9]{1,2}\\.[0-9]{1,2}"),
    ) {
        let git = declaration(GIT_LOG);
        let mut raw = Map::new();
        if let Some(count) = count { raw.insert("count".into(), json!(count)); }
        if let Some(author) = author { raw.insert("author".into(), json!(author)); }
        if let Some(merges) = merges { raw.insert("merges".into(), json!(merges)); }
        if let Some(path) = path { raw.insert("path".into(), json!(path)); }
        recovered_round_trip(&git, &Value::Object(raw));

        let tagger = declaration(TAGGER);
        let mut raw = Map::new();
        if let Some(tags) = tags { raw.insert("tags".into(), json!(tags)); }
        if let Some(image) = image { raw.insert("image".into(), json!(image)); }
        raw.insert("files".into(), json!(files));
        recovered_round_trip(&tagger, &Value::Object(raw));
    }

    #[test]
    fn arbitrary_words_never_panic(line in prop::collection::vec("(-[a-z-]{0,4}|[a-z=:/.]{0,6}|--)", 0..12)) {
        let line: Vec<&str> = line.iter().map(String::as_str).collect();
        let _ = candidate_arguments(&declaration(GIT_LOG), &line);
        let _ = candidate_arguments(&declaration(TAGGER), &line);
    }
}
