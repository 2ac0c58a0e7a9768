//! Signed checkpoints: an Ed25519 signature over the chain head, written
//! into the log as an `AUDIT_CHECKPOINT` record at every rotation and
//! every N records, so that a chain rewritten before a checkpoint (every
//! hash recomputed) no longer matches a signature the rewriter cannot make.
//!
//! - The private key is read from the file `AIGENT_AUDIT_KEY_FILE` names
//!   (a regular file of our own, not readable by group or others), or from
//!   `AIGENT_AUDIT_KEY` itself. It is never printed, and wiped when dropped.
//! - A checkpoint at `seq` with `prev` (the hash of the line before it,
//!   which commits to every line before that) signs
//!   `aigent-audit-checkpoint-v1:{seq}:{prev}:{every}`: its place, the head
//!   it vouches for, and the promise that the next checkpoint comes within
//!   `every` records.
//! - Key files are text: a header line, then the key in hex.

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use sha2::{Digest, Sha256};

use super::record::AuditRecord;

/// The event of a checkpoint record.
pub use super::record::EVENT_AUDIT_CHECKPOINT as EVENT_CHECKPOINT;

/// The variable naming the private key's file.
pub const KEY_FILE_VARIABLE: &str = "AIGENT_AUDIT_KEY_FILE";
/// The variable holding the private key itself (a secrets manager's way).
pub const KEY_VARIABLE: &str = "AIGENT_AUDIT_KEY";
/// The variable setting N, the records between checkpoints.
pub const EVERY_VARIABLE: &str = "AIGENT_AUDIT_CHECKPOINT_EVERY";
/// N when [`EVERY_VARIABLE`] is not set.
pub const DEFAULT_EVERY: u64 = 100;

const PRIVATE_HEADER: &str = "aigent audit ed25519 private key v1";
const PUBLIC_HEADER: &str = "aigent audit ed25519 public key v1";

/// Where the signing key comes from, as the environment says; read when
/// the log is opened for writing.
#[derive(Clone, PartialEq, Eq)]
pub enum KeySource {
    File(PathBuf),
    /// The key text itself (from [`KEY_VARIABLE`]).
    Inline(String),
}

impl fmt::Debug for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File(path) => f.debug_tuple("File").field(path).finish(),
            Self::Inline(_) => f.write_str("Inline([redacted])"),
        }
    }
}

/// Checkpoints asked for: the key's source, and N.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signing {
    pub key: KeySource,
    pub every: u64,
}

/// Why the signing key or a public key cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("cannot read the audit key {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("{what} is not an aigent audit key: {why}")]
    Malformed { what: String, why: &'static str },
    #[error(
        "the audit signing key {path} can be read by group or others (mode {mode:o}); chmod 600 it"
    )]
    Exposed { path: PathBuf, mode: u32 },
    #[error("{EVERY_VARIABLE}={value:?} is not a number of records (1 or more)")]
    BadEvery { value: String },
    #[error("cannot make a key: the system's random source failed: {0}")]
    Random(String),
    #[error("{path} exists; refusing to overwrite a key")]
    Exists { path: PathBuf },
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: io::Error },
}

impl Signing {
    /// The checkpoint settings from the environment (`lookup`), if a key is
    /// named; empty variables count as unset.
    pub fn from_lookup(
        lookup: &impl Fn(&str) -> Option<OsString>,
    ) -> Result<Option<Self>, KeyError> {
        let set = |name: &str| lookup(name).filter(|value| !value.is_empty());
        let key = if let Some(text) = set(KEY_VARIABLE) {
            KeySource::Inline(text.to_string_lossy().into_owned())
        } else if let Some(path) = set(KEY_FILE_VARIABLE) {
            KeySource::File(PathBuf::from(path))
        } else {
            return Ok(None);
        };
        let every = match set(EVERY_VARIABLE) {
            None => DEFAULT_EVERY,
            Some(value) => {
                let value = value.to_string_lossy().into_owned();
                match value.trim().parse::<u64>() {
                    Ok(every) if every > 0 => every,
                    _ => return Err(KeyError::BadEvery { value }),
                }
            }
        };
        Ok(Some(Self { key, every }))
    }

    /// Reads the key.
    pub fn load(&self) -> Result<CheckpointSigner, KeyError> {
        let key = match &self.key {
            KeySource::Inline(text) => parse_private(text, KEY_VARIABLE)?,
            KeySource::File(path) => {
                let text = read_private_file(path)?;
                parse_private(&text, &path.display().to_string())?
            }
        };
        Ok(CheckpointSigner {
            key_id: key_id(&key.verifying_key()),
            key,
            every: self.every,
        })
    }
}

/// A loaded signing key and N.
pub struct CheckpointSigner {
    key: SigningKey,
    key_id: String,
    pub every: u64,
}

impl fmt::Debug for CheckpointSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signer")
            .field("key_id", &self.key_id)
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

/// Why a checkpoint record is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Interval,
    Rotation,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Interval => "interval",
            Self::Rotation => "rotation",
        }
    }
}

impl CheckpointSigner {
    /// From a key in memory (tests, benchmarks).
    pub fn from_key(key: SigningKey, every: u64) -> Self {
        Self {
            key_id: key_id(&key.verifying_key()),
            key,
            every,
        }
    }

    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// The checkpoint record that goes at `seq`, after the line whose hash
    /// is `prev`.
    pub fn checkpoint(&self, seq: u64, prev: &str, reason: Reason) -> AuditRecord {
        let signature = self.key.sign(&message(seq, prev, self.every));
        AuditRecord::new(EVENT_CHECKPOINT, "audit")
            .with("reason", reason.as_str())
            .with("every", self.every)
            .with("key_id", self.key_id.clone())
            .with("signature", hex(&signature.to_bytes()))
    }
}

/// What a checkpoint signs.
fn message(seq: u64, prev: &str, every: u64) -> Vec<u8> {
    format!("aigent-audit-checkpoint-v1:{seq}:{prev}:{every}").into_bytes()
}

/// The first 16 hex digits of the SHA-256 of the public key: which key
/// signed, without printing it whole.
pub fn key_id(key: &VerifyingKey) -> String {
    hex(&Sha256::digest(key.as_bytes())[..8])
}

/// A public key, for `verify --public-key`.
#[derive(Debug, Clone)]
pub struct PublicKey {
    key: VerifyingKey,
    key_id: String,
}

impl PublicKey {
    pub fn read(path: &Path) -> Result<Self, KeyError> {
        let text = read_bounded(path).map_err(|source| KeyError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The header line (optional) and 64 hex digits.
    pub fn parse(text: &str, what: &str) -> Result<Self, KeyError> {
        let malformed = |why| KeyError::Malformed {
            what: what.to_owned(),
            why,
        };
        if text.contains(PRIVATE_HEADER) {
            return Err(malformed(
                "it is the private key; give the public one (KEY.pub)",
            ));
        }
        let bytes: [u8; 32] = key_bytes(text, PUBLIC_HEADER)
            .ok_or_else(|| malformed("expected 64 hex digits after its header line"))?;
        let key = VerifyingKey::from_bytes(&bytes)
            .map_err(|_| malformed("the 32 bytes are not an Ed25519 public key"))?;
        Ok(Self {
            key_id: key_id(&key),
            key,
        })
    }

    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// Checks one checkpoint record's fields (`seq` and `prev` are its
    /// own); `Err` says what is wrong, in words.
    pub fn check(
        &self,
        seq: u64,
        prev: &str,
        record: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<u64, CheckpointFault> {
        let text = |key: &str| record.get(key).and_then(serde_json::Value::as_str);
        let every = record
            .get("every")
            .and_then(serde_json::Value::as_u64)
            .filter(|every| *every > 0)
            .ok_or(CheckpointFault::Malformed("no `every` of 1 or more"))?;
        let signed_by = text("key_id").ok_or(CheckpointFault::Malformed("no `key_id`"))?;
        if signed_by != self.key_id {
            return Err(CheckpointFault::OtherKey(
                signed_by.chars().take(64).collect(),
            ));
        }
        let signature = text("signature").ok_or(CheckpointFault::Malformed("no `signature`"))?;
        let bytes =
            unhex(signature).ok_or(CheckpointFault::Malformed("the signature is not hex"))?;
        if bytes.len() != 64 {
            return Err(CheckpointFault::Length(signature.len()));
        }
        let signature = Signature::from_slice(&bytes)
            .map_err(|_| CheckpointFault::Malformed("not a signature"))?;
        self.key
            .verify(&message(seq, prev, every), &signature)
            .map_err(|_| CheckpointFault::Mismatch)?;
        Ok(every)
    }
}

/// What is wrong with a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointFault {
    Malformed(&'static str),
    /// Signed by another key (its id).
    OtherKey(String),
    /// The signature has this many hex digits, not 128.
    Length(usize),
    /// The signature does not match the head it is over.
    Mismatch,
}

/// A new key pair, from the system's random source.
pub fn generate() -> Result<SigningKey, KeyError> {
    let mut seed = zeroize::Zeroizing::new([0u8; 32]);
    getrandom::fill(seed.as_mut()).map_err(|err| KeyError::Random(err.to_string()))?;
    Ok(SigningKey::from_bytes(&seed))
}

/// Writes `key` to `path` (created mode 0600, never replacing a file) and
/// its public half to `path.pub`; returns the public key's path and id.
pub fn write_key_pair(key: &SigningKey, path: &Path) -> Result<(PathBuf, String), KeyError> {
    let public_path = {
        let mut name = path.as_os_str().to_os_string();
        name.push(".pub");
        PathBuf::from(name)
    };
    for existing in [path, public_path.as_path()] {
        if existing.symlink_metadata().is_ok() {
            return Err(KeyError::Exists {
                path: existing.to_path_buf(),
            });
        }
    }
    let secret = zeroize::Zeroizing::new(format!("{PRIVATE_HEADER}\n{}\n", hex(key.as_bytes())));
    write_new(path, secret.as_bytes(), 0o600)?;
    let public = key.verifying_key();
    let text = format!("{PUBLIC_HEADER}\n{}\n", hex(public.as_bytes()));
    write_new(&public_path, text.as_bytes(), 0o644)?;
    Ok((public_path, key_id(&public)))
}

/// Creates `path` (it must not exist) with `mode` from the start.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> Result<(), KeyError> {
    use std::io::Write;
    let failed = |source| KeyError::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode).custom_flags(libc::O_NOFOLLOW);
    }
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = options.open(path).map_err(|source| {
        if source.kind() == io::ErrorKind::AlreadyExists {
            KeyError::Exists {
                path: path.to_path_buf(),
            }
        } else {
            failed(source)
        }
    })?;
    file.write_all(bytes).map_err(failed)?;
    file.sync_all().map_err(failed)
}

/// A private key file: a regular file (no symlink, no FIFO) that group and
/// others cannot read, at most 4 KiB.
fn read_private_file(path: &Path) -> Result<String, KeyError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let metadata = path.metadata().map_err(|source| KeyError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let mode = metadata.permissions().mode() & 0o777;
        if metadata.is_file() && mode & 0o077 != 0 {
            return Err(KeyError::Exposed {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    read_bounded(path).map_err(|source| KeyError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// A small text file, opened without blocking on a FIFO.
fn read_bounded(path: &Path) -> io::Result<String> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let mut text = String::new();
    file.take(4096).read_to_string(&mut text)?;
    Ok(text)
}

fn parse_private(text: &str, what: &str) -> Result<SigningKey, KeyError> {
    let seed: zeroize::Zeroizing<[u8; 32]> = zeroize::Zeroizing::new(
        key_bytes(text, PRIVATE_HEADER).ok_or_else(|| KeyError::Malformed {
            what: what.to_owned(),
            why: "expected the private key `aigent audit key new` writes (64 hex digits after its header line)",
        })?,
    );
    Ok(SigningKey::from_bytes(&seed))
}

/// The 32 bytes of a key text: an optional `header` line, then 64 hex
/// digits; blank lines and surrounding space are ignored.
fn key_bytes(text: &str, header: &str) -> Option<[u8; 32]> {
    let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty());
    let mut first = lines.next()?;
    if first == header {
        first = lines.next()?;
    }
    if lines.next().is_some() {
        return None;
    }
    unhex(first)?.try_into().ok()
}

pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut text, byte| {
            let _ = write!(text, "{byte:02x}");
            text
        })
}

/// Lowercase or uppercase hex; `None` for anything else or an odd length.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    let digit = |byte: u8| (byte as char).to_digit(16);
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes
        .chunks(2)
        .map(|pair| u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> SigningKey {
        SigningKey::from_bytes(&[7; 32])
    }

    #[test]
    fn checkpoints_verify_with_the_public_key_only() {
        let signer = CheckpointSigner::from_key(key(), 10);
        let prev = super::super::chain::genesis();
        let record = signer.checkpoint(5, &prev, Reason::Interval).to_json();
        let object = record.as_object().unwrap();
        let public = PublicKey::parse(&hex(key().verifying_key().as_bytes()), "k").unwrap();
        assert_eq!(public.check(5, &prev, object), Ok(10));
        assert_eq!(
            public.check(6, &prev, object),
            Err(CheckpointFault::Mismatch)
        );
        let other = super::super::chain::line_hash(b"x");
        assert_eq!(
            public.check(5, &other, object),
            Err(CheckpointFault::Mismatch)
        );
        let mut cut = object.clone();
        let signature = cut["signature"].as_str().unwrap()[..100].to_owned();
        cut.insert("signature".into(), signature.into());
        assert_eq!(
            public.check(5, &prev, &cut),
            Err(CheckpointFault::Length(100))
        );
        let mut stretched = object.clone();
        stretched.insert("every".into(), 1000.into());
        assert_eq!(
            public.check(5, &prev, &stretched),
            Err(CheckpointFault::Mismatch)
        );
        let stranger = SigningKey::from_bytes(&[8; 32]).verifying_key();
        let wrong = PublicKey::parse(&hex(stranger.as_bytes()), "k").unwrap();
        assert!(matches!(
            wrong.check(5, &prev, object),
            Err(CheckpointFault::OtherKey(_))
        ));
    }

    #[test]
    fn key_pairs_are_written_privately_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.key");
        let (public_path, id) = write_key_pair(&key(), &path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        assert!(matches!(
            write_key_pair(&key(), &path),
            Err(KeyError::Exists { .. })
        ));
        let public = PublicKey::read(&public_path).unwrap();
        assert_eq!(public.key_id(), id);
        assert!(
            PublicKey::read(&path).is_err(),
            "the private key is no public key"
        );
        let signing = Signing {
            key: KeySource::File(path.clone()),
            every: 3,
        };
        assert_eq!(signing.load().unwrap().key_id(), id);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert!(matches!(signing.load(), Err(KeyError::Exposed { .. })));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let inline = Signing {
            key: KeySource::Inline(text.clone()),
            every: 3,
        };
        assert_eq!(inline.load().unwrap().key_id(), id);
        assert!(!format!("{inline:?}").contains(&text[40..60]));
        for bad in ["", "zz", &"a".repeat(63), &"a".repeat(66)] {
            let source = Signing {
                key: KeySource::Inline(bad.to_owned()),
                every: 3,
            };
            assert!(source.load().is_err(), "{bad}");
        }
    }

    #[test]
    fn settings_come_from_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| OsString::from(value))
            }
        };
        assert_eq!(Signing::from_lookup(&env(&[])).unwrap(), None);
        let file = Signing::from_lookup(&env(&[(KEY_FILE_VARIABLE, "/k")]))
            .unwrap()
            .unwrap();
        assert_eq!(
            (file.key, file.every),
            (KeySource::File("/k".into()), DEFAULT_EVERY)
        );
        let every = Signing::from_lookup(&env(&[(KEY_VARIABLE, "x"), (EVERY_VARIABLE, "7")]))
            .unwrap()
            .unwrap();
        assert_eq!(every.every, 7);
        assert!(Signing::from_lookup(&env(&[(KEY_VARIABLE, "x"), (EVERY_VARIABLE, "0")])).is_err());
    }
}
