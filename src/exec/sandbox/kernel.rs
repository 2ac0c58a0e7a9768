//! What the running kernel can enforce, asked once per process.

use std::sync::OnceLock;

/// The kernel's sandboxing features, as far as aigent uses them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Support {
    /// The Landlock ABI version; 0 when the kernel lacks Landlock or has
    /// it turned off.
    pub landlock_abi: u32,
    /// seccomp filters (`SECCOMP_SET_MODE_FILTER`) for this architecture.
    pub seccomp: bool,
}

impl Support {
    /// File-system rules (Landlock ABI 1).
    pub const FS_ABI: u32 = 1;
    /// `truncate` is restricted too (ABI 3): before it, a file that may be
    /// read could still be truncated, so writes are not fully confined.
    pub const TRUNCATE_ABI: u32 = 3;
    /// TCP bind and connect rules (ABI 4).
    pub const NET_ABI: u32 = 4;
    /// Signal and abstract UNIX socket scoping (ABI 6).
    pub const SCOPE_ABI: u32 = 6;

    /// The running kernel's support, probed on first use.
    pub fn current() -> Self {
        static SUPPORT: OnceLock<Support> = OnceLock::new();
        *SUPPORT.get_or_init(probe)
    }
}

#[cfg(target_os = "linux")]
fn probe() -> Support {
    Support {
        landlock_abi: landlock_abi(),
        seccomp: super::linux::seccomp_arch().is_some() && seccomp_filter_available(),
    }
}

#[cfg(not(target_os = "linux"))]
fn probe() -> Support {
    Support {
        landlock_abi: 0,
        seccomp: false,
    }
}

/// `landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)`:
/// the ABI version, or an error when Landlock is missing or disabled.
#[cfg(target_os = "linux")]
fn landlock_abi() -> u32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute pointer, size 0 and the VERSION flag the
    // kernel reads no memory; it returns a number or -1 with errno.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(version).unwrap_or(0)
}

/// `seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &SECCOMP_RET_ERRNO)`: whether
/// filters that return an errno can be installed.
#[cfg(target_os = "linux")]
fn seccomp_filter_available() -> bool {
    const SECCOMP_GET_ACTION_AVAIL: libc::c_uint = 2;
    const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
    let action: u32 = SECCOMP_RET_ERRNO;
    // SAFETY: the kernel reads one u32 from a pointer to a live local.
    let result = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            SECCOMP_GET_ACTION_AVAIL,
            0 as libc::c_uint,
            &action as *const u32,
        )
    };
    result == 0
}
