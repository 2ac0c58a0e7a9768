//! `fix_command`: one line an agent can run as is to check the corrected
//! call (CLI Agent Spec REQ-C-030), built from the library's
//! `fix_arguments` (the corrected words after NAME). It is always an
//! `aigent args check --no-audit`, whatever the rejected call was: it runs
//! nothing and writes nothing, so running it twice is harmless, and never
//! the destructive `run`. The corrected `run` itself is `fix_arguments`
//! after `aigent run NAME`, which the text hint shows with aigent's own
//! words before NAME exactly as given. Every word is shell-quoted.

use std::ffi::OsString;
use std::path::Path;

use aigent::guard::FIX_ARGUMENTS;
use aigent::report::Outcome;
use serde_json::Value;

use super::Command;
use super::args::ArgsCommand;

/// Adds `fix_command` (and a hint that shows the corrected call in text)
/// to a Phase 1 rejection that carries `fix_arguments`. `argv` is the
/// process's; `registry` is the `--commands` directory when the command
/// line named one (a registry from `AIGENT_COMMANDS` is the environment's,
/// which the fix command runs in too).
pub fn add(outcome: &mut Outcome, command: &Command, argv: &[OsString], registry: Option<&Path>) {
    let invocation = match command {
        Command::Args(ArgsCommand::Check(args)) => &args.invocation,
        Command::Run(args) => &args.invocation,
        _ => return,
    };
    let Some(error) = outcome.error.as_mut() else {
        return;
    };
    let Some(Value::Array(fixed)) = error.extra.get(FIX_ARGUMENTS) else {
        return;
    };
    let Ok(name) = invocation.name() else {
        return;
    };
    let Some(fixed) = fixed
        .iter()
        .map(Value::as_str)
        .collect::<Option<Vec<&str>>>()
    else {
        return;
    };
    let Some(check) = check_line(registry, name, &fixed) else {
        return;
    };
    let corrected = command_line(argv, name, invocation.arguments().len() + 1, &fixed)
        .unwrap_or_else(|| check.clone());
    error.hints.push(format!("corrected command: {corrected}"));
    if matches!(command, Command::Run(_)) {
        error.hints.push(format!("check it first: {check}"));
    }
    error.fix_command = Some(check);
}

/// `aigent [--commands DIR] args check --no-audit NAME fixed...`; `None`
/// when the registry's path is not UTF-8.
fn check_line(registry: Option<&Path>, name: &str, fixed: &[&str]) -> Option<String> {
    let mut words = vec!["aigent".to_owned()];
    if let Some(dir) = registry {
        words.push("--commands".to_owned());
        words.push(quote(dir.to_str()?));
    }
    words.extend(["args", "check", "--no-audit"].map(str::to_owned));
    words.push(quote(name));
    words.extend(fixed.iter().map(|word| quote(word)));
    Some(words.join(" "))
}

/// `aigent`, the words before NAME as given, NAME, then `fixed`; `None`
/// when a word is not UTF-8 or argv does not end with the invocation.
fn command_line(
    argv: &[OsString],
    name: &str,
    invocation_len: usize,
    fixed: &[&str],
) -> Option<String> {
    let name_at = argv.len().checked_sub(invocation_len)?;
    if name_at == 0 || argv.get(name_at)?.to_str()? != name {
        return None;
    }
    let mut words = vec!["aigent".to_owned()];
    for word in &argv[1..name_at] {
        words.push(quote(word.to_str()?));
    }
    words.push(quote(name));
    words.extend(fixed.iter().map(|word| quote(word)));
    Some(words.join(" "))
}

/// A word a POSIX shell reads back as itself (the one quoter,
/// [`aigent::shell::quote_word`]).
pub fn quote(word: &str) -> String {
    aigent::shell::quote_word(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_reads_back_through_a_shell() {
        assert_eq!(quote("prod-east-1"), "prod-east-1");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("$(rm -rf /)"), "'$(rm -rf /)'");
        assert_eq!(quote("{\"a\":1}"), "'{\"a\":1}'");
        assert_eq!(quote("~root"), "'~root'");
        for word in [
            "plain", "a b", "it's", "$HOME", "`x`", "a\nb", "--x=y z", "*", "'",
        ] {
            let output = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("printf %s {}", quote(word)))
                .output()
                .unwrap();
            assert_eq!(String::from_utf8(output.stdout).unwrap(), word, "{word:?}");
        }
    }

    #[test]
    fn the_fix_command_checks_and_never_runs() {
        assert_eq!(
            check_line(Some(Path::new("my dir")), "deploy", &["--version", "1.2.3"]).as_deref(),
            Some("aigent --commands 'my dir' args check --no-audit deploy --version 1.2.3")
        );
        assert_eq!(
            check_line(None, "deploy", &["--json", "{\"a\":1}"]).as_deref(),
            Some("aigent args check --no-audit deploy --json '{\"a\":1}'")
        );
    }

    #[test]
    fn the_line_keeps_the_words_before_name() {
        let argv: Vec<OsString> = [
            "/x/aigent",
            "--commands",
            "my dir",
            "run",
            "--dry-run",
            "deploy",
            "--version",
            "v1.2.3",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        assert_eq!(
            command_line(&argv, "deploy", 3, &["--version", "1.2.3"]).as_deref(),
            Some("aigent --commands 'my dir' run --dry-run deploy --version 1.2.3")
        );
        // argv that does not end with the invocation: no line.
        assert_eq!(command_line(&argv, "other", 3, &[]), None);
        assert_eq!(command_line(&argv, "deploy", 99, &[]), None);
    }
}
