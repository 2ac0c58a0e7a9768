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

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

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

/// One source's index: an entry for each declaration that runs a
/// program, sorted by program and then name, one per name.
///
/// The entries are spans of `text`, which is the cache file's text or the
/// same lines built from the declarations. Reading the cache is then one
/// pass over its lines with no allocation per name: reading it as JSON,
/// a string per name, cost a registry of a thousand declarations more
/// than judging the line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Listed {
    fingerprint: String,
    /// Built more than [`SETTLE`] after the directory last changed. A
    /// directory's times are coarse (a clock tick), so a file added in the
    /// same tick as the build would leave them alone: an index built that
    /// soon is not trusted again.
    settled: bool,
    text: String,
    entries: Vec<Entry>,
    /// The hash ([`name_hash`]) of every name with its entry, sorted, made
    /// at the first [`Part::declares`]: a lower layer's names are each
    /// looked up here, and most are not in this layer.
    name_hashes: OnceLock<Vec<(u64, u32)>>,
}

/// A declaration's program, name and key word ([`key_word`]; a line that
/// lacks it cannot match the declaration, so the hook need not read it),
/// as byte ranges of [`Listed::text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    program: Span,
    name: Span,
    key: Option<Span>,
}

type Span = (u32, u32);

impl Entry {
    /// The entry of a cache file's line `program TAB name [TAB key]`,
    /// which starts at byte `start` of the file.
    fn read(line: &str, start: usize) -> Option<Self> {
        let span = |from: usize, len: usize| -> Option<Span> {
            Some((u32::try_from(from).ok()?, u32::try_from(from + len).ok()?))
        };
        let bytes = line.as_bytes();
        let name_start = memchr::memchr(b'\t', bytes)? + 1;
        let (name_end, key) = match memchr::memchr(b'\t', &bytes[name_start..]) {
            Some(at) => {
                let key_start = name_start + at + 1;
                if memchr::memchr(b'\t', &bytes[key_start..]).is_some() {
                    return None;
                }
                (
                    key_start - 1,
                    Some(span(start + key_start, bytes.len() - key_start)?),
                )
            }
            None => (bytes.len(), None),
        };
        if name_start == 1 || name_end == name_start {
            return None;
        }
        Some(Self {
            program: span(start, name_start - 1)?,
            name: span(start + name_start, name_end - name_start)?,
            key,
        })
    }
}

/// The cache file's first line: a file of another layout is rebuilt.
const CACHE_HEADER: &str = "aigent program index 2";

impl Listed {
    /// The index of `(program, name, key word)` triples, in any order.
    fn build(
        fingerprint: String,
        settled: bool,
        mut triples: Vec<(String, String, Option<String>)>,
    ) -> Self {
        triples.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        triples.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        let mut text = String::new();
        let mut entries = Vec::with_capacity(triples.len());
        let push = |text: &mut String, field: &str| -> Span {
            let start = text.len() as u32;
            text.push_str(field);
            (start, text.len() as u32)
        };
        for (program, name, key) in &triples {
            let program = push(&mut text, program);
            text.push('\t');
            let name = push(&mut text, name);
            let key = key.as_deref().map(|key| {
                text.push('\t');
                push(&mut text, key)
            });
            text.push('\n');
            entries.push(Entry { program, name, key });
        }
        Self {
            fingerprint,
            settled,
            text,
            entries,
            name_hashes: OnceLock::new(),
        }
    }

    /// The index read from a cache file's text; `None` when it is not one.
    /// Entries out of order or repeated (a file edited by hand) are put in
    /// order, the last of an entry's repeats kept.
    fn parse(mut text: String) -> Option<Self> {
        let mut header = text.splitn(4, '\n');
        if header.next()? != CACHE_HEADER {
            return None;
        }
        let fingerprint = header.next()?.strip_prefix("fingerprint ")?.to_owned();
        let settled = match header.next()? {
            "settled yes" => true,
            "settled no" => false,
            _ => return None,
        };
        let lines = header.next()?;
        // Spans count from the first entry line: the header is dropped.
        let body = text.len() - lines.len();
        if !lines.is_empty() && !lines.ends_with('\n') {
            return None;
        }
        // A thousand short lines: memchr, not a `char` search per field.
        let mut entries = Vec::new();
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', lines.as_bytes()) {
            entries.push(Entry::read(&lines[start..end], start)?);
            start = end + 1;
        }
        text.drain(..body);
        let mut listed = Self {
            fingerprint,
            settled,
            text,
            entries,
            name_hashes: OnceLock::new(),
        };
        let in_order = listed
            .entries
            .windows(2)
            .all(|pair| listed.order_key(&pair[0]) < listed.order_key(&pair[1]));
        if !in_order {
            let mut entries = std::mem::take(&mut listed.entries);
            // Stable, so that the last of an entry's repeats stays last.
            entries.sort_by(|a, b| listed.order_key(a).cmp(&listed.order_key(b)));
            entries.reverse();
            entries.dedup_by(|a, b| listed.order_key(a) == listed.order_key(b));
            entries.reverse();
            listed.entries = entries;
        }
        Some(listed)
    }

    /// The cache file's text, or `None` when a program or name holds a
    /// tab or a line break (no real one does; such a registry is indexed
    /// afresh on each call instead of read wrongly).
    fn file_text(&self) -> Option<String> {
        let unsafe_field = |entry: &Entry| {
            [Some(entry.program), Some(entry.name), entry.key]
                .into_iter()
                .flatten()
                .any(|span| self.at(span).contains(['\t', '\n', '\r']))
        };
        if self.entries.iter().any(unsafe_field) || self.fingerprint.contains('\n') {
            return None;
        }
        let settled = if self.settled { "yes" } else { "no" };
        Some(format!(
            "{CACHE_HEADER}\nfingerprint {}\nsettled {settled}\n{}",
            self.fingerprint, self.text
        ))
    }

    fn at(&self, (start, end): Span) -> &str {
        &self.text[start as usize..end as usize]
    }

    fn order_key(&self, entry: &Entry) -> (&str, &str) {
        (self.at(entry.program), self.at(entry.name))
    }

    /// The entries of `program`.
    fn of_program(&self, program: &str) -> &[Entry] {
        let start = self
            .entries
            .partition_point(|entry| self.at(entry.program) < program);
        let len = self.entries[start..].partition_point(|entry| self.at(entry.program) == program);
        &self.entries[start..start + len]
    }
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
    /// The names this part gives `program`, each with its key word.
    fn names_of<'s: 'p, 'p>(
        &'s self,
        program: &'p str,
    ) -> Box<dyn Iterator<Item = (&'s str, Option<&'s str>)> + 'p> {
        match self {
            Self::Catalog(switch) => Box::new(
                CATALOG
                    .iter()
                    // `ends_with` first: most entries run another program,
                    // and it spares splitting each binary's path.
                    .filter(move |(_, _, binary, _)| {
                        binary.ends_with(program) && program_key(binary) == program
                    })
                    .map(|(file_name, _, _, key)| {
                        (
                            catalog_name(file_name),
                            Some(*key).filter(|key| !key.is_empty()),
                        )
                    })
                    .filter(move |(name, _)| switch.allows(name, program)),
            ),
            Self::Listed(listed) => Box::new(
                listed
                    .of_program(program)
                    .iter()
                    .map(|entry| (listed.at(entry.name), entry.key.map(|key| listed.at(key)))),
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
                    let mut hashes: Vec<(u64, u32)> = (0..)
                        .zip(&listed.entries)
                        .map(|(at, entry)| (name_hash(listed.at(entry.name)), at))
                        .collect();
                    hashes.sort_unstable();
                    hashes
                });
                let hash = name_hash(name);
                let first = hashes.partition_point(|(known, _)| *known < hash);
                hashes[first..]
                    .iter()
                    .take_while(|(known, _)| *known == hash)
                    .any(|(_, at)| listed.at(listed.entries[*at as usize].name) == name)
            }
        }
    }

    fn programs(&self) -> Vec<&str> {
        match self {
            Self::Catalog(_) => CATALOG
                .iter()
                .map(|(_, _, binary, _)| program_key(binary))
                .collect(),
            Self::Listed(listed) => listed
                .entries
                .iter()
                .map(|entry| listed.at(entry.program))
                .collect(),
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
    /// sorted, each with its key word there.
    fn owned<'s>(&'s self, program: &str) -> Vec<(&'s str, Option<&'s str>)> {
        let mut found: Vec<(&'s str, Option<&'s str>)> = Vec::new();
        for (at, part) in self.parts.iter().enumerate() {
            let above = &self.parts[at + 1..];
            found.extend(
                part.names_of(program)
                    .filter(|(name, _)| !above.iter().any(|upper| upper.declares(name))),
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
            .filter(|(_, key)| key.is_none_or(|key| words.contains(&key)))
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
            .find(|(known, _)| *known == name)
            .map(|(known, key)| (program.to_owned(), known.to_owned(), key.map(str::to_owned)));
        Self::from_listed(Listed::build(
            String::new(),
            true,
            owner.into_iter().collect(),
        ))
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
        let mut triples = Vec::new();
        for report in self.reports()? {
            let Some(subprocess) = report
                .declaration
                .as_ref()
                .and_then(|declaration| declaration.subprocess.as_ref())
            else {
                continue;
            };
            let key = key_word(&subprocess.argv).map(str::to_owned);
            triples.push((program_key(&subprocess.binary).to_owned(), report.name, key));
        }
        let index = Listed::build(fingerprint, settled, triples);
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
    cache_dir.join(format!("programs-{}.index", &hex(&digest)[..16]))
}

/// The cache file's index; `None` when it cannot be read or is not one.
fn read_cache(path: &Path) -> Option<Listed> {
    let text = read_regular_file(path, MAX_CACHE_BYTES).ok()?;
    Listed::parse(String::from_utf8(text).ok()?)
}

/// Writes the cache file, or nothing when the index cannot be written as
/// one ([`Listed::file_text`]).
fn write_cache(path: &Path, index: &Listed) -> std::io::Result<()> {
    let Some(text) = index.file_text() else {
        return Ok(());
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    write_atomic(path, text.as_bytes())
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
        let entries = "tool\ta-one\tstatus\ntool\tb-one\tstatus\n";
        assert!(text.ends_with(entries), "{text:?}");
        let reordered = text.replace(
            entries,
            "tool\tb-one\tstale\ntool\ta-one\tstatus\nother\tc-one\ntool\tb-one\tstatus\n",
        );
        fs::write(&file, reordered).unwrap();
        let listed = read_cache(&file).unwrap();
        let part = Part::Listed(listed);
        let names: Vec<_> = part.names_of("tool").collect();
        assert_eq!(
            names,
            [("a-one", Some("status")), ("b-one", Some("status"))]
        );
        assert_eq!(
            part.names_of("other").collect::<Vec<_>>(),
            [("c-one", None)]
        );
        assert!(part.declares("c-one") && part.declares("b-one") && !part.declares("d-one"));
    }

    #[test]
    fn a_cache_file_of_another_shape_is_not_read() {
        let path = tempfile::NamedTempFile::new().unwrap();
        let good = format!("{CACHE_HEADER}\nfingerprint abc\nsettled yes\ngit\tgit-log\tlog\n");
        fs::write(path.path(), &good).unwrap();
        let listed = read_cache(path.path()).unwrap();
        assert_eq!((listed.fingerprint.as_str(), listed.settled), ("abc", true));
        assert_eq!(listed.file_text().as_deref(), Some(good.as_str()));
        for bad in [
            "{\"fingerprint\":\"abc\"}".to_owned(),
            good.replace(CACHE_HEADER, "aigent program index 1"),
            good.replace("settled yes", "settled maybe"),
            good.replace("\tlog\n", "\tlog\textra\n"),
            good.replace("git\tgit-log", "\tgit-log"),
            good.trim_end().to_owned(),
            good.replace("fingerprint abc\n", ""),
        ] {
            fs::write(path.path(), &bad).unwrap();
            assert!(read_cache(path.path()).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn an_index_a_line_cannot_hold_is_not_written() {
        let listed = Listed::build(
            "abc".to_owned(),
            true,
            vec![("my\ttool".to_owned(), "x".to_owned(), None)],
        );
        assert_eq!(Part::Listed(listed.clone()).names_of("my\ttool").count(), 1);
        assert_eq!(listed.file_text(), None);
        let cache = tempfile::tempdir().unwrap();
        let path = cache.path().join("index");
        write_cache(&path, &listed).unwrap();
        assert!(!path.exists());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// What is written is read back alike, and any text is read
        /// without a panic (as an index or as none).
        #[test]
        fn a_cache_file_reads_back_what_was_written(
            triples in proptest::collection::vec(
                ("[a-z/. -]{1,8}", "[a-z0-9_-]{1,8}", proptest::option::of("[^\t\n\r]{0,6}")),
                0..20,
            ),
            noise in "(?s).{0,200}",
        ) {
            let listed = Listed::build("f".to_owned(), true, triples.clone());
            let text = listed.file_text().unwrap();
            let read = Listed::parse(text).unwrap();
            proptest::prop_assert_eq!(&read.entries.len(), &listed.entries.len());
            for (program, name, key) in &triples {
                let part = Part::Listed(read.clone());
                let found: Vec<_> = part.names_of(program).filter(|(known, _)| known == name).collect();
                proptest::prop_assert_eq!(found.len(), 1);
                // The last of a repeated (program, name) is not promised
                // by `build`; a key is whichever one was kept.
                if triples.iter().filter(|(p, n, _)| p == program && n == name).count() == 1 {
                    proptest::prop_assert_eq!(found[0].1, key.as_deref());
                }
                proptest::prop_assert!(part.declares(name));
            }
            let _ = Listed::parse(format!("{CACHE_HEADER}\nfingerprint f\nsettled no\n{noise}"));
            let _ = Listed::parse(noise);
        }
    }
}
