//! The hook's shell reading against real bash (issue 38): a differential
//! fuzzer, and the recorded bypasses it is built to catch.
//!
//! The fuzzer writes lines from bash's grammar with substitution
//! primitives (`$(pwned)`, backquotes, `<(…)`, a `/dev/tcp` connection,
//! values such as `'a[$(pwned)]'` that arithmetic evaluates) dropped into
//! every context where bash expands or evaluates a word: command words,
//! `for` lists, `case` words and patterns, `[[ ]]`, `[` and `test`
//! operands, arithmetic, subscripts, parameter-expansion operands at any
//! depth, redirection targets, here-strings and here-documents, `{NAME}>`,
//! loop, `read` and `printf -v` targets, `cd`. Each line is judged by the
//! hook (the library's `judge`, as `aigent hook` calls it, against the
//! small registry below); each line it **allows** then runs with `bash -c`
//! in a throwaway project where every program is a shim
//! ([`crate::common::bash`]). The run fails the test if it:
//!
//! - started a program with words the hook did not read in the line (the
//!   payload ran, or bash split or unquoted a word otherwise);
//! - started one outside the project, or with its environment changed;
//! - gave one a file outside the project on its standard input;
//! - connected anywhere, or changed a file outside the project (inside
//!   it, a redirection changes only the project, which the policy allows);
//! - with strace: executed anything but bash and the shims, or connected
//!   to an internet address.
//!
//! CI runs `SHELL_FUZZ_CASES` lines (default 1,000; `FUZZ_CASES` too)
//! from seed `SHELL_FUZZ_SEED` (default 38; `FUZZ_SEED` too); run longer by
//! hand, e.g. `SHELL_FUZZ_CASES=50000 SHELL_FUZZ_SEED=7 cargo test --test
//! it shell_fuzz -- --nocapture`; `SHELL_FUZZ_RULES=1` also counts the
//! rule that refused each line not allowed. Without bash the tests say so
//! and pass. Every bypass
//! found becomes a case of [`RECORDED`], a unit test beside the rule that
//! fixed it, and a line of `tests/fixtures/hook/corpus/bypass.txt`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use aigent::hook::Verdict;
use aigent::hook::judge::{Context, Judgement, judge};
use aigent::registry::{HookSettings, ProgramIndex, Registry, Settings};

use crate::common::bash::{Effects, Lab, SECRET};

/// The registry the fuzzed lines are judged against: a few declared
/// programs, two of them confined to the project, and a policy whose
/// allow list holds the builtins that read or assign (`read`, `printf`).
const REGISTRY: &[(&str, &str)] = &[
    (
        "git-status.yaml",
        "name: git-status\ndescription: Working tree status\ndanger_level: safe\nparameters:\n  short: {type: boolean}\nsubprocess:\n  binary: git\n  argv: [status, {param: short, flag: --short}]\n",
    ),
    (
        "cargo-test.yaml",
        "name: cargo-test\ndescription: Run the tests\ndanger_level: safe\nparameters:\n  lib: {type: boolean}\nsubprocess:\n  binary: cargo\n  argv: [test, {param: lib, flag: --lib}]\n",
    ),
    (
        "jq.yaml",
        "name: jq\ndescription: Query JSON in the project\ndanger_level: safe\nparameters:\n  filter: {type: string, required: true, pattern: '^[^\\n]{1,200}$'}\n  files: {type: array, pattern_type: filepath, under: [$CWD]}\nsubprocess:\n  binary: jq\n  argv: [{param: filter}, {param: files}]\n",
    ),
    (
        "wc-lines.yaml",
        "name: wc-lines\ndescription: Count lines in the project\ndanger_level: safe\nparameters:\n  files: {type: array, pattern_type: filepath, under: [$CWD]}\nsubprocess:\n  binary: wc\n  argv: [-l, {param: files}]\n",
    ),
    (
        "cat.yaml",
        "name: cat\ndescription: Print files of the project\ndanger_level: safe\nparameters:\n  files: {type: array, required: true, pattern_type: filepath, under: [$CWD]}\nsubprocess:\n  binary: cat\n  argv: [{param: files}]\n",
    ),
    (
        "aigent.toml",
        "[hook]\nunmatched = \"ask\"\nnot_static = \"deny\"\nallow = [\"cd\", \"pwd\", \"echo\", \"true\", \"false\", \":\", \"test\", \"[\", \"ls\", \"printf\", \"read\", \"unset\", \"getopts\", \"wait\"]\nwrite_paths = [\"out/\"]\n",
    ),
];

/// Of the programs [`REGISTRY`] declares (`git`, `cargo`, `jq`, `wc`,
/// `cat`), those that read configuration from where they run which can
/// run a command (`cargo`'s `.cargo/config.toml`): the hook lets them run
/// only in the project. `git`'s reads may run in another repository whose
/// config sets no command, and the lab's directories outside the project
/// hold none; the others only read.
const CONFIGURED_WHERE_THEY_RUN: &[&str] = &["cargo"];
/// The declared programs whose paths are confined to the project.
const CONFINED: &[&str] = &["jq", "wc", "cat"];

fn cases() -> usize {
    ["SHELL_FUZZ_CASES", "FUZZ_CASES"]
        .iter()
        .find_map(|name| std::env::var(name).ok()?.parse().ok())
        .unwrap_or(1_000)
}

fn seed() -> u64 {
    ["SHELL_FUZZ_SEED", "FUZZ_SEED"]
        .iter()
        .find_map(|name| std::env::var(name).ok()?.parse().ok())
        .unwrap_or(38)
}

/// The lab and the hook, side by side.
struct Bench {
    lab: Lab,
    registry: Registry,
    index: ProgramIndex,
    settings: HookSettings,
}

impl Bench {
    /// A bench, or `None` (having said why) where bash is missing.
    fn new(test: &str) -> Option<Self> {
        let lab = match Lab::new() {
            Ok(lab) => lab,
            Err(missing) => {
                eprintln!("{test}: skipped: {}", missing.0);
                return None;
            }
        };
        if !lab.traced() {
            eprintln!(
                "{test}: strace is not available (or may not trace here); the runs are checked with shims alone"
            );
        }
        let dir = lab.root().join("registry");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in REGISTRY {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let registry = Registry::Directory(dir);
        let settings = Settings::load(&registry).expect("the fuzz policy").hook;
        let index = registry.program_index(None).expect("the program index");
        Some(Self {
            lab,
            registry,
            index,
            settings,
        })
    }

    fn judge(&self, line: &str) -> Judgement {
        let shims = self.lab.shim_dir();
        let which = |name: &str| Some(shims.join(name));
        let project = self.lab.project();
        let context = Context {
            registry: &self.registry,
            index: &self.index,
            settings: &self.settings,
            which: &which,
            cwd: Some(&project),
            aigent: None,
            home: None,
        };
        judge(line, &context)
    }

    /// What an allowed `line` did that the hook did not allow, run in bash.
    fn violations(&self, line: &str, effects: &Effects) -> Vec<String> {
        let mut found = Vec::new();
        // Every command of an allowed line was allowed, so a program may
        // run exactly as the hook read one of them, and no other way.
        let read: Vec<(String, Vec<String>)> = aigent::shell::parse(line)
            .map(|script| {
                script
                    .commands
                    .iter()
                    .filter_map(|command| {
                        // As the hook read it: brace lists written out.
                        let argv = aigent::hook::judge::judged_words(command, None)?;
                        let (program, arguments) = argv.split_first()?;
                        let name = Path::new(program).file_name()?.to_str()?.to_owned();
                        Some((name, arguments.to_vec()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let project = std::fs::canonicalize(self.lab.project()).unwrap();
        let baseline = self.lab.baseline_env();
        for exec in &effects.execs {
            let shown = format!("{} {:?}", exec.program, exec.arguments);
            if !read.iter().any(|(program, arguments)| {
                *program == exec.program && glob_expanded(arguments, &exec.arguments)
            }) {
                found.push(format!(
                    "ran `{shown}`, which the hook did not read in the line"
                ));
            }
            // A program that reads configuration where it runs runs only
            // in the project; a read, or an allow-listed program, anywhere.
            if CONFIGURED_WHERE_THEY_RUN.contains(&exec.program.as_str())
                && !exec.cwd.starts_with(&project)
            {
                found.push(format!(
                    "ran `{shown}` in {}, outside the project",
                    exec.cwd.display()
                ));
            }
            if exec.env != baseline {
                found.push(format!(
                    "ran `{shown}` with its environment changed: {}",
                    env_change(&baseline, &exec.env)
                ));
            }
            if CONFINED.contains(&exec.program.as_str())
                && exec
                    .stdin_first_line
                    .as_deref()
                    .is_some_and(|first| first == SECRET || first.starts_with("root:"))
            {
                found.push(format!(
                    "ran `{shown}` reading a file outside the project on its standard input"
                ));
            }
        }
        if effects.connections > 0 {
            found.push(format!(
                "connected to the loopback listener {} time(s)",
                effects.connections
            ));
        }
        // A redirection may write a file in the project (it changes only
        // the project); anywhere else is a violation.
        for path in &effects.changed {
            if !path.starts_with("project/") {
                found.push(format!("changed the file {path}"));
            }
        }
        for path in &effects.traced_execs {
            found.push(format!("executed {path} (strace)"));
        }
        for call in &effects.traced_connects {
            found.push(format!("connected: {call} (strace)"));
        }
        if effects.timed_out {
            found.push("did not finish in time".to_owned());
        }
        found
    }
}

fn env_change(baseline: &BTreeMap<String, String>, env: &BTreeMap<String, String>) -> String {
    let mut names: Vec<&String> = baseline.keys().chain(env.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|name| baseline.get(*name) != env.get(*name))
        .map(|name| format!("{name}={:?}", env.get(name)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a recorded bypass does in bash when nothing stops it.
#[derive(Debug, Clone, Copy)]
enum Payload {
    /// Runs this program, which the line only names inside what the hook
    /// once did not judge.
    Runs(&'static str),
    /// Connects to the loopback listener.
    Connects,
    /// The declared program runs with this variable changed.
    Environment(&'static str),
    /// A declared program reads a file outside the project on its input.
    ReadsOutside,
    /// A declared program runs outside the project.
    RunsOutside,
}

/// The 21 lines of the review (issue 38) that the hook allowed and bash
/// turned into something else, written for the lab: `{PORT}` is its
/// listener, `{OUTSIDE}` the directory beside the project. Each must be
/// refused by the hook, and each must still do what it did in bash, which
/// shows that it tests a real bypass.
const RECORDED: &[(&str, Payload)] = &[
    ("case ${y:-$(touch PWNED)} in esac", Payload::Runs("touch")),
    (
        "for x in $(( $(touch PWNED)0 )); do git status; done",
        Payload::Runs("touch"),
    ),
    ("case ${a[$(touch PWNED)]} in esac", Payload::Runs("touch")),
    (
        "case ${y:-$(echo x >/dev/tcp/127.0.0.1/{PORT})} in esac",
        Payload::Connects,
    ),
    ("cd ./sub/../.. && cargo test", Payload::RunsOutside),
    (
        "for x in ${y:-$(touch PWNED)}; do git status; done",
        Payload::Runs("touch"),
    ),
    ("case $[ $(touch PWNED) ] in esac", Payload::Runs("touch")),
    (
        "echo 'a[$(touch PWNED)]' >/dev/null; [[ 1 -eq _ ]]",
        Payload::Runs("touch"),
    ),
    (
        "echo 'a[$(touch PWNED)]' >/dev/null; [ -v 'b[_]' ]",
        Payload::Runs("touch"),
    ),
    (
        "echo 'a[$(touch PWNED)]' >/dev/null; test -v 'b[_]'",
        Payload::Runs("touch"),
    ),
    (
        "for x in 'a[$(touch PWNED)]'; do [[ 1 -eq x ]]; done",
        Payload::Runs("touch"),
    ),
    (
        "for x in 'a[$(touch PWNED)]'; do [[ -v 'b[x]' ]]; done",
        Payload::Runs("touch"),
    ),
    (
        "read -r x <<< 'a[$(touch PWNED)]'; [[ x -gt 0 ]]",
        Payload::Runs("touch"),
    ),
    (
        ": {HOME}>/dev/null; git status",
        Payload::Environment("HOME"),
    ),
    (
        ": {PATH}>/dev/null; git status",
        Payload::Environment("PATH"),
    ),
    (
        ": {XDG_CONFIG_HOME}>/dev/null; git status",
        Payload::Environment("XDG_CONFIG_HOME"),
    ),
    (
        "for HOME in .; do git status; done",
        Payload::Environment("HOME"),
    ),
    ("wc -l </etc/passwd", Payload::ReadsOutside),
    ("jq .name < {OUTSIDE}/secret.txt", Payload::ReadsOutside),
    ("cd /tmp && cargo test --lib", Payload::RunsOutside),
    ("cd ../outside && cargo test", Payload::RunsOutside),
];

fn written(line: &str, lab: &Lab) -> String {
    line.replace("{PORT}", &lab.port().to_string())
        .replace("{OUTSIDE}", &lab.outside().display().to_string())
}

fn rules(judgement: &Judgement) -> String {
    judgement
        .segments
        .iter()
        .map(|segment| format!("{}:{}", segment.verdict.as_str(), segment.rule))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn the_recorded_bypasses_are_refused_and_still_live_in_bash() {
    let Some(bench) = Bench::new("the_recorded_bypasses_are_refused_and_still_live_in_bash") else {
        return;
    };
    assert_eq!(RECORDED.len(), 21);
    let mut wrong = Vec::new();
    for (template, payload) in RECORDED {
        let line = written(template, &bench.lab);
        let judgement = bench.judge(&line);
        if judgement.verdict == Verdict::Allow {
            wrong.push(format!("allowed: {line} [{}]", rules(&judgement)));
        }
        let effects = bench.lab.run(&line);
        let project = std::fs::canonicalize(bench.lab.project()).unwrap();
        let live = match payload {
            Payload::Runs(program) => effects.execs.iter().any(|exec| exec.program == *program),
            Payload::Connects => effects.connections > 0,
            Payload::Environment(name) => effects
                .execs
                .iter()
                .any(|exec| exec.env.get(*name) != bench.lab.baseline_env().get(*name)),
            Payload::ReadsOutside => effects.execs.iter().any(|exec| {
                exec.stdin_first_line
                    .as_deref()
                    .is_some_and(|first| first == SECRET || first.starts_with("root:"))
            }),
            Payload::RunsOutside => effects
                .execs
                .iter()
                .any(|exec| !exec.cwd.starts_with(&project)),
        };
        if !live {
            wrong.push(format!(
                "bash no longer shows {payload:?}: {line}: {effects:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A small, seeded generator (splitmix64): the same seed gives the same
/// lines on every machine.
struct Generator {
    state: u64,
    port: u16,
    outside: String,
}

impl Generator {
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len())]
    }

    /// A line: one to three statements joined as bash joins them.
    fn line(&mut self) -> String {
        let mut line = self.statement(0);
        for _ in 0..self.below(3) {
            let join = self.pick(&[" && ", "; ", " || ", "\n", " | ", " & "]);
            line.push_str(join);
            line.push_str(&self.statement(0));
        }
        line
    }

    fn statement(&mut self, depth: usize) -> String {
        if depth > 2 {
            return self.body();
        }
        let prefix = match self.below(12) {
            0 => "! ",
            1 => "time ",
            _ => "",
        };
        let statement = self.bare_statement(depth);
        format!("{prefix}{statement}")
    }

    fn bare_statement(&mut self, depth: usize) -> String {
        match self.below(20) {
            0 | 1 => self.simple(),
            2 => format!(
                "for {} in {}; do {}; done",
                self.loop_variable(),
                self.words(),
                self.statement(depth + 1)
            ),
            3 => format!(
                "case {} in {}) {};; esac",
                self.word(),
                self.pattern(),
                self.statement(depth + 1)
            ),
            4 => format!("[[ {} ]]", self.test_expression()),
            5 => {
                let arguments = self.test_arguments();
                if self.chance(50) {
                    format!("[ {arguments} ]")
                } else {
                    format!("test {arguments}")
                }
            }
            6 => format!("{{ {}; }}{}", self.statement(depth + 1), self.redirect()),
            7 => format!("({})", self.statement(depth + 1)),
            8 => format!("cd {} && {}", self.cd_target(), self.body()),
            9 => format!("{}; {}", self.stage_value(), self.arithmetic_use()),
            10 => format!(
                "{} {}{}",
                self.body(),
                self.pick(&[
                    "{fd}",
                    "{HOME}",
                    "{PATH}",
                    "{XDG_CONFIG_HOME}",
                    "{GIT_DIR}",
                    "{a[x]}",
                    "{b[1]}"
                ]),
                self.pick(&[">/dev/null", "<data.json", ">>out/log", "<&0"])
            ),
            11 => match self.below(3) {
                0 => format!("read -r {} <<< {}", self.assigned_name(), self.word()),
                1 => format!("printf -v {} %s {}", self.assigned_name(), self.word()),
                _ => format!("{}={}", self.assigned_name(), self.word()),
            },
            12 => format!(
                "if {}; then {}; fi",
                self.statement(depth + 1),
                self.statement(depth + 1)
            ),
            13 => format!("while false; do {}; done", self.statement(depth + 1)),
            14 => format!(
                "{} <<{}\n{}\n{}",
                self.pick(&["wc -l", "jq .", "cat", ":"]),
                self.pick(&["EOF", "'EOF'"]),
                self.word(),
                "EOF"
            ),
            15 => format!("{} {}", self.body(), self.redirect()),
            16 => format!(
                "{} {} && {}",
                self.pick(&["pushd", "pushd -n", "popd", "cd -P", "cd -L"]),
                self.cd_target(),
                self.body()
            ),
            17 => format!(
                "case {} in {}) {}{} {}) {};; esac",
                self.word(),
                self.pattern(),
                self.body(),
                self.pick(&[";;", ";&", ";;&"]),
                self.pattern(),
                self.statement(depth + 1)
            ),
            18 => match self.below(3) {
                0 => format!("unset {}", self.assigned_name()),
                1 => format!("getopts ab {}", self.assigned_name()),
                _ => format!("wait -p {}", self.assigned_name()),
            },
            _ => format!("{}{}", self.body(), self.redirect()),
        }
    }

    /// A command that the registry allows as it stands.
    fn body(&mut self) -> String {
        self.pick(&[
            "git status",
            "git status --short",
            "cargo test",
            "echo ok",
            ":",
            "true",
            "jq . data.json",
            "jq .name",
            "wc -l README.md",
            "wc -l",
            "cat README.md",
            "ls",
            "pwd",
        ])
        .to_owned()
    }

    /// A command with one generated word in it.
    fn simple(&mut self) -> String {
        let word = self.word();
        match self.below(9) {
            0 => format!("echo {word}"),
            1 => format!("git status {word}"),
            2 => format!("jq {word} data.json"),
            3 => format!("ls {word}"),
            4 => format!("printf %s {word}"),
            5 => format!("cat {word}"),
            6 => format!(": {word}"),
            7 => format!("wc -l {word}"),
            _ => format!("{word} status"),
        }
    }

    fn words(&mut self) -> String {
        let count = 1 + self.below(3);
        (0..count)
            .map(|_| self.word())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A word: harmless (and often allowed), or carrying a payload.
    fn word(&mut self) -> String {
        if self.chance(65) {
            return self.harmless().to_owned();
        }
        let payload = self.payload();
        self.carry(&payload, 0)
    }

    fn harmless(&mut self) -> &'static str {
        self.pick(&[
            "a",
            "1",
            "'q'",
            "\"a b\"",
            "*.rs",
            "{a,b}",
            "{1..2}",
            "~",
            "x",
            "_",
            "0x10",
            "README.md",
            "data.json",
            "src/a.rs",
            "-n",
            "a[1]",
            "$'\\x41'",
            "\\$HOME",
            "'$(pwned)'",
            "\"\\$(pwned)\"",
            "'a[$(pwned)]'",
            "--",
            "out/x",
            "HOME",
            "'{HOME}'",
            "\\{HOME\\}",
            "a#b",
            "#$(pwned)",
            "'#'",
            "\\#x",
            "x=1",
            "x=~",
            "\\\n",
            "-v",
            "'-eq'",
            "\"$(( 1 ))\"",
        ])
    }

    fn payload(&mut self) -> String {
        match self.below(8) {
            0 => "$(pwned)".to_owned(),
            1 => "`pwned`".to_owned(),
            2 => "$(touch PWNED)".to_owned(),
            3 => format!("$(echo x >/dev/tcp/127.0.0.1/{})", self.port),
            4 => "<(pwned)".to_owned(),
            5 => format!("$(cat {}/secret.txt)", self.outside),
            6 => "'a[$(pwned)]'".to_owned(),
            _ => "$(pwned >out/x)".to_owned(),
        }
    }

    /// `inner` inside an expansion bash evaluates, up to three deep.
    fn carry(&mut self, inner: &str, depth: usize) -> String {
        if depth > 2 || self.chance(25) {
            return inner.to_owned();
        }
        let carried = match self.below(20) {
            0 => format!("${{x:-{inner}}}"),
            1 => format!("${{x-{inner}}}"),
            2 => format!("${{x:={inner}}}"),
            3 => format!("${{x:?{inner}}}"),
            4 => format!("${{x#{inner}}}"),
            5 => format!("${{x/{inner}/y}}"),
            6 => format!("${{x//y/{inner}}}"),
            7 => format!("${{a[{inner}]}}"),
            8 => format!("${{x:{inner}}}"),
            9 => format!("$(({inner}))"),
            10 => format!("$[{inner}]"),
            11 => format!("\"{inner}\""),
            12 => format!("a{inner}b"),
            13 => format!("${{x:-\"{inner}\"}}"),
            14 => format!("$(( a[{inner}] ))"),
            15 => format!("${{x:+{inner}}}"),
            16 => format!("${{x^{inner}}}"),
            17 => format!("${{!{inner}}}"),
            18 => format!("${{x@P}}{inner}"),
            _ => format!("${{#a[{inner}]}}"),
        };
        self.carry(&carried, depth + 1)
    }

    fn pattern(&mut self) -> String {
        if self.chance(50) {
            self.pick(&["*", "x", "a|b", "*.rs|x", "'q'", "[ab]"])
                .to_owned()
        } else {
            self.word()
        }
    }

    fn loop_variable(&mut self) -> &'static str {
        self.pick(&[
            "x",
            "f",
            "i",
            "path",
            "HOME",
            "PATH",
            "XDG_CONFIG_HOME",
            "GIT_DIR",
            "IFS",
            "BASH_ENV",
            "LD_PRELOAD",
        ])
    }

    fn assigned_name(&mut self) -> &'static str {
        self.pick(&[
            "x",
            "y",
            "HOME",
            "PATH",
            "XDG_CONFIG_HOME",
            "a[1]",
            "a[x]",
            "'a[$(pwned)]'",
            "GIT_DIR",
        ])
    }

    fn redirect(&mut self) -> String {
        match self.below(10) {
            0 => " < data.json".to_owned(),
            1 => format!(" < {}/secret.txt", self.outside),
            2 => " < ../outside/secret.txt".to_owned(),
            3 => " > out/log".to_owned(),
            4 => " >/dev/null 2>&1".to_owned(),
            5 => format!(" <<< {}", self.word()),
            6 => format!(" < {}", self.word()),
            7 => format!(" > {}", self.word()),
            8 => " < /etc/passwd".to_owned(),
            _ => format!(" 3< {}", self.word()),
        }
    }

    fn cd_target(&mut self) -> String {
        match self.below(14) {
            0 => ".".to_owned(),
            1 => "sub".to_owned(),
            2 => "..".to_owned(),
            3 => "../outside".to_owned(),
            4 => self.outside.clone(),
            5 => "-".to_owned(),
            6 => String::new(),
            7 => "sub/..".to_owned(),
            8 => "../project".to_owned(),
            9 => "'sub'".to_owned(),
            10 => "/tmp".to_owned(),
            11 => "./sub/../..".to_owned(),
            12 => "-P ..".to_owned(),
            _ => self.word(),
        }
    }

    fn code_value(&mut self) -> &'static str {
        self.pick(&[
            "'a[$(pwned)]'",
            "\"a[\\$(pwned)]\"",
            "'b[`pwned`]'",
            "'x[$(touch PWNED)]'",
            "1",
        ])
    }

    /// Puts code where arithmetic will find it: in a variable, or in `_`.
    fn stage_value(&mut self) -> String {
        let value = self.code_value();
        match self.below(7) {
            0 => format!("x={value}"),
            1 => format!("for x in {value}; do :; done"),
            2 => format!("echo {value} >/dev/null"),
            3 => format!("read -r x <<< {value}"),
            4 => format!("printf -v x %s {value}"),
            5 => format!(": {value}"),
            _ => format!("cd . && : {value}"),
        }
    }

    /// Makes bash evaluate a name as arithmetic.
    fn arithmetic_use(&mut self) -> String {
        self.pick(&[
            "[[ 1 -eq x ]]",
            "[[ x -gt 0 ]]",
            "[[ -v 'b[x]' ]]",
            "[[ -v b[_] ]]",
            "test -v 'b[x]'",
            "[ -v 'b[_]' ]",
            "echo $((x))",
            "echo ${a[x]}",
            ": {b[x]}>/dev/null",
            "echo ${b[_]}",
            "[[ 1 -eq _ ]]",
            "echo $[_]",
            "case $((x)) in esac",
            "[ 1 -eq x ]",
            "test x -lt 1",
            "[[ _ -ne 0 ]]",
        ])
        .to_owned()
    }

    fn test_expression(&mut self) -> String {
        let word = self.word();
        match self.below(9) {
            0 => format!("-n {word}"),
            1 => format!("{word} == x"),
            2 => format!("1 -eq {word}"),
            3 => format!("{word} -lt 2"),
            4 => format!("-v {word}"),
            5 => format!("-f {word}"),
            6 => format!("{word} =~ x"),
            7 => word,
            _ => format!("-z {word} && -n x"),
        }
    }

    fn test_arguments(&mut self) -> String {
        let word = self.word();
        match self.below(5) {
            0 => format!("-n {word}"),
            1 => format!("{word} = x"),
            2 => format!("1 -eq {word}"),
            3 => format!("-v {word}"),
            _ => format!("-f {word}"),
        }
    }
}

#[test]
fn allowed_lines_do_in_bash_only_what_the_hook_read() {
    let Some(bench) = Bench::new("allowed_lines_do_in_bash_only_what_the_hook_read") else {
        return;
    };
    let (cases, seed) = (cases(), seed());
    let mut generator = Generator {
        state: seed,
        port: bench.lab.port(),
        outside: bench.lab.outside().display().to_string(),
    };
    let started = Instant::now();
    let mut judging = std::time::Duration::ZERO;
    let mut allowed = 0;
    let mut histogram: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = String::new();
    let mut failed = 0;
    for case in 0..cases {
        let line = generator.line();
        let judged = Instant::now();
        let judgement = bench.judge(&line);
        judging += judged.elapsed();
        if judgement.verdict != Verdict::Allow {
            if std::env::var_os("SHELL_FUZZ_RULES").is_some() {
                for segment in &judgement.segments {
                    if segment.verdict == judgement.verdict {
                        *histogram.entry(segment.rule).or_insert(0usize) += 1;
                        break;
                    }
                }
            }
            continue;
        }
        allowed += 1;
        let effects = bench.lab.run(&line);
        let violations = bench.violations(&line, &effects);
        if !violations.is_empty() {
            failed += 1;
            if failed <= 20 {
                let _ = writeln!(
                    failures,
                    "case {case}: {}\n    hook: allow [{}]\n    bash: {}",
                    line.escape_debug(),
                    rules(&judgement),
                    violations.join("; ")
                );
            }
        }
    }
    eprintln!(
        "shell_fuzz: {cases} lines from seed {seed}, {allowed} allowed and run in bash{}, {:.1} s ({:.1} s judging)",
        if bench.lab.traced() {
            " under strace"
        } else {
            ""
        },
        started.elapsed().as_secs_f64(),
        judging.as_secs_f64()
    );
    if !histogram.is_empty() {
        eprintln!("shell_fuzz: the first refusing rule of the lines not allowed: {histogram:?}");
    }
    assert!(
        failed == 0,
        "{failed} of {allowed} allowed lines (seed {seed}) did in bash what the hook did not allow:\n{failures}"
    );
    // The generator must reach bash often enough to mean something.
    assert!(
        allowed * 10 >= cases,
        "only {allowed} of {cases} lines were allowed"
    );
}

/// Quote removal: a static word, bare, inside double quotes or in single
/// quotes, reaches the program exactly as the hook read it.
#[test]
fn the_words_the_hook_reads_are_the_words_bash_passes() {
    let Some(bench) = Bench::new("the_words_the_hook_reads_are_the_words_bash_passes") else {
        return;
    };
    let mut generator = Generator {
        state: seed(),
        port: bench.lab.port(),
        outside: bench.lab.outside().display().to_string(),
    };
    let mut wrong = Vec::new();
    let mut checked = 0;
    for _ in 0..200 {
        let mut line = "cat".to_owned();
        for _ in 0..1 + generator.below(3) {
            line.push(' ');
            line.push_str(generator.harmless());
            if generator.chance(30) {
                // Two words written as one: bash joins them.
                line.push_str(generator.harmless());
            }
        }
        let Ok(script) = aigent::shell::parse(&line) else {
            continue;
        };
        let [command] = script.commands.as_slice() else {
            continue;
        };
        let Some(argv) = command.argv() else {
            continue;
        };
        let expected: Vec<String> = argv[1..].iter().map(|word| (*word).to_owned()).collect();
        checked += 1;
        let effects = bench.lab.run(&line);
        match effects.execs.as_slice() {
            [exec] if exec.arguments == expected => {}
            other => wrong.push(format!(
                "{line}: hook read {expected:?}, bash passed {other:?}"
            )),
        }
    }
    assert!(checked >= 50, "only {checked} lines were static");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Whether bash could have made `ran` of the words the hook `read`: each
/// word as it is, or a glob as one or more names it matches (sorted, as
/// bash sorts them).
fn glob_expanded(read: &[String], ran: &[String]) -> bool {
    let Some((word, rest)) = read.split_first() else {
        return ran.is_empty();
    };
    if ran.first() == Some(word) && glob_expanded(rest, &ran[1..]) {
        return true;
    }
    if !word.contains(['*', '?', '[']) {
        return false;
    }
    let matched = ran
        .iter()
        .take_while(|name| aigent::hook::judge::glob_expands_to(word, name))
        .count();
    (1..=matched).any(|taken| ran[..taken].is_sorted() && glob_expanded(rest, &ran[taken..]))
}
