//! Stable diagnostic codes for skill validation. Codes never change
//! meaning; messages may be reworded. The table in
//! docs/reference/skill-codes.md is checked against [`TABLE`] by a test.

use crate::report::Severity;

pub const SKILL_FILE_MISSING: &str = "E001";
pub const NAME_MISSING: &str = "E002";
pub const NAME_CHARACTERS: &str = "E003";
pub const NAME_TOO_LONG: &str = "E004";
pub const NAME_HYPHENS: &str = "E005";
pub const NAME_RESERVED: &str = "E006";
pub const NAME_XML_TAG: &str = "E007";
pub const NAME_DIRECTORY_MISMATCH: &str = "E008";
pub const DESCRIPTION_MISSING: &str = "E009";
pub const DESCRIPTION_TOO_LONG: &str = "E010";
pub const DESCRIPTION_XML_TAG: &str = "E011";
pub const COMPATIBILITY_NOT_STRING: &str = "E012";
pub const COMPATIBILITY_TOO_LONG: &str = "E013";
pub const METADATA_NOT_MAPPING: &str = "E014";
pub const FRONTMATTER_MISSING: &str = "E015";
pub const FRONTMATTER_UNCLOSED: &str = "E016";
pub const YAML_INVALID: &str = "E017";
pub const YAML_BUDGET: &str = "E018";
pub const FRONTMATTER_NOT_MAPPING: &str = "E019";
pub const DUPLICATE_KEY: &str = "E020";
pub const FILE_TOO_LARGE: &str = "E021";
pub const FILE_NOT_UTF8: &str = "E022";
pub const PATH_MISSING: &str = "E023";
pub const PATH_NOT_A_SKILL: &str = "E024";
pub const FILE_UNREADABLE: &str = "E025";
pub const DESCRIPTION_CONTROL_CHARACTER: &str = "E026";
pub const NAME_NOT_ASCII: &str = "E027";
pub const SHORT_DESCRIPTION_INVALID: &str = "E028";
pub const FENCES_NOT_STRICT: &str = "E029";
pub const DUPLICATE_NAME_SHADOWED: &str = "E030";
pub const EVALS_INVALID: &str = "E031";
pub const TRIGGER_QUERIES_INVALID: &str = "E032";
pub const COMMAND_FAILS_CONTRACT: &str = "E033";

pub const UNKNOWN_KEY: &str = "W001";
pub const BODY_TOO_LONG: &str = "W002";
pub const METADATA_VALUE_NOT_STRING: &str = "W003";
pub const ALLOWED_TOOLS_LIST: &str = "W004";
pub const LINK_TARGET_MISSING: &str = "W005";
pub const FIELD_NOT_STRING: &str = "W006";
pub const BODY_OVER_TOKEN_BUDGET: &str = "W007";
pub const CLIENT_KEY_TYPE: &str = "W008";
pub const DUPLICATE_NAME: &str = "W009";
pub const WRITE_OUTSIDE_TREE: &str = "W010";
pub const GRANT_WIDER_THAN_CONTRACTS: &str = "W011";
pub const DYNAMIC_COMMAND_UNDECLARED: &str = "W012";

pub const DESCRIPTION_NEAR_DUPLICATE: &str = "N001";

/// Every code with its default severity and what it catches.
pub const TABLE: &[(&str, Severity, &str)] = &[
    (
        SKILL_FILE_MISSING,
        Severity::Error,
        "the directory has no `SKILL.md` (or `skill.md`)",
    ),
    (
        NAME_MISSING,
        Severity::Error,
        "`name` is missing, not a string, or empty",
    ),
    (
        NAME_CHARACTERS,
        Severity::Error,
        "`name` has an uppercase letter or a character outside `a-z`, `0-9`, `-` and lowercase letters of any script",
    ),
    (
        NAME_TOO_LONG,
        Severity::Error,
        "`name` is longer than 64 characters (after NFKC)",
    ),
    (
        NAME_HYPHENS,
        Severity::Error,
        "`name` starts or ends with `-`, or contains `--`",
    ),
    (
        NAME_RESERVED,
        Severity::Error,
        "a hyphen-separated segment of `name` is a reserved word (`anthropic`, `claude`)",
    ),
    (
        NAME_XML_TAG,
        Severity::Error,
        "`name` contains an XML/HTML tag",
    ),
    (
        NAME_DIRECTORY_MISMATCH,
        Severity::Error,
        "`name` differs from the directory name (both NFKC)",
    ),
    (
        DESCRIPTION_MISSING,
        Severity::Error,
        "`description` is missing, not a string, or empty",
    ),
    (
        DESCRIPTION_TOO_LONG,
        Severity::Error,
        "`description` is longer than 1024 characters",
    ),
    (
        DESCRIPTION_XML_TAG,
        Severity::Error,
        "`description` contains an XML/HTML tag (`a < b` is fine)",
    ),
    (
        COMPATIBILITY_NOT_STRING,
        Severity::Error,
        "`compatibility` is present but not a string",
    ),
    (
        COMPATIBILITY_TOO_LONG,
        Severity::Error,
        "`compatibility` is longer than 500 characters",
    ),
    (
        METADATA_NOT_MAPPING,
        Severity::Error,
        "`metadata` is present but not a mapping",
    ),
    (
        FRONTMATTER_MISSING,
        Severity::Error,
        "the first line is not `---`: no frontmatter",
    ),
    (
        FRONTMATTER_UNCLOSED,
        Severity::Error,
        "no closing `---` line after the frontmatter",
    ),
    (
        YAML_INVALID,
        Severity::Error,
        "the frontmatter is not valid YAML",
    ),
    (
        YAML_BUDGET,
        Severity::Error,
        "the frontmatter exceeds the parsing budget (depth, aliases, size): a YAML bomb",
    ),
    (
        FRONTMATTER_NOT_MAPPING,
        Severity::Error,
        "the frontmatter is not a YAML mapping",
    ),
    (
        DUPLICATE_KEY,
        Severity::Error,
        "a frontmatter key appears twice",
    ),
    (
        FILE_TOO_LARGE,
        Severity::Error,
        "the skill file is over 1 MiB",
    ),
    (
        FILE_NOT_UTF8,
        Severity::Error,
        "the skill file is not UTF-8",
    ),
    (
        PATH_MISSING,
        Severity::Error,
        "the path does not exist (exit code 5)",
    ),
    (
        PATH_NOT_A_SKILL,
        Severity::Error,
        "the path is neither a directory nor a `SKILL.md`/`skill.md` file",
    ),
    (
        FILE_UNREADABLE,
        Severity::Error,
        "the path or the skill file cannot be read (permissions, a symlink loop, not a regular file)",
    ),
    (
        DESCRIPTION_CONTROL_CHARACTER,
        Severity::Error,
        "`description` holds a control character (other than a tab or line break) or a bidirectional-text control",
    ),
    (
        NAME_NOT_ASCII,
        Severity::Error,
        "profiles `opencode`, `strictest`: `name` has a non-ASCII letter, which OpenCode's name pattern rejects",
    ),
    (
        SHORT_DESCRIPTION_INVALID,
        Severity::Error,
        "profiles `codex`, `strictest`: `metadata.short-description` is not a string or is over 1024 characters, so Codex drops the skill",
    ),
    (
        FENCES_NOT_STRICT,
        Severity::Error,
        "profiles `gemini`, `strictest`: a byte-order mark before the first `---`, or no line break after the closing `---`, so Gemini CLI drops the skill",
    ),
    (
        DUPLICATE_NAME_SHADOWED,
        Severity::Error,
        "two skills of one run share a `name` and sit in lookup directories of one client in one project (`.claude/skills` and `.agents/skills`, say): one shadows the other",
    ),
    (
        EVALS_INVALID,
        Severity::Error,
        "`evals/evals.json` is not the agentskills.io shape: `skill_name` differs from `name`, or an eval lacks an `id`, a `prompt`, or an `expected_output` or `assertions`",
    ),
    (
        TRIGGER_QUERIES_INVALID,
        Severity::Error,
        "a trigger-query file in `evals/` is not a list of `{query, should_trigger}` objects",
    ),
    (
        COMMAND_FAILS_CONTRACT,
        Severity::Error,
        "with a registry (`--commands`, or `commands/aigent.toml` beside the skills): a `` !`cmd` `` dynamic-context command, or an exact `Bash(cmd)` grant, names a program a contract declares, and the contract refuses it (Phase 1 or its template)",
    ),
    (
        UNKNOWN_KEY,
        Severity::Warning,
        "a frontmatter key the chosen profile does not know",
    ),
    (
        BODY_TOO_LONG,
        Severity::Warning,
        "the body is longer than 500 lines",
    ),
    (
        METADATA_VALUE_NOT_STRING,
        Severity::Warning,
        "a `metadata` value is not a string",
    ),
    (
        ALLOWED_TOOLS_LIST,
        Severity::Warning,
        "`allowed-tools` is a YAML list, not the spec's space-separated string",
    ),
    (
        LINK_TARGET_MISSING,
        Severity::Warning,
        "a file the body links to by a relative path does not exist",
    ),
    (
        FIELD_NOT_STRING,
        Severity::Warning,
        "`license` or `allowed-tools` has a type the spec does not allow",
    ),
    (
        BODY_OVER_TOKEN_BUDGET,
        Severity::Warning,
        "the body is over the spec's recommended 5000 tokens (counted with o200k_base)",
    ),
    (
        CLIENT_KEY_TYPE,
        Severity::Warning,
        "a key of the chosen client has another type than the client reads (`user-invocable: \"yes\"`)",
    ),
    (
        DUPLICATE_NAME,
        Severity::Warning,
        "another skill of the same run has the same `name` (its path is named)",
    ),
    (
        WRITE_OUTSIDE_TREE,
        Severity::Warning,
        "`skill fmt`, `fix` or `new`: a symlinked skill file or directory leads outside the tree given; nothing is read or written through it",
    ),
    (
        GRANT_WIDER_THAN_CONTRACTS,
        Severity::Warning,
        "with a registry: a `Bash` grant in `allowed-tools` admits commands no contract declares (`Bash`, `Bash(*)`, a wildcard, `Bash(git:*)` where only `git log` is declared, or a program no contract declares)",
    ),
    (
        DYNAMIC_COMMAND_UNDECLARED,
        Severity::Warning,
        "with a registry: a `` !`cmd` `` dynamic-context command in the body matches no contract (no contract declares its program)",
    ),
    (
        DESCRIPTION_NEAR_DUPLICATE,
        Severity::Note,
        "another skill of the same run has nearly the same `description` (the same words, ignoring case, punctuation and order): an agent cannot tell them apart",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_table_lists_every_code() {
        let readme = include_str!("../../docs/reference/skill-codes.md");
        for (code, severity, _) in TABLE {
            let row = format!("| `{code}` | {severity} |");
            assert!(
                readme.contains(&row),
                "docs/reference/skill-codes.md lacks the row for {code}"
            );
        }
        let rows = readme
            .lines()
            .filter(|line| {
                line.starts_with("| `E0") || line.starts_with("| `W0") || line.starts_with("| `N0")
            })
            .count();
        assert_eq!(
            rows,
            TABLE.len(),
            "docs/reference/skill-codes.md lists codes that do not exist"
        );
    }

    #[test]
    fn codes_are_unique_and_prefixed_by_severity() {
        let mut seen = std::collections::HashSet::new();
        for (code, severity, _) in TABLE {
            assert!(seen.insert(*code), "{code} twice");
            let prefix = match severity {
                Severity::Error => 'E',
                Severity::Warning => 'W',
                Severity::Note => 'N',
            };
            assert!(code.starts_with(prefix), "{code}");
        }
    }
}
