//! The tokenizer against the reference: `bpe-openai`'s `o200k_base`, which
//! is itself tested against OpenAI's tiktoken.

use proptest::prelude::*;

use super::*;

fn reference() -> &'static bpe_openai::Tokenizer {
    bpe_openai::o200k_base()
}

fn pieces(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    pretokenize::for_each_piece(text, |piece| {
        pieces
            .push(String::from_utf8(piece.bytes().to_vec()).expect("pieces are whole characters"));
    });
    pieces
}

fn reference_pieces(text: &str) -> Vec<String> {
    reference().split(text).map(str::to_owned).collect()
}

#[test]
fn counts_match_known_o200k_counts() {
    // Counts from OpenAI's tiktoken, o200k_base.
    assert_eq!(count_tokens(""), 0);
    assert_eq!(count_tokens("hello world"), 2);
    assert_eq!(count_tokens("Hello, world!"), 4);
    assert_eq!(
        count_tokens("The quick brown fox jumps over the lazy dog."),
        10
    );
}

#[test]
fn repository_documents_count_as_the_reference_counts() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for dir in ["docs", "docs/reference", "tests/fixtures/skills"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            assert_eq!(
                pieces(&text),
                reference_pieces(&text),
                "{}",
                entry.path().display()
            );
            assert_eq!(count_tokens(&text), reference().count(text.as_str()));
            checked += 1;
        }
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    assert_eq!(count_tokens(&readme), reference().count(readme.as_str()));
    assert!(checked > 10, "only {checked} documents checked");
}

#[test]
fn text_outside_ascii_counts_as_the_reference_counts() {
    for text in [
        "naïve café — “quoted” ‘text’…",
        "日本語のテキストと English が混ざる。\n次の行\n",
        "emoji 🎉🚀 and flags 🇫🇷, ZWJ 👩‍💻",
        "Ωmega ǅungla ſtraße ﬁne Ǆ'S",
        "tab\u{a0}nbsp\u{2003}em\u{3000}ideographic\u{85}nel\n  x",
        "combining e\u{301}\u{302} and \u{301} alone\n/path\n",
        "Привет, мир! Ελληνικά. עברית ثم العربية",
        "line\n\u{a0}\nnext\n\n   ünïcödé\n- item\n",
    ] {
        assert_eq!(pieces(text), reference_pieces(text), "{text:?}");
        assert_eq!(count_tokens(text), reference().count(text), "{text:?}");
    }
}

#[test]
fn symbols_are_neither_letters_marks_numbers_nor_spaces() {
    let classes = regex_automata::meta::Regex::new(r"^[\s\p{L}\p{M}\p{N}]$").unwrap();
    let mut symbols = 0;
    for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
        if !pretokenize::is_symbol(c) {
            continue;
        }
        symbols += 1;
        let mut buffer = [0; 4];
        assert!(!classes.is_match(&*c.encode_utf8(&mut buffer)), "{c:?}");
        // And the reference splits it as punctuation, in every context
        // the scanner distinguishes.
        let text = format!("x{c}y {c}{c}z\n{c}\n {c}1 {c}/\n\t{c}It's {c}'s{c}");
        assert_eq!(pieces(&text), reference_pieces(&text), "{c:?}");
    }
    assert!(symbols > 3_500, "{symbols}");
}

#[test]
fn long_pieces_merge_as_the_reference_merges() {
    for text in [
        "=".repeat(10_000),
        "ab".repeat(5_000),
        "-_".repeat(3_001),
        "a".repeat(4_097),
        "é".repeat(2_000),
        "x".repeat(100) + &"😀".repeat(100),
    ] {
        assert_eq!(count_tokens(&text), reference().count(text.as_str()));
    }
}

#[test]
fn a_cache_collision_never_changes_a_count() {
    // Far more distinct short pieces than the cache has slots.
    let words: Vec<String> = (0..40_000).map(|n| format!(" w{n:x}q")).collect();
    let text = words.concat();
    assert_eq!(count_tokens(&text), reference().count(text.as_str()));
    assert_eq!(count_tokens(&text), reference().count(text.as_str()));
}

#[test]
fn a_long_piece_cache_collision_never_changes_a_count() {
    // Far more distinct pieces of 16 to 64 bytes than the long cache has
    // slots, each a space and lower-case letters: one piece.
    let words: Vec<String> = (0..5_000u32)
        .map(|n| {
            let mut word = String::from(" ");
            let mut k = n;
            for _ in 0..16 + n % 48 {
                word.push(char::from(b'a' + (k % 26) as u8));
                k = k / 26 + n;
            }
            word
        })
        .collect();
    let text = words.concat();
    assert_eq!(count_tokens(&text), reference().count(text.as_str()));
    assert_eq!(count_tokens(&text), reference().count(text.as_str()));
}

/// Text that stresses the pre-tokenizer: ASCII's classes at every
/// boundary, contractions, line breaks before `/` and spaces, and some
/// characters outside ASCII (letters, marks, digits, spaces, emoji).
fn tricky_text() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        8 => "[a-zA-Z]{1,8}",
        3 => "[0-9]{1,5}",
        4 => prop::sample::select(vec![" ", "  ", "\n", "\r\n", "\t", " \n ", "\n\n", "\u{b}", "\u{c}", "\u{1c}"]).prop_map(str::to_owned),
        4 => prop::sample::select(vec![".", ",", "'", "'s", "'LL", "'re", "'d", "/", "//", "-", "`", "```", "#", "*", "(", ")", "\u{0}", "\u{7f}", "!?"]).prop_map(str::to_owned),
        2 => prop::sample::select(vec!["é", "É", "ß", "ǅ", "\u{301}", "٣", "Ⅻ", "\u{a0}", "\u{85}", "\u{2028}", "—", "🎉", "中文", "ſ", "K"]).prop_map(str::to_owned),
        3 => prop::sample::select(vec!["─", "──", "│", "├──", "→", "✅", "❌", "—", "–", "“", "”", "’", "•", "…", "×", "≥", "⚠\u{fe0f}", "✓", "🔴", "📊", "\u{a7}", "\u{bf}"]).prop_map(str::to_owned),
    ];
    prop::collection::vec(atom, 0..60).prop_map(|atoms| atoms.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn packing_keeps_every_byte_in_its_place(piece in prop::collection::vec(any::<u8>(), 0..16)) {
        let mut expected = [0u8; 16];
        expected[..piece.len()].copy_from_slice(&piece);
        expected[15] = piece.len() as u8;
        prop_assert_eq!(pack(&piece), u128::from_le_bytes(expected));
    }

    #[test]
    fn pieces_are_the_reference_pieces(text in tricky_text()) {
        prop_assert_eq!(pieces(&text), reference_pieces(&text));
    }

    #[test]
    fn a_piece_packs_the_same_through_its_window(text in tricky_text()) {
        let mut packed = Vec::new();
        pretokenize::for_each_piece(&text, |piece| {
            if piece.len() <= 15 {
                packed.push((pack_piece(piece), pack(piece.bytes())));
            }
        });
        for (through_window, from_bytes) in packed {
            prop_assert_eq!(through_window, from_bytes);
        }
    }

    #[test]
    fn counts_are_the_reference_counts(text in tricky_text()) {
        prop_assert_eq!(count_tokens(&text), reference().count(text.as_str()));
    }

    #[test]
    fn any_text_splits_as_the_reference_splits(text in "\\PC{0,40}|[ -~\t\n\r\u{2010}-\u{2030}\u{2500}-\u{2520}\u{a1}-\u{ff}]{0,120}") {
        prop_assert_eq!(pieces(&text), reference_pieces(&text));
    }

    #[test]
    fn ascii_counts_are_the_reference_counts(text in "[ -~\t\n\r]{0,300}") {
        prop_assert_eq!(count_tokens(&text), reference().count(text.as_str()));
    }

    #[test]
    fn merging_a_text_piece_gives_the_reference_count(piece in "[ a-zA-Z0-9_.=/-]{1,80}") {
        let expected = reference().bpe.count(piece.as_bytes());
        prop_assert_eq!(merge::count_piece(piece.as_bytes()), expected);
    }

    #[test]
    fn merging_a_piece_gives_the_reference_count(piece in prop::collection::vec(any::<u8>(), 1..80)) {
        let expected = reference().bpe.count(&piece);
        prop_assert_eq!(merge::count_piece(&piece), expected);
    }
}
