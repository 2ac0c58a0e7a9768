//! Declarations loaded for `tools/call`, kept between calls.
//!
//! Loading a declaration (read, YAML, the lint with its search of `PATH`
//! for disguised interpreters) was a third of the server's CPU time per
//! call. A loaded declaration is reused while two things hold:
//!
//! - its file is the same: the same set of `NAME.json|yaml|yml` files
//!   exists, each with the same device, inode, size, modification and
//!   change times (one `stat` each, as [`Registry::load`] does anyway), so
//!   an edit, a replacement or a second file applies to the next call;
//! - it was loaded less than `fresh_for` ago (the server's poll interval,
//!   1 s by default): the lint also reads the machine (what a declared
//!   binary resolves to on `PATH`), and that is read again at least this
//!   often, as `tools/list` is.
//!
//! Only successful loads are kept; a name is looked up here only after
//! [`Registry::load`] accepted it once, so no unchecked name is ever
//! joined to the registry's path.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::contract::SourceFormat;
use crate::registry::{LoadError, Loaded, Registry};

/// At most this many declarations are kept; past it the cache starts over.
const CAPACITY: usize = 4096;

/// What identifies a file's content without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

#[derive(Debug)]
struct Entry {
    files: Vec<(&'static str, Stamp)>,
    loaded_at: Instant,
    loaded: Loaded,
}

/// Loads declarations from a registry, reusing those whose files have not
/// changed (see the module's comment).
#[derive(Debug)]
pub struct DeclarationCache {
    fresh_for: Duration,
    entries: Mutex<HashMap<String, Entry>>,
}

impl DeclarationCache {
    pub fn new(fresh_for: Duration) -> Self {
        Self {
            fresh_for,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// [`Registry::load`], or the same answer from the last load of an
    /// unchanged file.
    pub fn load(&self, registry: &Registry, name: &str) -> Result<Loaded, LoadError> {
        let Registry::Directory(dir) = registry else {
            return registry.load(name);
        };
        if let Some(loaded) = self.cached(registry, name) {
            return Ok(loaded);
        }
        // Stamped before reading: a change during the load makes the next
        // call's stamps differ, so it loads again.
        let before = stamps(dir, name);
        let loaded = registry.load(name)?;
        let mut entries = self.lock();
        match before {
            Some(files) if !files.is_empty() => {
                if entries.len() >= CAPACITY && !entries.contains_key(name) {
                    entries.clear();
                }
                entries.insert(
                    name.to_owned(),
                    Entry {
                        files,
                        loaded_at: Instant::now(),
                        loaded: loaded.clone(),
                    },
                );
            }
            _ => {
                entries.remove(name);
            }
        }
        Ok(loaded)
    }

    /// The last load's answer for `name`, while it is fresh and its files
    /// are unchanged: a few `stat`s, nothing read or parsed. `None` when
    /// [`Self::load`] has to load it.
    pub fn cached(&self, registry: &Registry, name: &str) -> Option<Loaded> {
        let Registry::Directory(dir) = registry else {
            return None;
        };
        let entries = self.lock();
        // Looked up before anything is joined to the path: only a name
        // that loaded once reaches `stamps`.
        let entry = entries.get(name)?;
        (entry.loaded_at.elapsed() < self.fresh_for
            && stamps(dir, name).is_some_and(|files| files == entry.files))
        .then(|| entry.loaded.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The stamp of each `NAME.EXT` file that exists; `None` when one cannot
/// be read (then nothing is reused).
#[cfg(unix)]
fn stamps(dir: &Path, name: &str) -> Option<Vec<(&'static str, Stamp)>> {
    use std::os::unix::fs::MetadataExt;
    let mut files = Vec::new();
    for (extension, _) in SourceFormat::EXTENSIONS {
        match std::fs::metadata(dir.join(format!("{name}.{extension}"))) {
            Ok(meta) => files.push((
                *extension,
                Stamp {
                    dev: meta.dev(),
                    ino: meta.ino(),
                    size: meta.size(),
                    mtime: (meta.mtime(), meta.mtime_nsec()),
                    ctime: (meta.ctime(), meta.ctime_nsec()),
                },
            )),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => return None,
        }
    }
    Some(files)
}

/// Without Unix file identities nothing is reused.
#[cfg(not(unix))]
fn stamps(_dir: &Path, _name: &str) -> Option<Vec<(&'static str, Stamp)>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declaration(binary: &str) -> String {
        format!(
            "name: noop\ndescription: Does nothing\ndanger_level: safe\nparameters: {{}}\nsubprocess: {{binary: {binary}, hardcoded_args: [], user_controlled_args: []}}\n"
        )
    }

    fn binary_of(loaded: &Loaded) -> String {
        serde_json::to_value(&loaded.declaration).unwrap()["subprocess"]["binary"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn an_unchanged_file_is_reused_and_an_edit_applies_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Registry::Directory(dir.path().to_path_buf());
        let cache = DeclarationCache::new(Duration::from_secs(3600));
        std::fs::write(dir.path().join("noop.yaml"), declaration("/bin/true")).unwrap();
        assert_eq!(
            binary_of(&cache.load(&registry, "noop").unwrap()),
            "/bin/true"
        );
        assert_eq!(cache.lock().len(), 1);
        assert_eq!(
            binary_of(&cache.load(&registry, "noop").unwrap()),
            "/bin/true"
        );
        // Same size, new content: the change time moves (or the inode, for
        // a replacement), so it is read again.
        std::fs::write(dir.path().join("noop.yaml.new"), declaration("/bin/echo")).unwrap();
        std::fs::rename(
            dir.path().join("noop.yaml.new"),
            dir.path().join("noop.yaml"),
        )
        .unwrap();
        assert_eq!(
            binary_of(&cache.load(&registry, "noop").unwrap()),
            "/bin/echo"
        );
    }

    #[test]
    fn a_second_file_or_a_removed_one_is_seen() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Registry::Directory(dir.path().to_path_buf());
        let cache = DeclarationCache::new(Duration::from_secs(3600));
        std::fs::write(dir.path().join("noop.yaml"), declaration("/bin/true")).unwrap();
        cache.load(&registry, "noop").unwrap();
        std::fs::write(dir.path().join("noop.yml"), declaration("/bin/true")).unwrap();
        assert!(matches!(
            cache.load(&registry, "noop"),
            Err(LoadError::Duplicate { .. })
        ));
        std::fs::remove_file(dir.path().join("noop.yml")).unwrap();
        std::fs::remove_file(dir.path().join("noop.yaml")).unwrap();
        assert!(matches!(
            cache.load(&registry, "noop"),
            Err(LoadError::NotFound { .. })
        ));
    }

    #[test]
    fn an_entry_older_than_its_freshness_is_loaded_again() {
        let dir = tempfile::tempdir().unwrap();
        let registry = Registry::Directory(dir.path().to_path_buf());
        let cache = DeclarationCache::new(Duration::ZERO);
        std::fs::write(dir.path().join("noop.yaml"), declaration("/bin/true")).unwrap();
        cache.load(&registry, "noop").unwrap();
        let first = cache.lock()["noop"].loaded_at;
        cache.load(&registry, "noop").unwrap();
        assert!(cache.lock()["noop"].loaded_at > first);
    }
}
