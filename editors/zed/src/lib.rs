//! Zed extension for `aigent lsp`.
//!
//! Zed starts a language server only when an extension declares it, so this
//! crate does the one thing Zed cannot do from settings alone: it tells Zed
//! how to start `aigent lsp`. Everything the server knows lives in aigent.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result, Worktree};

/// The id under `[language_servers]` in extension.toml and under `lsp` in
/// the user's settings.json.
const SERVER: &str = "aigent";

struct AigentExtension;

impl AigentExtension {
    fn settings(worktree: &Worktree) -> LspSettings {
        // A settings file Zed cannot read is reported by Zed itself; the
        // server then starts with its defaults rather than not at all.
        LspSettings::for_worktree(SERVER, worktree).unwrap_or_default()
    }
}

impl zed::Extension for AigentExtension {
    fn new() -> Self {
        AigentExtension
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<zed::Command> {
        let binary = Self::settings(worktree).binary;
        let configured_path = binary.as_ref().and_then(|b| b.path.clone());
        let command = match configured_path {
            Some(path) => path,
            None => worktree.which("aigent").ok_or_else(|| {
                "aigent is not on the project's PATH: install it (cargo install --locked aigent) \
                 or set lsp.aigent.binary.path in settings.json"
                    .to_string()
            })?,
        };
        let args = binary
            .as_ref()
            .and_then(|b| b.arguments.clone())
            .unwrap_or_else(|| vec!["lsp".to_string()]);
        // The project's shell environment first (so AIGENT_COMMANDS and PATH
        // are what a terminal in the project sees), then the user's own.
        let mut env = worktree.shell_env();
        if let Some(extra) = binary.and_then(|b| b.env) {
            env.extend(extra);
        }
        Ok(zed::Command { command, args, env })
    }

    fn language_server_initialization_options(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(Self::settings(worktree).initialization_options)
    }

    fn language_server_workspace_configuration(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(Self::settings(worktree).settings)
    }
}

zed::register_extension!(AigentExtension);
