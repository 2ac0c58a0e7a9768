//! Codex (`codex exec`, headless) with aigent's `PreToolUse` hook, and
//! with the rules `schema export --to codex-execpolicy` writes.

use std::path::Path;

use super::{
    Cases, ClientRun, LIMIT, Runner, World, in_parallel, installed, run_client, server,
    verdict_cases, zero_config_cases,
};

/// How Codex is set up for a case.
struct Setup {
    /// The project is trusted (Codex reads a project's `.codex/` only then).
    trusted: bool,
    /// `--sandbox` for the run.
    sandbox: &'static str,
}

const TRUSTED: Setup = Setup {
    trusted: true,
    sandbox: "danger-full-access",
};

/// `$CODEX_HOME/config.toml`: the fake server as the model provider, no
/// update check, no analytics, and the project's trust.
fn config(world: &World, setup: &Setup) {
    let mut text = format!(
        "model = \"gpt-aigent-test\"\nmodel_provider = \"aigent-fake\"\ncheck_for_update_on_startup = false\n\n[analytics]\nenabled = false\n\n[model_providers.aigent-fake]\nname = \"aigent fake model\"\nbase_url = \"{}/v1\"\nwire_api = \"responses\"\n",
        server().base_url()
    );
    if setup.trusted {
        text.push_str(&format!(
            "\n[projects.{}]\ntrust_level = \"trusted\"\n",
            serde_json::to_string(&world.project().display().to_string()).unwrap()
        ));
    }
    world.sandbox.write("codex-home/config.toml", text);
}

/// `codex exec PROMPT` proposing `command`. `--dangerously-bypass-hook-trust`
/// stands for the person's review in `/hooks`, which a headless run cannot
/// do.
fn codex(world: &World, program: &Path, setup: &Setup, command: &str) -> ClientRun {
    config(world, setup);
    let mut cmd = world.client_command(program);
    cmd.env("CODEX_HOME", world.join("codex-home")).args([
        "exec",
        "--skip-git-repo-check",
        "--ephemeral",
        "--color",
        "never",
        "--dangerously-bypass-hook-trust",
        "--sandbox",
        setup.sandbox,
        &world.prompt(command),
    ]);
    let run = run_client(cmd, LIMIT);
    assert!(!run.timed_out, "codex did not finish:\n{run}");
    run
}

#[test]
fn codex_honours_each_verdict_headless() {
    let Some(program) = installed("codex") else {
        return;
    };
    let mut cases: Cases = vec![
        ("ask", {
            let program = program.clone();
            Box::new(move || {
                // Codex hooks cannot ask: the ask arrives as a deny telling
                // the model to have the person run or allow it.
                let world = World::new("codex-ask");
                world.install_hook("codex", &[]);
                world.sandbox.write("project/doomed.txt", "");
                let run = codex(&world, &program, &TRUSTED, "rm doomed.txt");
                assert!(world.exists("doomed.txt"), "the asked line ran:\n{run}");
                assert_eq!(world.verdicts(), ["ask"], "{run}");
                let told = world.told();
                assert!(
                    told.contains("aigent: ask `rm doomed.txt`")
                        && told.contains("Codex hooks cannot ask"),
                    "the model was told: {told}"
                );
            })
        }),
        ("untrusted project", {
            let program = program.clone();
            Box::new(move || {
                // A project's .codex/ is read only once the project is
                // trusted: before that, its hook does not run at all.
                let world = World::new("codex-untrusted");
                world.install_hook("codex", &[]);
                let setup = Setup {
                    trusted: false,
                    sandbox: "danger-full-access",
                };
                let run = codex(&world, &program, &setup, "touch Denied.txt");
                assert!(
                    world.decisions().is_empty(),
                    "the hook ran in an untrusted project:\n{run}"
                );
                assert!(world.exists("Denied.txt"), "{run}");
            })
        }),
    ];
    let runner: Runner = std::sync::Arc::new(move |world: &World, command: &str| {
        codex(world, &program, &TRUSTED, command)
    });
    cases.extend(verdict_cases("codex", "codex", runner.clone()));
    cases.extend(zero_config_cases("codex", &[], runner));
    in_parallel(cases);
}

#[test]
fn codex_install_and_uninstall_round_trip_and_a_missing_program() {
    let Some(program) = installed("codex") else {
        return;
    };
    let cases: Cases = vec![
        ("round trip", {
            let program = program.clone();
            Box::new(move || {
                let world = World::new("codex-round-trip");
                let original =
                    "# the project's own settings\napproval_policy = \"never\" # as codex exec\n";
                world.sandbox.write("project/.codex/config.toml", original);
                world.install_hook("codex", &[]);
                let run = codex(&world, &program, &TRUSTED, "touch Denied.txt");
                assert_eq!(
                    world.verdicts(),
                    ["deny"],
                    "the installed hook did not run:\n{run}"
                );
                let removed = world.aigent(&["hook", "uninstall", "--client", "codex"]);
                assert_eq!(removed.code, 0, "{removed}");
                let after =
                    std::fs::read_to_string(world.project().join(".codex/config.toml")).unwrap();
                assert_eq!(after, original, "uninstall did not give the bytes back");
                let run = codex(&world, &program, &TRUSTED, "touch Denied.txt");
                assert_eq!(
                    world.verdicts(),
                    ["deny"],
                    "the uninstalled hook still ran:\n{run}"
                );
                assert!(world.exists("Denied.txt"), "{run}");
            })
        }),
        ("missing program", {
            let program = program.clone();
            Box::new(move || {
                // A hook that cannot start is a failed hook, not a refusal:
                // Codex runs the line.
                let world = World::new("codex-missing-binary");
                let missing = world.join("gone/aigent");
                world.install_hook(
                    "codex",
                    &["--program", missing.to_str().expect("UTF-8 temp path")],
                );
                let run = codex(&world, &program, &TRUSTED, "touch Unguarded.txt");
                assert!(
                    world.exists("Unguarded.txt"),
                    "expected the line to run unguarded:\n{run}"
                );
                world.assert_doctor_finds_missing("codex", "runs every shell command unguarded");
            })
        }),
    ];
    in_parallel(cases);
}

/// The rules `schema export --to codex-execpolicy` writes, installed in
/// `$CODEX_HOME/rules/`.
fn install_export(world: &World) {
    let rules = world.join("codex-home/rules/aigent.rules");
    std::fs::create_dir_all(rules.parent().unwrap()).unwrap();
    let run = world.aigent(&[
        "schema",
        "export",
        "--to",
        "codex-execpolicy",
        "--out-file",
        rules.to_str().expect("UTF-8 temp path"),
    ]);
    assert_eq!(run.code, 0, "{run}");
}

#[test]
fn codex_keeps_its_sandbox_with_the_hook_and_the_export() {
    let Some(program) = installed("codex") else {
        return;
    };
    const READ_ONLY: Setup = Setup {
        trusted: true,
        sandbox: "read-only",
    };
    // Whether Codex's own sandbox works on this machine: a write under
    // read-only, with no hook and no rules, must fail.
    let control = World::new("codex-sandbox-control");
    let run = codex(&control, &program, &READ_ONLY, "touch control.txt");
    let sandboxed = !control.exists("control.txt");
    if !sandboxed {
        eprintln!(
            "note: Codex's sandbox does not hold on this machine; the sandbox checks are skipped:\n{run}"
        );
    }
    let cases: Cases = vec![
        ("hook allow, read-only", {
            let program = program.clone();
            Box::new(move || {
                // The hook's allow is no answer to Codex: its sandbox stays
                // in charge, and the write fails.
                let world = World::new("codex-hook-read-only");
                world.install_hook("codex", &[]);
                let run = codex(&world, &program, &READ_ONLY, "touch allowed.txt");
                assert_eq!(world.verdicts(), ["allow"], "{run}");
                if sandboxed {
                    assert!(
                        !world.exists("allowed.txt"),
                        "the write escaped the sandbox:\n{run}"
                    );
                }
            })
        }),
        ("export, a line the contract refuses", {
            let program = program.clone();
            Box::new(move || {
                // Every exported rule prompts, and codex exec cannot ask:
                // a line the contract refuses does not run, in or out of
                // the sandbox.
                let world = World::new("codex-export-refused");
                install_export(&world);
                let run = codex(
                    &world,
                    &program,
                    &Setup {
                        trusted: true,
                        sandbox: "danger-full-access",
                    },
                    "touch Refused.txt",
                );
                assert!(!world.exists("Refused.txt"), "the refused line ran:\n{run}");
                assert!(
                    world.told().contains("approval required by policy"),
                    "{}",
                    world.told()
                );
            })
        }),
        ("export and hook, read-only", {
            let program = program.clone();
            Box::new(move || {
                let world = World::new("codex-export-and-hook");
                install_export(&world);
                world.install_hook("codex", &[]);
                let run = codex(&world, &program, &READ_ONLY, "touch allowed.txt");
                assert_eq!(world.verdicts(), ["allow"], "{run}");
                assert!(
                    !world.exists("allowed.txt"),
                    "the line ran outside the sandbox:\n{run}"
                );
                assert!(
                    world.told().contains("approval required by policy"),
                    "{}",
                    world.told()
                );
            })
        }),
    ];
    in_parallel(cases);
}
