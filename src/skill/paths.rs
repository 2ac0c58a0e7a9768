//! How skill reports write paths: as (lossy) UTF-8 text, since a
//! non-UTF-8 name must not make serialization fail (serde's own `Path`
//! impl errors on one). Its own file so that every layer can use it.

use std::path::{Path, PathBuf};

use serde::Serializer;

pub(crate) fn lossy_path<S: Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&path.to_string_lossy())
}

pub(crate) fn lossy_paths<S: Serializer>(
    paths: &[PathBuf],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(paths.iter().map(|path| path.to_string_lossy()))
}
