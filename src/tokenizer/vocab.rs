//! The `o200k_base` vocabulary as the build script laid it out: read in
//! place from the binary, so nothing is loaded or allocated at startup.

use super::vocab_hash::vocab_hash;

static TOKENS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_tokens.bin"));
static STARTS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_starts.bin"));
static INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_index.bin"));

/// An index slot that holds no token.
const EMPTY: u32 = u32::MAX;

/// The `u32` at position `at` of a little-endian table.
fn read_u32(table: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&table[at * 4..at * 4 + 4]);
    u32::from_le_bytes(word)
}

/// The bytes of the token of rank `rank`.
fn token_bytes(rank: u32) -> &'static [u8] {
    let rank = rank as usize;
    &TOKENS[read_u32(STARTS, rank) as usize..read_u32(STARTS, rank + 1) as usize]
}

/// The length in bytes of the token of rank `rank`.
#[cfg(test)]
pub(super) fn token_len(rank: u32) -> usize {
    token_bytes(rank).len()
}

/// The merge rank of `bytes` when they are one token of the vocabulary.
/// A lower rank was learned earlier and merges first.
pub(super) fn rank(bytes: &[u8]) -> Option<u32> {
    let slots = INDEX.len() / 4;
    let mut slot = vocab_hash(bytes) as usize & (slots - 1);
    loop {
        let rank = read_u32(INDEX, slot);
        if rank == EMPTY {
            return None;
        }
        if token_bytes(rank) == bytes {
            return Some(rank);
        }
        slot = (slot + 1) & (slots - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
