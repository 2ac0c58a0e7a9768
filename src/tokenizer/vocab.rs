//! The `o200k_base` vocabulary as the build script laid it out: read in
//! place from the binary, so nothing is loaded or allocated at startup.

use super::vocab_hash::vocab_hash;

static TOKENS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_tokens.bin"));
/// Each token's start (only the tests read tokens by rank).
#[cfg(test)]
static STARTS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_starts.bin"));
static INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_index.bin"));
/// The rank of every two-byte string, at `first * 256 + second`.
static PAIRS: &[u8; 1 << 18] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_pairs.bin"));

/// An index slot that holds no token.
const EMPTY: u64 = u64::MAX;

/// The `u32` at position `at` of a little-endian table.
#[cfg(test)]
fn read_u32(table: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&table[at * 4..at * 4 + 4]);
    u32::from_le_bytes(word)
}

/// The `u64` at position `at` of a little-endian table.
fn read_u64(table: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&table[at * 8..at * 8 + 8]);
    u64::from_le_bytes(word)
}

/// The bytes of the token of rank `rank`.
#[cfg(test)]
fn token_bytes(rank: u32) -> &'static [u8] {
    let rank = rank as usize;
    &TOKENS[read_u32(STARTS, rank) as usize..read_u32(STARTS, rank + 1) as usize]
}

/// The length in bytes of the token of rank `rank`.
#[cfg(test)]
pub(super) fn token_len(rank: u32) -> usize {
    token_bytes(rank).len()
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
    let slots = INDEX.len() / 8;
    let hash = vocab_hash(bytes);
    // The slot's layout is build.rs's: start, length, rank, hash tag.
    let wanted = (hash >> 50) << 50 | (bytes.len() as u64) << 24;
    let checked = !0u64 << 50 | 0xFF << 24;
    let mut slot = hash as usize & (slots - 1);
    loop {
        let entry = read_u64(INDEX, slot);
        if entry == EMPTY {
            return None;
        }
        if entry & checked == wanted {
            let start = (entry & 0xFF_FFFF) as usize;
            if TOKENS
                .get(start..start + bytes.len())
                .is_some_and(|token| same_bytes(token, bytes))
            {
                return Some((entry >> 32) as u32 & 0x3_FFFF);
            }
        }
        slot = (slot + 1) & (slots - 1);
    }
}

/// Whether two byte strings of the same length are equal: up to eight
/// bytes in one comparison of words, without a call to `memcmp`.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() <= 8 {
        super::load(a) == super::load(b)
    } else {
        a == b
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
    fn single_bytes_are_tokens_and_other_bytes_may_not_be() {
        for byte in 0..=255u8 {
            assert!(rank(&[byte]).is_some(), "byte {byte} is a token");
        }
        assert_eq!(rank(b"hello"), Some(24912));
        assert_eq!(rank(b" world"), Some(2375));
        assert_eq!(rank(b"zqxjzqxjzqxj"), None);
    }
}
