use proptest::prelude::*;

use super::*;

fn argvs(line: &str) -> Vec<Option<Vec<String>>> {
    parse(line)
        .unwrap()
        .commands
        .iter()
        .map(|command| {
            command
                .argv()
                .map(|argv| argv.into_iter().map(str::to_owned).collect())
        })
        .collect()
}

fn static_argv(line: &str) -> Vec<String> {
    let all = argvs(line);
    assert_eq!(all.len(), 1, "{line}: {all:?}");
    all.into_iter().next().unwrap().expect("static")
}

fn why(line: &str) -> Vec<NotStatic> {
    parse(line)
        .unwrap()
        .commands
        .iter()
        .flat_map(|command| {
            command
                .words
                .iter()
                .chain(
                    command
                        .assignments
                        .iter()
                        .map(|assignment| &assignment.value),
                )
                .chain(command.redirects.iter().map(|redirect| &redirect.target))
                .filter_map(|word| match word {
                    Word::Dynamic { why, .. } => Some(*why),
                    Word::Static { .. } => None,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn quote_removal_gives_the_argv_bash_passes() {
    assert_eq!(
        static_argv(r#"git commit -m 'Fix parser (again) & add tests'"#),
        ["git", "commit", "-m", "Fix parser (again) & add tests"]
    );
    assert_eq!(
        static_argv(r#"grep -E "(foo|bar)\$" src"#),
        ["grep", "-E", "(foo|bar)$", "src"]
    );
    assert_eq!(static_argv(r"echo a\ b c\\d"), ["echo", "a b", r"c\d"]);
    assert_eq!(
        static_argv(r#"echo "a\b" "\"q\"""#),
        ["echo", r"a\b", "\"q\""]
    );
    assert_eq!(
        static_argv(r"echo $'a\nb\x41\'' 'it'\''s'"),
        ["echo", "a\nbA'", "it's"]
    );
    assert_eq!(
        static_argv("git log HEAD~3 -- {}"),
        ["git", "log", "HEAD~3", "--", "{}"]
    );
    assert_eq!(static_argv("ls a\\\nb"), ["ls", "ab"]);
}

#[test]
fn every_command_of_every_construct_is_found() {
    let line = "a; b && c || d | e & f\nif g; then h; elif i; then j; else k; fi; \
                for x in l; do m; done; while n; do o; done; case p in q) r;; esac; \
                { s; }; (t); u() { v; }";
    let programs: Vec<String> = parse(line)
        .unwrap()
        .commands
        .iter()
        .filter_map(|command| {
            command
                .argv()
                .and_then(|argv| argv.first().map(|p| (*p).to_owned()))
        })
        .collect();
    for expected in [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "m", "n", "o", "r", "s", "t", "v",
    ] {
        assert!(
            programs.iter().any(|program| program == expected),
            "{expected} in {programs:?}"
        );
    }
    let script = parse(line).unwrap();
    assert!(script.constructs.iter().any(|construct| construct.kind
        == ConstructKind::FunctionDefinition
        && construct.name.as_deref() == Some("u")));
}

#[test]
fn substitutions_are_walked_and_their_words_are_not_static() {
    let script = parse("echo \"$(rm -rf /tmp/x)\" `id` <(curl x)").unwrap();
    let programs: Vec<&str> = script
        .commands
        .iter()
        .filter_map(|command| command.words.first().and_then(Word::as_static))
        .collect();
    assert!(programs.contains(&"rm"), "{programs:?}");
    assert!(programs.contains(&"id"));
    assert!(programs.contains(&"curl"));
    let echo = script
        .commands
        .iter()
        .find(|command| command.words.first().and_then(Word::as_static) == Some("echo"))
        .unwrap();
    assert_eq!(echo.within, None);
    let rm = script
        .commands
        .iter()
        .find(|command| command.words.first().and_then(Word::as_static) == Some("rm"))
        .unwrap();
    assert_eq!(rm.within, Some("command substitution"));
}

#[test]
fn expansions_are_named() {
    assert_eq!(why("echo $HOME"), [NotStatic::ParameterExpansion]);
    assert_eq!(why("echo \"${x:-y}\""), [NotStatic::ParameterExpansion]);
    assert_eq!(why("ls *.rs"), [NotStatic::Glob]);
    assert_eq!(why("ls a?"), [NotStatic::Glob]);
    assert_eq!(why("echo {a,b}"), [NotStatic::BraceExpansion]);
    assert_eq!(why("echo {1..3}"), [NotStatic::BraceExpansion]);
    assert_eq!(why("cat ~/x"), [NotStatic::TildeExpansion]);
    assert_eq!(why("echo x=~/y"), [NotStatic::TildeExpansion]);
    assert_eq!(why("echo $((1+2))"), [NotStatic::ArithmeticExpansion]);
    assert_eq!(why("X=$(id) true"), [NotStatic::CommandSubstitution]);
    assert_eq!(why("$cmd arg"), [NotStatic::ParameterExpansion]);
    assert_eq!(why("cat <<EOF\n$(id)\nEOF"), [NotStatic::HereDocExpansion]);
    assert!(why("cat <<'EOF'\n$(id)\nEOF").is_empty());
    assert!(why("echo '$HOME' \"*\" '{a,b}'").is_empty());
    assert_eq!(why("rg TODO {src,'--pre=sh'}"), [NotStatic::BraceExpansion]);
    assert_eq!(
        why(r"rg TODO {src,\-\-pre=sh}"),
        [NotStatic::BraceExpansion]
    );
    assert!(why("[ -d target ]").is_empty());
    assert_eq!(why("ls a[12]"), [NotStatic::Glob]);
}

#[test]
fn redirections_and_assignments_are_kept() {
    let script = parse("FOO=1 BAR=two git status > out.txt 2>&1 < in").unwrap();
    let command = &script.commands[0];
    assert_eq!(command.assignments.len(), 2);
    assert_eq!(command.assignments[0].name, "FOO");
    assert_eq!(command.argv().unwrap(), ["git", "status"]);
    let kinds: Vec<RedirectKind> = command
        .redirects
        .iter()
        .map(|redirect| redirect.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            RedirectKind::Write,
            RedirectKind::DuplicateOutput,
            RedirectKind::Read
        ]
    );
    assert_eq!(command.redirects[0].target.as_static(), Some("out.txt"));
    let export = parse("export PATH=/tmp").unwrap();
    assert_eq!(export.commands[0].argv().unwrap(), ["export", "PATH=/tmp"]);
}

#[test]
fn bad_lines_are_errors_not_panics() {
    assert!(matches!(
        parse("echo 'unterminated"),
        Err(ParseError::Syntax(_))
    ));
    assert!(matches!(parse("if true; then"), Err(ParseError::Syntax(_))));
    assert_eq!(parse("a\0b"), Err(ParseError::NulByte));
    let long = "a".repeat(MAX_COMMAND_BYTES + 1);
    assert_eq!(
        parse(&long),
        Err(ParseError::TooLong {
            bytes: MAX_COMMAND_BYTES + 1
        })
    );
    let deep = format!("{}true{}", "{ ".repeat(10_000), "; }".repeat(10_000));
    assert_eq!(parse(&deep), Err(ParseError::TooDeep));
    let deep_substitution = format!("echo {}x{}", "$(echo ".repeat(5_000), ")".repeat(5_000));
    assert_eq!(parse(&deep_substitution), Err(ParseError::TooDeep));
}

/// brush-parser's tokenizer never returns from a here-document with an
/// empty delimiter that the line ends in, and allocates as it loops: such
/// a line is refused before it is tokenized, a `bash -c` string's too.
#[test]
fn an_empty_here_document_delimiter_is_refused_at_once() {
    for line in [
        "cat <<'' #",
        "cat << \"\" ",
        "cat <<-'''' #",
        "cat <<''\t",
        "cat <<'' > out #",
        "cat <<'' <<x #",
        "echo $(cat <<'' #)",
        "cat <<\"\" #",
    ] {
        let started = std::time::Instant::now();
        let parsed = parse(line);
        assert!(
            matches!(parsed, Err(ParseError::Syntax(_))),
            "{line:?}: {parsed:?}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(1),
            "{line:?}"
        );
    }
    for line in [
        "cat <<<''",
        "cat <<<'' #",
        "echo \"<<'' \" #",
        "echo '<<\"\"' #",
        "cat <<''EOF\nx\nEOF",
        "cat <<'EOF'\nx\nEOF",
        "echo $((1<<2))",
    ] {
        assert!(parse(line).is_ok(), "{line:?}");
    }
}

#[test]
fn quoting_is_read_back_exactly() {
    for word in [
        "",
        "plain",
        "it's",
        "~user",
        "=x",
        "a b",
        "tab\there",
        "new\nline",
        "\u{1}",
        "$HOME",
        "*",
    ] {
        let line = format!("cmd {}", quote_word(word));
        assert_eq!(static_argv(&line), ["cmd", word], "{line}");
    }
}

fn programs(line: &str) -> Vec<(String, Option<&'static str>)> {
    parse(line)
        .unwrap()
        .commands
        .iter()
        .filter_map(|command| {
            let program = command.words.first().and_then(Word::as_static)?;
            Some((program.to_owned(), command.within))
        })
        .collect()
}

#[test]
fn substitutions_nested_anywhere_in_a_word_are_walked() {
    for line in [
        "echo ${x:-$(id)}",
        "echo \"${x:+`id`}\"",
        "echo ${x/$(id)/y} ${x/y/$(id)}",
        "echo ${x#$(id)} ${x%%$(id)}",
        "echo ${a[$(id)]}",
        "echo ${x:$(id):1}",
        "echo $(( $(id) + 1 ))",
        "echo $[ $(id) ]",
        "echo ${x:-${y:-$(id)}}",
        "case ${x:-$(id)} in esac",
        "case x in $(id)) ;; esac",
        "for f in $(id); do :; done",
        "[[ ${x:-$(id)} == y ]]",
        "(( a[$(id)] ))",
        "for (( i=$(id); i<1; i++ )); do :; done",
        "x[$(id)]=1",
        "cat <<EOF\nhello $(id) \"quoted\"\nEOF",
        "cat <<<${x:-$(id)}",
    ] {
        let found = programs(line);
        assert!(
            found
                .iter()
                .any(|(program, within)| program == "id" && *within == Some("command substitution")),
            "{line}: {found:?}"
        );
    }
}

#[test]
fn what_cannot_be_known_is_named() {
    assert_eq!(why("echo ${!x}"), [NotStatic::Indirection]);
    assert_eq!(why("echo ${x@P}"), [NotStatic::PromptExpansion]);
    assert_eq!(why("echo ${x:=y}"), [NotStatic::AssigningExpansion]);
    assert_eq!(why("echo $((x))"), [NotStatic::ArithmeticVariable]);
    assert_eq!(why("echo $(($x))"), [NotStatic::ArithmeticVariable]);
    assert_eq!(why("echo ${a[i]}"), [NotStatic::ArithmeticVariable]);
    assert_eq!(why("echo ${y:-<(id)}"), [NotStatic::Unreadable]);
    // Numbers alone are arithmetic, known but not static.
    assert_eq!(
        why("echo $((1 + 0x1f * 2#10))"),
        [NotStatic::ArithmeticExpansion]
    );
    assert_eq!(
        why("echo ${a[1]} ${a[@]}"),
        [NotStatic::ParameterExpansion; 2]
    );
    // The decisive reason wins over the first one found.
    assert_eq!(why("echo ${x:-$HOME}${!y}"), [NotStatic::Indirection]);
}

#[test]
fn arithmetic_is_numeric_only_without_names() {
    for text in [
        "1", " 1 + 2 ", "0x1F", "16#ff", "64#a_@", "(1<<3)|4", "-1", "2**3", "1?2:3",
    ] {
        assert!(arithmetic_is_numeric(text), "{text}");
    }
    for text in ["x", "a[1]", "1+x", "$x", "`id`", "_", "é", "1'2'"] {
        assert!(!arithmetic_is_numeric(text), "{text}");
    }
}

fn construct_words(line: &str) -> Vec<(ConstructKind, WordRole, Word)> {
    parse(line)
        .unwrap()
        .constructs
        .into_iter()
        .flat_map(|construct| {
            let kind = construct.kind;
            construct
                .words
                .into_iter()
                .map(move |role_word| (kind, role_word.role, role_word.word))
        })
        .collect()
}

#[test]
fn constructs_carry_their_words_and_roles() {
    let words = construct_words("for f in *.rs {a,b} ~ $x; do :; done");
    let reasons: Vec<Option<NotStatic>> = words
        .iter()
        .map(|(_, _, word)| match word {
            Word::Dynamic { why, .. } => Some(*why),
            Word::Static { .. } => None,
        })
        .collect();
    // A loop list's glob, braces and tilde only give the variable values.
    assert_eq!(
        reasons,
        [None, None, None, Some(NotStatic::ParameterExpansion)]
    );
    assert!(
        words
            .iter()
            .all(|(kind, role, _)| *kind == ConstructKind::LoopVariable
                && *role == WordRole::LoopList)
    );
    let words = construct_words("case x in *.rs|{a,b}) ;; esac");
    assert_eq!(
        words
            .iter()
            .map(|(_, role, word)| (*role, word.as_static()))
            .collect::<Vec<_>>(),
        [
            (WordRole::CaseWord, Some("x")),
            (WordRole::CasePattern, Some("*.rs")),
            (WordRole::CasePattern, Some("{a,b}")),
        ]
    );
    let words = construct_words("[[ -v a && x -eq y || s == t* ]]");
    let roles: Vec<WordRole> = words.iter().map(|(_, role, _)| *role).collect();
    assert_eq!(
        roles,
        [
            WordRole::TestVariable,
            WordRole::TestArithmetic,
            WordRole::TestArithmetic,
            WordRole::TestOperand,
            WordRole::TestOperand,
        ]
    );
}

#[test]
fn a_brace_name_before_a_redirection_is_its_variable() {
    let script = parse(": {HOME}>/dev/null {fd}<in {a[1]}>>log '{x}'>y {z} >w").unwrap();
    let command = &script.commands[0];
    let variables: Vec<Option<&str>> = command
        .redirects
        .iter()
        .map(|redirect| redirect.variable.as_deref())
        .collect();
    assert_eq!(
        variables,
        [Some("HOME"), Some("fd"), Some("a[1]"), None, None]
    );
    // Quoted, or apart from the operator, it is an argument.
    assert_eq!(command.argv().unwrap(), [":", "{x}", "{z}"]);
    let alone = parse("{PATH}>/dev/null").unwrap();
    assert!(alone.commands[0].words.is_empty());
    assert_eq!(
        alone.commands[0].redirects[0].variable.as_deref(),
        Some("PATH")
    );
    let nested = parse("echo $(: {HOME}>/dev/null)").unwrap();
    assert!(nested.commands.iter().any(|command| {
        command
            .redirects
            .iter()
            .any(|redirect| redirect.variable.as_deref() == Some("HOME"))
    }));
}

#[test]
fn each_command_knows_its_shell_and_whether_it_repeats() {
    let script = parse("a; (b); c | d; e & f; g $(h); while i; do j; done; k() { l; }").unwrap();
    let place: Vec<(String, usize, bool)> = script
        .commands
        .iter()
        .map(|command| {
            (
                command.words[0].as_static().unwrap().to_owned(),
                command.shell,
                command.repeats,
            )
        })
        .collect();
    let shell = |name: &str| {
        place
            .iter()
            .find(|(program, ..)| program == name)
            .unwrap()
            .1
    };
    let repeats = |name: &str| {
        place
            .iter()
            .find(|(program, ..)| program == name)
            .unwrap()
            .2
    };
    for own in ["a", "f", "g", "i", "j", "l"] {
        assert_eq!(shell(own), 0, "{own}: {place:?}");
    }
    for other in ["b", "c", "d", "e", "h"] {
        assert_ne!(shell(other), 0, "{other}: {place:?}");
        assert_eq!(script.shells[shell(other)], 0, "{other}: {place:?}");
    }
    assert_ne!(shell("c"), shell("d"));
    assert!(repeats("i") && repeats("j") && repeats("l"));
    assert!(!repeats("a") && !repeats("h"));
}

#[test]
fn a_compounds_input_is_read_by_every_command_in_it() {
    let script = parse("{ wc -l; cat; } < in.txt > out.txt").unwrap();
    assert_eq!(script.commands[0].redirects.len(), 2, "{script:?}");
    for command in &script.commands[1..] {
        assert_eq!(command.enclosing_reads.len(), 1);
        assert_eq!(
            command.enclosing_reads[0].target.as_static(),
            Some("in.txt")
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parse_never_panics(line in "\\PC{0,200}") {
        let _ = parse(&line);
    }

    #[test]
    fn shell_syntax_soup_never_panics(line in "[a-z$`'\"(){};&|<>!*?\\[\\]~=\\\\ \n#-]{0,120}") {
        let _ = parse(&line);
    }

    #[test]
    fn quoted_words_read_back_as_themselves(words in prop::collection::vec("[^\u{0}]{0,12}", 1..6)) {
        let mut all = vec!["cmd".to_owned()];
        all.extend(words);
        let line = quote(&all);
        let script = parse(&line).unwrap();
        prop_assert_eq!(script.commands.len(), 1);
        let argv: Vec<String> = script.commands[0].argv().unwrap().into_iter().map(str::to_owned).collect();
        prop_assert_eq!(argv, all);
    }
}

/// `"$(cat <<'EOF' … EOF)"` is static: its text is the here-document's
/// body, as bash makes it (held against bash itself), and the `cat` is
/// still a command of the line.
#[test]
fn a_quoted_here_document_printed_by_cat_is_static_text() {
    let bodies = [
        "one line",
        "Fix it\n\nBody with $HOME, `id`, $(id) and \\n kept",
        "ends with blank lines\n\n\n",
        "EOF not alone\n EOF\nEOFX",
        "\ttabbed\n\t\ttwice",
    ];
    for body in bodies {
        for (operator, delimiter, tabs) in [("<<", "'EOF'", false), ("<<-", "\"EOF\"", true)] {
            let written = if tabs {
                body.lines()
                    .map(|line| format!("\t{line}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                body.to_owned()
            };
            let end = if tabs { "\tEOF" } else { "EOF" };
            let line = format!("printf %s \"$(cat {operator}{delimiter}\n{written}\n{end}\n)\"");
            let script = parse(&line).unwrap();
            let printf = script
                .commands
                .iter()
                .find(|command| command.words.first().and_then(Word::as_static) == Some("printf"))
                .unwrap();
            let ours = printf.words[2].as_static().map(str::to_owned);
            let bash = std::process::Command::new("bash")
                .args(["-c", &line])
                .output()
                .unwrap();
            assert_eq!(
                ours.as_deref(),
                Some(String::from_utf8_lossy(&bash.stdout).as_ref()),
                "{line}"
            );
            assert!(
                script.commands.iter().any(|command| command
                    .words
                    .first()
                    .and_then(Word::as_static)
                    == Some("cat")),
                "{line}"
            );
        }
    }
    // Anything more than `cat` and the document stays dynamic.
    for line in [
        "printf %s \"$(cat <<EOF\nx $HOME\nEOF\n)\"",
        "printf %s \"$(cat /etc/passwd <<'EOF'\nx\nEOF\n)\"",
        "printf %s \"$(cat <<'EOF'\nx\nEOF\nid\n)\"",
        "printf %s $(cat <<'EOF'\nx\nEOF\n)",
        "printf %s \"$(tac <<'EOF'\nx\nEOF\n)\"",
    ] {
        let script = parse(line).unwrap();
        let printf = script
            .commands
            .iter()
            .find(|command| command.words.first().and_then(Word::as_static) == Some("printf"))
            .unwrap();
        assert!(printf.words[2].as_static().is_none(), "{line}");
    }
}

#[test]
fn a_pipeline_s_later_stages_read_a_pipe() {
    let piped = |line: &str| -> Vec<bool> {
        parse(line)
            .unwrap()
            .commands
            .iter()
            .map(|command| command.reads_pipe)
            .collect()
    };
    assert_eq!(piped("a | b | c"), [false, true, true]);
    assert_eq!(piped("a | { b; c; }"), [false, true, true]);
    assert_eq!(piped("a | b && c; d"), [false, true, false, false]);
    assert_eq!(piped("{ a | b; } | c"), [false, true, true]);
    assert_eq!(piped("x | (y | z)"), [false, true, true]);
    assert_eq!(piped("a; b"), [false, false]);
}
