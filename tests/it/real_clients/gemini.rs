//! Gemini CLI (`gemini -p`, headless) with aigent's `BeforeTool` hook, and
//! with the policy `schema export --to gemini-policy` writes.

use std::path::Path;
use std::time::Duration;

use super::{
    Cases, ClientRun, LIMIT, Runner, World, in_parallel, installed, run_client, server,
    verdict_cases, zero_config_cases,
};

/// `~/.gemini/settings.json`: an API key's authentication (the fake
/// server's), no usage statistics, telemetry or update checks.
const SETTINGS: &str = r#"{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
}
"#;

/// `gemini -p PROMPT` proposing `command`, in `approval` mode, stopped
/// after `limit`. The model is named, so that no routing request asks the
/// fake server to choose one; the workspace is trusted through the
/// environment (a project's settings, and so its hooks, are read only in a
/// trusted folder; `--skip-trust` does not read them).
fn gemini_within(
    world: &World,
    program: &Path,
    approval: &str,
    command: &str,
    limit: Duration,
) -> ClientRun {
    let settings = world.home().join(".gemini/settings.json");
    if !settings.exists() {
        world.sandbox.write("home/.gemini/settings.json", SETTINGS);
    }
    let mut cmd = world.client_command(program);
    cmd.env("GEMINI_API_KEY", "aigent-test")
        .env("GOOGLE_GEMINI_BASE_URL", server().base_url())
        .env("GEMINI_CLI_NO_RELAUNCH", "true")
        .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
        .args([
            "-p",
            &world.prompt(command),
            "--output-format",
            "json",
            "--model",
            "gemini-2.5-flash",
            "--approval-mode",
            approval,
        ]);
    run_client(cmd, limit)
}

fn gemini(world: &World, program: &Path, approval: &str, command: &str) -> ClientRun {
    let run = gemini_within(world, program, approval, command, LIMIT);
    assert!(!run.timed_out, "gemini did not finish:\n{run}");
    run
}

#[test]
fn gemini_cli_honours_each_verdict_headless() {
    let Some(program) = installed("gemini") else {
        return;
    };
    let mut cases: Cases = vec![
        ("ask, headless entry", {
            let program = program.clone();
            Box::new(move || {
                let world = World::new("gemini-ask-headless");
                world.install_hook("gemini", &["--headless"]);
                world.sandbox.write("project/doomed.txt", "");
                let run = gemini(&world, &program, "yolo", "rm doomed.txt");
                assert!(world.exists("doomed.txt"), "the asked line ran:\n{run}");
                assert_eq!(world.verdicts(), ["ask"], "{run}");
                let told = world.told();
                assert!(
                    told.contains("aigent: ask `rm doomed.txt`")
                        && told.contains("no person can answer"),
                    "the model was told: {told}"
                );
                assert_eq!(run.code, Some(0), "{run}");
            })
        }),
        ("ask, interactive entry", {
            let program = program.clone();
            Box::new(move || {
                // Without --headless, Gemini CLI turns the ask into its own
                // confirmation, which nobody answers headless: nothing
                // runs, the model is never told, and the run ends without
                // its answer (or never ends: it is stopped here).
                let world = World::new("gemini-ask-interactive");
                world.install_hook("gemini", &[]);
                world.sandbox.write("project/doomed.txt", "");
                let run = gemini_within(
                    &world,
                    &program,
                    "yolo",
                    "rm doomed.txt",
                    Duration::from_secs(60),
                );
                assert!(world.exists("doomed.txt"), "the asked line ran:\n{run}");
                assert_eq!(world.verdicts(), ["ask"], "{run}");
                assert_eq!(world.told(), "", "{run}");
                assert!(!run.stdout.contains("\"response\""), "{run}");
            })
        }),
        ("round trip", {
            let program = program.clone();
            Box::new(move || {
                let world = World::new("gemini-round-trip");
                let original = "{\n  // the project's own settings\n  \"context\": {\"fileName\": \"GEMINI.md\"}\n}\n";
                world
                    .sandbox
                    .write("project/.gemini/settings.json", original);
                world.install_hook("gemini", &[]);
                let run = gemini(&world, &program, "yolo", "touch Denied.txt");
                assert_eq!(
                    world.verdicts(),
                    ["deny"],
                    "the installed hook did not run:\n{run}"
                );
                let removed = world.aigent(&["hook", "uninstall", "--client", "gemini"]);
                assert_eq!(removed.code, 0, "{removed}");
                let after =
                    std::fs::read_to_string(world.project().join(".gemini/settings.json")).unwrap();
                assert_eq!(after, original, "uninstall did not give the bytes back");
                let run = gemini(&world, &program, "yolo", "touch Denied.txt");
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
                // Gemini CLI blocks the call when its hook cannot start.
                let world = World::new("gemini-missing-binary");
                let missing = world.join("gone/aigent");
                world.install_hook(
                    "gemini",
                    &["--program", missing.to_str().expect("UTF-8 temp path")],
                );
                let run = gemini(&world, &program, "yolo", "touch allowed.txt");
                assert!(!world.exists("allowed.txt"), "{run}");
                assert!(world.told().contains("gone/aigent"), "{}", world.told());
                world.assert_doctor_finds_missing("gemini", "blocks every shell command");
            })
        }),
    ];
    let runner: Runner = std::sync::Arc::new(move |world: &World, command: &str| {
        gemini(world, &program, "yolo", command)
    });
    cases.extend(verdict_cases("gemini", "gemini", runner.clone()));
    cases.extend(zero_config_cases("gemini", &[], runner));
    in_parallel(cases);
}

/// The policy `schema export --to gemini-policy` writes, installed as the
/// user's `~/.gemini/policies/aigent.toml`.
fn install_export(world: &World) {
    let policy = world.home().join(".gemini/policies/aigent.toml");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    let run = world.aigent(&[
        "schema",
        "export",
        "--to",
        "gemini-policy",
        "--out-file",
        policy.to_str().expect("UTF-8 temp path"),
    ]);
    assert_eq!(run.code, 0, "{run}");
}

#[test]
fn gemini_cli_with_the_exported_policy_in_default_mode() {
    let Some(program) = installed("gemini") else {
        return;
    };
    let cases: Cases = vec![
        ("no policy", {
            let program = program.clone();
            Box::new(move || {
                // Headless in the default mode, Gemini CLI does not offer
                // its shell tool at all unless a policy allows some command.
                let world = World::new("gemini-default-no-policy");
                world.install_hook("gemini", &["--headless"]);
                let run = gemini(&world, &program, "default", "touch allowed.txt");
                assert!(!world.proposed(), "the shell tool was offered:\n{run}");
                assert!(!world.exists("allowed.txt"), "{run}");
            })
        }),
        ("allowed line", {
            let program = program.clone();
            Box::new(move || {
                let world = World::new("gemini-export-allowed");
                install_export(&world);
                world.install_hook("gemini", &["--headless"]);
                let run = gemini(&world, &program, "default", "mkdir -p -- made");
                assert!(
                    world.exists("made"),
                    "the allowed line did not run: {}\n{run}",
                    world.told()
                );
                assert_eq!(world.verdicts(), ["allow"], "{run}");
            })
        }),
        ("refused line, hook", {
            let program = program.clone();
            Box::new(move || {
                // The exported rule allows `mkdir -p -- …` whole; the hook
                // refuses what the contract refuses.
                let world = World::new("gemini-export-refused-hook");
                install_export(&world);
                world.install_hook("gemini", &["--headless"]);
                let run = gemini(&world, &program, "default", "mkdir -p -- Refused");
                assert!(!world.exists("Refused"), "the refused line ran:\n{run}");
                assert_eq!(world.verdicts(), ["deny"], "{run}");
                assert!(world.told().contains("aigent: deny"), "{}", world.told());
            })
        }),
        ("refused line, no hook", {
            let program = program.clone();
            Box::new(move || {
                // What the report says: without the hook, the prefix rule
                // runs a line the contract refuses, without asking.
                let world = World::new("gemini-export-refused-alone");
                install_export(&world);
                let run = gemini(&world, &program, "default", "mkdir -p -- Refused");
                assert!(world.exists("Refused"), "{run}");
            })
        }),
        ("a program-only rule asks, headless", {
            let program = program.clone();
            Box::new(move || {
                // `touch`'s rule would hold the program alone, so it asks
                // (ask_user), which a headless run refuses, in the default
                // and the yolo mode alike.
                for (id, approval) in [
                    ("gemini-export-ask-default", "default"),
                    ("gemini-export-ask-yolo", "yolo"),
                ] {
                    let world = World::new(id);
                    install_export(&world);
                    let run = gemini(&world, &program, approval, "touch allowed.txt");
                    assert!(!world.exists("allowed.txt"), "{approval}: {run}");
                    assert!(
                        world
                            .told()
                            .contains("not supported in non-interactive mode"),
                        "{approval}: {}\n{run}",
                        world.told()
                    );
                }
            })
        }),
    ];
    in_parallel(cases);
}
