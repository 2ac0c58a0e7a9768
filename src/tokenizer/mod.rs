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

use pretokenize::Piece;

/// The number of `o200k_base` tokens in `text`.
///
/// Time is linear in the text, apart from a logarithmic factor for a single
/// piece that is not already a token (a long run of punctuation, say).
pub fn count_tokens(text: &str) -> usize {
    PIECE_COUNTS.with_borrow_mut(|cache| {
        let mut tally = Tally { cache, total: 0 };
        pretokenize::for_each_piece(text, &mut tally);
        tally.total
    })
}

/// Counts the pieces it is handed.
struct Tally<'c> {
    cache: &'c mut PieceCounts,
    total: usize,
}

impl<'a> pretokenize::PieceSink<'a> for &mut Tally<'_> {
    #[inline(always)]
    fn piece(&mut self, piece: Piece<'a>) {
        self.total += self.cache.count(piece);
    }
}

thread_local! {
    static PIECE_COUNTS: RefCell<PieceCounts> = RefCell::new(PieceCounts::new());
}

/// A cache from a short piece to its token count, four-way set
/// associative. A slot packs the piece's bytes (up to 15), its length (4
/// bits) and its count (at most its length, 4 bits) into one `u128`, so a
/// comparison is one 16-byte value; a set is one cache line. The length is
/// never zero, so an empty slot never matches. A new piece, or one found
/// further in, goes first in its set, and a new one drops the last: the
/// cache is a shortcut, never the source of a count. Without the move to
/// the front, common pieces drifted behind new ones and a lookup compared
/// more slots: 6% more CPU time on the real collection, 15% on 19 KB
/// bodies. (Direct-mapped, the cache missed 178,000 times
/// on the real collection, a quarter of them pieces it had dropped for
/// another; four ways miss about 30% less, at the same size.)
struct PieceCounts {
    /// Fixed-size, so that a set number needs no bounds check.
    sets: Box<[Set; 1 << PieceCounts::SET_BITS]>,
    /// Pieces of 16 to [`LongSlot::MAX_BYTES`] bytes, direct-mapped too:
    /// rules (`|-------|`, `──────`) and long words recur, and merging one
    /// costs a hundred times a lookup.
    long: Box<[LongSlot; 1 << PieceCounts::LONG_SLOT_BITS]>,
}

/// A long piece and its count; an empty slot has length 0, which no long
/// piece has.
/// Four slots of [`PieceCounts`], on one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Set([u128; 4]);

#[derive(Debug, Clone, Copy)]
struct LongSlot {
    bytes: [u8; LongSlot::MAX_BYTES],
    len: u8,
    /// At most the length.
    count: u8,
}

impl LongSlot {
    const MAX_BYTES: usize = 64;
    const EMPTY: Self = Self {
        bytes: [0; Self::MAX_BYTES],
        len: 0,
        count: 0,
    };
}

impl PieceCounts {
    /// 16,384 sets of four: 1 MiB per thread, enough for a skill
    /// collection's everyday words. (512 KiB took as much CPU time on
    /// the real collection and 3.5% more on 19 KB bodies.)
    const SET_BITS: u32 = 14;
    const MAX_KEY_BYTES: usize = 15;
    /// Where the count sits: the top four bits.
    const COUNT_SHIFT: u32 = 124;
    /// 1,024 long slots: 66 KiB per thread.
    const LONG_SLOT_BITS: u32 = 10;

    fn new() -> Self {
        let sets: Box<[Set]> = vec![Set([0; 4]); 1 << Self::SET_BITS].into_boxed_slice();
        let long: Box<[LongSlot]> =
            vec![LongSlot::EMPTY; 1 << Self::LONG_SLOT_BITS].into_boxed_slice();
        Self {
            sets: sets.try_into().expect("a slice of 1 << SET_BITS sets"),
            long: long
                .try_into()
                .expect("a slice of 1 << LONG_SLOT_BITS slots"),
        }
    }

    /// [`Self::count`] for a piece longer than [`Self::MAX_KEY_BYTES`].
    fn count_long(&mut self, piece: &[u8]) -> usize {
        if piece.len() > LongSlot::MAX_BYTES {
            return merge::count_piece(piece);
        }
        let hash = vocab_hash::vocab_hash(piece);
        let slot = &mut self.long[(hash >> (64 - Self::LONG_SLOT_BITS)) as usize];
        if usize::from(slot.len) == piece.len() && slot.bytes[..piece.len()] == *piece {
            return usize::from(slot.count);
        }
        let count = merge::count_piece(piece);
        slot.bytes[..piece.len()].copy_from_slice(piece);
        slot.len = piece.len() as u8;
        slot.count = count as u8;
        count
    }

    /// Called for every piece of every text: inlined into the
    /// pre-tokenizer's loop.
    #[inline(always)]
    fn count(&mut self, piece: Piece<'_>) -> usize {
        if piece.len() == 1 {
            // Every byte is a token of its own.
            return 1;
        }
        if piece.len() > Self::MAX_KEY_BYTES {
            return self.count_long(piece.bytes());
        }
        let key = pack_piece(piece);
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let set = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::SET_BITS)) as usize;
        let set = &mut self.sets[set].0;
        let count_mask = 0xF << Self::COUNT_SHIFT;
        if set[0] & !count_mask == key {
            return (set[0] >> Self::COUNT_SHIFT) as usize;
        }
        // Found further in, a piece moves to the front, where the next
        // lookup finds it first: the commonest pieces stay there.
        for way in 1..4 {
            let entry = set[way];
            if entry & !count_mask == key {
                set.copy_within(0..way, 1);
                set[0] = entry;
                return (entry >> Self::COUNT_SHIFT) as usize;
            }
        }
        let count = merge::count_piece(piece.bytes());
        set.copy_within(0..3, 1);
        set[0] = key | (count as u128) << Self::COUNT_SHIFT;
        count
    }
}

/// [`pack`] for a piece of at most 15 bytes: one 16-byte load, masked,
/// where the text around the piece allows it.
#[inline(always)]
fn pack_piece(piece: Piece<'_>) -> u128 {
    match piece.window() {
        Some(window) => window & KEEP[piece.len()] | (piece.len() as u128) << 120,
        None => pack(piece.bytes()),
    }
}

/// For a piece of `len` bytes (at most 15), the mask that keeps its bytes
/// of a 16-byte window: a load, where a shift of a `u128` by a variable
/// takes several instructions.
static KEEP: [u128; 16] = {
    let mut masks = [0u128; 16];
    let mut len = 0;
    while len < 16 {
        masks[len] = (1u128 << (len * 8)) - 1;
        len += 1;
    }
    masks
};

/// Up to 15 bytes, little-endian, with the length in the top byte's low
/// four bits. Loads
/// that overlap (the first and the last four bytes, say) put each byte in
/// its place without a byte-by-byte copy.
fn pack(piece: &[u8]) -> u128 {
    let low = piece.len().min(8);
    let high = if piece.len() > 8 {
        load(&piece[8..])
    } else {
        0
    };
    u128::from(load(&piece[..low])) | u128::from(high) << 64 | (piece.len() as u128) << 120
}

/// Up to 8 bytes as a little-endian integer.
fn load(bytes: &[u8]) -> u64 {
    let len = bytes.len();
    // Fixed widths, so that no copy becomes a call to `memcpy`.
    let two = |at: usize| u64::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    let four = |at: usize| {
        u64::from(u32::from_le_bytes([
            bytes[at],
            bytes[at + 1],
            bytes[at + 2],
            bytes[at + 3],
        ]))
    };
    match len {
        0 => 0,
        1 => u64::from(bytes[0]),
        2..=3 => two(0) | u64::from(bytes[len - 1]) << ((len - 1) * 8),
        4..=7 => four(0) | four(len - 4) << ((len - 4) * 8),
        _ => {
            let mut buffer = [0u8; 8];
            buffer.copy_from_slice(&bytes[..8]);
            u64::from_le_bytes(buffer)
        }
    }
}

#[cfg(test)]
mod tests;
