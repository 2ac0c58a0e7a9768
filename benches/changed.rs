//! How long `--changed` takes to find its skills in a large repository.
//!
//! `cargo bench --bench changed` generates (once, then reuses) the
//! repository of `scripts/gen-big-repo.sh`: 50,000 files, 2,000 skills, 3 of
//! them changed (committed, staged, unstaged). It measures
//! - `validate_changed`: what `aigent skill validate --changed` runs, from
//!   opening the repository to the validated skills;
//! - `changed_skills`: the same steps up to the selected skills;
//! - `changed_skills_committed_and_staged` (`CompareTo::Index`) and
//!   `changed_skills_committed` (`CompareTo::Head`): the same, leaving out
//!   the work tree (no stat of every file), and the index too;
//! - `changed_files` and `select_changed_skills`: the two halves of
//!   `changed_skills`;
//! - `changed_files_under_one_group`: collection limited to one directory
//!   of 100 skills (`ChangeOptions::paths`);
//! - `find_all_skills`: a plain walk of the work tree that finds every skill
//!   directory, the least any `--recursive` run must do, for scale.
//!
//! Under `cargo test` (no `--bench` argument) it runs each once on a small
//! repository instead, so the test suite stays fast but the bench still
//! has to work.

use std::fs;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use aigent::skill::ValidateOptions;
use aigent::skill::changed::{
    ChangedScope, changed_skills, select_changed_skills, validate_changed,
};
use aigent::vcs::{ChangeOptions, CompareTo, Repo};
use criterion::{Criterion, criterion_group, criterion_main};

struct Size {
    files: usize,
    skills: usize,
}

fn size() -> Size {
    if std::env::args().any(|arg| arg == "--bench") {
        Size {
            files: 50_000,
            skills: 2_000,
        }
    } else {
        Size {
            files: 600,
            skills: 30,
        }
    }
}

/// Runs the generator (which reuses an existing repository of the same
/// size) and returns the repository's path.
fn big_repo(size: &Size) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("big-repo-{}-{}", size.files, size.skills));
    let output = Command::new("bash")
        .arg(manifest.join("scripts/gen-big-repo.sh"))
        .arg(&dir)
        .env("AIGENT_BIG_REPO_FILES", size.files.to_string())
        .env("AIGENT_BIG_REPO_SKILLS", size.skills.to_string())
        .output()
        .expect("run scripts/gen-big-repo.sh (needs bash and git)");
    assert!(
        output.status.success(),
        "gen-big-repo.sh failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    PathBuf::from(
        String::from_utf8(output.stdout)
            .expect("utf-8 path")
            .trim_end(),
    )
}

fn find_all_skills(dir: &Path, found: &mut Vec<PathBuf>) {
    if dir.join("SKILL.md").is_file() {
        found.push(dir.to_owned());
    }
    for entry in fs::read_dir(dir).expect("read_dir").flatten() {
        if entry.file_name() != ".git" && entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            find_all_skills(&entry.path(), found);
        }
    }
}

fn bench_changed(c: &mut Criterion) {
    let size = size();
    let repo_path = big_repo(&size);

    // The numbers mean nothing unless the answer is right.
    let everything = ChangeOptions::default();
    let committed_and_staged = ChangeOptions {
        compare_to: CompareTo::Index,
        ..ChangeOptions::default()
    };
    let committed = ChangeOptions {
        compare_to: CompareTo::Head,
        ..ChangeOptions::default()
    };
    let changed = changed_skills(&repo_path, None, &everything).expect("changed_skills");
    let selected: Vec<_> = changed.present().map(|unit| unit.path.clone()).collect();
    assert_eq!(selected.len(), 3, "expected 3 changed skills: {selected:?}");
    let changed = changed_skills(&repo_path, None, &committed_and_staged).unwrap();
    assert_eq!(
        changed.units.len(),
        2,
        "committed and staged: {:?}",
        changed.units
    );
    let mut all = Vec::new();
    find_all_skills(&repo_path, &mut all);
    assert_eq!(all.len(), size.skills);

    let scope = ChangedScope::default();
    let run = validate_changed(
        std::slice::from_ref(&repo_path),
        &scope,
        ValidateOptions::default(),
    )
    .expect("validate_changed");
    assert_eq!(run.skills.len(), 3, "validate_changed: {:?}", run.skills);

    let mut group = c.benchmark_group(format!("{}-files-{}-skills", size.files, size.skills));
    group.sample_size(20);
    group.bench_function("validate_changed", |b| {
        b.iter(|| {
            validate_changed(
                black_box(std::slice::from_ref(&repo_path)),
                &scope,
                ValidateOptions::default(),
            )
            .unwrap()
        })
    });
    group.bench_function("changed_skills", |b| {
        b.iter(|| changed_skills(black_box(&repo_path), None, &everything).unwrap())
    });
    group.bench_function("changed_skills_committed", |b| {
        b.iter(|| changed_skills(black_box(&repo_path), None, &committed).unwrap())
    });
    group.bench_function("changed_skills_committed_and_staged", |b| {
        b.iter(|| changed_skills(black_box(&repo_path), None, &committed_and_staged).unwrap())
    });

    let repo = Repo::discover(&repo_path).unwrap();
    let base = repo.resolve_base(None).unwrap();
    group.bench_function("changed_files", |b| {
        b.iter(|| repo.changed_files(black_box(&base), &everything).unwrap())
    });
    let one_group = ChangeOptions {
        paths: vec![PathBuf::from("skills/group-00")],
        ..ChangeOptions::default()
    };
    group.bench_function("changed_files_under_one_group", |b| {
        b.iter(|| repo.changed_files(black_box(&base), &one_group).unwrap())
    });
    let changes = repo.changed_files(&base, &everything).unwrap();
    let snapshot = repo.snapshot(CompareTo::WorkTree).unwrap();
    group.bench_function("select_changed_skills", |b| {
        b.iter(|| select_changed_skills(&repo, &base, black_box(&changes), &snapshot).unwrap())
    });
    group.bench_function("find_all_skills", |b| {
        b.iter(|| {
            let mut found = Vec::with_capacity(size.skills);
            find_all_skills(black_box(&repo_path), &mut found);
            found
        })
    });
    group.finish();
}

criterion_group!(benches, bench_changed);
criterion_main!(benches);
