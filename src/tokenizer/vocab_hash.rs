//! The hashes that place a token in the vocabulary index, and the key a
//! slot holds. The build script (which lays the index out) and the
//! tokenizer (which probes it) both include this file, so the two can
//! never disagree.

/// The bytes of a token an index slot holds in full; a longer token's
/// rest is compared in the tokens table.
pub const KEY_BYTES: usize = 12;

/// A token's index key: its first [`KEY_BYTES`] bytes, little-endian and
/// zero-padded, with its length (at most 255) in bits 96-103. No token is
/// empty, so a key is never zero, which marks an empty slot. The library
/// makes keys with fixed-width loads instead, and its tests compare the
/// two on every token.
#[allow(dead_code)]
pub fn index_key(bytes: &[u8]) -> u128 {
    let mut buffer = [0u8; 16];
    let kept = bytes.len().min(KEY_BYTES);
    buffer[..kept].copy_from_slice(&bytes[..kept]);
    u128::from_le_bytes(buffer) | (bytes.len() as u128 & 0xFF) << 96
}

/// Where the probe for an index key starts: the key's two halves mixed
/// and multiplied, the top bits taken by the caller.
pub fn key_hash(key: u128) -> u64 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
    let folded = (key as u64)
        ^ ((key >> 64) as u64)
            .wrapping_mul(MULTIPLIER)
            .rotate_left(31);
    let hash = folded.wrapping_mul(MULTIPLIER);
    hash ^ (hash >> 29)
}

/// A 64-bit hash of `bytes`: eight bytes at a time, multiplied and folded.
/// Not keyed: the tables are built once, from a fixed vocabulary. (The
/// library's cache of long pieces; the build script no longer uses it.)
#[allow(dead_code)]
pub fn vocab_hash(bytes: &[u8]) -> u64 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut hash = 0xCBF2_9CE4_8422_2325 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut buffer = [0u8; 8];
        buffer.copy_from_slice(word);
        hash = (hash ^ u64::from_le_bytes(buffer)).wrapping_mul(MULTIPLIER);
        hash ^= hash >> 29;
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let mut buffer = [0u8; 8];
        buffer[..tail.len()].copy_from_slice(tail);
        hash = (hash ^ u64::from_le_bytes(buffer)).wrapping_mul(MULTIPLIER);
    }
    hash ^= hash >> 32;
    hash = hash.wrapping_mul(MULTIPLIER);
    hash ^ (hash >> 29)
}
