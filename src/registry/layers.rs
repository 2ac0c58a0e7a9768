//! The registry as layers (DESIGN.md §12), the later winning:
//!
//! 1. the built-in catalog (`catalog/`, compiled in);
//! 2. the user's registry, `$XDG_CONFIG_HOME/aigent/commands` (else
//!    `~/.config/aigent/commands`), when it exists;
//! 3. the project's: the first `commands/` holding an `aigent.toml`, from
//!    the working directory up to the repository's root;
//! 4. the directory `--commands` (or `AIGENT_COMMANDS`) names.
//!
//! A declaration of a later layer takes the place of one of the same name
//! below it. A layer's `aigent.toml` can switch catalog entries off (`[hook]
//! catalog = false`, or `disable = [NAME or PROGRAM, ...]`); the settings of
//! all layers merge, a later layer's keys winning.
//!
//! **Trust.** A project's registry is a policy the project hands its agent,
//! and an agent that can write files could write its own. So the hook reads
//! the project layer only once a person has trusted its exact content
//! (`aigent hook trust`, or `hook install` in the project), as direnv does
//! with `.envrc`; any change to it needs trusting again. Other commands,
//! run by a person, read it as it is. See [`Layers::trusted_only`].

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::embedded::{CatalogSwitch, catalog_entry};
use super::programs::{ProgramIndex, program_key};
use super::settings::{SETTINGS_FILE, Settings, SettingsError};
pub use super::source::LayerKind;
use super::source::{FileReport, LoadError, Loaded, RegistryEntry, Source, split_file_name};
use crate::contract::{SourceFormat, closest};
use crate::fsutil::{read_regular_file, write_atomic};

/// One layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    pub kind: LayerKind,
    pub source: Source,
    /// A person trusted this layer's content (always, but for a project
    /// layer whose content no one trusted).
    pub trusted: bool,
}

impl Layer {
    /// The layer's directory, for the ones that are one.
    pub fn directory(&self) -> Option<&Path> {
        match &self.source {
            Source::Directory(dir) => Some(dir),
            Source::Catalog => None,
        }
    }
}

/// Where [`Layers::discover`] looks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// `--commands DIR` / `AIGENT_COMMANDS`.
    pub given: Option<PathBuf>,
    /// Where the project's registry is looked for, upwards.
    pub cwd: Option<PathBuf>,
    /// The user's registry.
    pub user: Option<PathBuf>,
    /// The record of trusted project registries.
    pub trust_file: Option<PathBuf>,
}

impl Discovery {
    /// The process's own: its working directory and environment.
    pub fn for_process(given: Option<PathBuf>) -> Self {
        Self::from_lookup(given, std::env::current_dir().ok(), |name| {
            std::env::var_os(name)
        })
    }

    /// From a working directory and an environment (`lookup`), so that
    /// tests and the hook (whose agent has its own directory) need not use
    /// the process's.
    pub fn from_lookup(
        given: Option<PathBuf>,
        cwd: Option<PathBuf>,
        lookup: impl Fn(&str) -> Option<OsString>,
    ) -> Self {
        let absolute = |name: &str| {
            lookup(name)
                .filter(|value| !value.is_empty())
                .map(PathBuf::from)
                .filter(|path| path.is_absolute())
        };
        let home = absolute("HOME");
        let user = absolute("XDG_CONFIG_HOME")
            .or_else(|| home.as_ref().map(|home| home.join(".config")))
            .map(|config| config.join("aigent").join("commands"));
        let trust_file = absolute("XDG_STATE_HOME")
            .or_else(|| home.as_ref().map(|home| home.join(".local/state")))
            .map(|state| state.join("aigent").join(TRUST_FILE));
        Self {
            given,
            cwd,
            user,
            trust_file,
        }
    }
}

/// The trust record's file name, under the state directory.
const TRUST_FILE: &str = "trusted-registries.json";

/// The most files of a project registry the trust fingerprint reads; a
/// larger one is never trusted.
const MAX_TRUSTED_FILES: usize = 10_000;

/// The layers of one registry, bottom first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layers {
    layers: Vec<Layer>,
    /// Only trusted layers are read; the others are still known, to
    /// tell what they would have changed.
    trusted_only: bool,
    /// Catalog entries the layers' settings switch off.
    catalog: CatalogSwitch,
    /// Where these layers were found, to find them again from another
    /// directory.
    discovery: Discovery,
}

impl Layers {
    /// [`Layers::discover`] for this process.
    pub fn for_process(given: Option<PathBuf>) -> Self {
        Self::discover(&Discovery::for_process(given))
    }

    /// The layers `discovery` finds. A directory that is not there is no
    /// layer, except the one `--commands` names: that one is kept, so that
    /// using it reports the missing directory.
    pub fn discover(discovery: &Discovery) -> Self {
        let mut layers = vec![Layer {
            kind: LayerKind::Catalog,
            source: Source::Catalog,
            trusted: true,
        }];
        let is_dir = |path: &Path| fs::metadata(path).is_ok_and(|metadata| metadata.is_dir());
        if let Some(user) = &discovery.user
            && is_dir(user)
        {
            layers.push(Layer {
                kind: LayerKind::User,
                source: Source::Directory(user.clone()),
                trusted: true,
            });
        }
        let given = discovery.given.as_deref();
        if let Some(project) = discovery.cwd.as_deref().and_then(project_registry)
            && !given.is_some_and(|given| same_directory(given, &project))
            && !layers.iter().any(|layer| {
                layer
                    .directory()
                    .is_some_and(|dir| same_directory(dir, &project))
            })
        {
            let trusted = discovery
                .trust_file
                .as_deref()
                .is_some_and(|file| is_trusted(file, &project));
            layers.push(Layer {
                kind: LayerKind::Project,
                source: Source::Directory(project),
                trusted,
            });
        }
        if let Some(given) = given {
            layers.retain(|layer| {
                layer.kind == LayerKind::Catalog
                    || !layer
                        .directory()
                        .is_some_and(|dir| same_directory(dir, given))
            });
            layers.push(Layer {
                kind: LayerKind::Commands,
                source: Source::Directory(given.to_path_buf()),
                trusted: true,
            });
        }
        let mut stack = Self {
            layers,
            trusted_only: false,
            catalog: CatalogSwitch::default(),
            discovery: discovery.clone(),
        };
        // Settings that cannot be read switch nothing off here;
        // `Settings::load` reports them, and the command fails closed.
        if let Ok(settings) = stack.settings() {
            stack.catalog = CatalogSwitch {
                off: !settings.hook.catalog,
                disabled: settings.hook.disable.clone(),
            };
        }
        stack
    }

    /// The layers that are read, bottom first.
    pub fn layers(&self) -> impl DoubleEndedIterator<Item = &Layer> + Clone {
        let trusted_only = self.trusted_only;
        self.layers
            .iter()
            .filter(move |layer| layer.trusted || !trusted_only)
    }

    /// What the hook reads: the layers a person trusted, found from the
    /// agent's working directory `cwd` when the event gives one.
    pub fn for_hook(&self, cwd: Option<&Path>) -> Self {
        let mut stack = match cwd {
            Some(cwd) => Self::discover(&Discovery {
                cwd: Some(cwd.to_path_buf()),
                ..self.discovery.clone()
            }),
            None => self.clone(),
        };
        stack.trusted_only = true;
        stack
    }

    /// The layers no person trusted (a project registry whose content
    /// changed since it was trusted, or that no one trusted).
    pub fn untrusted(&self) -> impl Iterator<Item = &Layer> {
        self.layers.iter().filter(|layer| !layer.trusted)
    }

    /// Whether `aigent run NAME`, which reads every layer, would find
    /// `name` in a layer no person trusted, above the one the hook read.
    pub fn untrusted_declares(&self, name: &str) -> bool {
        let declares = |layer: &Layer| match &layer.source {
            Source::Directory(dir) => SourceFormat::EXTENSIONS.iter().any(|(extension, _)| {
                fs::symlink_metadata(dir.join(format!("{name}.{extension}"))).is_ok()
            }),
            Source::Catalog => false,
        };
        self.layers
            .iter()
            .rev()
            .find(|layer| declares(layer))
            .is_some_and(|layer| !layer.trusted)
    }

    /// Where trust is recorded.
    pub fn trust_file(&self) -> Option<&Path> {
        self.discovery.trust_file.as_deref()
    }

    pub fn describe(&self) -> String {
        let names: Vec<String> = self
            .layers()
            .filter(|layer| layer.kind != LayerKind::Catalog || !self.catalog.off)
            .map(|layer| match &layer.source {
                Source::Directory(dir) => format!("{}: {}", layer.kind.as_str(), dir.display()),
                Source::Catalog => layer.source.describe(),
            })
            .collect();
        format!("the registry ({})", names.join("; "))
    }

    /// These layers without the catalog: what `schema lint` checks (the
    /// catalog is checked where it is built).
    pub fn without_catalog(&self) -> Self {
        let mut stack = self.clone();
        stack.catalog.off = true;
        stack
    }

    /// The topmost layer that is a directory.
    pub fn top_directory(&self) -> Option<&Source> {
        self.layers()
            .rev()
            .map(|layer| &layer.source)
            .find(|source| matches!(source, Source::Directory(_)))
    }

    fn catalog_allows(&self, name: &str) -> bool {
        let program = catalog_entry(name).map_or("", |(_, _, program, _)| *program);
        self.catalog.allows(name, program_key(program))
    }

    /// The topmost layer's declaration of `name`. A declaration that is
    /// there but broken is an error, never a reason to fall back to a
    /// lower layer's.
    pub fn load(&self, name: &str) -> Result<Loaded, LoadError> {
        for layer in self.layers().rev() {
            if layer.kind == LayerKind::Catalog && !self.catalog_allows(name) {
                continue;
            }
            match layer.source.find(name) {
                Ok(Some(mut loaded)) => {
                    loaded.layer = Some(layer.kind);
                    return Ok(loaded);
                }
                Ok(None) => continue,
                // A missing user or project directory is no layer; only a
                // missing `--commands` directory is an error.
                Err(LoadError::MissingRegistry { .. }) if layer.kind != LayerKind::Commands => {
                    continue;
                }
                Err(error) => return Err(error),
            }
        }
        let entries = self.entries().unwrap_or_default();
        Err(LoadError::NotFound {
            name: name.to_owned(),
            registry: self.describe(),
            closest: closest(name, entries.iter().map(|entry| entry.name.as_str()))
                .map(str::to_owned),
        })
    }

    /// Which layer `name` comes from.
    pub fn layer_of(&self, name: &str) -> Option<LayerKind> {
        self.entries()
            .ok()?
            .into_iter()
            .find(|entry| entry.name == name)
            .map(|entry| self.layers[entry.layer].kind)
    }

    /// Every declaration file of every layer, a later layer's taking the
    /// place of a lower one's of the same name, sorted by name.
    pub fn entries(&self) -> Result<Vec<RegistryEntry>, LoadError> {
        let mut by_name: BTreeMap<String, Vec<RegistryEntry>> = BTreeMap::new();
        for (index, layer) in self.layers.iter().enumerate() {
            if self.trusted_only && !layer.trusted {
                continue;
            }
            let entries = match layer.source.entries() {
                Ok(entries) => entries,
                Err(LoadError::MissingRegistry { .. }) if layer.kind != LayerKind::Commands => {
                    continue;
                }
                Err(error) => return Err(error),
            };
            let mut here: BTreeMap<String, Vec<RegistryEntry>> = BTreeMap::new();
            for mut entry in entries {
                if layer.kind == LayerKind::Catalog && !self.catalog_allows(&entry.name) {
                    continue;
                }
                entry.layer = index;
                here.entry(entry.name.clone()).or_default().push(entry);
            }
            by_name.extend(here);
        }
        Ok(by_name.into_values().flatten().collect())
    }

    /// `schema list` and `schema lint`'s reports, each tagged with its
    /// layer.
    pub fn reports_where(&self, keep: impl Fn(&str) -> bool) -> Result<Vec<FileReport>, LoadError> {
        let entries = self.entries()?;
        let mut reports = Vec::with_capacity(entries.len());
        for entry in &entries {
            if !keep(&entry.name) {
                continue;
            }
            let layer = &self.layers[entry.layer];
            let siblings: Vec<RegistryEntry> = entries
                .iter()
                .filter(|other| other.layer == entry.layer)
                .cloned()
                .collect();
            let loaded = match crate::contract::command_name_problem(&entry.name) {
                None => layer
                    .source
                    .load_file(&entry.name, &entry.file_name, entry.format),
                Some(problem) => Err(LoadError::InvalidName {
                    name: entry.name.clone(),
                    problem,
                }),
            };
            let mut report = layer.source.file_report(entry, &siblings, loaded);
            report.layer = Some(layer.kind);
            reports.push(report);
        }
        Ok(reports)
    }

    /// The program index of every layer: a name a later layer declares
    /// is that layer's, whatever program a lower layer's ran. The layers
    /// are merged program by program as the hook looks them up, not here:
    /// a line names a few programs of the hundreds the layers know.
    pub fn program_index(&self, cache_dir: Option<&Path>) -> Result<ProgramIndex, LoadError> {
        let mut parts = Vec::new();
        for layer in self.layers() {
            match &layer.source {
                Source::Catalog => {
                    if !self.catalog.off {
                        parts.push(ProgramIndex::catalog(self.catalog.clone()));
                    }
                }
                source => match source.program_index(cache_dir) {
                    Ok(index) => parts.push(index),
                    Err(LoadError::MissingRegistry { .. }) if layer.kind != LayerKind::Commands => {
                    }
                    Err(error) => return Err(error),
                },
            }
        }
        Ok(ProgramIndex::stacked(parts))
    }

    /// The layers' settings merged: each layer's `aigent.toml` in turn, a
    /// later layer's keys taking the place of a lower one's; the lists of
    /// catalog entries switched off add up.
    pub fn settings(&self) -> Result<Settings, SettingsError> {
        let mut merged = toml::Table::new();
        let mut disabled: Vec<String> = Vec::new();
        for layer in self.layers() {
            let Some(dir) = layer.directory() else {
                continue;
            };
            let path = super::settings::settings_path(dir);
            let Some((settings, table)) = Settings::load_table(&path)? else {
                continue;
            };
            disabled.extend(settings.hook.disable.iter().cloned());
            merge(&mut merged, table);
        }
        let mut settings: Settings =
            toml::Value::Table(merged)
                .try_into()
                .map_err(|error: toml::de::Error| SettingsError::Invalid {
                    file: "aigent.toml".to_owned(),
                    line: 1,
                    column: 1,
                    message: error.message().to_owned(),
                })?;
        disabled.sort();
        disabled.dedup();
        settings.hook.disable = disabled;
        Ok(settings)
    }
}

/// `base` with `over`'s keys in it: tables merge key by key, anything else
/// is replaced.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(inner)), toml::Value::Table(value)) => merge(inner, value),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// The project's registry: the first `commands/` holding an `aigent.toml`
/// from `start` up, stopping at the repository's root (a directory with
/// `.git`) and after 32 levels.
pub fn project_registry(start: &Path) -> Option<PathBuf> {
    let start = std::path::absolute(start).ok()?;
    let start = if start.is_dir() {
        start
    } else {
        start.parent()?.to_path_buf()
    };
    for directory in start.ancestors().take(32) {
        let candidate = directory.join("commands");
        if fs::symlink_metadata(candidate.join(SETTINGS_FILE))
            .is_ok_and(|metadata| metadata.file_type().is_file())
        {
            return Some(candidate);
        }
        if fs::symlink_metadata(directory.join(".git")).is_ok() {
            break;
        }
    }
    None
}

fn same_directory(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// What a registry directory holds, as one digest: every declaration file
/// and `aigent.toml`, by name and content. `None` when it cannot be read
/// whole (too many files, one unreadable or over the size limit).
pub fn content_digest(dir: &Path) -> Option<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name == SETTINGS_FILE || split_file_name(name).is_some())
        .collect();
    if names.len() > MAX_TRUSTED_FILES {
        return None;
    }
    names.sort();
    let limit = u64::try_from(crate::contract::value::MAX_DOCUMENT_BYTES).unwrap_or(u64::MAX);
    let mut hasher = Sha256::new();
    for name in &names {
        let bytes = read_regular_file(&dir.join(name), limit).ok()?;
        hasher.update((name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Some(hex(&hasher.finalize()))
}

/// The trust record: canonical directory → content digest.
fn read_trust(file: &Path) -> BTreeMap<String, String> {
    read_regular_file(file, 16 * 1024 * 1024)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn trust_key(dir: &Path) -> Option<String> {
    Some(fs::canonicalize(dir).ok()?.display().to_string())
}

/// Whether `dir`'s content is what a person trusted.
pub fn is_trusted(trust_file: &Path, dir: &Path) -> bool {
    let Some(key) = trust_key(dir) else {
        return false;
    };
    let record = read_trust(trust_file);
    record
        .get(&key)
        .is_some_and(|digest| content_digest(dir).as_deref() == Some(digest.as_str()))
}

/// Records `dir`'s content as trusted; the digest recorded.
pub fn trust(trust_file: &Path, dir: &Path) -> std::io::Result<String> {
    let key =
        trust_key(dir).ok_or_else(|| std::io::Error::other("the directory cannot be resolved"))?;
    let digest = content_digest(dir).ok_or_else(|| {
        std::io::Error::other(format!(
            "{} cannot be read whole (more than {MAX_TRUSTED_FILES} files, or a file unreadable or over 1 MiB)",
            dir.display()
        ))
    })?;
    let mut record = read_trust(trust_file);
    record.insert(key, digest.clone());
    if let Some(parent) = trust_file.parent() {
        fs::create_dir_all(parent)?;
    }
    write_atomic(
        trust_file,
        &serde_json::to_vec_pretty(&record).map_err(std::io::Error::other)?,
    )?;
    Ok(digest)
}

#[cfg(test)]
mod tests;
