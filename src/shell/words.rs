//! One word as bash expands it: the text after quote removal when nothing
//! in it expands, else the first reason it is not static.

use brush_parser::word::{self, WordPiece, WordPieceWithSource};

use super::{NotStatic, Word};

/// What reading a word found besides its text: the command lines of its
/// command substitutions, which the walk parses and judges too.
#[derive(Debug, Default)]
pub(super) struct WordReader {
    pub substitutions: Vec<String>,
    why: Option<NotStatic>,
}

impl WordReader {
    fn not_static(&mut self, why: NotStatic) {
        self.why.get_or_insert(why);
    }
}

pub(super) fn static_word(raw: &str, reader: &mut WordReader) -> Word {
    let options = brush_parser::ParserOptions {
        enable_extended_globbing: false,
        ..brush_parser::ParserOptions::default()
    };
    let Ok(pieces) = word::parse(raw, &options) else {
        // brush accepted the line but not this word: judge it unreadable.
        return Word::Dynamic {
            source: raw.to_owned(),
            why: NotStatic::Escape,
        };
    };
    let mut text = String::new();
    for piece in &pieces {
        unquoted_piece(&piece.piece, &mut text, reader);
    }
    // Globs and brace expansion are read off the word's unquoted shape:
    // `{src,'--x'}` expands although its braces are in different pieces,
    // and a `[` is a glob only with a `]` after it.
    let shape = unquoted_shape(&pieces);
    if let Some(why) = shape_expands(&shape) {
        reader.not_static(why);
    }
    match reader.why {
        None => Word::Static { text },
        Some(why) => Word::Dynamic {
            source: raw.to_owned(),
            why,
        },
    }
}

fn unquoted_piece(piece: &WordPiece, text: &mut String, reader: &mut WordReader) {
    match piece {
        WordPiece::Text(plain) => {
            if let Some(why) = unquoted_text_expands(plain) {
                reader.not_static(why);
            }
            text.push_str(plain);
        }
        WordPiece::SingleQuotedText(quoted) => text.push_str(quoted),
        WordPiece::AnsiCQuotedText(quoted) => match ansi_c(quoted) {
            Some(decoded) => text.push_str(&decoded),
            None => reader.not_static(NotStatic::Escape),
        },
        WordPiece::DoubleQuotedSequence(pieces) => double_quoted(pieces, text, reader),
        WordPiece::GettextDoubleQuotedSequence(pieces) => {
            double_quoted(pieces, text, reader);
            reader.not_static(NotStatic::Escape);
        }
        WordPiece::TildeExpansion(_) => reader.not_static(NotStatic::TildeExpansion),
        WordPiece::ParameterExpansion(_) => reader.not_static(NotStatic::ParameterExpansion),
        WordPiece::CommandSubstitution(inner) | WordPiece::BackquotedCommandSubstitution(inner) => {
            reader.substitutions.push(inner.clone());
            reader.not_static(NotStatic::CommandSubstitution);
        }
        WordPiece::EscapeSequence(escape) => {
            // `\X` outside quotes is X; a backslash-newline is removed.
            let rest = escape.strip_prefix('\\').unwrap_or(escape);
            if rest != "\n" {
                text.push_str(rest);
            }
        }
        WordPiece::ArithmeticExpression(_) => reader.not_static(NotStatic::ArithmeticExpansion),
    }
}

fn double_quoted(pieces: &[WordPieceWithSource], text: &mut String, reader: &mut WordReader) {
    for piece in pieces {
        match &piece.piece {
            WordPiece::Text(plain) => text.push_str(plain),
            WordPiece::EscapeSequence(escape) => {
                // Inside double quotes a backslash quotes only $ ` " \ and
                // newline; before anything else it stays.
                match escape.strip_prefix('\\') {
                    Some("\n") => {}
                    Some(rest @ ("$" | "`" | "\"" | "\\")) => text.push_str(rest),
                    _ => text.push_str(escape),
                }
            }
            other => unquoted_piece_in_quotes(other, text, reader),
        }
    }
}

/// A piece inside double quotes other than text and escapes: expansions
/// expand there too (only globbing and splitting do not).
fn unquoted_piece_in_quotes(piece: &WordPiece, text: &mut String, reader: &mut WordReader) {
    match piece {
        WordPiece::SingleQuotedText(quoted) | WordPiece::AnsiCQuotedText(quoted) => {
            // Not quotes inside double quotes: brush keeps them as text.
            text.push_str(quoted);
        }
        other => unquoted_piece(other, text, reader),
    }
}

/// Whether unquoted text expands a tilde after `=` or `:` (bash expands
/// those in assignment-like words, even as arguments).
fn unquoted_text_expands(text: &str) -> Option<NotStatic> {
    (text.contains("=~") || text.contains(":~")).then_some(NotStatic::TildeExpansion)
}

/// Stands for a quoted or escaped character in a word's shape.
const QUOTED: char = '\u{1}';

/// The word with every quoted or escaped part replaced by [`QUOTED`]:
/// what brace expansion and globbing see.
fn unquoted_shape(pieces: &[WordPieceWithSource]) -> String {
    let mut shape = String::new();
    for piece in pieces {
        match &piece.piece {
            WordPiece::Text(plain) => shape.push_str(plain),
            _ => shape.push(QUOTED),
        }
    }
    shape
}

/// A glob (`*`, `?`, `[` with a `]` after it, an extended glob) or a brace
/// expansion in a word's unquoted shape.
fn shape_expands(shape: &str) -> Option<NotStatic> {
    if shape.contains(['*', '?']) {
        return Some(NotStatic::Glob);
    }
    if let Some(open) = shape.find('[')
        && shape[open + 1..].contains(']')
    {
        return Some(NotStatic::Glob);
    }
    if ["!(", "@(", "+("].iter().any(|start| shape.contains(start)) {
        return Some(NotStatic::Glob);
    }
    has_brace_expansion(shape).then_some(NotStatic::BraceExpansion)
}

/// `{a,b}` or `{x..y}`: an opening brace with a comma or `..` before its
/// closing brace. `{}` and `{x}` stay as they are.
fn has_brace_expansion(text: &str) -> bool {
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return false;
        };
        let inside = &after[..close];
        if inside.contains(',') || inside.contains("..") {
            return true;
        }
        rest = after;
    }
    false
}

/// The text of `$'...'`, or None for an escape whose meaning this reader
/// does not reproduce exactly (it is then judged, not guessed).
fn ansi_c(quoted: &str) -> Option<String> {
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        let escaped = chars.next()?;
        let simple = match escaped {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(escaped),
            _ => None,
        };
        if let Some(simple) = simple {
            out.push(simple);
            continue;
        }
        let (radix, max_digits) = match escaped {
            'x' => (16, 2),
            'u' => (16, 4),
            'U' => (16, 8),
            '0'..='7' => (8, 3),
            _ => return None,
        };
        let mut digits = String::new();
        if radix == 8 {
            digits.push(escaped);
        }
        while digits.len() < max_digits {
            match chars.peek() {
                Some(next) if next.is_digit(radix) => {
                    digits.push(*next);
                    chars.next();
                }
                _ => break,
            }
        }
        let value = u32::from_str_radix(&digits, radix).ok()?;
        // A byte escape above ASCII makes a raw byte, not a character;
        // NUL ends the word in bash.
        if value == 0 || (matches!(escaped, 'x' | '0'..='7') && value > 0x7f) {
            return None;
        }
        out.push(char::from_u32(value)?);
    }
    Some(out)
}
