//! Property tests: the parser and the validator give a result for every
//! input, never a panic.

use aigent::skill::check::{CheckContext, check_contents, check_text};
use aigent::skill::frontmatter;
use proptest::prelude::*;

/// Fragments that YAML and the frontmatter splitter treat specially, plus
/// plain words.
const TOKENS: &[&str] = &[
    "---",
    "\n",
    "\r\n",
    "name: ",
    "description: ",
    "metadata:",
    "  ",
    "- ",
    ": ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "<<: ",
    "!!str ",
    "!tag ",
    "|",
    ">-",
    "'",
    "\"",
    "#",
    "%YAML 1.2",
    "?",
    "\t",
    "\u{feff}",
    "<b>",
    "](x.md)",
    "```",
    "é数Я🙂\u{301}",
    "\u{0}\u{7f}\u{85}\u{2028}",
    "skill",
    "Bad",
    "a-b",
    "42",
    "true",
    "~",
    "x y z",
];

fn yamlish_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..80).prop_map(|tokens| tokens.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_always_get_a_result(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let checked = check_contents(&bytes, CheckContext::default());
        // Anything that is not a skill gets at least one finding.
        if !bytes.starts_with(b"---") && !bytes.starts_with("\u{feff}---".as_bytes()) {
            prop_assert!(!checked.diagnostics.is_empty());
        }
    }

    #[test]
    fn yamlish_frontmatter_always_gets_a_result(yaml in yamlish_text(), body in yamlish_text()) {
        let text = format!("---\n{yaml}\n---\n{body}");
        if let Ok(document) = frontmatter::split(&text) {
            let _ = frontmatter::parse(&document);
        }
        let checked = check_text(&text, CheckContext {
            directory_name: Some("skill"),
            ..CheckContext::default()
        });
        for diagnostic in &checked.diagnostics {
            prop_assert!(!diagnostic.message.is_empty());
            prop_assert!(diagnostic.code.len() == 4);
        }
    }

    #[test]
    fn yamlish_whole_files_always_get_a_result(text in yamlish_text()) {
        let _ = check_text(&text, CheckContext::default());
    }
}
