//! `--limit` and `--cursor` on the commands that list (CLI Agent Spec
//! REQ-O-003), and the page they ask for: in json and jsonl at most
//! [`DEFAULT_LIMIT`] items unless `--limit` says otherwise, within the
//! response cap (`AIGENT_MAX_OUTPUT_BYTES`, else `TOOL_MAX_OUTPUT_BYTES`,
//! else 1 MiB); in text, tsv and plain every item unless `--limit` says
//! otherwise, since a person reads text and a pipe of text is theirs to
//! cut.

use clap::Args;

use aigent::report::page::{DEFAULT_LIMIT, PageRequest, max_output_bytes};
use aigent::report::{ErrorBody, ErrorCode, Phase};

use super::{CliError, Context};

#[derive(Debug, Args, Default, Clone)]
pub struct PageArgs {
    /// At most N items (0: no limit) [default: 20 in json and jsonl, else all]
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Continue a listing where its last page ended (`meta.cursor`)
    #[arg(long, value_name = "CURSOR")]
    pub cursor: Option<String>,
}

impl PageArgs {
    /// The page these flags ask for, of the listing `query` names (the
    /// command and every argument that changes what it lists).
    pub fn request(&self, ctx: &Context, query: &str) -> Result<PageRequest, CliError> {
        let json = ctx.for_program();
        let limit = match self.limit {
            Some(0) => None,
            Some(limit) => Some(limit),
            None if json => Some(DEFAULT_LIMIT),
            None => None,
        };
        let max_bytes = json.then(|| max_output_bytes(|name| std::env::var(name).ok()));
        PageRequest::new(query, self.cursor.as_deref(), limit, max_bytes).map_err(|err| {
            let mut body = ErrorBody::new(ErrorCode::ArgError, err.to_string());
            body.phase = Some(Phase::Validation);
            body.field = Some("--cursor".to_owned());
            CliError {
                exit_code: body.code.exit_code(),
                body: Box::new(body),
            }
        })
    }
}

/// The bytes `item` takes in the envelope as an element of a listing in
/// `data` (nested two levels deep), for [`aigent::report::page::Pager::offer`].
pub fn weight(item: &impl serde::Serialize) -> usize {
    aigent::report::pretty::nested(b"    ", item).map_or(0, |bytes| bytes.len() + 6)
}
