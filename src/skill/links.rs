//! The relative links of a skill's Markdown body, for the link check
//! (`W005`).
//!
//! The body is read by a CommonMark parser (pulldown-cmark, with GitHub's
//! tables and footnotes), so what counts as a link is what a renderer
//! shows as one: nothing inside code blocks, code spans or HTML comments,
//! no escaped brackets, and destinations with balanced parentheses or in
//! angle brackets are read whole. The parser runs in time linear in the
//! body, and is skipped for bodies that cannot hold a link at all.

use std::borrow::Cow;

use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag};

use super::rules::count_newlines;

/// A relative link in the body: its target path, with the fragment and
/// query removed and `%` escapes decoded, and its file line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLink<'a> {
    pub target: Cow<'a, str>,
    pub line: usize,
}

/// The relative link targets of a Markdown body, in file order: inline
/// links and images (`[text](target)`) and reference definitions
/// (`[id]: target`). URLs, absolute paths and in-page anchors are not
/// relative links. `body_first_line` is the file line of the body's first
/// line.
pub fn relative_links(body: &str, body_first_line: usize) -> Vec<BodyLink<'_>> {
    if !may_hold_a_link(body) {
        return Vec::new();
    }
    let parser = Parser::new_ext(body, Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES);
    // The definitions borrow from the parser, so they are copied (they are
    // few); inline targets borrow from the body.
    let mut found: Vec<(usize, CowStr<'_>)> = parser
        .reference_definitions()
        .iter()
        .map(|(_, definition)| {
            let dest: &str = &definition.dest;
            (definition.span.start, CowStr::from(dest.to_owned()))
        })
        .collect();
    for (event, range) in parser.into_offset_iter() {
        // Links through a reference take their target from a definition,
        // which is checked once, above.
        if let Event::Start(
            Tag::Link {
                link_type: LinkType::Inline,
                dest_url,
                ..
            }
            | Tag::Image {
                link_type: LinkType::Inline,
                dest_url,
                ..
            },
        ) = event
        {
            found.push((range.start, dest_url));
        }
    }
    if found.is_empty() {
        return Vec::new();
    }
    found.sort_by_key(|(offset, _)| *offset);
    // Offsets ascend, so counting the newlines between neighbours reads
    // the body once.
    let mut line = body_first_line;
    let mut counted_to = 0;
    found
        .into_iter()
        .filter_map(|(offset, target)| {
            line += count_newlines(&body.as_bytes()[counted_to..offset]);
            counted_to = offset;
            relative_path(target).map(|target| BodyLink { target, line })
        })
        .collect()
}

/// Every inline link has `](` and every definition `]:`, then its
/// destination (after blanks and at most one line break, in `<...>` or
/// not). A body where no such spot can start a relative destination skips
/// the parser: most have none, and many link only to URLs (`](https:`)
/// and anchors (`](#`), whose destinations are never relative paths
/// whatever the parser makes of the Markdown around them. One pass: `]`
/// is rare in prose, and finding it is a fast byte search.
fn may_hold_a_link(body: &str) -> bool {
    let bytes = body.as_bytes();
    memchr::memchr_iter(b']', bytes).any(|at| {
        matches!(bytes.get(at + 1), Some(b'(' | b':'))
            && !starts_with_url_or_anchor(&bytes[at + 2..])
    })
}

/// Whether a destination that starts in `rest` (blanks, one line break
/// and `<` skipped, as CommonMark skips them) starts with a URL scheme
/// (`https:`) or a `#`: then it is not a relative path ([`has_scheme`],
/// [`path_part`]). Escapes and entity references are not read: a
/// destination that starts with one is treated as possibly relative.
fn starts_with_url_or_anchor(rest: &[u8]) -> bool {
    let mut at = 0;
    let blanks = |at: &mut usize| {
        while matches!(rest.get(*at), Some(b' ' | b'\t')) {
            *at += 1;
        }
    };
    blanks(&mut at);
    if rest.get(at) == Some(&b'\r') {
        at += 1;
    }
    if rest.get(at) == Some(&b'\n') {
        at += 1;
    }
    blanks(&mut at);
    if rest.get(at) == Some(&b'<') {
        at += 1;
    }
    if rest.get(at) == Some(&b'#') {
        return true;
    }
    let scheme = rest[at.min(rest.len())..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        .count();
    scheme > 0 && rest.get(at + scheme) == Some(&b':')
}

/// The path part of a link target when it is a relative path.
fn relative_path(target: CowStr<'_>) -> Option<Cow<'_, str>> {
    let path = match target {
        CowStr::Borrowed(text) => Cow::Borrowed(path_part(text)),
        CowStr::Boxed(text) => Cow::Owned(path_part(&text).to_owned()),
        CowStr::Inlined(text) => Cow::Owned(path_part(&text).to_owned()),
    };
    if path.is_empty() || path.starts_with('/') || path.starts_with('\\') || has_scheme(&path) {
        return None;
    }
    let decoded = match percent_decode(&path) {
        Cow::Borrowed(_) => path,
        Cow::Owned(decoded) => Cow::Owned(decoded),
    };
    // `{baseDir}` is the skill's own directory: Claude Code puts the
    // directory's path in its place when it loads the skill.
    match decoded.strip_prefix(BASE_DIR) {
        None => Some(decoded),
        Some("" | "/") => None,
        Some(rest) => rest
            .strip_prefix('/')
            .filter(|rest| !rest.is_empty())
            .map(|rest| Cow::Owned(rest.to_owned())),
    }
}

/// The placeholder for the skill's directory in a body's links.
pub const BASE_DIR: &str = "{baseDir}";

fn path_part(target: &str) -> &str {
    target.split(['#', '?']).next().unwrap_or_default().trim()
}

/// `https:`, `mailto:`, `file:`... A Windows drive (`C:`) counts too: it is
/// not a relative path either.
fn has_scheme(target: &str) -> bool {
    match target.find(':') {
        Some(colon) => {
            let scheme = &target[..colon];
            !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        }
        None => false,
    }
}

/// Decodes `%20`-style escapes that Markdown links use for spaces and other
/// characters; anything malformed is left as it is.
pub fn percent_decode(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%'
            && let Some(value) = text
                .get(index + 1..index + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            decoded.push(value);
            index += 3;
            continue;
        }
        decoded.push(bytes[index]);
        index += 1;
    }
    match String::from_utf8(decoded) {
        Ok(text) => Cow::Owned(text),
        Err(_) => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(body: &str) -> Vec<(String, usize)> {
        relative_links(body, 10)
            .into_iter()
            .map(|link| (link.target.into_owned(), link.line))
            .collect()
    }

    fn pairs(expected: &[(&str, usize)]) -> Vec<(String, usize)> {
        expected
            .iter()
            .map(|(target, line)| ((*target).to_owned(), *line))
            .collect()
    }

    #[test]
    fn base_dir_is_the_skill_directory() {
        let body = "[a]({baseDir}/scripts/run.py) [b](%7BbaseDir%7D/references/x.md) [c]({baseDir}) [d]({baseDir}/)\n";
        assert_eq!(
            targets(body),
            pairs(&[("scripts/run.py", 10), ("references/x.md", 10)])
        );
    }

    #[test]
    fn finds_relative_links_only() {
        let body = "See [the guide](references/guide.md#intro) and ![img](assets/a.png \"t\").\n\
                    Web: [x](https://example.com) [y](mailto:a@b) [z](#top) [abs](/etc/passwd)\n\
                    ```\n[in code](nope.md)\n```\n\
                    `[inline](nope2.md)` [spaced](<docs/a b.md>) [pct](a%20b.md)\n\
                    \n[ref]: scripts/run.py\n";
        assert_eq!(
            targets(body),
            pairs(&[
                ("references/guide.md", 10),
                ("assets/a.png", 10),
                ("docs/a b.md", 15),
                ("a b.md", 15),
                ("scripts/run.py", 17),
            ])
        );
    }

    #[test]
    fn markdown_that_is_not_a_link_is_not_checked() {
        let body = "[p](file(1).md)\n\
                    \n<!-- [c](commented.md) -->\n\
                    \n``[d](double `x`.md)``\n\
                    \n\\[e](escaped.md)\n\
                    \n[r]: <a b.md>\n\
                    \n    [i](indented.md)\n\
                    \n````\n```not-a-close\n[f](fenced.md)\n````\n\
                    \n[^1]: a footnote, not a definition\n";
        assert_eq!(targets(body), pairs(&[("file(1).md", 10), ("a b.md", 18)]));
    }

    #[test]
    fn reference_links_check_their_definition_once() {
        let body = "[a][one] and [one] and [b][two]\n\n[one]: x.md\n[two]: y.md\n[unused]: z.md\n";
        assert_eq!(
            targets(body),
            pairs(&[("x.md", 12), ("y.md", 13), ("z.md", 14)])
        );
    }

    #[test]
    fn bodies_without_links_skip_the_parser() {
        assert!(relative_links("# Title\n\nplain [text] here\n", 1).is_empty());
        assert!(!may_hold_a_link("a] b ]] c]"));
        assert!(may_hold_a_link("x] [a](b)"));
        assert!(may_hold_a_link("[a]: b"));
        assert!(!may_hold_a_link(""));
    }

    #[test]
    fn bodies_linking_only_to_urls_and_anchors_skip_the_parser() {
        for body in [
            "[a](https://x.y/z) ![i](http://x/i.png)",
            "[a]( <mailto:me@x.y>) [b](#top)",
            "[a](\n  https://x.y)",
            "[id]: https://x.y\n[id2]:\n <#anchor>",
        ] {
            assert!(!may_hold_a_link(body), "{body:?}");
            assert!(relative_links(body, 1).is_empty(), "{body:?}");
        }
        // Anything else may be relative, and goes through the parser.
        for body in [
            "[a](https://x.y) [b](ref.md)",
            "[a](&#35;x)",
            "[a](\\#x)",
            "[a](%68ttps://x)",
            "[a](\n\nhttps://x)",
            "[a]( ref.md)",
            "x](",
        ] {
            assert!(may_hold_a_link(body), "{body:?}");
        }
        let both = targets("[a](https://x.y) [b](ref.md)");
        assert_eq!(both.len(), 1);
        assert_eq!(both[0].0, "ref.md");
    }

    #[test]
    fn percent_decoding_is_lenient() {
        assert_eq!(percent_decode("a%20b"), "a b");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%ff"), "%ff");
    }
}
