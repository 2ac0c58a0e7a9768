//! `aigent skill validate --changed` through the binary, over real git
//! repositories built with libgit2 in temp dirs (no `git` program, no user
//! git config).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::common::git::{Fixture, skill_md};
use crate::common::{Run, Sandbox};
use serde_json::Value;

/// `main`: six skills, `broken` already invalid. `feature`: a committed
/// change inside alpha, a staged change inside beta, an unstaged edit of
/// gamma's SKILL.md, an untracked new skill and a deleted skill; epsilon
/// and broken untouched; an ignored file and a README that no skill owns.
fn feature_branch() -> Fixture {
    let fx = Fixture::new();
    fx.write(".gitignore", "*.log\n");
    fx.write("README.md", "# skills\n");
    fx.write("skills/alpha/SKILL.md", &skill_md("alpha"));
    fx.write("skills/alpha/scripts/run.sh", "echo alpha\n");
    fx.write("skills/beta/SKILL.md", &skill_md("beta"));
    fx.write("skills/beta/references/guide.md", "beta guide\n");
    fx.write("skills/gamma/SKILL.md", &skill_md("gamma"));
    fx.write(
        "skills/broken/SKILL.md",
        "---\nname: Broken_Name\ndescription: Already broken on main.\n---\n",
    );
    fx.write("skills/doomed/SKILL.md", &skill_md("doomed"));
    fx.write("skills/epsilon/SKILL.md", &skill_md("epsilon"));
    fx.commit_all("base");

    fx.switch_new_branch("feature");
    fx.write("skills/alpha/scripts/run.sh", "echo alpha, improved\n");
    fx.remove_dir("skills/doomed");
    fx.commit_all("improve alpha, drop doomed");
    fx.write("skills/beta/references/guide.md", "beta guide, staged\n");
    fx.stage("skills/beta/references/guide.md");
    fx.write(
        "skills/gamma/SKILL.md",
        &format!("{}\nAn unstaged edit.\n", skill_md("gamma")),
    );
    fx.write("README.md", "# skills, edited\n");
    fx.write("skills/fresh/SKILL.md", &skill_md("fresh"));
    fx.write("skills/epsilon/debug.log", "ignored\n");
    fx
}

/// Skill directory (from `selected.path`) to the statuses that selected it.
fn selected(envelope: &Value) -> BTreeMap<String, Vec<String>> {
    envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| {
            let unit = &skill["selected"];
            let statuses = unit["reasons"]
                .as_array()
                .unwrap()
                .iter()
                .map(|reason| {
                    format!(
                        "{} {}",
                        reason["status"].as_str().unwrap(),
                        reason["path"].as_str().unwrap()
                    )
                })
                .collect();
            (unit["path"].as_str().unwrap().to_owned(), statuses)
        })
        .collect()
}

fn skill_dirs(envelope: &Value) -> Vec<String> {
    selected(envelope).into_keys().collect()
}

#[test]
fn exactly_the_touched_skills_are_validated_with_their_reasons() {
    let fx = feature_branch();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);

    let expected: BTreeMap<String, Vec<String>> = [
        ("skills/alpha", vec!["modified skills/alpha/scripts/run.sh"]),
        (
            "skills/beta",
            vec!["modified skills/beta/references/guide.md"],
        ),
        ("skills/fresh", vec!["untracked skills/fresh/SKILL.md"]),
        ("skills/gamma", vec!["modified skills/gamma/SKILL.md"]),
    ]
    .into_iter()
    .map(|(dir, reasons)| {
        (
            dir.to_owned(),
            reasons.into_iter().map(str::to_owned).collect(),
        )
    })
    .collect();
    assert_eq!(selected(&envelope), expected, "{run}");

    let data = &envelope["data"];
    let paths: Vec<&str> = data["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "skills/alpha/SKILL.md",
            "skills/beta/SKILL.md",
            "skills/fresh/SKILL.md",
            "skills/gamma/SKILL.md"
        ]
    );
    assert!(
        data["skills"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["valid"] == true)
    );
    assert_eq!(data["summary"]["checked"], 4);

    let deleted = data["changed"]["deleted"].as_array().unwrap();
    assert_eq!(deleted.len(), 1, "{run}");
    assert_eq!(deleted[0]["path"], "skills/doomed");
    assert_eq!(deleted[0]["state"], "deleted");
    assert_eq!(deleted[0]["reasons"][0]["status"], "deleted");

    // The broken skill on main was not touched, so it is not checked; a
    // full run would fail on it.
    fx.json(&["skill", "validate", "--recursive", "."])
        .0
        .assert_code(1);
}

#[test]
fn the_json_reports_the_base_and_why_it_was_chosen() {
    let fx = feature_branch();
    let main = fx.repo.revparse_single("main").unwrap().id().to_string();
    let head = fx.repo.head().unwrap().target().unwrap().to_string();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    let changed = &envelope["data"]["changed"];
    let base = &changed["base"];
    assert_eq!(base["source"], "main", "{run}");
    assert_eq!(base["revision"], "main");
    assert_eq!(base["commit"], main.as_str());
    assert_eq!(base["merge_base"], main.as_str());
    assert_eq!(base["head"], head.as_str());
    assert_eq!(base["head_branch"], "feature");
    assert!(
        base["description"]
            .as_str()
            .unwrap()
            .starts_with("main (fallback: no upstream or origin/HEAD), merge base "),
        "{run}"
    );
    assert_eq!(changed["compare_to"], "work-tree");
    assert_eq!(changed["scope"], Value::Array(vec![]));
    assert_eq!(
        changed["workdir"],
        fs::canonicalize(fx.root()).unwrap().to_str().unwrap()
    );
    // alpha, beta, gamma, fresh, doomed (one file) and the README.
    assert_eq!(changed["changed_files"], 6, "{run}");
}

#[test]
fn a_touched_skill_that_breaks_fails_the_run_alone() {
    let fx = feature_branch();
    fx.write(
        "skills/gamma/SKILL.md",
        "---\nname: gamma\ndescription: Now has <b>a tag</b>.\n---\n",
    );
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(1);
    let invalid: Vec<&str> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|skill| skill["valid"] == false)
        .map(|skill| skill["path"].as_str().unwrap())
        .collect();
    assert_eq!(invalid, ["skills/gamma/SKILL.md"], "{run}");
    assert_eq!(envelope["error"]["code"], "VALIDATION_FAILED");
}

#[test]
fn text_output_names_the_base_the_reasons_and_the_deleted() {
    let fx = feature_branch();
    let run = fx.text(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0]
            .starts_with("changed since main (fallback: no upstream or origin/HEAD), merge base "),
        "{run}"
    );
    assert!(lines[0].ends_with("; compared with the work tree"), "{run}");
    assert_eq!(lines[1], "deleted: skills/doomed (not validated)");
    assert_eq!(
        lines[2],
        "ok: skills/alpha/SKILL.md (modified scripts/run.sh)"
    );
    assert_eq!(lines[4], "ok: skills/fresh/SKILL.md (untracked SKILL.md)");
}

#[test]
fn compare_to_narrows_what_counts() {
    let fx = feature_branch();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(0);
    assert_eq!(
        skill_dirs(&envelope),
        ["skills/alpha", "skills/beta"],
        "{run}"
    );
    assert_eq!(envelope["data"]["changed"]["compare_to"], "index");

    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "head"]);
    run.assert_code(0);
    assert_eq!(skill_dirs(&envelope), ["skills/alpha"], "{run}");
    // The deletion was committed, so every mode reports it.
    assert_eq!(
        envelope["data"]["changed"]["deleted"][0]["path"],
        "skills/doomed"
    );
}

#[test]
fn paths_limit_the_selection_and_recursive_changes_nothing() {
    let fx = feature_branch();
    let (run, envelope) = fx.json(&[
        "skill",
        "validate",
        "--changed",
        "skills/alpha",
        "skills/fresh",
    ]);
    run.assert_code(0);
    assert_eq!(
        skill_dirs(&envelope),
        ["skills/alpha", "skills/fresh"],
        "{run}"
    );
    assert_eq!(
        envelope["data"]["changed"]["scope"],
        serde_json::json!(["skills/alpha", "skills/fresh"])
    );
    assert_eq!(envelope["data"]["changed"]["deleted"], Value::Array(vec![]));

    let (run, recursive) = fx.json(&[
        "skill",
        "validate",
        "--changed",
        "--recursive",
        "skills/alpha",
        "skills/fresh",
    ]);
    run.assert_code(0);
    assert_eq!(recursive["data"]["skills"], envelope["data"]["skills"]);
}

#[test]
fn from_a_subdirectory_paths_are_shown_relative_to_it() {
    let fx = feature_branch();
    let (run, envelope) = fx.json_in("skills", &["skill", "validate", "--changed"]);
    run.assert_code(0);
    let paths: Vec<&str> = envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "alpha/SKILL.md",
            "beta/SKILL.md",
            "fresh/SKILL.md",
            "gamma/SKILL.md"
        ],
        "{run}"
    );
    // `.` is the subdirectory, so the README change is out of scope.
    assert_eq!(
        envelope["data"]["changed"]["scope"],
        serde_json::json!(["skills"])
    );
    assert_eq!(envelope["data"]["changed"]["changed_files"], 5, "{run}");
}

#[test]
fn detached_head_falls_back_to_main() {
    let fx = feature_branch();
    let head = fx.repo.head().unwrap().target().unwrap();
    fx.repo.set_head_detached(head).unwrap();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    let base = &envelope["data"]["changed"]["base"];
    assert_eq!(base["source"], "main", "{run}");
    assert_eq!(base["head_branch"], Value::Null);
    assert_eq!(
        skill_dirs(&envelope),
        [
            "skills/alpha",
            "skills/beta",
            "skills/fresh",
            "skills/gamma"
        ]
    );
}

#[test]
fn an_upstream_is_preferred_to_main_and_no_upstream_falls_back() {
    let fx = feature_branch();
    // origin/feature at HEAD: the committed work is pushed already, so only
    // the uncommitted work is the branch's own.
    let head = fx.repo.head().unwrap().peel_to_commit().unwrap();
    fx.repo
        .remote("origin", "https://example.invalid/skills.git")
        .unwrap();
    fx.repo
        .reference("refs/remotes/origin/feature", head.id(), false, "test")
        .unwrap();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert_eq!(
        envelope["data"]["changed"]["base"]["source"], "main",
        "no upstream configured yet:\n{run}"
    );

    fx.repo
        .find_branch("feature", git2::BranchType::Local)
        .unwrap()
        .set_upstream(Some("origin/feature"))
        .unwrap();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    let base = &envelope["data"]["changed"]["base"];
    assert_eq!(base["source"], "upstream", "{run}");
    assert_eq!(base["revision"], "origin/feature");
    // Committed work is in the upstream already: alpha is not selected,
    // and doomed's deletion is not the branch's own any more.
    assert_eq!(
        skill_dirs(&envelope),
        ["skills/beta", "skills/fresh", "skills/gamma"],
        "{run}"
    );
    assert_eq!(envelope["data"]["changed"]["deleted"], Value::Array(vec![]));
}

#[test]
fn an_explicit_base_is_reported_as_such() {
    let fx = feature_branch();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--base", "HEAD"]);
    run.assert_code(0);
    let base = &envelope["data"]["changed"]["base"];
    assert_eq!(base["source"], "explicit", "{run}");
    assert_eq!(base["revision"], "HEAD");
    assert_eq!(
        skill_dirs(&envelope),
        ["skills/beta", "skills/fresh", "skills/gamma"]
    );
}

#[test]
fn a_repository_without_commits_treats_every_skill_as_new() {
    let fx = Fixture::new();
    fx.write("skills/one/SKILL.md", &skill_md("one"));
    fx.write("skills/two/SKILL.md", &skill_md("two"));
    fx.write("skills/two/notes.md", "notes\n");
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert_eq!(skill_dirs(&envelope), ["skills/one", "skills/two"], "{run}");
    let base = &envelope["data"]["changed"]["base"];
    assert_eq!(base["source"], "unborn");
    assert_eq!(base["merge_base"], Value::Null);
    assert_eq!(
        base["description"],
        "no commits yet: every file in the work tree is new"
    );
}

#[test]
fn nothing_changed_is_success_with_a_clear_message() {
    let fx = Fixture::new();
    fx.write("skills/one/SKILL.md", &skill_md("one"));
    fx.write(
        "skills/bad/SKILL.md",
        "---\nname: Bad\ndescription: broken and untouched\n---\n",
    );
    fx.commit_all("base");
    let run = fx.text(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("no changed skills: nothing to validate"),
        "{run}"
    );
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["skills"], Value::Array(vec![]));
    assert_eq!(envelope["data"]["changed"]["base"]["source"], "main");
    let quiet = fx.text(&["--quiet", "skill", "validate", "--changed"]);
    quiet.assert_code(0);
    assert!(quiet.stdout.is_empty(), "{quiet}");
}

#[test]
fn outside_a_repository_exits_4_with_a_hint() {
    let sandbox = Sandbox::new();
    fs::create_dir(sandbox.join("plain")).unwrap();
    let run = Run::of(
        sandbox
            .cmd()
            .current_dir(sandbox.join("plain"))
            .args(["--output", "json", "skill", "validate", "--changed"])
            // Keep libgit2's upward search inside the sandbox.
            .env("GIT_CEILING_DIRECTORIES", sandbox.path()),
    );
    run.assert_code(4);
    let envelope = run.envelope();
    assert_eq!(envelope["error"]["code"], "PRECONDITION");
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not inside a git repository"),
        "{run}"
    );
    assert!(
        envelope["error"]["hints"][0]
            .as_str()
            .unwrap()
            .contains("--changed"),
        "{run}"
    );
}

#[test]
fn an_unknown_base_exits_5_with_a_hint() {
    let fx = feature_branch();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--base", "no-such-branch"]);
    run.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NOT_FOUND");
    assert_eq!(
        envelope["error"]["message"],
        "unknown revision `no-such-branch`"
    );
    assert!(
        envelope["error"]["hints"][0]
            .as_str()
            .unwrap()
            .contains("--base"),
        "{run}"
    );
}

#[test]
fn no_default_base_exits_5_and_asks_for_one() {
    let fx = Fixture::new();
    fx.write("skills/one/SKILL.md", &skill_md("one"));
    fx.commit_all("base");
    fx.switch_new_branch("topic");
    fx.repo
        .find_branch("main", git2::BranchType::Local)
        .unwrap()
        .delete()
        .unwrap();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(5);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("no base revision found"),
        "{run}"
    );
}

#[test]
fn a_missing_path_exits_5_and_a_path_in_another_repository_exits_4() {
    let fx = feature_branch();
    let (run, _) = fx.json(&["skill", "validate", "--changed", "skills/nope"]);
    run.assert_code(5);
    fs::create_dir(fx.sandbox.join("elsewhere")).unwrap();
    let elsewhere = fx.sandbox.join("elsewhere");
    let (run, envelope) = fx.json(&[
        "skill",
        "validate",
        "--changed",
        ".",
        elsewhere.to_str().unwrap(),
    ]);
    run.assert_code(4);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("outside the repository work tree"),
        "{run}"
    );
}

#[test]
fn base_and_compare_to_need_changed() {
    let fx = feature_branch();
    for args in [
        ["skill", "validate", "--base", "main"],
        ["skill", "validate", "--compare-to", "head"],
    ] {
        let run = fx.text(&args);
        run.assert_code(2);
        assert!(run.stderr.contains("--changed"), "{run}");
    }
}

/// The hooks in `.pre-commit-hooks.yaml` run as written: the staged broken
/// skill fails them, and once fixed they pass; nothing outside the staged
/// change is looked at.
#[test]
fn pre_commit_hook_entries_validate_the_staged_change() {
    let hooks_file = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let hooks: Value =
        serde_saphyr::from_str(&fs::read_to_string(hooks_file).unwrap()).expect("hooks parse");
    let hooks = hooks.as_array().expect("a list of hooks");
    assert!(!hooks.is_empty());
    for hook in hooks {
        assert_eq!(hook["pass_filenames"], false, "{hook}");
        let entry = hook["entry"].as_str().expect("entry");
        let words: Vec<&str> = entry.split_whitespace().collect();
        assert_eq!(words[0], "aigent", "{entry}");

        let fx = Fixture::new();
        fx.write("skills/steady/SKILL.md", &skill_md("steady"));
        fx.write("skills/untouched/SKILL.md", "---\nname: Broken\n---\n");
        fx.commit_all("base");
        fx.switch_new_branch("topic");
        fx.write("skills/steady/SKILL.md", "---\nname: steady\n---\n");
        fx.stage("skills/steady/SKILL.md");
        let run = Run::of(fx.sandbox.cmd().current_dir(fx.root()).args(&words[1..]));
        run.assert_code(1);
        assert!(
            run.stdout.contains("E009"),
            "the staged break is reported:\n{run}"
        );
        assert!(
            !run.stdout.contains("untouched"),
            "untouched skills are skipped:\n{run}"
        );

        fx.write("skills/steady/SKILL.md", &skill_md("steady"));
        fx.stage("skills/steady/SKILL.md");
        let run = Run::of(fx.sandbox.cmd().current_dir(fx.root()).args(&words[1..]));
        run.assert_code(0);
    }
}

#[test]
fn github_format_annotates_the_changed_skills() {
    let fx = feature_branch();
    fx.write(
        "skills/fresh/SKILL.md",
        "---\nname: Fresh\ndescription: x\n---\n",
    );
    let run = Run::of(fx.sandbox.cmd().current_dir(fx.root()).args([
        "--output",
        "github",
        "skill",
        "validate",
        "--changed",
    ]));
    run.assert_code(1);
    let annotations: Vec<&str> = run
        .stdout
        .lines()
        .filter(|line| line.starts_with("::") && !line.starts_with("::notice::"))
        .collect();
    assert!(!annotations.is_empty(), "{run}");
    for line in &annotations {
        assert!(
            line.starts_with("::error file=skills/fresh/SKILL.md,line="),
            "{line}"
        );
    }
}

/// The codes of every skill in the envelope, by skill file path.
fn codes_by_path(envelope: &Value) -> BTreeMap<String, Vec<String>> {
    envelope["data"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| {
            let codes = skill["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["code"].as_str().unwrap().to_owned())
                .collect();
            (skill["path"].as_str().unwrap().to_owned(), codes)
        })
        .collect()
}

/// `main` holds skill `a`; the branch `topic` starts there.
fn one_skill_on_a_branch() -> Fixture {
    let fx = Fixture::new();
    fx.write("s/a/SKILL.md", &skill_md("a"));
    fx.commit_all("base");
    fx.switch_new_branch("topic");
    fx
}

const BAD_A: &str = "---\nname: BAD\ndescription: Staged, broken.\n---\n";

/// A pre-commit hook must judge what is about to be committed: a broken
/// staged file fails even when the work tree has been fixed since, and a
/// good staged file passes even when the work tree is broken since.
#[test]
fn compare_to_index_validates_the_staged_file() {
    let fx = one_skill_on_a_branch();
    fx.write("s/a/SKILL.md", BAD_A);
    fx.stage("s/a/SKILL.md");
    fx.write("s/a/SKILL.md", &skill_md("a"));
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(1);
    assert_eq!(
        codes_by_path(&envelope)["s/a/SKILL.md"],
        ["E003", "E008"],
        "{run}"
    );
    // The work tree itself is fine.
    fx.json(&["skill", "validate", "--changed"])
        .0
        .assert_code(0);

    // The other way round: good staged, broken since.
    fx.write("s/a/SKILL.md", &format!("{}staged\n", skill_md("a")));
    fx.stage("s/a/SKILL.md");
    fx.write("s/a/SKILL.md", BAD_A);
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(0);
    assert_eq!(
        codes_by_path(&envelope)["s/a/SKILL.md"],
        Vec::<String>::new()
    );
}

/// CI judges what is committed, whatever the checkout holds.
#[test]
fn compare_to_head_validates_the_committed_file() {
    let fx = one_skill_on_a_branch();
    fx.write("s/a/SKILL.md", BAD_A);
    fx.stage("s/a/SKILL.md");
    fx.commit_staged("break a");
    fx.write("s/a/SKILL.md", &skill_md("a"));
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "head"]);
    run.assert_code(1);
    assert_eq!(
        codes_by_path(&envelope)["s/a/SKILL.md"],
        ["E003", "E008"],
        "{run}"
    );
    let run = fx.text(&["skill", "validate", "--changed", "--compare-to", "head"]);
    run.assert_code(1);
    assert!(
        run.stdout
            .contains("error[E003]: name 'BAD' must be lowercase"),
        "{run}"
    );
}

/// Links are looked up where the skill file was read from.
#[test]
fn links_are_checked_in_the_same_snapshot() {
    let fx = one_skill_on_a_branch();
    let linked = format!("{}\nSee [the guide](references/guide.md).\n", skill_md("a"));
    fx.write("s/a/SKILL.md", &linked);
    fx.write("s/a/references/guide.md", "# Guide\n");
    fx.stage("s/a/SKILL.md");
    // Not staged: the commit would lack it.
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(0);
    assert_eq!(codes_by_path(&envelope)["s/a/SKILL.md"], ["W005"], "{run}");
    let (_, envelope) = fx.json(&["skill", "validate", "--changed"]);
    assert_eq!(
        codes_by_path(&envelope)["s/a/SKILL.md"],
        Vec::<String>::new()
    );

    // Staged, then deleted from the work tree: the commit has it.
    fx.stage("s/a/references/guide.md");
    fx.remove_dir("s/a/references");
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(0);
    assert_eq!(
        codes_by_path(&envelope)["s/a/SKILL.md"],
        Vec::<String>::new(),
        "{run}"
    );
    let (_, envelope) = fx.json(&["skill", "validate", "--changed"]);
    assert_eq!(codes_by_path(&envelope)["s/a/SKILL.md"], ["W005"]);
}

/// A new skill that is staged and then removed from the work tree is in
/// the commit the hook guards, so the index mode validates it; the work
/// tree has no trace of it, and neither has the base.
#[test]
fn a_staged_skill_gone_from_the_work_tree_is_validated_from_the_index() {
    let fx = one_skill_on_a_branch();
    fx.write(
        "s/b/SKILL.md",
        "---\nname: b\ndescription: <b>staged</b>\n---\n",
    );
    fx.stage("s/b/SKILL.md");
    fx.remove_dir("s/b");
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(1);
    assert_eq!(codes_by_path(&envelope)["s/b/SKILL.md"], ["E011"], "{run}");
    assert_eq!(selected(&envelope)["s/b"], ["added s/b/SKILL.md"], "{run}");
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert!(skill_dirs(&envelope).is_empty(), "{run}");
    assert_eq!(envelope["data"]["changed"]["deleted"], Value::Array(vec![]));

    // A staged deletion whose file is still in the work tree: the commit
    // deletes the skill, the work tree does not.
    let mut index = fx.repo.index().unwrap();
    index.remove_path(Path::new("s/a/SKILL.md")).unwrap();
    index.write().unwrap();
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(1);
    assert_eq!(
        envelope["data"]["changed"]["deleted"][0]["path"], "s/a",
        "{run}"
    );
    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert_eq!(
        envelope["data"]["changed"]["deleted"],
        Value::Array(vec![]),
        "{run}"
    );
}

/// Two skills made by `skill new` look alike, so git pairs the deleted
/// one with the new one as a rename: the deletion is reported all the
/// same, and the rename says where from.
#[test]
fn a_deleted_skill_stays_deleted_when_git_pairs_it_with_a_new_one() {
    let fx = Fixture::new();
    let new_skill = |path: &str, description: &str| {
        Run::of(fx.sandbox.cmd().current_dir(fx.root()).args([
            "skill",
            "new",
            path,
            "--description",
            description,
            "--yes",
        ]))
        .assert_code(0);
    };
    new_skill("skills/old-one", "Does old things.");
    fx.commit_all("base");
    fx.switch_new_branch("topic");
    fx.remove_dir("skills/old-one");
    new_skill("skills/brand-new", "Does new things.");

    let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    let deleted = envelope["data"]["changed"]["deleted"].as_array().unwrap();
    assert_eq!(deleted.len(), 1, "{run}");
    assert_eq!(deleted[0]["path"], "skills/old-one");
    assert_eq!(skill_dirs(&envelope), ["skills/brand-new"]);

    let run = fx.text(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("deleted: skills/old-one (not validated)"),
        "{run}"
    );
    // git did pair them (the premise of this test); the note says so.
    assert_eq!(
        envelope["data"]["skills"][0]["selected"]["renamed_from"],
        "skills/old-one"
    );
    assert!(
        run.stdout.contains(
            "ok: skills/brand-new/SKILL.md (renamed skills/old-one/SKILL.md to skills/brand-new/SKILL.md)"
        ),
        "{run}"
    );
}

/// From a subdirectory, skills elsewhere in the work tree are shown with
/// `..`, in text and in json alike.
#[test]
fn from_a_subdirectory_other_skills_are_shown_with_dot_dot() {
    let fx = feature_branch();
    fx.write("docs/notes.md", "notes\n");
    let run = Run::of(fx.sandbox.cmd().current_dir(fx.root().join("docs")).args([
        "--output",
        "text",
        "skill",
        "validate",
        "--changed",
        "..",
    ]));
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("ok: ../skills/alpha/SKILL.md (modified scripts/run.sh)"),
        "{run}"
    );
    assert!(
        run.stdout
            .contains("deleted: ../skills/doomed (not validated)"),
        "{run}"
    );
    let (run, envelope) = fx.json_in("docs", &["skill", "validate", "--changed", ".."]);
    run.assert_code(0);
    assert_eq!(
        envelope["data"]["skills"][0]["path"], "../skills/alpha/SKILL.md",
        "{run}"
    );
    // The unit's own path stays relative to the work tree.
    assert_eq!(
        envelope["data"]["changed"]["deleted"][0]["path"],
        "skills/doomed"
    );
}

#[test]
fn a_repository_without_commits_says_so_plainly() {
    let fx = Fixture::new();
    fx.write("skills/one/SKILL.md", &skill_md("one"));
    let run = fx.text(&["skill", "validate", "--changed"]);
    run.assert_code(0);
    assert_eq!(
        run.stdout.lines().next().unwrap(),
        "no commits yet: every file in the work tree counts as new",
        "{run}"
    );
}

/// GitHub's log gets the base and the deleted skills as notices, and the
/// search notes as warnings, in the workflow-command syntax.
#[test]
fn github_format_notes_the_base_and_the_deleted_skills() {
    let fx = feature_branch();
    let run = Run::of(fx.sandbox.cmd().current_dir(fx.root()).args([
        "--output",
        "github",
        "skill",
        "validate",
        "--changed",
    ]));
    run.assert_code(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with(
            "::notice::changed since main (fallback: no upstream or origin/HEAD), merge base "
        ),
        "{run}"
    );
    assert_eq!(lines[1], "::notice::deleted: skills/doomed (not validated)");
    assert!(run.stderr.is_empty(), "{run}");
}

/// A repository inside the work tree (a submodule's checkout, say) is its
/// own repository: the outer `--changed` does not look into it, and a
/// PATH inside it is checked against its own history.
#[test]
fn a_nested_repository_is_checked_through_a_path_inside_it() {
    let fx = Fixture::new();
    fx.write("skills/top/SKILL.md", &skill_md("top"));
    fx.commit_all("outer");
    let inner_dir = fx.root().join("sub");
    let inner = git2::Repository::init_opts(
        &inner_dir,
        git2::RepositoryInitOptions::new().initial_head("main"),
    )
    .unwrap();
    fx.write("sub/s/a/SKILL.md", &skill_md("a"));
    let mut index = inner.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = inner.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = git2::Signature::new(
        "Test",
        "test@example.invalid",
        &git2::Time::new(1_700_000_000, 0),
    )
    .unwrap();
    inner
        .commit(Some("HEAD"), &signature, &signature, "inner", &tree, &[])
        .unwrap();
    let head = inner.head().unwrap().peel_to_commit().unwrap();
    inner.branch("topic", &head, false).unwrap();
    inner.set_head("refs/heads/topic").unwrap();
    fx.write("sub/s/a/SKILL.md", "---\nname: BAD\ndescription: d\n---\n");

    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "sub"]);
    run.assert_code(1);
    assert_eq!(skill_dirs(&envelope), ["s/a"], "{run}");
    assert_eq!(
        envelope["data"]["changed"]["workdir"],
        fs::canonicalize(&inner_dir).unwrap().to_str().unwrap()
    );
    assert_eq!(envelope["data"]["skills"][0]["path"], "sub/s/a/SKILL.md");
}

/// The size limit holds for a skill file read from git too: checked
/// before the blob is read.
#[test]
fn an_oversized_staged_skill_file_is_refused_unread() {
    let fx = one_skill_on_a_branch();
    fx.write(
        "s/a/SKILL.md",
        &format!("{}{}", skill_md("a"), "x".repeat(2 * 1024 * 1024)),
    );
    fx.stage("s/a/SKILL.md");
    fx.write("s/a/SKILL.md", &skill_md("a"));
    let (run, envelope) = fx.json(&["skill", "validate", "--changed", "--compare-to", "index"]);
    run.assert_code(1);
    assert_eq!(codes_by_path(&envelope)["s/a/SKILL.md"], ["E021"], "{run}");
}
