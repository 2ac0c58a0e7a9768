//! The command line an installed entry runs, and how aigent recognises its
//! own entries among the others in a settings file.
//!
//! Every client hands the entry's `command` to a shell, so the words are
//! quoted for a POSIX shell. Recognition does not compare whole strings:
//! an entry is aigent's when its program is named `aigent` (any directory,
//! any quoting) and its arguments say `hook --client NAME`. An entry a user
//! edited by hand (another path, `$CLAUDE_PROJECT_DIR`, extra flags) is
//! still found, so `install` does not add a second one and `uninstall`
//! removes it.

use std::path::Path;

use super::Client;

/// Why an entry's command line cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("{what} `{}` is not UTF-8; a settings file cannot name it", path.display())]
    NotUtf8 {
        what: &'static str,
        path: std::path::PathBuf,
    },
    #[error("{what} `{}` holds a control character; a settings file should not name it", path.display())]
    ControlCharacter {
        what: &'static str,
        path: std::path::PathBuf,
    },
}

/// The flags an entry passes to `aigent hook`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EntryFlags {
    /// `--route`: matched commands are rewritten into `aigent run`.
    pub route: bool,
    /// `--headless`: an ask is answered as a deny that says how to approve.
    pub headless: bool,
}

/// `PROGRAM [--commands DIR] hook --client CLIENT [--route] [--headless]`,
/// each word quoted for a POSIX shell where it needs it.
pub fn entry_command(
    program: &Path,
    commands_dir: Option<&Path>,
    client: Client,
    flags: EntryFlags,
) -> Result<String, CommandError> {
    let mut words = vec![shell_quote(path_text("the aigent program", program)?)];
    if let Some(dir) = commands_dir {
        words.push("--commands".to_owned());
        words.push(shell_quote(path_text("the registry directory", dir)?));
    }
    words.extend(["hook", "--client", client.as_str()].map(str::to_owned));
    if flags.route {
        words.push("--route".to_owned());
    }
    if flags.headless {
        words.push("--headless".to_owned());
    }
    Ok(words.join(" "))
}

fn path_text<'a>(what: &'static str, path: &'a Path) -> Result<&'a str, CommandError> {
    let text = path.to_str().ok_or_else(|| CommandError::NotUtf8 {
        what,
        path: path.to_owned(),
    })?;
    if text.chars().any(char::is_control) {
        return Err(CommandError::ControlCharacter {
            what,
            path: path.to_owned(),
        });
    }
    Ok(text)
}

/// `word` as one POSIX shell word (the one quoter, [`crate::shell::quote_word`]).
pub use crate::shell::quote_word as shell_quote;

/// Whether `command` runs `aigent … hook --client CLIENT`: the hook entry
/// for `client`, however it is spelt.
pub fn is_aigent_hook(command: &str, client: Client) -> bool {
    let Some(words) = split_words(command) else {
        return false;
    };
    let mut words = words
        .iter()
        .map(String::as_str)
        .skip_while(|word| is_assignment(word));
    let Some(program) = words.next() else {
        return false;
    };
    let name = program.rsplit('/').next().unwrap_or(program);
    if name != "aigent" && name != "aigent.exe" {
        return false;
    }
    let rest: Vec<&str> = words.collect();
    let Some(hook) = rest.iter().position(|word| *word == "hook") else {
        return false;
    };
    let after = &rest[hook + 1..];
    if matches!(
        after.first(),
        Some(&("install" | "uninstall" | "explain" | "doctor" | "help"))
    ) {
        return false;
    }
    after.iter().enumerate().any(|(index, word)| {
        *word == format!("--client={}", client.as_str())
            || (*word == "--client" && after.get(index + 1) == Some(&client.as_str()))
    })
}

/// `NAME=value` before the program, as a shell reads it.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// Splits a command line into words as a POSIX shell would for a simple
/// command: blanks separate, quotes and backslashes group. Expansions are
/// left as they are written. Anything past the first operator (`;`, `&`,
/// `|`, `<`, `>`, parentheses) ends the words; `None` for an unclosed quote.
fn split_words(command: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            ';' | '&' | '|' | '<' | '>' | '(' | ')' => break,
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        other => word.push(other),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            escaped @ ('"' | '\\' | '$' | '`') => word.push(escaped),
                            '\n' => {}
                            other => {
                                word.push('\\');
                                word.push(other);
                            }
                        },
                        other => word.push(other),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') | None => {}
                    Some(other) => word.push(other),
                }
            }
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_a_shell_would_change() {
        assert_eq!(
            shell_quote("/usr/local/bin/aigent"),
            "/usr/local/bin/aigent"
        );
        assert_eq!(
            shell_quote("/Users/me/My Tools/aigent"),
            "'/Users/me/My Tools/aigent'"
        );
        assert_eq!(shell_quote("/tmp/it's"), r"'/tmp/it'\''s'");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn builds_the_entry_with_and_without_a_registry() {
        let program = Path::new("/opt/aigent/bin/aigent");
        assert_eq!(
            entry_command(program, None, Client::ClaudeCode, EntryFlags::default()).unwrap(),
            "/opt/aigent/bin/aigent hook --client claude-code"
        );
        let route = EntryFlags {
            route: true,
            headless: false,
        };
        assert_eq!(
            entry_command(program, None, Client::ClaudeCode, route).unwrap(),
            "/opt/aigent/bin/aigent hook --client claude-code --route"
        );
        let both = EntryFlags {
            route: true,
            headless: true,
        };
        assert_eq!(
            entry_command(program, None, Client::Gemini, both).unwrap(),
            "/opt/aigent/bin/aigent hook --client gemini --route --headless"
        );
        assert!(is_aigent_hook(
            "/opt/aigent/bin/aigent hook --client gemini --route --headless",
            Client::Gemini
        ));
        assert!(is_aigent_hook(
            "/opt/aigent/bin/aigent hook --client claude-code --route",
            Client::ClaudeCode
        ));
        assert_eq!(
            entry_command(
                program,
                Some(Path::new("/work/my repo/commands")),
                Client::Cursor,
                EntryFlags::default()
            )
            .unwrap(),
            "/opt/aigent/bin/aigent --commands '/work/my repo/commands' hook --client cursor"
        );
        assert!(matches!(
            entry_command(
                Path::new("/tmp/a\nb"),
                None,
                Client::Codex,
                EntryFlags::default()
            ),
            Err(CommandError::ControlCharacter { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_path_is_an_error() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/\xff/aigent"));
        assert!(matches!(
            entry_command(path, None, Client::Gemini, EntryFlags::default()),
            Err(CommandError::NotUtf8 { .. })
        ));
    }

    #[test]
    fn recognises_its_own_entries_however_spelt() {
        for (client, command) in Client::ALL.iter().map(|client| {
            (
                *client,
                entry_command(
                    Path::new("/a b/aigent"),
                    Some(Path::new("/c")),
                    *client,
                    EntryFlags::default(),
                )
                .unwrap(),
            )
        }) {
            assert!(is_aigent_hook(&command, client), "{command}");
            for other in Client::ALL.iter().filter(|other| **other != client) {
                assert!(!is_aigent_hook(&command, *other), "{command}");
            }
        }
        for command in [
            "aigent hook --client claude-code",
            "\"$CLAUDE_PROJECT_DIR\"/bin/aigent hook --client=claude-code",
            "AIGENT_COMMANDS=./commands aigent --output json hook --client claude-code",
            "/x/aigent hook --route --client claude-code 2>/dev/null",
            r"/x/ai\gent hook --client claude-code",
        ] {
            assert!(is_aigent_hook(command, Client::ClaudeCode), "{command}");
        }
        for command in [
            "",
            "aigent",
            "aigent hook",
            "aigent hook --client",
            "aigent hook install --client claude-code",
            "aigent hook explain --client claude-code",
            "not-aigent hook --client claude-code",
            "echo aigent hook --client claude-code",
            "aigent-wrapper hook --client claude-code",
            "'aigent hook --client claude-code",
            "aigent run hook --clients claude-code",
        ] {
            assert!(!is_aigent_hook(command, Client::ClaudeCode), "{command}");
        }
    }
}
