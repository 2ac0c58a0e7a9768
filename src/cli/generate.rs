//! `aigent generate man|completions --out-dir DIR` (hidden): writes the man
//! pages and the static completion scripts that are committed under `man/`
//! and `completions/`. They come from the clap definition, never from
//! build.rs, and `tests/generated.rs` fails when the committed copies drift.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use clap_complete::{Generator, Shell};
use serde_json::json;

use aigent::report::Outcome;

use super::{CliError, Context};

#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[command(subcommand)]
    pub artifact: Artifact,
}

#[derive(Debug, Subcommand)]
pub enum Artifact {
    /// Man pages: aigent.1 and one page per subcommand
    Man(OutDir),
    /// Static completion scripts for every supported shell
    Completions(OutDir),
}

#[derive(Debug, Args)]
pub struct OutDir {
    /// The directory to write into (created if missing)
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub out_dir: PathBuf,
}

pub fn run(args: &GenerateArgs, _ctx: &Context) -> Result<Outcome, CliError> {
    let (out_dir, files) = match &args.artifact {
        Artifact::Man(target) => (&target.out_dir, man_pages()?),
        Artifact::Completions(target) => (&target.out_dir, static_completions()?),
    };
    write_all(out_dir, &files)?;
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    let text = names
        .iter()
        .map(|name| format!("wrote {}\n", out_dir.join(name).display()))
        .collect::<String>();
    Ok(Outcome::success(
        json!({"out_dir": out_dir, "files": names}),
        text,
    ))
}

/// Every page, named as `man` looks them up (`aigent-skill-validate.1`).
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>, CliError> {
    // The long version carries the git hash; pages must not change with
    // every commit, so they show the plain version.
    let mut root = super::command().long_version(None::<&str>);
    root.build();
    let mut pages = Vec::new();
    collect_pages(root, &mut pages)?;
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(pages)
}

fn collect_pages(
    command: clap::Command,
    pages: &mut Vec<(String, Vec<u8>)>,
) -> Result<(), CliError> {
    // clap's generated `help` subcommands only repeat `--help`.
    let visible = command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help");
    for sub in visible {
        collect_pages(sub.clone(), pages)?;
    }
    // Hidden, so no page lists an `aigent-help(1)` that does not exist.
    let command = if command.find_subcommand("help").is_some() {
        command.mut_subcommand("help", |help| help.hide(true))
    } else {
        command
    };
    let man = clap_mangen::Man::new(command)
        .source(format!("aigent {}", env!("CARGO_PKG_VERSION")))
        .manual("aigent manual");
    let mut page = Vec::new();
    man.render(&mut page)
        .map_err(|err| CliError::general(format!("cannot render a man page: {err}")))?;
    pages.push((man.get_filename(), page));
    Ok(())
}

/// Static scripts: they complete subcommands, flags and paths, but not the
/// names in a registry (`aigent completions SHELL` prints the dynamic
/// registration that does).
pub fn static_completions() -> Result<Vec<(String, Vec<u8>)>, CliError> {
    let mut scripts = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Elvish,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Zsh,
    ] {
        scripts.push((shell.file_name("aigent"), static_script(shell)));
    }
    Ok(scripts)
}

pub fn static_script(shell: Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut super::command(), "aigent", &mut script);
    script
}

fn write_all(out_dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), CliError> {
    std::fs::create_dir_all(out_dir)
        .map_err(|err| CliError::general(format!("cannot create {}: {err}", out_dir.display())))?;
    for (name, bytes) in files {
        let path = out_dir.join(name);
        aigent::fsutil::write_atomic(&path, bytes)
            .map_err(|err| CliError::general(format!("cannot write {}: {err}", path.display())))?;
    }
    Ok(())
}
