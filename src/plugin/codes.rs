//! Stable diagnostic codes for plugins and marketplaces. `P` codes never
//! change meaning. docs/reference/plugin-codes.md is generated from
//! [`Code`] (`aigent generate reference`; tests/it/generated.rs checks it). Skills inside a plugin keep their own `E`/`W` codes.

use crate::report::Severity;

/// What a SARIF log of `plugin validate` says about its rules: the plugin
/// codes and the skill codes, documented on the plugin codes' page.
pub fn sarif_tool() -> crate::report::sarif::ToolInfo<'static> {
    crate::report::sarif::ToolInfo {
        rules: with_skill_codes(),
        rules_page: crate::report::PLUGIN_CODES_PAGE,
    }
}

/// The rules `plugin validate` can report: its own, then every skill code
/// (the skills inside plugins keep theirs), for SARIF.
pub fn with_skill_codes() -> &'static [(&'static str, Severity, &'static str)] {
    static ALL: std::sync::LazyLock<Vec<(&str, Severity, &str)>> = std::sync::LazyLock::new(|| {
        Code::TABLE
            .iter()
            .chain(crate::skill::codes::Code::TABLE)
            .copied()
            .collect()
    });
    &ALL
}

crate::report::diagnostic_codes! {
    /// Every code, with its severity and what it catches: a finding is
    /// built from its code ([`Diagnostic::new`](crate::report::Diagnostic::new)),
    /// which gives it its severity.
    pub enum Code {
        JsonInvalid = "P001", Error, "a manifest (`plugin.json`, `marketplace.json`) or `hooks/hooks.json` is not valid JSON";
        NotAnObject = "P002", Error, "a manifest, or a plugin entry in a marketplace, is not a JSON object";
        FieldMissing = "P003", Error, "a required field is missing (`name`; in a marketplace also `owner`, `owner.name`, `plugins`, and each entry's `source`)";
        FieldType = "P004", Error, "a field has the wrong JSON type (a number for `description`, a string for `keywords`, ...)";
        NameNotKebabCase = "P005", Error, "a plugin or marketplace `name` is not kebab-case (`a-z`, `0-9`, single inner `-`)";
        VersionNotSemver = "P006", Error, "`version` is not a semantic version (`1.2.3`)";
        PathNotRelative = "P007", Error, "a local path does not start with `./`, or leaves the plugin or marketplace root with `..` (or, for a marketplace entry's `source`, through a symlink)";
        SourceMissing = "P008", Error, "a marketplace entry's local `source` does not exist";
        SourceNotAPlugin = "P009", Error, "a marketplace entry's local `source` holds neither `.claude-plugin/plugin.json` nor any component directory";
        PluginNameDuplicate = "P010", Error, "two entries of one marketplace have the same `name`";
        PluginNameMismatch = "P011", Error, "a marketplace entry's `name` differs from the `name` in the plugin's own `plugin.json`";
        ComponentMissing = "P012", Error, "a component path a manifest names (`commands`, `agents`, `skills`, `hooks`, ...) does not exist";
        ComponentBroken = "P013", Error, "a command, agent or hooks file cannot be read or parsed (bad frontmatter, bad JSON, no `hooks` object)";
        NotAPlugin = "P014", Error, "a PATH is neither a plugin (`.claude-plugin/plugin.json`) nor a marketplace (`.claude-plugin/marketplace.json`)";
        UnknownField = "P015", Warning, "a manifest field Claude Code does not document (a typo, or a newer field)";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_page_lists_every_code() {
        let page = include_str!("../../docs/reference/plugin-codes.md");
        for (code, severity, _) in Code::TABLE {
            let row = format!("| `{code}` | {severity} |");
            assert!(page.contains(&row), "plugin-codes.md lacks {row}");
        }
        let rows = page.lines().filter(|line| line.starts_with("| `P")).count();
        assert_eq!(
            rows,
            Code::TABLE.len(),
            "plugin-codes.md lists codes that do not exist"
        );
    }

    #[test]
    fn codes_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for (code, _, _) in Code::TABLE {
            assert!(seen.insert(*code), "{code} twice");
            assert!(code.starts_with('P'));
        }
    }
}
