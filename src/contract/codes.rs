//! Stable diagnostic codes for the registration lint. Codes never change
//! meaning; messages may be reworded. The table in
//! docs/reference/schema-codes.md is checked against [`Code`] by a test. Skill codes use
//! E0xx/W0xx; contract codes E1xx/W1xx.

crate::report::diagnostic_codes! {
    /// Every code, with its severity and what it catches: a finding is
    /// built from its code ([`Diagnostic::new`](crate::report::Diagnostic::new)),
    /// which gives it its severity.
    pub enum Code {
        FileUnreadable = "E101", Error, "the declaration file cannot be read, is over 1 MiB, or is not UTF-8";
        Syntax = "E102", Error, "invalid JSON or YAML (including a duplicate key or a YAML budget breach)";
        Shape = "E103", Error, "a field is missing or has the wrong type or value";
        UnknownField = "E104", Error, "a field aigent does not know (a typo such as `patern`)";
        NameInvalid = "E105", Error, "`name` is not letters, digits, `-` and `_`, or differs from the file name";
        PatternInvalid = "E106", Error, "`pattern` is not a valid regular expression";
        PatternUnanchored = "E107", Error, "`pattern` is not anchored at both ends for every match (`^...$`; no top-level `\\|` that anchors only some alternatives, no multi-line flag)";
        /// Retired: `pattern` and `pattern_type` now combine (a value must pass
        /// both). Kept so that the code never takes another meaning.
        PatternConflict = "E108", Error, "retired, never reported: `pattern` and `pattern_type` now combine, and a value must pass both";
        PatternMisplaced = "E109", Error, "`pattern` or `pattern_type` on a type that has no string to match, a bound (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`) on a type that is not a number, `regex_dialect` without `pattern_type: regex`, or `relative_only`/`under`/`must_exist` without `pattern_type: filepath` (or an `under` root `{param}` that is not another path parameter)";
        EnumInvalid = "E110", Error, "an `enum` without `enum_values`, or `enum_values` on another type";
        DefaultInvalid = "E111", Error, "`default` does not pass the parameter's own checks";
        ParameterNameInvalid = "E112", Error, "a parameter name that cannot be a `--flag` or is reserved (`json`, `__proto__`, `constructor`, `prototype`)";
        InputsConflict = "E113", Error, "both `parameters` and `input_schema`, or neither";
        UserArgUnknown = "E114", Error, "a `user_controlled_args` entry, an `argv` slot or an `under` root `{param}` names no parameter";
        ShellCommandString = "E115", Error, "the subprocess hands a command string to a shell or an interpreter (`sh -c`, `env -S 'sh -c'`, `python -c`, `su -c`, `sudo -s`, `watch`, `ssh`, an `awk` program calling `system`), runs hardcoded code another way (a `sed` script with `e`, `sqlite3 .shell`, `vim +!CMD`, `less +!CMD`, `git -c alias.x=!...`/`core.sshCommand`, `git config core.hooksPath DIR`, `git --exec-path=`, `man --pager=`, `npm --script-shell=`, `ssh -o ProxyCommand=`, `env LD_PRELOAD=`/`BASH_ENV=`), is such a program under another name (a symlink or the same file), or lets an agent's `-`-leading value reach one that still reads options";
        ExitCodesIncomplete = "E116", Error, "an `exit_codes` map leaves out a code that `success_exit_codes` counts as success (0 by default)";
        ExitCodeInvalid = "E117", Error, "an exit code (a key of `exit_codes`, an item of `success_exit_codes`) that is not an integer from 0 to 255";
        DuplicateName = "E118", Error, "two files declare the same command name";
        SchemaUnknownKeyword = "E119", Error, "`input_schema` uses a keyword that is not JSON Schema 2020-12 (or an allowed `x-aigent-*`)";
        SchemaInvalid = "E120", Error, "`input_schema` is not a valid object schema (meta-schema, remote `$ref`, root type)";
        AigentKeywordIgnored = "E121", Error, "an `x-aigent-*` keyword where the guard never reads it (not a top-level property, its `items`, or a schema they reach through `$ref`/`allOf`), or two pattern types for one property";
        ParameterUnused = "E122", Error, "a declared parameter reaches no destination of the subprocess (no `argv` slot, no `user_controlled_args` entry), so its value would be validated and then dropped";
        ArgvSlotInvalid = "E123", Error, "an `argv` slot whose parameter type cannot take its form: a boolean joined to its flag (`--flag=true`), or an object";
        EnvParamUnknown = "E124", Error, "a `subprocess.env` value names a parameter that is not declared";
        EnvRunsCode = "E125", Error, "`subprocess.env` sets, from a parameter, a variable that programs read as code, as a program to run, as options, as a search path or as where their configuration lives (`LD_PRELOAD`, `BASH_ENV`, `TAR_OPTIONS`, `GIT_DIR`, `HOME`, `XDG_CONFIG_HOME`, `KUBECONFIG`, `PAGER`, ...: [the table](code-variables.md)), so an agent's value would run";
        DangerLevelMissing = "E126", Error, "`danger_level` (`safe`, `mutating` or `destructive`) is missing; the message suggests one from the command's name, program and fixed arguments";
        AgentValueIsCode = "E127", Error, "an agent's value reaches a place the program reads as code: the `sed` script, `sqlite3` SQL or `-cmd`, the `awk` program, a `vim` or `less` file argument not after `--` (`+!CMD`), a `git -c` setting, the key `git config` sets (unless every value it may take is listed and runs nothing), an option that runs a program or moves where the program reads its config (`git --git-dir`/`-C`, `curl --config`, `npm --userconfig`, `ssh -F`/`-o`, `kubectl --kubeconfig`, `make -f`, `awk -f`, ...), `psql -c` when the value may start with `\\` (a meta-command such as `\\! CMD`), `psql -o` when it may start with `|`";
        TextReachesCode = "E128", Error, "a `free_text` or `regex` value (shell metacharacters allowed) reaches a place the program reads as code or as the program to run: program position (`env -- {text}`), or a word of `make` (`X=$(shell CMD)`); the places E115 and E127 name are refused for every kind of value";
        // E140 and up, W140 and up: the `sandbox` section (issue #22).
        SandboxPathInvalid = "E140", Error, "a `sandbox.read` or `sandbox.write` entry that is not a grant: a relative path, a `..` segment, a variable other than `$CWD`, `$PROJECT`, `$HOME` or `$TMP` at the start, or `{param}` not standing alone";
        SandboxParamInvalid = "E141", Error, "a sandbox grant's `{param}` names no parameter, or one that is not a path (`pattern_type: filepath`)";
        IdentifierUnpatterned = "W101", Warning, "a string parameter named like an identifier (`id`, `*-id`, `*_id`, `slug`, `*-name`, `key`, `*-key`) has no pattern, pattern_type or enum";
        RequiredWithDefault = "W102", Warning, "a required parameter has a `default`, which can never apply";
        RawShellInScript = "W103", Warning, "a script the command runs (named by `binary`, `hardcoded_args` or a `default`, inside the registry directory) hands a command string to a shell: `os.system(`, `os.popen(`, `shell=True`, `child_process.exec(`/`execSync(`, `sh -c` with an expanded variable, `eval`, backticks";
        SensitiveOnArgv = "W104", Warning, "a `sensitive` parameter goes on the argv, where any local user can read it in `/proc/PID/cmdline` or `ps`; deliver it through `subprocess.env` instead";
        AgentChoosesProgram = "W105", Warning, "an agent's value is in program position (`env -- {prog}`), so the agent chooses what runs, in a command not marked `danger_level: destructive`; the guard refuses a call whose words hand over a command string, but cannot know what an arbitrary program does";
        ExitCodeNamesAigent = "W106", Warning, "an `exit_codes` map names the child's 2 `ARG_ERROR`, aigent's own code; the map describes the child's statuses, and aigent's rejection (exit 2) never comes from the child";
        SecretNotSensitive = "W107", Warning, "a parameter named like a secret (`token`, `password`, `api_key`, `client_secret`, `auth`, ...) is not `sensitive: true`, so its value is shown in the envelope, the dry run and the audit log, and may be passed on aigent's command line";
        DestructiveUnsandboxed = "W140", Warning, "a `destructive` command has no `sandbox` section, so it runs with the defaults its danger level gives";
        WritesUndeclared = "W141", Warning, "a `mutating` or `destructive` command without `sandbox.write` takes a path parameter that is not confined (`under`, `relative_only`), so by default it may write wherever that path points, outside the project too";
        SafeCommandWrites = "W142", Warning, "a `safe` command's `sandbox.write` grants more than `/dev/null` and `$TMP`";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique() {
        let mut codes: Vec<&str> = Code::TABLE.iter().map(|(code, _, _)| *code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Code::TABLE.len());
    }

    #[test]
    fn the_readme_table_matches() {
        let readme = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/docs/reference/schema-codes.md"
        ))
        .unwrap();
        for (code, severity, catches) in Code::TABLE {
            let row = format!("| {code} | {severity} | {catches} |");
            assert!(
                readme.contains(&row),
                "docs/reference/schema-codes.md lacks the row:\n{row}"
            );
        }
    }
}
