//! Stable diagnostic codes for the registration lint. Codes never change
//! meaning; messages may be reworded. The table in
//! docs/reference/schema-codes.md is checked against [`TABLE`] by a test. Skill codes use E0xx/W0xx; contract codes E1xx/W1xx.

use crate::report::Severity;

pub const FILE_UNREADABLE: &str = "E101";
pub const SYNTAX: &str = "E102";
pub const SHAPE: &str = "E103";
pub const UNKNOWN_FIELD: &str = "E104";
pub const NAME_INVALID: &str = "E105";
pub const PATTERN_INVALID: &str = "E106";
pub const PATTERN_UNANCHORED: &str = "E107";
/// Retired: `pattern` and `pattern_type` now combine (a value must pass
/// both). Kept so that the code never takes another meaning.
pub const PATTERN_CONFLICT: &str = "E108";
pub const PATTERN_MISPLACED: &str = "E109";
pub const ENUM_INVALID: &str = "E110";
pub const DEFAULT_INVALID: &str = "E111";
pub const PARAMETER_NAME_INVALID: &str = "E112";
pub const INPUTS_CONFLICT: &str = "E113";
pub const USER_ARG_UNKNOWN: &str = "E114";
pub const SHELL_COMMAND_STRING: &str = "E115";
pub const EXIT_CODES_INCOMPLETE: &str = "E116";
pub const EXIT_CODE_INVALID: &str = "E117";
pub const DUPLICATE_NAME: &str = "E118";
pub const SCHEMA_UNKNOWN_KEYWORD: &str = "E119";
pub const SCHEMA_INVALID: &str = "E120";
pub const AIGENT_KEYWORD_IGNORED: &str = "E121";
pub const PARAMETER_UNUSED: &str = "E122";
pub const ARGV_SLOT_INVALID: &str = "E123";
pub const ENV_PARAM_UNKNOWN: &str = "E124";
pub const ENV_RUNS_CODE: &str = "E125";
pub const DANGER_LEVEL_MISSING: &str = "E126";
pub const AGENT_VALUE_IS_CODE: &str = "E127";
pub const TEXT_REACHES_CODE: &str = "E128";
// E140 and up, W140 and up: the `sandbox` section (issue #22).
pub const SANDBOX_PATH_INVALID: &str = "E140";
pub const SANDBOX_PARAM_INVALID: &str = "E141";

pub const IDENTIFIER_UNPATTERNED: &str = "W101";
pub const REQUIRED_WITH_DEFAULT: &str = "W102";
pub const RAW_SHELL_IN_SCRIPT: &str = "W103";
pub const SENSITIVE_ON_ARGV: &str = "W104";
pub const AGENT_CHOOSES_PROGRAM: &str = "W105";
pub const EXIT_CODE_NAMES_AIGENT: &str = "W106";
pub const DESTRUCTIVE_UNSANDBOXED: &str = "W140";
pub const WRITES_UNDECLARED: &str = "W141";
pub const SAFE_COMMAND_WRITES: &str = "W142";

/// Every code with its severity and what it catches.
pub const TABLE: &[(&str, Severity, &str)] = &[
    (
        FILE_UNREADABLE,
        Severity::Error,
        "the declaration file cannot be read, is over 1 MiB, or is not UTF-8",
    ),
    (
        SYNTAX,
        Severity::Error,
        "invalid JSON or YAML (including a duplicate key or a YAML budget breach)",
    ),
    (
        SHAPE,
        Severity::Error,
        "a field is missing or has the wrong type or value",
    ),
    (
        UNKNOWN_FIELD,
        Severity::Error,
        "a field aigent does not know (a typo such as `patern`)",
    ),
    (
        NAME_INVALID,
        Severity::Error,
        "`name` is not letters, digits, `-` and `_`, or differs from the file name",
    ),
    (
        PATTERN_INVALID,
        Severity::Error,
        "`pattern` is not a valid regular expression",
    ),
    (
        PATTERN_UNANCHORED,
        Severity::Error,
        "`pattern` is not anchored at both ends for every match (`^...$`; no top-level `\\|` that anchors only some alternatives, no multi-line flag)",
    ),
    (
        PATTERN_CONFLICT,
        Severity::Error,
        "retired, never reported: `pattern` and `pattern_type` now combine, and a value must pass both",
    ),
    (
        PATTERN_MISPLACED,
        Severity::Error,
        "`pattern` or `pattern_type` on a type that has no string to match, `regex_dialect` without `pattern_type: regex`, or `relative_only`/`under`/`must_exist` without `pattern_type: filepath` (or an `under` root `{param}` that is not another path parameter)",
    ),
    (
        ENUM_INVALID,
        Severity::Error,
        "an `enum` without `enum_values`, or `enum_values` on another type",
    ),
    (
        DEFAULT_INVALID,
        Severity::Error,
        "`default` does not pass the parameter's own checks",
    ),
    (
        PARAMETER_NAME_INVALID,
        Severity::Error,
        "a parameter name that cannot be a `--flag` or is reserved (`json`, `__proto__`, `constructor`, `prototype`)",
    ),
    (
        INPUTS_CONFLICT,
        Severity::Error,
        "both `parameters` and `input_schema`, or neither",
    ),
    (
        USER_ARG_UNKNOWN,
        Severity::Error,
        "a `user_controlled_args` entry, an `argv` slot or an `under` root `{param}` names no parameter",
    ),
    (
        SHELL_COMMAND_STRING,
        Severity::Error,
        "the subprocess hands a command string to a shell or an interpreter (`sh -c`, `env -S 'sh -c'`, `python -c`, `su -c`, `sudo -s`, `watch`, `ssh`, an `awk` program calling `system`), runs hardcoded code another way (a `sed` script with `e`, `sqlite3 .shell`, `vim +!CMD`, `git -c alias.x=!...`/`core.sshCommand`, `env LD_PRELOAD=`/`BASH_ENV=`), is such a program under another name (a symlink or the same file), or lets an agent's `-`-leading value reach one that still reads options",
    ),
    (
        EXIT_CODES_INCOMPLETE,
        Severity::Error,
        "an `exit_codes` map leaves out a code that `success_exit_codes` counts as success (0 by default)",
    ),
    (
        EXIT_CODE_INVALID,
        Severity::Error,
        "an exit code (a key of `exit_codes`, an item of `success_exit_codes`) that is not an integer from 0 to 255",
    ),
    (
        DUPLICATE_NAME,
        Severity::Error,
        "two files declare the same command name",
    ),
    (
        SCHEMA_UNKNOWN_KEYWORD,
        Severity::Error,
        "`input_schema` uses a keyword that is not JSON Schema 2020-12 (or an allowed `x-aigent-*`)",
    ),
    (
        SCHEMA_INVALID,
        Severity::Error,
        "`input_schema` is not a valid object schema (meta-schema, remote `$ref`, root type)",
    ),
    (
        AIGENT_KEYWORD_IGNORED,
        Severity::Error,
        "an `x-aigent-*` keyword where the guard never reads it (not a top-level property, its `items`, or a schema they reach through `$ref`/`allOf`), or two pattern types for one property",
    ),
    (
        PARAMETER_UNUSED,
        Severity::Error,
        "a declared parameter reaches no destination of the subprocess (no `argv` slot, no `user_controlled_args` entry), so its value would be validated and then dropped",
    ),
    (
        ARGV_SLOT_INVALID,
        Severity::Error,
        "an `argv` slot whose parameter type cannot take its form: a boolean joined to its flag (`--flag=true`), or an object",
    ),
    (
        ENV_PARAM_UNKNOWN,
        Severity::Error,
        "a `subprocess.env` value names a parameter that is not declared",
    ),
    (
        ENV_RUNS_CODE,
        Severity::Error,
        "`subprocess.env` sets, from a parameter, a variable that programs read as code, as a program to run, as options, as a search path or as where their configuration lives (`LD_PRELOAD`, `BASH_ENV`, `TAR_OPTIONS`, `GIT_DIR`, `HOME`, `XDG_CONFIG_HOME`, `KUBECONFIG`, `PAGER`, ...: [the table](code-variables.md)), so an agent's value would run",
    ),
    (
        DANGER_LEVEL_MISSING,
        Severity::Error,
        "`danger_level` (`safe`, `mutating` or `destructive`) is missing; the message suggests one from the command's name, program and fixed arguments",
    ),
    (
        AGENT_VALUE_IS_CODE,
        Severity::Error,
        "an agent's value reaches a place the program reads as code: the `sed` script, `sqlite3` SQL or `-cmd`, a `vim` file argument not after `--` (`+!CMD`), a `git -c` setting, `psql -c` when the value may start with `\\` (a meta-command such as `\\! CMD`), `psql -o` when it may start with `|`",
    ),
    (
        TEXT_REACHES_CODE,
        Severity::Error,
        "a `free_text` or `regex` value (shell metacharacters allowed) reaches a place the program reads as code or as the program to run: program position (`env -- {text}`), or a word of `make` (`X=$(shell CMD)`); the places E115 and E127 name are refused for every kind of value",
    ),
    (
        SANDBOX_PATH_INVALID,
        Severity::Error,
        "a `sandbox.read` or `sandbox.write` entry that is not a grant: a relative path, a `..` segment, a variable other than `$CWD`, `$HOME` or `$TMP` at the start, or `{param}` not standing alone",
    ),
    (
        SANDBOX_PARAM_INVALID,
        Severity::Error,
        "a sandbox grant's `{param}` names no parameter, or one that is not a path (`pattern_type: filepath`)",
    ),
    (
        IDENTIFIER_UNPATTERNED,
        Severity::Warning,
        "a string parameter named like an identifier (`id`, `*-id`, `*_id`, `slug`, `*-name`, `key`, `*-key`) has no pattern, pattern_type or enum",
    ),
    (
        REQUIRED_WITH_DEFAULT,
        Severity::Warning,
        "a required parameter has a `default`, which can never apply",
    ),
    (
        RAW_SHELL_IN_SCRIPT,
        Severity::Warning,
        "a script the command runs (named by `binary`, `hardcoded_args` or a `default`, inside the registry directory) hands a command string to a shell: `os.system(`, `os.popen(`, `shell=True`, `child_process.exec(`/`execSync(`, `sh -c` with an expanded variable, `eval`, backticks",
    ),
    (
        SENSITIVE_ON_ARGV,
        Severity::Warning,
        "a `sensitive` parameter goes on the argv, where any local user can read it in `/proc/PID/cmdline` or `ps`; deliver it through `subprocess.env` instead",
    ),
    (
        AGENT_CHOOSES_PROGRAM,
        Severity::Warning,
        "an agent's value is in program position (`env -- {prog}`), so the agent chooses what runs, in a command not marked `danger_level: destructive`; the guard refuses a call whose words hand over a command string, but cannot know what an arbitrary program does",
    ),
    (
        EXIT_CODE_NAMES_AIGENT,
        Severity::Warning,
        "an `exit_codes` map names the child's 2 `ARG_ERROR`, aigent's own code; the map describes the child's statuses, and aigent's rejection (exit 2) never comes from the child",
    ),
    (
        DESTRUCTIVE_UNSANDBOXED,
        Severity::Warning,
        "a `destructive` command has no `sandbox` section, so it runs with the defaults its danger level gives",
    ),
    (
        WRITES_UNDECLARED,
        Severity::Warning,
        "a `mutating` or `destructive` command without `sandbox.write` takes a path parameter that is not confined (`under`, `relative_only`), so by default it may write wherever that path points, outside the project too",
    ),
    (
        SAFE_COMMAND_WRITES,
        Severity::Warning,
        "a `safe` command's `sandbox.write` grants more than `/dev/null` and `$TMP`",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique() {
        let mut codes: Vec<&str> = TABLE.iter().map(|(code, _, _)| *code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), TABLE.len());
    }

    #[test]
    fn the_readme_table_matches() {
        let readme = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/docs/reference/schema-codes.md"
        ))
        .unwrap();
        for (code, severity, catches) in TABLE {
            let row = format!("| {code} | {severity} | {catches} |");
            assert!(
                readme.contains(&row),
                "docs/reference/schema-codes.md lacks the row:\n{row}"
            );
        }
    }
}
