//! Which declarations run which program, for `aigent hook`: a command line
//! names a program, not a command, and the hook must find the few
//! declarations for it without reading a thousand files on every call.
//!
//! The index is kept in a cache file (under `$XDG_CACHE_HOME/aigent/`),
//! valid while the registry directory is the same directory with the same
//! modification and change times; adding, removing or renaming a file
//! changes them and rebuilds the index from the declarations. A lookup then
//! costs one `stat`, the cache file, and only the declarations of the
//! program in question, whatever the registry's size.
//!
//! The index never decides anything by itself: every declaration it names
//! is loaded and checked afresh, so an edit made in place (which leaves
//! the directory's times alone) is always seen for the declarations the
//! index names. The one thing such an edit can hide until the directory
//! next changes is a declaration that newly names a program: the hook then
//! finds no declaration for it and asks, which fails safe. Deleting the
//! cache file, or any change to the directory, rebuilds it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::source::{LoadError, Source};
use crate::fsutil::{read_regular_file, write_atomic};

/// Cache files larger than this are not read (a registry of many thousands
/// of declarations stays far below it).
const MAX_CACHE_BYTES: u64 = 16 * 1024 * 1024;

/// Declaration names by the program they run (the base name of
/// `subprocess.binary`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramIndex {
    fingerprint: String,
    /// Built more than [`SETTLE`] after the directory last changed. A
    /// directory's times are coarse (a clock tick), so a file added in the
    /// same tick as the build would leave them alone: an index built that
    /// soon is not trusted again.
    #[serde(default)]
    settled: bool,
    programs: BTreeMap<String, Vec<String>>,
    /// Each declaration's key word ([`key_word`]): a line that lacks it
    /// cannot match the declaration, so the hook need not read it.
    #[serde(default)]
    keys: BTreeMap<String, String>,
}

/// See [`ProgramIndex::settled`].
const SETTLE: std::time::Duration = std::time::Duration::from_secs(2);

impl ProgramIndex {
    /// The commands whose program has base name `program`.
    pub fn commands_for(&self, program: &str) -> &[String] {
        self.programs.get(program).map_or(&[], Vec::as_slice)
    }

    /// The commands of `program` a line of these `words` could match: those
    /// whose key word is among them, or that have none.
    pub fn commands_for_words(&self, program: &str, words: &[&str]) -> Vec<&str> {
        self.commands_for(program)
            .iter()
            .filter(|name| {
                self.keys
                    .get(name.as_str())
                    .is_none_or(|key| words.contains(&key.as_str()))
            })
            .map(String::as_str)
            .collect()
    }

    /// How many programs the index knows.
    pub fn len(&self) -> usize {
        self.programs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.programs.is_empty()
    }

    /// This index with `program` naming only `name` (when it names it at
    /// all) and no other program: a line judged against one declaration.
    pub fn only(&self, program: &str, name: &str) -> Self {
        let names: Vec<String> = self
            .commands_for(program)
            .iter()
            .filter(|known| *known == name)
            .cloned()
            .collect();
        Self {
            fingerprint: self.fingerprint.clone(),
            settled: self.settled,
            programs: BTreeMap::from([(program.to_owned(), names)]),
            keys: self.keys.clone(),
        }
    }

    /// An index made elsewhere (the layers merged, the catalog's table).
    pub(super) fn from_parts(
        fingerprint: String,
        programs: BTreeMap<String, Vec<String>>,
        keys: BTreeMap<String, String>,
    ) -> Self {
        Self {
            fingerprint,
            settled: true,
            programs,
            keys,
        }
    }

    pub(super) fn programs(&self) -> &BTreeMap<String, Vec<String>> {
        &self.programs
    }

    pub(super) fn keys(&self) -> &BTreeMap<String, String> {
        &self.keys
    }

    pub(super) fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

/// A word every line that matches a template has, word for word: its
/// first literal that is not an option, nor after an option it could be
/// the value of, nor after `--`. `None` when it has none.
pub fn key_word(argv: &[crate::contract::ArgvPart]) -> Option<&str> {
    use crate::contract::ArgvPart;
    let mut after_option = false;
    for part in argv {
        match part {
            ArgvPart::Literal(word) if word == "--" => return None,
            ArgvPart::Literal(word) if word.starts_with('-') => after_option = true,
            ArgvPart::Literal(word) if !after_option => return Some(word),
            ArgvPart::Literal(_) => after_option = false,
            ArgvPart::Param(_) => after_option = false,
        }
    }
    None
}

/// The base name a program is indexed and looked up by: the last path
/// component (`/usr/bin/git` and `git` are both `git`).
pub fn program_key(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

impl Source {
    /// The program index, from `cache_dir` when it is current there, else
    /// built and (best effort) saved there.
    pub fn program_index(&self, cache_dir: Option<&Path>) -> Result<ProgramIndex, LoadError> {
        let fingerprint = self.fingerprint()?;
        let cache = match (self, cache_dir) {
            (Self::Directory(dir), Some(cache_dir)) => Some(cache_file(cache_dir, dir)),
            _ => None,
        };
        if let Some(index) = cache.as_deref().and_then(read_cache)
            && index.fingerprint == fingerprint
            && index.settled
        {
            return Ok(index);
        }
        let settled = match self {
            Self::Catalog => true,
            Self::Directory(dir) => fs::metadata(dir)
                .and_then(|metadata| metadata.modified())
                .ok()
                .and_then(|modified| modified.elapsed().ok())
                .is_some_and(|age| age > SETTLE),
        };
        let mut programs: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut keys: BTreeMap<String, String> = BTreeMap::new();
        for report in self.reports()? {
            let Some(subprocess) = report
                .declaration
                .as_ref()
                .and_then(|declaration| declaration.subprocess.as_ref())
            else {
                continue;
            };
            programs
                .entry(program_key(&subprocess.binary).to_owned())
                .or_default()
                .push(report.name.clone());
            if let Some(key) = key_word(&subprocess.argv) {
                keys.insert(report.name.clone(), key.to_owned());
            }
        }
        for names in programs.values_mut() {
            names.sort();
            names.dedup();
        }
        let index = ProgramIndex {
            fingerprint,
            settled,
            programs,
            keys,
        };
        if let Some(cache) = cache {
            // A cache that cannot be written only costs the next call time.
            let _ = write_cache(&cache, &index);
        }
        Ok(index)
    }

    /// What the index depends on: the registry directory itself (its
    /// device, inode, and modification and change times, which move
    /// whenever a file is added, removed or renamed in it, as editors,
    /// `git checkout` and `cp` do). A file rewritten in place keeps the
    /// directory's times; see the module docs for why that is safe.
    fn fingerprint(&self) -> Result<String, LoadError> {
        let mut hasher = Sha256::new();
        match self {
            Self::Catalog => hasher.update(b"catalog"),
            Self::Directory(dir) => {
                let metadata = fs::metadata(dir).map_err(|source| match source.kind() {
                    std::io::ErrorKind::NotFound => LoadError::MissingRegistry {
                        dir: dir.display().to_string(),
                    },
                    _ => LoadError::RegistryUnreadable {
                        dir: dir.display().to_string(),
                        source,
                    },
                })?;
                let nanos = |time: std::io::Result<std::time::SystemTime>| {
                    time.ok()
                        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
                        .map_or(0, |since| since.as_nanos())
                };
                hasher.update(nanos(metadata.modified()).to_le_bytes());
                #[cfg(unix)]
                {
                    use std::os::unix::fs::MetadataExt;
                    hasher.update(metadata.dev().to_le_bytes());
                    hasher.update(metadata.ino().to_le_bytes());
                    hasher.update(metadata.ctime().to_le_bytes());
                    hasher.update(metadata.ctime_nsec().to_le_bytes());
                }
            }
        }
        Ok(hex(&hasher.finalize()))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// One cache file per registry directory.
fn cache_file(cache_dir: &Path, registry: &Path) -> PathBuf {
    let absolute = std::path::absolute(registry).unwrap_or_else(|_| registry.to_path_buf());
    let digest = Sha256::digest(absolute.as_os_str().as_encoded_bytes());
    cache_dir.join(format!("programs-{}.json", &hex(&digest)[..16]))
}

fn read_cache(path: &Path) -> Option<ProgramIndex> {
    let text = read_regular_file(path, MAX_CACHE_BYTES).ok()?;
    serde_json::from_slice(&text).ok()
}

fn write_cache(path: &Path, index: &ProgramIndex) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    write_atomic(
        path,
        &serde_json::to_vec(index).map_err(std::io::Error::other)?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, binary: &str) {
        fs::write(
            dir.join(format!("{name}.yaml")),
            format!(
                "name: {name}\ndescription: Test\ndanger_level: safe\nparameters: {{}}\nsubprocess:\n  binary: {binary}\n  argv: [status]\n"
            ),
        )
        .unwrap();
    }

    #[test]
    fn programs_find_their_declarations_and_the_cache_follows_edits() {
        let registry_dir = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        write(registry_dir.path(), "git-status", "git");
        write(registry_dir.path(), "other-git", "/usr/bin/git");
        write(registry_dir.path(), "ls-here", "ls");
        let registry = Source::Directory(registry_dir.path().to_path_buf());
        let index = registry.program_index(Some(cache.path())).unwrap();
        assert_eq!(index.commands_for("git"), ["git-status", "other-git"]);
        assert_eq!(index.commands_for("ls"), ["ls-here"]);
        assert!(index.commands_for("rm").is_empty());
        assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 1);

        // A file added (or removed, or renamed) changes the directory.
        write(registry_dir.path(), "cat-file", "cat");
        let index = registry.program_index(Some(cache.path())).unwrap();
        assert_eq!(index.commands_for("cat"), ["cat-file"]);

        // Once the directory has settled, the cache is used as it is: a
        // file rewritten in place is not re-indexed (the hook loads each
        // declaration it names afresh, so this can only miss a new one).
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        fs::File::open(registry_dir.path())
            .unwrap()
            .set_modified(past)
            .unwrap();
        registry.program_index(Some(cache.path())).unwrap();
        write(registry_dir.path(), "ls-here", "exa");
        let index = registry.program_index(Some(cache.path())).unwrap();
        assert_eq!(index.commands_for("ls"), ["ls-here"]);
        assert!(index.commands_for("exa").is_empty());
        write(registry_dir.path(), "new-one", "tree");
        let index = registry.program_index(Some(cache.path())).unwrap();
        assert_eq!(index.commands_for("exa"), ["ls-here"]);

        // A corrupt cache file is rebuilt.
        let file = fs::read_dir(cache.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        fs::write(&file, "not json").unwrap();
        let index = registry.program_index(Some(cache.path())).unwrap();
        assert_eq!(index.commands_for("exa"), ["ls-here"]);
    }

    #[test]
    fn the_catalog_is_indexed() {
        let index = Source::Catalog.program_index(None).unwrap();
        assert!(
            index
                .commands_for("git")
                .iter()
                .any(|name| name == "git-status")
        );
    }
}
