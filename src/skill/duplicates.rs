//! Findings across the skills of one run, after each was checked alone:
//! two skills with one `name` (`W009`, or `E030` when one client would
//! load both from one project), and near-duplicate descriptions (`N001`).
//! Names and description fingerprints are hashed into groups, never
//! compared pair by pair, so the cost stays linear in the number of skills
//! (a group of equal names names at most [`LISTED_OTHERS`] of the others).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use super::check::{SkillReport, ValidateOptions};
use super::clients;
use super::codes;
use super::discover::SKILL_FILE_NAMES;
use super::rules::nfkc;
use crate::report::Diagnostic;

/// How many of the other paths one finding lists.
pub const LISTED_OTHERS: usize = 3;

/// Descriptions shorter than this many distinct words are too generic to
/// call duplicates ("Reads PDFs.").
pub const MIN_FINGERPRINT_WORDS: usize = 4;

/// Adds the cross-skill findings to `skills` (skill reports only; manifest
/// reports of a plugin run are left alone).
pub fn check_duplicates(skills: &mut [SkillReport], options: ValidateOptions) {
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_description: HashMap<String, Vec<usize>> = HashMap::new();
    for (index, skill) in skills.iter().enumerate() {
        if !is_skill_file(&skill.path) {
            continue;
        }
        if let Some(name) = skill.name.as_deref().filter(|name| !name.trim().is_empty()) {
            by_name.entry(nfkc(name)).or_default().push(index);
        }
        if let Some(fingerprint) = skill.description.as_deref().and_then(fingerprint) {
            by_description.entry(fingerprint).or_default().push(index);
        }
    }
    let mut found: Vec<(usize, Diagnostic)> = Vec::new();
    for group in by_name.values().filter(|group| group.len() > 1) {
        let roots: Vec<Option<LookupRoot>> = group
            .iter()
            .map(|&index| lookup_root(&skills[index].path))
            .collect();
        for (position, &index) in group.iter().enumerate() {
            let mut shadowing = Vec::new();
            let mut others = Vec::new();
            for (other_position, &other) in group.iter().enumerate() {
                if other == index {
                    continue;
                }
                if let (Some(mine), Some(theirs)) = (&roots[position], &roots[other_position])
                    && let Some(client) = shared_client(mine, theirs)
                {
                    shadowing.push((other, client));
                } else {
                    others.push(other);
                }
            }
            let name = skills[index].name.clone().unwrap_or_default();
            let diagnostic = if let Some((other, client)) = shadowing.first() {
                Diagnostic::new(
                    codes::Code::DuplicateNameShadowed,
                    format!(
                        "skill name '{name}' is also the name of {}; {client} loads both from this project, and one shadows the other",
                        listed(skills, &[*other], 0)
                    ),
                )
            } else {
                Diagnostic::new(
                    codes::Code::DuplicateName,
                    format!(
                        "skill name '{name}' is also the name of {}",
                        listed(skills, &others, group.len() - 1 - others.len())
                    ),
                )
            };
            found.push((index, diagnostic.with_field("name")));
        }
    }
    for group in by_description.values().filter(|group| group.len() > 1) {
        for &index in group {
            let others: Vec<usize> = group.iter().copied().filter(|&o| o != index).collect();
            found.push((
                index,
                Diagnostic::new(
                    codes::Code::DescriptionNearDuplicate,
                    format!(
                        "description is nearly the same as that of {}; an agent cannot tell them apart",
                        listed(skills, &others, 0)
                    ),
                )
                .with_field("description"),
            ));
        }
    }
    // Stable output whatever the hash order.
    found.sort_by(|a, b| (a.0, a.1.code).cmp(&(b.0, b.1.code)));
    for (index, diagnostic) in found {
        skills[index].add_finding(diagnostic, options);
    }
}

fn is_skill_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| SKILL_FILE_NAMES.contains(&name))
}

/// "`a/SKILL.md`, `b/SKILL.md` and 2 more": bounded, whatever the group's
/// size. `hidden` counts further ones left out of `others` already.
fn listed(skills: &[SkillReport], others: &[usize], hidden: usize) -> String {
    let shown: Vec<String> = others
        .iter()
        .take(LISTED_OTHERS)
        .map(|&other| skills[other].path.display().to_string())
        .collect();
    let more = others.len().saturating_sub(LISTED_OTHERS) + hidden;
    match more {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// The words of a description, lowercased, deduplicated and sorted: the
/// same text up to case, punctuation, spacing and word order. `None` for
/// a description too short to judge.
pub fn fingerprint(description: &str) -> Option<String> {
    if description.is_ascii() {
        // The same words, cut and lowercased byte by byte: for ASCII,
        // `is_alphanumeric` and `to_lowercase` are their ASCII forms.
        let lower = description.to_ascii_lowercase();
        let mut words: Vec<&str> = lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
            .collect();
        words.sort_unstable();
        words.dedup();
        return (words.len() >= MIN_FINGERPRINT_WORDS).then(|| words.join(" "));
    }
    let mut words: Vec<String> = description
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.sort_unstable();
    words.dedup();
    (words.len() >= MIN_FINGERPRINT_WORDS).then(|| words.join(" "))
}

/// Where a skill sits for the clients: the project directory and the
/// lookup path below it (`.claude/skills`) that holds the skill.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LookupRoot {
    project: PathBuf,
    lookup_path: &'static str,
}

fn lookup_root(skill_file: &Path) -> Option<LookupRoot> {
    let directory = skill_file.parent()?;
    // Compare real locations: `./x` and `x` are one place.
    let directory = std::fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf());
    let components: Vec<Component<'_>> = directory.components().collect();
    // The nearest `<dir>/skills` above the skill directory that a client
    // reads.
    for end in (2..components.len()).rev() {
        let pair = Path::new(components[end - 2].as_os_str()).join(components[end - 1].as_os_str());
        let Some(pair) = pair.to_str() else { continue };
        if let Some(&lookup_path) = clients::clients()
            .flat_map(|client| client.lookup_paths.iter())
            .find(|path| **path == pair)
        {
            let project: PathBuf = components[..end - 2].iter().collect();
            return Some(LookupRoot {
                project,
                lookup_path,
            });
        }
    }
    None
}

/// The clients that read both roots in one project, by name.
fn shared_client(mine: &LookupRoot, theirs: &LookupRoot) -> Option<String> {
    if mine.project != theirs.project {
        return None;
    }
    let names: Vec<&str> = clients::clients_reading(mine.lookup_path)
        .filter(|client| client.lookup_paths.contains(&theirs.lookup_path))
        .map(|client| client.client)
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_ignore_case_punctuation_and_order() {
        assert_eq!(
            fingerprint("Reads PDF files, fills forms."),
            fingerprint("fills forms; reads pdf FILES")
        );
        assert_ne!(
            fingerprint("Reads PDF files and fills forms"),
            fingerprint("Reads Word files and fills forms")
        );
        assert_eq!(fingerprint("Reads PDFs."), None, "too short to judge");
        // Text outside ASCII takes the general path, with the same rules.
        assert_eq!(
            fingerprint("Reads PDF files, fills forms. é"),
            fingerprint("é fills forms; reads pdf FILES")
        );
        assert_eq!(
            fingerprint("Reads PDF files, fills forms"),
            Some("files fills forms pdf reads".to_owned())
        );
        assert_eq!(
            fingerprint("Reads PDF files, fills formś").as_deref(),
            Some("files fills formś pdf reads")
        );
    }

    #[test]
    fn lookup_roots_find_the_nearest_client_directory() {
        let root = lookup_root(Path::new("/repo/.claude/skills/pdf/SKILL.md")).unwrap();
        assert_eq!(root.project, Path::new("/repo"));
        assert_eq!(root.lookup_path, ".claude/skills");
        let nested = lookup_root(Path::new("/repo/.agents/skills/group/pdf/SKILL.md")).unwrap();
        assert_eq!(nested.lookup_path, ".agents/skills");
        assert!(lookup_root(Path::new("/repo/skills/pdf/SKILL.md")).is_none());
    }

    #[test]
    fn a_client_reading_both_roots_is_named() {
        let claude = LookupRoot {
            project: PathBuf::from("/repo"),
            lookup_path: ".claude/skills",
        };
        let agents = LookupRoot {
            project: PathBuf::from("/repo"),
            lookup_path: ".agents/skills",
        };
        let gemini = LookupRoot {
            project: PathBuf::from("/repo"),
            lookup_path: ".gemini/skills",
        };
        assert_eq!(
            shared_client(&claude, &agents).as_deref(),
            Some("GitHub Copilot in VS Code, Cursor, OpenCode")
        );
        assert_eq!(shared_client(&claude, &gemini), None);
        let elsewhere = LookupRoot {
            project: PathBuf::from("/other"),
            ..claude.clone()
        };
        assert_eq!(shared_client(&claude, &elsewhere), None);
    }
}
