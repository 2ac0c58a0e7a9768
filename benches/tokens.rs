//! Token counting throughput, in bytes per second: Markdown prose of the
//! shape skill bodies have, the repository's own documents, and text
//! outside ASCII (which takes the regular-expression path).
//!
//!     cargo bench --bench tokens
//!     AIGENT_TOKENS_CORPUS=DIR cargo bench --bench tokens   # real skill bodies too
//!
//! With `AIGENT_TOKENS_CORPUS`, every `SKILL.md` below DIR (see
//! scripts/real-skills.sh) is counted as well, file by file.

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
    if let Some(corpus) = std::env::var_os("AIGENT_TOKENS_CORPUS") {
        let mut files = Vec::new();
        collect(std::path::Path::new(&corpus), &mut files);
        let bytes: usize = files.iter().map(String::len).sum();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.sample_size(10);
        group.bench_function(format!("{} SKILL.md files", files.len()), |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|text| count_tokens(black_box(text)))
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

fn collect(dir: &std::path::Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            collect(&path, out);
        } else if entry.file_name() == "SKILL.md"
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            out.push(text);
        }
    }
}

criterion_group!(benches, counting);
criterion_main!(benches);
