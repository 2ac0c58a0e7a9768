//! `to-prompt`: the `<available_skills>` block that agents load into their
//! system prompt, in the reference implementation's layout: one element per
//! line, values on their own lines, `<location>` the absolute path of the
//! skill file.
//!
//! Where we deliberately differ: the reference escapes `name` and
//! `description` but not `location`. We escape all three, since a path may
//! hold `&` or `<` and the block must stay well-formed XML.

use std::fs;
use std::path::{Path, PathBuf};

pub use super::listing::{PromptSkill, escape_xml, render_prompt, render_skill_entry};
use super::properties::{PropertiesError, ReadSkill, read_properties};

/// Reads every skill, failing on the first that cannot be read (as the
/// reference does: a partial block would silently hide a skill).
pub fn prompt_skills(paths: &[PathBuf]) -> Result<Vec<PromptSkill>, PropertiesError> {
    paths.iter().map(|path| prompt_skill(path)).collect()
}

fn prompt_skill(path: &Path) -> Result<PromptSkill, PropertiesError> {
    let ReadSkill {
        file,
        directory,
        properties,
    } = read_properties(path)?;
    let absolute_directory = fs::canonicalize(&directory).unwrap_or(directory);
    let location = match file.file_name() {
        Some(file_name) => absolute_directory.join(file_name),
        None => file,
    };
    Ok(PromptSkill {
        name: properties.name,
        description: properties.description,
        location,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn layout_matches_the_reference() {
        let skills = [PromptSkill {
            name: "pdf".into(),
            description: "Use <b> & \"q\" 'x'".into(),
            location: PathBuf::from("/s/pdf/SKILL.md"),
        }];
        assert_eq!(
            render_prompt(&skills),
            "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nUse &lt;b&gt; &amp; &quot;q&quot; &#x27;x&#x27;\n</description>\n<location>\n/s/pdf/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
        assert_eq!(
            render_prompt(&[]),
            "<available_skills>\n</available_skills>"
        );
    }

    #[test]
    fn terminal_controls_become_character_references() {
        assert_eq!(
            escape_xml("a\u{1b}[2J\u{202e}b\n\tc"),
            "a&#x1b;[2J&#x202e;b\n\tc"
        );
    }
}
