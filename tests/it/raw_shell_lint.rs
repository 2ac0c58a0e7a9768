//! `schema lint` scanning the scripts a declaration runs for raw shell use
//! (W103), with file and line.

use std::path::Path;

use crate::common::{Run, Sandbox};
use serde_json::Value;

/// Every W103 in `schema lint` as (declaration name, field, script file
/// name, line).
fn findings(envelope: &Value) -> Vec<(String, String, String, u64)> {
    let mut found = Vec::new();
    for file in envelope["data"]["files"].as_array().unwrap() {
        for diagnostic in file["diagnostics"].as_array().unwrap() {
            if diagnostic["code"] != "W103" {
                continue;
            }
            let script = diagnostic["file"].as_str().unwrap_or("");
            found.push((
                file["name"].as_str().unwrap().to_owned(),
                diagnostic["field"].as_str().unwrap().to_owned(),
                Path::new(script)
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                diagnostic["line"].as_u64().unwrap_or(0),
            ));
        }
    }
    found
}

fn lint(sandbox: &Sandbox) -> (Run, Value) {
    sandbox.json(&["--commands", "commands", "schema", "lint"])
}

fn declaration(sandbox: &Sandbox, name: &str, subprocess: &str, parameters: &str) {
    sandbox.write(
        format!("commands/{name}.yaml"),
        format!("name: {name}\ndescription: Runs a script\ndanger_level: mutating\nparameters: {parameters}\nsubprocess: {subprocess}\n"),
    );
}

const PYTHON: &str = "\
import os
import subprocess
os.system(\"deploy \" + target)
subprocess.run(['ls', '-l', path])
subprocess.check_call(cmd, shell=True)
# os.system('a comment')
listing = os.popen('ls ' + path).read()
subprocess.run(['bash', '-c', f'echo {name}'])
";

const JAVASCRIPT: &str = "\
const child_process = require('child_process');
const { execFile } = require('child_process');
child_process.exec(`deploy ${target}`);
execFile('ls', ['-l', dir]);
const out = child_process.execSync('git log ' + ref);
const match = /x(y)/.exec(text);
";

const TYPESCRIPT: &str = "\
import { exec, spawn } from 'node:child_process';
// exec('a comment');
exec(`rm -rf ${dir}`);
spawn('ls', [dir]);
";

const SHELL: &str = "\
#!/bin/sh
set -eu
eval \"$COMMAND\"
today=`date +%F`
bash -c \"deploy $1\"
sh -c 'deploy \"$1\"' sh \"$1\"
now=$(date +%F)
";

const RUBY: &str = "\
# `a comment`
files = `ls #{dir}`
system(\"rm -rf #{path}\")
system('ls', dir)
";

#[test]
fn every_raw_shell_pattern_is_found_with_file_and_line() {
    let sandbox = Sandbox::new();
    sandbox.write("commands/scripts/deploy.py", PYTHON);
    sandbox.write("commands/scripts/build.js", JAVASCRIPT);
    sandbox.write("commands/scripts/tool.ts", TYPESCRIPT);
    sandbox.write("commands/run.sh", SHELL);
    sandbox.write("commands/scripts/task.rb", RUBY);
    declaration(
        &sandbox,
        "py",
        "{binary: python3, hardcoded_args: [scripts/deploy.py], user_controlled_args: []}",
        "{}",
    );
    declaration(
        &sandbox,
        "js",
        "{binary: node, hardcoded_args: [scripts/build.js], user_controlled_args: []}",
        "{}",
    );
    // Named by a parameter's default.
    declaration(
        &sandbox,
        "ts",
        "{binary: tsx, hardcoded_args: [], user_controlled_args: [script]}",
        "{script: {type: string, pattern_type: filepath, default: scripts/tool.ts}}",
    );
    // The script is the binary.
    declaration(
        &sandbox,
        "sh",
        "{binary: ./run.sh, hardcoded_args: [], user_controlled_args: []}",
        "{}",
    );
    let ruby = sandbox.join("commands/scripts/task.rb");
    declaration(
        &sandbox,
        "rb",
        &format!(
            "{{binary: ruby, hardcoded_args: ['{}'], user_controlled_args: []}}",
            ruby.display()
        ),
        "{}",
    );
    let (run, envelope) = lint(&sandbox);
    run.assert_code(0);
    let line = |name: &str, field: &str, file: &str, line: u64| {
        (name.to_owned(), field.to_owned(), file.to_owned(), line)
    };
    assert_eq!(
        findings(&envelope),
        [
            line("js", "subprocess.hardcoded_args[0]", "build.js", 3),
            line("js", "subprocess.hardcoded_args[0]", "build.js", 5),
            line("py", "subprocess.hardcoded_args[0]", "deploy.py", 3),
            line("py", "subprocess.hardcoded_args[0]", "deploy.py", 5),
            line("py", "subprocess.hardcoded_args[0]", "deploy.py", 7),
            line("py", "subprocess.hardcoded_args[0]", "deploy.py", 8),
            line("rb", "subprocess.hardcoded_args[0]", "task.rb", 2),
            line("rb", "subprocess.hardcoded_args[0]", "task.rb", 3),
            line("sh", "subprocess.binary", "run.sh", 3),
            line("sh", "subprocess.binary", "run.sh", 4),
            line("sh", "subprocess.binary", "run.sh", 5),
            line("ts", "parameters.script.default", "tool.ts", 3),
        ],
        "{run}"
    );
    // And W141: `ts` takes a path parameter and declares no `sandbox.write`.
    assert_eq!(envelope["data"]["summary"]["warnings"], 13);

    let text = sandbox.run(&[
        "--commands",
        "commands",
        "--output",
        "text",
        "schema",
        "lint",
    ]);
    text.assert_code(0);
    assert!(
        text.stdout.contains("commands/scripts/deploy.py:3: warning[W103] subprocess.hardcoded_args[0]: `os.system(` hands a command string to a shell"),
        "{text}"
    );
    assert!(
        text.stdout
            .contains("commands/./run.sh:3: warning[W103] subprocess.binary: `eval`"),
        "{text}"
    );
}

#[test]
fn clean_scripts_have_no_findings() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "commands/clean.py",
        "import subprocess\nsubprocess.run(['ls', '-l', path], check=True)\nsubprocess.run(['sh', '-c', 'echo \"$1\"', 'sh', name])\nprint('shell=False is the default')\n",
    );
    sandbox.write(
        "commands/clean.js",
        "const { execFile, spawn } = require('child_process');\nexecFile('ls', ['-l', dir]);\nspawn('git', ['log', ref]);\nconst m = pattern.exec(line);\n",
    );
    sandbox.write(
        "commands/clean.sh",
        "#!/bin/sh\nset -eu\n# eval and `backticks` in a comment\nnow=$(date +%F)\nsh -c 'printf \"%s\\n\" \"$1\"' sh \"$value\"\necho 'a `quoted` backtick'\n",
    );
    sandbox.write(
        "commands/clean.rb",
        "require 'open3'\nsystem('ls', dir)\nout, status = Open3.capture2('git', 'log', ref)\nputs \"a `quoted` word\"\n",
    );
    for (name, interpreter) in [
        ("clean-py", "python3"),
        ("clean-js", "node"),
        ("clean-sh", "sh"),
        ("clean-rb", "ruby"),
    ] {
        let script = format!("clean.{}", name.trim_start_matches("clean-"));
        declaration(
            &sandbox,
            name,
            &format!(
                "{{binary: {interpreter}, hardcoded_args: [{script}], user_controlled_args: []}}"
            ),
            "{}",
        );
    }
    let (run, envelope) = lint(&sandbox);
    run.assert_code(0);
    assert_eq!(findings(&envelope), [], "{run}");
    assert_eq!(envelope["data"]["summary"]["warnings"], 0, "{run}");
}

#[test]
fn scripts_outside_the_registry_are_never_read() {
    let sandbox = Sandbox::new();
    sandbox.write("outside.py", "import os\nos.system(cmd)\n");
    sandbox.write("commands/inside.py", "import os\nos.system(cmd)\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(sandbox.join("outside.py"), sandbox.join("commands/link.py"))
        .unwrap();
    let outside = sandbox.join("outside.py").display().to_string();
    declaration(
        &sandbox,
        "escape",
        &format!(
            "{{binary: python3, hardcoded_args: [../outside.py, '{outside}', link.py, missing.py, inside.py], user_controlled_args: []}}"
        ),
        "{}",
    );
    let (run, envelope) = lint(&sandbox);
    run.assert_code(0);
    let found = findings(&envelope);
    assert_eq!(
        found,
        [(
            "escape".to_owned(),
            "subprocess.hardcoded_args[4]".to_owned(),
            "inside.py".to_owned(),
            2
        )],
        "{run}"
    );
}

#[test]
fn odd_scripts_are_scanned_without_failing() {
    let sandbox = Sandbox::new();
    let mut not_utf8 = b"import os\n".to_vec();
    not_utf8.extend_from_slice(&[0xff, 0xfe, 0x80, b'\n']);
    not_utf8.extend_from_slice(b"os.system(cmd)\n");
    sandbox.write("commands/latin.py", not_utf8);
    // Over the 1 MiB that is read: the finding at the end is not reached.
    let mut big = String::from("os.popen(cmd)\n");
    let filler = "x = 1\n".repeat(300_000);
    big.push_str(&filler);
    big.push_str("os.system(cmd)\n");
    sandbox.write("commands/big.py", big);
    declaration(
        &sandbox,
        "odd",
        "{binary: python3, hardcoded_args: [latin.py, big.py, latin.py], user_controlled_args: []}",
        "{}",
    );
    let (run, envelope) = lint(&sandbox);
    run.assert_code(0);
    let lines: Vec<(String, u64)> = findings(&envelope)
        .into_iter()
        .map(|(_, _, file, line)| (file, line))
        .collect();
    assert_eq!(
        lines,
        [("latin.py".to_owned(), 3), ("big.py".to_owned(), 1)],
        "each script once, the bad bytes tolerated:\n{run}"
    );
}

#[test]
fn run_reports_the_warning_and_still_runs() {
    let sandbox = Sandbox::new();
    let script = sandbox.write(
        "commands/hello.sh",
        "greeting=`echo hello`\necho \"$greeting\"\n",
    );
    declaration(
        &sandbox,
        "hello",
        &format!(
            "{{binary: sh, hardcoded_args: ['{}'], user_controlled_args: []}}",
            script.display()
        ),
        "{}",
    );
    let run =
        Run::of(
            sandbox
                .cmd()
                .args(["--commands", "commands", "--output", "json", "run", "hello"]),
        );
    run.assert_code(0);
    assert_eq!(run.stdout, "hello\n");
    let envelope: Value = serde_json::from_str(&run.stderr).unwrap();
    let warnings = envelope["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{run}");
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .contains("hello.sh:1: warning[W103]"),
        "{run}"
    );
}

/// A program reached on `PATH` under a shell's name is read as that shell,
/// even when the declaration names its real file: here `bash` on `PATH` is
/// a symlink to `tool`, so `tool -c {script}` hands bash a command string.
#[cfg(unix)]
#[test]
fn a_program_that_path_calls_a_shell_is_linted_as_the_shell() {
    let sandbox = Sandbox::new();
    let tool = sandbox.script("bin/tool", "#!/bin/sh\nexit 0\n");
    std::os::unix::fs::symlink(&tool, sandbox.join("bin/bash")).unwrap();
    let parameters = "{script: {type: string, required: true}}";
    let subprocess = format!(
        "{{binary: {}, argv: [-c, {{param: script}}]}}",
        tool.display()
    );
    declaration(&sandbox, "runs-code", &subprocess, parameters);
    // Without the alias on PATH, `tool` is not a shell.
    declaration(
        &sandbox,
        "plain",
        "{binary: true, argv: [-c, {param: script}]}",
        parameters,
    );

    let with_alias =
        std::env::join_paths([sandbox.join("bin"), "/usr/bin".into(), "/bin".into()]).unwrap();
    let run = Run::of(sandbox.cmd().env("PATH", &with_alias).args([
        "--commands",
        "commands",
        "--output",
        "json",
        "schema",
        "lint",
    ]));
    let envelope = run.envelope();
    let codes = |name: &str| -> Vec<String> {
        envelope["data"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|file| file["name"] == name)
            .flat_map(|file| file["diagnostics"].as_array().unwrap().clone())
            .map(|diagnostic| {
                format!(
                    "{} {}",
                    diagnostic["code"].as_str().unwrap(),
                    diagnostic["message"].as_str().unwrap()
                )
            })
            .collect()
    };
    let flagged = codes("runs-code");
    assert!(
        flagged
            .iter()
            .any(|finding| finding.starts_with("E115") && finding.contains("bin/bash")),
        "{flagged:?}\n{run}"
    );
    assert!(
        !codes("plain")
            .iter()
            .any(|finding| finding.starts_with("E115")),
        "{run}"
    );
}
