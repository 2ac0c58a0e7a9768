//! The token counter against an independent o200k_base implementation:
//! tests/fixtures/tokens/sample.jsonl holds generated texts (ASCII and
//! other scripts, emoji sequences, numbers, code punctuation, runs of
//! spaces, tabs, CR LF) with the counts the `tiktoken` npm package gives
//! them. `scripts/compare-tokens.sh --sample` rewrites it;
//! `scripts/compare-tokens.sh CORPUS` compares a whole corpus of skills.

use std::path::Path;

use serde_json::Value;

#[test]
fn counts_equal_tiktoken_on_the_sample() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tokens/sample.jsonl");
    let sample = std::fs::read_to_string(path).expect("the sample");
    let mut compared = 0;
    let mut wrong = Vec::new();
    for line in sample.lines() {
        let entry: Value = serde_json::from_str(line).expect("a JSON line");
        let text = entry["text"].as_str().expect("text");
        let expected = entry["tokens"].as_u64().expect("tokens") as usize;
        let counted = aigent::tokenizer::count_tokens(text);
        if counted != expected {
            wrong.push(format!("{text:?}: aigent {counted}, tiktoken {expected}"));
        }
        compared += 1;
    }
    assert_eq!(compared, 400);
    assert!(
        wrong.is_empty(),
        "{} of {compared} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
