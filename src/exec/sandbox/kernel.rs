//! What the running kernel (and aigent's own privileges) can enforce,
//! asked once per process.

use std::sync::OnceLock;

/// Why there is no view off Linux (and how [`super::plan`] knows it is not
/// on Linux).
pub const NOT_LINUX: &str = "mount namespaces are Linux's";

/// How a child gets its read-only view of the file system (which stops
/// `chmod`, `chown`, `utime` and `*xattr` outside the write grants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSupport {
    /// aigent has CAP_SYS_ADMIN (root): a mount namespace directly.
    MountNamespace,
    /// A user namespace of the caller's own, then a mount namespace in it.
    UserNamespace,
    /// Neither; why.
    Unavailable(&'static str),
}

/// How the number of a run's processes is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessSupport {
    /// A pids cgroup of the run's own (root, where one can be made).
    Cgroup,
    /// `RLIMIT_NPROC` inside the run's user namespace, where it counts the
    /// run's processes only.
    UserNamespace,
    /// Neither; why.
    Unavailable(&'static str),
}

/// The kernel's sandboxing features, as far as aigent uses them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Support {
    /// The Landlock ABI version; 0 when the kernel lacks Landlock or has
    /// it turned off.
    pub landlock_abi: u32,
    /// seccomp filters (`SECCOMP_SET_MODE_FILTER`) for this architecture.
    pub seccomp: bool,
    pub view: ViewSupport,
    pub processes: ProcessSupport,
}

impl Support {
    /// File-system rules (Landlock ABI 1).
    pub const FS_ABI: u32 = 1;
    /// `truncate` is restricted too (ABI 3): before it, a file that may be
    /// read could still be truncated, so writes are not fully confined.
    pub const TRUNCATE_ABI: u32 = 3;
    /// TCP bind and connect rules (ABI 4).
    pub const NET_ABI: u32 = 4;
    /// `ioctl` on device files the child opens (ABI 5).
    pub const IOCTL_ABI: u32 = 5;
    /// Signal and abstract UNIX socket scoping (ABI 6).
    pub const SCOPE_ABI: u32 = 6;
    /// Connecting (and sending) to pathname UNIX sockets (ABI 9).
    pub const UNIX_ABI: u32 = 9;

    /// The running kernel's support, probed on first use.
    pub fn current() -> Self {
        static SUPPORT: OnceLock<Support> = OnceLock::new();
        *SUPPORT.get_or_init(probe)
    }

    /// Everything (for tests of what a full kernel enforces).
    pub const fn full(landlock_abi: u32) -> Self {
        Self {
            landlock_abi,
            seccomp: true,
            view: ViewSupport::MountNamespace,
            processes: ProcessSupport::Cgroup,
        }
    }
}

#[cfg(target_os = "linux")]
fn probe() -> Support {
    let seccomp = seccomp_arch().is_some() && seccomp_filter_available();
    let root = rustix::process::geteuid().is_root();
    let view = view_support(root);
    let processes = if root {
        if super::cgroup::available() {
            ProcessSupport::Cgroup
        } else {
            ProcessSupport::Unavailable(
                "aigent runs as root, for whom the kernel does not count processes against RLIMIT_NPROC, and no pids cgroup can be made here",
            )
        }
    } else if view == ViewSupport::UserNamespace {
        ProcessSupport::UserNamespace
    } else {
        ProcessSupport::Unavailable(
            "RLIMIT_NPROC counts all of the user's processes unless the run has a user namespace of its own, and none can be made here",
        )
    };
    Support {
        landlock_abi: landlock_abi(),
        seccomp,
        view,
        processes,
    }
}

#[cfg(not(target_os = "linux"))]
fn probe() -> Support {
    Support {
        landlock_abi: 0,
        seccomp: false,
        view: ViewSupport::Unavailable(NOT_LINUX),
        processes: ProcessSupport::Unavailable("not on Linux"),
    }
}

/// The seccomp architecture of this build, when seccompiler knows it.
#[cfg(target_os = "linux")]
pub fn seccomp_arch() -> Option<seccompiler::TargetArch> {
    seccompiler::TargetArch::try_from(std::env::consts::ARCH).ok()
}

/// Whether the child can make its read-only view, judged without trying:
/// the mount API needs Linux 5.12; a process that runs under a seccomp
/// filter of someone else's (a container's, another sandbox's) is usually
/// refused new namespaces; root needs CAP_SYS_ADMIN; anyone else needs
/// unprivileged user namespaces, which distributions can turn off. A
/// judgement that proves wrong makes the spawn fail (or, best-effort, the
/// run says it went without the view); it never goes unnoticed.
#[cfg(target_os = "linux")]
fn view_support(root: bool) -> ViewSupport {
    if !kernel_at_least(5, 12) {
        return ViewSupport::Unavailable("the mount API (mount_setattr) needs Linux 5.12");
    }
    if status_field("Seccomp:").is_some_and(|mode| mode != "0") {
        return ViewSupport::Unavailable(
            "aigent itself runs under a seccomp filter (a container's or another sandbox's), which refuses new namespaces",
        );
    }
    if root {
        return if has_sys_admin() {
            ViewSupport::MountNamespace
        } else {
            ViewSupport::Unavailable("aigent runs as root without CAP_SYS_ADMIN")
        };
    }
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|text| text.trim().to_owned())
    };
    if read("/proc/sys/user/max_user_namespaces").as_deref() == Some("0") {
        return ViewSupport::Unavailable(
            "user namespaces are turned off (user.max_user_namespaces = 0)",
        );
    }
    if read("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0") {
        return ViewSupport::Unavailable(
            "unprivileged user namespaces are turned off (kernel.unprivileged_userns_clone = 0)",
        );
    }
    if read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref() == Some("1") {
        return ViewSupport::Unavailable(
            "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)",
        );
    }
    ViewSupport::UserNamespace
}

#[cfg(target_os = "linux")]
fn kernel_at_least(major: u32, minor: u32) -> bool {
    let uname = rustix::system::uname();
    let release = uname.release().to_string_lossy();
    let mut parts = release
        .split(|ch: char| !ch.is_ascii_digit())
        .filter_map(|part| part.parse::<u32>().ok());
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    found >= (major, minor)
}

/// A field of `/proc/self/status`, as the process's first question found
/// it: the file is read once (the kernel writes all of it for each read),
/// and the fields asked (the main thread's seccomp mode, its effective
/// capabilities) do not change while aigent runs: only a server's
/// spawning threads load filters, and aigent never gains a capability.
#[cfg(target_os = "linux")]
fn status_field(name: &str) -> Option<String> {
    static STATUS: OnceLock<Option<String>> = OnceLock::new();
    STATUS
        .get_or_init(|| std::fs::read_to_string("/proc/self/status").ok())
        .as_deref()?
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .map(|value| value.trim().to_owned())
}

#[cfg(target_os = "linux")]
fn has_sys_admin() -> bool {
    const CAP_SYS_ADMIN: u32 = 21;
    status_field("CapEff:")
        .and_then(|hex| u64::from_str_radix(&hex, 16).ok())
        .is_some_and(|caps| caps & (1 << CAP_SYS_ADMIN) != 0)
}

/// The highest capability number the kernel knows.
#[cfg(target_os = "linux")]
pub fn last_capability() -> u32 {
    static LAST: OnceLock<u32> = OnceLock::new();
    *LAST.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(63)
    })
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

/// Whether this kernel runs x32 system calls (x86-64 only). When it does
/// not, their numbers need no rule of their own: the kernel refuses them
/// all. Asked only when aigent runs under no filter of anyone's, so that
/// the question cannot be answered by a filter killing aigent.
#[cfg(target_os = "linux")]
pub fn x32_enabled() -> bool {
    static X32: OnceLock<bool> = OnceLock::new();
    *X32.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            if status_field("Seccomp:").as_deref() != Some("0") {
                return true;
            }
            const X32_BIT: libc::c_long = 0x4000_0000;
            // SAFETY: getpid takes no arguments, through either ABI.
            let pid = unsafe { libc::syscall(libc::SYS_getpid | X32_BIT) };
            pid >= 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ENOSYS)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}
