//! `aigent hook install` and `aigent hook uninstall`

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::{Args, ValueEnum};
use serde_json::json;

use aigent::hook::install::{
    self as hook_install, Action, Client, EditError, EntryFlags, Homes, InstallError, Report,
    Request, Scope,
};
use aigent::report::{ErrorCode, Outcome, exit};

use super::ClientArg;
use crate::cli::spec::{
    CommandSpec, Complete, ExitCode, Mutating, NoEffects, TEXT_AND_JSON, USAGE, code_when, leaf,
};
use crate::cli::{CliError, Context};

/// `hook install` and `hook uninstall`: one settings file, written whole
/// (with a backup) or not at all.
const INSTALLER: &[ExitCode] = &[
    code_when(
        exit::SUCCESS,
        Complete,
        "the settings file holds (or no longer holds) aigent's hook; --dry-run wrote nothing",
    ),
    USAGE,
    code_when(
        exit::PRECONDITION,
        NoEffects,
        "the settings file is malformed, or unsafe to write (a symlink out of the project, a hard link)",
    ),
    code_when(
        exit::NOT_FOUND,
        NoEffects,
        "the project or registry directory does not exist",
    ),
    code_when(
        exit::CONFLICT,
        NoEffects,
        "an aigent entry runs another command (install without --replace), or the file changed meanwhile",
    ),
];

/// The entry it writes names the registry (`--commands`).
pub const INSTALL_SPEC: CommandSpec =
    leaf("hook.install", Mutating, INSTALLER, TEXT_AND_JSON, true);

pub const UNINSTALL_SPEC: CommandSpec =
    leaf("hook.uninstall", Mutating, INSTALLER, TEXT_AND_JSON, false);

#[derive(Debug, Args)]
#[command(after_help = "\
Merges aigent's entry into the client's own settings file, so that the client \
runs `aigent hook --client CLIENT` before each shell command the agent \
proposes. Every other setting, and every comment where the format has them, \
stays as it was. Running it again changes nothing. An existing file is copied \
to FILE.aigent-backup-TIMESTAMP before it is changed; --dry-run prints the \
change as a diff instead.

Files: Claude Code .claude/settings.json, Codex .codex/config.toml, Gemini CLI \
.gemini/settings.json, Cursor .cursor/hooks.json (under the project, or under \
your home with --scope user).

The entry names this aigent by its absolute path (--program names another) and \
the registry given by --commands, if any.

Examples:
  aigent hook install --client claude-code
  aigent --commands ./commands hook install --client codex --scope user
  aigent hook install --client gemini --dry-run
  aigent hook uninstall --client claude-code")]
pub struct InstallArgs {
    #[command(flatten)]
    pub target: TargetArgs,

    /// Rewrite an aigent entry that runs another command (another path or registry)
    #[arg(long)]
    pub replace: bool,

    /// The entry routes matched commands through `aigent run` (hook --route)
    #[arg(long)]
    pub route: bool,

    /// The entry answers an ask as a deny that says how to approve (hook --headless): for clients run headless, such as `gemini -p`, where an ask would wait for nobody
    #[arg(long)]
    pub headless: bool,

    /// The aigent the entry runs [default: this aigent, by absolute path]
    #[arg(long, value_name = "PATH", value_hint = clap::ValueHint::ExecutablePath)]
    pub program: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Removes every aigent hook entry for the client from its settings file, and \
nothing else: other hooks, other settings and comments stay. Containers that \
only held aigent's entry go too, and a file that held nothing else is removed. \
The old file is copied to FILE.aigent-backup-TIMESTAMP first. With nothing \
installed it changes nothing and says so.

Examples:
  aigent hook uninstall --client claude-code
  aigent hook uninstall --client codex --scope user --dry-run")]
pub struct UninstallArgs {
    #[command(flatten)]
    pub target: TargetArgs,
}

#[derive(Debug, Args)]
pub struct TargetArgs {
    /// The client whose settings file to edit
    #[arg(long, value_enum, value_name = "CLIENT")]
    pub client: ClientArg,

    /// Whose settings: the project's (shared through the repository) or yours (every project)
    #[arg(long, value_enum, default_value_t = ScopeArg::Project, value_name = "SCOPE")]
    pub scope: ScopeArg,

    /// The project's root directory, for --scope project [default: the current directory]
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub project: Option<PathBuf>,

    /// Print the change as a unified diff and write nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Edit a settings file that has other names (hard links); the others keep the old content
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    /// The project's settings file, under --project
    Project,
    /// Your own settings file, under your home directory
    User,
}

impl From<ScopeArg> for Scope {
    fn from(arg: ScopeArg) -> Self {
        match arg {
            ScopeArg::Project => Scope::Project,
            ScopeArg::User => Scope::User,
        }
    }
}

pub fn run_install(args: &InstallArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let setup = Setup::new(&args.target)?;
    let client = setup.client;
    let mut warnings = Vec::new();
    let program = match &args.program {
        Some(program) => explicit_program(program, &setup.cwd, &mut warnings),
        None => {
            let exe = std::env::current_exe().map_err(|err| {
                CliError::precondition(format!("cannot tell where this aigent is: {err}"))
                    .with_hint("name it with --program PATH")
            })?;
            hook_install::default_program(&exe, std::env::var_os("PATH").as_deref())
        }
    };
    let registry = match &ctx.commands_dir {
        Some(dir) => Some(registry_dir(dir, &setup.cwd)?),
        None => None,
    };
    let flags = EntryFlags {
        route: args.route,
        headless: args.headless,
    };
    let command = hook_install::entry_command(&program, registry.as_deref(), client, flags)
        .map_err(|err| CliError::precondition(err.to_string()))?;
    let report = hook_install::install(&setup.request(), &command, args.replace)
        .map_err(|err| install_error(err, &setup, Some(&command)))?;
    warnings.extend(report.warnings.iter().cloned());
    if client != Client::Gemini && report.action.changes() {
        warnings.push(format!(
            "if {} goes missing (moved, uninstalled), {}; `aigent hook doctor {}` checks the entry",
            program.display(),
            aigent::hook::doctor::unguarded(client),
            setup.target_flags()
        ));
    }
    // The person installing the hook in a project vouches for the
    // registry it holds today; the hook reads it until it changes.
    if setup.scope == Scope::Project
        && !setup.dry_run
        && let Some(project_registry) = aigent::registry::layers::project_registry(&setup.project)
    {
        let discovery = aigent::registry::layers::Discovery::for_process(None);
        match discovery.trust_file {
            Some(trust_file) => {
                match aigent::registry::layers::trust(&trust_file, &project_registry) {
                    Ok(_) => warnings.push(format!(
                        "the project's registry {} is trusted as it is now: the hook reads it until it changes (`aigent hook trust` again after you review a change)",
                        project_registry.display()
                    )),
                    Err(error) => warnings.push(format!(
                        "the project's registry {} is not trusted ({error}): the hook leaves it out until `aigent hook trust` succeeds",
                        project_registry.display()
                    )),
                }
            }
            None => warnings.push(
                "the project's registry is not trusted: no place for the trust record (set XDG_STATE_HOME or HOME)".to_owned(),
            ),
        }
    }
    Ok(render(&report, &setup, Some(&command), ctx).with_warnings(warnings))
}

pub fn run_uninstall(args: &UninstallArgs, ctx: &Context) -> Result<Outcome, CliError> {
    let setup = Setup::new(&args.target)?;
    let report = hook_install::uninstall(&setup.request())
        .map_err(|err| install_error(err, &setup, None))?;
    let warnings = report.warnings.clone();
    Ok(render(&report, &setup, None, ctx).with_warnings(warnings))
}

/// The target settings file's coordinates, from the flags and environment.
pub(super) struct Setup {
    pub(super) client: Client,
    pub(super) scope: Scope,
    pub(super) project: PathBuf,
    /// Whether --project was given (the undo command repeats it).
    project_given: bool,
    homes: Homes,
    cwd: PathBuf,
    dry_run: bool,
    force: bool,
}

impl Setup {
    fn new(args: &TargetArgs) -> Result<Self, CliError> {
        Self::locate(
            args.client,
            args.scope,
            args.project.as_ref(),
            args.dry_run,
            args.force,
        )
    }

    pub(super) fn locate(
        client: ClientArg,
        scope: ScopeArg,
        project: Option<&PathBuf>,
        dry_run: bool,
        force: bool,
    ) -> Result<Self, CliError> {
        let scope = Scope::from(scope);
        if scope == Scope::User && project.is_some() {
            return Err(CliError::usage(
                "--project names a project, but --scope user edits your own settings",
            )
            .with_hint("drop --project, or use --scope project"));
        }
        let cwd = std::env::current_dir().map_err(|err| {
            CliError::precondition(format!("cannot read the current directory: {err}"))
        })?;
        let home = std::env::home_dir().filter(|home| home.is_absolute());
        if scope == Scope::User && home.is_none() {
            return Err(CliError::precondition(
                "cannot tell your home directory (HOME is unset or not absolute)",
            ));
        }
        let absolute = |value: OsString| {
            let path = PathBuf::from(value);
            if path.is_absolute() {
                path
            } else {
                cwd.join(path)
            }
        };
        let from_env = |name: &str| {
            std::env::var_os(name)
                .filter(|value| !value.is_empty())
                .map(absolute)
        };
        Ok(Self {
            client: client.into(),
            scope,
            project: project
                .cloned()
                .map_or_else(|| cwd.clone(), |dir| absolute(dir.into_os_string())),
            project_given: project.is_some(),
            homes: Homes {
                home: home.unwrap_or_default(),
                claude_config_dir: from_env("CLAUDE_CONFIG_DIR"),
                codex_home: from_env("CODEX_HOME"),
            },
            dry_run,
            force,
            cwd,
        })
    }

    fn request(&self) -> Request<'_> {
        self.request_at(SystemTime::now())
    }

    pub(super) fn request_at(&self, now: SystemTime) -> Request<'_> {
        Request {
            client: self.client,
            scope: self.scope,
            project: &self.project,
            homes: &self.homes,
            force: self.force,
            dry_run: self.dry_run,
            now,
        }
    }

    /// The flags that name the same file again (`--scope user`, `--project DIR`).
    pub(super) fn target_flags(&self) -> String {
        let mut flags = format!("--client {}", self.client.as_str());
        match self.scope {
            Scope::User => flags.push_str(" --scope user"),
            Scope::Project if self.project_given => {
                flags.push_str(" --project ");
                flags.push_str(&hook_install::shell_quote(&self.project.to_string_lossy()));
            }
            Scope::Project => {}
        }
        flags
    }

    /// `path` relative to the current directory when it lies under it.
    pub(super) fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.cwd)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// `--program PATH`: a path is made absolute (symlinks kept); a bare name
/// is left to `PATH`, with a warning.
fn explicit_program(program: &Path, cwd: &Path, warnings: &mut Vec<String>) -> PathBuf {
    if program.components().count() == 1 && !program.is_absolute() {
        warnings.push(format!(
            "--program {}: the client looks it up on PATH each time the hook runs, so an earlier `{}` on PATH (a project's, say) would run instead",
            program.display(),
            program.display()
        ));
        return program.to_owned();
    }
    let absolute = if program.is_absolute() {
        program.to_owned()
    } else {
        cwd.join(program)
    };
    if !absolute.is_file() {
        warnings.push(format!(
            "--program {}: there is no file there yet; the hook fails until there is",
            absolute.display()
        ));
    }
    absolute
}

/// The registry directory as an absolute path, which must exist.
fn registry_dir(dir: &Path, cwd: &Path) -> Result<PathBuf, CliError> {
    let joined = cwd.join(dir);
    match std::fs::canonicalize(&joined) {
        Ok(real) if real.is_dir() => Ok(real),
        Ok(_) => Err(CliError::not_found(format!(
            "--commands {}: not a directory",
            dir.display()
        ))),
        Err(err) => Err(
            CliError::not_found(format!("--commands {}: {err}", dir.display()))
                .with_hint("the entry names the registry by its absolute path, so it must exist"),
        ),
    }
}

pub(super) fn install_error(err: InstallError, setup: &Setup, command: Option<&str>) -> CliError {
    let file = err.path().display().to_string();
    let message = err.to_string();
    let error = match &err {
        InstallError::Edit { source, .. } => {
            let (line, column) = source.line_column();
            let error = match source {
                EditError::Conflict { existing, .. } => {
                    let mut error = CliError::of(ErrorCode::Conflict, message);
                    error
                        .body
                        .extra
                        .insert("existing_command".to_owned(), existing.clone().into());
                    if let Some(command) = command {
                        error = error.with_hint(format!(
                            "pass --replace to make it run `{command}` instead"
                        ));
                    }
                    error.with_hint(format!(
                        "or take it out first: aigent hook uninstall {}",
                        setup.target_flags()
                    ))
                }
                _ => CliError::of(ErrorCode::ClientSettingsInvalid, message).with_hint(
                    "fix the file and run the command again; aigent writes nothing to a file it cannot read",
                ),
            };
            let mut error = error;
            error.body.extra.insert("line".to_owned(), line.into());
            error.body.extra.insert("column".to_owned(), column.into());
            error
        }
        InstallError::TooLarge { .. } | InstallError::NotUtf8 { .. } => {
            CliError::of(ErrorCode::ClientSettingsInvalid, message)
        }
        InstallError::NoProject { .. } => CliError::not_found(message),
        InstallError::OutsideProject { .. } => CliError::of(ErrorCode::UnsafeWrite, message)
            .with_hint("edit the file where it really lives, or use --scope user for your own settings"),
        InstallError::HardLinked { .. } => CliError::of(ErrorCode::UnsafeWrite, message)
            .with_hint("pass --force to edit this name anyway (the link is broken; the other names keep the old content)"),
        InstallError::DanglingSymlink { .. } | InstallError::NotRegular { .. } => {
            CliError::of(ErrorCode::UnsafeWrite, message)
        }
        InstallError::Changed { .. } => CliError::of(ErrorCode::Conflict, message),
        InstallError::Io { .. } => CliError::precondition(message),
    };
    let mut error = error;
    error.body.extra.insert("file".to_owned(), file.into());
    error
        .body
        .extra
        .insert("client".to_owned(), setup.client.as_str().into());
    error
}

/// What happened, in words: the line that opens the text report.
fn headline(report: &Report, shown: &str) -> String {
    let whose = format!(
        "({}, {} settings)",
        report.client.display_name(),
        report.scope.as_str()
    );
    // (done, would do)
    let (done, would) = match report.action {
        Action::Created => (
            format!("created {shown} with aigent's hook"),
            format!("would create {shown} with aigent's hook"),
        ),
        Action::Added => (
            format!("added aigent's hook to {shown}"),
            format!("would add aigent's hook to {shown}"),
        ),
        Action::Replaced => (
            format!("updated aigent's hook in {shown}"),
            format!("would update aigent's hook in {shown}"),
        ),
        Action::Removed => (
            format!("removed aigent's hook from {shown}"),
            format!("would remove aigent's hook from {shown}"),
        ),
        Action::FileRemoved => (
            format!("removed aigent's hook and {shown}, which held nothing else"),
            format!("would remove aigent's hook and {shown}, which holds nothing else"),
        ),
        Action::Unchanged => {
            return format!("aigent's hook is already in {shown} {whose}; nothing changed");
        }
        Action::NotInstalled => {
            return format!("aigent's hook is not in {shown} {whose}; nothing to do");
        }
    };
    if report.dry_run {
        format!("dry run: {would} {whose}")
    } else {
        format!("{done} {whose}")
    }
}

fn render(report: &Report, setup: &Setup, command: Option<&str>, ctx: &Context) -> Outcome {
    let client = report.client;
    let installing = command.is_some();
    // Install is undone by uninstall (which restores the bytes); uninstall
    // by putting the backup back.
    let undo = match (&report.backup, installing) {
        (_, true) => format!("aigent hook uninstall {}", setup.target_flags()),
        (Some(backup), false) => format!(
            "cp {} {}",
            hook_install::shell_quote(&backup.to_string_lossy()),
            hook_install::shell_quote(&report.target.to_string_lossy())
        ),
        (None, false) => format!("aigent hook install {}", setup.target_flags()),
    };
    let next_steps: Vec<String> = if installing && report.action != Action::Unchanged {
        let mut steps: Vec<String> = client
            .next_steps(report.scope)
            .into_iter()
            .map(str::to_owned)
            .collect();
        if !report.dry_run {
            steps.push(format!(
                "check that the entry runs: aigent hook doctor {}",
                setup.target_flags()
            ));
        }
        steps
    } else {
        Vec::new()
    };
    let changed = report.action.changes();
    let data = json!({
        "client": client.as_str(),
        "scope": report.scope.as_str(),
        "file": report.file,
        "target": report.target,
        "action": report.action.as_str(),
        "changed": changed,
        "dry_run": report.dry_run,
        "backup": report.backup,
        "command": command,
        "event": client.event(),
        "matcher": client.matcher(),
        "replaced": report.replaced,
        "diff": (!report.diff.is_empty()).then_some(&report.diff),
        "undo": (changed && !report.dry_run).then_some(&undo),
        "next_steps": next_steps,
    });
    let style = ctx.style;
    let shown = setup.shown(&report.file);
    let mut text = String::new();
    if report.dry_run && changed {
        text.push_str(&report.diff);
        text.push_str(&headline(report, &shown));
        text.push_str("; nothing was written\n");
        return Outcome::success(data, text);
    }
    if ctx.quiet {
        return Outcome::success(data, text);
    }
    let verb = if changed {
        style.success("ok")
    } else {
        style.dim("ok")
    };
    text.push_str(&format!("{verb} {}\n", headline(report, &shown)));
    if let Some(previous) = &report.replaced {
        text.push_str(&format!("  it ran   {previous}\n"));
    }
    if let Some(command) = command
        && changed
    {
        text.push_str(&format!("  runs     {command}\n"));
        let on = match client.matcher() {
            Some(matcher) => format!("{} on {matcher}", client.event()),
            None => client.event().to_owned(),
        };
        text.push_str(&format!("  before   {on}\n"));
    }
    if report.target != report.file {
        text.push_str(&format!("  through  {}\n", setup.shown(&report.target)));
    }
    if let Some(backup) = &report.backup {
        text.push_str(&format!("  backup   {}\n", setup.shown(backup)));
    }
    for step in &next_steps {
        text.push_str(&format!("next: {step}\n"));
    }
    if changed {
        text.push_str(&format!("undo: {undo}\n"));
    }
    Outcome::success(data, text)
}
