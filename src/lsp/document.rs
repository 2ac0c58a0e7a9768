//! An open document: its text as the editor holds it, what kind of file
//! it is, and the conversions between LSP positions (line and character,
//! in UTF-16 or UTF-8 code units) and byte offsets.

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use ropey::Rope;

/// The largest document kept. A change that would make one larger drops
/// its text (the document is marked [`Document::oversized`]) until the
/// editor sends the whole text again: memory stays bounded whatever the
/// edits. Every kind of file aigent checks is refused long before (1 MiB).
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// What aigent knows an open file as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `SKILL.md` (or `skill.md`): `skill validate`.
    Skill,
    /// A `*.json`/`*.yaml`/`*.yml` file directly in the registry
    /// directory: `schema lint`.
    Declaration,
    /// `.claude-plugin/plugin.json` or `marketplace.json`: `plugin validate`.
    PluginManifest,
    /// Anything else: no diagnostics.
    Other,
}

/// The file names discovery takes for a skill file.
const SKILL_FILE_NAMES: &[&str] = &["SKILL.md", "skill.md"];

impl Kind {
    /// The kind of the file at `path`; `registry` is the registry
    /// directory, when one is configured.
    pub fn of(path: &Path, registry: Option<&Path>) -> Self {
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            return Self::Other;
        };
        if SKILL_FILE_NAMES.contains(&name) {
            return Self::Skill;
        }
        let parent = path.parent();
        if (name == crate::plugin::PLUGIN_MANIFEST || name == crate::plugin::MARKETPLACE_MANIFEST)
            && parent.and_then(Path::file_name)
                == Some(std::ffi::OsStr::new(crate::plugin::MANIFEST_DIRECTORY))
        {
            return Self::PluginManifest;
        }
        let declaration_extension = name
            .rsplit_once('.')
            .is_some_and(|(_, extension)| matches!(extension, "json" | "yaml" | "yml"));
        if declaration_extension
            && let (Some(parent), Some(registry)) = (parent, registry)
            && same_directory(parent, registry)
        {
            return Self::Declaration;
        }
        Self::Other
    }
}

fn same_directory(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// How the client counts a line's characters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Encoding {
    /// The protocol's default.
    #[default]
    Utf16,
    Utf8,
}

/// One open document.
#[derive(Debug, Clone)]
pub struct Document {
    /// Where it is on disk (`file:` URIs only); `None` for an untitled
    /// buffer, which gets no diagnostics.
    pub path: Option<PathBuf>,
    pub kind: Kind,
    pub version: i32,
    text: String,
    /// The byte offset of each line's first byte.
    line_starts: Vec<usize>,
    /// A change made it this many bytes, larger than
    /// [`MAX_DOCUMENT_BYTES`]: its text was dropped, and it waits for the
    /// whole text again.
    oversized: Option<usize>,
}

/// Why a change could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeError {
    #[error("the document would be larger than {MAX_DOCUMENT_BYTES} bytes")]
    TooLarge,
    #[error("a ranged change to a document whose text aigent no longer holds")]
    NoText,
}

impl Document {
    pub fn new(path: Option<PathBuf>, kind: Kind, version: i32, text: String) -> Self {
        let mut document = Self {
            path,
            kind,
            version,
            text: String::new(),
            line_starts: vec![0],
            oversized: None,
        };
        document.replace(text);
        document
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The bytes this document holds: its text, its line index and its
    /// path (the server adds its URIs).
    pub fn footprint(&self) -> usize {
        self.text.len()
            + self.line_starts.len() * std::mem::size_of::<usize>()
            + self.path.as_ref().map_or(0, |path| path.as_os_str().len())
    }

    /// The size a change would have given the document, when it was too
    /// large to keep.
    pub fn oversized(&self) -> Option<usize> {
        self.oversized
    }

    fn replace(&mut self, text: String) {
        if text.len() > MAX_DOCUMENT_BYTES {
            self.drop_text(text.len());
            return;
        }
        self.text = text;
        self.oversized = None;
        self.reindex();
    }

    /// Drops the text (memory is short): the document waits for its
    /// whole text again, and says so.
    pub fn evict(&mut self) {
        let size = self.text.len();
        self.drop_text(size);
    }

    fn drop_text(&mut self, size: usize) {
        self.text = String::new();
        self.line_starts = vec![0];
        self.oversized = Some(size);
    }

    fn reindex(&mut self) {
        self.line_starts.clear();
        self.line_starts.push(0);
        self.line_starts
            .extend(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|newline| newline + 1));
    }

    /// Applies a `didChange`'s content changes in order. Several are
    /// applied on a rope and the lines indexed once at the end, so a
    /// change of many edits costs the edits and one pass over the text,
    /// not one pass per edit. On an error the changes before it stay
    /// applied, as with [`Document::change`].
    pub fn apply(
        &mut self,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: Encoding,
    ) -> Result<(), ChangeError> {
        if changes.len() <= 1 {
            return changes
                .into_iter()
                .try_for_each(|change| self.change(change.range, change.text, encoding));
        }
        let mut rope: Option<Rope> = None;
        let result = self.apply_on_rope(changes, encoding, &mut rope);
        if self.oversized.is_none()
            && let Some(rope) = rope
        {
            self.text = String::from(rope);
            self.reindex();
        }
        result
    }

    fn apply_on_rope(
        &mut self,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: Encoding,
        rope: &mut Option<Rope>,
    ) -> Result<(), ChangeError> {
        for change in changes {
            let Some(range) = change.range else {
                if change.text.len() > MAX_DOCUMENT_BYTES {
                    *rope = None;
                    self.drop_text(change.text.len());
                    return Err(ChangeError::TooLarge);
                }
                *rope = Some(Rope::from_str(&change.text));
                self.oversized = None;
                continue;
            };
            if rope.is_none() && self.oversized.is_some() {
                return Err(ChangeError::NoText);
            }
            let text = rope.get_or_insert_with(|| Rope::from_str(&self.text));
            let start = rope_offset(text, range.start, encoding);
            let end = rope_offset(text, range.end, encoding);
            let (start, end) = (start.min(end), start.max(end));
            let removed = text.char_to_byte(end) - text.char_to_byte(start);
            let len = text.len_bytes() - removed + change.text.len();
            if len > MAX_DOCUMENT_BYTES {
                *rope = None;
                self.drop_text(len);
                return Err(ChangeError::TooLarge);
            }
            text.remove(start..end);
            text.insert(start, &change.text);
        }
        Ok(())
    }

    /// Applies one `didChange` content change: the whole text (`range`
    /// `None`) or a range replaced. Positions past a line's end or the
    /// document's end are clamped, as the protocol asks.
    pub fn change(
        &mut self,
        range: Option<Range>,
        new_text: String,
        encoding: Encoding,
    ) -> Result<(), ChangeError> {
        let Some(range) = range else {
            if new_text.len() > MAX_DOCUMENT_BYTES {
                self.drop_text(new_text.len());
                return Err(ChangeError::TooLarge);
            }
            self.replace(new_text);
            return Ok(());
        };
        if self.oversized.is_some() {
            return Err(ChangeError::NoText);
        }
        let start = self.offset(range.start, encoding);
        let end = self.offset(range.end, encoding);
        let (start, end) = (start.min(end), start.max(end));
        let len = self.text.len() - (end - start) + new_text.len();
        if len > MAX_DOCUMENT_BYTES {
            self.drop_text(len);
            return Err(ChangeError::TooLarge);
        }
        self.text.replace_range(start..end, &new_text);
        self.reindex();
        Ok(())
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The text of 0-based `line`, without its line break.
    pub fn line(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let line = &self.text[start..end];
        line.strip_suffix('\r').unwrap_or(line)
    }

    /// The byte offset of a position, clamped to the line and the text,
    /// never inside a character.
    pub fn offset(&self, position: Position, encoding: Encoding) -> usize {
        let line = position.line as usize;
        let Some(&start) = self.line_starts.get(line) else {
            return self.text.len();
        };
        let text = self.line(line);
        start + byte_in_line(text, position.character, encoding)
    }

    /// The position of a byte offset (clamped to the text).
    pub fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let character = units(&self.text[start..end], encoding);
        Position::new(to_u32(line), character)
    }

    /// The range of the whole of 0-based `line`, without its line break.
    pub fn line_range(&self, line: usize, encoding: Encoding) -> Range {
        let line = line.min(self.line_count() - 1);
        let length = units(self.line(line), encoding);
        Range::new(
            Position::new(to_u32(line), 0),
            Position::new(to_u32(line), length),
        )
    }

    /// The range of the whole document.
    pub fn full_range(&self, encoding: Encoding) -> Range {
        Range::new(
            Position::new(0, 0),
            self.position(self.text.len(), encoding),
        )
    }
}

/// The char index in `rope` of a position, clamped as
/// [`Document::offset`] clamps it: to the line (before its line break) and
/// to the text, and back to the start of a character it falls inside.
fn rope_offset(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    let mut end = rope.line_to_char(line + 1);
    if end > start && rope.char(end - 1) == '\n' {
        end -= 1;
    }
    if end > start && rope.char(end - 1) == '\r' {
        end -= 1;
    }
    let wanted = position.character as usize;
    match encoding {
        Encoding::Utf8 => {
            let first = rope.char_to_byte(start);
            let byte = first.saturating_add(wanted).min(rope.char_to_byte(end));
            rope.byte_to_char(byte)
        }
        Encoding::Utf16 => {
            let first = rope.char_to_utf16_cu(start);
            let unit = first.saturating_add(wanted).min(rope.char_to_utf16_cu(end));
            rope.utf16_cu_to_char(unit)
        }
    }
}

/// The length of `text` in the client's code units.
pub fn units(text: &str, encoding: Encoding) -> u32 {
    let count = match encoding {
        Encoding::Utf8 => text.len(),
        Encoding::Utf16 => text.chars().map(char::len_utf16).sum(),
    };
    to_u32(count)
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The byte offset in `line` of the `character`th code unit, clamped to
/// the line, and moved back to the start of a character it falls inside.
fn byte_in_line(line: &str, character: u32, encoding: Encoding) -> usize {
    let wanted = character as usize;
    match encoding {
        Encoding::Utf8 => {
            let mut offset = wanted.min(line.len());
            while !line.is_char_boundary(offset) {
                offset -= 1;
            }
            offset
        }
        Encoding::Utf16 => {
            let mut seen = 0;
            for (offset, c) in line.char_indices() {
                if seen + c.len_utf16() > wanted {
                    return offset;
                }
                seen += c.len_utf16();
            }
            line.len()
        }
    }
}

/// The file a `file:` URI names, percent-decoded; `None` for any other
/// scheme or a URI naming a remote host.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let (host, path) = match rest.find('/') {
        Some(slash) => rest.split_at(slash),
        None => return None,
    };
    if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes = percent_decode(path)?;
    bytes_to_path(bytes)
}

/// A path as a `file:` URI, with every byte but the unreserved ones and
/// `/` percent-encoded.
pub fn path_to_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &byte in path_bytes(path).iter() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    Some(out)
}

#[cfg(unix)]
fn bytes_to_path(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn bytes_to_path(bytes: Vec<u8>) -> Option<PathBuf> {
    // `file:///C:/dir` names `C:/dir`.
    let text = String::from_utf8(bytes).ok()?;
    let text = match text.as_bytes() {
        [b'/', drive, b':', ..] if drive.is_ascii_alphabetic() => text[1..].to_owned(),
        _ => text,
    };
    Some(PathBuf::from(text))
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = if text.starts_with('/') {
        text
    } else {
        format!("/{text}")
    };
    std::borrow::Cow::Owned(text.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::new(None, Kind::Other, 1, text.to_owned())
    }

    fn range(a: (u32, u32), b: (u32, u32)) -> Option<Range> {
        Some(Range::new(Position::new(a.0, a.1), Position::new(b.0, b.1)))
    }

    #[test]
    fn ranged_changes_count_utf16_units() {
        let mut document = doc("a😀b\nsecond\r\nthird");
        // 😀 is two UTF-16 units: character 3 is `b`.
        document
            .change(range((0, 3), (0, 4)), "B".into(), Encoding::Utf16)
            .unwrap();
        assert_eq!(document.line(0), "a😀B");
        assert_eq!(document.line(1), "second");
        document
            .change(range((1, 0), (2, 0)), String::new(), Encoding::Utf16)
            .unwrap();
        assert_eq!(document.text(), "a😀B\nthird");
        // Past the end of a line, and of the text: clamped.
        document
            .change(range((0, 99), (9, 9)), "!".into(), Encoding::Utf16)
            .unwrap();
        assert_eq!(document.text(), "a😀B!");
        // A position inside a character falls back to its start.
        document
            .change(range((0, 2), (0, 2)), "x".into(), Encoding::Utf16)
            .unwrap();
        assert_eq!(document.text(), "ax😀B!");
    }

    #[test]
    fn utf8_offsets_and_positions_round_trip() {
        let document = doc("é\nab");
        assert_eq!(document.offset(Position::new(0, 1), Encoding::Utf8), 0);
        assert_eq!(document.offset(Position::new(1, 1), Encoding::Utf8), 4);
        assert_eq!(document.position(4, Encoding::Utf16), Position::new(1, 1));
        assert_eq!(document.line_range(0, Encoding::Utf8).end.character, 2);
        assert_eq!(document.line_range(0, Encoding::Utf16).end.character, 1);
    }

    #[test]
    fn an_oversized_document_drops_its_text_until_sent_whole() {
        let mut document = doc("small");
        let huge = "x".repeat(MAX_DOCUMENT_BYTES + 1);
        assert_eq!(
            document.change(None, huge, Encoding::Utf16),
            Err(ChangeError::TooLarge)
        );
        assert_eq!(document.oversized(), Some(MAX_DOCUMENT_BYTES + 1));
        assert_eq!(document.text(), "");
        assert_eq!(
            document.change(range((0, 0), (0, 0)), "a".into(), Encoding::Utf16),
            Err(ChangeError::NoText)
        );
        document
            .change(None, "back".into(), Encoding::Utf16)
            .unwrap();
        assert_eq!(document.oversized(), None);
        assert_eq!(document.text(), "back");
    }

    fn event(range: Option<Range>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range,
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn a_batch_of_edits_is_applied_in_order() {
        let mut document = doc("a😀b\r\nsecond\nthird");
        document
            .apply(
                vec![
                    event(range((0, 3), (0, 4)), "B"),
                    event(range((1, 0), (1, 6)), "2nd"),
                    event(range((0, 99), (0, 99)), "!"),
                    event(range((0, 2), (0, 2)), "x"),
                    event(range((7, 0), (9, 9)), "\nend"),
                ],
                Encoding::Utf16,
            )
            .unwrap();
        assert_eq!(document.text(), "ax😀B!\r\n2nd\nthird\nend");
        assert_eq!(document.line_count(), 4);
        assert_eq!(document.line(3), "end");
        // A whole text in the middle of a batch starts it over.
        document
            .apply(
                vec![
                    event(range((0, 0), (0, 1)), ""),
                    event(None, "new\ntext"),
                    event(range((1, 0), (1, 0)), "more "),
                ],
                Encoding::Utf8,
            )
            .unwrap();
        assert_eq!(document.text(), "new\nmore text");
        assert_eq!(document.line(1), "more text");
    }

    #[test]
    fn a_batch_that_grows_too_large_drops_the_text() {
        let mut document = doc("small");
        let half = "x".repeat(MAX_DOCUMENT_BYTES / 2 + 1);
        assert_eq!(
            document.apply(
                vec![
                    event(range((0, 0), (0, 0)), &half),
                    event(range((0, 0), (0, 0)), &half),
                ],
                Encoding::Utf8,
            ),
            Err(ChangeError::TooLarge)
        );
        assert_eq!(document.text(), "");
        assert!(document.oversized().is_some());
        assert_eq!(
            document.apply(
                vec![event(range((0, 0), (0, 0)), "a"), event(None, "b")],
                Encoding::Utf8
            ),
            Err(ChangeError::NoText)
        );
        document
            .apply(
                vec![event(None, "back"), event(range((0, 4), (0, 4)), "!")],
                Encoding::Utf8,
            )
            .unwrap();
        assert_eq!(document.text(), "back!");
    }

    proptest::proptest! {
        /// The batch, on a rope, gives the text that edits applied one
        /// by one give, clamping included.
        #[test]
        fn a_batch_equals_its_edits_one_by_one(
            text in "[ab😀é\r\n]{0,40}",
            edits in proptest::collection::vec(
                ((0u32..6, 0u32..12), (0u32..6, 0u32..12), "[xé😀\r\n]{0,4}"),
                2..8,
            ),
            utf8 in proptest::bool::ANY,
        ) {
            let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
            let mut one_by_one = doc(&text);
            let mut batch = doc(&text);
            let events: Vec<_> = edits
                .iter()
                .map(|(a, b, new)| event(range(*a, *b), new))
                .collect();
            for change in events.clone() {
                one_by_one.change(change.range, change.text, encoding).unwrap();
            }
            batch.apply(events, encoding).unwrap();
            proptest::prop_assert_eq!(batch.text(), one_by_one.text());
            proptest::prop_assert_eq!(batch.line_count(), one_by_one.line_count());
        }
    }

    #[test]
    fn kinds_follow_file_names_and_the_registry() {
        let registry = Path::new("/r/commands");
        assert_eq!(Kind::of(Path::new("/s/x/SKILL.md"), None), Kind::Skill);
        assert_eq!(
            Kind::of(Path::new("/p/.claude-plugin/plugin.json"), None),
            Kind::PluginManifest
        );
        assert_eq!(
            Kind::of(Path::new("/p/.claude-plugin/marketplace.json"), None),
            Kind::PluginManifest
        );
        assert_eq!(
            Kind::of(Path::new("/r/commands/deploy.yaml"), Some(registry)),
            Kind::Declaration
        );
        assert_eq!(
            Kind::of(Path::new("/r/commands/deploy.yaml"), None),
            Kind::Other
        );
        assert_eq!(
            Kind::of(Path::new("/r/other/deploy.json"), Some(registry)),
            Kind::Other
        );
        assert_eq!(Kind::of(Path::new("/r/README.md"), None), Kind::Other);
    }

    #[cfg(unix)]
    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/a dir/ünï/SKILL.md");
        let uri = path_to_uri(path);
        assert_eq!(uri, "file:///tmp/a%20dir/%C3%BCn%C3%AF/SKILL.md");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        assert_eq!(
            uri_to_path("file://localhost/x/y").as_deref(),
            Some(Path::new("/x/y"))
        );
        assert_eq!(uri_to_path("file://elsewhere/x"), None);
        assert_eq!(uri_to_path("untitled:Untitled-1"), None);
        assert_eq!(uri_to_path("file:///bad%zz"), None);
    }
}
