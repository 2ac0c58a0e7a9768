//! Completions and aigent's own manifest, as a shell or an agent sees them.

use crate::common::{Run, Sandbox, copy_executable};
use serde_json::Value;

const SHELLS: [&str; 5] = ["bash", "zsh", "fish", "powershell", "elvish"];

#[test]
fn every_shell_gets_a_non_trivial_script_both_ways() {
    let sandbox = Sandbox::new();
    for shell in SHELLS {
        for extra in [None, Some("--static")] {
            let mut args = vec!["completions"];
            args.extend(extra);
            args.push(shell);
            let run = sandbox.run(&args);
            run.assert_code(0);
            assert!(
                run.stdout.len() > 200,
                "{shell} {extra:?} script is too short:\n{run}"
            );
            assert!(run.stdout.contains("aigent"), "{run}");
        }
    }
    let static_bash = sandbox.run(&["completions", "--static", "bash"]);
    assert!(
        static_bash.stdout.contains("validate"),
        "static scripts know the subcommands"
    );
}

fn bash_available() -> bool {
    std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_ok()
}

#[test]
fn bash_loads_both_scripts() {
    if !bash_available() {
        eprintln!("bash is not installed; nothing to load the script into");
        return;
    }
    let binary = assert_cmd::cargo::cargo_bin("aigent");
    for flag in ["", "--static"] {
        let script = format!(
            "source <('{bin}' completions {flag} bash) && complete -p aigent",
            bin = binary.display()
        );
        let output = std::process::Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &script])
            .output()
            .expect("run bash");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "bash failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            stdout.contains("complete") && stdout.contains("aigent"),
            "{stdout}"
        );
    }
}

/// What the registration script runs at each TAB, for the word at `index`.
fn complete(sandbox: &Sandbox, words: &[&str], registry: Option<&std::path::Path>) -> Vec<String> {
    let mut cmd = sandbox.cmd();
    cmd.env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
        .env("_CLAP_IFS", "\n")
        .arg("--")
        .args(words);
    if let Some(registry) = registry {
        cmd.env("AIGENT_COMMANDS", registry);
    }
    let run = Run::of(&mut cmd);
    run.assert_code(0);
    run.stdout.lines().map(str::to_owned).collect()
}

#[test]
fn dynamic_completion_offers_declared_names_from_the_active_registry() {
    let sandbox = Sandbox::bare();
    sandbox.write(
        "registry/frobnicate-widgets.json",
        r#"{"name": "frobnicate-widgets", "description": "Frobnicate", "danger_level": "mutating", "parameters": {
            "widget-id": {"type": "string", "required": true, "description": "Which widget", "pattern_type": "alphanumeric_id"}}}"#,
    );
    let registry = sandbox.join("registry");
    let names = complete(&sandbox, &["aigent", "schema", "show", ""], Some(&registry));
    assert!(
        names.contains(&"frobnicate-widgets".to_owned()),
        "{names:?}"
    );
    assert!(
        names.contains(&"git-status".to_owned()),
        "the catalog under it: {names:?}"
    );
    assert!(
        !names.contains(&"deploy".to_owned()),
        "only the active registry: {names:?}"
    );

    let names = complete(
        &sandbox,
        &["aigent", "args", "check", "frob"],
        Some(&registry),
    );
    assert_eq!(names, ["frobnicate-widgets"]);

    let flags = complete(
        &sandbox,
        &["aigent", "args", "check", "frobnicate-widgets", "--wid"],
        Some(&registry),
    );
    assert_eq!(flags, ["--widget-id"]);
}

/// `--commands DIR` typed on the line wins over the environment, wherever
/// it sits, for names and for the declared flags.
#[test]
fn dynamic_completion_honours_commands_on_the_line() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "on the line/frobnicate-widgets.json",
        r#"{"name": "frobnicate-widgets", "description": "Frobnicate", "danger_level": "mutating", "parameters": {
            "widget-id": {"type": "string", "required": true, "description": "Which widget", "pattern_type": "alphanumeric_id"}}}"#,
    );
    sandbox.write(
        "from env/other.json",
        r#"{"name": "other", "description": "Other", "danger_level": "mutating", "parameters": {}}"#,
    );
    let env_registry = sandbox.join("from env");
    let names = complete(
        &sandbox,
        &["aigent", "--commands", "on the line", "schema", "show", ""],
        Some(&env_registry),
    );
    assert!(
        names.contains(&"frobnicate-widgets".to_owned()),
        "{names:?}"
    );
    assert!(!names.contains(&"other".to_owned()), "{names:?}");
    let names = complete(
        &sandbox,
        &["aigent", "run", "--commands=on the line", "frob"],
        None,
    );
    assert_eq!(names, ["frobnicate-widgets"]);
    let flags = complete(
        &sandbox,
        &[
            "aigent",
            "--commands",
            "on the line",
            "args",
            "check",
            "frobnicate-widgets",
            "--wid",
        ],
        None,
    );
    assert_eq!(flags, ["--widget-id"]);
}

#[test]
fn dynamic_completion_reads_the_built_in_registry_by_default() {
    let sandbox = Sandbox::new();
    let names = complete(&sandbox, &["aigent", "schema", "show", "dep"], None);
    assert_eq!(names, ["deploy"]);
    let flags = complete(
        &sandbox,
        &["aigent", "args", "check", "deploy", "--clu"],
        None,
    );
    assert_eq!(flags, ["--cluster-id"]);
}

fn manifest(sandbox: &Sandbox, args: &[&str]) -> Value {
    let (run, envelope) = sandbox.json(args);
    run.assert_code(0);
    envelope["data"].clone()
}

#[test]
fn the_manifest_lists_every_subcommand_with_flags_exit_codes_and_an_etag() {
    let sandbox = Sandbox::new();
    let data = manifest(&sandbox, &["--schema"]);
    assert_eq!(data["schema_version"], "1.0");
    assert_eq!(data["framework_version"], env!("CARGO_PKG_VERSION"));
    let etag = data["etag"].as_str().expect("etag");
    assert!(
        etag.starts_with("sha256:") && etag.len() == 7 + 64,
        "{etag}"
    );
    let commands = data["commands"].as_object().expect("commands map");
    // Every subcommand `--help` lists is in the manifest, and no hidden one.
    let help = sandbox.text(&["--help"]);
    for group in ["skill", "schema", "args", "completions"] {
        assert!(help.stdout.contains(group), "{help}");
        assert!(commands.contains_key(group), "manifest lacks `{group}`");
    }
    assert!(!commands.contains_key("generate"));
    for leaf in [
        "skill.validate",
        "skill.read-properties",
        "skill.to-prompt",
        "schema.list",
        "schema.show",
        "schema.lint",
        "args.check",
    ] {
        let entry = &commands[leaf];
        assert!(
            entry["description"]
                .as_str()
                .is_some_and(|text| !text.is_empty()),
            "{leaf}"
        );
        assert!(
            ["safe", "mutating", "destructive"].contains(&entry["danger_level"].as_str().unwrap()),
            "{leaf}"
        );
        assert!(entry["exit_codes"]["0"]["name"] == "SUCCESS", "{leaf}");
        // The same call fails again until its usage is fixed (the spec's
        // meaning of retryable).
        assert!(entry["exit_codes"]["2"]["retryable"] == false, "{leaf}");
        assert!(entry["flags"]["output"]["type"] == "enum", "{leaf}");
    }
    let validate = &commands["skill.validate"]["flags"];
    assert_eq!(validate["recursive"]["type"], "boolean");
    assert_eq!(validate["recursive"]["required"], false);
    // No default: without --profile, each skill's place decides.
    assert!(validate["profile"].get("default").is_none(), "{validate:#}");
    assert_eq!(validate["profile"]["type"], "enum");
    let (_, envelope) = sandbox.json(&["--schema"]);
    assert_eq!(
        envelope["meta"]["positionals"]["args.check"]["NAME"]["required"],
        true
    );
}

#[test]
fn a_subcommand_schema_prints_one_entry_even_without_its_required_arguments() {
    let sandbox = Sandbox::new();
    let whole = manifest(&sandbox, &["--schema"]);
    for (args, key) in [
        (vec!["skill", "validate", "--schema"], "skill.validate"),
        (vec!["args", "check", "--schema"], "args.check"),
        (vec!["schema", "--schema"], "schema"),
    ] {
        let data = manifest(&sandbox, &args);
        let commands = data["commands"].as_object().unwrap();
        assert_eq!(commands.keys().collect::<Vec<_>>(), [key]);
        assert_eq!(commands[key], whole["commands"][key]);
        assert_eq!(
            data["etag"], whole["etag"],
            "the etag names the whole manifest"
        );
    }
}

#[test]
fn the_manifest_is_deterministic() {
    let sandbox = Sandbox::new();
    let first = manifest(&sandbox, &["--schema"]);
    let second = manifest(&sandbox, &["--schema"]);
    assert_eq!(first, second);
}

#[test]
fn version_names_the_commit_when_built_from_git() {
    let sandbox = Sandbox::new();
    let short = sandbox.run(&["-V"]);
    short.assert_code(0);
    assert_eq!(
        short.stdout.trim(),
        format!("aigent {}", env!("CARGO_PKG_VERSION"))
    );
    let long = sandbox.run(&["--version"]);
    long.assert_code(0);
    assert!(
        long.stdout
            .starts_with(&format!("aigent {}", env!("CARGO_PKG_VERSION"))),
        "{long}"
    );
}

#[test]
fn github_format_prints_workflow_commands_for_each_finding() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "skills/Bad-Skill/SKILL.md",
        "---\nname: Bad-Skill\ndescription: Uses <b>tags</b>, 100% sure\nextra-key: 1\n---\nbody\n",
    );
    sandbox.write(
        "skills/good/SKILL.md",
        "---\nname: good\ndescription: Does good things. Use it for good.\n---\nbody\n",
    );
    let run = sandbox.run(&[
        "--output",
        "github",
        "skill",
        "validate",
        "--recursive",
        "skills",
    ]);
    run.assert_code(1);
    let pattern = regex::Regex::new(
        r"^::(error|warning) file=[^,:]+(,line=[0-9]+)?,title=[EW][0-9]{3}::[^\r\n]+$",
    )
    .unwrap();
    let annotations: Vec<&str> = run
        .stdout
        .lines()
        .filter(|line| line.starts_with("::"))
        .collect();
    assert!(annotations.len() >= 3, "{run}");
    for line in &annotations {
        assert!(pattern.is_match(line), "not a workflow command: {line}");
        assert!(line.contains("file=skills/Bad-Skill/SKILL.md"), "{line}");
    }
    // The whole report: E003 at line 2, W001, the tag quoted, the summary
    // last.
    crate::assert_session!(&sandbox, &run);
}

#[test]
fn github_and_json_schema_formats_are_refused_where_they_mean_nothing() {
    let sandbox = Sandbox::new();
    sandbox
        .run(&["--output", "github", "schema", "list"])
        .assert_code(2);
    sandbox
        .run(&["--output", "json-schema", "skill", "validate"])
        .assert_code(2);
}

#[test]
fn dynamic_completion_covers_run_too() {
    let sandbox = Sandbox::new();
    let names = complete(&sandbox, &["aigent", "run", "--dry-run", "files"], None);
    assert_eq!(names, ["files-get"]);
    // Before NAME, aigent's own flags.
    let flags = complete(&sandbox, &["aigent", "run", "--ver"], None);
    assert_eq!(flags, ["--version"]);
}

/// After NAME every word goes to the declared command, where aigent's own
/// flags are refused: only NAME's flags are offered.
#[test]
fn completion_after_name_offers_only_the_declared_flags() {
    let sandbox = Sandbox::new();
    for leaf in [&["run"][..], &["args", "check"][..]] {
        let line = |current: &str| -> Vec<String> {
            let mut words = vec!["aigent", "--output", "json"];
            words.extend_from_slice(leaf);
            words.extend(["git-log", current]);
            complete(&sandbox, &words, None)
        };
        let flags: Vec<String> = line("--")
            .into_iter()
            .map(|flag| flag.split('\t').next().unwrap().to_owned())
            .collect();
        assert_eq!(
            flags,
            ["--count", "--author", "--merges", "--path", "--json"],
            "{leaf:?}"
        );
        for own in ["--ver", "--dry", "--form", "--comm"] {
            assert!(line(own).is_empty(), "{leaf:?} {own}: {:?}", line(own));
        }
    }
}

#[test]
fn the_bash_script_works_from_a_path_with_a_space_and_a_quote() {
    if !bash_available() {
        eprintln!("bash is not installed; nothing to load the script into");
        return;
    }
    let sandbox = Sandbox::new();
    let dir = sandbox.join("odd dir'q");
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("aigent");
    copy_executable(&assert_cmd::cargo::cargo_bin("aigent"), &binary);
    let script = std::process::Command::new(&binary)
        .args(["completions", "bash"])
        .output()
        .expect("generate the script");
    let script_path = sandbox.write("aigent.bash", &script.stdout);
    let probe = format!(
        "source '{}' && COMP_WORDS=(aigent sch) && COMP_CWORD=1 && _clap_complete_aigent aigent sch aigent && echo \"${{COMPREPLY[@]}}\"",
        script_path.display()
    );
    let output = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &probe])
        .env("HOME", sandbox.join("home"))
        .output()
        .expect("run bash");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.trim() == "schema",
        "stdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_manifest_has_no_help_pseudo_commands_and_types_the_timeout() {
    let sandbox = Sandbox::new();
    let data = manifest(&sandbox, &["--schema"]);
    let commands = data["commands"].as_object().unwrap();
    assert!(
        !commands
            .keys()
            .any(|key| key == "help" || key.starts_with("help."))
    );
    let run = &commands["run"];
    assert_eq!(run["flags"]["timeout"]["type"], "number");
    for code in ["10", "129", "130", "131", "143"] {
        assert!(
            run["exit_codes"].get(code).is_some(),
            "run lacks exit code {code}"
        );
    }
}
