//! `aigent skill new [PATH]`

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use dialoguer::theme::{ColorfulTheme, SimpleTheme, Theme};
use dialoguer::{Confirm, Input, MultiSelect, Select};
use serde_json::json;

use aigent::report::{Diagnostic, ErrorBody, ErrorCode, FieldError, Outcome, exit};
use aigent::skill::check::{ValidateOptions, validate_target};
use aigent::skill::discover::Target;
use aigent::skill::rules;
use aigent::skill::scaffold::{self, Answers, KnownAnswers, Resource, ScaffoldError};

use super::{CliError, Context};
use crate::cli::interactive::{self, Prompting};
use crate::cli::output;
use crate::cli::spec::{
    CommandSpec, Complete, Mutating, NoEffects, TEXT_AND_JSON, code_when, leaf,
};

/// What clap cannot say about this command (`crate::cli::spec`).
pub const SPEC: CommandSpec = leaf(
    "skill.new",
    Mutating,
    &[
        code_when(exit::SUCCESS, Complete, "created"),
        code_when(exit::GENERAL_ERROR, NoEffects, "not confirmed"),
        code_when(
            exit::ARG_ERROR,
            NoEffects,
            "a bad answer, or an answer missing with --yes",
        ),
        code_when(
            exit::PRECONDITION,
            NoEffects,
            "no terminal to ask on, or --non-interactive, without --yes (INPUT_REQUIRED)",
        ),
        code_when(
            exit::CONFLICT,
            NoEffects,
            "PATH already holds a skill or is not empty",
        ),
        code_when(exit::INTERRUPTED, NoEffects, "interrupted (Ctrl-C)"),
    ],
    TEXT_AND_JSON,
    false,
);

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  aigent skill new                          # asks every question on a terminal
  aigent skill new skills/release-notes     # the name is the directory's name
  aigent skill new pdf-tools --description 'Fills PDF forms. Use when asked to.' \\
      --license MIT --with scripts,references --yes   # no questions asked

On a terminal (stdin and stdout), without --yes, it asks for what the flags
did not give, shows a preview and asks for confirmation. Elsewhere (or with
--non-interactive) it needs --yes and at least a name (PATH or --name) and
--description; without --yes it exits 4 (INPUT_REQUIRED) at once.

The name must equal the directory's name: with PATH and --name both given,
they must agree. It never overwrites: PATH must not exist or be an empty
directory. The skill is built in a temporary directory and renamed into
place, so an interrupted run leaves nothing behind.

Nothing is created unless the exit status is 0.")]
pub struct NewArgs {
    /// The skill directory to create [default: ./NAME]
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,

    /// The skill's name [default: PATH's last component]
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// What the skill does and when to use it (at most 1024 characters)
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,

    /// A license: an SPDX id (MIT, Apache-2.0) or a short text
    #[arg(long, value_name = "LICENSE")]
    pub license: Option<String>,

    /// Environment requirements, e.g. "Needs git and network access"
    #[arg(long, value_name = "TEXT")]
    pub compatibility: Option<String>,

    /// Tools the skill may use, space-separated, e.g. "Read Bash(git:*)"
    #[arg(long, value_name = "TOOLS")]
    pub allowed_tools: Option<String>,

    /// Subdirectories to create, each with a starter file the body links to
    /// (a comma list, or repeat the flag)
    #[arg(long = "with", value_enum, value_delimiter = ',', value_name = "DIR")]
    pub with: Vec<ResourceArg>,

    /// Do not ask anything: take every answer from the flags
    #[arg(short, long)]
    pub yes: bool,

    /// Never ask: without --yes, exit 4 (INPUT_REQUIRED) instead of prompting, even on a terminal
    #[arg(long)]
    pub non_interactive: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ResourceArg {
    /// scripts/run.sh: code the agent runs
    Scripts,
    /// references/REFERENCE.md: documentation loaded when needed
    References,
    /// assets/template.md: templates the output is built from
    Assets,
}

impl From<ResourceArg> for Resource {
    fn from(arg: ResourceArg) -> Self {
        match arg {
            ResourceArg::Scripts => Resource::Scripts,
            ResourceArg::References => Resource::References,
            ResourceArg::Assets => Resource::Assets,
        }
    }
}

/// Licenses offered by the interactive prompt, after "none".
const COMMON_LICENSES: [&str; 7] = [
    "MIT",
    "Apache-2.0",
    "BSD-3-Clause",
    "MPL-2.0",
    "GPL-3.0-or-later",
    "AGPL-3.0-or-later",
    "Proprietary",
];

pub fn run(args: &NewArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let interactive = !args.yes && !args.non_interactive && interactive::terminals_available();
    if !args.yes && !interactive {
        return Err(no_terminal(args.non_interactive));
    }

    // What the flags fix, checked before any question is asked.
    let name = match (&args.name, &args.path) {
        (Some(name), _) => Some(name.trim().to_owned()),
        (None, Some(path)) => Some(scaffold::name_for_directory(path).map_err(scaffold_error)?),
        (None, None) => None,
    };
    check_flags(args, name.as_deref())?;
    if let Some(name) = &name {
        let directory = scaffold::skill_directory(args.path.as_deref(), name);
        scaffold::check_target(&directory).map_err(scaffold_error)?;
    }

    let (directory, answers) = if interactive {
        let theme: Box<dyn Theme> = if ctx.stderr_style.color {
            Box::new(ColorfulTheme::default())
        } else {
            Box::new(SimpleTheme)
        };
        let (stdout, stderr) =
            output::render_failure(scaffold_error(ScaffoldError::Interrupted), ctx, 0);
        let prompting = Prompting::begin(stdout, stderr);
        let asked = ask(args, name, theme.as_ref());
        drop(prompting);
        match asked {
            Ok(Some(asked)) => asked,
            Ok(None) => return Err(declined()),
            Err(err) if interactive::is_interruption(&err) => {
                return Err(scaffold_error(ScaffoldError::Interrupted));
            }
            Err(err) => return Err(CliError::general(format!("prompt failed: {err}"))),
        }
    } else {
        from_flags(args, name)?
    };

    let created = scaffold::create_skill(&directory, &answers, &interactive::interrupted)
        .map_err(scaffold_error)?;
    Ok(created_outcome(&created, ctx))
}

/// Questions no one can answer (REQ-F-009, REQ-C-005): exit 4 at once,
/// never a wait on stdin.
fn no_terminal(non_interactive: bool) -> CliError {
    let why = if non_interactive {
        "--non-interactive says not to ask"
    } else {
        "there is no terminal to ask on"
    };
    let mut err = CliError::of(
        ErrorCode::InputRequired,
        format!(
            "`aigent skill new` asks its questions on a terminal and {why}; pass the answers as flags with --yes"
        ),
    )
    .with_hint(
        "aigent skill new PATH --description TEXT [--name NAME] [--license LICENSE] \
         [--compatibility TEXT] [--allowed-tools TOOLS] [--with scripts,references,assets] --yes",
    );
    err.body.suggestion = Some("pass --yes with PATH (or --name) and --description".to_owned());
    err
}

fn declined() -> CliError {
    CliError::new(
        exit::GENERAL_ERROR,
        ErrorCode::Cancelled,
        "not confirmed; nothing was created",
    )
}

/// Every rule the answers given as flags break, all at once (exit 2).
fn check_flags(args: &NewArgs, name: Option<&str>) -> Result<(), CliError> {
    let directory_name = match &args.path {
        Some(path) => Some(scaffold::name_for_directory(path).map_err(scaffold_error)?),
        None => None,
    };
    let problems = scaffold::known_answer_problems(&KnownAnswers {
        name,
        directory_name: directory_name.as_deref(),
        description: args.description.as_deref(),
        compatibility: args.compatibility.as_deref(),
    });
    if problems.is_empty() {
        Ok(())
    } else {
        Err(scaffold_error(ScaffoldError::Invalid { problems }))
    }
}

fn resources(args: &NewArgs) -> std::collections::BTreeSet<Resource> {
    args.with.iter().copied().map(Resource::from).collect()
}

fn from_flags(args: &NewArgs, name: Option<String>) -> Result<(PathBuf, Answers), CliError> {
    let Some(name) = name else {
        return Err(
            CliError::usage("no skill name: give PATH or --name NAME").with_hint(
                "aigent skill new PATH --description TEXT --yes (the name is PATH's last component)",
            ),
        );
    };
    let Some(description) = args.description.clone() else {
        return Err(
            CliError::usage("--description is required with --yes or without a terminal")
                .with_hint("say what the skill does and when to use it"),
        );
    };
    let directory = scaffold::skill_directory(args.path.as_deref(), &name);
    let answers = Answers {
        name,
        description,
        license: args.license.clone(),
        compatibility: args.compatibility.clone(),
        allowed_tools: args.allowed_tools.clone(),
        resources: resources(args),
    };
    Ok((directory, answers))
}

/// Asks for everything the flags left open, then shows a preview and asks
/// for confirmation. `None`: the user said no.
fn ask(
    args: &NewArgs,
    name: Option<String>,
    theme: &dyn Theme,
) -> Result<Option<(PathBuf, Answers)>, dialoguer::Error> {
    let stop = || -> Result<(), dialoguer::Error> {
        if interactive::interrupted() {
            Err(std::io::Error::from(std::io::ErrorKind::Interrupted).into())
        } else {
            Ok(())
        }
    };
    let path = args.path.clone();
    let name = match name {
        Some(name) => name,
        None => Input::<String>::with_theme(theme)
            .with_prompt("Name (lowercase letters, digits and hyphens; also the directory)")
            // Empty answers reach the validator, which says why they are refused;
            // without this dialoguer re-asks silently.
            .allow_empty(true)
            .validate_with(|input: &String| check_new_name(input))
            .interact_text()?
            .trim()
            .to_owned(),
    };
    stop()?;
    let directory = scaffold::skill_directory(path.as_deref(), &name);

    let description = match &args.description {
        Some(description) => description.clone(),
        None => {
            eprintln!(
                "Say what the skill does and when to use it, e.g. \"Drafts release notes from \
                 merged pull requests. Use when preparing a release.\""
            );
            Input::<String>::with_theme(theme)
                .with_prompt("Description")
                .allow_empty(true)
                .validate_with(|input: &String| first_problem(rules::description_problems(input)))
                .interact_text()?
        }
    };
    stop()?;

    let license = match &args.license {
        Some(license) => Some(license.clone()),
        None => ask_license(theme)?,
    };
    stop()?;

    let compatibility = match &args.compatibility {
        Some(compatibility) => Some(compatibility.clone()),
        None => Some(
            Input::<String>::with_theme(theme)
                .with_prompt("Compatibility (optional, e.g. \"Needs git and network access\")")
                .allow_empty(true)
                .validate_with(|input: &String| {
                    first_problem(rules::compatibility_problems(input.trim()))
                })
                .interact_text()?,
        ),
    };
    stop()?;

    let allowed_tools = match &args.allowed_tools {
        Some(tools) => Some(tools.clone()),
        None => Some(
            Input::<String>::with_theme(theme)
                .with_prompt("Allowed tools (optional, space-separated, e.g. \"Read Bash(git:*)\")")
                .allow_empty(true)
                .interact_text()?,
        ),
    };
    stop()?;

    let resources = if args.with.is_empty() {
        let items: Vec<String> = Resource::ALL
            .iter()
            .map(|resource| format!("{}/: {}", resource.directory(), resource.purpose()))
            .collect();
        MultiSelect::with_theme(theme)
            .with_prompt("Subdirectories (space toggles, enter accepts)")
            .items(&items)
            .interact()?
            .into_iter()
            .map(|index| Resource::ALL[index])
            .collect()
    } else {
        resources(args)
    };
    stop()?;

    let answers = Answers {
        name,
        description,
        license,
        compatibility,
        allowed_tools,
        resources,
    };
    // The flags were checked and every prompt validated, so this only fails
    // on a rule that the prompts cannot see; say so rather than write.
    let files = match scaffold::plan_files(&answers) {
        Ok(files) => files,
        Err(err) => {
            return Err(
                std::io::Error::new(std::io::ErrorKind::InvalidInput, err.to_string()).into(),
            );
        }
    };
    eprint!("{}", preview(&directory, &files));
    let confirmed = Confirm::with_theme(theme)
        .with_prompt(format!("Create {}?", directory.display()))
        .default(true)
        .interact()?;
    stop()?;
    Ok(confirmed.then_some((directory, answers)))
}

/// The live check of a typed name: the validator's rules, then the place
/// it would be created.
fn check_new_name(input: &str) -> Result<(), String> {
    first_problem(rules::name_problems(input.trim(), None))?;
    let directory = scaffold::skill_directory(None, input);
    scaffold::check_target(&directory)
        .map(|_| ())
        .map_err(|err| format!("{err}; choose another name"))
}

fn first_problem(problems: Vec<Diagnostic>) -> Result<(), String> {
    match problems.as_slice() {
        [] => Ok(()),
        problems => Err(problems
            .iter()
            .map(|problem| problem.message.as_str())
            .collect::<Vec<_>>()
            .join("; ")),
    }
}

fn ask_license(theme: &dyn Theme) -> Result<Option<String>, dialoguer::Error> {
    let mut items = vec!["none"];
    items.extend(COMMON_LICENSES);
    items.push("other (type it)");
    let choice = Select::with_theme(theme)
        .with_prompt("License")
        .items(&items)
        .default(0)
        .interact()?;
    Ok(match choice {
        0 => None,
        index if index == items.len() - 1 => Some(
            Input::<String>::with_theme(theme)
                .with_prompt("License (an SPDX id or a short text)")
                .allow_empty(true)
                .interact_text()?,
        ),
        index => Some(items[index].to_owned()),
    })
}

fn preview(directory: &Path, files: &[scaffold::PlannedFile]) -> String {
    let mut text = format!("\nAbout to create {}:\n", directory.display());
    for file in files {
        let _ = writeln!(text, "  {}", file.path.display());
    }
    if let Some(skill) = files.first() {
        text.push_str("\nwith the frontmatter:\n");
        let frontmatter = skill
            .contents
            .lines()
            .skip(1)
            .take_while(|line| *line != "---");
        for line in frontmatter {
            let _ = writeln!(text, "  {line}");
        }
    }
    text.push('\n');
    text
}

fn scaffold_error(err: ScaffoldError) -> CliError {
    let mut error = CliError::new(err.exit_code(), err.code(), err.to_string());
    if let Some(hint) = err.hint() {
        error = error.with_hint(hint);
    }
    if let ScaffoldError::Invalid { problems } = &err {
        let body: &mut ErrorBody = &mut error.body;
        if let [one] = problems.as_slice() {
            body.field.clone_from(&one.field);
        }
        body.errors = problems.iter().map(FieldError::from).collect();
    }
    error
}

fn created_outcome(created: &scaffold::Created, ctx: &Context) -> Outcome {
    // The promise is that a new skill validates without warnings; check it
    // with the real validator rather than trust it.
    let report = validate_target(
        &Target::for_path(&created.directory),
        ValidateOptions {
            strict: true,
            ..ValidateOptions::default()
        },
    );
    let directory = created.directory.display().to_string();
    let files: Vec<String> = created
        .files
        .iter()
        .map(|file| file.display().to_string())
        .collect();
    let absolute = std::fs::canonicalize(&created.directory).unwrap_or(created.directory.clone());
    let data = json!({
        "path": directory,
        "absolute": absolute.display().to_string(),
        "name": created.name,
        "files": files,
        "valid": report.valid,
        "diagnostics": report.diagnostics,
    });
    let style = ctx.style;
    let mut text = String::new();
    if !ctx.quiet {
        let _ = writeln!(
            text,
            "{} skill {} in {directory}",
            style.success("created"),
            style.emphasis(&created.name)
        );
        for file in &files {
            let _ = writeln!(text, "  {file}");
        }
        let _ = writeln!(
            text,
            "next: fill in {}, then run `aigent skill validate {directory}`",
            created.directory.join("SKILL.md").display()
        );
    }
    let warnings = report
        .diagnostics
        .iter()
        .map(|diagnostic| format!("new skill: {} ({})", diagnostic.message, diagnostic.code))
        .collect();
    crate::cli::spec::with_effect(
        Outcome::success(data, text).with_warnings(warnings),
        crate::cli::spec::Effect::Created,
    )
}
