//! What each frontmatter key means, for hover and completion, and what a
//! profile makes of it. Which keys a profile knows, and their types, come
//! from the client table ([`crate::skill::clients`]); only the one-line
//! meanings are here.

use crate::skill::Profile;
use crate::skill::clients::{self, KeyKind, KnownKeys};
use crate::skill::rules::{
    MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, SPEC_KEYS,
};

/// The meaning of a key the specification or a client defines.
pub fn meaning(key: &str) -> Option<String> {
    Some(match key {
        "name" => format!(
            "Required. The skill's name: 1 to {MAX_NAME_CHARS} lowercase letters, digits and single hyphens, the same as its directory's name."
        ),
        "description" => format!(
            "Required. What the skill does and when to use it, in at most {MAX_DESCRIPTION_CHARS} characters: agents read it to decide whether to load the skill."
        ),
        "license" => "The licence the skill is under: its name, or a file bundled with the skill.".to_owned(),
        "compatibility" => format!(
            "What the skill needs to run (a product, system packages, network access), in at most {MAX_COMPATIBILITY_CHARS} characters."
        ),
        "metadata" => "A mapping of further string properties, for clients and tools to read.".to_owned(),
        "allowed-tools" => "Tools the skill may use without asking, space-separated (experimental in the specification).".to_owned(),
        "when_to_use" => "Claude Code: more about when the skill applies, read with the description.".to_owned(),
        "argument-hint" => "Claude Code: the arguments to show when the skill is typed as a slash command (`[issue-number]`).".to_owned(),
        "arguments" => "Claude Code: the arguments the skill takes.".to_owned(),
        "disable-model-invocation" => "Claude Code: `true` keeps the model from loading the skill on its own; only the user invokes it.".to_owned(),
        "user-invocable" => "Claude Code: `false` hides the skill from the slash-command menu; only the model loads it.".to_owned(),
        "model" => "Claude Code: the model to use while the skill runs.".to_owned(),
        "effort" => "Claude Code: the reasoning effort to use while the skill runs.".to_owned(),
        "context" => "Claude Code: `fork` runs the skill in a separate sub-agent context.".to_owned(),
        "agent" => "Claude Code: the sub-agent that runs the skill when `context` is `fork`.".to_owned(),
        "hooks" => "Claude Code: hooks that run while the skill is active.".to_owned(),
        "paths" => "Claude Code: glob patterns of the files the skill is about; it is offered when they are in play.".to_owned(),
        "shell" => "Claude Code: the shell that runs the skill's command blocks.".to_owned(),
        _ => return None,
    })
}

/// The keys `profile` knows, the specification's first, in order.
pub fn known_keys(profile: Profile) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = SPEC_KEYS.to_vec();
    match profile.client().keys {
        KnownKeys::SpecAnd(extra) => keys.extend(extra.iter().map(|key| key.name)),
        // A profile that knows every key offers every key some client reads.
        KnownKeys::All => {
            for client in clients::PROFILES {
                if let KnownKeys::SpecAnd(extra) = client.keys {
                    for key in extra {
                        if !keys.contains(&key.name) {
                            keys.push(key.name);
                        }
                    }
                }
            }
        }
    }
    keys
}

/// What `profile` makes of `key`, as Markdown: its meaning, and whether
/// the profile knows it, of which type, or who reads it when it does not.
pub fn describe(key: &str, profile: Profile) -> String {
    let mut text = format!("**`{key}`**");
    if let Some(meaning) = meaning(key) {
        text.push_str(&format!(" — {meaning}"));
    }
    text.push_str("\n\n");
    let kind = profile
        .client_keys()
        .iter()
        .find(|client_key| client_key.name == key)
        .map(|client_key| client_key.kind);
    if SPEC_KEYS.contains(&key) {
        text.push_str(&format!(
            "A key of the Agent Skills specification: every profile knows it (profile `{}`).",
            profile.as_str()
        ));
    } else if profile.knows(key) {
        text.push_str(&format!(
            "Known to profile `{}` ({}){}.",
            profile.as_str(),
            profile.client().client,
            match kind {
                Some(KeyKind::Any) | None => String::new(),
                Some(kind) => format!(", whose value is {}", kind.as_str()),
            }
        ));
    } else {
        let readers: Vec<_> = clients::clients_knowing(key).collect();
        text.push_str(&format!(
            "Not known to profile `{}`: `skill validate` warns about it",
            profile.as_str()
        ));
        if readers.is_empty() {
            text.push('.');
        } else {
            text.push_str(&format!(
                "; {} {} it.",
                clients::describe_clients(readers.iter().copied()),
                if readers.len() == 1 { "reads" } else { "read" }
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_a_profile_knows_has_a_meaning() {
        for profile in Profile::all() {
            for key in known_keys(profile) {
                assert!(meaning(key).is_some(), "{key} ({})", profile.as_str());
                assert!(profile.knows(key), "{key} ({})", profile.as_str());
            }
        }
    }

    #[test]
    fn a_key_is_described_per_profile() {
        let claude = Profile::named("claude-code").unwrap();
        let standard = Profile::STANDARD;
        assert!(describe("model", claude).contains("Known to profile `claude-code`"));
        let unknown = describe("model", standard);
        assert!(
            unknown.contains("Not known to profile `standard`"),
            "{unknown}"
        );
        assert!(unknown.contains("Claude Code"), "{unknown}");
        assert!(describe("name", standard).contains("specification"));
        assert!(known_keys(claude).contains(&"disable-model-invocation"));
        assert!(!known_keys(standard).contains(&"model"));
    }
}
