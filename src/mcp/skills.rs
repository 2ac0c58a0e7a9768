//! The skills served over MCP (SEP-2640): every skill below the `--skills`
//! roots that validates, with a manifest of its files (URI, sha256, size).
//!
//! Confinement: `resources/read` serves only a URI that the manifest lists,
//! looked up as an exact string, so no path is ever made from what the
//! client sent (`..`, `%2e%2e`, `%2f`, absolute paths and the like simply
//! name nothing). Files are listed after resolving symlinks, and only when
//! they resolve inside their skill's directory; at read time the path is
//! resolved again and must still be the listed one, then it is opened
//! without following a final symlink and without blocking on a FIFO. A
//! file with more than one hard link is neither listed nor served: another
//! name for it may be outside the skill's directory.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::fs::{self, File, OpenOptions};
use std::hash::{Hash, Hasher};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::report::Diagnostic;
use crate::skill::check::ValidateOptions;
use crate::skill::discover::{Target, discover};
use crate::skill::frontmatter;
use crate::skill::validate::validate_targets;

crate::report::diagnostic_codes! {
    /// Why a skill that validates is still not served.
    pub enum Refusal {
        SkillUnservable = "MCP_SKILL_UNSERVABLE", Error, "the skill validates but cannot be served as MCP resources (the message says why)";
        DuplicateSkill = "MCP_DUPLICATE_SKILL", Error, "another skill of the same name is already served";
    }
}

/// Files larger than this are left out of a manifest (and never read).
pub const MAX_RESOURCE_BYTES: u64 = 8 * 1024 * 1024;
/// At most this many files are listed per skill.
pub const MAX_FILES_PER_SKILL: usize = 1000;
/// How deep below a skill's directory files are listed.
const MAX_DEPTH: usize = 16;

pub const URI_SCHEME: &str = "skill://";

/// One file of a served skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    pub uri: String,
    /// Resolved (canonical) path, inside the skill's directory.
    pub path: PathBuf,
    /// `sha256:` and 64 lowercase hex digits.
    pub digest: String,
    pub size: u64,
}

/// A skill that validated.
#[derive(Debug, Clone, PartialEq)]
pub struct ServedSkill {
    pub name: String,
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// Resolved path of the skill's directory.
    pub directory: PathBuf,
    /// Every frontmatter field as written.
    pub frontmatter: Map<String, Value>,
    /// `SKILL.md` first, then the other files in path order.
    pub files: Vec<SkillFile>,
}

/// A skill that is not served, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub path: PathBuf,
    pub diagnostics: Vec<Diagnostic>,
}

/// Every served skill, and an index from file URI to file.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub skills: Vec<ServedSkill>,
    files: HashMap<String, (usize, usize)>,
}

impl Catalog {
    pub fn skill(&self, uri: &str) -> Option<&ServedSkill> {
        self.skills.iter().find(|skill| skill.uri == uri)
    }

    /// Keeps the skills `keep` accepts; the others come back refused, with
    /// the reason `keep` gave.
    pub fn retain(&mut self, keep: impl Fn(&ServedSkill) -> Result<(), String>) -> Vec<Refused> {
        let mut refused = Vec::new();
        self.skills.retain(|skill| match keep(skill) {
            Ok(()) => true,
            Err(message) => {
                refused.push(Refused {
                    path: skill.files[0].path.clone(),
                    diagnostics: vec![Diagnostic::new(Refusal::SkillUnservable, message)],
                });
                false
            }
        });
        self.index();
        refused
    }

    fn index(&mut self) {
        self.files.clear();
        for (skill_index, skill) in self.skills.iter().enumerate() {
            for (file_index, file) in skill.files.iter().enumerate() {
                self.files
                    .insert(file.uri.clone(), (skill_index, file_index));
            }
        }
    }

    /// The listed file at exactly this URI.
    pub fn file(&self, uri: &str) -> Option<&SkillFile> {
        let &(skill, file) = self.files.get(uri)?;
        Some(&self.skills[skill].files[file])
    }
}

/// What a scan found: the catalog, the skills refused, and notes.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    pub catalog: Catalog,
    pub refused: Vec<Refused>,
    pub notes: Vec<String>,
}

/// Finds and validates every skill below `roots` and builds their manifests.
pub fn scan(roots: &[PathBuf]) -> Scan {
    let mut result = Scan::default();
    if roots.is_empty() {
        return result;
    }
    let discovery = discover(roots, true);
    result.notes = discovery.notes.clone();
    let reports = validate_targets(&discovery.targets, ValidateOptions::default());
    for (target, report) in discovery.targets.iter().zip(reports) {
        let Target::SkillFile { file, directory } = target else {
            continue;
        };
        if !report.valid {
            result.refused.push(Refused {
                path: report.path,
                diagnostics: report.diagnostics,
            });
            continue;
        }
        match serve_skill(file, directory, report.name.as_deref()) {
            Ok(skill) if result.catalog.skill(&skill.uri).is_some() => {
                result.refused.push(Refused {
                    path: file.clone(),
                    diagnostics: vec![Diagnostic::new(
                        Refusal::DuplicateSkill,
                        format!("another skill named `{}` is already served", skill.name),
                    )],
                });
            }
            Ok(skill) => result.catalog.skills.push(skill),
            Err(message) => result.refused.push(Refused {
                path: file.clone(),
                diagnostics: vec![Diagnostic::new(Refusal::SkillUnservable, message)],
            }),
        }
    }
    result.catalog.index();
    result
}

fn serve_skill(file: &Path, directory: &Path, name: Option<&str>) -> Result<ServedSkill, String> {
    let name = name.ok_or("the skill has no name")?.to_owned();
    let directory = fs::canonicalize(directory)
        .map_err(|err| format!("cannot resolve its directory: {err}"))?;
    let skill_file = fs::canonicalize(file).map_err(|err| format!("cannot resolve it: {err}"))?;
    if skill_file.parent() != Some(directory.as_path()) {
        return Err("its SKILL.md resolves outside its directory".to_owned());
    }
    let base = format!("{URI_SCHEME}{}/", encode_segment(name.as_bytes()));
    let bytes = read_confined(&skill_file, MAX_RESOURCE_BYTES).map_err(|err| err.to_string())?;
    let text = std::str::from_utf8(&bytes).map_err(|_| "SKILL.md is not UTF-8".to_owned())?;
    let frontmatter = parse_frontmatter(text)?;
    let skill_md_name = file
        .file_name()
        .map(|n| n.as_bytes().to_vec())
        .unwrap_or_default();
    let uri = format!("{base}{}", encode_segment(&skill_md_name));
    let mut files = vec![SkillFile {
        uri: uri.clone(),
        path: skill_file.clone(),
        digest: digest(&bytes),
        size: bytes.len() as u64,
    }];
    let mut listed = Vec::new();
    list_files(&directory, &directory, 0, &mut listed);
    listed.sort();
    for (relative, path) in listed {
        if path == skill_file || files.len() >= MAX_FILES_PER_SKILL {
            continue;
        }
        let Ok(bytes) = read_confined(&path, MAX_RESOURCE_BYTES) else {
            continue;
        };
        let segments: Vec<String> = relative.iter().map(|part| encode_segment(part)).collect();
        files.push(SkillFile {
            uri: format!("{base}{}", segments.join("/")),
            path,
            digest: digest(&bytes),
            size: bytes.len() as u64,
        });
    }
    Ok(ServedSkill {
        name,
        uri,
        directory,
        frontmatter,
        files,
    })
}

/// The frontmatter as the author wrote it, every field kept.
fn parse_frontmatter(text: &str) -> Result<Map<String, Value>, String> {
    let document = frontmatter::split(text).map_err(|_| "no frontmatter".to_owned())?;
    match serde_saphyr::from_str::<Value>(document.yaml) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err("the frontmatter is not a mapping".to_owned()),
        Err(err) => Err(format!("the frontmatter cannot be read: {err}")),
    }
}

/// Regular files below `directory` whose resolved path stays inside `root`:
/// dot-entries and nested skills are left out, directory symlinks are not
/// followed (no loops), and a file symlink counts only if it resolves inside.
fn list_files(root: &Path, directory: &Path, depth: usize, out: &mut Vec<(Vec<Vec<u8>>, PathBuf)>) {
    if depth > MAX_DEPTH || out.len() > MAX_FILES_PER_SKILL {
        return;
    }
    let Ok(entries) = fs::read_dir(directory) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let file_name = entry.file_name();
        if file_name.as_bytes().starts_with(b".") {
            continue;
        }
        let path = entry.path();
        let Ok(metadata) = fs::symlink_metadata(&path) else {
            continue;
        };
        if metadata.is_dir() {
            // A nested skill is served on its own, not as files of this one.
            if path.join("SKILL.md").exists() {
                continue;
            }
            list_files(root, &path, depth + 1, out);
            continue;
        }
        let Ok(resolved) = fs::canonicalize(&path) else {
            continue;
        };
        if !resolved.starts_with(root) || !fs::metadata(&resolved).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let Ok(relative) = path.strip_prefix(root) else {
            continue;
        };
        let segments = relative
            .iter()
            .map(|part| part.as_bytes().to_vec())
            .collect();
        out.push((segments, resolved));
    }
}

/// Why a listed file could not be served.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("no skill file at {0}")]
    NotFound(String),
    #[error("{0} changed on disk since it was listed")]
    Changed(String),
    #[error("cannot read {uri}: {source}")]
    Io { uri: String, source: io::Error },
}

/// The bytes of the listed file at exactly `uri`.
pub fn read(catalog: &Catalog, uri: &str) -> Result<Vec<u8>, ReadError> {
    let file = catalog
        .file(uri)
        .ok_or_else(|| ReadError::NotFound(uri.to_owned()))?;
    // Resolved again: a directory swapped for a symlink since the listing
    // would lead elsewhere.
    match fs::canonicalize(&file.path) {
        Ok(resolved) if resolved == file.path => {}
        _ => return Err(ReadError::Changed(uri.to_owned())),
    }
    read_confined(&file.path, MAX_RESOURCE_BYTES).map_err(|source| ReadError::Io {
        uri: uri.to_owned(),
        source,
    })
}

/// Opens without following a final symlink and without blocking (a FIFO),
/// refuses anything but a regular file with one name (a hard link's other
/// name may be outside the skill: its bytes are not the skill's to serve),
/// and reads at most `limit` bytes.
fn read_confined(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::MetadataExt;
    let file: File = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    if metadata.nlink() > 1 {
        return Err(io::Error::other(format!(
            "the file has {} hard links, and another may be outside the skill",
            metadata.nlink()
        )));
    }
    if metadata.len() > limit {
        return Err(io::Error::other(format!("larger than {limit} bytes")));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::other(format!("larger than {limit} bytes")));
    }
    Ok(bytes)
}

pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut text = String::with_capacity(71);
    text.push_str("sha256:");
    for byte in hash {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

/// Percent-encodes everything but RFC 3986's unreserved characters, so a
/// `/`, `%` or `..` in a name can never read as structure.
pub fn encode_segment(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for &byte in bytes {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            text.push(char::from(byte));
        } else {
            text.push_str(&format!("%{byte:02X}"));
        }
    }
    // A segment that is all dots would be a dot-segment once decoded.
    if !text.is_empty() && text.bytes().all(|byte| byte == b'.') {
        return text.replace('.', "%2E");
    }
    text
}

/// The MIME type for a file: Markdown, text, or bytes.
pub fn mime_type(uri: &str, bytes: &[u8]) -> &'static str {
    if std::str::from_utf8(bytes).is_err() {
        "application/octet-stream"
    } else if uri.ends_with(".md") {
        "text/markdown"
    } else {
        "text/plain"
    }
}

/// A cheap fingerprint of the trees (names, sizes, modification times),
/// to notice a change without reading or hashing any file.
pub fn fingerprint(paths: &[PathBuf]) -> u64 {
    let mut hasher = DefaultHasher::new();
    for path in paths {
        fingerprint_into(path, 0, &mut hasher);
    }
    hasher.finish()
}

fn fingerprint_into(path: &Path, depth: usize, hasher: &mut DefaultHasher) {
    let Ok(metadata) = fs::metadata(path) else {
        path.hash(hasher);
        0u8.hash(hasher);
        return;
    };
    path.hash(hasher);
    metadata.len().hash(hasher);
    metadata.modified().ok().hash(hasher);
    if metadata.is_dir() && depth < crate::skill::discover::MAX_DEPTH {
        let Ok(entries) = fs::read_dir(path) else {
            return;
        };
        let mut names: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        names.sort();
        for name in names.iter().take(100_000) {
            if fs::symlink_metadata(name).is_ok_and(|m| m.is_symlink()) {
                name.hash(hasher);
                fs::read_link(name).ok().hash(hasher);
                continue;
            }
            fingerprint_into(name, depth + 1, hasher);
        }
    }
}

/// Standard base64 with padding, for `resources/read` of binary files.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                text.push(char::from(ALPHABET[(n >> shift) as usize & 63]));
            } else {
                text.push('=');
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #30: a hard link inside a skill to a file outside it served
    /// the outside file's bytes. It is now neither listed nor served, even
    /// when made after the listing.
    #[test]
    fn a_hard_link_is_neither_listed_nor_served() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        fs::write(&secret, "outside bytes").unwrap();
        let skill = root.path().join("demo");
        fs::create_dir(&skill).unwrap();
        fs::write(
            skill.join("SKILL.md"),
            "---\nname: demo\ndescription: A demo skill. Use when testing.\n---\nbody\n",
        )
        .unwrap();
        fs::write(skill.join("notes.md"), "inside").unwrap();
        fs::hard_link(&secret, skill.join("linked.txt")).unwrap();
        let scan = scan(&[root.path().to_owned()]);
        let served = &scan.catalog.skills[0];
        let uris: Vec<&str> = served.files.iter().map(|file| file.uri.as_str()).collect();
        assert_eq!(uris, ["skill://demo/SKILL.md", "skill://demo/notes.md"]);
        assert_eq!(
            read(&scan.catalog, "skill://demo/notes.md").unwrap(),
            b"inside"
        );
        // A listed file replaced by a hard link to the outside file.
        fs::remove_file(skill.join("notes.md")).unwrap();
        fs::hard_link(&secret, skill.join("notes.md")).unwrap();
        let refused = read(&scan.catalog, "skill://demo/notes.md").unwrap_err();
        assert!(refused.to_string().contains("hard links"), "{refused}");
    }

    #[test]
    fn segments_are_encoded_so_nothing_reads_as_structure() {
        assert_eq!(encode_segment(b"guide.md"), "guide.md");
        assert_eq!(encode_segment(b"a b/c%"), "a%20b%2Fc%25");
        assert_eq!(encode_segment(b".."), "%2E%2E");
        assert_eq!(encode_segment(&[0xff]), "%FF");
    }

    proptest::proptest! {
        /// Whatever the bytes of a name, its encoding is one URI segment
        /// that decodes back to them and is never a dot-segment.
        #[test]
        fn an_encoded_segment_is_one_opaque_segment(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..40)) {
            let encoded = encode_segment(&bytes);
            proptest::prop_assert!(encoded.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)));
            proptest::prop_assert!(encoded != "." && encoded != "..");
            let mut decoded = Vec::new();
            let mut rest = encoded.as_bytes();
            while let Some((&first, tail)) = rest.split_first() {
                if first == b'%' {
                    let hex = std::str::from_utf8(&tail[..2]).unwrap();
                    decoded.push(u8::from_str_radix(hex, 16).unwrap());
                    rest = &tail[2..];
                } else {
                    decoded.push(first);
                    rest = tail;
                }
            }
            proptest::prop_assert_eq!(decoded, bytes);
        }
    }

    #[test]
    fn base64_matches_the_rfc_examples() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn digest_is_sha256_hex() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
