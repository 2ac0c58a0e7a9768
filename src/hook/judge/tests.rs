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

const JUST_TEST: &str = r#"{
  "name": "just-test", "description": "Run the project's tests", "danger_level": "mutating",
  "class": "runs_project_code",
  "parameters": {"jobs": {"type": "integer", "minimum": 1}},
  "subprocess": {"binary": "just", "argv": [{"param": "jobs", "flag": "-j"}, "test"]}
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
            ("just-test", JUST_TEST),
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
            home: None,
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
        ("GIT_DIR=/tmp git status", Verdict::Deny, "environment"),
        ("FOO=1 git status", Verdict::Ask, "assignment_prefix"),
        (
            "RUST_BACKTRACE=1 just test",
            Verdict::Ask,
            "assignment_prefix",
        ),
        ("LC_ALL=C git status", Verdict::Allow, "declared"),
        (
            "LC_ALL=/tmp/x git status",
            Verdict::Ask,
            "assignment_prefix",
        ),
        ("eval 'git status'", Verdict::Deny, "shell_builtin"),
        (
            "git() { rm -rf /; }; git status",
            Verdict::Deny,
            "function_definition",
        ),
        ("timeout 5s", Verdict::Deny, "wrapper"),
        ("timeout --bogus 5 git status", Verdict::Deny, "wrapper"),
        ("timeout 5 bash -c 'rm -rf /'", Verdict::Deny, "interpreter"),
        ("find . -exec rm {} ;", Verdict::Deny, "wrapper"),
        ("env git status", Verdict::Deny, "wrapper"),
        ("bash -c 'git status'", Verdict::Deny, "interpreter"),
        ("curl x | sh", Verdict::Deny, "interpreter"),
        ("python3 -c 'print(1)'", Verdict::Deny, "interpreter"),
        ("./git status", Verdict::Ask, "unmatched"),
        ("export PATH=/tmp", Verdict::Deny, "environment"),
        ("PATH=/tmp", Verdict::Deny, "environment"),
        ("git status > /etc/out.txt", Verdict::Ask, "redirect_write"),
        ("git status > .git/config", Verdict::Ask, "git_dir_write"),
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
    assert_eq!(fixture.verdict("git status $HOME").0, Verdict::Ask);
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

/// `timeout` runs its command as if it stood alone, and that command is
/// what is judged.
#[test]
fn timeout_is_judged_by_the_command_it_runs() {
    let fixture = Fixture::new();
    for line in [
        "timeout 5 git status",
        "timeout -s KILL 1.5m git status --short",
        "timeout --signal=TERM --kill-after=2 --preserve-status 60 git status",
        "timeout -- 10 git status",
        "timeout 5 timeout 9 git status",
    ] {
        let judgement = fixture.judge(line);
        assert_eq!(judgement.verdict, Verdict::Allow, "{line}: {judgement:?}");
        assert_eq!(judgement.segments[0].shown, line);
        assert!(judgement.route.is_none(), "{line}");
    }
    assert_eq!(
        fixture.verdict("timeout 5 just test"),
        (Verdict::Allow, vec!["runs_project_code"])
    );
    assert!(
        fixture
            .judge("timeout 5 just test | tail")
            .route_within
            .is_none()
    );
    assert_eq!(fixture.verdict("timeout 5 git push").0, Verdict::Ask);
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

/// In a longer line, only the commands that run the project's code are
/// replaced, each where it is written; the rest stays as written.
#[test]
fn a_confined_command_inside_a_longer_line_is_rewritten_in_place() {
    let fixture = Fixture::new();
    let aigent = ["/opt/aigent".to_owned()];
    let rewrite = |line: &str| {
        let judgement = fixture.judge(line);
        assert!(judgement.route.is_none(), "{line}");
        judgement
            .route_within
            .and_then(|within| within.rewrite(&aigent))
    };
    assert_eq!(
        rewrite("just  -j 4 test 2>&1 | tail -20").as_deref(),
        Some("/opt/aigent run just-test --jobs=4 2>&1 | tail -20")
    );
    assert_eq!(
        rewrite("git status && just test; just test|tail").as_deref(),
        Some("git status && /opt/aigent run just-test; /opt/aigent run just-test|tail")
    );
    // Characters, not bytes, place the words.
    assert_eq!(
        rewrite("git log -n 20 '--author=Zoë' -- && just test").as_deref(),
        Some("git log -n 20 '--author=Zoë' -- && /opt/aigent run just-test")
    );
    // Where the words cannot be cut out as written, nothing is rewritten.
    for line in [
        "just -j 4 2>/dev/null test | tail",
        "for i in 1 2; do just test; done",
        "X=1 just test | tail",
        "echo $(just test)",
        "(just test) | tail",
    ] {
        let judgement = fixture.judge(line);
        let rewritten = judgement
            .route_within
            .and_then(|within| within.rewrite(&aigent));
        assert_eq!(rewritten, None, "{line}");
    }
}

/// A rewrite that would read differently is dropped: the check parses
/// both lines and compares every command but the replaced ones.
#[test]
fn a_rewrite_that_changes_the_lines_meaning_is_dropped() {
    let route = LineRoute {
        line: "just test | tail".to_owned(),
        parsed: crate::shell::parse("just test | tail").unwrap(),
        replacements: vec![(0..9, vec!["run".to_owned(), "just-test".to_owned()])],
    };
    assert_eq!(
        route.rewrite(&["aigent".to_owned()]).as_deref(),
        Some("aigent run just-test | tail")
    );
    // A span that cuts into the pipe.
    let cut = LineRoute {
        replacements: vec![(0..11, vec!["run".to_owned(), "just-test".to_owned()])],
        ..route.clone()
    };
    assert_eq!(cut.rewrite(&["aigent".to_owned()]), None);
    // Words a shell would split are quoted, so they stay one word.
    assert_eq!(
        route.rewrite(&["/opt/my aigent; x".to_owned()]).as_deref(),
        Some("'/opt/my aigent; x' run just-test | tail")
    );
    let outside = LineRoute {
        replacements: vec![(0..99, vec!["run".to_owned()])],
        ..route
    };
    assert_eq!(outside.rewrite(&["aigent".to_owned()]), None);
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
        home: None,
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
    // As a route writes it: the output format changes what is printed.
    for format in ["--output text", "--output=json"] {
        assert_eq!(
            verdict(format!(
                "aigent --commands {dir} {format} run git-status --short"
            )),
            Verdict::Allow,
            "{format}"
        );
    }
    for other in ["--output yaml", "--commands {dir}", "--verbose"] {
        let other = other.replace("{dir}", &dir);
        assert_eq!(
            verdict(format!(
                "aigent --commands {dir} {other} run git-status --short"
            )),
            Verdict::Ask,
            "{other}"
        );
    }
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
            home: None,
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
    // A `cd` to where the line already is changes nothing; after one
    // elsewhere (which might fail) the paths are checked from each
    // directory the command may run in.
    let (verdict, rules) = judge_in(
        &format!("cd {} && tar -tf in.tar", project.path().display()),
        Some(project.path()),
    );
    assert_eq!(verdict, Verdict::Allow, "{rules:?}");
    fs::create_dir(project.path().join("sub")).unwrap();
    let (verdict, rules) = judge_in("cd sub && tar -tf in.tar", Some(project.path()));
    assert_eq!(verdict, Verdict::Deny);
    assert!(rules.contains(&"path_not_found"), "{rules:?}");
    fs::write(project.path().join("sub/in.tar"), "").unwrap();
    let (verdict, rules) = judge_in("cd sub && tar -tf in.tar", Some(project.path()));
    assert_eq!(verdict, Verdict::Allow, "{rules:?}");
    let (verdict, rules) = judge_in("cd no-such && tar -tf in.tar", Some(project.path()));
    assert_eq!(verdict, Verdict::Deny);
    assert!(rules.contains(&"confined_path"), "{rules:?}");
}

/// Issue 38: every word bash expands or evaluates is judged, wherever it
/// stands. Each line here was allowed before (and bash ran its payload);
/// the rule named is the one that now refuses it.
#[test]
fn every_word_bash_expands_or_evaluates_is_judged() {
    let fixture = Fixture::new();
    let cases: &[(&str, Verdict, &str)] = &[
        // `for` lists and `case` words and patterns.
        (
            "case ${y:-$(touch PWNED)} in esac",
            Verdict::Deny,
            "parameter_expansion",
        ),
        (
            "case ${y:-$(touch PWNED)} in esac",
            Verdict::Deny,
            "unmatched",
        ),
        (
            "case x in $(touch PWNED)) git status;; esac",
            Verdict::Deny,
            "command_substitution",
        ),
        (
            "for x in $(touch PWNED); do git status; done",
            Verdict::Deny,
            "command_substitution",
        ),
        (
            "case ${y:-$(echo x >/dev/tcp/127.0.0.1/9)} in esac",
            Verdict::Deny,
            "network_redirect",
        ),
        // Arithmetic and subscripts, nested anywhere.
        (
            "for x in $(( $(touch PWNED)0 )); do git status; done",
            Verdict::Deny,
            "arithmetic_variable",
        ),
        (
            "case ${a[$(touch PWNED)]} in esac",
            Verdict::Deny,
            "arithmetic_variable",
        ),
        ("echo $[x]", Verdict::Deny, "arithmetic_variable"),
        ("echo ${s:n}", Verdict::Deny, "arithmetic_variable"),
        ("echo \"${a[i]}\"", Verdict::Deny, "arithmetic_variable"),
        ("echo ${!x}", Verdict::Deny, "indirect_expansion"),
        ("echo ${x@P}", Verdict::Deny, "prompt_expansion"),
        ("echo ${HOME:=.}", Verdict::Deny, "assigning_expansion"),
        (
            "echo ${y:-<(touch PWNED)}",
            Verdict::Deny,
            "unreadable_word",
        ),
        ("echo ${y:-$(touch PWNED)}", Verdict::Ask, "unmatched"),
        // A name bash evaluates as arithmetic: its value can hold code.
        (
            "echo 'a[$(touch PWNED)]' >/dev/null; [[ 1 -eq _ ]]",
            Verdict::Deny,
            "arithmetic_evaluation",
        ),
        (
            "for x in 'a[$(touch PWNED)]'; do [[ 1 -eq x ]]; done",
            Verdict::Deny,
            "arithmetic_evaluation",
        ),
        ("[[ $x -lt 3 ]]", Verdict::Deny, "arithmetic_variable"),
        (
            "echo 'a[$(touch PWNED)]' >/dev/null; [ -v 'b[_]' ]",
            Verdict::Deny,
            "arithmetic_evaluation",
        ),
        ("test -v 'b[_]'", Verdict::Deny, "arithmetic_evaluation"),
        ("[[ -v b[_] ]]", Verdict::Deny, "arithmetic_evaluation"),
        ("x[i]=1", Verdict::Deny, "arithmetic_evaluation"),
        (
            "read -r 'a[i]' <<< 1",
            Verdict::Deny,
            "arithmetic_evaluation",
        ),
        // `{NAME}>` assigns NAME.
        (
            ": {HOME}>/dev/null; git status",
            Verdict::Deny,
            "environment",
        ),
        (
            ": {PATH}>/dev/null; git status",
            Verdict::Deny,
            "environment",
        ),
        ("{HOME}>/dev/null", Verdict::Deny, "environment"),
        (
            "git status {a[x]}>/dev/null",
            Verdict::Deny,
            "arithmetic_evaluation",
        ),
        // Loop, read and printf -v targets: the same list as `VAR=… cmd`.
        (
            "for HOME in .; do git status; done",
            Verdict::Deny,
            "environment",
        ),
        (
            "for XDG_CONFIG_HOME in .; do git status; done",
            Verdict::Deny,
            "environment",
        ),
        (
            "for GIT_DIR in /tmp/x; do git status; done",
            Verdict::Deny,
            "environment",
        ),
        ("read -r HOME <<< .", Verdict::Deny, "environment"),
        (
            "printf -v XDG_CONFIG_HOME %s .; git status",
            Verdict::Deny,
            "environment",
        ),
        ("HOME=.", Verdict::Deny, "environment"),
        ("unset HOME; git status", Verdict::Deny, "environment"),
        (
            "unset 'a[$(touch PWNED)]'",
            Verdict::Deny,
            "arithmetic_evaluation",
        ),
        ("unset 'a[i]'", Verdict::Deny, "arithmetic_evaluation"),
        ("wait -p HOME", Verdict::Deny, "environment"),
        ("getopts ab HOME", Verdict::Deny, "environment"),
        // After a `cd` that may leave the project.
        ("cd /tmp && just test", Verdict::Ask, "outside_project"),
        ("cd; git status", Verdict::Ask, "outside_project"),
        (
            "for d in a b; do cd ..; done; git status",
            Verdict::Ask,
            "outside_project",
        ),
    ];
    let mut wrong = Vec::new();
    for (line, verdict, rule) in cases {
        let (got, rules) = fixture.verdict(line);
        if got != *verdict || !rules.contains(rule) {
            wrong.push(format!(
                "{line}: {got:?} {rules:?}, expected {verdict:?} with {rule}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The same constructs written without anything unknown stay allowed.
#[test]
fn constructs_with_static_words_stay_allowed() {
    let fixture = Fixture::new();
    for line in [
        "for f in a b c; do git status; done",
        "for f in *.rs; do git status; done",
        "for i in {1..3}; do git status; done",
        "for path in src tests; do git status; done",
        "case x in *.rs|'a b') git status;; *) echo no;; esac",
        "[[ 1 -eq 1 ]] && git status",
        "[[ 0x10 -gt 2 ]]",
        "[[ -v x ]] || [[ -v 'a[1]' ]] || [[ -v a[@] ]]",
        "[[ abc == a* ]]",
        "[[ -n x && -f Cargo.toml ]]",
        "test -v x",
        "[ 1 -eq 1 ]",
        ": {fd}>/dev/null; git status",
        "git status {fd}>/dev/null",
        "echo 'a[$(touch PWNED)]' > /dev/null",
    ] {
        let judgement = fixture.judge(line);
        assert_eq!(judgement.verdict, Verdict::Allow, "{line}: {judgement:#?}");
    }
}

/// `ask` as the `not_static` policy asks about what the person can read;
/// what cannot be known before the line runs is denied all the same.
#[test]
fn what_cannot_be_known_is_denied_whatever_the_policy() {
    let mut fixture = Fixture::new();
    fixture.settings.not_static = NotStaticPolicy::Ask;
    assert_eq!(fixture.verdict("git status $HOME").0, Verdict::Ask);
    assert_eq!(fixture.verdict("git status $((1+2))").0, Verdict::Ask);
    assert_eq!(fixture.verdict("case $x in a) ;; esac").0, Verdict::Ask);
    // `echo` only prints its words, whatever they turn out to be.
    assert_eq!(fixture.verdict("echo $HOME").0, Verdict::Allow);
    assert_eq!(fixture.verdict("echo \"exit: $?\"").0, Verdict::Allow);
    for line in [
        "echo $((x+1))",
        "echo ${!x}",
        "echo ${x@P}",
        "echo ${x:=1}",
        "echo $HOME ${!x}",
        "[[ 1 -eq $x ]]",
        "cat <<EOF\n$((x))\nEOF",
    ] {
        let (verdict, rules) = fixture.verdict(line);
        assert_eq!(verdict, Verdict::Deny, "{line}: {rules:?}");
    }
}

/// A confined declaration's command may not read a file outside its
/// confinement through `<` or `<>`, its own or a group's around it.
#[test]
fn input_redirections_are_held_to_the_declarations_confinement() {
    let fixture = Fixture::new();
    let project = tempfile::tempdir().unwrap();
    fs::write(project.path().join("in.tar"), "").unwrap();
    let registry_dir = match &fixture.registry {
        Registry::Directory(dir) => dir.clone(),
        _ => unreachable!(),
    };
    fs::write(
        registry_dir.join("tar-list.yaml"),
        "name: tar-list\ndescription: List an archive\ndanger_level: safe\nparameters:\n  archive: {type: string, required: true, pattern_type: filepath, under: [$CWD]}\nsubprocess: {binary: tar, argv: [-tf, {param: archive}]}\n",
    )
    .unwrap();
    fs::write(
        registry_dir.join("wc-lines.yaml"),
        "name: wc-lines\ndescription: Count lines\ndanger_level: safe\nparameters:\n  files: {type: array, pattern_type: filepath, relative_only: true}\nsubprocess: {binary: wc, argv: [-l, {param: files}]}\n",
    )
    .unwrap();
    let index = fixture.registry.program_index(None).unwrap();
    let which = |name: &str| Some(PathBuf::from(format!("/usr/bin/{name}")));
    let context = Context {
        registry: &fixture.registry,
        index: &index,
        settings: &fixture.settings,
        which: &which,
        cwd: Some(project.path()),
        aigent: None,
        home: None,
    };
    let verdict = |line: &str| {
        let judgement = judge(line, &context);
        let rules: Vec<&str> = judgement
            .segments
            .iter()
            .map(|segment| segment.rule)
            .collect();
        (judgement.verdict, rules)
    };
    for line in [
        "tar -tf in.tar < in.tar",
        "tar -tf in.tar < /dev/null",
        "wc -l < in.tar",
        "wc -l in.tar",
    ] {
        assert_eq!(
            verdict(line).0,
            Verdict::Allow,
            "{line}: {:?}",
            verdict(line)
        );
    }
    for (line, rule) in [
        ("tar -tf in.tar < /etc/passwd", "outside_root"),
        ("tar -tf in.tar 3</etc/passwd", "outside_root"),
        ("tar -tf in.tar <> /etc/passwd", "outside_root"),
        ("{ tar -tf in.tar; } < /etc/passwd", "outside_root"),
        ("wc -l </etc/passwd", "absolute_path"),
        ("wc -l < ../secret", "path_traversal"),
        ("if true; then wc -l; fi < /etc/passwd", "absolute_path"),
    ] {
        let (got, rules) = verdict(line);
        assert_eq!(got, Verdict::Deny, "{line}: {rules:?}");
        assert!(rules.contains(&rule), "{line}: {rules:?} lacks {rule}");
    }
}

/// A quoted `"$(…)"` is taken as text where the declaration takes any
/// text as an option's value, and nowhere else.
#[test]
fn a_quoted_substitution_is_text_only_where_any_text_is_declared() {
    let fixture = Fixture::new();
    let registry_dir = match &fixture.registry {
        Registry::Directory(dir) => dir.clone(),
        _ => unreachable!(),
    };
    fs::write(
        registry_dir.join("git-commit.yaml"),
        "name: git-commit\ndescription: Commit\ndanger_level: mutating\nparameters:\n  message: {type: array, pattern_type: free_text}\n  branch: {type: string, pattern: '^[a-z]+$'}\n  note: {type: string, pattern_type: free_text}\n  paths: {type: array, pattern_type: free_text}\nsubprocess: {binary: git, argv: [commit, {param: message, flag: -m}, {param: branch, flag: --branch}, {param: note, flag: --note, form: joined}, {param: paths}]}\n",
    )
    .unwrap();
    fs::write(
        registry_dir.join("cat.yaml"),
        "name: cat\ndescription: Print files\ndanger_level: safe\nparameters:\n  files: {type: array, pattern_type: filepath, relative_only: true}\nsubprocess: {binary: cat, argv: [{param: files}]}\n",
    )
    .unwrap();
    let index = fixture.registry.program_index(None).unwrap();
    let which = |name: &str| Some(PathBuf::from(format!("/usr/bin/{name}")));
    let context = Context {
        registry: &fixture.registry,
        index: &index,
        settings: &fixture.settings,
        which: &which,
        cwd: Some(Path::new("/work/project")),
        aigent: None,
        home: None,
    };
    let verdict = |line: &str| {
        let judgement = judge(line, &context);
        let rules: Vec<&str> = judgement
            .segments
            .iter()
            .map(|segment| segment.rule)
            .collect();
        (judgement.verdict, rules)
    };
    for line in [
        "git commit -m \"$(cat <<'EOF'\nFix the parser\n\nCo-Authored-By: A <a@b.c>\nEOF\n)\"",
        "git commit -m \"$(git status --short)\" -m 'second paragraph'",
        "git commit -m \"Summary: $(git status --short)\"",
        "git commit -m \"`git status`\"",
    ] {
        let (got, rules) = verdict(line);
        assert_eq!(got, Verdict::Allow, "{line}: {rules:?}");
    }
    for (line, expected, rule) in [
        // The commands inside are judged as ever.
        (
            "git commit -m \"$(rm -rf /)\"",
            Verdict::Deny,
            "catastrophic",
        ),
        ("git commit -m \"$(make)\"", Verdict::Ask, "unmatched"),
        // Unquoted: split into words by what it prints.
        (
            "git commit -m $(git status)",
            Verdict::Deny,
            "command_substitution",
        ),
        // A parameter expansion is not text known to be one word.
        ("git commit -m \"$@\"", Verdict::Deny, "parameter_expansion"),
        (
            "git commit -m \"$(git status) $HOME\"",
            Verdict::Deny,
            "command_substitution",
        ),
        // A parameter with a pattern does not take any text.
        (
            "git commit --branch \"$(git status)\"",
            Verdict::Deny,
            "command_substitution",
        ),
        // A positional word could print as an option.
        (
            "git commit \"$(git status)\"",
            Verdict::Deny,
            "command_substitution",
        ),
        // The program itself must be static.
        (
            "\"$(git status)\" commit -m x",
            Verdict::Deny,
            "command_substitution",
        ),
    ] {
        let (got, rules) = verdict(line);
        assert_eq!(got, expected, "{line}: {rules:?}");
        assert!(rules.contains(&rule), "{line}: {rules:?} lacks {rule}");
    }
}

/// A project's form is read with the other names the catalog gives its
/// options (`--max-count` and `-N` for `git log -n`), and nothing wider:
/// an option the form does not have still does not fit.
#[test]
fn a_projects_form_takes_the_catalogs_names_for_its_options() {
    let fixture = Fixture::new();
    for line in [
        "git log -n 5 -- src",
        "git log --max-count=5 -- src",
        "git log --max-count 5 -- src",
        "git log -5 -- src",
    ] {
        assert_eq!(fixture.verdict(line).0, Verdict::Allow, "{line}");
    }
    for line in [
        "git log --max-count=5 --stat -- src",
        "git log --oneline -- src",
    ] {
        assert_ne!(fixture.verdict(line).0, Verdict::Allow, "{line}");
    }
}

/// A line that leaves out a value its form requires is a form nobody
/// declared (asked, naming the form), not a bad value (denied).
#[test]
fn a_required_value_left_out_is_asked_not_denied() {
    let fixture = Fixture::new();
    let judgement = fixture.judge("deploy-tool");
    assert_eq!(judgement.verdict, Verdict::Ask, "{judgement:?}");
    assert_eq!(judgement.segments[0].rule, "not_declared_form");
    // A bad value is still denied.
    assert_eq!(fixture.verdict("deploy-tool --token X").0, Verdict::Deny);
}

/// A glob among the words of a program that only reads and prints, and
/// `xargs` handing it words, are judged as the command they stand for;
/// a glob or `xargs` word that may name a file of secrets is asked, and
/// any other program's glob stays refused.
#[test]
fn globs_and_xargs_of_programs_that_only_read() {
    let fixture = Fixture::new();
    let registry_dir = match &fixture.registry {
        Registry::Directory(dir) => dir.clone(),
        _ => unreachable!(),
    };
    for (name, binary, argv) in [
        ("cat-files", "cat", "[{param: files}]"),
        ("ls-long", "ls", "[-la, {param: files}]"),
        ("sort-files", "sort", "[{param: files}]"),
    ] {
        fs::write(
            registry_dir.join(format!("{name}.yaml")),
            format!("name: {name}\ndescription: Read files\ndanger_level: safe\nparameters:\n  files: {{type: array, pattern_type: filepath}}\nsubprocess: {{binary: {binary}, argv: {argv}}}\n"),
        )
        .unwrap();
    }
    let fixture = Fixture {
        index: fixture.registry.program_index(None).unwrap(),
        ..fixture
    };
    for (line, expected, rule) in [
        ("cat src/*.md", Verdict::Allow, "declared"),
        ("ls -la .[!.]*", Verdict::Allow, "declared"),
        ("ls -la .env", Verdict::Allow, "declared"),
        ("git status | xargs -0 ls -la", Verdict::Allow, "declared"),
        ("cat .en?", Verdict::Ask, "secret_file"),
        ("cat keys/*", Verdict::Ask, "secret_file"),
        ("cat .env", Verdict::Ask, "secret_file"),
        ("git status | xargs cat", Verdict::Ask, "secret_file"),
        ("sort src/*.md", Verdict::Deny, "glob"),
        ("git status | xargs sort", Verdict::Deny, "wrapper"),
        ("cat $HOME/*.md", Verdict::Deny, "parameter_expansion"),
        ("git status | xargs -I{} cat {}", Verdict::Deny, "wrapper"),
    ] {
        let (got, rules) = fixture.verdict(line);
        assert_eq!(got, expected, "{line}: {rules:?}");
        assert!(rules.contains(&rule), "{line}: {rules:?} lacks {rule}");
    }
}

/// A project's form that passes switches as literal words (`-p`, the
/// cluster `-rn`) takes the other names the catalog knows for them, and
/// a line in another spelling of its program's command (`npm t`) is read
/// as the command it is.
#[test]
fn a_projects_literal_switches_and_commands_take_their_other_spellings() {
    let fixture = Fixture::new();
    let registry_dir = match &fixture.registry {
        Registry::Directory(dir) => dir.clone(),
        _ => unreachable!(),
    };
    for (name, text) in [
        (
            "mkdir-p",
            "name: mkdir-p\ndescription: Make a directory\ndanger_level: mutating\nparameters:\n  path: {type: string, required: true, pattern_type: filepath}\nsubprocess: {binary: mkdir, argv: [-p, {param: path}]}\n",
        ),
        (
            "grep-rn",
            "name: grep-rn\ndescription: Search\ndanger_level: safe\nparameters:\n  pattern: {type: string, required: true, pattern: '^[A-Za-z]{1,20}$'}\n  paths: {type: array, pattern_type: filepath}\nsubprocess: {binary: grep, argv: [-rn, {param: pattern}, {param: paths}]}\n",
        ),
        (
            "npm-test",
            "name: npm-test\ndescription: Test\ndanger_level: safe\nparameters:\n  silent: {type: boolean}\nsubprocess: {binary: npm, argv: [test, {param: silent, flag: --silent}]}\n",
        ),
    ] {
        fs::write(registry_dir.join(format!("{name}.yaml")), text).unwrap();
    }
    let fixture = Fixture {
        index: fixture.registry.program_index(None).unwrap(),
        ..fixture
    };
    for line in [
        "mkdir --parents docs",
        "mkdir --parents -- docs",
        "grep --recursive --line-number TODO src",
        "grep -r --line-number TODO src",
        "grep -rn -e TODO src",
        "grep -rn --regexp=TODO src",
        "npm t --silent",
        "npm tst",
    ] {
        let (verdict, rules) = fixture.verdict(line);
        assert_eq!(verdict, Verdict::Allow, "{line}: {rules:?}");
    }
    for line in [
        "mkdir --parents --verbose docs",
        "grep --recursive --line-number --count TODO src",
        "grep --recursive TODO src",
        "grep -rn -e TODO -e FIXME src",
        "npm t --silent --script-shell=/tmp/x",
    ] {
        let (verdict, rules) = fixture.verdict(line);
        assert_ne!(verdict, Verdict::Allow, "{line}: {rules:?}");
    }
}

#[test]
fn harmless_variables_are_not_code_variables_and_leave_the_verdict() {
    for name in HARMLESS_VARIABLES {
        assert!(!SHELL_CONTROL_VARIABLES.contains(name), "{name}");
        assert!(!variable_loads_code(name), "{name}");
        assert!(!changes_what_runs(name), "{name}");
    }
    let fixture = Fixture::new();
    for line in [
        "NODE_ENV=test git status",
        "PYTHONUNBUFFERED=1 git status",
        "RUST_LOG=debug LC_ALL=C git status",
    ] {
        assert_eq!(fixture.judge(line).verdict, Verdict::Allow, "{line}");
    }
    for line in [
        "NODE_OPTIONS=--require=x git status",
        "NODE_PATH=. git status",
    ] {
        assert_eq!(fixture.judge(line).verdict, Verdict::Deny, "{line}");
    }
}
