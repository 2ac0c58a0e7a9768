//! The command line: the clap definition, dispatch, and the one place where
//! results are rendered and written.
//!
//! Each leaf command is one file under `commands/` with its clap `Args`
//! and a thin `run` that calls the library and returns an [`Outcome`] (or
//! a [`CliError`] for an operational failure). Rendering happens once, here.

mod argv;
mod changed;
mod commands;
mod complete;
mod deadline;
mod descriptors;
mod error;
mod fix_command;
mod interactive;
mod manifest;
pub(crate) mod memory;
mod output;
mod page;
mod profile;
mod sarif;
mod signals;
mod spec;
mod watch;

use std::path::PathBuf;
use std::time::Instant;

use std::sync::LazyLock;

use clap::builder::PossibleValue;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use aigent::report::rows::{LineFormat, Rows};
use aigent::report::{
    ColorChoice, Outcome, OutputFormat, Style, TerminalHints, resolve_color, resolve_format,
};

use commands::{args, audit, completions, generate, hook, lsp, mcp, plugin, run, schema, skill};
pub use error::CliError;
use spec::CommandSpec;

const ABOUT: &str = "Validate Agent Skills and guard the command lines that AI agents drive";

/// `--version` shows the commit too, where the build knew it.
static LONG_VERSION: LazyLock<String> = LazyLock::new(|| match option_env!("AIGENT_GIT_HASH") {
    Some(hash) => format!("{} ({hash})", env!("CARGO_PKG_VERSION")),
    None => env!("CARGO_PKG_VERSION").to_owned(),
});

#[derive(Debug, Parser)]
#[command(
    name = "aigent",
    version,
    long_version = LONG_VERSION.as_str(),
    about = ABOUT,
    propagate_version = true,
    after_help = "Examples:\n  # validate every skill below skills/\n  aigent skill validate --recursive skills/\n  # one command's schema, readable\n  aigent schema show deploy\n  # check arguments given as flags\n  aigent args check deploy --cluster-id prod-east-1 --version 1.2.3\n  # the argv that would run; nothing runs\n  aigent run --dry-run deploy --cluster-id prod-east-1 --version 1.2.3\n  # this manifest\n  aigent --schema"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]
    #[arg(long, global = true, value_enum, value_name = "FORMAT")]
    pub output: Option<FormatArg>,

    /// When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,

    /// Print only problems: no `ok` lines, no summaries
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// The registry of command declarations [default: the built-in catalog, then your user registry, then the project's commands/ once trusted]
    #[arg(
        long,
        global = true,
        env = "AIGENT_COMMANDS",
        value_name = "DIR",
        value_hint = clap::ValueHint::DirPath,
        value_parser = clap::value_parser!(std::ffi::OsString)
    )]
    pub commands: Option<std::ffi::OsString>,

    /// Print this command's manifest entry (CLI Agent Spec) as JSON instead of running it
    #[arg(long, global = true)]
    pub schema: bool,
}

/// The `--output` values. Each one's help names the commands that speak
/// it, read from their specs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    Text,
    Json,
    Jsonl,
    Tsv,
    Plain,
    JsonSchema,
    Github,
    Sarif,
}

impl ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            FormatArg::Text,
            FormatArg::Json,
            FormatArg::Jsonl,
            FormatArg::Tsv,
            FormatArg::Plain,
            FormatArg::JsonSchema,
            FormatArg::Github,
            FormatArg::Sarif,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let format = OutputFormat::from(*self);
        let value = PossibleValue::new(format.as_str());
        let what = match format {
            OutputFormat::Text | OutputFormat::Json => return Some(value),
            OutputFormat::Jsonl => {
                return Some(value.help(
                    "a listing's items one JSON object a line, then a `_summary` line; any other result's envelope on one line",
                ));
            }
            OutputFormat::Plain => {
                return Some(value.help(
                    "a listing's items one line each, no header; any other result as text without colour",
                ));
            }
            OutputFormat::Tsv => "tab-separated rows under a header line",
            OutputFormat::JsonSchema => "the bare JSON Schema",
            OutputFormat::Github => "GitHub Actions annotations",
            OutputFormat::Sarif => "a SARIF 2.1.0 log for code scanning",
        };
        let speakers: Vec<String> = speakers(format)
            .map(|spec| format!("`{}`", spec.words()))
            .collect();
        let who = match speakers.as_slice() {
            [one] => format!("{one} only"),
            many => and_list(many),
        };
        Some(value.help(format!("{who}: {what}")))
    }
}

impl From<FormatArg> for OutputFormat {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Text => OutputFormat::Text,
            FormatArg::Json => OutputFormat::Json,
            FormatArg::Jsonl => OutputFormat::Jsonl,
            FormatArg::Tsv => OutputFormat::Tsv,
            FormatArg::Plain => OutputFormat::Plain,
            FormatArg::JsonSchema => OutputFormat::JsonSchema,
            FormatArg::Github => OutputFormat::Github,
            FormatArg::Sarif => OutputFormat::Sarif,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

impl From<ColorArg> for ColorChoice {
    fn from(arg: ColorArg) -> Self {
        match arg {
            ColorArg::Auto => ColorChoice::Auto,
            ColorArg::Always => ColorChoice::Always,
            ColorArg::Never => ColorChoice::Never,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate, scaffold, inspect and render Agent Skills
    #[command(
        after_help = "Examples:\n  # validate every skill below skills/\n  aigent skill validate --recursive skills/\n  # scaffold a skill\n  aigent skill new my-skill\n  # a skill's frontmatter\n  aigent skill read-properties skills/my-skill\n  # the prompt block for these skills\n  aigent skill to-prompt skills/*/"
    )]
    Skill(skill::SkillArgs),
    /// Validate Claude Code plugins and marketplaces
    #[command(
        after_help = "Examples:\n  # a marketplace root or a plugin\n  aigent plugin validate .\n  # one plugin\n  aigent plugin validate plugins/formatter"
    )]
    Plugin(plugin::PluginArgs),
    /// The registry of declared commands: list, show, lint
    #[command(
        subcommand,
        after_help = "Examples:\n  # the declared commands\n  aigent schema list\n  # a command's arguments as JSON Schema\n  aigent schema show deploy --output json-schema\n  # lint a registry\n  aigent --commands ./commands schema lint"
    )]
    Schema(schema::SchemaCommand),
    /// Check an agent's arguments against a declared command
    #[command(
        subcommand,
        after_help = "Examples:\n  # check arguments given as flags\n  aigent args check deploy --cluster-id prod-east-1 --version 1.2.3\n  # the same arguments as one JSON object\n  aigent args check deploy --json '{\"cluster-id\": \"prod-east-1\", \"version\": \"1.2.3\"}'"
    )]
    Args(args::ArgsCommand),
    /// Check the arguments, then run the declared command as an argv (never a shell); stdout is the command's own, or with --capture the envelope holding it
    Run(run::RunArgs),
    /// Read and check the audit log: show records, verify the hash chain
    #[command(
        subcommand,
        after_help = "Examples:\n  # one command's records in the last two hours\n  aigent audit show --command deploy --since 2h\n  # check the hash chain\n  aigent audit verify"
    )]
    Audit(audit::AuditCommand),
    /// Guard the agents' own shell tools: the hook itself, install, explain
    Hook(hook::HookArgs),
    /// Serve declared commands and skills to MCP clients
    #[command(
        subcommand,
        after_help = "Examples:\n  # serve a registry and skills over stdio\n  aigent mcp serve --commands ./commands --skills ./skills"
    )]
    Mcp(mcp::McpCommand),
    /// Serve diagnostics, fixes, hover and completion to editors (Language Server Protocol)
    Lsp(lsp::LspArgs),
    /// Print a shell completion script
    Completions(completions::CompletionsArgs),
    /// Write man pages or static completion scripts (for packagers)
    #[command(hide = true)]
    Generate(generate::GenerateArgs),
}

/// What every leaf command gets besides its own arguments.
#[derive(Debug, Clone)]
pub struct Context {
    pub format: OutputFormat,
    /// Styling for stdout.
    pub style: Style,
    /// Styling for stderr, which may be a terminal when stdout is not.
    pub stderr_style: Style,
    pub quiet: bool,
    pub commands_dir: Option<PathBuf>,
    /// Whether stdout is a terminal: a document written elsewhere is
    /// written bare (`skill fmt --diff > fix.patch`).
    pub stdout_is_terminal: bool,
    /// Output a command would write as it goes (`skill validate`) is
    /// held and returned as the outcome's text instead, for a caller that
    /// reads the outcome (the test of every claimed format).
    pub buffered: bool,
    /// The command's path as the manifest keys it (`skill.validate`), for
    /// the envelope's `meta.command`.
    pub command: String,
    /// When the command started, for the envelope's `meta.timestamp`.
    pub started_at: std::time::SystemTime,
    /// aigent's own limit on the command (`deadline.rs`), where one
    /// applies, for the envelope's `meta.timeout_ms`.
    pub timeout: Option<std::time::Duration>,
    /// `--output jsonl`, `tsv` or `plain` of a listing, and `jsonl` of
    /// any command: the command runs as in json mode, and its result is
    /// written as lines ([`output::write_result`]).
    pub lines: Option<LineOutput>,
}

/// How a result made in json mode is written as lines.
#[derive(Debug, Clone, Copy)]
pub struct LineOutput {
    pub format: LineFormat,
    /// The listing's items, for a listing; `None`: the envelope on one
    /// line (jsonl only).
    pub rows: Option<Rows>,
}

impl Context {
    /// Whether the output is for a program: json, or jsonl (whose
    /// listings page by default, as json's do).
    pub fn for_program(&self) -> bool {
        self.format.is_json()
            && self
                .lines
                .is_none_or(|lines| lines.format == LineFormat::Jsonl)
    }

    /// Sets the format the command runs in for `format`, the one the
    /// user asked for. A line format runs the command in json mode where
    /// its lines are made from the result (a listing, or jsonl's one-line
    /// envelope); `plain` of anything else is its text, uncoloured and
    /// without box drawing.
    fn use_format(&mut self, format: OutputFormat, rows: Option<Rows>) {
        self.lines = None;
        let Some(line) = format.line_format() else {
            self.format = format;
            return;
        };
        match (line, rows) {
            (LineFormat::Jsonl, _) | (_, Some(_)) => {
                self.format = OutputFormat::Json;
                self.lines = Some(LineOutput { format: line, rows });
            }
            (LineFormat::Tsv | LineFormat::Plain, None) => {
                self.format = OutputFormat::Text;
                self.style = Style::new(false).with_ascii(true);
            }
        }
    }
}

impl Command {
    /// What clap cannot say about this command: its spec, written beside
    /// its leaf file (`spec.rs`). Exhaustive, so a new command has to say.
    fn spec(&self) -> &'static CommandSpec {
        match self {
            Command::Skill(skill) => skill.command.spec(),
            Command::Plugin(plugin) => plugin.command.spec(),
            Command::Schema(command) => command.spec(),
            Command::Args(command) => command.spec(),
            Command::Run(_) => &run::SPEC,
            Command::Audit(command) => command.spec(),
            Command::Hook(args) => args.spec(),
            Command::Mcp(command) => command.spec(),
            Command::Lsp(_) => &lsp::SPEC,
            Command::Completions(_) => &completions::SPEC,
            Command::Generate(_) => &generate::SPEC,
        }
    }
}

/// Every command's spec, in the order the manifest's table and
/// docs/reference/exit-codes.md list them.
fn specs() -> impl Iterator<Item = &'static CommandSpec> {
    const RUN: &[&CommandSpec] = &[&run::SPEC];
    const REST: &[&CommandSpec] = &[
        &lsp::SPEC,
        &completions::SPEC,
        &generate::SPEC,
        hook::ANSWER_SPEC,
    ];
    [
        skill::SPECS,
        plugin::SPECS,
        schema::SPECS,
        args::SPECS,
        RUN,
        audit::SPECS,
        hook::SPECS,
        mcp::SPECS,
        REST,
    ]
    .into_iter()
    .flatten()
    .copied()
}

/// Whether a command stops at SIGINT and SIGTERM with a `CANCELLED`
/// answer ([`signals`]): every command that runs to an end on its own.
/// `run` passes signals to its child; `skill new`, `--watch`, the servers
/// and the hook handle them themselves. Exhaustive, so a new command has
/// to say.
/// Puts the command under aigent's own limit where it applies
/// (`deadline.rs`): not under `--watch`, which runs until stopped.
fn arm_deadline(ctx: &mut Context, command: &Command) -> Result<(), CliError> {
    use skill::SkillCommand;
    let watching = match command {
        Command::Skill(skill) => {
            matches!(&skill.command, SkillCommand::Validate(args) if args.watch)
        }
        Command::Schema(schema::SchemaCommand::Lint(args)) => args.watch,
        _ => false,
    };
    if watching || !deadline::covers(&ctx.command) {
        return Ok(());
    }
    let Some(limit) = deadline::limit(|name| std::env::var(name).ok())? else {
        return Ok(());
    };
    let danger = command
        .spec()
        .contract
        .map_or(aigent::contract::DangerLevel::Safe, |contract| {
            contract.danger_level
        });
    ctx.timeout = Some(limit);
    deadline::arm(ctx, limit, danger);
    Ok(())
}

fn answers_signals(command: &Command) -> bool {
    use skill::SkillCommand;
    match command {
        Command::Skill(skill) => match &skill.command {
            SkillCommand::Validate(args) => !args.watch,
            SkillCommand::New(_) => false,
            SkillCommand::ReadProperties(_)
            | SkillCommand::ToPrompt(_)
            | SkillCommand::Fmt(_)
            | SkillCommand::Fix(_)
            | SkillCommand::Contracts(_) => true,
        },
        Command::Schema(schema::SchemaCommand::Lint(args)) => !args.watch,
        Command::Plugin(_)
        | Command::Schema(_)
        | Command::Args(_)
        | Command::Audit(_)
        | Command::Completions(_)
        | Command::Generate(_) => true,
        Command::Run(_) | Command::Hook(_) | Command::Mcp(_) | Command::Lsp(_) => false,
    }
}

/// Whether a command's product is a document (the `<available_skills>`
/// block, a diff, a completion script) rather than a report. Exhaustive,
/// so a new command has to say.
fn produces_document(command: &Command) -> bool {
    use skill::SkillCommand;
    match command {
        Command::Skill(skill) => match &skill.command {
            SkillCommand::ToPrompt(_) => true,
            SkillCommand::Fmt(args) => args.diff,
            SkillCommand::Validate(_)
            | SkillCommand::New(_)
            | SkillCommand::ReadProperties(_)
            | SkillCommand::Fix(_)
            | SkillCommand::Contracts(_) => false,
        },
        Command::Completions(_) => true,
        Command::Schema(schema::SchemaCommand::Export(args)) => args.out_file.is_none(),
        Command::Plugin(_)
        | Command::Schema(_)
        | Command::Args(_)
        | Command::Run(_)
        | Command::Audit(_)
        | Command::Hook(_)
        | Command::Mcp(_)
        | Command::Lsp(_)
        | Command::Generate(_) => false,
    }
}

/// The format of a document-producing command: the document itself (text)
/// wherever stdout goes, and the json envelope only when `--output json`
/// is on the command line, so `aigent skill to-prompt > prompt.md` holds
/// the block even where `AIGENT_OUTPUT=json` is set for everything else.
fn document_format(format: OutputFormat, command: &Command, from_flag: bool) -> OutputFormat {
    let json = matches!(format, OutputFormat::Json | OutputFormat::Jsonl);
    if produces_document(command) && !(from_flag && json) {
        OutputFormat::Text
    } else {
        format
    }
}

/// The commands that speak `format`, for the hint when a command does not
/// and for the `--output` help.
fn speakers(format: OutputFormat) -> impl Iterator<Item = &'static CommandSpec> {
    specs().filter(move |spec| spec.extra_formats().is_some() && spec.speaks(format))
}

/// The format a command will use. A format the command does not speak is
/// a usage error, from `--output` or from `AIGENT_OUTPUT` alike.
fn effective_format(
    format: OutputFormat,
    flag: &str,
    command: &Command,
    path: &str,
) -> Result<OutputFormat, CliError> {
    if command.spec().speaks(format) {
        return Ok(format);
    }
    let speakers: Vec<String> = speakers(format)
        .map(|spec| format!("`aigent {}`", spec.words()))
        .collect();
    let why = match format {
        OutputFormat::Tsv => " (it lists no items to put in rows)",
        _ => "",
    };
    Err(CliError::usage(format!(
        "{flag} {} is not supported by `aigent {path}`{why}",
        format.as_str()
    ))
    .with_hint(format!("only {} speak it", and_list(&speakers))))
}

/// `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => "no command".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

pub fn main() -> i32 {
    descriptors::keep_inherited_from_children();
    // A shell asking for completions (`COMPLETE=bash aigent -- ...`) is
    // answered here, and the process exits.
    clap_complete::CompleteEnv::with_factory(complete::command_to_complete)
        .var(completions::COMPLETE_VAR)
        .complete();
    let started = Instant::now();
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // A bare `aigent` is a request for help, answered exactly as `--help`
    // is: on stdout, exit 0 (REQ-F-068).
    if argv.len() == 1 {
        argv.push("--help".into());
    }
    warn_of_retired_variable();
    // Parsed first without the help text each leaf's contract adds, which
    // only help shows and which is a third of a short hook call's work. A
    // line that does not parse, or asks for help, is parsed again with the
    // documented definition, so what it prints is that one.
    let parsed = parsing_command()
        .try_get_matches_from(&argv)
        .or_else(|lean| match lean.kind() {
            clap::error::ErrorKind::DisplayVersion => Err(lean),
            _ => command().try_get_matches_from(&argv),
        });
    let matches = match parsed {
        Ok(matches) => matches,
        Err(mut err) => {
            tip_renamed_path_flag(&mut err, &argv);
            return manifest_despite(err, &argv, started);
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(err) => return output::write_usage_error(&err, started),
    };
    let chosen =
        chosen_format(&cli.global).and_then(|chosen| match retired_format_flag(&matches) {
            Some(err) => Err(err),
            None => Ok(chosen),
        });
    let (format, format_on_line) = match chosen {
        Ok(chosen) => chosen,
        Err(err) => {
            let mut ctx = context(&cli.global, cli.global.output);
            ctx.command = argv::subcommand_path(&matches).join(".");
            return output::write_result(Err(err), &ctx, started);
        }
    };
    let mut ctx = context(&cli.global, format);
    let requested = requested_format(format);
    let path = argv::subcommand_path(&matches);
    ctx.command = path.join(".");
    let result = if cli.global.schema {
        manifest_outcome(&path, requested)
    } else {
        // AIGENT_OUTPUT is held to what `--output` is (REQ-O-042).
        let flag = if format_on_line {
            "--output"
        } else {
            OUTPUT_VARIABLE
        };
        match effective_format(requested, flag, &cli.command, &path.join(" ")) {
            Ok(format) => {
                let format = document_format(format, &cli.command, format_on_line);
                ctx.use_format(format, cli.command.spec().rows);
                if answers_signals(&cli.command) {
                    signals::cancel_on_signals(&ctx);
                }
                if let Err(err) = arm_deadline(&mut ctx, &cli.command) {
                    return output::write_result(Err(err), &ctx, started);
                }
                let registry_on_line = ctx.commands_dir.as_deref().filter(|_| {
                    matches.value_source("commands") == Some(clap::parser::ValueSource::CommandLine)
                });
                dispatch(&cli.command, &ctx).map(|mut outcome| {
                    fix_command::add(&mut outcome, &cli.command, &argv, registry_on_line);
                    hook_effect(outcome, &path)
                })
            }
            Err(err) => Err(err),
        }
    };
    output::write_result(result, &ctx, started)
}

/// `aigent --schema` and `aigent args check --schema` leave out what clap
/// requires (a subcommand, NAME); they still get their manifest. Anything
/// else that failed to parse is a usage error.
fn manifest_despite(err: clap::Error, words: &[std::ffi::OsString], started: Instant) -> i32 {
    use clap::error::ErrorKind;
    // Only what is missing is forgiven: an unknown or malformed argument
    // is a usage error with `--schema` as without it.
    let only_missing = matches!(
        err.kind(),
        ErrorKind::MissingRequiredArgument
            | ErrorKind::MissingSubcommand
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    let Some(lenient) = only_missing
        .then(|| argv::lenient(words))
        .flatten()
        .filter(argv::wants_schema)
    else {
        return output::write_usage_error(&err, started);
    };
    let Ok(global) = GlobalArgs::from_arg_matches(&lenient) else {
        return output::write_usage_error(&err, started);
    };
    let path = argv::subcommand_path(&lenient);
    let format = global.output;
    let mut ctx = context(&global, format);
    let requested = requested_format(format);
    ctx.command = path.join(".");
    let result = match retired_format_flag(&lenient) {
        Some(err) => Err(err),
        None => manifest_outcome(&path, requested),
    };
    output::write_result(result, &ctx, started)
}

/// The manifest (`--schema`) in `format`: a document, not a listing, so
/// not in tsv.
fn manifest_outcome(path: &[String], format: OutputFormat) -> Result<Outcome, CliError> {
    if format == OutputFormat::Tsv {
        return Err(CliError::usage(
            "--output tsv is not supported by --schema (the manifest is one document, not rows)",
        )
        .with_hint("use --output json or --output jsonl"));
    }
    manifest::outcome(path)
}

/// The format asked for: `format`, the one `--output` or `AIGENT_OUTPUT`
/// chose, else the default for where stdout goes.
fn requested_format(format: Option<FormatArg>) -> OutputFormat {
    use std::io::IsTerminal;
    let hints = TerminalHints::read(|name| std::env::var_os(name));
    resolve_format(
        format.map(Into::into),
        std::io::stdout().is_terminal(),
        &hints,
    )
}

/// The context for `format`, the one `--output` or `AIGENT_OUTPUT` chose.
fn context(global: &GlobalArgs, format: Option<FormatArg>) -> Context {
    use std::io::IsTerminal;
    let stdout_is_terminal = std::io::stdout().is_terminal();
    let hints = TerminalHints::read(|name| std::env::var_os(name));
    let color_for = |is_terminal| {
        Style::new(resolve_color(global.color.into(), &hints, is_terminal))
            .with_ascii(hints.plain())
    };
    let format = requested_format(format);
    let mut ctx = Context {
        format,
        style: color_for(stdout_is_terminal),
        stderr_style: color_for(std::io::stderr().is_terminal()),
        quiet: global.quiet,
        commands_dir: argv::registry_dir(global.commands.as_deref()),
        stdout_is_terminal,
        buffered: false,
        command: String::new(),
        started_at: std::time::SystemTime::now(),
        timeout: None,
        lines: None,
    };
    // Until the command is known, a line format is written as for a
    // command that lists nothing (an error before it runs).
    ctx.use_format(format, None);
    ctx
}

/// `hook install` and `uninstall` are mutating (REQ-C-003): their `data`
/// gets the `effect` their `action` amounts to. One that changed the
/// user's own settings (`--scope user`, which must be asked for) warns
/// `GLOBAL_CONFIG_MODIFIED` (REQ-C-025): every project of theirs is now
/// guarded, or no longer.
fn hook_effect(outcome: Outcome, path: &[String]) -> Outcome {
    if !matches!(path, [hook, leaf] if hook == "hook" && (leaf == "install" || leaf == "uninstall"))
    {
        return outcome;
    }
    let effect = outcome.data.get("action").and_then(|action| {
        let dry_run = outcome.data.get("dry_run") == Some(&serde_json::Value::Bool(true));
        spec::Effect::of_hook_action(action.as_str()?, dry_run)
    });
    let Some(effect) = effect else {
        return outcome;
    };
    let global = outcome
        .data
        .get("scope")
        .and_then(serde_json::Value::as_str)
        == Some("user")
        && matches!(
            effect,
            spec::Effect::Created | spec::Effect::Updated | spec::Effect::Deleted
        );
    let file = outcome
        .data
        .get("file")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned);
    let mut outcome = spec::with_effect(outcome, effect);
    if global {
        outcome.warnings.push(format!(
            "GLOBAL_CONFIG_MODIFIED: wrote to {}",
            file.as_deref().unwrap_or("the user's settings")
        ));
    }
    outcome
}

fn dispatch(command: &Command, ctx: &Context) -> Result<Outcome, CliError> {
    match command {
        Command::Skill(args) => skill::run(args, ctx),
        Command::Plugin(args) => plugin::run(args, ctx),
        Command::Schema(command) => schema::run(command, ctx),
        Command::Args(command) => args::run(command, ctx),
        Command::Run(args) => run::run(args, ctx),
        Command::Audit(command) => audit::run(command, ctx),
        Command::Hook(args) => hook::run(args, ctx),
        Command::Mcp(command) => mcp::run(command, ctx),
        Command::Lsp(args) => lsp::run(args, ctx),
        Command::Completions(args) => completions::run(args, ctx),
        Command::Generate(args) => generate::run(args, ctx),
    }
}

/// The clap definition the line is parsed with: the documented one and
/// the retired `--format`, read only to be refused.
pub fn command() -> clap::Command {
    with_retired_format(documented_command())
}

/// [`command`] less the help text each leaf's contract adds
/// ([`manifest::with_contracts`]): the same arguments, for parsing a line
/// that asks for no help.
fn parsing_command() -> clap::Command {
    with_retired_format(hide_unused_registry_flag(Cli::command()))
}

fn with_retired_format(root: clap::Command) -> clap::Command {
    root.arg(
        clap::Arg::new(RETIRED_FORMAT)
            .long("format")
            .global(true)
            .hide(true)
            .num_args(0..=1)
            .default_missing_value("")
            .value_name("FORMAT")
            .value_parser(clap::value_parser!(std::ffi::OsString)),
    )
}

/// The clap definition as documented: help, man pages, completion
/// scripts and the manifest. (clap_complete's static scripts list hidden
/// flags, so the retired one is left out here rather than hidden.)
pub fn documented_command() -> clap::Command {
    hide_unused_registry_flag(manifest::with_contracts(Cli::command()))
}

/// The id of the retired `--format` (REQ-O-001: `--output` is the one
/// format flag; a second name for it is what the spec forbids).
const RETIRED_FORMAT: &str = "retired_format";

/// The variable that gives `--output` its default (REQ-O-042: the
/// executable's name, upper case, then `_OUTPUT`).
pub(crate) const OUTPUT_VARIABLE: &str = "AIGENT_OUTPUT";

/// `AIGENT_OUTPUT`, when set and not empty: the format it names, or the
/// usage error `--output` would give for that value.
pub(crate) fn output_variable() -> Option<Result<FormatArg, CliError>> {
    let value = std::env::var_os(OUTPUT_VARIABLE).filter(|value| !value.is_empty())?;
    let text = value.to_string_lossy();
    Some(FormatArg::from_str(&text, false).map_err(|_| {
        let possible: Vec<String> = FormatArg::value_variants()
            .iter()
            .filter_map(|format| format.to_possible_value())
            .map(|value| value.get_name().to_owned())
            .collect();
        let mut body = aigent::report::ErrorBody::new(
            aigent::report::ErrorCode::ArgError,
            format!(
                "invalid value '{}' for {OUTPUT_VARIABLE} (--output's default) [possible values: {}]",
                aigent::report::escape_controls(&text),
                possible.join(", ")
            ),
        );
        body.phase = Some(aigent::report::Phase::Validation);
        body.field = Some(OUTPUT_VARIABLE.to_owned());
        CliError {
            exit_code: body.code.exit_code(),
            body: Box::new(body),
        }
    }))
}

/// The format chosen before the command runs, and whether `--output` gave
/// it: the flag, wherever it sits on the line, wins over `AIGENT_OUTPUT`;
/// an `AIGENT_OUTPUT` that `--output` would refuse is a usage error.
fn chosen_format(global: &GlobalArgs) -> Result<(Option<FormatArg>, bool), CliError> {
    if let Some(output) = global.output {
        return Ok((Some(output), true));
    }
    match output_variable() {
        Some(variable) => variable.map(|format| (Some(format), false)),
        None => Ok((None, false)),
    }
}

/// `--format`, retired: a usage error that names its replacement, with
/// the value given only when it is a format name (anything else stays
/// unechoed).
fn retired_format_flag(matches: &clap::ArgMatches) -> Option<CliError> {
    let given = matches
        .try_get_one::<std::ffi::OsString>(RETIRED_FORMAT)
        .ok()
        .flatten()?;
    let known = given
        .to_str()
        .and_then(|text| FormatArg::from_str(text, false).ok())
        .map(|format| OutputFormat::from(format).as_str());
    let instead = known.unwrap_or("FORMAT");
    let mut err = CliError::usage(format!(
        "--format was renamed --output; give --output {instead}"
    ));
    err.body.phase = Some(aigent::report::Phase::Validation);
    err.body.field = Some("--format".to_owned());
    err.body.suggestion = known.map(|format| format!("--output {format}"));
    let names: Vec<&str> = FormatArg::value_variants()
        .iter()
        .map(|format| OutputFormat::from(*format).as_str())
        .collect();
    Some(err.with_hint(format!("--output takes {}", names.join(", "))))
}

/// The variable `--format` read before it was retired.
const RETIRED_VARIABLE: &str = "AIGENT_FORMAT";

/// `AIGENT_FORMAT` is no longer read. One that is still set (perhaps long
/// ago, in a profile) gets a line on stderr while `AIGENT_OUTPUT` is not
/// set, never a failure: the run goes on with the default format.
fn warn_of_retired_variable() {
    let set = |name| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    if set(RETIRED_VARIABLE) && !set(OUTPUT_VARIABLE) {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "warning: {RETIRED_VARIABLE} is no longer read; set {OUTPUT_VARIABLE} instead (it gives --output its default)"
        );
    }
}

/// `schema import --output DIR` and `schema export --output FILE` were
/// renamed `--out-dir` and `--out-file` when `--output` became the format
/// on every command: a path given to `--output` there gets clap's invalid
/// value error with a tip naming the new flag.
fn tip_renamed_path_flag(err: &mut clap::Error, words: &[std::ffi::OsString]) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let on_output = matches!(
        err.get(ContextKind::InvalidArg),
        Some(ContextValue::String(arg)) if arg.starts_with("--output")
    );
    if err.kind() != ErrorKind::InvalidValue || !on_output {
        return;
    }
    let Some(path) = argv::lenient(words).map(|matches| argv::subcommand_path(&matches)) else {
        return;
    };
    let (flag, what) = match path.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["schema", "import"] => ("--out-dir DIR", "directory"),
        ["schema", "export"] => ("--out-file FILE", "file"),
        _ => return,
    };
    let tip = format!(
        "`aigent {}` takes its {what} as {flag}; --output selects the output format",
        path.join(" ")
    );
    err.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![tip.into()]),
    );
}

/// `--commands` is global, so every command accepts it, but the help, man
/// pages, completions and manifest entries of a command whose spec says it
/// never reads the registry leave it out: it does nothing there. A group
/// none of whose commands reads it hides it too.
fn hide_unused_registry_flag(root: clap::Command) -> clap::Command {
    // A subcommand that already has a global flag's id keeps its own copy
    // when clap propagates globals (and passes it on to its children), so a
    // hidden copy there hides it from that whole subtree.
    let Some(hidden) = root
        .get_arguments()
        .find(|arg| arg.get_id() == "commands")
        .map(|arg| arg.clone().hide(true))
    else {
        return root;
    };
    let names: Vec<String> = root
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    names.iter().fold(root, |root, name| {
        root.mut_subcommand(name, |sub| hide_below(sub, name, &hidden))
    })
}

/// Hides `hidden` on `command` (at dot-path `path`) if no spec at or below
/// it reads the registry, else on each child that qualifies.
fn hide_below(command: clap::Command, path: &str, hidden: &clap::Arg) -> clap::Command {
    let below = |spec: &&CommandSpec| {
        spec.path == path
            || spec
                .path
                .strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('.'))
    };
    let mut under = specs().filter(below).peekable();
    if under.peek().is_none() {
        return command;
    }
    if under.all(|spec| !spec.registry) {
        return command.arg(hidden.clone());
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    names.iter().fold(command, |command, name| {
        command.mut_subcommand(name, |sub| {
            hide_below(sub, &format!("{path}.{name}"), hidden)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parsed command finds the spec of its own path.
    #[test]
    fn each_command_finds_the_spec_of_its_path() {
        let lines = [
            "skill validate",
            "skill new",
            "skill read-properties x",
            "skill to-prompt x",
            "skill fmt x",
            "skill fix x",
            "skill contracts x",
            "plugin validate",
            "schema list",
            "schema show x",
            "schema lint",
            "schema export --to codex-execpolicy",
            "schema import --from usage x",
            "args check x",
            "run x",
            "audit show",
            "audit verify",
            "audit export",
            "audit key new x",
            "hook --client claude-code",
            "hook explain x",
            "hook install --client claude-code",
            "hook uninstall --client claude-code",
            "hook doctor --client claude-code",
            "hook trust",
            "hook learn",
            "mcp serve",
            "lsp",
            "completions bash",
            "generate man --out-dir x",
        ];
        for line in lines {
            let words = std::iter::once("aigent").chain(line.split_whitespace());
            let cli = Cli::try_parse_from(words).unwrap_or_else(|err| panic!("{line}: {err}"));
            let path: Vec<&str> = line
                .split_whitespace()
                .take_while(|word| {
                    !word.starts_with('-') && *word != "x" && *word != "bash" && *word != "man"
                })
                .collect();
            assert_eq!(cli.command.spec().path, path.join("."), "{line}");
        }
        let mut paths: Vec<&str> = specs().map(|spec| spec.path).collect();
        let count = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), count, "two specs share a path");
        assert_eq!(
            count,
            lines.len(),
            "a spec without a line here, or a line without a spec"
        );
    }

    #[test]
    fn format_help_names_the_commands_whose_specs_speak_it() {
        let help = |format: FormatArg| {
            format
                .to_possible_value()
                .and_then(|value| value.get_help().map(ToString::to_string))
                .unwrap_or_default()
        };
        assert_eq!(
            help(FormatArg::Sarif),
            "`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning"
        );
        assert_eq!(
            help(FormatArg::JsonSchema),
            "`schema show` only: the bare JSON Schema"
        );
        assert_eq!(help(FormatArg::Text), "");
    }

    /// `--commands` shows exactly where a command reads the registry.
    #[test]
    fn the_registry_flag_shows_where_the_spec_reads_the_registry() {
        let mut root = command();
        root.build();
        for spec in specs().filter(|spec| spec.contract.is_some()) {
            let mut leaf = root.clone();
            for name in spec.path.split('.') {
                leaf = leaf.find_subcommand(name).expect("a command").clone();
            }
            let shown = leaf
                .get_arguments()
                .any(|arg| arg.get_id() == "commands" && !arg.is_hide_set());
            assert_eq!(shown, spec.registry, "{}", spec.path);
        }
    }

    /// Every format a spec claims is the format the command writes: run
    /// each command that speaks more than text and json, in each of its
    /// formats, on files with findings, and read what it printed as that
    /// format. (It would have caught `plugin validate --output sarif`
    /// printing the text report.)
    #[test]
    fn each_format_a_spec_claims_is_the_format_written() {
        let dir = tempfile::tempdir().expect("temp dir");
        let write = |relative: &str, text: &str| {
            let path = dir.path().join(relative);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write(
            "skill/Bad/SKILL.md",
            "---\nname: Bad\ndescription: d\n---\n",
        );
        write(
            "plugin/.claude-plugin/plugin.json",
            r#"{"name": "p", "colour": "blue"}"#,
        );
        write(
            "plugin/skills/Bad/SKILL.md",
            "---\nname: Bad\ndescription: d\n---\n",
        );
        write("registry/broken.json", "{ not json");
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/commands");
        let at = |relative: &str| dir.path().join(relative).display().to_string();
        // One invocation with findings for each command that speaks an
        // extra format; a spec that gains one needs a line here.
        let invocation = |path: &str| -> Vec<String> {
            let words: Vec<String> = match path {
                "skill.validate" => vec!["skill".into(), "validate".into(), at("skill/Bad")],
                "plugin.validate" => vec!["plugin".into(), "validate".into(), at("plugin")],
                "schema.lint" => vec![
                    "--commands".into(),
                    at("registry"),
                    "schema".into(),
                    "lint".into(),
                ],
                "schema.show" => vec![
                    "--commands".into(),
                    examples.into(),
                    "schema".into(),
                    "show".into(),
                    "deploy".into(),
                ],
                other => {
                    panic!("`{other}` speaks an extra format: give it an invocation in this test")
                }
            };
            std::iter::once("aigent".to_owned()).chain(words).collect()
        };
        let mut checked = 0;
        for spec in specs() {
            let Some(extra) = spec.extra_formats() else {
                continue;
            };
            for &format in extra {
                let argv = invocation(spec.path);
                let cli = Cli::try_parse_from(&argv).expect("parses");
                assert_eq!(cli.command.spec().path, spec.path);
                let mut ctx = context(&cli.global, cli.global.output);
                ctx.buffered = true;
                ctx.format = effective_format(format, "--output", &cli.command, spec.path)
                    .expect("the spec's own format is accepted");
                let outcome = dispatch(&cli.command, &ctx).expect("runs");
                let text = &outcome.text;
                let what = format!("`aigent {}` --output {}", spec.words(), format.as_str());
                match format {
                    OutputFormat::Github => {
                        let lines: Vec<&str> = text.lines().collect();
                        let (summary, commands) = lines.split_last().expect("output");
                        assert!(summary.starts_with("aigent: "), "{what}: {text}");
                        assert!(
                            commands.iter().any(|line| line.starts_with("::error ")),
                            "{what}: no ::error line in {text}"
                        );
                        for line in commands {
                            let command = line
                                .strip_prefix("::")
                                .and_then(|rest| rest.split_once("::"))
                                .map(|(head, _)| head.split(' ').next().unwrap_or(head));
                            assert!(
                                matches!(command, Some("error" | "warning" | "notice")),
                                "{what}: not a workflow command: {line}"
                            );
                        }
                    }
                    OutputFormat::Sarif => {
                        let log: serde_json::Value = serde_json::from_str(text)
                            .unwrap_or_else(|err| panic!("{what}: not JSON ({err}): {text}"));
                        assert_eq!(log["version"], "2.1.0", "{what}");
                        assert!(
                            log["$schema"]
                                .as_str()
                                .is_some_and(|uri| uri.contains("sarif-2.1.0")),
                            "{what}"
                        );
                        let run = &log["runs"][0];
                        assert_eq!(run["tool"]["driver"]["name"], "aigent", "{what}");
                        let rules: Vec<&str> = run["tool"]["driver"]["rules"]
                            .as_array()
                            .expect("rules")
                            .iter()
                            .filter_map(|rule| rule["id"].as_str())
                            .collect();
                        let results = run["results"].as_array().expect("results");
                        assert!(!results.is_empty(), "{what}: no results");
                        for result in results {
                            let rule = result["ruleId"].as_str().expect("ruleId");
                            assert!(
                                rules.contains(&rule),
                                "{what}: {rule} is not in the driver's rules"
                            );
                            assert!(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string(), "{what}");
                        }
                    }
                    OutputFormat::JsonSchema => {
                        let schema: serde_json::Value = serde_json::from_str(text)
                            .unwrap_or_else(|err| panic!("{what}: not JSON ({err}): {text}"));
                        assert_eq!(schema["type"], "object", "{what}: {text}");
                        assert!(schema["properties"].is_object(), "{what}: {text}");
                    }
                    OutputFormat::Text
                    | OutputFormat::Json
                    | OutputFormat::Jsonl
                    | OutputFormat::Tsv
                    | OutputFormat::Plain => unreachable!("not an extra format"),
                }
                checked += 1;
            }
        }
        // skill validate, plugin validate, schema lint: github and sarif;
        // schema show: json-schema.
        assert_eq!(checked, 7);
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Each command's arguments (id, names, whether hidden or global) under
    /// its path, sorted, and how many commands' help gives their contract.
    fn shape(command: &clap::Command) -> (Vec<String>, usize) {
        let mut lines = Vec::new();
        let mut after_help = 0;
        let mut stack = vec![(command.get_name().to_owned(), command)];
        while let Some((path, command)) = stack.pop() {
            after_help += usize::from(
                command
                    .get_after_help()
                    .is_some_and(|help| help.to_string().contains("Danger level:")),
            );
            for arg in command.get_arguments() {
                lines.push(format!(
                    "{path} {} {:?} {:?} {:?} {} {}",
                    arg.get_id(),
                    arg.get_short(),
                    arg.get_long(),
                    arg.get_num_args(),
                    arg.is_hide_set(),
                    arg.is_global_set()
                ));
            }
            for sub in command.get_subcommands() {
                stack.push((format!("{path} {}", sub.get_name()), sub));
            }
        }
        lines.sort();
        (lines, after_help)
    }

    /// The lean definition a line is parsed with first reads every line
    /// as the documented one does: it lacks only the help text.
    #[test]
    fn the_parsing_command_differs_from_the_documented_one_only_in_help() {
        let (lean, lean_help) = shape(&parsing_command());
        let (documented, documented_help) = shape(&command());
        assert_eq!(lean, documented);
        assert!(lean.len() > 100, "{}", lean.len());
        assert_eq!(lean_help, 0);
        assert!(documented_help > 20, "{documented_help}");
        for line in [
            &["aigent", "hook", "--client", "claude-code"][..],
            &["aigent", "--output", "json", "skill", "validate", "x"],
            &["aigent", "run", "git-status", "--", "--short"],
        ] {
            let read = |matches: clap::ArgMatches| {
                format!("{:?}", Cli::from_arg_matches(&matches).unwrap())
            };
            let lean = read(parsing_command().try_get_matches_from(line).unwrap());
            let documented = read(command().try_get_matches_from(line).unwrap());
            assert_eq!(lean, documented, "{line:?}");
        }
    }

    #[test]
    fn every_visible_command_shows_examples_in_its_help() {
        fn check(command: &clap::Command, path: &str) {
            let after_help = command
                .get_after_help()
                .map(|help| help.to_string())
                .unwrap_or_default();
            assert!(
                after_help.contains("Examples:\n  aigent ")
                    || after_help.contains("Examples:\n  # "),
                "`{path}` --help has no examples"
            );
            for sub in command
                .get_subcommands()
                .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
            {
                check(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        let mut root = Cli::command();
        root.build();
        check(&root, "aigent");
    }
}
