//! What the hook knows of paths beyond the declarations: the home
//! directory a leading `~` stands for, and the files that hold secrets.

use std::path::Path;

use crate::fsutil::remembered;
use crate::shell::{NotStatic, SimpleCommand, Word};

/// The rule of a read or write of a file that looks like it holds a
/// secret.
pub(super) const SECRET_RULE: &str = "secret_file";

/// `command` with the words bash expands in a way the hook can follow
/// written out: a brace list (`src/{a,b}` is `src/a src/b`) and a leading
/// `~` (`~`, `~/x`, with `home`, when that is a plain absolute path), as
/// bash expands them, braces first. `None` when there is no such word. A
/// word with anything else that expands stays as it is, and is refused as
/// before.
pub(super) fn expanded(command: &SimpleCommand, home: Option<&str>) -> Option<SimpleCommand> {
    let home = home
        .filter(|home| home.starts_with('/') && is_plain(home))
        .map(|home| home.trim_end_matches('/'));
    let expand = |word: &Word| -> Option<Vec<Word>> {
        let Word::Dynamic { source, why } = word else {
            return None;
        };
        if !matches!(why, NotStatic::TildeExpansion | NotStatic::BraceExpansion) {
            return None;
        }
        brace_words(source)?
            .into_iter()
            .map(|text| match text.strip_prefix('~') {
                Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                    home.map(|home| format!("{home}{rest}"))
                }
                _ => Some(text),
            })
            .map(|text| {
                text.filter(|text| is_plain(text))
                    .map(|text| Word::Static { text })
            })
            .collect()
    };
    let mut expanded = command.clone();
    let mut changed = false;
    let mut words = Vec::with_capacity(command.words.len());
    for word in &command.words {
        match expand(word) {
            Some(more) => {
                words.extend(more);
                changed = true;
            }
            None => words.push(word.clone()),
        }
    }
    expanded.words = words;
    for redirect in &mut expanded.redirects {
        // A redirection's target is one word: bash refuses one that
        // expands to more.
        if let Some(mut one) = expand(&redirect.target).filter(|words| words.len() == 1) {
            redirect.target = one.remove(0);
            changed = true;
        }
    }
    // The line's own text no longer says where the words are.
    expanded.words_span = None;
    changed.then_some(expanded)
}

/// Words a brace expansion makes of `source`: lists of plain items
/// (`{a,b}`, `{,x}`), not nested, at most 64 words; `None` for anything
/// else (a range, nesting, a quote).
fn brace_words(source: &str) -> Option<Vec<String>> {
    const MAX_WORDS: usize = 64;
    let mut words = vec![String::new()];
    let mut rest = source;
    while !rest.is_empty() {
        match rest.find('{') {
            None => {
                if rest.contains('}') {
                    return None;
                }
                words.iter_mut().for_each(|word| word.push_str(rest));
                break;
            }
            Some(open) => {
                let (before, group) = rest.split_at(open);
                if before.contains('}') {
                    return None;
                }
                words.iter_mut().for_each(|word| word.push_str(before));
                let close = group.find('}')?;
                let inner = &group[1..close];
                if inner.contains('{') || !inner.contains(',') || inner.contains("..") {
                    return None;
                }
                let items: Vec<&str> = inner.split(',').collect();
                if words.len() * items.len() > MAX_WORDS {
                    return None;
                }
                words = words
                    .iter()
                    .flat_map(|word| items.iter().map(move |item| format!("{word}{item}")))
                    .collect();
                rest = &group[close + 1..];
            }
        }
    }
    Some(words)
}

/// Text bash takes as it is: no quote, escape, expansion or glob.
fn is_plain(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|ch| {
            ch.is_alphanumeric()
                || matches!(
                    ch,
                    '/' | '.' | '_' | '-' | '+' | '@' | ',' | '%' | ':' | '=' | '#'
                )
        })
}

/// Whether `target`, named from `cwd`, is the home directory or a
/// directory above it: a command that changes it changes everything the
/// user has (`rm -rf ~`, `chmod -R 777 ~/`), wherever the home is (in
/// `/tmp` too, where the temporary directory's forms would allow it).
pub(super) fn is_home_or_above(target: &str, cwd: Option<&Path>, home: Option<&str>) -> bool {
    let Some(home) = home.filter(|home| home.starts_with('/')) else {
        return false;
    };
    let target = Path::new(target);
    let joined = match cwd {
        _ if target.is_absolute() => target.to_path_buf(),
        Some(cwd) => cwd.join(target),
        None => return false,
    };
    let lexical: std::path::PathBuf = joined.components().collect();
    let home = Path::new(home);
    let real_home = remembered::canonicalize(home).unwrap_or_else(|_| home.to_path_buf());
    let real = crate::guard::resolve_existing(&lexical).unwrap_or_else(|| lexical.clone());
    home.starts_with(&lexical) || real_home.starts_with(&real)
}

/// Whether `target`, named from `cwd`, lies in the home directory but not
/// in `project`: somewhere else, for a command that changes files, even
/// when the home directory is itself in `/tmp`.
pub(super) fn in_home_outside(
    target: &str,
    cwd: Option<&Path>,
    home: Option<&str>,
    project: Option<&Path>,
) -> bool {
    let Some(home) = home.filter(|home| home.starts_with('/')) else {
        return false;
    };
    let target = Path::new(target);
    let joined = match cwd {
        _ if target.is_absolute() => target.to_path_buf(),
        Some(cwd) => cwd.join(target),
        None => return false,
    };
    let real = crate::guard::resolve_existing(&joined).unwrap_or(joined);
    let home = remembered::canonicalize(home).unwrap_or_else(|_| Path::new(home).to_path_buf());
    real.starts_with(&home) && !project.is_some_and(|project| real.starts_with(project))
}

/// The reason given for a command that changes the home directory.
pub(super) fn home_message(target: &str) -> String {
    format!(
        "`{}` may be the home directory or a directory above it, from a directory this command may run in: changing it changes everything the user has",
        super::cut(target)
    )
}

/// Directories whose files are keys and tokens, wherever they are.
pub(super) const SECRET_DIRECTORIES: &[&str] =
    &[".aws", ".azure", ".gnupg", ".password-store", ".ssh"];

/// Files that hold credentials, by name.
pub(super) const SECRET_FILES: &[&str] = &[
    ".bash_history",
    ".boto",
    ".dockercfg",
    ".env",
    ".git-credentials",
    ".htpasswd",
    ".my.cnf",
    ".netrc",
    ".npmrc",
    ".pgpass",
    ".pypirc",
    ".s3cfg",
    ".terraformrc",
    ".vault-token",
    ".zsh_history",
    "_netrc",
    "application_default_credentials.json",
    "credentials",
    "credentials.db",
    "credentials.json",
    "credentials.toml",
    // `/proc/PID/environ`: the tokens in a process's environment.
    "environ",
    "gshadow",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    "id_rsa",
    "shadow",
];

/// Extensions of key stores and private keys.
pub(super) const SECRET_EXTENSIONS: &[&str] = &["jks", "key", "keystore", "p12", "pem", "pfx"];

/// `.env.example` and its kin are templates, not secrets.
const TEMPLATE_SUFFIXES: &[&str] = &[".dist", ".example", ".sample", ".template"];

/// Whether `path` names a file that holds secrets by its name: in `~/.ssh`
/// or `~/.aws`, a `.env` (`.env.local` too, not `.env.example`), a private
/// key, a credentials file, a `.kube/config`, gh's `hosts.yml`.
pub(super) fn looks_secret(path: &str) -> bool {
    let path = Path::new(path);
    let names: Vec<&str> = path
        .components()
        .filter_map(|component| component.as_os_str().to_str())
        .collect();
    if names.iter().any(|name| {
        SECRET_DIRECTORIES
            .iter()
            .any(|dir| name.eq_ignore_ascii_case(dir))
    }) {
        return true;
    }
    let Some(file) = names.last().map(|name| name.to_ascii_lowercase()) else {
        return false;
    };
    let parent = names.len().checked_sub(2).map(|at| names[at]);
    if TEMPLATE_SUFFIXES
        .iter()
        .any(|suffix| file.ends_with(suffix))
    {
        return false;
    }
    SECRET_FILES.contains(&file.as_str())
        || file.starts_with(".env.")
        || file.rsplit_once('.').is_some_and(|(stem, extension)| {
            !stem.is_empty() && SECRET_EXTENSIONS.contains(&extension)
        })
        || (file == "config" && parent.is_some_and(|parent| parent.eq_ignore_ascii_case(".kube")))
        || (file == "hosts.yml" && parent == Some("gh"))
        || (file == "config.json"
            && parent.is_some_and(|parent| parent.eq_ignore_ascii_case(".docker")))
}

/// The reason given for a file that looks like it holds secrets.
pub(super) fn secret_message(path: &str) -> String {
    if path.contains(['*', '?', '[']) {
        return format!(
            "`{}` may expand to a file that holds secrets (keys, tokens, passwords): what a command prints goes to the model; the person decides",
            super::cut(path)
        );
    }
    format!(
        "`{}` looks like a file that holds secrets (keys, tokens, passwords): what a command prints goes to the model; the person decides",
        super::cut(path)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    #[test]
    fn secrets_are_known_by_name() {
        for path in [
            "/home/ada/.ssh/id_ed25519",
            "~/.ssh/config",
            ".env",
            "app/.env.local",
            "/proc/self/environ",
            "~/.cargo/credentials.toml",
            "/home/u/.bash_history",
            "/home/ada/.aws/credentials",
            "server.pem",
            "certs/tls.key",
            "/home/ada/.kube/config",
            "/home/ada/.config/gh/hosts.yml",
            "/etc/shadow",
            ".npmrc",
            "/home/ada/.docker/config.json",
        ] {
            assert!(looks_secret(path), "{path}");
        }
        for path in [
            ".env.example",
            "README.md",
            "src/keys.rs",
            "src/key.txt",
            "config",
            "docs/ssh.md",
            "environment.ts",
            ".envrc.sample",
        ] {
            assert!(!looks_secret(path), "{path}");
        }
    }

    #[test]
    fn the_home_directory_and_above_are_found() {
        let home = Some("/tmp/aigent-test-home/ada");
        for target in [
            "/tmp/aigent-test-home/ada",
            "/tmp/aigent-test-home/ada/",
            "/tmp",
            "/",
            "ada",
        ] {
            assert!(
                is_home_or_above(target, Some(Path::new("/tmp/aigent-test-home")), home),
                "{target}"
            );
        }
        for target in ["/tmp/aigent-test-home/ada/projects", "/tmp/other", "src"] {
            assert!(
                !is_home_or_above(target, Some(Path::new("/tmp/aigent-test-home/ada/p")), home),
                "{target}"
            );
        }
    }

    #[test]
    fn a_leading_tilde_and_brace_lists_are_written_out() {
        let script =
            parse("ls -la ~/.local/state ~ '~/x' ~root ~/{a,b} src/{x,y}.rs a{1..3} > ~/out")
                .unwrap();
        let command = &script.commands[0];
        let expanded = expanded(command, Some("/home/ada")).unwrap();
        let texts: Vec<Option<&str>> = expanded.words.iter().map(Word::as_static).collect();
        assert_eq!(
            texts,
            [
                Some("ls"),
                Some("-la"),
                Some("/home/ada/.local/state"),
                Some("/home/ada"),
                Some("~/x"),
                None,
                Some("/home/ada/a"),
                Some("/home/ada/b"),
                Some("src/x.rs"),
                Some("src/y.rs"),
                None,
            ]
        );
        assert_eq!(
            expanded.redirects[0].target.as_static(),
            Some("/home/ada/out")
        );
        let no_home = super::expanded(command, Some("relative")).unwrap();
        assert_eq!(no_home.words[2].as_static(), None);
        assert_eq!(brace_words("{a,{b,c}}"), None);
        assert_eq!(
            brace_words("x{,y}"),
            Some(vec!["x".to_owned(), "xy".to_owned()])
        );
    }
}
