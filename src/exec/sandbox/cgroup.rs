//! A pids cgroup for each run, where aigent can make one: for root, whom
//! the kernel never holds to `RLIMIT_NPROC`, this is what bounds a fork
//! bomb. Used when the pids controller is writable: a cgroup v2 tree that
//! aigent's cgroup delegates `pids` to (the root of a container, or a
//! delegated unit), else cgroup v1's `pids` hierarchy.

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where this process makes its runs' cgroups, if anywhere.
fn base() -> Option<&'static Path> {
    static BASE: OnceLock<Option<PathBuf>> = OnceLock::new();
    BASE.get_or_init(find_base).as_deref()
}

/// Whether runs get a pids cgroup here.
pub fn available() -> bool {
    base().is_some()
}

fn find_base() -> Option<PathBuf> {
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let memberships = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let writable = |dir: &Path| rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).is_ok();
    // cgroup v2: aigent's own cgroup, if `pids` is enabled for its children.
    if let Some((root, point)) = mount_of(&mountinfo, |fstype, _| fstype == "cgroup2")
        && let Some(path) = memberships
            .lines()
            .find_map(|line| line.strip_prefix("0::"))
    {
        let dir = join(&point, &root, path);
        let delegated = std::fs::read_to_string(dir.join("cgroup.subtree_control"))
            .is_ok_and(|controllers| controllers.split_whitespace().any(|c| c == "pids"));
        if delegated && writable(&dir) {
            return Some(dir);
        }
    }
    // cgroup v1: the `pids` hierarchy.
    let (root, point) = mount_of(&mountinfo, |fstype, options| {
        fstype == "cgroup" && options.split(',').any(|option| option == "pids")
    })?;
    let path = memberships.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let _id = fields.next()?;
        let controllers = fields.next()?;
        let path = fields.next()?;
        controllers
            .split(',')
            .any(|controller| controller == "pids")
            .then_some(path)
    })?;
    let dir = join(&point, &root, path);
    (writable(&dir) && dir.join("cgroup.procs").exists()).then_some(dir)
}

/// The root within its hierarchy and the mount point of the first cgroup
/// mount that `matches` (file-system type, super options).
fn mount_of(mountinfo: &str, matches: impl Fn(&str, &str) -> bool) -> Option<(String, String)> {
    mountinfo.lines().find_map(|line| {
        let (before, after) = line.split_once(" - ")?;
        let fields: Vec<&str> = before.split(' ').collect();
        let mut rest = after.split(' ');
        let fstype = rest.next()?;
        let _source = rest.next()?;
        let options = rest.next().unwrap_or("");
        (fields.len() >= 5 && matches(fstype, options))
            .then(|| (unescape(fields[3]), unescape(fields[4])))
    })
}

/// mountinfo writes a space, tab, newline and backslash as octal escapes.
fn unescape(field: &str) -> String {
    field
        .replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\")
}

/// The directory of cgroup `path` under a mount at `point` of `root`.
fn join(point: &str, root: &str, path: &str) -> PathBuf {
    let relative = path
        .strip_prefix(root)
        .filter(|_| root != "/")
        .unwrap_or(path)
        .trim_start_matches('/');
    Path::new(point).join(relative)
}

/// One run's cgroup: removed when dropped (the run's processes have all
/// been reaped by then).
#[derive(Debug)]
pub struct RunCgroup {
    dir: PathBuf,
}

impl RunCgroup {
    /// A new cgroup holding at most `max` tasks, and its `cgroup.procs`,
    /// open for the child to write itself into.
    pub fn new(max: u64) -> io::Result<(Self, OwnedFd)> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = base().ok_or_else(|| io::Error::other("no pids cgroup is writable here"))?;
        let dir = base.join(format!(
            "aigent-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&dir)?;
        let cgroup = Self { dir };
        std::fs::write(cgroup.dir.join("pids.max"), max.to_string())?;
        let procs = std::fs::OpenOptions::new()
            .write(true)
            .open(cgroup.dir.join("cgroup.procs"))?;
        Ok((cgroup, procs.into()))
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        // A task that was just reaped may still be leaving the cgroup.
        for _ in 0..100 {
            match std::fs::remove_dir(&self.dir) {
                Err(err) if err.raw_os_error() == Some(libc::EBUSY) => {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                _ => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mounts_and_memberships_are_read_as_the_kernel_writes_them() {
        let mountinfo = "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n\
                         39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n\
                         41 31 0:38 /sub /sys/fs/cgroup/uni\\040fied rw - cgroup2 cgroup2 rw\n";
        let pids = mount_of(mountinfo, |fstype, options| {
            fstype == "cgroup" && options.split(',').any(|o| o == "pids")
        });
        assert_eq!(
            pids,
            Some(("/".to_owned(), "/sys/fs/cgroup/pids".to_owned()))
        );
        let v2 = mount_of(mountinfo, |fstype, _| fstype == "cgroup2").unwrap();
        assert_eq!(v2.1, "/sys/fs/cgroup/uni fied");
        assert_eq!(
            join(&v2.1, &v2.0, "/sub/user.slice"),
            Path::new("/sys/fs/cgroup/uni fied/user.slice")
        );
        assert_eq!(
            join("/sys/fs/cgroup/pids", "/", "/a/b"),
            Path::new("/sys/fs/cgroup/pids/a/b")
        );
    }
}
