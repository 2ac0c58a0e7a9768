//! brush-parser's tree, walked into a [`Script`].

use brush_parser::ast;

use super::words::{WordReader, static_word};
use super::{
    Assignment, Construct, ConstructKind, MAX_NESTING, NotStatic, ParseError, Redirect,
    RedirectKind, Script, SimpleCommand, Word,
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

/// Parses and walks `line` on a thread with a large stack (where its tree
/// is also dropped), waiting at most [`PARSE_DEADLINE`]. A line that takes
/// longer is refused; its thread is left to finish in the background (the
/// hook's process exits right after answering).
pub(super) fn parse_and_walk(line: &str) -> Result<Script, ParseError> {
    let owned = line.to_owned();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("aigent-shell-parse".to_owned())
        .stack_size(DEEP_STACK_BYTES)
        .spawn(move || {
            let _ = sender.send(tokenize(&owned).and_then(|tokens| walk_tokens(&owned, &tokens)));
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

/// The line's tokens (one linear pass), refused when a `(` is never
/// closed: bash refuses such a line too, and brush-parser's search on it
/// takes time exponential in the number of `(`.
fn tokenize(line: &str) -> Result<Vec<brush_parser::Token>, ParseError> {
    let tokens = brush_parser::tokenize_str_with_options(line, &options().tokenizer_options())
        .map_err(|error| ParseError::Syntax(one_line(&error.to_string())))?;
    // Brackets and braces still open, and the most at once: a line nested
    // past MAX_NESTING is refused here, before the parser recurses through
    // every level (seconds, for ten thousand `{`).
    let (mut parens, mut depth, mut deepest) = (0usize, 0usize, 0usize);
    for token in &tokens {
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
    }
    if parens > 0 {
        return Err(ParseError::Syntax("a `(` is never closed".to_owned()));
    }
    if deepest > MAX_NESTING {
        return Err(ParseError::TooDeep);
    }
    Ok(tokens)
}

fn walk_tokens(line: &str, tokens: &[brush_parser::Token]) -> Result<Script, ParseError> {
    let program = brush_parser::parse_tokens(tokens, &options())
        .map_err(|error| ParseError::Syntax(one_line(&error.to_string())))?;
    let mut script = Script::default();
    Walker::new(&mut script, line).program(&program, 0)?;
    Ok(script)
}

/// A command substitution's text, parsed on the walk's own thread.
fn parse_here(line: &str) -> Result<ast::Program, ParseError> {
    let tokens = tokenize(line)?;
    brush_parser::parse_tokens(&tokens, &options())
        .map_err(|error| ParseError::Syntax(one_line(&error.to_string())))
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
}

impl<'a> Walker<'a> {
    pub(super) fn new(script: &'a mut Script, line: &str) -> Self {
        Self {
            script,
            within: None,
            budget: line.len().saturating_mul(4).saturating_add(64 * 1024),
        }
    }

    fn nested<T>(
        &mut self,
        within: &'static str,
        depth: usize,
        walk: impl FnOnce(&mut Walker<'_>, usize) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        if depth >= MAX_NESTING {
            return Err(ParseError::TooDeep);
        }
        let outer = self.within.replace(within);
        let result = walk(self, depth + 1);
        self.within = outer;
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
        for ast::CompoundListItem(and_or, _separator) in &list.0 {
            self.pipeline(&and_or.first, depth)?;
            for next in &and_or.additional {
                let (ast::AndOr::And(pipeline) | ast::AndOr::Or(pipeline)) = next;
                self.pipeline(pipeline, depth)?;
            }
        }
        Ok(())
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, depth: usize) -> Result<(), ParseError> {
        for command in &pipeline.seq {
            self.command(command, depth)?;
        }
        Ok(())
    }

    fn command(&mut self, command: &ast::Command, depth: usize) -> Result<(), ParseError> {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, depth),
            ast::Command::Compound(compound, redirects) => {
                self.compound(compound, depth)?;
                self.trailing_redirects(redirects.as_ref(), depth)
            }
            ast::Command::Function(function) => {
                self.script.constructs.push(Construct {
                    kind: ConstructKind::FunctionDefinition,
                    name: Some(function.fname.value.clone()),
                    why_not_static: None,
                    evaluates_text: false,
                });
                let ast::FunctionBody(body, redirects) = &function.body;
                self.nested("function body", depth, |walker, depth| {
                    walker.compound(body, depth)?;
                    walker.trailing_redirects(redirects.as_ref(), depth)
                })
            }
            ast::Command::ExtendedTest(test, redirects) => {
                let mut why_not_static = None;
                let mut evaluates_text = false;
                self.extended_test(&test.expr, depth, &mut why_not_static, &mut evaluates_text)?;
                self.script.constructs.push(Construct {
                    kind: ConstructKind::ExtendedTest,
                    name: None,
                    why_not_static,
                    evaluates_text,
                });
                self.trailing_redirects(redirects.as_ref(), depth)
            }
        }
    }

    fn compound(
        &mut self,
        compound: &ast::CompoundCommand,
        depth: usize,
    ) -> Result<(), ParseError> {
        match compound {
            ast::CompoundCommand::Arithmetic(_) | ast::CompoundCommand::ArithmeticForClause(_) => {
                self.script.constructs.push(Construct {
                    kind: ConstructKind::Arithmetic,
                    name: None,
                    why_not_static: None,
                    evaluates_text: false,
                });
                if let ast::CompoundCommand::ArithmeticForClause(clause) = compound {
                    self.nested("for loop", depth, |walker, depth| {
                        walker.compound_list(&clause.body.list, depth)
                    })?;
                }
                Ok(())
            }
            ast::CompoundCommand::BraceGroup(group) => {
                self.nested("group", depth, |walker, depth| {
                    walker.compound_list(&group.list, depth)
                })
            }
            ast::CompoundCommand::Subshell(subshell) => {
                self.nested("subshell", depth, |walker, depth| {
                    walker.compound_list(&subshell.list, depth)
                })
            }
            ast::CompoundCommand::ForClause(clause) => {
                self.script.constructs.push(Construct {
                    kind: ConstructKind::LoopVariable,
                    name: Some(clause.variable_name.clone()),
                    why_not_static: None,
                    evaluates_text: false,
                });
                self.nested("for loop", depth, |walker, depth| {
                    for word in clause.values.iter().flatten() {
                        walker.word(&word.value, depth)?;
                    }
                    walker.compound_list(&clause.body.list, depth)
                })
            }
            ast::CompoundCommand::CaseClause(clause) => {
                self.nested("case", depth, |walker, depth| {
                    walker.word(&clause.value.value, depth)?;
                    for item in &clause.cases {
                        for pattern in &item.patterns {
                            walker.word(&pattern.value, depth)?;
                        }
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
                    walker.compound_list(condition, depth)?;
                    walker.compound_list(&body.list, depth)
                })
            }
            ast::CompoundCommand::Coprocess(coprocess) => {
                self.script.constructs.push(Construct {
                    kind: ConstructKind::Coprocess,
                    name: coprocess.name.as_ref().map(|name| name.value.clone()),
                    why_not_static: None,
                    evaluates_text: false,
                });
                self.nested("coprocess", depth, |walker, depth| {
                    walker.command(&coprocess.body, depth)
                })
            }
        }
    }

    fn extended_test(
        &mut self,
        expr: &ast::ExtendedTestExpr,
        depth: usize,
        why_not_static: &mut Option<NotStatic>,
        evaluates_text: &mut bool,
    ) -> Result<(), ParseError> {
        if depth >= MAX_NESTING {
            return Err(ParseError::TooDeep);
        }
        let mut operand = |walker: &mut Self, word: &ast::Word| -> Result<(), ParseError> {
            match walker.word(&word.value, depth)? {
                Word::Dynamic { why, .. } => {
                    why_not_static.get_or_insert(why);
                }
                Word::Static { text } => *evaluates_text |= text.contains(['$', '`']),
            }
            Ok(())
        };
        match expr {
            ast::ExtendedTestExpr::And(left, right) | ast::ExtendedTestExpr::Or(left, right) => {
                self.extended_test(left, depth + 1, why_not_static, evaluates_text)?;
                self.extended_test(right, depth + 1, why_not_static, evaluates_text)
            }
            ast::ExtendedTestExpr::Not(inner) | ast::ExtendedTestExpr::Parenthesized(inner) => {
                self.extended_test(inner, depth + 1, why_not_static, evaluates_text)
            }
            ast::ExtendedTestExpr::UnaryTest(_, word) => operand(self, word),
            ast::ExtendedTestExpr::BinaryTest(_, left, right) => {
                operand(self, left)?;
                operand(self, right)
            }
        }
    }

    /// Redirections after a compound command apply to every command in it;
    /// they are recorded on a command of their own.
    fn trailing_redirects(
        &mut self,
        redirects: Option<&ast::RedirectList>,
        depth: usize,
    ) -> Result<(), ParseError> {
        let Some(ast::RedirectList(list)) = redirects else {
            return Ok(());
        };
        let mut command = self.empty_command();
        for redirect in list {
            let redirect = self.redirect(redirect, depth)?;
            command.source.push_str(&redirect_source(&redirect));
            command.redirects.push(redirect);
        }
        self.script.commands.push(command);
        Ok(())
    }

    fn empty_command(&self) -> SimpleCommand {
        SimpleCommand {
            source: String::new(),
            assignments: Vec::new(),
            words: Vec::new(),
            redirects: Vec::new(),
            within: self.within,
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
        for item in items {
            match item {
                Item::Program(word) => {
                    seen_program = true;
                    source.push(word.value.clone());
                    command.words.push(self.word(&word.value, depth)?);
                }
                Item::Part(ast::CommandPrefixOrSuffixItem::Word(word)) => {
                    source.push(word.value.clone());
                    command.words.push(self.word(&word.value, depth)?);
                }
                Item::Part(ast::CommandPrefixOrSuffixItem::AssignmentWord(assignment, word)) => {
                    source.push(word.value.clone());
                    let assignment = self.assignment(assignment, depth)?;
                    if seen_program {
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
                    let redirect = self.redirect(redirect, depth)?;
                    source.push(redirect_source(&redirect));
                    command.redirects.push(redirect);
                }
                Item::Part(ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, subshell)) => {
                    let text = process_substitution_source(kind);
                    source.push(text.clone());
                    self.nested("process substitution", depth, |walker, depth| {
                        walker.compound_list(&subshell.list, depth)
                    })?;
                    command.words.push(Word::Dynamic {
                        source: text,
                        why: NotStatic::ProcessSubstitution,
                    });
                }
            }
        }
        command.source = source.join(" ");
        self.script.commands.push(command);
        Ok(())
    }

    fn assignment(
        &mut self,
        assignment: &ast::Assignment,
        depth: usize,
    ) -> Result<Assignment, ParseError> {
        let name = match &assignment.name {
            ast::AssignmentName::VariableName(name) => name.clone(),
            ast::AssignmentName::ArrayElementName(name, index) => format!("{name}[{index}]"),
        };
        let value = match &assignment.value {
            ast::AssignmentValue::Scalar(word) => self.word(&word.value, depth)?,
            ast::AssignmentValue::Array(items) => {
                for (index, item) in items {
                    if let Some(index) = index {
                        self.word(&index.value, depth)?;
                    }
                    self.word(&item.value, depth)?;
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
                        self.word(&word.value, depth)?
                    }
                    ast::IoFileRedirectTarget::Fd(fd) => Word::Static {
                        text: fd.to_string(),
                    },
                    ast::IoFileRedirectTarget::ProcessSubstitution(kind, subshell) => {
                        self.nested("process substitution", depth, |walker, depth| {
                            walker.compound_list(&subshell.list, depth)
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
                }
            }
            ast::IoRedirect::HereDocument(io_fd, here) => {
                let body = &here.doc.value;
                let target = if here.requires_expansion && body.contains(['$', '`']) {
                    Word::Dynamic {
                        source: format!("<<{}", here.here_end.value),
                        why: NotStatic::HereDocExpansion,
                    }
                } else {
                    Word::Static { text: body.clone() }
                };
                Redirect {
                    fd: fd(io_fd),
                    kind: RedirectKind::HereDocument,
                    target,
                }
            }
            ast::IoRedirect::HereString(io_fd, word) => Redirect {
                fd: fd(io_fd),
                kind: RedirectKind::HereString,
                target: self.word(&word.value, depth)?,
            },
            ast::IoRedirect::OutputAndError(word, _append) => Redirect {
                fd: None,
                kind: RedirectKind::OutputAndError,
                target: self.word(&word.value, depth)?,
            },
        })
    }

    /// One word: static, or why not. Command substitutions inside it are
    /// parsed and walked, so that their commands are judged too.
    fn word(&mut self, raw: &str, depth: usize) -> Result<Word, ParseError> {
        let mut reader = WordReader::default();
        let word = static_word(raw, &mut reader);
        for inner in reader.substitutions {
            if depth + 1 >= MAX_NESTING {
                return Err(ParseError::TooDeep);
            }
            self.budget = self
                .budget
                .checked_sub(inner.len())
                .ok_or(ParseError::TooDeep)?;
            let program = parse_here(&inner)?;
            self.nested("command substitution", depth, |walker, depth| {
                walker.program(&program, depth)
            })?;
        }
        Ok(word)
    }
}

enum Item<'t> {
    Program(&'t ast::Word),
    Part(&'t ast::CommandPrefixOrSuffixItem),
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
        RedirectKind::HereDocument => return "<<...".to_owned(),
        RedirectKind::HereString => "<<<",
    };
    let fd = redirect.fd.map(|fd| fd.to_string()).unwrap_or_default();
    format!("{fd}{operator}{}", redirect.target.source())
}
