//! Secret-looking values in a command line, replaced before the line is
//! written to the audit log or echoed in a reason.
//!
//! The hook sees lines no declaration describes (`export GH_TOKEN=…`,
//! `curl -H 'Authorization: Bearer …'`, `mysql -p…`), so it cannot know
//! which word is sensitive the way a declaration's `sensitive` parameter
//! says. It reads the text instead and errs toward hiding: a harmless word
//! lost from the log costs little, a token kept in a hash-chained log
//! cannot be taken back. Time is linear in the line.

use std::ops::Range;

use crate::contract::looks_secret;
use crate::guard::REDACTED;

/// `text` with each secret-looking value replaced by `[REDACTED]`, or
/// `None` when it holds none.
pub fn scrub(text: &str) -> Option<String> {
    let spans = secret_spans(text);
    if spans.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        if span.start < at {
            continue;
        }
        out.push_str(&text[at..span.start]);
        out.push_str(REDACTED);
        at = span.end;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// Whether a variable's name says its value may be a secret (`PGPASSWORD`,
/// `GH_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `SESSION_COOKIE`): any of a few
/// fragments anywhere in it, since such names run their words together.
pub fn variable_may_hold_secret(name: &str) -> bool {
    const FRAGMENTS: &[&str] = &[
        "pass", "pwd", "token", "secret", "key", "auth", "cred", "cookie", "session", "private",
    ];
    let lower = name.to_ascii_lowercase();
    FRAGMENTS.iter().any(|fragment| lower.contains(fragment))
}

/// The byte ranges of `text` to hide, in order.
fn secret_spans(text: &str) -> Vec<Range<usize>> {
    let words = words(text);
    let runs = |programs: &[&str]| {
        words.iter().any(|word| {
            let name = text[word.clone()].rsplit('/').next().unwrap_or_default();
            programs.contains(&name)
        })
    };
    // `-pSECRET`: MySQL's and sshpass's attached password; MySQL's bare
    // `-p` asks for it, sshpass's takes the next word.
    let mysql_like = runs(&[
        "mysql",
        "mysqldump",
        "mysqladmin",
        "mariadb",
        "mariadb-dump",
    ]);
    let sshpass = runs(&["sshpass"]);
    let mut spans = Vec::new();
    let mut hide_next = false;
    let mut after_header = false;
    for word in &words {
        let text_of = &text[word.clone()];
        if hide_next {
            hide_next = false;
            // `Authorization: Bearer TOKEN`: the scheme is not the secret.
            if after_header && is_auth_scheme(text_of) {
                hide_next = true;
                after_header = false;
                continue;
            }
            after_header = false;
            spans.push(word.clone());
            continue;
        }
        if let Some(span) = secret_in_word(text_of, mysql_like || sshpass) {
            spans.push(word.start + span.start..word.start + span.end);
            continue;
        }
        if let Some(header) = text_of.strip_suffix(':')
            && is_secret_header(header)
        {
            hide_next = true;
            after_header = true;
            continue;
        }
        if names_secret_that_follows(text_of) || (sshpass && text_of == "-p") {
            hide_next = true;
        }
    }
    spans
}

/// The shell's word boundaries, loosely: blanks, quotes and operators. A
/// quoted header or query string is cut into the parts the rules read.
fn words(text: &str) -> Vec<Range<usize>> {
    let is_boundary = |byte: u8| {
        byte.is_ascii_whitespace()
            || matches!(
                byte,
                b'\'' | b'"' | b'`' | b';' | b'|' | b'&' | b'(' | b')' | b'<' | b'>'
            )
    };
    let mut words = Vec::new();
    let mut start = None;
    for (index, byte) in text.bytes().enumerate() {
        match (is_boundary(byte), start) {
            (true, Some(from)) => {
                words.push(from..index);
                start = None;
            }
            (false, None) => start = Some(index),
            _ => {}
        }
    }
    if let Some(from) = start {
        words.push(from..text.len());
    }
    words
}

/// The part of one word that is a secret, relative to the word.
fn secret_in_word(word: &str, attached_password: bool) -> Option<Range<usize>> {
    // `NAME=value`, `--password=value`, `?access_token=value`.
    if let Some(equals) = word.find('=') {
        let name = word[..equals].trim_start_matches('-');
        let name = name.rsplit(['?', '&']).next().unwrap_or(name);
        let value = equals + 1..word.len();
        // `…` is a value already left out (see `with_assignments`); `$X`
        // and `$(…)` name where a value comes from, not the value.
        let text = &word[value.clone()];
        let shown = !matches!(text, "" | "…" | "...") && !text.starts_with(['$', '`']);
        if shown && (variable_may_hold_secret(name) || looks_secret(name)) {
            return Some(value);
        }
        if let Some(span) = token_shape(&word[value.clone()]) {
            return Some(value.start + span.start..value.start + span.end);
        }
    }
    if attached_password && word.len() > 2 && word.starts_with("-p") && !word.starts_with("--") {
        return Some(2..word.len());
    }
    if let Some(span) = userinfo(word) {
        return Some(span);
    }
    // `Authorization:Bearer…` written without a blank.
    if let Some(colon) = word.find(':')
        && is_secret_header(&word[..colon])
        && colon + 1 < word.len()
    {
        return Some(colon + 1..word.len());
    }
    token_shape(word)
}

/// A flag or key whose value is the next word: `--password x`,
/// `--api-key x`, `-token x`, `aws configure set aws_secret_access_key x`.
/// A bare word (`grep password src`) is a search, not a key.
fn names_secret_that_follows(word: &str) -> bool {
    let flag = word.strip_prefix("--").or_else(|| word.strip_prefix('-'));
    match flag {
        Some(name) => {
            !name.contains('=') && name.len() > 1 && (looks_secret(name) || has_secret_part(name))
        }
        None => word.contains(['_', '.']) && looks_secret(word),
    }
}

/// Names that run their words together (`--pgpassword`, `--authtoken`).
fn has_secret_part(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["password", "passwd", "secret", "token"]
        .iter()
        .any(|part| lower.contains(part))
        && !lower.ends_with("file")
        && !lower.starts_with("max")
}

fn is_secret_header(name: &str) -> bool {
    let name = name.trim_start_matches('-');
    let name = name
        .strip_prefix("H")
        .filter(|_| name.len() > 1 && name.as_bytes()[1].is_ascii_uppercase())
        .unwrap_or(name);
    [
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
        "x-api-key",
        "api-key",
        "apikey",
        "x-auth-token",
        "private-token",
        "x-access-token",
    ]
    .iter()
    .any(|header| name.eq_ignore_ascii_case(header))
}

fn is_auth_scheme(word: &str) -> bool {
    ["bearer", "basic", "token", "digest", "negotiate", "bot"]
        .iter()
        .any(|scheme| word.eq_ignore_ascii_case(scheme))
}

/// The password (or a token standing in for the user) in
/// `scheme://user:password@host`.
fn userinfo(word: &str) -> Option<Range<usize>> {
    let start = word.find("://")? + 3;
    let rest = &word[start..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let at = rest[..authority_end].rfind('@')?;
    let info = &rest[..at];
    match info.find(':') {
        Some(colon) if colon + 1 < info.len() => Some(start + colon + 1..start + at),
        None if info.len() >= 16 => Some(start..start + at),
        _ => None,
    }
}

/// A value shaped like a well-known kind of credential, at the start of
/// `value`: the prefixes the services put on their tokens so that they
/// can be found, an AWS access key id, a JSON web token.
fn token_shape(value: &str) -> Option<Range<usize>> {
    const PREFIXES: &[(&str, usize)] = &[
        ("github_pat_", 20),
        ("ghp_", 20),
        ("gho_", 20),
        ("ghu_", 20),
        ("ghs_", 20),
        ("ghr_", 20),
        ("glpat-", 20),
        ("xoxb-", 10),
        ("xoxp-", 10),
        ("xoxa-", 10),
        ("xoxe-", 10),
        ("sk-", 20),
        ("npm_", 30),
        ("pypi-", 40),
        ("AIza", 30),
        ("AKIA", 16),
        ("ASIA", 16),
        ("eyJ", 20),
    ];
    let body = |from: usize| {
        value[from..]
            .bytes()
            .take_while(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.'))
            .count()
    };
    PREFIXES.iter().find_map(|(prefix, least)| {
        if !value.starts_with(prefix) {
            return None;
        }
        let length = body(prefix.len());
        (length >= *least).then_some(0..prefix.len() + length)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scrubbed(line: &str) -> String {
        scrub(line).unwrap_or_else(|| line.to_owned())
    }

    #[test]
    fn named_values_and_flags_are_hidden() {
        for (line, shown) in [
            (
                "export GITHUB_TOKEN=abc123def && gh pr list",
                "export GITHUB_TOKEN=[REDACTED] && gh pr list",
            ),
            (
                "PGPASSWORD=hunter2 psql -h db",
                "PGPASSWORD=[REDACTED] psql -h db",
            ),
            (
                "tool --password=hunter2 go",
                "tool --password=[REDACTED] go",
            ),
            ("tool --api-key hunter2 go", "tool --api-key [REDACTED] go"),
            ("tool --pgpassword hunter2", "tool --pgpassword [REDACTED]"),
            (
                "aws configure set aws_secret_access_key wJalrXUtnFEMI",
                "aws configure set aws_secret_access_key [REDACTED]",
            ),
            (
                "mysql -u root -pSuperSecret123 db",
                "mysql -u root -p[REDACTED] db",
            ),
            (
                "sshpass -p hunter2 ssh host",
                "sshpass -p [REDACTED] ssh host",
            ),
            (
                "curl 'https://api.example.com/x?access_token=abc&page=2'",
                "curl 'https://api.example.com/x?access_token=[REDACTED]&page=2'",
            ),
        ] {
            assert_eq!(scrubbed(line), shown, "{line}");
        }
    }

    #[test]
    fn headers_urls_and_token_shapes_are_hidden() {
        for (line, shown) in [
            (
                r#"curl -H "Authorization: Bearer abc.def" https://x"#,
                r#"curl -H "Authorization: Bearer [REDACTED]" https://x"#,
            ),
            (
                "curl -H 'X-Api-Key: k123' -H 'Accept: json' u",
                "curl -H 'X-Api-Key: [REDACTED]' -H 'Accept: json' u",
            ),
            (
                "curl -H Authorization:Bearer123 u",
                "curl -H Authorization:[REDACTED] u",
            ),
            (
                "git clone https://ada:s3cret@github.com/o/r",
                "git clone https://ada:[REDACTED]@github.com/o/r",
            ),
            (
                "echo ghp_0123456789abcdefghijABCDEFGHIJ | gh auth login --with-token",
                "echo [REDACTED] | gh auth login --with-token",
            ),
            ("echo AKIAIOSFODNN7EXAMPLE", "echo [REDACTED]"),
            (
                "x --json=sk-ant-api03-0123456789abcdef0123",
                "x --json=[REDACTED]",
            ),
        ] {
            assert_eq!(scrubbed(line), shown, "{line}");
        }
    }

    #[test]
    fn everyday_lines_are_left_alone() {
        for line in [
            "git status",
            "git log --author Ada --oneline -n 5",
            "grep -rn password src/",
            "NODE_ENV=test RUST_LOG=debug cargo test",
            "cargo test -p aigent --no-fail-fast",
            "gh pr view 12 --json title,body",
            "curl -s https://example.com/api/v1/items?page=2",
            "git clone git@github.com:o/r.git",
            "sort -k 2 file.txt",
            "task --max-tokens 10",
            "skills --token-file ~/.tok",
            "mysql -p db",
            "`GH_TOKEN=…` changes the environment",
            "export GH_TOKEN=$(gh auth token) && gh pr list",
            "SESSION_DIR=$(mktemp -d)",
        ] {
            assert_eq!(scrub(line), None, "{line}");
        }
    }

    proptest::proptest! {
        /// Whatever surrounds it, a token of a known shape or a value of a
        /// secret-named variable never survives.
        #[test]
        fn a_secret_never_survives_its_surroundings(
            before in "\\PC{0,40}",
            after in "\\PC{0,40}",
            body in "[A-Za-z0-9]{24,40}",
            named in proptest::bool::ANY,
        ) {
            let secret = if named { format!("GH_TOKEN={body}") } else { format!("ghp_{body}") };
            let line = format!("{before} {secret} {after}");
            let hidden = scrub(&line).expect("something is hidden");
            proptest::prop_assert!(!hidden.contains(&body), "{hidden}");
        }
    }

    #[test]
    fn odd_input_never_panics_and_stays_linear() {
        for line in [
            "",
            "=",
            "--=",
            "://@",
            "-p",
            "é=ü",
            "Authorization:",
            "a:b@c",
        ] {
            let _ = scrub(line);
        }
        let long = "TOKEN=x ".repeat(100_000);
        let hidden = scrub(&long).unwrap();
        assert_eq!(hidden.matches(REDACTED).count(), 100_000);
    }
}
