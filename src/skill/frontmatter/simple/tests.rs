//! The fast path against serde-saphyr: wherever [`parse`] answers, its
//! answer must be the full parser's.

use proptest::prelude::*;

use super::super::{Document, Frontmatter, Plain, dedupe, parse_with};
use super::*;

/// The full parser's reading of `yaml`, as `frontmatter::parse` makes it.
fn full(yaml: &str) -> Result<Frontmatter, String> {
    let document = Document {
        yaml,
        yaml_first_line: 2,
        body: "",
        body_first_line: 1,
    };
    parse_with::<Plain>(&document).map_err(|err| err.to_string())
}

/// The fast path's reading, when it has one.
fn fast(yaml: &str) -> Option<Frontmatter> {
    let entries = parse(yaml)?;
    Some(dedupe(
        entries
            .into_iter()
            .map(|(key, line, value)| (key, Some(line + 1), value)),
    ))
}

/// Fails unless the fast path reads `yaml`, and reads it as the full
/// parser does.
fn accepted_and_same(yaml: &str) {
    let fast = fast(yaml).unwrap_or_else(|| panic!("the fast path refused {yaml:?}"));
    assert_eq!(Ok(fast), full(yaml), "{yaml:?}");
}

fn refused(yaml: &str) {
    assert_eq!(parse(yaml), None, "{yaml:?}");
}

#[test]
fn the_common_shapes_are_read_as_serde_saphyr_reads_them() {
    for yaml in [
        "\n\n",
        "name: pdf\ndescription: Extract text from PDF files. Use when needed\n",
        "name: pdf\ndescription: \"Quoted: with # and 'single' quotes\"\nlicense: MIT  \n",
        "name: pdf\ndescription: 'It''s quoted: \"twice\"'  \n",
        "name: a\ndescription: |\n  Line one\n  Line two: with colon # and hash\n\n    indented more\n\n\nlicense: MIT\n",
        "name: a\ndescription: |-\n  Line one\n\n  Line three\nmetadata:\n  author: me\n  version: \"1.0\"\n",
        "name: a\ndescription: >\n  Folded one\n  folded two\n\n  after a blank\n\n\n  after two\n",
        "name: a\ndescription: >-\n   Folded one\n   folded two\n",
        "description: >\n  Émoji 🎉 — dashes “quotes”\n  C# and C++, [brackets] {braces}\n",
        "name: a\nallowed-tools:\nlicense: Apache-2.0\n",
        "name: a\nmetadata:\n    author: someone\n\n    tags: x, y\n    empty:\nname: b\n",
        "name: a\nname: b\nx_y: é\n",
        "name: Skill_Name-2\ndescription: a:b c#d e- f? g, h.\n",
        "last:\n",
        "name: a\ndescription: |\n  trailing empty lines\n\n\n",
        "name: a\nversion: 1.0.0\nmetadata:\n  version: 2.10.300  \n",
    ] {
        accepted_and_same(yaml);
    }
}

#[test]
fn anything_outside_the_grammar_is_refused() {
    for yaml in [
        "name: a",                  // no final line break
        "name: a\r\n",              // CR
        "name:\ta\n",               // tab
        "# comment\nname: a\n",     // comment line
        "name: a # comment\n",      // trailing comment
        "name: a: b\n",             // mapping value in a plain
        "name: a:\n",               // colon at the end
        "version: 1.0\n",           // number
        "flag: true\n",             // boolean
        "name: yes\n",              // a 1.1 boolean
        "name: ~\n",                // null
        "name: .inf\n",             // float
        "name: -a\n",               // indicator
        "name: [a, b]\n",           // flow
        "name: \"a\\nb\"\n",        // escape
        "name: \"a\" x\n",          // text after the quote
        "name: 'a\n",               // unclosed
        "name: |+\n  a\n",          // keep chomping
        "name: |2\n  a\n",          // explicit indentation
        "name: > # c\n  a\n",       // comment after a header
        "name: >\n  a\n    more\n", // more indented in a folded block
        "name: |\n\n  a\n",         // leading empty line
        "name: |\n  a \n",          // trailing space
        "name: |\n  a\n   \n  b\n", // a line of spaces
        "name: |\nb: c\n",          // empty block
        "name: a\n  continued\n",   // multi-line plain
        "m:\n  a: b\n   c: d\n",    // uneven nesting
        "m:\n  a:\n    b: c\n",     // two levels
        "m:\n  - a\n",              // list
        "m:\n- a\n",                // list at the key's indent
        "1: a\n",                   // key not a letter first
        "true: a\n",                // reserved key
        "a b: c\n",                 // space in key
        "name: a\n---\n",           // a document marker
        "name: a\u{85}b\n",         // NEL
        "name: a\u{2028}b\n",       // line separator
        "name: \u{feff}a\n",        // byte-order mark
        "name: a\u{7f}\n",          // DEL
    ] {
        refused(yaml);
    }
}

// What documents are made of: entries of every shape the grammar has,
// and the near misses around each.

fn key() -> impl Strategy<Value = String> {
    let good = prop::sample::select(vec![
        "name",
        "description",
        "license",
        "metadata",
        "a",
        "b-c",
        "x_y",
        "Name",
        "k9",
    ]);
    let bad = prop::sample::select(vec![
        "true", "Yes", "null", "on", "1a", "-a", "a b", "?a", "<<", "",
    ]);
    prop_oneof![8 => good, 1 => bad].prop_map(str::to_owned)
}

fn text_char() -> impl Strategy<Value = char> {
    prop::sample::select(vec![
        'a', 'b', 'Z', 'y', 'n', 'e', 'u', 'l', 't', 'r', 'f', 'o', '0', '1', '9', ' ', ' ', ' ',
        ':', ':', '#', '#', '"', '\'', '\'', '-', '.', ',', '[', ']', '{', '}', '|', '>', '!', '&',
        '*', '%', '@', '`', '~', '?', '\\', '\t', 'é', '—', '🎉', '\u{a0}', '\u{85}', '\u{2028}',
        '\u{3000}', '\u{feff}', '\r',
    ])
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(text_char(), 0..max).prop_map(|chars| chars.into_iter().collect())
}

/// Mostly letters and spaces, so that many generated values are in the
/// grammar, with a tricky character now and then.
fn mostly_plain(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            40 => prop::sample::select(vec!['a', 'b', 'x', 'N', 'é', ' ', ' ', ':', '#', '\'', '"']),
            1 => text_char(),
        ],
        0..max,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

fn one_line_value() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => mostly_plain(14).prop_map(|text| format!("a{text}")),
        2 => mostly_plain(14),
        2 => text(10),
        1 => (mostly_plain(10), prop::sample::select(vec!["", "  ", " x", " #c"]))
            .prop_map(|(text, after)| format!("\"{text}\"{after}")),
        1 => (mostly_plain(10), prop::sample::select(vec!["", "  ", " x", "'"]))
            .prop_map(|(text, after)| format!("'{text}'{after}")),
        1 => prop::sample::select(vec![
            "yes", "No", "TRUE", "False", "null", "Null", "~", "1.0", "0x1F", "1_000", "inf",
            "NaN", "Infinity", "y", "n", "On", "off", "2024-01-01", "-", "- a", "a-", ".5", "+1",
            "1.0.0", "10.20.30.40", "1.0", "1.0.", "1..0", "01.0.0", "1.0.0e5", "1.0.0 ", "1.0.0:",
            "1e3", "0o17", "1.0.0 #c", "1.2.3-beta",
        ])
        .prop_map(str::to_owned),
    ]
}

/// A line of a block scalar whose lines are indented by `base`: mostly
/// text at that indentation, empty lines, a line indented further, and
/// now and then anything.
fn block_line(base: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => mostly_plain(12).prop_map(move |text| format!("{}a{text}", " ".repeat(base))),
        3 => Just(String::new()),
        1 => mostly_plain(6).prop_map(move |text| format!("{}b{text}", " ".repeat(base + 1))),
        1 => (0..5usize, text(6)).prop_map(|(indent, text)| format!("{}{text}", " ".repeat(indent))),
    ]
}

fn block() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            8 => prop::sample::select(vec!["|", "|-", ">", ">-"]),
            1 => prop::sample::select(vec!["|+", ">2", "| #c", "|  ", ">+"]),
        ],
        1..4usize,
    )
        .prop_flat_map(|(header, base)| {
            (Just(header), prop::collection::vec(block_line(base), 0..7))
        })
        .prop_map(|(header, lines)| {
            let mut out = format!("{header}\n");
            for line in lines {
                out.push_str(&line);
                out.push('\n');
            }
            out
        })
}

fn entry() -> impl Strategy<Value = String> {
    let separator = prop_oneof![
        12 => Just(": "),
        1 => prop::sample::select(vec![":  ", ":", ":\t", " : "]),
    ];
    let value = prop_oneof![
        4 => one_line_value().prop_map(|value| format!("{value}\n")),
        3 => block(),
        2 => (
            1..4usize,
            prop::collection::vec((key(), prop::sample::select(vec![": ", ":", ": |"]), one_line_value(), 0..6usize), 0..4),
        )
            .prop_map(|(indent, lines)| {
                let mut out = String::from("\n");
                for (key, separator, value, extra) in lines {
                    let value = if separator == ": " { value } else { String::new() };
                    out.push_str(&format!("{}{key}{separator}{value}\n", " ".repeat(indent + usize::from(extra == 5))));
                }
                out
            }),
        1 => Just("\n".to_owned()),
    ];
    (key(), separator, value).prop_map(|(key, separator, value)| format!("{key}{separator}{value}"))
}

fn document() -> impl Strategy<Value = String> {
    prop::collection::vec((entry(), prop::bool::weighted(0.1)), 0..5).prop_map(|entries| {
        let mut yaml = String::new();
        for (entry, blank) in entries {
            yaml.push_str(&entry);
            if blank {
                yaml.push('\n');
            }
        }
        yaml
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    #[test]
    fn where_the_fast_path_answers_it_answers_as_serde_saphyr(yaml in document()) {
        if let Some(fast) = fast(&yaml) {
            prop_assert_eq!(Ok(fast), full(&yaml), "{:?}", yaml);
        }
    }
}

/// The generator reaches the grammar often enough for the test above to
/// mean something.
#[test]
fn the_generated_documents_often_take_the_fast_path() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = document();
    let (mut taken, mut nonempty_taken) = (0, 0);
    for _ in 0..2000 {
        let yaml = strategy.new_tree(&mut runner).unwrap().current();
        if parse(&yaml).is_some() {
            taken += 1;
            nonempty_taken += usize::from(!yaml.trim().is_empty());
        }
    }
    assert!(
        taken > 150 && nonempty_taken > 100,
        "{taken} {nonempty_taken}"
    );
}

/// Every skill file below `$AIGENT_YAML_CORPUS` (the real collection of
/// `scripts/real-skills.sh`): where the fast path answers, it answers as
/// serde-saphyr does; prints how often it answers.
/// `AIGENT_YAML_CORPUS=/tmp/aigent-real2 cargo test --lib simple -- --ignored --nocapture`
#[test]
#[ignore = "needs a corpus: set AIGENT_YAML_CORPUS"]
fn a_corpus_is_read_as_serde_saphyr_reads_it() {
    let Some(root) = std::env::var_os("AIGENT_YAML_CORPUS") else {
        return;
    };
    let (mut files, mut taken) = (0, 0);
    let mut stack = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && entry.file_name() == "SKILL.md" {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let Ok(document) = super::super::split(&text) else {
                    continue;
                };
                files += 1;
                if let Some(fast) = fast(document.yaml) {
                    taken += 1;
                    assert_eq!(Ok(fast), full(document.yaml), "{}", path.display());
                }
            }
        }
    }
    println!("{taken} of {files} frontmatter blocks took the fast path");
}
