//! `aigent hook install` / `uninstall` through the binary: every client's
//! settings file created, merged into (other keys and comments kept),
//! left alone when already installed, and restored byte for byte by
//! uninstall; dry runs, malformed files, symlinks out of the project, hard
//! links and user scope (HOME in the sandbox).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{Run, Sandbox, snapshot};

const CLIENTS: [&str; 4] = ["claude-code", "codex", "gemini", "cursor"];

fn project_file(client: &str) -> &'static str {
    match client {
        "claude-code" => ".claude/settings.json",
        "codex" => ".codex/config.toml",
        "gemini" => ".gemini/settings.json",
        "cursor" => ".cursor/hooks.json",
        _ => unreachable!(),
    }
}

/// The binary in the sandbox's project directory `proj/`, with the
/// clients' own home overrides removed so nothing reaches the real home.
fn cmd(sandbox: &Sandbox) -> assert_cmd::Command {
    fs::create_dir_all(sandbox.join("proj")).unwrap();
    fs::create_dir_all(sandbox.join("home")).unwrap();
    let mut cmd = sandbox.cmd();
    cmd.current_dir(sandbox.join("proj"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME");
    cmd
}

fn text(sandbox: &Sandbox, args: &[&str]) -> Run {
    Run::of(cmd(sandbox).args(["--output", "text"]).args(args))
}

fn json(sandbox: &Sandbox, args: &[&str]) -> (Run, Value) {
    let run = Run::of(cmd(sandbox).args(["--output", "json"]).args(args));
    let envelope = run.envelope();
    (run, envelope)
}

fn aigent() -> &'static str {
    env!("CARGO_BIN_EXE_aigent")
}

/// The binary's path as the entry writes it (quoted if it must be).
fn entry_program() -> String {
    aigent::hook::install::shell_quote(aigent())
}

/// Sandbox filters, plus the binary's path and backup stamps.
fn filters(sandbox: &Sandbox) -> insta::internals::SettingsBindDropGuard {
    let mut settings = snapshot::settings(sandbox);
    settings.add_filter(&regex_escape(aigent()), "[AIGENT]");
    settings.add_filter(
        r"aigent-backup-\d{8}T\d{6}Z(-\d+)?",
        "aigent-backup-[STAMP]",
    );
    settings.bind_to_scope()
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escape = "\\.+*?()|[]{}^$#&-~".contains(c);
            escape.then_some('\\').into_iter().chain(std::iter::once(c))
        })
        .collect()
}

fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.to_string_lossy().contains(".aigent-backup-"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

#[test]
fn a_fresh_file_for_each_client_and_uninstall_removes_it() {
    let sandbox = Sandbox::new();
    let _filters = filters(&sandbox);
    for client in CLIENTS {
        let (run, envelope) = json(&sandbox, &["hook", "install", "--client", client]);
        run.assert_code(0);
        assert_eq!(envelope["data"]["action"], "created", "{run}");
        assert_eq!(envelope["data"]["backup"], Value::Null);
        let file = sandbox.join("proj").join(project_file(client));
        let content = fs::read_to_string(&file).unwrap();
        insta::assert_snapshot!(format!("fresh_{client}"), content);
        let (run, envelope) = json(&sandbox, &["hook", "uninstall", "--client", client]);
        run.assert_code(0);
        assert_eq!(envelope["data"]["action"], "file_removed", "{run}");
        assert!(!file.exists());
        assert_eq!(backups(file.parent().unwrap()).len(), 1, "{run}");
    }
}

#[test]
fn install_reports_what_it_did_and_how_to_undo_it() {
    let sandbox = Sandbox::new();
    let _filters = filters(&sandbox);
    sandbox.write(
        "proj/.claude/settings.json",
        "{\n  \"model\": \"opus\"\n}\n",
    );
    let commands = sandbox.join("commands");
    fs::create_dir_all(&commands).unwrap();
    let run = text(
        &sandbox,
        &[
            "--commands",
            commands.to_str().unwrap(),
            "hook",
            "install",
            "--client",
            "claude-code",
        ],
    );
    insta::assert_snapshot!(snapshot::session(&run));
    // The envelope of the way back: what changed, the backup, the diff.
    let run = Run::of(cmd(&sandbox).args([
        "--output",
        "json",
        "hook",
        "uninstall",
        "--client",
        "claude-code",
    ]));
    insta::assert_json_snapshot!("uninstall_envelope", snapshot::envelope(&run));
}

/// Files as people have them: other keys, comments where the format allows
/// them, another hook on the same event.
fn existing(client: &str) -> &'static str {
    match client {
        "claude-code" => {
            "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\"Bash(git status:*)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Edit|Write\",\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"prettier --check\" }]\n      }\n    ]\n  }\n}\n"
        }
        "codex" => {
            "# my Codex settings\nmodel = \"gpt-5\" # pinned\n\n[features]\nweb_search = true\n\n[[hooks.PreToolUse]]\nmatcher = \"apply_patch\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"check-patch\" # keep\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n"
        }
        "gemini" => {
            "// Team settings\n{\n  /* the model */\n  \"model\": {\"name\": \"gemini-2.5-pro\"}, // pinned\n  \"hooks\": {\n    \"AfterTool\": [\n      {\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"fmt\"}]}\n    ]\n  }\n}\n"
        }
        "cursor" => {
            "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \"./hooks/format.sh\" }]\n  }\n}\n"
        }
        _ => unreachable!(),
    }
}

#[test]
fn an_existing_file_keeps_everything_else_twice_changes_nothing_and_uninstall_restores_it() {
    let sandbox = Sandbox::new();
    for client in CLIENTS {
        let relative = format!("proj/{}", project_file(client));
        let file = sandbox.write(&relative, existing(client));
        let dir = file.parent().unwrap().to_owned();

        let (run, envelope) = json(&sandbox, &["hook", "install", "--client", client]);
        run.assert_code(0);
        assert_eq!(envelope["data"]["action"], "added", "{run}");
        let installed = fs::read_to_string(&file).unwrap();
        assert!(
            installed.contains(&format!("hook --client {client}")),
            "{installed}"
        );
        // Every original line is still there, in order.
        let mut rest = installed.as_str();
        for line in existing(client)
            .lines()
            .filter(|line| !line.trim().is_empty())
        {
            let trimmed = line.trim_end_matches(',');
            let at = rest
                .find(trimmed)
                .unwrap_or_else(|| panic!("{client}: lost {line:?}:\n{installed}"));
            rest = &rest[at + trimmed.len()..];
        }
        // The backup holds the original bytes.
        let backup = envelope["data"]["backup"].as_str().unwrap();
        assert_eq!(fs::read_to_string(backup).unwrap(), existing(client));
        assert_eq!(backups(&dir).len(), 1);

        // Twice: nothing changes, no second backup.
        let (run, envelope) = json(&sandbox, &["hook", "install", "--client", client]);
        run.assert_code(0);
        assert_eq!(envelope["data"]["action"], "unchanged", "{run}");
        assert_eq!(envelope["data"]["changed"], false);
        assert_eq!(fs::read_to_string(&file).unwrap(), installed);
        assert_eq!(backups(&dir).len(), 1);

        // Uninstall gives back the original bytes.
        let (run, envelope) = json(&sandbox, &["hook", "uninstall", "--client", client]);
        run.assert_code(0);
        assert_eq!(envelope["data"]["action"], "removed", "{run}");
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            existing(client),
            "{client}"
        );

        // And again: nothing to do, said plainly.
        let run = text(&sandbox, &["hook", "uninstall", "--client", client]);
        run.assert_code(0);
        assert!(run.stdout.contains("aigent's hook is not in"), "{run}");
        assert!(run.stdout.contains("nothing to do"), "{run}");
        assert_eq!(fs::read_to_string(&file).unwrap(), existing(client));
    }
}

#[test]
fn the_file_keeps_its_permissions() {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let sandbox = Sandbox::new();
        let file = sandbox.write("proj/.claude/settings.json", "{}\n");
        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        json(&sandbox, &["hook", "install", "--client", "claude-code"])
            .0
            .assert_code(0);
        let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let backup = backups(file.parent().unwrap()).pop().unwrap();
        assert_eq!(
            fs::metadata(backup).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let sandbox = Sandbox::new();
    let _filters = filters(&sandbox);
    let file = sandbox.write("proj/.gemini/settings.json", existing("gemini"));
    let run = text(
        &sandbox,
        &["hook", "install", "--client", "gemini", "--dry-run"],
    );
    insta::assert_snapshot!(snapshot::session(&run));
    assert_eq!(fs::read_to_string(&file).unwrap(), existing("gemini"));
    assert!(backups(file.parent().unwrap()).is_empty());

    // Nothing there yet: no directory is created either.
    let run = text(
        &sandbox,
        &["hook", "install", "--client", "codex", "--dry-run"],
    );
    run.assert_code(0);
    assert!(
        run.stdout
            .starts_with("--- /dev/null\n+++ b/.codex/config.toml\n"),
        "{run}"
    );
    assert!(!sandbox.join("proj/.codex").exists());

    // Uninstall too.
    json(&sandbox, &["hook", "install", "--client", "gemini"])
        .0
        .assert_code(0);
    let installed = fs::read_to_string(&file).unwrap();
    let (run, envelope) = json(
        &sandbox,
        &["hook", "uninstall", "--client", "gemini", "--dry-run"],
    );
    run.assert_code(0);
    assert_eq!(envelope["data"]["dry_run"], true);
    assert_eq!(envelope["data"]["action"], "removed");
    assert!(
        envelope["data"]["diff"]
            .as_str()
            .unwrap()
            .contains("-            \"name\": \"aigent\",")
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), installed);
}

#[test]
fn malformed_files_are_named_with_their_line_and_left_alone() {
    let sandbox = Sandbox::new();
    let cases = [
        ("claude-code", "{\n  \"model\": \"opus\",\n}\n", 3, 1),
        (
            "claude-code",
            "{\n  // a comment\n  \"model\": \"opus\"\n}\n",
            2,
            3,
        ),
        (
            "claude-code",
            "{\"hooks\": [\"not\", \"an object\"]}",
            1,
            11,
        ),
        ("codex", "model = \"gpt-5\"\n[hooks\n", 2, 7),
        ("codex", "hooks = \"on\"\n", 1, 9),
        ("gemini", "{\"hooks\": {\"BeforeTool\": {}}}", 1, 26),
        (
            "cursor",
            "{\"version\": 1, \"hooks\": {\"beforeShellExecution\": \"x\"}}",
            1,
            50,
        ),
    ];
    for (client, content, line, column) in cases {
        let file = sandbox.write(format!("proj/{}", project_file(client)), content);
        for verb in ["install", "uninstall"] {
            let (run, envelope) = json(&sandbox, &["hook", verb, "--client", client]);
            run.assert_code(4);
            let error = &envelope["error"];
            assert_eq!(error["code"], "CLIENT_SETTINGS_INVALID", "{run}");
            assert_eq!(error["line"], line, "{client} {content:?}: {run}");
            assert_eq!(error["column"], column, "{client} {content:?}: {run}");
            assert_eq!(error["file"], file.to_str().unwrap());
            assert_eq!(fs::read_to_string(&file).unwrap(), content);
            assert!(backups(file.parent().unwrap()).is_empty());
        }
    }
    sandbox.write("proj/.claude/settings.json", "{\n  // a comment\n}\n");
    let run = text(&sandbox, &["hook", "install", "--client", "claude-code"]);
    assert!(
        run.stderr
            .contains(":2:3: a comment; this client reads its settings as plain JSON"),
        "{run}"
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_project_is_reported_and_left_alone() {
    use std::os::unix::fs::symlink;
    let sandbox = Sandbox::new();
    let outside = sandbox.write("outside/settings.json", "{}\n");
    fs::create_dir_all(sandbox.join("proj/.claude")).unwrap();
    symlink(&outside, sandbox.join("proj/.claude/settings.json")).unwrap();
    // The directory on the way, too.
    fs::create_dir_all(sandbox.join("outside/gemini")).unwrap();
    symlink(sandbox.join("outside/gemini"), sandbox.join("proj/.gemini")).unwrap();
    for client in ["claude-code", "gemini"] {
        for verb in ["install", "uninstall"] {
            let (run, envelope) = json(&sandbox, &["hook", verb, "--client", client]);
            run.assert_code(4);
            assert_eq!(envelope["error"]["code"], "UNSAFE_WRITE", "{run}");
            assert!(
                envelope["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("outside the project"),
                "{run}"
            );
        }
    }
    assert_eq!(fs::read_to_string(&outside).unwrap(), "{}\n");
    assert_eq!(
        fs::read_dir(sandbox.join("outside/gemini"))
            .unwrap()
            .count(),
        0
    );
    assert!(backups(&sandbox.join("outside")).is_empty());

    // A dangling link is refused too.
    symlink(sandbox.join("nowhere"), sandbox.join("proj/.cursor")).unwrap();
    let (run, envelope) = json(&sandbox, &["hook", "install", "--client", "cursor"]);
    run.assert_code(4);
    assert_eq!(envelope["error"]["code"], "UNSAFE_WRITE", "{run}");

    // User scope follows links (dotfiles managers): the target is edited
    // and the link stays.
    let dotfiles = sandbox.write("dotfiles/claude.json", "{\"model\": \"opus\"}\n");
    fs::create_dir_all(sandbox.join("home/.claude")).unwrap();
    symlink(&dotfiles, sandbox.join("home/.claude/settings.json")).unwrap();
    let (run, envelope) = json(
        &sandbox,
        &[
            "hook",
            "install",
            "--client",
            "claude-code",
            "--scope",
            "user",
        ],
    );
    run.assert_code(0);
    assert_eq!(
        envelope["data"]["target"],
        fs::canonicalize(&dotfiles).unwrap().to_str().unwrap()
    );
    assert!(
        fs::symlink_metadata(sandbox.join("home/.claude/settings.json"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&dotfiles)
            .unwrap()
            .contains("hook --client claude-code")
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_inside_the_project_is_followed_and_kept() {
    use std::os::unix::fs::symlink;
    let sandbox = Sandbox::new();
    let shared = sandbox.write("proj/config/claude.json", "{}\n");
    fs::create_dir_all(sandbox.join("proj/.claude")).unwrap();
    symlink(
        "../config/claude.json",
        sandbox.join("proj/.claude/settings.json"),
    )
    .unwrap();
    let (run, _) = json(&sandbox, &["hook", "install", "--client", "claude-code"]);
    run.assert_code(0);
    let link = sandbox.join("proj/.claude/settings.json");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&shared)
            .unwrap()
            .contains("hook --client claude-code")
    );
    assert_eq!(backups(&sandbox.join("proj/config")).len(), 1);
}

#[cfg(unix)]
#[test]
fn a_hard_link_is_refused_unless_forced() {
    let sandbox = Sandbox::new();
    let other = sandbox.write("elsewhere/settings.json", "{}\n");
    fs::create_dir_all(sandbox.join("proj/.cursor")).unwrap();
    let file = sandbox.join("proj/.cursor/hooks.json");
    fs::hard_link(&other, &file).unwrap();
    let (run, envelope) = json(&sandbox, &["hook", "install", "--client", "cursor"]);
    run.assert_code(4);
    assert_eq!(envelope["error"]["code"], "UNSAFE_WRITE", "{run}");
    assert!(
        envelope["error"]["hints"][0]
            .as_str()
            .unwrap()
            .contains("--force"),
        "{run}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "{}\n");

    let (run, _) = json(
        &sandbox,
        &["hook", "install", "--client", "cursor", "--force"],
    );
    run.assert_code(0);
    assert!(
        fs::read_to_string(&file)
            .unwrap()
            .contains("hook --client cursor")
    );
    // The link is broken: the other name keeps the old content.
    assert_eq!(fs::read_to_string(&other).unwrap(), "{}\n");
}

#[test]
fn not_a_regular_file_is_refused() {
    let sandbox = Sandbox::new();
    fs::create_dir_all(sandbox.join("proj/.claude/settings.json")).unwrap();
    let (run, envelope) = json(&sandbox, &["hook", "install", "--client", "claude-code"]);
    run.assert_code(4);
    assert_eq!(envelope["error"]["code"], "UNSAFE_WRITE", "{run}");
}

#[test]
fn user_scope_writes_under_home_and_the_clients_own_overrides() {
    let sandbox = Sandbox::new();
    for client in CLIENTS {
        let (run, envelope) = json(
            &sandbox,
            &["hook", "install", "--client", client, "--scope", "user"],
        );
        run.assert_code(0);
        let expected = sandbox.join("home").join(project_file(client));
        assert_eq!(
            envelope["data"]["file"],
            expected.to_str().unwrap(),
            "{run}"
        );
        assert!(expected.is_file());
        assert_eq!(
            envelope["data"]["undo"],
            format!("aigent hook uninstall --client {client} --scope user")
        );
    }
    assert!(!sandbox.join("proj/.claude").exists());
    // CLAUDE_CONFIG_DIR and CODEX_HOME move the user files, as the clients do.
    let run = Run::of(
        cmd(&sandbox)
            .env("CLAUDE_CONFIG_DIR", sandbox.join("cc"))
            .env("CODEX_HOME", sandbox.join("cx"))
            .args([
                "--output",
                "json",
                "hook",
                "install",
                "--client",
                "claude-code",
                "--scope",
                "user",
            ]),
    );
    run.assert_code(0);
    assert!(sandbox.join("cc/settings.json").is_file(), "{run}");
    let run = Run::of(cmd(&sandbox).env("CODEX_HOME", sandbox.join("cx")).args([
        "--output", "json", "hook", "install", "--client", "codex", "--scope", "user",
    ]));
    run.assert_code(0);
    assert!(sandbox.join("cx/config.toml").is_file(), "{run}");
}

#[test]
fn another_aigent_entry_is_a_conflict_until_replaced() {
    let sandbox = Sandbox::new();
    let commands = sandbox.join("commands");
    fs::create_dir_all(&commands).unwrap();
    json(&sandbox, &["hook", "install", "--client", "codex"])
        .0
        .assert_code(0);
    let file = sandbox.join("proj/.codex/config.toml");
    let before = fs::read_to_string(&file).unwrap();
    let with_registry = [
        "--commands",
        commands.to_str().unwrap(),
        "hook",
        "install",
        "--client",
        "codex",
    ];
    let (run, envelope) = json(&sandbox, &with_registry);
    run.assert_code(6);
    assert_eq!(envelope["error"]["code"], "CONFLICT");
    assert_eq!(
        envelope["error"]["existing_command"],
        format!("{} hook --client codex", entry_program())
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), before);

    let mut replace = with_registry.to_vec();
    replace.push("--replace");
    let (run, envelope) = json(&sandbox, &replace);
    run.assert_code(0);
    assert_eq!(envelope["data"]["action"], "replaced");
    assert_eq!(
        envelope["data"]["replaced"],
        format!("{} hook --client codex", entry_program())
    );
    let after = fs::read_to_string(&file).unwrap();
    assert_eq!(
        after,
        before.replace(
            "hook --client codex",
            &format!(
                "--commands {} hook --client codex",
                aigent::hook::install::shell_quote(
                    &fs::canonicalize(&commands).unwrap().to_string_lossy()
                )
            )
        )
    );
}

#[test]
fn bad_targets_are_usage_or_not_found() {
    let sandbox = Sandbox::new();
    let (run, envelope) = json(
        &sandbox,
        &[
            "hook",
            "install",
            "--client",
            "claude-code",
            "--project",
            "missing",
        ],
    );
    run.assert_code(5);
    assert_eq!(envelope["error"]["code"], "NOT_FOUND");
    let (run, _) = json(
        &sandbox,
        &[
            "hook",
            "install",
            "--client",
            "claude-code",
            "--scope",
            "user",
            "--project",
            ".",
        ],
    );
    run.assert_code(2);
    let (run, _) = json(
        &sandbox,
        &[
            "--commands",
            "no-such-dir",
            "hook",
            "install",
            "--client",
            "claude-code",
        ],
    );
    run.assert_code(5);
    let (run, _) = json(&sandbox, &["hook", "install", "--client", "vim"]);
    run.assert_code(2);
    // --project names another directory; undo repeats it.
    fs::create_dir_all(sandbox.join("other")).unwrap();
    let (run, envelope) = json(
        &sandbox,
        &[
            "hook",
            "install",
            "--client",
            "cursor",
            "--project",
            "../other",
        ],
    );
    run.assert_code(0);
    assert!(sandbox.join("other/.cursor/hooks.json").is_file(), "{run}");
    assert!(
        envelope["data"]["undo"]
            .as_str()
            .unwrap()
            .contains("--project"),
        "{run}"
    );
}

#[test]
fn uninstall_removes_only_what_install_added() {
    let sandbox = Sandbox::new();
    json(&sandbox, &["hook", "install", "--client", "claude-code"])
        .0
        .assert_code(0);
    let file = sandbox.join("proj/.claude/settings.json");
    // The user edits around aigent's entry: another handler in its group,
    // another setting.
    let mut settings: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    settings["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"type": "command", "command": "log-bash"}));
    settings["model"] = "opus".into();
    fs::write(&file, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    json(&sandbox, &["hook", "uninstall", "--client", "claude-code"])
        .0
        .assert_code(0);
    let left: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        left,
        serde_json::json!({
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "log-bash"}]}]},
            "model": "opus"
        })
    );
}

#[test]
fn the_installed_entry_runs_this_binarys_hook() {
    // The command the client will run names this very binary, as an
    // absolute path, and the client subcommand.
    let sandbox = Sandbox::new();
    for client in CLIENTS {
        let (run, envelope) = json(
            &sandbox,
            &["hook", "install", "--client", client, "--dry-run"],
        );
        run.assert_code(0);
        let command = envelope["data"]["command"].as_str().unwrap();
        assert_eq!(
            command,
            format!("{} hook --client {client}", entry_program())
        );
        assert!(Path::new(aigent()).is_absolute());
    }
}

#[test]
fn codex_warns_when_the_layer_also_has_a_hooks_json() {
    let sandbox = Sandbox::new();
    sandbox.write("proj/.codex/hooks.json", "{\"hooks\": {}}\n");
    let (run, envelope) = json(&sandbox, &["hook", "install", "--client", "codex"]);
    run.assert_code(0);
    let warnings = envelope["warnings"].to_string();
    assert!(warnings.contains("hooks.json exists too"), "{run}");
}
