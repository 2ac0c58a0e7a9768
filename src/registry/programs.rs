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
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::embedded::{CATALOG, CatalogSwitch, catalog_entry, catalog_name};
use super::source::{LoadError, Source};
use crate::fsutil::{read_regular_file, write_atomic};

/// Cache files larger than this are not read (a registry of many thousands
/// of declarations stays far below it).
const MAX_CACHE_BYTES: u64 = 16 * 1024 * 1024;

/// Declaration names by the program they run (the base name of
/// `subprocess.binary`): of one source, or of a stack of layers (bottom
/// first), a later layer's name taking the place of a lower one's of the
/// same name whatever program that one ran. The layers are merged for a
/// program when it is looked up: a line names a few programs, and merging
/// every layer's lists on each call cost more than judging the line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProgramIndex {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// The built-in catalog's table (build.rs read each entry's program
    /// and key word), less what the switch turns off.
    Catalog(CatalogSwitch),
    Listed(Listed),
}

/// One source's index, as the cache file holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Listed {
    fingerprint: String,
    /// Built more than [`SETTLE`] after the directory last changed. A
    /// directory's times are coarse (a clock tick), so a file added in the
    /// same tick as the build would leave them alone: an index built that
    /// soon is not trusted again.
    #[serde(default)]
    settled: bool,
    /// Each program's names, sorted, without repeats.
    programs: BTreeMap<String, Vec<String>>,
    /// Each declaration's key word ([`key_word`]): a line that lacks it
    /// cannot match the declaration, so the hook need not read it.
    /// Sorted by name, one each: the cache file's JSON object read into a
    /// list, not a tree (inserting a thousand names into a tree was most of
    /// the cost of reading the file).
    #[serde(default, with = "sorted_pairs")]
    keys: Vec<(String, String)>,
    /// The hash ([`name_hash`]) of every name, sorted, made at the first
    /// [`Part::declares`]: a lower layer's names are each looked up here,
    /// and most are not in this layer.
    #[serde(skip)]
    name_hashes: OnceLock<Vec<u64>>,
}

/// FNV-1a: a lookup's first test, confirmed against the names.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// See [`Listed::settled`].
const SETTLE: std::time::Duration = std::time::Duration::from_secs(2);

impl Part {
    /// The names this part gives `program`.
    fn names_of<'s: 'p, 'p>(&'s self, program: &'p str) -> Box<dyn Iterator<Item = &'s str> + 'p> {
        match self {
            Self::Catalog(switch) => Box::new(
                CATALOG
                    .iter()
                    // `ends_with` first: most entries run another program,
                    // and it spares splitting each binary's path.
                    .filter(move |(_, _, binary, _)| {
                        binary.ends_with(program) && program_key(binary) == program
                    })
                    .map(|(file_name, ..)| catalog_name(file_name))
                    .filter(move |name| switch.allows(name, program)),
            ),
            Self::Listed(listed) => Box::new(
                listed
                    .programs
                    .get(program)
                    .into_iter()
                    .flatten()
                    .map(String::as_str),
            ),
        }
    }

    /// Whether this part gives `name` to some program.
    fn declares(&self, name: &str) -> bool {
        match self {
            Self::Catalog(switch) => catalog_entry(name)
                .is_some_and(|(_, _, binary, _)| switch.allows(name, program_key(binary))),
            Self::Listed(listed) => {
                let hashes = listed.name_hashes.get_or_init(|| {
                    let mut hashes: Vec<u64> = listed
                        .programs
                        .values()
                        .flatten()
                        .map(|known| name_hash(known))
                        .collect();
                    hashes.sort_unstable();
                    hashes
                });
                hashes.binary_search(&name_hash(name)).is_ok()
                    && listed.programs.values().any(|names| {
                        names
                            .binary_search_by(|known| known.as_str().cmp(name))
                            .is_ok()
                    })
            }
        }
    }

    /// The key word of this part's `name`, if it has one.
    fn key_of(&self, name: &str) -> Option<&str> {
        match self {
            Self::Catalog(_) => catalog_entry(name)
                .map(|(_, _, _, key)| *key)
                .filter(|key| !key.is_empty()),
            Self::Listed(listed) => listed
                .keys
                .binary_search_by(|(known, _)| known.as_str().cmp(name))
                .ok()
                .map(|at| listed.keys[at].1.as_str()),
        }
    }

    fn programs(&self) -> Vec<&str> {
        match self {
            Self::Catalog(_) => CATALOG
                .iter()
                .map(|(_, _, binary, _)| program_key(binary))
                .collect(),
            Self::Listed(listed) => listed.programs.keys().map(String::as_str).collect(),
        }
    }
}

impl ProgramIndex {
    /// The catalog's index, from the table build.rs wrote: no declaration
    /// is parsed to build it.
    pub(super) fn catalog(switch: CatalogSwitch) -> Self {
        Self {
            parts: vec![Part::Catalog(switch)],
        }
    }

    /// The indexes of a stack of layers, bottom first.
    pub(super) fn stacked(layers: Vec<Self>) -> Self {
        Self {
            parts: layers.into_iter().flat_map(|layer| layer.parts).collect(),
        }
    }

    fn from_listed(listed: Listed) -> Self {
        Self {
            parts: vec![Part::Listed(listed)],
        }
    }

    /// The names `program` has in the topmost part that declares each,
    /// sorted, with that part.
    fn owned<'s>(&'s self, program: &str) -> Vec<(&'s str, &'s Part)> {
        let mut found: Vec<(&'s str, &'s Part)> = Vec::new();
        for (at, part) in self.parts.iter().enumerate() {
            let above = &self.parts[at + 1..];
            found.extend(
                part.names_of(program)
                    .filter(|name| !above.iter().any(|upper| upper.declares(name)))
                    .map(|name| (name, part)),
            );
        }
        found.sort_by(|a, b| a.0.cmp(b.0));
        found.dedup_by(|a, b| a.0 == b.0);
        found
    }

    /// The commands whose program has base name `program`, sorted.
    pub fn commands_for(&self, program: &str) -> Vec<&str> {
        self.owned(program)
            .into_iter()
            .map(|(name, _)| name)
            .collect()
    }

    /// The commands of `program` a line of these `words` could match: those
    /// whose key word is among them, or that have none.
    pub fn commands_for_words(&self, program: &str, words: &[&str]) -> Vec<&str> {
        self.owned(program)
            .into_iter()
            .filter(|(name, part)| part.key_of(name).is_none_or(|key| words.contains(&key)))
            .map(|(name, _)| name)
            .collect()
    }

    /// How many programs the index knows.
    pub fn len(&self) -> usize {
        let programs: std::collections::BTreeSet<&str> =
            self.parts.iter().flat_map(Part::programs).collect();
        programs
            .into_iter()
            .filter(|program| !self.owned(program).is_empty())
            .count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This index with `program` naming only `name` (when it names it at
    /// all) and no other program: a line judged against one declaration.
    pub fn only(&self, program: &str, name: &str) -> Self {
        let owner = self
            .owned(program)
            .into_iter()
            .find(|(known, _)| *known == name);
        let names = owner.iter().map(|(known, _)| (*known).to_owned()).collect();
        let keys = owner
            .and_then(|(known, part)| Some((known.to_owned(), part.key_of(known)?.to_owned())))
            .into_iter()
            .collect();
        Self::from_listed(Listed {
            fingerprint: String::new(),
            settled: true,
            programs: BTreeMap::from([(program.to_owned(), names)]),
            keys,
            name_hashes: OnceLock::new(),
        })
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
        self.listed(cache_dir).map(ProgramIndex::from_listed)
    }

    fn listed(&self, cache_dir: Option<&Path>) -> Result<Listed, LoadError> {
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
        let index = Listed {
            fingerprint,
            settled,
            programs,
            keys: keys.into_iter().collect(),
            name_hashes: OnceLock::new(),
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

/// The cache file's index, its lists sorted and without repeats whatever
/// the file holds (lookups search them by halves).
fn read_cache(path: &Path) -> Option<Listed> {
    let text = read_regular_file(path, MAX_CACHE_BYTES).ok()?;
    let mut listed: Listed = serde_json::from_slice(&text).ok()?;
    for names in listed.programs.values_mut() {
        names.sort_unstable();
        names.dedup();
    }
    Some(listed)
}

fn write_cache(path: &Path, index: &Listed) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    write_atomic(
        path,
        &serde_json::to_vec(index).map_err(std::io::Error::other)?,
    )
}

/// A JSON object of strings as a list of pairs sorted by key, one per key
/// (a repeated key's last value, as a map reads it).
mod sorted_pairs {
    use serde::de::{MapAccess, Visitor};
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        pairs: &[(String, String)],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_map(pairs.iter().map(|(key, value)| (key, value)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<(String, String)>, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Vec<(String, String)>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs: Vec<(String, String)> =
                    Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                if !pairs.is_sorted_by(|a, b| a.0 < b.0) {
                    let map: std::collections::BTreeMap<String, String> =
                        pairs.into_iter().collect();
                    pairs = map.into_iter().collect();
                }
                Ok(pairs)
            }
        }
        deserializer.deserialize_map(Pairs)
    }
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
        assert!(index.commands_for("git").contains(&"git-status"));
    }

    #[test]
    fn a_later_layer_takes_the_name_and_its_key_word() {
        let registry_dir = tempfile::tempdir().unwrap();
        // `git-log` runs another program here, under another key word.
        write(registry_dir.path(), "git-log", "/opt/bin/mygit");
        write(registry_dir.path(), "extra", "git");
        let directory = Source::Directory(registry_dir.path().to_path_buf())
            .program_index(None)
            .unwrap();
        let stack = ProgramIndex::stacked(vec![
            ProgramIndex::catalog(CatalogSwitch::default()),
            directory,
        ]);
        let git = stack.commands_for("git");
        assert!(git.contains(&"git-status") && git.contains(&"extra"));
        assert!(!git.contains(&"git-log"), "shadowed: {git:?}");
        assert!(git.is_sorted());
        assert_eq!(stack.commands_for("mygit"), ["git-log"]);
        assert_eq!(
            stack.commands_for_words("mygit", &["log"]),
            Vec::<&str>::new()
        );
        assert_eq!(stack.commands_for_words("mygit", &["status"]), ["git-log"]);
        let catalog_only = ProgramIndex::catalog(CatalogSwitch::default());
        assert!(
            catalog_only
                .commands_for_words("git", &["log"])
                .contains(&"git-log")
        );
        assert!(
            !catalog_only
                .commands_for_words("git", &["diff"])
                .contains(&"git-log")
        );

        let switched = ProgramIndex::catalog(CatalogSwitch {
            off: false,
            disabled: vec!["git".to_owned(), "ls".to_owned()],
        });
        assert!(switched.commands_for("git").is_empty());
        assert!(!switched.commands_for("cargo").is_empty());
        assert!(
            ProgramIndex::catalog(CatalogSwitch {
                off: true,
                disabled: vec![]
            })
            .is_empty()
        );

        let only = stack.only("git", "extra");
        assert_eq!(only.commands_for("git"), ["extra"]);
        assert_eq!(
            only.commands_for_words("git", &["nothing"]),
            Vec::<&str>::new()
        );
        assert!(stack.only("git", "git-log").commands_for("git").is_empty());
    }

    #[test]
    fn a_cache_file_out_of_order_is_read_in_order() {
        let registry_dir = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        write(registry_dir.path(), "b-one", "tool");
        write(registry_dir.path(), "a-one", "tool");
        let registry = Source::Directory(registry_dir.path().to_path_buf());
        registry.program_index(Some(cache.path())).unwrap();
        let file = fs::read_dir(cache.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let text = fs::read_to_string(&file).unwrap();
        let reordered = text.replace(r#"["a-one","b-one"]"#, r#"["b-one","a-one","b-one"]"#);
        let reordered = reordered.replace(
            r#"{"a-one":"status","b-one":"status"}"#,
            r#"{"b-one":"stale","a-one":"status","b-one":"status"}"#,
        );
        assert!(reordered.contains("stale") && reordered.contains(r#"["b-one","a-one","b-one"]"#));
        fs::write(&file, reordered).unwrap();
        let listed = read_cache(&file).unwrap();
        assert_eq!(listed.programs["tool"], ["a-one", "b-one"]);
        let status = "status".to_owned();
        assert_eq!(
            listed.keys,
            [
                ("a-one".to_owned(), status.clone()),
                ("b-one".to_owned(), status)
            ]
        );
        assert_eq!(Part::Listed(listed).key_of("b-one"), Some("status"));
    }
}
