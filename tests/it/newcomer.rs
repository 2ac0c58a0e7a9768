//! What a new user trips over, each tried as they would try it.

use crate::assert_session;
use crate::common::Sandbox;

/// A hint that suggests another `aigent schema` command names the registry
/// in use; without `--commands` it would read the built-in one.
#[test]
fn hints_name_the_registry_in_use() {
    let sandbox = Sandbox::new();
    sandbox.write("my commands/broken.json", "{\"name\": \"broken\"");
    let run = sandbox.run(&[
        "--output",
        "text",
        "--commands",
        "my commands",
        "run",
        "broken",
    ]);
    assert_session!(&sandbox, &run);
    let run = sandbox.run(&[
        "--output",
        "text",
        "--commands",
        "my commands",
        "schema",
        "show",
        "nope",
    ]);
    assert_session!("unknown_name", &sandbox, &run);
}

/// The built-in catalog has no file on this machine to point at.
#[test]
fn schema_show_says_where_an_embedded_declaration_comes_from() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--output", "text", "schema", "show", "git-status"]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("built into aigent (from catalog/git-status.json in its source)"),
        "{run}"
    );
    let run = sandbox.run(&["--output", "text", "schema", "show", "files-get"]);
    assert_session!(&sandbox, &run);
    sandbox.write(
        "registry/files-get.yaml",
        include_str!("../../commands/files-get.yaml"),
    );
    let run = sandbox.run(&[
        "--output",
        "text",
        "--commands",
        "registry",
        "schema",
        "show",
        "files-get",
    ]);
    assert_session!("from_a_directory", &sandbox, &run);
}

/// A rejection lists each problem once: the headline no longer repeats
/// the first of them.
#[test]
fn a_text_error_says_each_problem_once() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--output",
        "text",
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "../etc",
        "--version",
        "v1",
    ]);
    assert_session!(&sandbox, &run);
    let run = sandbox.run(&[
        "--output",
        "text",
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "prod",
        "--version",
        "v1",
    ]);
    assert_session!("one_problem", &sandbox, &run);
}

/// `--help` of a command that never reads the registry leaves out
/// `--commands`: it would do nothing there. The flag stays accepted (it is
/// global), and commands that do read the registry (`skill validate`, whose
/// whole help is the snapshot, since it holds grants against the registry)
/// still show it.
#[test]
fn help_leaves_out_the_registry_flag_where_it_does_nothing() {
    let sandbox = Sandbox::new();
    let run = sandbox.text(&["skill", "validate", "--help"]);
    assert_session!(&sandbox, &run);
    for path in [
        &["skill", "new"][..],
        &["skill", "to-prompt"],
        &["plugin", "validate"],
        &["completions"],
    ] {
        let run = sandbox.text(&[path, &["--help"]].concat());
        run.assert_code(0);
        assert!(!run.stdout.contains("--commands"), "{path:?}: {run}");
    }
    // plugin validate's whole help: the formats it speaks (SARIF among
    // them), its exit codes, and no --commands.
    let run = sandbox.text(&["plugin", "validate", "--help"]);
    assert_session!("plugin_validate_help", &sandbox, &run);
    for path in [
        &["schema", "list"][..],
        &["args", "check"],
        &["run"],
        &["mcp", "serve"],
    ] {
        let run = sandbox.text(&[path, &["--help"]].concat());
        run.assert_code(0);
        assert!(run.stdout.contains("--commands <DIR>"), "{path:?}: {run}");
    }
    // The manifest agrees with the help.
    let (_, manifest) = sandbox.json(&["--schema"]);
    let commands = &manifest["data"]["commands"];
    assert!(
        commands["skill.to-prompt"]["flags"]
            .get("commands")
            .is_none()
    );
    assert!(commands["schema.list"]["flags"].get("commands").is_some());
    // Given anyway, it is accepted and ignored.
    sandbox.write(
        "s/demo/SKILL.md",
        "---\nname: demo\ndescription: Demo. Use when testing.\n---\nBody\n",
    );
    let run = sandbox.run(&[
        "--commands",
        "nowhere",
        "--output",
        "json",
        "skill",
        "to-prompt",
        "s/demo",
    ]);
    run.assert_code(0);
}

/// The pre-commit snippet in docs/ci.md names hooks this repository
/// publishes, one repository URL throughout, and a `rev` that cannot name
/// a tag that does not exist (no release is tagged yet).
#[test]
fn the_pre_commit_snippet_names_what_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).expect(path);
    let hooks = read(".pre-commit-hooks.yaml");
    let published: Vec<&str> = hooks
        .lines()
        .filter_map(|line| line.strip_prefix("- id: "))
        .collect();
    assert!(!published.is_empty());
    let guide = read("docs/ci.md");
    let named: Vec<&str> = guide
        .lines()
        .filter_map(|line| {
            let line = line.trim_start().trim_start_matches("# ");
            line.strip_prefix("- id: ")
        })
        .map(|rest| rest.split_whitespace().next().unwrap_or(""))
        .filter(|id| id.starts_with("aigent-skill-validate"))
        .collect();
    assert!(!named.is_empty(), "docs/ci.md names no hook");
    for id in &named {
        assert!(
            published.contains(id),
            "docs/ci.md names hook {id}, which .pre-commit-hooks.yaml lacks"
        );
    }
    let urls = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|line| line.split("repo: ").nth(1))
            .map(|rest| rest.split_whitespace().next().unwrap_or("").to_owned())
            .filter(|url| url != "local")
            .collect()
    };
    let mut all = urls(&guide);
    all.extend(urls(&hooks));
    all.extend(urls(&read("README.md")));
    all.dedup();
    assert_eq!(all.len(), 1, "one repository URL throughout: {all:?}");
    for line in guide
        .lines()
        .filter(|line| line.trim_start().starts_with("rev: "))
    {
        let rev = line.trim_start()["rev: ".len()..]
            .split_whitespace()
            .next()
            .unwrap_or("");
        assert!(
            rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit()),
            "rev must be a full commit hash while no tag exists: {line}"
        );
    }
}

/// The install lines in `aigent completions --help`, run as written on an
/// account that has none of the directories yet, leave a script that bash
/// loads without the bash-completion package.
#[test]
fn completion_install_lines_work_on_a_fresh_account() {
    let sandbox = Sandbox::new();
    let run = sandbox.text(&["completions", "--help"]);
    run.assert_code(0);
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|line| *line != "Examples:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(str::trim)
        .collect();
    assert!(
        lines.iter().any(|line| line.contains("completions bash >")),
        "{lines:?}"
    );
    let home = sandbox.join("fresh home");
    std::fs::create_dir(&home).unwrap();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_aigent"))
        .parent()
        .unwrap();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    for line in &lines {
        // As a user pastes it: through a shell, on the fresh account.
        let output = std::process::Command::new("sh")
            .args(["-c", line])
            .env_clear()
            .env("HOME", &home)
            .env("PATH", &path)
            .current_dir(&home)
            .output()
            .expect("sh");
        assert!(
            output.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    for installed in [
        ".local/share/bash-completion/completions/aigent",
        ".zfunc/_aigent",
        ".config/fish/completions/aigent.fish",
    ] {
        let script = home.join(installed);
        assert!(
            std::fs::metadata(&script).is_ok_and(|meta| meta.len() > 0),
            "{installed} was not written"
        );
    }
    let script = home.join(".local/share/bash-completion/completions/aigent");
    let output = std::process::Command::new("bash")
        .args([
            "--norc",
            "--noprofile",
            "-c",
            "source \"$1\" && complete -p aigent",
            "bash",
        ])
        .arg(&script)
        .env("HOME", &home)
        .env("PATH", &path)
        .output()
        .expect("bash");
    assert!(
        output.status.success() && String::from_utf8_lossy(&output.stdout).contains("aigent"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
