//! The four clients: where each keeps its settings, which event and matcher
//! run a hook before a shell command, and what aigent's entry looks like.
//! Each row follows the client's published hook documentation; docs/hooks.md
//! names the page and the date each was read.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// An agent client whose shell tool aigent can guard with a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Client {
    ClaudeCode,
    Codex,
    Gemini,
    Cursor,
}

/// Whose settings file: the project's (shared through the repository) or
/// the user's own (every project).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    Project,
    User,
}

impl Scope {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::User => "user",
        }
    }
}

/// How a client's settings file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// JSON; `comments` when the client strips `//` and `/* */` comments
    /// before parsing (and so a user may have written some).
    Json {
        comments: bool,
    },
    Toml,
}

/// Where the user's home and the clients' own overrides of it are. The
/// binary fills this from the environment; tests give temporary paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Homes {
    pub home: PathBuf,
    /// `CLAUDE_CONFIG_DIR`, where Claude Code keeps user settings instead
    /// of `~/.claude`.
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME`, where Codex keeps `config.toml` instead of `~/.codex`.
    pub codex_home: Option<PathBuf>,
}

/// The name Gemini CLI shows for aigent's hook (`/hooks disable aigent`).
pub const GEMINI_HOOK_NAME: &str = "aigent";

/// What Codex shows while the hook runs, and Gemini CLI in `/hooks panel`.
pub const HOOK_DESCRIPTION: &str = "aigent: check the shell command against its declared contract";

impl Client {
    pub const ALL: &'static [Client] = &[Self::ClaudeCode, Self::Codex, Self::Gemini, Self::Cursor];

    /// Whether the client runs a command the hook rewrote (Claude Code's
    /// and Codex's `updatedInput`, Gemini CLI's `tool_input`); Cursor's
    /// `beforeShellExecution` cannot change the command.
    pub const fn rewrites_commands(self) -> bool {
        !matches!(self, Self::Cursor)
    }

    /// The `--client` value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
            Self::Cursor => "cursor",
        }
    }

    /// The client's own name, for messages.
    pub const fn display_name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::Gemini => "Gemini CLI",
            Self::Cursor => "Cursor",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|client| client.as_str() == name)
    }

    pub const fn file_format(self) -> FileFormat {
        match self {
            // Claude Code rejects a settings.json with comments ("Invalid or
            // malformed JSON"); Cursor's docs do not say it reads them, so
            // they are kept if present but never needed.
            Self::ClaudeCode => FileFormat::Json { comments: false },
            Self::Gemini | Self::Cursor => FileFormat::Json { comments: true },
            Self::Codex => FileFormat::Toml,
        }
    }

    /// The hook event that runs before a shell command.
    pub const fn event(self) -> &'static str {
        match self {
            Self::ClaudeCode | Self::Codex => "PreToolUse",
            Self::Gemini => "BeforeTool",
            Self::Cursor => "beforeShellExecution",
        }
    }

    /// The matcher that limits the hook to the shell tool, for clients whose
    /// event covers every tool. Cursor's `beforeShellExecution` is already
    /// shell-only and its entries are not grouped under matchers.
    pub const fn matcher(self) -> Option<&'static str> {
        match self {
            Self::ClaudeCode | Self::Codex => Some("Bash"),
            Self::Gemini => Some("run_shell_command"),
            Self::Cursor => None,
        }
    }

    /// The settings file, relative to the project root.
    pub const fn project_file(self) -> &'static str {
        match self {
            Self::ClaudeCode => ".claude/settings.json",
            Self::Codex => ".codex/config.toml",
            Self::Gemini => ".gemini/settings.json",
            Self::Cursor => ".cursor/hooks.json",
        }
    }

    /// The settings file for `scope`: under `project` for the project's,
    /// under the user's home (or the client's override of it) otherwise.
    pub fn settings_path(self, scope: Scope, project: &Path, homes: &Homes) -> PathBuf {
        match scope {
            Scope::Project => project.join(self.project_file()),
            Scope::User => match self {
                Self::ClaudeCode => homes
                    .claude_config_dir
                    .clone()
                    .unwrap_or_else(|| homes.home.join(".claude"))
                    .join("settings.json"),
                Self::Codex => homes
                    .codex_home
                    .clone()
                    .unwrap_or_else(|| homes.home.join(".codex"))
                    .join("config.toml"),
                Self::Gemini => homes.home.join(".gemini/settings.json"),
                Self::Cursor => homes.home.join(".cursor/hooks.json"),
            },
        }
    }

    /// aigent's handler: the object that names the command.
    pub fn handler(self, command: &str) -> Value {
        match self {
            Self::ClaudeCode => json!({"type": "command", "command": command}),
            Self::Codex => json!({
                "type": "command",
                "command": command,
                "statusMessage": HOOK_DESCRIPTION,
            }),
            Self::Gemini => json!({
                "name": GEMINI_HOOK_NAME,
                "type": "command",
                "command": command,
                "description": HOOK_DESCRIPTION,
            }),
            Self::Cursor => json!({"command": command}),
        }
    }

    /// What install appends to the event's list: a matcher group holding
    /// the handler, or (Cursor) the handler itself.
    pub fn entry(self, command: &str) -> Value {
        match self.matcher() {
            Some(matcher) => json!({"matcher": matcher, "hooks": [self.handler(command)]}),
            None => self.handler(command),
        }
    }

    /// What the user still has to do for the client to run a newly
    /// installed hook, from the client's docs.
    pub fn next_steps(self, scope: Scope) -> Vec<&'static str> {
        let mut steps = Vec::new();
        match self {
            Self::ClaudeCode => steps.push(
                "Claude Code reads hooks when a session starts: restart running sessions; /hooks shows what it loaded",
            ),
            Self::Codex => {
                steps.push("Codex runs a new command hook only once you trust it: review it in /hooks");
                if scope == Scope::Project {
                    steps.push("Codex loads a project's .codex/ only when the project is trusted");
                }
            }
            Self::Gemini => {
                steps.push("Gemini CLI reads hooks when it starts: restart running sessions; /hooks panel lists them");
                if scope == Scope::Project {
                    steps.push("Gemini CLI reads a project's .gemini/settings.json only in a trusted folder");
                }
            }
            Self::Cursor => steps.push(
                "Cursor reloads hooks.json when it changes; Cursor Settings > Hooks shows what it loaded",
            ),
        }
        steps
    }

    /// The top-level keys a file this client reads needs besides `hooks`
    /// (Cursor refuses a hooks.json without `"version": 1`).
    pub fn skeleton(self) -> serde_json::Map<String, Value> {
        let mut map = serde_json::Map::new();
        if self == Self::Cursor {
            map.insert("version".to_owned(), json!(1));
        }
        map
    }
}

impl std::fmt::Display for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for client in Client::ALL {
            assert_eq!(Client::parse(client.as_str()), Some(*client));
        }
        assert_eq!(Client::parse("claude"), None);
    }

    #[test]
    fn user_files_honour_the_clients_own_home_overrides() {
        let homes = Homes {
            home: PathBuf::from("/home/me"),
            claude_config_dir: None,
            codex_home: None,
        };
        let project = Path::new("/p");
        let paths: Vec<PathBuf> = Client::ALL
            .iter()
            .map(|client| client.settings_path(Scope::User, project, &homes))
            .collect();
        assert_eq!(
            paths,
            [
                "/home/me/.claude/settings.json",
                "/home/me/.codex/config.toml",
                "/home/me/.gemini/settings.json",
                "/home/me/.cursor/hooks.json",
            ]
            .map(PathBuf::from)
        );
        let overridden = Homes {
            claude_config_dir: Some(PathBuf::from("/cfg/claude")),
            codex_home: Some(PathBuf::from("/cfg/codex")),
            ..homes
        };
        assert_eq!(
            Client::ClaudeCode.settings_path(Scope::User, project, &overridden),
            PathBuf::from("/cfg/claude/settings.json")
        );
        assert_eq!(
            Client::Codex.settings_path(Scope::User, project, &overridden),
            PathBuf::from("/cfg/codex/config.toml")
        );
        assert_eq!(
            Client::Gemini.settings_path(Scope::Project, project, &overridden),
            PathBuf::from("/p/.gemini/settings.json")
        );
    }
}
