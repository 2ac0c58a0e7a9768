//! Candidates for dynamic shell completion (`aigent completions SHELL`):
//! the names in the active registry, and the `--param` flags of the command
//! being typed. Completion must never fail loudly, so every problem here
//! just means "no candidates".

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap_complete::engine::CompletionCandidate;

use aigent::registry::Registry;

/// The command tree the completion engine walks. After `run NAME` or
/// `args check NAME`, every word belongs to the declared command (aigent's
/// own flags there are refused), so that leaf keeps only its NAME-and-
/// arguments capture, and the global flags stay at the top level: the
/// engine then offers only NAME's `--param` flags.
pub fn command_to_complete() -> clap::Command {
    let command = super::command();
    if declared_name(&typed_words()).is_none() {
        return command;
    }
    let only_the_invocation = |leaf: clap::Command, name: &'static str| {
        let words = leaf
            .get_arguments()
            .find(|arg| arg.get_id() == "words")
            .cloned();
        clap::Command::new(name)
            .disable_help_flag(true)
            .disable_version_flag(true)
            .args(words)
    };
    command
        .mut_args(|arg| arg.global(false))
        .mut_subcommand("run", |run| only_the_invocation(run, "run"))
        .mut_subcommand("args", |args| {
            args.mut_subcommand("check", |check| only_the_invocation(check, "check"))
        })
}

/// Declared command names, with their descriptions as help.
pub fn command_names() -> Vec<CompletionCandidate> {
    let registry = Registry::new(registry_dir(&typed_words()));
    let Ok(entries) = registry.entries() else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries.into_iter().map(|entry| entry.name).collect();
    names.dedup();
    names.into_iter().map(CompletionCandidate::new).collect()
}

/// The words after `args check` / `run`: declared names until NAME has
/// been typed, then NAME's `--param` flags.
pub fn invocation_words(current: &OsStr) -> Vec<CompletionCandidate> {
    let words = typed_words();
    let prefix = current.to_string_lossy();
    match declared_name(&words) {
        None => command_names()
            .into_iter()
            .filter(|candidate| {
                candidate
                    .get_value()
                    .to_string_lossy()
                    .starts_with(prefix.as_ref())
            })
            .collect(),
        Some(name) => declared_parameters(&words, &name, &prefix),
    }
}

fn declared_parameters(words: &[OsString], name: &str, current: &str) -> Vec<CompletionCandidate> {
    if !current.is_empty() && !current.starts_with('-') {
        return Vec::new();
    }
    let Ok(loaded) = Registry::new(registry_dir(words)).load(name) else {
        return Vec::new();
    };
    let mut flags: Vec<String> = loaded
        .declaration
        .input_names()
        .into_iter()
        .map(|input| format!("--{input}"))
        .collect();
    flags.push("--json".to_owned());
    flags
        .into_iter()
        .filter(|flag| flag.starts_with(current))
        .map(|flag| {
            let help = loaded
                .declaration
                .parameter(flag.trim_start_matches("--"))
                .and_then(|parameter| parameter.description.clone());
            CompletionCandidate::new(flag).help(help.map(Into::into))
        })
        .collect()
}

/// The words on the line before the one being completed. The shell runs
/// `COMPLETE=bash aigent -- aigent word...`; bash also says which word is
/// current.
fn typed_words() -> Vec<OsString> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let Some(separator) = args.iter().position(|arg| arg == "--") else {
        return Vec::new();
    };
    let mut words = args[separator + 1..].to_vec();
    let current = std::env::var("_CLAP_COMPLETE_INDEX")
        .ok()
        .and_then(|index| index.parse::<usize>().ok())
        .unwrap_or(words.len().saturating_sub(1));
    words.truncate(current);
    words
}

/// The registry the typed line names, as the command will find it.
fn registry_dir(words: &[OsString]) -> Option<PathBuf> {
    match super::argv::lenient(words) {
        Some(matches) => super::argv::registry_dir_of(&matches),
        None => super::argv::registry_dir(std::env::var_os("AIGENT_COMMANDS").as_deref()),
    }
}

/// NAME of `args check NAME` or `run NAME`, once it has been typed.
fn declared_name(words: &[OsString]) -> Option<String> {
    let matches = super::argv::lenient(words)?;
    let mut invocation = super::argv::leaf(&matches)
        .try_get_many::<String>("words")
        .ok()
        .flatten()?;
    invocation.next().cloned()
}
