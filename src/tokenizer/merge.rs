//! Byte-pair merging of one pre-tokenized piece: start from single bytes
//! and keep merging the adjacent pair whose joined bytes have the lowest
//! rank (the leftmost on a tie) until no pair is a token. This is the rule
//! the vocabulary was trained with, so the count equals OpenAI's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::vocab::{pair_rank, rank};

/// Tokens in `piece` once merged. A piece that is itself one token (most
/// words) costs one lookup; otherwise a heap of candidate merges keeps the
/// work at O(n log n) in the piece's length, however long it is.
///
/// A piece longer than [`Candidate::MAX_START`] bytes (64 MiB: no real
/// text has one, and the files aigent reads are capped at 1 MiB) is merged
/// in stretches of that size, which can differ from the exact count by a
/// token or so at each seam.
pub(super) fn count_piece(piece: &[u8]) -> usize {
    if piece.len() > Candidate::MAX_START {
        return piece.chunks(Candidate::MAX_START).map(count_piece).sum();
    }
    if piece.len() <= 1 || rank(piece).is_some() {
        return piece.len().min(1);
    }
    if piece.len() <= SHORT_PIECE {
        return count_short(piece);
    }
    count_long(piece)
}

/// The longest piece merged by [`count_short`]; nearly every piece of
/// prose and code is shorter.
const SHORT_PIECE: usize = 64;

/// No merge: a pair that is not a token.
const NO_RANK: u32 = u32::MAX;

/// [`count_piece`] for a piece of 2 to [`SHORT_PIECE`] bytes, in arrays on
/// the stack: each round merges the leftmost pair of lowest rank, which is
/// the order the heap of [`count_long`] pops them in, and looks up only
/// the two pairs the merge changed. The parts are a list linked through
/// their starts, so a merge moves nothing. Quadratic in the piece's
/// length, which is bounded; no allocation.
fn count_short(piece: &[u8]) -> usize {
    let len = piece.len();
    // For the part starting at `i`: `next[i]` is where the next part
    // starts (`len` after the last), `prev[i]` where the one before
    // starts, `ranks[i]` the rank of the two joined.
    let mut next = [0u8; SHORT_PIECE];
    let mut prev = [0u8; SHORT_PIECE];
    let mut ranks = [NO_RANK; SHORT_PIECE];
    for at in 0..len {
        next[at] = at as u8 + 1;
        prev[at] = at.wrapping_sub(1) as u8;
    }
    for at in 0..len - 1 {
        ranks[at] = pair_rank(piece[at], piece[at + 1]);
    }
    let joined = |from: usize, to: usize| rank(&piece[from..to]).unwrap_or(NO_RANK);
    let mut parts = len;
    while parts > 1 {
        let (mut best, mut left) = (NO_RANK, 0);
        let mut at = 0;
        while at < len {
            if ranks[at] < best {
                (best, left) = (ranks[at], at);
            }
            at = usize::from(next[at]);
        }
        if best == NO_RANK {
            break;
        }
        // The part after `left` joins it.
        let right = usize::from(next[left]);
        let after = usize::from(next[right]);
        next[left] = after as u8;
        parts -= 1;
        ranks[left] = if after < len {
            prev[after] = left as u8;
            joined(left, usize::from(next[after]))
        } else {
            NO_RANK
        };
        if left > 0 {
            let before = usize::from(prev[left]);
            ranks[before] = joined(before, after);
        }
    }
    parts
}

/// [`count_piece`] for a longer piece: a heap of candidate merges.
fn count_long(piece: &[u8]) -> usize {
    let len = piece.len();
    // Parts are a linked list over byte offsets: `end[start]` is where the
    // part starting at `start` ends, `prev[start]` where its left neighbor
    // starts. A start that has been merged away has `end == 0`. Offsets
    // fit in u32 (see above), which halves the lists' memory.
    let mut end: Vec<u32> = (1..=len as u32).collect();
    let mut prev: Vec<u32> = (0..len as u32).map(|start| start.wrapping_sub(1)).collect();
    // Candidate merges, packed so that the heap orders them by rank, then
    // by position (the leftmost of equal ranks merges first). An entry is
    // stale, and skipped, when either part has changed since it was pushed.
    let initial: Vec<Reverse<u64>> = (0..len - 1)
        .filter_map(|start| {
            let rank = rank(&piece[start..start + 2])?;
            Some(Reverse(Candidate::pack(rank, start, start + 2)))
        })
        .collect();
    let mut candidates = BinaryHeap::from(initial);
    let mut parts = len;
    while let Some(Reverse(packed)) = candidates.pop() {
        let (left, right_end) = Candidate::span(packed);
        let middle = end[left] as usize;
        if middle == 0 || middle >= len || end[middle] as usize != right_end {
            continue;
        }
        // Merge the right part into the left one.
        end[left] = right_end as u32;
        end[middle] = 0;
        if right_end < len {
            prev[right_end] = left as u32;
            let next_end = end[right_end] as usize;
            if let Some(rank) = rank(&piece[left..next_end]) {
                candidates.push(Reverse(Candidate::pack(rank, left, next_end)));
            }
        }
        if left > 0 {
            let before = prev[left] as usize;
            if let Some(rank) = rank(&piece[before..right_end]) {
                candidates.push(Reverse(Candidate::pack(rank, before, right_end)));
            }
        }
        parts -= 1;
    }
    parts
}

/// A candidate merge in one `u64`: the rank (18 bits: o200k has fewer than
/// 2^18 tokens), the left part's start (26 bits) and the joined span's
/// length (20 bits, far more than the longest token), from the top, so the
/// heap orders candidates by rank, then by position. Eight bytes instead
/// of a tuple's twenty-four keep a long piece's heap in cache: a 1 MB
/// piece merges in a quarter of the time, in half the memory.
struct Candidate;

impl Candidate {
    const START_BITS: u32 = 26;
    const SPAN_BITS: u32 = 20;
    const MAX_START: usize = 1 << Self::START_BITS;

    fn pack(rank: u32, start: usize, end: usize) -> u64 {
        (u64::from(rank) << (Self::START_BITS + Self::SPAN_BITS))
            | (start as u64) << Self::SPAN_BITS
            | (end - start) as u64
    }

    /// The left start and the right end.
    fn span(packed: u64) -> (usize, usize) {
        let start = (packed >> Self::SPAN_BITS) as usize & (Self::MAX_START - 1);
        let length = packed as usize & ((1 << Self::SPAN_BITS) - 1);
        (start, start + length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_unpacks_to_its_span_and_orders_by_rank_then_position() {
        let packed = Candidate::pack(
            199_997,
            Candidate::MAX_START - 1,
            Candidate::MAX_START + 127,
        );
        assert_eq!(
            Candidate::span(packed),
            (Candidate::MAX_START - 1, Candidate::MAX_START + 127)
        );
        assert!(Candidate::pack(5, 900, 902) < Candidate::pack(6, 0, 2));
        assert!(Candidate::pack(5, 3, 5) < Candidate::pack(5, 4, 6));
    }

    #[test]
    fn short_and_long_merging_agree() {
        let words = [
            &b" internationalization"[..],
            b"zqxjzqxjzqxj",
            b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            b"=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-",
            b"\xff\xfe\x00\x01",
            b"ab",
            b" Supercalifragilisticexpialidocious",
        ];
        for word in words {
            if word.len() >= 2 && word.len() <= SHORT_PIECE {
                assert_eq!(count_short(word), count_long(word), "{word:?}");
            }
        }
    }

    #[test]
    fn the_longest_token_fits_a_span() {
        let longest = (0..199_998).map(super::super::vocab::token_len).max();
        assert!(longest.is_some_and(|len| len < 1 << Candidate::SPAN_BITS));
    }
}
