//! Exact token counts in OpenAI's `o200k_base` encoding (the GPT-4o
//! family's), for token budgets.
//!
//! The counts equal those of OpenAI's tiktoken and of the `bpe-openai`
//! crate, which the tests use as the reference. The vocabulary is compiled
//! in as flat tables (see `build.rs`) and read in place, so counting costs
//! no startup time, no memory beyond a small cache, and no network.
//!
//! Counting runs in two steps, pre-tokenization ([`pretokenize`]) and then
//! byte-pair merging of each piece ([`merge`]). Prose repeats its pieces
//! (words with their leading space), so each thread remembers the counts
//! of recent short pieces.

mod merge;
mod pretokenize;
mod vocab;
mod vocab_hash;

use std::cell::RefCell;

/// The number of `o200k_base` tokens in `text`.
///
/// Time is linear in the text, apart from a logarithmic factor for a single
/// piece that is not already a token (a long run of punctuation, say).
pub fn count_tokens(text: &str) -> usize {
    PIECE_COUNTS.with_borrow_mut(|cache| {
        let mut total = 0;
        pretokenize::for_each_piece(text, |piece| total += cache.count(piece));
        total
    })
}

thread_local! {
    static PIECE_COUNTS: RefCell<PieceCounts> = RefCell::new(PieceCounts::new());
}

/// A direct-mapped cache from a short piece to its token count. A slot's
/// key packs up to 15 bytes with the length in the 16th, so a key is never
/// zero and an empty slot never matches. A collision simply replaces the
/// slot: the cache is a shortcut, never the source of a count.
struct PieceCounts {
    slots: Box<[(u128, u32)]>,
}

impl PieceCounts {
    /// 16,384 slots: 512 KiB per thread, enough for a skill's vocabulary.
    const SLOTS: usize = 1 << 14;
    const MAX_KEY_BYTES: usize = 15;

    fn new() -> Self {
        Self {
            slots: vec![(0, 0); Self::SLOTS].into_boxed_slice(),
        }
    }

    fn count(&mut self, piece: &[u8]) -> usize {
        if piece.len() == 1 {
            // Every byte is a token of its own.
            return 1;
        }
        if piece.len() > Self::MAX_KEY_BYTES {
            return merge::count_piece(piece);
        }
        let mut key = [0u8; 16];
        key[..piece.len()].copy_from_slice(piece);
        key[15] = piece.len() as u8;
        let key = u128::from_le_bytes(key);
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let slot = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize;
        let (slot_key, slot_count) = &mut self.slots[slot];
        if *slot_key != key {
            *slot_key = key;
            *slot_count = merge::count_piece(piece) as u32;
        }
        *slot_count as usize
    }
}

#[cfg(test)]
mod tests;
