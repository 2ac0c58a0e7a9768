//! Whether a `pattern_type: regex` value is a regular expression in the
//! dialect its declaration names, within a size limit, so that an agent
//! learns of a broken pattern from aigent (exit 2, nothing ran) rather
//! than from the program, half-way through.
//!
//! - `rust`: the `regex` crate compiles it, within 1 MiB of program.
//! - `pcre`: `fancy-regex`, a Perl-compatible engine (look-around,
//!   back-references, atomic groups, possessive quantifiers), parses and
//!   compiles it. A PCRE construct it lacks (recursion, callouts,
//!   backtracking verbs, `\Q...\E`) is refused: stricter, never looser.
//! - `ere`: a parser of POSIX extended expressions as GNU `grep -E` reads
//!   them, below. It refuses what GNU refuses (an unclosed `(` or `[`, a
//!   bad class name, a range out of order, a back-reference to no group, a
//!   trailing `\`, a malformed `{m,n}`), and also an unmatched `)`, which
//!   POSIX leaves undefined.
//!
//! Every dialect refuses a pattern over [`MAX_REGEX_BYTES`], a repetition
//! count over [`MAX_REPEAT`] and groups nested deeper than [`MAX_NESTING`].

use crate::contract::RegexDialect;

/// The longest regular expression accepted, in bytes.
pub const MAX_REGEX_BYTES: usize = 4096;
/// The largest count in `{m,n}`.
pub const MAX_REPEAT: u32 = 1000;
/// How deep groups may nest.
pub const MAX_NESTING: usize = 64;
/// The compiled size limit for `rust` and `pcre`.
const COMPILED_LIMIT: usize = 1 << 20;

/// Why `value` is not a regular expression in `dialect`, or `None` when it
/// is one.
pub fn regex_error(dialect: RegexDialect, value: &str) -> Option<String> {
    if value.len() > MAX_REGEX_BYTES {
        return Some(format!(
            "is {} bytes long; a regular expression may have at most {MAX_REGEX_BYTES}",
            value.len()
        ));
    }
    let problem = match dialect {
        RegexDialect::Rust => rust(value),
        RegexDialect::Pcre => pcre(value),
        RegexDialect::Ere => Ere::new(value).check().err(),
    }?;
    Some(format!(
        "is not a valid {} regular expression: {problem}",
        name(dialect)
    ))
}

/// What a valid value looks like, for `expected`.
pub fn expected(dialect: RegexDialect) -> String {
    format!(
        "regex: a {} regular expression of at most {MAX_REGEX_BYTES} bytes, passed as one argv word (shell metacharacters allowed; control characters and placeholders not)",
        name(dialect)
    )
}

fn name(dialect: RegexDialect) -> &'static str {
    match dialect {
        RegexDialect::Ere => "POSIX extended (ERE)",
        RegexDialect::Pcre => "Perl-compatible (PCRE)",
        RegexDialect::Rust => "Rust `regex`",
    }
}

fn last_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())
        .unwrap_or("")
        .to_owned()
}

fn rust(value: &str) -> Option<String> {
    regex::RegexBuilder::new(value)
        .size_limit(COMPILED_LIMIT)
        .dfa_size_limit(COMPILED_LIMIT)
        .nest_limit(u32::try_from(MAX_NESTING).unwrap_or(u32::MAX))
        .build()
        .err()
        .map(|err| last_line(&err.to_string()))
        .or_else(|| repeat_over_limit(value))
}

fn pcre(value: &str) -> Option<String> {
    fancy_regex::RegexBuilder::new(value)
        .delegate_size_limit(COMPILED_LIMIT)
        .delegate_dfa_size_limit(COMPILED_LIMIT)
        .build()
        .err()
        .map(|err| last_line(&err.to_string()))
        .or_else(|| repeat_over_limit(value))
        .or_else(|| (nesting(value) > MAX_NESTING).then(nesting_message))
}

fn nesting_message() -> String {
    format!("groups nest deeper than {MAX_NESTING}")
}

/// The deepest `(` nesting outside classes and escapes (an
/// over-approximation for `pcre`, whose engine has no nest limit of its
/// own).
fn nesting(value: &str) -> usize {
    let (mut depth, mut deepest, mut escaped, mut class) = (0usize, 0usize, false, false);
    for ch in value.chars() {
        match (escaped, class, ch) {
            (true, _, _) => escaped = false,
            (false, _, '\\') => escaped = true,
            (false, false, '[') => class = true,
            (false, true, ']') => class = false,
            (false, false, '(') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, false, ')') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// A `{m,n}` count over [`MAX_REPEAT`] anywhere in the text (the engines
/// accept larger ones, which blow up the programs that run them).
fn repeat_over_limit(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 2,
            b'{' => {
                let mut end = index + 1;
                while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b',') {
                    end += 1;
                }
                if bytes.get(end) == Some(&b'}')
                    && value[index + 1..end]
                        .split(',')
                        .filter_map(|count| count.parse::<u64>().ok())
                        .any(|count| count > u64::from(MAX_REPEAT))
                {
                    return Some(format!(
                        "a repetition count is over {MAX_REPEAT} (`{}`)",
                        &value[index..=end]
                    ));
                }
                index = end;
            }
            _ => index += 1,
        }
    }
    None
}

/// A recursive-descent reader of POSIX EREs, as GNU reads them.
struct Ere<'a> {
    chars: Vec<char>,
    at: usize,
    /// Groups closed so far (back-references may name only these).
    closed_groups: usize,
    opened_groups: usize,
    depth: usize,
    _text: &'a str,
}

const CLASSES: &[&str] = &[
    "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph",
    "cntrl", "xdigit",
];

impl<'a> Ere<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            chars: text.chars().collect(),
            at: 0,
            closed_groups: 0,
            opened_groups: 0,
            depth: 0,
            _text: text,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn check(mut self) -> Result<(), String> {
        self.alternation()?;
        match self.peek() {
            None => Ok(()),
            Some(')') => Err(format!(
                "an unmatched `)` at character {} (escape it as `\\)` to match a parenthesis)",
                self.at + 1
            )),
            Some(other) => Err(format!("unexpected {other:?} at character {}", self.at + 1)),
        }
    }

    /// `branch ('|' branch)*`; an empty branch is allowed, as GNU allows
    /// it (`a|` matches every line).
    fn alternation(&mut self) -> Result<(), String> {
        self.branch()?;
        while self.peek() == Some('|') {
            self.at += 1;
            self.branch()?;
        }
        Ok(())
    }

    fn branch(&mut self) -> Result<(), String> {
        let mut first = true;
        while let Some(ch) = self.peek() {
            if ch == '|' || ch == ')' {
                break;
            }
            self.piece(first)?;
            first = false;
        }
        Ok(())
    }

    /// An atom and its repetitions. At the start of a branch, `*`, `+`,
    /// `?` and `{` are literal (as GNU reads them).
    fn piece(&mut self, first: bool) -> Result<(), String> {
        let ch = self.peek().unwrap_or_default();
        if first && matches!(ch, '*' | '+' | '?' | '{') {
            self.at += 1;
        } else {
            self.atom()?;
        }
        while let Some(ch) = self.peek() {
            match ch {
                '*' | '+' | '?' => self.at += 1,
                '{' => self.interval()?,
                _ => break,
            }
        }
        Ok(())
    }

    fn atom(&mut self) -> Result<(), String> {
        let start = self.at;
        let Some(ch) = self.peek() else {
            return Ok(());
        };
        self.at += 1;
        match ch {
            '(' => {
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    return Err(nesting_message());
                }
                self.opened_groups += 1;
                self.alternation()?;
                if self.peek() != Some(')') {
                    return Err(format!(
                        "the `(` at character {} is never closed",
                        start + 1
                    ));
                }
                self.at += 1;
                self.depth -= 1;
                self.closed_groups += 1;
                Ok(())
            }
            '[' => self.bracket(start),
            '\\' => self.escape(start),
            _ => Ok(()),
        }
    }

    fn escape(&mut self, start: usize) -> Result<(), String> {
        let Some(next) = self.peek() else {
            return Err("it ends with a lone `\\`".to_owned());
        };
        self.at += 1;
        if let Some(digit) = next.to_digit(10).filter(|digit| *digit > 0) {
            let group = usize::try_from(digit).unwrap_or(usize::MAX);
            if group > self.closed_groups {
                return Err(format!(
                    "`\\{digit}` at character {} refers to group {digit}, which is not closed before it",
                    start + 1
                ));
            }
        }
        Ok(())
    }

    /// `[...]`: an optional `^`, a `]` first is literal, then characters,
    /// ranges, `[:class:]`, `[=c=]` and `[.c.]`, up to the closing `]`.
    fn bracket(&mut self, start: usize) -> Result<(), String> {
        let unclosed = || format!("the `[` at character {} is never closed", start + 1);
        if self.peek() == Some('^') {
            self.at += 1;
        }
        let mut first = true;
        // The last single character, for a range `a-z`.
        let mut previous: Option<char> = None;
        loop {
            let Some(ch) = self.peek() else {
                return Err(unclosed());
            };
            if ch == ']' && !first {
                self.at += 1;
                return Ok(());
            }
            first = false;
            if ch == '[' && matches!(self.chars.get(self.at + 1), Some(':' | '=' | '.')) {
                let kind = self.chars[self.at + 1];
                let open_at = self.at;
                self.at += 2;
                let name_start = self.at;
                while self.peek().is_some()
                    && !(self.peek() == Some(kind) && self.chars.get(self.at + 1) == Some(&']'))
                {
                    self.at += 1;
                }
                if self.peek().is_none() {
                    return Err(format!(
                        "the `[{kind}` at character {} is never closed by `{kind}]`",
                        open_at + 1
                    ));
                }
                let inner: String = self.chars[name_start..self.at].iter().collect();
                self.at += 2;
                if kind == ':' && !CLASSES.contains(&inner.as_str()) {
                    return Err(format!(
                        "`[:{inner}:]` is not a character class (one of {})",
                        CLASSES.join(", ")
                    ));
                }
                if kind != ':' && inner.chars().count() != 1 {
                    return Err(format!("`[{kind}{inner}{kind}]` names no single character"));
                }
                previous = None;
                continue;
            }
            self.at += 1;
            if ch == '-'
                && let Some(low) = previous
                && let Some(high) = self.peek().filter(|high| *high != ']')
            {
                self.at += 1;
                if high < low {
                    return Err(format!(
                        "the range `{low}-{high}` in the class at character {} is out of order",
                        start + 1
                    ));
                }
                previous = None;
                continue;
            }
            previous = Some(ch);
        }
    }

    /// `{m}`, `{m,}`, `{,n}` or `{m,n}`, with m ≤ n ≤ [`MAX_REPEAT`].
    fn interval(&mut self) -> Result<(), String> {
        let start = self.at;
        self.at += 1;
        let mut text = String::new();
        while let Some(ch) = self.peek() {
            if ch == '}' {
                break;
            }
            text.push(ch);
            self.at += 1;
        }
        let bad = || {
            format!(
                "the repetition at character {} is not `{{m}}`, `{{m,}}`, `{{,n}}` or `{{m,n}}` (escape `{{` as `\\{{` to match a brace)",
                start + 1
            )
        };
        if self.peek() != Some('}') {
            return Err(bad());
        }
        self.at += 1;
        let (low, high) = match text.split_once(',') {
            None => (text.as_str(), Some(text.as_str())),
            Some((low, "")) => (low, None),
            Some((low, high)) => (low, Some(high)),
        };
        let parse = |count: &str| -> Result<u32, String> {
            if count.is_empty() || !count.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(bad());
            }
            count
                .parse::<u32>()
                .ok()
                .filter(|count| *count <= MAX_REPEAT)
                .ok_or_else(|| {
                    format!(
                        "the repetition count `{count}` at character {} is over {MAX_REPEAT}",
                        start + 1
                    )
                })
        };
        let low = if low.is_empty() { 0 } else { parse(low)? };
        if let Some(high) = high {
            let high = parse(high)?;
            if high < low {
                return Err(format!(
                    "the repetition `{{{text}}}` at character {} has its bounds out of order",
                    start + 1
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(dialect: RegexDialect, value: &str) -> bool {
        regex_error(dialect, value).is_none()
    }

    #[test]
    fn ere_accepts_what_grep_e_accepts() {
        for value in [
            "(foo|bar)$",
            "^[[:alpha:]_][[:alnum:]_]*$",
            "a{2,3}b{,4}c{5}d{6,}",
            "[]a-]",
            "[^]x]",
            "(a)(b)\\2\\1",
            "\\<word\\>",
            "\\.",
            "a||b",
            "*literal",
            "{",
            "x*+?",
            "[a\\]",
            "[[.-.]]",
            "[[=e=]]",
        ] {
            assert!(
                ok(RegexDialect::Ere, value),
                "{value}: {:?}",
                regex_error(RegexDialect::Ere, value)
            );
        }
    }

    #[test]
    fn ere_refuses_what_grep_e_refuses() {
        for value in [
            "(a",
            "a)",
            "[a",
            "[[:alfa:]]",
            "[z-a]",
            "\\1(a)",
            "a\\",
            "a{2,1}",
            "a{1",
            "a{x}",
            "a{2000}",
            "[[:alpha:]",
        ] {
            assert!(!ok(RegexDialect::Ere, value), "{value}");
        }
        let message = regex_error(RegexDialect::Ere, "(a").unwrap();
        assert!(message.contains("never closed"), "{message}");
        assert!(message.contains("ERE"), "{message}");
    }

    #[test]
    fn pcre_and_rust_dialects() {
        assert!(ok(RegexDialect::Pcre, r"(?<=foo)bar(?!baz)"));
        assert!(ok(RegexDialect::Pcre, r"(\w+)\s\1"));
        assert!(!ok(RegexDialect::Rust, r"(\w+)\s\1"));
        assert!(ok(RegexDialect::Rust, r"(?i)^fn\s+\w+"));
        for dialect in [RegexDialect::Pcre, RegexDialect::Rust] {
            assert!(!ok(dialect, "(a"), "{dialect}");
            assert!(!ok(dialect, "a{5000}"), "{dialect}");
        }
        assert!(!ok(
            RegexDialect::Pcre,
            &format!("{}a{}", "(".repeat(80), ")".repeat(80))
        ));
    }

    #[test]
    fn size_limits_hold_in_every_dialect() {
        let long = "a".repeat(MAX_REGEX_BYTES + 1);
        for dialect in [RegexDialect::Ere, RegexDialect::Pcre, RegexDialect::Rust] {
            assert!(!ok(dialect, &long));
            assert!(!ok(
                dialect,
                &format!("{}a{}", "(".repeat(100), ")".repeat(100))
            ));
        }
        // Linear: a long pattern of nested classes and groups is read fast.
        let many = "([a-z]|b)".repeat(400);
        assert!(ok(RegexDialect::Ere, &many));
    }
}
