//! What Phase 1 reports: every violation, each naming its field and rule.

use serde::Serialize;

use super::rule::Rule;
use crate::report::{ErrorBody, ErrorCode, FieldError, Phase};

/// The envelope key of the corrected words after NAME.
pub const FIX_ARGUMENTS: &str = "fix_arguments";

/// Shown instead of the value of a parameter declared `sensitive`.
pub const REDACTED: &str = "[REDACTED]";

/// One problem with one argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The argument: a parameter name, then `[i]` for an array item or
    /// `.key` inside an object (`args[1]`, `options.depth`).
    pub field: String,
    pub rule: Rule,
    /// The value as given (absent for a missing argument).
    pub input_value: Option<String>,
    /// What would have been accepted.
    pub expected: String,
    pub message: String,
    /// A corrected value, where one follows from the input (the decoded
    /// form of a percent-encoded ID, the ID without its `?query`). Offered,
    /// never applied.
    pub suggestion: Option<String>,
    /// The argument is declared `sensitive`: its value must not be shown.
    #[serde(skip)]
    pub sensitive: bool,
}

impl Violation {
    /// A violation about an argument as a whole (missing, unknown, wrong
    /// type), with no rule-specific suggestion.
    pub fn new(
        field: impl Into<String>,
        rule: Rule,
        input_value: Option<String>,
        expected: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            rule,
            input_value,
            expected: expected.into(),
            message: message.into(),
            suggestion: None,
            sensitive: false,
        }
    }

    /// Each text cut to [`MAX_VIOLATION_TEXT_CHARS`] characters.
    fn cut(self) -> Self {
        Self {
            field: cut_text(self.field),
            input_value: self.input_value.map(cut_text),
            expected: cut_text(self.expected),
            message: cut_text(self.message),
            suggestion: self.suggestion.map(cut_text),
            ..self
        }
    }

    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// The same violation with the value hidden when the argument is
    /// sensitive: the value, the suggestion and the message (which may
    /// quote a character of the value) are replaced.
    pub fn redacted(&self) -> Violation {
        if !self.sensitive {
            return self.clone();
        }
        Violation {
            input_value: self.input_value.as_ref().map(|_| REDACTED.to_owned()),
            suggestion: self.suggestion.as_ref().map(|_| REDACTED.to_owned()),
            message: if self.field.is_empty() {
                format!(
                    "an argument was rejected by the {} rule (value redacted: it may hold a sensitive value)",
                    self.rule.as_str()
                )
            } else {
                format!(
                    "`{}` was rejected by the {} rule (value redacted: the parameter is sensitive)",
                    self.field,
                    self.rule.as_str()
                )
            },
            ..self.clone()
        }
    }

    pub fn to_field_error(&self) -> FieldError {
        let shown = self.redacted();
        FieldError {
            field: Some(shown.field),
            message: shown.message,
            code: None,
            input_value: shown.input_value,
            rejected_pattern: Some(shown.rule.as_str().to_owned()),
            expected: Some(shown.expected),
            suggestion: shown.suggestion,
        }
    }
}

/// `text` cut after [`MAX_VIOLATION_TEXT_CHARS`] characters, marked with
/// `…`.
fn cut_text(text: String) -> String {
    match text.char_indices().nth(MAX_VIOLATION_TEXT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// `text` as a violation quotes it: cut as [`Rejection::bounded`] would
/// cut it, without copying more of a long value than is kept.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(MAX_VIOLATION_TEXT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// A JSON value's compact text as a violation quotes it: written out only
/// as far as is kept, so a long value is never rendered whole.
pub fn shown_json(value: &serde_json::Value) -> String {
    /// Takes bytes until it has enough, then refuses the rest.
    struct Bounded(Vec<u8>);
    impl std::io::Write for Bounded {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            // Characters are at most 4 bytes: this holds more than is kept.
            let room = (MAX_VIOLATION_TEXT_CHARS * 4 + 4).saturating_sub(self.0.len());
            if room == 0 {
                return Err(std::io::Error::other("enough"));
            }
            let taken = bytes.len().min(room);
            self.0.extend_from_slice(&bytes[..taken]);
            Ok(taken)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Bounded(Vec::new());
    let _ = serde_json::to_writer(&mut out, value);
    // A cut may fall inside a character: what is kept ends before it.
    quoted(&String::from_utf8_lossy(&out.0))
}

/// Phase 1 refused the arguments; nothing may run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub command: String,
    /// Never empty; in argument order, named-rule hits first per argument.
    pub violations: Vec<Violation>,
    /// The words after NAME that pass, when every violation has an exact
    /// correction and no input is sensitive (see `guard::fix`).
    pub fix: Option<Vec<String>>,
}

/// At most this many violations are kept in a rejection ...
pub const MAX_REPORTED_VIOLATIONS: usize = 64;
/// ... and at most this many bytes of them as JSON, so the envelope and
/// the audit record stay small whatever the agent sent.
pub const MAX_REPORTED_BYTES: usize = 32 * 1024;
/// Each text of a violation (field, value, message, suggestion, expected)
/// is cut to this many characters.
pub const MAX_VIOLATION_TEXT_CHARS: usize = 1024;

impl Rejection {
    /// A rejection holding a bounded report of `violations`: each text
    /// cut, at most [`MAX_REPORTED_VIOLATIONS`] and [`MAX_REPORTED_BYTES`]
    /// of them, the primary one always among them, and a last entry that
    /// counts the ones left out. Every record and envelope built from it
    /// therefore has a hard size bound.
    pub fn bounded(command: String, violations: Vec<Violation>) -> Self {
        let total = violations.len();
        let primary_index = violations
            .iter()
            .position(|violation| violation.rule.is_named())
            .unwrap_or(0);
        let mut kept: Vec<Violation> = Vec::new();
        let mut bytes = 0;
        let mut primary_kept = false;
        let mut omitted_rule = None;
        for (index, violation) in violations.into_iter().enumerate() {
            let violation = violation.cut();
            let cost = serde_json::to_string(&violation).map_or(0, |json| json.len());
            let room =
                kept.len() + 1 < MAX_REPORTED_VIOLATIONS && bytes + cost <= MAX_REPORTED_BYTES;
            // The primary violation is kept even past the budget, in place
            // of the last one kept.
            if room || (index == primary_index && !primary_kept) {
                if !room && let Some(dropped) = kept.pop() {
                    omitted_rule.get_or_insert(dropped.rule);
                }
                primary_kept |= index == primary_index;
                bytes += cost;
                kept.push(violation);
            } else {
                omitted_rule.get_or_insert(violation.rule);
            }
        }
        let omitted = total - kept.len();
        if let Some(rule) = omitted_rule
            && omitted > 0
        {
            kept.push(Violation::new(
                "",
                rule,
                None,
                "fewer problems in one call",
                format!(
                    "{omitted} more violation{} not shown",
                    if omitted == 1 { "" } else { "s" }
                ),
            ));
        }
        Self {
            command,
            violations: kept,
            fix: None,
        }
    }

    /// `INVALID_AGENT_INPUT` when a named rule fired (the input was
    /// hallucinated or hostile), else `ARG_ERROR`.
    pub fn error_code(&self) -> ErrorCode {
        if self
            .violations
            .iter()
            .any(|violation| violation.rule.is_named())
        {
            ErrorCode::InvalidAgentInput
        } else {
            ErrorCode::ArgError
        }
    }

    /// The violation the envelope's top-level fields describe: the first
    /// named-rule hit, else the first violation.
    pub fn primary(&self) -> Option<&Violation> {
        self.violations
            .iter()
            .find(|violation| violation.rule.is_named())
            .or_else(|| self.violations.first())
    }

    /// The envelope's `error`, sensitive values redacted.
    pub fn to_error_body(&self) -> ErrorBody {
        let count = self.violations.len();
        let primary = self.primary().map(Violation::redacted);
        let message = match &primary {
            Some(primary) if count == 1 => primary.message.clone(),
            Some(primary) => format!("{} (and {} more)", primary.message, count - 1),
            None => format!("`{}`: the arguments were rejected", self.command),
        };
        let mut body = ErrorBody::new(self.error_code(), message);
        body.phase = Some(Phase::Validation);
        if let Some(shown) = primary {
            body.field = Some(shown.field);
            body.input_value = shown.input_value;
            body.rejected_pattern = Some(shown.rule.as_str().to_owned());
            body.expected = Some(shown.expected);
            body.suggestion = shown.suggestion;
        }
        body.errors = self
            .violations
            .iter()
            .map(Violation::to_field_error)
            .collect();
        body.hints.push(format!(
            "run `aigent schema show {}` for the declared parameters",
            self.command
        ));
        match &self.fix {
            Some(words) => body.with_extra(FIX_ARGUMENTS, words.clone()),
            None => body,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(rule: Rule) -> Violation {
        Violation::new(
            "token",
            rule,
            Some("s3cret".to_owned()),
            "a string",
            "`token` is bad",
        )
    }

    #[test]
    fn a_rejection_report_is_bounded_whatever_the_input() {
        for (count, length) in [
            (1, 1),
            (1, 100_000),
            (100, 2_000),
            (5_000, 10),
            (500, 1_100),
        ] {
            {
                let mut violations: Vec<Violation> = (0..count)
                    .map(|index| {
                        Violation::new(
                            "w".repeat(length),
                            Rule::UnexpectedArgument,
                            Some(format!("{index}{}", "\u{1}".repeat(length))),
                            "nothing",
                            "x".repeat(length),
                        )
                    })
                    .collect();
                violations.push(violation(Rule::PathTraversal));
                let rejection = Rejection::bounded("c".to_owned(), violations);
                let json = serde_json::to_string(&rejection.violations).unwrap();
                // Byte budget plus the primary and the summary entries.
                assert!(
                    json.len() <= MAX_REPORTED_BYTES + 2 * 8 * 1024,
                    "{count} x {length}: {}",
                    json.len()
                );
                assert!(rejection.violations.len() <= MAX_REPORTED_VIOLATIONS);
                assert_eq!(rejection.error_code(), "INVALID_AGENT_INPUT");
                assert_eq!(rejection.primary().unwrap().rule, Rule::PathTraversal);
            }
        }
        let small = Rejection::bounded("c".to_owned(), vec![violation(Rule::Type)]);
        assert_eq!(small.violations, vec![violation(Rule::Type)]);
    }

    #[test]
    fn named_rules_make_invalid_agent_input() {
        let rejection = Rejection {
            command: "deploy".to_owned(),
            violations: vec![violation(Rule::Type), violation(Rule::PathTraversal)],
            fix: None,
        };
        assert_eq!(rejection.error_code(), "INVALID_AGENT_INPUT");
        assert_eq!(rejection.primary().unwrap().rule, Rule::PathTraversal);
        let rejection = Rejection {
            command: "deploy".to_owned(),
            violations: vec![violation(Rule::Required)],
            fix: None,
        };
        assert_eq!(rejection.error_code(), "ARG_ERROR");
    }

    #[test]
    fn sensitive_values_are_redacted_in_the_body() {
        let mut secret = violation(Rule::ControlCharacter).with_suggestion("s3cret2");
        secret.sensitive = true;
        let body = Rejection {
            command: "login".to_owned(),
            violations: vec![secret],
            fix: None,
        }
        .to_error_body();
        assert_eq!(body.input_value.as_deref(), Some(REDACTED));
        assert_eq!(body.suggestion.as_deref(), Some(REDACTED));
        assert_eq!(body.errors[0].input_value.as_deref(), Some(REDACTED));
        assert_eq!(body.phase, Some(Phase::Validation));
        let text = serde_json::to_string(&body).unwrap();
        assert!(!text.contains("s3cret"), "{text}");
    }
}
