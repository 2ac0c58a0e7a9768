//! Evals files next to a skill, in the shapes the agentskills.io guides
//! describe: `evals/evals.json` (test cases: `skill_name` and a list of
//! evals, each with an `id`, a `prompt`, and an `expected_output` or
//! `assertions`) and trigger-query files (`evals/*trigger*.json`: a list of
//! `{query, should_trigger}`). A malformed file is a finding of the skill
//! (`E031`, `E032`); a well-formed one, or none, is silent.

use std::collections::HashSet;
use std::path::Path;

use serde_json::{Map, Value};

use super::codes;
use super::source::SkillSource;
use crate::report::Diagnostic;

pub const EVALS_DIRECTORY: &str = "evals";
pub const EVALS_FILE: &str = "evals.json";

/// One file reports at most this many problems, then how many more.
pub const MAX_PROBLEMS_PER_FILE: usize = 10;

/// Checks the evals files of the skill in `directory` (of `source`);
/// `skill_name` is the frontmatter name, when it is a string.
pub fn check_evals(
    source: &dyn SkillSource,
    directory: &Path,
    skill_name: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
    let evals_directory = directory.join(EVALS_DIRECTORY);
    // Most skills have no evals: one lookup answers for both checks.
    if !source.exists(&evals_directory) {
        return;
    }
    let evals_file = evals_directory.join(EVALS_FILE);
    if source.exists(&evals_file) {
        let shown = format!("{EVALS_DIRECTORY}/{EVALS_FILE}");
        let problems = match read_json(source, &evals_file) {
            Ok(value) => evals_problems(&value, skill_name),
            Err(problem) => vec![problem],
        };
        report(codes::Code::EvalsInvalid, &shown, problems, out);
    }
    for name in source.file_names(&evals_directory) {
        if !is_trigger_file(&name) {
            continue;
        }
        let shown = format!("{EVALS_DIRECTORY}/{name}");
        let problems = match read_json(source, &evals_directory.join(&name)) {
            Ok(value) => trigger_problems(&value),
            Err(problem) => vec![problem],
        };
        report(codes::Code::TriggerQueriesInvalid, &shown, problems, out);
    }
}

/// A trigger-query file: a JSON file in `evals/` whose name says
/// "trigger" (`trigger-queries.json`, `trigger_eval.json`).
pub fn is_trigger_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".json") && lower != EVALS_FILE && lower.contains("trigger")
}

/// A problem: its message and, where known, its line.
type Problem = (String, Option<usize>);

fn report(code: codes::Code, shown: &str, problems: Vec<Problem>, out: &mut Vec<Diagnostic>) {
    let total = problems.len();
    for (message, line) in problems.into_iter().take(MAX_PROBLEMS_PER_FILE) {
        let mut diagnostic = Diagnostic::new(code, format!("{shown}: {message}"))
            .with_field(shown.to_owned())
            .with_line(line);
        diagnostic.file = Some(shown.to_owned());
        out.push(diagnostic);
    }
    if total > MAX_PROBLEMS_PER_FILE {
        let mut more = Diagnostic::new(
            code,
            format!(
                "{shown}: {} more problems not listed",
                total - MAX_PROBLEMS_PER_FILE
            ),
        )
        .with_field(shown.to_owned());
        more.file = Some(shown.to_owned());
        out.push(more);
    }
}

fn read_json(source: &dyn SkillSource, file: &Path) -> Result<Value, Problem> {
    let bytes = source
        .read_skill_file(file)
        .map_err(|problem| (problem.message, None))?;
    serde_json::from_slice(&bytes).map_err(|err| {
        (
            format!("not valid JSON: {err}"),
            Some(err.line()).filter(|&line| line > 0),
        )
    })
}

/// Every way `value` differs from the evals.json shape.
pub fn evals_problems(value: &Value, skill_name: Option<&str>) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut problem = |message: String| problems.push((message, None));
    let Some(object) = value.as_object() else {
        problem(format!(
            "must be a JSON object with `skill_name` and `evals`, found {}",
            type_name(value)
        ));
        return problems;
    };
    match object.get("skill_name") {
        None => problem("`skill_name` is missing".to_owned()),
        Some(Value::String(named)) => {
            if let Some(skill_name) = skill_name
                && named != skill_name
            {
                problem(format!(
                    "`skill_name` is '{}' but the skill is named '{skill_name}'",
                    shorten(named)
                ));
            }
        }
        Some(other) => problem(format!(
            "`skill_name` must be a string, found {}",
            type_name(other)
        )),
    }
    let evals = match object.get("evals") {
        None => {
            problem("`evals` is missing".to_owned());
            return problems;
        }
        Some(Value::Array(evals)) => evals,
        Some(other) => {
            problem(format!(
                "`evals` must be a list, found {}",
                type_name(other)
            ));
            return problems;
        }
    };
    if evals.is_empty() {
        problem("`evals` lists no eval".to_owned());
    }
    let mut ids = HashSet::new();
    for (index, eval) in evals.iter().enumerate() {
        let at = format!("evals[{index}]");
        let Some(eval) = eval.as_object() else {
            problem(format!(
                "`{at}` must be an object, found {}",
                type_name(eval)
            ));
            continue;
        };
        match eval.get("id") {
            None => problem(format!("`{at}.id` is missing")),
            Some(id @ (Value::Number(_) | Value::String(_))) => {
                if id.as_str().is_some_and(|id| id.trim().is_empty()) {
                    problem(format!("`{at}.id` is empty"));
                } else if !ids.insert(id.to_string()) {
                    problem(format!("`{at}.id` {id} is also the id of an earlier eval"));
                }
            }
            Some(other) => problem(format!(
                "`{at}.id` must be a number or a string, found {}",
                type_name(other)
            )),
        }
        if let Some(message) = required_text(eval, "prompt", &at) {
            problem(message);
        }
        let has_expected = eval.contains_key("expected_output");
        let has_assertions = eval.contains_key("assertions");
        if !has_expected && !has_assertions {
            problem(format!(
                "`{at}` has neither `expected_output` nor `assertions`"
            ));
        }
        if has_expected && let Some(message) = required_text(eval, "expected_output", &at) {
            problem(message);
        }
        if has_assertions && let Some(message) = text_list(eval, "assertions", &at, true) {
            problem(message);
        }
        if let Some(message) = text_list(eval, "files", &at, false) {
            problem(message);
        }
    }
    problems
}

/// Every way `value` differs from a list of `{query, should_trigger}`.
pub fn trigger_problems(value: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut problem = |message: String| problems.push((message, None));
    let Some(queries) = value.as_array() else {
        problem(format!(
            "must be a list of {{query, should_trigger}} objects, found {}",
            type_name(value)
        ));
        return problems;
    };
    if queries.is_empty() {
        problem("lists no query".to_owned());
    }
    for (index, query) in queries.iter().enumerate() {
        let at = format!("[{index}]");
        let Some(query) = query.as_object() else {
            problem(format!(
                "`{at}` must be an object, found {}",
                type_name(query)
            ));
            continue;
        };
        if let Some(message) = required_text(query, "query", &at) {
            problem(message);
        }
        match query.get("should_trigger") {
            Some(Value::Bool(_)) => {}
            None => problem(format!("`{at}.should_trigger` is missing")),
            Some(other) => problem(format!(
                "`{at}.should_trigger` must be true or false, found {}",
                type_name(other)
            )),
        }
    }
    problems
}

/// The problem with a field that must be a non-empty string, if any.
fn required_text(object: &Map<String, Value>, field: &str, at: &str) -> Option<String> {
    match object.get(field) {
        None => Some(format!("`{at}.{field}` is missing")),
        Some(Value::String(text)) if text.trim().is_empty() => {
            Some(format!("`{at}.{field}` is empty"))
        }
        Some(Value::String(_)) => None,
        Some(other) => Some(format!(
            "`{at}.{field}` must be a string, found {}",
            type_name(other)
        )),
    }
}

/// The problem with an optional list of strings, if any; `non_empty`
/// when the list must hold at least one.
fn text_list(
    object: &Map<String, Value>,
    field: &str,
    at: &str,
    non_empty: bool,
) -> Option<String> {
    match object.get(field)? {
        Value::Array(items) => {
            if non_empty && items.is_empty() {
                return Some(format!("`{at}.{field}` is an empty list"));
            }
            items.iter().position(|item| !item.is_string()).map(|bad| {
                format!(
                    "`{at}.{field}[{bad}]` must be a string, found {}",
                    type_name(&items[bad])
                )
            })
        }
        other => Some(format!(
            "`{at}.{field}` must be a list of strings, found {}",
            type_name(other)
        )),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A quoted value, cut so a huge one cannot flood the output.
fn shorten(text: &str) -> String {
    const LIMIT: usize = 64;
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(problems: Vec<Problem>) -> Vec<String> {
        problems.into_iter().map(|(message, _)| message).collect()
    }

    #[test]
    fn a_well_formed_evals_file_is_silent() {
        let value = json!({
            "skill_name": "pdf",
            "evals": [
                {"id": 1, "prompt": "Fill the form", "expected_output": "A filled PDF", "files": ["a.pdf"]},
                {"id": "two", "prompt": "Merge", "assertions": ["one file comes out"]}
            ]
        });
        assert!(evals_problems(&value, Some("pdf")).is_empty());
    }

    #[test]
    fn every_evals_problem_is_named() {
        let value = json!({
            "skill_name": "other",
            "evals": [
                {"prompt": "", "expected_output": 3},
                {"id": 1, "prompt": "p"},
                {"id": 1, "prompt": "p", "assertions": [], "files": "a.pdf"},
                "not an object"
            ]
        });
        assert_eq!(
            messages(evals_problems(&value, Some("pdf"))),
            [
                "`skill_name` is 'other' but the skill is named 'pdf'",
                "`evals[0].id` is missing",
                "`evals[0].prompt` is empty",
                "`evals[0].expected_output` must be a string, found a number",
                "`evals[1]` has neither `expected_output` nor `assertions`",
                "`evals[2].id` 1 is also the id of an earlier eval",
                "`evals[2].assertions` is an empty list",
                "`evals[2].files` must be a list of strings, found a string",
                "`evals[3]` must be an object, found a string",
            ]
        );
        assert_eq!(
            messages(evals_problems(&json!([]), None)),
            ["must be a JSON object with `skill_name` and `evals`, found a list"]
        );
        assert_eq!(
            messages(evals_problems(&json!({"evals": []}), None)),
            ["`skill_name` is missing", "`evals` lists no eval"]
        );
    }

    #[test]
    fn trigger_queries() {
        let good = json!([
            {"query": "fill this pdf form", "should_trigger": true},
            {"query": "what's the weather", "should_trigger": false}
        ]);
        assert!(trigger_problems(&good).is_empty());
        let bad = json!([{"query": "x", "should_trigger": "yes"}, {"should_trigger": true}]);
        assert_eq!(
            messages(trigger_problems(&bad)),
            [
                "`[0].should_trigger` must be true or false, found a string",
                "`[1].query` is missing",
            ]
        );
        assert_eq!(
            messages(trigger_problems(&json!({"queries": []}))),
            ["must be a list of {query, should_trigger} objects, found an object"]
        );
    }

    #[test]
    fn trigger_files_are_named_so() {
        assert!(is_trigger_file("trigger-queries.json"));
        assert!(is_trigger_file("Trigger_Eval.JSON"));
        assert!(!is_trigger_file("evals.json"));
        assert!(!is_trigger_file("trigger-notes.md"));
        assert!(!is_trigger_file("cases.json"));
    }
}
