//! Other spellings a program takes for one command, beyond how it reads
//! its options ([`super::syntax`]): a subcommand's other names (`docker
//! container ls` is `docker ps`, `npm t` is `npm test`), the options of a
//! program run through another (`cargo clippy -- -Dwarnings` hands
//! clippy-driver `-D warnings`), and an operand written as an option's
//! value (`grep -e TODO src` is `grep TODO src`). The hook reads a line in
//! its one canonical spelling, so a form declared once takes them all.
//!
//! Each rule here is the program's own documented equivalence, nothing
//! looser: a line rewritten means exactly what it meant.

/// `words` (the words after the program named by `key`) in their
/// canonical spelling, or `None` when no rule applies.
pub fn canonical(key: &str, words: &[&str]) -> Option<Vec<String>> {
    let rewritten = match key {
        "docker" => docker(words),
        "npm" => npm(words),
        "cargo" => cargo(words),
        "grep" | "egrep" | "fgrep" => grep(words),
        _ => None,
    }?;
    (rewritten != words).then_some(rewritten)
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

/// `docker container ls` and the other management-command names of the
/// classic commands (docker's `container` and `image` groups).
fn docker(words: &[&str]) -> Option<Vec<String>> {
    let classic = match words {
        ["container", "ls" | "list" | "ps", ..] => "ps",
        ["container", "rm" | "remove", ..] => "rm",
        ["container", "stop", ..] => "stop",
        ["container", "inspect", ..] => "inspect",
        ["image", "ls" | "list", ..] => "images",
        ["image", "rm" | "remove", ..] => "rmi",
        _ => return None,
    };
    let mut rewritten = vec![classic.to_owned()];
    rewritten.extend(owned(&words[2..]));
    Some(rewritten)
}

/// npm's own aliases of its commands (`npm help test` lists them).
fn npm(words: &[&str]) -> Option<Vec<String>> {
    let (first, rest) = words.split_first()?;
    let command = match *first {
        "t" | "tst" => "test",
        "run-script" | "rum" | "urn" => "run",
        "i" | "in" | "ins" | "inst" | "insta" | "instal" | "isnt" | "isnta" | "isntal"
        | "isntall" | "add" => "install",
        "clean-install" | "ic" | "install-clean" | "isntall-clean" => "ci",
        "un" | "unlink" | "remove" | "rm" | "r" => "uninstall",
        "up" | "upgrade" | "udpate" => "update",
        "list" => "ls",
        "info" | "show" | "v" => "view",
        _ => return None,
    };
    let mut rewritten = vec![command.to_owned()];
    rewritten.extend(owned(rest));
    Some(rewritten)
}

/// Rustc's lint-level options, each spelt `-X LINT` (clippy-driver reads
/// rustc's options).
const LINT_LEVELS: &[(&str, &str)] = &[
    ("-D", "--deny"),
    ("-W", "--warn"),
    ("-A", "--allow"),
    ("-F", "--forbid"),
];

/// `cargo clippy -- -Dwarnings` (`--deny warnings`, `--deny=warnings`) as
/// `-D warnings`; `cargo fmt -- --check` as `cargo fmt --check`, which
/// hands rustfmt the same `--check`.
fn cargo(words: &[&str]) -> Option<Vec<String>> {
    let end = words.iter().position(|word| *word == "--")?;
    let (before, tail) = (&words[..end], &words[end + 1..]);
    match *words.first()? {
        "clippy" => {
            let mut rewritten = owned(&words[..=end]);
            let mut at = 0;
            while let Some(word) = tail.get(at) {
                at += 1;
                let level = LINT_LEVELS.iter().find_map(|(short, long)| {
                    if *word == *short || *word == *long {
                        return Some((*short, None));
                    }
                    word.strip_prefix(long)
                        .and_then(|rest| rest.strip_prefix('='))
                        .or_else(|| word.strip_prefix(short))
                        .filter(|lint| !lint.is_empty())
                        .map(|lint| (*short, Some(lint)))
                });
                match level {
                    Some((short, Some(lint))) => {
                        rewritten.extend([short.to_owned(), lint.to_owned()])
                    }
                    Some((short, None)) => {
                        rewritten.push(short.to_owned());
                        if let Some(lint) = tail.get(at) {
                            rewritten.push((*lint).to_owned());
                            at += 1;
                        }
                    }
                    None => rewritten.push((*word).to_owned()),
                }
            }
            Some(rewritten)
        }
        "fmt" if tail == ["--check"] => {
            let mut rewritten = owned(before);
            if !before.contains(&"--check") {
                rewritten.push("--check".to_owned());
            }
            Some(rewritten)
        }
        _ => None,
    }
}

/// GNU grep's short options that take a value (`-A 3`, `-m1`).
const GREP_VALUED_SHORT: &[u8] = b"ABCDdefm";

/// GNU grep's long options that take a value as the next word.
const GREP_VALUED_LONG: &[&str] = &[
    "--after-context",
    "--before-context",
    "--binary-files",
    "--context",
    "--devices",
    "--directories",
    "--exclude",
    "--exclude-dir",
    "--exclude-from",
    "--file",
    "--group-separator",
    "--include",
    "--label",
    "--max-count",
    "--regexp",
];

/// `grep -e PATTERN ...` (`-ePATTERN`, `--regexp PATTERN`,
/// `--regexp=PATTERN`) as `grep ... PATTERN ...`, the pattern the first
/// operand: only with one pattern given so, none from `-f`, no `--`, and
/// a pattern that cannot be read as an option.
fn grep(words: &[&str]) -> Option<Vec<String>> {
    let mut kept: Vec<String> = Vec::with_capacity(words.len());
    let mut pattern: Option<&str> = None;
    let mut first_operand: Option<usize> = None;
    let mut at = 0;
    while let Some(&word) = words.get(at) {
        at += 1;
        if word == "--" {
            return None;
        }
        let given = if word == "-e" || word == "--regexp" {
            let value = *words.get(at)?;
            at += 1;
            Some(value)
        } else {
            word.strip_prefix("--regexp=")
                .or_else(|| word.strip_prefix("-e").filter(|value| !value.is_empty()))
        };
        if let Some(value) = given {
            if pattern.replace(value).is_some() {
                return None;
            }
            continue;
        }
        if word == "-f" || word.starts_with("--file") || (word.starts_with("-f") && word.len() > 2)
        {
            return None;
        }
        kept.push(word.to_owned());
        if let Some(long) = word.strip_prefix("--") {
            if GREP_VALUED_LONG.contains(&word) && !long.contains('=') {
                kept.push((*words.get(at)?).to_owned());
                at += 1;
            }
        } else if let Some(cluster) = word.strip_prefix('-').filter(|cluster| !cluster.is_empty()) {
            // The first letter that takes a value ends the cluster; with
            // nothing after it, the next word is its value.
            if let Some(valued) = cluster
                .bytes()
                .position(|letter| GREP_VALUED_SHORT.contains(&letter))
            {
                // A pattern (or pattern file) inside a cluster: left alone.
                if matches!(cluster.as_bytes()[valued], b'e' | b'f') {
                    return None;
                }
                if valued + 1 == cluster.len() {
                    kept.push((*words.get(at)?).to_owned());
                    at += 1;
                }
            }
        } else if first_operand.is_none() {
            first_operand = Some(kept.len() - 1);
        }
    }
    let pattern = pattern.filter(|pattern| !pattern.starts_with('-'))?;
    let at = first_operand.unwrap_or(kept.len());
    kept.insert(at, pattern.to_owned());
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(key: &str, line: &str) -> Option<String> {
        let words: Vec<&str> = line.split(' ').collect();
        canonical(key, &words).map(|words| words.join(" "))
    }

    #[test]
    fn subcommands_take_their_canonical_names() {
        assert_eq!(canon("docker", "container ls -a").as_deref(), Some("ps -a"));
        assert_eq!(canon("docker", "image list").as_deref(), Some("images"));
        assert_eq!(canon("npm", "t --silent").as_deref(), Some("test --silent"));
        assert_eq!(
            canon("npm", "run-script build").as_deref(),
            Some("run build")
        );
        assert_eq!(canon("npm", "test"), None);
        assert_eq!(canon("docker", "ps -a"), None);
        // Only the subcommand's place: a later word is an operand.
        assert_eq!(canon("npm", "run t"), None);
    }

    #[test]
    fn clippys_lint_levels_take_one_spelling() {
        for line in [
            "clippy --all-targets -- -Dwarnings",
            "clippy --all-targets -- --deny warnings",
            "clippy --all-targets -- --deny=warnings",
        ] {
            assert_eq!(
                canon("cargo", line).as_deref(),
                Some("clippy --all-targets -- -D warnings"),
                "{line}"
            );
        }
        assert_eq!(canon("cargo", "clippy -- -D warnings"), None);
        assert_eq!(canon("cargo", "test -- -Dwarnings"), None);
        assert_eq!(
            canon("cargo", "fmt --all -- --check").as_deref(),
            Some("fmt --all --check")
        );
        assert_eq!(canon("cargo", "fmt -- --check --edition 2021"), None);
    }

    #[test]
    fn greps_pattern_given_as_an_option_is_its_first_operand() {
        for line in [
            "-rn -e TODO src",
            "-rn --regexp=TODO src",
            "-rn --regexp TODO src",
            "-rneTODO src",
        ] {
            let expected = if line.contains("-rneTODO") {
                None
            } else {
                Some("-rn TODO src")
            };
            assert_eq!(canon("grep", line).as_deref(), expected, "{line}");
        }
        assert_eq!(
            canon("grep", "-m 1 -e x a b").as_deref(),
            Some("-m 1 x a b")
        );
        assert_eq!(canon("grep", "-e x").as_deref(), Some("x"));
        for line in [
            "-e a -e b src",
            "-e -x src",
            "-f pats -e x src",
            "-e x -- src",
            "-rn TODO src",
            "-rneTODO -e x src",
            "-ie x src",
        ] {
            assert_eq!(canon("grep", line), None, "{line}");
        }
    }
}
