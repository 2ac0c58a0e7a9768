//! The `o200k_base` vocabulary as the build script laid it out: read in
//! place from the binary, so nothing is loaded or allocated at startup.

use super::vocab_hash::{KEY_BYTES, key_hash};

static TOKENS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_tokens.bin"));
/// Each token's start: read for a token longer than the index holds.
static STARTS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_starts.bin"));
/// Slots of 16 bytes, laid out by build.rs; aligned so that no slot
/// straddles two cache lines.
static INDEX: &Aligned<[u8]> = &Aligned {
    _line: [],
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/o200k_index.bin")),
};
/// The rank of every two-byte string, at `first * 256 + second`.
static PAIRS: &[u8; 1 << 18] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_pairs.bin"));

/// Bytes aligned to a cache line.
#[repr(C)]
struct Aligned<Bytes: ?Sized> {
    _line: [CacheLine; 0],
    bytes: Bytes,
}

#[repr(align(64))]
struct CacheLine;

/// The bits of a slot that hold its key: the token's first bytes and its
/// length.
const KEY_MASK: u128 = (1 << 104) - 1;

/// The `u32` at position `at` of a little-endian table.
fn read_u32(table: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&table[at * 4..at * 4 + 4]);
    u32::from_le_bytes(word)
}

/// The slot at position `at` of the index.
fn slot(at: usize) -> u128 {
    let mut word = [0u8; 16];
    word.copy_from_slice(&INDEX.bytes[at * 16..at * 16 + 16]);
    u128::from_le_bytes(word)
}

/// The bytes of the token of rank `rank`.
fn token_bytes(rank: u32) -> &'static [u8] {
    let rank = rank as usize;
    TOKENS
        .get(read_u32(STARTS, rank) as usize..read_u32(STARTS, rank + 1) as usize)
        .unwrap_or_default()
}

/// The length in bytes of the token of rank `rank`.
#[cfg(test)]
pub(super) fn token_len(rank: u32) -> usize {
    token_bytes(rank).len()
}

/// [`super::vocab_hash::index_key`] of `bytes` (at most 255 of them),
/// from fixed-width loads.
fn index_key(bytes: &[u8]) -> u128 {
    let low = super::load(&bytes[..bytes.len().min(8)]);
    let high = match bytes.len() {
        0..=8 => 0,
        len => super::load(&bytes[8..len.min(KEY_BYTES)]),
    };
    u128::from(low) | u128::from(high) << 64 | (bytes.len() as u128) << 96
}

/// The merge rank of the two bytes `first` and `second` as one token, or
/// `u32::MAX` when they are none: one load from a table.
pub(super) fn pair_rank(first: u8, second: u8) -> u32 {
    let at = (usize::from(first) << 8 | usize::from(second)) * 4;
    let mut word = [0u8; 4];
    word.copy_from_slice(&PAIRS[at..at + 4]);
    u32::from_le_bytes(word)
}

/// The merge rank of `bytes` when they are one token of the vocabulary.
/// A lower rank was learned earlier and merges first.
pub(super) fn rank(bytes: &[u8]) -> Option<u32> {
    // No token is that long (build.rs checks), and a length must fit
    // the key's byte.
    if bytes.is_empty() || bytes.len() >= 255 {
        return None;
    }
    let slots = INDEX.bytes.len() / 16;
    let key = index_key(bytes);
    let mut at = (key_hash(key) >> (64 - slots.trailing_zeros())) as usize;
    loop {
        let entry = slot(at);
        if entry == 0 {
            return None;
        }
        if entry & KEY_MASK == key {
            let rank = (entry >> 104) as u32 & 0x3_FFFF;
            if bytes.len() <= KEY_BYTES
                || token_bytes(rank).get(KEY_BYTES..) == bytes.get(KEY_BYTES..)
            {
                return Some(rank);
            }
        }
        at = (at + 1) & (slots - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_has_its_rank() {
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                let expected = rank(&[first, second]).unwrap_or(u32::MAX);
                assert_eq!(pair_rank(first, second), expected);
            }
        }
    }

    #[test]
    fn every_token_is_found_at_its_own_rank() {
        let count = STARTS.len() / 4 - 1;
        assert_eq!(count, 199_998, "o200k_base has 199,998 tokens");
        for rank in 0..count as u32 {
            assert_eq!(super::rank(token_bytes(rank)), Some(rank));
        }
    }

    #[test]
    fn the_fast_key_is_the_build_scripts() {
        for rank in 0..199_998 {
            let bytes = token_bytes(rank);
            assert_eq!(index_key(bytes), super::super::vocab_hash::index_key(bytes));
        }
        assert_eq!(rank(b""), None);
        assert_eq!(rank(&[b'a'; 300]), None);
    }

    #[test]
    fn single_bytes_are_tokens_and_other_bytes_may_not_be() {
        for byte in 0..=255u8 {
            assert!(rank(&[byte]).is_some(), "byte {byte} is a token");
        }
        assert_eq!(rank(b"hello"), Some(24912));
        assert_eq!(rank(b" world"), Some(2375));
        assert_eq!(rank(b"zqxjzqxjzqxj"), None);
    }
}
