//! The hash that places a token's bytes in the vocabulary index. The build
//! script (which lays the index out) and the tokenizer (which probes it)
//! both include this file, so the two can never disagree.

/// A 64-bit hash of `bytes`: eight bytes at a time, multiplied and folded.
/// Not keyed: the index is built once, from a fixed vocabulary.
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
