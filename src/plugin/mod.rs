//! Claude Code plugins and marketplaces: a plugin is a directory with an
//! optional `.claude-plugin/plugin.json` and component directories
//! (`skills/`, `commands/`, `agents/`, `hooks/hooks.json`); a marketplace
//! is a directory whose `.claude-plugin/marketplace.json` lists plugins.
//!
//! - [`codes`]: the stable `P` diagnostic codes;
//! - [`manifest`]: reading JSON and the field checks;
//! - this module: walking a marketplace to its plugins and a plugin to its
//!   components, producing the same [`ValidationRun`] as skill validation
//!   (one report per manifest, one per skill).

pub mod codes;
pub mod manifest;

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::report::Diagnostic;
use crate::skill::changed::{ChangedReport, shown_path};
use crate::skill::check::{SkillReport, ValidateOptions, finish_report};
use crate::skill::codes as skill_codes;
use crate::skill::discover::discover;
use crate::skill::duplicates::check_duplicates;
use crate::skill::frontmatter;
use crate::skill::read::read_skill_file;
use crate::skill::validate::{ValidationRun, validate_targets};
use crate::vcs::{
    ChangeOptions, ChangeSet, ChangedScope, Repo, SelectedUnit, VcsError, select_owning_dirs,
};
use manifest::{ENTRY_FIELDS, Fields, MARKETPLACE_FIELDS, PLUGIN_FIELDS, quoted, read_json};

/// Where Claude Code looks for the manifests, below a plugin or
/// marketplace root.
pub const MANIFEST_DIRECTORY: &str = ".claude-plugin";
pub const PLUGIN_MANIFEST: &str = "plugin.json";
pub const MARKETPLACE_MANIFEST: &str = "marketplace.json";

/// The component locations Claude Code uses when a manifest names none.
const DEFAULT_SKILLS: &str = "skills";
const DEFAULT_COMMANDS: &str = "commands";
const DEFAULT_AGENTS: &str = "agents";
const DEFAULT_HOOKS: &str = "hooks/hooks.json";

/// Command and agent files are looked for this deep below their directory.
const MAX_COMPONENT_DEPTH: usize = 8;

/// Validates each path as a marketplace (when it holds
/// `.claude-plugin/marketplace.json`) or a plugin. Skills inside plugins
/// are checked with every skill rule under `options`.
pub fn validate_plugin_paths(paths: &[PathBuf], options: ValidateOptions) -> ValidationRun {
    let mut skills = walk_paths(paths, options);
    // Two plugins (or two skills of one plugin) with one skill name.
    check_duplicates(&mut skills, options);
    ValidationRun {
        skills,
        ..ValidationRun::default()
    }
}

/// The reports for `paths`, each skill checked on its own.
fn walk_paths(paths: &[PathBuf], options: ValidateOptions) -> Vec<SkillReport> {
    let mut walk = Walk::new(options, None);
    for path in paths {
        walk.path(path);
    }
    walk.reports
}

/// `plugin validate`'s report on one manifest, `file` being a
/// `.claude-plugin/plugin.json` or `marketplace.json` whose text is given
/// rather than read (an editor's unsaved buffer). The same findings as
/// `plugin validate` reports on that file; the plugins' skills, which
/// have reports of their own, are not checked. `None` when `file` is no
/// manifest.
pub fn validate_manifest_text(
    file: &Path,
    text: &str,
    options: ValidateOptions,
) -> Option<SkillReport> {
    let manifests = file.parent()?;
    if manifests.file_name()? != MANIFEST_DIRECTORY {
        return None;
    }
    let root = match manifests.parent() {
        Some(root) if !root.as_os_str().is_empty() => root,
        _ => Path::new("."),
    };
    let kind = file.file_name()?;
    let mut walk = Walk::new(
        options,
        Some(Buffer {
            file: file.to_path_buf(),
            text,
        }),
    );
    if kind == MARKETPLACE_MANIFEST {
        walk.marketplace(root);
    } else if kind == PLUGIN_MANIFEST {
        let _ = walk.plugin(root, None);
    } else {
        return None;
    }
    walk.reports.into_iter().find(|report| report.path == file)
}

/// A manifest's text held in memory.
struct Buffer<'a> {
    file: PathBuf,
    text: &'a str,
}

/// The files that make a directory a unit for `plugin validate --changed`:
/// a plugin's or a marketplace's manifest.
pub const UNIT_MARKERS: [&str; 2] = [
    ".claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json",
];

/// `plugin validate --changed`: validates the plugins and marketplaces the
/// branch touched below `paths` (all in one repository; empty means the
/// current directory). A changed file selects the nearest directory above
/// it holding `.claude-plugin/plugin.json` or `marketplace.json`, in the
/// compared snapshot (or, for a deleted one, in the merge base). The
/// selected directories are read from the work tree. The first report of
/// each carries the unit that selected it.
pub fn validate_changed_plugins(
    paths: &[PathBuf],
    scope: &ChangedScope,
    options: ValidateOptions,
) -> Result<ValidationRun, VcsError> {
    let (repo, limits) = Repo::open_scope(paths)?;
    let ChangeSet {
        base,
        changes,
        snapshot,
    } = repo.change_set(
        scope.base.as_deref(),
        &ChangeOptions {
            paths: limits.clone(),
            compare_to: scope.compare_to,
        },
    )?;
    let units = select_owning_dirs(
        &changes,
        repo.workdir(),
        &repo.marked_dirs(&base, &snapshot, &UNIT_MARKERS)?,
    );
    let here = std::env::current_dir().and_then(fs::canonicalize).ok();
    let (present, deleted): (Vec<SelectedUnit>, Vec<SelectedUnit>) =
        units.into_iter().partition(SelectedUnit::is_present);
    let mut skills = Vec::new();
    for unit in present {
        let shown = shown_path(&unit.absolute, here.as_deref());
        let mut reports = walk_paths(&[shown], options);
        if let Some(first) = reports.first_mut() {
            first.selected = Some(unit);
        }
        skills.append(&mut reports);
    }
    check_duplicates(&mut skills, options);
    Ok(ValidationRun {
        skills,
        changed: Some(ChangedReport {
            workdir: repo.workdir().to_owned(),
            base,
            compare_to: scope.compare_to,
            scope: limits,
            changed_files: changes.len(),
            deleted,
            current_dir: here,
        }),
        ..ValidationRun::default()
    })
}

struct Walk<'a> {
    options: ValidateOptions,
    /// A manifest read from memory, not disk; with one, skills are not
    /// checked (only the manifest's report is wanted).
    buffer: Option<Buffer<'a>>,
    reports: Vec<SkillReport>,
    /// Plugin directories already checked (two entries may share one).
    seen_plugins: HashSet<PathBuf>,
    seen_skills: HashSet<PathBuf>,
    /// Component files already reported.
    seen_files: HashSet<PathBuf>,
}

/// What a marketplace entry says about the plugin it points at.
struct Entry<'a> {
    name: Option<&'a str>,
    object: &'a Map<String, Value>,
}

impl<'a> Walk<'a> {
    fn new(options: ValidateOptions, buffer: Option<Buffer<'a>>) -> Self {
        Self {
            options,
            buffer,
            reports: Vec::new(),
            seen_plugins: HashSet::new(),
            seen_skills: HashSet::new(),
            seen_files: HashSet::new(),
        }
    }

    /// A manifest's JSON, from the buffer when it holds that file.
    fn read_json(&self, file: &Path) -> Result<Value, Diagnostic> {
        match &self.buffer {
            Some(buffer) if buffer.file == file => {
                manifest::parse_json(file, buffer.text.as_bytes())
            }
            _ => read_json(file),
        }
    }

    fn exists(&self, file: &Path) -> bool {
        self.buffer
            .as_ref()
            .is_some_and(|buffer| buffer.file == file)
            || file.exists()
    }

    fn report(&mut self, path: PathBuf, name: Option<String>, diagnostics: Vec<Diagnostic>) {
        self.reports
            .push(finish_report(path, name, diagnostics, self.options));
    }

    fn path(&mut self, path: &Path) {
        if fs::symlink_metadata(path).is_err() {
            let message = format!("{} does not exist", path.display());
            let missing = Diagnostic::new(skill_codes::Code::PathMissing, message);
            self.report(path.to_path_buf(), None, vec![missing]);
            return;
        }
        let root = manifest_root(path);
        let manifests = root.join(MANIFEST_DIRECTORY);
        if manifests.join(MARKETPLACE_MANIFEST).exists() {
            self.marketplace(&root);
        } else if manifests.join(PLUGIN_MANIFEST).exists() || has_components(&root) {
            let _ = self.plugin(&root, None);
        } else {
            let message = format!(
                "{} is neither a plugin (.claude-plugin/plugin.json) nor a marketplace (.claude-plugin/marketplace.json)",
                path.display()
            );
            let finding = Diagnostic::new(codes::Code::NotAPlugin, message);
            self.report(path.to_path_buf(), None, vec![finding]);
        }
    }

    fn marketplace(&mut self, root: &Path) {
        let file = root.join(MANIFEST_DIRECTORY).join(MARKETPLACE_MANIFEST);
        let value = match self.read_json(&file) {
            Ok(value) => value,
            Err(problem) => return self.report(file, None, vec![problem]),
        };
        let Some(object) = value.as_object() else {
            let finding = Diagnostic::new(
                codes::Code::NotAnObject,
                "the marketplace is not a JSON object",
            );
            return self.report(file, None, vec![finding]);
        };
        let mut fields = Fields::new(object, "");
        let name = fields.name(true).map(str::to_owned);
        fields.person("owner", true);
        fields.string("description", false);
        fields.version();
        let mut plugin_root = None;
        if let Some(metadata) = fields.object_field("metadata", false) {
            let mut inner = Fields::new(metadata, "metadata.");
            inner.version();
            inner.string("description", false);
            plugin_root = inner.string("pluginRoot", false);
            fields.diagnostics.append(&mut inner.diagnostics);
        }
        fields.unknown(&[MARKETPLACE_FIELDS]);
        let mut diagnostics = std::mem::take(&mut fields.diagnostics);
        let mut plugins = Vec::new();
        match object.get("plugins") {
            Some(Value::Array(entries)) => {
                let mut first_index: HashMap<&str, usize> = HashMap::new();
                for (index, entry) in entries.iter().enumerate() {
                    let prefix = format!("plugins[{index}].");
                    let Some(entry) = entry.as_object() else {
                        diagnostics.push(
                            Diagnostic::new(
                                codes::Code::NotAnObject,
                                format!("`plugins[{index}]` is not a JSON object"),
                            )
                            .with_field(format!("plugins[{index}]")),
                        );
                        continue;
                    };
                    let mut fields = Fields::new(entry, prefix.clone());
                    let entry_name = fields.name(true);
                    if let Some(entry_name) = entry_name
                        && let Some(first) = first_index.insert(entry_name, index)
                    {
                        fields.diagnostics.push(
                            Diagnostic::new(
                                codes::Code::PluginNameDuplicate,
                                format!(
                                    "`{prefix}name` {} is also the name of plugins[{first}]",
                                    quoted(entry_name)
                                ),
                            )
                            .with_field(format!("{prefix}name")),
                        );
                    }
                    fields.plugin_metadata();
                    fields.string("category", false);
                    fields.string_list("tags");
                    fields.boolean("strict");
                    fields.unknown(&[PLUGIN_FIELDS, ENTRY_FIELDS]);
                    let source = self.entry_source(&mut fields, root, plugin_root);
                    diagnostics.append(&mut fields.diagnostics);
                    if let Some(directory) = source {
                        plugins.push((index, directory, entry, entry_name));
                    }
                }
            }
            Some(_) => diagnostics.push(
                Diagnostic::new(
                    codes::Code::FieldType,
                    "`plugins` must be an array of plugin entries",
                )
                .with_field("plugins"),
            ),
            None => diagnostics.push(
                Diagnostic::new(codes::Code::FieldMissing, "`plugins` is required")
                    .with_field("plugins"),
            ),
        }
        let report_at = self.reports.len();
        self.report(file, name, Vec::new());
        for (index, directory, object, entry_name) in plugins {
            let entry = Entry {
                name: entry_name,
                object,
            };
            for problem in self.plugin(&directory, Some(&entry)) {
                diagnostics.push(problem.with_field(format!("plugins[{index}]")));
            }
        }
        let marketplace = &mut self.reports[report_at];
        *marketplace = finish_report(
            marketplace.path.clone(),
            marketplace.name.clone(),
            diagnostics,
            self.options,
        );
    }

    /// The local directory an entry's `source` names, after checking it;
    /// `None` for a remote source (checked for shape only) or a bad one.
    fn entry_source(
        &self,
        fields: &mut Fields<'_>,
        root: &Path,
        plugin_root: Option<&str>,
    ) -> Option<PathBuf> {
        let prefix = fields.prefix.clone();
        let source = match fields.object.get("source") {
            None => {
                fields.missing("source");
                return None;
            }
            Some(Value::Object(remote)) => {
                let mut inner = Fields::new(remote, format!("{prefix}source."));
                inner.string("source", true);
                fields.diagnostics.append(&mut inner.diagnostics);
                return None;
            }
            Some(Value::String(source)) => source.as_str(),
            Some(_) => {
                fields.diagnostics.push(
                    Diagnostic::new(
                        codes::Code::FieldType,
                        format!("`{prefix}source` must be a path or a source object"),
                    )
                    .with_field(format!("{prefix}source")),
                );
                return None;
            }
        };
        // `metadata.pluginRoot` is prepended to bare names (`formatter`).
        let joined;
        let source = match plugin_root {
            Some(base) if !source.starts_with("./") && !source.contains('/') => {
                joined = format!("{}/{source}", base.trim_end_matches('/'));
                joined.as_str()
            }
            _ => source,
        };
        if let Some(problem) = manifest::check_relative_path(source, &format!("{prefix}source")) {
            fields.diagnostics.push(problem);
            return None;
        }
        let directory = join_relative(root, source);
        // Resolved before it is trusted: `./plugins/x` may be a symlink (or
        // pass through one) to a directory outside the marketplace.
        if let (Ok(resolved), Ok(real_root)) =
            (fs::canonicalize(&directory), fs::canonicalize(root))
            && !resolved.starts_with(&real_root)
        {
            fields.diagnostics.push(
                Diagnostic::new(
                    codes::Code::PathNotRelative,
                    format!(
                        "`{prefix}source` {} leads through a symlink to {}, outside the marketplace",
                        quoted(source),
                        resolved.display()
                    ),
                )
                .with_field(format!("{prefix}source")),
            );
            return None;
        }
        if !directory.is_dir() {
            let what = if directory.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            fields.diagnostics.push(
                Diagnostic::new(
                    codes::Code::SourceMissing,
                    format!(
                        "`{prefix}source` {}: {} {what}",
                        quoted(source),
                        directory.display()
                    ),
                )
                .with_field(format!("{prefix}source")),
            );
            return None;
        }
        Some(directory)
    }

    /// Checks one plugin directory, once however many entries point here:
    /// the manifest's findings become its report, each broken component
    /// file's findings that file's own report. The findings about the
    /// entry that pointed here (its name, the component paths it names)
    /// are returned, for the marketplace's report.
    fn plugin(&mut self, directory: &Path, entry: Option<&Entry<'_>>) -> Vec<Diagnostic> {
        let manifest_file = directory.join(MANIFEST_DIRECTORY).join(PLUGIN_MANIFEST);
        let key = fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf());
        let first_visit = self.seen_plugins.insert(key);
        let mut diagnostics = Vec::new();
        let mut own_name = None;
        // (field, path, named by the marketplace entry)
        let mut component_paths: Vec<(String, String, bool)> = Vec::new();
        let has_manifest = self.exists(&manifest_file);
        let manifest_value = has_manifest.then(|| self.read_json(&manifest_file));
        match &manifest_value {
            Some(Err(problem)) => diagnostics.push(problem.clone()),
            Some(Ok(Value::Object(object))) => {
                let mut fields = Fields::new(object, "");
                own_name = fields.name(true).map(str::to_owned);
                fields.plugin_metadata();
                for key in manifest::PATH_FIELDS {
                    for path in fields.paths(key) {
                        component_paths.push(((*key).to_owned(), path.to_owned(), false));
                    }
                }
                fields.unknown(&[PLUGIN_FIELDS]);
                diagnostics.append(&mut fields.diagnostics);
            }
            Some(Ok(_)) => diagnostics.push(Diagnostic::new(
                codes::Code::NotAnObject,
                "plugin.json is not a JSON object",
            )),
            None => {}
        }
        let mut entry_problems = Vec::new();
        if let Some(entry) = entry {
            // The entry's component paths are relative to the plugin too.
            let mut fields = Fields::new(entry.object, "");
            for key in manifest::PATH_FIELDS {
                for path in fields.paths(key) {
                    component_paths.push(((*key).to_owned(), path.to_owned(), true));
                }
            }
            if let (Some(listed), Some(own)) = (entry.name, own_name.as_deref())
                && listed != own
            {
                entry_problems.push(Diagnostic::new(
                    codes::Code::PluginNameMismatch,
                    format!(
                        "the marketplace lists {} but {} names itself {}",
                        quoted(listed),
                        manifest_file.display(),
                        quoted(own)
                    ),
                ));
            }
            let declares = manifest::PATH_FIELDS
                .iter()
                .any(|key| entry.object.contains_key(*key));
            if entry_problems.is_empty() && !has_manifest && !has_components(directory) && !declares
            {
                entry_problems.push(Diagnostic::new(
                    codes::Code::SourceNotAPlugin,
                    format!(
                        "{} holds no .claude-plugin/plugin.json and no skills, commands, agents or hooks",
                        directory.display()
                    ),
                ));
            }
        }
        // Paths named in a manifest must exist; the defaults may be absent.
        let mut skills = Vec::new();
        let mut commands = Vec::new();
        let mut agents = Vec::new();
        let mut hooks = Vec::new();
        for (field, path, from_entry) in &component_paths {
            if !from_entry && !first_visit {
                // The manifest's paths were checked on the first visit.
                continue;
            }
            let full = join_relative(directory, path);
            if !full.exists() {
                let problem = Diagnostic::new(
                    codes::Code::ComponentMissing,
                    format!("`{field}` names {}, which does not exist", full.display()),
                );
                if *from_entry {
                    entry_problems.push(problem);
                } else {
                    diagnostics.push(problem.with_field(field.clone()));
                }
                continue;
            }
            match field.as_str() {
                "skills" => skills.push(full),
                "commands" => commands.push(full),
                "agents" => agents.push(full),
                "hooks" => hooks.push(full),
                _ => {}
            }
        }
        if first_visit {
            push_default(&mut skills, directory.join(DEFAULT_SKILLS));
            push_default(&mut commands, directory.join(DEFAULT_COMMANDS));
            push_default(&mut agents, directory.join(DEFAULT_AGENTS));
            push_default(&mut hooks, directory.join(DEFAULT_HOOKS));
        }
        // Each component file's findings are reported on that file, once.
        let mut component_findings = Vec::new();
        for path in &commands {
            markdown_components(path, false, &mut component_findings);
        }
        for path in &agents {
            markdown_components(path, true, &mut component_findings);
        }
        for path in &hooks {
            if let Some(problem) = check_hooks(path) {
                component_findings.push((path.clone(), problem));
            }
        }
        let name = own_name.or_else(|| entry.and_then(|entry| entry.name.map(str::to_owned)));
        if first_visit {
            let path = if has_manifest {
                manifest_file
            } else {
                directory.to_path_buf()
            };
            self.report(path, name, diagnostics);
        }
        for (file, problem) in component_findings {
            let key = fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
            if self.seen_files.insert(key) {
                self.report(file, None, vec![problem]);
            }
        }
        self.skills(&skills);
        entry_problems
    }

    fn skills(&mut self, roots: &[PathBuf]) {
        if roots.is_empty() || self.buffer.is_some() {
            return;
        }
        let discovery = discover(roots, true);
        let targets: Vec<_> = discovery
            .targets
            .into_iter()
            .filter(|target| {
                let path = target.display_path();
                let key = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                self.seen_skills.insert(key)
            })
            .collect();
        let reports = validate_targets(&targets, self.options);
        self.reports.extend(reports);
    }
}

/// `root` joined with a `./`-relative path, without the `./` noise.
fn join_relative(root: &Path, relative: &str) -> PathBuf {
    let rest = relative.trim_start_matches("./").trim_end_matches('/');
    if rest.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rest)
    }
}

fn push_default(paths: &mut Vec<PathBuf>, default: PathBuf) {
    if default.exists() && !paths.contains(&default) {
        paths.push(default);
    }
}

/// The root a path stands for: a manifest file given directly stands for
/// the directory holding `.claude-plugin/`.
fn manifest_root(path: &Path) -> PathBuf {
    let is_manifest = path
        .file_name()
        .is_some_and(|name| name == PLUGIN_MANIFEST || name == MARKETPLACE_MANIFEST);
    let parent = path.parent();
    if is_manifest
        && parent
            .and_then(Path::file_name)
            .is_some_and(|name| name == MANIFEST_DIRECTORY)
        && let Some(root) = parent.and_then(Path::parent)
    {
        if root.as_os_str().is_empty() {
            return PathBuf::from(".");
        }
        return root.to_path_buf();
    }
    path.to_path_buf()
}

/// Whether a directory holds any component in its default place.
fn has_components(directory: &Path) -> bool {
    [
        DEFAULT_SKILLS,
        DEFAULT_COMMANDS,
        DEFAULT_AGENTS,
        DEFAULT_HOOKS,
    ]
    .iter()
    .any(|component| directory.join(component).exists())
}

/// Checks the Markdown files of a commands or agents path (a file or a
/// directory): readable UTF-8, and frontmatter that parses. Agents need
/// frontmatter; for commands it is optional.
fn markdown_components(
    path: &Path,
    frontmatter_required: bool,
    findings: &mut Vec<(PathBuf, Diagnostic)>,
) {
    let mut files = Vec::new();
    collect_markdown(path, 0, &mut files);
    for file in files {
        if let Some(problem) = markdown_problem(&file, frontmatter_required) {
            let what = if frontmatter_required {
                "agent"
            } else {
                "command"
            };
            let finding =
                Diagnostic::new(codes::Code::ComponentBroken, format!("{what}: {problem}"));
            findings.push((file, finding));
        }
    }
}

fn collect_markdown(path: &Path, depth: usize, files: &mut Vec<PathBuf>) {
    let Ok(metadata) = fs::symlink_metadata(path) else {
        return;
    };
    if metadata.is_file() {
        if path.extension().is_some_and(|extension| extension == "md") {
            files.push(path.to_path_buf());
        }
        return;
    }
    if !metadata.is_dir() || depth > MAX_COMPONENT_DEPTH {
        return;
    }
    let Ok(entries) = fs::read_dir(path) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    children.sort();
    for child in children {
        collect_markdown(&child, depth + 1, files);
    }
}

fn markdown_problem(file: &Path, frontmatter_required: bool) -> Option<String> {
    let bytes = match read_skill_file(file) {
        Ok(bytes) => bytes,
        Err(problem) => return Some(problem.message),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Some("not UTF-8".to_owned());
    };
    let has_frontmatter = text.starts_with("---");
    if !has_frontmatter {
        return frontmatter_required
            .then(|| "no YAML frontmatter (an agent needs `name` and `description`)".to_owned());
    }
    // Claude Code reads this frontmatter leniently (its own agents have
    // unquoted `: ` in descriptions), so only an unclosed block is broken.
    frontmatter::split(text)
        .err()
        .map(|problem| problem.to_string())
}

/// The problem with a hooks file, reported on that file.
fn check_hooks(path: &Path) -> Option<Diagnostic> {
    let broken = |message: &str| Diagnostic::new(codes::Code::ComponentBroken, message);
    match read_json(path) {
        Err(problem) => Some(problem),
        Ok(Value::Object(object)) => match object.get("hooks") {
            Some(Value::Object(_)) => None,
            _ => Some(broken("hooks file: needs a `hooks` object")),
        },
        Ok(_) => Some(broken("hooks file: not a JSON object")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_file_stands_for_its_root() {
        assert_eq!(
            manifest_root(Path::new("m/.claude-plugin/marketplace.json")),
            Path::new("m")
        );
        assert_eq!(
            manifest_root(Path::new(".claude-plugin/plugin.json")),
            Path::new(".")
        );
        assert_eq!(
            manifest_root(Path::new("m/plugin.json")),
            Path::new("m/plugin.json")
        );
    }
}
