//! Reading the command line before, or despite, the strict parse: a usage
//! error still needs to know the format it should be reported in, `--schema`
//! must answer even when a required argument is missing, and completion
//! reads the half-typed line. All of them use clap's own lenient parse, so
//! no second reading of argv can disagree with the parser.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap::ArgMatches;

/// The line as clap reads it, with errors ignored: what could be parsed,
/// with environment values applied. `None` only when clap gives up entirely.
pub fn lenient(words: &[OsString]) -> Option<ArgMatches> {
    super::command()
        .ignore_errors(true)
        .try_get_matches_from(words)
        .ok()
}

/// The registry directory: `--commands DIR` on the line, else
/// `AIGENT_COMMANDS` (clap applies it). An empty value means "not set", as
/// shells leave an exported but empty variable. `None`: the built-in one.
pub fn registry_dir(value: Option<&OsStr>) -> Option<PathBuf> {
    value.filter(|dir| !dir.is_empty()).map(PathBuf::from)
}

/// [`registry_dir`] for a parse (strict or lenient).
pub fn registry_dir_of(matches: &ArgMatches) -> Option<PathBuf> {
    registry_dir(
        matches
            .try_get_one::<OsString>("commands")
            .ok()
            .flatten()
            .map(OsString::as_os_str),
    )
}

/// The names of the subcommands a parse went through (`["skill", "validate"]`).
pub fn subcommand_path(matches: &ArgMatches) -> Vec<String> {
    let mut path = Vec::new();
    let mut current = matches;
    while let Some((name, sub)) = current.subcommand() {
        path.push(name.to_owned());
        current = sub;
    }
    path
}

/// The innermost subcommand's matches.
pub fn leaf(matches: &ArgMatches) -> &ArgMatches {
    let mut current = matches;
    while let Some((_, sub)) = current.subcommand() {
        current = sub;
    }
    current
}

/// Whether `--schema` was given where aigent reads it: before a declared
/// command's NAME (after it, it belongs to the declared command).
pub fn wants_schema(matches: &ArgMatches) -> bool {
    matches
        .try_get_one::<bool>("schema")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> ArgMatches {
        let words: Vec<OsString> = std::iter::once("aigent")
            .chain(line.split_whitespace())
            .map(OsString::from)
            .collect();
        lenient(&words).expect("lenient parse")
    }

    #[test]
    fn the_schema_request_is_read_only_along_the_command_path() {
        let matches = parse("--schema");
        assert!(wants_schema(&matches));
        assert!(subcommand_path(&matches).is_empty());

        let matches = parse("--output json skill validate --schema");
        assert!(wants_schema(&matches));
        assert_eq!(subcommand_path(&matches), ["skill", "validate"]);

        // NAME is missing, which the strict parse refuses.
        let matches = parse("args check --schema");
        assert!(wants_schema(&matches));
        assert_eq!(subcommand_path(&matches), ["args", "check"]);

        assert!(!wants_schema(&parse("args check deploy --schema")));
        assert!(!wants_schema(&parse("skill validate")));
    }

    #[test]
    fn the_registry_comes_from_the_line_wherever_the_flag_sits() {
        for line in [
            "--commands reg schema show deploy",
            "schema show --commands reg deploy",
            "schema --commands=reg show",
            "--commands reg args check deploy --cluster-id",
        ] {
            assert_eq!(
                registry_dir_of(&parse(line)),
                Some(PathBuf::from("reg")),
                "{line}"
            );
        }
        assert_eq!(registry_dir(Some(OsStr::new(""))), None);
    }
}
