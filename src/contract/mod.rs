//! Command contracts: declarations, the registry they live in, the
//! registration lint, and the JSON Schema export (DESIGN.md §4).
//!
//! A declaration is read from JSON or YAML into a [`Declaration`] that has
//! passed the lint, so the guard and `run` can rely on it: patterns compile
//! and are anchored, `user_controlled_args` name real parameters, no shell
//! runs a command string.

pub mod changed;
pub mod codes;
mod command_string;
mod declaration;
mod embedded;
pub mod input_schema;
mod json_schema;
pub mod lint;
mod parse;
pub mod raw_shell;
mod registry;
pub mod render;
pub mod value;

pub use declaration::{
    AnchoredPattern, ArgvPart, DangerLevel, Declaration, ExitCode, FlagForm, InputSchema, Inputs,
    ParamSlot, ParamType, Parameter, PatternType, SideEffects, Subprocess, to_wire,
};
pub use embedded::EMBEDDED;
pub use json_schema::to_json_schema;
pub use parse::{
    Origin, Parsed, SourceFormat, parameter_name_problem, parse_declaration, parse_value,
    pattern_anchoring_problem,
};
pub use registry::{FileReport, LoadError, Loaded, Registry, RegistryEntry};

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
    let fold = |text: &str| -> Vec<char> {
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
    if wanted_folded.len() > 256 {
        return None;
    }
    let limit = (wanted_folded.len() / 3).max(1);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(&wanted_folded, &fold(candidate)), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and transpositions of neighbours (`cuont` → `count` is one edit).
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut table = vec![0usize; (a.len() + 1) * width];
    for (i, cell) in table.iter_mut().step_by(width).enumerate() {
        *cell = i;
    }
    for (j, cell) in table.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (table[(i - 1) * width + j] + 1)
                .min(table[i * width + j - 1] + 1)
                .min(table[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(table[(i - 2) * width + j - 2] + 1);
            }
            table[i * width + j] = best;
        }
    }
    table[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
