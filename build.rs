//! Two things are generated here:
//!
//! - the git commit aigent was built from, for `aigent --version`;
//! - the `o200k_base` vocabulary as flat tables (see `write_vocabulary`);
//! - the built-in catalog of declarations (`catalog/`) as a table of file
//!   names, texts and the program each runs (see `write_catalog`).
//!
//! Man pages and completions come from the hidden `aigent generate`
//! subcommand and are committed.

use std::path::Path;
use std::process::Command;

#[path = "src/tokenizer/vocab_hash.rs"]
mod vocab_hash;

fn main() {
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    write_vocabulary(Path::new(&out_dir));
    write_catalog(Path::new(&out_dir));
    println!("cargo:rerun-if-env-changed=AIGENT_GIT_HASH");
    if let Some(git_dir) = git_output(&["rev-parse", "--git-dir"]) {
        // Rebuild when HEAD moves (a commit, a checkout), not on every build.
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        println!("cargo:rerun-if-changed={git_dir}/refs/heads");
    }
    let hash = std::env::var("AIGENT_GIT_HASH")
        .ok()
        .or_else(|| git_output(&["rev-parse", "--short=12", "HEAD"]));
    if let Some(hash) = hash {
        println!("cargo:rustc-env=AIGENT_GIT_HASH={hash}");
    }
}

/// A git command's trimmed stdout, or `None` when git or the repository is
/// missing (a crates.io tarball, a machine without git).
fn git_output(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// Slots in the vocabulary's hash index: a power of two, with room for
/// every token at a load of at most 0.8 (o200k: 0.76). Twice as many
/// slots made probes shorter, but an 8 MB table that no translation
/// buffer covers cost more than the probes: the 4 MB one took 2.5% less
/// CPU time on the real collection.
const INDEX_SLOTS: usize = 1 << 18;

/// Lays out OpenAI's `o200k_base` vocabulary, which the `bpe-openai` crate
/// ships, as four little-endian tables that `src/tokenizer/vocab.rs`
/// includes in the binary and reads in place:
///
/// - `o200k_tokens.bin`: every token's bytes, in rank order, back to back;
/// - `o200k_starts.bin`: `u32` offsets into it, one per token plus the end;
/// - `o200k_index.bin`: an open-addressing hash index of 16-byte slots
///   (all zero for an empty one), probed linearly from `key_hash` of the
///   token's `index_key`. A slot holds the key (the token's first 12
///   bytes and its length, bits 0-103) and the rank (bits 104-121), so
///   a lookup of a token of up to 12 bytes (nearly every lookup) reads
///   one slot, one cache line, and nothing else; a longer token's rest is
///   compared in the tokens table, found through the starts table (a
///   probe that meets another token reads the next slot, mostly on the
///   same cache line);
/// - `o200k_pairs.bin`: the `u32` rank of every two-byte string (`u32::MAX`
///   when it is no token), at `first * 256 + second`: merging a piece
///   starts from its pairs, one load each instead of a hash probe.
///
/// Reading these costs nothing at startup. Loading the crate's own encoder
/// instead took 55 ms and 70 MB on every run, for a feature that counts.
/// Laying the tables out takes about 0.2 s; a table is rewritten only when
/// its bytes change, so a stale one never survives a change to the layout.
fn write_vocabulary(out_dir: &Path) {
    let bpe = &bpe_openai::o200k_base().bpe;
    let count = bpe.num_tokens();
    assert!(count * 5 <= INDEX_SLOTS * 4, "the index needs more slots");

    let mut tokens = Vec::new();
    let mut starts = Vec::with_capacity((count + 1) * 4);
    let mut index = vec![0u128; INDEX_SLOTS];
    for rank in 0..count as u32 {
        let bytes = bpe.token_bytes(rank);
        let start = tokens.len();
        assert!(!bytes.is_empty() && bytes.len() < 255 && rank < 1 << 18);
        starts.extend_from_slice(&(start as u32).to_le_bytes());
        tokens.extend_from_slice(bytes);
        let key = vocab_hash::index_key(bytes);
        let mut slot = (vocab_hash::key_hash(key) >> (64 - INDEX_SLOTS.trailing_zeros())) as usize;
        while index[slot] != 0 {
            slot = (slot + 1) & (INDEX_SLOTS - 1);
        }
        index[slot] = key | u128::from(rank) << 104;
    }
    starts.extend_from_slice(&(tokens.len() as u32).to_le_bytes());
    let index: Vec<u8> = index.iter().flat_map(|slot| slot.to_le_bytes()).collect();
    // Every pair of bytes, first byte major: its rank, or u32::MAX.
    let mut pair_ranks = vec![u32::MAX; 1 << 16];
    for rank in 0..count as u32 {
        if let &[first, second] = bpe.token_bytes(rank) {
            pair_ranks[usize::from(first) << 8 | usize::from(second)] = rank;
        }
    }
    let pairs: Vec<u8> = pair_ranks
        .iter()
        .flat_map(|rank| rank.to_le_bytes())
        .collect();

    // Written under temporary names and renamed, so an interrupted build
    // never leaves half a table.
    let names = [
        "o200k_tokens.bin",
        "o200k_starts.bin",
        "o200k_index.bin",
        "o200k_pairs.bin",
    ];
    for (name, bytes) in names.iter().zip([&tokens, &starts, &index, &pairs]) {
        if std::fs::read(out_dir.join(name)).is_ok_and(|existing| existing == *bytes) {
            continue;
        }
        let partial = out_dir.join(format!("{name}.partial"));
        std::fs::write(&partial, bytes).expect("write a vocabulary table");
        std::fs::rename(&partial, out_dir.join(name)).expect("rename a vocabulary table");
    }
}

/// `catalog.rs` in `OUT_DIR`: `CATALOG` and `CATALOG_DENY`, each a sorted
/// table of `(file name, text, program, key word)` for the JSON files of
/// `catalog/` and `catalog/deny/`. The program is read off the file's
/// `"binary": "..."` and the key word (`registry::programs::key_word`) off
/// its `"argv"`, so that the hook finds the few declarations a line could
/// match without parsing the whole catalog; a test holds both to the
/// parsed declarations.
fn write_catalog(out_dir: &Path) {
    println!("cargo:rerun-if-changed=catalog");
    println!("cargo:rerun-if-changed=catalog/deny");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = String::from("// Generated by build.rs from catalog/.\n");
    for (table, dir) in [("CATALOG", "catalog"), ("CATALOG_DENY", "catalog/deny")] {
        let mut files: Vec<(String, String)> = std::fs::read_dir(root.join(dir))
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|entry| entry.path())
                    .filter(|path| {
                        path.is_file() && path.extension().is_some_and(|ext| ext == "json")
                    })
                    .map(|path| {
                        let name = path.file_name().unwrap().to_string_lossy().into_owned();
                        (name, path.display().to_string())
                    })
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        out.push_str(&format!("pub const {table}: &[(&str, &str, &str, &str)] = &[\n"));
        for (name, path) in &files {
            let text = std::fs::read_to_string(path).expect("a catalog file is UTF-8");
            let program = text
                .split("\"binary\"")
                .nth(1)
                .and_then(|rest| rest.split('"').nth(1))
                .unwrap_or_default()
                .to_owned();
            let key = key_word(&text).unwrap_or_default();
            out.push_str(&format!(
                "    ({name:?}, include_str!({path:?}), {program:?}, {key:?}),\n"
            ));
        }
        out.push_str("];\n");
    }
    std::fs::write(out_dir.join("catalog.rs"), out).expect("write catalog.rs");
}

/// The key word of a catalog file's `"argv"` template: its first literal
/// that is not an option, not after a literal option, and not after `--`
/// (as `registry::programs::key_word` reads the parsed template). A small
/// reader of the JSON array: strings are literals, `{...}` slots.
fn key_word(text: &str) -> Option<String> {
    let start = text.find("\"argv\"")?;
    let rest = &text[start + 6..];
    let mut chars = rest[rest.find('[')? + 1..].chars();
    let mut after_option = false;
    let mut depth = 0usize;
    while let Some(ch) = chars.next() {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    after_option = false;
                }
            }
            ']' if depth == 0 => return None,
            '"' => {
                let mut literal = String::new();
                while let Some(ch) = chars.next() {
                    match ch {
                        '\\' => literal.push(chars.next()?),
                        '"' => break,
                        other => literal.push(other),
                    }
                }
                if depth > 0 {
                    continue;
                }
                if literal == "--" {
                    return None;
                }
                if literal.starts_with('-') {
                    after_option = true;
                } else if !after_option {
                    return Some(literal);
                } else {
                    after_option = false;
                }
            }
            _ => {}
        }
    }
    None
}
