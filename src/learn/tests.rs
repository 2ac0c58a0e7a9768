use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::*;

fn which(_: &str) -> Option<PathBuf> {
    None
}

fn learn_lines(lines: &[String], cwd: &Path, options: &LearnOptions) -> Learned {
    let registry = Registry::Catalog;
    let context = LearnContext {
        registry: &registry,
        which: &which,
        cwd: Some(cwd),
        cache_dir: None,
        target: None,
    };
    let observations = lines
        .iter()
        .map(|line| Observation::new(line.clone()))
        .collect();
    learn(observations, &context, options).expect("learned")
}

/// The hook's verdict on `line` with `directory` as the registry's top layer.
fn verdict_with(directory: &Path, line: &str, cwd: &Path) -> Judgement {
    let layers = Layers::discover(&Discovery {
        given: Some(directory.to_path_buf()),
        ..Discovery::default()
    });
    let registry = Registry::Layered(std::sync::Arc::new(layers));
    let index = registry.program_index(None).unwrap();
    let settings = HookSettings::default();
    let context = Context {
        registry: &registry,
        index: &index,
        settings: &settings,
        which: &which,
        cwd: Some(cwd),
        aigent: None,
        home: None,
    };
    judge(line, &context)
}

fn reviewed() -> LearnOptions {
    LearnOptions {
        class: Some(CommandClass::Reads),
        ..LearnOptions::default()
    }
}

#[test]
fn proposals_cover_their_lines_and_lint_clean() {
    let project = tempfile::tempdir().unwrap();
    let lines: Vec<String> = [
        "mytool build --release src/a.rs",
        "mytool build --release src/b.rs",
        "mytool build --jobs 4 src/a.rs",
        "git log --oneline --foo HEAD~3",
    ]
    .iter()
    .map(|line| (*line).to_owned())
    .collect();
    let learned = learn_lines(&lines, project.path(), &LearnOptions::default());
    let names: Vec<&str> = learned.proposals.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "git-log-foo-oneline",
            "mytool-build-jobs",
            "mytool-build-release"
        ],
        "{learned:#?}"
    );
    for proposal in &learned.proposals {
        assert!(proposal.lint.iter().all(|d| !d.is_error()), "{proposal:#?}");
        assert!(proposal.lint.is_empty(), "lint clean: {:?}", proposal.lint);
        // Unsure of programs and options no declaration knows: the hook asks.
        assert!(proposal.unsure);
        assert_eq!(proposal.class, CommandClass::DiscardsWork);
        assert!(proposal.still_refused.is_empty(), "{proposal:#?}");
    }
    let release = &learned.proposals[2];
    assert_eq!(release.count, 2);
    assert_eq!(
        release.declaration["parameters"]["operand"]["pattern_type"],
        "filepath"
    );
    let jobs = &learned.proposals[1];
    assert_eq!(jobs.form, "mytool build --jobs <operands>...");
}

#[test]
fn a_class_is_borrowed_only_from_a_declaration_that_takes_the_lines() {
    let project = tempfile::tempdir().unwrap();
    // No line uses an option its subcommand's catalog form does not
    // declare, yet no such form takes the line: a bare `bash` runs what
    // stdin holds (`bash-script` runs a script file of the project),
    // `pwd` takes no operand, and `kubectl-config-contexts` takes one of
    // two words that read (`use-context` switches the cluster). Unsure, so
    // destructive: the hook asks. `--delete-me` is no option of any `git
    // branch` form. (`git config KEY VALUE`, which `git-config-get` does
    // not take either, the lint keeps from being learned at all: below.)
    let lines: Vec<String> = [
        "bash",
        "pwd x",
        "kubectl config use-context prod",
        "git branch --delete-me",
    ]
    .iter()
    .map(|line| (*line).to_owned())
    .collect();
    let learned = learn_lines(&lines, project.path(), &LearnOptions::default());
    let classes: Vec<(&str, CommandClass, bool)> = learned
        .proposals
        .iter()
        .map(|p| (p.name.as_str(), p.class, p.unsure))
        .collect();
    assert_eq!(
        classes,
        [
            ("bash", CommandClass::DiscardsWork, true),
            ("git-branch-delete-me", CommandClass::DiscardsWork, true),
            ("kubectl-config", CommandClass::DiscardsWork, true),
            ("pwd-learned", CommandClass::DiscardsWork, true),
        ],
        "{learned:#?}"
    );
    let reason = |name: &str| {
        learned
            .proposals
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.class_reason.clone())
            .unwrap()
    };
    for (name, words, reference) in [
        ("bash", "bash", "bash-script"),
        ("pwd-learned", "pwd", "pwd"),
        (
            "kubectl-config",
            "kubectl config",
            "kubectl-config-contexts",
        ),
    ] {
        let why = reason(name);
        assert!(
            why.starts_with(&format!(
                "unsure: no declaration of `{words}` takes these lines (`"
            )) && why.contains(&format!("`{reference}`")),
            "{name}: {why}"
        );
        assert!(why.ends_with("destructive until a person says otherwise (--class)"));
        let proposal = learned.proposals.iter().find(|p| p.name == name).unwrap();
        assert_eq!(proposal.declaration["danger_level"], "destructive");
    }
    assert!(
        reason("git-branch-delete-me").contains("`--delete-me` is not an option of `git-branch`")
    );
}

#[test]
fn a_line_that_sets_a_git_key_git_runs_is_not_learned_with_any_class() {
    let project = tempfile::tempdir().unwrap();
    // Its hooks would run on the next commit, outside any sandbox: the
    // hook denies the line for what it runs (`code_string`), so nothing is
    // proposed, whatever the class; a declaration made from such a line
    // would fail `schema lint` (E115/E127) besides.
    let lines = ["git config core.hooksPath /tmp/evil".to_owned()];
    for options in [LearnOptions::default(), reviewed()] {
        let learned = learn_lines(&lines, project.path(), &options);
        assert!(learned.proposals.is_empty(), "{learned:#?}");
        let [refused] = learned.not_learnable.as_slice() else {
            panic!("{learned:#?}");
        };
        assert!(
            refused.rule == "code_string" && refused.reason.contains("core.hooksPath"),
            "{refused:#?}"
        );
    }
}

#[test]
fn a_declaration_takes_a_line_by_its_form_and_its_values() {
    let catalog = |name: &str| Registry::Catalog.load(name).unwrap().declaration;
    let get = catalog("git-config-get");
    assert!(takes(&get, &["config", "user.name"]));
    assert!(takes(
        &get,
        &["config", "--global", "--get", "core.hooksPath"]
    ));
    // A second operand: a value set, which the form has no place for.
    assert!(!takes(&get, &["config", "user.name", "Ada"]));
    assert!(!takes(&get, &["config", "core.hooksPath", "/tmp/evil"]));
    // An option the form does not declare.
    assert!(!takes(&get, &["config", "--add", "user.name"]));
    // A value outside the form's checks (a form's enum or pattern may be
    // what makes it only read).
    assert!(!takes(&get, &["config", "--get", "not-a-key"]));
    let script = catalog("bash-script");
    assert!(takes(&script, &["-e", "scripts/build.sh"]));
    // Its script is required: without it, bash runs what stdin holds.
    assert!(!takes(&script, &[]));
    assert!(!takes(&catalog("pwd"), &["x"]));
    // Its form reads `kubectl config WORD`; its enum keeps WORD to reads.
    let contexts = catalog("kubectl-config-contexts");
    assert!(takes(&contexts, &["config", "get-contexts"]));
    assert!(!takes(&contexts, &["config", "use-context"]));
    assert!(takes(&catalog("pwd"), &["-P"]));
}

#[test]
fn principled_refusals_are_not_learnable() {
    let project = tempfile::tempdir().unwrap();
    let lines: Vec<String> = [
        "rm -rf /",
        "python3 -c 'import os'",
        "ls $(git status)",
        "LD_PRELOAD=/tmp/x.so ls",
        "FOO=1 ls",
        "bash -c 'ls'",
        "sudo ls",
        "eval ls",
    ]
    .iter()
    .map(|line| (*line).to_owned())
    .collect();
    let learned = learn_lines(&lines, project.path(), &reviewed());
    assert!(learned.proposals.is_empty(), "{:#?}", learned.proposals);
    let rules: BTreeSet<&str> = learned
        .not_learnable
        .iter()
        .map(|n| n.rule.as_str())
        .collect();
    for rule in [
        "catastrophic",
        "command_substitution",
        "environment",
        "assignment_prefix",
        "shell_builtin",
    ] {
        assert!(rules.contains(rule), "{rule}: {:#?}", learned.not_learnable);
    }
}

#[test]
fn min_count_holds_back_one_offs_and_program_filters() {
    let project = tempfile::tempdir().unwrap();
    let lines: Vec<String> = ["tool a x.txt", "tool a y.txt", "other b"]
        .iter()
        .map(|line| (*line).to_owned())
        .collect();
    let options = LearnOptions {
        min_count: 2,
        ..LearnOptions::default()
    };
    let learned = learn_lines(&lines, project.path(), &options);
    assert_eq!(learned.proposals.len(), 1);
    assert_eq!(learned.proposals[0].name, "tool-a");
    assert_eq!(learned.below_min_count.len(), 1);
    assert_eq!(learned.below_min_count[0].command, "other b");
    let options = LearnOptions {
        program: Some("other".to_owned()),
        ..LearnOptions::default()
    };
    let learned = learn_lines(&lines, project.path(), &options);
    assert_eq!(learned.observed, 1);
    assert_eq!(learned.proposals.len(), 1);
    assert_eq!(learned.proposals[0].program, "other");
}

#[test]
fn write_never_replaces_without_force() {
    let project = tempfile::tempdir().unwrap();
    let target = project.path().join("commands");
    let learned = learn_lines(&["tool a".to_owned()], project.path(), &reviewed());
    let written = write(&target, &learned.proposals, false).unwrap();
    assert_eq!(written.len(), 1);
    assert!(matches!(
        write(&target, &learned.proposals, false),
        Err(WriteError::Exists { .. })
    ));
    assert!(write(&target, &learned.proposals, true).unwrap()[0].replaced);
}

/// A line of `tool`: a subcommand, options (switches, an integer, a
/// joined word) and path operands.
fn tool_line() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["build", "check"]),
        prop::collection::vec(
            prop::sample::select(vec![
                "--quiet",
                "--verbose",
                "-x",
                "--level 3",
                "--level 12",
                "--mode=fast",
                "--mode=slow",
            ]),
            0..4,
        ),
        prop::collection::vec(
            prop::sample::select(vec!["src/a.rs", "b.txt", "docs/c.md"]),
            0..3,
        ),
    )
        .prop_map(|(sub, options, operands)| {
            let mut words = vec!["tool".to_owned(), sub.to_owned()];
            let mut seen = BTreeSet::new();
            for option in options {
                let name = option.split([' ', '=']).next().unwrap_or(option);
                if seen.insert(name) {
                    words.push(option.to_owned());
                }
            }
            words.extend(operands.into_iter().map(str::to_owned));
            words.join(" ")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Written, a proposal lets the hook allow every observed line it
    /// says it covers, and refuses the same line with one more option
    /// that no observed line used.
    #[test]
    fn a_proposal_takes_its_lines_and_no_extra_option(lines in prop::collection::vec(tool_line(), 1..8)) {
        let project = tempfile::tempdir().unwrap();
        let learned = learn_lines(&lines, project.path(), &reviewed());
        let target = project.path().join("commands");
        write(&target, &learned.proposals, false).unwrap();
        let mut covered = 0;
        for proposal in &learned.proposals {
            prop_assert!(proposal.lint.iter().all(|d| !d.is_error()));
            for line in &proposal.covers {
                covered += 1;
                let judgement = verdict_with(&target, line, project.path());
                prop_assert_eq!(judgement.verdict, Verdict::Allow, "{} {:?}", line, judgement);
                let extra = format!("{line} --undeclared-extra");
                let judgement = verdict_with(&target, &extra, project.path());
                prop_assert_ne!(judgement.verdict, Verdict::Allow, "{}", extra);
            }
        }
        // Every line is covered: nothing in them is beyond a declaration.
        prop_assert_eq!(covered, lines.iter().collect::<BTreeSet<_>>().len(), "{:#?}", learned);
    }
}

/// Writes the proposals into a fresh registry directory.
fn written(learned: &Learned) -> tempfile::TempDir {
    let registry = tempfile::tempdir().unwrap();
    write(registry.path(), &learned.proposals, false).unwrap();
    registry
}

#[test]
fn a_line_after_a_cd_is_learned_so_the_hook_takes_it_there() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join("gui/src")).unwrap();
    std::fs::write(project.path().join("gui/src/a.tsx"), "").unwrap();
    let line = "cd gui && mytool run src/a.tsx";
    let learned = learn_lines(&[line.to_owned()], project.path(), &reviewed());
    let [proposal] = learned.proposals.as_slice() else {
        panic!("one proposal: {learned:#?}");
    };
    // After the `cd` the hook knows no one directory: the path is held to
    // the value seen, not to a directory (which it would refuse to check).
    let operands = &proposal.declaration["parameters"]["operands"];
    assert!(operands.get("under").is_none(), "{operands}");
    assert!(proposal.still_refused.is_empty(), "{proposal:#?}");
    let registry = written(&learned);
    let verdict = |line: &str| verdict_with(registry.path(), line, project.path()).verdict;
    assert_eq!(verdict(line), Verdict::Allow);
    assert_ne!(
        verdict("cd gui && mytool run ../../etc/passwd"),
        Verdict::Allow
    );
    assert_ne!(verdict("cd gui && mytool run src/b.tsx"), Verdict::Allow);
}

/// Learns `line` alone: one proposal whose form starts with `form`, lint
/// clean, that once written allows `line` and not `elsewhere` (the same
/// option with another value).
fn proposes_fixed_option(line: &str, form: &str, elsewhere: &str) {
    let project = tempfile::tempdir().unwrap();
    let learned = learn_lines(&[line.to_owned()], project.path(), &reviewed());
    let [proposal] = learned.proposals.as_slice() else {
        panic!("one proposal: {learned:#?}");
    };
    assert!(proposal.form.starts_with(form), "{}", proposal.form);
    assert!(proposal.lint.iter().all(|d| !d.is_error()), "{proposal:#?}");
    let registry = written(&learned);
    let verdict = |line: &str| verdict_with(registry.path(), line, project.path()).verdict;
    assert_eq!(verdict(line), Verdict::Allow);
    assert_ne!(verdict(elsewhere), Verdict::Allow);
}

#[test]
fn an_option_the_lint_wants_fixed_is_written_as_fixed_words() {
    // (`git -C DIR status` is a read the catalog allows already.)
    let line = "git -C /srv/repo maintenance run --auto";
    proposes_fixed_option(
        line,
        "git -C /srv/repo maintenance",
        "git -C /etc maintenance run --auto",
    );
    // Two different values: nothing to fix, so the option is left out.
    let project = tempfile::tempdir().unwrap();
    let learned = learn_lines(
        &[
            line.to_owned(),
            "git -C /srv/other maintenance run --auto".to_owned(),
        ],
        project.path(),
        &reviewed(),
    );
    assert!(
        learned.proposals.iter().all(|p| !p.form.contains("-C")),
        "{learned:#?}"
    );
}

/// `make -C DIR` reads DIR's makefile: the lint wants DIR fixed, and
/// `-C` takes the next word as its value although no declaration says so.
#[test]
fn an_option_that_names_code_takes_its_value_and_is_fixed() {
    proposes_fixed_option(
        "make -C apps/myapp build",
        "make -C apps/myapp",
        "make -C /tmp/evil build",
    );
}

#[test]
fn a_class_chosen_in_review_brings_its_danger_level_and_sandbox() {
    let project = tempfile::tempdir().unwrap();
    let learned = learn_lines(
        &["mytool build --release src/a.rs".to_owned()],
        project.path(),
        &LearnOptions::default(),
    );
    let mut proposal = learned.proposals[0].clone();
    assert!(proposal.unsure);
    assert_eq!(
        proposal.declaration["sandbox"]["write"],
        serde_json::json!(["$CWD", "$TMP"])
    );
    proposal.reclassify(CommandClass::Reads).unwrap();
    assert_eq!(proposal.class, CommandClass::Reads);
    assert!(!proposal.unsure);
    assert_eq!(proposal.declaration["class"], "reads");
    assert_eq!(proposal.declaration["danger_level"], "safe");
    assert!(proposal.declaration.get("sandbox").is_none());
    assert!(proposal.lint.iter().all(|d| !d.is_error()));
    proposal.reclassify(CommandClass::RunsProjectCode).unwrap();
    assert_eq!(proposal.declaration["danger_level"], "mutating");
    // The project's code writes the project, from any directory of it.
    assert_eq!(
        proposal.declaration["sandbox"]["write"],
        serde_json::json!(["$PROJECT", "$TMP"])
    );
    // Written, the hook allows its line as the new class says.
    let registry = written(&Learned {
        proposals: vec![proposal],
        ..learned
    });
    let judgement = verdict_with(
        registry.path(),
        "mytool build --release src/a.rs",
        project.path(),
    );
    assert_eq!(judgement.segments[0].rule, "runs_project_code");
}
