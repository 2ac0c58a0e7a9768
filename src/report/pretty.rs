//! Pretty-printed JSON written piece by piece: a value serialized on its
//! own, then indented to the depth it sits at in the whole document, so a
//! document too large to hold (a validation of thousands of skills) is
//! written as it is made, with the bytes of serializing it whole.

use std::io::{self, Write};

use serde::Serialize;

/// A serde_json error as an I/O error that keeps the kind of the I/O error
/// inside it, so a closed pipe under the serializer is still
/// [`io::ErrorKind::BrokenPipe`] to the caller that ends quietly on it.
pub fn io_error(err: serde_json::Error) -> io::Error {
    match err.io_error_kind() {
        Some(kind) => io::Error::new(kind, err),
        None => io::Error::other(err),
    }
}

/// Indents every line after the first by `indent`. JSON text never holds
/// a raw line break inside a string, so each `\n` starts a line.
pub struct Indented<'a, W: ?Sized> {
    inner: &'a mut W,
    indent: &'static [u8],
}

impl<'a, W: Write + ?Sized> Indented<'a, W> {
    pub fn new(inner: &'a mut W, indent: &'static [u8]) -> Self {
        Self { inner, indent }
    }
}

impl<W: Write + ?Sized> Write for Indented<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut rest = bytes;
        while let Some(line_end) = memchr::memchr(b'\n', rest) {
            self.inner.write_all(&rest[..line_end])?;
            self.inner.write_all(b"\n")?;
            self.inner.write_all(self.indent)?;
            rest = &rest[line_end + 1..];
        }
        self.inner.write_all(rest)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `value` pretty-printed at the depth `indent` stands for. The
/// value is serialized whole first (one element of a streamed array: a
/// few KB), then indented and written in one pass: serializing straight
/// through [`Indented`] wrote each token on its own, through every layer
/// of writers.
pub fn write_nested(
    out: &mut (impl Write + ?Sized),
    indent: &'static [u8],
    value: &impl Serialize,
) -> io::Result<()> {
    out.write_all(&nested(indent, value)?)
}

/// The bytes [`write_nested`] writes, for a caller that weighs them first
/// (a page that must stay under the response cap).
pub fn nested(indent: &'static [u8], value: &impl Serialize) -> io::Result<Vec<u8>> {
    let mut json = Vec::with_capacity(1024);
    serde_json::to_writer_pretty(&mut json, value).map_err(io_error)?;
    let mut indented = Vec::with_capacity(json.len() * 2);
    Indented::new(&mut indented, indent).write_all(&json)?;
    Ok(indented)
}

/// Writes `,\n<indent>"key": value` (or without the comma for the first
/// key of an object), the value nested at that depth.
pub fn write_key(
    out: &mut (impl Write + ?Sized),
    first: bool,
    indent: &'static [u8],
    key: &str,
    value: &impl Serialize,
) -> io::Result<()> {
    out.write_all(if first { b"\n" } else { b",\n" })?;
    out.write_all(indent)?;
    serde_json::to_writer(&mut *out, key).map_err(io_error)?;
    out.write_all(b": ")?;
    write_nested(out, indent, value)
}

/// A JSON array written one element at a time, at the depth `indent`
/// stands for (its elements one level deeper), with the bytes of
/// serializing it whole: `[]` when empty.
pub struct ArrayWriter {
    indent: &'static [u8],
    inner_indent: &'static [u8],
    written: usize,
}

impl ArrayWriter {
    /// Writes `[`; `inner_indent` is `indent` and one level more.
    pub fn open(
        out: &mut (impl Write + ?Sized),
        indent: &'static [u8],
        inner_indent: &'static [u8],
    ) -> io::Result<Self> {
        out.write_all(b"[")?;
        Ok(Self {
            indent,
            inner_indent,
            written: 0,
        })
    }

    pub fn element(
        &mut self,
        out: &mut (impl Write + ?Sized),
        value: &impl Serialize,
    ) -> io::Result<()> {
        let bytes = self.bytes_of(value)?;
        self.element_bytes(out, &bytes)
    }

    /// An element as [`Self::element`] would write it, for a caller that
    /// weighs it before writing it with [`Self::element_bytes`].
    pub fn bytes_of(&self, value: &impl Serialize) -> io::Result<Vec<u8>> {
        nested(self.inner_indent, value)
    }

    /// The bytes an element takes in the array: the value and what goes
    /// before it.
    pub fn size_of(&self, bytes: &[u8]) -> usize {
        bytes.len() + 2 + self.inner_indent.len()
    }

    /// Writes an element made by [`Self::bytes_of`].
    pub fn element_bytes(
        &mut self,
        out: &mut (impl Write + ?Sized),
        bytes: &[u8],
    ) -> io::Result<()> {
        out.write_all(if self.written == 0 { b"\n" } else { b",\n" })?;
        out.write_all(self.inner_indent)?;
        out.write_all(bytes)?;
        self.written += 1;
        Ok(())
    }

    /// How many elements were written.
    pub fn len(&self) -> usize {
        self.written
    }

    pub fn is_empty(&self) -> bool {
        self.written == 0
    }

    /// Writes `]`.
    pub fn close(self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        if self.written > 0 {
            out.write_all(b"\n")?;
            out.write_all(self.indent)?;
        }
        out.write_all(b"]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pieces_make_the_bytes_of_the_whole() {
        let elements = [json!({"a": [1, {"b": "x\ny"}]}), json!([]), json!("s")];
        let whole = json!({"list": elements, "after": {"k": true}});
        let mut written = Vec::new();
        written.extend_from_slice(b"{\n  \"list\": ");
        let mut array = ArrayWriter::open(&mut written, b"  ", b"    ").unwrap();
        for element in &elements {
            array.element(&mut written, element).unwrap();
        }
        assert_eq!(array.len(), 3);
        array.close(&mut written).unwrap();
        write_key(&mut written, false, b"  ", "after", &json!({"k": true})).unwrap();
        written.extend_from_slice(b"\n}");
        assert_eq!(
            String::from_utf8(written).unwrap(),
            serde_json::to_string_pretty(&whole).unwrap()
        );
    }

    #[test]
    fn an_empty_array_is_two_brackets() {
        let mut written = Vec::new();
        let array = ArrayWriter::open(&mut written, b"  ", b"    ").unwrap();
        assert!(array.is_empty());
        array.close(&mut written).unwrap();
        assert_eq!(written, b"[]");
    }
}
