//! The one POSIX shell quoter: a word written so that any POSIX shell
//! (dash and bash alike) reads it back as exactly that word.

/// `word` as one shell word: bare when it holds only characters no shell
/// treats specially (and does not start with `~` or `=`, which bash and zsh
/// expand), else in single quotes, where every character but `'` is
/// literal (a newline included; `$'...'` would be shorter to read, but dash
/// does not know it).
pub fn quote_word(word: &str) -> String {
    let plain = !word.is_empty()
        && !word.starts_with(['~', '='])
        && word
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"_-./:=@%+,".contains(&byte));
    if plain {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}
