//! Descriptors aigent inherited beyond stdin, stdout and stderr (an
//! agent's harness, a shell's `3>file`, a build tool's jobserver) are
//! marked close-on-exec before anything else runs, so no declared command,
//! hook child or server child inherits them (CLI Agent Spec REQ-F-071).
//! What aigent opens itself is close-on-exec already (Rust and rustix open
//! with `O_CLOEXEC`).

/// Marks every inherited descriptor above 2 close-on-exec. Called first
/// in `main`, while aigent has one thread, so no number listed here is
/// closed and reused by another thread before it is marked.
#[cfg(unix)]
pub fn keep_inherited_from_children() {
    const LISTING: &str = if cfg!(target_os = "linux") {
        "/proc/self/fd"
    } else {
        "/dev/fd"
    };
    // Without /proc (a bare container), nothing can be listed; children
    // still get nothing aigent opened.
    let Ok(entries) = std::fs::read_dir(LISTING) else {
        return;
    };
    let numbers: Vec<libc::c_int> = entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .filter(|number| *number > 2)
        .collect();
    // The listing's own descriptor is closed by now; fcntl answers EBADF
    // for it, and it is no inherited descriptor.
    let mut inherited = Vec::with_capacity(numbers.len());
    for number in numbers {
        // SAFETY: fcntl with F_GETFD/F_SETFD reads and sets one flag of a
        // descriptor number and touches no memory; a number that is not
        // open fails with EBADF. rustix's wrappers take a BorrowedFd, whose
        // contract (the descriptor stays open) a listed number cannot
        // promise, so the raw call is the honest one.
        unsafe {
            let flags = libc::fcntl(number, libc::F_GETFD);
            if flags < 0 {
                continue;
            }
            inherited.push(number);
            if flags & libc::FD_CLOEXEC == 0 {
                libc::fcntl(number, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
    // The sandbox passes a declaration's `pass_fds` only when aigent
    // inherited them: it learns here which those were.
    #[cfg(target_os = "linux")]
    aigent::exec::sandbox::remember_inherited(inherited);
    #[cfg(not(target_os = "linux"))]
    drop(inherited);
}

#[cfg(not(unix))]
pub fn keep_inherited_from_children() {}
