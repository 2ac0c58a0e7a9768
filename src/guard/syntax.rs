//! The syntax of each pattern type, checked on the raw value (the one that
//! is passed on). The named rules run besides these; see `rules`.

use crate::contract::{PatternType, RegexDialect};

/// The longest `free_text` value: Linux refuses a longer argv word
/// (MAX_ARG_STRLEN, 32 pages, with its NUL), so the program could not
/// start.
pub const MAX_TEXT_BYTES: usize = 131_071;

/// Why a value is not of its pattern type, or `None` when it is. `dialect`
/// is the `regex_dialect` of a `regex` (`rust` when none is given).
pub fn syntax_error(
    pattern_type: PatternType,
    dialect: Option<RegexDialect>,
    value: &str,
) -> Option<String> {
    match pattern_type {
        PatternType::AlphanumericId => alphanumeric_id(value),
        PatternType::Uuid => uuid(value),
        PatternType::Semver => semver(value),
        PatternType::Filepath => filepath(value),
        PatternType::Url => url(value).err(),
        PatternType::FreeText => free_text(value),
        PatternType::Regex => {
            super::dialect::regex_error(dialect.unwrap_or(RegexDialect::Rust), value)
        }
    }
}

fn free_text(value: &str) -> Option<String> {
    (value.len() > MAX_TEXT_BYTES).then(|| {
        format!(
            "is {} bytes long; one argv word may have at most {MAX_TEXT_BYTES}",
            value.len()
        )
    })
}

/// What a value of `pattern_type` looks like, for `expected`.
pub fn expected(pattern_type: PatternType, dialect: Option<RegexDialect>) -> String {
    let text = match pattern_type {
        PatternType::FreeText => {
            return format!(
                "free_text: text of at most {MAX_TEXT_BYTES} bytes, passed as one argv word (shell metacharacters allowed; control and invisible characters, and a value that is only a placeholder, not)"
            );
        }
        PatternType::Regex => {
            return super::dialect::expected(dialect.unwrap_or(RegexDialect::Rust));
        }
        other => expected_fixed(other),
    };
    text.to_owned()
}

fn expected_fixed(pattern_type: PatternType) -> &'static str {
    match pattern_type {
        PatternType::AlphanumericId => {
            "alphanumeric_id: 1-128 ASCII letters, digits, '-' and '_', starting with a letter or digit (^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$)"
        }
        PatternType::Uuid => {
            "uuid: canonical 8-4-4-4-12 hexadecimal form (^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$)"
        }
        PatternType::Semver => {
            "semver: a SemVer 2.0.0 version such as 1.2.3, 1.2.3-rc.1 or 1.2.3+build.5"
        }
        PatternType::Filepath => {
            "filepath: an absolute or relative path without '..' segments, NUL or control characters"
        }
        PatternType::Url => {
            "url: an http or https URL without userinfo ('@'), spaces, control characters or '..' path segments"
        }
        PatternType::FreeText | PatternType::Regex => "text",
    }
}

/// The JSON Schema `pattern` (ECMA-262 and Rust regex alike) for a pattern
/// type, where one says enough; used by the JSON Schema export.
pub fn json_schema_pattern(pattern_type: PatternType) -> Option<&'static str> {
    match pattern_type {
        PatternType::AlphanumericId => Some("^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$"),
        PatternType::Uuid => {
            Some("^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
        }
        PatternType::Semver => Some(SEMVER_PATTERN),
        PatternType::Filepath => Some("^[^\\x00-\\x1F\\x7F]+$"),
        PatternType::Url => Some("^[Hh][Tt][Tt][Pp][Ss]?://[^\\s@/?#]+([/?#][^\\s]*)?$"),
        PatternType::FreeText | PatternType::Regex => None,
    }
}

/// SemVer 2.0.0, written out from the grammar in the specification: numeric
/// identifiers without leading zeros, dot-separated pre-release and build
/// identifiers.
const SEMVER_PATTERN: &str = concat!(
    "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)",
    "(-((0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?",
    "(\\+([0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*))?$"
);

/// The JSON Schema `format` that matches a pattern type, if one does. A
/// `url` gets none: `uri` refuses what the `url` type allows (`Straße`,
/// `?filter[name]=x`), and the export must accept what the declaration
/// accepts.
pub fn json_schema_format(pattern_type: PatternType) -> Option<&'static str> {
    match pattern_type {
        PatternType::Uuid => Some("uuid"),
        _ => None,
    }
}

fn alphanumeric_id(value: &str) -> Option<String> {
    let mut chars = value.chars();
    let Some(first) = chars.next() else {
        return Some("is empty".to_owned());
    };
    if value.len() > 128 {
        return Some(format!(
            "is {} characters long; the limit is 128",
            value.chars().count()
        ));
    }
    if !first.is_ascii_alphanumeric() {
        return Some(format!(
            "starts with {first:?}; it must start with a letter or digit"
        ));
    }
    chars
        .find(|ch| !(ch.is_ascii_alphanumeric() || *ch == '-' || *ch == '_'))
        .map(|ch| format!("contains {ch:?}; only ASCII letters, digits, '-' and '_' are allowed"))
}

fn uuid(value: &str) -> Option<String> {
    let groups: Vec<&str> = value.split('-').collect();
    let lengths = [8, 4, 4, 4, 12];
    let well_formed = groups.len() == lengths.len()
        && groups.iter().zip(lengths).all(|(group, length)| {
            group.len() == length && group.bytes().all(|b| b.is_ascii_hexdigit())
        });
    (!well_formed).then(|| "is not a UUID in the 8-4-4-4-12 hexadecimal form".to_owned())
}

fn semver(value: &str) -> Option<String> {
    if value.starts_with(['v', 'V']) {
        return Some("starts with 'v'; SemVer has no prefix".to_owned());
    }
    semver::Version::parse(value)
        .err()
        .map(|err| format!("is not SemVer 2.0.0 ({err})"))
}

/// The pattern type of a path adds only what the named rules do not cover.
fn filepath(value: &str) -> Option<String> {
    const MAX_PATH_BYTES: usize = 4096;
    (value.len() > MAX_PATH_BYTES).then(|| {
        format!(
            "is {} bytes long; the limit is {MAX_PATH_BYTES}",
            value.len()
        )
    })
}

/// The parts of an http(s) URL that the rules look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParts<'a> {
    pub authority: &'a str,
    pub path: &'a str,
}

/// Splits off the scheme and authority; `None` when `value` does not start
/// with `http://` or `https://`.
pub fn url_parts(value: &str) -> Option<UrlParts<'_>> {
    let scheme_end = value.find("://")?;
    let scheme = &value[..scheme_end];
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let rest = &value[scheme_end + 3..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let after = &rest[authority_end..];
    let path_end = after.find(['?', '#']).unwrap_or(after.len());
    Some(UrlParts {
        authority,
        path: &after[..path_end],
    })
}

fn url(value: &str) -> Result<(), String> {
    let Some(parts) = url_parts(value) else {
        return Err("is not an http:// or https:// URL".to_owned());
    };
    if parts.authority.contains('@') {
        return Err(
            "has userinfo ('@' before the host); credentials do not belong in a URL argument"
                .to_owned(),
        );
    }
    host_and_port(parts.authority)?;
    let after_authority =
        &value[value.find("://").map_or(0, |at| at + 3) + parts.authority.len()..];
    let mut seen_fragment = false;
    let mut seen_query = false;
    for (index, ch) in after_authority.char_indices() {
        match ch {
            ' ' => return Err("contains a space; encode it as %20".to_owned()),
            '?' => seen_query = true,
            // Common in queries (`?filter[name]=x`), though RFC 3986 wants
            // them encoded there; never in the path.
            '[' | ']' if seen_query || seen_fragment => {}
            '%' => {
                let escape = after_authority.get(index + 1..index + 3).unwrap_or("");
                if escape.len() != 2 || !escape.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err("has a '%' that does not start a %XX escape".to_owned());
                }
            }
            '#' if seen_fragment => return Err("has a second '#'".to_owned()),
            '#' => seen_fragment = true,
            'A'..='Z' | 'a'..='z' | '0'..='9' => {}
            '-' | '.' | '_' | '~' | '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | ';'
            | '=' | ':' | '@' | '/' => {}
            ch if !ch.is_ascii() && !ch.is_whitespace() && !ch.is_control() => {}
            ch => return Err(format!("contains {ch:?}, which a URL must percent-encode")),
        }
    }
    Ok(())
}

fn host_and_port(authority: &str) -> Result<(), String> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let end = rest.find(']').ok_or("has an unclosed '[' in the host")?;
        let literal = &rest[..end];
        if literal.is_empty()
            || !literal
                .chars()
                .all(|ch| ch.is_ascii_hexdigit() || ch == ':' || ch == '.')
        {
            return Err("has an invalid IPv6 host".to_owned());
        }
        let after = &rest[end + 1..];
        let port = match after.strip_prefix(':') {
            Some(port) => Some(port),
            None if after.is_empty() => None,
            None => return Err("has text after the IPv6 host".to_owned()),
        };
        ("[v6]", port)
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("has no host".to_owned());
    }
    if host != "[v6]"
        && !host
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '.' || ch == '_')
    {
        return Err(
            "has a host that is not ASCII letters, digits, '-', '.' and '_' (use punycode)"
                .to_owned(),
        );
    }
    if let Some(port) = port {
        let valid = !port.is_empty()
            && port.len() <= 5
            && port.bytes().all(|b| b.is_ascii_digit())
            && port.parse::<u32>().is_ok_and(|number| number <= 65_535);
        if !valid {
            return Err(format!("has an invalid port {port:?}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphanumeric_ids() {
        for ok in ["prod-east-1", "a", "A_b-9", "9lives", &"x".repeat(128)] {
            assert_eq!(alphanumeric_id(ok), None, "{ok}");
        }
        for bad in [
            "",
            "-x",
            "_x",
            "a/b",
            "a.b",
            "a?b",
            "a#b",
            "a%b",
            "a b",
            "é",
            &"x".repeat(129),
        ] {
            assert!(alphanumeric_id(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn uuids() {
        assert_eq!(uuid("123e4567-e89b-12d3-a456-426614174000"), None);
        assert_eq!(uuid("123E4567-E89B-12D3-A456-426614174000"), None);
        for bad in [
            "123e4567e89b12d3a456426614174000",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "123e4567-e89b-12d3-a456-42661417400g",
            "",
        ] {
            assert!(uuid(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn semvers() {
        for ok in [
            "1.2.3",
            "0.0.0",
            "1.2.3-rc.1",
            "1.0.0-alpha+001",
            "1.0.0+20130313144700",
            "1.0.0-x-y-z.--",
            "10.20.30",
        ] {
            assert_eq!(semver(ok), None, "{ok}");
        }
        for bad in [
            "v1.2.3", "01.2.3", "1.2", "1.2.3-01", "1.2.3 ", "1.2.3-", "1.2.3+", "",
        ] {
            assert!(semver(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn semver_pattern_agrees_with_the_crate() {
        let pattern = regex::Regex::new(SEMVER_PATTERN).unwrap();
        for case in [
            "1.2.3",
            "1.2.3-rc.1",
            "1.0.0-alpha+001",
            "1.0.0-x-y-z.--",
            "v1.2.3",
            "01.2.3",
            "1.2.3-01",
            "1.2",
            "1.2.3+a..b",
        ] {
            assert_eq!(pattern.is_match(case), semver(case).is_none(), "{case}");
        }
    }

    #[test]
    fn urls() {
        for ok in [
            "https://example.com",
            "http://example.com:8080/a/b?x=1&y=2#frag",
            "https://api.example.com/v1/items/%20x?q=a%2Fb",
            "https://[::1]:443/",
            "HTTPS://Example.COM/Straße",
            "https://example.com/a/./b",
            "https://example.com/search?next=../x",
            "https://example.com/items?filter[name]=x&page[size]=10",
            "https://example.com/a#section[2]",
        ] {
            assert_eq!(url(ok), Ok(()), "{ok}");
        }
        for bad in [
            "ftp://example.com",
            "example.com",
            "https://user:pw@example.com/",
            "https://example.com/a b",
            "https://example.com/%zz",
            "https://",
            "https://exa mple.com",
            "https://example.com:99999/",
            "https://example.com/<x>",
            "https://example.com/a\\b",
            "https://example.com/a[0]/b",
        ] {
            assert!(url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn url_parts_split_the_path() {
        let parts = url_parts("https://h:1/a/../b?x=../y#z").unwrap();
        assert_eq!(parts.authority, "h:1");
        assert_eq!(parts.path, "/a/../b");
    }
}
