//! Token budgets: what a skill costs in an agent's context.
//!
//! Counts come from a real byte-pair encoder, OpenAI's `o200k_base` (the
//! GPT-4o family's vocabulary; see [`crate::tokenizer`]): the vocabulary is
//! compiled into the binary, so counting never touches the network. Other
//! models' tokenizers differ (Claude's and Gemini's are not
//! public); for English prose and Markdown they land within roughly 10-20%
//! of these counts, which is close enough for a budget.
//!
//! A skill costs tokens twice: its `<skill>` entry in the
//! `<available_skills>` listing is loaded for every conversation
//! (`metadata`), and its Markdown body when the skill is used (`body`).

use serde::Serialize;

use super::codes;
#[cfg(test)]
use super::listing::render_skill_entry;
use super::listing::{PromptSkill, push_skill_entry};
use crate::report::Diagnostic;

/// The body budget the Agent Skills specification recommends ("under
/// 5000 tokens"); a longer body is a warning.
pub const BODY_TOKEN_BUDGET: usize = 5000;

/// The tokens a skill adds to an agent's context.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TokenCounts {
    /// Its `<skill>` entry in the `<available_skills>` listing.
    pub metadata: usize,
    /// Its Markdown body.
    pub body: usize,
}

pub use crate::tokenizer::count_tokens;

/// The tokens of a skill's entry in the listing: the `<skill>` element
/// as `to-prompt` renders it, with the line break that separates it.
pub fn entry_tokens(skill: &PromptSkill) -> usize {
    entry_tokens_of(
        &skill.name,
        &skill.description,
        &skill.location.to_string_lossy(),
    )
}

/// [`entry_tokens`] of the entry with these values, without making a
/// [`PromptSkill`] of them.
///
/// The entry is written into a buffer each thread keeps: a description
/// is often over a kilobyte, and allocating that much afresh for every
/// skill cost more than writing it.
pub fn entry_tokens_of(name: &str, description: &str, location: &str) -> usize {
    /// A buffer that grew past this is dropped after use.
    const KEPT_CAPACITY: usize = 64 * 1024;
    thread_local! {
        static ENTRY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    ENTRY.with_borrow_mut(|entry| {
        entry.clear();
        push_skill_entry(entry, name, description, location);
        entry.push('\n');
        let count = count_tokens(entry);
        if entry.capacity() > KEPT_CAPACITY {
            *entry = String::new();
        }
        count
    })
}

/// A warning when the body is over [`BODY_TOKEN_BUDGET`].
pub fn check_body_tokens(body_tokens: usize, body_first_line: usize, out: &mut Vec<Diagnostic>) {
    if body_tokens > BODY_TOKEN_BUDGET {
        out.push(
            Diagnostic::new(
                codes::Code::BodyOverTokenBudget,
                format!(
                    "body is {body_tokens} tokens (o200k); keep it under {BODY_TOKEN_BUDGET} and move detail into referenced files"
                ),
            )
            .with_line(Some(body_first_line)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn counts_match_known_o200k_counts() {
        // Reference counts from OpenAI's tiktoken, o200k_base.
        assert_eq!(count_tokens(""), 0);
        assert_eq!(count_tokens("hello world"), 2);
        assert_eq!(count_tokens("Hello, world!"), 4);
        assert_eq!(
            count_tokens("The quick brown fox jumps over the lazy dog."),
            10
        );
    }

    #[test]
    fn an_entry_costs_its_element() {
        let skill = PromptSkill {
            name: "pdf".into(),
            description: "Extract text from PDF files.".into(),
            location: PathBuf::from("/s/pdf/SKILL.md"),
        };
        let entry = entry_tokens(&skill);
        assert!(entry > count_tokens("Extract text from PDF files."));
        assert_eq!(entry, count_tokens(&(render_skill_entry(&skill) + "\n")));
    }

    #[test]
    fn only_a_body_over_the_budget_warns() {
        let mut out = Vec::new();
        check_body_tokens(BODY_TOKEN_BUDGET, 5, &mut out);
        assert!(out.is_empty());
        check_body_tokens(BODY_TOKEN_BUDGET + 1, 5, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code, codes::Code::BodyOverTokenBudget);
        assert_eq!(out[0].line, Some(5));
    }
}
