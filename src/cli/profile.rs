//! `--profile NAME`, one value per row of the client table
//! ([`aigent::skill::clients::PROFILES`]): a new client there is a new
//! value here, with its help line, in completions and the man page.

use std::sync::LazyLock;

use clap::ValueEnum;
use clap::builder::PossibleValue;

use aigent::skill::Profile;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileArg(pub Profile);

static VARIANTS: LazyLock<Vec<ProfileArg>> =
    LazyLock::new(|| Profile::all().map(ProfileArg).collect());

impl ValueEnum for ProfileArg {
    fn value_variants<'a>() -> &'a [Self] {
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.as_str()).help(self.0.client().summary))
    }
}

impl From<ProfileArg> for Profile {
    fn from(arg: ProfileArg) -> Self {
        arg.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_row_is_a_value() {
        let values: Vec<String> = ProfileArg::value_variants()
            .iter()
            .filter_map(|arg| arg.to_possible_value())
            .map(|value| value.get_name().to_owned())
            .collect();
        for id in [
            "standard",
            "claude-code",
            "codex",
            "copilot",
            "cursor",
            "opencode",
            "gemini",
            "strictest",
            "permissive",
        ] {
            assert!(values.iter().any(|value| value == id), "{id}");
            assert_eq!(ProfileArg::from_str(id, false).unwrap().0.as_str(), id);
        }
    }
}
