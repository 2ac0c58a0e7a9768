use super::*;

/// A user directory, a project (a git repository with `commands/` and its
/// `aigent.toml`) and a state directory, all under one temp dir.
struct World {
    root: tempfile::TempDir,
}

impl World {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("project/.git")).unwrap();
        fs::create_dir_all(root.path().join("project/src/deep")).unwrap();
        fs::create_dir_all(root.path().join("project/commands")).unwrap();
        fs::write(root.path().join("project/commands/aigent.toml"), "").unwrap();
        fs::create_dir_all(root.path().join("user")).unwrap();
        Self { root }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    fn declare(&self, dir: &str, name: &str, binary: &str) {
        fs::write(
            self.path(dir).join(format!("{name}.json")),
            format!(
                r#"{{"name": "{name}", "description": "From {dir}", "danger_level": "safe",
                "parameters": {{}}, "subprocess": {{"binary": "{binary}", "argv": ["x"]}}}}"#
            ),
        )
        .unwrap();
    }

    fn discovery(&self, given: Option<&str>) -> Discovery {
        Discovery {
            given: given.map(|dir| self.path(dir)),
            cwd: Some(self.path("project/src/deep")),
            user: Some(self.path("user")),
            trust_file: Some(self.path("state/trusted.json")),
        }
    }

    fn layers(&self, given: Option<&str>) -> Layers {
        Layers::discover(&self.discovery(given))
    }
}

fn kinds(layers: &Layers) -> Vec<LayerKind> {
    layers.layers().map(|layer| layer.kind).collect()
}

#[test]
fn layers_are_found_in_order_and_later_ones_win() {
    let world = World::new();
    fs::create_dir_all(world.path("given")).unwrap();
    world.declare("user", "tool", "tool-user");
    world.declare("project/commands", "tool", "tool-project");
    world.declare("given", "only-given", "other");
    let layers = world.layers(Some("given"));
    assert_eq!(
        kinds(&layers),
        [
            LayerKind::Catalog,
            LayerKind::User,
            LayerKind::Project,
            LayerKind::Commands
        ]
    );
    let tool = layers.load("tool").unwrap();
    assert_eq!(tool.declaration.description, "From project/commands");
    assert_eq!(layers.layer_of("tool"), Some(LayerKind::Project));
    assert_eq!(layers.layer_of("only-given"), Some(LayerKind::Commands));
    assert_eq!(layers.layer_of("git-status"), Some(LayerKind::Catalog));
    let index = layers.program_index(None).unwrap();
    assert_eq!(index.commands_for("tool-project"), ["tool"]);
    assert!(index.commands_for("tool-user").is_empty(), "shadowed");
    let reports = layers.reports_where(|name| name == "tool").unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].layer, Some(LayerKind::Project));
}

#[test]
fn a_broken_upper_declaration_is_an_error_not_a_fallback() {
    let world = World::new();
    fs::write(world.path("project/commands/git-status.json"), "{").unwrap();
    let layers = world.layers(None);
    assert!(matches!(
        layers.load("git-status"),
        Err(LoadError::Invalid { .. })
    ));
}

#[test]
fn settings_switch_catalog_entries_off_by_name_program_or_whole() {
    let world = World::new();
    let settings = world.path("project/commands/aigent.toml");
    fs::write(&settings, "[hook]\ndisable = [\"git-status\", \"ls\"]\n").unwrap();
    let layers = world.layers(None);
    assert!(matches!(
        layers.load("git-status"),
        Err(LoadError::NotFound { .. })
    ));
    assert!(layers.load("git-log").is_ok());
    let index = layers.program_index(None).unwrap();
    assert!(index.commands_for("ls").is_empty());
    assert!(!index.commands_for("git").is_empty());

    fs::write(&settings, "[hook]\ncatalog = false\n").unwrap();
    let layers = world.layers(None);
    assert!(layers.load("git-log").is_err());
    assert!(layers.program_index(None).unwrap().is_empty());
}

#[test]
fn settings_merge_with_the_later_layer_winning() {
    let world = World::new();
    fs::write(
        world.path("user/aigent.toml"),
        "[hook]\nunmatched = \"deny\"\nwrite_paths = [\"out/\"]\ndisable = [\"cat\"]\n",
    )
    .unwrap();
    fs::write(
        world.path("project/commands/aigent.toml"),
        "[hook]\nunmatched = \"defer\"\ndisable = [\"ls\"]\n",
    )
    .unwrap();
    let settings = world.layers(None).settings().unwrap();
    assert_eq!(
        settings.hook.unmatched,
        super::super::UnmatchedPolicy::Defer
    );
    assert_eq!(settings.hook.write_paths, ["out/"]);
    assert_eq!(settings.hook.disable, ["cat", "ls"]);
}

#[test]
fn an_invalid_settings_file_is_an_error() {
    let world = World::new();
    fs::write(world.path("project/commands/aigent.toml"), "[hok]\n").unwrap();
    let error = world.layers(None).settings().unwrap_err();
    assert!(error.to_string().contains("aigent.toml:1:"), "{error}");
}

#[test]
fn the_hook_reads_a_project_layer_only_once_its_content_is_trusted() {
    let world = World::new();
    world.declare("project/commands", "tool", "tool");
    let layers = world.layers(None);
    assert!(layers.load("tool").is_ok(), "other commands read it");
    let hook = layers.for_hook(None);
    assert!(matches!(hook.load("tool"), Err(LoadError::NotFound { .. })));
    assert!(hook.untrusted_declares("tool"));
    assert!(!hook.untrusted_declares("git-status"));

    let trust_file = world.path("state/trusted.json");
    trust(&trust_file, &world.path("project/commands")).unwrap();
    let hook = world.layers(None).for_hook(None);
    assert!(hook.load("tool").is_ok());
    assert!(!hook.untrusted_declares("tool"));

    // Any change to the content needs trusting again.
    world.declare("project/commands", "another", "x");
    let hook = world.layers(None).for_hook(None);
    assert!(hook.load("tool").is_err());
    fs::write(world.path("project/commands/aigent.toml"), "# edited\n").unwrap();
    trust(&trust_file, &world.path("project/commands")).unwrap();
    assert!(world.layers(None).for_hook(None).load("another").is_ok());
}

#[test]
fn the_hook_finds_the_project_from_the_agents_directory() {
    let world = World::new();
    world.declare("project/commands", "tool", "tool");
    trust(
        &world.path("state/trusted.json"),
        &world.path("project/commands"),
    )
    .unwrap();
    let discovery = Discovery {
        cwd: Some(world.path("user")),
        ..world.discovery(None)
    };
    let layers = Layers::discover(&discovery);
    assert_eq!(kinds(&layers), [LayerKind::Catalog, LayerKind::User]);
    let hook = layers.for_hook(Some(&world.path("project/src")));
    assert!(hook.load("tool").is_ok());
}

#[test]
fn the_project_search_stops_at_the_repository_root() {
    let world = World::new();
    fs::create_dir_all(world.path("outer/commands")).unwrap();
    fs::write(world.path("outer/commands/aigent.toml"), "").unwrap();
    fs::create_dir_all(world.path("outer/repo/.git")).unwrap();
    fs::create_dir_all(world.path("outer/repo/src")).unwrap();
    assert_eq!(project_registry(&world.path("outer/repo/src")), None);
    assert_eq!(
        project_registry(&world.path("project/src/deep")),
        Some(world.path("project/commands"))
    );
}

#[test]
fn the_given_directory_is_one_layer_even_when_it_is_the_project() {
    let world = World::new();
    let layers = world.layers(Some("project/commands"));
    assert_eq!(
        kinds(&layers),
        [LayerKind::Catalog, LayerKind::User, LayerKind::Commands]
    );
}

#[test]
fn a_missing_given_directory_is_reported() {
    let world = World::new();
    let layers = world.layers(Some("nowhere"));
    assert!(matches!(
        layers.entries(),
        Err(LoadError::MissingRegistry { .. })
    ));
}
