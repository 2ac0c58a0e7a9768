//! What each agent client accepts in a skill, as one table: the
//! frontmatter keys it reads beyond the specification, the rules where it
//! is stricter than the specification, and the directories it loads skills
//! from. A new client is one entry in [`PROFILES`]. Every entry is sourced
//! in docs/reference/client-profiles.md.

/// The type a client expects for one of its own frontmatter keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Text,
    Boolean,
    /// Any YAML value (lists, mappings): the client documents no single
    /// type, so aigent does not check one.
    Any,
}

impl KeyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Text => "a string",
            KeyKind::Boolean => "a boolean",
            KeyKind::Any => "any value",
        }
    }
}

/// A frontmatter key a client reads on top of the specification's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientKey {
    pub name: &'static str,
    pub kind: KeyKind,
}

const fn key(name: &'static str, kind: KeyKind) -> ClientKey {
    ClientKey { name, kind }
}

/// A rule where a client is stricter than the specification: a skill that
/// breaks it passes the spec but that client does not load it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientRule {
    /// `name` must be ASCII (`^[a-z0-9]+(-[a-z0-9]+)*$`): the spec allows
    /// lowercase letters of any script.
    AsciiName,
    /// `metadata.short-description`, when present, must be a string of at
    /// most 1024 characters once runs of whitespace are folded.
    ShortDescription,
    /// The frontmatter must open on the file's first byte (no byte-order
    /// mark) and its closing `---` must end with a line break.
    StrictFences,
}

/// Which frontmatter keys a profile knows (others are warned about).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnownKeys {
    /// The specification's keys plus these.
    SpecAnd(&'static [ClientKey]),
    /// Every key.
    All,
}

/// One row of the client matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientProfile {
    /// The `--profile` value.
    pub id: &'static str,
    /// The client's name, for messages and the matrix.
    pub client: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    pub keys: KnownKeys,
    pub rules: &'static [ClientRule],
    /// Project directories the client loads `<dir>/<name>/SKILL.md` from.
    pub lookup_paths: &'static [&'static str],
    /// Fails wherever any other profile's client would: every client's
    /// rules apply, and only the specification's keys are known.
    pub strictest: bool,
    /// Where each key, rule and lookup path comes from: the client's
    /// documentation or code. Listed in docs/reference/client-profiles.md.
    pub sources: &'static [&'static str],
}

use KeyKind::{Any, Boolean, Text};

/// Claude Code's own keys (code.claude.com/docs/en/skills).
const CLAUDE_CODE_KEYS: &[ClientKey] = &[
    key("when_to_use", Text),
    key("argument-hint", Text),
    key("arguments", Any),
    key("disable-model-invocation", Boolean),
    key("user-invocable", Boolean),
    key("model", Text),
    key("effort", Text),
    key("context", Text),
    key("agent", Text),
    key("hooks", Any),
    key("paths", Any),
    key("shell", Text),
];

/// Every profile, the default first.
pub const PROFILES: &[ClientProfile] = &[
    ClientProfile {
        id: "standard",
        client: "the Agent Skills specification",
        summary: "The Agent Skills spec keys only",
        keys: KnownKeys::SpecAnd(&[]),
        rules: &[],
        lookup_paths: &[],
        strictest: false,
        sources: &["https://agentskills.io/specification"],
    },
    ClientProfile {
        id: "claude-code",
        client: "Claude Code",
        summary: "The spec keys plus Claude Code's own (model, context, hooks, ...)",
        keys: KnownKeys::SpecAnd(CLAUDE_CODE_KEYS),
        rules: &[],
        lookup_paths: &[".claude/skills"],
        strictest: false,
        sources: &[
            "https://code.claude.com/docs/en/skills (frontmatter reference; skill locations)",
        ],
    },
    ClientProfile {
        id: "codex",
        client: "OpenAI Codex",
        summary: "OpenAI Codex: metadata.short-description is checked",
        keys: KnownKeys::SpecAnd(&[]),
        rules: &[ClientRule::ShortDescription],
        lookup_paths: &[".agents/skills", ".codex/skills"],
        strictest: false,
        sources: &[
            "https://developers.openai.com/codex/skills (locations: .agents/skills)",
            "openai/codex codex-rs/core/src/skills/loader.rs: name and description are strings of at most 64 and 1024 characters after whitespace folding; metadata.short-description at most 1024; the project layer's skills directory (.codex/skills); a failing file is reported and skipped",
        ],
    },
    ClientProfile {
        id: "copilot",
        client: "GitHub Copilot in VS Code",
        summary: "GitHub Copilot in VS Code: argument-hint, user-invocable, disable-model-invocation",
        keys: KnownKeys::SpecAnd(&[
            key("argument-hint", Text),
            key("user-invocable", Boolean),
            key("disable-model-invocation", Boolean),
        ]),
        rules: &[],
        lookup_paths: &[".github/skills", ".claude/skills", ".agents/skills"],
        strictest: false,
        sources: &[
            "https://code.visualstudio.com/docs/agent-customization/agent-skills",
            "microsoft/vscode extensions/copilot/assets/prompts/skills/agent-customization/references/skills.md: locations .github/skills, .agents/skills, .claude/skills; name must match the folder; argument-hint, user-invocable (boolean), disable-model-invocation (boolean)",
        ],
    },
    ClientProfile {
        id: "cursor",
        client: "Cursor",
        summary: "Cursor: disable-model-invocation",
        keys: KnownKeys::SpecAnd(&[key("disable-model-invocation", Boolean)]),
        rules: &[],
        lookup_paths: &[
            ".cursor/skills",
            ".claude/skills",
            ".codex/skills",
            ".agents/skills",
        ],
        strictest: false,
        sources: &[
            "https://cursor.com/docs/context/skills: locations .cursor/skills, .claude/skills, .codex/skills (and .agents/skills); fields name, description, license, compatibility, metadata, disable-model-invocation (boolean)",
        ],
    },
    ClientProfile {
        id: "opencode",
        client: "OpenCode",
        summary: "OpenCode: names must be ASCII",
        keys: KnownKeys::SpecAnd(&[]),
        rules: &[ClientRule::AsciiName],
        lookup_paths: &[".opencode/skills", ".claude/skills", ".agents/skills"],
        strictest: false,
        sources: &[
            "https://opencode.ai/docs/skills: locations .opencode/skills, .claude/skills, .agents/skills; name must match ^[a-z0-9]+(-[a-z0-9]+)*$ and the directory; only name, description, license, compatibility and metadata are read, unknown fields ignored",
            "anomalyco/opencode issue #9294: the loader once skipped the documented name check; aigent follows the documented contract",
        ],
    },
    ClientProfile {
        id: "gemini",
        client: "Gemini CLI",
        summary: "Gemini CLI: no byte-order mark, a line break after the closing ---",
        keys: KnownKeys::SpecAnd(&[]),
        rules: &[ClientRule::StrictFences],
        lookup_paths: &[".gemini/skills", ".agents/skills"],
        strictest: false,
        sources: &[
            "https://geminicli.com/docs/cli/skills and https://geminicli.com/docs/cli/using-agent-skills: locations .gemini/skills and the .agents/skills alias",
            "google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts: FRONTMATTER_REGEX ^---\\r?\\n([\\s\\S]*?)\\r?\\n---\\r?\\n; name and description must be strings; a file that does not match is skipped",
        ],
    },
    ClientProfile {
        id: "strictest",
        client: "every known client",
        summary: "Fails wherever any known client would: every client rule, spec keys only",
        keys: KnownKeys::SpecAnd(&[]),
        rules: &[],
        lookup_paths: &[],
        strictest: true,
        sources: &[],
    },
    ClientProfile {
        id: "permissive",
        client: "any client",
        summary: "Every key is known",
        keys: KnownKeys::All,
        rules: &[],
        lookup_paths: &[],
        strictest: false,
        sources: &[],
    },
];

/// The profiles that describe one real client (not `standard`,
/// `strictest` or `permissive`).
pub fn clients() -> impl Iterator<Item = &'static ClientProfile> {
    PROFILES
        .iter()
        .filter(|profile| !profile.lookup_paths.is_empty())
}

/// The clients that load skills from `lookup_path` (such as
/// `.claude/skills`).
pub fn clients_reading(lookup_path: &str) -> impl Iterator<Item = &'static ClientProfile> + '_ {
    clients().filter(move |client| client.lookup_paths.contains(&lookup_path))
}

/// The clients that read `key` as a frontmatter key of their own (not one
/// of the specification's), in table order.
pub fn clients_knowing(key: &str) -> impl Iterator<Item = &'static ClientProfile> + '_ {
    clients().filter(move |client| match client.keys {
        KnownKeys::SpecAnd(keys) => keys.iter().any(|known| known.name == key),
        KnownKeys::All => false,
    })
}

/// The clients that read `key` inside `metadata` (Codex reads
/// `metadata.short-description`): moving a top-level key of that name
/// under `metadata` would give it a meaning it did not have.
pub fn clients_reading_metadata(key: &str) -> impl Iterator<Item = &'static ClientProfile> + '_ {
    clients().filter(move |client| {
        client.rules.iter().any(|rule| match rule {
            ClientRule::ShortDescription => key == "short-description",
            ClientRule::AsciiName | ClientRule::StrictFences => false,
        })
    })
}

/// `Claude Code (claude-code), Cursor (cursor)`: clients for a message,
/// each with its `--profile` value.
pub fn describe_clients<'a>(clients: impl Iterator<Item = &'a ClientProfile>) -> String {
    let names: Vec<String> = clients
        .map(|client| format!("{} (--profile {})", client.client, client.id))
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for profile in PROFILES {
            assert!(seen.insert(profile.id), "{} twice", profile.id);
            assert!(
                profile
                    .id
                    .bytes()
                    .all(|byte| byte.is_ascii_lowercase() || byte == b'-'),
                "{}",
                profile.id
            );
        }
        assert_eq!(PROFILES[0].id, "standard", "the default comes first");
    }

    #[test]
    fn every_rule_belongs_to_a_client() {
        for rule in [
            ClientRule::AsciiName,
            ClientRule::ShortDescription,
            ClientRule::StrictFences,
        ] {
            assert!(
                clients().any(|client| client.rules.contains(&rule)),
                "{rule:?} belongs to no client"
            );
        }
    }

    #[test]
    fn lookup_paths_name_their_clients() {
        let readers: Vec<&str> = clients_reading(".claude/skills")
            .map(|client| client.id)
            .collect();
        assert_eq!(readers, ["claude-code", "copilot", "cursor", "opencode"]);
    }

    #[test]
    fn keys_name_the_clients_that_read_them() {
        let ids = |key: &str| -> Vec<&str> { clients_knowing(key).map(|c| c.id).collect() };
        assert_eq!(
            ids("disable-model-invocation"),
            ["claude-code", "copilot", "cursor"]
        );
        assert_eq!(ids("effort"), ["claude-code"]);
        assert!(ids("name").is_empty(), "spec keys belong to no one client");
        assert!(ids("x-custom").is_empty());
        let codex: Vec<&str> = clients_reading_metadata("short-description")
            .map(|c| c.id)
            .collect();
        assert_eq!(codex, ["codex"]);
        assert_eq!(clients_reading_metadata("version").count(), 0);
    }
}
