//! A bound on the heap `aigent hook --client` may grow by while it answers.
//!
//! The alarm (`signals::answer_after`) bounds the answer's time; a line
//! that makes the parser allocate without end (brush-parser once looped on
//! `cat <<'' #` at hundreds of MB a second) would still exhaust memory
//! first, and a process killed for it sends no reply, which some clients
//! take as no objection. So the allocator counts what the answer allocates
//! and, past the bound, sends the same prepared refusal and exits.
//!
//! Counting is on only while a bound is set: otherwise each allocation
//! costs one relaxed load.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// The hook's heap bound: some thirty times what an answer over a
/// registry of a thousand declarations uses.
pub const DEFAULT_BOUND: usize = 512 * 1024 * 1024;

/// The system allocator, counting while a bound is set.
pub struct Bounded;

static ARMED: AtomicBool = AtomicBool::new(false);
/// Bytes allocated less bytes freed since the bound was set.
static GROWTH: AtomicIsize = AtomicIsize::new(0);
static LIMIT: AtomicIsize = AtomicIsize::new(isize::MAX);

/// From now on, growing the heap by more than `bytes` sends the prepared
/// refusal (see `signals::answer_prepared`) and exits.
pub fn bound(bytes: usize) {
    LIMIT.store(
        isize::try_from(bytes).unwrap_or(isize::MAX),
        Ordering::Relaxed,
    );
    GROWTH.store(0, Ordering::Relaxed);
    ARMED.store(true, Ordering::SeqCst);
}

/// Stops counting.
pub fn unbound() {
    ARMED.store(false, Ordering::SeqCst);
}

fn grew(bytes: usize) {
    if !ARMED.load(Ordering::Relaxed) {
        return;
    }
    // A layout's size is at most isize::MAX.
    let bytes = bytes as isize;
    let now = GROWTH
        .fetch_add(bytes, Ordering::Relaxed)
        .saturating_add(bytes);
    if now > LIMIT.load(Ordering::Relaxed) {
        ARMED.store(false, Ordering::SeqCst);
        // Writes bytes prepared before the bound was set and exits; it
        // allocates nothing.
        super::signals::answer_prepared();
    }
}

fn shrank(bytes: usize) {
    if ARMED.load(Ordering::Relaxed) {
        GROWTH.fetch_sub(bytes as isize, Ordering::Relaxed);
    }
}

// SAFETY: every call is passed to `System` unchanged; the counting around
// it touches only atomics and, past the bound, writes and exits without
// allocating.
unsafe impl GlobalAlloc for Bounded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's guarantees are System's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            shrank(layout.size() - new_size);
        }
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
