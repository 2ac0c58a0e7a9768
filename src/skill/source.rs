//! Where a skill is read from: the file system, or a snapshot of a
//! repository (its index, or HEAD's tree) for `--changed --compare-to
//! index|head`, so that what is checked is what is staged or committed,
//! whatever the work tree holds. The validator reads the skill file and
//! looks up the files it links to through one [`SkillSource`].

use std::path::Path;

use super::codes;
use super::read::{MAX_FILE_BYTES, read_skill_file, too_large};
use crate::report::Diagnostic;
use crate::vcs::{Snapshot, SnapshotReadError};

/// A place skill files are read from. Paths are the source's own: on the
/// file system as given, in a snapshot relative to the work tree.
pub trait SkillSource {
    /// The bytes of a skill file, refusing what is not a regular file or
    /// is larger than [`MAX_FILE_BYTES`], as a diagnostic.
    fn read_skill_file(&self, file: &Path) -> Result<Vec<u8>, Diagnostic>;

    /// Whether a path the body links to names a file or a directory.
    fn exists(&self, path: &Path) -> bool;

    /// The names of the regular files directly in `dir` (UTF-8 names only,
    /// at most [`MAX_LISTED_FILES`], sorted); none when it is no directory.
    fn file_names(&self, dir: &Path) -> Vec<String>;
}

/// A directory listing stops here: an evals directory holds a few files.
pub const MAX_LISTED_FILES: usize = 256;

/// The regular files directly in `dir` on disk, as [`SkillSource::file_names`].
fn file_names_on_disk(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .take(MAX_LISTED_FILES)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// The file system, as it is now.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileSystem;

impl SkillSource for FileSystem {
    fn read_skill_file(&self, file: &Path) -> Result<Vec<u8>, Diagnostic> {
        read_skill_file(file)
    }

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }

    fn file_names(&self, dir: &Path) -> Vec<String> {
        file_names_on_disk(dir)
    }
}

/// A repository snapshot; paths relative to the work tree. The work tree
/// itself is read from disk.
impl SkillSource for Snapshot<'_> {
    fn read_skill_file(&self, file: &Path) -> Result<Vec<u8>, Diagnostic> {
        if self.is_work_tree() {
            return read_skill_file(&self.workdir().join(file));
        }
        self.read(file, MAX_FILE_BYTES).map_err(|err| match err {
            SnapshotReadError::TooLarge { size } => too_large(file, size),
            other => Diagnostic::new(
                codes::Code::FileUnreadable,
                format!(
                    "cannot read {} from {}: {other}",
                    file.display(),
                    self.describe()
                ),
            ),
        })
    }

    fn exists(&self, path: &Path) -> bool {
        Snapshot::exists(self, path)
    }

    fn file_names(&self, dir: &Path) -> Vec<String> {
        if self.is_work_tree() {
            return file_names_on_disk(&self.workdir().join(dir));
        }
        Snapshot::file_names(self, dir, MAX_LISTED_FILES)
    }
}
