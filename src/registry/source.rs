//! One source of declarations: the catalog compiled into the binary, or a
//! directory of declaration files, one command each (`NAME.json`,
//! `NAME.yaml` or `NAME.yml`). A [`super::Registry`] is one source or a
//! stack of them (`super::layers`); both load through this.
//!
//! Looking up one command opens `DIR/NAME.{json,yaml,yml}` directly and
//! parses only that file, so a registry of a thousand declarations answers
//! as fast as one of ten, and a broken declaration breaks only itself.
//! Listing and linting read everything.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::check::parse_declaration;
use super::embedded::{CATALOG, catalog_entry};
use crate::contract::value::MAX_DOCUMENT_BYTES;
use crate::contract::{Declaration, Origin, SourceFormat, closest, codes, command_name_problem};
use crate::report::Diagnostic;

/// One place declarations are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Directory(PathBuf),
    /// The catalog compiled into the binary (`catalog/`).
    Catalog,
}

/// Which layer of a stacked registry (`super::layers`) a source is, and
/// so where a declaration comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LayerKind {
    Catalog,
    User,
    Project,
    /// `--commands DIR` / `AIGENT_COMMANDS`.
    Commands,
}

impl LayerKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Catalog => "catalog",
            Self::User => "user",
            Self::Project => "project",
            Self::Commands => "commands",
        }
    }
}

/// A command that loaded: its declaration, where it came from, and the
/// lint's warnings (errors would have refused it).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub declaration: Declaration,
    pub file: String,
    /// The layer it comes from, in a layered registry.
    pub layer: Option<LayerKind>,
    pub warnings: Vec<Diagnostic>,
}

/// One declaration file as `schema list` and `schema lint` see it.
#[derive(Debug, Clone)]
pub struct FileReport {
    /// The command name from the file name.
    pub name: String,
    pub file: String,
    /// The layer it comes from, in a layered registry.
    pub layer: Option<LayerKind>,
    /// Present when the file has no errors.
    pub declaration: Option<Declaration>,
    pub diagnostics: Vec<Diagnostic>,
}

impl FileReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// A declaration file found in the registry, not yet read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryEntry {
    pub name: String,
    pub file_name: String,
    pub format: SourceFormat,
    /// Which layer holds it (its index in the stack), in a layered
    /// registry; 0 otherwise.
    pub layer: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("no command named `{name}` in {registry}")]
    NotFound {
        name: String,
        registry: String,
        closest: Option<String>,
    },
    #[error("no command named `{name}`: {problem}")]
    InvalidName { name: String, problem: String },
    #[error("`{name}` is declared more than once: {}", files.join(", "))]
    Duplicate { name: String, files: Vec<String> },
    #[error("the declaration of `{name}` in {file} is invalid")]
    Invalid {
        name: String,
        file: String,
        diagnostics: Vec<Diagnostic>,
    },
    #[error("cannot read {file}: {source}")]
    Unreadable { file: String, source: io::Error },
    #[error("the registry {dir} does not exist or is not a directory")]
    MissingRegistry { dir: String },
    #[error("cannot read the registry {dir}: {source}")]
    RegistryUnreadable { dir: String, source: io::Error },
}

impl Source {
    /// How to name this source in messages.
    pub fn describe(&self) -> String {
        match self {
            Self::Directory(dir) => dir.display().to_string(),
            Self::Catalog => "the built-in catalog".to_owned(),
        }
    }

    fn file_label(&self, file_name: &str) -> String {
        match self {
            Self::Directory(dir) => dir.join(file_name).display().to_string(),
            Self::Catalog => format!("catalog/{file_name}"),
        }
    }

    /// Loads one command, reading only its own file.
    pub fn load(&self, name: &str) -> Result<Loaded, LoadError> {
        self.find(name)?.ok_or_else(|| LoadError::NotFound {
            name: name.to_owned(),
            registry: self.describe(),
            closest: self.closest_name(name),
        })
    }

    /// [`Source::load`], with `None` where this source does not declare
    /// `name`: a layer of a stack passes the name on to the one below, and
    /// finding the closest name would read the whole directory for nothing.
    pub fn find(&self, name: &str) -> Result<Option<Loaded>, LoadError> {
        if let Some(problem) = command_name_problem(name) {
            return Err(LoadError::InvalidName {
                name: name.to_owned(),
                problem,
            });
        }
        let candidates: Vec<(String, SourceFormat)> = match self {
            Self::Catalog => catalog_entry(name)
                .map(|(file_name, ..)| ((*file_name).to_owned(), SourceFormat::Json))
                .into_iter()
                .collect(),
            Self::Directory(dir) => {
                self.require_directory(dir)?;
                let mut found = Vec::new();
                for (extension, format) in SourceFormat::EXTENSIONS {
                    let file_name = format!("{name}.{extension}");
                    match fs::metadata(dir.join(&file_name)) {
                        Ok(_) => found.push((file_name, *format)),
                        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                        Err(source) => {
                            return Err(LoadError::Unreadable {
                                file: self.file_label(&file_name),
                                source,
                            });
                        }
                    }
                }
                found
            }
        };
        match candidates.as_slice() {
            [] => Ok(None),
            [(file_name, format)] => self.load_file(name, file_name, *format).map(Some),
            several => Err(LoadError::Duplicate {
                name: name.to_owned(),
                files: several
                    .iter()
                    .map(|(file_name, _)| self.file_label(file_name))
                    .collect(),
            }),
        }
    }

    pub(super) fn load_file(
        &self,
        name: &str,
        file_name: &str,
        format: SourceFormat,
    ) -> Result<Loaded, LoadError> {
        if let Self::Catalog = self {
            return catalog_loaded(file_name, || self.read_and_load(name, file_name, format));
        }
        self.read_and_load(name, file_name, format)
    }

    fn read_and_load(
        &self,
        name: &str,
        file_name: &str,
        format: SourceFormat,
    ) -> Result<Loaded, LoadError> {
        let file = self.file_label(file_name);
        let text = self
            .read(file_name)
            .map_err(|source| LoadError::Unreadable {
                file: file.clone(),
                source,
            })?;
        self.load_text(name, file_name, format, text)
    }

    /// [`Source::load_file`] once the file is read: `text` is its text,
    /// or the finding that it has none (too large, not UTF-8).
    fn load_text(
        &self,
        name: &str,
        file_name: &str,
        format: SourceFormat,
        text: Result<String, Diagnostic>,
    ) -> Result<Loaded, LoadError> {
        let file = self.file_label(file_name);
        let path = self.path_of(file_name);
        let origin = Origin {
            file_stem: Some(name),
            file: path.as_deref(),
        };
        let parsed = match text {
            Ok(text) if matches!(self, Self::Catalog) && format == SourceFormat::Json => {
                super::check::parse_catalog_declaration(&text, &origin)
            }
            Ok(text) => parse_declaration(&text, format, &origin),
            Err(problem) => {
                return Err(LoadError::Invalid {
                    name: name.to_owned(),
                    file,
                    diagnostics: vec![problem],
                });
            }
        };
        match parsed.declaration {
            Some(declaration) if !parsed.diagnostics.iter().any(Diagnostic::is_error) => {
                Ok(Loaded {
                    declaration,
                    file,
                    layer: None,
                    warnings: parsed.diagnostics,
                })
            }
            _ => Err(LoadError::Invalid {
                name: name.to_owned(),
                file,
                diagnostics: parsed.diagnostics,
            }),
        }
    }

    fn path_of(&self, file_name: &str) -> Option<PathBuf> {
        match self {
            Self::Directory(dir) => Some(dir.join(file_name)),
            Self::Catalog => None,
        }
    }

    /// The text of a declaration file; the inner `Err` is a finding about
    /// the file (too large, not UTF-8, not a regular file), the outer one an
    /// I/O failure.
    fn read(&self, file_name: &str) -> io::Result<Result<String, Diagnostic>> {
        let dir = match self {
            Self::Catalog => {
                let text = file_name
                    .strip_suffix(".json")
                    .and_then(catalog_entry)
                    .map(|(_, text, ..)| (*text).to_owned())
                    .unwrap_or_default();
                return Ok(Ok(text));
            }
            Self::Directory(dir) => dir,
        };
        let path = dir.join(file_name);
        // Following a symlink is fine; a FIFO or a device would block or
        // never end, so only regular files are read, checked on the opened
        // handle (a check before the open could be raced).
        let limit = u64::try_from(MAX_DOCUMENT_BYTES).unwrap_or(u64::MAX);
        let bytes = match crate::fsutil::read_regular_file(&path, limit) {
            Ok(bytes) => bytes,
            Err(crate::fsutil::ReadError::Io(err)) => return Err(err),
            Err(crate::fsutil::ReadError::NotRegular) => {
                return Ok(Err(Diagnostic::new(
                    codes::Code::FileUnreadable,
                    "not a regular file",
                )));
            }
            Err(crate::fsutil::ReadError::TooLarge(_)) => return Ok(Err(too_large())),
        };
        if bytes.len() > MAX_DOCUMENT_BYTES {
            return Ok(Err(too_large()));
        }
        Ok(String::from_utf8(bytes).map_err(|err| {
            Diagnostic::new(
                codes::Code::FileUnreadable,
                format!(
                    "the file is not UTF-8 (invalid byte at offset {})",
                    err.utf8_error().valid_up_to()
                ),
            )
        }))
    }

    fn require_directory(&self, dir: &Path) -> Result<(), LoadError> {
        match fs::metadata(dir) {
            Ok(metadata) if metadata.is_dir() => Ok(()),
            Ok(_) => Err(LoadError::MissingRegistry {
                dir: dir.display().to_string(),
            }),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Err(LoadError::MissingRegistry {
                dir: dir.display().to_string(),
            }),
            Err(source) => Err(LoadError::RegistryUnreadable {
                dir: dir.display().to_string(),
                source,
            }),
        }
    }

    /// Every declaration file, sorted by command name then file name, with
    /// no file read. Files whose name is not a valid command name are
    /// included (the lint reports them); dotfiles and other extensions are
    /// not declarations and are skipped.
    pub fn entries(&self) -> Result<Vec<RegistryEntry>, LoadError> {
        let mut entries: Vec<RegistryEntry> = match self {
            Self::Catalog => CATALOG
                .iter()
                .filter_map(|(file_name, ..)| split_file_name(file_name))
                .map(|(name, file_name, format)| RegistryEntry {
                    name: name.to_owned(),
                    file_name: file_name.to_owned(),
                    format,
                    layer: 0,
                })
                .collect(),
            Self::Directory(dir) => {
                self.require_directory(dir)?;
                let unreadable = |source| LoadError::RegistryUnreadable {
                    dir: dir.display().to_string(),
                    source,
                };
                let mut entries = Vec::new();
                for entry in fs::read_dir(dir).map_err(unreadable)? {
                    let entry = entry.map_err(unreadable)?;
                    let Ok(file_name) = entry.file_name().into_string() else {
                        continue;
                    };
                    if let Some((name, file_name, format)) = split_file_name(&file_name) {
                        entries.push(RegistryEntry {
                            name: name.to_owned(),
                            file_name: file_name.to_owned(),
                            format,
                            layer: 0,
                        });
                    }
                }
                entries
            }
        };
        entries.sort_by(|a, b| (&a.name, &a.file_name).cmp(&(&b.name, &b.file_name)));
        Ok(entries)
    }

    /// Reads and lints every declaration: what `schema list` and `schema
    /// lint` report. One broken file never hides the others.
    pub fn reports(&self) -> Result<Vec<FileReport>, LoadError> {
        self.reports_where(|_| true)
    }

    /// As [`Source::reports`], for the command names `keep` accepts;
    /// duplicates are still found against every file in the registry.
    pub fn reports_where(&self, keep: impl Fn(&str) -> bool) -> Result<Vec<FileReport>, LoadError> {
        let entries = self.entries()?;
        let mut reports = Vec::with_capacity(entries.len());
        for entry in &entries {
            if !keep(&entry.name) {
                continue;
            }
            // A file whose name is no command name is not read.
            let loaded = match command_name_problem(&entry.name) {
                None => self.load_file(&entry.name, &entry.file_name, entry.format),
                Some(problem) => Err(LoadError::InvalidName {
                    name: entry.name.clone(),
                    problem,
                }),
            };
            reports.push(self.file_report(entry, &entries, loaded));
        }
        Ok(reports)
    }

    /// `schema lint`'s report of the declaration file `file_name` in this
    /// source, its text given rather than read: an editor's unsaved
    /// buffer. The same findings as the lint of the file on disk, twins
    /// (the same name in another format) found against the source as it
    /// is. `None` when `file_name` is no declaration file name.
    pub fn report_text(&self, file_name: &str, text: &str) -> Option<FileReport> {
        let (name, file_name, format) = split_file_name(file_name)?;
        let entry = RegistryEntry {
            name: name.to_owned(),
            file_name: file_name.to_owned(),
            format,
            layer: 0,
        };
        let mut entries = self.entries().unwrap_or_default();
        if !entries.contains(&entry) {
            // A file not saved yet is in the registry all the same.
            entries.push(entry.clone());
        }
        let text = if text.len() > MAX_DOCUMENT_BYTES {
            Err(too_large())
        } else {
            Ok(text.to_owned())
        };
        let loaded = self.load_text(name, file_name, format, text);
        Some(self.file_report(&entry, &entries, loaded))
    }

    /// One entry's report from how it loaded, with its name checked and
    /// its twins among `entries` reported.
    pub(super) fn file_report(
        &self,
        entry: &RegistryEntry,
        entries: &[RegistryEntry],
        loaded: Result<Loaded, LoadError>,
    ) -> FileReport {
        let file = self.file_label(&entry.file_name);
        let twins: Vec<String> = entries
            .iter()
            .filter(|candidate| {
                candidate.name == entry.name && candidate.file_name != entry.file_name
            })
            .map(|candidate| self.file_label(&candidate.file_name))
            .collect();
        let mut report = match command_name_problem(&entry.name) {
            Some(problem) => FileReport {
                name: entry.name.clone(),
                file: file.clone(),
                layer: None,
                declaration: None,
                diagnostics: vec![Diagnostic::new(
                    codes::Code::NameInvalid,
                    format!("the file name does not give a valid command name: {problem}"),
                )],
            },
            None => match loaded {
                Ok(loaded) => FileReport {
                    name: entry.name.clone(),
                    file: loaded.file,
                    layer: None,
                    declaration: Some(loaded.declaration),
                    diagnostics: loaded.warnings,
                },
                Err(LoadError::Invalid { diagnostics, .. }) => FileReport {
                    name: entry.name.clone(),
                    file: file.clone(),
                    layer: None,
                    declaration: None,
                    diagnostics,
                },
                Err(err) => FileReport {
                    name: entry.name.clone(),
                    file: file.clone(),
                    layer: None,
                    declaration: None,
                    diagnostics: vec![Diagnostic::new(
                        codes::Code::FileUnreadable,
                        err.to_string(),
                    )],
                },
            },
        };
        if !twins.is_empty() {
            report.declaration = None;
            report.diagnostics.insert(
                0,
                Diagnostic::new(
                    codes::Code::DuplicateName,
                    format!("`{}` is also declared in {}", entry.name, twins.join(", ")),
                )
                .with_field("name"),
            );
        }
        report
    }

    fn closest_name(&self, name: &str) -> Option<String> {
        let entries = self.entries().ok()?;
        closest(name, entries.iter().map(|entry| entry.name.as_str())).map(str::to_owned)
    }
}

/// A catalog declaration, parsed and linted at most twice per process: its
/// text is compiled in, so every later parse would repeat the first. It is
/// kept from the second time it is asked for: a hook call asks for each
/// once (and copying it into the cache cost a third of reading it), while
/// the MCP server and a caller that judges many lines (the catalog's tests
/// judge a thousand) ask for the same ones again and again. Only
/// successful loads are kept: a catalog entry that fails is a bug its
/// tests report.
fn catalog_loaded(
    file_name: &str,
    load: impl FnOnce() -> Result<Loaded, LoadError>,
) -> Result<Loaded, LoadError> {
    use std::collections::{HashMap, HashSet};
    use std::sync::{Mutex, OnceLock, PoisonError};
    /// The entries asked for, and those asked for again with their copy.
    #[derive(Default)]
    struct Cache {
        asked: HashSet<String>,
        loaded: HashMap<String, Loaded>,
    }
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    let again = {
        let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(loaded) = cache.loaded.get(file_name) {
            return Ok(loaded.clone());
        }
        !cache.asked.insert(file_name.to_owned())
    };
    let loaded = load()?;
    if again {
        cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .loaded
            .insert(file_name.to_owned(), loaded.clone());
    }
    Ok(loaded)
}

/// The finding on a declaration file over the size limit.
pub fn too_large() -> Diagnostic {
    Diagnostic::new(codes::Code::FileUnreadable, "the file is larger than 1 MiB")
}

/// `deploy.json` → (`deploy`, `deploy.json`, JSON); `None` for dotfiles and
/// other extensions.
pub(super) fn split_file_name(file_name: &str) -> Option<(&str, &str, SourceFormat)> {
    if file_name.starts_with('.') {
        return None;
    }
    let (stem, extension) = file_name.rsplit_once('.')?;
    let format = SourceFormat::from_extension(extension)?;
    Some((stem, file_name, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn examples() -> Source {
        Source::Directory(Path::new(env!("CARGO_MANIFEST_DIR")).join("commands"))
    }

    #[test]
    fn every_catalog_declaration_and_example_loads_cleanly() {
        for registry in [Source::Catalog, examples()] {
            let reports = registry.reports().unwrap();
            assert!(!reports.is_empty());
            for report in &reports {
                assert!(
                    report.diagnostics.is_empty(),
                    "{}: {:?}",
                    report.file,
                    report.diagnostics
                );
                assert!(registry.load(&report.name).is_ok());
            }
        }
    }

    #[test]
    fn hostile_and_unknown_names() {
        let registry = examples();
        assert!(matches!(
            registry.load("../deploy"),
            Err(LoadError::InvalidName { .. })
        ));
        match registry.load("deplyo") {
            Err(LoadError::NotFound { closest, .. }) => {
                assert_eq!(closest.as_deref(), Some("deploy"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn file_names_split() {
        assert_eq!(
            split_file_name("a.yml"),
            Some(("a", "a.yml", SourceFormat::Yaml))
        );
        assert_eq!(split_file_name(".a.json"), None);
        assert_eq!(split_file_name("README.md"), None);
        assert_eq!(
            split_file_name("a.b.json"),
            Some(("a.b", "a.b.json", SourceFormat::Json))
        );
    }
}
