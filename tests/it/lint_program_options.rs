//! The lint's table of options that run a program or move where a program
//! reads its config (`src/contract/programs/code_words.rs`), checked
//! against the real programs: each case first shows, with the program
//! installed on this machine, that the option does run a command (it
//! creates a marker file), then that `schema lint` refuses a declaration
//! that uses it (E115 when hardcoded, E127 when an agent's value fills it).
//! A program that is not installed is skipped with a message.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Sandbox;

struct Case {
    /// Names the declaration and the marker.
    name: &'static str,
    program: &'static str,
    /// The words after the program that make it create `MARKER` (a
    /// placeholder, replaced by the marker's path; `DIR` by the sandbox's).
    proof: &'static [&'static str],
    /// Run under a terminal (`script`): a pager starts only on one.
    tty: bool,
    /// The declaration's `argv`, and the code `schema lint` gives it.
    argv: Value,
    code: &'static str,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "man-pager",
            program: "man",
            proof: &["--pager=touch MARKER", "ls"],
            tty: true,
            argv: json!(["--pager=less", "ls"]),
            code: "E115",
        },
        Case {
            name: "less-plus-bang",
            program: "less",
            proof: &["+!touch MARKER\n", "DIR/notes.txt"],
            tty: true,
            argv: json!(["+!touch x\n", "--", {"param": "a"}]),
            code: "E115",
        },
        Case {
            name: "less-file-argument",
            program: "less",
            proof: &["+!touch MARKER\n", "DIR/notes.txt"],
            tty: true,
            argv: json!([{"param": "a"}]),
            code: "E127",
        },
        Case {
            name: "npm-script-shell",
            program: "npm",
            proof: &[
                "--prefix",
                "DIR/pkg",
                "--script-shell=DIR/fake-shell",
                "run",
                "hello",
            ],
            tty: false,
            argv: json!(["--script-shell=/bin/bash", "run", "hello"]),
            code: "E115",
        },
        Case {
            name: "npm-userconfig",
            program: "npm",
            proof: &[
                "--prefix",
                "DIR/pkg",
                "--userconfig=DIR/npmrc",
                "run",
                "hello",
            ],
            tty: false,
            argv: json!([{"param": "a", "flag": "--userconfig", "form": "joined"}, "run", "hello"]),
            code: "E127",
        },
        Case {
            name: "git-exec-path",
            program: "git",
            proof: &["--exec-path=DIR/libexec", "subtree"],
            tty: false,
            argv: json!(["--exec-path=/opt/git", "subtree", "--", {"param": "a"}]),
            code: "E115",
        },
        Case {
            name: "git-git-dir",
            program: "git",
            proof: &["--git-dir=DIR/repo.git", "marker"],
            tty: false,
            argv: json!([{"param": "a", "flag": "--git-dir", "form": "joined"}, "log"]),
            code: "E127",
        },
        Case {
            name: "git-template",
            program: "git",
            proof: &[
                "clone",
                "-q",
                "--template=DIR/template",
                "DIR/repo.git",
                "DIR/clone",
            ],
            tty: false,
            argv: json!(["clone", "--template=/opt/t", "--", {"param": "a"}]),
            code: "E115",
        },
        Case {
            name: "curl-config",
            program: "curl",
            proof: &["-s", "--config", "DIR/curlrc"],
            tty: false,
            argv: json!([{"param": "a", "flag": "--config", "form": "joined"}]),
            code: "E127",
        },
        Case {
            name: "ssh-proxy-command",
            program: "ssh",
            proof: &[
                "-F",
                "/dev/null",
                "-o",
                "ProxyCommand=touch MARKER",
                "-o",
                "BatchMode=yes",
                "nowhere.invalid",
            ],
            tty: false,
            argv: json!(["-o", "ProxyCommand=nc %h %p", "host", "uptime"]),
            code: "E115",
        },
        Case {
            name: "ssh-config-file",
            program: "ssh",
            proof: &[
                "-F",
                "DIR/ssh_config",
                "-o",
                "BatchMode=yes",
                "nowhere.invalid",
            ],
            tty: false,
            argv: json!(["-F", {"param": "a"}, "host", "uptime"]),
            code: "E127",
        },
        Case {
            name: "awk-program-file",
            program: "awk",
            proof: &["-f", "DIR/prog.awk", "DIR/notes.txt"],
            tty: false,
            argv: json!(["-f", {"param": "a"}, "notes.txt"]),
            code: "E127",
        },
        Case {
            name: "make-makefile",
            program: "make",
            proof: &["-s", "-f", "DIR/Makefile"],
            tty: false,
            argv: json!(["-f", {"param": "a"}]),
            code: "E127",
        },
    ]
}

/// The files the proofs read.
fn fixtures(sandbox: &Sandbox) {
    let dir = sandbox.path().display().to_string();
    let marker = |name: &str| format!("{dir}/{name}.marker");
    sandbox.write("notes.txt", "one line\n");
    sandbox.script(
        "fake-shell",
        &format!("#!/bin/sh\ntouch '{}'\n", marker("npm-script-shell")),
    );
    sandbox.script(
        "fake-shell-2",
        &format!("#!/bin/sh\ntouch '{}'\n", marker("npm-userconfig")),
    );
    sandbox.write(
        "pkg/package.json",
        r#"{"name": "pkg", "version": "1.0.0", "scripts": {"hello": "echo hello"}}"#,
    );
    sandbox.write("npmrc", format!("script-shell={dir}/fake-shell-2\n"));
    sandbox.script(
        "libexec/git-subtree",
        &format!("#!/bin/sh\ntouch '{}'\n", marker("git-exec-path")),
    );
    sandbox.script(
        "template/hooks/post-checkout",
        &format!("#!/bin/sh\ntouch '{}'\n", marker("git-template")),
    );
    sandbox.write(
        "curlrc",
        format!(
            "url = \"file://{dir}/notes.txt\"\noutput = \"{}\"\n",
            marker("curl-config")
        ),
    );
    sandbox.write(
        "ssh_config",
        format!(
            "Host *\n  ProxyCommand touch {}\n",
            marker("ssh-config-file")
        ),
    );
    sandbox.write(
        "prog.awk",
        format!(
            "BEGIN {{ system(\"touch {}\") }}\n",
            marker("awk-program-file")
        ),
    );
    sandbox.write(
        "Makefile",
        format!("all:\n\ttouch {}\n", marker("make-makefile")),
    );
}

/// A bare repository whose config runs a command for `git marker`, with
/// one commit (for the clone).
fn git_repository(sandbox: &Sandbox, git: &Path) {
    let dir = sandbox.path();
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let git_in = |cwd: &Path, args: &[&str]| {
        let status = Command::new(git)
            .current_dir(cwd)
            .args(args)
            .env("HOME", dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git_in(&work, &["init", "-q"]);
    std::fs::write(work.join("a.txt"), "a\n").unwrap();
    git_in(&work, &["add", "a.txt"]);
    git_in(&work, &["commit", "-q", "-m", "a"]);
    git_in(dir, &["clone", "-q", "--bare", "work", "repo.git"]);
    let marker = dir.join("git-git-dir.marker");
    git_in(
        dir,
        &[
            "--git-dir=repo.git",
            "config",
            "alias.marker",
            &format!("!touch {}", marker.display()),
        ],
    );
}

fn find_program(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Runs `words` in its own process group until `marker` exists or 20 s
/// pass, then ends the group (a pager waits for a key).
fn proves(sandbox: &Sandbox, words: &[String], tty: bool, marker: &Path) -> bool {
    let mut command = if tty {
        let line = words
            .iter()
            .map(|word| format!("'{}'", word.replace('\'', r"'\''")))
            .collect::<Vec<_>>()
            .join(" ");
        let mut command = Command::new("script");
        command.args(["-qec", &line, "/dev/null"]);
        command
    } else {
        let mut command = Command::new(&words[0]);
        command.args(&words[1..]);
        command
    };
    let dir = sandbox.path();
    command
        .current_dir(dir)
        .env("HOME", dir)
        .env("TERM", "xterm")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("npm_config_update_notifier", "false")
        .env("npm_config_cache", dir.join("npm-cache"))
        .env_remove("PAGER")
        .env_remove("MANPAGER")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    let mut child = command.spawn().expect("spawn the real program");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !marker.exists() && Instant::now() < deadline {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = rustix::process::Pid::from_child(&child);
    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    let _ = child.wait();
    marker.exists()
}

#[test]
fn each_option_runs_a_command_and_the_lint_refuses_it() {
    let sandbox = Sandbox::new();
    fixtures(&sandbox);
    let dir = sandbox.path().display().to_string();
    let mut proven = Vec::new();
    for case in cases() {
        // The lint, whether or not the program is here.
        let parameters = if case.argv.to_string().contains("\"param\"") {
            json!({"a": {"type": "string", "pattern_type": "filepath"}})
        } else {
            json!({})
        };
        sandbox.write(
            format!("commands/{}.json", case.name),
            json!({
                "name": case.name,
                "description": "case",
                "danger_level": "mutating",
                "parameters": parameters,
                "subprocess": {"binary": case.program, "argv": case.argv}
            })
            .to_string(),
        );
        let Some(program) = find_program(case.program) else {
            eprintln!(
                "skipped running {}: `{}` is not installed",
                case.name, case.program
            );
            continue;
        };
        if case.tty && find_program("script").is_none() {
            eprintln!("skipped running {}: `script` is not installed", case.name);
            continue;
        }
        if case.program == "git" && !sandbox.join("repo.git").exists() {
            git_repository(&sandbox, &program);
        }
        if case.program == "man"
            && !Command::new(&program)
                .args(["-w", "ls"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        {
            eprintln!("skipped running {}: no manual page for ls", case.name);
            continue;
        }
        let marker = sandbox.join(format!("{}.marker", case.name));
        let mut words = vec![program.display().to_string()];
        words.extend(case.proof.iter().map(|word| {
            word.replace("MARKER", &marker.display().to_string())
                .replace("DIR", &dir)
        }));
        assert!(
            proves(&sandbox, &words, case.tty, &marker),
            "{}: {words:?} did not run its command",
            case.name
        );
        proven.push(case.name);
    }
    eprintln!("proven with the real programs: {proven:?}");
    let commands = sandbox.join("commands").display().to_string();
    let (run, envelope) = sandbox.json(&["--commands", &commands, "schema", "lint"]);
    run.assert_code(4);
    for case in cases() {
        let file = envelope["data"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|file| file["name"] == case.name)
            .unwrap_or_else(|| panic!("{}: {run}", case.name));
        let codes: Vec<&str> = file["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|diagnostic| diagnostic["severity"] == "error")
            .map(|diagnostic| diagnostic["code"].as_str().unwrap())
            .collect();
        // `ssh` with an agent's value anywhere is E115 as well.
        assert!(codes.contains(&case.code), "{}: {file}", case.name);
        assert!(
            codes
                .iter()
                .all(|code| *code == case.code || case.program == "ssh"),
            "{}: {file}",
            case.name
        );
    }
}
