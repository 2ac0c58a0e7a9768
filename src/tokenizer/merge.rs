//! Byte-pair merging of one pre-tokenized piece: start from single bytes
//! and keep merging the adjacent pair whose joined bytes have the lowest
//! rank (the leftmost on a tie) until no pair is a token. This is the rule
//! the vocabulary was trained with, so the count equals OpenAI's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::vocab::rank;

/// Tokens in `piece` once merged. A piece that is itself one token (most
/// words) costs one lookup; otherwise a heap of candidate merges keeps the
/// work at O(n log n) in the piece's length, however long it is.
pub(super) fn count_piece(piece: &[u8]) -> usize {
    if piece.len() <= 1 || rank(piece).is_some() {
        return piece.len().min(1);
    }
    let len = piece.len();
    // Parts are a linked list over byte offsets: `end[start]` is where the
    // part starting at `start` ends, `prev[start]` where its left neighbor
    // starts. A start that has been merged away has `end == 0`.
    let mut end: Vec<usize> = (1..=len).collect();
    let mut prev: Vec<usize> = (0..len).map(|start| start.wrapping_sub(1)).collect();
    // Candidate merges: (rank, left start, right end). An entry is stale,
    // and skipped, when either part has changed since it was pushed.
    let mut candidates = BinaryHeap::with_capacity(len);
    for start in 0..len - 1 {
        if let Some(rank) = rank(&piece[start..start + 2]) {
            candidates.push(Reverse((rank, start, start + 2)));
        }
    }
    let mut parts = len;
    while let Some(Reverse((_, left, right_end))) = candidates.pop() {
        let middle = end[left];
        if middle == 0 || middle >= len || end[middle] != right_end {
            continue;
        }
        // Merge the right part into the left one.
        end[left] = right_end;
        end[middle] = 0;
        if right_end < len {
            prev[right_end] = left;
            if let Some(rank) = rank(&piece[left..end[right_end]]) {
                candidates.push(Reverse((rank, left, end[right_end])));
            }
        }
        if left > 0 {
            let before = prev[left];
            if let Some(rank) = rank(&piece[before..right_end]) {
                candidates.push(Reverse((rank, before, right_end)));
            }
        }
        parts -= 1;
    }
    parts
}
