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

use super::discover::{Target, discover};
pub use super::listing::{PromptSkill, escape_xml, render_prompt, render_skill_entry};
use super::properties::{PropertiesError, ReadSkill, read_properties};

/// Reads every skill, failing on the first that cannot be read (as the
/// reference does: a partial block would silently hide a skill).
pub fn prompt_skills(paths: &[PathBuf]) -> Result<Vec<PromptSkill>, PropertiesError> {
    paths.iter().map(|path| prompt_skill(path)).collect()
}

/// [`prompt_skills`] of every skill below `paths` (the paths themselves
/// when not `recursive`), in discovery's order: each skill once, `.git`,
/// `node_modules` and `target` skipped, as `skill validate --recursive`
/// finds them. A path below which no skill is found is an error, as is
/// any skill that cannot be read.
pub fn prompt_skills_in(
    paths: &[PathBuf],
    recursive: bool,
) -> Result<Vec<PromptSkill>, PropertiesError> {
    if !recursive {
        return prompt_skills(paths);
    }
    let mut skills = Vec::new();
    for path in paths {
        let discovery = discover(std::slice::from_ref(path), true);
        if discovery.found_no_skill() {
            return Err(match Target::for_path(path) {
                Target::Missing { path } => PropertiesError::NotFound(path),
                _ => PropertiesError::NoSkills(path.clone()),
            });
        }
        for target in &discovery.targets {
            skills.push(prompt_skill(target.display_path())?);
        }
    }
    // A skill below two of the paths is listed once.
    let mut seen = std::collections::HashSet::new();
    skills.retain(|skill| seen.insert(skill.location.clone()));
    Ok(skills)
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
