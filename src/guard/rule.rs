//! The names of the guard's rules: what rejected a value, as the envelope
//! and the audit log spell it.

use serde::Serialize;

use crate::contract::PatternType;

/// What rejected a value. The snake_case name is `rejected_pattern` in the
/// envelope and the audit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
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
    CommandString,
    // Contract checks: the value does not fit the declaration (ARG_ERROR).
    Pattern,
    AlphanumericId,
    Uuid,
    Semver,
    Filepath,
    Url,
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
        match self {
            Self::PathTraversal => "path_traversal",
            Self::PercentEncoded => "percent_encoded",
            Self::QueryParameter => "query_parameter",
            Self::FragmentIdentifier => "fragment_identifier",
            Self::ControlCharacter => "control_character",
            Self::ShellMetacharacter => "shell_metacharacter",
            Self::PlaceholderLiteral => "placeholder_literal",
            Self::OptionInjection => "option_injection",
            Self::EmptyValue => "empty_value",
            Self::PrototypeKey => "prototype_key",
            Self::DuplicateKey => "duplicate_key",
            Self::CommandString => "command_string",
            Self::Pattern => "pattern",
            Self::AlphanumericId => "alphanumeric_id",
            Self::Uuid => "uuid",
            Self::Semver => "semver",
            Self::Filepath => "filepath",
            Self::Url => "url",
            Self::Type => "type",
            Self::Enum => "enum",
            Self::Required => "required",
            Self::UnknownParameter => "unknown_parameter",
            Self::UnexpectedArgument => "unexpected_argument",
            Self::Repeated => "repeated",
            Self::MissingValue => "missing_value",
            Self::Json => "json",
            Self::Schema => "schema",
        }
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
        )
    }

    pub fn for_pattern_type(pattern_type: PatternType) -> Self {
        match pattern_type {
            PatternType::AlphanumericId => Self::AlphanumericId,
            PatternType::Uuid => Self::Uuid,
            PatternType::Semver => Self::Semver,
            PatternType::Filepath => Self::Filepath,
            PatternType::Url => Self::Url,
        }
    }
}
