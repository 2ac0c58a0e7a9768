//! docs/cookbook.md, executed: every `yaml` block is a declaration in one
//! registry, linted with no finding; every `aigent` line of an `sh` block
//! runs through the binary and must end as its comment says (see the top
//! of the cookbook for the comments' meaning).

use std::path::Path;
use std::process::Command as StdCommand;

use serde_json::Value;

use crate::common::{Run, Sandbox};

pub(crate) const COOKBOOK: &str = include_str!("../../docs/cookbook.md");

/// The fenced blocks of `language` in `text`, in order.
pub(crate) fn blocks<'a>(text: &'a str, language: &str) -> Vec<&'a str> {
    let fence = format!("```{language}\n");
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```").expect("an unclosed block in the cookbook");
        found.push(&body[..end]);
        rest = &body[end + 3..];
    }
    found
}

/// The words of a POSIX shell line (single and double quotes, backslash
/// escapes outside single quotes), up to an unquoted `#` that starts a
/// word, and that comment.
fn shell_words(line: &str) -> (Vec<String>, String) {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\'' => {
                in_word = true;
                for quoted in chars.by_ref() {
                    if quoted == '\'' {
                        break;
                    }
                    word.push(quoted);
                }
            }
            '"' => {
                in_word = true;
                while let Some(quoted) = chars.next() {
                    match quoted {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        other => word.push(other),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '#' if !in_word => {
                let comment: String = chars.collect();
                return (words, comment.trim().to_owned());
            }
            ch if ch.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    (words, String::new())
}

fn installed(program: &str) -> bool {
    StdCommand::new("sh")
        .args(["-c", &format!("command -v {program} >/dev/null 2>&1")])
        .status()
        .is_ok_and(|status| status.success())
}

fn git(dir: &Path, args: &[&str], home: &Path) {
    let status = StdCommand::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// The scratch directory the recipes run in: a git repository with one
/// commit and a staged change, `notes.txt`, `src/main.rs`, `data.json`,
/// `site.tar` and an empty `extracted/`.
fn workspace(sandbox: &Sandbox) -> std::path::PathBuf {
    let home = sandbox.join("home");
    sandbox.write(
        "home/.gitconfig",
        "[user]\n\tname = Cook Book\n\temail = cook@example.com\n[init]\n\tdefaultBranch = main\n",
    );
    let work = sandbox.join("work");
    sandbox.write(
        "work/notes.txt",
        "hello world\nbye for now\nsomething else\n",
    );
    sandbox.write(
        "work/src/main.rs",
        "fn main() {\n    println!(\"hi\");\n}\n",
    );
    sandbox.write(
        "work/data.json",
        r#"{"items": [{"name": "big", "size": 3}, {"name": "small", "size": 1}]}"#,
    );
    std::fs::create_dir_all(work.join("extracted")).unwrap();
    sandbox.write("site/index.html", "<h1>site</h1>\n");
    if installed("tar") {
        let status = StdCommand::new("tar")
            .args(["--create", "--file"])
            .arg(work.join("site.tar"))
            .args(["--directory"])
            .arg(sandbox.join("site"))
            .arg("index.html")
            .status()
            .unwrap();
        assert!(status.success());
    }
    if installed("git") {
        git(&work, &["init", "--quiet"], &home);
        git(&work, &["add", "notes.txt", "src", "data.json"], &home);
        git(
            &work,
            &["commit", "--quiet", "--message", "Initial commit"],
            &home,
        );
        sandbox.write(
            "work/notes.txt",
            "hello world\nbye for now\nsomething else\nmore\n",
        );
        git(&work, &["add", "notes.txt"], &home);
    }
    work
}

struct Example {
    line: String,
    words: Vec<String>,
    expect: String,
}

fn examples() -> Vec<Example> {
    blocks(COOKBOOK, "sh")
        .into_iter()
        .flat_map(str::lines)
        .filter(|line| line.starts_with("aigent "))
        .map(|line| {
            let (words, expect) = shell_words(line);
            Example {
                line: line.to_owned(),
                words,
                expect,
            }
        })
        .collect()
}

/// The envelope of a call: stdout for `args check`, stderr's last JSON
/// document for `run`.
fn envelope(run: &Run) -> Value {
    let text = if run.stdout.trim_start().starts_with('{') {
        run.stdout.clone()
    } else {
        let start = run.stderr.rfind("\n{").map_or(0, |at| at + 1);
        run.stderr[start..].to_owned()
    };
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("no envelope ({err}):\n{run}"))
}

fn rejected_patterns(envelope: &Value) -> Vec<String> {
    envelope["error"]["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|error| error["rejected_pattern"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn the_cookbook_has_at_least_twelve_tested_recipes() {
    let declarations = blocks(COOKBOOK, "yaml");
    assert!(declarations.len() >= 12, "{} recipes", declarations.len());
    let names: Vec<&str> = declarations
        .iter()
        .filter_map(|block| block.lines().find_map(|line| line.strip_prefix("name: ")))
        .collect();
    for required in [
        "git-log",
        "git-commit",
        "git-diff",
        "grep",
        "rg",
        "curl-get",
        "tar-list",
        "tar-extract",
        "jq",
        "kubectl-get",
        "docker-ps",
        "psql-select",
        "find-files",
    ] {
        assert!(names.contains(&required), "no `{required}` recipe");
    }
    // Every recipe is exercised: an accepted call, a refused one, a run.
    let examples = examples();
    for name in &names {
        let of = |verb: &str, expect: &str| {
            examples.iter().any(|example| {
                example.words.iter().any(|word| word == name)
                    && example.words.get(1).map(String::as_str) == Some(verb)
                    && example.expect.starts_with(expect)
            })
        };
        assert!(of("args", "accepted"), "`{name}` has no accepted example");
        assert!(of("args", "refused"), "`{name}` has no refused example");
        assert!(
            of("run", "runs") || of("run", "needs a server") || of("run", "dry-run"),
            "`{name}` has no run example"
        );
    }
}

#[test]
fn every_recipe_lints_clean_and_every_example_ends_as_documented() {
    let sandbox = Sandbox::new();
    for block in blocks(COOKBOOK, "yaml") {
        let name = block
            .lines()
            .find_map(|line| line.strip_prefix("name: "))
            .expect("a recipe has a name");
        sandbox.write(format!("registry/{name}.yaml"), block);
    }
    let registry = sandbox.join("registry");
    let lint = sandbox.run(&[
        "--commands",
        registry.to_str().unwrap(),
        "--output",
        "json",
        "schema",
        "lint",
    ]);
    lint.assert_code(0);
    let linted = lint.envelope();
    let findings: Vec<&Value> = linted["data"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|file| file["diagnostics"].as_array().unwrap())
        .collect();
    assert!(findings.is_empty(), "the recipes have findings:\n{lint}");

    let work = workspace(&sandbox);
    let mut failures = Vec::new();
    for example in examples() {
        assert_eq!(example.words[0], "aigent", "{}", example.line);
        let mut words: Vec<String> = example.words[1..].to_vec();
        let name = words
            .get(if words[0] == "args" { 2 } else { 1 })
            .cloned()
            .unwrap_or_default();
        let binary = std::fs::read_to_string(registry.join(format!("{name}.yaml")))
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|line| line.trim().strip_prefix("binary: ").map(str::to_owned))
            })
            .unwrap_or_default();
        let real = example.expect != "dry-run" && installed(&binary);
        if words[0] == "run" && !real {
            words.insert(1, "--dry-run".to_owned());
        }
        let run = Run::of(
            sandbox
                .cmd()
                .current_dir(&work)
                .arg("--commands")
                .arg(&registry)
                .args(["--output", "json"])
                .args(&words),
        );
        let envelope = envelope(&run);
        let expect = example.expect.as_str();
        let problem = if expect == "accepted" {
            (run.code != 0).then(|| "expected exit 0".to_owned())
        } else if let Some(rule) = expect.strip_prefix("refused: ") {
            let rules = rejected_patterns(&envelope);
            (run.code != 2 || !rules.iter().any(|found| found == rule))
                .then(|| format!("expected exit 2 with `{rule}`, got {rules:?}"))
        } else if !real {
            (run.code != 0).then(|| "expected the dry run to pass".to_owned())
        } else if expect == "needs a server" {
            let named = !envelope["data"]["child_exit"].is_null();
            match run.code {
                0 => None,
                3 if named => None,
                _ => Some("expected exit 0, or 3 with the status named in child_exit".to_owned()),
            }
        } else if let Some(status) = expect.strip_prefix("runs: ") {
            let got = envelope["data"]["child_exit"]["name"]
                .as_str()
                .unwrap_or("");
            (run.code != 0 || got != status)
                .then(|| format!("expected exit 0 with child_exit {status}, got {got:?}"))
        } else if expect == "runs" {
            (run.code != 0).then(|| "expected exit 0".to_owned())
        } else {
            Some(format!("unknown expectation `{expect}`"))
        };
        if let Some(problem) = problem {
            failures.push(format!("{}\n  {problem}\n{run}", example.line));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    // What the real runs did, where the programs are installed.
    if installed("git") {
        let log = StdCommand::new("git")
            .args(["log", "-1", "--format=%s"])
            .current_dir(&work)
            .env("HOME", sandbox.join("home"))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&log.stdout).trim(),
            "Fix parser (again) & add tests; see #12"
        );
    }
    if installed("tar") {
        assert!(work.join("extracted/index.html").exists());
    }
}

#[test]
fn shell_words_reads_the_examples_as_a_shell_would() {
    let (words, comment) =
        shell_words(r#"aigent run x --m 'a (b) & c' --q "d \"e\"" f\ g   # runs: OK"#);
    assert_eq!(
        words,
        [
            "aigent",
            "run",
            "x",
            "--m",
            "a (b) & c",
            "--q",
            "d \"e\"",
            "f g"
        ]
    );
    assert_eq!(comment, "runs: OK");
    let (words, _) = shell_words("aigent args check t --m '#not a comment'");
    assert_eq!(words.last().unwrap(), "#not a comment");
}
