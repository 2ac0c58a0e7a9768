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
//! too, and over its cap a new connection is not refused: the oldest
//! unauthenticated connection that has been read from is closed to make
//! room ([`Connections::make_room`]). Who connected without a token
//! first, and is still silent or talking without one, goes first. A
//! token holder's new connection is not closed before it has been read
//! from once, and its first read brings its request, whose token takes
//! it out of the pool there and then; when every connection in the pool
//! is that new, the listener waits (new connections wait in the kernel's
//! backlog) rather than close one. So tokenless clients, however many,
//! hold at most the small pool, and never the token holders'.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
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
    /// A connection was first read from, or ended: room may be made.
    changed: Notify,
}

#[derive(Debug, Default)]
struct Pools {
    /// Gives each connection its place in line.
    next: u64,
    /// The unauthenticated connections, oldest first.
    unauthenticated: BTreeMap<u64, Waiting>,
    authenticated: usize,
}

/// An unauthenticated connection in the pool.
#[derive(Debug)]
struct Waiting {
    /// Closes it.
    closed: CancellationToken,
    /// It has been read from at least once.
    read: Arc<AtomicBool>,
}

/// One connection's place in a pool; given back when it is dropped.
#[derive(Debug)]
pub struct Connection {
    id: u64,
    closed: CancellationToken,
    read: Arc<AtomicBool>,
    shared: Arc<Shared>,
    /// Set under the pools' lock.
    authenticated: AtomicBool,
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
                changed: Notify::new(),
            }),
        }
    }

    /// Whether the unauthenticated pool has room for one more: it has, or
    /// the oldest connection in it that has been read from was told to
    /// close to make it. `false` when every connection in it is still to
    /// be read from for the first time: wait for [`Self::changed`].
    pub fn make_room(&self) -> bool {
        let mut pools = self.shared.lock();
        if pools.unauthenticated.len() < self.shared.max_unauthenticated {
            return true;
        }
        let oldest_read = pools
            .unauthenticated
            .iter()
            .find(|(_, waiting)| waiting.read.load(Ordering::Acquire))
            .map(|(id, _)| *id);
        match oldest_read.and_then(|id| pools.unauthenticated.remove(&id)) {
            Some(oldest) => {
                oldest.closed.cancel();
                true
            }
            None => false,
        }
    }

    /// Resolves when a connection is first read from or ends.
    pub async fn changed(&self) {
        self.shared.changed.notified().await;
    }

    /// A new connection, in the unauthenticated pool ([`Self::make_room`]
    /// first).
    pub fn admit(&self) -> Connection {
        let closed = CancellationToken::new();
        let read = Arc::new(AtomicBool::new(false));
        let mut pools = self.shared.lock();
        let id = pools.next;
        pools.next += 1;
        pools.unauthenticated.insert(
            id,
            Waiting {
                closed: closed.clone(),
                read: Arc::clone(&read),
            },
        );
        drop(pools);
        Connection {
            id,
            closed,
            read,
            shared: Arc::clone(&self.shared),
            authenticated: AtomicBool::new(false),
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
        self.authenticated.load(Ordering::Acquire)
    }

    /// `stream`, telling the pools when it is first read from.
    pub fn watch<S>(&self, stream: S) -> Watched<S> {
        Watched {
            inner: stream,
            first_read: Some((Arc::clone(&self.read), Arc::clone(&self.shared))),
        }
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
        self.authenticated.store(true, Ordering::Release);
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
        drop(pools);
        self.shared.changed.notify_one();
    }
}

/// A connection's stream, which marks its connection as read from the
/// first time it is.
pub struct Watched<S> {
    inner: S,
    /// Taken at the first read.
    first_read: Option<(Arc<AtomicBool>, Arc<Shared>)>,
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        // After the read: what it found is the server's to act on (a
        // token in it takes the connection out of reach) before the
        // connection may be chosen to make room.
        if let Some((read, shared)) = self.first_read.take() {
            read.store(true, Ordering::Release);
            shared.changed.notify_one();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As the first read of its stream would.
    fn read_from(connection: &Connection) {
        connection.read.store(true, Ordering::Release);
    }

    #[test]
    fn over_the_unauthenticated_cap_the_oldest_read_from_is_closed() {
        let connections = Connections::new(4, 2);
        assert!(connections.make_room());
        let first = connections.admit();
        let second = connections.admit();
        // Neither has been read from: no room is made, nobody is closed.
        assert!(!connections.make_room());
        assert!(!first.closed().is_cancelled());
        read_from(&second);
        assert!(connections.make_room());
        assert!(
            second.closed().is_cancelled(),
            "the oldest read from made room"
        );
        assert!(!first.closed().is_cancelled(), "not read from yet: kept");
        let third = connections.admit();
        read_from(&first);
        read_from(&third);
        assert!(connections.make_room());
        assert!(first.closed().is_cancelled(), "now the oldest read from");
        assert!(!third.closed().is_cancelled());
        // Out of the pool: it cannot authenticate any more.
        assert_eq!(first.authenticate(), Err(Refused::Closed));
        assert_eq!(connections.counts(), (0, 1));
        drop(first);
        drop(second);
        assert_eq!(connections.counts(), (0, 1));
    }

    #[test]
    fn an_authenticated_connection_is_out_of_reach_of_newcomers() {
        let connections = Connections::new(4, 1);
        let holder = connections.admit();
        read_from(&holder);
        holder.authenticate().unwrap();
        assert_eq!(connections.counts(), (1, 0));
        let mut others = Vec::new();
        for _ in 0..10 {
            assert!(connections.make_room());
            let other = connections.admit();
            read_from(&other);
            others.push(other);
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

    #[test]
    fn the_first_read_marks_the_connection_and_says_so() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            use tokio::io::AsyncReadExt;
            let connections = Connections::new(1, 1);
            let connection = connections.admit();
            let (client, server) = tokio::io::duplex(64);
            let mut watched = connection.watch(server);
            assert!(!connections.make_room());
            drop(client);
            let mut sink = Vec::new();
            watched.read_to_end(&mut sink).await.unwrap();
            // Told, and now the connection may make room.
            tokio::time::timeout(std::time::Duration::from_secs(1), connections.changed())
                .await
                .unwrap();
            assert!(connections.make_room());
            assert!(connection.closed().is_cancelled());
        });
    }
}
