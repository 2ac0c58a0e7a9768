//! The raw-shell lint (DESIGN.md §4, W103): a declaration can keep every
//! argument out of a shell, and then run a script that hands them to one.
//! When an argument of the declaration (its `binary`, a `hardcoded_args`
//! entry, or a parameter's `default`) names a script file beside the
//! registry, that script is scanned for the constructs that run a command
//! string through a shell:
//!
//! - Python (`.py`): `os.system(`, `os.popen(`, `shell=True` (or `=1`),
//!   `subprocess.getoutput(`/`getstatusoutput(`,
//!   `asyncio.create_subprocess_shell(`;
//! - JavaScript and TypeScript (`.js`, `.mjs`, `.cjs`, `.ts`, `.mts`,
//!   `.cts`): `exec(` and `execSync(` of `child_process` (through the module,
//!   an alias of it or a destructured import, never `RegExp.exec` or
//!   `execFile`), and `shell: true`;
//! - shell (`.sh`, `.bash`): `eval`, backtick command substitution, and
//!   `sh -c`/`bash -c` whose command string expands a variable (a
//!   single-quoted string, which passes values as `$1`, is the safe form);
//! - Ruby (`.rb`): backticks and `%x(...)`, and `system`, `exec`, `spawn`,
//!   `IO.popen` or `Open3` called with one interpolated (`#{...}`) string;
//! - every language: an argv list `["sh", "-c", ...]` whose command string
//!   is built at run time (an f-string, a template literal, a variable,
//!   concatenation or formatting).
//!
//! It is a line scanner, not a parser: it reads the first
//! [`MAX_SCRIPT_BYTES`] of a script, decodes it leniently (bad UTF-8 becomes
//! U+FFFD), and skips comment lines (and Python docstrings and JavaScript
//! block comments that start a line). Paths are resolved relative to the
//! registry directory and must stay inside it (symlinks included); the
//! built-in registry has no directory and is not scanned.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::contract::codes;
use crate::contract::declaration::{Declaration, Inputs};
use crate::report::Diagnostic;

/// How much of a script is read.
pub const MAX_SCRIPT_BYTES: u64 = 1024 * 1024;
/// Findings reported per script; the rest are counted in one more warning.
pub const MAX_FINDINGS_PER_SCRIPT: usize = 20;

/// A script's language, by its file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Python,
    JavaScript,
    Shell,
    Ruby,
}

impl Language {
    pub fn of(path: &str) -> Option<Self> {
        let (_, extension) = path.rsplit_once('.')?;
        match extension.to_ascii_lowercase().as_str() {
            "py" => Some(Self::Python),
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" => Some(Self::JavaScript),
            "sh" | "bash" => Some(Self::Shell),
            "rb" => Some(Self::Ruby),
            _ => None,
        }
    }
}

/// One raw-shell construct in a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// 1-based.
    pub line: usize,
    /// What was found, as it reads in the source (`os.system(`).
    pub construct: &'static str,
    /// What to do instead.
    pub advice: &'static str,
}

/// The registration check: every script the declaration names, scanned.
/// Scripts are found relative to the declaration's file; a declaration
/// without one (the embedded examples) names none.
pub fn raw_shell_in_scripts(declaration: &Declaration, file: Option<&Path>) -> Vec<Diagnostic> {
    let Some(declaration_file) = file else {
        return Vec::new();
    };
    let dir = match declaration_file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let Ok(root) = dir.canonicalize() else {
        return Vec::new();
    };
    let mut scanned = HashSet::new();
    let mut diagnostics = Vec::new();
    for (field, word) in named_files(declaration) {
        let Some(language) = Language::of(&word) else {
            continue;
        };
        let shown = dir.join(&word);
        let Some(real) = inside(&root, &shown) else {
            continue;
        };
        if !scanned.insert(real.clone()) {
            continue;
        }
        let Some(text) = read_bounded(&real) else {
            continue;
        };
        let findings = scan(&text, language);
        let shown = shown.display().to_string();
        for finding in findings.iter().take(MAX_FINDINGS_PER_SCRIPT) {
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::RawShellInScript,
                    format!(
                        "`{}` hands a command string to a shell, which undoes the argv safety of `aigent run {}`; {}",
                        finding.construct, declaration.name, finding.advice
                    ),
                )
                .with_field(field.clone())
                .in_file(shown.clone(), finding.line),
            );
        }
        if findings.len() > MAX_FINDINGS_PER_SCRIPT {
            diagnostics.push(
                Diagnostic::new(
                    codes::Code::RawShellInScript,
                    format!(
                        "{} more raw-shell constructs in {shown} are not listed",
                        findings.len() - MAX_FINDINGS_PER_SCRIPT
                    ),
                )
                .with_field(field.clone()),
            );
        }
    }
    diagnostics
}

/// Every word of the declaration that may name a file the command runs,
/// with the field it is in.
fn named_files(declaration: &Declaration) -> Vec<(String, String)> {
    let mut words = Vec::new();
    if let Some(subprocess) = &declaration.subprocess {
        words.push(("subprocess.binary".to_owned(), subprocess.binary.clone()));
        for (index, arg) in subprocess.hardcoded_args.iter().enumerate() {
            words.push((format!("subprocess.hardcoded_args[{index}]"), arg.clone()));
        }
    }
    let defaults: Vec<(String, &Value)> = match &declaration.inputs {
        Inputs::Parameters(parameters) => parameters
            .iter()
            .filter_map(|parameter| {
                parameter
                    .default
                    .as_ref()
                    .map(|default| (format!("parameters.{}.default", parameter.name), default))
            })
            .collect(),
        Inputs::InputSchema(schema) => schema
            .properties()
            .filter_map(|(name, property)| {
                property
                    .get("default")
                    .map(|default| (format!("input_schema.properties.{name}.default"), default))
            })
            .collect(),
    };
    for (field, default) in defaults {
        match default {
            Value::String(text) => words.push((field, text.clone())),
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    if let Value::String(text) = item {
                        words.push((format!("{field}[{index}]"), text.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    words
}

/// The real path of `path` when it is a regular file inside `root`.
fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().ok()?;
    (real.starts_with(root) && real.metadata().ok()?.is_file()).then_some(real)
}

/// The script's text, or `None` when it is not a regular file (a FIFO
/// swapped in after [`inside`] checked must not block); only its first
/// [`MAX_SCRIPT_BYTES`] are read.
fn read_bounded(path: &Path) -> Option<String> {
    let bytes = crate::fsutil::read_regular_file_prefix(path, MAX_SCRIPT_BYTES).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Every raw-shell construct in `text`, in line order.
pub fn scan(text: &str, language: Language) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut comments = CommentTracker::new(language);
    let whole = WholeFile::of(text, language);
    for (index, line) in text.lines().enumerate() {
        if comments.skip(line) {
            continue;
        }
        let number = index + 1;
        let mut found = |construct, advice| {
            findings.push(Finding {
                line: number,
                construct,
                advice,
            });
        };
        match language {
            Language::Python => python_line(line, &mut found),
            Language::JavaScript => javascript_line(line, &whole, &mut found),
            Language::Shell => shell_line(line, &mut found),
            Language::Ruby => ruby_line(line, &mut found),
        }
        if language != Language::Shell && ARGV_SHELL_C.is_match(line) && argv_shell_c_is_built(line)
        {
            found(
                "[\"sh\", \"-c\", <built string>]",
                "pass the values as positional parameters after a fixed command string, or run the program directly",
            );
        }
    }
    findings
}

/// Skips comment lines, Python docstrings and JavaScript block comments.
struct CommentTracker {
    language: Language,
    /// The delimiter that ends the block we are in.
    open_block: Option<&'static str>,
}

impl CommentTracker {
    fn new(language: Language) -> Self {
        Self {
            language,
            open_block: None,
        }
    }

    fn skip(&mut self, line: &str) -> bool {
        let trimmed = line.trim_start();
        if let Some(end) = self.open_block {
            if trimmed.contains(end) {
                self.open_block = None;
            }
            return true;
        }
        match self.language {
            Language::Python => {
                for delimiter in ["\"\"\"", "'''"] {
                    if let Some(rest) = trimmed.strip_prefix(delimiter) {
                        if !rest.contains(delimiter) {
                            self.open_block = Some(delimiter);
                        }
                        return true;
                    }
                }
                trimmed.starts_with('#')
            }
            Language::JavaScript => {
                if let Some(rest) = trimmed.strip_prefix("/*") {
                    if !rest.contains("*/") {
                        self.open_block = Some("*/");
                    }
                    return true;
                }
                trimmed.starts_with("//") || trimmed.starts_with('*')
            }
            // `#!` is a comment too.
            Language::Shell | Language::Ruby => trimmed.starts_with('#'),
        }
    }
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|err| panic!("built-in pattern {pattern}: {err}"))
}

static PY_OS_SYSTEM: LazyLock<Regex> = LazyLock::new(|| regex(r"\bos\s*\.\s*system\s*\("));
static PY_OS_POPEN: LazyLock<Regex> = LazyLock::new(|| regex(r"\bos\s*\.\s*popen\s*\("));
static PY_SHELL_TRUE: LazyLock<Regex> = LazyLock::new(|| regex(r"\bshell\s*=\s*(?:True|1)\b"));
/// `subprocess.getoutput` and `getstatusoutput` (and Python 2's
/// `commands.*`) run their one string argument through `/bin/sh`.
static PY_GETOUTPUT: LazyLock<Regex> = LazyLock::new(|| regex(r"\bget(?:status)?output\s*\("));
static PY_SUBPROCESS_SHELL: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\bcreate_subprocess_shell\s*\("));

fn python_line(line: &str, found: &mut impl FnMut(&'static str, &'static str)) {
    if PY_OS_SYSTEM.is_match(line) {
        found(
            "os.system(",
            "use subprocess.run([...]) with an argument list",
        );
    }
    if PY_OS_POPEN.is_match(line) {
        found(
            "os.popen(",
            "use subprocess.run([...], capture_output=True) with an argument list",
        );
    }
    if let Some(found_at) = PY_SHELL_TRUE.find(line) {
        found(
            if found_at.as_str().ends_with('1') {
                "shell=1"
            } else {
                "shell=True"
            },
            "pass an argument list and leave shell at its default (False)",
        );
    }
    if let Some(found_at) = PY_GETOUTPUT.find(line) {
        found(
            if found_at.as_str().starts_with("getstatus") {
                "subprocess.getstatusoutput("
            } else {
                "subprocess.getoutput("
            },
            "use subprocess.run([...], capture_output=True, text=True) with an argument list",
        );
    }
    if PY_SUBPROCESS_SHELL.is_match(line) {
        found(
            "create_subprocess_shell(",
            "use asyncio.create_subprocess_exec with separate arguments",
        );
    }
}

/// What a JavaScript file says about `child_process` as a whole: the names
/// it is bound to, and whether `exec`/`execSync` are imported bare.
struct WholeFile {
    module_names: Vec<String>,
    bare_exec: bool,
    uses_child_process: bool,
}

static JS_MODULE_ALIAS: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?:(?:const|let|var)\s+(\w+)\s*=\s*require\(\s*['"](?:node:)?child_process['"]\s*\)|import\s+(?:\*\s+as\s+)?(\w+)\s+from\s+['"](?:node:)?child_process['"])"#,
    )
});
static JS_DESTRUCTURED_EXEC: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?:\{[^}]*\bexec(?:Sync)?\b[^}]*\}\s*=\s*require\(\s*['"](?:node:)?child_process['"]|import\s*\{[^}]*\bexec(?:Sync)?\b[^}]*\}\s*from\s*['"](?:node:)?child_process['"])"#,
    )
});
static JS_MEMBER_EXEC: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(\w+|\))\s*\.\s*(exec|execSync)\s*\("));
static JS_BARE_EXEC: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?:^|[^.\w$])(exec|execSync)\s*\("));
static JS_FUNCTION_NAMED_EXEC: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\bfunction\s+exec(?:Sync)?\s*\("));
static JS_REQUIRE_CHILD_PROCESS: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"require\(\s*['"](?:node:)?child_process['"]\s*\)\s*\.\s*exec(?:Sync)?\s*\("#)
});
static JS_SHELL_TRUE: LazyLock<Regex> = LazyLock::new(|| regex(r"\bshell\s*:\s*true\b"));

impl WholeFile {
    fn of(text: &str, language: Language) -> Self {
        if language != Language::JavaScript {
            return Self {
                module_names: Vec::new(),
                bare_exec: false,
                uses_child_process: false,
            };
        }
        let mut module_names = vec!["child_process".to_owned()];
        for captures in JS_MODULE_ALIAS.captures_iter(text) {
            if let Some(name) = captures.get(1).or_else(|| captures.get(2)) {
                module_names.push(name.as_str().to_owned());
            }
        }
        Self {
            module_names,
            bare_exec: JS_DESTRUCTURED_EXEC.is_match(text),
            uses_child_process: text.contains("child_process"),
        }
    }
}

fn javascript_line(
    line: &str,
    whole: &WholeFile,
    found: &mut impl FnMut(&'static str, &'static str),
) {
    const ADVICE: &str = "use execFile or spawn with an argument array (and no `shell` option)";
    let mut exec_found = None;
    for captures in JS_MEMBER_EXEC.captures_iter(line) {
        let receiver = captures.get(1).map_or("", |m| m.as_str());
        if whole.module_names.iter().any(|name| name == receiver) {
            exec_found = Some(captures.get(2).map_or("exec", |m| m.as_str()));
        }
    }
    if JS_REQUIRE_CHILD_PROCESS.is_match(line) {
        exec_found = Some("exec");
    }
    if exec_found.is_none() && whole.bare_exec && !JS_FUNCTION_NAMED_EXEC.is_match(line) {
        exec_found = JS_BARE_EXEC
            .captures(line)
            .and_then(|captures| captures.get(1))
            .map(|m| m.as_str());
    }
    match exec_found {
        Some("execSync") => found("child_process.execSync(", ADVICE),
        Some(_) => found("child_process.exec(", ADVICE),
        None => {}
    }
    if whole.uses_child_process && JS_SHELL_TRUE.is_match(line) {
        found(
            "shell: true",
            "drop the `shell` option and pass the arguments as an array",
        );
    }
}

static RB_PERCENT_X: LazyLock<Regex> = LazyLock::new(|| regex(r"%x[(\[{<|!/]"));
static RB_INTERPOLATED_CALL: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"(?:\b(?:system|exec|spawn)|\bIO\s*\.\s*popen|\bOpen3\s*\.\s*\w+)\s*\(?\s*"[^"]*#\{"#)
});

fn ruby_line(line: &str, found: &mut impl FnMut(&'static str, &'static str)) {
    if has_unquoted_backtick(line, false) {
        found(
            "`...` (backticks)",
            "use Open3.capture2 or system with the program and its arguments passed separately",
        );
    }
    if RB_PERCENT_X.is_match(line) {
        found(
            "%x(...)",
            "use Open3.capture2 with the program and its arguments passed separately",
        );
    }
    if RB_INTERPOLATED_CALL.is_match(line) {
        found(
            "system(\"...#{...}\")",
            "pass the program and each argument separately: system(\"prog\", arg)",
        );
    }
}

/// Whether `line` has a backtick outside quotes (outside single quotes only,
/// for a shell, where backticks work inside double quotes).
///
/// A `#` outside quotes at the start of a word begins a comment in both.
fn has_unquoted_backtick(line: &str, shell: bool) -> bool {
    let mut single = false;
    let mut double = false;
    let mut word_start = true;
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if !single => {
                chars.next();
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && word_start => return false,
            '`' if !single && (shell || !double) => return true,
            _ => {}
        }
        word_start = ch.is_whitespace();
    }
    false
}

/// `["sh", "-c", ...]`, `('bash', '-c', ...)`, and JavaScript's
/// `spawn("sh", ["-c", ...])`.
static ARGV_SHELL_C: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"['"](?:[\w./-]*/)?(?:ba|z|da|k|a|mk)?sh['"]\s*,\s*\[?\s*['"]-[a-zA-Z]*c[a-zA-Z]*['"]\s*,\s*"#,
    )
});

/// Whether the command string after `"sh", "-c",` is built at run time:
/// an f-string, a template literal with `${`, a variable, a literal with
/// `#{` (Ruby), or a literal followed by `+`, `%` or `.format`.
fn argv_shell_c_is_built(line: &str) -> bool {
    ARGV_SHELL_C.find_iter(line).any(|found| {
        let rest = &line[found.end()..];
        let mut chars = rest.chars();
        match chars.next() {
            Some('f' | 'F') if matches!(chars.next(), Some('"' | '\'')) => true,
            Some('`') => rest[1..]
                .split('`')
                .next()
                .is_some_and(|body| body.contains("${")),
            Some(quote @ ('"' | '\'')) => {
                let body_end = rest[1..].find(quote).map_or(rest.len(), |end| end + 1);
                let body = &rest[1..body_end];
                let after = rest.get(body_end + 1..).unwrap_or("").trim_start();
                (quote == '"' && body.contains("#{"))
                    || after.starts_with('+')
                    || after.starts_with('%')
                    || after.starts_with(".format")
            }
            Some(ch) => ch.is_alphabetic() || ch == '_' || ch == '$',
            None => false,
        }
    })
}

/// One shell word: its text without quotes, whether part of it expands
/// (`$` or a backtick outside single quotes), and whether it stands where a
/// command name goes.
#[derive(Debug)]
struct Word {
    text: String,
    expands: bool,
    command_position: bool,
}

/// Splits one line of shell into words, up to a comment.
fn shell_words(line: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut current: Option<Word> = None;
    let mut next_is_command = true;
    let mut single = false;
    let mut double = false;
    let mut chars = line.chars().peekable();
    let finish = |current: &mut Option<Word>, words: &mut Vec<Word>, next_is_command: &mut bool| {
        if let Some(word) = current.take() {
            *next_is_command = word.command_position
                && matches!(
                    word.text.as_str(),
                    "then" | "do" | "else" | "elif" | "if" | "while" | "until" | "!" | "time" | "{"
                );
            words.push(word);
        }
    };
    while let Some(ch) = chars.next() {
        if !single && !double {
            if ch.is_whitespace() {
                finish(&mut current, &mut words, &mut next_is_command);
                continue;
            }
            if matches!(ch, ';' | '&' | '|' | '(' | ')') {
                finish(&mut current, &mut words, &mut next_is_command);
                next_is_command = true;
                continue;
            }
            if ch == '#' && current.is_none() {
                break;
            }
        }
        let word = current.get_or_insert_with(|| Word {
            text: String::new(),
            expands: false,
            command_position: next_is_command,
        });
        match ch {
            '\\' if !single => {
                if let Some(escaped) = chars.next() {
                    word.text.push(escaped);
                }
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '$' | '`' if !single => {
                word.expands = true;
                word.text.push(ch);
            }
            _ => word.text.push(ch),
        }
    }
    finish(&mut current, &mut words, &mut next_is_command);
    words
}

const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh"];

fn shell_line(line: &str, found: &mut impl FnMut(&'static str, &'static str)) {
    let words = shell_words(line);
    if words
        .iter()
        .any(|word| word.command_position && word.text == "eval" && !word.expands)
    {
        found(
            "eval",
            "run the command directly, with each value as its own quoted argument",
        );
    }
    if has_unquoted_backtick(line, true) {
        found(
            "`...` (backtick command substitution)",
            "use \"$(...)\", quoted, and keep its output out of command strings",
        );
    }
    for (index, word) in words.iter().enumerate() {
        let base = word.text.rsplit('/').next().unwrap_or(&word.text);
        if !SHELLS.contains(&base) {
            continue;
        }
        let mut rest = words[index + 1..].iter();
        let command_string = loop {
            match rest.next() {
                Some(option) if is_command_string_option(&option.text) => break rest.next(),
                Some(option) if option.text.starts_with('-') || option.text.starts_with('+') => {}
                _ => break None,
            }
        };
        if command_string.is_some_and(|command| command.expands) {
            found(
                "sh -c \"...$var...\"",
                "use a fixed single-quoted command string and pass the values after it: sh -c 'prog \"$1\"' sh \"$value\"",
            );
            break;
        }
    }
}

/// `-c`, or a cluster of short options holding `c` (`-ec`, `-xc`).
fn is_command_string_option(word: &str) -> bool {
    super::command_string::is_c_cluster(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constructs(text: &str, language: Language) -> Vec<(usize, &'static str)> {
        scan(text, language)
            .into_iter()
            .map(|finding| (finding.line, finding.construct))
            .collect()
    }

    #[test]
    fn languages_by_extension() {
        assert_eq!(Language::of("a/b.py"), Some(Language::Python));
        assert_eq!(Language::of("x.TS"), Some(Language::JavaScript));
        assert_eq!(Language::of("run.sh"), Some(Language::Shell));
        assert_eq!(Language::of("t.rb"), Some(Language::Ruby));
        assert_eq!(Language::of("kubectl"), None);
        assert_eq!(Language::of("notes.txt"), None);
    }

    #[test]
    fn python() {
        let text = "\
import os, subprocess
# os.system('commented out')
os.system('ls ' + path)
out = os.popen(cmd).read()
subprocess.run(cmd, shell=True)
subprocess.check_output(
    cmd,
    shell = True,
)
subprocess.run(['ls', '-l', path])
subprocess.run(['ls'], shell=False)
\"\"\"
os.system('in a docstring')
\"\"\"
out = subprocess.getoutput('ls ' + path)
status, out = subprocess.getstatusoutput(cmd)
subprocess.call(cmd, shell=1)
subprocess.call(cmd, shell=10)
";
        assert_eq!(
            constructs(text, Language::Python),
            [
                (3, "os.system("),
                (4, "os.popen("),
                (5, "shell=True"),
                (8, "shell=True"),
                (15, "subprocess.getoutput("),
                (16, "subprocess.getstatusoutput("),
                (17, "shell=1"),
            ]
        );
    }

    #[test]
    fn javascript() {
        let text = "\
const cp = require('child_process');
const { execSync, execFile } = require('node:child_process');
// child_process.exec('commented')
cp.exec(`ls ${dir}`);
execSync('git status ' + ref);
child_process.exec(cmd);
execFile('ls', ['-l', dir]);
cp.execFile('ls', [dir]);
const m = /a(b)/.exec(text);
pattern.exec(line);
cp.spawn('ls', [dir], { shell: true });
/*
cp.exec('in a block comment');
*/
";
        assert_eq!(
            constructs(text, Language::JavaScript),
            [
                (4, "child_process.exec("),
                (5, "child_process.execSync("),
                (6, "child_process.exec("),
                (11, "shell: true")
            ]
        );
    }

    #[test]
    fn javascript_without_child_process_has_no_findings() {
        let text = "const m = re.exec(s);\nfunction exec(x) { return x; }\nexec(1);\nconst o = { shell: true };\n";
        assert!(constructs(text, Language::JavaScript).is_empty());
    }

    #[test]
    fn shell() {
        let text = "\
#!/bin/sh
set -eu
# eval \"$cmd\" (a comment)
eval \"$cmd\"
today=`date +%F`
echo \"it's `whoami`\"
bash -c \"echo $1\"
sh -ec \"rm -rf $target\"
sh -c 'echo \"$1\"' sh \"$value\"
sh -c 'echo hi'
now=$(date +%F)
echo 'a `literal` backtick'
echo eval is a word here
if true; then eval \"$x\"; fi
echo hi # `not code`
";
        assert_eq!(
            constructs(text, Language::Shell),
            [
                (4, "eval"),
                (5, "`...` (backtick command substitution)"),
                (6, "`...` (backtick command substitution)"),
                (7, "sh -c \"...$var...\""),
                (8, "sh -c \"...$var...\""),
                (14, "eval"),
            ]
        );
    }

    #[test]
    fn ruby() {
        let text = "\
# `commented`
out = `ls #{dir}`
files = %x(ls)
system(\"rm -rf #{path}\")
system('ls', dir)
IO.popen(\"grep #{pattern}\")
puts \"a `quoted` backtick\"
Open3.capture2('ls', dir)
";
        assert_eq!(
            constructs(text, Language::Ruby),
            [
                (2, "`...` (backticks)"),
                (3, "%x(...)"),
                (4, "system(\"...#{...}\")"),
                (6, "system(\"...#{...}\")"),
            ]
        );
    }

    #[test]
    fn argv_lists_that_run_a_built_command_string() {
        let python = "\
subprocess.run(['bash', '-c', f'echo {name}'])
subprocess.run(['sh', '-c', cmd])
subprocess.run(['sh', '-c', 'echo ' + name])
subprocess.run(['sh', '-c', 'echo \"$1\"', 'sh', name])
subprocess.run([\"/bin/sh\", \"-c\", \"echo %s\" % name])
";
        assert_eq!(
            constructs(python, Language::Python)
                .iter()
                .map(|(line, _)| *line)
                .collect::<Vec<_>>(),
            [1, 2, 3, 5]
        );
        let js = "spawn('sh', ['-c', `ls ${dir}`]);\nspawn('sh', ['-c', 'ls']);\nspawn(\"bash\", [\"-c\", cmd]);\nspawn('sh', ['-c', `ls`]);\n";
        assert_eq!(
            constructs(js, Language::JavaScript)
                .iter()
                .map(|(line, _)| *line)
                .collect::<Vec<_>>(),
            [1, 3]
        );
    }

    #[test]
    fn non_utf8_and_long_lines_are_tolerated() {
        let mut bytes = b"os.system(x)\n".to_vec();
        bytes.extend_from_slice(&[0xff, 0xfe, b'\n']);
        bytes.extend(std::iter::repeat_n(b'a', 100_000));
        bytes.extend_from_slice(b"\nos.popen(y)\n");
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(
            constructs(&text, Language::Python),
            [(1, "os.system("), (4, "os.popen(")]
        );
    }
}
