//! The one POSIX shell quoter: a word written so that any POSIX shell
//! (dash and bash alike) reads it back as exactly that word.

/// `word` as one shell word: bare when it holds only characters no shell
/// treats specially (and does not start with `~` or `=`, which bash and zsh
/// expand), else in single quotes, where every character but `'` is
/// literal (a newline included; `$'...'` would be shorter to read, but dash
/// does not know it).
pub fn quote_word(word: &str) -> String {
    if is_bare_word(word) {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Whether bash reads `word`, written bare, as exactly itself: characters
/// no shell treats specially, not starting with `~` or `=`.
pub fn is_bare_word(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with(['~', '='])
        && word
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"_-./:=@%+,".contains(&byte))
}
