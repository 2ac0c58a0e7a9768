//! Environment variables that make a program run or load code: the one
//! table that E125 (an agent's value in `subprocess.env`), E115 (a
//! hardcoded `env`/`sudo` assignment or `subprocess.env` literal) and the
//! hook read. docs/reference/code-variables.md is generated from
//! [`CODE_VARIABLES`].
//!
//! A variable is listed when a common program reads its value as code, as
//! a program or command line to run, as options that can do either, as a
//! file or library to load, as a place to find code, or as the place its
//! configuration (which can run commands) is read from. Names are compared
//! case-insensitively: Windows folds case, and npm reads `npm_config_*`.

/// How a name is matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameMatch {
    Exact(&'static str),
    Prefix(&'static str),
    Suffix(&'static str),
}

impl NameMatch {
    fn matches(self, upper: &str) -> bool {
        match self {
            Self::Exact(name) => upper == name,
            Self::Prefix(prefix) => upper.starts_with(prefix),
            Self::Suffix(suffix) => upper.ends_with(suffix) && upper.len() > suffix.len(),
        }
    }

    /// The name as the docs show it: `LD_*`, `*_OPTIONS`.
    pub fn display(self) -> String {
        match self {
            Self::Exact(name) => name.to_owned(),
            Self::Prefix(prefix) => format!("{prefix}*"),
            Self::Suffix(suffix) => format!("*{suffix}"),
        }
    }
}

/// What a program does with the variable's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariableKind {
    /// A command line or program that is run.
    Runs,
    /// Options, some of which run or load code.
    Options,
    /// A file, script or library that is loaded as code.
    Loads,
    /// A directory searched for programs, modules or libraries.
    SearchPath,
    /// Where configuration that can run commands is read from.
    Config,
    /// Changes how a shell reads every later command.
    Shell,
}

impl VariableKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Runs => "runs a command",
            Self::Options => "options that run code",
            Self::Loads => "loads code",
            Self::SearchPath => "search path",
            Self::Config => "config that runs code",
            Self::Shell => "shell behaviour",
        }
    }
}

/// One row of [`CODE_VARIABLES`].
#[derive(Debug, Clone, Copy)]
pub struct CodeVariable {
    pub name: NameMatch,
    pub kind: VariableKind,
    /// Also refused as a hardcoded value (E115): the program loads or runs
    /// code from it before doing what it was asked, whatever the value,
    /// so no literal is a safe choice. The others (`PAGER=cat`,
    /// `PATH=/usr/bin`) are an author's reasonable choice as a literal.
    pub even_literal: bool,
    /// Who reads it, and how it runs code.
    pub example: &'static str,
}

const fn row(
    name: NameMatch,
    kind: VariableKind,
    even_literal: bool,
    example: &'static str,
) -> CodeVariable {
    CodeVariable {
        name,
        kind,
        even_literal,
        example,
    }
}

use NameMatch::{Exact, Prefix, Suffix};
use VariableKind::{Config, Loads, Options, Runs, SearchPath, Shell};

/// Every variable programs read as code, in the docs' order.
pub const CODE_VARIABLES: &[CodeVariable] = &[
    // The dynamic loader and libc.
    row(
        Prefix("LD_"),
        Loads,
        true,
        "the dynamic loader: `LD_PRELOAD`, `LD_LIBRARY_PATH`, `LD_AUDIT`",
    ),
    row(
        Prefix("DYLD_"),
        Loads,
        true,
        "macOS's dynamic loader: `DYLD_INSERT_LIBRARIES`",
    ),
    row(
        Exact("GCONV_PATH"),
        Loads,
        true,
        "glibc's `iconv` loads conversion modules from it",
    ),
    row(
        Exact("LOCPATH"),
        SearchPath,
        false,
        "glibc reads locale data from it",
    ),
    // Shells.
    row(
        Exact("BASH_ENV"),
        Loads,
        true,
        "bash runs the file before a script",
    ),
    row(
        Exact("ENV"),
        Loads,
        true,
        "sh and bash in POSIX mode run the file",
    ),
    row(
        Prefix("BASH_FUNC_"),
        Loads,
        true,
        "bash imports exported functions",
    ),
    row(
        Exact("SHELLOPTS"),
        Shell,
        true,
        "bash turns on the options (`xtrace`, ...)",
    ),
    row(
        Exact("BASHOPTS"),
        Shell,
        true,
        "bash turns on the `shopt` options",
    ),
    row(
        Exact("PS4"),
        Runs,
        true,
        "expanded, command substitutions included, before each traced command",
    ),
    row(
        Exact("PROMPT_COMMAND"),
        Runs,
        true,
        "bash runs it before each prompt",
    ),
    row(Exact("PROMPT"), Runs, false, "zsh and cmd expand it"),
    row(
        Exact("IFS"),
        Shell,
        false,
        "splits every unquoted expansion",
    ),
    row(
        Exact("ZDOTDIR"),
        Config,
        false,
        "zsh runs its startup files from there",
    ),
    row(
        Exact("HISTFILE"),
        Config,
        false,
        "a shell writes its history there",
    ),
    row(
        Exact("INPUTRC"),
        Config,
        false,
        "readline's key bindings, which can run commands in some shells",
    ),
    row(
        Exact("CDPATH"),
        SearchPath,
        false,
        "`cd` in a script goes elsewhere",
    ),
    row(
        Exact("PATH"),
        SearchPath,
        false,
        "where every program name is looked up",
    ),
    row(
        Exact("SHELL"),
        Runs,
        false,
        "the shell many programs start (`make`, `vim`, `script`)",
    ),
    // Home and configuration roots.
    row(
        Exact("HOME"),
        Config,
        false,
        "every dotfile: `.gitconfig`, `.bashrc`, `.npmrc`, `.ssh/config`, ...",
    ),
    row(
        Prefix("XDG_"),
        Config,
        false,
        "`XDG_CONFIG_HOME` and the other XDG roots: git's, pip's, and most tools' config",
    ),
    row(
        Exact("KUBECONFIG"),
        Config,
        false,
        "kubectl runs the `exec` credential plugins it names",
    ),
    row(
        Exact("DOCKER_CONFIG"),
        Config,
        false,
        "docker runs the credential helpers it names",
    ),
    row(
        Exact("AWS_CONFIG_FILE"),
        Config,
        false,
        "the AWS CLI runs `credential_process`",
    ),
    row(
        Exact("AWS_SHARED_CREDENTIALS_FILE"),
        Config,
        false,
        "the AWS CLI reads `credential_process` there too",
    ),
    row(
        Exact("CLOUDSDK_CONFIG"),
        Config,
        false,
        "gcloud's configuration directory",
    ),
    row(
        Exact("GNUPGHOME"),
        Config,
        false,
        "gpg's configuration, which names programs to run",
    ),
    row(
        Exact("CURL_HOME"),
        Config,
        false,
        "curl reads `.curlrc` options from there",
    ),
    row(Exact("WGETRC"), Config, false, "wget's options"),
    row(
        Exact("PSQLRC"),
        Config,
        false,
        "psql runs the meta-commands in it, `\\!` included",
    ),
    row(
        Exact("MYSQL_HOME"),
        Config,
        false,
        "mysql reads options from there",
    ),
    row(
        Exact("PIP_CONFIG_FILE"),
        Config,
        false,
        "pip's configuration: indexes and build options",
    ),
    row(
        Prefix("NPM_CONFIG_"),
        Config,
        false,
        "npm's settings: `npm_config_script_shell`, `npm_config_node_options`",
    ),
    row(
        Prefix("CARGO_"),
        Config,
        false,
        "cargo's settings: `CARGO_TARGET_*_RUNNER`, `CARGO_BUILD_RUSTC_WRAPPER`",
    ),
    row(
        Exact("HGRCPATH"),
        Config,
        false,
        "Mercurial's configuration: hooks and aliases",
    ),
    // git.
    row(
        Exact("GIT_CONFIG"),
        Config,
        false,
        "git's configuration file, whose aliases and hooks run commands",
    ),
    row(
        Prefix("GIT_CONFIG_"),
        Config,
        true,
        "git's configuration (`GIT_CONFIG_GLOBAL`, `GIT_CONFIG_KEY_0`, `GIT_CONFIG_PARAMETERS`): a key can name a command to run",
    ),
    row(
        Exact("GIT_DIR"),
        Config,
        false,
        "points git at another repository, with its config and hooks",
    ),
    row(
        Exact("GIT_WORK_TREE"),
        Config,
        false,
        "points git at another work tree",
    ),
    row(
        Exact("GIT_COMMON_DIR"),
        Config,
        false,
        "points git at another repository's config and hooks",
    ),
    row(
        Exact("GIT_TEMPLATE_DIR"),
        Config,
        false,
        "`git init` copies the hooks it holds",
    ),
    row(
        Exact("GIT_EXEC_PATH"),
        SearchPath,
        false,
        "where git finds its own subcommands",
    ),
    row(
        Exact("GIT_SSH"),
        Runs,
        false,
        "the program git runs for ssh",
    ),
    row(
        Exact("GIT_SSH_COMMAND"),
        Runs,
        true,
        "the command line git runs for ssh",
    ),
    row(
        Exact("GIT_PROXY_COMMAND"),
        Runs,
        true,
        "the command git runs to connect",
    ),
    row(
        Exact("GIT_EXTERNAL_DIFF"),
        Runs,
        true,
        "the program git runs to diff",
    ),
    row(
        Exact("GIT_PAGER"),
        Runs,
        false,
        "the command git pipes output into",
    ),
    row(
        Exact("GIT_EDITOR"),
        Runs,
        false,
        "the command git runs to edit",
    ),
    row(
        Exact("GIT_SEQUENCE_EDITOR"),
        Runs,
        false,
        "the command `git rebase -i` runs",
    ),
    row(
        Exact("GIT_ASKPASS"),
        Runs,
        false,
        "the program git runs for a password",
    ),
    // Programs other tools run.
    row(
        Exact("PAGER"),
        Runs,
        false,
        "the command `man`, `git`, `psql` pipe output into",
    ),
    row(
        Exact("MANPAGER"),
        Runs,
        false,
        "the command `man` pipes into",
    ),
    row(
        Exact("EDITOR"),
        Runs,
        false,
        "the command many tools run to edit",
    ),
    row(
        Exact("VISUAL"),
        Runs,
        false,
        "the command many tools run to edit",
    ),
    row(
        Exact("BROWSER"),
        Runs,
        false,
        "the command tools run to open a URL",
    ),
    row(Exact("LESSOPEN"), Runs, false, "less runs it on every file"),
    row(
        Exact("LESSCLOSE"),
        Runs,
        false,
        "less runs it after every file",
    ),
    row(
        Exact("SSH_ASKPASS"),
        Runs,
        false,
        "ssh runs it for a passphrase",
    ),
    row(
        Exact("SUDO_ASKPASS"),
        Runs,
        false,
        "sudo runs it for a password",
    ),
    row(Exact("CVS_RSH"), Runs, false, "cvs runs it to connect"),
    row(Exact("RSYNC_RSH"), Runs, false, "rsync runs it to connect"),
    row(
        Exact("RSYNC_CONNECT_PROG"),
        Runs,
        false,
        "rsync runs it as a proxy command",
    ),
    row(
        Exact("CC"),
        Runs,
        false,
        "the compiler `make`, `cargo` and `pip` builds run",
    ),
    row(Exact("CXX"), Runs, false, "the C++ compiler builds run"),
    row(Exact("LD"), Runs, false, "the linker builds run"),
    row(Exact("AR"), Runs, false, "the archiver builds run"),
    row(Exact("RUSTC"), Runs, false, "the compiler cargo runs"),
    row(
        Exact("RUSTC_WRAPPER"),
        Runs,
        false,
        "the program cargo runs around rustc",
    ),
    row(
        Exact("RUSTDOC"),
        Runs,
        false,
        "the program cargo runs for docs",
    ),
    row(
        Exact("JAVA_HOME"),
        SearchPath,
        false,
        "tools run `$JAVA_HOME/bin/java`",
    ),
    row(
        Exact("GOROOT"),
        SearchPath,
        false,
        "go runs its toolchain from there",
    ),
    row(
        Exact("GOTOOLCHAIN"),
        Runs,
        false,
        "go downloads and runs the toolchain it names",
    ),
    row(
        Exact("MAKEFILES"),
        Loads,
        false,
        "make reads these makefiles first",
    ),
    // Options read from the environment.
    row(
        Suffix("_OPTIONS"),
        Options,
        false,
        "`TAR_OPTIONS` (`--to-command`), `NODE_OPTIONS` (`--require`), `JAVA_TOOL_OPTIONS` (`-javaagent`), ...",
    ),
    row(
        Suffix("_OPTS"),
        Options,
        false,
        "`JAVA_OPTS`, `MAVEN_OPTS`, `GRADLE_OPTS`: JVM options load agents",
    ),
    row(
        Suffix("FLAGS"),
        Options,
        false,
        "`MAKEFLAGS`, `RUSTFLAGS` (`-C linker=`), `GOFLAGS` (`-toolexec`), `CFLAGS` (`-fplugin=`)",
    ),
    row(
        Exact("NODE_OPTIONS"),
        Options,
        true,
        "node loads `--require` modules",
    ),
    row(
        Exact("JAVA_TOOL_OPTIONS"),
        Options,
        true,
        "every JVM loads `-javaagent`",
    ),
    row(Exact("_JAVA_OPTIONS"), Options, true, "every JVM reads it"),
    row(
        Exact("JDK_JAVA_OPTIONS"),
        Options,
        true,
        "the `java` launcher reads it",
    ),
    row(
        Exact("GREP_OPTIONS"),
        Options,
        false,
        "old grep prepends it to its options",
    ),
    // Interpreters.
    row(
        Exact("PYTHONSTARTUP"),
        Loads,
        true,
        "interactive python runs the file",
    ),
    row(
        Exact("PYTHONINSPECT"),
        Loads,
        true,
        "python stays interactive after the script",
    ),
    row(
        Prefix("PYTHON"),
        Loads,
        false,
        "`PYTHONPATH`, `PYTHONHOME`, `PYTHONBREAKPOINT`, `PYTHONWARNINGS` import code",
    ),
    row(
        Exact("PERL5OPT"),
        Options,
        true,
        "perl reads `-M` options from it",
    ),
    row(
        Prefix("PERL5"),
        Loads,
        false,
        "`PERL5LIB`, `PERL5DB`: perl loads modules and a debugger",
    ),
    row(
        Exact("PERLLIB"),
        SearchPath,
        false,
        "where perl finds modules",
    ),
    row(
        Exact("RUBYOPT"),
        Options,
        true,
        "ruby reads `-r` options from it",
    ),
    row(
        Prefix("RUBY"),
        Loads,
        false,
        "`RUBYLIB`: where ruby finds libraries",
    ),
    row(
        Exact("GEM_HOME"),
        SearchPath,
        false,
        "where ruby finds gems",
    ),
    row(
        Exact("GEM_PATH"),
        SearchPath,
        false,
        "where ruby finds gems",
    ),
    row(
        Exact("BUNDLE_GEMFILE"),
        Loads,
        false,
        "bundler runs the Gemfile, which is ruby",
    ),
    row(
        Prefix("NODE_"),
        SearchPath,
        false,
        "`NODE_PATH`, `NODE_REPL_EXTERNAL_MODULE`: node loads modules",
    ),
    row(
        Prefix("LUA_"),
        Loads,
        false,
        "`LUA_INIT` is code lua runs; `LUA_PATH` where it finds modules",
    ),
    row(
        Exact("VIMINIT"),
        Runs,
        false,
        "vim runs the Ex commands in it",
    ),
    row(
        Exact("EXINIT"),
        Runs,
        false,
        "vi runs the Ex commands in it",
    ),
    row(Exact("MYVIMRC"), Loads, false, "vim's startup file"),
    row(
        Exact("VIMRUNTIME"),
        SearchPath,
        false,
        "where vim loads its runtime scripts",
    ),
    row(
        Exact("EMACSLOADPATH"),
        SearchPath,
        false,
        "where emacs loads Lisp",
    ),
    row(Prefix("R_PROFILE"), Loads, false, "R runs the profile"),
    row(
        Prefix("R_LIBS"),
        SearchPath,
        false,
        "where R finds packages",
    ),
    row(
        Prefix("JULIA_"),
        SearchPath,
        false,
        "`JULIA_LOAD_PATH`, `JULIA_DEPOT_PATH`",
    ),
    row(
        Exact("TCLLIBPATH"),
        SearchPath,
        false,
        "where tclsh finds packages",
    ),
];

/// The row for the variable `name`, when programs read it as code (for an
/// agent's value in `subprocess.env`: E125).
pub fn code_variable(name: &str) -> Option<&'static CodeVariable> {
    let upper = name.to_ascii_uppercase();
    CODE_VARIABLES.iter().find(|row| row.name.matches(&upper))
}

/// Whether `name` makes the next program load or run code whatever its
/// value, so that even a hardcoded value is refused (E115; the hook's
/// `env VAR=...`). Narrower than [`code_variable`]: a hardcoded `PAGER=cat`
/// or `PATH=...` is the author's choice, not an agent's code.
pub fn variable_loads_code(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    CODE_VARIABLES
        .iter()
        .any(|row| row.even_literal && row.name.matches(&upper))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variables_of_the_review_are_code() {
        for name in [
            "TAR_OPTIONS",
            "GIT_DIR",
            "GIT_PROXY_COMMAND",
            "GIT_SSH_COMMAND",
            "GIT_EXEC_PATH",
            "GIT_CONFIG",
            "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_KEY_0",
            "XDG_CONFIG_HOME",
            "HOME",
            "KUBECONFIG",
            "GCONV_PATH",
            "LD_PRELOAD",
            "DYLD_INSERT_LIBRARIES",
            "PYTHONPATH",
            "PERL5LIB",
            "NODE_OPTIONS",
            "RUBYOPT",
            "BASH_ENV",
            "ENV",
            "PAGER",
            "EDITOR",
            "RSYNC_CONNECT_PROG",
            "npm_config_script_shell",
            "MAKEFLAGS",
            "path",
        ] {
            assert!(code_variable(name).is_some(), "{name}");
        }
        for name in [
            "GH_TOKEN",
            "GIT_AUTHOR_NAME",
            "LANG",
            "TZ",
            "OPTIONS",
            "FLAGS",
            "USER",
        ] {
            assert!(code_variable(name).is_none(), "{name}");
        }
    }

    /// The literal set is the one E115 and the hook used before the table:
    /// nothing a declaration or a hook could set to a literal before is
    /// refused now, and nothing refused before is allowed.
    #[test]
    fn only_variables_that_load_code_whatever_their_value_are_refused_as_literals() {
        for name in [
            "BASH_ENV",
            "ENV",
            "SHELLOPTS",
            "BASHOPTS",
            "PS4",
            "PROMPT_COMMAND",
            "PERL5OPT",
            "PYTHONSTARTUP",
            "PYTHONINSPECT",
            "NODE_OPTIONS",
            "RUBYOPT",
            "JAVA_TOOL_OPTIONS",
            "_JAVA_OPTIONS",
            "JDK_JAVA_OPTIONS",
            "GIT_SSH_COMMAND",
            "GIT_EXTERNAL_DIFF",
            "GIT_PROXY_COMMAND",
            "GCONV_PATH",
            "LD_PRELOAD",
            "DYLD_X",
            "BASH_FUNC_f%%",
            "GIT_CONFIG_GLOBAL",
            "ld_preload",
        ] {
            assert!(variable_loads_code(name), "{name}");
            assert!(code_variable(name).is_some(), "{name}");
        }
        for name in ["PAGER", "PATH", "HOME", "TAR_OPTIONS", "GIT_DIR", "EDITOR"] {
            assert!(!variable_loads_code(name), "{name}");
        }
    }
}
