//! A shell command line read the way bash reads it, for `aigent hook`.
//!
//! brush-parser parses; this module turns its tree into aigent's own
//! ([`Script`]): every simple command wherever it sits (lists, pipelines,
//! groups, subshells, `if`/`for`/`while`/`case`, function bodies, command
//! and process substitutions), each word either static (its text after
//! quote removal, exactly the argv word bash would pass) or not (and why),
//! and the constructs that are judged whole (function definitions,
//! coprocesses, `[[ ]]`, `(( ))`).
//!
//! Nothing here decides anything: the hook does (`crate::hook::judge`).
//!
//! Bounds: a line longer than [`MAX_COMMAND_BYTES`], nested deeper than
//! [`MAX_NESTING`], or holding a NUL byte is an error, not a script; parsing
//! and the walk are linear in the line's length.

mod quote;
mod walk;
mod words;

pub use quote::{is_bare_word, quote_word};
pub use walk::parsing_inline;
pub use words::{arithmetic_is_numeric, is_one_quoted_word};

#[cfg(test)]
mod tests;

use serde::Serialize;

/// The longest command line read. Agents' commands are far shorter; a
/// longer one is refused rather than parsed.
pub const MAX_COMMAND_BYTES: usize = 1024 * 1024;

/// How deep compound commands and substitutions may nest.
pub const MAX_NESTING: usize = 64;

/// A parsed command line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Script {
    /// Every simple command, in source order (a substitution's commands
    /// before the command that holds it, as they run).
    pub commands: Vec<SimpleCommand>,
    /// Constructs judged as a whole.
    pub constructs: Vec<Construct>,
    /// The shells the commands run in: `shells[n]` is the shell that
    /// started shell `n` (a subshell, a substitution, a pipeline's stage, a
    /// background list); shell 0, the line's own, is its own parent.
    pub shells: Vec<usize>,
}

/// One simple command: assignments, words, redirections.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SimpleCommand {
    /// The command as written (its words and redirections), for messages.
    pub source: String,
    /// `NAME=VALUE` words before the program.
    pub assignments: Vec<Assignment>,
    /// The program and its arguments; empty for a command that only
    /// assigns or redirects.
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// Where it sits when not at the top of the line ("command
    /// substitution", "function body", ...).
    pub within: Option<&'static str>,
    /// The shell it runs in (an index into [`Script::shells`]).
    pub shell: usize,
    /// It may run more than once, or after commands that follow it in the
    /// line: it is in a loop or a function body.
    pub repeats: bool,
    /// The input redirections of the compound commands around it (`{ …; }
    /// < FILE`), which it reads as its own.
    pub enclosing_reads: Vec<Redirect>,
    /// Its standard input is a pipe from an earlier stage of a pipeline
    /// (`curl … | sh`), before its own redirections.
    #[serde(skip)]
    pub reads_pipe: bool,
    /// Where its program and arguments sit in the line, in characters,
    /// when they are written together (no redirection or substitution
    /// between them) at the top of the line: what a rewrite may replace.
    #[serde(skip)]
    pub words_span: Option<std::ops::Range<usize>>,
}

impl SimpleCommand {
    /// The argv, when every word is static.
    pub fn argv(&self) -> Option<Vec<&str>> {
        self.words.iter().map(Word::as_static).collect()
    }
}

/// One word of a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Word {
    /// Known before the command runs: the text after quote removal.
    Static { text: String },
    /// Depends on what happens when the line runs.
    Dynamic { source: String, why: NotStatic },
}

impl Word {
    pub fn as_static(&self) -> Option<&str> {
        match self {
            Self::Static { text } => Some(text),
            Self::Dynamic { .. } => None,
        }
    }

    /// The word as written.
    pub fn source(&self) -> &str {
        match self {
            Self::Static { text } => text,
            Self::Dynamic { source, .. } => source,
        }
    }
}

/// Why a word is not static.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NotStatic {
    /// `$NAME`, `${NAME...}`, `$1`, `$@`.
    ParameterExpansion,
    /// `$(...)` or `` `...` ``.
    CommandSubstitution,
    /// `<(...)` or `>(...)`.
    ProcessSubstitution,
    /// `$((...))`.
    ArithmeticExpansion,
    /// Unquoted `*`, `?`, `[`, or an extended glob (`!(x)`).
    Glob,
    /// `{a,b}` or `{1..9}`.
    BraceExpansion,
    /// `~`, `~user`, or `~` after `=` or `:`.
    TildeExpansion,
    /// `$'...'` with an escape this reader does not decode exactly, or
    /// `$"..."` (translated text).
    Escape,
    /// An array value, `NAME=(...)`.
    ArrayValue,
    /// A here-document whose delimiter is unquoted and whose body expands
    /// `$` or `` ` ``.
    HereDocExpansion,
    /// A name, `$` or a substitution that bash evaluates as arithmetic or
    /// as an array subscript (`$((x))`, `${a[i]}`, `${s:n}`): the value it
    /// finds is evaluated in turn, and `a[$(cmd)]` there runs a command.
    ArithmeticVariable,
    /// `${!name}`: the value of whichever variable `name` names (an array
    /// element's subscript included, which is evaluated).
    Indirection,
    /// `${name@P}`: the value expanded as a prompt, which runs the command
    /// substitutions it holds.
    PromptExpansion,
    /// `${name:=value}` or `${name=value}`: assigns the variable.
    AssigningExpansion,
    /// A part that this reader cannot take apart (brush-parser reads the
    /// line but not the word, or a process substitution inside `${…}`), so
    /// what it runs is not known.
    Unreadable,
}

impl NotStatic {
    /// The rule's name, as the hook reports it.
    pub const fn rule(self) -> &'static str {
        match self {
            Self::ParameterExpansion => "parameter_expansion",
            Self::CommandSubstitution => "command_substitution",
            Self::ProcessSubstitution => "process_substitution",
            Self::ArithmeticExpansion => "arithmetic_expansion",
            Self::Glob => "glob",
            Self::BraceExpansion => "brace_expansion",
            Self::TildeExpansion => "tilde_expansion",
            Self::Escape => "unreadable_escape",
            Self::ArrayValue => "array_assignment",
            Self::HereDocExpansion => "here_document_expansion",
            Self::ArithmeticVariable => "arithmetic_variable",
            Self::Indirection => "indirect_expansion",
            Self::PromptExpansion => "prompt_expansion",
            Self::AssigningExpansion => "assigning_expansion",
            Self::Unreadable => "unreadable_word",
        }
    }

    /// Whether what it evaluates cannot be known before the line runs, so
    /// that it is refused whatever the `not_static` policy says: asking a
    /// person to approve it would ask them to guess.
    pub const fn always_refused(self) -> bool {
        matches!(
            self,
            Self::ArithmeticVariable
                | Self::Indirection
                | Self::PromptExpansion
                | Self::AssigningExpansion
                | Self::Unreadable
        )
    }

    /// What it is, for messages.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::ParameterExpansion => {
                "a parameter expansion ($NAME), whose value is known only when the line runs"
            }
            Self::CommandSubstitution => {
                "a command substitution, which runs a command and uses its output"
            }
            Self::ProcessSubstitution => "a process substitution, which runs a command",
            Self::ArithmeticExpansion => {
                "an arithmetic expansion, which can read and assign variables"
            }
            Self::Glob => "an unquoted glob, which expands to whatever files exist",
            Self::BraceExpansion => "a brace expansion, which turns one word into several",
            Self::TildeExpansion => "a tilde expansion, which depends on the user's home",
            Self::Escape => "an escape this reader does not decode exactly",
            Self::ArrayValue => "an array value",
            Self::HereDocExpansion => "a here-document that expands $ or backquotes",
            Self::ArithmeticVariable => {
                "arithmetic on a name or an expansion: bash evaluates the value it finds, and a value such as `a[$(cmd)]` runs a command"
            }
            Self::Indirection => {
                "an indirect expansion (`${!name}`), whose variable, and any subscript it evaluates, is known only when the line runs"
            }
            Self::PromptExpansion => {
                "a prompt expansion (`${name@P}`), which runs the command substitutions the value holds"
            }
            Self::AssigningExpansion => "an expansion that assigns a variable (`${name:=value}`)",
            Self::Unreadable => {
                "a part this reader cannot take apart, so what it runs is not known"
            }
        }
    }
}

/// `NAME=VALUE` before a program (or alone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assignment {
    pub name: String,
    pub value: Word,
}

/// A redirection of one of the command's file descriptors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Redirect {
    pub fd: Option<i32>,
    pub kind: RedirectKind,
    /// The file, descriptor or here-document the redirection names.
    pub target: Word,
    /// `{NAME}>FILE`: bash opens a new descriptor and assigns its number to
    /// `NAME` (which may be an array element, `{a[1]}`).
    pub variable: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RedirectKind {
    /// `<`
    Read,
    /// `>`
    Write,
    /// `>>`
    Append,
    /// `<>`
    ReadWrite,
    /// `>|`
    Clobber,
    /// `<&N`
    DuplicateInput,
    /// `>&N`
    DuplicateOutput,
    /// `&>` and `&>>`
    OutputAndError,
    /// `<<` and `<<-`
    HereDocument,
    /// `<<<`
    HereString,
}

impl RedirectKind {
    /// Whether it opens a file for writing (with a file name target).
    pub const fn writes(self) -> bool {
        matches!(
            self,
            Self::Write | Self::Append | Self::ReadWrite | Self::Clobber | Self::OutputAndError
        )
    }

    /// Whether it opens a file (a file name target) for the command to read.
    pub const fn reads_file(self) -> bool {
        matches!(self, Self::Read | Self::ReadWrite)
    }
}

/// A construct the hook judges as a whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Construct {
    pub kind: ConstructKind,
    /// Its name where it has one: a function's, a `for` loop's variable, a
    /// coprocess's.
    pub name: Option<String>,
    /// Every word of it that bash expands, with the part it plays.
    pub words: Vec<RoleWord>,
    /// Where it sits when not at the top of the line.
    pub within: Option<&'static str>,
}

/// A word of a construct, and what bash does with it there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoleWord {
    pub role: WordRole,
    pub word: Word,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WordRole {
    /// A word of a `for` list.
    LoopList,
    /// The word a `case` matches.
    CaseWord,
    /// A `case` pattern.
    CasePattern,
    /// A `[[ ]]` operand compared as a string, a pattern or a file name.
    TestOperand,
    /// A `[[ ]]` operand of `-eq`, `-ne`, `-lt`, `-le`, `-gt`, `-ge`,
    /// which bash evaluates as arithmetic.
    TestArithmetic,
    /// The operand of `[[ -v ]]`: a variable, whose subscript bash
    /// evaluates as arithmetic.
    TestVariable,
    /// The text of `(( … ))` or `for (( … ))`.
    Arithmetic,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstructKind {
    /// `name() { ...; }`: a later `name` runs the body, whatever program
    /// that name would otherwise find.
    FunctionDefinition,
    /// `coproc ...`
    Coprocess,
    /// `(( ... ))` and `for (( ... ))`: arithmetic, which can assign.
    Arithmetic,
    /// `[[ ... ]]`: its words expand, and some are evaluated.
    ExtendedTest,
    /// `for NAME in ...`: assigns NAME in each pass.
    LoopVariable,
    /// `case WORD in PATTERN) ...`: its word and patterns expand.
    Case,
}

impl ConstructKind {
    pub const fn rule(self) -> &'static str {
        match self {
            Self::FunctionDefinition => "function_definition",
            Self::Coprocess => "coprocess",
            Self::Arithmetic => "arithmetic_command",
            Self::ExtendedTest => "extended_test",
            Self::LoopVariable => "loop_variable",
            Self::Case => "case",
        }
    }
}

/// Why a line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("the command is {bytes} bytes long; the hook reads at most {MAX_COMMAND_BYTES}")]
    TooLong { bytes: usize },
    #[error("the command holds a NUL byte, which no shell command can")]
    NulByte,
    #[error(
        "the command nests more than {MAX_NESTING} levels deep, or its substitutions are too large"
    )]
    TooDeep,
    #[error("the command is not valid shell syntax: {0}")]
    Syntax(String),
    #[error("the command could not be read within the time allowed")]
    TooSlow,
}

/// Parses `line` as bash would, into every simple command it runs.
pub fn parse(line: &str) -> Result<Script, ParseError> {
    if line.len() > MAX_COMMAND_BYTES {
        return Err(ParseError::TooLong { bytes: line.len() });
    }
    if line.contains('\0') {
        return Err(ParseError::NulByte);
    }
    walk::parse_and_walk(line)
}

/// `words` quoted for a POSIX shell, so that the shell passes exactly
/// these words (see [`quote_word`]).
pub fn quote(words: &[impl AsRef<str>]) -> String {
    let quoted: Vec<String> = words.iter().map(|word| quote_word(word.as_ref())).collect();
    quoted.join(" ")
}
