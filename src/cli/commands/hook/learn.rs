//! `aigent hook learn`: declarations proposed from what the hook asked
//! about, reviewed, and written into the project's registry with --write.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::PathBuf;

use clap::{ArgGroup, Args, ValueEnum};
use dialoguer::Select;
use dialoguer::theme::{ColorfulTheme, SimpleTheme, Theme};
use serde_json::json;

use aigent::bridge::import::write::WriteError;
use aigent::contract::CommandClass;
use aigent::exec::audit::record::parse_since;
use aigent::fsutil::read_regular_file;
use aigent::hook::answer::which_on;
use aigent::hook::judge::Context as JudgeContext;
use aigent::learn::sources::{self, PrefixRule, Selection, SourceError};
use aigent::learn::{LearnContext, LearnOptions, Learned, Observation, Proposal, learn, write};
use aigent::registry::layers::project_registry;
use aigent::registry::{Registry, Settings};
use aigent::report::{ErrorCode, Outcome, OutputFormat, Style};

use super::ClientArg;
use super::answer::cache_dir;
use crate::cli::commands::audit::{AUDIT_LOG_HELP, locate, read_error};
use crate::cli::interactive::{self, Prompting};
use crate::cli::output;
use crate::cli::spec::{
    CommandSpec, Complete, Effect, Mutating, NoEffects, Rows, TEXT_AND_JSON, USAGE, code_when,
    exit, leaf, with_effect,
};
use crate::cli::{CliError, Context};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "hook.learn",
    Mutating,
    &[
        code_when(
            exit::SUCCESS,
            Complete,
            "the proposals are shown (and, with --write, written)",
        ),
        USAGE,
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "the registry or a settings file cannot be read, a target is a symlink, or --review has no terminal (INPUT_REQUIRED)",
        ),
        code_when(
            exit::NOT_FOUND,
            NoEffects,
            "there is no audit log, no settings file, or no project registry to write into",
        ),
        code_when(
            exit::CONFLICT,
            NoEffects,
            "a declaration of the same name exists (without --force)",
        ),
        code_when(
            exit::GENERAL_ERROR,
            NoEffects,
            "the audit log fails its chain check (nothing is learned), a file cannot be written, or the review was quit",
        ),
        code_when(
            exit::INTERRUPTED,
            NoEffects,
            "interrupted (Ctrl-C) during the review: nothing written",
        ),
    ],
    TEXT_AND_JSON,
    true,
)
.with_rows(Rows {
    field: "proposals",
    columns: &["name", "program", "form", "class", "unsure", "count", "file_name"],
});

/// The `--class` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClassArg {
    /// Reads and changes nothing: allowed
    Reads,
    /// Changes files in the project only: allowed
    ChangesProject,
    /// Runs the project's own code: allowed in aigent's sandbox
    RunsProjectCode,
    /// Discards work or touches shared state: asked
    DiscardsWork,
}

impl From<ClassArg> for CommandClass {
    fn from(arg: ClassArg) -> Self {
        match arg {
            ClassArg::Reads => CommandClass::Reads,
            ClassArg::ChangesProject => CommandClass::ChangesProject,
            ClassArg::RunsProjectCode => CommandClass::RunsProjectCode,
            ClassArg::DiscardsWork => CommandClass::DiscardsWork,
        }
    }
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("saving").args(["write", "review"])))]
#[command(after_help = "\
Reads the hook's decisions in the audit log (after checking its hash chain: \
a forged or edited log is refused), takes each command the hook asked about \
or refused for lack of a declaration (rules unmatched and not_declared_form), \
and proposes declarations for them: one per program, subcommand and option \
set, each value held to the tightest check that fits every value seen \
(integer, uuid, semver, an enum of a few repeated values, a path confined to \
the project, else the values seen). Each proposal passes `schema lint` and is \
checked against the lines it came from; the lines it would still refuse are \
listed. A class comes from the catalog's declaration of the same command \
only when that declaration takes every line itself (its options, its \
operands, its values); otherwise discards_work (the hook asks), and the \
output says aigent was unsure. Lines refused on principle \
(dynamic words, interpreters, code-loading variables, catastrophic forms) \
are listed as not learnable, with the rule.

Nothing is written without --write, which saves the proposals into the \
project's registry (commands/ with an aigent.toml, or --commands DIR), each \
file atomically, never replacing one without --force. The hook reads a \
project registry once it is trusted: run `aigent hook trust` after writing.

--review asks about each proposal on a terminal instead: accept it, skip \
it, change its class, finish (write those accepted so far) or quit \
(write nothing); the accepted ones are written as --write would. Without \
a terminal (or with --output json, or in CI) it exits 4 (INPUT_REQUIRED) \
before reading anything.

Examples:
  aigent hook learn --since 7d
  aigent hook learn --program git --min-count 2 --write
  aigent hook learn --since 1d --review
  printf 'jq -r .name package.json\\n' | aigent hook learn --from-lines --class reads
  aigent hook learn --from-claude-settings .claude/settings.local.json --output json")]
pub struct LearnArgs {
    /// Only decisions at or after TIME: RFC 3339, a date, or an age (30m, 2h, 7d)
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,

    /// Only decisions of this client session
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,

    /// Only decisions of this client
    #[arg(long, value_enum)]
    pub client: Option<ClientArg>,

    /// Only lines of this program (its name, as `git` or `cargo`)
    #[arg(long, value_name = "PROGRAM")]
    pub program: Option<String>,

    /// Propose only what was seen at least N times
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_count: u64,

    /// Learn from command lines on stdin, one a line, instead of the audit log
    #[arg(long, conflicts_with_all = ["since", "session", "client", "from_claude_settings"])]
    pub from_lines: bool,

    /// Learn from the Bash(...) rules of a Claude Code settings file: the logged lines each rule admitted, and what else it admits
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub from_claude_settings: Option<PathBuf>,

    /// The class of every proposal, as the person decides [default: the catalog's, else discards_work]
    #[arg(long, value_enum)]
    pub class: Option<ClassArg>,

    /// Save the proposals into the project's registry
    #[arg(long)]
    pub write: bool,

    /// Ask about each proposal on a terminal (accept, skip, change class), then save the accepted ones
    #[arg(long, conflicts_with = "from_lines")]
    pub review: bool,

    /// With --write or --review, replace a declaration of the same name
    #[arg(long, requires = "saving")]
    pub force: bool,

    /// The directory lines without one ran in [default: the current one]
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub cwd: Option<PathBuf>,

    #[arg(long, value_name = "PATH", help = AUDIT_LOG_HELP)]
    pub audit_log: Option<PathBuf>,
}

/// The largest settings file or list of lines read.
const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

pub fn run(args: &LearnArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let cwd = args.cwd.clone().or_else(|| std::env::current_dir().ok());
    let registry = Registry::new(ctx.commands_dir.clone());
    let target = ctx
        .commands_dir
        .clone()
        .or_else(|| cwd.as_deref().and_then(project_registry));
    if args.review {
        check_terminal(ctx)?;
    }
    let saving = args.write || args.review;
    if saving && target.is_none() {
        return Err(CliError::not_found(
            "no project registry to write into: create commands/aigent.toml in the project, or pass --commands DIR",
        ));
    }
    let which = which_on(std::env::var_os("PATH"));
    let since = args
        .since
        .as_deref()
        .map(|text| parse_since(text, std::time::SystemTime::now()))
        .transpose()
        .map_err(CliError::usage)?;
    let selection = Selection {
        since,
        session: args.session.clone(),
        client: args
            .client
            .map(|client| aigent::hook::Client::from(client).as_str().to_owned()),
        allowed_too: args.from_claude_settings.is_some(),
    };
    let mut rules: Option<Vec<PrefixRule>> = None;
    let observations: Vec<Observation> = if args.from_lines {
        let mut text = String::new();
        std::io::stdin()
            .take(MAX_INPUT_BYTES)
            .read_to_string(&mut text)
            .map_err(|err| CliError::usage(format!("stdin is not UTF-8 text: {err}")))?;
        sources::from_lines(&text)
    } else {
        let log = locate(args.audit_log.as_ref())?;
        let seen =
            sources::from_audit_log(&log, &selection).map_err(|err| source_error(&err, &log))?;
        match &args.from_claude_settings {
            None => seen,
            Some(file) => {
                let bytes = read_regular_file(file, MAX_INPUT_BYTES)
                    .map_err(|err| CliError::not_found(format!("{}: {err}", file.display())))?;
                let text = String::from_utf8(bytes).map_err(|_| {
                    CliError::of(
                        ErrorCode::Precondition,
                        format!("{}: not UTF-8", file.display()),
                    )
                })?;
                let hook_registry = registry.for_hook(cwd.as_deref());
                let settings = Settings::load(&hook_registry)
                    .map_err(|error| CliError::of(ErrorCode::InvalidSettings, error.to_string()))?;
                let index = hook_registry.program_index(cache_dir().as_deref())?;
                let home = std::env::var("HOME").ok();
                let context = JudgeContext {
                    registry: &hook_registry,
                    index: &index,
                    settings: &settings.hook,
                    which: &which,
                    cwd: cwd.as_deref(),
                    aigent: None,
                    home: home.as_deref(),
                };
                let (found, admitted) = sources::from_claude_settings(&text, &seen, &context)
                    .map_err(|err| {
                        CliError::of(
                            ErrorCode::Precondition,
                            format!("{}: {err}", file.display()),
                        )
                    })?;
                rules = Some(found);
                // Only what the rules admitted and the hook did not allow.
                admitted
            }
        }
    };
    let cache = cache_dir();
    let context = LearnContext {
        registry: &registry,
        which: &which,
        cwd: cwd.as_deref(),
        cache_dir: cache.as_deref(),
        target: target.as_deref(),
    };
    let options = LearnOptions {
        program: args.program.clone(),
        min_count: args.min_count,
        class: args.class.map(CommandClass::from),
    };
    let mut learned = learn(observations, &context, &options)
        .map_err(|err| CliError::of(ErrorCode::Precondition, err.to_string()))?;
    let mut declined = Vec::new();
    if args.review && !learned.proposals.is_empty() {
        let proposals = std::mem::take(&mut learned.proposals);
        let total = proposals.len();
        let (accepted, skipped) = review_all(proposals, ctx)?;
        learned.proposals = accepted;
        declined = skipped;
        eprintln!(
            "accepted {} of {total} proposal(s)",
            learned.proposals.len()
        );
    }
    let written = match (&target, saving) {
        (Some(directory), true) if !learned.proposals.is_empty() => Some(
            write(directory, &learned.proposals, args.force).map_err(|err| {
                let code = match err {
                    WriteError::Exists { .. } | WriteError::OtherFormat { .. } => {
                        ErrorCode::Conflict
                    }
                    WriteError::Unsafe { .. } => ErrorCode::UnsafeWrite,
                    WriteError::NotADirectory(_) => ErrorCode::NotFound,
                    WriteError::Io { .. } => ErrorCode::GeneralError,
                };
                CliError::of(code, format!("{err}; nothing written"))
            })?,
        ),
        _ => None,
    };
    let project_layer = ctx.commands_dir.is_none();
    let text = render(
        &learned,
        rules.as_deref(),
        written.is_some(),
        target.as_ref(),
        project_layer,
        ctx.style,
    );
    let mut data =
        serde_json::to_value(&learned).map_err(|err| CliError::general(err.to_string()))?;
    data["written"] = json!(written);
    data["directory"] = json!(target.as_ref().map(|dir| dir.display().to_string()));
    if let Some(rules) = &rules {
        data["prefix_rules"] = json!(rules);
    }
    if args.review {
        data["declined"] = json!(declined);
    }
    let warnings: Vec<String> = learned
        .proposals
        .iter()
        .filter(|proposal| proposal.unsure)
        .map(|proposal| format!("{}: {}", proposal.name, proposal.class_reason))
        .collect();
    let effect = match (written.is_some(), args.force) {
        (false, _) if saving => Effect::Noop,
        (false, _) => Effect::WouldCreate,
        (true, true) => Effect::Updated,
        (true, false) => Effect::Created,
    };
    let effect = if learned.proposals.is_empty() {
        Effect::Noop
    } else {
        effect
    };
    Ok(with_effect(
        Outcome::success(data, text).with_warnings(warnings),
        effect,
    ))
}

/// --review asks questions: a terminal to ask on is required, else
/// INPUT_REQUIRED before anything is read (REQ-F-009).
fn check_terminal(ctx: &Context) -> Result<(), CliError> {
    let why = if ctx.format != OutputFormat::Text {
        Some("the output is not text")
    } else if std::env::var_os("CI").is_some_and(|value| !value.is_empty()) {
        Some("CI is set")
    } else if !interactive::terminals_available() {
        Some("there is no terminal to ask on")
    } else {
        None
    };
    match why {
        None => Ok(()),
        Some(why) => Err(CliError::of(
            ErrorCode::InputRequired,
            format!("`aigent hook learn --review` asks about each proposal on a terminal, and {why}"),
        )
        .with_hint(
            "aigent hook learn (to see the proposals), then aigent hook learn --write [--class CLASS] [--program PROGRAM]",
        )),
    }
}

/// What the person answers about one proposal.
enum Answer {
    Accept,
    Skip,
    /// Write the accepted ones, skip the rest.
    Finish,
    /// Write nothing.
    Quit,
}

/// Walks the proposals on the terminal: the accepted ones (to write) and
/// the names of the rest. Quit leaves nothing to write.
fn review_all(
    proposals: Vec<Proposal>,
    ctx: &Context,
) -> Result<(Vec<Proposal>, Vec<String>), CliError> {
    let theme: Box<dyn Theme> = if ctx.stderr_style.color {
        Box::new(ColorfulTheme::default())
    } else {
        Box::new(SimpleTheme)
    };
    let interrupted = || {
        CliError::of(
            ErrorCode::Interrupted,
            "interrupted during the review; nothing was written",
        )
    };
    let (stdout, stderr) = output::render_failure(interrupted(), ctx, 0);
    let prompting = Prompting::begin(stdout, stderr);
    let total = proposals.len();
    let mut accepted = Vec::new();
    let mut declined = Vec::new();
    let mut rest = proposals.into_iter().enumerate();
    while let Some((index, mut proposal)) = rest.next() {
        eprint!("{}", shown(&proposal, index + 1, total, ctx.stderr_style));
        let answer = ask(&mut proposal, theme.as_ref()).map_err(|err| {
            if interactive::is_interruption(&err) {
                interrupted()
            } else {
                CliError::general(format!("prompt failed: {err}"))
            }
        })?;
        match answer {
            Answer::Accept => accepted.push(proposal),
            Answer::Skip => declined.push(proposal.name),
            Answer::Finish => {
                declined.push(proposal.name);
                declined.extend(rest.map(|(_, proposal)| proposal.name));
                break;
            }
            Answer::Quit => {
                drop(prompting);
                return Err(CliError::new(
                    exit::GENERAL_ERROR,
                    ErrorCode::Cancelled,
                    "review quit; nothing was written",
                ));
            }
        }
    }
    drop(prompting);
    Ok((accepted, declined))
}

/// One proposal as the review shows it: the declaration and the lines.
fn shown(proposal: &Proposal, number: usize, total: usize, style: Style) -> String {
    let clean = |text: &str| text.replace(|ch: char| ch.is_control() && ch != '\n', " ");
    let mut out = String::new();
    let class = format!("class {}", proposal.class.as_str());
    let _ = writeln!(
        out,
        "\nproposal {number} of {total}: {}  {}",
        style.emphasis(&proposal.file_name),
        if proposal.unsure {
            style.warning(&class)
        } else {
            style.success(&class)
        }
    );
    let _ = writeln!(out, "  form: {}", clean(&proposal.form));
    let _ = writeln!(out, "  why this class: {}", clean(&proposal.class_reason));
    let _ = writeln!(out, "  seen {} time(s)", proposal.count);
    write_lines(&mut out, proposal, &clean);
    let declaration = serde_json::to_string_pretty(&proposal.declaration).unwrap_or_default();
    for line in declaration.lines() {
        let _ = writeln!(out, "  | {}", clean(line));
    }
    out
}

const CLASSES: [CommandClass; 4] = [
    CommandClass::Reads,
    CommandClass::ChangesProject,
    CommandClass::RunsProjectCode,
    CommandClass::DiscardsWork,
];

/// Asks until the person accepts, skips, finishes or quits; a class
/// change is applied (and linted) and the question asked again.
fn ask(proposal: &mut Proposal, theme: &dyn Theme) -> Result<Answer, dialoguer::Error> {
    loop {
        let choice = Select::with_theme(theme)
            .with_prompt(format!(
                "{} (class {})",
                proposal.name,
                proposal.class.as_str()
            ))
            .items([
                "accept",
                "skip",
                "change class",
                "finish: write the accepted ones, skip the rest",
                "quit: write nothing",
            ])
            .default(0)
            .interact()?;
        match choice {
            0 => return Ok(Answer::Accept),
            1 => return Ok(Answer::Skip),
            3 => return Ok(Answer::Finish),
            4 => return Ok(Answer::Quit),
            _ => {}
        }
        let current = CLASSES
            .iter()
            .position(|class| *class == proposal.class)
            .unwrap_or(0);
        let items: Vec<String> = CLASSES
            .iter()
            .map(|class| format!("{}: {}", class.as_str(), class_meaning(*class)))
            .collect();
        let picked = Select::with_theme(theme)
            .with_prompt("class")
            .items(&items)
            .default(current)
            .interact()?;
        if let Err(why) = proposal.reclassify(CLASSES[picked]) {
            eprintln!("{why}; the class stays {}", proposal.class.as_str());
        }
    }
}

fn class_meaning(class: CommandClass) -> &'static str {
    match class {
        CommandClass::Reads => "reads and changes nothing (allowed)",
        CommandClass::ChangesProject => "changes files in the project only (allowed)",
        CommandClass::RunsProjectCode => {
            "runs the project's own code (allowed in aigent's sandbox)"
        }
        CommandClass::DiscardsWork => "discards work or touches shared state (asked)",
    }
}

fn source_error(err: &SourceError, log: &aigent::exec::audit::AuditLog) -> CliError {
    match err {
        SourceError::Audit(audit) => read_error(audit, Some(log.path())),
        SourceError::Broken { .. } | SourceError::Unverified { .. } => {
            CliError::of(ErrorCode::AuditChainBroken, err.to_string())
        }
        SourceError::Settings(message) => CliError::of(ErrorCode::Precondition, message.clone()),
    }
}

fn render(
    learned: &Learned,
    rules: Option<&[PrefixRule]>,
    written: bool,
    target: Option<&PathBuf>,
    project_layer: bool,
    style: Style,
) -> String {
    let clean = |text: &str| text.replace(char::is_control, " ");
    let mut out = String::new();
    for rule in rules.unwrap_or_default() {
        let _ = writeln!(
            out,
            "{}: admitted {} logged line(s)",
            style.emphasis(&clean(&rule.rule)),
            rule.observed
        );
        for admitted in &rule.beyond {
            let _ = writeln!(
                out,
                "  also admits `{}`, which the hook would {} (rule {})",
                clean(&admitted.line),
                admitted.verdict.as_str(),
                admitted.rule
            );
        }
    }
    for proposal in &learned.proposals {
        let class = format!("class {}", proposal.class.as_str());
        let class = if proposal.unsure {
            style.warning(&class)
        } else {
            style.success(&class)
        };
        let _ = writeln!(
            out,
            "{} {}  {class}",
            if written { "wrote" } else { "proposal" },
            style.emphasis(&proposal.file_name),
        );
        let _ = writeln!(out, "  form: {}", clean(&proposal.form));
        let _ = writeln!(out, "  why this class: {}", clean(&proposal.class_reason));
        let _ = writeln!(
            out,
            "  seen {} time(s){}",
            proposal.count,
            if proposal.sessions.is_empty() {
                String::new()
            } else {
                format!(" in {} session(s)", proposal.sessions.len())
            }
        );
        write_lines(&mut out, proposal, &clean);
    }
    for rare in &learned.below_min_count {
        let _ = writeln!(
            out,
            "below --min-count: {} (seen {} time(s))",
            clean(&rare.command),
            rare.count
        );
    }
    for refused in &learned.not_learnable {
        let _ = writeln!(
            out,
            "not learnable: {}  (rule {}: {})",
            clean(&refused.line),
            refused.rule,
            clean(&refused.reason)
        );
    }
    let covered: u64 = learned
        .proposals
        .iter()
        .map(|proposal| proposal.count)
        .sum();
    let _ = writeln!(
        out,
        "{} proposal(s) covering {covered} observed line(s); {} not learnable; {} already allowed{}",
        learned.proposals.len(),
        learned.not_learnable.len(),
        learned.already_allowed,
        match (written, target) {
            (true, Some(dir)) if project_layer => format!(
                "; written to {} (run `aigent hook trust` so that the hook reads it)",
                dir.display()
            ),
            (true, Some(dir)) => format!("; written to {}", dir.display()),
            _ if learned.proposals.is_empty() => String::new(),
            _ => "; nothing written (--write saves them)".to_owned(),
        }
    );
    out
}

/// A proposal's lines, as both renderings show them: those it covers,
/// those it would still refuse, and its notes, each through `clean`.
fn write_lines(out: &mut String, proposal: &Proposal, clean: &dyn Fn(&str) -> String) {
    for line in &proposal.covers {
        let _ = writeln!(out, "  covers: {}", clean(line));
    }
    for refused in &proposal.still_refused {
        let _ = writeln!(
            out,
            "  still refused: {}  (rule {})",
            clean(&refused.line),
            refused.rule
        );
    }
    for note in &proposal.notes {
        let _ = writeln!(out, "  note: {}", clean(note));
    }
}
