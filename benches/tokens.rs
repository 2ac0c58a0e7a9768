//! Token counting throughput, in bytes per second: Markdown prose of the
//! shape skill bodies have, the repository's own documents, and text
//! outside ASCII (which takes the regular-expression path).
//!
//!     cargo bench --bench tokens

use std::hint::black_box;

use aigent::tokenizer::count_tokens;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn documents() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    for name in [
        "README.md",
        "docs/contracts.md",
        "docs/mcp.md",
        "docs/security.md",
    ] {
        text.push_str(&std::fs::read_to_string(root.join(name)).unwrap_or_default());
    }
    text
}

fn counting(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_tokens");
    let docs = documents();
    let accented: String = docs.replace("the", "thé").replace(" - ", " — ");
    for (name, text) in [("docs (ASCII)", &docs), ("docs with accents", &accented)] {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(name, |b| b.iter(|| count_tokens(black_box(text))));
    }
    group.finish();
}

criterion_group!(benches, counting);
criterion_main!(benches);
