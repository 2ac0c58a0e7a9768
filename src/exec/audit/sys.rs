//! Holding off SIGXFSZ around a write to the log. A write that passes the
//! file size limit (`ulimit -f`) raises SIGXFSZ, whose default action ends
//! the process; blocked, the write returns EFBIG instead. The signal is
//! blocked in the writing thread only and taken if the write raised it, so
//! neither other threads nor children (which inherit an ignored signal
//! across exec) see a changed disposition.

use libc::c_int;

pub fn without_file_size_signal<T>(write: impl FnOnce() -> T) -> T {
    // SAFETY: both sets are zeroed storage, `blocked` initialized by
    // sigemptyset before use; pthread_sigmask reads `blocked` and writes
    // `previous`.
    let (blocked, previous, masked) = unsafe {
        let mut blocked: libc::sigset_t = std::mem::zeroed();
        let mut previous: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut blocked);
        libc::sigaddset(&raw mut blocked, libc::SIGXFSZ);
        let masked =
            libc::pthread_sigmask(libc::SIG_BLOCK, &raw const blocked, &raw mut previous) == 0;
        (blocked, previous, masked)
    };
    let result = write();
    if !masked {
        return result;
    }
    // SAFETY: as above; sigpending writes `pending`, sigwait reads
    // `blocked` (holding only SIGXFSZ, which is pending, so it returns at
    // once) and writes `taken`.
    unsafe {
        let already_blocked = libc::sigismember(&raw const previous, libc::SIGXFSZ) == 1;
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut pending);
        if !already_blocked
            && libc::sigpending(&raw mut pending) == 0
            && libc::sigismember(&raw const pending, libc::SIGXFSZ) == 1
        {
            let mut taken: c_int = 0;
            libc::sigwait(&raw const blocked, &raw mut taken);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const previous, std::ptr::null_mut());
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_size_signal_raised_during_the_write_is_taken_not_delivered() {
        // On a thread of its own, so the test harness's threads are not involved.
        let survived = std::thread::spawn(|| {
            without_file_size_signal(|| {
                // SAFETY: pthread_kill to this very thread with a valid signal.
                unsafe { libc::pthread_kill(libc::pthread_self(), libc::SIGXFSZ) }
            });
            true
        })
        .join()
        .unwrap();
        assert!(survived);
    }
}
