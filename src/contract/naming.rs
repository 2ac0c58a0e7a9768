//! What makes a good name: for commands, parameters and flags, and the
//! nearest known name to offer when one is mistyped.

/// Why `name` cannot name a command, if it cannot: 1-128 ASCII letters,
/// digits, `-` and `_`, starting with a letter or digit. This is also what
/// keeps a hostile name (`../x`, `a/b`, `.`) from reaching the file system.
pub fn command_name_problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Some("it is empty".to_owned());
    };
    if name.len() > 128 {
        return Some("it is longer than 128 characters".to_owned());
    }
    if !first.is_ascii_alphanumeric() {
        return Some(format!(
            "it starts with {first:?}; names start with a letter or digit"
        ));
    }
    chars
        .find(|ch| !(ch.is_ascii_alphanumeric() || *ch == '-' || *ch == '_'))
        .map(|ch| format!("it contains {ch:?}; names are ASCII letters, digits, '-' and '_'"))
}

/// The candidate closest to `wanted` by edit distance (ignoring case and
/// `-`/`_`), if one is close enough to be what was meant.
pub fn closest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let fold = |text: &str| -> String {
        text.chars()
            .map(|ch| {
                if ch == '_' {
                    '-'
                } else {
                    ch.to_ascii_lowercase()
                }
            })
            .collect()
    };
    let wanted_folded = fold(wanted);
    let wanted_chars = wanted_folded.chars().count();
    // The distance costs length × length: a huge unknown name gets no hint.
    if wanted_chars > 256 {
        return None;
    }
    let limit = (wanted_chars / 3).max(1);
    candidates
        .into_iter()
        // Optimal string alignment: a swap of neighbours (`cuont` → `count`)
        // is one edit, as typos usually are.
        .map(|candidate| {
            (
                strsim::osa_distance(&wanted_folded, &fold(candidate)),
                candidate,
            )
        })
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Why `name` cannot be a parameter (a `--flag` and a JSON key), if so.
pub fn parameter_name_problem(name: &str) -> Option<String> {
    const RESERVED: [&str; 4] = ["json", "__proto__", "constructor", "prototype"];
    if RESERVED.contains(&name) {
        return Some(format!("`{name}` is reserved and cannot name a parameter"));
    }
    command_name_problem(name).map(|_| {
        format!("`{name}` cannot be a `--flag`: use 1-128 ASCII letters, digits, '-' and '_', starting with a letter or digit")
    })
}

/// `id`, `*-id`, `*_id`, `slug`, `*-name`, `*_name`, `key`, `*-key`, `*_key`.
pub fn looks_like_identifier(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(lower.as_str(), "id" | "slug" | "key")
        || [
            "-id", "_id", "-name", "_name", "-key", "_key", "-slug", "_slug",
        ]
        .iter()
        .any(|suffix| lower.ends_with(suffix))
}

/// A parameter name that says it holds a secret (CLI Agent Spec REQ-F-034,
/// REQ-C-016): one of its words (split on `-`, `_` and case) is `token`,
/// `secret`, `password`, `passwd`, `passphrase`, `credential(s)`, `apikey`
/// or `auth`, or two of them read `api key`, `private key`, `access key`,
/// `secret key` or `client secret`. `key` alone is not one (a sort key, a
/// primary key), nor is `author`. A name that points at a secret or
/// counts or switches something (`token-file`, `token-env`, `max-tokens`,
/// `allow-secret-argv`) holds no secret itself.
pub fn looks_secret(name: &str) -> bool {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '-' || c == '_' || c == '.' || c == ' ' {
            words.push(std::mem::take(&mut current));
            previous_lower = false;
            continue;
        }
        // camelCase: a capital after a small letter starts a word.
        if c.is_ascii_uppercase() && previous_lower {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    words.push(current);
    words.retain(|word| !word.is_empty());
    let points_elsewhere = words.last().is_some_and(|last| {
        matches!(
            last.as_str(),
            "file"
                | "path"
                | "dir"
                | "env"
                | "var"
                | "variable"
                | "name"
                | "id"
                | "url"
                | "uri"
                | "type"
                | "kind"
                | "count"
                | "limit"
                | "ttl"
                | "expiry"
                | "length"
                | "len"
        )
    });
    let counts_or_switches = words.first().is_some_and(|first| {
        matches!(
            first.as_str(),
            "max"
                | "min"
                | "num"
                | "allow"
                | "no"
                | "with"
                | "without"
                | "show"
                | "hide"
                | "redact"
                | "mask"
                | "require"
                | "use"
        )
    });
    if points_elsewhere || counts_or_switches {
        return false;
    }
    let single = |word: &str| {
        matches!(
            word,
            "token"
                | "tokens"
                | "secret"
                | "secrets"
                | "password"
                | "passwd"
                | "passphrase"
                | "credential"
                | "credentials"
                | "apikey"
                | "auth"
                | "pat"
        )
    };
    let pair = |first: &str, second: &str| {
        matches!(
            (first, second),
            ("api" | "private" | "access" | "secret" | "signing", "key") | ("client", "secret")
        )
    };
    words.iter().any(|word| single(word)) || words.windows(2).any(|two| pair(&two[0], &two[1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::pattern_anchoring_problem;

    #[test]
    fn secret_names() {
        for secret in [
            "token",
            "api_key",
            "api-key",
            "apiKey",
            "APIKey",
            "GITHUB_TOKEN",
            "password",
            "db-passwd",
            "client_secret",
            "auth",
            "auth-token",
            "private-key",
            "credentials",
            "accessKey",
            "apikey",
        ] {
            assert!(looks_secret(secret), "{secret}");
        }
        for plain in [
            "key",
            "sort-key",
            "primary_key",
            "author",
            "keyword",
            "tokenizer",
            "path",
            "id",
            "monkey",
            "passage",
            "token-file",
            "token_env",
            "max-tokens",
            "allow-secret-argv",
            "api-key-path",
            "TOKEN_VAR",
        ] {
            assert!(!looks_secret(plain), "{plain}");
        }
    }

    #[test]
    fn command_names() {
        for ok in ["deploy", "run-script", "read_file", "a", "9"] {
            assert_eq!(command_name_problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            "../etc/passwd",
            "a/b",
            "a\\b",
            ".",
            "..",
            "-x",
            "a.json",
            "a b",
            "é",
            &"x".repeat(129),
        ] {
            assert!(command_name_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn closest_names() {
        let names = ["deploy", "run-script", "files-get", "read_file"];
        assert_eq!(closest("deplyo", names), Some("deploy"));
        assert_eq!(closest("run_script", names), Some("run-script"));
        assert_eq!(closest("READ-FILE", names), Some("read_file"));
        assert_eq!(closest("zzzzzz", names), None);
        assert_eq!(closest("dpeloy", names), Some("deploy"));
    }

    #[test]
    fn identifier_names() {
        for name in [
            "id",
            "cluster-id",
            "user_id",
            "slug",
            "branch-name",
            "key",
            "api-key",
            "ID",
        ] {
            assert!(looks_like_identifier(name), "{name}");
        }
        for name in ["message", "idle", "keyboard", "version", "name", "video"] {
            assert!(!looks_like_identifier(name), "{name}");
        }
    }

    #[test]
    fn anchoring() {
        for ok in [
            "^[a-z]+$",
            "^(?:a|b)$",
            "^a\\$b$",
            "^[|]$",
            "^\\\\$",
            "^(?i)abc$",
            "^(?-m)x$",
            "^[[a-z]|b]$",
            "^a$|^b$",
            "\\A[a-z]+\\z",
            "^(?x) [a-z]+ # a comment\n$",
        ] {
            assert_eq!(pattern_anchoring_problem(ok), None, "{ok}");
        }
        for bad in [
            "[a-z]+",
            "^[a-z]+",
            "[a-z]+$",
            "^a|b$",
            "^a\\$",
            "^(?m)a$",
            "^(?im)a$",
            "",
            "^(?x)[a-z]+ #[\n|.*$",
            "^*a$",
            "(?:^)?a$",
        ] {
            assert!(pattern_anchoring_problem(bad).is_some(), "{bad}");
        }
        assert!(
            pattern_anchoring_problem("^(?m)a$")
                .unwrap()
                .contains("multi-line")
        );
    }

    #[test]
    fn parameter_names() {
        assert_eq!(parameter_name_problem("cluster-id"), None);
        assert_eq!(parameter_name_problem("read_file"), None);
        for bad in ["json", "__proto__", "constructor", "a=b", "-x", "a b", ""] {
            assert!(parameter_name_problem(bad).is_some(), "{bad}");
        }
    }
}
