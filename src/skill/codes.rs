//! Stable diagnostic codes for skill validation. Codes never change
//! meaning; messages may be reworded. The table in
//! docs/reference/skill-codes.md is checked against [`Code`] by a test.

crate::report::diagnostic_codes! {
    /// Every code, with its severity and what it catches: a finding is
    /// built from its code ([`Diagnostic::new`](crate::report::Diagnostic::new)),
    /// which gives it its severity.
    pub enum Code {
        SkillFileMissing = "E001", Error, "the directory has no `SKILL.md` (or `skill.md`)";
        NameMissing = "E002", Error, "`name` is missing, not a string, or empty";
        NameCharacters = "E003", Error, "`name` has an uppercase letter or a character outside `a-z`, `0-9`, `-` and lowercase letters of any script";
        NameTooLong = "E004", Error, "`name` is longer than 64 characters (after NFKC)";
        NameHyphens = "E005", Error, "`name` starts or ends with `-`, or contains `--`";
        NameReserved = "E006", Error, "a hyphen-separated segment of `name` is a reserved word (`anthropic`, `claude`)";
        NameXmlTag = "E007", Error, "`name` contains an XML/HTML tag";
        NameDirectoryMismatch = "E008", Error, "`name` differs from the directory name (both NFKC)";
        DescriptionMissing = "E009", Error, "`description` is missing, not a string, or empty";
        DescriptionTooLong = "E010", Error, "`description` is longer than 1024 characters";
        DescriptionXmlTag = "E011", Error, "`description` contains an XML/HTML tag (`a < b` is fine)";
        CompatibilityNotString = "E012", Error, "`compatibility` is present but not a string";
        CompatibilityTooLong = "E013", Error, "`compatibility` is longer than 500 characters";
        MetadataNotMapping = "E014", Error, "`metadata` is present but not a mapping";
        FrontmatterMissing = "E015", Error, "the first line is not `---`: no frontmatter";
        FrontmatterUnclosed = "E016", Error, "no closing `---` line after the frontmatter";
        YamlInvalid = "E017", Error, "the frontmatter is not valid YAML";
        YamlBudget = "E018", Error, "the frontmatter exceeds the parsing budget (depth, aliases, size): a YAML bomb";
        FrontmatterNotMapping = "E019", Error, "the frontmatter is not a YAML mapping";
        DuplicateKey = "E020", Error, "a frontmatter key appears twice";
        FileTooLarge = "E021", Error, "the skill file is over 1 MiB";
        FileNotUtf8 = "E022", Error, "the skill file is not UTF-8";
        PathMissing = "E023", Error, "the path does not exist (exit code 5)";
        PathNotASkill = "E024", Error, "the path is neither a directory nor a `SKILL.md`/`skill.md` file";
        FileUnreadable = "E025", Error, "the path or the skill file cannot be read (permissions, a symlink loop, not a regular file)";
        DescriptionControlCharacter = "E026", Error, "`description` holds a control character (other than a tab or line break) or a bidirectional-text control";
        NameNotAscii = "E027", Error, "profiles `opencode`, `strictest`: `name` has a non-ASCII letter, which OpenCode's name pattern rejects";
        ShortDescriptionInvalid = "E028", Error, "profiles `codex`, `strictest`: `metadata.short-description` is not a string or is over 1024 characters, so Codex drops the skill";
        FencesNotStrict = "E029", Error, "profiles `gemini`, `strictest`: a byte-order mark before the first `---`, or no line break after the closing `---`, so Gemini CLI drops the skill";
        DuplicateNameShadowed = "E030", Error, "two skills of one run share a `name` and sit in lookup directories of one client in one project (`.claude/skills` and `.agents/skills`, say): one shadows the other";
        EvalsInvalid = "E031", Error, "`evals/evals.json` is not the agentskills.io shape: `skill_name` differs from `name`, or an eval lacks an `id`, a `prompt`, or an `expected_output` or `assertions`";
        TriggerQueriesInvalid = "E032", Error, "a trigger-query file in `evals/` is not a list of `{query, should_trigger}` objects";
        CommandFailsContract = "E033", Error, "with a registry (`--commands`, or `commands/aigent.toml` beside the skills): a `` !`cmd` `` dynamic-context command, or an exact `Bash(cmd)` grant, names a program a contract declares, and the contract refuses it (Phase 1 or its template)";
        UnknownKey = "W001", Warning, "a frontmatter key the chosen profile does not know";
        BodyTooLong = "W002", Warning, "the body is longer than 500 lines";
        MetadataValueNotString = "W003", Warning, "a `metadata` value is not a string";
        AllowedToolsList = "W004", Warning, "`allowed-tools` is a YAML list, not the spec's space-separated string";
        LinkTargetMissing = "W005", Warning, "a file the body links to by a relative path does not exist";
        FieldNotString = "W006", Warning, "`license` or `allowed-tools` has a type the spec does not allow";
        BodyOverTokenBudget = "W007", Warning, "the body is over the spec's recommended 5000 tokens (counted with o200k_base)";
        ClientKeyType = "W008", Warning, "a key of the chosen client has another type than the client reads (`user-invocable: \"yes\"`)";
        DuplicateName = "W009", Warning, "another skill of the same run has the same `name` (its path is named)";
        WriteOutsideTree = "W010", Warning, "`skill fmt`, `fix` or `new`: a symlinked skill file or directory leads outside the tree given; nothing is read or written through it";
        GrantWiderThanContracts = "W011", Warning, "with a registry: a `Bash` grant in `allowed-tools` admits commands no contract declares (`Bash`, `Bash(*)`, a wildcard, `Bash(git:*)` where only `git log` is declared, or a program no contract declares)";
        DynamicCommandUndeclared = "W012", Warning, "with a registry: a `` !`cmd` `` dynamic-context command in the body matches no contract (no contract declares its program)";
        DescriptionNearDuplicate = "N001", Note, "another skill of the same run has nearly the same `description` (the same words, ignoring case, punctuation and order): an agent cannot tell them apart";
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Severity;

    #[test]
    fn the_readme_table_lists_every_code() {
        let readme = include_str!("../../docs/reference/skill-codes.md");
        for (code, severity, _) in Code::TABLE {
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
            Code::TABLE.len(),
            "docs/reference/skill-codes.md lists codes that do not exist"
        );
    }

    #[test]
    fn codes_are_unique_and_prefixed_by_severity() {
        let mut seen = std::collections::HashSet::new();
        for (code, severity, _) in Code::TABLE {
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
