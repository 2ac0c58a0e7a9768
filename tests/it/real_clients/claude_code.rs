//! Claude Code (`claude -p`, headless) with aigent's `PreToolUse` hook.

use std::path::Path;

use super::{
    Cases, ClientRun, LIMIT, Runner, World, in_parallel, installed, run_client, server,
    verdict_cases, zero_config_cases,
};

/// `claude -p PROMPT` proposing `command`, with `extra` arguments.
fn claude(world: &World, program: &Path, command: &str, extra: &[&str]) -> ClientRun {
    let mut cmd = world.client_command(program);
    cmd.env("CLAUDE_CONFIG_DIR", world.join("claude-config"))
        .env("ANTHROPIC_BASE_URL", server().base_url())
        .env("ANTHROPIC_API_KEY", "sk-ant-aigent-test")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .args(["-p", &world.prompt(command), "--output-format", "json"])
        .args(extra);
    let run = run_client(cmd, LIMIT);
    assert!(!run.timed_out, "claude did not finish:\n{run}");
    run
}

#[test]
fn claude_code_honours_each_verdict_headless() {
    let Some(program) = installed("claude") else {
        return;
    };
    let mut cases: Cases = vec![("ask", {
        let program = program.clone();
        Box::new(move || {
            // Headless, an ask is a refusal, and the reason reaches the
            // model (there is no person to show it to).
            let world = World::new("claude-ask");
            world.install_hook("claude-code", &[]);
            world.sandbox.write("project/doomed.txt", "");
            let run = claude(&world, &program, "rm doomed.txt", &[]);
            assert!(world.exists("doomed.txt"), "the asked line ran:\n{run}");
            assert_eq!(world.verdicts(), ["ask"], "{run}");
            let told = world.told();
            assert!(
                told.contains("aigent: ask `rm doomed.txt`") && told.contains("[rule destructive]"),
                "the model was told: {told}"
            );
        })
    })];
    let runner: Runner = std::sync::Arc::new(move |world: &World, command: &str| {
        claude(world, &program, command, &[])
    });
    cases.extend(verdict_cases("claude", "claude-code", runner.clone()));
    cases.extend(zero_config_cases("claude-code", &[], runner));
    in_parallel(cases);
}

#[test]
fn claude_code_install_and_uninstall_round_trip() {
    let Some(program) = installed("claude") else {
        return;
    };
    let world = World::new("claude-round-trip");
    let original = "{\n  \"cleanupPeriodDays\": 30,\n  \"permissions\": {\n    \"deny\": [\"Read(./secrets/**)\"]\n  }\n}\n";
    world
        .sandbox
        .write("project/.claude/settings.json", original);
    world.install_hook("claude-code", &[]);
    let run = claude(&world, &program, "touch Denied.txt", &[]);
    assert_eq!(
        world.verdicts(),
        ["deny"],
        "the installed hook did not run:\n{run}"
    );
    let removed = world.aigent(&["hook", "uninstall", "--client", "claude-code"]);
    assert_eq!(removed.code, 0, "{removed}");
    let after = std::fs::read_to_string(world.project().join(".claude/settings.json")).unwrap();
    assert_eq!(after, original, "uninstall did not give the bytes back");
    let run = claude(&world, &program, "touch Denied.txt", &[]);
    assert_eq!(
        world.verdicts(),
        ["deny"],
        "the uninstalled hook still ran:\n{run}"
    );
}

#[test]
fn claude_code_runs_commands_unguarded_when_the_hook_program_is_missing() {
    let Some(program) = installed("claude") else {
        return;
    };
    // Where the person has allowed `touch`, the hook is the only guard: it
    // refuses what the contract refuses, even over the allow rule…
    let guarded = World::new("claude-guarded");
    guarded.install_hook("claude-code", &[]);
    let run = claude(
        &guarded,
        &program,
        "touch Unguarded.txt",
        &["--allowedTools", "Bash(touch:*)"],
    );
    assert!(!guarded.exists("Unguarded.txt"), "{run}");
    // …but a hook that cannot start is not a refusal in Claude Code (only
    // exit 2 blocks), so the same line runs, and only `hook doctor` says so.
    let world = World::new("claude-missing-binary");
    let missing = world.join("gone/aigent");
    world.install_hook(
        "claude-code",
        &["--program", missing.to_str().expect("UTF-8 temp path")],
    );
    let run = claude(
        &world,
        &program,
        "touch Unguarded.txt",
        &["--allowedTools", "Bash(touch:*)"],
    );
    assert!(
        world.exists("Unguarded.txt"),
        "expected the line to run unguarded:\n{run}"
    );
    assert!(world.decisions().is_empty());
    world.assert_doctor_finds_missing("claude-code", "runs every shell command unguarded");
}
