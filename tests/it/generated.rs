//! The committed man pages and completion scripts must be exactly what the
//! clap definition generates today.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::Sandbox;

fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
        .map(|entry| {
            let entry = entry.expect("directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            (
                name,
                std::fs::read(entry.path()).expect("read generated file"),
            )
        })
        .collect()
}

fn assert_no_drift(artifact: &str, committed_dir: &str) {
    let sandbox = Sandbox::new();
    let out = sandbox.join(artifact);
    let run = sandbox.run(&["generate", artifact, "--out-dir", out.to_str().unwrap()]);
    run.assert_code(0);
    let fresh = read_dir(&out);
    let committed = read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(committed_dir));
    let refresh =
        format!("refresh with: cargo run -- generate {artifact} --out-dir {committed_dir}");
    let fresh_names: Vec<&String> = fresh.keys().collect();
    let committed_names: Vec<&String> = committed.keys().collect();
    assert_eq!(
        fresh_names, committed_names,
        "{committed_dir}/ holds other files than generated; {refresh}"
    );
    for (name, bytes) in &fresh {
        assert!(
            committed[name] == *bytes,
            "{committed_dir}/{name} differs from what the clap definition generates; {refresh}"
        );
    }
}

#[test]
fn committed_man_pages_match_the_clap_definition() {
    assert_no_drift("man", "man");
}

#[test]
fn committed_completion_scripts_match_the_clap_definition() {
    assert_no_drift("completions", "completions");
}

#[test]
fn every_visible_subcommand_has_a_man_page() {
    let pages = read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("man"));
    for page in [
        "aigent.1",
        "aigent-skill-validate.1",
        "aigent-schema-show.1",
        "aigent-args-check.1",
        "aigent-completions.1",
    ] {
        assert!(pages.contains_key(page), "man/{page} is missing");
    }
    assert!(
        !pages.keys().any(|page| page.contains("generate")),
        "hidden commands get no page"
    );
}

/// Every `aigent-…(1)` a page refers to is a page that exists.
#[test]
fn man_pages_refer_only_to_pages_that_exist() {
    let pages = read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("man"));
    for (name, bytes) in &pages {
        let text = String::from_utf8_lossy(bytes).replace("\\-", "-");
        for (start, _) in text.match_indices("aigent-") {
            let rest = &text[start..];
            let Some(end) = rest.find("(1)") else {
                continue;
            };
            let reference = &rest[..end];
            if reference.contains(char::is_whitespace) {
                continue;
            }
            assert!(
                pages.contains_key(&format!("{reference}.1")),
                "man/{name} refers to {reference}(1), which has no page"
            );
        }
    }
}

/// The reference pages whose tables live in code (codes, exit codes, each
/// command's danger level) are exactly what the code generates today.
#[test]
fn committed_reference_tables_match_the_code() {
    let sandbox = Sandbox::new();
    let out = sandbox.join("reference");
    let run = sandbox.run(&["generate", "reference", "--out-dir", out.to_str().unwrap()]);
    run.assert_code(0);
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference");
    let fresh = read_dir(&out);
    assert!(fresh.contains_key("exit-codes.md"), "{:?}", fresh.keys());
    for (name, bytes) in &fresh {
        let on_disk = std::fs::read(committed.join(name)).unwrap_or_default();
        assert!(
            on_disk == *bytes,
            "docs/reference/{name} differs from what the code generates; \
             refresh with: cargo run -- generate reference --out-dir docs/reference"
        );
    }
}

/// docs/reference/error-codes.md has one row per `ErrorCode`, in order, with
/// its exit code, when it can be retryable and what it asks to fix.
#[test]
fn error_code_table_lists_every_code() {
    use aigent::report::ErrorCode;
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference/error-codes.md"),
    )
    .expect("docs/reference/error-codes.md");
    let rows: Vec<&str> = page
        .lines()
        .filter(|line| line.starts_with("| `"))
        .collect();
    assert_eq!(rows.len(), ErrorCode::ALL.len(), "{page}");
    for (row, code) in rows.iter().zip(ErrorCode::ALL) {
        let cells: Vec<&str> = row.split(" | ").collect();
        assert_eq!(cells[0], format!("| `{code}`"), "{row}");
        if !code.passes_child_status() {
            assert_eq!(cells[1], code.exit_code().to_string(), "{row}");
        }
        assert_eq!(cells[2], code.retryable_rule(), "{row}");
        assert_eq!(
            cells[3],
            code.fix_required()
                .map_or_else(|| "—".to_owned(), |fix| fix.replace('|', "\\|")),
            "{row}"
        );
    }
}
