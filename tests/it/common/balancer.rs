//! A layer-4 load balancer inside the test process, so that rmcp's own
//! Streamable HTTP client can reach `aigent mcp serve --http`.
//!
//! rmcp 3.11 ships two HTTP backends for its client: reqwest (which would
//! add a TLS stack and a few dozen crates to the build) and a hyper one that
//! connects to a Unix socket (`UnixSocketHttpClient`, written for clients
//! behind a sidecar proxy). The tests use the second: the client connects to
//! a Unix socket in the sandbox, and each of its connections (it opens one
//! per HTTP request) is piped byte for byte to one of the servers' TCP
//! addresses, in turn, as a TCP load balancer would. Nothing here reads or
//! changes a byte, so every request line, header and body the servers see
//! is the client's. One difference from rmcp's reqwest client: this one
//! writes the request line in absolute form (`POST http://localhost/mcp
//! HTTP/1.1`), as to a proxy, which an HTTP/1.1 server must accept.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::net::{TcpStream, UnixListener};
use tokio::task::JoinHandle;

pub struct Balancer {
    socket: PathBuf,
    next: Arc<AtomicUsize>,
    /// The upstream every connection goes to, or `usize::MAX`: round robin.
    pinned: Arc<AtomicUsize>,
    routed: Arc<Mutex<Vec<usize>>>,
    accept: JoinHandle<()>,
}

impl Balancer {
    /// Listens on `socket` and sends each connection to the next of
    /// `upstreams`, round robin. Call inside a tokio runtime.
    pub fn start(socket: PathBuf, upstreams: Vec<SocketAddr>) -> Self {
        assert!(!upstreams.is_empty());
        let listener = UnixListener::bind(&socket).expect("bind the balancer's socket");
        let next = Arc::new(AtomicUsize::new(0));
        let pinned = Arc::new(AtomicUsize::new(usize::MAX));
        let routed = Arc::new(Mutex::new(Vec::new()));
        let accept = tokio::spawn({
            let (next, pinned, routed) =
                (Arc::clone(&next), Arc::clone(&pinned), Arc::clone(&routed));
            async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    let index = match pinned.load(Ordering::SeqCst) {
                        usize::MAX => next.fetch_add(1, Ordering::SeqCst),
                        pinned => pinned,
                    } % upstreams.len();
                    routed.lock().unwrap().push(index);
                    let upstream = upstreams[index];
                    tokio::spawn(async move {
                        // A refused upstream closes the client's connection,
                        // which its client reports as a transport error.
                        if let Ok(mut server) = TcpStream::connect(upstream).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                        }
                    });
                }
            }
        });
        Self {
            socket,
            next,
            pinned,
            routed,
            accept,
        }
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// The next connection goes to upstream `index`, the ones after it on
    /// round robin from there.
    pub fn next_to(&self, index: usize) {
        self.next.store(index, Ordering::SeqCst);
    }

    /// Every connection goes to upstream `index` (a sticky session), or,
    /// with `None`, round robin again.
    pub fn pin(&self, index: Option<usize>) {
        self.pinned
            .store(index.unwrap_or(usize::MAX), Ordering::SeqCst);
    }

    /// Which upstream each connection so far went to, in order.
    pub fn routed(&self) -> Vec<usize> {
        self.routed.lock().unwrap().clone()
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        self.accept.abort();
        let _ = std::fs::remove_file(&self.socket);
    }
}
