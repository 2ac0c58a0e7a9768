//! MCP logging: a running tool's stderr as `notifications/message` at
//! `info`, line by line, while it runs. The client chooses the least
//! severe level it wants with `logging/setLevel` (kept for the session,
//! over stdio) or, under 2026-07-28, with each request's own
//! `io.modelcontextprotocol/logLevel`; a client that chose none gets
//! [`DEFAULT_LEVEL`] and up, so stderr streams, and one that chose
//! `notice` or above does not hear it (it is in the result anyway).
//!
//! What is forwarded is bounded per call: lines are cut at
//! [`MAX_LINE_BYTES`], and after `budget` bytes (the server's
//! `--max-output`) one last message says the rest is in the result only.

/// The syslog severities MCP uses, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

/// The level a tool's stderr is told at.
pub const STDERR_LEVEL: Level = Level::Info;
/// The least severe level told to a client that chose none (MCP leaves it
/// to the server).
pub const DEFAULT_LEVEL: Level = Level::Info;

/// A line of stderr longer than this is cut (and the cut said).
pub const MAX_LINE_BYTES: usize = 4 * 1024;

/// Cuts a child's stderr, as it comes in pieces, into the lines a client
/// is told: each line once it ends (or is [`MAX_LINE_BYTES`] long), the
/// last one at [`StderrLines::finish`]; nothing more once `budget` bytes
/// have been told, but a note that the rest is in the result.
#[derive(Debug)]
pub struct StderrLines {
    pending: Vec<u8>,
    budget: usize,
    exhausted: bool,
}

impl StderrLines {
    pub fn new(budget: usize) -> Self {
        Self {
            pending: Vec::new(),
            budget,
            exhausted: false,
        }
    }

    /// The lines `piece` completes.
    pub fn push(&mut self, piece: &[u8]) -> Vec<String> {
        let mut lines = Vec::new();
        for &byte in piece {
            if self.exhausted {
                break;
            }
            if byte == b'\n' {
                self.emit(&mut lines, false);
            } else {
                self.pending.push(byte);
                if self.pending.len() >= MAX_LINE_BYTES {
                    self.emit(&mut lines, true);
                }
            }
        }
        lines
    }

    /// The last line, if the stderr did not end with a line break.
    pub fn finish(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.pending.is_empty() && !self.exhausted {
            self.emit(&mut lines, false);
        }
        lines
    }

    fn emit(&mut self, lines: &mut Vec<String>, cut: bool) {
        let line = std::mem::take(&mut self.pending);
        let cost = line.len() + 1;
        if cost > self.budget {
            self.exhausted = true;
            lines.push(
                "(stderr is no longer streamed: the rest is in the call's result)".to_owned(),
            );
            return;
        }
        self.budget -= cost;
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        let mut text = String::from_utf8_lossy(line).into_owned();
        if cut {
            text.push_str(" [line cut]");
        }
        lines.push(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_become_lines_whatever_their_boundaries() {
        let mut lines = StderrLines::new(1024);
        assert_eq!(lines.push(b"first li"), Vec::<String>::new());
        assert_eq!(lines.push(b"ne\r\nsecond\nthi"), ["first line", "second"]);
        assert_eq!(lines.push(b"rd \xff"), Vec::<String>::new());
        assert_eq!(lines.finish(), ["third \u{fffd}"]);
        assert_eq!(lines.finish(), Vec::<String>::new());
    }

    #[test]
    fn long_lines_are_cut_and_the_budget_ends_the_stream() {
        let mut lines = StderrLines::new(MAX_LINE_BYTES + 10);
        let long = vec![b'x'; MAX_LINE_BYTES + 3];
        let told = lines.push(&long);
        assert_eq!(told.len(), 1);
        assert!(told[0].ends_with(" [line cut]"));
        assert_eq!(told[0].len(), MAX_LINE_BYTES + " [line cut]".len());
        // 3 bytes pending; then a line over what is left of the budget.
        let told = lines.push(b"\nabcdefghijk\n");
        assert_eq!(told[0], "xxx");
        assert!(told[1].contains("no longer streamed"), "{told:?}");
        assert_eq!(told.len(), 2);
        assert!(lines.push(b"more\n").is_empty());
        assert!(lines.finish().is_empty());
    }

    #[test]
    fn levels_are_ordered_by_severity() {
        assert!(Level::Debug < Level::Info);
        assert!(Level::Info < Level::Notice);
        assert!(Level::Error < Level::Emergency);
    }
}
