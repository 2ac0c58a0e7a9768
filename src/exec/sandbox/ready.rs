//! Sandboxes made ready before they are needed, for a server (`aigent mcp
//! serve`) that runs the same commands again and again.
//!
//! Two costs of a sandboxed spawn are moved off the call's way:
//!
//! - **The large seccomp filter.** The kernel checks and compiles a filter
//!   each time one is loaded (a fifth of a millisecond for the large one).
//!   A server loads it once, on a spawning thread of its own for each
//!   filter set (network setting and UNIX sockets), which then spawns
//!   every child with that set: a process inherits its creator's filters,
//!   so the child loads only the small late filter after its own way to
//!   exec (its view and session) is done. The thread runs nothing but
//!   aigent's spawn, with every signal blocked.
//! - **The run's `$TMP` and Landlock ruleset.** After a run, a background
//!   thread makes a new private `$TMP` for the next run of the same
//!   command and builds the ruleset from the grants just resolved. The
//!   next run takes it. Nothing is reused between runs: each run has its
//!   own `$TMP` and ruleset, made for it alone, only earlier.
//!
//! A ready ruleset is used only when it is exactly the one the run would
//! build now: the run resolves its grants as always, and each grant is
//! opened again as the ruleset opens it; the paths, rights and the files
//! they name (device and inode) must be the same as when the ruleset was
//! made, and so must the network. A directory renamed or replaced since
//! then names another inode, so the ready one is thrown away and the run
//! builds its own (as it does with nothing ready). A spawning thread that
//! is gone runs nothing: the spawn fails.
//!
//! A command is made ready for from its second run on. At most
//! [`CAPACITY`] sandboxes wait, [`PER_COMMAND`] per command and sandbox;
//! the least recently made goes first. Only a server turns this on
//! ([`keep_ready`]); a one-shot `aigent run` builds its sandbox as before,
//! and its child loads every filter itself.

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use super::child::{self, Program, Spawned, Stdio};
use super::linux::{self, FilterKey, Signature};
use super::resolve::{Access, Resolved};
use crate::contract::sandbox::Network;

/// Sandboxes kept ready at most, each with its `$TMP`.
pub const CAPACITY: usize = 8;

/// Sandboxes kept ready for one command: two, so that a call that comes
/// while the one after the last call is still being made finds the other.
pub const PER_COMMAND: usize = 2;

/// The spawning thread's stack: it runs the spawn and nothing else.
const SPAWN_STACK: usize = 256 * 1024;

/// A thread that has loaded one filter set's large filters and spawns
/// every child of that set. Ends when the server stops keeping sandboxes
/// ready.
pub struct Spawner {
    requests: Mutex<SyncSender<Request>>,
}

struct Request {
    program: Program,
    entry: child::Entry,
    stdio: Stdio,
    reply: SyncSender<io::Result<Spawned>>,
}

fn gone() -> io::Error {
    io::Error::other("the sandbox's spawning thread is gone; nothing was run")
}

impl Spawner {
    /// Starts the thread for `key`'s filters; returns once they are loaded.
    fn start(key: FilterKey) -> io::Result<Self> {
        let set = linux::filters(key).map_err(io::Error::other)?;
        let (requests, incoming) = mpsc::sync_channel::<Request>(0);
        let (loaded_tx, loaded) = mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("aigent-sandbox".to_owned())
            .stack_size(SPAWN_STACK)
            .spawn(move || {
                block_signals();
                let result = linux::load_on_thread(&[&set.base, &set.clone3]);
                let ok = result.is_ok();
                if loaded_tx.send(result).is_err() || !ok {
                    return;
                }
                for request in incoming {
                    let Request {
                        program,
                        entry,
                        stdio,
                        reply,
                    } = request;
                    let spawned = child::spawn(&program, &entry, &stdio);
                    // The child's ends of its pipes close here, before the
                    // caller reads them to their end.
                    drop((program, entry, stdio));
                    let _ = reply.send(spawned);
                }
            })?;
        loaded.recv().unwrap_or_else(|_| Err(gone()))?;
        Ok(Self {
            requests: Mutex::new(requests),
        })
    }

    /// Spawns `program` from this thread; the child loads `entry`'s
    /// filters (the late one) on top of the thread's.
    pub fn spawn(
        &self,
        program: Program,
        entry: child::Entry,
        stdio: Stdio,
    ) -> io::Result<Spawned> {
        let (reply, answer) = mpsc::sync_channel(1);
        let requests = self
            .requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        requests
            .send(Request {
                program,
                entry,
                stdio,
                reply,
            })
            .map_err(|_| gone())?;
        answer.recv().unwrap_or_else(|_| Err(gone()))
    }
}

/// The spawning threads, one per filter set, while a server keeps
/// sandboxes ready.
static SPAWNERS: Mutex<Vec<(FilterKey, Arc<Spawner>)>> = Mutex::new(Vec::new());

/// The spawning thread for `key`, started on first use, when a server
/// keeps sandboxes ready; `None` otherwise (the child loads every filter).
pub fn spawner_for(key: FilterKey) -> Option<Arc<Spawner>> {
    if !enabled() {
        return None;
    }
    let mut spawners = SPAWNERS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, spawner)) = spawners.iter().find(|(made, _)| *made == key) {
        return Some(Arc::clone(spawner));
    }
    let spawner = Arc::new(Spawner::start(key).ok()?);
    spawners.push((key, Arc::clone(&spawner)));
    Some(spawner)
}

fn block_signals() {
    // SAFETY: a zeroed sigset_t is valid storage for sigfillset, and
    // pthread_sigmask reads it and writes nothing back (null old set).
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&raw mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &raw const all, std::ptr::null_mut());
    }
}

/// Which ready sandbox a run looks for: its command and declared sandbox.
/// Only a hint; [`Ready::serves`] decides.
pub fn key(command: &str, sandbox: &crate::contract::sandbox::EffectiveSandbox) -> String {
    let declared = serde_json::to_string(sandbox).unwrap_or_default();
    format!("{command}\n{declared}")
}

/// One ready sandbox: its `$TMP`, and the ruleset made for it.
pub struct Entry {
    key: String,
    used: u64,
    tmp: tempfile::TempDir,
    ready: Ready,
}

/// A ready sandbox, once its `$TMP` is the run's.
pub struct Ready {
    /// The private temporary directory, resolved.
    pub tmp_real: PathBuf,
    grants: Vec<(Access, PathBuf)>,
    read_restricted: bool,
    network: Network,
    signature: Signature,
    ruleset: OwnedFd,
}

impl Entry {
    /// Its `$TMP` (the run's from now on), and the rest.
    pub fn split(self) -> (tempfile::TempDir, Ready) {
        (self.tmp, self.ready)
    }
}

impl Ready {
    /// The ruleset (and what it was made from) for a run whose grants
    /// resolved to `resolved`, if it is exactly the one the run would
    /// build now: the same paths and rights, naming the same files, and
    /// the same network.
    pub fn serves(self, resolved: &Resolved, network: &Network) -> Option<(OwnedFd, Signature)> {
        let same = self.read_restricted == resolved.read.is_some()
            && self.network == *network
            && grant_list(resolved) == self.grants
            && linux::signature(resolved) == self.signature;
        same.then_some((self.ruleset, self.signature))
    }
}

fn grant_list(resolved: &Resolved) -> Vec<(Access, PathBuf)> {
    linux::grants(resolved)
        .map(|grant| (grant.access, grant.real.clone()))
        .collect()
}

/// What a run leaves for the next run of its command: its resolved grants,
/// with its own `$TMP` to be swapped for a new one.
pub struct Refill {
    key: String,
    resolved: Resolved,
    tmp_real: PathBuf,
    network: Network,
}

impl Refill {
    /// `None` when a grant lies below `$TMP` (other than `$TMP` itself):
    /// that grant would change with the directory, so it is not made ahead.
    pub fn new(
        key: String,
        resolved: &Resolved,
        tmp_real: &Path,
        network: &Network,
    ) -> Option<Self> {
        let below = linux::grants(resolved)
            .any(|grant| grant.real != tmp_real && grant.real.starts_with(tmp_real));
        (!below).then(|| Self {
            key,
            resolved: resolved.clone(),
            tmp_real: tmp_real.to_owned(),
            network: network.clone(),
        })
    }
}

enum Job {
    Refill(Refill),
    /// Remove the `$TMP`s of runs that have ended, now.
    Remove,
}

struct Pool {
    enabled: bool,
    clock: u64,
    entries: Vec<Entry>,
    /// Commands run once so far (the most recent [`SEEN`]): a command is
    /// made ready for from its second run on, so that one-off calls keep
    /// no thread and no `$TMP` waiting.
    seen: std::collections::VecDeque<String>,
    jobs: Option<SyncSender<Job>>,
    worker: Option<JoinHandle<()>>,
    /// What runs that have ended left, for the worker to remove when it
    /// next wakes (see [`remove`]).
    ended: Vec<Leftovers>,
    /// The worker waits for a job with no deadline: an ended run's `$TMP`
    /// must wake it.
    worker_idle: bool,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    enabled: false,
    clock: 0,
    entries: Vec::new(),
    seen: std::collections::VecDeque::new(),
    jobs: None,
    worker: None,
    ended: Vec::new(),
    worker_idle: false,
});

/// Jobs waiting for the worker at most; a refill past them is dropped, and
/// a removal past them waits for the worker's next wake-up.
const QUEUE: usize = 64;

/// How long the worker waits, after a job, for the next one before it
/// removes the ended runs' `$TMP`s on its own (see [`remove`]).
const REMOVAL_DELAY: std::time::Duration = std::time::Duration::from_millis(20);

/// Ended runs' `$TMP`s waiting at most; one more wakes the worker at once.
const ENDED: usize = 8;

impl Pool {
    /// How many are ready for `key`.
    fn count(&self, key: &str) -> usize {
        self.entries.iter().filter(|entry| entry.key == key).count()
    }
}

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Turns keeping sandboxes ready on (a server starts) or off (it stops:
/// every ready sandbox is ended and its `$TMP` removed before this
/// returns).
pub fn keep_ready(on: bool) {
    let (ended, worker) = {
        let mut pool = pool();
        pool.enabled = on;
        if on {
            if pool.jobs.is_none() {
                let (jobs, incoming) = mpsc::sync_channel(QUEUE);
                match std::thread::Builder::new()
                    .name("aigent-sandbox-prep".to_owned())
                    .spawn(move || work(&incoming))
                {
                    Ok(worker) => {
                        pool.jobs = Some(jobs);
                        pool.worker = Some(worker);
                    }
                    Err(_) => pool.enabled = false,
                }
            }
            return;
        }
        pool.jobs = None;
        pool.seen.clear();
        let removed = std::mem::take(&mut pool.ended);
        (
            (std::mem::take(&mut pool.entries), removed),
            pool.worker.take(),
        )
    };
    drop(ended);
    // The spawning threads end once the last run holding one is done.
    SPAWNERS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clear();
    if let Some(worker) = worker {
        let _ = worker.join();
    }
}

/// Whether a server keeps sandboxes ready.
pub fn enabled() -> bool {
    pool().enabled
}

/// Takes the ready sandbox for `key`, if there is one.
pub fn take(key: &str) -> Option<Entry> {
    let mut pool = pool();
    if !pool.enabled {
        return None;
    }
    // The oldest first: it has waited longest.
    let index = pool
        .entries
        .iter()
        .enumerate()
        .filter(|(_, entry)| entry.key == key)
        .min_by_key(|(_, entry)| entry.used)
        .map(|(index, _)| index)?;
    Some(pool.entries.swap_remove(index))
}

/// Ends every sandbox ready for `key` (made for grants that changed).
pub fn discard(key: &str) {
    let ended: Vec<Entry> = {
        let mut pool = pool();
        let (ended, kept) = std::mem::take(&mut pool.entries)
            .into_iter()
            .partition(|entry| entry.key == key);
        pool.entries = kept;
        ended
    };
    drop(ended);
}

/// Commands remembered as run once.
const SEEN: usize = 64;

/// Asks for a sandbox like `refill`'s to be made ready for the next run,
/// if its command has run before.
pub fn refill(refill: Refill) {
    let mut pool = pool();
    if !pool.enabled {
        return;
    }
    let ready = pool.count(&refill.key) > 0;
    if !ready && !pool.seen.contains(&refill.key) {
        if pool.seen.len() >= SEEN {
            pool.seen.pop_front();
        }
        pool.seen.push_back(refill.key);
        return;
    }
    if let Some(jobs) = &pool.jobs {
        let _ = jobs.try_send(Job::Refill(refill));
    }
}

/// What an ended run leaves to remove: its `$TMP`, then its pids cgroup
/// (dropped in that order).
pub type Leftovers = (Option<tempfile::TempDir>, Option<super::cgroup::RunCgroup>);

/// Removes a run's `$TMP` and cgroup off the caller's way.
///
/// A server's worker removes them: after each job the worker waits
/// [`REMOVAL_DELAY`] for the next one (the next call's refill, which a call
/// asks for before its child starts, while the machine waits for the disk)
/// and removes what has ended when it wakes; it is woken for a removal only
/// when it waits with no deadline, or when [`ENDED`] are waiting. Waking it
/// as the reply leaves would have it compete with the reply, and with the
/// client, for the CPU.
///
/// Anywhere else (a one-shot `aigent run`, the hook's routed call) a thread
/// of its own removes them while the caller writes the run's outcome and
/// waits for it to reach the disk: on a disk file system a directory's
/// removal waits for the disk too (a fifth of a millisecond here, at times
/// several). The process joins that thread before it exits
/// ([`join_removals`]), so nothing is left behind.
pub fn remove(leftovers: Leftovers) {
    let mut pool = pool();
    if pool.jobs.is_none() {
        drop(pool);
        remove_beside(leftovers);
        return;
    }
    pool.ended.push(leftovers);
    if (pool.worker_idle || pool.ended.len() > ENDED)
        && let Some(jobs) = &pool.jobs
    {
        let _ = jobs.try_send(Job::Remove);
    }
}

/// The threads removing one-shot runs' leftovers, until joined.
static REMOVALS: Mutex<Vec<JoinHandle<()>>> = Mutex::new(Vec::new());

/// The removal thread's stack: it removes a directory tree and nothing else.
const REMOVAL_STACK: usize = 64 * 1024;

fn remove_beside(leftovers: Leftovers) {
    static AT_EXIT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if leftovers.0.is_none() && leftovers.1.is_none() {
        return;
    }
    // SAFETY: registers, once, a function without arguments that the C
    // library calls from `exit`.
    let registered = *AT_EXIT.get_or_init(|| unsafe { libc::atexit(join_at_exit) } == 0);
    if !registered {
        drop(leftovers);
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("aigent-sandbox-rm".to_owned())
        .stack_size(REMOVAL_STACK)
        .spawn(move || drop(leftovers));
    // A thread that cannot be started drops its closure, so the leftovers
    // are removed here and now.
    if let Ok(handle) = spawned {
        let mut removals = REMOVALS.lock().unwrap_or_else(PoisonError::into_inner);
        let (done, running): (Vec<_>, Vec<_>) = std::mem::take(&mut *removals)
            .into_iter()
            .partition(JoinHandle::is_finished);
        *removals = running;
        removals.push(handle);
        drop(removals);
        for handle in done {
            let _ = handle.join();
        }
    }
}

/// Waits until every one-shot run's leftovers are removed.
pub fn join_removals() {
    let handles = std::mem::take(&mut *REMOVALS.lock().unwrap_or_else(PoisonError::into_inner));
    for handle in handles {
        let _ = handle.join();
    }
}

extern "C" fn join_at_exit() {
    join_removals();
}

/// Takes the ended runs' leftovers, for removal outside the pool's lock.
fn take_ended() -> Vec<Leftovers> {
    std::mem::take(&mut pool().ended)
}

/// The worker: makes ready what is asked for, and removes `$TMP`s.
fn work(jobs: &Receiver<Job>) {
    // Whether the last wait had a deadline: after a job, the worker waits
    // with one, so that the `$TMP` of the run that asked for it is removed
    // without a wake-up of its own.
    let mut after_job = false;
    loop {
        let job = if after_job {
            match jobs.recv_timeout(REMOVAL_DELAY) {
                Ok(job) => Some(job),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        } else {
            {
                // Set under the lock that `remove` reads it under: a `$TMP`
                // that ends from now on sends a job.
                let mut pool = pool();
                if !pool.ended.is_empty() {
                    let ended = std::mem::take(&mut pool.ended);
                    drop(pool);
                    drop(ended);
                    continue;
                }
                pool.worker_idle = true;
            }
            let job = jobs.recv();
            pool().worker_idle = false;
            match job {
                Ok(job) => Some(job),
                Err(_) => break,
            }
        };
        after_job = job.is_some();
        drop(take_ended());
        match job {
            None | Some(Job::Remove) => {}
            Some(Job::Refill(refill)) => {
                let missing = {
                    let pool = pool();
                    if pool.enabled {
                        PER_COMMAND.saturating_sub(pool.count(&refill.key))
                    } else {
                        0
                    }
                };
                for _ in 0..missing {
                    let Some(entry) = make(&refill) else {
                        break;
                    };
                    insert(entry);
                }
            }
        }
    }
}

/// A new `$TMP`, and the ruleset for the grants with it.
fn make(refill: &Refill) -> Option<Entry> {
    let key = refill.key.clone();
    let mut resolved = refill.resolved.clone();
    let old_tmp = &refill.tmp_real;
    let network = refill.network.clone();
    let tmp = tempfile::Builder::new()
        .prefix("aigent-run-")
        .tempdir()
        .ok()?;
    let tmp_real = tmp.path().canonicalize().ok()?;
    for grant in resolved
        .read
        .iter_mut()
        .flatten()
        .chain(&mut resolved.write)
        .chain(&mut resolved.sockets)
    {
        if grant.real == *old_tmp {
            grant.real.clone_from(&tmp_real);
            grant.path = tmp_real.display().to_string();
        }
    }
    let (ruleset, signature) = linux::ruleset(&resolved, &network).ok()?;
    Some(Entry {
        key,
        used: 0,
        tmp,
        ready: Ready {
            tmp_real,
            grants: grant_list(&resolved),
            read_restricted: resolved.read.is_some(),
            network,
            signature,
            ruleset,
        },
    })
}

/// Adds `entry`, ending the least recently made one when full.
fn insert(mut entry: Entry) {
    let ended = {
        let mut pool = pool();
        if !pool.enabled || pool.count(&entry.key) >= PER_COMMAND {
            Some(entry)
        } else {
            pool.clock += 1;
            entry.used = pool.clock;
            let oldest = (pool.entries.len() >= CAPACITY)
                .then(|| {
                    pool.entries
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, entry)| entry.used)
                        .map(|(index, _)| index)
                })
                .flatten();
            let ended = oldest.map(|index| pool.entries.swap_remove(index));
            pool.entries.push(entry);
            ended
        }
    };
    drop(ended);
}

/// How many sandboxes are ready now (for tests).
pub fn ready_count() -> usize {
    pool().entries.len()
}

/// How many are ready for `key` now (for tests).
pub fn waiting_for(key: &str) -> usize {
    pool().count(key)
}

/// Waits up to `limit` for a sandbox to be ready for `key` (for tests).
pub fn wait_for(key: &str, limit: std::time::Duration) -> bool {
    let deadline = std::time::Instant::now() + limit;
    while std::time::Instant::now() < deadline {
        if pool().entries.iter().any(|entry| entry.key == key) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refill_is_not_made_for_a_grant_below_tmp() {
        use super::super::resolve::Grant;
        let grant = |real: &str| Grant {
            grant: "g".to_owned(),
            path: real.to_owned(),
            access: Access::Write,
            real: PathBuf::from(real),
        };
        let mut resolved = Resolved {
            read: None,
            write: vec![grant("/dev/null"), grant("/tmp/aigent-run-x")],
            sockets: Vec::new(),
            skipped: Vec::new(),
        };
        let tmp = Path::new("/tmp/aigent-run-x");
        assert!(Refill::new("k".to_owned(), &resolved, tmp, &Network::None).is_some());
        resolved.write.push(grant("/tmp/aigent-run-x/cache"));
        assert!(Refill::new("k".to_owned(), &resolved, tmp, &Network::None).is_none());
    }
}
