//! Guard throughput, in values per second (criterion reports it as
//! elements/s): the named rules on single values of each kind, and the
//! whole of Phase 1 on a declaration.
//!
//!     cargo bench --bench guard

use std::hint::black_box;

use aigent::contract::PatternType;
use aigent::contract::{Origin, SourceFormat};
use aigent::guard::{self, RawArguments, ValueClass, ValueProfile};
use aigent::registry::parse_declaration;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BENIGN: &[&str] = &[
    "prod-east-1",
    "f_9a8b7c6d5e",
    "123e4567-e89b-12d3-a456-426614174000",
    "1.2.3-rc.1+build.5",
    "/home/user/projects/aigent/src/guard/rules.rs",
    "https://api.example.com/v1/items?id=5&page=2#top",
];

const HOSTILE: &[&str] = &[
    "../../etc/passwd",
    "%252e%252e%252fetc",
    "%c0%ae%c0%ae/x",
    "．．／etc",
    "file\u{200B}id",
    "id?x=1#frag",
    "{{file_id}}",
];

fn profile(class: ValueClass) -> ValueProfile<'static> {
    ValueProfile {
        class,
        pattern: None,
        regex_dialect: None,
        user_controlled: true,
        allow_leading_dash: false,
        relative_only: false,
    }
}

fn bench_values(c: &mut Criterion) {
    let classes = [
        ValueClass::ResourceId,
        ValueClass::Typed(PatternType::AlphanumericId),
        ValueClass::Typed(PatternType::Filepath),
        ValueClass::Typed(PatternType::Url),
    ];
    let mut group = c.benchmark_group("check_string");
    for (label, values) in [("benign", BENIGN), ("hostile", HOSTILE)] {
        group.throughput(Throughput::Elements((values.len() * classes.len()) as u64));
        group.bench_function(label, |b| {
            b.iter(|| {
                for class in classes {
                    let profile = profile(class);
                    for value in values {
                        black_box(guard::check_string("value", black_box(value), &profile));
                    }
                }
            });
        });
    }
    group.finish();
}

fn bench_phase1(c: &mut Criterion) {
    let text = include_str!("../commands/deploy.json");
    let origin = Origin {
        file_stem: Some("deploy"),
        file: None,
    };
    let declaration = parse_declaration(text, SourceFormat::Json, &origin)
        .declaration
        .unwrap();
    let tokens: Vec<String> = [
        "--cluster-id",
        "prod-east-1",
        "--version",
        "1.2.3",
        "--ticket-ref",
        "OPS-1234",
    ]
    .iter()
    .map(|word| (*word).to_owned())
    .collect();
    let mut group = c.benchmark_group("phase1");
    group.throughput(Throughput::Elements(3));
    group.bench_function("deploy_flags", |b| {
        b.iter(|| {
            black_box(guard::check(
                &declaration,
                &RawArguments::Flags(black_box(&tokens)),
            ))
        });
    });
    let json = r#"{"cluster-id": "prod-east-1", "version": "1.2.3", "ticket-ref": "OPS-1234"}"#;
    group.bench_function("deploy_json", |b| {
        b.iter(|| {
            black_box(guard::check(
                &declaration,
                &RawArguments::Json(black_box(json)),
            ))
        });
    });
    group.finish();
    c.bench_function("parse_declaration/deploy", |b| {
        b.iter(|| {
            black_box(parse_declaration(
                black_box(text),
                SourceFormat::Json,
                &origin,
            ))
        });
    });
    // A declaration near the 1 MiB limit whose cost is its enum list (the
    // duplicate check was quadratic in it).
    let values: Vec<String> = (0..100_000).map(|index| index.to_string()).collect();
    let big_enum = serde_json::json!({
        "name": "pick", "description": "Pick one",
        "parameters": {"choice": {"type": "enum", "enum_values": values}}
    })
    .to_string();
    let mut group = c.benchmark_group("parse_declaration");
    group.sample_size(10);
    group.bench_function("enum_100k", |b| {
        b.iter(|| {
            black_box(parse_declaration(
                black_box(&big_enum),
                SourceFormat::Json,
                &Origin::default(),
            ))
        });
    });
    group.finish();
}

criterion_group!(benches, bench_values, bench_phase1);
criterion_main!(benches);
