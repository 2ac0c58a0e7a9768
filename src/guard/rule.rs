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
