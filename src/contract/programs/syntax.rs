//! How programs read their options: the knowledge the hook needs to read
//! `git log -n3 --oneline` as `git log --oneline -n 3` (DESIGN.md §12).
//!
//! A declaration may name its program's [`Syntax`]; without one, the
//! program's base name is looked up here. A program this table does not
//! know is read as POSIX `getopt` does (options end at the first operand),
//! the reading that claims the fewest equivalences a program might not
//! honour.

use crate::contract::Syntax;

/// Programs whose option syntax is known, by base name. Sorted, for the
/// binary search.
const PROGRAMS: &[(&str, Syntax)] = &[
    ("awk", Syntax::Posix),
    ("bun", Syntax::Gnu),
    ("cargo", Syntax::Gnu),
    ("cat", Syntax::Gnu),
    ("chmod", Syntax::Gnu),
    ("cp", Syntax::Gnu),
    ("curl", Syntax::Gnu),
    ("cut", Syntax::Gnu),
    ("dd", Syntax::Exact),
    ("df", Syntax::Gnu),
    ("diff", Syntax::Gnu),
    ("docker", Syntax::Gnu),
    ("du", Syntax::Gnu),
    ("echo", Syntax::Exact),
    ("fd", Syntax::Gnu),
    ("file", Syntax::Gnu),
    ("find", Syntax::Exact),
    ("gh", Syntax::Gnu),
    ("git", Syntax::Git),
    ("go", Syntax::Go),
    ("grep", Syntax::Gnu),
    ("head", Syntax::Gnu),
    ("jq", Syntax::Gnu),
    ("kubectl", Syntax::Gnu),
    ("ls", Syntax::Gnu),
    ("make", Syntax::Gnu),
    ("mkdir", Syntax::Gnu),
    ("mv", Syntax::Gnu),
    ("node", Syntax::Posix),
    ("npm", Syntax::Gnu),
    ("npx", Syntax::Posix),
    ("pip", Syntax::Gnu),
    ("pip3", Syntax::Gnu),
    ("pnpm", Syntax::Gnu),
    ("printf", Syntax::Exact),
    ("pytest", Syntax::Gnu),
    ("python", Syntax::Posix),
    ("python3", Syntax::Posix),
    ("rg", Syntax::Gnu),
    ("rm", Syntax::Gnu),
    ("sed", Syntax::Gnu),
    ("sort", Syntax::Gnu),
    ("stat", Syntax::Gnu),
    ("tail", Syntax::Gnu),
    ("tar", Syntax::Gnu),
    ("terraform", Syntax::Go),
    ("touch", Syntax::Gnu),
    ("tr", Syntax::Gnu),
    ("tree", Syntax::Gnu),
    ("uniq", Syntax::Gnu),
    ("unzip", Syntax::Exact),
    ("uv", Syntax::Gnu),
    ("wc", Syntax::Gnu),
    ("wget", Syntax::Gnu),
    ("which", Syntax::Gnu),
    ("yarn", Syntax::Gnu),
];

/// git's options before the subcommand that take a value (`git -C DIR`);
/// every other global option is a switch. git reads `-C DIR` and
/// `--git-dir=DIR` alike, so the value may be attached or the next word.
pub const GIT_GLOBAL_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--super-prefix",
    "--config-env",
    "--list-cmds",
    "--attr-source",
];

/// Options after which a program reads none of its own: the rest of the
/// line belongs to what the option names (`python -m pytest tests -v`:
/// `-v` is pytest's). In a template, such an option and its value open a
/// scope as a subcommand does, so the module's own syntax applies after
/// them and nothing of the program's may follow.
const OPTION_ENDS: &[(&str, &[&str])] = &[("python", &["-m"]), ("python3", &["-m"])];

fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// Whether `program` reads no options of its own after `option` and its
/// value.
pub fn ends_options(program: &str, option: &str) -> bool {
    let name = base_name(program);
    OPTION_ENDS
        .iter()
        .any(|(known, options)| *known == name && options.contains(&option))
}

/// The syntax `program` (a path or a bare name) reads its options in.
pub fn program_syntax(program: &str) -> Syntax {
    let name = base_name(program);
    PROGRAMS
        .binary_search_by(|(known, _)| known.cmp(&name))
        .map_or(Syntax::Posix, |index| PROGRAMS[index].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_without_repeats() {
        assert!(PROGRAMS.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }

    #[test]
    fn programs_are_found_by_base_name() {
        assert_eq!(program_syntax("git"), Syntax::Git);
        assert_eq!(program_syntax("/usr/bin/git"), Syntax::Git);
        assert_eq!(program_syntax("terraform"), Syntax::Go);
        assert_eq!(program_syntax("find"), Syntax::Exact);
        assert_eq!(program_syntax("some-tool"), Syntax::Posix);
    }

    #[test]
    fn python_reads_no_option_of_its_own_after_a_module() {
        assert!(ends_options("/usr/bin/python3", "-m"));
        assert!(!ends_options("python3", "-v"));
        assert!(!ends_options("node", "-m"));
    }
}
