//! Listings in pages (CLI Agent Spec REQ-F-018, REQ-F-019, REQ-F-052,
//! REQ-O-003): at most `--limit` items from where `--cursor` says, and never
//! more bytes than the response cap, with what was left out said in `meta`.
//!
//! A cursor is stateless: it holds the offset of the next item and a
//! fingerprint of the query it continues (the command and its filters), so
//! a cursor from another query is refused instead of paging the wrong list.
//! It is URL-safe text (`v1.OFFSET.FINGERPRINT`), opaque to the caller.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// The items a listing returns in json mode when `--limit` is not given
/// (REQ-F-019). `--limit 0` lifts it.
pub const DEFAULT_LIMIT: usize = 20;

/// The largest json response, in bytes, unless the environment says
/// otherwise (REQ-F-052).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 1024 * 1024;

/// The variables that set the cap, the first one set winning: aigent's
/// own, then the spec's name for it.
pub const MAX_OUTPUT_VARIABLES: [&str; 2] = ["AIGENT_MAX_OUTPUT_BYTES", "TOOL_MAX_OUTPUT_BYTES"];

/// The smallest cap honoured: below it not even one small item and the
/// envelope around it would fit.
pub const MIN_OUTPUT_BYTES: usize = 4 * 1024;

/// Bytes of the cap kept for the envelope around the listing (`ok`,
/// `error`, `warnings`, `meta`, the rest of `data`).
const ENVELOPE_RESERVE: usize = 2 * 1024;

/// The cap: the first of [`MAX_OUTPUT_VARIABLES`] that `lookup` finds set
/// to a number, at least [`MIN_OUTPUT_BYTES`], else the default. A value
/// that is not a number is ignored, as an unset one is.
pub fn max_output_bytes(lookup: impl Fn(&str) -> Option<String>) -> usize {
    MAX_OUTPUT_VARIABLES
        .iter()
        .find_map(|name| lookup(name).and_then(|text| text.trim().parse::<usize>().ok()))
        .map_or(DEFAULT_MAX_OUTPUT_BYTES, |bytes| {
            bytes.max(MIN_OUTPUT_BYTES)
        })
}

/// What a caller asked for: where to start, how many, how many bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRequest {
    pub offset: usize,
    /// `None`: no limit on the count.
    pub limit: Option<usize>,
    /// `None`: no limit on the size (text output).
    pub max_bytes: Option<usize>,
    fingerprint: String,
}

/// Why a `--cursor` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CursorError {
    #[error("`{0}` is not a cursor this command gave; pass the `meta.cursor` of the previous page")]
    Malformed(String),
    #[error(
        "the cursor `{0}` continues another listing (other filters or another command); repeat that listing's arguments, or start again without --cursor"
    )]
    OtherQuery(String),
}

impl PageRequest {
    /// A request for the listing `query` names (the command and every
    /// argument that changes what is listed, in a stable order), from
    /// `cursor` if given.
    pub fn new(
        query: &str,
        cursor: Option<&str>,
        limit: Option<usize>,
        max_bytes: Option<usize>,
    ) -> Result<Self, CursorError> {
        let fingerprint = fingerprint(query);
        let offset = match cursor {
            None => 0,
            Some(cursor) => {
                let (offset, of) = parse_cursor(cursor)
                    .ok_or_else(|| CursorError::Malformed(cursor.to_owned()))?;
                if of != fingerprint {
                    return Err(CursorError::OtherQuery(cursor.to_owned()));
                }
                offset
            }
        };
        Ok(Self {
            offset,
            limit,
            max_bytes: max_bytes.map(|bytes| bytes.saturating_sub(ENVELOPE_RESERVE)),
            fingerprint,
        })
    }

    /// Everything, from the start: what a listing without paging returns.
    pub fn everything() -> Self {
        Self {
            offset: 0,
            limit: None,
            max_bytes: None,
            fingerprint: String::new(),
        }
    }

    /// A pager that takes the items of this page one by one.
    pub fn pager(&self) -> Pager {
        Pager {
            request: self.clone(),
            seen: 0,
            returned: 0,
            bytes: 0,
            cut: None,
        }
    }
}

/// Items offered in order; [`Pager::offer`] says which go in the page.
#[derive(Debug, Clone)]
pub struct Pager {
    request: PageRequest,
    /// Items offered so far.
    seen: usize,
    returned: usize,
    bytes: usize,
    /// The first item left out after the page began, and why.
    cut: Option<(usize, Cut)>,
}

/// Why a page ended before the listing did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// `--limit` (or the default limit) was reached.
    Limit,
    /// The next item would have taken the response past the byte cap.
    Bytes,
}

impl Pager {
    /// Whether the next item, `size` bytes as written, goes in the page.
    /// Items before the cursor's offset and after the page's end do not;
    /// once an item is left out for its size, so is every later one, so a
    /// page is always a run of consecutive items.
    pub fn offer(&mut self, size: usize) -> bool {
        let index = self.seen;
        self.seen += 1;
        if index < self.request.offset || self.cut.is_some() {
            return false;
        }
        if self
            .request
            .limit
            .is_some_and(|limit| self.returned >= limit)
        {
            self.cut = Some((index, Cut::Limit));
            return false;
        }
        if let Some(max) = self.request.max_bytes
            && self.bytes + size > max
            // The first item of a page always goes in: a page must move on.
            && self.returned > 0
        {
            self.cut = Some((index, Cut::Bytes));
            return false;
        }
        self.bytes += size;
        self.returned += 1;
        true
    }

    /// The page, once every item was offered (`total` of them).
    pub fn page(&self) -> Page {
        let next = self.cut.map(|(index, _)| index);
        Page {
            total: self.seen,
            offset: self.request.offset,
            returned: self.returned,
            next_cursor: next.map(|offset| cursor(offset, &self.request.fingerprint)),
            cut: self.cut.map(|(_, cut)| cut),
        }
    }
}

/// One page of a listing, for the envelope's `meta`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub total: usize,
    pub offset: usize,
    pub returned: usize,
    /// The `--cursor` of the next page; `None` on the last.
    pub next_cursor: Option<String>,
    pub cut: Option<Cut>,
}

impl Page {
    /// Whether items after this page were left out.
    pub fn has_more(&self) -> bool {
        self.next_cursor.is_some()
    }

    /// The keys this page adds to `meta`: `pagination` (REQ-F-018, which
    /// the spec's envelope schema only admits inside `meta`), `truncated`
    /// and `cursor` (the schema's own), and REQ-F-052's `total_count`,
    /// `returned_count` and, when cut, `truncation_hint`.
    pub fn meta(&self) -> Map<String, Value> {
        let mut meta = Map::new();
        meta.insert(
            "pagination".to_owned(),
            json!({
                "total": self.total,
                "offset": self.offset,
                "returned": self.returned,
                "truncated": self.has_more(),
                "has_more": self.has_more(),
                "next_cursor": self.next_cursor,
            }),
        );
        meta.insert("truncated".to_owned(), self.has_more().into());
        meta.insert("total_count".to_owned(), self.total.into());
        meta.insert("returned_count".to_owned(), self.returned.into());
        if let Some(next) = &self.next_cursor {
            meta.insert("cursor".to_owned(), next.clone().into());
            let why = match self.cut {
                Some(Cut::Bytes) => "the response reached its size cap",
                _ => "the page is full",
            };
            meta.insert(
                "truncation_hint".to_owned(),
                format!("--cursor {next} (with the same other arguments) for the next page; {why}; --limit 0 for no count limit")
                    .into(),
            );
        }
        meta
    }

    /// One line for text output after a page that left items out; `None`
    /// on a complete listing.
    pub fn footer(&self, what: &str) -> Option<String> {
        let next = self.next_cursor.as_ref()?;
        let first = self.offset + 1;
        let last = self.offset + self.returned;
        Some(format!(
            "{first}-{last} of {} {what}; --cursor {next} for the next page, --limit 0 for all",
            self.total
        ))
    }
}

fn fingerprint(query: &str) -> String {
    let digest = Sha256::digest(query.as_bytes());
    digest[..4]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn cursor(offset: usize, fingerprint: &str) -> String {
    format!("v1.{offset}.{fingerprint}")
}

/// `v1.OFFSET.FINGERPRINT`, read strictly: a cursor is only ever one this
/// module made.
fn parse_cursor(text: &str) -> Option<(usize, String)> {
    let mut parts = text.split('.');
    let (Some("v1"), Some(offset), Some(fingerprint), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    let well_formed = !offset.is_empty()
        && offset.len() <= 20
        && offset.bytes().all(|byte| byte.is_ascii_digit())
        && fingerprint.len() == 8
        && fingerprint
            .bytes()
            .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte));
    if !well_formed {
        return None;
    }
    Some((offset.parse().ok()?, fingerprint.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pages(request: &PageRequest, sizes: &[usize]) -> (Vec<usize>, Page) {
        let mut pager = request.pager();
        let taken = sizes
            .iter()
            .enumerate()
            .filter(|&(_, &size)| pager.offer(size))
            .map(|(index, _)| index)
            .collect();
        (taken, pager.page())
    }

    #[test]
    fn a_limit_makes_pages_and_their_cursors_walk_the_whole_listing() {
        let sizes = [10; 7];
        let first = PageRequest::new("q", None, Some(3), None).unwrap();
        let (taken, page) = pages(&first, &sizes);
        assert_eq!(taken, [0, 1, 2]);
        assert_eq!(page.total, 7);
        assert_eq!(page.cut, Some(Cut::Limit));
        let next = page.next_cursor.clone().unwrap();
        let second = PageRequest::new("q", Some(&next), Some(3), None).unwrap();
        let (taken, page) = pages(&second, &sizes);
        assert_eq!(taken, [3, 4, 5]);
        let last = PageRequest::new("q", page.next_cursor.as_deref(), Some(3), None).unwrap();
        let (taken, page) = pages(&last, &sizes);
        assert_eq!(taken, [6]);
        assert!(!page.has_more());
        let meta = page.meta();
        assert_eq!(meta["truncated"], false);
        assert_eq!(meta["pagination"]["next_cursor"], Value::Null);
        assert!(meta.get("cursor").is_none());
    }

    #[test]
    fn the_byte_cap_cuts_before_the_item_that_would_pass_it() {
        let request = PageRequest {
            max_bytes: Some(25),
            ..PageRequest::new("q", None, None, None).unwrap()
        };
        let (taken, page) = pages(&request, &[10, 10, 10, 1]);
        assert_eq!(taken, [0, 1]);
        assert_eq!(page.cut, Some(Cut::Bytes));
        assert_eq!(page.meta()["truncated"], true);
        assert!(
            page.meta()["truncation_hint"]
                .as_str()
                .unwrap()
                .contains("--cursor v1.2.")
        );
        // One item larger than the cap still makes a page: paging moves on.
        let (taken, _) = pages(&request, &[100, 1]);
        assert_eq!(taken, [0]);
    }

    #[test]
    fn a_cursor_of_another_query_or_a_forged_one_is_refused() {
        let page = pages(
            &PageRequest::new("a", None, Some(1), None).unwrap(),
            &[1, 1],
        )
        .1;
        let cursor = page.next_cursor.unwrap();
        assert!(matches!(
            PageRequest::new("b", Some(&cursor), None, None),
            Err(CursorError::OtherQuery(_))
        ));
        for bad in [
            "",
            "v1",
            "v1.1",
            "v2.1.00000000",
            "v1.-1.00000000",
            "v1.1.0000000g",
            "v1.1.00000000.x",
            "v1.99999999999999999999999.00000000",
        ] {
            assert!(
                matches!(
                    PageRequest::new("a", Some(bad), None, None),
                    Err(CursorError::Malformed(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_cap_comes_from_the_environment_with_a_floor() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| (*value).to_owned())
            }
        };
        assert_eq!(max_output_bytes(env(&[])), DEFAULT_MAX_OUTPUT_BYTES);
        assert_eq!(
            max_output_bytes(env(&[("TOOL_MAX_OUTPUT_BYTES", "5242880")])),
            5_242_880
        );
        assert_eq!(
            max_output_bytes(env(&[
                ("AIGENT_MAX_OUTPUT_BYTES", "9000"),
                ("TOOL_MAX_OUTPUT_BYTES", "5242880")
            ])),
            9000
        );
        assert_eq!(
            max_output_bytes(env(&[("TOOL_MAX_OUTPUT_BYTES", "1")])),
            MIN_OUTPUT_BYTES
        );
        assert_eq!(
            max_output_bytes(env(&[("TOOL_MAX_OUTPUT_BYTES", "lots")])),
            DEFAULT_MAX_OUTPUT_BYTES
        );
    }

    proptest! {
        /// Following the cursors from the first page returns every item
        /// exactly once, in order, whatever the sizes and the limit.
        #[test]
        fn following_the_cursors_returns_every_item_once(
            sizes in proptest::collection::vec(1usize..50, 0..40),
            limit in proptest::option::of(1usize..6),
            max in proptest::option::of(10usize..120),
        ) {
            let mut cursor: Option<String> = None;
            let mut all = Vec::new();
            for _ in 0..=sizes.len() {
                let mut request = PageRequest::new("q", cursor.as_deref(), limit, None).unwrap();
                request.max_bytes = max;
                let (taken, page) = pages(&request, &sizes);
                all.extend(taken);
                cursor = page.next_cursor;
                if cursor.is_none() {
                    break;
                }
            }
            prop_assert!(cursor.is_none());
            prop_assert_eq!(all, (0..sizes.len()).collect::<Vec<_>>());
        }
    }
}
