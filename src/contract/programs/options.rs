//! The one reader of short-option clusters (`-abc`, `-ovalue`, `-o value`)
//! that every program rule in this module uses.

/// What a short option does with what follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Takes {
    /// A flag: the cluster goes on after it.
    Nothing,
    /// A value: the rest of the cluster, or the next word when nothing is
    /// left (`-uroot`, `-u root`).
    Value,
    /// A value only when glued to it (`sed -i[SUFFIX]`): the rest of the
    /// cluster, perhaps empty, never the next word.
    GluedValue,
}

/// How a program reads its clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// getopt: `-` only; letters in order until one that takes a value.
    Getopt,
    /// A shell's `set`-style options: `-` or `+`, every letter read; a
    /// letter that takes a value (`-o pipefail`) takes the next word.
    Shell,
}

/// Where the value of a cluster's last letter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClusterValue<'a> {
    /// The rest of the word (`-ovalue`; empty for `-i` of [`Takes::GluedValue`]).
    Glued(&'a str),
    /// The next word.
    NextWord,
}

/// One cluster of short options, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cluster<'a> {
    /// `-`, or `+` for a shell.
    pub sign: char,
    /// The option letters read, in order; for getopt, up to and including
    /// the first that takes a value.
    pub letters: &'a str,
    /// The value taken, when a letter takes one.
    pub value: Option<ClusterValue<'a>>,
}

impl Cluster<'_> {
    /// How many words the cluster and its value take: 2 when the value is
    /// the next word, else 1.
    pub fn words(&self) -> usize {
        if self.value == Some(ClusterValue::NextWord) {
            2
        } else {
            1
        }
    }

    /// The letter whose value was taken (getopt: the last one read).
    pub fn valued_letter(&self) -> Option<char> {
        self.value.and(self.letters.chars().next_back())
    }

    /// Whether any of `letters` was read.
    pub fn has_any(&self, letters: &str) -> bool {
        self.letters.chars().any(|ch| letters.contains(ch))
    }
}

/// Reads `word` as a cluster of short options, `takes` saying what each
/// letter does with what follows. `None` for a word that is not one: no
/// sign, the sign alone, or `--` (a long option or the end of options).
pub(super) fn short_cluster(
    word: &str,
    style: Style,
    takes: impl Fn(char) -> Takes,
) -> Option<Cluster<'_>> {
    let sign = word.chars().next()?;
    let signs: &[char] = match style {
        Style::Getopt => &['-'],
        Style::Shell => &['-', '+'],
    };
    if !signs.contains(&sign) || word.starts_with("--") {
        return None;
    }
    let cluster = &word[1..];
    if cluster.is_empty() {
        return None;
    }
    let mut value = None;
    let mut end = cluster.len();
    for (at, ch) in cluster.char_indices() {
        let next = at + ch.len_utf8();
        let rest = &cluster[next..];
        match (style, takes(ch)) {
            (_, Takes::Nothing) => {}
            (Style::Shell, _) => value = Some(ClusterValue::NextWord),
            (Style::Getopt, Takes::Value) if rest.is_empty() => {
                value = Some(ClusterValue::NextWord);
                break;
            }
            (Style::Getopt, _) => {
                value = Some(ClusterValue::Glued(rest));
                end = next;
                break;
            }
        }
    }
    Some(Cluster {
        sign,
        letters: &cluster[..end],
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn getopt(word: &str) -> Option<Cluster<'_>> {
        short_cluster(word, Style::Getopt, |ch| match ch {
            'u' | 'C' => Takes::Value,
            'i' => Takes::GluedValue,
            _ => Takes::Nothing,
        })
    }

    #[test]
    fn getopt_reads_letters_until_one_takes_a_value() {
        let cluster = getopt("-xuroot").unwrap();
        assert_eq!(cluster.letters, "xu");
        assert_eq!(cluster.value, Some(ClusterValue::Glued("root")));
        assert_eq!((cluster.words(), cluster.valued_letter()), (1, Some('u')));
        let cluster = getopt("-xu").unwrap();
        assert_eq!(cluster.value, Some(ClusterValue::NextWord));
        assert_eq!(cluster.words(), 2);
        let cluster = getopt("-ni.bak").unwrap();
        assert_eq!(cluster.letters, "ni");
        assert_eq!(cluster.value, Some(ClusterValue::Glued(".bak")));
        let cluster = getopt("-i").unwrap();
        assert_eq!(
            (cluster.value, cluster.words()),
            (Some(ClusterValue::Glued("")), 1)
        );
        let cluster = getopt("-abc").unwrap();
        assert_eq!(
            (cluster.letters, cluster.value, cluster.words()),
            ("abc", None, 1)
        );
        assert!(cluster.has_any("zc") && !cluster.has_any("uz"));
        for word in ["-", "--", "--user", "x", "", "+x"] {
            assert_eq!(getopt(word), None, "{word}");
        }
        // Multi-byte letters are letters, not a panic.
        assert_eq!(getopt("-éu").unwrap().letters, "éu");
    }

    #[test]
    fn a_shell_reads_every_letter_and_takes_the_next_word() {
        let takes = |ch| {
            if ch == 'o' {
                Takes::Value
            } else {
                Takes::Nothing
            }
        };
        let cluster = short_cluster("-eoc", Style::Shell, takes).unwrap();
        assert_eq!((cluster.sign, cluster.letters), ('-', "eoc"));
        assert_eq!(cluster.words(), 2);
        let cluster = short_cluster("+o", Style::Shell, takes).unwrap();
        assert_eq!((cluster.sign, cluster.words()), ('+', 2));
        assert_eq!(short_cluster("+x", Style::Getopt, takes), None);
    }
}
