//! The server's stdin and stdout, read and written from the runtime itself.
//!
//! Tokio's own stdio does each read and write on its blocking pool, so
//! every message in and every reply out hops to another thread and back:
//! two wake-ups on each call's way. What MCP clients give a server is a
//! pipe (Python's SDK) or a Unix socket (Node's `child_process`), and both
//! can be polled: such a descriptor is made non-blocking and woken by the
//! runtime's epoll, and its flags are put back when the server is done
//! with it. Anything else (a terminal someone typed into, a file) keeps
//! tokio's stdio, since making a shared terminal non-blocking would
//! surprise the shell it belongs to.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::pin::Pin;
use std::task::{Context, Poll};

use rustix::fs::{FileType, OFlags};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::UnixStream;
use tokio::net::unix::pipe;

/// A descriptor made non-blocking, and its flags before: put back on drop
/// through a duplicate (which shares the open file, and so its flags).
#[derive(Debug)]
pub struct Restore {
    fd: OwnedFd,
    flags: OFlags,
}

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = rustix::fs::fcntl_setfl(&self.fd, self.flags);
    }
}

/// What a standard descriptor is, when the runtime can poll it: its kind,
/// a duplicate to hand over, and what puts its flags back.
fn pollable(fd: impl AsFd) -> Option<(FileType, OwnedFd, Restore)> {
    let fd = fd.as_fd();
    let kind = FileType::from_raw_mode(rustix::fs::fstat(fd).ok()?.st_mode);
    if !matches!(kind, FileType::Fifo | FileType::Socket) {
        return None;
    }
    let restore = Restore {
        fd: fd.try_clone_to_owned().ok()?,
        flags: rustix::fs::fcntl_getfl(fd).ok()?,
    };
    let handed = fd.try_clone_to_owned().ok()?;
    rustix::fs::fcntl_setfl(&handed, restore.flags | OFlags::NONBLOCK).ok()?;
    Some((kind, handed, restore))
}

/// The server's stdin.
#[derive(Debug)]
pub enum Input {
    Pipe {
        pipe: pipe::Receiver,
        _restore: Restore,
    },
    Socket {
        socket: UnixStream,
        _restore: Restore,
    },
    Tokio(tokio::io::Stdin),
}

/// The server's stdout.
#[derive(Debug)]
pub enum Output {
    Pipe {
        pipe: pipe::Sender,
        _restore: Restore,
    },
    Socket {
        socket: UnixStream,
        _restore: Restore,
    },
    Tokio(tokio::io::Stdout),
}

impl Input {
    /// `fd` polled by the runtime if it is a pipe or a socket.
    fn polled(fd: impl AsFd) -> Option<Self> {
        let (kind, fd, restore) = pollable(fd)?;
        Some(match kind {
            FileType::Fifo => Self::Pipe {
                pipe: pipe::Receiver::from_owned_fd_unchecked(fd).ok()?,
                _restore: restore,
            },
            _ => Self::Socket {
                socket: UnixStream::from_std(fd.into()).ok()?,
                _restore: restore,
            },
        })
    }
}

impl Output {
    /// `fd` polled by the runtime if it is a pipe or a socket.
    fn polled(fd: impl AsFd) -> Option<Self> {
        let (kind, fd, restore) = pollable(fd)?;
        Some(match kind {
            FileType::Fifo => Self::Pipe {
                pipe: pipe::Sender::from_owned_fd_unchecked(fd).ok()?,
                _restore: restore,
            },
            _ => Self::Socket {
                socket: UnixStream::from_std(fd.into()).ok()?,
                _restore: restore,
            },
        })
    }
}

/// This process's stdin, polled when it can be.
pub fn stdin() -> Input {
    Input::polled(io::stdin()).unwrap_or_else(|| Input::Tokio(tokio::io::stdin()))
}

/// This process's stdout, polled when it can be.
pub fn stdout() -> Output {
    Output::polled(io::stdout()).unwrap_or_else(|| Output::Tokio(tokio::io::stdout()))
}

impl AsyncRead for Input {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Input::Pipe { pipe, .. } => Pin::new(pipe).poll_read(cx, buf),
            Input::Socket { socket, .. } => Pin::new(socket).poll_read(cx, buf),
            Input::Tokio(stdin) => Pin::new(stdin).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Output {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Output::Pipe { pipe, .. } => Pin::new(pipe).poll_write(cx, bytes),
            Output::Socket { socket, .. } => Pin::new(socket).poll_write(cx, bytes),
            Output::Tokio(stdout) => Pin::new(stdout).poll_write(cx, bytes),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Output::Pipe { pipe, .. } => Pin::new(pipe).poll_flush(cx),
            Output::Socket { socket, .. } => Pin::new(socket).poll_flush(cx),
            Output::Tokio(stdout) => Pin::new(stdout).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            // A duplicate: closing it would not end the stream, and a
            // socket's shutdown would end it for every holder. Nothing
            // is buffered, so nothing is left to send.
            Output::Pipe { .. } | Output::Socket { .. } => Poll::Ready(Ok(())),
            Output::Tokio(stdout) => Pin::new(stdout).poll_shutdown(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_pipe_is_polled_and_its_flags_come_back() {
        let (reader, writer) = std::io::pipe().unwrap();
        let before = rustix::fs::fcntl_getfl(&reader).unwrap();
        let mut input = Input::polled(&reader).expect("a pipe is polled");
        let mut output = Output::polled(&writer).expect("a pipe is polled");
        assert!(
            rustix::fs::fcntl_getfl(&reader)
                .unwrap()
                .contains(OFlags::NONBLOCK)
        );
        let sent = tokio::spawn(async move {
            output.write_all(b"{\"jsonrpc\":\"2.0\"}\n").await.unwrap();
            output.flush().await.unwrap();
        });
        let mut line = vec![0; 18];
        input.read_exact(&mut line).await.unwrap();
        assert_eq!(line, b"{\"jsonrpc\":\"2.0\"}\n");
        sent.await.unwrap();
        drop(input);
        assert_eq!(rustix::fs::fcntl_getfl(&reader).unwrap(), before);
        drop(writer);
    }

    #[tokio::test]
    async fn the_end_of_a_socket_is_the_end_of_input() {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
        let mut input = Input::polled(&ours).expect("a socket is polled");
        drop(theirs);
        let mut rest = Vec::new();
        assert_eq!(input.read_to_end(&mut rest).await.unwrap(), 0);
    }

    #[test]
    fn a_regular_file_is_not_polled() {
        let file = tempfile::tempfile().unwrap();
        assert!(Input::polled(&file).is_none());
        assert!(
            !rustix::fs::fcntl_getfl(&file)
                .unwrap()
                .contains(OFlags::NONBLOCK)
        );
    }
}
