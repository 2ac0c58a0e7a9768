//! Everything a child enters, ready for its spawn, and the spawn itself:
//! by a server's spawning thread ([`super::ready`]) that holds the large
//! filter already, or directly ([`super::child`]).

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::sync::Arc;

use super::child::{self, Program, Spawned, Stdio, View};
use super::linux::{FilterKey, FilterSet, NetClass};

/// Everything a child enters, ready for the spawn: the ruleset, the
/// filters, the view, the limits. Owned by the spawn.
pub struct Enforcer {
    entry: child::Entry,
    filters: Arc<FilterSet>,
    key: FilterKey,
}

impl std::fmt::Debug for Enforcer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Enforcer")
            .field("landlock", &self.entry.ruleset.is_some())
            .field("view", &self.entry.view.is_some())
            .field("limits", &self.entry.limits.len())
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// The parts of an [`Enforcer`], as `prepare` finds them.
pub struct Parts {
    pub ruleset: Option<OwnedFd>,
    pub filters: Option<(Arc<FilterSet>, FilterKey)>,
    pub view: Option<View>,
    pub limits: Vec<(libc::c_int, u64)>,
    pub cgroup: Option<OwnedFd>,
    pub pass_fds: Vec<RawFd>,
}

impl Enforcer {
    pub fn new(parts: Parts) -> Self {
        let (filters, key) = parts.filters.unwrap_or_else(|| {
            (
                Arc::new(FilterSet::default()),
                FilterKey {
                    network: NetClass::Unrestricted,
                    unix: true,
                },
            )
        });
        Self {
            entry: child::Entry {
                ruleset: parts.ruleset,
                filters: Vec::new(),
                view: parts.view,
                limits: parts.limits,
                cgroup: parts.cgroup,
                pass_fds: parts.pass_fds,
                last_cap: super::kernel::last_capability(),
                new_session: true,
            },
            filters,
            key,
        }
    }

    /// Whether a server's spawning thread, which holds the filters already,
    /// spawns the child.
    pub fn is_ready(&self) -> bool {
        super::ready::spawner_for(self.key).is_some() && !self.filters.base.is_empty()
    }

    /// Spawns `program` with `stdio`, the child entering everything on its
    /// way to exec (see [`super::child`]). A server's spawning thread has
    /// loaded the large filter once ([`super::ready`]); the child then
    /// loads only the late one, which forbids what its own way to exec
    /// needed (namespaces, mounts, a new session).
    pub fn spawn(mut self, program: Program, stdio: Stdio) -> io::Result<Spawned> {
        if !self.filters.base.is_empty()
            && let Some(spawner) = super::ready::spawner_for(self.key)
        {
            self.entry.filters = vec![Arc::clone(&self.filters.late)];
            return spawner.spawn(program, self.entry, stdio);
        }
        self.entry.filters = [&self.filters.combined, &self.filters.clone3]
            .into_iter()
            .filter(|filter| !filter.is_empty())
            .cloned()
            .collect();
        child::spawn(&program, &self.entry, &stdio)
    }
}
