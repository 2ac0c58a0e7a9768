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
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

/// Each table is keyed by the path as written, byte for byte: `Path`
/// compares `file/` and `file` equal, which the kernel answers apart (a
/// trailing slash asks for a directory and follows a link).
#[derive(Default)]
struct Answers {
    canonical: HashMap<OsString, Result<PathBuf, io::ErrorKind>>,
    present: HashMap<OsString, bool>,
    metadata: HashMap<OsString, Result<std::fs::Metadata, io::ErrorKind>>,
    /// The bytes the answers kept take (their paths and entries), at most
    /// [`HELD_BYTES`].
    held: usize,
}

/// How many bytes of answers one judgement keeps: a line asks about a few
/// hundred short paths, while each ancestor of a long `cd a/a/.../a` is a
/// path of its own (their bytes grow with the square of the line's).
/// Past this, answers are asked again rather than kept.
const HELD_BYTES: usize = 1 << 20;

/// A longer path is asked each time: keeping it would cost more than
/// asking (the kernel refuses most such paths whole).
const LONGEST_KEPT: usize = 4096;

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
/// once there, while [`HELD_BYTES`] allows), else asked now. `weight` is
/// the bytes an answer holds on the heap beyond its path.
fn answer<T: Clone>(
    path: &Path,
    table: fn(&mut Answers) -> &mut HashMap<OsString, T>,
    asked: impl FnOnce() -> T,
    weight: fn(&T) -> usize,
) -> T {
    let key = path.as_os_str();
    if key.len() > LONGEST_KEPT {
        return asked();
    }
    ANSWERS.with(|answers| {
        let mut answers = answers.borrow_mut();
        let Some(answers) = answers.as_mut() else {
            return asked();
        };
        if let Some(known) = table(answers).get(key) {
            return known.clone();
        }
        let value = asked();
        let entry = std::mem::size_of::<(OsString, T)>() + key.len() + weight(&value);
        let held = answers.held + entry;
        if held <= HELD_BYTES {
            answers.held = held;
            table(answers).insert(key.to_owned(), value.clone());
        }
        value
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
        |real| real.as_ref().map_or(0, |real| real.as_os_str().len()),
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
        |_| 0,
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
        |_| 0,
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

    /// `file/` and `file`, `link/` and `link` are different questions to
    /// the kernel (a trailing slash asks for a directory and follows a
    /// link), though `Path` compares them equal: each is asked as written.
    #[test]
    #[cfg(unix)]
    fn a_path_is_asked_as_it_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let link = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &link).unwrap();
        let slashed = |path: &Path| {
            let mut text = path.as_os_str().to_owned();
            text.push("/");
            PathBuf::from(text)
        };
        remembering(|| {
            assert!(metadata(slashed(&file)).is_err());
            assert!(canonicalize(slashed(&file)).is_err());
            assert!(!is_present(slashed(&link)));
            assert!(metadata(&file).is_ok_and(|metadata| metadata.is_file()));
            assert!(canonicalize(&file).is_ok());
            assert!(is_present(&link));
        });
    }

    /// The bytes of every path and canonical path remembered now.
    fn held_bytes() -> usize {
        ANSWERS.with(|answers| {
            let answers = answers.borrow();
            let Some(answers) = answers.as_ref() else {
                return 0;
            };
            let paths = answers.present.keys().chain(answers.metadata.keys());
            let canonical = answers.canonical.iter().map(|(key, value)| {
                key.as_os_str().len() + value.as_ref().map_or(0, |path| path.as_os_str().len())
            });
            paths.map(|key| key.as_os_str().len()).sum::<usize>() + canonical.sum::<usize>()
        })
    }

    /// A line of long paths (each ancestor of `cd a/a/.../a` is asked)
    /// does not make the answers grow with the square of its length: past
    /// a bound they are asked each time instead of kept.
    #[test]
    fn the_answers_kept_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join(["a"; 5_000].join("/"));
        remembering(|| {
            for ancestor in deep.ancestors() {
                assert_eq!(is_present(ancestor), ancestor.exists());
                assert_eq!(canonicalize(ancestor).is_ok(), ancestor.exists());
            }
            let held = held_bytes();
            assert!(held <= HELD_BYTES, "{held} bytes held");
        });
    }
}
