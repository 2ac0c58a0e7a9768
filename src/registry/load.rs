//! The registry: where a command's declaration is looked up. One source
//! (`super::source`: a directory, or the built-in catalog) or the stack of
//! layers the process finds (`super::layers`); every call goes to the one
//! or the other.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::layers::Layers;
use super::programs::ProgramIndex;
use super::settings::{Settings, SettingsError, settings_path};
use super::source::{FileReport, LoadError, Loaded, RegistryEntry, Source};
use crate::contract::command_name_problem;

/// Where declarations come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registry {
    Directory(PathBuf),
    /// The catalog compiled into the binary (`catalog/`).
    Catalog,
    /// Layers, the later winning: the catalog, the user's registry, the
    /// project's, the one named by `--commands` (DESIGN.md §12).
    Layered(Arc<Layers>),
}

/// A registry as the one source it is, or its layers.
enum Shape<'a> {
    Source(Source),
    Layered(&'a Layers),
}

impl Registry {
    /// The layered registry for this process: the catalog, the user's and
    /// the project's registries (found from the working directory), and
    /// `--commands DIR` / `AIGENT_COMMANDS` on top. See
    /// [`Layers::discover`].
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self::Layered(Arc::new(Layers::for_process(dir)))
    }

    fn shape(&self) -> Shape<'_> {
        match self {
            Self::Directory(dir) => Shape::Source(Source::Directory(dir.clone())),
            Self::Catalog => Shape::Source(Source::Catalog),
            Self::Layered(layers) => Shape::Layered(layers),
        }
    }

    /// What the hook reads for an agent in `cwd`: the layers found from
    /// there, without the ones no person trusted (see `super::layers`).
    pub fn for_hook(&self, cwd: Option<&Path>) -> Self {
        match self {
            Self::Layered(layers) => Self::Layered(Arc::new(layers.for_hook(cwd))),
            other => other.clone(),
        }
    }

    /// This registry without the built-in catalog: what `schema lint`
    /// checks.
    pub fn without_catalog(&self) -> Self {
        match self {
            Self::Layered(layers) => Self::Layered(Arc::new(layers.without_catalog())),
            other => other.clone(),
        }
    }

    /// How to name this registry in messages.
    pub fn describe(&self) -> String {
        match self.shape() {
            Shape::Source(source) => source.describe(),
            Shape::Layered(layers) => layers.describe(),
        }
    }

    /// Loads one command, reading only its own file.
    pub fn load(&self, name: &str) -> Result<Loaded, LoadError> {
        match self.shape() {
            Shape::Source(source) => source.load(name),
            Shape::Layered(layers) => {
                if let Some(problem) = command_name_problem(name) {
                    return Err(LoadError::InvalidName {
                        name: name.to_owned(),
                        problem,
                    });
                }
                layers.load(name)
            }
        }
    }

    /// Every declaration file, sorted by command name then file name, with
    /// no file read. Files whose name is not a valid command name are
    /// included (the lint reports them); dotfiles and other extensions are
    /// not declarations and are skipped.
    pub fn entries(&self) -> Result<Vec<RegistryEntry>, LoadError> {
        match self.shape() {
            Shape::Source(source) => source.entries(),
            Shape::Layered(layers) => layers.entries(),
        }
    }

    /// Reads and lints every declaration: what `schema list` and `schema
    /// lint` report. One broken file never hides the others.
    pub fn reports(&self) -> Result<Vec<FileReport>, LoadError> {
        self.reports_where(|_| true)
    }

    /// As [`Registry::reports`], for the command names `keep` accepts;
    /// duplicates are still found against every file in the registry.
    pub fn reports_where(&self, keep: impl Fn(&str) -> bool) -> Result<Vec<FileReport>, LoadError> {
        match self.shape() {
            Shape::Source(source) => source.reports_where(keep),
            Shape::Layered(layers) => layers.reports_where(keep),
        }
    }

    /// `schema lint`'s report of the declaration file `file_name` in this
    /// registry (its topmost directory, when layered), its text given
    /// rather than read: an editor's unsaved buffer. See
    /// [`Source::report_text`].
    pub fn report_text(&self, file_name: &str, text: &str) -> Option<FileReport> {
        match self.shape() {
            Shape::Source(source) => source.report_text(file_name, text),
            Shape::Layered(layers) => layers.top_directory()?.report_text(file_name, text),
        }
    }

    /// The program index, from `cache_dir` when it is current there, else
    /// built and (best effort) saved there (`super::programs`).
    pub fn program_index(&self, cache_dir: Option<&Path>) -> Result<ProgramIndex, LoadError> {
        match self.shape() {
            Shape::Source(source) => source.program_index(cache_dir),
            Shape::Layered(layers) => layers.program_index(cache_dir),
        }
    }
}

impl Settings {
    /// The settings of `registry`: its `aigent.toml`, or the defaults when
    /// there is none (always for the built-in catalog); the layers' merged
    /// for a layered one. Here rather than in `super::settings`, which the
    /// layers read and so must not know the registry.
    pub fn load(registry: &Registry) -> Result<Self, SettingsError> {
        match registry {
            Registry::Catalog => Ok(Self::default()),
            Registry::Directory(dir) => Self::load_file(&settings_path(dir)),
            Registry::Layered(layers) => layers.settings(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_or_the_catalog_alone_has_the_default_settings() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Settings::load(&Registry::Directory(dir.path().to_owned())).unwrap(),
            Settings::default()
        );
        assert_eq!(
            Settings::load(&Registry::Catalog).unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn a_registry_answers_as_its_source_does() {
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
        let registry = Registry::Directory(examples.clone());
        let source = Source::Directory(examples);
        assert_eq!(registry.describe(), source.describe());
        assert_eq!(registry.entries().unwrap(), source.entries().unwrap());
        assert_eq!(
            registry.load("deploy").unwrap().file,
            source.load("deploy").unwrap().file
        );
        assert!(matches!(
            Registry::Catalog.load("../x"),
            Err(LoadError::InvalidName { .. })
        ));
    }
}
