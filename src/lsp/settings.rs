//! The server's settings, from the client's `initializationOptions` and
//! `workspace/didChangeConfiguration`: the same choices as the CLI's
//! `--profile`, `--strict` and `--commands`.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::skill::Profile;

/// What the settings say, resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// `--profile`; `None` lets a skill's place choose, as the CLI does.
    pub profile: Option<Profile>,
    /// `--strict`: warnings count as errors.
    pub strict: bool,
    /// `--commands`: the registry directory whose `*.json`/`*.yaml` files
    /// are declarations.
    pub registry: Option<PathBuf>,
}

/// The settings as a client writes them: `{"profile": "claude-code",
/// "strict": true, "registry": "commands"}`, bare or under `"aigent"`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    profile: Option<String>,
    #[serde(default)]
    strict: bool,
    registry: Option<PathBuf>,
}

impl Settings {
    /// Reads the settings a client sent. `root` is the workspace root
    /// that a relative `registry` is resolved against; `fallback_registry`
    /// is the one used when the settings name none (`AIGENT_COMMANDS`).
    /// An `Err` names what is wrong; the caller keeps its settings.
    pub fn from_value(
        value: &Value,
        root: Option<&Path>,
        fallback_registry: Option<&Path>,
    ) -> Result<Self, String> {
        let value = match value {
            Value::Object(object) if object.contains_key("aigent") => &object["aigent"],
            other => other,
        };
        let written: Written = match value {
            Value::Null => Written::default(),
            other => serde_json::from_value(other.clone())
                .map_err(|err| format!("aigent settings: {err}"))?,
        };
        let profile = match written.profile.as_deref() {
            None => None,
            Some(id) => Some(Profile::named(id).ok_or_else(|| {
                let known: Vec<&str> = Profile::all().map(Profile::as_str).collect();
                format!(
                    "aigent settings: unknown profile `{id}`; the profiles are {}",
                    known.join(", ")
                )
            })?),
        };
        let registry = match written.registry {
            Some(dir) if dir.is_relative() => Some(match root {
                Some(root) => root.join(dir),
                None => dir,
            }),
            Some(dir) => Some(dir),
            None => fallback_registry.map(Path::to_path_buf),
        };
        Ok(Self {
            profile,
            strict: written.strict,
            registry,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_bare_or_nested_relative_to_the_root() {
        let root = Path::new("/work/project");
        let bare = Settings::from_value(
            &json!({"profile": "claude-code", "strict": true, "registry": "commands"}),
            Some(root),
            None,
        )
        .unwrap();
        assert_eq!(bare.profile.map(Profile::as_str), Some("claude-code"));
        assert!(bare.strict);
        assert_eq!(
            bare.registry.as_deref(),
            Some(Path::new("/work/project/commands"))
        );
        let nested =
            Settings::from_value(&json!({"aigent": {"strict": false}}), Some(root), None).unwrap();
        assert_eq!(nested, Settings::default());
        let fallback =
            Settings::from_value(&Value::Null, Some(root), Some(Path::new("/reg"))).unwrap();
        assert_eq!(fallback.registry.as_deref(), Some(Path::new("/reg")));
    }

    #[test]
    fn wrong_settings_are_named() {
        let unknown = Settings::from_value(&json!({"profle": "x"}), None, None).unwrap_err();
        assert!(unknown.contains("profle"), "{unknown}");
        let profile = Settings::from_value(&json!({"profile": "vim"}), None, None).unwrap_err();
        assert!(profile.contains("unknown profile `vim`"), "{profile}");
        assert!(Settings::from_value(&json!({"strict": "yes"}), None, None).is_err());
    }
}
