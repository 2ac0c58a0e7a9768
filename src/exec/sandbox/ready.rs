//! Sandboxes made ready before they are needed, for a server (`aigent mcp
//! serve`) that runs the same commands again and again.
//!
//! Entering a sandbox costs a new thread, the grants opened and the
//! Landlock ruleset made, and two seccomp filters loaded (which the kernel
//! checks and compiles each time): about half a millisecond, most of it on
//! the call's way. A server does that work after a run instead, for the
//! next run of the same command: a background thread makes a new private
//! `$TMP`, builds the ruleset from the grants just resolved, and starts a
//! thread that enters the sandbox and then waits, signals blocked, for the
//! one spawn it is for. The filters are loaded once per network setting,
//! by a base thread that starts the waiting threads (a thread inherits its
//! creator's filters). The next run takes it, and it spawns the child and
//! ends. Nothing is reused between runs: each run has its own thread,
//! ruleset and `$TMP`, made for it alone, only earlier.
//!
//! A ready sandbox is used only when it is exactly the one the run would
//! build now: the run resolves its grants as always, and each grant is
//! opened again as the ruleset opens it; the paths, rights and the files
//! they name (device and inode) must be the same as when the ruleset was
//! made, and so must the network. A directory renamed or replaced since
//! then names another inode, so the ready sandbox is thrown away and the
//! run builds its own (as it does with nothing ready). A spawner that is
//! gone runs nothing: the spawn fails.
//!
//! A command is made ready for from its second run on. At most
//! [`CAPACITY`] sandboxes wait, [`PER_COMMAND`] per command and sandbox;
//! the least recently made goes first. Only a server turns this on
//! ([`keep_ready`]); a one-shot `aigent run` builds its sandbox as before.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Mutex, PoisonError};
use std::thread::JoinHandle;

use super::linux::{self, Enforcer, Parts, Signature};
use super::resolve::{Access, Resolved};
use super::spawner::{Request, Spawner, block_signals, gone, set_signal_mask};
use crate::contract::sandbox::Network;

/// Sandboxes kept ready at most, each with its thread and its `$TMP`.
pub const CAPACITY: usize = 8;

/// Sandboxes kept ready for one command: two, so that a call that comes
/// while the one after the last call is still being made finds the other.
pub const PER_COMMAND: usize = 2;

/// Starts a thread that enters `parts` and waits for one spawn. Returns
/// once it has entered them, or with the error that kept it from doing so.
fn start(mut parts: Parts) -> io::Result<Spawner> {
    let (requests, incoming) = mpsc::sync_channel::<Request>(1);
    let (entered_tx, entered) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("aigent-sandbox".to_owned())
        .stack_size(linux::SPAWN_STACK)
        .spawn(move || {
            // It may wait long: no signal of the process's is handled on a
            // confined thread meanwhile. The spawn puts the caller's mask
            // back, for the child to inherit.
            block_signals();
            let result = parts.enter();
            let ok = result.is_ok();
            if entered_tx.send(result).is_err() || !ok {
                return;
            }
            drop(parts);
            if let Ok(Request {
                mut command,
                mask,
                reply,
            }) = incoming.recv()
            {
                set_signal_mask(&mask);
                let _ = reply.send(command.spawn());
            }
        })?;
    entered.recv().unwrap_or_else(|_| Err(gone()))?;
    Ok(Spawner::new(requests))
}

/// Which ready sandbox a run looks for: its command and declared sandbox.
/// Only a hint; [`Ready::serves`] decides.
pub fn key(command: &str, sandbox: &crate::contract::sandbox::EffectiveSandbox) -> String {
    let declared = serde_json::to_string(sandbox).unwrap_or_default();
    format!("{command}\n{declared}")
}

/// One ready sandbox: its `$TMP`, what its ruleset was made from, and the
/// thread that entered it.
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
    spawner: Spawner,
}

impl Entry {
    /// Its `$TMP` (the run's from now on), and the rest.
    pub fn split(self) -> (tempfile::TempDir, Ready) {
        (self.tmp, self.ready)
    }
}

impl Ready {
    /// The enforcer for a run whose grants resolved to `resolved`, if this
    /// sandbox is exactly the one the run would build now: the same paths
    /// and rights, naming the same files, and the same network.
    pub fn serves(self, resolved: &Resolved, network: &Network) -> Option<Enforcer> {
        let same = self.read_restricted == resolved.read.is_some()
            && self.network == *network
            && grant_list(resolved) == self.grants
            && linux::signature(resolved) == self.signature;
        same.then(|| Enforcer::ready(self.spawner))
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
    /// `$TMP`s of runs that have ended, for the worker to remove when it
    /// next wakes (see [`remove`]).
    ended: Vec<tempfile::TempDir>,
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

/// Removes a run's `$TMP`: here, unless a server keeps sandboxes ready.
/// Then its worker removes it off the call's way. After each job the worker
/// waits [`REMOVAL_DELAY`] for the next one (the next call's refill, which
/// a call asks for before its child starts, while the machine waits for
/// the disk) and removes what has ended when it wakes; it is woken for a
/// removal only when it waits with no deadline, or when [`ENDED`] are
/// waiting. Waking it as the reply leaves would have it compete with the
/// reply, and with the client, for the CPU.
pub fn remove(tmp: tempfile::TempDir) {
    let mut pool = pool();
    if pool.jobs.is_none() {
        drop(pool);
        drop(tmp);
        return;
    }
    pool.ended.push(tmp);
    if (pool.worker_idle || pool.ended.len() > ENDED)
        && let Some(jobs) = &pool.jobs
    {
        let _ = jobs.try_send(Job::Remove);
    }
}

/// Takes the ended runs' `$TMP`s, for removal outside the pool's lock.
fn take_ended() -> Vec<tempfile::TempDir> {
    std::mem::take(&mut pool().ended)
}

/// The worker: makes ready what is asked for, and removes `$TMP`s.
fn work(jobs: &Receiver<Job>) {
    // The threads that have loaded the seccomp filters, one per network
    // setting; they end with the worker.
    let mut bases = Bases::default();
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
                    let Some(entry) = make(&refill, &mut bases) else {
                        break;
                    };
                    insert(entry);
                }
            }
        }
    }
}

/// A thread that has loaded the seccomp filters for one network setting
/// (and set `no_new_privs`), and starts the waiting threads: a thread
/// inherits its creator's filters, so they are loaded, checked and
/// compiled by the kernel once, not once a run. It runs nothing but
/// aigent's own code, with every signal blocked.
struct Base {
    requests: SyncSender<(Parts, SyncSender<io::Result<Spawner>>)>,
}

impl Base {
    fn start(mut filters: Parts) -> io::Result<Self> {
        let (requests, incoming) =
            mpsc::sync_channel::<(Parts, SyncSender<io::Result<Spawner>>)>(1);
        let (entered_tx, entered) = mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("aigent-sandbox-base".to_owned())
            .stack_size(linux::SPAWN_STACK)
            .spawn(move || {
                block_signals();
                let result = filters.enter();
                let ok = result.is_ok();
                if entered_tx.send(result).is_err() || !ok {
                    return;
                }
                for (landlock, reply) in incoming {
                    let _ = reply.send(start(landlock));
                }
            })?;
        entered.recv().unwrap_or_else(|_| Err(gone()))?;
        Ok(Self { requests })
    }

    /// A waiting thread, started by this one (so under its filters), that
    /// has entered `landlock` too.
    fn spawner(&self, landlock: Parts) -> io::Result<Spawner> {
        let (reply, answer) = mpsc::sync_channel(1);
        self.requests.send((landlock, reply)).map_err(|_| gone())?;
        answer.recv().unwrap_or_else(|_| Err(gone()))
    }
}

/// The bases, for `network: none` and for the rest.
#[derive(Default)]
struct Bases {
    offline: Option<Base>,
    online: Option<Base>,
}

impl Bases {
    fn spawner(&mut self, network: &Network, landlock: Parts) -> Option<Spawner> {
        let slot = if *network == Network::None {
            &mut self.offline
        } else {
            &mut self.online
        };
        if slot.is_none() {
            let filters = linux::filters(network).ok()?;
            *slot = Some(Base::start(Enforcer::new(None, filters).into_parts()?).ok()?);
        }
        let spawned = slot.as_ref()?.spawner(landlock);
        if spawned.is_err() {
            // A base that failed is not asked again.
            *slot = None;
        }
        spawned.ok()
    }
}

/// A new `$TMP`, the ruleset for the grants with it, and a thread that has
/// entered it and the filters.
fn make(refill: &Refill, bases: &mut Bases) -> Option<Entry> {
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
    {
        if grant.real == *old_tmp {
            grant.real.clone_from(&tmp_real);
            grant.path = tmp_real.display().to_string();
        }
    }
    let (ruleset, signature) = linux::ruleset(&resolved, &network).ok()?;
    let landlock = Enforcer::new(Some(ruleset), Vec::new()).into_parts()?;
    let spawner = bases.spawner(&network, landlock)?;
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
            spawner,
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
    use crate::exec::sandbox::spawner::signal_mask;
    use std::process::Command;

    #[test]
    fn a_spawner_that_is_gone_runs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("ran");
        let (requests, incoming) = mpsc::sync_channel(1);
        drop(incoming);
        let mut command = Command::new("touch");
        command.arg(&marker);
        let spawned = Spawner::new(requests).spawn(command);
        assert!(spawned.is_err());
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!marker.exists(), "a command ran without its sandbox");
    }

    #[test]
    fn a_waiting_spawner_blocks_signals_and_its_child_gets_the_callers_mask() {
        let parts = Enforcer::new(None, Vec::new()).into_parts().unwrap();
        let spawner = start(parts).unwrap();
        // This test's thread blocks nothing, so neither may the child,
        // though the spawning thread blocked everything while it waited.
        let mask = signal_mask();
        // SAFETY: `mask` is a valid sigset_t.
        let blocked = (1..32).any(|signal| unsafe { libc::sigismember(&mask, signal) } == 1);
        assert!(!blocked);
        let mut command = Command::new("grep");
        command
            .args(["^SigBlk:", "/proc/self/status"])
            .stdout(std::process::Stdio::piped());
        let output = spawner.spawn(command).unwrap().wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert_eq!(text.trim(), "SigBlk:\t0000000000000000", "{text}");
    }

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
            skipped: Vec::new(),
        };
        let tmp = Path::new("/tmp/aigent-run-x");
        assert!(Refill::new("k".to_owned(), &resolved, tmp, &Network::None).is_some());
        resolved.write.push(grant("/tmp/aigent-run-x/cache"));
        assert!(Refill::new("k".to_owned(), &resolved, tmp, &Network::None).is_none());
    }
}
