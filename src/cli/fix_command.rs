//! `fix_command`: the corrected call as one line an agent can run, built
//! from the library's `fix_arguments` (the corrected words after NAME) and
//! aigent's own words before NAME exactly as given, so `--commands DIR`,
//! `--format` and `run --dry-run` carry over. Every word is shell-quoted.

use std::ffi::OsString;

use aigent::guard::FIX_ARGUMENTS;
use aigent::report::Outcome;
use serde_json::Value;

use super::Command;
use super::args::ArgsCommand;

/// The envelope key of the whole corrected command line.
pub const FIX_COMMAND: &str = "fix_command";

/// Adds `fix_command` (and a hint that shows it in text) to a Phase 1
/// rejection that carries `fix_arguments`. `argv` is the process's.
pub fn add(outcome: &mut Outcome, command: &Command, argv: &[OsString]) {
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
    let fixed: Option<Vec<&str>> = fixed.iter().map(Value::as_str).collect();
    let Some(line) =
        fixed.and_then(|fixed| command_line(argv, name, invocation.arguments().len() + 1, &fixed))
    else {
        return;
    };
    error.hints.push(format!("corrected command: {line}"));
    error
        .extra
        .insert(FIX_COMMAND.to_owned(), Value::String(line));
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
