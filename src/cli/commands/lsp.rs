//! `aigent lsp`: the language server's transport. Frames are read from
//! stdin on a thread of their own (bounded in size; a malformed one is
//! answered with a JSON-RPC error and the server reads on), handed to
//! [`aigent::lsp::Server`], and its answers framed on stdout. Diagnostics
//! are published once no message is waiting, so a flood of edits is
//! checked once, not once per edit.

use std::io::{self, BufRead, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use clap::Args;
use lsp_server::{ErrorCode, Message, Response};

use aigent::lsp::wire::malformed_response;
use aigent::lsp::wire::{Incoming, parse};
use aigent::lsp::{Flow, Server};
use aigent::report::{ErrorCode as AigentErrorCode, Outcome, exit};

use crate::cli::spec::{CommandSpec, NoEffects, Safe, TEXT_AND_JSON, USAGE, code_when, leaf};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "lsp",
    Safe,
    &[
        code_when(
            exit::SUCCESS,
            NoEffects,
            "the client shut the server down, then exited",
        ),
        code_when(
            exit::GENERAL_ERROR,
            NoEffects,
            "the client exited or went away without a shutdown, or the transport failed",
        ),
        USAGE,
    ],
    TEXT_AND_JSON,
    true,
);

#[derive(Debug, Args)]
#[command(after_help = "\
Speaks the Language Server Protocol on stdin/stdout until the client sends \
exit. SKILL.md files, declaration files (*.json, *.yaml in the registry \
directory) and plugin and marketplace manifests get the diagnostics of \
`skill validate`, `schema lint` and `plugin validate` as they are typed; \
code actions from `skill fix`, `skill fmt` and the findings' suggestions; \
hover over codes and frontmatter keys; completion of keys and values. \
Settings come from the client (initializationOptions or \
workspace/didChangeConfiguration): {\"profile\": \"claude-code\", \
\"strict\": true, \"registry\": \"commands\"}. docs/editors.md shows the \
configuration for VS Code, Neovim, Helix and Zed.

Examples:
  # serve editors over stdio
  aigent lsp
  # with another registry
  aigent --commands ./commands lsp")]
pub struct LspArgs {}

/// The largest message read; a larger one is skipped and answered with an
/// error. A 1 MiB document is at most a few MiB once escaped as JSON.
const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// The longest header line read.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// The reader reads ahead while the messages it handed over and the server
/// has not taken hold less than this; a larger message waits for an empty
/// queue. With the frame cap, what waits is bounded in bytes, not only in
/// count (64 queued 32 MiB documents were 2 GiB).
const MAX_QUEUED_BYTES: usize = 64 * 1024 * 1024;

/// The bytes of the messages read and not yet taken by the server.
#[derive(Default)]
struct Queued {
    bytes: Mutex<usize>,
    taken: Condvar,
}

impl Queued {
    fn reserve(&self, size: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        while *bytes > 0 && *bytes + size > MAX_QUEUED_BYTES {
            bytes = self
                .taken
                .wait(bytes)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *bytes += size;
    }

    fn release(&self, size: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        *bytes = bytes.saturating_sub(size);
        self.taken.notify_all();
    }
}

/// A message read, with the size of its frame.
type Handed = (Incoming, usize);

/// Diagnostics wait at most this long behind a steady stream of messages.
const MAX_PUBLISH_DELAY: Duration = Duration::from_millis(100);

pub fn run(_args: &LspArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let (sender, receiver) = mpsc::sync_channel(64);
    let queued = Arc::new(Queued::default());
    let reader_queued = Arc::clone(&queued);
    std::thread::Builder::new()
        .name("lsp-reader".to_owned())
        .spawn(move || read_loop(&mut io::stdin().lock(), &sender, &reader_queued))
        .map_err(|err| transport_error(&err))?;
    let mut server = Server::new(ctx.commands_dir.clone());
    let code = serve(&mut server, &receiver, &queued, &mut io::stdout().lock())
        .map_err(|err| transport_error(&err))?;
    if code != 0 {
        return Err(CliError::new(
            exit::GENERAL_ERROR,
            AigentErrorCode::GeneralError,
            "the client exited without asking the server to shut down",
        ));
    }
    // stdout belonged to the protocol: nothing more is written to it.
    Ok(Outcome::verbatim(String::new()))
}

fn transport_error(err: &io::Error) -> CliError {
    CliError::new(
        exit::GENERAL_ERROR,
        AigentErrorCode::GeneralError,
        format!("the language server's transport failed: {err}"),
    )
}

/// Handles messages until `exit` (its code) or the end of the input (1).
fn serve(
    server: &mut Server,
    receiver: &Receiver<Handed>,
    queued: &Queued,
    output: &mut impl Write,
) -> io::Result<i32> {
    let mut last_publish = Instant::now();
    loop {
        // Block only when nothing is left to publish.
        let read = if server.has_pending() {
            receiver.try_recv().ok()
        } else {
            match receiver.recv() {
                Ok(read) => Some(read),
                Err(_) => return Ok(1),
            }
        };
        let incoming = read.map(|(incoming, size)| {
            queued.release(size);
            incoming
        });
        let idle = incoming.is_none();
        let mut out = Vec::new();
        match incoming {
            Some(Incoming::Malformed(text)) => write_frame(output, &text)?,
            Some(Incoming::Document(note)) => {
                let _ = catch_unwind(AssertUnwindSafe(|| server.document(note, &mut out)));
            }
            Some(Incoming::Message(message)) => {
                if let Flow::Exit(code) = handle(server, message, &mut out) {
                    write_all(output, &out)?;
                    return Ok(code);
                }
            }
            None => {}
        }
        if server.has_pending() && (idle || last_publish.elapsed() >= MAX_PUBLISH_DELAY) {
            // A panic is printed on stderr; those findings are lost, the
            // server stays.
            let _ = catch_unwind(AssertUnwindSafe(|| server.flush(&mut out)));
            last_publish = Instant::now();
        }
        write_all(output, &out)?;
    }
}

/// One message handled; a panic in the library becomes an internal error
/// for a request (and nothing for a notification), never the end.
fn handle(server: &mut Server, message: Message, out: &mut Vec<Message>) -> Flow {
    let id = match &message {
        Message::Request(request) => Some(request.id.clone()),
        _ => None,
    };
    match catch_unwind(AssertUnwindSafe(|| server.handle(message, out))) {
        Ok(flow) => flow,
        Err(_) => {
            if let Some(id) = id {
                out.push(Message::Response(Response::new_err(
                    id,
                    ErrorCode::InternalError as i32,
                    "aigent failed on this request; see its standard error".to_owned(),
                )));
            }
            Flow::Continue
        }
    }
}

fn write_all(output: &mut impl Write, messages: &[Message]) -> io::Result<()> {
    for message in messages {
        message.clone().write(output)?;
    }
    Ok(())
}

fn write_frame(output: &mut impl Write, text: &str) -> io::Result<()> {
    write!(output, "Content-Length: {}\r\n\r\n", text.len())?;
    output.write_all(text.as_bytes())?;
    output.flush()
}

/// Reads frames until the input ends or the server stops listening.
fn read_loop(input: &mut impl BufRead, sender: &SyncSender<Handed>, queued: &Queued) {
    loop {
        let mut size = 0;
        let incoming = match read_frame(input) {
            Ok(Frame::End) | Err(_) => return,
            Ok(Frame::Body(body)) => {
                size = body.len();
                parse(&body)
            }
            Ok(Frame::Bad(problem)) => {
                Incoming::Malformed(malformed_response(None, ErrorCode::ParseError, &problem))
            }
            Ok(Frame::Lost(problem)) => {
                let problem = format!("{problem}; the stream is closed");
                let _ = sender.send((
                    Incoming::Malformed(malformed_response(None, ErrorCode::ParseError, &problem)),
                    0,
                ));
                return;
            }
        };
        let is_exit =
            matches!(&incoming, Incoming::Message(Message::Notification(n)) if n.method == "exit");
        queued.reserve(size);
        if sender.send((incoming, size)).is_err() || is_exit {
            return;
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    /// A frame that could not be read (its headers, its size); its body
    /// was skipped, and the input is read on from the next one.
    Bad(String),
    /// A frame without a length that can be read (`Content-Length: abc`,
    /// or none): where its body ends is unknown, and reading on would
    /// take the body, and every frame after it, for headers. The stream
    /// ends with an error.
    Lost(String),
    End,
}

/// One frame: headers up to an empty line, then `Content-Length` bytes.
fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut problem: Option<String> = None;
    let mut started = false;
    loop {
        let mut line = Vec::new();
        let read = input
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(Frame::End);
        }
        if !line.ends_with(b"\n") {
            // Longer than any header: skip the rest of it.
            skip_line(input)?;
            problem.get_or_insert_with(|| "a header line is too long".to_owned());
            started = true;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !started {
                // Blank lines between frames are tolerated.
                continue;
            }
            break;
        }
        started = true;
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                length = Some(
                    value
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| format!("Content-Length `{}` is not a number", value.trim())),
                );
            }
            Some(_) => {}
            None => {
                problem.get_or_insert_with(|| format!("malformed header `{}`", truncate(text)));
            }
        }
    }
    let length = match length {
        Some(Ok(length)) => length,
        Some(Err(message)) => return Ok(Frame::Lost(message)),
        None => {
            let why = "a message without Content-Length".to_owned();
            return Ok(Frame::Lost(match problem {
                Some(problem) => format!("{why} ({problem})"),
                None => why,
            }));
        }
    };
    if length > MAX_MESSAGE_BYTES {
        let skipped = io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        if (skipped as usize) < length {
            return Ok(Frame::End);
        }
        return Ok(Frame::Bad(format!(
            "a message of {length} bytes; the limit is {MAX_MESSAGE_BYTES}"
        )));
    }
    let mut body = vec![0; length];
    match input.read_exact(&mut body) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => return Ok(Frame::End),
        Err(err) => return Err(err),
    }
    if let Some(problem) = problem {
        return Ok(Frame::Bad(problem));
    }
    Ok(Frame::Body(body))
}

fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match memchr::memchr(b'\n', buffer) {
            Some(index) => {
                input.consume(index + 1);
                return Ok(());
            }
            None => {
                let length = buffer.len();
                input.consume(length);
            }
        }
    }
}

fn truncate(text: &str) -> String {
    aigent::report::escape::escape_controls(&text.chars().take(80).collect::<String>()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut reader = io::BufReader::new(input);
        let mut out = Vec::new();
        loop {
            match read_frame(&mut reader).unwrap() {
                Frame::End => return out,
                Frame::Body(body) => out.push(format!("body {}", String::from_utf8_lossy(&body))),
                Frame::Bad(problem) => out.push(format!("bad {problem}")),
                Frame::Lost(problem) => {
                    out.push(format!("lost {problem}"));
                    return out;
                }
            }
        }
    }

    #[test]
    fn the_reader_waits_while_the_queue_holds_too_much() {
        let queued = Arc::new(Queued::default());
        // Larger than the budget: taken when nothing else waits.
        queued.reserve(MAX_QUEUED_BYTES + 1);
        let waiting = Arc::clone(&queued);
        let (done, reserved) = mpsc::channel();
        std::thread::spawn(move || {
            waiting.reserve(1);
            let _ = done.send(());
        });
        assert!(reserved.recv_timeout(Duration::from_millis(200)).is_err());
        queued.release(MAX_QUEUED_BYTES + 1);
        reserved.recv_timeout(Duration::from_secs(10)).unwrap();
    }

    #[test]
    fn frames_are_read_and_bad_ones_skipped() {
        let input = b"Content-Length: 2\r\n\r\n{}\r\nX-Junk\r\nContent-Length: 2\r\n\r\n{}Content-Length: 3\nContent-Type: x\n\n[1]";
        assert_eq!(
            frames(input),
            ["body {}", "bad malformed header `X-Junk`", "body [1]"]
        );
        // Where a body without a length ends is unknown: the stream ends,
        // never reading that body (or what follows) as headers.
        let input = b"Content-Length: abc\r\n\r\n{\"id\":1}Content-Length: 2\r\n\r\n{}";
        assert_eq!(frames(input), ["lost Content-Length `abc` is not a number"]);
        let input = b"X-Junk\r\n\r\n{}Content-Length: 2\r\n\r\n{}";
        assert_eq!(
            frames(input),
            ["lost a message without Content-Length (malformed header `X-Junk`)"]
        );
        let huge = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE_BYTES + 1);
        assert_eq!(
            frames(huge.as_bytes()),
            Vec::<String>::new(),
            "cut short: the end"
        );
        let long = [
            b"X".repeat(20_000),
            b"\r\nContent-Length: 2\r\n\r\n{}".to_vec(),
        ]
        .concat();
        assert_eq!(frames(&long), ["bad a header line is too long"]);
    }
}
