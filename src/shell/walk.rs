//! brush-parser's tree, walked into a [`Script`].

use std::collections::HashMap;

use brush_parser::ast;

use super::words::{Context, WordReader, read_arithmetic, read_here_document, read_word};
use super::{
    Assignment, Construct, ConstructKind, MAX_NESTING, NotStatic, ParseError, Redirect,
    RedirectKind, RoleWord, Script, SimpleCommand, Word, WordRole,
};

/// The stack for parsing a line with many brackets: the parser recurses
/// once per level, and [`MAX_NESTING`] is checked only after it returns.
const DEEP_STACK_BYTES: usize = 512 * 1024 * 1024;

fn options() -> brush_parser::ParserOptions {
    brush_parser::ParserOptions {
        // As bash runs a script: extended globs are off unless `shopt -s
        // extglob`, but a word that would be one is judged a glob anyway.
        enable_extended_globbing: false,
        posix_mode: false,
        sh_mode: false,
        tilde_expansion_at_word_start: true,
        tilde_expansion_after_colon: false,
        parser_impl: brush_parser::ParserImpl::Peg,
    }
}

/// How long parsing may take before the line is refused. brush-parser
/// backtracks, and some malformed lines make it slow; the balance check in
/// [`tokenize`] catches the ones known, and this bounds the rest.
const PARSE_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

thread_local! {
    /// Set within [`parsing_inline`].
    static INLINE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `work` with every parse on this thread made in place, on a stack
/// of its own as large as the parser thread's, with no deadline: for a
/// caller that bounds its whole time itself, as `aigent hook` does with an
/// alarm that answers for it. Handing each parse to a thread and waiting
/// for it cost the hook a twentieth of its time (the new thread is woken
/// on another CPU, then wakes this one).
pub fn parsing_inline<T>(work: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            INLINE.with(|inline| inline.set(self.0));
        }
    }
    let _restore = Restore(INLINE.with(|inline| inline.replace(true)));
    work()
}

/// Parses and walks `line` on a thread with a large stack (where its tree
/// is also dropped), waiting at most [`PARSE_DEADLINE`]. A line that takes
/// longer is refused; its thread is left to finish in the background (the
/// hook's process exits right after answering). Within [`parsing_inline`],
/// on this thread instead.
pub(super) fn parse_and_walk(line: &str) -> Result<Script, ParseError> {
    let parse = |line: &str| {
        tokenize(line).and_then(|(tokens, variables)| walk_tokens(line, &tokens, variables))
    };
    if INLINE.with(std::cell::Cell::get) {
        return stacker::grow(DEEP_STACK_BYTES, || parse(line));
    }
    let owned = line.to_owned();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("aigent-shell-parse".to_owned())
        .stack_size(DEEP_STACK_BYTES)
        .spawn(move || {
            let _ = sender.send(parse(&owned));
        })
        .map_err(|error| ParseError::Syntax(format!("could not start the parser: {error}")))?;
    match receiver.recv_timeout(PARSE_DEADLINE) {
        Ok(result) => result,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(ParseError::TooSlow),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            Err(ParseError::Syntax("the parser failed".to_owned()))
        }
    }
}

/// Whether `line` has a here-document whose delimiter is empty, outside
/// quotes (`<<''`, `<< ""`, `<<-''''`): brush-parser 0.4.0's tokenizer
/// never returns from one that the line ends in (`cat <<'' #`), and
/// allocates as it loops, gigabytes within the hook's alarm. A `<<` in a
/// comment counts too: a line so rare is refused rather than read.
fn has_empty_here_tag(line: &str) -> bool {
    let bytes = line.as_bytes();
    let (mut single, mut double) = (false, false);
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if !single => at += 1,
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'<' if !single
                && !double
                && bytes[at..].starts_with(b"<<")
                && bytes.get(at + 2) != Some(&b'<')
                && (at == 0 || bytes[at - 1] != b'<') =>
            {
                let mut rest = &bytes[at + 2..];
                if let [b'-', tail @ ..] = rest {
                    rest = tail;
                }
                while let [b' ' | b'\t', tail @ ..] = rest {
                    rest = tail;
                }
                let mut quotes = 0;
                while let [b'\'', b'\'', tail @ ..] | [b'"', b'"', tail @ ..] = rest {
                    rest = tail;
                    quotes += 1;
                }
                let ends_word = rest
                    .first()
                    .is_none_or(|next| b" \t\n;&|<>()".contains(next));
                if quotes > 0 && ends_word {
                    return true;
                }
                at += 2;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    false
}

/// The line's tokens (one linear pass), refused when a `(` is never
/// closed: bash refuses such a line too, and brush-parser's search on it
/// takes time exponential in the number of `(`. Beside them, where the
/// words that bash reads as `{NAME}` before a redirection start.
fn tokenize(line: &str) -> Result<(Vec<brush_parser::Token>, RedirectVariables), ParseError> {
    if has_empty_here_tag(line) {
        return Err(ParseError::Syntax(
            "a here-document with an empty delimiter (`<<''`) is not read".to_owned(),
        ));
    }
    let tokens = brush_parser::tokenize_str_with_options(line, &options().tokenizer_options())
        .map_err(|error| ParseError::Syntax(one_line(&error.to_string())))?;
    // Brackets and braces still open, and the most at once: a line nested
    // past MAX_NESTING is refused here, before the parser recurses through
    // every level (seconds, for ten thousand `{`).
    let (mut parens, mut depth, mut deepest) = (0usize, 0usize, 0usize);
    let mut variables = RedirectVariables::new();
    for (index, token) in tokens.iter().enumerate() {
        let (brush_parser::Token::Operator(text, _) | brush_parser::Token::Word(text, _)) = token;
        let operator = matches!(token, brush_parser::Token::Operator(..));
        match text.as_str() {
            "(" if operator => {
                parens += 1;
                depth += 1;
            }
            ")" if operator => {
                parens = parens.saturating_sub(1);
                depth = depth.saturating_sub(1);
            }
            "{" if !operator => depth += 1,
            "}" if !operator => depth = depth.saturating_sub(1),
            _ => {}
        }
        deepest = deepest.max(depth);
        if let brush_parser::Token::Word(word, span) = token
            && let Some(name) = redirect_variable(word)
            && let Some(brush_parser::Token::Operator(next, next_span)) = tokens.get(index + 1)
            && next.starts_with(['<', '>'])
            && next_span.start.index == span.end.index
        {
            variables.insert(span.start.index, name.to_owned());
        }
    }
    if parens > 0 {
        return Err(ParseError::Syntax("a `(` is never closed".to_owned()));
    }
    if deepest > MAX_NESTING {
        return Err(ParseError::TooDeep);
    }
    Ok((tokens, variables))
}

/// The start of each word that bash reads as `{NAME}` before a
/// redirection (which brush-parser 0.4 reads as a plain word), and NAME.
type RedirectVariables = HashMap<usize, String>;

/// `NAME` of a word `{NAME}` or `{NAME[SUBSCRIPT]}`, as bash accepts it
/// before a redirection operator.
fn redirect_variable(word: &str) -> Option<&str> {
    let name = word.strip_prefix('{')?.strip_suffix('}')?;
    let base = match name.split_once('[') {
        Some((base, subscript)) => {
            subscript.strip_suffix(']')?;
            base
        }
        None => name,
    };
    let mut chars = base.chars();
    let first = chars.next()?;
    let valid = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    valid.then_some(name)
}

fn walk_tokens(
    line: &str,
    tokens: &[brush_parser::Token],
    variables: RedirectVariables,
) -> Result<Script, ParseError> {
    let program = brush_parser::parse_tokens(tokens, &options())
        .map_err(|error| ParseError::Syntax(one_line(&error.to_string())))?;
    let mut script = Script {
        shells: vec![0],
        ..Script::default()
    };
    let mut walker = Walker::new(&mut script, line);
    walker.redirect_variables = variables;
    walker.program(&program, 0)?;
    Ok(script)
}

/// A command substitution's text, parsed on the walk's own thread.
fn parse_here(line: &str) -> Result<(ast::Program, RedirectVariables), ParseError> {
    let (tokens, variables) = tokenize(line)?;
    let program = brush_parser::parse_tokens(&tokens, &options())
        .map_err(|error| ParseError::Syntax(one_line(&error.to_string())))?;
    Ok((program, variables))
}

fn one_line(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|ch| if ch.is_control() { ' ' } else { ch })
        .take(200)
        .collect();
    text.trim().to_owned()
}

pub(super) struct Walker<'a> {
    script: &'a mut Script,
    within: Option<&'static str>,
    /// Bytes of command substitutions still to be parsed: each is parsed
    /// again on its own, so nesting could otherwise cost the square of the
    /// line's length.
    budget: usize,
    /// The shell the commands being walked run in.
    shell: usize,
    /// Whether they are in a loop or a function body.
    repeats: bool,
    /// Input redirections of the compound commands around them.
    enclosing_reads: Vec<Redirect>,
    /// `{NAME}` words before a redirection, in the program being walked.
    redirect_variables: RedirectVariables,
    /// They read a pipe: they are in a pipeline's stage after the first.
    reads_pipe: bool,
}

impl<'a> Walker<'a> {
    pub(super) fn new(script: &'a mut Script, line: &str) -> Self {
        Self {
            script,
            within: None,
            budget: line.len().saturating_mul(4).saturating_add(64 * 1024),
            shell: 0,
            repeats: false,
            enclosing_reads: Vec::new(),
            redirect_variables: RedirectVariables::new(),
            reads_pipe: false,
        }
    }

    fn nested<T>(
        &mut self,
        within: &'static str,
        depth: usize,
        walk: impl FnOnce(&mut Self, usize) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        if depth >= MAX_NESTING {
            return Err(ParseError::TooDeep);
        }
        let outer = self.within.replace(within);
        let result = walk(self, depth + 1);
        self.within = outer;
        result
    }

    /// Walks what runs in a shell of its own, started by the current one.
    fn new_shell<T>(
        &mut self,
        walk: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        let outer = self.shell;
        self.shell = self.script.shells.len();
        self.script.shells.push(outer);
        let result = walk(self);
        self.shell = outer;
        result
    }

    /// Walks what may run more than once (a loop, a function body).
    fn repeating<T>(
        &mut self,
        walk: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        let outer = std::mem::replace(&mut self.repeats, true);
        let result = walk(self);
        self.repeats = outer;
        result
    }

    pub(super) fn program(
        &mut self,
        program: &ast::Program,
        depth: usize,
    ) -> Result<(), ParseError> {
        for list in &program.complete_commands {
            self.compound_list(list, depth)?;
        }
        Ok(())
    }

    fn compound_list(&mut self, list: &ast::CompoundList, depth: usize) -> Result<(), ParseError> {
        for ast::CompoundListItem(and_or, separator) in &list.0 {
            let walk = |walker: &mut Self| -> Result<(), ParseError> {
                walker.pipeline(&and_or.first, depth)?;
                for next in &and_or.additional {
                    let (ast::AndOr::And(pipeline) | ast::AndOr::Or(pipeline)) = next;
                    walker.pipeline(pipeline, depth)?;
                }
                Ok(())
            };
            match separator {
                // `LIST &` runs in a subshell of its own.
                ast::SeparatorOperator::Async => self.new_shell(walk)?,
                ast::SeparatorOperator::Sequence => walk(self)?,
            }
        }
        Ok(())
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, depth: usize) -> Result<(), ParseError> {
        let outer_reads_pipe = self.reads_pipe;
        for (stage, command) in pipeline.seq.iter().enumerate() {
            if pipeline.seq.len() > 1 {
                // Each stage of a pipeline runs in a subshell, and each
                // after the first reads the one before.
                self.reads_pipe = outer_reads_pipe || stage > 0;
                let walked = self.new_shell(|walker| walker.command(command, depth));
                self.reads_pipe = outer_reads_pipe;
                walked?;
            } else {
                self.command(command, depth)?;
            }
        }
        Ok(())
    }

    fn command(&mut self, command: &ast::Command, depth: usize) -> Result<(), ParseError> {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, depth),
            ast::Command::Compound(compound, redirects) => {
                self.with_redirects(redirects.as_ref(), depth, |walker| {
                    walker.compound(compound, depth)
                })
            }
            ast::Command::Function(function) => {
                self.push_construct(
                    ConstructKind::FunctionDefinition,
                    Some(function.fname.value.clone()),
                    Vec::new(),
                );
                let ast::FunctionBody(body, redirects) = &function.body;
                self.nested("function body", depth, |walker, depth| {
                    walker.repeating(|walker| {
                        walker.with_redirects(redirects.as_ref(), depth, |walker| {
                            walker.compound(body, depth)
                        })
                    })
                })
            }
            ast::Command::ExtendedTest(test, redirects) => {
                self.with_redirects(redirects.as_ref(), depth, |walker| {
                    let mut words = Vec::new();
                    walker.extended_test(&test.expr, depth, &mut words)?;
                    walker.push_construct(ConstructKind::ExtendedTest, None, words);
                    Ok(())
                })
            }
        }
    }

    fn push_construct(&mut self, kind: ConstructKind, name: Option<String>, words: Vec<RoleWord>) {
        self.script.constructs.push(Construct {
            kind,
            name,
            words,
            within: self.within,
        });
    }

    fn compound(
        &mut self,
        compound: &ast::CompoundCommand,
        depth: usize,
    ) -> Result<(), ParseError> {
        match compound {
            ast::CompoundCommand::Arithmetic(arithmetic) => {
                let word = self.arithmetic(&arithmetic.expr.value, depth)?;
                self.push_construct(
                    ConstructKind::Arithmetic,
                    None,
                    vec![RoleWord {
                        role: WordRole::Arithmetic,
                        word,
                    }],
                );
                Ok(())
            }
            ast::CompoundCommand::ArithmeticForClause(clause) => {
                let mut words = Vec::new();
                for part in [&clause.initializer, &clause.condition, &clause.updater]
                    .into_iter()
                    .flatten()
                {
                    words.push(RoleWord {
                        role: WordRole::Arithmetic,
                        word: self.arithmetic(&part.value, depth)?,
                    });
                }
                self.push_construct(ConstructKind::Arithmetic, None, words);
                self.nested("for loop", depth, |walker, depth| {
                    walker.repeating(|walker| walker.compound_list(&clause.body.list, depth))
                })
            }
            ast::CompoundCommand::BraceGroup(group) => {
                self.nested("group", depth, |walker, depth| {
                    walker.compound_list(&group.list, depth)
                })
            }
            ast::CompoundCommand::Subshell(subshell) => {
                self.nested("subshell", depth, |walker, depth| {
                    walker.new_shell(|walker| walker.compound_list(&subshell.list, depth))
                })
            }
            ast::CompoundCommand::ForClause(clause) => {
                self.nested("for loop", depth, |walker, depth| {
                    let mut words = Vec::new();
                    for word in clause.values.iter().flatten() {
                        words.push(RoleWord {
                            role: WordRole::LoopList,
                            word: walker.word(&word.value, Context::LoopList, depth)?,
                        });
                    }
                    walker.push_construct(
                        ConstructKind::LoopVariable,
                        Some(clause.variable_name.clone()),
                        words,
                    );
                    walker.repeating(|walker| walker.compound_list(&clause.body.list, depth))
                })
            }
            ast::CompoundCommand::CaseClause(clause) => {
                self.nested("case", depth, |walker, depth| {
                    let mut words = vec![RoleWord {
                        role: WordRole::CaseWord,
                        word: walker.word(&clause.value.value, Context::Unsplit, depth)?,
                    }];
                    for item in &clause.cases {
                        for pattern in &item.patterns {
                            words.push(RoleWord {
                                role: WordRole::CasePattern,
                                word: walker.word(&pattern.value, Context::Unsplit, depth)?,
                            });
                        }
                    }
                    walker.push_construct(ConstructKind::Case, None, words);
                    for item in &clause.cases {
                        if let Some(list) = &item.cmd {
                            walker.compound_list(list, depth)?;
                        }
                    }
                    Ok(())
                })
            }
            ast::CompoundCommand::IfClause(clause) => self.nested("if", depth, |walker, depth| {
                walker.compound_list(&clause.condition, depth)?;
                walker.compound_list(&clause.then, depth)?;
                for branch in clause.elses.iter().flatten() {
                    if let Some(condition) = &branch.condition {
                        walker.compound_list(condition, depth)?;
                    }
                    walker.compound_list(&branch.body, depth)?;
                }
                Ok(())
            }),
            ast::CompoundCommand::WhileClause(clause)
            | ast::CompoundCommand::UntilClause(clause) => {
                self.nested("loop", depth, |walker, depth| {
                    let ast::WhileOrUntilClauseCommand(condition, body, _) = clause;
                    walker.repeating(|walker| {
                        walker.compound_list(condition, depth)?;
                        walker.compound_list(&body.list, depth)
                    })
                })
            }
            ast::CompoundCommand::Coprocess(coprocess) => {
                self.push_construct(
                    ConstructKind::Coprocess,
                    coprocess.name.as_ref().map(|name| name.value.clone()),
                    Vec::new(),
                );
                self.nested("coprocess", depth, |walker, depth| {
                    walker.new_shell(|walker| walker.command(&coprocess.body, depth))
                })
            }
        }
    }

    /// The operands of `[[ … ]]`, each with the part it plays.
    fn extended_test(
        &mut self,
        expr: &ast::ExtendedTestExpr,
        depth: usize,
        words: &mut Vec<RoleWord>,
    ) -> Result<(), ParseError> {
        if depth >= MAX_NESTING {
            return Err(ParseError::TooDeep);
        }
        let mut operand = |walker: &mut Self, role: WordRole, word: &ast::Word| {
            let word = walker.word(&word.value, Context::Unsplit, depth)?;
            words.push(RoleWord { role, word });
            Ok::<(), ParseError>(())
        };
        match expr {
            ast::ExtendedTestExpr::And(left, right) | ast::ExtendedTestExpr::Or(left, right) => {
                self.extended_test(left, depth + 1, words)?;
                self.extended_test(right, depth + 1, words)
            }
            ast::ExtendedTestExpr::Not(inner) | ast::ExtendedTestExpr::Parenthesized(inner) => {
                self.extended_test(inner, depth + 1, words)
            }
            ast::ExtendedTestExpr::UnaryTest(predicate, word) => {
                let role = match predicate {
                    ast::UnaryPredicate::ShellVariableIsSetAndAssigned => WordRole::TestVariable,
                    _ => WordRole::TestOperand,
                };
                operand(self, role, word)
            }
            ast::ExtendedTestExpr::BinaryTest(predicate, left, right) => {
                let role = match predicate {
                    ast::BinaryPredicate::ArithmeticEqualTo
                    | ast::BinaryPredicate::ArithmeticNotEqualTo
                    | ast::BinaryPredicate::ArithmeticLessThan
                    | ast::BinaryPredicate::ArithmeticLessThanOrEqualTo
                    | ast::BinaryPredicate::ArithmeticGreaterThan
                    | ast::BinaryPredicate::ArithmeticGreaterThanOrEqualTo => {
                        WordRole::TestArithmetic
                    }
                    _ => WordRole::TestOperand,
                };
                operand(self, role, left)?;
                operand(self, role, right)
            }
        }
    }

    /// Walks `walk` (a compound command) with its redirections applied:
    /// they are opened first, so they are recorded first, on a command of
    /// their own, and the files they open for reading are read by every
    /// command inside.
    fn with_redirects(
        &mut self,
        redirects: Option<&ast::RedirectList>,
        depth: usize,
        walk: impl FnOnce(&mut Self) -> Result<(), ParseError>,
    ) -> Result<(), ParseError> {
        let Some(ast::RedirectList(list)) = redirects else {
            return walk(self);
        };
        let mut command = self.empty_command();
        for redirect in list {
            let redirect = self.redirect(redirect, None, depth)?;
            if !command.source.is_empty() {
                command.source.push(' ');
            }
            command.source.push_str(&redirect_source(&redirect));
            command.redirects.push(redirect);
        }
        let reads: Vec<Redirect> = command
            .redirects
            .iter()
            .filter(|redirect| redirect.kind.reads_file())
            .cloned()
            .collect();
        self.script.commands.push(command);
        let outer = self.enclosing_reads.len();
        self.enclosing_reads.extend(reads);
        let result = walk(self);
        self.enclosing_reads.truncate(outer);
        result
    }

    fn empty_command(&self) -> SimpleCommand {
        SimpleCommand {
            source: String::new(),
            assignments: Vec::new(),
            words: Vec::new(),
            redirects: Vec::new(),
            within: self.within,
            shell: self.shell,
            repeats: self.repeats,
            enclosing_reads: self.enclosing_reads.clone(),
            reads_pipe: self.reads_pipe,
            words_span: None,
        }
    }

    fn simple(&mut self, simple: &ast::SimpleCommand, depth: usize) -> Result<(), ParseError> {
        let mut command = self.empty_command();
        let mut source: Vec<String> = Vec::new();
        let prefix = simple.prefix.iter().flat_map(|prefix| prefix.0.iter());
        let suffix = simple.suffix.iter().flat_map(|suffix| suffix.0.iter());
        let mut items: Vec<Item<'_>> = prefix.map(Item::Part).collect();
        if let Some(word) = &simple.word_or_name {
            items.push(Item::Program(word));
        }
        items.extend(suffix.map(Item::Part));
        let mut seen_program = false;
        // `{NAME}` just before a redirection: the redirection's variable.
        let mut variable: Option<String> = None;
        let mut span = WordsSpan::default();
        for item in items {
            match item {
                Item::Program(word) | Item::Part(ast::CommandPrefixOrSuffixItem::Word(word)) => {
                    if let Some(name) = self.redirect_variable_at(word) {
                        variable = Some(name);
                        span.interrupt();
                        continue;
                    }
                    seen_program |= matches!(item, Item::Program(_));
                    span.word(word.loc.as_ref());
                    source.push(word.value.clone());
                    command
                        .words
                        .push(self.word(&word.value, Context::Argument, depth)?);
                }
                Item::Part(ast::CommandPrefixOrSuffixItem::AssignmentWord(assignment, word)) => {
                    source.push(word.value.clone());
                    let assignment = self.assignment(assignment, depth)?;
                    if seen_program || !command.words.is_empty() {
                        span.word(word.loc.as_ref());
                        // `export NAME=VALUE`, `declare NAME=VALUE`: an
                        // argument of the builtin, as bash passes it.
                        command.words.push(match &assignment.value {
                            Word::Static { text } => Word::Static {
                                text: format!("{}={text}", assignment.name),
                            },
                            Word::Dynamic { why, .. } => Word::Dynamic {
                                source: word.value.clone(),
                                why: *why,
                            },
                        });
                    } else {
                        command.assignments.push(assignment);
                    }
                }
                Item::Part(ast::CommandPrefixOrSuffixItem::IoRedirect(redirect)) => {
                    span.interrupt();
                    let redirect = self.redirect(redirect, variable.take(), depth)?;
                    source.push(redirect_source(&redirect));
                    command.redirects.push(redirect);
                }
                Item::Part(ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, subshell)) => {
                    span.broken = true;
                    let text = process_substitution_source(kind);
                    source.push(text.clone());
                    self.nested("process substitution", depth, |walker, depth| {
                        walker.new_shell(|walker| walker.compound_list(&subshell.list, depth))
                    })?;
                    command.words.push(Word::Dynamic {
                        source: text,
                        why: NotStatic::ProcessSubstitution,
                    });
                }
            }
        }
        command.source = source.join(" ");
        if self.within.is_none() {
            command.words_span = span.range();
        }
        self.script.commands.push(command);
        Ok(())
    }

    /// The variable of a `{NAME}` word that bash reads as part of the
    /// redirection after it.
    fn redirect_variable_at(&self, word: &ast::Word) -> Option<String> {
        let start = word.loc.as_ref()?.start.index;
        self.redirect_variables
            .get(&start)
            .filter(|name| word.value == format!("{{{name}}}"))
            .cloned()
    }

    fn assignment(
        &mut self,
        assignment: &ast::Assignment,
        depth: usize,
    ) -> Result<Assignment, ParseError> {
        let name = match &assignment.name {
            ast::AssignmentName::VariableName(name) => name.clone(),
            ast::AssignmentName::ArrayElementName(name, index) => {
                // The subscript is expanded (and evaluated) when assigned.
                self.word(index, Context::Unsplit, depth)?;
                format!("{name}[{index}]")
            }
        };
        let value = match &assignment.value {
            ast::AssignmentValue::Scalar(word) => {
                self.word(&word.value, Context::Argument, depth)?
            }
            ast::AssignmentValue::Array(items) => {
                for (index, item) in items {
                    if let Some(index) = index {
                        self.word(&index.value, Context::Argument, depth)?;
                    }
                    self.word(&item.value, Context::Argument, depth)?;
                }
                Word::Dynamic {
                    source: String::from("(...)"),
                    why: NotStatic::ArrayValue,
                }
            }
        };
        Ok(Assignment { name, value })
    }

    fn redirect(
        &mut self,
        redirect: &ast::IoRedirect,
        variable: Option<String>,
        depth: usize,
    ) -> Result<Redirect, ParseError> {
        let fd = |fd: &Option<ast::IoFd>| fd.as_ref().copied();
        Ok(match redirect {
            ast::IoRedirect::File(io_fd, kind, target) => {
                let kind = match kind {
                    ast::IoFileRedirectKind::Read => RedirectKind::Read,
                    ast::IoFileRedirectKind::Write => RedirectKind::Write,
                    ast::IoFileRedirectKind::Append => RedirectKind::Append,
                    ast::IoFileRedirectKind::ReadAndWrite => RedirectKind::ReadWrite,
                    ast::IoFileRedirectKind::Clobber => RedirectKind::Clobber,
                    ast::IoFileRedirectKind::DuplicateInput => RedirectKind::DuplicateInput,
                    ast::IoFileRedirectKind::DuplicateOutput => RedirectKind::DuplicateOutput,
                };
                let target = match target {
                    ast::IoFileRedirectTarget::Filename(word)
                    | ast::IoFileRedirectTarget::Duplicate(word) => {
                        self.word(&word.value, Context::Argument, depth)?
                    }
                    ast::IoFileRedirectTarget::Fd(fd) => Word::Static {
                        text: fd.to_string(),
                    },
                    ast::IoFileRedirectTarget::ProcessSubstitution(kind, subshell) => {
                        self.nested("process substitution", depth, |walker, depth| {
                            walker.new_shell(|walker| walker.compound_list(&subshell.list, depth))
                        })?;
                        Word::Dynamic {
                            source: process_substitution_source(kind),
                            why: NotStatic::ProcessSubstitution,
                        }
                    }
                };
                Redirect {
                    fd: fd(io_fd),
                    kind,
                    target,
                    variable,
                }
            }
            ast::IoRedirect::HereDocument(io_fd, here) => {
                let body = &here.doc.value;
                let target = if here.requires_expansion {
                    let mut reader = WordReader::default();
                    match read_here_document(body, &mut reader) {
                        Some(why) => {
                            self.substitutions(reader, depth)?;
                            Word::Dynamic {
                                source: format!("<<{}", here.here_end.value),
                                why,
                            }
                        }
                        None => Word::Static { text: body.clone() },
                    }
                } else {
                    Word::Static { text: body.clone() }
                };
                Redirect {
                    fd: fd(io_fd),
                    kind: RedirectKind::HereDocument,
                    target,
                    variable,
                }
            }
            ast::IoRedirect::HereString(io_fd, word) => Redirect {
                fd: fd(io_fd),
                kind: RedirectKind::HereString,
                target: self.word(&word.value, Context::Unsplit, depth)?,
                variable,
            },
            ast::IoRedirect::OutputAndError(word, _append) => Redirect {
                fd: None,
                kind: RedirectKind::OutputAndError,
                target: self.word(&word.value, Context::Argument, depth)?,
                variable,
            },
        })
    }

    /// One word standing in `context`: static, or why not. Command
    /// substitutions anywhere in it are parsed and walked, so that their
    /// commands are judged too.
    fn word(&mut self, raw: &str, context: Context, depth: usize) -> Result<Word, ParseError> {
        let mut reader = WordReader::default();
        let word = read_word(raw, context, &mut reader);
        self.substitutions(reader, depth)?;
        Ok(word)
    }

    /// The text of `(( … ))`: dynamic, and why.
    fn arithmetic(&mut self, text: &str, depth: usize) -> Result<Word, ParseError> {
        let mut reader = WordReader::default();
        let why = read_arithmetic(text, &mut reader);
        self.substitutions(reader, depth)?;
        Ok(Word::Dynamic {
            source: text.to_owned(),
            why,
        })
    }

    /// Parses and walks the command substitutions a word holds, each in a
    /// shell of its own.
    fn substitutions(&mut self, reader: WordReader, depth: usize) -> Result<(), ParseError> {
        for inner in reader.substitutions {
            if depth + 1 >= MAX_NESTING {
                return Err(ParseError::TooDeep);
            }
            self.budget = self
                .budget
                .checked_sub(inner.len())
                .ok_or(ParseError::TooDeep)?;
            let (program, variables) = parse_here(&inner)?;
            let outer = std::mem::replace(&mut self.redirect_variables, variables);
            let result = self.nested("command substitution", depth, |walker, depth| {
                walker.new_shell(|walker| walker.program(&program, depth))
            });
            self.redirect_variables = outer;
            result?;
        }
        Ok(())
    }
}

enum Item<'t> {
    Program(&'t ast::Word),
    Part(&'t ast::CommandPrefixOrSuffixItem),
}

/// The characters a simple command's words cover, while they are written
/// one after another.
#[derive(Default)]
struct WordsSpan {
    range: Option<std::ops::Range<usize>>,
    /// A redirection came after the first word: another word ends the run.
    interrupted: bool,
    /// The words cannot be cut out of the line as one piece.
    broken: bool,
}

impl WordsSpan {
    fn word(&mut self, location: Option<&brush_parser::SourceSpan>) {
        let Some(location) = location else {
            self.broken = true;
            return;
        };
        match &mut self.range {
            None => self.range = Some(location.start.index..location.end.index),
            Some(_) if self.interrupted => self.broken = true,
            Some(range) => range.end = location.end.index,
        }
    }

    fn interrupt(&mut self) {
        self.interrupted |= self.range.is_some();
    }

    fn range(self) -> Option<std::ops::Range<usize>> {
        self.range.filter(|_| !self.broken)
    }
}

fn process_substitution_source(kind: &ast::ProcessSubstitutionKind) -> String {
    match kind {
        ast::ProcessSubstitutionKind::Read => "<(...)".to_owned(),
        ast::ProcessSubstitutionKind::Write => ">(...)".to_owned(),
    }
}

fn redirect_source(redirect: &Redirect) -> String {
    let operator = match redirect.kind {
        RedirectKind::Read => "<",
        RedirectKind::Write => ">",
        RedirectKind::Append => ">>",
        RedirectKind::ReadWrite => "<>",
        RedirectKind::Clobber => ">|",
        RedirectKind::DuplicateInput => "<&",
        RedirectKind::DuplicateOutput => ">&",
        RedirectKind::OutputAndError => "&>",
        RedirectKind::HereDocument => "<<...",
        RedirectKind::HereString => "<<<",
    };
    let fd = match (&redirect.variable, redirect.fd) {
        (Some(name), _) => format!("{{{name}}}"),
        (None, Some(fd)) => fd.to_string(),
        (None, None) => String::new(),
    };
    if redirect.kind == RedirectKind::HereDocument {
        return format!("{fd}{operator}");
    }
    format!("{fd}{operator}{}", redirect.target.source())
}
