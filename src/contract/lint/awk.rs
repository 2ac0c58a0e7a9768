//! The awk programs that only read their input and print to standard
//! output, as one regular language: an agent's value that is an awk
//! program is code (E127) unless its parameter's `pattern` stays within
//! it, as a `sed` script's does within the printing scripts.
//!
//! The language is a sequence of tokens, read as awk reads them:
//!
//! - names, other than [`REFUSED_NAMES`] (`system`, `getline`, `close`,
//!   `fflush`, `ENVIRON`, `PROCINFO`, `ARGV`, ...), and numbers; a name
//!   is a whole run of word characters, so `system` is never two names;
//! - strings, `"..."` with `\` escapes and no newline;
//! - regex literals, `/.../`, only where every awk reads `/` as the start
//!   of one (first, and after `(`, `,`, `!`, `~`, `&&`, `||`, `;`, `{`,
//!   `}`), with no bare `/` and no `\` inside a bracket expression, so
//!   that gawk, mawk and BWK awk end it at the same byte;
//! - `/` as division only after a number or `]`, where every awk reads
//!   it so: after a name or `)` some read a regex (`if (x) /re/`), and a
//!   literal read one way by the checker and the other way by awk could
//!   hide a string's end (`x = /"/; system("id"); y = (/"/)`);
//! - the operators `( ) [ ] $ = + - * % ^ < > ? : . ! ~ && ||` and blanks
//!   (space, tab, newline): no lone `|` (a pipe, `|&`), no `@` (gawk's
//!   `@load`, `@include`, indirect calls), no `\` outside a literal, no
//!   `#` comment;
//! - `print` and `printf` with no `>` until the next `;`, `{` or `}`, so
//!   that no output is redirected (`print > "/dev/stderr"`, `>>`); a `>`
//!   elsewhere compares.
//!
//! What awk refuses as a syntax error does not matter: awk reads the whole
//! program before it runs any of it.

use std::collections::BTreeMap;
use std::sync::LazyLock;

/// Names a printing awk program must not use: the ones that run commands
/// or close and flush them (`system`, `close`, `fflush`), read other
/// files (`getline`, `ARGV`/`ARGC`, gawk's message catalogs), read the
/// environment (`ENVIRON`, `PROCINFO`), reach variables or functions by
/// name (gawk's `SYMTAB`, `FUNCTAB`), or define functions; `print` and
/// `printf` are tokens of their own.
pub(super) const REFUSED_NAMES: &[&str] = &[
    "system",
    "getline",
    "close",
    "fflush",
    "ENVIRON",
    "PROCINFO",
    "ARGV",
    "ARGC",
    "SYMTAB",
    "FUNCTAB",
    "function",
    "func",
    "bindtextdomain",
    "dcgettext",
    "dcngettext",
];

/// The language, anchored; made once.
pub(super) fn prints_only() -> &'static str {
    static LANGUAGE: LazyLock<String> = LazyLock::new(language);
    LANGUAGE.as_str()
}

fn language() -> String {
    let mut refused: Vec<&str> = REFUSED_NAMES.to_vec();
    refused.extend(["print", "printf"]);
    let blank = r"[ \t\n]";
    let string = r#""(?:[^"\\\n]|\\[^\n])*""#;
    let regex = r"/(?:[^/\\\n\[]|\\[^\n]|\[\^?\]?(?:[^\]\\/\n\[]|\[:[a-z]+:\])*\])*/";
    let number = "[0-9]+(?:[eE][0-9]+)?";
    let divided = format!(r"{number}[ \t]*/");
    let word = format!("(?:{number}|{})", name_except(&refused));
    // Tokens after which a regex literal may follow.
    let opens = format!(r"(?:[(,!~]|&&|\|\|)(?:{blank}*{regex})?");
    let ends = format!("[;{{}}](?:{blank}*{regex})?");
    let operator = r"[)\[$=+*%^<>?:.-]|\](?:[ \t]*/)?";
    let operator_in_print = r"[)\[$=+*%^<?:.-]|\](?:[ \t]*/)?";
    let other = format!("(?:{blank}|{string}|{operator}|{opens}|{ends})");
    let other_in_print = format!("(?:{blank}|{string}|{operator_in_print}|{opens})");
    // Each unit is a token that is not a word (or the start), then at most
    // one word, so that no name is ever read as two; `print` holds until
    // `;`, `{` or `}`.
    let print = format!("printf?(?:{other_in_print}(?:{divided})*{word}?)*(?:{ends}|$)");
    format!("^(?:{blank}*{regex})?(?:(?:{other}|{print}|^)(?:{divided})*{word}?)*$")
}

/// An awk name (`[A-Za-z_][A-Za-z0-9_]*`) that is none of `words`: the
/// words' trie, each node offering the bytes that leave it (then any
/// name characters), its children, and its end if no word ends there.
fn name_except(words: &[&str]) -> String {
    #[derive(Default)]
    struct Node {
        children: BTreeMap<u8, Node>,
        word: bool,
    }
    fn spell(node: &Node, first: bool) -> String {
        let name_byte = |byte: &u8| byte.is_ascii_alphanumeric() || *byte == b'_';
        let leaving: Vec<u8> = (0..=u8::MAX)
            .filter(|byte| name_byte(byte) && !(first && byte.is_ascii_digit()))
            .filter(|byte| !node.children.contains_key(byte))
            .collect();
        let mut ways = vec![format!("{}[0-9A-Z_a-z]*", byte_class(&leaving))];
        for (byte, child) in &node.children {
            ways.push(format!("{}{}", char::from(*byte), spell(child, false)));
        }
        let optional = if first || node.word { "" } else { "?" };
        format!("(?:{}){optional}", ways.join("|"))
    }
    let mut root = Node::default();
    for word in words {
        let mut node = &mut root;
        for byte in word.bytes() {
            node = node.children.entry(byte).or_default();
        }
        node.word = true;
    }
    spell(&root, true)
}

/// `[...]` of ASCII word bytes, runs written as ranges.
fn byte_class(bytes: &[u8]) -> String {
    let mut class = String::from("[");
    let mut index = 0;
    while index < bytes.len() {
        let start = bytes[index];
        let mut end = start;
        while bytes.get(index + 1) == Some(&end.wrapping_add(1)) {
            end += 1;
            index += 1;
        }
        class.push(char::from(start));
        match end - start {
            0 => {}
            1 => class.push(char::from(end)),
            _ => {
                class.push('-');
                class.push(char::from(end));
            }
        }
        index += 1;
    }
    class.push(']');
    class
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn matches(program: &str) -> bool {
        static COMPILED: LazyLock<regex::Regex> =
            LazyLock::new(|| regex::Regex::new(prints_only()).expect("the language compiles"));
        COMPILED.is_match(program)
    }

    #[test]
    fn what_agents_type_is_within() {
        for program in [
            "{print $1}",
            "{print $1, $3}",
            "{print NR, $0}",
            "NR==2",
            "END {print NR}",
            "{s+=$3} END {print s}",
            "length > 80",
            "!seen[$0]++",
            r#"{printf "%s %d\n", $1, $2}"#,
            "/def detect_backend/,/^def [a-z]/",
            r#"NR>=262 && NR<=300{print NR": "$0}"#,
            "/^  pwm:/,0",
            "/^initial_pwm_duty:/,/^initial_dout/",
            "{ if ($3 > 5) print $1 }",
            "{print $3/1024}",
            "{ x = a[1] / 2 }",
            r"/a\/b/ {print}",
            r#"{gsub(/[[:space:]]+/, " "); print}"#,
            "$1 ~ /^[^#]/",
            "$0 !~ /x/ {n++} END {print n}",
            "{print length($0)}",
            "{print substr($0, 1, 10)}",
            r#"BEGIN{FS=":"} {print $1}"#,
            "{print toupper($1)}",
            r#"{for (i = NF; i > 0; i--) printf "%s ", $i; print ""}"#,
            "NF",
            "1",
            "{print $NF}",
            "{print $(NF-1)}",
            "BEGIN { OFS = \"\\t\" } { $1 = $1; print }",
            r#"{ n = split($0, a, ","); print a[n] }"#,
            r#"{ if (match($0, /[0-9]+/)) print substr($0, RSTART, RLENGTH) }"#,
            "{print}\nEND {print NR}",
            // `>`, `|` and `}` inside a string or a regex are characters.
            r#"{print "a|b>c}"}"#,
            "/a|b/",
            "/[>|]/ {print}",
            "{ if (x || y) print }",
            // Names that only start like a refused one.
            "{ systemd = 1; closed = getlines + 2; print systemd, closed }",
            "{ printx > 1 }",
            "{ ENVIRONMENT = 1 }",
        ] {
            assert!(matches(program), "{program:?}");
        }
    }

    #[test]
    fn what_runs_reads_or_writes_elsewhere_is_not() {
        for program in [
            r#"BEGIN {system("/bin/sh")}"#,
            "{system (\"id\")}",
            r#"{print | "sort"}"#,
            r#"{print |& "cat"}"#,
            "{ x = $1 | $2 }",
            r#"{printf "%s", $1 | "sh"}"#,
            r#"{print $1 > "out"}"#,
            r#"{print $1 >> "out"}"#,
            r#"{print > "/dev/stderr"}"#,
            r#"{printf "x" > "/dev/tty"}"#,
            r#"{ printf("%s", $1) > "out" }"#,
            r#"{ print; print > "f" }"#,
            r#"{print $1,
 $2 > "f"}"#,
            r#"{print "x" }
{print $1 > "f"}"#,
            r#"{ "date" | getline d }"#,
            "{getline}",
            r#"{getline line < "f"}"#,
            r#"BEGIN { cmd = "id"; cmd | getline }"#,
            r#"BEGIN{while ((getline l < "/etc/passwd") > 0) print l}"#,
            r#"{close("x")}"#,
            "{fflush()}",
            r#"@load "filefuncs""#,
            r#"@include "x.awk""#,
            r#"@namespace "x""#,
            r#"{ f = "system"; @f("id") }"#,
            r#"BEGIN{print ENVIRON["HOME"]}"#,
            r#"BEGIN{print PROCINFO["pid"]}"#,
            r#"BEGIN{ARGV[1]="/etc/passwd"; ARGC=2}"#,
            r#"BEGIN { print SYMTAB["x"] }"#,
            "function f(x) { return x } { print f($1) }",
            // A `/` some awk reads as a regex, hiding a string's end.
            r#"x = /"/ ; system("id") ; y = (/"/)"#,
            r#"if (x) /"/; sys = "/"; y = (/"/)"#,
            // Bytes outside a literal: a comment, a line continuation.
            "{print $1} # note",
            "{print $1 \\\n > \"f\"}",
            // An unfinished string or regex.
            r#"{print "a}"#,
            "/abc",
            "/[/]/",
        ] {
            assert!(!matches(program), "{program:?}");
        }
    }

    #[test]
    fn the_catalog_declares_the_language() {
        let declaration: serde_json::Value =
            serde_json::from_str(include_str!("../../../catalog/awk.json"))
                .expect("catalog/awk.json is JSON");
        let pattern = &declaration["parameters"]["program"]["pattern"];
        assert_eq!(
            pattern.as_str(),
            Some(prints_only()),
            "catalog/awk.json's program pattern, as JSON: {}",
            serde_json::Value::from(prints_only())
        );
    }

    #[test]
    fn names_other_than_the_refused_ones() {
        let name = regex::Regex::new(&format!("^{}$", name_except(REFUSED_NAMES)))
            .expect("the names compile");
        for word in REFUSED_NAMES {
            assert!(!name.is_match(word), "{word}");
            assert!(name.is_match(&format!("{word}x")), "{word}x");
            assert!(name.is_match(&format!("_{word}")), "_{word}");
            let shorter = &word[..word.len() - 1];
            assert_eq!(
                name.is_match(shorter),
                !REFUSED_NAMES.contains(&shorter),
                "{shorter}"
            );
        }
        assert!(!name.is_match("9lives"), "a name starts with a letter or _");
        assert!(name.is_match("_"));
    }

    /// A token of the language outside `print` (`>` compares there).
    fn token() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z_][a-z0-9_]{0,6}".prop_filter("a refused name", |name| {
                !REFUSED_NAMES.contains(&name.as_str()) && !name.starts_with("print")
            }),
            "[0-9]{1,4}",
            Just("$".to_owned()),
            Just("NR".to_owned()),
            Just("NF".to_owned()),
            Just("2 / 3".to_owned()),
            Just("a[1]/n".to_owned()),
            r#""([^"\\\n]|\\[a-z"\\/])*""#,
            prop::sample::select(vec![
                "(", ")", "[", "]", "=", "+=", "++", "-", "*", "%", "^", "<", ">", ">=", "==",
                "!=", "?", ":", "!", "~", "!~", "&&", "||", ",", ";", "{", "}", "\n", " ",
            ])
            .prop_map(str::to_owned),
        ]
    }

    /// A printing program: tokens, blanks between them, regex literals
    /// after `(` or `,`, `print`/`printf` statements ended by `;` or `}`.
    fn program() -> impl Strategy<Value = String> {
        let regex = r"/([^/\\\n\[]|\\[a-z/]|\[[a-z]*\])*/";
        let item = prop_oneof![
            4 => token(),
            1 => regex.prop_map(|regex| format!("({regex})")),
            1 => (regex, regex).prop_map(|(from, to)| format!("; {from},{to} ")),
            1 => (prop::bool::ANY, prop::collection::vec(token().prop_filter("no >", |token| !token.contains('>') && !token.contains([';', '{', '}'])), 0..5))
                .prop_map(|(formatted, tokens)| {
                    let keyword = if formatted { "printf" } else { "print" };
                    format!(" {keyword} {};", tokens.join(" "))
                }),
        ];
        prop::collection::vec(item, 0..12).prop_map(|items| items.join(" "))
    }

    proptest! {
        #[test]
        fn printing_programs_are_within(program in program()) {
            prop_assert!(matches(&program), "{program:?}");
        }

        #[test]
        fn one_dangerous_construct_is_not(
            program in program(),
            at in any::<prop::sample::Index>(),
            danger in prop::sample::select(vec![
                r#" system("id") "#,
                " getline ",
                r#" "cmd" | getline x "#,
                " | ",
                " |& ",
                r#"; print > "/dev/stderr" "#,
                r#"; printf "%s" >> "f" "#,
                r#" close("x") "#,
                " fflush() ",
                " @load ",
                r#" @include "f" "#,
                r#" ENVIRON["HOME"] "#,
                r#" PROCINFO["pid"] "#,
                " ARGV[1] = 1 ",
                " ARGC = 3 ",
                " # ",
            ]),
        ) {
            // Inserted between two items, never inside a literal.
            let items: Vec<&str> = program.split(' ').collect();
            let cut = at.index(items.len() + 1);
            let spliced = format!("{} {danger} {}", items[..cut].join(" "), items[cut..].join(" "));
            prop_assume!(!inside_literal(&spliced, danger));
            prop_assert!(!matches(&spliced), "{spliced:?}");
        }
    }

    /// Whether `danger` starts inside a string or regex literal of
    /// `program`, where it is only characters.
    fn inside_literal(program: &str, danger: &str) -> bool {
        let Some(at) = program.find(danger) else {
            return true;
        };
        let (mut in_string, mut in_regex, mut escaped) = (false, false, false);
        let mut previous = b'(';
        for &byte in &program.as_bytes()[..at] {
            if escaped {
                escaped = false;
                continue;
            }
            match byte {
                b'\\' if in_string || in_regex => escaped = true,
                b'"' if !in_regex => in_string = !in_string,
                b'/' if !in_string && (in_regex || b"(,;{}!~&|".contains(&previous)) => {
                    in_regex = !in_regex;
                }
                _ => {}
            }
            if !in_string && !in_regex && !byte.is_ascii_whitespace() {
                previous = byte;
            }
        }
        in_string || in_regex
    }
}
