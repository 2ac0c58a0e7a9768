//! The names of the guard's rules: what rejected a value, as the envelope
//! and the audit log spell it.

use serde::Serialize;
use strum::{IntoStaticStr, VariantArray};

use crate::contract::PatternType;

/// What rejected a value. The snake_case name is `rejected_pattern` in the
/// envelope and the audit log.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, IntoStaticStr, VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Rule {
    // The named rules: a hit is a hallucinated or smuggled input
    // (INVALID_AGENT_INPUT).
    PathTraversal,
    PercentEncoded,
    QueryParameter,
    FragmentIdentifier,
    ControlCharacter,
    ShellMetacharacter,
    PlaceholderLiteral,
    OptionInjection,
    EmptyValue,
    PrototypeKey,
    DuplicateKey,
    /// An agent-chosen command line that hands a command string to a
    /// shell or an interpreter (`sh -c`, `sed 1e`).
    CommandString,
    /// An absolute path where the declaration asks for a relative one
    /// (`relative_only`).
    AbsolutePath,
    /// A path that resolves (symbolic links followed) outside every
    /// directory the declaration allows (`under`).
    OutsideRoot,
    // Contract checks: the value does not fit the declaration (ARG_ERROR).
    Pattern,
    AlphanumericId,
    Uuid,
    Semver,
    Filepath,
    Url,
    /// A `free_text` value too long for one argv word.
    FreeText,
    /// A `regex` value that does not compile in its dialect.
    Regex,
    /// A path the declaration says must exist, and does not
    /// (`must_exist`).
    PathNotFound,
    Type,
    /// An integer or number outside its declared bounds.
    Bounds,
    Enum,
    Required,
    UnknownParameter,
    UnexpectedArgument,
    Repeated,
    MissingValue,
    Json,
    Schema,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether a hit means the input was hallucinated or hostile, as opposed
    /// to merely not fitting the declaration.
    pub fn is_named(self) -> bool {
        matches!(
            self,
            Self::PathTraversal
                | Self::PercentEncoded
                | Self::QueryParameter
                | Self::FragmentIdentifier
                | Self::ControlCharacter
                | Self::ShellMetacharacter
                | Self::PlaceholderLiteral
                | Self::OptionInjection
                | Self::EmptyValue
                | Self::PrototypeKey
                | Self::DuplicateKey
                | Self::CommandString
                | Self::AbsolutePath
                | Self::OutsideRoot
        )
    }

    /// What the rule catches, as docs/reference/guard-rules.md says it
    /// (generated from here by `aigent generate reference`).
    pub fn meaning(self) -> &'static str {
        match self {
            Self::PathTraversal => {
                "a segment of two or more dots (`..`, `...`, `....`) between `/`, `\\` or a look-alike (`∕ ⁄ ⧸ ／` for `/`, `＼ ∖ ⧹ ﹨` for `\\`); in a URL path also `..;` (servers strip `;` parameters) and, once decoded, `..` followed by `?` or `#`"
            }
            Self::PercentEncoded => "`%XX` or `%uXXXX`",
            Self::QueryParameter => "`?` or `&`",
            Self::FragmentIdentifier => "`#`",
            Self::ControlCharacter => {
                "C0, DEL, C1, U+2028/9, and format characters (zero-width, bidi controls, BOM, tags), and the characters that render as nothing (U+034F combining grapheme joiner, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the Khmer inherent vowels U+17B4/5, the blank Braille pattern U+2800)"
            }
            Self::ShellMetacharacter => {
                "`; | & $ ( ) < >`, backtick, newline, CR, literal or percent-encoded (not their fullwidth forms)"
            }
            Self::PlaceholderLiteral => {
                "the whole value (case-insensitive, spaces trimmed) one of `null`, `undefined`, `None`, `NaN`, `nil`, `[object Object]` (a missing value), or a template and nothing else (`{{x}}`, `${X}`, `<x>`); in a string held to a `pattern` or a pattern type also `TODO`, `TBD`, `FIXME`, `changeme`, `placeholder` (a value still to come); in an ID, a path or a URL also a template anywhere (`prod-<region>`)"
            }
            Self::AbsolutePath => {
                "a path that does not depend on the working directory: it starts with `/`, `\\`, `~` or a drive letter (also once decoded, as `%2Fetc`)"
            }
            Self::OutsideRoot => {
                "a path that resolves (symbolic links followed) outside every directory of its `under`, or goes through a dangling symbolic link; checked against the file system right after the pure rules (`guard::confine`)"
            }
            Self::OptionInjection => "a value starting with `-` (numbers included)",
            Self::EmptyValue => "an empty string",
            Self::PrototypeKey => "`__proto__`, `constructor`, `prototype` as a key at any depth",
            Self::DuplicateKey => "a key given twice",
            Self::CommandString => {
                "a command line the agent chose (a declaration whose program is an agent's value, as `shell_exec`) that hands a command string to a shell or an interpreter, checked with `schema lint`'s own E115/E127 rules: `sh -c`, `env -- bash -c`, `python -c`, `sed 1e`, `sqlite3 db .shell`, `vim +!`, `git -c alias.x=!`, `env BASH_ENV=`"
            }
            Self::Pattern => {
                "a value that does not match the declared `pattern` (where a `pattern_type` applies too, a value must pass both)"
            }
            Self::AlphanumericId => {
                "not 1 to 128 ASCII letters, digits, `-` and `_`, starting with a letter or a digit"
            }
            Self::Uuid => "not the canonical 8-4-4-4-12 hexadecimal form (either case)",
            Self::Semver => "not a SemVer 2.0.0 version (`v1.2.3` and `01.2.3` fail)",
            Self::Filepath => {
                "a path longer than 4,096 bytes (traversal, NUL and control characters are the named rules')"
            }
            Self::Url => {
                "not an `http` or `https` URL, or one with userinfo (`@`), spaces or a malformed host or port"
            }
            Self::FreeText => "a value too long for one argv word (over 131,071 bytes)",
            Self::Regex => {
                "a regular expression that does not compile in its `regex_dialect`, or is over its size, repetition or nesting limits"
            }
            Self::PathNotFound => {
                "a path that does not exist, checked against the file system right after the pure rules (`guard::confine`)"
            }
            Self::Type => {
                "a value that is not of the declared `type` (`integer`, `number`, `boolean`, `array`)"
            }
            Self::Bounds => {
                "an integer or number below its `minimum` or `exclusiveMinimum`, above its `maximum` or `exclusiveMaximum`, or not a whole multiple of its `multipleOf` (compared exactly on the decimal digits given)"
            }
            Self::Enum => "a value that is not one of `enum_values`",
            Self::Required => "a `required` parameter that is not given",
            Self::UnknownParameter => {
                "a `--name` flag, or a `--json` key, that the declaration does not declare"
            }
            Self::UnexpectedArgument => "a word that is neither a `--name` flag nor its value",
            Self::Repeated => "a parameter given more than once where it takes one value",
            Self::MissingValue => "a `--name` flag without its value",
            Self::Json => "`--json` that is not one JSON object, or that is mixed with flags",
            Self::Schema => "a value that an `input_schema` keyword refuses",
        }
    }

    /// Which values the rule looks at.
    pub fn applies_to(self) -> &'static str {
        match self {
            Self::PathTraversal => {
                "resource_id, alphanumeric_id, uuid, semver, filepath, url (its path only)"
            }
            Self::PercentEncoded => "resource_id, alphanumeric_id, uuid, semver",
            Self::QueryParameter => "resource_id, alphanumeric_id, uuid, semver",
            Self::FragmentIdentifier => "resource_id, alphanumeric_id, uuid, semver",
            Self::ControlCharacter => {
                "every string; a plain string (no pattern, no pattern type) and `free_text` keep tab, newline, CR, ZWJ and ZWNJ. Variation selectors pass everywhere (emoji and Japanese names use them)"
            }
            Self::ShellMetacharacter => {
                "resource_id, and every user-controlled argument except `free_text` and `regex`, which a program reads as data (in a `url`, the RFC 3986 sub-delimiters `& $ ( ) ;` are syntax, not metacharacters)"
            }
            Self::PlaceholderLiteral => {
                "every string, whatever its pattern (so `--author null` is refused even where `^[A-Za-z ]+$` would match it, and a `filepath` of exactly `placeholder` is refused: agents write those words for a value they do not have, far more often than a file has that bare name). A plain string or text may be a to-do word (`grep -rn TODO` searches for one) and may mention a template (`use ${HOME}`); a regex that is only `<title>` is refused (write `[<]title>`)"
            }
            Self::AbsolutePath => "a `filepath` with `relative_only`",
            Self::OutsideRoot => "a `filepath` with `under`",
            Self::OptionInjection => "every user-controlled argument, unless `allow_leading_dash`",
            Self::EmptyValue => "resource_id and every pattern type",
            Self::PrototypeKey => "`--json`",
            Self::DuplicateKey => "`--json`",
            Self::CommandString => "the words of an agent-chosen program",
            Self::Pattern => "a parameter with `pattern`",
            Self::AlphanumericId => "`alphanumeric_id`",
            Self::Uuid => "`uuid`",
            Self::Semver => "`semver`",
            Self::Filepath => "`filepath`",
            Self::Url => "`url`",
            Self::FreeText => "`free_text`",
            Self::Regex => "`regex`",
            Self::PathNotFound => "a `filepath` with `must_exist`",
            Self::Type => "every parameter",
            Self::Bounds => "an `integer` or `number` with bounds",
            Self::Enum => "`enum`",
            Self::Required => "a `required` parameter",
            Self::UnknownParameter => "every call",
            Self::UnexpectedArgument => "the `--name value` form",
            Self::Repeated => "every parameter but an `array`",
            Self::MissingValue => "the `--name value` form",
            Self::Json => "`--json`",
            Self::Schema => "a declaration with `input_schema`",
        }
    }

    pub fn for_pattern_type(pattern_type: PatternType) -> Self {
        match pattern_type {
            PatternType::AlphanumericId => Self::AlphanumericId,
            PatternType::Uuid => Self::Uuid,
            PatternType::Semver => Self::Semver,
            PatternType::Filepath => Self::Filepath,
            PatternType::Url => Self::Url,
            PatternType::FreeText => Self::FreeText,
            PatternType::Regex => Self::Regex,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// strum names the rules for text and the audit log, serde for the
    /// envelope: they must spell each one alike.
    #[test]
    fn every_rule_is_spelled_alike_by_strum_and_serde() {
        for rule in Rule::VARIANTS {
            assert_eq!(
                serde_json::to_value(rule).unwrap(),
                serde_json::Value::from(rule.as_str())
            );
        }
        assert_eq!(Rule::PathTraversal.as_str(), "path_traversal");
    }
}
