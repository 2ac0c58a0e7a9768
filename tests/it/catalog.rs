//! The built-in catalog (issue 44): every declaration in `catalog/` and
//! `catalog/deny/` parses and lints clean; the sample lines of each
//! (`tests/fixtures/catalog/samples.txt`) are judged as its class says, with
//! its dangerous options refused; the allowed ones run for real where this
//! machine has the program and accept the options; the forms that run
//! project code run confined in real projects; and a property test holds
//! that a line re-spelt the ways its program reads alike is judged alike,
//! while one undeclared option is never allowed.
//!
//! Lines are judged through the library (`aigent::hook::judge::judge`) with
//! the catalog alone as the registry, from a small git repository (see
//! [`Repo`]), as `aigent hook` would judge them for an agent working there.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use aigent::contract::{
    ArgvPart, CommandClass, Declaration, Origin, ParamType, SourceFormat, Syntax,
};
use aigent::exec::Argv;
use aigent::exec::argv_grammar::Grammar;
use aigent::guard::{self, RawArguments};
use aigent::hook::Verdict;
use aigent::hook::judge::{AigentSelf, Context, Judgement, judge};
use aigent::registry::{
    CATALOG, CATALOG_DENY, HookSettings, ProgramIndex, Registry, Settings, parse_declaration,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

// ------------------------------------------------------------------ files

/// Every declaration of a table, parsed (and linted) as the registry does.
fn parse_table(table: &[(&str, &str, &str)]) -> Vec<(String, Result<Declaration, String>)> {
    table
        .iter()
        .map(|(file_name, text, _)| {
            let name = file_name.strip_suffix(".json").expect("a JSON file");
            let origin = Origin {
                file_stem: Some(name),
                file: None,
            };
            let parsed = parse_declaration(text, SourceFormat::Json, &origin);
            let found: Vec<String> = parsed
                .diagnostics
                .iter()
                .map(|diagnostic| format!("{} {}", diagnostic.code, diagnostic.message))
                .collect();
            let result = match (parsed.declaration, found.is_empty()) {
                (Some(declaration), true) => Ok(declaration),
                _ => Err(found.join("; ")),
            };
            (name.to_owned(), result)
        })
        .collect()
}

/// The catalog's declarations by name, parsed once.
fn catalog() -> &'static BTreeMap<String, Declaration> {
    static PARSED: OnceLock<BTreeMap<String, Declaration>> = OnceLock::new();
    PARSED.get_or_init(|| {
        parse_table(CATALOG)
            .into_iter()
            .filter_map(|(name, parsed)| Some((name, parsed.ok()?)))
            .collect()
    })
}

fn deny_forms() -> &'static BTreeMap<String, Declaration> {
    static PARSED: OnceLock<BTreeMap<String, Declaration>> = OnceLock::new();
    PARSED.get_or_init(|| {
        parse_table(CATALOG_DENY)
            .into_iter()
            .filter_map(|(name, parsed)| Some((name, parsed.ok()?)))
            .collect()
    })
}

#[test]
fn every_catalog_file_parses_and_lints_clean() {
    let mut problems = Vec::new();
    for (table, label) in [(CATALOG, "catalog"), (CATALOG_DENY, "catalog/deny")] {
        for (name, parsed) in parse_table(table) {
            if let Err(found) = parsed {
                problems.push(format!("{label}/{name}.json: {found}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} files with findings:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(CATALOG.len() >= 200, "{} declarations", CATALOG.len());
}

#[test]
fn catastrophic_forms_run_nothing_and_match_as_written() {
    for (name, form) in deny_forms() {
        let subprocess = form.subprocess.as_ref().expect("a program");
        assert_eq!(
            subprocess.syntax(),
            Syntax::Exact,
            "{name}: a catastrophic form is matched as written"
        );
        assert!(form.requires_confirmation(), "{name}: destructive");
    }
}

// ------------------------------------------------------------------ samples

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    Allow,
    Ask,
    NotAllow,
    Deny,
}

#[derive(Debug, Clone)]
struct Sample {
    /// `samples.txt:LINE`.
    origin: String,
    section: String,
    expected: Expected,
    /// `Some(true)` for `/run`, `Some(false)` for `/norun`.
    run: Option<bool>,
    line: String,
    /// The section's `$` lines before this one.
    setup: Vec<String>,
}

fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/catalog/samples.txt");
        let text = std::fs::read_to_string(&path).expect("read samples.txt");
        let mut samples = Vec::new();
        let mut section: Option<String> = None;
        let mut setup: Vec<String> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let origin = format!("samples.txt:{}", index + 1);
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
                section = Some(name.to_owned());
                setup.clear();
                continue;
            }
            let (token, command) = line
                .split_once('\t')
                .unwrap_or_else(|| panic!("{origin}: no tab in {line:?}"));
            if token == "$" {
                setup.push(command.to_owned());
                continue;
            }
            let (token, run) = match token.split_once('/') {
                Some((token, "run")) => (token, Some(true)),
                Some((token, "norun")) => (token, Some(false)),
                Some((_, other)) => panic!("{origin}: unknown suffix /{other}"),
                None => (token, None),
            };
            let expected = match token {
                "allow" => Expected::Allow,
                "ask" => Expected::Ask,
                "!allow" => Expected::NotAllow,
                "deny" => Expected::Deny,
                other => panic!("{origin}: unknown expectation {other:?}"),
            };
            samples.push(Sample {
                origin,
                section: section
                    .clone()
                    .unwrap_or_else(|| panic!("line {} is in no section", index + 1)),
                expected,
                run,
                line: command.to_owned(),
                setup: setup.clone(),
            });
        }
        samples
    })
}

#[test]
fn every_declaration_has_samples_that_show_its_class() {
    let mut problems = Vec::new();
    let sections: BTreeSet<&str> = samples()
        .iter()
        .map(|sample| sample.section.as_str())
        .collect();
    for section in &sections {
        if !catalog().contains_key(*section) && !deny_forms().contains_key(*section) {
            problems.push(format!("[{section}] names no declaration of the catalog"));
        }
    }
    for (name, declaration) in catalog() {
        let wanted = match declaration.class() {
            CommandClass::DiscardsWork => Expected::Ask,
            _ => Expected::Allow,
        };
        let shown = samples()
            .iter()
            .any(|sample| sample.section == *name && sample.expected == wanted);
        if !shown {
            problems.push(format!(
                "[{name}] has no `{wanted:?}` line for its class `{}`",
                declaration.class().as_str()
            ));
        }
    }
    for name in deny_forms().keys() {
        let shown = samples()
            .iter()
            .any(|sample| sample.section == *name && sample.expected == Expected::Deny);
        if !shown {
            problems.push(format!("[{name}] has no `deny` line"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ------------------------------------------------------------------ the repository

const ZIP_HELLO: &[u8] = &[
    // A stored (uncompressed) zip archive holding `hello.txt` ("hello\n"),
    // written by Python's zipfile module.
    0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x58, 0x20, 0x30,
    0x3a, 0x36, 0x06, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x68, 0x65,
    0x6c, 0x6c, 0x6f, 0x2e, 0x74, 0x78, 0x74, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a, 0x50, 0x4b, 0x01,
    0x02, 0x14, 0x03, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x58, 0x20, 0x30, 0x3a,
    0x36, 0x06, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0xa4, 0x01, 0x00, 0x00, 0x00, 0x00, 0x68, 0x65, 0x6c, 0x6c, 0x6f,
    0x2e, 0x74, 0x78, 0x74, 0x50, 0x4b, 0x05, 0x06, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x37, 0x00, 0x00, 0x00, 0x2d, 0x00, 0x00, 0x00, 0x00, 0x00,
];

/// The small git repository the samples run in: `README.md`, `a.txt` and
/// `b.txt` in a first commit (tagged `v0.1.0`, with branch `old` on it);
/// `src/`, `notes/`, `data.json`, `arch.tgz` and `x.zip` in a second, on
/// `main`; branch `feature` with one commit of its own off the first; a
/// remote `origin` that is never reached, with `origin/main` at `main`.
/// Its home (a `.gitconfig` with a name) and the XDG directories sit
/// beside it, in the same temp dir.
struct Repo {
    root: tempfile::TempDir,
}

impl Repo {
    fn template() -> &'static Repo {
        static REPO: OnceLock<Repo> = OnceLock::new();
        REPO.get_or_init(Repo::build)
    }

    fn build() -> Repo {
        let root = tempfile::Builder::new()
            .prefix("aigent-catalog-")
            .tempdir()
            .expect("temp dir");
        let repo = Repo { root };
        let home = repo.home();
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(
            home.join(".gitconfig"),
            "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n",
        )
        .unwrap();
        let dir = repo.dir();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::create_dir_all(dir.join("notes")).unwrap();
        let write = |path: &str, text: &[u8]| std::fs::write(dir.join(path), text).unwrap();
        write("README.md", b"# demo\n");
        write("a.txt", b"alpha\nbeta\ngamma\nbeta\n");
        write("b.txt", b"one:two\nthree:four\n");
        if have("git") {
            repo.git(&["init", "-q", "-b", "main"]);
            repo.git(&["add", "README.md", "a.txt", "b.txt"]);
            repo.git(&["commit", "-q", "-m", "First"]);
            repo.git(&["tag", "v0.1.0"]);
            repo.git(&["branch", "old"]);
            repo.git(&["switch", "-q", "-c", "feature"]);
            write("feature.txt", b"feature\n");
            repo.git(&["add", "feature.txt"]);
            repo.git(&["commit", "-q", "-m", "Feature"]);
            repo.git(&["switch", "-q", "main"]);
        }
        write("src/main.rs", b"fn main() {\n    println!(\"hi\");\n}\n");
        write("src/lib.rs", b"pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
        write("notes/todo.txt", b"TODO: write docs\n");
        write(
            "data.json",
            br#"{"name": "demo", "items": [{"name": "x"}, {"name": "y"}]}"#,
        );
        write("x.zip", ZIP_HELLO);
        if have("tar") {
            let made = repo
                .command("tar")
                .args(["-czf", "arch.tgz", "a.txt", "b.txt"])
                .status()
                .expect("run tar");
            assert!(made.success(), "tar made no archive");
        }
        if have("git") {
            repo.git(&["add", "."]);
            repo.git(&["commit", "-q", "-m", "Second"]);
            repo.git(&[
                "remote",
                "add",
                "origin",
                "https://example.invalid/demo.git",
            ]);
            repo.git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
        }
        repo
    }

    fn dir(&self) -> PathBuf {
        self.root.path().join("repo")
    }

    fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    /// A program run in the repository, with the repository's home, XDG
    /// directories in the temp dir, no pager, no editor, no prompts and
    /// nothing on standard input.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        let root = self.root.path();
        command
            .current_dir(self.dir())
            .env("HOME", self.home())
            .env("XDG_CONFIG_HOME", root.join("config"))
            .env("XDG_CACHE_HOME", root.join("cache"))
            .env("XDG_STATE_HOME", root.join("state"))
            .env("XDG_DATA_HOME", root.join("data"))
            .env("TMPDIR", root.join("tmp"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CEILING_DIRECTORIES", root)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_EDITOR", "true")
            .env("GIT_PAGER", "cat")
            .env("PAGER", "cat")
            .env("LC_ALL", "C")
            .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("AIGENT_COMMANDS")
            .stdin(Stdio::null());
        std::fs::create_dir_all(root.join("tmp")).unwrap();
        command
    }

    fn git(&self, args: &[&str]) {
        let output = self.command("git").args(args).output().expect("run git");
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// A fresh copy of the template, for one run.
    fn copy(&self) -> Repo {
        let root = tempfile::Builder::new()
            .prefix("aigent-catalog-run-")
            .tempdir()
            .expect("temp dir");
        copy_tree(self.root.path(), root.path());
        Repo { root }
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target)
                .unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The program on PATH, if this machine has it.
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::metadata(candidate)
                    .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
            }
            #[cfg(not(unix))]
            {
                candidate.is_file()
            }
        })
}

fn have(program: &str) -> bool {
    which(program).is_some()
}

// ------------------------------------------------------------------ judging

struct Judge {
    registry: Registry,
    index: ProgramIndex,
    settings: HookSettings,
    aigent: AigentSelf,
}

impl Judge {
    fn get() -> &'static Judge {
        static JUDGE: OnceLock<Judge> = OnceLock::new();
        JUDGE.get_or_init(|| {
            let registry = Registry::Catalog;
            let settings = Settings::load(&registry).expect("default settings");
            let index = registry.program_index(None).expect("the catalog's index");
            Judge {
                registry,
                index,
                settings: settings.hook,
                aigent: AigentSelf {
                    exe: PathBuf::from(env!("CARGO_BIN_EXE_aigent")),
                    registry_dir: None,
                },
            }
        })
    }

    /// `line` as the hook judges it for an agent in the sample repository.
    fn judge(&self, line: &str) -> Judgement {
        let which = |name: &str| Some(PathBuf::from(format!("/usr/bin/{name}")));
        let cwd = Repo::template().dir();
        let context = Context {
            registry: &self.registry,
            index: &self.index,
            settings: &self.settings,
            which: &which,
            cwd: Some(&cwd),
            aigent: Some(&self.aigent),
        };
        judge(line, &context)
    }
}

fn describe(judgement: &Judgement) -> String {
    judgement
        .segments
        .iter()
        .map(|segment| {
            format!(
                "{}:{}{} ({})",
                segment.verdict.as_str(),
                segment.rule,
                segment
                    .declaration
                    .as_deref()
                    .map(|name| format!(" by {name}"))
                    .unwrap_or_default(),
                segment.message
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether the judgement is what the sample expects: allow and ask by the
/// section's own declaration; a catastrophic form denied by itself.
fn judged_as_expected(sample: &Sample, judgement: &Judgement) -> bool {
    let by_section = judgement.segments.len() == 1
        && judgement.segments[0].declaration.as_deref() == Some(sample.section.as_str());
    match sample.expected {
        Expected::Allow => judgement.verdict == Verdict::Allow && by_section,
        Expected::Ask => {
            judgement.verdict == Verdict::Ask
                && (by_section || !catalog().contains_key(&sample.section))
        }
        Expected::NotAllow => judgement.verdict != Verdict::Allow,
        Expected::Deny if deny_forms().contains_key(&sample.section) => {
            judgement.verdict == Verdict::Deny
                && (by_section
                    || judgement
                        .segments
                        .iter()
                        .any(|segment| segment.rule != "catastrophic"))
        }
        Expected::Deny => judgement.verdict == Verdict::Deny,
    }
}

/// Judges the samples of the sections `keep` selects; fails listing every
/// misjudged one.
fn check_samples(keep: impl Fn(&str) -> bool) {
    let judge = Judge::get();
    let mut wrong = Vec::new();
    let mut count = 0;
    for sample in samples().iter().filter(|sample| keep(&sample.section)) {
        count += 1;
        let judgement = judge.judge(&sample.line);
        if !judged_as_expected(sample, &judgement) {
            wrong.push(format!(
                "{} [{}]: expected {:?}, got {}\n    {}\n    {}",
                sample.origin,
                sample.section,
                sample.expected,
                judgement.verdict.as_str(),
                sample.line,
                describe(&judgement)
            ));
        }
    }
    assert!(count > 0, "no samples selected");
    assert!(
        wrong.is_empty(),
        "{} of {count} sample lines misjudged:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn is_git(section: &str) -> bool {
    section.starts_with("git-") || section.starts_with("gh-")
}

fn is_build(section: &str) -> bool {
    catalog()
        .get(section)
        .and_then(|declaration| declaration.subprocess.as_ref())
        .is_some_and(|subprocess| {
            matches!(
                subprocess.binary.as_str(),
                "cargo"
                    | "npm"
                    | "npx"
                    | "pnpm"
                    | "yarn"
                    | "bun"
                    | "node"
                    | "python"
                    | "python3"
                    | "pip"
                    | "pip3"
                    | "uv"
                    | "pytest"
                    | "go"
                    | "make"
                    | "docker"
                    | "kubectl"
                    | "terraform"
                    | "curl"
                    | "wget"
            )
        })
}

#[test]
fn git_and_gh_samples_are_judged_as_their_class_says() {
    check_samples(is_git);
}

#[test]
fn build_and_infrastructure_samples_are_judged_as_their_class_says() {
    check_samples(is_build);
}

#[test]
fn file_tool_samples_are_judged_as_their_class_says() {
    check_samples(|section| {
        !is_git(section) && !is_build(section) && !deny_forms().contains_key(section)
    });
}

#[test]
fn catastrophic_samples_are_denied() {
    check_samples(|section| deny_forms().contains_key(section));
}

// ------------------------------------------------------------------ real programs

/// The words of a sample line, as the shell would pass them.
fn words_of(line: &str) -> Vec<String> {
    let script = aigent::shell::parse(line).unwrap_or_else(|error| panic!("{line}: {error}"));
    assert_eq!(script.commands.len(), 1, "{line}: one command");
    script.commands[0]
        .argv()
        .unwrap_or_else(|| panic!("{line}: not static"))
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// Waits for `child` at most `limit`; kills it past that.
fn wait_at_most(child: &mut std::process::Child, limit: Duration) -> Option<i32> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(status.code().unwrap_or(-1));
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `sample` for real in a fresh copy of the repository; an error says
/// how it failed.
fn run_for_real(sample: &Sample, declaration: &Declaration) -> Result<(), String> {
    let repo = Repo::template().copy();
    for setup in &sample.setup {
        let status = repo
            .command("sh")
            .args(["-c", setup])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|error| format!("setup `{setup}`: {error}"))?;
        if !status.success() {
            return Err(format!("setup `{setup}` failed"));
        }
    }
    let words = words_of(&sample.line);
    let mut child = repo
        .command(&words[0])
        .args(&words[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("spawn: {error}"))?;
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let code = wait_at_most(&mut child, Duration::from_secs(20));
    let stderr = reader.join().unwrap_or_default();
    match code {
        Some(code) if declaration.is_success_exit(code) => Ok(()),
        Some(code) => Err(format!(
            "exit {code} (success is {:?}): {}",
            declaration.success_exit_codes,
            stderr.trim()
        )),
        None => Err("did not finish within 20 s".to_owned()),
    }
}

#[test]
#[cfg(unix)]
fn samples_run_for_real_where_the_program_is_here() {
    let mut failures = Vec::new();
    let mut absent: BTreeSet<String> = BTreeSet::new();
    let mut ran = 0;
    for sample in samples() {
        let Some(declaration) = catalog().get(&sample.section) else {
            continue;
        };
        let wanted = match sample.run {
            Some(run) => run,
            None => {
                sample.expected == Expected::Allow
                    && matches!(
                        declaration.class(),
                        CommandClass::Reads | CommandClass::ChangesProject
                    )
            }
        };
        if !wanted {
            continue;
        }
        let program = &declaration.subprocess.as_ref().expect("a program").binary;
        if !have(program) {
            absent.insert(program.clone());
            continue;
        }
        ran += 1;
        if let Err(why) = run_for_real(sample, declaration) {
            failures.push(format!(
                "{} [{}] `{}`: {why}",
                sample.origin, sample.section, sample.line
            ));
        }
    }
    if !absent.is_empty() {
        eprintln!(
            "catalog: not on this machine, so not run: {}",
            absent.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    assert!(ran > 100, "only {ran} samples ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} sample lines failed for real:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
