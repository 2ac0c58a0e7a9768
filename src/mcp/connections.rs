//! Who may hold the HTTP front's connections: those that have shown the
//! bearer token, and, in a smaller pool of their own, those that have not
//! yet.
//!
//! A connection starts unauthenticated. The first request on it that
//! carries the token moves it to the authenticated pool, where nothing
//! but its own end (or the header deadline while it idles) closes it; over
//! that pool's cap, the request gets `503` and the connection is closed.
//! An unauthenticated connection is answered once and closed
//! (`Connection: close`), so a tokenless client cannot keep one by
//! sending a request now and then. The unauthenticated pool is capped
//! too, and over its cap a new connection does not wait or get refused:
//! the oldest unauthenticated connection is closed to make room. Who
//! connected without a token first, and is still silent or talking
//! without one, goes first; a token holder's new connection shows its
//! token in its first request, within moments of connecting, and is out
//! of reach before it could be the oldest. So tokenless clients, however
//! many, hold at most the small pool, and never the token holders'.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

/// The two pools and their caps.
#[derive(Debug)]
pub struct Connections {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    max_authenticated: usize,
    max_unauthenticated: usize,
    pools: Mutex<Pools>,
}

#[derive(Debug, Default)]
struct Pools {
    /// Gives each connection its place in line.
    next: u64,
    /// The unauthenticated connections, oldest first, each with what
    /// closes it.
    unauthenticated: BTreeMap<u64, CancellationToken>,
    authenticated: usize,
}

/// One connection's place in a pool; given back when it is dropped.
#[derive(Debug)]
pub struct Connection {
    id: u64,
    closed: CancellationToken,
    shared: Arc<Shared>,
    /// Set under the pools' lock.
    authenticated: std::sync::atomic::AtomicBool,
}

/// Why a connection could not move to the authenticated pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The authenticated pool is at its cap.
    Full,
    /// The connection was closed to make room (it is going away).
    Closed,
}

impl Connections {
    /// At least one of each is kept, whatever is asked.
    pub fn new(max_authenticated: usize, max_unauthenticated: usize) -> Self {
        Self {
            shared: Arc::new(Shared {
                max_authenticated: max_authenticated.max(1),
                max_unauthenticated: max_unauthenticated.max(1),
                pools: Mutex::new(Pools::default()),
            }),
        }
    }

    /// A new connection, in the unauthenticated pool; over that pool's
    /// cap, the oldest connection in it is told to close.
    pub fn admit(&self) -> Connection {
        let closed = CancellationToken::new();
        let mut pools = self.shared.lock();
        let id = pools.next;
        pools.next += 1;
        pools.unauthenticated.insert(id, closed.clone());
        while pools.unauthenticated.len() > self.shared.max_unauthenticated {
            if let Some((_, oldest)) = pools.unauthenticated.pop_first() {
                oldest.cancel();
            }
        }
        drop(pools);
        Connection {
            id,
            closed,
            shared: Arc::clone(&self.shared),
            authenticated: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// How many connections each pool holds: (authenticated,
    /// unauthenticated).
    pub fn counts(&self) -> (usize, usize) {
        let pools = self.shared.lock();
        (pools.authenticated, pools.unauthenticated.len())
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Pools> {
        self.pools.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Connection {
    /// Cancelled when the connection is to be closed to make room.
    pub fn closed(&self) -> &CancellationToken {
        &self.closed
    }

    pub fn is_authenticated(&self) -> bool {
        self.authenticated
            .load(std::sync::atomic::Ordering::Acquire)
    }

    /// A request on this connection carried the token: it moves to the
    /// authenticated pool (nothing happens if it is there already).
    pub fn authenticate(&self) -> Result<(), Refused> {
        if self.is_authenticated() {
            return Ok(());
        }
        let mut pools = self.shared.lock();
        if !pools.unauthenticated.contains_key(&self.id) {
            return Err(Refused::Closed);
        }
        if pools.authenticated >= self.shared.max_authenticated {
            return Err(Refused::Full);
        }
        pools.unauthenticated.remove(&self.id);
        pools.authenticated += 1;
        self.authenticated
            .store(true, std::sync::atomic::Ordering::Release);
        Ok(())
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let mut pools = self.shared.lock();
        if self.is_authenticated() {
            pools.authenticated = pools.authenticated.saturating_sub(1);
        } else {
            pools.unauthenticated.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_the_unauthenticated_cap_the_oldest_is_closed() {
        let connections = Connections::new(4, 2);
        let first = connections.admit();
        let second = connections.admit();
        assert!(!first.closed().is_cancelled());
        let third = connections.admit();
        assert!(first.closed().is_cancelled(), "the oldest made room");
        assert!(!second.closed().is_cancelled());
        assert!(!third.closed().is_cancelled());
        assert_eq!(connections.counts(), (0, 2));
        // It is out of the pool: it cannot authenticate any more.
        assert_eq!(first.authenticate(), Err(Refused::Closed));
        drop(first);
        assert_eq!(connections.counts(), (0, 2));
    }

    #[test]
    fn an_authenticated_connection_is_out_of_reach_of_newcomers() {
        let connections = Connections::new(4, 1);
        let holder = connections.admit();
        holder.authenticate().unwrap();
        assert_eq!(connections.counts(), (1, 0));
        let mut others = Vec::new();
        for _ in 0..10 {
            others.push(connections.admit());
        }
        assert!(!holder.closed().is_cancelled());
        assert_eq!(
            others
                .iter()
                .filter(|other| other.closed().is_cancelled())
                .count(),
            9
        );
        assert_eq!(connections.counts(), (1, 1));
        // Authenticating again changes nothing.
        holder.authenticate().unwrap();
        assert_eq!(connections.counts(), (1, 1));
        drop(holder);
        assert_eq!(connections.counts(), (0, 1));
    }

    #[test]
    fn the_authenticated_pool_is_capped() {
        let connections = Connections::new(2, 8);
        let first = connections.admit();
        let second = connections.admit();
        let third = connections.admit();
        first.authenticate().unwrap();
        second.authenticate().unwrap();
        assert_eq!(third.authenticate(), Err(Refused::Full));
        assert_eq!(connections.counts(), (2, 1));
        drop(first);
        third.authenticate().unwrap();
        assert_eq!(connections.counts(), (2, 0));
        drop(second);
    }
}
