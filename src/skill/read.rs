//! Layer 1 of skill validation: reading one skill file, safely. Nothing
//! here knows the rules; [`super::check`] runs them on what is read.

use std::io::{self, Read};
use std::path::Path;

use super::codes;
use crate::fsutil::open_nonblocking;
use crate::report::Diagnostic;

/// Skill files larger than this are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Reads a skill file, refusing what is not a regular file or is larger
/// than [`MAX_FILE_BYTES`] (checked before reading, and enforced while
/// reading in case the file grows). The file is opened without blocking,
/// so a FIFO named `SKILL.md` cannot hang the run.
pub fn read_skill_file(file: &Path) -> Result<Vec<u8>, Diagnostic> {
    let unreadable = |err: io::Error| {
        Diagnostic::new(
            codes::Code::FileUnreadable,
            format!("cannot read {}: {err}", file.display()),
        )
    };
    let handle = open_nonblocking(file).map_err(unreadable)?;
    let metadata = handle.metadata().map_err(unreadable)?;
    if !metadata.is_file() {
        return Err(Diagnostic::new(
            codes::Code::FileUnreadable,
            format!("{} is not a regular file", file.display()),
        ));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_large(file, metadata.len()));
    }
    let capacity = usize::try_from(metadata.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity.saturating_add(1));
    handle
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(file, bytes.len() as u64));
    }
    Ok(bytes)
}

/// The finding on a file over the 1 MiB limit, naming it: skills and plugin
/// manifests share the limit and this code.
pub fn too_large(file: &Path, size: u64) -> Diagnostic {
    Diagnostic::new(
        codes::Code::FileTooLarge,
        format!(
            "{} is {size} bytes; the limit is {MAX_FILE_BYTES} (1 MiB)",
            file.display()
        ),
    )
}
