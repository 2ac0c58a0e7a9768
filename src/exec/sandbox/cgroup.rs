//! A pids cgroup for each run, where aigent can make one: for root, whom
//! the kernel never holds to `RLIMIT_NPROC`, this is what bounds a fork
//! bomb. Used where the pids controller is at its usual place and
//! writable: cgroup v1's `pids` hierarchy (the child moves its one thread
//! in through `tasks`, which takes no lock on every thread group of the
//! system: through `cgroup.procs` the move waits for an RCU grace period,
//! about 10 ms), or a cgroup v2 tree that aigent's cgroup delegates `pids`
//! to (the root of a container).

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where this process makes its runs' cgroups, and the file a task joins
/// one through.
struct Base {
    dir: PathBuf,
    join: &'static str,
}

fn base() -> Option<&'static Base> {
    static BASE: OnceLock<Option<Base>> = OnceLock::new();
    BASE.get_or_init(find_base).as_ref()
}

/// Whether runs get a pids cgroup here.
pub fn available() -> bool {
    base().is_some()
}

const CGROUP_SUPER_MAGIC: i64 = 0x0027_e0eb;
const CGROUP2_SUPER_MAGIC: i64 = 0x6367_7270;

/// Whether `dir` is the root of a mount of the cgroup file system `magic`.
fn is_cgroup(dir: &Path, magic: i64) -> bool {
    // `f_type` is an i64 on x86-64 but narrower on other architectures.
    #[allow(clippy::useless_conversion)]
    rustix::fs::statfs(dir).is_ok_and(|fs| i64::from(fs.f_type) == magic)
}

fn find_base() -> Option<Base> {
    let memberships = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let writable = |dir: &Path| rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).is_ok();
    let root = Path::new("/sys/fs/cgroup");
    // cgroup v2: aigent's own cgroup, if `pids` is enabled for its children.
    if is_cgroup(root, CGROUP2_SUPER_MAGIC)
        && let Some(path) = memberships
            .lines()
            .find_map(|line| line.strip_prefix("0::"))
    {
        let dir = root.join(path.trim_start_matches('/'));
        let delegated = std::fs::read_to_string(dir.join("cgroup.subtree_control"))
            .is_ok_and(|controllers| controllers.split_whitespace().any(|c| c == "pids"));
        if delegated && writable(&dir) {
            return Some(Base {
                dir,
                join: "cgroup.procs",
            });
        }
    }
    // cgroup v1: the `pids` hierarchy.
    let hierarchy = root.join("pids");
    if !is_cgroup(&hierarchy, CGROUP_SUPER_MAGIC) {
        return None;
    }
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
    let dir = hierarchy.join(path.trim_start_matches('/'));
    (writable(&dir) && dir.join("tasks").exists()).then_some(Base { dir, join: "tasks" })
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
        let dir = base.dir.join(format!(
            "aigent-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&dir)?;
        let cgroup = Self { dir };
        std::fs::write(cgroup.dir.join("pids.max"), max.to_string())?;
        let procs = std::fs::OpenOptions::new()
            .write(true)
            .open(cgroup.dir.join(base.join))?;
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
    fn a_run_s_cgroup_bounds_its_tasks_and_goes_with_it() {
        if !available() {
            eprintln!("skipped: no writable pids cgroup here");
            return;
        }
        let (cgroup, join) = RunCgroup::new(7).unwrap();
        let dir = cgroup.dir.clone();
        assert_eq!(
            std::fs::read_to_string(dir.join("pids.max"))
                .unwrap()
                .trim(),
            "7"
        );
        drop(join);
        drop(cgroup);
        assert!(!dir.exists());
    }
}
