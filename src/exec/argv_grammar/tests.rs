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

/// The issue's own example: `git log --oneline [-n <count>]
/// [--author=<author>] -- [<path>]`.
const GIT_LOG: &str = r#"
name: git-log
description: List commits
danger_level: safe
parameters:
  count: {type: integer}
  author: {type: string, pattern: "^[^\\n]{1,100}$"}
  path: {type: string, pattern_type: filepath}
subprocess:
  binary: git
  argv:
    - log
    - --oneline
    - {param: count, flag: -n, aliases: [--max-count]}
    - {param: author, flag: --author, form: joined}
    - "--"
    - {param: path}
"#;

/// What the line means to the declaration: the candidate arguments whose
/// argv, read back, means the same. `None` when the line does not fit.
fn meaning(declaration: &Declaration, line: &str) -> Option<serde_json::Map<String, Value>> {
    let grammar = Grammar::of(declaration).expect("a grammar");
    let words: Vec<&str> = line.split_whitespace().collect();
    let reading = grammar.read(&words).ok()?;
    let candidates = grammar.arguments(&reading).ok()?;
    candidates.into_iter().find(|candidate| {
        let text = Value::Object(candidate.clone()).to_string();
        let Ok(validated) = guard::check(declaration, &RawArguments::Json(&text)) else {
            return false;
        };
        let built = Argv::build(declaration, &validated).unwrap();
        let built: Vec<&str> = built.words()[1..].iter().map(String::as_str).collect();
        grammar
            .read(&built)
            .is_ok_and(|written| written.same_meaning(&reading))
    })
}

#[test]
fn the_issues_spellings_all_mean_the_declared_form() {
    let git_log = declaration(GIT_LOG);
    let expected = json!({"count": 3});
    for line in [
        "log --oneline -n 3 --",
        "log --oneline -n 3",
        "log -n 3 --oneline --",
        "log --oneline -n3 --",
        "log --max-count=3 --oneline",
        "log --max-count 3 --oneline",
    ] {
        assert_eq!(
            meaning(&git_log, line).map(Value::Object),
            Some(expected.clone()),
            "{line}"
        );
    }
    assert_eq!(
        meaning(&git_log, "log --oneline --author Ada --").map(Value::Object),
        Some(json!({"author": "Ada"}))
    );
    assert_eq!(
        meaning(&git_log, "log --oneline --author=Ada -- src").map(Value::Object),
        Some(json!({"author": "Ada", "path": "src"}))
    );
    assert_eq!(
        meaning(&git_log, "log --oneline src").map(Value::Object),
        Some(json!({"path": "src"}))
    );
}

#[test]
fn a_number_alias_reads_dash_digits_as_the_option() {
    let log = declaration(
        r#"
name: git-log
description: List commits
danger_level: safe
parameters:
  count: {type: integer}
  oneline: {type: boolean}
subprocess:
  binary: git
  argv: [log, {param: oneline, flag: --oneline}, {param: count, flag: -n, aliases: [--max-count, "-#"]}]
"#,
    );
    for line in [
        "log --oneline -20",
        "log -20 --oneline",
        "log --oneline -n 20",
    ] {
        assert_eq!(
            meaning(&log, line).map(Value::Object),
            Some(json!({"oneline": true, "count": 20})),
            "{line}"
        );
    }
    assert_eq!(meaning(&log, "log -# 20"), None, "`-#` is no spelling");
    assert_eq!(meaning(&log, "log -2x"), None);
    let git_log = declaration(GIT_LOG);
    assert_eq!(
        meaning(&git_log, "log --oneline -20"),
        None,
        "only with the alias"
    );
}

#[test]
fn what_the_declaration_does_not_say_does_not_fit() {
    let git_log = declaration(GIT_LOG);
    for line in [
        // A literal option the template always passes is missing.
        "log -n 3",
        // An undeclared option, in any spelling.
        "log --oneline --graph",
        "log --oneline --output=/tmp/x",
        "log --oneline -n 3 -p",
        // A value the option needs is missing.
        "log --oneline -n",
        // Given twice.
        "log --oneline -n 3 -n 4",
        "log --oneline --oneline",
        // Options before the subcommand are git's own.
        "-n 3 log --oneline",
        // Too many operands.
        "log --oneline a b",
        // A switch given a value.
        "log --oneline=yes",
    ] {
        assert_eq!(meaning(&git_log, line), None, "{line}");
    }
}

#[test]
fn bundles_split_into_their_switches_and_an_attached_value() {
    let tar = declaration(
        r#"
name: tar-extract
description: Extract an archive
danger_level: mutating
parameters:
  verbose: {type: boolean}
  file: {type: string, required: true, pattern_type: filepath}
subprocess:
  binary: tar
  argv:
    - -x
    - {param: verbose, flag: -v}
    - {param: file, flag: -f}
"#,
    );
    for line in [
        "-x -v -f a.tar",
        "-xvf a.tar",
        "-xv -fa.tar",
        "-vxfa.tar",
        "-f a.tar -x -v",
    ] {
        assert_eq!(
            meaning(&tar, line).map(Value::Object),
            Some(json!({"verbose": true, "file": "a.tar"})),
            "{line}"
        );
    }
    // `-xfv a.tar`: getopt reads `v` as -f's value.
    assert_eq!(
        meaning(&tar, "-xfv a.tar"),
        None,
        "the value is `v`, and a.tar an extra operand"
    );
    assert_eq!(meaning(&tar, "-xzf a.tar"), None, "-z is not declared");
    // What did not fit is named as the program would read it: the unknown
    // letters of a cluster with a known one, a cluster with none whole.
    let grammar = Grammar::of(&tar).unwrap();
    let unknown = |line: &str| match grammar.read(&line.split(' ').collect::<Vec<_>>()) {
        Ok(reading) => reading.unknown,
        Err(Misfit::Unknown(words)) => words,
        Err(other) => panic!("{line}: {other:?}"),
    };
    assert_eq!(unknown("-xzf a.tar"), ["-z"]);
    assert_eq!(unknown("-x -not -f a.tar"), ["-not"]);
    assert_eq!(unknown("-qx -f a.tar"), ["-q"]);
}

#[test]
fn a_template_word_after_a_literal_option_is_read_as_its_value() {
    // `-o wide` written as two literals: the reading that binds them
    // admits fewer lines, so `wide` cannot drift away from `-o`.
    let get = declaration(
        r#"
name: kubectl-get-pods
description: List pods
danger_level: safe
parameters:
  namespace: {type: string, pattern_type: alphanumeric_id}
subprocess:
  binary: kubectl
  argv: [get, pods, -o, wide, {param: namespace, flag: -n, aliases: [--namespace]}]
"#,
    );
    assert!(meaning(&get, "get pods -o wide").is_some());
    assert!(meaning(&get, "get pods -n web -o wide").is_some());
    assert!(meaning(&get, "get pods --namespace=web -o wide").is_some());
    assert!(meaning(&get, "get pods wide -o").is_none());
    // Attached is not assumed for a guessed value.
    assert!(meaning(&get, "get pods -owide").is_none());
}

#[test]
fn posix_options_end_at_the_first_operand() {
    let tool = declaration(
        r#"
name: tool-run
description: Run a tool
danger_level: mutating
parameters:
  dry-run: {type: boolean}
  target: {type: string, required: true, pattern_type: alphanumeric_id}
subprocess:
  binary: some-tool
  argv: [{param: dry-run, flag: --dry-run}, {param: target}]
"#,
    );
    assert_eq!(
        Grammar::of(&tool).unwrap().syntax,
        Syntax::Posix,
        "an unknown program reads as POSIX"
    );
    assert!(meaning(&tool, "--dry-run prod").is_some());
    // To the program, `--dry-run` after the operand is an operand.
    assert_eq!(meaning(&tool, "prod --dry-run"), None);
}

/// `python -m pytest`: python reads no option of its own after `-m MODULE`,
/// and the module's (argparse) options may follow its operands.
const PYTHON_M_PYTEST: &str = r#"
name: python-m-pytest
description: Run tests
danger_level: mutating
parameters:
  verbose: {type: boolean}
  marker: {type: string, pattern: "^[a-z ]{1,40}$"}
  tests: {type: array, pattern_type: filepath, relative_only: true}
subprocess:
  binary: python3
  syntax: gnu
  argv:
    - -m
    - pytest
    - {param: verbose, flag: -v}
    - {param: marker, flag: -m}
    - {param: tests}
"#;

#[test]
fn a_module_after_python_dash_m_reads_its_own_options() {
    let pytest = declaration(PYTHON_M_PYTEST);
    for line in [
        "-m pytest tests -v",
        "-m pytest -v tests",
        "-m pytest tests/ -v",
    ] {
        assert_eq!(
            meaning(&pytest, line).and_then(|found| found.get("verbose").cloned()),
            Some(json!(true)),
            "{line}"
        );
    }
    assert_eq!(
        meaning(&pytest, "-m pytest -m slow tests").map(Value::Object),
        Some(json!({"marker": "slow", "tests": ["tests"]}))
    );
    // What python itself would read otherwise: a script `tests`, python's
    // own `-v`, a module named `slow`.
    for line in [
        "tests -m pytest",
        "-v -m pytest tests",
        "pytest -m slow",
        "-m slow pytest",
    ] {
        assert_eq!(meaning(&pytest, line), None, "{line}");
    }
}

#[test]
fn go_flags_take_one_or_two_dashes_and_no_bundles() {
    let test = declaration(
        r#"
name: go-test
description: Run tests
danger_level: mutating
parameters:
  run: {type: string, pattern: "^[A-Za-z0-9_|^$]+$"}
  verbose: {type: boolean}
  packages: {type: array, pattern: "^[./A-Za-z0-9_-]+$"}
subprocess:
  binary: go
  argv: [test, {param: verbose, flag: -v}, {param: run, flag: -run}, {param: packages}]
"#,
    );
    for line in [
        "test -v -run TestX ./...",
        "test -run=TestX -v ./...",
        "test --run TestX --v ./...",
    ] {
        assert_eq!(
            meaning(&test, line).map(Value::Object),
            Some(json!({"verbose": true, "run": "TestX", "packages": ["./..."]})),
            "{line}"
        );
    }
    assert_eq!(
        meaning(&test, "test ./... -v"),
        None,
        "flags end at the first package"
    );
    assert_eq!(meaning(&test, "test -vrun TestX"), None, "no bundles");
}

#[test]
fn an_optional_argument_is_attached_only() {
    let ls = declaration(
        r#"
name: ls
description: List
danger_level: safe
parameters:
  color: {type: enum, enum_values: [never, always, auto]}
  paths: {type: array, pattern_type: filepath}
subprocess:
  binary: ls
  argv: [{param: color, flag: --color, form: joined, attached_only: true}, "--", {param: paths}]
"#,
    );
    assert!(meaning(&ls, "--color=never src").is_some());
    // `ls --color never` colours, and lists `never`.
    assert_eq!(
        meaning(&ls, "--color never").map(Value::Object),
        None,
        "the value of an optional argument is never the next word"
    );
}

#[test]
fn a_default_the_line_leaves_out_changes_its_meaning() {
    let declaration = declaration(
        r#"
name: git-log
description: List commits
danger_level: safe
parameters:
  count: {type: integer, default: 20}
subprocess:
  binary: git
  argv: [log, {param: count, flag: -n}]
"#,
    );
    assert!(meaning(&declaration, "log -n 20").is_some());
    assert_eq!(meaning(&declaration, "log"), None);
}

#[test]
fn a_double_dash_on_one_side_only_keeps_operands_where_they_were() {
    let git_log = declaration(
        r#"
name: git-log
description: List commits
danger_level: safe
parameters:
  revision: {type: string, pattern: "^[A-Za-z0-9_.~^]+$"}
  paths: {type: array, pattern_type: filepath}
subprocess:
  binary: git
  argv: [log, {param: revision}, "--", {param: paths}]
"#,
    );
    assert_eq!(
        meaning(&git_log, "log main -- src").map(Value::Object),
        Some(json!({"revision": "main", "paths": ["src"]}))
    );
    assert_eq!(
        meaning(&git_log, "log -- src").map(Value::Object),
        Some(json!({"paths": ["src"]})),
        "after the line's `--` a word is a path, never the revision"
    );
    assert_eq!(
        meaning(&git_log, "log main --").map(Value::Object),
        Some(json!({"revision": "main"})),
        "before it, a revision"
    );
}

#[test]
fn templates_the_grammar_cannot_take_are_matched_as_written() {
    for (why, text) in [
        (
            "exact syntax",
            "name: t\ndescription: t\ndanger_level: safe\nparameters: {}\nsubprocess: {binary: find, argv: [.]}\n",
        ),
        (
            "a parameter in two slots",
            "name: t\ndescription: t\ndanger_level: safe\nparameters: {p: {type: string, pattern_type: alphanumeric_id}}\nsubprocess: {binary: x, argv: [{param: p}, {param: p, flag: --p}]}\n",
        ),
        (
            "a flag after --",
            "name: t\ndescription: t\ndanger_level: safe\nparameters: {p: {type: string, pattern_type: alphanumeric_id}}\nsubprocess: {binary: x, argv: ['--', {param: p, flag: --p}]}\n",
        ),
    ] {
        assert!(Grammar::of(&declaration(text)).is_none(), "{why}");
    }
}

#[test]
fn huge_lines_are_refused_quickly() {
    let git_log = declaration(GIT_LOG);
    let grammar = Grammar::of(&git_log).unwrap();
    let words = vec!["-n"; MAX_MATCHED_WORDS + 1];
    assert!(matches!(grammar.read(&words), Err(Misfit::TooLong)));
    let words: Vec<String> = (0..MAX_MATCHED_WORDS).map(|i| format!("p{i}")).collect();
    let words: Vec<&str> = std::iter::once("log")
        .chain(std::iter::once("--oneline"))
        .chain(words.iter().map(String::as_str))
        .take(MAX_MATCHED_WORDS)
        .collect();
    let started = std::time::Instant::now();
    let reading = grammar.read(&words).unwrap();
    assert!(grammar.arguments(&reading).is_err());
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

const TAGGED: &str = r#"
name: tagged
description: A tool with options of every kind
danger_level: safe
parameters:
  all: {type: boolean}
  long: {type: boolean}
  quiet: {type: boolean}
  count: {type: integer}
  name: {type: string, pattern_type: alphanumeric_id}
  label: {type: array, pattern_type: alphanumeric_id}
  files: {type: array, pattern_type: filepath}
subprocess:
  binary: grep
  argv:
    - sub
    - {param: all, flag: -a, aliases: [--all]}
    - {param: long, flag: -l}
    - {param: quiet, flag: --quiet, aliases: [-q]}
    - {param: count, flag: -n, aliases: [--count]}
    - {param: name, flag: --name, form: joined}
    - {param: label, flag: -L}
    - "--"
    - {param: files}
"#;

/// One option of [`TAGGED`] as the canonical argv writes it, and its other
/// spellings.
#[derive(Debug, Clone)]
enum Piece {
    Switch {
        names: Vec<&'static str>,
        short: Option<char>,
    },
    Valued {
        names: Vec<&'static str>,
        short: Option<char>,
        value: String,
    },
}

fn pieces() -> impl Strategy<Value = (Vec<Piece>, Vec<String>)> {
    let switch = |names: Vec<&'static str>, short| Just(Piece::Switch { names, short });
    (
        proptest::option::of(switch(vec!["-a", "--all"], Some('a'))),
        proptest::option::of(switch(vec!["-l"], Some('l'))),
        proptest::option::of(switch(vec!["--quiet", "-q"], Some('q'))),
        proptest::option::of((0u32..1000).prop_map(|count| Piece::Valued {
            names: vec!["-n", "--count"],
            short: Some('n'),
            value: count.to_string(),
        })),
        proptest::option::of("[a-z][a-z0-9]{0,6}".prop_map(|name| Piece::Valued {
            names: vec!["--name"],
            short: None,
            value: name,
        })),
        proptest::collection::vec(
            "[a-z][a-z0-9]{0,4}".prop_map(|label| Piece::Valued {
                names: vec!["-L"],
                short: Some('L'),
                value: label,
            }),
            0..3,
        ),
        // Each path component starts with a letter: a `..` one is a value
        // the `filepath` type refuses, not a spelling.
        proptest::collection::vec("[a-z][a-z0-9.]{0,3}(/[a-z][a-z0-9.]{0,3}){0,2}", 0..3),
    )
        .prop_map(|(a, l, q, n, name, labels, files)| {
            let mut pieces: Vec<Piece> = [a, l, q, n, name].into_iter().flatten().collect();
            pieces.extend(labels);
            (pieces, files)
        })
}

/// The words of `pieces` and `files`, respelt by `choices`: shuffled,
/// names swapped for aliases, short switches bundled, values attached,
/// `--` dropped when no file needs it.
fn respell(pieces: &[Piece], files: &[String], choices: &[u8]) -> Vec<String> {
    let mut choice = choices.iter().copied().cycle();
    let mut next = || choice.next().unwrap_or(0);
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    for index in (1..order.len()).rev() {
        let other = usize::from(next()) % (index + 1);
        order.swap(index, other);
    }
    let mut words: Vec<String> = vec!["sub".to_owned()];
    let mut bundle = String::new();
    for &index in &order {
        match &pieces[index] {
            Piece::Switch { names, short } => {
                if let (Some(letter), true) = (short, next() % 2 == 0) {
                    bundle.push(*letter);
                } else {
                    words.push(names[usize::from(next()) % names.len()].to_owned());
                }
            }
            Piece::Valued {
                names,
                short,
                value,
            } => {
                let name = names[usize::from(next()) % names.len()];
                match next() % 3 {
                    0 if name.starts_with("--") => words.push(format!("{name}={value}")),
                    1 if short.is_some() && name.len() == 2 => {
                        words.push(format!("{name}{value}"));
                    }
                    _ => {
                        words.push(name.to_owned());
                        words.push(value.clone());
                    }
                }
            }
        }
    }
    if !bundle.is_empty() {
        words.insert(1, format!("-{bundle}"));
    }
    if !files.is_empty() || next() % 2 == 0 {
        words.push("--".to_owned());
    }
    words.extend(files.iter().cloned());
    words
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every spelling the grammar generates means what the canonical argv
    /// means, and one undeclared option never fits.
    #[test]
    fn every_spelling_means_the_same_and_one_more_option_never_fits(
        (pieces, files) in pieces(),
        choices in proptest::collection::vec(any::<u8>(), 1..16),
        at in any::<prop::sample::Index>(),
    ) {
        let tagged = declaration(TAGGED);
        let words = respell(&pieces, &files, &choices);
        let line = words.join(" ");
        let found = meaning(&tagged, &line);
        prop_assert!(found.is_some(), "{line}");
        let arguments = found.unwrap();
        // The canonical argv of those arguments reads the same.
        let text = Value::Object(arguments.clone()).to_string();
        let validated = guard::check(&tagged, &RawArguments::Json(&text)).unwrap();
        let built = Argv::build(&tagged, &validated).unwrap();
        let canonical = built.words()[1..].join(" ");
        prop_assert_eq!(meaning(&tagged, &canonical), Some(arguments), "{} vs {}", line, canonical);
        // One more option, anywhere among the options, never fits.
        let mut extra = words.clone();
        let end = extra.iter().position(|word| word == "--").unwrap_or(extra.len());
        let position = 1 + at.index(end);
        extra.insert(position, "--definitely-not-an-option".to_owned());
        prop_assert_eq!(meaning(&tagged, &extra.join(" ")), None);
        let mut extra = words;
        extra.insert(position, "-Z".to_owned());
        prop_assert_eq!(meaning(&tagged, &extra.join(" ")), None);
    }

    /// The reader never panics and stays linear on any words.
    #[test]
    fn any_words_read_without_panic(words in proptest::collection::vec("[-=a-zA-Z0-9]{0,6}", 0..40)) {
        let tagged = declaration(TAGGED);
        let grammar = Grammar::of(&tagged).unwrap();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        if let Ok(reading) = grammar.read(&words) {
            let _ = grammar.arguments(&reading);
        }
    }
}
