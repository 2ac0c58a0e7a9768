//! Skills against contracts: each `Bash(...)` grant in a skill's
//! `allowed-tools` and each `` !`cmd` `` dynamic-context command in its body,
//! held against the registry with the hook's own judgement
//! (`hook::judge::judge`), and a proposed declaration for a grant no
//! contract covers.

use serde::Serialize;
use serde_json::{Value, json};

use crate::contract::{ArgvPart, Declaration, Origin};
use crate::hook::judge::{Context, judge};
use crate::registry::{HookSettings, ProgramIndex, Registry, parse_value};
use crate::report::Diagnostic;
use crate::skill::codes;
use crate::skill::frontmatter::{self, YamlValue};

/// How a grant or a dynamic-context command stands against the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// A contract allows it (an exact command), or every command the grant
    /// admits starts with a contract's program and leading words.
    Covered,
    /// It admits commands no contract declares (`Bash`, `Bash(*)`,
    /// `Bash(git:*)` where only `git log` is declared).
    WiderThanContracts,
    /// A contract for its program exists, and refuses this command.
    FailsContract,
    /// No contract declares its program.
    NoContract,
}

/// Where the command came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    AllowedTools,
    DynamicContext,
}

/// One grant or dynamic-context command and its standing.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub source: Source,
    /// As written (`Bash(git log:*)`, or the command between the backquotes).
    pub written: String,
    /// The file line, where known.
    pub line: Option<usize>,
    pub standing: Standing,
    /// The `skill validate` code this standing is reported under
    /// (`W011`, `W012`, `E033`); `None` when it is covered.
    pub code: Option<codes::Code>,
    /// The declarations it was held against or matched.
    pub declarations: Vec<String>,
    pub message: String,
}

/// A declaration proposed for a grant no contract covers.
#[derive(Debug, Clone, Serialize)]
pub struct Proposal {
    pub grant: String,
    pub file_name: String,
    pub declaration: Value,
    /// What `schema lint` says of it: nothing with an error means it loads.
    pub lint: Vec<Diagnostic>,
}

/// The shape of a `Bash` grant.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Grant {
    /// `Bash`, `Bash(*)`, `Bash(:*)`: every command.
    All,
    /// `Bash(PREFIX:*)` or `Bash(PREFIX *)`: the words and anything after.
    Prefix(Vec<String>),
    /// A `*` anywhere else: a wildcard pattern.
    Wildcard(String),
    /// `Bash(COMMAND)`: that command line exactly.
    Exact(String),
}

fn grant_of(inner: Option<&str>) -> Grant {
    let Some(inner) = inner.map(str::trim) else {
        return Grant::All;
    };
    if inner.is_empty() || inner == "*" || inner == ":*" {
        return Grant::All;
    }
    let prefix = inner
        .strip_suffix(":*")
        .or_else(|| inner.strip_suffix(" *"));
    match prefix {
        Some(prefix) if !prefix.contains('*') => {
            Grant::Prefix(prefix.split_whitespace().map(str::to_owned).collect())
        }
        _ if inner.contains('*') => Grant::Wildcard(inner.to_owned()),
        _ => Grant::Exact(inner.to_owned()),
    }
}

/// The tool names in an `allowed-tools` value: space- or comma-separated,
/// with `Bash(git log:*)` kept whole (its space is inside parentheses).
pub fn tool_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            c if depth == 0 && (c.is_whitespace() || c == ',') => {
                if !current.is_empty() {
                    names.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        names.push(current);
    }
    names
}

/// The `Bash` grants of an `allowed-tools` value, with the inner text.
fn bash_grants(value: &YamlValue) -> Vec<(String, Grant)> {
    let mut texts = Vec::new();
    match value {
        YamlValue::String(text) => texts.push(text.clone()),
        YamlValue::List(items) => texts.extend(
            items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_owned)),
        ),
        _ => {}
    }
    texts
        .iter()
        .flat_map(|text| tool_names(text))
        .filter_map(|name| {
            if name == "Bash" {
                return Some((name, Grant::All));
            }
            let inner = name.strip_prefix("Bash(")?.strip_suffix(')')?.to_owned();
            Some((name.clone(), grant_of(Some(&inner))))
        })
        .collect()
}

/// The `` !`cmd` `` commands of a body, with their body-relative line.
pub fn dynamic_commands(body: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_fence = false;
    for (index, line) in body.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // A `!` inside inline code (`` `let!` ``, `` `#REF!` ``) starts
        // nothing: only a `!` outside a code span opens a command.
        let bytes = line.as_bytes();
        let mut in_code = false;
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] == b'!' && !in_code && bytes.get(at + 1) == Some(&b'`') {
                let after = &line[at + 2..];
                let Some(end) = after.find('`') else {
                    break;
                };
                let command = after[..end].trim();
                if !command.is_empty() {
                    found.push((index, command.to_owned()));
                }
                at += 2 + end + 1;
                continue;
            }
            if bytes[at] == b'`' {
                in_code = !in_code;
            }
            at += 1;
        }
    }
    found
}

/// The registry as the checks need it: the program index the hook uses,
/// through which a program's declarations are loaded when a skill names
/// it (a registry over the catalog holds hundreds no skill uses).
pub struct Contracts<'a> {
    registry: &'a Registry,
    index: ProgramIndex,
}

impl<'a> Contracts<'a> {
    pub fn load(registry: &'a Registry) -> Result<Self, crate::registry::LoadError> {
        let index = registry.program_index(None)?;
        Ok(Self { registry, index })
    }

    fn literal_prefix(declaration: &Declaration) -> Option<Vec<String>> {
        let subprocess = declaration.subprocess.as_ref()?;
        let mut prefix = vec![subprocess.binary.clone()];
        for part in &subprocess.argv {
            match part {
                ArgvPart::Literal(word) => prefix.push(word.clone()),
                ArgvPart::Param(_) => break,
            }
        }
        Some(prefix)
    }

    /// The declarations that load and run `program`.
    fn for_program(&self, program: &str) -> Vec<Declaration> {
        self.index
            .commands_for(crate::registry::program_key(program))
            .iter()
            .filter_map(|name| self.registry.load(name).ok())
            .map(|loaded| loaded.declaration)
            .filter(|declaration| {
                declaration
                    .subprocess
                    .as_ref()
                    .is_some_and(|subprocess| subprocess.binary == program)
            })
            .collect()
    }

    /// The hook's verdict on one command line, as a standing.
    fn judge_line(&self, line: &str) -> (Standing, Vec<String>, String) {
        let settings = HookSettings::default();
        let which = |_: &str| None;
        let context = Context {
            registry: self.registry,
            index: &self.index,
            settings: &settings,
            which: &which,
            cwd: None,
            aigent: None,
            home: None,
        };
        let judgement = judge(line, &context);
        let mut declarations = Vec::new();
        let mut standing = Standing::Covered;
        let mut message = String::new();
        for segment in &judgement.segments {
            let matched = matches!(segment.rule, "declared" | "destructive");
            if let Some(name) = &segment.declaration
                && !declarations.contains(name)
            {
                declarations.push(name.clone());
            }
            let this = if matched {
                Standing::Covered
            } else if segment.declaration.is_some() {
                Standing::FailsContract
            } else {
                Standing::NoContract
            };
            if this != Standing::Covered && standing == Standing::Covered {
                standing = this;
                message = format!("{} ({})", segment.message, segment.rule);
            }
        }
        if judgement.segments.is_empty() {
            standing = Standing::NoContract;
            message = "no command".to_owned();
        }
        if standing == Standing::Covered {
            message = format!("passes the contract of {}", declarations.join(", "));
        }
        (standing, declarations, message)
    }

    fn grant(&self, grant: &Grant) -> (Standing, Vec<String>, String) {
        match grant {
            Grant::All => (
                Standing::WiderThanContracts,
                Vec::new(),
                "grants every shell command; no contract is that wide".to_owned(),
            ),
            Grant::Wildcard(pattern) => (
                Standing::WiderThanContracts,
                Vec::new(),
                format!(
                    "`{pattern}` is a wildcard pattern; it admits commands no contract declares"
                ),
            ),
            Grant::Exact(line) => self.judge_line(line),
            Grant::Prefix(words) => {
                let Some(program) = words.first() else {
                    return (
                        Standing::WiderThanContracts,
                        Vec::new(),
                        "an empty prefix".to_owned(),
                    );
                };
                let candidates = self.for_program(program);
                if candidates.is_empty() {
                    return (
                        Standing::NoContract,
                        Vec::new(),
                        format!("no contract declares `{program}`"),
                    );
                }
                let names: Vec<String> = candidates.iter().map(|d| d.name.clone()).collect();
                // The program alone admits every use of it, which no
                // contract with a parameter or a literal word declares. A
                // longer prefix is within a declaration whose key word
                // (`log` of `git log`) it has, or, for a declaration with
                // none, whose literal prefix it starts with.
                let within = candidates.iter().find(|declaration| {
                    let Some(subprocess) = &declaration.subprocess else {
                        return false;
                    };
                    if words.len() < 2 {
                        return false;
                    }
                    match crate::registry::programs::key_word(&subprocess.argv) {
                        Some(key) => words[1..].iter().any(|word| word == key),
                        None => Self::literal_prefix(declaration).is_some_and(|prefix| {
                            prefix.len() <= words.len()
                                && prefix.iter().zip(words).all(|(a, b)| a == b)
                        }),
                    }
                });
                match within {
                    Some(declaration) => (
                        Standing::Covered,
                        vec![declaration.name.clone()],
                        format!(
                            "every command it admits starts as `{}` does; the contract still checks the rest",
                            declaration.name
                        ),
                    ),
                    None => (
                        Standing::WiderThanContracts,
                        names.clone(),
                        format!(
                            "admits `{program}` commands no contract declares (declared: {})",
                            names.join(", ")
                        ),
                    ),
                }
            }
        }
    }
}

/// Every `Bash` grant and dynamic-context command of one SKILL.md text.
pub fn check_skill(text: &str, contracts: &Contracts<'_>) -> Vec<Finding> {
    let Ok(document) = frontmatter::split(text) else {
        return Vec::new();
    };
    let mut findings = Vec::new();
    if let Ok(parsed) = frontmatter::parse(&document)
        && let Some(entry) = parsed.get("allowed-tools")
    {
        for (written, grant) in bash_grants(&entry.value) {
            let (standing, declarations, message) = contracts.grant(&grant);
            findings.push(Finding {
                source: Source::AllowedTools,
                written,
                line: entry.line,
                standing,
                code: code_of(Source::AllowedTools, standing),
                declarations,
                message,
            });
        }
    }
    for (offset, command) in dynamic_commands(document.body) {
        let (standing, declarations, message) = contracts.judge_line(&command);
        findings.push(Finding {
            source: Source::DynamicContext,
            written: command,
            line: Some(document.body_first_line + offset),
            standing,
            code: code_of(Source::DynamicContext, standing),
            declarations,
            message,
        });
    }
    findings
}

/// The `skill validate` code of a standing: a grant that admits commands
/// no contract declares (W011), a dynamic-context command no contract
/// declares (W012), and a command a contract refuses (E033).
fn code_of(source: Source, standing: Standing) -> Option<codes::Code> {
    match (source, standing) {
        (_, Standing::Covered) => None,
        (_, Standing::FailsContract) => Some(codes::Code::CommandFailsContract),
        (Source::AllowedTools, Standing::WiderThanContracts | Standing::NoContract) => {
            Some(codes::Code::GrantWiderThanContracts)
        }
        (Source::DynamicContext, Standing::WiderThanContracts | Standing::NoContract) => {
            Some(codes::Code::DynamicCommandUndeclared)
        }
    }
}

/// The findings of [`check_skill`] as `skill validate` reports them: one
/// diagnostic per grant or command that is not covered, at its line.
pub fn diagnostics(findings: &[Finding]) -> Vec<Diagnostic> {
    findings
        .iter()
        .filter_map(|finding| {
            let code = finding.code?;
            let what = match finding.source {
                Source::AllowedTools => format!("`{}`", finding.written),
                Source::DynamicContext => format!("!`{}`", finding.written),
            };
            let message = format!("{what}: {}", finding.message).replace(char::is_control, " ");
            let diagnostic = Diagnostic::new(code, message);
            let diagnostic = match finding.source {
                Source::AllowedTools => diagnostic.with_field("allowed-tools"),
                Source::DynamicContext => diagnostic,
            };
            Some(diagnostic.with_line(finding.line))
        })
        .collect()
}

/// The registry beside the skills at `path`, when `--commands` names none:
/// the first `commands/` directory holding an `aigent.toml` (the registry's
/// settings file, which marks a directory as a registry; it may be empty)
/// in the directory `path` names (a file's own directory), then each
/// directory above it, up to and including the first one holding `.git`,
/// and at most 32 levels up.
pub fn registry_beside(path: &std::path::Path) -> Option<std::path::PathBuf> {
    let start = std::path::absolute(path).ok()?;
    let start = if start.is_dir() {
        start
    } else {
        start.parent()?.to_path_buf()
    };
    for directory in start.ancestors().take(32) {
        let candidate = directory.join("commands");
        if std::fs::symlink_metadata(candidate.join("aigent.toml"))
            .is_ok_and(|metadata| metadata.file_type().is_file())
        {
            return Some(candidate);
        }
        if std::fs::symlink_metadata(directory.join(".git")).is_ok() {
            break;
        }
    }
    None
}

/// Declarations proposed for the grants no contract covers: the grant's
/// words as the program and leading literals, then whatever follows as one
/// array of words. `destructive`, since nothing says better; every field
/// is for the author to narrow.
pub fn propose(findings: &[Finding], skill: &str) -> Vec<Proposal> {
    let mut proposals: Vec<Proposal> = Vec::new();
    for finding in findings {
        if finding.source != Source::AllowedTools
            || matches!(
                finding.standing,
                Standing::Covered | Standing::FailsContract
            )
        {
            continue;
        }
        let inner = finding
            .written
            .strip_prefix("Bash(")
            .and_then(|rest| rest.strip_suffix(')'));
        let (words, open) = match grant_of(inner) {
            Grant::Prefix(words) => (words, true),
            Grant::Exact(line) => (line.split_whitespace().map(str::to_owned).collect(), false),
            Grant::All | Grant::Wildcard(_) => continue,
        };
        let Some(program) = words.first() else {
            continue;
        };
        let name: String = words
            .iter()
            .map(|word| {
                word.chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() {
                            c.to_ascii_lowercase()
                        } else {
                            '-'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("-")
            .split('-')
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        if name.is_empty()
            || proposals
                .iter()
                .any(|proposal| proposal.declaration["name"] == name.as_str())
        {
            continue;
        }
        let mut argv: Vec<Value> = words[1..].iter().map(|word| json!(word)).collect();
        let mut declaration = json!({
            "name": name,
            "description": format!("Proposed from the grant `{}` of the skill `{skill}`: narrow it before use", finding.written),
            "danger_level": "destructive",
            "subprocess": {"binary": program},
        });
        if open {
            argv.push(json!({"param": "args"}));
            declaration["parameters"] = json!({
                "args": {
                    "type": "array",
                    "required": false,
                    "description": "The words after the granted prefix, one per item",
                }
            });
        }
        declaration["subprocess"]["argv"] = Value::Array(argv);
        let file_name = format!("{name}.json");
        let parsed = parse_value(
            &declaration,
            &Origin {
                file_stem: Some(&name),
                file: None,
            },
        );
        proposals.push(Proposal {
            grant: finding.written.clone(),
            file_name,
            declaration,
            lint: parsed.diagnostics,
        });
    }
    proposals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_keep_spaces_inside_parentheses() {
        assert_eq!(
            tool_names("Read, Bash(git log:*) Bash(npm run test *),Grep"),
            ["Read", "Bash(git log:*)", "Bash(npm run test *)", "Grep"]
        );
    }

    #[test]
    fn grant_shapes() {
        assert_eq!(grant_of(None), Grant::All);
        assert_eq!(grant_of(Some("*")), Grant::All);
        assert_eq!(
            grant_of(Some("git log:*")),
            Grant::Prefix(vec!["git".into(), "log".into()])
        );
        assert_eq!(
            grant_of(Some("npm run *")),
            Grant::Prefix(vec!["npm".into(), "run".into()])
        );
        assert_eq!(
            grant_of(Some("git * main")),
            Grant::Wildcard("git * main".into())
        );
        assert_eq!(
            grant_of(Some("git status")),
            Grant::Exact("git status".into())
        );
    }

    #[test]
    fn the_registry_beside_the_skills() {
        let root = tempfile::tempdir().unwrap();
        let skill = root.path().join("repo/skills/a");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::create_dir_all(root.path().join("repo/.git")).unwrap();
        // A `commands/` without `aigent.toml` (a plugin's slash commands)
        // is not a registry.
        std::fs::create_dir_all(root.path().join("repo/skills/commands")).unwrap();
        assert_eq!(registry_beside(&skill), None);
        std::fs::create_dir_all(root.path().join("repo/commands")).unwrap();
        std::fs::write(root.path().join("repo/commands/aigent.toml"), "").unwrap();
        assert_eq!(
            registry_beside(&skill.join("SKILL.md")),
            Some(std::path::absolute(root.path().join("repo/commands")).unwrap())
        );
        // Not above the repository's root.
        let inner = root.path().join("repo/sub");
        std::fs::create_dir_all(inner.join(".git")).unwrap();
        assert_eq!(registry_beside(&inner), None);
    }

    #[test]
    fn dynamic_commands_outside_fences() {
        let body = "Now: !`git status`\n```\n!`not this`\n```\nand !`date` too\n`let!` for eager, `x` and `#REF!`: no; !`pwd`\n";
        assert_eq!(
            dynamic_commands(body),
            [
                (0, "git status".to_owned()),
                (4, "date".to_owned()),
                (5, "pwd".to_owned())
            ]
        );
    }

    #[test]
    fn grants_and_commands_against_the_built_in_registry() {
        let registry = Registry::new(None);
        let contracts = Contracts::load(&registry).unwrap();
        let skill = "---\nname: s\ndescription: d\nallowed-tools: Bash(git:*) Bash(git --no-pager log --oneline --no-color:*) Bash Bash(frobnicate:*)\n---\nLog: !`git --no-pager log --oneline --no-color -n 20 --`\nBad: !`git --no-pager log --oneline --no-color -n x --`\nNone: !`frobnicate .`\n";
        let findings = check_skill(skill, &contracts);
        let standings: Vec<Standing> = findings.iter().map(|finding| finding.standing).collect();
        assert_eq!(
            standings,
            [
                Standing::WiderThanContracts,
                Standing::Covered,
                Standing::WiderThanContracts,
                Standing::NoContract,
                Standing::Covered,
                Standing::FailsContract,
                Standing::NoContract,
            ],
            "{findings:#?}"
        );
        let codes: Vec<Option<&str>> = findings
            .iter()
            .map(|finding| finding.code.map(codes::Code::id))
            .collect();
        assert_eq!(
            codes,
            [
                Some("W011"),
                None,
                Some("W011"),
                Some("W011"),
                None,
                Some("E033"),
                Some("W012"),
            ]
        );
        let reported = diagnostics(&findings);
        assert_eq!(reported.len(), 5);
        assert!(reported[3].is_error());
        assert_eq!(reported[3].line, Some(7));
        let proposals = propose(&findings, "s");
        assert_eq!(proposals.len(), 2, "{proposals:#?}");
        let proposed = proposals
            .iter()
            .find(|proposal| proposal.file_name == "frobnicate.json")
            .unwrap();
        assert!(
            !proposed.lint.iter().any(Diagnostic::is_error),
            "{:#?}",
            proposed.lint
        );
        // A prefix is held against the declaration whose key word it has.
        assert_eq!(findings[1].declarations, ["git-log"]);
    }
}
