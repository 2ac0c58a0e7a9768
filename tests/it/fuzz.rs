//! The fuzz harness (issue #10): property tests over the four parsers an
//! agent or a hostile file feeds (the guard with each built-in
//! declaration, the JSON argument parser, the frontmatter parser and the
//! declaration parser), and resource checks that run the real binary at
//! one input size and at eight times it and compare what the kernel
//! accounted for the child (peak RSS and CPU time, from `wait4`).
//!
//! It runs on stable in CI with a fixed budget: `FUZZ_CASES` cases per
//! property (default 256; raise it locally, e.g. `FUZZ_CASES=20000 cargo
//! test --test it fuzz::`). A failure prints the shrunk input; proptest
//! also records it under `proptest-regressions/` to replay first.

use proptest::prelude::*;
use proptest::test_runner::Config;

use aigent::contract::{Origin, SourceFormat};
use aigent::guard::{self, RawArguments};
use aigent::registry::{CATALOG, parse_declaration};

fn config() -> Config {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// The declarations this repository ships: the built-in catalog and the
/// examples in `commands/`.
fn shipped() -> &'static [(String, String)] {
    static SHIPPED: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    SHIPPED.get_or_init(read_shipped)
}

fn read_shipped() -> Vec<(String, String)> {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "json" || ext == "yaml")
        })
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    files.extend(
        CATALOG
            .iter()
            .map(|(name, text, ..)| ((*name).to_owned(), (*text).to_owned())),
    );
    files
}

/// Every shipped declaration, parsed (once).
fn builtins() -> &'static [aigent::contract::Declaration] {
    static BUILTINS: std::sync::OnceLock<Vec<aigent::contract::Declaration>> =
        std::sync::OnceLock::new();
    BUILTINS.get_or_init(|| {
        shipped()
            .iter()
            .map(|(file, text)| {
                let format = if file.ends_with(".json") {
                    SourceFormat::Json
                } else {
                    SourceFormat::Yaml
                };
                parse_declaration(text, format, &Origin::default())
                    .declaration
                    .unwrap_or_else(|| panic!("{file} parses"))
            })
            .collect()
    })
}

/// Strings an agent might send: plain words, paths, traversal and escape
/// tricks, look-alikes, controls, long runs.
fn hostile_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9_.-]{0,24}",
        "[-./\\\\%a-z0-9]{0,32}",
        "(\\.\\./|%2e|%252e|\\\\x2e|&#46;|¥|₩|．|／|\u{3000}|\u{200b}|\u{e0001}|\u{202e}|<x>|\\$\\{X\\}|;|\\||`){0,12}",
        any::<String>(),
        ("[<{\\[(]{1,3}", 0usize..4000).prop_map(|(unit, count)| unit.repeat(count)),
    ]
}

fn json_scalar() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |number| number.is_finite())
            .prop_map(serde_json::Value::from),
        hostile_string().prop_map(serde_json::Value::from),
    ]
}

/// JSON values of any shape, with keys drawn from the declared names,
/// prototype keys and noise.
fn json_value(names: Vec<String>) -> impl Strategy<Value = serde_json::Value> {
    let mut keys: Vec<String> = names;
    keys.extend(
        ["__proto__", "constructor", "arguments", "", "a.b", "argv"]
            .iter()
            .map(|key| (*key).to_owned()),
    );
    let key = prop_oneof![
        proptest::sample::select(keys),
        "[a-z_-]{1,12}".prop_map(String::from)
    ];
    json_scalar().prop_recursive(4, 48, 8, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::from),
            proptest::collection::vec((key.clone(), inner), 0..8)
                .prop_map(|pairs| serde_json::Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// A call for `declaration`: `--json` text (sometimes mangled) or flags.
fn call(declaration: &aigent::contract::Declaration) -> BoxedStrategy<(bool, String, Vec<String>)> {
    let names: Vec<String> = declaration
        .input_names()
        .into_iter()
        .map(str::to_owned)
        .collect();
    let flag_names = names.clone();
    let json = json_value(names).prop_flat_map(|value| {
        let text = value.to_string();
        let len = text.len();
        // Cut or corrupt the text now and then: the parser sees broken JSON too.
        (Just(text), 0..=len, any::<bool>()).prop_map(|(text, cut, corrupt)| {
            if corrupt {
                let mut cut = cut.min(text.len());
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text[..cut].to_owned()
            } else {
                text
            }
        })
    });
    let flag = prop_oneof![
        proptest::sample::select(if flag_names.is_empty() {
            vec!["x".to_owned()]
        } else {
            flag_names
        })
        .prop_map(|name| format!("--{name}")),
        hostile_string(),
    ];
    prop_oneof![
        json.prop_map(|text| (true, text, Vec::new())),
        proptest::collection::vec(flag, 0..10).prop_map(|flags| (false, String::new(), flags)),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(config())]

    /// The guard, with generated arguments for each built-in declaration:
    /// never a panic, and what it accepts is declared and typed.
    #[test]
    fn guard_check_over_every_builtin(
        (index, (is_json, text, flags)) in (0..shipped().len()).prop_flat_map(|index| {
            let declaration = builtins()[index].clone();
            (Just(index), call(&declaration))
        })
    ) {
        let declaration = &builtins()[index];
        let raw = if is_json { RawArguments::Json(&text) } else { RawArguments::Flags(&flags) };
        match guard::check(declaration, &raw) {
            Ok(validated) => {
                let names = declaration.input_names();
                for argument in &validated.arguments {
                    prop_assert!(names.contains(&argument.name.as_str()), "{} is not declared", argument.name);
                }
            }
            Err(rejection) => {
                prop_assert!(!rejection.violations.is_empty());
                // At most 64 kept, and one entry counting the rest.
                prop_assert!(rejection.violations.len() <= 65);
            }
        }
    }

    /// The JSON argument parser on arbitrary text, not only JSON.
    #[test]
    fn json_arguments_parser_on_any_text(text in prop_oneof![any::<String>(), "[\\[\\]{}\",:0-9eE.+-]{0,200}"]) {
        for declaration in builtins() {
            let _ = guard::check(declaration, &RawArguments::Json(&text));
        }
    }

    /// The frontmatter parser (and the skill checks after it) on documents
    /// of any shape: YAML features, broken delimiters, anchors, deep nesting.
    #[test]
    fn frontmatter_parser_never_panics(
        yaml in prop_oneof![
            any::<String>(),
            "([a-z]{1,8}: (\\[|\\{|&a |\\*a|!!str |'|\"|\\||>|-)?[a-z <>]{0,12}\n){0,12}",
            (0usize..2000).prop_map(|depth| format!("name: {}", "[".repeat(depth))),
        ],
        body in prop_oneof![Just(String::new()), any::<String>(), "(\\[[a-z]{0,3}\\]\\([a-z./]{0,8}\\) ){0,20}"],
        closed in any::<bool>(),
    ) {
        let text = if closed { format!("---\n{yaml}\n---\n{body}") } else { format!("---\n{yaml}") };
        let checked = aigent::skill::check::check_text(&text, Default::default());
        // Every finding carries a code; the file has at most one name.
        prop_assert!(checked.diagnostics.iter().all(|diagnostic| !diagnostic.code.is_empty()));
    }

    /// The declaration parser on arbitrary JSON and YAML, and on built-in
    /// declarations with one field replaced by a hostile value.
    #[test]
    fn declaration_parser_never_panics(
        text in any::<String>(),
        index in 0..shipped().len(),
        cut in any::<prop::sample::Index>(),
        insert in hostile_string(),
    ) {
        for format in [SourceFormat::Json, SourceFormat::Yaml] {
            let _ = parse_declaration(&text, format, &Origin::default());
        }
        let (file, original) = &shipped()[index];
        let format = if file.ends_with(".json") { SourceFormat::Json } else { SourceFormat::Yaml };
        let mut at = cut.index(original.len() + 1);
        while !original.is_char_boundary(at) {
            at -= 1;
        }
        let mutated = format!("{}{}{}", &original[..at], insert, &original[at..]);
        let parsed = parse_declaration(&mutated, format, &Origin::default());
        if let Some(declaration) = parsed.declaration {
            // A declaration that parses is usable by the guard.
            let _ = guard::check(&declaration, &RawArguments::Json("{}"));
        }
    }
}

/// Resource checks: the real binary at size n and 8n. Linear work grows
/// about 8x; the quadratic bugs of the review grew 64x and more. The
/// bounds are generous (peak RSS growth at most 16x the growth at n, with
/// a floor of 8 MiB; CPU time at most 24x, with a floor of 40 ms), so only
/// a super-linear blow-up fails. Nothing here is a wall-clock threshold.
#[cfg(target_os = "linux")]
mod resources {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;

    use crate::common::Sandbox;

    /// What the kernel accounted for one child.
    #[derive(Debug, Clone, Copy)]
    struct Usage {
        /// The child's peak RSS above this test process's own peak: Linux
        /// carries the parent's high-water mark into a spawned child's
        /// `ru_maxrss`, so only what rises above it is the child's for sure.
        /// Tens of MiB are hidden under it; the blow-ups of the review
        /// (gigabytes) are not.
        peak_rss_above_kib: i64,
        cpu_ms: i64,
    }

    /// This process's peak RSS so far (`VmHWM`), in KiB.
    fn own_peak_kib() -> i64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// Runs `aigent ARGS` in `sandbox` and returns its own rusage (not
    /// that of other children of this test process).
    fn measure(sandbox: &Sandbox, args: &[&str]) -> Usage {
        let child = sandbox
            .std_cmd()
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn aigent");
        let pid = libc::pid_t::try_from(child.id()).expect("pid fits");
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value of this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our own unreaped child; `status` and `usage` are
        // valid, exclusive pointers for the duration of the call. std's
        // `Child` is dropped without waiting, so it never reaps it twice.
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
        let status = std::process::ExitStatus::from_raw(status);
        assert_ne!(status.code(), Some(101), "aigent panicked on {args:?}");
        assert!(status.signal().is_none(), "aigent was killed: {status:?}");
        drop(child);
        let ms = |time: libc::timeval| time.tv_sec * 1000 + time.tv_usec / 1000;
        // Read after the child ended: the high-water mark only rises, so
        // this is at least what the child inherited.
        let floor = own_peak_kib();
        Usage {
            peak_rss_above_kib: (usage.ru_maxrss - floor).max(0),
            cpu_ms: ms(usage.ru_utime) + ms(usage.ru_stime),
        }
    }

    /// Asserts that going from `small` to `large` (8x the input) grew peak
    /// memory and CPU at most about linearly over `baseline` (a tiny input).
    fn assert_linear(what: &str, baseline: Usage, small: Usage, large: Usage) {
        eprintln!("{what}: baseline {baseline:?}, n {small:?}, 8n {large:?}");
        let growth = |usage: Usage| (usage.peak_rss_above_kib - baseline.peak_rss_above_kib).max(0);
        let allowed_rss = 16 * growth(small).max(8 * 1024);
        assert!(
            growth(large) <= allowed_rss,
            "{what}: peak RSS grew {} KiB at 8n, {} KiB at n",
            growth(large),
            growth(small)
        );
        let allowed_cpu = 24 * small.cpu_ms.max(40);
        assert!(
            large.cpu_ms <= allowed_cpu,
            "{what}: CPU {} ms at 8n, {} ms at n",
            large.cpu_ms,
            small.cpu_ms
        );
    }

    /// `--json` arguments: many numbers under unknown and known keys (the
    /// number-text bookkeeping of the review), and `<` runs (the
    /// placeholder scan). One argv word stays under Linux's 128 KiB limit.
    #[test]
    fn json_arguments_stay_linear() {
        let sandbox = Sandbox::new();
        let numbers = |count: usize| {
            let items: Vec<String> = (0..count).map(|index| format!("{index}.5e1")).collect();
            format!(r#"{{"argv": ["ls"], "x": [{}]}}"#, items.join(","))
        };
        let angles = |count: usize| {
            let values: Vec<String> = (0..15)
                .map(|_| format!(r#""{}""#, "<".repeat(count / 15)))
                .collect();
            format!(r#"{{"argv": ["ls", {}]}}"#, values.join(","))
        };
        for (what, make) in [
            ("numbers", &numbers as &dyn Fn(usize) -> String),
            ("angle brackets", &angles),
        ] {
            let run = |size: usize| {
                let json = make(size);
                measure(
                    &sandbox,
                    &[
                        "--output",
                        "json",
                        "args",
                        "check",
                        "shell_exec",
                        "--json",
                        &json,
                    ],
                )
            };
            let baseline = run(1);
            let small = run(1_500);
            let large = run(12_000);
            assert_linear(what, baseline, small, large);
        }
    }

    /// `skill validate` on bodies of broken links (5.3 GB in the review)
    /// and on long frontmatter.
    #[test]
    fn skill_files_stay_linear() {
        let sandbox = Sandbox::new();
        let write_skill = |name: &str, links: usize| {
            let body: String = (0..links)
                .map(|index| format!("[l](gone-{index}.md)\n"))
                .collect();
            sandbox.write(
                format!("{name}/SKILL.md"),
                format!(
                    "---\nname: {name}\ndescription: Broken links. Use when testing.\n---\n{body}"
                ),
            );
        };
        write_skill("tiny", 1);
        write_skill("small", 5_000);
        write_skill("large", 40_000);
        let run = |name: &str| measure(&sandbox, &["--output", "json", "skill", "validate", name]);
        assert_linear("missing links", run("tiny"), run("small"), run("large"));
    }

    /// Token counting on bodies that are one long piece, which byte-pair
    /// merging cannot take word by word: a run of `=`, letters that are no
    /// token, a whitespace run. tiktoken's own merge loop is quadratic here.
    #[test]
    fn token_counting_stays_linear() {
        let sandbox = Sandbox::new();
        for (what, unit) in [("a run of =", "="), ("letters", "qz"), ("spaces", " ")] {
            let write_skill = |name: &str, bytes: usize| {
                let body = unit.repeat(bytes / unit.len());
                sandbox.write(
                    format!("{name}/SKILL.md"),
                    format!("---\nname: {name}\ndescription: One long piece. Use when testing.\n---\n{body}x\n"),
                );
            };
            write_skill("tiny", 8);
            write_skill("small", 100_000);
            write_skill("large", 800_000);
            let run =
                |name: &str| measure(&sandbox, &["--output", "json", "skill", "validate", name]);
            assert_linear(what, run("tiny"), run("small"), run("large"));
        }
    }

    /// `schema lint` on long declarations (hardcoded words, descriptions).
    #[test]
    fn declarations_stay_linear() {
        let sandbox = Sandbox::new();
        let write = |name: &str, words: usize| {
            let args: Vec<String> = (0..words).map(|index| format!(r#""w{index}""#)).collect();
            sandbox.write(
                format!("{name}/big.json"),
                format!(
                    r#"{{"name": "big", "description": "{}", "parameters": {{"a": {{"type": "string"}}}}, "subprocess": {{"binary": "env", "argv": [{}, {{"param": "a"}}]}}}}"#,
                    "d".repeat(words),
                    args.join(",")
                ),
            );
        };
        write("tiny", 1);
        write("small", 4_000);
        write("large", 32_000);
        let run = |name: &str| {
            measure(
                &sandbox,
                &["--output", "json", "--commands", name, "schema", "lint"],
            )
        };
        assert_linear("declaration words", run("tiny"), run("small"), run("large"));
    }
}
