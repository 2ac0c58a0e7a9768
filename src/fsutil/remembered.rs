//! File-system answers remembered for the length of one judgement.
//!
//! Judging a line asks the same questions of the same paths again and
//! again: where the working directory really is, where home is, which
//! directory up from here holds `.git`. Each `canonicalize` costs a
//! `readlink` per component, and a working directory that does not exist
//! costs that for every ancestor; a three-command line asked over a
//! hundred times. Within [`remembering`], each answer is asked of the
//! kernel once. Outside it, every call goes to the kernel, so a
//! long-running process (the MCP server) never sees a stale answer: a
//! judgement is a snapshot of the file system either way.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Answers {
    canonical: HashMap<PathBuf, Result<PathBuf, io::ErrorKind>>,
    present: HashMap<PathBuf, bool>,
    metadata: HashMap<PathBuf, Result<std::fs::Metadata, io::ErrorKind>>,
}

thread_local! {
    static ANSWERS: RefCell<Option<Answers>> = const { RefCell::new(None) };
}

/// Runs `work` with the answers of [`canonicalize`], [`metadata`] and
/// [`is_present`] remembered, and forgets them after (a panic included). Nested calls
/// share the outermost one's answers.
pub fn remembering<T>(work: impl FnOnce() -> T) -> T {
    struct Forget(bool);
    impl Drop for Forget {
        fn drop(&mut self) {
            if self.0 {
                ANSWERS.with(|answers| answers.borrow_mut().take());
            }
        }
    }
    let outermost = ANSWERS.with(|answers| {
        let mut answers = answers.borrow_mut();
        let outermost = answers.is_none();
        if outermost {
            *answers = Some(Answers::default());
        }
        outermost
    });
    let _forget = Forget(outermost);
    work()
}

/// `asked`'s answer for `path`, from `table` within [`remembering`] (asked
/// once there), else asked now.
fn answer<T: Clone>(
    path: &Path,
    table: fn(&mut Answers) -> &mut HashMap<PathBuf, T>,
    asked: impl FnOnce() -> T,
) -> T {
    ANSWERS.with(|answers| match answers.borrow_mut().as_mut() {
        Some(answers) => table(answers)
            .entry(path.to_path_buf())
            .or_insert_with(asked)
            .clone(),
        None => asked(),
    })
}

/// [`std::fs::canonicalize`], remembered within [`remembering`]. An error
/// keeps its kind only.
pub fn canonicalize(path: impl AsRef<Path>) -> io::Result<PathBuf> {
    let path = path.as_ref();
    answer(
        path,
        |answers| &mut answers.canonical,
        || std::fs::canonicalize(path).map_err(|error| error.kind()),
    )
    .map_err(io::Error::from)
}

/// [`std::fs::metadata`] (links followed), remembered within
/// [`remembering`]. An error keeps its kind only.
pub fn metadata(path: impl AsRef<Path>) -> io::Result<std::fs::Metadata> {
    let path = path.as_ref();
    answer(
        path,
        |answers| &mut answers.metadata,
        || std::fs::metadata(path).map_err(|error| error.kind()),
    )
    .map_err(io::Error::from)
}

/// Whether `path` names something, a dangling link included (its links
/// not followed), remembered within [`remembering`].
pub fn is_present(path: impl AsRef<Path>) -> bool {
    let path = path.as_ref();
    answer(
        path,
        |answers| &mut answers.present,
        || std::fs::symlink_metadata(path).is_ok(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_last_the_judgement_and_no_longer() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        remembering(|| {
            assert!(!is_present(&file));
            assert!(canonicalize(&file).is_err());
            assert!(metadata(&file).is_err());
            std::fs::write(&file, "x").unwrap();
            assert!(metadata(&file).is_err());
            // Asked once: the answers of the start of the judgement stand.
            assert!(!is_present(&file));
            assert_eq!(
                canonicalize(&file).unwrap_err().kind(),
                io::ErrorKind::NotFound
            );
            remembering(|| assert!(!is_present(&file)));
        });
        assert!(is_present(&file));
        assert!(canonicalize(&file).is_ok());
        assert!(metadata(&file).is_ok_and(|metadata| metadata.is_file()));
        remembering(|| assert!(is_present(&file)));
    }

    #[test]
    fn a_panic_forgets_the_answers() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        let caught = std::panic::catch_unwind(|| {
            remembering(|| {
                assert!(!is_present(&file));
                panic!("judging failed");
            })
        });
        assert!(caught.is_err());
        std::fs::write(&file, "x").unwrap();
        assert!(is_present(&file));
    }
}
