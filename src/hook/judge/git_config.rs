//! A repository's own git config files, read as git reads them, for the
//! keys that make git run a program ([`crate::contract::programs::git_config`],
//! the one list). Project code in the sandbox may write `.git/config`
//! (a grant of the project cannot leave out its `.git`), and the next
//! allowed `git status` would run what it set, outside any sandbox.
//!
//! The read is bounded: a file past [`MAX_BYTES`], one that is not a
//! regular file (a FIFO is never opened), a line git's syntax does not
//! allow, or an include that cannot be read or is nested past
//! [`MAX_DEPTH`] is taken as running code, since what it sets is not known.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::contract::programs::git_config as keys;
use crate::fsutil::remembered;

/// The most bytes of one config file read.
pub(super) const MAX_BYTES: u64 = 256 * 1024;

/// How deep includes are followed (git's own limit is 10).
pub(super) const MAX_DEPTH: usize = 4;

/// How many files one look reads at most, includes included.
const MAX_FILES: usize = 16;

/// One `key = value` of a config file: the key's full name (`section.key`
/// or `section.subsection.key`, section and key in lower case) and its
/// value (`None` for a key written alone, which git reads as `true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Setting {
    pub name: String,
    pub value: Option<String>,
}

/// Why git may run a program the repository's config names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Found {
    /// `file` sets `key` (shown with its subsection as `*`).
    Sets { key: String, file: PathBuf },
    /// `file` cannot be read (not a regular file, too large, a line git's
    /// syntax does not allow, or unreadable).
    Unreadable { file: PathBuf },
    /// `file` includes (`key`) a file that cannot be read or resolved, or
    /// one nested too deep.
    Include { key: String, file: PathBuf },
}

impl Found {
    /// The key named, if any.
    #[cfg(test)]
    pub(super) fn key(&self) -> Option<&str> {
        match self {
            Found::Sets { key, .. } | Found::Include { key, .. } => Some(key),
            Found::Unreadable { .. } => None,
        }
    }

    /// The reason given, the file named from `work_tree` where it is
    /// inside. Never the value: it may be a path or hold a secret.
    pub(super) fn message(&self, work_tree: Option<&Path>) -> String {
        let name = |file: &Path| {
            // `.git/../shared.cfg` shown as `shared.cfg` (for the reason
            // only: the file itself is read as git names it).
            let mut lexical = PathBuf::new();
            for component in file.components() {
                match component {
                    std::path::Component::ParentDir if lexical.pop() => {}
                    other => lexical.push(other),
                }
            }
            let shown = work_tree
                .and_then(|root| lexical.strip_prefix(root).ok())
                .unwrap_or(&lexical);
            super::cut(&shown.display().to_string())
        };
        match self {
            Found::Sets { key, file } => format!(
                "`{}` sets `{key}`, which makes git run a program outside any sandbox; the person decides",
                name(file)
            ),
            Found::Unreadable { file } => format!(
                "`{}` cannot be read (not a regular file, over {} KiB, or a line git's syntax does not allow), and git may run a program it sets, outside any sandbox; the person decides",
                name(file),
                MAX_BYTES / 1024
            ),
            Found::Include { key, file } => format!(
                "`{}` sets `{key}` to a file that cannot be read (or is nested past {MAX_DEPTH} includes), which may make git run a program outside any sandbox; the person decides",
                name(file)
            ),
        }
    }
}

/// The first key among `configs` (read in order, includes followed in
/// place) that makes git run a program, but those in `skip` (shown
/// names, `core.hookspath`). A config file that does not exist sets
/// nothing; an include that does not, counts (the line may write it).
pub(super) fn runs_code(configs: &[PathBuf], home: Option<&Path>, skip: &[&str]) -> Option<Found> {
    let mut budget = MAX_FILES;
    configs.iter().find_map(|config| {
        if !remembered::is_present(config) {
            return None;
        }
        scan(config, home, skip, 0, &mut budget)
    })
}

fn scan(
    file: &Path,
    home: Option<&Path>,
    skip: &[&str],
    depth: usize,
    budget: &mut usize,
) -> Option<Found> {
    if *budget == 0 {
        return Some(Found::Unreadable {
            file: file.to_path_buf(),
        });
    }
    *budget -= 1;
    let Some(settings) = read(file).and_then(|bytes| parse(&bytes)) else {
        return Some(Found::Unreadable {
            file: file.to_path_buf(),
        });
    };
    for setting in settings {
        let value = setting.value.as_deref().or(Some("true"));
        if keys::includes(&setting.name) {
            let shown = keys::shown(&setting.name);
            let unfollowed = || Found::Include {
                key: shown.clone(),
                file: file.to_path_buf(),
            };
            // A key alone is an error to git; an empty path includes nothing.
            let Some(target) = setting.value.as_deref() else {
                return Some(unfollowed());
            };
            if target.is_empty() {
                continue;
            }
            let Some(included) = resolve(target, file, home) else {
                return Some(unfollowed());
            };
            if depth + 1 > MAX_DEPTH || !remembered::is_present(&included) {
                return Some(unfollowed());
            }
            match scan(&included, home, skip, depth + 1, budget) {
                Some(Found::Unreadable { .. }) => return Some(unfollowed()),
                Some(found) => return Some(found),
                None => continue,
            }
        }
        if keys::runs_code(&setting.name, value) {
            let shown = keys::shown(&setting.name);
            if !skip.contains(&shown.as_str()) {
                return Some(Found::Sets {
                    key: shown,
                    file: file.to_path_buf(),
                });
            }
        }
    }
    None
}

/// An include's path as git resolves it: `~/` from the home directory, a
/// relative path from the including file's directory.
fn resolve(target: &str, from: &Path, home: Option<&Path>) -> Option<PathBuf> {
    if let Some(rest) = target.strip_prefix("~/") {
        return Some(home?.join(rest));
    }
    if target.starts_with('~') {
        return None;
    }
    let path = Path::new(target);
    if path.is_absolute() {
        Some(path.to_path_buf())
    } else {
        Some(from.parent()?.join(path))
    }
}

/// The settings of one config file, in order, with `core.hooksPath`'s
/// value found the same way as any other: the last one wins.
pub(super) fn settings(file: &Path) -> Option<Vec<Setting>> {
    parse(&read(file)?)
}

/// A regular file of at most [`MAX_BYTES`]: never opened when it is not
/// one (a FIFO would block), and checked again once open.
pub(super) fn read(file: &Path) -> Option<Vec<u8>> {
    let metadata = remembered::metadata(file).ok()?;
    if !metadata.is_file() || metadata.len() > MAX_BYTES {
        return None;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let opened = options.open(file).ok()?;
    if !opened.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    opened.take(MAX_BYTES + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_BYTES).then_some(bytes)
}

/// A config file's settings, as git's parser reads them
/// (git-config(1) "Syntax"): `[section]`, `[section "subsection"]`, the
/// old `[section.subsection]`, `key = value` (a header and a key may share
/// a line), a key alone, `#`/`;` comments, quotes, escapes and a `\` at a
/// line's end. `None` where git would refuse the file. Bytes that are not
/// UTF-8 are read as git reads them and shown lossily.
pub(super) fn parse(bytes: &[u8]) -> Option<Vec<Setting>> {
    let mut reader = Reader { bytes, at: 0 };
    // A UTF-8 byte order mark, which git skips.
    if bytes.starts_with(b"\xef\xbb\xbf") {
        reader.at = 3;
    }
    let mut section: Option<String> = None;
    let mut settings = Vec::new();
    let mut comment = false;
    loop {
        let Some(c) = reader.next() else {
            return Some(settings);
        };
        if c == b'\n' {
            comment = false;
            continue;
        }
        if comment || c.is_ascii_whitespace() {
            continue;
        }
        if c == b'#' || c == b';' {
            comment = true;
            continue;
        }
        if c == b'[' {
            section = Some(reader.header()?);
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let mut key = String::from(char::from(c.to_ascii_lowercase()));
        let mut after = reader.next();
        while let Some(c) = after.filter(|c| c.is_ascii_alphanumeric() || *c == b'-') {
            key.push(char::from(c.to_ascii_lowercase()));
            after = reader.next();
        }
        while matches!(after, Some(b' ' | b'\t')) {
            after = reader.next();
        }
        let value = match after {
            None | Some(b'\n') => None,
            Some(b'=') => Some(reader.value()?),
            // A comment after a key alone.
            Some(b'#' | b';') => {
                comment = true;
                None
            }
            Some(_) => return None,
        };
        // A key before any section is an error to git.
        let section = section.as_deref()?;
        settings.push(Setting {
            name: format!("{section}.{key}"),
            value,
        });
    }
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    /// The next byte, `\r\n` read as `\n`.
    fn next(&mut self) -> Option<u8> {
        let c = *self.bytes.get(self.at)?;
        self.at += 1;
        if c == b'\r' && self.bytes.get(self.at) == Some(&b'\n') {
            self.at += 1;
            return Some(b'\n');
        }
        Some(c)
    }

    /// A section header after its `[`: `section`, `section.sub` (the old
    /// form, lower-cased whole) or `section "sub"` (the subsection as
    /// written, `\` escaping the next character).
    fn header(&mut self) -> Option<String> {
        let mut name = String::new();
        loop {
            let c = self.next()?;
            if c == b']' {
                return (!name.is_empty()).then_some(name);
            }
            if c == b' ' || c == b'\t' {
                break;
            }
            if !(c.is_ascii_alphanumeric() || c == b'-' || c == b'.') {
                return None;
            }
            name.push(char::from(c.to_ascii_lowercase()));
        }
        if name.is_empty() {
            return None;
        }
        let mut c = self.next()?;
        while c == b' ' || c == b'\t' {
            c = self.next()?;
        }
        if c != b'"' {
            return None;
        }
        let mut subsection = Vec::new();
        loop {
            let mut c = self.next()?;
            if c == b'\n' {
                return None;
            }
            if c == b'"' {
                break;
            }
            if c == b'\\' {
                c = self.next()?;
                if c == b'\n' {
                    return None;
                }
            }
            subsection.push(c);
        }
        if self.next()? != b']' {
            return None;
        }
        name.push('.');
        name.push_str(&String::from_utf8_lossy(&subsection));
        Some(name)
    }

    /// A value after its `=`, to the end of its (last continued) line.
    fn value(&mut self) -> Option<String> {
        let mut value = Vec::new();
        let mut quoted = false;
        let mut comment = false;
        let mut spaces = 0usize;
        loop {
            let Some(c) = self.next() else {
                // git ends a file with a newline of its own.
                return (!quoted).then(|| String::from_utf8_lossy(&value).into_owned());
            };
            if c == b'\n' {
                if quoted {
                    return None;
                }
                return Some(String::from_utf8_lossy(&value).into_owned());
            }
            if comment {
                continue;
            }
            if c.is_ascii_whitespace() && !quoted {
                if !value.is_empty() {
                    spaces += 1;
                }
                continue;
            }
            if !quoted && (c == b';' || c == b'#') {
                comment = true;
                continue;
            }
            value.extend(std::iter::repeat_n(b' ', spaces));
            spaces = 0;
            match c {
                b'\\' => match self.next() {
                    Some(b'\n') => continue,
                    Some(b't') => value.push(b'\t'),
                    Some(b'b') => value.push(8),
                    Some(b'n') => value.push(b'\n'),
                    Some(escaped @ (b'\\' | b'"')) => value.push(escaped),
                    _ => return None,
                },
                b'"' => quoted = !quoted,
                _ => value.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Vec<(String, Option<String>)> {
        parse(text.as_bytes())
            .unwrap_or_else(|| panic!("refused: {text:?}"))
            .into_iter()
            .map(|setting| (setting.name, setting.value))
            .collect()
    }

    fn one(name: &str, value: Option<&str>) -> Vec<(String, Option<String>)> {
        vec![(name.to_owned(), value.map(str::to_owned))]
    }

    #[test]
    fn the_syntax_is_read_as_git_reads_it() {
        assert_eq!(
            parsed("[core]\n\tfsmonitor = /tmp/x.sh\n"),
            one("core.fsmonitor", Some("/tmp/x.sh"))
        );
        // Names in any case; a subsection as written, the old form lowered.
        assert_eq!(
            parsed("[CoRe]\n\tFsMonitor=x"),
            one("core.fsmonitor", Some("x"))
        );
        assert_eq!(
            parsed("[diff \"My\\\"X\"]\n\ttextconv = t\n"),
            one("diff.My\"X.textconv", Some("t"))
        );
        assert_eq!(
            parsed("[Diff.MyX]\ncommand = c\n"),
            one("diff.myx.command", Some("c"))
        );
        // A header and a key on one line; a key alone is `true`.
        assert_eq!(
            parsed("[core] pager = less ; comment\n"),
            one("core.pager", Some("less"))
        );
        assert_eq!(parsed("[core]\n\tbare\n"), one("core.bare", None));
        assert_eq!(parsed("[core]\n\tbare # c\n"), one("core.bare", None));
        // Comments, quotes keeping `#`, inner spaces kept, escapes.
        assert_eq!(
            parsed("# a\n; b\n[alias]\n\tx = \"!echo #1\"   # c\n"),
            one("alias.x", Some("!echo #1"))
        );
        assert_eq!(
            parsed("[a]\n\tb = one   two  \n"),
            one("a.b", Some("one   two"))
        );
        assert_eq!(
            parsed("[a]\n\tb = \"x\\ty\\n\\\\\"\n"),
            one("a.b", Some("x\ty\n\\"))
        );
        // A continued line.
        assert_eq!(
            parsed("[core]\n\tpager = le\\\nss\n"),
            one("core.pager", Some("less"))
        );
        assert_eq!(
            parsed("[core]\r\n\tpager = x\r\n"),
            one("core.pager", Some("x"))
        );
        assert_eq!(parsed(""), vec![]);
        // What git refuses.
        for bad in [
            "key = x\n",
            "[core\n",
            "[core]\n\t1x = y\n",
            "[core]\n\tpager = \"open\n",
            "[core]\n\tpager = \\q\n",
            "[diff \"x]\n",
            "[diff x]\n",
            "[core]\n\tpager : x\n",
        ] {
            assert_eq!(parse(bad.as_bytes()), None, "{bad:?}");
        }
        // Bytes that are not UTF-8 are read, not refused.
        let settings =
            parse(b"[core]\n\tpager = \xff\xfe\n[diff \"\xc3\"]\n\tcommand = x\n").unwrap();
        assert_eq!(settings.len(), 2);
        assert_eq!(settings[1].name, "diff.\u{fffd}.command");
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn includes_are_followed_and_an_unreadable_one_runs_code() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let config = write(root, "config", "[include]\n\tpath = inner\n");
        write(root, "inner", "[core]\n\tbare = false\n");
        assert_eq!(runs_code(std::slice::from_ref(&config), None, &[]), None);
        write(
            root,
            "inner",
            "[includeIf \"gitdir:/x/\"]\n\tpath = deeper\n",
        );
        write(root, "deeper", "[alias]\n\tst = !sh -c x\n");
        assert_eq!(
            runs_code(std::slice::from_ref(&config), None, &[]),
            Some(Found::Sets {
                key: "alias.st".to_owned(),
                file: root.join("deeper"),
            })
        );
        // Missing, `~` with no home, nested past the limit, a directory.
        for target in ["missing", "~/x", "~other/x", "."] {
            write(root, "config", &format!("[include]\n\tpath = {target}\n"));
            assert!(
                matches!(
                    runs_code(std::slice::from_ref(&config), None, &[]),
                    Some(Found::Include { .. })
                ),
                "{target}"
            );
        }
        write(root, "config", "[include]\n\tpath = config\n");
        assert!(matches!(
            runs_code(std::slice::from_ref(&config), None, &[]),
            Some(Found::Include { .. })
        ));
        // `~/` is the home directory.
        let home = tempfile::tempdir().unwrap();
        write(home.path(), "shared", "[core]\n\teditor = vim\n");
        write(root, "config", "[include]\n\tpath = ~/shared\n");
        assert_eq!(
            runs_code(std::slice::from_ref(&config), Some(home.path()), &[])
                .unwrap()
                .key(),
            Some("core.editor")
        );
        // An empty path includes nothing.
        write(root, "config", "[include]\n\tpath =\n");
        assert_eq!(runs_code(&[config], None, &[]), None);
    }

    #[test]
    fn hostile_files_are_taken_as_running_code_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // A config that does not exist sets nothing.
        assert_eq!(runs_code(&[root.join("config")], None, &[]), None);
        // Too large.
        let big = write(
            root,
            "big",
            &format!("[a]\n{}", "\tb = c\n".repeat(MAX_BYTES as usize / 6)),
        );
        assert!(matches!(
            runs_code(&[big], None, &[]),
            Some(Found::Unreadable { .. })
        ));
        // A FIFO is never opened (opening one would block).
        let fifo = root.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|status| status.success());
        if made {
            assert!(matches!(
                runs_code(std::slice::from_ref(&fifo), None, &[]),
                Some(Found::Unreadable { .. })
            ));
            let config = write(root, "config", "[include]\n\tpath = fifo\n");
            assert!(matches!(
                runs_code(&[config], None, &[]),
                Some(Found::Include { .. })
            ));
        }
        // A line git refuses.
        let broken = write(root, "broken", "[core]\n\tpager = \"x\n");
        assert!(matches!(
            runs_code(&[broken], None, &[]),
            Some(Found::Unreadable { .. })
        ));
        // A skipped key is passed over, the next one found.
        let both = write(
            root,
            "both",
            "[core]\n\thooksPath = .husky\n\tsshCommand = x\n",
        );
        assert_eq!(
            runs_code(&[both], None, &["core.hookspath"]).unwrap().key(),
            Some("core.sshcommand")
        );
    }

    #[test]
    fn the_reason_names_the_key_and_file_not_the_value() {
        let found = Found::Sets {
            key: "core.fsmonitor".to_owned(),
            file: PathBuf::from("/p/.git/config"),
        };
        let message = found.message(Some(Path::new("/p")));
        assert!(
            message.starts_with("`.git/config` sets `core.fsmonitor`"),
            "{message}"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_are_read_without_a_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..512)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn config_like_bytes_are_read_without_a_panic(text in "[\\[\\]\"\\\\ \t\r\n=#;a-zA-Z.\u{ff}-]{0,200}") {
            if let Some(settings) = parse(text.as_bytes()) {
                for setting in settings {
                    let _ = keys::runs_code(&setting.name, setting.value.as_deref());
                }
            }
        }
    }
}
