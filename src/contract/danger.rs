//! The danger level a declaration most likely needs, for the registration
//! error that asks for one (REQ-C-002). Only a suggestion: the author
//! decides, since no word list can know what a program really does.

use super::declaration::{DangerLevel, Subprocess};

/// Words that name a deletion or another change that cannot be undone.
const DESTRUCTIVE_WORDS: &[&str] = &[
    "rm",
    "rmdir",
    "unlink",
    "shred",
    "delete",
    "del",
    "remove",
    "drop",
    "destroy",
    "purge",
    "truncate",
    "wipe",
    "erase",
    "prune",
    "uninstall",
    "terminate",
    "kill",
    "reset",
    "mkfs",
    "format",
    "dd",
];

/// Words (verbs and programs) that only read.
const READ_ONLY_WORDS: &[&str] = &[
    "get", "list", "ls", "show", "cat", "read", "log", "status", "diff", "describe", "view",
    "head", "tail", "grep", "rg", "find", "search", "query", "inspect", "info", "stat", "du", "df",
    "whoami", "version", "help", "echo", "which", "wc", "tree", "blame", "explain", "top", "ps",
    "env", "printenv", "pwd", "id", "date", "uname", "jq", "less", "more",
];

/// The level the declaration's words point to, and why, in a phrase that
/// completes "`danger_level` is required; ...".
pub fn suggest_danger_level(name: &str, subprocess: Option<&Subprocess>) -> (DangerLevel, String) {
    let mut words: Vec<(String, &'static str)> = Vec::new();
    let mut push_words = |text: &str, origin: &'static str| {
        for word in text
            .split(|ch: char| !ch.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
        {
            words.push((word.to_ascii_lowercase(), origin));
        }
    };
    push_words(name, "the command's name");
    if let Some(subprocess) = subprocess {
        let program = subprocess
            .binary
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&subprocess.binary);
        push_words(program, "the program");
        for literal in &subprocess.hardcoded_args {
            // Only the words of a literal, not its flags' values.
            push_words(literal.trim_start_matches('-'), "a fixed argument");
        }
    }
    if let Some((word, origin)) = words
        .iter()
        .find(|(word, _)| DESTRUCTIVE_WORDS.contains(&word.as_str()))
    {
        return (
            DangerLevel::Destructive,
            format!(
                "{origin} has `{word}`, which deletes or cannot be undone, so it looks `destructive`"
            ),
        );
    }
    if let Some((word, origin)) = words
        .iter()
        .find(|(word, _)| READ_ONLY_WORDS.contains(&word.as_str()))
    {
        return (
            DangerLevel::Safe,
            format!("{origin} has `{word}`, which only reads, so it looks `safe`"),
        );
    }
    (
        DangerLevel::Mutating,
        "nothing in its name or argv says it only reads or that it deletes, so `mutating` is the careful default".to_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subprocess(binary: &str, hardcoded: &[&str]) -> Subprocess {
        Subprocess {
            binary: binary.to_owned(),
            argv: Vec::new(),
            hardcoded_args: hardcoded.iter().map(|word| (*word).to_owned()).collect(),
            user_controlled_args: Vec::new(),
            templated: false,
            env: Vec::new(),
            env_pass: Vec::new(),
            syntax: None,
            preserve_locale: false,
        }
    }

    #[test]
    fn deletion_words_are_destructive() {
        for (name, binary, hardcoded) in [
            ("cleanup", "rm", &["-rf"][..]),
            ("files-clean", "/bin/rm", &[][..]),
            ("drop-table", "psql", &[][..]),
            ("branch", "git", &["branch", "--delete"][..]),
            ("ns", "kubectl", &["delete", "namespace"][..]),
        ] {
            let (level, why) = suggest_danger_level(name, Some(&subprocess(binary, hardcoded)));
            assert_eq!(level, DangerLevel::Destructive, "{name}: {why}");
            assert!(why.contains("destructive"), "{why}");
        }
    }

    #[test]
    fn reading_words_are_safe() {
        for (name, binary, hardcoded) in [
            ("git-log", "git", &["log"][..]),
            ("files-get", "cat", &[][..]),
            ("pods", "kubectl", &["get", "pods"][..]),
        ] {
            let (level, why) = suggest_danger_level(name, Some(&subprocess(binary, hardcoded)));
            assert_eq!(level, DangerLevel::Safe, "{name}: {why}");
        }
    }

    #[test]
    fn anything_else_is_mutating() {
        let (level, why) = suggest_danger_level("deploy", Some(&subprocess("kubectl", &["apply"])));
        assert_eq!(level, DangerLevel::Mutating);
        assert!(why.contains("careful default"), "{why}");
        assert_eq!(suggest_danger_level("sync", None).0, DangerLevel::Mutating);
        // `format` in a word like `formatter` is not the verb.
        assert_eq!(
            suggest_danger_level("formatter", Some(&subprocess("prettier", &["--write"]))).0,
            DangerLevel::Mutating
        );
    }
}
