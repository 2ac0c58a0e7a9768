//! Findings across the skills of one run: two skills with one `name`
//! (`W009`, or `E030` when one client would load both from one project),
//! and near-duplicate descriptions (`N001`).
//!
//! The skills are taken in the run's order, and a finding goes on the
//! *later* skill of a pair, naming the earlier one, the way a compiler
//! reports a second definition and points at the first. So a report is
//! final as soon as its skill is checked and can be written at once; only
//! the names and description fingerprints of earlier skills are kept
//! (with the paths a finding names), never their reports. Names and
//! fingerprints are hashed into groups, never compared pair by pair, so
//! the cost stays linear in the number of skills.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use super::check::{SkillReport, ValidateOptions};
use super::clients;
use super::codes;
use super::discover::SKILL_FILE_NAMES;
use super::rules::nfkc;
use crate::report::Diagnostic;

/// How many of the earlier paths one finding lists.
pub const LISTED_OTHERS: usize = 3;

/// Descriptions shorter than this many distinct words are too generic to
/// call duplicates ("Reads PDFs.").
pub const MIN_FINGERPRINT_WORDS: usize = 4;

/// What the cross-skill checks remember of the skills seen so far.
#[derive(Debug, Default)]
pub struct CrossSkill {
    by_name: HashMap<String, NameGroup>,
    by_description: HashMap<String, Earlier>,
    real: RealDirectories,
}

/// The earlier skills of one group: the first [`LISTED_OTHERS`] paths,
/// and how many there are.
#[derive(Debug)]
struct Earlier {
    shown: Vec<PathBuf>,
    count: usize,
}

impl Earlier {
    fn new(path: &Path) -> Self {
        Self {
            shown: vec![path.to_owned()],
            count: 1,
        }
    }

    fn add(&mut self, path: &Path) {
        if self.shown.len() < LISTED_OTHERS {
            self.shown.push(path.to_owned());
        }
        self.count += 1;
    }

    /// "`a/SKILL.md`, `b/SKILL.md` and 2 more": bounded, whatever the
    /// group's size.
    fn listed(&self) -> String {
        let shown: Vec<String> = self
            .shown
            .iter()
            .map(|path| path.display().to_string())
            .collect();
        match self.count - self.shown.len() {
            0 => shown.join(", "),
            more => format!("{} and {more} more", shown.join(", ")),
        }
    }
}

/// The earlier skills with one name, and where clients look them up.
#[derive(Debug)]
struct NameGroup {
    earlier: Earlier,
    /// One earlier skill per distinct lookup root, in order, for `E030`;
    /// `None` until a second skill has the name (a lookup canonicalizes
    /// the directory, so a name seen once costs none).
    roots: Option<Vec<(LookupRoot, PathBuf)>>,
}

impl CrossSkill {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the findings of `skill` against the skills seen before it
    /// (with `--strict` applied), then remembers it. Reports that are not
    /// of a skill file (a missing path, a plugin manifest) are left alone.
    pub fn check(&mut self, skill: &mut SkillReport, options: ValidateOptions) {
        if !is_skill_file(&skill.path) {
            return;
        }
        let mut found = Vec::new();
        if let Some(name) = skill.name.as_deref().filter(|name| !name.trim().is_empty())
            && let Some(diagnostic) = self.name_finding(name, &skill.path)
        {
            found.push(diagnostic);
        }
        if let Some(fingerprint) = skill.description.as_deref().and_then(fingerprint) {
            match self.by_description.get_mut(&fingerprint) {
                Some(earlier) => {
                    found.push(
                        Diagnostic::new(
                            codes::Code::DescriptionNearDuplicate,
                            format!(
                                "description is nearly the same as that of {}; an agent cannot tell them apart",
                                earlier.listed()
                            ),
                        )
                        .with_field("description"),
                    );
                    earlier.add(&skill.path);
                }
                None => {
                    self.by_description
                        .insert(fingerprint, Earlier::new(&skill.path));
                }
            }
        }
        // In code order, whatever the order they were found in.
        found.sort_by_key(|diagnostic| diagnostic.code);
        for diagnostic in found {
            skill.add_finding(diagnostic, options);
        }
    }

    /// `E030` when a client reads an earlier skill of this name from this
    /// project too, else `W009` when there is one at all; remembers the
    /// skill.
    fn name_finding(&mut self, name: &str, path: &Path) -> Option<Diagnostic> {
        let key = nfkc(name);
        let Some(group) = self.by_name.get_mut(&key) else {
            self.by_name.insert(
                key,
                NameGroup {
                    earlier: Earlier::new(path),
                    roots: None,
                },
            );
            return None;
        };
        let roots = group.roots.get_or_insert_with(|| {
            let first = &group.earlier.shown[0];
            lookup_root(first, &mut self.real)
                .map(|root| vec![(root, first.clone())])
                .unwrap_or_default()
        });
        let mine = lookup_root(path, &mut self.real);
        let shadowed = mine.as_ref().and_then(|mine| {
            roots.iter().find_map(|(theirs, other)| {
                shared_client(mine, theirs).map(|client| (other, client))
            })
        });
        let diagnostic = match shadowed {
            Some((other, client)) => Diagnostic::new(
                codes::Code::DuplicateNameShadowed,
                format!(
                    "skill name '{name}' is also the name of {}; {client} loads both from this project, and one shadows the other",
                    other.display()
                ),
            ),
            None => Diagnostic::new(
                codes::Code::DuplicateName,
                format!(
                    "skill name '{name}' is also the name of {}",
                    group.earlier.listed()
                ),
            ),
        };
        if let Some(mine) = mine
            && !roots.iter().any(|(root, _)| *root == mine)
        {
            roots.push((mine, path.to_owned()));
        }
        group.earlier.add(path);
        Some(diagnostic.with_field("name"))
    }
}

/// Adds the cross-skill findings to `skills`, in their order (skill
/// reports only; manifest reports of a plugin run are left alone).
pub fn check_duplicates(skills: &mut [SkillReport], options: ValidateOptions) {
    let mut cross = CrossSkill::new();
    for skill in skills {
        cross.check(skill, options);
    }
}

fn is_skill_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| SKILL_FILE_NAMES.contains(&name))
}

/// The words of a description, lowercased, deduplicated and sorted: the
/// same text up to case, punctuation, spacing and word order. `None` for
/// a description too short to judge.
pub fn fingerprint(description: &str) -> Option<String> {
    if description.is_ascii() {
        // The same words, cut and lowercased byte by byte: for ASCII,
        // `is_alphanumeric` and `to_lowercase` are their ASCII forms.
        // Words are cut at byte positions, which in ASCII are character
        // boundaries, instead of decoding character by character.
        let lower = description.to_ascii_lowercase();
        // Each word with its first eight bytes as an integer (big-endian,
        // zero-padded: words hold no zero byte, so the integers order as
        // the words' first eight bytes do); sorted by both, the words are
        // in byte order, mostly told apart without a memcmp.
        let mut words: Vec<(u64, &str)> = Vec::with_capacity(lower.len() / 6 + 1);
        let mut start = None;
        for (at, byte) in lower.bytes().enumerate() {
            match (byte.is_ascii_alphanumeric(), start) {
                (true, None) => start = Some(at),
                (false, Some(from)) => {
                    words.push(keyed(&lower[from..at]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(from) = start {
            words.push(keyed(&lower[from..]));
        }
        words.sort_unstable();
        words.dedup();
        let words: Vec<&str> = words.into_iter().map(|(_, word)| word).collect();
        return (words.len() >= MIN_FINGERPRINT_WORDS).then(|| words.join(" "));
    }
    fingerprint_chars(description)
}

/// `word` with its first eight bytes, big-endian, zero-padded.
fn keyed(word: &str) -> (u64, &str) {
    let mut prefix = [0u8; 8];
    for (slot, byte) in prefix.iter_mut().zip(word.bytes()) {
        *slot = byte;
    }
    (u64::from_be_bytes(prefix), word)
}

/// [`fingerprint`] character by character, for any text.
fn fingerprint_chars(description: &str) -> Option<String> {
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

/// Every client's lookup paths in the clients' order, each with its two
/// parts (`.claude/skills`: `.claude` and `skills`).
static LOOKUP_PATHS: std::sync::LazyLock<Vec<(&'static str, &'static str, &'static str)>> =
    std::sync::LazyLock::new(|| {
        clients::clients()
            .flat_map(|client| client.lookup_paths.iter())
            .filter_map(|&path| {
                let (parent, last) = path.split_once('/')?;
                Some((path, parent, last))
            })
            .collect()
    });

fn lookup_root(skill_file: &Path, real: &mut RealDirectories) -> Option<LookupRoot> {
    let directory = skill_file.parent()?;
    // Compare real locations: `./x` and `x` are one place.
    let directory = real.canonical(directory);
    let components: Vec<Component<'_>> = directory.components().collect();
    // The nearest `<dir>/skills` above the skill directory that a client
    // reads.
    for end in (2..components.len()).rev() {
        // The two components are the lookup path's two parts (a component
        // holds no `/`), compared without joining them.
        let (first, second) = (
            components[end - 2].as_os_str(),
            components[end - 1].as_os_str(),
        );
        if let Some(&(lookup_path, _, _)) = LOOKUP_PATHS
            .iter()
            .find(|(_, parent, last)| second == *last && first == *parent)
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

/// Where directories really are (`std::fs::canonicalize`), the real
/// place of each parent and of its ancestors remembered: the skills of a
/// duplicate-name group often share a parent and their parents share
/// ancestors, and resolving a path anew costs a `readlink` per component
/// (7,400 on the real collection). A directory whose parent is known
/// costs one `lstat`.
#[derive(Debug, Default)]
struct RealDirectories {
    /// A parent or an ancestor as given, and its real place (`None`: it
    /// has none).
    parents: HashMap<PathBuf, Option<PathBuf>>,
}

impl RealDirectories {
    /// `directory`'s real place, else `directory` itself (it does not
    /// exist, or cannot be resolved).
    fn canonical(&mut self, directory: &Path) -> PathBuf {
        self.through_parent(directory).unwrap_or_else(|| {
            std::fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf())
        })
    }

    /// The real place of the parent joined with the last name, when that
    /// is the real place: the path ends with a plain name (not `.`, `..`
    /// or a slash), and that name is a directory, not a symlink. `None`
    /// when the shortcut does not apply.
    fn through_parent(&mut self, directory: &Path) -> Option<PathBuf> {
        let (parent, name) = parent_and_name(directory)?;
        let real_parent = self.real_parent(parent)?;
        let kind = std::fs::symlink_metadata(directory).ok()?.file_type();
        kind.is_dir().then(|| real_parent.join(name))
    }

    /// `parent`'s real place, remembered. Ancestors not yet known are
    /// resolved from the farthest down, each through its own parent
    /// where the shortcut applies (a loop, not a recursion: a path may be
    /// deep).
    fn real_parent(&mut self, parent: &Path) -> Option<PathBuf> {
        let mut unknown = Vec::new();
        let mut at = parent;
        while !self.parents.contains_key(at) {
            unknown.push(at);
            match parent_and_name(at) {
                Some((up, _)) => at = up,
                None => break,
            }
        }
        for &directory in unknown.iter().rev() {
            let shortcut = parent_and_name(directory).and_then(|(up, name)| {
                let real_up = self.parents.get(up)?.as_ref()?;
                let kind = std::fs::symlink_metadata(directory).ok()?.file_type();
                kind.is_dir().then(|| real_up.join(name))
            });
            let real = shortcut.or_else(|| std::fs::canonicalize(directory).ok());
            self.parents.insert(directory.to_owned(), real);
        }
        self.parents.get(parent)?.clone()
    }
}

/// A path's parent (not empty) and its last name, when it ends with a
/// plain name (not `.`, `..` or a slash).
fn parent_and_name(path: &Path) -> Option<(&Path, &std::ffi::OsStr)> {
    let Component::Normal(name) = path.components().next_back()? else {
        return None;
    };
    if !path
        .as_os_str()
        .as_encoded_bytes()
        .ends_with(name.as_encoded_bytes())
    {
        return None;
    }
    let parent = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())?;
    Some((parent, name))
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
    use crate::report::Severity;
    use crate::skill::place::ProfileSource;
    use crate::skill::rules::Profile;

    fn skill(path: &str, name: &str, description: &str) -> SkillReport {
        SkillReport {
            path: path.into(),
            name: Some(name.to_owned()),
            valid: true,
            diagnostics: Vec::new(),
            tokens: None,
            profile: Profile::STANDARD,
            profile_source: ProfileSource::Given,
            selected: None,
            description: Some(description.to_owned()),
        }
    }

    fn codes_and_messages(skill: &SkillReport) -> Vec<(&str, &str)> {
        skill
            .diagnostics
            .iter()
            .map(|d| (d.code, d.message.as_str()))
            .collect()
    }

    #[test]
    fn the_later_skill_of_a_pair_names_the_earlier() {
        let mut skills = vec![
            skill("/r/a/SKILL.md", "pdf", "Reads PDF files, fills forms"),
            skill("/r/b/SKILL.md", "pdf", "fills forms; reads pdf files"),
        ];
        check_duplicates(&mut skills, ValidateOptions::default());
        assert!(skills[0].diagnostics.is_empty(), "{:?}", skills[0]);
        assert_eq!(
            codes_and_messages(&skills[1]),
            [
                (
                    "N001",
                    "description is nearly the same as that of /r/a/SKILL.md; an agent cannot tell them apart"
                ),
                ("W009", "skill name 'pdf' is also the name of /r/a/SKILL.md"),
            ]
        );
    }

    #[test]
    fn a_group_lists_a_bounded_number_of_earlier_skills() {
        let mut skills: Vec<SkillReport> = (0..6)
            .map(|i| skill(&format!("/r/s{i}/SKILL.md"), "same", &format!("d{i}")))
            .collect();
        check_duplicates(&mut skills, ValidateOptions::default());
        assert_eq!(
            skills[5].diagnostics[0].message,
            "skill name 'same' is also the name of /r/s0/SKILL.md, /r/s1/SKILL.md, /r/s2/SKILL.md and 2 more"
        );
        assert_eq!(
            skills[2].diagnostics[0].message,
            "skill name 'same' is also the name of /r/s0/SKILL.md, /r/s1/SKILL.md"
        );
    }

    #[test]
    fn shadowing_names_the_first_earlier_skill_a_client_also_loads() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let paths: Vec<PathBuf> = ["other/a", ".claude/skills/a", ".agents/skills/a"]
            .iter()
            .map(|skill| {
                std::fs::create_dir_all(root.join(skill)).unwrap();
                root.join(skill).join("SKILL.md")
            })
            .collect();
        let mut skills: Vec<SkillReport> = paths
            .iter()
            .map(|path| skill(&path.to_string_lossy(), "a", "x"))
            .collect();
        let strict = ValidateOptions {
            strict: true,
            ..ValidateOptions::default()
        };
        check_duplicates(&mut skills, strict);
        assert!(skills[0].diagnostics.is_empty());
        assert_eq!(skills[1].diagnostics[0].code, "W009");
        assert_eq!(
            skills[1].diagnostics[0].severity,
            Severity::Error,
            "--strict applies"
        );
        let shadowed = &skills[2].diagnostics[0];
        assert_eq!(shadowed.code, "E030");
        assert!(
            shadowed
                .message
                .contains(&format!("is also the name of {};", paths[1].display())),
            "{}",
            shadowed.message
        );
        assert!(!skills[2].valid);
    }

    proptest::proptest! {
        #[test]
        fn ascii_fingerprints_are_the_general_ones(
            text in "([a-zA-Z0-9]{1,3}[ -/:-@\\[-`{-~\t\n]{1,2}){0,12}"
        ) {
            proptest::prop_assert_eq!(fingerprint(&text), fingerprint_chars(&text));
        }
    }

    #[cfg(unix)]
    #[test]
    fn real_directories_are_the_canonical_ones() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for sub in ["real/skills/a", "real/skills/b", "other/c"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        std::fs::write(root.join("real/skills/file"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("real"), root.join("link")).unwrap();
        std::os::unix::fs::symlink(root.join("other/c"), root.join("real/skills/to-c")).unwrap();
        let mut real = RealDirectories::default();
        let paths = [
            "link/skills/a",
            "link/skills/b",
            "link/skills/to-c",
            "link/skills/file",
            "link/skills/missing",
            "link/skills/a/.",
            "link/skills/a/",
            "link/skills/a/..",
            "link/skills/../skills/b",
            "real/skills/to-c/.",
            "real/skills/./a",
        ];
        for _ in 0..2 {
            for path in paths {
                let path = root.join(path);
                let expected = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                assert_eq!(real.canonical(&path), expected, "{}", path.display());
            }
        }
        // Relative paths resolve against the current directory, as
        // `canonicalize` does.
        assert_eq!(
            real.canonical(Path::new("src/skill")),
            std::fs::canonicalize("src/skill").unwrap()
        );
        assert_eq!(
            real.canonical(Path::new("src")),
            std::fs::canonicalize("src").unwrap()
        );
    }

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
        let real = &mut RealDirectories::default();
        let root = lookup_root(Path::new("/repo/.claude/skills/pdf/SKILL.md"), real).unwrap();
        assert_eq!(root.project, Path::new("/repo"));
        assert_eq!(root.lookup_path, ".claude/skills");
        let nested =
            lookup_root(Path::new("/repo/.agents/skills/group/pdf/SKILL.md"), real).unwrap();
        assert_eq!(nested.lookup_path, ".agents/skills");
        assert!(lookup_root(Path::new("/repo/skills/pdf/SKILL.md"), real).is_none());
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
