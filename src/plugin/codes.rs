//! Stable diagnostic codes for plugins and marketplaces. `P` codes never
//! change meaning. docs/reference/plugin-codes.md is generated from
//! [`TABLE`] (`aigent generate reference`; tests/it/generated.rs checks it). Skills inside a plugin keep their own `E`/`W` codes.

use crate::report::Severity;

pub const JSON_INVALID: &str = "P001";
pub const NOT_AN_OBJECT: &str = "P002";
pub const FIELD_MISSING: &str = "P003";
pub const FIELD_TYPE: &str = "P004";
pub const NAME_NOT_KEBAB_CASE: &str = "P005";
pub const VERSION_NOT_SEMVER: &str = "P006";
pub const PATH_NOT_RELATIVE: &str = "P007";
pub const SOURCE_MISSING: &str = "P008";
pub const SOURCE_NOT_A_PLUGIN: &str = "P009";
pub const PLUGIN_NAME_DUPLICATE: &str = "P010";
pub const PLUGIN_NAME_MISMATCH: &str = "P011";
pub const COMPONENT_MISSING: &str = "P012";
pub const COMPONENT_BROKEN: &str = "P013";
pub const NOT_A_PLUGIN: &str = "P014";
pub const UNKNOWN_FIELD: &str = "P015";

/// What a SARIF log of `plugin validate` says about its rules: the plugin
/// codes and the skill codes, documented on the plugin codes' page.
pub fn sarif_tool() -> crate::report::sarif::ToolInfo<'static> {
    crate::report::sarif::ToolInfo {
        rules: with_skill_codes(),
        rules_page: crate::report::PLUGIN_CODES_PAGE,
    }
}

/// Every code with its default severity and what it catches.
/// The rules `plugin validate` can report: its own, then every skill code
/// (the skills inside plugins keep theirs), for SARIF.
pub fn with_skill_codes() -> &'static [(&'static str, Severity, &'static str)] {
    static ALL: std::sync::LazyLock<Vec<(&str, Severity, &str)>> = std::sync::LazyLock::new(|| {
        TABLE
            .iter()
            .chain(crate::skill::codes::TABLE)
            .copied()
            .collect()
    });
    &ALL
}

pub const TABLE: &[(&str, Severity, &str)] = &[
    (
        JSON_INVALID,
        Severity::Error,
        "a manifest (`plugin.json`, `marketplace.json`) or `hooks/hooks.json` is not valid JSON",
    ),
    (
        NOT_AN_OBJECT,
        Severity::Error,
        "a manifest, or a plugin entry in a marketplace, is not a JSON object",
    ),
    (
        FIELD_MISSING,
        Severity::Error,
        "a required field is missing (`name`; in a marketplace also `owner`, `owner.name`, `plugins`, and each entry's `source`)",
    ),
    (
        FIELD_TYPE,
        Severity::Error,
        "a field has the wrong JSON type (a number for `description`, a string for `keywords`, ...)",
    ),
    (
        NAME_NOT_KEBAB_CASE,
        Severity::Error,
        "a plugin or marketplace `name` is not kebab-case (`a-z`, `0-9`, single inner `-`)",
    ),
    (
        VERSION_NOT_SEMVER,
        Severity::Error,
        "`version` is not a semantic version (`1.2.3`)",
    ),
    (
        PATH_NOT_RELATIVE,
        Severity::Error,
        "a local path does not start with `./`, or leaves the plugin or marketplace root with `..` (or, for a marketplace entry's `source`, through a symlink)",
    ),
    (
        SOURCE_MISSING,
        Severity::Error,
        "a marketplace entry's local `source` does not exist",
    ),
    (
        SOURCE_NOT_A_PLUGIN,
        Severity::Error,
        "a marketplace entry's local `source` holds neither `.claude-plugin/plugin.json` nor any component directory",
    ),
    (
        PLUGIN_NAME_DUPLICATE,
        Severity::Error,
        "two entries of one marketplace have the same `name`",
    ),
    (
        PLUGIN_NAME_MISMATCH,
        Severity::Error,
        "a marketplace entry's `name` differs from the `name` in the plugin's own `plugin.json`",
    ),
    (
        COMPONENT_MISSING,
        Severity::Error,
        "a component path a manifest names (`commands`, `agents`, `skills`, `hooks`, ...) does not exist",
    ),
    (
        COMPONENT_BROKEN,
        Severity::Error,
        "a command, agent or hooks file cannot be read or parsed (bad frontmatter, bad JSON, no `hooks` object)",
    ),
    (
        NOT_A_PLUGIN,
        Severity::Error,
        "a PATH is neither a plugin (`.claude-plugin/plugin.json`) nor a marketplace (`.claude-plugin/marketplace.json`)",
    ),
    (
        UNKNOWN_FIELD,
        Severity::Warning,
        "a manifest field Claude Code does not document (a typo, or a newer field)",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_page_lists_every_code() {
        let page = include_str!("../../docs/reference/plugin-codes.md");
        for (code, severity, _) in TABLE {
            let row = format!("| `{code}` | {severity} |");
            assert!(page.contains(&row), "plugin-codes.md lacks {row}");
        }
        let rows = page.lines().filter(|line| line.starts_with("| `P")).count();
        assert_eq!(
            rows,
            TABLE.len(),
            "plugin-codes.md lists codes that do not exist"
        );
    }

    #[test]
    fn codes_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for (code, _, _) in TABLE {
            assert!(seen.insert(*code), "{code} twice");
            assert!(code.starts_with('P'));
        }
    }
}
