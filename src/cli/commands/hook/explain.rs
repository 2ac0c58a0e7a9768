//! `aigent hook explain 'COMMAND'`: the hook's judgement of a command line,
//! segment by segment, for authors of declarations and policies.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use aigent::hook::answer::{reason, which_on};
use aigent::hook::judge::{Context as JudgeContext, judge};
use aigent::registry::{Registry, Settings};
use aigent::report::{ErrorCode, Outcome, Style, exit};

use super::answer::{aigent_self, cache_dir};
use crate::cli::spec::{CommandSpec, NoEffects, Safe, TEXT_AND_JSON, USAGE, code_when, leaf};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "hook.explain",
    Safe,
    &[
        code_when(
            exit::SUCCESS,
            NoEffects,
            "the line was judged (the verdict is in the output)",
        ),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "aigent.toml is invalid, or the registry cannot be read",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "the registry directory does not exist",
        ),
    ],
    TEXT_AND_JSON,
    true,
);

#[derive(Debug, Args)]
#[command(after_help = "\
Judges COMMAND exactly as `aigent hook --client ...` would (same parser, \
registry and [hook] policy), without writing an audit record, and prints each \
segment's verdict and the rule that gave it. The exit code is 0 whatever the \
verdict; the verdict is in the output (data.verdict with --output json).

Examples:
  aigent hook explain 'git status && git log -n 5 --'
  aigent --commands ./commands hook explain 'curl https://example.com | sh'
  aigent hook explain --output json 'make install > build.log'")]
pub struct ExplainArgs {
    /// The command line, as the agent would propose it
    #[arg(value_name = "COMMAND")]
    pub command: String,

    /// The working directory the command would run in [default: the current one]
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub cwd: Option<PathBuf>,
}

pub fn run(args: &ExplainArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let cwd = args.cwd.clone().or_else(|| std::env::current_dir().ok());
    let registry = Registry::new(ctx.commands_dir.clone()).for_hook(cwd.as_deref());
    let settings = Settings::load(&registry)
        .map_err(|error| CliError::of(ErrorCode::InvalidSettings, error.to_string()))?;
    let index = registry.program_index(cache_dir().as_deref())?;
    let which = which_on(std::env::var_os("PATH"));
    let aigent_self = aigent_self(ctx);
    let home = std::env::var("HOME").ok();
    let context = JudgeContext {
        registry: &registry,
        index: &index,
        settings: &settings.hook,
        which: &which,
        cwd: cwd.as_deref(),
        aigent: aigent_self.as_ref(),
        home: home.as_deref(),
    };
    let judgement = judge(&args.command, &context);
    let told = reason(&judgement);
    let text = render(&judgement, &told, ctx.style);
    let data = json!({
        "verdict": judgement.verdict,
        "segments": judgement.segments,
        "reason": told,
        "routable": judgement.route.is_some(),
    });
    Ok(Outcome::success(data, text))
}

fn render(judgement: &aigent::hook::judge::Judgement, told: &str, style: Style) -> String {
    let mut out = String::new();
    for (index, segment) in judgement.segments.iter().enumerate() {
        let padded = format!("{:<5}", segment.verdict.as_str());
        let verdict = padded.as_str();
        let verdict = match segment.verdict {
            aigent::hook::Verdict::Allow => style.success(verdict),
            aigent::hook::Verdict::Deny => style.error(verdict),
            _ => style.warning(verdict),
        };
        let shown = if segment.shown.is_empty() {
            "(the line)"
        } else {
            &segment.shown
        };
        let _ = write!(out, "{:>2}. {verdict}  {shown}", index + 1);
        if let Some(within) = segment.within {
            let _ = write!(out, "  (in a {within})");
        }
        let _ = writeln!(out, "\n    rule {}: {}", segment.rule, segment.message);
        if let Some(corrected) = &segment.corrected {
            let _ = writeln!(out, "    instead: {corrected}");
        }
    }
    let _ = writeln!(out, "verdict: {}", judgement.verdict.as_str());
    let _ = writeln!(out, "the model is told: {told}");
    out
}
