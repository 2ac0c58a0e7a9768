//! One word as bash expands it: the text after quote removal when nothing
//! in it expands, else why it is not static. Every part of the word that
//! bash evaluates is read, however deeply it is nested: the operands of a
//! parameter expansion (`${x:-$(cmd)}`), array subscripts and arithmetic
//! (`${a[$(cmd)]}`, `$(( $(cmd) ))`, `$[…]`), so that each command
//! substitution anywhere in it is found and judged.

use brush_parser::word::{
    self, Parameter, ParameterExpr, ParameterTransformOp, WordPiece, WordPieceWithSource,
};

use super::{NotStatic, Word};

/// Where a word stands, which decides the expansions bash applies to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    /// A command's word, an assignment's value, a redirection's target:
    /// every expansion.
    Argument,
    /// A `for` list: its words only give the loop variable its values, so
    /// a glob, a brace expansion or a tilde changes nothing that runs.
    LoopList,
    /// A `case` word or pattern, a `[[ ]]` operand, a here-string: bash
    /// neither globs nor brace-expands them.
    Unsplit,
}

impl Context {
    fn applies(self, why: NotStatic) -> bool {
        match self {
            Self::Argument => true,
            Self::LoopList => !matches!(
                why,
                NotStatic::Glob | NotStatic::BraceExpansion | NotStatic::TildeExpansion
            ),
            Self::Unsplit => !matches!(why, NotStatic::Glob | NotStatic::BraceExpansion),
        }
    }
}

/// What reading a word found besides its text: the command lines of its
/// command substitutions (at any depth), which the walk parses and judges
/// too, and every reason it is not static, in the order found.
#[derive(Debug, Default)]
pub(super) struct WordReader {
    pub substitutions: Vec<String>,
    reasons: Vec<NotStatic>,
}

impl WordReader {
    fn not_static(&mut self, why: NotStatic) {
        if !self.reasons.contains(&why) {
            self.reasons.push(why);
        }
    }

    /// The reason that decides the word in `context`: one that is always
    /// refused comes first, then the first one found that applies there.
    fn decisive(&self, context: Context) -> Option<NotStatic> {
        self.reasons
            .iter()
            .find(|why| why.always_refused())
            .or_else(|| self.reasons.iter().find(|why| context.applies(**why)))
            .copied()
    }
}

fn options() -> brush_parser::ParserOptions {
    brush_parser::ParserOptions {
        enable_extended_globbing: false,
        ..brush_parser::ParserOptions::default()
    }
}

/// `raw` read as a word standing in `context`.
pub(super) fn read_word(raw: &str, context: Context, reader: &mut WordReader) -> Word {
    let Ok(pieces) = word::parse(raw, &options()) else {
        // brush accepted the line but cannot take this word apart: what
        // it holds is not known, so it is refused whatever the policy.
        return Word::Dynamic {
            source: raw.to_owned(),
            why: NotStatic::Unreadable,
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
    for why in shape_expands(&shape) {
        reader.not_static(why);
    }
    match reader.decisive(context) {
        None => Word::Static { text },
        Some(why) => Word::Dynamic {
            source: raw.to_owned(),
            why,
        },
    }
}

/// The body of a here-document whose delimiter is unquoted: it expands as
/// double-quoted text does (except that `"` stays as it is). Its
/// substitutions go into `reader`; the word is dynamic when it expands.
pub(super) fn read_here_document(body: &str, reader: &mut WordReader) -> Option<NotStatic> {
    if !body.contains(['$', '`']) {
        return None;
    }
    // Double quotes around it, with each `"` (and `\"`, which the body
    // keeps as two characters) written so that it stays literal.
    let mut quoted = String::with_capacity(body.len() + 8);
    quoted.push('"');
    let mut chars = body.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some('"') => quoted.push_str(r#"\\\""#),
                Some(next) => {
                    quoted.push('\\');
                    quoted.push(next);
                }
                None => quoted.push_str(r"\\"),
            },
            '"' => quoted.push_str("\\\""),
            other => quoted.push(other),
        }
    }
    quoted.push('"');
    nested(&quoted, reader);
    let why = reader
        .reasons
        .iter()
        .copied()
        .find(|why| why.always_refused())
        .unwrap_or(NotStatic::HereDocExpansion);
    Some(why)
}

/// The text of `(( … ))` or `for (( … ))`: why it is not static, its
/// substitutions in `reader`.
pub(super) fn read_arithmetic(text: &str, reader: &mut WordReader) -> NotStatic {
    arithmetic(text, reader);
    reader
        .reasons
        .iter()
        .copied()
        .find(|why| why.always_refused())
        .unwrap_or(NotStatic::ArithmeticExpansion)
}

/// Text that bash expands where no word stands on its own: an operand of
/// a parameter expansion, arithmetic. Only what it runs and why it is not
/// static matter; its text does not.
fn nested(raw: &str, reader: &mut WordReader) {
    match word::parse(raw, &options()) {
        Ok(pieces) => {
            let mut ignored = String::new();
            for piece in &pieces {
                if let WordPiece::Text(plain) = &piece.piece
                    && (plain.contains("<(") || plain.contains(">("))
                {
                    // A process substitution inside `${…}`: bash runs it,
                    // and brush keeps it as text, so it cannot be judged.
                    reader.not_static(NotStatic::Unreadable);
                }
                unquoted_piece(&piece.piece, &mut ignored, reader);
            }
        }
        Err(_) => reader.not_static(NotStatic::Unreadable),
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
        WordPiece::ParameterExpansion(expression) => {
            reader.not_static(NotStatic::ParameterExpansion);
            parameter_expression(expression, reader);
        }
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
        WordPiece::ArithmeticExpression(expression) => {
            reader.not_static(NotStatic::ArithmeticExpansion);
            arithmetic(&expression.value, reader);
        }
    }
}

/// The parts of `${…}` that bash expands or evaluates.
fn parameter_expression(expression: &ParameterExpr, reader: &mut WordReader) {
    use ParameterExpr as E;
    let (parameter, indirect) = match expression {
        E::Parameter {
            parameter,
            indirect,
        }
        | E::ParameterLength {
            parameter,
            indirect,
        }
        | E::Transform {
            parameter,
            indirect,
            ..
        } => (parameter, *indirect),
        E::UseDefaultValues {
            parameter,
            indirect,
            default_value: operand,
            ..
        }
        | E::IndicateErrorIfNullOrUnset {
            parameter,
            indirect,
            error_message: operand,
            ..
        }
        | E::UseAlternativeValue {
            parameter,
            indirect,
            alternative_value: operand,
            ..
        }
        | E::RemoveSmallestSuffixPattern {
            parameter,
            indirect,
            pattern: operand,
        }
        | E::RemoveLargestSuffixPattern {
            parameter,
            indirect,
            pattern: operand,
        }
        | E::RemoveSmallestPrefixPattern {
            parameter,
            indirect,
            pattern: operand,
        }
        | E::RemoveLargestPrefixPattern {
            parameter,
            indirect,
            pattern: operand,
        }
        | E::UppercaseFirstChar {
            parameter,
            indirect,
            pattern: operand,
        }
        | E::UppercasePattern {
            parameter,
            indirect,
            pattern: operand,
        }
        | E::LowercaseFirstChar {
            parameter,
            indirect,
            pattern: operand,
        }
        | E::LowercasePattern {
            parameter,
            indirect,
            pattern: operand,
        } => {
            if let Some(operand) = operand {
                nested(operand, reader);
            }
            (parameter, *indirect)
        }
        E::AssignDefaultValues {
            parameter,
            indirect,
            default_value,
            ..
        } => {
            reader.not_static(NotStatic::AssigningExpansion);
            if let Some(operand) = default_value {
                nested(operand, reader);
            }
            (parameter, *indirect)
        }
        E::Substring {
            parameter,
            indirect,
            offset,
            length,
        } => {
            arithmetic(&offset.value, reader);
            if let Some(length) = length {
                arithmetic(&length.value, reader);
            }
            (parameter, *indirect)
        }
        E::ReplaceSubstring {
            parameter,
            indirect,
            pattern,
            replacement,
            ..
        } => {
            nested(pattern, reader);
            if let Some(replacement) = replacement {
                nested(replacement, reader);
            }
            (parameter, *indirect)
        }
        // `${!prefix*}` and `${!a[@]}` list names and keys.
        E::VariableNames { .. } | E::MemberKeys { .. } => return,
    };
    if indirect {
        reader.not_static(NotStatic::Indirection);
    }
    if matches!(
        expression,
        E::Transform {
            op: ParameterTransformOp::PromptExpand,
            ..
        }
    ) {
        reader.not_static(NotStatic::PromptExpansion);
    }
    if let Parameter::NamedWithIndex { index, .. } = parameter {
        arithmetic(index, reader);
    }
}

/// Text that bash evaluates as arithmetic (or as an array subscript, which
/// is arithmetic for an indexed array). Its substitutions run first; then
/// any name in it is looked up and its value evaluated in turn, and a
/// value such as `a[$(cmd)]` runs the command. So only numbers and
/// operators can be known before the line runs.
fn arithmetic(text: &str, reader: &mut WordReader) {
    nested(text, reader);
    if !arithmetic_is_numeric(text) {
        reader.not_static(NotStatic::ArithmeticVariable);
    }
}

/// Whether the word `raw` is quoted from end to end and expands only
/// command substitutions (`"…$(cmd)…"`, `'…'"$(cmd)"`): bash then passes
/// it as exactly one argv word, whatever the commands print, with no
/// splitting and no globbing. A parameter expansion is not (`"$@"` is many
/// words).
pub fn is_one_quoted_word(raw: &str) -> bool {
    let Ok(pieces) = word::parse(raw, &options()) else {
        return false;
    };
    !pieces.is_empty()
        && pieces.iter().all(|piece| match &piece.piece {
            WordPiece::SingleQuotedText(_) | WordPiece::AnsiCQuotedText(_) => true,
            WordPiece::DoubleQuotedSequence(inner) => inner.iter().all(|piece| {
                matches!(
                    piece.piece,
                    WordPiece::Text(_)
                        | WordPiece::EscapeSequence(_)
                        | WordPiece::SingleQuotedText(_)
                        | WordPiece::AnsiCQuotedText(_)
                        | WordPiece::CommandSubstitution(_)
                        | WordPiece::BackquotedCommandSubstitution(_)
                )
            }),
            _ => false,
        })
}

/// Whether `text`, read as bash arithmetic, holds only numbers (decimal,
/// `0x1f`, `010`, `64#zZ`), operators, brackets and spaces: no name, no
/// `$`, no backquote, nothing a value could change.
pub fn arithmetic_is_numeric(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte.is_ascii_digit() {
            // A constant runs on through letters, `_`, `@` and `#`
            // (`0x1F`, `16#ff`, `64#a_@`).
            while index < bytes.len()
                && (bytes[index].is_ascii_alphanumeric() || b"_@#".contains(&bytes[index]))
            {
                index += 1;
            }
            continue;
        }
        if byte.is_ascii_alphabetic() || byte == b'_' || !byte.is_ascii() {
            return false;
        }
        if !b" \t\n+-*/%<>=!~&|^?:,()".contains(&byte) {
            return false;
        }
        index += 1;
    }
    true
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
        WordPiece::CommandSubstitution(inner) if quoted_here_document(inner).is_some() => {
            // `"$(cat <<'EOF' … EOF)"`: the text is known now. The `cat`
            // is still walked and judged as a command of its own.
            text.push_str(&quoted_here_document(inner).unwrap_or_default());
            reader.substitutions.push(inner.clone());
        }
        other => unquoted_piece(other, text, reader),
    }
}

/// The output of a command substitution that is only `cat` printing a
/// here-document whose delimiter is quoted (`cat <<'EOF'`, `<<-"EOF"`):
/// the body as written, nothing in it expanded, less the trailing
/// newlines a substitution drops. `None` for anything else (another
/// command, a word, another redirection, text after the delimiter line).
pub(super) fn quoted_here_document(inner: &str) -> Option<String> {
    let rest = inner.trim_start_matches([' ', '\t', '\n']);
    let rest = rest.strip_prefix("cat")?.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("<<")?;
    let (strip_tabs, rest) = match rest.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let rest = rest.trim_start_matches([' ', '\t']);
    let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let rest = &rest[1..];
    let close = rest.find(quote)?;
    let delimiter = &rest[..close];
    if delimiter.is_empty()
        || !delimiter
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_')
    {
        return None;
    }
    let rest = rest[close + 1..].trim_start_matches([' ', '\t']);
    let mut lines = rest.strip_prefix('\n')?.split('\n');
    let mut body = String::new();
    loop {
        let line = lines.next()?;
        let line = if strip_tabs {
            line.trim_start_matches('\t')
        } else {
            line
        };
        if line == delimiter {
            break;
        }
        body.push_str(line);
        body.push('\n');
    }
    if !lines.all(|line| line.trim_matches([' ', '\t']).is_empty()) {
        return None;
    }
    Some(body.trim_end_matches('\n').to_owned())
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

/// A glob (`*`, `?`, `[` with a `]` after it, an extended glob) and a
/// brace expansion in a word's unquoted shape.
fn shape_expands(shape: &str) -> Vec<NotStatic> {
    let mut found = Vec::new();
    let bracket = shape
        .find('[')
        .is_some_and(|open| shape[open + 1..].contains(']'));
    if shape.contains(['*', '?'])
        || bracket
        || ["!(", "@(", "+("].iter().any(|start| shape.contains(start))
    {
        found.push(NotStatic::Glob);
    }
    if has_brace_expansion(shape) {
        found.push(NotStatic::BraceExpansion);
    }
    found
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
