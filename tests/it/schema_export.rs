//! `aigent schema export --to TARGET`: each built-in example exported to
//! each target, and the Codex rules' own examples fed back through an
//! evaluator of the execpolicy format written here.

use crate::common::Sandbox;
use crate::{assert_envelope, assert_session};

const BUILT_INS: &[&str] = &[
    "deploy",
    "files-get",
    "gh-api",
    "git-log",
    "read_file",
    "run-script",
    "shell_exec",
];

// ---- a small evaluator of Codex execpolicy `prefix_rule`s ----

#[derive(Debug, Clone, PartialEq)]
enum Star {
    Str(String),
    List(Vec<Star>),
}

/// Tokens of the Starlark subset the rules use: strings, names, and
/// `( ) [ ] , =`; `#` comments skipped.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {}
            '(' | ')' | '[' | ']' | ',' | '=' => out.push(c.to_string()),
            '"' => {
                let mut value = String::from("\"");
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => match chars.next().expect("escape") {
                            'n' => value.push('\n'),
                            't' => value.push('\t'),
                            'r' => value.push('\r'),
                            'x' => {
                                let hex: String = [chars.next().unwrap(), chars.next().unwrap()]
                                    .into_iter()
                                    .collect();
                                value.push(char::from(u8::from_str_radix(&hex, 16).unwrap()));
                            }
                            other => value.push(other),
                        },
                        '"' => break,
                        c => value.push(c),
                    }
                }
                out.push(value);
            }
            c => {
                let mut name = c.to_string();
                while let Some(&next) = chars.peek() {
                    if next.is_alphanumeric() || next == '_' {
                        name.push(next);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(name);
            }
        }
    }
    out
}

fn value(tokens: &[String], at: &mut usize) -> Star {
    let token = &tokens[*at];
    *at += 1;
    if let Some(text) = token.strip_prefix('"') {
        return Star::Str(text.to_owned());
    }
    assert_eq!(token, "[", "a value is a string or a list");
    let mut items = Vec::new();
    loop {
        if tokens[*at] == "]" {
            *at += 1;
            return Star::List(items);
        }
        items.push(value(tokens, at));
        if tokens[*at] == "," {
            *at += 1;
        }
    }
}

#[derive(Debug, Default)]
struct Rule {
    pattern: Vec<Star>,
    decision: String,
    matches: Vec<Vec<String>>,
    not_matches: Vec<Vec<String>>,
}

fn words(example: &Star) -> Vec<String> {
    match example {
        Star::List(items) => items
            .iter()
            .map(|item| match item {
                Star::Str(word) => word.clone(),
                Star::List(_) => panic!("an example is a list of words"),
            })
            .collect(),
        Star::Str(_) => panic!("examples are written as token lists"),
    }
}

fn rules(text: &str) -> Vec<Rule> {
    let tokens = tokens(text);
    let mut at = 0;
    let mut rules = Vec::new();
    while at < tokens.len() {
        assert_eq!(tokens[at], "prefix_rule", "only prefix_rule calls");
        assert_eq!(tokens[at + 1], "(");
        at += 2;
        let mut rule = Rule {
            decision: "allow".to_owned(),
            ..Rule::default()
        };
        while tokens[at] != ")" {
            let key = tokens[at].clone();
            assert_eq!(tokens[at + 1], "=");
            at += 2;
            let given = value(&tokens, &mut at);
            match (key.as_str(), given) {
                ("pattern", Star::List(items)) => rule.pattern = items,
                ("decision", Star::Str(decision)) => rule.decision = decision,
                ("justification", Star::Str(_)) => {}
                ("match", Star::List(items)) => rule.matches = items.iter().map(words).collect(),
                ("not_match", Star::List(items)) => {
                    rule.not_matches = items.iter().map(words).collect()
                }
                (key, _) => panic!("unexpected argument {key}"),
            }
            if tokens[at] == "," {
                at += 1;
            }
        }
        at += 1;
        rules.push(rule);
    }
    rules
}

/// execpolicy semantics: the pattern is a prefix of the command's words,
/// position by position; a list in the pattern is a set of alternatives.
fn rule_matches(pattern: &[Star], command: &[String]) -> bool {
    pattern.len() <= command.len()
        && pattern.iter().zip(command).all(|(part, word)| match part {
            Star::Str(literal) => literal == word,
            Star::List(alternatives) => alternatives
                .iter()
                .any(|alternative| matches!(alternative, Star::Str(a) if a == word)),
        })
}

#[test]
fn the_evaluator_reads_alternatives_and_both_example_lists() {
    let text = r#"
# a comment
prefix_rule(
    pattern = ["gh", "pr", ["view", "list"]],
    decision = "prompt",
    match = [["gh", "pr", "view", "7"]],
    not_match = [["gh", "issue", "view"]],
)
"#;
    let rules = rules(text);
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].decision, "prompt");
    let command = |text: &str| text.split(' ').map(str::to_owned).collect::<Vec<_>>();
    assert!(rule_matches(
        &rules[0].pattern,
        &command("gh pr list --json x")
    ));
    assert!(!rule_matches(&rules[0].pattern, &command("gh pr merge")));
    assert!(!rule_matches(&rules[0].pattern, &command("gh pr")));
}

#[test]
fn codex_examples_round_trip_for_every_built_in() {
    let sandbox = Sandbox::new();
    let mut exported = 0;
    for name in BUILT_INS {
        let run = sandbox.run(&["schema", "export", "--to", "codex-execpolicy", name]);
        if *name == "gh-api" {
            // Its token reaches gh only through the environment: no shell
            // line satisfies the contract, so no rule is written, and the
            // export fails.
            run.assert_code(1);
            assert!(!run.stdout.contains("pattern = ["), "{run}");
            assert!(run.stderr.contains("gh-api: not exported"), "{run}");
            assert!(run.stderr.contains("--allow-partial"), "{run}");
            continue;
        }
        run.assert_code(0);
        let rules = rules(&run.stdout);
        assert_eq!(rules.len(), 1, "{name}: {run}");
        let rule = &rules[0];
        assert!(!rule.matches.is_empty(), "{name} has match examples");
        for example in &rule.matches {
            assert!(
                rule_matches(&rule.pattern, example),
                "{name}: {example:?} must match"
            );
        }
        for example in &rule.not_matches {
            assert!(
                !rule_matches(&rule.pattern, example),
                "{name}: {example:?} must not match"
            );
        }
        // A Codex allow would run the line outside Codex's sandbox, and
        // every prefix admits lines the contract refuses: rules prompt.
        assert_eq!(rule.decision, "prompt", "{name}");
        assert!(
            run.stderr.contains("wider than the contract"),
            "{name} is flagged: {run}"
        );
        exported += 1;
    }
    assert_eq!(exported, BUILT_INS.len() - 1);
}

#[test]
fn every_match_example_passes_the_contract_in_the_hook_and_admitted_ones_do_not() {
    // The examples come from the contract; the hook (Claude's protocol)
    // must agree with them, and refuse the lines the report says the rule
    // admits beyond the contract.
    let sandbox = Sandbox::new();
    let (run, envelope) = sandbox.json(&[
        "schema",
        "export",
        "--to",
        "codex-execpolicy",
        "git-log",
        "files-get",
    ]);
    run.assert_code(0);
    for declaration in envelope["data"]["declarations"].as_array().unwrap() {
        let lines = |key: &str| -> Vec<String> {
            declaration[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|words| {
                    let words: Vec<&str> = words
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|word| word.as_str().unwrap())
                        .collect();
                    shell_quote(&words)
                })
                .collect()
        };
        for (key, allowed) in [
            ("matches", true),
            ("admitted_beyond_contract", false),
            ("not_matches", false),
        ] {
            for line in lines(key) {
                let event = serde_json::json!({
                    "hook_event_name": "PreToolUse",
                    "tool_name": "Bash",
                    "tool_input": {"command": line},
                    "cwd": sandbox.path(),
                });
                let hook = hook(&sandbox, &event.to_string());
                let reply: serde_json::Value =
                    serde_json::from_str(&hook.stdout).unwrap_or_default();
                let says_allow = reply["hookSpecificOutput"]["permissionDecision"] == "allow";
                assert_eq!(says_allow, allowed, "{key}: {line}\n{hook}");
            }
        }
    }
}

fn hook(sandbox: &Sandbox, input: &str) -> crate::common::Run {
    hook_with(sandbox.std_cmd(), input)
}

/// `aigent … hook --client claude-code`, `cmd` holding what comes before.
fn hook_with(mut cmd: std::process::Command, input: &str) -> crate::common::Run {
    use std::io::Write;
    use std::process::Stdio;
    cmd.args(["hook", "--client", "claude-code"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    crate::common::Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn shell_quote(words: &[&str]) -> String {
    words
        .iter()
        .map(|word| {
            if !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@+%".contains(c))
            {
                (*word).to_owned()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn claude_permissions_for_the_built_ins() {
    let sandbox = Sandbox::examples_only();
    let run = sandbox.run(&[
        "schema",
        "export",
        "--to",
        "claude-permissions",
        "--allow-partial",
    ]);
    run.assert_code(0);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(document["permissions"]["allow"].is_array());
    assert_session!(&sandbox, &run);
}

#[test]
fn codex_rules_for_the_built_ins() {
    let sandbox = Sandbox::examples_only();
    let run = sandbox.run(&[
        "schema",
        "export",
        "--to",
        "codex-execpolicy",
        "--allow-partial",
    ]);
    run.assert_code(0);
    assert_session!(&sandbox, &run);
}

#[test]
fn gemini_policy_for_the_built_ins() {
    let sandbox = Sandbox::examples_only();
    let run = sandbox.run(&[
        "schema",
        "export",
        "--to",
        "gemini-policy",
        "--allow-partial",
    ]);
    run.assert_code(0);
    let document: toml::Table = toml::from_str(&run.stdout).unwrap();
    let rules = document["rule"].as_array().unwrap();
    assert_eq!(rules.len(), BUILT_INS.len() - 1);
    for rule in rules {
        assert_eq!(rule["toolName"].as_str(), Some("run_shell_command"));
        assert!(["allow", "ask_user"].contains(&rule["decision"].as_str().unwrap()));
    }
    assert_session!(&sandbox, &run);
}

#[test]
fn the_json_envelope_holds_the_document_and_the_fidelity_report() {
    let sandbox = Sandbox::new();
    let (run, _) = sandbox.json(&[
        "schema",
        "export",
        "--to",
        "claude-permissions",
        "--allow-partial",
        "git-log",
        "gh-api",
    ]);
    assert_envelope!(&sandbox, &run);
}

#[test]
fn a_declaration_no_line_satisfies_fails_the_export_unless_partial_is_allowed() {
    let sandbox = Sandbox::new();
    let target = sandbox.join("aigent.toml");
    let output = target.to_str().unwrap();
    for to in ["claude-permissions", "codex-execpolicy", "gemini-policy"] {
        let args = [
            "schema",
            "export",
            "--to",
            to,
            "--out-file",
            output,
            "git-log",
            "gh-api",
        ];
        let (run, envelope) = sandbox.json(&args);
        run.assert_code(1);
        assert_eq!(envelope["error"]["code"], "EXPORT_INCOMPLETE", "{run}");
        let message = envelope["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("gh-api (no shell command line"),
            "{message}"
        );
        assert!(!message.contains("git-log"), "{message}");
        assert_eq!(
            envelope["data"]["incomplete"],
            serde_json::json!(["gh-api"])
        );
        assert!(!target.exists(), "a partial export was written");

        let mut partial = args.to_vec();
        partial.insert(4, "--allow-partial");
        let (run, _) = sandbox.json(&partial);
        run.assert_code(0);
        assert!(std::fs::read_to_string(&target).unwrap().contains("git"));
        std::fs::remove_file(&target).unwrap();
    }
}

/// Declarations whose patterns refuse every fixed sample word, and whose
/// paths are confined: each is exported to every target, and the example
/// lines the export wrote are allowed by the hook in a directory where the
/// example paths exist.
#[test]
fn restrictive_patterns_and_confined_paths_are_exported() {
    let sandbox = Sandbox::new();
    let declarations = [
        (
            "release",
            r#"{"name": "release", "description": "Tag a release", "danger_level": "mutating",
            "parameters": {"tag": {"type": "string", "required": true, "pattern": "^v[0-9]+$"}},
            "subprocess": {"binary": "git", "argv": ["tag", {"param": "tag"}]}}"#,
        ),
        (
            "target-env",
            r#"{"name": "target-env", "description": "Pick an environment", "danger_level": "safe",
            "parameters": {"env": {"type": "string", "required": true, "pattern": "^(dev|prod)$"}},
            "subprocess": {"binary": "envctl", "argv": ["use", {"param": "env", "flag": "--env"}]}}"#,
        ),
        (
            "currency",
            r#"{"name": "currency", "description": "A rate", "danger_level": "safe",
            "parameters": {"code": {"type": "string", "required": true, "pattern": "^[A-Z]{3}$"}},
            "subprocess": {"binary": "rates", "argv": ["show", {"param": "code"}]}}"#,
        ),
        (
            "head-file",
            r#"{"name": "head-file", "description": "First lines of a file", "danger_level": "safe",
            "parameters": {"file": {"type": "string", "required": true, "pattern_type": "filepath",
                "relative_only": true, "under": ["$CWD"], "must_exist": true, "pattern": "^[a-z]+\\.log$"}},
            "subprocess": {"binary": "head", "argv": ["-n", "5", "--", {"param": "file"}]}}"#,
        ),
        (
            "list-dir",
            r#"{"name": "list-dir", "description": "List a directory", "danger_level": "safe",
            "parameters": {"dir": {"type": "string", "required": true, "pattern_type": "filepath",
                "relative_only": true, "under": ["$CWD"], "must_exist": true}},
            "subprocess": {"binary": "ls", "argv": ["-l", "--", {"param": "dir"}]}}"#,
        ),
    ];
    for (name, text) in declarations {
        sandbox.write(format!("commands/{name}.json"), text);
    }
    let registry = sandbox.join("commands");
    let registry = registry.to_str().unwrap();
    for to in ["claude-permissions", "codex-execpolicy", "gemini-policy"] {
        let (run, envelope) =
            sandbox.json(&["--commands", registry, "schema", "export", "--to", to]);
        run.assert_code(0);
        for declaration in envelope["data"]["declarations"].as_array().unwrap() {
            let name = declaration["name"].as_str().unwrap();
            assert_eq!(declaration["exported"], true, "{to}: {name}: {run}");
            assert!(declaration["on_refused_line"].is_string(), "{to}: {name}");
            let first: Vec<&str> = declaration["matches"][0]
                .as_array()
                .unwrap()
                .iter()
                .map(|word| word.as_str().unwrap())
                .collect();
            // The example's paths, made where the hook will judge it.
            for word in &first {
                if word.ends_with(".log") || word.ends_with(".txt") {
                    sandbox.write(format!("work/{word}"), "");
                } else if *word == "example" {
                    std::fs::create_dir_all(sandbox.join("work/example")).unwrap();
                }
            }
            let event = serde_json::json!({
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": shell_quote(&first)},
                "cwd": sandbox.join("work"),
            });
            let mut cmd = sandbox.std_cmd();
            cmd.args(["--commands", registry]);
            let hook = hook_with(cmd, &event.to_string());
            let reply: serde_json::Value = serde_json::from_str(&hook.stdout).unwrap_or_default();
            assert_eq!(
                reply["hookSpecificOutput"]["permissionDecision"], "allow",
                "{to}: {name}: {first:?}\n{hook}"
            );
        }
    }
    let (_, codex) = sandbox.json(&[
        "--commands",
        registry,
        "schema",
        "export",
        "--to",
        "codex-execpolicy",
        "release",
    ]);
    assert_eq!(
        codex["data"]["declarations"][0]["matches"][0],
        serde_json::json!(["git", "tag", "v1"])
    );
}

#[test]
fn output_is_written_once_and_replaced_only_with_force() {
    let sandbox = Sandbox::new();
    let target = sandbox.join("aigent.rules");
    let target_arg = target.to_str().unwrap();
    let args = [
        "--output",
        "text",
        "schema",
        "export",
        "--to",
        "codex-execpolicy",
        "--out-file",
        target_arg,
        "git-log",
    ];
    let run = sandbox.run(&args);
    run.assert_code(0);
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(written.contains("prefix_rule("));
    assert!(
        run.stdout.contains("git-log: prefix_rule(pattern = "),
        "{run}"
    );
    assert!(run.stdout.contains("dropped:"), "{run}");

    std::fs::write(&target, "kept").unwrap();
    let refused = sandbox.run(&args);
    refused.assert_code(4);
    assert!(refused.stderr.contains("--force"), "{refused}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");

    let mut forced = args.to_vec();
    forced.insert(8, "--force");
    sandbox.run(&forced).assert_code(0);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), written);
}

#[test]
fn an_unknown_name_is_not_found_and_writes_nothing() {
    let sandbox = Sandbox::new();
    let target = sandbox.join("out.toml");
    let run = sandbox.run(&[
        "schema",
        "export",
        "--to",
        "gemini-policy",
        "--out-file",
        target.to_str().unwrap(),
        "no-such-command",
    ]);
    assert_ne!(run.code, 0, "{run}");
    assert!(!target.exists());
}

/// Every recipe of docs/cookbook.md (confined paths, free text, regexes,
/// patterns) is exported to every target: a line satisfies each of them.
#[cfg(unix)]
#[test]
fn every_cookbook_declaration_is_exported_to_every_target() {
    use crate::cookbook::{COOKBOOK, blocks};
    let sandbox = Sandbox::new();
    let recipes = blocks(COOKBOOK, "yaml");
    for recipe in &recipes {
        let name = recipe
            .lines()
            .find_map(|line| line.strip_prefix("name: "))
            .expect("a recipe has a name");
        sandbox.write(format!("cookbook/{name}.yaml"), recipe);
    }
    let registry = sandbox.join("cookbook");
    for to in ["claude-permissions", "codex-execpolicy", "gemini-policy"] {
        let (run, envelope) = sandbox.json(&[
            "--commands",
            registry.to_str().unwrap(),
            "schema",
            "export",
            "--to",
            to,
        ]);
        run.assert_code(0);
        let declarations = envelope["data"]["declarations"].as_array().unwrap();
        assert_eq!(declarations.len(), recipes.len(), "{to}");
        for declaration in declarations {
            assert_eq!(declaration["exported"], true, "{to}: {declaration}");
        }
    }
}

/// The built-in catalog, with nothing else declared: every declaration is
/// exported to every target (each has a line that satisfies it), but the
/// one whose program the agent chooses (`project-program`, a file of the
/// project that only the hook can send into the sandbox); and each Codex
/// rule prompts.
#[test]
fn every_catalog_declaration_is_exported_to_every_target() {
    let sandbox = Sandbox::bare();
    for to in ["claude-permissions", "codex-execpolicy", "gemini-policy"] {
        let (run, envelope) = sandbox.json(&["schema", "export", "--to", to]);
        let declarations = envelope["data"]["declarations"].as_array().unwrap();
        let chooses_program = declarations
            .iter()
            .find(|declaration| declaration["name"] == "project-program")
            .unwrap();
        assert_eq!(chooses_program["exported"], false, "{to}");
        assert!(
            chooses_program["not_exported"]
                .as_str()
                .unwrap()
                .contains("the agent chooses its program"),
            "{to}: {chooses_program}"
        );
        let left_out: Vec<String> = declarations
            .iter()
            .filter(|declaration| declaration["exported"] != true)
            .filter(|declaration| declaration["name"] != "project-program")
            .map(|declaration| {
                format!(
                    "{}: {}",
                    declaration["name"].as_str().unwrap_or(""),
                    declaration["not_exported"].as_str().unwrap_or("")
                )
            })
            .collect();
        assert!(left_out.is_empty(), "{to}: {left_out:#?}");
        run.assert_code(0);
        assert!(declarations.len() >= 200, "{to}: {}", declarations.len());
        if to == "codex-execpolicy" {
            let document = envelope["data"]["document"].as_str().unwrap();
            assert!(!document.contains("decision = \"allow\""));
        }
    }
}
